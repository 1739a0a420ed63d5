/*
 * heap: the batch commands on a Java heap dump (binary HPROF): info,
 * report (the class histogram), tree (dominators), paths, leaks, diff,
 * folded and flamegraph.  main.c hands a command here when its file is
 * a heap dump (paths and leaks always come here).
 *
 * The histogram's TSV is a stable interface: class, instances,
 * shallow_bytes, retained_bytes.
 */
#include "config.h"

#include "cli/cmd.h"
#include "model/heap.h"
#include "query/heap-dominators.h"
#include "query/heap-flame.h"
#include "query/heap-histogram.h"
#include "query/heap-instances.h"
#include "query/heap-leaks.h"
#include "query/heap-paths.h"
#include "read/load.h"
#include "text/markup.h"
#include "text/table.h"
#include "text/width.h"
#include "util/alloc.h"

#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The options of the heap commands. */
struct heap_opts {
	const char *cmd;
	const char *sort; /* NULL: the command's default */
	long top;         /* -1: all */
	enum table_format format;
	const char *heap; /* --heap, NULL: the dump's default */
	const char *mapping;
	struct mapping *names;
	double min_pct;
	bool duplicates;
	bool fail_if_any;
	const char **fail_if;
	size_t nfail_if;
	char **args;
	int nargs;
};

static const char *const heap_verbs[] = {
        "info", "report", "tree",       "paths", "leaks",
        "diff", "folded", "flamegraph", NULL,
};

static void
heap_usage(const char *cmd, FILE *out)
{
	fprintf(out,
	        "Usage: tracetui %s [OPTIONS] %s\n\n"
	        "On a Java heap dump (binary HPROF, gzip allowed):\n"
	        "  info        format, heaps, objects, classes, roots, "
	        "totals\n"
	        "  report      the class histogram: instances, shallow and "
	        "retained bytes\n"
	        "  tree        the dominator tree, by retained size\n"
	        "  paths DUMP CLASS|0xID   the shortest strong path from "
	        "a GC root\n"
	        "  leaks       leak suspects (LeakCanary's watched objects, "
	        "destroyed\n"
	        "              Activities, detached Fragments)\n"
	        "  diff BASE NEW   the change per class\n"
	        "  folded, flamegraph   retained size by dominator path "
	        "(folded stacks, SVG)\n\n"
	        "Options:\n"
	        "  -s, --sort COLUMN   retained (default), shallow, "
	        "instances, class\n"
	        "  -n, --top N         print only the first N rows (paths: "
	        "N objects)\n"
	        "  -f, --format FMT    text, tsv, csv or json\n"
	        "      --heap HEAP     app, image, zygote or all (default: "
	        "app on Android)\n"
	        "      --mapping FILE  R8/ProGuard map for class and field "
	        "names\n"
	        "      --min-pct P     tree, folded: leave out nodes under "
	        "P%% (default 1)\n"
	        "      --duplicates    report: Strings and primitive arrays "
	        "held more than once\n"
	        "      --fail-if EXPR  diff: exit 1 when METRIC[(GLOB)] > "
	        "[+]N[%%] holds;\n"
	        "                      METRIC: instances, shallow, "
	        "retained\n"
	        "      --fail-if-any   leaks: exit 1 when there is a "
	        "suspect\n"
	        "  -h, --help\n\n"
	        "Exit status: 0 success, 1 a --fail-if or --fail-if-any "
	        "condition holds,\n2 usage error, 3 the file cannot be "
	        "read, 4 the output cannot be written.\n",
	        cmd,
	        strcmp(cmd, "diff") == 0    ? "BASE NEW"
	        : strcmp(cmd, "paths") == 0 ? "DUMP CLASS|0xID"
	                                    : "DUMP");
}

/* Parse argv (argv[0] the command); -1 to go on, or an exit status. */
static int
heap_parse(int argc, char **argv, struct heap_opts *o)
{
	static const struct option longopts[] = {
	        {"sort", required_argument, NULL, 's'},
	        {"top", required_argument, NULL, 'n'},
	        {"format", required_argument, NULL, 'f'},
	        {"heap", required_argument, NULL, 'H'},
	        {"mapping", required_argument, NULL, 'm'},
	        {"min-pct", required_argument, NULL, 'p'},
	        {"duplicates", no_argument, NULL, 'd'},
	        {"fail-if", required_argument, NULL, 'F'},
	        {"fail-if-any", no_argument, NULL, 'A'},
	        {"help", no_argument, NULL, 'h'},
	        {NULL, 0, NULL, 0},
	};
	int c, fmt, want;
	char *end;
	bool *operand;

	memset(o, 0, sizeof(*o));
	o->cmd = argv[0];
	o->top = -1;
	o->min_pct = 1.0;
	o->format = TABLE_TEXT;
	optind = 1;
	opterr = 0;
	operand = xcalloc((size_t)argc + 1, sizeof(*operand));
	/* "-": each operand comes back in order as 1, POSIXLY_CORRECT or
	 * not, so that options may follow them (cmd_parse's rule). */
	while ((c = getopt_long(argc, argv, "-s:n:f:h", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 1:
			operand[optind - 1] = true;
			break;
		case 's':
			o->sort = optarg;
			break;
		case 'n':
			o->top = strtol(optarg, &end, 10);
			if (*end || o->top < 0) {
				cmd_error(o->cmd,
				          "-n: expected a count, got "
				          "'%s'",
				          optarg);
				free(operand);
				return CMD_USAGE;
			}
			break;
		case 'f':
			fmt = table_format_parse(optarg);
			if (fmt < 0) {
				cmd_error(o->cmd,
				          "--format: expected text, tsv, csv "
				          "or json, got '%s'",
				          optarg);
				free(operand);
				return CMD_USAGE;
			}
			o->format = (enum table_format)fmt;
			break;
		case 'H':
			o->heap = optarg;
			break;
		case 'm':
			o->mapping = optarg;
			break;
		case 'p':
			o->min_pct = strtod(optarg, &end);
			if (*end || o->min_pct < 0 || o->min_pct > 100) {
				cmd_error(o->cmd,
				          "--min-pct: expected a "
				          "percentage, got '%s'",
				          optarg);
				free(operand);
				return CMD_USAGE;
			}
			break;
		case 'd':
			o->duplicates = true;
			break;
		case 'F':
			o->fail_if = xreallocarray(o->fail_if, o->nfail_if + 1,
			                           sizeof(char *));
			o->fail_if[o->nfail_if++] = optarg;
			break;
		case 'A':
			o->fail_if_any = true;
			break;
		case 'h':
			heap_usage(o->cmd, stdout);
			free(operand);
			return CMD_OK;
		default:
			cmd_error(o->cmd,
			          "unknown option '%s' (see 'tracetui "
			          "%s --help')",
			          argv[optind - 1], o->cmd);
			free(operand);
			return CMD_USAGE;
		}
	}
	while (optind < argc) /* after "--" */
		operand[optind++] = true;
	o->nargs = cmd_permute_operands(argc, argv, operand);
	o->args = argv + argc - o->nargs;
	free(operand);
	want = strcmp(o->cmd, "diff") == 0 || strcmp(o->cmd, "paths") == 0 ? 2
	                                                                   : 1;
	if (o->nargs != want) {
		cmd_error(o->cmd, "expected %s (see 'tracetui %s --help')",
		          want == 2 ? (strcmp(o->cmd, "diff") == 0
		                               ? "BASE and NEW"
		                               : "DUMP and CLASS or 0xID")
		                    : "one DUMP",
		          o->cmd);
		return CMD_USAGE;
	}
	if (o->mapping) {
		char *error = NULL;

		o->names = mapping_load(o->mapping, &error);
		if (!o->names) {
			cmd_error(o->cmd, "%s", error);
			free(error);
			return CMD_USAGE;
		}
	}
	return -1;
}

static void
heap_opts_done(struct heap_opts *o)
{
	mapping_free(o->names);
	free(o->fail_if);
}

/* A percentage on the terminal's stderr while a large dump is walked. */
static void
show_progress(void *arg, uint64_t done, uint64_t total)
{
	if (!total)
		return;
	fputc('\r', stderr);
	cmd_print(stderr, "tracetui: reading %s: %3d%%", (const char *)arg,
	          (int)(done * 100 / total));
}

/* Open path; NULL after the message.  A dump cut short says so and
 * is kept. */
static struct heap_dump *
open_dump(const struct heap_opts *o, const char *path)
{
	struct trace_error err = {0};
	bool tty = isatty(STDERR_FILENO);
	struct heap_dump *d = heap_dump_open(
	        path, o->names, tty ? show_progress : NULL, (void *)path, &err);

	if (tty)
		fputs("\r\033[K", stderr);
	if (!d) {
		cmd_error(NULL, "%s: offset %llu: %s",
		          err.path ? err.path : path,
		          (unsigned long long)err.offset,
		          err.message ? err.message : "cannot be read");
		trace_error_clear(&err);
		return NULL;
	}
	if (!d->complete)
		cmd_error(NULL,
		          "%s: offset %llu: %s (the dump is cut or damaged "
		          "there: what was before it is shown)",
		          path, (unsigned long long)d->cut.offset,
		          d->cut.message);
	if (!d->nobjects) {
		cmd_error(NULL,
		          "%s: offset %zu: the dump ends before its first "
		          "object",
		          path, d->size);
		heap_dump_free(d);
		return NULL;
	}
	return d;
}

/* The heaps --heap shows, or NULL for all; false after a message. */
static bool
pick_heaps(const struct heap_opts *o, const struct heap_dump *d, bool **out)
{
	const char *want = o->heap;
	size_t i;
	bool any = false;

	*out = NULL;
	if (!want)
		want = heap_default(d);
	if (strcmp(want, "all") == 0)
		return true;
	*out = xcalloc(d->nheaps + 1, sizeof(bool));
	for (i = 0; i < d->nheaps; i++)
		if (strcmp(d->heaps[i], want) == 0)
			any = (*out)[i] = true;
	if (!any && !o->heap) {
		free(*out); /* no app heap: show them all */
		*out = NULL;
		return true;
	}
	if (!any) {
		cmd_error(o->cmd, "--heap %s: the dump has no such heap", want);
		free(*out);
		*out = NULL;
		return false;
	}
	return true;
}

/* "Class@0xid", or "class Name@0xid" for a class object, into buf. */
static const char *
object_name(const struct heap_dump *d, uint32_t i, char *buf, size_t size)
{
	return heap_object_label(d, i, buf, size);
}

/* ---- info ---- */

static int
heap_info(struct heap_opts *o)
{
	struct heap_dump *d = open_dump(o, o->args[0]);
	uint64_t shallow = 0, *heap_objects, *heap_bytes;
	const size_t *by_tag;
	uint64_t reachable_bytes;
	uint8_t *reached;
	size_t reachable;
	uint64_t largest[10] = {0};
	size_t i, k, run = 0, in_order;

	if (!d)
		return CMD_INPUT;
	reachable = heap_reachable(d, &reached);
	reachable_bytes = 0;
	heap_objects = xcalloc(d->nheaps + 1, sizeof(uint64_t));
	heap_bytes = xcalloc(d->nheaps + 1, sizeof(uint64_t));
	for (i = 0, in_order = 0; i < d->nobjects; i++) {
		uint64_t s = heap_shallow_in_order(d, (uint32_t)i, &in_order);

		if (reached[i / 8] >> (i % 8) & 1)
			reachable_bytes += s;
		while (run + 1 < d->nruns && d->runs[run + 1].first <= i)
			run++;
		shallow += s;
		/* The ten largest, kept in order by insertion. */
		for (k = 10; k > 0 && largest[k - 1] < s; k--)
			if (k < 10)
				largest[k] = largest[k - 1];
		if (k < 10)
			largest[k] = s;
		if (d->nruns) {
			heap_objects[d->runs[run].heap]++;
			heap_bytes[d->runs[run].heap] += s;
		}
	}
	by_tag = d->objects_by_tag;
	cmd_print(stdout, "format: binary HPROF heap dump (%s), id size %u%s\n",
	          d->header.version, d->header.id_size,
	          d->bytes.gzip ? ", gzip" : "");
	printf("bytes: %zu\n", d->size);
	printf("status: %s\n", d->complete ? "complete" : "cut short");
	for (i = 0; i < d->nheaps; i++)
		cmd_print(stdout, "heap %s: %llu objects, %llu bytes\n",
		          d->heaps[i], (unsigned long long)heap_objects[i],
		          (unsigned long long)heap_bytes[i]);
	printf("objects: %zu (instances %llu, object arrays %llu, primitive "
	       "arrays %llu, class objects %llu)\n",
	       d->nobjects, (unsigned long long)by_tag[HEAP_INSTANCE],
	       (unsigned long long)by_tag[HEAP_OBJECT_ARRAY],
	       (unsigned long long)(by_tag[HEAP_PRIMITIVE_ARRAY] +
	                            by_tag[HEAP_PRIMITIVE_NODATA]),
	       (unsigned long long)by_tag[HEAP_CLASS_DUMP]);
	printf("classes: %zu (%zu names)\n", d->nclasses, d->nrows);
	printf("roots: %zu records, %zu naming an object of the dump\n",
	       d->nroot_records, d->nroots);
	for (i = 0; i < 256; i++)
		if (d->root_types[i])
			printf("root %s: %zu\n", heap_root_name((unsigned)i),
			       d->root_types[i]);
	printf("reachable: %zu objects, %llu bytes\n", reachable,
	       (unsigned long long)reachable_bytes);
	printf("shallow bytes: %llu\n", (unsigned long long)shallow);
	printf("largest shallow sizes:");
	for (k = 0; k < 10 && k < d->nobjects; k++)
		printf(" %llu", (unsigned long long)largest[k]);
	putchar('\n');
	free(heap_objects);
	free(heap_bytes);
	free(reached);
	heap_dump_free(d);
	return CMD_OK;
}

/* ---- report ---- */

enum sort_key { BY_RETAINED, BY_SHALLOW, BY_INSTANCES, BY_CLASS };

static bool
sort_key(const struct heap_opts *o, enum sort_key *k)
{
	static const char *const names[] = {"retained", "shallow", "instances",
	                                    "class"};
	size_t i;

	*k = BY_RETAINED;
	if (!o->sort)
		return true;
	for (i = 0; i < 4; i++)
		if (strcmp(o->sort, names[i]) == 0) {
			*k = (enum sort_key)i;
			return true;
		}
	cmd_error(o->cmd,
	          "--sort: expected retained, shallow, instances or class, "
	          "got '%s'",
	          o->sort);
	return false;
}

static enum sort_key sort_by;

static int
row_order(const void *a, const void *b)
{
	const struct heap_row *x = a, *y = b;
	uint64_t u = 0, v = 0;

	switch (sort_by) {
	case BY_RETAINED:
		u = x->retained, v = y->retained;
		break;
	case BY_SHALLOW:
		u = x->shallow, v = y->shallow;
		break;
	case BY_INSTANCES:
		u = x->instances, v = y->instances;
		break;
	case BY_CLASS:
		return strcmp(x->name, y->name);
	}
	if (u != v)
		return u < v ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int
report_duplicates(struct heap_opts *o, const struct heap_dump *d,
                  const bool *shown)
{
	static const char *const names[] = {"class", "count", "wasted_bytes",
	                                    "example"};
	static const char *const text_names[] = {"Class", "Count", "Wasted",
	                                         "Example"};
	static const enum table_kind kinds[] = {TABLE_STRING, TABLE_NUMBER,
	                                        TABLE_NUMBER, TABLE_STRING};
	struct heap_duplicate *dup;
	size_t n, i;
	struct table *t = table_new(
	        4, o->format == TABLE_TEXT ? text_names : names, kinds);
	char buf[512];

	heap_duplicates(d, shown, &dup, &n);
	for (i = 0; i < n && (o->top < 0 || (long)i < o->top); i++) {
		table_row(t);
		table_str(t, dup[i].name);
		table_u64(t, dup[i].count);
		table_u64(t, dup[i].wasted);
		table_str(t, object_name(d, dup[i].example, buf, sizeof(buf)));
	}
	table_print(t, stdout, o->format);
	table_free(t);
	free(dup);
	return CMD_OK;
}

static int
heap_report(struct heap_opts *o)
{
	static const char *const names[] = {"class", "instances",
	                                    "shallow_bytes", "retained_bytes"};
	static const char *const text_names[] = {"Class", "Instances",
	                                         "Shallow", "Retained"};
	static const enum table_kind kinds[] = {TABLE_STRING, TABLE_NUMBER,
	                                        TABLE_NUMBER, TABLE_NUMBER};
	struct heap_dump *d;
	struct heap_dominators dom;
	struct heap_histogram h;
	struct table *t;
	bool *shown;
	size_t i;
	int status = CMD_OK;

	if (!sort_key(o, &sort_by))
		return CMD_USAGE;
	if (!(d = open_dump(o, o->args[0])))
		return CMD_INPUT;
	if (!pick_heaps(o, d, &shown)) {
		heap_dump_free(d);
		return CMD_USAGE;
	}
	if (o->duplicates) {
		status = report_duplicates(o, d, shown);
		free(shown);
		heap_dump_free(d);
		return status;
	}
	heap_dominators_compute(&dom, d);
	heap_histogram_build(&h, d, &dom, shown);
	qsort(h.rows, h.nrows, sizeof(*h.rows), row_order);
	t = table_new(4, o->format == TABLE_TEXT ? text_names : names, kinds);
	for (i = 0; i < h.nrows && (o->top < 0 || (long)i < o->top); i++) {
		table_row(t);
		table_str(t, h.rows[i].name);
		table_u64(t, h.rows[i].instances);
		table_u64(t, h.rows[i].shallow);
		table_u64(t, h.rows[i].retained);
	}
	table_print(t, stdout, o->format);
	table_free(t);
	heap_histogram_done(&h);
	heap_dominators_done(&dom);
	free(shown);
	heap_dump_free(d);
	return status;
}

/* ---- tree ---- */

struct tree_frame {
	uint32_t node, next, depth;
};

static int
heap_tree(struct heap_opts *o)
{
	static const char *const names[] = {"depth", "retained_bytes",
	                                    "shallow_bytes", "object"};
	static const char *const text_names[] = {"Retained", "%", "Shallow",
	                                         "Object"};
	static const enum table_kind kinds[] = {TABLE_NUMBER, TABLE_NUMBER,
	                                        TABLE_NUMBER, TABLE_STRING};
	struct heap_dump *d = open_dump(o, o->args[0]);
	struct heap_dominators dom;
	struct tree_frame *stack;
	size_t sp = 0, cap = 64, rows = 0;
	struct table *t;
	uint64_t total, floor;
	char buf[512], *line;

	if (!d)
		return CMD_INPUT;
	heap_dominators_compute(&dom, d);
	total = dom.reachable_bytes;
	floor = (uint64_t)((double)total * o->min_pct / 100.0);
	t = table_new(4, o->format == TABLE_TEXT ? text_names : names, kinds);
	stack = xmalloc_large(cap, sizeof(*stack));
	stack[sp++] = (struct tree_frame){(uint32_t)d->nobjects,
	                                  dom.first[d->nobjects], 0};
	while (sp) {
		struct tree_frame *f = &stack[sp - 1];
		uint32_t c, depth;

		if (f->next == dom.first[f->node + 1] ||
		    dom.retained[dom.children[f->next]] < floor ||
		    !dom.retained[dom.children[f->next]] ||
		    (o->top >= 0 && (long)rows >= o->top)) {
			sp--;
			continue;
		}
		c = dom.children[f->next++];
		depth = f->depth;
		table_row(t);
		object_name(d, c, buf, sizeof(buf));
		if (o->format == TABLE_TEXT) {
			table_u64(t, dom.retained[c]);
			table_fmt(t, "%.1f",
			          total ? 100.0 * (double)dom.retained[c] /
			                          (double)total
			                : 0.0);
			table_u64(t, heap_shallow(d, c));
			line = xasprintf("%*s%s", (int)(2 * depth), "", buf);
			table_str(t, line);
			free(line);
		} else {
			table_u64(t, depth);
			table_u64(t, dom.retained[c]);
			table_u64(t, heap_shallow(d, c));
			table_str(t, buf);
		}
		rows++;
		if (sp == cap) {
			cap *= 2;
			stack = xreallocarray(stack, cap, sizeof(*stack));
		}
		stack[sp++] = (struct tree_frame){c, dom.first[c], depth + 1};
	}
	free(stack);
	table_print(t, stdout, o->format);
	table_free(t);
	heap_dominators_done(&dom);
	heap_dump_free(d);
	return CMD_OK;
}

/* ---- paths ---- */

/* Print the path to o: the root's type, then a hop per reference. */
static void
print_path(const struct heap_dump *d, const struct heap_paths *p,
           const struct heap_dominators *dom, uint32_t o)
{
	uint32_t *path;
	size_t n, k;
	char a[512], b[512];

	cmd_print(stdout, "%s  retained %llu bytes\n",
	          object_name(d, o, a, sizeof(a)),
	          (unsigned long long)dom->retained[o]);
	if (!heap_path_to(p, o, &path, &n)) {
		printf("  (no strong path from a GC root)\n");
		return;
	}
	cmd_print(stdout, "  root %s  %s\n",
	          heap_root_name(p->root_type[path[0]]),
	          object_name(d, path[0], a, sizeof(a)));
	for (k = 1; k < n; k++)
		cmd_print(stdout, "  %s  %s\n",
		          heap_slot_name(d, path[k - 1], p->slot[path[k]], a,
		                         sizeof(a)),
		          object_name(d, path[k], b, sizeof(b)));
	free(path);
}

static const uint64_t *by_retained_of;

static int
by_retained(const void *a, const void *b)
{
	uint64_t x = by_retained_of[*(const uint32_t *)a];
	uint64_t y = by_retained_of[*(const uint32_t *)b];

	if (x != y)
		return x < y ? 1 : -1;
	return (*(const uint32_t *)a > *(const uint32_t *)b) -
	       (*(const uint32_t *)a < *(const uint32_t *)b);
}

/* Whether class name is what, or ends with ".what" or "$what". */
static bool
class_is(const char *name, const char *what)
{
	size_t n = strlen(name), w = strlen(what);

	return strcmp(name, what) == 0 ||
	       (n > w && strcmp(name + n - w, what) == 0 &&
	        (name[n - w - 1] == '.' || name[n - w - 1] == '$'));
}

static int
heap_paths_cmd(struct heap_opts *o)
{
	const char *what = o->args[1];
	struct heap_dump *d = open_dump(o, o->args[0]);
	struct heap_dominators dom;
	struct heap_paths p;
	uint32_t *found;
	size_t n = 0, i;

	if (!d)
		return CMD_INPUT;
	found = xmalloc_large(d->nobjects + 1, sizeof(uint32_t));
	if (strncmp(what, "0x", 2) == 0) {
		uint32_t at = heap_find(d, strtoull(what, NULL, 16));

		if (at != HEAP_NONE)
			found[n++] = at;
	} else {
		for (i = 0; i < d->nobjects; i++)
			if (class_is(d->classes[d->klass[i]].name, what) &&
			    heap_tag(d, (uint32_t)i) != HEAP_CLASS_DUMP)
				found[n++] = (uint32_t)i;
	}
	if (!n) {
		cmd_error(o->cmd, "%s: no object %s '%s'", o->args[0],
		          strncmp(what, "0x", 2) == 0 ? "with id" : "of class",
		          what);
		free(found);
		heap_dump_free(d);
		return CMD_FAIL;
	}
	heap_dominators_compute(&dom, d);
	heap_paths_compute(&p, d);
	by_retained_of = dom.retained;
	qsort(found, n, sizeof(uint32_t), by_retained);
	for (i = 0; i < n && (long)i < (o->top < 0 ? 1 : o->top); i++) {
		if (i)
			putchar('\n');
		print_path(d, &p, &dom, found[i]);
	}
	free(found);
	heap_paths_done(&p);
	heap_dominators_done(&dom);
	heap_dump_free(d);
	return CMD_OK;
}

/* ---- leaks ---- */

static int
heap_leaks(struct heap_opts *o)
{
	struct heap_dump *d = open_dump(o, o->args[0]);
	struct heap_dominators dom;
	struct heap_paths p;
	struct heap_leak *found;
	size_t i, n;

	if (!d)
		return CMD_INPUT;
	heap_dominators_compute(&dom, d);
	heap_paths_compute(&p, d);
	heap_leaks_find(d, &dom, &found, &n);
	for (i = 0; i < n; i++) {
		if (i)
			putchar('\n');
		printf("suspect: %s\n", found[i].why);
		print_path(d, &p, &dom, found[i].object);
	}
	if (!n)
		printf("no leak suspects\n");
	free(found);
	heap_paths_done(&p);
	heap_dominators_done(&dom);
	heap_dump_free(d);
	return n && o->fail_if_any ? CMD_FAIL : CMD_OK;
}

/* ---- diff ---- */

struct diff_row {
	const char *name;
	uint64_t base[3], now[3]; /* instances, shallow, retained */
};

static int diff_key; /* the column to sort by, 0..2, or 3 for class */

static int64_t
change(const struct diff_row *r, int k)
{
	return (int64_t)r->now[k] - (int64_t)r->base[k];
}

static int
diff_order(const void *a, const void *b)
{
	const struct diff_row *x = a, *y = b;
	int64_t u, v;

	if (diff_key == 3)
		return strcmp(x->name, y->name);
	u = change(x, diff_key);
	v = change(y, diff_key);
	u = u < 0 ? -u : u;
	v = v < 0 ? -v : v;
	if (u != v)
		return u < v ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* One side's histogram, with its dump kept for its names. */
static bool
side(struct heap_opts *o, const char *path, struct heap_dump **d,
     struct heap_histogram *h)
{
	struct heap_dominators dom;
	bool *shown;

	if (!(*d = open_dump(o, path)))
		return false;
	if (!pick_heaps(o, *d, &shown)) {
		heap_dump_free(*d);
		return false;
	}
	heap_dominators_compute(&dom, *d);
	heap_histogram_build(h, *d, &dom, shown);
	heap_dominators_done(&dom);
	free(shown);
	return true;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const struct heap_row *)a)->name,
	              ((const struct heap_row *)b)->name);
}

/* Whether condition expr holds on rows; -1 after a usage message. */
static int
fail_if(const struct heap_opts *o, const char *expr,
        const struct diff_row *rows, size_t n)
{
	static const char *const metrics[] = {"instances", "shallow",
	                                      "retained"};
	char metric[32], glob[512] = "*";
	const char *p = expr, *q;
	size_t len, i;
	int k = -1;
	double limit;
	bool pct, holds = false;
	int64_t base = 0, now = 0;
	char *end;

	while (*p == ' ')
		p++;
	for (len = 0; p[len] >= 'a' && p[len] <= 'z' && len < 31; len++)
		metric[len] = p[len];
	metric[len] = '\0';
	p += len;
	for (i = 0; i < 3; i++)
		if (strcmp(metric, metrics[i]) == 0)
			k = (int)i;
	if (*p == '(' && (q = strrchr(p, ')')) &&
	    (size_t)(q - p - 1) < sizeof(glob)) {
		memcpy(glob, p + 1, (size_t)(q - p - 1));
		glob[q - p - 1] = '\0';
		p = q + 1;
	}
	while (*p == ' ')
		p++;
	if (k < 0 || *p != '>') {
		cmd_error(o->cmd,
		          "--fail-if '%s': expected METRIC[(GLOB)] > [+]N[%%] "
		          "with METRIC instances, shallow or retained",
		          expr);
		return -1;
	}
	p++;
	while (*p == ' ')
		p++;
	limit = strtod(p, &end);
	pct = *end == '%';
	if (end == p || (*end && !(pct && !end[1]))) {
		cmd_error(o->cmd, "--fail-if '%s': expected a number after '>'",
		          expr);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (fnmatch(glob, rows[i].name, 0) != 0)
			continue;
		base += (int64_t)rows[i].base[k];
		now += (int64_t)rows[i].now[k];
	}
	if (pct)
		holds = base ? (double)(now - base) * 100.0 / (double)base >
		                        limit
		             : now > 0;
	else
		holds = (double)(now - base) > limit;
	if (holds)
		cmd_error(o->cmd, "--fail-if '%s' holds: %lld -> %lld", expr,
		          (long long)base, (long long)now);
	return holds;
}

static int
heap_diff(struct heap_opts *o)
{
	static const char *const names[] = {"class",
	                                    "base_instances",
	                                    "new_instances",
	                                    "base_shallow_bytes",
	                                    "new_shallow_bytes",
	                                    "base_retained_bytes",
	                                    "new_retained_bytes"};
	static const char *const text_names[] = {
	        "Class",       "Instances", "New instances", "Shallow",
	        "New shallow", "Retained",  "New retained"};
	static const enum table_kind kinds[] = {
	        TABLE_STRING, TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER,
	        TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER};
	struct heap_dump *a, *b;
	struct heap_histogram ha, hb;
	struct diff_row *rows;
	size_t i = 0, j = 0, n = 0, k;
	struct table *t;
	int status = CMD_OK;

	if (!o->sort)
		diff_key = 2;
	else if (strcmp(o->sort, "class") == 0)
		diff_key = 3;
	else if (strcmp(o->sort, "instances") == 0)
		diff_key = 0;
	else if (strcmp(o->sort, "shallow") == 0)
		diff_key = 1;
	else if (strcmp(o->sort, "retained") == 0)
		diff_key = 2;
	else {
		cmd_error(o->cmd,
		          "--sort: expected retained, shallow, "
		          "instances or class, got '%s'",
		          o->sort);
		return CMD_USAGE;
	}
	if (!side(o, o->args[0], &a, &ha))
		return CMD_INPUT;
	if (!side(o, o->args[1], &b, &hb)) {
		heap_histogram_done(&ha);
		heap_dump_free(a);
		return CMD_INPUT;
	}
	qsort(ha.rows, ha.nrows, sizeof(*ha.rows), by_name);
	qsort(hb.rows, hb.nrows, sizeof(*hb.rows), by_name);
	rows = xcalloc(ha.nrows + hb.nrows + 1, sizeof(*rows));
	while (i < ha.nrows || j < hb.nrows) {
		int c = i == ha.nrows ? 1
		        : j == hb.nrows
		                ? -1
		                : strcmp(ha.rows[i].name, hb.rows[j].name);
		struct diff_row *r = &rows[n++];

		if (c <= 0) {
			r->name = ha.rows[i].name;
			r->base[0] = ha.rows[i].instances;
			r->base[1] = ha.rows[i].shallow;
			r->base[2] = ha.rows[i].retained;
			i++;
		}
		if (c >= 0) {
			r->name = hb.rows[j].name;
			r->now[0] = hb.rows[j].instances;
			r->now[1] = hb.rows[j].shallow;
			r->now[2] = hb.rows[j].retained;
			j++;
		}
	}
	qsort(rows, n, sizeof(*rows), diff_order);
	t = table_new(7, o->format == TABLE_TEXT ? text_names : names, kinds);
	for (k = 0; k < n && (o->top < 0 || (long)k < o->top); k++) {
		int m;

		if (diff_key != 3 && !change(&rows[k], 0) &&
		    !change(&rows[k], 1) && !change(&rows[k], 2))
			continue;
		table_row(t);
		table_str(t, rows[k].name);
		for (m = 0; m < 3; m++) {
			table_u64(t, rows[k].base[m]);
			table_u64(t, rows[k].now[m]);
		}
	}
	table_print(t, stdout, o->format);
	table_free(t);
	for (k = 0; k < o->nfail_if; k++) {
		int h = fail_if(o, o->fail_if[k], rows, n);

		if (h < 0) {
			status = CMD_USAGE;
			break;
		}
		if (h)
			status = CMD_FAIL;
	}
	free(rows);
	heap_histogram_done(&ha);
	heap_histogram_done(&hb);
	heap_dump_free(a);
	heap_dump_free(b);
	return status;
}

/* ---- folded and flamegraph ---- */

/* The floor --min-pct sets, in bytes (at least 1). */
static uint64_t
min_bytes(const struct heap_opts *o, const struct heap_dominators *dom)
{
	uint64_t floor =
	        (uint64_t)((double)dom->reachable_bytes * o->min_pct / 100.0);

	return floor ? floor : 1;
}

/* Each class path with bytes of its own, "a;b;c bytes". */
static void
folded_lines(const struct heap_flame *f, FILE *out)
{
	const char **names = xmalloc_large(f->n + 1, sizeof(char *));
	size_t i;

	/* What the roots' dominator subtrees under the floor hold. */
	if (f->n && f->nodes[0].self)
		fprintf(out, "(below --min-pct) %llu\n",
		        (unsigned long long)f->nodes[0].self);
	for (i = 1; i < f->n; i++) {
		const struct heap_flame_node *n = &f->nodes[i];
		uint32_t at, k = 0, m;

		if (!n->self)
			continue;
		for (at = (uint32_t)i; at && at != HEAP_NONE;
		     at = f->nodes[at].parent)
			names[k++] = f->nodes[at].name;
		for (m = k; m-- > 0;) {
			char *shown = text_escape(names[m]);

			fputs(shown, out);
			free(shown);
			fputc(m ? ';' : ' ', out);
		}
		fprintf(out, "%llu\n", (unsigned long long)n->self);
	}
	free(names);
}

/* The flame graph: a rectangle per class path, as wide as its retained
 * bytes, the super-root at the bottom. */
static void
flame_svg(const struct heap_flame *f, const char *title, FILE *out)
{
	const int width = 1200, pad = 10, row = 16;
	uint32_t depth = 0, *stack, sp = 0;
	double *x = xcalloc(f->n + 1, sizeof(double));
	double scale;
	size_t i;
	int height;

	for (i = 0; i < f->n; i++)
		if (f->nodes[i].depth > depth)
			depth = f->nodes[i].depth;
	height = (int)(depth + 1) * row + 3 * pad + 20;
	scale = f->nodes[0].total
	                ? (double)(width - 2 * pad) / (double)f->nodes[0].total
	                : 0;
	fprintf(out,
	        "<?xml version=\"1.0\" standalone=\"no\"?>\n"
	        "<svg version=\"1.1\" width=\"%d\" height=\"%d\" "
	        "xmlns=\"http://www.w3.org/2000/svg\" "
	        "font-family=\"Verdana\" font-size=\"12\">\n"
	        "<rect width=\"100%%\" height=\"100%%\" fill=\"#f8f8f8\"/>\n"
	        "<text x=\"%d\" y=\"20\">",
	        width, height, pad);
	markup_escape(out, title);
	fputs("</text>\n", out);
	stack = xmalloc_large(f->n + 1, sizeof(uint32_t));
	stack[sp++] = 0;
	x[0] = pad;
	while (sp) {
		uint32_t at = stack[--sp], c;
		const struct heap_flame_node *n = &f->nodes[at];
		double w = (double)n->total * scale, cx = x[at];
		double y = height - pad - (double)(n->depth + 1) * row;
		unsigned hue = 0;
		const char *p;

		for (p = n->name; *p; p++)
			hue = hue * 31 + (unsigned char)*p;
		fprintf(out, "<g><title>%s", "");
		markup_escape(out, n->name);
		fprintf(out,
		        " (%llu bytes, %.2f%%)</title>"
		        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		        "height=\"%d\" fill=\"hsl(%u,60%%,60%%)\" "
		        "rx=\"2\"/>",
		        (unsigned long long)n->total,
		        f->nodes[0].total ? 100.0 * (double)n->total /
		                                    (double)f->nodes[0].total
		                          : 0.0,
		        cx, y, w > 0.5 ? w - 0.5 : w, row - 1, hue % 360);
		if (w > 40) {
			fprintf(out,
			        "<text x=\"%.1f\" y=\"%.1f\" "
			        "textLength=\"%.1f\" "
			        "lengthAdjust=\"spacingAndGlyphs\">",
			        cx + 3, y + row - 4,
			        (double)(w - 6 < 7.0 * (double)strlen(n->name)
			                         ? w - 6
			                         : 7.0 * (double)strlen(
			                                         n->name)));
			markup_escape(out, n->name);
			fputs("</text>", out);
		}
		fputs("</g>\n", out);
		for (c = n->first_child; c != HEAP_NONE;
		     c = f->nodes[c].next_sibling) {
			x[c] = cx;
			cx += (double)f->nodes[c].total * scale;
			stack[sp++] = c;
		}
	}
	fputs("</svg>\n", out);
	free(stack);
	free(x);
}

static int
heap_folded(struct heap_opts *o, bool svg)
{
	struct heap_dump *d = open_dump(o, o->args[0]);
	struct heap_dominators dom;
	struct heap_flame f;

	if (!d)
		return CMD_INPUT;
	heap_dominators_compute(&dom, d);
	heap_flame_build(&f, d, &dom, min_bytes(o, &dom));
	if (svg) {
		char *title = xasprintf("Retained bytes by dominator path: %s",
		                        o->args[0]);

		flame_svg(&f, title, stdout);
		free(title);
	} else {
		folded_lines(&f, stdout);
	}
	heap_flame_done(&f);
	heap_dominators_done(&dom);
	heap_dump_free(d);
	return CMD_OK;
}

/* ---- dispatch ---- */

static int
run(int argc, char **argv)
{
	struct heap_opts o;
	int status = heap_parse(argc, argv, &o);
	const char *cmd = argv[0];

	if (status >= 0) {
		free(o.fail_if);
		return status;
	}
	if (strcmp(cmd, "info") == 0)
		status = heap_info(&o);
	else if (strcmp(cmd, "report") == 0)
		status = heap_report(&o);
	else if (strcmp(cmd, "tree") == 0)
		status = heap_tree(&o);
	else if (strcmp(cmd, "paths") == 0)
		status = heap_paths_cmd(&o);
	else if (strcmp(cmd, "leaks") == 0)
		status = heap_leaks(&o);
	else if (strcmp(cmd, "diff") == 0)
		status = heap_diff(&o);
	else
		status = heap_folded(&o, strcmp(cmd, "flamegraph") == 0);
	heap_opts_done(&o);
	return status;
}

int
cmd_heap_dispatch(int argc, char **argv)
{
	size_t v;
	int i;

	for (v = 0; heap_verbs[v]; v++)
		if (strcmp(argv[0], heap_verbs[v]) == 0)
			break;
	if (!heap_verbs[v])
		return -1;
	for (i = 1; i < argc; i++)
		if (argv[i][0] != '-' && trace_is_heap_dump(argv[i]))
			return run(argc, argv);
	return -1;
}

int
cmd_paths(int argc, char **argv)
{
	return run(argc, argv);
}

int
cmd_leaks(int argc, char **argv)
{
	return run(argc, argv);
}
