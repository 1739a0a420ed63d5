/*
 * builder-records: a V1 data part's records, taken all at once.
 *
 * A first pass counts, per thread id, the events, the entries and the
 * exits that meet an empty stack (orphans, FORMAT.md 9.2 step 3), and
 * notes the runs of consecutive records of one thread id.  The model's
 * arrays are then sized, each thread gets its slice of them (placed
 * threads, model/builder.h), and the threads are shared out among
 * workers, one per cpu, that each walk the runs (or, when they are too
 * short to be worth noting, every record) and rebuild the calls of their
 * own threads straight into the model.  Both passes give the file's
 * pages back as they go.
 *
 * Methods the key does not define get their indexes once every record
 * is read, in the order the event-by-event path would add them.  What
 * the counts cannot foresee (an exit that skips open frames and then
 * meets an empty stack) fails the placed build: the records then go
 * through the event-by-event path, which gives the same model.
 *
 * A builder asked for sums only has the records summed instead, by the
 * files after this one (model/builder-sums.c, builder-split.c), called
 * through the hook sum_run; this file uses only the core.
 */
#include "config.h"

#include "model/builder.h"

#include "read/bytes.h"
#include "util/alloc.h"
#include "util/jobs.h"
#include "util/prefault.h"
#include "util/sort.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
	MAX_WORKERS = UTIL_JOBS_MAX,
	MIN_RUN = 16, /* fewest records a thread's run has, on average, for
	                 the runs to be kept */
};

/* What the first pass learns of one thread id. */
struct tid_count {
	uint32_t tid;
	uint64_t events;
	uint64_t first;   /* index of its first record */
	uint64_t enters;  /* entries: the calls they open */
	uint64_t orphans; /* exits that met an empty stack */
	uint64_t open;    /* entries not matched by an exit yet */
};

/* The counts of the thread ids met, in the order first met. */
struct tid_table {
	uint32_t
	        *slot; /* by thread id: 1 + its index in counts, 0 if not met */
	struct tid_count *counts;
	size_t count, cap;
};

/* A stretch of consecutive records of one thread id. */
struct tid_run {
	uint32_t tid;
	uint32_t count;
};

/* The runs of a counting job's share of the records, in order; dropped
 * when there are too many to be worth keeping. */
struct run_list {
	struct tid_run *runs;
	size_t count, cap;
	bool dropped;
};

/* One worker of either pass. */
struct records_job {
	struct calltree_builder *b;
	const struct trace_records *run;
	size_t from, to;              /* counting: its share of the records */
	struct tid_table counts;      /* counting: those of its share */
	struct run_list runs;         /* counting: the runs of its share */
	const struct run_list *lists; /* building: every run, or NULL */
	unsigned nlists;
	const uint32_t *tid_index;
	const uint8_t *owner;
	uint8_t who;
	const uint32_t *remap; /* final indexes of its unknown methods */
	struct build_worker worker;
	struct tt_anomalies anomalies;
	atomic_size_t done; /* records read so far */
	struct records_job *all;
	unsigned njobs;
	bool ok;
};

void
build_release_records(const struct trace_records *run, size_t from, size_t to)
{
	size_t stop;
	struct trace_records first, last;

	if (!run->mapped || from >= to)
		return;
	/* One span from the first record to the last: the packets between
	 * pieces were read before the records were handed over, and a
	 * release by piece would keep the pages their edges share. */
	first = trace_records_at(run, from, &stop);
	last = trace_records_at(run, to - 1, &stop);
	trace_release_mapped(first.data + from * run->size,
	                     last.data + to * run->size);
}

/* The counts of thread id tid, zero when first met. */
static struct tid_count *
tid_count_of(struct tid_table *t, uint32_t tid)
{
	if (!t->slot)
		t->slot = xcalloc(TID_DIRECT, sizeof(*t->slot));
	if (!t->slot[tid]) {
		UTIL_GROW(t->counts, t->cap, t->count + 1);
		t->counts[t->count] = (struct tid_count){.tid = tid};
		t->slot[tid] = (uint32_t)++t->count;
	}
	return &t->counts[t->slot[tid] - 1];
}

static void
tid_table_free(struct tid_table *t)
{
	free(t->slot);
	free(t->counts);
	memset(t, 0, sizeof(*t));
}

/* Append count records of thread id tid to the runs. */
static void
add_run(struct run_list *l, uint32_t tid, size_t count)
{
	if (l->count && l->runs[l->count - 1].tid == tid &&
	    l->runs[l->count - 1].count <= UINT32_MAX - count) {
		l->runs[l->count - 1].count += (uint32_t)count;
		return;
	}
	while (count) {
		uint32_t n = count > UINT32_MAX ? UINT32_MAX : (uint32_t)count;

		UTIL_GROW(l->runs, l->cap, l->count + 1);
		l->runs[l->count++] = (struct tid_run){tid, n};
		count -= n;
	}
}

static void
free_run_lists(struct run_list *lists, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		free(lists[i].runs);
}

/* Count records [from, to) of run, read as the given version, and note
 * their runs.  Within a run the counts stay in registers. */
static inline __attribute__((always_inline)) void
count_stretch(const struct trace_records *run, size_t from, size_t to,
              struct tid_table *counts, struct run_list *runs, unsigned version)
{
	struct trace_records r = *run;
	struct trace_event ev;
	size_t i = from;

	r.version = version;
	r.clock = TRACE_CLOCK_CPU; /* times are not read */
	if (i < to)
		trace_records_get(&r, i, &ev);
	while (i < to) {
		uint32_t tid = ev.tid;
		struct tid_count *c = tid_count_of(counts, tid);
		int64_t depth = 0, lowest = 0; /* entries less exits so far */
		uint64_t n, orphans;
		size_t start = i;

		if (!c->events)
			c->first = i;
		do {
			depth += ev.action == TRACE_ENTER ? 1 : -1;
			lowest = depth < lowest ? depth : lowest;
			if (++i < to)
				trace_records_get(&r, i, &ev);
		} while (i < to && ev.tid == tid);
		/* An exit meets an empty stack each time the depth falls
		 * below every depth before it and below the frames open
		 * before the run. */
		n = i - start;
		orphans = (uint64_t)-lowest > c->open
		                  ? (uint64_t)-lowest - c->open
		                  : 0;
		c->events += n;
		c->enters += (n + (uint64_t)depth) / 2;
		c->orphans += orphans;
		c->open += (uint64_t)depth + orphans;
		if (!runs->dropped)
			add_run(runs, tid, n);
	}
}

static void *
count_job(void *arg)
{
	struct records_job *job = arg;
	const struct trace_records *run = job->run;
	struct run_list *runs = &job->runs;
	size_t stretch;

	for (stretch = job->from; stretch < job->to; stretch += STRETCH) {
		size_t end = job->to - stretch > STRETCH ? stretch + STRETCH
		                                         : job->to;

		size_t from, stop;

		for (from = stretch; from < end; from = stop) {
			struct trace_records piece =
			        trace_records_at(run, from, &stop);

			if (stop > end)
				stop = end;
			if (run->version < 2)
				count_stretch(&piece, from, stop, &job->counts,
				              runs, 1);
			else
				count_stretch(&piece, from, stop, &job->counts,
				              runs, 2);
		}
		build_release_records(run, stretch, end);
		if (!runs->dropped &&
		    runs->count > (end - job->from) / MIN_RUN) {
			free(runs->runs);
			*runs = (struct run_list){.dropped = true};
		}
	}
	return NULL;
}

/* Add the counts of a later stretch of records to those before it. */
static void
add_counts(struct tid_table *to, const struct tid_table *later)
{
	size_t i;

	for (i = 0; i < later->count; i++) {
		const struct tid_count *l = &later->counts[i];
		struct tid_count *c = tid_count_of(to, l->tid);
		uint64_t matched = l->orphans < c->open ? l->orphans : c->open;

		if (!c->events)
			c->first = l->first;
		c->events += l->events;
		c->enters += l->enters;
		c->orphans += l->orphans - matched;
		c->open += l->open - matched;
	}
}

/* Below this many records a worker's thread costs more than its share
 * of the work. */
enum { RECORDS_PER_WORKER = 65536 };

/* How many workers to run: as many as asked, else one per cpu (one for a
 * run of few records). */
static unsigned
worker_count(const struct calltree_builder *b, size_t records)
{
	if (!b->max_workers)
		return util_jobs_count(
		        records < RECORDS_PER_WORKER ? 1 : MAX_WORKERS);
	return b->max_workers < MAX_WORKERS ? b->max_workers : MAX_WORKERS;
}

/* Per thread id, what every record says, counted by n jobs, into
 * jobs[0].counts; their runs in lists[0, *nlists), none when too many. */
static void
count_records(struct calltree_builder *b, const struct trace_records *run,
              struct records_job *jobs, unsigned n, struct run_list *lists,
              unsigned *nlists)
{
	bool dropped = false;
	unsigned i;

	for (i = 0; i < n; i++) {
		jobs[i].b = b;
		jobs[i].run = run;
		jobs[i].from = run->count / n * i;
		jobs[i].to = i + 1 < n ? run->count / n * (i + 1) : run->count;
	}
	util_jobs_run(count_job, jobs, sizeof(*jobs), n);
	for (i = 1; i < n; i++) {
		add_counts(&jobs[0].counts, &jobs[i].counts);
		tid_table_free(&jobs[i].counts);
	}
	for (i = 0; i < n; i++) {
		lists[i] = jobs[i].runs;
		dropped = dropped || lists[i].dropped;
	}
	if (dropped)
		free_run_lists(lists, n);
	*nlists = dropped ? 0 : n;
}

/* A sort key and what it belongs to. */
struct keyed {
	uint64_t key;
	uint32_t index;
};

static int
keyed_cmp(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

/*
 * Threads for the ids in the order the event-by-event path meets them,
 * tid_index filled; per thread index, its counts summed into per_thread
 * (as long as the thread table).
 */
static void
resolve_threads(struct calltree_builder *b, const struct tid_table *counts,
                uint32_t *tid_index, struct tid_count **per_thread)
{
	struct keyed *seen = xmalloc((counts->count + 1) * sizeof(*seen));
	size_t n = counts->count, i;

	for (i = 0; i < n; i++)
		seen[i] = (struct keyed){counts->counts[i].first, (uint32_t)i};
	sort_items(seen, n, sizeof(*seen), keyed_cmp);
	for (i = 0; i < n; i++) {
		uint32_t tid = counts->counts[seen[i].index].tid;

		tid_index[tid] = build_thread_of(b, tid);
	}
	*per_thread = xcalloc(b->tree->nthreads + 1, sizeof(**per_thread));
	for (i = 0; i < n; i++) {
		const struct tid_count *c = &counts->counts[seen[i].index];
		struct tid_count *t = &(*per_thread)[tid_index[c->tid]];

		t->events += c->events;
		t->enters += c->enters;
		t->orphans += c->orphans;
	}
	free(seen);
}

/* Share the threads out among n workers by their events, largest first
 * to the least loaded; how many workers got any. */
static unsigned
share_threads(const struct tid_count *per_thread, size_t nthreads,
              uint8_t *owner, unsigned n)
{
	uint64_t load[MAX_WORKERS] = {0};
	struct keyed *order = xmalloc((nthreads + 1) * sizeof(*order));
	size_t i, busy = 0;
	unsigned w;

	for (i = 0; i < nthreads; i++)
		if (per_thread[i].events)
			order[busy++] = (struct keyed){
			        UINT64_MAX - per_thread[i].events, (uint32_t)i};
	sort_items(order, busy, sizeof(*order), keyed_cmp);
	if (busy < n)
		n = busy ? (unsigned)busy : 1;
	memset(owner, 0, nthreads);
	for (i = 0; i < busy; i++) {
		unsigned least = 0;

		for (w = 1; w < n; w++)
			if (load[w] < load[least])
				least = w;
		owner[order[i].index] = (uint8_t)least;
		load[least] += per_thread[order[i].index].events;
	}
	free(order);
	return n;
}

/* The fewest records every job has read. */
static size_t
slowest(const struct records_job *job)
{
	size_t least = SIZE_MAX;
	unsigned i;

	for (i = 0; i < job->njobs; i++) {
		size_t d = atomic_load_explicit(&job->all[i].done,
		                                memory_order_acquire);

		if (d < least)
			least = d;
	}
	return least;
}

/* Note that the job has read records [0, end).  The first job gives
 * back what every job has read, and reports progress on the calling
 * thread. */
static void
reached(struct records_job *job, size_t end, size_t *released)
{
	struct calltree_builder *b = job->b;
	const struct trace_records *run = job->run;

	atomic_store_explicit(&job->done, end, memory_order_release);
	if (job->who)
		return;
	end = slowest(job);
	build_release_records(run, *released, end);
	*released = end;
	if (b->progress)
		b->progress(b->progress_arg,
		            run->offset + (uint64_t)end * run->size,
		            run->total);
}

/* Note that the job has read every record.  The first job then goes on
 * giving pages back and reporting progress until every job has, since
 * its threads may be done long before the others' (the progress would
 * stop where it finished): until it has reported the end, which is so
 * the last report (a job done after a report and before the next look
 * left the report before it last). */
static void
reached_end(struct records_job *job, size_t *released)
{
	size_t count = job->run->count;

	reached(job, count, released);
	if (job->who)
		return;
	while (*released < count) {
		struct timespec ms = {0, 10000000};

		nanosleep(&ms, NULL);
		reached(job, count, released);
	}
}

/* Apply the runs of the job's threads, in order. */
static void
build_runs(struct records_job *job)
{
	size_t at = 0, mark = STRETCH, released = 0, l, r;

	for (l = 0; l < job->nlists; l++) {
		const struct run_list *list = &job->lists[l];

		for (r = 0; r < list->count && !job->worker.failed; r++) {
			const struct tid_run *run = &list->runs[r];
			uint32_t t = job->tid_index[run->tid];

			if (job->owner[t] == job->who)
				build_thread_records(&job->worker, job->run, at,
				                     at + run->count, t);
			at += run->count;
			if (at >= mark) {
				reached(job, at, &released);
				mark = at + STRETCH;
			}
		}
	}
	reached_end(job, &released);
}

/* Apply the records of the job's threads, picked out of all of them. */
static void
build_all(struct records_job *job)
{
	const struct trace_records *run = job->run;
	size_t stretch, released = 0;

	for (stretch = 0; stretch < run->count && !job->worker.failed;
	     stretch += STRETCH) {
		size_t end = run->count - stretch > STRETCH ? stretch + STRETCH
		                                            : run->count;

		build_records(&job->worker, run, stretch, end, job->tid_index,
		              job->owner, job->who);
		reached(job, end, &released);
	}
	reached_end(job, &released);
}

static void *
build_job(void *arg)
{
	struct records_job *job = arg;

	if (job->lists)
		build_runs(job);
	else
		build_all(job);
	return NULL;
}

/* Complete the job's threads, once every job has read every record. */
static void *
finish_job(void *arg)
{
	struct records_job *job = arg;
	struct calltree *tree = job->b->tree;
	size_t t, max_calls = 0;
	uint32_t *open, *path;

	for (t = 0; t < tree->nthreads; t++)
		if (job->owner[t] == job->who &&
		    tree->threads[t].ncalls > max_calls)
			max_calls = tree->threads[t].ncalls;
	open = xcalloc(tree->nmethods + 1, sizeof(*open));
	path = xmalloc((max_calls + 1) * sizeof(*path));
	job->ok = true;
	for (t = 0; t < tree->nthreads && job->ok; t++) {
		if (job->owner[t] != job->who)
			continue;
		job->ok = build_remap_methods(&job->worker, t, job->remap) &&
		          build_finish_placed(&job->worker, t, open, path);
	}
	free(open);
	free(path);
	return NULL;
}

/* Below this many calls in all, or in one thread, making the model's
 * pages present ahead of the jobs costs more than it saves. */
enum {
	PREFAULT_CALLS = 1 << 20,
	PREFAULT_THREAD_CALLS = 1 << 16,
};

/* The share of the records every job has read. */
static double
jobs_done(void *arg)
{
	const struct records_job *job = arg;

	return (double)slowest(job) / (double)job->run->count;
}

/* The model's arrays made present just ahead of the jobs writing them
 * (each thread's slice from its start, at the pace of the records;
 * not the builder's parents, which only threads with orphans write);
 * NULL for a small model. */
static struct util_prefault *
prefault_calls(const struct calltree_builder *b, struct records_job *jobs)
{
	const struct calltree *tree = b->tree;
	const struct tt_calls *c = &tree->calls;
	struct util_range *ranges;
	struct util_prefault *p;
	size_t n = 0, t;
	int k;

	if (c->count < PREFAULT_CALLS)
		return NULL;
	ranges = xreallocarray(NULL, tree->nthreads * (3 + 2 * CLOCK_COUNT) + 1,
	                       sizeof(*ranges));
	for (t = 0; t < tree->nthreads; t++) {
		const struct tt_thread *th = &tree->threads[t];

		if (th->ncalls < PREFAULT_THREAD_CALLS)
			continue;
#define SLICE(p)                                                               \
	do {                                                                   \
		if (p)                                                         \
			ranges[n++] = (struct util_range){                     \
			        (void *)((p) + th->first_call),                \
			        th->ncalls * sizeof(*(p))};                    \
	} while (0)
		SLICE(c->method);
		SLICE(c->method16);
		SLICE(c->depth);
		SLICE(c->flags);
		for (k = 0; k < CLOCK_COUNT; k++) {
			SLICE(c->start[k]);
			SLICE(c->duration[k]);
		}
#undef SLICE
	}
	p = util_prefault_start(ranges, n, jobs_done, jobs);
	free(ranges);
	return p;
}

/* Start n building jobs on run, for the threads owner shares out, over
 * the run lists (or every record); true when none failed. */
static bool
run_jobs(struct calltree_builder *b, const struct trace_records *run,
         struct records_job *jobs, unsigned n, const uint32_t *tid_index,
         const uint8_t *owner, const struct run_list *lists, unsigned nlists)
{
	struct util_prefault *prefault;
	bool ok = true;
	unsigned i;

	memset(jobs, 0, n * sizeof(*jobs));
	for (i = 0; i < n; i++) {
		jobs[i].b = b;
		jobs[i].run = run;
		jobs[i].tid_index = tid_index;
		jobs[i].owner = owner;
		jobs[i].who = (uint8_t)i;
		jobs[i].all = jobs;
		jobs[i].njobs = n;
		jobs[i].lists = nlists ? lists : NULL;
		jobs[i].nlists = nlists;
		atomic_init(&jobs[i].done, 0);
		build_worker_init(&jobs[i].worker, b, &jobs[i].anomalies,
		                  n > 1);
	}
	prefault = prefault_calls(b, jobs);
	util_jobs_run(build_job, jobs, sizeof(*jobs), n);
	util_prefault_finish(prefault);
	for (i = 0; i < n; i++)
		ok = ok && !jobs[i].worker.failed;
	return ok;
}

/* Build every thread in place from run; false when it could not be. */
static bool
build_placed(struct calltree_builder *b, const struct trace_records *run)
{
	struct calltree *tree = b->tree;
	struct records_job jobs[MAX_WORKERS];
	struct run_list lists[MAX_WORKERS];
	struct tid_count *per_thread;
	uint32_t *tid_index = xcalloc(TID_DIRECT, sizeof(*tid_index));
	unsigned n = worker_count(b, run->count), nlists, i;
	uint64_t total = 0;
	uint8_t *owner;
	size_t t;
	bool ok = true, settle, parents = false;

	/* Only the jobs used: each holds a worker's caches, tens of KB. */
	memset(jobs, 0, n * sizeof(*jobs));
	count_records(b, run, jobs, n, lists, &nlists);
	resolve_threads(b, &jobs[0].counts, tid_index, &per_thread);
	tid_table_free(&jobs[0].counts);
	for (t = 0; t < tree->nthreads; t++)
		total += per_thread[t].enters + per_thread[t].orphans;
	if (total >= CALL_NONE - 1) {
		free_run_lists(lists, nlists);
		free(per_thread);
		free(tid_index);
		return false;
	}
	/* Threads without orphans settle as they are built, if their
	 * counts of open frames per method stay small; the others need
	 * the parents, and a pass at the end. */
	settle = (uint64_t)tree->nthreads * (tree->nmethods + 1) <= SETTLE_OPEN;
	for (t = 0; t < tree->nthreads; t++)
		parents = parents || !settle || per_thread[t].orphans;
	/* Methods in 16 bits from the start, while they fit. */
	build_alloc_calls(b, (size_t)total, tree->nmethods <= UINT16_MAX,
	                  parents);
	b->placed = true;
	for (t = 0, total = 0; t < tree->nthreads; t++) {
		build_place_thread(b, t, (size_t)total,
		                   (size_t)per_thread[t].orphans,
		                   (size_t)per_thread[t].enters,
		                   settle && !per_thread[t].orphans);
		total += per_thread[t].enters + per_thread[t].orphans;
	}
	owner = xmalloc(tree->nthreads + 1);
	n = share_threads(per_thread, tree->nthreads, owner, n);
	free(per_thread);
	ok = run_jobs(b, run, jobs, n, tid_index, owner, lists, nlists);
	build_release_records(run, 0, run->count);
	free_run_lists(lists, nlists);
	if (ok) {
		struct build_worker *workers[MAX_WORKERS];
		uint32_t **remap;

		for (i = 0; i < n; i++)
			workers[i] = &jobs[i].worker;
		remap = build_settle_unknown(workers, n);
		for (i = 0; i < n; i++)
			jobs[i].remap = remap[i];
		util_jobs_run(finish_job, jobs, sizeof(*jobs), n);
		for (i = 0; i < n; i++) {
			ok = ok && jobs[i].ok;
			free(remap[i]);
		}
		free(remap);
	}
	for (i = 0; i < n; i++) {
		struct deep_list *deep = &jobs[i].worker.deep;

		if (ok && deep->count) {
			struct deep_list *all = &b->serial.deep;

			UTIL_GROW(all->calls, all->cap,
			          all->count + deep->count);
			memcpy(all->calls + all->count, deep->calls,
			       deep->count * sizeof(*deep->calls));
			all->count += deep->count;
		}
		if (ok)
			build_add_anomalies(&tree->anomalies,
			                    &jobs[i].anomalies);
		build_worker_done(&jobs[i].worker);
	}
	free(owner);
	free(tid_index);
	if (ok)
		tree->records += run->count;
	return ok;
}

/* The records one by one through the event-by-event path. */
static void
replay_records(struct calltree_builder *b, const struct trace_records *run)
{
	struct trace_event ev;
	size_t i, stretch;

	for (stretch = 0; stretch < run->count; stretch += STRETCH) {
		size_t end = run->count - stretch > STRETCH ? stretch + STRETCH
		                                            : run->count;

		size_t stop;

		for (i = stretch; i < end; i = stop) {
			struct trace_records piece =
			        trace_records_at(run, i, &stop);

			if (stop > end)
				stop = end;
			for (; i < stop; i++) {
				trace_records_get(&piece, i, &ev);
				b->tree->records++;
				build_event(&b->serial,
				            build_thread_of(b, ev.tid),
				            ev.method_id, ev.action, ev.cpu,
				            ev.wall);
			}
		}
		build_release_records(run, stretch, end);
		if (b->progress)
			b->progress(b->progress_arg,
			            run->offset + (uint64_t)end * run->size,
			            run->total);
	}
}

void
build_on_records(void *ctx, const struct trace_records *run)
{
	struct calltree_builder *b = ctx;

	if (!run->count)
		return;
	if (b->summed) {
		b->spoiled = true;
		return;
	}
	/* Placing needs a builder that has seen no event yet. */
	if (!b->ncalls && !b->placed && !b->tree->records) {
		if (b->sums_only && b->frame_methods && !b->frame_flags) {
			b->frame_flags =
			        b->frame_methods(b->tree, b->frame_arg);
			b->nframe_flags = b->tree->nmethods;
		}
		if (b->sums_only && b->triage && !b->triage_spec) {
			b->triage_spec = b->triage(b->tree, b->triage_arg);
			/* No spec: the model, in this read. */
			b->sums_only = b->triage_spec != NULL;
		}
		if (b->sums_only && b->hooks->sum_run(b, run))
			return;
		if (build_placed(b, run))
			return;
		build_reset_calls(b);
	}
	replay_records(b, run);
}
