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
	tw->level_cap = 64;
	tw->level = xcalloc(tw->level_cap, sizeof(*tw->level));
	tw->open = xmalloc((spec->nrules + 1) * sizeof(*tw->open));
	for (r = 0; r < spec->nrules; r++)
		tw->open[r] = NOT_OPEN;
	tw->sums = xcalloc(spec->nrules + 1, sizeof(*tw->sums));
}

void
triage_watch_done(struct triage_watch *tw)
{
	size_t i;

	for (i = 0; i < tw->ncloses; i++)
		free(tw->closes[i].counts);
	free(tw->closes);
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
                  const uint64_t *at)
{
	const struct triage_sums_spec *spec = tw->spec;
	const int main = tw->is_main;
	struct triage_level *l = &tw->level[d];
	const uint64_t *bits;
	uint8_t ask = tw->ask[m];
	size_t w;

	(void)at;
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
		size_t cap = s->methods_cap;

		UTIL_GROW(s->methods, s->methods_cap, s->nmethods + 1);
		s->first = xreallocarray(s->first, s->methods_cap,
		                         sizeof(*s->first));
		(void)cap;
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

void
triage_watch_settle(struct triage_watch *tw, uint32_t d, const uint64_t *dur)
{
	const struct triage_sums_spec *spec = tw->spec;
	struct triage_level *l = &tw->level[d];
	size_t r;
	int k;

	if (l->what & WHAT_BLOCKED) {
		uint64_t x[CLOCK_COUNT];

		for (k = 0; k < CLOCK_COUNT; k++)
			x[k] = dur[k] > l->child[k] ? dur[k] - l->child[k] : 0;
		blocked_close(tw, l, d, dur, x);
	}
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

	if (m >= spec->nmethods)
		return false;
	ask = tw->ask[m];
	if (ask & TRIAGE_ASK_STOP)
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

void
triage_watch_seeded(struct triage_watch *tw)
{
	uint32_t d;

	tw->seeded = tw->prefix = (uint32_t)tw->entered;
	for (d = 0; d < tw->seeded; d++)
		memset(tw->level[d].child, 0, sizeof(tw->level[d].child));
	tw->entered = 0;
}

void
triage_watch_prefix_close(struct triage_watch *tw, uint32_t d,
                          const uint64_t *dur)
{
	const struct triage_sums_spec *spec = tw->spec;
	struct triage_close *c;
	size_t r;

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
sum_add(struct triage_sum *into, struct triage_sum *from, enum clock_index k,
        const uint64_t *at, uint64_t offset)
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
	    (!into->count || from->worst_dur[k] > into->worst_dur[k])) {
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
				sum_add(&into->sums[r], &from->sums[r], k, at,
				        offset);
				added[r] = true;
			}
		if (l->what)
			triage_watch_settle(into, d, dur);
	}
	for (r = 0; r < spec->nrules; r++)
		if (!added[r])
			sum_add(&into->sums[r], &from->sums[r], k, at, offset);
	free(added);
	for (c = 0; c < CLOCK_COUNT; c++)
		into->idle[c] += from->idle[c];
	into->looper |= from->looper;
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
