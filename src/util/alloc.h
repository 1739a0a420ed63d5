/*
 * alloc: allocation that never returns NULL, and growable arrays.
 *
 * On allocation failure every function calls util_alloc_failure_hook
 * with the size it needed; main.c installs one that restores the
 * terminal, says how much was needed and exits with status 5.  Without a
 * hook (or if it returns) the program aborts with a message.  So callers
 * never test for NULL.  Memory returned here is owned by the caller.
 */
#ifndef TRACETUI_UTIL_ALLOC_H
#define TRACETUI_UTIL_ALLOC_H

#include <stdarg.h>
#include <stddef.h>

/* Called with the bytes needed (SIZE_MAX: more than can be addressed)
 * when an allocation fails; NULL for none.  Meant not to return. */
extern void (*util_alloc_failure_hook)(size_t size);

/* malloc that aborts on failure; size 0 returns a unique pointer. */
void *xmalloc(size_t size);
/* calloc that aborts on failure or on nmemb * size overflow. */
void *xcalloc(size_t nmemb, size_t size);
/* realloc of nmemb * size bytes that aborts on failure or overflow. */
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
/* Copy of the len bytes at s, NUL-terminated. */
char *xstrndup(const char *s, size_t len);
/* xreallocarray(NULL, nmemb, size) for a large array written soon after:
 * backed by huge pages where the system offers them, to take fewer page
 * faults. */
void *xmalloc_large(size_t nmemb, size_t size);
/* xcalloc for a large array read or written at random: huge pages as
 * xmalloc_large, each taken (zeroed) only where first touched. */
void *xcalloc_large(size_t nmemb, size_t size);
/* xreallocarray for a large array growing as it is written: huge pages
 * as xmalloc_large where the block takes 8 MiB or more (a smaller one
 * would take a whole huge page for its first bytes). */
void *xrealloc_large(void *ptr, size_t nmemb, size_t size);
/* How many entries of an array being filled, filled so far, to make
 * present ahead at once (util_populate): as many again, so that a small
 * array stays small, from 4096 to most. */
size_t util_ahead(size_t filled, size_t most);
/* Make the pages of the bytes [p, p + bytes) of a block present at once,
 * their contents unchanged (a new block's stay zero): where a first
 * touch of each page is dear (a virtual machine's shadow page tables),
 * one call for many pages is not, with huge pages fewer still. */
void util_populate(void *p, size_t bytes);
/* Give the whole pages of [from, to), inside one block this file gave,
 * back to the system: bytes there are not read again before the block
 * is freed (they would read as zeros).  For a large array consumed front
 * to back, whose pages need not wait for its end. */
void util_release_pages(void *from, void *to);
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
