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
 *
 * The two cores need not run as fast as each other (a virtual machine's
 * seldom do), so a middle stretch of records belongs to neither worker:
 * the first to be done with its own records sums it.  The second worker's
 * walk keeps the stacks at the middle's start too, and sums the middle
 * against them as a third part, joined before its own.
 *
 * A streaming file is walked once before its records come, to find
 * where they lie between the packets (read/stream.c).  The walk shows
 * them here as it passes (build_on_walked), and the stacks at the split
 * points are scanned then, while the records are in the cache: both
 * workers start summing at once, and the middle is smaller.
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
	/* The first worker's records, the middle's end, in sixteenths: with
	 * cores of one speed, the first reaches the middle as the second,
	 * which walked the records before it, is done with its own. */
	SPLIT_FIRST = 8,
	SPLIT_MIDDLE_END = 11,
	/* The same when the stacks came with the records: both start at
	 * once. */
	SPLIT_WALKED_FIRST = 7,
	SPLIT_WALKED_END = 9,
};

/* A thread's stack and last readings at a split point, as a walk saw. */
struct prefix_scan {
	uint32_t tid;
	uint64_t *ids; /* method ids of its open frames, outermost first */
	size_t depth, cap;
	uint64_t raw[CLOCK_COUNT];
};

/* Every thread's, at one point. */
struct prefix_scans {
	struct util_map by_tid; /* tid -> index in list */
	struct prefix_scan *list;
	size_t count, cap;
};

/* The stacks at the split points, scanned from the records a streaming
 * walk passed before the records came (build_on_walked). */
struct walk_scans {
	size_t from, to; /* the middle stretch they are for */
	size_t next;     /* the record the walk passes next */
	bool broken;     /* records were skipped: of no use */
	bool dual;       /* read with two clocks */
	struct prefix_scans at_from, at_to;
};

/* Who sums the middle stretch. */
enum { MIDDLE_OPEN, MIDDLE_FIRST, MIDDLE_SECOND };

struct split_side {
	struct prefix_scans scans; /* each thread's, at the side's start */
	/* The second worker's threads, in the order first met. */
	struct util_map ids; /* tid -> index */
	uint32_t *tids;
	struct thread_state **states;
	struct tt_thread *threads;
	size_t count, cap;
};

/* What both workers see. */
struct split_shared {
	size_t mid_from, mid_to;   /* the middle stretch of records */
	bool mid_to_second;        /* tests: the first worker leaves it */
	atomic_int middle;         /* MIDDLE_*: who took it */
	atomic_size_t second_done; /* records the second has summed */
	bool scanned;              /* the stacks came with the records
	                              (build_on_walked): no walk */
};

struct split_job {
	struct calltree_builder *b;
	const struct trace_records *run;
	struct split_shared *shared;
	struct build_worker w;
	struct tt_anomalies an;
	struct split_side *side; /* the second worker's, else NULL */
	/* The second worker's for the middle, when it takes it. */
	struct build_worker w_mid;
	struct tt_anomalies an_mid;
	struct split_side *side_mid;
};

/* The scan of thread id tid, made empty on its first record. */
static struct prefix_scan *
scan_of(struct prefix_scans *ps, uint32_t tid)
{
	uint32_t *slot = util_map_slot(&ps->by_tid, tid, UINT32_MAX);

	if (*slot == UINT32_MAX) {
		UTIL_GROW(ps->list, ps->cap, ps->count + 1);
		memset(&ps->list[ps->count], 0, sizeof(*ps->list));
		ps->list[ps->count].tid = tid;
		*slot = (uint32_t)ps->count++;
	}
	return &ps->list[*slot];
}

static void
scans_free(struct prefix_scans *ps)
{
	size_t i;

	for (i = 0; i < ps->count; i++)
		free(ps->list[i].ids);
	free(ps->list);
	util_map_done(&ps->by_tid);
}

/* The stacks and readings of from, copied into to (empty). */
static void
copy_scans(struct prefix_scans *to, const struct prefix_scans *from)
{
	size_t i;

	for (i = 0; i < from->count; i++) {
		const struct prefix_scan *f = &from->list[i];
		struct prefix_scan *s = scan_of(to, f->tid);

		s->depth = s->cap = f->depth;
		s->ids = xmalloc((f->depth + 1) * sizeof(*s->ids));
		if (f->depth) /* else f->ids may be NULL */
			memcpy(s->ids, f->ids, f->depth * sizeof(*s->ids));
		memcpy(s->raw, f->raw, sizeof(s->raw));
	}
}

/*
 * Walk records [from, to) of r, decoded as r's version and clock say
 * (constants where it is inlined): each thread's open method ids,
 * matched as the sums pass matches them (sum_leave), and last readings.
 */
static inline __attribute__((always_inline)) void
scan_piece(struct prefix_scans *ps, const struct trace_records *piece,
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
			sc = scan_of(ps, tid);
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

/* scan_piece over records [i, to) of run, a window at a time (read by
 * w), its version and clock told apart once a window. */
static void
scan_records(struct build_worker *w, struct prefix_scans *ps,
             const struct trace_records *run, size_t i, size_t to)
{
	size_t end, stop;

	while (i < to) {
		struct trace_records v = trace_records_at(run, i, &end);
		struct trace_records p = build_records_window(
		        w, run, &v, i, end < to ? end : to, &stop);

		if (p.version < 2)
			scan_piece(ps, &p, i, stop, 1, p.clock);
		else if (p.clock == TRACE_CLOCK_DUAL)
			scan_piece(ps, &p, i, stop, 3, TRACE_CLOCK_DUAL);
		else if (p.clock == TRACE_CLOCK_CPU)
			scan_piece(ps, &p, i, stop, 2, TRACE_CLOCK_CPU);
		else
			scan_piece(ps, &p, i, stop, 2, TRACE_CLOCK_WALL);
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
	if (!util_map_get(&side->scans.by_tid, tid, &scanned))
		return true;
	return continue_thread(w, &side->scans.list[scanned], *st, *th);
}

/* Sum records [from, to) of run on worker w of job, a stretch at a
 * time, giving their pages back; false when w failed. */
static bool
sum_stretches(struct split_job *job, struct build_worker *w, size_t from,
              size_t to)
{
	struct calltree_builder *b = job->b;
	const struct trace_records *run = job->run;
	atomic_size_t *second = &job->shared->second_done;
	size_t stretch, end;

	for (stretch = from; stretch < to && !w->failed; stretch = end) {
		end = to - stretch > STRETCH ? stretch + STRETCH : to;
		build_sum_records(w, run, stretch, end);
		build_release_records(run, stretch, end);
		if (job->side) {
			atomic_fetch_add_explicit(second, end - stretch,
			                          memory_order_relaxed);
		} else if (b->progress) {
			size_t done =
			        end + atomic_load_explicit(
			                      second, memory_order_relaxed);

			b->progress(b->progress_arg,
			            run->offset + (uint64_t)done * run->size,
			            run->total);
		}
	}
	return !w->failed;
}

/* Whether job's worker (MIDDLE_FIRST or MIDDLE_SECOND) takes the middle:
 * the first to ask does. */
static bool
take_middle(struct split_job *job, int who)
{
	int open = MIDDLE_OPEN;

	return job->shared->mid_from < job->shared->mid_to &&
	       atomic_compare_exchange_strong(&job->shared->middle, &open, who);
}

static void *
split_main(void *arg)
{
	struct split_job *job = arg;
	const struct split_shared *sh = job->shared;

	if (job->side) {
		if (!sh->scanned) {
			struct prefix_scans *at_to = &job->side->scans;

			scan_records(&job->w, at_to, job->run, 0, sh->mid_from);
			if (sh->mid_from < sh->mid_to)
				copy_scans(&job->side_mid->scans, at_to);
			scan_records(&job->w, at_to, job->run, sh->mid_from,
			             sh->mid_to);
		}
		if (sum_stretches(job, &job->w, sh->mid_to, job->run->count) &&
		    take_middle(job, MIDDLE_SECOND))
			sum_stretches(job, &job->w_mid, sh->mid_from,
			              sh->mid_to);
	} else if (sum_stretches(job, &job->w, 0, sh->mid_from) &&
	           !sh->mid_to_second && take_middle(job, MIDDLE_FIRST)) {
		sum_stretches(job, &job->w, sh->mid_from, sh->mid_to);
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

	scans_free(&side->scans);
	for (i = 0; i < side->count; i++)
		build_state_free(side->states[i]);
	free(side->states);
	free(side->threads);
	free(side->tids);
	util_map_done(&side->ids);
}

/* Where to split run: the middle stretch into sh; false for not at
 * all. */
static bool
split_points(const struct calltree_builder *b, size_t count, bool walked,
             struct split_shared *sh)
{
	if (b->split_at) {
		if (b->split_at >= count)
			return false;
		sh->mid_to = b->split_at;
		sh->mid_from = b->split_middle && b->split_middle < b->split_at
		                       ? b->split_middle
		                       : b->split_at;
		sh->mid_to_second = true;
		return true;
	}
	if (count < SPLIT_MIN || b->max_workers == 1 || util_jobs_count(2) < 2)
		return false;
	sh->mid_from = count / 16 * (walked ? SPLIT_WALKED_FIRST : SPLIT_FIRST);
	sh->mid_to =
	        count / 16 * (walked ? SPLIT_WALKED_END : SPLIT_MIDDLE_END);
	return true;
}

/* scan_piece over records [from, to) of r as the walk reads them. */
static void
scan_walked(struct prefix_scans *ps, const struct trace_records *r, size_t from,
            size_t to, bool dual)
{
	if (dual)
		scan_piece(ps, r, from, to, 3, TRACE_CLOCK_DUAL);
	else
		scan_piece(ps, r, from, to, 2, TRACE_CLOCK_CPU);
}

void
build_on_walked(void *ctx, const struct trace_records *r, size_t first)
{
	struct calltree_builder *b = ctx;
	struct walk_scans *ws = b->walked;
	struct trace_records v = *r;
	size_t i = first, end = first + r->count;

	if (!ws) {
		struct split_shared sh = {0};

		/* Split points for as many records as the file holds. */
		if (first || !b->sums_only || !r->size ||
		    !split_points(b, r->total / r->size, true, &sh))
			return;
		ws = b->walked = xcalloc(1, sizeof(*ws));
		util_map_init(&ws->at_from.by_tid);
		util_map_init(&ws->at_to.by_tid);
		ws->from = sh.mid_from;
		ws->to = sh.mid_to;
		ws->dual = r->clock == TRACE_CLOCK_DUAL;
	}
	if (ws->broken || ws->next >= ws->to)
		return;
	if (first != ws->next) {
		ws->broken = true;
		return;
	}
	ws->next = end;
	v.data = r->data - first * r->size; /* read by index from 0 */
	if (i < ws->from) {
		size_t stop = end < ws->from ? end : ws->from;

		scan_walked(&ws->at_to, &v, i, stop, ws->dual);
		i = stop;
		if (i == ws->from && ws->from < ws->to)
			copy_scans(&ws->at_from, &ws->at_to);
	}
	if (i < end && i < ws->to)
		scan_walked(&ws->at_to, &v, i, end < ws->to ? end : ws->to,
		            ws->dual);
}

void
build_walked_free(struct calltree_builder *b)
{
	if (!b->walked)
		return;
	scans_free(&b->walked->at_from);
	scans_free(&b->walked->at_to);
	free(b->walked);
	b->walked = NULL;
}

/* The readings of ps, which the walk read as cpu first, as clock names
 * them: a wall clock alone is the first.  (A clock the trace lacks is
 * never read.) */
static void
name_clocks(struct prefix_scans *ps, enum trace_clock clock)
{
	size_t i;

	for (i = 0; clock == TRACE_CLOCK_WALL && i < ps->count; i++) {
		uint64_t *raw = ps->list[i].raw;

		raw[CLOCK_WALL] = raw[CLOCK_CPU];
		raw[CLOCK_CPU] = 0;
	}
}

/* Take the walk's stacks for run into the sides, with their split
 * points into sh; false when it has none for run. */
static bool
take_walked(struct calltree_builder *b, const struct trace_records *run,
            struct split_shared *sh, struct split_side *side,
            struct split_side *side_mid)
{
	struct walk_scans *ws = b->walked;

	if (!ws || ws->broken || ws->next < ws->to || ws->to >= run->count ||
	    (run->clock == TRACE_CLOCK_DUAL && !ws->dual))
		return false;
	sh->mid_from = ws->from;
	sh->mid_to = ws->to;
	sh->mid_to_second = b->split_at != 0;
	sh->scanned = true;
	name_clocks(&ws->at_to, run->clock);
	name_clocks(&ws->at_from, run->clock);
	util_map_done(&side->scans.by_tid);
	util_map_done(&side_mid->scans.by_tid);
	side->scans = ws->at_to;
	side_mid->scans = ws->at_from;
	free(ws);
	b->walked = NULL;
	return true;
}

/* The threads the second worker summed in the middle, when it took it,
 * then after it, joined into the builder's; false when they do not
 * meet. */
static bool
join_sides(struct calltree_builder *b, struct split_job *second, int middle)
{
	if (middle == MIDDLE_SECOND &&
	    (second->w_mid.failed || !join_side(b, second->side_mid)))
		return false;
	return join_side(b, second->side);
}

enum split_outcome
build_sum_split(struct calltree_builder *b, const struct trace_records *run)
{
	struct calltree *tree = b->tree;
	struct split_job jobs[2];
	struct split_shared sh = {0};
	struct split_side side = {0}, side_mid = {0};
	size_t t, summing;
	enum split_outcome out;
	int j, middle;

	util_map_init(&side.scans.by_tid);
	util_map_init(&side.ids);
	util_map_init(&side_mid.scans.by_tid);
	util_map_init(&side_mid.ids);
	if (!take_walked(b, run, &sh, &side, &side_mid) &&
	    !split_points(b, run->count, false, &sh)) {
		side_free(&side);
		side_free(&side_mid);
		return SPLIT_NONE;
	}
	atomic_init(&sh.middle, MIDDLE_OPEN);
	atomic_init(&sh.second_done, 0);
	for (j = 0; j < 2; j++) {
		jobs[j].b = b;
		jobs[j].run = run;
		jobs[j].shared = &sh;
		jobs[j].side = j ? &side : NULL;
		jobs[j].side_mid = j ? &side_mid : NULL;
		/* Shared, so that undefined methods fail them. */
		build_worker_init(&jobs[j].w, b, &jobs[j].an, true);
		jobs[j].w.side = jobs[j].side;
		build_worker_init(&jobs[j].w_mid, b, &jobs[j].an_mid, true);
		jobs[j].w_mid.side = jobs[j].side_mid;
	}
	util_jobs_run(split_main, jobs, sizeof(jobs[0]), 2);
	middle = atomic_load(&sh.middle);
	summing = jobs[0].w.summing + jobs[1].w.summing + jobs[1].w_mid.summing;
	if (jobs[0].w.failed)
		out = SPLIT_FAILED; /* one pass would fail there too */
	else if (jobs[1].w.failed ||
	         (sh.mid_from < sh.mid_to && middle == MIDDLE_OPEN) ||
	         summing > SETTLE_OPEN / (tree->nmethods + 1) ||
	         !join_sides(b, &jobs[1], middle))
		out = SPLIT_DROPPED;
	else
		out = SPLIT_SUMMED;
	if (out == SPLIT_SUMMED) {
		tree->sums = xcalloc(tree->nthreads + 1, sizeof(*tree->sums));
		build_add_anomalies(&tree->anomalies, &jobs[0].an);
		build_add_anomalies(&tree->anomalies, &jobs[1].an);
		if (middle == MIDDLE_SECOND)
			build_add_anomalies(&tree->anomalies, &jobs[1].an_mid);
		for (t = 0; t < tree->nthreads; t++)
			build_sum_finish(b, t, &tree->anomalies);
		tree->records += run->count;
		b->summed = b->summed_split = true;
		b->summed_walked = sh.scanned;
	}
	side_free(&side);
	side_free(&side_mid);
	for (j = 0; j < 2; j++) {
		build_worker_done(&jobs[j].w);
		build_worker_done(&jobs[j].w_mid);
	}
	return out;
}
