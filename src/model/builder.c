/*
 * builder: the core of the builder, the first of its four files, which
 * read in order and each call only those before it (model/builder.h):
 * this one, builder-records.c, builder-sums.c, builder-split.c.  What
 * the core needs of the others (the sink's records, walked and ahead
 * callbacks, freeing what a split kept) it calls through the hooks
 * calltree_builder_new gives it (struct build_hooks), never by name;
 * tests/builder-order.sh fails on a call against that order.
 *
 * The builder is a trace_sink.  Per thread it keeps a
 * stack of open calls, unwraps 32-bit times, rebases thread-cpu time and
 * clamps backward steps.  Each thread's calls are appended in entry order
 * to its own chunks; finish moves them, thread after thread, into the
 * model's flat arrays, which are then already grouped by thread and in
 * pre-order (entry order is pre-order, once the orphans are put first).
 * Placed threads (model/builder.h) skip that move.
 *
 * An exit with no matching entry (FORMAT.md 9.2 step 3) creates an
 * "orphan" call that starts at the thread's first event and adopts every
 * top-level call made so far.  Because of them, depths, recursion flags
 * and the table of very deep calls are settled per thread at the end, in
 * one walk over its pre-order.
 *
 * Every path that builds calls (the events here, the placed records of
 * builder-records.c, and the runs that file hands back to this one)
 * must, per thread, and give the same model field by field
 * (tests/records.sh runs both on every fixture, generated and real
 * trace, and tests/model-equal compares them):
 *
 *  1. unwrap each clock's 32-bit times (FORMAT.md 8.5) and rebase
 *     thread-cpu time to the thread's first event (8.2);
 *  2. clamp a backward step to zero and count it (8.6);
 *  3. close the top call on an exit, an unwind or an action-3 record
 *     that matches it, counting unwinds and action-3 records;
 *  4. close the frames above a deeper match at the exit's time, flagged
 *     lost-exit, and count a mismatch (9.2 step 4);
 *  5. turn an exit that finds no entry into an orphan call from the
 *     thread's first event that adopts the top-level calls before it
 *     (9.2 step 3);
 *  6. close what is still open at the thread's last event, flagged
 *     open-at-end (9.2 step 5);
 *  7. give undefined method and thread ids placeholders, numbered in
 *     the order the events meet them (9.2 step 6);
 *  8. settle depths, recursion flags and the deep-call table in
 *     per-thread pre-order, orphans first.
 *
 * The sums (builder-sums.c, and builder-split.c on two workers: the
 * files after builder-records.c) follow 1 to 4 and 6 as they sum, and
 * fail where 5 or 7 would apply, so that the model is built instead;
 * tests/model-equal compares their sums with the model's.
 */
#include "config.h"

#include "model/builder.h"

#include "util/alloc.h"
#include "util/sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The chunk holding thread call i. */
static inline struct call_chunk *
chunk_of(const struct thread_calls *tc, size_t i)
{
	return &tc->chunks[i >> CHUNK_SHIFT];
}

/* Where thread call i is within its chunk. */
static inline size_t
in_chunk(size_t i)
{
	return i & (CHUNK_CALLS - 1);
}

static const char *
arena_str(struct calltree *tree, const char *s)
{
	return util_arena_strndup(&tree->arena, s, strlen(s));
}

/* What a thread that has had no event reads as. */
static const struct thread_state no_state;

/* Thread t's state, made on its first event: a file may name millions of
 * threads that never run, and each costs only a pointer until it does.
 * Workers each make the states of their own threads. */
static inline struct thread_state *
state_of(struct calltree_builder *b, size_t t)
{
	if (!b->states[t])
		b->states[t] = xcalloc(1, sizeof(*b->states[t]));
	return b->states[t];
}

/* Thread t's state to read, a zero state when it has had no event. */
static inline const struct thread_state *
state_peek(const struct calltree_builder *b, size_t t)
{
	return b->states[t] ? b->states[t] : &no_state;
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
	b->states[n] = NULL;
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
	b->tid_direct[tid & 0xFFFF] = 0;
	if (b->event_sums)
		b->event_sums->known_thread = false;
}

/* Method index of id; a new id adds a placeholder method, or a
 * provisional index in a shared worker. */
static inline uint32_t
method_slot(struct build_worker *w, uint64_t id)
{
	struct calltree_builder *b = w->b;
	struct calltree *tree = b->tree;
	struct method_cache_entry *hit =
	        &w->method_cache[(id >> 2) & w->cache_mask];
	uint32_t *slot, found;

	if (hit->key == ~id)
		return hit->index;
	if (w->shared) {
		if (!util_map_get(w->method_ids, id, &found)) {
			slot = util_map_slot(&w->unknown_ids, id, CALL_NONE);
			if (*slot == CALL_NONE) {
				UTIL_GROW(w->unknown, w->unknown_cap,
				          w->nunknown + 1);
				w->unknown[w->nunknown] =
				        (struct unknown_method){id, w->record};
				*slot = w->known + (uint32_t)w->nunknown++;
			}
			found = *slot;
		}
		hit->key = ~id;
		hit->index = found;
		return found;
	}
	slot = util_map_slot(&b->method_ids, id, CALL_NONE);
	if (*slot == CALL_NONE) {
		struct tt_method *m;

		if (tree->nmethods >= CALL_NONE - 1) {
			fprintf(stderr, "tracetui: too many methods\n");
			abort();
		}
		UTIL_GROW(tree->methods, b->methods_cap, tree->nmethods + 1);
		m = &tree->methods[tree->nmethods];
		memset(m, 0, sizeof(*m));
		m->id = id;
		m->line = -1;
		*slot = (uint32_t)tree->nmethods++;
	}
	hit->key = ~id;
	hit->index = *slot;
	return *slot;
}

uint32_t
build_method_slot(struct build_worker *w, uint64_t id)
{
	return method_slot(w, id);
}

struct thread_state *
build_state_of(struct calltree_builder *b, size_t t)
{
	return state_of(b, t);
}

static void
on_method(void *ctx, const struct trace_method_def *def)
{
	struct calltree_builder *b = ctx;
	struct calltree *tree = b->tree;
	uint32_t idx = method_slot(&b->serial, def->id);
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
	/* A key like the one before shares its copy: a recording's
	 * threads say a property each. */
	p->key = tree->nproperties > 1 && strcmp(p[-1].key, key) == 0
	                 ? p[-1].key
	                 : arena_str(tree, key);
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

uint32_t
build_thread_of(struct calltree_builder *b, uint32_t tid)
{
	uint32_t idx;

	if (tid < TID_DIRECT && b->tid_direct[tid])
		return b->tid_direct[tid] - 1;
	if (!util_map_get(&b->thread_ids, tid, &idx) &&
	    !util_map_get(&b->thread_alias, tid, &idx))
		idx = add_thread(b, tid, NULL, false);
	if (tid < TID_DIRECT)
		b->tid_direct[tid] = idx + 1;
	return idx;
}

/* Carve one block into the fields of a full chunk. */
static void
chunk_carve(struct call_chunk *ch, const bool *has_clock)
{
	char *p = xmalloc(CHUNK_BYTES);
	int k;

	ch->block = p;
	ch->method = (uint32_t *)p;
	ch->parent = ch->method + CHUNK_CALLS;
	p = (char *)(ch->parent + CHUNK_CALLS);
	for (k = 0; k < CLOCK_COUNT; k++) {
		if (!has_clock[k])
			continue;
		ch->start[k] = (uint16_t *)p;
		ch->duration[k] = ch->start[k] + CHUNK_CALLS;
		p = (char *)(ch->duration[k] + CHUNK_CALLS);
	}
	ch->flags = (uint8_t *)p;
}

/* Room for one more call. */
static void
thread_calls_grow(struct thread_calls *tc, const bool *has_clock)
{
	struct call_chunk *ch;
	size_t cap;
	int k;

	if (tc->cap >= CHUNK_CALLS) {
		UTIL_GROW(tc->chunks, tc->chunks_cap, tc->nchunks + 1);
		ch = &tc->chunks[tc->nchunks++];
		memset(ch, 0, sizeof(*ch));
		chunk_carve(ch, has_clock);
		tc->cap += CHUNK_CALLS;
		return;
	}
	/* The first chunk grows in place up to CHUNK_CALLS. */
	if (!tc->nchunks) {
		/* One chunk, and a few calls: a trace may hold a great many
		 * threads of a call or two each. */
		tc->chunks = xcalloc(1, sizeof(*tc->chunks));
		tc->chunks_cap = 1;
		tc->nchunks = 1;
	}
	ch = tc->chunks;
	cap = tc->cap ? tc->cap * 2 : 4;
	ch->method = xreallocarray(ch->method, cap, sizeof(*ch->method));
	ch->parent = xreallocarray(ch->parent, cap, sizeof(*ch->parent));
	ch->flags = xreallocarray(ch->flags, cap, sizeof(*ch->flags));
	for (k = 0; k < CLOCK_COUNT; k++) {
		if (!has_clock[k])
			continue;
		ch->start[k] =
		        xreallocarray(ch->start[k], cap, sizeof(*ch->start[k]));
		ch->duration[k] = xreallocarray(ch->duration[k], cap,
		                                sizeof(*ch->duration[k]));
	}
	tc->cap = cap;
}

static void
chunk_free(struct call_chunk *ch)
{
	int k;

	if (ch->borrowed) {
		/* the model owns it */
	} else if (ch->block) {
		free(ch->block);
	} else {
		free(ch->method);
		free(ch->parent);
		free(ch->flags);
		for (k = 0; k < CLOCK_COUNT; k++) {
			free(ch->start[k]);
			free(ch->duration[k]);
		}
	}
	memset(ch, 0, sizeof(*ch));
}

static void
thread_calls_free(struct thread_calls *tc)
{
	size_t i;
	int k;

	for (i = 0; i < tc->nchunks; i++)
		chunk_free(&tc->chunks[i]);
	free(tc->chunks);
	for (k = 0; k < CLOCK_COUNT; k++) {
		free(tc->steps[k]);
		free(tc->longs[k]);
	}
	memset(tc, 0, sizeof(*tc));
}

/* Release what summing thread state st holds (its sums are made by
 * model/builder-sums.c, and freed with the state). */
static void
sums_free(struct thread_state *st)
{
	if (!st->sums)
		return;
	free(st->sums->row_of);
	free(st->sums->top_of);
	free(st->sums->top);
	free(st->sums->first);
	free(st->sums->next);
	free(st->sums->closed);
	free(st->sums->closes);
	if (st->sums->paths)
		paths_done(st->sums->paths);
	free(st->sums->paths);
	if (st->sums->frames)
		frame_watch_done(st->sums->frames);
	free(st->sums->frames);
	if (st->sums->triage)
		triage_watch_done(st->sums->triage);
	free(st->sums->triage);
	thread_sums_done(&st->sums->out);
	free(st->sums->links.links);
	link_table_done(&st->sums->links);
	free(st->sums);
	st->sums = NULL;
}

static void
thread_state_free(struct thread_state *st)
{
	if (!st)
		return;
	sums_free(st);
	thread_calls_free(&st->calls);
	free(st->stack);
	free(st->tops);
	free(st->open);
	free(st);
}

void
build_state_free(struct thread_state *st)
{
	thread_state_free(st);
}

/* Index of a new call of thread calls tc, or CALL_NONE when a placed
 * thread's slice has no room for it. */
static inline size_t
new_call_index(struct calltree_builder *b, struct thread_calls *tc,
               uint8_t flags)
{
	if (tc->placed) {
		if (flags & CALL_ORPHAN)
			return tc->orphan_slots ? --tc->orphan_slots
			                        : CALL_NONE;
		return tc->count < tc->cap ? tc->count++ : CALL_NONE;
	}
	if (b->ncalls >= CALL_NONE - 1) {
		fprintf(stderr, "tracetui: more than %u calls\n",
		        CALL_NONE - 1);
		abort();
	}
	if (tc->count == tc->cap)
		thread_calls_grow(tc, b->tree->has_clock);
	b->ncalls++;
	return tc->count++;
}

/* From thread call i of tc on, starts of clock k have high bits `high`. */
static __attribute__((noinline)) void
add_time_step(struct thread_calls *tc, int k, uint32_t i, uint64_t high)
{
	UTIL_GROW(tc->steps[k], tc->steps_cap[k], tc->nsteps[k] + 1);
	tc->steps[k][tc->nsteps[k]++] = (struct tt_time_step){i, high};
	tc->high[k] = high;
}

/* Note that thread call i of tc starts at `time` on clock k: a new step
 * when the time's high bits changed. */
static inline void
note_start(struct thread_calls *tc, int k, uint32_t i, uint64_t time)
{
	uint64_t high = time >> TIME_LOW_BITS;

	if (__builtin_expect(!tc->nsteps[k] || high != tc->high[k], 0))
		add_time_step(tc, k, i, high);
}

/* Thread call i of tc lasted d on clock k, too long for 16 bits. */
static __attribute__((noinline)) void
add_long_call(struct thread_calls *tc, int k, uint32_t i, uint64_t d)
{
	UTIL_GROW(tc->longs[k], tc->longs_cap[k], tc->nlongs[k] + 1);
	tc->longs[k][tc->nlongs[k]++] = (struct tt_long_call){i, d};
}

/* Duration d of thread call i of tc on clock k, as the model's 16 bits
 * hold it: a long one is noted in full. */
static inline uint16_t
short_duration(struct thread_calls *tc, int k, uint32_t i, uint64_t d)
{
	if (__builtin_expect(d < UINT16_MAX, 1))
		return (uint16_t)d;
	add_long_call(tc, k, i, d);
	return UINT16_MAX;
}

/* Append a call of method m on thread t starting at `at`; CALL_NONE, with
 * w failed, when a placed thread cannot take it.  Its duration is set
 * when it is closed (every call is, by the end). */
static inline uint32_t
new_call(struct build_worker *w, uint32_t t, uint32_t m, uint32_t parent,
         uint8_t flags, const uint64_t *at)
{
	struct thread_calls *tc = &state_of(w->b, t)->calls;
	size_t i = new_call_index(w->b, tc, flags), j = in_chunk(i);
	const bool *has_clock = w->b->tree->has_clock;
	struct call_chunk *ch;
	int k;

	if (i == CALL_NONE) {
		w->failed = true;
		return CALL_NONE;
	}
	ch = chunk_of(tc, i);
	if (!ch->method16) {
		ch->method[j] = m;
	} else if (m <= UINT16_MAX) {
		ch->method16[j] = (uint16_t)m;
	} else {
		w->failed = true; /* too many methods for the narrow model */
		return CALL_NONE;
	}
	if (ch->parent)
		ch->parent[j] =
		        parent == CALL_NONE ? CALL_NONE : tc->base + parent;
	ch->flags[j] = flags;
	for (k = 0; k < CLOCK_COUNT; k++) {
		if (!has_clock[k])
			continue;
		/* A placed thread's orphans fill the slots before its other
		 * calls, all starting at its first time: move_steps gives
		 * them their step. */
		if (!(tc->placed && (flags & CALL_ORPHAN)))
			note_start(tc, k, (uint32_t)i, at[k]);
		ch->start[k][j] = (uint16_t)at[k];
	}
	return (uint32_t)i;
}

/* Close call i of thread calls tc, started at `from`, at `to`. */
static inline void
end_call(struct thread_calls *tc, uint32_t i, const uint64_t *from,
         const uint64_t *to, uint8_t flags)
{
	struct call_chunk *ch = chunk_of(tc, i);
	int k;

	if (flags)
		ch->flags[in_chunk(i)] |= flags;
	for (k = 0; k < CLOCK_COUNT; k++)
		if (ch->duration[k])
			ch->duration[k][in_chunk(i)] =
			        short_duration(tc, k, i, to[k] - from[k]);
}

static inline void
push_top(struct thread_state *st, uint32_t call)
{
	UTIL_GROW(st->tops, st->tops_cap, st->ntops + 1);
	st->tops[st->ntops++] = call;
}

/* Pop the top frame of thread t, closing its call at `at`. */
static inline void
pop_frame(struct calltree_builder *b, uint32_t t, const uint64_t *at,
          uint8_t flags)
{
	struct thread_state *st = state_of(b, t);
	struct frame *f = &st->stack[--st->depth];

	if (st->settles)
		st->open[f->method]--;
	end_call(&st->calls, f->call, f->start, at, flags);
}

/* Depth and deepest stack for call `call` of a placed thread that
 * settles, entered under parent (thread indexes) with the stack as is. */
static inline void
settle_entry(struct build_worker *w, uint32_t t, uint32_t call, uint32_t parent,
             uint32_t m)
{
	struct thread_state *st = state_of(w->b, t);
	struct tt_thread *th = &w->b->tree->threads[t];
	size_t depth = st->depth, at = (size_t)st->calls.base + call;

	st->open[m]++;
	if (depth < UINT16_MAX) {
		w->b->tree->calls.depth[at] = (uint16_t)depth;
	} else {
		struct deep_list *deep = &w->deep;

		w->b->tree->calls.depth[at] = UINT16_MAX;
		UTIL_GROW(deep->calls, deep->cap, deep->count + 1);
		deep->calls[deep->count++] = (struct tt_deep_call){
		        (uint32_t)at, (uint32_t)depth, st->calls.base + parent};
	}
	if (depth + 1 > th->max_depth)
		th->max_depth = (uint32_t)(depth + 1);
}

static inline void
enter(struct build_worker *w, uint32_t t, uint64_t id, const uint64_t *at)
{
	struct thread_state *st = state_of(w->b, t);
	uint32_t m = method_slot(w, id);
	uint32_t parent = st->depth ? st->stack[st->depth - 1].call : CALL_NONE;
	uint8_t flags = 0;
	struct frame *f;
	uint32_t call;

	if (st->settles) {
		if (m >= st->open_cap) {
			size_t old = st->open_cap;

			UTIL_GROW(st->open, st->open_cap, (size_t)m + 1);
			memset(st->open + old, 0,
			       (st->open_cap - old) * sizeof(*st->open));
		}
		if (st->open[m])
			flags = CALL_RECURSIVE;
	}
	call = new_call(w, t, m, parent, flags, at);
	if (call == CALL_NONE)
		return;
	if (st->settles)
		settle_entry(w, t, call, parent, m);
	if (parent == CALL_NONE)
		push_top(st, call);
	UTIL_GROW(st->stack, st->stack_cap, st->depth + 1);
	f = &st->stack[st->depth++];
	f->call = call;
	f->method = m;
	f->id = id;
	memcpy(f->start, at, sizeof(f->start));
}

/* An exit whose method is not on the stack: FORMAT.md 9.2 step 3. */
static void
orphan_exit(struct build_worker *w, uint32_t t, uint32_t m, const uint64_t *at,
            uint8_t flags)
{
	struct thread_state *st = state_of(w->b, t);
	struct tt_thread *th = &w->b->tree->threads[t];
	uint32_t call;
	size_t i;

	call = new_call(w, t, m, CALL_NONE, CALL_ORPHAN | flags, th->first);
	if (call == CALL_NONE)
		return;
	end_call(&st->calls, call, th->first, at, 0);
	for (i = 0; i < st->ntops; i++)
		chunk_of(&st->calls, st->tops[i])
		        ->parent[in_chunk(st->tops[i])] = st->calls.base + call;
	st->ntops = 0;
	push_top(st, call);
	st->orphans++;
	w->an->orphan_exits++;
}

/*
 * An exit of method id on thread t.  When it is not the top frame, the
 * stack is searched from the top: the frames passed over are popped
 * either way, so the search costs no more than their entries did.
 */
static inline void
leave(struct build_worker *w, uint32_t t, uint64_t id, enum trace_action action,
      const uint64_t *at)
{
	struct calltree_builder *b = w->b;
	struct thread_state *st = state_of(b, t);
	struct tt_anomalies *an = w->an;
	uint8_t flags = action == TRACE_UNWIND ? CALL_UNWOUND : 0;
	size_t i;

	if (st->depth && st->stack[st->depth - 1].id == id) {
		pop_frame(b, t, at, flags);
		return;
	}
	if (st->depth)
		an->mismatched_exits++;
	for (i = st->depth; i > 0 && st->stack[i - 1].id != id; i--)
		;
	if (i) {
		/* Frames above it lost their exits. */
		while (st->depth > i) {
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
	orphan_exit(w, t, method_slot(w, id), at, flags);
}

void
build_start_clocks(const struct calltree_builder *b, const bool *has_clock,
                   struct thread_state *st, struct tt_thread *th,
                   const uint64_t *raw)
{
	int k;

	for (k = 0; k < CLOCK_COUNT; k++) {
		if (!has_clock[k])
			continue;
		st->clocks[k].raw_prev = st->clocks[k].prev = raw[k];
	}
	st->cpu_base = b->keep_cpu ? 0 : st->clocks[CLOCK_CPU].prev;
	for (k = 0; k < CLOCK_COUNT; k++)
		th->first[k] =
		        has_clock[k]
		                ? st->clocks[k].prev -
		                          (k == CLOCK_CPU ? st->cpu_base : 0)
		                : 0;
}

void
build_first_times(struct calltree_builder *b, uint32_t t, const uint64_t *raw)
{
	build_start_clocks(b, b->tree->has_clock, state_of(b, t),
	                   &b->tree->threads[t], raw);
}

/* The times of an event of thread t (read_times, from its state). */
static inline __attribute__((always_inline)) void
event_times(struct build_worker *w, uint32_t t, enum trace_clock clock,
            uint64_t cpu, uint64_t wall, uint64_t *at)
{
	struct calltree_builder *b = w->b;
	struct thread_state *st = state_of(b, t);

	if (__builtin_expect(!st->nevents++, 0)) {
		uint64_t raw[CLOCK_COUNT] = {cpu, wall};

		build_first_times(b, t, raw);
	}
	read_times(st->clocks, st->cpu_base, &st->probe, w->an, clock,
	           b->tree->header.time_bits == 32, cpu, wall, at);
}

/* Apply an event of thread t at times `at`. */
static inline __attribute__((always_inline)) void
apply_action(struct build_worker *w, uint32_t t, uint64_t method_id,
             enum trace_action action, const uint64_t *at)
{
	switch (action) {
	case TRACE_ENTER:
		enter(w, t, method_id, at);
		break;
	case TRACE_ACTION3:
		w->an->action3++;
		leave(w, t, method_id, action, at);
		break;
	case TRACE_UNWIND:
		w->an->unwinds++;
		leave(w, t, method_id, action, at);
		break;
	case TRACE_EXIT:
		leave(w, t, method_id, action, at);
		break;
	}
}

void
build_event(struct build_worker *w, uint32_t t, uint64_t method_id,
            enum trace_action action, uint64_t cpu, uint64_t wall)
{
	uint64_t at[CLOCK_COUNT];

	event_times(w, t, w->b->tree->header.clock, cpu, wall, at);
	apply_action(w, t, method_id, action, at);
}

/* apply_action, called from where inlining it is not worth it. */
static __attribute__((noinline)) void
apply_action_apart(struct build_worker *w, uint32_t t, uint64_t method_id,
                   enum trace_action action, const uint64_t *at)
{
	apply_action(w, t, method_id, action, at);
}

/*
 * What a thread that settles into a model with 16-bit methods needs for
 * each of its records, held apart from its state while a run of them is
 * applied: stores into the model's byte arrays could alias the state,
 * and have it read again for each record.  The model's arrays start at
 * the thread's call 0.
 */
struct run_state {
	uint16_t *method, *depth, *start[CLOCK_COUNT], *duration[CLOCK_COUNT];
	uint8_t *flags;
	struct frame *stack;
	uint32_t *open;
	size_t count, cap, sp, stack_cap, open_cap;
	struct clock_state clocks[CLOCK_COUNT];
	uint64_t cpu_base;
	uint64_t high[CLOCK_COUNT]; /* of the last step; UINT64_MAX: none */
	uint64_t nevents;
	struct sampling_probe probe;
	uint32_t max_depth;
};

/* Take up thread t's state. */
static inline __attribute__((always_inline)) void
run_load(struct run_state *rs, struct build_worker *w, uint32_t t)
{
	struct tt_calls *c = &w->b->tree->calls;
	struct thread_state *st = state_of(w->b, t);
	struct thread_calls *tc = &st->calls;
	int k;

	rs->method = c->method16 + tc->base;
	rs->depth = c->depth + tc->base;
	rs->flags = c->flags + tc->base;
	for (k = 0; k < CLOCK_COUNT; k++) {
		rs->start[k] = c->start[k] ? c->start[k] + tc->base : NULL;
		rs->duration[k] =
		        c->duration[k] ? c->duration[k] + tc->base : NULL;
		rs->high[k] = tc->nsteps[k] ? tc->high[k] : UINT64_MAX;
		rs->clocks[k] = st->clocks[k];
	}
	rs->stack = st->stack;
	rs->open = st->open;
	rs->count = tc->count;
	rs->cap = tc->cap;
	rs->sp = st->depth;
	rs->stack_cap = st->stack_cap;
	rs->open_cap = st->open_cap;
	rs->cpu_base = st->cpu_base;
	rs->nevents = st->nevents;
	rs->probe = st->probe;
	rs->max_depth = w->b->tree->threads[t].max_depth;
}

/* Give thread t's state back. */
static inline __attribute__((always_inline)) void
run_store(const struct run_state *rs, struct build_worker *w, uint32_t t)
{
	struct thread_state *st = state_of(w->b, t);
	int k;

	for (k = 0; k < CLOCK_COUNT; k++)
		st->clocks[k] = rs->clocks[k];
	st->calls.count = rs->count;
	st->depth = rs->sp;
	st->nevents = rs->nevents;
	st->probe = rs->probe;
	w->b->tree->threads[t].max_depth = rs->max_depth;
}

/*
 * An entry of method m, or an exit of the top frame, by a thread that
 * settles: written straight into the model.  False, with nothing done,
 * for anything else.
 */
static inline __attribute__((always_inline)) bool
run_event(struct run_state *rs, struct thread_calls *tc, uint64_t id,
          uint32_t m, enum trace_action action, const uint64_t *at,
          enum trace_clock clock)
{
	struct frame *f;
	size_t i = rs->count;
	int k;

	if (action == TRACE_ENTER) {
		if (__builtin_expect(i == rs->cap || m >= rs->open_cap ||
		                             m > UINT16_MAX ||
		                             rs->sp >= UINT16_MAX ||
		                             rs->sp == rs->stack_cap,
		                     0))
			return false;
		rs->count++;
		rs->method[i] = (uint16_t)m;
		rs->flags[i] = rs->open[m] ? CALL_RECURSIVE : 0;
		rs->depth[i] = (uint16_t)rs->sp;
		rs->open[m]++;
		for (k = 0; k < CLOCK_COUNT; k++) {
			uint64_t high = at[k] >> TIME_LOW_BITS;

			if (!clock_has(clock, k))
				continue;
			if (__builtin_expect(high != rs->high[k], 0)) {
				add_time_step(tc, k, (uint32_t)i, high);
				rs->high[k] = high;
			}
			rs->start[k][i] = (uint16_t)at[k];
		}
		f = &rs->stack[rs->sp++];
		if (rs->sp > rs->max_depth)
			rs->max_depth = (uint32_t)rs->sp;
		f->call = (uint32_t)i;
		f->method = m;
		f->id = id;
		memcpy(f->start, at, sizeof(f->start));
		return true;
	}
	if (action != TRACE_EXIT || !rs->sp || rs->stack[rs->sp - 1].id != id)
		return false;
	f = &rs->stack[--rs->sp];
	rs->open[f->method]--;
	for (k = 0; k < CLOCK_COUNT; k++)
		if (clock_has(clock, k))
			rs->duration[k][f->call] = short_duration(
			        tc, k, f->call, at[k] - f->start[k]);
	return true;
}

/* Apply record i of r, of thread t, through the event path. */
static inline __attribute__((always_inline)) void
apply_record(struct build_worker *w, const struct trace_records *r, size_t i,
             uint32_t t)
{
	struct trace_event ev;

	trace_records_get(r, i, &ev);
	w->record = i;
	build_event(w, t, ev.method_id, ev.action, ev.cpu, ev.wall);
}

/*
 * Apply records [from, to) of r, all of thread t, decoded as r's version
 * and clock say (constants where it is inlined).  A thread that settles
 * into a model with 16-bit methods has its state held in a run_state,
 * given back around whatever run_event does not do.
 */
static inline __attribute__((always_inline)) void
apply_run(struct build_worker *w, const struct trace_records *r, size_t from,
          size_t to, uint32_t t)
{
	struct thread_state *st = state_of(w->b, t);
	bool wraps = w->b->tree->header.time_bits == 32;
	struct trace_event ev;
	struct run_state rs;
	size_t i = from;

	if (!w->b->tree->calls.method16 || !st->settles) {
		for (; i < to && !w->failed; i++)
			apply_record(w, r, i, t);
		return;
	}
	/* The first event sets the clocks' states up. */
	if (!st->nevents && i < to)
		apply_record(w, r, i++, t);
	run_load(&rs, w, t);
	for (; i < to; i++) {
		uint64_t at[CLOCK_COUNT];
		uint32_t m = 0;

		trace_records_get(r, i, &ev);
		rs.nevents++;
		read_times(rs.clocks, rs.cpu_base, &rs.probe, w->an, r->clock,
		           wraps, ev.cpu, ev.wall, at);
		if (ev.action == TRACE_ENTER) {
			struct method_cache_entry *hit =
			        &w->method_cache[(ev.method_id >> 2) &
			                         w->cache_mask];

			/* Hits read here, apart from method_slot: it was
			 * measured faster in this loop. */
			w->record = i;
			m = hit->key == ~ev.method_id
			            ? hit->index
			            : method_slot(w, ev.method_id);
		}
		if (run_event(&rs, &st->calls, ev.method_id, m, ev.action, at,
		              r->clock))
			continue;
		run_store(&rs, w, t);
		w->record = i;
		apply_action_apart(w, t, ev.method_id, ev.action, at);
		if (w->failed)
			return;
		run_load(&rs, w, t);
	}
	run_store(&rs, w, t);
}

/* apply_run over records [from, to) of run, of the given version and
 * clock; only those of thread `only` when it is not CALL_NONE, else
 * those of the threads whose owner (by tid_index) is `who`. */
static inline __attribute__((always_inline)) void
apply_records(struct build_worker *w, const struct trace_records *run,
              size_t from, size_t to, const uint32_t *tid_index,
              const uint8_t *owner, uint8_t who, uint32_t only,
              unsigned version, enum trace_clock clock)
{
	struct trace_records r = *run;
	struct trace_event ev;
	size_t i, end;

	r.version = version;
	r.clock = clock;
	if (only != CALL_NONE) {
		apply_run(w, &r, from, to, only);
		return;
	}
	for (i = from; i < to && !w->failed; i = end) {
		uint32_t tid;

		trace_records_get(&r, i, &ev);
		tid = ev.tid;
		for (end = i + 1; end < to; end++) {
			trace_records_get(&r, end, &ev);
			if (ev.tid != tid)
				break;
		}
		if (owner[tid_index[tid]] == who)
			apply_run(w, &r, i, end, tid_index[tid]);
	}
}

/* apply_records, its version and clock told apart once. */
static void
dispatch_piece(struct build_worker *w, const struct trace_records *run,
               size_t from, size_t to, const uint32_t *tid_index,
               const uint8_t *owner, uint8_t who, uint32_t only)
{
#define APPLY(version, clock)                                                  \
	apply_records(w, run, from, to, tid_index, owner, who, only, version,  \
	              clock)

	if (run->version < 2)
		APPLY(1, run->clock);
	else if (run->clock == TRACE_CLOCK_DUAL)
		APPLY(3, TRACE_CLOCK_DUAL);
	else if (run->clock == TRACE_CLOCK_CPU)
		APPLY(2, TRACE_CLOCK_CPU);
	else
		APPLY(2, TRACE_CLOCK_WALL);
#undef APPLY
}

/* dispatch_piece on each piece of run that [from, to) meets. */
static void
dispatch_records(struct build_worker *w, const struct trace_records *run,
                 size_t from, size_t to, const uint32_t *tid_index,
                 const uint8_t *owner, uint8_t who, uint32_t only)
{
	while (from < to && !w->failed) {
		size_t stop;
		struct trace_records piece = trace_records_at(run, from, &stop);

		if (stop > to)
			stop = to;
		dispatch_piece(w, &piece, from, stop, tid_index, owner, who,
		               only);
		from = stop;
	}
}

void
build_records(struct build_worker *w, const struct trace_records *run,
              size_t from, size_t to, const uint32_t *tid_index,
              const uint8_t *owner, uint8_t who)
{
	dispatch_records(w, run, from, to, tid_index, owner, who, CALL_NONE);
}

void
build_thread_records(struct build_worker *w, const struct trace_records *run,
                     size_t from, size_t to, uint32_t t)
{
	dispatch_records(w, run, from, to, NULL, NULL, 0, t);
}

static inline bool turn_begin(struct calltree_builder *b, uint32_t t);

static void
on_event(void *ctx, uint32_t tid, uint64_t method_id, enum trace_action action,
         uint64_t cpu, uint64_t wall)
{
	struct calltree_builder *b = ctx;
	uint32_t t;

	if (b->summed) {
		b->spoiled = true;
		return;
	}
	b->tree->records++;
	if (__builtin_expect(!b->events_met, 0)) {
		b->events_met = true;
		if (b->sums_only && !b->paths && !b->frame_methods &&
		    !b->triage && b->tree->header.nested) {
			b->event_sums = xcalloc(1, sizeof(*b->event_sums));
			build_worker_init(&b->event_sums->w, b,
			                  &b->event_sums->an, true);
		}
	}
	if (b->event_sums) {
		if (!b->hooks->sum_event(b, tid, method_id, action, cpu,
		                         wall)) {
			/* Only the model can hold it: loaded again. */
			b->hooks->sum_events_end(b, false);
			b->spoiled = true;
		}
		return;
	}
	if (b->spoiled)
		return;
	t = build_thread_of(b, tid);
	if (b->tree->header.threads_in_turn && !b->no_turns &&
	    !turn_begin(b, t)) {
		/* Out of turn: loaded again with every state kept. */
		b->spoiled = true;
		return;
	}
	build_event(&b->serial, t, method_id, action, cpu, wall);
}

void
build_settle_thread_times(struct calltree_builder *b, size_t t)
{
	struct calltree *tree = b->tree;
	const struct thread_state *st = state_peek(b, t);
	struct tt_thread *th = &tree->threads[t];
	int k;

	/* Its events counted, its state gone: settled when its turn
	 * ended (summed in turn). */
	if (!b->states[t] && th->nevents)
		return;
	th->nevents = st->nevents;
	for (k = 0; k < CLOCK_COUNT && st->nevents; k++)
		th->last[k] =
		        tree->has_clock[k]
		                ? st->clocks[k].prev -
		                          (k == CLOCK_CPU ? st->cpu_base : 0)
		                : 0;
}

/* Close every frame of thread t still open at its last event. */
static void
close_thread_frames(struct build_worker *w, size_t t)
{
	struct calltree_builder *b = w->b;

	while (state_peek(b, t)->depth) {
		pop_frame(b, (uint32_t)t, b->tree->threads[t].last,
		          CALL_OPEN_AT_END);
		w->an->open_at_end++;
	}
}

/* The model's step and long-call tables of one clock, as they grow. */
struct time_tables {
	struct tt_time_step *steps;
	size_t nsteps, steps_cap;
	uint64_t high; /* high bits in force after the last step */
	struct tt_long_call *longs;
	size_t nlongs, longs_cap;
};

/* From call `call` on, starts have high bits `high`. */
static void
add_step(struct time_tables *tt, uint32_t call, uint64_t high)
{
	if (tt->nsteps && high == tt->high)
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
		dest[i] = chunk_of(tc, i)->flags[in_chunk(i)] & CALL_ORPHAN
		                  ? --next_orphan
		                  : next++;
	return dest;
}

/* Steps of clock k for the calls of thread t, which start at model
 * call base, in entry order or else as dest says. */
static void
move_steps(struct time_tables *tt, const struct calltree_builder *b, size_t t,
           const uint32_t *dest, size_t base, int k)
{
	const struct thread_calls *tc = &state_peek(b, t)->calls;
	uint64_t *highs;
	size_t i, s = 0;

	if (!dest) {
		/* A placed thread's orphans start at its first time. */
		if (tc->placed && state_peek(b, t)->orphans)
			add_step(tt, (uint32_t)base,
			         b->tree->threads[t].first[k] >> TIME_LOW_BITS);
		for (i = 0; i < tc->nsteps[k]; i++)
			add_step(tt,
			         (uint32_t)base + tc->steps[k][i].first_call,
			         tc->steps[k][i].high);
		return;
	}
	/* Built event by event, call 0 has a step. */
	highs = xmalloc(tc->count * sizeof(*highs));
	for (i = 0; i < tc->count; i++) {
		while (s < tc->nsteps[k] && tc->steps[k][s].first_call <= i)
			s++;
		highs[dest[i]] = tc->steps[k][s - 1].high;
	}
	for (i = 0; i < tc->count; i++)
		add_step(tt, (uint32_t)(base + i), highs[i]);
	free(highs);
}

/* Copy thread call i's fields to model call j. */
static void
copy_call(struct tt_calls *c, size_t j, const struct call_chunk *ch, size_t i)
{
	int k;

	if (c->method16)
		c->method16[j] = (uint16_t)ch->method[i];
	else
		c->method[j] = ch->method[i];
	c->flags[j] = ch->flags[i];
	for (k = 0; k < CLOCK_COUNT; k++) {
		if (!c->start[k])
			continue;
		c->start[k][j] = ch->start[k][i];
		c->duration[k][j] = ch->duration[k][i];
	}
}

/* Copy the n calls of chunk ch to model calls [at, at + n). */
static void
copy_chunk(struct tt_calls *c, size_t at, const struct call_chunk *ch, size_t n)
{
	size_t i;
	int k;

	if (c->method16)
		for (i = 0; i < n; i++)
			c->method16[at + i] = (uint16_t)ch->method[i];
	else
		memcpy(c->method + at, ch->method, n * sizeof(*c->method));
	memcpy(c->flags + at, ch->flags, n * sizeof(*c->flags));
	for (k = 0; k < CLOCK_COUNT; k++) {
		if (!c->start[k])
			continue;
		memcpy(c->start[k] + at, ch->start[k],
		       n * sizeof(*c->start[k]));
		memcpy(c->duration[k] + at, ch->duration[k],
		       n * sizeof(*c->duration[k]));
	}
}

/* Move thread t's calls into c from call base on, in pre-order, and
 * free them; their callers' indexes in c go to parent[i - parent_base]
 * for call i. */
static void
move_calls(struct calltree_builder *b, size_t t, struct tt_calls *c,
           size_t base, uint32_t *parent, size_t parent_base,
           struct time_tables *tables)
{
	struct thread_state *st = b->states[t];
	struct thread_calls *tc;
	size_t n, i, j;
	uint32_t *dest = NULL;
	int k;

	if (!st || !st->calls.count)
		return;
	tc = &st->calls;
	n = tc->count;
	if (st->orphans && !tc->placed)
		dest = preorder_of(tc, st->orphans);
	for (k = 0; k < CLOCK_COUNT; k++) {
		struct time_tables *tt = &tables[k];

		if (!c->start[k])
			continue;
		move_steps(tt, b, t, dest, base, k);
		for (i = 0; i < tc->nlongs[k]; i++) {
			struct tt_long_call l = tc->longs[k][i];

			l.call = (uint32_t)(base +
			                    (dest ? dest[l.call] : l.call));
			UTIL_GROW(tt->longs, tt->longs_cap, tt->nlongs + 1);
			tt->longs[tt->nlongs++] = l;
		}
	}
	/* Chunk by chunk, each freed once copied. */
	for (i = 0; i < n && !tc->placed; i += CHUNK_CALLS) {
		struct call_chunk *ch = chunk_of(tc, i);
		size_t len = n - i < CHUNK_CALLS ? n - i : CHUNK_CALLS;

		for (j = 0; j < len; j++) {
			uint32_t p = ch->parent[j];
			size_t to = base + (dest ? dest[i + j] : i + j);

			parent[to - parent_base] =
			        p == CALL_NONE
			                ? CALL_NONE
			                : (uint32_t)(base +
			                             (dest ? dest[p] : p));
			if (dest)
				copy_call(c, to, ch, j);
		}
		if (!dest)
			copy_chunk(c, base + i, ch, len);
		chunk_free(ch);
	}
	free(dest);
	thread_calls_free(tc);
}

/* Move thread t's calls into the model, in pre-order, and free them. */
static void
move_thread_calls(struct calltree_builder *b, size_t t,
                  struct time_tables *tables)
{
	move_calls(b, t, &b->tree->calls, b->tree->threads[t].first_call,
	           b->parent, 0, tables);
}

/* Order side-table entries (long or deep calls, which both begin with
 * their call index) by call. */
static int
by_call_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
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

	if (!b->placed) {
		for (t = 0; t < tree->nthreads; t++) {
			tree->threads[t].first_call = (uint32_t)first;
			tree->threads[t].ncalls =
			        (uint32_t)state_peek(b, t)->calls.count;
			first += state_peek(b, t)->calls.count;
		}
		c->count = n;
		if (!n)
			return; /* the call arrays stay NULL */
		/* Every method is known by now. */
		build_alloc_calls(b, n, tree->nmethods <= UINT16_MAX, true);
	}
	for (t = 0; t < tree->nthreads; t++)
		move_thread_calls(b, t, tables);
	for (k = 0; k < CLOCK_COUNT; k++) {
		c->steps[k] = tables[k].steps;
		c->nsteps[k] = tables[k].nsteps;
		if (tables[k].nlongs > 1)
			sort_items(tables[k].longs, tables[k].nlongs,
			           sizeof(*tables[k].longs), by_call_cmp);
		c->longs[k] = tables[k].longs;
		c->nlongs[k] = tables[k].nlongs;
	}
	calltree_index_times(tree);
}

/*
 * Depths, recursion flags and the deepest stack of thread t, in one walk
 * of its pre-order keeping the path from the root: `open` counts each
 * method's frames on the path (all zero on entry and on return), `path`
 * has room for the thread's calls.  Calls 65535 deep or more go into the
 * side table.
 */
static inline uint32_t
method_at(const struct tt_calls *c, size_t i)
{
	return c->method16 ? c->method16[i] : c->method[i];
}

/* settle_thread on calls c, the callers of call i in
 * parents[i - parent_base]. */
static void
settle_calls(struct tt_calls *c, const uint32_t *parents, size_t parent_base,
             struct tt_thread *th, uint32_t *open, uint32_t *path,
             struct deep_list *deep)
{
	size_t depth = 0, i, end = (size_t)th->first_call + th->ncalls;

	th->max_depth = 0;
	for (i = th->first_call; i < end; i++) {
		uint32_t parent = parents[i - parent_base], m = method_at(c, i);

		while (depth && path[depth - 1] != parent)
			open[method_at(c, path[--depth])]--;
		if (open[m])
			c->flags[i] |= CALL_RECURSIVE;
		open[m]++;
		if (depth < UINT16_MAX) {
			c->depth[i] = (uint16_t)depth;
		} else {
			c->depth[i] = UINT16_MAX;
			UTIL_GROW(deep->calls, deep->cap, deep->count + 1);
			deep->calls[deep->count++] = (struct tt_deep_call){
			        (uint32_t)i, (uint32_t)depth, parent};
		}
		path[depth++] = (uint32_t)i;
		if (depth > th->max_depth)
			th->max_depth = (uint32_t)depth;
	}
	while (depth)
		open[method_at(c, path[--depth])]--;
}

static void
settle_thread(struct calltree_builder *b, size_t t, uint32_t *open,
              uint32_t *path, struct deep_list *deep)
{
	settle_calls(&b->tree->calls, b->parent, 0, &b->tree->threads[t], open,
	             path, deep);
}

bool
build_finish_placed(struct build_worker *w, size_t t, uint32_t *open,
                    uint32_t *path)
{
	struct thread_calls *tc = &state_of(w->b, t)->calls;

	if (tc->orphan_slots || tc->count != tc->cap)
		return false;
	build_settle_thread_times(w->b, t);
	close_thread_frames(w, t);
	if (!state_of(w->b, t)->settles)
		settle_thread(w->b, t, open, path, &w->deep);
	return true;
}

/* Depths, recursion flags and deep calls of every thread built event by
 * event, once their calls are in the model. */
static void
settle_threads(struct calltree_builder *b)
{
	struct calltree *tree = b->tree;
	size_t i, max_calls = 0;
	uint32_t *open, *path;

	for (i = 0; i < tree->nthreads; i++)
		if (tree->threads[i].ncalls > max_calls)
			max_calls = tree->threads[i].ncalls;
	open = xcalloc(tree->nmethods + 1, sizeof(*open));
	path = xmalloc((max_calls + 1) * sizeof(*path));
	for (i = 0; i < tree->nthreads; i++)
		settle_thread(b, i, open, path, &b->serial.deep);
	free(open);
	free(path);
}

/*
 * Threads settled in turn (the event path, with the header's
 * threads_in_turn): when a thread's events end, its calls are moved, in
 * pre-order, settled, to the end of arrays laid out as the model's (the
 * methods in 32 bits until the end), and its state is freed.  A
 * recording of a million one-sample threads so holds one state at a
 * time and, per thread, only its record and its calls.  Threads settle
 * in the order of their indexes (that of the model's calls); a thread
 * that comes out of that order, or back after its turn, spoils the
 * load, which is made again with no_turns.
 */
struct turn_store {
	struct tt_calls calls; /* methods in `method`, depths settled */
	size_t cap;
	struct time_tables tables[CLOCK_COUNT];
	uint32_t *parent; /* of the thread being settled, from its call 0 */
	size_t parent_cap;
	uint32_t *open; /* by method, all zero between threads */
	size_t open_cap;
	uint32_t *path;
	size_t path_cap;
	uint32_t current; /* the thread whose events come, or CALL_NONE */
	uint32_t last;    /* the last thread settled, or CALL_NONE */
};

/* Room in ts for need calls. */
static void
turn_room(struct turn_store *ts, const bool *has_clock, size_t need)
{
	struct tt_calls *c = &ts->calls;
	size_t cap = ts->cap ? ts->cap : 1024;
	int k;

	if (need <= ts->cap)
		return;
	while (cap < need)
		cap *= 2;
	c->method = xreallocarray(c->method, cap, sizeof(*c->method));
	c->depth = xreallocarray(c->depth, cap, sizeof(*c->depth));
	c->flags = xreallocarray(c->flags, cap, sizeof(*c->flags));
	for (k = 0; k < CLOCK_COUNT; k++) {
		if (!has_clock[k])
			continue;
		c->start[k] =
		        xreallocarray(c->start[k], cap, sizeof(*c->start[k]));
		c->duration[k] = xreallocarray(c->duration[k], cap,
		                               sizeof(*c->duration[k]));
	}
	ts->cap = cap;
}

/* Thread t's turn is over: its calls settled into b->turns, its state
 * freed. */
static void
turn_settle(struct calltree_builder *b, uint32_t t)
{
	struct turn_store *ts = b->turns;
	struct calltree *tree = b->tree;
	struct thread_state *st = b->states[t];
	struct tt_thread *th;
	size_t n, base = ts->calls.count;

	ts->last = t;
	if (!st)
		return;
	build_settle_thread_times(b, t);
	close_thread_frames(&b->serial, t);
	th = &tree->threads[t];
	n = st->calls.count;
	th->first_call = (uint32_t)base;
	th->ncalls = (uint32_t)n;
	if (n) {
		size_t old = ts->open_cap;

		turn_room(ts, tree->has_clock, base + n);
		UTIL_GROW(ts->parent, ts->parent_cap, n);
		UTIL_GROW(ts->path, ts->path_cap, n + 1);
		if (tree->nmethods + 1 > old) {
			UTIL_GROW(ts->open, ts->open_cap, tree->nmethods + 1);
			memset(ts->open + old, 0,
			       (ts->open_cap - old) * sizeof(*ts->open));
		}
		move_calls(b, t, &ts->calls, base, ts->parent, base,
		           ts->tables);
		ts->calls.count = base + n;
		settle_calls(&ts->calls, ts->parent, base, th, ts->open,
		             ts->path, &b->serial.deep);
	}
	sampling_verdict_add(&b->settled, &st->probe);
	thread_state_free(st);
	b->states[t] = NULL;
}

/* An event of thread t: when its events begin, the turn of the thread
 * before it is over.  False when t comes out of turn. */
static inline bool
turn_begin(struct calltree_builder *b, uint32_t t)
{
	struct turn_store *ts = b->turns;

	if (ts && t == ts->current)
		return true;
	if (!ts) {
		/* Only from the first event: calls made otherwise stay. */
		if (b->ncalls || b->placed) {
			b->no_turns = true;
			return true;
		}
		ts = b->turns = xcalloc(1, sizeof(*ts));
		ts->current = ts->last = CALL_NONE;
	}
	if (ts->current != CALL_NONE)
		turn_settle(b, ts->current);
	ts->current = t;
	return ts->last == CALL_NONE || t > ts->last;
}

/* The calls settled in turn made the model's: the last turn settled,
 * the arrays fitted (the methods narrowed where they fit 16 bits), and
 * the threads without calls placed between the others. */
static void
turn_adopt(struct calltree_builder *b)
{
	struct turn_store *ts = b->turns;
	struct calltree *tree = b->tree;
	struct tt_calls *c = &tree->calls, *from = &ts->calls;
	size_t n, t, next = 0, i;
	int k;

	if (ts->current != CALL_NONE)
		turn_settle(b, ts->current);
	ts->current = CALL_NONE;
	n = from->count;
	for (t = 0; t < tree->nthreads; t++) {
		struct tt_thread *th = &tree->threads[t];

		if (th->ncalls)
			next = (size_t)th->first_call + th->ncalls;
		else
			th->first_call = (uint32_t)next;
	}
	c->count = n;
	if (n) {
		if (tree->nmethods <= UINT16_MAX) {
			c->method16 = xmalloc_large(n, sizeof(*c->method16));
			for (i = 0; i < n; i++)
				c->method16[i] = (uint16_t)from->method[i];
			free(from->method);
		} else {
			c->method = xreallocarray(from->method, n,
			                          sizeof(*c->method));
		}
		c->depth = xreallocarray(from->depth, n, sizeof(*c->depth));
		c->flags = xreallocarray(from->flags, n, sizeof(*c->flags));
		for (k = 0; k < CLOCK_COUNT; k++) {
			if (!from->start[k])
				continue;
			c->start[k] = xreallocarray(from->start[k], n,
			                            sizeof(*c->start[k]));
			c->duration[k] = xreallocarray(from->duration[k], n,
			                               sizeof(*c->duration[k]));
		}
		*from = (struct tt_calls){0};
	}
	for (k = 0; k < CLOCK_COUNT; k++) {
		struct time_tables *tt = &ts->tables[k];

		c->steps[k] = tt->steps;
		c->nsteps[k] = tt->nsteps;
		if (tt->nlongs > 1)
			sort_items(tt->longs, tt->nlongs, sizeof(*tt->longs),
			           by_call_cmp);
		c->longs[k] = tt->longs;
		c->nlongs[k] = tt->nlongs;
		*tt = (struct time_tables){0};
	}
	calltree_index_times(tree);
}

/* Release what b->turns holds (the model took what it adopted). */
static void
turn_free(struct calltree_builder *b)
{
	struct turn_store *ts = b->turns;
	int k;

	if (!ts)
		return;
	free(ts->calls.method);
	free(ts->calls.depth);
	free(ts->calls.flags);
	for (k = 0; k < CLOCK_COUNT; k++) {
		free(ts->calls.start[k]);
		free(ts->calls.duration[k]);
		free(ts->tables[k].steps);
		free(ts->tables[k].longs);
	}
	free(ts->parent);
	free(ts->open);
	free(ts->path);
	free(ts);
	b->turns = NULL;
}

static void
finish(struct calltree_builder *b)
{
	struct calltree *tree = b->tree;
	struct deep_list *deep = &b->serial.deep;
	struct sampling_verdict verdict;
	size_t i;

	if (b->event_sums)
		b->hooks->sum_events_end(b, true);
	if (b->turns)
		turn_adopt(b);
	if (!b->placed && !b->turns) {
		for (i = 0; i < tree->nthreads; i++)
			build_settle_thread_times(b, i);
		for (i = 0; i < tree->nthreads; i++)
			close_thread_frames(&b->serial, i);
	}
	if (!b->turns)
		group_by_thread(b);
	if (!b->placed && !b->summed && !b->turns)
		settle_threads(b);
	if (deep->count > 1)
		sort_items(deep->calls, deep->count, sizeof(*deep->calls),
		           by_call_cmp);
	tree->calls.deep = deep->calls;
	tree->calls.ndeep = deep->count;
	*deep = (struct deep_list){0};
	free(b->parent);
	b->parent = NULL;
	calltree_index_depths(tree);
	verdict = b->settled;
	for (i = 0; i < tree->nthreads; i++) {
		if (!tree->threads[i].defined && tree->threads[i].nevents)
			tree->anomalies.unknown_threads++;
		sampling_verdict_add(&verdict, &state_peek(b, i)->probe);
	}
	tree->sampled =
	        tree->header.sampled || sampling_verdict_sampled(&verdict);
	if (tree->header.sample_interval)
		tree->sample_interval = tree->header.sample_interval;
	else if (sampling_verdict_sampled(&verdict))
		tree->sample_interval = sampling_verdict_interval(&verdict);
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

void
build_alloc_calls(struct calltree_builder *b, size_t n, bool narrow,
                  bool parents)
{
	calltree_alloc_calls(b->tree, n, narrow);
	b->parent = n && parents ? xreallocarray(NULL, n, sizeof(*b->parent))
	                         : NULL;
}

void
build_place_thread(struct calltree_builder *b, size_t t, size_t base,
                   size_t orphans, size_t enters, bool settles)
{
	struct tt_calls *c = &b->tree->calls;
	struct thread_calls *tc = &state_of(b, t)->calls;
	size_t n = orphans + enters, i;
	int k;

	b->tree->threads[t].first_call = (uint32_t)base;
	b->tree->threads[t].ncalls = (uint32_t)n;
	tc->placed = true;
	state_of(b, t)->settles = settles;
	tc->base = (uint32_t)base;
	tc->cap = n;
	tc->count = tc->orphan_slots = orphans;
	tc->nchunks = tc->chunks_cap = (n + CHUNK_CALLS - 1) / CHUNK_CALLS;
	tc->chunks =
	        xcalloc(tc->nchunks ? tc->nchunks : 1, sizeof(*tc->chunks));
	for (i = 0; i < tc->nchunks; i++) {
		struct call_chunk *ch = &tc->chunks[i];
		size_t at = base + i * CHUNK_CALLS;

		ch->borrowed = true;
		ch->method = c->method ? c->method + at : NULL;
		ch->method16 = c->method16 ? c->method16 + at : NULL;
		ch->parent = b->parent ? b->parent + at : NULL;
		ch->flags = c->flags + at;
		for (k = 0; k < CLOCK_COUNT; k++) {
			if (!c->start[k])
				continue;
			ch->start[k] = c->start[k] + at;
			ch->duration[k] = c->duration[k] + at;
		}
	}
}

void
build_reset_calls(struct calltree_builder *b)
{
	struct calltree *tree = b->tree;
	size_t t;

	for (t = 0; t < tree->nthreads; t++) {
		struct tt_thread *th = &tree->threads[t];

		thread_state_free(b->states[t]);
		b->states[t] = NULL;
		th->first_call = th->ncalls = 0;
		th->nevents = 0;
		th->max_depth = 0;
		memset(th->first, 0, sizeof(th->first));
		memset(th->last, 0, sizeof(th->last));
	}
	calltree_free_calls(tree);
	free(b->parent);
	b->parent = NULL;
	b->placed = false;
}

void
build_add_anomalies(struct tt_anomalies *to, const struct tt_anomalies *from)
{
	int k;

	to->orphan_exits += from->orphan_exits;
	to->mismatched_exits += from->mismatched_exits;
	to->lost_exits += from->lost_exits;
	to->open_at_end += from->open_at_end;
	to->unknown_methods += from->unknown_methods;
	to->unknown_threads += from->unknown_threads;
	for (k = 0; k < CLOCK_COUNT; k++) {
		to->negative_steps[k] += from->negative_steps[k];
		to->wraps[k] += from->wraps[k];
	}
	to->action3 += from->action3;
	to->unwinds += from->unwinds;
}

void
build_worker_init(struct build_worker *w, struct calltree_builder *b,
                  struct tt_anomalies *an, bool shared)
{
	size_t n = 64;

	memset(w, 0, sizeof(*w));
	w->b = b;
	w->an = an;
	w->shared = shared;
	w->known = (uint32_t)b->tree->nmethods;
	w->method_ids = &b->method_ids;
	w->has_clock = b->tree->has_clock;
	w->header = &b->tree->header;
	util_map_init(&w->unknown_ids);
	memset(an, 0, sizeof(*an));
	while (n < METHOD_CACHE && n < 4 * (size_t)w->known)
		n *= 2;
	w->method_cache = xcalloc(n, sizeof(*w->method_cache));
	w->cache_mask = (uint32_t)n - 1;
}

void
build_worker_done(struct build_worker *w)
{
	util_map_done(&w->unknown_ids);
	free(w->method_cache);
	w->method_cache = NULL;
	free(w->unknown);
	free(w->deep.calls);
	free(w->window);
	w->window = NULL;
	w->unknown = NULL;
	w->deep = (struct deep_list){0};
}

static int
first_needed_cmp(const void *a, const void *b)
{
	const struct unknown_method *x = a, *y = b;

	return (x->record > y->record) - (x->record < y->record);
}

uint32_t **
build_settle_unknown(struct build_worker *const *workers, unsigned n)
{
	struct unknown_method *all;
	uint32_t **remap = xcalloc(n, sizeof(*remap));
	size_t count = 0, i;
	unsigned w;

	for (w = 0; w < n; w++)
		count += workers[w]->nunknown;
	all = xmalloc((count + 1) * sizeof(*all));
	for (w = 0, count = 0; w < n; w++) {
		if (!workers[w]->nunknown)
			continue;
		memcpy(all + count, workers[w]->unknown,
		       workers[w]->nunknown * sizeof(*all));
		count += workers[w]->nunknown;
	}
	/* Records are read once each: the earliest need of an id is
	 * met first, wherever its other needs are. */
	sort_items(all, count, sizeof(*all), first_needed_cmp);
	for (i = 0; i < count; i++)
		method_slot(&workers[0]->b->serial, all[i].id);
	for (w = 0; w < n; w++) {
		remap[w] =
		        xmalloc((workers[w]->nunknown + 1) * sizeof(*remap[w]));
		for (i = 0; i < workers[w]->nunknown; i++)
			remap[w][i] = method_slot(&workers[0]->b->serial,
			                          workers[w]->unknown[i].id);
	}
	free(all);
	return remap;
}

bool
build_remap_methods(struct build_worker *w, size_t t, const uint32_t *remap)
{
	struct tt_calls *c = &w->b->tree->calls;
	size_t i, first = w->b->tree->threads[t].first_call;
	size_t n = w->b->tree->threads[t].ncalls;

	if (!w->nunknown)
		return true;
	for (i = first; i < first + n && c->method; i++)
		if (c->method[i] >= w->known)
			c->method[i] = remap[c->method[i] - w->known];
	for (i = first; i < first + n && c->method16; i++) {
		uint32_t m = c->method16[i];

		if (m < w->known)
			continue;
		if (remap[m - w->known] > UINT16_MAX)
			return false;
		c->method16[i] = (uint16_t)remap[m - w->known];
	}
	return true;
}

static void
builder_done(struct calltree_builder *b)
{
	size_t i;

	for (i = 0; i < b->tree->nthreads; i++)
		thread_state_free(b->states[i]);
	free(b->states);
	turn_free(b);
	free(b->parent);
	free(b->frame_flags);
	b->hooks->split_free(b);
	if (b->event_sums)
		b->hooks->sum_events_end(b, false);
	build_worker_done(&b->serial);
	free(b->tid_direct);
	util_map_done(&b->thread_ids);
	util_map_done(&b->thread_alias);
	util_map_done(&b->method_ids);
	free(b);
}

struct calltree_builder *
build_new(const char *path, const struct build_hooks *hooks)
{
	struct calltree_builder *b = xcalloc(1, sizeof(*b));
	struct calltree *tree = xcalloc(1, sizeof(*tree));

	b->tree = tree;
	b->hooks = hooks;
	/* Zero pages until an id is met: a small trace touches a few. */
	b->tid_direct = xcalloc(TID_DIRECT, sizeof(*b->tid_direct));
	build_worker_init(&b->serial, b, &tree->anomalies, false);
	sampling_verdict_init(&b->settled);
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
	        .records = hooks->records,
	        .walked = hooks->walked,
	        .ahead_begin = hooks->ahead_begin,
	        .ahead_method = hooks->ahead_method,
	        .ahead_records = hooks->ahead_records,
	        .ahead_end = hooks->ahead_end,
	        .warning = on_warning,
	        .progress = on_progress,
	};
	return b;
}

void
calltree_builder_keep_cpu(struct calltree_builder *b)
{
	b->keep_cpu = true;
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
