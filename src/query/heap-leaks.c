/*
 * heap-leaks: each class's kind (watcher, Activity, Fragment) is found
 * once by walking its superclasses; then one pass over the instances.
 */
#include "config.h"

#include "query/heap-leaks.h"

#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

/* Whether instance i's boolean field name is true. */
static bool
flag(const struct heap_dump *d, uint32_t i, const char *name)
{
	unsigned type;
	uint64_t v;

	return heap_field(d, i, name, &type, &v) && type == HEAP_T_BOOLEAN && v;
}

/* What a class may leak as (bits): a watcher, an Activity, a Fragment. */
enum { WATCHER = 1, ACTIVITY = 2, FRAGMENT = 4 };

/* Each class's kind, its superclasses walked once per class. */
static uint8_t *
leak_kinds(const struct heap_dump *d)
{
	uint8_t *kind = xcalloc(d->nclasses + 1, 1);
	size_t i;

	for (i = 0; i < d->nclasses; i++) {
		uint32_t c = (uint32_t)i, depth = 0;

		for (; c != HEAP_NONE && depth++ <= d->nclasses;
		     c = d->classes[c].super) {
			const char *n = d->classes[c].name;
			size_t len = strlen(n);

			if (len >= 18 &&
			    strcmp(n + len - 18, "KeyedWeakReference") == 0)
				kind[i] |= WATCHER;
			if (strcmp(n, "android.app.Activity") == 0)
				kind[i] |= ACTIVITY;
			if (strcmp(n, "android.app.Fragment") == 0 ||
			    strcmp(n, "androidx.fragment.app.Fragment") == 0 ||
			    strcmp(n, "android.support.v4.app.Fragment") == 0)
				kind[i] |= FRAGMENT;
		}
	}
	return kind;
}

/* Why object i is a leak suspect, or NULL; *out the object. */
static const char *
suspect(const struct heap_dump *d, const struct heap_dominators *dom,
        uint32_t i, const uint8_t *kind, uint32_t *out)
{
	uint32_t c = d->klass[i], r;
	unsigned type;
	uint64_t v;

	if (heap_tag(d, i) != HEAP_INSTANCE || !kind[c])
		return NULL;
	if (kind[c] & WATCHER) {
		r = heap_referent(d, i);
		if (r != HEAP_NONE && dom->idom[r] != HEAP_NONE) {
			*out = r;
			return "watched by a KeyedWeakReference and still "
			       "strongly reachable";
		}
		return NULL;
	}
	if (dom->idom[i] == HEAP_NONE)
		return NULL;
	*out = i;
	if ((kind[c] & ACTIVITY) &&
	    (flag(d, i, "mDestroyed") || flag(d, i, "mFinished")))
		return "a destroyed Activity (mDestroyed or mFinished)";
	if ((kind[c] & FRAGMENT) &&
	    heap_field(d, i, "mFragmentManager", &type, &v) &&
	    type == HEAP_T_OBJECT && !v)
		return "a Fragment detached from its manager "
		       "(mFragmentManager null)";
	return NULL;
}

void
heap_leaks_find(const struct heap_dump *d, const struct heap_dominators *dom,
                struct heap_leak **out, size_t *n)
{
	uint8_t *kind = leak_kinds(d);
	size_t i, cap = 0;

	*out = NULL;
	*n = 0;
	for (i = 0; i < d->nobjects; i++) {
		uint32_t s;
		const char *why = suspect(d, dom, (uint32_t)i, kind, &s);

		if (!why)
			continue;
		UTIL_GROW(*out, cap, *n + 1);
		(*out)[*n].object = s;
		(*out)[(*n)++].why = why;
	}
	if (!*out)
		*out = xcalloc(1, sizeof(**out));
	free(kind);
}
