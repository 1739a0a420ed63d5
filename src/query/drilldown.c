/*
 * drilldown: the rows are sums of the profile's caller-callee links,
 * split by whether the examined method's call was recursive: a link
 * into the method is a parent row, a link out of it a child row.  The
 * durations of the method's non-recursive calls add up to its inclusive
 * time, and split into their callees' durations and the non-recursive
 * calls' exclusive time; the same holds for its recursive calls, whose
 * summed durations are the time spent while recursive.  So each section
 * adds up to 100% of its base and no row exceeds it.
 */
#include "config.h"

#include "query/drilldown.h"

#include "util/alloc.h"
#include "util/map.h"

#include <stdlib.h>
#include <string.h>

/* The rows of one section, found by method. */
struct section {
	struct drill_row *rows;
	size_t count, cap;
	struct util_map index; /* method -> row */
};

static struct drill_row *
section_row(struct section *s, enum drill_kind kind, enum drill_section sec,
            uint32_t method)
{
	uint32_t *slot = util_map_slot(&s->index, method, CALL_NONE);

	if (*slot == CALL_NONE) {
		struct drill_row *r;

		UTIL_GROW(s->rows, s->cap, s->count + 1);
		r = &s->rows[s->count];
		memset(r, 0, sizeof(*r));
		r->kind = kind;
		r->section = sec;
		r->method = method;
		*slot = (uint32_t)s->count++;
	}
	return &s->rows[*slot];
}

struct builder {
	struct section sections[DRILL_SECTION_COUNT];
	uint64_t self[2][CLOCK_COUNT]; /* [recursive] */
};

static void
builder_init(struct builder *b)
{
	int s;

	memset(b, 0, sizeof(*b));
	for (s = 0; s < DRILL_SECTION_COUNT; s++)
		util_map_init(&b->sections[s].index);
}

static int
row_cmp(const void *a, const void *b, void *clock)
{
	const struct drill_row *x = a, *y = b;
	enum clock_index k = *(const enum clock_index *)clock;

	if (x->incl[k] != y->incl[k])
		return x->incl[k] > y->incl[k] ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return x->method < y->method ? -1 : x->method > y->method;
}

static void
push(struct drilldown *out, size_t *cap, const struct drill_row *r)
{
	UTIL_GROW(out->rows, *cap, out->nrows + 1);
	out->rows[out->nrows++] = *r;
}

/* Lay the sections out into out, each sorted on clock k, with the
 * shares' bases, n/total's totals and the self rows. */
static void
builder_finish(struct builder *b, struct drilldown *out,
               const struct profile *p, uint32_t m, enum clock_index k,
               bool recursive)
{
	size_t cap = 0, i;
	int s, c;

	for (s = 0; s < DRILL_SECTION_COUNT; s++) {
		struct section *sec = &b->sections[s];
		bool rec = s == DRILL_PARENTS_RECURSIVE ||
		           s == DRILL_CHILDREN_RECURSIVE;
		bool kids =
		        s == DRILL_CHILDREN || s == DRILL_CHILDREN_RECURSIVE;
		struct drill_row head = {DRILL_HEADING,
		                         (enum drill_section)s,
		                         m,
		                         0,
		                         0,
		                         {0},
		                         {0}};

		util_map_done(&sec->index);
		/* Children always show self; recursive children when the
		 * method has recursive calls. */
		if (!sec->count && !(kids && (!rec || recursive))) {
			free(sec->rows);
			continue;
		}
		if (sec->count > 1)
			qsort_r(sec->rows, sec->count, sizeof(*sec->rows),
			        row_cmp, &k);
		push(out, &cap, &head);
		if (kids) {
			struct drill_row self = {
			        DRILL_SELF, (enum drill_section)s, m, 0, 0, {0},
			        {0}};

			memcpy(self.incl, b->self[rec], sizeof(self.incl));
			push(out, &cap, &self);
		}
		for (i = 0; i < sec->count; i++)
			push(out, &cap, &sec->rows[i]);
		free(sec->rows);
	}
	for (i = 0; i < out->nrows; i++) {
		struct drill_row *r = &out->rows[i];
		bool rec = r->section == DRILL_PARENTS_RECURSIVE ||
		           r->section == DRILL_CHILDREN_RECURSIVE;

		for (c = 0; c < CLOCK_COUNT; c++)
			r->base[c] = rec ? out->recursive[c] : out->incl[c];
		if (r->kind == DRILL_PARENT)
			r->of_calls = p->rows[m].calls + p->rows[m].rcalls;
		else if (r->kind == DRILL_CHILD)
			r->of_calls = p->rows[r->method].calls +
			              p->rows[r->method].rcalls;
	}
}

void
drilldown_compute(struct drilldown *out, const struct profile *p, uint32_t m,
                  enum clock_index k)
{
	const struct profile_row *row = &p->rows[m];
	struct builder b;
	size_t i;
	int c;

	memset(out, 0, sizeof(*out));
	out->method = m;
	memcpy(out->incl, row->incl, sizeof(out->incl));
	memcpy(out->excl, row->excl, sizeof(out->excl));
	builder_init(&b);
	for (c = 0; c < CLOCK_COUNT; c++) {
		b.self[0][c] = row->top_excl[c];
		b.self[1][c] = row->excl[c] - row->top_excl[c];
	}
	for (i = 0; i < p->nlinks; i++) {
		const struct profile_link *l = &p->links[i];
		struct drill_row *r;

		if (l->child == m) {
			enum drill_section s = l->child_recursive
			                               ? DRILL_PARENTS_RECURSIVE
			                               : DRILL_PARENTS;

			r = section_row(&b.sections[s], DRILL_PARENT, s,
			                l->parent);
			r->calls += l->calls;
			for (c = 0; c < CLOCK_COUNT; c++) {
				r->incl[c] += l->incl[c];
				if (l->child_recursive)
					out->recursive[c] += l->incl[c];
			}
		}
		if (l->parent == m) {
			enum drill_section s =
			        l->parent_recursive ? DRILL_CHILDREN_RECURSIVE
			                            : DRILL_CHILDREN;

			r = section_row(&b.sections[s], DRILL_CHILD, s,
			                l->child);
			r->calls += l->calls;
			for (c = 0; c < CLOCK_COUNT; c++)
				r->incl[c] += l->incl[c];
		}
	}
	builder_finish(&b, out, p, m, k, row->rcalls != 0);
}

double
drill_share(const struct drill_row *r, enum clock_index k)
{
	return r->base[k] ? 100.0 * (double)r->incl[k] / (double)r->base[k]
	                  : 0.0;
}

const char *
drill_section_name(enum drill_section s)
{
	static const char *const names[] = {
	        "Parents",
	        "Children",
	        "Parents while recursive",
	        "Children while recursive",
	};

	return (unsigned)s < DRILL_SECTION_COUNT ? names[s] : "";
}

void
drilldown_done(struct drilldown *d)
{
	free(d->rows);
	memset(d, 0, sizeof(*d));
}
