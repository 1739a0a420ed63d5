/*
 * drilldown: the parents and children of one method within a scope
 * (PRODUCT.md section 2), as the rows every front end shows.
 *
 * Four sections, each present when it has rows: Parents, Children (led
 * by a `self` row, always present), Parents while recursive and Children
 * while recursive (led by a `self` row of its own).  A row's time along
 * its edge counts each stretch of time once: a call is left out of it
 * when a call on the same edge encloses it, so that no row exceeds what
 * its share is taken of:
 *
 *   Parents, Children        the method's inclusive time;
 *   ... while recursive      the time spent while recursive: the summed
 *                            durations of the method's recursive calls
 *                            that no recursive call of it encloses.
 *
 * The two `self` rows (exclusive time of the non-recursive and of the
 * recursive calls) add up to the method's exclusive time.
 */
#ifndef TRACETUI_DRILLDOWN_H
#define TRACETUI_DRILLDOWN_H

#include "model/calltree.h"
#include "model/scope.h"
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
	uint64_t calls;    /* calls along the edge: n of "n/total" */
	uint64_t of_calls; /* total: the examined method's calls for a
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

/*
 * The drill-down of method m within scope, whose profile is p, edges
 * ordered by time on clock k.  A method without recursive calls is read
 * from p's links; one with them from the scope's calls.
 */
void drilldown_compute(struct drilldown *out, const struct calltree *tree,
                       const struct scope *scope, const struct profile *p,
                       uint32_t m, enum clock_index k);
/* The same rows always from the scope's calls (p gives the call counts
 * of n/total). */
void drilldown_from_calls(struct drilldown *out, const struct calltree *tree,
                          const struct scope *scope, const struct profile *p,
                          uint32_t m, enum clock_index k);
/* Row r's share of its base on clock k, in percent (0 when the base is
 * 0); never above 100. */
double drill_share(const struct drill_row *r, enum clock_index k);
/* The title of a section: "Parents", "Children while recursive"... */
const char *drill_section_name(enum drill_section s);
/* Release the rows. */
void drilldown_done(struct drilldown *d);

#endif
