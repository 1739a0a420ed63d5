/*
 * lowoverhead: two passes over the mapped bytes.  The walk follows the
 * packets (entry blocks, method and thread info, in any order) and
 * decodes every block once for the earliest time, the base of the times
 * reported; the report pass hands the info packets to the sink, then
 * each block's records.
 *
 * Invariants: every length read from the file is checked against the
 * bytes that remain before it is used; nothing is allocated by a count
 * read from the file (a thread's stack grows with the entries decoded);
 * running values are 64-bit and wrap as the writer's do.  Exits carry
 * no method: each closes its thread's last open entry, across blocks,
 * and one with none open is skipped and counted.
 */
#include "config.h"

#include "read/lowoverhead.h"

#include "read/bytes.h"
#include "read/v2.h"
#include "util/alloc.h"
#include "util/map.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	LO_BLOCK_HEADER = 12,
	LO_METHOD_HEADER = 11,
	LO_THREAD_HEADER = 7,
	LO_PROGRESS_RECORDS = 1 << 20,
};

/* Times past this (8.9 years, in microseconds) from the earliest come
 * from a damaged file; they are clamped so sums of them cannot
 * overflow. */
#define LO_MAX_TIME (UINT64_C(1) << 48)

static const char what[] = "ART low-overhead dump";

enum lo_stop {
	LO_END, /* clean end of the file */
	LO_CUT, /* a packet runs past the end of the file */
	LO_BAD, /* a packet with an unknown type byte */
};

/* A thread's open entries, kept across its blocks. */
struct lo_thread {
	uint64_t *stack;
	size_t depth, cap;
	bool named;
};

struct lo_reader {
	const unsigned char *buf;
	size_t len;
	const struct trace_sink *sink;
	enum lo_stop stop;
	size_t at;         /* where the walk stopped */
	unsigned bad_type; /* LO_BAD: the type byte */
	uint64_t base_us;  /* the earliest time, microseconds */
	bool have_base;
	uint64_t announced;        /* records the block headers announce */
	uint64_t methods;          /* method packets walked */
	struct util_map defined;   /* their method ids */
	uint64_t undefined;        /* entries of a method no packet defines */
	struct util_map thread_ix; /* tid -> index in threads */
	struct lo_thread *threads;
	size_t nthreads, threads_cap;
	uint64_t reported; /* records reported, for progress */
	uint64_t clamped;  /* times clamped */
	uint64_t orphans;  /* exits with no open entry */
};

/* One entry block's header as read. */
struct lo_block {
	size_t at;
	uint32_t tid;
	uint64_t count;
	size_t payload; /* offset of the payload */
	size_t size;    /* payload bytes announced */
	size_t stop;    /* the payload's end in the file */
};

/* What decoding one block found. */
struct lo_decoded {
	uint64_t records;
	size_t bad; /* offset of a malformed record, or 0 */
};

static struct lo_thread *
thread_of(struct lo_reader *r, uint32_t tid)
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

/* Read the block header at pos; false when the file ends inside it. */
static bool
block_at(const struct lo_reader *r, size_t pos, struct lo_block *b)
{
	const unsigned char *p = r->buf + pos;

	memset(b, 0, sizeof(*b));
	b->at = pos;
	if (r->len - pos < LO_BLOCK_HEADER)
		return false;
	b->tid = trace_u4(p + 1);
	b->count = trace_u4(p + 5) & 0xFFFFFF;
	b->size = trace_u4(p + 8);
	b->payload = pos + LO_BLOCK_HEADER;
	b->stop = b->size > r->len - b->payload ? r->len : b->payload + b->size;
	return true;
}

/*
 * Decode one record at *p before end: the (time << 1 | exit) delta and,
 * for an entry, the method delta, added to *ta and *m.  False, nothing
 * changed, when it is malformed or runs past end.
 */
static bool
record(const unsigned char **p, const unsigned char *end, uint64_t *ta,
       uint64_t *m)
{
	const unsigned char *q = *p;
	int64_t dta, dm = 0;
	size_t n;

	if (!(n = trace_v2_sleb(q, end, &dta)))
		return false;
	q += n;
	if (!((*ta + (uint64_t)dta) & 1)) {
		if (!(n = trace_v2_sleb(q, end, &dm)))
			return false;
		q += n;
	}
	*ta += (uint64_t)dta;
	*m += (uint64_t)dm;
	*p = q;
	return true;
}

/* A running (time << 1 | exit) in microseconds; false when below zero
 * (a damaged file). */
static bool
record_us(uint64_t ta, uint64_t *us)
{
	if (ta >> 63)
		return false;
	*us = (ta >> 1) / 1000;
	return true;
}

/* Decode block b; with report, hand its records to the sink, else only
 * note the earliest time. */
static void
decode(struct lo_reader *r, const struct lo_block *b, bool report,
       struct lo_decoded *d)
{
	const unsigned char *p = r->buf + b->payload, *end = r->buf + b->stop;
	struct lo_thread *t = report ? thread_of(r, b->tid) : NULL;
	uint64_t ta = 0, m = 0;

	memset(d, 0, sizeof(*d));
	while (p < end) {
		uint64_t us = 0, id;
		bool exit, valid;

		if (!record(&p, end, &ta, &m)) {
			d->bad = (size_t)(p - r->buf);
			break;
		}
		d->records++;
		exit = ta & 1;
		valid = record_us(ta, &us);
		if (!report) {
			if (valid && (!r->have_base || us < r->base_us))
				r->base_us = us;
			r->have_base |= valid;
			continue;
		}
		if (!valid) {
			r->clamped++;
			us = r->base_us;
		}
		us -= us < r->base_us ? us : r->base_us;
		if (us > LO_MAX_TIME) {
			r->clamped++;
			us = LO_MAX_TIME;
		}
		if (exit) {
			/* An exit names no method: with no entry open
			 * before it, nothing says whose it is. */
			if (!t->depth) {
				r->orphans++;
				continue;
			}
			id = t->stack[--t->depth];
		} else {
			uint32_t ignored;

			id = m & ~(uint64_t)3;
			r->undefined +=
			        r->methods &&
			        !util_map_get(&r->defined, id, &ignored);
			UTIL_GROW(t->stack, t->cap, t->depth + 1);
			t->stack[t->depth++] = id;
		}
		r->reported++;
		if (r->sink->event)
			r->sink->event(r->sink->ctx, b->tid, id,
			               exit ? TRACE_EXIT : TRACE_ENTER, 0, us);
	}
}

/* Size of the whole info packet at pos, or 0 when it runs past the end
 * of the file. */
static size_t
info_size(const struct lo_reader *r, size_t pos)
{
	size_t left = r->len - pos, head, n;
	const unsigned char *p = r->buf + pos;

	head = p[0] == 1 ? LO_METHOD_HEADER : LO_THREAD_HEADER;
	if (left < head)
		return 0;
	n = trace_u2(p + head - 2);
	return n > left - head ? 0 : head + n;
}

/* Walk the packets, noting where and why the walk stopped and the
 * earliest time of the blocks. */
static void
walk(struct lo_reader *r)
{
	size_t pos = 0;

	while (pos < r->len) {
		struct lo_block b;
		struct lo_decoded d;
		size_t size;

		r->at = pos;
		switch (r->buf[pos]) {
		case 0:
		case 1:
			if (!(size = info_size(r, pos))) {
				r->stop = LO_CUT;
				return;
			}
			if (r->buf[pos] == 1) {
				r->methods++;
				util_map_put(&r->defined,
				             trace_u8(r->buf + pos + 1) &
				                     ~(uint64_t)3,
				             0);
			}
			pos += size;
			break;
		case 2:
			if (!block_at(r, pos, &b)) {
				r->stop = LO_CUT;
				return;
			}
			decode(r, &b, false, &d);
			r->announced += b.count;
			if (b.stop < b.payload + b.size) {
				r->stop = LO_CUT;
				return;
			}
			pos = b.stop;
			break;
		default:
			r->bad_type = r->buf[pos];
			r->stop = LO_BAD;
			return;
		}
	}
	r->at = pos;
	r->stop = LO_END;
}

static void
report_thread(struct lo_reader *r, size_t pos)
{
	const unsigned char *p = r->buf + pos;
	uint32_t tid = trace_u4(p + 1);
	char *name = trace_name_dup((const char *)p + LO_THREAD_HEADER,
	                            trace_u2(p + 5));

	thread_of(r, tid)->named = true;
	if (r->sink->thread)
		r->sink->thread(r->sink->ctx, tid, name);
	free(name);
}

/* The info packets before the walk's stop, in file order. */
static void
report_info(struct lo_reader *r)
{
	size_t pos = 0;
	struct lo_block b;

	while (pos < r->at) {
		if (r->buf[pos] == 2) {
			block_at(r, pos, &b);
			pos = b.stop;
			continue;
		}
		if (r->buf[pos] == 0)
			report_thread(r, pos);
		else
			trace_v2_report_method(r->buf, pos, r->sink);
		pos += info_size(r, pos);
	}
}

static void
report_block(struct lo_reader *r, const struct lo_block *b)
{
	struct lo_thread *t = thread_of(r, b->tid);
	struct lo_decoded d;

	if (!t->named) {
		char name[32];

		t->named = true;
		snprintf(name, sizeof(name), "thread %" PRIu32, b->tid);
		if (r->sink->thread)
			r->sink->thread(r->sink->ctx, b->tid, name);
	}
	decode(r, b, true, &d);
	if (b->stop < b->payload + b->size)
		trace_warn(r->sink, b->at,
		           "%s: entry block cut off by the end of the file: "
		           "%" PRIu64 " of its %" PRIu64 " records kept",
		           what, d.records, b->count);
	else if (d.bad)
		trace_warn(r->sink, d.bad,
		           "%s: malformed record in the entry block at offset "
		           "%zu; the rest of the block is skipped",
		           what, b->at);
	else if (d.records != b->count)
		trace_warn(r->sink, b->at,
		           "%s: entry block holds %" PRIu64 " records, its "
		           "header says %" PRIu64,
		           what, d.records, b->count);
}

/* Each block's records, in file order, then what the stop left. */
static void
report_blocks(struct lo_reader *r)
{
	size_t pos = 0;
	uint64_t told = 0;
	struct lo_block b;

	while (pos < r->len &&
	       (pos < r->at || (r->stop == LO_CUT && pos == r->at))) {
		if (r->buf[pos] != 2) {
			size_t size = info_size(r, pos);

			if (!size)
				break;
			pos += size;
			continue;
		}
		if (!block_at(r, pos, &b))
			break;
		if (r->reported - told >= LO_PROGRESS_RECORDS &&
		    r->sink->progress) {
			told = r->reported;
			r->sink->progress(r->sink->ctx, pos, r->len);
		}
		report_block(r, &b);
		pos = b.stop;
	}
}

/* Warn about where the walk stopped, if not at a clean end. */
static void
warn_stop(struct lo_reader *r)
{
	struct lo_block b;

	if (r->stop == LO_BAD)
		trace_warn(r->sink, r->at,
		           "%s: unknown packet type %u; the rest of the file "
		           "is ignored",
		           what, r->bad_type);
	else if (r->stop == LO_CUT &&
	         (r->buf[r->at] != 2 || !block_at(r, r->at, &b)))
		trace_warn(r->sink, r->at,
		           "%s: cut off inside a packet; the rest is ignored",
		           what);
	if (r->stop != LO_END || !r->methods)
		trace_warn(r->sink, r->at,
		           "%s cut off before its method packets, which "
		           "follow the entry blocks: methods without one "
		           "show their pointers",
		           what);
}

bool
trace_lowoverhead_could_start(const unsigned char *buf, size_t len)
{
	uint32_t count;

	if (len == 0 || buf[0] != 2)
		return false;
	if (len < LO_BLOCK_HEADER)
		return true;
	count = trace_u4(buf + 5) & 0xFFFFFF;
	return trace_u4(buf + 1) && count && count <= trace_u4(buf + 8);
}

bool
trace_lowoverhead_detect(const unsigned char *buf, size_t len)
{
	struct lo_reader r;
	struct lo_block b;
	const unsigned char *p, *end;
	uint64_t ta = 0, m = 0, n = 0, us;
	bool cut;

	memset(&r, 0, sizeof(r));
	r.buf = buf;
	r.len = len;
	if (len == 0 || buf[0] != 2 || !block_at(&r, 0, &b) || !b.tid ||
	    !b.count || b.count > b.size)
		return false;
	/* Every record in the file reads whole (but one cut by its end),
	 * the first an entry at a time not below zero, and no more of
	 * them than announced. */
	cut = b.stop < b.payload + b.size;
	p = buf + b.payload;
	end = buf + b.stop;
	while (p < end) {
		if (!record(&p, end, &ta, &m))
			return cut;
		if (n == 0 && ((ta & 1) || !record_us(ta, &us)))
			return false;
		if (++n > b.count)
			return false;
	}
	return cut || n == b.count;
}

bool
trace_lowoverhead_read(const unsigned char *buf, size_t len,
                       const struct trace_sink *sink, struct trace_error *err)
{
	struct lo_reader r;
	struct trace_header h = {0};
	size_t i;

	if (!trace_lowoverhead_detect(buf, len)) {
		trace_error_set(err, 0,
		                "not an %s: expected an entry block (type 2, "
		                "tid, records, bytes) of whole records",
		                what);
		return false;
	}
	memset(&r, 0, sizeof(r));
	r.buf = buf;
	r.len = len;
	r.sink = sink;
	util_map_init(&r.thread_ix);
	util_map_init(&r.defined);
	walk(&r);
	if (sink->property)
		sink->property(sink->ctx, "low-overhead-dump",
		               "ART 16 long-running methods (TraceProfiler): "
		               "only calls longer than about 170 ms, wall "
		               "clock only");
	warn_stop(&r);
	h.format = TRACE_FORMAT_ART_LOW_OVERHEAD;
	h.version = 0;
	h.clock = TRACE_CLOCK_WALL;
	h.data_offset = 0;
	h.start_time = r.base_us;
	h.time_bits = 64;
	h.incomplete = r.stop != LO_END;
	h.expected_records = r.announced;
	if (sink->begin)
		sink->begin(sink->ctx, &h);
	report_info(&r);
	report_blocks(&r);
	if (r.clamped)
		trace_warn(sink, 0,
		           "%s: %" PRIu64 " times below zero or 2^48 us past "
		           "the earliest (a damaged file) were clamped",
		           what, r.clamped);
	if (r.undefined)
		trace_warn(sink, r.at,
		           "%s: %" PRIu64 " entries of methods that no method "
		           "packet defines (the dump cut off among them?)",
		           what, r.undefined);
	if (r.orphans)
		trace_warn(sink, 0,
		           "%s: %" PRIu64 " exits with no entry before them "
		           "on their thread skipped: they name no method "
		           "(calls open deeper than the dump recorded at "
		           "its start)",
		           what, r.orphans);
	for (i = 0; i < r.nthreads; i++)
		free(r.threads[i].stack);
	free(r.threads);
	util_map_done(&r.thread_ix);
	util_map_done(&r.defined);
	return true;
}
