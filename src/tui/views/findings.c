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
#include "tui/columns.h"
#include "tui/list.h"
#include "util/alloc.h"

#include <limits.h>
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

/* The columns, left to right. */
enum {
	FC_SEV,
	FC_RULE,
	FC_CAT,
	FC_THREAD,
	FC_TOTAL,
	FC_CALLS,
	FC_WORST,
	FC_CALL,
	FC_COUNT
};

static const char *const heads[FC_COUNT] = {
        "Sev",      "Rule",  "Category", "Thread",
        "Total ms", "Calls", "Worst ms", "Longest call"};

/* Finding f's cell of column i, a new string (the longest call's name
 * in the names the app shows). */
static char *
cell(const struct findings_view *v, struct app *app,
     const struct triage_finding *f, int i)
{
	const struct calltree *tree = app->tree;

	switch (i) {
	case FC_SEV:
		return xstrdup(severity_word[f->severity]);
	case FC_RULE:
		return xstrdup(v->rules_of->rules[f->rule].id);
	case FC_CAT:
		return xstrdup(v->rules_of->rules[f->rule].category);
	case FC_THREAD:
		return xstrdup(tree->threads[f->thread].name);
	case FC_TOTAL:
		return ms_text(tree, f->total[v->tr.clock], f->lower_bound);
	case FC_CALLS:
		return xasprintf("%llu", (unsigned long long)f->count);
	case FC_WORST:
		return ms_text(tree, f->worst_dur[v->tr.clock], f->worst_lower);
	default:
		return app_method_name(app, calltree_method(tree, f->worst));
	}
}

/* Size the columns to the findings in view and lay them out. */
static void
lay_out(const struct findings_view *v, struct app *app, int width,
        struct column *cols, int body)
{
	size_t row;
	int y, i;

	for (i = 0; i < FC_COUNT; i++)
		cols[i] = (struct column){
		        .kind = i == FC_CALL   ? COLUMN_NAME
		                : i < FC_TOTAL ? COLUMN_TEXT
		                               : COLUMN_NUMBER,
		        .want = (int)text_width(heads[i]),
		        /* severity, rule and category never shortened */
		        .min = i == FC_THREAD ? 12
		               : i == FC_CALL ? 20
		                              : INT_MAX,
		        .prio = i == FC_TOTAL   ? COLUMN_KEEP
		                : i == FC_CALLS ? 2
		                                : 1};
	for (y = 0, row = v->list.top; y < body && row < v->tr.count;
	     y++, row = list_next(&v->list, row))
		for (i = 0; i < FC_COUNT; i++) {
			char *t = cell(v, app, &v->tr.findings[row], i);
			int w = (int)text_width(t);

			if (w > cols[i].want)
				cols[i].want = w;
			free(t);
		}
	columns_lay_out(cols, FC_COUNT, width,
	                columns_share(COLUMNS_NAME_SHARE, app->all_columns));
}

/* Text t in column col of line y: a number right-aligned, a name or a
 * thread shortened from the left, other text as it fits. */
static void
put_cell(struct canvas *c, const struct column *col, int i, int y,
         const char *t, enum role role)
{
	char *fit;

	if (col->kind == COLUMN_NUMBER) {
		canvas_text_right(c, col->x, y, col->width, t, role);
		return;
	}
	if (i != FC_THREAD && i != FC_CALL) {
		canvas_text(c, col->x, y, col->width, t, role);
		return;
	}
	fit = method_cut_left(t, col->width, canvas_glyph(c, GLYPH_TRUNCATED));
	canvas_text(c, col->x, y, col->width, fit, role);
	free(fit);
}

static void
fi_draw(void *state, struct app *app, struct canvas *c, int top, int height)
{
	struct findings_view *v = state;
	struct column cols[FC_COUNT];
	int body = height - 1, y, i;
	size_t row;

	compute(v);

	list_layout(&v->list, body > 0 ? (size_t)body : 0);
	lay_out(v, app, c->width, cols, body);
	canvas_fill(c, 0, top, c->width, " ", ROLE_HEADER);
	for (i = 0; i < FC_COUNT; i++)
		if (cols[i].shown)
			put_cell(c, &cols[i], -1, top, heads[i], ROLE_HEADER);
	if (!v->ok || !v->tr.count) {
		canvas_wrap(
		        c, 2, top + 2, c->width - 2, c->width - 2, height - 3,
		        v->tr.main < 0
		                ? "No findings; no main thread (no pid and "
		                  "no thread named main): its rules did not "
		                  "run"
		                : "No findings: no rule's calls reach its "
		                  "threshold (tracetui triage tells more)",
		        ROLE_NORMAL);
		return;
	}
	v->list.y = top + 1;
	for (y = 0, row = v->list.top; y < body && row < v->tr.count;
	     y++, row = list_next(&v->list, row)) {
		const struct triage_finding *f = &v->tr.findings[row];
		enum role role =
		        row == v->list.cursor ? ROLE_CURSOR : ROLE_NORMAL;
		int ry = top + 1 + y;

		if (role == ROLE_CURSOR)
			canvas_fill(c, 0, ry, c->width, " ", ROLE_CURSOR);
		for (i = 0; i < FC_COUNT; i++) {
			char *t;

			if (!cols[i].shown)
				continue;
			t = cell(v, app, f, i);
			put_cell(c, &cols[i], i, ry, t,
			         i == FC_SEV && role == ROLE_NORMAL &&
			                         f->severity != TRIAGE_INFO
			                 ? ROLE_WARNING
			                 : role);
			free(t);
		}
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
fi_title(void *state, const struct app *app, int form)
{
	static const char *const word[] = {" info", " warn", " error"};
	static const char *const letter[] = {"i", "w", "e"};
	struct findings_view *v = state;
	char *t, *more;
	int s;

	(void)app;
	compute(v);

	if (!v->ok || form > 2)
		return NULL;
	/* "0 error, 13 warn, 1 info"; then without the zeros; then
	 * "13w 1i". */
	t = xstrdup("");
	for (s = TRIAGE_ERROR; s >= TRIAGE_INFO; s--) {
		size_t n = triage_count_severity(&v->tr, s);

		if (!n && form > 0)
			continue;
		more = xasprintf("%s%s%zu%s", t,
		                 !*t        ? ""
		                 : form < 2 ? ", "
		                            : " ",
		                 n, form < 2 ? word[s] : letter[s]);
		free(t);
		t = more;
	}
	if (!*t) {
		free(t);
		t = xstrdup("no findings");
	}
	return t;
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
