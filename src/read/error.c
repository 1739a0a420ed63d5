/*
 * error: the first problem recorded wins, later ones are dropped so
 * the message names the root cause.
 */
#include "config.h"

#include "read/error.h"

#include "util/alloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void
trace_error_set(struct trace_error *err, uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	if (!err || err->message)
		return;
	va_start(ap, fmt);
	err->message = xvasprintf(fmt, ap);
	va_end(ap);
	err->offset = offset;
}

void
trace_error_set_path(struct trace_error *err, const char *path)
{
	if (!err || err->path)
		return;
	err->path = xstrdup(path);
}

bool
trace_error_isset(const struct trace_error *err)
{
	return err && err->message;
}

void
trace_error_clear(struct trace_error *err)
{
	free(err->message);
	free(err->path);
	err->message = NULL;
	err->path = NULL;
	err->offset = 0;
	err->usage = false;
}
