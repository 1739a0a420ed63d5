/*
 * list-table: the layout is handed the columns on screen only, the
 * lead left out of it; t->laid keeps them at the view's indexes (a
 * column not on screen is not shown), for the draw and the mouse.
 */
#include "config.h"

#include "tui/list-table.h"

#include "query/method-name.h"
#include "text/width.h"
#include "util/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool
on_screen(const struct list_column *col)
{
	return col->use != LIST_WRITE;
}

/* Column i's title with its sort mark, a new string. */
static char *
head(const struct list_table *t, const struct canvas *c, int i)
{
	const char *mark = "";

	if (i == t->sort)
		mark = canvas_glyph(c, t->sort_up ? GLYPH_SORT_UP
		                                  : GLYPH_SORT_DOWN);
	return xasprintf("%s%s", t->cols[i].title, mark);
}

/* The columns column i's title wants. */
static int
title_want(const struct list_table *t, const struct canvas *c, int i)
{
	char *h;
	int w;

	if (t->mark_room)
		return (int)text_width(t->cols[i].title) + 1;
	h = head(t, c, i);
	w = (int)text_width(h) + t->cols[i].pad;
	free(h);
	return w;
}

/* The widest of column i's cells on the rows in view into col->want. */
static void
measure(const struct list_table *t, const struct list *l, int body, int i,
        struct column *col)
{
	size_t row;
	int y;

	for (y = 0, row = l->top; y < body && row < l->count;
	     y++, row = list_next(l, row)) {
		char *s = t->cell(t->arg, row, i, false);
		int w = (int)text_width(s) + t->cols[i].pad;

		if (t->cols[i].kind == COLUMN_NAME && t->prefix) {
			char *p = t->prefix(t->arg, row);

			w += (int)text_width(p);
			free(p);
		}
		if (w > col->want)
			col->want = w;
		free(s);
	}
}

static void
lay_out(struct list_table *t, const struct list *l, const struct canvas *c,
        int body, bool all)
{
	struct column cols[LIST_TABLE_MAX];
	int at[LIST_TABLE_MAX], n = 0, lead = 0, i, k;

	memset(t->laid, 0, sizeof(t->laid));
	if (t->ncols && t->cols[0].lead) {
		t->laid[0] = (struct column){.kind = t->cols[0].kind,
		                             .width = t->cols[0].fixed,
		                             .shown = true};
		lead = t->cols[0].fixed + 1;
	}
	for (i = lead ? 1 : 0; i < t->ncols; i++) {
		const struct list_column *col = &t->cols[i];
		struct column *out = &cols[n];

		if (!on_screen(col))
			continue;
		at[n++] = i;
		*out = (struct column){
		        .kind = col->kind, .min = col->min, .prio = col->prio};
		if (col->fixed) {
			out->want = col->fixed;
			if (col->kind != COLUMN_NUMBER)
				out->min = col->fixed;
		} else if (t->wants) {
			out->want = t->wants[i];
		} else {
			out->want = title_want(t, c, i);
			measure(t, l, body, i, out);
		}
	}
	columns_lay_out(
	        cols, (size_t)n, c->width - lead,
	        columns_share(t->share ? t->share : COLUMNS_NAME_SHARE, all));
	for (k = 0; k < n; k++) {
		cols[k].x += lead;
		t->laid[at[k]] = cols[k];
	}
}

/* Draw row's cell of column i at y. */
static void
draw_cell(const struct list_table *t, struct canvas *c, int i, size_t row,
          int y, enum role role)
{
	const struct column *col = &t->laid[i];
	int pad = t->cols[i].pad, x = col->x + pad, w = col->width - pad;
	char *s, *fit;

	if (t->cols[i].drawn) {
		t->draw(t->arg, row, i, c, x, y, w, role);
		return;
	}
	s = t->cell(t->arg, row, i, false);
	if (t->cols[i].kind == COLUMN_NUMBER) {
		canvas_text_right(c, col->x, y, col->width, s, role);
		free(s);
		return;
	}
	if (t->cols[i].kind == COLUMN_NAME && t->prefix) {
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
	fit = method_cut_left(s, w, canvas_glyph(c, GLYPH_TRUNCATED));
	canvas_text(c, x, y, w, fit, role);
	free(fit);
	free(s);
}

static void
draw_header(const struct list_table *t, struct canvas *c, int top)
{
	int i;

	canvas_fill(c, 0, top, c->width, " ", ROLE_HEADER);
	for (i = 0; i < t->ncols; i++) {
		const struct column *col = &t->laid[i];
		int pad = t->cols[i].pad;
		char *h;

		if (!col->shown)
			continue;
		h = head(t, c, i);
		if (col->kind == COLUMN_NUMBER && !t->cols[i].drawn)
			canvas_text_right(c, col->x, top, col->width, h,
			                  ROLE_HEADER);
		else
			canvas_text(c, col->x + pad, top, col->width - pad, h,
			            ROLE_HEADER);
		free(h);
	}
}

void
list_table_draw(struct list_table *t, struct list *l, struct canvas *c, int top,
                int height, bool all, const char *empty)
{
	int body = height - 1, y, i;
	size_t row;

	list_layout(l, body > 0 ? (size_t)body : 0);
	lay_out(t, l, c, body, all);
	t->header_y = top;
	draw_header(t, c, top);
	l->y = top + 1;
	if (!list_visible(l)) {
		if (empty)
			canvas_wrap(c, 2, top + 2, c->width - 2, c->width - 2,
			            height - 3, empty, ROLE_NORMAL);
		return;
	}
	for (y = 0, row = l->top; y < body && row < l->count;
	     y++, row = list_next(l, row)) {
		bool cursor = row == l->cursor;
		int ry = top + 1 + y;

		if (cursor)
			canvas_fill(c, 0, ry, c->width, " ", ROLE_CURSOR);
		for (i = 0; i < t->ncols; i++) {
			if (t->laid[i].shown)
				draw_cell(t, c, i, row, ry,
				          cursor    ? ROLE_CURSOR
				          : t->role ? t->role(t->arg, row, i)
				                    : ROLE_NORMAL);
		}
	}
}

int
list_table_header_at(const struct list_table *t, int x, int y)
{
	size_t i;

	if (y != t->header_y || !t->ncols)
		return -1;
	i = columns_at(t->laid, (size_t)t->ncols, x);
	return i == SIZE_MAX ? -1 : (int)i;
}

bool
list_table_match(const struct list_table *t, size_t row, const regex_t *re)
{
	bool hit = false;
	int i;

	for (i = 0; i < t->ncols && !hit; i++) {
		const struct list_column *col = &t->cols[i];
		char *s;

		if (col->kind == COLUMN_NUMBER || col->lead || !on_screen(col))
			continue;
		s = t->cell(t->arg, row, i, true);
		hit = regexec(re, s, 0, NULL, 0) == 0;
		free(s);
	}
	return hit;
}

bool
list_table_row_matches(size_t row, const regex_t *re, void *table)
{
	return list_table_match(table, row, re);
}

struct table *
list_table_rows(const struct list_table *t, const struct list *l)
{
	const char *names[LIST_TABLE_MAX];
	enum table_kind kinds[LIST_TABLE_MAX];
	int at[LIST_TABLE_MAX], n = 0, i;
	struct table *out;
	size_t row;

	for (i = 0; i < t->ncols; i++) {
		const struct list_column *col = &t->cols[i];

		if (col->use == LIST_SCREEN)
			continue;
		names[n] = col->tsv ? col->tsv : col->title;
		kinds[n] = col->kind == COLUMN_NUMBER ? TABLE_NUMBER
		                                      : TABLE_STRING;
		at[n++] = i;
	}
	out = table_new((size_t)n, names, kinds);
	for (row = list_first(l); row < l->count; row = list_next(l, row)) {
		table_row(out);
		for (i = 0; i < n; i++) {
			char *s = t->cell(t->arg, row, at[i], true);

			table_str(out, s);
			free(s);
		}
	}
	return out;
}
