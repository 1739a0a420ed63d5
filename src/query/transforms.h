/*
 * transforms: the transforms a command line asks for (--focus, --merge,
 * --drop, --collapse-recursion, --group), methods chosen by a POSIX
 * extended regex on their full names, applied in the order given.
 */
#ifndef TRACETUI_TRANSFORMS_H
#define TRACETUI_TRANSFORMS_H

#include "model/calltree.h"
#include "model/transform.h"

#include <stdbool.h>
#include <stddef.h>

/* One step: a kind, and the regex for those that select methods. */
struct transform_step {
	enum transform_kind kind;
	const char *regex; /* NULL: every method */
};

/* NULL when regex compiles, else why not (static text). */
const char *transforms_check_regex(const char *regex);

/*
 * Apply steps[0..n) to tree in turn: tree is freed and the last model
 * returned (tree itself when n is 0).  A regex that matches no method
 * is named in *unmatched (the first one; NULL when none).
 */
struct calltree *transforms_apply(struct calltree *tree,
                                  const struct transform_step *steps, size_t n,
                                  const char **unmatched);

/* "--merge" for a step's kind, as the command line writes it. */
const char *transforms_option(enum transform_kind kind);

#endif
