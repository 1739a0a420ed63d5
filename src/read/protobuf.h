/*
 * protobuf: the protocol buffers wire format, read field by field.
 *
 * A message is a run of fields, each a key (field number and wire type,
 * a varint) and a value: a varint, 8 or 4 fixed bytes, or a length and
 * that many bytes (a string, a nested message or a packed array).  The
 * reader never reads outside the bytes it is given and knows nothing of
 * any schema; read/pprof.c gives the fields their meaning.
 */
#ifndef TRACETUI_PROTOBUF_H
#define TRACETUI_PROTOBUF_H

#include "read/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pb_wire {
	PB_VARINT = 0,
	PB_FIXED64 = 1,
	PB_BYTES = 2, /* length-delimited */
	PB_FIXED32 = 5,
};

/* A message being read: bytes [p, end); offset is p's in the file. */
struct pb_reader {
	const unsigned char *p, *end;
	uint64_t offset;
};

/* One field as read. */
struct pb_field {
	uint32_t number;
	enum pb_wire wire;
	uint64_t value;            /* varint and fixed fields */
	const unsigned char *data; /* PB_BYTES: the bytes */
	size_t len;
	uint64_t offset;      /* of the field's key in the file */
	uint64_t data_offset; /* PB_BYTES: of data in the file */
};

/* A reader over the len bytes at data, which start at file offset off. */
void pb_reader_init(struct pb_reader *r, const unsigned char *data, size_t len,
                    uint64_t off);
/* A reader over the bytes of length-delimited field f. */
void pb_reader_sub(struct pb_reader *r, const struct pb_field *f);
/* True when r has no bytes left. */
bool pb_done(const struct pb_reader *r);
/*
 * Read the next field of r into f.  False at the end of r (err untouched)
 * or, with err set (offset and problem), when the bytes are not a field.
 */
bool pb_next(struct pb_reader *r, struct pb_field *f, struct trace_error *err);
/*
 * The next varint of a packed array read through packed (which
 * pb_reader_sub started on its field).  False at the end, or with err set
 * when the bytes are not a varint.
 */
bool pb_packed_next(struct pb_reader *packed, uint64_t *v,
                    struct trace_error *err);

#endif
