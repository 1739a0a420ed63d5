/*
 * fuzz-trace: a libFuzzer target over the model pipeline.  Each input is
 * detected and read with trace_load_bytes into the calltree builder; the
 * finished model is aggregated with profile_compute, profile_edges_compute
 * and callpath_build (per thread and merged), and every invariant the
 * headers promise is checked, with abort() on the first violation:
 *
 *   calls    method index in range; parent CALL_NONE (depth 0) or an
 *            earlier call of the same thread (depth = parent's + 1) that
 *            is an ancestor on the pre-order path; recursion flag set
 *            exactly when the method is on that path; start <= end on
 *            each clock, inside the thread's first..last event, inside
 *            the parent, after the previous sibling's end;
 *   threads  ranges [first_call, +ncalls) tile [0, calls.count) in order;
 *            max_depth is the deepest call; anomaly counters match flags;
 *   profile  every row equals an independent per-call recomputation, and
 *            the exclusive times of all methods add up to the durations of
 *            the root calls, which fit in the threads' traced time;
 *   callpath each node's inclusive time covers its children's, exclusive
 *            is the difference, and every call is counted once; every
 *            thread's tree built in pieces of 1 and 3 calls and merged
 *            is its one-pass tree, node for node;
 *   bottom-up the inverted merged tree: its roots hold every call and all
 *            the exclusive time, each node's callers fit inside it, and
 *            no node lies below the depth it says it was cut at;
 *   timeline every thread's dominant call of its whole span, of halves
 *            and of single instants belongs to the thread and overlaps the
 *            slice; each method's calls are its own;
 *   diff     the trace compared with itself: every row on both sides with
 *            equal values;
 *   viewer   (small models) the headless app draws every view, the icicle
 *            top-down and bottom-up, and every cell it paints is escaped;
 *   escaping the input as a string through text_escape, text_json,
 *            text_csv and text_xml leaves no control byte, and JSON no
 *            raw C1 or invalid UTF-8; the input as a name kept whole
 *            (its NULs as C0 80, trace_name_dup) the same, each NUL
 *            shown as \x00;
 *   threads  the input loaded by three workers when none, one or two of
 *            their threads can start (the others' work run on the
 *            loading thread) gives the same calls and profile;
 *   pprof    no unmatched events; the profile is read again on its first
 *            sample type;
 *   simpleperf no unmatched events; the recording is read again on all
 *            its event types, and with Java frames only;
 *   sums     the input loaded for its profile only (as `report` does)
 *            loads, with the same anomalies and the same profile of all
 *            threads and of each, whether it was summed or modelled,
 *            and each thread's summed call paths and frames (of a
 *            fifth of the methods) are its calls'; loaded so without
 *            paths or frames too (a nested trace's events, simpleperf's,
 *            are then summed as they come).
 *
 * Built with FUZZ_REPLAY_MAIN it has a main of its own instead of
 * libFuzzer's: every file named on the command line is run through the
 * same function, so `make check` replays tests/fuzz-corpus without clang;
 * with --prefixes SKIP STRIDE, every cut of each file (each of the first
 * SKIP bytes, then every STRIDE), so a suite cuts a file in one process.
 */
#include "config.h"

#include "query/callpath.h"
#include "model/builder.h"
#include "model/calltree.h"
#include "query/diff.h"
#include "query/profile.h"
#include "query/timeline.h"
#include "model/scope.h"
#include "read/bytes.h"
#include "read/load.h"
#include "text/width.h"
#include "tui/app.h"
#include "tui/canvas.h"
#include "tui/request.h"
#include "util/alloc.h"
#include "util/thread.h"

#include "profile-same.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ALL_FLAGS                                                              \
	(CALL_RECURSIVE | CALL_OPEN_AT_END | CALL_ORPHAN | CALL_UNWOUND |      \
	 CALL_LOST_EXIT)

/* Report a broken invariant and abort, so the fuzzer keeps the input. */
static void __attribute__((noreturn, format(printf, 2, 3)))
violation(int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz-trace.c:%d: invariant violated: ", line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (!(cond))                                                   \
			violation(__LINE__, __VA_ARGS__);                      \
	} while (0)

/* What the call walk learns, for the aggregate checks. */
struct walk {
	uint64_t *child_sum[CLOCK_COUNT]; /* per call: children's durations */
	uint64_t root_sum[CLOCK_COUNT];   /* durations of root calls */
	uint64_t span_sum[CLOCK_COUNT];   /* traced time of all threads */
};

static uint64_t
duration(const struct calltree *tree, size_t i, int k)
{
	return calltree_duration(tree, i, k);
}

/* Bytes of every string read, so no strlen is optimised away. */
static volatile size_t string_bytes;

/* A string the model promises: not NULL and readable to its end. */
static void
check_string(const char *s, const char *what, size_t i)
{
	CHECK(s, "%s %zu: NULL string", what, i);
	string_bytes += strlen(s);
}

static void
check_strings(const struct calltree *tree)
{
	size_t i, unknown = 0;

	for (i = 0; i < tree->nmethods; i++) {
		const struct tt_method *m = &tree->methods[i];

		check_string(m->klass, "method", i);
		check_string(m->name, "method", i);
		check_string(m->signature, "method", i);
		if (m->file)
			check_string(m->file, "method", i);
		if (!m->defined)
			unknown++;
	}
	CHECK(unknown == tree->anomalies.unknown_methods,
	      "%zu undefined methods, anomalies say %" PRIu64, unknown,
	      tree->anomalies.unknown_methods);
	for (i = 0; i < tree->nproperties; i++) {
		check_string(tree->properties[i].key, "property", i);
		check_string(tree->properties[i].value, "property", i);
	}
	for (i = 0; i < tree->nwarnings; i++)
		check_string(tree->warnings[i].message, "warning", i);
	for (i = 0; i < tree->nthreads; i++)
		check_string(tree->threads[i].name, "thread", i);
}

/* The calls of thread t, in pre-order, against everything above. */
static void
check_thread_calls(const struct calltree *tree, size_t t, struct walk *w,
                   uint32_t *path, uint32_t *on_path, uint64_t **lower,
                   uint64_t *flag_counts)
{
	const struct tt_calls *c = &tree->calls;
	const struct tt_thread *th = &tree->threads[t];
	size_t plen = 0, i, end = (size_t)th->first_call + th->ncalls;
	uint64_t thread_roots[CLOCK_COUNT] = {0};
	uint32_t max_depth = 0;
	int k, f;

	for (k = 0; k < CLOCK_COUNT; k++)
		if (tree->has_clock[k])
			lower[k][0] = th->first[k];
	for (i = th->first_call; i < end; i++) {
		uint32_t m = calltree_method(tree, i),
		         p = calltree_parent(tree, i),
		         d = calltree_depth(tree, i);

		CHECK(m < tree->nmethods, "call %zu: method %" PRIu32 " of %zu",
		      i, m, tree->nmethods);
		CHECK(!(c->flags[i] & ~ALL_FLAGS), "call %zu: flags 0x%x", i,
		      c->flags[i]);
		if (p == CALL_NONE) {
			CHECK(d == 0, "root call %zu has depth %" PRIu32, i, d);
		} else {
			CHECK(p >= th->first_call && p < i,
			      "call %zu: parent %" PRIu32
			      " outside thread %zu's calls before it",
			      i, p, t);
			CHECK(d == calltree_depth(tree, p) + 1,
			      "call %zu: depth %" PRIu32 ", parent's %" PRIu32,
			      i, d, calltree_depth(tree, p));
		}
		/* Leave the subtrees that ended before call i. */
		while (plen && path[plen - 1] != p)
			on_path[calltree_method(tree, path[--plen])]--;
		CHECK(plen == d,
		      "call %zu: parent %" PRIu32
		      " is not on the pre-order path (depth %" PRIu32
		      ", path %zu)",
		      i, p, d, plen);
		CHECK(!!(c->flags[i] & CALL_RECURSIVE) == !!on_path[m],
		      "call %zu: recursive flag %d, method on the path %" PRIu32
		      " times",
		      i, !!(c->flags[i] & CALL_RECURSIVE), on_path[m]);
		for (k = 0; k < CLOCK_COUNT; k++) {
			uint64_t s, e;

			if (!tree->has_clock[k])
				continue;
			s = calltree_start(tree, i, k);
			e = calltree_end(tree, i, k);
			CHECK(s <= e,
			      "call %zu clock %d: start %" PRIu64
			      " > end %" PRIu64,
			      i, k, s, e);
			CHECK(s >= th->first[k] && e <= th->last[k],
			      "call %zu clock %d: [%" PRIu64 ", %" PRIu64
			      "] outside thread %zu's [%" PRIu64 ", %" PRIu64
			      "]",
			      i, k, s, e, t, th->first[k], th->last[k]);
			if (p != CALL_NONE)
				CHECK(s >= calltree_start(tree, p, k) &&
				              e <= calltree_end(tree, p, k),
				      "call %zu clock %d: [%" PRIu64
				      ", %" PRIu64 "] outside parent %" PRIu32
				      " [%" PRIu64 ", %" PRIu64 "]",
				      i, k, s, e, p, calltree_start(tree, p, k),
				      calltree_end(tree, p, k));
			CHECK(s >= lower[k][d],
			      "call %zu clock %d: starts at %" PRIu64
			      " before its previous sibling ends at %" PRIu64,
			      i, k, s, lower[k][d]);
			lower[k][d] = e;
			lower[k][d + 1] = s;
			if (c->flags[i] & CALL_OPEN_AT_END)
				CHECK(e == th->last[k],
				      "open call %zu clock "
				      "%d ends at %" PRIu64 ", not at %" PRIu64,
				      i, k, e, th->last[k]);
			if (c->flags[i] & CALL_ORPHAN)
				CHECK(s == th->first[k],
				      "orphan %zu clock %d "
				      "starts at %" PRIu64 ", not at %" PRIu64,
				      i, k, s, th->first[k]);
			if (p == CALL_NONE)
				thread_roots[k] += e - s;
			else
				w->child_sum[k][p] += e - s;
		}
		for (f = 0; f < 8; f++)
			if (c->flags[i] & 1 << f)
				flag_counts[f]++;
		path[plen++] = (uint32_t)i;
		on_path[m]++;
		if (d + 1 > max_depth)
			max_depth = d + 1;
	}
	while (plen)
		on_path[calltree_method(tree, path[--plen])]--;
	CHECK(th->max_depth == max_depth,
	      "thread %zu: max_depth %" PRIu32 ", deepest call %" PRIu32, t,
	      th->max_depth, max_depth);
	for (k = 0; k < CLOCK_COUNT; k++) {
		if (!tree->has_clock[k])
			continue;
		CHECK(thread_roots[k] <= calltree_thread_span(tree, t, k),
		      "thread %zu clock %d: root calls last %" PRIu64
		      ", the thread spans %" PRIu64,
		      t, k, thread_roots[k], calltree_thread_span(tree, t, k));
		w->root_sum[k] += thread_roots[k];
		w->span_sum[k] += calltree_thread_span(tree, t, k);
	}
}

static void
check_model(const struct calltree *tree, struct walk *w)
{
	const struct tt_calls *c = &tree->calls;
	const struct tt_anomalies *an = &tree->anomalies;
	size_t n = c->count, t, i, next = 0, unknown_threads = 0;
	uint64_t events = 0, flag_counts[8] = {0};
	uint64_t *lower[CLOCK_COUNT] = {NULL};
	uint32_t *path, *on_path;
	int k;

	CHECK(!n || tree->has_clock[CLOCK_CPU] || tree->has_clock[CLOCK_WALL],
	      "%zu calls and no clock", n);
	for (k = 0; k < CLOCK_COUNT; k++) {
		CHECK(!n || !!c->start[k] == tree->has_clock[k],
		      "clock %d: has_clock %d, start array %s", k,
		      tree->has_clock[k], c->start[k] ? "set" : "NULL");
		CHECK(!n || !!c->duration[k] == tree->has_clock[k],
		      "clock %d: has_clock %d, duration array %s", k,
		      tree->has_clock[k], c->duration[k] ? "set" : "NULL");
		if (n && c->start[k]) {
			CHECK(c->nsteps[k] && !c->steps[k][0].first_call,
			      "clock %d: no time step at call 0", k);
			for (i = 1; i < c->nsteps[k]; i++)
				CHECK(c->steps[k][i - 1].first_call <
				                      c->steps[k][i]
				                              .first_call &&
				              c->steps[k][i].first_call < n,
				      "clock %d: step %zu out of order", k, i);
		}
		w->child_sum[k] = xcalloc(n + 1, sizeof(uint64_t));
		lower[k] = xcalloc(n + 2, sizeof(uint64_t));
	}
	path = xcalloc(n + 1, sizeof(*path));
	on_path = xcalloc(tree->nmethods + 1, sizeof(*on_path));
	for (t = 0; t < tree->nthreads; t++) {
		const struct tt_thread *th = &tree->threads[t];

		CHECK(th->first_call == next,
		      "thread %zu starts at call %" PRIu32 ", expected %zu", t,
		      th->first_call, next);
		CHECK(th->ncalls <= n - next,
		      "thread %zu: %" PRIu32 " calls from %zu, %zu in all", t,
		      th->ncalls, next, n);
		CHECK(th->nevents || !th->ncalls,
		      "thread %zu: %" PRIu32 " calls, no event", t, th->ncalls);
		for (k = 0; k < CLOCK_COUNT; k++) {
			if (!tree->has_clock[k])
				continue;
			CHECK(th->first[k] <= th->last[k],
			      "thread %zu clock "
			      "%d: first %" PRIu64 " > last %" PRIu64,
			      t, k, th->first[k], th->last[k]);
		}
		if (tree->has_clock[CLOCK_CPU] && th->nevents)
			CHECK(th->first[CLOCK_CPU] == 0,
			      "thread %zu: cpu "
			      "time not rebased",
			      t);
		if (!th->defined && th->nevents)
			unknown_threads++;
		events += th->nevents;
		check_thread_calls(tree, t, w, path, on_path, lower,
		                   flag_counts);
		next += th->ncalls;
	}
	CHECK(next == n, "threads own %zu calls of %zu", next, n);
	CHECK(events == tree->records,
	      "threads have %" PRIu64 " events, the model %" PRIu64 " records",
	      events, tree->records);
	for (i = 0; i < n; i++)
		for (k = 0; k < CLOCK_COUNT; k++)
			if (tree->has_clock[k])
				CHECK(w->child_sum[k][i] <=
				              duration(tree, i, k),
				      "call %zu clock %d: children last "
				      "%" PRIu64 ", the call %" PRIu64,
				      i, k, w->child_sum[k][i],
				      duration(tree, i, k));
	CHECK(unknown_threads == an->unknown_threads,
	      "%zu unnamed threads, "
	      "anomalies say %" PRIu64,
	      unknown_threads, an->unknown_threads);
	CHECK(flag_counts[2] == an->orphan_exits,
	      "%" PRIu64 " orphan calls, "
	      "%" PRIu64 " orphan exits",
	      flag_counts[2], an->orphan_exits);
	CHECK(flag_counts[1] == an->open_at_end,
	      "%" PRIu64 " open calls, "
	      "open_at_end %" PRIu64,
	      flag_counts[1], an->open_at_end);
	CHECK(flag_counts[4] == an->lost_exits,
	      "%" PRIu64 " lost-exit "
	      "calls, lost_exits %" PRIu64,
	      flag_counts[4], an->lost_exits);
	CHECK(flag_counts[3] <= an->unwinds,
	      "%" PRIu64 " unwound calls, "
	      "%" PRIu64 " unwinds",
	      flag_counts[3], an->unwinds);
	for (k = 0; k < CLOCK_COUNT; k++)
		free(lower[k]);
	free(path);
	free(on_path);
}

static void
check_profile(const struct calltree *tree, const struct scope *scope,
              const struct walk *w)
{
	const struct tt_calls *c = &tree->calls;
	struct profile prof;
	struct profile_row *want;
	uint64_t excl_sum[CLOCK_COUNT] = {0};
	size_t i, m;
	int k;

	profile_compute(&prof, tree, scope);
	CHECK(prof.nrows == tree->nmethods, "%zu rows for %zu methods",
	      prof.nrows, tree->nmethods);
	want = xcalloc(tree->nmethods + 1, sizeof(*want));
	for (i = 0; i < c->count; i++) {
		struct profile_row *r = &want[calltree_method(tree, i)];
		bool rec = c->flags[i] & CALL_RECURSIVE;

		if (rec)
			r->rcalls++;
		else
			r->calls++;
		for (k = 0; k < CLOCK_COUNT; k++) {
			uint64_t d, self;

			if (!tree->has_clock[k])
				continue;
			d = duration(tree, i, k);
			self = d - w->child_sum[k][i];
			r->excl[k] += self;
			if (!rec) {
				r->incl[k] += d;
				r->top_excl[k] += self;
			}
		}
	}
	for (m = 0; m < tree->nmethods; m++) {
		const struct profile_row *r = &prof.rows[m], *x = &want[m];

		CHECK(r->calls == x->calls && r->rcalls == x->rcalls,
		      "method %zu: %" PRIu64 "+%" PRIu64
		      " calls, counted %" PRIu64 "+%" PRIu64,
		      m, r->calls, r->rcalls, x->calls, x->rcalls);
		for (k = 0; k < CLOCK_COUNT; k++) {
			CHECK(r->incl[k] == x->incl[k] &&
			              r->excl[k] == x->excl[k] &&
			              r->top_excl[k] == x->top_excl[k],
			      "method %zu clock %d: incl/excl/top_excl %" PRIu64
			      "/%" PRIu64 "/%" PRIu64 ", counted %" PRIu64
			      "/%" PRIu64 "/%" PRIu64,
			      m, k, r->incl[k], r->excl[k], r->top_excl[k],
			      x->incl[k], x->excl[k], x->top_excl[k]);
			CHECK(r->top_excl[k] <= r->excl[k] &&
			              r->top_excl[k] <= r->incl[k],
			      "method %zu clock %d: top_excl %" PRIu64
			      " above excl %" PRIu64 " or incl %" PRIu64,
			      m, k, r->top_excl[k], r->excl[k], r->incl[k]);
			CHECK(r->excl[k] <= w->root_sum[k],
			      "method %zu clock %d: excl %" PRIu64
			      " above the root calls' %" PRIu64,
			      m, k, r->excl[k], w->root_sum[k]);
			excl_sum[k] += r->excl[k];
		}
	}
	for (k = 0; k < CLOCK_COUNT; k++) {
		/* A simpleperf recording's whole is its samples' time: the
		 * time between a thread's samples is nobody's (model/scope.h).
		 */
		uint64_t whole = tree->header.sample_weight ? w->root_sum[k]
		                                            : w->span_sum[k];

		CHECK(prof.total[k] == whole,
		      "clock %d: total %" PRIu64
		      ", threads' traced time %" PRIu64,
		      k, prof.total[k], whole);
		CHECK(excl_sum[k] == w->root_sum[k],
		      "clock %d: exclusive "
		      "times add up to %" PRIu64 ", root calls last %" PRIu64,
		      k, excl_sum[k], w->root_sum[k]);
		CHECK(w->root_sum[k] <= prof.total[k],
		      "clock %d: root calls "
		      "last %" PRIu64 ", total %" PRIu64,
		      k, w->root_sum[k], prof.total[k]);
	}
	free(want);
	profile_done(&prof);
}

/* Callers and callees of the method of the first call. */
static void
check_edges(const struct calltree *tree, const struct scope *scope)
{
	const struct tt_calls *c = &tree->calls;
	struct profile_edges e;
	uint64_t calls = 0, kids = 0, got_calls = 0, got_kids = 0;
	uint64_t incl[CLOCK_COUNT] = {0}, got_incl[CLOCK_COUNT] = {0};
	uint32_t m;
	size_t i;
	int k;

	if (!c->count)
		return;
	m = calltree_method(tree, 0);
	for (i = 0; i < c->count; i++) {
		if (calltree_method(tree, i) == m) {
			calls++;
			for (k = 0; k < CLOCK_COUNT; k++)
				if (tree->has_clock[k])
					incl[k] += duration(tree, i, k);
		}
		uint32_t p = calltree_parent(tree, i);

		if (p != CALL_NONE && calltree_method(tree, p) == m)
			kids++;
	}
	profile_edges_compute(&e, tree, scope, m, calltree_default_clock(tree));
	for (i = 0; i < e.nparents; i++) {
		got_calls += e.parents[i].calls;
		for (k = 0; k < CLOCK_COUNT; k++)
			got_incl[k] += e.parents[i].incl[k];
		CHECK(e.parents[i].method == CALL_NONE ||
		              e.parents[i].method < tree->nmethods,
		      "parent edge %zu: method %" PRIu32, i,
		      e.parents[i].method);
	}
	for (i = 0; i < e.nchildren; i++) {
		got_kids += e.children[i].calls;
		CHECK(e.children[i].method < tree->nmethods,
		      "child edge %zu: method %" PRIu32, i,
		      e.children[i].method);
	}
	CHECK(got_calls == calls && got_kids == kids,
	      "edges of method %" PRIu32 ": %" PRIu64 " calls, %" PRIu64
	      " callee calls; counted %" PRIu64 ", %" PRIu64,
	      m, got_calls, got_kids, calls, kids);
	for (k = 0; k < CLOCK_COUNT; k++)
		CHECK(got_incl[k] == incl[k],
		      "edges of method %" PRIu32 " clock %d: %" PRIu64
		      ", counted %" PRIu64,
		      m, k, got_incl[k], incl[k]);
	profile_edges_done(&e);
}

/* Count the children of node j, summing their inclusive times. */
static size_t
node_children(const struct callpath *cp, uint32_t j, uint64_t *incl)
{
	size_t n = 0;
	uint32_t ch;
	int k;

	for (k = 0; k < CLOCK_COUNT; k++)
		incl[k] = 0;
	for (ch = cp->nodes[j].first_child; ch != CALL_NONE;
	     ch = cp->nodes[ch].next_sibling) {
		CHECK(ch < cp->count,
		      "node %" PRIu32 ": child %" PRIu32 " of %zu nodes", j, ch,
		      cp->count);
		CHECK(++n < cp->count, "node %" PRIu32 ": child list loops", j);
		CHECK(cp->nodes[ch].parent == j,
		      "node %" PRIu32 " lists child %" PRIu32
		      " whose parent is %" PRIu32,
		      j, ch, cp->nodes[ch].parent);
		for (k = 0; k < CLOCK_COUNT; k++)
			incl[k] += cp->nodes[ch].incl[k];
	}
	return n;
}

/* With the time outside any method, the root holds the scope's total
 * (PRODUCT.md 2), by thread or merged. */
static void
check_whole(const struct calltree *tree, const struct scope *scope)
{
	int by_thread, k;

	for (by_thread = 0; by_thread < 2; by_thread++) {
		struct callpath cp;

		callpath_build_whole(&cp, tree, scope, by_thread);
		for (k = 0; k < CLOCK_COUNT; k++)
			CHECK(!tree->has_clock[k] ||
			              cp.nodes[0].incl[k] ==
			                      scope_total(scope, tree, k),
			      "clock %d, by thread %d: root %" PRIu64
			      ", total %" PRIu64,
			      k, by_thread, cp.nodes[0].incl[k],
			      scope_total(scope, tree, k));
		callpath_done(&cp);
	}
}

/* Each thread's tree built in pieces (cut inside calls) and merged is
 * its one-pass tree, byte for byte.  Each piece climbs its first call's
 * callers again, so a model is cut into at most about 64 pieces (pieces
 * of one call would cost calls times depth), and one of more than 16384
 * calls, which may be one stack as deep (a pprof sample's inline frames
 * make 65,000 from 3 KB), into about 4. */
static void
check_pieces(const struct calltree *tree)
{
	size_t calls = calltree_call_count(tree);
	size_t scale = calls / (calls > 16384 ? 4 : 64) + 1;
	const size_t parts[] = {scale, 3 * scale};
	struct callpath *got = calloc(tree->nthreads + 1, sizeof(*got));
	size_t i, t;

	CHECK(got != NULL, "out of memory");
	for (i = 0; i < sizeof(parts) / sizeof(*parts); i++) {
		callpath_build_threads(got, tree, parts[i]);
		for (t = 0; t < tree->nthreads; t++) {
			struct callpath one;

			callpath_build_thread_whole(&one, tree, t);
			CHECK(one.count == got[t].count &&
			              memcmp(one.nodes, got[t].nodes,
			                     one.count * sizeof(*one.nodes)) ==
			                      0,
			      "thread %zu in pieces of %zu calls: %zu nodes, "
			      "one pass %zu",
			      t, parts[i], got[t].count, one.count);
			callpath_done(&one);
			callpath_done(&got[t]);
		}
	}
	free(got);
}

static void
check_callpath(const struct calltree *tree, const struct scope *scope,
               const struct walk *w, bool by_thread)
{
	struct callpath cp;
	enum clock_index sort = calltree_default_clock(tree);
	uint64_t calls = 0, kids_incl[CLOCK_COUNT];
	uint64_t top_incl[CLOCK_COUNT] = {0};
	size_t j, linked = 0;
	uint32_t top_depth = by_thread ? 2 : 1;
	int k, pass;

	callpath_build(&cp, tree, scope, by_thread);
	CHECK(cp.count >= 1, "callpath without a root");
	CHECK(cp.nodes[0].parent == CALL_NONE &&
	              cp.nodes[0].method == CALL_NONE && cp.nodes[0].depth == 0,
	      "callpath root is not a root");
	for (j = 1; j < cp.count; j++) {
		const struct callpath_node *n = &cp.nodes[j];
		const struct callpath_node *p;

		CHECK(n->parent < j, "node %zu: parent %" PRIu32, j, n->parent);
		p = &cp.nodes[n->parent];
		CHECK(n->depth == p->depth + 1,
		      "node %zu: depth %" PRIu32 ", parent's %" PRIu32, j,
		      n->depth, p->depth);
		if (by_thread && n->depth == 1) {
			CHECK(n->method == CALL_NONE &&
			              n->thread < tree->nthreads,
			      "thread node %zu: method %" PRIu32
			      " thread %" PRIu32,
			      j, n->method, n->thread);
		} else {
			CHECK(n->method < tree->nmethods,
			      "node %zu: method %" PRIu32, j, n->method);
			calls += n->calls;
		}
		if (n->depth == top_depth)
			for (k = 0; k < CLOCK_COUNT; k++)
				top_incl[k] += n->incl[k];
	}
	CHECK(calls == tree->calls.count,
	      "callpath counts %" PRIu64 " calls of %zu", calls,
	      tree->calls.count);
	for (k = 0; k < CLOCK_COUNT; k++)
		CHECK(top_incl[k] == w->root_sum[k],
		      "clock %d: top nodes "
		      "last %" PRIu64 ", root calls %" PRIu64,
		      k, top_incl[k], w->root_sum[k]);
	for (pass = 0; pass < 2; pass++) {
		linked = 0;
		for (j = 0; j < cp.count; j++) {
			const struct callpath_node *n = &cp.nodes[j];
			uint32_t ch;

			linked += node_children(&cp, (uint32_t)j, kids_incl);
			for (k = 0; k < CLOCK_COUNT; k++) {
				uint64_t excl =
				        callpath_excl(&cp, (uint32_t)j, k);

				CHECK(n->incl[k] >= excl,
				      "node %zu clock %d: incl %" PRIu64
				      " < excl %" PRIu64,
				      j, k, n->incl[k], excl);
				CHECK(kids_incl[k] <= n->incl[k],
				      "node %zu clock %d: children %" PRIu64
				      " > incl %" PRIu64,
				      j, k, kids_incl[k], n->incl[k]);
				if (!j)
					CHECK(n->incl[k] == kids_incl[k],
					      "root clock %d: %" PRIu64
					      ", children %" PRIu64,
					      k, n->incl[k], kids_incl[k]);
			}
			if (!pass)
				continue;
			for (ch = n->first_child;
			     ch != CALL_NONE &&
			     cp.nodes[ch].next_sibling != CALL_NONE;
			     ch = cp.nodes[ch].next_sibling)
				CHECK(cp.nodes[ch].incl[sort] >=
				              cp.nodes[cp.nodes[ch]
				                               .next_sibling]
				                      .incl[sort],
				      "node %zu: children not sorted", j);
		}
		CHECK(linked + 1 == cp.count, "%zu nodes linked of %zu",
		      linked + 1, cp.count);
		if (!pass)
			callpath_sort(&cp, sort);
	}
	callpath_done(&cp);
}

/* The bottom-up tree of the merged top-down tree. */
static void
check_inverted(const struct calltree *tree, const struct scope *scope)
{
	struct callpath fwd, inv;
	uint64_t calls = 0, excl[CLOCK_COUNT] = {0}, roots[CLOCK_COUNT] = {0};
	size_t j;
	int k;

	callpath_build(&fwd, tree, scope, false);
	callpath_invert(&inv, &fwd);
	/* Made lazily: as much of it as a viewer would look at. */
	for (j = 0; j < inv.count && inv.count < ((size_t)1 << 18); j++)
		callpath_expand(&inv, (uint32_t)j);
	for (j = 1; j < fwd.count; j++)
		for (k = 0; k < CLOCK_COUNT; k++)
			excl[k] += callpath_excl(&fwd, (uint32_t)j, k);
	CHECK(inv.count >= 1 && inv.nodes[0].parent == CALL_NONE,
	      "bottom-up tree without a root");
	for (j = 1; j < inv.count; j++) {
		const struct callpath_node *n = &inv.nodes[j];
		uint64_t kids[CLOCK_COUNT];

		CHECK(n->parent < j && n->method < tree->nmethods,
		      "bottom-up node %zu: parent %" PRIu32 " method %" PRIu32,
		      j, n->parent, n->method);
		CHECK(n->depth == inv.nodes[n->parent].depth + 1,
		      "bottom-up node %zu at depth %" PRIu32
		      " under one at %" PRIu32,
		      j, n->depth, inv.nodes[n->parent].depth);
		node_children(&inv, (uint32_t)j, kids);
		for (k = 0; k < CLOCK_COUNT; k++)
			CHECK(kids[k] <= n->incl[k],
			      "bottom-up node %zu clock %d: callers %" PRIu64
			      " > %" PRIu64,
			      j, k, kids[k], n->incl[k]);
		if (n->depth == 1) {
			calls += n->calls;
			for (k = 0; k < CLOCK_COUNT; k++)
				roots[k] += n->incl[k];
		}
	}
	CHECK(calls == tree->calls.count,
	      "bottom-up roots count %" PRIu64 " calls of %zu", calls,
	      tree->calls.count);
	for (k = 0; k < CLOCK_COUNT; k++)
		CHECK(roots[k] == excl[k],
		      "clock %d: bottom-up roots %" PRIu64
		      ", exclusive %" PRIu64,
		      k, roots[k], excl[k]);
	callpath_done(&inv);
	callpath_done(&fwd);
}

/* A call the timeline answers for thread t over [t0, t1). */
static void
check_timeline_call(const struct calltree *tree, size_t t, uint32_t c,
                    enum clock_index k, uint64_t t0, uint64_t t1)
{
	const struct tt_thread *th = &tree->threads[t];

	if (c == CALL_NONE)
		return;
	CHECK(c >= th->first_call && c < th->first_call + th->ncalls,
	      "timeline: call %" PRIu32 " not of thread %zu", c, t);
	CHECK(calltree_start(tree, c, k) <= t1 &&
	              calltree_end(tree, c, k) >= t0,
	      "timeline: call %" PRIu32 " outside [%" PRIu64 ", %" PRIu64 "]",
	      c, t0, t1);
}

static void
check_timeline(const struct calltree *tree)
{
	enum clock_index k = calltree_default_clock(tree);
	struct timeline *tl = timeline_new(tree, k);
	size_t t, m;

	for (t = 0; t < tree->nthreads; t++) {
		const struct tt_thread *th = &tree->threads[t];
		uint64_t a = th->first[k], b = th->last[k],
		         mid = a + (b - a) / 2;
		uint32_t row[8];
		size_t i;

		if (!th->ncalls || b <= a)
			continue;
		check_timeline_call(tree, t, timeline_dominant(tl, t, a, b), k,
		                    a, b);
		check_timeline_call(tree, t, timeline_dominant(tl, t, a, mid),
		                    k, a, mid);
		check_timeline_call(tree, t, timeline_call_at(tl, t, mid), k,
		                    mid, mid);
		timeline_row(tl, t, a, (b - a) / 8 + 1, 8, row);
		for (i = 0; i < 8; i++)
			check_timeline_call(tree, t, row[i], k, a, b);
		CHECK(timeline_busy(tl, t) <= b - a + 1,
		      "timeline: thread %zu busy past its span", t);
	}
	for (m = 0; m < tree->nmethods && m < 64; m++) {
		for (t = 0; t < tree->nthreads; t++) {
			const uint32_t *calls;
			size_t n = timeline_method_calls(tl, (uint32_t)m, t,
			                                 &calls),
			       i;

			for (i = 0; i < n; i++)
				CHECK(calltree_method(tree, calls[i]) == m,
				      "timeline: method %zu lists call "
				      "%" PRIu32,
				      m, calls[i]);
		}
	}
	timeline_free(tl);
}

static void
check_diff(const struct calltree *tree, const struct scope *scope)
{
	struct profile p;
	struct diff d;
	size_t i;

	profile_compute(&p, tree, scope);
	diff_compute(&d, tree, &p, tree, &p);
	CHECK(!d.only[0] && !d.only[1], "diff with itself: rows on one side");
	for (i = 0; i < d.nrows; i++)
		CHECK(d.rows[i].present[0] && d.rows[i].present[1] &&
		              memcmp(&d.rows[i].v[0], &d.rows[i].v[1],
		                     sizeof(d.rows[i].v[0])) == 0,
		      "diff with itself: row %zu differs", i);
	diff_done(&d);
	profile_done(&p);
}

/* No C0 control, DEL or raw C1 byte left in s. */
static void
check_no_controls(const char *s, const char *what)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++)
		CHECK(*p >= 0x20 && *p != 0x7F, "%s: control byte 0x%02X left",
		      what, *p);
}

static void
check_escaping(const uint8_t *data, size_t size)
{
	char *s = xstrndup((const char *)data, size > 4096 ? 4096 : size);
	char *e = text_escape(s), *j = text_json(s), *c = text_csv(s);
	char *x = text_xml(s);
	size_t i;

	check_no_controls(e, "text_escape");
	check_no_controls(j, "text_json");
	check_no_controls(c, "text_csv");
	check_no_controls(x, "text_xml");
	CHECK(text_is_clean(e), "text_escape's output is not clean");
	CHECK(text_width(e) == text_width(s), "escaping changed the width");
	for (i = 0; j[i]; i++) {
		size_t n = text_utf8_char(j + i, strlen(j + i));

		CHECK(n, "text_json: invalid UTF-8 at %zu", i);
		CHECK(!(n == 2 && (unsigned char)j[i] == 0xC2 &&
		        (unsigned char)j[i + 1] < 0xA0),
		      "text_json: raw C1 control at %zu", i);
		i += n - 1;
	}
	free(s);
	free(e);
	free(j);
	free(c);
	free(x);
	/* The input as a name holding NULs, kept whole. */
	s = trace_name_dup((const char *)data, size > 4096 ? 4096 : size);
	e = text_escape(s);
	j = text_json(s);
	check_no_controls(e, "text_escape of a NUL name");
	check_no_controls(j, "text_json of a NUL name");
	CHECK(!strstr(e, "\xC0\x80") && !strstr(j, "\xC0\x80"),
	      "a NUL inside a name left raw");
	CHECK(!memchr(data, 0, size > 4096 ? 4096 : size) ||
	              (strstr(e, "\\x00") && strstr(j, "\\u0000")),
	      "a NUL inside a name not shown as \\x00");
	free(s);
	free(e);
	free(j);
}

/* Whether the input being checked is read with Java frames only. */
static bool fuzz_java_only;

/* The input loaded by three workers, of which only `allowed` threads
 * start, gives tree's calls and profile. */
static void
check_threads(const uint8_t *data, size_t size, const char *sample_type,
              const struct calltree *tree, long allowed)
{
	struct calltree_builder *b = calltree_builder_new("fuzz");
	struct trace_sink sink = *calltree_builder_sink(b);
	struct trace_error err = {0};
	struct calltree *again;
	struct profile p, q;
	struct scope scope;
	const char *why;

	b->max_workers = 3;
	sink.sample_type = sample_type;
	sink.java_only = fuzz_java_only;
	util_thread_allow(allowed);
	CHECK(trace_load_bytes(data, size, &sink, &err),
	      "loads, but not with %ld threads: %s", allowed, err.message);
	again = calltree_builder_finish(b);
	util_thread_allow(-1);
	CHECK(again->calls.count == tree->calls.count,
	      "%zu calls with %ld threads, %zu with all", again->calls.count,
	      allowed, tree->calls.count);
	scope_init_all(&scope, tree);
	profile_compute(&p, tree, &scope);
	profile_compute(&q, again, &scope);
	why = profile_difference(&p, &q);
	CHECK(!why, "%s differs with %ld threads", why, allowed);
	profile_done(&p);
	profile_done(&q);
	scope_done(&scope);
	calltree_free(again);
}

/* The headless viewer on a small model: every view drawn, every cell
 * escaped. */
static void
check_viewer(struct calltree *tree)
{
	static const enum request tour[] = {
	        REQ_VIEW_PROFILE,  REQ_ENTER,       REQ_MOVE_DOWN,
	        REQ_VIEW_TIMELINE, REQ_ZOOM_IN,     REQ_MOVE_DOWN,
	        REQ_CALL_NEXT,     REQ_VIEW_ICICLE, REQ_MOVE_DOWN,
	        REQ_ENTER,         REQ_INVERT,      REQ_MOVE_DOWN,
	        REQ_VIEW_THREADS,  REQ_ENTER,       REQ_SCOPE_ALL,
	        REQ_VIEW_INFO,
	};
	struct app *app = app_new(tree);
	struct canvas *canvas = canvas_new(80, 24, false);
	size_t i;
	int cell;

	for (i = 0; i < sizeof(tour) / sizeof(tour[0]); i++) {
		app_request(app, tour[i]);
		app_draw(app, canvas);
		for (cell = 0; cell < canvas->width * canvas->height; cell++)
			check_no_controls(canvas->cells[cell].glyph, "canvas");
	}
	canvas_free(canvas);
	app_free(app);
}

/* Thread t's call paths summed in sums are those tree's calls make. */
static void
check_sum_paths(const struct calltree *tree, const struct calltree *sums,
                size_t t)
{
	struct callpath p, q;
	size_t at;

	CHECK(callpath_from_sums(&q, sums, t), "thread %zu summed no paths", t);
	callpath_build_thread_whole(&p, tree, t);
	at = callpath_difference(&p, &q);
	CHECK(at == SIZE_MAX,
	      "thread %zu's paths differ when summed (node %zu)", t, at);
	callpath_done(&p);
	callpath_done(&q);
}

/* The frames summed in sums are those frames_find finds in tree's
 * calls. */
static void
check_sum_frames(const struct calltree *tree, const struct calltree *sums)
{
	struct scope scope;
	size_t at;

	scope_init_all(&scope, tree);
	at = frames_difference(tree, sums, &scope);
	scope_done(&scope);
	CHECK(at == SIZE_MAX, "frame %zu differs when summed", at);
}

/* The input loaded for its sums only, its records split between two
 * workers at record `split` when not 0 (the middle from `middle` on when
 * not 0, the first worker taking `first` of its parts), gives tree's
 * anomalies and profiles, of all threads and of each, its call paths
 * when asked for them (`paths`) and its frames when asked for them
 * (`frames`).  Without either, as report loads it, a nested trace's
 * events are summed as they come. */
static void
check_sums(const uint8_t *data, size_t size, const char *sample_type,
           const struct calltree *tree, size_t split, size_t middle,
           unsigned first, bool paths, bool frames)
{
	struct calltree_builder *b = calltree_builder_new("fuzz");
	struct trace_sink sink = *calltree_builder_sink(b);
	struct trace_error err = {0};
	struct calltree *sums;
	size_t t, n;

	b->sums_only = true;
	b->paths = paths;
	b->frame_methods = frames ? test_frame_methods : NULL;
	b->split_at = split;
	b->split_middle = middle;
	b->split_middle_first = first;
	sink.sample_type = sample_type;
	sink.java_only = fuzz_java_only;
	CHECK(trace_load_bytes(data, size, &sink, &err),
	      "loads as a model but not for its sums: %s", err.message);
	if (b->spoiled) {
		/* Only the model could hold it: calltree_load_with loads
		 * it again for the model. */
		calltree_builder_free(b);
		return;
	}
	sums = calltree_builder_finish(b);
	CHECK(!memcmp(&sums->anomalies, &tree->anomalies,
	              sizeof(tree->anomalies)),
	      "anomalies differ when summed");
	CHECK(sums->nthreads == tree->nthreads &&
	              sums->nmethods == tree->nmethods,
	      "threads or methods differ when summed");
	/* All threads, then each that ran, up to 64: a scope costs a flag
	 * per thread. */
	for (t = 0, n = 0; t <= tree->nthreads; t++) {
		struct profile p, q;
		struct scope scope;
		const char *why;

		if (t < tree->nthreads &&
		    (!tree->threads[t].nevents || n++ >= 64))
			continue;
		if (t == tree->nthreads) {
			scope_init_all(&scope, tree);
		} else {
			scope_init_none(&scope, tree);
			scope_add(&scope, t);
		}
		profile_compute(&p, tree, &scope);
		profile_compute(&q, sums, &scope);
		why = profile_difference(&p, &q);
		CHECK(!why, "%s differs when summed (scope %zu)", why, t);
		profile_done(&p);
		profile_done(&q);
		scope_done(&scope);
		if (t < tree->nthreads && sums->sums && paths)
			check_sum_paths(tree, sums, t);
	}
	if (sums->frames_summed)
		check_sum_frames(tree, sums);
	calltree_free(sums);
}

/* Load and check one input, profiles on sample_type (simpleperf's with
 * Java frames only when java_only); its format, or -1 when it did not
 * load. */
static int
fuzz_one(const uint8_t *data, size_t size, const char *sample_type,
         bool java_only)
{
	struct calltree_builder *b = calltree_builder_new("fuzz");
	struct trace_sink sink = *calltree_builder_sink(b);
	struct trace_error err = {0};
	struct calltree *tree;
	struct scope scope;
	struct walk w;
	bool pprof;
	int k, format;

	sink.sample_type = sample_type;
	sink.java_only = java_only;
	fuzz_java_only = java_only;
	if (!trace_load_bytes(data, size, &sink, &err)) {
		CHECK(trace_error_isset(&err), "load failed without an error");
		calltree_builder_free(b);
		trace_error_clear(&err);
		return -1;
	}
	CHECK(!trace_error_isset(&err), "load succeeded with an error: %s",
	      err.message);
	tree = calltree_builder_finish(b);
	format = (int)tree->header.format;
	pprof = tree->header.format == TRACE_FORMAT_PPROF ||
	        tree->header.format == TRACE_FORMAT_SIMPLEPERF;
	/* Stacks laid end to end leave nothing unmatched. */
	CHECK(!pprof || (!tree->anomalies.orphan_exits &&
	                 !tree->anomalies.mismatched_exits &&
	                 !tree->anomalies.open_at_end &&
	                 !tree->anomalies.unknown_methods),
	      "a pprof profile made unmatched events");
	memset(&w, 0, sizeof(w));
	check_strings(tree);
	check_model(tree, &w);
	scope_init_all(&scope, tree);
	check_profile(tree, &scope, &w);
	check_edges(tree, &scope);
	check_callpath(tree, &scope, &w, true);
	check_callpath(tree, &scope, &w, false);
	check_whole(tree, &scope);
	check_pieces(tree);
	check_inverted(tree, &scope);
	check_timeline(tree);
	check_diff(tree, &scope);
	check_sums(data, size, sample_type, tree, 0, 0, 0, true, true);
	check_sums(data, size, sample_type, tree, 0, 0, 0, false, false);
	check_threads(data, size, sample_type, tree, (long)(size % 3));
	if (tree->records > 1) { /* a split point the input decides */
		size_t at = 1 + size * 2654435761u % (tree->records - 1);

		/* One with the frames: never summed ahead. */
		check_sums(data, size, sample_type, tree, at, 0, 0, true,
		           size % 2 == 0);
		check_sums(data, size, sample_type, tree, at, at / 2, size % 2,
		           true, size % 2 == 1);
	}
	scope_done(&scope);
	for (k = 0; k < CLOCK_COUNT; k++)
		free(w.child_sum[k]);
	/* The viewer takes the model over and frees it. */
	if (tree->calls.count <= 2000)
		check_viewer(tree);
	else
		calltree_free(tree);
	return format;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_escaping(data, size);
	/* A pprof profile again on its first sample type (the default is
	 * its last, or the one it names). */
	int format = fuzz_one(data, size, NULL, false);

	if (format == TRACE_FORMAT_PPROF)
		fuzz_one(data, size, "0", false);
	/* A recording again on every event type, and Java frames only. */
	if (format == TRACE_FORMAT_SIMPLEPERF) {
		fuzz_one(data, size, "all", false);
		fuzz_one(data, size, NULL, true);
	}
	return 0;
}

#ifdef FUZZ_REPLAY_MAIN
/* Read all of path into a new buffer; false with a message on failure. */
static bool
read_file(const char *path, unsigned char **data, size_t *size)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!fp) {
		perror(path);
		return false;
	}
	do {
		UTIL_GROW(buf, cap, n + 65536);
		got = fread(buf + n, 1, cap - n, fp);
		n += got;
	} while (got);
	if (ferror(fp)) {
		perror(path);
		fclose(fp);
		free(buf);
		return false;
	}
	fclose(fp);
	*data = buf;
	*size = n;
	return true;
}

/* Run the target on each prefix of data whose length is below skip or a
 * multiple of stride, each copied to a buffer of exactly its length (so
 * that a sanitizer sees any read past the cut). */
static void
replay_prefixes(const unsigned char *data, size_t size, size_t skip,
                size_t stride)
{
	size_t n;

	for (n = 0; n < size; n += n < skip ? 1 : stride) {
		unsigned char *cut = xmalloc(n ? n : 1);

		memcpy(cut, data, n);
		LLVMFuzzerTestOneInput(cut, n);
		free(cut);
	}
}

int
main(int argc, char **argv)
{
	int i = 1, status = 0;
	size_t skip = 0, stride = 0;

	/* --prefixes SKIP STRIDE: every cut of each file, in one process. */
	if (argc > 3 && strcmp(argv[1], "--prefixes") == 0) {
		skip = strtoull(argv[2], NULL, 10);
		stride = strtoull(argv[3], NULL, 10);
		i = 4;
		if (stride == 0)
			stride = 1;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: fuzz-replay [--prefixes SKIP STRIDE] "
		                "FILE...\n");
		return 2;
	}
	for (; i < argc; i++) {
		unsigned char *data;
		size_t size;

		if (!read_file(argv[i], &data, &size)) {
			status = 1;
			continue;
		}
		if (stride)
			replay_prefixes(data, size, skip, stride);
		else
			LLVMFuzzerTestOneInput(data, size);
		free(data);
	}
	return status;
}
#endif
