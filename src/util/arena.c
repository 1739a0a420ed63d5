/*
 * arena: chunks of at least 64 KiB, larger requests get a chunk of
 * their own; alignment is that of max_align_t.
 */
#include "config.h"

#include "util/arena.h"

#include "util/alloc.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum { ARENA_CHUNK = 64 * 1024 };

struct util_arena_chunk {
	struct util_arena_chunk *next;
	size_t size;
	alignas(max_align_t) unsigned char data[];
};

void
util_arena_init(struct util_arena *arena)
{
	memset(arena, 0, sizeof(*arena));
}

void
util_arena_done(struct util_arena *arena)
{
	struct util_arena_chunk *c, *next;

	for (c = arena->head; c; c = next) {
		next = c->next;
		free(c);
	}
	util_arena_init(arena);
}

static void *
arena_take(struct util_arena *arena, size_t size, size_t align)
{
	struct util_arena_chunk *c = arena->head;
	size_t at = (arena->used + align - 1) & ~(align - 1);

	if (!c || at + size > c->size) {
		size_t chunk = size > ARENA_CHUNK ? size : ARENA_CHUNK;

		c = xmalloc(sizeof(*c) + chunk);
		c->size = chunk;
		if (arena->head && size > ARENA_CHUNK) {
			/* Keep filling the current chunk after a big one. */
			c->next = arena->head->next;
			arena->head->next = c;
			arena->total += size;
			return c->data;
		}
		c->next = arena->head;
		arena->head = c;
		at = 0;
	}
	arena->used = at + size;
	arena->total += size;
	return c->data + at;
}

void *
util_arena_alloc(struct util_arena *arena, size_t size)
{
	return arena_take(arena, size, alignof(max_align_t));
}

char *
util_arena_strndup(struct util_arena *arena, const char *s, size_t len)
{
	char *p = arena_take(arena, len + 1, 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}
