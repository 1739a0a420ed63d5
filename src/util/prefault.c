/*
 * prefault: MADV_POPULATE_WRITE over the ranges a slice at a time, the
 * same slice of every range in turn, each once the work done comes
 * within PREFAULT_AHEAD slices of it.
 */
#include "config.h"

#include "util/prefault.h"

#include "util/alloc.h"
#include "util/thread.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum {
	PREFAULT_SLICES = 64, /* steps over each range */
	PREFAULT_AHEAD = 4,   /* slices made present before they are due */
};

struct util_prefault {
	pthread_t thread;
	struct util_range *ranges;
	size_t n;
	double (*done)(void *);
	void *arg;
	atomic_bool stop;
};

#ifdef MADV_POPULATE_WRITE
/* Make slice s of range r present; false when the system cannot. */
static bool
populate_slice(const struct util_range *r, size_t s, uintptr_t page)
{
	size_t step = r->size / PREFAULT_SLICES;
	uintptr_t from = (uintptr_t)r->base + step * s;
	uintptr_t to = s + 1 == PREFAULT_SLICES ? (uintptr_t)r->base + r->size
	                                        : from + step;

	from &= ~(page - 1); /* the page holding the slice's start */
	return to <= from ||
	       madvise((void *)from, to - from, MADV_POPULATE_WRITE) == 0;
}

static void *
prefault_main(void *arg)
{
	struct util_prefault *p = arg;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	size_t s, i;

	for (s = 0; s < PREFAULT_SLICES; s++) {
		/* Wait until slice s is due, or the writers are done. */
		while (!atomic_load(&p->stop) &&
		       p->done(p->arg) * PREFAULT_SLICES + PREFAULT_AHEAD <
		               (double)s) {
			struct timespec ms = {0, 1000000};

			nanosleep(&ms, NULL);
		}
		if (atomic_load(&p->stop))
			return NULL;
		for (i = 0; i < p->n; i++)
			if (!populate_slice(&p->ranges[i], s, page))
				return NULL; /* not offered here: no harm */
	}
	return NULL;
}
#endif

struct util_prefault *
util_prefault_start(const struct util_range *ranges, size_t n,
                    double (*done)(void *), void *arg)
{
#ifdef MADV_POPULATE_WRITE
	struct util_prefault *p;

	if (!n)
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->ranges = xreallocarray(NULL, n, sizeof(*ranges));
	memcpy(p->ranges, ranges, n * sizeof(*ranges));
	p->n = n;
	p->done = done;
	p->arg = arg;
	atomic_init(&p->stop, false);
	if (!util_thread_start(&p->thread, prefault_main, p)) {
		free(p->ranges);
		free(p);
		return NULL;
	}
	return p;
#else
	(void)ranges;
	(void)n;
	(void)done;
	(void)arg;
	return NULL;
#endif
}

void
util_prefault_finish(struct util_prefault *p)
{
	if (!p)
		return;
	atomic_store(&p->stop, true);
	pthread_join(p->thread, NULL);
	free(p->ranges);
	free(p);
}
