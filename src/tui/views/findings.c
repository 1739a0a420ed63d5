/*
 * findings: triage's findings (query/triage.h) of the built-in rules
 * over the whole recording, by severity then total, each with its
 * thread, total, calls and longest call; the title counts them by
 * severity.  The rules are the app's (--rules, --threshold), else the
 * built-in table.  Enter opens the Calls view on the finding's calls
 * (the outermost calls its rule's pattern matches on its thread, those
 * its total sums; a blocked or hot rule's, the calls it counts),
 * longest first; Enter there opens the call chart on the call, and Esc
 * comes back to the findings.
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
	struct triage_rules own; /* the built-in table, without the app's */
	const struct triage_rules *rules_of; /* the app's, or &own */
	struct triage tr;
	bool ok; /* the triage ran */
	struct list list;
	const regex_t *filter;
	const struct app *app; /* for the filter's matcher */
	bool computed;         /* the triage ran (compute) */
};

/* The triage, once: on first need rather than at open, so that the
 * rules the app was given after it opened its views count. */
static void
compute(struct findings_view *v)
{
	const struct app *app = v->app;
	char why[256];
	bool *is_frame;

	if (v->computed)
		return;
	v->computed = true;
	if (app->rules) {
		v->rules_of = app->rules;
	} else {
		triage_rules_builtin(&v->own);
		v->rules_of = &v->own;
	}
	is_frame =
	        frames_methods(app->tree, app->frame_method, why, sizeof(why));
	if (!is_frame) /* checked with the options: not seen */
		is_frame = xcalloc(app->tree->nmethods + 1, sizeof(*is_frame));
	v->ok = triage_compute(
	        &v->tr, app->tree, v->rules_of, is_frame,
	        app->frame_budget > 0
	                ? app->frame_budget
	                : frames_budget_of_rate(FRAMES_DEFAULT_HZ),
	        why, sizeof(why));
	free(is_frame);
	list_set_count(&v->list, v->ok ? v->tr.count : 0);
	list_reset(&v->list);
}

static void *
fi_open(struct app *app)
{
	struct findings_view *v = xcalloc(1, sizeof(*v));

	v->app = app;
	return v;
}

static void
fi_close(void *state)
{
	struct findings_view *v = state;

	if (v->computed && v->ok)
		triage_done(&v->tr);
	triage_rules_done(&v->own);
	list_done(&v->list);
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

static void
fi_draw(void *state, struct app *app, struct canvas *c, int top, int height)
{
	struct findings_view *v = state;
	const struct calltree *tree = app->tree;
	int body = height - 1, y, x;
	size_t row;

	compute(v);

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
		const struct triage_rule *r = &v->rules_of->rules[f->rule];
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

/* Enter on a finding: the Calls view on its calls, longest first. */
static void
show_calls(struct findings_view *v, const struct app *app, struct view_ask *ask)
{
	const struct triage_finding *f = current(v);
	const struct triage_rule *r = &v->rules_of->rules[f->rule];

	v->app = app;
	ask->ncalls =
	        triage_finding_calls(app->tree, v->rules_of, f, &ask->calls);
	if (ask->ncalls > 1)
		qsort_r(ask->calls, ask->ncalls, sizeof(*ask->calls), call_cmp,
		        v);
	ask->calls_thread = f->thread;
	ask->calls_title = xasprintf("%s on %s", r->id,
	                             app->tree->threads[f->thread].name);
	if (!ask->calls)
		ask->calls = xmalloc(sizeof(*ask->calls));
}

static enum view_result
fi_handle(void *state, const struct app *app, enum request req,
          struct view_ask *ask)
{
	struct findings_view *v = state;

	compute(v);

	if (list_move(&v->list, req))
		return VIEW_DONE;
	if (req != REQ_ENTER || !current(v))
		return VIEW_UNHANDLED;
	show_calls(v, app, ask);
	return VIEW_DONE;
}

static enum view_result
fi_mouse(void *state, struct app *app, const struct mouse_event *ev,
         struct view_ask *ask)
{
	struct findings_view *v = state;
	enum list_click r;

	compute(v);
	r = list_mouse(&v->list, ev);

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
	const struct triage_rule *r = &v->rules_of->rules[f->rule];
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

	compute(v);

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

	compute(v);

	v->filter = re;
	v->app = app;
	list_filter(&v->list, re ? row_kept : NULL, v);
	return list_visible(&v->list);
}

static uint32_t
fi_selection(void *state)
{
	struct findings_view *v = state;
	const struct triage_finding *f;

	compute(v);
	f = current(v);
	return f ? calltree_method(v->app->tree, f->worst) : CALL_NONE;
}

static char *
fi_status(void *state, struct app *app)
{
	struct findings_view *v = state;
	const struct triage_finding *f;
	const struct triage_rule *r;
	char *total, *s;

	compute(v);
	f = current(v);
	if (!f)
		return NULL;
	r = &v->rules_of->rules[f->rule];
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

	compute(v);

	if (!v->ok)
		return NULL;
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

	compute(v);
	for (row = list_first(&v->list); v->ok && row < v->tr.count;
	     row = list_next(&v->list, row)) {
		const struct triage_finding *f = &v->tr.findings[row];
		const struct triage_rule *r = &v->rules_of->rules[f->rule];
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
	struct findings_view *v = state;

	compute(v);
	return &v->list;
}

const struct view_ops view_findings_ops = {
        .cursor = fi_cursor,
        .name = "Findings",
        .hints = "Enter:its calls in the Calls view  Esc:back",
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
