/*
 * bytes: little-endian field access and warnings shared by readers.
 */
#ifndef TRACETUI_TRACE_UTIL_H
#define TRACETUI_TRACE_UTIL_H

#include "read/sink.h"
#include "util/arena.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline uint16_t
trace_u2(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t
trace_u4(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t
trace_u8(const unsigned char *p)
{
	return (uint64_t)trace_u4(p) | (uint64_t)trace_u4(p + 4) << 32;
}

/* Tell the kernel that the whole pages of the read-only file mapping
 * [from, to) will not be read again, so they leave the process's memory
 * (the page cache keeps them).  Never call it on memory that is not such
 * a mapping. */
void trace_release_mapped(const unsigned char *from, const unsigned char *to);

/* Read bytes [at, at + n) of the file fd into to; false when it gives
 * fewer (it shrank) or fails. */
bool trace_read_at(int fd, unsigned char *to, size_t n, uint64_t at);

/*
 * A copy of the name s[0, n) as a C string (free it), each NUL in it
 * written as the two bytes C0 80, as the JVM's modified UTF-8 writes it:
 * no name is cut at a NUL, names that differ after one stay apart, and
 * every text door shows it as \x00 (text/width.h).  The same in arena
 * (trace_name_keep), and its length (trace_name_len).
 */
char *trace_name_dup(const char *s, size_t n);
const char *trace_name_keep(struct util_arena *arena, const char *s, size_t n);
size_t trace_name_len(const char *s, size_t n);

/* Format a warning and hand it to the sink, if it listens. */
void trace_warn(const struct trace_sink *sink, uint64_t offset, const char *fmt,
                ...) __attribute__((format(printf, 3, 4)));

#endif
