/*
 * rng.h: a splitmix64 generator for the randomized unit tests, so a
 * failing seed replays exactly on every machine.
 */
#ifndef TRACETUI_TESTS_RNG_H
#define TRACETUI_TESTS_RNG_H

#include <stdint.h>

static uint64_t rng_state;

/* The next 64 random bits. */
static inline uint64_t
rng(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* A number in [0, n), or 0 when n is 0. */
static inline uint64_t
below(uint64_t n)
{
	return n ? rng() % n : 0;
}

#endif
