/*
 * sink: the interface through which every reader hands a trace on.
 *
 * A reader calls, in this order:
 *   begin                      once, with what the header says;
 *   property, thread, method   any number of times, in any order, also
 *                              between events (streaming traces define
 *                              threads and methods inline);
 *   event                      once per record, in file order, or
 *   records                    once for all the records of a V1 data
 *                              part (or of a V1 streaming file, after
 *                              its packets), when the sink offers it;
 *   warning                    whenever something is skipped or repaired;
 *   progress                   now and then, on large inputs;
 * and returns.  A V1 streaming reader may also call the ahead
 * callbacks from a thread of its own, beside all of these (see
 * ahead_begin).  Strings passed to a callback are valid only during
 * that call: a sink that keeps them copies them.  A callback may not
 * fail; a sink that wants less simply ignores what it does not need.
 */
#ifndef TRACETUI_TRACE_SINK_H
#define TRACETUI_TRACE_SINK_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

enum trace_format {
	TRACE_FORMAT_V1,         /* key + data in one file, or .key + .data */
	TRACE_FORMAT_V1_STREAM,  /* SLOW 0xF1..0xF3 with inline packets */
	TRACE_FORMAT_V2,         /* SLOW 4 or 5: LEB128 entry blocks */
	TRACE_FORMAT_V2_STREAM,  /* SLOW 0xF4 or 0xF5 */
	TRACE_FORMAT_HPROF,      /* hprof text CPU profile (read/hprof.c) */
	TRACE_FORMAT_PPROF,      /* pprof profile.proto (read/pprof.c) */
	TRACE_FORMAT_SIMPLEPERF, /* simpleperf report-sample --protobuf
	                            (read/simpleperf.c) */
	TRACE_FORMAT_ART_LOW_OVERHEAD, /* ART 16's dump of long-running
	                                  methods (read/lowoverhead.c) */
};

/* What the times count: microseconds, unless a profile says otherwise. */
enum trace_unit {
	TRACE_UNIT_US = 0,
	TRACE_UNIT_NS,    /* nanoseconds */
	TRACE_UNIT_BYTES, /* sizes */
	TRACE_UNIT_COUNT, /* samples, objects, allocations, ... */
};

/* Which clocks the records carry. */
enum trace_clock {
	TRACE_CLOCK_CPU = 1,  /* thread-cpu only */
	TRACE_CLOCK_WALL = 2, /* wall only */
	TRACE_CLOCK_DUAL = 3, /* both; CPU_CLOCK | WALL_CLOCK */
};

enum trace_action {
	TRACE_ENTER = 0,
	TRACE_EXIT = 1,
	TRACE_UNWIND = 2,  /* exit by exception */
	TRACE_ACTION3 = 3, /* never written; treated as an exit */
};

struct trace_header {
	enum trace_format format;
	unsigned version; /* 1, 2 or 3 (streaming: low nibble) */
	enum trace_clock clock;
	unsigned record_size;      /* bytes per record as read */
	unsigned data_offset;      /* header's offset to the first record */
	uint64_t start_time;       /* header's start time, microseconds */
	unsigned time_bits;        /* 32: times wrap and need unwrapping */
	int incomplete;            /* the file ends before the writer did */
	int no_data;               /* a key without its data part: no records */
	uint64_t expected_records; /* records the reader expects, roughly */
	int sampled;               /* known to be sampled: the model says so */
	enum trace_unit unit;      /* what the times count */
	/* Not 0: the cpu clock counts samples, each this many units
	 * (simpleperf: its sampling period, so both clocks read as
	 * times); the wall clock holds the samples' own times. */
	uint64_t sample_weight;
	/* The sampling interval in microseconds, when the file says it
	 * (0: the model guesses it from the event times). */
	uint64_t sample_interval;
	/* Not 0: every method is defined before the first event, and each
	 * thread's events nest (an exit closes the thread's last open
	 * entry; none meets an empty stack), so a sink may sum the calls
	 * as they close (simpleperf). */
	int nested;
	/* Not 0: each thread's events come together, one thread's after
	 * another's, so a sink may finish a thread when the next one's
	 * begin (simpleperf). */
	int threads_in_turn;
};

struct trace_method_def {
	uint64_t id;       /* low two bits clear */
	const char *klass; /* as written: dotted or slashed */
	const char *name;
	const char *signature;
	const char *file; /* NULL when the line has no file */
	long line;        /* -1 when the line has none */
};

/* One decoded record. */
struct trace_event {
	uint32_t tid;
	uint32_t method_id; /* low two bits clear */
	enum trace_action action;
	uint32_t cpu, wall; /* 0 when the clock is absent */
};

/* Records [first, the next piece's first) of a streaming file, between
 * two of its packets, at data. */
struct trace_piece {
	const unsigned char *data;
	size_t first;
};

/* The fixed-size records of a V1 data part (FORMAT.md 2.2), or of a V1
 * streaming file between its packets, undecoded. */
struct trace_records {
	const unsigned char *data; /* the first record */
	size_t count;
	unsigned size;    /* bytes per record */
	unsigned version; /* 1: one-byte thread ids, one clock; 2: two-byte
	                     ids, one clock; 3: two-byte ids, two clocks */
	enum trace_clock clock;
	uint64_t offset; /* file offset of data */
	uint64_t total;  /* bytes in the file, for progress */
	int mapped;      /* data is a read-only file mapping: pages done
	                    with may be given back (trace_release_mapped) */
	/* The file data maps, open as fd: a record at address p also lies
	 * at file offset `offset` + (p - data), where pread reads it for
	 * less than the first touch of its mapped page costs. */
	bool has_fd;
	int fd;
	/* NULL: every record lies at data.  Else they lie in npieces
	 * pieces, in order, the first from record 0; trace_records_at
	 * gives the records of one. */
	const struct trace_piece *pieces;
	size_t npieces;
};

/* The records of r that lie together from record i on, up to *stop: a
 * copy of r without pieces whose trace_records_get reads records
 * [i, *stop) by their indexes in r. */
static inline struct trace_records
trace_records_at(const struct trace_records *r, size_t i, size_t *stop)
{
	struct trace_records v = *r;
	size_t lo = 0, hi = r->npieces;

	*stop = r->count;
	if (!r->pieces)
		return v;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->pieces[mid].first <= i)
			lo = mid;
		else
			hi = mid;
	}
	/* Inside the file: the piece follows at least its first records'
	 * worth of bytes. */
	v.data = r->pieces[lo].data - r->pieces[lo].first * r->size;
	v.pieces = NULL;
	v.npieces = 0;
	if (lo + 1 < r->npieces)
		*stop = r->pieces[lo + 1].first;
	return v;
}

/* Decode record i of run r. */
static inline void
trace_records_get(const struct trace_records *r, size_t i,
                  struct trace_event *ev)
{
	const unsigned char *p = r->data + i * r->size;
	unsigned wide = r->version >= 2;
	const unsigned char *m = p + 1 + wide, *t = m + 4;
	uint32_t word = (uint32_t)m[0] | (uint32_t)m[1] << 8 |
	                (uint32_t)m[2] << 16 | (uint32_t)m[3] << 24;
	uint32_t first = (uint32_t)t[0] | (uint32_t)t[1] << 8 |
	                 (uint32_t)t[2] << 16 | (uint32_t)t[3] << 24;

	ev->tid = wide ? (uint32_t)(p[0] | p[1] << 8) : p[0];
	ev->method_id = word & ~3u;
	ev->action = (enum trace_action)(word & 3);
	if (r->clock == TRACE_CLOCK_DUAL) {
		ev->cpu = first;
		ev->wall = (uint32_t)t[4] | (uint32_t)t[5] << 8 |
		           (uint32_t)t[6] << 16 | (uint32_t)t[7] << 24;
	} else {
		ev->cpu = r->clock == TRACE_CLOCK_CPU ? first : 0;
		ev->wall = r->clock == TRACE_CLOCK_WALL ? first : 0;
	}
}

/* What a streaming reader tells a sink that would sum ahead of its
 * report (ahead_begin): what it expects, from the summary found at the
 * file's end before the walk. */
struct trace_ahead_info {
	enum trace_clock clock; /* as the summary names it */
	unsigned size;          /* bytes per record */
	unsigned version;       /* of the records, as trace_records says */
	uint64_t total;         /* bytes in the file */
};

struct trace_sink {
	void *ctx;
	void (*begin)(void *ctx, const struct trace_header *header);
	void (*property)(void *ctx, const char *key, const char *value);
	void (*thread)(void *ctx, uint32_t tid, const char *name);
	void (*method)(void *ctx, const struct trace_method_def *method);
	/* cpu and wall are 0 when the clock is absent. */
	void (*event)(void *ctx, uint32_t tid, uint64_t method_id,
	              enum trace_action action, uint64_t cpu, uint64_t wall);
	/* Optional, in place of event for a V1 data part: every record at
	 * once.  The sink may read them in any order and from several
	 * threads until it returns; it reports progress itself. */
	void (*records)(void *ctx, const struct trace_records *run);
	/* Optional, beside records: records [first, first + r->count) of
	 * the run records may get later, as a reader's walk passes them, in
	 * order, before the clock and the definitions are known.  They lie
	 * whole at r->data, read as two clocks when r->clock is
	 * TRACE_CLOCK_DUAL and else as one called cpu (the run names them);
	 * r->total is the file's size. */
	void (*walked)(void *ctx, const struct trace_records *r, size_t first);
	/*
	 * Optional, beside records, for a V1 streaming file: before its walk
	 * the reader asks ahead_begin whether the sink wants the file ahead
	 * of the report; if so, another thread of the reader's, while the
	 * reader walks and reports, tells it the id of every method the
	 * summary defines, in its order, then in file order that of every
	 * method packet (ahead_method) and every run of records between
	 * them (ahead_records: records [first, first + r->count), whole at
	 * r->data during the call; false for no more), then calls ahead_end
	 * once, its last touch of the sink.  These calls come before the
	 * summary, begin and the packets are reported, and beside every
	 * later call: the sink checks, when the records come, that what it
	 * was told holds.
	 */
	bool (*ahead_begin)(void *ctx, const struct trace_ahead_info *info);
	void (*ahead_method)(void *ctx, uint64_t id);
	bool (*ahead_records)(void *ctx, const struct trace_records *r,
	                      size_t first);
	void (*ahead_end)(void *ctx);
	void (*warning)(void *ctx, uint64_t offset, const char *message);
	/* From time to time on large inputs: bytes read of total. */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	/* Not a callback: for a profile with several values per sample
	 * (pprof), the one the sink wants, by name or index from 0; NULL
	 * for the profile's default. */
	const char *sample_type;
	/* Not a callback: keep only Java frames, where a reader knows them
	 * (simpleperf); a dropped frame's samples go to its Java caller. */
	bool java_only;
};

#endif
