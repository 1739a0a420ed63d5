/*
 * profile-same: comparing profile answers in the unit tests.
 */
#ifndef TRACETUI_TESTS_PROFILE_SAME_H
#define TRACETUI_TESTS_PROFILE_SAME_H

#include "query/profile.h"

#include <stdbool.h>
#include <stddef.h>

/* True when edge lists a[0..na) and b[0..nb) are equal, entry by entry. */
static inline bool
same_edges(const struct profile_edge *a, size_t na,
           const struct profile_edge *b, size_t nb)
{
	size_t i;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++)
		if (a[i].method != b[i].method ||
		    a[i].recursive != b[i].recursive ||
		    a[i].calls != b[i].calls || a[i].incl[0] != b[i].incl[0] ||
		    a[i].incl[1] != b[i].incl[1])
			return false;
	return true;
}

#endif
