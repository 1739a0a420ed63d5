/*
 * unit-calltree: the call-tree builder (FORMAT.md 9.2, PRODUCT.md 2) fed
 * synthetic events through calltree_builder_sink, and the numbers that
 * profile_compute, profile_edges_compute and callpath_build derive.
 *
 * Each case begins with a dual-clock, 32-bit header, defines threads and
 * methods, sends events, and checks by hand-computed literals: per call
 * the method, parent, depth, flags and start/end on both clocks, in the
 * per-thread pre-order layout (orphans first); per thread the layout and
 * first/last times; the anomaly counters; per method calls, rcalls, incl
 * and excl on both clocks; drill-down edges; call-path nodes.
 *
 * Cases: a simple nest A{B{} C{}}, direct recursion A{A{A{}}}, indirect
 * recursion A{B{A{}}}, two threads interleaved, an exception unwind over
 * three frames, an orphan exit adopting earlier calls, two orphans in a
 * row (also at the very start, and of the same method), mismatched exits
 * (method deeper in the stack; method not on the stack), frames open at
 * the end, unknown method and thread ids, thread-cpu not starting at 0,
 * negative time steps, 32-bit wraps, action 3, a key thread id above
 * 65535 matched by its low 16 bits, a wall-only trace.
 *
 * Times in the comments are (cpu, wall) in microseconds.
 *
 * And the sums pass's reader of a file's records (build_records_window).
 */
#include "config.h"

#include "query/callpath.h"
#include "model/builder.h"
#include "model/calltree.h"
#include "query/profile.h"
#include "model/scope.h"

#include "profile-same.h"
#include "tap.h"
#include "trace-begin.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	A = 0x10,
	B = 0x20,
	C = 0x30,
	D = 0x40,
	X = 0x50,
	Y = 0x60,
	M = 0x70,
	E = 0x80,
	F = 0x90,
};

#define NONE CALL_NONE

/* ---- feeding the builder ------------------------------------------------ */

static struct calltree_builder *cur_builder;
static const struct trace_sink *cur;

static void
start_clock(enum trace_clock clock)
{
	struct trace_header h = trace_header_v1(clock, 32);

	cur_builder = calltree_builder_new("unit-calltree");
	cur = calltree_builder_sink(cur_builder);
	cur->begin(cur->ctx, &h);
}

/* A dual-clock trace defining methods A, B, C, D, X, Y, M and E. */
static void
start(void)
{
	static const struct {
		uint64_t id;
		const char *name;
	} defs[] = {{A, "a"}, {B, "b"}, {C, "c"}, {D, "d"},
	            {X, "x"}, {Y, "y"}, {M, "m"}, {E, "e"}};
	size_t i;

	start_clock(TRACE_CLOCK_DUAL);
	for (i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
		struct trace_method_def d = {
		        .id = defs[i].id,
		        .klass = "T",
		        .name = defs[i].name,
		        .signature = "()V",
		        .file = "T.java",
		        .line = -1,
		};

		cur->method(cur->ctx, &d);
	}
}

static void
thread(uint32_t tid, const char *name)
{
	cur->thread(cur->ctx, tid, name);
}

static void
ev(uint32_t tid, uint64_t method, enum trace_action action, uint64_t cpu,
   uint64_t wall)
{
	cur->event(cur->ctx, tid, method, action, cpu, wall);
}

#define IN(tid, m, cpu, wall) ev(tid, m, TRACE_ENTER, cpu, wall)
#define OUT(tid, m, cpu, wall) ev(tid, m, TRACE_EXIT, cpu, wall)
#define UNWIND(tid, m, cpu, wall) ev(tid, m, TRACE_UNWIND, cpu, wall)

static void check_cache(const struct calltree *t);

static struct calltree *
finish(void)
{
	struct calltree *t = calltree_builder_finish(cur_builder);

	cur_builder = NULL;
	cur = NULL;
	check_cache(t);
	return t;
}

/* The per-thread cache and the links of a profile give exactly what a
 * walk over the calls gives, for all threads and for each one alone. */
static void
check_cache(const struct calltree *t)
{
	struct profile_cache *cache = profile_cache_new(t);
	bool rows_same = true, edges_same = true;
	size_t th, m;

	for (th = 0; th <= t->nthreads; th++) {
		struct scope scope;
		struct profile walk, summed;

		if (th == t->nthreads) {
			scope_init_all(&scope, t);
		} else {
			scope_init_none(&scope, t);
			scope_add(&scope, th);
		}
		profile_compute(&walk, t, &scope);
		profile_from_cache(&summed, cache, t, &scope);
		rows_same &= walk.total[0] == summed.total[0] &&
		             walk.total[1] == summed.total[1] &&
		             memcmp(walk.rows, summed.rows,
		                    t->nmethods * sizeof(*walk.rows)) == 0;
		/* Every method of a small trace; of a wide one, an even
		 * spread, so the check stays linear in the calls. */
		for (m = 0; m < t->nmethods; m += 1 + t->nmethods / 256) {
			struct profile_edges a, b;

			profile_edges_compute(&a, t, &scope, (uint32_t)m,
			                      CLOCK_CPU);
			profile_edges_of(&b, &summed, (uint32_t)m, CLOCK_CPU);
			edges_same &= same_edges(a.parents, a.nparents,
			                         b.parents, b.nparents) &&
			              same_edges(a.children, a.nchildren,
			                         b.children, b.nchildren);
			profile_edges_done(&a);
			profile_edges_done(&b);
		}
		profile_done(&walk);
		profile_done(&summed);
		scope_done(&scope);
	}
	ok(rows_same, "cache: per-thread sums equal the walk over calls");
	ok(edges_same, "cache: edges from links equal the walk over calls");
	profile_cache_free(cache);
}

/* More threads than the cache sums at a time, most of too few calls to
 * be kept (summed again from their calls), every 100th of enough: the
 * profile of them all from the cache is the walk's, rows and links, the
 * links in the walk's order. */
static void
test_cache_many_threads(void)
{
	static const uint64_t ms[] = {A, B, C, D, X};
	struct calltree *t;
	struct profile_cache *cache;
	struct profile walk, summed;
	struct scope all;
	uint64_t clock = 0;
	uint32_t tid, i;

	/* Two batches and a part: most of one or two pairs of calls, each
	 * 100th of twenty; check-long: batches of 65,536 threads, up to
	 * three pairs. */
	unsigned most = tap_long() ? 3 : 2;
	uint32_t threads = tap_long() ? 140000 : 1200;

	if (!tap_long())
		profile_cache_batch_threads = 512;
	start();
	for (tid = 1; tid <= threads; tid++) {
		uint32_t n = tid % 100 ? tid % most + 1 : 20;

		for (i = 0; i < n; i++) {
			uint64_t outer = ms[(tid + i) % 5], inner = ms[tid % 4];

			IN(tid, outer, clock, clock);
			IN(tid, inner, clock + 1, clock + 2);
			OUT(tid, inner, clock + 2 + i, clock + 4 + i);
			OUT(tid, outer, clock + 3 + i, clock + 6 + i);
			clock += 7 + i;
		}
	}
	t = calltree_builder_finish(cur_builder);
	cur_builder = NULL;
	cur = NULL;
	scope_init_all(&all, t);
	profile_compute(&walk, t, &all);
	cache = profile_cache_new(t);
	profile_from_cache(&summed, cache, t, &all);
	ok(memcmp(walk.total, summed.total, sizeof(walk.total)) == 0 &&
	           memcmp(walk.rows, summed.rows,
	                  t->nmethods * sizeof(*walk.rows)) == 0 &&
	           walk.nlinks == summed.nlinks &&
	           memcmp(walk.links, summed.links,
	                  walk.nlinks * sizeof(*walk.links)) == 0,
	   "cache of %zu threads, some kept: the walk's rows and links, in "
	   "its order",
	   t->nthreads);
	profile_done(&walk);
	profile_done(&summed);
	profile_cache_free(cache);
	scope_done(&all);
	calltree_free(t);
	profile_cache_batch_threads = 1 << 16;
}

/* ---- looking things up ------------------------------------------------- */

/* Index of the method with id `id`, or NONE. */
static uint32_t
mi(const struct calltree *t, uint64_t id)
{
	size_t i;

	for (i = 0; i < t->nmethods; i++)
		if (t->methods[i].id == id)
			return (uint32_t)i;
	return NONE;
}

static const char *
flag_text(unsigned f, char *buf)
{
	snprintf(buf, 64, "%s%s%s%s%s", f & CALL_RECURSIVE ? "R" : "",
	         f & CALL_OPEN_AT_END ? "O" : "", f & CALL_ORPHAN ? "P" : "",
	         f & CALL_UNWOUND ? "U" : "", f & CALL_LOST_EXIT ? "L" : "");
	return buf;
}

/*
 * Call c: method id, parent call index (NONE for a root), depth, flags,
 * [cs, ce] on thread-cpu and [ws, we] on wall.
 */
static void
is_call(const struct calltree *t, size_t c, uint64_t id, uint32_t parent,
        uint32_t depth, unsigned flags, uint64_t cs, uint64_t ce, uint64_t ws,
        uint64_t we, const char *what)
{
	const struct tt_calls *k = &t->calls;
	char f1[64], f2[64];
	bool same;

	if (c >= k->count) {
		ok(false, "%s: call %zu exists (only %zu)", what, c, k->count);
		return;
	}
	same = calltree_method(t, c) == mi(t, id) &&
	       calltree_parent(t, c) == parent &&
	       calltree_depth(t, c) == depth && k->flags[c] == flags &&
	       calltree_start(t, c, CLOCK_CPU) == cs &&
	       calltree_end(t, c, CLOCK_CPU) == ce &&
	       calltree_start(t, c, CLOCK_WALL) == ws &&
	       calltree_end(t, c, CLOCK_WALL) == we;
	if (!ok(same,
	        "%s: call %zu is 0x%llx parent %d depth %u flags [%s] cpu "
	        "%llu..%llu wall %llu..%llu",
	        what, c, (unsigned long long)id, (int)parent, depth,
	        flag_text(flags, f1), (unsigned long long)cs,
	        (unsigned long long)ce, (unsigned long long)ws,
	        (unsigned long long)we))
		printf("#   got 0x%llx parent %d depth %u flags [%s] cpu "
		       "%llu..%llu wall %llu..%llu\n",
		       (unsigned long long)t->methods[calltree_method(t, c)].id,
		       (int)calltree_parent(t, c), calltree_depth(t, c),
		       flag_text(k->flags[c], f2),
		       (unsigned long long)calltree_start(t, c, CLOCK_CPU),
		       (unsigned long long)calltree_end(t, c, CLOCK_CPU),
		       (unsigned long long)calltree_start(t, c, CLOCK_WALL),
		       (unsigned long long)calltree_end(t, c, CLOCK_WALL));
}

/* Thread index ti: tid, its calls [first, first + n). */
static void
is_thread(const struct calltree *t, size_t ti, uint32_t tid, uint32_t first,
          uint32_t n, const char *what)
{
	const struct tt_thread *th;

	if (ti >= t->nthreads) {
		ok(false, "%s: thread %zu exists", what, ti);
		return;
	}
	th = &t->threads[ti];
	if (!ok(th->tid == tid && th->first_call == first && th->ncalls == n,
	        "%s: thread %zu is tid %u with calls [%u, +%u)", what, ti, tid,
	        first, n))
		printf("#   got tid %u calls [%u, +%u)\n", th->tid,
		       th->first_call, th->ncalls);
}

/* Thread ti's first and last event times. */
static void
is_span(const struct calltree *t, size_t ti, uint64_t fc, uint64_t lc,
        uint64_t fw, uint64_t lw, const char *what)
{
	const struct tt_thread *th = &t->threads[ti];

	if (!ok(th->first[CLOCK_CPU] == fc && th->last[CLOCK_CPU] == lc &&
	                th->first[CLOCK_WALL] == fw &&
	                th->last[CLOCK_WALL] == lw,
	        "%s: thread %zu spans cpu %llu..%llu wall %llu..%llu", what, ti,
	        (unsigned long long)fc, (unsigned long long)lc,
	        (unsigned long long)fw, (unsigned long long)lw))
		printf("#   got cpu %llu..%llu wall %llu..%llu\n",
		       (unsigned long long)th->first[CLOCK_CPU],
		       (unsigned long long)th->last[CLOCK_CPU],
		       (unsigned long long)th->first[CLOCK_WALL],
		       (unsigned long long)th->last[CLOCK_WALL]);
}

/* Anomaly counters: orphan, mismatched, lost, open at end, unwinds,
 * action 3. */
static void
is_anomalies(const struct calltree *t, uint64_t orphan, uint64_t mismatched,
             uint64_t lost, uint64_t open, uint64_t unwinds, uint64_t action3,
             const char *what)
{
	const struct tt_anomalies *a = &t->anomalies;

	if (!ok(a->orphan_exits == orphan &&
	                a->mismatched_exits == mismatched &&
	                a->lost_exits == lost && a->open_at_end == open &&
	                a->unwinds == unwinds && a->action3 == action3,
	        "%s: anomalies orphan %llu mismatched %llu lost %llu open "
	        "%llu unwinds %llu action3 %llu",
	        what, (unsigned long long)orphan,
	        (unsigned long long)mismatched, (unsigned long long)lost,
	        (unsigned long long)open, (unsigned long long)unwinds,
	        (unsigned long long)action3))
		printf("#   got orphan %llu mismatched %llu lost %llu open "
		       "%llu unwinds %llu action3 %llu\n",
		       (unsigned long long)a->orphan_exits,
		       (unsigned long long)a->mismatched_exits,
		       (unsigned long long)a->lost_exits,
		       (unsigned long long)a->open_at_end,
		       (unsigned long long)a->unwinds,
		       (unsigned long long)a->action3);
}

/* Profile row of method id: calls, rcalls, incl/excl cpu, incl/excl wall. */
static void
is_row(const struct calltree *t, const struct profile *p, uint64_t id,
       uint64_t calls, uint64_t rcalls, uint64_t ic, uint64_t ec, uint64_t iw,
       uint64_t ew, const char *what)
{
	uint32_t m = mi(t, id);
	const struct profile_row *r;

	if (m == NONE || m >= p->nrows) {
		ok(false, "%s: a row for 0x%llx", what, (unsigned long long)id);
		return;
	}
	r = &p->rows[m];
	if (!ok(r->calls == calls && r->rcalls == rcalls &&
	                r->incl[CLOCK_CPU] == ic && r->excl[CLOCK_CPU] == ec &&
	                r->incl[CLOCK_WALL] == iw && r->excl[CLOCK_WALL] == ew,
	        "%s: 0x%llx calls %llu+%llu cpu incl %llu excl %llu wall "
	        "incl %llu excl %llu",
	        what, (unsigned long long)id, (unsigned long long)calls,
	        (unsigned long long)rcalls, (unsigned long long)ic,
	        (unsigned long long)ec, (unsigned long long)iw,
	        (unsigned long long)ew))
		printf("#   got calls %llu+%llu cpu incl %llu excl %llu wall "
		       "incl %llu excl %llu\n",
		       (unsigned long long)r->calls,
		       (unsigned long long)r->rcalls,
		       (unsigned long long)r->incl[CLOCK_CPU],
		       (unsigned long long)r->excl[CLOCK_CPU],
		       (unsigned long long)r->incl[CLOCK_WALL],
		       (unsigned long long)r->excl[CLOCK_WALL]);
}

static void
is_total(const struct profile *p, uint64_t cpu, uint64_t wall, const char *what)
{
	if (!ok(p->total[CLOCK_CPU] == cpu && p->total[CLOCK_WALL] == wall,
	        "%s: total cpu %llu wall %llu", what, (unsigned long long)cpu,
	        (unsigned long long)wall))
		printf("#   got cpu %llu wall %llu\n",
		       (unsigned long long)p->total[CLOCK_CPU],
		       (unsigned long long)p->total[CLOCK_WALL]);
}

/* Edge e: method id (0 for the top level), recursive, calls, incl. */
static void
is_edge(const struct calltree *t, const struct profile_edge *e, size_t n,
        size_t i, uint64_t id, bool rec, uint64_t calls, uint64_t ic,
        uint64_t iw, const char *what)
{
	uint32_t m = id ? mi(t, id) : NONE;

	if (i >= n) {
		ok(false, "%s: edge %zu exists (only %zu)", what, i, n);
		return;
	}
	e += i;
	if (!ok(e->method == m && e->recursive == rec && e->calls == calls &&
	                e->incl[CLOCK_CPU] == ic && e->incl[CLOCK_WALL] == iw,
	        "%s: edge %zu is %s%s calls %llu incl cpu %llu wall %llu", what,
	        i, id ? t->methods[m].name : "(top level)",
	        rec ? " (recursive)" : "", (unsigned long long)calls,
	        (unsigned long long)ic, (unsigned long long)iw))
		printf("#   got %s%s calls %llu incl cpu %llu wall %llu\n",
		       e->method == NONE ? "(top level)"
		                         : t->methods[e->method].name,
		       e->recursive ? " (recursive)" : "",
		       (unsigned long long)e->calls,
		       (unsigned long long)e->incl[CLOCK_CPU],
		       (unsigned long long)e->incl[CLOCK_WALL]);
}

/* Call-path node n: method id (0: root or thread node), parent node,
 * depth, calls, incl/excl on both clocks. */
static void
is_node(const struct calltree *t, const struct callpath *p, uint32_t n,
        uint64_t id, uint32_t parent, uint32_t depth, uint64_t calls,
        uint64_t ic, uint64_t ec, uint64_t iw, uint64_t ew, const char *what)
{
	const struct callpath_node *x = &p->nodes[n];
	uint32_t m = id ? mi(t, id) : NONE;
	uint64_t xc, xw;

	if (n >= p->count) {
		ok(false, "%s: node %u exists (only %zu)", what, n, p->count);
		return;
	}
	xc = callpath_excl(p, n, CLOCK_CPU);
	xw = callpath_excl(p, n, CLOCK_WALL);
	if (!ok(x->method == m && x->parent == parent && x->depth == depth &&
	                x->calls == calls && x->incl[CLOCK_CPU] == ic &&
	                xc == ec && x->incl[CLOCK_WALL] == iw && xw == ew,
	        "%s: node %u is 0x%llx parent %d depth %u calls %llu cpu "
	        "%llu/%llu wall %llu/%llu",
	        what, n, (unsigned long long)id, (int)parent, depth,
	        (unsigned long long)calls, (unsigned long long)ic,
	        (unsigned long long)ec, (unsigned long long)iw,
	        (unsigned long long)ew))
		printf("#   got 0x%llx parent %d depth %u calls %llu cpu "
		       "%llu/%llu wall %llu/%llu\n",
		       x->method == NONE
		               ? 0ULL
		               : (unsigned long long)t->methods[x->method].id,
		       (int)x->parent, x->depth, (unsigned long long)x->calls,
		       (unsigned long long)x->incl[CLOCK_CPU],
		       (unsigned long long)xc,
		       (unsigned long long)x->incl[CLOCK_WALL],
		       (unsigned long long)xw);
}

/* ---- the cases ----------------------------------------------------------- */

/*
 * A{B{} C{}} on tid 1 "main":
 *   A in (0,1000)  B in (10,1020)  B out (30,1050)
 *   C in (35,1060) C out (45,1100) A out (50,1110)
 * Calls in pre-order: 0 A [0,50] [1000,1110]; 1 B under 0 [10,30]
 * [1020,1050]; 2 C under 0 [35,45] [1060,1100].
 * Profile: A incl (50,110), excl (50-20-10, 110-30-40) = (20,40);
 *          B (20,30) both; C (10,40) both; total = span = (50,110).
 */
static void
test_simple(void)
{
	struct calltree *t;
	struct scope all;
	struct profile p;
	struct profile_edges e;
	struct callpath cp;
	const char *w = "nest";

	start();
	thread(1, "main");
	IN(1, A, 0, 1000);
	IN(1, B, 10, 1020);
	OUT(1, B, 30, 1050);
	IN(1, C, 35, 1060);
	OUT(1, C, 45, 1100);
	OUT(1, A, 50, 1110);
	t = finish();

	ok(t->has_clock[CLOCK_CPU] && t->has_clock[CLOCK_WALL],
	   "%s: both clocks", w);
	is_u64(t->nthreads, 1, "%s: one thread", w);
	is_str(t->threads[0].name, "main", "%s: thread name", w);
	ok(t->threads[0].defined, "%s: thread defined", w);
	is_u64(t->records, 6, "%s: six records", w);
	is_u64(t->threads[0].nevents, 6, "%s: six events on the thread", w);
	is_u64(t->calls.count, 3, "%s: three calls", w);
	is_thread(t, 0, 1, 0, 3, w);
	is_span(t, 0, 0, 50, 1000, 1110, w);
	is_u64(t->threads[0].max_depth, 2, "%s: max depth 2", w);
	is_call(t, 0, A, NONE, 0, 0, 0, 50, 1000, 1110, w);
	is_call(t, 1, B, 0, 1, 0, 10, 30, 1020, 1050, w);
	is_call(t, 2, C, 0, 1, 0, 35, 45, 1060, 1100, w);
	is_anomalies(t, 0, 0, 0, 0, 0, 0, w);
	is_u64(t->anomalies.unknown_methods + t->anomalies.unknown_threads, 0,
	       "%s: nothing unknown", w);
	is_u64(calltree_duration(t, 0, CLOCK_WALL), 110,
	       "%s: duration of A on wall", w);
	is_u64(calltree_thread_span(t, 0, CLOCK_CPU), 50,
	       "%s: thread span on cpu", w);
	ok(calltree_default_clock(t) == CLOCK_CPU,
	   "%s: default clock is thread-cpu", w);

	scope_init_all(&all, t);
	profile_compute(&p, t, &all);
	is_total(&p, 50, 110, w);
	is_row(t, &p, A, 1, 0, 50, 20, 110, 40, w);
	is_row(t, &p, B, 1, 0, 20, 20, 30, 30, w);
	is_row(t, &p, C, 1, 0, 10, 10, 40, 40, w);
	ok(!profile_row_used(&p, mi(t, D)), "%s: D not called", w);
	/* top_excl: excl of non-recursive calls = excl here. */
	is_u64(p.rows[mi(t, A)].top_excl[CLOCK_WALL], 40, "%s: A top-excl wall",
	       w);
	profile_done(&p);

	/* A's parents: the top level; children sorted by incl on the
	 * chosen clock: cpu B 20 > C 10, wall C 40 > B 30. */
	profile_edges_compute(&e, t, &all, mi(t, A), CLOCK_CPU);
	is_u64(e.nparents, 1, "%s: A has one parent edge", w);
	is_edge(t, e.parents, e.nparents, 0, 0, false, 1, 50, 110, w);
	is_u64(e.nchildren, 2, "%s: A has two child edges", w);
	is_edge(t, e.children, e.nchildren, 0, B, false, 1, 20, 30, w);
	is_edge(t, e.children, e.nchildren, 1, C, false, 1, 10, 40, w);
	profile_edges_done(&e);
	profile_edges_compute(&e, t, &all, mi(t, A), CLOCK_WALL);
	is_edge(t, e.children, e.nchildren, 0, C, false, 1, 10, 40,
	        "nest, by wall");
	is_edge(t, e.children, e.nchildren, 1, B, false, 1, 20, 30,
	        "nest, by wall");
	profile_edges_done(&e);
	profile_edges_compute(&e, t, &all, mi(t, B), CLOCK_CPU);
	is_u64(e.nparents, 1, "%s: B has one parent edge", w);
	is_edge(t, e.parents, e.nparents, 0, A, false, 1, 20, 30, w);
	is_u64(e.nchildren, 0, "%s: B has no children", w);
	profile_edges_done(&e);

	/* Merged paths: 0 root, 1 A, 2 A/B, 3 A/C. */
	callpath_build(&cp, t, &all, false);
	is_u64(cp.count, 4, "%s: four path nodes", w);
	is_node(t, &cp, 0, 0, NONE, 0, 0, 50, 0, 110, 0, w);
	is_node(t, &cp, 1, A, 0, 1, 1, 50, 20, 110, 40, w);
	is_node(t, &cp, 2, B, 1, 2, 1, 20, 20, 30, 30, w);
	is_node(t, &cp, 3, C, 1, 2, 1, 10, 10, 40, 40, w);
	ok(cp.nodes[1].first_child == 2 && cp.nodes[2].next_sibling == 3 &&
	           cp.nodes[3].next_sibling == NONE,
	   "%s: A's children B then C before sorting", w);
	callpath_sort(&cp, CLOCK_WALL);
	ok(cp.nodes[1].first_child == 3 && cp.nodes[3].next_sibling == 2 &&
	           cp.nodes[2].next_sibling == NONE,
	   "%s: sorted by wall: C (40) then B (30)", w);
	callpath_sort(&cp, CLOCK_CPU);
	ok(cp.nodes[1].first_child == 2 && cp.nodes[2].next_sibling == 3 &&
	           cp.nodes[3].next_sibling == NONE,
	   "%s: sorted by cpu: B (20) then C (10)", w);
	callpath_done(&cp);

	/* By thread: 0 root, 1 thread node (span, nothing at top level:
	 * excl 0), 2 A, 3 B, 4 C. */
	callpath_build(&cp, t, &all, true);
	is_u64(cp.count, 5, "%s: five by-thread nodes", w);
	is_node(t, &cp, 0, 0, NONE, 0, 0, 50, 0, 110, 0, "nest by thread");
	is_node(t, &cp, 1, 0, 0, 1, 0, 50, 0, 110, 0, "nest by thread");
	ok(cp.nodes[1].thread == 0, "%s: the thread node is thread 0", w);
	is_node(t, &cp, 2, A, 1, 2, 1, 50, 20, 110, 40, "nest by thread");
	is_node(t, &cp, 4, C, 2, 3, 1, 10, 10, 40, 40, "nest by thread");
	callpath_done(&cp);
	scope_done(&all);
	calltree_free(t);
}

/*
 * A{A{A{}}}:
 *   A in (0,0) A in (10,10) A in (20,20) A out (30,35) A out (40,50)
 *   A out (60,70)
 * Calls: 0 [0,60] [0,70]; 1 recursive [10,40] [10,50]; 2 recursive
 * [20,30] [20,35].
 * A: calls 1+2; incl = outer call only = (60,70); excl = sum of each
 * call's own time = (60-30)+(30-10)+10 = 60, (70-40)+(40-15)+15 = 70;
 * top-excl = the outer call's own time = (30,30).
 * Edges: parents top level (1, (60,70)) and A recursive (2 calls,
 * (30+10, 40+15) = (40,55)); children A under the non-recursive outer
 * call (1, (30,40)) and A under the recursive middle call (1, (10,15)).
 * Paths: A (60,70)/(30,30), A/A (30,40)/(20,25), A/A/A (10,15)/(10,15).
 */
static void
test_direct_recursion(void)
{
	struct calltree *t;
	struct scope all;
	struct profile p;
	struct profile_edges e;
	struct callpath cp;
	const char *w = "direct recursion";

	start();
	IN(1, A, 0, 0);
	IN(1, A, 10, 10);
	IN(1, A, 20, 20);
	OUT(1, A, 30, 35);
	OUT(1, A, 40, 50);
	OUT(1, A, 60, 70);
	t = finish();

	is_u64(t->calls.count, 3, "%s: three calls", w);
	is_call(t, 0, A, NONE, 0, 0, 0, 60, 0, 70, w);
	is_call(t, 1, A, 0, 1, CALL_RECURSIVE, 10, 40, 10, 50, w);
	is_call(t, 2, A, 1, 2, CALL_RECURSIVE, 20, 30, 20, 35, w);
	is_u64(t->threads[0].max_depth, 3, "%s: max depth 3", w);
	is_anomalies(t, 0, 0, 0, 0, 0, 0, w);

	scope_init_all(&all, t);
	profile_compute(&p, t, &all);
	is_total(&p, 60, 70, w);
	is_row(t, &p, A, 1, 2, 60, 60, 70, 70, w);
	is_u64(p.rows[mi(t, A)].top_excl[CLOCK_CPU], 30, "%s: top-excl cpu", w);
	is_u64(p.rows[mi(t, A)].top_excl[CLOCK_WALL], 30, "%s: top-excl wall",
	       w);
	profile_done(&p);

	profile_edges_compute(&e, t, &all, mi(t, A), CLOCK_CPU);
	is_u64(e.nparents, 2, "%s: two parent edges", w);
	is_edge(t, e.parents, e.nparents, 0, 0, false, 1, 60, 70, w);
	is_edge(t, e.parents, e.nparents, 1, A, true, 2, 40, 55, w);
	is_u64(e.nchildren, 2, "%s: two child edges", w);
	is_edge(t, e.children, e.nchildren, 0, A, false, 1, 30, 40, w);
	is_edge(t, e.children, e.nchildren, 1, A, true, 1, 10, 15, w);
	profile_edges_done(&e);

	callpath_build(&cp, t, &all, false);
	is_u64(cp.count, 4, "%s: four path nodes", w);
	is_node(t, &cp, 0, 0, NONE, 0, 0, 60, 0, 70, 0, w);
	is_node(t, &cp, 1, A, 0, 1, 1, 60, 30, 70, 30, w);
	is_node(t, &cp, 2, A, 1, 2, 1, 30, 20, 40, 25, w);
	is_node(t, &cp, 3, A, 2, 3, 1, 10, 10, 15, 15, w);
	callpath_done(&cp);
	scope_done(&all);
	calltree_free(t);
}

/*
 * A{B{A{}}}:
 *   A in (0,0) B in (5,10) A in (10,20) A out (20,40) B out (30,60)
 *   A out (40,80)
 * Calls: 0 A [0,40] [0,80]; 1 B [5,30] [10,60]; 2 A recursive [10,20]
 * [20,40].
 * A: 1+1, incl (40,80), excl (40-25)+10 = 25, (80-50)+20 = 50.
 * B: 1+0, incl (25,50), excl (25-10, 50-20) = (15,30).
 * Edges of A: parents top level (1,(40,80)), B recursive (1,(10,20));
 *   children B (1,(25,50)).
 * Edges of B: parent A (1,(25,50)); child A, non-recursive because B's
 *   call is not recursive (1,(10,20)).
 */
static void
test_indirect_recursion(void)
{
	struct calltree *t;
	struct scope all;
	struct profile p;
	struct profile_edges e;
	const char *w = "indirect recursion";

	start();
	IN(1, A, 0, 0);
	IN(1, B, 5, 10);
	IN(1, A, 10, 20);
	OUT(1, A, 20, 40);
	OUT(1, B, 30, 60);
	OUT(1, A, 40, 80);
	t = finish();

	is_call(t, 0, A, NONE, 0, 0, 0, 40, 0, 80, w);
	is_call(t, 1, B, 0, 1, 0, 5, 30, 10, 60, w);
	is_call(t, 2, A, 1, 2, CALL_RECURSIVE, 10, 20, 20, 40, w);

	scope_init_all(&all, t);
	profile_compute(&p, t, &all);
	is_total(&p, 40, 80, w);
	is_row(t, &p, A, 1, 1, 40, 25, 80, 50, w);
	is_row(t, &p, B, 1, 0, 25, 15, 50, 30, w);
	profile_done(&p);

	profile_edges_compute(&e, t, &all, mi(t, A), CLOCK_CPU);
	is_u64(e.nparents, 2, "%s: A has two parent edges", w);
	is_edge(t, e.parents, e.nparents, 0, 0, false, 1, 40, 80, w);
	is_edge(t, e.parents, e.nparents, 1, B, true, 1, 10, 20, w);
	is_u64(e.nchildren, 1, "%s: A has one child edge", w);
	is_edge(t, e.children, e.nchildren, 0, B, false, 1, 25, 50, w);
	profile_edges_done(&e);
	profile_edges_compute(&e, t, &all, mi(t, B), CLOCK_CPU);
	is_u64(e.nparents, 1, "%s: B has one parent edge", w);
	is_edge(t, e.parents, e.nparents, 0, A, false, 1, 25, 50, w);
	is_u64(e.nchildren, 1, "%s: B has one child edge", w);
	is_edge(t, e.children, e.nchildren, 0, A, false, 1, 10, 20, w);
	profile_edges_done(&e);
	scope_done(&all);
	calltree_free(t);
}

/*
 * Two threads interleaved: tid 1 "main", tid 2 "worker thread 2".
 *   1 A in (0,100)   2 B in (0,110)   1 C in (5,120)   2 B out (20,140)
 *   1 C out (15,150) 2 A in (25,160)  1 A out (30,170) 2 A out (35,200)
 * Thread 0 (tid 1): calls 0 A [0,30] [100,170], 1 C under 0 [5,15]
 *   [120,150]; span (30,70).
 * Thread 1 (tid 2): calls 2 B [0,20] [110,140], 3 A [25,35] [160,200];
 *   span (35,90).
 * All: A 2 calls incl (30+10, 70+40) = (40,110), excl (20+10, 40+40) =
 *   (30,80); B (20,30); C (10,30); total (65,160).
 * Thread 1 alone: A (10,40); B (20,30); C unused; total (35,90).
 * Paths by thread: 0 root (65,160); 1 thread 0 (30,70) excl 0; 2 A;
 *   3 A/C; 4 thread 1 (35,90) excl (35-20-10, 90-30-40) = (5,20); 5 B;
 *   6 A.
 * Merged: 0 root = A + B = (60,140); 1 A 2 calls (40,110)/(30,80);
 *   2 A/C (10,30); 3 B (20,30).
 */
static void
test_two_threads(void)
{
	struct calltree *t;
	struct scope all, one;
	struct profile p;
	struct profile_edges e;
	struct callpath cp;
	const char *w = "two threads";

	start();
	thread(1, "main");
	thread(2, "worker thread 2");
	IN(1, A, 0, 100);
	IN(2, B, 0, 110);
	IN(1, C, 5, 120);
	OUT(2, B, 20, 140);
	OUT(1, C, 15, 150);
	IN(2, A, 25, 160);
	OUT(1, A, 30, 170);
	OUT(2, A, 35, 200);
	t = finish();

	is_u64(t->nthreads, 2, "%s: two threads", w);
	is_str(t->threads[1].name, "worker thread 2", "%s: name with spaces",
	       w);
	is_thread(t, 0, 1, 0, 2, w);
	is_thread(t, 1, 2, 2, 2, w);
	is_span(t, 0, 0, 30, 100, 170, w);
	is_span(t, 1, 0, 35, 110, 200, w);
	is_call(t, 0, A, NONE, 0, 0, 0, 30, 100, 170, w);
	is_call(t, 1, C, 0, 1, 0, 5, 15, 120, 150, w);
	is_call(t, 2, B, NONE, 0, 0, 0, 20, 110, 140, w);
	is_call(t, 3, A, NONE, 0, 0, 25, 35, 160, 200, w);
	is_u64(calltree_find_thread(t, 2), 1, "%s: find tid 2", w);
	ok(calltree_find_thread(t, 3) == -1, "%s: no tid 3", w);

	scope_init_all(&all, t);
	profile_compute(&p, t, &all);
	is_total(&p, 65, 160, w);
	is_row(t, &p, A, 2, 0, 40, 30, 110, 80, w);
	is_row(t, &p, B, 1, 0, 20, 20, 30, 30, w);
	is_row(t, &p, C, 1, 0, 10, 10, 30, 30, w);
	profile_done(&p);

	/* A is top-level on both threads: one top-level parent edge of 2
	 * calls, (30+10, 70+40); one child edge C from thread 0. */
	profile_edges_compute(&e, t, &all, mi(t, A), CLOCK_CPU);
	is_u64(e.nparents, 1, "%s: A's top-level edges merge", w);
	is_edge(t, e.parents, e.nparents, 0, 0, false, 2, 40, 110, w);
	is_u64(e.nchildren, 1, "%s: A has one child edge", w);
	is_edge(t, e.children, e.nchildren, 0, C, false, 1, 10, 30, w);
	profile_edges_done(&e);

	scope_init_none(&one, t);
	ok(scope_select(&one, t, "worker thread 2"), "%s: select by name", w);
	ok(!scope_has(&one, 0) && scope_has(&one, 1),
	   "%s: only thread 1 in scope", w);
	is_u64(scope_total(&one, t, CLOCK_WALL), 90, "%s: scope total wall", w);
	profile_compute(&p, t, &one);
	is_total(&p, 35, 90, "two threads, tid 2 alone");
	is_row(t, &p, A, 1, 0, 10, 10, 40, 40, "two threads, tid 2 alone");
	is_row(t, &p, B, 1, 0, 20, 20, 30, 30, "two threads, tid 2 alone");
	ok(!profile_row_used(&p, mi(t, C)), "%s: C not in tid 2", w);
	profile_done(&p);
	scope_done(&one);

	callpath_build(&cp, t, &all, true);
	is_u64(cp.count, 7, "%s: seven by-thread nodes", w);
	is_node(t, &cp, 0, 0, NONE, 0, 0, 65, 0, 160, 0, "by thread");
	is_node(t, &cp, 1, 0, 0, 1, 0, 30, 0, 70, 0, "by thread");
	is_node(t, &cp, 2, A, 1, 2, 1, 30, 20, 70, 40, "by thread");
	is_node(t, &cp, 3, C, 2, 3, 1, 10, 10, 30, 30, "by thread");
	is_node(t, &cp, 4, 0, 0, 1, 0, 35, 5, 90, 20, "by thread");
	is_node(t, &cp, 5, B, 4, 2, 1, 20, 20, 30, 30, "by thread");
	is_node(t, &cp, 6, A, 4, 2, 1, 10, 10, 40, 40, "by thread");
	ok(cp.nodes[1].thread == 0 && cp.nodes[4].thread == 1,
	   "%s: thread nodes name their threads", w);
	callpath_done(&cp);

	callpath_build(&cp, t, &all, false);
	is_u64(cp.count, 4, "%s: four merged nodes", w);
	is_node(t, &cp, 0, 0, NONE, 0, 0, 60, 0, 140, 0, "merged");
	is_node(t, &cp, 1, A, 0, 1, 2, 40, 30, 110, 80, "merged");
	is_node(t, &cp, 2, C, 1, 2, 1, 10, 10, 30, 30, "merged");
	is_node(t, &cp, 3, B, 0, 1, 1, 20, 20, 30, 30, "merged");
	callpath_done(&cp);
	scope_done(&all);
	calltree_free(t);
}

/*
 * An exception unwinds three frames: M{A{B{C}}}, then C, B and A leave by
 * action 2 and M returns normally.
 *   M in (0,0) A in (1,10) B in (2,20) C in (3,30)
 *   C unwind (4,40) B unwind (4,40) A unwind (4,40) M out (6,60)
 * Calls: 0 M [0,6] [0,60]; 1 A unwound [1,4] [10,40]; 2 B unwound [2,4]
 * [20,40]; 3 C unwound [3,4] [30,40].  Unwinds 3, nothing mismatched.
 * M incl (6,60) excl (3,30); A (3,30)/(1,10); B (2,20)/(1,10);
 * C (1,10)/(1,10).
 */
static void
test_unwind(void)
{
	struct calltree *t;
	struct scope all;
	struct profile p;
	const char *w = "unwind";

	start();
	IN(1, M, 0, 0);
	IN(1, A, 1, 10);
	IN(1, B, 2, 20);
	IN(1, C, 3, 30);
	UNWIND(1, C, 4, 40);
	UNWIND(1, B, 4, 40);
	UNWIND(1, A, 4, 40);
	OUT(1, M, 6, 60);
	t = finish();

	is_call(t, 0, M, NONE, 0, 0, 0, 6, 0, 60, w);
	is_call(t, 1, A, 0, 1, CALL_UNWOUND, 1, 4, 10, 40, w);
	is_call(t, 2, B, 1, 2, CALL_UNWOUND, 2, 4, 20, 40, w);
	is_call(t, 3, C, 2, 3, CALL_UNWOUND, 3, 4, 30, 40, w);
	is_anomalies(t, 0, 0, 0, 0, 3, 0, w);

	scope_init_all(&all, t);
	profile_compute(&p, t, &all);
	is_row(t, &p, M, 1, 0, 6, 3, 60, 30, w);
	is_row(t, &p, A, 1, 0, 3, 1, 30, 10, w);
	is_row(t, &p, B, 1, 0, 2, 1, 20, 10, w);
	is_row(t, &p, C, 1, 0, 1, 1, 10, 10, w);
	profile_done(&p);
	scope_done(&all);
	calltree_free(t);
}

/*
 * An orphan exit: X exits with an empty stack after A and B ran; X gets a
 * call from the thread's first event time (0,1000) to (25,1040) that
 * adopts A and B; C afterwards stays at the top level.
 *   A in (0,1000) A out (10,1010) B in (12,1020) B out (20,1030)
 *   X out (25,1040) C in (30,1050) C out (35,1060)
 * Layout: 0 X orphan [0,25] [1000,1040]; 1 A under 0, depth 1, [0,10]
 * [1000,1010]; 2 B under 0 [12,20] [1020,1030]; 3 C top [30,35]
 * [1050,1060].
 * X incl (25,40), excl (25-10-8, 40-10-10) = (7,20); A (10,10); B (8,10);
 * C (5,10); total (35,60).
 * Paths: 0 root = X + C = (30,50); 1 X; 2 X/A; 3 X/B; 4 C.
 */
static void
test_orphan(void)
{
	struct calltree *t;
	struct scope all;
	struct profile p;
	struct profile_edges e;
	struct callpath cp;
	const char *w = "orphan";

	start();
	IN(1, A, 0, 1000);
	OUT(1, A, 10, 1010);
	IN(1, B, 12, 1020);
	OUT(1, B, 20, 1030);
	OUT(1, X, 25, 1040);
	IN(1, C, 30, 1050);
	OUT(1, C, 35, 1060);
	t = finish();

	is_thread(t, 0, 1, 0, 4, w);
	is_call(t, 0, X, NONE, 0, CALL_ORPHAN, 0, 25, 1000, 1040, w);
	is_call(t, 1, A, 0, 1, 0, 0, 10, 1000, 1010, w);
	is_call(t, 2, B, 0, 1, 0, 12, 20, 1020, 1030, w);
	is_call(t, 3, C, NONE, 0, 0, 30, 35, 1050, 1060, w);
	is_u64(t->threads[0].max_depth, 2, "%s: max depth 2", w);
	is_anomalies(t, 1, 0, 0, 0, 0, 0, w);

	scope_init_all(&all, t);
	profile_compute(&p, t, &all);
	is_total(&p, 35, 60, w);
	is_row(t, &p, X, 1, 0, 25, 7, 40, 20, w);
	is_row(t, &p, A, 1, 0, 10, 10, 10, 10, w);
	is_row(t, &p, B, 1, 0, 8, 8, 10, 10, w);
	is_row(t, &p, C, 1, 0, 5, 5, 10, 10, w);
	profile_done(&p);

	profile_edges_compute(&e, t, &all, mi(t, X), CLOCK_CPU);
	is_u64(e.nparents, 1, "%s: X has one parent edge", w);
	is_edge(t, e.parents, e.nparents, 0, 0, false, 1, 25, 40, w);
	is_u64(e.nchildren, 2, "%s: X adopted two children", w);
	is_edge(t, e.children, e.nchildren, 0, A, false, 1, 10, 10, w);
	is_edge(t, e.children, e.nchildren, 1, B, false, 1, 8, 10, w);
	profile_edges_done(&e);
	profile_edges_compute(&e, t, &all, mi(t, A), CLOCK_CPU);
	is_edge(t, e.parents, e.nparents, 0, X, false, 1, 10, 10,
	        "orphan, A's parent");
	profile_edges_done(&e);

	callpath_build(&cp, t, &all, false);
	is_u64(cp.count, 5, "%s: five path nodes", w);
	is_node(t, &cp, 0, 0, NONE, 0, 0, 30, 0, 50, 0, w);
	is_node(t, &cp, 1, X, 0, 1, 1, 25, 7, 40, 20, w);
	is_node(t, &cp, 2, A, 1, 2, 1, 10, 10, 10, 10, w);
	is_node(t, &cp, 3, B, 1, 2, 1, 8, 8, 10, 10, w);
	is_node(t, &cp, 4, C, 0, 1, 1, 5, 5, 10, 10, w);
	callpath_done(&cp);
	scope_done(&all);
	calltree_free(t);
}

/*
 * Two orphans in a row.
 *  a) A in (0,0) A out (5,5) X out (10,10) Y out (20,20) B in (22,22)
 *     B out (25,25): X [0,10] adopts A; Y [0,20] adopts X; B stays top.
 *     Layout (orphans first, outermost first): 0 Y, 1 X under 0 depth 1,
 *     2 A under 1 depth 2, 3 B top.  Y incl 20 excl 10; X 10/5; A 5/5;
 *     B 3/3 (both clocks equal).
 *  b) Dalvik-style start, the first event is an exit:
 *     X out (0,1000) A in (2,1002) A out (4,1004) Y out (6,1006)
 *     X [0,0] [1000,1000] (its entry is the thread's first time, itself);
 *     Y [0,6] [1000,1006] adopts X and A.  Layout 0 Y, 1 X, 2 A (both at
 *     depth 1).  Y incl (6,6) excl (4,4); X 0; A (2,2).
 *  c) The same method twice: A in (0,0) A out (5,5) X out (10,10)
 *     X out (20,20): the outer X adopts the inner X, which becomes
 *     recursive.  Layout 0 X [0,20], 1 X recursive [0,10], 2 A [0,5].
 *     X calls 1+1, incl 20 (outer only), excl (20-10)+(10-5) = 15.
 */
static void
test_two_orphans(void)
{
	struct calltree *t;
	struct scope all;
	struct profile p;

	start();
	IN(1, A, 0, 0);
	OUT(1, A, 5, 5);
	OUT(1, X, 10, 10);
	OUT(1, Y, 20, 20);
	IN(1, B, 22, 22);
	OUT(1, B, 25, 25);
	t = finish();
	is_thread(t, 0, 1, 0, 4, "two orphans");
	is_call(t, 0, Y, NONE, 0, CALL_ORPHAN, 0, 20, 0, 20, "two orphans");
	is_call(t, 1, X, 0, 1, CALL_ORPHAN, 0, 10, 0, 10, "two orphans");
	is_call(t, 2, A, 1, 2, 0, 0, 5, 0, 5, "two orphans");
	is_call(t, 3, B, NONE, 0, 0, 22, 25, 22, 25, "two orphans");
	is_u64(t->threads[0].max_depth, 3, "two orphans: max depth 3");
	is_anomalies(t, 2, 0, 0, 0, 0, 0, "two orphans");
	scope_init_all(&all, t);
	profile_compute(&p, t, &all);
	is_row(t, &p, Y, 1, 0, 20, 10, 20, 10, "two orphans");
	is_row(t, &p, X, 1, 0, 10, 5, 10, 5, "two orphans");
	is_row(t, &p, A, 1, 0, 5, 5, 5, 5, "two orphans");
	is_row(t, &p, B, 1, 0, 3, 3, 3, 3, "two orphans");
	profile_done(&p);
	scope_done(&all);
	calltree_free(t);

	start();
	OUT(1, X, 0, 1000);
	IN(1, A, 2, 1002);
	OUT(1, A, 4, 1004);
	OUT(1, Y, 6, 1006);
	t = finish();
	is_call(t, 0, Y, NONE, 0, CALL_ORPHAN, 0, 6, 1000, 1006,
	        "orphans at start");
	is_call(t, 1, X, 0, 1, CALL_ORPHAN, 0, 0, 1000, 1000,
	        "orphans at start");
	is_call(t, 2, A, 0, 1, 0, 2, 4, 1002, 1004, "orphans at start");
	is_anomalies(t, 2, 0, 0, 0, 0, 0, "orphans at start");
	scope_init_all(&all, t);
	profile_compute(&p, t, &all);
	is_row(t, &p, Y, 1, 0, 6, 4, 6, 4, "orphans at start");
	is_row(t, &p, X, 1, 0, 0, 0, 0, 0, "orphans at start");
	is_row(t, &p, A, 1, 0, 2, 2, 2, 2, "orphans at start");
	profile_done(&p);
	scope_done(&all);
	calltree_free(t);

	start();
	IN(1, A, 0, 0);
	OUT(1, A, 5, 5);
	OUT(1, X, 10, 10);
	OUT(1, X, 20, 20);
	t = finish();
	is_call(t, 0, X, NONE, 0, CALL_ORPHAN, 0, 20, 0, 20,
	        "same-method orphans");
	is_call(t, 1, X, 0, 1, CALL_ORPHAN | CALL_RECURSIVE, 0, 10, 0, 10,
	        "same-method orphans");
	is_call(t, 2, A, 1, 2, 0, 0, 5, 0, 5, "same-method orphans");
	scope_init_all(&all, t);
	profile_compute(&p, t, &all);
	is_row(t, &p, X, 1, 1, 20, 15, 20, 15, "same-method orphans");
	profile_done(&p);
	scope_done(&all);
	calltree_free(t);
}

/*
 * Orphans on two threads, interleaved: each thread's orphan adopts only
 * that thread's calls and comes first in that thread's calls.
 *   1 A in (0,0)  2 B in (0,50)  1 A out (4,4)  2 B out (3,53)
 *   1 X out (6,6) 2 Y out (7,57)
 * Thread 0: 0 X orphan [0,6] [0,6]; 1 A under 0 [0,4] [0,4].
 * Thread 1: 2 Y orphan [0,7] [50,57]; 3 B under 2 [0,3] [50,53].
 */
static void
test_orphans_two_threads(void)
{
	struct calltree *t;
	const char *w = "orphans on two threads";

	start();
	IN(1, A, 0, 0);
	IN(2, B, 0, 50);
	OUT(1, A, 4, 4);
	OUT(2, B, 3, 53);
	OUT(1, X, 6, 6);
	OUT(2, Y, 7, 57);
	t = finish();
	is_thread(t, 0, 1, 0, 2, w);
	is_thread(t, 1, 2, 2, 2, w);
	is_call(t, 0, X, NONE, 0, CALL_ORPHAN, 0, 6, 0, 6, w);
	is_call(t, 1, A, 0, 1, 0, 0, 4, 0, 4, w);
	is_call(t, 2, Y, NONE, 0, CALL_ORPHAN, 0, 7, 50, 57, w);
	is_call(t, 3, B, 2, 1, 0, 0, 3, 50, 53, w);
	is_anomalies(t, 2, 0, 0, 0, 0, 0, w);
	calltree_free(t);
}

/*
 * An orphan left by an exception (Dalvik: a throw out of frames that
 * were on the stack before tracing began):
 *   A in (0,0) A out (2,2) X unwind (5,5)
 * X is an orphan [0,5] adopting A, and it left by exception, so it
 * carries both CALL_ORPHAN and CALL_UNWOUND (model/calltree.h: "left by
 * exception (action 2)"; FORMAT.md 11: keep a flag for "exited by
 * exception").
 */
static void
test_orphan_unwind(void)
{
	struct calltree *t;
	const char *w = "unwound orphan";

	start();
	IN(1, A, 0, 0);
	OUT(1, A, 2, 2);
	UNWIND(1, X, 5, 5);
	t = finish();
	is_anomalies(t, 1, 0, 0, 0, 1, 0, w);
	ok(t->calls.count == 2 &&
	           t->calls.flags[0] == (CALL_ORPHAN | CALL_UNWOUND),
	   "%s: X is flagged orphan and unwound", w);
	is_call(t, 1, A, 0, 1, 0, 0, 2, 0, 2, w);
	calltree_free(t);
}

/*
 * Mismatched exits.
 * tid 1: the exit of a method deeper in the stack closes the frames above
 *   it (lost exits) and then it:
 *   A in (0,0) B in (1,1) C in (2,2) A out (10,10) D in (11,11)
 *   D out (12,12)
 *   Calls 0 A [0,10]; 1 B lost-exit [1,10]; 2 C lost-exit [2,10];
 *   3 D top [11,12].  A incl 10 excl 1; B 9/1; C 8/8; D 1/1.
 * tid 2: the exit of a method not on the stack closes every frame (lost
 *   exits) and becomes an orphan adopting the top-level call:
 *   A in (0,100) B in (3,103) X out (8,108)
 *   Calls (thread 1 starts at 4): 4 X orphan [0,8] [100,108]; 5 A under
 *   4, depth 1, lost-exit [0,8] [100,108]; 6 B under 5, depth 2,
 *   lost-exit [3,8] [103,108].
 * Totals: mismatched 2 (one per exit that found a different top),
 * lost 4, orphan 1.
 */
static void
test_mismatch(void)
{
	struct calltree *t;
	struct scope all;
	struct profile p;
	const char *w = "mismatch";

	start();
	IN(1, A, 0, 0);
	IN(1, B, 1, 1);
	IN(1, C, 2, 2);
	OUT(1, A, 10, 10);
	IN(1, D, 11, 11);
	OUT(1, D, 12, 12);
	IN(2, A, 0, 100);
	IN(2, B, 3, 103);
	OUT(2, X, 8, 108);
	t = finish();

	is_thread(t, 0, 1, 0, 4, w);
	is_thread(t, 1, 2, 4, 3, w);
	is_call(t, 0, A, NONE, 0, 0, 0, 10, 0, 10, w);
	is_call(t, 1, B, 0, 1, CALL_LOST_EXIT, 1, 10, 1, 10, w);
	is_call(t, 2, C, 1, 2, CALL_LOST_EXIT, 2, 10, 2, 10, w);
	is_call(t, 3, D, NONE, 0, 0, 11, 12, 11, 12, w);
	is_call(t, 4, X, NONE, 0, CALL_ORPHAN, 0, 8, 100, 108, w);
	is_call(t, 5, A, 4, 1, CALL_LOST_EXIT, 0, 8, 100, 108, w);
	is_call(t, 6, B, 5, 2, CALL_LOST_EXIT, 3, 8, 103, 108, w);
	is_anomalies(t, 1, 2, 4, 0, 0, 0, w);

	scope_init_none(&all, t);
	scope_add(&all, 0);
	profile_compute(&p, t, &all);
	is_row(t, &p, A, 1, 0, 10, 1, 10, 1, "mismatch, tid 1");
	is_row(t, &p, B, 1, 0, 9, 1, 9, 1, "mismatch, tid 1");
	is_row(t, &p, C, 1, 0, 8, 8, 8, 8, "mismatch, tid 1");
	is_row(t, &p, D, 1, 0, 1, 1, 1, 1, "mismatch, tid 1");
	profile_done(&p);
	scope_done(&all);
	calltree_free(t);
}

/*
 * Frames open at the end are closed at their own thread's last event.
 * tid 1: A in (0,0) B in (5,50) C in (6,60) C out (7,70)
 *   -> 0 A open [0,7] [0,70]; 1 B open [5,7] [50,70]; 2 C [6,7] [60,70].
 * tid 2: D in (0,10) E in (1,20) E out (2,300)
 *   -> 3 D open [0,2] [10,300]; 4 E [1,2] [20,300].
 * Open at end: 3.
 */
static void
test_open_at_end(void)
{
	struct calltree *t;
	const char *w = "open at end";

	start();
	IN(1, A, 0, 0);
	IN(1, B, 5, 50);
	IN(2, D, 0, 10);
	IN(1, C, 6, 60);
	IN(2, E, 1, 20);
	OUT(1, C, 7, 70);
	OUT(2, E, 2, 300);
	t = finish();

	is_call(t, 0, A, NONE, 0, CALL_OPEN_AT_END, 0, 7, 0, 70, w);
	is_call(t, 1, B, 0, 1, CALL_OPEN_AT_END, 5, 7, 50, 70, w);
	is_call(t, 2, C, 1, 2, 0, 6, 7, 60, 70, w);
	is_call(t, 3, D, NONE, 0, CALL_OPEN_AT_END, 0, 2, 10, 300, w);
	is_call(t, 4, E, 3, 1, 0, 1, 2, 20, 300, w);
	is_anomalies(t, 0, 0, 0, 3, 0, 0, w);
	calltree_free(t);
}

/*
 * Unknown method 0x9c (used twice, counted once) and unknown thread 5.
 *   1 A in (0,0) 1 0x9c in (1,1) 1 0x9c out (2,2) 1 A out (3,3)
 *   5 0x9c in (0,10) 5 0x9c out (4,14)
 */
static void
test_unknown(void)
{
	struct calltree *t;
	uint32_t u;
	long t5;
	const char *w = "unknown";

	start();
	thread(1, "main");
	IN(1, A, 0, 0);
	IN(1, 0x9c, 1, 1);
	OUT(1, 0x9c, 2, 2);
	OUT(1, A, 3, 3);
	IN(5, 0x9c, 0, 10);
	OUT(5, 0x9c, 4, 14);
	t = finish();

	u = mi(t, 0x9c);
	ok(u != NONE, "%s: the id has a method entry", w);
	if (u != NONE) {
		is_str(t->methods[u].name, "(unknown 0x9c)",
		       "%s: placeholder name names the id", w);
		is_str(t->methods[u].klass, "", "%s: no class", w);
		ok(!t->methods[u].defined, "%s: not defined", w);
	}
	ok(t->methods[mi(t, A)].defined, "%s: A is defined", w);
	is_u64(t->anomalies.unknown_methods, 1, "%s: one unknown method", w);
	t5 = calltree_find_thread(t, 5);
	ok(t5 == 1, "%s: tid 5 is thread 1", w);
	if (t5 >= 0) {
		is_str(t->threads[t5].name, "Thread 5",
		       "%s: placeholder thread name", w);
		ok(!t->threads[t5].defined, "%s: tid 5 not defined", w);
		is_thread(t, (size_t)t5, 5, 2, 1, w);
	}
	is_u64(t->anomalies.unknown_threads, 1, "%s: one unknown thread", w);
	is_call(t, 1, 0x9c, 0, 1, 0, 1, 2, 1, 2, w);
	is_call(t, 2, 0x9c, NONE, 0, 0, 0, 4, 10, 14, w);
	calltree_free(t);
}

/*
 * Clock repairs.
 *  a) thread-cpu starting at 1000000: rebased to 0; wall is not rebased.
 *     A in (1000000,500) B in (1000010,510) B out (1000030,530)
 *     A out (1000050,560) -> A [0,50] [500,560], B [10,30] [510,530].
 *  b) backward steps, clamped step by step and counted once per clock
 *     (FORMAT.md 8.6: the step back counts 0, the later steps in full):
 *     A in (0,100) B in (10,90) B out (5,120) A out (20,130)
 *     -> wall 100, 100 (-10 as 0), 130 (+30), 140 (+10); cpu 0, 10,
 *     10 (-5 as 0), 25 (+15): A [0,25] [100,140], B [10,10] [100,130].
 *  c) 32-bit wraps: cpu 0xFFFFFFF0 -> 0x10 -> 0x20 -> 0x30 becomes
 *     0, 0x20, 0x30, 0x40 after rebasing (0x1_0000_0010 - 0xFFFF_FFF0 =
 *     32); wall 0xFFFFFF00 = 4294967040, 0x100 -> 4294967552, 0x200 ->
 *     4294967808, 0x300 -> 4294968064.  One wrap per clock.
 *  d) action 3 is counted and closes B like an exit:
 *     A in (0,0) B in (1,1) B action-3 (2,2) A out (3,3).
 */
/*
 * Times past 2^32 microseconds, stored as low bits and a step table, and
 * calls of 65535 microseconds or more (A: 2^32 + 16, B: 2^31 - 1), kept
 * in the side table.
 *  Thread 1: A in (0, 0) B in (1, 0x7FFFFFFF) B out (2, 0xFFFFFFFE)
 *  A out (3, 0x10): the wall clock wraps once, so A lasts 2^32 + 16.
 *  Thread 2: D in (0, 0xFFFFFFF0) D out (1, 0x5: wraps) F in (2, 0x6)
 *  F out (3, 0x7) E out (4, 0x8): E is an orphan starting at the
 *  thread's first event (before the wrap) and adopting D and F, so in
 *  pre-order the high half goes 0, 0 (E, D), then 1 (F).
 */
static void
test_long_times(void)
{
	const uint64_t w = UINT64_C(1) << 32;
	struct calltree *t;

	start();
	IN(1, A, 0, 0);
	IN(1, B, 1, 0x7FFFFFFF);
	OUT(1, B, 2, 0xFFFFFFFE);
	OUT(1, A, 3, 0x10);
	IN(2, D, 0, 0xFFFFFFF0);
	OUT(2, D, 1, 0x5);
	IN(2, F, 2, 0x6);
	OUT(2, F, 3, 0x7);
	OUT(2, E, 4, 0x8);
	t = finish();
	is_call(t, 0, A, NONE, 0, 0, 0, 3, 0, w + 0x10, "long times");
	is_call(t, 1, B, 0, 1, 0, 1, 2, 0x7FFFFFFF, 0xFFFFFFFE, "long times");
	is_call(t, 2, E, NONE, 0, CALL_ORPHAN, 0, 4, 0xFFFFFFF0, w + 8,
	        "long times");
	is_call(t, 3, D, 2, 1, 0, 0, 1, 0xFFFFFFF0, w + 5, "long times");
	is_call(t, 4, F, 2, 1, 0, 2, 3, w + 6, w + 7, "long times");
	is_u64(calltree_duration(t, 0, CLOCK_WALL), w + 0x10,
	       "long times: A lasts 2^32 + 16");
	is_u64(t->calls.nlongs[CLOCK_WALL], 2, "long times: two long calls");
	calltree_free(t);
}

static void
test_clock_repairs(void)
{
	struct calltree *t;

	start();
	IN(1, A, 1000000, 500);
	IN(1, B, 1000010, 510);
	OUT(1, B, 1000030, 530);
	OUT(1, A, 1000050, 560);
	t = finish();
	is_call(t, 0, A, NONE, 0, 0, 0, 50, 500, 560, "rebase");
	is_call(t, 1, B, 0, 1, 0, 10, 30, 510, 530, "rebase");
	is_span(t, 0, 0, 50, 500, 560, "rebase");
	is_u64(t->anomalies.negative_steps[CLOCK_CPU] +
	               t->anomalies.wraps[CLOCK_CPU],
	       0, "rebase: no anomaly");
	calltree_free(t);

	start();
	IN(1, A, 0, 100);
	IN(1, B, 10, 90);
	OUT(1, B, 5, 120);
	OUT(1, A, 20, 130);
	t = finish();
	is_call(t, 0, A, NONE, 0, 0, 0, 25, 100, 140, "negative step");
	is_call(t, 1, B, 0, 1, 0, 10, 10, 100, 130, "negative step");
	is_u64(t->anomalies.negative_steps[CLOCK_CPU], 1,
	       "negative step: one on cpu");
	is_u64(t->anomalies.negative_steps[CLOCK_WALL], 1,
	       "negative step: one on wall");
	is_u64(t->anomalies.wraps[CLOCK_CPU] + t->anomalies.wraps[CLOCK_WALL],
	       0, "negative step: not a wrap");
	calltree_free(t);

	start();
	IN(1, A, 0xFFFFFFF0, 0xFFFFFF00);
	OUT(1, A, 0x10, 0x100);
	IN(1, B, 0x20, 0x200);
	OUT(1, B, 0x30, 0x300);
	t = finish();
	is_call(t, 0, A, NONE, 0, 0, 0, 32, UINT64_C(4294967040),
	        UINT64_C(4294967552), "wrap");
	is_call(t, 1, B, NONE, 0, 0, 48, 64, UINT64_C(4294967808),
	        UINT64_C(4294968064), "wrap");
	is_u64(t->anomalies.wraps[CLOCK_CPU], 1, "wrap: one on cpu");
	is_u64(t->anomalies.wraps[CLOCK_WALL], 1, "wrap: one on wall");
	is_u64(t->anomalies.negative_steps[CLOCK_CPU] +
	               t->anomalies.negative_steps[CLOCK_WALL],
	       0, "wrap: not a negative step");
	is_u64(calltree_thread_span(t, 0, CLOCK_WALL), 1024,
	       "wrap: wall span 0x300 + 2^32 - 0xFFFFFF00 = 1024");
	calltree_free(t);

	start();
	IN(1, A, 0, 0);
	IN(1, B, 1, 1);
	ev(1, B, TRACE_ACTION3, 2, 2);
	OUT(1, A, 3, 3);
	t = finish();
	is_call(t, 0, A, NONE, 0, 0, 0, 3, 0, 3, "action 3");
	is_call(t, 1, B, 0, 1, 0, 1, 2, 1, 2, "action 3");
	is_anomalies(t, 0, 0, 0, 0, 0, 1, "action 3");
	calltree_free(t);
}

/*
 * ART <= 13 writes the full tid in *threads but only its low 16 bits in
 * records: key thread 70000 ("big tid") and records from 70000 & 0xFFFF =
 * 4464 are the same thread.
 */
static void
test_big_tid(void)
{
	struct calltree *t;
	const char *w = "tid > 65535";

	start();
	thread(70000, "big tid");
	IN(4464, A, 0, 0);
	OUT(4464, A, 5, 5);
	t = finish();
	is_u64(t->nthreads, 1, "%s: one thread", w);
	is_u64(t->threads[0].tid, 70000, "%s: the key's id", w);
	is_str(t->threads[0].name, "big tid", "%s: the key's name", w);
	is_u64(t->threads[0].nevents, 2, "%s: both records on it", w);
	is_thread(t, 0, 70000, 0, 1, w);
	is_u64(t->anomalies.unknown_threads, 0, "%s: nothing unknown", w);
	calltree_free(t);
}

/* Properties, and a trace with only the wall clock. */
static void
test_properties_and_wall_only(void)
{
	struct calltree *t;
	struct scope all;
	struct profile p;

	start();
	cur->property(cur->ctx, "vm", "art");
	cur->property(cur->ctx, "data-file-overflow", "true");
	IN(1, A, 0, 0);
	OUT(1, A, 1, 1);
	t = finish();
	is_str(calltree_property(t, "vm"), "art", "properties: vm");
	ok(calltree_property(t, "pid") == NULL, "properties: no pid");
	ok(t->anomalies.data_file_overflow,
	   "properties: data-file-overflow=true is an anomaly");
	calltree_free(t);

	start_clock(TRACE_CLOCK_WALL);
	IN(1, A, 0, 100);
	OUT(1, A, 0, 150);
	t = finish();
	ok(!t->has_clock[CLOCK_CPU] && t->has_clock[CLOCK_WALL],
	   "wall only: only the wall clock");
	ok(t->calls.start[CLOCK_CPU] == NULL, "wall only: no cpu array");
	ok(calltree_default_clock(t) == CLOCK_WALL,
	   "wall only: default clock wall");
	is_u64(calltree_duration(t, 0, CLOCK_WALL), 50,
	       "wall only: A lasts 50");
	scope_init_all(&all, t);
	profile_compute(&p, t, &all);
	ok(p.total[CLOCK_CPU] == 0 && p.total[CLOCK_WALL] == 50,
	   "wall only: totals cpu 0, wall 50");
	ok(p.rows[0].incl[CLOCK_WALL] == 50 && p.rows[0].incl[CLOCK_CPU] == 0,
	   "wall only: A incl wall 50, cpu 0");
	profile_done(&p);
	scope_done(&all);
	calltree_free(t);
}

/*
 * A time range cuts calls at its edges; the cpu reading at an edge is
 * interpolated between the thread's events around it.
 *   A wall [0,100] cpu [0,50], inside it B wall [20,60] cpu [10,40];
 *   range wall [40,80):
 *   wall: A 80 - 40 = 40, B 60 - 40 = 20; A excl 40 - 20 = 20.
 *   cpu at wall 40: between B's entry (20, 10) and exit (60, 40):
 *     10 + 30 * 20 / 40 = 25;
 *   cpu at wall 80: between B's exit (60, 40) and A's exit (100, 50):
 *     40 + 10 * 20 / 40 = 45;
 *   cpu: A 45 - 25 = 20, B 40 - 25 = 15; A excl 20 - 15 = 5.
 *   totals: wall 40, cpu 45 - 25 = 20.
 * A range holding the whole thread changes nothing; one after it leaves
 * no calls.
 */
static void
test_range(void)
{
	const char *w = "range";
	struct calltree *t;
	struct scope sc;
	struct profile p, whole;
	uint32_t a, b;

	start();
	thread(1, "main");
	IN(1, A, 0, 0);
	IN(1, B, 10, 20);
	OUT(1, B, 40, 60);
	OUT(1, A, 50, 100);
	t = finish();
	a = mi(t, A);
	b = mi(t, B);
	scope_init_all(&sc, t);
	ok(scope_parse_range("40us..80us", CLOCK_WALL, &sc.range),
	   "%s: 40us..80us parses", w);
	profile_compute(&p, t, &sc);
	is_u64(p.total[CLOCK_WALL], 40, "%s: wall total 40", w);
	is_u64(p.total[CLOCK_CPU], 20, "%s: cpu total 20", w);
	is_u64(p.rows[a].incl[CLOCK_WALL], 40, "%s: A incl wall 40", w);
	is_u64(p.rows[a].excl[CLOCK_WALL], 20, "%s: A excl wall 20", w);
	is_u64(p.rows[b].incl[CLOCK_WALL], 20, "%s: B incl wall 20", w);
	is_u64(p.rows[a].incl[CLOCK_CPU], 20, "%s: A incl cpu 20", w);
	is_u64(p.rows[a].excl[CLOCK_CPU], 5, "%s: A excl cpu 5", w);
	is_u64(p.rows[b].incl[CLOCK_CPU], 15, "%s: B incl cpu 15", w);
	is_u64(p.rows[a].calls + p.rows[b].calls, 2, "%s: both calls count", w);
	profile_done(&p);

	ok(scope_parse_range("0..1", CLOCK_WALL, &sc.range),
	   "%s: 0..1 (ms) parses", w);
	profile_compute(&p, t, &sc);
	sc.range.on = false;
	profile_compute(&whole, t, &sc);
	ok(memcmp(p.rows, whole.rows, t->nmethods * sizeof(*p.rows)) == 0 &&
	           p.total[0] == whole.total[0] && p.total[1] == whole.total[1],
	   "%s: a range around everything changes nothing", w);
	profile_done(&p);
	profile_done(&whole);

	ok(scope_parse_range("200us..300us", CLOCK_WALL, &sc.range),
	   "%s: 200us..300us parses", w);
	profile_compute(&p, t, &sc);
	is_u64(p.rows[a].calls + p.rows[b].calls, 0, "%s: no calls after", w);
	is_u64(p.total[CLOCK_WALL], 0, "%s: nothing after the thread", w);
	profile_done(&p);
	ok(!scope_parse_range("5..5", CLOCK_WALL, &sc.range) &&
	           !scope_parse_range("x..5", CLOCK_WALL, &sc.range) &&
	           !scope_parse_range("5", CLOCK_WALL, &sc.range),
	   "%s: empty and malformed ranges are refused", w);
	scope_done(&sc);
	calltree_free(t);
}

/*
 * Callers found by depth.  Thread 1: A, under it 5000 leaves B, then a
 * chain of 70000 calls C (past the 16-bit depths, whose callers come
 * from the side table) with a leaf B under every 1000th, then a last B
 * under A, whose caller lies 75000 calls back.  Without orphans, calls
 * are numbered in entry order, so each one's caller is the call on top
 * of the stack when it entered.
 */
static void
test_parents_by_depth(void)
{
	enum { LEAVES = 5000, CHAIN = 70000, CALLS = 1 + LEAVES + CHAIN + 71 };
	uint32_t *want = calloc(CALLS, sizeof(*want)), *stack, n = 0, top = 0;
	uint32_t *depth_of = calloc(CALLS, sizeof(*depth_of));
	uint64_t now = 0, wrong_parent = 0, wrong_depth = 0;
	struct calltree *t;
	size_t c;

	stack = calloc(CHAIN + 2, sizeof(*stack));
#define ENTER(m)                                                               \
	do {                                                                   \
		want[n] = top ? stack[top - 1] : NONE;                         \
		stack[top++] = n++;                                            \
		IN(1, m, now, now);                                            \
		now++;                                                         \
	} while (0)
#define LEAVE(m)                                                               \
	do {                                                                   \
		top--;                                                         \
		OUT(1, m, now, now);                                           \
		now++;                                                         \
	} while (0)
	start();
	ENTER(A);
	for (c = 0; c < LEAVES; c++) {
		ENTER(B);
		LEAVE(B);
	}
	for (c = 0; c < CHAIN; c++) {
		ENTER(C);
		if (c % 1000 == 0) {
			ENTER(B);
			LEAVE(B);
		}
	}
	for (c = 0; c < CHAIN; c++)
		LEAVE(C);
	ENTER(B);
	LEAVE(B);
	LEAVE(A);
#undef ENTER
#undef LEAVE
	t = finish();
	is_u64(t->calls.count, n, "parents by depth: %u calls", n);
	for (c = 0; c < t->calls.count && c < n; c++) {
		/* A caller comes before its calls. */
		depth_of[c] = want[c] == NONE ? 0 : depth_of[want[c]] + 1;
		wrong_parent += calltree_parent(t, c) != want[c];
		wrong_depth += calltree_depth(t, c) != depth_of[c];
	}
	is_u64(wrong_parent, 0, "parents by depth: every caller found");
	is_u64(wrong_depth, 0, "parents by depth: every depth right");
	ok(t->calls.ndeep > 0,
	   "parents by depth: deep calls in the side table");
	free(want);
	free(depth_of);
	free(stack);
	calltree_free(t);
}

/*
 * Method indexes past 16 bits.  Thread 1 calls A, then 70000 methods the
 * key lacks (ids 0x10000 + 4i), each once under A: the model numbers them
 * 8 + i after the key's 8, so it keeps its methods in 32 bits; with the
 * key's 8 only, in 16.
 */
static void
test_wide_methods(void)
{
	enum { UNKNOWN = 70000 };
	uint64_t wrong = 0, now = 1;
	struct calltree *t;
	size_t i;

	start();
	IN(1, A, 0, 0);
	for (i = 0; i < UNKNOWN; i++) {
		IN(1, 0x10000 + 4 * i, now, now);
		OUT(1, 0x10000 + 4 * i, now, now);
		now++;
	}
	OUT(1, A, now, now);
	t = finish();
	is_u64(t->nmethods, 8 + UNKNOWN, "wide methods: %d methods",
	       8 + UNKNOWN);
	ok(t->calls.method16 == NULL, "wide methods: kept in 32 bits");
	wrong += calltree_method(t, 0) != mi(t, A);
	for (i = 0; i < UNKNOWN; i++)
		wrong += calltree_method(t, 1 + i) != 8 + i ||
		         t->methods[8 + i].id != 0x10000 + 4 * i;
	is_u64(wrong, 0, "wide methods: every call's method");
	calltree_free(t);

	start();
	IN(1, A, 0, 0);
	IN(1, E, 1, 1);
	OUT(1, E, 2, 2);
	OUT(1, A, 3, 3);
	t = finish();
	ok(t->calls.method16 != NULL && !t->calls.method,
	   "narrow methods: kept in 16 bits");
	ok(calltree_method(t, 0) == mi(t, A) &&
	           calltree_method(t, 1) == mi(t, E),
	   "narrow methods: A then E");
	calltree_free(t);
}

/* The sums' reader of records: windows read from the file by offset,
 * across a gap between pieces, and the memory itself without the file
 * or when the file gives fewer bytes. */
static void
test_records_window(void)
{
	enum { SIZE = 14, COUNT = 100, AT = 18, GAP = 7, SECOND = 50 };
	static unsigned char mem[AT + COUNT * SIZE + GAP];
	char path[] = "/tmp/unit-calltree-XXXXXX";
	struct trace_piece pieces[2];
	struct trace_records run = {0}, v, w;
	struct build_worker worker;
	size_t i, stop;
	int fd = mkstemp(path);

	for (i = 0; i < sizeof(mem); i++)
		mem[i] = (unsigned char)(i * 7 + 3);
	if (!ok(fd >= 0 && write(fd, mem, sizeof(mem)) == sizeof(mem),
	        "records window: a file written"))
		return;
	memset(&worker, 0, sizeof(worker));
	/* Records 0..49 at AT, then a 7-byte packet, then 50..99. */
	pieces[0] = (struct trace_piece){mem + AT, 0};
	pieces[1] =
	        (struct trace_piece){mem + AT + SECOND * SIZE + GAP, SECOND};
	run.data = mem + AT;
	run.count = COUNT - 1; /* the last record's bytes end the file */
	run.size = SIZE;
	run.offset = AT;
	run.pieces = pieces;
	run.npieces = 2;
	run.has_fd = true;
	run.fd = fd;
	v = trace_records_at(&run, 60, &stop);
	w = build_records_window(&worker, &run, &v, 60, stop, &stop);
	ok(stop == COUNT - 1, "records window: up to the piece's end (%zu)",
	   stop);
	ok(w.data != v.data && !memcmp(w.data + 60 * SIZE, v.data + 60 * SIZE,
	                               (stop - 60) * SIZE),
	   "records window: read from the file past the packet, as mapped");
	v = trace_records_at(&run, 3, &stop);
	w = build_records_window(&worker, &run, &v, 3, 7, &stop);
	ok(stop == 7 &&
	           !memcmp(w.data + 3 * SIZE, mem + AT + 3 * SIZE, 4 * SIZE),
	   "records window: a range of the first piece");
	if (ftruncate(fd, AT + 10 * SIZE) == 0) {
		w = build_records_window(&worker, &run, &v, 3, 40, &stop);
		ok(stop == 40 && w.data == v.data,
		   "records window: a file that shrank is read as mapped");
	}
	run.has_fd = false;
	w = build_records_window(&worker, &run, &v, 3, 40, &stop);
	ok(stop == 40 && w.data == v.data,
	   "records window: without the file, the memory");
	free(worker.window);
	close(fd);
	unlink(path);
}

/* ---- threads settled in turn ---------------------------------------- */

/* Events of threads that come one after another (tids 1, 2, 3, 5, then
 * 7 with an orphan, recursion, a mismatch, a call of 2^16 us and more,
 * starts past 2^16 us, a frame open at the end), 4 and 6 named, never
 * run; fed to a builder whose header says threads_in_turn when in_turn,
 * with no_turns when keep. */
static struct calltree *
turns_model(bool in_turn, bool keep, bool out_of_turn, bool *spoiled)
{
	struct trace_header h = trace_header_v1(TRACE_CLOCK_DUAL, 64);
	uint32_t tid;

	h.threads_in_turn = in_turn;
	cur_builder = calltree_builder_new("unit-calltree turns");
	cur_builder->no_turns = keep;
	cur = calltree_builder_sink(cur_builder);
	cur->begin(cur->ctx, &h);
	for (tid = 1; tid <= 7; tid++)
		thread(tid, tid == 4 ? "named" : "t");
	IN(1, A, 0, 10);
	IN(1, B, 1, 11);
	OUT(1, B, 2, 12);
	OUT(1, A, 3, 13);
	IN(2, A, 0, 20);
	IN(2, A, 1, 21);
	IN(2, A, 2, 22);
	OUT(2, A, 3, 23);
	OUT(2, A, 4, 24);
	OUT(2, A, 70000, 90000);
	IN(3, C, 5, 100000);
	if (out_of_turn)
		IN(1, C, 6, 100001);
	IN(3, D, 6, 100010);
	OUT(3, C, 7, 100020); /* D lost its exit */
	OUT(5, X, 8, 130000); /* an orphan */
	IN(5, Y, 9, 130010);
	IN(7, E, 10, 200000);
	IN(7, M, 11, 200001); /* open at the end */
	*spoiled = cur_builder->spoiled;
	return finish();
}

/* The two models the same, field by field. */
static bool
same_models(const struct calltree *a, const struct calltree *b)
{
	size_t i;
	int k;

	if (a->nthreads != b->nthreads || a->calls.count != b->calls.count ||
	    memcmp(&a->anomalies, &b->anomalies, sizeof(a->anomalies)) ||
	    a->sampled != b->sampled)
		return false;
	for (i = 0; i < a->nthreads; i++) {
		const struct tt_thread *x = &a->threads[i], *y = &b->threads[i];

		if (x->tid != y->tid || x->first_call != y->first_call ||
		    x->ncalls != y->ncalls || x->nevents != y->nevents ||
		    x->max_depth != y->max_depth ||
		    memcmp(x->first, y->first, sizeof(x->first)) ||
		    memcmp(x->last, y->last, sizeof(x->last)) ||
		    strcmp(x->name, y->name))
			return false;
	}
	for (i = 0; i < a->calls.count; i++) {
		if (calltree_method(a, i) != calltree_method(b, i) ||
		    calltree_depth(a, i) != calltree_depth(b, i) ||
		    calltree_parent(a, i) != calltree_parent(b, i) ||
		    a->calls.flags[i] != b->calls.flags[i])
			return false;
		for (k = 0; k < CLOCK_COUNT; k++)
			if (calltree_start(a, i, k) !=
			            calltree_start(b, i, k) ||
			    calltree_duration(a, i, k) !=
			            calltree_duration(b, i, k))
				return false;
	}
	return true;
}

static void
test_threads_in_turn(void)
{
	struct calltree *kept, *turns, *again;
	bool spoiled;
	const char *w = "threads in turn";

	kept = turns_model(false, false, false, &spoiled);
	turns = turns_model(true, false, false, &spoiled);
	ok(!spoiled, "%s: not spoiled", w);
	ok(same_models(kept, turns),
	   "%s: settled thread by thread, the model of every state kept", w);
	is_u64(turns->threads[3].first_call, turns->threads[4].first_call,
	       "%s: a thread that never ran sits between the others", w);
	calltree_free(turns);
	/* Thread 1 back after its turn: the load is spoiled (to be made
	 * again with no_turns), which then gives the model. */
	calltree_free(turns_model(true, false, true, &spoiled));
	ok(spoiled, "%s: a thread back after its turn spoils the load", w);
	turns = turns_model(true, true, true, &spoiled);
	again = turns_model(false, false, true, &spoiled);
	ok(!spoiled && same_models(turns, again),
	   "%s: with no_turns, the model of every state kept", w);
	calltree_free(turns);
	calltree_free(again);
	calltree_free(kept);
}

int
main(void)
{
	test_records_window();
	test_cache_many_threads();
	test_simple();
	test_direct_recursion();
	test_indirect_recursion();
	test_two_threads();
	test_unwind();
	test_orphan();
	test_two_orphans();
	test_orphans_two_threads();
	test_orphan_unwind();
	test_mismatch();
	test_open_at_end();
	test_unknown();
	test_clock_repairs();
	test_long_times();
	test_parents_by_depth();
	test_wide_methods();
	test_big_tid();
	test_properties_and_wall_only();
	test_range();
	test_threads_in_turn();
	return done_testing();
}
