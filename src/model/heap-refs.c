/*
 * heap-refs: the strong references decoded in file order (so the dump
 * is read as it lies) and their ids looked up in batches
 * (model/heap-index.h), so that the cache misses of a batch's lookups
 * overlap instead of following one another.
 */
#include "config.h"

#include "model/heap-refs.h"

#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

enum { BATCH = 1024, RELEASE_BYTES = 4 << 20, READY_REFS = 1 << 19 };

/* Ids waiting to be looked up, with the object holding each. */
struct batch {
	uint64_t id[BATCH];
	uint32_t obj[BATCH], found[BATCH];
	size_t n;
};

struct build {
	struct heap_refs *r;
	const struct heap_dump *d;
	size_t cap, limit; /* references that fit */
	size_t ready;      /* and those whose pages are present */
	bool overflow;
	struct batch b;
};

/* Room for need references, their pages made present READY_REFS at a
 * time (one call for many pages: a first touch of each is dear). */
static void
make_room(struct build *bd, size_t need)
{
	struct heap_refs *r = bd->r;
	size_t from = bd->ready, to;

	if (need > bd->cap) {
		while (bd->cap < need)
			bd->cap *= 2;
		r->to = xrealloc_large(r->to, bd->cap, sizeof(uint32_t));
	}
	to = need + READY_REFS < bd->cap ? need + READY_REFS : bd->cap;
	util_populate(r->to + from, (to - from) * sizeof(uint32_t));
	bd->ready = to;
}

/* Look the batch's ids up, appending the objects found. */
static void
flush(struct build *bd)
{
	struct batch *b = &bd->b;
	struct heap_refs *r = bd->r;
	size_t k;

	if (!b->n)
		return;
	if (r->n + b->n > bd->limit) {
		bd->overflow = true;
		b->n = 0;
		return;
	}
	heap_index_find_many(&bd->d->index, b->id, b->found, b->n);
	if (r->n + b->n > bd->ready)
		make_room(bd, r->n + b->n);
	for (k = 0; k < b->n; k++) {
		if (b->found[k] == HEAP_NONE)
			continue;
		r->to[r->n++] = b->found[k];
		r->first[b->obj[k] + 1]++;
	}
	b->n = 0;
}

/* Queue id, held by object o, for the lookup (0 is null). */
static inline void
add(struct build *bd, uint32_t o, uint64_t id)
{
	if (!id)
		return;
	bd->b.id[bd->b.n] = id;
	bd->b.obj[bd->b.n++] = o;
	if (bd->b.n == BATCH)
		flush(bd);
}

/* How many references fit: fewer than 2^32 - 1, or
 * TRACETUI_TEST_HEAP_REFS=N (so that tests/heap-same.sh runs the
 * callers' way without the arrays). */
static size_t
refs_limit(void)
{
	const char *limit = getenv("TRACETUI_TEST_HEAP_REFS");

	return limit ? strtoul(limit, NULL, 10) : UINT32_MAX - 1;
}

bool
heap_refs_build(struct heap_refs *r, const struct heap_dump *d)
{
	struct build *bd = xcalloc(1, sizeof(*bd));
	unsigned id = d->header.id_size;
	size_t i, n = d->nobjects, released = 0;

	memset(r, 0, sizeof(*r));
	/* Those the walk decoded, taken once. */
	if (heap_refs_take_ids(r, d)) {
		struct heap_walk_refs_list ids = {r->first, r->to, r->n};

		heap_walk_refs_resolve(&ids, &d->index, d->nobjects);
		r->n = ids.n;
		free(bd);
		if (r->n > refs_limit())
			heap_refs_done(r);
		return r->first != NULL;
	}
	bd->r = r;
	bd->d = d;
	bd->limit = refs_limit();
	r->first = xcalloc_large(n + 2, sizeof(uint32_t));
	util_populate(r->first, (n + 2) * sizeof(uint32_t));
	bd->cap = n + n / 2 + 16;
	r->to = xmalloc_large(bd->cap, sizeof(uint32_t));
	heap_ahead(d, 0, HEAP_AHEAD_BYTES);
	for (i = 0; i < n && !bd->overflow; i++) {
		const unsigned char *rec = heap_record(d, i);
		uint32_t o = (uint32_t)i, k;

		/* The records behind need not stay in memory. */
		if (heap_offset(d, (uint32_t)i) - released >= RELEASE_BYTES) {
			heap_release(d, released, heap_offset(d, (uint32_t)i));
			released = heap_offset(d, (uint32_t)i);
			heap_ahead(d, released, released + HEAP_AHEAD_BYTES);
		}

		switch (*rec) {
		case HEAP_INSTANCE: {
			const struct heap_class *c = &d->classes[d->klass[i]];
			uint32_t len = heap_u4(rec + 1 + 2 * id + 4);
			const unsigned char *p = rec + 1 + 2 * id + 8;

			for (k = 0; k < c->nrefs; k++)
				if ((uint64_t)c->refs[k].offset + id <= len)
					add(bd, o,
					    heap_id(p + c->refs[k].offset, id));
			break;
		}
		case HEAP_OBJECT_ARRAY: {
			uint32_t len = heap_u4(rec + 1 + id + 4);
			const unsigned char *p = rec + 1 + 2 * id + 8;

			if (id == 4)
				for (k = 0; k < len; k++)
					add(bd, o, heap_u4(p + (size_t)k * 4));
			else
				for (k = 0; k < len; k++)
					add(bd, o,
					    heap_id(p + (size_t)k * 8, 8));
			break;
		}
		case HEAP_CLASS_DUMP: {
			uint32_t ci = heap_class_of_object(d, o);
			const struct heap_class *c;

			if (ci == HEAP_NONE)
				break;
			c = &d->classes[ci];
			for (k = 0; k < c->nstatic_refs; k++)
				add(bd, o,
				    heap_id(c->dump + c->static_refs[k], id));
			break;
		}
		default:
			break;
		}
	}
	if (!bd->overflow)
		flush(bd);
	heap_release(d, released, d->size);
	if (bd->overflow) {
		free(bd);
		heap_refs_done(r);
		return false;
	}
	free(bd);
	for (i = 0; i < n; i++)
		r->first[i + 1] += r->first[i];
	return true;
}

bool
heap_refs_take_ids(struct heap_refs *r, const struct heap_dump *d)
{
	memset(r, 0, sizeof(*r));
	if (!d->walk_refs || !d->walk_refs->first)
		return false;
	/* The holder stays, empty. */
	r->first = d->walk_refs->first;
	r->to = d->walk_refs->to;
	r->n = d->walk_refs->n;
	memset(d->walk_refs, 0, sizeof(*d->walk_refs));
	return true;
}

void
heap_refs_done(struct heap_refs *r)
{
	free(r->first);
	free(r->to);
	memset(r, 0, sizeof(*r));
}
