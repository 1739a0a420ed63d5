/*
 * unit-key: the V1 readers driven directly on byte buffers built here (no
 * files), through a sink that records every callback.
 *
 *   trace-key     *version / version / options (split on the first '=';
 *                 unknown keys become properties), clock=thread-cpu, wall,
 *                 dual, missing and bogus; CRLF lines and the offset just
 *                 past "*end\r\n"; method ids 0, 0x4, bare hex; 6-, 5-,
 *                 4- (both layouts) and 2-field method lines; thread
 *                 names with spaces; malformed lines as warnings with
 *                 their offsets; a missing *end; unusable keys as errors.
 *   trace-v1      data parts of version 1 (9-byte records, u1 thread),
 *                 2 (10-byte) and 3 (14- and 18-byte records, data offset
 *                 32 and 20); events with the method id's low bits
 *                 cleared, the action, cpu and wall mapped per clock; a
 *                 torn last record; errors (record size 0, impossible data
 *                 offsets, bad magic, bad version) at the right offsets.
 *   trace-stream  a 0xF3 stream with inline method and thread packets and
 *                 a dual-clock summary; a 0xF2 stream written with 14-byte
 *                 records (ART 6 to 13); streams cut off before their
 *                 summary; a .sec side file.
 *
 * Expected values are literals worked out by hand from FORMAT.md.
 */
#include "config.h"

#include "read/key.h"
#include "read/stream.h"
#include "read/v1.h"

#include "tap.h"

#include <stdlib.h>

/* ---- a sink that records everything ---------------------------------- */

enum { REC_MAX = 64 };

struct rec_event {
	uint32_t tid;
	uint64_t id;
	unsigned action;
	uint64_t cpu, wall;
};

struct rec_method {
	uint64_t id;
	char *klass, *name, *signature, *file; /* file may be NULL */
	long line;
};

struct rec {
	char order[4 * REC_MAX + 1]; /* one letter per callback: BPTMEW */
	size_t norder;
	int nbegin;
	struct trace_header header;
	size_t nprops;
	char *pkey[REC_MAX], *pval[REC_MAX];
	size_t nthreads;
	uint32_t ttid[REC_MAX];
	char *tname[REC_MAX];
	size_t nmethods;
	struct rec_method methods[REC_MAX];
	size_t nevents;
	struct rec_event events[REC_MAX];
	size_t nwarn;
	uint64_t woff[REC_MAX];
	char *wmsg[REC_MAX];
	bool overflow; /* more callbacks than REC_MAX of a kind */
};

static char *
dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static void
rec_letter(struct rec *r, char c)
{
	if (r->norder < sizeof(r->order) - 1)
		r->order[r->norder++] = c;
	r->order[r->norder] = '\0';
}

static void
rec_begin(void *ctx, const struct trace_header *h)
{
	struct rec *r = ctx;

	rec_letter(r, 'B');
	r->nbegin++;
	r->header = *h;
}

static void
rec_property(void *ctx, const char *key, const char *value)
{
	struct rec *r = ctx;

	rec_letter(r, 'P');
	if (r->nprops == REC_MAX) {
		r->overflow = true;
		return;
	}
	r->pkey[r->nprops] = strdup(key);
	r->pval[r->nprops++] = strdup(value);
}

static void
rec_thread(void *ctx, uint32_t tid, const char *name)
{
	struct rec *r = ctx;

	rec_letter(r, 'T');
	if (r->nthreads == REC_MAX) {
		r->overflow = true;
		return;
	}
	r->ttid[r->nthreads] = tid;
	r->tname[r->nthreads++] = strdup(name);
}

static void
rec_method(void *ctx, const struct trace_method_def *m)
{
	struct rec *r = ctx;
	struct rec_method *d;

	rec_letter(r, 'M');
	if (r->nmethods == REC_MAX) {
		r->overflow = true;
		return;
	}
	d = &r->methods[r->nmethods++];
	d->id = m->id;
	d->klass = dup_or_null(m->klass);
	d->name = dup_or_null(m->name);
	d->signature = dup_or_null(m->signature);
	d->file = dup_or_null(m->file);
	d->line = m->line;
}

static void
rec_event(void *ctx, uint32_t tid, uint64_t id, enum trace_action action,
          uint64_t cpu, uint64_t wall)
{
	struct rec *r = ctx;
	struct rec_event *e;

	rec_letter(r, 'E');
	if (r->nevents == REC_MAX) {
		r->overflow = true;
		return;
	}
	e = &r->events[r->nevents++];
	e->tid = tid;
	e->id = id;
	e->action = action;
	e->cpu = cpu;
	e->wall = wall;
}

static void
rec_warning(void *ctx, uint64_t offset, const char *message)
{
	struct rec *r = ctx;

	rec_letter(r, 'W');
	if (r->nwarn == REC_MAX) {
		r->overflow = true;
		return;
	}
	r->woff[r->nwarn] = offset;
	r->wmsg[r->nwarn++] = strdup(message);
}

static struct trace_sink
rec_sink(struct rec *r)
{
	memset(r, 0, sizeof(*r));
	return (struct trace_sink){
	        .ctx = r,
	        .begin = rec_begin,
	        .property = rec_property,
	        .thread = rec_thread,
	        .method = rec_method,
	        .event = rec_event,
	        .warning = rec_warning,
	};
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
	for (i = 0; i < r->nmethods; i++) {
		free(r->methods[i].klass);
		free(r->methods[i].name);
		free(r->methods[i].signature);
		free(r->methods[i].file);
	}
	for (i = 0; i < r->nwarn; i++)
		free(r->wmsg[i]);
	memset(r, 0, sizeof(*r));
}

/* Check event i against the expected fields. */
static void
is_event(const struct rec *r, size_t i, uint32_t tid, uint64_t id,
         unsigned action, uint64_t cpu, uint64_t wall, const char *what)
{
	const struct rec_event *e = &r->events[i];
	bool same = i < r->nevents && e->tid == tid && e->id == id &&
	            e->action == action && e->cpu == cpu && e->wall == wall;

	if (!ok(same,
	        "%s: event %zu is (tid %u, 0x%llx, %u, cpu %llu, "
	        "wall %llu)",
	        what, i, tid, (unsigned long long)id, action,
	        (unsigned long long)cpu, (unsigned long long)wall) &&
	    i < r->nevents)
		printf("#   got (tid %u, 0x%llx, %u, cpu %llu, wall %llu)\n",
		       e->tid, (unsigned long long)e->id, e->action,
		       (unsigned long long)e->cpu, (unsigned long long)e->wall);
}

/* ---- a byte buffer builder ------------------------------------------- */

struct bytes {
	unsigned char b[2048];
	size_t n;
};

static void
put1(struct bytes *o, unsigned v)
{
	o->b[o->n++] = (unsigned char)v;
}

static void
put2(struct bytes *o, unsigned v)
{
	put1(o, v & 0xFF);
	put1(o, v >> 8 & 0xFF);
}

static void
put4(struct bytes *o, uint32_t v)
{
	put2(o, v & 0xFFFF);
	put2(o, v >> 16);
}

static void
put8(struct bytes *o, uint64_t v)
{
	put4(o, (uint32_t)v);
	put4(o, (uint32_t)(v >> 32));
}

static void
putstr(struct bytes *o, const char *s)
{
	size_t n = strlen(s);

	memcpy(o->b + o->n, s, n);
	o->n += n;
}

static void
pad_to(struct bytes *o, size_t at)
{
	while (o->n < at)
		put1(o, 0);
}

/* A SLOW header's first 16 bytes. */
static void
put_slow(struct bytes *o, unsigned version, unsigned offset, uint64_t start)
{
	putstr(o, "SLOW");
	put2(o, version);
	put2(o, offset);
	put8(o, start);
}

/* Records of data versions 1 (u1 thread), 2 (u2) and 3 (two times). */
static void
put_rec9(struct bytes *o, unsigned tid, uint32_t word, uint32_t t)
{
	put1(o, tid);
	put4(o, word);
	put4(o, t);
}

static void
put_rec10(struct bytes *o, unsigned tid, uint32_t word, uint32_t t)
{
	put2(o, tid);
	put4(o, word);
	put4(o, t);
}

static void
put_rec14(struct bytes *o, unsigned tid, uint32_t word, uint32_t a, uint32_t b)
{
	put2(o, tid);
	put4(o, word);
	put4(o, a);
	put4(o, b);
}

/* ---- the key ---------------------------------------------------------- */

static void
test_parse_id(void)
{
	uint64_t id = 12345;

	ok(trace_key_parse_id("0", &id) && id == 0, "id: bare 0 (ART >= 8)");
	ok(trace_key_parse_id("0x4", &id) && id == 4, "id: 0x4");
	ok(trace_key_parse_id("0x0", &id) && id == 0, "id: 0x0 (ART 6-7)");
	ok(trace_key_parse_id("4172c2a8", &id) && id == 0x4172c2a8,
	   "id: bare hex 4172c2a8");
	ok(trace_key_parse_id("0x4172C2A8", &id) && id == 0x4172c2a8,
	   "id: upper-case hex digits");
	ok(trace_key_parse_id("0X10", &id) && id == 16, "id: 0X prefix");
	ok(trace_key_parse_id("ffffffffffffffff", &id) && id == UINT64_MAX,
	   "id: 16 hex digits");
	id = 777;
	ok(!trace_key_parse_id("", &id) && id == 777, "id: empty rejected");
	ok(!trace_key_parse_id("0x", &id), "id: bare 0x rejected");
	ok(!trace_key_parse_id("xyz", &id), "id: not hex rejected");
	ok(!trace_key_parse_id("12g", &id), "id: trailing junk rejected");
	ok(!trace_key_parse_id("10000000000000000", &id),
	   "id: 17 hex digits rejected");
}

/* trace_key_method_id reads the id trace_key_method_line reports, and
 * rejects the lines it ignores. */
static void
test_method_id(void)
{
	static const char *const lines[] = {
	        "0x4\ta.A\trun\t()V\tA.java\t12",
	        "0x7\tbare",
	        "4172c2a8\ta.A\tb",
	        "0x10    \ta.A\tpadded",
	        "0x000000000000000000000000000000000000000000000000000000000000"
	        "00000004\ta\tlong",
	        "0x4",
	        "xyz\ta.A\tb",
	        "\ta.A\tb",
	        "0x4 z\ta.A\tb",
	};
	size_t i;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct rec r = {0};
		struct trace_sink s = rec_sink(&r);
		uint64_t id = 0;
		bool got = trace_key_method_id((const unsigned char *)lines[i],
		                               strlen(lines[i]), &id);

		trace_key_method_line((const unsigned char *)lines[i],
		                      strlen(lines[i]), 0, &s);
		ok(got == (r.nmethods == 1) && (!got || id == r.methods[0].id),
		   "method id: '%s' read as the method line reads it",
		   lines[i]);
		rec_free(&r);
	}
	/* A NUL byte in the id. */
	{
		const unsigned char nul[] = {'0',  'x', '4',  0,
		                             '\t', 'a', '\t', 'b'};
		uint64_t id;

		ok(!trace_key_method_id(nul, sizeof(nul), &id),
		   "method id: a NUL byte in it is no id");
	}
}

/*
 * The offsets below (base 0):
 *   0 *version  9 3  11 data-file-overflow=false  36 clock=dual
 *   47 elapsed-time-usec=1234  70 vm=art  77 pid=42  84 custom=a=b=c
 *   97 empty=  104 *threads  113 1<TAB>main  120 17<TAB>Binder thread #1
 *   140 *methods  149 0...  184 0x4...  224 4172c2a8...  297 0x10...
 *   328 0x14...  349 0x18...  382 0x1d...  421 *end  426 SLOW
 */
static const char key_main[] =
        "*version\n"
        "3\n"
        "data-file-overflow=false\n"
        "clock=dual\n"
        "elapsed-time-usec=1234\n"
        "vm=art\n"
        "pid=42\n"
        "custom=a=b=c\n"
        "empty=\n"
        "*threads\n"
        "1\tmain\n"
        "17\tBinder thread #1\n"
        "*methods\n"
        "0\tcom.example.Foo\trun\t()V\tFoo.java\n"
        "0x4\tcom.example.Foo\t<init>\t()V\tFoo.java\n"
        "4172c2a8\tjava/lang/String\tvalueOf\t(I)Ljava/lang/String;\t"
        "String.java\t1234\n"
        "0x10\tcom.example.Bar\tbaz\t(II)V\n"
        "0x14\tjust_a_function\n"
        "0x18\tcom.example.Baz\tBaz.java\t77\n"
        "0x1d\tcom.example.Low\tbits\t()V\tLow.java\n"
        "*end\n"
        "SLOW\x03\x00";

static void
is_method(const struct rec *r, size_t i, uint64_t id, const char *klass,
          const char *name, const char *sig, const char *file, long line,
          const char *what)
{
	const struct rec_method *m = &r->methods[i];

	if (i >= r->nmethods) {
		ok(false, "%s: method %zu reported", what, i);
		return;
	}
	is_u64(m->id, id, "%s: id", what);
	is_str(m->klass, klass, "%s: class", what);
	is_str(m->name, name, "%s: name", what);
	is_str(m->signature, sig, "%s: signature", what);
	if (file)
		is_str(m->file, file, "%s: file", what);
	else
		ok(m->file == NULL, "%s: no file", what);
	is_u64((uint64_t)m->line, (uint64_t)line, "%s: line", what);
}

static void
test_key_main(void)
{
	struct rec r;
	struct trace_sink s = rec_sink(&r);
	struct trace_key_info info;
	struct trace_error err = {0};
	bool okay;

	okay = trace_key_parse((const unsigned char *)key_main,
	                       sizeof(key_main) - 1, 0, &s, &info, &err);
	ok(okay && !trace_error_isset(&err), "key: parses");
	is_u64(info.version, 3, "key: version 3");
	ok(info.has_clock && info.clock == TRACE_CLOCK_DUAL, "key: clock=dual");
	ok(info.vm_art, "key: vm=art");
	ok(info.has_end, "key: *end found");
	is_u64(info.end, 426, "key: end is the byte after \"*end\\n\"");
	is_u64(r.nwarn, 0, "key: no warnings");
	is_u64(r.nbegin, 0, "key: the key parser does not call begin");

	/* Every option line is a property, in file order, the value being
	 * everything after the first '='. */
	is_u64(r.nprops, 7, "key: seven properties");
	if (r.nprops == 7) {
		is_str(r.pkey[0], "data-file-overflow", "key: prop 0 key");
		is_str(r.pval[0], "false", "key: prop 0 value");
		is_str(r.pkey[1], "clock", "key: prop 1 key");
		is_str(r.pval[1], "dual", "key: prop 1 value");
		is_str(r.pkey[2], "elapsed-time-usec", "key: prop 2 key");
		is_str(r.pval[2], "1234", "key: prop 2 value");
		is_str(r.pkey[3], "vm", "key: prop 3 key");
		is_str(r.pkey[4], "pid", "key: prop 4 key");
		is_str(r.pval[4], "42", "key: prop 4 value");
		is_str(r.pkey[5], "custom", "key: unknown key kept");
		is_str(r.pval[5], "a=b=c", "key: split on the first '=' only");
		is_str(r.pkey[6], "empty", "key: key with empty value");
		is_str(r.pval[6], "", "key: its value is empty");
	}

	is_u64(r.nthreads, 2, "key: two threads");
	if (r.nthreads == 2) {
		is_u64(r.ttid[0], 1, "key: thread 1 id");
		is_str(r.tname[0], "main", "key: thread 1 name");
		is_u64(r.ttid[1], 17, "key: thread 17 id");
		is_str(r.tname[1], "Binder thread #1",
		       "key: thread name with spaces kept whole");
	}

	is_u64(r.nmethods, 7, "key: seven methods");
	if (r.nmethods == 7) {
		is_method(&r, 0, 0, "com.example.Foo", "run", "()V", "Foo.java",
		          -1, "5-field, id \"0\"");
		is_method(&r, 1, 4, "com.example.Foo", "<init>", "()V",
		          "Foo.java", -1, "5-field, id \"0x4\"");
		is_method(&r, 2, 0x4172c2a8, "java/lang/String", "valueOf",
		          "(I)Ljava/lang/String;", "String.java", 1234,
		          "6-field, bare hex id");
		is_method(&r, 3, 0x10, "com.example.Bar", "baz", "(II)V", NULL,
		          -1, "4-field");
		is_u64(r.methods[4].id, 0x14, "2-field: id");
		is_str(r.methods[4].name, "just_a_function",
		       "2-field: the name");
		ok(!r.methods[4].klass || !*r.methods[4].klass,
		   "2-field: no class");
		ok(r.methods[4].file == NULL, "2-field: no file");
		is_u64((uint64_t)r.methods[4].line, (uint64_t)-1,
		       "2-field: no line");
		/* FORMAT.md 1.4: "4 (alt) | id, class, source file, line"
		 * when field 3 does not start with '('. */
		is_u64(r.methods[5].id, 0x18, "4-field alt: id");
		is_str(r.methods[5].klass, "com.example.Baz",
		       "4-field alt: class");
		is_str(r.methods[5].file, "Baz.java",
		       "4-field alt: field 2 is the source file");
		is_u64((uint64_t)r.methods[5].line, 77,
		       "4-field alt: field 3 is the line");
		is_u64(r.methods[6].id, 0x1c,
		       "id 0x1d is kept with its low two bits cleared");
	}
	ok(!r.overflow, "key: recorder did not overflow");
	rec_free(&r);
}

/*
 * CRLF lines (base 0):
 *   0 *version\r\n  10 3\r\n  13 clock=wall\r\n  25 vm=art\r\n
 *   33 *threads\r\n  43 1\tmain\r\n  51 *methods\r\n
 *   61 0x4\tA\tb\t()V\tA.java\r\n  81 *end\r\n  87 SLOW
 */
static void
test_key_crlf(void)
{
	static const char key[] = "*version\r\n"
	                          "3\r\n"
	                          "clock=wall\r\n"
	                          "vm=art\r\n"
	                          "*threads\r\n"
	                          "1\tmain\r\n"
	                          "*methods\r\n"
	                          "0x4\tA\tb\t()V\tA.java\r\n"
	                          "*end\r\n"
	                          "SLOW";
	struct rec r;
	struct trace_sink s = rec_sink(&r);
	struct trace_key_info info;
	struct trace_error err = {0};

	ok(trace_key_parse((const unsigned char *)key, sizeof(key) - 1, 0, &s,
	                   &info, &err),
	   "crlf: parses");
	is_u64(info.version, 3, "crlf: version 3 (CR stripped)");
	ok(info.has_clock && info.clock == TRACE_CLOCK_WALL,
	   "crlf: clock=wall (CR stripped)");
	ok(info.vm_art, "crlf: vm=art");
	ok(info.has_end, "crlf: *end found");
	is_u64(info.end, 87, "crlf: end is the byte after \"*end\\r\\n\"");
	is_u64(r.nprops, 2, "crlf: two properties");
	if (r.nprops == 2)
		is_str(r.pval[0], "wall", "crlf: value without CR");
	is_u64(r.nthreads, 1, "crlf: one thread");
	if (r.nthreads == 1)
		is_str(r.tname[0], "main", "crlf: thread name without CR");
	is_u64(r.nmethods, 1, "crlf: one method");
	if (r.nmethods == 1) {
		is_str(r.methods[0].file, "A.java",
		       "crlf: file name without CR");
		is_u64(r.methods[0].id, 4, "crlf: method id");
	}
	is_u64(r.nwarn, 0, "crlf: no warnings");
	rec_free(&r);
}

/*
 * Malformed lines, base 1000 (offsets in the text):
 *   0 *version  9 2  11 clock=thread-cpu  28 no equals sign (warning)
 *   43 *threads  52 garbage (warning: no tab)  60 abc\tname (warning:
 *   bad id)  69 *methods  78 zzz\tFoo\tbar\t()V (warning: bad id)
 *   94 0x20 (warning: one field)  99 *weird (warning: unknown section)
 *   106 stuff (skipped with its section)  112 *end  117 (end of text)
 */
static void
test_key_malformed(void)
{
	static const char key[] = "*version\n"
	                          "2\n"
	                          "clock=thread-cpu\n"
	                          "no equals sign\n"
	                          "*threads\n"
	                          "garbage\n"
	                          "abc\tname\n"
	                          "*methods\n"
	                          "zzz\tFoo\tbar\t()V\n"
	                          "0x20\n"
	                          "*weird\n"
	                          "stuff\n"
	                          "*end\n";
	static const uint64_t want[] = {1028, 1052, 1060, 1078, 1094, 1099};
	struct rec r;
	struct trace_sink s = rec_sink(&r);
	struct trace_key_info info;
	struct trace_error err = {0};
	size_t i;

	ok(trace_key_parse((const unsigned char *)key, sizeof(key) - 1, 1000,
	                   &s, &info, &err) &&
	           !trace_error_isset(&err),
	   "malformed: still parses, no error");
	is_u64(info.version, 2, "malformed: version 2");
	ok(info.has_clock && info.clock == TRACE_CLOCK_CPU,
	   "malformed: clock=thread-cpu");
	ok(!info.vm_art, "malformed: no vm=art");
	ok(info.has_end, "malformed: *end found");
	is_u64(info.end, 117, "malformed: end offset is relative to buf");
	is_u64(r.nthreads, 0, "malformed: no thread reported");
	is_u64(r.nmethods, 0, "malformed: no method reported");
	is_u64(r.nprops, 1, "malformed: one property (clock)");
	is_u64(r.nwarn, 6, "malformed: six warnings");
	for (i = 0; i < 6 && i < r.nwarn; i++)
		is_u64(r.woff[i], want[i], "malformed: warning %zu offset", i);
	rec_free(&r);
}

static void
test_key_clock_and_end(void)
{
	static const char no_clock[] = "*version\n2\nvm=dalvik\n*threads\n"
	                               "*methods\n*end\n";
	static const char bogus[] = "*version\n2\nclock=sundial\n*end\n";
	static const char cpu[] = "*version\n2\nclock=thread-cpu\n*end\n";
	/* No *end: 0 *version 9 3 11 clock=wall 22 *threads 31 1\tmain
	 * 38 *methods 47 0x4\tA\tb\t()V 56 (end of text). */
	static const char no_end[] = "*version\n3\nclock=wall\n*threads\n"
	                             "1\tmain\n*methods\n0x4\tA\tb\t()V\n";
	struct rec r;
	struct trace_sink s;
	struct trace_key_info info;
	struct trace_error err = {0};

	s = rec_sink(&r);
	ok(trace_key_parse((const unsigned char *)no_clock,
	                   sizeof(no_clock) - 1, 0, &s, &info, &err),
	   "no clock: parses");
	ok(!info.has_clock, "no clock: has_clock false");
	ok(!info.vm_art, "no clock: vm=dalvik is not art");
	is_u64(r.nwarn, 0, "no clock: empty sections are fine");
	rec_free(&r);

	s = rec_sink(&r);
	ok(trace_key_parse((const unsigned char *)bogus, sizeof(bogus) - 1, 0,
	                   &s, &info, &err),
	   "bogus clock: parses");
	ok(!info.has_clock, "bogus clock: has_clock false");
	is_u64(r.nwarn, 1, "bogus clock: one warning");
	if (r.nwarn == 1)
		is_u64(r.woff[0], 11, "bogus clock: at the clock line");
	rec_free(&r);

	s = rec_sink(&r);
	trace_key_parse((const unsigned char *)cpu, sizeof(cpu) - 1, 0, &s,
	                &info, &err);
	ok(info.has_clock && info.clock == TRACE_CLOCK_CPU, "clock=thread-cpu");
	rec_free(&r);

	s = rec_sink(&r);
	ok(trace_key_parse((const unsigned char *)no_end, sizeof(no_end) - 1, 0,
	                   &s, &info, &err) &&
	           !trace_error_isset(&err),
	   "no *end: parses");
	ok(!info.has_end, "no *end: has_end false");
	is_u64(r.nthreads, 1, "no *end: the thread is still reported");
	is_u64(r.nmethods, 1, "no *end: the method is still reported");
	rec_free(&r);
}

static void
test_key_errors(void)
{
	struct rec r;
	struct trace_sink s = rec_sink(&r);
	struct trace_key_info info;
	struct trace_error err = {0};

	ok(!trace_key_parse((const unsigned char *)"hello\n", 6, 500, &s, &info,
	                    &err),
	   "error: text without *version is refused");
	ok(trace_error_isset(&err) && err.offset == 500,
	   "error: ... at the start of the key (500)");
	trace_error_clear(&err);

	/* 0 *version 9 abc: the version line is not a number. */
	ok(!trace_key_parse((const unsigned char *)"*version\nabc\n*end\n", 18,
	                    500, &s, &info, &err),
	   "error: a non-numeric version is refused");
	ok(trace_error_isset(&err) && err.offset == 509,
	   "error: ... at the version line (509)");
	trace_error_clear(&err);
	rec_free(&r);
}

/* ---- V1 data parts ---------------------------------------------------- */

/*
 * Version 1, 9-byte records (u1 thread, u4 word, u4 time), data offset 16
 * (as createtesttrace writes it); the key names no clock, so the single
 * time is thread-cpu (what Traceview and perflib assume).
 *   tid 3    0x4172c2a8|0 (enter)   100
 *   tid 3    0x4172c2a9   (exit)    250
 *   tid 200  0x12|2 = 0x12 -> id 0x10, action 2 (unwind), 7
 */
static void
test_v1_version1(void)
{
	struct bytes d = {0};
	struct rec r;
	struct trace_sink s = rec_sink(&r);
	struct trace_key_info key = {.version = 1};
	struct trace_error err = {0};

	put_slow(&d, 1, 16, UINT64_C(0x0102030405060708));
	put_rec9(&d, 3, 0x4172c2a8, 100);
	put_rec9(&d, 3, 0x4172c2a9, 250);
	put_rec9(&d, 200, 0x12, 7);
	ok(trace_v1_read_data(d.b, d.n, 0, &key, &s, &err), "v1: reads");
	is_u64(r.nbegin, 1, "v1: begin once");
	ok(r.header.format == TRACE_FORMAT_V1, "v1: format V1");
	is_u64(r.header.version, 1, "v1: version 1");
	ok(r.header.clock == TRACE_CLOCK_CPU, "v1: no clock -> thread-cpu");
	is_u64(r.header.record_size, 9, "v1: record size 9");
	is_u64(r.header.data_offset, 16, "v1: data offset 16");
	is_u64(r.header.start_time, UINT64_C(0x0102030405060708),
	       "v1: start time");
	is_u64(r.header.time_bits, 32, "v1: 32-bit times");
	is_u64(r.nevents, 3, "v1: three events");
	is_event(&r, 0, 3, 0x4172c2a8, 0, 100, 0, "v1");
	is_event(&r, 1, 3, 0x4172c2a8, 1, 250, 0, "v1");
	is_event(&r, 2, 200, 0x10, 2, 7, 0, "v1 (u1 thread 200)");
	is_u64(r.nwarn, 0, "v1: no warnings");
	is_str(r.order, "BEEE", "v1: begin, then the events");
	rec_free(&r);
}

/*
 * Version 2, 10-byte records, data offset 32, clock=wall, base 500:
 *   tid 0xABCD (43981, above 32767: read unsigned)  0x8|0  1000
 *   tid 0xABCD  0x9 (exit)  1500
 *   tid 1       0xF (id 0xC, action 3)  2000
 *   4 more bytes: a torn record at 32 + 30 = 62, i.e. 562 in the file.
 */
static void
test_v1_version2(void)
{
	struct bytes d = {0};
	struct rec r;
	struct trace_sink s = rec_sink(&r);
	struct trace_key_info key = {
	        .version = 2, .has_clock = true, .clock = TRACE_CLOCK_WALL};
	struct trace_error err = {0};

	put_slow(&d, 2, 32, 0);
	pad_to(&d, 32);
	put_rec10(&d, 0xABCD, 0x8, 1000);
	put_rec10(&d, 0xABCD, 0x9, 1500);
	put_rec10(&d, 1, 0xF, 2000);
	put4(&d, 0x11223344);
	ok(trace_v1_read_data(d.b, d.n, 500, &key, &s, &err) &&
	           !trace_error_isset(&err),
	   "v2: reads despite the torn record");
	is_u64(r.header.version, 2, "v2: version 2");
	ok(r.header.clock == TRACE_CLOCK_WALL, "v2: clock wall");
	is_u64(r.header.record_size, 10, "v2: record size 10");
	is_u64(r.header.data_offset, 32, "v2: data offset 32");
	is_u64(r.nevents, 3, "v2: three whole records");
	is_event(&r, 0, 43981, 0x8, 0, 0, 1000, "v2 (u2 thread 0xABCD)");
	is_event(&r, 1, 43981, 0x8, 1, 0, 1500, "v2");
	is_event(&r, 2, 1, 0xC, 3, 0, 2000, "v2 (action 3)");
	is_u64(r.nwarn, 1, "v2: the torn record is a warning");
	if (r.nwarn == 1)
		is_u64(r.woff[0], 562, "v2: ... at the torn record (562)");
	rec_free(&r);

	/* Same layout, data offset 16, clock=thread-cpu: cpu gets the
	 * time, wall stays 0. */
	memset(&d, 0, sizeof(d));
	s = rec_sink(&r);
	key.clock = TRACE_CLOCK_CPU;
	put_slow(&d, 2, 16, 0);
	put_rec10(&d, 5, 0x20, 42);
	ok(trace_v1_read_data(d.b, d.n, 0, &key, &s, &err), "v2 cpu: reads");
	ok(r.header.clock == TRACE_CLOCK_CPU, "v2 cpu: clock thread-cpu");
	is_u64(r.nevents, 1, "v2 cpu: one event");
	is_event(&r, 0, 5, 0x20, 0, 42, 0, "v2 cpu");
	is_u64(r.nwarn, 0, "v2 cpu: no warnings");
	rec_free(&r);
}

/*
 * Version 3 with the record size from the header.
 *  a) size 14, data offset 32, clock=dual:
 *       tid 2  0x4|0  A 10  B 1000      tid 2  0x5  A 30  B 1100
 *     A is thread-cpu, B is wall.
 *  b) size 18, data offset 20 (honoured, not assumed 32); 4 junk bytes
 *     at the end of each record are skipped:
 *       tid 9  0x20|0  5  500  EE*4     tid 9  0x22 (unwind)  6  600  EE*4
 */
static void
test_v1_version3(void)
{
	struct bytes d = {0};
	struct rec r;
	struct trace_sink s = rec_sink(&r);
	struct trace_key_info key = {
	        .version = 3, .has_clock = true, .clock = TRACE_CLOCK_DUAL};
	struct trace_error err = {0};

	put_slow(&d, 3, 32, 99);
	put2(&d, 14);
	pad_to(&d, 32);
	put_rec14(&d, 2, 0x4, 10, 1000);
	put_rec14(&d, 2, 0x5, 30, 1100);
	ok(trace_v1_read_data(d.b, d.n, 0, &key, &s, &err), "v3/14: reads");
	is_u64(r.header.version, 3, "v3/14: version 3");
	ok(r.header.clock == TRACE_CLOCK_DUAL, "v3/14: clock dual");
	is_u64(r.header.record_size, 14, "v3/14: record size 14");
	is_u64(r.header.data_offset, 32, "v3/14: data offset 32");
	is_u64(r.header.start_time, 99, "v3/14: start time");
	is_u64(r.nevents, 2, "v3/14: two events");
	is_event(&r, 0, 2, 0x4, 0, 10, 1000, "v3/14");
	is_event(&r, 1, 2, 0x4, 1, 30, 1100, "v3/14");
	is_u64(r.nwarn, 0, "v3/14: no warnings");
	rec_free(&r);

	memset(&d, 0, sizeof(d));
	s = rec_sink(&r);
	put_slow(&d, 3, 20, 0);
	put2(&d, 18);
	pad_to(&d, 20);
	put_rec14(&d, 9, 0x20, 5, 500);
	put4(&d, 0xEEEEEEEE);
	put_rec14(&d, 9, 0x22, 6, 600);
	put4(&d, 0xEEEEEEEE);
	ok(trace_v1_read_data(d.b, d.n, 0, &key, &s, &err), "v3/18: reads");
	is_u64(r.header.record_size, 18, "v3/18: record size 18");
	is_u64(r.header.data_offset, 20, "v3/18: data offset 20");
	is_u64(r.nevents, 2, "v3/18: two events");
	is_event(&r, 0, 9, 0x20, 0, 5, 500, "v3/18");
	is_event(&r, 1, 9, 0x20, 2, 6, 600, "v3/18");
	is_u64(r.nwarn, 0, "v3/18: no warnings");
	rec_free(&r);
}

/* Header errors, base 1000: the error offset names the bad field. */
static void
test_v1_errors(void)
{
	struct bytes d;
	struct rec r;
	struct trace_sink s;
	struct trace_key_info key = {.version = 3};
	struct trace_error err = {0};

	/* Record size 0 (field at 16). */
	memset(&d, 0, sizeof(d));
	s = rec_sink(&r);
	put_slow(&d, 3, 32, 0);
	put2(&d, 0);
	pad_to(&d, 32 + 14);
	ok(!trace_v1_read_data(d.b, d.n, 1000, &key, &s, &err),
	   "v3 size 0: refused");
	ok(trace_error_isset(&err), "v3 size 0: error set");
	is_u64(err.offset, 1016, "v3 size 0: at the size field (1016)");
	is_u64(r.nbegin + r.nevents, 0, "v3 size 0: nothing reported");
	trace_error_clear(&err);
	rec_free(&r);

	/* Data offset 16 in a version-3 header: records would overlap the
	 * record-size field (bytes 16-17), so it is impossible. */
	memset(&d, 0, sizeof(d));
	s = rec_sink(&r);
	put_slow(&d, 3, 16, 0);
	put2(&d, 14);
	pad_to(&d, 16 + 28);
	ok(!trace_v1_read_data(d.b, d.n, 1000, &key, &s, &err),
	   "v3 offset 16: refused");
	is_u64(err.offset, 1006, "v3 offset 16: at the offset field (1006)");
	trace_error_clear(&err);
	rec_free(&r);

	/* Data offset beyond the end of the data (field at 6). */
	memset(&d, 0, sizeof(d));
	s = rec_sink(&r);
	key.version = 2;
	put_slow(&d, 2, 200, 0);
	pad_to(&d, 40);
	ok(!trace_v1_read_data(d.b, d.n, 1000, &key, &s, &err),
	   "v2 offset 200 of 40 bytes: refused");
	is_u64(err.offset, 1006, "v2 offset 200: at the offset field");
	trace_error_clear(&err);
	rec_free(&r);

	/* Bad magic (at 0) and an unknown version (at 4). */
	memset(&d, 0, sizeof(d));
	s = rec_sink(&r);
	putstr(&d, "SLOX");
	pad_to(&d, 32);
	ok(!trace_v1_read_data(d.b, d.n, 1000, &key, &s, &err) &&
	           err.offset == 1000,
	   "bad magic: refused at 1000");
	trace_error_clear(&err);
	memset(&d, 0, sizeof(d));
	put_slow(&d, 7, 32, 0);
	pad_to(&d, 32);
	ok(!trace_v1_read_data(d.b, d.n, 1000, &key, &s, &err) &&
	           err.offset == 1004,
	   "version 7: refused at 1004");
	trace_error_clear(&err);
	/* Fewer than 16 bytes. */
	ok(!trace_v1_read_data((const unsigned char *)"SLOW\x02", 5, 1000, &key,
	                       &s, &err) &&
	           trace_error_isset(&err),
	   "5-byte data part: refused");
	trace_error_clear(&err);
	rec_free(&r);
}

/* ---- streams ------------------------------------------------------------ */

static void
put_stream_header(struct bytes *o, unsigned version, unsigned size)
{
	put_slow(o, version, 32, 777);
	put2(o, size);
	pad_to(o, 32);
}

static void
put_thread_packet(struct bytes *o, unsigned tid, const char *name)
{
	put2(o, 0);
	put1(o, 2);
	put2(o, tid);
	put2(o, (unsigned)strlen(name));
	putstr(o, name);
}

static void
put_method_packet(struct bytes *o, const char *line)
{
	put2(o, 0);
	put1(o, 1);
	put2(o, (unsigned)strlen(line));
	putstr(o, line);
}

static void
put_summary(struct bytes *o, const char *text)
{
	put2(o, 0);
	put1(o, 3);
	put4(o, (uint32_t)strlen(text));
	putstr(o, text);
}

/*
 * 0xF3, 14-byte records.  Offsets:
 *   32 thread packet (7, "main"; 7 + 4 = 11 bytes)
 *   43 method packet "0x4\tcom.Foo\trun\t()V\tFoo.java\n" (5 + 29)
 *   77 record 7 0x4|0 cpu 10 wall 100
 *   91 method packet "0x8\tcom.Foo\tgo\t(I)V\tFoo.java\n" (5 + 29)
 *  125 record 7 0x8|0 15 120   139 record 7 0x9 20 130
 *  153 record 7 0x5 30 150
 *  167 summary (7 + 59): clock=dual, vm=art, thread 7 main, no methods
 * The summary is reported first (P P T), then begin, then the packets
 * and records in file order.
 */
static void
test_stream_f3(void)
{
	struct bytes d = {0};
	struct rec r;
	struct trace_sink s = rec_sink(&r);
	struct trace_error err = {0};

	put_stream_header(&d, 0xF3, 14);
	put_thread_packet(&d, 7, "main");
	put_method_packet(&d, "0x4\tcom.Foo\trun\t()V\tFoo.java\n");
	put_rec14(&d, 7, 0x4, 10, 100);
	put_method_packet(&d, "0x8\tcom.Foo\tgo\t(I)V\tFoo.java\n");
	put_rec14(&d, 7, 0x8, 15, 120);
	put_rec14(&d, 7, 0x9, 20, 130);
	put_rec14(&d, 7, 0x5, 30, 150);
	ok(d.n == 167, "f3: premise: the summary starts at 167");
	put_summary(&d, "*version\n3\nclock=dual\nvm=art\n*threads\n"
	                "7\tmain\n*methods\n*end\n");
	ok(trace_stream_read(d.b, d.n, NULL, 0, &s, &err) &&
	           !trace_error_isset(&err),
	   "f3: reads");
	is_str(r.order, "PPTBTMEMEEE",
	       "f3: summary, begin, then items in file order");
	ok(r.header.format == TRACE_FORMAT_V1_STREAM, "f3: format stream");
	is_u64(r.header.version, 3, "f3: version 3 (0xF3 & 0x0F)");
	ok(r.header.clock == TRACE_CLOCK_DUAL, "f3: clock dual");
	is_u64(r.header.record_size, 14, "f3: record size 14");
	is_u64(r.header.data_offset, 32, "f3: data offset 32");
	is_u64(r.header.start_time, 777, "f3: start time");
	ok(!r.header.incomplete, "f3: complete");
	is_u64(r.nwarn, 0, "f3: no warnings");
	is_u64(r.nprops, 2, "f3: two properties from the summary");
	if (r.nprops == 2) {
		is_str(r.pkey[0], "clock", "f3: summary property clock");
		is_str(r.pval[0], "dual", "f3: ... = dual");
	}
	is_u64(r.nthreads, 2, "f3: thread from summary and from packet");
	if (r.nthreads == 2) {
		is_u64(r.ttid[1], 7, "f3: packet thread id 7");
		is_str(r.tname[1], "main", "f3: packet thread name");
	}
	is_u64(r.nmethods, 2, "f3: two inline methods");
	if (r.nmethods == 2) {
		is_u64(r.methods[0].id, 4, "f3: method 0x4");
		is_str(r.methods[0].name, "run", "f3: method name run");
		is_str(r.methods[0].file, "Foo.java",
		       "f3: file without the newline");
		is_u64(r.methods[1].id, 8, "f3: method 0x8");
		is_str(r.methods[1].signature, "(I)V", "f3: signature");
	}
	is_u64(r.nevents, 4, "f3: four events");
	is_event(&r, 0, 7, 0x4, 0, 10, 100, "f3");
	is_event(&r, 1, 7, 0x8, 0, 15, 120, "f3");
	is_event(&r, 2, 7, 0x8, 1, 20, 130, "f3");
	is_event(&r, 3, 7, 0x4, 1, 30, 150, "f3");
	rec_free(&r);
}

/*
 * 0xF2 whose header says record size 10 but whose records are 14 bytes
 * (ART 6 to 13: the last 4 bytes are left over, here zero).  Stride 10
 * would land in the middle of the first record and read its zero tail
 * as an escape with opcode 0; stride 14 walks cleanly to the summary.
 *   32 thread packet (11)  43 method packet (34)
 *   77 record 7 0x4|0 100 [0 0 0 0]  91 record 7 0x5 250 [0 0 0 0]
 *  105 summary: version 2, clock=wall
 * Single clock wall: the one time field is wall, cpu stays 0.
 */
static void
put_f2_body(struct bytes *d)
{
	put_stream_header(d, 0xF2, 10);
	put_thread_packet(d, 7, "main");
	put_method_packet(d, "0x4\tcom.Foo\trun\t()V\tFoo.java\n");
	put_rec14(d, 7, 0x4, 100, 0);
	put_rec14(d, 7, 0x5, 250, 0);
}

static void
test_stream_f2_quirk(void)
{
	struct bytes d = {0};
	struct rec r;
	struct trace_sink s = rec_sink(&r);
	struct trace_error err = {0};
	static const char sec[] = "*version\n2\nclock=wall\nvm=art\n"
	                          "*threads\n7\tmain\n*methods\n*end\n";

	put_f2_body(&d);
	ok(d.n == 105, "f2: premise: the summary starts at 105");
	put_summary(&d, sec);
	ok(trace_stream_read(d.b, d.n, NULL, 0, &s, &err), "f2: reads");
	is_u64(r.header.record_size, 14, "f2: stride 14 chosen");
	is_u64(r.header.version, 2, "f2: version 2");
	ok(r.header.clock == TRACE_CLOCK_WALL, "f2: clock wall");
	ok(!r.header.incomplete, "f2: complete");
	is_u64(r.nwarn, 1, "f2: one warning about the stride");
	is_u64(r.nevents, 2, "f2: two events");
	is_event(&r, 0, 7, 0x4, 0, 0, 100, "f2");
	is_event(&r, 1, 7, 0x4, 1, 0, 250, "f2");
	rec_free(&r);

	/* The same stream without its summary, with a .sec side file
	 * (ART 6 and 7): the options come from the side file and the trace
	 * is complete. */
	memset(&d, 0, sizeof(d));
	s = rec_sink(&r);
	put_f2_body(&d);
	ok(trace_stream_read(d.b, d.n, (const unsigned char *)sec,
	                     sizeof(sec) - 1, &s, &err),
	   "f2 + .sec: reads");
	ok(!r.header.incomplete, "f2 + .sec: complete");
	ok(r.header.clock == TRACE_CLOCK_WALL, "f2 + .sec: clock from .sec");
	is_u64(r.header.record_size, 14, "f2 + .sec: stride 14");
	is_u64(r.nprops, 2, "f2 + .sec: two properties from .sec");
	is_u64(r.nevents, 2, "f2 + .sec: two events");
	is_event(&r, 1, 7, 0x4, 1, 0, 250, "f2 + .sec");
	rec_free(&r);
}

/*
 * 0xF3 cut off before its summary (the app was killed): the events read
 * so far are kept, the clock is inferred from version 3 (dual), and the
 * header says incomplete.
 *  a) cut inside a record: thread, method, three records, then 6 of the
 *     14 bytes of a fourth;
 *  b) cut cleanly after the third record.
 */
static void
test_stream_cut(void)
{
	struct bytes d = {0};
	struct rec r;
	struct trace_sink s = rec_sink(&r);
	struct trace_error err = {0};

	put_stream_header(&d, 0xF3, 14);
	put_thread_packet(&d, 3, "Signal Catcher");
	put_method_packet(&d, "0x4\tcom.Foo\trun\t()V\tFoo.java\n");
	put_rec14(&d, 3, 0x4, 0, 50);
	put_rec14(&d, 3, 0x4, 5, 60);
	put_rec14(&d, 3, 0x5, 9, 70);
	put2(&d, 3);
	put4(&d, 0x5);
	ok(trace_stream_read(d.b, d.n, NULL, 0, &s, &err) &&
	           !trace_error_isset(&err),
	   "cut: reads");
	ok(r.header.incomplete, "cut: incomplete");
	ok(r.header.clock == TRACE_CLOCK_DUAL, "cut: version 3 -> dual");
	is_u64(r.nprops, 0, "cut: no properties without a summary");
	ok(r.nwarn >= 1, "cut: warned (%zu warnings)", r.nwarn);
	is_u64(r.nthreads, 1, "cut: the thread packet kept");
	if (r.nthreads == 1)
		is_str(r.tname[0], "Signal Catcher",
		       "cut: thread name with a space");
	is_u64(r.nevents, 3, "cut: three whole records kept");
	is_event(&r, 0, 3, 0x4, 0, 0, 50, "cut");
	is_event(&r, 2, 3, 0x4, 1, 9, 70, "cut");
	rec_free(&r);

	d.n -= 6; /* drop the partial record: a clean cut */
	s = rec_sink(&r);
	ok(trace_stream_read(d.b, d.n, NULL, 0, &s, &err), "clean cut: reads");
	ok(r.header.incomplete, "clean cut: incomplete");
	is_u64(r.nwarn, 1, "clean cut: one warning (no summary)");
	is_u64(r.nevents, 3, "clean cut: three events");
	rec_free(&r);
}

int
main(void)
{
	test_parse_id();
	test_method_id();
	test_key_main();
	test_key_crlf();
	test_key_malformed();
	test_key_clock_and_end();
	test_key_errors();
	test_v1_version1();
	test_v1_version2();
	test_v1_version3();
	test_v1_errors();
	test_stream_f3();
	test_stream_f2_quirk();
	test_stream_cut();
	return done_testing();
}
