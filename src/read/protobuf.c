/*
 * protobuf: varints of at most ten bytes, lengths checked against what is
 * left before anything is read, groups (wire types 3 and 4, deprecated
 * and absent from profile.proto) refused.
 */
#include "config.h"

#include "read/protobuf.h"

#include "read/bytes.h"

void
pb_reader_init(struct pb_reader *r, const unsigned char *data, size_t len,
               uint64_t off)
{
	r->p = data;
	r->end = data + len;
	r->offset = off;
}

void
pb_reader_sub(struct pb_reader *r, const struct pb_field *f)
{
	pb_reader_init(r, f->data, f->len, f->data_offset);
}

bool
pb_done(const struct pb_reader *r)
{
	return r->p >= r->end;
}

/* A varint at r; false when it is cut or longer than ten bytes. */
static bool
varint(struct pb_reader *r, uint64_t *v, struct trace_error *err)
{
	const unsigned char *start = r->p;
	uint64_t x = 0;
	unsigned shift = 0;

	while (r->p < r->end) {
		unsigned char b = *r->p++;

		if (shift == 63 && b > 1) {
			trace_error_set(err, r->offset,
			                "protobuf: a varint does not fit in 64 "
			                "bits");
			return false;
		}
		x |= (uint64_t)(b & 0x7F) << shift;
		if (!(b & 0x80)) {
			r->offset += (uint64_t)(r->p - start);
			*v = x;
			return true;
		}
		shift += 7;
		if (shift > 63) {
			trace_error_set(err, r->offset,
			                "protobuf: a varint longer than ten "
			                "bytes");
			return false;
		}
	}
	trace_error_set(err, r->offset,
	                "protobuf: a varint cut off by the end of its "
	                "message");
	return false;
}

bool
pb_next(struct pb_reader *r, struct pb_field *f, struct trace_error *err)
{
	uint64_t key, len;
	size_t left;

	if (pb_done(r))
		return false;
	f->offset = r->offset;
	f->data = NULL;
	f->len = 0;
	f->value = 0;
	f->data_offset = 0;
	if (!varint(r, &key, err))
		return false;
	if (key >> 3 == 0 || key >> 3 > 536870911) {
		trace_error_set(err, f->offset,
		                "protobuf: field number %llu is not valid",
		                (unsigned long long)(key >> 3));
		return false;
	}
	f->number = (uint32_t)(key >> 3);
	f->wire = (enum pb_wire)(key & 7);
	left = (size_t)(r->end - r->p);
	switch (key & 7) {
	case PB_VARINT:
		return varint(r, &f->value, err);
	case PB_FIXED64:
	case PB_FIXED32: {
		size_t n = (key & 7) == PB_FIXED64 ? 8 : 4;

		if (left < n) {
			trace_error_set(err, r->offset,
			                "protobuf: field %u needs %zu bytes, "
			                "%zu are left in its message",
			                f->number, n, left);
			return false;
		}
		f->value = n == 8 ? trace_u8(r->p) : trace_u4(r->p);
		r->p += n;
		r->offset += n;
		return true;
	}
	case PB_BYTES:
		if (!varint(r, &len, err))
			return false;
		left = (size_t)(r->end - r->p);
		if (len > left) {
			trace_error_set(
			        err, r->offset,
			        "protobuf: field %u is %llu bytes long, "
			        "but only %zu are left in its message",
			        f->number, (unsigned long long)len, left);
			return false;
		}
		f->data = r->p;
		f->len = (size_t)len;
		f->data_offset = r->offset;
		r->p += len;
		r->offset += len;
		return true;
	default:
		trace_error_set(err, f->offset,
		                "protobuf: wire type %u of field %u is not "
		                "supported (groups, or not protobuf)",
		                (unsigned)(key & 7), f->number);
		return false;
	}
}

bool
pb_packed_next(struct pb_reader *packed, uint64_t *v, struct trace_error *err)
{
	if (pb_done(packed))
		return false;
	return varint(packed, v, err);
}
