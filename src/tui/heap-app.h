/*
 * heap-app: the viewer of a Java heap dump: its views (classes,
 * instances of a class, an object's fields, its path from a GC root,
 * dominators, leaks, duplicates, help), the selection they share (a
 * histogram row and an object), the history Enter makes, the heaps
 * shown, and the dominators, paths and leaks computed on a second
 * thread while the first screen shows.
 *
 * Nothing here waits for that thread: the views show instances and
 * shallow sizes at once, and their retained sizes, paths and leaks
 * once heap_app_poll says they arrived (app->dom, app->paths and
 * app->leaks stay NULL until then).
 */
#ifndef TRACETUI_HEAP_APP_H
#define TRACETUI_HEAP_APP_H

#include "model/heap.h"
#include "query/heap-dominators.h"
#include "query/heap-histogram.h"
#include "query/heap-leaks.h"
#include "query/heap-paths.h"
#include "text/table.h"
#include "tui/canvas.h"
#include "tui/list.h"
#include "tui/mouse.h"
#include "tui/request.h"

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The views, in the order Tab cycles through them. */
enum heap_view {
	HEAP_VIEW_CLASSES,
	HEAP_VIEW_INSTANCES,
	HEAP_VIEW_FIELDS,
	HEAP_VIEW_PATH,
	HEAP_VIEW_DOMINATORS,
	HEAP_VIEW_LEAKS,
	HEAP_VIEW_DUPLICATES,
	HEAP_VIEW_HELP,
	HEAP_VIEW_COUNT,
};

/* A place in the history: a view and the selection it showed. */
struct heap_place {
	enum heap_view view;
	uint32_t row, object;
};

struct heap_background; /* the second thread's work */

struct heap_app {
	struct heap_dump *dump;
	char *name; /* the file's name, for the title */
	/* What the second thread computed, NULL until it arrived. */
	const struct heap_dominators *dom;
	const struct heap_paths *paths;
	const struct heap_leak *leaks;
	size_t nleaks;
	struct heap_background *bg;
	/* The heaps shown: a heap's name or "all", and its flags (NULL:
	 * every heap), and their histogram (retained sizes 0 until dom). */
	const char *heap;
	bool *shown;
	struct heap_histogram hist;
	/* Bumped whenever the numbers change (heaps, dominators, paths):
	 * a view whose copy differs builds its rows again. */
	unsigned serial;
	/* The selection: a histogram row and an object, or HEAP_NONE. */
	uint32_t row, object;
	enum heap_view view;
	void *state[HEAP_VIEW_COUNT];
	struct heap_place *history;
	size_t nhistory, at, history_cap;
	/* A search or filter pattern being typed (prompt '/' or '&'). */
	char prompt;
	char input[256];
	size_t input_len;
	regex_t search;
	bool has_search;
	regex_t kept[HEAP_VIEW_COUNT]; /* each view's filter */
	bool has_kept[HEAP_VIEW_COUNT];
	char message[256];
	bool message_warn;
	bool all_columns;
	bool quit;
};

/* What a view does; each is a file of tui/views/heap-*.c. */
struct heap_view_ops {
	const char *name;  /* the title line's */
	const char *hints; /* the hint line's */
	void *(*open)(struct heap_app *app);
	void (*close)(void *state);
	/* Draw into rows [top, top + height) of the canvas, first building
	 * the rows again if the app's serial or selection moved on. */
	void (*draw)(void *state, struct heap_app *app, struct canvas *c,
	             int top, int height);
	/* Build the rows again if the app's serial or selection moved on
	 * (before a key is handled as before a draw: keys typed ahead of
	 * the screen act on the rows they would have seen).  NULL: none. */
	void (*sync)(void *state, struct heap_app *app);
	/* A request the app does not handle itself: true when handled. */
	bool (*handle)(void *state, struct heap_app *app, enum request req);
	/* The list of rows, for moving, search and filter. */
	struct list *(*list)(void *state);
	/* A mouse event the list does not take (a click on a header):
	 * true when handled.  NULL: none. */
	bool (*mouse)(void *state, struct heap_app *app,
	              const struct mouse_event *ev);
	/* The rows shown as a new table, for `w`; NULL: none. */
	struct table *(*rows)(void *state);
	/* What the title adds after the view's name (a new string) or
	 * NULL. */
	char *(*title)(void *state, const struct heap_app *app);
	/* The selected row said in the status line (a new string) or
	 * NULL. */
	char *(*status)(void *state, const struct heap_app *app);
};

extern const struct heap_view_ops heap_classes_ops, heap_instances_ops,
        heap_fields_ops, heap_path_ops, heap_dominators_ops, heap_leaks_ops,
        heap_duplicates_ops, heap_help_ops;

/* The viewer of d (taken), its name as given, showing heap first (one
 * of heap_named's); starts the second thread (or computes it all at
 * once when none can start). */
struct heap_app *heap_app_new(struct heap_dump *d, const char *path,
                              const char *heap);
/* Stop and release everything. */
void heap_app_free(struct heap_app *app);
/* Take what the second thread finished since the last call; true
 * when something arrived (the screen is to be drawn again). */
bool heap_app_poll(struct heap_app *app);
/* Whether the second thread is still at work. */
bool heap_app_busy(const struct heap_app *app);
/* Handle a key. */
void heap_app_key(struct heap_app *app, int key);
/* Draw the title, the view, the status and the hints. */
void heap_app_draw(struct heap_app *app, struct canvas *c);

/* The list of the view shown, or NULL. */
struct list *heap_app_list(struct heap_app *app);
/* A mouse event: the view's (a header clicked) or its list's (a row
 * selected, opened when clicked again; the wheel scrolls). */
void heap_app_mouse(struct heap_app *app, const struct mouse_event *ev);
/* Show view, the selection row and object (HEAP_NONE: as they are), as
 * a new place in the history. */
void heap_app_go(struct heap_app *app, enum heap_view view, uint32_t row,
                 uint32_t object);
/* A message for the status line. */
void heap_app_message(struct heap_app *app, bool warn, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
/* The retained size of object i as a cell: the number, or "…" while
 * the dominators are computed. */
char *heap_app_retained(const struct heap_app *app, uint32_t i);

#endif
