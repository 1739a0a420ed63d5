/*
 * app: requests a view does not handle fall through to the app: view
 * switching, history, the clock, search and quitting.  Every key press
 * redraws the whole canvas; the terminal layer sends only what changed.
 */
#include "config.h"

#include "tui/app.h"

#include "tui/keymap.h"
#include "tui/list.h"
#include "tui/source.h"
#include "query/method-name.h"
#include "query/summary.h"
#include "query/transforms.h"
#include "util/alloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct view_ops *const view_ops[APP_VIEW_COUNT] = {
#define VIEW_OPS(id, name, req) [APP_VIEW_##id] = &view_##name##_ops,
        VIEW_LIST(VIEW_OPS)
#undef VIEW_OPS
};

/* The request that shows each view. */
static const enum request view_request[APP_VIEW_COUNT] = {
#define VIEW_REQUEST(id, name, req) [APP_VIEW_##id] = req,
        VIEW_LIST(VIEW_REQUEST)
#undef VIEW_REQUEST
};

static void pending_free(struct app_pending *p);
static void kept_release(struct app *app, struct app_kept *k, bool keep_tree);

/* The method view v's selection stands for, or CALL_NONE. */
static uint32_t
view_selection(const struct app *app, enum app_view v)
{
	return view_ops[v]->selection ? view_ops[v]->selection(app->state[v])
	                              : CALL_NONE;
}

/* The selection changed: the views not shown follow it when they are
 * shown next. */
static void
selection_moved(struct app *app, bool changed)
{
	int v;

	if (!changed)
		return;
	for (v = 0; v < APP_VIEW_COUNT; v++)
		app->reselect[v] = v != (int)app->view;
}

/* View v's selection (its method, and its call path when it has one)
 * into the app's, the other views left to notice it as they are shown. */
static void
take_selection(struct app *app, enum app_view v)
{
	uint32_t m = view_selection(app, v);
	const uint32_t *path = NULL;
	size_t n = 0;

	if (m == CALL_NONE)
		return;
	if (view_ops[v]->selection_path)
		path = view_ops[v]->selection_path(app->state[v], &n);
	if (path && n && path[n - 1] == m)
		selection_moved(app,
		                selection_set_path(&app->sel, path, n, (int)v));
	else
		selection_moved(app,
		                selection_set_method(&app->sel, m, (int)v));
}

static void
refresh_views(struct app *app)
{
	int v;

	for (v = 0; v < APP_VIEW_COUNT; v++) {
		app->reselect[v] = false;
		if (view_ops[v]->refresh && app->state[v])
			view_ops[v]->refresh(app->state[v], app);
	}
	take_selection(app, app->view);
}

/* Whether every thread of a tree of sums has its call paths, so that
 * the views of paths open before the calls come. */
static bool
sums_have_paths(const struct calltree *tree)
{
	size_t t;

	for (t = 0; t < tree->nthreads; t++)
		if (tree->sums[t].count && !tree->sums[t].paths)
			return false;
	return true;
}

/* Whether view v can open on the app's tree now. */
static bool
view_opens(const struct app *app, enum app_view v)
{
	return !app->tree->sums || !view_ops[v]->needs_calls ||
	       (view_ops[v]->paths_will_do && app->sums_paths);
}

/* Every thread's call paths: those built (one per thread, taken over;
 * an empty one, no node, is not built), or room for them when NULL, none
 * built yet. */
static void
paths_alloc(struct app *app, struct callpath *built)
{
	size_t n = app->tree->nthreads + 1, t;

	app->thread_paths =
	        built ? built : xcalloc(n, sizeof(*app->thread_paths));
	app->thread_built = xcalloc(n, sizeof(*app->thread_built));
	for (t = 0; built && t < n - 1; t++)
		app->thread_built[t] = built[t].count != 0;
}

/* Thread t's call paths, from the sums or the calls, unless built. */
static void
build_thread_paths(struct app *app, size_t t)
{
	if (app->thread_built[t])
		return;
	if (app->tree->sums)
		callpath_from_sums(&app->thread_paths[t], app->tree, t);
	else
		callpath_build_thread_whole(&app->thread_paths[t], app->tree,
		                            t);
	app->thread_built[t] = true;
}

/* Whether a sampled recording's two clocks give every method the same
 * times (a simpleperf recording of cpu-clock samples: each sample's
 * time is its period), so that the second says nothing new. */
static bool
clocks_agree(const struct app *app)
{
	const struct profile *p = &app->profile;
	size_t m;

	if (!app->tree->header.sample_weight ||
	    p->total[CLOCK_CPU] != p->total[CLOCK_WALL])
		return false;
	for (m = 0; m < p->nrows; m++)
		if (p->rows[m].incl[CLOCK_CPU] != p->rows[m].incl[CLOCK_WALL] ||
		    p->rows[m].excl[CLOCK_CPU] != p->rows[m].excl[CLOCK_WALL])
			return false;
	return true;
}

struct app *
app_new(struct calltree *tree)
{
	struct app *app = xcalloc(1, sizeof(*app));
	int v;

	app->tree = tree;
	selection_init(&app->sel);
	app->sample_type_wanted = -1;
	app->pending_view = APP_VIEW_COUNT;
	/* Both clocks side by side where the trace has both, as
	 * Traceview shows them; else the one it has. */
	app->clocks = tree->has_clock[CLOCK_CPU] && tree->has_clock[CLOCK_WALL]
	                      ? APP_CLOCKS_BOTH
	              : tree->has_clock[CLOCK_CPU] ? APP_CLOCKS_CPU
	                                           : APP_CLOCKS_WALL;
	scope_init_all(&app->scope, tree);
	app->names = method_names_new(tree);
	/* The first screen's profile takes every cpu; the indexes of the
	 * other views are built while it is read. */
	app->cache = profile_cache_new(tree);
	profile_from_cache(&app->profile, app->cache, tree, &app->scope);
	if (app->clocks == APP_CLOCKS_BOTH && clocks_agree(app)) {
		/* Two equal columns say nothing twice: the cpu clock's, as
		 * report shows it. */
		app->clocks = APP_CLOCKS_CPU;
		app->clocks_agree = true;
	}
	/* Sums only: the views of calls, and their indexes, wait for the
	 * calls (app_take_calls). */
	if (!tree->sums)
		app->warmup = warmup_start(
		        tree, calltree_default_range_clock(tree), NULL);
	else
		app->sums_paths = sums_have_paths(tree);
	for (v = 0; v < APP_VIEW_COUNT; v++)
		if (view_opens(app, v))
			app->state[v] = view_ops[v]->open(app);
	take_selection(app, app->view);
	/* The first row is where the profile starts, not a choice: the
	 * chart opens on its whole trace until one is made. */
	app->sel.serial = 0;
	return app;
}

bool
app_has_calls(struct app *app)
{
	if (!app->tree->sums)
		return true;
	if (app->calls_error)
		app_message(app, true, "no calls: %s", app->calls_error);
	else
		app_message(app, false, "calls still loading: %d%%",
		            app->calls_percent);
	return false;
}

/*
 * Whether view can be shown now; if not, while the calls are read, it is
 * noted to be shown when they come, selecting m (CALL_NONE: what is
 * selected then), and the status line says so.
 */
static bool
view_ready(struct app *app, enum app_view view, uint32_t m)
{
	if (app->state[view])
		return true;
	if (app->calls_error) {
		app_has_calls(app);
		return false;
	}
	app->pending_view = view;
	app->pending_method = m;
	app_message(app, false, "calls still loading: %d%%; %s opens when read",
	            app->calls_percent, view_ops[view]->name);
	return false;
}

void
app_take_calls(struct app *app, struct calltree *tree)
{
	struct calltree *sums = app->tree;
	const struct callpath *given = NULL;
	size_t t;
	int v;

	/* The paths read with the sums are the calls' node for node: the
	 * warmup merges them rather than build them again. */
	if (app->sums_paths) {
		if (!app->thread_paths)
			paths_alloc(app, NULL);
		for (t = 0; t < sums->nthreads; t++)
			build_thread_paths(app, t);
		given = app->thread_paths;
	}
	app->sums_paths = false;

	/* The profile, its per-thread cache and the call paths read with
	 * the sums are the same numbers: the views that showed them keep
	 * their state; only what names the model moves to the new one. */
	app->tree = tree;
	method_names_free(app->names);
	app->names = method_names_new(tree);
	if (app->base)
		base_compare_rekey(app->base, tree);
	free(app->calls_error);
	app->calls_error = NULL;
	app->warmup =
	        warmup_start(tree, calltree_default_range_clock(tree), given);
	for (v = 0; v < APP_VIEW_COUNT; v++) {
		if (!app->state[v]) {
			app->state[v] = view_ops[v]->open(app);
			/* Shown next, it follows the selection. */
			app->reselect[v] = app->sel.method != CALL_NONE;
		} else if (view_ops[v]->take_model) {
			view_ops[v]->take_model(app->state[v], app);
		}
		if (app->filter_text[v])
			view_ops[v]->filter(app->state[v], app,
			                    &app->filter_re[v]);
	}
	calltree_free(sums);
	if (app->pending_view != APP_VIEW_COUNT) {
		enum app_view pending = app->pending_view;

		app->pending_view = APP_VIEW_COUNT;
		app_jump(app, pending,
		         app->pending_method == CALL_NONE
		                 ? app->sel.method
		                 : app->pending_method);
	}
}

void
app_free(struct app *app)
{
	size_t t;
	int v;
	size_t i;

	if (!app)
		return;
	/* Every warmup stops first: each then waits only for the index
	 * it is building. */
	warmup_stop(app->warmup);
	for (i = 0; i <= app->nkept && app->kept; i++)
		warmup_stop(app->kept[i].warmup);
	for (i = 0; i <= app->nkept && app->kept; i++)
		if (i != app->ntransforms)
			kept_release(app, &app->kept[i], false);
	free(app->kept);
	free(app->call_set.calls);
	free(app->call_set.title);
	pending_free(app->pending);
	warmup_free(app->warmup);
	for (v = 0; v < APP_VIEW_COUNT; v++)
		if (app->state[v])
			view_ops[v]->close(app->state[v]);
	if (app->thread_paths)
		for (t = 0; t < app->tree->nthreads; t++)
			callpath_done(&app->thread_paths[t]);
	free(app->thread_paths);
	free(app->thread_built);
	profile_done(&app->profile);
	profile_cache_free(app->cache);
	profile_index_free(app->index);
	scope_done(&app->scope);
	base_compare_free(app->base);
	free(app->base_path);
	free(app->loaded_with);
	if (app->have_re)
		regfree(&app->re);
	free(app->back.places);
	free(app->forward.places);
	free(app->message);
	free(app->calls_error);
	free(app->prompt);
	for (i = 0; i < app->nhistory; i++)
		free(app->history[i]);
	free(app->history);
	free(app->draft);
	for (v = 0; v < APP_VIEW_COUNT; v++) {
		if (app->filter_text[v])
			regfree(&app->filter_re[v]);
		free(app->filter_text[v]);
	}
	method_names_free(app->names);
	selection_done(&app->sel);
	if (app->original != app->tree)
		calltree_free(app->original);
	for (i = 0; i < app->nkept; i++) {
		free(app->transforms[i].methods);
		free(app->transforms[i].path);
		free(app->transforms[i].label);
	}
	free(app->transforms);
	calltree_free(app->tree);
	free(app);
}

void
app_wait_notice(struct app *app, const char *what)
{
	char *text;

	if (!app->notice || warmup_done(app->warmup))
		return;
	text = xasprintf("Building %s...", what);
	app->notice(text);
	free(text);
}

void
app_message(struct app *app, bool error, const char *fmt, ...)
{
	va_list ap;

	free(app->message);
	va_start(ap, fmt);
	app->message = xvasprintf(fmt, ap);
	va_end(ap);
	app->message_is_error = error;
}

struct callpath *
app_scope_parts(struct app *app, size_t *n)
{
	const struct calltree *tree = app->tree;
	const struct scope *scope = &app->scope;
	struct callpath *parts;
	size_t t;

	if (!app->thread_paths) {
		app_wait_notice(app, "the call paths");
		paths_alloc(app, warmup_take_thread_paths(app->warmup));
	}
	parts = xcalloc(scope->count + 1, sizeof(*parts));
	*n = 0;
	for (t = 0; t < tree->nthreads; t++) {
		if (!scope_has(scope, t))
			continue;
		build_thread_paths(app, t);
		parts[(*n)++] = app->thread_paths[t];
	}
	return parts;
}

enum clock_index
app_main_clock(const struct app *app)
{
	/* Both clocks lead with the wall's: a thread blocked in a call
	 * spends wall time there, and no cpu time. */
	return app->clocks == APP_CLOCKS_CPU ? CLOCK_CPU : CLOCK_WALL;
}

void
app_set_base(struct app *app, const struct calltree *base, const char *path)
{
	base_compare_free(app->base);
	free(app->base_path);
	app->base = base_compare_new(app->tree, base);
	app->base_path = xstrdup(path);
	refresh_views(app);
}

bool
app_base_method(const struct app *app, uint32_t m, uint64_t incl[CLOCK_COUNT],
                uint64_t excl[CLOCK_COUNT])
{
	return base_compare_method(app->base, m, incl, excl);
}

bool
app_base_path(const struct app *app, const struct callpath *p, uint32_t n,
              bool inverted, uint64_t incl[CLOCK_COUNT])
{
	return base_compare_path(app->base, p, n, inverted, incl);
}

/* The profile of the scope: summed from the per-thread cache, or, within
 * a range, from the blocks of calls the range covers and the calls at its
 * edges. */
static void
recompute(struct app *app)
{
	profile_done(&app->profile);
	if (app->scope.range.on && !app->index) {
		app_wait_notice(app, "the range index");
		app->index = warmup_take_profile_index(app->warmup);
		if (!app->index)
			app->index = profile_index_new(app->tree, 0);
	}
	if (app->scope.range.on)
		profile_from_index(&app->profile, app->index, app->tree,
		                   &app->scope);
	else
		profile_from_cache(&app->profile, app->cache, app->tree,
		                   &app->scope);
	refresh_views(app);
}

void
app_set_scope(struct app *app, struct scope *scope)
{
	struct time_range range = app->scope.range;

	scope_done(&app->scope);
	app->scope = *scope;
	app->scope.range = range;
	memset(scope, 0, sizeof(*scope));
	recompute(app);
}

void
app_set_range(struct app *app, const struct time_range *range)
{
	if (range && range->on)
		app->scope.range = *range;
	else
		memset(&app->scope.range, 0, sizeof(app->scope.range));
	recompute(app);
}

static void
history_push(struct app_history *h, struct app_place place)
{
	UTIL_GROW(h->places, h->cap, h->count + 1);
	h->places[h->count++] = place;
}

static struct app_place
here(const struct app *app)
{
	struct app_place p = {app->view,        app->sel.method,
	                      app->sel.thread,  app->sel.call,
	                      app->ntransforms, app->scope.range};

	return p;
}

static bool
same_range(const struct time_range *a, const struct time_range *b)
{
	if (!a->on || !b->on)
		return a->on == b->on;
	return a->clock == b->clock && a->start == b->start && a->end == b->end;
}

static bool set_transforms(struct app *app, size_t n, bool stoppable);
static void step_transforms(struct app *app, int dir);

static void
go_to(struct app *app, struct app_place place)
{
	/* A transform still waiting is left behind with the place. */
	pending_free(app->pending);
	app->pending = NULL;
	set_transforms(app, place.transforms, false);
	app->view = place.view;
	if (!same_range(&place.range, &app->scope.range)) {
		app->scope.range = place.range;
		recompute(app);
	}
	if (place.call != CALL_NONE && place.method != CALL_NONE &&
	    place.transforms == app->ntransforms)
		selection_set_call(&app->sel, app->tree, place.thread,
		                   place.call, -1);
	else
		selection_set_method(&app->sel, place.method, -1);
	refresh_views(app);
}

/* app_jump, the place left recorded with range was (NULL: the range
 * now), the range it had before what asked for the jump set another. */
static void
jump_from(struct app *app, enum app_view view, uint32_t m,
          const struct time_range *was)
{
	struct app_place to = {view,
	                       m,
	                       app->sel.thread,
	                       app->sel.call,
	                       app->ntransforms,
	                       app->scope.range};
	struct app_place from = here(app);

	if (view == app->view && m == app->sel.method)
		return;
	if (m != app->sel.method)
		to.call = CALL_NONE;
	if (!view_ready(app, view, m))
		return;
	app->pending_view = APP_VIEW_COUNT;
	if (was)
		from.range = *was;
	history_push(&app->back, from);
	app->forward.count = 0;
	go_to(app, to);
}

void
app_jump(struct app *app, enum app_view view, uint32_t m)
{
	jump_from(app, view, m, NULL);
}

void
app_select(struct app *app, uint32_t m)
{
	selection_moved(app, selection_set_method(&app->sel, m, app->view));
}

void
app_select_path(struct app *app, const uint32_t *path, size_t n)
{
	selection_moved(app, selection_set_path(&app->sel, path, n, app->view));
}

void
app_select_call(struct app *app, uint32_t t, uint32_t c)
{
	selection_moved(
	        app, selection_set_call(&app->sel, app->tree, t, c, app->view));
}

static void
history_move(struct app *app, struct app_history *from, struct app_history *to,
             const char *what)
{
	if (!from->count) {
		app_message(app, false, "nothing %s in the history", what);
		return;
	}
	history_push(to, here(app));
	go_to(app, from->places[--from->count]);
}

static void
switch_view(struct app *app, enum app_view view)
{
	if (view == app->view)
		return;
	if (!view_ready(app, view, CALL_NONE))
		return;
	app->pending_view = APP_VIEW_COUNT;
	history_push(&app->back, here(app));
	app->forward.count = 0;
	app->view = view;
	/* The view shows the selection as it can; showing a view never
	 * changes it (a view of frames or threads has no row for it). */
	if (app->reselect[view]) {
		app->reselect[view] = false;
		if (view_ops[view]->refresh)
			view_ops[view]->refresh(app->state[view], app);
	}
}

static void
cycle_clock(struct app *app)
{
	const struct calltree *tree = app->tree;

	if (!tree->has_clock[CLOCK_CPU] || !tree->has_clock[CLOCK_WALL]) {
		app_message(app, false, "this trace has only the %s clock",
		            tree->has_clock[CLOCK_CPU] ? "thread-cpu" : "wall");
		return;
	}
	app->clocks = (app->clocks + 1) % 3;
	refresh_views(app);
}

/* The sample type loaded (pprof) or event type (simpleperf) as an
 * index from 0 into *i, and into *n the choices --sample-type cycles
 * through: the types, and for a simpleperf recording of several "all"
 * too (index N), from its property "I of N" (I from 1, or "all");
 * false when the trace has none. */
static bool
type_index(const struct app *app, unsigned long *i, unsigned long *n)
{
	bool simpleperf = app->tree->header.format == TRACE_FORMAT_SIMPLEPERF;
	const char *at =
	        simpleperf ? calltree_property(app->tree,
	                                       "simpleperf-event-type-index")
	                   : calltree_property(app->tree,
	                                       "pprof-sample-type-index");

	if ((app->tree->header.format != TRACE_FORMAT_PPROF && !simpleperf) ||
	    !at)
		return false;
	if (sscanf(at, "%lu of %lu", i, n) == 2 && *i >= 1 && *i <= *n)
		--*i;
	else if (sscanf(at, "all of %lu", n) == 1)
		*i = *n > 1 ? *n : 0; /* all of one type is that type */
	else
		return false;
	if (simpleperf && *n > 1)
		++*n;
	return true;
}

/* Ask the viewer to reload a simpleperf recording with Java frames
 * only, or with every frame again. */
static void
toggle_java_only(struct app *app)
{
	unsigned long i, n;

	if (app->tree->header.format != TRACE_FORMAT_SIMPLEPERF ||
	    !type_index(app, &i, &n)) {
		app_message(
		        app, false,
		        "only simpleperf recordings tell Java frames apart");
		return;
	}
	app->java_only = !app->java_only;
	app->sample_type_wanted = (long)i;
	app->quit = true;
}

/* Ask the viewer to reload a pprof profile on its next sample type. */
static void
cycle_sample_type(struct app *app)
{
	unsigned long i, n;

	if (!type_index(app, &i, &n)) {
		app_message(
		        app, false,
		        "only pprof profiles and simpleperf recordings have "
		        "sample types");
		return;
	}
	if (n < 2) {
		app_message(app, false, "this profile has one sample type");
		return;
	}
	app->sample_type_wanted = (long)((i + 1) % n);
	app->quit = true;
}

/* The view step views on (Tab: 1, S-Tab: APP_VIEW_COUNT - 1), past
 * those waiting for the calls, which the status line says are. */
static void
cycle_view(struct app *app, int step)
{
	enum app_view v = (app->view + step) % APP_VIEW_COUNT;
	bool skipped = false;

	while (!app->state[v]) {
		v = (v + step) % APP_VIEW_COUNT;
		skipped = true;
	}
	switch_view(app, v);
	if (skipped)
		app_has_calls(app);
}

/* A question for the current view, with how things are now. */
static void
ask_init(const struct app *app, struct view_ask *ask)
{
	memset(ask, 0, sizeof(*ask));
	ask->method = app->sel.method;
	ask->jump = APP_VIEW_COUNT;
}

/* Select call c of thread t and show it in view: the call chart zoomed
 * to it, or the call tree on its path (the Frames and Calls views'
 * Enter). */
static void
open_call(struct app *app, enum app_view view, uint32_t t, uint32_t c,
          const struct time_range *was)
{
	enum app_view list = app->view;

	app_select_call(app, t, c);
	jump_from(app, view, app->sel.method, was);
	if (app->view != list) {
		app->opened_from_list = app->view;
		app->list_return = app->back.count;
	}
	if (app->view == APP_VIEW_TIMELINE)
		app_request(app, REQ_ZOOM_CALL);
}

/* Drop the calls the Calls view listed instead of the selection's. */
static void
call_set_drop(struct app *app)
{
	free(app->call_set.calls);
	free(app->call_set.title);
	app->call_set.calls = NULL;
	app->call_set.title = NULL;
	app->call_set.count = 0;
	app->call_set.tree = NULL;
	app->call_set.serial++;
}

/* The calls ask hands over, into the Calls view: shown there, the
 * place left in the history. */
static void
show_call_set(struct app *app, struct view_ask *ask,
              const struct time_range *was)
{
	call_set_drop(app);
	app->call_set.tree = app->tree;
	app->call_set.calls = ask->calls;
	app->call_set.count = ask->ncalls;
	app->call_set.thread = ask->calls_thread;
	app->call_set.title = ask->calls_title;
	ask->calls = NULL;
	ask->calls_title = NULL;
	if (app->view == APP_VIEW_CALLS) {
		refresh_views(app);
		return;
	}
	if (!view_ready(app, APP_VIEW_CALLS, app->sel.method))
		return;
	app->pending_view = APP_VIEW_COUNT;
	history_push(&app->back, here(app));
	if (was)
		app->back.places[app->back.count - 1].range = *was;
	app->forward.count = 0;
	app->view = APP_VIEW_CALLS;
	/* Esc goes back to the findings as they were. */
	app->opened_from_list = APP_VIEW_CALLS;
	app->list_return = app->back.count;
	if (view_ops[APP_VIEW_CALLS]->refresh)
		view_ops[APP_VIEW_CALLS]->refresh(app->state[APP_VIEW_CALLS],
		                                  app);
	app->reselect[APP_VIEW_CALLS] = false;
}

/* Apply what the current view asked for, then take its selection where
 * it made one (take). */
static void
apply_ask(struct app *app, struct view_ask *ask, bool take)
{
	enum app_view from = app->view;
	struct time_range was = app->scope.range; /* the place's, left */

	if (ask->calls || ask->calls_title) {
		show_call_set(app, ask, &was);
		free(ask->calls);
		free(ask->calls_title);
		if (ask->message[0])
			app_message(app, false, "%s", ask->message);
		return;
	}
	if (ask->set_scope)
		app_set_scope(app, &ask->scope);
	if (ask->set_range)
		app_set_range(app, &ask->range);
	if (ask->open_call && ask->jump != APP_VIEW_COUNT)
		open_call(app, ask->jump, ask->call_thread, ask->call, &was);
	else if (ask->jump != APP_VIEW_COUNT)
		jump_from(app, ask->jump, ask->method, &was);
	else if (app->view == from && take)
		take_selection(app, from);
	if (ask->message[0])
		app_message(app, false, "%s", ask->message);
}

/* The selection's status with where the match is among all matches:
 * "NAME  [3/17]". */
static void
say_match(struct app *app, const struct view_ask *ask)
{
	const struct view_ops *ops = view_ops[app->view];
	char *status =
	        ops->status ? ops->status(app->state[app->view], app) : NULL;

	app_message(app, false, "%s%s[%zu/%zu]", status ? status : "",
	            status ? "  " : "", ask->match, ask->matches);
	free(status);
}

static void
run_search(struct app *app, int dir)
{
	const struct view_ops *ops = view_ops[app->view];
	struct view_ask ask;
	bool found;

	if (!app->have_re) {
		app_message(app, false, "no search yet: press / first");
		return;
	}
	if (!ops->search && !ops->find) {
		app_message(app, false, "this view has nothing to search");
		return;
	}
	if (ops->find) {
		if (ops->ready)
			ops->ready(app->state[app->view], app);
		ask_init(app, &ask);
		found = ops->find(app->state[app->view], app, &app->re, dir,
		                  &ask);
		apply_ask(app, &ask, true);
		if (found && ask.match && !ask.message[0])
			say_match(app, &ask);
	} else {
		found = ops->search(app->state[app->view], app, &app->re, dir);
	}
	if (!found)
		app_message(app, false, "no match");
}

void
app_search(struct app *app, const char *pattern)
{
	char msg[256];
	regex_t re;
	int rc;

	rc = list_regcomp(&re, pattern, msg, sizeof(msg));
	if (rc) {
		app_message(app, true, "bad regular expression: %s", msg);
		return;
	}
	if (app->have_re)
		regfree(&app->re);
	app->re = re;
	app->have_re = true;
	app->search_serial++;
	run_search(app, 1);
}

void
app_filter(struct app *app, const char *pattern)
{
	const struct view_ops *ops = view_ops[app->view];
	enum app_view v = app->view;
	char msg[256];
	regex_t re;
	size_t shown;
	int rc;

	if (!ops->filter) {
		app_message(app, false, "this view has no rows to filter");
		return;
	}
	if (!*pattern) {
		if (app->filter_text[v]) {
			ops->filter(app->state[v], app, NULL);
			regfree(&app->filter_re[v]);
			free(app->filter_text[v]);
			app->filter_text[v] = NULL;
			take_selection(app, v);
			app_message(app, false, "filter cleared: every row");
		}
		return;
	}
	rc = list_regcomp(&re, pattern, msg, sizeof(msg));
	if (rc) {
		app_message(app, true, "bad regular expression: %s", msg);
		return;
	}
	if (app->filter_text[v]) {
		regfree(&app->filter_re[v]);
		free(app->filter_text[v]);
	}
	app->filter_re[v] = re;
	app->filter_text[v] = xstrdup(pattern);
	shown = ops->filter(app->state[v], app, &app->filter_re[v]);
	take_selection(app, v);
	app_message(app, false, "%zu row%s match%s %s (Esc: every row)", shown,
	            shown == 1 ? "" : "s", shown == 1 ? "es" : "", pattern);
}

char *
app_method_name(const struct app *app, uint32_t m)
{
	return method_names_get(app->names, m, app->full_names);
}

void
app_take_history(struct app *app, struct app *other)
{
	size_t i;

	for (i = 0; i < app->nhistory; i++)
		free(app->history[i]);
	free(app->history);
	app->history = other->history;
	app->nhistory = other->nhistory;
	app->history_cap = other->history_cap;
	other->history = NULL;
	other->nhistory = other->history_cap = 0;
}

/* Remember pattern as the newest in the prompt history (an earlier
 * copy leaves its place; the oldest go past 100). */
static void
history_add(struct app *app, const char *pattern)
{
	size_t i;

	for (i = 0; i < app->nhistory; i++) {
		if (strcmp(app->history[i], pattern) == 0) {
			free(app->history[i]);
			memmove(&app->history[i], &app->history[i + 1],
			        (app->nhistory - i - 1) *
			                sizeof(*app->history));
			app->nhistory--;
			break;
		}
	}
	if (app->nhistory == 100) {
		free(app->history[0]);
		memmove(&app->history[0], &app->history[1],
		        (app->nhistory - 1) * sizeof(*app->history));
		app->nhistory--;
	}
	UTIL_GROW(app->history, app->history_cap, app->nhistory + 1);
	app->history[app->nhistory++] = xstrdup(pattern);
}

/* Start reading a line for req (REQ_SEARCH or REQ_FILTER: a pattern,
 * REQ_WRITE_VIEW: a file name), starting from text. */
static void
prompt_start(struct app *app, enum request req, const char *text)
{
	app->prompting = true;
	app->prompt_for = req;
	app->prompt_len = strlen(text);
	UTIL_GROW(app->prompt, app->prompt_cap, app->prompt_len + 1);
	memcpy(app->prompt, text, app->prompt_len + 1);
	app->history_at = app->nhistory;
	free(app->draft);
	app->draft = NULL;
}

/* Show text in the prompt, to be edited. */
static void
prompt_set(struct app *app, const char *text)
{
	size_t n = strlen(text);

	UTIL_GROW(app->prompt, app->prompt_cap, n + 1);
	memcpy(app->prompt, text, n + 1);
	app->prompt_len = n;
}

/* Up (dir -1) or Down (1) through the history in the prompt. */
static void
prompt_recall(struct app *app, int dir)
{
	if (app->prompt_for == REQ_WRITE_VIEW)
		return; /* the history holds patterns, not file names */
	if (dir < 0) {
		if (!app->history_at)
			return;
		if (app->history_at == app->nhistory) {
			free(app->draft);
			app->draft = xstrdup(app->prompt);
		}
		prompt_set(app, app->history[--app->history_at]);
	} else {
		if (app->history_at >= app->nhistory)
			return;
		app->history_at++;
		prompt_set(app, app->history_at < app->nhistory
		                        ? app->history[app->history_at]
		                : app->draft ? app->draft
		                             : "");
	}
}

/*
 * A file to write path's new contents into: a temporary file beside it
 * (*tmp its name, to rename over path once written), so a failed write
 * leaves path as it was; path itself when it exists and is no regular
 * file (a FIFO, /dev/stdout).  The new file gets path's mode, or
 * 0666 less the umask.  NULL with errno set.
 */
static FILE *
open_beside(const char *path, char **tmp)
{
	struct stat st;
	mode_t mode, mask;
	bool exists;
	FILE *f;
	int fd;

	*tmp = NULL;
	exists = stat(path, &st) == 0;
	if (exists && !S_ISREG(st.st_mode))
		return fopen(path, "w");
	if (exists) {
		mode = st.st_mode & 07777;
	} else {
		mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	*tmp = xasprintf("%s.XXXXXX", path);
	fd = mkstemp(*tmp);
	if (fd < 0) {
		free(*tmp);
		*tmp = NULL;
		return NULL;
	}
	if (fchmod(fd, mode) != 0 || !(f = fdopen(fd, "w"))) {
		int e = errno;

		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		errno = e;
		return NULL;
	}
	return f;
}

bool
app_write_view(struct app *app, const char *path)
{
	const struct view_ops *ops = view_ops[app->view];
	void *state = app->state[app->view];
	struct table *t = NULL;
	size_t len = strlen(path), n = 0;
	bool tsv = len > 4 && strcmp(path + len - 4, ".tsv") == 0;
	enum table_format format = tsv ? TABLE_TSV : TABLE_TEXT;
	FILE *f;
	char *tmp;
	int err = 0;

	if (!ops->write && !(t = ops->rows ? ops->rows(state, app) : NULL)) {
		app_message(app, true, "this view has no rows to write");
		return false;
	}
	errno = 0;
	f = open_beside(path, &tmp);
	if (!f) {
		err = errno;
	} else {
		if (ops->write) {
			n = ops->write(state, app, f, format);
		} else {
			table_print(t, f, format);
			n = table_nrows(t);
		}
		if (fflush(f) != 0 || ferror(f))
			err = errno ? errno : EIO;
		if (fclose(f) != 0 && !err)
			err = errno;
		/* Written whole, or path untouched. */
		if (tmp && !err && rename(tmp, path) != 0)
			err = errno;
		if (tmp && err)
			unlink(tmp);
		free(tmp);
	}
	table_free(t);
	if (err) {
		app_message(app, true, "cannot write %s: %s", path,
		            strerror(err));
		return false;
	}
	app_message(app, false, "wrote %zu row%s to %s", n, n == 1 ? "" : "s",
	            path);
	return true;
}

void
app_open_source(struct app *app)
{
	const struct tt_method *m;
	char why[512], *path, **argv;
	int rc;

	if (app->sel.method == CALL_NONE) {
		app_message(app, false, "select a method first");
		return;
	}
	m = &app->tree->methods[app->sel.method];
	path = source_find(app->source_dirs, app->nsource_dirs, m, why,
	                   sizeof(why));
	if (!path) {
		app_message(app, true, "%s", why);
		return;
	}
	argv = source_editor_argv(path, m->line);
	if (!app->run_editor) {
		char at[32] = "";

		if (m->line >= 1)
			snprintf(at, sizeof(at), ":%ld", m->line);
		app_message(app, false, "no terminal for %s: %s%s", argv[0],
		            path, at);
	} else {
		rc = app->run_editor(argv);
		if (rc < 0)
			app_message(app, true, "cannot run %s: %s", argv[0],
			            strerror(errno));
		else if (rc)
			app_message(app, true, "%s exited with status %d on %s",
			            argv[0], rc, path);
		else
			app_message(app, false, "%s: back from %s", path,
			            argv[0]);
	}
	source_argv_free(argv);
	free(path);
}

/* The kind of the last transform applied, or -1. */
static int
last_transform(const struct app *app)
{
	return app->ntransforms
	               ? (int)app->transforms[app->ntransforms - 1].kind
	               : -1;
}

/* Whether the app answers req by showing another view or place. */
static bool
leaves_view(enum request req)
{
	int v;

	for (v = 0; v < APP_VIEW_COUNT; v++)
		if (req == view_request[v])
			return true;
	return req == REQ_VIEW_NEXT || req == REQ_VIEW_PREV ||
	       req == REQ_BACK_OUT || req == REQ_HISTORY_BACK ||
	       req == REQ_HISTORY_FORWARD;
}

void
app_request(struct app *app, enum request req)
{
	const struct view_ops *ops = view_ops[app->view];
	enum view_result done;
	struct view_ask ask;
	int v;

	/* Esc clears a filter before it goes back out. */
	if (req == REQ_BACK_OUT && app->filter_text[app->view]) {
		app_filter(app, "");
		return;
	}
	/* Out of what a list's row opened: back to the list as it was. */
	if (req == REQ_BACK_OUT && app->list_return &&
	    app->view == app->opened_from_list &&
	    app->back.count == app->list_return) {
		app->list_return = 0;
		history_move(app, &app->back, &app->forward, "back");
		return;
	}
	if (ops->handle) {
		if (ops->ready)
			ops->ready(app->state[app->view], app);
		ask_init(app, &ask);
		done = ops->handle(app->state[app->view], app, req, &ask);
		/* Leaving the view (Tab, a view's key, Esc) makes its row
		 * no choice: passing through never selects. */
		apply_ask(app, &ask,
		          done != VIEW_UNHANDLED || !leaves_view(req));
	} else {
		done = ops->request(app->state[app->view], app, req);
	}
	if (done == VIEW_DONE)
		return;
	for (v = 0; v < APP_VIEW_COUNT; v++) {
		if (req == view_request[v]) {
			/* The Calls view's key: the selected method's calls,
			 * not a finding's. */
			if (v == APP_VIEW_CALLS && app->call_set.tree) {
				call_set_drop(app);
				if (app->view == APP_VIEW_CALLS)
					refresh_views(app);
				else
					app->reselect[v] = true;
			}
			switch_view(app, (enum app_view)v);
			return;
		}
	}
	switch (req) {
	case REQ_VIEW_NEXT:
	case REQ_VIEW_PREV:
		cycle_view(app, req == REQ_VIEW_NEXT ? 1 : APP_VIEW_COUNT - 1);
		break;
	case REQ_RANGE_CLEAR:
		if (!app->scope.range.on) {
			app_message(app, false, "no range to clear");
			break;
		}
		app_set_range(app, NULL);
		app_message(app, false, "range cleared: the whole trace");
		break;
	case REQ_BACK_OUT:
		if (app->view != APP_VIEW_PROFILE)
			switch_view(app, APP_VIEW_PROFILE);
		break;
	case REQ_HISTORY_BACK:
		history_move(app, &app->back, &app->forward, "back");
		break;
	case REQ_HISTORY_FORWARD:
		history_move(app, &app->forward, &app->back, "forward");
		break;
	case REQ_CLOCK:
		cycle_clock(app);
		break;
	case REQ_JAVA_ONLY:
		toggle_java_only(app);
		break;
	case REQ_SAMPLE_TYPE:
		cycle_sample_type(app);
		break;
	case REQ_SEARCH:
		prompt_start(app, req, "");
		break;
	case REQ_FILTER:
		if (!ops->filter)
			app_message(app, false,
			            "this view has no rows to filter");
		else
			prompt_start(app, req, "");
		break;
	case REQ_COLUMNS:
		app->all_columns = !app->all_columns;
		app_message(app, false, "%s",
		            app->all_columns
		                    ? "every column that fits (m: the names' "
		                      "share first)"
		                    : "the names' share first (m: every column "
		                      "that fits)");
		break;
	case REQ_FULL_NAMES:
		app->full_names = !app->full_names;
		app_message(app, false, "%s",
		            app->full_names ? "full names (A: abbreviated)"
		                            : "abbreviated names: packages as "
		                              "initials (A: full)");
		break;
	case REQ_WRITE_VIEW: {
		/* The view's name as a file name: "tracetui-call-tree.txt". */
		char *name = xasprintf("tracetui-%s.txt", ops->name), *p;

		for (p = name; *p; p++)
			*p = *p == ' ' ? '-' : (char)tolower((unsigned char)*p);
		prompt_start(app, req, name);
		free(name);
		break;
	}
	case REQ_SEARCH_NEXT:
		run_search(app, 1);
		break;
	case REQ_OPEN_SOURCE:
		app_open_source(app);
		break;
	case REQ_SEARCH_PREV:
		run_search(app, -1);
		break;
	case REQ_QUIT:
		app->quit = true;
		break;
	case REQ_CALL_NEXT:
	case REQ_CALL_PREV:
	case REQ_CALL_LONGEST:
		/* The selected method's calls are the chart's: go there. */
		if (app->view == APP_VIEW_TIMELINE || !app_has_calls(app))
			break;
		switch_view(app, APP_VIEW_TIMELINE);
		if (app->view == APP_VIEW_TIMELINE)
			app_request(app, req);
		break;
	case REQ_TRANSFORM_FOCUS:
		app_transform(app, TRANSFORM_FOCUS_METHOD);
		break;
	case REQ_TRANSFORM_MERGE:
		app_transform(app, TRANSFORM_MERGE);
		break;
	case REQ_TRANSFORM_DROP:
		app_transform(app, TRANSFORM_DROP);
		break;
	case REQ_TRANSFORM_RECURSION:
		app_transform(app, TRANSFORM_COLLAPSE_RECURSION);
		break;
	case REQ_TRANSFORM_CLASS:
		app_transform(app, TRANSFORM_COLLAPSE_CLASS);
		break;
	case REQ_TRANSFORM_PACKAGE:
		app_transform(app, TRANSFORM_COLLAPSE_PACKAGE);
		break;
	case REQ_TRANSFORM_UNDO:
		step_transforms(app, -1);
		break;
	case REQ_TRANSFORM_REDO:
		step_transforms(app, 1);
		break;
	case REQ_TRANSFORM_GROUP:
		/* Again, on classes: group those by package. */
		app_transform(app, last_transform(app) == TRANSFORM_GROUP_CLASS
		                           ? TRANSFORM_GROUP_PACKAGE
		                           : TRANSFORM_GROUP_CLASS);
		break;
	default:
		break;
	}
}

/* Append the UTF-8 encoding of key to the prompt. */
static void
prompt_add(struct app *app, int key)
{
	char buf[4];
	size_t n;

	if (key < 0x80) {
		buf[0] = (char)key;
		n = 1;
	} else if (key < 0x800) {
		buf[0] = (char)(0xC0 | key >> 6);
		buf[1] = (char)(0x80 | (key & 0x3F));
		n = 2;
	} else if (key < 0x10000) {
		buf[0] = (char)(0xE0 | key >> 12);
		buf[1] = (char)(0x80 | (key >> 6 & 0x3F));
		buf[2] = (char)(0x80 | (key & 0x3F));
		n = 3;
	} else {
		buf[0] = (char)(0xF0 | key >> 18);
		buf[1] = (char)(0x80 | (key >> 12 & 0x3F));
		buf[2] = (char)(0x80 | (key >> 6 & 0x3F));
		buf[3] = (char)(0x80 | (key & 0x3F));
		n = 4;
	}
	UTIL_GROW(app->prompt, app->prompt_cap, app->prompt_len + n + 1);
	memcpy(app->prompt + app->prompt_len, buf, n);
	app->prompt_len += n;
	app->prompt[app->prompt_len] = '\0';
}

static void
prompt_key(struct app *app, int key)
{
	if (key == TKEY_ESC || key == 7 /* C-g */) {
		app->prompting = false;
	} else if (key == TKEY_ENTER || key == '\n') {
		app->prompting = false;
		if (app->prompt_for == REQ_WRITE_VIEW) {
			if (app->prompt_len)
				app_write_view(app, app->prompt);
		} else {
			if (app->prompt_len)
				history_add(app, app->prompt);
			if (app->prompt_for == REQ_FILTER)
				app_filter(app, app->prompt);
			else if (app->prompt_len)
				app_search(app, app->prompt);
		}
	} else if (key == TKEY_UP || key == TKEY_DOWN) {
		prompt_recall(app, key == TKEY_UP ? -1 : 1);
	} else if (key == 21 /* C-u */) {
		app->prompt_len = 0;
		app->prompt[0] = '\0';
	} else if (key == TKEY_BACKSPACE || key == 127 || key == 8) {
		while (app->prompt_len &&
		       (app->prompt[app->prompt_len - 1] & 0xC0) == 0x80)
			app->prompt_len--;
		if (app->prompt_len)
			app->prompt_len--;
		app->prompt[app->prompt_len] = '\0';
	} else if (key >= ' ' && key < TKEY_BASE && key != 127) {
		prompt_add(app, key);
	}
}

void
app_key(struct app *app, int key)
{
	enum request req;

	/* A resize is no answer to a message: it stays, as in the heap
	 * viewer. */
	if (key == TKEY_RESIZE)
		return;
	free(app->message);
	app->message = NULL;
	if (app->prompting) {
		prompt_key(app, key);
		return;
	}
	req = keymap_lookup(key);
	if (req == REQ_NONE) {
		app_message(app, false, "unbound key: press ? for help");
		return;
	}
	app_request(app, req);
}

/* True when press ev is the second of a double click whose first press
 * acted as Enter; notes the press either way. */
static bool
second_of_double(struct app *app, const struct mouse_event *ev)
{
	bool twice = app->clicked && app->click_acted &&
	             ev->ms - app->click_ms <= MOUSE_DOUBLE_MS &&
	             ev->x == app->click_x && ev->y == app->click_y;

	app->clicked = true;
	app->click_ms = ev->ms;
	app->click_x = ev->x;
	app->click_y = ev->y;
	return twice;
}

void
app_mouse(struct app *app, const struct mouse_event *ev)
{
	const struct view_ops *ops = view_ops[app->view];
	bool starts = ev->kind == MOUSE_PRESS || ev->kind == MOUSE_WHEEL;
	struct view_ask ask;
	enum view_result r;

	if (app->prompting || !ops->mouse || !app->page)
		return;
	/* Presses and wheels count in the view's rows only; drags and
	 * releases go on to the view that had the press. */
	if (starts && (ev->y < 1 || ev->y > app->page))
		return;
	if (ev->kind == MOUSE_PRESS && ev->button == 0 &&
	    second_of_double(app, ev))
		return;
	if (starts) {
		free(app->message);
		app->message = NULL;
	}
	ask_init(app, &ask);
	r = ops->mouse(app->state[app->view], app, ev, &ask);
	apply_ask(app, &ask, true);
	if (ev->kind == MOUSE_PRESS && ev->button == 0)
		app->click_acted = r == VIEW_AGAIN;
	if (r == VIEW_AGAIN)
		app_request(app, REQ_ENTER);
}

/* ---- transforms ------------------------------------------------------ */

/*
 * The models shown before (and, after undo, after) the one shown are
 * kept, so that undo, redo and the history show them again without a
 * transform: the KEPT_WHOLE nearest the one shown with everything built
 * on them (struct app_kept: views, indexes, selection), the others as
 * bare models.  A whole one is counted at KEPT_WHOLE_BYTES a call (the
 * model's 13 and its indexes'), a bare one at KEPT_BARE_BYTES; while
 * they add up to more than KEPT_BYTES, the one farthest from the model
 * shown loses its indexes, then its model.  The model as loaded is
 * always kept.  A model not kept is made again from the nearest one kept
 * below it.
 */
enum {
	KEPT_WHOLE = 4,
	KEPT_WHOLE_BYTES = 48,
	KEPT_BARE_BYTES = 16,
};
#define KEPT_BYTES ((size_t)512 << 20)

/* A transform (or an undo or redo whose model must be made) asked for
 * while keys wait to be read: applied once they stop, dropped when a
 * newer one comes first. */
struct app_pending {
	bool push;              /* x on top of the model shown */
	struct app_transform x; /* push: taken over */
	/* push of a merge: what to select once it applies, the call path
	 * without the merged method (its caller last), else the caller */
	bool merge;
	uint32_t *rest;
	size_t nrest;
	uint32_t caller;
	/* not push: show the model with n transforms; dir is -1 (undo),
	 * 1 (redo) */
	size_t n;
	int dir;
};

static void
transform_free(struct app_transform *x)
{
	free(x->methods);
	free(x->path);
	free(x->label);
}

/* Drop p, superseded or cancelled. */
static void
pending_free(struct app_pending *p)
{
	if (!p)
		return;
	if (p->push)
		transform_free(&p->x);
	free(p->rest);
	free(p);
}

/* Whether a key waits: what keys leave pending then waits, and what is
 * being made for it stops. */
static bool
keys_waiting(void *arg)
{
	struct app *app = arg;

	return app->key_waiting && app->key_waiting();
}

/* Whether k holds a model with what was built on it. */
static bool
kept_whole(const struct app_kept *k)
{
	return k->tree && k->cache;
}

/* Release what k holds, but its model when keep_tree. */
static void
kept_release(struct app *app, struct app_kept *k, bool keep_tree)
{
	struct calltree *tree = k->tree;
	size_t t;
	int v;

	warmup_stop(k->warmup);
	warmup_free(k->warmup);
	for (v = 0; v < APP_VIEW_COUNT; v++)
		if (k->state[v])
			view_ops[v]->close(k->state[v]);
	profile_cache_free(k->cache);
	profile_index_free(k->index);
	if (k->thread_paths)
		for (t = 0; t < tree->nthreads; t++)
			callpath_done(&k->thread_paths[t]);
	free(k->thread_paths);
	free(k->thread_built);
	method_names_free(k->names);
	if (k->cache)
		selection_done(&k->sel);
	memset(k, 0, sizeof(*k));
	if (keep_tree)
		k->tree = tree;
	else if (tree != app->original)
		calltree_free(tree);
}

/* Move the model shown and everything built on it into k; the app
 * shows nothing until show_tree or bring_back.  Its warmup stops. */
static void
put_aside(struct app *app, struct app_kept *k)
{
	warmup_stop(app->warmup);
	k->tree = app->tree;
	k->names = app->names;
	k->cache = app->cache;
	k->index = app->index;
	k->warmup = app->warmup;
	k->thread_paths = app->thread_paths;
	k->thread_built = app->thread_built;
	memcpy(k->state, app->state, sizeof(k->state));
	/* Undo and redo give the selection back with the views. */
	k->sel = app->sel;
	k->sel.path = xmalloc((app->sel.npath + 1) * sizeof(*k->sel.path));
	if (app->sel.npath)
		memcpy(k->sel.path, app->sel.path,
		       app->sel.npath * sizeof(*k->sel.path));
	k->sel.path_cap = app->sel.npath + 1;
	profile_done(&app->profile);
	app->tree = NULL;
	app->names = NULL;
	app->cache = NULL;
	app->index = NULL;
	app->warmup = NULL;
	app->thread_paths = NULL;
	app->thread_built = NULL;
	memset(app->state, 0, sizeof(app->state));
}

/* What the app keeps of its selection and base on a model it now
 * shows: the method, not its call (another model numbers them anew). */
static void
follow_tree(struct app *app)
{
	struct calltree *tree = app->tree;

	selection_forget_calls(&app->sel);
	if (app->sel.method != CALL_NONE && app->sel.method >= tree->nmethods)
		selection_set_method(&app->sel, CALL_NONE, -1);
	if (app->base)
		base_compare_rekey(app->base, tree);
}

/* Each view's filter, as the app has it now, on its state. */
static void
refilter(struct app *app)
{
	int v;

	for (v = 0; v < APP_VIEW_COUNT; v++)
		if (view_ops[v]->filter && app->state[v])
			view_ops[v]->filter(app->state[v], app,
			                    app->filter_text[v]
			                            ? &app->filter_re[v]
			                            : NULL);
}

/* Show tree (taken over) with nothing built on it: every view, profile
 * and index made for it, the scope, range, selection and base kept. */
static void
show_tree(struct app *app, struct calltree *tree)
{
	int v;

	app->tree = tree;
	follow_tree(app);
	app->names = method_names_new(tree);
	app->cache = profile_cache_new(tree);
	profile_from_cache(&app->profile, app->cache, tree, &app->scope);
	app->warmup =
	        warmup_start(tree, calltree_default_range_clock(tree), NULL);
	for (v = 0; v < APP_VIEW_COUNT; v++)
		app->state[v] = view_ops[v]->open(app);
	if (app->scope.range.on)
		recompute(app);
	for (v = 0; v < APP_VIEW_COUNT; v++)
		if (app->filter_text[v])
			view_ops[v]->filter(app->state[v], app,
			                    &app->filter_re[v]);
}

/* Whether every thread's call paths are built. */
static bool
paths_all_built(const struct app *app)
{
	size_t t;

	if (!app->thread_paths)
		return false;
	for (t = 0; t < app->tree->nthreads; t++)
		if (!app->thread_built[t])
			return false;
	return true;
}

/* Show kept model k again (taken over), as it was left, with the
 * selection it had; the scope, clock and filters are the app's now.  A
 * warmup stopped early starts again for what its views have not
 * taken. */
static void
bring_back(struct app *app, struct app_kept *k)
{
	if (!kept_whole(k)) {
		show_tree(app, k->tree);
		memset(k, 0, sizeof(*k));
		return;
	}
	app->tree = k->tree;
	app->names = k->names;
	app->cache = k->cache;
	app->index = k->index;
	app->warmup = k->warmup;
	app->thread_paths = k->thread_paths;
	app->thread_built = k->thread_built;
	memcpy(app->state, k->state, sizeof(app->state));
	selection_done(&app->sel);
	app->sel = k->sel;
	memset(k, 0, sizeof(*k));
	if (warmup_cut_short(app->warmup)) {
		warmup_free(app->warmup);
		app->warmup = warmup_start(
		        app->tree, calltree_default_range_clock(app->tree),
		        paths_all_built(app) ? app->thread_paths : NULL);
	}
	if (app->base)
		base_compare_rekey(app->base, app->tree);
	refilter(app);
	recompute(app);
}

/* The kept models within KEPT_WHOLE and KEPT_BYTES: the farthest from
 * the one shown go first. */
static void
keep_within_budget(struct app *app)
{
	for (;;) {
		size_t i, whole = 0, bytes = 0, far = SIZE_MAX, far_by = 0;
		bool strip;

		for (i = 0; i <= app->nkept; i++) {
			const struct app_kept *k = &app->kept[i];

			if (i == app->ntransforms || !k->tree)
				continue;
			whole += kept_whole(k);
			bytes += calltree_call_count(k->tree) *
			         (kept_whole(k) ? KEPT_WHOLE_BYTES
			                        : KEPT_BARE_BYTES);
		}
		strip = whole > KEPT_WHOLE;
		if (!strip && bytes <= KEPT_BYTES)
			return;
		for (i = 0; i <= app->nkept; i++) {
			const struct app_kept *k = &app->kept[i];
			size_t by = i > app->ntransforms ? i - app->ntransforms
			                                 : app->ntransforms - i;

			if (i == app->ntransforms || !k->tree ||
			    (strip && !kept_whole(k)) ||
			    (i == 0 && !kept_whole(k)))
				continue;
			if (far == SIZE_MAX || by > far_by) {
				far = i;
				far_by = by;
			}
		}
		if (far == SIZE_MAX)
			return;
		/* Its indexes first; the model as loaded stays. */
		kept_release(app, &app->kept[far],
		             far == 0 || kept_whole(&app->kept[far]));
	}
}

/* Room in the kept models for n transforms. */
static void
kept_grow(struct app *app, size_t n)
{
	size_t was = app->kept_cap;

	if (n + 1 <= was)
		return;
	UTIL_GROW(app->kept, app->kept_cap, n + 1);
	memset(app->kept + was, 0, (app->kept_cap - was) * sizeof(*app->kept));
}

/* Transform x applied to tree: a new model, or NULL when a key came
 * first. */
static struct calltree *
apply_one(struct app *app, const struct calltree *tree,
          const struct app_transform *x, bool stoppable)
{
	struct transform t = {.kind = x->kind,
	                      .methods = x->methods,
	                      .path = x->path,
	                      .npath = x->npath};

	return transform_apply_until(tree, &t, stoppable ? keys_waiting : NULL,
	                             app);
}

/* Say through notice what is being made, before it is. */
static void
notice_making(struct app *app, const char *what, const char *label)
{
	char *text;

	if (!app->notice)
		return;
	text = xasprintf("%s %s...", what, label);
	app->notice(text);
	free(text);
}

/* Show the model with the first n transforms applied: the one kept, or
 * one made from the nearest kept below it; false, nothing changed, when
 * a key came first and stoppable says to give way to it. */
static bool
set_transforms(struct app *app, size_t n, bool stoppable)
{
	struct calltree *tree;
	size_t i, from;

	if (n == app->ntransforms || n > app->nkept)
		return true;
	kept_grow(app, app->nkept);
	if (app->kept[n].tree) {
		struct app_kept k = app->kept[n];

		memset(&app->kept[n], 0, sizeof(app->kept[n]));
		put_aside(app, &app->kept[app->ntransforms]);
		bring_back(app, &k);
		app->ntransforms = n;
		keep_within_budget(app);
		return true;
	}
	for (from = n; from > 0; from--)
		if (from - 1 == app->ntransforms || app->kept[from - 1].tree)
			break;
	from = from ? from - 1 : 0;
	tree = from == app->ntransforms ? app->tree : app->kept[from].tree;
	notice_making(app, "Applying", app->transforms[n - 1].label);
	for (i = from; i < n; i++) {
		struct calltree *next =
		        apply_one(app, tree, &app->transforms[i], stoppable);

		if (i > from)
			calltree_free(tree);
		if (!next)
			return false;
		tree = next;
	}
	put_aside(app, &app->kept[app->ntransforms]);
	show_tree(app, tree);
	app->ntransforms = n;
	keep_within_budget(app);
	return true;
}

/* The length of the part of class k that names its class (all of it)
 * or its package (up to its last '.' or '/'). */
static size_t
group_len(const char *k, bool package)
{
	const char *dot = strrchr(k, '.'), *slash = strrchr(k, '/');
	const char *sep = dot > slash ? dot : slash;

	return !package ? strlen(k) : sep ? (size_t)(sep - k) : 0;
}

/* The methods of tree in the class (or package) of method m. */
static bool *
same_group(const struct calltree *tree, uint32_t m, bool package)
{
	bool *sel = xcalloc(tree->nmethods + 1, sizeof(*sel));
	const char *k = tree->methods[m].klass;
	size_t len = group_len(k, package), i;

	for (i = 0; i < tree->nmethods; i++) {
		const char *o = tree->methods[i].klass;

		sel[i] = group_len(o, package) == len && !strncmp(o, k, len);
	}
	return sel;
}

static char *transforms_text(const struct app *app, bool short_form);

/* Ask for p (taken over): a transform, or a model to show again; it
 * takes the place of what was asked before and not yet done, and is
 * done at once unless keys wait (then app_settle does it). */
static void
ask(struct app *app, struct app_pending *p)
{
	pending_free(app->pending);
	app->pending = p;
	if (!keys_waiting(app))
		app_settle(app);
}

/* Merge or drop method m (x, taken over), and select its caller (where
 * a merged method's time went): the selected call path without m, its
 * caller last, else m's heaviest caller (none for a method only ever a
 * root). */
static void
transform_to_caller(struct app *app, struct app_transform *x, uint32_t m)
{
	const struct selection *sel = &app->sel;
	struct app_pending *p = xcalloc(1, sizeof(*p));
	size_t i;

	p->push = true;
	p->x = *x;
	p->merge = true;
	p->rest = xcalloc(sel->npath + 1, sizeof(*p->rest));
	if (sel->npath && sel->path[sel->npath - 1] == m)
		for (i = 0; i + 1 < sel->npath; i++)
			if (sel->path[i] != m)
				p->rest[p->nrest++] = sel->path[i];
	p->caller = p->nrest ? p->rest[p->nrest - 1] : CALL_NONE;
	if (!p->nrest) {
		struct profile_edges e;

		profile_edges_of(&e, &app->profile, m, app_main_clock(app));
		for (i = 0; i < e.nparents && p->caller == CALL_NONE; i++)
			if (e.parents[i].method != CALL_NONE &&
			    e.parents[i].method != m)
				p->caller = e.parents[i].method;
		profile_edges_done(&e);
	}
	ask(app, p);
}

/* Ask for transform x (taken over) on top of the model shown. */
static void
ask_push(struct app *app, struct app_transform *x)
{
	struct app_pending *p = xcalloc(1, sizeof(*p));

	p->push = true;
	p->x = *x;
	ask(app, p);
}

void
app_transform(struct app *app, enum transform_kind kind)
{
	static const char *const verbs[] = {
	        [TRANSFORM_FOCUS_SUBTREE] = "focus",
	        [TRANSFORM_FOCUS_METHOD] = "focus",
	        [TRANSFORM_MERGE] = "merge",
	        [TRANSFORM_DROP] = "drop",
	        [TRANSFORM_COLLAPSE_RECURSION] = "collapse recursion",
	        [TRANSFORM_COLLAPSE_CLASS] = "collapse class",
	        [TRANSFORM_COLLAPSE_PACKAGE] = "collapse package",
	        [TRANSFORM_GROUP_CLASS] = "group by class",
	        [TRANSFORM_GROUP_PACKAGE] = "group by package",
	};
	bool grouping = kind == TRANSFORM_GROUP_CLASS ||
	                kind == TRANSFORM_GROUP_PACKAGE;
	struct app_transform x = {.kind = kind};
	uint32_t m = app->sel.method;

	if (!app_has_calls(app))
		return;
	if (!grouping && m == CALL_NONE) {
		app_message(app, false, "select a method first");
		return;
	}
	if (kind == TRANSFORM_COLLAPSE_CLASS ||
	    kind == TRANSFORM_COLLAPSE_PACKAGE) {
		x.methods = same_group(app->tree, m,
		                       kind == TRANSFORM_COLLAPSE_PACKAGE);
		x.label = xasprintf("%s %s", verbs[kind],
		                    app->tree->methods[m].klass);
	} else if (!grouping) {
		char *name = method_short_name(&app->tree->methods[m]);

		x.methods =
		        xcalloc(app->tree->nmethods + 1, sizeof(*x.methods));
		x.methods[m] = true;
		x.label = xasprintf("%s %s", verbs[kind], name);
		free(name);
	} else
		x.label = xstrdup(verbs[kind]);
	if (kind != TRANSFORM_MERGE && kind != TRANSFORM_DROP) {
		ask_push(app, &x);
		return;
	}
	transform_to_caller(app, &x, m);
}

void
app_transform_path(struct app *app, uint32_t *path, size_t n)
{
	struct app_transform x = {
	        .kind = TRANSFORM_FOCUS_SUBTREE, .path = path, .npath = n};
	const struct tt_method *m;
	char *name;

	if (!n || !app_has_calls(app)) {
		if (!n)
			app_message(app, false, "select a frame first");
		free(path);
		return;
	}
	m = &app->tree->methods[path[n - 1]];
	name = method_short_name(m);
	x.label = xasprintf("focus %s%s", n > 1 ? "...;" : "", name);
	free(name);
	ask_push(app, &x);
}

/* How many calls tree holds. */
static size_t
count_calls(const struct calltree *tree)
{
	size_t t, n = 0;

	for (t = 0; t < tree->nthreads; t++)
		n += tree->threads[t].ncalls;
	return n;
}

/* Apply x (taken over), made into next, on top of the transforms
 * shown; false, saying why, when it would change nothing: every call
 * kept (a regrouping renames them, so it always changes something). */
static bool
push_transform(struct app *app, struct app_transform *xp, struct calltree *next)
{
	struct app_transform x = *xp;
	size_t i;

	/* Nothing left to show: refused, as the command line refuses it. */
	if (!count_calls(next) && count_calls(app->tree)) {
		app_message(app, false, "%s: %s; not applied", x.label,
		            x.kind == TRANSFORM_FOCUS_METHOD ||
		                            x.kind == TRANSFORM_FOCUS_SUBTREE
		                    ? "it matches no call"
		                    : "it would remove every call");
		calltree_free(next);
		transform_free(&x);
		return false;
	}
	if (x.kind != TRANSFORM_GROUP_CLASS &&
	    x.kind != TRANSFORM_GROUP_PACKAGE &&
	    count_calls(next) == count_calls(app->tree)) {
		app_message(app, false, "%s changes nothing: %s; not applied",
		            x.label,
		            x.kind == TRANSFORM_COLLAPSE_RECURSION
		                    ? "no recursion of it is left"
		            : x.kind == TRANSFORM_COLLAPSE_CLASS ||
		                            x.kind == TRANSFORM_COLLAPSE_PACKAGE
		                    ? "no frames of it are nested"
		            : x.kind == TRANSFORM_FOCUS_METHOD ||
		                            x.kind == TRANSFORM_FOCUS_SUBTREE
		                    ? "every call is inside it"
		                    : "no call of it is left");
		calltree_free(next);
		transform_free(&x);
		return false;
	}
	history_push(&app->back, here(app));
	app->forward.count = 0;
	/* What could be redone is gone. */
	kept_grow(app, app->ntransforms + 1);
	for (i = app->ntransforms + 1; i <= app->nkept; i++)
		kept_release(app, &app->kept[i], false);
	for (i = app->ntransforms; i < app->nkept; i++)
		transform_free(&app->transforms[i]);
	UTIL_GROW(app->transforms, app->transforms_cap, app->ntransforms + 1);
	app->transforms[app->ntransforms] = x;
	app->nkept = app->ntransforms + 1;
	if (!app->original)
		app->original = app->tree;
	put_aside(app, &app->kept[app->ntransforms]);
	show_tree(app, next);
	app->ntransforms++;
	keep_within_budget(app);
	if (app->ntransforms > 1) {
		/* The title counts them; here they are, in order. */
		char *list = transforms_text(app, false);

		app_message(app, false,
		            "%zu transforms: %s (U undoes the last)",
		            app->ntransforms, list);
		free(list);
	} else
		app_message(app, false, "%s (U undoes it)", x.label);
	return true;
}

/* Say that the model with n transforms shows, undone (dir -1) or
 * redone (1). */
static void
say_stepped(struct app *app, size_t n, int dir)
{
	app_message(app, false, "%s %s (%s)", dir < 0 ? "undid" : "redid",
	            app->transforms[dir < 0 ? n : n - 1].label,
	            dir < 0 ? "C-r redoes it" : "U undoes it");
}

/* Apply the transform p asks for, made into next (NULL: a key came
 * first), with what it selects. */
static void
settle_push(struct app *app, struct app_pending *p)
{
	char *label = xstrdup(p->x.label), *name;
	struct calltree *next;

	notice_making(app, "Applying", label);
	next = apply_one(app, app->tree, &p->x, true);
	if (!next) {
		free(label);
		return;
	}
	app->pending = NULL;
	if (push_transform(app, &p->x, next) && p->merge) {
		p->push = false; /* x is the app's */
		if (p->nrest)
			selection_set_path(&app->sel, p->rest, p->nrest, -1);
		else
			selection_set_method(&app->sel, p->caller, -1);
		refresh_views(app);
		if (p->caller != CALL_NONE) {
			name = app_method_name(app, p->caller);
			app_message(app, false,
			            "%s; its caller %s selected (U undoes it)",
			            label, name);
			free(name);
		}
	}
	p->push = false; /* x was taken over */
	pending_free(p);
	free(label);
}

void
app_settle(struct app *app)
{
	struct app_pending *p = app->pending;

	if (!p)
		return;
	if (p->push) {
		settle_push(app, p);
		return;
	}
	if (!set_transforms(app, p->n, true))
		return;
	app->pending = NULL;
	refresh_views(app);
	say_stepped(app, p->n, p->dir);
	pending_free(p);
}

bool
app_unsettled(const struct app *app)
{
	return app->pending != NULL;
}

/* Undo the last transform shown (dir -1: U) or redo the next one kept
 * (1: C-r), the view and its history left as they are.  A transform
 * still waiting is what U undoes: it is dropped. */
static void
step_transforms(struct app *app, int dir)
{
	struct app_pending *p = app->pending;
	size_t n = p && !p->push ? p->n : app->ntransforms;

	if (p && p->push && dir < 0) {
		app_message(app, false, "%s: not applied", p->x.label);
		pending_free(p);
		app->pending = NULL;
		return;
	}
	if (dir < 0 && !n) {
		app_message(app, false, "no transform to undo");
		return;
	}
	if (dir > 0 && n >= app->nkept) {
		app_message(app, false, "no transform to redo");
		return;
	}
	if (!app_has_calls(app))
		return;
	n = dir < 0 ? n - 1 : n + 1;
	pending_free(app->pending);
	app->pending = NULL;
	if (n == app->ntransforms || (app->kept && app->kept[n].tree)) {
		set_transforms(app, n, false);
		refresh_views(app);
		say_stepped(app, n, dir);
		return;
	}
	p = xcalloc(1, sizeof(*p));
	p->n = n;
	p->dir = dir;
	ask(app, p);
}

/* The last part of path, its file's name. */
static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

/* Transform t's label; a focus also says what it keeps of the model as
 * loaded, on the main clock ("focus T.a: 56.041 of 2992.313 ms"). */
static char *
transform_label(const struct app *app, size_t t)
{
	const struct app_transform *x = &app->transforms[t];
	char *name, *label, *text;

	if ((x->kind != TRANSFORM_FOCUS_SUBTREE &&
	     x->kind != TRANSFORM_FOCUS_METHOD) ||
	    !app->original)
		return xstrdup(x->label);
	/* The figures are the point: the name gives way, from the left. */
	name = method_cut_left(x->label + strlen("focus "), 32, "...");
	label = xasprintf("focus %s", name);
	text = transforms_focus_text(label, app->tree, app->original,
	                             &app->scope, app_main_clock(app), NULL,
	                             NULL);
	free(label);
	free(name);
	return text;
}

/* The transforms applied, in order ("merge T.a > drop T.b"), or how
 * many when short ("3 transforms"); NULL for none. */
static char *
transforms_text(const struct app *app, bool short_form)
{
	char *text = NULL;
	size_t t;

	if (!app->ntransforms)
		return NULL;
	if (short_form)
		return xasprintf("%zu transform%s", app->ntransforms,
		                 app->ntransforms == 1 ? "" : "s");
	for (t = 0; t < app->ntransforms; t++) {
		char *label = transform_label(app, t);
		char *more = xasprintf("%s%s%s", text ? text : "",
		                       text ? " > " : "", label);

		free(label);
		free(text);
		text = more;
	}
	return text;
}

char *
app_transforms_list(const struct app *app)
{
	return transforms_text(app, false);
}

/* The most forms a part of the title has, longest first; the columns
 * of the file's name the view's words may leave it (its last 32 and
 * the mark). */
enum { TITLE_FORMS = 4, TITLE_FILE_KEEP = 33 };

/* A part of the title: its forms, longest first (NULL past the last),
 * and the one shown. */
struct title_part {
	char *form[TITLE_FORMS];
	int shown;
};

/* The title's parts joined by " | ", each in its form shown. */
static char *
title_joined(struct title_part *parts, size_t n)
{
	char *t = xstrdup(""), *more;
	size_t i;

	for (i = 0; i < n; i++) {
		const char *f = parts[i].form[parts[i].shown];

		if (!f || !*f)
			continue;
		more = xasprintf("%s%s%s", t, *t ? " | " : "", f);
		free(t);
		t = more;
	}
	return t;
}

/* What the title says of the samples and the clock, in its forms:
 * a simpleperf recording's event type and Java only, a pprof profile's
 * sample type, a sampled trace's interval. */
static void
title_clock(const struct app *app, struct title_part *part)
{
	const char *clock = app->clocks == APP_CLOCKS_CPU    ? "cpu"
	                    : app->clocks == APP_CLOCKS_WALL ? "wall"
	                                                     : "cpu+wall";
	const char *type = calltree_property(app->tree, "pprof-sample-type");
	const char *java = app->java_only ? ", Java only" : "";

	/* hprof's counts are its samples: counted, not estimated. */
	if (!type && app->tree->header.format == TRACE_FORMAT_HPROF &&
	    app->tree->header.unit == TRACE_UNIT_COUNT)
		type = "samples";
	if (app->tree->header.format == TRACE_FORMAT_SIMPLEPERF) {
		/* A simpleperf recording: samples of an event type. */
		const char *ev =
		        calltree_property(app->tree, "simpleperf-event-type");

		ev = ev ? ev : "event";
		part->form[0] = xasprintf(
		        "clock: %s, %s samples%s: estimates, not calls", clock,
		        ev, java);
		part->form[1] =
		        xasprintf("clock: %s, %s samples%s", clock, ev, java);
		part->form[2] = xasprintf("%s, %s%s", clock, ev,
		                          app->java_only ? ", Java" : "");
		part->form[3] = xasprintf("%s%s", clock,
		                          app->java_only ? ", Java" : "");
	} else if (type) {
		part->form[0] = xasprintf("type: %s", type);
		part->form[1] = xstrdup(type);
	} else if (app->tree->sampled) {
		/* Calls and times are estimates from the samples. */
		char *every = summary_sample_interval(app->tree);

		part->form[0] = xasprintf("clock: %s, sampled %s: estimates",
		                          clock, every);
		part->form[1] = xasprintf("clock: %s, sampled", clock);
		part->form[2] = xasprintf("%s, sampled", clock);
		part->form[3] = xstrdup(clock);
		free(every);
	} else {
		part->form[0] = xasprintf("clock: %s", clock);
		part->form[1] = xstrdup(clock);
	}
}

/* The scope's threads, in the title's forms. */
static void
title_threads(const struct app *app, struct title_part *part)
{
	size_t t;

	if (app->scope.nthreads == 1 && scope_is_all(&app->scope)) {
		part->form[0] = xstrdup("1 thread");
	} else if (scope_is_all(&app->scope)) {
		part->form[0] =
		        xasprintf("all %zu threads", app->scope.nthreads);
		part->form[1] = xasprintf("%zu threads", app->scope.nthreads);
		part->form[2] = xasprintf("%zut", app->scope.nthreads);
		/* Every thread is the scope as read: said last of all. */
		part->form[3] = xstrdup("");
	} else if (app->scope.count == 1) {
		for (t = 0; !scope_has(&app->scope, t); t++)
			;
		part->form[0] =
		        xasprintf("thread %s", app->tree->threads[t].name);
		part->form[1] = method_cut_left(app->tree->threads[t].name, 16,
		                                "\u2026");
	} else {
		part->form[0] =
		        xasprintf("%zu of %zu threads", app->scope.count,
		                  app->scope.nthreads);
		part->form[1] = xasprintf("%zu/%zut", app->scope.count,
		                          app->scope.nthreads);
	}
}

/* A new string: s whole when it takes at most width columns, else its
 * start that fits in width columns with mark after it (cut between
 * glyphs). */
static char *
cut_end(const char *s, int width, const char *mark)
{
	size_t len = strlen(s), at = 0;
	int w = 0, room = width - (int)text_width(mark);
	char *out;

	if ((int)text_width(s) <= width)
		return xstrdup(s);
	while (at < len) {
		char glyph[TEXT_GLYPH_MAX];
		int gw;
		size_t n = text_next_glyph(s + at, len - at, false, glyph, &gw);

		if (w + gw > room)
			break;
		w += gw;
		at += n;
	}
	out = xasprintf("%.*s%s", (int)at, s, mark);
	return out;
}

/* The transforms, in the title's forms: all of them, then their count
 * and the first. */
static void
title_transforms(const struct app *app, struct title_part *part,
                 const char *mark)
{
	char *first, *cut;

	if (!app->ntransforms)
		return;
	part->form[0] = transforms_text(app, false);
	if (app->ntransforms == 1) {
		/* A focus without its figures, then shorter. */
		first = xstrdup(app->transforms[0].label);
		part->form[1] = cut_end(first, 32, mark);
		part->form[2] = xasprintf("%.*s%s", (int)strcspn(first, " "),
		                          first, mark);
		free(first);
		return;
	}
	first = transform_label(app, 0);
	part->form[1] =
	        xasprintf("%zu transforms: %s", app->ntransforms, first);
	cut = cut_end(first, 24, mark);
	part->form[2] = xasprintf("%zu: %s", app->ntransforms, cut);
	free(cut);
	/* The count and the first's kind ("focus"). */
	part->form[3] = xasprintf("%zu: %.*s%s", app->ntransforms,
	                          (int)strcspn(first, " "), first, mark);
	free(first);
}

/* The command line's transforms, in the title's forms: all of them,
 * the first's option cut, then their count. */
static void
title_loaded_with(const struct app *app, struct title_part *part,
                  const char *mark)
{
	const char *w = app->loaded_with;
	size_t n = 1;
	const char *at;

	if (!w)
		return;
	for (at = w; (at = strstr(at, " > ")); at += 3)
		n++;
	part->form[0] = xstrdup(w);
	part->form[1] = cut_end(w, 24, mark);
	part->form[2] =
	        xasprintf("%.*s%s", (int)strcspn(w, " "), w, n > 1 ? mark : "");
	part->form[3] = xasprintf("%zu option%s", n, n == 1 ? "" : "s");
}

static void
draw_title(struct app *app, struct canvas *c)
{
	/* The parts in the order shown. */
	enum {
		FILE_PART,
		VIEW,
		THREADS,
		CLOCK,
		RANGE,
		NAMES,
		MORE,
		LOADED_WITH,
		TRANSFORMS,
		PARTS
	};
	/* Which part gives way first: the last of this list. */
	static const int order[PARTS] = {NAMES,       RANGE, THREADS,
	                                 TRANSFORMS,  CLOCK, MORE,
	                                 LOADED_WITH, VIEW,  FILE_PART};
	const char *mark = canvas_glyph(c, GLYPH_TRUNCATED);
	struct title_part parts[PARTS];
	char *title, *file, *more;
	size_t i, j;
	int over, bare, spare;

	memset(parts, 0, sizeof(parts));
	title_loaded_with(app, &parts[LOADED_WITH], mark);
	parts[FILE_PART].form[0] = xasprintf(
	        "%s%s%s", base_name(app->tree->path), app->base ? " vs " : "",
	        app->base ? base_name(app->base_path) : "");
	parts[VIEW].form[0] =
	        app->filter_text[app->view]
	                ? xasprintf("%s &%s", view_ops[app->view]->name,
	                            app->filter_text[app->view])
	                : xstrdup(view_ops[app->view]->name);
	title_clock(app, &parts[CLOCK]);
	title_threads(app, &parts[THREADS]);
	title_transforms(app, &parts[TRANSFORMS], mark);
	if (app->scope.range.on) {
		const char *k =
		        app->scope.range.clock == CLOCK_WALL ? "wall" : "cpu";
		double from = (double)app->scope.range.start / 1000;
		double to = (double)app->scope.range.end / 1000;

		parts[RANGE].form[0] =
		        xasprintf("range: %s %.3f..%.3f ms", k, from, to);
		parts[RANGE].form[1] = xasprintf("%s %.3f..%.3f", k, from, to);
		parts[RANGE].form[2] = xasprintf("%.0f..%.0f", from, to);
	} else {
		parts[RANGE].form[0] = xstrdup("range: all");
		parts[RANGE].form[1] = xstrdup("all");
	}
	if (app->full_names) {
		parts[NAMES].form[0] = xstrdup("full names");
		parts[NAMES].form[1] = xstrdup("A");
	}
	/* What the view adds (the calls' method) goes first. */
	if (view_ops[app->view]->title)
		for (i = 0; i < TITLE_FORMS; i++)
			if (!(parts[MORE].form[i] = view_ops[app->view]->title(
			              app->state[app->view], app, (int)i)))
				break;
	/* Each part in its next shorter form, the lowest first, until the
	 * title fits. */
	for (i = 0; i < PARTS; i++) {
		struct title_part *p = &parts[order[i]];

		for (;;) {
			title = title_joined(parts, PARTS);
			j = text_width(title);
			free(title);
			if ((int)j <= c->width || p->shown + 1 >= TITLE_FORMS ||
			    !p->form[p->shown + 1])
				break;
			p->shown++;
		}
	}
	/* Still too wide: the file names from their start, each of
	 * --base's two keeping its end: for the view's words down to the
	 * last TITLE_FILE_KEEP columns, for the rest further (the view's
	 * words are then cut at the end). */
	title = title_joined(parts, PARTS);
	over = (int)text_width(title) - c->width;
	free(title);
	more = parts[MORE].form[parts[MORE].shown];
	parts[MORE].form[parts[MORE].shown] = NULL;
	title = title_joined(parts, PARTS);
	bare = (int)text_width(title) - c->width;
	free(title);
	parts[MORE].form[parts[MORE].shown] = more;
	/* With --base: " vs " and the base's last 12 and the mark too. */
	spare = (int)text_width(parts[FILE_PART].form[0]) -
	        (app->base ? TITLE_FILE_KEEP + 4 + 13 : TITLE_FILE_KEEP);
	if (over > spare)
		over = spare;
	if (over < bare)
		over = bare;
	if (over > 0) {
		const char *a = base_name(app->tree->path);
		int room = (int)text_width(parts[FILE_PART].form[0]) - over;

		if (app->base) {
			const char *b = base_name(app->base_path);
			int wa = (int)text_width(a), wb = (int)text_width(b);
			int ra, rb;
			char *ca, *cb;

			room -= 4;
			/* The viewed file's first, the base's keeps twelve
			 * columns, and what the viewed one leaves. */
			ra = wa < room - 12 ? wa : room - 12;
			rb = room - ra < wb ? room - ra : wb;
			ca = text_cut_left(a, ra < 12 ? 12 : ra, mark);
			cb = text_cut_left(b, rb < 12 ? 12 : rb, mark);
			file = xasprintf("%s vs %s", ca, cb);
			free(ca);
			free(cb);
		} else {
			file = text_cut_left(a, room < 12 ? 12 : room, mark);
		}
		free(parts[FILE_PART].form[0]);
		parts[FILE_PART].form[0] = file;
	}
	title = title_joined(parts, PARTS);
	canvas_fill(c, 0, 0, c->width, " ", ROLE_TITLE);
	canvas_text(c, 0, 0, c->width, title, ROLE_TITLE);
	free(title);
	for (i = 0; i < PARTS; i++)
		for (j = 0; j < TITLE_FORMS; j++)
			free(parts[i].form[j]);
}

static char *
anomaly_summary(const struct calltree *tree)
{
	const struct tt_anomalies *a = &tree->anomalies;
	unsigned long long n = a->orphan_exits + a->mismatched_exits +
	                       a->unknown_methods + a->unknown_threads +
	                       a->negative_steps[0] + a->negative_steps[1] +
	                       a->action3;

	if (a->data_file_overflow)
		return xstrdup("data-file-overflow: the trace ends early "
		               "(i: info)");
	if (!n)
		return NULL;
	return xasprintf("%llu anomalies (i: info)", n);
}

/* The status line's text (a new string, or NULL) and its role: the
 * prompt, a message, or the view's selection. */
static char *
status_text(struct app *app, enum role *role)
{
	*role = ROLE_STATUS;
	if (app->prompting)
		return xasprintf("%s%s",
		                 app->prompt_for == REQ_WRITE_VIEW
		                         ? "write to (Enter; Esc cancels): "
		                 : app->prompt_for == REQ_FILTER
		                         ? "keep rows matching (Enter; Esc "
		                           "cancels): "
		                         : "search (Enter; Esc cancels): ",
		                 app->prompt);
	if (app->message) {
		if (app->message_is_error)
			*role = ROLE_WARNING;
		return xstrdup(app->message);
	}
	if (view_ops[app->view]->status)
		return view_ops[app->view]->status(app->state[app->view], app);
	return NULL;
}

/* The most lines the status takes, a long message's or name's. */
enum { STATUS_LINES = 4 };

/* The status on its last `lines` lines above the hints (0: one, and
 * only measured), with the notes (calls loading, anomalies) and pos
 * (NULL: none) right of the text where they fit beside it, else at the
 * right end of the hint line: *hint_room is then what the hints keep of
 * their line.  Returns the lines its text takes,
 * at most STATUS_LINES. */
static int
draw_status(struct app *app, struct canvas *c, const char *pos, int lines,
            int *hint_room)
{
	int y = c->height - 1 - (lines ? lines : 1), i;
	enum role role;
	char *text = status_text(app, &role), *right = NULL;
	int used, need, note_y = c->height - 2;
	int tw = text ? (int)text_width(text) : 0;

	for (i = 0; i < (lines ? lines : 1); i++)
		canvas_fill(c, 0, y + i, c->width, " ", ROLE_STATUS);
	right = anomaly_summary(app->tree);
	if (app->tree->sums) {
		/* The calls are still being read: say how far. */
		char *note = app->calls_error ? xasprintf("no calls (%s)",
		                                          app->calls_error)
		                              : xasprintf("calls loading %d%%",
		                                          app->calls_percent);

		if (right) {
			char *both = xasprintf("%s | %s", note, right);

			free(note);
			free(right);
			note = both;
		}
		right = note;
	}
	used = c->width;
	*hint_room = c->width;
	if ((right || pos) && !app->prompting) {
		/* The notes would push the text to a second line: they go
		 * to the hint line's end instead, so that the text's lines
		 * are the text's alone. */
		int rw = (right ? (int)text_width(right) : 0) +
		         (pos ? (int)text_width(pos) + 2 : 0);

		if (tw + rw + 1 > c->width && rw + 20 < c->width) {
			note_y = c->height - 1;
			canvas_fill(c, c->width - rw - 1, note_y, rw + 1, " ",
			            ROLE_HINT);
			*hint_room = c->width - rw - 1;
		}
	}
	if (right) {
		/* Twenty columns left to the text, the note cut if it must:
		 * a note that the calls failed, or of anomalies, is never
		 * dropped. */
		int w = (int)text_width(right);

		if (w > c->width - 20)
			w = c->width - 20;
		canvas_text(c, c->width - w, note_y, w, right, ROLE_WARNING);
		used = c->width - w - 1;
	}
	if (pos && !app->prompting) {
		int w = (int)text_width(pos);

		if (w + 2 < used / 3) {
			canvas_text(c, used - w, note_y, w, pos,
			            note_y == c->height - 2 ? ROLE_STATUS
			                                    : ROLE_HINT);
			used -= w + 2;
		}
	}
	if (note_y != c->height - 2)
		used = c->width;
	/* Lines above the last take the whole width. */
	need = text ? canvas_wrap(c, 0, y, c->width, used, lines ? lines : 1,
	                          text, role)
	            : 1;
	free(text);
	free(right);
	return need < STATUS_LINES ? need : STATUS_LINES;
}

/* A list's place, "row N of M", at the right end of its first line (its
 * column headers) where that is blank; else returned (a new string) for
 * the status line. */
static char *
draw_position(struct app *app, struct canvas *c)
{
	const struct list *l;
	char *pos;
	size_t at;
	int w, x;

	if (!view_ops[app->view]->cursor)
		return NULL;
	l = view_ops[app->view]->cursor(app->state[app->view]);
	at = l ? list_position(l) : 0;
	if (!at)
		return NULL;
	pos = xasprintf(" row %zu of %zu", at, list_visible(l));
	w = (int)text_width(pos);
	for (x = c->width - w; x >= 0 && x < c->width; x++) {
		const struct canvas_cell *cell = canvas_cell(c, x, 1);

		if (strcmp(cell->glyph, " ") != 0 || cell->width != 1)
			break;
	}
	if (x == c->width && c->width - w >= 0) {
		canvas_text(c, c->width - w, 1, w, pos, ROLE_HEADER);
		free(pos);
		return NULL;
	}
	return pos;
}

/* The key hints in the first room columns of the last line. */
static void
draw_hints(struct app *app, struct canvas *c, int room)
{
	char *hints = xasprintf("%s  /:search  Tab:views  ?:help  q:quit",
	                        view_ops[app->view]->hints);

	/* Too wide: whole hints give way from the right. */
	while ((int)text_width(hints) > room) {
		char *last = NULL, *p;

		for (p = strstr(hints, "  "); p; p = strstr(p + 2, "  "))
			last = p;
		if (!last)
			break;
		*last = '\0';
	}

	canvas_fill(c, 0, c->height - 1, room, " ", ROLE_HINT);
	canvas_text(c, 0, c->height - 1, room, hints, ROLE_HINT);
	free(hints);
}

void
app_draw(struct app *app, struct canvas *c)
{
	char *pos;
	int lines, room;

	canvas_clear(c);
	if (c->width < APP_MIN_WIDTH || c->height < APP_MIN_HEIGHT) {
		char *msg = xasprintf("tracetui needs %dx%d (now %dx%d)",
		                      APP_MIN_WIDTH, APP_MIN_HEIGHT, c->width,
		                      c->height);

		canvas_text(c, 0, 0, c->width, msg, ROLE_WARNING);
		free(msg);
		app->page = 0;
		return;
	}
	draw_title(app, c);
	app->page = c->height - 3;
	if (app->view == APP_VIEW_TIMELINE &&
	    (app->tree->header.format == TRACE_FORMAT_PPROF ||
	     app->tree->header.format == TRACE_FORMAT_HPROF))
		canvas_text(
		        c, 2, 2, c->width - 2,
		        app->tree->header.format == TRACE_FORMAT_PPROF
		                ? "No timeline: pprof samples carry no time "
		                  "(1: profile, 3: flame graph)"
		                : "No timeline: hprof stacks carry no "
		                  "timestamps (1: profile, 3: flame graph)",
		        ROLE_NORMAL);
	else
		view_ops[app->view]->draw(app->state[app->view], app, c, 1,
		                          c->height - 3);
	pos = draw_position(app, c);
	lines = draw_status(app, c, pos, 0, &room);
	if (lines > 1 && c->height - 3 - (lines - 1) >= APP_MIN_HEIGHT - 3 &&
	    app->view != APP_VIEW_TIMELINE) {
		/* A status too long for its line wraps: the view gives up
		 * the lines it takes. */
		int y;

		for (y = 1; y < c->height - 1; y++)
			canvas_fill(c, 0, y, c->width, " ", ROLE_NORMAL);
		view_ops[app->view]->draw(app->state[app->view], app, c, 1,
		                          c->height - 2 - lines);
		free(pos);
		pos = draw_position(app, c);
		draw_status(app, c, pos, lines, &room);
	}
	free(pos);
	draw_hints(app, c, room);
}
