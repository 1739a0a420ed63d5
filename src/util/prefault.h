/*
 * prefault: the pages of new memory made present on a thread of their
 * own, just ahead of the threads writing them: on systems where a first
 * touch is dear (zeroing a huge page, or a virtual machine's host
 * backing it), that cost leaves the writers' path, and the memory
 * present at any time stays near what the writers have reached.  The
 * contents are not touched (MADV_POPULATE_WRITE), so writers need no
 * lock.
 */
#ifndef TRACETUI_UTIL_PREFAULT_H
#define TRACETUI_UTIL_PREFAULT_H

#include <stddef.h>

/* A range of memory, written from its start on. */
struct util_range {
	void *base;
	size_t size;
};

struct util_prefault;

/*
 * Start making the n ranges present, each from its start, keeping no
 * more than a sixteenth of each ahead of the share of the work that
 * done(arg) says is done (from 0 to 1), as the writers fill them all at
 * the same pace; NULL when there is nothing to do or no thread or
 * system call for it.
 */
struct util_prefault *util_prefault_start(const struct util_range *ranges,
                                          size_t n, double (*done)(void *),
                                          void *arg);
/* Stop p (which may be NULL), wait for it and release it. */
void util_prefault_finish(struct util_prefault *p);

#endif
