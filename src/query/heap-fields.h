/*
 * heap-fields: what one object of a heap dump holds, as the viewer
 * lists it: an instance's fields (its class's, then each superclass's),
 * an array's elements, a class object's statics; each with
 * its value and, for a reference, the object it names.
 */
#ifndef TRACETUI_QUERY_HEAP_FIELDS_H
#define TRACETUI_QUERY_HEAP_FIELDS_H

#include "model/heap.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most elements of a primitive array listed. */
#define HEAP_FIELDS_MAX_ELEMENTS 100000

struct heap_field_row {
	char *name;       /* "count", "[3]"; the dump's, unescaped */
	const char *type; /* "int", "object" for a reference */
	char value[40];   /* "12", "true", "null", "0x12c4a0" */
	uint32_t object;  /* the object a reference names, or HEAP_NONE */
};

struct heap_fields {
	struct heap_field_row *rows;
	size_t n;
	size_t elements; /* an array's length (only the first
	                    HEAP_FIELDS_MAX_ELEMENTS of a primitive one are
	                    rows) */
};

/* What object i holds, into f. */
void heap_fields_of(struct heap_fields *f, const struct heap_dump *d,
                    uint32_t i);
/* Release f. */
void heap_fields_done(struct heap_fields *f);

/* The text a java.lang.String instance i holds (its value array, from
 * its offset for its count where it has them), or a char[] or byte[]
 * array i, as UTF-8 into buf, ending in "..." when cut at size; false
 * for other objects. */
bool heap_text_of(const struct heap_dump *d, uint32_t i, char *buf,
                  size_t size);

#endif
