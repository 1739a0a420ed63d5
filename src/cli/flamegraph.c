/*
 * flamegraph: the scope's call paths as a self-contained SVG flame graph
 * (query/flame-svg.h), or icicle with --inverted; with --base, a
 * differential graph of FILE against BASE on the same paths.  Each
 * thread is a frame under the root unless --no-thread merges the
 * threads' paths; the root is the scope's total, as `report` prints it.
 */
#include "config.h"

#include "cli/cmd.h"
#include "query/callpath.h"
#include "query/flame-svg.h"
#include "query/flame.h"
#include "query/quantity.h"
#include "util/alloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const struct cmd_spec flamegraph_spec = {
        .name = "flamegraph",
        .args = "FILE",
        .summary = "Write a flame graph of FILE's call paths as a "
                   "self-contained SVG.",
        .options = OPT_THREAD | OPT_RANGE | OPT_CLOCK | OPT_NO_THREAD |
                   OPT_MAPPING | OPT_BASE | OPT_WIDTH | OPT_MIN_WIDTH |
                   OPT_INVERTED | OPT_SAMPLE_TYPE | OPT_TRANSFORM,
        .min_args = 1,
        .max_args = 1,
        .epilog = "Frame widths are inclusive times; the root is the "
                  "scope's total, as\n"
                  "'tracetui report' prints it.  Frames are coloured by "
                  "package.  In a\n"
                  "browser: hover for the numbers, click to zoom, Search "
                  "(or Ctrl-F) to\n"
                  "highlight and sum matching frames.\n"
                  "With --base, the widths are FILE's and the colours "
                  "the change in each\n"
                  "frame's exclusive time on the same call path: red grew, "
                  "blue shrank.\n"
                  "The SVG goes to standard output.\n",
};

static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

/* A total: microseconds as "1234.567 ms", a pprof profile's size or
 * count as query/quantity.c writes it. */
static void
fmt_total(char *buf, size_t size, uint64_t v, enum trace_unit unit)
{
	if (unit == TRACE_UNIT_US)
		snprintf(buf, size, "%" PRIu64 ".%03" PRIu64 " ms", v / 1000,
		         v % 1000);
	else
		quantity_format(buf, size, v, unit, true);
}

/* What the values measure: "wall clock", or a profile's sample type. */
static char *
measure_text(const struct calltree *tree, enum clock_index k)
{
	const char *type = calltree_property(tree, "pprof-sample-type");

	if (type)
		return xasprintf("%s", type);
	return xasprintf("%s clock", k == CLOCK_CPU ? "thread-cpu" : "wall");
}

/* "all 8 threads", "thread main", "3 threads". */
static char *
scope_text(const struct calltree *tree, const struct scope *scope)
{
	size_t t;

	if (scope_is_all(scope))
		return xasprintf("all %zu threads", tree->nthreads);
	if (scope->count == 1)
		for (t = 0; t < tree->nthreads; t++)
			if (scope_has(scope, t))
				return xasprintf("thread %s",
				                 tree->threads[t].name);
	return xasprintf("%zu threads", scope->count);
}

/* One trace's scope, clock check and sorted call paths. */
struct side {
	struct calltree *tree;
	struct scope scope;
	struct callpath path;
	uint64_t total;
	bool scoped, built;
};

static int
side_open(struct side *s, const char *file, const struct cmd_opts *opts,
          enum clock_index *k, bool pick_clock)
{
	s->tree = cmd_load(opts, file);
	if (!s->tree)
		return cmd_load_status();
	if (!cmd_scope(&s->scope, s->tree, opts))
		return CMD_USAGE;
	s->scoped = true;
	if (pick_clock && !cmd_clock(s->tree, opts, k))
		return CMD_USAGE;
	if (!s->tree->has_clock[*k]) {
		cmd_error("flamegraph", "%s: the trace has no %s clock",
		          s->tree->path,
		          *k == CLOCK_CPU ? "thread-cpu" : "wall");
		return CMD_USAGE;
	}
	callpath_build(&s->path, s->tree, &s->scope, !opts->no_thread);
	callpath_sort(&s->path, *k);
	s->built = true;
	s->total = scope_total(&s->scope, s->tree, *k);
	return -1;
}

static void
side_close(struct side *s)
{
	if (s->built)
		callpath_done(&s->path);
	if (s->scoped)
		scope_done(&s->scope);
	calltree_free(s->tree);
}

int
cmd_flamegraph(int argc, char **argv)
{
	struct cmd_opts opts;
	struct side now = {0}, base = {0};
	struct flame flame = {0};
	struct flame_base fb = {0};
	struct flame_svg svg = {0};
	enum clock_index k = CLOCK_CPU;
	char *scope = NULL, *title = NULL, *subtitle = NULL, *measure = NULL;
	char a[40], b[40];
	uint64_t min_incl = 0;
	int plot;
	int status = cmd_parse(&flamegraph_spec, argc, argv, &opts);

	if (status >= 0)
		return status;
	status = side_open(&now, opts.args[0], &opts, &k, true);
	if (status < 0 && opts.base)
		status = side_open(&base, opts.base, &opts, &k, false);
	if (status >= 0)
		goto out;
	plot = flame_svg_plot_width(opts.width);
	if (opts.min_width > 0) {
		/* The least width drawn, rounded up to whole microseconds. */
		double least = opts.min_width * (double)now.total / plot;

		min_incl = (uint64_t)least;
		if ((double)min_incl < least)
			min_incl++;
	}
	flame_layout(&flame, &now.path, k, now.total, min_incl);
	if (flame.cut)
		cmd_error("flamegraph",
		          "%s: frames deeper than %d are left out",
		          now.tree->path, FLAME_MAX_DEPTH);
	scope = scope_text(now.tree, &now.scope);
	fmt_total(a, sizeof(a), flame.total, now.tree->header.unit);
	measure = measure_text(now.tree, k);
	if (opts.base) {
		flame_match(&fb, &flame, &now.path, now.tree, &base.path,
		            base.tree, k, base.total);
		svg.base = &fb;
		title = xasprintf("Differential flame graph: %s against %s",
		                  base_name(now.tree->path),
		                  base_name(base.tree->path));
		fmt_total(b, sizeof(b), fb.total, base.tree->header.unit);
		subtitle =
		        xasprintf("%s, %s%s%s: base %s, new %s "
		                  "(%+.2f%%); red grew, blue shrank",
		                  scope, measure, opts.range ? ", range " : "",
		                  opts.range ? opts.range : "", b, a,
		                  fb.total ? 100.0 *
		                                     ((double)flame.total -
		                                      (double)fb.total) /
		                                     (double)fb.total
		                           : 0.0);
	} else {
		title = xasprintf("%s graph: %s",
		                  opts.inverted ? "Icicle" : "Flame",
		                  base_name(now.tree->path));
		subtitle = xasprintf("%s, %s%s%s, total %s", scope, measure,
		                     opts.range ? ", range " : "",
		                     opts.range ? opts.range : "", a);
	}
	svg.width = opts.width;
	svg.inverted = opts.inverted;
	svg.title = title;
	svg.subtitle = subtitle;
	svg.root_name = scope;
	flame_svg_write(stdout, &flame, &now.path, now.tree, &svg);
	status = CMD_OK;
out:
	free(scope);
	free(title);
	free(subtitle);
	free(measure);
	flame_base_done(&fb);
	flame_done(&flame);
	side_close(&base);
	side_close(&now);
	cmd_opts_done(&opts);
	return status;
}
