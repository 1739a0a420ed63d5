/*
 * frames: one pass over each thread's calls in the scope, in pre-order;
 * a frame's calls are the ones after it that are deeper, so its hot
 * methods are summed on the way (each call adds its time to its method
 * and takes it from its caller's) and settled when a call as shallow as
 * the frame comes.
 */
#include "config.h"

#include "query/frames.h"

#include "model/frame-spans.h"
#include "model/frame-sums.h"
#include "query/method-name.h"
#include "util/alloc.h"
#include "util/jobs.h"
#include "util/pattern.h"

#include <math.h>
#include <regex.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

const int frames_percentile_ranks[FRAMES_PERCENTILES] = {50, 90, 95, 99};

bool *
frames_methods(const struct calltree *tree, const char *re, char *why,
               size_t size)
{
	bool *is_frame = xcalloc(tree->nmethods + 1, sizeof(*is_frame));
	regex_t rx;
	size_t m;
	int rc = pattern_compile(&rx, re ? re : FRAMES_DEFAULT_METHOD,
	                         REG_EXTENDED | REG_NOSUB, why, size);

	if (rc) {
		free(is_frame);
		return NULL;
	}
	for (m = 0; m < tree->nmethods; m++) {
		char *name = method_full_name(&tree->methods[m]);

		is_frame[m] = regexec(&rx, name, 0, NULL, 0) == 0;
		free(name);
	}
	regfree(&rx);
	return is_frame;
}

double
frames_budget_of_rate(double hz)
{
	return 1e6 / hz;
}

/* Call c's durations within the scope's range. */
static inline void
clipped(const struct scope *scope, const struct calltree *tree,
        const struct scope_span *span, size_t c, uint64_t dur[CLOCK_COUNT])
{
	if (scope->range.on)
		scope_clip(scope, tree, span, c, dur);
	else
		calltree_durations(tree, c, dur);
}

/* A sampled thread's frame spans (frame-spans.h) for thread_frames:
 * each frame is a span, its calls the outermost frame calls that start
 * in it; spans no call of this model starts in are frames of no call. */
struct spans_walk {
	const struct frame_span *spans;
	size_t n, next; /* spans[next..n) not yet a frame */
	bool on;
};

/* A new frame for out, at span s or (s NULL) at call c's start. */
static struct drawn_frame *
new_frame(struct frames *out, size_t *cap, const struct scope *scope, size_t t,
          const struct frame_span *s)
{
	struct drawn_frame *f;

	UTIL_GROW(out->frames, *cap, out->count + 1);
	f = &out->frames[out->count++];
	memset(f, 0, sizeof(*f));
	f->call = CALL_NONE;
	f->thread = (uint32_t)t;
	for (int i = 0; i < FRAME_HOT; i++)
		f->hot[i] = CALL_NONE;
	if (s) {
		uint64_t a = s->start, b = s->end;

		if (scope->range.on) {
			if (a < scope->range.start)
				a = scope->range.start;
			if (b > scope->range.end)
				b = scope->range.end;
		}
		f->start = a;
		f->dur[CLOCK_WALL] = b > a ? b - a : 0;
	}
	return f;
}

/* Whether span s has time in the scope's range. */
static bool
span_in_range(const struct scope *scope, const struct frame_span *s)
{
	return !scope->range.on ||
	       (s->end > scope->range.start && s->start < scope->range.end);
}

/* The spans before index j not yet frames, made frames of no call. */
static void
spans_before(struct frames *out, size_t *cap, const struct scope *scope,
             size_t t, struct spans_walk *sw, size_t j)
{
	for (; sw->next < j; sw->next++)
		if (span_in_range(scope, &sw->spans[sw->next]))
			new_frame(out, cap, scope, t, &sw->spans[sw->next]);
}

/* The span a frame call starting at `at` (wall) belongs to: the last
 * that starts at or before it (models of two event types may place a
 * sample a period apart), else the first. */
static size_t
span_at(const struct spans_walk *sw, uint64_t at)
{
	size_t lo = 0, hi = sw->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sw->spans[mid].start <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : 0;
}

/* The frames of thread t, appended to out; with sw on, grouped by its
 * spans; with h NULL, their calls not summed (no hot methods). */
static void
thread_frames(struct frames *out, size_t *cap, const struct calltree *tree,
              const struct scope *scope, const struct scope_span *span,
              size_t t, const bool *is_frame, struct hot_sums *h,
              uint32_t *path, struct spans_walk *sw)
{
	size_t n = span->nopen + (span->end - span->first), j;
	enum clock_index k = out->clock;
	struct drawn_frame *f = NULL;
	uint32_t fdepth = 0;
	size_t fspan = 0;
	bool inside = false; /* c may be under f's latest frame call */

	for (j = 0; j < n; j++) {
		size_t c = j < span->nopen ? span->open[j]
		                           : span->first + (j - span->nopen);
		uint64_t dur[CLOCK_COUNT];
		uint32_t d;

		if (f && inside) {
			d = calltree_depth(tree, c);
			if (d > fdepth && !h)
				continue;
			if (d > fdepth) {
				uint32_t m = calltree_method(tree, c);
				int64_t len;

				/* path holds the methods of the open calls. */
				path[d] = m;
				if (scope->range.on) {
					scope_clip(scope, tree, span, c, dur);
					len = (int64_t)dur[k];
				} else {
					len = (int64_t)calltree_duration(tree,
					                                 c, k);
				}
				hot_add(h, m, len);
				hot_add(h, path[d - 1], -len);
				continue;
			}
			inside = false;
			if (!sw->on) {
				if (h)
					hot_settle(h, f->hot, f->hot_excl);
				f = NULL;
			}
		}
		if (!is_frame[calltree_method(tree, c)])
			continue;
		d = calltree_depth(tree, c);
		clipped(scope, tree, span, c, dur);
		if (sw->on) {
			size_t at = span_at(
			        sw, calltree_start(tree, c, CLOCK_WALL));

			if (f && at != fspan) {
				if (h)
					hot_settle(h, f->hot, f->hot_excl);
				f = NULL;
			}
			if (!f) {
				spans_before(out, cap, scope, t, sw, at);
				f = new_frame(out, cap, scope, t,
				              at < sw->n ? &sw->spans[at]
				                         : NULL);
				f->call = (uint32_t)c;
				if (sw->next == at && at < sw->n)
					sw->next++;
				fspan = at;
			}
			/* The frame's cpu time is its calls'; its length
			 * on the wall clock is the span's. */
			f->dur[CLOCK_CPU] += dur[CLOCK_CPU];
			if (at >= sw->n)
				f->dur[CLOCK_WALL] += dur[CLOCK_WALL];
		} else {
			f = new_frame(out, cap, scope, t, NULL);
			f->call = (uint32_t)c;
			memcpy(f->dur, dur, sizeof(f->dur));
			f->start = calltree_start(tree, c, k);
			if (scope->range.on && f->start < scope->range.start)
				f->start = scope->range.start;
		}
		fdepth = d;
		inside = true;
		if (!h)
			continue;
		path[d] = calltree_method(tree, c);
		hot_add(h, calltree_method(tree, c), (int64_t)dur[k]);
	}
	if (f && h)
		hot_settle(h, f->hot, f->hot_excl);
	if (sw->on)
		spans_before(out, cap, scope, t, sw, sw->n);
}

/* The frames of thread t summed with the profile, appended to out. */
static void
summed_frames(struct frames *out, size_t *cap, const struct thread_sums *s,
              size_t t)
{
	size_t i;

	UTIL_GROW(out->frames, *cap, out->count + s->nframes);
	for (i = 0; i < s->nframes; i++) {
		const struct frame_sum *fs = &s->frames[i];
		struct drawn_frame *f = &out->frames[out->count++];

		f->call = CALL_NONE;
		f->thread = (uint32_t)t;
		f->start = fs->start[out->clock];
		memcpy(f->dur, fs->dur, sizeof(f->dur));
		memcpy(f->hot, fs->hot, sizeof(f->hot));
		memcpy(f->hot_excl, fs->hot_excl, sizeof(f->hot_excl));
	}
}

void
frames_init(struct frames *out, const struct calltree *tree, double budget)
{
	memset(out, 0, sizeof(*out));
	out->clock = calltree_default_range_clock(tree);
	out->budget = budget;
	out->sampled = tree->sampled;
	out->sample_interval = tree->sample_interval;
}

/* A block of consecutive threads, [from, to), and its frames. */
struct frames_block {
	size_t from, to;
	struct frames frames;
	size_t cap;
};

/* One worker: it takes the next block until none is left. */
struct frames_job {
	const struct calltree *tree;
	const struct scope *scope;
	const bool *is_frame;
	const struct frame_span *spans; /* a sampled model's */
	size_t nspans;
	bool hot; /* the frames' calls summed */
	struct frames_block *blocks;
	size_t count;
	atomic_size_t *next;
};

static void *
frames_job(void *arg)
{
	struct frames_job *job = arg;
	const struct calltree *tree = job->tree;
	struct scope_span span = {0};
	struct hot_sums h = {0};
	uint32_t *path;
	size_t i, t;

	hot_init(&h, tree->nmethods);
	path = xmalloc(((size_t)tree->max_depth + 2) * sizeof(*path));
	while ((i = atomic_fetch_add(job->next, 1)) < job->count) {
		struct frames_block *b = &job->blocks[i];

		for (t = b->from; t < b->to; t++) {
			struct spans_walk sw = {0};

			if (!scope_has(job->scope, t) ||
			    !tree->threads[t].ncalls)
				continue;
			if (tree->header.sample_weight) {
				size_t first;

				sw.on = true;
				sw.n = frame_spans_of(job->spans, job->nspans,
				                      tree->threads[t].tid,
				                      &first);
				sw.spans = job->spans + first;
			}
			scope_span_of(&span, job->scope, tree, t);
			thread_frames(&b->frames, &b->cap, tree, job->scope,
			              &span, t, job->is_frame,
			              job->hot ? &h : NULL, path, &sw);
		}
	}
	scope_span_done(&span);
	free(path);
	hot_done(&h);
	return NULL;
}

/* Calls below which a worker of its own is not worth starting. */
enum { FRAMES_CALLS_PER_JOB = 1 << 16 };

/* frames_find, the frames' calls summed for their hot methods when
 * hot says; the threads in blocks of about a quarter of a worker's
 * share of the calls, taken in turn by one worker per cpu and joined in
 * thread order. */
static void
find_frames(struct frames *out, const struct calltree *tree,
            const struct scope *scope, const bool *is_frame, double budget,
            bool hot)
{
	struct frames_job jobs[UTIL_JOBS_MAX];
	struct frames_block *blocks;
	struct frame_span *own = NULL;
	size_t cap = 0, nblocks = 0, calls = 0, part, sum, t, m, i;
	atomic_size_t next;
	unsigned j, njobs;
	bool any = false;

	frames_init(out, tree, budget);
	for (m = 0; m < tree->nmethods && !any; m++)
		any = is_frame[m];
	if (!any)
		return;
	if (!tree->calls.count) {
		/* Summed (frames_summed) at load, or none. */
		for (t = 0; tree->frames_summed && t < tree->nthreads; t++)
			if (scope_has(scope, t))
				summed_frames(out, &cap, &tree->sums[t], t);
		return;
	}
	for (t = 0; t < tree->nthreads; t++)
		if (scope_has(scope, t))
			calls += tree->threads[t].ncalls;
	njobs = util_jobs_count((unsigned)(calls / FRAMES_CALLS_PER_JOB + 1));
	part = calls / (4 * (size_t)njobs) + 1;
	blocks = xcalloc(4 * (size_t)njobs + 2, sizeof(*blocks));
	for (t = 0, sum = 0; t < tree->nthreads; t++) {
		if (!nblocks || sum >= part) {
			blocks[nblocks].from = t;
			blocks[nblocks++].frames.clock = out->clock;
			sum = 0;
		}
		blocks[nblocks - 1].to = t + 1;
		if (scope_has(scope, t))
			sum += tree->threads[t].ncalls;
	}
	for (j = 0; j < njobs; j++)
		jobs[j] = (struct frames_job){tree, scope,  is_frame, NULL, 0,
		                              hot,  blocks, nblocks,  &next};
	if (tree->header.sample_weight && tree->frame_spans) {
		jobs[0].spans = tree->frame_spans;
		jobs[0].nspans = tree->nframe_spans;
	} else if (tree->header.sample_weight) {
		jobs[0].nspans = frame_spans_find(tree, is_frame, &own);
		jobs[0].spans = own;
	}
	for (j = 1; j < njobs; j++) {
		jobs[j].spans = jobs[0].spans;
		jobs[j].nspans = jobs[0].nspans;
	}
	atomic_init(&next, 0);
	util_jobs_run(frames_job, jobs, sizeof(*jobs), njobs);
	for (i = 0; i < nblocks; i++)
		out->count += blocks[i].frames.count;
	out->frames = xmalloc((out->count + 1) * sizeof(*out->frames));
	for (i = 0, sum = 0; i < nblocks; i++) {
		if (blocks[i].frames.count)
			memcpy(out->frames + sum, blocks[i].frames.frames,
			       blocks[i].frames.count * sizeof(*out->frames));
		sum += blocks[i].frames.count;
		free(blocks[i].frames.frames);
	}
	free(blocks);
	free(own);
}

void
frames_find(struct frames *out, const struct calltree *tree,
            const struct scope *scope, const bool *is_frame, double budget)
{
	find_frames(out, tree, scope, is_frame, budget, true);
}

void
frames_find_unsummed(struct frames *out, const struct calltree *tree,
                     const struct scope *scope, const bool *is_frame,
                     double budget)
{
	find_frames(out, tree, scope, is_frame, budget, false);
}

const char *
frames_offcpu_note(const struct calltree *tree)
{
	const char *offcpu = calltree_property(tree, "simpleperf-trace-offcpu");

	if (!tree->header.sample_weight || (offcpu && !strcmp(offcpu, "yes")))
		return NULL;
	return "no off-CPU samples: a frame's time off the CPU between two "
	       "of its samples is counted in it";
}

void
frames_done(struct frames *fr)
{
	free(fr->frames);
	fr->frames = NULL;
	fr->count = 0;
}

bool
frames_slow(const struct frames *fr, const struct drawn_frame *f)
{
	return (double)f->dur[fr->clock] > fr->budget;
}

bool
frames_frozen(const struct frames *fr, const struct drawn_frame *f)
{
	return f->dur[fr->clock] > FRAMES_FROZEN_US;
}

uint64_t
frames_over(const struct frames *fr, const struct drawn_frame *f)
{
	double over = (double)f->dur[fr->clock] - fr->budget;

	return over > 0 ? (uint64_t)llround(over) : 0;
}

/* Sort v[0..n) in place, a byte at a time from the lowest, through
 * tmp (n entries); a byte every length shares is passed over. */
static void
sort_lengths(uint64_t *v, uint64_t *tmp, size_t n)
{
	size_t count[256], i;
	int shift;

	for (shift = 0; shift < 64; shift += 8) {
		size_t at = 0;

		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[v[i] >> shift & 0xff]++;
		if (n && count[v[0] >> shift & 0xff] == n)
			continue;
		for (i = 0; i < 256; i++) {
			size_t c = count[i];

			count[i] = at;
			at += c;
		}
		for (i = 0; i < n; i++)
			tmp[count[v[i] >> shift & 0xff]++] = v[i];
		memcpy(v, tmp, n * sizeof(*v));
	}
}

uint64_t
frames_percentile(const uint64_t *sorted, size_t n, int p)
{
	size_t rank;

	if (!n)
		return 0;
	/* ceil(p n / 100) in integers: exact, no rounding of a double. */
	rank = ((size_t)p * n + 99) / 100;
	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

void
frames_summarize(const struct frames *fr, size_t from, size_t n,
                 struct frame_summary *s)
{
	uint64_t *len = xmalloc((n + 1) * sizeof(*len));
	uint64_t *tmp = xmalloc((n + 1) * sizeof(*tmp));
	size_t i;
	int p;

	memset(s, 0, sizeof(*s));
	s->frames = n;
	for (i = 0; i < n; i++) {
		const struct drawn_frame *f = &fr->frames[from + i];

		len[i] = f->dur[fr->clock];
		s->slow += frames_slow(fr, f);
		s->frozen += frames_frozen(fr, f);
	}
	sort_lengths(len, tmp, n);
	for (p = 0; p < FRAMES_PERCENTILES; p++)
		s->pct[p] =
		        frames_percentile(len, n, frames_percentile_ranks[p]);
	s->max = n ? len[n - 1] : 0;
	free(tmp);
	free(len);
}

size_t
frames_threads(const struct frames *fr, size_t **first, uint32_t **threads)
{
	size_t n = 0, i;

	*first = xmalloc((fr->count + 1) * sizeof(**first));
	*threads = xmalloc((fr->count + 1) * sizeof(**threads));
	for (i = 0; i < fr->count; i++) {
		if (i && fr->frames[i].thread == fr->frames[i - 1].thread)
			continue;
		(*first)[n] = i;
		(*threads)[n++] = fr->frames[i].thread;
	}
	(*first)[n] = fr->count;
	return n;
}
