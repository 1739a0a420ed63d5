/*
 * proto-write: protobuf messages written by hand for the readers' unit
 * tests (pprof's profile.proto, simpleperf's records): a growing buffer
 * and its fields, varints and length-delimited ones.
 */
#ifndef TRACETUI_TESTS_PROTO_WRITE_H
#define TRACETUI_TESTS_PROTO_WRITE_H

#include "util/alloc.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct buf {
	unsigned char *p;
	size_t n, cap;
};

static inline void
put_byte(struct buf *b, unsigned char c)
{
	UTIL_GROW(b->p, b->cap, b->n + 1);
	b->p[b->n++] = c;
}

static inline void
put_varint(struct buf *b, uint64_t v)
{
	while (v >= 0x80) {
		put_byte(b, (unsigned char)(v | 0x80));
		v >>= 7;
	}
	put_byte(b, (unsigned char)v);
}

/* A field's key: its number and wire type. */
static inline void
put_key(struct buf *b, unsigned field, unsigned wire)
{
	put_varint(b, (uint64_t)field << 3 | wire);
}

/* A varint field. */
static inline void
put_int(struct buf *b, unsigned field, int64_t v)
{
	put_key(b, field, 0);
	put_varint(b, (uint64_t)v);
}

/* A length-delimited field of len bytes. */
static inline void
put_bytes(struct buf *b, unsigned field, const void *data, size_t len)
{
	size_t i;

	put_key(b, field, 2);
	put_varint(b, len);
	for (i = 0; i < len; i++)
		put_byte(b, ((const unsigned char *)data)[i]);
}

/* Message m as field `field` of b; m is released. */
static inline void
put_msg(struct buf *b, unsigned field, struct buf *m)
{
	put_bytes(b, field, m->p, m->n);
	free(m->p);
	memset(m, 0, sizeof(*m));
}

#endif
