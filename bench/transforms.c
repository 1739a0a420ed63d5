/*
 * transforms: what a transform, an undo and a redo cost in the viewer,
 * and a storm of them.  Loads a trace as the viewer does, waits for its
 * indexes, selects the fourth row of the profile, then presses each
 * transform key (F M D R K P Z Z), each followed by a full redraw on a
 * 120x40 canvas as the viewer does after a key, and undoes them all
 * (U), redoes them (C-r) and undoes them again; then applies twelve,
 * more than the app keeps, and undoes them to the model as loaded (the
 * models no longer kept are made again).  Each line gives the wall
 * time of the key and the cpu time of the thread that draws; the
 * budget is 0.5 s of wall time for each (the load average printed
 * with the worst says how busy the machine was).  Last, 3000 transform, undo
 * and move keys typed while keys keep waiting, and the one transform
 * left applied once they stop.
 *
 * Usage: transforms TRACE.  Built by `make bench`, not by `make check`.
 */
#include "config.h"

#include "tui/app.h"
#include "model/calltree.h"
#include "tui/canvas.h"
#include "tui/loading.h"
#include "tui/request.h"
#include "read/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

enum { BUDGET_MS = 500 };

static double worst_ms, worst_cpu_ms;
static int over;

static double
clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Press req, settle and redraw; print the times under name. */
static void
press(struct app *app, struct canvas *c, enum request req, const char *name)
{
	double t0 = clock_ms(CLOCK_MONOTONIC);
	double c0 = clock_ms(CLOCK_THREAD_CPUTIME_ID), ms, cpu;

	app_request(app, req);
	app_settle(app);
	app_draw(app, c);
	ms = clock_ms(CLOCK_MONOTONIC) - t0;
	cpu = clock_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
	printf("%-4s %9.1f ms wall %9.1f ms cpu  %s\n", name, ms, cpu,
	       app->message ? app->message : "");
	if (ms > worst_ms)
		worst_ms = ms;
	if (cpu > worst_cpu_ms)
		worst_cpu_ms = cpu;
	over += ms > BUDGET_MS;
}

/* Keys always wait: what they ask for waits too. */
static bool
always(void)
{
	return true;
}

int
main(int argc, char **argv)
{
	static const struct {
		enum request req;
		const char *name;
	} keys[] = {
	        {REQ_TRANSFORM_FOCUS, "F"}, {REQ_TRANSFORM_MERGE, "M"},
	        {REQ_TRANSFORM_DROP, "D"},  {REQ_TRANSFORM_RECURSION, "R"},
	        {REQ_TRANSFORM_CLASS, "K"}, {REQ_TRANSFORM_PACKAGE, "P"},
	        {REQ_TRANSFORM_GROUP, "Z"}, {REQ_TRANSFORM_GROUP, "Z"},
	};
	static const enum request storm[] = {
	        REQ_TRANSFORM_GROUP, REQ_TRANSFORM_MERGE,
	        REQ_MOVE_DOWN,       REQ_TRANSFORM_DROP,
	        REQ_TRANSFORM_UNDO,  REQ_TRANSFORM_FOCUS,
	        REQ_MOVE_UP,         REQ_TRANSFORM_RECURSION};
	struct trace_error err = {0};
	struct calltree *tree;
	struct canvas *canvas;
	struct loading *loading;
	struct app *app;
	size_t i, n = sizeof(keys) / sizeof(keys[0]);
	double t0;

	if (argc != 2) {
		fputs("usage: transforms TRACE\n", stderr);
		return 2;
	}
	loading = loading_start(argv[1], NULL, false, true, NULL);
	tree = loading ? loading_take_first(loading, &err) : NULL;
	if (tree && tree->sums) {
		struct calltree *sums = tree;

		app = app_new(sums);
		tree = loading_finish(loading, &err);
		if (tree)
			app_take_calls(app, tree);
	} else {
		if (loading)
			loading_finish(loading, &(struct trace_error){0});
		app = tree ? app_new(tree) : NULL;
	}
	if (!app || !tree) {
		fprintf(stderr, "transforms: %s: %s\n", argv[1],
		        err.message ? err.message : "cannot read it");
		trace_error_clear(&err);
		return 3;
	}
	canvas = canvas_new(120, 40, false);
	app_draw(app, canvas);
	while (!warmup_done(app->warmup)) {
		struct timespec ms = {0, 1000000};

		nanosleep(&ms, NULL);
	}
	printf("%s: %llu records, %llu calls\n", argv[1],
	       (unsigned long long)tree->records,
	       (unsigned long long)calltree_call_count(tree));
	for (i = 0; i < 3; i++)
		app_request(app, REQ_MOVE_DOWN);
	app_draw(app, canvas);
	for (i = 0; i < n; i++)
		press(app, canvas, keys[i].req, keys[i].name);
	for (i = 0; i < n; i++)
		press(app, canvas, REQ_TRANSFORM_UNDO, "U");
	for (i = 0; i < n; i++)
		press(app, canvas, REQ_TRANSFORM_REDO, "C-r");
	for (i = 0; i < n; i++)
		press(app, canvas, REQ_TRANSFORM_UNDO, "U");
	printf("-- twelve transforms, more than are kept, then undone\n");
	for (i = 0; i < 12; i++) {
		press(app, canvas, i % 2 ? REQ_TRANSFORM_GROUP : REQ_MOVE_DOWN,
		      i % 2 ? "Z" : "j");
		press(app, canvas, REQ_TRANSFORM_MERGE, "M");
	}
	while (app->ntransforms)
		press(app, canvas, REQ_TRANSFORM_UNDO, "U");
	{
		double load[1] = {0};

		/* Wall times stretch with what else the machine runs. */
		getloadavg(load, 1);
		printf("worst %.1f ms wall, %.1f ms cpu of the drawing "
		       "thread; %d of the keys over the budget of %d ms "
		       "(load average %.1f)\n",
		       worst_ms, worst_cpu_ms, over, BUDGET_MS, load[0]);
	}
	/* The storm: nothing is made while keys wait. */
	app->key_waiting = always;
	t0 = clock_ms(CLOCK_MONOTONIC);
	for (i = 0; i < 3000; i++)
		app_request(app, storm[i % (sizeof(storm) / sizeof(*storm))]);
	printf("3000 keys typed at once: %.1f ms",
	       clock_ms(CLOCK_MONOTONIC) - t0);
	app->key_waiting = NULL;
	t0 = clock_ms(CLOCK_MONOTONIC);
	app_settle(app);
	app_draw(app, canvas);
	printf(", then what is left of them %.1f ms (%s)\n",
	       clock_ms(CLOCK_MONOTONIC) - t0,
	       app->message ? app->message : "");
	canvas_free(canvas);
	t0 = clock_ms(CLOCK_MONOTONIC);
	app_free(app);
	printf("freed in %.1f ms\n", clock_ms(CLOCK_MONOTONIC) - t0);
	{
		struct rusage ru;

		/* ru_maxrss is in KiB on Linux. */
		if (!getrusage(RUSAGE_SELF, &ru))
			printf("peak memory %.1f MB\n",
			       ru.ru_maxrss * 1024.0 / 1e6);
	}
	return over ? 1 : 0;
}
