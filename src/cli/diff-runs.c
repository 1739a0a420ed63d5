/*
 * diff-runs: `tracetui diff BASE... -- NEW...`, several runs per side.
 * Each trace is read, profiled and let go in turn (query/diff.h keeps
 * only its per-method values), so many runs cost the memory of one.  Per
 * method the table gives the medians of the runs, their change, the
 * Hodges-Lehmann shift's interval and the Mann-Whitney p-value
 * (query/diff-stats.h); the change is marked ~ when p >= --alpha, and a
 * --fail-if condition holds only when its runs differ significantly.
 * cmd_load applies the thread, mapping and transform options to each run
 * as to one trace; runs that mix sampled and instrumented recordings get
 * one warning.
 *
 * Machine formats (tsv, csv, json) have the columns
 *   method status base_runs new_runs
 * then for each of calls, excl and incl (times: *_share with --normalize)
 *   base_M new_M delta_M pct_M shift_M low_M high_M p_M significant_M
 * base and new are medians, delta their difference, pct it in percent
 * of base (as in the two-trace form), shift the Hodges-Lehmann estimate,
 * low and high its interval (empty, null in JSON, when the runs are too
 * few for the level), p the two-sided p-value, significant true or
 * false.  Times are microseconds, medians of an even count may end in .5.
 */
#include "config.h"

#include "cli/diff.h"

#include "query/diff-stats.h"
#include "query/summary.h"
#include "query/quantity.h"
#include "query/profile.h"
#include "util/alloc.h"
#include "util/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct runs_cmd {
	const struct cmd_opts *opts;
	char **files[2];
	size_t nfiles[2];
	struct diff diff;
	struct diff_stats st;
	enum clock_index clock;
	enum diff_metric sort;
	bool normalize;
	const char *first_of_kind[2]; /* [sampled]: the first such run */
	const char *first_path;       /* the first run read, and its unit */
	enum trace_unit first_unit;
	bool profiles; /* a run is a sampled profile (cmd_sampled) */
	char *note[2]; /* each side's first run's sampled note, or NULL */
};

bool
diff_runs_wanted(struct cmd_opts *opts)
{
	int i;

	for (i = 0; i < opts->nargs; i++)
		if (strcmp(opts->args[i], "--") == 0)
			break;
	if (i == opts->nargs)
		return false;
	if (i == 1 && opts->nargs == 3) {
		opts->args[1] = opts->args[2];
		opts->nargs = 2;
		return false;
	}
	return true;
}

static const char *
clock_name(enum clock_index k)
{
	return k == CLOCK_CPU ? "thread-cpu" : "wall";
}

/* Split opts' arguments at "--"; false after a message. */
static bool
split_sides(struct runs_cmd *d)
{
	const struct cmd_opts *o = d->opts;
	int i;

	for (i = 0; i < o->nargs && strcmp(o->args[i], "--") != 0; i++)
		;
	d->files[DIFF_BASE] = o->args;
	d->nfiles[DIFF_BASE] = (size_t)i;
	d->files[DIFF_NEW] = o->args + i + 1;
	d->nfiles[DIFF_NEW] = (size_t)(o->nargs - i - 1);
	for (i = 0; i < (int)d->nfiles[DIFF_NEW]; i++)
		if (strcmp(d->files[DIFF_NEW][i], "--") == 0) {
			cmd_error("diff", "'--' twice: expected BASE... -- "
			                  "NEW...");
			return false;
		}
	if (!d->nfiles[DIFF_BASE] || !d->nfiles[DIFF_NEW]) {
		cmd_error("diff",
		          "no trace %s '--': expected BASE... -- "
		          "NEW...",
		          d->nfiles[DIFF_BASE] ? "after" : "before");
		return false;
	}
	return true;
}

/* The clocks the conditions read exist in tree; else a message. */
static bool
tree_has_condition_clocks(const struct calltree *tree,
                          const struct diff_cond *conds, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if ((!conds[i].total && conds[i].metric == DIFF_CALLS) ||
		    conds[i].frame)
			continue;
		if (tree->has_clock[conds[i].clock])
			continue;
		cmd_error("diff", "--fail-if '%s': %s has no %s clock",
		          conds[i].text, tree->path,
		          clock_name(conds[i].clock));
		return false;
	}
	return true;
}

/* tree counts what the first run counts; else a message. */
static bool
same_unit(struct runs_cmd *d, const char *path, const struct calltree *tree)
{
	d->profiles |= cmd_sampled(tree);
	if (!d->first_path) {
		d->first_path = path;
		d->first_unit = tree->header.unit;
		return true;
	}
	if (tree->header.unit == d->first_unit)
		return true;
	cmd_error("diff",
	          "%s and %s count different things (%s and %s); "
	          "compare profiles of one sample type",
	          d->first_path, path, quantity_label(d->first_unit),
	          quantity_label(tree->header.unit));
	return false;
}

/* Read every run of both sides into d->diff; the exit status, or -1. */
static int
read_runs(struct runs_cmd *d, const struct diff_cond *conds, size_t nconds)
{
	size_t i;
	int s;

	diff_begin(&d->diff);
	for (s = 0; s < 2; s++)
		for (i = 0; i < d->nfiles[s]; i++) {
			struct calltree *tree =
			        cmd_load(d->opts, d->files[s][i]);
			struct scope scope;
			struct profile profile;
			enum clock_index k;

			if (!tree)
				return cmd_load_status();
			if (!cmd_scope(&scope, tree, d->opts)) {
				calltree_free(tree);
				return CMD_USAGE;
			}
			if ((d->opts->clock >= 0 &&
			     !cmd_clock(tree, d->opts, &k)) ||
			    !tree_has_condition_clocks(tree, conds, nconds) ||
			    !same_unit(d, d->files[s][i], tree)) {
				scope_done(&scope);
				calltree_free(tree);
				return CMD_USAGE;
			}
			if (!d->first_of_kind[tree->sampled])
				d->first_of_kind[tree->sampled] =
				        d->files[s][i];
			if (!i)
				d->note[s] = summary_sampled_note(tree);
			profile_compute(&profile, tree, &scope);
			diff_add_run(&d->diff, (enum diff_side)s, tree,
			             &profile);
			{
				struct frame_summary fs;

				diff_frames_of(d->opts, tree, &scope, &fs);
				diff_add_frames(&d->diff, (enum diff_side)s,
				                &fs);
			}
			profile_done(&profile);
			scope_done(&scope);
			calltree_free(tree);
		}
	/* Once for all the runs, however many of each kind. */
	if (d->first_of_kind[true] && d->first_of_kind[false])
		diff_warn_sampling(d->first_of_kind[true],
		                   d->first_of_kind[false]);
	diff_finish(&d->diff);
	return -1;
}

/* The clock every run has; false after a message. */
static bool
pick_clock(struct runs_cmd *d)
{
	bool(*has)[CLOCK_COUNT] = d->diff.has_clock;

	if (d->opts->clock >= 0)
		d->clock = (enum clock_index)d->opts->clock;
	else if (has[DIFF_BASE][CLOCK_CPU] && has[DIFF_NEW][CLOCK_CPU])
		d->clock = CLOCK_CPU;
	else if (has[DIFF_BASE][CLOCK_WALL] && has[DIFF_NEW][CLOCK_WALL])
		d->clock = CLOCK_WALL;
	else {
		cmd_error("diff", "the runs have no clock in common");
		return false;
	}
	return true;
}

/* A median, delta or shift: whole units, or .5 of one; shares to 4
 * places. */
static char *
value_text(const struct runs_cmd *d, enum diff_metric m, double x)
{
	if (d->normalize && m != DIFF_CALLS)
		return diff_fixed(x, 4, false, "");
	return diff_fixed(x, x == floor(x) ? 0 : 1, false, "");
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

static const char *
status_of(const struct diff_row *row)
{
	return !row->present[DIFF_BASE]  ? "new"
	       : !row->present[DIFF_NEW] ? "gone"
	                                 : "both";
}

static struct table *
machine_table(struct runs_cmd *d, size_t n, enum table_format format)
{
	static const char *const metric_names[] = {"calls", "excl", "incl"};
	static const enum diff_metric metrics[] = {DIFF_CALLS, DIFF_EXCL,
	                                           DIFF_INCL};
	static const char *const fields[] = {"base", "new",   "delta",
	                                     "pct",  "shift", "low",
	                                     "high", "p",     "significant"};
	enum { NFIELDS = 9, NCOLS = 4 + 3 * NFIELDS };
	char *names[NCOLS];
	const char *heads[NCOLS];
	enum table_kind kinds[NCOLS];
	struct table *t;
	size_t i, c = 0, f;
	int mi;

	names[c++] = xstrdup("method");
	names[c++] = xstrdup("status");
	names[c++] = xstrdup("base_runs");
	names[c++] = xstrdup("new_runs");
	for (mi = 0; mi < 3; mi++)
		for (f = 0; f < NFIELDS; f++) {
			bool share = d->normalize &&
			             metrics[mi] != DIFF_CALLS && f < 3;

			names[c++] = xasprintf("%s_%s%s", fields[f],
			                       metric_names[mi],
			                       share ? "_share" : "");
		}
	for (c = 0; c < NCOLS; c++) {
		heads[c] = names[c];
		kinds[c] = c < 2 ? TABLE_STRING : TABLE_NUMBER;
	}
	t = table_new(NCOLS, heads, kinds);
	for (c = 0; c < NCOLS; c++)
		free(names[c]);
	for (i = 0; i < n; i++) {
		const struct diff_row *row = &d->diff.rows[i];
		bool one_side =
		        !row->present[DIFF_BASE] || !row->present[DIFF_NEW];

		table_row(t);
		table_str(t, row->name);
		table_str(t, status_of(row));
		table_u64(t, d->diff.nruns[DIFF_BASE]);
		table_u64(t, d->diff.nruns[DIFF_NEW]);
		for (mi = 0; mi < 3; mi++) {
			struct diff_stat st;
			double pct;

			diff_stats_row(&d->st, row, metrics[mi], &st);
			take(t,
			     value_text(d, metrics[mi], st.median[DIFF_BASE]));
			take(t,
			     value_text(d, metrics[mi], st.median[DIFF_NEW]));
			take(t, value_text(d, metrics[mi], st.delta));
			if (one_side && format == TABLE_JSON)
				table_empty(t);
			else if (one_side)
				table_str(t, status_of(row));
			else if (diff_percent(st.median[DIFF_BASE],
			                      st.median[DIFF_NEW], &pct))
				take(t, diff_fixed(pct, 2, false, ""));
			else
				table_empty(t);
			take(t, value_text(d, metrics[mi], st.shift.estimate));
			take(t, st.shift.has_ci ? value_text(d, metrics[mi],
			                                     st.shift.low)
			                        : NULL);
			take(t, st.shift.has_ci ? value_text(d, metrics[mi],
			                                     st.shift.high)
			                        : NULL);
			take(t, diff_fixed(st.test.p, 6, false, ""));
			table_str(t, st.significant ? "true" : "false");
		}
	}
	return t;
}

/* A change in the text table: ms to 3 places, or points to 2. */
static char *
change_text(const struct runs_cmd *d, double x)
{
	if (d->normalize)
		return diff_fixed(x, 2, true, "pt");
	return diff_fixed(x / 1000, 3, true, "");
}

static char *
p_text(double p)
{
	return p < 0.001 ? xstrdup("<0.001") : diff_fixed(p, 3, false, "");
}

static struct table *
text_table(struct runs_cmd *d, size_t n)
{
	static const enum table_kind kinds[] = {
	        TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER,
	        TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER, TABLE_STRING,
	};
	static const enum table_kind profile_kinds[] = {
	        TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER,
	        TABLE_NUMBER, TABLE_NUMBER, TABLE_STRING,
	};
	enum diff_metric shown = d->sort == DIFF_INCL ? DIFF_INCL : DIFF_EXCL;
	const char *word = shown == DIFF_INCL ? "Incl" : "Excl";
	char *names[4];
	const char *head[8];
	struct table *t;
	size_t i;
	int c;

	names[0] = xasprintf("%s Base", word);
	names[1] = xasprintf("%s New", word);
	names[2] = xasprintf("%s Diff", word);
	names[3] = xasprintf("%s %%", word);
	for (c = 0; c < 4; c++)
		head[c] = names[c];
	head[4] = "Shift CI";
	head[5] = "p";
	head[6] = "Calls Diff";
	head[7] = "Method";
	/* A sampled profile's runs of samples are no calls. */
	if (d->profiles)
		head[6] = head[7];
	t = table_new(d->profiles ? 7 : 8, head,
	              d->profiles ? profile_kinds : kinds);
	for (c = 0; c < 4; c++)
		free(names[c]);
	for (i = 0; i < n; i++) {
		const struct diff_row *row = &d->diff.rows[i];
		struct diff_stat st, calls;
		double pct;
		int s;

		diff_stats_row(&d->st, row, shown, &st);
		diff_stats_row(&d->st, row, DIFF_CALLS, &calls);
		table_row(t);
		for (s = 0; s < 2; s++) {
			if (!row->present[s])
				table_str(t, "-");
			else if (d->normalize)
				table_fmt(t, "%.2f%%", st.median[s]);
			else
				table_ms(t, (uint64_t)llround(st.median[s]));
		}
		take(t, change_text(d, st.delta));
		if (!st.significant)
			table_str(t, "~");
		else if (!row->present[DIFF_BASE])
			table_str(t, "new");
		else if (!row->present[DIFF_NEW])
			table_str(t, "gone");
		else if (diff_percent(st.median[DIFF_BASE], st.median[DIFF_NEW],
		                      &pct))
			take(t, diff_fixed(pct, 1, true, "%"));
		else
			table_str(t, "+inf%");
		if (st.shift.has_ci) {
			char *lo = change_text(d, st.shift.low);
			char *hi = change_text(d, st.shift.high);

			table_fmt(t, "%s..%s", lo, hi);
			free(lo);
			free(hi);
		} else {
			table_str(t, "-");
		}
		take(t, p_text(st.test.p));
		if (!d->profiles)
			take(t,
			     diff_fixed(calls.delta,
			                calls.delta == floor(calls.delta) ? 0
			                                                  : 1,
			                true, ""));
		table_str(t, row->name);
	}
	return t;
}

/* The medians of the runs' frame numbers, and whether each changed
 * significantly, by the test of the method rows. */
static void
print_frames(struct runs_cmd *d)
{
	double v[2][DIFF_FRAME_METRICS] = {{0}};
	bool significant[DIFF_FRAME_METRICS] = {false};
	int m, s;

	for (m = DIFF_FRAME_COUNT; m < DIFF_FRAME_METRICS; m++) {
		struct diff_cond c = {0};
		struct diff_cond_result r;
		struct diff_stat st;

		c.total = true;
		c.frame = (enum diff_frame_metric)m;
		c.metric =
		        diff_frame_is_count(c.frame) ? DIFF_CALLS : DIFF_EXCL;
		c.op = '>';
		diff_stats_cond_eval(&d->st, &c, &r, &st);
		for (s = 0; s < 2; s++)
			v[s][m] = st.median[s];
		significant[m] = st.significant;
	}
	diff_print_frames((const double(*)[DIFF_FRAME_METRICS])v, significant);
}

static void
print_header(struct runs_cmd *d)
{
	static const char *const label[] = {"base:", "new: "};
	const struct diff *df = &d->diff;
	size_t both = df->nrows - df->only[DIFF_BASE] - df->only[DIFF_NEW];
	double median[2];
	size_t i;
	int s;

	for (s = 0; s < 2; s++) {
		double *totals = xcalloc(df->nruns[s], sizeof(*totals));
		char *ms;

		for (i = 0; i < df->nruns[s]; i++)
			totals[i] = (double)df->run_total[s][i][d->clock];
		median[s] = stats_median(totals, df->nruns[s]);
		free(totals);
		ms = diff_fixed(median[s] / 1000, 3, false, "");
		printf("%s %zu run%s, %s clock, median total %s ms", label[s],
		       df->nruns[s], df->nruns[s] == 1 ? "" : "s",
		       clock_name(d->clock), ms);
		free(ms);
		if (s == DIFF_NEW) {
			double pct;
			char *p;

			if (diff_percent(median[0], median[1], &pct))
				p = diff_fixed(pct, 1, true, "%");
			else
				p = xstrdup("+inf%");
			printf(" (%s)", p);
			free(p);
		}
		putchar(':');
		for (i = 0; i < d->nfiles[s]; i++)
			cmd_print(stdout, " %s", d->files[s][i]);
		putchar('\n');
		if (d->note[s])
			printf("%s %s\n", label[s], d->note[s]);
	}
	printf("methods: %zu in both, %zu only in base (gone), %zu only in "
	       "new\n",
	       both, df->only[DIFF_BASE], df->only[DIFF_NEW]);
	print_frames(d);
	printf("medians of the runs; ~: Mann-Whitney p >= %g, not "
	       "significant; Shift CI: %g%% interval of the shift "
	       "(Hodges-Lehmann)\n",
	       d->st.alpha, 100 * (1 - d->st.alpha));
	if (d->normalize)
		printf("times are shares of each run's total; differences "
		       "in percentage points (pt)\n");
}

/* Evaluate every condition; print those that hold, those held back as
 * not significant, and why one cannot be evaluated.  True when one holds
 * or cannot be evaluated. */
static bool
check_conditions(struct runs_cmd *d, const struct diff_cond *conds, size_t n)
{
	static const char *const side[2] = {"a run of BASE", "a run of NEW"};
	bool any = false;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct diff_cond *c = &conds[i];
		struct diff_cond_result r;
		struct diff_stat st;
		char *vb, *vn, *ch, *p;
		bool passes;

		diff_stats_cond_eval(&d->st, c, &r, &st);
		if (diff_cond_unevaluable(c, &r, side, "any run")) {
			any = true;
			continue;
		}
		passes = c->op == '>' ? r.change > c->threshold
		                      : r.change < c->threshold;
		if (!passes)
			continue;
		any |= r.holds;
		vb = diff_cond_value_text(c, r.value[DIFF_BASE], d->normalize);
		vn = diff_cond_value_text(c, r.value[DIFF_NEW], d->normalize);
		ch = diff_cond_change_text(c, &r);
		p = diff_fixed(st.test.p, 4, false, "");
		if (r.holds)
			cmd_error("diff",
			          "condition holds: %s: base median %s, new "
			          "median %s (%s, p=%s)",
			          c->text, vb, vn, ch, p);
		else if (st.test.min_p >= d->st.alpha)
			cmd_error("diff",
			          "not significant, not failing: %s: base "
			          "median %s, new median %s (%s, p=%s >= %g: "
			          "with these runs%s no p-value can be below "
			          "%.4g)",
			          c->text, vb, vn, ch, p, d->st.alpha,
			          st.test.ties ? " and their ties" : "",
			          st.test.min_p);
		else
			cmd_error("diff",
			          "not significant, not failing: %s: base "
			          "median %s, new median %s (%s, p=%s >= %g)",
			          c->text, vb, vn, ch, p, d->st.alpha);
		free(vb);
		free(vn);
		free(ch);
		free(p);
	}
	return any;
}

int
diff_runs(const struct cmd_opts *opts)
{
	struct runs_cmd d = {0};
	struct diff_cond *conds = NULL;
	struct table *t;
	size_t nconds = 0, n, i;
	int status = CMD_USAGE;

	d.opts = opts;
	d.sort = DIFF_EXCL;
	d.normalize = opts->normalize;
	if (!split_sides(&d))
		return CMD_USAGE;
	if (opts->sort && !diff_parse_sort(opts->sort, &d.sort))
		return CMD_USAGE;
	conds = xcalloc(opts->nfail_if + 1, sizeof(*conds));
	for (i = 0; i < opts->nfail_if; i++) {
		struct diff_cond_error err;

		if (!diff_cond_parse(&conds[nconds], opts->fail_if[i], &err)) {
			diff_report_malformed(opts->fail_if[i], &err);
			goto out;
		}
		nconds++;
		if (conds[nconds - 1].finding) {
			cmd_error("diff",
			          "--fail-if '%s': finding numbers compare one "
			          "trace per side",
			          conds[nconds - 1].text);
			goto out;
		}
	}
	status = read_runs(&d, conds, nconds);
	if (status >= 0)
		goto out;
	status = CMD_USAGE;
	if (!pick_clock(&d))
		goto out;
	diff_stats_init(&d.st, &d.diff, opts->alpha, d.clock, d.normalize);
	/* The least p of the test's own distribution: ties only raise it,
	 * and a condition held back by its ties says so below. */
	if (stats_min_p(&d.st.dist) >= opts->alpha)
		cmd_error("diff",
		          "warning: with %zu and %zu runs no p-value can be "
		          "below %g, so no change is significant (4 runs per "
		          "side reach 0.029)",
		          d.nfiles[DIFF_BASE], d.nfiles[DIFF_NEW], opts->alpha);
	diff_stats_sort(&d.st, &d.diff, d.sort);
	n = d.diff.nrows;
	if (opts->top >= 0 && (size_t)opts->top < n)
		n = (size_t)opts->top;
	if (opts->format == TABLE_TEXT) {
		print_header(&d);
		t = text_table(&d, n);
	} else {
		t = machine_table(&d, n, opts->format);
	}
	table_print(t, stdout, opts->format);
	table_free(t);
	cmd_flush();
	status = check_conditions(&d, conds, nconds) ? CMD_FAIL : CMD_OK;
	diff_stats_done(&d.st);
out:
	for (i = 0; i < nconds; i++)
		diff_cond_done(&conds[i]);
	free(conds);
	diff_done(&d.diff);
	free(d.note[DIFF_BASE]);
	free(d.note[DIFF_NEW]);
	return status;
}
