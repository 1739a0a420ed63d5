/*
 * stream-walk: what the streaming reader's walks share: reading the file
 * a window at a time, and the walk that shows the records to a sink
 * ahead of the report (read/stream-ahead.c).  Private to read/stream*.c.
 */
#ifndef TRACETUI_TRACE_STREAM_WALK_H
#define TRACETUI_TRACE_STREAM_WALK_H

#include "read/sink.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

enum {
	STREAM_HEADER = 32,
	STREAM_WINDOW = 1 << 17, /* bytes a walk reads of the file at once:
	                            a window the caches hold */
};

/* Where a walk reads the bytes: the buffer, or the file read into a
 * window over [start, end) of it, when fd is not -1. */
struct walk_bytes {
	const unsigned char *buf;
	size_t len;
	int fd;
	unsigned char *window;
	size_t start, end;
};

/* Read the file into the window from pos on; false on a read error. */
bool stream_window_fill(struct walk_bytes *k, size_t pos);

/* The n bytes at pos (n at most a window, pos + n within the buffer). */
static inline const unsigned char *
walk_at(struct walk_bytes *k, size_t pos, size_t n)
{
	if (k->fd < 0)
		return k->buf + pos;
	if (__builtin_expect(pos < k->start || pos + n > k->end, 0) &&
	    !stream_window_fill(k, pos)) {
		/* The file no longer reads as mapped: the mapping, then. */
		k->fd = -1;
		return k->buf + pos;
	}
	return k->window + (pos - k->start);
}

/* The records shown ahead of the report, on a thread of their own. */
struct stream_ahead {
	pthread_t thread;
	bool started; /* the sink said yes: stream_ahead_finish ends it */
	bool running; /* on the thread (else ahead_end was called) */
	atomic_bool stop;
	struct walk_bytes k;
	struct trace_records shape; /* size, version, clock and total */
	const unsigned char *key;   /* the summary's text */
	size_t key_len;
	const struct trace_sink *sink;
};

/*
 * Offer the sink the records of the streaming file buf[0, len) (fd: the
 * file, or -1) ahead of the report, when the summary, found first at the
 * end or in sec[0, sec_len) (the .sec side file, or NULL), names their
 * clock; stride is the records' size and version the header's.
 */
void stream_ahead_start(struct stream_ahead *a, const unsigned char *buf,
                        size_t len, int fd, unsigned stride, unsigned version,
                        const unsigned char *sec, size_t sec_len,
                        const struct trace_sink *sink);

/* Ask the walk ahead to stop soon (the records will not be reported). */
void stream_ahead_stop(struct stream_ahead *a);

/* Stop the walk ahead and wait for it. */
void stream_ahead_finish(struct stream_ahead *a);

#endif
