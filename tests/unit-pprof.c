/*
 * unit-pprof: the protobuf decoder and the pprof reader on profiles
 * encoded by hand here (an encoder of a few lines, independent of the
 * reader), with every number worked out by hand in the comments: inlined
 * lines, a location without lines, recursion, packed and unpacked
 * fields, values of 0 and below 0, the choice of sample type; then bad
 * messages, each refused with its offset and problem.
 *
 * With --write DIR it writes the profile into DIR as pprof-heap.pb
 * instead (tests/fuzz-corpus has it), and as pprof-heap-grown.pb the same
 * with S4 grown to (5, 1054): alloc's flat space 1154, 1024 more, its
 * flat objects 6 (tests/pprof.sh diffs the two).  With --write-hostile
 * FILE TEXT it writes a profile whose sample type and function names
 * hold TEXT (tests/escape.sh).
 */
#include "config.h"

#include "model/calltree.h"
#include "query/method-name.h"
#include "query/profile.h"
#include "read/load.h"
#include "read/pprof.h"
#include "read/protobuf.h"
#include "proto-write.h"
#include "tap.h"
#include "text/width.h"
#include "util/alloc.h"

#include <stdlib.h>

static void
put_string(struct buf *b, const char *s)
{
	put_bytes(b, 6, s, strlen(s));
}

/* Packed integers as field `field`. */
static void
put_packed(struct buf *b, unsigned field, const int64_t *v, size_t n)
{
	struct buf m = {0};
	size_t i;

	for (i = 0; i < n; i++)
		put_varint(&m, (uint64_t)v[i]);
	put_msg(b, field, &m);
}

static void
put_value_type(struct buf *b, unsigned field, int64_t type, int64_t unit)
{
	struct buf m = {0};

	put_int(&m, 1, type);
	put_int(&m, 2, unit);
	put_msg(b, field, &m);
}

static void
put_function(struct buf *b, int64_t id, int64_t name, int64_t file,
             int64_t start_line)
{
	struct buf m = {0};

	put_int(&m, 1, id);
	put_int(&m, 2, name);
	put_int(&m, 4, file);
	if (start_line)
		put_int(&m, 5, start_line);
	put_msg(b, 5, &m);
}

/* A location with lines of the functions fns[0..n) (innermost first). */
static void
put_location(struct buf *b, int64_t id, int64_t mapping, int64_t address,
             const int64_t *fns, size_t n)
{
	struct buf m = {0}, line = {0};
	size_t i;

	put_int(&m, 1, id);
	if (mapping)
		put_int(&m, 2, mapping);
	if (address)
		put_int(&m, 3, address);
	for (i = 0; i < n; i++) {
		put_int(&line, 1, fns[i]);
		put_int(&line, 2, 10 + (int64_t)i);
		put_msg(&m, 4, &line);
	}
	put_msg(b, 4, &m);
}

/* A sample: location ids leaf first, packed or not, and its values. */
static void
put_sample(struct buf *b, const int64_t *locs, size_t nlocs, bool packed,
           const int64_t *values, size_t nvalues)
{
	struct buf m = {0};
	size_t i;

	if (packed)
		put_packed(&m, 1, locs, nlocs);
	else
		for (i = 0; i < nlocs; i++)
			put_int(&m, 1, locs[i]);
	put_packed(&m, 2, values, nvalues);
	put_msg(b, 2, &m);
}

enum {
	S_EMPTY,
	S_OBJECTS,
	S_COUNT,
	S_SPACE,
	S_BYTES,
	S_MAIN,
	S_ALLOC,
	S_INL,
	S_REC,
	S_LIBC,
	S_MAIN_C,
};

static const char *const strings[] = {
        "",      "objects", "count", "space",   "bytes",  "main",
        "alloc", "inl",     "rec",   "libc.so", "main.c",
};

/*
 * The profile every good test reads.  Stacks, root first, with
 * (objects, space):
 *   S1  main;inl;alloc           (1, 100)  location 2 holds alloc inlined
 *                                           into inl
 *   S2  main;rec;rec;0x1234      (2, 50)   location 3 has no line
 *   S3  main;rec                 (0, 0)
 *   S4  main;inl;alloc           (3, 30)   S1's stack again
 *   S5  main                     (-1, -5)  below 0: counted as 0
 * space:   flat alloc 130, 0x1234 50, others 0; cum main 180, inl 130,
 *          alloc 130, rec 50 (recursion once), 0x1234 50; total 180.
 * objects: flat alloc 4, 0x1234 2; cum main 6, inl 4, alloc 4, rec 2.
 * The strings come last, as nothing requires them first.
 */
static struct buf
good_profile(bool grown)
{
	static const int64_t l_alloc[] = {2, 3}, l_main[] = {1}, l_rec[] = {4};
	static const int64_t s1[] = {2, 1}, s2[] = {3, 4, 4, 1}, s3[] = {4, 1},
	                     s5[] = {1};
	static const int64_t v1[] = {1, 100}, v2[] = {2, 50}, v3[] = {0, 0},
	                     v4[] = {3, 30}, v4_grown[] = {5, 1054},
	                     v5[] = {-1, -5};
	struct buf b = {0}, m = {0};
	size_t i;

	put_value_type(&b, 1, S_OBJECTS, S_COUNT);
	put_value_type(&b, 1, S_SPACE, S_BYTES);
	put_sample(&b, s1, 2, true, v1, 2);
	put_sample(&b, s2, 4, false, v2, 2);
	put_sample(&b, s3, 2, true, v3, 2);
	put_sample(&b, s1, 2, false, grown ? v4_grown : v4, 2);
	put_sample(&b, s5, 1, true, v5, 2);
	put_int(&m, 1, 1);
	put_int(&m, 5, S_LIBC);
	put_msg(&b, 3, &m);
	put_location(&b, 1, 0, 0x100, l_main, 1);
	put_location(&b, 2, 0, 0x200, l_alloc, 2);
	put_location(&b, 3, 1, 0x1234, NULL, 0);
	put_location(&b, 4, 0, 0x400, l_rec, 1);
	put_function(&b, 1, S_MAIN, S_MAIN_C, 3);
	put_function(&b, 2, S_ALLOC, S_MAIN_C, 0);
	put_function(&b, 3, S_INL, S_MAIN_C, 0);
	put_function(&b, 4, S_REC, S_EMPTY, 0);
	put_value_type(&b, 11, S_SPACE, S_BYTES);
	put_int(&b, 12, 524288);
	for (i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
		put_string(&b, strings[i]);
	return b;
}

static struct calltree *
load(const struct buf *b, const char *type, struct trace_error *err)
{
	struct calltree_builder *builder = calltree_builder_new("test.pb");
	struct trace_sink sink = *calltree_builder_sink(builder);

	sink.sample_type = type;
	if (!trace_load_bytes(b->p, b->n, &sink, err)) {
		calltree_builder_free(builder);
		return NULL;
	}
	return calltree_builder_finish(builder);
}

static long
method_named(const struct calltree *tree, const char *name)
{
	size_t i;

	for (i = 0; i < tree->nmethods; i++) {
		char *full = method_full_name(&tree->methods[i]);
		bool same = strcmp(full, name) == 0;

		free(full);
		if (same)
			return (long)i;
	}
	return -1;
}

/* Method name's exclusive and inclusive values in p, or ~0. */
static void
numbers(const struct calltree *tree, const struct profile *p, const char *name,
        uint64_t *excl, uint64_t *incl)
{
	long m = method_named(tree, name);

	*excl = *incl = UINT64_MAX;
	if (m < 0 || !profile_row_used(p, (size_t)m))
		return;
	*excl = p->rows[m].excl[CLOCK_WALL];
	*incl = p->rows[m].incl[CLOCK_WALL];
}

struct expect {
	const char *name;
	uint64_t excl, incl;
};

static void
check_type(const struct buf *b, const char *type, const char *label,
           const struct expect *want, size_t n, uint64_t total,
           enum trace_unit unit)
{
	struct trace_error err = {0};
	struct calltree *tree = load(b, type, &err);
	struct profile p = {0};
	struct scope scope;
	uint64_t sum = 0;
	size_t i, used = 0;

	if (!ok(tree != NULL, "%s: the profile loads", label)) {
		printf("#   %s\n", err.message);
		trace_error_clear(&err);
		return;
	}
	is_u64(tree->header.format, TRACE_FORMAT_PPROF, "%s: format pprof",
	       label);
	is_u64(tree->header.unit, unit, "%s: the unit", label);
	ok(tree->has_clock[CLOCK_WALL] && !tree->has_clock[CLOCK_CPU],
	   "%s: values on the wall clock only", label);
	scope_init_all(&scope, tree);
	profile_compute(&p, tree, &scope);
	for (i = 0; i < n; i++) {
		uint64_t e, in;

		numbers(tree, &p, want[i].name, &e, &in);
		is_u64(e, want[i].excl, "%s: flat of %s", label, want[i].name);
		is_u64(in, want[i].incl, "%s: cum of %s", label, want[i].name);
	}
	for (i = 0; i < tree->nmethods; i++) {
		if (!profile_row_used(&p, i))
			continue;
		used++;
		sum += p.rows[i].excl[CLOCK_WALL];
	}
	is_u64(used, n, "%s: no other function in the samples", label);
	is_u64(sum, total, "%s: flat values add up to the total", label);
	profile_done(&p);
	scope_done(&scope);
	calltree_free(tree);
}

static void
test_good(void)
{
	static const struct expect space[] = {
	        {"main", 0, 180}, {"inl", 0, 130},    {"alloc", 130, 130},
	        {"rec", 0, 50},   {"0x1234", 50, 50},
	};
	static const struct expect objects[] = {
	        {"main", 0, 6}, {"inl", 0, 4},    {"alloc", 4, 4},
	        {"rec", 0, 2},  {"0x1234", 2, 2},
	};
	struct buf b = good_profile(false);
	struct trace_error err = {0};
	struct calltree *tree;
	long m;

	ok(trace_pprof_detect(b.p, b.n), "the profile is detected as pprof");
	check_type(&b, NULL, "default (the last type)", space, 5, 180,
	           TRACE_UNIT_BYTES);
	check_type(&b, "space", "space by name", space, 5, 180,
	           TRACE_UNIT_BYTES);
	check_type(&b, "0", "objects by index", objects, 5, 6,
	           TRACE_UNIT_COUNT);

	tree = load(&b, "objects", &err);
	if (!ok(tree != NULL, "objects by name loads"))
		return;
	is_str(calltree_property(tree, "pprof-sample-type"), "objects/count",
	       "the chosen type is a property");
	is_str(calltree_property(tree, "pprof-sample-type-index"), "1 of 2",
	       "so is its index");
	is_str(calltree_property(tree, "pprof-sample-types"),
	       "objects/count, space/bytes", "and every type");
	is_str(calltree_property(tree, "pprof-period"), "524288 space/bytes",
	       "and the period");
	m = method_named(tree, "0x1234");
	ok(m >= 0 && tree->methods[m].file &&
	           strcmp(tree->methods[m].file, "libc.so") == 0,
	   "a location without lines is its address, in its mapping's file");
	m = method_named(tree, "main");
	ok(m >= 0 && tree->methods[m].file &&
	           strcmp(tree->methods[m].file, "main.c") == 0 &&
	           tree->methods[m].line == 3,
	   "a function keeps its file and start line");
	ok(tree->nwarnings == 1 &&
	           strstr(tree->warnings[0].message, "1 negative objects"),
	   "the negative value is warned about");
	ok(tree->sampled, "the model says sampled");
	calltree_free(tree);

	ok(!load(&b, "nosuch", &err) && err.message &&
	           strstr(err.message, "no sample type 'nosuch'") &&
	           strstr(err.message, "objects, space"),
	   "an unknown type is refused, the types listed");
	trace_error_clear(&err);
	ok(!load(&b, "2", &err) && err.message &&
	           strstr(err.message, "from 0 to 1"),
	   "an index past the types is refused");
	trace_error_clear(&err);
	free(b.p);
}

/* Reading b must fail at offset `offset` with a message holding what. */
static void
refused(struct buf *b, uint64_t offset, const char *what, const char *label)
{
	struct calltree_builder *builder = calltree_builder_new("bad.pb");
	struct trace_error err = {0};
	bool read = trace_pprof_read(b->p, b->n, calltree_builder_sink(builder),
	                             &err);

	if (!ok(!read && err.message && strstr(err.message, what) &&
	                err.offset == offset,
	        "%s: refused at offset %" PRIu64, label, offset))
		printf("#   got offset %" PRIu64 ": %s\n", err.offset,
		       err.message ? err.message : "(read)");
	trace_error_clear(&err);
	calltree_builder_free(builder);
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static void
test_bad(void)
{
	static const int64_t one[] = {1}, two[] = {1, 2}, nine[] = {9},
	                     l_main[] = {1};
	struct buf b = {0}, m = {0};
	size_t at;

	/* A length past the end: key at 0, length 100 at 1, data at 2. */
	put_key(&b, 2, 2);
	put_varint(&b, 100);
	put_byte(&b, 0);
	refused(&b, 2, "100 bytes long, but only 1", "a cut field");

	/* A varint cut by the end: the key at 0, the value at 1. */
	put_key(&b, 12, 0);
	put_byte(&b, 0x80);
	refused(&b, 1, "varint cut off", "a cut varint");

	/* Eleven bytes of varint. */
	put_key(&b, 12, 0);
	for (at = 0; at < 10; at++)
		put_byte(&b, 0xFF);
	put_byte(&b, 0x01);
	refused(&b, 1, "varint", "a varint over ten bytes");

	/* A group (wire type 3) after a string. */
	put_string(&b, "");
	put_key(&b, 7, 3);
	refused(&b, 2, "wire type 3", "a group");

	/* sample_type as a varint. */
	put_int(&b, 1, 4);
	refused(&b, 0, "should be a length-delimited value",
	        "a field of the wrong wire type");

	/* No string table at all. */
	put_value_type(&b, 1, 0, 0);
	refused(&b, 0, "no string table", "no string table");

	/* A function whose name is string 99 of 1; the function at 2. */
	put_string(&b, "");
	put_value_type(&b, 1, 0, 0);
	at = b.n;
	put_function(&b, 1, 99, 0, 0);
	put_location(&b, 1, 0, 0, l_main, 1);
	refused(&b, at, "string index 99", "a string index out of range");

	/* A sample of location 9, which is not defined. */
	put_string(&b, "");
	put_value_type(&b, 1, 0, 0);
	at = b.n;
	put_sample(&b, nine, 1, true, one, 1);
	refused(&b, at + 2, "location 9", "an undefined location");

	/* Two values for one sample type. */
	put_string(&b, "");
	put_value_type(&b, 1, 0, 0);
	at = b.n;
	put_sample(&b, NULL, 0, true, two, 2);
	refused(&b, at + 2, "2 values, but the profile has 1",
	        "a sample with too many values");

	/* A line of function 5, which is not defined: the location's data
	 * follows its key and length, the line follows the id and address. */
	put_string(&b, "");
	put_value_type(&b, 1, 0, 0);
	put_int(&m, 1, 1);
	put_int(&m, 3, 0x10);
	at = b.n + 2 + m.n;
	{
		struct buf line = {0};

		put_int(&line, 1, 5);
		put_msg(&m, 4, &line);
	}
	put_msg(&b, 4, &m);
	refused(&b, at, "function 5", "an undefined function");

	/* Samples but no sample type. */
	put_string(&b, "");
	put_sample(&b, NULL, 0, true, one, 1);
	refused(&b, 0, "no sample type", "no sample type");
}

static void
test_detect(void)
{
	static const char v1[] = "*version\n3\n",
	                  hprof[] = "JAVA PROFILE 1.0.1";

	ok(!trace_pprof_detect((const unsigned char *)v1, strlen(v1)),
	   "a V1 key is not pprof");
	ok(!trace_pprof_detect((const unsigned char *)hprof, strlen(hprof)),
	   "an hprof profile is not pprof");
	ok(!trace_pprof_detect((const unsigned char *)"", 0),
	   "nothing is not pprof");
	/* 'h' is the tag of field 13 (comment, a varint), but the fields
	 * after it are no Profile's: a pipe of text is refused from its
	 * first bytes rather than read whole. */
	ok(!trace_pprof_could_start((const unsigned char *)"hello world\n"
	                                                   "hello world\n",
	                            24),
	   "text that begins with a Profile field's tag could not start one");
	ok(trace_pprof_could_start((const unsigned char *)"\x0a\x04\x08\x01"
	                                                  "\x10\x02\x12\x40",
	                           8),
	   "a sample type, then a sample cut by the peek, could");
}

/* Function names holding a NUL: two that differ only after it stay two
 * methods, and every door shows the NUL as \x00 (JSON: \u0000). */
static void
test_nul_names(void)
{
	static const int64_t l_a[] = {1}, l_b[] = {2}, s_a[] = {1}, s_b[] = {2},
	                     v_a[] = {3}, v_b[] = {5};
	struct buf b = {0};
	struct trace_error err = {0};
	struct calltree *tree;
	struct profile p = {0};
	struct scope scope;
	uint64_t e, in;
	long a, m;
	char *full, *shown;

	put_value_type(&b, 1, 1, 2);
	put_sample(&b, s_a, 1, true, v_a, 1);
	put_sample(&b, s_b, 1, true, v_b, 1);
	put_location(&b, 1, 0, 0x100, l_a, 1);
	put_location(&b, 2, 0, 0x200, l_b, 1);
	put_function(&b, 1, 3, 0, 0);
	put_function(&b, 2, 4, 0, 0);
	put_string(&b, "");
	put_string(&b, "samples");
	put_string(&b, "count");
	put_bytes(&b, 6, "foo\0secretA", 11);
	put_bytes(&b, 6, "foo\0secretB", 11);
	tree = load(&b, NULL, &err);
	free(b.p);
	if (!ok(tree != NULL, "NUL names: the profile loads")) {
		printf("#   %s\n", err.message);
		trace_error_clear(&err);
		return;
	}
	a = method_named(tree, "foo\xC0\x80secretA");
	m = method_named(tree, "foo\xC0\x80secretB");
	ok(a >= 0 && m >= 0 && a != m,
	   "NUL names: foo\\0secretA and foo\\0secretB are two methods");
	scope_init_all(&scope, tree);
	profile_compute(&p, tree, &scope);
	numbers(tree, &p, "foo\xC0\x80secretB", &e, &in);
	is_u64(e, 5, "NUL names: foo\\0secretB keeps its own value");
	profile_done(&p);
	scope_done(&scope);
	if (a >= 0) {
		full = method_full_name(&tree->methods[a]);
		shown = text_escape(full);
		is_str(shown, "foo\\x00secretA", "NUL names: text shows \\x00");
		free(shown);
		shown = text_json(full);
		is_str(shown, "\"foo\\u0000secretA\"",
		       "NUL names: JSON shows \\u0000");
		free(shown);
		shown = text_csv(full);
		is_str(shown, "foo\\x00secretA", "NUL names: CSV shows \\x00");
		free(shown);
		shown = text_xml(full);
		is_str(shown, "foo\\x00secretA", "NUL names: XML shows \\x00");
		free(shown);
		is_u64(text_width(full), 14, "NUL names: \\x00 is 4 columns");
		free(full);
	}
	calltree_free(tree);
}

/* A location of 1,000 lines named 30,000 times: 30 million frames from
 * a few bytes.  Refused, with the offset of the sample, without taking
 * memory for them; named 60 times, 60,000 lines deep, it is read. */
static void
test_amplified(void)
{
	int64_t fns[1000], *locs = xcalloc(30001, sizeof(*locs));
	static const int64_t value[] = {1};
	struct trace_error err = {0};
	struct calltree *tree;
	size_t i;
	int refs;

	for (i = 0; i < 1000; i++)
		fns[i] = 1 + (int64_t)i;
	for (i = 0; i < 30000; i++)
		locs[i] = 1;
	for (refs = 30000; refs >= 60; refs -= 29940) {
		struct buf b = {0};

		put_value_type(&b, 1, 1, 2);
		put_sample(&b, locs, (size_t)refs, true, value, 1);
		put_location(&b, 1, 0, 0x100, fns, 1000);
		for (i = 0; i < 1000; i++)
			put_function(&b, 1 + (int64_t)i, 3, 0, 0);
		put_string(&b, "");
		put_string(&b, "samples");
		put_string(&b, "count");
		put_string(&b, "f");
		tree = load(&b, NULL, &err);
		free(b.p);
		if (refs == 30000) {
			ok(!tree && err.offset == 10 &&
			           strstr(err.message, "65536 lines deep"),
			   "amplified: 30 million frames refused at the "
			   "sample, offset 10");
			printf("#   %" PRIu64 ": %s\n", err.offset,
			       err.message ? err.message : "");
		} else {
			ok(tree && tree->calls.count == 60000,
			   "amplified: 60,000 frames read as 60,000 calls");
		}
		trace_error_clear(&err);
		calltree_free(tree);
	}
	free(locs);
}

static void
put_text(struct buf *b, const char *text)
{
	while (*text)
		put_byte(b, (unsigned char)*text++);
}

/* What a sink of progress alone is told. */
struct told {
	unsigned calls;
	uint64_t last, total;
	bool backwards;
};

static void
on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct told *t = ctx;

	t->backwards = t->backwards || done < t->last;
	t->calls++;
	t->last = done;
	t->total = total;
}

/* An hprof and a pprof profile of some MB report progress as they are
 * read, as a V1 data part does (the viewer's bar, and its q, read it),
 * forwards, up to their size. */
static void
test_progress(void)
{
	struct buf b = {0};
	struct told t = {0};
	struct trace_sink sink = {.ctx = &t, .progress = on_progress};
	struct trace_error err = {0};
	static const int64_t value[] = {1};
	int64_t locs[2];
	int64_t fn = 1;
	size_t i;
	/* make check: 2 MB, reports on the way and the last; check-long:
	 * 6 MB, four at least. */
	size_t mb = tap_long() ? 6 : 2;
	unsigned least = tap_long() ? 4 : 2;

	for (i = 0; b.n < (mb << 20); i++) {
		char line[96];

		snprintf(line, sizeof(line),
		         "TRACE %zu: (thread=1)\n\ta.B.m%zu(B.java:1)\n", i + 1,
		         i % 1000);
		put_text(&b, line);
	}
	put_text(&b, "CPU SAMPLES BEGIN (total = 1) x\n"
	             "rank self accum count trace method\n"
	             "1 100.00% 100.00% 1 1 a.B.m0\n"
	             "CPU SAMPLES END\n");
	ok(trace_load_bytes(b.p, b.n, &sink, &err),
	   "progress: a %zu MB hprof profile reads", mb);
	ok(t.calls >= least, "progress: hprof reports it %u times", t.calls);
	ok(!t.backwards && t.last == b.n && t.total == b.n,
	   "progress: hprof's goes forwards to its size");
	trace_error_clear(&err);
	free(b.p);

	memset(&b, 0, sizeof(b));
	memset(&t, 0, sizeof(t));
	put_value_type(&b, 1, 1, 2);
	for (i = 0; b.n < (mb << 20); i++) {
		locs[0] = 1 + (int64_t)(i % 2);
		locs[1] = 2 - (int64_t)(i % 2);
		put_sample(&b, locs, 2, true, value, 1);
	}
	put_location(&b, 1, 0, 0x100, &fn, 1);
	put_location(&b, 2, 0, 0x200, &fn, 1);
	put_function(&b, 1, 3, 0, 0);
	put_string(&b, "");
	put_string(&b, "samples");
	put_string(&b, "count");
	put_string(&b, "f");
	ok(trace_load_bytes(b.p, b.n, &sink, &err),
	   "progress: a %zu MB pprof profile reads", mb);
	ok(t.calls >= least, "progress: pprof reports it %u times", t.calls);
	ok(!t.backwards && t.last == b.n && t.total == b.n,
	   "progress: pprof's goes forwards to its size");
	trace_error_clear(&err);
	free(b.p);
}

static int
write_profiles(const char *dir)
{
	int grown;

	for (grown = 0; grown < 2; grown++) {
		struct buf b = good_profile(grown);
		char *path = xasprintf("%s/pprof-heap%s.pb", dir,
		                       grown ? "-grown" : "");
		FILE *f = fopen(path, "wb");

		if (!f || fwrite(b.p, 1, b.n, f) != b.n || fclose(f) != 0) {
			perror(path);
			return 1;
		}
		free(path);
		free(b.p);
	}
	return 0;
}

/* A profile with one sample type named text, a function named
 * "f" text and one named text, for tests/escape.sh. */
static int
write_hostile(const char *path, const char *text)
{
	static const int64_t l_leaf[] = {1}, l_root[] = {2}, locs[] = {1, 2},
	                     value[] = {7};
	char *f_text = xasprintf("f%s", text);
	const char *table[] = {"", text, "bytes", f_text, "main"};
	struct buf b = {0};
	FILE *f;
	size_t i;
	int status = 0;

	put_value_type(&b, 1, 1, 2);
	put_sample(&b, locs, 2, true, value, 1);
	put_location(&b, 1, 0, 0x100, l_leaf, 1);
	put_location(&b, 2, 0, 0x200, l_root, 1);
	put_function(&b, 1, 3, 1, 0);
	put_function(&b, 2, 4, 1, 0);
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		put_string(&b, table[i]);
	f = fopen(path, "wb");
	if (!f || fwrite(b.p, 1, b.n, f) != b.n || fclose(f) != 0) {
		perror(path);
		status = 1;
	}
	free(b.p);
	free(f_text);
	return status;
}

/* A profile of one location of `lines` inlined lines (functions 1 to
 * lines), named refs times by each of `samples` samples, each with a
 * location of its own as its leaf (so their stacks part ways at the end)
 * or, with `root`, as its root (so they share nothing), for
 * tests/hostile.sh: lines * refs frames a sample, from a few bytes. */
static int
write_amplified(const char *path, long lines, long refs, long samples,
                bool root)
{
	struct buf b = {0};
	int64_t *fns = xcalloc((size_t)lines + 1, sizeof(*fns));
	int64_t *locs = xcalloc((size_t)refs + 2, sizeof(*locs));
	static const int64_t value[] = {1};
	FILE *f;
	long i;
	int status = 0;

	put_value_type(&b, 1, 1, 2);
	for (i = 0; i < refs; i++)
		locs[i + !root] = 1;
	for (i = 0; i < samples; i++) {
		locs[root ? refs : 0] = 2 + i; /* leaf first */
		put_sample(&b, locs, (size_t)refs + 1, true, value, 1);
	}
	for (i = 0; i < lines; i++)
		fns[i] = 1 + i;
	put_location(&b, 1, 0, 0x100, fns, (size_t)lines);
	for (i = 0; i < samples; i++)
		put_location(&b, 2 + i, 0, 0x200 + i, NULL, 0);
	for (i = 0; i < lines; i++)
		put_function(&b, 1 + i, 3, 0, 0);
	put_string(&b, "");
	put_string(&b, "samples");
	put_string(&b, "count");
	put_string(&b, "f");
	f = fopen(path, "wb");
	if (!f || fwrite(b.p, 1, b.n, f) != b.n || fclose(f) != 0) {
		perror(path);
		status = 1;
	}
	free(b.p);
	free(fns);
	free(locs);
	return status;
}

int
main(int argc, char **argv)
{
	if (argc == 7 && strcmp(argv[1], "--write-amplified") == 0)
		return write_amplified(argv[2], atol(argv[3]), atol(argv[4]),
		                       atol(argv[5]),
		                       strcmp(argv[6], "root") == 0);
	if (argc == 3 && strcmp(argv[1], "--write") == 0)
		return write_profiles(argv[2]);
	if (argc == 4 && strcmp(argv[1], "--write-hostile") == 0)
		return write_hostile(argv[2], argv[3]);
	test_good();
	test_bad();
	test_detect();
	test_nul_names();
	test_amplified();
	test_progress();
	return done_testing();
}
