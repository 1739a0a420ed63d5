/*
 * columns: the one layout of every list view's columns.  A view says of
 * each column its kind, its widest cell in view (its title's included),
 * the fewest columns a text may take, and a priority; columns_lay_out
 * gives the name column its share of the width first, hides numbers
 * (the lowest priority first) while the others do not fit, and hands
 * what is left to the name up to its widest cell, then to the text
 * columns up to theirs, then the rest to the name.  A number is shown whole or
 * not at all: never cut.
 *
 * Columns are laid out left to right in the order given, one blank
 * between two; a view draws each cell at its column's x in its width
 * (numbers right-aligned) and says how many columns it hid.
 */
#ifndef TRACETUI_COLUMNS_H
#define TRACETUI_COLUMNS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

enum column_kind {
	COLUMN_NUMBER, /* right-aligned; whole or hidden */
	COLUMN_TEXT,   /* up to its widest cell, down to min: shortened */
	COLUMN_NAME,   /* the view's names: its share first, then the rest */
};

/* A priority that never gives way (the sort column, --base's changes). */
#define COLUMN_KEEP INT_MAX

struct column {
	enum column_kind kind;
	int want; /* the widest cell or title in view */
	int min;  /* text and name: the fewest columns it is shown in */
	int prio; /* a number of lower priority gives way first */
	/* Set by columns_lay_out: */
	int x, width;
	bool shown;
};

/* The share of the width, in percent, a name column is given first (as
 * much of it as its names want, and at least its min): a list's, the
 * frames' hot methods (two names and their values), and a tree's, whose
 * names share their column with the guides. */
enum {
	COLUMNS_NAME_SHARE = 30,
	COLUMNS_HOT_SHARE = 40,
	COLUMNS_TREE_SHARE = 55,
};

/* The share to lay a view's columns out with: its own, or none when
 * every column that fits is wanted (the names at their min). */
static inline int
columns_share(int share, bool all)
{
	return all ? 0 : share;
}

/* Lay n columns out in width, the name given share percent of it
 * first: each column's x, width and shown.  Returns how many it hid. */
size_t columns_lay_out(struct column *cols, size_t n, int width, int share);
/* The column shown at screen column x (its blank after it included), or
 * SIZE_MAX. */
size_t columns_at(const struct column *cols, size_t n, int x);

#endif
