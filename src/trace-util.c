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
trace_warn(const struct trace_sink *sink, uint64_t offset, const char *fmt,
	   ...)
{
	va_list ap;
	char *msg;
	int len;

	if (!sink->warning)
		return;
	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		len = 0;
	msg = xmalloc((size_t)len + 1);
	va_start(ap, fmt);
	vsnprintf(msg, (size_t)len + 1, fmt, ap);
	va_end(ap);
	sink->warning(sink->ctx, offset, msg);
	free(msg);
}
