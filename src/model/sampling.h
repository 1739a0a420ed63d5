/*
 * sampling: tell a sampling-mode recording from an instrumented one
 * (FORMAT.md section 6).  Nothing in the file says which it is; a sampler
 * writes every event of one sample with the same timestamp and samples at
 * a fixed interval, so per thread many consecutive events share a time and
 * the smallest step between distinct times is the interval (>= 100 us),
 * where method tracing shows steps of a few microseconds.
 */
#ifndef TRACETUI_SAMPLING_H
#define TRACETUI_SAMPLING_H

#include <stdbool.h>
#include <stdint.h>

/* What one thread's event times look like. */
struct sampling_probe {
	uint64_t events;
	uint64_t same_time; /* events at the same time as the previous one */
	uint64_t prev;
	uint64_t min_step; /* smallest positive step, 0 before any */
};

/* The votes of all threads. */
struct sampling_verdict {
	uint64_t threads;
	uint64_t min_step_sum;
	uint64_t min_step; /* the smallest of the threads' smallest steps */
	uint64_t events;
	uint64_t same_time;
};

/* Account one event time (non-decreasing within the thread). */
static inline void
sampling_probe_add(struct sampling_probe *p, uint64_t time)
{
	if (p->events) {
		uint64_t step = time - p->prev;

		if (!step)
			p->same_time++;
		else if (!p->min_step || step < p->min_step)
			p->min_step = step;
	}
	p->prev = time;
	p->events++;
}

/* An empty verdict. */
void sampling_verdict_init(struct sampling_verdict *v);
/* Add one thread's probe. */
void sampling_verdict_add(struct sampling_verdict *v,
                          const struct sampling_probe *p);
/* True when the trace looks sampled. */
bool sampling_verdict_sampled(const struct sampling_verdict *v);
/* The sampling interval the voting threads show, in the trace's time
 * unit: a sampled thread's steps are whole intervals (or more), so the
 * smallest step of any of them; 0 when none voted. */
uint64_t sampling_verdict_interval(const struct sampling_verdict *v);

#endif
