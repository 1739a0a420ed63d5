/*
 * unit-list: the list widget's cursor, paging, resizing, search with its
 * match count, and the reset after a sort, on lists of a known size whose
 * expected positions are worked out by hand below; the mouse on it
 * (wheel, clicks, the row under a screen line), and the reading of
 * xterm's SGR and X10 mouse reports; the filter that hides rows, the
 * mouse on the rows it shows, and the smart case of search patterns;
 * the filter by a pattern asked again after a sort (list_keep); the
 * column layout, widths worked out by hand.
 */
#include "config.h"

#include "tui/columns.h"
#include "tui/list.h"
#include "tui/mouse.h"

#include <stdint.h>
#include <string.h>

#include "tap.h"

#include <locale.h>
#include <stdlib.h>

/* Rows whose index is a multiple of 3 match (0, 3, 6, ...). */
static bool
every_third(size_t row, void *arg)
{
	(void)arg;
	return row % 3 == 0;
}

static bool
even(size_t row, void *arg)
{
	(void)arg;
	return row % 2 == 0;
}

static bool
odd_rows(size_t row, void *arg)
{
	(void)arg;
	return row % 2 == 1;
}

static bool
none(size_t row, void *arg)
{
	(void)row;
	(void)arg;
	return false;
}

static void
test_cursor(void)
{
	struct list l = {0};

	list_set_count(&l, 50);
	list_layout(&l, 10);
	ok(list_move(&l, REQ_MOVE_DOWN) && l.cursor == 1, "down moves to 1");
	list_move(&l, REQ_MOVE_UP);
	list_move(&l, REQ_MOVE_UP);
	is_u64(l.cursor, 0, "up stops at the first row");
	/* A page is the rows shown less one: 9. */
	list_move(&l, REQ_PAGE_DOWN);
	is_u64(l.cursor, 9, "page down moves 9 rows on a 10-row screen");
	list_layout(&l, 10);
	is_u64(l.top, 0, "row 9 is still on the first screen");
	list_move(&l, REQ_PAGE_DOWN);
	list_layout(&l, 10);
	is_u64(l.cursor, 18, "a second page lands on 18");
	is_u64(l.top, 9, "and scrolls so that 18 is the last row shown");
	list_move(&l, REQ_PAGE_UP);
	list_layout(&l, 10);
	is_u64(l.cursor, 9, "page up goes back to 9");
	is_u64(l.top, 9, "which is the top row now");
	list_move(&l, REQ_MOVE_LAST);
	list_layout(&l, 10);
	is_u64(l.cursor, 49, "last row");
	is_u64(l.top, 40, "the last screen shows 40..49");
	list_move(&l, REQ_PAGE_DOWN);
	is_u64(l.cursor, 49, "page down stops at the last row");
	list_move(&l, REQ_MOVE_FIRST);
	list_layout(&l, 10);
	ok(l.cursor == 0 && l.top == 0, "first row, scrolled back");
	ok(!list_move(&l, REQ_ENTER), "Enter is not a movement");
}

static void
test_resize(void)
{
	struct list l = {0};

	list_set_count(&l, 100);
	list_layout(&l, 20);
	list_select(&l, 57);
	list_layout(&l, 20);
	is_u64(l.top, 38, "row 57 shown last of 20: top 38");
	list_layout(&l, 5);
	is_u64(l.cursor, 57, "a smaller screen keeps the selection");
	is_u64(l.top, 53, "and scrolls to keep it shown: 53..57");
	list_layout(&l, 40);
	is_u64(l.cursor, 57, "a larger screen keeps the selection");
	ok(l.top <= 57 && 57 < l.top + 40, "and it is still shown");
	list_set_count(&l, 30);
	is_u64(l.cursor, 29, "fewer rows: the cursor goes to the last one");
	list_set_count(&l, 0);
	ok(l.cursor == 0 && !list_move(&l, REQ_NONE), "an empty list");
	list_move(&l, REQ_MOVE_DOWN);
	is_u64(l.cursor, 0, "moving in an empty list stays at 0");
}

static void
test_search(void)
{
	struct list l = {0};
	struct list_hit hit = {0, 0};

	/* 20 rows: matches 0 3 6 9 12 15 18, seven of them. */
	list_set_count(&l, 20);
	list_layout(&l, 10);
	ok(list_search(&l, 1, every_third, NULL, &hit), "a search finds");
	ok(l.cursor == 3 && hit.nth == 2 && hit.total == 7,
	   "from row 0 the next match is 3, match 2/7 (got %zu, %zu/%zu)",
	   l.cursor, hit.nth, hit.total);
	list_select(&l, 19);
	list_search(&l, 1, every_third, NULL, &hit);
	ok(l.cursor == 0 && hit.nth == 1 && hit.total == 7,
	   "past the last match it wraps to 0, match 1/7");
	list_search(&l, -1, every_third, NULL, &hit);
	ok(l.cursor == 18 && hit.nth == 7, "backwards from 0: 18, match 7/7");
	ok(!list_search(&l, 1, none, NULL, &hit) && l.cursor == 18,
	   "no match leaves the cursor");
	l.pager = true;
	l.cursor = 0;
	list_search(&l, 1, every_third, NULL, NULL);
	ok(l.top == 3 && l.cursor == 3, "a pager puts the match at the top");
}

static void
test_sort_reset(void)
{
	struct list l = {0};

	list_set_count(&l, 40);
	list_layout(&l, 10);
	list_select(&l, 33);
	list_layout(&l, 10);
	list_reset(&l);
	list_layout(&l, 10);
	ok(l.cursor == 0 && l.top == 0, "after a sort: the first row, shown");
}

static void
test_pager(void)
{
	struct list l = {0};

	l.pager = true;
	list_set_count(&l, 30);
	list_layout(&l, 10);
	list_move(&l, REQ_MOVE_DOWN);
	is_u64(l.top, 1, "a pager scrolls by one");
	list_move(&l, REQ_MOVE_LAST);
	list_layout(&l, 10);
	is_u64(l.top, 20, "the last page stays full: 20..29");
	list_move(&l, REQ_PAGE_UP);
	is_u64(l.top, 11, "page up scrolls 9");
	list_layout(&l, 40);
	is_u64(l.top, 0, "everything fits: from the top");
}

/* An event from SGR report s (after "ESC [ <"); kind -1 when refused. */
static struct mouse_event
sgr(const char *s)
{
	struct mouse_event ev;

	if (!mouse_parse_sgr(s, strlen(s), &ev))
		ev.kind = (enum mouse_kind) - 1;
	return ev;
}

static void
test_reports(void)
{
	struct mouse_event ev = sgr("0;10;5M");

	ok(ev.kind == MOUSE_PRESS && ev.button == 0 && ev.x == 9 && ev.y == 4 &&
	           !ev.shift && !ev.ctrl,
	   "0;10;5M: left press at column 9, row 4 from 0");
	ev = sgr("0;10;5m");
	ok(ev.kind == MOUSE_RELEASE && ev.button == 0, "m: its release");
	ev = sgr("2;1;1M");
	ok(ev.kind == MOUSE_PRESS && ev.button == 2 && ev.x == 0 && ev.y == 0,
	   "2: the right button, at the top left");
	ev = sgr("32;300;200M");
	ok(ev.kind == MOUSE_DRAG && ev.button == 0 && ev.x == 299 &&
	           ev.y == 199,
	   "32: a drag with the left button, past X10's 223 columns");
	ev = sgr("64;3;3M");
	ok(ev.kind == MOUSE_WHEEL && ev.dy == -1 && ev.dx == 0, "64: wheel up");
	ev = sgr("65;3;3M");
	ok(ev.kind == MOUSE_WHEEL && ev.dy == 1, "65: wheel down");
	ev = sgr("66;3;3M");
	ok(ev.kind == MOUSE_WHEEL && ev.dx == -1 && ev.dy == 0,
	   "66: wheel left");
	ev = sgr("81;3;3M");
	ok(ev.kind == MOUSE_WHEEL && ev.dy == 1 && ev.ctrl,
	   "81: wheel down with ctrl (16)");
	ev = sgr("4;3;3M");
	ok(ev.kind == MOUSE_PRESS && ev.shift, "4: a press with shift");
	ok((int)sgr("35;3;3M").kind == -1,
	   "35: motion without a button is refused");
	ok((int)sgr("128;3;3M").kind == -1, "128: extra buttons are refused");
	ok((int)sgr("0;0;3M").kind == -1, "column 0 is refused");
	ok((int)sgr("0;3;3").kind == -1, "no final M or m: refused");
	ok((int)sgr("0;3M").kind == -1, "two numbers: refused");
	ok((int)sgr("0;3;3;4M").kind == -1, "four numbers: refused");
	ok((int)sgr("0;;3M").kind == -1, "an empty number: refused");
	ok((int)sgr("0;1234567;3M").kind == -1, "seven digits: refused");
	ok((int)sgr("").kind == -1, "nothing: refused");
	ok(mouse_parse_x10(32, 33 + 9, 33 + 4, &ev) && ev.kind == MOUSE_PRESS &&
	           ev.x == 9 && ev.y == 4,
	   "X10: a left press, values plus 32");
	ok(mouse_parse_x10(35, 40, 40, &ev) && ev.kind == MOUSE_RELEASE &&
	           ev.button == -1,
	   "X10: button 3 is a release of some button");
	ok(mouse_parse_x10(96, 40, 40, &ev) && ev.kind == MOUSE_WHEEL &&
	           ev.dy == -1,
	   "X10: 64 + 32 is wheel up");
}

static void
test_mouse(void)
{
	struct list l = {0};
	struct mouse_event ev;

	list_set_count(&l, 50);
	list_layout(&l, 10);
	l.y = 2;
	is_u64(list_row_at(&l, 2), 0, "the first line shows row 0");
	is_u64(list_row_at(&l, 11), 9, "the tenth, row 9");
	ok(list_row_at(&l, 1) == SIZE_MAX && list_row_at(&l, 12) == SIZE_MAX,
	   "above and below the rows: none");
	ev = sgr("0;5;6M"); /* screen row 5 */
	ok(list_mouse(&l, &ev) == LIST_MOVED && l.cursor == 3,
	   "a click on screen row 5 selects row 3");
	ok(list_mouse(&l, &ev) == LIST_AGAIN && l.cursor == 3,
	   "again: LIST_AGAIN, the cursor stays");
	ev = sgr("0;5;2M");
	ok(list_mouse(&l, &ev) == LIST_MISSED && l.cursor == 3,
	   "a click on the header misses");
	ev = sgr("2;5;8M");
	ok(list_mouse(&l, &ev) == LIST_MISSED && l.cursor == 3,
	   "a right click misses");
	ev = sgr("32;5;9M");
	ok(list_mouse(&l, &ev) == LIST_MOVED && l.cursor == 6,
	   "a drag selects the row under it (6)");
	ev = sgr("65;5;5M");
	ok(list_mouse(&l, &ev) == LIST_MOVED && l.top == 3 && l.cursor == 6,
	   "a notch down scrolls 3 rows; the cursor stays in sight");
	list_mouse(&l, &ev);
	list_mouse(&l, &ev);
	is_u64(l.top, 9, "three notches: 9 rows down");
	is_u64(l.cursor, 9, "the cursor keeps to the top edge");
	ev = sgr("64;5;5M");
	list_mouse(&l, &ev);
	ok(l.top == 6 && l.cursor == 9, "a notch up: 6, the cursor stays");
	list_layout(&l, 10);
	ok(l.top == 6 && l.cursor == 9, "the layout keeps both");
	ev = sgr("64;5;5M");
	list_mouse(&l, &ev);
	list_mouse(&l, &ev);
	ok(l.top == 0 && l.cursor == 9, "scrolled to the top");
	list_mouse(&l, &ev);
	is_u64(l.cursor, 6, "at the top, a notch moves the cursor up 3");
	ev = sgr("65;5;5M");
	for (int i = 0; i < 20; i++)
		list_mouse(&l, &ev);
	ok(l.top == 40 && l.cursor == 49,
	   "at the bottom: the last page, then the last row");
	l.pager = true;
	l.top = 0;
	list_layout(&l, 10);
	list_mouse(&l, &ev);
	is_u64(l.top, 3, "a pager scrolls 3 a notch");
	ev = sgr("0;5;6M");
	ok(list_mouse(&l, &ev) == LIST_MISSED, "a click on a pager misses");
	l.count = 0;
	l.pager = false;
	ev = sgr("65;5;5M");
	ok(list_mouse(&l, &ev) == LIST_MISSED,
	   "an empty list: the wheel misses");
}

static void
test_filter(void)
{
	struct list l = {0};
	struct list_hit hit = {0, 0};

	/* 20 rows; the filter keeps 0 3 6 9 12 15 18: seven shown. */
	list_set_count(&l, 20);
	list_select(&l, 5);
	list_filter(&l, every_third, NULL);
	is_u64(list_visible(&l), 7, "the filter shows 7 of 20 rows");
	is_u64(l.cursor, 6, "the cursor on hidden row 5 goes to row 6");
	list_move(&l, REQ_MOVE_DOWN);
	is_u64(l.cursor, 9, "down steps over hidden rows: 9");
	list_move(&l, REQ_MOVE_UP);
	list_move(&l, REQ_MOVE_UP);
	list_move(&l, REQ_MOVE_UP);
	list_move(&l, REQ_MOVE_UP);
	is_u64(l.cursor, 0, "up stops at the first row shown");
	list_layout(&l, 3);
	list_move(&l, REQ_PAGE_DOWN);
	is_u64(l.cursor, 6, "a page of 3 rows moves 2 rows shown: 6");
	list_move(&l, REQ_MOVE_LAST);
	list_layout(&l, 3);
	is_u64(l.cursor, 18, "the last row shown is 18");
	is_u64(l.top, 12, "3 rows shown end at 18: 12 15 18");
	is_u64(list_next(&l, 12), 15, "the row drawn after 12 is 15");
	is_u64(list_next(&l, 13), 15, "and after hidden 13 too");
	is_u64(list_next(&l, 18), 20, "after 18 none: the count");
	is_u64(list_first(&l), 0, "the first row shown is 0");
	ok(list_search(&l, 1, even, NULL, &hit),
	   "a search finds among the rows shown");
	ok(l.cursor == 0 && hit.nth == 1 && hit.total == 4,
	   "from 18 it wraps to 0, match 1/4 of 0 6 12 18 (got %zu, "
	   "%zu/%zu)",
	   l.cursor, hit.nth, hit.total);
	list_search(&l, -1, even, NULL, &hit);
	ok(l.cursor == 18 && hit.nth == 4, "backwards: 18, match 4/4");
	list_select(&l, 4);
	is_u64(l.cursor, 6, "selecting hidden row 4 lands on 6");
	list_select(&l, 19);
	is_u64(l.cursor, 18, "selecting past the last row shown: 18");
	list_reset(&l);
	list_filter(&l, every_third, NULL);
	list_set_count(&l, 10);
	is_u64(list_visible(&l), 4, "fewer rows asked again: 0 3 6 9");
	list_select(&l, 8);
	list_filter(&l, even, NULL);
	is_u64(l.cursor, 8, "another filter keeps a row it shows");
	list_filter(&l, odd_rows, NULL);
	is_u64(list_first(&l), 1, "keeping 1 3 5 7 9: the first shown is 1");
	list_filter(&l, even, NULL);
	list_reset(&l);
	is_u64(l.cursor, 0, "a sort goes back to the first row shown");
	list_filter(&l, none, NULL);
	ok(list_visible(&l) == 0 && !list_search(&l, 1, even, NULL, NULL),
	   "a filter that keeps nothing: nothing to search");
	is_u64(list_first(&l), 10, "nor a first row: the count");
	list_move(&l, REQ_MOVE_DOWN);
	list_layout(&l, 3);
	is_u64(l.cursor, 0, "and moving stays put");
	list_select(&l, 7);
	list_filter(&l, NULL, NULL);
	ok(list_visible(&l) == 10 && l.cursor == 7,
	   "no filter: every row again, the cursor where it was");
	list_done(&l);

	/* A pager of 30 rows keeping 0 3 ... 27 (10), 4 rows high. */
	memset(&l, 0, sizeof(l));
	l.pager = true;
	list_set_count(&l, 30);
	list_filter(&l, every_third, NULL);
	list_layout(&l, 4);
	list_move(&l, REQ_MOVE_DOWN);
	is_u64(l.top, 3, "a filtered pager scrolls to the next row shown");
	list_move(&l, REQ_MOVE_LAST);
	list_layout(&l, 4);
	is_u64(l.top, 18, "its last page stays full: 18 21 24 27");
	list_done(&l);
}

/* The mouse on a filtered list: screen rows are rows shown, the wheel
 * scrolls among them. */
static void
test_filter_mouse(void)
{
	struct list l = {0};
	struct mouse_event ev;

	/* 50 rows, 17 shown (0 3 ... 48), 5 high from screen row 1. */
	list_set_count(&l, 50);
	list_filter(&l, every_third, NULL);
	list_layout(&l, 5);
	l.y = 1;
	ok(list_row_at(&l, 1) == 0 && list_row_at(&l, 2) == 3 &&
	           list_row_at(&l, 5) == 12,
	   "screen rows 1, 2 and 5 show rows 0, 3 and 12");
	ok(list_row_at(&l, 0) == SIZE_MAX && list_row_at(&l, 6) == SIZE_MAX,
	   "above and below the rows shown: none");
	ev = sgr("0;5;4M"); /* screen row 3 */
	ok(list_mouse(&l, &ev) == LIST_MOVED && l.cursor == 6,
	   "a click on screen row 3 selects row 6, the third shown");
	ok(list_mouse(&l, &ev) == LIST_AGAIN, "again: LIST_AGAIN");
	ev = sgr("65;5;4M");
	list_mouse(&l, &ev);
	ok(l.top == 9 && l.cursor == 9,
	   "a notch scrolls 3 rows shown: top 9, the cursor at its edge");
	is_u64(list_row_at(&l, 1), 9, "screen row 1 now shows row 9");
	for (int i = 0; i < 19; i++)
		list_mouse(&l, &ev);
	ok(l.top == 36 && l.cursor == 48,
	   "at the bottom: the last page from 36, then the last row 48");
	list_layout(&l, 5);
	ok(l.top == 36 && l.cursor == 48, "the layout keeps both");
	ev = sgr("0;5;3M"); /* screen row 2: the second shown from 36 */
	ok(list_mouse(&l, &ev) == LIST_MOVED && l.cursor == 39,
	   "a click selects row 39, never a hidden one");
	ev = sgr("64;5;3M");
	list_mouse(&l, &ev);
	ok(l.top == 27 && l.cursor == 39, "a notch up: top 27, cursor stays");
	list_filter(&l, none, NULL);
	ev = sgr("65;5;3M");
	ok(list_mouse(&l, &ev) == LIST_MISSED && list_row_at(&l, 1) == SIZE_MAX,
	   "a filter that keeps nothing: the wheel and rows miss");
	list_done(&l);
}

/* True when pattern, compiled as a search, matches s. */
static bool
finds(const char *pattern, const char *s)
{
	char why[256];
	regex_t re;
	bool hit;

	if (list_regcomp(&re, pattern, why, sizeof(why)) != 0)
		return false;
	hit = regexec(&re, s, 0, NULL, 0) == 0;
	regfree(&re);
	return hit;
}

static void
test_smart_case(void)
{
	ok(finds("draw", "android.view.View.Draw"),
	   "lower case matches any case");
	ok(finds("view\\.draw", "VIEW.DRAW"), "also in a longer pattern");
	ok(finds("Draw", "View.Draw") && !finds("Draw", "view.draw"),
	   "an upper case letter makes it case-sensitive");
	ok(!finds("vIEW", "View"), "any upper case letter, anywhere");
	ok(finds("^[a-z]+$", "ABC"), "ranges ignore case too");
	if (setlocale(LC_CTYPE, "C.UTF-8") ||
	    setlocale(LC_CTYPE, "en_US.UTF-8")) {
		ok(!finds("\xc3\x89t\xc3\xa9", "\xc3\xa9t\xc3\xa9"),
		   "a non-ASCII capital is upper case too");
		ok(finds("\xc3\xa9t\xc3\xa9", "\xc3\x89T\xc3\x89"),
		   "and a non-ASCII small letter matches its capital");
		setlocale(LC_CTYPE, "C");
	} else {
		ok(true, "# SKIP no UTF-8 locale");
		ok(true, "# SKIP no UTF-8 locale");
	}
}

/* The rows of test_keep: row r's name; a sort reorders them. */
static const char *keep_names[4];

static bool
keep_match(size_t row, const regex_t *re, void *arg)
{
	(void)arg;
	return regexec(re, keep_names[row], 0, NULL, 0) == 0;
}

/* list_keep's rows are asked again at every list_set_count: a view that
 * sorts its rows and sets the count keeps the matching ones. */
static void
test_keep(void)
{
	struct list l = {0};
	regex_t re;
	char why[64];
	size_t nth, total;

	keep_names[0] = "main";
	keep_names[1] = "pool-1";
	keep_names[2] = "render";
	keep_names[3] = "pool-2";
	list_rows(&l, keep_match, NULL);
	list_set_count(&l, 4);
	ok(list_regcomp(&re, "pool", why, sizeof(why)) == 0, "pattern");
	is_u64(list_keep(&l, &re), 2, "two rows kept");
	is_u64(list_first(&l), 1, "the first kept is row 1");
	/* A sort: the pools now first. */
	keep_names[0] = "pool-1";
	keep_names[1] = "pool-2";
	keep_names[2] = "main";
	keep_names[3] = "render";
	list_set_count(&l, 4);
	is_u64(list_first(&l), 0, "after the sort, row 0 is kept");
	is_u64(list_next(&l, 0), 1, "and row 1");
	is_u64(list_next(&l, 1), 4, "and no other");
	ok(list_find(&l, &re, 1, &nth, &total) && total == 2 && nth >= 1,
	   "find: one of two matches");
	is_u64(list_keep(&l, NULL), 4, "no pattern: every row");
	regfree(&re);
	list_done(&l);
}

/* The column layout on widths worked out by hand. */
static void
test_columns(void)
{
	struct column c[4];
	size_t hidden;

	/* Numbers of 8, 10 and 6 (priorities 1, 3, 2) and a name that
	 * wants 40 (at least 10): at 50 columns the name's share is 15,
	 * all fits (8+10+6+15 and three blanks: 42), the 8 spare go to the
	 * name. */
	c[0] = (struct column){.kind = COLUMN_NUMBER, .want = 8, .prio = 1};
	c[1] = (struct column){.kind = COLUMN_NUMBER, .want = 10, .prio = 3};
	c[2] = (struct column){.kind = COLUMN_NUMBER, .want = 6, .prio = 2};
	c[3] = (struct column){.kind = COLUMN_NAME, .want = 40, .min = 10};
	hidden = columns_lay_out(c, 4, 50, 30);
	ok(hidden == 0 && c[0].shown && c[1].shown && c[2].shown,
	   "50 columns: every number shows");
	ok(c[0].x == 0 && c[1].x == 9 && c[2].x == 20 && c[3].x == 27 &&
	           c[3].width == 23,
	   "50 columns: x 0 9 20 27, the name 23 wide (got %d %d %d %d, %d)",
	   c[0].x, c[1].x, c[2].x, c[3].x, c[3].width);
	/* 36: the priority 1 number gives way (10+6+15 and two blanks:
	 * 33), the name gets the 3 spare. */
	hidden = columns_lay_out(c, 4, 36, 30);
	ok(hidden == 1 && !c[0].shown && c[1].x == 0 && c[2].x == 11 &&
	           c[3].x == 18 && c[3].width == 18,
	   "36 columns: the lowest priority gives way");
	/* Kept (the sort column): the next lowest goes instead. */
	c[0].prio = COLUMN_KEEP;
	hidden = columns_lay_out(c, 4, 36, 30);
	ok(hidden == 1 && c[0].shown && !c[2].shown && c[3].x == 20 &&
	           c[3].width == 16,
	   "36 columns: a kept column stays, the next gives way");
	/* A text column (5 to 20) before a number and a name that wants
	 * 30: at 60 the name's share is 18, the spare 27 widen the name to
	 * its 30, then the text to its 20. */
	c[0] = (struct column){.kind = COLUMN_TEXT, .want = 20, .min = 5};
	c[1] = (struct column){.kind = COLUMN_NUMBER, .want = 8, .prio = 1};
	c[2] = (struct column){.kind = COLUMN_NAME, .want = 30, .min = 10};
	hidden = columns_lay_out(c, 3, 60, 30);
	ok(hidden == 0 && c[0].width == 20 && c[1].x == 21 && c[2].x == 30 &&
	           c[2].width == 30,
	   "60 columns: the name, then the text, to their widest");
	is_u64(columns_at(c, 3, 25), 1, "column 25 is the number's");
}

int
main(void)
{
	test_keep();
	test_columns();
	test_cursor();
	test_resize();
	test_search();
	test_sort_reset();
	test_pager();
	test_reports();
	test_mouse();
	test_filter();
	test_filter_mouse();
	test_smart_case();
	return done_testing();
}
