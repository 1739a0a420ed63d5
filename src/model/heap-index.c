/*
 * heap-index: ids by rank where they ascend, else by hashing.
 *
 * The rank: with the ids' common alignment a (their trailing zero
 * bits), id v of a span starting at lo has bit span.bit + (v - lo) / a;
 * a span ends where the next id is more than HEAP_INDEX_GAP steps on, so that a
 * gap costs a span (24 bytes) instead of its bits.  The spans, and the
 * ids in them, follow the objects' order, so the bits set before an
 * id's bit count the objects before its own.
 */
#include "config.h"

#include "model/heap-index.h"

#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

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
		if (!i || (id - prev) >> shift > HEAP_INDEX_GAP) {
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
		if (!i || (id - prev) >> shift > HEAP_INDEX_GAP) {
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

/* ---- the ids as the walk meets them ---- */

void
heap_index_builder_init(struct heap_index_builder *b, unsigned id_size,
                        size_t cap)
{
	memset(b, 0, sizeof(*b));
	b->id_size = id_size;
	b->cap = cap ? cap : 1;
	b->by_rank = !getenv("TRACETUI_TEST_HEAP_HASH");
}

/* Room for the ids array, present up to need. */
static void
ids_room(struct heap_index_builder *b, size_t need)
{
	size_t to, size = b->id_size == 4 ? 4 : 8;
	char *base;

	if (need > b->cap || (!b->ids32 && !b->ids64)) {
		while (need > b->cap)
			b->cap *= 2;
		if (b->id_size == 4)
			b->ids32 = xrealloc_large(b->ids32, b->cap, 4);
		else
			b->ids64 = xrealloc_large(b->ids64, b->cap, 8);
	}
	to = need + util_ahead(need, (size_t)1 << 19);
	if (to > b->cap)
		to = b->cap;
	if (to > b->ids_ready) {
		base = b->id_size == 4 ? (char *)b->ids32 : (char *)b->ids64;
		util_populate(base + b->ids_ready * size,
		              (to - b->ids_ready) * size);
		b->ids_ready = to;
	}
}

/* Give up the rank: the ids met so far written out from its bits, the
 * next ones kept as they come. */
static void
demote(struct heap_index_builder *b)
{
	size_t s, k = 0;

	b->by_rank = false;
	ids_room(b, b->n + 1);
	for (s = 0; s < b->nspans; s++) {
		const struct heap_id_span *sp = &b->spans[s];
		uint64_t bit, end = s + 1 < b->nspans ? b->spans[s + 1].bit
		                                      : b->pos + 1;

		for (bit = sp->bit; bit < end; bit++)
			if (b->bits[bit / 64].bits >> (bit % 64) & 1) {
				uint64_t id =
				        sp->lo + ((bit - sp->bit) << b->shift);

				if (b->ids32)
					b->ids32[k++] = (uint32_t)id;
				else
					b->ids64[k++] = id;
			}
	}
	free(b->bits);
	free(b->spans);
	b->bits = NULL;
	b->spans = NULL;
	b->nspans = 0;
}

/* Set bit pos of the rank, growing its words. */
static void
rank_set(struct heap_index_builder *b, uint64_t pos)
{
	size_t w = (size_t)(pos / 64);

	if (w >= b->words_ready) {
		size_t to;

		if (w >= b->words_cap) {
			size_t old = b->words_cap;

			b->words_cap = old ? 2 * old : b->cap / 64 + 16;
			while (w >= b->words_cap)
				b->words_cap *= 2;
			if (!b->bits) {
				b->bits = xcalloc_large(b->words_cap,
				                        sizeof(*b->bits));
			} else {
				b->bits = xrealloc_large(b->bits, b->words_cap,
				                         sizeof(*b->bits));
				memset(b->bits + old, 0,
				       (b->words_cap - old) * sizeof(*b->bits));
			}
		}
		to = w + 1 + util_ahead(w, (size_t)1 << 17);
		if (to > b->words_cap)
			to = b->words_cap;
		util_populate(b->bits + b->words_ready,
		              (to - b->words_ready) * sizeof(*b->bits));
		b->words_ready = to;
	}
	b->bits[w].bits |= UINT64_C(1) << (pos % 64);
}

/* Make the rank's steps finer, to the alignment shift: each span
 * starts anew after the one before, its bits set again at their places
 * among more. */
static void
rescale(struct heap_index_builder *b, unsigned shift)
{
	struct heap_rank_word *old = b->bits;
	uint64_t *old_start = xmalloc(b->nspans * sizeof(uint64_t));
	uint64_t old_pos = b->pos, bit, start = 0;
	unsigned d = b->shift - shift;
	size_t s;

	for (s = 0; s < b->nspans; s++) {
		old_start[s] = b->spans[s].bit;
		b->spans[s].bit = start;
		start += ((b->spans[s].hi - b->spans[s].lo) >> shift) + 1;
	}
	b->bits = NULL;
	b->words_cap = b->words_ready = 0;
	for (bit = 0, s = 0; bit <= old_pos; bit++) {
		if (!(old[bit / 64].bits >> (bit % 64) & 1))
			continue;
		while (s + 1 < b->nspans && old_start[s + 1] <= bit)
			s++;
		b->pos = b->spans[s].bit + ((bit - old_start[s]) << d);
		rank_set(b, b->pos);
	}
	free(old);
	free(old_start);
	b->shift = shift;
}

void
heap_index_add_slow(struct heap_index_builder *b, uint64_t id)
{
	if (b->by_rank) {
		uint64_t prev =
		        b->n ? (b->nspans ? b->spans[b->nspans - 1].hi : 0) : 0;

		if (!b->n) {
			/* The ids' alignment as the first says it (64 at
			 * most), made finer by any later id off it. */
			b->shift = id ? (unsigned)__builtin_ctzll(id) : 0;
			if (b->shift > 6)
				b->shift = 6;
		} else if (id > prev &&
		           (id & ((UINT64_C(1) << b->shift) - 1))) {
			rescale(b, (unsigned)__builtin_ctzll(id));
		}
		if (b->n && id <= prev) {
			demote(b);
		} else {
			if (!b->n || (id - prev) >> b->shift > HEAP_INDEX_GAP) {
				if (b->nspans == b->spans_cap) {
					b->spans_cap =
					        b->spans_cap ? 2 * b->spans_cap
					                     : 16;
					b->spans = xreallocarray(
					        b->spans, b->spans_cap,
					        sizeof(*b->spans));
				}
				b->pos += b->n > 0;
				b->spans[b->nspans].lo = id;
				b->spans[b->nspans++].bit = b->pos;
			} else {
				b->pos += (id - prev) >> b->shift;
			}
			b->spans[b->nspans - 1].hi = b->last = id;
			rank_set(b, b->pos);
			/* Bits past the ids' own size: the ids do better. */
			if (b->words_ready * sizeof(*b->bits) +
			            b->nspans * sizeof(*b->spans) >
			    (b->n + 1) * b->id_size + ((size_t)1 << 22))
				demote(b);
			b->n++;
			return;
		}
	}
	if (b->n >= b->ids_ready)
		ids_room(b, b->n + 1);
	if (b->ids32)
		b->ids32[b->n++] = (uint32_t)id;
	else
		b->ids64[b->n++] = id;
}

void
heap_index_finish(struct heap_index *x, struct heap_index_builder *b)
{
	size_t i, words;

	if (!b->by_rank || !b->n) {
		if (b->by_rank)
			demote(b);
		heap_index_build(x, b->ids32, b->ids64, b->n);
		memset(b, 0, sizeof(*b));
		return;
	}
	memset(x, 0, sizeof(*x));
	x->n = b->n;
	words = (size_t)(b->pos / 64 + 1);
	x->bits = xrealloc_large(b->bits, words, sizeof(*x->bits));
	x->spans = xreallocarray(b->spans, b->nspans, sizeof(*x->spans));
	x->nspans = b->nspans;
	x->align_shift = b->shift;
	x->bits[0].before = 0;
	for (i = 1; i < words; i++)
		x->bits[i].before = x->bits[i - 1].before +
		                    heap_index_bits_set(x->bits[i - 1].bits);
	memset(b, 0, sizeof(*b));
}
