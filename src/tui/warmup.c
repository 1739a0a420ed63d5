/*
 * warmup: one POSIX thread per warmup or job, joined before anything it
 * built is handed out, so the hand-over needs no lock; `done` (and a
 * job's `abandoned`) are the only values both threads touch while it
 * runs.  What the views wait for is the exception, handed out as soon
 * as its flag says so, under `lock`, and never touched again by the
 * thread: first the per-thread call paths and their merge (the icicle's
 * and the call tree's first tree, `paths_ready`; the thread inverts a
 * copy of the merge of its own), then the bottom-up roots
 * (`inverted_ready`), then the timeline index (`timeline_ready`), or,
 * when the timeline asks for it first, the timeline index on a thread of
 * its own beside the call paths, which the warmup's thread joins; then
 * the profile index (`profile_ready`) and last the timeline index of the
 * other clock (`other_ready`), which shares the first one's method lists
 * and depth blocks: that one is read while the thread builds from it, so
 * whoever takes it frees it only after warmup_free.
 */
#include "config.h"

#include "tui/warmup.h"

#include "model/scope.h"
#include "util/alloc.h"
#include "util/thread.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Calls below which a thread's own call paths are not kept once merged:
 * built again in microseconds when a change of scope wants them, they
 * would hold most of the memory of a recording of a million small
 * threads. */
enum { PATHS_KEPT_CALLS = 1024 };

struct warmup {
	const struct calltree *tree;
	enum clock_index clock;
	pthread_t thread;
	bool running; /* started and not joined */
	atomic_bool done;
	atomic_bool stop; /* warmup_stop: build nothing more */
	bool cut_short;   /* the thread's: it stopped before the end */
	pthread_mutex_t lock;
	pthread_cond_t ready;
	bool timeline_ready; /* under lock */
	/* Under lock: the timeline index is being built, on a thread of its
	 * own (timeline_thread) when asked for before the warmup came to it. */
	bool timeline_started, timeline_apart;
	pthread_t timeline_thread;
	bool paths_ready;    /* under lock: paths and merged */
	bool inverted_ready; /* under lock */
	bool profile_ready;  /* under lock */
	bool other_ready;    /* under lock */
	struct timeline *timeline;
	struct timeline *other; /* on the other clock, if the tree has it */
	/* The first index, which the other shares (its owner frees it only
	 * after warmup_free joins the thread). */
	const struct timeline *first;
	struct callpath *paths;       /* per thread */
	const struct callpath *given; /* per thread, when given */
	struct callpath *merged;
	struct callpath *inverted;
	struct profile_index *profile_index;
};

/* Set *flag under the lock and wake the waiters. */
static void
announce(struct warmup *w, bool *flag)
{
	pthread_mutex_lock(&w->lock);
	*flag = true;
	pthread_cond_broadcast(&w->ready);
	pthread_mutex_unlock(&w->lock);
}

/* Wait under the lock until *flag, when the thread runs. */
static void
await(struct warmup *w, const bool *flag)
{
	if (!w->running)
		return;
	pthread_mutex_lock(&w->lock);
	while (!*flag)
		pthread_cond_wait(&w->ready, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

/* The clock that is not k. */
static enum clock_index
other_clock(enum clock_index k)
{
	return k == CLOCK_WALL ? CLOCK_CPU : CLOCK_WALL;
}

/* The timeline index, handed out as soon as it is built. */
static void *
build_timeline(void *arg)
{
	struct warmup *w = arg;

	w->timeline = timeline_new(w->tree, w->clock);
	w->first = w->timeline;
	announce(w, &w->timeline_ready);
	return NULL;
}

/* Whether warmup_stop was called; the thread then stops. */
static bool
halted(struct warmup *w)
{
	if (!atomic_load(&w->stop))
		return false;
	w->cut_short = true;
	return true;
}

/* Stopped: what was not built never will be, and whoever waits for it
 * takes nothing (but a timeline index begun apart, which is joined). */
static void
give_up(struct warmup *w)
{
	bool apart;

	pthread_mutex_lock(&w->lock);
	apart = w->timeline_apart && !w->timeline_ready;
	if (!w->timeline_started)
		w->timeline_started = true;
	pthread_mutex_unlock(&w->lock);
	if (apart)
		pthread_join(w->timeline_thread, NULL);
	pthread_mutex_lock(&w->lock);
	w->paths_ready = w->inverted_ready = w->timeline_ready = true;
	w->profile_ready = w->other_ready = true;
	pthread_cond_broadcast(&w->ready);
	pthread_mutex_unlock(&w->lock);
	atomic_store(&w->done, true);
}

static void *
build(void *arg)
{
	struct warmup *w = arg;
	const struct calltree *tree = w->tree;
	enum clock_index k = calltree_default_clock(tree);
	bool mine, apart;

	if (halted(w)) {
		give_up(w);
		return NULL;
	}

	/* The call paths first: on every cpu they take a fraction of the
	 * timeline index's time, and the icicle and the call tree wait for
	 * them.  The timeline index comes next, unless the timeline asked
	 * for it first (warmup_take_timeline). */
	w->merged = xcalloc(1, sizeof(*w->merged));
	w->inverted = xcalloc(1, sizeof(*w->inverted));
	if (!w->given)
		w->paths = callpath_build_merged(w->merged, tree,
		                                 PATHS_KEPT_CALLS);
	if (halted(w)) {
		give_up(w);
		return NULL;
	}
	if (w->given)
		callpath_merge(w->merged, w->given, tree->nthreads);
	/* The inversion makes only its roots and keeps a copy of what it
	 * reads, so the icicle's tree may be taken, sorted or freed at once
	 * after it. */
	callpath_invert(w->inverted, w->merged);
	callpath_sort(w->merged, k);
	announce(w, &w->paths_ready);
	callpath_sort(w->inverted, k);
	announce(w, &w->inverted_ready);
	if (halted(w)) {
		give_up(w);
		return NULL;
	}
	pthread_mutex_lock(&w->lock);
	mine = !w->timeline_started;
	w->timeline_started = true;
	apart = w->timeline_apart;
	pthread_mutex_unlock(&w->lock);
	if (mine)
		build_timeline(w);
	else if (apart)
		pthread_join(w->timeline_thread, NULL);
	if (halted(w)) {
		/* Joined already: nothing is apart any more. */
		w->timeline_apart = false;
		give_up(w);
		return NULL;
	}
	w->profile_index = profile_index_new(tree, 0);
	announce(w, &w->profile_ready);
	if (halted(w)) {
		w->timeline_apart = false;
		give_up(w);
		return NULL;
	}
	/* The other clock's index last: only the call chart's clock switch
	 * wants it, and the first one's parts it shares are built. */
	if (tree->has_clock[other_clock(w->clock)])
		w->other =
		        timeline_new_sharing(w->first, other_clock(w->clock));
	announce(w, &w->other_ready);
	atomic_store(&w->done, true);
	return NULL;
}

struct warmup *
warmup_start(const struct calltree *tree, enum clock_index k,
             const struct callpath *paths)
{
	struct warmup *w = xcalloc(1, sizeof(*w));

	w->tree = tree;
	w->given = paths;
	w->clock = k;
	atomic_init(&w->done, false);
	atomic_init(&w->stop, false);
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->ready, NULL);
	w->running = util_thread_start(&w->thread, build, w);
	if (!w->running)
		atomic_store(&w->done, true);
	return w;
}

bool
warmup_done(struct warmup *w)
{
	return !w || atomic_load(&w->done);
}

void
warmup_stop(struct warmup *w)
{
	if (w)
		atomic_store(&w->stop, true);
}

bool
warmup_cut_short(struct warmup *w)
{
	if (!w)
		return false;
	if (w->running) {
		pthread_join(w->thread, NULL);
		w->running = false;
	}
	return w->cut_short;
}

/* Wait for the thread, once. */
static void
join(struct warmup *w)
{
	if (w->running) {
		pthread_join(w->thread, NULL);
		w->running = false;
	}
}

struct timeline *
warmup_take_timeline(struct warmup *w, enum clock_index k)
{
	struct timeline *tl;
	bool here = false;

	if (!w)
		return NULL;
	if (k != w->clock) {
		await(w, &w->other_ready);
		tl = w->other;
		w->other = NULL;
		return tl;
	}
	if (w->running) {
		/* Not begun: begin it now, beside the call paths. */
		pthread_mutex_lock(&w->lock);
		if (!w->timeline_started) {
			w->timeline_started = true;
			w->timeline_apart = util_thread_start(
			        &w->timeline_thread, build_timeline, w);
			here = !w->timeline_apart;
		}
		pthread_mutex_unlock(&w->lock);
		if (here)
			build_timeline(w);
		await(w, &w->timeline_ready);
	}
	tl = w->timeline;
	w->timeline = NULL;
	return tl;
}

struct callpath *
warmup_take_thread_paths(struct warmup *w)
{
	struct callpath *paths;

	if (!w)
		return NULL;
	await(w, &w->paths_ready);
	paths = w->paths;
	w->paths = NULL;
	return paths;
}

struct callpath *
warmup_take_merged(struct warmup *w)
{
	struct callpath *merged;

	if (!w)
		return NULL;
	await(w, &w->paths_ready);
	merged = w->merged;
	w->merged = NULL;
	return merged;
}

struct callpath *
warmup_take_inverted(struct warmup *w)
{
	struct callpath *inverted;

	if (!w)
		return NULL;
	await(w, &w->inverted_ready);
	inverted = w->inverted;
	w->inverted = NULL;
	return inverted;
}

struct profile_index *
warmup_take_profile_index(struct warmup *w)
{
	struct profile_index *index;

	if (!w)
		return NULL;
	await(w, &w->profile_ready);
	index = w->profile_index;
	w->profile_index = NULL;
	return index;
}

void
warmup_free(struct warmup *w)
{
	size_t t;

	if (!w)
		return;
	join(w);
	timeline_free(w->timeline);
	timeline_free(w->other);
	if (w->paths)
		for (t = 0; t < w->tree->nthreads; t++)
			callpath_done(&w->paths[t]);
	free(w->paths);
	if (w->merged)
		callpath_done(w->merged);
	free(w->merged);
	if (w->inverted)
		callpath_done(w->inverted);
	free(w->inverted);
	profile_index_free(w->profile_index);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->ready);
	free(w);
}

struct warmup_job {
	struct callpath *parts; /* the caller's, copied by value */
	size_t nparts;
	struct callpath discard;
	enum clock_index clock;
	pthread_t thread;
	atomic_bool done, abandoned;
	struct callpath inverted;
};

static bool
abandoned(void *arg)
{
	struct warmup_job *job = arg;

	return atomic_load(&job->abandoned);
}

static void *
build_inverted(void *arg)
{
	struct warmup_job *job = arg;
	struct callpath all;

	/* Freeing a big tree takes milliseconds: here, not in a key press. */
	callpath_done(&job->discard);
	callpath_merge(&all, job->parts, job->nparts);
	/* Only the roots are made: a pass over the merged tree. */
	if (!abandoned(job)) {
		callpath_invert(&job->inverted, &all);
		callpath_sort(&job->inverted, job->clock);
	}
	callpath_done(&all);
	if (abandoned(job))
		callpath_done(&job->inverted);
	atomic_store(&job->done, true);
	return NULL;
}

struct warmup_job *
warmup_invert_start(const struct callpath *parts, size_t n, enum clock_index k,
                    struct callpath *discard)
{
	struct warmup_job *job = xcalloc(1, sizeof(*job));

	if (discard) {
		job->discard = *discard;
		memset(discard, 0, sizeof(*discard));
	}
	job->parts = xcalloc(n + 1, sizeof(*job->parts));
	memcpy(job->parts, parts, n * sizeof(*parts));
	job->nparts = n;
	job->clock = k;
	atomic_init(&job->done, false);
	atomic_init(&job->abandoned, false);
	if (!util_thread_start(&job->thread, build_inverted, job)) {
		callpath_done(&job->discard);
		free(job->parts);
		free(job);
		return NULL;
	}
	return job;
}

void
warmup_job_abandon(struct warmup_job *job)
{
	if (job)
		atomic_store(&job->abandoned, true);
}

bool
warmup_job_done(struct warmup_job *job)
{
	return !job || atomic_load(&job->done);
}

void
warmup_job_take(struct warmup_job *job, struct callpath *out)
{
	pthread_join(job->thread, NULL);
	*out = job->inverted;
	free(job->parts);
	free(job);
}

void
warmup_job_free(struct warmup_job *job)
{
	struct callpath tree;

	if (!job)
		return;
	warmup_job_take(job, &tree);
	callpath_done(&tree);
}
