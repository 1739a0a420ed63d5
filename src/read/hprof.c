/*
 * hprof: an hprof text CPU profile read as a sampled trace.
 *
 * What the file holds (line ends LF or CRLF; anything else is skipped):
 *   JAVA PROFILE 1.0.1, created ...       the JVM's header (Dalvik's
 *                                         SamplingProfiler writes none)
 *   THREAD START (obj=O, id = N, name="NAME", group="G")
 *   TRACE n: [(thread=N)]                 a stack, top frame first, one
 *   <TAB>class.method(File.java:12)       frame a line; the line part may
 *                                         be "Unknown line", "Compiled
 *                                         method" or "Native method"
 *                                         (Dalvik: "Native Method",
 *                                         "Unknown Source"); "<empty>" or
 *                                         "<no frames>" for no frame
 *   CPU SAMPLES BEGIN (total = N) DATE    then "rank self accum count trace
 *   ...                                   method" rows: count is samples
 *   CPU SAMPLES END
 *   CPU TIME (ms) BEGIN (total = N) DATE  the same columns, but count is
 *   ...                                   calls; a trace's time is its self
 *   CPU TIME (ms) END                     % of the total
 *
 * How it maps onto the model (PRODUCT.md 2):
 *   - the clock is wall only: 1 per sample, counts (the header's unit)
 *     that no view or command shows as time, or for CPU TIME the trace's
 *     self % of the total ms, in us (the finest time the file gives); the
 *     property hprof-unit says which;
 *   - one thread per thread the traces name with (thread=N), named by its
 *     THREAD START; traces without a thread, and the remainder below, go to
 *     a thread "hprof" with a tid no other thread has (the only thread when
 *     the profile attributes no trace to a thread);
 *   - one method per class.method: signature "" (hprof has none), the file
 *     of the first frame that names one, the smallest line number seen;
 *   - per thread, the traces with a weight are weighted stacks that
 *     read/stacks.c lays end to end from time 0 (sorted by their
 *     root-first frames, equal ones by trace id): a trace's stack is
 *     entered at its start and left weight later, frames shared with the
 *     previous trace staying open.  So a method's exclusive time is the
 *     weight of the traces it tops, its inclusive time the weight of the
 *     traces holding it, and one call is a run of consecutive traces
 *     through it;
 *   - a trace with no frame gets the method "(no frames)"; a trace the
 *     table names but the file never defines gets the table's method as its
 *     one frame; the part of the total the table leaves out (hprof's
 *     cutoff) becomes one trace of "(below the hprof cutoff)", so the
 *     exclusive times add up to the total the file prints;
 *   - several tables (one per dump) add up; one of the other kind is
 *     skipped with a warning;
 *   - the header says sampled.
 * The whole file is read first; then the sink gets the properties, threads
 * and methods, begin, and the events (as a V1 key comes before its data).
 *
 * Invariants: every loop is bounded by the input (its lines, then the
 * traces and frames read from them); weights are capped so sums of times
 * never wrap; strings given to the sink live in the reader's arena.
 */
#include "config.h"

#include "read/hprof.h"

#include "read/bytes.h"
#include "read/stacks.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "util/chars.h"
#include "util/hash.h"
#include "util/map.h"

#include <stdlib.h>
#include <string.h>

enum {
	NONE = UINT32_MAX,
	PROGRESS_BYTES = 1 << 20, /* read between reports of progress */
	TABLE_SAMPLES = 1,
	TABLE_TIME = 2,
};

/* No single weight above this, so no sum of them reaches 2^64. */
#define WEIGHT_MAX (UINT64_C(1) << 53)

struct hp_method {
	const char *klass; /* with a NUL as C0 80 (trace_name_dup) */
	const char *name;
	size_t klen, nlen; /* their lengths */
	const char *file;  /* NULL until a frame names one */
	long line;         /* smallest line seen, -1 for none */
	uint32_t next;     /* next method with the same hash, or NONE */
	bool used;         /* on a trace with a weight */
};

struct hp_trace {
	uint64_t id;
	uint64_t weight; /* samples, or us of cpu time */
	uint64_t offset; /* where it was defined or first named */
	const char *top; /* the table's method, while undefined */
	size_t first;    /* frames [first, +nframes), top first */
	size_t nframes;
	uint32_t tid;
	bool has_thread;
	bool defined;
};

struct hp_thread {
	uint32_t tid;
	const char *name;
};

struct hprof {
	const struct trace_sink *sink;
	struct util_arena arena;
	struct hp_method *methods;
	size_t nmethods, methods_cap;
	struct util_map method_hash; /* hash of class and name -> first */
	uint32_t *frames;
	size_t nframes, frames_cap;
	struct hp_trace *traces;
	size_t ntraces, traces_cap;
	struct util_map trace_ids; /* trace id -> traces[] */
	struct hp_thread *threads;
	size_t nthreads, threads_cap;
	struct util_map thread_ids; /* tid -> threads[] */
	const char *title;          /* the "JAVA PROFILE" line */

	uint32_t in_trace; /* the trace whose frames follow, or NONE */
	bool skip_frames;  /* frames of a repeated trace follow */
	int kind;          /* TABLE_* of the first table, 0 before */
	int table;         /* the table being read, 0 outside */
	bool skip_table;   /* it is of the other kind */
	bool incomplete;   /* the file ends inside a table */
	uint64_t table_offset;
	uint64_t table_total; /* its (total = N), in its own unit */
	bool table_has_total;
	uint64_t table_sum; /* its rows' weights */
	uint64_t total;     /* all tables' totals, in weight units */
};

struct cursor {
	const char *p, *end;
};

static uint64_t
sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t
sat_mul(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

static void
skip_blanks(struct cursor *c)
{
	while (c->p < c->end && is_blank(*c->p))
		c->p++;
}

static void
trim(struct cursor *c)
{
	skip_blanks(c);
	while (c->end > c->p && is_blank(c->end[-1]))
		c->end--;
}

static bool
starts(const struct cursor *c, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(c->end - c->p) >= n && memcmp(c->p, s, n) == 0;
}

static bool
eat(struct cursor *c, const char *s)
{
	if (!starts(c, s))
		return false;
	c->p += strlen(s);
	return true;
}

static bool
equals(const struct cursor *c, const char *s)
{
	return (size_t)(c->end - c->p) == strlen(s) && starts(c, s);
}

/* A decimal number; false when there is none or it is too large. */
static bool
number(struct cursor *c, uint64_t *out)
{
	const char *start = c->p;
	uint64_t v = 0;

	while (c->p < c->end && is_digit(*c->p)) {
		if (v > (WEIGHT_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*c->p - '0');
		c->p++;
	}
	*out = v;
	return c->p > start;
}

/* "12.34%" as hundredths of a percent, rounded. */
static bool
percent(struct cursor *c, uint64_t *out)
{
	uint64_t whole, frac = 0;
	int digits = 0;
	bool up = false;

	if (!number(c, &whole) || whole > 1000000)
		return false;
	if (c->p < c->end && *c->p == '.') {
		c->p++;
		while (c->p < c->end && is_digit(*c->p)) {
			if (digits < 2)
				frac = frac * 10 + (uint64_t)(*c->p - '0');
			else if (digits == 2)
				up = *c->p >= '5';
			digits++;
			c->p++;
		}
	}
	for (; digits < 2; digits++)
		frac *= 10;
	*out = whole * 100 + frac + up;
	return eat(c, "%");
}

/* Find s in c, leaving c after it; false (c unchanged) if absent. */
static bool
seek(struct cursor *c, const char *s)
{
	size_t n = strlen(s);
	const char *p;

	for (p = c->p; (size_t)(c->end - p) >= n; p++) {
		if (memcmp(p, s, n) == 0) {
			c->p = p + n;
			return true;
		}
	}
	return false;
}

static const char *
keep(struct hprof *h, const char *s, size_t n)
{
	return util_arena_strndup(&h->arena, s, n);
}

/* The index of method klass.name (kept with a NUL as C0 80), made on
 * first sight; NONE past the most methods. */
static uint32_t
intern_encoded(struct hprof *h, const char *klass, size_t klen,
               const char *name, size_t nlen)
{
	uint64_t key = hash_bytes(hash_bytes(HASH_SEED, klass, klen), "", 1);
	uint32_t *head, i;
	struct hp_method *m;

	key = hash_bytes(key, name, nlen);
	head = util_map_slot(&h->method_hash, key, NONE);
	/* By length: names may hold what strlen would stop at. */
	for (i = *head; i != NONE; i = h->methods[i].next) {
		m = &h->methods[i];
		if (m->klen == klen && m->nlen == nlen &&
		    memcmp(m->klass, klass, klen) == 0 &&
		    memcmp(m->name, name, nlen) == 0)
			return i;
	}
	if (h->nmethods >= NONE / 8) {
		trace_warn(h->sink, 0, "too many methods; frames dropped");
		return NONE;
	}
	UTIL_GROW(h->methods, h->methods_cap, h->nmethods + 1);
	m = &h->methods[h->nmethods];
	m->klass = keep(h, klass, klen);
	m->name = keep(h, name, nlen);
	m->klen = klen;
	m->nlen = nlen;
	m->file = NULL;
	m->line = -1;
	m->used = false;
	m->next = *head;
	*head = (uint32_t)h->nmethods;
	return (uint32_t)h->nmethods++;
}

/* The index of method klass.name, made on first sight. */
static uint32_t
intern_method(struct hprof *h, const char *klass, size_t klen, const char *name,
              size_t nlen)
{
	char *k = NULL, *n = NULL;
	uint32_t m;

	if (memchr(klass, 0, klen)) {
		k = trace_name_dup(klass, klen);
		klass = k;
		klen = strlen(k);
	}
	if (memchr(name, 0, nlen)) {
		n = trace_name_dup(name, nlen);
		name = n;
		nlen = strlen(n);
	}
	m = intern_encoded(h, klass, klen, name, nlen);
	free(k);
	free(n);
	return m;
}

/* The method of "class.method" (split at the last dot). */
static uint32_t
method_of(struct hprof *h, const char *s, size_t n)
{
	size_t dot = n;

	while (dot > 0 && s[dot - 1] != '.')
		dot--;
	if (dot == 0)
		return intern_method(h, "", 0, s, n);
	return intern_method(h, s, dot - 1, s + dot, n - dot);
}

static void
push_frame(struct hprof *h, uint32_t method)
{
	UTIL_GROW(h->frames, h->frames_cap, h->nframes + 1);
	h->frames[h->nframes++] = method;
}

/* True for the "Unknown Source" and "Native Method" stand-ins. */
static bool
no_file(const struct cursor *c)
{
	return equals(c, "Unknown Source") || equals(c, "Unknown source") ||
	       equals(c, "Native Method") || equals(c, "Native method") ||
	       c->p == c->end;
}

/* One frame line of the trace being read. */
static void
frame_line(struct hprof *h, struct cursor *c, uint64_t off)
{
	struct cursor name, src = {NULL, NULL}, file;
	const char *paren;
	long line = -1;
	uint32_t m;

	trim(c);
	if (equals(c, "<empty>") || equals(c, "<no frames>") || c->p == c->end)
		return;
	name = *c;
	paren = memchr(c->p, '(', (size_t)(c->end - c->p));
	if (paren) {
		name.end = paren;
		src.p = paren + 1;
		src.end = c->end;
		if (src.end > src.p && src.end[-1] == ')')
			src.end--;
	}
	trim(&name);
	if (name.p == name.end) {
		trace_warn(h->sink, off,
		           "expected a frame 'class.method(File.java:line)'; "
		           "line skipped");
		return;
	}
	m = method_of(h, name.p, (size_t)(name.end - name.p));
	if (m == NONE)
		return;
	file = src;
	if (src.p) {
		const char *colon = NULL, *p;
		struct cursor tail;

		for (p = src.p; p < src.end; p++)
			if (*p == ':')
				colon = p;
		if (colon) {
			uint64_t v;

			file.end = colon;
			tail.p = colon + 1;
			tail.end = src.end;
			trim(&tail);
			if (number(&tail, &v) && tail.p == tail.end &&
			    v <= 0x7FFFFFFF)
				line = (long)v;
		}
		trim(&file);
	}
	if (src.p && !no_file(&file) && !h->methods[m].file)
		h->methods[m].file = trace_name_keep(
		        &h->arena, file.p, (size_t)(file.end - file.p));
	if (line >= 0 && (h->methods[m].line < 0 || line < h->methods[m].line))
		h->methods[m].line = line;
	push_frame(h, m);
	h->traces[h->in_trace].nframes++;
}

/* The trace with this id, made (undefined) on first sight. */
static uint32_t
trace_of(struct hprof *h, uint64_t id, uint64_t off)
{
	uint32_t *slot = util_map_slot(&h->trace_ids, id, NONE);
	struct hp_trace *t;

	if (*slot != NONE)
		return *slot;
	if (h->ntraces >= NONE / 8)
		return NONE;
	UTIL_GROW(h->traces, h->traces_cap, h->ntraces + 1);
	t = &h->traces[h->ntraces];
	memset(t, 0, sizeof(*t));
	t->id = id;
	t->offset = off;
	*slot = (uint32_t)h->ntraces;
	return (uint32_t)h->ntraces++;
}

/* "TRACE n: [(thread=N)]": the frames that follow are trace n's. */
static void
trace_line(struct hprof *h, struct cursor *c, uint64_t off)
{
	uint64_t id, tid;
	uint32_t i;
	struct hp_trace *t;

	if (!number(c, &id) || !eat(c, ":")) {
		trace_warn(h->sink, off, "expected 'TRACE n:'; line skipped");
		h->skip_frames = true;
		return;
	}
	i = trace_of(h, id, off);
	if (i == NONE || h->traces[i].defined) {
		if (i != NONE)
			trace_warn(h->sink, off,
			           "trace %llu is defined twice; the first "
			           "definition is kept",
			           (unsigned long long)id);
		h->skip_frames = true;
		return;
	}
	t = &h->traces[i];
	t->defined = true;
	t->offset = off;
	t->first = h->nframes;
	t->nframes = 0;
	if (seek(c, "(thread=")) {
		skip_blanks(c);
		if (number(c, &tid) && tid <= UINT32_MAX) {
			t->tid = (uint32_t)tid;
			t->has_thread = true;
		} else {
			trace_warn(h->sink, off,
			           "expected a thread id after '(thread='; "
			           "the trace has no thread");
		}
	}
	h->in_trace = i;
}

/* THREAD START (obj=O, id = N, name="NAME", group="G") */
static void
thread_line(struct hprof *h, struct cursor *c, uint64_t off)
{
	struct cursor name;
	uint64_t tid;
	uint32_t *slot;
	const char *q;

	if (!seek(c, "id") || (skip_blanks(c), !eat(c, "=")) ||
	    (skip_blanks(c), !number(c, &tid)) || tid > UINT32_MAX) {
		trace_warn(h->sink, off,
		           "expected 'id = N' in the THREAD START line; line "
		           "skipped");
		return;
	}
	if (!seek(c, "name=\"")) {
		trace_warn(h->sink, off,
		           "expected 'name=\"...\"' in the THREAD START line; "
		           "line skipped");
		return;
	}
	name = *c;
	if (!seek(&name, "\", group=")) {
		/* No group: the name ends at the last quote. */
		for (q = c->end; q > c->p && q[-1] != '"'; q--)
			;
		name.p = q > c->p ? q - 1 : c->end;
	} else {
		name.p -= strlen("\", group=");
	}
	slot = util_map_slot(&h->thread_ids, tid, NONE);
	if (*slot == NONE) {
		UTIL_GROW(h->threads, h->threads_cap, h->nthreads + 1);
		h->threads[h->nthreads].tid = (uint32_t)tid;
		*slot = (uint32_t)h->nthreads++;
	}
	/* A reused id: the latest name wins. */
	h->threads[*slot].name =
	        trace_name_keep(&h->arena, c->p, (size_t)(name.p - c->p));
}

static const char *
table_name(int kind)
{
	return kind == TABLE_TIME ? "CPU TIME (ms)" : "CPU SAMPLES";
}

/* The table being read ends here (offset off). */
static void
end_table(struct hprof *h)
{
	if (!h->skip_table && !h->table_has_total) {
		trace_warn(h->sink, h->table_offset,
		           "the %s table gives no total; its rows' sum is "
		           "used",
		           table_name(h->table));
		h->total = sat_add(h->total, h->table_sum);
	}
	h->table = 0;
	h->skip_table = false;
}

/* "CPU SAMPLES BEGIN (total = N) DATE" or "CPU TIME (ms) BEGIN ...". */
static void
table_begin(struct hprof *h, int kind, struct cursor *c, uint64_t off)
{
	uint64_t total;

	h->table = kind;
	h->table_offset = off;
	h->table_sum = 0;
	h->table_total = 0;
	h->table_has_total = false;
	h->skip_table = h->kind && h->kind != kind;
	if (h->skip_table) {
		trace_warn(h->sink, off, "a %s table after a %s table; skipped",
		           table_name(kind), table_name(h->kind));
		return;
	}
	h->kind = kind;
	if (seek(c, "total") && (skip_blanks(c), eat(c, "=")) &&
	    (skip_blanks(c), number(c, &total))) {
		h->table_total = total;
		h->table_has_total = true;
		h->total = sat_add(h->total, kind == TABLE_TIME
		                                     ? sat_mul(total, 1000)
		                                     : total);
	}
}

/* "rank self accum count trace method" */
static void
table_row(struct hprof *h, struct cursor *c, uint64_t off)
{
	uint64_t rank, self, accum, count, id, weight;
	struct cursor method;
	uint32_t i;
	struct hp_trace *t;

	if (h->skip_table)
		return;
	if (!number(c, &rank) || (skip_blanks(c), !percent(c, &self)) ||
	    (skip_blanks(c), !percent(c, &accum)) ||
	    (skip_blanks(c), !number(c, &count)) ||
	    (skip_blanks(c), !number(c, &id))) {
		trace_warn(h->sink, off,
		           "expected a row 'rank self accum count trace "
		           "method'; row skipped");
		return;
	}
	method = *c;
	trim(&method);
	if (h->table == TABLE_TIME)
		weight = (sat_mul(self, h->table_total) + 5) / 10;
	else
		weight = count;
	if (weight > WEIGHT_MAX)
		weight = WEIGHT_MAX;
	i = trace_of(h, id, off);
	if (i == NONE)
		return;
	t = &h->traces[i];
	t->weight = sat_add(t->weight, weight);
	h->table_sum = sat_add(h->table_sum, weight);
	if (!t->defined && !t->top && method.p < method.end)
		t->top = trace_name_keep(&h->arena, method.p,
		                         (size_t)(method.end - method.p));
}

/* A line inside a table: true when it was the table's. */
static bool
table_line(struct hprof *h, struct cursor *c, uint64_t off)
{
	struct cursor t = *c;

	trim(&t);
	if (equals(&t, "CPU SAMPLES END") || equals(&t, "CPU TIME (ms) END")) {
		end_table(h);
		return true;
	}
	if (t.p == t.end || starts(&t, "rank"))
		return true;
	if (is_digit(*t.p)) {
		table_row(h, &t, off);
		return true;
	}
	trace_warn(h->sink, off,
	           "expected a row or '%s END'; the table ends "
	           "here",
	           table_name(h->table));
	end_table(h);
	return false;
}

static void
handle_line(struct hprof *h, struct cursor *c, uint64_t off)
{
	if (h->in_trace != NONE || h->skip_frames) {
		if (c->p < c->end && is_blank(*c->p)) {
			if (!h->skip_frames)
				frame_line(h, c, off);
			return;
		}
		h->in_trace = NONE;
		h->skip_frames = false;
	}
	if (h->table && table_line(h, c, off))
		return;
	if (!h->title && starts(c, "JAVA PROFILE"))
		h->title = keep(h, c->p, (size_t)(c->end - c->p));
	else if (eat(c, "TRACE ") && c->p < c->end && is_digit(*c->p))
		trace_line(h, c, off);
	else if (eat(c, "THREAD START ("))
		thread_line(h, c, off);
	else if (eat(c, "CPU SAMPLES BEGIN"))
		table_begin(h, TABLE_SAMPLES, c, off);
	else if (eat(c, "CPU TIME (ms) BEGIN"))
		table_begin(h, TABLE_TIME, c, off);
}

/* Give weighted traces without a usable frame one, and sum the weights. */
static uint64_t
settle_traces(struct hprof *h)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < h->ntraces; i++) {
		struct hp_trace *t = &h->traces[i];
		uint32_t m = NONE;

		if (!t->weight)
			continue;
		sum = sat_add(sum, t->weight);
		if (!t->defined) {
			trace_warn(h->sink, t->offset,
			           "trace %llu is in the table but never "
			           "defined; its table method is its only "
			           "frame",
			           (unsigned long long)t->id);
			if (t->top)
				m = method_of(h, t->top, strlen(t->top));
		}
		if (t->nframes)
			continue;
		if (m == NONE)
			m = intern_method(h, "", 0, "(no frames)",
			                  strlen("(no frames)"));
		if (m == NONE) {
			t->weight = 0;
			continue;
		}
		t->first = h->nframes;
		t->nframes = 1;
		push_frame(h, m);
	}
	return sum;
}

/* A tid no thread has, for the "hprof" thread. */
static uint32_t
free_tid(const struct hprof *h)
{
	struct util_map used;
	uint32_t tid, dummy;
	size_t i;

	util_map_init(&used);
	for (i = 0; i < h->nthreads; i++)
		util_map_put(&used, h->threads[i].tid, 0);
	for (i = 0; i < h->ntraces; i++)
		if (h->traces[i].has_thread)
			util_map_put(&used, h->traces[i].tid, 0);
	for (tid = 0; util_map_get(&used, tid, &dummy); tid++)
		;
	util_map_done(&used);
	return tid;
}

static void
property(struct hprof *h, const char *key, const char *value)
{
	if (h->sink->property)
		h->sink->property(h->sink->ctx, key, value);
}

static void
emit(struct hprof *h, uint64_t len)
{
	const struct trace_sink *s = h->sink;
	struct trace_header hd = {0};
	struct trace_stack *stacks;
	uint32_t *root_first;
	size_t nstacks = 0, i;
	uint64_t sum, frames = 0;
	uint32_t fallback_tid;
	bool attributed = false, need_fallback = false;
	char *text;

	sum = settle_traces(h);
	if (sum < h->total) {
		uint32_t m = intern_method(h, "", 0, "(below the hprof cutoff)",
		                           strlen("(below the hprof cutoff)"));
		uint32_t r = trace_of(h, UINT64_MAX, len);

		if (m != NONE && r != NONE) {
			struct hp_trace *t = &h->traces[r];

			t->defined = true;
			t->has_thread = false;
			t->weight = h->total - sum;
			t->first = h->nframes;
			t->nframes = 1;
			push_frame(h, m);
		}
	} else if (sum > h->total) {
		trace_warn(s, len,
		           "the table rows add up to %llu, more than the "
		           "total %llu the file gives",
		           (unsigned long long)sum,
		           (unsigned long long)h->total);
	}

	for (i = 0; i < h->ntraces; i++) {
		if (!h->traces[i].weight)
			continue;
		if (h->traces[i].has_thread)
			attributed = true;
		else
			need_fallback = true;
	}
	if (!attributed)
		need_fallback = true;
	fallback_tid = free_tid(h);

	/* The traces as stacks for read/stacks.c: their frames root first
	 * (a trace lists them top first), equal stacks in trace id order. */
	for (i = 0; i < h->ntraces; i++)
		if (h->traces[i].weight)
			frames += h->traces[i].nframes;
	stacks = xcalloc(h->ntraces + 1, sizeof(*stacks));
	root_first = xcalloc(frames + 1, sizeof(*root_first));
	frames = 0;
	for (i = 0; i < h->ntraces; i++) {
		const struct hp_trace *t = &h->traces[i];
		uint32_t *f = root_first + frames;
		size_t k;

		if (!t->weight)
			continue;
		for (k = 0; k < t->nframes; k++) {
			f[k] = h->frames[t->first + t->nframes - 1 - k];
			h->methods[f[k]].used = true;
		}
		stacks[nstacks++] = (struct trace_stack){
		        .tid = t->has_thread ? t->tid : fallback_tid,
		        .frames = f,
		        .n = t->nframes,
		        .weight = t->weight,
		        .order = t->id};
		frames += t->nframes;
	}

	if (h->title)
		property(h, "hprof", h->title);
	property(h, "hprof-profile",
	         h->kind == TABLE_TIME ? "cpu times" : "cpu samples");
	text = xasprintf("%llu %s",
	                 (unsigned long long)(h->kind == TABLE_TIME
	                                              ? h->total / 1000
	                                              : h->total),
	                 h->kind == TABLE_TIME ? "ms" : "samples");
	property(h, "hprof-total", text);
	free(text);
	property(h, "hprof-unit",
	         h->kind == TABLE_TIME
	                 ? "wall clock field: 1 us = 1 us of cpu time (the "
	                   "trace's self % of the total)"
	                 : "wall clock field: counts samples, no time");
	if (s->thread) {
		for (i = 0; attributed && i < h->nthreads; i++)
			s->thread(s->ctx, h->threads[i].tid,
			          h->threads[i].name);
		if (need_fallback)
			s->thread(s->ctx, fallback_tid, "hprof");
	}
	for (i = 0; s->method && i < h->nmethods; i++) {
		struct trace_method_def def;

		if (!h->methods[i].used)
			continue;
		def.id = trace_stack_method_id((uint32_t)i);
		def.klass = h->methods[i].klass;
		def.name = h->methods[i].name;
		def.signature = "";
		def.file = h->methods[i].file;
		def.line = h->methods[i].line;
		s->method(s->ctx, &def);
	}
	hd.format = TRACE_FORMAT_HPROF;
	hd.version = 1;
	hd.clock = TRACE_CLOCK_WALL;
	hd.time_bits = 64;
	hd.incomplete = h->incomplete;
	hd.expected_records = frames * 2;
	hd.sampled = 1;
	/* Samples carry no time: what the views and report show of them is
	 * counts (a CPU TIME table's are times). */
	hd.unit = h->kind == TABLE_TIME ? TRACE_UNIT_US : TRACE_UNIT_COUNT;
	if (s->begin)
		s->begin(s->ctx, &hd);
	/* Every frame is a line of the file: no more calls than lines. */
	trace_stacks_sort(stacks, nstacks);
	trace_stacks_emit(stacks, nstacks, TRACE_CLOCK_WALL, s);
	if (s->progress)
		s->progress(s->ctx, len, len);
	free(stacks);
	free(root_first);
}

bool
trace_hprof_detect(const unsigned char *buf, size_t len)
{
	struct cursor c = {(const char *)buf, (const char *)buf + len};

	eat(&c, "\xEF\xBB\xBF");
	if (eat(&c, "TRACE "))
		return c.p < c.end && is_digit(*c.p);
	return starts(&c, "JAVA PROFILE") || starts(&c, "THREAD START (") ||
	       starts(&c, "CPU SAMPLES BEGIN");
}

bool
trace_hprof_read(const unsigned char *buf, size_t len,
                 const struct trace_sink *sink, struct trace_error *err)
{
	const char *text = (const char *)buf, *end = text + len, *p = text;
	size_t next_progress = PROGRESS_BYTES;
	struct hprof h;
	bool ok;

	memset(&h, 0, sizeof(h));
	h.sink = sink;
	h.in_trace = NONE;
	util_arena_init(&h.arena);
	util_map_init(&h.method_hash);
	util_map_init(&h.trace_ids);
	util_map_init(&h.thread_ids);
	if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
		p += 3;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct cursor line = {p, nl ? nl : end};

		/* Progress every PROGRESS_BYTES, as a V1 data part's. */
		if ((size_t)(p - text) >= next_progress) {
			if (sink->progress)
				sink->progress(sink->ctx, (uint64_t)(p - text),
				               len);
			next_progress = (size_t)(p - text) + PROGRESS_BYTES;
		}
		if (line.end > line.p && line.end[-1] == '\r')
			line.end--;
		handle_line(&h, &line, (uint64_t)(p - text));
		p = nl ? nl + 1 : end;
	}
	if (h.table) {
		trace_warn(sink, len,
		           "the file ends inside the %s table (no END line)",
		           table_name(h.table));
		h.incomplete = true;
		end_table(&h);
	}
	ok = h.kind != 0;
	if (ok)
		emit(&h, len);
	else
		trace_error_set(err, len,
		                "expected 'CPU SAMPLES BEGIN' or 'CPU TIME "
		                "(ms) BEGIN' in this hprof profile, found the "
		                "end of the file (no CPU profile)");
	free(h.methods);
	free(h.frames);
	free(h.traces);
	free(h.threads);
	util_map_done(&h.method_hash);
	util_map_done(&h.trace_ids);
	util_map_done(&h.thread_ids);
	util_arena_done(&h.arena);
	return ok;
}
