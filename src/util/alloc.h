/*
 * alloc: allocation that never returns NULL, and growable arrays.
 *
 * Every function aborts the program with a message on allocation failure
 * (after the terminal layer has restored the screen through the hook), so
 * callers never test for NULL.  Memory returned here is owned by the caller.
 */
#ifndef TRACETUI_UTIL_ALLOC_H
#define TRACETUI_UTIL_ALLOC_H

#include <stdarg.h>
#include <stddef.h>

/* Called once before aborting on allocation failure; NULL for none. */
extern void (*util_alloc_failure_hook)(void);

/* malloc that aborts on failure; size 0 returns a unique pointer. */
void *xmalloc(size_t size);
/* calloc that aborts on failure or on nmemb * size overflow. */
void *xcalloc(size_t nmemb, size_t size);
/* realloc of nmemb * size bytes that aborts on failure or overflow. */
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
/* Copy of the len bytes at s, NUL-terminated. */
char *xstrndup(const char *s, size_t len);
/* Copy of the NUL-terminated string s. */
char *xstrdup(const char *s);
/* printf into a newly allocated string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* vprintf into a newly allocated string (ap is left unused). */
char *xvasprintf(const char *fmt, va_list ap)
        __attribute__((format(printf, 1, 0)));

/*
 * Make room for at least `need` elements of `size` bytes in *ptr whose
 * capacity is *cap, growing geometrically.
 */
void util_grow(void **ptr, size_t *cap, size_t need, size_t size);

#define UTIL_GROW(ptr, cap, need)                                              \
	do {                                                                   \
		if ((size_t)(need) > (cap))                                    \
			util_grow((void **)&(ptr), &(cap), (need),             \
			          sizeof(*(ptr)));                             \
	} while (0)

#endif
