/*
 * map: an open-addressing hash map from 64-bit keys to 32-bit values.
 *
 * Linear probing with backward-shift deletion (no tombstones), so the cost
 * of an operation stays bounded by the load factor however many removals
 * happen.  The map owns its table; keys and values are plain integers.
 */
#ifndef TRACETUI_UTIL_MAP_H
#define TRACETUI_UTIL_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct util_map {
	uint64_t *keys;
	uint32_t *values;
	uint8_t *used;
	size_t mask; /* capacity - 1; capacity is a power of two or 0 */
	size_t count;
};

/* An empty map that allocates nothing until the first insertion. */
void util_map_init(struct util_map *map);
/* Release the table. */
void util_map_done(struct util_map *map);
/* Find key; store its value in *value and return true when present. */
bool util_map_get(const struct util_map *map, uint64_t key, uint32_t *value);
/* Insert or overwrite key with value. */
void util_map_put(struct util_map *map, uint64_t key, uint32_t value);
/* Pointer to key's value, inserting `value` first when absent. */
uint32_t *util_map_slot(struct util_map *map, uint64_t key, uint32_t value);
/* Remove key if present. */
void util_map_remove(struct util_map *map, uint64_t key);

#endif
