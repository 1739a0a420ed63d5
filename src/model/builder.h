/*
 * builder: the builder's insides, shared by its four files, which read
 * in this order, each calling only those before it (the calls back up
 * go through struct build_hooks; tests/builder-order.sh checks it):
 *
 *   model/builder.c          the core: the sink that rebuilds calls
 *                            event by event, threads, workers, placed
 *                            threads and the model's arrays
 *   model/builder-records.c  a V1 data part's records all at once
 *   model/builder-sums.c     the same records only summed, no model
 *   model/builder-split.c    the sums on two workers, or summed ahead
 *                            of a streaming file's report; it puts the
 *                            builder together (calltree_builder_new)
 *
 * Not for other modules: they use model/calltree.h.
 *
 * A thread's calls are numbered in its own index space.  Built event by
 * event, that is entry order, parents are thread indexes, and finish
 * moves the calls into the model in pre-order.  "Placed" threads have
 * their calls written straight into their slice of the model's arrays,
 * already in pre-order: the slice was sized by counting the records
 * first, its first slots are kept for the orphan calls (last created
 * first), parents are model indexes, and finish moves nothing.
 */
#ifndef TRACETUI_CALLTREE_BUILD_H
#define TRACETUI_CALLTREE_BUILD_H

#include "model/calltree.h"
#include "model/frame-sums.h"
#include "model/paths.h"
#include "model/sampling.h"
#include "model/sums.h"
#include "model/triage-sums.h"
#include "util/map.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An open call on a thread's stack. */
struct frame {
	uint32_t call;               /* its index among the thread's calls */
	uint32_t method;             /* its method index */
	uint64_t id;                 /* its method id, as the records say */
	uint64_t start[CLOCK_COUNT]; /* full start times */
};

/*
 * Calls are kept in chunks of CHUNK_CALLS: the first grows as needed, the
 * others are fixed blocks, so growing never copies, and finish frees each
 * chunk as soon as it has moved it into the model (the peak is one copy
 * of the calls, not two).  A placed thread's chunks are views of its
 * slice of the model.
 */
enum {
	CHUNK_SHIFT = 16,
	CHUNK_CALLS = 1 << CHUNK_SHIFT,
	CHUNK_BYTES = 2 << 20, /* room for CHUNK_CALLS of every field */
};

struct call_chunk {
	uint32_t *method, *parent;
	uint16_t *method16; /* instead of method, in a narrow model */
	uint8_t *flags;
	uint16_t *start[CLOCK_COUNT], *duration[CLOCK_COUNT];
	void *block;   /* the block holding them, or NULL */
	bool borrowed; /* a view of the model's arrays: nothing to free */
};

struct thread_calls {
	struct call_chunk *chunks;
	size_t nchunks, chunks_cap;
	size_t count, cap;                       /* calls, and room for them */
	struct tt_time_step *steps[CLOCK_COUNT]; /* by thread call index */
	size_t nsteps[CLOCK_COUNT], steps_cap[CLOCK_COUNT];
	struct tt_long_call *longs[CLOCK_COUNT]; /* by thread call index */
	size_t nlongs[CLOCK_COUNT], longs_cap[CLOCK_COUNT];
	uint64_t high[CLOCK_COUNT]; /* high bits of the last step's start */
	bool placed;                /* written into the model in place */
	uint32_t base;              /* placed: model index of call 0 */
	size_t orphan_slots;        /* placed: free slots before count */
};

/* Where a thread's readings of one clock stand. */
struct clock_state {
	uint64_t raw_prev; /* the last reading as written */
	uint64_t epoch;    /* what the wraps so far add */
	uint64_t prev;     /* the last time, unwrapped and clamped */
};

/* A thread's sums while a builder asked for sums only closes its calls
 * (model/builder-sums.c); each open frame's `call` is its link. */
struct sums_build {
	uint32_t *row_of; /* by method: 1 + its index in out's rows, or 0 */
	size_t nmethods;  /* entries of row_of and top_of */
	struct thread_sums out;
	size_t rows_cap;
	struct link_table links;
	/* Guesses of the link of a call: by link, the first link called
	 * under it last time, and the link that followed it last time
	 * under the same caller. */
	uint32_t *first, *next;
	size_t first_cap, next_cap;
	uint32_t *closed; /* by stack index, the link of the last call
	                     closed there under the frame below, or
	                     UINT32_MAX */
	size_t closed_cap;
	/* Top-level calls since the last orphan, by method: their callers
	 * are known at the next orphan or at the end. */
	struct profile_link *top;
	size_t ntop, top_cap;
	uint32_t *top_of;       /* by method: 1 + its index in top, or 0 */
	uint32_t top_depth;     /* deepest stack of the open top call */
	uint32_t adopted_depth; /* deepest of the top calls since the
	                           last orphan, under their own roots */
	/* Summed after a split (model/builder-split.c): the frames at the
	 * bottom of the stack were opened before it, their starts unknown
	 * (0 here); `seeded` were given, `prefix` are still open, and
	 * `closes` are those closed, in order, whose times lack the part
	 * before the split. */
	uint32_t seeded, prefix;
	struct prefix_close *closes;
	size_t ncloses, closes_cap;
	struct path_build *paths;    /* the call paths, when asked for */
	struct frame_watch *frames;  /* the frames, when asked for */
	struct triage_watch *triage; /* triage's sums, when asked for */
};

/* A frame opened before the split, closed after it: its stack index,
 * its link (UINT32_MAX at the top level) and method. */
struct prefix_close {
	uint32_t level, link, method;
};

struct thread_state {
	struct thread_calls calls;
	struct sums_build *sums; /* summing only */
	struct frame *stack;
	size_t depth, stack_cap;
	uint32_t *tops; /* top-level calls an orphan would adopt */
	size_t ntops, tops_cap;
	/* A placed thread without orphans gets its depths and recursion
	 * flags as it is built: open[m] counts m's frames on the stack. */
	bool settles;
	uint32_t *open;
	size_t open_cap;
	struct clock_state clocks[CLOCK_COUNT];
	uint64_t cpu_base;
	uint64_t nevents;
	uint32_t orphans;
	struct sampling_probe probe;
	/* Summed after a split, the thread had events before it: nevents
	 * and the probe count one event for them, and the clocks read 0
	 * at the split. */
	bool continued;
};

enum {
	METHOD_CACHE = 4096,      /* direct-mapped id -> index cache */
	TID_DIRECT = 1 << 16,     /* thread ids looked up without hashing */
	SETTLE_OPEN = 1 << 22,    /* most counts of open frames (or rows of
	                             sums), for all threads */
	STRETCH = 1 << 20,        /* records between progress reports and
	                             page releases */
	RECORDS_WINDOW = 1 << 17, /* bytes of records read from the file
	                             at once: a window the caches hold */
};

/* A method id's index, keyed by ~id so that zeroed memory is an empty
 * cache (~0 is never a method id). */
struct method_cache_entry {
	uint64_t key;
	uint32_t index;
};

/* Deep calls found while settling threads, before they join the model. */
struct deep_list {
	struct tt_deep_call *calls;
	size_t count, cap;
};

/* A method id the key does not define, as a shared worker met it. */
struct unknown_method {
	uint64_t id;
	uint64_t record; /* the record that first needed it */
};

/*
 * What rebuilds the calls of some threads.  Workers running side by side
 * share the builder read-only, except for the states of the threads each
 * owns; they count anomalies apart and add no methods: a method id the
 * key lacks gets index known + i, i its place in `unknown`, until
 * build_settle_unknown gives it its own.
 */
struct build_worker {
	struct calltree_builder *b;
	struct tt_anomalies *an; /* where anomalies are counted */
	/* A power of two of entries up to METHOD_CACHE, as the key's methods
	 * need (a small trace's run clears a few hundred bytes, not 64 KB),
	 * looked up by (id >> 2) & cache_mask. */
	struct method_cache_entry *method_cache;
	uint32_t cache_mask;
	bool shared;     /* other workers run beside this one */
	bool failed;     /* met what placed threads cannot hold */
	uint64_t record; /* index of the record being applied */
	uint32_t known;  /* methods in the model when the worker began (summing
	                    ahead: numbered so far) */
	/* What the worker reads of the model: the builder's, or, for a
	 * worker that sums ahead of the reader's report, its own. */
	const struct util_map *method_ids; /* method id -> index */
	const bool *has_clock;             /* by clock */
	const struct trace_header *header;
	struct util_map unknown_ids; /* id -> index in unknown */
	struct unknown_method *unknown;
	size_t nunknown, unknown_cap;
	struct deep_list deep;
	size_t summing;          /* threads given sums by this worker */
	struct split_side *side; /* the second worker of a split sums
	                            pass: its own threads; else NULL */
	unsigned char *window;   /* records read from the file, or NULL */
};

/*
 * The calls that go up the builder's files: the core (model/builder.c)
 * makes those it needs of model/builder-records.c, builder-sums.c and
 * builder-split.c through these, and records those of sums and split;
 * calltree_builder_new (builder-split.c) fills them.  Each file calls
 * the ones before it directly (tests/builder-order.sh).
 */
struct build_hooks {
	/* The sink's records, walked and ahead callbacks (read/sink.h). */
	void (*records)(void *ctx, const struct trace_records *run);
	void (*walked)(void *ctx, const struct trace_records *r, size_t first);
	bool (*ahead_begin)(void *ctx, const struct trace_ahead_info *info);
	void (*ahead_method)(void *ctx, uint64_t id);
	bool (*ahead_records)(void *ctx, const struct trace_records *r,
	                      size_t first);
	void (*ahead_end)(void *ctx);
	/* Sum run, on two workers when worth it, for a builder asked for
	 * sums only; false, with the threads' states reset, when it
	 * cannot be summed. */
	bool (*sum_run)(struct calltree_builder *b,
	                const struct trace_records *run);
	/* The state and record of thread id tid in the second worker of a
	 * split, w->side (made on its first record, with what came before
	 * the split); false when that thread cannot be summed there. */
	bool (*split_thread)(struct build_worker *w, uint32_t tid,
	                     struct thread_state **st, struct tt_thread **th);
	/* Free what the walk kept and no split took, and stop and free
	 * what summed ahead and no split took. */
	void (*split_free)(struct calltree_builder *b);
	/* Sum one event of the sink (b->event_sums: a nested trace loaded
	 * for its sums); false when it cannot be summed. */
	bool (*sum_event)(struct calltree_builder *b, uint32_t tid,
	                  uint64_t method_id, enum trace_action action,
	                  uint64_t cpu, uint64_t wall);
	/* The events summed so far into the model's sums (or, when done is
	 * false, dropped); b->event_sums freed either way. */
	void (*sum_events_end)(struct calltree_builder *b, bool done);
};

struct calltree_builder {
	struct calltree *tree;
	/* The calls up the builder's files. */
	const struct build_hooks *hooks;
	uint32_t *tid_direct;       /* tid -> thread index + 1 (0: not yet
	                               looked up), for tid < 2^16 */
	struct util_map thread_ids; /* tid -> thread index */
	struct util_map
	        thread_alias; /* tid & 0xFFFF -> index, for tid > 0xFFFF */
	struct util_map method_ids;   /* method id -> method index */
	struct thread_state **states; /* by thread index; NULL until an event */
	size_t ncalls;    /* calls of all threads built event by event */
	uint32_t *parent; /* by model call, until the depths are settled */
	size_t methods_cap, threads_cap, props_cap, warnings_cap;
	bool began;
	bool placed;          /* the model's arrays were sized from counts */
	unsigned max_workers; /* for the records path; 0: one per cpu */
	bool keep_cpu;        /* thread-cpu times come rebased already */
	bool sums_only;       /* sum the calls of records without a model, when
	                         every thread can be (model/builder-sums.c) */
	bool paths;           /* sums_only: each thread's call paths too */
	/* sums_only: each thread's frames too, of the methods this gives
	 * flags for (frame_flags, nframe_flags of them, taken when the
	 * records come). */
	calltree_frame_methods_fn *frame_methods;
	void *frame_arg;
	bool *frame_flags;
	size_t nframe_flags;
	/* sums_only: triage's sums too, by the spec this makes (taken
	 * when the records come); with them, one worker sums. */
	calltree_triage_fn *triage;
	void *triage_arg;
	struct triage_sums_spec *triage_spec;
	bool summed;        /* they were: the model has sums and no calls */
	bool summed_split;  /* by two workers (model/builder-split.c) */
	bool summed_walked; /* split at stacks the reader's walk gave */
	bool summed_ahead;  /* its first part summed ahead of the report */
	bool spoiled;       /* events came after the sums, or events could
	                       not be summed: load without them */
	bool events_met;    /* the first event came */
	/* sums_only, neither paths nor frames, a nested trace (read/sink.h):
	 * its events summed as they come (model/builder-sums.c), or NULL */
	struct event_sums *event_sums;
	/* The sampling probes of the threads whose states are gone before
	 * finish (summed in turn, model/builder-sums.c). */
	struct sampling_verdict settled;
	size_t split_at;     /* sums: the record where a second worker takes
	                        over (tests); 0: chosen by size and cpus */
	size_t split_middle; /* with split_at, tests: the middle, in two
	                        parts, is [split_middle, split_at) */
	unsigned split_middle_first; /* of which the first worker takes
	                                this many, the second the rest */
	struct sums_ahead *ahead;    /* the first worker of a split, summing
	                                a streaming file's records ahead of
	                                the report, or NULL */
	struct walk_scans *walked;   /* stacks at the split points, from the
	                                records a reader walked, or NULL */
	struct build_worker serial;  /* the event-by-event worker */
	/* The event path, when the header says threads_in_turn: each
	 * thread's calls settled into the model's arrays, and its state
	 * freed, once the next thread's events begin (model/builder.c);
	 * NULL before the first event, or with no_turns. */
	struct turn_store *turns;
	bool no_turns; /* keep every thread's state to the end */
	struct trace_sink sink;
	calltree_progress_fn *progress;
	void *progress_arg;
};

/*
 * Unwrap and clamp one raw reading v of clock k, whose state is c.  The
 * clamp is step by step (FORMAT.md 8.6): a step backwards counts 0 and
 * the steps after it count in full, so one bad reading does not stop
 * the clock until it catches up again.
 */
static inline uint64_t
clock_reading(struct clock_state *c, struct tt_anomalies *an, int k, uint64_t v,
              bool wraps)
{
	uint64_t last = c->raw_prev + c->epoch;

	if (__builtin_expect(wraps && v < c->raw_prev &&
	                             c->raw_prev - v > UINT64_C(1) << 31,
	                     0)) {
		c->epoch += UINT64_C(1) << 32;
		an->wraps[k]++;
	}
	c->raw_prev = v;
	v += c->epoch;
	if (__builtin_expect(v < last, 0))
		an->negative_steps[k]++;
	else
		c->prev += v - last;
	return c->prev;
}

/* Whether records on `clock` carry clock k. */
static inline bool
clock_has(enum trace_clock clock, int k)
{
	return clock & (k == CLOCK_CPU ? TRACE_CLOCK_CPU : TRACE_CLOCK_WALL);
}

/* The times of an event whose raw readings are cpu and wall, on the
 * clocks of `clock` (a constant where it matters), in at: unwrapped and
 * clamped by the clocks' states, thread-cpu rebased by cpu_base; and
 * their account in the sampling probe. */
static inline __attribute__((always_inline)) void
read_times(struct clock_state *clocks, uint64_t cpu_base,
           struct sampling_probe *probe, struct tt_anomalies *an,
           enum trace_clock clock, bool wraps, uint64_t cpu, uint64_t wall,
           uint64_t *at)
{
	uint64_t raw[CLOCK_COUNT] = {cpu, wall};
	int k;

	for (k = 0; k < CLOCK_COUNT; k++)
		at[k] = clock_has(clock, k)
		                ? clock_reading(&clocks[k], an, k, raw[k],
		                                wraps) -
		                          (k == CLOCK_CPU ? cpu_base : 0)
		                : 0;
	sampling_probe_add(probe, clock_has(clock, CLOCK_WALL) ? at[CLOCK_WALL]
	                                                       : at[CLOCK_CPU]);
}

/*
 * The core (model/builder.c): the builder, its sink's event path, the
 * threads' states, workers and placed threads.  It calls nothing of
 * the files above it but through the hooks they give it.
 */

/* A builder of the trace at path (calltree_builder_new), which calls
 * the files above the core through hooks. */
struct calltree_builder *build_new(const char *path,
                                   const struct build_hooks *hooks);
/* Thread t's state, made on its first event. */
struct thread_state *build_state_of(struct calltree_builder *b, size_t t);
/* Release a thread state made apart from the builder's (st may be NULL). */
void build_state_free(struct thread_state *st);
/* Method index of id, as method_slot gives it to the event path. */
uint32_t build_method_slot(struct build_worker *w, uint64_t id);
/* The first event of thread t, read raw: where its clocks start. */
void build_first_times(struct calltree_builder *b, uint32_t t,
                       const uint64_t *raw);
/* build_first_times on a thread's state st and record th, wherever
 * they are kept, of the clocks has_clock says. */
void build_start_clocks(const struct calltree_builder *b, const bool *has_clock,
                        struct thread_state *st, struct tt_thread *th,
                        const uint64_t *raw);
/* Thread t's event count and last times, from its state. */
void build_settle_thread_times(struct calltree_builder *b, size_t t);

/* Thread index of thread id tid, adding a thread for a new id. */
uint32_t build_thread_of(struct calltree_builder *b, uint32_t tid);
/* A worker for b counting anomalies into an (reset to zero). */
void build_worker_init(struct build_worker *w, struct calltree_builder *b,
                       struct tt_anomalies *an, bool shared);
/* Apply one event of thread t (the sink's event, its thread resolved). */
void build_event(struct build_worker *w, uint32_t t, uint64_t method_id,
                 enum trace_action action, uint64_t cpu, uint64_t wall);
/*
 * Apply the records [from, to) of run whose thread index (by tid_index)
 * is owned by worker `who` (by owner); stops early when w fails.
 */
void build_records(struct build_worker *w, const struct trace_records *run,
                   size_t from, size_t to, const uint32_t *tid_index,
                   const uint8_t *owner, uint8_t who);
/* Apply the records [from, to) of run, all of thread index t; stops early
 * when w fails. */
void build_thread_records(struct build_worker *w,
                          const struct trace_records *run, size_t from,
                          size_t to, uint32_t t);
/* Give the methods that shared workers[0..n) met but the key lacks their
 * model indexes, in the order the event-by-event path would add them;
 * remap[w][i] is the index of workers[w]'s unknown method i. */
uint32_t **build_settle_unknown(struct build_worker *const *workers,
                                unsigned n);
/* Replace the provisional method indexes of thread t's calls by remap's;
 * false when one does not fit the model's 16-bit methods. */
bool build_remap_methods(struct build_worker *w, size_t t,
                         const uint32_t *remap);
/* Release what a worker holds. */
void build_worker_done(struct build_worker *w);
/* Make thread t placed at model calls [base, base + orphans + enters),
 * settling its calls as they come if it `settles` (no orphans). */
void build_place_thread(struct calltree_builder *b, size_t t, size_t base,
                        size_t orphans, size_t enters, bool settles);
/*
 * Complete placed thread t: last times, open frames closed, depths and
 * recursion settled.  open has nmethods + 1 zeros, path room for the
 * thread's calls.  False when the thread did not fill its slice exactly.
 */
bool build_finish_placed(struct build_worker *w, size_t t, uint32_t *open,
                         uint32_t *path);
/* Forget every thread's calls and state, and the model's arrays. */
void build_reset_calls(struct calltree_builder *b);
/* Sum the counters of `from` into `to`. */
void build_add_anomalies(struct tt_anomalies *to,
                         const struct tt_anomalies *from);

/* The model's arrays for n calls (methods in 16 bits if narrow), and the
 * builder's parents if asked. */
void build_alloc_calls(struct calltree_builder *b, size_t n, bool narrow,
                       bool parents);

/*
 * model/builder-records.c: a V1 data part's records at once, placed in
 * the model by workers (or summed, through the hooks, when sums_only).
 */

/* The sink's records callback. */
void build_on_records(void *ctx, const struct trace_records *run);
/* Give back the pages of records [from, to) of run, when mapped, and of
 * the packets between them. */
void build_release_records(const struct trace_records *run, size_t from,
                           size_t to);

/*
 * model/builder-sums.c: the records' calls summed as they close, with
 * no model.
 */

/*
 * Sum the records [from, to) of run, in file order, into their threads'
 * sums (threads added as they come); stops early, failed, at what only
 * the model can hold (an orphan, an undefined method, too many threads
 * times methods).
 */
void build_sum_records(struct build_worker *w, const struct trace_records *run,
                       size_t from, size_t to);
/*
 * Sum every record of run, in file order, on this thread, with no model:
 * no counting pass is needed, since nothing is placed.  False, with
 * every thread as it was, when a thread cannot be summed.
 */
bool build_sum_all(struct calltree_builder *b, const struct trace_records *run);
/*
 * Of records [from, to) of piece view v (trace_records_at of run), those
 * from `from` up to *stop, as a view that reads them by their indexes in
 * run: a window of them read into w's by pread when run has its file (a
 * copy costs less than a first touch of a mapped page), else v itself up
 * to `to`.
 */
struct trace_records build_records_window(struct build_worker *w,
                                          const struct trace_records *run,
                                          const struct trace_records *v,
                                          size_t from, size_t to, size_t *stop);
/* The sink's events summed as they come (sums_only, a nested trace),
 * by their own worker. */
struct event_sums {
	struct build_worker w;
	struct tt_anomalies an;
	/* The thread of the last event: events come thread by thread. */
	bool known_thread;
	uint32_t tid, t;
	struct thread_state *st;
	/* With the header's threads_in_turn: the model's sums of the
	 * threads finished so far (tree->sums), room for them, and how
	 * many of them are zeroed. */
	size_t sums_cap, sums_zeroed;
};
/* Sum one event of the sink; false when it cannot be summed.  (The hook
 * sum_event.) */
bool build_sum_event(struct calltree_builder *b, uint32_t tid,
                     uint64_t method_id, enum trace_action action, uint64_t cpu,
                     uint64_t wall);
/* Hand the events' sums to the model, when done (else drop them); frees
 * b->event_sums.  (The hook sum_events_end.) */
void build_sum_events_end(struct calltree_builder *b, bool done);
/* Close what is still open on thread t at its last event and hand its
 * sums to the model; anomalies counted into an. */
void build_sum_finish(struct calltree_builder *b, size_t t,
                      struct tt_anomalies *an);
/* Enter method id at `at` on a thread summed by w (state st, record th);
 * false when it cannot be summed. */
bool build_sum_enter(struct build_worker *w, struct thread_state *st,
                     struct tt_thread *th, uint64_t id, const uint64_t *at);
/*
 * Fold the sums of a thread's records after a split (`from`, summed by
 * the second worker) into those before it (`into`, as the first worker
 * left them, its times at the split `at`), and take over from's stack.
 * False when into's open frames are not the ones from was given.
 */
bool build_sums_merge(struct thread_state *into, struct thread_state *from,
                      const uint64_t *at);

/*
 * model/builder-split.c: the sums on two workers, and a streaming
 * file's first part summed ahead of its report.  It defines
 * calltree_builder_new: the core with the hooks of the files above it.
 * Its other entry points are the hooks.
 */

#endif
