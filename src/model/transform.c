/*
 * transform: each thread's calls are walked in pre-order with the path
 * of open calls; every call is kept (written to the new model under the
 * nearest kept caller), hidden (its calls go on under its caller) or cut
 * (it and all under it are skipped, and the time after it moves back by
 * its duration).  The kept calls are written straight into the new
 * model's arrays as the walk meets them: the walk's pre-order is the new
 * model's, a kept call's depth is how many kept calls are open, its
 * recursion flag whether its method is among them, and its duration is
 * known when it closes (less the time cut under it).  What the walk does
 * not change (the file's header, methods, threads, anomalies and flags)
 * is copied from the model.  tests/unit-transform.c compares the result,
 * field by field, with the same calls fed as events to a fresh builder.
 */
#include "config.h"

#include "model/transform.h"

#include "util/alloc.h"
#include "util/hash.h"
#include "util/map.h"
#include "util/sort.h"

#include <stdlib.h>
#include <string.h>

/* What became of an open call. */
enum fate {
	FATE_KEEP, /* written to the new model */
	FATE_HIDE, /* left out; its calls go on under its caller */
	FATE_CUT,  /* left out with everything under it */
};

/* The flags a kept call keeps; its recursion is settled anew. */
enum {
	KEPT_FLAGS =
	        CALL_OPEN_AT_END | CALL_ORPHAN | CALL_UNWOUND | CALL_LOST_EXIT
};

/* Calls walked between two questions to stop. */
enum { STOP_EVERY = 1 << 16 };

/* An open call of the walk. */
struct open_call {
	uint32_t call;
	uint32_t method; /* the new model's method, when kept */
	enum fate fate;
	bool on_path; /* focus on a subtree: the path so far matches */
	bool focused; /* at or under a focus root */
	/* When kept: the time cut before it opened, per clock. */
	uint64_t shift_in[CLOCK_COUNT];
};

/* The walk over one model, writing the new one. */
struct walk {
	const struct calltree *tree;
	const struct transform *t;
	struct calltree *out;
	uint32_t *group; /* old method -> new method (grouping kinds) */
	uint32_t *open;  /* new method -> kept frames open */
	struct open_call *stack;
	size_t depth;
	/* The kept calls open, outermost first: new call and method. */
	uint32_t *kept_call, *kept_method;
	uint32_t kept_depth;
	uint64_t shift[CLOCK_COUNT]; /* time cut so far in this thread */
	size_t step[CLOCK_COUNT];    /* the old model's step at the call */
	size_t n;                    /* new calls written */
	uint64_t high[CLOCK_COUNT];  /* the new model's last step */
	struct tt_time_step *steps[CLOCK_COUNT];
	size_t nsteps[CLOCK_COUNT], steps_cap[CLOCK_COUNT];
	struct tt_long_call *longs[CLOCK_COUNT];
	size_t nlongs[CLOCK_COUNT], longs_cap[CLOCK_COUNT];
	struct tt_deep_call *deep;
	size_t ndeep, deep_cap;
	int clocks[CLOCK_COUNT]; /* the clocks the model has */
	int nclocks;
};

/* Whether the transform acts on old method m. */
static bool
selected(const struct walk *w, uint32_t m)
{
	return !w->t->methods || w->t->methods[m];
}

/* Start of old call c on clock k, the calls asked about in order. */
static inline uint64_t
old_start(struct walk *w, size_t c, int k)
{
	const struct tt_calls *calls = &w->tree->calls;
	const struct tt_time_step *steps = calls->steps[k];
	size_t s = w->step[k];

	while (s + 1 < calls->nsteps[k] && steps[s + 1].first_call <= c)
		s++;
	w->step[k] = s;
	return steps[s].high << TIME_LOW_BITS | calls->start[k][c];
}

/* Write old call c, decided kept as o, as the next call of the new
 * model. */
static void
keep(struct walk *w, struct open_call *o, size_t c)
{
	struct tt_calls *out = &w->out->calls;
	size_t j = w->n++;
	uint32_t d = w->kept_depth, m = o->method;
	int i;

	if (out->method16)
		out->method16[j] = (uint16_t)m;
	else
		out->method[j] = m;
	out->flags[j] = (uint8_t)((w->tree->calls.flags[c] & KEPT_FLAGS) |
	                          (w->open[m] ? CALL_RECURSIVE : 0));
	if (d < UINT16_MAX) {
		out->depth[j] = (uint16_t)d;
	} else {
		out->depth[j] = UINT16_MAX;
		UTIL_GROW(w->deep, w->deep_cap, w->ndeep + 1);
		w->deep[w->ndeep++] = (struct tt_deep_call){
		        (uint32_t)j, d, w->kept_call[d - 1]};
	}
	for (i = 0; i < w->nclocks; i++) {
		int k = w->clocks[i];
		uint64_t at = old_start(w, c, k) - w->shift[k];
		uint64_t high = at >> TIME_LOW_BITS;

		if (!w->nsteps[k] || high != w->high[k]) {
			UTIL_GROW(w->steps[k], w->steps_cap[k],
			          w->nsteps[k] + 1);
			w->steps[k][w->nsteps[k]++] =
			        (struct tt_time_step){(uint32_t)j, high};
			w->high[k] = high;
		}
		out->start[k][j] = (uint16_t)at;
		o->shift_in[k] = w->shift[k];
	}
	w->open[m]++;
	w->kept_call[d] = (uint32_t)j;
	w->kept_method[d] = m;
	w->kept_depth++;
}

/* Close the open call on top of the stack. */
static void
pop(struct walk *w)
{
	struct open_call *o = &w->stack[--w->depth];
	struct tt_calls *out = &w->out->calls;
	int i;

	if (o->fate == FATE_KEEP) {
		uint32_t j = w->kept_call[--w->kept_depth];

		w->open[o->method]--;
		for (i = 0; i < w->nclocks; i++) {
			int k = w->clocks[i];
			uint64_t d = calltree_duration(w->tree, o->call,
			                               (enum clock_index)k) -
			             (w->shift[k] - o->shift_in[k]);

			if (d < UINT16_MAX) {
				out->duration[k][j] = (uint16_t)d;
				continue;
			}
			out->duration[k][j] = UINT16_MAX;
			UTIL_GROW(w->longs[k], w->longs_cap[k],
			          w->nlongs[k] + 1);
			w->longs[k][w->nlongs[k]++] =
			        (struct tt_long_call){j, d};
		}
	} else if (o->fate == FATE_CUT) {
		for (i = 0; i < w->nclocks; i++) {
			int k = w->clocks[i];

			w->shift[k] += calltree_duration(w->tree, o->call,
			                                 (enum clock_index)k);
		}
	}
}

/* Decide what becomes of call c (old method m), whose caller is on top
 * of the stack; o is its entry, fate and method to fill. */
static void
decide(struct walk *w, struct open_call *o, uint32_t m)
{
	const struct transform *t = w->t;
	const struct open_call *up = w->depth ? &w->stack[w->depth - 1] : NULL;
	size_t d = w->depth;

	o->fate = FATE_KEEP;
	o->method = w->group ? w->group[m] : m;
	o->on_path = false;
	o->focused = up && up->focused;
	switch (t->kind) {
	case TRANSFORM_FOCUS_SUBTREE:
		o->on_path =
		        d < t->npath && t->path[d] == m && (!up || up->on_path);
		if (o->on_path && d + 1 == t->npath)
			o->focused = true;
		if (!o->focused)
			o->fate = FATE_HIDE;
		break;
	case TRANSFORM_FOCUS_METHOD:
		if (!o->focused) {
			o->focused = selected(w, m);
			o->fate = o->focused ? FATE_KEEP : FATE_HIDE;
			o->on_path = o->focused; /* marks the focus root */
		} else {
			const struct open_call *root = up;

			while (!root->on_path)
				root--;
			if (root->method == m)
				o->fate = FATE_HIDE;
		}
		break;
	case TRANSFORM_MERGE:
		if (selected(w, m))
			o->fate = FATE_HIDE;
		break;
	case TRANSFORM_DROP:
		if (selected(w, m))
			o->fate = FATE_CUT;
		break;
	case TRANSFORM_COLLAPSE_RECURSION:
		if (selected(w, m) && w->open[m])
			o->fate = FATE_HIDE;
		break;
	case TRANSFORM_COLLAPSE_CLASS:
	case TRANSFORM_COLLAPSE_PACKAGE:
		if (!selected(w, m)) {
			o->method = m;
			break;
		}
		if (w->kept_depth &&
		    w->kept_method[w->kept_depth - 1] == o->method)
			o->fate = FATE_HIDE;
		break;
	case TRANSFORM_GROUP_CLASS:
	case TRANSFORM_GROUP_PACKAGE:
		break;
	}
}

/* Walk thread t of the model, writing its kept calls; false when stop
 * said to stop. */
static bool
walk_thread(struct walk *w, size_t t, bool (*stop)(void *), void *arg)
{
	const struct calltree *tree = w->tree;
	const struct tt_thread *th = &tree->threads[t];
	struct tt_thread *to = &w->out->threads[t];
	size_t c, end = (size_t)th->first_call + th->ncalls;
	size_t next_stop = th->first_call + STOP_EVERY;
	int k;

	memset(w->shift, 0, sizeof(w->shift));
	w->depth = 0;
	to->first_call = (uint32_t)w->n;
	to->max_depth = 0;
	for (c = th->first_call; c < end; c++) {
		uint32_t d = calltree_depth(tree, c);
		struct open_call *o;

		if (c >= next_stop) {
			if (stop && stop(arg))
				return false;
			next_stop = c + STOP_EVERY;
		}
		while (w->depth > d)
			pop(w);
		if (w->depth && w->stack[w->depth - 1].fate == FATE_CUT) {
			/* Under a cut call: skip to its end. */
			size_t cut = w->depth - 1;

			while (c + 1 < end && calltree_depth(tree, c + 1) > cut)
				c++;
			continue;
		}
		o = &w->stack[w->depth];
		o->call = (uint32_t)c;
		decide(w, o, calltree_method(tree, c));
		w->depth++;
		if (o->fate == FATE_KEEP) {
			keep(w, o, c);
			if (w->kept_depth > to->max_depth)
				to->max_depth = w->kept_depth;
		}
	}
	while (w->depth)
		pop(w);
	to->ncalls = (uint32_t)(w->n - to->first_call);
	for (k = 0; k < CLOCK_COUNT; k++)
		to->last[k] = th->last[k] - w->shift[k];
	return true;
}

/* s copied into tree's arena; NULL stays NULL. */
static const char *
copy_str(struct calltree *tree, const char *s)
{
	return s ? util_arena_strndup(&tree->arena, s, strlen(s)) : NULL;
}

/* The part of m's class that groups it: the class, or its package (the
 * class up to its last '.' or '/'); its length in *len. */
static const char *
group_key(const struct tt_method *m, bool package, size_t *len)
{
	const char *k = m->klass ? m->klass : "";
	const char *dot = strrchr(k, '.'), *slash = strrchr(k, '/');
	const char *sep = dot > slash ? dot : slash;

	*len = package ? (sep ? (size_t)(sep - k) : 0) : strlen(k);
	return k;
}

/* Method `id` of the new model, named after a class or package. */
static void
add_group_method(struct calltree *out, size_t *cap, uint64_t id,
                 const char *key, size_t len)
{
	struct tt_method *m;

	UTIL_GROW(out->methods, *cap, out->nmethods + 1);
	m = &out->methods[out->nmethods++];
	memset(m, 0, sizeof(*m));
	m->id = id;
	m->klass = len ? util_arena_strndup(&out->arena, key, len)
	               : copy_str(out, "(no package)");
	m->name = copy_str(out, "");
	m->signature = m->name;
	m->line = -1;
	m->defined = true;
}

/* The methods a grouping kind adds, one per class or package, after the
 * model's own (ids from next_id on, four apart), and each old method's
 * in w->group. */
static void
define_groups(struct walk *w, uint64_t next_id, size_t *cap)
{
	const struct calltree *tree = w->tree;
	bool package = w->t->kind == TRANSFORM_COLLAPSE_PACKAGE ||
	               w->t->kind == TRANSFORM_GROUP_PACKAGE;
	struct util_map first; /* key hash -> first group with it */
	uint32_t *chain = NULL, *member = NULL; /* per group */
	size_t ngroups = 0, member_cap = 0, chain_cap = 0, i;

	util_map_init(&first);
	w->group = xreallocarray(NULL, tree->nmethods ? tree->nmethods : 1,
	                         sizeof(*w->group));
	for (i = 0; i < tree->nmethods; i++) {
		size_t len, olen;
		const char *key = group_key(&tree->methods[i], package, &len);
		uint64_t h = hash_bytes(HASH_SEED, key, len);
		uint32_t g = CALL_NONE, head;

		if (util_map_get(&first, h, &head))
			for (g = head; g != CALL_NONE; g = chain[g]) {
				const char *other =
				        group_key(&tree->methods[member[g]],
				                  package, &olen);

				if (olen == len && !memcmp(other, key, len))
					break;
			}
		if (g == CALL_NONE) {
			UTIL_GROW(member, member_cap, ngroups + 1);
			UTIL_GROW(chain, chain_cap, ngroups + 1);
			g = (uint32_t)ngroups++;
			member[g] = (uint32_t)i;
			chain[g] = util_map_get(&first, h, &head) ? head
			                                          : CALL_NONE;
			util_map_put(&first, h, g);
			add_group_method(w->out, cap, next_id + 4 * (uint64_t)g,
			                 key, len);
		}
		w->group[i] = (uint32_t)(tree->nmethods + g);
	}
	util_map_done(&first);
	free(chain);
	free(member);
}

/* A new model holding what tree says of itself, its methods and its
 * threads, without calls. */
static struct calltree *
copy_shell(const struct calltree *tree, size_t *methods_cap)
{
	struct calltree *out = xcalloc(1, sizeof(*out));
	size_t i;

	util_arena_init(&out->arena);
	out->path = xstrdup(tree->path);
	out->header = tree->header;
	memcpy(out->has_clock, tree->has_clock, sizeof(out->has_clock));
	out->sampled = tree->sampled;
	out->sample_interval = tree->sample_interval;
	out->records = tree->records;
	out->anomalies = tree->anomalies;
	out->focused = tree->focused;
	*methods_cap = tree->nmethods + 1;
	out->nmethods = tree->nmethods;
	out->methods = xcalloc(tree->nmethods + 1, sizeof(*out->methods));
	for (i = 0; i < tree->nmethods; i++) {
		const struct tt_method *m = &tree->methods[i];
		struct tt_method *to = &out->methods[i];

		*to = *m;
		to->klass = copy_str(out, m->klass);
		to->name = copy_str(out, m->name);
		to->signature = copy_str(out, m->signature);
		to->file = copy_str(out, m->file);
	}
	out->nthreads = tree->nthreads;
	out->threads = xcalloc(tree->nthreads + 1, sizeof(*out->threads));
	for (i = 0; i < tree->nthreads; i++) {
		out->threads[i] = tree->threads[i];
		out->threads[i].name = copy_str(out, tree->threads[i].name);
	}
	out->nproperties = tree->nproperties;
	out->properties =
	        xcalloc(tree->nproperties + 1, sizeof(*out->properties));
	for (i = 0; i < tree->nproperties; i++) {
		out->properties[i].key = copy_str(out, tree->properties[i].key);
		out->properties[i].value =
		        copy_str(out, tree->properties[i].value);
	}
	out->nwarnings = tree->nwarnings;
	out->warnings = xcalloc(tree->nwarnings + 1, sizeof(*out->warnings));
	for (i = 0; i < tree->nwarnings; i++) {
		out->warnings[i].offset = tree->warnings[i].offset;
		out->warnings[i].message =
		        copy_str(out, tree->warnings[i].message);
	}
	return out;
}

/* Order long calls by call. */
static int
by_call_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Release the side tables the walk made. */
static void
free_side_tables(struct walk *w)
{
	int k;

	for (k = 0; k < CLOCK_COUNT; k++) {
		free(w->steps[k]);
		free(w->longs[k]);
	}
	free(w->deep);
}

/* Give the new model's call arrays, sized for every old call, the n
 * calls written, and its side tables. */
static void
finish_calls(struct walk *w)
{
	struct tt_calls *c = &w->out->calls;
	size_t n = w->n;
	int k;

	if (!n) {
		calltree_free_calls(w->out);
		free_side_tables(w);
		calltree_index_depths(w->out);
		return;
	}
	if (n < c->count) {
		if (c->method16)
			c->method16 = xreallocarray(c->method16, n,
			                            sizeof(*c->method16));
		else
			c->method =
			        xreallocarray(c->method, n, sizeof(*c->method));
		c->depth = xreallocarray(c->depth, n, sizeof(*c->depth));
		c->flags = xreallocarray(c->flags, n, sizeof(*c->flags));
		for (k = 0; k < CLOCK_COUNT; k++) {
			if (!c->start[k])
				continue;
			c->start[k] = xreallocarray(c->start[k], n,
			                            sizeof(*c->start[k]));
			c->duration[k] = xreallocarray(c->duration[k], n,
			                               sizeof(*c->duration[k]));
		}
		c->count = n;
	}
	for (k = 0; k < CLOCK_COUNT; k++) {
		sort_items(w->longs[k], w->nlongs[k], sizeof(*w->longs[k]),
		           by_call_cmp);
		c->steps[k] = w->steps[k];
		c->nsteps[k] = w->nsteps[k];
		c->longs[k] = w->longs[k];
		c->nlongs[k] = w->nlongs[k];
	}
	c->deep = w->deep;
	c->ndeep = w->ndeep;
	calltree_index_times(w->out);
	calltree_index_depths(w->out);
}

struct calltree *
transform_apply_until(const struct calltree *tree, const struct transform *t,
                      bool (*stop)(void *arg), void *arg)
{
	struct walk w = {.tree = tree, .t = t};
	size_t i, methods_cap, count = tree->calls.count;
	size_t room = (size_t)tree->max_depth + 2;
	uint64_t next_id = 0;
	bool stopped = false;
	int k;

	w.out = copy_shell(tree, &methods_cap);
	for (i = 0; i < tree->nmethods; i++)
		if (tree->methods[i].id >= next_id)
			next_id = (tree->methods[i].id | 3) + 1;
	if (t->kind >= TRANSFORM_COLLAPSE_CLASS)
		define_groups(&w, next_id, &methods_cap);
	for (k = 0; k < CLOCK_COUNT; k++)
		if (tree->has_clock[k] && tree->calls.start[k])
			w.clocks[w.nclocks++] = k;
	calltree_alloc_calls(w.out, count, w.out->nmethods <= UINT16_MAX);
	w.open = xcalloc(w.out->nmethods + 1, sizeof(*w.open));
	w.stack = xreallocarray(NULL, room, sizeof(*w.stack));
	w.kept_call = xreallocarray(NULL, room, sizeof(*w.kept_call));
	w.kept_method = xreallocarray(NULL, room, sizeof(*w.kept_method));
	for (i = 0; i < tree->nthreads && !stopped; i++)
		stopped = !walk_thread(&w, i, stop, arg);
	free(w.stack);
	free(w.kept_call);
	free(w.kept_method);
	free(w.open);
	free(w.group);
	if (stopped) {
		free_side_tables(&w);
		calltree_free(w.out);
		return NULL;
	}
	finish_calls(&w);
	w.out->focused = tree->focused || t->kind == TRANSFORM_FOCUS_SUBTREE ||
	                 t->kind == TRANSFORM_FOCUS_METHOD;
	return w.out;
}

struct calltree *
transform_apply(const struct calltree *tree, const struct transform *t)
{
	return transform_apply_until(tree, t, NULL, NULL);
}
