/*
 * selection: the method, call and call path selected, kept consistent:
 * a path ends at the method, a call's path is its stack.
 */
#include "config.h"

#include "tui/selection.h"

#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

void
selection_init(struct selection *s)
{
	memset(s, 0, sizeof(*s));
	s->method = CALL_NONE;
	s->call = CALL_NONE;
	s->thread = UINT32_MAX;
	s->by = -1;
}

void
selection_done(struct selection *s)
{
	free(s->path);
	selection_init(s);
}

/* The selection changed, by view `by`. */
static void
changed(struct selection *s, int by)
{
	s->serial++;
	s->by = by;
}

bool
selection_set_method(struct selection *s, uint32_t m, int by)
{
	if (m == s->method)
		return false;
	s->method = m;
	s->call = CALL_NONE;
	s->thread = UINT32_MAX;
	s->npath = 0;
	changed(s, by);
	return true;
}

bool
selection_path_is(const struct selection *s, const uint32_t *path, size_t n)
{
	return n == s->npath &&
	       (!n || !memcmp(path, s->path, n * sizeof(*path)));
}

/* Make path[0..n) the selection's path. */
static void
set_path(struct selection *s, const uint32_t *path, size_t n)
{
	UTIL_GROW(s->path, s->path_cap, n + 1);
	if (n)
		memmove(s->path, path, n * sizeof(*path));
	s->npath = n;
}

bool
selection_set_path(struct selection *s, const uint32_t *path, size_t n, int by)
{
	if (!n)
		return false;
	if (s->method == path[n - 1] && selection_path_is(s, path, n))
		return false;
	s->method = path[n - 1];
	s->call = CALL_NONE;
	s->thread = UINT32_MAX;
	set_path(s, path, n);
	changed(s, by);
	return true;
}

bool
selection_set_call(struct selection *s, const struct calltree *tree, uint32_t t,
                   uint32_t c, int by)
{
	uint32_t g;
	size_t n = 0, i;

	if (c == CALL_NONE)
		return false;
	if (s->call == c && s->thread == t)
		return false;
	for (g = c; g != CALL_NONE; g = calltree_parent(tree, g))
		n++;
	UTIL_GROW(s->path, s->path_cap, n + 1);
	for (g = c, i = n; g != CALL_NONE; g = calltree_parent(tree, g))
		s->path[--i] = calltree_method(tree, g);
	s->npath = n;
	s->method = calltree_method(tree, c);
	s->call = c;
	s->thread = t;
	changed(s, by);
	return true;
}

void
selection_forget_calls(struct selection *s)
{
	if (s->call == CALL_NONE && !s->npath)
		return;
	s->call = CALL_NONE;
	s->thread = UINT32_MAX;
	s->npath = 0;
	changed(s, -1);
}
