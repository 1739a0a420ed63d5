/*
 * arena: a bump allocator for data that lives as long as a trace.
 *
 * Memory comes in large chunks and is released all at once by
 * util_arena_done; pointers handed out stay valid until then.
 */
#ifndef TRACETUI_UTIL_ARENA_H
#define TRACETUI_UTIL_ARENA_H

#include <stddef.h>

struct util_arena_chunk;

struct util_arena {
	struct util_arena_chunk *head;
	size_t used;  /* bytes used in head */
	size_t total; /* bytes handed out, for statistics */
};

/* An empty arena. */
void util_arena_init(struct util_arena *arena);
/* Release every chunk. */
void util_arena_done(struct util_arena *arena);
/* size bytes aligned for any object, valid until util_arena_done. */
void *util_arena_alloc(struct util_arena *arena, size_t size);
/* NUL-terminated copy of the len bytes at s. */
char *util_arena_strndup(struct util_arena *arena, const char *s, size_t len);

#endif
