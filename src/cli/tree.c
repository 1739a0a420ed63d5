/*
 * tree: the top-down call tree merged by call path, children ordered
 * by inclusive time, pruned below --min-pct of the scope's total.  Each
 * thread is a root unless --no-thread merges the threads' paths; the time
 * outside any method is a node of its own, so the roots add up to the
 * scope's total, as in `report`.  A sampled profile's nodes have no
 * calls: their columns are report's, samples (or the sample type's
 * values) and their time.
 */
#include "config.h"

#include "query/callpath.h"
#include "cli/cmd.h"
#include "query/method-name.h"
#include "query/quantity.h"
#include "util/alloc.h"

#include <stdlib.h>

static const struct cmd_spec tree_spec = {
        .name = "tree",
        .args = "FILE",
        .summary = "Print the top-down call tree merged by call path.",
        .options = OPT_THREAD | OPT_RANGE | OPT_CLOCK | OPT_FORMAT |
                   OPT_MIN_PCT | OPT_NO_THREAD | OPT_MAPPING | OPT_SAMPLE_TYPE |
                   OPT_TRANSFORM,
        .min_args = 1,
        .max_args = 1,
};

struct tree_out {
	const struct calltree *tree;
	const struct callpath *path;
	struct table *table;
	enum clock_index clock;
	uint64_t total;
	double min_pct;
	bool text;
	bool sampled;   /* cmd_sampled: no calls */
	bool measuring; /* the widths' pass: the last column, never padded,
	                   is left out */
};

static char *
node_label(const struct tree_out *o, const struct callpath_node *n)
{
	if (n->method == CALLPATH_OUTSIDE)
		return xstrdup(CALLPATH_OUTSIDE_NAME);
	if (n->method != CALL_NONE)
		return method_full_name(&o->tree->methods[n->method]);
	return xasprintf("[%s]", o->tree->threads[n->thread].name);
}

static double
pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* Deeper levels than this are not indented further, but numbered. */
enum { TREE_MAX_INDENT = 64 };

/* A time of a simpleperf recording, as report's text writes it. */
static void
time_cell(const struct tree_out *o, uint64_t v)
{
	char buf[64];

	quantity_format(buf, sizeof(buf), v, o->tree->header.unit, false);
	table_str(o->table, buf);
}

/* A sampled profile's values of node id: text as report's text (a
 * simpleperf recording's samples and their time, another profile's
 * values), machine formats as its TSV (values in the sample type's
 * unit, then microseconds where the samples carry time). */
static void
sampled_cells(struct tree_out *o, uint32_t id)
{
	const struct calltree *tree = o->tree;
	const struct callpath_node *n = &o->path->nodes[id];
	enum clock_index v = cmd_values_clock(tree), tk = cmd_times_clock(tree);

	if (o->text && tree->header.sample_weight) {
		table_u64(o->table, cmd_samples(tree, v, n->incl[v]));
		table_u64(o->table,
		          cmd_samples(tree, v, callpath_excl(o->path, id, v)));
		time_cell(o, n->incl[tk]);
		time_cell(o, callpath_excl(o->path, id, tk));
	} else if (o->text) {
		cmd_value_cell(o->table, n->incl[o->clock], tree->header.unit,
		               true);
		cmd_value_cell(o->table, callpath_excl(o->path, id, o->clock),
		               tree->header.unit, true);
	} else {
		table_u64(o->table, cmd_samples(tree, v, n->incl[v]));
		table_u64(o->table,
		          cmd_samples(tree, v, callpath_excl(o->path, id, v)));
		if (tk == CLOCK_COUNT) {
			table_empty(o->table);
			table_empty(o->table);
		} else {
			table_u64(o->table, cmd_us(tree, n->incl[tk]));
			table_u64(o->table,
			          cmd_us(tree, callpath_excl(o->path, id, tk)));
		}
	}
}

static void
emit_node(struct tree_out *o, uint32_t id, unsigned depth)
{
	const struct callpath_node *n = &o->path->nodes[id];
	char *label;

	table_row(o->table);
	table_fmt(o->table, o->text ? "%.1f%%" : "%.1f",
	          pct(n->incl[o->clock], o->total));
	if (o->sampled) {
		sampled_cells(o, id);
	} else {
		cmd_value_cell(o->table, n->incl[o->clock],
		               o->tree->header.unit, o->text);
		cmd_value_cell(o->table, callpath_excl(o->path, id, o->clock),
		               o->tree->header.unit, o->text);
		table_u64(o->table, n->calls);
	}
	if (o->measuring)
		return;
	label = node_label(o, n);
	if (o->text) {
		char *indented =
		        depth > TREE_MAX_INDENT
		                ? xasprintf("%*s[%u] %s", TREE_MAX_INDENT * 2,
		                            "", depth, label)
		                : xasprintf("%*s%s", (int)depth * 2, "", label);

		table_str(o->table, indented);
		free(indented);
	} else {
		table_u64(o->table, depth);
		table_str(o->table, label);
	}
	free(label);
}

/* Print the subtrees of the root's children, depth first, with an
 * explicit stack (call trees can be a million levels deep). */
static void
emit(struct tree_out *o)
{
	const struct callpath *p = o->path;
	uint32_t *stack = NULL;
	size_t n = 0, cap = 0;
	uint32_t ch;

	/* Push children in reverse so the largest comes out first. */
	for (ch = p->nodes[0].first_child; ch != CALL_NONE;
	     ch = p->nodes[ch].next_sibling) {
		UTIL_GROW(stack, cap, n + 1);
		stack[n++] = ch;
	}
	for (size_t i = 0; i < n / 2; i++) {
		uint32_t x = stack[i];

		stack[i] = stack[n - 1 - i];
		stack[n - 1 - i] = x;
	}
	while (n) {
		uint32_t id = stack[--n];
		const struct callpath_node *node = &p->nodes[id];
		size_t mark = n;

		if (pct(node->incl[o->clock], o->total) < o->min_pct)
			continue;
		emit_node(o, id, node->depth - 1);
		for (ch = node->first_child; ch != CALL_NONE;
		     ch = p->nodes[ch].next_sibling) {
			UTIL_GROW(stack, cap, n + 1);
			stack[n++] = ch;
		}
		for (size_t i = mark, j = n; i < j--; i++) {
			uint32_t x = stack[i];

			stack[i] = stack[j];
			stack[j] = x;
		}
	}
	free(stack);
}

/* When every path is under --min-pct (a path's total is at most its
 * caller's, so when every top-level one is), say so on stderr rather
 * than leave a table of no rows unexplained. */
static void
note_all_pruned(const struct tree_out *o)
{
	const struct callpath *p = o->path;
	size_t top = 0;
	uint32_t ch;

	for (ch = p->nodes[0].first_child; ch != CALL_NONE;
	     ch = p->nodes[ch].next_sibling) {
		if (pct(p->nodes[ch].incl[o->clock], o->total) >= o->min_pct)
			return;
		top++;
	}
	if (top)
		cmd_error("tree",
		          "note: each of the %zu top-level call paths is under "
		          "--min-pct %g%% of the total; --min-pct 0 shows them",
		          top, o->min_pct);
}

/* table_print_rows' rows: the tree, measured or printed. */
static void
emit_rows(void *arg, bool measuring)
{
	struct tree_out *o = arg;

	o->measuring = measuring;
	emit(o);
}

/* The table of a sampled profile: report's columns, and no calls. */
static struct table *
sampled_table(const struct tree_out *o, const char *incl, const char *excl)
{
	static const enum table_kind kinds[] = {
	        TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER,
	        TABLE_NUMBER, TABLE_NUMBER, TABLE_STRING,
	};
	static const char *const samples[] = {
	        "Total %",  "Samples", "Self samples",
	        "Total ms", "Self ms", "Method",
	};
	static const char *const data[] = {
	        "total_pct", "total", "self",   "total_us",
	        "self_us",   "depth", "method",
	};
	const char *values[] = {"Incl %", incl, excl, "Method"};

	if (!o->text)
		return table_new(7, data, kinds);
	if (o->tree->header.sample_weight)
		return table_new(6, samples, kinds + 1);
	return table_new(4, values, kinds + 3);
}

int
cmd_tree(int argc, char **argv)
{
	static const enum table_kind kinds[] = {TABLE_NUMBER, TABLE_NUMBER,
	                                        TABLE_NUMBER, TABLE_NUMBER,
	                                        TABLE_NUMBER, TABLE_STRING};
	static const enum table_kind text_kinds[] = {TABLE_NUMBER, TABLE_NUMBER,
	                                             TABLE_NUMBER, TABLE_NUMBER,
	                                             TABLE_STRING};
	struct cmd_trace ct;
	struct callpath path;
	struct tree_out o = {0};
	char incl[32], excl[32];
	const char *text_names[] = {"Incl %", incl, excl, "Calls", "Method"};
	const char *data_names[] = {"incl_pct", incl,    excl,
	                            "calls",    "depth", "method"};
	int status = cmd_open(&ct, &tree_spec, argc, argv);

	if (status >= 0)
		return status;
	o.clock = ct.clock;
	callpath_build_whole(&path, ct.tree, &ct.scope, !ct.opts.no_thread);
	callpath_sort(&path, o.clock);
	o.tree = ct.tree;
	o.path = &path;
	o.text = ct.opts.format == TABLE_TEXT;
	o.total = scope_total(&ct.scope, ct.tree, o.clock);
	o.min_pct = ct.opts.min_pct;
	/* Text in ms (or the profile's unit), as report's; the machine
	 * formats in integer microseconds, named so. */
	cmd_value_name(incl, sizeof(incl), "Incl", "incl", ct.tree->header.unit,
	               o.text);
	cmd_value_name(excl, sizeof(excl), "Excl", "excl", ct.tree->header.unit,
	               o.text);
	o.sampled = cmd_sampled(ct.tree);
	if (o.sampled)
		o.table = sampled_table(&o, incl, excl);
	else
		o.table = o.text ? table_new(5, text_names, text_kinds)
		                 : table_new(6, data_names, kinds);
	/* A row per call path: streamed, so that a deep or wide tree
	 * costs no more memory than its paths. */
	table_print_rows(o.table, stdout, ct.opts.format, emit_rows, &o);
	table_free(o.table);
	note_all_pruned(&o);
	callpath_done(&path);
	cmd_close(&ct);
	return CMD_OK;
}
