/*
 * error: what went wrong while reading a trace, and where.
 *
 * The error owns its message; trace_error_clear releases it.  A reader
 * that fails fills the error once: the first problem wins.
 */
#ifndef TRACETUI_TRACE_ERROR_H
#define TRACETUI_TRACE_ERROR_H

#include <stdbool.h>
#include <stdint.h>

struct trace_error {
	char *message;   /* NULL while nothing went wrong */
	uint64_t offset; /* byte offset in the file the message is about */
	char *path;      /* the file the offset is in, or NULL for the input */
	bool usage;      /* the command line asked the file for what it lacks
	                    (an unknown --sample-type): a usage error */
};

/* Record a problem at offset unless one is already recorded. */
void trace_error_set(struct trace_error *err, uint64_t offset, const char *fmt,
                     ...) __attribute__((format(printf, 3, 4)));
/* Name the file the recorded offset belongs to (copied). */
void trace_error_set_path(struct trace_error *err, const char *path);
/* True when a problem is recorded. */
bool trace_error_isset(const struct trace_error *err);
/* Forget the problem and release its strings. */
void trace_error_clear(struct trace_error *err);

#endif
