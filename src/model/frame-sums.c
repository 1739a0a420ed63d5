/*
 * frame-sums: a frame's sums are stamped with the frame, so that the
 * next frame starts empty without clearing a table by method; only the
 * methods a frame touched are looked at when it settles.
 */
#include "config.h"

#include "model/frame-sums.h"

#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

void
hot_init(struct hot_sums *h, size_t nmethods)
{
	h->excl = xmalloc((nmethods + 1) * sizeof(*h->excl));
	h->stamp = xcalloc(nmethods + 1, sizeof(*h->stamp));
	h->touched = xmalloc((nmethods + 1) * sizeof(*h->touched));
	h->ntouched = 0;
	h->frame = 1;
}

void
hot_done(struct hot_sums *h)
{
	free(h->excl);
	free(h->stamp);
	free(h->touched);
	memset(h, 0, sizeof(*h));
}

void
hot_settle(struct hot_sums *h, uint32_t *hot, uint64_t *excl)
{
	size_t i;
	int k;

	for (k = 0; k < FRAME_HOT; k++) {
		hot[k] = CALL_NONE;
		excl[k] = 0;
	}
	for (i = 0; i < h->ntouched; i++) {
		uint32_t m = h->touched[i];
		int64_t v = h->excl[m];

		if (v <= 0)
			continue;
		for (k = 0; k < FRAME_HOT; k++) {
			if (hot[k] == CALL_NONE || (uint64_t)v > excl[k] ||
			    ((uint64_t)v == excl[k] && m < hot[k])) {
				memmove(&hot[k + 1], &hot[k],
				        (FRAME_HOT - 1 - k) * sizeof(hot[0]));
				memmove(&excl[k + 1], &excl[k],
				        (FRAME_HOT - 1 - k) * sizeof(excl[0]));
				hot[k] = m;
				excl[k] = (uint64_t)v;
				break;
			}
		}
	}
	h->ntouched = 0;
	h->frame++;
}

void
hot_add_all(struct hot_sums *into, const struct hot_sums *from)
{
	size_t i;

	for (i = 0; i < from->ntouched; i++)
		hot_add(into, from->touched[i], from->excl[from->touched[i]]);
}

void
frame_watch_init(struct frame_watch *fw, const bool *is_frame, size_t nmethods,
                 const bool *has_clock)
{
	memset(fw, 0, sizeof(*fw));
	fw->is_frame = is_frame;
	fw->nmethods = nmethods;
	memcpy(fw->has_clock, has_clock, sizeof(fw->has_clock));
	fw->clock = has_clock[CLOCK_WALL] ? CLOCK_WALL : CLOCK_CPU;
	fw->level = FRAME_CLOSED;
}

void
frame_watch_done(struct frame_watch *fw)
{
	hot_done(&fw->hot);
	hot_done(&fw->straddle);
	free(fw->done);
	memset(fw, 0, sizeof(*fw));
	fw->level = FRAME_CLOSED;
}

void
frame_watch_open(struct frame_watch *fw, uint32_t level, const uint64_t *at)
{
	if (!fw->hot.excl)
		hot_init(&fw->hot, fw->nmethods);
	fw->level = level;
	fw->before_split = false;
	memcpy(fw->start, at, sizeof(fw->start));
}

void
frame_watch_append(struct frame_watch *fw, const uint64_t *start,
                   const uint64_t *dur)
{
	struct frame_sum *f;

	UTIL_GROW(fw->done, fw->cap, fw->count + 1);
	f = &fw->done[fw->count++];
	memcpy(f->start, start, sizeof(f->start));
	memcpy(f->dur, dur, sizeof(f->dur));
	hot_settle(&fw->hot, f->hot, f->hot_excl);
}

void
frame_watch_settle(struct frame_watch *fw, const uint64_t *dur)
{
	if (fw->before_split) {
		struct hot_sums empty = {0};

		/* Its sums go to the join; the next frame's are made anew. */
		fw->straddled = true;
		memcpy(fw->straddle_dur, dur, sizeof(fw->straddle_dur));
		fw->straddle = fw->hot;
		fw->hot = empty;
	} else {
		frame_watch_append(fw, fw->start, dur);
	}
	fw->level = FRAME_CLOSED;
	fw->before_split = false;
}

void
frame_watch_seeded(struct frame_watch *fw)
{
	fw->before_split = fw->level != FRAME_CLOSED;
}

void
frame_watch_orphan(struct frame_watch *fw, const uint64_t *start,
                   const uint64_t *dur, const uint32_t *methods,
                   const struct profile_row *rows, size_t n)
{
	size_t i;

	if (!fw->hot.excl)
		hot_init(&fw->hot, fw->nmethods);
	for (i = 0; i < n; i++)
		hot_add(&fw->hot, methods[i], rows[i].excl[fw->clock]);
	fw->count = 0; /* the frames so far are inside it */
	frame_watch_append(fw, start, dur);
}

void
frame_watch_finish(struct frame_watch *fw, struct frame_sum **frames,
                   size_t *count)
{
	*frames = fw->done;
	*count = fw->count;
	fw->done = NULL;
	fw->count = fw->cap = 0;
}
