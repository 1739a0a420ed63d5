/*
 * calls: every call of the methods whose full name matches a POSIX
 * extended regular expression (all calls without one): thread, start
 * (microseconds on the wall clock since the trace start, or thread-cpu
 * when there is no wall clock), wall and cpu durations, depth, flags.
 */
#include "config.h"

#include "cli/cmd.h"
#include "query/method-name.h"
#include "util/alloc.h"
#include "util/pattern.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

static const struct cmd_spec calls_spec = {
        .name = "calls",
        .args = "FILE [REGEX]",
        .summary = "Print every call of the methods matching REGEX.",
        .options = OPT_THREAD | OPT_RANGE | OPT_SORT | OPT_TOP | OPT_FORMAT |
                   OPT_MAPPING | OPT_SAMPLE_TYPE,
        .min_args = 1,
        .max_args = 2,
        .sort_keys = "start (default), wall, cpu, depth",
};

enum calls_sort { BY_START, BY_WALL, BY_CPU, BY_DEPTH };

struct calls_ctx {
	const struct calltree *tree;
	enum calls_sort sort;
	enum clock_index time_clock;
};

static uint64_t
dur(const struct calltree *tree, uint32_t c, enum clock_index k)
{
	return tree->has_clock[k] ? calltree_duration(tree, c, k) : 0;
}

static int
call_cmp(const void *a, const void *b, void *arg)
{
	const struct calls_ctx *ctx = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t vx, vy;

	switch (ctx->sort) {
	case BY_WALL:
	case BY_CPU: {
		enum clock_index k =
		        ctx->sort == BY_WALL ? CLOCK_WALL : CLOCK_CPU;

		vx = dur(ctx->tree, x, k);
		vy = dur(ctx->tree, y, k);
		if (vx != vy)
			return vx > vy ? -1 : 1;
		break;
	}
	case BY_DEPTH:
		vx = calltree_depth(ctx->tree, x);
		vy = calltree_depth(ctx->tree, y);
		if (vx != vy)
			return vx > vy ? -1 : 1;
		break;
	case BY_START:
		break;
	}
	vx = calltree_start(ctx->tree, x, ctx->time_clock);
	vy = calltree_start(ctx->tree, y, ctx->time_clock);
	if (vx != vy)
		return vx < vy ? -1 : 1;
	return x < y ? -1 : x > y;
}

static bool
parse_sort(const char *name, enum calls_sort *sort)
{
	static const char *const names[] = {"start", "wall", "cpu", "depth"};
	int i;

	for (i = 0; i < 4; i++) {
		if (strcmp(name, names[i]) == 0) {
			*sort = (enum calls_sort)i;
			return true;
		}
	}
	cmd_error("calls",
	          "unknown sort column '%s' (start, wall, cpu, "
	          "depth)",
	          name);
	return false;
}

static void
flags_cell(struct table *t, uint8_t flags)
{
	char buf[64] = "";

	if (flags & CALL_RECURSIVE)
		strcat(buf, ",recursive");
	if (flags & CALL_ORPHAN)
		strcat(buf, ",orphan");
	if (flags & CALL_OPEN_AT_END)
		strcat(buf, ",open");
	if (flags & CALL_UNWOUND)
		strcat(buf, ",unwound");
	if (flags & CALL_LOST_EXIT)
		strcat(buf, ",lost-exit");
	table_str(t, buf[0] ? buf + 1 : "");
}

/* Mark the methods whose full name matches re. */
static bool *
match_methods(const struct calltree *tree, const char *pattern)
{
	bool *want = xcalloc(tree->nmethods + 1, sizeof(*want));
	char msg[256];
	regex_t re;
	size_t i;
	int rc;

	if (!pattern) {
		for (i = 0; i < tree->nmethods; i++)
			want[i] = true;
		return want;
	}
	rc = pattern_compile(&re, pattern, REG_EXTENDED | REG_NOSUB, msg,
	                     sizeof(msg));
	if (rc) {
		cmd_error("calls", "bad regular expression '%.60s%s': %s",
		          pattern, strlen(pattern) > 60 ? "..." : "", msg);
		free(want);
		return NULL;
	}
	for (i = 0; i < tree->nmethods; i++) {
		char *name = method_full_name(&tree->methods[i]);

		want[i] = regexec(&re, name, 0, NULL, 0) == 0;
		free(name);
	}
	regfree(&re);
	return want;
}

static void
time_cell(struct table *t, const struct calltree *tree, uint32_t c,
          enum clock_index k, bool text)
{
	if (tree->has_clock[k])
		cmd_value_cell(t, calltree_duration(tree, c, k),
		               tree->header.unit, text);
	else
		table_empty(t);
}

/* The last thread whose calls start at or before call c, by binary
 * search: a scan per row was quadratic in threads. */
static size_t
thread_of_call(const struct calltree *tree, uint32_t c)
{
	size_t lo = 0, hi = tree->nthreads;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (tree->threads[mid].first_call <= c)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The calls to list, as table_print_rows' rows want them. */
struct call_rows {
	struct table *table;
	const struct calltree *tree;
	const uint32_t *picked;
	size_t n;
	enum clock_index time_clock;
	bool text;
};

/* table_print_rows' rows: the picked calls; measuring, the last column
 * (the name, never padded) is left out. */
static void
call_rows(void *arg, bool measuring)
{
	const struct call_rows *r = arg;
	struct table *table = r->table;
	const struct calltree *tree = r->tree;
	size_t i;

	for (i = 0; i < r->n; i++) {
		uint32_t c = r->picked[i];
		size_t th = thread_of_call(tree, c);
		char *name;

		/* Threads without calls share first_call with the next. */
		while (th < tree->nthreads &&
		       c >= tree->threads[th].first_call +
		                       tree->threads[th].ncalls)
			th++;
		table_row(table);
		table_str(table, tree->threads[th].name);
		table_u64(table, tree->threads[th].tid);
		cmd_value_cell(table, calltree_start(tree, c, r->time_clock),
		               tree->header.unit, r->text);
		time_cell(table, tree, c, CLOCK_WALL, r->text);
		time_cell(table, tree, c, CLOCK_CPU, r->text);
		table_u64(table, calltree_depth(tree, c));
		flags_cell(table, tree->calls.flags[c]);
		if (measuring)
			continue;
		name = method_full_name(
		        &tree->methods[calltree_method(tree, c)]);
		table_str(table, name);
		free(name);
	}
}

int
cmd_calls(int argc, char **argv)
{
	static const enum table_kind kinds[] = {
	        TABLE_STRING, TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER,
	        TABLE_NUMBER, TABLE_NUMBER, TABLE_STRING, TABLE_STRING};
	struct cmd_trace ct;
	struct calltree *tree;
	struct scope_span span = {0};
	struct calls_ctx ctx = {0};
	uint32_t *picked = NULL;
	bool *want = NULL;
	size_t n = 0, cap = 0, t, i;
	struct call_rows rows;
	char start[32], wall[32], cpu[32];
	const char *text_names[] = {"Thread", "Tid",   start,   wall,
	                            cpu,      "Depth", "Flags", "Method"};
	const char *data_names[] = {"thread", "tid",   start,   wall,
	                            cpu,      "depth", "flags", "method"};
	bool text;
	int status = cmd_open(&ct, &calls_spec, argc, argv);

	if (status >= 0)
		return status;
	tree = ct.tree;
	status = CMD_USAGE;
	if (ct.opts.sort && !parse_sort(ct.opts.sort, &ctx.sort))
		goto out;
	want = match_methods(tree, ct.opts.nargs > 1 ? ct.opts.args[1] : NULL);
	if (!want)
		goto out;
	for (t = 0; t < tree->nthreads; t++) {
		if (!scope_has(&ct.scope, t))
			continue;
		/* The calls the range touches (all without one). */
		scope_span_of(&span, &ct.scope, tree, t);
		for (i = 0; i < span.nopen; i++) {
			if (!want[calltree_method(tree, span.open[i])])
				continue;
			UTIL_GROW(picked, cap, n + 1);
			picked[n++] = span.open[i];
		}
		for (i = span.first; i < span.end; i++) {
			if (!want[calltree_method(tree, i)])
				continue;
			UTIL_GROW(picked, cap, n + 1);
			picked[n++] = (uint32_t)i;
		}
	}
	scope_span_done(&span);
	ctx.tree = tree;
	ctx.time_clock = tree->has_clock[CLOCK_WALL] ? CLOCK_WALL : CLOCK_CPU;
	if (n > 1) /* picked is NULL when nothing matched */
		qsort_r(picked, n, sizeof(*picked), call_cmp, &ctx);
	if (ct.opts.top >= 0 && (size_t)ct.opts.top < n)
		n = (size_t)ct.opts.top;
	/* Text in ms (or the profile's unit), as report's; the machine
	 * formats in integer microseconds, named so. */
	text = ct.opts.format == TABLE_TEXT;
	cmd_value_name(start, sizeof(start), "Start", "start",
	               tree->header.unit, text);
	cmd_value_name(wall, sizeof(wall), "Wall", "wall", tree->header.unit,
	               text);
	cmd_value_name(cpu, sizeof(cpu), "Cpu", "cpu", tree->header.unit, text);
	rows = (struct call_rows){
	        .table = table_new(8, text ? text_names : data_names, kinds),
	        .tree = tree,
	        .picked = picked,
	        .n = n,
	        .time_clock = ctx.time_clock,
	        .text = text,
	};
	/* A row per call, so streamed. */
	table_print_rows(rows.table, stdout, ct.opts.format, call_rows, &rows);
	table_free(rows.table);
	status = CMD_OK;
out:
	free(want);
	free(picked);
	cmd_close(&ct);
	return status;
}
