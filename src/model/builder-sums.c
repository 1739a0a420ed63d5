/*
 * builder-sums: the calls of a V1 data part's records summed as they
 * close, with no model written: what `report` needs, in a fraction of
 * the time and memory of the model.
 *
 * It follows the event path's rules (model/builder.c) for threads that
 * settle as they are built: times unwrapped, rebased and clamped by the
 * same read_times; an exit, unwind or action-3 record closes the top
 * frame, or the frames above a deeper match (lost exits); what is still
 * open closes at the thread's last event.  A call is recursive when its
 * method is open below it.  Its row and link are taken when it is
 * entered, so rows and links come in the order the profile of the model
 * meets them, and sums_add_call adds it when it closes.  What the
 * counts did not foresee (an exit that finds no frame: an orphan) and
 * methods the key does not define fail the worker: the model is built
 * instead.  tests/model-equal compares both ways on every fixture,
 * generated and real trace.  Records of a file are read a window at a
 * time with pread (build_records_window), not through the mapping.
 *
 * It uses the core and builder-records.c; the second worker of a split
 * (w->side) has its threads from builder-split.c, through the hook
 * split_thread.  A thread's sums are freed with its state, by the core.
 * A nested trace's events are summed as they come (build_sum_event);
 * where the header says its threads come in turn (simpleperf), each
 * thread's sums are handed to the model and its state freed when the
 * next thread's events begin, so a million threads hold one state.
 */
#include "config.h"

#include "model/builder.h"

#include "read/bytes.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

/* Thread t's sums, made on its first call; NULL when the threads
 * summed so far have too many methods between them. */
static struct sums_build *
sums_of(struct build_worker *w, struct thread_state *st,
        const struct tt_thread *th)
{
	struct calltree_builder *b = w->b;

	if (!st->sums) {
		if (++w->summing > SETTLE_OPEN / (w->known + 1))
			return NULL;
		st->sums = xcalloc(1, sizeof(*st->sums));
		st->sums->nmethods = w->known + 1;
		st->sums->row_of =
		        xcalloc(st->sums->nmethods, sizeof(*st->sums->row_of));
		st->sums->top_of =
		        xcalloc(st->sums->nmethods, sizeof(*st->sums->top_of));
		if (b->paths) {
			st->sums->paths = xmalloc(sizeof(*st->sums->paths));
			paths_init(st->sums->paths);
		}
		if (b->frame_flags) {
			st->sums->frames = xmalloc(sizeof(*st->sums->frames));
			frame_watch_init(st->sums->frames, b->frame_flags,
			                 b->nframe_flags, w->has_clock);
		}
		if (b->triage_spec) {
			st->sums->triage = xmalloc(sizeof(*st->sums->triage));
			triage_watch_init(st->sums->triage, b->triage_spec,
			                  th->tid);
		}
	}
	return st->sums;
}

/* Room in s's tables by method for method m: a worker summing ahead of
 * the reader's report learns of methods as it goes. */
static void
sums_fit(struct sums_build *s, uint32_t m)
{
	size_t old = s->nmethods, n = old;

	UTIL_GROW(s->row_of, n, (size_t)m + 1);
	s->top_of = xreallocarray(s->top_of, n, sizeof(*s->top_of));
	memset(s->row_of + old, 0, (n - old) * sizeof(*s->row_of));
	memset(s->top_of + old, 0, (n - old) * sizeof(*s->top_of));
	s->nmethods = n;
}

/* The row of method m in s, added empty when first met. */
static inline struct profile_row *
row_of(struct sums_build *s, uint32_t m)
{
	if (__builtin_expect(m >= s->nmethods, 0))
		sums_fit(s, m);
	if (!s->row_of[m]) {
		struct thread_sums *o = &s->out;
		size_t cap = s->rows_cap;

		UTIL_GROW(o->rows, s->rows_cap, o->count + 1);
		if (s->rows_cap != cap) /* once per growth, not per row */
			o->methods = xreallocarray(o->methods, s->rows_cap,
			                           sizeof(*o->methods));
		memset(&o->rows[o->count], 0, sizeof(*o->rows));
		o->methods[o->count] = m;
		s->row_of[m] = (uint32_t)++o->count;
	}
	return &s->out.rows[s->row_of[m] - 1];
}

/* Index of the link of the pair, guessed from (*table)[key], which is
 * then set to it. */
static inline uint32_t
guessed_link(struct sums_build *s, uint32_t **table, size_t *cap, uint32_t key,
             uint32_t parent, uint32_t m, bool rec, bool parent_rec)
{
	const struct profile_link *l;
	uint32_t g;

	if (key < *cap) {
		g = (*table)[key];
		l = &s->links.links[g];
		if (g < s->links.count && l->child == m &&
		    l->child_recursive == rec && l->parent == parent &&
		    l->parent_recursive == parent_rec)
			return g;
	} else {
		size_t old = *cap;

		UTIL_GROW(*table, *cap, (size_t)key + 1);
		memset(*table + old, 0xFF, (*cap - old) * sizeof(**table));
	}
	g = (uint32_t)(link_slot(&s->links, parent, m, rec, parent_rec) -
	               s->links.links);
	(*table)[key] = g;
	return g;
}

/*
 * Index of the link of the pair, for a call at stack index `at` under a
 * caller whose link is `under` (UINT32_MAX for a top-level caller, which
 * has none yet).  Code calls the same callees in the same order over
 * and over: the guess is the callee that came after the caller's last
 * closed callee last time, or, for its first, the first callee under
 * the caller last time.
 */
static inline uint32_t
link_under(struct sums_build *s, size_t at, uint32_t under, uint32_t parent,
           uint32_t m, bool rec, bool parent_rec)
{
	uint32_t prev = s->closed[at];

	if (prev != UINT32_MAX)
		return guessed_link(s, &s->next, &s->next_cap, prev, parent, m,
		                    rec, parent_rec);
	if (under == UINT32_MAX)
		return (uint32_t)(link_slot(&s->links, parent, m, rec,
		                            parent_rec) -
		                  s->links.links);
	return guessed_link(s, &s->first, &s->first_cap, under, parent, m, rec,
	                    parent_rec);
}

/* The sums of the top-level calls of method m closed since the last
 * orphan: their link once their caller is known. */
static struct profile_link *
top_link(struct sums_build *s, uint32_t m)
{
	if (m >= s->nmethods)
		sums_fit(s, m);
	if (!s->top_of[m]) {
		UTIL_GROW(s->top, s->top_cap, s->ntop + 1);
		memset(&s->top[s->ntop], 0, sizeof(*s->top));
		s->top[s->ntop].child = m;
		s->top_of[m] = (uint32_t)++s->ntop;
	}
	return &s->top[s->top_of[m] - 1];
}

/* The top-level calls closed since the last orphan are called by
 * `parent` (CALL_NONE: they stay at the top level): into their links. */
static void
adopt_top(struct sums_build *s, uint32_t parent)
{
	size_t i;
	int k;

	for (i = 0; i < s->ntop; i++) {
		const struct profile_link *top = &s->top[i];
		struct profile_link *l =
		        link_slot(&s->links, parent, top->child, false, false);

		l->calls += top->calls;
		for (k = 0; k < CLOCK_COUNT; k++)
			l->incl[k] += top->incl[k];
		s->top_of[top->child] = 0;
	}
	s->ntop = 0;
}

/* Enter method id at `at` on thread state st; false when it cannot be
 * summed. */
static inline bool
sum_enter(struct build_worker *w, struct thread_state *st, struct tt_thread *th,
          uint64_t id, const uint64_t *at)
{
	struct sums_build *s = sums_of(w, st, th);
	const struct method_cache_entry *hit =
	        &w->method_cache[(id >> 2) & w->cache_mask];
	uint32_t m = hit->key == ~id ? hit->index : build_method_slot(w, id);
	struct frame *f;

	if (!s || m >= w->known)
		return false; /* undefined: its index comes at the end */
	if (s->frames && m >= s->frames->nmethods)
		return false; /* defined after the frame methods were */
	if (m >= st->open_cap) {
		size_t old = st->open_cap;

		UTIL_GROW(st->open, st->open_cap, (size_t)m + 1);
		memset(st->open + old, 0,
		       (st->open_cap - old) * sizeof(*st->open));
	}
	row_of(s, m);
	UTIL_GROW(st->stack, st->stack_cap, st->depth + 1);
	if (st->depth + 2 > s->closed_cap) {
		size_t old = s->closed_cap;

		UTIL_GROW(s->closed, s->closed_cap, st->depth + 2);
		memset(s->closed + old, 0xFF,
		       (s->closed_cap - old) * sizeof(*s->closed));
	}
	f = &st->stack[st->depth];
	if (st->depth) {
		/* A top-level frame's `call` is unused: UINT32_MAX. */
		uint32_t under = f[-1].call;
		bool parent_rec =
		        st->depth > 1 && s->links.links[under].child_recursive;

		f->call = link_under(s, st->depth, under, f[-1].method, m,
		                     st->open[m] != 0, parent_rec);
	} else {
		f->call = UINT32_MAX;
	}
	s->closed[st->depth + 1] = UINT32_MAX; /* no callee of it yet */
	if (s->paths)
		paths_open(s->paths, st->depth, m);
	st->open[m]++;
	st->depth++;
	f->method = m;
	f->id = id;
	memcpy(f->start, at, sizeof(f->start));
	if (s->frames)
		frame_watch_enter(s->frames, (uint32_t)st->depth - 1, m, at);
	if (s->triage &&
	    !triage_watch_enter(s->triage, (uint32_t)st->depth - 1, m, at))
		return false;
	if (st->depth > s->top_depth)
		s->top_depth = (uint32_t)st->depth;
	if (st->depth > th->max_depth)
		th->max_depth = (uint32_t)st->depth;
	return true;
}

/* Close the top frame of st at `at`, on the clocks has_clock says. */
static inline void
sum_pop(const bool *has_clock, struct thread_state *st, const uint64_t *at)
{
	struct sums_build *s = st->sums;
	const struct frame *f = &st->stack[--st->depth];
	uint64_t dur[CLOCK_COUNT];
	int k;

	for (k = 0; k < CLOCK_COUNT; k++)
		dur[k] = has_clock[k] ? at[k] - f->start[k] : 0;
	st->open[f->method]--;
	s->closed[st->depth] = f->call;
	if (s->paths)
		paths_close(s->paths, st->depth, dur);
	if (s->frames)
		frame_watch_close(s->frames, (uint32_t)st->depth, f->method,
		                  st->depth ? f[-1].method : CALL_NONE, dur);
	if (s->triage)
		triage_watch_close(s->triage, (uint32_t)st->depth, dur);
	if (__builtin_expect(st->depth < s->prefix, 0)) {
		/* Opened before the split: its time before it comes later. */
		UTIL_GROW(s->closes, s->closes_cap, s->ncloses + 1);
		s->closes[s->ncloses++] = (struct prefix_close){
		        (uint32_t)st->depth, st->depth ? f->call : UINT32_MAX,
		        f->method};
		s->prefix = (uint32_t)st->depth;
	}
	if (st->depth) {
		struct profile_link *l = &s->links.links[f->call];

		sums_add_call(row_of(s, l->child), row_of(s, l->parent), l,
		              l->child_recursive, l->parent_recursive, dur);
		return;
	}
	sums_add_call(row_of(s, f->method), NULL, top_link(s, f->method), false,
	              false, dur);
	if (s->top_depth > s->adopted_depth)
		s->adopted_depth = s->top_depth;
	s->top_depth = 0;
}

/*
 * An exit of method m that meets no frame (FORMAT.md 9.2 step 3): a call
 * from the thread's first event to `at` that adopts the top-level calls
 * so far.  False when it would make calls already summed recursive (m
 * was called before on the thread): only the model can redo them, or
 * when the thread is continued after a split.
 */
static bool
sum_orphan(struct build_worker *w, struct thread_state *st,
           struct tt_thread *th, uint64_t id, const uint64_t *at)
{
	struct sums_build *s = sums_of(w, st, th);
	uint32_t m = build_method_slot(w, id);
	uint64_t dur[CLOCK_COUNT], adopted[CLOCK_COUNT] = {0};
	struct profile_row *row;
	size_t i;
	int k;

	if (!s || m >= w->known || st->continued)
		return false; /* continued: what it adopts came before */
	if (m >= s->nmethods)
		sums_fit(s, m);
	if (s->row_of[m])
		return false;
	if (s->frames && m >= s->frames->nmethods)
		return false;
	for (k = 0; k < CLOCK_COUNT; k++)
		dur[k] = w->has_clock[k] ? at[k] - th->first[k] : 0;
	for (i = 0; i < s->ntop; i++)
		for (k = 0; k < CLOCK_COUNT; k++)
			adopted[k] += s->top[i].incl[k];
	if (s->triage && !triage_watch_orphan(s->triage, m,
	                                      th->first[s->triage->spec->clock],
	                                      dur, adopted))
		return false;
	adopt_top(s, m);
	row = row_of(s, m);
	for (k = 0; k < CLOCK_COUNT; k++)
		dur[k] = w->has_clock[k] ? at[k] - th->first[k] : 0;
	sums_add_call(row, NULL, top_link(s, m), false, false, dur);
	if (s->paths)
		paths_orphan(s->paths, m, dur);
	for (k = 0; k < CLOCK_COUNT; k++) {
		row->excl[k] -= adopted[k];
		row->top_excl[k] -= adopted[k];
	}
	if (s->frames && s->frames->is_frame[m])
		frame_watch_orphan(s->frames, th->first, dur, s->out.methods,
		                   s->out.rows, s->out.count);
	s->adopted_depth++;
	if (s->adopted_depth > th->max_depth)
		th->max_depth = s->adopted_depth;
	w->an->orphan_exits++;
	return true;
}

/* An exit, unwind or action-3 record of method id, as the event path's
 * leave() takes it; false when it cannot be summed. */
static inline bool
sum_leave(struct build_worker *w, struct thread_state *st, struct tt_thread *th,
          uint64_t id, const uint64_t *at)
{
	size_t i;

	if (st->depth && st->stack[st->depth - 1].id == id) {
		sum_pop(w->has_clock, st, at);
		return true;
	}
	if (st->depth)
		w->an->mismatched_exits++;
	for (i = st->depth; i > 0 && st->stack[i - 1].id != id; i--)
		;
	if (i) {
		while (st->depth > i) {
			sum_pop(w->has_clock, st, at);
			w->an->lost_exits++;
		}
		sum_pop(w->has_clock, st, at);
		return true;
	}
	while (st->depth) {
		sum_pop(w->has_clock, st, at);
		w->an->lost_exits++;
	}
	return sum_orphan(w, st, th, id, at);
}

/*
 * Sum records [from, to) of r, decoded as r's version and clock say
 * (constants where it is inlined), in one pass: a change of thread id
 * changes the thread state in use.
 */
static inline __attribute__((always_inline)) void
sum_records(struct build_worker *w, const struct trace_records *run,
            size_t from, size_t to, unsigned version, enum trace_clock clock)
{
	struct calltree_builder *b = w->b;
	bool wraps = w->header->time_bits == 32;
	struct trace_records r = *run;
	struct thread_state *st = NULL;
	struct tt_thread *th = NULL;
	struct trace_event ev;
	uint32_t tid = 0;
	size_t i;

	r.version = version;
	r.clock = clock;
	for (i = from; i < to; i++) {
		uint64_t at[CLOCK_COUNT];
		bool ok;

		trace_records_get(&r, i, &ev);
		w->record = i;
		if (!st || ev.tid != tid) {
			tid = ev.tid;
			if (w->side) {
				if (!b->hooks->split_thread(w, tid, &st, &th)) {
					w->failed = true;
					return;
				}
			} else {
				uint32_t t = build_thread_of(b, tid);

				st = build_state_of(b, t);
				th = &b->tree->threads[t];
			}
		}
		if (__builtin_expect(!st->nevents, 0)) {
			uint64_t raw[CLOCK_COUNT] = {ev.cpu, ev.wall};

			build_start_clocks(b, w->has_clock, st, th, raw);
		}
		st->nevents++;
		read_times(st->clocks, st->cpu_base, &st->probe, w->an, clock,
		           wraps, ev.cpu, ev.wall, at);
		switch (ev.action) {
		case TRACE_ENTER:
			ok = sum_enter(w, st, th, ev.method_id, at);
			break;
		case TRACE_ACTION3:
			w->an->action3++;
			ok = sum_leave(w, st, th, ev.method_id, at);
			break;
		case TRACE_UNWIND:
			w->an->unwinds++;
			ok = sum_leave(w, st, th, ev.method_id, at);
			break;
		default:
			ok = sum_leave(w, st, th, ev.method_id, at);
			break;
		}
		if (__builtin_expect(!ok, 0)) {
			w->failed = true;
			return;
		}
	}
}

/* sum_records, its version and clock told apart once. */
static void
sum_piece(struct build_worker *w, const struct trace_records *run, size_t from,
          size_t to)
{
	if (run->version < 2)
		sum_records(w, run, from, to, 1, run->clock);
	else if (run->clock == TRACE_CLOCK_DUAL)
		sum_records(w, run, from, to, 3, TRACE_CLOCK_DUAL);
	else if (run->clock == TRACE_CLOCK_CPU)
		sum_records(w, run, from, to, 2, TRACE_CLOCK_CPU);
	else
		sum_records(w, run, from, to, 2, TRACE_CLOCK_WALL);
}

struct trace_records
build_records_window(struct build_worker *w, const struct trace_records *run,
                     const struct trace_records *v, size_t from, size_t to,
                     size_t *stop)
{
	struct trace_records out = *v;
	size_t n = RECORDS_WINDOW / v->size;

	*stop = to;
	if (!run->has_fd || !n)
		return out;
	if (to - from < n)
		n = to - from;
	if (!w->window)
		w->window = xmalloc(RECORDS_WINDOW);
	/* A file that gives fewer bytes (it shrank) is read as mapped. */
	if (!trace_read_at(run->fd, w->window, n * v->size,
	                   run->offset + (uint64_t)(v->data + from * v->size -
	                                            run->data)))
		return out;
	out.data = w->window - from * v->size;
	*stop = from + n;
	return out;
}

void
build_sum_records(struct build_worker *w, const struct trace_records *run,
                  size_t from, size_t to)
{
	while (from < to && !w->failed) {
		size_t end, stop;
		struct trace_records piece = trace_records_at(run, from, &end);

		if (end > to)
			end = to;
		while (from < end && !w->failed) {
			struct trace_records window = build_records_window(
			        w, run, &piece, from, end, &stop);

			sum_piece(w, &window, from, stop);
			from = stop;
		}
	}
}

void
build_sum_finish(struct calltree_builder *b, size_t t, struct tt_anomalies *an)
{
	struct calltree *tree = b->tree;
	struct thread_state *st = b->states[t];

	build_settle_thread_times(b, t);
	if (!st)
		return; /* named, never ran: no state was made */
	if (st->sums && st->sums->triage)
		st->sums->triage->at_end = true;
	while (st->depth) {
		sum_pop(tree->has_clock, st, tree->threads[t].last);
		an->open_at_end++;
	}
	if (st->sums) {
		adopt_top(st->sums, CALL_NONE);
		st->sums->out.links = st->sums->links.links;
		st->sums->out.nlinks = st->sums->links.count;
		st->sums->links.links = NULL;
		if (st->sums->paths)
			paths_finish(st->sums->paths, &st->sums->out.paths,
			             &st->sums->out.npaths);
		if (st->sums->frames)
			frame_watch_finish(st->sums->frames,
			                   &st->sums->out.frames,
			                   &st->sums->out.nframes);
		if (st->sums->triage) {
			st->sums->out.triage =
			        triage_watch_finish(st->sums->triage);
			st->sums->out.ntriage = b->triage_spec->nrules;
			st->sums->out.triage_frames = triage_watch_frames(
			        st->sums->triage,
			        &st->sums->out.ntriage_frames);
		}
		tree->sums[t] = st->sums->out;
		st->sums->out = (struct thread_sums){0};
	}
}

bool
build_sum_all(struct calltree_builder *b, const struct trace_records *run)
{
	struct calltree *tree = b->tree;
	struct build_worker w;
	struct tt_anomalies an;
	size_t stretch, t;
	bool ok;

	/* Shared, so that undefined methods fail it. */
	build_worker_init(&w, b, &an, true);
	for (stretch = 0; stretch < run->count && !w.failed;
	     stretch += STRETCH) {
		size_t end = run->count - stretch > STRETCH ? stretch + STRETCH
		                                            : run->count;

		build_sum_records(&w, run, stretch, end);
		build_release_records(run, stretch, end);
		if (b->progress)
			b->progress(b->progress_arg,
			            run->offset + (uint64_t)end * run->size,
			            run->total);
	}
	ok = !w.failed;
	if (ok) {
		tree->sums = xcalloc(tree->nthreads + 1, sizeof(*tree->sums));
		tree->frames_summed = b->frame_flags != NULL;
		tree->triage_summed = b->triage_spec != NULL;
		build_add_anomalies(&tree->anomalies, &an);
		for (t = 0; t < tree->nthreads; t++)
			build_sum_finish(b, t, &tree->anomalies);
		tree->records += run->count;
		b->summed = true;
	}
	build_worker_done(&w);
	return ok;
}

/* Room in tree->sums for every thread so far, the new ones zero (and
 * only those: the room past them is zeroed when threads come). */
static void
fit_tree_sums(struct calltree_builder *b, struct event_sums *e)
{
	struct calltree *tree = b->tree;
	size_t need = tree->nthreads + 1;

	if (need <= e->sums_zeroed)
		return;
	UTIL_GROW(tree->sums, e->sums_cap, need);
	memset(tree->sums + e->sums_zeroed, 0,
	       (need - e->sums_zeroed) * sizeof(*tree->sums));
	e->sums_zeroed = need;
}

/*
 * A thread's rows, links and methods, summed as events came (no paths
 * or frames), moved into one block of the model's arena, as long as what
 * they hold: a million one-sample threads then keep a row and a link
 * each, not the room their arrays grew to and a heap block apiece.
 * Every thread's sums go there once the first's do (sums_in_arena).
 */
static void
sums_to_arena(struct calltree *tree, struct thread_sums *s)
{
	size_t rows = s->count * sizeof(*s->rows);
	size_t links = s->nlinks * sizeof(*s->links);
	size_t methods = s->count * sizeof(*s->methods);
	char *p = rows + links ? util_arena_alloc(&tree->arena,
	                                          rows + links + methods)
	                       : NULL;

	if (p) {
		memcpy(p, s->rows, rows);
		memcpy(p + rows, s->links, links);
		memcpy(p + rows + links, s->methods, methods);
	}
	free(s->rows);
	free(s->links);
	free(s->methods);
	s->rows = (struct profile_row *)(void *)p;
	s->links = p ? (struct profile_link *)(void *)(p + rows) : NULL;
	s->methods = p ? (uint32_t *)(void *)(p + rows + links) : NULL;
	tree->sums_in_arena = true;
}

/* Thread t's sums handed to the model now, its state freed: with the
 * header's threads_in_turn, its events are over when another's begin,
 * and a recording of a million threads holds one state at a time. */
static void
finish_in_turn(struct calltree_builder *b, struct event_sums *e, size_t t)
{
	if (!b->states[t])
		return;
	fit_tree_sums(b, e);
	build_sum_finish(b, t, &e->an);
	sums_to_arena(b->tree, &b->tree->sums[t]);
	sampling_verdict_add(&b->settled, &b->states[t]->probe);
	build_state_free(b->states[t]);
	b->states[t] = NULL;
}

/* Whether thread t's sums were handed on by finish_in_turn: its events
 * counted, its state gone. */
static bool
finished_in_turn(const struct calltree_builder *b, size_t t)
{
	return !b->states[t] && b->tree->threads[t].nevents;
}

bool
build_sum_event(struct calltree_builder *b, uint32_t tid, uint64_t method_id,
                enum trace_action action, uint64_t cpu, uint64_t wall)
{
	struct event_sums *e = b->event_sums;
	struct build_worker *w = &e->w;
	struct thread_state *st;
	struct tt_thread *th;
	uint64_t at[CLOCK_COUNT];

	if (!e->known_thread || e->tid != tid) {
		if (e->known_thread && w->header->threads_in_turn)
			finish_in_turn(b, e, e->t);
		e->known_thread = true;
		e->tid = tid;
		e->t = build_thread_of(b, tid);
		/* A thread back after its turn: the model holds it. */
		if (finished_in_turn(b, e->t))
			return false;
		e->st = build_state_of(b, e->t);
	}
	st = e->st;
	th = &b->tree->threads[e->t];

	/* As the event path's event_times and apply_action. */
	if (__builtin_expect(!st->nevents, 0)) {
		uint64_t raw[CLOCK_COUNT] = {cpu, wall};

		build_start_clocks(b, w->has_clock, st, th, raw);
	}
	st->nevents++;
	read_times(st->clocks, st->cpu_base, &st->probe, w->an,
	           w->header->clock, w->header->time_bits == 32, cpu, wall, at);
	switch (action) {
	case TRACE_ENTER:
		return sum_enter(w, st, th, method_id, at);
	case TRACE_ACTION3:
		w->an->action3++;
		break;
	case TRACE_UNWIND:
		w->an->unwinds++;
		break;
	default:
		break;
	}
	return sum_leave(w, st, th, method_id, at);
}

void
build_sum_events_end(struct calltree_builder *b, bool done)
{
	struct calltree *tree = b->tree;
	struct event_sums *e = b->event_sums;
	size_t t;

	b->event_sums = NULL;
	if (done) {
		fit_tree_sums(b, e);
		build_add_anomalies(&tree->anomalies, &e->an);
		for (t = 0; t < tree->nthreads; t++) {
			if (finished_in_turn(b, t))
				continue;
			build_sum_finish(b, t, &tree->anomalies);
			if (tree->sums_in_arena)
				sums_to_arena(tree, &tree->sums[t]);
		}
		b->summed = true;
	} else if (tree->sums) {
		for (t = 0; t < tree->nthreads && !tree->sums_in_arena; t++)
			thread_sums_done(&tree->sums[t]);
		free(tree->sums);
		tree->sums = NULL;
		tree->sums_in_arena = false;
	}
	build_worker_done(&e->w);
	free(e);
}

bool
build_sum_enter(struct build_worker *w, struct thread_state *st,
                struct tt_thread *th, uint64_t id, const uint64_t *at)
{
	return sum_enter(w, st, th, id, at);
}

/* The times the frames from had opened before the split lacked: each
 * one's time from its start to the split, by into's stack (and into's
 * paths, when summed: that frame's node there). */
static void
add_prefix_times(struct sums_build *s, const struct thread_state *into,
                 const uint64_t *at)
{
	struct path_build *paths = into->sums->paths;
	size_t i;
	int k;

	for (i = 0; i < s->ncloses; i++) {
		const struct prefix_close *c = &s->closes[i];
		uint64_t d[CLOCK_COUNT];

		for (k = 0; k < CLOCK_COUNT; k++)
			d[k] = at[k] - into->stack[c->level].start[k];
		if (paths)
			for (k = 0; k < CLOCK_COUNT; k++)
				paths->nodes[paths->open[c->level]].incl[k] +=
				        d[k];
		if (c->link == UINT32_MAX) {
			sums_add_time(row_of(s, c->method), NULL,
			              top_link(s, c->method), false, false, d);
		} else {
			struct profile_link *l = &s->links.links[c->link];

			sums_add_time(row_of(s, l->child), row_of(s, l->parent),
			              l, l->child_recursive,
			              l->parent_recursive, d);
		}
	}
}

/* Whether the frame open at the split point in `into` (the first
 * worker's watch) is the one `from` opened at its seeded stack. */
static bool
frames_meet(const struct frame_watch *into, const struct frame_watch *from)
{
	if (!into || !from)
		return !into && !from;
	return (into->level != FRAME_CLOSED) ==
	       (from->straddled || from->before_split);
}

/*
 * The frames from's watch found after the split point, on into's, whose
 * stack `at` the point is into's: the frame open there gets from's sums
 * of it and the time before the point of the frames inside it opened
 * before and closed after (s->closes, as add_prefix_times), and is
 * settled if from saw it close; from's frames follow, and a frame from
 * opened and left open becomes into's.
 */
static void
join_frames(struct frame_watch *into, struct frame_watch *from,
            const struct sums_build *s, const struct thread_state *st,
            const uint64_t *at)
{
	enum clock_index k = into->clock;
	uint64_t dur[CLOCK_COUNT], start[CLOCK_COUNT];
	uint32_t level = into->level;
	size_t i;
	int c;

	if (level != FRAME_CLOSED) {
		hot_add_all(&into->hot,
		            from->straddled ? &from->straddle : &from->hot);
		for (i = 0; i < s->ncloses; i++) {
			const struct prefix_close *pc = &s->closes[i];
			int64_t d;

			if (pc->level < level)
				continue;
			d = (int64_t)(at[k] - st->stack[pc->level].start[k]);
			hot_add(&into->hot, pc->method, d);
			if (pc->level > level)
				hot_add(&into->hot,
				        st->stack[pc->level - 1].method, -d);
		}
		if (from->straddled) {
			for (c = 0; c < CLOCK_COUNT; c++)
				dur[c] = into->has_clock[c]
				                 ? from->straddle_dur[c] +
				                           at[c] -
				                           into->start[c]
				                 : 0;
			frame_watch_append(into, into->start, dur);
			into->level = FRAME_CLOSED;
		}
	}
	for (i = 0; i < from->count; i++) {
		struct frame_sum *f;

		UTIL_GROW(into->done, into->cap, into->count + 1);
		f = &into->done[into->count++];
		*f = from->done[i];
		for (c = 0; c < CLOCK_COUNT; c++)
			f->start[c] += at[c];
	}
	if (from->level != FRAME_CLOSED && !from->before_split) {
		struct hot_sums settled = into->hot;

		for (c = 0; c < CLOCK_COUNT; c++)
			start[c] = from->start[c] + at[c];
		into->hot = from->hot;
		from->hot = settled;
		into->level = from->level;
		into->before_split = false;
		memcpy(into->start, start, sizeof(start));
	}
}

bool
build_sums_merge(struct thread_state *into, struct thread_state *from,
                 const uint64_t *at)
{
	struct sums_build *s = from->sums, *is = into->sums;
	uint32_t *remap;
	size_t i;
	int k;

	if (!s || !is || into->depth != s->seeded)
		return false;
	for (i = 0; i < s->prefix; i++)
		if (into->stack[i].id != from->stack[i].id)
			return false;
	for (i = 0; i < s->ncloses; i++)
		if (into->stack[s->closes[i].level].method !=
		    s->closes[i].method)
			return false;
	if (!frames_meet(is->frames, s->frames) || !is->triage != !s->triage ||
	    (s->triage && !triage_watch_joinable(s->triage)))
		return false;
	add_prefix_times(s, into, at);
	if (is->triage && s->triage) {
		uint64_t(*before)[CLOCK_COUNT] =
		        xcalloc(s->seeded + 1, sizeof(*before));

		for (i = 0; i < s->seeded; i++)
			for (k = 0; k < CLOCK_COUNT; k++)
				before[i][k] = at[k] - into->stack[i].start[k];
		triage_watch_join(is->triage, s->triage,
		                  (const uint64_t(*)[CLOCK_COUNT])before, at);
		free(before);
	}
	if (is->frames)
		join_frames(is->frames, s->frames, s, into, at);
	if (is->paths)
		paths_add(is->paths, s->paths, s->prefix, from->depth);
	for (i = 0; i < s->out.count; i++)
		sums_add_row(row_of(is, s->out.methods[i]), &s->out.rows[i]);
	remap = xmalloc((s->links.count + 1) * sizeof(*remap));
	for (i = 0; i < s->links.count; i++)
		remap[i] = link_table_add(&is->links, &s->links.links[i]);
	for (i = 0; i < s->ntop; i++) {
		struct profile_link *l = top_link(is, s->top[i].child);

		l->calls += s->top[i].calls;
		for (k = 0; k < CLOCK_COUNT; k++)
			l->incl[k] += s->top[i].incl[k];
	}
	/* The frames opened after the split, on the ones still open. */
	UTIL_GROW(into->stack, into->stack_cap, from->depth);
	for (i = s->prefix; i < from->depth; i++) {
		struct frame *f = &into->stack[i];

		*f = from->stack[i];
		if (i)
			f->call = remap[f->call];
		for (k = 0; k < CLOCK_COUNT; k++)
			f->start[k] += at[k];
	}
	into->depth = from->depth;
	free(remap);
	if (!from->open_cap) {
		/* nothing was opened after the split */
	} else if (from->open_cap > into->open_cap) {
		free(into->open);
		into->open = from->open;
		into->open_cap = from->open_cap;
		from->open = NULL;
		from->open_cap = 0;
	} else {
		memcpy(into->open, from->open,
		       from->open_cap * sizeof(*into->open));
		memset(into->open + from->open_cap, 0,
		       (into->open_cap - from->open_cap) * sizeof(*into->open));
	}
	/* The guesses of links name from's links: forget them. */
	UTIL_GROW(is->closed, is->closed_cap, into->depth + 2);
	memset(is->closed, 0xFF, is->closed_cap * sizeof(*is->closed));
	return true;
}
