/*
 * columns: the name's share is set aside first; numbers are hidden, the
 * lowest priority first, until the rest fits beside it (in that order
 * only: a narrow number of lower priority does not come back in the room
 * a wide one left); the name then grows to its widest cell, text
 * columns to theirs, and the name takes what remains.
 */
#include "config.h"

#include "tui/columns.h"

#include <stdint.h>

/* The columns column c takes at the least when shown. */
static int
least(const struct column *c)
{
	if (c->kind == COLUMN_NUMBER)
		return c->want;
	return c->min < c->want ? c->min : c->want;
}

/* The columns the name is given before anything else. */
static int
name_share(const struct column *c, int width, int pct)
{
	int share = width * pct / 100;

	if (share < c->min)
		share = c->min;
	return share < c->want ? share : c->want;
}

/* The columns the shown columns take at the least, blanks between. */
static int
needed(const struct column *cols, size_t n, int width, int pct)
{
	int total = -1;
	size_t i;

	for (i = 0; i < n; i++)
		if (cols[i].shown)
			total += 1 + (cols[i].kind == COLUMN_NAME
			                      ? name_share(&cols[i], width, pct)
			                      : least(&cols[i]));
	return total < 0 ? 0 : total;
}

/* Column c widened towards its widest cell by what *spare allows. */
static void
grow(struct column *c, int *spare)
{
	int more = c->want - c->width;

	if (more > *spare)
		more = *spare > 0 ? *spare : 0;
	if (more > 0) {
		c->width += more;
		*spare -= more;
	}
}

size_t
columns_lay_out(struct column *cols, size_t n, int width, int pct)
{
	size_t i, hidden = 0, name = SIZE_MAX, last_text = SIZE_MAX;
	int spare, x;

	for (i = 0; i < n; i++)
		cols[i].shown = true;
	/* Numbers give way, the lowest priority first. */
	while (needed(cols, n, width, pct) > width) {
		size_t drop = SIZE_MAX;

		for (i = 0; i < n; i++) {
			const struct column *c = &cols[i];

			if (!c->shown || c->kind != COLUMN_NUMBER ||
			    c->prio == COLUMN_KEEP)
				continue;
			if (drop == SIZE_MAX || c->prio <= cols[drop].prio)
				drop = i;
		}
		if (drop == SIZE_MAX)
			break;
		cols[drop].shown = false;
		hidden++;
	}
	/* The least of each, then the name up to its widest cell, then
	 * text up to theirs, then the rest to the name (or the last
	 * text). */
	spare = width - needed(cols, n, width, pct);
	for (i = 0; i < n; i++) {
		struct column *c = &cols[i];

		c->width = c->kind == COLUMN_NAME ? name_share(c, width, pct)
		                                  : least(c);
		if (c->shown && c->kind == COLUMN_NAME)
			name = i;
		if (c->shown && c->kind == COLUMN_TEXT)
			last_text = i;
	}
	if (name != SIZE_MAX)
		grow(&cols[name], &spare);
	for (i = 0; i < n; i++)
		if (cols[i].shown && cols[i].kind == COLUMN_TEXT)
			grow(&cols[i], &spare);
	if (name == SIZE_MAX)
		name = last_text;
	if (name != SIZE_MAX && spare > 0)
		cols[name].width += spare;
	for (i = 0, x = 0; i < n; i++) {
		cols[i].x = x;
		if (!cols[i].shown)
			continue;
		if (cols[i].width < 1)
			cols[i].width = 1;
		x += cols[i].width + 1;
	}
	return hidden;
}

size_t
columns_at(const struct column *cols, size_t n, int x)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (cols[i].shown && x >= cols[i].x &&
		    x <= cols[i].x + cols[i].width)
			return i;
	return SIZE_MAX;
}
