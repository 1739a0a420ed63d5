/*
 * list-table: how a list view draws its rows as a table: a header of
 * column titles (the sort column marked), then a line per row shown,
 * laid out by tui/columns.c so that numbers are whole or hidden and
 * names and text are shortened from their left by query/method-name.c's
 * rule.  A view declares its columns and gives each cell's text; the
 * table draws them, says which column a click on the header is on,
 * matches a row's text cells against a pattern (search and filter) and
 * writes the rows shown as a table (`w`).
 *
 * Columns are sized to the rows on screen, their titles included, so
 * that a long name further down never narrows them; a view that wants
 * its widths steady measures them itself (wants).
 */
#ifndef TRACETUI_LIST_TABLE_H
#define TRACETUI_LIST_TABLE_H

#include "text/table.h"
#include "tui/canvas.h"
#include "tui/columns.h"
#include "tui/list.h"

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

enum { LIST_TABLE_MAX = 12 }; /* columns, on screen and in `w` */

/* Where a column goes. */
enum list_column_use {
	LIST_BOTH,   /* on screen and in `w`'s table */
	LIST_SCREEN, /* on screen only (a bar, values joined) */
	LIST_WRITE,  /* in `w`'s table only */
};

struct list_column {
	const char *title; /* its header, and its name in `w`'s table */
	enum column_kind kind;
	int min;  /* text and name: the fewest columns */
	int prio; /* a number of lower priority hides first */
	enum list_column_use use;
	const char *tsv; /* its name in `w`'s table when not its title */
	int pad;         /* blanks before its cells, in its width */
	int fixed;       /* its width whatever its cells (a mark, a bar) */
	bool drawn;      /* its cells drawn by the view (draw); its title
	                    at its left */
	bool lead;       /* the first column only: fixed, before the others'
	                    layout and a blank (a check box); never searched */
};

/* Row `row`'s cell of column col, a new string (unescaped: the canvas
 * escapes it); full: as `w` writes it and a search matches it (names
 * whole, every value); arg is the view's. */
typedef char *list_table_cell_fn(void *arg, size_t row, int col, bool full);

/* A column with none of the knobs after prio; one with some is
 * declared as {title, kind, min, prio, .knob = value}. */
#define LIST_COLUMN(title_, kind_, min_, prio_)                                \
	{                                                                      \
		.title = (title_), .kind = (kind_), .min = (min_),             \
		.prio = (prio_)                                                \
	}

struct list_table {
	const struct list_column *cols;
	int ncols;    /* at most LIST_TABLE_MAX */
	int sort;     /* the column sorted by, or -1 */
	bool sort_up; /* ascending */
	/* Titles measured with one column for a sort mark, shown or not,
	 * rather than with the mark they show and their pad. */
	bool mark_room;
	int share; /* the name's share (tui/columns.h); 0: a list's */
	/* Each column's widest cell and title as the view measured them
	 * (over all its rows, once), or NULL: the rows on screen. */
	const int *wants;
	list_table_cell_fn *cell;
	/* What goes before row's name in its column (a tree's guides and
	 * mark), a new string; NULL: nothing. */
	char *(*prefix)(void *arg, size_t row);
	/* The role of row's cell of column col when row is not the
	 * cursor's (NULL: normal). */
	enum role (*role)(void *arg, size_t row, int col);
	/* Draw row's cell of a `drawn` column in width columns at x, y. */
	void (*draw)(void *arg, size_t row, int col, struct canvas *c, int x,
	             int y, int width, enum role role);
	void *arg;
	/* Where the last draw put the columns and the header, for the
	 * mouse. */
	struct column laid[LIST_TABLE_MAX];
	int header_y;
};

/* Draw t's header on row top and list l's rows below it, in height
 * rows; `all` lays every column that fits out beside short names (m).
 * What says there is nothing to show when no row shows: empty (NULL:
 * nothing). */
void list_table_draw(struct list_table *t, struct list *l, struct canvas *c,
                     int top, int height, bool all, const char *empty);
/* The column whose header (as last drawn) is at x, y, or -1. */
int list_table_header_at(const struct list_table *t, int x, int y);
/* Whether row's text cells on screen (not its numbers) match re. */
bool list_table_match(const struct list_table *t, size_t row,
                      const regex_t *re);
/* list_table_match as a list's row matcher (list_rows), the table its
 * arg. */
bool list_table_row_matches(size_t row, const regex_t *re, void *table);
/* The rows l shows, as a new table of t's cells, for `w`. */
struct table *list_table_rows(const struct list_table *t, const struct list *l);

#endif
