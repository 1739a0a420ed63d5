/*
 * list: cursor and scroll arithmetic over row indices; nothing here
 * knows what a row is.  Moves are made on positions among the rows
 * shown (the row itself without a filter, its index in `shown` with
 * one) and turned back into rows.  The list view's ops and the method
 * filter are at the end.
 */
#include "config.h"

#include "tui/list.h"

#include "query/method-name.h"
#include "util/alloc.h"
#include "util/pattern.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

/* How many rows show. */
static size_t
visible(const struct list *l)
{
	return l->filter ? l->nshown : l->count;
}

/* The row shown at position pos. */
static size_t
row_at(const struct list *l, size_t pos)
{
	return l->filter ? l->shown[pos] : pos;
}

/* The position of row, or of the first row shown after it (the number
 * shown when none is). */
static size_t
pos_of(const struct list *l, size_t row)
{
	size_t lo = 0, hi = l->nshown;

	if (!l->filter)
		return row;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->shown[mid] < row)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The position of row among the rows shown, the last when past them. */
static size_t
clamped_pos(const struct list *l, size_t row)
{
	size_t n = visible(l), pos = pos_of(l, row);

	return pos < n ? pos : n ? n - 1 : 0;
}

/* Cursor and top on rows shown (when any is). */
static void
settle(struct list *l)
{
	if (!l->filter || !l->nshown)
		return;
	l->cursor = row_at(l, clamped_pos(l, l->cursor));
	l->top = row_at(l, clamped_pos(l, l->top));
}

/* Ask the filter about every row again. */
static void
refilter(struct list *l)
{
	size_t i;

	l->nshown = 0;
	if (!l->filter)
		return;
	for (i = 0; i < l->count; i++) {
		if (l->filter(i, l->filter_arg)) {
			UTIL_GROW(l->shown, l->shown_cap, l->nshown + 1);
			l->shown[l->nshown++] = i;
		}
	}
}

void
list_set_count(struct list *l, size_t count)
{
	l->count = count;
	if (l->cursor >= count)
		l->cursor = count ? count - 1 : 0;
	if (l->top >= count)
		l->top = count ? count - 1 : 0;
	refilter(l);
	settle(l);
}

void
list_filter(struct list *l, list_match_fn *match, void *arg)
{
	l->filter = match;
	l->filter_arg = arg;
	refilter(l);
	settle(l);
}

size_t
list_visible(const struct list *l)
{
	return visible(l);
}

size_t
list_position(const struct list *l)
{
	return visible(l) ? clamped_pos(l, l->cursor) + 1 : 0;
}

size_t
list_first(const struct list *l)
{
	return visible(l) ? row_at(l, 0) : l->count;
}

size_t
list_next(const struct list *l, size_t row)
{
	size_t pos;

	if (!l->filter)
		return row + 1;
	pos = pos_of(l, row + 1);
	return pos < l->nshown ? l->shown[pos] : l->count;
}

void
list_done(struct list *l)
{
	free(l->shown);
	l->shown = NULL;
	l->nshown = l->shown_cap = 0;
}

/* True when pattern holds an upper case letter (any script, in the
 * locale's encoding). */
static bool
has_upper(const char *pattern)
{
	mbstate_t st = {0};
	const char *p = pattern;

	while (*p) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, p, MB_CUR_MAX, &st);

		if (n == (size_t)-1 || n == (size_t)-2) {
			/* Not a character here: an ASCII test on the byte. */
			memset(&st, 0, sizeof(st));
			if (*p >= 'A' && *p <= 'Z')
				return true;
			p++;
			continue;
		}
		if (iswupper((wint_t)wc))
			return true;
		p += n ? n : 1;
	}
	return false;
}

/* The end of the bracket expression opening at p ('['), or NULL. */
static const char *
bracket_end(const char *p)
{
	p++;
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	for (; *p && *p != ']'; p++)
		if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
			const char *e = strchr(p + 2, p[1]);

			while (e && e[1] != ']')
				e = strchr(e + 1, p[1]);
			if (!e)
				return NULL;
			p = e + 1;
		}
	return *p ? p : NULL;
}

/* Pattern with each end anchor ($) also allowing a signature after it
 * (" (...)"), so that "Looper.loop$" ends at a method's name; pattern
 * as it is when it matches a '(' itself (\( or in brackets): it then
 * looks at signatures. */
static char *
anchor_names(const char *pattern)
{
	static const char sig[] = "( \\(.*)?$";
	size_t n = 0, cap = strlen(pattern) * sizeof(sig) + 1;
	char *out = xmalloc(cap);
	const char *p;

	for (p = pattern; *p; p++) {
		if (*p == '\\' && p[1]) {
			if (p[1] == '(')
				goto as_is;
			out[n++] = *p++;
			out[n++] = *p;
		} else if (*p == '[') {
			const char *e = bracket_end(p);

			if (!e)
				goto as_is;
			if (memchr(p, '(', (size_t)(e - p)))
				goto as_is;
			memcpy(out + n, p, (size_t)(e - p) + 1);
			n += (size_t)(e - p) + 1;
			p = e;
		} else if (*p == '$') {
			memcpy(out + n, sig, sizeof(sig) - 1);
			n += sizeof(sig) - 1;
		} else {
			out[n++] = *p;
		}
	}
	out[n] = '\0';
	return out;
as_is:
	free(out);
	return xstrdup(pattern);
}

int
list_regcomp(regex_t *re, const char *pattern, char *why, size_t size)
{
	const char *refused = pattern_refusal(pattern);
	char *anchored;
	int rc;

	/* The limits are the user's pattern's, then what regcomp sees. */
	if (refused) {
		snprintf(why, size, "%s", refused);
		return REG_ESPACE;
	}
	anchored = anchor_names(pattern);
	rc = pattern_compile(re, anchored,
	                     REG_EXTENDED | REG_NOSUB |
	                             (has_upper(pattern) ? 0 : REG_ICASE),
	                     why, size);
	free(anchored);
	return rc;
}

void
list_layout(struct list *l, size_t height)
{
	size_t n = visible(l), tp, cp;

	l->height = height;
	if (!n)
		return;
	settle(l);
	tp = clamped_pos(l, l->top);
	if (l->pager) {
		if (n <= height)
			tp = 0;
		else if (tp > n - height)
			tp = n - height;
		l->top = row_at(l, tp);
		return;
	}
	cp = clamped_pos(l, l->cursor);
	if (cp < tp)
		tp = cp;
	if (height && cp >= tp + height)
		tp = cp - height + 1;
	l->top = row_at(l, tp);
}

void
list_select(struct list *l, size_t row)
{
	l->cursor = row < l->count ? row : l->count ? l->count - 1 : 0;
	settle(l);
}

void
list_reset(struct list *l)
{
	l->cursor = l->top = visible(l) ? row_at(l, 0) : 0;
}

size_t
list_page(const struct list *l)
{
	return l->height > 1 ? l->height - 1 : 1;
}

/* Position pos moved by delta, within [0, n). */
static size_t
moved(size_t pos, long delta, size_t n)
{
	if (delta < 0)
		return (size_t)-delta < pos ? pos - (size_t)-delta : 0;
	return pos + (size_t)delta < n ? pos + (size_t)delta : n - 1;
}

bool
list_move(struct list *l, enum request req)
{
	long page = (long)list_page(l), delta;
	size_t n = visible(l), *at = l->pager ? &l->top : &l->cursor;

	switch (req) {
	case REQ_MOVE_UP:
		delta = -1;
		break;
	case REQ_MOVE_DOWN:
		delta = 1;
		break;
	case REQ_PAGE_UP:
		delta = -page;
		break;
	case REQ_PAGE_DOWN:
		delta = page;
		break;
	case REQ_MOVE_FIRST:
		if (n)
			*at = row_at(l, 0);
		return true;
	case REQ_MOVE_LAST:
		if (n)
			*at = row_at(l, n - 1);
		return true;
	default:
		return false;
	}
	/* A pager scrolls; the layout keeps its last page full. */
	if (n)
		*at = row_at(l, moved(clamped_pos(l, *at), delta, n));
	return true;
}

bool
list_search(struct list *l, int dir, list_match_fn *match, void *arg,
            struct list_hit *hit)
{
	size_t n = visible(l), i, pos = 0, at = 0, nth = 0, total = 0, from;
	bool found = false;

	if (!n)
		return false;
	from = clamped_pos(l, l->cursor);
	for (i = 1; i <= n && !found; i++) {
		pos = (from + n + (size_t)dir * i) % n;
		at = row_at(l, pos);
		found = match(at, arg);
	}
	if (!found)
		return false;
	l->cursor = at;
	if (l->pager)
		l->top = at;
	if (hit) {
		for (i = 0; i < n; i++) {
			if (i == pos || match(row_at(l, i), arg)) {
				total++;
				if (i <= pos)
					nth++;
			}
		}
		hit->nth = nth;
		hit->total = total;
	}
	return true;
}

void
list_scroll(struct list *l, long delta)
{
	size_t n = visible(l), height = l->height ? l->height : 1;
	size_t last_top = n > height ? n - height : 0, tp, top, cp;

	if (!n)
		return;
	tp = clamped_pos(l, l->top);
	if (delta < 0)
		top = (size_t)-delta < tp ? tp - (size_t)-delta : 0;
	else
		top = tp + (size_t)delta < last_top ? tp + (size_t)delta
		                                    : last_top;
	cp = clamped_pos(l, l->cursor);
	if (l->pager) {
		l->top = row_at(l, top);
		return;
	}
	if (top == tp) {
		l->cursor = row_at(l, moved(cp, delta, n));
		return;
	}
	l->top = row_at(l, top);
	if (cp < top)
		cp = top;
	if (cp >= top + height)
		cp = top + height - 1;
	l->cursor = row_at(l, cp);
}

size_t
list_row_at(const struct list *l, int y)
{
	size_t n = visible(l), pos;

	if (!n || y < l->y || (size_t)(y - l->y) >= l->height)
		return SIZE_MAX;
	pos = clamped_pos(l, l->top) + (size_t)(y - l->y);
	return pos < n ? row_at(l, pos) : SIZE_MAX;
}

enum list_click
list_mouse(struct list *l, const struct mouse_event *ev)
{
	size_t row;

	if (ev->kind == MOUSE_WHEEL) {
		if (!ev->dy || !visible(l))
			return LIST_MISSED;
		list_scroll(l, (long)ev->dy * MOUSE_WHEEL_ROWS);
		return LIST_MOVED;
	}
	if (l->pager || ev->button != 0 ||
	    (ev->kind != MOUSE_PRESS && ev->kind != MOUSE_DRAG))
		return LIST_MISSED;
	row = list_row_at(l, ev->y);
	if (row == SIZE_MAX)
		return LIST_MISSED;
	if (row == l->cursor)
		return ev->kind == MOUSE_PRESS ? LIST_AGAIN : LIST_MISSED;
	l->cursor = row;
	return LIST_MOVED;
}

void
list_rows(struct list *l, list_row_match_fn *match, void *arg)
{
	l->row_match = match;
	l->row_arg = arg;
}

/* The pattern in arg (a { list, pattern } pair) matches row. */
static bool
matches_pattern(size_t row, void *arg)
{
	void **a = arg;
	const struct list *l = a[0];

	return l->row_match(row, a[1], l->row_arg);
}

bool
list_find(struct list *l, const regex_t *re, int dir, size_t *nth,
          size_t *total)
{
	void *arg[2] = {l, (void *)re};
	struct list_hit hit;

	if (!list_search(l, dir, matches_pattern, arg, &hit))
		return false;
	*nth = hit.nth;
	*total = hit.total;
	return true;
}

/* The pattern list_keep set matches row. */
static bool
kept_row(size_t row, void *arg)
{
	const struct list *l = arg;

	return l->row_match(row, l->kept, l->row_arg);
}

size_t
list_keep(struct list *l, const regex_t *re)
{
	l->kept = re;
	list_filter(l, re ? kept_row : NULL, l);
	return list_visible(l);
}

void
list_view_open(struct list_view *lv, const struct app *app,
               list_row_match_fn *match, void *arg)
{
	lv->app = app;
	list_rows(&lv->list, match, arg);
}

bool
list_view_stale(const struct list_view *lv, const struct scope *s)
{
	return !lv->built.on || !scope_equal(&lv->built, s);
}

void
list_view_built(struct list_view *lv, const struct scope *s)
{
	scope_copy(&lv->built, s);
}

void
list_view_done(struct list_view *lv)
{
	list_done(&lv->list);
	if (lv->built.on)
		scope_done(&lv->built);
}

bool
list_view_find(void *state, const struct app *app, const regex_t *re, int dir,
               struct view_ask *ask)
{
	struct list_view *lv = state;

	lv->app = app;
	return list_find(&lv->list, re, dir, &ask->match, &ask->matches);
}

size_t
list_view_filter(void *state, const struct app *app, const regex_t *re)
{
	struct list_view *lv = state;

	lv->app = app;
	return list_keep(&lv->list, re);
}

const struct list *
list_view_cursor(void *state)
{
	const struct list_view *lv = state;

	return &lv->list;
}

enum view_result
list_view_mouse(void *state, struct app *app, const struct mouse_event *ev,
                struct view_ask *ask)
{
	struct list_view *lv = state;

	(void)app, (void)ask;
	return view_click(list_mouse(&lv->list, ev));
}

bool
list_method_matches(const struct calltree *tree, uint32_t m, const regex_t *re)
{
	char *name = method_full_name(&tree->methods[m]);
	bool hit = regexec(re, name, 0, NULL, 0) == 0;

	free(name);
	return hit;
}

void
list_methods_set(struct list_methods *lm, const struct calltree *tree,
                 const regex_t *re)
{
	lm->tree = tree;
	lm->re = re;
	free(lm->kept);
	lm->kept = re ? xcalloc(tree->nmethods + 1, 1) : NULL;
}

bool
list_methods_keep(struct list_methods *lm, uint32_t m)
{
	if (!lm->kept[m])
		lm->kept[m] = list_method_matches(lm->tree, m, lm->re) ? 2 : 1;
	return lm->kept[m] == 2;
}

void
list_methods_done(struct list_methods *lm)
{
	free(lm->kept);
	lm->kept = NULL;
	lm->re = NULL;
}
