/*
 * triage-sums: a thread's triage sums as its calls open and close (see
 * model/triage-sums.h).  A rule's open outermost match is the stack
 * index where it opened: every call entered until it closes is inside
 * it, and outermost matches of one rule close in the order they open,
 * so the longest is the first of the longest in pre-order, as the
 * model's pass finds it.
 */
#include "config.h"

#include "model/triage-sums.h"

#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

enum {
	WHAT_UNION = TRIAGE_WHAT_UNION,
	WHAT_IDLE = TRIAGE_WHAT_IDLE,
	WHAT_BLOCKED = TRIAGE_WHAT_BLOCKED,
	WHAT_CAUSE = TRIAGE_WHAT_CAUSE,
	WHAT_HOT = TRIAGE_WHAT_HOT,
	WHAT_FRAME = TRIAGE_WHAT_FRAME,
};

enum { NOT_OPEN = UINT32_MAX };

/* The entry index of a thread's first call: the orphans, which come
 * before every call in pre-order, the last first, are numbered down
 * from it. */
#define TRIAGE_FIRST_CALL (UINT64_C(1) << 40)

void
triage_watch_init(struct triage_watch *tw, const struct triage_sums_spec *spec,
                  uint32_t tid)
{
	size_t r;

	memset(tw, 0, sizeof(*tw));
	tw->spec = spec;
	tw->is_main = spec->has_main && tid == spec->main_tid;
	tw->ask = spec->ask[tw->is_main];
	tw->blocked_floor = spec->blocked_floor[tw->is_main];
	tw->first_index = TRIAGE_FIRST_CALL;
	tw->level_cap = 8;
	tw->level = xcalloc(tw->level_cap, sizeof(*tw->level));
	tw->frame = TRIAGE_NO_FRAME;
	for (r = 0; r < spec->nwords; r++)
		tw->hot |= spec->hot_on[tw->is_main][r] != 0;
}

/* The per-rule tables of tw, made when a call first asks for them: a
 * thread whose calls ask nothing (most of a process's) keeps none. */
static void
need_tables(struct triage_watch *tw)
{
	size_t r, n = tw->spec->nrules;

	if (tw->sums)
		return;
	tw->open = xmalloc((n + 1) * sizeof(*tw->open));
	for (r = 0; r < n; r++)
		tw->open[r] = NOT_OPEN;
	tw->sums = xcalloc(n + 1, sizeof(*tw->sums));
}

/* The hot sums of a thread of nmethods methods. */
static struct triage_hot *
hot_new(size_t nmethods)
{
	struct triage_hot *h = xcalloc(1, sizeof(*h));
	size_t n = nmethods + 1;

	h->cpu = xcalloc(n, sizeof(*h->cpu));
	h->wall = xcalloc(n, sizeof(*h->wall));
	h->best_cpu = xcalloc(n, sizeof(*h->best_cpu));
	h->best_start = xcalloc(n, sizeof(*h->best_start));
	h->first = xcalloc(n, sizeof(*h->first));
	h->path = xcalloc(n, sizeof(*h->path));
	h->npath = xcalloc(n, sizeof(*h->npath));
	h->at_root = xcalloc(n, sizeof(*h->at_root));
	h->stamp = xcalloc(n, sizeof(*h->stamp));
	h->touched = xcalloc(n, sizeof(*h->touched));
	h->span = 1;
	return h;
}

static void
hot_free(struct triage_hot *h, size_t nmethods)
{
	size_t m;

	if (!h)
		return;
	for (m = 0; m < nmethods; m++)
		free(h->path[m]);
	free(h->cpu);
	free(h->wall);
	free(h->best_cpu);
	free(h->best_start);
	free(h->first);
	free(h->path);
	free(h->npath);
	free(h->at_root);
	free(h->stamp);
	free(h->touched);
	free(h);
}

void
triage_watch_done(struct triage_watch *tw)
{
	size_t i;

	for (i = 0; i < tw->ncloses; i++)
		free(tw->closes[i].counts);
	free(tw->closes);
	free(tw->causes);
	free(tw->frames);
	if (tw->spec)
		hot_free(tw->acc, tw->spec->nmethods);
	free(tw->level);
	free(tw->open);
	triage_sums_free(tw->sums, tw->spec ? tw->spec->nrules : 0);
	memset(tw, 0, sizeof(*tw));
}

struct triage_sum *
triage_watch_finish(struct triage_watch *tw)
{
	struct triage_sum *sums = tw->sums;

	tw->sums = NULL;
	return sums;
}

void
triage_watch_reserve(struct triage_watch *tw, uint32_t d)
{
	size_t old = tw->level_cap;

	UTIL_GROW(tw->level, tw->level_cap, (size_t)d + 1);
	memset(tw->level + old, 0, (tw->level_cap - old) * sizeof(*tw->level));
}

/* Whether rule r is a cause rule on the thread. */
static bool
is_cause(const struct triage_watch *tw, size_t r)
{
	return tw->spec->cause_on[tw->is_main][r / 64] >> (r % 64) & 1;
}

bool
triage_watch_open(struct triage_watch *tw, uint32_t d, uint32_t m,
                  const uint64_t *at __attribute__((unused)))
{
	const struct triage_sums_spec *spec = tw->spec;
	const int main = tw->is_main;
	struct triage_level *l = &tw->level[d];
	const uint64_t *bits;
	uint8_t ask = tw->ask[m];
	size_t w;

	need_tables(tw);
	if (ask & TRIAGE_ASK_STOP)
		return false;
	/* A looper inside a match: the match holds it and is left out. */
	if (ask & TRIAGE_ASK_LOOPER && tw->nopen)
		return false;
	tw->looper |= (ask & TRIAGE_ASK_LOOPER) != 0;
	bits = spec->match + (size_t)m * spec->nwords;
	if (ask & TRIAGE_ASK_IDLE)
		l->what |= WHAT_IDLE;
	for (w = 0; ask & TRIAGE_ASK_UNION && w < spec->nwords; w++) {
		uint64_t b = bits[w] & spec->union_on[main][w];

		while (b) {
			size_t r = w * 64 + (size_t)__builtin_ctzll(b);

			b &= b - 1;
			if (tw->open[r] != NOT_OPEN)
				continue; /* inside its open match */
			tw->open[r] = d;
			tw->nopen++;
			tw->ncause_open += is_cause(tw, r);
			l->what |= WHAT_UNION;
		}
	}
	if (ask & TRIAGE_ASK_FRAME && tw->frame == TRIAGE_NO_FRAME) {
		tw->frame = d;
		tw->frame_start = l->start;
		tw->ncauses = 0;
		l->what |= WHAT_FRAME;
		if (tw->hot && !tw->acc)
			tw->acc = hot_new(spec->nmethods);
	} else if (ask & TRIAGE_ASK_APP && tw->frame != TRIAGE_NO_FRAME) {
		l->what |= WHAT_CAUSE;
		if (tw->hot) {
			l->what |= WHAT_HOT;
			memset(l->child, 0, sizeof(l->child));
		}
	}
	/* The spec's ask leaves out the blocked rules of idle and cause
	 * rules' methods; a cause rule's match open below shows why. */
	if (ask & TRIAGE_ASK_BLOCKED && !tw->ncause_open) {
		l->what |= WHAT_BLOCKED;
		memset(l->child, 0, sizeof(l->child));
	}
	return true;
}

/* The worst call's path, from the open frames [0, d]: from its nearest
 * dispatchMessage caller (or the root) down. */
static void
take_path(const struct triage_watch *tw, struct triage_sum *s, uint32_t d)
{
	uint32_t from = d;

	while (from > 0 &&
	       !(tw->ask[tw->level[from].method] & TRIAGE_ASK_DISPATCH))
		from--;
	s->path_at_root =
	        !(tw->ask[tw->level[from].method] & TRIAGE_ASK_DISPATCH);
	s->npath = (size_t)d - from + 1;
	s->path = xreallocarray(s->path, s->npath, sizeof(*s->path));
	for (size_t i = 0; i < s->npath; i++)
		s->path[i] = tw->level[from + i].method;
}

/* The path of an orphan of method m: itself. */
static void
orphan_path(const struct triage_watch *tw, struct triage_sum *s, uint32_t m)
{
	s->path = xreallocarray(s->path, 1, sizeof(*s->path));
	s->path[0] = m;
	s->npath = 1;
	s->path_at_root = !(tw->ask[m] & TRIAGE_ASK_DISPATCH);
}

/* Method m's call, entered index-th, into blocked sum s's methods. */
static void
add_method(struct triage_sum *s, uint32_t m, uint64_t index)
{
	size_t i;

	for (i = 0; i < s->nmethods; i++)
		if (s->methods[i] == m) {
			if (index < s->first[i])
				s->first[i] = index;
			return;
		}
	if (s->nmethods == s->methods_cap) {
		UTIL_GROW(s->methods, s->methods_cap, s->nmethods + 1);
		s->first = xreallocarray(s->first, s->methods_cap,
		                         sizeof(*s->first));
	}
	s->methods[s->nmethods] = m;
	s->first[s->nmethods++] = index;
}

/* A blocked rule's call closes: at stack index d, its exclusive times
 * x; or (l the orphan's) an orphan, d UINT32_MAX. */
static void
blocked_close(struct triage_watch *tw, const struct triage_level *l, uint32_t d,
              const uint64_t *dur, const uint64_t *x)
{
	const struct triage_sums_spec *spec = tw->spec;
	const uint64_t *bits = spec->match + (size_t)l->method * spec->nwords;
	bool lower = tw->at_end || d == UINT32_MAX;
	const uint64_t *on = spec->blocked_on[tw->is_main];
	uint64_t wall = x[CLOCK_WALL], cpu = x[CLOCK_CPU];
	uint64_t off = wall > cpu ? wall - cpu : 0;
	size_t w;

	if (dur[CLOCK_WALL] < tw->blocked_floor)
		return;
	for (w = 0; w < spec->nwords; w++) {
		uint64_t b = bits[w] & on[w];

		while (b) {
			size_t r = w * 64 + (size_t)__builtin_ctzll(b);
			struct triage_sum *s = &tw->sums[r];

			b &= b - 1;
			if (!spec->blocked_holds(spec->arg, r, off))
				continue;
			s->total[CLOCK_WALL] += off;
			s->total[CLOCK_CPU] += cpu;
			s->lower_bound |= lower;
			if (!s->count++ || off > s->worst_dur[CLOCK_WALL]) {
				s->worst_place = s->count - 1;
				s->worst_method = l->method;
				s->worst_start = l->start;
				s->worst_dur[CLOCK_WALL] = off;
				s->worst_dur[CLOCK_CPU] = cpu;
				s->worst_lower = lower;
				if (d != UINT32_MAX)
					take_path(tw, s, d);
				else
					orphan_path(tw, s, l->method);
			}
			add_method(s, l->method, l->index);
		}
	}
}

/* Application call l at stack index d in the open frame closes, lasting
 * dur on the judging clock: a candidate for the frame's cause while it
 * lasts half the frame so far, as those before it. */
static void
cause_close(struct triage_watch *tw, const struct triage_level *l, uint32_t d,
            uint64_t dur)
{
	uint64_t elapsed = l->start + dur - tw->frame_start;
	size_t i, n = 0;

	for (i = 0; i < tw->ncauses; i++)
		if (tw->causes[i].dur * 2 >= elapsed)
			tw->causes[n++] = tw->causes[i];
	tw->ncauses = n;
	if (dur * 2 < elapsed)
		return;
	UTIL_GROW(tw->causes, tw->causes_cap, tw->ncauses + 1);
	tw->causes[tw->ncauses++] =
	        (struct triage_cause){l->method, d, l->start, dur};
}

/* The path from the open frames [0, d] (from dispatchMessage or the
 * root) into *path and *n; whether it starts at the root. */
static bool
path_of(const struct triage_watch *tw, uint32_t d, uint32_t **path, size_t *n)
{
	uint32_t from = d;
	size_t i;

	while (from > 0 &&
	       !(tw->ask[tw->level[from].method] & TRIAGE_ASK_DISPATCH))
		from--;
	*n = (size_t)d - from + 1;
	*path = xreallocarray(*path, *n, sizeof(**path));
	for (i = 0; i < *n; i++)
		(*path)[i] = tw->level[from + i].method;
	return !(tw->ask[tw->level[from].method] & TRIAGE_ASK_DISPATCH);
}

/* Application call l at stack index d in the open frame closes, its
 * exclusive times x: into its method's hot sums. */
static void
hot_close(struct triage_watch *tw, const struct triage_level *l, uint32_t d,
          const uint64_t *x)
{
	struct triage_hot *h = tw->acc;
	uint32_t m = l->method;

	if (h->stamp[m] != h->span) {
		h->stamp[m] = h->span;
		h->cpu[m] = h->wall[m] = 0;
		h->first[m] = l->index;
		h->touched[h->ntouched++] = m;
	} else if (x[CLOCK_CPU] <= h->best_cpu[m]) {
		goto sum;
	}
	h->best_cpu[m] = x[CLOCK_CPU];
	h->best_start[m] = l->start;
	h->at_root[m] = path_of(tw, d, &h->path[m], &h->npath[m]);
sum:
	if (l->index < h->first[m])
		h->first[m] = l->index;
	h->wall[m] += x[CLOCK_WALL];
	h->cpu[m] += x[CLOCK_CPU];
}

/* The open frame's hot spots into the hot rules' sums. */
static void
hot_settle(struct triage_watch *tw)
{
	const struct triage_sums_spec *spec = tw->spec;
	const uint64_t *on = spec->hot_on[tw->is_main];
	struct triage_hot *h = tw->acc;
	size_t r, i;

	for (r = 0; r < spec->nrules; r++) {
		struct triage_sum *s = &tw->sums[r];

		if (!(on[r / 64] >> (r % 64) & 1))
			continue;
		for (i = 0; i < h->ntouched; i++) {
			uint32_t m = h->touched[i];
			const uint64_t *bits =
			        spec->match + (size_t)m * spec->nwords;

			if (!(bits[r / 64] >> (r % 64) & 1) ||
			    !spec->hot_holds(spec->arg, r, h->cpu[m]))
				continue;
			s->total[CLOCK_WALL] += h->wall[m];
			s->total[CLOCK_CPU] += h->cpu[m];
			if (!s->count++ ||
			    h->cpu[m] > s->worst_dur[CLOCK_CPU]) {
				s->worst_place = s->count - 1;
				s->worst_method = m;
				s->worst_start = h->best_start[m];
				s->worst_dur[CLOCK_WALL] = h->wall[m];
				s->worst_dur[CLOCK_CPU] = h->cpu[m];
				s->worst_lower = false;
				s->npath = h->npath[m];
				s->path = xreallocarray(s->path, s->npath + 1,
				                        sizeof(*s->path));
				memcpy(s->path, h->path[m],
				       s->npath * sizeof(*s->path));
				s->path_at_root = h->at_root[m];
			}
			add_method(s, m, h->first[m]);
		}
	}
}

/* The open frame closes, having lasted dur: its cause (the deepest of
 * the candidates that last half of it and start in its first fifth),
 * and its hot spots where its cpu time can hold one. */
static void
frame_close(struct triage_watch *tw, const uint64_t *dur)
{
	const struct triage_sums_spec *spec = tw->spec;
	uint64_t len = dur[spec->clock];
	struct triage_frame *f;
	uint32_t best = 0;
	size_t i;

	UTIL_GROW(tw->frames, tw->frames_cap, tw->nframes + 1);
	f = &tw->frames[tw->nframes++];
	f->start = tw->frame_start;
	memcpy(f->dur, dur, sizeof(f->dur));
	f->cause = CALL_NONE;
	f->share = 0;
	for (i = 0; len && i < tw->ncauses; i++) {
		const struct triage_cause *c = &tw->causes[i];

		if (c->dur * 2 < len || (c->start - f->start) * 5 > len ||
		    c->depth <= best)
			continue;
		f->cause = c->method;
		f->share = (double)c->dur / (double)len;
		best = c->depth;
	}
	tw->ncauses = 0;
	if (tw->acc) {
		if (dur[CLOCK_CPU] >= spec->hot_floor[tw->is_main])
			hot_settle(tw);
		tw->acc->span++;
		tw->acc->ntouched = 0;
	}
	tw->frame = TRIAGE_NO_FRAME;
}

struct triage_frame *
triage_watch_frames(struct triage_watch *tw, size_t *count)
{
	struct triage_frame *f = tw->frames;

	*count = tw->nframes;
	tw->frames = NULL;
	tw->nframes = tw->frames_cap = 0;
	return f;
}

void
triage_watch_settle(struct triage_watch *tw, uint32_t d, const uint64_t *dur)
{
	const struct triage_sums_spec *spec = tw->spec;
	struct triage_level *l = &tw->level[d];
	size_t r;
	int k;

	need_tables(tw);
	if (l->what & (WHAT_BLOCKED | WHAT_HOT)) {
		uint64_t x[CLOCK_COUNT];

		for (k = 0; k < CLOCK_COUNT; k++)
			x[k] = dur[k] > l->child[k] ? dur[k] - l->child[k] : 0;
		if (l->what & WHAT_BLOCKED)
			blocked_close(tw, l, d, dur, x);
		if (l->what & WHAT_HOT)
			hot_close(tw, l, d, x);
	}
	if (l->what & WHAT_CAUSE)
		cause_close(tw, l, d, dur[spec->clock]);
	if (l->what & WHAT_FRAME)
		frame_close(tw, dur);
	if (l->what & WHAT_IDLE)
		for (k = 0; k < CLOCK_COUNT; k++)
			tw->idle[k] += dur[k];
	if (l->what & WHAT_IDLE && tw->nopen)
		for (r = 0; r < spec->nrules; r++)
			if (tw->open[r] < d &&
			    spec->no_idle[r / 64] >> (r % 64) & 1)
				for (k = 0; k < CLOCK_COUNT; k++)
					tw->sums[r].idle[k] += dur[k];
	if (l->what & WHAT_UNION)
		for (r = 0; r < spec->nrules; r++) {
			struct triage_sum *s = &tw->sums[r];

			if (tw->open[r] != d)
				continue;
			tw->open[r] = NOT_OPEN;
			tw->nopen--;
			tw->ncause_open -= is_cause(tw, r);
			for (k = 0; k < CLOCK_COUNT; k++)
				s->total[k] += dur[k];
			s->lower_bound |= tw->at_end;
			if (!s->count++ ||
			    dur[spec->clock] > s->worst_dur[spec->clock]) {
				s->worst_place = s->count - 1;
				s->worst_method = l->method;
				s->worst_start = l->start;
				memcpy(s->worst_dur, dur, sizeof(s->worst_dur));
				s->worst_lower = tw->at_end;
				take_path(tw, s, d);
			}
		}
	l->what = 0;
}

/* Whether bits and mask share a bit, over nwords words. */
static bool
any_bit(const uint64_t *bits, const uint64_t *mask, size_t nwords)
{
	size_t w;

	for (w = 0; w < nwords; w++)
		if (bits[w] & mask[w])
			return true;
	return false;
}

/* Sum s emptied. */
static void
sum_clear(struct triage_sum *s)
{
	free(s->path);
	free(s->methods);
	free(s->first);
	memset(s, 0, sizeof(*s));
}

bool
triage_watch_orphan(struct triage_watch *tw, uint32_t m, uint64_t start,
                    const uint64_t *dur, const uint64_t *adopted)
{
	const struct triage_sums_spec *spec = tw->spec;
	const int main = tw->is_main;
	const uint64_t *bits;
	uint8_t ask;
	size_t r, w;
	int k;

	need_tables(tw);
	if (m >= spec->nmethods)
		return false;
	ask = tw->ask[m];
	if (ask & (TRIAGE_ASK_STOP | TRIAGE_ASK_FRAME))
		return false;
	bits = spec->match + (size_t)m * spec->nwords;
	/* The paths that reach the root now start at it. */
	for (r = 0; r < spec->nrules; r++) {
		struct triage_sum *s = &tw->sums[r];

		if (!s->count || !s->path_at_root)
			continue;
		s->path =
		        xreallocarray(s->path, s->npath + 1, sizeof(*s->path));
		memmove(s->path + 1, s->path, s->npath * sizeof(*s->path));
		s->path[0] = m;
		s->npath++;
		s->path_at_root = !(ask & TRIAGE_ASK_DISPATCH);
	}
	for (w = 0; ask & TRIAGE_ASK_UNION && w < spec->nwords; w++) {
		uint64_t b = bits[w] & spec->union_on[main][w];

		while (b) {
			size_t rule = w * 64 + (size_t)__builtin_ctzll(b);
			struct triage_sum *s = &tw->sums[rule];
			uint64_t e = s->enclosing;

			b &= b - 1;
			if (tw->looper) {
				s->enclosing++;
				continue;
			}
			/* Every match so far lies inside it. */
			sum_clear(s);
			s->enclosing = e;
			memcpy(s->total, dur, sizeof(s->total));
			if (spec->no_idle[rule / 64] >> (rule % 64) & 1)
				memcpy(s->idle, tw->idle, sizeof(s->idle));
			s->count = 1;
			s->lower_bound = s->worst_lower = true;
			s->worst_method = m;
			s->worst_start = start;
			memcpy(s->worst_dur, dur, sizeof(s->worst_dur));
			orphan_path(tw, s, m);
			/* A cause rule's: every call so far shows its
			 * cause. */
			if (!(spec->cause_on[main][w] >> (rule % 64) & 1))
				continue;
			for (r = 0; r < spec->nrules; r++)
				if (spec->blocked_on[main][r / 64] >> (r % 64) &
				    1)
					sum_clear(&tw->sums[r]);
		}
	}
	/* A blocked rule's orphan: its cause shows only where a later
	 * orphan of a cause rule's holds it, which clears it then. */
	if (ask & TRIAGE_ASK_BLOCKED && !(ask & TRIAGE_ASK_IDLE) &&
	    !any_bit(bits, spec->cause_on[main], spec->nwords)) {
		struct triage_level l = {0};
		uint64_t x[CLOCK_COUNT];

		l.method = m;
		l.start = start;
		l.index = TRIAGE_FIRST_CALL - ++tw->orphans;
		for (k = 0; k < CLOCK_COUNT; k++)
			x[k] = dur[k] > adopted[k] ? dur[k] - adopted[k] : 0;
		blocked_close(tw, &l, UINT32_MAX, dur, x);
	}
	if (ask & TRIAGE_ASK_IDLE)
		for (k = 0; k < CLOCK_COUNT; k++)
			tw->idle[k] += dur[k];
	tw->looper |= (ask & TRIAGE_ASK_LOOPER) != 0;
	return true;
}

bool
triage_watch_joinable(const struct triage_watch *from)
{
	return from->frame == TRIAGE_NO_FRAME;
}

bool
triage_watch_seeded(struct triage_watch *tw)
{
	uint32_t d;

	if (tw->frame != TRIAGE_NO_FRAME)
		return false;
	tw->seeded = tw->prefix = (uint32_t)tw->entered;
	for (d = 0; d < tw->seeded; d++)
		memset(tw->level[d].child, 0, sizeof(tw->level[d].child));
	tw->entered = 0;
	return true;
}

void
triage_watch_prefix_close(struct triage_watch *tw, uint32_t d,
                          const uint64_t *dur)
{
	const struct triage_sums_spec *spec = tw->spec;
	struct triage_close *c;
	size_t r;

	need_tables(tw);
	UTIL_GROW(tw->closes, tw->closes_cap, tw->ncloses + 1);
	c = &tw->closes[tw->ncloses++];
	c->level = d;
	memcpy(c->dur, dur, sizeof(c->dur));
	memcpy(c->child, tw->level[d].child, sizeof(c->child));
	c->counts = xmalloc((spec->nrules + 1) * sizeof(*c->counts));
	for (r = 0; r < spec->nrules; r++) {
		c->counts[r] = tw->sums[r].count;
		if (tw->open[r] == d) {
			tw->open[r] = NOT_OPEN;
			tw->nopen--;
			tw->ncause_open -= is_cause(tw, r);
		}
	}
	tw->level[d].what = 0;
	tw->prefix = d;
}

/* Sum `from` (its calls after into's, its worst the first of its
 * longest) added to into's: the worst is from's where longer on clock
 * k (or into has none). */
static void
sum_add(struct triage_sum *into, struct triage_sum *from, int judge,
        enum clock_index k, const uint64_t *at, uint64_t offset)
{
	size_t i, j;
	int c;

	if (!from->count && !from->enclosing)
		return;
	for (c = 0; c < CLOCK_COUNT; c++) {
		into->total[c] += from->total[c];
		into->idle[c] += from->idle[c];
	}
	into->enclosing += from->enclosing;
	into->lower_bound |= from->lower_bound;
	if (from->count &&
	    (!into->count || from->worst_dur[judge] > into->worst_dur[judge])) {
		into->worst_method = from->worst_method;
		into->worst_start = from->worst_start + at[k];
		memcpy(into->worst_dur, from->worst_dur,
		       sizeof(into->worst_dur));
		into->worst_lower = from->worst_lower;
		free(into->path);
		into->path = from->path;
		into->npath = from->npath;
		into->path_at_root = from->path_at_root;
		from->path = NULL;
		from->npath = 0;
	}
	into->count += from->count;
	for (i = 0; i < from->nmethods; i++) {
		uint64_t first = from->first[i] - TRIAGE_FIRST_CALL + offset;

		for (j = 0; j < into->nmethods; j++)
			if (into->methods[j] == from->methods[i])
				break;
		if (j < into->nmethods) {
			if (first < into->first[j])
				into->first[j] = first;
			continue;
		}
		if (into->nmethods == into->methods_cap) {
			UTIL_GROW(into->methods, into->methods_cap,
			          into->nmethods + 1);
			into->first =
			        xreallocarray(into->first, into->methods_cap,
			                      sizeof(*into->first));
		}
		into->methods[into->nmethods] = from->methods[i];
		into->first[into->nmethods++] = first;
	}
	from->count = 0;
}

/* Where from's own worst of rule r comes among its counted calls (the
 * count before it), kept as its sums are. */
static uint64_t
worst_place(const struct triage_watch *from, size_t r)
{
	return from->sums[r].count ? from->sums[r].worst_place : UINT64_MAX;
}

void
triage_watch_join(struct triage_watch *into, struct triage_watch *from,
                  const uint64_t (*before)[CLOCK_COUNT], const uint64_t *at)
{
	const struct triage_sums_spec *spec = into->spec;
	enum clock_index k = spec->clock;
	uint64_t offset = TRIAGE_FIRST_CALL + into->entered;
	bool *added = xcalloc(spec->nrules + 1, sizeof(*added));
	size_t i, r;
	uint32_t d;
	int c;

	need_tables(into);
	need_tables(from);
	for (i = 0; i < from->ncloses; i++) {
		const struct triage_close *e = &from->closes[i];
		struct triage_level *l = &into->level[e->level];
		uint64_t dur[CLOCK_COUNT];

		d = e->level;
		for (c = 0; c < CLOCK_COUNT; c++) {
			dur[c] = e->dur[c] + before[d][c];
			l->child[c] += e->child[c];
			if (d)
				into->level[d - 1].child[c] += before[d][c];
		}
		/* from's calls counted before this one come first. */
		for (r = 0; r < spec->nrules; r++)
			if (!added[r] && e->counts[r] > worst_place(from, r)) {
				sum_add(&into->sums[r], &from->sums[r],
				        spec->worst_clock[r], k, at, offset);
				added[r] = true;
			}
		if (l->what)
			triage_watch_settle(into, d, dur);
	}
	for (r = 0; r < spec->nrules; r++)
		if (!added[r])
			sum_add(&into->sums[r], &from->sums[r],
			        spec->worst_clock[r], k, at, offset);
	free(added);
	for (c = 0; c < CLOCK_COUNT; c++)
		into->idle[c] += from->idle[c];
	into->looper |= from->looper;
	/* from's frames (none open: triage_watch_joinable) after into's. */
	for (i = 0; i < from->nframes; i++) {
		UTIL_GROW(into->frames, into->frames_cap, into->nframes + 1);
		into->frames[into->nframes] = from->frames[i];
		into->frames[into->nframes++].start += at[k];
	}
	/* The frames still open: into's below from's prefix, from's
	 * above. */
	for (d = 0; d < from->prefix; d++)
		for (c = 0; c < CLOCK_COUNT; c++)
			into->level[d].child[c] += from->level[d].child[c];
	if (from->level_cap > into->level_cap) {
		size_t old = into->level_cap;

		UTIL_GROW(into->level, into->level_cap, from->level_cap);
		memset(into->level + old, 0,
		       (into->level_cap - old) * sizeof(*into->level));
	}
	for (d = from->prefix; d < from->level_cap; d++) {
		struct triage_level *l = &into->level[d];

		*l = from->level[d];
		l->start += at[k];
		l->index += offset - TRIAGE_FIRST_CALL;
	}
	into->nopen = into->ncause_open = 0;
	for (r = 0; r < spec->nrules; r++) {
		if (from->open[r] != NOT_OPEN)
			into->open[r] = from->open[r];
		into->nopen += into->open[r] != NOT_OPEN;
		into->ncause_open +=
		        into->open[r] != NOT_OPEN && is_cause(into, r);
	}
	into->entered += from->entered;
}
