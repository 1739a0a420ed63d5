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
 */
#ifndef TRACETUI_LIST_H
#define TRACETUI_LIST_H

#include "tui/mouse.h"
#include "tui/request.h"

#include <stdbool.h>
#include <stddef.h>

struct list {
	size_t count;  /* rows */
	size_t cursor; /* the selected row; a pager's last search match */
	size_t top;    /* the first row shown */
	size_t height; /* rows shown at the last layout; 0 before it */
	bool pager;    /* scrolls instead of moving a cursor */
	int y;         /* the screen row of the first row shown, set by
	                  the view as it draws (for the mouse) */
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

/* True when row matches; arg is the view's. */
typedef bool list_match_fn(size_t row, void *arg);

/* Set the number of rows; the cursor stays on its row, or on the last. */
void list_set_count(struct list *l, size_t count);
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
/* Scroll by delta rows (a wheel): the cursor stays on its row while it
 * is in sight, else keeps to the edge; at either end the cursor moves
 * instead, so the wheel reaches the first and last rows. */
void list_scroll(struct list *l, long delta);
/* The row shown on screen row y at the last layout, or SIZE_MAX. */
size_t list_row_at(const struct list *l, int y);
/* A mouse event on the list: a wheel scrolls MOUSE_WHEEL_ROWS a notch,
 * a left press (or drag) selects the row under it. */
enum list_click list_mouse(struct list *l, const struct mouse_event *ev);
/* Move to the next (dir 1) or previous (-1) matching row after the
 * cursor, wrapping; false when no row matches.  hit (when not NULL)
 * gets the match's place and the number of matches. */
bool list_search(struct list *l, int dir, list_match_fn *match, void *arg,
                 struct list_hit *hit);

#endif
