/*
 * jobs: running one job per cpu on POSIX threads, for work that
 * splits into independent parts (threads of a trace).
 */
#ifndef TRACETUI_UTIL_JOBS_H
#define TRACETUI_UTIL_JOBS_H

#include <stddef.h>

enum { UTIL_JOBS_MAX = 8 };

/* How many jobs to run at once: the cpus online, from 1 to max (at most
 * UTIL_JOBS_MAX). */
unsigned util_jobs_count(unsigned max);

/*
 * Run fn on each of the n jobs at args, size bytes apart: the first on
 * the calling thread, the others on threads of their own, or, those
 * whose thread cannot be started, on the calling thread before the
 * first; return once all are done.  So the first job may wait for the
 * others to progress, but no other job may wait for another.  n is at
 * most UTIL_JOBS_MAX.
 */
void util_jobs_run(void *(*fn)(void *), void *args, size_t size, unsigned n);

#endif
