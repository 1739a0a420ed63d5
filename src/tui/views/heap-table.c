/*
 * heap-table: the columns are sized to the rows on screen (as the trace
 * views size theirs), so a long name further down never narrows them.
 */
#include "config.h"

#include "tui/views/heap-table.h"

#include "query/method-name.h"
#include "text/width.h"
#include "util/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_COLUMNS = 8 }; /* as struct heap_table's laid */

/* Column i's title with its sort mark, a new string. */
static char *
head(const struct heap_table *t, const struct canvas *c, int i)
{
	const char *mark = "";

	if (i == t->sort)
		mark = canvas_glyph(c, t->sort_up ? GLYPH_SORT_UP
		                                  : GLYPH_SORT_DOWN);
	return xasprintf("%s%s", t->cols[i].title, mark);
}

static void
lay_out(const struct heap_table *t, const struct list *l,
        const struct canvas *c, struct column *cols, int body, bool all)
{
	size_t row;
	int y, i;

	for (i = 0; i < t->ncols; i++) {
		char *h = head(t, c, i);

		cols[i] = (struct column){.kind = t->cols[i].kind,
		                          .want = (int)text_width(h),
		                          .min = t->cols[i].min,
		                          .prio = t->cols[i].prio};
		free(h);
	}
	for (y = 0, row = l->top; y < body && row < l->count;
	     y++, row = list_next(l, row)) {
		for (i = 0; i < t->ncols; i++) {
			char *s = t->cell(t->arg, row, i);
			int w = (int)text_width(s);

			if (t->cols[i].kind == COLUMN_NAME && t->prefix) {
				char *p = t->prefix(t->arg, row);

				w += (int)text_width(p);
				free(p);
			}
			if (w > cols[i].want)
				cols[i].want = w;
			free(s);
		}
	}
	columns_lay_out(cols, (size_t)t->ncols, c->width,
	                columns_share(COLUMNS_NAME_SHARE, all));
}

/* Draw cell s of column col at y. */
static void
draw_cell(const struct heap_table *t, struct canvas *c,
          const struct column *col, int kind_col, size_t row, int y,
          const char *s, enum role role)
{
	const char *cut = canvas_glyph(c, GLYPH_TRUNCATED);
	int x = col->x, w = col->width;
	char *fit;

	if (t->cols[kind_col].kind == COLUMN_NUMBER) {
		canvas_text_right(c, x, y, w, s, role);
		return;
	}
	if (t->cols[kind_col].kind == COLUMN_NAME && t->prefix) {
		char *p = t->prefix(t->arg, row);
		int pw = (int)text_width(p);

		/* Guides give way to the name past half the column. */
		if (pw > w / 2)
			pw = w / 2;
		canvas_text(c, x, y, pw, p, role);
		x += pw;
		w -= pw;
		free(p);
	}
	fit = method_cut_left(s, w, cut);
	canvas_text(c, x, y, w, fit, role);
	free(fit);
}

void
heap_table_draw(struct heap_table *t, struct list *l, struct canvas *c, int top,
                int height, bool all, const char *empty)
{
	struct column cols[MAX_COLUMNS];
	int body = height - 1, y, i;
	size_t row;

	list_layout(l, body > 0 ? (size_t)body : 0);
	lay_out(t, l, c, cols, body, all);
	memcpy(t->laid, cols, (size_t)t->ncols * sizeof(*cols));
	t->header_y = top;
	canvas_fill(c, 0, top, c->width, " ", ROLE_HEADER);
	for (i = 0; i < t->ncols; i++) {
		char *h;

		if (!cols[i].shown)
			continue;
		h = head(t, c, i);
		if (cols[i].kind == COLUMN_NUMBER)
			canvas_text_right(c, cols[i].x, top, cols[i].width, h,
			                  ROLE_HEADER);
		else
			canvas_text(c, cols[i].x, top, cols[i].width, h,
			            ROLE_HEADER);
		free(h);
	}
	l->y = top + 1;
	if (!list_visible(l)) {
		canvas_wrap(c, 2, top + 2, c->width - 2, c->width - 2,
		            height - 3, empty, ROLE_NORMAL);
		return;
	}
	for (y = 0, row = l->top; y < body && row < l->count;
	     y++, row = list_next(l, row)) {
		enum role role = row == l->cursor ? ROLE_CURSOR
		                 : t->role        ? t->role(t->arg, row)
		                                  : ROLE_NORMAL;
		int ry = top + 1 + y;

		if (role == ROLE_CURSOR)
			canvas_fill(c, 0, ry, c->width, " ", ROLE_CURSOR);
		for (i = 0; i < t->ncols; i++) {
			char *s;

			if (!cols[i].shown)
				continue;
			s = t->cell(t->arg, row, i);
			draw_cell(t, c, &cols[i], i, row, ry, s, role);
			free(s);
		}
	}
}

int
heap_table_header_at(const struct heap_table *t, int x, int y)
{
	size_t i;

	if (y != t->header_y || !t->ncols)
		return -1;
	i = columns_at(t->laid, (size_t)t->ncols, x);
	return i == SIZE_MAX ? -1 : (int)i;
}

bool
heap_table_match(const struct heap_table *t, size_t row, const regex_t *re)
{
	bool hit = false;
	int i;

	for (i = 0; i < t->ncols && !hit; i++) {
		char *s;

		if (t->cols[i].kind == COLUMN_NUMBER)
			continue;
		s = t->cell(t->arg, row, i);
		hit = regexec(re, s, 0, NULL, 0) == 0;
		free(s);
	}
	return hit;
}

struct table *
heap_table_rows(const struct heap_table *t, const struct list *l)
{
	const char *names[MAX_COLUMNS];
	enum table_kind kinds[MAX_COLUMNS];
	struct table *out;
	size_t row;
	int i;

	for (i = 0; i < t->ncols; i++) {
		names[i] = t->cols[i].title;
		kinds[i] = t->cols[i].kind == COLUMN_NUMBER ? TABLE_NUMBER
		                                            : TABLE_STRING;
	}
	out = table_new((size_t)t->ncols, names, kinds);
	for (row = list_first(l); row < l->count; row = list_next(l, row)) {
		table_row(out);
		for (i = 0; i < t->ncols; i++) {
			char *s = t->cell(t->arg, row, i);

			table_str(out, s);
			free(s);
		}
	}
	return out;
}
