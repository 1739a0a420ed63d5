/*
 * sums: per-method sums and caller-callee links (model/calltree.h) of a
 * set of calls, added one closed call at a time.  The profile sums a
 * scope's calls from the model with them; the builder, asked for sums
 * only, sums each thread's calls as it closes them and writes no calls
 * at all.  One function adds a call, so both give the same numbers.
 */
#ifndef TRACETUI_SUMS_H
#define TRACETUI_SUMS_H

#include "model/calltree.h"
#include "util/map.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
	LINK_CACHE = 1024, /* entries of a table's cache */
	LINK_CACHED = 16,  /* links a table has before it gets its cache */
};

struct link_cache_entry {
	uint64_t key_plus_one; /* 0: empty */
	uint32_t link;
};

/* Links being summed, found by their key, in the order first met.  A
 * zeroed table is empty; tables of few links (a thread of a file with
 * thousands of them) go without the cache. */
struct link_table {
	struct profile_link *links;
	size_t count, cap;
	struct util_map index;
	struct link_cache_entry *cache; /* direct-mapped, before index */
};

/* The link of the pair, added with zero sums when first met (t zeroed,
 * or left by link_table_done). */
struct profile_link *link_slot(struct link_table *t, uint32_t parent,
                               uint32_t child, bool child_rec, bool parent_rec);
/* Add the sums of link `from` into the link of its pair in t; the
 * index of that link. */
uint32_t link_table_add(struct link_table *t, const struct profile_link *from);
/* Release the table's index and cache; its links stay with the caller. */
void link_table_done(struct link_table *t);

/*
 * Add dur to the times of a call of row's method (recursive: rec) under
 * parent_row's (NULL at a thread's top level), whose link is link, without
 * counting a call: sums_add_call's times.
 */
static inline void
sums_add_time(struct profile_row *row, struct profile_row *parent_row,
              struct profile_link *link, bool rec, bool parent_rec,
              const uint64_t *dur)
{
	int k;

	for (k = 0; k < CLOCK_COUNT; k++) {
		uint64_t d = dur[k];

		link->incl[k] += d;
		row->excl[k] += d;
		if (!rec) {
			row->incl[k] += d;
			row->top_excl[k] += d;
		}
		if (parent_row) {
			parent_row->excl[k] -= d;
			if (!parent_rec)
				parent_row->top_excl[k] -= d;
		}
	}
}

/*
 * Add one closed call, lasting dur, to its row, its caller's row
 * (parent_row NULL at a thread's top level) and its link.
 */
static inline void
sums_add_call(struct profile_row *row, struct profile_row *parent_row,
              struct profile_link *link, bool rec, bool parent_rec,
              const uint64_t *dur)
{
	if (rec)
		row->rcalls++;
	else
		row->calls++;
	link->calls++;
	sums_add_time(row, parent_row, link, rec, parent_rec, dur);
}

/* Add the sums of row `from` into row `to`. */
static inline void
sums_add_row(struct profile_row *to, const struct profile_row *from)
{
	int k;

	to->calls += from->calls;
	to->rcalls += from->rcalls;
	for (k = 0; k < CLOCK_COUNT; k++) {
		to->incl[k] += from->incl[k];
		to->excl[k] += from->excl[k];
		to->top_excl[k] += from->top_excl[k];
	}
}

#endif
