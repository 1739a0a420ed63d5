/*
 * folded: FlameGraph's folded stacks, one line per call path with its
 * exclusive time in microseconds: "thread;Class.method;Class.callee 42".
 * Frames carry no signature (signatures contain ';'); a ';' or a space
 * inside a thread name becomes '_' so the line still splits right.
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
                   OPT_MAPPING |
                   OPT_TRANSFORM,
        .min_args = 1,
        .max_args = 1,
};

/* A frame's text with separators made safe. */
static char *
frame_text(const char *raw, bool is_thread)
{
	char *s = text_escape(raw);
	char *p;

	for (p = s; *p; p++)
		if (*p == ';' || (is_thread && *p == ' '))
			*p = '_';
	return s;
}

/* Paths deeper than this end at this depth, the frames below folded into
 * the last one: each line repeats its whole path, so deeper paths would
 * make the output grow with the square of the depth. */
enum { FOLDED_MAX_DEPTH = 1024 };

struct folded {
	const struct calltree *tree;
	const struct callpath *path;
	enum clock_index clock;
	char **frames;  /* text of each path node, built once */
	uint64_t *excl; /* exclusive time of each node, deep ones folded */
	uint32_t *stack;
	size_t stack_cap;
};

/* Fold the exclusive time of nodes deeper than the limit into their
 * ancestor at the limit; true if any was. */
static bool
fold_deep(struct folded *f)
{
	const struct callpath *p = f->path;
	uint32_t *anchor = xcalloc(p->count + 1, sizeof(*anchor));
	bool folded = false;
	size_t i;

	for (i = 0; i < p->count; i++) {
		const struct callpath_node *n = &p->nodes[i];

		f->excl[i] += callpath_excl(p, (uint32_t)i, f->clock);
		if (n->depth <= FOLDED_MAX_DEPTH)
			continue;
		/* Parents come before children among the nodes. */
		anchor[i] = n->depth == FOLDED_MAX_DEPTH + 1
		                    ? n->parent
		                    : anchor[n->parent];
		f->excl[anchor[i]] += f->excl[i];
		f->excl[i] = 0;
		folded = true;
	}
	free(anchor);
	return folded;
}

static void
print_path(struct folded *f, uint32_t id)
{
	size_t depth = 0, i;
	uint32_t at;

	if (!f->excl[id])
		return;
	for (at = id; at != 0; at = f->path->nodes[at].parent) {
		UTIL_GROW(f->stack, f->stack_cap, depth + 1);
		f->stack[depth++] = at;
	}
	for (i = depth; i-- > 0;)
		printf("%s%s", f->frames[f->stack[i]], i ? ";" : "");
	printf(" %" PRIu64 "\n", f->excl[id]);
}

int
cmd_folded(int argc, char **argv)
{
	struct cmd_opts opts;
	struct calltree *tree;
	struct scope scope;
	struct callpath path;
	struct folded f = {0};
	size_t i;
	int status = cmd_parse(&folded_spec, argc, argv, &opts);

	if (status >= 0)
		return status;
	tree = cmd_load(&opts, opts.args[0]);
	status = CMD_INPUT;
	if (!tree)
		goto out;
	status = CMD_USAGE;
	if (!cmd_scope(&scope, tree, &opts))
		goto out;
	if (!cmd_clock(tree, &opts, &f.clock)) {
		scope_done(&scope);
		goto out;
	}
	callpath_build(&path, tree, &scope, !opts.no_thread);
	f.tree = tree;
	f.path = &path;
	f.frames = xcalloc(path.count, sizeof(*f.frames));
	for (i = 1; i < path.count; i++) {
		const struct callpath_node *n = &path.nodes[i];
		char *raw =
		        n->method == CALL_NONE
		                ? xstrdup(tree->threads[n->thread].name)
		                : method_short_name(&tree->methods[n->method]);

		f.frames[i] = frame_text(raw, n->method == CALL_NONE);
		free(raw);
	}
	f.excl = xcalloc(path.count + 1, sizeof(*f.excl));
	if (fold_deep(&f))
		cmd_error("folded",
		          "%s: paths deeper than %d frames end there (the "
		          "time below is counted in their last frame)",
		          tree->path, FOLDED_MAX_DEPTH);
	for (i = 1; i < path.count; i++)
		print_path(&f, (uint32_t)i);
	free(f.excl);
	for (i = 0; i < path.count; i++)
		free(f.frames[i]);
	free(f.frames);
	free(f.stack);
	callpath_done(&path);
	scope_done(&scope);
	status = CMD_OK;
out:
	calltree_free(tree);
	cmd_opts_done(&opts);
	return status;
}
