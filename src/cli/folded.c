/*
 * folded: FlameGraph's folded stacks, one line per call path with its
 * exclusive time in microseconds:
 * "thread;Class.method (I)V;Class.callee (Lpkg/Type,)V 42".  Frames are
 * full names, so overloads stay apart, with every ';' written ',' (the
 * frame separator); a ';' or a space inside a thread name becomes '_'.
 * The time outside any method is a frame of its own, so the lines add up
 * to the scope's total.  A sampled recording's lines say what report's
 * and tree's columns do: its samples' time in microseconds, or with
 * --clock cpu its samples.  Paths are printed however deep they go, unless
 * the output would be quadratic in a deep recursion (cut_deep).
 */
#include "config.h"

#include "query/callpath.h"
#include "cli/cmd.h"
#include "query/method-name.h"
#include "text/width.h"
#include "util/alloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const struct cmd_spec folded_spec = {
        .name = "folded",
        .args = "FILE",
        .summary = "Print folded stacks (exclusive microseconds per call "
                   "path) for FlameGraph, flamelens or speedscope.",
        .options = OPT_THREAD | OPT_RANGE | OPT_CLOCK | OPT_NO_THREAD |
                   OPT_MAPPING | OPT_SAMPLE_TYPE | OPT_TRANSFORM,
        .min_args = 1,
        .max_args = 1,
};

/* A frame's text with separators made safe: in a thread name ';' and
 * ' ' become '_'; in a method's signature ';' becomes ',', which no
 * signature holds, so overloads stay apart. */
static char *
frame_text(const char *raw, bool is_thread)
{
	char *s = text_escape(raw);
	char *p;

	for (p = s; *p; p++)
		if (is_thread && (*p == ';' || *p == ' '))
			*p = '_';
		else if (*p == ';')
			*p = ',';
	return s;
}

/* Frames the lines may hold in all before deep paths are cut: each line
 * repeats its whole path, so a deep recursion would otherwise make the
 * output grow with the square of its depth.  Below this, every path is
 * printed however deep it goes. */
enum { FOLDED_MAX_FRAMES = 1 << 25, FOLDED_MIN_CUT = 1024 };

struct folded {
	const struct calltree *tree;
	const struct callpath *path;
	enum clock_index clock;
	char **frames;  /* text of each path node, built once */
	uint64_t *excl; /* exclusive time of each node, cut ones moved up */
	uint32_t *stack;
	size_t stack_cap;
};

/* Each node's exclusive time; when the lines would hold more than
 * FOLDED_MAX_FRAMES frames, the time of nodes deeper than a depth that
 * keeps them about that size moves to their ancestor at that depth,
 * which is returned (0: nothing cut). */
static uint32_t
cut_deep(struct folded *f)
{
	const struct callpath *p = f->path;
	uint64_t frames = 0, lines = 0;
	uint32_t cut, *anchor;
	size_t i;

	for (i = 0; i < p->count; i++) {
		f->excl[i] = callpath_excl(p, (uint32_t)i, f->clock);
		if (f->excl[i]) {
			frames += p->nodes[i].depth;
			lines++;
		}
	}
	if (frames <= FOLDED_MAX_FRAMES)
		return 0;
	cut = (uint32_t)(FOLDED_MAX_FRAMES / lines);
	if (cut < FOLDED_MIN_CUT)
		cut = FOLDED_MIN_CUT;
	anchor = xcalloc(p->count + 1, sizeof(*anchor));
	for (i = 0; i < p->count; i++) {
		const struct callpath_node *n = &p->nodes[i];

		if (n->depth <= cut)
			continue;
		/* Parents come before children among the nodes. */
		anchor[i] = n->depth == cut + 1 ? n->parent : anchor[n->parent];
		f->excl[anchor[i]] += f->excl[i];
		f->excl[i] = 0;
	}
	free(anchor);
	return cut;
}

static void
print_path(struct folded *f, uint32_t id)
{
	size_t depth = 0, i;
	uint32_t at;
	uint64_t excl = f->excl[id];

	if (!excl)
		return;
	for (at = id; at != 0; at = f->path->nodes[at].parent) {
		UTIL_GROW(f->stack, f->stack_cap, depth + 1);
		f->stack[depth++] = at;
	}
	for (i = depth; i-- > 0;)
		printf("%s%s", f->frames[f->stack[i]], i ? ";" : "");
	printf(" %" PRIu64 "\n", cmd_samples(f->tree, f->clock, excl));
}

int
cmd_folded(int argc, char **argv)
{
	struct cmd_trace ct;
	struct calltree *tree;
	struct callpath path;
	struct folded f = {0};
	uint32_t cut;
	size_t i;
	int status = cmd_open(&ct, &folded_spec, argc, argv);

	if (status >= 0)
		return status;
	tree = ct.tree;
	f.clock = ct.clock;
	/* A sampled recording's cpu clock counts samples, each the
	 * sampling period: its time is on the wall clock (report's _us). */
	if (tree->header.sample_weight && ct.opts.clock < 0)
		f.clock = cmd_times_clock(tree);
	callpath_build_whole(&path, tree, &ct.scope, !ct.opts.no_thread);
	f.tree = tree;
	f.path = &path;
	f.frames = xcalloc(path.count, sizeof(*f.frames));
	for (i = 1; i < path.count; i++) {
		const struct callpath_node *n = &path.nodes[i];
		char *raw =
		        n->method == CALLPATH_OUTSIDE
		                ? xstrdup(CALLPATH_OUTSIDE_NAME)
		        : n->method == CALL_NONE
		                ? xstrdup(tree->threads[n->thread].name)
		                : method_full_name(&tree->methods[n->method]);

		f.frames[i] = frame_text(raw, n->method == CALL_NONE);
		free(raw);
	}
	f.excl = xcalloc(path.count + 1, sizeof(*f.excl));
	cut = cut_deep(&f);
	if (cut)
		cmd_error("folded",
		          "%s: paths deeper than %" PRIu32 " frames end there "
		          "(the time below is counted in their last frame), "
		          "or the output would grow with the square of the "
		          "depth",
		          tree->path, cut);
	for (i = 1; i < path.count; i++)
		print_path(&f, (uint32_t)i);
	free(f.excl);
	for (i = 0; i < path.count; i++)
		free(f.frames[i]);
	free(f.frames);
	free(f.stack);
	callpath_done(&path);
	cmd_close(&ct);
	return CMD_OK;
}
