/*
 * report: the per-method profile table.  The TSV layout is a stable
 * interface (PRODUCT.md section 3): method, calls, rcalls, then inclusive
 * and exclusive microseconds per clock, empty for a clock the trace lacks.
 * The text layout is Traceview's columns for one clock, times in ms,
 * under a line saying so when the trace is sampled: its calls and times
 * are estimates.
 */
#include "config.h"

#include "cli/cmd.h"
#include "query/method-name.h"
#include "query/profile.h"
#include "query/quantity.h"
#include "query/summary.h"
#include "text/duration.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

static const struct cmd_spec report_spec = {
        .name = "report",
        .args = "FILE",
        .summary = "Print the per-method profile: inclusive and exclusive "
                   "times, calls.",
        .options = OPT_THREAD | OPT_RANGE | OPT_CLOCK | OPT_SORT | OPT_TOP |
                   OPT_FORMAT | OPT_MAPPING | OPT_SAMPLE_TYPE | OPT_TRANSFORM,
        .min_args = 1,
        .max_args = 1,
        .sort_keys = "incl (default), excl, calls, percall, name, incl_cpu, "
                     "excl_cpu, incl_wall, excl_wall; total and self, as a "
                     "sampled profile's columns say, are incl and excl",
        .profile_only = true,
};

enum sort_key {
	SORT_INCL,
	SORT_EXCL,
	SORT_CALLS,
	SORT_PERCALL,
	SORT_NAME,
};

struct report_row {
	uint32_t method;
	char *name;
	const struct profile_row *r;
};

struct sort_ctx {
	enum sort_key key;
	enum clock_index clock;
};

/* Inclusive time per call, rounded to the nearest microsecond. */
static uint64_t
per_call(const struct profile_row *r, enum clock_index k)
{
	uint64_t n = r->calls + r->rcalls;

	return n ? (r->incl[k] + n / 2) / n : 0;
}

static uint64_t
sort_value(const struct report_row *row, const struct sort_ctx *s)
{
	switch (s->key) {
	case SORT_INCL:
		return row->r->incl[s->clock];
	case SORT_EXCL:
		return row->r->excl[s->clock];
	case SORT_CALLS:
		return row->r->calls + row->r->rcalls;
	case SORT_PERCALL:
		return per_call(row->r, s->clock);
	case SORT_NAME:
		break;
	}
	return 0;
}

static int
row_cmp(const void *a, const void *b, void *arg)
{
	const struct report_row *x = a, *y = b;
	const struct sort_ctx *s = arg;

	if (s->key != SORT_NAME) {
		uint64_t vx = sort_value(x, s), vy = sort_value(y, s);

		if (vx != vy)
			return vx > vy ? -1 : 1;
	}
	return strcmp(x->name, y->name);
}

/* Parse --sort; may also pick the clock (incl_cpu, excl_wall, ...). */
static bool
parse_sort(const char *name, struct sort_ctx *s, const struct calltree *tree)
{
	static const struct {
		const char *name;
		enum sort_key key;
		int clock;
	} keys[] = {
	        {"incl", SORT_INCL, -1},
	        {"excl", SORT_EXCL, -1},
	        /* The words of a profile's (pprof, simpleperf) columns. */
	        {"total", SORT_INCL, -1},
	        {"self", SORT_EXCL, -1},
	        {"calls", SORT_CALLS, -1},
	        {"percall", SORT_PERCALL, -1},
	        {"name", SORT_NAME, -1},
	        {"method", SORT_NAME, -1},
	        {"incl_cpu", SORT_INCL, CLOCK_CPU},
	        {"excl_cpu", SORT_EXCL, CLOCK_CPU},
	        {"incl_wall", SORT_INCL, CLOCK_WALL},
	        {"excl_wall", SORT_EXCL, CLOCK_WALL},
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strcmp(name, keys[i].name) != 0)
			continue;
		s->key = keys[i].key;
		if (keys[i].clock >= 0) {
			if (!tree->has_clock[keys[i].clock]) {
				cmd_error("report",
				          "%s: the trace has no %s clock",
				          tree->path,
				          keys[i].clock == CLOCK_CPU
				                  ? "thread-cpu"
				                  : "wall");
				return false;
			}
			s->clock = (enum clock_index)keys[i].clock;
		}
		return true;
	}
	cmd_error("report", "unknown sort column '%s' (see --help)", name);
	return false;
}

static void
time_cell(struct table *t, const struct calltree *tree, enum clock_index k,
          uint64_t v)
{
	if (tree->has_clock[k])
		table_u64(t, v);
	else
		table_empty(t);
}

static struct table *
machine_table(const struct calltree *tree, struct report_row *rows, size_t n)
{
	static const char *const names[] = {
	        "method",   "calls",     "rcalls",    "incl_cpu",
	        "excl_cpu", "incl_wall", "excl_wall",
	};
	static const enum table_kind kinds[] = {
	        TABLE_STRING, TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER,
	        TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER,
	};
	struct table *t = table_new(7, names, kinds);
	size_t i;

	for (i = 0; i < n; i++) {
		const struct profile_row *r = rows[i].r;

		table_row(t);
		table_str(t, rows[i].name);
		table_u64(t, r->calls);
		table_u64(t, r->rcalls);
		time_cell(t, tree, CLOCK_CPU, r->incl[CLOCK_CPU]);
		time_cell(t, tree, CLOCK_CPU, r->excl[CLOCK_CPU]);
		time_cell(t, tree, CLOCK_WALL, r->incl[CLOCK_WALL]);
		time_cell(t, tree, CLOCK_WALL, r->excl[CLOCK_WALL]);
	}
	return t;
}

static void pct_cell(struct table *t, uint64_t v, uint64_t total);

/* A sampled profile's TSV: method, self and total in the sample type's
 * unit, then in microseconds where the samples carry time. */
static struct table *
sampled_table(const struct calltree *tree, struct report_row *rows, size_t n)
{
	static const char *const names[] = {
	        "method", "self", "total", "self_us", "total_us",
	};
	static const enum table_kind kinds[] = {
	        TABLE_STRING, TABLE_NUMBER, TABLE_NUMBER,
	        TABLE_NUMBER, TABLE_NUMBER,
	};
	struct table *t = table_new(5, names, kinds);
	enum clock_index v = cmd_values_clock(tree), tk = cmd_times_clock(tree);
	size_t i;

	for (i = 0; i < n; i++) {
		const struct profile_row *r = rows[i].r;

		table_row(t);
		table_str(t, rows[i].name);
		table_u64(t, cmd_samples(tree, v, r->excl[v]));
		table_u64(t, cmd_samples(tree, v, r->incl[v]));
		if (tk == CLOCK_COUNT) {
			table_empty(t);
			table_empty(t);
		} else {
			table_u64(t, cmd_us(tree, r->excl[tk]));
			table_u64(t, cmd_us(tree, r->incl[tk]));
		}
	}
	return t;
}

/* A simpleperf recording's text table: samples and their time. */
static struct table *
samples_text_table(const struct profile *p, const struct calltree *tree,
                   struct report_row *rows, size_t n)
{
	static const enum table_kind kinds[] = {
	        TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER,
	        TABLE_NUMBER, TABLE_NUMBER, TABLE_STRING,
	};
	static const char *const names[] = {
	        "Total %",  "Samples", "Self %", "Self samples",
	        "Total ms", "Self ms", "Method",
	};
	struct table *t = table_new(7, names, kinds);
	size_t i;

	for (i = 0; i < n; i++) {
		const struct profile_row *r = rows[i].r;
		char buf[64];

		table_row(t);
		pct_cell(t, r->incl[CLOCK_CPU], p->total[CLOCK_CPU]);
		table_u64(t, cmd_samples(tree, CLOCK_CPU, r->incl[CLOCK_CPU]));
		pct_cell(t, r->excl[CLOCK_CPU], p->total[CLOCK_CPU]);
		table_u64(t, cmd_samples(tree, CLOCK_CPU, r->excl[CLOCK_CPU]));
		quantity_format(buf, sizeof(buf), r->incl[CLOCK_WALL],
		                tree->header.unit, false);
		table_str(t, buf);
		quantity_format(buf, sizeof(buf), r->excl[CLOCK_WALL],
		                tree->header.unit, false);
		table_str(t, buf);
		table_str(t, rows[i].name);
	}
	return t;
}

static void
pct_cell(struct table *t, uint64_t v, uint64_t total)
{
	table_fmt(t, "%.1f%%", total ? 100.0 * (double)v / (double)total : 0.0);
}

/* A value in ms, or in the unit a profile's values have. */
static void
ms_cell(struct table *t, uint64_t v, enum trace_unit unit)
{
	char buf[64];

	if (unit == TRACE_UNIT_US) {
		table_ms(t, v);
		return;
	}
	quantity_format(buf, sizeof(buf), v, unit, false);
	table_str(t, buf);
}

/* The text table: Traceview's columns, or without the calls (Calls+Rec,
 * Incl/Call) for a sampled profile, whose stack changes are no calls. */
static struct table *
text_table(const struct profile *p, enum clock_index k, struct report_row *rows,
           size_t n, enum trace_unit unit, bool calls)
{
	static const enum table_kind kinds[] = {
	        TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER,
	        TABLE_NUMBER, TABLE_NUMBER, TABLE_STRING,
	};
	char incl[32], excl[32];
	const char *names[] = {
	        "Incl %",    incl,        "Excl %", excl,
	        "Calls+Rec", "Incl/Call", "Method",
	};
	const char *sampled_names[] = {"Incl %", incl, "Excl %", excl,
	                               "Method"};
	struct table *t;
	size_t i;

	snprintf(incl, sizeof(incl), "Incl %s", quantity_label(unit));
	snprintf(excl, sizeof(excl), "Excl %s", quantity_label(unit));
	t = calls ? table_new(7, names, kinds)
	          : table_new(5, sampled_names, kinds + 2);

	for (i = 0; i < n; i++) {
		const struct profile_row *r = rows[i].r;

		table_row(t);
		pct_cell(t, r->incl[k], p->total[k]);
		ms_cell(t, r->incl[k], unit);
		pct_cell(t, r->excl[k], p->total[k]);
		ms_cell(t, r->excl[k], unit);
		if (calls) {
			table_fmt(t, "%llu+%llu", (unsigned long long)r->calls,
			          (unsigned long long)r->rcalls);
			ms_cell(t, per_call(r, k), unit);
		}
		table_str(t, rows[i].name);
	}
	return t;
}

int
cmd_report(int argc, char **argv)
{
	struct cmd_trace ct;
	struct profile p = {0};
	struct report_row *rows = NULL;
	struct sort_ctx sort;
	struct table *t;
	char *note;
	size_t n = 0, i, nthreads;
	int status = cmd_open(&ct, &report_spec, argc, argv);
	struct calltree *tree = ct.tree;

	if (status >= 0)
		return status;
	sort = (struct sort_ctx){SORT_INCL, ct.clock};
	if (ct.opts.sort && !parse_sort(ct.opts.sort, &sort, tree)) {
		cmd_close(&ct);
		return CMD_USAGE;
	}
	profile_compute(&p, tree, &ct.scope);
	rows = xcalloc(tree->nmethods + 1, sizeof(*rows));
	for (i = 0; i < tree->nmethods; i++) {
		if (!profile_row_used(&p, i))
			continue;
		rows[n].method = (uint32_t)i;
		rows[n].name = method_full_name(&tree->methods[i]);
		rows[n].r = &p.rows[i];
		n++;
	}
	qsort_r(rows, n, sizeof(*rows), row_cmp, &sort);
	nthreads = scope_thread_count(&ct.scope, tree);
	if (ct.opts.top >= 0 && (size_t)ct.opts.top < n)
		n = (size_t)ct.opts.top;
	if (ct.opts.format == TABLE_TEXT && tree->header.sample_weight) {
		char total[64];
		const char *type =
		        calltree_property(tree, "simpleperf-event-type");
		uint64_t time = 0;

		/* The samples' time, without the gaps between them. */
		for (i = 0; i < tree->nmethods; i++)
			if (profile_row_used(&p, i))
				time += p.rows[i].excl[CLOCK_WALL];
		quantity_format(total, sizeof(total), time, tree->header.unit,
		                true);
		printf("%s: %s, %llu samples (%s) over %zu thread%s\n",
		       tree->path, type ? type : "samples",
		       (unsigned long long)cmd_samples(tree, CLOCK_CPU,
		                                       p.total[CLOCK_CPU]),
		       total, ct.scope.count, ct.scope.count == 1 ? "" : "s");
		printf("sampled: numbers are samples and times estimated "
		       "from them, never call counts\n");
		t = samples_text_table(&p, tree, rows, n);
	} else if (ct.opts.format == TABLE_TEXT &&
	           tree->header.unit != TRACE_UNIT_US) {
		char total[64];
		bool hprof = tree->header.format == TRACE_FORMAT_HPROF;

		quantity_format(total, sizeof(total), p.total[sort.clock],
		                tree->header.unit, true);
		cmd_print(stdout, "%s: %s, total %s over %zu thread%s\n",
		          tree->path,
		          calltree_property(tree, "pprof-sample-type")
		                  ? calltree_property(tree, "pprof-sample-type")
		          : hprof ? "samples"
		                  : quantity_label(tree->header.unit),
		          total, nthreads, nthreads == 1 ? "" : "s");
		note = summary_sampled_note(tree);
		if (note)
			printf("%s\n", note);
		free(note);
		t = text_table(&p, sort.clock, rows, n, tree->header.unit,
		               false);
	} else if (ct.opts.format == TABLE_TEXT) {
		char ms[DURATION_SIZE];

		cmd_print(stdout,
		          "%s: %s clock, total %s ms over %zu thread%s\n",
		          tree->path,
		          sort.clock == CLOCK_CPU ? "thread-cpu" : "wall",
		          duration_ms(ms, sizeof(ms), p.total[sort.clock]),
		          nthreads, nthreads == 1 ? "" : "s");
		note = summary_sampled_note(tree);
		if (note)
			printf("%s\n", note);
		free(note);
		t = text_table(&p, sort.clock, rows, n, TRACE_UNIT_US, true);
	} else if (cmd_sampled(tree)) {
		t = sampled_table(tree, rows, n);
	} else {
		t = machine_table(tree, rows, n);
	}
	table_print(t, stdout, ct.opts.format);
	table_free(t);
	for (i = 0; i < tree->nmethods; i++)
		free(rows[i].name);
	free(rows);
	profile_done(&p);
	cmd_close(&ct);
	return CMD_OK;
}
