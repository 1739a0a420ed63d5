/*
 * heap-walk-refs: a heap dump's strong references decoded as the walk
 * of its records meets them, while each record is in the cache, into
 * arrays as model/heap-refs.h's: no pass reads the records again for
 * them.
 *
 * An instance's reference fields are laid out when the first instance
 * of its class comes, as model/heap.c's lay_out lays them out (its own
 * fields, then its superclasses', a Reference's referent left out; a
 * field past an instance's bytes left out of that instance), which
 * needs the class dumps of its chain and its name to have come before
 * (ART and the JVM write them first).  Where one has not, or the ids
 * are 8 bytes, the walk gives up on them and heap_refs_build decodes
 * them from the model as before (TRACETUI_TEST_HEAP_WALK_REFS=0 gives
 * up at once, so that tests/heap-same.sh compares the two).
 *
 * Memory: 4 bytes per object and 4 per non-null reference.
 */
#ifndef TRACETUI_MODEL_HEAP_WALK_REFS_H
#define TRACETUI_MODEL_HEAP_WALK_REFS_H

#include "model/heap-index.h"
#include "model/mapping.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the walk knows of names so far. */
struct heap_walk_names {
	void *ctx;
	/* The bytes of string id (their length in *len), or NULL. */
	const char *(*string)(void *ctx, uint64_t id, size_t *len);
	/* The bytes of the name of class id, or NULL. */
	const char *(*class_name)(void *ctx, uint64_t class_id, size_t *len);
};

struct heap_walk_refs;

/* The references of a walk's objects: object i's are to[first[i] ..
 * first[i + 1]), ids until heap_walk_refs_resolve makes them objects. */
struct heap_walk_refs_list {
	uint32_t *first, *to;
	size_t n;
};

/* Start decoding the references of a dump of id_size whose size bytes
 * are data; NULL where the walk will not (ids of 8 bytes, 4 GiB). */
struct heap_walk_refs *heap_walk_refs_new(const unsigned char *data,
                                          size_t size, unsigned id_size,
                                          const struct mapping *map,
                                          struct heap_walk_names names);
/* The walk's object number obj: its record rec of tag (enum
 * heap_record), and for an instance its class's slot, a number the
 * caller gives each class id (the same for the same id). */
void heap_walk_refs_add(struct heap_walk_refs *w, uint32_t obj, unsigned tag,
                        const unsigned char *rec, uint32_t slot);
/*
 * The references of the n objects walked into out, their targets still
 * ids (0 for none; heap_walk_refs_resolve makes them objects); false,
 * with nothing held, where the walk gave up.  Frees w (which may be
 * NULL) either way.
 */
bool heap_walk_refs_finish(struct heap_walk_refs *w, size_t n,
                           struct heap_walk_refs_list *out);
/* Make the targets of r, the references of n objects as
 * heap_walk_refs_finish gave them, objects by ix, dropping the ids that
 * name none. */
void heap_walk_refs_resolve(struct heap_walk_refs_list *r,
                            const struct heap_index *ix, size_t n);

#endif
