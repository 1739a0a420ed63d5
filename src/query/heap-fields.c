/*
 * heap-fields: an instance's field bytes are its class's fields first,
 * then its superclass's, each class's at the offsets its CLASS DUMP
 * declares (model/heap.c lays them out); the reader checked every
 * record's bounds, and a field that would reach past its instance's
 * bytes is left out.
 */
#include "config.h"

#include "query/heap-fields.h"

#include "util/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The big-endian value of size bytes at p. */
static uint64_t
value_at(const unsigned char *p, unsigned size)
{
	uint64_t v = 0;
	unsigned b;

	for (b = 0; b < size; b++)
		v = v << 8 | p[b];
	return v;
}

/* Value v of basic type `type` as Java would write it, into row. */
static void
put_value(struct heap_field_row *row, const struct heap_dump *d, unsigned type,
          uint64_t v)
{
	char *out = row->value;
	size_t size = sizeof(row->value);
	union {
		uint32_t u;
		float f;
	} f32;
	union {
		uint64_t u;
		double f;
	} f64;

	row->object = HEAP_NONE;
	switch (type) {
	case HEAP_T_OBJECT:
		if (!v) {
			snprintf(out, size, "null");
			break;
		}
		row->object = heap_find(d, v);
		snprintf(out, size, "0x%llx", (unsigned long long)v);
		break;
	case HEAP_T_BOOLEAN:
		snprintf(out, size, "%s", v ? "true" : "false");
		break;
	case HEAP_T_CHAR:
		if (v >= 0x20 && v < 0x7f && v != '\'' && v != '\\')
			snprintf(out, size, "'%c'", (char)v);
		else
			snprintf(out, size, "'\\u%04x'", (unsigned)v);
		break;
	case HEAP_T_FLOAT:
		f32.u = (uint32_t)v;
		snprintf(out, size, "%g", (double)f32.f);
		break;
	case HEAP_T_DOUBLE:
		f64.u = v;
		snprintf(out, size, "%g", f64.f);
		break;
	case HEAP_T_BYTE:
		snprintf(out, size, "%d", (int)(int8_t)v);
		break;
	case HEAP_T_SHORT:
		snprintf(out, size, "%d", (int)(int16_t)v);
		break;
	case HEAP_T_INT:
		snprintf(out, size, "%d", (int)(int32_t)v);
		break;
	case HEAP_T_LONG:
		snprintf(out, size, "%lld", (long long)(int64_t)v);
		break;
	default:
		snprintf(out, size, "?");
		break;
	}
}

static struct heap_field_row *
add(struct heap_fields *f, size_t *cap, char *name, unsigned type)
{
	struct heap_field_row *r;
	const char *t = type == HEAP_T_OBJECT ? "object" : heap_type_name(type);

	UTIL_GROW(f->rows, *cap, f->n + 1);
	r = &f->rows[f->n++];
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->type = t ? t : "?";
	r->object = HEAP_NONE;
	return r;
}

static void
instance_fields(struct heap_fields *f, size_t *cap, const struct heap_dump *d,
                uint32_t i)
{
	const unsigned char *rec = heap_record(d, i);
	unsigned id = d->header.id_size;
	uint32_t n = heap_u4(rec + 1 + 2 * id + 4), chain, depth = 0, base = 0;
	const unsigned char *data = rec + 1 + 2 * id + 8;
	uint32_t k;

	for (chain = d->klass[i];
	     chain != HEAP_NONE && depth++ <= d->nclasses && base < n;
	     chain = d->classes[chain].super) {
		const struct heap_class *s = &d->classes[chain];

		for (k = 0; k < s->nfields; k++) {
			const struct heap_field_desc *fd = &s->fields[k];
			unsigned size = heap_type_size(fd->type, id);

			if (!size || (uint64_t)base + fd->offset + size > n)
				continue;
			put_value(add(f, cap, xstrdup(fd->name), fd->type), d,
			          fd->type,
			          value_at(data + base + fd->offset, size));
		}
		base += s->fields_size;
	}
}

static void
array_elements(struct heap_fields *f, size_t *cap, const struct heap_dump *d,
               uint32_t i)
{
	const unsigned char *rec = heap_record(d, i);
	unsigned id = d->header.id_size, type, size;
	uint32_t n = heap_array_length(d, i), k;
	const unsigned char *p;

	f->elements = n;
	if (*rec == HEAP_OBJECT_ARRAY) {
		type = HEAP_T_OBJECT;
		p = rec + 1 + 2 * id + 8;
	} else if (*rec == HEAP_PRIMITIVE_ARRAY) {
		type = rec[1 + id + 8];
		p = rec + 1 + id + 9;
		if (n > HEAP_FIELDS_MAX_ELEMENTS)
			n = HEAP_FIELDS_MAX_ELEMENTS;
	} else {
		return; /* no data */
	}
	size = heap_type_size(type, id);
	if (!size)
		return;
	for (k = 0; k < n; k++)
		put_value(add(f, cap, xasprintf("[%u]", k), type), d, type,
		          value_at(p + (size_t)k * size, size));
}

static void
class_statics(struct heap_fields *f, size_t *cap, const struct heap_dump *d,
              uint32_t i)
{
	uint32_t c = heap_class_of_object(d, i), k;
	unsigned id = d->header.id_size;
	const struct heap_class *s;

	if (c == HEAP_NONE || !d->classes[c].dump)
		return;
	s = &d->classes[c];
	for (k = 0; k < s->nstatics; k++) {
		const struct heap_field_desc *fd = &s->statics[k];
		unsigned size = heap_type_size(fd->type, id);

		if (!size)
			continue;
		put_value(add(f, cap, xstrdup(fd->name), fd->type), d, fd->type,
		          value_at(s->dump + fd->offset, size));
	}
}

void
heap_fields_of(struct heap_fields *f, const struct heap_dump *d, uint32_t i)
{
	size_t cap = 0;

	memset(f, 0, sizeof(*f));
	switch (heap_tag(d, i)) {
	case HEAP_INSTANCE:
		instance_fields(f, &cap, d, i);
		break;
	case HEAP_OBJECT_ARRAY:
	case HEAP_PRIMITIVE_ARRAY:
	case HEAP_PRIMITIVE_NODATA:
		array_elements(f, &cap, d, i);
		break;
	case HEAP_CLASS_DUMP:
		class_statics(f, &cap, d, i);
		break;
	default:
		break;
	}
}

void
heap_fields_done(struct heap_fields *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->rows[i].name);
	free(f->rows);
	memset(f, 0, sizeof(*f));
}

/* Put code unit u into buf at *at as UTF-8 (a lone surrogate as '?');
 * false when it does not fit before end. */
static bool
put_utf8(char *buf, size_t *at, size_t end, unsigned u)
{
	char out[3];
	size_t n = 0;

	if (u >= 0xd800 && u < 0xe000)
		u = '?';
	if (u < 0x80) {
		out[n++] = (char)u;
	} else if (u < 0x800) {
		out[n++] = (char)(0xc0 | u >> 6);
		out[n++] = (char)(0x80 | (u & 0x3f));
	} else {
		out[n++] = (char)(0xe0 | u >> 12);
		out[n++] = (char)(0x80 | (u >> 6 & 0x3f));
		out[n++] = (char)(0x80 | (u & 0x3f));
	}
	if (*at + n > end)
		return false;
	memcpy(buf + *at, out, n);
	*at += n;
	return true;
}

bool
heap_text_of(const struct heap_dump *d, uint32_t i, char *buf, size_t size)
{
	uint32_t a = i, from = 0, count = UINT32_MAX, len, k;
	unsigned type, esize;
	uint64_t v;
	const unsigned char *rec, *p;
	size_t at = 0;

	if (size < 8)
		return false;
	if (heap_tag(d, i) == HEAP_INSTANCE) {
		if (strcmp(d->classes[d->klass[i]].dump_name,
		           "java.lang.String") != 0 ||
		    !heap_field(d, i, "value", &type, &v) ||
		    type != HEAP_T_OBJECT || (a = heap_find(d, v)) == HEAP_NONE)
			return false;
		if (heap_field(d, i, "offset", &type, &v) && type == HEAP_T_INT)
			from = (uint32_t)v;
		if (heap_field(d, i, "count", &type, &v) && type == HEAP_T_INT)
			count = (uint32_t)v;
	}
	if (heap_tag(d, a) != HEAP_PRIMITIVE_ARRAY)
		return false;
	rec = heap_record(d, a);
	type = rec[1 + d->header.id_size + 8];
	if (type != HEAP_T_CHAR && type != HEAP_T_BYTE)
		return false;
	esize = type == HEAP_T_CHAR ? 2 : 1;
	len = heap_array_length(d, a);
	p = rec + 1 + d->header.id_size + 9;
	if (from > len)
		from = len;
	if (count > len - from)
		count = len - from;
	for (k = 0; k < count; k++) {
		unsigned u = esize == 2 ? heap_u2(p + (size_t)(from + k) * 2)
		                        : p[from + k];

		if (!put_utf8(buf, &at, size - 4, u)) {
			memcpy(buf + at, "...", 3);
			at += 3;
			break;
		}
	}
	buf[at] = '\0';
	return true;
}
