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
#include "text/duration.h"
#include "tui/app.h"
#include "tui/list-table.h"
#include "util/alloc.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The columns, left to right: on screen and written by `w` (Tid, Cpu
 * ms and Pattern only there). */
enum {
	FC_SEV,
	FC_RULE,
	FC_CAT,
	FC_THREAD,
	FC_TID,
	FC_TOTAL,
	FC_CPU,
	FC_CALLS,
	FC_WORST,
	FC_CALL,
	FC_PATTERN,
	FC_COUNT
};

/* Severity, rule and category are never shortened. */
static const struct list_column columns[FC_COUNT] = {
        {"Sev", COLUMN_TEXT, INT_MAX, 1, .tsv = "Severity"},
        LIST_COLUMN("Rule", COLUMN_TEXT, INT_MAX, 1),
        LIST_COLUMN("Category", COLUMN_TEXT, INT_MAX, 1),
        LIST_COLUMN("Thread", COLUMN_TEXT, 12, 1),
        {"Tid", COLUMN_NUMBER, 0, 1, .use = LIST_WRITE},
        LIST_COLUMN("Total ms", COLUMN_NUMBER, 0, COLUMN_KEEP),
        {"Cpu ms", COLUMN_NUMBER, 0, 1, .use = LIST_WRITE},
        LIST_COLUMN("Calls", COLUMN_NUMBER, 0, 2),
        LIST_COLUMN("Worst ms", COLUMN_NUMBER, 0, 1),
        {"Longest call", COLUMN_NAME, 20, 1, .tsv = "Worst method"},
        {"Pattern", COLUMN_TEXT, 0, 1, .use = LIST_WRITE},
};

struct findings_view {
	struct list_view lv;     /* first: the list view's ops take the state */
	struct triage_rules own; /* the built-in table, without the app's */
	const struct triage_rules *rules_of; /* the app's, or &own */
	struct triage tr;
	bool ok;       /* the triage ran */
	bool computed; /* the triage ran (compute) */
	struct list_table table;
};

/* The triage, once: on first need rather than at open, so that the
 * rules the app was given after it opened its views count. */
static void
compute(struct findings_view *v)
{
	const struct app *app = v->lv.app;
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
	list_set_count(&v->lv.list, v->ok ? v->tr.count : 0);
	list_reset(&v->lv.list);
}

static list_table_cell_fn cell;

/* The severity of a finding above info stands out. */
static enum role
cell_role(void *arg, size_t row, int col)
{
	const struct findings_view *v = arg;

	return col == FC_SEV && v->tr.findings[row].severity != TRIAGE_INFO
	               ? ROLE_WARNING
	               : ROLE_NORMAL;
}

static void *
fi_open(struct app *app)
{
	struct findings_view *v = xcalloc(1, sizeof(*v));

	v->table = (struct list_table){.cols = columns,
	                               .ncols = FC_COUNT,
	                               .sort = -1,
	                               .cell = cell,
	                               .role = cell_role,
	                               .arg = v};
	list_view_open(&v->lv, app, list_table_row_matches, &v->table);
	return v;
}

static void
fi_close(void *state)
{
	struct findings_view *v = state;

	if (v->computed && v->ok)
		triage_done(&v->tr);
	triage_rules_done(&v->own);
	list_view_done(&v->lv);
	free(v);
}

static const struct triage_finding *
current(const struct findings_view *v)
{
	return v->ok && v->tr.count ? &v->tr.findings[v->lv.list.cursor] : NULL;
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

/* Row row's cell of column col, a new string. */
static char *
cell(void *arg, size_t row, int col, bool full)
{
	const struct findings_view *v = arg;
	const struct calltree *tree = v->lv.app->tree;
	const struct triage_finding *f = &v->tr.findings[row];
	const struct triage_rule *r = &v->rules_of->rules[f->rule];
	uint32_t m = calltree_method(tree, f->worst);
	char buf[DURATION_SIZE];

	switch (col) {
	case FC_SEV:
		return xstrdup(severity_word[f->severity]);
	case FC_RULE:
		return xstrdup(r->id);
	case FC_CAT:
		return xstrdup(r->category);
	case FC_THREAD:
		return xstrdup(tree->threads[f->thread].name);
	case FC_TID:
		return xasprintf("%u", tree->threads[f->thread].tid);
	case FC_TOTAL:
		if (full)
			return xstrdup(duration_ms(buf, sizeof(buf),
			                           f->total[v->tr.clock]));
		return ms_text(tree, f->total[v->tr.clock], f->lower_bound);
	case FC_CPU:
		return xstrdup(
		        duration_ms(buf, sizeof(buf), f->total[CLOCK_CPU]));
	case FC_CALLS:
		return xasprintf("%llu", (unsigned long long)f->count);
	case FC_WORST:
		if (full)
			return xstrdup(duration_ms(buf, sizeof(buf),
			                           f->worst_dur[v->tr.clock]));
		return ms_text(tree, f->worst_dur[v->tr.clock], f->worst_lower);
	case FC_CALL:
		return full ? method_full_name(&tree->methods[m])
		            : app_method_name(v->lv.app, m);
	default:
		return xstrdup(r->pattern);
	}
}

static void
fi_draw(void *state, struct app *app, struct canvas *c, int top, int height)
{
	struct findings_view *v = state;

	v->lv.app = app;
	compute(v);
	list_table_draw(
	        &v->table, &v->lv.list, c, top, height, app->all_columns,
	        v->ok && v->tr.count ? NULL
	        : v->tr.main < 0 ? "No findings; no main thread (no pid and "
	                           "no thread named main): its rules did not "
	                           "run"
	                         : "No findings: no rule's calls reach its "
	                           "threshold (tracetui triage tells more)");
}

static int
call_cmp(const void *a, const void *b, void *arg)
{
	const struct findings_view *v = arg;
	const struct calltree *tree = v->lv.app->tree;
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

	v->lv.app = app;
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

	v->lv.app = app;
	compute(v);
	if (list_move(&v->lv.list, req))
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
	compute(state);
	return list_view_mouse(state, app, ev, ask);
}

static bool
fi_find(void *state, const struct app *app, const regex_t *re, int dir,
        struct view_ask *ask)
{
	compute(state);
	return list_view_find(state, app, re, dir, ask);
}

static size_t
fi_filter(void *state, const struct app *app, const regex_t *re)
{
	compute(state);
	return list_view_filter(state, app, re);
}

static uint32_t
fi_selection(void *state)
{
	struct findings_view *v = state;
	const struct triage_finding *f;

	compute(v);
	f = current(v);
	return f ? calltree_method(v->lv.app->tree, f->worst) : CALL_NONE;
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
	struct findings_view *v = state;

	v->lv.app = app;
	compute(v);
	return list_table_rows(&v->table, &v->lv.list);
}

static const struct list *
fi_cursor(void *state)
{
	compute(state);
	return list_view_cursor(state);
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
