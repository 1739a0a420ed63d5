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
#include <string.h>
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

size_t
trace_name_len(const char *s, size_t n)
{
	size_t len = n, i;

	for (i = 0; i < n; i++)
		len += !s[i];
	return len;
}

/* Write the name s[0, n) into to, as trace_name_dup says. */
static void
name_into(char *to, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i]) {
			*to++ = s[i];
		} else {
			*to++ = '\xC0';
			*to++ = '\x80';
		}
	}
	*to = '\0';
}

char *
trace_name_dup(const char *s, size_t n)
{
	char *out = xmalloc(trace_name_len(s, n) + 1);

	name_into(out, s, n);
	return out;
}

const char *
trace_name_keep(struct util_arena *arena, const char *s, size_t n)
{
	char *out;

	if (!memchr(s, 0, n))
		return util_arena_strndup(arena, s, n);
	out = trace_name_dup(s, n);
	s = util_arena_strndup(arena, out, strlen(out));
	free(out);
	return s;
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
