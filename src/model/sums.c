/*
 * sums: the link table, keyed by (parent, child, both recursion flags)
 * with a direct-mapped cache in front of the hash map, since a thread
 * meets the same few pairs over and over.
 */
#include "config.h"

#include "model/sums.h"

#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

static uint64_t
link_key(uint32_t parent, uint32_t child, bool child_rec, bool parent_rec)
{
	/* Method indexes stay below 2^31 (CALL_NONE maps to 2^31 - 1). */
	uint64_t p = parent == CALL_NONE ? 0x7FFFFFFF : parent;

	return p << 33 | (uint64_t)child << 2 | (uint64_t)child_rec << 1 |
	       parent_rec;
}

struct profile_link *
link_slot(struct link_table *t, uint32_t parent, uint32_t child, bool child_rec,
          bool parent_rec)
{
	uint64_t key = link_key(parent, child, child_rec, parent_rec);
	size_t at = (key ^ key >> 29) & (LINK_CACHE - 1);
	uint32_t *slot;

	if (t->cache && t->cache[at].key_plus_one == key + 1)
		return &t->links[t->cache[at].link];
	slot = util_map_slot(&t->index, key, CALL_NONE);
	if (*slot == CALL_NONE) {
		struct profile_link *l;

		UTIL_GROW(t->links, t->cap, t->count + 1);
		l = &t->links[t->count];
		memset(l, 0, sizeof(*l));
		l->parent = parent;
		l->child = child;
		l->child_recursive = child_rec;
		l->parent_recursive = parent_rec;
		*slot = (uint32_t)t->count++;
	}
	if (!t->cache && t->count >= LINK_CACHED)
		t->cache = xcalloc(LINK_CACHE, sizeof(*t->cache));
	if (t->cache)
		t->cache[at] = (struct link_cache_entry){key + 1, *slot};
	return &t->links[*slot];
}

uint32_t
link_table_add(struct link_table *t, const struct profile_link *from)
{
	struct profile_link *to =
	        link_slot(t, from->parent, from->child, from->child_recursive,
	                  from->parent_recursive);
	int k;

	to->calls += from->calls;
	for (k = 0; k < CLOCK_COUNT; k++)
		to->incl[k] += from->incl[k];
	return (uint32_t)(to - t->links);
}

void
link_table_done(struct link_table *t)
{
	util_map_done(&t->index);
	free(t->cache);
	t->cache = NULL;
}
