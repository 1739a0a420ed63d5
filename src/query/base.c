/*
 * base: BASE's distinct methods are copied (class, name, signature) and
 * sorted by identity; its call paths are renumbered to those keys, and
 * every method of the trace shown is looked up once.
 */
#include "config.h"

#include "query/base.h"

#include "model/identity.h"
#include "query/profile.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "util/sort.h"

#include <stdlib.h>
#include <string.h>

struct base_compare {
	struct tt_method *keys; /* sorted by identity, distinct */
	size_t nkeys;
	struct util_arena names;       /* the keys' strings */
	uint64_t (*incl)[CLOCK_COUNT]; /* per key */
	uint64_t (*excl)[CLOCK_COUNT];
	struct callpath paths[2]; /* top-down, bottom-up; methods are keys */
	uint32_t *key_of; /* per method of the trace shown, or CALL_NONE */
};

static int
key_cmp(const void *a, const void *b)
{
	return identity_cmp(a, b);
}

/* The index of m among b's keys, or CALL_NONE. */
static uint32_t
key_index(const struct base_compare *b, const struct tt_method *m)
{
	const struct tt_method *at =
	        b->nkeys ? bsearch(m, b->keys, b->nkeys, sizeof(*b->keys),
	                           key_cmp)
	                 : NULL;

	return at ? (uint32_t)(at - b->keys) : CALL_NONE;
}

static const char *
copy(struct util_arena *a, const char *s)
{
	return util_arena_strndup(a, s, strlen(s));
}

struct base_compare *
base_compare_new(const struct calltree *tree, const struct calltree *base)
{
	struct base_compare *b = xcalloc(1, sizeof(*b));
	struct profile prof;
	struct scope all;
	uint32_t *key_of;
	size_t m, n, i;
	int k;

	util_arena_init(&b->names);
	scope_init_all(&all, base);
	profile_compute(&prof, base, &all);
	b->keys = xcalloc(base->nmethods + 1, sizeof(*b->keys));
	for (m = 0; m < base->nmethods; m++) {
		const struct tt_method *bm = &base->methods[m];

		if (!profile_row_used(&prof, m))
			continue;
		b->keys[b->nkeys].klass = copy(&b->names, bm->klass);
		b->keys[b->nkeys].name = copy(&b->names, bm->name);
		b->keys[b->nkeys].signature = copy(&b->names, bm->signature);
		b->nkeys++;
	}
	sort_items(b->keys, b->nkeys, sizeof(*b->keys), key_cmp);
	for (i = n = 0; i < b->nkeys; i++)
		if (!n || identity_cmp(&b->keys[n - 1], &b->keys[i]))
			b->keys[n++] = b->keys[i];
	b->nkeys = n;
	b->incl = xcalloc(n + 1, sizeof(*b->incl));
	b->excl = xcalloc(n + 1, sizeof(*b->excl));
	key_of = xcalloc(base->nmethods + 1, sizeof(*key_of));
	for (m = 0; m < base->nmethods; m++) {
		key_of[m] = CALL_NONE;
		if (!profile_row_used(&prof, m))
			continue;
		key_of[m] = key_index(b, &base->methods[m]);
		for (k = 0; k < CLOCK_COUNT; k++) {
			b->incl[key_of[m]][k] += prof.rows[m].incl[k];
			b->excl[key_of[m]][k] += prof.rows[m].excl[k];
		}
	}
	callpath_build_whole(&b->paths[0], base, &all, false);
	/* Keyed before inverting: the bottom-up tree's nodes, made when
	 * a path is looked up, are named by key too. */
	for (i = 1; i < b->paths[0].count; i++)
		if (callpath_is_method(&b->paths[0].nodes[i]))
			b->paths[0].nodes[i].method =
			        key_of[b->paths[0].nodes[i].method];
	callpath_invert(&b->paths[1], &b->paths[0]);
	free(key_of);
	profile_done(&prof);
	scope_done(&all);
	b->key_of = xcalloc(tree->nmethods + 1, sizeof(*b->key_of));
	for (m = 0; m < tree->nmethods; m++)
		b->key_of[m] = key_index(b, &tree->methods[m]);
	return b;
}

void
base_compare_rekey(struct base_compare *b, const struct calltree *tree)
{
	size_t m;

	free(b->key_of);
	b->key_of = xcalloc(tree->nmethods + 1, sizeof(*b->key_of));
	for (m = 0; m < tree->nmethods; m++)
		b->key_of[m] = key_index(b, &tree->methods[m]);
}

void
base_compare_free(struct base_compare *b)
{
	if (!b)
		return;
	free(b->keys);
	util_arena_done(&b->names);
	free(b->incl);
	free(b->excl);
	callpath_done(&b->paths[0]);
	callpath_done(&b->paths[1]);
	free(b->key_of);
	free(b);
}

bool
base_compare_method(const struct base_compare *b, uint32_t m,
                    uint64_t incl[CLOCK_COUNT], uint64_t excl[CLOCK_COUNT])
{
	uint32_t key;

	if (!b || m == CALL_NONE || (key = b->key_of[m]) == CALL_NONE)
		return false;
	memcpy(incl, b->incl[key], sizeof(b->incl[key]));
	memcpy(excl, b->excl[key], sizeof(b->excl[key]));
	return true;
}

size_t
base_compare_keys(const struct base_compare *b)
{
	return b ? b->nkeys : 0;
}

uint32_t
base_compare_key_of(const struct base_compare *b, uint32_t m)
{
	return b && m != CALL_NONE ? b->key_of[m] : CALL_NONE;
}

const struct tt_method *
base_compare_key(const struct base_compare *b, uint32_t key,
                 uint64_t incl[CLOCK_COUNT], uint64_t excl[CLOCK_COUNT])
{
	memcpy(incl, b->incl[key], sizeof(b->incl[key]));
	memcpy(excl, b->excl[key], sizeof(b->excl[key]));
	return &b->keys[key];
}

bool
base_compare_path(struct base_compare *b, const struct callpath *p, uint32_t n,
                  bool inverted, uint64_t incl[CLOCK_COUNT])
{
	struct callpath *bp;
	uint32_t *keys, len, at, i;
	bool found = true;

	if (!b || !n)
		return false;
	bp = &b->paths[inverted];
	len = p->nodes[n].depth;
	keys = xcalloc((size_t)len + 1, sizeof(*keys));
	for (at = n; at != 0; at = p->nodes[at].parent) {
		uint32_t m = p->nodes[at].method;

		keys[p->nodes[at].depth - 1] =
		        !callpath_is_method(&p->nodes[at]) ? m : b->key_of[m];
	}
	for (i = 0, at = 0; found && i < len; i++) {
		uint32_t ch;

		callpath_expand(bp, at);
		ch = bp->nodes[at].first_child;

		while (ch != CALL_NONE && (keys[i] == CALL_NONE ||
		                           bp->nodes[ch].method != keys[i]))
			ch = bp->nodes[ch].next_sibling;
		found = ch != CALL_NONE;
		at = ch;
	}
	free(keys);
	if (found)
		memcpy(incl, bp->nodes[at].incl, sizeof(bp->nodes[at].incl));
	return found;
}
