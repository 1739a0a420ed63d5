/*
 * pprof: a profile.proto message read as a sampled trace of one sample
 * type.
 *
 * What the file holds (github.com/google/pprof, proto/profile.proto; only
 * the fields below are read, others are skipped as protobuf allows):
 *   Profile   1 sample_type (ValueType)   2 sample    3 mapping
 *             4 location    5 function    6 string_table
 *             7 drop_frames 11 period_type 12 period  13 comment
 *             14 default_sample_type (string indexes)
 *   ValueType 1 type  2 unit                   (string indexes)
 *   Sample    1 location_id (leaf first)  2 value (one per sample type)
 *   Mapping   1 id  5 filename
 *   Location  1 id  2 mapping_id  3 address  4 line (innermost first)
 *   Line      1 function_id  2 line
 *   Function  1 id  2 name  3 system_name  4 filename  5 start_line
 *
 * How it maps onto the model (PRODUCT.md 2), as pprof's own report
 * groups frames by default:
 *   - one sample type at a time: its values are the times of the wall
 *     clock, in its unit (the header's unit: bytes, nanoseconds or a
 *     count); sink->sample_type picks it by name or index, else the
 *     profile's default_sample_type, else the last type (as pprof);
 *   - one method per function name; each Line of a location is a frame
 *     of its own, so inlined functions show; a location without lines is
 *     named by its address ("0x42ed43") with its mapping's file as the
 *     method's file; a function without a name takes its system name;
 *   - every sample is a stack on one thread "pprof", laid end to end with
 *     the others by read/stacks.c: a method's exclusive time is pprof's
 *     flat value, its inclusive time pprof's cum; samples worth 0 are
 *     kept (their functions show with zeros), negative values count as 0
 *     with a warning;
 *   - the header says sampled; properties name every sample type, the
 *     chosen one ("pprof-sample-type-index": "I of N", I counted from 1
 *     as info shows it, which the viewer cycles), the period and the
 *     comments.
 * The whole message is read first (strings, functions and locations may
 * come in any order); then the sink gets the properties, the thread, the
 * methods, begin, and the events.
 *
 * Invariants: every loop is bounded by the input (fields read from it);
 * a sample keeps its locations, not their lines (a location is shared by
 * every sample that names it, read/stacks.h), so what the samples take
 * is what they take in the file; a stack is at most STACK_DEPTH_MAX
 * lines deep, and the calls the stacks make (their lines not shared with
 * the stack before, once sorted) at most CALLS_PER_BYTE per byte of the
 * profile as read, or CALLS_MIN, so a small file cannot ask for
 * unbounded memory (a location of 1,000 lines named 30,000 times is 137
 * bytes gzipped); string, function, location and mapping references are
 * checked before use.
 */
#include "config.h"

#include "read/pprof.h"

#include "read/bytes.h"
#include "read/protobuf.h"
#include "read/stacks.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "util/hash.h"
#include "util/map.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	NONE = UINT32_MAX,
	PPROF_TID = 1,
	/* Locations of all samples together: 128 MiB of indexes. */
	MAX_FRAMES = 1 << 25,
	PROGRESS_BYTES = 1 << 20, /* read between reports of progress */
};

/* The lines of one sample's stack at most, and the calls of all the
 * stacks together: CALLS_PER_BYTE per byte of the profile (after gzip),
 * but CALLS_MIN for any profile. */
#define STACK_DEPTH_MAX ((size_t)1 << 16)
#define CALLS_PER_BYTE ((size_t)4)
#define CALLS_MIN ((size_t)1 << 20)

/* No single value above this, so sums of them never wrap. */
#define VALUE_MAX (UINT64_C(1) << 53)

struct pp_string {
	const char *p;
	size_t len;
};

struct pp_type {
	uint64_t type, unit; /* string indexes */
	uint64_t offset;
};

/* A field's bytes, read later. */
struct pp_slice {
	const unsigned char *data;
	size_t len;
	uint64_t offset; /* of data */
};

struct pp_function {
	uint64_t id;
	uint64_t name, system_name, filename; /* string indexes */
	int64_t start_line;
	uint64_t offset;
	uint32_t method; /* NONE until a line uses it */
};

struct pp_mapping {
	uint64_t id;
	uint64_t filename;
};

struct pp_location {
	size_t first, n; /* loc_frames[first, + n): methods, root first */
};

struct pp_method {
	const char *name;
	size_t len;
	const char *file; /* NULL for none */
	long line;        /* smallest line seen, -1 for none */
	uint32_t next;    /* next method with the same hash, or NONE */
};

struct pprof {
	const struct trace_sink *sink;
	struct trace_error *err;
	struct util_arena arena;

	struct pp_string *strings;
	size_t nstrings, strings_cap;
	struct pp_type *types;
	size_t ntypes, types_cap;
	struct pp_slice *samples, *locations;
	size_t nsamples, samples_cap, nlocations, locations_cap;
	struct pp_function *functions;
	size_t nfunctions, functions_cap;
	struct pp_mapping *mappings;
	size_t nmappings, mappings_cap;
	uint64_t *comments;
	size_t ncomments, comments_cap;
	struct pp_type period_type;
	bool has_period_type;
	uint64_t period, drop_frames, default_type;

	struct util_map function_ids; /* id -> functions[] */
	struct util_map mapping_ids;  /* id -> mappings[] */
	struct util_map location_ids; /* id -> locs[] */
	struct pp_location *locs;
	uint32_t *loc_frames;
	size_t nloc_frames, loc_frames_cap;

	struct pp_method *methods;
	size_t nmethods, methods_cap;
	struct util_map method_hash; /* hash of the name -> first method */

	uint32_t *frames; /* every sample's locations (parts), root first */
	size_t nframes, frames_cap;
	uint32_t no_location; /* the part of "(no location)", or NONE */
	size_t *part_first;   /* per part, its first in loc_frames */
	struct trace_stack_parts parts;
	struct trace_stack *stacks;
	size_t nstacks;
	size_t calls;           /* the stacks', sorted (trace_stacks_sort) */
	uint64_t next_progress; /* the offset of the next report */
	uint64_t negatives;     /* values below 0, counted as 0 */
	uint64_t negative_offset;
};

/* Field f must have wire type w; false with the error set if not. */
static bool
wire_is(struct pprof *pp, const struct pb_field *f, enum pb_wire w,
        const char *message)
{
	static const char *const names[] = {
	        "a varint", "8 bytes", "a length-delimited value",
	        "",         "",        "4 bytes"};

	if (f->wire == w)
		return true;
	trace_error_set(pp->err, f->offset,
	                "pprof: field %u of a %s should be %s (wire type %d), "
	                "found wire type %d",
	                f->number, message, names[w], (int)w, (int)f->wire);
	return false;
}

/* String i of the table; false with the error set if there is none. */
static bool
string_at(struct pprof *pp, uint64_t i, uint64_t offset, struct pp_string *out)
{
	if (i >= pp->nstrings) {
		trace_error_set(pp->err, offset,
		                "pprof: string index %" PRIu64
		                " is past the string table's %zu strings",
		                i, pp->nstrings);
		return false;
	}
	*out = pp->strings[i];
	return true;
}

/* A NUL-terminated copy of string i in the arena, or NULL (error set). */
static const char *
keep_string(struct pprof *pp, uint64_t i, uint64_t offset)
{
	struct pp_string s;

	if (!string_at(pp, i, offset, &s))
		return NULL;
	return util_arena_strndup(&pp->arena, s.p, s.len);
}

/* A ValueType: type and unit. */
static bool
read_value_type(struct pprof *pp, const struct pb_field *outer,
                struct pp_type *t)
{
	struct pb_reader r;
	struct pb_field f;

	memset(t, 0, sizeof(*t));
	t->offset = outer->offset;
	pb_reader_sub(&r, outer);
	while (pb_next(&r, &f, pp->err)) {
		if (f.number != 1 && f.number != 2)
			continue;
		if (!wire_is(pp, &f, PB_VARINT, "ValueType"))
			return false;
		if (f.number == 1)
			t->type = f.value;
		else
			t->unit = f.value;
	}
	return !trace_error_isset(pp->err);
}

static bool
read_function(struct pprof *pp, const struct pb_field *outer)
{
	struct pb_reader r;
	struct pb_field f;
	struct pp_function *fn;

	UTIL_GROW(pp->functions, pp->functions_cap, pp->nfunctions + 1);
	fn = &pp->functions[pp->nfunctions++];
	memset(fn, 0, sizeof(*fn));
	fn->offset = outer->offset;
	fn->method = NONE;
	pb_reader_sub(&r, outer);
	while (pb_next(&r, &f, pp->err)) {
		if (f.number < 1 || f.number > 5)
			continue;
		if (!wire_is(pp, &f, PB_VARINT, "Function"))
			return false;
		switch (f.number) {
		case 1:
			fn->id = f.value;
			break;
		case 2:
			fn->name = f.value;
			break;
		case 3:
			fn->system_name = f.value;
			break;
		case 4:
			fn->filename = f.value;
			break;
		case 5:
			fn->start_line = (int64_t)f.value;
			break;
		}
	}
	return !trace_error_isset(pp->err);
}

static bool
read_mapping(struct pprof *pp, const struct pb_field *outer)
{
	struct pb_reader r;
	struct pb_field f;
	struct pp_mapping *m;

	UTIL_GROW(pp->mappings, pp->mappings_cap, pp->nmappings + 1);
	m = &pp->mappings[pp->nmappings++];
	memset(m, 0, sizeof(*m));
	pb_reader_sub(&r, outer);
	while (pb_next(&r, &f, pp->err)) {
		if (f.number != 1 && f.number != 5)
			continue;
		if (!wire_is(pp, &f, PB_VARINT, "Mapping"))
			return false;
		if (f.number == 1)
			m->id = f.value;
		else
			m->filename = f.value;
	}
	if (trace_error_isset(pp->err))
		return false;
	if (m->id)
		util_map_put(&pp->mapping_ids, m->id,
		             (uint32_t)(pp->nmappings - 1));
	return true;
}

static void
keep_slice(struct pp_slice **v, size_t *n, size_t *cap,
           const struct pb_field *f)
{
	UTIL_GROW(*v, *cap, *n + 1);
	(*v)[*n].data = f->data;
	(*v)[*n].len = f->len;
	(*v)[*n].offset = f->data_offset;
	(*n)++;
}

/* The integers of a repeated integer field, packed or not, appended to
 * *v; false with the error set. */
static bool
read_ints(struct pprof *pp, const struct pb_field *f, uint64_t **v, size_t *n,
          size_t *cap)
{
	struct pb_reader r;
	uint64_t x;

	if (f->wire == PB_VARINT) {
		UTIL_GROW(*v, *cap, *n + 1);
		(*v)[(*n)++] = f->value;
		return true;
	}
	if (f->wire != PB_BYTES) {
		trace_error_set(pp->err, f->offset,
		                "pprof: field %u should hold integers, found "
		                "wire type %d",
		                f->number, (int)f->wire);
		return false;
	}
	pb_reader_sub(&r, f);
	while (pb_packed_next(&r, &x, pp->err)) {
		UTIL_GROW(*v, *cap, *n + 1);
		(*v)[(*n)++] = x;
	}
	return !trace_error_isset(pp->err);
}

/* The wire type each Profile field has, -1 for a field not read. */
static int
profile_wire(uint32_t number)
{
	switch (number) {
	case 1:
	case 2:
	case 3:
	case 4:
	case 5:
	case 6:
	case 11:
		return PB_BYTES;
	case 7:
	case 8:
	case 9:
	case 10:
	case 12:
	case 14:
	case 15:
		return PB_VARINT;
	case 13:
		return -2; /* packed or not */
	default:
		return -1;
	}
}

/* Tell the sink how far the reading is, every PROGRESS_BYTES: the
 * fields count for the first half, the samples, read again after them,
 * for the second. */
static void
progress(struct pprof *pp, uint64_t at, uint64_t len)
{
	if (at < pp->next_progress || !pp->sink->progress)
		return;
	pp->sink->progress(pp->sink->ctx, at, len);
	pp->next_progress = at + PROGRESS_BYTES;
}

/* The top-level fields, in one pass. */
static bool
read_profile(struct pprof *pp, const unsigned char *buf, size_t len)
{
	struct pb_reader r;
	struct pb_field f;
	struct pp_type t;

	pb_reader_init(&r, buf, len, 0);
	while (pb_next(&r, &f, pp->err)) {
		int w = profile_wire(f.number);

		progress(pp, f.offset / 2, len);
		if (w >= 0 && !wire_is(pp, &f, (enum pb_wire)w, "Profile"))
			return false;
		switch (f.number) {
		case 1:
			if (!read_value_type(pp, &f, &t))
				return false;
			UTIL_GROW(pp->types, pp->types_cap, pp->ntypes + 1);
			pp->types[pp->ntypes++] = t;
			break;
		case 2:
			keep_slice(&pp->samples, &pp->nsamples,
			           &pp->samples_cap, &f);
			break;
		case 3:
			if (!read_mapping(pp, &f))
				return false;
			break;
		case 4:
			keep_slice(&pp->locations, &pp->nlocations,
			           &pp->locations_cap, &f);
			break;
		case 5:
			if (!read_function(pp, &f))
				return false;
			break;
		case 6:
			UTIL_GROW(pp->strings, pp->strings_cap,
			          pp->nstrings + 1);
			pp->strings[pp->nstrings].p = (const char *)f.data;
			pp->strings[pp->nstrings].len = f.len;
			pp->nstrings++;
			break;
		case 7:
			pp->drop_frames = f.value;
			break;
		case 11:
			if (!read_value_type(pp, &f, &pp->period_type))
				return false;
			pp->has_period_type = true;
			break;
		case 12:
			pp->period = f.value;
			break;
		case 13:
			if (!read_ints(pp, &f, &pp->comments, &pp->ncomments,
			               &pp->comments_cap))
				return false;
			break;
		case 14:
			pp->default_type = f.value;
			break;
		}
	}
	if (trace_error_isset(pp->err))
		return false;
	if (!pp->nstrings || pp->strings[0].len) {
		trace_error_set(pp->err, 0,
		                "pprof: expected a string table starting with "
		                "\"\" (field 6), found %s",
		                pp->nstrings ? "a non-empty first string"
		                             : "no string table");
		return false;
	}
	return true;
}

/* The index of the method named name, made on first sight (kept with
 * a NUL as C0 80, trace_name_dup). */
static uint32_t
intern_method(struct pprof *pp, const char *name, size_t len)
{
	uint32_t *head, i, found = NONE;
	struct pp_method *m;
	char *enc = NULL;

	if (memchr(name, 0, len)) {
		enc = trace_name_dup(name, len);
		name = enc;
		len = strlen(enc);
	}
	head = util_map_slot(&pp->method_hash, hash_bytes(HASH_SEED, name, len),
	                     NONE);
	for (i = *head; i != NONE && found == NONE; i = pp->methods[i].next) {
		m = &pp->methods[i];
		if (m->len == len && memcmp(m->name, name, len) == 0)
			found = i;
	}
	if (found == NONE) {
		UTIL_GROW(pp->methods, pp->methods_cap, pp->nmethods + 1);
		m = &pp->methods[pp->nmethods];
		m->name = util_arena_strndup(&pp->arena, name, len);
		m->len = len;
		m->file = NULL;
		m->line = -1;
		m->next = *head;
		*head = found = (uint32_t)pp->nmethods++;
	}
	free(enc);
	return found;
}

/* The method of a location without lines: its address. */
static uint32_t
address_method(struct pprof *pp, uint64_t address, uint64_t mapping_id,
               uint64_t offset)
{
	char name[32];
	uint32_t m, mi;

	snprintf(name, sizeof(name), "0x%" PRIx64, address);
	m = intern_method(pp, name, strlen(name));
	if (!pp->methods[m].file && mapping_id &&
	    util_map_get(&pp->mapping_ids, mapping_id, &mi)) {
		const char *file =
		        keep_string(pp, pp->mappings[mi].filename, offset);

		if (!file)
			return NONE;
		if (*file)
			pp->methods[m].file = file;
	}
	return m;
}

/* The method of function index fi, whose name is looked up once. */
static uint32_t
function_method(struct pprof *pp, uint32_t fi, uint64_t address)
{
	struct pp_function *fn = &pp->functions[fi];
	struct pp_string name;
	const char *file;
	uint32_t m;
	char buf[32];

	if (fn->method != NONE)
		return fn->method;
	if (!string_at(pp, fn->name, fn->offset, &name))
		return NONE;
	if (!name.len && !string_at(pp, fn->system_name, fn->offset, &name))
		return NONE;
	if (!name.len) {
		snprintf(buf, sizeof(buf), "0x%" PRIx64, address);
		name.p = buf;
		name.len = strlen(buf);
	}
	m = intern_method(pp, name.p, name.len);
	file = keep_string(pp, fn->filename, fn->offset);
	if (!file)
		return NONE;
	if (*file && !pp->methods[m].file)
		pp->methods[m].file = file;
	if (fn->start_line > 0 && fn->start_line <= LONG_MAX / 2 &&
	    (pp->methods[m].line < 0 || fn->start_line < pp->methods[m].line))
		pp->methods[m].line = (long)fn->start_line;
	/* A name made of the address stays per location. */
	if (buf != name.p)
		fn->method = m;
	return m;
}

/* One Line: the frame of its function. */
static bool
read_line(struct pprof *pp, const struct pb_field *outer, uint64_t address,
          uint64_t loc_id)
{
	struct pb_reader r;
	struct pb_field f;
	uint64_t function_id = 0;
	uint32_t fi, m;

	pb_reader_sub(&r, outer);
	while (pb_next(&r, &f, pp->err)) {
		if (f.number > 3)
			continue;
		if (!wire_is(pp, &f, PB_VARINT, "Line"))
			return false;
		if (f.number == 1)
			function_id = f.value;
	}
	if (trace_error_isset(pp->err))
		return false;
	if (!util_map_get(&pp->function_ids, function_id, &fi)) {
		trace_error_set(pp->err, outer->offset,
		                "pprof: location %" PRIu64
		                " has a line of function %" PRIu64
		                ", which the profile does not define",
		                loc_id, function_id);
		return false;
	}
	m = function_method(pp, fi, address);
	if (m == NONE)
		return false;
	UTIL_GROW(pp->loc_frames, pp->loc_frames_cap, pp->nloc_frames + 1);
	pp->loc_frames[pp->nloc_frames++] = m;
	return true;
}

static bool
read_location(struct pprof *pp, size_t li)
{
	const struct pp_slice *s = &pp->locations[li];
	struct pb_reader r;
	struct pb_field f;
	uint64_t id = 0, mapping_id = 0, address = 0;
	size_t first = pp->nloc_frames;
	uint32_t *slot;
	uint32_t m;

	/* The id and address first: lines are named with them. */
	pb_reader_init(&r, s->data, s->len, s->offset);
	while (pb_next(&r, &f, pp->err)) {
		if (f.number > 5 || f.number == 4)
			continue;
		if (!wire_is(pp, &f, PB_VARINT, "Location"))
			return false;
		if (f.number == 1)
			id = f.value;
		else if (f.number == 2)
			mapping_id = f.value;
		else if (f.number == 3)
			address = f.value;
	}
	if (trace_error_isset(pp->err))
		return false;
	if (!id) {
		trace_error_set(pp->err, s->offset,
		                "pprof: a location without an id (0 is "
		                "reserved)");
		return false;
	}
	pb_reader_init(&r, s->data, s->len, s->offset);
	while (pb_next(&r, &f, pp->err)) {
		if (f.number != 4)
			continue;
		if (!wire_is(pp, &f, PB_BYTES, "Location") ||
		    !read_line(pp, &f, address, id))
			return false;
	}
	if (trace_error_isset(pp->err))
		return false;
	if (pp->nloc_frames == first) {
		m = address_method(pp, address, mapping_id, s->offset);
		if (m == NONE)
			return false;
		UTIL_GROW(pp->loc_frames, pp->loc_frames_cap,
		          pp->nloc_frames + 1);
		pp->loc_frames[pp->nloc_frames++] = m;
	}
	pp->locs[li].first = first;
	pp->locs[li].n = pp->nloc_frames - first;
	/* Innermost first as read: turn them root first. */
	for (m = 0; m < pp->locs[li].n / 2; m++) {
		uint32_t t = pp->loc_frames[first + m];

		pp->loc_frames[first + m] =
		        pp->loc_frames[pp->nloc_frames - 1 - m];
		pp->loc_frames[pp->nloc_frames - 1 - m] = t;
	}
	slot = util_map_slot(&pp->location_ids, id, (uint32_t)li);
	if (*slot != li)
		trace_warn(pp->sink, s->offset,
		           "pprof: location %" PRIu64
		           " is defined twice; the first definition is kept",
		           id);
	return true;
}

/* Functions by id, then every location's frames. */
static bool
index_profile(struct pprof *pp)
{
	size_t i;

	for (i = 0; i < pp->nfunctions; i++) {
		uint32_t *slot = util_map_slot(
		        &pp->function_ids, pp->functions[i].id, (uint32_t)i);

		if (*slot != i)
			trace_warn(pp->sink, pp->functions[i].offset,
			           "pprof: function %" PRIu64
			           " is defined twice; the first definition "
			           "is kept",
			           pp->functions[i].id);
	}
	pp->locs = xcalloc(pp->nlocations + 1, sizeof(*pp->locs));
	for (i = 0; i < pp->nlocations; i++)
		if (!read_location(pp, i))
			return false;
	return true;
}

/* The index of the sample type `want` (name or index), or -1 with the
 * error set. */
static long
choose_type(struct pprof *pp, const char *want)
{
	struct pp_string s;
	char *list, *end;
	size_t i, len = 0;
	unsigned long n;

	if (!pp->ntypes) {
		trace_error_set(pp->err, 0,
		                "pprof: the profile declares no sample type "
		                "(field 1)");
		return -1;
	}
	for (i = 0; i < pp->ntypes; i++)
		if (!string_at(pp, pp->types[i].type, pp->types[i].offset,
		               &s) ||
		    !string_at(pp, pp->types[i].unit, pp->types[i].offset, &s))
			return -1;
	if (!want) {
		if (pp->default_type) {
			if (!string_at(pp, pp->default_type, 0, &s))
				return -1;
			for (i = 0; i < pp->ntypes; i++)
				if (pp->types[i].type == pp->default_type ||
				    (pp->strings[pp->types[i].type].len ==
				             s.len &&
				     memcmp(pp->strings[pp->types[i].type].p,
				            s.p, s.len) == 0))
					return (long)i;
		}
		return (long)pp->ntypes - 1;
	}
	for (i = 0; i < pp->ntypes; i++) {
		s = pp->strings[pp->types[i].type];
		if (s.len == strlen(want) && memcmp(s.p, want, s.len) == 0)
			return (long)i;
	}
	n = strtoul(want, &end, 10);
	if (*want >= '0' && *want <= '9' && !*end && n < pp->ntypes)
		return (long)n;
	for (i = 0; i < pp->ntypes; i++)
		len += pp->strings[pp->types[i].type].len + 2;
	list = xcalloc(len + 1, 1);
	for (i = 0; i < pp->ntypes; i++) {
		s = pp->strings[pp->types[i].type];
		if (i)
			strcat(list, ", ");
		strncat(list, s.p, s.len);
	}
	if (!trace_error_isset(pp->err))
		pp->err->usage = true; /* the option's fault, not the file's */
	trace_error_set(pp->err, 0,
	                "pprof: no sample type '%s'; the profile has %s (or "
	                "an index from 0 to %zu)",
	                want, list, pp->ntypes - 1);
	free(list);
	return -1;
}

/* Sample i's frames (root first) and its value of type k. */
static bool
read_sample(struct pprof *pp, size_t i, size_t k)
{
	const struct pp_slice *s = &pp->samples[i];
	struct pb_reader r;
	struct pb_field f;
	uint64_t *ids = NULL, *values = NULL;
	size_t nids = 0, ids_cap = 0, nvalues = 0, values_cap = 0, j;
	size_t depth = 0;
	size_t first = pp->nframes;
	int64_t v;
	bool ok = false;

	pb_reader_init(&r, s->data, s->len, s->offset);
	while (pb_next(&r, &f, pp->err)) {
		if (f.number == 1 && !read_ints(pp, &f, &ids, &nids, &ids_cap))
			goto out;
		if (f.number == 2 &&
		    !read_ints(pp, &f, &values, &nvalues, &values_cap))
			goto out;
	}
	if (trace_error_isset(pp->err))
		goto out;
	if (nvalues != pp->ntypes) {
		trace_error_set(pp->err, s->offset,
		                "pprof: a sample has %zu values, but the "
		                "profile has %zu sample types",
		                nvalues, pp->ntypes);
		goto out;
	}
	for (j = 0; j < nids; j++) {
		uint32_t li;

		if (!util_map_get(&pp->location_ids, ids[j], &li)) {
			trace_error_set(pp->err, s->offset,
			                "pprof: a sample refers to location "
			                "%" PRIu64 ", which the profile does "
			                "not define",
			                ids[j]);
			goto out;
		}
		depth += pp->locs[li].n;
		if (depth > STACK_DEPTH_MAX) {
			trace_error_set(pp->err, s->offset,
			                "pprof: a sample's stack is more than "
			                "%zu lines deep (its locations' lines "
			                "added up)",
			                STACK_DEPTH_MAX);
			goto out;
		}
		if (pp->nframes >= MAX_FRAMES) {
			trace_error_set(pp->err, s->offset,
			                "pprof: the samples' stacks name more "
			                "than %d locations",
			                MAX_FRAMES);
			goto out;
		}
		/* The location, not a copy of its lines. */
		UTIL_GROW(pp->frames, pp->frames_cap, pp->nframes + 1);
		pp->frames[pp->nframes++] = li;
	}
	if (pp->nframes == first) {
		if (pp->no_location == NONE) {
			uint32_t m = intern_method(pp, "(no location)", 13);

			UTIL_GROW(pp->loc_frames, pp->loc_frames_cap,
			          pp->nloc_frames + 1);
			pp->loc_frames[pp->nloc_frames++] = m;
			pp->no_location = (uint32_t)pp->nlocations;
		}
		UTIL_GROW(pp->frames, pp->frames_cap, pp->nframes + 1);
		pp->frames[pp->nframes++] = pp->no_location;
	}
	/* Leaf first as read: turn the stack root first. */
	for (j = 0; j < (pp->nframes - first) / 2; j++) {
		uint32_t t = pp->frames[first + j];

		pp->frames[first + j] = pp->frames[pp->nframes - 1 - j];
		pp->frames[pp->nframes - 1 - j] = t;
	}
	v = (int64_t)values[k];
	if (v < 0) {
		if (!pp->negatives++)
			pp->negative_offset = s->offset;
		v = 0;
	}
	pp->stacks[pp->nstacks].tid = PPROF_TID;
	/* Frames are pointed to once all samples are read. */
	pp->stacks[pp->nstacks].frames = NULL;
	pp->stacks[pp->nstacks].parts = &pp->parts;
	pp->stacks[pp->nstacks].n = pp->nframes - first;
	pp->stacks[pp->nstacks].weight =
	        (uint64_t)v > VALUE_MAX ? VALUE_MAX : (uint64_t)v;
	pp->stacks[pp->nstacks].order = first;
	pp->nstacks++;
	ok = true;
out:
	free(ids);
	free(values);
	return ok;
}

/* The samples' stacks over the locations' lines, sorted: false (the
 * error set) when they would make more calls than a profile of len bytes
 * may. */
static bool
lay_out(struct pprof *pp, size_t len)
{
	size_t nparts = pp->nlocations + (pp->no_location != NONE), i;
	size_t most = len > CALLS_MIN / CALLS_PER_BYTE ? len * CALLS_PER_BYTE
	                                               : CALLS_MIN;

	pp->part_first = xcalloc(nparts + 1, sizeof(*pp->part_first));
	for (i = 0; i < pp->nlocations; i++)
		pp->part_first[i] = pp->locs[i].first;
	if (pp->no_location != NONE)
		pp->part_first[pp->nlocations] = pp->nloc_frames - 1;
	pp->part_first[nparts] = pp->nloc_frames;
	pp->parts.methods = pp->loc_frames;
	pp->parts.first = pp->part_first;
	for (i = 0; i < pp->nstacks; i++)
		pp->stacks[i].frames = pp->frames + pp->stacks[i].order;
	pp->calls = trace_stacks_sort(pp->stacks, pp->nstacks);
	if (pp->calls <= most)
		return true;
	trace_error_set(pp->err, pp->nsamples ? pp->samples[0].offset : 0,
	                "pprof: the samples' stacks make more than %zu calls "
	                "(their locations' lines, %zu per byte of the "
	                "profile): too many for its size",
	                most, CALLS_PER_BYTE);
	return false;
}

static void
property(struct pprof *pp, const char *key, const char *value)
{
	if (pp->sink->property)
		pp->sink->property(pp->sink->ctx, key, value);
}

static enum trace_unit
unit_of(struct pp_string u)
{
	if (u.len == 5 && memcmp(u.p, "bytes", 5) == 0)
		return TRACE_UNIT_BYTES;
	if (u.len == 11 && memcmp(u.p, "nanoseconds", 11) == 0)
		return TRACE_UNIT_NS;
	if (u.len == 12 && memcmp(u.p, "microseconds", 12) == 0)
		return TRACE_UNIT_US;
	return TRACE_UNIT_COUNT;
}

/* "type/unit" of t, in a new string. */
static char *
type_text(const struct pprof *pp, const struct pp_type *t)
{
	struct pp_string a = pp->strings[t->type], b = pp->strings[t->unit];

	return xasprintf("%.*s/%.*s", (int)a.len, a.p, (int)b.len, b.p);
}

static void
emit(struct pprof *pp, size_t k, uint64_t len)
{
	const struct trace_sink *s = pp->sink;
	struct trace_header hd = {0};
	struct pp_string type = pp->strings[pp->types[k].type];
	char *text, *all = xstrdup("");
	size_t i;
	uint64_t total = 0;

	for (i = 0; i < pp->ntypes; i++) {
		char *t = type_text(pp, &pp->types[i]);
		char *joined = xasprintf("%s%s%s", all, i ? ", " : "", t);

		free(all);
		free(t);
		all = joined;
	}
	property(pp, "pprof-sample-types", all);
	free(all);
	text = type_text(pp, &pp->types[k]);
	property(pp, "pprof-sample-type", text);
	free(text);
	text = xasprintf("%zu of %zu", k + 1, pp->ntypes);
	property(pp, "pprof-sample-type-index", text);
	free(text);
	text = xasprintf("wall clock field: 1 us = 1 %.*s of %.*s",
	                 (int)pp->strings[pp->types[k].unit].len,
	                 pp->strings[pp->types[k].unit].p, (int)type.len,
	                 type.p);
	property(pp, "pprof-unit", text);
	free(text);
	if (pp->has_period_type && pp->period_type.type < pp->nstrings &&
	    pp->period_type.unit < pp->nstrings) {
		char *t = type_text(pp, &pp->period_type);

		text = xasprintf("%" PRIu64 " %s", pp->period, t);
		property(pp, "pprof-period", text);
		free(text);
		free(t);
	}
	for (i = 0; i < pp->ncomments; i++)
		if (pp->comments[i] < pp->nstrings) {
			struct pp_string c = pp->strings[pp->comments[i]];

			text = xstrndup(c.p, c.len);
			property(pp, "pprof-comment", text);
			free(text);
		}
	if (pp->drop_frames && pp->drop_frames < pp->nstrings) {
		struct pp_string d = pp->strings[pp->drop_frames];

		text = xstrndup(d.p, d.len);
		property(pp, "pprof-drop-frames", text);
		free(text);
	}
	text = xasprintf("%zu", pp->nsamples);
	property(pp, "pprof-samples", text);
	free(text);
	if (pp->negatives)
		trace_warn(s, pp->negative_offset,
		           "pprof: %" PRIu64 " negative %.*s values counted "
		           "as 0",
		           pp->negatives, (int)type.len, type.p);
	for (i = 0; i < pp->nstacks; i++)
		total += pp->stacks[i].weight;
	if (s->thread)
		s->thread(s->ctx, PPROF_TID, "pprof");
	for (i = 0; s->method && i < pp->nmethods; i++) {
		struct trace_method_def def;

		def.id = trace_stack_method_id((uint32_t)i);
		def.klass = "";
		def.name = pp->methods[i].name;
		def.signature = "";
		def.file = pp->methods[i].file;
		def.line = pp->methods[i].line;
		s->method(s->ctx, &def);
	}
	hd.format = TRACE_FORMAT_PPROF;
	hd.version = 1;
	hd.clock = TRACE_CLOCK_WALL;
	hd.time_bits = 64;
	hd.expected_records = pp->calls * 2;
	hd.sampled = 1;
	hd.unit = unit_of(pp->strings[pp->types[k].unit]);
	if (s->begin)
		s->begin(s->ctx, &hd);
	(void)total;
	trace_stacks_emit(pp->stacks, pp->nstacks, TRACE_CLOCK_WALL, s);
	if (s->progress)
		s->progress(s->ctx, len, len);
}

/* The bytes trace_pprof_could_start looks at: a pipe's peek. */
enum { PPROF_PEEK = 32 };

/* Whether field tag t is a Profile field of its wire type (every one
 * has a number below 16: a one-byte tag). */
static bool
profile_tag(unsigned char t)
{
	int w;

	if (t >= 0x80)
		return false;
	w = profile_wire(t >> 3);
	return (w >= 0 && (t & 7) == w) ||
	       (w == -2 && ((t & 7) == PB_VARINT || (t & 7) == PB_BYTES));
}

bool
trace_pprof_could_start(const unsigned char *buf, size_t len)
{
	size_t i = 0, fields = 0;

	/* The fields in the first PPROF_PEEK bytes, as far as they go: a
	 * text or a binary file of another kind fails within a few. */
	if (len > PPROF_PEEK)
		len = PPROF_PEEK;
	while (i < len) {
		uint64_t n = 0;
		unsigned shift = 0;
		unsigned char tag = buf[i++];

		if (!profile_tag(tag))
			return fields >= 4; /* as trace_pprof_detect */
		fields++;
		/* A varint, or a length and that many bytes. */
		do {
			if (i >= len)
				return true;
			if (shift < 64)
				n |= (uint64_t)(buf[i] & 0x7F) << shift;
			shift += 7;
		} while (buf[i++] & 0x80 && shift < 70);
		if (shift >= 70)
			return false; /* a varint of over ten bytes */
		if ((tag & 7) == PB_BYTES) {
			if (n >= len - i)
				return true;
			i += (size_t)n;
		}
	}
	return fields > 0;
}

/* Past the first field, a Profile field of the right wire type. */
bool
trace_pprof_detect(const unsigned char *buf, size_t len)
{
	struct pb_reader r;
	struct pb_field f;
	struct trace_error err = {0};
	int fields = 0;

	pb_reader_init(&r, buf, len, 0);
	while (fields < 64 && pb_next(&r, &f, &err)) {
		int w = profile_wire(f.number);

		if (w == -1 || (w >= 0 && f.wire != (enum pb_wire)w) ||
		    (w == -2 && f.wire != PB_VARINT && f.wire != PB_BYTES))
			break;
		fields++;
	}
	trace_error_clear(&err);
	/* A whole message of profile fields, or a long start of one (the
	 * reader then says where it goes wrong). */
	return fields >= 4 || (fields > 0 && pb_done(&r));
}

bool
trace_pprof_read(const unsigned char *buf, size_t len,
                 const struct trace_sink *sink, struct trace_error *err)
{
	struct pprof pp;
	long k = -1;
	size_t i;
	bool ok = false;

	memset(&pp, 0, sizeof(pp));
	pp.no_location = NONE;
	pp.sink = sink;
	pp.err = err;
	util_arena_init(&pp.arena);
	util_map_init(&pp.function_ids);
	util_map_init(&pp.mapping_ids);
	util_map_init(&pp.location_ids);
	util_map_init(&pp.method_hash);
	if (!read_profile(&pp, buf, len) ||
	    (k = choose_type(&pp, sink->sample_type)) < 0 ||
	    !index_profile(&pp))
		goto out;
	pp.stacks = xcalloc(pp.nsamples + 1, sizeof(*pp.stacks));
	for (i = 0; i < pp.nsamples; i++) {
		progress(&pp, len / 2 + pp.samples[i].offset / 2, len);
		if (!read_sample(&pp, i, (size_t)k))
			goto out;
	}
	if (!lay_out(&pp, len))
		goto out;
	emit(&pp, (size_t)k, len);
	ok = true;
out:
	free(pp.strings);
	free(pp.types);
	free(pp.samples);
	free(pp.locations);
	free(pp.functions);
	free(pp.mappings);
	free(pp.comments);
	free(pp.locs);
	free(pp.loc_frames);
	free(pp.methods);
	free(pp.frames);
	free(pp.part_first);
	free(pp.stacks);
	util_map_done(&pp.function_ids);
	util_map_done(&pp.mapping_ids);
	util_map_done(&pp.location_ids);
	util_map_done(&pp.method_hash);
	util_arena_done(&pp.arena);
	return ok;
}
