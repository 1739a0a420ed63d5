/*
 * heap-index: a heap dump's object ids looked up, id -> object.
 *
 * Where the ids ascend in file order (ART writes a space's objects by
 * address, the JVM its heap the same way), an object's number is the
 * count of ids below its own: one bit per possible id (ids step by
 * their common alignment) in spans split at wide gaps, with the count
 * of bits set before each word of 64 beside it.  Nothing but those is
 * held (about a byte per object for ART's 8-byte aligned objects, set
 * as the walk meets the ids: no array of them), and a lookup reads one
 * 16-byte word, which stays in the cache.  Other dumps (ids out of
 * order, or too sparse for the bits to be smaller than the ids) keep
 * the ids and an open-addressing table of 1.5 to 3 slots per object
 * (Fibonacci hashing).
 *
 * Both give the same answers: the first object holding an id; none for
 * id 0.
 */
#ifndef TRACETUI_MODEL_HEAP_INDEX_H
#define TRACETUI_MODEL_HEAP_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HEAP_INDEX_NONE UINT32_MAX

/* 64 bits of a rank (which of 64 things are counted), and the bits set
 * before them: together, so that a lookup reads one cache line. */
struct heap_rank_word {
	uint64_t bits;
	uint64_t before;
};

/* Ids lo..hi, ascending, their bits from bit on. */
struct heap_id_span {
	uint64_t lo, hi;
	uint64_t bit;
};

struct heap_index {
	size_t n; /* objects */
	/* by rank, where the ids ascend */
	struct heap_rank_word *bits;
	struct heap_id_span *spans;
	size_t nspans;
	unsigned align_shift; /* the ids' common trailing zero bits */
	/* else by hashing */
	uint32_t *slots;
	size_t mask;
	unsigned hash_shift; /* 64 less the table's bits */
	uint32_t *ids32;     /* each object's id, for an id size of 4 */
	uint64_t *ids64;     /* or of 8 */
};

/* Steps of the ids' alignment beyond which a new span of the rank
 * begins (a gap costs a span, not its bits). */
#define HEAP_INDEX_GAP 256

/* The ids of a walk's objects as they come: bits of a rank while they
 * ascend (no array of ids), else the ids. */
struct heap_index_builder {
	unsigned id_size;
	size_t n, cap; /* ids met; room for that many (virtual) */
	/* by rank while the ids ascend */
	bool by_rank;
	struct heap_rank_word *bits;
	size_t words_cap, words_ready;
	struct heap_id_span *spans;
	size_t nspans, spans_cap;
	uint64_t pos, last; /* the last id's bit, and the id */
	unsigned shift;
	/* else */
	uint32_t *ids32;
	uint64_t *ids64;
	size_t ids_ready; /* ids whose pages are present */
};

/* Start b for ids of id_size, of at most about cap objects (room made
 * for that many, virtual, and grown past it). */
void heap_index_builder_init(struct heap_index_builder *b, unsigned id_size,
                             size_t cap);
/* heap_index_add past its common case. */
void heap_index_add_slow(struct heap_index_builder *b, uint64_t id);

/* The next object's id: inline where it steps on in the span of the
 * last, onto a word of the rank present already. */
static inline void
heap_index_add(struct heap_index_builder *b, uint64_t id)
{
	uint64_t step = (id - b->last) >> b->shift, pos = b->pos + step;

	if (b->by_rank && b->n && id > b->last &&
	    !(id & ((UINT64_C(1) << b->shift) - 1)) && step <= HEAP_INDEX_GAP &&
	    pos / 64 < b->words_ready) {
		b->bits[pos / 64].bits |= UINT64_C(1) << (pos % 64);
		b->pos = pos;
		b->last = b->spans[b->nspans - 1].hi = id;
		b->n++;
		return;
	}
	heap_index_add_slow(b, id);
}
/* Index the ids b met into x, releasing b. */
void heap_index_finish(struct heap_index *x, struct heap_index_builder *b);

/*
 * Index the n objects whose ids are ids32 (or ids64; the other NULL),
 * taking the array: freed here when the ids ascend, else kept for the
 * lookups.  TRACETUI_TEST_HEAP_HASH=1 hashes every dump, so that
 * tests/heap-same.sh compares the two.
 */
void heap_index_build(struct heap_index *x, uint32_t *ids32, uint64_t *ids64,
                      size_t n);
/* Release x. */
void heap_index_done(struct heap_index *x);
/* Whether x looks ids up by rank (not hashing). */
static inline bool
heap_index_by_rank(const struct heap_index *x)
{
	return x->bits != NULL;
}
/* The bits set in w (written out: without -mpopcnt the builtin calls a
 * library routine). */
static inline unsigned
heap_index_bits_set(uint64_t w)
{
	w -= (w >> 1) & UINT64_C(0x5555555555555555);
	w = (w & UINT64_C(0x3333333333333333)) +
	    ((w >> 2) & UINT64_C(0x3333333333333333));
	w = (w + (w >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
	return (unsigned)((w * UINT64_C(0x0101010101010101)) >> 56);
}

/* The bit of id where x is by rank, or UINT64_MAX where no id of the
 * dump could be id. */
static inline uint64_t
heap_index_bit(const struct heap_index *x, uint64_t id)
{
	const struct heap_id_span *sp = x->spans;
	size_t lo = 0, hi = x->nspans;
	uint64_t off;

	if (id < sp[0].lo)
		return UINT64_MAX;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (sp[mid].lo <= id)
			lo = mid;
		else
			hi = mid;
	}
	sp += lo;
	off = id - sp->lo;
	if (id > sp->hi || off & ((UINT64_C(1) << x->align_shift) - 1))
		return UINT64_MAX;
	return sp->bit + (off >> x->align_shift);
}

/* The object with id (not 0), or HEAP_INDEX_NONE, where x is by rank. */
static inline uint32_t
heap_index_find_by_rank(const struct heap_index *x, uint64_t id)
{
	uint64_t b = heap_index_bit(x, id), word, below;

	if (b == UINT64_MAX)
		return HEAP_INDEX_NONE;
	word = x->bits[b / 64].bits;
	if (!(word >> (b % 64) & 1))
		return HEAP_INDEX_NONE;
	below = word & ((UINT64_C(1) << (b % 64)) - 1);
	return (uint32_t)x->bits[b / 64].before + heap_index_bits_set(below);
}

/* The object with id, or HEAP_INDEX_NONE. */
uint32_t heap_index_find(const struct heap_index *x, uint64_t id);
/* heap_index_find, inline where x is by rank. */
static inline uint32_t
heap_index_lookup(const struct heap_index *x, uint64_t id)
{
	if (x->bits)
		return id ? heap_index_find_by_rank(x, id) : HEAP_INDEX_NONE;
	return heap_index_find(x, id);
}
/* out[k] = heap_index_find(x, ids[k]) for k < n, with the cache misses
 * of the n lookups overlapping. */
void heap_index_find_many(const struct heap_index *x, const uint64_t *ids,
                          uint32_t *out, size_t n);

#endif
