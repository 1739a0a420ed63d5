/*
 * thread: the one door through which the program starts a POSIX thread.
 * A thread may fail to start (no memory for its stack, a process limit):
 * every caller runs the work on its own thread instead, or does without
 * it, and never waits for a thread that did not start.
 */
#ifndef TRACETUI_UTIL_THREAD_H
#define TRACETUI_UTIL_THREAD_H

#include <pthread.h>
#include <stdbool.h>

/*
 * Start fn(arg) on a new thread into *thread: false when it could not be
 * started.  For the tests, the environment's TRACETUI_TEST_THREADS=N
 * lets only the first N threads of the process start.
 */
bool util_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg);

/* For the tests: let only the next n threads start (-1: any number),
 * over what TRACETUI_TEST_THREADS said. */
void util_thread_allow(long n);

#endif
