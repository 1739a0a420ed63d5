/*
 * diff: the per-method comparison of two traces (query/diff.h), printed as
 * a table sorted by the size of the change, and the --fail-if gate for
 * CI.  Both traces are read with the same --thread and --clock.
 *
 * Every expression is parsed before a trace is read, so a malformed one
 * costs nothing (exit 2).  Conditions that hold are printed on stderr,
 * keeping stdout the table in the format asked for; exit 1 when any
 * holds.
 *
 * Machine formats (tsv, csv, json) have the columns
 *   method status base_calls new_calls delta_calls
 *   base_excl new_excl delta_excl pct_excl base_incl new_incl delta_incl
 *   pct_incl
 * with status both, new or gone; times in integer microseconds, or with
 * --normalize the *_excl_share / *_incl_share columns: percentages of
 * each trace's total, deltas in percentage points.  A pct cell is the
 * change relative to BASE; "new" or "gone" (null in JSON) when the method
 * is absent on one side, empty (null) when BASE is zero and NEW is not.
 */
#include "config.h"

#include "cli/cmd.h"
#include "cli/diff.h"
#include "query/diff.h"
#include "query/profile.h"
#include "query/quantity.h"
#include "query/summary.h"
#include "query/triage.h"
#include "text/duration.h"
#include "text/width.h"
#include "util/alloc.h"

#include <inttypes.h>
#include <math.h> /* isinf, no libm */
#include <stdlib.h>
#include <string.h>

static const char diff_epilog[] =
        "Methods match on class, name and signature ('/' in a class reads "
        "as '.').\nTimes are on one clock: --clock, or cpu when both traces "
        "have it.\nPercentages are relative to BASE; \"new\" and \"gone\" "
        "mark methods\nfound in only one trace.\n"
        "\n"
        "--fail-if EXPR (repeatable):\n"
        "  EXPR       FUNCTION(GLOB) OP THRESHOLD  or  TOTAL OP THRESHOLD\n"
        "  FUNCTION   excl_cpu, incl_cpu, excl_wall, incl_wall or calls\n"
        "  TOTAL      total_cpu or total_wall: each trace's traced time;\n"
        "             frames, slow_frames, frozen_frames (counts),\n"
        "             frame_p50, frame_p90, frame_p95, frame_p99 or\n"
        "             frame_max (times): the frames (see tracetui frames);\n"
        "             finding_total(ID) (a time) or finding_count(ID):\n"
        "             triage rule ID's union and calls, whatever its\n"
        "             thresholds (see tracetui triage)\n"
        "  GLOB       a shell pattern over Class.method ('*' also matches "
        "dots);\n"
        "             the values of every matching method are summed\n"
        "  OP         > or <\n"
        "  THRESHOLD  a signed number and a unit: % (change relative to "
        "BASE),\n"
        "             us, ms or s (change in time; a bare number is us), a "
        "bare\n"
        "             number for calls\n"
        "  EXPR holds when NEW minus BASE (or that change in % of BASE) is "
        "above\n"
        "  (>) or below (<) THRESHOLD.  Examples:\n"
        "    --fail-if 'excl_cpu(com.example.*) > +10%'\n"
        "    --fail-if 'incl_wall(com.example.Foo.bar) > +5ms'\n"
        "    --fail-if 'calls(java.util.HashMap.get) > +1000'\n"
        "    --fail-if 'total_cpu > +3%'\n"
        "    --fail-if 'frame_p90 > +10%' --fail-if 'slow_frames > +2'\n"
        "    --fail-if 'finding_total(R6) > +20ms'\n"
        "  With --normalize, method times are shares of their trace's total:\n"
        "  % compares the shares, a time compares the change in share times\n"
        "  BASE's total; totals are always absolute.  Each condition that\n"
        "  holds is printed on stderr with both values.  A condition that\n"
        "  cannot be evaluated (its GLOB matches no method; a frame time\n"
        "  or slow count where a side has no frames) fails, saying why.\n"
        "\n"
        "Several runs per side: tracetui diff BASE... -- NEW...\n"
        "  Each method's value per run (zero where a run lacks it); the\n"
        "  median of each side, the change of the medians, the interval of\n"
        "  the shift (Hodges-Lehmann) and the two-sided Mann-Whitney U\n"
        "  p-value.  A change with p >= --alpha (default 0.05) is marked ~,\n"
        "  and --fail-if conditions hold only on significant changes.\n";

static const struct cmd_spec diff_spec = {
        .name = "diff",
        .args = "BASE NEW  or  BASE... -- NEW...",
        .summary = "Compare two traces method by method: the change in "
                   "exclusive and\ninclusive time and in calls, largest "
                   "first.",
        .options = OPT_THREAD | OPT_CLOCK | OPT_SORT | OPT_TOP | OPT_FORMAT |
                   OPT_NORMALIZE | OPT_FAIL_IF | OPT_ALPHA | OPT_SAMPLE_TYPE |
                   OPT_TRANSFORM | OPT_FRAMES,
        .min_args = 2,
        .max_args = DIFF_MAX_ARGS,
        .sort_keys = "excl (default), incl, calls, name",
        .epilog = diff_epilog,
        .profile_only = true,
        .separator = true,
};

struct diff_cmd {
	struct diff diff;
	enum clock_index clock;
	bool normalize;
	enum diff_metric sort;
	enum trace_unit unit; /* what both files' values count */
	bool sampled;         /* a side is a sampled profile (cmd_sampled) */
};

static bool
parse_sort(const char *name, enum diff_metric *m)
{
	static const struct {
		const char *name;
		enum diff_metric m;
	} keys[] = {
	        {"excl", DIFF_EXCL},   {"incl", DIFF_INCL},
	        {"calls", DIFF_CALLS}, {"name", DIFF_NAME},
	        {"method", DIFF_NAME},
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strcmp(name, keys[i].name) == 0) {
			*m = keys[i].m;
			return true;
		}
	}
	cmd_error("diff",
	          "unknown sort column '%s' (excl, incl, calls or "
	          "name)",
	          name);
	return false;
}

/* Print a malformed expression with a caret under the column. */
static void
report_malformed(const char *text, const struct diff_cond_error *err)
{
	size_t before = err->column ? err->column - 1 : 0, i, width;
	char *head;

	cmd_error("diff", "--fail-if: column %zu: %s", err->column,
	          err->message);
	cmd_print(stderr, "  %s\n  ", text);
	/* The caret goes under the escaped text, as shown. */
	if (before > strlen(text))
		before = strlen(text);
	head = xstrndup(text, before);
	width = text_width(head);
	free(head);
	for (i = 0; i < width; i++)
		fputc(' ', stderr);
	fputs("^\n", stderr);
}

static const char *
clock_name(enum clock_index k)
{
	return k == CLOCK_CPU ? "thread-cpu" : "wall";
}

/* The clock both traces are read on; false after a message. */
static bool
pick_clock(struct calltree *const trees[2], const struct cmd_opts *opts,
           enum clock_index *clock)
{
	int s;

	if (opts->clock >= 0) {
		for (s = 0; s < 2; s++)
			if (!cmd_clock(trees[s], opts, clock))
				return false;
		return true;
	}
	if (trees[0]->has_clock[CLOCK_CPU] && trees[1]->has_clock[CLOCK_CPU])
		*clock = CLOCK_CPU;
	else if (trees[0]->has_clock[CLOCK_WALL] &&
	         trees[1]->has_clock[CLOCK_WALL])
		*clock = CLOCK_WALL;
	else {
		cmd_error("diff", "%s and %s have no clock in common",
		          trees[0]->path, trees[1]->path);
		return false;
	}
	return true;
}

/* x to `decimals` places, with its sign when plus; never "-0". */
static char *
fixed(double x, int decimals, bool plus, const char *suffix)
{
	char *s = xasprintf(plus ? "%+.*f%s" : "%.*f%s", decimals, x, suffix);
	const char *p = s + (*s == '+' || *s == '-');

	while (*p == '0' || *p == '.')
		p++;
	if (!*p || !strcmp(p, suffix)) {
		free(s);
		s = xasprintf("%.*f%s", decimals, 0.0, suffix);
	}
	return s;
}

/* x rounded to `decimals` places, signed, no "-0". */
static char *
signed_fixed(double x, int decimals, const char *suffix)
{
	return fixed(x, decimals, true, suffix);
}

/* The pct cell of row's metric m; NULL when the change is infinite. */
static char *
pct_text(const struct diff_cmd *d, const struct diff_row *row,
         enum diff_metric m, bool text)
{
	double pct;

	if (!row->present[DIFF_BASE])
		return xstrdup("new");
	if (!row->present[DIFF_NEW])
		return xstrdup("gone");
	if (!diff_percent(diff_value(&d->diff, &row->v[DIFF_BASE], DIFF_BASE, m,
	                             d->clock, d->normalize),
	                  diff_value(&d->diff, &row->v[DIFF_NEW], DIFF_NEW, m,
	                             d->clock, d->normalize),
	                  &pct))
		return text ? xstrdup("+inf%") : NULL;
	return text ? signed_fixed(pct, 1, "%") : fixed(pct, 2, false, "");
}

static int64_t
time_delta(const struct diff_cmd *d, const struct diff_row *row,
           enum diff_metric m)
{
	const uint64_t *b = m == DIFF_INCL ? row->v[DIFF_BASE].incl
	                                   : row->v[DIFF_BASE].excl;
	const uint64_t *n =
	        m == DIFF_INCL ? row->v[DIFF_NEW].incl : row->v[DIFF_NEW].excl;

	return (int64_t)(n[d->clock] - b[d->clock]);
}

static double
share(const struct diff_cmd *d, const struct diff_row *row, enum diff_side s,
      enum diff_metric m)
{
	return diff_value(&d->diff, &row->v[s], s, m, d->clock, true);
}

static void
take(struct table *t, char *s)
{
	if (s)
		table_str(t, s);
	else
		table_empty(t);
	free(s);
}

/* A value in ms, or in the unit a profile's values have. */
static void
ms_cell(struct table *t, uint64_t us, enum trace_unit unit)
{
	char buf[64];

	if (unit == TRACE_UNIT_US) {
		table_ms(t, us);
		return;
	}
	quantity_format(buf, sizeof(buf), us, unit, false);
	table_str(t, buf);
}

/* A signed change in ms, or in the unit a profile's values have. */
static void
ms_signed_cell(struct table *t, int64_t v, enum trace_unit unit)
{
	uint64_t a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	char buf[64];

	if (unit == TRACE_UNIT_US) {
		table_ms_signed(t, v);
		return;
	}
	quantity_format(buf, sizeof(buf), a, unit, false);
	take(t, xasprintf("%s%s", v > 0 ? "+" : v < 0 ? "-" : "", buf));
}

/* The text table; a sampled profile's (d->sampled) without Calls
 * Diff, its runs of samples being no calls. */
static struct table *
text_table(const struct diff_cmd *d, size_t n)
{
	static const char *const names[] = {
	        "Excl Base", "Excl New", "Excl Diff",  "Excl %",
	        "Incl Diff", "Incl %",   "Calls Diff", "Method",
	};
	static const enum table_kind kinds[] = {
	        TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER,
	        TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER, TABLE_STRING,
	};
	enum diff_metric shown = d->sort == DIFF_INCL ? DIFF_INCL : DIFF_EXCL;
	const char *head[8];
	enum table_kind head_kinds[8];
	struct table *t;
	size_t i;
	int s;

	memcpy(head, names, sizeof(head));
	memcpy(head_kinds, kinds, sizeof(head_kinds));
	if (shown == DIFF_INCL) {
		head[0] = "Incl Base";
		head[1] = "Incl New";
	}
	if (d->sampled) {
		head[6] = head[7];
		head_kinds[6] = TABLE_STRING;
	}
	t = table_new(d->sampled ? 7 : 8, head, head_kinds);
	for (i = 0; i < n; i++) {
		const struct diff_row *row = &d->diff.rows[i];
		enum diff_metric m;

		table_row(t);
		for (s = 0; s < 2; s++) {
			if (!row->present[s])
				table_str(t, "-");
			else if (d->normalize)
				table_fmt(t, "%.2f%%",
				          share(d, row, (enum diff_side)s,
				                shown));
			else
				ms_cell(t,
				        shown == DIFF_INCL
				                ? row->v[s].incl[d->clock]
				                : row->v[s].excl[d->clock],
				        d->unit);
		}
		for (m = DIFF_EXCL; m <= DIFF_INCL; m++) {
			if (d->normalize)
				take(t,
				     signed_fixed(share(d, row, DIFF_NEW, m) -
				                          share(d, row,
				                                DIFF_BASE, m),
				                  2, "pt"));
			else
				ms_signed_cell(t, time_delta(d, row, m),
				               d->unit);
			take(t, pct_text(d, row, m, true));
		}
		if (!d->sampled)
			take(t, signed_fixed(
			                (double)row->v[DIFF_NEW].calls -
			                        (double)row->v[DIFF_BASE].calls,
			                0, ""));
		table_str(t, row->name);
	}
	return t;
}

static struct table *
machine_table(const struct diff_cmd *d, size_t n, enum table_format format)
{
	static const char *const names[] = {
	        "method",      "status",    "base_calls", "new_calls",
	        "delta_calls", "base_excl", "new_excl",   "delta_excl",
	        "pct_excl",    "base_incl", "new_incl",   "delta_incl",
	        "pct_incl",
	};
	static const char *const share_names[] = {
	        "method",          "status",           "base_calls",
	        "new_calls",       "delta_calls",      "base_excl_share",
	        "new_excl_share",  "delta_excl_share", "pct_excl",
	        "base_incl_share", "new_incl_share",   "delta_incl_share",
	        "pct_incl",
	};
	static const enum table_kind kinds[] = {
	        TABLE_STRING, TABLE_STRING, TABLE_NUMBER, TABLE_NUMBER,
	        TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER,
	        TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER,
	        TABLE_NUMBER,
	};
	struct table *t =
	        table_new(13, d->normalize ? share_names : names, kinds);
	size_t i;

	for (i = 0; i < n; i++) {
		const struct diff_row *row = &d->diff.rows[i];
		const struct diff_values *b = &row->v[DIFF_BASE];
		const struct diff_values *nv = &row->v[DIFF_NEW];
		enum diff_metric m;

		table_row(t);
		table_str(t, row->name);
		table_str(t, !row->present[DIFF_BASE]  ? "new"
		             : !row->present[DIFF_NEW] ? "gone"
		                                       : "both");
		table_u64(t, b->calls);
		table_u64(t, nv->calls);
		table_i64(t, (int64_t)(nv->calls - b->calls));
		for (m = DIFF_EXCL; m <= DIFF_INCL; m++) {
			char *pct = pct_text(d, row, m, false);

			if (d->normalize) {
				double sb = share(d, row, DIFF_BASE, m);
				double sn = share(d, row, DIFF_NEW, m);

				table_fmt(t, "%.4f", sb);
				table_fmt(t, "%.4f", sn);
				take(t, fixed(sn - sb, 4, false, ""));
			} else {
				uint64_t vb = m == DIFF_INCL
				                      ? b->incl[d->clock]
				                      : b->excl[d->clock];
				uint64_t vn = m == DIFF_INCL
				                      ? nv->incl[d->clock]
				                      : nv->excl[d->clock];

				table_u64(t, vb);
				table_u64(t, vn);
				table_i64(t, (int64_t)(vn - vb));
			}
			/* JSON numbers cannot say "new": status does. */
			if (pct && format == TABLE_JSON &&
			    (!row->present[DIFF_BASE] ||
			     !row->present[DIFF_NEW])) {
				free(pct);
				pct = NULL;
			}
			if (pct)
				table_fmt(t, "%s", pct);
			else
				table_empty(t);
			free(pct);
		}
	}
	return t;
}

/* "1.234 ms", "12.50% of total" or "42 calls". */
static char *
cond_value_text(const struct diff_cond *c, double v, bool normalize)
{
	if (c->frame && diff_frame_is_count(c->frame))
		return xasprintf("%.0f %s", v,
		                 c->frame == DIFF_FRAME_COUNT ? "frames"
		                 : c->frame == DIFF_FRAME_SLOW
		                         ? "slow frames"
		                         : "frozen frames");
	if ((!c->total || c->finding) && c->metric == DIFF_CALLS)
		return xasprintf("%.0f calls", v);
	if (!c->total && normalize)
		return xasprintf("%.2f%% of total", v);
	return xasprintf("%.3f ms", v / 1000);
}

static char *
cond_change_text(const struct diff_cond *c, const struct diff_cond_result *r)
{
	if (isinf(r->change))
		return xstrdup("+inf%");
	if (c->unit == DIFF_UNIT_PERCENT)
		return signed_fixed(r->change, 1, "%");
	if ((!c->total || c->frame || c->finding) && c->metric == DIFF_CALLS)
		return signed_fixed(r->change, 0, "");
	return signed_fixed(r->change / 1000, 3, " ms");
}

bool
diff_cond_unevaluable(const struct diff_cond *c,
                      const struct diff_cond_result *r,
                      const char *const side[2], const char *where)
{
	const char *missing = diff_cond_missing(c, r);

	if (!missing)
		return false;
	if (!c->frame)
		cmd_error("diff",
		          "--fail-if '%s' cannot be evaluated: no method "
		          "matches '%s' in %s",
		          c->text, c->glob, where);
	else if (r->no_frames[DIFF_BASE] && r->no_frames[DIFF_NEW])
		cmd_error("diff",
		          "--fail-if '%s' cannot be evaluated: neither %s nor "
		          "%s has frames ('tracetui frames', --frame-method)",
		          c->text, side[DIFF_BASE], side[DIFF_NEW]);
	else
		cmd_error("diff",
		          "--fail-if '%s' cannot be evaluated: %s has no "
		          "frames ('tracetui frames', --frame-method)",
		          c->text, side[r->no_frames[DIFF_NEW]]);
	return true;
}

/* Evaluate every condition; print those that hold, and why one cannot
 * be evaluated.  True when one holds or cannot be evaluated. */
static bool
check_conditions(const struct diff_cmd *d, const struct diff_cond *conds,
                 size_t n, struct calltree *const trees[2])
{
	const char *const side[2] = {trees[0]->path, trees[1]->path};
	bool any = false;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct diff_cond *c = &conds[i];
		struct diff_cond_result r;
		char *vb, *vn, *ch;

		diff_cond_eval(c, &d->diff, d->normalize, &r);
		if (diff_cond_unevaluable(c, &r, side, "either trace")) {
			any = true;
			continue;
		}
		if (!r.holds)
			continue;
		any = true;
		vb = cond_value_text(c, r.value[DIFF_BASE], d->normalize);
		vn = cond_value_text(c, r.value[DIFF_NEW], d->normalize);
		ch = cond_change_text(c, &r);
		cmd_error("diff", "condition holds: %s: base %s, new %s (%s)",
		          c->text, vb, vn, ch);
		free(vb);
		free(vn);
		free(ch);
	}
	return any;
}

/* The clocks the conditions read exist in both traces; else a message. */
static bool
conditions_have_clocks(const struct diff_cond *conds, size_t n,
                       struct calltree *const trees[2])
{
	size_t i;
	int s;

	for (i = 0; i < n; i++) {
		if ((!conds[i].total && conds[i].metric == DIFF_CALLS) ||
		    conds[i].frame || conds[i].finding)
			continue;
		for (s = 0; s < 2; s++) {
			if (trees[s]->has_clock[conds[i].clock])
				continue;
			cmd_error("diff", "--fail-if '%s': %s has no %s clock",
			          conds[i].text, trees[s]->path,
			          clock_name(conds[i].clock));
			return false;
		}
	}
	return true;
}

/* Warn when one trace is sampled and the other instrumented: their
 * calls and times do not measure the same thing. */
static void
warn_sampling(struct calltree *const trees[2])
{
	int s;

	if (trees[0]->sampled == trees[1]->sampled)
		return;
	s = trees[0]->sampled ? 0 : 1;
	diff_warn_sampling(trees[s]->path, trees[!s]->path);
}

/* The rules the finding conditions name exist; else a message. */
static bool
conditions_have_rules(const struct diff_cond *conds, size_t n,
                      const struct triage_rules *rules)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!conds[i].finding ||
		    triage_rules_find(rules, conds[i].rule))
			continue;
		cmd_error("diff",
		          "--fail-if '%s': no triage rule has the id '%s' "
		          "(see TRIAGE in tracetui(1))",
		          conds[i].text, conds[i].rule);
		return false;
	}
	return true;
}

/* Every rule's numbers on side s, for the finding conditions. */
static void
add_findings(struct diff *d, enum diff_side s, const struct cmd_opts *opts,
             const struct calltree *tree, const struct triage_rules *rules)
{
	char why[256];
	bool *is_frame =
	        frames_methods(tree, opts->frame_method, why, sizeof(why));
	struct triage tr;
	size_t r;

	/* cmd_parse checked the frame expression, the rules are built in:
	 * neither fails. */
	if (is_frame &&
	    triage_compute(&tr, tree, rules, is_frame, cmd_frame_budget(opts),
	                   why, sizeof(why))) {
		for (r = 0; r < rules->count; r++)
			diff_add_finding(d, s, rules->rules[r].id,
			                 (double)tr.rule_total[r],
			                 (double)tr.rule_count[r]);
		triage_done(&tr);
	}
	free(is_frame);
}

void
diff_frames_of(const struct cmd_opts *opts, const struct calltree *tree,
               const struct scope *scope, struct frame_summary *out)
{
	char why[256];
	bool *is_frame =
	        frames_methods(tree, opts->frame_method, why, sizeof(why));
	struct frames fr;

	/* cmd_parse checked the expression: is_frame is never NULL. */
	frames_find(&fr, tree, scope, is_frame, cmd_frame_budget(opts));
	frames_summarize(&fr, 0, fr.count, out);
	frames_done(&fr);
	free(is_frame);
}

/* "25 frames, 13 slow, 0 frozen; p50 17.955 ... max 156.931 ms", with
 * signs for a change, and ~ after a change that is not significant. */
static void
print_frame_numbers(const double *v, bool change, const bool *significant)
{
	static const char *const words[] = {"", "frames", "slow", "frozen"};
	int m;

	for (m = DIFF_FRAME_COUNT; m < DIFF_FRAME_METRICS; m++) {
		const char *mark = significant && !significant[m] ? "~" : "";
		char *x;

		if (diff_frame_is_count((enum diff_frame_metric)m)) {
			x = fixed(v[m], v[m] == floor(v[m]) ? 0 : 1, change,
			          "");
			printf("%s%s%s %s", m > DIFF_FRAME_COUNT ? ", " : "", x,
			       mark, words[m]);
		} else {
			x = fixed(v[m] / 1000, 3, change, "");
			/* "frame_p90" is written "p90". */
			printf("%s %s %s%s", m == DIFF_FRAME_P50 ? ";" : "",
			       diff_frame_name((enum diff_frame_metric)m) + 6,
			       x, mark);
		}
		free(x);
	}
	printf(" ms\n");
}

void
diff_print_frames(const double value[2][DIFF_FRAME_METRICS],
                  const bool *significant)
{
	static const char *const label[] = {"base:", "new: "};
	double change[DIFF_FRAME_METRICS] = {0};
	int s, m;

	if (!value[0][DIFF_FRAME_COUNT] && !value[1][DIFF_FRAME_COUNT])
		return;
	for (s = 0; s < 2; s++) {
		printf("frames %s %s", label[s], significant ? "median " : "");
		print_frame_numbers(value[s], false, NULL);
	}
	for (m = 0; m < DIFF_FRAME_METRICS; m++)
		change[m] = value[1][m] - value[0][m];
	printf("frames change: ");
	print_frame_numbers(change, true, significant);
}

static void
print_header(const struct diff_cmd *d, struct calltree *const trees[2],
             const struct scope scopes[2])
{
	static const char *const label[] = {"base:", "new: "};
	const struct diff *df = &d->diff;
	size_t both = df->nrows - df->only[DIFF_BASE] - df->only[DIFF_NEW];
	char *note;
	int s;

	for (s = 0; s < 2; s++) {
		uint64_t total = df->total[s][d->clock];
		const char *type =
		        calltree_property(trees[s], "pprof-sample-type");

		if (!type)
			type = calltree_property(trees[s],
			                         "simpleperf-event-type");
		char text[64];
		/* The threads the total sums, as report counts them (a
		 * focus: those with a focused call). */
		size_t nthreads = scope_thread_count(&scopes[s], trees[s]);

		quantity_format(text, sizeof(text), total, d->unit, true);
		cmd_print(stdout, "%s %s: %s%s, total %s over %zu thread%s",
		          label[s], trees[s]->path,
		          type ? type : clock_name(d->clock),
		          type ? "" : " clock", text, nthreads,
		          nthreads == 1 ? "" : "s");
		if (s == DIFF_NEW) {
			double pct;
			char *p;

			if (diff_percent((double)df->total[0][d->clock],
			                 (double)total, &pct))
				p = signed_fixed(pct, 1, "%");
			else
				p = xstrdup("+inf%");
			printf(" (%s)", p);
			free(p);
		}
		putchar('\n');
		note = summary_sampled_note(trees[s]);
		if (note)
			printf("%s %s\n", label[s], note);
		free(note);
	}
	printf("methods: %zu in both, %zu only in base (gone), %zu only in "
	       "new\n",
	       both, df->only[DIFF_BASE], df->only[DIFF_NEW]);
	{
		double v[2][DIFF_FRAME_METRICS] = {{0}};
		int m;

		for (s = 0; s < 2; s++)
			for (m = 1; m < DIFF_FRAME_METRICS; m++)
				v[s][m] = diff_frame_value(
				        &df->run_frames[s][0],
				        (enum diff_frame_metric)m);
		diff_print_frames((const double(*)[DIFF_FRAME_METRICS])v, NULL);
		for (s = 0; s < 2; s++)
			if (frames_offcpu_note(trees[s])) {
				printf("frames %s %s\n", label[s],
				       frames_offcpu_note(trees[s]));
				break;
			}
	}
	if (d->normalize)
		printf("times are shares of each trace's total; differences "
		       "in percentage points (pt)\n");
}

int
cmd_diff(int argc, char **argv)
{
	struct cmd_opts opts;
	struct calltree *trees[2] = {NULL, NULL};
	struct scope scopes[2] = {{0}, {0}};
	struct profile profiles[2] = {{0}, {0}};
	struct diff_cmd d = {0};
	struct diff_cond *conds = NULL;
	struct triage_rules rules = {0};
	struct table *t;
	size_t nconds = 0, n, i;
	bool any_finding = false;
	int status = cmd_parse(&diff_spec, argc, argv, &opts), s;

	if (status >= 0)
		return status;
	if (diff_runs_wanted(&opts)) {
		status = diff_runs(&opts);
		cmd_opts_done(&opts);
		return status;
	}
	status = CMD_USAGE;
	if (opts.nargs != 2) {
		cmd_error("diff", "expected BASE NEW, or BASE... -- NEW... "
		                  "(see 'tracetui diff --help')");
		goto out;
	}
	d.sort = DIFF_EXCL;
	d.normalize = opts.normalize;
	if (opts.sort && !parse_sort(opts.sort, &d.sort))
		goto out;
	conds = xcalloc(opts.nfail_if + 1, sizeof(*conds));
	for (i = 0; i < opts.nfail_if; i++) {
		struct diff_cond_error err;

		if (!diff_cond_parse(&conds[nconds], opts.fail_if[i], &err)) {
			report_malformed(opts.fail_if[i], &err);
			goto out;
		}
		nconds++;
	}
	triage_rules_builtin(&rules);
	for (i = 0; i < nconds; i++)
		any_finding |= conds[i].finding != DIFF_FINDING_NONE;
	if (!conditions_have_rules(conds, nconds, &rules))
		goto out;
	/* A rule's calls are the model's, not the sums'. */
	if (any_finding)
		opts.profile_only = opts.sum_frames = false;
	for (s = 0; s < 2; s++) {
		trees[s] = cmd_load(&opts, opts.args[s]);
		if (!trees[s]) {
			status = cmd_load_status();
			goto out;
		}
	}
	for (s = 0; s < 2; s++)
		if (!cmd_scope(&scopes[s], trees[s], &opts))
			goto out;
	warn_sampling(trees);
	if (!pick_clock(trees, &opts, &d.clock) ||
	    !conditions_have_clocks(conds, nconds, trees))
		goto out;
	d.unit = trees[1]->header.unit;
	d.sampled = cmd_sampled(trees[0]) || cmd_sampled(trees[1]);
	if (trees[0]->header.unit != d.unit) {
		cmd_error("diff",
		          "%s and %s count different things (%s and %s); "
		          "compare profiles of one sample type",
		          trees[0]->path, trees[1]->path,
		          quantity_label(trees[0]->header.unit),
		          quantity_label(d.unit));
		goto out;
	}
	for (s = 0; s < 2; s++)
		profile_compute(&profiles[s], trees[s], &scopes[s]);
	diff_compute(&d.diff, trees[0], &profiles[0], trees[1], &profiles[1]);
	for (s = 0; s < 2; s++) {
		struct frame_summary fs;

		diff_frames_of(&opts, trees[s], &scopes[s], &fs);
		diff_add_frames(&d.diff, (enum diff_side)s, &fs);
		if (any_finding)
			add_findings(&d.diff, (enum diff_side)s, &opts,
			             trees[s], &rules);
	}
	diff_sort(&d.diff, d.sort, d.clock, d.normalize);
	n = d.diff.nrows;
	if (opts.top >= 0 && (size_t)opts.top < n)
		n = (size_t)opts.top;
	if (opts.format == TABLE_TEXT) {
		print_header(&d, trees, scopes);
		t = text_table(&d, n);
	} else {
		t = machine_table(&d, n, opts.format);
	}
	table_print(t, stdout, opts.format);
	table_free(t);
	cmd_flush();
	status = check_conditions(&d, conds, nconds, trees) ? CMD_FAIL : CMD_OK;
out:
	for (i = 0; i < nconds; i++)
		diff_cond_done(&conds[i]);
	free(conds);
	triage_rules_done(&rules);
	diff_done(&d.diff);
	for (s = 0; s < 2; s++) {
		profile_done(&profiles[s]);
		if (scopes[s].on)
			scope_done(&scopes[s]);
		calltree_free(trees[s]);
	}
	cmd_opts_done(&opts);
	return status;
}

/* What diff-runs.c shares (cli/diff.h). */

bool
diff_parse_sort(const char *name, enum diff_metric *m)
{
	return parse_sort(name, m);
}

void
diff_report_malformed(const char *text, const struct diff_cond_error *err)
{
	report_malformed(text, err);
}

char *
diff_fixed(double x, int decimals, bool plus, const char *suffix)
{
	return fixed(x, decimals, plus, suffix);
}

char *
diff_cond_value_text(const struct diff_cond *c, double v, bool normalize)
{
	return cond_value_text(c, v, normalize);
}

void
diff_warn_sampling(const char *sampled, const char *instrumented)
{
	cmd_error("diff",
	          "warning: %s is sampled and %s instrumented: calls and "
	          "times compare estimates with measurements",
	          sampled, instrumented);
}

char *
diff_cond_change_text(const struct diff_cond *c,
                      const struct diff_cond_result *r)
{
	return cond_change_text(c, r);
}
