/*
 * unit-v2: the V2 reader driven directly on byte buffers built here, the
 * LEB128 bytes written out by hand, through a sink that records every
 * callback.
 *
 *   LEB128     unsigned and signed: one-byte values, the 7-bit boundaries,
 *              64-bit extremes, non-minimal encodings; values that run
 *              past the buffer, longer than ten bytes or with a tenth byte
 *              holding more than bit 63 are refused.
 *   final      a dual-clock block: method | action deltas (signed, also
 *              negative), wall before thread-cpu; thread and method info
 *              packets; the summary's options as properties.
 *   draft      a single-clock streaming block whose header carries the
 *              first record and u2 counts.
 *   perfetto   (time << 2 | action) deltas, cpu deltas, method deltas on
 *              entries only, exits closing the thread's open entry.
 *   units      elapsed-time-nsec: times and the start time divided by
 *              1000, rounding down.
 *   quirk      a block continuing its predecessor's delta state with the
 *              cumulative count, found by the count with no method info.
 *   damage     a malformed record, a block cut off by the end of the
 *              file, a short header and a bad first packet (errors with
 *              their offsets).
 *
 * Expected values are literals worked out by hand from FORMAT.md 5.
 */
#include "config.h"

#include "read/v2.h"

#include "tap.h"

#include <stdlib.h>

/* ---- a sink that records everything ---------------------------------- */

enum { REC_MAX = 32 };

struct rec_event {
	uint32_t tid;
	uint64_t id;
	unsigned action;
	uint64_t cpu, wall;
};

struct rec {
	int nbegin;
	struct trace_header header;
	size_t nprops;
	char *pkey[REC_MAX], *pval[REC_MAX];
	size_t nthreads;
	uint32_t ttid[REC_MAX];
	char *tname[REC_MAX];
	size_t nmethods;
	uint64_t mid[REC_MAX];
	char *mdesc[REC_MAX]; /* class|name|signature|file */
	size_t nevents;
	struct rec_event events[REC_MAX];
	size_t nwarnings;
	uint64_t woff[REC_MAX];
	char *wmsg[REC_MAX];
	bool event_before_begin;
};

static char *
dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	memcpy(d, s, n);
	return d;
}

static void
on_begin(void *ctx, const struct trace_header *h)
{
	struct rec *r = ctx;

	r->nbegin++;
	r->header = *h;
}

static void
on_property(void *ctx, const char *key, const char *value)
{
	struct rec *r = ctx;

	if (r->nprops < REC_MAX) {
		r->pkey[r->nprops] = dup_str(key);
		r->pval[r->nprops++] = dup_str(value);
	}
}

static void
on_thread(void *ctx, uint32_t tid, const char *name)
{
	struct rec *r = ctx;

	if (r->nthreads < REC_MAX) {
		r->ttid[r->nthreads] = tid;
		r->tname[r->nthreads++] = dup_str(name);
	}
}

static void
on_method(void *ctx, const struct trace_method_def *m)
{
	struct rec *r = ctx;
	const char *file = m->file ? m->file : "(null)";
	size_t n;
	char *desc;

	if (r->nmethods < REC_MAX) {
		n = strlen(m->klass) + strlen(m->name) + strlen(m->signature) +
		    strlen(file) + 4;
		desc = malloc(n);
		snprintf(desc, n, "%s|%s|%s|%s", m->klass, m->name,
		         m->signature, file);
		r->mid[r->nmethods] = m->id;
		r->mdesc[r->nmethods++] = desc;
	}
}

static void
on_event(void *ctx, uint32_t tid, uint64_t id, enum trace_action action,
         uint64_t cpu, uint64_t wall)
{
	struct rec *r = ctx;

	if (!r->nbegin)
		r->event_before_begin = true;
	if (r->nevents < REC_MAX) {
		struct rec_event *e = &r->events[r->nevents++];

		e->tid = tid;
		e->id = id;
		e->action = action;
		e->cpu = cpu;
		e->wall = wall;
	}
}

static void
on_warning(void *ctx, uint64_t offset, const char *message)
{
	struct rec *r = ctx;

	if (r->nwarnings < REC_MAX) {
		r->woff[r->nwarnings] = offset;
		r->wmsg[r->nwarnings++] = dup_str(message);
	}
}

static struct trace_sink
rec_sink(struct rec *r)
{
	struct trace_sink s = {0};

	memset(r, 0, sizeof(*r));
	s.ctx = r;
	s.begin = on_begin;
	s.property = on_property;
	s.thread = on_thread;
	s.method = on_method;
	s.event = on_event;
	s.warning = on_warning;
	return s;
}

static void
rec_free(struct rec *r)
{
	size_t i;

	for (i = 0; i < r->nprops; i++) {
		free(r->pkey[i]);
		free(r->pval[i]);
	}
	for (i = 0; i < r->nthreads; i++)
		free(r->tname[i]);
	for (i = 0; i < r->nmethods; i++)
		free(r->mdesc[i]);
	for (i = 0; i < r->nwarnings; i++)
		free(r->wmsg[i]);
}

static const char *
prop(const struct rec *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->nprops; i++)
		if (strcmp(r->pkey[i], key) == 0)
			return r->pval[i];
	return NULL;
}

/* True when some warning contains text. */
static bool
warned(const struct rec *r, const char *text)
{
	size_t i;

	for (i = 0; i < r->nwarnings; i++)
		if (strstr(r->wmsg[i], text))
			return true;
	return false;
}

static void
is_event(const struct rec *r, size_t i, uint32_t tid, uint64_t id,
         unsigned action, uint64_t cpu, uint64_t wall, const char *what)
{
	const struct rec_event *e = &r->events[i];

	if (!ok(i < r->nevents && e->tid == tid && e->id == id &&
	                e->action == action && e->cpu == cpu && e->wall == wall,
	        "%s", what))
		printf("#   got tid %u id 0x%" PRIx64 " action %u cpu %" PRIu64
		       " wall %" PRIu64 "\n",
		       i < r->nevents ? e->tid : 0, i < r->nevents ? e->id : 0,
		       i < r->nevents ? e->action : 0,
		       i < r->nevents ? e->cpu : 0,
		       i < r->nevents ? e->wall : 0);
}

/* ---- building files --------------------------------------------------- */

struct bytes {
	unsigned char b[1024];
	size_t n;
};

static void
put(struct bytes *f, const void *p, size_t n)
{
	memcpy(f->b + f->n, p, n);
	f->n += n;
}

static void
put_le(struct bytes *f, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		f->b[f->n++] = (unsigned char)(v >> (8 * i));
}

/* The 32-byte header: magic, version, start time, zeros (tsc at 22). */
static void
header(struct bytes *f, unsigned version, uint64_t start, uint64_t tsc)
{
	f->n = 0;
	put(f, "SLOW", 4);
	put_le(f, version, 2);
	put_le(f, start, 8);
	put_le(f, 0, 8);
	put_le(f, tsc, 8);
	put_le(f, 0, 2);
}

static void
thread_info(struct bytes *f, uint32_t tid, const char *name)
{
	put_le(f, 0, 1);
	put_le(f, tid, 4);
	put_le(f, strlen(name), 2);
	put(f, name, strlen(name));
}

static void
method_info(struct bytes *f, uint64_t id, const char *text)
{
	put_le(f, 1, 1);
	put_le(f, id, 8);
	put_le(f, strlen(text), 2);
	put(f, text, strlen(text));
}

/* A final or Perfetto block header: type 2, tid, u3 count, u4 size. */
static void
block12(struct bytes *f, uint32_t tid, uint32_t count, uint32_t size)
{
	put_le(f, 2, 1);
	put_le(f, tid, 4);
	put_le(f, count, 3);
	put_le(f, size, 4);
}

static void
summary(struct bytes *f, const char *text)
{
	put_le(f, 3, 1);
	put_le(f, strlen(text), 2);
	put(f, text, strlen(text));
}

/* ---- LEB128 ----------------------------------------------------------- */

static void
test_uleb(void)
{
	static const struct {
		unsigned char in[12];
		size_t len, used;
		uint64_t value;
	} cases[] = {
	        {{0x00}, 1, 1, 0},
	        {{0x7F}, 1, 1, 127},
	        {{0x80, 0x01}, 2, 2, 128},
	        {{0xE5, 0x8E, 0x26}, 3, 3, 624485},
	        {{0x80, 0x00}, 2, 2, 0}, /* non-minimal is still a number */
	        {{0x05, 0xFF}, 2, 1, 5}, /* stops at the first byte */
	        {{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01},
	         10,
	         10,
	         UINT64_MAX},
	        {{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01},
	         10,
	         10,
	         UINT64_C(1) << 63},
	        /* refused */
	        {{0x80}, 1, 0, 0},
	        {{0x80, 0x80}, 2, 0, 0},
	        {{0x00}, 0, 0, 0},
	        {{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02},
	         10,
	         0,
	         0},
	        {{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	          0x00},
	         11,
	         0,
	         0},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 0xDEAD;
		size_t used = trace_v2_uleb(cases[i].in,
		                            cases[i].in + cases[i].len, &v);

		is_u64(used, cases[i].used, "uleb case %zu: bytes used", i);
		if (cases[i].used)
			is_u64(v, cases[i].value, "uleb case %zu: value", i);
	}
}

static void
test_sleb(void)
{
	static const struct {
		unsigned char in[12];
		size_t len, used;
		int64_t value;
	} cases[] = {
	        {{0x00}, 1, 1, 0},
	        {{0x7F}, 1, 1, -1},
	        {{0x3F}, 1, 1, 63},
	        {{0x40}, 1, 1, -64},
	        {{0xC0, 0x00}, 2, 2, 64},
	        {{0xBF, 0x7F}, 2, 2, -65},
	        {{0x80, 0x7F}, 2, 2, -128},
	        {{0x80, 0x20}, 2, 2, 4096},
	        {{0x80, 0x60}, 2, 2, -4096},
	        {{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00},
	         10,
	         10,
	         INT64_MAX},
	        {{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7F},
	         10,
	         10,
	         INT64_MIN},
	        {{0xFF, 0x7F}, 2, 2, -1}, /* non-minimal */
	        /* refused */
	        {{0xC0}, 1, 0, 0},
	        {{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01},
	         10,
	         0,
	         0},
	        {{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	          0x7F},
	         11,
	         0,
	         0},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t v = 0xDEAD;
		size_t used = trace_v2_sleb(cases[i].in,
		                            cases[i].in + cases[i].len, &v);

		is_u64(used, cases[i].used, "sleb case %zu: bytes used", i);
		if (cases[i].used)
			ok(v == cases[i].value, "sleb case %zu: value %" PRId64,
			   i, v);
	}
}

/* ---- block layouts ---------------------------------------------------- */

static void
test_final(void)
{
	static const unsigned char payload[] = {
	        0x80, 0x20, 0x0A, 0x05, /* +0x1000 enter, wall 10, cpu 5 */
	        0x80, 0x20, 0x14, 0x03, /* +0x1000 (0x2000 enter), 30, 8 */
	        0x01, 0x05, 0x02,       /* +1 (0x2000 exit), 35, 10 */
	        0x80, 0x60, 0x0F, 0x01, /* -0x1000 (0x1000 exit), 50, 11 */
	};
	struct bytes f;
	struct rec r;
	struct trace_sink sink = rec_sink(&r);
	struct trace_error err = {0};

	header(&f, 5, 1234, 0);
	thread_info(&f, 7, "main");
	method_info(&f, 0x1000, "com.example.A\trun\t()V\tA.java\n");
	method_info(&f, 0x2000, "com.example.A\tstep\t(I)V\t\n");
	block12(&f, 7, 4, sizeof(payload));
	put(&f, payload, sizeof(payload));
	summary(&f, "*version\n5\nclock=dual\nelapsed-time-usec=50\n"
	            "vm=art\n*end\n");
	ok(trace_v2_read(f.b, f.n, &sink, &err), "final: read");
	is_u64(r.nbegin, 1, "final: begin once");
	ok(!r.event_before_begin, "final: begin before the events");
	is_u64(r.header.format, TRACE_FORMAT_V2, "final: format V2");
	is_u64(r.header.version, 5, "final: version 5");
	is_u64(r.header.clock, TRACE_CLOCK_DUAL, "final: dual clock");
	is_u64(r.header.time_bits, 64, "final: 64-bit times");
	is_u64(r.header.start_time, 1234, "final: start time");
	is_u64(r.header.incomplete, 0, "final: complete");
	is_str(prop(&r, "v2-block-layout"), "final (FORMAT.md 5.4)",
	       "final: layout property");
	is_str(prop(&r, "v2-time-unit"), "us", "final: unit property");
	is_str(prop(&r, "elapsed-time-usec"), "50", "final: summary option");
	is_u64(r.nthreads, 1, "final: one thread");
	ok(r.nthreads && r.ttid[0] == 7 && strcmp(r.tname[0], "main") == 0,
	   "final: thread 7 main");
	is_u64(r.nmethods, 2, "final: two methods");
	ok(r.nmethods == 2 && r.mid[0] == 0x1000 &&
	           strcmp(r.mdesc[0], "com.example.A|run|()V|A.java") == 0,
	   "final: method 0x1000");
	ok(r.nmethods == 2 && r.mid[1] == 0x2000 &&
	           strcmp(r.mdesc[1], "com.example.A|step|(I)V|") == 0,
	   "final: method 0x2000 without a file");
	is_u64(r.nevents, 4, "final: four events");
	is_event(&r, 0, 7, 0x1000, TRACE_ENTER, 5, 10, "final: event 1");
	is_event(&r, 1, 7, 0x2000, TRACE_ENTER, 8, 30, "final: event 2");
	is_event(&r, 2, 7, 0x2000, TRACE_EXIT, 10, 35, "final: event 3");
	is_event(&r, 3, 7, 0x1000, TRACE_EXIT, 11, 50, "final: event 4");
	is_u64(r.nwarnings, 0, "final: no warnings");
	rec_free(&r);
	trace_error_clear(&err);
}

static void
test_draft(void)
{
	struct bytes f;
	struct rec r;
	struct trace_sink sink = rec_sink(&r);
	struct trace_error err = {0};

	header(&f, 0xF4, 0, 0);
	thread_info(&f, 9, "worker");
	method_info(&f, 0x1000, "com.example.B\tgo\t()V\tB.java\n");
	/* type, tid, first word, first wall (u4), n - 1 (u2), size (u2) */
	put_le(&f, 2, 1);
	put_le(&f, 9, 4);
	put_le(&f, 0x1000, 8);
	put_le(&f, 100, 4);
	put_le(&f, 1, 2);
	put_le(&f, 2, 2);
	put_le(&f, 0x01, 1); /* +1: 0x1000 exit */
	put_le(&f, 0x19, 1); /* wall +25 */
	summary(&f, "*version\n4\nclock=wall\nelapsed-time-usec=25\n*end\n");
	ok(trace_v2_read(f.b, f.n, &sink, &err), "draft: read");
	is_u64(r.header.format, TRACE_FORMAT_V2_STREAM,
	       "draft: format V2 streaming");
	is_u64(r.header.clock, TRACE_CLOCK_WALL, "draft: wall clock");
	is_str(prop(&r, "v2-block-layout"), "Android 15 draft (FORMAT.md 5.6)",
	       "draft: layout property");
	is_u64(r.nevents, 2, "draft: two events");
	is_event(&r, 0, 9, 0x1000, TRACE_ENTER, 0, 100,
	         "draft: the header's record");
	is_event(&r, 1, 9, 0x1000, TRACE_EXIT, 0, 125,
	         "draft: the payload's record");
	is_u64(r.nwarnings, 0, "draft: no warnings");
	rec_free(&r);
	trace_error_clear(&err);
}

static void
test_perfetto(void)
{
	static const unsigned char payload[] = {
	        0x90, 0x03, /* +400 = 100 << 2 | enter */
	        0x07,       /* cpu +7 */
	        0x80, 0x20, /* method +0x1000 */
	        0xF9, 0x00, /* +121 = 130 << 2 | exit */
	        0x04,       /* cpu +4; an exit names no method */
	};
	struct bytes f;
	struct rec r;
	struct trace_sink sink = rec_sink(&r);
	struct trace_error err = {0};

	header(&f, 5, 0, 0);
	method_info(&f, 0x1000, "com.example.C\tdo\t()V\tC.java\t12\n");
	block12(&f, 3, 2, sizeof(payload));
	put(&f, payload, sizeof(payload));
	summary(&f, "*version\n5\nclock=dual\nelapsed-time-usec=30\n*end\n");
	ok(trace_v2_read(f.b, f.n, &sink, &err), "perfetto: read");
	is_str(prop(&r, "v2-block-layout"), "Perfetto 2026 (FORMAT.md 5.6)",
	       "perfetto: layout property");
	ok(r.nmethods == 1 &&
	           strcmp(r.mdesc[0], "com.example.C|do|()V|C.java") == 0,
	   "perfetto: method with a line number");
	is_u64(r.nevents, 2, "perfetto: two events");
	is_event(&r, 0, 3, 0x1000, TRACE_ENTER, 7, 100, "perfetto: entry");
	is_event(&r, 1, 3, 0x1000, TRACE_EXIT, 11, 130,
	         "perfetto: exit closes the open entry");
	rec_free(&r);
	trace_error_clear(&err);
}

static void
test_ns(void)
{
	static const unsigned char payload[] = {
	        0x80, 0x20, 0xDC, 0x0B, /* 0x1000 enter, wall 1500 ns */
	        0x01, 0xDB, 0x0B,       /* 0x1000 exit, wall +1499 = 2999 ns */
	};
	struct bytes f;
	struct rec r;
	struct trace_sink sink = rec_sink(&r);
	struct trace_error err = {0};

	header(&f, 4, UINT64_C(5000000000), 0);
	method_info(&f, 0x1000, "com.example.D\tns\t()V\tD.java\n");
	block12(&f, 1, 2, sizeof(payload));
	put(&f, payload, sizeof(payload));
	summary(&f, "*version\n4\nclock=wall\nelapsed-time-nsec=1499\n*end\n");
	ok(trace_v2_read(f.b, f.n, &sink, &err), "ns: read");
	is_str(prop(&r, "v2-time-unit"), "ns, shown in us",
	       "ns: unit property");
	is_u64(r.header.start_time, 5000000, "ns: start time in us");
	is_event(&r, 0, 1, 0x1000, TRACE_ENTER, 0, 1, "ns: 1500 ns is 1 us");
	is_event(&r, 1, 1, 0x1000, TRACE_EXIT, 0, 2, "ns: 2999 ns is 2 us");
	rec_free(&r);
	trace_error_clear(&err);
}

static void
test_continued(void)
{
	static const unsigned char first[] = {
	        0x80, 0x20, 0x0A, /* 0x1000 enter, wall 10 */
	        0x80, 0x20, 0x0A, /* 0x2000 enter, wall 20 */
	};
	static const unsigned char second[] = {
	        0x01, 0x05,       /* 0x2001: 0x2000 exit, wall 25 */
	        0x80, 0x60, 0x05, /* 0x1001: 0x1000 exit, wall 30 */
	};
	struct bytes f;
	struct rec r;
	struct trace_sink sink = rec_sink(&r);
	struct trace_error err = {0};

	/* No method info: only the cumulative count (2 + 2) tells. */
	header(&f, 4, 0, 0);
	block12(&f, 1, 2, sizeof(first));
	put(&f, first, sizeof(first));
	block12(&f, 1, 4, sizeof(second));
	put(&f, second, sizeof(second));
	summary(&f, "*version\n4\nclock=wall\nelapsed-time-usec=20\n*end\n");
	ok(trace_v2_read(f.b, f.n, &sink, &err), "continued: read");
	is_u64(r.nevents, 4, "continued: four events");
	is_event(&r, 2, 1, 0x2000, TRACE_EXIT, 0, 25,
	         "continued: first record from the previous values");
	is_event(&r, 3, 1, 0x1000, TRACE_EXIT, 0, 30,
	         "continued: second record");
	ok(warned(&r, "continues the previous block"),
	   "continued: a warning says so");
	rec_free(&r);
	trace_error_clear(&err);
}

static void
test_damage(void)
{
	static const unsigned char bad_payload[] = {
	        0x80, 0x20, 0x0A, /* a whole record */
	        0x81, 0x80,       /* a method delta running out */
	};
	static const unsigned char cut_payload[] = {
	        0x80, 0x20, 0x0A, 0x04, /* 0x1000 enter, wall 10, cpu 4 */
	        0x01, 0x0A,             /* the exit, missing its cpu */
	};
	struct bytes f;
	struct rec r;
	struct trace_sink sink = rec_sink(&r);
	struct trace_error err = {0};
	size_t block_at;

	header(&f, 4, 0, 0);
	method_info(&f, 0x1000, "com.example.E\tx\t()V\tE.java\n");
	block_at = f.n;
	block12(&f, 1, 2, sizeof(bad_payload));
	put(&f, bad_payload, sizeof(bad_payload));
	summary(&f, "*version\n4\nclock=wall\nelapsed-time-usec=10\n*end\n");
	ok(trace_v2_read(f.b, f.n, &sink, &err), "malformed: read");
	is_u64(r.nevents, 1, "malformed: the whole record is kept");
	ok(warned(&r, "malformed record"), "malformed: warned");
	ok(r.nwarnings && r.woff[0] == block_at + 12 + 3,
	   "malformed: at the record's offset");
	rec_free(&r);

	sink = rec_sink(&r);
	header(&f, 5, 0, 0);
	method_info(&f, 0x1000, "com.example.E\tx\t()V\tE.java\n");
	block_at = f.n;
	block12(&f, 1, 2, 7); /* says 7 payload bytes; 6 remain */
	put(&f, cut_payload, sizeof(cut_payload));
	ok(trace_v2_read(f.b, f.n, &sink, &err), "cut: read");
	is_u64(r.nevents, 1, "cut: the whole record is kept");
	is_event(&r, 0, 1, 0x1000, TRACE_ENTER, 4, 10, "cut: its values");
	ok(warned(&r, "1 of its 2 records kept"), "cut: warned");
	ok(warned(&r, "without its summary"), "cut: incomplete");
	is_u64(r.header.incomplete, 1, "cut: header says incomplete");
	rec_free(&r);

	sink = rec_sink(&r);
	ok(!trace_v2_read(f.b, 20, &sink, &err), "short header: refused");
	is_u64(err.offset, 20, "short header: offset");
	ok(err.message && strstr(err.message, "32-byte V2 header"),
	   "short header: says what was expected");
	trace_error_clear(&err);
	rec_free(&r);

	sink = rec_sink(&r);
	header(&f, 5, 0, 0);
	put_le(&f, 9, 1);
	ok(!trace_v2_read(f.b, f.n, &sink, &err), "bad packet: refused");
	is_u64(err.offset, 32, "bad packet: offset 32");
	ok(err.message && strstr(err.message, "0x09"),
	   "bad packet: names the byte");
	trace_error_clear(&err);
	rec_free(&r);
}

int
main(void)
{
	test_uleb();
	test_sleb();
	test_final();
	test_draft();
	test_perfetto();
	test_ns();
	test_continued();
	test_damage();
	return done_testing();
}
