/*
 * frame-sums: what the calls inside a frame sum to, and one thread's
 * frames (model/calltree.h, frame_sum) found by the sums pass as its
 * calls open and close, so that `frames` needs no calls.
 *
 * A frame opens with a call of a frame method when no frame is open and
 * closes with it; every call closed inside it adds its time on the
 * judging clock to its method's exclusive sum and takes it from its
 * caller's, so that at the frame's close each method holds its own time
 * inside the frame (struct hot_sums; query/frames.c sums a frame of the
 * model's calls with the same).  Summed after a split, a frame open
 * below the split point (its start unknown here) is kept open until the
 * join (model/builder-sums.c, build_sums_merge) settles it with the
 * first worker's part.  tests/model-equal compares the frames with
 * query/frames.c's on every fixture, generated and real trace.
 */
#ifndef TRACETUI_FRAME_SUMS_H
#define TRACETUI_FRAME_SUMS_H

#include "model/calltree.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The exclusive times summed inside one frame, by method. */
struct hot_sums {
	int64_t *excl;     /* by method */
	uint32_t *stamp;   /* by method: the frame that last touched it */
	uint32_t *touched; /* the methods touched in this frame */
	size_t ntouched;
	uint32_t frame; /* this frame's stamp, from 1 */
};

/* Empty sums for methods below nmethods. */
void hot_init(struct hot_sums *h, size_t nmethods);
/* Release what h holds. */
void hot_done(struct hot_sums *h);

/* Add v (negative: take) to method m's exclusive time in this frame. */
static inline void
hot_add(struct hot_sums *h, uint32_t m, int64_t v)
{
	if (h->stamp[m] != h->frame) {
		h->stamp[m] = h->frame;
		h->excl[m] = 0;
		h->touched[h->ntouched++] = m;
	}
	h->excl[m] += v;
}

/* The FRAME_HOT methods of most exclusive time (the lower index first
 * on a tie) into hot and excl, CALL_NONE past the last; h starts the
 * next frame's sums. */
void hot_settle(struct hot_sums *h, uint32_t *hot, uint64_t *excl);
/* Add this frame's sums of from to into's. */
void hot_add_all(struct hot_sums *into, const struct hot_sums *from);

enum { FRAME_CLOSED = UINT32_MAX }; /* frame_watch.level: none open */

struct frame_watch {
	const bool *is_frame;   /* by method */
	size_t nmethods;        /* entries of is_frame */
	enum clock_index clock; /* the judging clock */
	bool has_clock[CLOCK_COUNT];
	uint32_t level;    /* stack index of the open frame */
	bool before_split; /* it opened before the split point */
	uint64_t start[CLOCK_COUNT];
	struct hot_sums hot; /* the open frame's; made on the first */
	struct frame_sum *done;
	size_t count, cap;
	/* The frame open at the split point, closed here: its time after
	 * the point and its sums, for the join. */
	bool straddled;
	uint64_t straddle_dur[CLOCK_COUNT];
	struct hot_sums straddle;
};

/* A watch for the frame methods is_frame flags (nmethods of them), on
 * a trace with the clocks has_clock says, judged on wall time when it
 * has it. */
void frame_watch_init(struct frame_watch *fw, const bool *is_frame,
                      size_t nmethods, const bool *has_clock);
/* Release what fw holds. */
void frame_watch_done(struct frame_watch *fw);

/* A frame of method m (below fw->nmethods) opens at stack index level,
 * at `at`: a frame opens when m is a frame method and none is. */
void frame_watch_open(struct frame_watch *fw, uint32_t level,
                      const uint64_t *at);
static inline void
frame_watch_enter(struct frame_watch *fw, uint32_t level, uint32_t m,
                  const uint64_t *at)
{
	if (fw->level == FRAME_CLOSED && fw->is_frame[m])
		frame_watch_open(fw, level, at);
}

/* The frame open at fw->level closes, having lasted dur: settled, or
 * kept for the join when it opened before the split point. */
void frame_watch_settle(struct frame_watch *fw, const uint64_t *dur);

/* The call of method m at stack index level, under a call of method
 * parent, closes, having lasted dur. */
static inline void
frame_watch_close(struct frame_watch *fw, uint32_t level, uint32_t m,
                  uint32_t parent, const uint64_t *dur)
{
	int64_t len;

	if (fw->level == FRAME_CLOSED || level < fw->level)
		return;
	len = (int64_t)dur[fw->clock];
	hot_add(&fw->hot, m, len);
	if (level > fw->level)
		hot_add(&fw->hot, parent, -len);
	else
		frame_watch_settle(fw, dur);
}

/* The frame open (at the seeded stack) is one opened before the split
 * point. */
void frame_watch_seeded(struct frame_watch *fw);

/* Append a settled frame of the given start and durations, its hot
 * methods from fw->hot, which starts the next frame's sums. */
void frame_watch_append(struct frame_watch *fw, const uint64_t *start,
                        const uint64_t *dur);

/* An orphan call (an exit met no frame: a call from the thread's first
 * event, holding every call so far) of a frame method, from start
 * lasting dur: the thread's one frame so far, its sums those of the
 * thread's n rows (methods[i]'s is rows[i]). */
void frame_watch_orphan(struct frame_watch *fw, const uint64_t *start,
                        const uint64_t *dur, const uint32_t *methods,
                        const struct profile_row *rows, size_t n);

/* Hand the frames to *frames and *count; fw keeps none. */
void frame_watch_finish(struct frame_watch *fw, struct frame_sum **frames,
                        size_t *count);

#endif
