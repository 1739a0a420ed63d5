/*
 * frames: every frame the scope's threads drew (query/frames.h), against
 * the budget.  Text: a summary line per thread that draws (frames, slow,
 * frozen, p50, p90, p95, p99 and max, in ms), then a row per frame.  The
 * TSV layout: thread, tid, start, wall, cpu, over (integer microseconds,
 * empty for a clock the trace lacks), then the hot methods, each with its
 * exclusive time inside the frame.
 */
#include "config.h"

#include "cli/cmd.h"
#include "query/frames.h"
#include "query/method-name.h"
#include "query/summary.h"
#include "text/duration.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

static const struct cmd_spec frames_spec = {
        .name = "frames",
        .args = "FILE",
        .summary = "Print every frame (an outermost Choreographer.doFrame "
                   "call) against the frame budget.",
        .options = OPT_THREAD | OPT_RANGE | OPT_SORT | OPT_TOP | OPT_FORMAT |
                   OPT_MAPPING | OPT_SAMPLE_TYPE | OPT_TRANSFORM | OPT_FRAMES,
        .min_args = 1,
        .max_args = 1,
        .sort_keys = "start (default), wall, cpu",
        .profile_only = true,
};

enum frames_sort { BY_START, BY_WALL, BY_CPU };

struct sort_ctx {
	const struct frames *fr;
	enum frames_sort sort;
};

static int
frame_cmp(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *ctx = arg;
	const struct drawn_frame *x = a, *y = b;

	if (ctx->sort != BY_START) {
		enum clock_index k =
		        ctx->sort == BY_WALL ? CLOCK_WALL : CLOCK_CPU;

		if (x->dur[k] != y->dur[k])
			return x->dur[k] > y->dur[k] ? -1 : 1;
	}
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->call < y->call ? -1 : x->call > y->call;
}

static bool
parse_sort(const char *name, enum frames_sort *sort)
{
	static const char *const names[] = {"start", "wall", "cpu"};
	int i;

	for (i = 0; i < 3; i++) {
		if (strcmp(name, names[i]) == 0) {
			*sort = (enum frames_sort)i;
			return true;
		}
	}
	cmd_error("frames", "unknown sort column '%s' (start, wall, cpu)",
	          name);
	return false;
}

static char *
ms_text(uint64_t us)
{
	char buf[DURATION_SIZE];

	return xstrdup(duration_ms(buf, sizeof(buf), us));
}

/* "main: 252 frames, 3 slow, 0 frozen; wall p50 4.1 ... max 40.2 ms". */
static void
print_summary(const struct calltree *tree, const struct frames *fr, size_t from,
              size_t n)
{
	struct frame_summary s;
	const char *thread = tree->threads[fr->frames[from].thread].name;
	char *v;
	int p;

	frames_summarize(fr, from, n, &s);
	cmd_print(stdout, "%s (%u): %zu frame%s, %zu slow, %zu frozen;", thread,
	          tree->threads[fr->frames[from].thread].tid, s.frames,
	          s.frames == 1 ? "" : "s", s.slow, s.frozen);
	for (p = 0; p < FRAMES_PERCENTILES; p++) {
		v = ms_text(s.pct[p]);
		printf(" p%d %s", frames_percentile_ranks[p], v);
		free(v);
	}
	v = ms_text(s.max);
	printf(" max %s ms\n", v);
	free(v);
}

static void
time_cell(struct table *t, const struct calltree *tree, uint64_t us,
          enum clock_index k, bool text)
{
	if (!tree->has_clock[k])
		table_empty(t);
	else if (text)
		table_ms(t, us);
	else
		table_u64(t, us);
}

/* The hot methods of f as text: "NAME 1.234 ms, NAME 0.5 ms". */
static char *
hot_text(const struct calltree *tree, const struct drawn_frame *f)
{
	char *out = xstrdup(""), *next;
	int k;

	for (k = 0; k < FRAME_HOT && f->hot[k] != CALL_NONE; k++) {
		char *name = method_full_name(&tree->methods[f->hot[k]]);
		char *ms = ms_text(f->hot_excl[k]);

		next = xasprintf("%s%s%s %s ms", out, k ? ", " : "", name, ms);
		free(out);
		free(name);
		free(ms);
		out = next;
	}
	return out;
}

/* The machine formats' columns, named with their unit as calls' and
 * tree's are (the text's are the first six, then the hot methods in
 * one), and every format's kinds. */
static const char *const frame_columns[] = {
        "thread",  "tid",  "start_us",     "wall_us", "cpu_us",
        "over_us", "hot1", "hot1_excl_us", "hot2",    "hot2_excl_us"};
static const enum table_kind frame_kinds[] = {
        TABLE_STRING, TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER,
        TABLE_NUMBER, TABLE_STRING, TABLE_NUMBER, TABLE_STRING, TABLE_NUMBER};

static struct table *
frame_table(const struct calltree *tree, const struct frames *fr,
            const struct drawn_frame *rows, size_t n, enum table_format format)
{
	static const char *const text_names[] = {"thread",
	                                         "tid",
	                                         "start",
	                                         "wall",
	                                         "cpu",
	                                         "over",
	                                         "hot methods (exclusive)"};
	bool text = format == TABLE_TEXT;
	struct table *t = text ? table_new(7, text_names, frame_kinds)
	                       : table_new(10, frame_columns, frame_kinds);
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		const struct drawn_frame *f = &rows[i];

		table_row(t);
		table_str(t, tree->threads[f->thread].name);
		table_u64(t, tree->threads[f->thread].tid);
		time_cell(t, tree, f->start, fr->clock, text);
		time_cell(t, tree, f->dur[CLOCK_WALL], CLOCK_WALL, text);
		time_cell(t, tree, f->dur[CLOCK_CPU], CLOCK_CPU, text);
		if (text) {
			char *hot = hot_text(tree, f);

			if (frames_slow(fr, f))
				table_ms(t, frames_over(fr, f));
			else
				table_str(t, "");
			table_str(t, hot);
			free(hot);
			continue;
		}
		table_u64(t, frames_over(fr, f));
		for (k = 0; k < FRAME_HOT; k++) {
			char *name;

			if (f->hot[k] == CALL_NONE) {
				table_empty(t);
				table_empty(t);
				continue;
			}
			name = method_full_name(&tree->methods[f->hot[k]]);
			table_str(t, name);
			table_u64(t, f->hot_excl[k]);
			free(name);
		}
	}
	return t;
}

/* The TSV rows written as they are made: a table of them all would
 * hold hundreds of thousands of rows on a large trace.  Each hot
 * method's full name is made once. */
static void
print_tsv(const struct calltree *tree, const struct frames *fr,
          const struct drawn_frame *rows, size_t n)
{
	static const size_t widths[10] = {0};
	char **full = xcalloc(tree->nmethods + 1, sizeof(*full));
	char num[8][24];
	const char *cells[10];
	size_t i;
	int k;

	table_print_row(stdout, TABLE_TSV, 10, frame_columns, frame_kinds,
	                widths);
	for (i = 0; i < n; i++) {
		const struct drawn_frame *f = &rows[i];
		uint64_t v[] = {tree->threads[f->thread].tid, f->start,
		                f->dur[CLOCK_WALL], f->dur[CLOCK_CPU],
		                frames_over(fr, f)};
		int j;

		cells[0] = tree->threads[f->thread].name;
		for (j = 0; j < 5; j++) {
			snprintf(num[j], sizeof(num[j]), "%llu",
			         (unsigned long long)v[j]);
			cells[1 + j] = num[j];
		}
		if (!tree->has_clock[CLOCK_WALL])
			cells[3] = "";
		if (!tree->has_clock[CLOCK_CPU])
			cells[4] = "";
		for (k = 0; k < FRAME_HOT; k++) {
			uint32_t m = f->hot[k];

			if (m == CALL_NONE) {
				cells[6 + 2 * k] = cells[7 + 2 * k] = "";
				continue;
			}
			if (!full[m])
				full[m] = method_full_name(&tree->methods[m]);
			snprintf(num[5 + k], sizeof(num[5 + k]), "%llu",
			         (unsigned long long)f->hot_excl[k]);
			cells[6 + 2 * k] = full[m];
			cells[7 + 2 * k] = num[5 + k];
		}
		table_print_row(stdout, TABLE_TSV, 10, cells, frame_kinds,
		                widths);
	}
	for (i = 0; i < tree->nmethods; i++)
		free(full[i]);
	free(full);
}

int
cmd_frames(int argc, char **argv)
{
	struct cmd_trace ct;
	struct calltree *tree;
	struct frames fr;
	struct sort_ctx ctx = {0};
	struct drawn_frame *rows = NULL;
	struct table *table;
	bool *is_frame;
	char why[256];
	size_t n, i, nthreads, *first = NULL;
	uint32_t *threads = NULL;
	int status = cmd_open(&ct, &frames_spec, argc, argv);

	if (status >= 0)
		return status;
	tree = ct.tree;
	if (ct.opts.sort && !parse_sort(ct.opts.sort, &ctx.sort)) {
		cmd_close(&ct);
		return CMD_USAGE;
	}
	if (ctx.sort != BY_START &&
	    !tree->has_clock[ctx.sort == BY_WALL ? CLOCK_WALL : CLOCK_CPU]) {
		cmd_error("frames", "%s: the trace has no %s clock", tree->path,
		          ctx.sort == BY_WALL ? "wall" : "thread-cpu");
		cmd_close(&ct);
		return CMD_USAGE;
	}
	is_frame = frames_methods(tree, ct.opts.frame_method, why, sizeof(why));
	if (!is_frame) { /* cmd_parse checked it: cannot happen */
		cmd_error("frames", "bad regular expression: %s", why);
		cmd_close(&ct);
		return CMD_USAGE;
	}
	frames_find(&fr, tree, &ct.scope, is_frame, cmd_frame_budget(&ct.opts));
	free(is_frame);
	if (ct.opts.format == TABLE_TEXT) {
		char budget[DURATION_SIZE];
		char *note = summary_sampled_note(tree);

		cmd_print(stdout,
		          "%s: %zu frame%s, budget %s ms, on the %s clock\n",
		          tree->path, fr.count, fr.count == 1 ? "" : "s",
		          duration_ms(budget, sizeof(budget),
		                      (uint64_t)(fr.budget + 0.5)),
		          fr.clock == CLOCK_WALL ? "wall" : "thread-cpu");
		if (note)
			printf("%s; frames are estimates\n", note);
		free(note);
		if (frames_offcpu_note(tree))
			printf("%s\n", frames_offcpu_note(tree));
		nthreads = frames_threads(&fr, &first, &threads);
		for (i = 0; i < nthreads; i++)
			print_summary(tree, &fr, first[i],
			              first[i + 1] - first[i]);
		if (fr.count)
			putchar('\n');
		free(first);
		free(threads);
	}
	n = fr.count;
	rows = fr.frames;
	ctx.fr = &fr;
	if (n > 1)
		qsort_r(rows, n, sizeof(*rows), frame_cmp, &ctx);
	if (ct.opts.top >= 0 && (size_t)ct.opts.top < n)
		n = (size_t)ct.opts.top;
	if (ct.opts.format == TABLE_TSV) {
		print_tsv(tree, &fr, rows, n);
	} else {
		table = frame_table(tree, &fr, rows, n, ct.opts.format);
		if (ct.opts.format != TABLE_TEXT || n)
			table_print(table, stdout, ct.opts.format);
		table_free(table);
	}
	frames_done(&fr);
	cmd_close(&ct);
	return CMD_OK;
}
