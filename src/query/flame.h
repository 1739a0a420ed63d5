/*
 * flame: a flame graph's frames laid out from a sorted callpath (the
 * `flamegraph` command and the HTML export draw them), and the same
 * frames matched with a BASE trace's call paths for a differential graph.
 *
 * The root is as wide as the scope's total (PRODUCT.md section 2): when
 * the callpath's top-level nodes cover less (paths merged without thread
 * nodes), the rest is one more frame under the root, FLAME_OUTSIDE, the
 * time the threads spent outside any traced method.  A frame's x and
 * width are in the clock's microseconds; children sit left to right in
 * the callpath's order from their parent's left edge.  Frames narrower
 * than the pruning width are left out with everything under them, but
 * their place is kept, so what is drawn stays where it belongs.
 *
 * A flame owns its frames; it does not point into the callpath.
 */
#ifndef TRACETUI_FLAME_H
#define TRACETUI_FLAME_H

#include "model/calltree.h"
#include "query/callpath.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Frames deeper than this are left out (and flame.cut says so). */
enum { FLAME_MAX_DEPTH = 1024 };

enum flame_kind {
	FLAME_ROOT,    /* the scope */
	FLAME_THREAD,  /* a thread node of a callpath built by thread */
	FLAME_METHOD,  /* a call path */
	FLAME_OUTSIDE, /* time outside any traced method */
};

struct flame_frame {
	uint32_t node;   /* callpath node; CALL_NONE for FLAME_OUTSIDE */
	uint32_t parent; /* frame index; CALL_NONE for the root */
	uint32_t depth;  /* 0 for the root */
	enum flame_kind kind;
	uint64_t x;    /* left edge, from the root's */
	uint64_t incl; /* width */
	uint64_t excl; /* incl less the children's, drawn or not */
	uint64_t calls;
};

struct flame {
	struct flame_frame *frames; /* parents before their children */
	size_t count;
	uint64_t total; /* the root's width */
	uint32_t depth; /* of the deepest frame */
	size_t pruned;  /* frames left out for being too narrow */
	bool cut;       /* frames left out below FLAME_MAX_DEPTH */
};

/*
 * Lay out path (sorted on clock k) under a root of width total, leaving
 * out frames narrower than min_incl.
 */
void flame_layout(struct flame *out, const struct callpath *path,
                  enum clock_index k, uint64_t total, uint64_t min_incl);
/* Release the frames. */
void flame_done(struct flame *flame);

/* BASE's numbers for each frame of a flame of NEW. */
struct flame_base {
	bool *found;    /* BASE has a frame on the same path */
	uint64_t *incl; /* BASE's, 0 when not found */
	uint64_t *excl;
	uint64_t total; /* BASE's root */
};

/*
 * Match the frames of flame (laid out from path, of tree) with the nodes
 * of bpath (of btree) on the same path: methods by identity_cmp
 * (model/identity.h), threads by name, the root with
 * the root (btotal wide) and the outside time with BASE's.
 */
void flame_match(struct flame_base *out, const struct flame *flame,
                 const struct callpath *path, const struct calltree *tree,
                 const struct callpath *bpath, const struct calltree *btree,
                 enum clock_index k, uint64_t btotal);
/* Release the arrays. */
void flame_base_done(struct flame_base *base);

#endif
