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
 * generated and real trace.
 */
#include "config.h"

#include "model/builder.h"

#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

/* Thread t's sums, made on its first call; NULL when the threads
 * summed so far have too many methods between them. */
static struct sums_build *
sums_of(struct calltree_builder *b, struct thread_state *st)
{
	if (!st->sums) {
		if (++b->summing >
		    SETTLE_OPEN / (b->tree->nmethods + 1))
			return NULL;
		st->sums = xcalloc(1, sizeof(*st->sums));
		st->sums->nmethods = b->tree->nmethods + 1;
		st->sums->row_of =
		        xcalloc(st->sums->nmethods, sizeof(*st->sums->row_of));
	}
	return st->sums;
}

/* The row of method m in s, added empty when first met. */
static inline struct profile_row *
row_of(struct sums_build *s, uint32_t m)
{
	if (!s->row_of[m]) {
		struct thread_sums *o = &s->out;

		UTIL_GROW(o->rows, s->rows_cap, o->count + 1);
		o->methods = xreallocarray(o->methods, s->rows_cap,
		                           sizeof(*o->methods));
		memset(&o->rows[o->count], 0, sizeof(*o->rows));
		o->methods[o->count] = m;
		s->row_of[m] = (uint32_t)++o->count;
	}
	return &s->out.rows[s->row_of[m] - 1];
}

/* Index of the link of the pair under the caller's link (`under` is 1
 * + its index, 0 at the top level), guessed from the last call made
 * under it: a loop calls the same callee over and over. */
static inline uint32_t
link_under(struct sums_build *s, size_t under, uint32_t parent, uint32_t m,
           bool rec, bool parent_rec)
{
	uint32_t g;

	if (under < s->guess_cap) {
		g = s->guess[under];
		if (g < s->links.count && s->links.links[g].child == m &&
		    s->links.links[g].child_recursive == rec &&
		    (under || s->links.links[g].parent == CALL_NONE))
			return g;
	} else {
		size_t old = s->guess_cap;

		UTIL_GROW(s->guess, s->guess_cap, under + 1);
		memset(s->guess + old, 0xFF,
		       (s->guess_cap - old) * sizeof(*s->guess));
	}
	g = (uint32_t)(link_slot(&s->links, parent, m, rec, parent_rec) -
	               s->links.links);
	s->guess[under] = g;
	return g;
}

/* Enter method id at `at` on thread state st; false when it cannot be
 * summed. */
static inline bool
sum_enter(struct build_worker *w, struct thread_state *st, uint32_t t,
          uint64_t id, const uint64_t *at)
{
	struct sums_build *s = sums_of(w->b, st);
	uint32_t m = build_method_slot(w, id), parent = CALL_NONE;
	struct tt_thread *th = &w->b->tree->threads[t];
	bool parent_rec = false, rec;
	struct frame *f;

	if (!s || m >= w->known)
		return false; /* undefined: its index comes at the end */
	if (st->depth) {
		const struct profile_link *pl =
		        &s->links.links[st->stack[st->depth - 1].call];

		parent = pl->child;
		parent_rec = pl->child_recursive;
	}
	if (m >= st->open_cap) {
		size_t old = st->open_cap;

		UTIL_GROW(st->open, st->open_cap, (size_t)m + 1);
		memset(st->open + old, 0,
		       (st->open_cap - old) * sizeof(*st->open));
	}
	rec = st->open[m] != 0;
	st->open[m]++;
	if (parent != CALL_NONE)
		row_of(s, parent);
	row_of(s, m);
	UTIL_GROW(st->stack, st->stack_cap, st->depth + 1);
	f = &st->stack[st->depth++];
	f->call = link_under(s, st->depth > 1 ? f[-1].call + 1 : 0, parent, m,
	                     rec, parent_rec);
	f->method = m;
	f->id = id;
	memcpy(f->start, at, sizeof(f->start));
	if (st->depth > th->max_depth)
		th->max_depth = (uint32_t)st->depth;
	return true;
}

/* Close the top frame of st at `at`. */
static inline void
sum_pop(struct calltree_builder *b, struct thread_state *st, const uint64_t *at)
{
	struct sums_build *s = st->sums;
	const struct frame *f = &st->stack[--st->depth];
	struct profile_link *l = &s->links.links[f->call];
	struct profile_row *parent_row =
	        l->parent == CALL_NONE ? NULL : row_of(s, l->parent);
	uint64_t dur[CLOCK_COUNT];
	int k;

	for (k = 0; k < CLOCK_COUNT; k++)
		dur[k] = b->tree->has_clock[k] ? at[k] - f->start[k] : 0;
	st->open[f->method]--;
	sums_add_call(row_of(s, l->child), parent_row, l, l->child_recursive,
	              l->parent_recursive, dur);
}

/* An exit, unwind or action-3 record of method id; false when it meets
 * no frame (an orphan). */
static inline bool
sum_leave(struct build_worker *w, struct thread_state *st, uint64_t id,
          const uint64_t *at)
{
	size_t i;

	if (st->depth && st->stack[st->depth - 1].id == id) {
		sum_pop(w->b, st, at);
		return true;
	}
	for (i = st->depth; i > 0 && st->stack[i - 1].id != id; i--)
		;
	if (!i)
		return false;
	w->an->mismatched_exits++;
	while (st->depth > i) {
		sum_pop(w->b, st, at);
		w->an->lost_exits++;
	}
	sum_pop(w->b, st, at);
	return true;
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
	bool wraps = b->tree->header.time_bits == 32;
	struct trace_records r = *run;
	struct thread_state *st = NULL;
	struct trace_event ev;
	uint32_t tid = 0, t = 0;
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
			t = build_thread_of(b, tid);
			st = build_state_of(b, t);
		}
		if (__builtin_expect(!st->nevents, 0)) {
			uint64_t raw[CLOCK_COUNT] = {ev.cpu, ev.wall};

			build_first_times(b, t, raw);
		}
		st->nevents++;
		read_times(st->clocks, st->cpu_base, &st->probe, w->an, clock,
		           wraps, ev.cpu, ev.wall, at);
		switch (ev.action) {
		case TRACE_ENTER:
			ok = sum_enter(w, st, t, ev.method_id, at);
			break;
		case TRACE_ACTION3:
			w->an->action3++;
			ok = sum_leave(w, st, ev.method_id, at);
			break;
		case TRACE_UNWIND:
			w->an->unwinds++;
			ok = sum_leave(w, st, ev.method_id, at);
			break;
		default:
			ok = sum_leave(w, st, ev.method_id, at);
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

void
build_sum_records(struct build_worker *w, const struct trace_records *run,
                  size_t from, size_t to)
{
	while (from < to && !w->failed) {
		size_t stop;
		struct trace_records piece = trace_records_at(run, from, &stop);

		if (stop > to)
			stop = to;
		sum_piece(w, &piece, from, stop);
		from = stop;
	}
}

void
build_sum_finish(struct calltree_builder *b, size_t t, struct tt_anomalies *an)
{
	struct calltree *tree = b->tree;
	struct thread_state *st = build_state_of(b, t);

	build_settle_thread_times(b, t);
	while (st->depth) {
		sum_pop(b, st, tree->threads[t].last);
		an->open_at_end++;
	}
	if (st->sums) {
		st->sums->out.links = st->sums->links.links;
		st->sums->out.nlinks = st->sums->links.count;
		st->sums->links.links = NULL;
		tree->sums[t] = st->sums->out;
		st->sums->out = (struct thread_sums){0};
	}
}

void
build_sums_free(struct thread_state *st)
{
	if (!st->sums)
		return;
	free(st->sums->row_of);
	free(st->sums->guess);
	thread_sums_done(&st->sums->out);
	free(st->sums->links.links);
	link_table_done(&st->sums->links);
	free(st->sums);
	st->sums = NULL;
}
