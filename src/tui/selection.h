/*
 * selection: what the user has selected, one thing the app owns and
 * every view shows.  It is a method and, where there is one, a call of
 * it (thread and call index) and the call path down to it (the methods
 * from a root: the call's stack, or a call tree node's or icicle
 * frame's path).  A view sets it through app_select, app_select_path or
 * app_select_call (tui/app.h), or by answering `selection` and
 * `selection_path` (tui/views/view.h); a view reads app->sel when it
 * opens or is shown again, and follows it when serial differs from the
 * one it last saw and by is not itself.
 */
#ifndef TRACETUI_SELECTION_H
#define TRACETUI_SELECTION_H

#include "model/calltree.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct selection {
	uint32_t method; /* CALL_NONE: nothing is selected */
	uint32_t thread; /* the call's thread */
	uint32_t call;   /* the selected call, CALL_NONE: no call */
	uint32_t *path;  /* methods from a root down to method */
	size_t npath;    /* 0: no path known */
	size_t path_cap;
	unsigned serial; /* changes with every change of the above */
	int by;          /* the view that made it (enum app_view); -1: the
	                    app (history, a transform, a jump) */
};

/* An empty selection. */
void selection_init(struct selection *s);
/* Release the path. */
void selection_done(struct selection *s);
/* Select method m (CALL_NONE: nothing); the call and path stay when
 * they are m's.  True when the selection changed. */
bool selection_set_method(struct selection *s, uint32_t m, int by);
/* Select the call path path[0..n) (n > 0) and its last method, without a
 * call unless the selected call has that path.  True on a change. */
bool selection_set_path(struct selection *s, const uint32_t *path, size_t n,
                        int by);
/* Select call c of thread t of tree, its method and its stack.  True on
 * a change. */
bool selection_set_call(struct selection *s, const struct calltree *tree,
                        uint32_t t, uint32_t c, int by);
/* Forget the call and path, keeping the method (a new model: its calls
 * are numbered anew). */
void selection_forget_calls(struct selection *s);
/* Whether the selection's path is path[0..n). */
bool selection_path_is(const struct selection *s, const uint32_t *path,
                       size_t n);

#endif
