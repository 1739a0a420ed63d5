/*
 * heap-walk-refs: references decoded in the walk.  The references'
 * ids are kept as the walk meets them, first[obj + 1] counting those
 * of objects up to obj; once every id is known they are looked up and
 * the ids naming no object dropped, in place.
 */
#include "config.h"

#include "model/heap-walk-refs.h"

#include "read/heap-hprof.h"
#include "util/alloc.h"
#include "util/map.h"

#include <stdlib.h>
#include <string.h>

/* At most this many entries made present at a time (one call for many
 * pages; util_ahead). */
enum { READY = 1 << 19, BATCH = 1024 };

/* A class's reference fields as the walk laid them out. */
struct layout {
	enum { UNKNOWN, READY_LAYOUT } state;
	uint64_t class_id;
	uint32_t *offsets;
	uint32_t n;
};

struct heap_walk_refs {
	const unsigned char *data;
	unsigned id;
	const struct mapping *map;
	struct heap_walk_names names;
	struct util_map dump_of; /* class id -> its first CLASS DUMP */
	struct layout *layouts;  /* by slot */
	size_t nlayouts;
	uint32_t *first, *to;
	size_t objects_cap, objects_ready; /* first's room, present */
	size_t n, refs_cap, refs_ready;    /* to's ids, room, present */
	bool off;                          /* given up */
	/* The first room made: as many as the dump can hold (most of it
	 * never touched, so never present), up to 2^26. */
	size_t objects_first, refs_first;
};

struct heap_walk_refs *
heap_walk_refs_new(const unsigned char *data, size_t size, unsigned id_size,
                   const struct mapping *map, struct heap_walk_names names)
{
	struct heap_walk_refs *w;
	const char *env = getenv("TRACETUI_TEST_HEAP_WALK_REFS");

	if (id_size != 4 || size > UINT32_MAX || (env && strcmp(env, "0") == 0))
		return NULL;
	w = xcalloc(1, sizeof(*w));
	w->data = data;
	w->id = id_size;
	w->map = map;
	w->names = names;
	util_map_init(&w->dump_of);
	/* A record takes 14 bytes at least, a reference 4. */
	w->objects_first = size / 14 + 2;
	w->refs_first = size / 4 + 1;
	if (w->objects_first > (size_t)1 << 26)
		w->objects_first = (size_t)1 << 26;
	if (w->refs_first > (size_t)1 << 26)
		w->refs_first = (size_t)1 << 26;
	return w;
}

static void
walk_refs_free(struct heap_walk_refs *w)
{
	size_t i;

	for (i = 0; i < w->nlayouts; i++)
		free(w->layouts[i].offsets);
	free(w->layouts);
	util_map_done(&w->dump_of);
	free(w->first);
	free(w->to);
	free(w);
}

/* Give up: the references are decoded from the model instead. */
static void
give_up(struct heap_walk_refs *w)
{
	size_t i;

	for (i = 0; i < w->nlayouts; i++)
		free(w->layouts[i].offsets);
	free(w->layouts);
	free(w->first);
	free(w->to);
	w->layouts = NULL;
	w->nlayouts = 0;
	w->first = w->to = NULL;
	w->off = true;
}

/* Whether the class name s of len bytes is java.lang.ref.Reference (in
 * the dump's spelling, slashes or dots). */
static bool
is_reference(const char *s, size_t len)
{
	static const char want[] = "java.lang.ref.Reference";
	size_t i;

	if (len != sizeof(want) - 1)
		return false;
	for (i = 0; i < len; i++)
		if ((s[i] == '/' ? '.' : s[i]) != want[i])
			return false;
	return true;
}

/* Whether field name_id of java.lang.ref.Reference is its referent
 * (after --mapping, as model/heap.c names it) into *yes; false where
 * its name has not come yet. */
static bool
is_referent(struct heap_walk_refs *w, uint64_t name_id, bool *yes)
{
	size_t len;
	const char *s = w->names.string(w->names.ctx, name_id, &len), *orig;
	char *name;

	if (!s)
		return false;
	name = xstrndup(s, len);

	if (w->map &&
	    (orig = mapping_field(w->map, "java.lang.ref.Reference", name)))
		*yes = strcmp(orig, "referent") == 0;
	else
		*yes = strcmp(name, "referent") == 0;
	free(name);
	return true;
}

/* Lay out the reference fields of class cid into l; false where a class
 * of its chain, or its name, has not come yet (or the chain loops). */
static bool
lay_out(struct heap_walk_refs *w, uint64_t cid, struct layout *l)
{
	unsigned id = w->id;
	uint32_t offset = 0, at, cap = 0;
	size_t depth = 0;
	uint64_t chain = cid;

	for (;;) {
		struct heap_class_dump cd;
		const unsigned char *f;
		const char *name;
		unsigned i;
		bool ref_class, referent = false;
		size_t len;

		if (!util_map_get(&w->dump_of, chain, &at) ||
		    ++depth > w->dump_of.count ||
		    !(name = w->names.class_name(w->names.ctx, chain, &len)))
			return false;
		heap_class_dump_decode(w->data + at, id, &cd);
		ref_class = is_reference(name, len);
		for (i = 0, f = cd.fields; i < cd.nfields; i++, f += id + 1) {
			referent = false;
			if (f[id] == HEAP_T_OBJECT && ref_class &&
			    !is_referent(w, heap_id(f, id), &referent))
				return false;
			if (f[id] == HEAP_T_OBJECT && !referent) {
				if (l->n == cap) {
					cap = cap ? 2 * cap : 8;
					l->offsets =
					        xreallocarray(l->offsets, cap,
					                      sizeof(uint32_t));
				}
				l->offsets[l->n++] = offset;
			}
			offset += heap_type_size(f[id], id);
		}
		/* The chain ends where the superclass is none or itself. */
		if (!cd.super_id || cd.super_id == chain)
			break;
		chain = cd.super_id;
	}
	l->state = READY_LAYOUT;
	l->class_id = cid;
	return true;
}

/* Whether every layout made in the walk is the one the whole dump
 * gives (a name given twice, the second time differently, could have
 * changed one). */
static bool
layouts_hold(struct heap_walk_refs *w)
{
	size_t i;
	bool same = true;

	for (i = 0; i < w->nlayouts && same; i++) {
		struct layout *l = &w->layouts[i], now = {0};

		if (l->state != READY_LAYOUT)
			continue;
		same = lay_out(w, l->class_id, &now) && now.n == l->n &&
		       (!l->n || memcmp(now.offsets, l->offsets,
		                        l->n * sizeof(uint32_t)) == 0);
		free(now.offsets);
	}
	return same;
}

/* Room for one more reference. */
static void
refs_room(struct heap_walk_refs *w)
{
	size_t to;

	if (w->n == w->refs_cap) {
		w->refs_cap = w->refs_cap ? 2 * w->refs_cap : w->refs_first;
		w->to = xrealloc_large(w->to, w->refs_cap, sizeof(uint32_t));
	}
	to = w->n + util_ahead(w->n, READY) < w->refs_cap
	             ? w->n + util_ahead(w->n, READY)
	             : w->refs_cap;
	util_populate(w->to + w->refs_ready,
	              (to - w->refs_ready) * sizeof(uint32_t));
	w->refs_ready = to;
}

/* Keep reference id (0 is null). */
static inline void
keep(struct heap_walk_refs *w, uint32_t id)
{
	if (!id)
		return;
	if (w->n == w->refs_ready)
		refs_room(w);
	w->to[w->n++] = id;
}

/* Room for object obj's count. */
static void
objects_room(struct heap_walk_refs *w, uint32_t obj)
{
	size_t to;

	if ((size_t)obj + 2 > w->objects_cap) {
		w->objects_cap =
		        w->objects_cap ? 2 * w->objects_cap : w->objects_first;
		w->first = xrealloc_large(w->first, w->objects_cap,
		                          sizeof(uint32_t));
	}
	to = (size_t)obj + 2 + util_ahead(obj, READY) < w->objects_cap
	             ? obj + 2 + util_ahead(obj, READY)
	             : w->objects_cap;
	util_populate(w->first + w->objects_ready,
	              (to - w->objects_ready) * sizeof(uint32_t));
	w->objects_ready = to;
}

void
heap_walk_refs_add(struct heap_walk_refs *w, uint32_t obj, unsigned tag,
                   const unsigned char *rec, uint32_t slot)
{
	unsigned id = 4; /* the walk's only id size */
	uint32_t k, len, at, *dump;
	const unsigned char *p;

	if (!w || w->off)
		return;
	if ((size_t)obj + 2 > w->objects_ready)
		objects_room(w, obj);
	if (!obj)
		w->first[0] = 0;
	switch (tag) {
	case HEAP_INSTANCE: {
		struct layout *l;

		if (slot >= w->nlayouts) {
			size_t n = 2 * (size_t)slot + 16;

			w->layouts = xreallocarray(w->layouts, n,
			                           sizeof(*w->layouts));
			memset(w->layouts + w->nlayouts, 0,
			       (n - w->nlayouts) * sizeof(*w->layouts));
			w->nlayouts = n;
		}
		l = &w->layouts[slot];
		if (l->state == UNKNOWN &&
		    !lay_out(w, heap_id(rec + 1 + id + 4, id), l)) {
			give_up(w);
			return;
		}
		len = heap_u4(rec + 1 + 2 * id + 4);
		p = rec + 1 + 2 * id + 8;
		for (k = 0; k < l->n; k++)
			if ((uint64_t)l->offsets[k] + id <= len)
				keep(w, heap_u4(p + l->offsets[k]));
		break;
	}
	case HEAP_OBJECT_ARRAY:
		len = heap_u4(rec + 1 + id + 4);
		p = rec + 1 + 2 * id + 8;
		for (k = 0; k < len; k++)
			keep(w, heap_u4(p + (size_t)k * 4));
		break;
	case HEAP_CLASS_DUMP: {
		struct heap_class_dump cd;
		unsigned i;

		/* A class's statics are its first dump's. */
		dump = util_map_slot(&w->dump_of, heap_u4(rec + 1),
		                     (uint32_t)(rec - w->data));
		at = *dump;
		heap_class_dump_decode(w->data + at, id, &cd);
		for (i = 0, p = cd.statics; i < cd.nstatics;
		     i++, p = heap_static_next(p, id))
			if (p[id] == HEAP_T_OBJECT)
				keep(w, heap_u4(p + id + 1));
		break;
	}
	default:
		break;
	}
	if (w->n >= UINT32_MAX - 1) {
		give_up(w);
		return;
	}
	w->first[obj + 1] = (uint32_t)w->n;
}

/* Look the ids up in place, dropping those naming no object; first
 * counted again. */
static void
look_up(struct heap_walk_refs *w, const struct heap_index *ix, size_t n)
{
	uint64_t ids[BATCH];
	uint32_t found[BATCH];
	size_t i = 0, k, m, j, out = 0;

	if (heap_index_by_rank(ix) && ix->n) {
		/* Object by object. */
		for (k = 0; i < n; i++) {
			size_t end = w->first[i + 1];

			for (; k < end; k++) {
				uint32_t t;

				t = heap_index_find_by_rank(ix, w->to[k]);
				if (t != HEAP_INDEX_NONE)
					w->to[out++] = t;
			}
			w->first[i + 1] = (uint32_t)out;
		}
	}
	for (k = heap_index_by_rank(ix) && ix->n ? w->n : 0; k < w->n; k += m) {
		m = w->n - k < BATCH ? w->n - k : BATCH;
		for (j = 0; j < m; j++)
			ids[j] = w->to[k + j];
		heap_index_find_many(ix, ids, found, m);
		for (j = 0; j < m; j++) {
			/* The objects whose ids end before this one's. */
			for (; i < n && w->first[i + 1] <= k + j; i++)
				w->first[i + 1] = (uint32_t)out;
			if (found[j] != HEAP_INDEX_NONE)
				w->to[out++] = found[j];
		}
	}
	for (; i < n; i++)
		w->first[i + 1] = (uint32_t)out;
	w->n = out;
}

void
heap_walk_refs_resolve(struct heap_walk_refs_list *r,
                       const struct heap_index *ix, size_t n)
{
	struct heap_walk_refs walk = {
	        .first = r->first, .to = r->to, .n = r->n};

	look_up(&walk, ix, n);
	r->n = walk.n;
}

bool
heap_walk_refs_finish(struct heap_walk_refs *w, size_t n,
                      struct heap_walk_refs_list *out)
{
	if (out)
		memset(out, 0, sizeof(*out));
	if (!w)
		return false;
	if (w->off || !n || !w->first || !layouts_hold(w)) {
		walk_refs_free(w);
		return false;
	}
	out->first = w->first;
	out->to = w->to;
	out->n = w->n;
	w->first = w->to = NULL;
	walk_refs_free(w);
	return true;
}
