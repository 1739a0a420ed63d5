/*
 * profile: per-method aggregates and parent/child edges of a scope
 * (PRODUCT.md section 2).
 *
 *   excl     time while the method is the innermost frame, all calls;
 *   incl     duration summed over non-recursive calls only;
 *   calls    non-recursive calls; rcalls recursive ones;
 *   total    sum over the scope's threads of their traced time.
 *
 * A profile owns its arrays; it does not point into the calltree.
 */
#ifndef TRACETUI_PROFILE_H
#define TRACETUI_PROFILE_H

#include "model/calltree.h"
#include "model/scope.h"
#include "model/sums.h"

#include <stdint.h>

struct profile {
	struct profile_row *rows; /* indexed by method */
	size_t nrows;
	uint64_t total[CLOCK_COUNT];
	struct profile_link *links; /* every caller-callee pair, any order */
	size_t nlinks;
};

/* An empty profile of scope: no rows used, no links, its totals. */
void profile_start(struct profile *out, const struct calltree *tree,
                   const struct scope *scope);
/* Calls of one thread beyond which its sums are made in parts, by
 * several workers, and joined: 0 (the default) sizes the parts by the
 * cpus; tests set it low to compare both ways. */
extern size_t profile_part_calls;
/* Aggregate every call of the scope's threads into out. */
void profile_compute(struct profile *out, const struct calltree *tree,
                     const struct scope *scope);

/*
 * Per-thread aggregates, computed once per trace, so the profile of any
 * scope is a sum over its threads' methods and links, not over calls.
 */
struct profile_cache;
/* Aggregate every thread of tree. */
struct profile_cache *profile_cache_new(const struct calltree *tree);
/* Threads profile_cache_new sums at a time (65,536); tests set it low to
 * cross batches with a few threads. */
extern size_t profile_cache_batch_threads;
/* Release the cache. */
void profile_cache_free(struct profile_cache *cache);
/* The profile of scope, summed from the cache: same result as
 * profile_compute. */
void profile_from_cache(struct profile *out, const struct profile_cache *cache,
                        const struct calltree *tree, const struct scope *scope);
/* Release the rows. */
void profile_done(struct profile *profile);
/* True when method m was called at all in the profile. */
static inline int
profile_row_used(const struct profile *p, size_t m)
{
	return p->rows[m].calls + p->rows[m].rcalls != 0;
}

/* One row of a drill-down: a caller or callee of the examined method. */
struct profile_edge {
	uint32_t method; /* CALL_NONE: the top level of a thread */
	bool recursive;  /* "while recursive" (Traceview's split) */
	uint64_t calls;  /* calls along this edge */
	uint64_t incl[CLOCK_COUNT];
};

struct profile_edges {
	uint32_t method;
	struct profile_edge *parents, *children;
	size_t nparents, nchildren;
};

/*
 * Callers and callees of method m within the scope.  A parent edge sums
 * m's calls under that caller (recursive when m's call was recursive); a
 * child edge sums the callee's calls under m (recursive when m's call
 * was).  Edges are sorted by inclusive time on clock k, largest first.
 */
void profile_edges_compute(struct profile_edges *out,
                           const struct calltree *tree,
                           const struct scope *scope, uint32_t m,
                           enum clock_index k);
/* The same edges from a computed profile's links, without the calls. */
void profile_edges_of(struct profile_edges *out, const struct profile *p,
                      uint32_t m, enum clock_index k);
/* Release the edge arrays. */
void profile_edges_done(struct profile_edges *edges);

#endif
