/*
 * bytes: helpers every reader needs.
 */
#include "config.h"

#include "read/bytes.h"

#include "util/alloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

void
trace_release_mapped(const unsigned char *from, const unsigned char *to)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = ((uintptr_t)from + page - 1) & ~(page - 1);
	uintptr_t b = (uintptr_t)to & ~(page - 1);

	if (b > a)
		madvise((void *)a, b - a, MADV_DONTNEED);
}

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
