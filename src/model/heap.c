/*
 * heap: a heap dump's objects, classes, roots and heaps, built from
 * the walk of read/heap-hprof.c.
 *
 * Objects are the records INSTANCE, OBJECT ARRAY, PRIMITIVE ARRAY (and
 * NODATA) and CLASS DUMP, in file order.  An object's class is the one
 * its record names; a primitive array's is the class named "byte[]"
 * (or "[B") and so on; a class object's is java.lang.Class.  A class
 * the dump names but never dumps is made up, of instance size 0.
 *
 * Shallow size, as ahat: an instance's is its class's instance size;
 * an array's is its class's instance size (its header, where ART
 * writes it; 0 before 2024) plus its elements (an object element
 * counts the id size); a class object's is java.lang.Class's instance
 * size plus its static values (an object counts the id size).
 */
#include "config.h"

#include "model/heap.h"

#include "util/alloc.h"
#include "util/hash.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A root record until its id is looked up. */
struct pending_root {
	uint64_t id;
	uint8_t type;
};

/* What the walk gathers. */
struct gather {
	struct heap_dump *d;
	struct util_map strings; /* string id -> index */
	uint64_t *str_off;
	uint32_t *str_len;
	const char **str_text; /* those asked for, once the walk is done */
	size_t nstrings, str_cap;
	struct util_map class_names; /* class id -> string index */
	struct pending_root *roots;
	size_t nroots, roots_cap;
	uint32_t *class_dumps; /* the objects that are class objects */
	size_t nclass_dumps, class_dumps_cap;
	size_t released;               /* the dump's bytes let go so far */
	struct heap_index_builder ids; /* each object's id, for the index */
	/* Each object's class as the walk names it, a slot (klass holds
	 * it until the classes are built): SLOT_CLASS_OBJECT for a class
	 * object, a primitive array's basic type, or from SLOT_IDS on one
	 * per class id, in the order first met; per slot, the class id,
	 * the first object naming it and its instances' largest field
	 * bytes. */
	struct util_map slot_of; /* class id -> slot */
	uint64_t *slot_id;
	uint32_t *slot_first, *slot_max_data;
	size_t nslots, slots_cap;
	uint64_t last_class_id; /* the last class id looked up, its slot */
	uint32_t last_slot;
	size_t objects_cap, runs_cap;     /* room in the objects' arrays */
	size_t objects_ready;             /* and how much of it is present */
	size_t nsized, sized_ready;       /* shallow32's sizes, present */
	struct heap_walk_refs *walk_refs; /* the references, as walked */
	bool walk_refs_started;
	const struct mapping *map;
	int heap;          /* the current heap, -1 before HEAP DUMP INFO */
	bool wide_offsets; /* records past 4 GiB: 8-byte offsets */
	void (*progress)(void *, uint64_t, uint64_t);
	void *progress_arg;
};

/* A string of the dump by index, into the arena once (after the walk:
 * the strings are all known then). */
static const char *
string_at(struct gather *g, uint32_t s)
{
	if (!g->str_text)
		g->str_text = xcalloc(g->nstrings + 1, sizeof(char *));
	if (!g->str_text[s])
		g->str_text[s] = util_arena_strndup(
		        &g->d->arena, (const char *)g->d->data + g->str_off[s],
		        g->str_len[s]);
	return g->str_text[s];
}

static void
on_string(void *ctx, uint64_t id, uint64_t offset, uint32_t len)
{
	struct gather *g = ctx;

	UTIL_GROW(g->str_off, g->str_cap, g->nstrings + 1);
	g->str_len = xreallocarray(g->str_len, g->str_cap, sizeof(uint32_t));
	g->str_off[g->nstrings] = offset;
	g->str_len[g->nstrings] = len;
	util_map_put(&g->strings, id, (uint32_t)g->nstrings++);
}

static void
on_load_class(void *ctx, uint64_t class_id, uint64_t name_id)
{
	struct gather *g = ctx;
	uint32_t s;

	if (util_map_get(&g->strings, name_id, &s))
		util_map_put(&g->class_names, class_id, s);
}

/* The heap named name: its index, added if new. */
static unsigned
heap_named(struct heap_dump *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->nheaps; i++)
		if (strcmp(d->heaps[i], name) == 0)
			return (unsigned)i;
	if (d->nheaps == 255)
		return 254;
	d->heaps = xreallocarray(d->heaps, d->nheaps + 1, sizeof(*d->heaps));
	d->heaps[d->nheaps] = util_arena_strndup(&d->arena, name, strlen(name));
	return (unsigned)d->nheaps++;
}

/* Objects from now on are in heap h. */
static void
enter_heap(struct gather *g, unsigned h)
{
	struct heap_dump *d = g->d;

	if (g->heap == (int)h)
		return;
	g->heap = (int)h;
	if (d->nruns && d->runs[d->nruns - 1].first == d->nobjects) {
		d->runs[d->nruns - 1].heap = (uint8_t)h;
		return;
	}
	UTIL_GROW(d->runs, g->runs_cap, d->nruns + 1);
	d->runs[d->nruns].first = (uint32_t)d->nobjects;
	d->runs[d->nruns++].heap = (uint8_t)h;
}

static void
on_heap(void *ctx, uint32_t type, uint64_t name_id)
{
	struct gather *g = ctx;
	uint32_t s;
	char *name;

	g->d->android = true;
	if (util_map_get(&g->strings, name_id, &s))
		name = xstrndup((const char *)g->d->data + g->str_off[s],
		                g->str_len[s]);
	else
		name = xasprintf("heap %u", type);
	enter_heap(g, heap_named(g->d, name));
	free(name);
}

static void
on_root(void *ctx, unsigned type, uint64_t id)
{
	struct gather *g = ctx;

	UTIL_GROW(g->roots, g->roots_cap, g->nroots + 1);
	g->roots[g->nroots].id = id;
	g->roots[g->nroots++].type = (uint8_t)type;
	g->d->root_types[type & 0xFF]++;
	g->d->nroot_records++;
}

enum { SLOT_CLASS_OBJECT = 0, SLOT_IDS = 12, POPULATE_OBJECTS = 1 << 19 };

/* The slot of class id cid, added if new. */
static uint32_t
slot_of_id(struct gather *g, uint64_t cid)
{
	uint32_t *slot, s;

	if (cid == g->last_class_id && g->nslots > SLOT_IDS)
		return g->last_slot;
	slot = util_map_slot(&g->slot_of, cid, HEAP_NONE);
	if (*slot == HEAP_NONE) {
		s = (uint32_t)g->nslots++;
		UTIL_GROW(g->slot_id, g->slots_cap, g->nslots);
		g->slot_first = xreallocarray(g->slot_first, g->slots_cap,
		                              sizeof(uint32_t));
		g->slot_max_data = xreallocarray(g->slot_max_data, g->slots_cap,
		                                 sizeof(uint32_t));
		g->slot_id[s] = cid;
		g->slot_first[s] = (uint32_t)g->d->nobjects;
		g->slot_max_data[s] = 0;
		*slot = s;
	}
	g->last_class_id = cid;
	g->last_slot = *slot;
	return *slot;
}

/* Room for one more object's shallow size, the pages of shallow32
 * made present up to POPULATE_OBJECTS at a time. */
static void
sized_room(struct gather *g)
{
	struct heap_dump *d = g->d;
	size_t ahead = util_ahead(g->nsized, POPULATE_OBJECTS);
	size_t to = g->nsized + ahead < g->objects_cap ? g->nsized + ahead
	                                               : g->objects_cap;

	util_populate(d->shallow32 + g->sized_ready,
	              (to - g->sized_ready) * sizeof(uint32_t));
	g->sized_ready = to;
}

/* The class slot of the object whose record rec the walk is at, and
 * for an array or class object the bytes of its elements (its shallow
 * size until the classes are built; UINT32_MAX where they do not fit;
 * 0 for a class object). */
static void
walk_class(struct gather *g, unsigned tag, const unsigned char *rec)
{
	struct heap_dump *d = g->d;
	unsigned id = d->header.id_size, type;
	uint32_t i = (uint32_t)d->nobjects, s, n;
	uint64_t bytes = 0;

	switch (tag) {
	case HEAP_CLASS_DUMP:
		s = SLOT_CLASS_OBJECT;
		break;
	case HEAP_INSTANCE:
		s = slot_of_id(g, heap_id(rec + 1 + id + 4, id));
		n = heap_u4(rec + 1 + 2 * id + 4);
		if (n > g->slot_max_data[s])
			g->slot_max_data[s] = n;
		break;
	case HEAP_OBJECT_ARRAY:
		s = slot_of_id(g, heap_id(rec + 1 + id + 8, id));
		bytes = (uint64_t)heap_u4(rec + 1 + id + 4) * id;
		break;
	default:
		type = rec[1 + id + 8];
		s = type;
		if (g->slot_first[s] == HEAP_NONE)
			g->slot_first[s] = i;
		bytes = (uint64_t)heap_u4(rec + 1 + id + 4) *
		        heap_type_size(type, id);
		break;
	}
	d->klass[i] = s;
	if (tag == HEAP_INSTANCE)
		return;
	if (g->nsized == g->sized_ready)
		sized_room(g);
	d->sized[i / 64].bits |= UINT64_C(1) << (i % 64);
	d->shallow32[g->nsized++] =
	        bytes < UINT32_MAX ? (uint32_t)bytes : UINT32_MAX;
}

/* The walk's names, for heap-walk-refs. */
static const char *
walk_string(void *ctx, uint64_t id, size_t *len)
{
	struct gather *g = ctx;
	uint32_t s;

	if (!util_map_get(&g->strings, id, &s))
		return NULL;
	*len = g->str_len[s];
	return (const char *)g->d->data + g->str_off[s];
}

static const char *
walk_class_name(void *ctx, uint64_t class_id, size_t *len)
{
	struct gather *g = ctx;
	uint32_t s;

	if (!util_map_get(&g->class_names, class_id, &s))
		return NULL;
	*len = g->str_len[s];
	return (const char *)g->d->data + g->str_off[s];
}

/* Room for more objects in the arrays the walk writes, their pages
 * made present up to POPULATE_OBJECTS at a time as it reaches them.  They
 * are made first for as many objects as the dump can hold (its size
 * over the smallest record), most never touched, and grow past that
 * only in a dump of more than 2^26. */
static void
grow_objects(struct gather *g)
{
	struct heap_dump *d = g->d;
	size_t n = g->objects_cap, from = d->nobjects, to;
	unsigned id = d->header.id_size, wide = g->wide_offsets ? 8 : 4;

	if (d->nobjects == g->objects_cap) {
		if (!n) {
			n = d->size / (1 + id + 9) + 1;
			if (n > (size_t)1 << 26)
				n = (size_t)1 << 26;
		} else {
			n *= 2;
		}
		if (!g->wide_offsets)
			d->offsets32 = xrealloc_large(d->offsets32, n,
			                              sizeof(uint32_t));
		else
			d->offsets64 = xrealloc_large(d->offsets64, n,
			                              sizeof(uint64_t));
		d->klass = xrealloc_large(d->klass, n, sizeof(uint32_t));
		d->shallow32 =
		        xrealloc_large(d->shallow32, n, sizeof(uint32_t));
		if (!d->sized) {
			d->sized = xcalloc_large(n / 64 + 1, sizeof(*d->sized));
		} else {
			d->sized = xrealloc_large(d->sized, n / 64 + 1,
			                          sizeof(*d->sized));
			memset(d->sized + g->objects_cap / 64 + 1, 0,
			       (n / 64 - g->objects_cap / 64) *
			               sizeof(*d->sized));
		}
		g->objects_cap = n;
	}
	to = from + util_ahead(from, POPULATE_OBJECTS) < n
	             ? from + util_ahead(from, POPULATE_OBJECTS)
	             : n;
	util_populate((char *)(g->wide_offsets ? (void *)d->offsets64
	                                       : (void *)d->offsets32) +
	                      from * wide,
	              (to - from) * wide);
	util_populate(d->klass + from, (to - from) * 4);
	g->objects_ready = to;
}

static void
on_object(void *ctx, unsigned tag, uint64_t offset)
{
	struct gather *g = ctx;
	struct heap_dump *d = g->d;

	if (d->nobjects >= HEAP_NONE - 1)
		return; /* past 4 billion objects: not kept */
	d->objects_by_tag[tag & 0xFF]++;
	if (tag == HEAP_CLASS_DUMP) {
		UTIL_GROW(g->class_dumps, g->class_dumps_cap,
		          g->nclass_dumps + 1);
		g->class_dumps[g->nclass_dumps++] = (uint32_t)d->nobjects;
	}
	if (g->heap < 0)
		enter_heap(g, heap_named(d, "default"));
	if (d->nobjects == g->objects_ready)
		grow_objects(g);
	walk_class(g, tag, d->data + offset);
	if (!g->walk_refs_started) {
		/* The header, and so the id size, is read by now. */
		g->walk_refs = heap_walk_refs_new(
		        d->data, d->size, d->header.id_size, g->map,
		        (struct heap_walk_names){g, walk_string,
		                                 walk_class_name});
		g->walk_refs_started = true;
	}
	heap_walk_refs_add(g->walk_refs, (uint32_t)d->nobjects, tag,
	                   d->data + offset, d->klass[d->nobjects]);
	if (!g->wide_offsets)
		d->offsets32[d->nobjects] = (uint32_t)offset;
	else
		d->offsets64[d->nobjects] = offset;
	if (!d->nobjects)
		heap_index_builder_init(&g->ids, d->header.id_size,
		                        g->objects_cap);
	heap_index_add(&g->ids,
	               heap_id(d->data + offset + 1, d->header.id_size));
	d->nobjects++;
}

static void
on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct gather *g = ctx;

	/* The records walked need not stay in memory; those next are
	 * made present at once. */
	heap_release(g->d, g->released, (size_t)done);
	heap_ahead(g->d, (size_t)done, (size_t)done + HEAP_AHEAD_BYTES);
	g->released = (size_t)done;
	if (g->progress)
		g->progress(g->progress_arg, done, total);
}

uint32_t
heap_find(const struct heap_dump *d, uint64_t id)
{
	return heap_index_find(&d->index, id);
}

/* Release g's class slots. */
static void
gather_slots_done(struct gather *g)
{
	util_map_done(&g->slot_of);
	free(g->slot_id);
	free(g->slot_first);
	free(g->slot_max_data);
}

/* ---- classes ---- */

/* A class name as Java writes it: "java/lang/String" and
 * "[Ljava/lang/String;" and "[B" become "java.lang.String",
 * "java.lang.String[]" and "byte[]". */
static char *
java_name(const char *raw)
{
	static const char *const prims[26] = {
	        ['B' - 'A'] = "byte",   ['C' - 'A'] = "char",
	        ['D' - 'A'] = "double", ['F' - 'A'] = "float",
	        ['I' - 'A'] = "int",    ['J' - 'A'] = "long",
	        ['S' - 'A'] = "short",  ['Z' - 'A'] = "boolean",
	};
	size_t dims = 0, n, i;
	const char *base = raw;
	char *out, *p;

	while (base[dims] == '[')
		dims++;
	base += dims;
	n = strlen(base);
	if (dims && n == 1 && base[0] >= 'A' && base[0] <= 'Z' &&
	    prims[base[0] - 'A']) {
		base = prims[base[0] - 'A'];
		n = strlen(base);
	} else if (dims && n >= 2 && base[0] == 'L' && base[n - 1] == ';') {
		base++;
		n -= 2;
	} else if (dims) {
		base = raw; /* not a descriptor: kept as written */
		n = strlen(raw);
		dims = 0;
	}
	out = xmalloc(n + 2 * dims + 1);
	for (i = 0, p = out; i < n; i++)
		*p++ = base[i] == '/' ? '.' : base[i];
	for (i = 0; i < dims; i++) {
		*p++ = '[';
		*p++ = ']';
	}
	*p = '\0';
	return out;
}

/* name deobfuscated through map (an array's element class renamed). */
static const char *
mapped_name(struct heap_dump *d, const struct mapping *map, const char *name)
{
	size_t n = strlen(name), base = n;
	const char *orig;
	char *tmp;

	if (!map)
		return name;
	while (base >= 2 && name[base - 2] == '[' && name[base - 1] == ']')
		base -= 2;
	tmp = xstrndup(name, base);
	orig = mapping_class(map, tmp);
	free(tmp);
	if (!orig)
		return name;
	tmp = xasprintf("%s%s", orig, name + base);
	orig = util_arena_strndup(&d->arena, tmp, strlen(tmp));
	free(tmp);
	return orig;
}

/* A new class of id named name (as the dump names it). */
static uint32_t
add_class(struct heap_dump *d, size_t *cap, uint64_t id, const char *dump_name,
          const struct mapping *map)
{
	struct heap_class *c;

	UTIL_GROW(d->classes, *cap, d->nclasses + 1);
	c = &d->classes[d->nclasses];
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->dump_name =
	        util_arena_strndup(&d->arena, dump_name, strlen(dump_name));
	c->name = mapped_name(d, map, c->dump_name);
	c->object = c->super = c->referent = HEAP_NONE;
	if (id)
		util_map_put(&d->class_ids, id, (uint32_t)d->nclasses);
	return (uint32_t)d->nclasses++;
}

/* The class named (as the dump names it) name, or HEAP_NONE. */
static uint32_t
class_named(const struct heap_dump *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->nclasses; i++)
		if (strcmp(d->classes[i].dump_name, name) == 0)
			return (uint32_t)i;
	return HEAP_NONE;
}

/* The class named name, made up when the dump has none. */
static uint32_t
class_or_made(struct heap_dump *d, size_t *cap, const char *name)
{
	uint32_t c = class_named(d, name);

	return c != HEAP_NONE ? c : add_class(d, cap, 0, name, NULL);
}

/* The name of field name_id of class c (after --mapping). */
static const char *
field_name(struct gather *g, const struct mapping *map, uint32_t c,
           uint64_t name_id)
{
	struct heap_dump *d = g->d;
	uint32_t s;
	const char *name, *orig;

	if (!util_map_get(&g->strings, name_id, &s))
		return "?";
	name = string_at(g, s);
	if (map && (orig = mapping_field(map, d->classes[c].dump_name, name)))
		return orig;
	return name;
}

/* The class's reference fields, its own then its superclasses', in the
 * order of an instance's field bytes, as far as the field bytes of its
 * largest instance (max_data) reach: so the layouts of all classes
 * together are bounded by the dump's size, however deep a hostile
 * dump's chain of superclasses; statics of its class object. */
static void
lay_out(struct gather *g, const struct mapping *map, uint32_t c,
        uint32_t max_data)
{
	struct heap_dump *d = g->d;
	struct heap_class *k = &d->classes[c];
	unsigned id = d->header.id_size;
	uint32_t offset = 0, chain, depth = 0;
	size_t cap = 0;

	for (chain = c; chain != HEAP_NONE && depth++ <= d->nclasses;
	     chain = d->classes[chain].super) {
		const struct heap_class *s = &d->classes[chain];
		struct heap_class_dump cd;
		const unsigned char *f;
		unsigned i;
		bool is_reference;

		if (!s->dump || (chain != c && offset >= max_data))
			break;
		heap_class_dump_decode(s->dump, id, &cd);
		is_reference =
		        strcmp(s->dump_name, "java.lang.ref.Reference") == 0;
		for (i = 0, f = cd.fields; i < cd.nfields; i++, f += id + 1) {
			unsigned type = f[id];

			if (chain == c) {
				if (!k->fields)
					k->fields = xcalloc(cd.nfields,
					                    sizeof(*k->fields));
				k->fields[i].name =
				        field_name(g, map, c, heap_id(f, id));
				k->fields[i].type = (uint8_t)type;
				k->fields[i].offset = k->fields_size;
				k->nfields = i + 1;
				k->fields_size += heap_type_size(type, id);
			}
			if (type == HEAP_T_OBJECT &&
			    (uint64_t)offset + id <= max_data) {
				const char *name = field_name(g, map, chain,
				                              heap_id(f, id));

				if (is_reference &&
				    strcmp(name, "referent") == 0) {
					k->referent = offset;
				} else {
					UTIL_GROW(k->refs, cap, k->nrefs + 1);
					k->refs[k->nrefs].offset = offset;
					k->refs[k->nrefs].name = name;
					k->refs[k->nrefs++].klass = s->name;
				}
			}
			offset += heap_type_size(type, id);
		}
	}
	if (k->dump) {
		struct heap_class_dump cd;
		const unsigned char *p;
		unsigned i, n = 0;

		heap_class_dump_decode(k->dump, id, &cd);
		k->statics_size = cd.statics_size;
		for (i = 0, p = cd.statics; i < cd.nstatics;
		     i++, p = heap_static_next(p, id))
			n += p[id] == HEAP_T_OBJECT;
		k->static_refs = xcalloc(n + 1, sizeof(uint32_t));
		k->static_names = xcalloc(n + 1, sizeof(char *));
		k->statics = xcalloc(cd.nstatics + 1, sizeof(*k->statics));
		for (i = 0, p = cd.statics; i < cd.nstatics;
		     i++, p = heap_static_next(p, id)) {
			const char *name =
			        field_name(g, map, c, heap_id(p, id));

			k->statics[k->nstatics++] = (struct heap_field_desc){
			        .name = name,
			        .offset = (uint32_t)(p + id + 1 - k->dump),
			        .type = p[id]};
			if (p[id] != HEAP_T_OBJECT)
				continue;
			k->static_refs[k->nstatic_refs] =
			        (uint32_t)(p + id + 1 - k->dump);
			k->static_names[k->nstatic_refs++] = name;
		}
	}
}

/* One histogram row per class name. */
static void
make_rows(struct heap_dump *d)
{
	struct util_map by_hash;
	uint32_t *next = xmalloc_large(d->nclasses + 1, sizeof(uint32_t));
	size_t i;

	util_map_init(&by_hash);
	d->rows = xmalloc_large(d->nclasses + 1, sizeof(char *));
	for (i = 0; i < d->nclasses; i++) {
		const char *name = d->classes[i].name;
		uint64_t h = hash_bytes(HASH_SEED, name, strlen(name));
		uint32_t *head = util_map_slot(&by_hash, h, HEAP_NONE), r;

		for (r = *head; r != HEAP_NONE; r = next[r])
			if (strcmp(d->rows[r], name) == 0)
				break;
		if (r == HEAP_NONE) {
			r = (uint32_t)d->nrows++;
			d->rows[r] = name;
			next[r] = *head;
			*head = r;
		}
		d->classes[i].row = r;
	}
	util_map_done(&by_hash);
	free(next);
}

static void
build_classes(struct gather *g, const struct mapping *map)
{
	struct heap_dump *d = g->d;
	unsigned id = d->header.id_size;
	size_t cap = 0, i;
	uint32_t unknown = HEAP_NONE, prim[12], *max_data, *slot_class;
	uint64_t s64;
	size_t k;
	unsigned t;

	util_map_init(&d->class_ids);
	for (k = 0; k < g->nclass_dumps; k++) {
		uint32_t o = g->class_dumps[k];
		const unsigned char *rec = heap_record(d, o);
		uint32_t s, c;
		char *name;
		uint64_t cid = heap_object_id(d, o);

		if (util_map_get(&d->class_ids, cid, &c))
			continue;
		if (util_map_get(&g->class_names, cid, &s)) {
			name = java_name(string_at(g, s));
		} else {
			name = xasprintf("class@0x%llx",
			                 (unsigned long long)cid);
		}
		c = add_class(d, &cap, cid, name, map);
		free(name);
		d->classes[c].object = o;
		d->classes[c].dump = rec;
	}
	for (i = 0; i < d->nclasses; i++) {
		struct heap_class_dump cd;
		uint32_t s;

		if (!d->classes[i].dump)
			continue;
		heap_class_dump_decode(d->classes[i].dump, id, &cd);
		d->classes[i].instance_size = cd.instance_size;
		if (util_map_get(&d->class_ids, cd.super_id, &s) && s != i)
			d->classes[i].super = s;
	}
	d->class_class = class_or_made(d, &cap, "java.lang.Class");
	for (t = 0; t < 12; t++) {
		const char *tn = heap_type_name(t);
		char name[24];

		prim[t] = HEAP_NONE;
		if (!tn || t == HEAP_T_OBJECT)
			continue;
		snprintf(name, sizeof(name), "%s[]", tn);
		prim[t] = class_named(d, name);
	}
	/* Each slot's class, the classes made up in the order the walk
	 * first met an object of theirs (at most 9: 8 primitive arrays,
	 * unknown). */
	slot_class = xmalloc(g->nslots * sizeof(uint32_t));
	slot_class[SLOT_CLASS_OBJECT] = d->class_class;
	for (;;) {
		uint32_t first = HEAP_NONE, made = 0;
		size_t s;

		for (s = 1; s < g->nslots; s++) {
			if (s < SLOT_IDS) {
				if (g->slot_first[s] == HEAP_NONE)
					continue;
				if (prim[s] != HEAP_NONE) {
					slot_class[s] = prim[s];
					continue;
				}
			} else if (util_map_get(&d->class_ids, g->slot_id[s],
			                        &slot_class[s])) {
				continue;
			} else if (unknown != HEAP_NONE) {
				slot_class[s] = unknown;
				continue;
			}
			if (g->slot_first[s] < first) {
				first = g->slot_first[s];
				made = (uint32_t)s;
			}
		}
		if (first == HEAP_NONE)
			break;
		if (made < SLOT_IDS) {
			char name[24];

			snprintf(name, sizeof(name), "%s[]",
			         heap_type_name(made));
			prim[made] = add_class(d, &cap, 0, name, NULL);
		} else {
			unknown =
			        add_class(d, &cap, 0, "(unknown class)", NULL);
		}
	}
	/* Each object's class and its shallow size (but for class objects,
	 * which need the statics laid out), the largest instance of each
	 * class: from what the walk kept, without the records. */
	for (i = 1; i <= d->nobjects / 64; i++)
		d->sized[i].before = d->sized[i - 1].before +
		                     heap_index_bits_set(d->sized[i - 1].bits);
	max_data = xcalloc(d->nclasses + 1, sizeof(uint32_t));
	for (i = SLOT_IDS; i < g->nslots; i++)
		if (g->slot_max_data[i] > max_data[slot_class[i]])
			max_data[slot_class[i]] = g->slot_max_data[i];
	for (i = 0, k = 0; i < d->nobjects; i++) {
		uint32_t slot = d->klass[i], c = slot_class[slot];

		d->klass[i] = c;
		if (!(d->sized[i / 64].bits >> (i % 64) & 1))
			continue;
		if (slot != SLOT_CLASS_OBJECT &&
		    d->shallow32[k] != UINT32_MAX) {
			s64 = (uint64_t)d->classes[c].instance_size +
			      d->shallow32[k];
			d->shallow32[k] =
			        s64 < UINT32_MAX ? (uint32_t)s64 : UINT32_MAX;
		}
		k++;
	}
	free(slot_class);
	for (i = 0; i < d->nclasses; i++)
		lay_out(g, map, (uint32_t)i, max_data[i]);
	free(max_data);
	for (i = 0; i < g->nclass_dumps; i++) {
		uint32_t o = g->class_dumps[i];

		const struct heap_rank_word *w = &d->sized[o / 64];

		s64 = heap_shallow_of_record(d, o);
		d->shallow32[w->before +
		             heap_index_bits_set(
		                     w->bits &
		                     ((UINT64_C(1) << (o % 64)) - 1))] =
		        s64 < UINT32_MAX ? (uint32_t)s64 : UINT32_MAX;
	}
	make_rows(d);
}

static void
resolve_roots(struct gather *g)
{
	struct heap_dump *d = g->d;
	size_t i;

	d->roots = xmalloc_large(g->nroots + 1, sizeof(*d->roots));
	for (i = 0; i < g->nroots; i++) {
		uint32_t o = heap_find(d, g->roots[i].id);

		if (o == HEAP_NONE)
			continue;
		d->roots[d->nroots].object = o;
		d->roots[d->nroots++].type = g->roots[i].type;
	}
}

struct heap_dump *
heap_dump_open(const char *path, const struct mapping *map,
               void (*progress)(void *, uint64_t, uint64_t), void *progress_arg,
               struct trace_error *err)
{
	struct heap_dump *d = xcalloc(1, sizeof(*d));
	struct gather g;
	struct heap_sink sink = {0};

#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
	/* The arrays of a dump and of its passes come and go by tens of
	 * megabytes: each mapped on its own, its pages given back when it
	 * is freed (glibc would raise its threshold past the first one
	 * freed and keep the later ones in its heap, at the peak). */
	mallopt(M_MMAP_THRESHOLD, 256 << 10);
#endif
	memset(&g, 0, sizeof(g));
	g.d = d;
	g.heap = -1;
	g.progress = progress;
	g.progress_arg = progress_arg;
	util_arena_init(&d->arena);
	if (!trace_bytes_open(path, &d->bytes, err)) {
		util_arena_done(&d->arena);
		free(d);
		return NULL;
	}
	d->data = d->bytes.data;
	d->size = d->bytes.size;
	/* TRACETUI_TEST_HEAP_WIDE_OFFSETS: 8-byte offsets in any dump, so
	 * that tests/heap-same.sh runs them without a dump of 4 GiB. */
	g.wide_offsets = d->size > UINT32_MAX ||
	                 getenv("TRACETUI_TEST_HEAP_WIDE_OFFSETS");
	util_map_init(&g.strings);
	util_map_init(&g.class_names);
	util_map_init(&g.slot_of);
	g.nslots = g.slots_cap = SLOT_IDS;
	g.slot_id = xcalloc(SLOT_IDS, sizeof(uint64_t));
	g.slot_max_data = xcalloc(SLOT_IDS, sizeof(uint32_t));
	g.slot_first = xmalloc(SLOT_IDS * sizeof(uint32_t));
	memset(g.slot_first, 0xFF, SLOT_IDS * sizeof(uint32_t));
	sink.ctx = &g;
	sink.string = on_string;
	sink.load_class = on_load_class;
	sink.heap = on_heap;
	sink.root = on_root;
	sink.object = on_object;
	sink.progress = on_progress;
	heap_ahead(d, 0, HEAP_AHEAD_BYTES);
	g.map = map;
	d->complete =
	        heap_hprof_read(d->data, d->size, &sink, &d->header, &d->cut);
	if (!d->complete && !d->header.id_size) {
		*err = d->cut;
		memset(&d->cut, 0, sizeof(d->cut));
		trace_error_set_path(err, path);
		goto fail;
	}
	if (!d->complete)
		trace_error_set_path(&d->cut, path);
	/* The arrays grew by doubling: give back what they do not use. */
	if (d->nobjects) {
		if (d->offsets32)
			d->offsets32 = xreallocarray(d->offsets32, d->nobjects,
			                             sizeof(*d->offsets32));
		else
			d->offsets64 = xreallocarray(d->offsets64, d->nobjects,
			                             sizeof(*d->offsets64));
		d->klass =
		        xreallocarray(d->klass, d->nobjects, sizeof(*d->klass));
		d->shallow32 = xreallocarray(d->shallow32, g.nsized + 1,
		                             sizeof(*d->shallow32));
		d->sized = xreallocarray(d->sized, d->nobjects / 64 + 1,
		                         sizeof(*d->sized));
	}
	if (!d->klass) {
		d->klass = xcalloc(1, sizeof(*d->klass));
		d->shallow32 = xcalloc(1, sizeof(*d->shallow32));
		d->sized = xcalloc(1, sizeof(*d->sized));
	}
	/* The index takes the ids. */
	heap_index_finish(&d->index, &g.ids);
	{
		struct heap_walk_refs_list refs;

		if (heap_walk_refs_finish(g.walk_refs, d->nobjects, &refs)) {
			d->walk_refs = xmalloc(sizeof(*d->walk_refs));
			*d->walk_refs = refs;
		}
		g.walk_refs = NULL;
	}
	build_classes(&g, map);
	resolve_roots(&g);
	util_map_done(&g.strings);
	util_map_done(&g.class_names);
	free(g.str_off);
	free(g.str_len);
	free(g.str_text);
	free(g.roots);
	free(g.class_dumps);
	gather_slots_done(&g);
	/* Every later pass reads the model's arrays, or the records it
	 * asks for: the pages read so far need not stay. */
	heap_release(d, 0, d->size);
	return d;
fail:
	util_map_done(&g.strings);
	util_map_done(&g.class_names);
	free(g.str_off);
	free(g.str_len);
	free(g.str_text);
	free(g.roots);
	free(g.class_dumps);
	gather_slots_done(&g);
	heap_index_finish(&d->index, &g.ids);
	heap_walk_refs_finish(g.walk_refs, 0, NULL);
	heap_dump_free(d);
	return NULL;
}

void
heap_dump_free(struct heap_dump *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->nclasses; i++) {
		free(d->classes[i].refs);
		free(d->classes[i].fields);
		free(d->classes[i].static_refs);
		free(d->classes[i].static_names);
		free(d->classes[i].statics);
	}
	free(d->classes);
	util_map_done(&d->class_ids);
	free(d->offsets32);
	free(d->offsets64);
	free(d->klass);
	free(d->shallow32);
	free(d->sized);
	heap_index_done(&d->index);
	if (d->walk_refs) {
		free(d->walk_refs->first);
		free(d->walk_refs->to);
		free(d->walk_refs);
	}
	free(d->rows);
	free(d->heaps);
	free(d->runs);
	free(d->roots);
	trace_error_clear(&d->cut);
	trace_bytes_close(&d->bytes);
	util_arena_done(&d->arena);
	free(d);
}

/* ---- objects ---- */

uint32_t
heap_class_of_object(const struct heap_dump *d, uint32_t i)
{
	uint32_t c;

	if (heap_tag(d, i) != HEAP_CLASS_DUMP ||
	    !util_map_get(&d->class_ids, heap_object_id(d, i), &c))
		return HEAP_NONE;
	return c;
}

uint32_t
heap_array_length(const struct heap_dump *d, uint32_t i)
{
	unsigned tag = heap_tag(d, i);

	if (tag != HEAP_OBJECT_ARRAY && tag != HEAP_PRIMITIVE_ARRAY &&
	    tag != HEAP_PRIMITIVE_NODATA)
		return 0;
	return heap_u4(heap_record(d, i) + 1 + d->header.id_size + 4);
}

uint64_t
heap_shallow_of_record(const struct heap_dump *d, uint32_t i)
{
	const unsigned char *rec = heap_record(d, i);
	unsigned id = d->header.id_size;
	uint64_t base = d->classes[d->klass[i]].instance_size;
	uint32_t c;

	switch (*rec) {
	case HEAP_OBJECT_ARRAY:
		return base + (uint64_t)heap_u4(rec + 1 + id + 4) * id;
	case HEAP_PRIMITIVE_ARRAY:
	case HEAP_PRIMITIVE_NODATA:
		return base + (uint64_t)heap_u4(rec + 1 + id + 4) *
		                      heap_type_size(rec[1 + id + 8], id);
	case HEAP_CLASS_DUMP:
		c = heap_class_of_object(d, i);
		return base + (c == HEAP_NONE ? 0 : d->classes[c].statics_size);
	default:
		return base;
	}
}

void
heap_release(const struct heap_dump *d, size_t from, size_t to)
{
	trace_bytes_release(&d->bytes, from, to);
}

void
heap_ahead(const struct heap_dump *d, size_t from, size_t to)
{
	trace_bytes_ahead(&d->bytes, from, to);
}

unsigned
heap_of(const struct heap_dump *d, uint32_t i)
{
	size_t lo = 0, hi = d->nruns;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (d->runs[mid].first <= i)
			lo = mid;
		else
			hi = mid;
	}
	return d->nruns ? d->runs[lo].heap : 0;
}

const char *
heap_root_name(unsigned type)
{
	switch (type) {
	case 0xFF:
		return "unknown";
	case 0x01:
		return "jni-global";
	case 0x02:
		return "jni-local";
	case 0x03:
		return "java-frame";
	case 0x04:
		return "native-stack";
	case 0x05:
		return "sticky-class";
	case 0x06:
		return "thread-block";
	case 0x07:
		return "monitor-used";
	case 0x08:
		return "thread-object";
	case 0x89:
		return "interned-string";
	case 0x8A:
		return "finalizing";
	case 0x8B:
		return "debugger";
	case 0x8C:
		return "reference-cleanup";
	case 0x8D:
		return "vm-internal";
	case 0x8E:
		return "jni-monitor";
	case 0x8F:
		return "unknown-0x8f";
	case 0x90:
		return "unreachable";
	default:
		return "?";
	}
}

uint32_t
heap_next_ref(const struct heap_dump *d, uint32_t i, uint32_t *slot)
{
	const unsigned char *rec = heap_record(d, i);
	unsigned id = d->header.id_size;

	switch (*rec) {
	case HEAP_INSTANCE: {
		const struct heap_class *k = &d->classes[d->klass[i]];
		uint32_t n = heap_u4(rec + 1 + 2 * id + 4);
		const unsigned char *p = rec + 1 + 2 * id + 8;

		while (*slot < k->nrefs) {
			uint32_t off = k->refs[(*slot)++].offset, t;

			if ((uint64_t)off + id > n)
				continue;
			t = heap_find(d, heap_id(p + off, id));
			if (t != HEAP_NONE)
				return t;
		}
		return HEAP_NONE;
	}
	case HEAP_OBJECT_ARRAY: {
		uint32_t n = heap_u4(rec + 1 + id + 4);
		const unsigned char *p = rec + 1 + 2 * id + 8;

		while (*slot < n) {
			uint64_t v = heap_id(p + (size_t)(*slot)++ * id, id);
			uint32_t t;

			if (v && (t = heap_find(d, v)) != HEAP_NONE)
				return t;
		}
		return HEAP_NONE;
	}
	case HEAP_CLASS_DUMP: {
		uint32_t c = heap_class_of_object(d, i);
		const struct heap_class *k;

		if (c == HEAP_NONE)
			return HEAP_NONE;
		k = &d->classes[c];
		while (*slot < k->nstatic_refs) {
			uint32_t t = heap_find(
			        d, heap_id(k->dump + k->static_refs[(*slot)++],
			                   id));

			if (t != HEAP_NONE)
				return t;
		}
		return HEAP_NONE;
	}
	default:
		return HEAP_NONE;
	}
}

const char *
heap_slot_name(const struct heap_dump *d, uint32_t i, uint32_t slot, char *buf,
               size_t size)
{
	uint32_t c;

	switch (heap_tag(d, i)) {
	case HEAP_INSTANCE: {
		const struct heap_class *k = &d->classes[d->klass[i]];

		if (slot < k->nrefs) {
			snprintf(buf, size, "%s.%s", k->name,
			         k->refs[slot].name);
			return buf;
		}
		break;
	}
	case HEAP_OBJECT_ARRAY:
		snprintf(buf, size, "%s[%u]", d->classes[d->klass[i]].name,
		         slot);
		return buf;
	case HEAP_CLASS_DUMP:
		c = heap_class_of_object(d, i);
		if (c != HEAP_NONE && slot < d->classes[c].nstatic_refs) {
			snprintf(buf, size, "%s.%s", d->classes[c].name,
			         d->classes[c].static_names[slot]);
			return buf;
		}
		break;
	default:
		break;
	}
	snprintf(buf, size, "?");
	return buf;
}

bool
heap_field(const struct heap_dump *d, uint32_t i, const char *name,
           unsigned *type, uint64_t *value)
{
	const unsigned char *rec = heap_record(d, i);
	unsigned id = d->header.id_size;
	uint32_t chain, depth = 0, base = 0, n, k;
	const unsigned char *data;

	if (*rec != HEAP_INSTANCE)
		return false;
	n = heap_u4(rec + 1 + 2 * id + 4);
	data = rec + 1 + 2 * id + 8;
	for (chain = d->klass[i];
	     chain != HEAP_NONE && depth++ <= d->nclasses && base < n;
	     chain = d->classes[chain].super) {
		const struct heap_class *s = &d->classes[chain];

		for (k = 0; k < s->nfields; k++) {
			const struct heap_field_desc *f = &s->fields[k];
			unsigned size = heap_type_size(f->type, id), b;
			uint64_t v = 0;

			if (strcmp(f->name, name) != 0)
				continue;
			if ((uint64_t)base + f->offset + size > n)
				return false;
			for (b = 0; b < size; b++)
				v = v << 8 | data[base + f->offset + b];
			*type = f->type;
			*value = v;
			return true;
		}
		base += s->fields_size;
	}
	return false;
}

bool
heap_class_extends(const struct heap_dump *d, uint32_t c, const char *name)
{
	uint32_t depth = 0;

	for (; c != HEAP_NONE && depth++ <= d->nclasses;
	     c = d->classes[c].super)
		if (strcmp(d->classes[c].name, name) == 0 ||
		    strcmp(d->classes[c].dump_name, name) == 0)
			return true;
	return false;
}

uint32_t
heap_referent(const struct heap_dump *d, uint32_t i)
{
	const unsigned char *rec = heap_record(d, i);
	unsigned id = d->header.id_size;
	const struct heap_class *k = &d->classes[d->klass[i]];

	if (*rec != HEAP_INSTANCE || k->referent == HEAP_NONE ||
	    (uint64_t)k->referent + id > heap_u4(rec + 1 + 2 * id + 4))
		return HEAP_NONE;
	return heap_find(d, heap_id(rec + 1 + 2 * id + 8 + k->referent, id));
}
