/*
 * heap: one Java heap dump in memory: its objects in compact arrays
 * (record offset, id, class), its classes, roots and heaps.  An
 * object's fields and references are read from the dump's bytes when
 * asked for, never held.  Read-only once heap_dump_open returns.
 *
 * Memory: 4 bytes per object for its record's offset (8 in a dump of
 * 4 GiB or more), 4 for its class, 4 for its shallow size if it is an
 * array or a class object (an instance's is its class's) and a bit to
 * say which, and the id index (model/heap-index.h): about 1 where the
 * ids ascend in file order, else the ids (4, or 8 for an id size of 8)
 * and 6 to 12 for the table; the references the walk decoded
 * (model/heap-walk-refs.h) until taken; beside the dump's own bytes (inflated
 * from gzip, or mapped from the file: their pages are let go behind each pass
 * over the records, and read in again where asked for).  An object's id is read
 * from its record.
 */
#ifndef TRACETUI_MODEL_HEAP_H
#define TRACETUI_MODEL_HEAP_H

#include "model/heap-index.h"
#include "model/heap-walk-refs.h"
#include "model/mapping.h"
#include "read/error.h"
#include "read/heap-hprof.h"
#include "read/load.h"
#include "util/arena.h"
#include "util/map.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HEAP_NONE UINT32_MAX

/* A reference field of a class's instances. */
struct heap_ref_field {
	uint32_t offset;   /* in the instance's field bytes */
	const char *name;  /* the field's name (after --mapping) */
	const char *klass; /* the class declaring it */
};

/* A field its class declares: name (after --mapping), basic type, and
 * place among the class's own field bytes. */
struct heap_field_desc {
	const char *name;
	uint32_t offset;
	uint8_t type;
};

struct heap_class {
	uint64_t id;
	const char *name;      /* after --mapping; arrays "byte[]" */
	const char *dump_name; /* as the dump names it, dotted */
	uint32_t object;       /* its class object, or HEAP_NONE */
	uint32_t super;        /* its superclass, or HEAP_NONE */
	uint32_t instance_size;
	uint32_t row;          /* its histogram row (one per name) */
	uint64_t statics_size; /* its class object's static values' bytes */
	/* Strong reference fields of an instance, its own and inherited
	 * (a Reference's referent is not one); the referent's offset, or
	 * HEAP_NONE when the class is no java.lang.ref.Reference. */
	struct heap_ref_field *refs;
	uint32_t nrefs;
	uint32_t referent;
	/* Object-typed statics: offsets from the CLASS DUMP's start. */
	uint32_t *static_refs;
	const char **static_names;
	uint32_t nstatic_refs;
	/* Every static, in the dump's order: its value's offset from the
	 * CLASS DUMP's start. */
	struct heap_field_desc *statics;
	uint32_t nstatics;
	/* The fields it declares, and their bytes. */
	struct heap_field_desc *fields;
	uint32_t nfields, fields_size;
	const unsigned char *dump; /* its CLASS DUMP, or NULL */
};

struct heap_root {
	uint32_t object;
	uint8_t type; /* the root sub-record's tag */
};

/* A run of objects, in file order, in one heap. */
struct heap_run {
	uint32_t first; /* the run's first object */
	uint8_t heap;
};

struct heap_dump {
	struct trace_bytes bytes;
	const unsigned char *data;
	size_t size;
	struct heap_hprof_header header;
	bool complete;          /* read to its end */
	struct trace_error cut; /* where and why it was not */

	size_t nobjects;
	size_t objects_by_tag[256]; /* by record tag (enum heap_record) */
	uint32_t *offsets32; /* each object's record, in a dump under 4 GiB */
	uint64_t *offsets64; /* or in a larger one */
	uint32_t *klass;     /* each object's class */
	/* Shallow sizes: an instance's is its class's instance size; those
	 * of the others (arrays, class objects) are shallow32's, in order,
	 * UINT32_MAX where one does not fit.  Bit i % 64 of sized[i / 64]
	 * says whether object i is one of the others. */
	struct heap_rank_word *sized;
	uint32_t *shallow32;
	struct heap_index index; /* id -> object */
	/* The strong references decoded by the walk, their targets still
	 * ids, until heap_refs_build or heap_refs_take_ids takes them;
	 * NULL where it could not. */
	struct heap_walk_refs_list *walk_refs;

	struct heap_class *classes;
	size_t nclasses;
	struct util_map class_ids; /* class object id -> class */
	uint32_t class_class;      /* java.lang.Class */

	const char **rows; /* histogram row names */
	size_t nrows;

	const char **heaps; /* heap names; "default" for a JVM dump */
	size_t nheaps;
	bool android; /* the dump names its heaps (HEAP DUMP INFO) */
	struct heap_run *runs;
	size_t nruns;

	struct heap_root *roots; /* those naming an object of the dump */
	size_t nroots;
	size_t nroot_records;   /* every root record, found or not */
	size_t root_types[256]; /* root records by tag */

	struct util_arena arena;
};

/*
 * Open the heap dump at path (gzip allowed), deobfuscating with map
 * when not NULL.  NULL with err set when nothing usable was read; a
 * dump cut or damaged part way is returned with complete false and
 * cut saying where.  progress, if not NULL, sees bytes walked.
 */
struct heap_dump *heap_dump_open(const char *path, const struct mapping *map,
                                 void (*progress)(void *, uint64_t, uint64_t),
                                 void *progress_arg, struct trace_error *err);
/* Release the dump. */
void heap_dump_free(struct heap_dump *d);

/* The object with id, or HEAP_NONE. */
uint32_t heap_find(const struct heap_dump *d, uint64_t id);
/* Where object i's record begins in the dump. */
static inline size_t
heap_offset(const struct heap_dump *d, uint32_t i)
{
	return d->offsets32 ? d->offsets32[i] : (size_t)d->offsets64[i];
}
/* Object i's record. */
static inline const unsigned char *
heap_record(const struct heap_dump *d, uint32_t i)
{
	return d->data + heap_offset(d, i);
}
/* Object i's id, from its record (every record's first field). */
static inline uint64_t
heap_object_id(const struct heap_dump *d, uint32_t i)
{
	return heap_id(heap_record(d, i) + 1, d->header.id_size);
}
/* The record tag of object i (enum heap_record). */
static inline unsigned
heap_tag(const struct heap_dump *d, uint32_t i)
{
	return *heap_record(d, i);
}
/* Object i's shallow size as ahat counts it, from its record. */
uint64_t heap_shallow_of_record(const struct heap_dump *d, uint32_t i);
/* Object i's shallow size, as ahat counts it. */
static inline uint64_t
heap_shallow(const struct heap_dump *d, uint32_t i)
{
	const struct heap_rank_word *w = &d->sized[i / 64];
	uint64_t bit = UINT64_C(1) << (i % 64);
	uint32_t s;

	if (!(w->bits & bit))
		return d->classes[d->klass[i]].instance_size;
	s = d->shallow32[w->before + heap_index_bits_set(w->bits & (bit - 1))];
	return s != UINT32_MAX ? s : heap_shallow_of_record(d, i);
}
/* Object i's shallow size in a pass over every object in order (each
 * asked for, none skipped): *k, 0 at the pass's start, counts the
 * arrays and class objects passed, so that no rank is counted. */
static inline uint64_t
heap_shallow_in_order(const struct heap_dump *d, uint32_t i, size_t *k)
{
	uint32_t s;

	if (!(d->sized[i / 64].bits >> (i % 64) & 1))
		return d->classes[d->klass[i]].instance_size;
	s = d->shallow32[(*k)++];
	return s != UINT32_MAX ? s : heap_shallow_of_record(d, i);
}
/* Let the dump's pages of bytes [from, to) go from memory, where they
 * are mapped from the file: a pass over the records in file order
 * calls it behind itself. */
void heap_release(const struct heap_dump *d, size_t from, size_t to);
/* The bytes a pass over the records makes present ahead of itself. */
#define HEAP_AHEAD_BYTES ((size_t)4 << 20)
/* Make the dump's bytes [from, to) present at once, where they are
 * mapped from the file: a pass over the records in file order calls
 * it ahead of itself (page faults one by one are dear). */
void heap_ahead(const struct heap_dump *d, size_t from, size_t to);
/* The heap object i is in. */
unsigned heap_of(const struct heap_dump *d, uint32_t i);
/* The name of a root type (a root sub-record's tag). */
const char *heap_root_name(unsigned type);
/* The class defined by class object i, or HEAP_NONE. */
uint32_t heap_class_of_object(const struct heap_dump *d, uint32_t i);
/* The length of array object i (0 for others). */
uint32_t heap_array_length(const struct heap_dump *d, uint32_t i);

/*
 * Object i's next strong reference at or after *slot (a field of its
 * class's refs, an array element, an object-typed static), advancing
 * *slot past it; HEAP_NONE when there is no more.  Null references and
 * ids that name no object of the dump are skipped.
 */
uint32_t heap_next_ref(const struct heap_dump *d, uint32_t i, uint32_t *slot);
/* What slot names in object i ("Class.field", "[3]"), into buf. */
const char *heap_slot_name(const struct heap_dump *d, uint32_t i, uint32_t slot,
                           char *buf, size_t size);

/*
 * Object i's instance field named `name` (its own class's first, then
 * its superclasses'): its type and raw value (an id or the bits of a
 * primitive); false when it has none.
 */
bool heap_field(const struct heap_dump *d, uint32_t i, const char *name,
                unsigned *type, uint64_t *value);
/* Whether class c is, or extends, the class named `name`. */
bool heap_class_extends(const struct heap_dump *d, uint32_t c,
                        const char *name);
/* The referent of Reference instance i (strong or not), or HEAP_NONE. */
uint32_t heap_referent(const struct heap_dump *d, uint32_t i);

#endif
