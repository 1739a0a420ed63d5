/*
 * hash: FNV-1a over bytes, the one string hash of the program (mapping
 * tables, hprof frames).  Chain calls to hash several fields.  And
 * hash_block, eight bytes a step, for long keys hashed once per record
 * (simpleperf's callchains), where a byte loop would cost the reading.
 */
#ifndef TRACETUI_HASH_H
#define TRACETUI_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* A hash of the n bytes at s, read eight at a time in two lanes (not
 * hash_bytes' values; the same bytes always give the same hash). */
static inline uint64_t
hash_block(const void *s, size_t n)
{
	const unsigned char *p = s;
	const uint64_t k = UINT64_C(0x9E3779B97F4A7C15);
	uint64_t a = HASH_SEED ^ n, b = k, w, v;

	for (; n >= 16; p += 16, n -= 16) {
		memcpy(&w, p, 8);
		memcpy(&v, p + 8, 8);
		a = (a ^ w) * k;
		b = (b ^ v) * k;
		a ^= a >> 29;
		b ^= b >> 31;
	}
	w = v = 0;
	if (n > 8) {
		memcpy(&w, p, 8);
		memcpy(&v, p + 8, n - 8);
	} else if (n) {
		memcpy(&w, p, n);
	}
	a = (a ^ w) * k;
	b = (b ^ v) * k;
	a ^= b >> 27 ^ a >> 33;
	return a * UINT64_C(0x100000001b3) ^ b;
}

#endif
