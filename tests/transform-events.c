/*
 * transform-events: the transform as it was first written, the kept
 * calls fed as events to a fresh builder, kept as the oracle that
 * model/transform.c's direct build is compared with, field by field
 * (tests/unit-transform.c).
 */
#include "config.h"

#include "transform-events.h"

#include "util/alloc.h"
#include "util/hash.h"
#include "util/map.h"

#include <stdlib.h>
#include <string.h>

/* What became of an open call. */
enum fate {
	FATE_KEEP, /* entered in the new model */
	FATE_HIDE, /* left out; its calls go on under its caller */
	FATE_CUT,  /* left out with everything under it */
};

/* An open call of the walk. */
struct open_call {
	uint32_t call;
	uint32_t method; /* the new model's method, when kept */
	enum fate fate;
	bool on_path; /* focus on a subtree: the path so far matches */
	bool focused; /* at or under a focus root */
};

/* The walk over one model. */
struct walk {
	const struct calltree *tree;
	const struct transform *t;
	const struct trace_sink *sink;
	uint64_t *ids;   /* new method index -> id fed to the builder */
	uint32_t *group; /* old method -> new method (grouping kinds) */
	uint32_t *open;  /* new method -> kept frames open */
	struct open_call *stack;
	size_t depth;
	uint64_t shift[CLOCK_COUNT]; /* time cut so far in this thread */
	uint32_t *origin;            /* per kept call: the old call */
	size_t nkept, kept_cap;
};

/* Whether the transform acts on old method m. */
static bool
selected(const struct walk *w, uint32_t m)
{
	return !w->t->methods || w->t->methods[m];
}

/* Feed one event for new method m of thread t at old times c's edge. */
static void
feed(struct walk *w, uint32_t tid, uint32_t m, enum trace_action action,
     size_t c)
{
	const struct calltree *tree = w->tree;
	uint64_t at[CLOCK_COUNT] = {0, 0};
	int k;

	for (k = 0; k < CLOCK_COUNT; k++)
		if (tree->has_clock[k])
			at[k] = (action == TRACE_ENTER
			                 ? calltree_start(tree, c, k)
			                 : calltree_end(tree, c, k)) -
			        w->shift[k];
	w->sink->event(w->sink->ctx, tid, w->ids[m], action, at[CLOCK_CPU],
	               at[CLOCK_WALL]);
}

/* Close the open call on top of the stack. */
static void
pop(struct walk *w, uint32_t tid)
{
	struct open_call *o = &w->stack[--w->depth];
	int k;

	if (o->fate == FATE_KEEP) {
		feed(w, tid, o->method, TRACE_EXIT, o->call);
		w->open[o->method]--;
	} else if (o->fate == FATE_CUT)
		for (k = 0; k < CLOCK_COUNT; k++)
			if (w->tree->has_clock[k])
				w->shift[k] +=
				        calltree_duration(w->tree, o->call, k);
}

/* The nearest kept call below the top, or NULL. */
static const struct open_call *
kept_caller(const struct walk *w)
{
	size_t i = w->depth;

	while (i--)
		if (w->stack[i].fate == FATE_KEEP)
			return &w->stack[i];
	return NULL;
}

/* Decide what becomes of call c (old method m), whose caller is on top
 * of the stack; o is its entry, fate and method to fill. */
static void
decide(struct walk *w, struct open_call *o, uint32_t m)
{
	const struct transform *t = w->t;
	const struct open_call *up = w->depth ? &w->stack[w->depth - 1] : NULL;
	const struct open_call *kept;
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
		kept = kept_caller(w);
		if (kept && kept->method == o->method)
			o->fate = FATE_HIDE;
		break;
	case TRANSFORM_GROUP_CLASS:
	case TRANSFORM_GROUP_PACKAGE:
		break;
	}
}

/* Walk thread t of the model, feeding its kept calls. */
static void
walk_thread(struct walk *w, size_t t)
{
	const struct calltree *tree = w->tree;
	const struct tt_thread *th = &tree->threads[t];
	size_t c, end = (size_t)th->first_call + th->ncalls;

	memset(w->shift, 0, sizeof(w->shift));
	w->depth = 0;
	for (c = th->first_call; c < end; c++) {
		uint32_t d = calltree_depth(tree, c);
		struct open_call *o;

		while (w->depth > d)
			pop(w, th->tid);
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
			feed(w, th->tid, o->method, TRACE_ENTER, c);
			w->open[o->method]++;
			UTIL_GROW(w->origin, w->kept_cap, w->nkept + 1);
			w->origin[w->nkept++] = (uint32_t)c;
		}
	}
	while (w->depth)
		pop(w, th->tid);
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

/* The methods a grouping kind adds, one per class or package, after the
 * model's own: fed to the builder, and each old method's in w->group. */
static size_t
define_groups(struct walk *w, uint64_t next_id)
{
	const struct calltree *tree = w->tree;
	bool package = w->t->kind == TRANSFORM_COLLAPSE_PACKAGE ||
	               w->t->kind == TRANSFORM_GROUP_PACKAGE;
	struct util_map first; /* key hash -> first group with it */
	uint32_t *chain = NULL, *member = NULL; /* per group */
	size_t ngroups = 0, cap = 0, chain_cap = 0, i;

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
			struct trace_method_def def = {0};
			char *name = xstrndup(key, len);

			UTIL_GROW(member, cap, ngroups + 1);
			UTIL_GROW(chain, chain_cap, ngroups + 1);
			g = (uint32_t)ngroups++;
			member[g] = (uint32_t)i;
			chain[g] = util_map_get(&first, h, &head) ? head
			                                          : CALL_NONE;
			util_map_put(&first, h, g);
			def.id = next_id + 4 * (uint64_t)g;
			def.klass = *name ? name : "(no package)";
			def.name = "";
			def.signature = "";
			def.line = -1;
			w->sink->method(w->sink->ctx, &def);
			free(name);
		}
		w->group[i] = (uint32_t)(tree->nmethods + g);
	}
	util_map_done(&first);
	free(chain);
	free(member);
	return ngroups;
}

/* What the builder cannot know, copied from the model it came from. */
static void
copy_back(struct calltree *out, const struct calltree *tree,
          const struct walk *w, const uint64_t (*cut)[CLOCK_COUNT])
{
	size_t t, i, j = 0;
	int k;

	out->header = tree->header;
	out->sampled = tree->sampled;
	out->records = tree->records;
	out->anomalies = tree->anomalies;
	for (i = 0; i < tree->nmethods && i < out->nmethods; i++)
		out->methods[i].defined = tree->methods[i].defined;
	for (t = 0; t < tree->nthreads && t < out->nthreads; t++) {
		out->threads[t].defined = tree->threads[t].defined;
		out->threads[t].nevents = tree->threads[t].nevents;
		for (k = 0; k < CLOCK_COUNT; k++) {
			out->threads[t].first[k] = tree->threads[t].first[k];
			out->threads[t].last[k] =
			        tree->threads[t].last[k] - cut[t][k];
		}
	}
	for (t = 0; t < out->nthreads; t++) {
		const struct tt_thread *th = &out->threads[t];

		for (i = th->first_call; i < th->first_call + th->ncalls;
		     i++, j++)
			out->calls.flags[i] |= tree->calls.flags[w->origin[j]] &
			                       (CALL_OPEN_AT_END | CALL_ORPHAN |
			                        CALL_UNWOUND | CALL_LOST_EXIT);
	}
}

struct calltree *
transform_apply_events(const struct calltree *tree, const struct transform *t)
{
	struct calltree_builder *b = calltree_builder_new(tree->path);
	struct walk w = {.tree = tree, .t = t};
	struct trace_header header = tree->header;
	uint64_t next_id = 0, (*cut)[CLOCK_COUNT];
	struct calltree *out;
	size_t i, nnew = 0;

	w.sink = calltree_builder_sink(b);
	calltree_builder_keep_cpu(b);
	header.time_bits = 64;
	w.sink->begin(w.sink->ctx, &header);
	for (i = 0; i < tree->nproperties; i++)
		w.sink->property(w.sink->ctx, tree->properties[i].key,
		                 tree->properties[i].value);
	for (i = 0; i < tree->nwarnings; i++)
		w.sink->warning(w.sink->ctx, tree->warnings[i].offset,
		                tree->warnings[i].message);
	for (i = 0; i < tree->nthreads; i++)
		w.sink->thread(w.sink->ctx, tree->threads[i].tid,
		               tree->threads[i].name);
	for (i = 0; i < tree->nmethods; i++) {
		const struct tt_method *m = &tree->methods[i];
		struct trace_method_def def = {m->id,        m->klass, m->name,
		                               m->signature, m->file,  m->line};

		w.sink->method(w.sink->ctx, &def);
		if (m->id >= next_id)
			next_id = (m->id | 3) + 1;
	}
	if (t->kind >= TRANSFORM_COLLAPSE_CLASS)
		nnew = define_groups(&w, next_id);
	w.ids = xreallocarray(NULL, tree->nmethods + nnew + 1, sizeof(*w.ids));
	w.open = xcalloc(tree->nmethods + nnew + 1, sizeof(*w.open));
	for (i = 0; i < tree->nmethods; i++)
		w.ids[i] = tree->methods[i].id;
	for (i = 0; i < nnew; i++)
		w.ids[tree->nmethods + i] = next_id + 4 * (uint64_t)i;
	w.stack = xreallocarray(NULL, (size_t)tree->max_depth + 2,
	                        sizeof(*w.stack));
	cut = xcalloc(tree->nthreads + 1, sizeof(*cut));
	for (i = 0; i < tree->nthreads; i++) {
		walk_thread(&w, i);
		memcpy(cut[i], w.shift, sizeof(w.shift));
	}
	out = calltree_builder_finish(b);
	if (out->nthreads == tree->nthreads)
		copy_back(out, tree, &w, (const uint64_t(*)[CLOCK_COUNT])cut);
	out->focused = tree->focused || t->kind == TRANSFORM_FOCUS_SUBTREE ||
	               t->kind == TRANSFORM_FOCUS_METHOD;
	free(cut);
	free(w.stack);
	free(w.open);
	free(w.ids);
	free(w.group);
	free(w.origin);
	return out;
}
