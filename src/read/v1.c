/*
 * v1: header validation, then a tight loop over the records.  The
 * header's data offset and record size are honoured (FORMAT.md 2.1, 11)
 * after checking them against the bytes that are really there.
 */
#include "config.h"

#include "read/v1.h"

#include "read/bytes.h"

#include <stdio.h>

enum { V1_HEADER_MIN = 16, V1_CHUNK = 1 << 20 };

unsigned
trace_v1_min_record_size(unsigned version)
{
	switch (version) {
	case 1:
		return 9;
	case 2:
		return 10;
	case 3:
		return 14;
	default:
		return 0;
	}
}

/* The clock of a data version when the key names none or a wrong one. */
static enum trace_clock
v1_clock(unsigned version, const struct trace_key_info *key,
         const struct trace_sink *sink, uint64_t base)
{
	if (version >= 3) {
		/* Room for two times; a single-clock key means the first
		 * field holds that clock and the second is filler. */
		return key->has_clock ? key->clock : TRACE_CLOCK_DUAL;
	}
	if (!key->has_clock)
		return TRACE_CLOCK_CPU; /* what Traceview and perflib assume */
	if (key->clock == TRACE_CLOCK_DUAL) {
		trace_warn(sink, base + 4,
		           "version-%u records carry one clock although the "
		           "key says dual; reading it as thread-cpu",
		           version);
		return TRACE_CLOCK_CPU;
	}
	return key->clock;
}

/* Report records [from, to) of run r one by one. */
static void
report_events(const struct trace_records *r, size_t from, size_t to,
              const struct trace_sink *sink)
{
	struct trace_event ev;
	size_t i;

	for (i = from; i < to; i++) {
		trace_records_get(r, i, &ev);
		sink->event(sink->ctx, ev.tid, ev.method_id, ev.action, ev.cpu,
		            ev.wall);
	}
}

/* Hand the count records at p to the sink: all at once when it takes
 * them so, else one by one in chunks, with progress between them. */
static void
report_records(const unsigned char *p, size_t count, const unsigned char *buf,
               size_t len, uint64_t base, const struct trace_header *h,
               const struct trace_sink *sink, bool mapped, int fd)
{
	struct trace_records r = {
	        .data = p,
	        .count = count,
	        .size = h->record_size,
	        .version = h->version,
	        .clock = h->clock,
	        .offset = base + (uint64_t)(p - buf),
	        .total = base + len,
	        .mapped = mapped,
	        .has_fd = fd >= 0,
	        .fd = fd,
	};
	size_t i;

	if (sink->records) {
		sink->records(sink->ctx, &r);
		return;
	}
	if (!sink->event)
		return;
	for (i = 0; i < count; i += V1_CHUNK) {
		size_t stop = count - i > V1_CHUNK ? i + V1_CHUNK : count;

		report_events(&r, i, stop, sink);
		if (mapped)
			trace_release_mapped(p + i * r.size, p + stop * r.size);
		if (sink->progress)
			sink->progress(sink->ctx, r.offset + stop * r.size,
			               r.total);
	}
}

void
trace_v1_no_data(const struct trace_key_info *key, uint64_t offset,
                 const char *why, const struct trace_sink *sink)
{
	struct trace_header h = {0};

	trace_warn(sink, offset, TRACE_V1_NO_DATA ": %s", why);
	h.format = TRACE_FORMAT_V1;
	h.version = key ? key->version : 0;
	h.time_bits = 32;
	h.no_data = 1;
	h.clock = key && key->has_clock ? key->clock : TRACE_CLOCK_CPU;
	if (sink->begin)
		sink->begin(sink->ctx, &h);
}

/* Whether the n bytes at p are all text (printable ASCII or white
 * space): words where a binary header should be. */
static bool
all_text(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((p[i] < 0x20 || p[i] > 0x7e) && p[i] != '\n' &&
		    p[i] != '\r' && p[i] != '\t')
			return false;
	return true;
}

/* trace_v1_read_data; `mapped` says buf is a read-only file mapping whose
 * pages can be released once their records are read, of the file fd
 * (or -1). */
static bool
read_data(const unsigned char *buf, size_t len, uint64_t base,
          const struct trace_key_info *key, const struct trace_sink *sink,
          struct trace_error *err, bool mapped, int fd)
{
	struct trace_header h = {0};
	const unsigned char *p;
	unsigned min, size;
	size_t count, rest;

	/* The magic and then words, or nothing (a key trimmed by hand
	 * down to its text): no data header, no records. */
	if (len >= 4 && trace_u4(buf) == 0x574F4C53 &&
	    (len < 6 || !trace_v1_min_record_size(trace_u2(buf + 4))) &&
	    all_text(buf + 4, len - 4)) {
		char why[120];

		if (len == 4)
			snprintf(
			        why, sizeof(why),
			        "the file ends after the data magic 'SLOW' (no "
			        "data header, no records)");
		else
			snprintf(why, sizeof(why),
			         "%zu bytes of text follow the data magic "
			         "'SLOW' where its header should be (no "
			         "records)",
			         len - 4);
		trace_v1_no_data(key, base, why, sink);
		return true;
	}
	if (len < V1_HEADER_MIN) {
		trace_error_set(err, base + len,
		                "expected a %d-byte data header, found %zu "
		                "bytes before the end of the file",
		                V1_HEADER_MIN, len);
		return false;
	}
	if (trace_u4(buf) != 0x574F4C53) {
		trace_error_set(err, base, "expected the data magic 'SLOW'");
		return false;
	}
	h.format = TRACE_FORMAT_V1;
	h.version = trace_u2(buf + 4);
	h.data_offset = trace_u2(buf + 6);
	h.start_time = trace_u8(buf + 8);
	h.time_bits = 32;
	min = trace_v1_min_record_size(h.version);
	if (!min) {
		trace_error_set(err, base + 4,
		                "unsupported data version %u (expected 1, 2 "
		                "or 3)",
		                h.version);
		return false;
	}
	if (key && key->version && key->version != h.version)
		trace_warn(sink, base + 4,
		           "the key says version %u, the data header %u; "
		           "using the header",
		           key->version, h.version);
	size = min;
	if (h.version >= 3) {
		if (len < 18) {
			trace_error_set(err, base + len,
			                "expected the record size at offset "
			                "%llu, found the end of the file",
			                (unsigned long long)base + 16);
			return false;
		}
		size = trace_u2(buf + 16);
		if (size < min || size > TRACE_V1_MAX_RECORD_SIZE) {
			trace_error_set(err, base + 16,
			                "record size %u is impossible for "
			                "version %u (expected %u to %d)",
			                size, h.version, min,
			                TRACE_V1_MAX_RECORD_SIZE);
			return false;
		}
	}
	if (h.data_offset < (h.version >= 3 ? 18 : V1_HEADER_MIN) ||
	    h.data_offset > len) {
		trace_error_set(err, base + 6,
		                "data offset %u is impossible (the header "
		                "needs %d bytes, the data part has %zu)",
		                h.data_offset, h.version >= 3 ? 18 : 16, len);
		return false;
	}
	h.record_size = size;
	h.clock = v1_clock(h.version, key ? key : &(struct trace_key_info){0},
	                   sink, base);
	h.expected_records = (len - h.data_offset) / size;
	if (sink->begin)
		sink->begin(sink->ctx, &h);

	p = buf + h.data_offset;
	count = (len - h.data_offset) / size;
	rest = (len - h.data_offset) % size;
	report_records(p, count, buf, len, base, &h, sink, mapped, fd);
	if (rest)
		trace_warn(sink, base + (uint64_t)(p + count * size - buf),
		           "the last record is cut off (%zu of %u bytes); "
		           "ignored",
		           rest, size);
	return true;
}

bool
trace_v1_read_data(const unsigned char *buf, size_t len, uint64_t base,
                   const struct trace_key_info *key,
                   const struct trace_sink *sink, struct trace_error *err)
{
	return read_data(buf, len, base, key, sink, err, false, -1);
}

bool
trace_v1_read_mapped(const unsigned char *buf, size_t len, uint64_t base,
                     int fd, const struct trace_key_info *key,
                     const struct trace_sink *sink, struct trace_error *err)
{
	return read_data(buf, len, base, key, sink, err, true, fd);
}
