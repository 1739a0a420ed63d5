/*
 * builder-split: the sums pass (model/builder-sums.c) on two cores, for
 * a run of records that one thread may hold almost alone.
 *
 * The first worker sums the records before the split point as the one
 * pass would.  The second first walks those same records quickly, keeping
 * only each thread's stack of method ids and its last raw readings, then
 * sums the records after the split against those stacks: it knows which
 * methods are open below (recursion) and who called (links), and its
 * clocks read 0 at the split.  Joining them adds, to each frame opened
 * before the split and closed after it, its time before the split, sums
 * the second worker's rows and links into the first's, and carries the
 * clocks, counts and stacks on; the threads first met after the split
 * join in the order they were met.  Where the second worker cannot know
 * enough (an exit that meets no frame on a thread that ran before), or
 * its stacks are not those the first worker left, the split is dropped
 * and the records are summed in one pass.
 */
#include "config.h"

#include "model/builder.h"

#include "util/alloc.h"
#include "util/jobs.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum {
	SPLIT_MIN = 1 << 20, /* fewest records worth a second worker */
	/* The share of records before the split, in eighths: the second
	 * worker's walk over them costs a fraction of summing them. */
	SPLIT_EIGHTHS = 5,
};

/* A thread's stack and last readings at the split, as the walk saw. */
struct prefix_scan {
	uint64_t *ids; /* method ids of its open frames, outermost first */
	size_t depth, cap;
	uint64_t raw[CLOCK_COUNT];
};

struct split_side {
	struct util_map scanned; /* tid -> index in scans */
	struct prefix_scan *scans;
	size_t nscans, scans_cap;
	/* The second worker's threads, in the order first met. */
	struct util_map ids; /* tid -> index */
	uint32_t *tids;
	struct thread_state **states;
	struct tt_thread *threads;
	size_t count, cap;
};

struct split_job {
	struct calltree_builder *b;
	const struct trace_records *run;
	size_t split;
	struct build_worker w;
	struct tt_anomalies an;
	struct split_side *side;    /* the second worker's, else NULL */
	atomic_size_t *second_done; /* records the second has summed */
};

/* The scan of thread id tid, made empty on its first record. */
static struct prefix_scan *
scan_of(struct split_side *side, uint32_t tid)
{
	uint32_t *slot = util_map_slot(&side->scanned, tid, UINT32_MAX);

	if (*slot == UINT32_MAX) {
		UTIL_GROW(side->scans, side->scans_cap, side->nscans + 1);
		memset(&side->scans[side->nscans], 0, sizeof(*side->scans));
		*slot = (uint32_t)side->nscans++;
	}
	return &side->scans[*slot];
}

/*
 * Walk records [from, to) of r, decoded as r's version and clock say
 * (constants where it is inlined): each thread's open method ids,
 * matched as the sums pass matches them (sum_leave), and last readings.
 */
static inline __attribute__((always_inline)) void
scan_piece(struct split_side *side, const struct trace_records *piece,
           size_t from, size_t to, unsigned version, enum trace_clock clock)
{
	struct trace_records r = *piece;
	struct prefix_scan *sc = NULL;
	struct trace_event ev;
	uint32_t tid = 0;
	size_t i, d;

	r.version = version;
	r.clock = clock;
	for (i = from; i < to; i++) {
		trace_records_get(&r, i, &ev);
		if (!sc || ev.tid != tid) {
			tid = ev.tid;
			sc = scan_of(side, tid);
		}
		sc->raw[CLOCK_CPU] = ev.cpu;
		sc->raw[CLOCK_WALL] = ev.wall;
		if (ev.action == TRACE_ENTER) {
			if (__builtin_expect(sc->depth == sc->cap, 0))
				UTIL_GROW(sc->ids, sc->cap, sc->depth + 1);
			sc->ids[sc->depth++] = ev.method_id;
			continue;
		}
		for (d = sc->depth; d > 0 && sc->ids[d - 1] != ev.method_id;
		     d--)
			;
		/* Matched: closed with what is above it; else all close
		 * and the exit is an orphan's. */
		sc->depth = d ? d - 1 : 0;
	}
}

/* scan_piece over records [0, to) of run, a window at a time (read by
 * w), its version and clock told apart once a window. */
static void
scan_records(struct build_worker *w, struct split_side *side,
             const struct trace_records *run, size_t to)
{
	size_t i = 0, end, stop;

	while (i < to) {
		struct trace_records v = trace_records_at(run, i, &end);
		struct trace_records p = build_records_window(
		        w, run, &v, i, end < to ? end : to, &stop);

		if (p.version < 2)
			scan_piece(side, &p, i, stop, 1, p.clock);
		else if (p.clock == TRACE_CLOCK_DUAL)
			scan_piece(side, &p, i, stop, 3, TRACE_CLOCK_DUAL);
		else if (p.clock == TRACE_CLOCK_CPU)
			scan_piece(side, &p, i, stop, 2, TRACE_CLOCK_CPU);
		else
			scan_piece(side, &p, i, stop, 2, TRACE_CLOCK_WALL);
		i = stop;
	}
}

/* Make the second worker's thread tid continue what the walk saw of it
 * before the split: its readings, and its open frames from time 0. */
static bool
continue_thread(struct build_worker *w, const struct prefix_scan *sc,
                struct thread_state *st, struct tt_thread *th)
{
	static const uint64_t zero[CLOCK_COUNT];
	int k;
	size_t i;

	st->continued = true;
	st->nevents = 1;
	st->probe.events = 1;
	for (k = 0; k < CLOCK_COUNT; k++)
		if (w->b->tree->has_clock[k])
			st->clocks[k].raw_prev = sc->raw[k];
	for (i = 0; i < sc->depth; i++)
		if (!build_sum_enter(w, st, th, sc->ids[i], zero))
			return false;
	if (st->sums)
		st->sums->seeded = st->sums->prefix = (uint32_t)sc->depth;
	return true;
}

bool
build_split_thread(struct build_worker *w, uint32_t tid,
                   struct thread_state **st, struct tt_thread **th)
{
	struct split_side *side = w->side;
	uint32_t *slot = util_map_slot(&side->ids, tid, UINT32_MAX), scanned;
	size_t n = side->count;

	if (*slot != UINT32_MAX) {
		*st = side->states[*slot];
		*th = &side->threads[*slot];
		return true;
	}
	if (n + 1 > side->cap) {
		size_t cap = side->cap;

		UTIL_GROW(side->tids, cap, n + 1);
		side->states =
		        xreallocarray(side->states, cap, sizeof(*side->states));
		side->threads = xreallocarray(side->threads, cap,
		                              sizeof(*side->threads));
		side->cap = cap;
	}
	*slot = (uint32_t)n;
	side->count = n + 1;
	side->tids[n] = tid;
	side->states[n] = xcalloc(1, sizeof(**st));
	memset(&side->threads[n], 0, sizeof(side->threads[n]));
	side->threads[n].tid = tid;
	*st = side->states[n];
	*th = &side->threads[n];
	if (!util_map_get(&side->scanned, tid, &scanned))
		return true;
	return continue_thread(w, &side->scans[scanned], *st, *th);
}

/* Sum records [from, to) of run on job's worker, a stretch at a time,
 * giving their pages back. */
static void
sum_stretches(struct split_job *job, size_t from, size_t to)
{
	struct calltree_builder *b = job->b;
	const struct trace_records *run = job->run;
	size_t stretch, end;

	for (stretch = from; stretch < to && !job->w.failed; stretch = end) {
		end = to - stretch > STRETCH ? stretch + STRETCH : to;
		build_sum_records(&job->w, run, stretch, end);
		build_release_records(run, stretch, end);
		if (job->side) {
			atomic_store_explicit(job->second_done, end - from,
			                      memory_order_relaxed);
		} else if (b->progress) {
			size_t done = end + atomic_load_explicit(
			                            job->second_done,
			                            memory_order_relaxed);

			b->progress(b->progress_arg,
			            run->offset + (uint64_t)done * run->size,
			            run->total);
		}
	}
}

static void *
split_main(void *arg)
{
	struct split_job *job = arg;

	if (job->side) {
		scan_records(&job->w, job->side, job->run, job->split);
		sum_stretches(job, job->split, job->run->count);
	} else {
		sum_stretches(job, 0, job->split);
	}
	return NULL;
}

/* Carry thread t on from the first worker's state into the second's
 * sums and readings; false when they do not meet. */
static bool
join_thread(struct calltree_builder *b, uint32_t t, struct thread_state *from,
            const struct tt_thread *from_th)
{
	struct calltree *tree = b->tree;
	struct thread_state *into = b->states[t];
	struct tt_thread *th = &tree->threads[t];
	uint64_t at[CLOCK_COUNT];
	int k;

	if (!from->continued) {
		/* First met after the split: its state moves over whole. */
		if (into && into->nevents)
			return false;
		build_state_free(into);
		b->states[t] = from;
		memcpy(th->first, from_th->first, sizeof(th->first));
		th->max_depth = from_th->max_depth;
		return true;
	}
	if (!into || !into->nevents)
		return false;
	for (k = 0; k < CLOCK_COUNT; k++)
		at[k] = tree->has_clock[k]
		                ? into->clocks[k].prev -
		                          (k == CLOCK_CPU ? into->cpu_base : 0)
		                : 0;
	if (!build_sums_merge(into, from, at))
		return false;
	for (k = 0; k < CLOCK_COUNT; k++) {
		into->clocks[k].raw_prev = from->clocks[k].raw_prev;
		into->clocks[k].epoch += from->clocks[k].epoch;
		into->clocks[k].prev += from->clocks[k].prev;
	}
	into->nevents += from->nevents - 1;
	if (from->probe.events > 1) {
		struct sampling_probe *p = &into->probe;
		const struct sampling_probe *q = &from->probe;

		p->same_time += q->same_time;
		if (q->min_step && (!p->min_step || q->min_step < p->min_step))
			p->min_step = q->min_step;
		p->prev += q->prev;
		p->events += q->events - 1;
	}
	if (from_th->max_depth > th->max_depth)
		th->max_depth = from_th->max_depth;
	build_state_free(from);
	return true;
}

/* Join the second worker's threads into the builder's; false when one
 * does not meet the first worker's. */
static bool
join_side(struct calltree_builder *b, struct split_side *side)
{
	size_t i;

	for (i = 0; i < side->count; i++) {
		uint32_t t = build_thread_of(b, side->tids[i]);
		struct thread_state *from = side->states[i];

		side->states[i] = NULL;
		if (!join_thread(b, t, from, &side->threads[i])) {
			build_state_free(from);
			return false;
		}
	}
	return true;
}

static void
side_free(struct split_side *side)
{
	size_t i;

	for (i = 0; i < side->nscans; i++)
		free(side->scans[i].ids);
	free(side->scans);
	util_map_done(&side->scanned);
	for (i = 0; i < side->count; i++)
		build_state_free(side->states[i]);
	free(side->states);
	free(side->threads);
	free(side->tids);
	util_map_done(&side->ids);
}

/* Where to split run, or 0 for not at all. */
static size_t
split_point(const struct calltree_builder *b, const struct trace_records *run)
{
	if (b->split_at)
		return b->split_at < run->count ? b->split_at : 0;
	if (run->count < SPLIT_MIN || b->max_workers == 1 ||
	    util_jobs_count(2) < 2)
		return 0;
	return run->count / 8 * SPLIT_EIGHTHS;
}

enum split_outcome
build_sum_split(struct calltree_builder *b, const struct trace_records *run)
{
	struct calltree *tree = b->tree;
	struct split_job jobs[2];
	struct split_side side = {0};
	atomic_size_t second_done = 0;
	size_t split = split_point(b, run), t;
	enum split_outcome out;
	int j;

	if (!split)
		return SPLIT_NONE;
	util_map_init(&side.scanned);
	util_map_init(&side.ids);
	for (j = 0; j < 2; j++) {
		jobs[j].b = b;
		jobs[j].run = run;
		jobs[j].split = split;
		jobs[j].side = j ? &side : NULL;
		jobs[j].second_done = &second_done;
		/* Shared, so that undefined methods fail them. */
		build_worker_init(&jobs[j].w, b, &jobs[j].an, true);
		jobs[j].w.side = jobs[j].side;
	}
	util_jobs_run(split_main, jobs, sizeof(jobs[0]), 2);
	if (jobs[0].w.failed)
		out = SPLIT_FAILED; /* one pass would fail there too */
	else if (jobs[1].w.failed ||
	         jobs[0].w.summing + jobs[1].w.summing >
	                 SETTLE_OPEN / (tree->nmethods + 1) ||
	         !join_side(b, &side))
		out = SPLIT_DROPPED;
	else
		out = SPLIT_SUMMED;
	if (out == SPLIT_SUMMED) {
		tree->sums = xcalloc(tree->nthreads + 1, sizeof(*tree->sums));
		build_add_anomalies(&tree->anomalies, &jobs[0].an);
		build_add_anomalies(&tree->anomalies, &jobs[1].an);
		for (t = 0; t < tree->nthreads; t++)
			build_sum_finish(b, t, &tree->anomalies);
		tree->records += run->count;
		b->summed = b->summed_split = true;
	}
	side_free(&side);
	build_worker_done(&jobs[0].w);
	build_worker_done(&jobs[1].w);
	return out;
}
