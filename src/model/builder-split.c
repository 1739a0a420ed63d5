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
 * it is cut in parts, which the first worker, done with its own records,
 * takes from the front and sums on, and the second, done with its own,
 * takes from the back.  The second worker's walk keeps the stacks at the
 * start of each part too, and sums a part it takes against them, as a
 * part of its own, joined in order before its own.
 *
 * A streaming file is walked once before its records come, to find
 * where they lie between the packets (read/stream.c).  The walk shows
 * them here as it passes (build_on_walked), and the stacks at the split
 * points are scanned then, while the records are in the cache.  The
 * first worker has not waited for the walk: a second walk of the
 * reader's showed it the records from the first on (struct sums_ahead),
 * and it summed them on its own threads, numbering methods as the
 * builder will; the split checks that when the records come and joins
 * its threads first.
 *
 * The last of the builder's files, this one puts the builder together:
 * calltree_builder_new gives the core the hooks (struct build_hooks)
 * through which the core, builder-records.c and builder-sums.c call
 * what comes after them, since none of them calls a later file by name.
 */
#include "config.h"

#include "model/builder.h"

#include "util/alloc.h"
#include "util/jobs.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
	SPLIT_MIN = 1 << 20, /* fewest records worth a second worker */
	/* The first worker's records, the middle's end, in sixteenths: with
	 * cores of one speed, the first reaches the middle as the second,
	 * which walked the records before it, is done with its own. */
	SPLIT_FIRST = 8,
	SPLIT_MIDDLE_END = 11,
	/* The same when the stacks came with the records: both start at
	 * once. */
	SPLIT_WALKED_FIRST = 6,
	SPLIT_WALKED_END = 10,
	/* The same when the first began ahead, as the walk did: the second
	 * starts once the walk is done. */
	SPLIT_AHEAD_FIRST = 8,
	SPLIT_AHEAD_END = 12,
	MIDDLE_PARTS = 4,        /* parts of the middle, taken one by one */
	MIDDLE_PARTS_TESTED = 2, /* of a middle split_middle sets */
};

/* What came of summing a run on two workers. */
enum split_outcome {
	SPLIT_NONE,    /* too few records or cpus: not tried */
	SPLIT_SUMMED,  /* summed */
	SPLIT_DROPPED, /* the halves did not meet: sum in one pass */
	SPLIT_FAILED,  /* the first half cannot be summed: one pass could
	                  not either */
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

/* Where the middle stretch [from, to) is cut: parts starting at
 * starts[0] = from, ... */
struct middle_cuts {
	size_t from, to;
	size_t starts[MIDDLE_PARTS];
	unsigned parts;
};

/* The stacks at the split points, scanned from the records a streaming
 * walk passed before the records came (build_on_walked). */
struct walk_scans {
	struct middle_cuts cuts;
	size_t next;     /* the record the walk passes next */
	unsigned passed; /* parts whose start it passed */
	bool broken;     /* records were skipped: of no use */
	bool dual;       /* read with two clocks */
	struct prefix_scans at_part[MIDDLE_PARTS], at_to;
};

struct split_side {
	struct prefix_scans scans; /* each thread's, at the side's start */
	/* The second worker's threads, in the order first met. */
	struct util_map ids; /* tid -> index */
	uint32_t *tids;
	struct thread_state **states;
	struct tt_thread *threads;
	size_t count, cap;
};

/* A part of the middle, as the second worker sums it when it takes it;
 * the worker, last, is made then. */
struct middle_part {
	size_t from, to;
	struct split_side side;
	struct tt_anomalies an;
	bool taken; /* by the second worker: w is made */
	struct build_worker w;
};

/* What both workers see. */
struct split_shared {
	struct middle_cuts cuts;
	struct middle_part *parts;
	/* The parts taken: the first worker's from the front (the low
	 * byte: the next it takes), the second's from the back (the next
	 * byte: past the next it takes); the first takes none from
	 * first_most on, the second none below second_least (tests). */
	atomic_uint taken;
	unsigned first_most, second_least;
	atomic_size_t second_done;       /* records the second has summed */
	const atomic_size_t *ahead_done; /* the first's, when it sums
	                                    ahead of the report: the second
	                                    reports progress */
	bool scanned;                    /* the stacks came with the records
	                                    (build_on_walked): no walk */
};

struct split_job {
	struct calltree_builder *b;
	const struct trace_records *run;
	struct split_shared *shared;
	struct build_worker w;
	struct tt_anomalies an;
	struct split_side *side; /* the second worker's, else NULL */
};

/*
 * The first worker, summing a streaming file's records ahead of the
 * reader's report, on the reader's thread ahead (the sink's ahead_*
 * callbacks): from record 0, on threads of its own as the second
 * worker's are, numbering methods as the builder will once the summary
 * and the packets are reported, and reading what the model will say of
 * the clocks from the summary found first.  The split that comes with
 * the records checks all that and joins its threads first.
 */
struct sums_ahead {
	struct split_shared sh; /* the split, shared with the second */
	struct split_side side; /* its threads */
	struct build_worker w;
	struct tt_anomalies an;
	struct util_map ids; /* method id -> index */
	uint64_t *order;     /* the ids by index */
	size_t order_cap;
	bool has_clock[CLOCK_COUNT];
	struct trace_header header;
	enum trace_clock clock;
	unsigned size;
	size_t next;          /* the record it sums next */
	size_t end;           /* where its records end, as it takes parts */
	atomic_size_t summed; /* records summed, for progress */
	atomic_bool stop;     /* it is of no use: stop */
	atomic_bool done;     /* it touches nothing more */
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
		if (w->has_clock[k])
			st->clocks[k].raw_prev = sc->raw[k];
	for (i = 0; i < sc->depth; i++)
		if (!build_sum_enter(w, st, th, sc->ids[i], zero))
			return false;
	if (st->sums) {
		st->sums->seeded = st->sums->prefix = (uint32_t)sc->depth;
		if (st->sums->frames)
			frame_watch_seeded(st->sums->frames);
		if (st->sums->triage && !triage_watch_seeded(st->sums->triage))
			return false;
	}
	return true;
}

/* The state and record of thread id tid in the second worker of a split
 * (made on its first record, with what came before the split); false
 * when that thread cannot be summed there.  (The hook split_thread, for
 * model/builder-sums.c.) */
static bool
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
	const atomic_size_t *ahead = job->shared->ahead_done;
	size_t stretch, end, done;

	for (stretch = from; stretch < to && !w->failed; stretch = end) {
		end = to - stretch > STRETCH ? stretch + STRETCH : to;
		build_sum_records(w, run, stretch, end);
		build_release_records(run, stretch, end);
		if (job->side)
			atomic_fetch_add_explicit(second, end - stretch,
			                          memory_order_relaxed);
		/* The first reports, or the second when the first is ahead. */
		if (!b->progress || (job->side && !ahead))
			continue;
		done = atomic_load_explicit(second, memory_order_relaxed) +
		       (job->side ? atomic_load_explicit(ahead,
		                                         memory_order_relaxed)
		                  : end);
		b->progress(b->progress_arg,
		            run->offset + (uint64_t)done * run->size,
		            run->total);
	}
	return !w->failed;
}

/* The next part of the middle from the front (the first worker) or
 * the back (the second); -1 when none is left. */
static int
take_part(struct split_shared *sh, bool from_back)
{
	unsigned now = atomic_load(&sh->taken), front, back, next;

	do {
		front = now & 0xFF;
		back = now >> 8;
		if (front >= back || (from_back ? back <= sh->second_least
		                                : front >= sh->first_most))
			return -1;
		next = from_back ? front | (back - 1) << 8
		                 : (front + 1) | back << 8;
	} while (!atomic_compare_exchange_weak(&sh->taken, &now, next));
	return (int)(from_back ? back - 1 : front);
}

/* The second worker's walk up to the middle's end, keeping the stacks at
 * the start of each part. */
static void
scan_to_middle(struct split_job *job)
{
	struct split_shared *sh = job->shared;
	struct prefix_scans *at = &job->side->scans;
	size_t pos = 0;
	unsigned j;

	for (j = 0; j < sh->cuts.parts; j++) {
		scan_records(&job->w, at, job->run, pos, sh->parts[j].from);
		pos = sh->parts[j].from;
		copy_scans(&sh->parts[j].side.scans, at);
	}
	scan_records(&job->w, at, job->run, pos, sh->cuts.to);
}

static void *
split_main(void *arg)
{
	struct split_job *job = arg;
	struct split_shared *sh = job->shared;
	struct middle_part *part;
	bool ok;
	int j;

	if (job->side) {
		if (!sh->scanned)
			scan_to_middle(job);
		if (!sum_stretches(job, &job->w, sh->cuts.to, job->run->count))
			return NULL;
		while ((j = take_part(sh, true)) >= 0) {
			part = &sh->parts[j];
			/* Shared, so that undefined methods fail it. */
			build_worker_init(&part->w, job->b, &part->an, true);
			part->w.side = &part->side;
			part->taken = true;
			/* One after another: the window goes along. */
			part->w.window = job->w.window;
			job->w.window = NULL;
			ok = sum_stretches(job, &part->w, part->from, part->to);
			job->w.window = part->w.window;
			part->w.window = NULL;
			if (!ok)
				break;
		}
	} else if (sum_stretches(job, &job->w, 0, sh->cuts.from)) {
		while ((j = take_part(sh, false)) >= 0) {
			part = &sh->parts[j];
			if (!sum_stretches(job, &job->w, part->from, part->to))
				break;
		}
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

/* The middle [from, to) cut in at most `most` parts, none empty. */
static void
cut_middle(struct middle_cuts *c, size_t from, size_t to, unsigned most)
{
	unsigned i;

	c->from = from;
	c->to = to;
	c->parts = to - from < most ? (unsigned)(to - from) : most;
	for (i = 0; i < c->parts; i++)
		c->starts[i] = from + (to - from) / c->parts * i;
}

/* Where to split count records, the middle from sixteenths first to end
 * (unless tests set the point): into c; false for not at all. */
static bool
split_points(const struct calltree_builder *b, size_t count, unsigned first,
             unsigned end, struct middle_cuts *c)
{
	if (b->split_at) {
		if (b->split_at >= count)
			return false;
		if (b->split_middle && b->split_middle < b->split_at)
			cut_middle(c, b->split_middle, b->split_at,
			           MIDDLE_PARTS_TESTED);
		else
			cut_middle(c, b->split_at, b->split_at, 0);
		return true;
	}
	if (count < SPLIT_MIN || b->max_workers == 1 || util_jobs_count(2) < 2)
		return false;
	cut_middle(c, count / 16 * first, count / 16 * end, MIDDLE_PARTS);
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

/* The sink's walked callback: scan the records a streaming reader walks
 * for the stacks at the split points build_sum_split will choose. */
static void
build_on_walked(void *ctx, const struct trace_records *r, size_t first)
{
	struct calltree_builder *b = ctx;
	struct walk_scans *ws = b->walked;
	struct trace_records v = *r;
	size_t i = first, end = first + r->count;

	if (!ws) {
		struct middle_cuts cuts;

		/* Split points for as many records as the file holds, those
		 * of the worker summing ahead when there is one. */
		if (b->ahead)
			cuts = b->ahead->sh.cuts;
		else if (first || !b->sums_only || !r->size ||
		         !split_points(b, r->total / r->size,
		                       SPLIT_WALKED_FIRST, SPLIT_WALKED_END,
		                       &cuts))
			return;
		ws = b->walked = xcalloc(1, sizeof(*ws));
		ws->cuts = cuts;
		ws->dual = r->clock == TRACE_CLOCK_DUAL;
	}
	if (ws->broken || ws->next >= ws->cuts.to)
		return;
	if (first != ws->next) {
		ws->broken = true;
		return;
	}
	ws->next = end;
	v.data = r->data - first * r->size; /* read by index from 0 */
	while (i < end && i < ws->cuts.to) {
		size_t stop = end < ws->cuts.to ? end : ws->cuts.to;

		if (ws->passed < ws->cuts.parts &&
		    ws->cuts.starts[ws->passed] < stop)
			stop = ws->cuts.starts[ws->passed];
		scan_walked(&ws->at_to, &v, i, stop, ws->dual);
		i = stop;
		if (ws->passed < ws->cuts.parts &&
		    i == ws->cuts.starts[ws->passed])
			copy_scans(&ws->at_part[ws->passed++], &ws->at_to);
	}
}

/* Free what build_on_walked kept and no split took. */
static void
build_walked_free(struct calltree_builder *b)
{
	unsigned j;

	if (!b->walked)
		return;
	for (j = 0; j < MIDDLE_PARTS; j++)
		scans_free(&b->walked->at_part[j]);
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

/* The walk's cuts for run, when it passed them all; false else. */
static bool
walked_cuts(const struct calltree_builder *b, const struct trace_records *run,
            struct middle_cuts *c)
{
	const struct walk_scans *ws = b->walked;

	if (!ws || ws->broken || ws->next < ws->cuts.to ||
	    ws->cuts.to >= run->count ||
	    (run->clock == TRACE_CLOCK_DUAL && !ws->dual))
		return false;
	*c = ws->cuts;
	return true;
}

/* Move the walk's stacks into the second worker's side and the parts'
 * (empty, cut as walked_cuts says). */
static void
take_walked(struct calltree_builder *b, enum trace_clock clock,
            struct split_side *side, struct middle_part *parts)
{
	struct walk_scans *ws = b->walked;
	unsigned j;

	name_clocks(&ws->at_to, clock);
	side->scans = ws->at_to;
	for (j = 0; j < ws->cuts.parts; j++) {
		name_clocks(&ws->at_part[j], clock);
		parts[j].side.scans = ws->at_part[j];
		ws->at_part[j] = (struct prefix_scans){0};
	}
	ws->at_to = (struct prefix_scans){0};
	build_walked_free(b);
}

/* The threads the second worker summed in the parts it took, then after
 * the middle, joined in order into the builder's; false when they do not
 * meet. */
static bool
join_sides(struct calltree_builder *b, const struct split_shared *sh,
           struct split_side *side)
{
	unsigned j;

	for (j = 0; j < sh->cuts.parts; j++)
		if (sh->parts[j].taken && (sh->parts[j].w.failed ||
		                           !join_side(b, &sh->parts[j].side)))
			return false;
	return join_side(b, side);
}

/* sh's parts for its cuts, with what tests ask of who takes them. */
static void
shared_init(const struct calltree_builder *b, struct split_shared *sh)
{
	unsigned j;

	sh->first_most = sh->cuts.parts;
	if (b->split_at) /* tests: as many as split_middle_first says */
		sh->first_most = sh->second_least =
		        b->split_middle_first < sh->cuts.parts
		                ? b->split_middle_first
		                : sh->cuts.parts;
	/* Calloc'd: the pages of a part's worker are touched when taken. */
	sh->parts = xcalloc(sh->cuts.parts ? sh->cuts.parts : 1,
	                    sizeof(*sh->parts));
	for (j = 0; j < sh->cuts.parts; j++) {
		sh->parts[j].from = sh->cuts.starts[j];
		sh->parts[j].to = j + 1 < sh->cuts.parts
		                          ? sh->cuts.starts[j + 1]
		                          : sh->cuts.to;
	}
	atomic_init(&sh->taken, sh->cuts.parts << 8);
	atomic_init(&sh->second_done, 0);
}

static void
shared_free(struct split_shared *sh)
{
	unsigned j;

	for (j = 0; sh->parts && j < sh->cuts.parts; j++) {
		side_free(&sh->parts[j].side);
		if (sh->parts[j].taken)
			build_worker_done(&sh->parts[j].w);
	}
	free(sh->parts);
	sh->parts = NULL;
}

/* Method id, defined by the summary or a packet, numbered by a as the
 * builder numbers it: the next index when new. */
static void
ahead_number(struct sums_ahead *a, uint64_t id)
{
	uint32_t *slot = util_map_slot(&a->ids, id, CALL_NONE);

	if (*slot != CALL_NONE)
		return;
	*slot = a->w.known;
	UTIL_GROW(a->order, a->order_cap, (size_t)a->w.known + 1);
	a->order[a->w.known++] = id;
}

/* The sink's ahead callbacks (read/sink.h): a streaming file's records
 * summed from the first on, on the reader's thread ahead, as the first
 * worker of the split build_sum_split makes when they come. */
static bool
build_on_ahead_begin(void *ctx, const struct trace_ahead_info *info)
{
	struct calltree_builder *b = ctx;
	struct sums_ahead *a;
	struct middle_cuts cuts;
	int k;

	/* Frames need the methods' names, which come after: not ahead. */
	if (b->ahead || b->began || !b->sums_only || b->frame_methods ||
	    b->triage || !info->size ||
	    !split_points(b, info->total / info->size, SPLIT_AHEAD_FIRST,
	                  SPLIT_AHEAD_END, &cuts))
		return false;
	a = xcalloc(1, sizeof(*a));
	a->sh.cuts = cuts;
	shared_init(b, &a->sh);
	/* Shared, so that undefined methods fail it. */
	build_worker_init(&a->w, b, &a->an, true);
	a->w.side = &a->side;
	util_map_init(&a->ids);
	a->w.method_ids = &a->ids;
	a->w.known = 0;
	for (k = 0; k < CLOCK_COUNT; k++)
		a->has_clock[k] = clock_has(info->clock, k);
	a->w.has_clock = a->has_clock;
	a->header.time_bits = 32;
	a->w.header = &a->header;
	a->clock = info->clock;
	a->size = info->size;
	a->end = cuts.from;
	atomic_init(&a->summed, 0);
	atomic_init(&a->stop, false);
	atomic_init(&a->done, false);
	b->ahead = a;
	return true;
}

static void
build_on_ahead_method(void *ctx, uint64_t id)
{
	struct calltree_builder *b = ctx;

	ahead_number(b->ahead, id);
}

static bool
build_on_ahead_records(void *ctx, const struct trace_records *r, size_t first)
{
	struct calltree_builder *b = ctx;
	struct sums_ahead *a = b->ahead;
	struct trace_records v = *r;
	size_t i = first, to = first + r->count;

	if (atomic_load_explicit(&a->stop, memory_order_relaxed) ||
	    first != a->next || r->size != a->size)
		return false;
	v.data = r->data - first * r->size; /* read by index from 0 */
	v.count = to;
	while (i < to) {
		size_t stop;

		if (i == a->end) {
			/* Its own are done: the next part from the front. */
			int j = take_part(&a->sh, false);

			if (j < 0)
				return false;
			a->end = a->sh.parts[j].to;
		}
		stop = to < a->end ? to : a->end;
		build_sum_records(&a->w, &v, i, stop);
		if (a->w.failed)
			return false;
		a->next = i = stop;
		atomic_store_explicit(&a->summed, i, memory_order_relaxed);
	}
	return true;
}

static void
build_on_ahead_end(void *ctx)
{
	struct calltree_builder *b = ctx;

	atomic_store_explicit(&b->ahead->done, true, memory_order_release);
}

/* Wait until the reader's thread is done with a. */
static void
ahead_wait(struct sums_ahead *a)
{
	const struct timespec pause = {0, 20000};

	while (!atomic_load_explicit(&a->done, memory_order_acquire))
		nanosleep(&pause, NULL);
}

/* Stop and free what summed ahead and no split took. */
static void
build_ahead_free(struct calltree_builder *b)
{
	struct sums_ahead *a = b->ahead;

	if (!a)
		return;
	atomic_store(&a->stop, true);
	ahead_wait(a);
	side_free(&a->side);
	shared_free(&a->sh);
	build_worker_done(&a->w);
	util_map_done(&a->ids);
	free(a->order);
	free(a);
	b->ahead = NULL;
}

/* Whether what b->ahead assumed of run and the model holds: the clocks
 * and the record size.  (The walk scanned at its split points.) */
static bool
ahead_fits(const struct calltree_builder *b, const struct trace_records *run)
{
	const struct sums_ahead *a = b->ahead;
	int k;

	for (k = 0; k < CLOCK_COUNT; k++)
		if (b->tree->has_clock[k] != a->has_clock[k])
			return false;
	return run->clock == a->clock && run->size == a->size &&
	       b->tree->header.time_bits == a->header.time_bits;
}

/* Join what b->ahead summed, once done, first: false when it failed,
 * did not sum all it took, or numbered a method as the model did not. */
static bool
ahead_joins(struct calltree_builder *b)
{
	struct sums_ahead *a = b->ahead;
	uint32_t i, index;

	if (a->w.failed || a->next != a->end)
		return false;
	for (i = 0; i < a->w.known; i++)
		if (!util_map_get(&b->method_ids, a->order[i], &index) ||
		    index != i)
			return false;
	return join_side(b, &a->side);
}

/*
 * Sum all records of run on two workers, the second taking the records
 * from b->split_at (or a point chosen by size and cpus when 0) against
 * the stacks a quick walk finds there, and a middle stretch before it
 * cut in parts that each worker done with its own takes from its end
 * (with split_at, the middle is [split_middle, split_at) when
 * split_middle is set, of whose parts the first worker takes
 * split_middle_first and the second the rest).  Unless
 * summed, the threads' states are left for build_reset_calls.
 */
static enum split_outcome
build_sum_split(struct calltree_builder *b, const struct trace_records *run)
{
	struct calltree *tree = b->tree;
	struct split_job jobs[2];
	struct split_shared own = {0}, *sh = &own;
	struct split_side side = {0};
	struct middle_cuts walked;
	struct sums_ahead *a;
	size_t t, summing;
	enum split_outcome out;
	unsigned j, taken;
	bool scanned = walked_cuts(b, run, &walked);

	if (b->ahead && !(scanned && ahead_fits(b, run)))
		build_ahead_free(b);
	a = b->ahead;
	if (a) {
		sh = &a->sh;
		sh->ahead_done = &a->summed;
	} else {
		if (scanned)
			sh->cuts = walked;
		else if (!split_points(b, run->count, SPLIT_FIRST,
		                       SPLIT_MIDDLE_END, &sh->cuts))
			return SPLIT_NONE;
		shared_init(b, sh);
	}
	sh->scanned = scanned;
	if (scanned)
		take_walked(b, run->clock, &side, sh->parts);
	for (j = 0; j < 2; j++) {
		jobs[j].b = b;
		jobs[j].run = run;
		jobs[j].shared = sh;
		jobs[j].side = j ? &side : NULL;
		/* Shared, so that undefined methods fail them. */
		build_worker_init(&jobs[j].w, b, &jobs[j].an, true);
		jobs[j].w.side = jobs[j].side;
	}
	if (a) {
		/* The first has been at it since the walk began. */
		split_main(&jobs[1]);
		ahead_wait(a);
	} else {
		util_jobs_run(split_main, jobs, sizeof(jobs[0]), 2);
	}
	taken = atomic_load(&sh->taken);
	summing =
	        jobs[0].w.summing + jobs[1].w.summing + (a ? a->w.summing : 0);
	for (j = 0; j < sh->cuts.parts; j++)
		if (sh->parts[j].taken)
			summing += sh->parts[j].w.summing;
	if (jobs[0].w.failed)
		out = SPLIT_FAILED; /* one pass would fail there too */
	else if ((a && !ahead_joins(b)) || jobs[1].w.failed ||
	         (taken & 0xFF) < taken >> 8 ||
	         summing > SETTLE_OPEN / (tree->nmethods + 1) ||
	         !join_sides(b, sh, &side))
		out = SPLIT_DROPPED;
	else
		out = SPLIT_SUMMED;
	if (out == SPLIT_SUMMED) {
		tree->sums = xcalloc(tree->nthreads + 1, sizeof(*tree->sums));
		tree->frames_summed = b->frame_flags != NULL;
		tree->triage_summed = b->triage_spec != NULL;
		build_add_anomalies(&tree->anomalies, &jobs[0].an);
		build_add_anomalies(&tree->anomalies, &jobs[1].an);
		if (a)
			build_add_anomalies(&tree->anomalies, &a->an);
		for (j = 0; j < sh->cuts.parts; j++)
			if (sh->parts[j].taken)
				build_add_anomalies(&tree->anomalies,
				                    &sh->parts[j].an);
		for (t = 0; t < tree->nthreads; t++)
			build_sum_finish(b, t, &tree->anomalies);
		tree->records += run->count;
		b->summed = b->summed_split = true;
		b->summed_walked = sh->scanned;
		b->summed_ahead = a != NULL;
	}
	side_free(&side);
	if (a)
		build_ahead_free(b);
	else
		shared_free(sh);
	for (j = 0; j < 2; j++)
		build_worker_done(&jobs[j].w);
	return out;
}

/* Sum run, on two workers when worth it; false, with the threads'
 * states reset, when it cannot be summed.  (The hook sum_run, for
 * model/builder-records.c.) */
static bool
sum_run(struct calltree_builder *b, const struct trace_records *run)
{
	switch (build_sum_split(b, run)) {
	case SPLIT_SUMMED:
		return true;
	case SPLIT_DROPPED:
		build_reset_calls(b);
		/* fall through */
	case SPLIT_NONE:
		if (build_sum_all(b, run))
			return true;
		break;
	case SPLIT_FAILED:
		break;
	}
	build_reset_calls(b);
	return false;
}

/* Free what the walk kept, and stop and free what summed ahead, when no
 * split took them.  (The hook split_free, for the core.) */
static void
split_free(struct calltree_builder *b)
{
	build_walked_free(b);
	build_ahead_free(b);
}

/* The calls up the builder's files (model/builder.h). */
static const struct build_hooks hooks = {
        .records = build_on_records,
        .walked = build_on_walked,
        .ahead_begin = build_on_ahead_begin,
        .ahead_method = build_on_ahead_method,
        .ahead_records = build_on_ahead_records,
        .ahead_end = build_on_ahead_end,
        .sum_run = sum_run,
        .split_thread = build_split_thread,
        .split_free = split_free,
        .sum_event = build_sum_event,
        .sum_events_end = build_sum_events_end,
};

struct calltree_builder *
calltree_builder_new(const char *path)
{
	return build_new(path, &hooks);
}
