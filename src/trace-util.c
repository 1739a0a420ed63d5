/*
 * trace-util: helpers every reader needs.
 */
#include "config.h"

#include "trace-util.h"

#include "util-alloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void
trace_warn(const struct trace_sink *sink, uint64_t offset, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (!sink->warning)
		return;
	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	sink->warning(sink->ctx, offset, msg);
	free(msg);
}
