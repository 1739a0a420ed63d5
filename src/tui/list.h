/*
 * list: the cursor, scrolling, paging and search that every list-shaped
 * view shares (profile, threads, call tree, info, help).  A list knows
 * its rows by count and index only; the view owns the rows, draws them
 * and says which of them match a search.
 *
 * A cursor list has a selected row kept in view.  A pager (info, help)
 * has none: moving scrolls, the last page stays full, and a search puts
 * the matching row at the top.  A page is the rows shown less one, so a
 * line of context stays on the screen.
 *
 * A filter hides the rows it does not keep: moving, paging and search
 * step over them, and the cursor and top are always kept rows (when any
 * is).  The rows themselves, and their numbers, stay the view's.
 *
 * A list view (frames, calls, threads, findings) begins its state with
 * a struct list_view: its list, the app its rows' matcher reads and
 * the scope its rows were made for.  list_view_find, list_view_filter
 * and list_view_cursor (and list_view_mouse, for a view whose rows are
 * all it draws) are then its view ops as they are, and list_view_stale
 * says when to make its rows again; tui/list-table.h draws its rows.
 * A view that filters by method (profile, call tree) asks a struct
 * list_methods.
 */
#ifndef TRACETUI_LIST_H
#define TRACETUI_LIST_H

#include "model/calltree.h"
#include "model/scope.h"
#include "tui/mouse.h"
#include "tui/request.h"
#include "tui/views/view.h"

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

/* True when row matches; arg is the view's. */
typedef bool list_match_fn(size_t row, void *arg);
/* True when row matches the pattern re; arg is the view's. */
typedef bool list_row_match_fn(size_t row, const regex_t *re, void *arg);

struct list {
	size_t count;  /* rows */
	size_t cursor; /* the selected row; a pager's last search match */
	size_t top;    /* the first row shown */
	size_t height; /* rows shown at the last layout; 0 before it */
	bool pager;    /* scrolls instead of moving a cursor */
	int y;         /* the screen row of the first row shown, set by
	                  the view as it draws (for the mouse) */
	/* The filter (NULL: every row shows) and the rows it keeps, in
	 * order, made again by every list_set_count. */
	list_match_fn *filter;
	void *filter_arg;
	size_t *shown;
	size_t nshown, shown_cap;
	/* How a row matches a pattern (list_rows), for list_find and
	 * list_keep, and the pattern list_keep keeps rows by. */
	list_row_match_fn *row_match;
	void *row_arg;
	const regex_t *kept;
};

/* What a mouse event did to a list. */
enum list_click {
	LIST_MISSED, /* no row there, or nothing to do */
	LIST_MOVED,  /* the cursor or the scroll moved */
	LIST_AGAIN,  /* a click on the row already selected */
};

/* Where a search landed: the match's place among all matching rows
 * (from 1, in row order) and how many rows match. */
struct list_hit {
	size_t nth, total;
};

/* Set the number of rows (their filter asked again); the cursor stays
 * on its row, or on the next row shown, or the last. */
void list_set_count(struct list *l, size_t count);
/* Show only the rows match keeps (NULL: every row); the cursor goes to
 * the next row shown, or the last. */
void list_filter(struct list *l, list_match_fn *match, void *arg);
/* The rows shown: all, or those the filter keeps. */
size_t list_visible(const struct list *l);
/* The cursor's place among the rows shown, from 1 (0 when none shows). */
size_t list_position(const struct list *l);
/* The first row shown, or the count when none is; with list_next, a
 * walk over the rows shown (what `w` writes). */
size_t list_first(const struct list *l);
/* The first row shown after row, or the count when none is. */
size_t list_next(const struct list *l, size_t row);
/* Release the filter's rows. */
void list_done(struct list *l);
/* Compile pattern as a search (POSIX extended, no subexpressions) with
 * smart case: ignoring case unless it holds an upper case letter,
 * within util/pattern.h's limits.  0, or nonzero with the reason in
 * why[0..size). */
int list_regcomp(regex_t *re, const char *pattern, char *why, size_t size);
/* Before drawing height rows: the cursor in view, a pager's last page
 * full.  The cursor stays on its row whatever the height. */
void list_layout(struct list *l, size_t height);
/* Put the cursor on row (clamped to the rows). */
void list_select(struct list *l, size_t row);
/* Cursor and scroll back to the first row (after a sort). */
void list_reset(struct list *l);
/* Apply a movement request (up, down, pages, first, last); false when
 * req is none of them. */
bool list_move(struct list *l, enum request req);
/* The rows one page moves. */
size_t list_page(const struct list *l);
/* Scroll by delta rows shown (a wheel): the cursor stays on its row
 * while it is in sight, else keeps to the edge; at either end the
 * cursor moves instead, so the wheel reaches the first and last rows
 * shown. */
void list_scroll(struct list *l, long delta);
/* The row (an index of the view's, past any filter) shown on screen
 * row y at the last layout, or SIZE_MAX. */
size_t list_row_at(const struct list *l, int y);
/* A mouse event on the list: a wheel scrolls MOUSE_WHEEL_ROWS rows
 * shown a notch, a left press (or drag) selects the row shown under
 * it. */
enum list_click list_mouse(struct list *l, const struct mouse_event *ev);
/* How the view's rows match a pattern, for list_find and list_keep (a
 * view says it once, when it opens). */
void list_rows(struct list *l, list_row_match_fn *match, void *arg);
/* list_search for the rows matching re: the match's place into *nth
 * and how many match into *total (a view's ask->match and matches). */
bool list_find(struct list *l, const regex_t *re, int dir, size_t *nth,
               size_t *total);
/* Show only the rows matching re (NULL: every row; re must outlive the
 * filter), asked again at every list_set_count; how many show. */
size_t list_keep(struct list *l, const regex_t *re);
/* Move to the next (dir 1) or previous (-1) matching row shown after
 * the cursor, wrapping; false when no row matches.  hit (when not NULL)
 * gets the match's place and the number of matches among the rows
 * shown. */
bool list_search(struct list *l, int dir, list_match_fn *match, void *arg,
                 struct list_hit *hit);

/* What a list view's state begins with. */
struct list_view {
	struct list list;
	const struct app *app; /* what the rows' matcher reads: set by
	                          list_view_open and by every op */
	struct scope built;    /* the scope the rows were made for */
};

/* At the view's open: rows matched by match (with arg) for search and
 * filter. */
void list_view_open(struct list_view *lv, const struct app *app,
                    list_row_match_fn *match, void *arg);
/* True when the rows were made for another scope than s (or none):
 * the view makes them again, and calls list_view_built. */
bool list_view_stale(const struct list_view *lv, const struct scope *s);
/* The rows are now those of scope s. */
void list_view_built(struct list_view *lv, const struct scope *s);
/* Release the list and the scope. */
void list_view_done(struct list_view *lv);
/* What a list's answer to a mouse event is for the app. */
static inline enum view_result
view_click(enum list_click r)
{
	return r == LIST_AGAIN   ? VIEW_AGAIN
	       : r == LIST_MOVED ? VIEW_DONE
	                         : VIEW_UNHANDLED;
}

/* The view ops `find`, `filter`, `cursor` and `mouse` of a list view
 * whose state begins with a struct list_view. */
bool list_view_find(void *state, const struct app *app, const regex_t *re,
                    int dir, struct view_ask *ask);
size_t list_view_filter(void *state, const struct app *app, const regex_t *re);
const struct list *list_view_cursor(void *state);
enum view_result list_view_mouse(void *state, struct app *app,
                                 const struct mouse_event *ev,
                                 struct view_ask *ask);

/* Whether the full name of tree's method m matches re. */
bool list_method_matches(const struct calltree *tree, uint32_t m,
                         const regex_t *re);

/* Which methods a filter keeps, each method's name matched once (a
 * filter asks every row, and rows share methods). */
struct list_methods {
	const struct calltree *tree;
	const regex_t *re;   /* NULL: no filter */
	unsigned char *kept; /* by method: 0 not asked yet, 1 no, 2 yes */
};

/* Filter by re (NULL: none) the methods of tree, none asked yet. */
void list_methods_set(struct list_methods *lm, const struct calltree *tree,
                      const regex_t *re);
/* True when method m's full name matches the filter. */
bool list_methods_keep(struct list_methods *lm, uint32_t m);
/* Release what the filter holds. */
void list_methods_done(struct list_methods *lm);

#endif
