/*
 * map: open addressing with linear probing; the load factor stays
 * under 1/2 so probes are short; removal shifts later entries back.
 */
#include "config.h"

#include "util/map.h"

#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

static inline size_t
hash64(uint64_t key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	key *= 0xc4ceb9fe1a85ec53ULL;
	key ^= key >> 33;
	return (size_t)key;
}

void
util_map_init(struct util_map *map)
{
	memset(map, 0, sizeof(*map));
}

void
util_map_done(struct util_map *map)
{
	free(map->keys);
	free(map->values);
	free(map->used);
	util_map_init(map);
}

bool
util_map_get(const struct util_map *map, uint64_t key, uint32_t *value)
{
	size_t i;

	if (!map->count)
		return false;
	for (i = hash64(key) & map->mask; map->used[i];
	     i = (i + 1) & map->mask) {
		if (map->keys[i] == key) {
			*value = map->values[i];
			return true;
		}
	}
	return false;
}

static void
rehash(struct util_map *map, size_t capacity)
{
	struct util_map old = *map;
	size_t i;

	map->keys = xcalloc(capacity, sizeof(*map->keys));
	map->values = xcalloc(capacity, sizeof(*map->values));
	map->used = xcalloc(capacity, 1);
	map->mask = capacity - 1;
	map->count = 0;
	for (i = 0; old.keys && i <= old.mask; i++)
		if (old.used[i])
			util_map_put(map, old.keys[i], old.values[i]);
	free(old.keys);
	free(old.values);
	free(old.used);
}

uint32_t *
util_map_slot(struct util_map *map, uint64_t key, uint32_t value)
{
	size_t i;

	if (!map->keys || (map->count + 1) * 2 > map->mask + 1)
		rehash(map, map->keys ? (map->mask + 1) * 2 : 16);
	for (i = hash64(key) & map->mask; map->used[i]; i = (i + 1) & map->mask)
		if (map->keys[i] == key)
			return &map->values[i];
	map->used[i] = 1;
	map->keys[i] = key;
	map->values[i] = value;
	map->count++;
	return &map->values[i];
}

void
util_map_put(struct util_map *map, uint64_t key, uint32_t value)
{
	*util_map_slot(map, key, value) = value;
}

void
util_map_remove(struct util_map *map, uint64_t key)
{
	size_t i, j, home;

	if (!map->count)
		return;
	for (i = hash64(key) & map->mask; map->used[i]; i = (i + 1) & map->mask)
		if (map->keys[i] == key)
			break;
	if (!map->used[i])
		return;
	/* Shift back every entry whose probe run crosses the hole. */
	for (j = (i + 1) & map->mask; map->used[j]; j = (j + 1) & map->mask) {
		home = hash64(map->keys[j]) & map->mask;
		if (((j - home) & map->mask) >= ((j - i) & map->mask)) {
			map->keys[i] = map->keys[j];
			map->values[i] = map->values[j];
			i = j;
		}
	}
	map->used[i] = 0;
	map->count--;
}
