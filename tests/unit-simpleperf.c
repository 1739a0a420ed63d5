/*
 * unit-simpleperf: the simpleperf reader on a recording encoded by hand
 * here (an encoder of a few lines, independent of the reader), every
 * number worked out by hand below; then cut and damaged copies, each
 * read up to the damage with a warning or refused with its offset.
 *
 * With --write DIR it writes the recording into DIR as simpleperf.trace
 * instead (tests/fuzz-corpus has it as simpleperf-small.trace); with
 * --write-distinct FILE N, a recording of N samples whose callchains
 * (30 entries) are all distinct, as a real recording's nearly are.
 *
 * The recording (times in ms, every cpu-clock sample worth 1 ms):
 *   event types cpu-clock, sched:sched_switch; app com.example.app,
 *   Android 33, build user, off-cpu traced; lost: 2 of 7.
 *   files  1 framework.jar [Foo.work, Foo.main]   java
 *          2 /apex/libc.so [memcpy]               native
 *          3 [JIT app cache] [Foo.work]           java
 *          4 [kernel.kallsyms] [schedule]         kernel
 *   samples, leaf first, in file order (times unsorted):
 *     S1 t=3   tid 10 cpu-clock  memcpy(2:0) Foo.work(1:0) Foo.main(1:1)
 *     S2 t=1   tid 10 cpu-clock  Foo.work(3:0, JIT) Foo.main(1:1)
 *     S3 t=2   tid 10 cpu-clock  2:-1 at 0x1a2b, Foo.main(1:1)
 *     S4 t=1.5 tid 11 cpu-clock  schedule(4:0) Foo.main(1:1)
 *     S5 t=2.5 tid 10 sched_switch (count 1)  schedule(4:0) Foo.main
 *   threads 10 "main" and 11 "worker" of process 10, after the samples.
 * cpu-clock (the default): Foo.main self 0, total 4 samples (4 ms);
 *   Foo.work (jar and JIT: one method) self 1, total 2; memcpy 1, 1;
 *   libc.so+0x1a2b 1, 1; schedule 1, 1.  Thread 10 in time order: S2,
 *   S3, S1, each from the end of the one before (no gap): one call of
 *   Foo.main lasting 3 ms (its calls are 1), two of Foo.work.
 * --java-only: memcpy's sample goes to Foo.work (self 2), libc.so's and
 *   schedule's to Foo.main (self 2, total 4).
 * all: 5 samples; schedule self 2; Foo.main total 5.
 * Threads: 10: 3 cpu-clock, 1 sched_switch; 11: 1 and 0.
 */
#include "config.h"

#include "model/builder.h"
#include "model/calltree.h"
#include "query/callpath.h"
#include "query/method-name.h"
#include "query/profile.h"
#include "query/summary.h"
#include "read/load.h"
#include "proto-write.h"
#include "tap.h"
#include "util/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
put_str(struct buf *b, unsigned field, const char *s)
{
	put_bytes(b, field, s, strlen(s));
}

/* Record field `field` holding m, framed by its u32 size. */
static void
put_record(struct buf *b, unsigned field, struct buf *m)
{
	struct buf r = {0};
	size_t i;

	put_msg(&r, field, m);
	for (i = 0; i < 4; i++)
		put_byte(b, (unsigned char)(r.n >> (8 * i)));
	for (i = 0; i < r.n; i++)
		put_byte(b, r.p[i]);
	free(r.p);
}

struct entry {
	uint32_t file;
	int32_t symbol;
	uint64_t vaddr;
	int exec; /* -1: none */
};

static void
put_sample(struct buf *b, uint64_t time, uint32_t tid, uint64_t count,
           uint32_t type, const struct entry *e, size_t n)
{
	struct buf m = {0}, c = {0};
	size_t i;

	put_int(&m, 1, (int64_t)time);
	put_int(&m, 2, tid);
	for (i = 0; i < n; i++) {
		put_int(&c, 1, (int64_t)e[i].vaddr);
		put_int(&c, 2, e[i].file);
		put_int(&c, 3, e[i].symbol); /* -1: ten bytes */
		if (e[i].exec >= 0)
			put_int(&c, 4, e[i].exec);
		put_msg(&m, 3, &c);
	}
	put_int(&m, 4, (int64_t)count);
	if (type)
		put_int(&m, 5, type);
	put_record(b, 1, &m);
}

static void
put_file(struct buf *b, uint32_t id, const char *path,
         const char *const *symbols, size_t n)
{
	struct buf m = {0};
	size_t i;

	put_int(&m, 1, id);
	put_str(&m, 2, path);
	for (i = 0; i < n; i++)
		put_str(&m, 3, symbols[i]);
	put_record(b, 3, &m);
}

static void
put_thread(struct buf *b, uint32_t tid, uint32_t pid, const char *name)
{
	struct buf m = {0};

	put_int(&m, 1, tid);
	put_int(&m, 2, pid);
	put_str(&m, 3, name);
	put_record(b, 4, &m);
}

/* The file's magic: "SIMPLEPERF", version 1 as a u16 LE. */
static void
put_magic(struct buf *b)
{
	static const unsigned char magic[] = "SIMPLEPERF\x01";
	size_t i;

	for (i = 0; i < 12; i++)
		put_byte(b, magic[i]);
}

/* The magic and a meta record of one event type, cpu-clock. */
static void
put_start(struct buf *b)
{
	struct buf m = {0};

	put_magic(b);
	put_str(&m, 1, "cpu-clock");
	put_record(b, 5, &m);
}

/* The record of size 0 that ends the records. */
static void
put_end(struct buf *b)
{
	size_t i;

	for (i = 0; i < 4; i++)
		put_byte(b, 0);
}

#define MS 1000000u

static struct buf
recording(void)
{
	static const struct entry s1[] = {{2, 0, 0x10, -1},
	                                  {1, 0, 0x20, -1},
	                                  {1, 1, 0x30, -1}},
	                          s2[] = {{3, 0, 0x40, 2}, {1, 1, 0x30, -1}},
	                          s3[] = {{2, -1, 0x1a2b, -1},
	                                  {1, 1, 0x30, -1}},
	                          s4[] = {{4, 0, 0x50, -1}, {1, 1, 0x30, -1}};
	static const char *const jar[] = {"Foo.work", "Foo.main"};
	static const char *const libc[] = {"memcpy"};
	static const char *const jit[] = {"Foo.work"};
	static const char *const kernel[] = {"schedule"};
	struct buf b = {0}, m = {0};

	put_magic(&b);
	put_str(&m, 1, "cpu-clock");
	put_str(&m, 1, "sched:sched_switch");
	put_str(&m, 2, "com.example.app");
	put_str(&m, 3, "debuggable");
	put_str(&m, 4, "33");
	put_str(&m, 5, "user");
	put_int(&m, 6, 1);
	put_record(&b, 5, &m);
	put_sample(&b, 3 * MS, 10, MS, 0, s1, 3);
	put_sample(&b, 1 * MS, 10, MS, 0, s2, 2);
	put_sample(&b, 2 * MS, 10, MS, 0, s3, 2);
	put_sample(&b, 3 * MS / 2, 11, MS, 0, s4, 2);
	put_sample(&b, 5 * MS / 2, 10, 1, 1, s4, 2);
	put_int(&m, 1, 5);
	put_int(&m, 2, 2);
	put_record(&b, 2, &m);
	put_file(&b, 1, "/system/framework/framework.jar", jar, 2);
	put_file(&b, 2, "/apex/com.android.runtime/lib64/bionic/libc.so", libc,
	         1);
	put_file(&b, 3, "[JIT app cache]", jit, 1);
	put_file(&b, 4, "[kernel.kallsyms]", kernel, 1);
	put_thread(&b, 10, 10, "main");
	put_thread(&b, 11, 10, "worker");
	put_end(&b);
	return b;
}

/* The recording at p as a model, or when `sums` as report loads it: for
 * its sums, its events summed as they come. */
static struct calltree *
load_as(const unsigned char *p, size_t n, const char *type, bool java_only,
        bool sums, struct trace_error *err)
{
	struct calltree_builder *builder = calltree_builder_new("test.trace");
	struct trace_sink sink = *calltree_builder_sink(builder);

	builder->sums_only = sums;
	sink.sample_type = type;
	sink.java_only = java_only;
	if (!trace_load_bytes(p, n, &sink, err)) {
		calltree_builder_free(builder);
		return NULL;
	}
	return calltree_builder_finish(builder);
}

static struct calltree *
load(const unsigned char *p, size_t n, const char *type, bool java_only,
     struct trace_error *err)
{
	return load_as(p, n, type, java_only, false, err);
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

struct expect {
	const char *name;
	uint64_t self, total; /* samples */
};

/* The numbers of one load (the model, or the sums as report loads). */
static void
check_tree(struct calltree *tree, const char *label, const struct expect *want,
           size_t n)
{
	struct profile p = {0};
	struct scope scope;
	size_t i, used = 0;

	is_u64(tree->header.format, TRACE_FORMAT_SIMPLEPERF,
	       "%s: format simpleperf", label);
	ok(tree->header.sample_weight && tree->has_clock[CLOCK_CPU] &&
	           tree->has_clock[CLOCK_WALL],
	   "%s: samples on the cpu clock, time on the wall", label);
	scope_init_all(&scope, tree);
	profile_compute(&p, tree, &scope);
	for (i = 0; i < n; i++) {
		long m = method_named(tree, want[i].name);

		if (!ok(m >= 0 && profile_row_used(&p, (size_t)m),
		        "%s: %s is there", label, want[i].name))
			continue;
		/* Each sample counts the sampling period. */
		is_u64(p.rows[m].excl[CLOCK_CPU],
		       want[i].self * tree->header.sample_weight,
		       "%s: self samples of %s", label, want[i].name);
		is_u64(p.rows[m].incl[CLOCK_CPU],
		       want[i].total * tree->header.sample_weight,
		       "%s: total samples of %s", label, want[i].name);
	}
	for (i = 0; i < tree->nmethods; i++)
		used += profile_row_used(&p, i);
	is_u64(used, n, "%s: no other method", label);
	profile_done(&p);
	scope_done(&scope);
}

/* The recording's numbers as a model and as report loads it (its events
 * summed as they come, with no model). */
static void
check(const struct buf *b, const char *type, bool java_only, const char *label,
      const struct expect *want, size_t n)
{
	struct trace_error err = {0};
	struct calltree *tree;
	char *as;
	int sums;

	for (sums = 0; sums < 2; sums++) {
		tree = load_as(b->p, b->n, type, java_only, sums, &err);
		as = xasprintf("%s%s", label, sums ? ", as report" : "");
		if (!ok(tree != NULL, "%s: loads", as)) {
			printf("#   %s\n", err.message);
			trace_error_clear(&err);
			free(as);
			continue;
		}
		ok(!tree->sums == !sums, "%s: %s", as,
		   sums ? "summed, no model" : "a model");
		check_tree(tree, as, want, n);
		calltree_free(tree);
		free(as);
	}
}

static void
test_numbers(const struct buf *b)
{
	static const struct expect cpu[] = {
	        {"Foo.main", 0, 4},       {"Foo.work", 1, 2}, {"memcpy", 1, 1},
	        {"libc.so+0x1a2b", 1, 1}, {"schedule", 1, 1},
	};
	static const struct expect java[] = {
	        {"Foo.main", 2, 4},
	        {"Foo.work", 2, 2},
	};
	static const struct expect all[] = {
	        {"Foo.main", 0, 5},       {"Foo.work", 1, 2}, {"memcpy", 1, 1},
	        {"libc.so+0x1a2b", 1, 1}, {"schedule", 2, 2},
	};
	static const struct expect off[] = {
	        {"Foo.main", 0, 1},
	        {"schedule", 1, 1},
	};

	check(b, NULL, false, "default", cpu, 5);
	check(b, "cpu-clock", false, "cpu-clock by name", cpu, 5);
	check(b, "0", false, "cpu-clock by index", cpu, 5);
	check(b, NULL, true, "--java-only", java, 2);
	check(b, "all", false, "all", all, 5);
	check(b, "sched:sched_switch", false, "sched_switch", off, 2);
}

/*
 * A method first seen in native code and then in Java code is Java from
 * then on, and --java-only keeps it in the samples read after: three
 * cpu-clock samples of thread 10, leaf first,
 *   S1 t=1  Foo.bar(libfoo.so:0) Foo.main(foo.jar:1)   Foo.bar native yet
 *   S2 t=2  Foo.bar(foo.jar:0)   Foo.main(foo.jar:1)   Foo.bar now Java
 *   S3 t=3  S1's bytes again                           Foo.bar Java
 * --java-only: Foo.bar self 2 (S2, S3), Foo.main self 1 (S1), total 3;
 * every frame: Foo.bar self 3.  S3 repeats S1's bytes, so a reader that
 * reads equal callchains once must still see Foo.bar's new kind.
 */
static void
test_kinds(void)
{
	static const struct entry s1[] = {{1, 0, 0x10, -1}, {2, 1, 0x20, -1}},
	                          s2[] = {{2, 0, 0x30, -1}, {2, 1, 0x20, -1}};
	static const char *const lib[] = {"Foo.bar"};
	static const char *const jar[] = {"Foo.bar", "Foo.main"};
	static const struct expect java[] = {{"Foo.bar", 2, 2},
	                                     {"Foo.main", 1, 3}};
	static const struct expect every[] = {{"Foo.bar", 3, 3},
	                                      {"Foo.main", 0, 3}};
	struct buf b = {0};

	put_start(&b);
	put_sample(&b, 1 * MS, 10, MS, 0, s1, 2);
	put_sample(&b, 2 * MS, 10, MS, 0, s2, 2);
	put_sample(&b, 3 * MS, 10, MS, 0, s1, 2);
	put_file(&b, 1, "/system/lib64/libfoo.so", lib, 1);
	put_file(&b, 2, "/system/framework/foo.jar", jar, 2);
	put_thread(&b, 10, 10, "main");
	put_end(&b);
	check(&b, NULL, true, "kinds, --java-only", java, 2);
	check(&b, NULL, false, "kinds, every frame", every, 2);
	free(b.p);
}

/* The start of a recording of one event type, cpu-clock. */
/*
 * Callchains alike but for their middle: the same length, the same first
 * 24 bytes (the leaf's entry, 24 bytes long: an address and symbol -1
 * of ten bytes each) and the same last 8 (the root's entry), A.a or A.b
 * in between.  Three cpu-clock samples of thread 10, leaf first,
 *   S1  foo.jar+0xfffffffffffffff0  A.a  A.c
 *   S2  foo.jar+0xfffffffffffffff0  A.b  A.c
 *   S3  S1's bytes again
 * so a reader that knew a callchain by a part of its bytes would give S2
 * S1's frames: A.a total 2, A.b total 1, A.c total 3, the leaf self 3.
 */
static void
test_lookalikes(void)
{
	static const struct entry s1[] = {{1, -1, UINT64_C(0xfffffffffffffff0),
	                                   -1},
	                                  {1, 0, 0x20, -1},
	                                  {1, 2, 0x30, -1}},
	                          s2[] = {{1, -1, UINT64_C(0xfffffffffffffff0),
	                                   -1},
	                                  {1, 1, 0x20, -1},
	                                  {1, 2, 0x30, -1}};
	static const char *const jar[] = {"A.a", "A.b", "A.c"};
	static const struct expect want[] = {
	        {"foo.jar+0xfffffffffffffff0", 3, 3},
	        {"A.a", 0, 2},
	        {"A.b", 0, 1},
	        {"A.c", 0, 3},
	};
	struct buf b = {0};

	put_start(&b);
	put_sample(&b, 1 * MS, 10, MS, 0, s1, 3);
	put_sample(&b, 2 * MS, 10, MS, 0, s2, 3);
	put_sample(&b, 3 * MS, 10, MS, 0, s1, 3);
	put_file(&b, 1, "/system/framework/foo.jar", jar, 3);
	put_thread(&b, 10, 10, "main");
	put_end(&b);
	check(&b, NULL, false, "lookalikes", want, 4);
	free(b.p);
}

/*
 * An entry met again in another callchain is the same method, with its
 * kind as it is now; an unknown symbol is named by its file and address,
 * whatever else its entry's bytes hold.  Cpu-clock samples of thread
 * 10, leaf first:
 *   S1  Foo.bar(libfoo.so:0)  Foo.main(foo.jar:1)    Foo.bar native yet
 *   S2  Foo.bar(foo.jar:0)    Foo.x    Foo.main      Foo.bar now Java
 *   S3  S1's leaf entry       Foo.y    Foo.main      Foo.bar Java
 *   S4  libfoo.so:-1 at 0x99  Foo.main
 *   S5  foo.jar:-1 at 0x99    Foo.main               another file
 *   S6  libfoo.so:-1 at 0x99, execution type 0 written out, Foo.x,
 *       Foo.main                                     S4's method
 * --java-only: Foo.bar self 2 (S2, S3; S1's sample went to Foo.main),
 * Foo.main self 2 (S1, S4), foo.jar+0x99 self 1, Foo.x total 2 (S2, S6:
 * self 1), Foo.y total 1; every frame: Foo.bar self 3, libfoo.so+0x99
 * self 2, foo.jar+0x99 self 1, Foo.main total 6.
 */
static void
test_recall(void)
{
	static const struct entry
	        s1[] = {{1, 0, 0x10, -1}, {2, 1, 0x20, -1}},
	        s2[] = {{2, 0, 0x30, -1}, {2, 2, 0x40, -1}, {2, 1, 0x20, -1}},
	        s3[] = {{1, 0, 0x10, -1}, {2, 3, 0x50, -1}, {2, 1, 0x20, -1}},
	        s4[] = {{1, -1, 0x99, -1}, {2, 1, 0x20, -1}},
	        s5[] = {{2, -1, 0x99, -1}, {2, 1, 0x20, -1}},
	        s6[] = {{1, -1, 0x99, 0}, {2, 2, 0x40, -1}, {2, 1, 0x20, -1}};
	static const char *const lib[] = {"Foo.bar"};
	static const char *const jar[] = {"Foo.bar", "Foo.main", "Foo.x",
	                                  "Foo.y"};
	static const struct expect java[] = {
	        {"Foo.bar", 2, 2}, {"Foo.main", 2, 6},     {"Foo.x", 1, 2},
	        {"Foo.y", 0, 1},   {"foo.jar+0x99", 1, 1},
	};
	static const struct expect every[] = {
	        {"Foo.bar", 3, 3},        {"Foo.main", 0, 6},
	        {"Foo.x", 0, 2},          {"Foo.y", 0, 1},
	        {"libfoo.so+0x99", 2, 2}, {"foo.jar+0x99", 1, 1},
	};
	struct buf b = {0};

	put_start(&b);
	put_sample(&b, 1 * MS, 10, MS, 0, s1, 2);
	put_sample(&b, 2 * MS, 10, MS, 0, s2, 3);
	put_sample(&b, 3 * MS, 10, MS, 0, s3, 3);
	put_sample(&b, 4 * MS, 10, MS, 0, s4, 2);
	put_sample(&b, 5 * MS, 10, MS, 0, s5, 2);
	put_sample(&b, 6 * MS, 10, MS, 0, s6, 3);
	put_file(&b, 1, "/system/lib64/libfoo.so", lib, 1);
	put_file(&b, 2, "/system/framework/foo.jar", jar, 4);
	put_thread(&b, 10, 10, "main");
	put_end(&b);
	check(&b, NULL, true, "recall, --java-only", java, 5);
	check(&b, NULL, false, "recall, every frame", every, 6);
	free(b.p);
}

/*
 * The samples of a thread in time order, those of one time in file
 * order, whatever the threads between them: cpu-clock samples, in file
 * order, of thread 10 at 2 ms (Foo.a), 1 ms (Foo.b), of thread 11 at
 * 1 ms (Foo.x), of thread 10 at 2 ms (Foo.c), and of thread 9 at 3 ms
 * (Foo.x).  Thread 10's calls: Foo.b, Foo.a, Foo.c.  Their event counts
 * are 1, 5, 3, 9 and 7 ms: the period is the median, 5 ms.
 */
static void
test_order(void)
{
	static const struct entry a[] = {{1, 0, 0x10, -1}},
	                          bb[] = {{1, 1, 0x10, -1}},
	                          c[] = {{1, 2, 0x10, -1}},
	                          x[] = {{1, 3, 0x10, -1}};
	static const char *const jar[] = {"Foo.a", "Foo.b", "Foo.c", "Foo.x"};
	static const char *const want[] = {"Foo.b", "Foo.a", "Foo.c"};
	struct trace_error err = {0};
	struct calltree *tree;
	struct buf b = {0};
	size_t i;
	long t;

	put_start(&b);
	put_sample(&b, 2 * MS, 10, 1 * MS, 0, a, 1);
	put_sample(&b, 1 * MS, 10, 5 * MS, 0, bb, 1);
	put_sample(&b, 1 * MS, 11, 3 * MS, 0, x, 1);
	put_sample(&b, 2 * MS, 10, 9 * MS, 0, c, 1);
	put_sample(&b, 3 * MS, 9, 7 * MS, 0, x, 1);
	put_file(&b, 1, "/system/framework/foo.jar", jar, 4);
	put_end(&b);
	tree = load(b.p, b.n, NULL, false, &err);
	free(b.p);
	if (!ok(tree != NULL, "order: loads"))
		return;
	t = calltree_find_thread(tree, 10);
	if (ok(t >= 0 && tree->threads[t].ncalls == 3,
	       "order: thread 10 has three calls")) {
		size_t first = tree->threads[t].first_call;

		for (i = 0; i < 3; i++)
			is_u64((uint64_t)calltree_method(tree, first + i),
			       (uint64_t)method_named(tree, want[i]),
			       "order: thread 10's call %zu is %s", i, want[i]);
	}
	is_u64(tree->header.sample_weight, 5000,
	       "order: the period is the median event count, 5 ms");
	calltree_free(tree);
}

/*
 * A thread not sampled for a while: two cpu-clock samples of thread 10,
 * Foo.main at t=1 and t=5 ms, each 1 ms.  The chart keeps the gap (two
 * calls, at 0 and 4 ms), but the time between them is nobody's, as
 * Android Studio and the Firefox Profiler leave it empty: the thread's
 * whole is its 2 ms of samples on both clocks, and its call tree has no
 * "(outside any method)" node.
 */
static void
test_gaps(void)
{
	static const struct entry s[] = {{1, 0, 0x10, -1}};
	static const char *const jar[] = {"Foo.main"};
	struct buf b = {0};
	struct trace_error err = {0};
	struct calltree *tree;
	struct scope scope;
	struct callpath cp = {0};
	size_t i, outside = 0;
	long t;

	put_start(&b);
	put_sample(&b, 1 * MS, 10, MS, 0, s, 1);
	put_sample(&b, 5 * MS, 10, MS, 0, s, 1);
	put_file(&b, 1, "/system/framework/foo.jar", jar, 1);
	put_thread(&b, 10, 10, "main");
	put_end(&b);
	tree = load(b.p, b.n, NULL, false, &err);
	free(b.p);
	if (!ok(tree != NULL, "gaps: loads"))
		return;
	t = calltree_find_thread(tree, 10);
	if (ok(t >= 0 && tree->threads[t].ncalls == 2,
	       "gaps: two calls of Foo.main, the gap between them")) {
		size_t c = tree->threads[t].first_call;

		is_u64(calltree_start(tree, c + 1, CLOCK_WALL), 4000,
		       "gaps: the second call starts at 4 ms");
	}
	scope_init_all(&scope, tree);
	is_u64(scope_total(&scope, tree, CLOCK_WALL), 2000,
	       "gaps: the wall clock's whole is the samples' 2 ms");
	is_u64(scope_total(&scope, tree, CLOCK_CPU), 2000,
	       "gaps: the cpu clock's whole is 2 samples of 1 ms");
	callpath_build_whole(&cp, tree, &scope, true);
	for (i = 0; i < cp.count; i++)
		outside += cp.nodes[i].method == CALLPATH_OUTSIDE;
	is_u64(outside, 0, "gaps: no time outside any method");
	callpath_done(&cp);
	scope_done(&scope);
	calltree_free(tree);
}

/* Thread 10's calls on cpu-clock: one of Foo.main, 3 ms long. */
static void
test_calls(const struct buf *b)
{
	struct trace_error err = {0};
	struct calltree *tree = load(b->p, b->n, NULL, false, &err);
	long t, main_m, work_m;
	size_t c, mains = 0, works = 0;
	uint64_t main_wall = 0, main_start = 1;

	if (!ok(tree != NULL, "calls: loads"))
		return;
	t = calltree_find_thread(tree, 10);
	main_m = method_named(tree, "Foo.main");
	work_m = method_named(tree, "Foo.work");
	ok(t >= 0 && main_m >= 0 && work_m >= 0, "calls: thread and methods");
	if (t >= 0) {
		const struct tt_thread *th = &tree->threads[t];

		is_str(th->name, "main", "calls: thread 10 is named");
		for (c = th->first_call; c < th->first_call + th->ncalls; c++) {
			uint32_t m = calltree_method(tree, c);

			if ((long)m == main_m) {
				mains++;
				main_wall =
				        calltree_duration(tree, c, CLOCK_WALL);
				main_start =
				        calltree_start(tree, c, CLOCK_WALL);
			}
			works += (long)m == work_m;
		}
	}
	is_u64(tree->header.sample_weight, 1000,
	       "calls: a sample counts the period, the median event count");
	is_u64(tree->sample_interval, 1000, "calls: sampled every 1000 us");
	is_u64(mains, 1, "calls: consecutive samples make one call of main");
	is_u64(main_wall, 3000, "calls: main lasts 3 ms of wall time");
	is_u64(main_start, 0, "calls: from the recording's first sample");
	is_u64(works, 2, "calls: two calls of Foo.work, libc.so's between");
	is_str(calltree_property(tree, "simpleperf-lost"), "2 of 7",
	       "lost samples in a property");
	calltree_free(tree);
}

/* Every cut: read up to it with a warning, or refused with an offset;
 * a cut after the first sample's record keeps a sample. */
static void
test_cuts(const struct buf *b)
{
	size_t n, bad = 0, kept = 0;

	for (n = 0; n < b->n; n++) {
		struct trace_error err = {0};
		struct calltree *tree = load(b->p, n, NULL, false, &err);

		if (tree) {
			kept++;
			if (!tree->header.incomplete || !tree->nwarnings)
				bad++;
			calltree_free(tree);
		} else if (!err.message) {
			bad++;
		}
		trace_error_clear(&err);
	}
	is_u64(bad, 0, "cuts: each read with a warning or refused");
	ok(kept > b->n / 2, "cuts: most cuts keep samples (%zu of %zu)", kept,
	   b->n);
}

static void
test_bad(const struct buf *b)
{
	struct buf c = {0};
	struct trace_error err = {0};
	struct calltree *tree;

	UTIL_GROW(c.p, c.cap, b->n);
	memcpy(c.p, b->p, b->n);
	c.n = b->n;
	c.p[10] = 2;
	tree = load(c.p, c.n, NULL, false, &err);
	ok(!tree && err.message && strstr(err.message, "unknown version 2") &&
	           err.offset == 10,
	   "version 2 refused at offset 10");
	trace_error_clear(&err);
	tree = load(b->p, b->n, "nosuch", false, &err);
	ok(!tree && err.message &&
	           strstr(err.message, "cpu-clock, sched:sched_switch, all"),
	   "an unknown event type lists the types");
	trace_error_clear(&err);
	c.p[10] = 1;
	/* A record size past the end, right after the MetaInfo. */
	c.p[12] = 0xFF;
	c.p[13] = 0xFF;
	tree = load(c.p, c.n, NULL, false, &err);
	ok(!tree && err.message, "no sample before the damage: refused");
	trace_error_clear(&err);
	free(c.p);
}

/*
 * A sample at the clock's last nanosecond, 2^64 - 1, with a 1 ms event
 * count, and one at 0: the late one is taken at TIME_MAX (2^64 - 2^53
 * ns) with a warning at its offset, and keeps its 1 ms (its end would
 * pass 2^64 ns: clamped there, it lasted 0 us).
 */
static void
test_time_top(void)
{
	static const struct entry s[] = {{1, 0, 0x10, -1}},
	                          late[] = {{1, 1, 0x10, -1}};
	static const char *const jar[] = {"Foo.main", "Foo.late"};
	struct buf b = {0};
	struct trace_error err = {0};
	struct calltree *tree;
	size_t from, to, i;
	int sums;

	put_start(&b);
	put_sample(&b, 0, 11, MS, 0, s, 1);
	from = b.n;
	put_sample(&b, UINT64_MAX, 10, MS, 0, late, 1);
	to = b.n;
	put_file(&b, 1, "/system/framework/foo.jar", jar, 2);
	put_end(&b);
	for (sums = 0; sums < 2; sums++) {
		struct profile p = {0};
		struct scope scope;
		bool warned = false;
		long m;

		tree = load_as(b.p, b.n, NULL, false, sums, &err);
		if (!ok(tree != NULL, "time 2^64-1%s: loads",
		        sums ? ", as report" : "")) {
			trace_error_clear(&err);
			continue;
		}
		scope_init_all(&scope, tree);
		profile_compute(&p, tree, &scope);
		m = method_named(tree, "Foo.late");
		ok(m >= 0 && p.rows[m].excl[CLOCK_WALL] == 1000 &&
		           p.rows[m].excl[CLOCK_CPU] == 1000,
		   "time 2^64-1%s: the sample keeps its 1 ms",
		   sums ? ", as report" : "");
		for (i = 0; i < tree->nwarnings; i++)
			warned |= tree->warnings[i].offset >= from &&
			          tree->warnings[i].offset < to &&
			          strstr(tree->warnings[i].message,
			                 "past the clock's range");
		ok(warned, "time 2^64-1%s: a warning at the sample's offset",
		   sums ? ", as report" : "");
		profile_done(&p);
		scope_done(&scope);
		calltree_free(tree);
	}
	free(b.p);
}

/*
 * A NUL inside a name is kept as C0 80 (shown as \x00), as the pprof
 * and hprof readers keep it: symbols "foo\0one" and "foo\0two" are two
 * methods, one sample each, and thread 10 is "ma\0in".
 */
static void
test_nul(void)
{
	static const struct entry one[] = {{1, 0, 0x10, -1}},
	                          two[] = {{1, 1, 0x20, -1}};
	static const struct expect want[] = {
	        {"foo\xC0\x80one", 1, 1},
	        {"foo\xC0\x80two", 1, 1},
	};
	struct buf b = {0}, m = {0};
	struct trace_error err = {0};
	struct calltree *tree;
	long t;

	put_start(&b);
	put_sample(&b, 1 * MS, 10, MS, 0, one, 1);
	put_sample(&b, 2 * MS, 10, MS, 0, two, 1);
	put_int(&m, 1, 1);
	put_str(&m, 2, "/system/framework/foo.jar");
	put_bytes(&m, 3, "foo\0one", 7);
	put_bytes(&m, 3, "foo\0two", 7);
	put_record(&b, 3, &m);
	put_int(&m, 1, 10);
	put_int(&m, 2, 10);
	put_bytes(&m, 3, "ma\0in", 5);
	put_record(&b, 4, &m);
	put_end(&b);
	check(&b, NULL, false, "NUL in names", want, 2);
	tree = load(b.p, b.n, NULL, false, &err);
	if (ok(tree != NULL, "NUL in names: loads")) {
		t = calltree_find_thread(tree, 10);
		ok(t >= 0 && strcmp(tree->threads[t].name, "ma\xC0\x80in") == 0,
		   "NUL in names: the thread's name kept whole");
		calltree_free(tree);
	}
	free(b.p);
}

/*
 * info's thread table: a tab in a thread's name is escaped, moving no
 * column, and a column of an event type named in UTF-8 ("événement",
 * 11 bytes, 9 columns wide) lines up with its counts.
 */
static void
test_info_threads(void)
{
	static const struct entry e[] = {{1, 0, 0x10, -1}};
	static const char *const jar[] = {"Foo.main"};
	static const char *const want[] = {
	        "threads:",
	        "       tid      pid  samples    cpu-clock    événement  name",
	        "        10       10        1            1            0  "
	        "a\\x09b",
	        "        11        0        1            1            0  ",
	};
	struct buf b = {0}, m = {0};
	struct trace_error err = {0};
	struct calltree *tree;
	struct summary sum;
	size_t i, at = SIZE_MAX;

	put_magic(&b);
	put_str(&m, 1, "cpu-clock");
	put_str(&m, 1, "événement");
	put_record(&b, 5, &m);
	put_sample(&b, 1 * MS, 10, MS, 0, e, 1);
	put_sample(&b, 1 * MS, 11, MS, 0, e, 1);
	put_file(&b, 1, "/system/framework/foo.jar", jar, 1);
	put_thread(&b, 10, 10, "a\tb");
	put_end(&b);
	tree = load(b.p, b.n, NULL, false, &err);
	free(b.p);
	if (!ok(tree != NULL, "info's threads: loads"))
		return;
	summary_build(&sum, tree);
	for (i = 0; i < sum.count; i++)
		if (strcmp(sum.lines[i], "threads:") == 0)
			at = i;
	for (i = 0; i < 4; i++)
		is_str(at + i < sum.count ? sum.lines[at + i] : "", want[i],
		       "info's threads: line %zu", i);
	summary_done(&sum);
	calltree_free(tree);
}

/*
 * With more event types than columns (1,024 here), info's thread table
 * has the loaded type's column only, and says so: its rows are as long
 * as the threads, not threads times types.
 */
static void
test_info_many_types(void)
{
	static const struct entry e[] = {{1, 0, 0x10, -1}};
	static const char *const jar[] = {"Foo.main"};
	struct buf b = {0}, m = {0};
	struct trace_error err = {0};
	struct calltree *tree;
	struct summary sum;
	size_t i, rows = 0, longest = 0;
	bool said = false, head = false, table = false;

	put_magic(&b);
	for (i = 0; i < 1024; i++) {
		char name[16];

		snprintf(name, sizeof(name), "ev%zu", i);
		put_str(&m, 1, name);
	}
	put_record(&b, 5, &m);
	put_sample(&b, 1 * MS, 10, MS, 7, e, 1);
	put_sample(&b, 2 * MS, 10, MS, 7, e, 1);
	put_sample(&b, 2 * MS, 10, MS, 900, e, 1);
	put_file(&b, 1, "/system/framework/foo.jar", jar, 1);
	put_thread(&b, 10, 10, "main");
	put_end(&b);
	tree = load(b.p, b.n, "ev7", false, &err);
	free(b.p);
	if (!ok(tree != NULL, "1,024 event types: loads"))
		return;
	summary_build(&sum, tree);
	for (i = 0; i < sum.count; i++) {
		const char *l = sum.lines[i];

		said |= strstr(l, "1024 event types") != NULL;
		head |= strcmp(l, "       tid      pid  samples          "
		                  "ev7  name") == 0;
		rows += strcmp(l, "        10       10        3            "
		                  "2  main") == 0;
		table = strcmp(l, "threads:") == 0 ||
		        (table && strcmp(l, "files:") != 0);
		if (table && strlen(l) > longest)
			longest = strlen(l);
	}
	ok(said && head && rows == 1,
	   "1,024 event types: the loaded type's column, said so");
	ok(longest < 100,
	   "1,024 event types: no thread line of a column each (%zu bytes)",
	   longest);
	summary_done(&sum);
	calltree_free(tree);
}

static int
write_recording(const char *dir)
{
	struct buf b = recording();
	char *path = xasprintf("%s/simpleperf.trace", dir);
	FILE *f = fopen(path, "wb");
	int rc = 0;

	if (!f || fwrite(b.p, 1, b.n, f) != b.n || fclose(f) != 0) {
		perror(path);
		rc = 1;
	}
	free(path);
	free(b.p);
	return rc;
}

/* N cpu-clock samples of threads 10 and 11 in turn, 1 ms apart, each
 * with a leaf of its own (memcpy at an address of its own) under 29
 * frames of 8 Java methods: written to path. */
static int
write_distinct(const char *path, size_t n)
{
	static const char *const jar[] = {"A.a", "A.b", "A.c", "A.d",
	                                  "A.e", "A.f", "A.g", "A.h"};
	static const char *const libc[] = {"memcpy"};
	struct entry e[30];
	struct buf b = {0};
	FILE *f = fopen(path, "wb");
	size_t i, j;
	int rc = 0;

	if (!f) {
		perror(path);
		return 1;
	}
	put_start(&b);
	for (i = 0; i < n; i++) {
		e[0] = (struct entry){2, 0, 0x1000 + i, -1};
		for (j = 1; j < 30; j++)
			e[j] = (struct entry){1, (int32_t)(j % 8), 0x100 + j,
			                      -1};
		put_sample(&b, i * MS, 10 + (uint32_t)(i % 2), MS, 0, e, 30);
		if (b.n > (1 << 20) || i + 1 == n) {
			if (fwrite(b.p, 1, b.n, f) != b.n)
				rc = 1;
			b.n = 0;
		}
	}
	put_file(&b, 1, "/system/framework/foo.jar", jar, 8);
	put_file(&b, 2, "/apex/com.android.runtime/lib64/bionic/libc.so", libc,
	         1);
	put_thread(&b, 10, 10, "main");
	put_thread(&b, 11, 10, "worker");
	put_end(&b);
	if (fwrite(b.p, 1, b.n, f) != b.n || fclose(f) != 0 || rc) {
		perror(path);
		rc = 1;
	}
	free(b.p);
	return rc;
}

/*
 * A recording of many threads, written to path: `types` event types
 * (cpu-clock, then ev1, ev2, ...), thread i (tid 1000 + i) with one
 * cpu-clock sample for i below `sampled` and a Thread record ("t<i>",
 * process 1000) for i below `named`.  A sample is as small as simpleperf
 * writes one (17 bytes): no callchain (the reader's "(no stack)"), 1 us
 * at i us.
 */
static int
write_threads(const char *path, size_t sampled, size_t named, size_t types)
{
	struct buf b = {0}, m = {0};
	FILE *f = fopen(path, "wb");
	size_t i;
	int rc = 0;

	if (!f) {
		perror(path);
		return 1;
	}
	put_magic(&b);
	put_str(&m, 1, "cpu-clock");
	for (i = 1; i < types; i++) {
		char name[32];

		snprintf(name, sizeof(name), "ev%zu", i);
		put_str(&m, 1, name);
	}
	put_record(&b, 5, &m);
	for (i = 0; i < sampled || i < named; i++) {
		if (i < sampled)
			put_sample(&b, i * 1000, 1000 + (uint32_t)i, 1000, 0,
			           NULL, 0);
		if (b.n > (1 << 20)) {
			rc |= fwrite(b.p, 1, b.n, f) != b.n;
			b.n = 0;
		}
	}
	for (i = 0; i < named; i++) {
		char name[32];

		snprintf(name, sizeof(name), "t%zu", i);
		put_thread(&b, 1000 + (uint32_t)i, 1000, name);
		if (b.n > (1 << 20)) {
			rc |= fwrite(b.p, 1, b.n, f) != b.n;
			b.n = 0;
		}
	}
	put_end(&b);
	if (fwrite(b.p, 1, b.n, f) != b.n || fclose(f) != 0 || rc) {
		perror(path);
		rc = 1;
	}
	free(b.p);
	return rc;
}

int
main(int argc, char **argv)
{
	struct buf b;

	if (argc == 3 && strcmp(argv[1], "--write") == 0)
		return write_recording(argv[2]);
	if (argc == 4 && strcmp(argv[1], "--write-distinct") == 0)
		return write_distinct(argv[2], strtoul(argv[3], NULL, 10));
	if (argc == 6 && strcmp(argv[1], "--write-threads") == 0)
		return write_threads(argv[2], strtoul(argv[3], NULL, 10),
		                     strtoul(argv[4], NULL, 10),
		                     strtoul(argv[5], NULL, 10));
	b = recording();
	test_numbers(&b);
	test_kinds();
	test_lookalikes();
	test_recall();
	test_order();
	test_gaps();
	test_time_top();
	test_nul();
	test_info_threads();
	test_info_many_types();
	test_calls(&b);
	test_cuts(&b);
	test_bad(&b);
	free(b.p);
	return done_testing();
}
