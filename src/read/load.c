/*
 * load: files are mapped read-only when they are regular files and
 * read into memory otherwise (pipes, up to trace_load_max_input bytes);
 * anything else is refused before a byte is read, so devices such as
 * /dev/zero cannot hang the loader.  The files mapped at any moment are
 * listed, so that a SIGBUS from a file cut short under the reader can be
 * reported as such (trace_load_fault).
 */
#include "config.h"

#include "read/load.h"

#include "read/foreign.h"
#include "read/heap-hprof.h"
#include "read/hprof.h"
#include "read/key.h"
#include "read/lowoverhead.h"
#include "read/pprof.h"
#include "read/simpleperf.h"
#include "read/stream.h"
#include "read/bytes.h"
#include "read/v1.h"
#include "read/v2.h"
#include "util/alloc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

struct file_bytes {
	const unsigned char *data;
	size_t size;
	bool mapped;
	bool has_fd; /* mapped: fd, the file, is kept open beside it */
	int fd;
};

uint64_t trace_load_max_input = TRACE_LOAD_MAX_INPUT_DEFAULT;

/* The files mapped now (a trace, its key or data part, its .sec file),
 * read by trace_load_fault from a signal handler. */
enum { MAPPED_MAX = 4 };
static struct {
	const unsigned char *volatile data;
	volatile size_t size;
	char path[512];
} mapped[MAPPED_MAX];

static void
mapped_add(const char *path, const unsigned char *data, size_t size)
{
	int i;

	for (i = 0; i < MAPPED_MAX; i++) {
		if (mapped[i].data)
			continue;
		snprintf(mapped[i].path, sizeof(mapped[i].path), "%s", path);
		mapped[i].size = size;
		mapped[i].data = data;
		return;
	}
}

static void
mapped_remove(const unsigned char *data)
{
	int i;

	for (i = 0; i < MAPPED_MAX; i++)
		if (mapped[i].data == data)
			mapped[i].data = NULL;
}

bool
trace_load_fault(const void *addr, const char **path, uint64_t *offset)
{
	uintptr_t a = (uintptr_t)addr;
	int i;

	for (i = 0; i < MAPPED_MAX; i++) {
		uintptr_t base = (uintptr_t)mapped[i].data;

		if (base && a >= base && a - base < mapped[i].size) {
			*path = mapped[i].path;
			*offset = a - base;
			return true;
		}
	}
	return false;
}

static void
file_close(struct file_bytes *f)
{
	if (f->has_fd)
		close(f->fd);
	if (f->mapped) {
		mapped_remove(f->data);
		munmap((void *)f->data, f->size);
	} else {
		free((void *)f->data);
	}
	memset(f, 0, sizeof(*f));
}

/*
 * How every format may begin: a file (or a pipe's first START_PEEK
 * bytes) that begins none of them is refused at offset 0, naming them.
 * An entry is its first bytes (a prefix of them will do for a short
 * file), or a test of them; `expected` names it in the refusal (NULL:
 * not named, as a byte order mark).  A format added to load_detected
 * adds its line here.
 */
static const struct format_start {
	const char *magic;
	size_t len;
	bool (*could_start)(const unsigned char *b, size_t len);
	const char *expected;
} starts[] = {
        {"*version", 8, NULL, "'*version'"},
        {"SLOW", 4, NULL, "'SLOW'"},
        {"SIMPLEPERF", 10, NULL, "'SIMPLEPERF'"},
        {"\x1F\x8B", 2, NULL, "gzip"},
        {"\xEF\xBB\xBF", 3, NULL, NULL},
        {"JAVA PROFILE", 12, NULL,
         "an hprof profile or heap dump ('JAVA PROFILE'"},
        {"TRACE ", 6, NULL, "'TRACE n:'"},
        {"THREAD START (", 14, NULL, NULL},
        {"CPU SAMPLES BEGIN", 17, NULL, "'CPU SAMPLES BEGIN')"},
        {NULL, 0, trace_pprof_could_start,
         "a pprof profile (a profile.proto field)"},
        {NULL, 0, trace_v2_android15_could_start,
         "Android 15's non-streaming V2 (method packets, then "
         "'*version')"},
        {NULL, 0, trace_lowoverhead_could_start,
         "an ART low-overhead dump (an entry block)"},
};

enum { START_PEEK = 32 }; /* bytes of a pipe looked at before the rest */

/* Whether b[0, len) could begin a format of `starts`. */
static bool
could_start(const unsigned char *b, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		const struct format_start *s = &starts[i];
		size_t n = len < s->len ? len : s->len;

		if (s->could_start ? s->could_start(b, len)
		                   : memcmp(b, s->magic, n) == 0)
			return true;
	}
	return false;
}

/* Refuse at offset 0 what begins no format, naming those expected. */
static void
refuse_start(struct trace_error *err)
{
	char list[512] = "";
	size_t i, n = 0;

	for (i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		const char *e = starts[i].expected;

		if (!e)
			continue;
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
		                      n ? ", " : "", e);
		if (n >= sizeof(list))
			break;
	}
	trace_error_set(err, 0, "not a method trace: expected %s", list);
}

/* Read a pipe to its end, or to trace_load_max_input bytes, refusing
 * at once first bytes that begin no format: false with err set either
 * way it fails. */
static bool
read_all(int fd, struct file_bytes *f, struct trace_error *err)
{
	bool looked = false;

	unsigned char *buf = NULL;
	size_t cap = 0, n = 0;
	uint64_t limit = trace_load_max_input;

	for (;;) {
		ssize_t got;
		size_t room;

		if (n > limit) {
			trace_error_set(err, limit,
			                "input from a pipe goes on past %llu "
			                "bytes (raise the limit with "
			                "--max-input SIZE)",
			                (unsigned long long)limit);
			free(buf);
			return false;
		}
		UTIL_GROW(buf, cap, n + 65536);
		room = cap - n;
		/* Read at most one byte past the limit. */
		if ((uint64_t)n + room > limit + 1)
			room = (size_t)(limit + 1 - n);
		got = read(fd, buf + n, room);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			trace_error_set(err, n, "cannot read: %s",
			                strerror(errno));
			free(buf);
			return false;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (!looked && n >= START_PEEK) {
			/* A format known to be none of ours says
			 * so at once too. */
			const char *foreign = trace_foreign_format(buf, n);

			looked = true;
			if (foreign || !could_start(buf, n)) {
				if (foreign)
					trace_error_set(err, 0, "%s", foreign);
				else
					refuse_start(err);
				free(buf);
				return false;
			}
		}
	}
	f->data = buf;
	f->size = n;
	return true;
}

/* A FIFO named by a path. */
static bool
is_named_fifo(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISFIFO(st.st_mode);
}

/* What "-" reads. */
static int stdin_fd = STDIN_FILENO;

void
trace_set_stdin(int fd)
{
	stdin_fd = fd;
}

int
trace_open_input(const char *path)
{
	if (strcmp(path, "-") == 0)
		return dup(stdin_fd);
	/* A FIFO is opened as cat does, waiting for its writer: opened
	 * without blocking it reads as empty until one comes.  Anything
	 * else must not block (a tape or a serial line would). */
	return open(path, O_RDONLY | (is_named_fifo(path) ? 0 : O_NONBLOCK));
}

/* Map or read path; false with err naming the problem. */
static bool
file_open(const char *path, struct file_bytes *f, struct trace_error *err)
{
	struct stat st;
	int fd;
	bool ok = true;

	memset(f, 0, sizeof(*f));
	fd = trace_open_input(path);
	if (fd < 0) {
		trace_error_set(err, 0, "cannot open: %s", strerror(errno));
		trace_error_set_path(err, path);
		return false;
	}
	if (fstat(fd, &st) < 0) {
		trace_error_set(err, 0, "cannot stat: %s", strerror(errno));
		ok = false;
	} else if (S_ISDIR(st.st_mode)) {
		trace_error_set(err, 0, "is a directory, not a trace file");
		ok = false;
	} else if (S_ISREG(st.st_mode)) {
		f->size = (size_t)st.st_size;
		if (f->size) {
			void *p = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE,
			               fd, 0);
			if (p == MAP_FAILED) {
				trace_error_set(err, 0, "cannot map: %s",
				                strerror(errno));
				ok = false;
			} else {
				f->data = p;
				f->mapped = true;
				mapped_add(path, p, f->size);
				f->has_fd = true;
				f->fd = fd;
			}
		}
	} else if (S_ISFIFO(st.st_mode)) {
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		if (!read_all(fd, f, err))
			ok = false;
	} else {
		trace_error_set(err, 0,
		                "is a device or socket, not a trace file");
		ok = false;
	}
	if (!f->has_fd)
		close(fd);
	if (!ok)
		trace_error_set_path(err, path);
	return ok;
}

static bool
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* path with its suffix `from` replaced by `to` (or `to` appended). */
static char *
sibling(const char *path, const char *from, const char *to)
{
	size_t n = strlen(path);

	if (from && has_suffix(path, from))
		n -= strlen(from);
	return xasprintf("%.*s%s", (int)n, path, to);
}

static bool
file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* A key followed by its data part in the same bytes. */
static bool
load_one_file(const struct file_bytes *f, const struct trace_sink *sink,
              struct trace_error *err)
{
	struct trace_key_info key;
	size_t at, skip;

	if (!trace_key_parse(f->data, f->size, 0, sink, &key, err))
		return false;
	if (!key.has_end) {
		trace_error_set(err, f->size,
		                "expected '*end' closing the key, found the "
		                "end of the file");
		return false;
	}
	at = key.end;
	if (at >= f->size) {
		trace_v1_no_data(&key, at,
		                 "the file ends after '*end' (no data header, "
		                 "no records)",
		                 sink);
		return true;
	}
	/* Tolerate a few stray bytes between the key and the data. */
	for (skip = 0; skip < 8 && at + skip + 4 <= f->size; skip++)
		if (memcmp(f->data + at + skip, "SLOW", 4) == 0)
			break;
	if (skip == 8 || at + skip + 4 > f->size) {
		trace_error_set(err, at,
		                "expected the data magic 'SLOW' after '*end'");
		return false;
	}
	if (skip)
		trace_warn(sink, at, "%zu stray bytes before the data part",
		           skip);
	at += skip;
	if (f->mapped)
		return trace_v1_read_mapped(f->data + at, f->size - at, at,
		                            f->has_fd ? f->fd : -1, &key, sink,
		                            err);
	return trace_v1_read_data(f->data + at, f->size - at, at, &key, sink,
	                          err);
}

/* The two-file form: key_path holds the key, data_path the data part. */
static bool
load_two_files(const char *key_path, const char *data_path,
               const struct trace_sink *sink, struct trace_error *err)
{
	struct file_bytes k, d;
	struct trace_key_info key;
	bool ok;

	if (!file_open(key_path, &k, err))
		return false;
	if (!trace_key_parse(k.data, k.size, 0, sink, &key, err)) {
		trace_error_set_path(err, key_path);
		file_close(&k);
		return false;
	}
	file_close(&k);
	if (!file_open(data_path, &d, err))
		return false;
	ok = d.mapped ? trace_v1_read_mapped(d.data, d.size, 0,
	                                     d.has_fd ? d.fd : -1, &key, sink,
	                                     err)
	              : trace_v1_read_data(d.data, d.size, 0, &key, sink, err);
	if (!ok)
		trace_error_set_path(err, data_path);
	file_close(&d);
	return ok;
}

static bool
load_stream(const char *path, const struct file_bytes *f,
            const struct trace_sink *sink, struct trace_error *err)
{
	char *sec_path = path ? sibling(path, NULL, ".sec") : NULL;
	struct file_bytes sec = {0};
	struct trace_error ignored = {0};
	bool have_sec, ok;

	have_sec = sec_path && file_exists(sec_path) &&
	           file_open(sec_path, &sec, &ignored);
	trace_error_clear(&ignored);
	if (f->mapped)
		ok = trace_stream_read_mapped(
		        f->data, f->size, f->has_fd ? f->fd : -1,
		        have_sec ? sec.data : NULL, sec.size, sink, err);
	else
		ok = trace_stream_read(f->data, f->size,
		                       have_sec ? sec.data : NULL, sec.size,
		                       sink, err);
	if (!ok && have_sec) {
		/* A .sec file whose key fails is the file to blame. */
		static const struct trace_sink quiet = {0};
		struct trace_key_info key;
		struct trace_error probe = {0};

		if (!trace_key_parse(sec.data, sec.size, 0, &quiet, &key,
		                     &probe))
			trace_error_set_path(err, sec_path);
		trace_error_clear(&probe);
	}
	if (have_sec)
		file_close(&sec);
	free(sec_path);
	return ok;
}

/*
 * A gzip file may inflate to GZIP_RATIO times its size, but to
 * GZIP_FLOOR bytes however small it is (a small profile's strings
 * compress far better than 64 times), and never to more than
 * GZIP_LIMIT: past that it is refused as a decompression bomb.  The man
 * page's LIMITS says the same; tests/gzip.sh checks each rule.
 */
#define GZIP_RATIO 64
#define GZIP_FLOOR ((uint64_t)1 << 20)
#define GZIP_LIMIT ((uint64_t)16 << 30)

static bool load_detected(const char *path, const struct file_bytes *f,
                          const struct trace_sink *sink,
                          struct trace_error *err);

/* The inflate limit for a gzip file of size bytes. */
static size_t
gzip_cap(size_t size)
{
	uint64_t cap = (uint64_t)size * GZIP_RATIO;

	if (cap < GZIP_FLOOR)
		cap = GZIP_FLOOR;
	if (cap > GZIP_LIMIT)
		cap = GZIP_LIMIT;
	if (cap > SIZE_MAX / 2)
		cap = SIZE_MAX / 2;
	return (size_t)cap;
}

/* Refuse at offset at gzip data past cap, saying which rule set it. */
static void
gzip_refuse(struct trace_error *err, uint64_t at, size_t cap)
{
	trace_error_set(err, at,
	                "gzip data inflates to more than %zu bytes (%s): "
	                "refused as a likely decompression bomb",
	                cap,
	                cap == GZIP_FLOOR ? "1 MiB, the least a gzip file "
	                                    "may inflate to"
	                : cap == GZIP_LIMIT
	                        ? "16 GiB, the most a gzip file may inflate to"
	                        : "64 times its size");
}

/*
 * Inflate every gzip member of f into *out (malloc'd, *out_len bytes);
 * false with err naming the compressed offset of the problem.
 */
static bool
gunzip_all(const struct file_bytes *f, const struct trace_sink *sink,
           unsigned char **out, size_t *out_len, struct trace_error *err)
{
	size_t cap = gzip_cap(f->size), have = 0, n = 0, fed = 0;
	unsigned char *buf = NULL;
	z_stream z;
	bool ok = false;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
		trace_error_set(err, 0, "gzip: cannot start inflating");
		return false;
	}
	for (;;) {
		size_t used, room, before;
		int rc;

		if (z.avail_in == 0 && fed < f->size) {
			size_t chunk = f->size - fed;

			if (chunk > UINT_MAX)
				chunk = UINT_MAX;
			z.next_in = (Bytef *)(uintptr_t)(f->data + fed);
			z.avail_in = (uInt)chunk;
			fed += chunk;
		}
		used = fed - z.avail_in;
		if (n == have) {
			/* One byte past the cap tells a bomb apart. */
			size_t grow = have ? have : 65536;

			if (have > cap) {
				gzip_refuse(err, used, cap);
				goto done;
			}
			have = have + grow > cap + 1 ? cap + 1 : have + grow;
			buf = xreallocarray(buf, have, 1);
		}
		room = have - n > UINT_MAX ? UINT_MAX : have - n;
		z.next_out = buf + n;
		z.avail_out = (uInt)room;
		before = room;
		rc = inflate(&z, Z_NO_FLUSH);
		n += before - z.avail_out;
		used = fed - z.avail_in;
		if (rc == Z_STREAM_END) {
			if (used == f->size)
				break;
			if (f->size - used >= 2 && f->data[used] == 0x1F &&
			    f->data[used + 1] == 0x8B) {
				inflateReset(&z); /* another member */
				continue;
			}
			trace_warn(sink, used,
			           "%zu bytes after the gzip data ignored",
			           f->size - used);
			break;
		}
		if (rc == Z_BUF_ERROR && z.avail_in == 0 && fed == f->size) {
			trace_error_set(err, f->size,
			                "gzip data cut off: expected more "
			                "compressed data");
			goto done;
		}
		if (rc != Z_OK && rc != Z_BUF_ERROR) {
			trace_error_set(err, used, "gzip data corrupt: %s",
			                z.msg ? z.msg : "inflate failed");
			goto done;
		}
	}
	if (n > cap) {
		gzip_refuse(err, fed - z.avail_in, cap);
		goto done;
	}
	ok = true;
done:
	inflateEnd(&z);
	if (!ok) {
		free(buf);
		return false;
	}
	*out = buf;
	*out_len = n;
	return true;
}

/*
 * A gzip-compressed trace: inflated whole, then detected like any file
 * (no sibling files); offsets in messages are in the inflated bytes.
 */
static bool
load_gzip(const struct file_bytes *f, const struct trace_sink *sink,
          struct trace_error *err)
{
	struct file_bytes inner = {0};
	unsigned char *data;
	size_t len;
	bool ok;

	if (!gunzip_all(f, sink, &data, &len, err))
		return false;
	inner.data = data;
	inner.size = len;
	if (len >= 2 && data[0] == 0x1F && data[1] == 0x8B) {
		trace_error_set(err, 0, "gzip inside gzip is not supported");
		free(data);
		return false;
	}
	if (sink->property)
		sink->property(sink->ctx, "compression", "gzip");
	ok = load_detected(NULL, &inner, sink, err);
	if (!ok && err->message) {
		char *m = xasprintf("%s (offset in the gunzipped data)",
		                    err->message);

		free(err->message);
		err->message = m;
	}
	free(data);
	return ok;
}

static bool
load_detected(const char *path, const struct file_bytes *f,
              const struct trace_sink *sink, struct trace_error *err)
{
	const unsigned char *b = f->data;
	const char *foreign;
	unsigned version;

	if (f->size == 0) {
		trace_error_set(err, 0,
		                "the file is empty; expected '*version' or "
		                "'SLOW'");
		return false;
	}
	if (f->size >= 8 && memcmp(b, "*version", 8) == 0) {
		struct trace_key_info key;
		struct trace_error probe = {0};
		static const struct trace_sink quiet = {0};
		bool key_only;

		/* A lone .key file: the data is in its sibling. */
		key_only =
		        path &&
		        trace_key_parse(b, f->size, 0, &quiet, &key, &probe) &&
		        key.has_end && key.end >= f->size;
		trace_error_clear(&probe);
		if (key_only) {
			char *data = sibling(path, ".key", ".data");
			bool ok = false;

			if (file_exists(data))
				ok = load_two_files(path, data, sink, err);
			free(data);
			if (ok || trace_error_isset(err))
				return ok;
		}
		return load_one_file(f, sink, err);
	}
	if (f->size >= 6 && memcmp(b, "SLOW", 4) == 0) {
		version = trace_u2(b + 4);
		if (version >= 1 && version <= 3) {
			char *key;
			bool ok;

			if (!path) {
				trace_error_set(err, 0,
				                "a bare data part without its "
				                "key");
				return false;
			}
			key = sibling(path, ".data", ".key");
			if (!file_exists(key)) {
				trace_error_set(err, 0,
				                "a bare data part: expected "
				                "its key in %s",
				                key);
				free(key);
				return false;
			}
			ok = load_two_files(key, path, sink, err);
			free(key);
			return ok;
		}
		if ((version & 0xF0) == 0xF0 && (version & 0x0F) >= 1 &&
		    (version & 0x0F) <= 3)
			return load_stream(path, f, sink, err);
		if (version == 4 || version == 5 || version == 0xF4 ||
		    version == 0xF5)
			return trace_v2_read(b, f->size, sink, err);
		trace_error_set(err, 4,
		                "unknown trace version 0x%X after 'SLOW'",
		                version);
		return false;
	}
	if (trace_simpleperf_detect(b, f->size))
		return trace_simpleperf_read(b, f->size, f->mapped, sink, err);
	if (heap_hprof_detect(b, f->size)) {
		trace_error_set(
		        err, 0,
		        "a Java heap dump (binary HPROF), not a method "
		        "trace: info, report, tree, paths, leaks, diff, "
		        "folded and flamegraph read it");
		return false;
	}
	if (trace_hprof_detect(b, f->size))
		return trace_hprof_read(b, f->size, sink, err);
	if (f->size >= 2 && b[0] == 0x1F && b[1] == 0x8B)
		return load_gzip(f, sink, err);
	if ((foreign = trace_foreign_format(b, f->size))) {
		trace_error_set(err, 0, "%s", foreign);
		return false;
	}
	if (trace_v2_android15_detect(b, f->size))
		return trace_v2_android15_read(b, f->size, sink, err);
	if (trace_lowoverhead_detect(b, f->size))
		return trace_lowoverhead_read(b, f->size, sink, err);
	if (trace_pprof_detect(b, f->size))
		return trace_pprof_read(b, f->size, sink, err);
	refuse_start(err);
	return false;
}

bool
trace_load_bytes(const unsigned char *data, size_t size,
                 const struct trace_sink *sink, struct trace_error *err)
{
	struct file_bytes f = {data, size, false, false, -1};

	return load_detected(NULL, &f, sink, err);
}

bool
trace_openable(const char *path, struct trace_error *err)
{
	struct stat st;
	char *key, *data;
	bool pair;
	int fd, problem;

	if (strcmp(path, "-") == 0)
		return true; /* standard input: read once, when loaded */
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		trace_error_set(err, 0, "is a directory, not a trace file");
		trace_error_set_path(err, path);
		return false;
	}
	/* Opening a FIFO just to look would let its writer start and then
	 * die of a broken pipe: a FIFO counts as openable, and the load
	 * waits for its writer. */
	if (is_named_fifo(path))
		return true;
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd >= 0) {
		close(fd);
		return true;
	}
	problem = errno;
	key = xasprintf("%s.key", path);
	data = xasprintf("%s.data", path);
	pair = file_exists(key) && file_exists(data);
	free(key);
	free(data);
	if (!pair) {
		trace_error_set(err, 0, "cannot open: %s", strerror(problem));
		trace_error_set_path(err, path);
	}
	return pair;
}

bool
trace_load(const char *path, const struct trace_sink *sink,
           struct trace_error *err)
{
	struct file_bytes f;
	bool ok;

	if (!file_exists(path)) {
		char *key = xasprintf("%s.key", path);
		char *data = xasprintf("%s.data", path);

		if (file_exists(key) && file_exists(data)) {
			ok = load_two_files(key, data, sink, err);
			free(key);
			free(data);
			return ok;
		}
		free(key);
		free(data);
	}
	if (!file_open(path, &f, err))
		return false;
	ok = load_detected(path, &f, sink, err);
	if (!ok)
		trace_error_set_path(err, path);
	file_close(&f);
	return ok;
}

bool
trace_bytes_open(const char *path, struct trace_bytes *out,
                 struct trace_error *err)
{
	static const struct trace_sink quiet = {0};
	struct file_bytes *f = xcalloc(1, sizeof(*f));

	memset(out, 0, sizeof(*out));
	if (!file_open(path, f, err)) {
		free(f);
		return false;
	}
	if (f->size >= 2 && f->data[0] == 0x1F && f->data[1] == 0x8B) {
		unsigned char *data;
		size_t len;
		bool ok = gunzip_all(f, &quiet, &data, &len, err);

		file_close(f);
		if (!ok) {
			trace_error_set_path(err, path);
			free(f);
			return false;
		}
		f->data = data;
		f->size = len;
		out->gzip = true;
	}
	out->data = f->data;
	out->size = f->size;
	out->file = f;
	return true;
}

void
trace_bytes_close(struct trace_bytes *b)
{
	if (b->file) {
		file_close(b->file);
		free(b->file);
	}
	memset(b, 0, sizeof(*b));
}

void
trace_bytes_release(const struct trace_bytes *b, size_t from, size_t to)
{
	const struct file_bytes *f = b->file;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), lo, hi;

	if (!f || !f->mapped || to > b->size || from >= to)
		return;
	/* Whole pages inside the range only. */
	lo = ((uintptr_t)b->data + from + page - 1) & ~(page - 1);
	hi = ((uintptr_t)b->data + to) & ~(page - 1);
	if (to == b->size)
		hi = ((uintptr_t)b->data + to + page - 1) & ~(page - 1);
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

void
trace_bytes_ahead(const struct trace_bytes *b, size_t from, size_t to)
{
#ifdef MADV_POPULATE_READ
	const struct file_bytes *f = b->file;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), lo, hi;

	if (!f || !f->mapped || from >= b->size)
		return;
	if (to > b->size)
		to = b->size;
	lo = ((uintptr_t)b->data + from) & ~(page - 1);
	hi = (uintptr_t)b->data + to;
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_POPULATE_READ);
#else
	(void)b;
	(void)from;
	(void)to;
#endif
}

bool
trace_is_heap_dump(const char *path)
{
	unsigned char head[64];
	ssize_t n;
	int fd;

	if (strcmp(path, "-") == 0 || is_named_fifo(path) || !file_exists(path))
		return false;
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return false;
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n >= 2 && head[0] == 0x1F && head[1] == 0x8B) {
		unsigned char in[4096];
		z_stream z;
		bool heap = false;

		fd = open(path, O_RDONLY | O_NONBLOCK);
		if (fd < 0)
			return false;
		n = read(fd, in, sizeof(in));
		close(fd);
		memset(&z, 0, sizeof(z));
		if (n <= 0 || inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
			return false;
		z.next_in = in;
		z.avail_in = (uInt)n;
		z.next_out = head;
		z.avail_out = sizeof(head);
		inflate(&z, Z_SYNC_FLUSH);
		heap = heap_hprof_detect(head, sizeof(head) - z.avail_out);
		inflateEnd(&z);
		return heap;
	}
	return n > 0 && heap_hprof_detect(head, (size_t)n);
}
