/*
 * heap-hprof: Java heap dumps in binary HPROF ("JAVA PROFILE 1.0.1",
 * 1.0.2 and Android's 1.0.3), id size 4 or 8, walked record by record
 * into a heap sink; read/heap-hprof.c lists the records it knows.
 *
 * The walk checks that every record lies inside the bytes and that its
 * fields' types are known, so that the decoders below, used afterwards
 * on the records the sink was shown, never read past them.
 */
#ifndef TRACETUI_READ_HEAP_HPROF_H
#define TRACETUI_READ_HEAP_HPROF_H

#include "read/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Heap dump sub-records that are objects. */
enum heap_record {
	HEAP_CLASS_DUMP = 0x20,
	HEAP_INSTANCE = 0x21,
	HEAP_OBJECT_ARRAY = 0x22,
	HEAP_PRIMITIVE_ARRAY = 0x23,
	HEAP_PRIMITIVE_NODATA = 0xC3, /* Android's obsolete array, no data */
};

/* HPROF basic types. */
enum heap_type {
	HEAP_T_OBJECT = 2,
	HEAP_T_BOOLEAN = 4,
	HEAP_T_CHAR = 5,
	HEAP_T_FLOAT = 6,
	HEAP_T_DOUBLE = 7,
	HEAP_T_BYTE = 8,
	HEAP_T_SHORT = 9,
	HEAP_T_INT = 10,
	HEAP_T_LONG = 11,
};

struct heap_sink {
	void *ctx;
	/* STRING: its text is len bytes at offset. */
	void (*string)(void *ctx, uint64_t id, uint64_t offset, uint32_t len);
	/* LOAD CLASS: the class object's id and its name's string id. */
	void (*load_class)(void *ctx, uint64_t class_id, uint64_t name_id);
	/* Android's HEAP DUMP INFO: the objects that follow are in the
	 * heap named by string name_id. */
	void (*heap)(void *ctx, uint32_t type, uint64_t name_id);
	/* A GC root record of sub-record type `type` for object id. */
	void (*root)(void *ctx, unsigned type, uint64_t id);
	/* An object's sub-record (enum heap_record) at offset, its tag. */
	void (*object)(void *ctx, unsigned tag, uint64_t offset);
	/* done of total bytes walked. */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
};

struct heap_hprof_header {
	char version[24]; /* "JAVA PROFILE 1.0.3" */
	unsigned id_size; /* 4 or 8 */
	uint64_t time_ms; /* the dump's time, ms since the epoch */
};

/* True when buf begins a binary HPROF heap dump (the version string,
 * its NUL and an id size of 4 or 8). */
bool heap_hprof_detect(const unsigned char *buf, size_t len);

/*
 * Walk the dump in buf, showing sink its records.  False with err set
 * (the offset and the problem) where the walk stopped early: a cut or
 * damaged dump; what came before was shown and stays good.
 */
bool heap_hprof_read(const unsigned char *buf, size_t len,
                     const struct heap_sink *sink,
                     struct heap_hprof_header *header, struct trace_error *err);

/* A basic type's size in bytes (an object's is id_size); 0 if unknown. */
unsigned heap_type_size(unsigned type, unsigned id_size);
/* A basic type's Java name ("int"), or NULL if unknown. */
const char *heap_type_name(unsigned type);

/* A big-endian value at p. */
static inline uint32_t
heap_u4(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline uint16_t
heap_u2(const unsigned char *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* An id of id_size bytes at p. */
static inline uint64_t
heap_id(const unsigned char *p, unsigned id_size)
{
	return id_size == 4 ? heap_u4(p)
	                    : (uint64_t)heap_u4(p) << 32 | heap_u4(p + 4);
}

/* A walked CLASS DUMP decoded: where its parts begin. */
struct heap_class_dump {
	uint64_t id, super_id, loader_id;
	uint32_t instance_size;
	const unsigned char *statics; /* the first static field */
	unsigned nstatics;
	const unsigned char *fields; /* the first instance field descriptor */
	unsigned nfields;
	uint64_t statics_size; /* the static values' bytes (objects id_size) */
};

/* Decode the walked CLASS DUMP at rec (its tag byte). */
void heap_class_dump_decode(const unsigned char *rec, unsigned id_size,
                            struct heap_class_dump *out);
/* Step over one static field (name id, type, value) at p. */
const unsigned char *heap_static_next(const unsigned char *p, unsigned id_size);

#endif
