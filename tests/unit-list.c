/*
 * unit-list: the list widget's cursor, paging, resizing, search with its
 * match count, and the reset after a sort, on lists of a known size whose
 * expected positions are worked out by hand below.
 */
#include "config.h"

#include "tui/list.h"

#include "tap.h"

/* Rows whose index is a multiple of 3 match (0, 3, 6, ...). */
static bool
every_third(size_t row, void *arg)
{
	(void)arg;
	return row % 3 == 0;
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

int
main(void)
{
	test_cursor();
	test_resize();
	test_search();
	test_sort_reset();
	test_pager();
	return done_testing();
}
