/*
 * heap-index: ids by rank where they ascend, else by hashing.
 *
 * The rank: with the ids' common alignment a (their trailing zero
 * bits), id v of a span starting at lo has bit span.bit + (v - lo) / a;
 * a span ends where the next id is more than GAP steps on, so that a
 * gap costs a span (24 bytes) instead of its bits.  The spans, and the
 * ids in them, follow the objects' order, so the bits set before an
 * id's bit count the objects before its own.
 */
#include "config.h"

#include "model/heap-index.h"

#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

/* Steps of the ids' alignment beyond which a new span begins. */
enum { GAP = 256 };

static inline uint64_t
id_at(const uint32_t *ids32, const uint64_t *ids64, size_t i)
{
	return ids32 ? ids32[i] : ids64[i];
}

/* Index the ids by rank; false, with nothing held, where they do not
 * ascend or their bits would take more than the ids. */
static bool
build_rank(struct heap_index *x, const uint32_t *ids32, const uint64_t *ids64,
           size_t n)
{
	uint64_t any = 0, prev = 0, pos = 0, id;
	size_t i, nspans = 0, words, s = 0;
	unsigned shift;

	if (!n || getenv("TRACETUI_TEST_HEAP_HASH"))
		return false;
	for (i = 0; i < n; i++) {
		id = id_at(ids32, ids64, i);
		if (i && id <= prev)
			return false;
		any |= id;
		prev = id;
	}
	shift = any ? (unsigned)__builtin_ctzll(any) : 0;
	for (i = 0; i < n; i++) {
		id = id_at(ids32, ids64, i);
		if (!i || (id - prev) >> shift > GAP) {
			nspans++;
			pos += i > 0;
		} else {
			pos += (id - prev) >> shift;
		}
		prev = id;
	}
	words = (size_t)(pos / 64 + 1);
	if (words * sizeof(*x->bits) + nspans * sizeof(struct heap_id_span) >
	    n * sizeof(uint32_t) + 4096)
		return false;
	x->bits = xcalloc_large(words, sizeof(*x->bits));
	x->spans = xmalloc_large(nspans, sizeof(struct heap_id_span));
	x->nspans = nspans;
	x->align_shift = shift;
	for (i = 0, pos = 0; i < n; i++) {
		id = id_at(ids32, ids64, i);
		if (!i || (id - prev) >> shift > GAP) {
			pos += i > 0;
			x->spans[s].lo = id;
			x->spans[s++].bit = pos;
		} else {
			pos += (id - prev) >> shift;
		}
		x->spans[s - 1].hi = id;
		x->bits[pos / 64].bits |= UINT64_C(1) << (pos % 64);
		prev = id;
	}
	for (i = 1; i < words; i++)
		x->bits[i].before = x->bits[i - 1].before +
		                    heap_index_bits_set(x->bits[i - 1].bits);
	return true;
}

static inline size_t
hash_slot(const struct heap_index *x, uint64_t id)
{
	/* Fibonacci hashing: the product's top bits, which every bit of
	 * the id moves (ids step evenly through an address range, and the
	 * middle bits of the product would cluster them). */
	return (size_t)((id * UINT64_C(0x9E3779B97F4A7C15)) >> x->hash_shift);
}

static void
build_hash(struct heap_index *x)
{
	size_t cap = 16, i, n = x->n;
	unsigned bits = 4;

	while (cap < n + n / 2) {
		cap *= 2;
		bits++;
	}
	x->hash_shift = 64 - bits;
	x->slots = xmalloc_large(cap, sizeof(uint32_t));
	memset(x->slots, 0xFF, cap * sizeof(uint32_t));
	x->mask = cap - 1;
	for (i = 0; i < n; i++) {
		uint64_t id = id_at(x->ids32, x->ids64, i);
		size_t s = hash_slot(x, id);

		/* The slot of an id further on, fetched ahead. */
		if (i + 16 < n)
			__builtin_prefetch(&x->slots[hash_slot(
			        x, id_at(x->ids32, x->ids64, i + 16))]);

		while (x->slots[s] != HEAP_INDEX_NONE) {
			if (id_at(x->ids32, x->ids64, x->slots[s]) == id)
				break; /* a repeated id: the first stays */
			s = (s + 1) & x->mask;
		}
		if (x->slots[s] == HEAP_INDEX_NONE)
			x->slots[s] = (uint32_t)i;
	}
}

void
heap_index_build(struct heap_index *x, uint32_t *ids32, uint64_t *ids64,
                 size_t n)
{
	memset(x, 0, sizeof(*x));
	x->n = n;
	if (build_rank(x, ids32, ids64, n)) {
		free(ids32);
		free(ids64);
		return;
	}
	x->ids32 = ids32;
	x->ids64 = ids64;
	build_hash(x);
}

void
heap_index_done(struct heap_index *x)
{
	free(x->bits);
	free(x->spans);
	free(x->slots);
	free(x->ids32);
	free(x->ids64);
	memset(x, 0, sizeof(*x));
}

/* The object with id, by hashing; s its slot. */
static inline uint32_t
find_by_hash(const struct heap_index *x, uint64_t id, size_t s)
{
	uint32_t c;

	if (x->ids32) {
		if (id > UINT32_MAX)
			return HEAP_INDEX_NONE;
		while ((c = x->slots[s]) != HEAP_INDEX_NONE &&
		       x->ids32[c] != id)
			s = (s + 1) & x->mask;
	} else {
		while ((c = x->slots[s]) != HEAP_INDEX_NONE &&
		       x->ids64[c] != id)
			s = (s + 1) & x->mask;
	}
	return c;
}

uint32_t
heap_index_find(const struct heap_index *x, uint64_t id)
{
	if (!id || !x->n)
		return HEAP_INDEX_NONE;
	if (x->bits)
		return heap_index_find_by_rank(x, id);
	return find_by_hash(x, id, hash_slot(x, id));
}

void
heap_index_find_many(const struct heap_index *x, const uint64_t *ids,
                     uint32_t *out, size_t n)
{
	size_t k, *slot;

	if (!x->n) {
		for (k = 0; k < n; k++)
			out[k] = HEAP_INDEX_NONE;
		return;
	}
	if (x->bits) {
		for (k = 0; k < n; k++)
			out[k] = ids[k] ? heap_index_find_by_rank(x, ids[k])
			                : HEAP_INDEX_NONE;
		return;
	}
	/* The slots fetched ahead, then the first two candidates of each
	 * (most searches end there), then the searches. */
	slot = xmalloc(n * sizeof(size_t) + 1);
	for (k = 0; k < n; k++) {
		slot[k] = hash_slot(x, ids[k]);
		__builtin_prefetch(&x->slots[slot[k]]);
	}
	for (k = 0; k < n; k++) {
		uint32_t c = x->slots[slot[k]], c2;

		if (c == HEAP_INDEX_NONE)
			continue;
		c2 = x->slots[(slot[k] + 1) & x->mask];
		if (x->ids32) {
			__builtin_prefetch(&x->ids32[c]);
			if (c2 != HEAP_INDEX_NONE)
				__builtin_prefetch(&x->ids32[c2]);
		} else {
			__builtin_prefetch(&x->ids64[c]);
			if (c2 != HEAP_INDEX_NONE)
				__builtin_prefetch(&x->ids64[c2]);
		}
	}
	for (k = 0; k < n; k++)
		out[k] = ids[k] ? find_by_hash(x, ids[k], slot[k])
		                : HEAP_INDEX_NONE;
	free(slot);
}
