/*
 * heap-table: how every heap dump view draws its rows: a header of
 * column titles (the sort column marked), then a row per list row, laid
 * out by tui/columns.c so that numbers are whole or hidden and the
 * name column (the view's one COLUMN_NAME) is shortened from its left
 * by query/method-name.c's rule.  The view gives each cell's text.
 */
#ifndef TRACETUI_HEAP_TABLE_H
#define TRACETUI_HEAP_TABLE_H

#include "text/table.h"
#include "tui/canvas.h"
#include "tui/columns.h"
#include "tui/list.h"

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

struct heap_column {
	const char *title; /* also the TSV column of `w` */
	enum column_kind kind;
	int min;  /* text and name: the fewest columns */
	int prio; /* a number of lower priority hides first */
};

struct heap_table {
	const struct heap_column *cols;
	int ncols;
	int sort;     /* the column sorted by, or -1 */
	bool sort_up; /* ascending */
	/* Row `row`'s cell of column col, a new string (unescaped: the
	 * canvas escapes it). */
	char *(*cell)(void *arg, size_t row, int col);
	/* What goes before row's name in its column (a tree's guides and
	 * mark), a new string; NULL: nothing. */
	char *(*prefix)(void *arg, size_t row);
	/* The role of row's cells when it is not the cursor's (NULL:
	 * normal). */
	enum role (*role)(void *arg, size_t row);
	void *arg;
	/* Where the last draw put the columns and the header, for the
	 * mouse. */
	struct column laid[8];
	int header_y;
};

/* The column whose header (as last drawn) is at x, y, or -1. */
int heap_table_header_at(const struct heap_table *t, int x, int y);

/* Draw t's header on row top and list l's rows below it, in height
 * rows; `all` lays every column that fits out beside short names (m).
 * What says there is nothing to show, when l has no rows: empty. */
void heap_table_draw(struct heap_table *t, struct list *l, struct canvas *c,
                     int top, int height, bool all, const char *empty);
/* Whether row's name or text cells (not its numbers) match re. */
bool heap_table_match(const struct heap_table *t, size_t row,
                      const regex_t *re);
/* The rows l shows, as a new table of t's cells, for `w`. */
struct table *heap_table_rows(const struct heap_table *t, const struct list *l);

#endif
