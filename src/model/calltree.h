/*
 * calltree: the in-memory model of one trace, and the sink that builds it.
 *
 * Calls are rebuilt per thread as FORMAT.md 9.2 says and stored as a
 * structure of arrays, grouped by thread and in pre-order within a thread:
 * thread t owns calls [threads[t].first_call, + threads[t].ncalls), every
 * call comes before its descendants, and a parent before its children.
 * Times are microseconds: wall relative to the header's start,
 * thread-cpu rebased so each thread's first event is at 0; both are
 * non-decreasing per thread (backward steps are clamped and counted).
 *
 * The calltree owns everything it points to; after calltree_build returns
 * it is read-only, and every pointer stays valid until calltree_free.
 */
#ifndef TRACETUI_CALLTREE_H
#define TRACETUI_CALLTREE_H

#include "read/error.h"
#include "read/sink.h"
#include "util/arena.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CALL_NONE UINT32_MAX

/* Index of a clock in the per-clock arrays. */
enum clock_index {
	CLOCK_CPU = 0,
	CLOCK_WALL = 1,
	CLOCK_COUNT = 2,
};

enum call_flag {
	CALL_RECURSIVE = 1 << 0,   /* same method further down the stack */
	CALL_OPEN_AT_END = 1 << 1, /* closed at the thread's last event */
	CALL_ORPHAN = 1 << 2,      /* exit without entry: entry synthesized */
	CALL_UNWOUND = 1 << 3,     /* left by exception (action 2) */
	CALL_LOST_EXIT = 1 << 4,   /* closed by a mismatched exit below it */
};

struct tt_method {
	uint64_t id;
	const char *klass; /* "" when unknown */
	const char *name;
	const char *signature;
	const char *file; /* NULL when the key gives none */
	long line;        /* -1 when the key gives none */
	bool defined;     /* false: a placeholder for an unknown id */
};

/* (Its fields in this order leave no holes: a recording may have a
 * million threads.) */
struct tt_thread {
	const char *name;
	uint64_t nevents;
	uint64_t first[CLOCK_COUNT]; /* first and last event times */
	uint64_t last[CLOCK_COUNT];
	uint32_t tid;
	uint32_t first_call; /* its calls: [first_call, first_call+ncalls) */
	uint32_t ncalls;
	uint32_t max_depth;
	bool defined; /* named by the key or a thread packet */
};

struct tt_property {
	const char *key;
	const char *value;
};

struct tt_warning {
	uint64_t offset;
	const char *message;
};

/* Every irregularity the builder met, counted, never hidden. */
struct tt_anomalies {
	uint64_t orphan_exits;     /* exits with no matching entry */
	uint64_t mismatched_exits; /* exits of a method below the top */
	uint64_t lost_exits;       /* frames closed by a mismatched exit */
	uint64_t open_at_end;      /* frames still open at the end */
	uint64_t unknown_methods;  /* distinct ids used but never defined */
	uint64_t unknown_threads;  /* distinct thread ids never named */
	uint64_t negative_steps[CLOCK_COUNT]; /* clamped backward steps */
	uint64_t wraps[CLOCK_COUNT];          /* 32-bit wraps unwrapped */
	uint64_t action3;                     /* records with action 3 */
	uint64_t unwinds;                     /* exits by exception */
	bool data_file_overflow;              /* data-file-overflow=true */
};

/* Times keep their low TIME_LOW_BITS bits per call; the rest is in steps. */
enum {
	TIME_LOW_BITS = 16,
	TIME_BLOCK_SHIFT = 8, /* calls per entry of a step index: 256 */
};

/* Where the high bits of the start times change, in call order. */
struct tt_time_step {
	uint32_t first_call; /* from this call on ... */
	uint64_t high; /* ... starts are high << TIME_LOW_BITS | start[k][c] */
};

/* A call lasting 65535 microseconds or more. */
struct tt_long_call {
	uint32_t call;
	uint64_t duration;
};

/* A call nested 65535 deep or more. */
struct tt_deep_call {
	uint32_t call;
	uint32_t depth;
	uint32_t parent;
};

enum {
	DEPTH_BLOCK_SHIFT = 6, /* calls per minimum of a depth level: 64 */
	DEPTH_LEVELS = 6,      /* enough levels for 2^32 calls */
};

/*
 * Times are stored in 16 bits: the low bits of each start, with the
 * changes of the high bits (about one per 65 ms of a thread) in a step
 * table, and each duration, with the calls of 65 ms or more in a side
 * table.  Read them through calltree_start, calltree_end and
 * calltree_duration.  Depths are stored in 16 bits, the rare deeper ones
 * in a side table: read calltree_depth.  A call's caller is the last
 * call before it that is less deep: read calltree_parent, which finds it
 * through the least depths of blocks of calls.
 */
struct tt_calls {
	uint32_t *method;             /* NULL when method16 holds the methods */
	uint16_t *method16;           /* with fewer than 65536 methods */
	uint16_t *depth;              /* 0 for a root; UINT16_MAX: see deep */
	uint8_t *flags;               /* enum call_flag bits */
	uint16_t *start[CLOCK_COUNT]; /* NULL for a clock the trace lacks */
	uint16_t *duration[CLOCK_COUNT];         /* UINT16_MAX: see longs */
	struct tt_time_step *steps[CLOCK_COUNT]; /* the first at call 0 */
	size_t nsteps[CLOCK_COUNT];
	/* [b]: the steps at or before call b << TIME_BLOCK_SHIFT */
	uint32_t *step_index[CLOCK_COUNT];
	struct tt_long_call *longs[CLOCK_COUNT]; /* by call */
	size_t nlongs[CLOCK_COUNT];
	/* [b]: the long calls before call b << TIME_BLOCK_SHIFT */
	uint32_t *long_index[CLOCK_COUNT];
	struct tt_deep_call *deep; /* by call */
	size_t ndeep;
	/* Level l + 1 of the depths: entry i is the least of entries
	 * [64 i, 64 i + 64) of level l, level 0 being the calls' own. */
	uint16_t *depth_min[DEPTH_LEVELS];
	size_t depth_min_count[DEPTH_LEVELS];
	int depth_levels; /* levels above the calls' own */
	size_t count;
};

/*
 * A method's sums over a set of calls (PRODUCT.md section 2):
 *   excl     time while the method is the innermost frame, all calls;
 *   incl     duration summed over non-recursive calls only;
 *   calls    non-recursive calls; rcalls recursive ones.
 */
struct profile_row {
	uint64_t calls;
	uint64_t rcalls;
	uint64_t incl[CLOCK_COUNT];
	uint64_t excl[CLOCK_COUNT];
	uint64_t top_excl[CLOCK_COUNT]; /* excl of non-recursive calls */
};

/*
 * One caller-callee pair: the calls of `child` made directly by `parent`
 * (CALL_NONE: the top level of a thread), split by whether the child's
 * call and the parent's call were recursive.
 */
struct profile_link {
	uint32_t parent, child;
	bool child_recursive, parent_recursive;
	uint64_t calls;
	uint64_t incl[CLOCK_COUNT]; /* summed durations of the child calls */
};

/*
 * A call path of one thread, summed without calls: the calls whose
 * callers, outermost first, are the path's.  Node 0 is the root (method
 * CALL_NONE); nodes come in the order their first call began, children
 * in the same order, as query/callpath.h builds them from calls.
 */
struct path_node {
	uint32_t method;
	uint32_t parent;       /* CALL_NONE for the root */
	uint32_t first_child;  /* CALL_NONE when a leaf */
	uint32_t next_sibling; /* CALL_NONE when last */
	uint64_t calls;
	uint64_t incl[CLOCK_COUNT]; /* the calls' summed durations */
};

enum { FRAME_HOT = 2 }; /* hot methods kept per frame */

/* A frame found as the calls were summed (calltree_load_options,
 * frame_methods): an outermost call of a frame method, its start and
 * durations (0 on a clock the trace lacks), and the FRAME_HOT methods
 * of most exclusive time inside it on the judging clock
 * (calltree_default_range_clock), CALL_NONE past the last. */
struct frame_sum {
	uint64_t start[CLOCK_COUNT];
	uint64_t dur[CLOCK_COUNT];
	uint32_t hot[FRAME_HOT];
	uint64_t hot_excl[FRAME_HOT];
};

/* What triage's rules found on one thread, one rule's, summed as the
 * calls closed (model/triage-sums.h). */
struct triage_sum {
	uint64_t total[CLOCK_COUNT], idle[CLOCK_COUNT];
	uint64_t count;
	uint64_t enclosing; /* matches left out: they hold a looper */
	bool lower_bound;
	uint64_t worst_start; /* on the judging clock */
	uint64_t worst_dur[CLOCK_COUNT];
	bool worst_lower;
	uint32_t worst_method;
	uint64_t worst_place; /* the count of calls before it */
	uint32_t *path; /* methods, from dispatchMessage or the root down */
	size_t npath;
	bool path_at_root; /* from the root: an orphan goes on top */
	/* A blocked rule's: the methods of its calls and, by method, the
	 * thread's index (entry order) of its first call counted. */
	uint32_t *methods;
	uint64_t *first;
	size_t nmethods, methods_cap;
};

/* A frame triage found as the calls closed: its start on the judging
 * clock, its durations, and the method (CALL_NONE: none) and share of
 * its cause (the deepest application call lasting half of it or more
 * and starting in its first fifth). */
struct triage_frame {
	uint64_t start;
	uint64_t dur[CLOCK_COUNT];
	uint32_t cause;
	double share;
};

/* Release n per-rule triage sums. */
void triage_sums_free(struct triage_sum *sums, size_t n);

/* One thread's sums: a row for each method it called (or that called
 * what it did), and its links in the order first met; its call paths
 * when they were asked for (calltree_load_options.paths), else NULL;
 * its frames, in order, when frame methods were given. */
struct thread_sums {
	uint32_t *methods; /* rows[i] is the row of methods[i] */
	struct profile_row *rows;
	size_t count;
	struct profile_link *links;
	size_t nlinks;
	struct path_node *paths;
	size_t npaths;
	struct frame_sum *frames;
	size_t nframes;
	struct triage_sum *triage; /* per rule, when asked for */
	size_t ntriage;
	struct triage_frame *triage_frames; /* and the frames it found */
	size_t ntriage_frames;
};

/* Release a thread's sums. */
void thread_sums_done(struct thread_sums *s);

struct frame_span;

struct calltree {
	char *path;
	struct trace_header header;
	bool has_clock[CLOCK_COUNT];
	bool sampled;             /* sampling-mode recording (FORMAT.md 6) */
	uint64_t sample_interval; /* sampled: us between samples, an
	                             estimate; 0 when unknown */
	uint64_t records;

	struct tt_method *methods;
	size_t nmethods;
	struct tt_thread *threads;
	size_t nthreads;
	struct tt_property *properties;
	size_t nproperties;
	struct tt_warning *warnings;
	size_t nwarnings;
	struct tt_anomalies anomalies;
	struct tt_calls calls;
	/* Loaded for its profile only (calltree_load_options.sums_only):
	 * each thread's sums, and no calls. */
	struct thread_sums *sums;
	bool frames_summed; /* and the sums carry each thread's frames */
	bool triage_summed; /* and triage's sums (model/triage-sums.h) */
	/* Their methods, rows and links are in the arena (summed thread
	 * by thread, model/builder-sums.c): freed with it. */
	bool sums_in_arena;
	uint32_t max_depth; /* the deepest stack of any thread */
	/* Made by a focus (model/transform.h): the focused calls are the
	 * whole, so a thread's traced time is its outermost calls' time,
	 * not its span (scope_thread_total), and there is no time outside
	 * any method. */
	bool focused;
	/* A sampled recording's frames, found on the samples of all its
	 * event types where it holds several (model/frame-spans.h), by
	 * thread id then start; NULL: found on this model's own. */
	struct frame_span *frame_spans;
	size_t nframe_spans;

	struct util_arena arena; /* names and strings */
};

/* Filling a model, for the builder only. */
/* Model arrays for n calls, on the clocks the trace has, methods in 16
 * bits if narrow. */
void calltree_alloc_calls(struct calltree *tree, size_t n, bool narrow);
/* Index the model's time steps and long calls, once they are complete. */
void calltree_index_times(struct calltree *tree);
/* Index the model's depths for calltree_parent, once they are settled. */
void calltree_index_depths(struct calltree *tree);
/* Release the model's call arrays and side tables; no calls left. */
void calltree_free_calls(struct calltree *tree);

/* Called now and then while a large file loads. */
typedef void calltree_progress_fn(void *arg, uint64_t done, uint64_t total);
/* The frame methods of tree, as a flag per method (tree->nmethods of
 * them, malloc'd), or NULL for none. */
typedef bool *calltree_frame_methods_fn(const struct calltree *tree, void *arg);
/* What triage's rules ask of tree's methods (model/triage-sums.h), or
 * NULL for nothing: the caller keeps it. */
struct triage_sums_spec;
typedef struct triage_sums_spec *calltree_triage_fn(const struct calltree *tree,
                                                    void *arg);

/*
 * Building a model from a sink directly, for tests and the fuzzer: feed
 * the builder's sink, then finish (which frees the builder and returns
 * the model) or free it.
 */
struct calltree_builder;
/* A builder for a trace read from path (used in messages only). */
struct calltree_builder *calltree_builder_new(const char *path);
/* The sink that feeds the builder; valid until finish or free. */
const struct trace_sink *calltree_builder_sink(struct calltree_builder *b);
/* Take thread-cpu times as already rebased to each thread's start (a
 * model's own times fed back), not from each thread's first event. */
void calltree_builder_keep_cpu(struct calltree_builder *b);
/* Complete the model: close open frames, order calls, count anomalies. */
struct calltree *calltree_builder_finish(struct calltree_builder *b);
/* Drop the builder and its unfinished model. */
void calltree_builder_free(struct calltree_builder *b);

/* Release the model. */
void calltree_free(struct calltree *tree);

/* Thread t's calls: its slice of the model's, or, loaded for its sums
 * only, counted from its rows. */
uint64_t calltree_thread_calls(const struct calltree *tree, size_t t);
/* Every thread's calls, counted as calltree_thread_calls does. */
uint64_t calltree_call_count(const struct calltree *tree);
/* Thread index of the thread with id tid, or -1. */
long calltree_find_thread(const struct calltree *tree, uint32_t tid);
/* Duration of a call of 65 ms or more (out of line: rare). */
uint64_t calltree_long_duration(const struct calltree *tree, size_t c,
                                enum clock_index k);
/* Depth of a call nested 65535 deep or more (out of line: rare). */
uint32_t calltree_deep_depth(const struct calltree *tree, size_t c);

/* Start of call c on clock k, in microseconds. */
static inline uint64_t
calltree_start(const struct calltree *tree, size_t c, enum clock_index k)
{
	const struct tt_calls *calls = &tree->calls;
	const struct tt_time_step *steps = calls->steps[k];
	const uint32_t *index = calls->step_index[k] + (c >> TIME_BLOCK_SHIFT);
	size_t lo = index[0], hi = index[1];

	/* The last step at or before c: one of the block's few. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (steps[mid].first_call <= c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return steps[lo - 1].high << TIME_LOW_BITS | calls->start[k][c];
}
/* Inclusive time of call c on clock k. */
static inline __attribute__((always_inline)) uint64_t
calltree_duration(const struct calltree *tree, size_t c, enum clock_index k)
{
	uint16_t d = tree->calls.duration[k][c];

	return d != UINT16_MAX ? d : calltree_long_duration(tree, c, k);
}
/* Call c's inclusive time on every clock, 0 on a clock the trace lacks. */
static inline void
calltree_durations(const struct calltree *tree, size_t c,
                   uint64_t dur[CLOCK_COUNT])
{
	int k;

	for (k = 0; k < CLOCK_COUNT; k++)
		dur[k] = tree->has_clock[k]
		                 ? calltree_duration(tree, c,
		                                     (enum clock_index)k)
		                 : 0;
}
/* End of call c on clock k. */
static inline uint64_t
calltree_end(const struct calltree *tree, size_t c, enum clock_index k)
{
	return calltree_start(tree, c, k) + calltree_duration(tree, c, k);
}
/* Depth of call c: 0 for a root of its thread. */
static inline __attribute__((always_inline)) uint32_t
calltree_depth(const struct calltree *tree, size_t c)
{
	uint16_t d = tree->calls.depth[c];

	return d != UINT16_MAX ? d : calltree_deep_depth(tree, c);
}
/* Method index of call c. */
static inline __attribute__((always_inline)) uint32_t
calltree_method(const struct calltree *tree, size_t c)
{
	return tree->calls.method16 ? tree->calls.method16[c]
	                            : tree->calls.method[c];
}
/* The caller of call c, or CALL_NONE for a root of its thread. */
uint32_t calltree_parent(const struct calltree *tree, size_t c);

/*
 * The callers of consecutive calls of one thread, from the path of calls
 * open at each: start the walk at call `from` (the first use sizes it),
 * then ask calltree_walk_parent for from, from + 1, ... in turn.
 */
struct calltree_walk {
	const struct calltree *tree;
	uint32_t *path; /* path[d]: the last call met at depth d */
};
/* Get w, zeroed or used before, ready to walk on from call `from`. */
void calltree_walk_start(struct calltree_walk *w, const struct calltree *tree,
                         size_t from);
/* Release what w holds. */
void calltree_walk_done(struct calltree_walk *w);
/* The caller of call c, the call after the last one asked about. */
static inline uint32_t
calltree_walk_parent(struct calltree_walk *w, size_t c)
{
	uint32_t d = calltree_depth(w->tree, c);

	w->path[d] = (uint32_t)c;
	return d ? w->path[d - 1] : CALL_NONE;
}
/* Thread t's span on clock k: its last event minus its first (its
 * traced time, but under a focus: see scope_thread_total). */
static inline uint64_t
calltree_thread_span(const struct calltree *tree, size_t t, enum clock_index k)
{
	return tree->threads[t].last[k] - tree->threads[t].first[k];
}
/* The clock used when none is asked for: thread-cpu if present. */
enum clock_index calltree_default_clock(const struct calltree *tree);
/* Whether tree is a profile of values (pprof's, hprof's sample counts):
 * a total and a self per method, on no clock, its calls only runs of
 * samples. */
static inline bool
calltree_is_profile(const struct calltree *tree)
{
	return tree->header.format == TRACE_FORMAT_PPROF ||
	       tree->header.unit == TRACE_UNIT_COUNT;
}

/* The clock time ranges are on: wall if present. */
static inline enum clock_index
calltree_default_range_clock(const struct calltree *tree)
{
	return tree->has_clock[CLOCK_WALL] ? CLOCK_WALL : CLOCK_CPU;
}
/* Value of the key property `key`, or NULL. */
const char *calltree_property(const struct calltree *tree, const char *key);

#endif
