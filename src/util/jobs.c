/*
 * jobs: a thread per job but the first, joined before returning.
 */
#include "config.h"

#include "util/jobs.h"

#include "util/thread.h"

#include <pthread.h>
#include <stdbool.h>
#include <unistd.h>

unsigned
util_jobs_count(unsigned max)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (max > UTIL_JOBS_MAX)
		max = UTIL_JOBS_MAX;
	return n < 1 ? 1 : (unsigned)n > max ? max : (unsigned)n;
}

void
util_jobs_run(void *(*fn)(void *), void *args, size_t size, unsigned n)
{
	pthread_t threads[UTIL_JOBS_MAX];
	bool started[UTIL_JOBS_MAX] = {false};
	char *job = args;
	unsigned i;

	for (i = 1; i < n; i++)
		started[i] = util_thread_start(&threads[i], fn, job + i * size);
	/* Those without a thread before the first, which may wait for
	 * them all. */
	for (i = 1; i < n; i++)
		if (!started[i])
			fn(job + i * size);
	fn(job);
	for (i = 1; i < n; i++)
		if (started[i])
			pthread_join(threads[i], NULL);
}
