/*
 * drilldown: the parents and children of one method within a scope
 * (PRODUCT.md section 2), as the rows every front end shows.
 *
 * Four sections: Parents, Children (led by a `self` row, always shown),
 * Parents while recursive and Children while recursive (led by a `self`
 * row of its own, shown when the method has recursive calls); the others
 * are shown when they have rows.  A row holds the summed durations of the
 * calls along its edge, and its share is taken of
 *
 *   Parents, Children        the method's inclusive time (the durations
 *                            of its non-recursive calls);
 *   ... while recursive      the time spent while recursive: the summed
 *                            durations of its recursive calls.
 *
 * Each section adds up to 100% of its base, so no share exceeds 100%,
 * and the two `self` rows (exclusive time of the non-recursive and of
 * the recursive calls) add up to the method's exclusive time.
 */
#ifndef TRACETUI_DRILLDOWN_H
#define TRACETUI_DRILLDOWN_H

#include "model/calltree.h"
#include "query/profile.h"

#include <stdbool.h>
#include <stdint.h>

enum drill_kind {
	DRILL_HEADING, /* the title of a section */
	DRILL_PARENT,
	DRILL_CHILD,
	DRILL_SELF,
};

enum drill_section {
	DRILL_PARENTS,
	DRILL_CHILDREN,
	DRILL_PARENTS_RECURSIVE,
	DRILL_CHILDREN_RECURSIVE,
	DRILL_SECTION_COUNT
};

struct drill_row {
	enum drill_kind kind;
	enum drill_section section;
	/* The edge's other method (CALL_NONE: the top level of a thread);
	 * the examined method for a heading or a self row. */
	uint32_t method;
	uint64_t calls;             /* calls along the edge: n of "n/total" */
	uint64_t of_calls;          /* total: the examined method's calls for a
	                               parent, the child's for a child */
	uint64_t incl[CLOCK_COUNT]; /* along the edge; self: exclusive */
	uint64_t base[CLOCK_COUNT]; /* what the share is taken of */
};

struct drilldown {
	uint32_t method;
	uint64_t incl[CLOCK_COUNT];      /* the method's inclusive time */
	uint64_t recursive[CLOCK_COUNT]; /* its time spent while recursive */
	uint64_t excl[CLOCK_COUNT];      /* its exclusive time */
	struct drill_row *rows;
	size_t nrows;
};

/* The drill-down of method m from profile p (any scope, any range),
 * edges ordered by time on clock k, largest first. */
void drilldown_compute(struct drilldown *out, const struct profile *p,
                       uint32_t m, enum clock_index k);
/* Row r's share of its base on clock k, in percent (0 when the base is
 * 0). */
double drill_share(const struct drill_row *r, enum clock_index k);
/* The title of a section: "Parents", "Children while recursive"... */
const char *drill_section_name(enum drill_section s);
/* Release the rows. */
void drilldown_done(struct drilldown *d);

#endif
