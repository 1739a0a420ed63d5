/*
 * frames: the frames a scope's threads drew, judged against a budget.
 *
 * A frame is an outermost call of a frame method (by default any overload
 * of android.view.Choreographer.doFrame): a call of one with no call of a
 * frame method among its callers.  Any thread that makes them draws.  Its
 * length is its duration on the judging clock (wall when the trace has
 * it, else thread-cpu), cut at the edges of the scope's range as every
 * number is; slow when over the budget, frozen when over 700 ms
 * (Android vitals).  Each frame names the methods with the most
 * exclusive time on the judging clock inside it.  Percentiles are
 * nearest-rank: the value at rank ceil(p / 100 * n) of the sorted lengths.
 */
#ifndef TRACETUI_FRAMES_H
#define TRACETUI_FRAMES_H

#include "model/calltree.h"
#include "model/scope.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The default frame method, as a POSIX extended regular expression over
 * full names ("CLASS.NAME SIGNATURE"). */
#define FRAMES_DEFAULT_METHOD "^android\\.view\\.Choreographer\\.doFrame( |$)"

enum {
	FRAMES_FROZEN_US = 700000, /* frozen: longer than this */
	FRAMES_DEFAULT_HZ = 60,    /* the default budget's refresh rate */
	FRAMES_PERCENTILES = 4,    /* p50, p90, p95, p99 */
};

/* The percentiles a summary holds, in order. */
extern const int frames_percentile_ranks[FRAMES_PERCENTILES];

struct drawn_frame {
	uint32_t call;   /* the frame method's call */
	uint32_t thread; /* thread index */
	uint64_t start;  /* on the judging clock, microseconds (wall: since
	                    the trace start), its first instant in the range */
	uint64_t dur[CLOCK_COUNT];    /* within the range; 0 on a clock the
	                                 trace lacks */
	uint32_t hot[FRAME_HOT];      /* methods; CALL_NONE past the last */
	uint64_t hot_excl[FRAME_HOT]; /* their exclusive time inside it */
};

struct frames {
	struct drawn_frame *frames; /* by thread index, then start */
	size_t count;
	enum clock_index clock; /* the judging clock */
	double budget;          /* microseconds */
	bool sampled;           /* from a sampled recording: estimates */
	uint64_t sample_interval;
};

/* The counts and lengths of a set of frames, microseconds. */
struct frame_summary {
	size_t frames, slow, frozen;
	uint64_t pct[FRAMES_PERCENTILES]; /* p50, p90, p95, p99; 0 if none */
	uint64_t max;
};

/*
 * The frame methods of tree: the methods whose full name matches the
 * extended regular expression re (FRAMES_DEFAULT_METHOD when NULL), as a
 * flag per method; NULL with a message in why (size bytes) when re does
 * not compile.  The caller frees it.
 */
bool *frames_methods(const struct calltree *tree, const char *re, char *why,
                     size_t size);

/* The budget in microseconds of a refresh rate in hertz. */
double frames_budget_of_rate(double hz);

/* No frames yet of tree, judged against budget microseconds, into
 * *out. */
void frames_init(struct frames *out, const struct calltree *tree,
                 double budget);
/* Every frame of scope's threads in tree, frame methods flagged by
 * is_frame, judged against budget microseconds, into *out. */
void frames_find(struct frames *out, const struct calltree *tree,
                 const struct scope *scope, const bool *is_frame,
                 double budget);
/* frames_find without the frames' hot methods (each hot[0] CALL_NONE,
 * unless the load summed them): their calls are not summed. */
void frames_find_unsummed(struct frames *out, const struct calltree *tree,
                          const struct scope *scope, const bool *is_frame,
                          double budget);
/* What a sampled recording's frames count that it cannot tell apart, to
 * be said once, or NULL: without off-CPU samples, the time a thread was
 * off the CPU between two samples of a frame is counted in it. */
const char *frames_offcpu_note(const struct calltree *tree);

/* Release the frames. */
void frames_done(struct frames *fr);

/* Whether frame f is over the budget; over the frozen length. */
bool frames_slow(const struct frames *fr, const struct drawn_frame *f);
bool frames_frozen(const struct frames *fr, const struct drawn_frame *f);
/* How far frame f is over the budget, microseconds rounded; 0 within. */
uint64_t frames_over(const struct frames *fr, const struct drawn_frame *f);

/* The summary of frames [from, from + n) of fr into *s. */
void frames_summarize(const struct frames *fr, size_t from, size_t n,
                      struct frame_summary *s);
/* The nearest-rank percentile p (0 < p <= 100) of sorted[0..n-1]; 0 when
 * n is 0. */
uint64_t frames_percentile(const uint64_t *sorted, size_t n, int p);

/* The threads that drew, in fr's order: first[i] the index of thread i's
 * first frame, with first[count] = fr->count; the thread indexes into
 * threads.  Returns the count; the caller frees both arrays. */
size_t frames_threads(const struct frames *fr, size_t **first,
                      uint32_t **threads);

#endif
