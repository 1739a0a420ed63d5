/*
 * triage-sums: what triage's rules (query/triage.h) take from one
 * thread's calls, found by the sums pass as they open and close, so that
 * `triage` needs no calls: per rule, the union of the outermost calls
 * its pattern matches (an open match's stack index says which calls are
 * inside it), their idle time, and the longest of them with its path
 * from the open frames at its close; per blocked rule the calls whose
 * exclusive wall time less cpu time meets its WHEN, exclusive times
 * summed as the calls close; the frames (outermost calls of frame
 * methods), each one's cause (candidates kept while it is open: the
 * application calls lasting half of it so far) and the hot rules'
 * exclusive cpu per application method inside it.
 *
 * What only the model can judge stops the pass (the sums fail and the
 * model is built): a call the spec marks TRIAGE_ASK_STOP (a startup
 * phase's), a looper inside an open match (the match would be left out,
 * and the matches inside it count), an orphan of a frame method.  An
 * orphan (an exit that meets no frame: a call from the thread's first
 * event holding every call so far) becomes a rule's one match unless it
 * holds a looper, goes on top of the paths that reach the root, shows
 * the cause of every blocked call so far when a cause rule matches it,
 * and is a blocked rule's call of exclusive time its own less what it
 * adopts.  After a split, the frames opened before it that close after
 * it are settled at the join; a frame open at a split point drops the
 * split.  query/triage-stream.c makes the spec and turns the sums into
 * findings; tests/triage-stream.sh compares them with the model's.
 */
#ifndef TRACETUI_TRIAGE_SUMS_H
#define TRACETUI_TRIAGE_SUMS_H

#include "model/calltree.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a call of a method asks of the pass, per method. */
enum {
	TRIAGE_ASK_UNION = 1 << 0,    /* a union rule's pattern matches */
	TRIAGE_ASK_BLOCKED = 1 << 1,  /* a blocked rule's */
	TRIAGE_ASK_IDLE = 1 << 2,     /* idle: MessageQueue.nativePollOnce */
	TRIAGE_ASK_LOOPER = 1 << 3,   /* Looper.loop, ActivityThread.main */
	TRIAGE_ASK_DISPATCH = 1 << 4, /* Handler.dispatchMessage */
	TRIAGE_ASK_STOP = 1 << 5,     /* only the model can judge it */
	TRIAGE_ASK_FRAME = 1 << 6,    /* a frame method */
	TRIAGE_ASK_APP = 1 << 7,      /* an application's: frames' causes,
	                                 hot rules */
};

enum { TRIAGE_NO_FRAME = UINT32_MAX }; /* triage_watch.frame: none open */

/* What the rules ask, for the methods of a model as its records begin;
 * index [1] of a pair is the main thread's, [0] the others'. */
struct triage_sums_spec {
	size_t nmethods; /* the methods of the tables */
	size_t nrules, nwords;
	const uint64_t *match; /* nwords per method: a bit per rule */
	const uint8_t *ask[2]; /* per method: TRIAGE_ASK_ flags */
	/* Per word of match: the union, blocked and cause rules that
	 * apply, and the rules that leave idle time out. */
	const uint64_t *union_on[2], *blocked_on[2], *cause_on[2];
	const uint64_t *no_idle;
	/* The least wall time of a call a blocked rule can count. */
	uint64_t blocked_floor[2];
	/* Whether blocked rule r's WHEN holds for a call off the CPU for
	 * `off` microseconds. */
	bool (*blocked_holds)(const void *arg, size_t r, uint64_t off);
	const void *arg;
	enum clock_index clock; /* the judging clock */
	/* The clock each rule's longest call is judged on. */
	const uint8_t *worst_clock;
	/* Per word of match: the hot-frame rules that apply; the least cpu
	 * time of a frame they can count anything in; whether rule r's
	 * WHEN holds for a method's exclusive cpu in a frame. */
	const uint64_t *hot_on[2];
	uint64_t hot_floor[2];
	bool (*hot_holds)(const void *arg, size_t r, uint64_t cpu);
	bool has_main;
	uint32_t main_tid;
};

/* A call open on the thread: what closing it settles. */
struct triage_level {
	uint32_t method;
	uint8_t what;
	uint64_t start; /* on the judging clock */
	uint64_t index; /* its place in the thread's entry order */
	uint64_t child[CLOCK_COUNT];
};

/* A frame opened before the split, closed after it: its stack index,
 * its time after the split, its children's, and per rule the count so
 * far (where it comes among the calls counted after the split). */
struct triage_close {
	uint32_t level;
	uint64_t dur[CLOCK_COUNT], child[CLOCK_COUNT];
	uint64_t *counts;
};

/* An application call in the open frame that may be its cause. */
struct triage_cause {
	uint32_t method, depth;
	uint64_t start, dur; /* on the judging clock */
};

/* The exclusive times summed inside the open frame by method, for the
 * hot rules, and each method's call of most exclusive cpu. */
struct triage_hot {
	uint64_t *cpu, *wall, *best_cpu, *best_start, *first;
	uint32_t **path; /* the best call's, from dispatchMessage down */
	size_t *npath;
	bool *at_root;
	uint32_t *stamp, *touched;
	size_t ntouched;
	uint32_t span;
};

struct triage_watch {
	const struct triage_sums_spec *spec;
	bool is_main;
	const uint8_t *ask;
	uint64_t entered; /* calls entered so far */
	uint64_t orphans; /* orphans so far */
	struct triage_level *level;
	size_t level_cap;
	uint32_t *open;         /* per rule: the open outermost match's stack
	                           index, or UINT32_MAX */
	size_t nopen;           /* rules with an open match */
	size_t ncause_open;     /* of them, cause rules of the thread */
	uint64_t first_index;   /* entry index of the first call */
	uint64_t blocked_floor; /* the spec's, of the thread */
	bool at_end;            /* the calls closing are open at the end */
	/* Summed after a split: the frames at the bottom of the stack were
	 * opened before it (their starts unknown here); `seeded` were
	 * given, `prefix` are still open, and `closes` are those closed,
	 * in order, settled at the join. */
	uint32_t seeded, prefix;
	struct triage_close *closes;
	size_t ncloses, closes_cap;
	/* Since the thread began: the idle calls' time, and whether a
	 * looper was called (an orphan over it holds it). */
	uint64_t idle[CLOCK_COUNT];
	bool looper;
	struct triage_sum *sums; /* per rule */
	/* The open frame's stack index (TRIAGE_NO_FRAME: none), start, and
	 * the candidates for its cause; the frames so far. */
	uint32_t frame;
	uint64_t frame_start;
	struct triage_cause *causes;
	size_t ncauses, causes_cap;
	struct triage_frame *frames;
	size_t nframes, frames_cap;
	bool hot;               /* hot-frame rules count on the thread */
	struct triage_hot *acc; /* made at the first frame, with hot */
};

/* A watch of the thread tid by spec. */
void triage_watch_init(struct triage_watch *tw,
                       const struct triage_sums_spec *spec, uint32_t tid);
/* Release what tw holds (its sums too, unless handed on). */
void triage_watch_done(struct triage_watch *tw);
/* Hand the per-rule sums to the caller (spec->nrules of them). */
struct triage_sum *triage_watch_finish(struct triage_watch *tw);

/* What closing an open call settles (struct triage_level, what). */
enum {
	TRIAGE_WHAT_UNION = 1,   /* it opened a rule's outermost match */
	TRIAGE_WHAT_IDLE = 2,    /* idle: out of the no-idle matches around */
	TRIAGE_WHAT_BLOCKED = 4, /* a blocked rule's, its cause not visible */
	TRIAGE_WHAT_CAUSE = 8,   /* an application's in a frame */
	TRIAGE_WHAT_HOT = 16,    /* and its exclusive times a hot rule's */
	TRIAGE_WHAT_FRAME = 32,  /* a frame */
};

/* What the call at stack index d of method m asks, opening at `at`
 * (its level set); false when only the model can judge the thread. */
bool triage_watch_open(struct triage_watch *tw, uint32_t d, uint32_t m,
                       const uint64_t *at);
/* Room for stack index d. */
void triage_watch_reserve(struct triage_watch *tw, uint32_t d);
/* The call at stack index d of method m opens at `at`; false when only
 * the model can judge the thread.  Most calls ask nothing, or only
 * whether they are blocked (a blocked rule's method matched by no cause
 * rule: spec's ask says so alone). */
static inline bool
triage_watch_enter(struct triage_watch *tw, uint32_t d, uint32_t m,
                   const uint64_t *at)
{
	struct triage_level *l;
	uint8_t ask;

	if (__builtin_expect(d >= tw->level_cap, 0))
		triage_watch_reserve(tw, d);
	if (__builtin_expect(m >= tw->spec->nmethods, 0))
		return false;
	ask = tw->ask[m];
	l = &tw->level[d];
	l->method = m;
	l->what = 0;
	l->start = at[tw->spec->clock];
	l->index = tw->first_index + tw->entered++;
	if (__builtin_expect(!ask, 1) ||
	    (ask == TRIAGE_ASK_APP && tw->frame == TRIAGE_NO_FRAME))
		return true;
	if (ask == TRIAGE_ASK_BLOCKED) {
		if (!tw->ncause_open) {
			l->what = TRIAGE_WHAT_BLOCKED;
			l->child[0] = l->child[1] = 0;
		}
		return true;
	}
	return triage_watch_open(tw, d, m, at);
}

/* An exit of method m met no frame: a call from the thread's first
 * event (its start `start` on the judging clock), lasting dur, that
 * holds every call so far (the top-level ones lasting adopted); false when only
 * the model can judge it. */
bool triage_watch_orphan(struct triage_watch *tw, uint32_t m, uint64_t start,
                         const uint64_t *dur, const uint64_t *adopted);
/* The frames open (entered with the times of the split) were opened
 * before the split; false when only one pass can sum them (a frame is
 * open). */
bool triage_watch_seeded(struct triage_watch *tw);
/* Whether from, summed after a split, can be joined: no frame open. */
bool triage_watch_joinable(const struct triage_watch *from);
/* Hand the frames found to the caller (*count of them). */
struct triage_frame *triage_watch_frames(struct triage_watch *tw,
                                         size_t *count);
/*
 * Join to `into` (at the split) what `from` summed after it: before[d]
 * is the time before the split of the frame at stack index d of the
 * ones from was seeded with, at[] the clocks at the split.  Then into's
 * frames from from->prefix up are from's.
 */
void triage_watch_join(struct triage_watch *into, struct triage_watch *from,
                       const uint64_t (*before)[CLOCK_COUNT],
                       const uint64_t *at);
/* A frame opened before the split closes after it, at stack index d. */
void triage_watch_prefix_close(struct triage_watch *tw, uint32_t d,
                               const uint64_t *dur);
/* The call at stack index d, with something to settle, closes. */
void triage_watch_settle(struct triage_watch *tw, uint32_t d,
                         const uint64_t *dur);
/* The call at stack index d closes, having lasted dur. */
static inline void
triage_watch_close(struct triage_watch *tw, uint32_t d, const uint64_t *dur)
{
	int k;

	if (d && tw->level[d - 1].what)
		for (k = 0; k < CLOCK_COUNT; k++)
			tw->level[d - 1].child[k] += dur[k];
	if (__builtin_expect(d < tw->prefix, 0))
		triage_watch_prefix_close(tw, d, dur);
	else if (__builtin_expect(tw->level[d].what, 0) &&
	         (tw->level[d].what != TRIAGE_WHAT_BLOCKED ||
	          dur[CLOCK_WALL] >= tw->blocked_floor))
		triage_watch_settle(tw, d, dur);
}

#endif
