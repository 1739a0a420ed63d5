/*
 * hash: FNV-1a over bytes, the one string hash of the program (mapping
 * tables, hprof frames).  Chain calls to hash several fields.
 */
#ifndef TRACETUI_HASH_H
#define TRACETUI_HASH_H

#include <stddef.h>
#include <stdint.h>

/* The starting value of a hash. */
#define HASH_SEED UINT64_C(0xcbf29ce484222325)

/* h updated with one byte. */
static inline uint64_t
hash_byte(uint64_t h, unsigned char c)
{
	return (h ^ c) * UINT64_C(0x100000001b3);
}

/* h updated with the n bytes at s. */
static inline uint64_t
hash_bytes(uint64_t h, const void *s, size_t n)
{
	const unsigned char *p = s;
	size_t i;

	for (i = 0; i < n; i++)
		h = hash_byte(h, p[i]);
	return h;
}

#endif
