/*
 * unit-heap-index: model/heap-index's rank, built as a walk meets the
 * ids (its alignment made finer by a later id, given up for the ids
 * where they stop ascending or grow too sparse), against the hashed
 * index on the same ids: the same object for every id of the dump and
 * for ids near them and anywhere.  Sequences of 1 to 3,000 ids of 4 and
 * 8 bytes: steps of the JVM's and ART's 8 bytes, of 16, of mixed
 * alignments with wide gaps, and with steps back (repeated ids: the
 * first holds).
 */
#include "config.h"

#include "model/heap-index.h"

#include "rng.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

/* The next id after cur, by the shape's steps. */
static uint64_t
step(int shape, uint64_t cur)
{
	switch (shape) {
	case 0:
		return cur + 8 * (1 + below(6));
	case 1:
		return cur + 16;
	case 2:
		if (!below(50))
			return cur + 100000 * (1 + below(9));
		return cur + (1 + below(40)) * (UINT64_C(1) << below(4));
	default:
		if (!below(30))
			return cur - below(500);
		return cur + 1 + below(64);
	}
}

/* The hashed index of ids (forced), the ids copied. */
static void
hashed(struct heap_index *h, const uint64_t *ids, size_t n, unsigned size)
{
	size_t i;

	setenv("TRACETUI_TEST_HEAP_HASH", "1", 1);
	if (size == 4) {
		uint32_t *c = malloc(n * sizeof(uint32_t));

		for (i = 0; i < n; i++)
			c[i] = (uint32_t)ids[i];
		heap_index_build(h, c, NULL, n);
	} else {
		uint64_t *c = malloc(n * sizeof(uint64_t));

		memcpy(c, ids, n * sizeof(uint64_t));
		heap_index_build(h, NULL, c, n);
	}
	unsetenv("TRACETUI_TEST_HEAP_HASH");
}

int
main(void)
{
	int t, shape;
	size_t wrong[4] = {0}, ranked[4] = {0};

	rng_state = 41;
	for (t = 0; t < 2000; t++) {
		size_t n = 1 + below(3000), i, k;
		unsigned size = below(2) ? 4 : 8;
		uint64_t *ids = malloc(n * sizeof(uint64_t));
		uint64_t cur = (1 + below(1000)) << below(8);
		struct heap_index_builder b;
		struct heap_index a, h;

		shape = (int)below(4);
		for (i = 0; i < n; i++) {
			cur = step(shape, cur);
			if (size == 4)
				cur &= UINT32_MAX;
			ids[i] = cur;
		}
		heap_index_builder_init(&b, size, 1 + below(5000));
		for (i = 0; i < n; i++)
			heap_index_add(&b, ids[i]);
		heap_index_finish(&a, &b);
		hashed(&h, ids, n, size);
		ranked[shape] += heap_index_by_rank(&a);
		for (i = 0; i < n; i++)
			wrong[shape] += heap_index_find(&a, ids[i]) !=
			                        heap_index_find(&h, ids[i]) ||
			                heap_index_lookup(&a, ids[i]) !=
			                        heap_index_find(&h, ids[i]);
		for (k = 0; k < 500; k++) {
			uint64_t q = below(10) ? ids[below(n)] + below(64) - 32
			                       : rng();

			if (size == 4)
				q &= UINT32_MAX;
			wrong[shape] += heap_index_lookup(&a, q) !=
			                heap_index_find(&h, q);
		}
		heap_index_done(&a);
		heap_index_done(&h);
		free(ids);
	}
	is_u64(wrong[0], 0,
	       "steps of 8 to 48: the rank finds what the hash finds");
	is_u64(wrong[1], 0, "steps of 16: the same");
	is_u64(wrong[2], 0, "mixed alignments and wide gaps: the same");
	is_u64(wrong[3], 0, "steps back and repeated ids: the same");
	ok(ranked[0] && ranked[1] && ranked[2],
	   "the ascending shapes were ranked (%zu, %zu, %zu)", ranked[0],
	   ranked[1], ranked[2]);
	return done_testing();
}
