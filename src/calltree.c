/*
 * calltree: the builder is a trace_sink.  Per thread it keeps a stack of
 * open calls and a count of each method on that stack (so recursion is an
 * O(1) question), unwraps 32-bit times, rebases thread-cpu time and clamps
 * backward steps.  Calls are appended in entry order; at the end they are
 * moved, with one counting-sort permutation, into per-thread pre-order.
 *
 * An exit with no matching entry (FORMAT.md 9.2 step 3) creates an
 * "orphan" call that starts at the thread's first event and adopts every
 * top-level call made so far; its depth and its descendants' depths and
 * recursion flags are settled in the final pass.
 */
#include "config.h"

#include "calltree.h"

#include "sampling.h"
#include "trace-load.h"
#include "util-alloc.h"
#include "util-map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An open call on a thread's stack. */
struct frame {
	uint32_t call; /* its index among the thread's calls */
	uint32_t method;
	uint64_t id;                 /* its method id, as the records say */
	uint64_t start[CLOCK_COUNT]; /* full start times */
};

/*
 * One thread's calls while the trace is read, in entry order, in the
 * model's compact form; parents are indexes among the thread's calls.
 * finish moves them into the model in pre-order.
 */
struct thread_calls {
	uint32_t *method, *parent;
	uint16_t *depth;
	uint8_t *flags;
	uint32_t *start[CLOCK_COUNT], *duration[CLOCK_COUNT];
	size_t count, cap;
	struct tt_time_step *steps[CLOCK_COUNT]; /* by thread call index */
	size_t nsteps[CLOCK_COUNT], steps_cap[CLOCK_COUNT];
	struct tt_long_call *longs[CLOCK_COUNT]; /* by thread call index */
	size_t nlongs[CLOCK_COUNT], longs_cap[CLOCK_COUNT];
	uint32_t high[CLOCK_COUNT]; /* high half of the last start */
};

struct thread_state {
	struct thread_calls calls;
	struct frame *stack;
	size_t depth, stack_cap;
	struct util_map shared; /* method -> its frames here, for methods
	                           open on several threads (see presence) */
	uint32_t *tops;         /* top-level calls an orphan would adopt */
	size_t ntops, tops_cap;
	uint64_t raw_prev[CLOCK_COUNT];
	uint64_t epoch[CLOCK_COUNT];
	uint64_t prev[CLOCK_COUNT];
	uint64_t cpu_base;
	uint32_t orphans;
	struct sampling_probe probe;
};

/*
 * Which threads have frames of a method open: all on one thread (the
 * common case, answered from this array alone), or on several, when each
 * thread's own count is in its `shared` map.
 */
struct presence {
	uint32_t open;   /* frames open, all threads together */
	uint32_t thread; /* the thread holding them, or PRESENCE_SHARED */
};

enum {
	PRESENCE_SHARED = UINT32_MAX,
	METHOD_CACHE = 4096,  /* direct-mapped id -> index cache */
	TID_DIRECT = 1 << 16, /* thread ids looked up without hashing */
};

struct method_cache_entry {
	uint64_t id;
	uint32_t index;
};

struct calltree_builder {
	struct calltree *tree;
	struct presence *presence; /* per method */
	size_t presence_cap;
	struct method_cache_entry method_cache[METHOD_CACHE];
	uint32_t *tid_direct;       /* tid -> thread index, for tid < 2^16 */
	struct util_map thread_ids; /* tid -> thread index */
	struct util_map
	        thread_alias; /* tid & 0xFFFF -> index, for tid > 0xFFFF */
	struct util_map method_ids; /* method id -> method index */
	struct thread_state *states;
	size_t ncalls; /* calls of all threads */
	size_t methods_cap, threads_cap, props_cap, warnings_cap;
	bool began;
	struct trace_sink sink;
	calltree_progress_fn *progress;
	void *progress_arg;
};

static const char *
arena_str(struct calltree *tree, const char *s)
{
	return util_arena_strndup(&tree->arena, s, strlen(s));
}

static uint32_t
add_thread(struct calltree_builder *b, uint32_t tid, const char *name,
           bool defined)
{
	struct calltree *tree = b->tree;
	struct tt_thread *t;
	size_t n = tree->nthreads;

	if (n >= CALL_NONE - 1) {
		fprintf(stderr, "tracetui: too many threads\n");
		abort();
	}
	if (n + 1 > b->threads_cap) {
		size_t cap = b->threads_cap;

		UTIL_GROW(tree->threads, cap, n + 1);
		b->states = xreallocarray(b->states, cap, sizeof(*b->states));
		b->threads_cap = cap;
	}
	t = &tree->threads[n];
	memset(t, 0, sizeof(*t));
	memset(&b->states[n], 0, sizeof(b->states[n]));
	util_map_init(&b->states[n].shared);
	t->tid = tid;
	t->defined = defined;
	t->name = name;
	tree->nthreads = n + 1;
	util_map_put(&b->thread_ids, tid, (uint32_t)n);
	return (uint32_t)n;
}

static void
on_thread(void *ctx, uint32_t tid, const char *name)
{
	struct calltree_builder *b = ctx;
	struct calltree *tree = b->tree;
	uint32_t idx;

	if (util_map_get(&b->thread_ids, tid, &idx)) {
		tree->threads[idx].name = arena_str(tree, name);
		tree->threads[idx].defined = true;
		return;
	}
	idx = add_thread(b, tid, arena_str(tree, name), true);
	if (tid > 0xFFFF) {
		uint32_t other;

		if (!util_map_get(&b->thread_alias, tid & 0xFFFF, &other))
			util_map_put(&b->thread_alias, tid & 0xFFFF, idx);
	}
	/* A definition can change what a cached id resolves to. */
	b->tid_direct[tid & 0xFFFF] = CALL_NONE;
}

static uint32_t
method_slot(struct calltree_builder *b, uint64_t id)
{
	struct calltree *tree = b->tree;
	struct method_cache_entry *hit =
	        &b->method_cache[(id >> 2) & (METHOD_CACHE - 1)];
	uint32_t *slot;

	if (hit->id == id)
		return hit->index;
	slot = util_map_slot(&b->method_ids, id, CALL_NONE);
	if (*slot == CALL_NONE) {
		struct tt_method *m;

		if (tree->nmethods >= CALL_NONE - 1) {
			fprintf(stderr, "tracetui: too many methods\n");
			abort();
		}
		UTIL_GROW(tree->methods, b->methods_cap, tree->nmethods + 1);
		if (tree->nmethods + 1 > b->presence_cap) {
			b->presence = xreallocarray(b->presence, b->methods_cap,
			                            sizeof(*b->presence));
			memset(b->presence + b->presence_cap, 0,
			       (b->methods_cap - b->presence_cap) *
			               sizeof(*b->presence));
			b->presence_cap = b->methods_cap;
		}
		m = &tree->methods[tree->nmethods];
		memset(m, 0, sizeof(*m));
		m->id = id;
		m->line = -1;
		*slot = (uint32_t)tree->nmethods++;
	}
	hit->id = id;
	hit->index = *slot;
	return *slot;
}

static void
on_method(void *ctx, const struct trace_method_def *def)
{
	struct calltree_builder *b = ctx;
	struct calltree *tree = b->tree;
	uint32_t idx = method_slot(b, def->id);
	struct tt_method *m = &tree->methods[idx];

	m->klass = arena_str(tree, def->klass);
	m->name = arena_str(tree, def->name);
	m->signature = arena_str(tree, def->signature);
	m->file = def->file ? arena_str(tree, def->file) : NULL;
	m->line = def->line;
	m->defined = true;
}

static void
on_property(void *ctx, const char *key, const char *value)
{
	struct calltree_builder *b = ctx;
	struct calltree *tree = b->tree;
	struct tt_property *p;

	UTIL_GROW(tree->properties, b->props_cap, tree->nproperties + 1);
	p = &tree->properties[tree->nproperties++];
	p->key = arena_str(tree, key);
	p->value = arena_str(tree, value);
	if (strcmp(key, "data-file-overflow") == 0)
		tree->anomalies.data_file_overflow = strcmp(value, "true") == 0;
}

static void
on_warning(void *ctx, uint64_t offset, const char *message)
{
	struct calltree_builder *b = ctx;
	struct calltree *tree = b->tree;
	struct tt_warning *w;

	UTIL_GROW(tree->warnings, b->warnings_cap, tree->nwarnings + 1);
	w = &tree->warnings[tree->nwarnings++];
	w->offset = offset;
	w->message = arena_str(tree, message);
}

static void
on_begin(void *ctx, const struct trace_header *header)
{
	struct calltree_builder *b = ctx;
	struct calltree *tree = b->tree;

	tree->header = *header;
	tree->has_clock[CLOCK_CPU] = header->clock & TRACE_CLOCK_CPU;
	tree->has_clock[CLOCK_WALL] = header->clock & TRACE_CLOCK_WALL;
	b->began = true;
}

static void
on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct calltree_builder *b = ctx;

	if (b->progress)
		b->progress(b->progress_arg, done, total);
}

static uint32_t
thread_of(struct calltree_builder *b, uint32_t tid)
{
	uint32_t idx;

	if (tid < TID_DIRECT && b->tid_direct[tid] != CALL_NONE)
		return b->tid_direct[tid];
	if (!util_map_get(&b->thread_ids, tid, &idx) &&
	    !util_map_get(&b->thread_alias, tid, &idx))
		idx = add_thread(b, tid, NULL, false);
	if (tid < TID_DIRECT)
		b->tid_direct[tid] = idx;
	return idx;
}

static void
thread_calls_grow(struct thread_calls *tc, const bool *has_clock)
{
	size_t cap = tc->cap;
	int k;

	UTIL_GROW(tc->method, cap, tc->count + 1);
	tc->parent = xreallocarray(tc->parent, cap, sizeof(*tc->parent));
	tc->depth = xreallocarray(tc->depth, cap, sizeof(*tc->depth));
	tc->flags = xreallocarray(tc->flags, cap, sizeof(*tc->flags));
	for (k = 0; k < CLOCK_COUNT; k++) {
		if (!has_clock[k])
			continue;
		tc->start[k] = xreallocarray(tc->start[k], cap,
		                             sizeof(*tc->start[k]));
		tc->duration[k] = xreallocarray(tc->duration[k], cap,
		                                sizeof(*tc->duration[k]));
	}
	tc->cap = cap;
}

static void
thread_calls_free(struct thread_calls *tc)
{
	int k;

	free(tc->method);
	free(tc->parent);
	free(tc->depth);
	free(tc->flags);
	for (k = 0; k < CLOCK_COUNT; k++) {
		free(tc->start[k]);
		free(tc->duration[k]);
		free(tc->steps[k]);
		free(tc->longs[k]);
	}
	memset(tc, 0, sizeof(*tc));
}

/* Append a call of method m on thread t starting at `at`. */
static uint32_t
new_call(struct calltree_builder *b, uint32_t t, uint32_t m, uint32_t parent,
         size_t depth, uint8_t flags, const uint64_t *at)
{
	struct thread_calls *tc = &b->states[t].calls;
	size_t i = tc->count;
	int k;

	if (b->ncalls >= CALL_NONE - 1) {
		fprintf(stderr, "tracetui: more than %u calls\n",
		        CALL_NONE - 1);
		abort();
	}
	if (i == tc->cap)
		thread_calls_grow(tc, b->tree->has_clock);
	tc->method[i] = m;
	tc->parent[i] = parent;
	tc->depth[i] = depth < UINT16_MAX ? (uint16_t)depth : UINT16_MAX;
	tc->flags[i] = flags;
	for (k = 0; k < CLOCK_COUNT; k++) {
		uint32_t high = (uint32_t)(at[k] >> 32);

		if (!tc->start[k])
			continue;
		if (high != tc->high[k]) {
			UTIL_GROW(tc->steps[k], tc->steps_cap[k],
			          tc->nsteps[k] + 1);
			tc->steps[k][tc->nsteps[k]++] =
			        (struct tt_time_step){(uint32_t)i, high};
			tc->high[k] = high;
		}
		tc->start[k][i] = (uint32_t)at[k];
		tc->duration[k][i] = 0;
	}
	tc->count = i + 1;
	b->ncalls++;
	return (uint32_t)i;
}

/* Close call i of thread calls tc, started at `from`, at `to`. */
static void
end_call(struct thread_calls *tc, uint32_t i, const uint64_t *from,
         const uint64_t *to)
{
	int k;

	for (k = 0; k < CLOCK_COUNT; k++) {
		uint64_t d = to[k] - from[k];

		if (!tc->duration[k])
			continue;
		if (d >= UINT32_MAX) {
			UTIL_GROW(tc->longs[k], tc->longs_cap[k],
			          tc->nlongs[k] + 1);
			tc->longs[k][tc->nlongs[k]++] =
			        (struct tt_long_call){i, d};
			d = UINT32_MAX;
		}
		tc->duration[k][i] = (uint32_t)d;
	}
}

static void
push_top(struct thread_state *st, uint32_t call)
{
	UTIL_GROW(st->tops, st->tops_cap, st->ntops + 1);
	st->tops[st->ntops++] = call;
}

/* Frames of method m open on thread t. */
static uint32_t
presence_count(const struct calltree_builder *b, uint32_t t, uint32_t m)
{
	const struct presence *p = &b->presence[m];
	uint32_t n = 0;

	if (!p->open || p->thread == t)
		return p->open;
	if (p->thread != PRESENCE_SHARED)
		return 0;
	util_map_get(&b->states[t].shared, m, &n);
	return n;
}

/* A frame of m opens on thread t. */
static void
presence_push(struct calltree_builder *b, uint32_t t, uint32_t m)
{
	struct presence *p = &b->presence[m];

	if (!p->open || p->thread == t) {
		p->thread = t;
		p->open++;
		return;
	}
	if (p->thread != PRESENCE_SHARED) {
		/* A second thread: the first one's frames move to its map. */
		util_map_put(&b->states[p->thread].shared, m, p->open);
		p->thread = PRESENCE_SHARED;
	}
	++*util_map_slot(&b->states[t].shared, m, 0);
	p->open++;
}

/* A frame of m on thread t closes. */
static void
presence_pop(struct calltree_builder *b, uint32_t t, uint32_t m)
{
	struct presence *p = &b->presence[m];

	if (p->thread == PRESENCE_SHARED) {
		uint32_t *n = util_map_slot(&b->states[t].shared, m, 0);

		if (*n <= 1)
			util_map_remove(&b->states[t].shared, m);
		else
			--*n;
	}
	p->open--;
}

/* Pop the top frame of thread t, closing its call at `at`. */
static void
pop_frame(struct calltree_builder *b, uint32_t t, const uint64_t *at,
          uint8_t flags)
{
	struct thread_state *st = &b->states[t];
	struct frame *f = &st->stack[--st->depth];

	end_call(&st->calls, f->call, f->start, at);
	st->calls.flags[f->call] |= flags;
	presence_pop(b, t, f->method);
}

static void
enter(struct calltree_builder *b, uint32_t t, uint64_t id, const uint64_t *at)
{
	struct thread_state *st = &b->states[t];
	struct tt_thread *th = &b->tree->threads[t];
	uint32_t m = method_slot(b, id);
	uint32_t parent = st->depth ? st->stack[st->depth - 1].call : CALL_NONE;
	struct frame *f;
	uint32_t call;

	call = new_call(b, t, m, parent, st->depth,
	                presence_count(b, t, m) ? CALL_RECURSIVE : 0, at);
	presence_push(b, t, m);
	if (parent == CALL_NONE)
		push_top(st, call);
	UTIL_GROW(st->stack, st->stack_cap, st->depth + 1);
	f = &st->stack[st->depth++];
	f->call = call;
	f->method = m;
	f->id = id;
	memcpy(f->start, at, sizeof(f->start));
	if (st->depth > th->max_depth)
		th->max_depth = (uint32_t)st->depth;
}

/* An exit whose method is not on the stack: FORMAT.md 9.2 step 3. */
static void
orphan_exit(struct calltree_builder *b, uint32_t t, uint32_t m,
            const uint64_t *at, uint8_t flags)
{
	struct thread_state *st = &b->states[t];
	struct tt_thread *th = &b->tree->threads[t];
	uint32_t call;
	size_t i;

	call = new_call(b, t, m, CALL_NONE, 0, CALL_ORPHAN | flags, th->first);
	end_call(&st->calls, call, th->first, at);
	for (i = 0; i < st->ntops; i++)
		st->calls.parent[st->tops[i]] = call;
	st->ntops = 0;
	push_top(st, call);
	st->orphans++;
	b->tree->anomalies.orphan_exits++;
}

static void
leave(struct calltree_builder *b, uint32_t t, uint64_t id,
      enum trace_action action, const uint64_t *at)
{
	struct thread_state *st = &b->states[t];
	struct tt_anomalies *an = &b->tree->anomalies;
	uint8_t flags = action == TRACE_UNWIND ? CALL_UNWOUND : 0;
	uint32_t m;

	if (st->depth && st->stack[st->depth - 1].id == id) {
		pop_frame(b, t, at, flags);
		return;
	}
	m = method_slot(b, id);
	if (st->depth)
		an->mismatched_exits++;
	if (presence_count(b, t, m)) {
		/* Frames above it lost their exits. */
		while (st->stack[st->depth - 1].method != m) {
			pop_frame(b, t, at, CALL_LOST_EXIT);
			an->lost_exits++;
		}
		pop_frame(b, t, at, flags);
		return;
	}
	/* Not on the stack: it was entered before tracing began, below
	 * every open frame, so they all lost their exits. */
	while (st->depth) {
		pop_frame(b, t, at, CALL_LOST_EXIT);
		an->lost_exits++;
	}
	orphan_exit(b, t, m, at, flags);
}

/* Unwrap, rebase and clamp the raw times of one event of thread t. */
static void
thread_times(struct calltree_builder *b, uint32_t t, const uint64_t *raw,
             uint64_t *at)
{
	struct calltree *tree = b->tree;
	struct thread_state *st = &b->states[t];
	struct tt_thread *th = &tree->threads[t];
	bool first = th->nevents == 0;
	int k;

	for (k = 0; k < CLOCK_COUNT; k++) {
		uint64_t v = raw[k];

		if (!tree->has_clock[k]) {
			at[k] = 0;
			continue;
		}
		if (tree->header.time_bits == 32 && !first) {
			if (v < st->raw_prev[k] &&
			    st->raw_prev[k] - v > UINT64_C(1) << 31) {
				st->epoch[k] += UINT64_C(1) << 32;
				tree->anomalies.wraps[k]++;
			}
		}
		st->raw_prev[k] = v;
		v += st->epoch[k];
		if (first) {
			if (k == CLOCK_CPU)
				st->cpu_base = v;
			st->prev[k] = v;
		} else if (v < st->prev[k]) {
			tree->anomalies.negative_steps[k]++;
			v = st->prev[k];
		}
		st->prev[k] = v;
		at[k] = k == CLOCK_CPU ? v - st->cpu_base : v;
		if (first)
			th->first[k] = at[k];
		th->last[k] = at[k];
	}
}

static void
on_event(void *ctx, uint32_t tid, uint64_t method_id, enum trace_action action,
         uint64_t cpu, uint64_t wall)
{
	struct calltree_builder *b = ctx;
	struct calltree *tree = b->tree;
	uint64_t raw[CLOCK_COUNT], at[CLOCK_COUNT];
	uint32_t t = thread_of(b, tid);

	raw[CLOCK_CPU] = cpu;
	raw[CLOCK_WALL] = wall;
	thread_times(b, t, raw, at);
	tree->threads[t].nevents++;
	tree->records++;
	sampling_probe_add(&b->states[t].probe, tree->has_clock[CLOCK_WALL]
	                                                ? at[CLOCK_WALL]
	                                                : at[CLOCK_CPU]);
	switch (action) {
	case TRACE_ENTER:
		enter(b, t, method_id, at);
		break;
	case TRACE_ACTION3:
		tree->anomalies.action3++;
		leave(b, t, method_id, action, at);
		break;
	case TRACE_UNWIND:
		tree->anomalies.unwinds++;
		leave(b, t, method_id, action, at);
		break;
	case TRACE_EXIT:
		leave(b, t, method_id, action, at);
		break;
	}
}

/* Close every frame still open at its thread's last event. */
static void
close_open_frames(struct calltree_builder *b)
{
	struct calltree *tree = b->tree;
	size_t t;

	for (t = 0; t < tree->nthreads; t++) {
		while (b->states[t].depth) {
			pop_frame(b, (uint32_t)t, tree->threads[t].last,
			          CALL_OPEN_AT_END);
			tree->anomalies.open_at_end++;
		}
	}
}

/* The model's step and long-call tables of one clock, as they grow. */
struct time_tables {
	struct tt_time_step *steps;
	size_t nsteps, steps_cap;
	uint32_t high; /* high half in force after the last step */
	struct tt_long_call *longs;
	size_t nlongs, longs_cap;
};

/* From call `call` on, starts have high half `high`. */
static void
add_step(struct time_tables *tt, uint32_t call, uint32_t high)
{
	if (high == tt->high)
		return;
	if (tt->nsteps && tt->steps[tt->nsteps - 1].first_call == call) {
		tt->steps[tt->nsteps - 1].high = high;
	} else {
		UTIL_GROW(tt->steps, tt->steps_cap, tt->nsteps + 1);
		tt->steps[tt->nsteps++] = (struct tt_time_step){call, high};
	}
	tt->high = high;
}

/* Where each of a thread's calls goes in its pre-order: orphans first
 * (the last created first), then the other calls in entry order. */
static uint32_t *
preorder_of(const struct thread_calls *tc, uint32_t orphans)
{
	uint32_t *dest = xmalloc(tc->count * sizeof(*dest));
	uint32_t next_orphan = orphans, next = orphans;
	size_t i;

	for (i = 0; i < tc->count; i++)
		dest[i] = tc->flags[i] & CALL_ORPHAN ? --next_orphan : next++;
	return dest;
}

/* Steps of clock k for a thread's calls placed at base (by dest). */
static void
move_steps(struct time_tables *tt, const struct thread_calls *tc,
           const uint32_t *dest, size_t base, int k)
{
	uint32_t *highs;
	size_t i, s = 0;

	add_step(tt, (uint32_t)base, 0);
	if (!dest) {
		for (i = 0; i < tc->nsteps[k]; i++)
			add_step(tt, (uint32_t)base + tc->steps[k][i].first_call,
			         tc->steps[k][i].high);
		return;
	}
	if (!tc->nsteps[k])
		return;
	highs = xmalloc(tc->count * sizeof(*highs));
	for (i = 0; i < tc->count; i++) {
		uint32_t high = 0;

		while (s < tc->nsteps[k] && tc->steps[k][s].first_call <= i)
			s++;
		if (s)
			high = tc->steps[k][s - 1].high;
		highs[dest[i]] = high;
	}
	for (i = 0; i < tc->count; i++)
		add_step(tt, (uint32_t)(base + i), highs[i]);
	free(highs);
}

/* Move thread t's calls into the model, in pre-order, and free them. */
static void
move_thread_calls(struct calltree_builder *b, size_t t,
                  struct time_tables *tables)
{
	struct calltree *tree = b->tree;
	struct tt_calls *c = &tree->calls;
	struct thread_calls *tc = &b->states[t].calls;
	size_t base = tree->threads[t].first_call, n = tc->count, i, j;
	uint32_t *dest = NULL;
	int k;

	if (!n)
		return;
	if (b->states[t].orphans)
		dest = preorder_of(tc, b->states[t].orphans);
	for (i = 0; i < n; i++) {
		uint32_t p = tc->parent[i];

		j = base + (dest ? dest[i] : i);
		c->parent[j] = p == CALL_NONE
		                       ? CALL_NONE
		                       : (uint32_t)(base + (dest ? dest[p] : p));
	}
	if (!dest) {
		memcpy(c->method + base, tc->method, n * sizeof(*c->method));
		memcpy(c->depth + base, tc->depth, n * sizeof(*c->depth));
		memcpy(c->flags + base, tc->flags, n * sizeof(*c->flags));
	} else {
		for (i = 0; i < n; i++) {
			j = base + dest[i];
			c->method[j] = tc->method[i];
			c->depth[j] = tc->depth[i];
			c->flags[j] = tc->flags[i];
		}
	}
	for (k = 0; k < CLOCK_COUNT; k++) {
		struct time_tables *tt = &tables[k];

		if (!c->start[k])
			continue;
		if (!dest) {
			memcpy(c->start[k] + base, tc->start[k],
			       n * sizeof(*c->start[k]));
			memcpy(c->duration[k] + base, tc->duration[k],
			       n * sizeof(*c->duration[k]));
		} else {
			for (i = 0; i < n; i++) {
				j = base + dest[i];
				c->start[k][j] = tc->start[k][i];
				c->duration[k][j] = tc->duration[k][i];
			}
		}
		move_steps(tt, tc, dest, base, k);
		for (i = 0; i < tc->nlongs[k]; i++) {
			struct tt_long_call l = tc->longs[k][i];

			l.call = (uint32_t)(base + (dest ? dest[l.call] : l.call));
			UTIL_GROW(tt->longs, tt->longs_cap, tt->nlongs + 1);
			tt->longs[tt->nlongs++] = l;
		}
	}
	free(dest);
	thread_calls_free(tc);
}

static int
long_call_cmp(const void *a, const void *b)
{
	const struct tt_long_call *x = a, *y = b;

	return (x->call > y->call) - (x->call < y->call);
}

/* Gather every thread's calls into the model, thread after thread. */
static void
group_by_thread(struct calltree_builder *b)
{
	struct calltree *tree = b->tree;
	struct tt_calls *c = &tree->calls;
	struct time_tables tables[CLOCK_COUNT] = {0};
	size_t n = b->ncalls, t, first = 0;
	int k;

	for (t = 0; t < tree->nthreads; t++) {
		tree->threads[t].first_call = (uint32_t)first;
		tree->threads[t].ncalls = (uint32_t)b->states[t].calls.count;
		first += b->states[t].calls.count;
	}
	c->count = n;
	if (!n)
		return; /* the call arrays stay NULL */
	c->method = xmalloc(n * sizeof(*c->method));
	c->parent = xmalloc(n * sizeof(*c->parent));
	c->depth = xmalloc(n * sizeof(*c->depth));
	c->flags = xmalloc(n * sizeof(*c->flags));
	for (k = 0; k < CLOCK_COUNT; k++) {
		if (!tree->has_clock[k])
			continue;
		c->start[k] = xmalloc(n * sizeof(*c->start[k]));
		c->duration[k] = xmalloc(n * sizeof(*c->duration[k]));
	}
	for (t = 0; t < tree->nthreads; t++)
		move_thread_calls(b, t, tables);
	for (k = 0; k < CLOCK_COUNT; k++) {
		c->steps[k] = tables[k].steps;
		c->nsteps[k] = tables[k].nsteps;
		if (tables[k].nlongs > 1)
			qsort(tables[k].longs, tables[k].nlongs,
			      sizeof(*tables[k].longs), long_call_cmp);
		c->longs[k] = tables[k].longs;
		c->nlongs[k] = tables[k].nlongs;
	}
}

/* Depths and recursion flags of a thread whose orphans adopted calls. */
static void
settle_adopted(struct calltree *tree, size_t t)
{
	struct tt_calls *c = &tree->calls;
	struct tt_thread *th = &tree->threads[t];
	struct util_map on_path;
	uint32_t *path = NULL;
	size_t cap = 0, depth = 0, i;

	util_map_init(&on_path);
	th->max_depth = 0;
	for (i = th->first_call; i < th->first_call + th->ncalls; i++) {
		uint32_t parent = c->parent[i];
		uint32_t *count;

		while (depth && path[depth - 1] != parent) {
			uint32_t *n = util_map_slot(
			        &on_path, c->method[path[depth - 1]], 0);
			if (*n <= 1)
				util_map_remove(&on_path,
				                c->method[path[depth - 1]]);
			else
				--*n;
			depth--;
		}
		c->depth[i] = depth < UINT16_MAX ? (uint16_t)depth : UINT16_MAX;
		count = util_map_slot(&on_path, c->method[i], 0);
		if (*count)
			c->flags[i] |= CALL_RECURSIVE;
		else
			c->flags[i] &= (uint8_t)~CALL_RECURSIVE;
		++*count;
		UTIL_GROW(path, cap, depth + 1);
		path[depth++] = (uint32_t)i;
		if (depth > th->max_depth)
			th->max_depth = (uint32_t)depth;
	}
	free(path);
	util_map_done(&on_path);
}

/* The side table of calls 65535 deep or more, for threads that have them. */
static void
list_deep_calls(struct calltree *tree)
{
	struct tt_calls *c = &tree->calls;
	size_t cap = 0, t, i;

	for (t = 0; t < tree->nthreads; t++) {
		const struct tt_thread *th = &tree->threads[t];
		uint32_t *depth;

		if (th->max_depth < UINT16_MAX)
			continue;
		depth = xmalloc(th->ncalls * sizeof(*depth));
		for (i = 0; i < th->ncalls; i++) {
			uint32_t p = c->parent[th->first_call + i];

			depth[i] = p == CALL_NONE ? 0
			                          : depth[p - th->first_call] + 1;
			if (depth[i] < UINT16_MAX)
				continue;
			UTIL_GROW(c->deep, cap, c->ndeep + 1);
			c->deep[c->ndeep++] = (struct tt_deep_call){
			        th->first_call + (uint32_t)i, depth[i]};
		}
		free(depth);
	}
}

static void
finish(struct calltree_builder *b)
{
	struct calltree *tree = b->tree;
	struct sampling_verdict verdict;
	size_t i;

	close_open_frames(b);
	group_by_thread(b);
	sampling_verdict_init(&verdict);
	for (i = 0; i < tree->nthreads; i++) {
		if (b->states[i].orphans)
			settle_adopted(tree, i);
		if (!tree->threads[i].defined && tree->threads[i].nevents)
			tree->anomalies.unknown_threads++;
		sampling_verdict_add(&verdict, &b->states[i].probe);
	}
	list_deep_calls(tree);
	tree->sampled =
	        tree->header.sampled || sampling_verdict_sampled(&verdict);
	for (i = 0; i < tree->nmethods; i++) {
		struct tt_method *m = &tree->methods[i];
		char *name;

		if (m->defined)
			continue;
		tree->anomalies.unknown_methods++;
		name = xasprintf("(unknown 0x%llx)", (unsigned long long)m->id);
		m->klass = m->signature = "";
		m->name = arena_str(tree, name);
		free(name);
	}
	for (i = 0; i < tree->nthreads; i++) {
		if (!tree->threads[i].name) {
			char *name =
			        xasprintf("Thread %u", tree->threads[i].tid);

			tree->threads[i].name = arena_str(tree, name);
			free(name);
		}
	}
}

static void
builder_done(struct calltree_builder *b)
{
	size_t i;

	for (i = 0; i < b->tree->nthreads; i++) {
		thread_calls_free(&b->states[i].calls);
		free(b->states[i].stack);
		free(b->states[i].tops);
		util_map_done(&b->states[i].shared);
	}
	free(b->states);
	free(b->presence);
	free(b->tid_direct);
	util_map_done(&b->thread_ids);
	util_map_done(&b->thread_alias);
	util_map_done(&b->method_ids);
	free(b);
}

struct calltree_builder *
calltree_builder_new(const char *path)
{
	struct calltree_builder *b = xcalloc(1, sizeof(*b));
	struct calltree *tree = xcalloc(1, sizeof(*tree));

	b->tree = tree;
	b->tid_direct = xmalloc(TID_DIRECT * sizeof(*b->tid_direct));
	memset(b->tid_direct, 0xFF, TID_DIRECT * sizeof(*b->tid_direct));
	for (size_t i = 0; i < METHOD_CACHE; i++)
		b->method_cache[i].id = UINT64_MAX; /* never a method id */
	util_arena_init(&tree->arena);
	util_map_init(&b->thread_ids);
	util_map_init(&b->thread_alias);
	util_map_init(&b->method_ids);
	tree->path = xstrdup(path);
	b->sink = (struct trace_sink){
	        .ctx = b,
	        .begin = on_begin,
	        .property = on_property,
	        .thread = on_thread,
	        .method = on_method,
	        .event = on_event,
	        .warning = on_warning,
	        .progress = on_progress,
	};
	return b;
}

const struct trace_sink *
calltree_builder_sink(struct calltree_builder *b)
{
	return &b->sink;
}

struct calltree *
calltree_builder_finish(struct calltree_builder *b)
{
	struct calltree *tree = b->tree;

	finish(b);
	builder_done(b);
	return tree;
}

void
calltree_builder_free(struct calltree_builder *b)
{
	struct calltree *tree;

	if (!b)
		return;
	tree = b->tree;
	builder_done(b); /* reads tree->nthreads: before the tree goes */
	calltree_free(tree);
}

struct calltree *
calltree_load(const char *path, struct trace_error *err)
{
	return calltree_load_progress(path, err, NULL, NULL);
}

struct calltree *
calltree_load_progress(const char *path, struct trace_error *err,
                       calltree_progress_fn *progress, void *arg)
{
	struct calltree_builder *b = calltree_builder_new(path);

	b->progress = progress;
	b->progress_arg = arg;
	if (!trace_load(path, calltree_builder_sink(b), err)) {
		calltree_builder_free(b);
		return NULL;
	}
	return calltree_builder_finish(b);
}

void
calltree_free(struct calltree *tree)
{
	int k;

	if (!tree)
		return;
	free(tree->path);
	free(tree->methods);
	free(tree->threads);
	free(tree->properties);
	free(tree->warnings);
	free(tree->calls.method);
	free(tree->calls.parent);
	free(tree->calls.depth);
	free(tree->calls.flags);
	for (k = 0; k < CLOCK_COUNT; k++) {
		free(tree->calls.start[k]);
		free(tree->calls.duration[k]);
		free(tree->calls.steps[k]);
		free(tree->calls.longs[k]);
	}
	free(tree->calls.deep);
	util_arena_done(&tree->arena);
	free(tree);
}

uint64_t
calltree_start_high(const struct calltree *tree, size_t c, enum clock_index k)
{
	const struct tt_time_step *steps = tree->calls.steps[k];
	size_t lo = 0, hi = tree->calls.nsteps[k];

	/* The last step at or before c. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (steps[mid].first_call <= c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? (uint64_t)steps[lo - 1].high << 32 : 0;
}

uint64_t
calltree_long_duration(const struct calltree *tree, size_t c,
                       enum clock_index k)
{
	const struct tt_long_call *longs = tree->calls.longs[k];
	size_t lo = 0, hi = tree->calls.nlongs[k];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (longs[mid].call < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < tree->calls.nlongs[k] && longs[lo].call == c
	               ? longs[lo].duration
	               : UINT32_MAX;
}

uint32_t
calltree_deep_depth(const struct calltree *tree, size_t c)
{
	const struct tt_deep_call *deep = tree->calls.deep;
	size_t lo = 0, hi = tree->calls.ndeep;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (deep[mid].call < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < tree->calls.ndeep && deep[lo].call == c ? deep[lo].depth
	                                                     : UINT16_MAX;
}

long
calltree_find_thread(const struct calltree *tree, uint32_t tid)
{
	size_t i;

	for (i = 0; i < tree->nthreads; i++)
		if (tree->threads[i].tid == tid)
			return (long)i;
	return -1;
}

enum clock_index
calltree_default_clock(const struct calltree *tree)
{
	return tree->has_clock[CLOCK_CPU] ? CLOCK_CPU : CLOCK_WALL;
}

const char *
calltree_property(const struct calltree *tree, const char *key)
{
	size_t i;

	for (i = tree->nproperties; i-- > 0;)
		if (strcmp(tree->properties[i].key, key) == 0)
			return tree->properties[i].value;
	return NULL;
}
