/*
 * unit-list-table: a list view's table on canvases of 64, 80 and 120
 * columns: numbers whole or hidden (the lowest priority first), the
 * name shortened from its left down to Class.method, the sort column's
 * mark, the column under a click on the header, a search matching the
 * text cells on screen but not the numbers, w's rows (the filter's,
 * full names, the columns only w writes), and the knobs the trace views
 * use: a lead check box, a pad, a fixed width, cells the view draws,
 * roles per cell, widths the view measured, the empty message.
 */
#include "config.h"

#include "tui/list-table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

enum { C_METHOD, C_THREAD, C_INCL, C_EXCL, C_CALLS, C_PATTERN, NCOLS };

static const struct list_column columns[NCOLS] = {
        {"Method", COLUMN_NAME, 20, COLUMN_KEEP, .tsv = "Full name"},
        LIST_COLUMN("Thread", COLUMN_TEXT, 12, COLUMN_KEEP),
        LIST_COLUMN("Incl ms", COLUMN_NUMBER, 0, 3),
        LIST_COLUMN("Excl ms", COLUMN_NUMBER, 0, 2),
        LIST_COLUMN("Calls", COLUMN_NUMBER, 0, 1),
        {"Pattern", COLUMN_TEXT, 0, 1, .use = LIST_WRITE},
};

/* Each row's cells, short (on screen) and full (w and search). */
static const char *const shown[][NCOLS] = {
        {"com.example.app.feature.onboarding.UserViewModel.remove", "main",
         "123456789012.345", "12345678901.234", "123456789012", "secret"},
        {"j.l.Object.wait", "RenderThread", "2.000", "1.000", "7", "secret"},
        {"a.B.c", "pool-1-thread-1", "1.000", "0.500", "3", "secret"},
};
static const char *const full_names[] = {
        "com.example.app.feature.onboarding.UserViewModel.remove (I)V",
        "java.lang.Object.wait (J)V",
        "a.B.c ()V",
};

static char *
cell(void *arg, size_t row, int col, bool full)
{
	(void)arg;
	if (col == C_METHOD && full)
		return strdup(full_names[row]);
	return strdup(shown[row][col]);
}

/* Screen line y of c as text, trailing blanks trimmed (a new string). */
static char *
line(struct canvas *c, int y)
{
	char *s = calloc((size_t)c->width * TEXT_GLYPH_MAX + 1, 1);
	size_t n;
	int x;

	for (x = 0; x < c->width; x++) {
		struct canvas_cell *cc = canvas_cell(c, x, y);

		if (cc->width)
			strcat(s, cc->glyph);
	}
	for (n = strlen(s); n && s[n - 1] == ' '; n--)
		s[n - 1] = '\0';
	return s;
}

/* Whether the text of line y from column x on begins with want. */
static bool
at(struct canvas *c, int x, int y, const char *want)
{
	char s[512] = "";

	for (; x < c->width && strlen(s) < sizeof(s) - TEXT_GLYPH_MAX; x++)
		strcat(s, canvas_cell(c, x, y)->glyph);
	return strncmp(s, want, strlen(want)) == 0;
}

/* How many times want is on line y. */
static int
count(struct canvas *c, int y, const char *want)
{
	char *s = line(c, y), *p = s;
	int n = 0;

	while ((p = strstr(p, want)) != NULL) {
		n++;
		p += strlen(want);
	}
	free(s);
	return n;
}

static bool
has(struct canvas *c, int y, const char *want)
{
	char *s = line(c, y);
	bool hit = strstr(s, want) != NULL;

	free(s);
	return hit;
}

static struct list_table
table(void)
{
	return (struct list_table){
	        .cols = columns, .ncols = NCOLS, .sort = C_INCL, .cell = cell};
}

/* A number shown is its whole cell, right-aligned in its column. */
static bool
whole(struct canvas *c, const struct list_table *t, int col, size_t row)
{
	const struct column *lc = &t->laid[col];
	int w = (int)strlen(shown[row][col]);

	return lc->width >= w &&
	       at(c, lc->x + lc->width - w, 1 + (int)row, shown[row][col]);
}

static void
test_widths(void)
{
	struct list_table t = table();
	struct list l = {0};
	struct canvas *c = canvas_new(80, 10, false);
	const char *down = canvas_glyph(c, GLYPH_SORT_DOWN);
	const char *cut = canvas_glyph(c, GLYPH_TRUNCATED);
	char head[32];

	list_set_count(&l, 3);
	canvas_clear(c);
	list_table_draw(&t, &l, c, 0, 10, false, NULL);
	ok(!t.laid[C_CALLS].shown && t.laid[C_EXCL].shown &&
	           t.laid[C_INCL].shown,
	   "80 columns: the number of lowest priority hides, the others show");
	ok(whole(c, &t, C_INCL, 0) && whole(c, &t, C_EXCL, 0),
	   "80 columns: the numbers shown are whole");
	ok(!has(c, 0, "Calls") && count(c, 1, "123456789012") == 1,
	   "80 columns: the hidden number is nowhere, not cut");
	ok(has(c, 1, "UserViewModel.remove") && has(c, 1, cut) &&
	           !has(c, 1, "com.example"),
	   "80 columns: the name loses its left, keeps Class.method");
	snprintf(head, sizeof(head), "Incl ms%s", down);
	ok(has(c, 0, head), "the sort column's title is marked");
	ok(count(c, 0, down) == 1 &&
	           !count(c, 0, canvas_glyph(c, GLYPH_SORT_UP)),
	   "and no other");
	ok(!has(c, 0, "Pattern") && !has(c, 1, "secret"),
	   "a column w alone writes is not on screen");

	canvas_resize(c, 120, 10);
	canvas_clear(c);
	list_table_draw(&t, &l, c, 0, 10, false, NULL);
	ok(t.laid[C_CALLS].shown && t.laid[C_EXCL].shown &&
	           t.laid[C_INCL].shown,
	   "120 columns: every number shows");
	ok(whole(c, &t, C_INCL, 0) && whole(c, &t, C_EXCL, 0) &&
	           whole(c, &t, C_CALLS, 0),
	   "120 columns: whole");
	ok(has(c, 1,
	       "com.example.app.feature.onboarding.UserViewModel.remove") &&
	           !has(c, 1, cut),
	   "120 columns: the name whole");

	canvas_resize(c, 64, 10);
	canvas_clear(c);
	list_table_draw(&t, &l, c, 0, 10, false, NULL);
	ok(!t.laid[C_CALLS].shown && !t.laid[C_EXCL].shown &&
	           t.laid[C_INCL].shown && whole(c, &t, C_INCL, 0),
	   "64 columns: the two of lowest priority hide, in that order");
	ok(t.laid[C_METHOD].width >= 20 && has(c, 1, ".remove"),
	   "64 columns: the name keeps its fewest columns and its method");

	t.sort_up = true;
	snprintf(head, sizeof(head), "Incl ms%s",
	         canvas_glyph(c, GLYPH_SORT_UP));
	canvas_clear(c);
	list_table_draw(&t, &l, c, 0, 10, false, NULL);
	ok(has(c, 0, head), "ascending: the other mark");
	list_done(&l);
	canvas_free(c);
}

static void
test_header_at(void)
{
	struct list_table t = table();
	struct list l = {0};
	struct canvas *c = canvas_new(80, 10, false);
	bool hidden;
	int x;

	list_set_count(&l, 3);
	canvas_clear(c);
	list_table_draw(&t, &l, c, 2, 8, false, NULL);
	is_u64((uint64_t)list_table_header_at(&t, 0, 2), C_METHOD,
	       "a click on the first title: the name column");
	is_u64((uint64_t)list_table_header_at(&t, t.laid[C_EXCL].x + 2, 2),
	       C_EXCL, "a click on a number's title: its column");
	ok(list_table_header_at(&t, 0, 3) == -1,
	   "a click below the header: no column");
	for (x = 0, hidden = false; x < 80; x++)
		hidden |= list_table_header_at(&t, x, 2) >= C_CALLS;
	ok(!hidden, "a hidden column, or one w alone writes, never is");
	is_u64(l.y, 3, "the rows begin below the header (for the mouse)");
	list_done(&l);
	canvas_free(c);
}

static void
test_match(void)
{
	struct list_table t = table();
	char why[128];
	regex_t re;

	list_regcomp(&re, "123456", why, sizeof(why));
	ok(!list_table_match(&t, 0, &re), "numbers are not searched");
	regfree(&re);
	list_regcomp(&re, "remove \\(I\\)V$", why, sizeof(why));
	ok(list_table_match(&t, 0, &re), "the name is, by its full name");
	regfree(&re);
	list_regcomp(&re, "^RenderThread$", why, sizeof(why));
	ok(list_table_match(&t, 1, &re) && !list_table_match(&t, 2, &re),
	   "a text column is");
	regfree(&re);
	list_regcomp(&re, "secret", why, sizeof(why));
	ok(!list_table_row_matches(0, &re, &t),
	   "a column only w writes is not");
	regfree(&re);
}

static void
test_rows(void)
{
	struct list_table t = table();
	struct list l = {0};
	char why[128], *buf = NULL;
	size_t size = 0;
	struct table *out;
	regex_t re;
	FILE *f;

	list_set_count(&l, 3);
	list_rows(&l, list_table_row_matches, &t);
	list_regcomp(&re, "Object|pool", why, sizeof(why));
	is_u64(list_keep(&l, &re), 2, "a filter keeps two rows");
	out = list_table_rows(&t, &l);
	is_u64(table_nrows(out), 2, "w writes the rows the filter shows");
	f = open_memstream(&buf, &size);
	table_print(out, f, TABLE_TSV);
	fclose(f);
	is_str(buf,
	       "Full name\tThread\tIncl ms\tExcl ms\tCalls\tPattern\n"
	       "java.lang.Object.wait (J)V\tRenderThread\t2.000\t1.000\t7\t"
	       "secret\n"
	       "a.B.c ()V\tpool-1-thread-1\t1.000\t0.500\t3\tsecret\n",
	       "w: every column but the screen's own, full names, w's titles");
	free(buf);
	table_free(out);
	list_keep(&l, NULL);
	regfree(&re);
	list_done(&l);
}

/* The knobs: a lead box, a padded name, a fixed bar the view draws. */
enum { K_BOX, K_NAME, K_BAR, K_MS, KCOLS };

static const struct list_column knobs[KCOLS] = {
        {"", COLUMN_TEXT, 0, 0, .tsv = "Scope", .fixed = 3, .lead = true},
        {"Name", COLUMN_NAME, 10, COLUMN_KEEP, .pad = 1},
        {"Bar", COLUMN_NUMBER, 0, 1, .use = LIST_SCREEN, .fixed = 8,
         .drawn = true},
        {"Ms", COLUMN_NUMBER, 0, COLUMN_KEEP, .pad = 1},
};

static char *
knob_cell(void *arg, size_t row, int col, bool full)
{
	static const char *const cells[KCOLS] = {"[x]", "a.B.c", "", "1.5"};

	(void)arg, (void)row, (void)full;
	return strdup(cells[col]);
}

static enum role
knob_role(void *arg, size_t row, int col)
{
	(void)arg;
	return row == 1 && col == K_NAME ? ROLE_WARNING : ROLE_NORMAL;
}

static void
knob_draw(void *arg, size_t row, int col, struct canvas *c, int x, int y,
          int width, enum role role)
{
	(void)arg, (void)row, (void)col;
	canvas_fill(c, x, y, width, "#", role);
}

static void
test_knobs(void)
{
	struct list_table t = {.cols = knobs,
	                       .ncols = KCOLS,
	                       .sort = -1,
	                       .cell = knob_cell,
	                       .role = knob_role,
	                       .draw = knob_draw};
	struct list l = {0};
	struct canvas *c = canvas_new(40, 6, false);
	int wants[KCOLS] = {0, 30, 0, 12};
	char why[128], *buf = NULL;
	size_t size = 0;
	struct table *out;
	regex_t re;
	FILE *f;

	list_set_count(&l, 2);
	canvas_clear(c);
	list_table_draw(&t, &l, c, 0, 6, false, NULL);
	ok(at(c, 0, 1, "[x]") && t.laid[K_NAME].x == 4,
	   "the lead box first, the layout after it and a blank");
	ok(at(c, 5, 1, "a.B.c") && at(c, 5, 0, "Name"),
	   "a padded column's cells and title after its pad");
	ok(t.laid[K_BAR].width == 8 && at(c, t.laid[K_BAR].x, 1, "########"),
	   "a fixed column the view draws, in its width");
	ok(at(c, t.laid[K_BAR].x, 0, "Bar"), "its title at its left");
	is_u64(t.laid[K_MS].width, 4, "a padded number: its cell and pad");
	ok(canvas_cell(c, 5, 2)->role == ROLE_WARNING &&
	           canvas_cell(c, 0, 2)->role == ROLE_NORMAL,
	   "roles by cell");
	ok(canvas_cell(c, 5, 1)->role == ROLE_CURSOR &&
	           canvas_cell(c, 39, 1)->role == ROLE_CURSOR,
	   "the cursor's row, across the screen");

	list_regcomp(&re, "x", why, sizeof(why));
	ok(!list_table_match(&t, 0, &re), "the lead box is not searched");
	regfree(&re);
	out = list_table_rows(&t, &l);
	f = open_memstream(&buf, &size);
	table_print(out, f, TABLE_TSV);
	fclose(f);
	is_str(buf, "Scope\tName\tMs\n[x]\ta.B.c\t1.5\n[x]\ta.B.c\t1.5\n",
	       "w: the lead box, not the columns only on screen");
	free(buf);
	table_free(out);

	t.wants = wants;
	canvas_clear(c);
	list_table_draw(&t, &l, c, 0, 6, false, NULL);
	is_u64(t.laid[K_MS].width, 12, "widths the view measured");

	t.wants = NULL;
	t.mark_room = true;
	list_set_count(&l, 0);
	canvas_clear(c);
	list_table_draw(&t, &l, c, 0, 6, false, "Nothing here");
	is_u64(t.laid[K_MS].width, 3, "mark_room: a title and one column");
	ok(at(c, 2, 2, "Nothing here"), "no row: the empty message");
	list_done(&l);
	canvas_free(c);
}

int
main(void)
{
	test_widths();
	test_header_at();
	test_match();
	test_rows();
	test_knobs();
	return done_testing();
}
