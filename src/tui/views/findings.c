/*
 * findings: triage's findings (query/triage.h) of the built-in rules
 * over the whole recording, by severity then total, each with its
 * thread, total, calls and longest call; the title counts them by
 * severity.  Enter lists the finding's calls (the outermost calls its
 * rule's pattern matches on its thread, those its total sums), longest
 * first; Enter there opens the call chart on the call, its span the
 * range, and Esc (or h) goes back to the findings.
 */
#include "config.h"

#include "query/method-name.h"
#include "query/triage.h"
#include "tui/app.h"
#include "tui/list.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

struct findings_view {
	struct triage_rules rules;
	struct triage tr;
	bool ok; /* the triage ran */
	struct list list;
	const regex_t *filter;
	const struct app *app; /* for the filter's matcher */
	/* One finding's calls, longest first, while they show. */
	bool in_calls;
	size_t shown; /* that finding's row */
	uint32_t *calls;
	size_t ncalls;
	struct list calls_list;
};

static void *
fi_open(struct app *app)
{
	struct findings_view *v = xcalloc(1, sizeof(*v));
	char why[256];
	bool *is_frame;

	v->app = app;
	triage_rules_builtin(&v->rules);
	is_frame =
	        frames_methods(app->tree, app->frame_method, why, sizeof(why));
	if (!is_frame) /* checked with the options: not seen */
		is_frame = xcalloc(app->tree->nmethods + 1, sizeof(*is_frame));
	v->ok = triage_compute(
	        &v->tr, app->tree, &v->rules, is_frame,
	        app->frame_budget > 0
	                ? app->frame_budget
	                : frames_budget_of_rate(FRAMES_DEFAULT_HZ),
	        why, sizeof(why));
	free(is_frame);
	list_set_count(&v->list, v->ok ? v->tr.count : 0);
	list_reset(&v->list);
	return v;
}

static void
fi_close(void *state)
{
	struct findings_view *v = state;

	if (v->ok)
		triage_done(&v->tr);
	triage_rules_done(&v->rules);
	list_done(&v->list);
	list_done(&v->calls_list);
	free(v->calls);
	free(v);
}

static const struct triage_finding *
current(const struct findings_view *v)
{
	return v->ok && v->tr.count ? &v->tr.findings[v->list.cursor] : NULL;
}

static const char *const severity_word[] = {"info", "warn", "error"};

/* "1073.6", or "≥1073.6" for a lower bound, "~" before an estimate. */
static char *
ms_text(const struct calltree *tree, uint64_t us, bool lower)
{
	return xasprintf("%s%s%.1f",
	                 tree->sampled || tree->header.sample_weight ? "~" : "",
	                 lower ? "≥" : "", (double)us / 1000);
}

enum {
	SEV_W = 5,
	RULE_W = 5,
	CAT_W = 15,
	THREAD_W = 14,
	TOTAL_W = 11,
	COUNT_W = 6,
	WORST_W = 10,
};

/* A time of clock k of call c, or "-" without that clock. */
static char *
call_ms(const struct calltree *tree, uint32_t c, enum clock_index k)
{
	if (!tree->has_clock[k])
		return xstrdup("-");
	return xasprintf("%.3f", (double)calltree_duration(tree, c, k) / 1000);
}

/* One finding's calls: start, wall, cpu, depth, method. */
static void
draw_calls(struct findings_view *v, struct app *app, struct canvas *c, int top,
           int height)
{
	const struct calltree *tree = app->tree;
	enum clock_index k = calltree_default_range_clock(tree);
	int body = height - 1, y, x;
	size_t row;

	canvas_fill(c, 0, top, c->width, " ", ROLE_HEADER);
	canvas_text_right(c, 0, top, WORST_W, "Start ms", ROLE_HEADER);
	x = WORST_W + 1;
	canvas_text_right(c, x, top, WORST_W, "Wall ms", ROLE_HEADER);
	x += WORST_W + 1;
	canvas_text_right(c, x, top, WORST_W, "Cpu ms", ROLE_HEADER);
	x += WORST_W + 1;
	canvas_text_right(c, x, top, COUNT_W, "Depth", ROLE_HEADER);
	x += COUNT_W + 1;
	canvas_text(c, x, top, c->width - x, "Method", ROLE_HEADER);
	list_layout(&v->calls_list, body > 0 ? (size_t)body : 0);
	v->calls_list.y = top + 1;
	for (y = 0, row = v->calls_list.top; y < body && row < v->ncalls;
	     y++, row = list_next(&v->calls_list, row)) {
		uint32_t call = v->calls[row];
		enum role role =
		        row == v->calls_list.cursor ? ROLE_CURSOR : ROLE_NORMAL;
		int ry = top + 1 + y;
		char *t;

		if (role == ROLE_CURSOR)
			canvas_fill(c, 0, ry, c->width, " ", ROLE_CURSOR);
		t = xasprintf("%.3f",
		              (double)calltree_start(tree, call, k) / 1000);
		canvas_text_right(c, 0, ry, WORST_W, t, role);
		free(t);
		x = WORST_W + 1;
		t = call_ms(tree, call, CLOCK_WALL);
		canvas_text_right(c, x, ry, WORST_W, t, role);
		free(t);
		x += WORST_W + 1;
		t = call_ms(tree, call, CLOCK_CPU);
		canvas_text_right(c, x, ry, WORST_W, t, role);
		free(t);
		x += WORST_W + 1;
		t = xasprintf("%u", calltree_depth(tree, call));
		canvas_text_right(c, x, ry, COUNT_W, t, role);
		free(t);
		x += COUNT_W + 1;
		t = app_method_name(app, calltree_method(tree, call));
		canvas_text(c, x, ry, c->width - x, t, role);
		free(t);
	}
}

static void
fi_draw(void *state, struct app *app, struct canvas *c, int top, int height)
{
	struct findings_view *v = state;
	const struct calltree *tree = app->tree;
	int body = height - 1, y, x;
	size_t row;

	if (v->in_calls) {
		draw_calls(v, app, c, top, height);
		return;
	}
	canvas_fill(c, 0, top, c->width, " ", ROLE_HEADER);
	x = 0;
	canvas_text(c, x, top, SEV_W, "Sev", ROLE_HEADER);
	x += SEV_W + 1;
	canvas_text(c, x, top, RULE_W, "Rule", ROLE_HEADER);
	x += RULE_W + 1;
	canvas_text(c, x, top, CAT_W, "Category", ROLE_HEADER);
	x += CAT_W + 1;
	canvas_text(c, x, top, THREAD_W, "Thread", ROLE_HEADER);
	x += THREAD_W + 1;
	canvas_text_right(c, x, top, TOTAL_W, "Total ms", ROLE_HEADER);
	x += TOTAL_W + 1;
	canvas_text_right(c, x, top, COUNT_W, "Calls", ROLE_HEADER);
	x += COUNT_W + 1;
	canvas_text_right(c, x, top, WORST_W, "Worst ms", ROLE_HEADER);
	x += WORST_W + 1;
	canvas_text(c, x, top, c->width - x, "Longest call", ROLE_HEADER);
	if (!v->ok || !v->tr.count) {
		canvas_text(
		        c, 2, top + 2, c->width - 2,
		        v->tr.main < 0
		                ? "No findings; no main thread (no pid and "
		                  "no thread named main): its rules did not "
		                  "run"
		                : "No findings: no rule's calls reach its "
		                  "threshold (tracetui triage tells more)",
		        ROLE_NORMAL);
		return;
	}
	list_layout(&v->list, body > 0 ? (size_t)body : 0);
	v->list.y = top + 1;
	for (y = 0, row = v->list.top; y < body && row < v->tr.count;
	     y++, row = list_next(&v->list, row)) {
		const struct triage_finding *f = &v->tr.findings[row];
		const struct triage_rule *r = &v->rules.rules[f->rule];
		enum role role =
		        row == v->list.cursor ? ROLE_CURSOR : ROLE_NORMAL;
		int ry = top + 1 + y;
		char *t, *name;

		if (role == ROLE_CURSOR)
			canvas_fill(c, 0, ry, c->width, " ", ROLE_CURSOR);
		x = 0;
		canvas_text(c, x, ry, SEV_W, severity_word[f->severity],
		            role == ROLE_NORMAL && f->severity != TRIAGE_INFO
		                    ? ROLE_WARNING
		                    : role);
		x += SEV_W + 1;
		canvas_text(c, x, ry, RULE_W, r->id, role);
		x += RULE_W + 1;
		canvas_text(c, x, ry, CAT_W, r->category, role);
		x += CAT_W + 1;
		canvas_text(c, x, ry, THREAD_W, tree->threads[f->thread].name,
		            role);
		x += THREAD_W + 1;
		t = ms_text(tree, f->total[v->tr.clock], f->lower_bound);
		canvas_text_right(c, x, ry, TOTAL_W, t, role);
		free(t);
		x += TOTAL_W + 1;
		t = xasprintf("%llu", (unsigned long long)f->count);
		canvas_text_right(c, x, ry, COUNT_W, t, role);
		free(t);
		x += COUNT_W + 1;
		t = ms_text(tree, f->worst_dur[v->tr.clock], f->worst_lower);
		canvas_text_right(c, x, ry, WORST_W, t, role);
		free(t);
		x += WORST_W + 1;
		name = app_method_name(app, calltree_method(tree, f->worst));
		canvas_text(c, x, ry, c->width - x, name, role);
		free(name);
	}
}

static int
call_cmp(const void *a, const void *b, void *arg)
{
	const struct findings_view *v = arg;
	const struct calltree *tree = v->app->tree;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t dx = calltree_duration(tree, x, v->tr.clock);
	uint64_t dy = calltree_duration(tree, y, v->tr.clock);

	if (dx != dy)
		return dx > dy ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Show the calls of the finding on row, longest first. */
static void
show_calls(struct findings_view *v, const struct app *app, size_t row)
{
	free(v->calls);
	v->app = app;
	v->ncalls = triage_finding_calls(app->tree, &v->rules,
	                                 &v->tr.findings[row], &v->calls);
	if (v->ncalls > 1)
		qsort_r(v->calls, v->ncalls, sizeof(*v->calls), call_cmp, v);
	v->shown = row;
	v->in_calls = true;
	list_set_count(&v->calls_list, v->ncalls);
	list_reset(&v->calls_list);
}

/* Enter on a call: the call chart on it, its span the range. */
static void
open_call(struct findings_view *v, const struct app *app, struct view_ask *ask)
{
	const struct calltree *tree = app->tree;
	enum clock_index k = calltree_default_range_clock(tree);
	uint32_t c;
	uint64_t from, to;

	if (!v->ncalls)
		return;
	c = v->calls[v->calls_list.cursor];
	from = calltree_start(tree, c, k);
	to = from + calltree_duration(tree, c, k);
	ask->set_range = true;
	ask->range.on = true;
	ask->range.clock = k;
	ask->range.start = from;
	ask->range.end = to > from ? to : from + 1;
	ask->open_call = true;
	ask->call_thread = v->tr.findings[v->shown].thread;
	ask->call = c;
	ask->jump = APP_VIEW_TIMELINE;
}

static enum view_result
fi_handle(void *state, const struct app *app, enum request req,
          struct view_ask *ask)
{
	struct findings_view *v = state;

	if (v->in_calls) {
		if (list_move(&v->calls_list, req))
			return VIEW_DONE;
		switch (req) {
		case REQ_ENTER:
			open_call(v, app, ask);
			return VIEW_DONE;
		case REQ_BACK_OUT:
		case REQ_COLLAPSE:
			v->in_calls = false;
			return VIEW_DONE;
		default:
			return VIEW_UNHANDLED;
		}
	}
	if (list_move(&v->list, req))
		return VIEW_DONE;
	if (req != REQ_ENTER || !current(v))
		return VIEW_UNHANDLED;
	show_calls(v, app, v->list.cursor);
	return VIEW_DONE;
}

static enum view_result
fi_mouse(void *state, struct app *app, const struct mouse_event *ev,
         struct view_ask *ask)
{
	struct findings_view *v = state;
	enum list_click r =
	        list_mouse(v->in_calls ? &v->calls_list : &v->list, ev);

	(void)app, (void)ask;
	if (r == LIST_MISSED)
		return VIEW_UNHANDLED;
	return r == LIST_AGAIN ? VIEW_AGAIN : VIEW_DONE;
}

/* Whether the finding on row matches re: its rule's id or category, its
 * thread's name or its longest call's full name. */
static bool
matches(const struct findings_view *v, const struct app *app, size_t row,
        const regex_t *re)
{
	const struct triage_finding *f = &v->tr.findings[row];
	const struct triage_rule *r = &v->rules.rules[f->rule];
	char *name;
	bool hit;

	if (regexec(re, r->id, 0, NULL, 0) == 0 ||
	    regexec(re, r->category, 0, NULL, 0) == 0 ||
	    regexec(re, app->tree->threads[f->thread].name, 0, NULL, 0) == 0)
		return true;
	name = method_full_name(
	        &app->tree->methods[calltree_method(app->tree, f->worst)]);
	hit = regexec(re, name, 0, NULL, 0) == 0;
	free(name);
	return hit;
}

static bool
row_matches(size_t row, void *arg)
{
	void **a = arg;

	return matches(a[0], a[1], row, a[2]);
}

static bool
fi_find(void *state, const struct app *app, const regex_t *re, int dir,
        struct view_ask *ask)
{
	struct findings_view *v = state;
	void *arg[3] = {v, (void *)app, (void *)re};
	struct list_hit hit;

	if (v->in_calls)
		return false;
	if (!list_search(&v->list, dir, row_matches, arg, &hit))
		return false;
	ask->match = hit.nth;
	ask->matches = hit.total;
	return true;
}

static bool
row_kept(size_t row, void *arg)
{
	const struct findings_view *v = arg;

	return matches(v, v->app, row, v->filter);
}

static size_t
fi_filter(void *state, const struct app *app, const regex_t *re)
{
	struct findings_view *v = state;

	v->filter = re;
	v->app = app;
	list_filter(&v->list, re ? row_kept : NULL, v);
	return list_visible(&v->list);
}

static uint32_t
fi_selection(void *state)
{
	struct findings_view *v = state;
	const struct triage_finding *f = current(v);

	if (v->in_calls)
		return v->ncalls
		               ? calltree_method(v->app->tree,
		                                 v->calls[v->calls_list.cursor])
		               : CALL_NONE;
	return f ? calltree_method(v->app->tree, f->worst) : CALL_NONE;
}

static char *
fi_status(void *state, struct app *app)
{
	struct findings_view *v = state;
	const struct triage_finding *f = current(v);
	const struct triage_rule *r;
	char *total, *s;

	if (!f)
		return NULL;
	if (v->in_calls) {
		char *name;

		if (!v->ncalls)
			return NULL;
		name = app_method_name(
		        app, calltree_method(app->tree,
		                             v->calls[v->calls_list.cursor]));
		s = xasprintf("%s; Enter: the call in the chart, Esc: the "
		              "findings",
		              name);
		free(name);
		return s;
	}
	r = &v->rules.rules[f->rule];
	total = ms_text(app->tree, f->total[v->tr.clock], f->lower_bound);
	s = xasprintf("%s %s on %s: %s ms in %llu calls (%s); Enter: its "
	              "calls",
	              r->id, r->category, app->tree->threads[f->thread].name,
	              total, (unsigned long long)f->count, r->source);
	free(total);
	return s;
}

static char *
fi_title(void *state, const struct app *app)
{
	struct findings_view *v = state;

	if (!v->ok)
		return NULL;
	if (v->in_calls) {
		const struct triage_finding *f = &v->tr.findings[v->shown];

		return xasprintf("%s %s on %s: %zu calls, longest first",
		                 v->rules.rules[f->rule].id,
		                 v->rules.rules[f->rule].category,
		                 app->tree->threads[f->thread].name, v->ncalls);
	}
	return xasprintf("%zu error, %zu warn, %zu info",
	                 triage_count_severity(&v->tr, TRIAGE_ERROR),
	                 triage_count_severity(&v->tr, TRIAGE_WARN),
	                 triage_count_severity(&v->tr, TRIAGE_INFO));
}

static struct table *
fi_rows(void *state, struct app *app)
{
	static const char *const names[] = {
	        "Severity", "Rule",         "Category", "Thread",
	        "Tid",      "Total ms",     "Cpu ms",   "Calls",
	        "Worst ms", "Worst method", "Pattern"};
	static const enum table_kind kinds[] = {
	        TABLE_STRING, TABLE_STRING, TABLE_STRING, TABLE_STRING,
	        TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER,
	        TABLE_NUMBER, TABLE_STRING, TABLE_STRING};
	struct findings_view *v = state;
	const struct calltree *tree = app->tree;
	struct table *t = table_new(11, names, kinds);
	size_t row;

	for (row = list_first(&v->list); v->ok && row < v->tr.count;
	     row = list_next(&v->list, row)) {
		const struct triage_finding *f = &v->tr.findings[row];
		const struct triage_rule *r = &v->rules.rules[f->rule];
		char *name = method_full_name(
		        &tree->methods[calltree_method(tree, f->worst)]);

		table_row(t);
		table_str(t, severity_word[f->severity]);
		table_str(t, r->id);
		table_str(t, r->category);
		table_str(t, tree->threads[f->thread].name);
		table_u64(t, tree->threads[f->thread].tid);
		table_ms(t, f->total[v->tr.clock]);
		table_ms(t, f->total[CLOCK_CPU]);
		table_u64(t, f->count);
		table_ms(t, f->worst_dur[v->tr.clock]);
		table_str(t, name);
		table_str(t, r->pattern);
		free(name);
	}
	return t;
}

static const struct list *
fi_cursor(void *state)
{
	const struct findings_view *v = state;

	return v->in_calls ? &v->calls_list : &v->list;
}

const struct view_ops view_findings_ops = {
        .cursor = fi_cursor,
        .name = "Findings",
        .hints = "Enter:its calls, then the chart  Esc:back",
        .needs_calls = true,
        .open = fi_open,
        .close = fi_close,
        .draw = fi_draw,
        .handle = fi_handle,
        .find = fi_find,
        .mouse = fi_mouse,
        .filter = fi_filter,
        .selection = fi_selection,
        .status = fi_status,
        .title = fi_title,
        .rows = fi_rows,
};
