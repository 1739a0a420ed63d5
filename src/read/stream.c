/*
 * stream: two passes over the mapped bytes.  The first walks the
 * item structure only, to find the summary (which holds the clock) and to
 * choose the record stride: ART 6 to 13 write 14-byte records even when
 * the header says 10 (FORMAT.md 4.3); it also notes where the records lie
 * between the packets.  Given the file, it reads it a window at a time
 * instead of the mapping, whose pages the records' pass then maps once,
 * as it does a V1 file's.  The second reports everything: in file order, or
 * the packets first and then the records at once in those pieces, so
 * that the builder takes them as it takes a V1 data part's (in place, by
 * a worker per cpu) when that builds the same model.  The walk shows the
 * records to a sink that asks (its walked callback) as it passes them,
 * and a second walk shows them to a sink that sums ahead of the report
 * (read/stream-ahead.c) meanwhile.
 */
#include "config.h"

#include "read/stream.h"

#include "read/bytes.h"
#include "read/key.h"
#include "read/stream-walk.h"
#include "util/alloc.h"
#include "util/map.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
	STREAM_PROBE_ITEMS = 4096,
	STREAM_PROGRESS_ITEMS = 1 << 20,
	STREAM_RELEASE = 1 << 22, /* bytes walked between page releases */
	STREAM_KNOWN = 1 << 10,   /* method ids defined_before_use recalls */
};

enum stream_stop {
	STOP_END,       /* clean end of file */
	STOP_SUMMARY,   /* reached the summary packet */
	STOP_TRUNCATED, /* an item runs past the end of the file */
	STOP_BAD,       /* an escape packet with an unknown opcode */
};

struct stream_walk {
	enum stream_stop stop;
	size_t at;      /* offset of the item where the walk stopped */
	size_t items;   /* items walked */
	size_t summary; /* offset of the summary text, STOP_SUMMARY */
	size_t summary_len;
	unsigned opcode; /* the bad opcode, STOP_BAD */
};

/* Where the records lie between the packets, noted by a walk. */
struct stream_pieces {
	struct trace_piece *pieces;
	size_t count, cap;
	size_t records;     /* records walked */
	size_t last_packet; /* records before the last thread or method
	                       packet */
};

bool
stream_window_fill(struct walk_bytes *k, size_t pos)
{
	size_t want =
	        k->len - pos < STREAM_WINDOW ? k->len - pos : STREAM_WINDOW;

	if (!trace_read_at(k->fd, k->window, want, pos))
		return false;
	k->start = pos;
	k->end = pos + want;
	return true;
}

/* Show sink the n records at `at`, from record `first` on. */
static void
show_walked(const struct trace_sink *sink, const unsigned char *at, size_t n,
            size_t first, unsigned stride, size_t len)
{
	bool dual = stride >= 14;
	struct trace_records r = {
	        .data = at,
	        .count = n,
	        .size = stride,
	        .version = dual ? 3 : 2,
	        .clock = dual ? TRACE_CLOCK_DUAL : TRACE_CLOCK_CPU,
	        .total = len,
	};

	sink->walked(sink->ctx, &r, first);
}

/* Walk items from the header on with the given stride, at most max; with
 * p, note the pieces of records, giving back the pages of a mapped buf
 * behind the walk, or reading them from fd (not -1) instead, and show
 * them to sink's walked callback when it has one. */
static void
stream_walk(const unsigned char *buf, size_t len, unsigned stride, size_t max,
            struct stream_walk *w, struct stream_pieces *p, bool mapped, int fd,
            const struct trace_sink *sink)
{
	struct walk_bytes k = {buf, len, -1, NULL, 0, 0};
	size_t pos = STREAM_HEADER, released = 0;
	bool in_piece = false;

	if (p && fd >= 0) {
		k.fd = fd;
		k.window = xmalloc(STREAM_WINDOW);
		mapped = false; /* nothing of the mapping is touched */
	}
	memset(w, 0, sizeof(*w));
	for (; pos < len && w->items < max; w->items++) {
		const unsigned char *q;
		size_t need;

		w->at = pos;
		if (len - pos < 2) {
			w->stop = STOP_TRUNCATED;
			goto out;
		}
		if (p && mapped && pos - released >= STREAM_RELEASE) {
			trace_release_mapped(buf + released, buf + pos);
			released = pos;
		}
		q = walk_at(&k, pos, len - pos < 7 ? len - pos : 7);
		if (p && trace_u2(q) && stride <= len - pos) {
			/* A run of records, up to the next release. */
			size_t n = 0, most = STREAM_RELEASE / stride;

			if (most > max - w->items)
				most = max - w->items;
			if (!in_piece) {
				UTIL_GROW(p->pieces, p->cap, p->count + 1);
				p->pieces[p->count++] = (struct trace_piece){
				        buf + pos, p->records};
			}
			in_piece = true;
			while (n < most && len - pos >= stride) {
				/* The records the window holds, looked at
				 * without a bound check each. */
				const unsigned char *at =
				        walk_at(&k, pos, stride);
				size_t room = (k.fd < 0 ? len : k.end) - pos;
				size_t lim = room / stride, i = 0;

				if (lim > most - n)
					lim = most - n;
				while (i < lim && trace_u2(at + i * stride))
					i++;
				if (i && sink && sink->walked)
					show_walked(sink, at, i, p->records + n,
					            stride, len);
				pos += i * stride;
				n += i;
				if (i < lim)
					break; /* a packet */
			}
			p->records += n;
			w->items += n - 1;
			continue;
		}
		if (trace_u2(q)) {
			need = stride;
		} else if (len - pos < 3) {
			w->stop = STOP_TRUNCATED;
			goto out;
		} else if (q[2] == 1) {
			need = len - pos < 5 ? 5 : 5 + trace_u2(q + 3);
			in_piece = false;
			if (p)
				p->last_packet = p->records;
		} else if (q[2] == 2) {
			need = len - pos < 7 ? 7 : 7 + trace_u2(q + 5);
			in_piece = false;
			if (p)
				p->last_packet = p->records;
		} else if (q[2] == 3) {
			if (len - pos < 7) {
				w->stop = STOP_TRUNCATED;
				goto out;
			}
			w->summary = pos + 7;
			w->summary_len = trace_u4(q + 3);
			if (w->summary_len > len - w->summary) {
				w->stop = STOP_TRUNCATED;
				goto out;
			}
			w->stop = STOP_SUMMARY;
			goto out;
		} else {
			w->opcode = q[2];
			w->stop = STOP_BAD;
			goto out;
		}
		if (need > len - pos) {
			w->stop = STOP_TRUNCATED;
			goto out;
		}
		pos += need;
	}
	w->at = pos;
	w->stop = STOP_END;
out:
	free(k.window);
}

/* True when walk a looks like the right stride rather than b. */
static bool
walk_better(const struct stream_walk *a, const struct stream_walk *b)
{
	if ((a->stop == STOP_BAD) != (b->stop == STOP_BAD))
		return b->stop == STOP_BAD;
	return a->items > b->items && a->stop != STOP_BAD;
}

static enum trace_clock
clock_of(const struct trace_key_info *key, bool have_key, unsigned version,
         const struct trace_sink *sink)
{
	if (have_key && key->has_clock)
		return key->clock;
	if (version >= 3)
		return TRACE_CLOCK_DUAL;
	trace_warn(sink, 4,
	           "no summary names the clock of this version-%u stream; "
	           "assuming wall",
	           version);
	return TRACE_CLOCK_WALL;
}

/* Report the items of buf[pos, end) in file order, records as events. */
static void
report_items(const unsigned char *buf, size_t pos, size_t end, unsigned stride,
             const struct trace_header *h, const struct trace_sink *sink)
{
	size_t items = 0;
	unsigned times = stride >= 14 ? 2 : stride >= 10 ? 1 : 0;

	while (pos < end) {
		uint16_t tid = trace_u2(buf + pos);

		if (++items % STREAM_PROGRESS_ITEMS == 0 && sink->progress)
			sink->progress(sink->ctx, pos, end);
		if (tid) {
			const unsigned char *r = buf + pos;
			uint32_t word = trace_u4(r + 2);
			uint64_t a = times ? trace_u4(r + 6) : 0;
			uint64_t b = times > 1 ? trace_u4(r + 10) : 0;
			uint64_t cpu = 0, wall = 0;

			if (h->clock == TRACE_CLOCK_DUAL) {
				cpu = a;
				wall = b;
			} else if (h->clock == TRACE_CLOCK_CPU) {
				cpu = a;
			} else {
				wall = a;
			}
			if (sink->event)
				sink->event(sink->ctx, tid, word & ~3u,
				            word & 3, cpu, wall);
			pos += stride;
		} else if (buf[pos + 2] == 1) {
			size_t n = trace_u2(buf + pos + 3);
			const unsigned char *text = buf + pos + 5;
			size_t tl = n;

			while (tl &&
			       (text[tl - 1] == '\n' || text[tl - 1] == '\r'))
				tl--;
			trace_key_method_line(text, tl, pos + 5, sink);
			pos += 5 + n;
		} else if (buf[pos + 2] == 2) {
			size_t n = trace_u2(buf + pos + 5);
			char *name = xstrndup((const char *)buf + pos + 7, n);

			if (sink->thread)
				sink->thread(sink->ctx, trace_u2(buf + pos + 3),
				             name);
			free(name);
			pos += 7 + n;
		} else {
			break; /* the summary: already reported */
		}
	}
}

/* Where the packets before piece k begin (k == count: after the last). */
static size_t
gap_start(const unsigned char *buf, const struct stream_pieces *p, size_t k,
          unsigned stride)
{
	const struct trace_piece *before;
	size_t n;

	if (!k)
		return STREAM_HEADER;
	before = &p->pieces[k - 1];
	n = (k < p->count ? p->pieces[k].first : p->records) - before->first;
	return (size_t)(before->data - buf) + n * stride;
}

/*
 * Whether every record before the last thread or method packet names a
 * thread and a method that a packet before it defined.  Then reporting
 * every packet first and the records after them builds what file order
 * builds: definitions number threads and methods as they come, and ids
 * met before any definition are numbered after them either way.  A
 * definition is never taken back, so the ids found defined are recalled
 * (the last thread, and methods in a small table by id) rather than
 * looked up again for every record.
 */
static bool
defined_before_use(const unsigned char *buf, size_t len,
                   const struct stream_pieces *p, unsigned stride, int fd)
{
	struct util_map methods, threads;
	struct walk_bytes rec = {buf, len, fd, NULL, 0, 0};
	size_t k, i;
	bool ok = true;
	uint32_t v, last_tid = 0, known[STREAM_KNOWN];

	/* The records are read as the walk read them: from the file when
	 * there is one, so that their pages are not mapped. */
	if (fd >= 0)
		rec.window = xmalloc(STREAM_WINDOW);

	/* A method id has its low two bits clear: never all ones. */
	memset(known, 0xFF, sizeof(known));
	util_map_init(&methods);
	util_map_init(&threads);
	for (k = 0; k < p->count && ok && p->pieces[k].first < p->last_packet;
	     k++) {
		size_t pos = gap_start(buf, p, k, stride);
		size_t to = (size_t)(p->pieces[k].data - buf);
		size_t n = (k + 1 < p->count ? p->pieces[k + 1].first
		                             : p->records) -
		           p->pieces[k].first;

		while (pos < to) {
			if (buf[pos + 2] == 1) {
				size_t size = trace_u2(buf + pos + 3),
				       tl = size;
				const unsigned char *text = buf + pos + 5;
				uint64_t id;

				while (tl && (text[tl - 1] == '\n' ||
				              text[tl - 1] == '\r'))
					tl--;
				if (trace_key_method_id(text, tl, &id))
					util_map_put(&methods, id, 1);
				pos += 5 + size;
			} else {
				util_map_put(&threads, trace_u2(buf + pos + 3),
				             1);
				pos += 7 + trace_u2(buf + pos + 5);
			}
		}
		if (n > p->last_packet - p->pieces[k].first)
			n = p->last_packet - p->pieces[k].first;
		for (i = 0; i < n && ok; i++) {
			const unsigned char *r = walk_at(
			        &rec,
			        (size_t)(p->pieces[k].data - buf) + i * stride,
			        6);
			uint32_t tid = trace_u2(r), id = trace_u4(r + 2) & ~3u;
			uint32_t *slot = &known[(id >> 2) % STREAM_KNOWN];

			if (tid != last_tid) {
				ok = util_map_get(&threads, tid, &v);
				last_tid = tid;
			}
			if (ok && *slot != id) {
				ok = util_map_get(&methods, id, &v);
				*slot = id;
			}
		}
	}
	util_map_done(&methods);
	util_map_done(&threads);
	free(rec.window);
	return ok;
}

/*
 * Report the items of buf[.., end): when the sink takes records and
 * reporting the packets first changes nothing, the packets and then
 * every record at once (as a V1 data part's, in pieces); else in file
 * order.
 */
static void
report_stream(const unsigned char *buf, size_t len, size_t end, unsigned stride,
              const struct trace_header *h, const struct stream_pieces *p,
              const struct trace_sink *sink, bool mapped, int fd,
              struct stream_ahead *ahead)
{
	bool dual = h->clock == TRACE_CLOCK_DUAL;
	struct trace_records r = {0};
	size_t k;

	/* The records' layout must read as report_items reads them. */
	if (!sink->records || !p || !p->count || stride < (dual ? 14u : 10u) ||
	    !defined_before_use(buf, len, p, stride, fd)) {
		stream_ahead_stop(ahead);
		report_items(buf, STREAM_HEADER, end, stride, h, sink);
		return;
	}
	for (k = 0; k <= p->count; k++)
		report_items(buf, gap_start(buf, p, k, stride),
		             k < p->count ? (size_t)(p->pieces[k].data - buf)
		                          : end,
		             stride, h, sink);
	/* The packets' pages go: the records are read from the file. */
	if (mapped && fd >= 0)
		trace_release_mapped(buf, buf + len);
	r.data = p->pieces[0].data;
	r.count = p->records;
	r.size = stride;
	r.version = dual ? 3 : 2;
	r.clock = h->clock;
	r.offset = (uint64_t)(p->pieces[0].data - buf);
	r.total = len;
	r.mapped = mapped;
	r.has_fd = fd >= 0;
	r.fd = fd;
	r.pieces = p->pieces;
	r.npieces = p->count;
	sink->records(sink->ctx, &r);
}

static bool stream_read_pieces(const unsigned char *buf, size_t len,
                               const unsigned char *sec, size_t sec_len,
                               const struct trace_sink *sink,
                               struct trace_error *err, bool mapped, int fd,
                               struct stream_pieces *pieces,
                               struct stream_ahead *ahead);

/* trace_stream_read; `mapped`: buf is a read-only file mapping whose
 * pages may be given back once read, of the file fd (or -1). */
static bool
stream_read(const unsigned char *buf, size_t len, const unsigned char *sec,
            size_t sec_len, const struct trace_sink *sink,
            struct trace_error *err, bool mapped, int fd)
{
	struct stream_pieces pieces = {0};
	struct stream_ahead ahead = {0};
	bool ok = stream_read_pieces(buf, len, sec, sec_len, sink, err, mapped,
	                             fd, &pieces, &ahead);

	stream_ahead_finish(&ahead);
	free(pieces.pieces);
	return ok;
}

bool
trace_stream_read(const unsigned char *buf, size_t len,
                  const unsigned char *sec, size_t sec_len,
                  const struct trace_sink *sink, struct trace_error *err)
{
	return stream_read(buf, len, sec, sec_len, sink, err, false, -1);
}

bool
trace_stream_read_mapped(const unsigned char *buf, size_t len, int fd,
                         const unsigned char *sec, size_t sec_len,
                         const struct trace_sink *sink, struct trace_error *err)
{
	return stream_read(buf, len, sec, sec_len, sink, err, true, fd);
}

static bool
stream_read_pieces(const unsigned char *buf, size_t len,
                   const unsigned char *sec, size_t sec_len,
                   const struct trace_sink *sink, struct trace_error *err,
                   bool mapped, int fd, struct stream_pieces *pieces,
                   struct stream_ahead *ahead)
{
	struct trace_header h = {0};
	struct trace_key_info key = {0};
	struct stream_walk w, alt;
	unsigned header_size;
	bool have_key = false;

	if (len < STREAM_HEADER) {
		trace_error_set(err, len,
		                "expected a %d-byte streaming header, found "
		                "%zu bytes",
		                STREAM_HEADER, len);
		return false;
	}
	h.format = TRACE_FORMAT_V1_STREAM;
	h.version = trace_u2(buf + 4) & 0x0F;
	h.data_offset = trace_u2(buf + 6);
	h.start_time = trace_u8(buf + 8);
	h.time_bits = 32;
	header_size = trace_u2(buf + 16);
	if (h.version < 1 || h.version > 3) {
		trace_error_set(err, 4, "unsupported streaming version 0x%X",
		                trace_u2(buf + 4));
		return false;
	}
	if (header_size < 6 || header_size > 64) {
		unsigned guess = h.version >= 3 ? 14 : 10;

		trace_warn(sink, 16, "record size %u is impossible; using %u",
		           header_size, guess);
		header_size = guess;
	}
	h.record_size = header_size;
	stream_walk(buf, len, header_size, STREAM_PROBE_ITEMS, &w, NULL, false,
	            -1, NULL);
	if (header_size == 10) {
		stream_walk(buf, len, 14, STREAM_PROBE_ITEMS, &alt, NULL, false,
		            -1, NULL);
		if (walk_better(&alt, &w)) {
			trace_warn(sink, 16,
			           "records are 14 bytes apart although the "
			           "header says 10 (ART 6 to 13); reading "
			           "them so");
			h.record_size = 14;
		}
	}
	if (sink->records)
		stream_ahead_start(ahead, buf, len, fd, h.record_size,
		                   h.version, sec, sec_len, sink);
	stream_walk(buf, len, h.record_size, SIZE_MAX, &w,
	            sink->records ? pieces : NULL, mapped, fd, sink);
	/* What the walk read last is read again with the records: until
	 * then, not kept (the walk gave the rest back as it went). */
	if (sink->records && mapped && fd < 0)
		trace_release_mapped(buf + (w.at > STREAM_RELEASE
		                                    ? w.at - STREAM_RELEASE
		                                    : 0),
		                     buf + w.at);

	if (w.stop == STOP_SUMMARY) {
		have_key = trace_key_parse(buf + w.summary, w.summary_len,
		                           w.summary, sink, &key, err);
		if (!have_key)
			return false;
		if (w.summary + w.summary_len < len)
			trace_warn(sink, w.summary + w.summary_len,
			           "%zu bytes after the summary packet "
			           "ignored",
			           len - (w.summary + w.summary_len));
	} else if (sec) {
		have_key = trace_key_parse(sec, sec_len, 0, sink, &key, err);
		if (!have_key)
			return false;
	}
	if (w.stop == STOP_BAD)
		trace_warn(sink, w.at,
		           "unknown packet opcode %u; the rest of the file "
		           "is ignored",
		           w.opcode);
	else if (w.stop == STOP_TRUNCATED)
		trace_warn(sink, w.at,
		           "the stream is cut off inside an item; the rest "
		           "is ignored");
	if (w.stop != STOP_SUMMARY && !sec)
		trace_warn(sink, w.at,
		           "the stream ends without its summary packet: the "
		           "trace is incomplete");
	h.incomplete = w.stop != STOP_SUMMARY && !sec;
	h.clock = clock_of(&key, have_key, h.version, sink);
	h.expected_records = w.items;
	if (sink->begin)
		sink->begin(sink->ctx, &h);
	report_stream(buf, len, w.at, h.record_size, &h,
	              sink->records ? pieces : NULL, sink, mapped, fd, ahead);
	return true;
}
