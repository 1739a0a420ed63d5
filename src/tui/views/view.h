/*
 * view: the interface every view implements (profile, threads, info,
 * help).  A view draws into a canvas area, handles requests, searches,
 * and describes its selection for the status line; it never touches the
 * terminal.  Views keep their own state and read the model through the
 * app; they change what the app shares (selected method, scope) only
 * through app functions.
 */
#ifndef TRACETUI_VIEW_H
#define TRACETUI_VIEW_H

#include "tui/canvas.h"
#include "tui/request.h"

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

struct app;

enum view_result {
	VIEW_UNHANDLED, /* the app handles the request */
	VIEW_DONE,      /* handled */
};

struct view_ops {
	const char *name;  /* shown in the title line */
	const char *hints; /* the key hint line */
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
	/* The status line text for the selection (a new string) or NULL. */
	char *(*status)(void *state, struct app *app);
	/* The model's scope, clock or selection changed: refresh. */
	void (*refresh)(void *state, struct app *app);
};

extern const struct view_ops view_profile_ops;
extern const struct view_ops view_timeline_ops;
extern const struct view_ops view_icicle_ops;
extern const struct view_ops view_threads_ops;
extern const struct view_ops view_info_ops;
extern const struct view_ops view_help_ops;

#endif
