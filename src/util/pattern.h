/*
 * pattern: regcomp behind limits.  glibc's regcomp recurses once per
 * level of parentheses and per node of some of its walks, and its time
 * and memory grow with the square of a pattern's length and with the
 * product of nested repetition counts: 20,000 nested '(' overflowed the
 * stack (a crash, the viewer's terminal left raw), "(a{0,1000}){0,1000}"
 * took 6.8 GB, "a{0,9999}" 790 MB (the squares of runs of optional
 * parts, util/pattern.c).  Every regex the program compiles goes through here,
 * and what these limits refuse gets a reason instead.
 */
#ifndef TRACETUI_PATTERN_H
#define TRACETUI_PATTERN_H

#include <regex.h>
#include <stddef.h>

enum {
	PATTERN_MAX_DEPTH = 100,      /* levels of parentheses */
	PATTERN_MAX_LENGTH = 4096,    /* bytes: about 0.25 s at worst */
	PATTERN_MAX_SIZE = 100000,    /* atoms once repetitions expand */
	PATTERN_MAX_BYTES = 64 << 20, /* regcomp's memory, estimated */
};

/* Why pattern is refused before regcomp sees it (a constant string), or
 * NULL when it is within the limits. */
const char *pattern_refusal(const char *pattern);

/* regcomp(re, pattern, flags) for a pattern within the limits: 0, or
 * nonzero with the reason in why[0..size) (and nothing to regfree). */
int pattern_compile(regex_t *re, const char *pattern, int flags, char *why,
                    size_t size);

#endif
