/*
 * thread: pthread_create, and a test setting that makes it fail.
 */
#include "config.h"

#include "util/thread.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>

/* Threads the tests still let start: -1 for any number, -2 unread. */
static atomic_long allowed = -2;

/* Read TRACETUI_TEST_THREADS once: how many threads may start. */
static long
limit(void)
{
	long n = atomic_load(&allowed);

	if (n == -2) {
		const char *s = getenv("TRACETUI_TEST_THREADS");
		char *end;
		long want = -1;

		if (s && *s) {
			want = strtol(s, &end, 10);
			if (*end || want < 0)
				want = -1;
		}
		/* The first to read it sets it; the others keep theirs. */
		atomic_compare_exchange_strong(&allowed, &n, want);
		n = atomic_load(&allowed);
	}
	return n;
}

void
util_thread_allow(long n)
{
	limit(); /* the environment read first, so it cannot undo this */
	atomic_store(&allowed, n < 0 ? -1 : n);
}

bool
util_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	long n = limit();

	while (n >= 0) {
		if (n == 0)
			return false;
		if (atomic_compare_exchange_weak(&allowed, &n, n - 1))
			break;
	}
	return pthread_create(thread, NULL, fn, arg) == 0;
}
