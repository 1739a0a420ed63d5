/*
 * keys: what a key press costs.  Loads a trace, then runs rounds of
 * requests (moves, pages, sorts, expand and collapse, clock cycles, view
 * switches, thread scope changes, a search, the icicle's moves, zoom,
 * inversion and search, the call tree's openings and inversion, the
 * call chart's moves, zooms, pans, call jumps, searches and ranges)
 * each followed by a full
 * redraw on a 120x40 canvas, as the viewer does after every key, and
 * prints the median and worst milliseconds per kind of request, then
 * the peak memory against the file's size.
 *
 * Usage: keys TRACE [ROUNDS [FIRST]]   (ROUNDS defaults to 10, about 50
 * requests each, and may be 0; FIRST is the view asked for right after
 * the first screen, `icicle` by default, `calltree` or `timeline`).  The
 * trace is read as the viewer reads it (tui/loading.c): "load and first
 * draw" is the profile drawn from the sums, then the model is read and
 * taken over, and a line says when.  Built by `make bench`, not by
 * `make check`.
 */
#include "config.h"

#include "tui/app.h"
#include "model/calltree.h"
#include "model/open.h"
#include "tui/canvas.h"
#include "tui/loading.h"
#include "tui/request.h"
#include "read/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

enum { MAX_KINDS = 96 };

struct kind {
	const char *name;
	double *ms;
	size_t count, cap;
};

static struct kind kinds[MAX_KINDS];
static size_t nkinds;

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void
record(const char *name, double ms)
{
	struct kind *k = NULL;
	size_t i;

	for (i = 0; i < nkinds; i++)
		if (strcmp(kinds[i].name, name) == 0)
			k = &kinds[i];
	if (!k) {
		if (nkinds == MAX_KINDS)
			abort();
		k = &kinds[nkinds++];
		k->name = name;
	}
	if (k->count == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 64;
		k->ms = realloc(k->ms, k->cap * sizeof(*k->ms));
		if (!k->ms)
			abort();
	}
	k->ms[k->count++] = ms;
}

/* Run req and redraw, timing both under the name kind. */
static void
press(struct app *app, struct canvas *c, enum request req, const char *kind)
{
	double t0 = now_ms();

	app_request(app, req);
	app_draw(app, c);
	record(kind, now_ms() - t0);
}

static void
press_n(struct app *app, struct canvas *c, enum request req, const char *kind,
        int n)
{
	while (n-- > 0)
		press(app, c, req, kind);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The icicle: its first draw after a scope change merges the threads'
 * call paths (built once per thread, on the icicle's first draw, which
 * VIEW_NEXT may have paid), the first inversion after it takes the
 * bottom-up tree a warmup job built meanwhile; the rest only draw. */
static void
icicle_keys(struct app *app, struct canvas *c)
{
	double t0;

	press(app, c, REQ_VIEW_ICICLE, "VIEW_ICICLE");
	press(app, c, REQ_REDRAW, "REDRAW (icicle)");
	press_n(app, c, REQ_MOVE_DOWN, "MOVE_DOWN (icicle)", 4);
	press(app, c, REQ_EXPAND, "EXPAND (icicle sibling)");
	press(app, c, REQ_COLLAPSE, "COLLAPSE (icicle sibling)");
	press(app, c, REQ_MOVE_UP, "MOVE_UP (icicle)");
	press(app, c, REQ_ENTER, "ENTER (icicle zoom)");
	press(app, c, REQ_MOVE_LAST, "MOVE_LAST (icicle)");
	press(app, c, REQ_BACK_OUT, "BACK_OUT (icicle)");
	press(app, c, REQ_CLOCK, "CLOCK (icicle re-sort)");
	press(app, c, REQ_INVERT, "INVERT (build)");
	press_n(app, c, REQ_MOVE_DOWN, "MOVE_DOWN (icicle)", 2);
	press(app, c, REQ_INVERT, "INVERT (back)");
	t0 = now_ms();
	app_search(app, "[Dd]raw|run");
	app_draw(app, c);
	record("search (icicle)", now_ms() - t0);
	press_n(app, c, REQ_SEARCH_NEXT, "SEARCH_NEXT (icicle)", 3);
	press(app, c, REQ_CLOCK, "CLOCK (icicle re-sort)");
	press(app, c, REQ_CLOCK, "CLOCK (icicle re-sort)");
	press(app, c, REQ_VIEW_THREADS, "VIEW_THREADS");
	press(app, c, REQ_MOVE_FIRST, "MOVE_FIRST (threads)");
	press(app, c, REQ_ENTER, "ENTER (scope 1 thread)");
	press(app, c, REQ_VIEW_ICICLE, "VIEW_ICICLE (1 thread)");
	press(app, c, REQ_VIEW_THREADS, "VIEW_THREADS");
	press(app, c, REQ_SCOPE_ALL, "SCOPE_ALL");
	press(app, c, REQ_VIEW_ICICLE, "VIEW_ICICLE (all)");
	press(app, c, REQ_VIEW_PROFILE, "VIEW_PROFILE");
}

/* The timeline's call chart: the first time it shows, the index is
 * built; then moves of the time cursor on a thread's header, calls
 * walked down the stack and along depths, zooms from the whole trace
 * down to a microsecond a column and back with pans, zoom to the
 * selected call and fit, the method under the selection chosen and its
 * calls stepped through across threads, a search stepped across
 * threads, folds, a range applied and cleared, and the clock switched
 * (the other clock's index built the first time). */
static void
timeline_keys(struct app *app, struct canvas *c, long r)
{
	double t0;
	int z;

	press(app, c, REQ_VIEW_TIMELINE, "VIEW_TIMELINE");
	press(app, c, REQ_REDRAW, "REDRAW (timeline)");
	press_n(app, c, REQ_EXPAND, "EXPAND (timeline header)", 40 + (int)r);
	press_n(app, c, REQ_MOVE_DOWN, "MOVE_DOWN (chart callee)", 6);
	press_n(app, c, REQ_EXPAND, "EXPAND (chart next call)", 10);
	press_n(app, c, REQ_COLLAPSE, "COLLAPSE (chart prev call)", 4);
	for (z = 0; z < 40; z++) {
		press(app, c, REQ_ZOOM_IN, "ZOOM_IN (timeline)");
		if (z % 4 == 0) {
			press(app, c, REQ_PAGE_DOWN, "PAGE_DOWN (timeline)");
			press(app, c, REQ_EXPAND, "EXPAND (chart next call)");
			press(app, c, REQ_PAGE_UP, "PAGE_UP (timeline)");
			press(app, c, REQ_COLLAPSE,
			      "COLLAPSE (chart prev call)");
			press(app, c, REQ_MOVE_DOWN,
			      "MOVE_DOWN (chart callee)");
			press(app, c, REQ_MOVE_UP, "MOVE_UP (chart caller)");
		}
		if (z == 20) {
			press(app, c, REQ_ENTER, "ENTER (timeline select)");
			press_n(app, c, REQ_CALL_NEXT, "CALL_NEXT", 3);
			press_n(app, c, REQ_CALL_PREV, "CALL_PREV", 2);
			press(app, c, REQ_RANGE_START, "RANGE_START");
			press_n(app, c, REQ_EXPAND, "EXPAND (chart next call)",
			        8);
			press(app, c, REQ_RANGE_APPLY, "RANGE_APPLY (8 calls)");
			press(app, c, REQ_RANGE_CLEAR, "RANGE_CLEAR");
			press(app, c, REQ_CALL_LONGEST, "CALL_LONGEST");
			press(app, c, REQ_ZOOM_CALL, "ZOOM_CALL");
			press(app, c, REQ_FIT, "FIT");
			press(app, c, REQ_ZOOM_CALL, "ZOOM_CALL");
			press_n(app, c, REQ_ZOOM_OUT, "ZOOM_OUT (timeline)", 6);
			press_n(app, c, REQ_CALL_NEXT, "CALL_NEXT", 2);
		}
	}
	press_n(app, c, REQ_ZOOM_OUT, "ZOOM_OUT (timeline)", 40);
	t0 = now_ms();
	app_search(app, "[Dd]raw|run");
	app_draw(app, c);
	record("search (timeline)", now_ms() - t0);
	press_n(app, c, REQ_SEARCH_NEXT, "SEARCH_NEXT (timeline)", 4);
	press_n(app, c, REQ_SEARCH_PREV, "SEARCH_PREV (timeline)", 2);
	press_n(app, c, REQ_MOVE_UP, "MOVE_UP (chart caller)", 60);
	press(app, c, REQ_TAG, "TAG (fold a thread)");
	press(app, c, REQ_TAG, "TAG (fold a thread)");
	/* A range over a tenth of the trace: the profile's recomputation
	 * sums the profile index's blocks inside it and walks the calls
	 * at its ends. */
	press(app, c, REQ_RANGE_START, "RANGE_START");
	press_n(app, c, REQ_EXPAND, "EXPAND (timeline header)", 10);
	press(app, c, REQ_RANGE_APPLY, "RANGE_APPLY (a tenth)");
	press(app, c, REQ_RANGE_CLEAR, "RANGE_CLEAR");
	press(app, c, REQ_SORT_NEXT, "SORT_NEXT (timeline)");
	press(app, c, REQ_SORT_NEXT, "SORT_NEXT (timeline)");
	press(app, c, REQ_MOVE_LAST, "MOVE_LAST (timeline)");
	press(app, c, REQ_MOVE_FIRST, "MOVE_FIRST (timeline)");
	press(app, c, REQ_CHART_CLOCK,
	      r ? "CHART_CLOCK" : "CHART_CLOCK (first: build)");
	press_n(app, c, REQ_MOVE_DOWN, "MOVE_DOWN (chart callee)", 3);
	press(app, c, REQ_CHART_CLOCK, "CHART_CLOCK");
	press(app, c, REQ_VIEW_PROFILE, "VIEW_PROFILE");
}

/* The call tree: its first draw after a scope change merges the
 * threads' call paths, its first inversion builds the bottom-up tree;
 * the rest open rows (E up to 10000 of them) and draw. */
static void
calltree_keys(struct app *app, struct canvas *c)
{
	press(app, c, REQ_VIEW_CALLTREE, "VIEW_CALLTREE");
	press(app, c, REQ_MOVE_FIRST, "MOVE_FIRST (tree)");
	press(app, c, REQ_EXPAND_HOT, "EXPAND_HOT (tree)");
	press_n(app, c, REQ_MOVE_DOWN, "MOVE_DOWN (tree)", 3);
	press(app, c, REQ_EXPAND_ALL, "EXPAND_ALL (tree)");
	press_n(app, c, REQ_PAGE_DOWN, "PAGE_DOWN (tree)", 2);
	press(app, c, REQ_SORT_NEXT, "SORT_NEXT (tree)");
	press(app, c, REQ_COLLAPSE, "COLLAPSE (tree)");
	press(app, c, REQ_INVERT, "INVERT (tree)");
	press(app, c, REQ_MOVE_DOWN, "MOVE_DOWN (tree)");
	press(app, c, REQ_EXPAND, "EXPAND (tree)");
	press(app, c, REQ_INVERT, "INVERT (tree back)");
	press(app, c, REQ_VIEW_PROFILE, "VIEW_PROFILE");
}

/* Round r: about fifty requests touching every costly path.  Thread
 * scopes alternate between the two longest threads (the threads view
 * sorts by wall time), since idle threads would make them look free. */
static void
round_of_keys(struct app *app, struct canvas *c, long r)
{
	double t0;

	press_n(app, c, REQ_MOVE_DOWN, "MOVE_DOWN", 10);
	press_n(app, c, REQ_MOVE_UP, "MOVE_UP", 3);
	press_n(app, c, REQ_PAGE_DOWN, "PAGE_DOWN", 3);
	press_n(app, c, REQ_PAGE_UP, "PAGE_UP", 2);
	press(app, c, REQ_MOVE_LAST, "MOVE_LAST");
	press(app, c, REQ_MOVE_FIRST, "MOVE_FIRST");
	press_n(app, c, REQ_SORT_NEXT, "SORT_NEXT", 2);
	press(app, c, REQ_SORT_REVERSE, "SORT_REVERSE");
	press(app, c, REQ_SORT_REVERSE, "SORT_REVERSE");
	press_n(app, c, REQ_SORT_PREV, "SORT_PREV", 2);
	press(app, c, REQ_EXPAND, "EXPAND");
	press_n(app, c, REQ_MOVE_DOWN, "MOVE_DOWN", 3);
	press(app, c, REQ_COLLAPSE, "COLLAPSE");
	press(app, c, REQ_MOVE_DOWN, "MOVE_DOWN");
	press(app, c, REQ_ENTER, "ENTER (expand)");
	press_n(app, c, REQ_CLOCK, "CLOCK", 3);
	press(app, c, REQ_ENTER, "ENTER (collapse)");
	press(app, c, REQ_VIEW_THREADS, "VIEW_THREADS");
	press(app, c, REQ_MOVE_FIRST, "MOVE_FIRST (threads)");
	if (r % 2)
		press(app, c, REQ_MOVE_DOWN, "MOVE_DOWN (threads)");
	press(app, c, REQ_ENTER, "ENTER (scope 1 thread)");
	press_n(app, c, REQ_MOVE_DOWN, "MOVE_DOWN", 2);
	press(app, c, REQ_VIEW_THREADS, "VIEW_THREADS");
	press(app, c, REQ_MOVE_FIRST, "MOVE_FIRST (threads)");
	press(app, c, REQ_TAG, "TAG");
	press(app, c, REQ_TAG, "TAG");
	press(app, c, REQ_ENTER, "ENTER (scope tagged)");
	press(app, c, REQ_VIEW_THREADS, "VIEW_THREADS");
	press(app, c, REQ_SCOPE_ALL, "SCOPE_ALL");
	press(app, c, REQ_VIEW_PROFILE, "VIEW_PROFILE");
	press_n(app, c, REQ_VIEW_NEXT, "VIEW_NEXT", 4);
	press(app, c, REQ_HISTORY_BACK, "HISTORY_BACK");
	press(app, c, REQ_HISTORY_FORWARD, "HISTORY_FORWARD");
	press(app, c, REQ_VIEW_PROFILE, "VIEW_PROFILE");
	t0 = now_ms();
	app_search(app, "[Dd]raw|run");
	app_draw(app, c);
	record("search", now_ms() - t0);
	press(app, c, REQ_SEARCH_NEXT, "SEARCH_NEXT");
	press(app, c, REQ_REDRAW, "REDRAW");
	icicle_keys(app, c);
	calltree_keys(app, c);
	timeline_keys(app, c, r);
}

int
main(int argc, char **argv)
{
	struct trace_error err = {0};
	struct calltree *tree;
	struct canvas *canvas;
	struct app *app;
	struct loading *loading;
	double t0, load_ms, first_ms, model_ms, warm_ms, total = 0;
	long rounds = 10, r;
	size_t i, n = 0;
	const char *first = argc == 4 ? argv[3] : "icicle";

	if (argc >= 3)
		rounds = atol(argv[2]);
	if (argc < 2 || argc > 4 || rounds < 0 ||
	    (strcmp(first, "icicle") && strcmp(first, "calltree") &&
	     strcmp(first, "timeline"))) {
		fputs("usage: keys TRACE [ROUNDS [icicle|calltree|timeline]]\n",
		      stderr);
		return 2;
	}
	/* As the viewer loads: the sums first on a second thread, the first
	 * screen drawn from them, then the model read by the same thread
	 * and taken by the app. */
	t0 = now_ms();
	loading = loading_start(argv[1], NULL, false, true, NULL);
	tree = loading ? loading_take_first(loading, &err) : NULL;
	if (!tree) {
		fprintf(stderr, "keys: %s: offset %llu: %s\n", argv[1],
		        (unsigned long long)err.offset,
		        err.message ? err.message : "no thread");
		trace_error_clear(&err);
		return 3;
	}
	app = app_new(tree);
	canvas = canvas_new(120, 40, false);
	app_draw(app, canvas);
	load_ms = now_ms() - t0;
	/* The icicle (or the call tree) asked for at once, as a user
	 * pressing `f` on the first screen would: on the call paths read
	 * with the sums while the calls load (a timeline asked for then
	 * opens when they come). */
	if (!strcmp(first, "calltree"))
		press(app, canvas, REQ_VIEW_CALLTREE, "VIEW_CALLTREE (first)");
	else if (!strcmp(first, "timeline"))
		press(app, canvas, REQ_VIEW_TIMELINE,
		      "VIEW_TIMELINE (at once)");
	else
		press(app, canvas, REQ_VIEW_ICICLE, "VIEW_ICICLE (first)");
	first_ms = now_ms() - t0;
	press(app, canvas, REQ_VIEW_PROFILE, "VIEW_PROFILE");
	if (tree->sums) {
		tree = loading_finish(loading, &err);
		if (!tree) {
			fprintf(stderr, "keys: %s: offset %llu: %s\n", argv[1],
			        (unsigned long long)err.offset, err.message);
			trace_error_clear(&err);
			return 3;
		}
		app_take_calls(app, tree);
		app_draw(app, canvas);
	} else {
		loading_finish(loading, &err);
	}
	model_ms = now_ms() - t0;
	/* The timeline's index and the bottom-up roots are built on a
	 * second thread once the calls are there: time how long after
	 * that they are ready, as a user reading the screen would wait. */
	t0 = now_ms();
	while (!warmup_done(app->warmup)) {
		struct timespec ms = {0, 1000000};

		nanosleep(&ms, NULL);
	}
	warm_ms = now_ms() - t0;
	press(app, canvas, REQ_VIEW_TIMELINE, "VIEW_TIMELINE (first)");
	press(app, canvas, REQ_VIEW_PROFILE, "VIEW_PROFILE");
	printf("%s: %llu records, %zu methods, %zu threads; load and first "
	       "draw %.1f ms; %s shown %.1f ms after the start; background "
	       "indexes ready %.1f ms after the model\n",
	       argv[1], (unsigned long long)tree->records, tree->nmethods,
	       tree->nthreads, load_ms, first, first_ms, warm_ms);
	printf("model with calls ready %.1f ms after the start (%s)\n",
	       model_ms,
	       model_ms > load_ms + 0.05 ? "read after the sums"
	                                 : "read at once");
	for (r = 0; r < rounds; r++)
		round_of_keys(app, canvas, r);
	printf("%-24s %6s %10s %10s\n", "request + draw 120x40", "count",
	       "median ms", "worst ms");
	for (i = 0; i < nkinds; i++) {
		struct kind *k = &kinds[i];
		size_t j;

		qsort(k->ms, k->count, sizeof(*k->ms), cmp_double);
		printf("%-24s %6zu %10.3f %10.3f\n", k->name, k->count,
		       k->ms[k->count / 2], k->ms[k->count - 1]);
		for (j = 0; j < k->count; j++)
			total += k->ms[j];
		n += k->count;
		free(k->ms);
	}
	printf("%zu requests in %.1f ms\n", n, total);
	canvas_free(canvas);
	app_free(app);
	{
		struct rusage ru;
		struct stat st;

		/* ru_maxrss is in KiB on Linux. */
		if (!getrusage(RUSAGE_SELF, &ru) && !stat(argv[1], &st))
			printf("peak memory %.1f MB, %.2f of the file's %.1f "
			       "MB\n",
			       ru.ru_maxrss * 1024.0 / 1e6,
			       ru.ru_maxrss * 1024.0 / (double)st.st_size,
			       (double)st.st_size / 1e6);
	}
	return 0;
}
