/*
 * alloc: allocation that ends the program through the failure hook (or
 * aborts) on failure, so no caller handles NULL.
 */
#include "config.h"

#include "util/alloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void (*util_alloc_failure_hook)(size_t size);

static void
out_of_memory(size_t size)
{
	if (util_alloc_failure_hook)
		util_alloc_failure_hook(size);
	fprintf(stderr, "tracetui: out of memory (allocating %zu bytes)\n",
	        size);
	abort();
}

void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		out_of_memory(size);
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p;

	if (size && nmemb > SIZE_MAX / size)
		out_of_memory(SIZE_MAX);
	p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		out_of_memory(nmemb * size);
	return p;
}

void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	void *p;

	if (size && nmemb > SIZE_MAX / size)
		out_of_memory(SIZE_MAX);
	p = realloc(ptr, nmemb * size != 0 ? nmemb * size : 1);
	if (!p)
		out_of_memory(nmemb * size);
	return p;
}

char *
xstrndup(const char *s, size_t len)
{
	char *p = xmalloc(len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xvasprintf(const char *fmt, va_list ap)
{
	va_list copy;
	int len;
	char *p;

	va_copy(copy, ap);
	len = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (len < 0)
		len = 0;
	p = xmalloc((size_t)len + 1);
	va_copy(copy, ap);
	vsnprintf(p, (size_t)len + 1, fmt, copy);
	va_end(copy);
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

void
util_grow(void **ptr, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 2;

	while (n < need) {
		if (n > SIZE_MAX / 2)
			out_of_memory(SIZE_MAX);
		n *= 2;
	}
	*ptr = xreallocarray(*ptr, n, size);
	*cap = n;
}

/* Ask for huge pages behind the whole 2 MiB pages of [p, p + bytes). */
static void
advise_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
	uintptr_t huge = (uintptr_t)2 << 20;
	uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	uintptr_t b = ((uintptr_t)p + bytes) & ~(huge - 1);

	if (b > a)
		madvise((void *)a, b - a, MADV_HUGEPAGE);
#else
	(void)p;
	(void)bytes;
#endif
}

void *
xmalloc_large(size_t nmemb, size_t size)
{
	void *p = xreallocarray(NULL, nmemb, size);

	advise_huge(p, nmemb * size);
	return p;
}

void *
xrealloc_large(void *ptr, size_t nmemb, size_t size)
{
	void *p = xreallocarray(ptr, nmemb, size);

	if (nmemb * size >= (size_t)8 << 20)
		advise_huge(p, nmemb * size);
	return p;
}

size_t
util_ahead(size_t filled, size_t most)
{
	size_t n = filled < most ? filled : most;

	return n > 4096 ? n : 4096;
}

void
util_populate(void *p, size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)p & ~(page - 1);
	uintptr_t b = (uintptr_t)p + bytes;

	if (b > a)
		madvise((void *)a, b - a, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)bytes;
#endif
}

void *
xcalloc_large(size_t nmemb, size_t size)
{
	void *p = xcalloc(nmemb, size);

	advise_huge(p, nmemb * size);
	return p;
}

void
util_release_pages(void *from, void *to)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = ((uintptr_t)from + page - 1) & ~(page - 1);
	uintptr_t b = (uintptr_t)to & ~(page - 1);

	/* Whole pages inside the block: the allocator's own words lie
	 * before and after it, and it may write (not read) its first. */
	if (b > a)
		madvise((void *)a, b - a, MADV_DONTNEED);
}
