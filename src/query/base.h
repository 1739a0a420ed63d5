/*
 * base: a trace compared with a BASE trace (the viewer's --base): BASE's
 * inclusive and exclusive times per method and per call path, found from
 * the methods of the trace shown, matched by identity (model/identity.h).
 * BASE itself is not kept.
 */
#ifndef TRACETUI_BASE_H
#define TRACETUI_BASE_H

#include "model/calltree.h"
#include "query/callpath.h"

#include <stdbool.h>
#include <stdint.h>

struct base_compare;

/* BASE's numbers over all its threads, keyed for the methods of tree. */
struct base_compare *base_compare_new(const struct calltree *tree,
                                      const struct calltree *base);
/* Key b for the methods of tree instead (a transformed model of the
 * trace shown). */
void base_compare_rekey(struct base_compare *b, const struct calltree *tree);
/* Release what base_compare_new made (NULL is fine). */
void base_compare_free(struct base_compare *b);

/* Method m of tree: BASE's times into incl and excl; false when BASE
 * never calls it. */
bool base_compare_method(const struct base_compare *b, uint32_t m,
                         uint64_t incl[CLOCK_COUNT],
                         uint64_t excl[CLOCK_COUNT]);

/* How many distinct methods BASE calls: its keys, 0 to the count. */
size_t base_compare_keys(const struct base_compare *b);
/* The key of method m of tree, or CALL_NONE when BASE never calls it. */
uint32_t base_compare_key_of(const struct base_compare *b, uint32_t m);
/* BASE's method of key: its name (b's), its times into incl and excl. */
const struct tt_method *base_compare_key(const struct base_compare *b,
                                         uint32_t key,
                                         uint64_t incl[CLOCK_COUNT],
                                         uint64_t excl[CLOCK_COUNT]);

/* The inclusive times into incl of BASE's node on the path of node n of
 * p, a call path tree of tree (bottom-up with inverted); false when BASE
 * lacks the path.  BASE's bottom-up tree makes the nodes on the way. */
bool base_compare_path(struct base_compare *b, const struct callpath *p,
                       uint32_t n, bool inverted, uint64_t incl[CLOCK_COUNT]);

#endif
