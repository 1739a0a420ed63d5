/*
 * simpleperf: a `report-sample --protobuf` recording read as sampled
 * stacks with times.
 *
 * What the file holds (simpleperf's cmd_report_sample.proto, AOSP
 * system/extras; only the fields below are read, others are skipped):
 *   "SIMPLEPERF", a u16 LE version (1), then records: a u32 LE size and
 *   that many bytes of a Record; a size of 0 ends the file.
 *   Record        1 sample  2 lost  3 file  4 thread  5 meta_info
 *                 6 context_switch (one of them)
 *   Sample        1 time (ns)  2 thread_id  3 callchain (leaf first)
 *                 4 event_count  5 event_type_id
 *   CallChainEntry 1 vaddr_in_file  2 file_id  3 symbol_id (int32, -1
 *                 unknown)  4 execution_type
 *   File          1 id  2 path  3 symbol (repeated)  4 mangled_symbol
 *   Thread        1 thread_id  2 process_id  3 thread_name
 *   MetaInfo      1 event_type (repeated)  2 app_package_name  3 app_type
 *                 4 android_sdk_version  5 android_build_type
 *                 6 trace_offcpu
 *   LostSituation 1 sample_count  2 lost_count
 * File and Thread records come after the samples, and sample times need
 * not be sorted, so the records are walked once, noting where each
 * Sample lies, then the samples are read in file order against the
 * tables, so methods and warnings come in the order of the samples.
 * Each Sample is read in one pass (its varint fields, and its callchain
 * as bytes), leaving any other shape to protobuf.c.  A callchain whose
 * bytes a recent sample had (a small cache by hash) takes that one's
 * frames; otherwise its entries are read, each recalled by its bytes
 * (a cache of entries: a caller's frame is the same return address in
 * every sample under it) or else found by arrays (a file by its id, a
 * symbol by its index) or by its address (an unknown symbol), and
 * only an entry's first sight is read field by field.  Both walks ask
 * for the file's bytes a page ahead: each record is found where the one
 * before ends, and would otherwise wait for memory once per record.  A
 * mapped file's pages are given back as the samples are read (a few MB
 * behind, where the cached callchains are), and all of them after: the
 * names read from it are copies.
 *
 * How it maps onto the model:
 *   - one event type at a time (sink->sample_type: a name, an index from
 *     0, or "all"; the first by default);
 *   - a frame's method is its File's symbol, or "<basename>+0x<vaddr>"
 *     for an unknown one; methods are keyed by name, so a Java method
 *     seen interpreted, JIT-compiled and from an .oat file is one;
 *     frames of .dex/.oat/.odex/.vdex/.jar files and the JIT cache are
 *     Java, of [kernel.kallsyms] and .ko files kernel, others native;
 *     sink->java_only drops native and kernel frames, their samples
 *     going to the Java caller (or to "(no Java frame)");
 *   - per thread, the samples in time order: the cpu clock counts them,
 *     each the sampling period in microseconds (the header's
 *     sample_weight, so that both clocks read as times and the samples
 *     are exactly the cpu time over it), the wall clock gives each its
 *     time (in microseconds, from nanoseconds) (the event count of a cpu-clock
 * or task-clock sample; for other events the time to the thread's next sample,
 * at most the sampling period) from its own time (or from the end of the
 *     previous sample when that is later, or less than half a period
 *     before), so equal consecutive frames are one call and a thread
 *     idle between samples shows the gap;
 *   - the header says sampled, dual clock, the cpu clock counting
 *     samples; properties say what info prints (event types, app,
 *     Android version, threads and their samples per type, lost
 *     samples, files).
 *
 * Invariants: every loop is bounded by the input; frames of all kept
 * samples together are bounded by MAX_FRAMES, and the frames held (each
 * stack's, and its Java ones) by twice as many and one stack; file and
 * symbol ids are checked before use; a sample time past TIME_MAX is
 * taken as TIME_MAX, with a warning, so that no time and span wrap.
 */
#include "config.h"

#include "read/simpleperf.h"

#include "read/bytes.h"
#include "read/protobuf.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "util/hash.h"
#include "util/map.h"
#include "util/sort.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	NONE = UINT32_MAX,
	HEADER = 12, /* "SIMPLEPERF" and the version */
	MAX_FRAMES = 1 << 26,
	MAX_TYPES = 1024,
	STACK_CACHE = 4096,     /* callchains recalled, by hash */
	ENTRY_CACHE = 8192,     /* callchain entries recalled, by their bytes */
	ENTRY_KEY = 24,         /* the longest entry recalled, in bytes */
	PREFETCH = 4096,        /* bytes asked for ahead of the walks */
	RELEASE_STEP = 1 << 23, /* bytes of the file given back at once */
	RELEASE_LAG = 1 << 22,  /* ...behind the sample being read */
};

/* No single weight above this, so sums of them never wrap. */
#define VALUE_MAX (UINT64_C(1) << 53)
/* No sample time above this (ns), so a time and a span (at most
 * VALUE_MAX) never pass the clock's end: a later one is taken as this,
 * with a warning. */
#define TIME_MAX (UINT64_MAX - VALUE_MAX)

enum sp_kind { KIND_NATIVE, KIND_JAVA, KIND_KERNEL };

struct sp_slice {
	const unsigned char *data;
	size_t len;
	uint64_t offset;
};

struct sp_file {
	uint32_t id;
	const char *path; /* NUL-terminated, in the arena */
	const char *base; /* its basename */
	struct sp_slice *symbols;
	size_t nsymbols;
	enum sp_kind kind;
	uint32_t *methods;          /* per symbol, NONE until used */
	struct util_map by_address; /* vaddr -> method, for symbol -1 */
};

/* A thread's samples are counted sparsely: those of the first event type
 * it has samples of here, any other type's in struct sp_count. */
struct sp_thread {
	uint32_t tid, pid;
	const char *name;
	uint64_t all;
	uint64_t first_count; /* samples of first_type */
	uint32_t first_type;  /* NONE before its first sample */
	bool defined;
};

/* A thread's samples of an event type other than its first. */
struct sp_count {
	uint32_t tid, type;
	uint64_t n;
};

struct sp_method {
	const char *name;
	size_t len;
	uint32_t next; /* same hash, or NONE */
	enum sp_kind kind;
};

/* A sample's callchain as the file has it, read once for the samples
 * after it that hold the same bytes while it stays in the cache. */
struct sp_stack {
	const unsigned char *raw; /* the callchain's entries in the file */
	uint32_t len;
	uint32_t hash;      /* hash_block of raw */
	uint32_t first, n;  /* frames[first, + n): what its samples take */
	uint32_t all, nall; /* frames[all, + nall): every frame, root first */
	uint32_t epoch;     /* --java-only: kind_epoch when first, n were
	                       chosen */
	uint32_t unknown;   /* frames naming a file the recording lacks */
	bool read;
};

/* A Sample record as the walk found it: its bytes. */
struct sp_record {
	const unsigned char *data;
	uint32_t len;
};

/* A callchain entry's bytes (at most ENTRY_KEY, the rest zero) and the
 * method they name; len 0 for none. */
struct sp_entry {
	uint64_t key[3];
	uint32_t method;
	uint8_t len;
	bool java; /* the entry makes its method Java */
};

/* Frame indexes fit 32 bits: a stack is read while the frames are at
 * most 2 * MAX_FRAMES, and a stack has at most a record's (u32) bytes,
 * two or more a frame. */
struct sp_sample {
	uint64_t time, count;
	uint32_t tid, type;
	uint32_t first, n; /* frames[first, + n), root first */
	uint32_t thread;   /* threads[] (before they are sorted) */
};

struct simpleperf {
	const struct trace_sink *sink;
	struct trace_error *err;
	struct util_arena arena;
	const unsigned char *buf; /* the file's bytes: offsets are from here */
	size_t len;

	struct sp_record *samples;
	size_t nsamples, samples_cap;
	size_t sample_bytes; /* of all the Sample records */
	struct sp_file *files;
	size_t nfiles, files_cap;
	struct util_map file_ids; /* id -> files[] */
	uint32_t *file_index;     /* the same for small ids, NONE for none */
	size_t nfile_index;       /* 0 when the ids are not small */
	struct sp_thread *threads;
	size_t nthreads, threads_cap;
	struct util_map thread_ids; /* tid -> threads[] */
	struct sp_count *counts;    /* other types' samples of the threads */
	size_t ncounts, counts_cap;
	struct util_map count_ids; /* tid << 32 | type -> counts[] */
	const char **types;
	size_t ntypes, types_cap;
	const char *app, *app_type, *sdk, *build_type;
	bool trace_offcpu, has_meta;
	uint64_t lost_samples, lost_lost;
	bool has_lost;
	uint64_t context_switches;
	uint64_t stopped; /* offset where the walk stopped early, or 0 */
	bool ended;       /* a size of 0 ended the records */

	struct sp_method *methods;
	size_t nmethods, methods_cap;
	struct util_map method_hash;

	uint32_t *frames;
	size_t nframes, frames_cap;
	size_t total_frames;      /* of the kept samples, each its own */
	struct sp_stack *stacks;  /* STACK_CACHE of them, by hash */
	struct sp_entry *entries; /* ENTRY_CACHE of them, by hash */
	uint32_t *java; /* --java-only: a stack's Java frames as read */
	size_t java_cap;
	uint32_t kind_epoch; /* counts the methods that became Java */
	size_t last_thread;  /* threads[] of the last sample */
	struct sp_sample *chosen;
	size_t nchosen, chosen_cap;
	uint64_t first_time; /* the first sample's time, of any type */
	uint64_t unknown_files, unknown_symbols;
	uint64_t unknown_offset;
	uint64_t late_times, late_offset; /* samples past TIME_MAX */
	uint32_t no_java;                 /* "(no Java frame)", or NONE */
	bool *time_types; /* by event type: it counts nanoseconds */
};

static const char *
kind_name(enum sp_kind k)
{
	return k == KIND_JAVA ? "java" : k == KIND_KERNEL ? "kernel" : "native";
}

static bool
ends_with(const char *s, size_t n, const char *suffix)
{
	size_t m = strlen(suffix);

	return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

/* What the frames of the file at path are. */
static enum sp_kind
kind_of_path(const char *path)
{
	size_t n = strlen(path);

	if (ends_with(path, n, ".dex") || ends_with(path, n, ".oat") ||
	    ends_with(path, n, ".odex") || ends_with(path, n, ".vdex") ||
	    ends_with(path, n, ".jar") || ends_with(path, n, ".apk") ||
	    strstr(path, "jit-cache") || strstr(path, "JIT ") ||
	    strstr(path, "jit-code-cache") || strstr(path, "dalvik-jit"))
		return KIND_JAVA;
	if (strcmp(path, "[kernel.kallsyms]") == 0 || ends_with(path, n, ".ko"))
		return KIND_KERNEL;
	return KIND_NATIVE;
}

static bool
wire_is(struct simpleperf *sp, const struct pb_field *f, enum pb_wire w,
        const char *message)
{
	if (f->wire == w)
		return true;
	trace_error_set(sp->err, f->offset,
	                "simpleperf: field %u of a %s should be wire type %d, "
	                "found wire type %d",
	                f->number, message, (int)w, (int)f->wire);
	return false;
}

/* A string field, a NUL inside it kept as C0 80 (trace_name_keep). */
static const char *
keep(struct simpleperf *sp, const struct pb_field *f)
{
	return trace_name_keep(&sp->arena, (const char *)f->data, f->len);
}

static bool
read_file(struct simpleperf *sp, const struct pb_field *outer)
{
	struct pb_reader r;
	struct pb_field f;
	struct sp_file file = {0};
	size_t cap = 0;
	const char *slash;
	uint32_t *slot;

	file.path = "";
	pb_reader_sub(&r, outer);
	while (pb_next(&r, &f, sp->err)) {
		if (f.number == 1) {
			if (!wire_is(sp, &f, PB_VARINT, "File"))
				goto fail;
			file.id = (uint32_t)f.value;
		} else if (f.number == 2 || f.number == 3) {
			if (!wire_is(sp, &f, PB_BYTES, "File"))
				goto fail;
			if (f.number == 2) {
				file.path = keep(sp, &f);
				continue;
			}
			UTIL_GROW(file.symbols, cap, file.nsymbols + 1);
			file.symbols[file.nsymbols].data = f.data;
			file.symbols[file.nsymbols].len = f.len;
			file.symbols[file.nsymbols].offset = f.data_offset;
			file.nsymbols++;
		}
	}
	if (trace_error_isset(sp->err))
		goto fail;
	slash = strrchr(file.path, '/');
	file.base = slash ? slash + 1 : file.path;
	file.kind = kind_of_path(file.path);
	file.methods = xcalloc(file.nsymbols + 1, sizeof(*file.methods));
	memset(file.methods, 0xFF, (file.nsymbols + 1) * sizeof(uint32_t));
	slot = util_map_slot(&sp->file_ids, file.id, (uint32_t)sp->nfiles);
	if (*slot != sp->nfiles) {
		trace_warn(sp->sink, outer->offset,
		           "simpleperf: file %" PRIu32 " is defined twice; the "
		           "first definition is kept",
		           file.id);
		free(file.symbols);
		free(file.methods);
		return true;
	}
	UTIL_GROW(sp->files, sp->files_cap, sp->nfiles + 1);
	sp->files[sp->nfiles++] = file;
	return true;
fail:
	free(file.symbols);
	return false;
}

/* The thread of tid, made on first sight. */
static struct sp_thread *
thread_of(struct simpleperf *sp, uint32_t tid)
{
	uint32_t *slot =
	        util_map_slot(&sp->thread_ids, tid, (uint32_t)sp->nthreads);
	struct sp_thread *t;

	if (*slot != sp->nthreads)
		return &sp->threads[*slot];
	UTIL_GROW(sp->threads, sp->threads_cap, sp->nthreads + 1);
	t = &sp->threads[sp->nthreads++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->first_type = NONE;
	return t;
}

static bool
read_thread(struct simpleperf *sp, const struct pb_field *outer)
{
	struct pb_reader r;
	struct pb_field f;
	uint32_t tid = 0, pid = 0;
	const char *name = NULL;
	struct sp_thread *t;

	pb_reader_sub(&r, outer);
	while (pb_next(&r, &f, sp->err)) {
		if (f.number == 1 || f.number == 2) {
			if (!wire_is(sp, &f, PB_VARINT, "Thread"))
				return false;
			if (f.number == 1)
				tid = (uint32_t)f.value;
			else
				pid = (uint32_t)f.value;
		} else if (f.number == 3) {
			if (!wire_is(sp, &f, PB_BYTES, "Thread"))
				return false;
			name = keep(sp, &f);
		}
	}
	if (trace_error_isset(sp->err))
		return false;
	t = thread_of(sp, tid);
	t->pid = pid;
	t->name = name;
	t->defined = true;
	return true;
}

static bool
read_meta(struct simpleperf *sp, const struct pb_field *outer)
{
	struct pb_reader r;
	struct pb_field f;

	sp->has_meta = true;
	pb_reader_sub(&r, outer);
	while (pb_next(&r, &f, sp->err)) {
		if (f.number == 6) {
			if (!wire_is(sp, &f, PB_VARINT, "MetaInfo"))
				return false;
			sp->trace_offcpu = f.value != 0;
			continue;
		}
		if (f.number < 1 || f.number > 5)
			continue;
		if (!wire_is(sp, &f, PB_BYTES, "MetaInfo"))
			return false;
		switch (f.number) {
		case 1:
			if (sp->ntypes >= MAX_TYPES) {
				trace_error_set(
				        sp->err, f.offset,
				        "simpleperf: more than %d event "
				        "types",
				        MAX_TYPES);
				return false;
			}
			UTIL_GROW(sp->types, sp->types_cap, sp->ntypes + 1);
			sp->types[sp->ntypes++] = keep(sp, &f);
			break;
		case 2:
			sp->app = keep(sp, &f);
			break;
		case 3:
			sp->app_type = keep(sp, &f);
			break;
		case 4:
			sp->sdk = keep(sp, &f);
			break;
		case 5:
			sp->build_type = keep(sp, &f);
			break;
		}
	}
	return !trace_error_isset(sp->err);
}

static bool
read_lost(struct simpleperf *sp, const struct pb_field *outer)
{
	struct pb_reader r;
	struct pb_field f;

	sp->has_lost = true;
	pb_reader_sub(&r, outer);
	while (pb_next(&r, &f, sp->err)) {
		if (f.number != 1 && f.number != 2)
			continue;
		if (!wire_is(sp, &f, PB_VARINT, "LostSituation"))
			return false;
		if (f.number == 1)
			sp->lost_samples = f.value;
		else
			sp->lost_lost = f.value;
	}
	return !trace_error_isset(sp->err);
}

/* A varint at *p, before end, as protobuf.c reads it (at most ten
 * bytes, the tenth 0 or 1): the fast path of the samples, which leaves
 * anything unusual (and every error's message) to protobuf.c. */
static inline bool
fast_varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	const unsigned char *q = *p;
	uint64_t x, b;
	unsigned i;

	if (q < end && *q < 0x80) {
		*v = *q;
		*p = q + 1;
		return true;
	}
	if (end - q >= 10) {
		/* Each byte's continuation bit taken off as it is added. */
		x = q[0];
		for (i = 1; i < 9; i++) {
			b = q[i];
			x += (b - 1) << (7 * i);
			if (b < 0x80) {
				*p = q + i + 1;
				*v = x;
				return true;
			}
		}
		b = q[9];
		if (b > 1)
			return false;
		*p = q + 10;
		*v = x + ((b - 1) << 63);
		return true;
	}
	x = 0;
	for (i = 0; q + i < end && i < 10; i++) {
		b = q[i];
		if (i == 9 && b > 1)
			return false;
		x |= (b & 0x7F) << (7 * i);
		if (b < 0x80) {
			*p = q + i + 1;
			*v = x;
			return true;
		}
	}
	return false;
}

/*
 * Sample bytes [p, end) in one pass: its fields but the callchain, whose
 * entries are left as the bytes [*cc, *cc_end) (between them only the
 * Sample's own varint fields).  False for anything else (a field of
 * another number or wire type, a cut varint or length): the slow way
 * reads it, and says what is wrong.
 */
static bool
scan_sample(const unsigned char *p, const unsigned char *end,
            struct sp_sample *smp, const unsigned char **cc,
            const unsigned char **cc_end)
{
	uint64_t v;

	*cc = *cc_end = NULL;
	while (p < end) {
		const unsigned char *at = p;
		unsigned char key = *p++;

		if (!fast_varint(&p, end, &v))
			return false;
		switch (key) {
		case 0x08: /* 1 time */
			smp->time = v;
			break;
		case 0x10: /* 2 thread_id */
			smp->tid = (uint32_t)v;
			break;
		case 0x1A: /* 3 callchain, length-delimited */
			if (v > (uint64_t)(end - p))
				return false;
			if (!*cc)
				*cc = at;
			p += v;
			*cc_end = p;
			break;
		case 0x20: /* 4 event_count */
			smp->count = v > VALUE_MAX ? VALUE_MAX : v;
			break;
		case 0x28: /* 5 event_type_id */
			smp->type = (uint32_t)v;
			break;
		default:
			return false;
		}
	}
	return true;
}

/* A hash of callchain bytes [p, + len) by their length, their first 24
 * bytes (the leaf's entry, where callchains differ most) and their last
 * 8: what tells callchains apart nearly always, without reading them
 * all; the cache compares them all. */
static inline uint32_t
callchain_hash(const unsigned char *p, size_t len)
{
	uint64_t w[4], h;

	if (len < 32)
		return (uint32_t)hash_block(p, len);
	memcpy(w, p, 24);
	memcpy(&w[3], p + len - 8, 8);
	h = (w[0] * UINT64_C(0x9E3779B97F4A7C15)) ^
	    (w[1] * UINT64_C(0xC2B2AE3D27D4EB4F)) ^
	    (w[2] * UINT64_C(0x165667B19E3779F9)) ^
	    (w[3] * UINT64_C(0x27D4EB2F165667C5)) ^ len;
	return (uint32_t)(h ^ h >> 32);
}

/* The stack of the callchain bytes [p, p + len): the one in the cache
 * when it holds the same bytes, else a new one (unread) in its place. */
static struct sp_stack *
stack_for(struct simpleperf *sp, const unsigned char *p, size_t len)
{
	uint32_t hash = callchain_hash(p, len);
	struct sp_stack *st = &sp->stacks[hash & (STACK_CACHE - 1)];

	if (st->read && st->hash == hash && st->len == len &&
	    (!len || memcmp(st->raw, p, len) == 0))
		return st;
	memset(st, 0, sizeof(*st));
	st->raw = p;
	st->len = (uint32_t)len; /* within a record */
	st->hash = hash;
	return st;
}

/* Sample bytes [p, + len), kept for after the walk. */
static void
add_sample(struct simpleperf *sp, const unsigned char *p, size_t len)
{
	UTIL_GROW(sp->samples, sp->samples_cap, sp->nsamples + 1);
	sp->sample_bytes += len;
	sp->samples[sp->nsamples].data = p;
	sp->samples[sp->nsamples].len = (uint32_t)len; /* within a record */
	sp->nsamples++;
}

/* One Record. */
static bool
read_record(struct simpleperf *sp, const unsigned char *p, size_t n,
            uint64_t offset)
{
	struct pb_reader r;
	struct pb_field f;

	/* A Sample, as nearly every record is: its bytes kept as they are. */
	if (n && p[0] == 0x0A) {
		const unsigned char *q = p + 1;
		uint64_t size;

		if (fast_varint(&q, p + n, &size) &&
		    size == (uint64_t)(p + n - q)) {
			add_sample(sp, q, (size_t)size);
			return true;
		}
	}
	pb_reader_init(&r, p, n, offset);
	while (pb_next(&r, &f, sp->err)) {
		if (f.number < 1 || f.number > 6)
			continue;
		if (!wire_is(sp, &f, PB_BYTES, "Record"))
			return false;
		switch (f.number) {
		case 1:
			add_sample(sp, f.data, f.len);
			break;
		case 2:
			if (!read_lost(sp, &f))
				return false;
			break;
		case 3:
			if (!read_file(sp, &f))
				return false;
			break;
		case 4:
			if (!read_thread(sp, &f))
				return false;
			break;
		case 5:
			if (!read_meta(sp, &f))
				return false;
			break;
		case 6:
			sp->context_switches++;
			break;
		}
	}
	return !trace_error_isset(sp->err);
}

/*
 * Bytes of buf up to PREFETCH past at asked for ahead of their reading,
 * from `ahead` (where the last call stopped) on: the walks read each
 * record where the one before ends, a load waiting on a load, so the
 * memory's latency is paid once per record unless the lines are on
 * their way already.  Returns where it stopped.
 */
static inline size_t
prefetch_ahead(const unsigned char *buf, size_t len, size_t at, size_t ahead)
{
	size_t to = len - at > PREFETCH ? at + PREFETCH : len;

	for (; ahead < to; ahead += 64)
		__builtin_prefetch(buf + ahead);
	return ahead;
}

/*
 * Walk the records.  A cut or damaged record stops the walk with a
 * warning (sp->stopped); false only when nothing can be read at all.
 */
static void
walk(struct simpleperf *sp, const unsigned char *buf, size_t len)
{
	size_t at = HEADER, ahead = HEADER;

	for (;;) {
		uint32_t size;

		ahead = prefetch_ahead(buf, len, at, ahead);
		if (len - at < 4) {
			trace_warn(
			        sp->sink, at,
			        "simpleperf: the records stop at offset %zu: "
			        "expected a record size (4 bytes) or the "
			        "end mark, found %s",
			        at,
			        len == at ? "the end of the file"
			                  : "fewer than 4 bytes");
			sp->stopped = at;
			return;
		}
		size = trace_u4(buf + at);
		if (!size) {
			sp->ended = true;
			if (len - at > 4)
				trace_warn(sp->sink, at + 4,
				           "simpleperf: %zu bytes after the "
				           "end mark ignored",
				           len - at - 4);
			return;
		}
		if (size > len - at - 4) {
			trace_warn(
			        sp->sink, at,
			        "simpleperf: the records stop at offset %zu: "
			        "a record of %" PRIu32 " bytes, but only "
			        "%zu remain",
			        at, size, len - at - 4);
			sp->stopped = at;
			return;
		}
		if (!read_record(sp, buf + at + 4, size, at + 4)) {
			trace_warn(
			        sp->sink, sp->err->offset,
			        "simpleperf: the records stop at offset %zu, "
			        "a damaged record: %s",
			        at, sp->err->message);
			trace_error_clear(sp->err);
			sp->stopped = at;
			return;
		}
		at += 4 + (size_t)size;
		if (sp->sink->progress && (sp->nsamples & 0xFFFF) == 0)
			sp->sink->progress(sp->sink->ctx, at, len);
	}
}

/* The index of the method named name, made on first sight. */
static uint32_t
intern_method(struct simpleperf *sp, const char *name, size_t len,
              enum sp_kind kind)
{
	uint32_t *head, i;
	struct sp_method *m;

	/* A NUL inside is kept as C0 80: the name as every door shows it,
	 * "foo\0one" and "foo\0two" two methods. */
	if (memchr(name, 0, len)) {
		char *kept = trace_name_dup(name, len);

		i = intern_method(sp, kept, strlen(kept), kind);
		free(kept);
		return i;
	}
	head = util_map_slot(&sp->method_hash, hash_bytes(HASH_SEED, name, len),
	                     NONE);
	for (i = *head; i != NONE; i = sp->methods[i].next) {
		m = &sp->methods[i];
		if (m->len == len && memcmp(m->name, name, len) == 0) {
			/* A method seen in Java code is Java. */
			if (kind == KIND_JAVA && m->kind != KIND_JAVA) {
				m->kind = KIND_JAVA;
				sp->kind_epoch++;
			}
			return i;
		}
	}
	UTIL_GROW(sp->methods, sp->methods_cap, sp->nmethods + 1);
	m = &sp->methods[sp->nmethods];
	m->name = util_arena_strndup(&sp->arena, name, len);
	m->len = len;
	m->kind = kind;
	m->next = *head;
	*head = (uint32_t)sp->nmethods;
	return (uint32_t)sp->nmethods++;
}

/* CallChainEntry bytes [p, end) of varint fields only, read fast;
 * false to read them the slow way. */
static inline bool
fast_entry(const unsigned char *p, const unsigned char *end, uint64_t *vaddr,
           uint32_t *file_id, int32_t *symbol, int *exec)
{
	while (p < end) {
		uint64_t key, v;

		if (!fast_varint(&p, end, &key) || (key & 7) != 0 ||
		    !fast_varint(&p, end, &v))
			return false;
		switch (key >> 3) {
		case 1:
			*vaddr = v;
			break;
		case 2:
			*file_id = (uint32_t)v;
			break;
		case 3:
			*symbol = (int32_t)(uint32_t)v;
			break;
		case 4:
			*exec = (int)(v & 0xFF);
			break;
		}
	}
	return true;
}

/* Method m is Java from now on (a method seen in Java code is Java). */
static void
make_java(struct simpleperf *sp, uint32_t m)
{
	if (sp->methods[m].kind != KIND_JAVA) {
		sp->methods[m].kind = KIND_JAVA;
		sp->kind_epoch++;
	}
}

/* The method of one CallChainEntry. */
static uint32_t
entry_method(struct simpleperf *sp, const struct pb_field *outer,
             enum sp_kind *kind)
{
	struct pb_reader r;
	struct pb_field f;
	uint64_t vaddr = 0;
	uint32_t file_id = 0, fi, m;
	int32_t symbol = -1;
	int exec = -1;
	struct sp_file *file = NULL;
	char name[256];

	if (!fast_entry(outer->data, outer->data + outer->len, &vaddr, &file_id,
	                &symbol, &exec)) {
		vaddr = 0, file_id = 0, symbol = -1, exec = -1;
		pb_reader_sub(&r, outer);
		while (pb_next(&r, &f, sp->err)) {
			if (f.number < 1 || f.number > 4)
				continue;
			if (!wire_is(sp, &f, PB_VARINT, "CallChainEntry"))
				return NONE;
			switch (f.number) {
			case 1:
				vaddr = f.value;
				break;
			case 2:
				file_id = (uint32_t)f.value;
				break;
			case 3:
				symbol = (int32_t)(uint32_t)f.value;
				break;
			case 4:
				exec = (int)(f.value & 0xFF);
				break;
			}
		}
	}
	if (trace_error_isset(sp->err))
		return NONE;
	if (file_id < sp->nfile_index)
		fi = sp->file_index[file_id];
	else if (sp->nfile_index || !util_map_get(&sp->file_ids, file_id, &fi))
		fi = NONE;
	if (fi != NONE)
		file = &sp->files[fi];
	else if (!sp->unknown_files++ && !sp->unknown_offset)
		sp->unknown_offset = outer->offset;
	*kind = file ? file->kind : KIND_NATIVE;
	/* interpreted or JIT-compiled Java */
	if (exec == 1 || exec == 2)
		*kind = KIND_JAVA;
	if (file && symbol >= 0 && (size_t)symbol < file->nsymbols) {
		const struct sp_slice *s = &file->symbols[symbol];

		if (file->methods[symbol] != NONE) {
			m = file->methods[symbol];
			if (*kind == KIND_JAVA)
				make_java(sp, m);
			return m;
		}
		m = intern_method(sp, (const char *)s->data, s->len, *kind);
		file->methods[symbol] = m;
		return m;
	}
	if (file && symbol >= 0 && !sp->unknown_symbols++)
		trace_warn(sp->sink, outer->offset,
		           "simpleperf: symbol %" PRId32 " of file %" PRIu32
		           " (%zu symbols) does not exist; named by its "
		           "address",
		           symbol, file_id, file->nsymbols);
	if (file)
		snprintf(name, sizeof(name), "%.*s+0x%" PRIx64,
		         (int)(sizeof(name) - 24), file->base, vaddr);
	else
		snprintf(name, sizeof(name), "file%" PRIu32 "+0x%" PRIx64,
		         file_id, vaddr);
	m = intern_method(sp, name, strlen(name), *kind);
	/* The name is the file's and the address's: known_entry finds it
	 * again by them. */
	if (file && symbol < 0)
		util_map_put(&file->by_address, vaddr, m);
	return m;
}

/*
 * The method of the CallChainEntry bytes [p, + len) where it is known
 * already, found by arrays (a file by its id, a symbol by its index) or
 * for an unknown symbol by its address: what entry_method would give,
 * with the same effect on the method's kind.  NONE for anything else
 * (the entry's first sight, or an unusual one): entry_method reads it.
 */
static inline uint32_t
known_entry(struct simpleperf *sp, const unsigned char *p, size_t len,
            bool *java)
{
	uint64_t vaddr = 0;
	uint32_t file_id = 0, fi, m;
	int32_t symbol = -1;
	int exec = -1;
	const struct sp_file *file;

	if (!fast_entry(p, p + len, &vaddr, &file_id, &symbol, &exec) ||
	    file_id >= sp->nfile_index)
		return NONE;
	fi = sp->file_index[file_id];
	if (fi == NONE)
		return NONE;
	file = &sp->files[fi];
	if (symbol >= 0) {
		if ((size_t)symbol >= file->nsymbols)
			return NONE;
		m = file->methods[symbol];
	} else if (!util_map_get(&file->by_address, vaddr, &m)) {
		return NONE;
	}
	*java = exec == 1 || exec == 2 || file->kind == KIND_JAVA;
	if (m != NONE && *java)
		make_java(sp, m);
	return m;
}

/* Masks of a word's first 0 to 8 bytes. */
static const uint64_t byte_mask[9] = {
        0,          0xFF,         0xFFFF,         0xFFFFFF,
        0xFFFFFFFF, 0xFFFFFFFFFF, 0xFFFFFFFFFFFF, 0xFFFFFFFFFFFFFF,
        UINT64_MAX,
};

/*
 * The method of the CallChainEntry bytes [p, + len): recalled by its
 * bytes when they were met before (entries repeat: a caller's frame is
 * the same return address in every sample under it), else found by
 * known_entry (and then recalled) or read by entry_method at (field
 * offset) `at`.  NONE when the entry is damaged, with the error set.
 */
static inline uint32_t
method_of_entry(struct simpleperf *sp, const unsigned char *p, size_t len,
                const unsigned char *at)
{
	struct sp_entry *e = NULL;
	uint64_t w[3];
	struct pb_field f;
	enum sp_kind kind;
	bool java = false;
	uint32_t m;

	/* Whole words read from the mapping while they lie inside it. */
	if (len && len <= ENTRY_KEY &&
	    (size_t)(sp->buf + sp->len - p) >= ENTRY_KEY) {
		size_t n0 = len < 8 ? len : 8;
		size_t n1 = len < 8 ? 0 : len < 16 ? len - 8 : 8;
		size_t n2 = len < 16 ? 0 : len - 16;
		uint64_t h;

		memcpy(w, p, sizeof(w));
		w[0] &= byte_mask[n0];
		w[1] &= byte_mask[n1];
		w[2] &= byte_mask[n2];
		h = (w[0] * UINT64_C(0x9E3779B97F4A7C15)) ^
		    (w[1] * UINT64_C(0xC2B2AE3D27D4EB4F)) ^
		    (w[2] * UINT64_C(0x165667B19E3779F9)) ^ len;
		e = &sp->entries[(h ^ h >> 29) & (ENTRY_CACHE - 1)];
		if (e->len == len && e->key[0] == w[0] && e->key[1] == w[1] &&
		    e->key[2] == w[2]) {
			if (e->java)
				make_java(sp, e->method);
			return e->method;
		}
	}
	m = known_entry(sp, p, len, &java);
	if (m != NONE) {
		if (e) {
			memcpy(e->key, w, sizeof(w));
			e->len = (uint8_t)len;
			e->method = m;
			e->java = java;
		}
		return m;
	}
	memset(&f, 0, sizeof(f));
	f.number = 3;
	f.wire = PB_BYTES;
	f.data = p;
	f.len = len;
	f.data_offset = (uint64_t)(p - sp->buf);
	f.offset = (uint64_t)(at - sp->buf);
	return entry_method(sp, &f, &kind);
}

/* Room for n frames, on huge pages where the system has them: the
 * frames are written once each, and a page fault per 4 KB of them
 * cost more than their reading. */
static __attribute__((noinline)) void
grow_frames(struct simpleperf *sp, size_t n)
{
	size_t cap = sp->frames_cap ? sp->frames_cap : 1024;
	uint32_t *to;

	while (cap < n) {
		if (cap > SIZE_MAX / 2 / sizeof(*to))
			cap = SIZE_MAX / sizeof(*to); /* xmalloc_large fails */
		else
			cap *= 2;
	}
	to = xmalloc_large(cap, sizeof(*to));
	if (sp->nframes)
		memcpy(to, sp->frames, sp->nframes * sizeof(*to));
	free(sp->frames);
	sp->frames = to;
	sp->frames_cap = cap;
}

/* One frame more on the frames of the samples. */
static inline void
push_frame(struct simpleperf *sp, uint32_t m)
{
	if (__builtin_expect(sp->nframes == sp->frames_cap, 0))
		grow_frames(sp, sp->nframes + 1);
	sp->frames[sp->nframes++] = m;
}

/* Frames [first, nframes) turned around: leaf first as read, root first
 * as the samples take them. */
static void
turn_frames(struct simpleperf *sp, size_t first)
{
	size_t j, n = sp->nframes - first;

	for (j = 0; j < n / 2; j++) {
		uint32_t x = sp->frames[first + j];

		sp->frames[first + j] = sp->frames[sp->nframes - 1 - j];
		sp->frames[sp->nframes - 1 - j] = x;
	}
}

/* The frame of a sample left without one: "(no Java frame)" with
 * --java-only, else "(no stack)". */
static uint32_t
empty_stack(struct simpleperf *sp)
{
	if (!sp->sink->java_only)
		return intern_method(sp, "(no stack)", 10, KIND_NATIVE);
	if (sp->no_java == NONE)
		sp->no_java =
		        intern_method(sp, "(no Java frame)", 15, KIND_JAVA);
	return sp->no_java;
}

/* Sample i's fields but the callchain, read field by field (what the
 * one-pass scan leaves): every field checked, as the scan cannot. */
static bool
slow_fields(struct simpleperf *sp, const struct sp_slice *s,
            struct sp_sample *smp)
{
	struct pb_reader r;
	struct pb_field f;

	pb_reader_init(&r, s->data, s->len, s->offset);
	while (pb_next(&r, &f, sp->err)) {
		if (f.number < 1 || f.number > 5 || f.number == 3)
			continue;
		if (!wire_is(sp, &f, PB_VARINT, "Sample"))
			return false;
		switch (f.number) {
		case 1:
			smp->time = f.value;
			break;
		case 2:
			smp->tid = (uint32_t)f.value;
			break;
		case 4:
			smp->count = f.value > VALUE_MAX ? VALUE_MAX : f.value;
			break;
		case 5:
			smp->type = (uint32_t)f.value;
			break;
		}
	}
	return !trace_error_isset(sp->err);
}

/* Sample s's frames read entry by entry onto sp->frames, as smp->first,
 * n: for the samples slow_fields read. */
static bool
slow_frames(struct simpleperf *sp, const struct sp_slice *s,
            struct sp_sample *smp)
{
	struct pb_reader r;
	struct pb_field f;
	size_t first = sp->nframes;

	pb_reader_init(&r, s->data, s->len, s->offset);
	while (pb_next(&r, &f, sp->err)) {
		enum sp_kind kind;
		uint32_t m;

		if (f.number != 3)
			continue;
		if (!wire_is(sp, &f, PB_BYTES, "Sample"))
			return false;
		m = entry_method(sp, &f, &kind);
		if (m == NONE)
			return false;
		if (sp->sink->java_only && sp->methods[m].kind != KIND_JAVA)
			continue;
		push_frame(sp, m);
	}
	if (trace_error_isset(sp->err))
		return false;
	if (sp->nframes == first)
		push_frame(sp, empty_stack(sp));
	turn_frames(sp, first);
	smp->first = (uint32_t)first;
	smp->n = (uint32_t)(sp->nframes - first);
	return true;
}

/* With --java-only: the stack's Java frames as the methods' kinds now
 * say, after its every frame. */
static void
java_frames(struct simpleperf *sp, struct sp_stack *st)
{
	size_t j;

	st->first = (uint32_t)sp->nframes;
	for (j = 0; j < st->nall; j++) {
		uint32_t m = sp->frames[st->all + j];

		if (sp->methods[m].kind == KIND_JAVA)
			push_frame(sp, m);
	}
	if (sp->nframes == st->first)
		push_frame(sp, empty_stack(sp));
	st->n = (uint32_t)(sp->nframes - st->first);
	st->epoch = sp->kind_epoch;
}

/*
 * The stack's frames, read from its bytes the first time a sample takes
 * it, in the samples' order: what reading each sample's entries would
 * give (the same methods made in the same order, the same warnings).
 * With --java-only, whether a frame is Java is what its method's kind
 * said when it was read, so the Java frames are chosen again when a kind
 * changed since (kind_epoch).
 */
static bool
read_stack(struct simpleperf *sp, struct sp_stack *st)
{
	const unsigned char *p = st->raw, *end = p + st->len;
	uint64_t unknown = sp->unknown_files;
	uint32_t epoch = sp->kind_epoch;
	size_t first = sp->nframes, java = 0, j;

	if (sp->nframes > 2 * (size_t)MAX_FRAMES) {
		trace_error_set(sp->err, (uint64_t)(st->raw - sp->buf),
		                "simpleperf: the samples' stacks hold more "
		                "than %d frames",
		                2 * MAX_FRAMES);
		return false;
	}
	if (st->read) {
		sp->unknown_files += st->unknown;
		if (sp->sink->java_only && st->epoch != sp->kind_epoch)
			java_frames(sp, st);
		return true;
	}
	/* The scan saw these bytes whole: entries (field 3) and the
	 * Sample's varint fields between them. */
	while (p < end) {
		const unsigned char *at = p;
		unsigned char key = *p++;
		uint64_t v;
		uint32_t m;

		if (!fast_varint(&p, end, &v))
			break;
		if (key != 0x1A)
			continue;
		m = method_of_entry(sp, p, (size_t)v, at);
		if (m == NONE)
			return false;
		p += v;
		if (sp->sink->java_only && sp->methods[m].kind == KIND_JAVA) {
			UTIL_GROW(sp->java, sp->java_cap, java + 1);
			sp->java[java++] = m;
		}
		push_frame(sp, m);
	}
	turn_frames(sp, first);
	st->all = (uint32_t)first;
	st->nall = (uint32_t)(sp->nframes - first);
	st->unknown = (uint32_t)(sp->unknown_files - unknown);
	st->read = true;
	if (!sp->sink->java_only) {
		if (!st->nall)
			push_frame(sp, empty_stack(sp));
		st->first = (uint32_t)first;
		st->n = (uint32_t)(sp->nframes - first);
		return true;
	}
	st->first = (uint32_t)sp->nframes;
	for (j = java; j > 0; j--)
		push_frame(sp, sp->java[j - 1]);
	if (!java)
		push_frame(sp, empty_stack(sp));
	st->n = (uint32_t)(sp->nframes - st->first);
	/* Kinds changed while it was read: choose again next time. */
	st->epoch = epoch;
	return true;
}

/* One more sample of event type `type` on thread t. */
static void
count_sample(struct simpleperf *sp, struct sp_thread *t, uint32_t type)
{
	uint32_t *slot;

	t->all++;
	if (t->first_type == NONE)
		t->first_type = type;
	if (t->first_type == type) {
		t->first_count++;
		return;
	}
	slot = util_map_slot(&sp->count_ids, (uint64_t)t->tid << 32 | type,
	                     (uint32_t)sp->ncounts);
	if (*slot == sp->ncounts) {
		UTIL_GROW(sp->counts, sp->counts_cap, sp->ncounts + 1);
		sp->counts[sp->ncounts++] = (struct sp_count){t->tid, type, 0};
	}
	sp->counts[*slot].n++;
}

/*
 * Sample i: counted for its thread, and kept when of type `want`
 * (SIZE_MAX: every type): as the walk's scan read it, its callchain a
 * stack shared by every sample with the same bytes, or else field by
 * field.
 */
static bool
read_sample(struct simpleperf *sp, size_t i, size_t want)
{
	const struct sp_record *rec = &sp->samples[i];
	uint64_t offset = (uint64_t)(rec->data - sp->buf);
	struct sp_slice slice = {rec->data, rec->len, offset};
	struct sp_sample smp = {0};
	const unsigned char *cc, *cc_end;
	struct sp_thread *t;
	bool fast = scan_sample(rec->data, rec->data + rec->len, &smp, &cc,
	                        &cc_end);

	if (!fast) {
		memset(&smp, 0, sizeof(smp));
		if (!slow_fields(sp, &slice, &smp))
			return false;
	}
	if (smp.type >= sp->ntypes) {
		trace_error_set(sp->err, offset,
		                "simpleperf: a sample of event type %" PRIu32
		                ", but the recording has %zu",
		                smp.type, sp->ntypes);
		return false;
	}
	if (sp->nthreads && sp->threads[sp->last_thread].tid == smp.tid) {
		t = &sp->threads[sp->last_thread];
	} else {
		t = thread_of(sp, smp.tid);
		sp->last_thread = (size_t)(t - sp->threads);
	}
	count_sample(sp, t, smp.type);
	if (smp.time < sp->first_time)
		sp->first_time = smp.time;
	if (want != SIZE_MAX && want != smp.type)
		return true;
	if (smp.time > TIME_MAX) {
		if (!sp->late_times++) {
			sp->late_offset = offset;
			trace_warn(sp->sink, offset,
			           "simpleperf: a sample at %" PRIu64 " ns is "
			           "past the clock's range; taken at %" PRIu64
			           " ns, where its span still fits",
			           smp.time, TIME_MAX);
		}
		smp.time = TIME_MAX;
	}
	if (fast) {
		/* No entries: an empty stack, at the sample's bytes. */
		struct sp_stack *st =
		        cc ? stack_for(sp, cc, (size_t)(cc_end - cc))
		           : stack_for(sp, rec->data, 0);

		if (!read_stack(sp, st))
			return false;
		smp.first = st->first;
		smp.n = st->n;
	} else if (!slow_frames(sp, &slice, &smp)) {
		return false;
	}
	if (smp.n > MAX_FRAMES - sp->total_frames) {
		trace_error_set(sp->err, offset,
		                "simpleperf: the samples' stacks hold more "
		                "than %d frames",
		                MAX_FRAMES);
		return false;
	}
	sp->total_frames += smp.n;
	smp.thread = (uint32_t)(t - sp->threads);
	UTIL_GROW(sp->chosen, sp->chosen_cap, sp->nchosen + 1);
	sp->chosen[sp->nchosen++] = smp;
	return true;
}

/* The event types' names joined by ", ", in one pass. */
static char *
joined_types(const struct simpleperf *sp)
{
	size_t len = 1, i;
	char *out, *at;

	for (i = 0; i < sp->ntypes; i++)
		len += strlen(sp->types[i]) + 2;
	out = at = xmalloc(len);
	*at = '\0';
	for (i = 0; i < sp->ntypes; i++)
		at += sprintf(at, "%s%s", i ? ", " : "", sp->types[i]);
	return out;
}

/* The event type `want` (name, index, "all"): its index, SIZE_MAX for
 * all, or -1 (as SIZE_MAX - 1) with the error set. */
static size_t
choose_type(struct simpleperf *sp, const char *want)
{
	char *list, *end;
	size_t i;
	unsigned long n;

	if (!sp->ntypes) {
		trace_error_set(sp->err, HEADER,
		                "simpleperf: the recording names no event type "
		                "(expected a MetaInfo record with event_type)");
		return SIZE_MAX - 1;
	}
	if (!want)
		return 0;
	if (strcmp(want, "all") == 0)
		return SIZE_MAX;
	for (i = 0; i < sp->ntypes; i++)
		if (strcmp(sp->types[i], want) == 0)
			return i;
	n = strtoul(want, &end, 10);
	if (*want >= '0' && *want <= '9' && !*end && n < sp->ntypes)
		return n;
	/* The index after the last: all (as the viewer's y counts). */
	if (*want >= '0' && *want <= '9' && !*end && n == sp->ntypes &&
	    sp->ntypes > 1)
		return SIZE_MAX;
	list = joined_types(sp);
	if (!trace_error_isset(sp->err))
		sp->err->usage = true; /* the option's fault, not the file's */
	trace_error_set(sp->err, HEADER,
	                "simpleperf: no event type '%s'; the recording has "
	                "%s, all (or an index from 0 to %zu)",
	                want, list, sp->ntypes - 1);
	free(list);
	return SIZE_MAX - 1;
}

/* Whether event type k counts nanoseconds. */
static bool
type_is_time(const struct simpleperf *sp, size_t k)
{
	return k < sp->ntypes && (strcmp(sp->types[k], "cpu-clock") == 0 ||
	                          strcmp(sp->types[k], "task-clock") == 0);
}

/* type_is_time of every type, once: sp->time_types. */
static void
note_time_types(struct simpleperf *sp)
{
	size_t k;

	sp->time_types = xcalloc(sp->ntypes + 1, sizeof(*sp->time_types));
	for (k = 0; k < sp->ntypes; k++)
		sp->time_types[k] = type_is_time(sp, k);
}

static int
thread_rank_cmp(const void *pa, const void *pb)
{
	const uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

/* Samples a[0, n) in time order, those of equal times in the order they
 * came, through tmp (room for n). */
static void
sort_by_time(struct sp_sample *a, struct sp_sample *tmp, size_t n)
{
	struct sp_sample *src = a, *dst = tmp, *x;
	size_t w, i;

	for (w = 1; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			size_t mid = n - i > w ? i + w : n;
			size_t hi = n - mid > w ? mid + w : n;
			size_t l = i, r = mid, o = i;

			while (l < mid && r < hi)
				dst[o++] = src[r].time < src[l].time ? src[r++]
				                                     : src[l++];
			while (l < mid)
				dst[o++] = src[l++];
			while (r < hi)
				dst[o++] = src[r++];
		}
		x = src;
		src = dst;
		dst = x;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
}

/*
 * The kept samples by thread id, then time, then the order they came:
 * counted out by thread (the threads' ids are distinct), then each
 * thread's sorted by time where they are not in order already (nearly
 * always they are).
 */
static void
sort_samples(struct simpleperf *sp)
{
	size_t n = sp->nchosen, nt = sp->nthreads, i, at = 0;
	uint64_t *rank = xcalloc(nt + 1, sizeof(*rank));
	size_t *start = xcalloc(nt + 1, sizeof(*start));
	struct sp_sample *out;

	if (n < 2) {
		free(rank);
		free(start);
		return;
	}
	/* Thread indexes in tid order: rank[i] holds (tid, index). */
	for (i = 0; i < nt; i++)
		rank[i] = (uint64_t)sp->threads[i].tid << 32 | i;
	sort_items(rank, nt, sizeof(*rank), thread_rank_cmp);
	for (i = 0; i < n; i++)
		start[sp->chosen[i].thread]++;
	for (i = 0; i < nt; i++) {
		uint32_t t = (uint32_t)rank[i];
		size_t c = start[t];

		start[t] = at;
		at += c;
	}
	out = xmalloc(n * sizeof(*out));
	for (i = 0; i < n; i++)
		out[start[sp->chosen[i].thread]++] = sp->chosen[i];
	/* start[t] is now where thread t's samples end. */
	for (i = 0, at = 0; i < nt; i++) {
		size_t end = start[(uint32_t)rank[i]], j;

		for (j = at + 1; j < end && out[j - 1].time <= out[j].time; j++)
			;
		if (j < end)
			sort_by_time(out + at, sp->chosen, end - at);
		at = end;
	}
	free(sp->chosen);
	sp->chosen = out;
	sp->chosen_cap = n;
	free(rank);
	free(start);
}

static int
u64_cmp(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

/* The value that would be v[k] were v[0, n) sorted (k < n); v is
 * reordered.  Partitions in three around the median of three (Hoare's
 * selection), and sorts what is left when that takes too many rounds (a
 * hostile order): O(n) as a rule, O(n log n) at worst. */
static uint64_t
nth_value(uint64_t *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n, rounds = 0, limit = 8, m;

	for (m = n; m > 1; m /= 2)
		limit += 2;
	while (hi - lo > 1) {
		uint64_t a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi - 1];
		uint64_t pivot, x;
		size_t lt = lo, i = lo, gt = hi;

		if (++rounds > limit) {
			sort_items(v + lo, hi - lo, sizeof(*v), u64_cmp);
			break;
		}
		pivot = a < b ? (b < c   ? b
		                 : a < c ? c
		                         : a)
		              : (a < c   ? a
		                 : b < c ? c
		                         : b);
		/* v[lo, lt) < pivot, v[lt, i) == pivot, v[gt, hi) > pivot */
		while (i < gt) {
			x = v[i];
			if (x < pivot) {
				v[i++] = v[lt];
				v[lt++] = x;
			} else if (x > pivot) {
				v[i] = v[--gt];
				v[gt] = x;
			} else {
				i++;
			}
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return pivot;
	}
	return v[k];
}

/* The sampling period in ns: the median event count of the time-typed
 * samples, else the median step between a thread's samples; 0 if
 * neither exists.  The samples are sorted by thread and time. */
static uint64_t
period_of(const struct simpleperf *sp)
{
	uint64_t *v = xcalloc(sp->nchosen + 1, sizeof(*v)), p = 0;
	size_t n = 0, i;

	for (i = 0; i < sp->nchosen; i++)
		if (sp->time_types[sp->chosen[i].type] && sp->chosen[i].count)
			v[n++] = sp->chosen[i].count;
	if (!n)
		for (i = 1; i < sp->nchosen; i++)
			if (sp->chosen[i].tid == sp->chosen[i - 1].tid &&
			    sp->chosen[i].time > sp->chosen[i - 1].time)
				v[n++] = sp->chosen[i].time -
				         sp->chosen[i - 1].time;
	if (n)
		p = nth_value(v, n, n / 2);
	free(v);
	/* As no single weight: a step of centuries is no period. */
	return p > VALUE_MAX ? VALUE_MAX : p;
}

static void
event(const struct trace_sink *s, uint32_t tid, uint32_t m,
      enum trace_action action, uint64_t cpu, uint64_t wall_ns)
{
	/* Times are kept in nanoseconds and handed on in microseconds, the
	 * model's unit: each is rounded down once, so durations never drift
	 * from the sums of the event counts by a microsecond or more. */
	s->event(s->ctx, tid, ((uint64_t)m + 1) << 2, action, cpu,
	         wall_ns / 1000);
}

/* Per thread, the samples in time order as calls on both clocks. */
static void
emit_events(struct simpleperf *sp, uint64_t period, uint64_t weight)
{
	const struct trace_sink *s = sp->sink;
	/* Every event type's times are from the recording's first
	 * sample: models of two types (frames, model/frame-spans.h) share
	 * their times. */
	uint64_t t0 = sp->first_time, cpu = 0, end = 0;
	uint32_t *open = NULL, tid = 0;
	size_t cap = 0, depth = 0, i, released = 0;

	for (i = 0; i < sp->nchosen; i++) {
		const struct sp_sample *x = &sp->chosen[i];
		const uint32_t *fr = sp->frames + x->first;
		uint64_t at = x->time - t0, span;
		size_t common = 0;

		if (i && x->tid != tid) {
			while (depth) {
				depth--;
				event(s, tid, open[depth], TRACE_EXIT, cpu,
				      end);
			}
			cpu = 0;
			end = 0;
		}
		tid = x->tid;
		if (depth && at > end + period / 2) {
			/* The thread was not sampled meanwhile. */
			while (depth) {
				depth--;
				event(s, tid, open[depth], TRACE_EXIT, cpu,
				      end);
			}
		}
		if (depth || at < end)
			at = end;
		while (common < depth && common < x->n &&
		       open[common] == fr[common])
			common++;
		while (depth > common) {
			depth--;
			event(s, tid, open[depth], TRACE_EXIT, cpu, at);
		}
		UTIL_GROW(open, cap, x->n);
		for (; depth < x->n; depth++) {
			open[depth] = fr[depth];
			event(s, tid, open[depth], TRACE_ENTER, cpu, at);
		}
		if (sp->time_types[x->type]) {
			span = x->count;
		} else {
			span = period ? period : 1;
			if (i + 1 < sp->nchosen &&
			    sp->chosen[i + 1].tid == x->tid &&
			    sp->chosen[i + 1].time - x->time < span)
				span = sp->chosen[i + 1].time - x->time;
		}
		cpu += weight;
		end = at > UINT64_MAX - span ? UINT64_MAX : at + span;
		/* The samples behind are read no more: their pages go back
		 * while the model grows (a million one-sample threads hold
		 * 40 MB of them). */
		if ((i - released) * sizeof(*x) >= RELEASE_STEP) {
			util_release_pages(sp->chosen + released,
			                   sp->chosen + i);
			released = i;
		}
	}
	while (depth) {
		depth--;
		event(s, tid, open[depth], TRACE_EXIT, cpu, end);
	}
	free(open);
}

static void
property(struct simpleperf *sp, const char *key, const char *value)
{
	if (sp->sink->property)
		sp->sink->property(sp->sink->ctx, key, value);
}

static void propertyf(struct simpleperf *sp, const char *key, const char *fmt,
                      ...) __attribute__((format(printf, 3, 4)));

static void
propertyf(struct simpleperf *sp, const char *key, const char *fmt, ...)
{
	va_list ap;
	char *v;

	va_start(ap, fmt);
	v = xvasprintf(fmt, ap);
	va_end(ap);
	property(sp, key, v);
	free(v);
}

static int
thread_cmp(const void *pa, const void *pb)
{
	const struct sp_thread *a = pa, *b = pb;

	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

static int
count_cmp(const void *pa, const void *pb)
{
	const struct sp_count *a = pa, *b = pb;

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return a->type < b->type ? -1 : a->type > b->type;
}

/*
 * Each thread's property, "tid\tpid\tall\tcounts\tname": counts are its
 * samples of each event type that has some, "type:n" in type order
 * joined by spaces, and the name comes last, so a tab in it moves no
 * field.  Threads and their other types' counts are both in tid order,
 * so each text is written once, as long as what it holds.
 */
static void
thread_properties(struct simpleperf *sp)
{
	const struct trace_sink *s = sp->sink;
	size_t i, c = 0;
	char *per = NULL;
	size_t per_cap = 0;

	sort_items(sp->threads, sp->nthreads, sizeof(*sp->threads), thread_cmp);
	sort_items(sp->counts, sp->ncounts, sizeof(*sp->counts), count_cmp);
	for (i = 0; i < sp->nthreads; i++) {
		const struct sp_thread *t = &sp->threads[i];
		size_t len = 0, from = c, j;
		bool first_put = t->first_type == NONE;

		while (c < sp->ncounts && sp->counts[c].tid == t->tid)
			c++;
		/* "type:n " is at most 10 + 1 + 20 + 1 bytes. */
		UTIL_GROW(per, per_cap, (c - from + 1) * 32 + 1);
		per[0] = '\0';
		for (j = from; j <= c; j++) {
			bool last = j == c;

			if (!first_put &&
			    (last || t->first_type < sp->counts[j].type)) {
				len += (size_t)sprintf(
				        per + len, "%s%" PRIu32 ":%" PRIu64,
				        len ? " " : "", t->first_type,
				        t->first_count);
				first_put = true;
			}
			if (!last)
				len += (size_t)sprintf(
				        per + len, "%s%" PRIu32 ":%" PRIu64,
				        len ? " " : "", sp->counts[j].type,
				        sp->counts[j].n);
		}
		propertyf(sp, "simpleperf-thread",
		          "%" PRIu32 "\t%" PRIu32 "\t%" PRIu64 "\t%s\t%s",
		          t->tid, t->pid, t->all, per, t->name ? t->name : "");
		if (s->thread) {
			char buf[32];

			snprintf(buf, sizeof(buf), "thread %" PRIu32, t->tid);
			s->thread(s->ctx, t->tid, t->name ? t->name : buf);
		}
	}
	free(per);
	/* Said: what is left is the samples' (a million one-sample
	 * threads would otherwise keep these beside the model). */
	free(sp->threads);
	sp->threads = NULL;
	sp->nthreads = sp->threads_cap = 0;
	util_map_done(&sp->thread_ids);
	util_map_init(&sp->thread_ids);
	free(sp->counts);
	sp->counts = NULL;
	sp->ncounts = sp->counts_cap = 0;
	util_map_done(&sp->count_ids);
	util_map_init(&sp->count_ids);
}

/* Where the class of Java method m's name ends (at its last dot), or 0
 * when the name is no qualified Java name ("com.a.B.run", "B$1.<init>":
 * dots, no blank, colon or parenthesis). */
static size_t
java_class_end(const struct sp_method *m)
{
	const char *name = m->name, *last;

	if (m->kind != KIND_JAVA || strpbrk(name, " :()"))
		return 0;
	last = strrchr(name, '.');
	return last && last > name && last[1] ? (size_t)(last - name) : 0;
}

static void
emit(struct simpleperf *sp, size_t k)
{
	const struct trace_sink *s = sp->sink;
	struct trace_header hd = {0};
	char *all = joined_types(sp);
	uint64_t period;
	size_t i;
	bool time = true;

	property(sp, "simpleperf-event-types", all);
	free(all);
	property(sp, "simpleperf-event-type",
	         k == SIZE_MAX ? "all" : sp->types[k]);
	/* "I of N", I counted from 1 as info shows it; "all of N". */
	if (k == SIZE_MAX)
		propertyf(sp, "simpleperf-event-type-index", "all of %zu",
		          sp->ntypes);
	else
		propertyf(sp, "simpleperf-event-type-index", "%zu of %zu",
		          k + 1, sp->ntypes);
	if (sp->app)
		property(sp, "simpleperf-app", sp->app);
	if (sp->app_type)
		property(sp, "simpleperf-app-type", sp->app_type);
	if (sp->sdk)
		property(sp, "simpleperf-android-sdk", sp->sdk);
	if (sp->build_type)
		property(sp, "simpleperf-build-type", sp->build_type);
	if (sp->has_meta)
		property(sp, "simpleperf-trace-offcpu",
		         sp->trace_offcpu ? "yes" : "no");
	sort_samples(sp);
	period = period_of(sp);
	if (period)
		propertyf(sp, "simpleperf-period", "%" PRIu64, period);
	propertyf(sp, "simpleperf-samples", "%zu", sp->nsamples);
	propertyf(sp, "simpleperf-chosen-samples", "%zu", sp->nchosen);
	if (sp->has_lost)
		propertyf(sp, "simpleperf-lost", "%" PRIu64 " of %" PRIu64,
		          sp->lost_lost, sp->lost_samples + sp->lost_lost);
	if (sp->context_switches)
		propertyf(sp, "simpleperf-context-switches", "%" PRIu64,
		          sp->context_switches);
	if (sp->stopped)
		propertyf(sp, "simpleperf-stopped", "%" PRIu64, sp->stopped);
	for (i = 0; i < sp->nfiles; i++)
		propertyf(sp, "simpleperf-file", "%" PRIu32 "\t%s\t%s\t%zu",
		          sp->files[i].id, kind_name(sp->files[i].kind),
		          sp->files[i].path, sp->files[i].nsymbols);
	thread_properties(sp);
	for (i = 0; s->method && i < sp->nmethods; i++) {
		struct trace_method_def def;
		const char *name = sp->methods[i].name;
		size_t dot = java_class_end(&sp->methods[i]);
		char *klass = dot ? xstrndup(name, dot) : NULL;

		def.id = ((uint64_t)i + 1) << 2;
		/* A Java method as ART's traces name it: its class and
		 * its name, so that every view shortens it alike. */
		def.klass = klass ? klass : "";
		def.name = klass ? name + dot + 1 : name;
		def.signature = "";
		def.file = NULL;
		def.line = -1;
		s->method(s->ctx, &def);
		free(klass);
	}
	for (i = 0; i < sp->nmethods; i++)
		if (sp->methods[i].kind != KIND_NATIVE) {
			/* "java" or "kernel" per method, by its index */
			propertyf(sp, "simpleperf-method-kind", "%zu\t%s", i,
			          kind_name(sp->methods[i].kind));
		}
	if (k != SIZE_MAX)
		time = type_is_time(sp, k);
	else
		for (i = 0; i < sp->ntypes; i++)
			time = time && type_is_time(sp, i);
	property(sp, "simpleperf-time",
	         time ? "event counts (ns)"
	              : "estimated: time to the thread's next sample, at "
	                "most the sampling period");
	hd.format = TRACE_FORMAT_SIMPLEPERF;
	hd.version = 1;
	hd.clock = TRACE_CLOCK_DUAL;
	hd.time_bits = 64;
	hd.expected_records = sp->total_frames * 2;
	hd.sampled = 1;
	hd.unit = TRACE_UNIT_US;
	hd.sample_weight = period >= 1500 ? (period + 500) / 1000 : 1;
	hd.sample_interval = period ? (period + 999) / 1000 : 0;
	hd.incomplete = sp->stopped != 0;
	hd.nested = 1; /* the methods first, the stacks' frames in turn */
	hd.threads_in_turn = 1; /* the samples sorted by thread */
	if (s->begin)
		s->begin(s->ctx, &hd);
	if (s->event)
		emit_events(sp, period, hd.sample_weight);
	if (s->progress)
		s->progress(s->ctx, sp->len, sp->len);
}

/* The files by id in an array, when their ids are small: the frames look
 * their file up without hashing. */
static void
index_files(struct simpleperf *sp)
{
	uint32_t top = 0;
	size_t i;

	for (i = 0; i < sp->nfiles; i++)
		if (sp->files[i].id > top)
			top = sp->files[i].id;
	if (!sp->nfiles || top >= 4 * sp->nfiles + 1024)
		return;
	sp->nfile_index = (size_t)top + 1;
	sp->file_index = xcalloc(sp->nfile_index, sizeof(*sp->file_index));
	memset(sp->file_index, 0xFF, sp->nfile_index * sizeof(uint32_t));
	/* The first definition of an id is its file, as in file_ids. */
	for (i = sp->nfiles; i > 0; i--)
		sp->file_index[sp->files[i - 1].id] = (uint32_t)(i - 1);
}

bool
trace_simpleperf_detect(const unsigned char *buf, size_t len)
{
	return len >= 10 && memcmp(buf, "SIMPLEPERF", 10) == 0;
}

bool
trace_simpleperf_read(const unsigned char *buf, size_t len, bool mapped,
                      const struct trace_sink *sink, struct trace_error *err)
{
	struct simpleperf sp;
	size_t k = 0, i, ahead = 0, released = 0;
	unsigned version;
	bool ok = false;

	if (len < HEADER) {
		trace_error_set(err, len,
		                "simpleperf: expected a u16 version after "
		                "'SIMPLEPERF', found the end of the file");
		return false;
	}
	version = trace_u2(buf + 10);
	if (version != 1) {
		trace_error_set(err, 10,
		                "simpleperf: unknown version %u after "
		                "'SIMPLEPERF' (this reader knows version 1)",
		                version);
		return false;
	}
	memset(&sp, 0, sizeof(sp));
	sp.sink = sink;
	sp.err = err;
	sp.buf = buf;
	sp.len = len;
	sp.no_java = NONE;
	sp.first_time = UINT64_MAX;
	util_arena_init(&sp.arena);
	util_map_init(&sp.file_ids);
	util_map_init(&sp.thread_ids);
	util_map_init(&sp.count_ids);
	util_map_init(&sp.method_hash);
	walk(&sp, buf, len);
	index_files(&sp);
	note_time_types(&sp);
	if (trace_error_isset(err))
		goto out;
	k = choose_type(&sp, sink->sample_type);
	if (k == SIZE_MAX - 1)
		goto out;
	sp.stacks = xcalloc(STACK_CACHE, sizeof(*sp.stacks));
	sp.entries = xcalloc(ENTRY_CACHE, sizeof(*sp.entries));
	/* Every sample may be kept; an entry takes about ten bytes (and
	 * at least two). */
	sp.chosen = xmalloc_large(sp.nsamples + 1, sizeof(*sp.chosen));
	sp.chosen_cap = sp.nsamples + 1;
	grow_frames(&sp, sp.sample_bytes / 8 + 1);
	for (i = 0; i < sp.nsamples; i++) {
		size_t at = (size_t)(sp.samples[i].data - buf);

		ahead = prefetch_ahead(buf, len, at, ahead);
		/* The pages the samples before are on: the callchains the
		 * cache holds are read again from the file's cache (a lag
		 * keeps the recent ones). */
		if (mapped && at - released >= RELEASE_LAG + RELEASE_STEP) {
			trace_release_mapped(buf + released,
			                     buf + at - RELEASE_LAG);
			released = at - RELEASE_LAG;
		}
		if (!read_sample(&sp, i, k)) {
			if (!i)
				goto out;
			/* Keep the samples before a damaged one. */
			trace_warn(sink, err->offset,
			           "simpleperf: samples stop at the damaged "
			           "sample %zu of %zu: %s",
			           i, sp.nsamples, err->message);
			trace_error_clear(err);
			if (!sp.stopped)
				sp.stopped =
				        (uint64_t)(sp.samples[i].data - buf);
			break;
		}
	}
	/* Nothing reads the file after the samples: its names are
	 * copies. */
	if (mapped)
		trace_release_mapped(buf + released, buf + len);
	if (sp.late_times > 1)
		trace_warn(sink, sp.late_offset,
		           "simpleperf: %" PRIu64 " samples past the clock's "
		           "range, each taken at %" PRIu64 " ns",
		           sp.late_times, TIME_MAX);
	if (sp.unknown_files)
		trace_warn(sink, sp.unknown_offset,
		           "simpleperf: %" PRIu64 " frames name a file the "
		           "recording does not define",
		           sp.unknown_files);
	if (!sp.nsamples) {
		trace_error_set(err, sp.stopped ? sp.stopped : HEADER,
		                "simpleperf: expected samples, found none%s",
		                sp.stopped ? " before the records stop" : "");
		goto out;
	}
	/* The kept samples hold their frames: the records and caches can
	 * go before the model is built. */
	free(sp.samples);
	sp.samples = NULL;
	free(sp.stacks);
	sp.stacks = NULL;
	free(sp.entries);
	sp.entries = NULL;
	emit(&sp, k);
	ok = true;
out:
	for (i = 0; i < sp.nfiles; i++) {
		free(sp.files[i].symbols);
		free(sp.files[i].methods);
		util_map_done(&sp.files[i].by_address);
	}
	free(sp.samples);
	free(sp.files);
	free(sp.threads);
	free(sp.counts);
	util_map_done(&sp.count_ids);
	free(sp.types);
	free(sp.time_types);
	free(sp.methods);
	free(sp.frames);
	free(sp.chosen);
	util_map_done(&sp.file_ids);
	util_map_done(&sp.thread_ids);
	util_map_done(&sp.method_hash);
	free(sp.file_index);
	free(sp.stacks);
	free(sp.entries);
	free(sp.java);
	util_arena_done(&sp.arena);
	return ok;
}
