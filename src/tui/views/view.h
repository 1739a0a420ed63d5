/*
 * view: the interface every view implements, and the table of views.
 * A view draws into a canvas area, handles requests, searches, and
 * describes its selection for the status line; it never touches the
 * terminal.  Views keep their own state and read the model through the
 * app.  A view with `handle` and `find` never changes the app: it says
 * what it wants changed in a struct view_ask, which the app applies, and
 * the app reads its selected method through `selection`.  (The timeline
 * and icicle still change the app through app functions, in `request`
 * and `search`.)
 *
 * A new view is one file defining view_NAME_ops and one line in
 * VIEW_LIST.
 */
#ifndef TRACETUI_VIEW_H
#define TRACETUI_VIEW_H

#include "model/scope.h"
#include "text/table.h"
#include "tui/canvas.h"
#include "tui/mouse.h"
#include "tui/request.h"

#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

struct app;
struct list; /* tui/list.h */

/* V(ID, name, request that shows it): every view, in the order Tab
 * cycles through them; view ID is APP_VIEW_ID and its operations are
 * view_name_ops. */
#define VIEW_LIST(V)                                                           \
	V(PROFILE, profile, REQ_VIEW_PROFILE)                                  \
	V(TIMELINE, timeline, REQ_VIEW_TIMELINE)                               \
	V(ICICLE, icicle, REQ_VIEW_ICICLE)                                     \
	V(THREADS, threads, REQ_VIEW_THREADS)                                  \
	V(INFO, info, REQ_VIEW_INFO)                                           \
	V(HELP, help, REQ_VIEW_HELP)                                           \
	V(CALLTREE, calltree, REQ_VIEW_CALLTREE)                               \
	V(FRAMES, frames, REQ_VIEW_FRAMES)                                     \
	V(CALLS, calls, REQ_VIEW_CALLS)                                        \
	V(FINDINGS, findings, REQ_VIEW_FINDINGS)

enum app_view {
#define VIEW_ENUM(id, name, req) APP_VIEW_##id,
	VIEW_LIST(VIEW_ENUM)
#undef VIEW_ENUM
	        APP_VIEW_COUNT,
};

/* What a view asks the app to change; the app fills it with how things
 * are before the view is called, and applies what differs after. */
struct view_ask {
	uint32_t method;    /* the method to select */
	enum app_view jump; /* jump there with method, through the history;
	                       APP_VIEW_COUNT: stay */
	bool set_scope;     /* make scope the scope of every view */
	struct scope scope; /* taken over by the app when set_scope */
	char message[160];  /* shown in the status line when not empty */
	size_t match;       /* a search's match among the matching rows,
	                       from 1; 0: none to show */
	size_t matches;     /* how many rows match */
	/* Make range the range of every view first. */
	bool set_range;
	struct time_range range;
	/* Select call `call` of thread call_thread and show it in jump:
	 * the call chart zoomed to it, or the call tree on its path. */
	bool open_call;
	uint32_t call_thread, call;
	/* Show these calls (of thread calls_thread, malloc'd: the app takes
	 * them) in the Calls view, titled calls_title (malloc'd), instead
	 * of the selected method's: the Findings view's Enter. */
	uint32_t *calls;
	size_t ncalls;
	uint32_t calls_thread;
	char *calls_title;
};

enum view_result {
	VIEW_UNHANDLED, /* the app handles the request */
	VIEW_DONE,      /* handled */
	VIEW_AGAIN,     /* a click on what was already selected: the app
	                   makes it Enter */
};

struct view_ops {
	const char *name;  /* shown in the title line */
	const char *hints; /* the key hint line */
	/* The view draws calls, not only the profile: while a model read
	 * for its sums first waits for its calls, the app neither opens
	 * nor shows it. */
	bool needs_calls;
	/* But call paths of scopes without a range will do: it opens on the
	 * paths read with the sums, when they were. */
	bool paths_will_do;
	/* Create the view's state. */
	void *(*open)(struct app *app);
	/* Release the state. */
	void (*close)(void *state);
	/* Draw into rows [top, top + height) of the canvas. */
	void (*draw)(void *state, struct app *app, struct canvas *canvas,
	             int top, int height);
	/* Handle a request; page sizes come from the last draw. */
	enum view_result (*request)(void *state, struct app *app,
	                            enum request req);
	/* Move to the next (dir 1) or previous (-1) row matching re; false
	 * when nothing matches. */
	bool (*search)(void *state, struct app *app, const regex_t *re,
	               int dir);
	/* A list's cursor (NULL: the view has none): the status line says
	 * which of its rows is selected, "row N of M".  NULL: never one. */
	const struct list *(*cursor)(void *state);
	/* The status line text for the selection (a new string) or NULL. */
	char *(*status)(void *state, struct app *app);
	/* The model's scope, clock or selection changed: refresh. */
	void (*refresh)(void *state, struct app *app);
	/* The app's tree became the model of the same trace, read for its
	 * sums first (app_take_calls): what the view keeps of the tree moves
	 * to app->tree.  NULL: it keeps nothing of it. */
	void (*take_model)(void *state, struct app *app);
	/* Make what the next draw would (rows made at draw time), so that
	 * a key read before that draw, in the storm that opened the view
	 * or changed its model, finds them; before handle and find.
	 * NULL: the view's rows are always made. */
	void (*ready)(void *state, struct app *app);
	/* Handle a request, asking for changes through ask; used instead
	 * of request when set. */
	enum view_result (*handle)(void *state, const struct app *app,
	                           enum request req, struct view_ask *ask);
	/* search, asking for changes through ask; used instead of search
	 * when set. */
	bool (*find)(void *state, const struct app *app, const regex_t *re,
	             int dir, struct view_ask *ask);
	/* The method the view's selection stands for, or CALL_NONE; the
	 * app selects it after open, refresh, handle and find. */
	uint32_t (*selection)(void *state);
	/* The call path of methods from a root down to that method (a
	 * top-down tree's node or frame) into *n, valid until the view
	 * changes; NULL when it has none.  NULL: never one. */
	const uint32_t *(*selection_path)(void *state, size_t *n);
	/* A mouse event (canvas cells; drags and releases wherever the
	 * pointer went): select or scroll what is under it as last drawn,
	 * asking for changes through ask (the timeline and icicle change
	 * the app as their requests do).  NULL: the view ignores the
	 * mouse. */
	enum view_result (*mouse)(void *state, struct app *app,
	                          const struct mouse_event *ev,
	                          struct view_ask *ask);
	/* Show only the rows matching re (NULL: every row; re stays the
	 * app's until the next call); how many rows show.  NULL in views
	 * without rows to hide. */
	size_t (*filter)(void *state, const struct app *app, const regex_t *re);
	/* What the title line adds after the view's name (a new string),
	 * such as a summary of its rows, in its form-th form (0: the
	 * longest; each next one shorter, for a narrow terminal); NULL:
	 * nothing, or no such form. */
	char *(*title)(void *state, const struct app *app, int form);
	/* Every row the view shows (all of them, not only the screen's)
	 * as a new table of text cells, for `w`; NULL when it has none. */
	struct table *(*rows)(void *state, struct app *app);
	/* The same rows written straight to out as text or TSV
	 * (table_print_row), for a view with too many to hold as a table;
	 * used instead of rows when set.  Returns how many it wrote. */
	size_t (*write)(void *state, struct app *app, FILE *out,
	                enum table_format format);
};

#define VIEW_EXTERN(id, name, req)                                             \
	extern const struct view_ops view_##name##_ops;
VIEW_LIST(VIEW_EXTERN)
#undef VIEW_EXTERN

#endif
