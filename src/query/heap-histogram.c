/*
 * heap-histogram: the rows summed in one pass over the objects; the
 * retained column in one walk down the dominator tree that counts, per
 * row, the objects of the row above the node: a node adds its retained
 * size only when that count is 0.
 */
#include "config.h"

#include "query/heap-histogram.h"

#include "util/alloc.h"
#include "util/hash.h"

#include <stdlib.h>
#include <string.h>

/* Whether object i is in a heap shown. */
static bool
is_shown(const struct heap_dump *d, const bool *shown, uint32_t i)
{
	return !shown || shown[heap_of(d, i)];
}

/* How many siblings ahead the walk fetches a node's data. */
enum { AHEAD = 8 };

/* A node of the dominator tree being walked, and its next child. */
struct frame {
	uint32_t node, next;
};

void
heap_histogram_build(struct heap_histogram *h, const struct heap_dump *d,
                     const struct heap_dominators *dom, const bool *shown)
{
	struct heap_row *rows = xcalloc(d->nrows + 1, sizeof(*rows));
	uint32_t *above = xcalloc(d->nrows + 1, sizeof(uint32_t));
	size_t i, n = d->nobjects, sp = 0, cap = 64, r;
	struct frame *stack = xmalloc_large(cap, sizeof(*stack));
	size_t run = 0, k;

	memset(h, 0, sizeof(*h));
	for (i = 0; i < d->nrows; i++)
		rows[i].name = d->rows[i];
	for (i = 0, k = 0; i < n; i++) {
		struct heap_row *row;
		uint64_t s = heap_shallow_in_order(d, (uint32_t)i, &k);

		while (run + 1 < d->nruns && d->runs[run + 1].first <= i)
			run++;
		if (shown && !shown[d->nruns ? d->runs[run].heap : 0])
			continue;
		row = &rows[d->classes[d->klass[i]].row];
		row->instances++;
		row->shallow += s;
	}
	/* Down the dominator tree from the super-root (node n). */
	stack[sp++] = (struct frame){(uint32_t)n, dom->first[n]};
	while (sp) {
		struct frame *f = &stack[sp - 1];
		uint32_t c;

		if (f->next == dom->first[f->node + 1]) {
			if (f->node != n && is_shown(d, shown, f->node))
				above[d->classes[d->klass[f->node]].row]--;
			sp--;
			continue;
		}
		c = dom->children[f->next++];
		/* A sibling's class, size and children, some siblings ahead:
		 * most nodes are leaves, and their misses overlap. */
		if (f->next + AHEAD < dom->first[f->node + 1]) {
			uint32_t s = dom->children[f->next + AHEAD];

			__builtin_prefetch(&d->klass[s]);
			__builtin_prefetch(&dom->retained[s]);
			__builtin_prefetch(&dom->first[s]);
		}
		if (is_shown(d, shown, c)) {
			uint32_t row = d->classes[d->klass[c]].row;

			if (!above[row])
				rows[row].retained += dom->retained[c];
			above[row]++;
		}
		if (sp == cap) {
			cap *= 2;
			stack = xreallocarray(stack, cap, sizeof(*stack));
		}
		stack[sp++] = (struct frame){c, dom->first[c]};
	}
	free(stack);
	free(above);
	for (i = r = 0; i < d->nrows; i++) {
		if (!rows[i].instances)
			continue;
		h->instances += rows[i].instances;
		h->shallow += rows[i].shallow;
		h->retained += rows[i].retained;
		rows[r++] = rows[i];
	}
	h->rows = rows;
	h->nrows = r;
}

void
heap_histogram_done(struct heap_histogram *h)
{
	free(h->rows);
	memset(h, 0, sizeof(*h));
}

/* ---- duplicates ---- */

/* A candidate: an object, the array holding its value, the value's
 * hash. */
struct candidate {
	uint64_t hash;
	uint32_t object, array;
	uint32_t from, len; /* the value's bytes in the array */
	uint8_t is_string;
};

/* The elements of primitive array a, and their length in bytes. */
static const unsigned char *
elements(const struct heap_dump *d, uint32_t a, size_t *len)
{
	const unsigned char *rec = heap_record(d, a);
	unsigned id = d->header.id_size;

	*len = (size_t)heap_u4(rec + 1 + id + 4) *
	       heap_type_size(rec[1 + id + 8], id);
	return rec + 1 + id + 9;
}

static int
by_hash(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;

	if (x->is_string != y->is_string)
		return x->is_string < y->is_string ? 1 : -1;
	return x->hash < y->hash ? -1 : x->hash > y->hash;
}

static int
by_wasted(const void *a, const void *b)
{
	const struct heap_duplicate *x = a, *y = b;

	if (x->wasted != y->wasted)
		return x->wasted < y->wasted ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Whether candidates a and b hold equal values. */
static bool
same_value(const struct heap_dump *d, const struct candidate *a,
           const struct candidate *b)
{
	size_t la, lb;
	const unsigned char *ea = elements(d, a->array, &la) + a->from;
	const unsigned char *eb = elements(d, b->array, &lb) + b->from;
	unsigned id = d->header.id_size;

	return a->len == b->len &&
	       heap_record(d, a->array)[1 + id + 8] ==
	               heap_record(d, b->array)[1 + id + 8] &&
	       memcmp(ea, eb, a->len) == 0;
}

/* A String's text in its value array: all of it, or, where the String
 * has offset and count (Android before 6), that slice of its chars. */
static void
string_slice(const struct heap_dump *d, struct candidate *c)
{
	size_t len;
	unsigned type, esize;
	uint64_t off, count;
	const unsigned char *rec = heap_record(d, c->array);

	elements(d, c->array, &len);
	c->from = 0;
	c->len = (uint32_t)len;
	esize = heap_type_size(rec[1 + d->header.id_size + 8],
	                       d->header.id_size);
	if (heap_field(d, c->object, "offset", &type, &off) &&
	    type == HEAP_T_INT &&
	    heap_field(d, c->object, "count", &type, &count) &&
	    type == HEAP_T_INT && off * esize <= len &&
	    count * esize <= len - off * esize) {
		c->from = (uint32_t)(off * esize);
		c->len = (uint32_t)(count * esize);
	}
}

static int
by_array(const void *a, const void *b)
{
	uint32_t x = ((const struct candidate *)a)->array;
	uint32_t y = ((const struct candidate *)b)->array;

	return (x > y) - (x < y);
}

void
heap_duplicates(const struct heap_dump *d, const bool *shown,
                struct heap_duplicate **out, size_t *nout)
{
	size_t n = d->nobjects, nc = 0, i, j, nd = 0, cap = 0;
	uint8_t *string_value = xcalloc(n + 1, 1);
	struct candidate *c = xmalloc_large(n + 1, sizeof(*c));
	struct heap_duplicate *dup = NULL;

	for (i = 0; i < n; i++) {
		unsigned type;
		uint64_t v;
		uint32_t a;

		if (heap_tag(d, (uint32_t)i) != HEAP_INSTANCE ||
		    strcmp(d->classes[d->klass[i]].dump_name,
		           "java.lang.String") != 0 ||
		    !heap_field(d, (uint32_t)i, "value", &type, &v) ||
		    type != HEAP_T_OBJECT ||
		    (a = heap_find(d, v)) == HEAP_NONE ||
		    heap_tag(d, a) != HEAP_PRIMITIVE_ARRAY)
			continue;
		string_value[a] = 1;
		if (!is_shown(d, shown, (uint32_t)i))
			continue;
		c[nc].object = (uint32_t)i;
		c[nc].array = a;
		c[nc].is_string = 1;
		string_slice(d, &c[nc]);
		nc++;
	}
	for (i = 0; i < n; i++) {
		if (heap_tag(d, (uint32_t)i) != HEAP_PRIMITIVE_ARRAY ||
		    string_value[i] || !heap_array_length(d, (uint32_t)i) ||
		    !is_shown(d, shown, (uint32_t)i))
			continue;
		size_t len;

		c[nc].object = c[nc].array = (uint32_t)i;
		c[nc].is_string = 0;
		elements(d, (uint32_t)i, &len);
		c[nc].from = 0;
		c[nc].len = (uint32_t)len;
		nc++;
	}
	free(string_value);
	for (i = 0; i < nc; i++) {
		size_t len;
		const unsigned char *e = elements(d, c[i].array, &len);

		c[i].hash = hash_block(e + c[i].from, c[i].len) ^
		            (uint64_t)heap_record(
		                    d, c[i].array)[1 + d->header.id_size + 8]
		                    << 56;
	}
	qsort(c, nc, sizeof(*c), by_hash);
	for (i = 0; i < nc; i = j) {
		uint64_t count = 1, arrays = 1, wasted;
		size_t k, m;

		/* Equal values first in the run of equal hashes. */
		for (j = i + 1; j < nc && c[j].hash == c[i].hash &&
		                c[j].is_string == c[i].is_string;
		     j++)
			if (same_value(d, &c[i], &c[j])) {
				struct candidate t = c[i + count];

				c[i + count] = c[j];
				c[j] = t;
				count++;
			}
		if (count < 2)
			continue;
		/* Strings sharing one array waste only their own bytes. */
		wasted = (count - 1) * heap_shallow(d, c[i].object);
		if (c[i].is_string) {
			qsort(c + i, count, sizeof(*c), by_array);
			for (k = i + 1, m = i; k < i + count; k++)
				if (c[k].array != c[m].array) {
					arrays++;
					m = k;
				}
			wasted += (arrays - 1) * heap_shallow(d, c[i].array);
		}
		UTIL_GROW(dup, cap, nd + 1);
		dup[nd].example = c[i].object;
		dup[nd].name = d->classes[d->klass[c[i].object]].name;
		dup[nd].count = count;
		dup[nd].wasted = wasted;
		nd++;
	}
	free(c);
	if (nd > 1)
		qsort(dup, nd, sizeof(*dup), by_wasted);
	*out = dup;
	*nout = nd;
}
