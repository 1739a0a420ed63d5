/*
 * v2: passes over the mapped bytes.  The walk follows the packet
 * structure only, once with the 12-byte block header of the final and
 * Perfetto encodings and once with the draft's; the one that gets further
 * without a bad or cut packet gives the header layout (FORMAT.md 5.6: the
 * final header's count and size must agree with the file).  The probe then
 * decodes the first blocks under each encoding left and keeps the one
 * whose blocks hold exactly the records their headers announce, then the
 * one whose entries name methods the file defines, then the final one.
 * The report pass hands everything to the sink.
 *
 * Invariants: every length read from the file is checked against the bytes
 * that remain before it is used; nothing is allocated by a count read from
 * the file (thread state grows with the blocks seen, the Perfetto call
 * stacks with the records decoded); running values are 64-bit and wrap as
 * the writer's do; times leave in microseconds (nanoseconds are divided
 * by 1000, rounding down; TSC ticks are scaled by the header's rate).
 */
#include "config.h"

#include "read/v2.h"

#include "read/key.h"
#include "read/bytes.h"
#include "util/alloc.h"
#include "util/map.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	V2_HEADER = 32,
	V2_PROBE_BLOCKS = 256,
	V2_PROGRESS_RECORDS = 1 << 20,
};

#define V2_PROBE_BYTES ((size_t)8 << 20)
/* Times past this (8.9 years, in microseconds) or below zero come from a
 * damaged file; they are clamped so sums of them cannot overflow. */
#define V2_MAX_TIME (UINT64_C(1) << 48)
/* A header start time this large is nanoseconds (17 min of uptime) rather
 * than microseconds (11.6 days); only used when nothing names the unit. */
#define V2_NS_GUESS UINT64_C(1000000000000)

enum v2_layout { LAYOUT_FINAL, LAYOUT_DRAFT, LAYOUT_PERFETTO, LAYOUT_COUNT };

static const char *const layout_names[LAYOUT_COUNT] = {
        "final (FORMAT.md 5.4)",
        "Android 15 draft (FORMAT.md 5.6)",
        "Perfetto 2026 (FORMAT.md 5.6)",
};

enum walk_stop {
	STOP_END,       /* clean end of the file */
	STOP_SUMMARY,   /* reached the summary packet */
	STOP_TRUNCATED, /* a packet runs past the end of the file */
	STOP_BAD,       /* a packet with an unknown type byte */
};

struct v2_walk {
	enum walk_stop stop;
	size_t at;        /* offset of the packet where the walk stopped */
	size_t packets;   /* packets walked */
	uint64_t records; /* an upper bound of the records in the blocks */
	size_t summary;   /* the summary text, STOP_SUMMARY */
	size_t summary_len;
	bool summary_cut; /* its length ran past the end of the file */
	unsigned type;    /* the bad type byte, STOP_BAD */
};

/* One entry block's header as read. */
struct v2_block {
	size_t at; /* offset of its type byte */
	uint32_t tid;
	uint64_t count;   /* records announced (draft: with the first) */
	size_t payload;   /* offset of the payload */
	size_t size;      /* payload bytes announced */
	uint64_t first_m; /* the draft's first record */
	uint64_t first_c;
	uint64_t first_w;
};

/* A thread's decoding state, kept across its blocks. */
struct v2_thread {
	bool seen;  /* a block of this thread was decoded */
	uint64_t m; /* running values at the end of its last block */
	uint64_t w;
	uint64_t c;
	uint64_t count;  /* the header count of its last block */
	uint64_t *stack; /* Perfetto encoding: methods of open entries */
	size_t depth, cap;
};

struct v2_reader {
	const unsigned char *buf;
	size_t len;
	const struct trace_sink *sink;
	unsigned nclocks; /* 1 for version 4, 2 for version 5 */
	bool wall, cpu;   /* the clocks the records carry */
	enum v2_layout layout;
	uint64_t unit_div;         /* 1: microseconds, 1000: nanoseconds */
	uint64_t tsc_hz;           /* Perfetto: tick rate, 0 for none */
	struct util_map methods;   /* ids of method-info packets */
	struct util_map thread_ix; /* tid -> index in threads */
	struct v2_thread *threads;
	size_t nthreads, threads_cap;
	uint64_t reported; /* records reported, for progress */
	uint64_t clamped;  /* times clamped into 0..V2_MAX_TIME */
	size_t hdr;        /* offset of the 32-byte header */
	/* Android 15 non-streaming (FORMAT.md 5.3): info packets from
	 * offset 0 up to lead, then the summary text up to the header. */
	size_t lead;
	bool names_lost;       /* no thread packets: tids name threads */
	struct util_map named; /* tids named so far, names_lost */
};

/* What decoding one block found. */
struct v2_decoded {
	uint64_t records;  /* records decoded */
	bool fit;          /* the payload ends on a record boundary */
	bool exact;        /* ... holding the records its header announces */
	bool continued;    /* decoded from the previous block's values */
	uint64_t entries;  /* entry records */
	uint64_t resolved; /* ... naming a method with an info packet */
	size_t bad;        /* offset of a malformed record, or 0 */
};

/* Evidence for one encoding over the probed blocks. */
struct v2_score {
	uint64_t exact;
	uint64_t resolved;
	uint64_t fit;
};

size_t
trace_v2_uleb(const unsigned char *p, const unsigned char *end, uint64_t *value)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < 10 && p + i < end; i++) {
		unsigned b = p[i];

		/* The tenth byte holds bit 63 only. */
		if (i == 9 && b > 1)
			return 0;
		v |= (uint64_t)(b & 0x7F) << (7 * i);
		if (!(b & 0x80)) {
			*value = v;
			return i + 1;
		}
	}
	return 0;
}

size_t
trace_v2_sleb(const unsigned char *p, const unsigned char *end, int64_t *value)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < 10 && p + i < end; i++) {
		unsigned b = p[i];
		unsigned shift = 7 * (unsigned)i;

		/* The tenth byte holds bit 63 and its sign copies only. */
		if (i == 9 && b != 0x00 && b != 0x7F)
			return 0;
		v |= (uint64_t)(b & 0x7F) << shift;
		if (!(b & 0x80)) {
			if (shift + 7 < 64 && (b & 0x40))
				v |= ~(uint64_t)0 << (shift + 7);
			*value = v <= INT64_MAX ? (int64_t)v
			                        : -(int64_t)(~v) - 1;
			return i + 1;
		}
	}
	return 0;
}

/* ---- state ------------------------------------------------------------ */

static struct v2_thread *
thread_state(struct v2_reader *r, uint32_t tid)
{
	uint32_t *slot =
	        util_map_slot(&r->thread_ix, tid, (uint32_t)r->nthreads);

	if (*slot == r->nthreads) {
		UTIL_GROW(r->threads, r->threads_cap, r->nthreads + 1);
		memset(&r->threads[r->nthreads], 0, sizeof(*r->threads));
		r->nthreads++;
	}
	return &r->threads[*slot];
}

/* Forget every thread's decoding state. */
static void
threads_reset(struct v2_reader *r)
{
	size_t i;

	for (i = 0; i < r->nthreads; i++)
		free(r->threads[i].stack);
	r->nthreads = 0;
	util_map_done(&r->thread_ix);
	util_map_init(&r->thread_ix);
}

static bool
method_known(const struct v2_reader *r, uint64_t id)
{
	uint32_t ignored;

	return util_map_get(&r->methods, id & ~(uint64_t)3, &ignored);
}

static uint64_t
to_us(const struct v2_reader *r, uint64_t t)
{
	return t / r->unit_div;
}

/* Ticks at hz per second, in microseconds. */
static uint64_t
ticks_to_us(uint64_t t, uint64_t hz)
{
	if (hz <= UINT64_MAX / 1000000)
		return t / hz * 1000000 + t % hz * 1000000 / hz;
	return t / (hz / 1000000);
}

/* A running time (wrapped two's complement) in microseconds, clamped. */
static uint64_t
time_us(struct v2_reader *r, uint64_t t, bool ticks)
{
	uint64_t us;

	if (t >> 63) {
		r->clamped++;
		return 0;
	}
	us = ticks ? ticks_to_us(t, r->tsc_hz) : to_us(r, t);
	if (us > V2_MAX_TIME) {
		r->clamped++;
		return V2_MAX_TIME;
	}
	return us;
}

static void
emit(struct v2_reader *r, uint32_t tid, uint64_t m, uint64_t cpu, uint64_t wall)
{
	const struct trace_sink *sink = r->sink;

	r->reported++;
	if (sink->event)
		sink->event(sink->ctx, tid, m & ~(uint64_t)3,
		            (enum trace_action)(m & 3), r->cpu ? cpu : 0,
		            r->wall ? wall : 0);
}

/* ---- the packet structure --------------------------------------------- */

/* Header bytes of an entry block under layout. */
static size_t
block_header_size(const struct v2_reader *r, enum v2_layout layout)
{
	return layout == LAYOUT_DRAFT ? 17 + 4 * (size_t)r->nclocks : 12;
}

/* Read the block header at pos under layout; false if the file ends
 * inside it.  The payload may still run past the end. */
static bool
block_header(const struct v2_reader *r, enum v2_layout layout, size_t pos,
             struct v2_block *b)
{
	const unsigned char *p = r->buf + pos;
	size_t hsize = block_header_size(r, layout);

	memset(b, 0, sizeof(*b));
	b->at = pos;
	if (r->len - pos < hsize)
		return false;
	b->tid = trace_u4(p + 1);
	b->payload = pos + hsize;
	if (layout != LAYOUT_DRAFT) {
		b->count = trace_u4(p + 5) & 0xFFFFFF;
		b->size = trace_u4(p + 8);
		return true;
	}
	b->first_m = trace_u8(p + 5);
	p += 13;
	if (r->cpu) {
		b->first_c = trace_u4(p);
		p += 4;
	}
	if (r->wall) {
		b->first_w = trace_u4(p);
		p += 4;
	}
	b->count = (uint64_t)trace_u2(p) + 1;
	b->size = trace_u2(p + 2);
	return true;
}

/* The fewest payload bytes of one record under layout. */
static uint64_t
min_record(const struct v2_reader *r, enum v2_layout layout)
{
	return layout == LAYOUT_PERFETTO ? r->nclocks : 1 + r->nclocks;
}

/*
 * Walk the packets from the header on under layout, stopping at the
 * summary; with collect, note the ids of method-info packets.
 */
static void
walk(struct v2_reader *r, enum v2_layout layout, bool collect,
     struct v2_walk *w)
{
	size_t pos = r->hdr + V2_HEADER;

	memset(w, 0, sizeof(*w));
	while (pos < r->len) {
		const unsigned char *p = r->buf + pos;
		size_t left = r->len - pos, need;
		struct v2_block b;

		w->at = pos;
		switch (p[0]) {
		case 0:
			need = left < 7 ? 7 : 7 + (size_t)trace_u2(p + 5);
			break;
		case 1:
			need = left < 11 ? 11 : 11 + (size_t)trace_u2(p + 9);
			if (collect && need <= left)
				util_map_put(&r->methods,
				             trace_u8(p + 1) & ~(uint64_t)3, 0);
			break;
		case 2:
			if (!block_header(r, layout, pos, &b) ||
			    b.size > r->len - b.payload) {
				w->stop = STOP_TRUNCATED;
				return;
			}
			need = b.payload - pos + b.size;
			w->records += b.count < b.size / min_record(r, layout)
			                      ? b.count
			                      : b.size / min_record(r, layout);
			if (layout == LAYOUT_DRAFT)
				w->records++;
			break;
		case 3:
			if (left < 3) {
				w->stop = STOP_TRUNCATED;
				return;
			}
			w->summary = pos + 3;
			w->summary_len = trace_u2(p + 1);
			if (w->summary_len > left - 3) {
				w->summary_len = left - 3;
				w->summary_cut = true;
			}
			w->packets++;
			w->stop = STOP_SUMMARY;
			return;
		default:
			w->type = p[0];
			w->stop = STOP_BAD;
			return;
		}
		if (need > left) {
			w->stop = STOP_TRUNCATED;
			return;
		}
		w->packets++;
		pos += need;
	}
	w->at = pos;
	w->stop = STOP_END;
}

/* How far a walk got without trouble. */
static size_t
walk_reach(const struct v2_reader *r, const struct v2_walk *w)
{
	return w->stop == STOP_END || w->stop == STOP_SUMMARY ? r->len : w->at;
}

/* ---- entry blocks ----------------------------------------------------- */

/*
 * Decode one record of the final (and draft) encoding at *p, before end:
 * the method delta, then wall, then thread-cpu.  False, *p unmoved, when
 * it is malformed or runs past end.
 */
static bool
final_record(const struct v2_reader *r, const unsigned char **p,
             const unsigned char *end, uint64_t *dm, uint64_t *dw, uint64_t *dc)
{
	const unsigned char *q = *p;
	int64_t sm;
	size_t n;

	*dw = *dc = 0;
	if (!(n = trace_v2_sleb(q, end, &sm)))
		return false;
	q += n;
	if (r->wall) {
		if (!(n = trace_v2_uleb(q, end, dw)))
			return false;
		q += n;
	}
	if (r->cpu) {
		if (!(n = trace_v2_uleb(q, end, dc)))
			return false;
		q += n;
	}
	*dm = (uint64_t)sm;
	*p = q;
	return true;
}

/*
 * Whether a final-encoding block continues the previous block of its
 * thread (FORMAT.md 5.4 quirk).  dm, dw, dc are its first record's
 * deltas, n the records it holds.
 */
static bool
continues(const struct v2_reader *r, const struct v2_thread *t,
          const struct v2_block *b, uint64_t n, uint64_t dm, uint64_t dw,
          uint64_t dc)
{
	bool fresh_known = method_known(r, dm);
	bool cont_known = method_known(r, t->m + dm);

	if (fresh_known != cont_known)
		return cont_known;
	if (n != b->count && b->count == t->count + n)
		return true;
	if (fresh_known)
		return false;
	/* No method to go by: a fresh start would step back in time. */
	return r->wall ? dw < t->w : dc < t->c;
}

static void
decode_final(struct v2_reader *r, const struct v2_block *b, size_t stop,
             bool report, struct v2_decoded *d)
{
	struct v2_thread *t = thread_state(r, b->tid);
	const unsigned char *start = r->buf + b->payload;
	const unsigned char *end = r->buf + stop, *p = start;
	uint64_t n = 0, i, dm, dw, dc, m = 0, w = 0, c = 0;

	/* The records' layout does not depend on the running values. */
	while (p < end && final_record(r, &p, end, &dm, &dw, &dc))
		n++;
	d->fit = p == end && stop == b->payload + b->size;
	d->bad = p < end ? (size_t)(p - r->buf) : 0;
	p = start;
	if (t->seen && n && final_record(r, &p, end, &dm, &dw, &dc) &&
	    continues(r, t, b, n, dm, dw, dc)) {
		d->continued = true;
		m = t->m;
		w = t->w;
		c = t->c;
	}
	p = start;
	for (i = 0; i < n; i++) {
		final_record(r, &p, end, &dm, &dw, &dc);
		m += dm;
		w += dw;
		c += dc;
		if ((m & 3) == 0) {
			d->entries++;
			d->resolved += method_known(r, m);
		}
		if (report)
			emit(r, b->tid, m, time_us(r, c, false),
			     time_us(r, w, false));
	}
	d->records = n;
	d->exact = d->fit && (n == b->count ||
	                      (d->continued && b->count == t->count + n));
	t->seen = true;
	t->m = m;
	t->w = w;
	t->c = c;
	t->count = b->count;
}

static void
decode_draft(struct v2_reader *r, const struct v2_block *b, size_t stop,
             bool report, struct v2_decoded *d)
{
	const unsigned char *end = r->buf + stop, *p = r->buf + b->payload;
	uint64_t m = b->first_m, w = b->first_w, c = b->first_c;
	uint64_t dm, dw, dc;

	d->records = 1;
	for (;;) {
		if ((m & 3) == 0) {
			d->entries++;
			d->resolved += method_known(r, m);
		}
		if (report)
			emit(r, b->tid, m, time_us(r, c, false),
			     time_us(r, w, false));
		if (p >= end || !final_record(r, &p, end, &dm, &dw, &dc))
			break;
		m += dm;
		w += dw;
		c += dc;
		d->records++;
	}
	d->fit = p == end && stop == b->payload + b->size;
	d->bad = p < end ? (size_t)(p - r->buf) : 0;
	d->exact = d->fit && d->records == b->count;
}

/* Arithmetic shift right by two of a two's complement value. */
static uint64_t
shift_time(uint64_t v)
{
	return v >> 2 | (v >> 63 ? UINT64_C(0xC000000000000000) : 0);
}

static void
decode_perfetto(struct v2_reader *r, const struct v2_block *b, size_t stop,
                bool report, struct v2_decoded *d)
{
	struct v2_thread *t = thread_state(r, b->tid);
	const unsigned char *end = r->buf + stop, *p = r->buf + b->payload;
	uint64_t v = 0, c = 0, mprev = 0;

	while (p < end) {
		const unsigned char *q = p;
		int64_t dv, dc = 0, dm;
		uint64_t m, ts, tus;
		size_t n;

		if (!(n = trace_v2_sleb(q, end, &dv)))
			break;
		q += n;
		if (r->nclocks == 2) {
			if (!(n = trace_v2_sleb(q, end, &dc)))
				break;
			q += n;
		}
		if (((v + (uint64_t)dv) & 3) == 0) {
			if (!(n = trace_v2_sleb(q, end, &dm)))
				break;
			q += n;
			mprev += (uint64_t)dm;
			m = mprev & ~(uint64_t)3;
			UTIL_GROW(t->stack, t->cap, t->depth + 1);
			t->stack[t->depth++] = m;
			d->entries++;
			d->resolved += method_known(r, m);
		} else {
			m = t->depth ? t->stack[--t->depth] : mprev;
			m &= ~(uint64_t)3;
		}
		v += (uint64_t)dv;
		c += (uint64_t)dc;
		p = q;
		d->records++;
		if (!report)
			continue;
		ts = shift_time(v);
		tus = time_us(r, ts, r->tsc_hz != 0);
		if (r->wall)
			emit(r, b->tid, m | (v & 3), time_us(r, c, false), tus);
		else
			emit(r, b->tid, m | (v & 3), tus, 0);
	}
	d->fit = p == end && stop == b->payload + b->size;
	d->bad = p < end ? (size_t)(p - r->buf) : 0;
	d->exact = d->fit && d->records == b->count;
}

/* Decode block b's payload up to offset stop under the reader's layout. */
static void
decode_block(struct v2_reader *r, const struct v2_block *b, size_t stop,
             bool report, struct v2_decoded *d)
{
	memset(d, 0, sizeof(*d));
	switch (r->layout) {
	case LAYOUT_FINAL:
		decode_final(r, b, stop, report, d);
		break;
	case LAYOUT_DRAFT:
		decode_draft(r, b, stop, report, d);
		break;
	default:
		decode_perfetto(r, b, stop, report, d);
		break;
	}
}

/* Size of the complete packet at pos (not the summary) under layout. */
static size_t
packet_size(const struct v2_reader *r, enum v2_layout layout, size_t pos,
            struct v2_block *b)
{
	const unsigned char *p = r->buf + pos;

	if (p[0] == 0)
		return 7 + (size_t)trace_u2(p + 5);
	if (p[0] == 1)
		return 11 + (size_t)trace_u2(p + 9);
	block_header(r, layout, pos, b);
	return b->payload - pos + b->size;
}

/* Decode the first blocks of walk w under layout and weigh the result. */
static void
probe(struct v2_reader *r, enum v2_layout layout, const struct v2_walk *w,
      struct v2_score *s)
{
	size_t pos = r->hdr + V2_HEADER, blocks = 0, bytes = 0;
	struct v2_decoded d;
	struct v2_block b;

	memset(s, 0, sizeof(*s));
	r->layout = layout;
	threads_reset(r);
	while (pos < w->at && blocks < V2_PROBE_BLOCKS &&
	       bytes < V2_PROBE_BYTES) {
		size_t size = packet_size(r, layout, pos, &b);

		if (r->buf[pos] == 2) {
			decode_block(r, &b, b.payload + b.size, false, &d);
			s->exact += d.exact;
			s->fit += d.fit;
			s->resolved += d.resolved;
			blocks++;
			bytes += b.size;
		}
		pos += size;
	}
	/* A block cut off by the end of the file still names methods. */
	if (w->stop == STOP_TRUNCATED && r->buf[w->at] == 2 &&
	    blocks < V2_PROBE_BLOCKS && block_header(r, layout, w->at, &b)) {
		decode_block(r, &b, r->len, false, &d);
		s->resolved += d.resolved;
	}
	threads_reset(r);
}

static bool
score_better(const struct v2_score *a, const struct v2_score *b)
{
	if (a->exact != b->exact)
		return a->exact > b->exact;
	if (a->resolved != b->resolved)
		return a->resolved > b->resolved;
	return a->fit > b->fit;
}

/* ---- reporting -------------------------------------------------------- */

static void
report_thread(struct v2_reader *r, size_t pos)
{
	const unsigned char *p = r->buf + pos;
	char *name = trace_name_dup((const char *)p + 7, trace_u2(p + 5));

	util_map_put(&r->named, trace_u4(p + 1), 0);
	if (r->sink->thread)
		r->sink->thread(r->sink->ctx, trace_u4(p + 1), name);
	free(name);
}

void
trace_v2_report_method(const unsigned char *buf, size_t pos,
                       const struct trace_sink *sink)
{
	const unsigned char *p = buf + pos;
	size_t n = trace_u2(p + 9), id_len;
	char *line;

	while (n && (p[11 + n - 1] == '\n' || p[11 + n - 1] == '\r'))
		n--;
	line = xasprintf("%" PRIx64 "\t", trace_u8(p + 1));
	id_len = strlen(line);
	line = xreallocarray(line, id_len + n + 1, 1);
	memcpy(line + id_len, p + 11, n);
	trace_key_method_line((const unsigned char *)line, id_len + n, pos + 11,
	                      sink);
	free(line);
}

static void
report_method(struct v2_reader *r, size_t pos)
{
	trace_v2_report_method(r->buf, pos, r->sink);
}

static void
report_block(struct v2_reader *r, const struct v2_block *b, size_t stop)
{
	struct v2_decoded d;

	decode_block(r, b, stop, true, &d);
	if (d.continued)
		trace_warn(r->sink, b->at,
		           "entry block continues the previous block of "
		           "thread %" PRIu32 " (a large flush split by the "
		           "writer); decoded from its running values",
		           b->tid);
	if (stop < b->payload + b->size)
		trace_warn(r->sink, b->at,
		           "entry block cut off by the end of the file: "
		           "%" PRIu64 " of its %" PRIu64 " records kept",
		           d.records, b->count);
	else if (d.bad)
		trace_warn(r->sink, d.bad,
		           "malformed record in the entry block at offset "
		           "%zu; the rest of the block is skipped",
		           b->at);
	else if (!d.exact)
		trace_warn(r->sink, b->at,
		           "entry block holds %" PRIu64 " records, its "
		           "header says %" PRIu64,
		           d.records, b->count);
}

/* Name the thread of tid by its tid where the file lost the names. */
static void
name_by_tid(struct v2_reader *r, uint32_t tid)
{
	uint32_t ignored;
	char name[32];

	if (!r->names_lost || util_map_get(&r->named, tid, &ignored))
		return;
	util_map_put(&r->named, tid, 0);
	snprintf(name, sizeof(name), "thread %" PRIu32, tid);
	if (r->sink->thread)
		r->sink->thread(r->sink->ctx, tid, name);
}

/* Report the info packets before the summary (Android 15 non-streaming). */
static void
report_lead(struct v2_reader *r)
{
	size_t pos = 0;
	struct v2_block b;

	while (pos < r->lead) {
		if (r->buf[pos] == 0)
			report_thread(r, pos);
		else
			report_method(r, pos);
		pos += packet_size(r, LAYOUT_FINAL, pos, &b);
	}
}

/* Report every packet before the walk's stop, then what the stop left. */
static void
report(struct v2_reader *r, const struct v2_walk *w)
{
	size_t pos = r->hdr + V2_HEADER;
	uint64_t told = 0;
	struct v2_block b;

	threads_reset(r);
	report_lead(r);
	while (pos < w->at) {
		size_t size = packet_size(r, r->layout, pos, &b);

		if (r->reported - told >= V2_PROGRESS_RECORDS &&
		    r->sink->progress) {
			told = r->reported;
			r->sink->progress(r->sink->ctx, pos, r->len);
		}
		if (r->buf[pos] == 0)
			report_thread(r, pos);
		else if (r->buf[pos] == 1)
			report_method(r, pos);
		else {
			name_by_tid(r, b.tid);
			report_block(r, &b, b.payload + b.size);
		}
		pos += size;
	}
	if (w->stop == STOP_TRUNCATED && r->buf[w->at] == 2 &&
	    block_header(r, r->layout, w->at, &b)) {
		name_by_tid(r, b.tid);
		report_block(r, &b, r->len);
	}
	if (r->clamped)
		trace_warn(r->sink, r->hdr + V2_HEADER,
		           "%" PRIu64 " times below zero or past 2^48 us "
		           "(a damaged file) were clamped",
		           r->clamped);
	threads_reset(r);
}

/* ---- the whole file --------------------------------------------------- */

/* The summary text: the packet the walk stopped at, or the text before
 * the header (Android 15 non-streaming).  Its offset and length; false
 * when there is none. */
static bool
summary_text(const struct v2_reader *r, const struct v2_walk *w, size_t *at,
             size_t *len)
{
	if (w->stop == STOP_SUMMARY) {
		*at = w->summary;
		*len = w->summary_len;
		return true;
	}
	if (r->lead < r->hdr) {
		*at = r->lead;
		*len = r->hdr - r->lead;
		return true;
	}
	return false;
}

/* True when the summary text has a line starting with key. */
static bool
summary_has(const struct v2_reader *r, const struct v2_walk *w, const char *key)
{
	size_t at, len, n = strlen(key), i;
	const unsigned char *s;

	if (!summary_text(r, w, &at, &len))
		return false;
	s = r->buf + at;
	for (i = 0; i + n <= len; i++)
		if ((i == 0 || s[i - 1] == '\n') && memcmp(s + i, key, n) == 0)
			return true;
	return false;
}

/* The decimal value of the summary's line starting with key; false when
 * there is none. */
static bool
summary_value(const struct v2_reader *r, const struct v2_walk *w,
              const char *key, uint64_t *value)
{
	size_t at, len, n = strlen(key), i, j;
	const unsigned char *s;

	if (!summary_text(r, w, &at, &len))
		return false;
	s = r->buf + at;
	for (i = 0; i + n <= len; i++) {
		if ((i && s[i - 1] != '\n') || memcmp(s + i, key, n) != 0)
			continue;
		*value = 0;
		for (j = i + n; j < len && s[j] >= '0' && s[j] <= '9' &&
		                *value < UINT64_MAX / 10 - 9;
		     j++)
			*value = *value * 10 + (uint64_t)(s[j] - '0');
		return j > i + n;
	}
	return false;
}

/* Choose the clocks from the version and the summary's clock= line. */
static void
choose_clock(struct v2_reader *r, const struct trace_key_info *key,
             bool have_key, struct trace_header *h)
{
	if (r->nclocks == 2) {
		if (have_key && key->has_clock &&
		    key->clock != TRACE_CLOCK_DUAL)
			trace_warn(r->sink, r->hdr + 4,
			           "version 5 records carry both clocks "
			           "whatever the summary's clock= says");
		h->clock = TRACE_CLOCK_DUAL;
	} else if (have_key && key->has_clock &&
	           key->clock != TRACE_CLOCK_DUAL) {
		h->clock = key->clock;
	} else {
		trace_warn(r->sink, r->hdr + 4,
		           "no summary names the one clock of this "
		           "version-4 trace; assuming wall");
		h->clock = TRACE_CLOCK_WALL;
	}
	r->wall = h->clock & TRACE_CLOCK_WALL;
	r->cpu = h->clock & TRACE_CLOCK_CPU;
}

/* Choose the time unit from the summary, else from what the file hints. */
static void
choose_unit(struct v2_reader *r, const struct v2_walk *w, bool have_key)
{
	uint64_t start = trace_u8(r->buf + r->hdr + 6);

	if (have_key && summary_has(r, w, "elapsed-time-nsec=")) {
		r->unit_div = 1000;
	} else if (have_key && summary_has(r, w, "elapsed-time-usec=")) {
		r->unit_div = 1;
	} else if (r->layout == LAYOUT_DRAFT) {
		r->unit_div = 1;
		trace_warn(r->sink, r->hdr + 6,
		           "no summary names the time unit; the Android 15 "
		           "block layout means microseconds");
	} else {
		r->unit_div = start >= V2_NS_GUESS ? 1000 : 1;
		trace_warn(r->sink, r->hdr + 6,
		           "no summary names the time unit; assuming %s "
		           "from the header's start time",
		           r->unit_div == 1000 ? "nanoseconds"
		                               : "microseconds");
	}
	if (r->layout == LAYOUT_PERFETTO)
		r->tsc_hz = trace_u8(r->buf + r->hdr + 22);
}

/* Whether the walk ended where the file is whole: at its summary
 * packet, or at its end when the summary came before the header. */
static bool
walk_complete(const struct v2_reader *r, const struct v2_walk *w)
{
	if (w->stop == STOP_SUMMARY)
		return !w->summary_cut;
	return w->stop == STOP_END && r->lead < r->hdr;
}

/* Warn about where the walk stopped, if not at a clean end. */
static void
warn_stop(struct v2_reader *r, const struct v2_walk *w)
{
	struct v2_block b;

	switch (w->stop) {
	case STOP_BAD:
		trace_warn(r->sink, w->at,
		           "unknown packet type %u; the rest of the file is "
		           "ignored",
		           w->type);
		break;
	case STOP_TRUNCATED:
		if (r->buf[w->at] != 2 ||
		    !block_header(r, r->layout, w->at, &b))
			trace_warn(r->sink, w->at,
			           "the file is cut off inside a packet; the "
			           "rest is ignored");
		break;
	case STOP_SUMMARY:
		if (w->summary_cut)
			trace_warn(r->sink, w->at,
			           "the summary packet runs past the end of "
			           "the file");
		else if (w->summary + w->summary_len < r->len)
			trace_warn(r->sink, w->summary + w->summary_len,
			           "%zu bytes after the summary packet "
			           "ignored",
			           r->len - (w->summary + w->summary_len));
		break;
	case STOP_END:
		break;
	}
	if (r->lead < r->hdr) {
		if (w->stop != STOP_END && w->stop != STOP_SUMMARY)
			trace_warn(r->sink, w->at,
			           "the Android 15 trace is cut off in its "
			           "entry blocks: the trace is incomplete");
	} else if (w->stop != STOP_SUMMARY) {
		trace_warn(r->sink, w->at,
		           "the file ends without its summary packet: the "
		           "trace is incomplete");
	}
}

/* Pick the block layout: by the walks, then by probing the records. */
static enum v2_layout
choose_layout(struct v2_reader *r, const struct v2_walk *walks)
{
	size_t reach_final = walk_reach(r, &walks[LAYOUT_FINAL]);
	size_t reach_draft = walk_reach(r, &walks[LAYOUT_DRAFT]);
	enum v2_layout best = LAYOUT_COUNT, l;
	struct v2_score s, best_score = {0};

	for (l = LAYOUT_FINAL; l < LAYOUT_COUNT; l++) {
		size_t reach = l == LAYOUT_DRAFT ? reach_draft : reach_final;

		if (reach <
		    (reach_final > reach_draft ? reach_final : reach_draft))
			continue;
		probe(r, l, &walks[l], &s);
		if (best == LAYOUT_COUNT || score_better(&s, &best_score)) {
			best = l;
			best_score = s;
		}
	}
	return best;
}

/*
 * Check the 32-byte header at buf[hdr..len) and set up r; false with err
 * set when it is short or not a V2 header.
 */
static bool
reader_init(struct v2_reader *r, const unsigned char *buf, size_t len,
            size_t hdr, const struct trace_sink *sink, struct trace_error *err)
{
	unsigned version;

	if (len - hdr < V2_HEADER) {
		trace_error_set(err, len,
		                "expected a %d-byte V2 header, found %zu bytes",
		                V2_HEADER, len - hdr);
		return false;
	}
	version = trace_u2(buf + hdr + 4);
	if (memcmp(buf + hdr, "SLOW", 4) != 0 ||
	    (version != 4 && version != 5 && version != 0xF4 &&
	     version != 0xF5)) {
		trace_error_set(err, hdr + 4, "not a V2 trace (version 0x%X)",
		                version);
		return false;
	}
	memset(r, 0, sizeof(*r));
	r->buf = buf;
	r->len = len;
	r->sink = sink;
	r->hdr = hdr;
	r->nclocks = (version & 0x0F) == 5 ? 2 : 1;
	r->wall = true;
	r->cpu = r->nclocks == 2;
	util_map_init(&r->methods);
	util_map_init(&r->thread_ix);
	util_map_init(&r->named);
	return true;
}

static void
reader_done(struct v2_reader *r)
{
	threads_reset(r);
	free(r->threads);
	util_map_done(&r->methods);
	util_map_done(&r->thread_ix);
	util_map_done(&r->named);
}

/*
 * Read the packets after r's header and report the trace.  key: the
 * summary already parsed (Android 15 non-streaming), or NULL to parse
 * the summary packet.  False with err set when nothing is usable.
 */
static bool
read_packets(struct v2_reader *r, const struct trace_key_info *key_before,
             struct trace_error *err)
{
	const struct trace_sink *sink = r->sink;
	const unsigned char *buf = r->buf;
	struct v2_walk walks[LAYOUT_COUNT], *w;
	struct trace_header h = {0};
	struct trace_key_info key = {0};
	bool have_key = key_before != NULL;
	unsigned version = trace_u2(buf + r->hdr + 4);
	uint64_t announced;

	if (key_before)
		key = *key_before;
	/* Method ids from both walks: a wrong walk's are noise that no
	 * decoded record matches. */
	walk(r, LAYOUT_FINAL, true, &walks[LAYOUT_FINAL]);
	walk(r, LAYOUT_DRAFT, true, &walks[LAYOUT_DRAFT]);
	walks[LAYOUT_PERFETTO] = walks[LAYOUT_FINAL];
	w = walk_reach(r, &walks[LAYOUT_DRAFT]) >
	                    walk_reach(r, &walks[LAYOUT_FINAL])
	            ? &walks[LAYOUT_DRAFT]
	            : &walks[LAYOUT_FINAL];
	if (w->stop == STOP_BAD && w->packets == 0) {
		trace_error_set(err, r->hdr + V2_HEADER,
		                "expected a V2 packet type (0 to 3) after the "
		                "header, found 0x%02X",
		                w->type);
		return false;
	}
	r->layout = choose_layout(r, walks);
	w = &walks[r->layout];
	if (w->stop == STOP_SUMMARY && !key_before) {
		struct trace_error kerr = {0};

		have_key = trace_key_parse(buf + w->summary, w->summary_len,
		                           w->summary, sink, &key, &kerr);
		if (!have_key)
			trace_warn(sink, kerr.offset,
			           "the summary packet is not a key (%s); "
			           "ignored",
			           kerr.message);
		trace_error_clear(&kerr);
	}
	choose_clock(r, &key, have_key, &h);
	choose_unit(r, w, have_key);
	warn_stop(r, w);

	if (sink->property) {
		char *unit = r->tsc_hz ? xasprintf("TSC ticks at %" PRIu64
		                                   " Hz, shown in us",
		                                   r->tsc_hz)
		             : r->unit_div == 1000 ? xstrdup("ns, shown in us")
		                                   : xstrdup("us");

		sink->property(sink->ctx, "v2-block-layout",
		               layout_names[r->layout]);
		sink->property(sink->ctx, "v2-time-unit", unit);
		if (r->lead < r->hdr)
			sink->property(
			        sink->ctx, "v2-file-order",
			        "Android 15 non-streaming: info packets, "
			        "summary, header, entry blocks; thread "
			        "names lost, threads named by tid");
		free(unit);
	}
	h.format = (version & 0xF0) ? TRACE_FORMAT_V2_STREAM : TRACE_FORMAT_V2;
	h.version = version & 0x0F;
	h.record_size = 0;
	h.data_offset = (unsigned)(r->hdr + V2_HEADER);
	/* Perfetto reads the start as nanoseconds when it reads ticks. */
	h.start_time = r->tsc_hz ? trace_u8(buf + r->hdr + 6) / 1000
	                         : to_us(r, trace_u8(buf + r->hdr + 6));
	h.time_bits = 64;
	h.incomplete = !walk_complete(r, w);
	h.expected_records = w->records;
	/* Android 15 non-streaming: the blocks end the file, so a cut
	 * between two of them shows only in the summary's count. */
	if (r->lead < r->hdr && have_key && walk_complete(r, w) &&
	    summary_value(r, w, "num-method-calls=", &announced) &&
	    w->records < announced) {
		trace_warn(sink, r->len,
		           "the summary counts %" PRIu64 " records, the "
		           "entry blocks hold at most %" PRIu64 ": the "
		           "Android 15 trace is cut off after a whole block",
		           announced, w->records);
		h.incomplete = true;
	}
	if (sink->begin)
		sink->begin(sink->ctx, &h);
	report(r, w);
	return true;
}

bool
trace_v2_read(const unsigned char *buf, size_t len,
              const struct trace_sink *sink, struct trace_error *err)
{
	struct v2_reader r;
	bool ok;

	if (!reader_init(&r, buf, len, 0, sink, err))
		return false;
	ok = read_packets(&r, NULL, err);
	reader_done(&r);
	return ok;
}

/* ---- Android 15 non-streaming ----------------------------------------- */

/* Whether the info packet at buf[pos..len) is whole and looks like one:
 * a thread's, or a method's whose line holds a tab.  *size: its bytes. */
static bool
lead_packet(const unsigned char *buf, size_t len, size_t pos, size_t *size)
{
	const unsigned char *p = buf + pos;
	size_t left = len - pos, n;

	if (p[0] == 0) {
		if (left < 7 || (n = trace_u2(p + 5)) > left - 7)
			return false;
		*size = 7 + n;
		return true;
	}
	if (p[0] != 1 || left < 11 || (n = trace_u2(p + 9)) > left - 11 ||
	    !memchr(p + 11, '\t', n))
		return false;
	*size = 11 + n;
	return true;
}

enum lead_stop { LEAD_SUMMARY, LEAD_CUT, LEAD_BAD };

/* Walk the info packets from offset 0; *at: where the walk stopped (the
 * summary's "*version", or the packet found cut or bad), *packets: the
 * whole packets before it. */
static enum lead_stop
lead_walk(const unsigned char *buf, size_t len, size_t *at, size_t *packets)
{
	static const char marker[] = "*version\n";
	size_t pos = 0, size;

	*packets = 0;
	for (;;) {
		size_t left = len - pos;

		*at = pos;
		if (left >= 8 && memcmp(buf + pos, marker, 8) == 0)
			return *packets ? LEAD_SUMMARY : LEAD_BAD;
		/* Cut inside the marker itself. */
		if (left && left < 8 && memcmp(buf + pos, marker, left) == 0)
			return *packets ? LEAD_CUT : LEAD_BAD;
		if (left == 0 || (buf[pos] != 0 && buf[pos] != 1))
			return left == 0 && *packets ? LEAD_CUT : LEAD_BAD;
		if (!lead_packet(buf, len, pos, &size)) {
			/* A packet that would run past the end is cut. */
			if (buf[pos] == 1 && left >= 11 &&
			    trace_u2(buf + pos + 9) > left - 11 && *packets)
				return LEAD_CUT;
			if (buf[pos] == 0 && left >= 7 &&
			    trace_u2(buf + pos + 5) > left - 7 && *packets)
				return LEAD_CUT;
			return left < 11 && *packets ? LEAD_CUT : LEAD_BAD;
		}
		pos += size;
		(*packets)++;
	}
}

bool
trace_v2_android15_could_start(const unsigned char *buf, size_t len)
{
	/* A method packet: its line, when there, starts with a class. */
	return len > 0 && buf[0] == 1 &&
	       (len < 12 || (trace_u2(buf + 9) > 0 && buf[11] > ' '));
}

bool
trace_v2_android15_detect(const unsigned char *buf, size_t len)
{
	size_t at, packets;

	return len > 0 && lead_walk(buf, len, &at, &packets) != LEAD_BAD;
}

bool
trace_v2_android15_read(const unsigned char *buf, size_t len,
                        const struct trace_sink *sink, struct trace_error *err)
{
	struct trace_key_info key;
	struct v2_reader r;
	size_t at, packets, hdr, i, size;
	bool ok;

	if (lead_walk(buf, len, &at, &packets) != LEAD_SUMMARY) {
		trace_error_set(err, at,
		                "Android 15 non-streaming V2 trace cut off "
		                "among its method packets (%zu whole), before "
		                "its summary and entry blocks",
		                packets);
		return false;
	}
	if (!trace_key_parse(buf + at, len - at, at, sink, &key, err))
		return false;
	if (!key.has_end) {
		trace_error_set(err, len,
		                "Android 15 non-streaming V2 trace cut off in "
		                "its summary (from offset %zu), before '*end' "
		                "and its entry blocks",
		                at);
		return false;
	}
	hdr = at + key.end;
	if (len - hdr < 4 || memcmp(buf + hdr, "SLOW", 4) != 0) {
		trace_error_set(err, hdr,
		                "Android 15 non-streaming V2 trace: expected "
		                "the V2 header 'SLOW' after the summary's "
		                "'*end'%s",
		                len - hdr < 4 ? ", found the end of the file"
		                              : "");
		return false;
	}
	if (!reader_init(&r, buf, len, hdr, sink, err))
		return false;
	r.lead = at;
	r.names_lost = true;
	for (i = 0; i < at; i += size) {
		lead_packet(buf, len, i, &size);
		if (buf[i] == 1)
			util_map_put(&r.methods,
			             trace_u8(buf + i + 1) & ~(uint64_t)3, 0);
	}
	ok = read_packets(&r, &key, err);
	reader_done(&r);
	return ok;
}
