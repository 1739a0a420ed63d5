/*
 * sampling: threads with too few events to show an interval do not vote.
 */
#include "config.h"

#include "model/sampling.h"

#include <string.h>

enum {
	SAMPLING_MIN_EVENTS = 8,    /* events a thread needs to vote */
	SAMPLING_MIN_INTERVAL = 100 /* us: Firefox Profiler's threshold */
};

void
sampling_verdict_init(struct sampling_verdict *v)
{
	memset(v, 0, sizeof(*v));
}

void
sampling_verdict_add(struct sampling_verdict *v, const struct sampling_probe *p)
{
	if (p->events < SAMPLING_MIN_EVENTS || !p->min_step)
		return;
	v->threads++;
	v->min_step_sum += p->min_step;
	if (!v->min_step || p->min_step < v->min_step)
		v->min_step = p->min_step;
	v->events += p->events;
	v->same_time += p->same_time;
}

uint64_t
sampling_verdict_interval(const struct sampling_verdict *v)
{
	return v->min_step;
}

bool
sampling_verdict_sampled(const struct sampling_verdict *v)
{
	if (!v->threads)
		return false;
	/* Mostly shared timestamps, and no step shorter than an interval. */
	return v->min_step_sum / v->threads >= SAMPLING_MIN_INTERVAL &&
	       v->same_time * 4 >= v->events;
}
