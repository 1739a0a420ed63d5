/*
 * transforms: the transforms a command line asks for (--focus, --merge,
 * --drop, --collapse-recursion, --group), methods chosen by a POSIX
 * extended regex on their full names, applied in the order given.
 */
#ifndef TRACETUI_TRANSFORMS_H
#define TRACETUI_TRANSFORMS_H

#include "model/calltree.h"
#include "model/scope.h"
#include "model/transform.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
 * is named in *unmatched (the first one; NULL when none).  A step that
 * would leave nothing to show is refused: a focus whose regex matches no
 * call, or a step that removes every call there was; then NULL, and
 * *refused says why, naming the option and its regex (a new string).
 */
struct calltree *transforms_apply(struct calltree *tree,
                                  const struct transform_step *steps, size_t n,
                                  const char **unmatched, char **refused);

/*
 * What a focused model's scope holds against the same scope of the
 * model it was made from, on clock k: "LABEL: 56.041 of 2992.313 ms"
 * (times as query/quantity.c writes them), for a title.  *part and
 * *whole get the two totals when not NULL.  A new string.
 */
char *transforms_focus_text(const char *label, const struct calltree *focused,
                            const struct calltree *whole,
                            const struct scope *scope, enum clock_index k,
                            uint64_t *part, uint64_t *whole_total);

/* "--merge" for a step's kind, as the command line writes it. */
const char *transforms_option(enum transform_kind kind);

#endif
