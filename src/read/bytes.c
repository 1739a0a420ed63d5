/*
 * bytes: helpers every reader needs.
 */
#include "config.h"

#include "read/bytes.h"

#include "util/alloc.h"

#include <errno.h>
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

bool
trace_read_at(int fd, unsigned char *to, size_t n, uint64_t at)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(fd, to + got, n - got, (off_t)(at + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
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
