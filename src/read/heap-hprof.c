/*
 * heap-hprof: the binary HPROF walk.
 *
 * The file: "JAVA PROFILE 1.0.N" and a NUL, a u4 id size, a u8 time;
 * then records, each a u1 tag, a u4 time and a u4 length (big-endian,
 * as everything here).  Records read: STRING 0x01 (id, text), LOAD
 * CLASS 0x02 (serial, class id, stack serial, name id), HEAP DUMP 0x0C
 * and HEAP DUMP SEGMENT 0x1C (sub-records); the rest (stack frames and
 * traces, HEAP DUMP END 0x2C, ...) are stepped over by their length.
 *
 * Sub-records of a heap dump (each a u1 tag):
 *   roots        0xFF unknown, 0x05 sticky class, 0x07 monitor used,
 *                and Android's 0x89 interned string, 0x8A finalizing,
 *                0x8B debugger, 0x8C reference cleanup, 0x8D VM
 *                internal, 0x8F, 0x90 unreachable: an id;
 *                0x01 JNI global: id, id; 0x04 native stack and 0x06
 *                thread block: id, u4; 0x02 JNI local, 0x03 Java frame,
 *                0x08 thread object and Android's 0x8E JNI monitor:
 *                id, u4, u4
 *   0x20 CLASS DUMP   id, u4 stack, super id, loader id, signers,
 *                     protection domain, two reserved ids, u4 instance
 *                     size, u2 constants (u2 index, u1 type, value),
 *                     u2 statics (name id, u1 type, value), u2 instance
 *                     fields (name id, u1 type)
 *   0x21 INSTANCE     id, u4 stack, class id, u4 n, n bytes of fields
 *   0x22 OBJ ARRAY    id, u4 stack, u4 length, class id, length ids
 *   0x23 PRIM ARRAY   id, u4 stack, u4 length, u1 type, the elements
 *   0xC3 NODATA       id, u4 stack, u4 length, u1 type (Android, old)
 *   0xFE HEAP INFO    u4 heap type, name id (Android: the heap of what
 *                     follows; ART writes it again per segment)
 * A record or sub-record that runs past its end, or a sub-record tag or
 * basic type not listed, stops the walk there with the offset.
 */
#include "config.h"

#include "read/heap-hprof.h"

#include <stdio.h>
#include <string.h>

enum { PROGRESS_BYTES = 4 << 20 };

unsigned
heap_type_size(unsigned type, unsigned id_size)
{
	switch (type) {
	case HEAP_T_OBJECT:
		return id_size;
	case HEAP_T_BOOLEAN:
	case HEAP_T_BYTE:
		return 1;
	case HEAP_T_CHAR:
	case HEAP_T_SHORT:
		return 2;
	case HEAP_T_FLOAT:
	case HEAP_T_INT:
		return 4;
	case HEAP_T_DOUBLE:
	case HEAP_T_LONG:
		return 8;
	default:
		return 0;
	}
}

const char *
heap_type_name(unsigned type)
{
	static const char *const names[] = {
	        [HEAP_T_OBJECT] = "java.lang.Object",
	        [HEAP_T_BOOLEAN] = "boolean",
	        [HEAP_T_CHAR] = "char",
	        [HEAP_T_FLOAT] = "float",
	        [HEAP_T_DOUBLE] = "double",
	        [HEAP_T_BYTE] = "byte",
	        [HEAP_T_SHORT] = "short",
	        [HEAP_T_INT] = "int",
	        [HEAP_T_LONG] = "long",
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : NULL;
}

bool
heap_hprof_detect(const unsigned char *buf, size_t len)
{
	static const char magic[] = "JAVA PROFILE 1.0.";
	size_t n = sizeof(magic) - 1, i;
	uint32_t id_size;

	if (len < n + 2 || memcmp(buf, magic, n) != 0)
		return false;
	for (i = n; i < len && i < 24 && buf[i]; i++)
		;
	if (i >= len || buf[i] || len - i - 1 < 4)
		return false;
	id_size = heap_u4(buf + i + 1);
	return id_size == 4 || id_size == 8;
}

/* The walk's place: the bytes, their end, the id size, where progress
 * is next reported. */
struct walk {
	const unsigned char *base, *end;
	unsigned id;
	const struct heap_sink *sink;
	struct trace_error *err;
	uint64_t next_progress;
};

/* Report progress to p, every PROGRESS_BYTES: also inside a heap dump
 * record, which the JVM writes as one of the whole dump. */
static inline void
progress_at(struct walk *w, const unsigned char *p)
{
	uint64_t done = (uint64_t)(p - w->base);

	if (done >= w->next_progress && w->sink->progress) {
		w->sink->progress(w->sink->ctx, done,
		                  (uint64_t)(w->end - w->base));
		w->next_progress = done + PROGRESS_BYTES;
	}
}

/* Whether n bytes remain at p before end; false after saying what
 * was cut there. */
static bool
need(struct walk *w, const unsigned char *p, const unsigned char *end, size_t n,
     const unsigned char *rec, const char *what)
{
	if ((size_t)(end - p) >= n)
		return true;
	trace_error_set(w->err, (uint64_t)(rec - w->base),
	                "%s cut short: %zu bytes needed at offset %llu, %zu "
	                "left",
	                what, n, (unsigned long long)(p - w->base),
	                (size_t)(end - p));
	return false;
}

/* Check one (u1 type, value) at *p, stepping past it. */
static bool
typed_value(struct walk *w, const unsigned char **p, const unsigned char *end,
            const unsigned char *rec)
{
	unsigned size;

	if (!need(w, *p, end, 1, rec, "CLASS DUMP"))
		return false;
	size = heap_type_size(**p, w->id);
	if (!size) {
		trace_error_set(w->err, (uint64_t)(*p - w->base),
		                "unknown basic type %u in a CLASS DUMP", **p);
		return false;
	}
	if (!need(w, *p + 1, end, size, rec, "CLASS DUMP"))
		return false;
	*p += 1 + size;
	return true;
}

/* The size of the CLASS DUMP at rec, checked field by field; 0 after
 * an error. */
static size_t
class_dump_size(struct walk *w, const unsigned char *rec,
                const unsigned char *end)
{
	const unsigned char *p = rec + 1;
	unsigned i, n, id = w->id;

	if (!need(w, p, end, 7 * id + 4 + 4 + 2, rec, "CLASS DUMP"))
		return 0;
	p += 7 * id + 8;
	n = heap_u2(p);
	p += 2;
	for (i = 0; i < n; i++) {
		if (!need(w, p, end, 2, rec, "CLASS DUMP"))
			return 0;
		p += 2;
		if (!typed_value(w, &p, end, rec))
			return 0;
	}
	if (!need(w, p, end, 2, rec, "CLASS DUMP"))
		return 0;
	n = heap_u2(p);
	p += 2;
	for (i = 0; i < n; i++) {
		if (!need(w, p, end, id, rec, "CLASS DUMP"))
			return 0;
		p += id;
		if (!typed_value(w, &p, end, rec))
			return 0;
	}
	if (!need(w, p, end, 2, rec, "CLASS DUMP"))
		return 0;
	n = heap_u2(p);
	p += 2;
	for (i = 0; i < n; i++) {
		if (!need(w, p, end, id + 1, rec, "CLASS DUMP"))
			return 0;
		if (!heap_type_size(p[id], id)) {
			trace_error_set(w->err, (uint64_t)(p + id - w->base),
			                "unknown basic type %u in a CLASS DUMP",
			                p[id]);
			return 0;
		}
		p += id + 1;
	}
	return (size_t)(p - rec);
}

/* The fixed size of a root sub-record after its tag, or 0 if tag is
 * none. */
static size_t
root_size(unsigned tag, unsigned id)
{
	switch (tag) {
	case 0xFF:
	case 0x05:
	case 0x07:
	case 0x89:
	case 0x8A:
	case 0x8B:
	case 0x8C:
	case 0x8D:
	case 0x8F:
	case 0x90:
		return id;
	case 0x01:
		return 2 * (size_t)id;
	case 0x04:
	case 0x06:
		return id + 4;
	case 0x02:
	case 0x03:
	case 0x08:
	case 0x8E:
		return id + 8;
	default:
		return 0;
	}
}

/* Walk the sub-records in [p, end). */
static bool
walk_segment(struct walk *w, const unsigned char *p, const unsigned char *end)
{
	const struct heap_sink *s = w->sink;
	unsigned id = w->id;

	while (p < end) {
		const unsigned char *rec = p;
		unsigned tag = *p;
		size_t size, n;

		if ((size = root_size(tag, id))) {
			if (!need(w, p + 1, end, size, rec, "a GC root"))
				return false;
			if (s->root)
				s->root(s->ctx, tag, heap_id(p + 1, id));
			p += 1 + size;
			continue;
		}
		switch (tag) {
		case HEAP_CLASS_DUMP:
			if (!(size = class_dump_size(w, rec, end)))
				return false;
			break;
		case HEAP_INSTANCE:
			if (!need(w, p + 1, end, 2 * (size_t)id + 8, rec,
			          "INSTANCE DUMP"))
				return false;
			n = heap_u4(p + 1 + 2 * id + 4);
			size = 1 + 2 * (size_t)id + 8;
			if (!need(w, p + size, end, n, rec, "INSTANCE DUMP"))
				return false;
			size += n;
			break;
		case HEAP_OBJECT_ARRAY:
			if (!need(w, p + 1, end, 2 * (size_t)id + 8, rec,
			          "OBJECT ARRAY DUMP"))
				return false;
			n = (size_t)heap_u4(p + 1 + id + 4) * id;
			size = 1 + 2 * (size_t)id + 8;
			if (!need(w, p + size, end, n, rec,
			          "OBJECT ARRAY DUMP"))
				return false;
			size += n;
			break;
		case HEAP_PRIMITIVE_ARRAY:
		case HEAP_PRIMITIVE_NODATA: {
			const char *what = tag == HEAP_PRIMITIVE_ARRAY
			                           ? "PRIMITIVE ARRAY DUMP"
			                           : "PRIMITIVE ARRAY NODATA";
			unsigned esize;

			if (!need(w, p + 1, end, (size_t)id + 9, rec, what))
				return false;
			esize = heap_type_size(p[1 + id + 8], id);
			if (!esize || p[1 + id + 8] == HEAP_T_OBJECT) {
				trace_error_set(
				        w->err,
				        (uint64_t)(p + 1 + id + 8 - w->base),
				        "unknown primitive type %u in a %s",
				        p[1 + id + 8], what);
				return false;
			}
			size = 1 + (size_t)id + 9;
			if (tag == HEAP_PRIMITIVE_ARRAY) {
				n = (size_t)heap_u4(p + 1 + id + 4) * esize;
				if (!need(w, p + size, end, n, rec, what))
					return false;
				size += n;
			}
			break;
		}
		case 0xFE:
			if (!need(w, p + 1, end, 4 + (size_t)id, rec,
			          "HEAP DUMP INFO"))
				return false;
			if (s->heap)
				s->heap(s->ctx, heap_u4(p + 1),
				        heap_id(p + 5, id));
			p += 5 + id;
			continue;
		default:
			trace_error_set(
			        w->err, (uint64_t)(p - w->base),
			        "unknown heap dump sub-record tag 0x%02X", tag);
			return false;
		}
		if (s->object)
			s->object(s->ctx, tag, (uint64_t)(rec - w->base));
		p += size;
		progress_at(w, p);
	}
	return true;
}

bool
heap_hprof_read(const unsigned char *buf, size_t len,
                const struct heap_sink *sink, struct heap_hprof_header *header,
                struct trace_error *err)
{
	struct walk w = {buf, buf + len, 0, sink, err, PROGRESS_BYTES};
	const unsigned char *p;
	size_t i;

	memset(header, 0, sizeof(*header));
	if (!heap_hprof_detect(buf, len)) {
		trace_error_set(
		        err, 0,
		        "expected 'JAVA PROFILE 1.0.N', a NUL and an id "
		        "size of 4 or 8");
		return false;
	}
	for (i = 0; buf[i]; i++)
		;
	snprintf(header->version, sizeof(header->version), "%.*s", (int)i,
	         (const char *)buf);
	w.id = header->id_size = heap_u4(buf + i + 1);
	p = buf + i + 5;
	if (!need(&w, p, w.end, 8, buf, "the header"))
		return false;
	header->time_ms = (uint64_t)heap_u4(p) << 32 | heap_u4(p + 4);
	p += 8;
	while (p < w.end) {
		const unsigned char *rec = p, *body;
		unsigned tag = *p;
		uint32_t rlen;

		if (!need(&w, p, w.end, 9, rec, "a record header"))
			return false;
		rlen = heap_u4(p + 5);
		body = p + 9;
		if ((size_t)(w.end - body) < rlen) {
			trace_error_set(
			        err, (uint64_t)(rec - buf),
			        "record 0x%02X of %u bytes runs past the "
			        "end of the file (%zu bytes left)",
			        tag, rlen, (size_t)(w.end - body));
			/* A cut segment still gives its whole sub-records. */
			if (tag == 0x0C || tag == 0x1C) {
				struct trace_error inner = {0};

				w.err = &inner;
				walk_segment(&w, body, w.end);
				w.err = err;
				trace_error_clear(&inner);
			}
			return false;
		}
		switch (tag) {
		case 0x01:
			if (!need(&w, body, body + rlen, w.id, rec, "STRING"))
				return false;
			if (sink->string)
				sink->string(sink->ctx, heap_id(body, w.id),
				             (uint64_t)(body + w.id - buf),
				             rlen - w.id);
			break;
		case 0x02:
			if (!need(&w, body, body + rlen, 8 + 2 * (size_t)w.id,
			          rec, "LOAD CLASS"))
				return false;
			if (sink->load_class)
				sink->load_class(
				        sink->ctx, heap_id(body + 4, w.id),
				        heap_id(body + 8 + w.id, w.id));
			break;
		case 0x0C:
		case 0x1C:
			if (!walk_segment(&w, body, body + rlen))
				return false;
			break;
		default:
			break;
		}
		p = body + rlen;
		progress_at(&w, p);
	}
	return true;
}

void
heap_class_dump_decode(const unsigned char *rec, unsigned id,
                       struct heap_class_dump *out)
{
	const unsigned char *p = rec + 1;
	unsigned i, n;

	out->id = heap_id(p, id);
	out->super_id = heap_id(p + id + 4, id);
	out->loader_id = heap_id(p + 2 * id + 4, id);
	p += 7 * id + 4;
	out->instance_size = heap_u4(p);
	p += 4;
	n = heap_u2(p);
	p += 2;
	for (i = 0; i < n; i++)
		p += 3 + heap_type_size(p[2], id);
	out->nstatics = heap_u2(p);
	p += 2;
	out->statics = p;
	out->statics_size = 0;
	for (i = 0; i < out->nstatics; i++) {
		out->statics_size += heap_type_size(p[id], id);
		p = heap_static_next(p, id);
	}
	out->nfields = heap_u2(p);
	out->fields = p + 2;
}

const unsigned char *
heap_static_next(const unsigned char *p, unsigned id)
{
	return p + id + 1 + heap_type_size(p[id], id);
}
