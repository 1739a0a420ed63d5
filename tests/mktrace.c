/*
 * mktrace: write an Android method trace (V1 or V2) from a readable text
 * spec.
 *
 * Usage: mktrace SPEC OUT   (SPEC "-" reads the spec from standard input)
 *
 * The spec (see doc/FIXTURES.md) chooses the layout (key + data in one
 * file, OUT.key + OUT.data, or streaming with inline packets, a summary
 * packet or an OUT.sec side file; or V2 with its LEB128 entry blocks in
 * the final, Android 15 draft or Perfetto encoding), the header fields,
 * the key options, the threads, the methods and the records, written in
 * the order given.  It
 * can break the result on purpose (truncate, poke, raw bytes, absurd
 * header fields), and a built-in generator streams big program-shaped
 * traces without holding their records in memory.
 *
 * This is an independent writer: it shares no code with the readers in
 * src/, so a misreading of the format there is not hidden by the same
 * misreading here.  Only the C library is used.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Small helpers                                                      */
/* ------------------------------------------------------------------ */

/* Files created so far, removed when we fail so no half trace is left. */
static const char *outputs[4];
static size_t noutputs;

/* Remove the files created so far and exit with status 1. */
static void
fail(void)
{
	while (noutputs > 0)
		remove(outputs[--noutputs]);
	exit(1);
}

/* Print "mktrace: MESSAGE" on stderr and fail. */
static void
die(const char *fmt, ...)
{
	va_list ap;

	fputs("mktrace: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fail();
}

/* realloc that never returns NULL. */
static void *
xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		die("out of memory");
	return p;
}

/* calloc that never returns NULL. */
static void *
xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die("out of memory");
	return p;
}

/* strdup in C99. */
static char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = xrealloc(NULL, n);

	memcpy(d, s, n);
	return d;
}

/* P (holding *CAP elements of SIZE bytes) or a larger copy of it, with
 * room for NEED elements; *CAP is updated. */
static void *
grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 8;

	if (need <= *cap)
		return p;
	while (n < need)
		n *= 2;
	*cap = n;
	return xrealloc(p, n * size);
}

/* A growable byte buffer, kept NUL-terminated for text use. */
struct buf {
	unsigned char *p;
	size_t len;
	size_t cap;
};

/* Append N bytes from P. */
static void
buf_add(struct buf *b, const void *p, size_t n)
{
	b->p = grow(b->p, &b->cap, b->len + n + 1, 1);
	memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = 0;
}

/* Append one byte. */
static void
buf_addc(struct buf *b, int c)
{
	unsigned char ch = (unsigned char)c;

	buf_add(b, &ch, 1);
}

/* Append a NUL-terminated string. */
static void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

/* Append printf-formatted text. */
static void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("formatting failed");
	b->p = grow(b->p, &b->cap, b->len + (size_t)n + 1, 1);
	va_start(ap, fmt);
	vsnprintf((char *)b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* The buffer's text as a C string (empty string when nothing was added). */
static char *
buf_str(struct buf *b)
{
	if (!b->p)
		buf_add(b, "", 0);
	return (char *)b->p;
}

/* A bump allocator for the spec's names and fields, all freed at once:
 * one malloc per 64 KiB instead of one per string. */
struct arena_block {
	struct arena_block *prev;
	char data[];
};
struct arena {
	struct arena_block *last;
	size_t used, size; /* bytes of the last block */
};

/* N bytes aligned for a pointer, valid until arena_free. */
static void *
arena_alloc(struct arena *a, size_t n)
{
	size_t at = (a->used + sizeof(void *) - 1) & ~(sizeof(void *) - 1);

	if (!a->last || at > a->size || n > a->size - at) {
		size_t size = n > 65536 ? n : 65536;
		struct arena_block *b = xrealloc(
		        NULL, offsetof(struct arena_block, data) + size);

		b->prev = a->last;
		a->last = b;
		a->size = size;
		at = 0;
	}
	a->used = at + n;
	return a->last->data + at;
}

/* A copy of S in the arena. */
static char *
arena_strdup(struct arena *a, const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(arena_alloc(a, n), s, n);
}

/* Free everything allocated from A. */
static void
arena_free(struct arena *a)
{
	while (a->last) {
		struct arena_block *b = a->last;

		a->last = b->prev;
		free(b);
	}
}

/* Store V little-endian in N bytes at P. */
static void
put_le(unsigned char *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* A map from 64-bit ids to array indices.  Ids are mostly small and
 * close together (thread ids, method ids 4 apart), so those live in a
 * table indexed by the id itself, grown while it stays within a few
 * slots per id put; the others go to an open-addressing hash table.  An
 * id later put in the direct table shadows its old hash entry. */
struct idmap {
	uint32_t *direct; /* direct[id]: index + 1; 0: look in the hash */
	size_t ndirect;
	size_t puts;
	uint64_t *keys;
	uint32_t *vals; /* index + 1; 0 marks an empty slot */
	size_t cap;
	size_t len;
};

/* Mix a 64-bit key into a slot hash. */
static size_t
id_hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (size_t)k;
}

/* Set KEY to VAL + 1 in M's hash table, replacing an earlier value. */
static void
idmap_hash_put(struct idmap *m, uint64_t key, uint32_t val1)
{
	size_t i;

	if (2 * (m->len + 1) > m->cap) {
		struct idmap old = *m;

		m->cap = old.cap ? old.cap * 2 : 64;
		m->keys = xrealloc(NULL, m->cap * sizeof(*m->keys));
		m->vals = xcalloc(m->cap, sizeof(*m->vals));
		m->len = 0;
		for (i = 0; i < old.cap; i++)
			if (old.vals[i])
				idmap_hash_put(m, old.keys[i], old.vals[i]);
		free(old.keys);
		free(old.vals);
	}
	for (i = id_hash(key) & (m->cap - 1); m->vals[i];
	     i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == key) {
			m->vals[i] = val1;
			return;
		}
	}
	m->keys[i] = key;
	m->vals[i] = val1;
	m->len++;
}

/* Set KEY to VAL, replacing an earlier value. */
static void
idmap_put(struct idmap *m, uint64_t key, size_t val)
{
	if (val >= UINT32_MAX)
		die("more than %" PRIu32 " ids", UINT32_MAX - 1);
	m->puts++;
	if (key >= m->ndirect && key < 1024 + 16 * (uint64_t)m->puts) {
		size_t n = m->ndirect ? m->ndirect * 2 : 1024;

		if (n <= key)
			n = (size_t)key + 1;
		m->direct = xrealloc(m->direct, n * sizeof(*m->direct));
		memset(m->direct + m->ndirect, 0,
		       (n - m->ndirect) * sizeof(*m->direct));
		m->ndirect = n;
	}
	if (key < m->ndirect)
		m->direct[key] = (uint32_t)val + 1;
	else
		idmap_hash_put(m, key, (uint32_t)val + 1);
}

/* Look KEY up; store its value in *VAL and return 1, or return 0. */
static int
idmap_get(const struct idmap *m, uint64_t key, size_t *val)
{
	size_t i;

	if (key < m->ndirect && m->direct[key]) {
		*val = m->direct[key] - 1;
		return 1;
	}
	if (!m->cap)
		return 0;
	for (i = id_hash(key) & (m->cap - 1); m->vals[i];
	     i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == key) {
			*val = m->vals[i] - 1;
			return 1;
		}
	}
	return 0;
}

/* Free what M holds. */
static void
idmap_free(struct idmap *m)
{
	free(m->direct);
	free(m->keys);
	free(m->vals);
}

/* splitmix64: the generator's PRNG, deterministic for a seed. */
static uint64_t
rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A uniform number in [0, N); N > 0. */
static uint32_t
rng_below(uint64_t *state, uint32_t n)
{
	return (uint32_t)(((rng_next(state) >> 32) * (uint64_t)n) >> 32);
}

/* ------------------------------------------------------------------ */
/* The parsed spec                                                    */
/* ------------------------------------------------------------------ */

enum layout {
	LAYOUT_V1,
	LAYOUT_SPLIT,
	LAYOUT_STREAM,
	LAYOUT_V2,
	LAYOUT_V2_STREAM
};
enum block_layout { BLOCK_FINAL, BLOCK_DRAFT, BLOCK_PERFETTO };
enum clock { CLOCK_DUAL, CLOCK_WALL, CLOCK_CPU, CLOCK_NONE };
enum id_style { ID_0X, ID_BARE, ID_ALT, ID_PAD8 };
enum { WHERE_INLINE = 1, WHERE_SUMMARY = 2 };
enum action { ACT_ENTER = 0, ACT_EXIT = 1, ACT_UNWIND = 2, ACT_3 = 3 };

struct thread_def {
	uint64_t tid;
	char *name;
	unsigned where;    /* streaming: WHERE_* bits, 0 for the default */
	int emitted;       /* inline packet written */
	int has_time;      /* a record of this thread was written */
	uint64_t last_cpu; /* times of its latest record (spec values) */
	uint64_t last_wall;
};

struct method_def {
	uint64_t id;
	char *id_text; /* the id as written in the key, NULL: formatted */
	int id_style;  /* how to format it, -1 for the spec's style */
	char **fields; /* the tab-separated fields after the id */
	size_t nfields;
	unsigned where; /* streaming: WHERE_* bits, 0 for the default */
	int emitted;    /* inline packet written */
	int generated;  /* made by a generator: listed only if used */
	int line;       /* where it was declared */
	int used;       /* a record mentions it */
};

struct gen;

enum item_kind {
	ITEM_EVENT,
	ITEM_RAW,
	ITEM_SUMMARY,
	ITEM_GENERATE,
	ITEM_PACKET_THREAD,
	ITEM_PACKET_METHOD,
	ITEM_FLUSH,
};

/* One spec item, kept small: a big spec holds hundreds of thousands. */
struct item {
	unsigned char kind;      /* enum item_kind */
	unsigned char all;       /* flush: every thread, not just tid */
	unsigned char continued; /* flush: keep the previous block's deltas */
	int line;
	uint64_t tid; /* event, flush: thread id as given */
	union {
		struct {
			uint64_t word; /* method id | action */
			uint64_t cpu;  /* times as given (written mod 2^32) */
			uint64_t wall;
		} ev;
		size_t index;    /* packet: thread or method index */
		struct buf *raw; /* raw-hex bytes */
		struct gen *gen;
	} u;
};

/* A call opened with "{", waiting for its "}". */
struct block {
	int line;
	int has_exit;
	struct item exit;
};

enum target { TARGET_MAIN, TARGET_KEY, TARGET_SEC };
enum base { BASE_ABS, BASE_DATA, BASE_END };

/* A change made to a written file: poke bytes or truncate. */
struct edit {
	int line;
	enum target target;
	enum base base;
	uint64_t off;
	int before; /* data-N: N bytes before the binary part */
	int truncate;
	struct buf bytes;
};

/* A header field forced to a value without changing the layout. */
struct override {
	int set;
	uint64_t value;
};

struct spec {
	const char *path;
	int lineno;

	enum layout layout;
	int layout_line;
	int sec_file;
	int no_summary;
	unsigned version;
	int version_set;
	enum clock clock;
	unsigned record_size;
	int record_size_line;
	unsigned data_offset;
	int data_offset_line;
	uint64_t start_time;
	enum block_layout block_layout;
	int block_layout_line;
	int v2_ns;              /* V2 times and summary key in nanoseconds */
	uint64_t tsc_hz;        /* V2 header u8 at 22 */
	unsigned block_records; /* V2: a thread's block is flushed at this */
	unsigned stride;
	int stride_line;
	unsigned char stride_fill;
	struct override ov_magic, ov_version, ov_offset, ov_start, ov_recsize;

	int crlf;
	char *key_version;
	char **options;
	size_t noptions, options_cap;
	int no_end;
	enum id_style id_style;
	unsigned thread_where;
	unsigned method_where;

	struct thread_def *threads;
	size_t nthreads, threads_cap;
	struct idmap thread_map;
	struct method_def *methods;
	size_t nmethods, methods_cap;
	struct idmap method_map;

	struct item *items;
	size_t nitems, items_cap;
	struct block *blocks;
	size_t nblocks, blocks_cap;
	struct edit *edits;
	size_t nedits, edits_cap;
	int has_summary_item; /* line of the "summary" item, or 0 */

	struct arena strings; /* thread names, method fields */
	struct buf tok;       /* the parser's last token */
	char **scratch;       /* a method line's fields while it is read */
	size_t scratch_cap;
};

/* Report a problem at LINE of the spec and exit 1. */
static void
die_line(const struct spec *s, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "mktrace: %s:%d: ", s->path, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fail();
}

/* Report a problem at the current spec line and exit 1. */
#define die_at(s, ...) die_line((s), (s)->lineno, __VA_ARGS__)

/* Append an item and return it (zeroed, line set). */
static struct item *
add_item(struct spec *s, enum item_kind kind)
{
	struct item *it;

	s->items =
	        grow(s->items, &s->items_cap, s->nitems + 1, sizeof(*s->items));
	it = &s->items[s->nitems++];
	memset(it, 0, sizeof(*it));
	it->kind = (unsigned char)kind;
	it->line = s->lineno;
	return it;
}

/* Declare a thread; returns its index. */
static size_t
add_thread(struct spec *s, uint64_t tid, const char *name, unsigned where)
{
	struct thread_def *t;

	s->threads = grow(s->threads, &s->threads_cap, s->nthreads + 1,
	                  sizeof(*s->threads));
	t = &s->threads[s->nthreads];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->name = arena_strdup(&s->strings, name);
	t->where = where;
	idmap_put(&s->thread_map, tid, s->nthreads);
	return s->nthreads++;
}

/* Format ID in STYLE as the key writes it; returns a new string. */
static char *
format_id(uint64_t id, enum id_style style)
{
	struct buf b = {0};

	switch (style) {
	case ID_0X:
		buf_printf(&b, "0x%" PRIx64, id);
		break;
	case ID_BARE:
		buf_printf(&b, "%" PRIx64, id);
		break;
	case ID_ALT:
		if (id)
			buf_printf(&b, "0x%" PRIx64, id);
		else
			buf_adds(&b, "0");
		break;
	case ID_PAD8:
		buf_printf(&b, "0x%08" PRIx64, id);
		break;
	}
	return buf_str(&b);
}

/* Declare a method with NFIELDS fields (strings of the spec's arena;
 * the array is copied); returns its index. */
static size_t
add_method(struct spec *s, uint64_t id, char *id_text, int id_style,
           char *const *fields, size_t nfields, unsigned where)
{
	struct method_def *m;

	s->methods = grow(s->methods, &s->methods_cap, s->nmethods + 1,
	                  sizeof(*s->methods));
	m = &s->methods[s->nmethods];
	memset(m, 0, sizeof(*m));
	m->id = id;
	m->id_text = id_text;
	m->id_style = id_style;
	m->fields = arena_alloc(&s->strings, nfields * sizeof(*m->fields));
	if (nfields)
		memcpy(m->fields, fields, nfields * sizeof(*m->fields));
	m->nfields = nfields;
	m->where = where;
	idmap_put(&s->method_map, id, s->nmethods);
	return s->nmethods++;
}

/* ------------------------------------------------------------------ */
/* The generator: program-shaped traces, streamed                     */
/* ------------------------------------------------------------------ */

enum thread_kind { KIND_MAIN, KIND_WORKER, KIND_BINDER, KIND_RENDER };

struct gen_method {
	size_t def;     /* index into spec methods */
	unsigned layer; /* 0 framework .. 4 utilities */
	int blocking;   /* its exit takes long wall, little cpu */
	uint32_t first; /* callees: gen->callees[first .. first+n) */
	uint32_t ncallees;
};

struct gen_thread {
	size_t def; /* index into spec threads */
	enum thread_kind kind;
	unsigned weight; /* how often the scheduler picks it */
	uint32_t *stack; /* gen method indices */
	uint32_t *nkids; /* calls made so far by each frame */
	unsigned depth;
	unsigned base_len; /* frames open from the start, never exited */
	const uint32_t *base;
	uint32_t root;    /* entered when the stack is empty */
	unsigned pending; /* unwind records still to write */
	int started;
	uint64_t cpu;
};

struct gen {
	int line;
	uint64_t nthreads;
	uint64_t nmethods;
	uint64_t records;
	uint64_t seed;
	unsigned maxdepth;
	unsigned switch_every;
	unsigned unwind_permille;
	int use_declared;
	uint64_t first_tid;
	int first_tid_set;
	uint64_t first_method;
	int first_method_set;

	struct gen_method *m;
	size_t nm, m_cap;
	uint32_t *callees;
	size_t ncallees, callees_cap;
	struct gen_thread *t;
	size_t nt;
	unsigned weight_total;
	uint32_t base_main[5];
	uint32_t base_worker[3];
};

/* Skeleton methods every generated trace has, in gen method order. */
enum {
	S_ZYGOTE_MAIN,
	S_MAAC_RUN,
	S_METHOD_INVOKE,
	S_AT_MAIN,
	S_LOOP,
	S_LOOP_ONCE,
	S_MQ_NEXT,
	S_POLL_ONCE,
	S_DISPATCH,
	S_FDER_RUN,
	S_DO_FRAME,
	S_DO_CALLBACKS,
	S_TRAVERSAL,
	S_PERFORM_TRAV,
	S_PERF_MEASURE,
	S_PERF_LAYOUT,
	S_PERF_DRAW,
	S_VIEW_MEASURE,
	S_MEASURE_CHILD,
	S_VIEW_LAYOUT,
	S_VIEW_DRAW,
	S_DISPATCH_DRAW,
	S_DRAW_CHILD,
	S_THREAD_RUN,
	S_WORKER_RUN,
	S_RUN_WORKER,
	S_GET_TASK,
	S_QUEUE_TAKE,
	S_FUTURE_RUN,
	S_ASYNC_CALL,
	S_BINDER_EXEC,
	S_BINDER_INTERNAL,
	S_HWR_SYNC,
	S_MAP_GET,
	S_MAP_HASH,
	S_SB_APPEND,
	S_STRING_EQUALS,
	S_CHECK_NOT_NULL,
	S_LIST_GET,
	S_COUNT
};

struct skeleton {
	const char *klass, *name, *sig, *file;
	unsigned layer;
	int blocking;
};

static const struct skeleton skeleton[S_COUNT] = {
        {"com.android.internal.os.ZygoteInit", "main", "([Ljava/lang/String;)V",
         "ZygoteInit.java", 0, 0},
        {"com.android.internal.os.RuntimeInit$MethodAndArgsCaller", "run",
         "()V", "RuntimeInit.java", 0, 0},
        {"java.lang.reflect.Method", "invoke",
         "(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;",
         "Method.java", 0, 0},
        {"android.app.ActivityThread", "main", "([Ljava/lang/String;)V",
         "ActivityThread.java", 0, 0},
        {"android.os.Looper", "loop", "()V", "Looper.java", 0, 0},
        {"android.os.Looper", "loopOnce", "(Landroid/os/Looper;JI)Z",
         "Looper.java", 0, 0},
        {"android.os.MessageQueue", "next", "()Landroid/os/Message;",
         "MessageQueue.java", 0, 0},
        {"android.os.MessageQueue", "nativePollOnce", "(JI)V",
         "MessageQueue.java", 0, 1},
        {"android.os.Handler", "dispatchMessage", "(Landroid/os/Message;)V",
         "Handler.java", 0, 0},
        {"android.view.Choreographer$FrameDisplayEventReceiver", "run", "()V",
         "Choreographer.java", 0, 0},
        {"android.view.Choreographer", "doFrame",
         "(JILandroid/view/DisplayEventReceiver$VsyncEventData;)V",
         "Choreographer.java", 0, 0},
        {"android.view.Choreographer", "doCallbacks", "(IJ)V",
         "Choreographer.java", 0, 0},
        {"android.view.ViewRootImpl$TraversalRunnable", "run", "()V",
         "ViewRootImpl.java", 0, 0},
        {"android.view.ViewRootImpl", "performTraversals", "()V",
         "ViewRootImpl.java", 0, 0},
        {"android.view.ViewRootImpl", "performMeasure", "(II)V",
         "ViewRootImpl.java", 0, 0},
        {"android.view.ViewRootImpl", "performLayout",
         "(Landroid/view/WindowManager$LayoutParams;II)V", "ViewRootImpl.java",
         0, 0},
        {"android.view.ViewRootImpl", "performDraw", "()Z", "ViewRootImpl.java",
         0, 0},
        {"android.view.View", "measure", "(II)V", "View.java", 0, 0},
        {"android.view.ViewGroup", "measureChildWithMargins",
         "(Landroid/view/View;IIII)V", "ViewGroup.java", 0, 0},
        {"android.view.View", "layout", "(IIII)V", "View.java", 0, 0},
        {"android.view.View", "draw",
         "(Landroid/graphics/Canvas;Landroid/view/ViewGroup;J)Z", "View.java",
         0, 0},
        {"android.view.ViewGroup", "dispatchDraw",
         "(Landroid/graphics/Canvas;)V", "ViewGroup.java", 0, 0},
        {"android.view.ViewGroup", "drawChild",
         "(Landroid/graphics/Canvas;Landroid/view/View;J)Z", "ViewGroup.java",
         0, 0},
        {"java.lang.Thread", "run", "()V", "Thread.java", 0, 0},
        {"java.util.concurrent.ThreadPoolExecutor$Worker", "run", "()V",
         "ThreadPoolExecutor.java", 0, 0},
        {"java.util.concurrent.ThreadPoolExecutor", "runWorker",
         "(Ljava/util/concurrent/ThreadPoolExecutor$Worker;)V",
         "ThreadPoolExecutor.java", 0, 0},
        {"java.util.concurrent.ThreadPoolExecutor", "getTask",
         "()Ljava/lang/Runnable;", "ThreadPoolExecutor.java", 0, 0},
        {"java.util.concurrent.LinkedBlockingQueue", "take",
         "()Ljava/lang/Object;", "LinkedBlockingQueue.java", 0, 1},
        {"java.util.concurrent.FutureTask", "run", "()V", "FutureTask.java", 0,
         0},
        {"okhttp3.internal.connection.RealCall$AsyncCall", "run", "()V",
         "RealCall.kt", 0, 0},
        {"android.os.Binder", "execTransact", "(IJJI)Z", "Binder.java", 0, 0},
        {"android.os.Binder", "execTransactInternal", "(IJJII)Z", "Binder.java",
         0, 0},
        {"android.graphics.HardwareRenderer", "syncAndDrawFrame",
         "(Landroid/graphics/HardwareRenderer$FrameInfo;)I",
         "HardwareRenderer.java", 0, 0},
        {"java.util.HashMap", "get", "(Ljava/lang/Object;)Ljava/lang/Object;",
         "HashMap.java", 4, 0},
        {"java.util.HashMap", "hash", "(Ljava/lang/Object;)I", "HashMap.java",
         4, 0},
        {"java.lang.StringBuilder", "append",
         "(Ljava/lang/String;)Ljava/lang/StringBuilder;", "StringBuilder.java",
         4, 0},
        {"java.lang.String", "equals", "(Ljava/lang/Object;)Z", "String.java",
         4, 0},
        {"kotlin.jvm.internal.Intrinsics", "checkNotNullParameter",
         "(Ljava/lang/Object;Ljava/lang/String;)V", "Intrinsics.java", 4, 0},
        {"java.util.ArrayList", "get", "(I)Ljava/lang/Object;",
         "ArrayList.java", 4, 0},
};

/* Fixed call edges of the skeleton, hottest first per caller. */
static const unsigned char skeleton_edges[][2] = {
        {S_ZYGOTE_MAIN, S_MAAC_RUN},
        {S_MAAC_RUN, S_METHOD_INVOKE},
        {S_METHOD_INVOKE, S_AT_MAIN},
        {S_AT_MAIN, S_LOOP},
        {S_LOOP, S_LOOP_ONCE},
        {S_LOOP_ONCE, S_MQ_NEXT},
        {S_LOOP_ONCE, S_DISPATCH},
        {S_MQ_NEXT, S_POLL_ONCE},
        {S_DISPATCH, S_FDER_RUN},
        {S_FDER_RUN, S_DO_FRAME},
        {S_DO_FRAME, S_DO_CALLBACKS},
        {S_DO_CALLBACKS, S_TRAVERSAL},
        {S_TRAVERSAL, S_PERFORM_TRAV},
        {S_PERFORM_TRAV, S_PERF_DRAW},
        {S_PERFORM_TRAV, S_PERF_MEASURE},
        {S_PERFORM_TRAV, S_PERF_LAYOUT},
        {S_PERF_MEASURE, S_VIEW_MEASURE},
        {S_VIEW_MEASURE, S_MEASURE_CHILD},
        {S_MEASURE_CHILD, S_VIEW_MEASURE},
        {S_PERF_LAYOUT, S_VIEW_LAYOUT},
        {S_VIEW_LAYOUT, S_VIEW_LAYOUT},
        {S_PERF_DRAW, S_VIEW_DRAW},
        {S_VIEW_DRAW, S_DISPATCH_DRAW},
        {S_DISPATCH_DRAW, S_DRAW_CHILD},
        {S_DRAW_CHILD, S_VIEW_DRAW},
        {S_THREAD_RUN, S_WORKER_RUN},
        {S_WORKER_RUN, S_RUN_WORKER},
        {S_RUN_WORKER, S_GET_TASK},
        {S_RUN_WORKER, S_FUTURE_RUN},
        {S_RUN_WORKER, S_ASYNC_CALL},
        {S_GET_TASK, S_QUEUE_TAKE},
        {S_BINDER_EXEC, S_BINDER_INTERNAL},
        {S_MAP_GET, S_MAP_HASH},
};

/* Skeleton methods that also call generated methods of a layer. */
static const unsigned char skeleton_fanout[][3] = {
        /* caller, layer, how many */
        {S_DISPATCH, 1, 4},        {S_DO_CALLBACKS, 1, 2},
        {S_VIEW_MEASURE, 1, 2},    {S_VIEW_LAYOUT, 1, 2},
        {S_VIEW_DRAW, 1, 2},       {S_FUTURE_RUN, 2, 4},
        {S_RUN_WORKER, 2, 1},      {S_ASYNC_CALL, 3, 3},
        {S_BINDER_INTERNAL, 2, 3}, {S_HWR_SYNC, 1, 2},
};

/* Library classes by layer: 1 UI, 3 I/O and frameworks, 4 utilities. */
static const struct {
	unsigned layer;
	const char *name;
} library_classes[] = {
        {1, "androidx.recyclerview.widget.RecyclerView"},
        {1, "androidx.recyclerview.widget.RecyclerView$Recycler"},
        {1, "androidx.recyclerview.widget.RecyclerView$Adapter"},
        {1, "androidx.recyclerview.widget.LinearLayoutManager"},
        {1, "androidx.recyclerview.widget.GridLayoutManager"},
        {1, "androidx.recyclerview.widget.DiffUtil"},
        {1, "androidx.recyclerview.widget.AsyncListDiffer"},
        {1, "androidx.fragment.app.FragmentManager"},
        {1, "androidx.fragment.app.Fragment"},
        {1, "androidx.fragment.app.BackStackRecord"},
        {1, "androidx.fragment.app.FragmentStateManager"},
        {1, "androidx.lifecycle.LiveData"},
        {1, "androidx.lifecycle.MutableLiveData"},
        {1, "androidx.lifecycle.LifecycleRegistry"},
        {1, "androidx.lifecycle.ViewModelProvider"},
        {1, "androidx.compose.runtime.ComposerImpl"},
        {1, "androidx.compose.runtime.Recomposer"},
        {1, "androidx.compose.ui.node.LayoutNode"},
        {1, "androidx.compose.ui.node.MeasureAndLayoutDelegate"},
        {1, "androidx.appcompat.app.AppCompatActivity"},
        {1, "androidx.appcompat.app.AppCompatDelegateImpl"},
        {1, "androidx.constraintlayout.widget.ConstraintLayout"},
        {1, "androidx.constraintlayout.widget.ConstraintLayout$Measurer"},
        {1, "androidx.core.view.ViewCompat"},
        {1, "android.view.LayoutInflater"},
        {1, "android.view.ViewGroup"},
        {1, "android.widget.TextView"},
        {1, "android.widget.ImageView"},
        {1, "android.widget.FrameLayout"},
        {1, "android.widget.LinearLayout"},
        {1, "android.text.StaticLayout"},
        {1, "android.text.SpannableStringBuilder"},
        {1, "android.graphics.Canvas"},
        {1, "android.graphics.RenderNode"},
        {1, "android.app.Activity"},
        {1, "android.app.Instrumentation"},
        {3, "okhttp3.internal.connection.RealCall"},
        {3, "okhttp3.internal.connection.RealConnection"},
        {3, "okhttp3.internal.connection.ExchangeFinder"},
        {3, "okhttp3.internal.http.RealInterceptorChain"},
        {3, "okhttp3.internal.http.BridgeInterceptor"},
        {3, "okhttp3.internal.http.CallServerInterceptor"},
        {3, "okhttp3.OkHttpClient"},
        {3, "okio.RealBufferedSource"},
        {3, "okio.Buffer"},
        {3, "okio.SegmentPool"},
        {3, "com.google.gson.Gson"},
        {3,
         "com.google.gson.internal.bind.ReflectiveTypeAdapterFactory$Adapter"},
        {3,
         "com.google.gson.internal.bind.CollectionTypeAdapterFactory$Adapter"},
        {3, "com.google.gson.stream.JsonReader"},
        {3, "retrofit2.OkHttpCall"},
        {3, "retrofit2.HttpServiceMethod"},
        {3, "com.bumptech.glide.request.SingleRequest"},
        {3, "com.bumptech.glide.load.engine.Engine"},
        {3, "com.bumptech.glide.load.engine.DecodeJob"},
        {3, "androidx.room.RoomDatabase"},
        {3, "android.database.sqlite.SQLiteDatabase"},
        {3, "android.database.sqlite.SQLiteSession"},
        {3, "android.database.sqlite.SQLiteConnection"},
        {3, "kotlinx.coroutines.DispatchedTask"},
        {3, "kotlinx.coroutines.internal.DispatchedContinuation"},
        {3, "kotlinx.coroutines.BuildersKt__Builders_commonKt"},
        {3, "dagger.internal.DoubleCheck"},
        {4, "java.util.LinkedHashMap"},
        {4, "java.util.Collections"},
        {4, "java.util.Arrays"},
        {4, "java.util.Objects"},
        {4, "java.util.concurrent.ConcurrentHashMap"},
        {4, "java.util.concurrent.locks.ReentrantLock"},
        {4, "java.lang.Integer"},
        {4, "java.lang.Object"},
        {4, "java.lang.Class"},
        {4, "java.lang.ThreadLocal"},
        {4, "java.lang.Math"},
        {4, "kotlin.collections.CollectionsKt___CollectionsKt"},
        {4, "kotlin.collections.ArraysKt___ArraysKt"},
        {4, "kotlin.text.StringsKt__StringsKt"},
        {4, "java.io.BufferedReader"},
        {4, "android.util.ArrayMap"},
        {4, "android.util.SparseArray"},
        {4, "android.os.Parcel"},
        {4, "android.os.SystemClock"},
        {4, "android.os.Trace"},
};

static const char *const features[] = {
        "home",          "feed",       "login",    "profile", "settings",
        "search",        "cart",       "checkout", "player",  "chat",
        "notifications", "onboarding", "maps",     "camera",  "gallery",
        "payments",      "orders",     "wallet",   "stories", "comments",
};

static const char *const stems[] = {
        "Feed",     "FeedItem",     "Home",       "Login",        "Profile",
        "Avatar",   "Settings",     "Search",     "SearchResult", "Cart",
        "CartItem", "Checkout",     "Player",     "Playlist",     "Chat",
        "Message",  "Notification", "Onboarding", "Map",          "Camera",
        "Gallery",  "Photo",        "Payment",    "Order",        "Wallet",
        "Story",    "Comment",      "User",       "Session",      "Token",
        "Banner",   "Product",      "Review",
};

/* Class name suffixes by layer of app class: UI, domain, data. */
static const char *const ui_suffixes[] = {
        "Presenter",  "ViewModel", "Fragment", "Activity",
        "Adapter",    "View",      "Layout",   "Screen",
        "Controller", "Binding",   "Dialog",   "Renderer",
};
static const char *const domain_suffixes[] = {
        "UseCase", "Interactor", "Mapper",    "Validator",
        "Reducer", "Store",      "Formatter",
};
static const char *const data_suffixes[] = {
        "Repository", "DataSource", "Api",    "Dao",    "Cache",
        "Service",    "Serializer", "Worker", "Client", "Parser",
};

static const char *const verbs[] = {
        "get",      "set",     "is",       "has",    "on",         "create",
        "update",   "handle",  "dispatch", "load",   "bind",       "apply",
        "compute",  "find",    "resolve",  "parse",  "read",       "write",
        "notify",   "measure", "layout",   "draw",   "invalidate", "post",
        "obtain",   "recycle", "inflate",  "attach", "detach",     "perform",
        "schedule", "enqueue", "execute",  "decode", "encode",     "put",
        "remove",   "add",     "clear",    "check",  "ensure",     "init",
        "start",    "stop",    "build",    "map",    "filter",     "collect",
        "emit",     "submit",  "render",   "fetch",  "sync",       "save",
        "restore",  "prepare", "validate",
};

static const char *const nouns[] = {
        "Item",       "Items",    "View",      "Child",    "Children",
        "State",      "Value",    "Data",      "Event",    "Message",
        "Frame",      "Layout",   "Holder",    "Position", "Count",
        "Bounds",     "Size",     "Text",      "Image",    "Bitmap",
        "Request",    "Response", "Body",      "Header",   "Token",
        "User",       "Config",   "Cache",     "Entry",    "Key",
        "Node",       "Task",     "Job",       "Result",   "Listener",
        "Callback",   "Observer", "Lifecycle", "Fragment", "Transaction",
        "Connection", "Stream",   "Buffer",    "Json",     "Bytes",
        "Content",    "Scroll",   "Touch",     "Insets",   "Theme",
        "Session",    "Snapshot", "Payload",   "Page",     "Url",
};

static const char *const param_types[] = {
        "I",
        "I",
        "J",
        "Z",
        "F",
        "Ljava/lang/String;",
        "Ljava/lang/String;",
        "Ljava/lang/Object;",
        "Landroid/view/View;",
        "Landroid/os/Bundle;",
        "Ljava/util/List;",
        "Landroid/content/Context;",
        "Lkotlin/coroutines/Continuation;",
        "[B",
        "Landroid/graphics/Canvas;",
        "Landroid/view/ViewGroup;",
        "Ljava/util/Map;",
        "Lkotlin/jvm/functions/Function1;",
};

static const char *const return_types[] = {
        "Z",
        "I",
        "J",
        "Ljava/lang/Object;",
        "Ljava/lang/String;",
        "Landroid/view/View;",
        "Ljava/util/List;",
        "F",
};

static const char *const inner_names[] = {
        "ViewHolder", "Companion", "Builder", "1",          "2",
        "Callback",   "State",     "Factory", "SavedState",
};

static const char *const lambda_methods[][2] = {
        {"run", "()V"},
        {"invoke", "(Ljava/lang/Object;)Ljava/lang/Object;"},
        {"accept", "(Ljava/lang/Object;)V"},
        {"onClick", "(Landroid/view/View;)V"},
        {"onChanged", "(Ljava/lang/Object;)V"},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Pick an element of a string table. */
#define PICK(rng, a) ((a)[rng_below((rng), (uint32_t)COUNT(a))])

/* Append a random dex method descriptor for method NAME to B. */
static void
gen_signature(struct buf *b, uint64_t *rng, const char *name)
{
	uint32_t n, i, r = rng_below(rng, 100);

	n = r < 30 ? 0 : r < 65 ? 1 : r < 85 ? 2 : 3;
	if (!strncmp(name, "set", 3) && n == 0)
		n = 1;
	buf_addc(b, '(');
	for (i = 0; i < n; i++)
		buf_adds(b, PICK(rng, param_types));
	buf_addc(b, ')');
	if (!strcmp(name, "<init>") || !strncmp(name, "on", 2) ||
	    !strncmp(name, "set", 3))
		buf_addc(b, 'V');
	else if (!strncmp(name, "is", 2) || !strncmp(name, "has", 3))
		buf_addc(b, 'Z');
	else if (!strncmp(name, "get", 3) || rng_below(rng, 100) < 50)
		buf_adds(b, PICK(rng, return_types));
	else
		buf_addc(b, 'V');
}

/* Append a random method name to B. */
static void
gen_method_name(struct buf *b, uint64_t *rng)
{
	uint32_t r = rng_below(rng, 100);

	if (r < 8) {
		buf_adds(b, "<init>");
	} else if (r < 16) {
		buf_adds(b, PICK(rng, verbs));
	} else if (r < 22) {
		buf_printf(b, "on%s%s", PICK(rng, nouns),
		           rng_below(rng, 2) ? "Changed" : "Clicked");
	} else if (r < 25) {
		buf_printf(b, "lambda$%s%s$%u", PICK(rng, verbs),
		           PICK(rng, nouns), rng_below(rng, 4));
	} else {
		buf_printf(b, "%s%s", PICK(rng, verbs), PICK(rng, nouns));
	}
}

/* Append the source file name of class KLASS to B. */
static void
gen_file_name(struct buf *b, uint64_t *rng, const char *klass, int app)
{
	const char *dot = strrchr(klass, '.');
	const char *simple = dot ? dot + 1 : klass;
	size_t n = strcspn(simple, "$");
	int kotlin = !strncmp(klass, "kotlin", 6) ||
	             !strncmp(klass, "okhttp3", 7) ||
	             !strncmp(klass, "okio", 4);

	if (strstr(klass, "$$ExternalSynthetic")) {
		buf_adds(b, "D8$$SyntheticClass");
		return;
	}
	if (app) {
		uint32_t r = rng_below(rng, 100);

		if (r < 10) {
			buf_adds(b, "SourceFile");
			return;
		}
		kotlin = r < 70;
	}
	buf_add(b, simple, n);
	buf_adds(b, kotlin ? ".kt" : ".java");
}

/* Add one method to the spec and to generator G; returns its gen index. */
static uint32_t
gen_add_method(struct gen *g, size_t def, unsigned layer, int blocking)
{
	struct gen_method *gm;

	g->m = grow(g->m, &g->m_cap, g->nm + 1, sizeof(*g->m));
	gm = &g->m[g->nm];
	memset(gm, 0, sizeof(*gm));
	gm->def = def;
	gm->layer = layer;
	gm->blocking = blocking;
	return (uint32_t)g->nm++;
}

/* Declare a generated method KLASS.NAME SIG FILE with the next id. */
static void
gen_new_method(struct spec *s, struct gen *g, uint64_t *next_id,
               const char *klass, const char *name, const char *sig,
               const char *file, unsigned layer, int blocking)
{
	char *fields[4];
	size_t def;

	fields[0] = arena_strdup(&s->strings, klass);
	fields[1] = arena_strdup(&s->strings, name);
	fields[2] = arena_strdup(&s->strings, sig);
	fields[3] = arena_strdup(&s->strings, file);
	if (*next_id > UINT32_MAX)
		die_line(s, g->line, "generated method ids pass 0xffffffff");
	def = add_method(s, *next_id, NULL, -1, fields, 4, 0);
	s->methods[def].generated = 1;
	*next_id += 4;
	gen_add_method(g, def, layer, blocking);
}

/* Declare one class of NMETH random methods; stop at the method target. */
static void
gen_class(struct spec *s, struct gen *g, uint64_t *rng, uint64_t *next_id,
          const char *klass, unsigned layer, uint32_t nmeth, int app)
{
	struct buf name = {0}, sig = {0}, file = {0};
	uint32_t i;

	gen_file_name(&file, rng, klass, app);
	for (i = 0; i < nmeth && g->nm < g->nmethods; i++) {
		name.len = 0;
		sig.len = 0;
		if (strstr(klass, "$$ExternalSynthetic")) {
			uint32_t k = rng_below(rng, COUNT(lambda_methods));

			buf_adds(&name, lambda_methods[k][0]);
			buf_adds(&sig, lambda_methods[k][1]);
		} else if (app && strchr(klass, '$') &&
		           klass[strlen(klass) - 1] == '1') {
			buf_adds(&name, i ? "create" : "invokeSuspend");
			buf_adds(&sig, i ? "(Ljava/lang/Object;Lkotlin/"
			                   "coroutines/Continuation;)Lkotlin/"
			                   "coroutines/Continuation;"
			                 : "(Ljava/lang/Object;)Ljava/lang/"
			                   "Object;");
		} else {
			gen_method_name(&name, rng);
			gen_signature(&sig, rng, buf_str(&name));
		}
		gen_new_method(s, g, next_id, klass, buf_str(&name),
		               buf_str(&sig), buf_str(&file), layer, 0);
	}
	free(name.p);
	free(sig.p);
	free(file.p);
}

/* Declare G's methods: the skeleton, then library and app classes. */
static void
gen_methods(struct spec *s, struct gen *g, uint64_t *rng, uint64_t next_id)
{
	size_t order[COUNT(library_classes)];
	size_t nlib = COUNT(library_classes), i, j;
	int used[COUNT(library_classes)] = {0};
	struct buf klass = {0}, inner = {0};

	for (i = 0; i < S_COUNT; i++)
		gen_new_method(s, g, &next_id, skeleton[i].klass,
		               skeleton[i].name, skeleton[i].sig,
		               skeleton[i].file, skeleton[i].layer,
		               skeleton[i].blocking);
	for (i = 0; i < nlib; i++)
		order[i] = i;
	for (i = nlib - 1; i > 0; i--) {
		size_t k = rng_below(rng, (uint32_t)i + 1), tmp = order[i];

		order[i] = order[k];
		order[k] = tmp;
	}
	while (g->nm < g->nmethods) {
		uint32_t r = rng_below(rng, 100);
		unsigned layer = r < 35   ? 1
		                 : r < 60 ? 2
		                 : r < 72 ? 1
		                 : r < 86 ? 3
		                          : 4;
		int app = r < 60;

		klass.len = 0;
		if (!app) {
			for (i = 0; i < nlib; i++) {
				j = order[i];
				if (!used[j] &&
				    library_classes[j].layer == layer)
					break;
			}
			if (i == nlib) {
				app = 1;
				layer = 1 + rng_below(rng, 2);
			} else {
				used[j] = 1;
				buf_adds(&klass, library_classes[j].name);
				gen_class(s, g, rng, &next_id, buf_str(&klass),
				          layer, 2 + rng_below(rng, 10), 0);
				continue;
			}
		}
		if (layer == 1)
			buf_printf(&klass, "com.example.app.feature.%s.%s%s",
			           PICK(rng, features), PICK(rng, stems),
			           PICK(rng, ui_suffixes));
		else if (r < 45)
			buf_printf(&klass, "com.example.app.domain.%s.%s%s",
			           PICK(rng, features), PICK(rng, stems),
			           PICK(rng, domain_suffixes));
		else
			buf_printf(&klass, "com.example.app.data.%s.%s%s",
			           PICK(rng, features), PICK(rng, stems),
			           PICK(rng, data_suffixes));
		gen_class(s, g, rng, &next_id, buf_str(&klass), layer,
		          1 + rng_below(rng, 8), 1);
		r = rng_below(rng, 100);
		if (r >= 30)
			continue;
		inner.len = 0;
		if (r < 12)
			buf_printf(&inner, "%s$%s", buf_str(&klass),
			           PICK(rng, inner_names));
		else if (r < 22)
			buf_printf(&inner, "%s$$ExternalSyntheticLambda%u",
			           buf_str(&klass), rng_below(rng, 4));
		else
			buf_printf(&inner, "%s$%s%s$1", buf_str(&klass),
			           PICK(rng, verbs), PICK(rng, nouns));
		gen_class(s, g, rng, &next_id, buf_str(&inner), layer,
		          1 + rng_below(rng, 3), 1);
	}
	free(klass.p);
	free(inner.p);
}

/* Build G's call graph: skeleton edges, fan-outs, random program edges. */
static void
gen_graph(struct gen *g, uint64_t *rng)
{
	static const uint32_t hot[] = {S_MAP_GET, S_SB_APPEND, S_STRING_EQUALS,
	                               S_CHECK_NOT_NULL, S_LIST_GET};
	static const unsigned leaf_pct[5] = {10, 20, 25, 35, 75};
	uint32_t(*edges)[2] = NULL;
	size_t nedges = 0, edges_cap = 0, i, n = g->nm;
	uint32_t *rank = xcalloc(n, sizeof(*rank));
	uint32_t *rank_of = xcalloc(n, sizeof(*rank_of));
	size_t start[6] = {0}, fill[5];
	uint32_t *count = xcalloc(n + 1, sizeof(*count));
	uint32_t w = n / 6 > 8 ? (uint32_t)(n / 6) : 8;

	/* Rank by layer, shuffled within a layer. */
	for (i = 0; i < n; i++)
		start[g->m[i].layer + 1]++;
	for (i = 1; i < 6; i++)
		start[i] += start[i - 1];
	memcpy(fill, start, sizeof(fill));
	for (i = 0; i < n; i++)
		rank[fill[g->m[i].layer]++] = (uint32_t)i;
	for (i = 0; i < 5; i++) {
		size_t a = start[i], b = start[i + 1], k;

		for (k = b; k > a + 1; k--) {
			size_t x = a + rng_below(rng, (uint32_t)(k - a));
			uint32_t tmp = rank[k - 1];

			rank[k - 1] = rank[x];
			rank[x] = tmp;
		}
	}
	for (i = 0; i < n; i++)
		rank_of[rank[i]] = (uint32_t)i;

#define EDGE(a, b)                                                             \
	do {                                                                   \
		edges = grow(edges, &edges_cap, nedges + 1, sizeof(*edges));   \
		edges[nedges][0] = (a);                                        \
		edges[nedges][1] = (b);                                        \
		nedges++;                                                      \
	} while (0)

	for (i = 0; i < COUNT(skeleton_edges); i++)
		EDGE(skeleton_edges[i][0], skeleton_edges[i][1]);
	for (i = 0; i < COUNT(skeleton_fanout); i++) {
		unsigned layer = skeleton_fanout[i][1], k;
		size_t a = start[layer], b = start[layer + 1];

		for (k = 0; k < skeleton_fanout[i][2] && b > a; k++)
			EDGE(skeleton_fanout[i][0],
			     rank[a + rng_below(rng, (uint32_t)(b - a))]);
	}
	for (i = S_COUNT; i < n; i++) {
		uint32_t r = rank_of[i], k, nc;
		unsigned layer = g->m[i].layer;

		if (rng_below(rng, 100) < leaf_pct[layer] || r + 1 >= n)
			continue;
		if (rng_below(rng, 100) < 30)
			EDGE((uint32_t)i, PICK(rng, hot));
		nc = 1 + rng_below(rng, 5);
		for (k = 0; k < nc; k++) {
			uint32_t span = (uint32_t)(n - 1 - r) < w
			                        ? (uint32_t)(n - 1 - r)
			                        : w;

			EDGE((uint32_t)i, rank[r + 1 + rng_below(rng, span)]);
		}
		if (rng_below(rng, 100) < 3)
			EDGE((uint32_t)i, (uint32_t)i);
		if (rng_below(rng, 100) < 4 && r > start[1]) {
			uint32_t lo =
			        r - start[1] > w ? r - w : (uint32_t)start[1];

			EDGE((uint32_t)i, rank[lo + rng_below(rng, r - lo)]);
		}
	}
	/* Give every generated method a caller of lower rank. */
	for (i = 0; i < nedges; i++)
		count[edges[i][1]]++;
	for (i = start[1]; i < n; i++) {
		uint32_t lo, callee = rank[i];

		if (count[callee])
			continue;
		lo = i - start[1] > w ? (uint32_t)i - w : (uint32_t)start[1];
		EDGE(i > lo ? rank[lo + rng_below(rng, (uint32_t)i - lo)]
		            : (uint32_t)S_DISPATCH,
		     callee);
		count[callee]++;
	}
	memset(count, 0, (n + 1) * sizeof(*count));
#undef EDGE

	/* Group the edges by caller, keeping their order (hottest first). */
	for (i = 0; i < nedges; i++)
		count[edges[i][0] + 1]++;
	for (i = 1; i <= n; i++)
		count[i] += count[i - 1];
	g->callees = xcalloc(nedges, sizeof(*g->callees));
	g->ncallees = nedges;
	for (i = 0; i < n; i++) {
		g->m[i].first = count[i];
		g->m[i].ncallees = 0;
	}
	for (i = 0; i < nedges; i++) {
		struct gen_method *gm = &g->m[edges[i][0]];

		g->callees[gm->first + gm->ncallees++] = edges[i][1];
	}
	free(edges);
	free(rank);
	free(rank_of);
	free(count);
}

/* The kind of a thread, from its name. */
static enum thread_kind
thread_kind(const char *name)
{
	if (!strcmp(name, "main"))
		return KIND_MAIN;
	if (!strncmp(name, "Binder", 6))
		return KIND_BINDER;
	if (!strcmp(name, "RenderThread") || !strncmp(name, "hwui", 4))
		return KIND_RENDER;
	return KIND_WORKER;
}

/* The name of the I-th generated thread of a process whose pid is PID. */
static char *
gen_thread_name(size_t i, uint64_t pid)
{
	static const struct {
		const char *name;
		int binder;
	} names[] = {
	        {"main", 0},
	        {"RenderThread", 0},
	        {NULL, 1},
	        {"pool-1-thread-1", 0},
	        {"OkHttp Dispatcher", 0},
	        {"DefaultDispatcher-worker-1", 0},
	        {NULL, 2},
	        {"pool-1-thread-2", 0},
	        {"AsyncTask #1", 0},
	        {"FinalizerDaemon", 0},
	        {"HeapTaskDaemon", 0},
	        {"ReferenceQueueDaemon", 0},
	        {"glide-source-thread-0", 0},
	        {"arch_disk_io_0", 0},
	        {"DefaultDispatcher-worker-2", 0},
	        {NULL, 3},
	        {"pool-1-thread-3", 0},
	        {"hwuiTask1", 0},
	        {"queued-work-looper", 0},
	        {"OkHttp ConnectionPool", 0},
	};
	struct buf b = {0};

	if (i >= COUNT(names))
		buf_printf(&b, "pool-3-thread-%zu", i - COUNT(names) + 1);
	else if (names[i].binder)
		buf_printf(&b, "Binder:%" PRIu64 "_%d", pid, names[i].binder);
	else
		buf_adds(&b, names[i].name);
	return buf_str(&b);
}

/* Prepare generator G: declare its threads and methods, build its graph. */
static void
gen_prepare(struct spec *s, struct gen *g)
{
	uint64_t rng = g->seed, next_id = 0, next_tid = 1, pid;
	size_t i, first_thread = s->nthreads, declared = s->nthreads;
	size_t declared_methods = s->nmethods;

	for (i = 0; i < s->nmethods; i++)
		if (s->methods[i].id >= next_id)
			next_id = (s->methods[i].id | 3) + 1;
	for (i = 0; i < s->nthreads; i++)
		if (s->threads[i].tid >= next_tid)
			next_tid = s->threads[i].tid + 1;
	if (g->first_method_set)
		next_id = g->first_method;
	if (g->first_tid_set)
		next_tid = g->first_tid;
	if (next_id & 3)
		die_line(s, g->line, "first-method must be a multiple of 4");
	if (g->nmethods < S_COUNT)
		die_line(s, g->line, "generate needs methods=%d or more",
		         S_COUNT);
	if (g->nthreads == 0 && !(g->use_declared && declared))
		die_line(s, g->line, "generate needs threads=1 or more");

	gen_methods(s, g, &rng, next_id);
	if (g->use_declared)
		for (i = 0; i < declared_methods; i++)
			gen_add_method(g, i, 1 + rng_below(&rng, 2), 0);
	gen_graph(g, &rng);

	pid = next_tid;
	if (g->use_declared)
		for (i = 0; i < declared; i++)
			if (!strcmp(s->threads[i].name, "main"))
				pid = s->threads[i].tid;
	if (g->use_declared)
		first_thread = 0;
	for (i = 0; i < g->nthreads; i++) {
		char *name = gen_thread_name(i, pid);

		add_thread(s, next_tid + i, name, 0);
		free(name);
	}
	g->nt = s->nthreads - first_thread;
	g->t = xcalloc(g->nt, sizeof(*g->t));
	for (i = 0; i < 5; i++)
		g->base_main[i] = (uint32_t)i; /* S_ZYGOTE_MAIN .. S_LOOP */
	g->base_worker[0] = S_THREAD_RUN;
	g->base_worker[1] = S_WORKER_RUN;
	g->base_worker[2] = S_RUN_WORKER;
	for (i = 0; i < g->nt; i++) {
		struct gen_thread *t = &g->t[i];

		t->def = first_thread + i;
		t->kind = thread_kind(s->threads[t->def].name);
		switch (t->kind) {
		case KIND_MAIN:
			t->weight = 8;
			t->base = g->base_main;
			t->base_len = 5;
			break;
		case KIND_WORKER:
			t->weight = 2;
			t->base = g->base_worker;
			t->base_len = 3;
			break;
		case KIND_BINDER:
			t->weight = 1;
			t->root = S_BINDER_EXEC;
			break;
		case KIND_RENDER:
			t->weight = 3;
			t->root = S_HWR_SYNC;
			break;
		}
		t->stack = xcalloc(t->base_len + g->maxdepth + 1,
		                   sizeof(*t->stack));
		t->nkids = xcalloc(t->base_len + g->maxdepth + 1,
		                   sizeof(*t->nkids));
		g->weight_total += t->weight;
	}
}

/* ------------------------------------------------------------------ */
/* Writing                                                            */
/* ------------------------------------------------------------------ */

/* A V2 record waiting in its thread's buffer. */
struct v2_rec {
	uint64_t word; /* method id | action */
	uint64_t cpu;
	uint64_t wall;
};

/* A V2 thread's buffer and the state its last block ended in. */
struct v2_thread {
	uint64_t tid;
	struct v2_rec *pend;
	size_t npend, cap;
	uint64_t since; /* when its first pending record came */
	int has_block;
	uint64_t last_word, last_cpu, last_wall, last_count;
};

struct writer {
	struct spec *s;
	FILE *fp; /* where the binary part goes */
	char *fp_name;
	unsigned char *out; /* bytes for fp not yet handed to it */
	size_t nout;
	unsigned natural; /* bytes of a record's own fields */
	int two_times;    /* the record holds cpu and wall, not one time */
	unsigned size;    /* record size: the header's and the v1 stride */
	unsigned stride;  /* bytes written per record */
	unsigned char *rec;
	uint64_t nrecords;
	int any_wall;
	uint64_t min_wall;
	uint64_t max_wall;
	int summary_done;
	struct v2_thread *v2; /* V2: per-thread buffers */
	size_t nv2, v2_cap;
	struct idmap v2_map;
	uint64_t v2_seq;
};

/* True for the V2 layouts. */
static int
is_v2(const struct spec *s)
{
	return s->layout == LAYOUT_V2 || s->layout == LAYOUT_V2_STREAM;
}

static void v2_buffer(struct writer *w, struct thread_def *t,
                      struct method_def *m, uint64_t tid, uint64_t word,
                      uint64_t cpu, uint64_t wall);

/* The size of the writer's buffer: records are a few bytes each, and a
 * stdio call per record costs more than making it. */
#define OUT_SIZE 65536

/* Hand the buffered bytes of the binary part to its file. */
static void
w_flush(struct writer *w)
{
	if (w->nout && fwrite(w->out, 1, w->nout, w->fp) != w->nout)
		die("%s: %s", w->fp_name, strerror(errno));
	w->nout = 0;
}

/* Write N bytes of the binary part. */
static void
w_bytes(struct writer *w, const void *p, size_t n)
{
	if (!n)
		return;
	if (n > OUT_SIZE - w->nout)
		w_flush(w);
	if (n >= OUT_SIZE) {
		if (fwrite(p, 1, n, w->fp) != n)
			die("%s: %s", w->fp_name, strerror(errno));
		return;
	}
	memcpy(w->out + w->nout, p, n);
	w->nout += n;
}

/* Where a thread goes in a streaming trace. */
static unsigned
thread_where(const struct spec *s, const struct thread_def *t)
{
	return t->where ? t->where : s->thread_where;
}

/* Where a method goes in a streaming trace. */
static unsigned
method_where(const struct spec *s, const struct method_def *m)
{
	return m->where ? m->where : s->method_where;
}

/* Append the key line of method M (id and fields, then EOL) to B. */
static void
method_line(const struct spec *s, const struct method_def *m, const char *eol,
            struct buf *b)
{
	size_t i;

	if (m->id_text) {
		buf_adds(b, m->id_text);
	} else {
		char *id = format_id(
		        m->id, m->id_style < 0 ? s->id_style
		                               : (enum id_style)m->id_style);

		buf_adds(b, id);
		free(id);
	}
	for (i = 0; i < m->nfields; i++) {
		buf_addc(b, '\t');
		buf_adds(b, m->fields[i]);
	}
	buf_adds(b, eol);
}

/* Write the inline "new thread" packet of T. */
static void
write_thread_packet(struct writer *w, struct thread_def *t)
{
	unsigned char h[7];
	size_t len = strlen(t->name);

	if (len > 0xffff)
		die("thread %" PRIu64 ": name too long for a packet", t->tid);
	put_le(h, 0, 2);
	h[2] = 2;
	put_le(h + 3, t->tid, 2);
	put_le(h + 5, len, 2);
	w_bytes(w, h, sizeof(h));
	w_bytes(w, t->name, len);
	t->emitted = 1;
}

/* Write the inline "new method" packet of M. */
static void
write_method_packet(struct writer *w, struct method_def *m)
{
	struct buf line = {0};
	unsigned char h[5];

	method_line(w->s, m, "\n", &line);
	if (line.len > 0xffff)
		die("method 0x%" PRIx64 ": line too long for a packet", m->id);
	put_le(h, 0, 2);
	h[2] = 1;
	put_le(h + 3, line.len, 2);
	w_bytes(w, h, sizeof(h));
	w_bytes(w, line.p, line.len);
	free(line.p);
	m->emitted = 1;
}

/* Write one record of thread TID (definition T, may be NULL) for method
 * definition M (may be NULL); streaming writes the packets it needs. */
static void
emit_record(struct writer *w, struct thread_def *t, struct method_def *m,
            uint64_t tid, uint64_t word, uint64_t cpu, uint64_t wall)
{
	struct spec *s = w->s;
	unsigned char *r = w->rec;
	size_t p = 2;

	if (is_v2(s)) {
		v2_buffer(w, t, m, tid, word, cpu, wall);
		p = 0;
	} else if (s->layout == LAYOUT_STREAM) {
		if (t && (thread_where(s, t) & WHERE_INLINE) && !t->emitted)
			write_thread_packet(w, t);
		if (m && (method_where(s, m) & WHERE_INLINE) && !m->emitted)
			write_method_packet(w, m);
	}
	if (!p) {
		/* V2: buffered above */
	} else if (s->layout != LAYOUT_STREAM && s->version == 1) {
		r[0] = (unsigned char)tid;
		p = 1;
	} else {
		put_le(r, tid, 2);
	}
	if (p) {
		put_le(r + p, word, 4);
		p += 4;
		if (w->two_times) {
			put_le(r + p, cpu, 4);
			put_le(r + p + 4, wall, 4);
		} else {
			put_le(r + p, s->clock == CLOCK_WALL ? wall : cpu, 4);
		}
		w_bytes(w, r, w->stride);
	}
	w->nrecords++;
	if (!w->any_wall || wall < w->min_wall)
		w->min_wall = wall;
	if (!w->any_wall || wall > w->max_wall)
		w->max_wall = wall;
	w->any_wall = 1;
	if (m)
		m->used = 1;
	if (t) {
		t->has_time = 1;
		t->last_cpu = cpu;
		t->last_wall = wall;
	}
}

/* Append the key text (*version .. *end) to B; SUMMARY: a streaming
 * summary, listing only the threads and methods placed there.  The clock
 * line comes first unless a "property clock=..." line takes its place. */
static void
build_key(struct writer *w, struct buf *b, int summary)
{
	static const char *const clocks[] = {"dual", "wall", "thread-cpu"};
	struct spec *s = w->s;
	const char *eol = s->crlf ? "\r\n" : "\n";
	size_t i;

	buf_printf(b, "*version%s", eol);
	if (s->key_version)
		buf_printf(b, "%s%s", s->key_version, eol);
	else
		buf_printf(b, "%u%s", s->version, eol);
	for (i = 0; i < s->noptions; i++)
		if (!strncmp(s->options[i], "clock=", 6))
			break;
	if (s->clock != CLOCK_NONE && i == s->noptions)
		buf_printf(b, "clock=%s%s", clocks[s->clock], eol);
	for (i = 0; is_v2(s) && i < s->noptions; i++)
		if (!strncmp(s->options[i], "elapsed-time-", 13))
			break;
	if (is_v2(s) && i == s->noptions)
		buf_printf(b, "elapsed-time-%s=%" PRIu64 "%s",
		           s->v2_ns ? "nsec" : "usec",
		           w->any_wall ? w->max_wall - w->min_wall : 0, eol);
	for (i = 0; i < s->noptions; i++) {
		const char *o = s->options[i], *eq = strchr(o, '=');

		if (eq && !strcmp(eq + 1, "@records"))
			buf_printf(b, "%.*s=%" PRIu64 "%s", (int)(eq - o), o,
			           w->nrecords, eol);
		else if (eq && !strcmp(eq + 1, "@elapsed"))
			buf_printf(b, "%.*s=%" PRIu64 "%s", (int)(eq - o), o,
			           w->any_wall ? w->max_wall - w->min_wall : 0,
			           eol);
		else
			buf_printf(b, "%s%s", o, eol);
	}
	if (is_v2(s)) {
		if (!s->no_end)
			buf_printf(b, "*end%s", eol);
		return;
	}
	buf_printf(b, "*threads%s", eol);
	for (i = 0; i < s->nthreads; i++) {
		const struct thread_def *t = &s->threads[i];

		if (!summary || (thread_where(s, t) & WHERE_SUMMARY))
			buf_printf(b, "%" PRIu64 "\t%s%s", t->tid, t->name,
			           eol);
	}
	buf_printf(b, "*methods%s", eol);
	for (i = 0; i < s->nmethods; i++) {
		const struct method_def *m = &s->methods[i];

		if (m->generated && !m->used)
			continue;
		if (!summary || (method_where(s, m) & WHERE_SUMMARY))
			method_line(s, m, eol, b);
	}
	if (!s->no_end)
		buf_printf(b, "*end%s", eol);
}

/* Write the streaming summary packet (opcode 3). */
static void
write_summary(struct writer *w)
{
	struct buf key = {0};
	unsigned char h[7];

	build_key(w, &key, 1);
	if (is_v2(w->s)) {
		if (key.len > 0xffff)
			die("the summary is too long for a V2 packet");
		h[0] = 3;
		put_le(h + 1, key.len, 2);
		w_bytes(w, h, 3);
	} else {
		put_le(h, 0, 2);
		h[2] = 3;
		put_le(h + 3, key.len, 4);
		w_bytes(w, h, sizeof(h));
	}
	w_bytes(w, key.p, key.len);
	free(key.p);
	w->summary_done = 1;
}

/* Write the binary header (data-offset bytes of it). */
static void
write_header(struct writer *w)
{
	struct spec *s = w->s;
	size_t n = s->data_offset > 18 ? s->data_offset : 18;
	unsigned char *h = xcalloc(n, 1);
	unsigned version = s->version;

	if (is_v2(s)) {
		/* magic, version, u8 start time at 6, zeros; Perfetto's
		 * TSC rate at 22 */
		if (s->layout == LAYOUT_V2_STREAM)
			version |= 0xf0;
		put_le(h, s->ov_magic.set ? s->ov_magic.value : 0x574f4c53, 4);
		put_le(h + 4, s->ov_version.set ? s->ov_version.value : version,
		       2);
		put_le(h + 6,
		       s->ov_start.set ? s->ov_start.value : s->start_time, 8);
		put_le(h + 22, s->tsc_hz, 8);
		w_bytes(w, h, 32);
		free(h);
		return;
	}
	if (s->layout == LAYOUT_STREAM)
		version |= 0xf0;
	put_le(h, s->ov_magic.set ? s->ov_magic.value : 0x574f4c53, 4);
	put_le(h + 4, s->ov_version.set ? s->ov_version.value : version, 2);
	put_le(h + 6, s->ov_offset.set ? s->ov_offset.value : s->data_offset,
	       2);
	put_le(h + 8, s->ov_start.set ? s->ov_start.value : s->start_time, 8);
	if (s->ov_recsize.set)
		put_le(h + 16, s->ov_recsize.value, 2);
	else if (version >= 3)
		put_le(h + 16, w->size, 2);
	w_bytes(w, h, s->data_offset);
	free(h);
}

/* Append V as an unsigned LEB128 number. */
static void
buf_uleb(struct buf *b, uint64_t v)
{
	do {
		unsigned char byte = v & 0x7f;

		v >>= 7;
		buf_addc(b, v ? byte | 0x80 : byte);
	} while (v);
}

/* Append V, a two's complement 64-bit value, as a signed LEB128 number. */
static void
buf_sleb(struct buf *b, uint64_t v)
{
	for (;;) {
		unsigned char byte = v & 0x7f;

		v = v >> 7 | (v >> 63 ? ~(UINT64_MAX >> 7) : 0);
		if ((v == 0 && !(byte & 0x40)) ||
		    (v == UINT64_MAX && (byte & 0x40))) {
			buf_addc(b, byte);
			return;
		}
		buf_addc(b, byte | 0x80);
	}
}

/* Write the V2 thread-info packet of T: type 0, u4 tid, u2 length, name. */
static void
write_v2_thread_packet(struct writer *w, struct thread_def *t)
{
	unsigned char h[7];
	size_t len = strlen(t->name);

	if (len > 0xffff)
		die("thread %" PRIu64 ": name too long for a packet", t->tid);
	h[0] = 0;
	put_le(h + 1, t->tid, 4);
	put_le(h + 5, len, 2);
	w_bytes(w, h, sizeof(h));
	w_bytes(w, t->name, len);
	t->emitted = 1;
}

/* Write the V2 method-info packet of M: type 1, u8 id, u2 length, the
 * fields joined by tabs and a newline. */
static void
write_v2_method_packet(struct writer *w, struct method_def *m)
{
	struct buf text = {0};
	unsigned char h[11];
	size_t i;

	for (i = 0; i < m->nfields; i++) {
		if (i)
			buf_addc(&text, '\t');
		buf_adds(&text, m->fields[i]);
	}
	buf_addc(&text, '\n');
	if (text.len > 0xffff)
		die("method 0x%" PRIx64 ": line too long for a packet", m->id);
	h[0] = 1;
	put_le(h + 1, m->id, 8);
	put_le(h + 9, text.len, 2);
	w_bytes(w, h, sizeof(h));
	w_bytes(w, text.p, text.len);
	free(text.p);
	m->emitted = 1;
}

/* The V2 buffer of thread TID, made on first use. */
static struct v2_thread *
v2_thread_of(struct writer *w, uint64_t tid)
{
	struct v2_thread *t;
	size_t k;

	if (idmap_get(&w->v2_map, tid, &k))
		return &w->v2[k];
	w->v2 = grow(w->v2, &w->v2_cap, w->nv2 + 1, sizeof(*w->v2));
	t = &w->v2[w->nv2];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	idmap_put(&w->v2_map, tid, w->nv2);
	return &w->v2[w->nv2++];
}

/* The one time a single-clock record carries: wall for clock wall, else
 * the cpu time (as in V1). */
static uint64_t
v2_single_time(const struct spec *s, const struct v2_rec *r)
{
	return s->clock == CLOCK_WALL ? r->wall : r->cpu;
}

/* Write T's buffered records as one entry block in the spec's block
 * layout; CONTINUED keeps the previous block's delta state and writes the
 * cumulative count (the final layout's split-flush quirk).  LINE is the
 * spec line asking for it, for errors. */
static void
v2_flush_thread(struct writer *w, struct v2_thread *t, int continued, int line)
{
	struct spec *s = w->s;
	int dual = s->version == 5;
	uint64_t pw = 0, pc = 0, pm = 0, count = t->npend;
	struct buf pay = {0};
	unsigned char h[25];
	size_t i = 0, hn = 5;

	if (!t->npend)
		return;
	if (continued) {
		if (s->block_layout != BLOCK_FINAL)
			die_line(s, line,
			         "flush ... continued needs "
			         "block-layout final");
		if (!t->has_block)
			die_line(s, line,
			         "flush ... continued: thread %" PRIu64
			         " has no block to continue",
			         t->tid);
		pm = t->last_word;
		pw = t->last_wall;
		pc = t->last_cpu;
		count += t->last_count;
	}
	h[0] = 2;
	put_le(h + 1, t->tid, 4);
	if (s->block_layout == BLOCK_DRAFT) {
		/* The first record in the header: cpu before wall. */
		const struct v2_rec *r = &t->pend[0];

		put_le(h + 5, r->word, 8);
		hn = 13;
		if (dual || s->clock != CLOCK_WALL) {
			put_le(h + hn, dual ? r->cpu : v2_single_time(s, r), 4);
			hn += 4;
		}
		if (dual || s->clock == CLOCK_WALL) {
			put_le(h + hn, r->wall, 4);
			hn += 4;
		}
		pm = r->word;
		pw = dual ? r->wall : v2_single_time(s, r);
		pc = r->cpu;
		i = 1;
	}
	for (; i < t->npend; i++) {
		const struct v2_rec *r = &t->pend[i];

		if (s->block_layout == BLOCK_PERFETTO) {
			/* time << 2 | action, [cpu], method on entries */
			uint64_t tv = (dual ? r->wall : v2_single_time(s, r))
			                      << 2 |
			              (r->word & 3);

			buf_sleb(&pay, tv - pw);
			pw = tv;
			if (dual) {
				buf_sleb(&pay, r->cpu - pc);
				pc = r->cpu;
			}
			if ((r->word & 3) == 0) {
				buf_sleb(&pay, (r->word & ~(uint64_t)3) - pm);
				pm = r->word & ~(uint64_t)3;
			}
			continue;
		}
		/* method | action, then wall, then cpu */
		buf_sleb(&pay, r->word - pm);
		pm = r->word;
		if (dual) {
			buf_uleb(&pay, r->wall - pw);
			buf_uleb(&pay, r->cpu - pc);
			pw = r->wall;
			pc = r->cpu;
		} else {
			buf_uleb(&pay, v2_single_time(s, r) - pw);
			pw = v2_single_time(s, r);
		}
	}
	if (s->block_layout == BLOCK_DRAFT) {
		/* Both u2 fields wrap, as the Android 15 writer's did. */
		put_le(h + hn, count - 1, 2);
		put_le(h + hn + 2, pay.len, 2);
		hn += 4;
	} else {
		if (count > 0xffffff)
			die("thread %" PRIu64 ": too many records for a block",
			    t->tid);
		put_le(h + 5, count, 3);
		put_le(h + 8, pay.len, 4);
		hn = 12;
	}
	w_bytes(w, h, hn);
	w_bytes(w, pay.p, pay.len);
	free(pay.p);
	t->has_block = 1;
	t->last_word = pm;
	t->last_wall = pw;
	t->last_cpu = pc;
	t->last_count = count;
	t->npend = 0;
}

/* qsort order of two V2 threads with records waiting: the one whose
 * first waiting record came first. */
static int
v2_older(const void *a, const void *b)
{
	const struct v2_thread *x = *(struct v2_thread *const *)a;
	const struct v2_thread *y = *(struct v2_thread *const *)b;

	return x->since < y->since ? -1 : x->since > y->since;
}

/* Flush every thread with buffered records, oldest first (flushing one
 * leaves the others' records and ages as they were). */
static void
v2_flush_all(struct writer *w, int line)
{
	struct v2_thread **wait = xcalloc(w->nv2, sizeof(*wait));
	size_t i, n = 0;

	for (i = 0; i < w->nv2; i++)
		if (w->v2[i].npend)
			wait[n++] = &w->v2[i];
	qsort(wait, n, sizeof(*wait), v2_older);
	for (i = 0; i < n; i++)
		v2_flush_thread(w, wait[i], 0, line);
	free(wait);
}

/* Buffer one V2 record, writing the info packets it needs first (as ART
 * does at a thread's first event and for a method's class). */
static void
v2_buffer(struct writer *w, struct thread_def *t, struct method_def *m,
          uint64_t tid, uint64_t word, uint64_t cpu, uint64_t wall)
{
	struct spec *s = w->s;
	struct v2_thread *vt;
	struct v2_rec *r;

	if (t && (thread_where(s, t) & WHERE_INLINE) && !t->emitted)
		write_v2_thread_packet(w, t);
	if (m && (method_where(s, m) & WHERE_INLINE) && !m->emitted)
		write_v2_method_packet(w, m);
	vt = v2_thread_of(w, tid);
	if (!vt->npend)
		vt->since = w->v2_seq++;
	vt->pend = grow(vt->pend, &vt->cap, vt->npend + 1, sizeof(*vt->pend));
	r = &vt->pend[vt->npend++];
	r->word = word;
	r->cpu = cpu;
	r->wall = wall;
	if (vt->npend >= s->block_records)
		v2_flush_thread(w, vt, 0, 0);
}

/* The generator's thread to run next, picked by weight. */
static size_t
gen_pick_thread(const struct gen *g, uint64_t *rng)
{
	uint32_t r = rng_below(rng, g->weight_total);
	size_t i;

	for (i = 0; i + 1 < g->nt; i++) {
		if (r < g->t[i].weight)
			return i;
		r -= g->t[i].weight;
	}
	return g->nt - 1;
}

/* The pick weight of the I-th callee of gen method CALLER: skeleton
 * methods mostly take their hot path, others spread out more. */
static uint32_t
callee_weight(uint32_t caller, uint32_t i)
{
	if (caller < S_COUNT)
		return i < 3 ? 8u >> i : 1;
	return i == 0 ? 3 : i == 1 ? 2 : 1;
}

/* A callee of gen method CALLER, the first ones the hottest. */
static uint32_t
gen_pick_callee(const struct gen *g, uint64_t *rng, uint32_t caller)
{
	const struct gen_method *gm = &g->m[caller];
	uint32_t total = 0, i, r;

	for (i = 0; i < gm->ncallees; i++)
		total += callee_weight(caller, i);
	r = rng_below(rng, total);
	for (i = 0; i < gm->ncallees; i++) {
		uint32_t wt = callee_weight(caller, i);

		if (r < wt)
			break;
		r -= wt;
	}
	return g->callees[gm->first + (i < gm->ncallees ? i : 0)];
}

/* Write generator G's records: a random walk over its call graph per
 * thread, threads taking turns, clocks increasing per thread. */
static void
gen_run(struct writer *w, struct gen *g)
{
	struct spec *s = w->s;
	uint64_t rng = g->seed ^ 0x6a09e667f3bcc909ULL, left;
	uint64_t wall = w->any_wall ? w->max_wall : 0;
	size_t i, cur = 0;

	for (i = 0; i < g->nt; i++) {
		struct thread_def *td = &s->threads[g->t[i].def];

		g->t[i].cpu = td->has_time ? td->last_cpu : 0;
		g->t[i].depth = 0;
		g->t[i].pending = 0;
		if (td->has_time && td->last_wall > wall)
			wall = td->last_wall;
	}
	for (left = g->records; left > 0; left--) {
		struct gen_thread *t;
		uint32_t mi, step, cpu_step, r;
		enum action act = ACT_ENTER;
		int startup = 0;

		if (g->nt > 1 && rng_below(&rng, g->switch_every) == 0) {
			cur = gen_pick_thread(g, &rng);
			wall += 2 + rng_below(&rng, 60);
		}
		t = &g->t[cur];
		if (t->depth < t->base_len) {
			mi = t->base[t->depth];
			startup = t->depth > 0;
		} else if (t->pending) {
			mi = t->stack[t->depth - 1];
			act = ACT_UNWIND;
			t->pending--;
		} else if (t->depth == t->base_len) {
			mi = t->base_len
			             ? gen_pick_callee(g, &rng,
			                               t->base[t->base_len - 1])
			             : t->root;
		} else {
			unsigned d = t->depth - t->base_len;
			uint32_t top = t->stack[t->depth - 1];
			uint32_t kids = t->nkids[t->depth - 1], p_enter;

			if (top >= S_VIEW_MEASURE && top <= S_DRAW_CHILD)
				p_enter = kids ? 150 : 800;
			else if (top < S_COUNT && g->m[top].layer == 0)
				p_enter = kids ? 150 : 950;
			else if (kids)
				p_enter = d < 30 ? 450 - 10 * d : 150;
			else
				p_enter = d < 40 ? 700 - 10 * d : 300;

			if (g->m[top].ncallees && d < g->maxdepth &&
			    rng_below(&rng, 1000) < p_enter) {
				mi = gen_pick_callee(g, &rng, top);
			} else {
				mi = top;
				act = ACT_EXIT;
				if (d >= 3 && rng_below(&rng, 1000) <
				                      g->unwind_permille) {
					uint32_t k = d - 1 < 4 ? d - 1 : 4;

					act = ACT_UNWIND;
					t->pending = 1 + rng_below(&rng, k - 1);
				}
			}
		}
		if (act == ACT_ENTER) {
			if (t->depth)
				t->nkids[t->depth - 1]++;
			t->nkids[t->depth] = 0;
			t->stack[t->depth++] = mi;
		} else {
			t->depth--;
		}

		step = 1 + rng_below(&rng, 4);
		r = rng_below(&rng, 1000);
		if (r < 25)
			step += 10 + rng_below(&rng, 300);
		else if (r < 28)
			step += 300 + rng_below(&rng, 3000);
		cpu_step = step - rng_below(&rng, step / 4 + 1);
		if (act == ACT_EXIT && g->m[mi].blocking) {
			step += 20 + rng_below(&rng, 800);
			cpu_step = 3 + rng_below(&rng, 20);
		}
		if (startup)
			step = cpu_step = 0;
		wall += step;
		t->cpu += cpu_step;
		{
			struct thread_def *td = &s->threads[t->def];
			struct method_def *md = &s->methods[g->m[mi].def];

			emit_record(w, td, md, td->tid,
			            (uint32_t)(md->id & ~(uint64_t)3) | act,
			            t->cpu, wall);
		}
	}
}

/* Write one spec item to the binary part. */
static void
write_item(struct writer *w, struct item *it)
{
	struct spec *s = w->s;
	size_t k;

	switch (it->kind) {
	case ITEM_EVENT: {
		struct thread_def *t = NULL;
		struct method_def *m = NULL;

		if (idmap_get(&s->thread_map, it->tid, &k))
			t = &s->threads[k];
		if (idmap_get(&s->method_map, it->u.ev.word & ~(uint64_t)3, &k))
			m = &s->methods[k];
		emit_record(w, t, m, it->tid, it->u.ev.word, it->u.ev.cpu,
		            it->u.ev.wall);
		break;
	}
	case ITEM_RAW:
		w_bytes(w, it->u.raw->p, it->u.raw->len);
		break;
	case ITEM_SUMMARY:
		write_summary(w);
		break;
	case ITEM_GENERATE:
		gen_run(w, it->u.gen);
		break;
	case ITEM_PACKET_THREAD:
		if (is_v2(s))
			write_v2_thread_packet(w, &s->threads[it->u.index]);
		else
			write_thread_packet(w, &s->threads[it->u.index]);
		break;
	case ITEM_PACKET_METHOD:
		if (is_v2(s))
			write_v2_method_packet(w, &s->methods[it->u.index]);
		else
			write_method_packet(w, &s->methods[it->u.index]);
		break;
	case ITEM_FLUSH:
		if (it->all)
			v2_flush_all(w, it->line);
		else
			v2_flush_thread(w, v2_thread_of(w, it->tid),
			                it->continued, it->line);
		break;
	}
}

/* OUT followed by SUFFIX, as a new string. */
static char *
path_with(const char *out, const char *suffix)
{
	struct buf b = {0};

	buf_adds(&b, out);
	buf_adds(&b, suffix);
	return buf_str(&b);
}

/* Open PATH for writing in binary mode, or die. */
static FILE *
open_out(const char *path)
{
	FILE *fp = fopen(path, "wb");
	size_t i;

	if (!fp)
		die("%s: %s", path, strerror(errno));
	for (i = 0; i < noutputs && strcmp(outputs[i], path); i++)
		;
	if (i == noutputs && noutputs < COUNT(outputs))
		outputs[noutputs++] = path;
	return fp;
}

/* Close FP (named PATH), dying on a write error. */
static void
close_out(FILE *fp, const char *path)
{
	if (ferror(fp) | fclose(fp))
		die("%s: write error", path);
}

/* Write the text TEXT (N bytes) to the new file PATH. */
static void
write_file(const char *path, const void *text, size_t n)
{
	FILE *fp = open_out(path);

	if (n && fwrite(text, 1, n, fp) != n)
		die("%s: %s", path, strerror(errno));
	close_out(fp, path);
}

/* Apply the pokes and truncations aimed at TARGET to the file PATH, whose
 * binary part starts at DATA_START. */
static void
apply_edits(struct spec *s, enum target target, const char *path,
            uint64_t data_start)
{
	struct buf file = {0};
	unsigned char chunk[65536];
	size_t i, n, any = 0;
	FILE *fp;

	for (i = 0; i < s->nedits; i++)
		any |= s->edits[i].target == target;
	if (!any)
		return;
	fp = fopen(path, "rb");
	if (!fp)
		die("%s: %s", path, strerror(errno));
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		buf_add(&file, chunk, n);
	if (ferror(fp))
		die("%s: read error", path);
	fclose(fp);
	for (i = 0; i < s->nedits; i++) {
		struct edit *e = &s->edits[i];
		uint64_t off = e->off;

		if (e->target != target)
			continue;
		if (e->base == BASE_DATA && e->before) {
			if (e->off > data_start)
				die_line(s, e->line,
				         "data-%" PRIu64 " is before the start "
				         "of the file",
				         e->off);
			off = data_start - e->off;
		} else if (e->base == BASE_DATA) {
			off += data_start;
		}
		if (e->base == BASE_END) {
			if (e->off > file.len)
				die_line(s, e->line,
				         "end-%" PRIu64 " is before the start "
				         "of the file (%zu bytes)",
				         e->off, file.len);
			off = file.len - e->off;
		}
		if (e->truncate) {
			if (off > file.len)
				die_line(s, e->line,
				         "truncate at %" PRIu64 " is past the "
				         "end of the file (%zu bytes)",
				         off, file.len);
			file.len = (size_t)off;
		} else {
			if (off > file.len || e->bytes.len > file.len - off)
				die_line(s, e->line,
				         "poke at %" PRIu64 " runs past the "
				         "end of the file (%zu bytes)",
				         off, file.len);
			memcpy(file.p + off, e->bytes.p, e->bytes.len);
		}
	}
	write_file(path, file.p, file.len);
	free(file.p);
}

/* Write everything the spec describes, with OUT as the base path. */
static void
write_trace(struct spec *s, const char *out)
{
	struct writer w;
	struct buf key = {0};
	char *data_path = NULL, *key_path = NULL, *sec_path = NULL;
	uint64_t data_start = 0;
	size_t i;

	memset(&w, 0, sizeof(w));
	w.s = s;
	/* The clock decides the fields, the version the size.  Dual-clock
	 * records that do not fit (versions 1 and 2) keep only time A.
	 * V2 records have no fixed size. */
	if (is_v2(s))
		w.size = 1;
	else if (s->layout == LAYOUT_STREAM)
		w.size = s->version == 3 ? 14 : 10;
	else
		w.size = s->version == 1 ? 9 : s->version == 2 ? 10 : 14;
	w.natural = (s->layout != LAYOUT_STREAM && s->version == 1) ? 1 : 2;
	w.natural += 4 + 4;
	w.two_times = s->clock == CLOCK_DUAL &&
	              (s->record_size_line ? s->record_size : w.size) >=
	                      w.natural + 4;
	if (w.two_times)
		w.natural += 4;
	if (s->record_size_line)
		w.size = s->record_size;
	if (is_v2(s))
		w.natural = w.size;
	if (w.size < w.natural)
		die_line(s, s->record_size_line,
		         "record-size %u is smaller than the %u bytes of a "
		         "record's fields (use \"header record-size\" to "
		         "write any value)",
		         w.size, w.natural);
	w.stride = s->stride_line ? s->stride : w.size;
	if (w.stride < w.natural)
		die_line(s, s->stride_line,
		         "stream-stride %u is smaller than the %u bytes of a "
		         "record's fields",
		         w.stride, w.natural);
	w.rec = xcalloc(w.stride, 1);
	w.out = xrealloc(NULL, OUT_SIZE);
	if (w.stride > w.size)
		memset(w.rec + w.size, s->stride_fill, w.stride - w.size);

	switch (s->layout) {
	case LAYOUT_V1:
		w.fp = tmpfile();
		w.fp_name = xstrdup("temporary file");
		if (!w.fp)
			die("cannot create a temporary file: %s",
			    strerror(errno));
		break;
	case LAYOUT_SPLIT:
		data_path = path_with(out, ".data");
		w.fp = open_out(data_path);
		w.fp_name = xstrdup(data_path);
		break;
	case LAYOUT_STREAM:
	case LAYOUT_V2:
	case LAYOUT_V2_STREAM:
		w.fp = open_out(out);
		w.fp_name = xstrdup(out);
		break;
	}
	write_header(&w);
	for (i = 0; i < s->nitems; i++)
		write_item(&w, &s->items[i]);
	if (is_v2(s)) {
		v2_flush_all(&w, 0);
		if (!s->no_summary && !s->has_summary_item)
			write_summary(&w);
	}
	if (s->layout == LAYOUT_STREAM && !s->sec_file && !s->no_summary &&
	    !s->has_summary_item)
		write_summary(&w);
	w_flush(&w);

	if (s->layout == LAYOUT_V1) {
		unsigned char chunk[65536];
		FILE *fp = open_out(out);
		size_t n;

		build_key(&w, &key, 0);
		data_start = key.len;
		if (key.len && fwrite(key.p, 1, key.len, fp) != key.len)
			die("%s: %s", out, strerror(errno));
		if (fflush(w.fp) || fseek(w.fp, 0, SEEK_SET))
			die("temporary file: %s", strerror(errno));
		while ((n = fread(chunk, 1, sizeof(chunk), w.fp)) > 0)
			if (fwrite(chunk, 1, n, fp) != n)
				die("%s: %s", out, strerror(errno));
		if (ferror(w.fp))
			die("temporary file: read error");
		fclose(w.fp);
		close_out(fp, out);
	} else {
		close_out(w.fp, w.fp_name);
	}
	if (s->layout == LAYOUT_SPLIT) {
		key_path = path_with(out, ".key");
		build_key(&w, &key, 0);
		write_file(key_path, key.p, key.len);
	}
	if (s->sec_file) {
		sec_path = path_with(out, ".sec");
		build_key(&w, &key, 1);
		write_file(sec_path, key.p, key.len);
	}

	apply_edits(s, TARGET_MAIN, data_path ? data_path : out, data_start);
	if (key_path)
		apply_edits(s, TARGET_KEY, key_path, 0);
	if (sec_path)
		apply_edits(s, TARGET_SEC, sec_path, 0);
	free(key.p);
	free(w.rec);
	free(w.out);
	for (i = 0; i < w.nv2; i++)
		free(w.v2[i].pend);
	free(w.v2);
	idmap_free(&w.v2_map);
	free(w.fp_name);
	free(data_path);
	free(key_path);
	free(sec_path);
}

/* ------------------------------------------------------------------ */
/* Parsing                                                            */
/* ------------------------------------------------------------------ */

/* A position in the spec line being parsed. */
struct cursor {
	struct spec *s;
	const char *line;
	size_t pos;
	char *tok; /* the last token (in the spec's tok buffer) or NULL */
};

/* The value of hex digit C, or -1. */
static int
hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The next token of the line, or NULL at its end or at a "#" comment.
 * "..." quotes (escapes \\ \" \t \n \r \xHH).  Valid until the next call. */
static const char *
next_token(struct cursor *c)
{
	const char *p = c->line + c->pos;
	struct buf *b = &c->s->tok;

	c->tok = NULL;
	b->len = 0;
	while (*p == ' ' || *p == '\t')
		p++;
	c->pos = (size_t)(p - c->line);
	if (!*p || *p == '#')
		return NULL;
	if (*p != '"') {
		size_t n = strcspn(p, " \t");

		buf_add(b, p, n);
		p += n;
	} else {
		for (p++; *p != '"'; p++) {
			int hi, lo;

			if (!*p)
				die_at(c->s, "unterminated quoted string");
			if (*p != '\\') {
				buf_addc(b, *p);
				continue;
			}
			switch (*++p) {
			case 'n':
				buf_addc(b, '\n');
				break;
			case 't':
				buf_addc(b, '\t');
				break;
			case 'r':
				buf_addc(b, '\r');
				break;
			case '\\':
			case '"':
				buf_addc(b, *p);
				break;
			case 'x':
				hi = hex_value((unsigned char)p[1]);
				lo = hi < 0 ? -1
				            : hex_value((unsigned char)p[2]);
				if (lo < 0 || (hi == 0 && lo == 0))
					die_at(c->s, "\\x needs two hex digits "
					             "(not 00)");
				buf_addc(b, hi * 16 + lo);
				p += 2;
				break;
			default:
				die_at(c->s,
				       "unknown escape '\\%c' in a quoted "
				       "string",
				       *p ? *p : ' ');
			}
		}
		p++;
		if (*p && *p != ' ' && *p != '\t')
			die_at(c->s, "text right after a closing quote");
	}
	c->pos = (size_t)(p - c->line);
	buf_add(b, "", 0);
	c->tok = (char *)b->p;
	return c->tok;
}

/* The rest of the line as one string, valid until the next token: a
 * quoted token, or the raw text with trailing blanks removed; "#" is not
 * a comment here. */
static const char *
rest_of_line(struct cursor *c)
{
	const char *p = c->line + c->pos, *end;
	struct buf *b = &c->s->tok;

	while (*p == ' ' || *p == '\t')
		p++;
	c->pos = (size_t)(p - c->line);
	if (*p == '"') {
		const char *r = next_token(c);

		for (p = c->line + c->pos; *p == ' ' || *p == '\t'; p++)
			;
		if (*p && *p != '#') {
			next_token(c);
			die_at(c->s, "unexpected '%s' after the quoted string",
			       c->tok);
		}
		return r;
	}
	end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	b->len = 0;
	buf_add(b, p, (size_t)(end - p));
	c->tok = (char *)b->p;
	c->pos = strlen(c->line);
	return c->tok;
}

/* Die unless the line has nothing more. */
static void
expect_end(struct cursor *c)
{
	if (next_token(c))
		die_at(c->s, "unexpected '%s'", c->tok);
}

/* Parse T as a decimal or 0x-hex number into *V; returns 0 if it is not. */
static int
parse_u64(const char *t, uint64_t *v)
{
	uint64_t x = 0, base = 10;
	const char *p = t;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	if (!*p)
		return 0;
	for (; *p; p++) {
		int d = hex_value((unsigned char)*p);

		if (d < 0 || (uint64_t)d >= base)
			return 0;
		if (x > (UINT64_MAX - (uint64_t)d) / base)
			return 0;
		x = x * base + (uint64_t)d;
	}
	*v = x;
	return 1;
}

/* Parse the number token T (named WHAT in errors), at most MAX. */
static uint64_t
number(struct cursor *c, const char *t, const char *what, uint64_t max)
{
	uint64_t v;

	if (!t)
		die_at(c->s, "missing %s", what);
	if (!parse_u64(t, &v))
		die_at(c->s, "%s: '%s' is not a number (decimal or 0x hex)",
		       what, t);
	if (v > max)
		die_at(c->s, "%s %s is larger than %" PRIu64, what, t, max);
	return v;
}

/* Read the next token as a number named WHAT, at most MAX. */
static uint64_t
need_number(struct cursor *c, const char *what, uint64_t max)
{
	return number(c, next_token(c), what, max);
}

/* Read the next token, which must be one of the NULL-terminated WORDS;
 * returns its index. */
static int
need_word(struct cursor *c, const char *what, const char *const *words)
{
	const char *t = next_token(c);
	struct buf list = {0};
	int i;

	for (i = 0; t && words[i]; i++)
		if (!strcmp(t, words[i]))
			return i;
	for (i = 0; words[i]; i++)
		buf_printf(&list, "%s%s", i ? ", " : "", words[i]);
	if (!t)
		die_at(c->s, "missing %s (one of %s)", what, buf_str(&list));
	die_at(c->s, "unknown %s '%s' (one of %s)", what, t, buf_str(&list));
	return -1;
}

/* Append the bytes of hex tokens ("4c 4f", "4c4f") up to the line's end. */
static void
hex_bytes(struct cursor *c, struct buf *b)
{
	const char *t;

	while ((t = next_token(c))) {
		size_t i, n = strlen(t);

		if (n % 2)
			die_at(c->s,
			       "'%s': hex bytes need an even number of "
			       "digits",
			       t);
		for (i = 0; i < n; i += 2) {
			int hi = hex_value((unsigned char)t[i]);
			int lo = hex_value((unsigned char)t[i + 1]);

			if (hi < 0 || lo < 0)
				die_at(c->s, "'%s' is not hex bytes", t);
			buf_addc(b, hi * 16 + lo);
		}
	}
	if (!b->len)
		die_at(c->s, "missing hex bytes");
}

/*
 * Directive handlers, each called with the cursor after its keyword.
 */

/* "format v1|split|stream|v2|v2-stream": the layout. */
static void
d_format(struct cursor *c)
{
	static const char *const w[] = {"v1", "split",     "stream",
	                                "v2", "v2-stream", NULL};

	c->s->layout = (enum layout)need_word(c, "format", w);
	c->s->layout_line = c->s->lineno;
	expect_end(c);
}

/* "sec-file": streaming with the key in OUT.sec, no summary packet. */
static void
d_sec_file(struct cursor *c)
{
	c->s->sec_file = 1;
	expect_end(c);
}

/* "no-summary": streaming cut off before its summary packet. */
static void
d_no_summary(struct cursor *c)
{
	c->s->no_summary = 1;
	expect_end(c);
}

/* "version 1|2|3|4|5": the version, hence the usual record size (V1) or
 * the number of clocks (V2: 4 one, 5 two). */
static void
d_version(struct cursor *c)
{
	c->s->version = (unsigned)need_number(c, "version", 5);
	if (!c->s->version)
		die_at(c->s, "version must be 1 to 5 (use \"header "
		             "version\" to write any value)");
	c->s->version_set = c->s->lineno;
	expect_end(c);
}

/* "clock dual|wall|thread-cpu|none": the clock line and time fields. */
static void
d_clock(struct cursor *c)
{
	static const char *const w[] = {"dual", "wall", "thread-cpu", "none",
	                                NULL};

	c->s->clock = (enum clock)need_word(c, "clock", w);
	expect_end(c);
}

/* "record-size N": header record size and bytes per record. */
static void
d_record_size(struct cursor *c)
{
	c->s->record_size = (unsigned)need_number(c, "record size", 0xffff);
	c->s->record_size_line = c->s->lineno;
	expect_end(c);
}

/* "data-offset N": header offset field and where records start. */
static void
d_data_offset(struct cursor *c)
{
	c->s->data_offset = (unsigned)need_number(c, "data offset", 0xffff);
	c->s->data_offset_line = c->s->lineno;
	expect_end(c);
}

/* "start-time N": the u8 header start time. */
static void
d_start_time(struct cursor *c)
{
	c->s->start_time = need_number(c, "start time", UINT64_MAX);
	expect_end(c);
}

/* "stream-stride N [FILL]": bytes written per streaming record. */
static void
d_stream_stride(struct cursor *c)
{
	const char *t;

	c->s->stride = (unsigned)need_number(c, "stride", 0xffff);
	c->s->stride_line = c->s->lineno;
	if ((t = next_token(c)))
		c->s->stride_fill =
		        (unsigned char)number(c, t, "fill byte", 0xff);
	expect_end(c);
}

/* "block-layout final|draft|perfetto": the V2 entry block encoding. */
static void
d_block_layout(struct cursor *c)
{
	static const char *const w[] = {"final", "draft", "perfetto", NULL};

	c->s->block_layout = (enum block_layout)need_word(c, "block layout", w);
	c->s->block_layout_line = c->s->lineno;
	expect_end(c);
}

/* "v2-units us|ns": the V2 summary's elapsed-time key. */
static void
d_v2_units(struct cursor *c)
{
	static const char *const w[] = {"us", "ns", NULL};

	c->s->v2_ns = need_word(c, "unit", w);
	expect_end(c);
}

/* "tsc-frequency N": the V2 header's u8 at offset 22. */
static void
d_tsc_frequency(struct cursor *c)
{
	c->s->tsc_hz = need_number(c, "frequency", UINT64_MAX);
	expect_end(c);
}

/* "block-records N": a V2 thread's records go out as a block at N. */
static void
d_block_records(struct cursor *c)
{
	c->s->block_records =
	        (unsigned)need_number(c, "block records", 0xffffff);
	if (!c->s->block_records)
		die_at(c->s, "block-records must be 1 or more");
	expect_end(c);
}

/* "flush [T [continued]]": write buffered V2 records as blocks now. */
static void
d_flush(struct cursor *c)
{
	struct item *it = add_item(c->s, ITEM_FLUSH);
	const char *t = next_token(c);

	it->all = !t;
	if (t) {
		it->tid = number(c, t, "thread id", UINT64_MAX);
		if ((t = next_token(c))) {
			if (strcmp(t, "continued"))
				die_at(c->s, "unexpected '%s' (continued?)", t);
			it->continued = 1;
		}
	}
	expect_end(c);
}

/* "header FIELD VALUE": force a header field, layout unchanged. */
static void
d_header(struct cursor *c)
{
	static const char *const w[] = {"magic",      "version",     "offset",
	                                "start-time", "record-size", NULL};
	static const uint64_t max[] = {UINT32_MAX, 0xffff, 0xffff, UINT64_MAX,
	                               0xffff};
	struct spec *s = c->s;
	struct override *o[5];
	int i;

	o[0] = &s->ov_magic;
	o[1] = &s->ov_version;
	o[2] = &s->ov_offset;
	o[3] = &s->ov_start;
	o[4] = &s->ov_recsize;
	i = need_word(c, "header field", w);
	o[i]->value = need_number(c, w[i], max[i]);
	o[i]->set = 1;
	expect_end(c);
}

/* "key-eol lf|crlf": line ends of the key text. */
static void
d_key_eol(struct cursor *c)
{
	static const char *const w[] = {"lf", "crlf", NULL};

	c->s->crlf = need_word(c, "line end", w);
	expect_end(c);
}

/* "key-version TEXT": the line after *version. */
static void
d_key_version(struct cursor *c)
{
	free(c->s->key_version);
	c->s->key_version = xstrdup(rest_of_line(c));
}

/* Add the key option line TEXT (owned). */
static void
add_option(struct spec *s, char *text)
{
	s->options = grow(s->options, &s->options_cap, s->noptions + 1,
	                  sizeof(*s->options));
	s->options[s->noptions++] = text;
}

/* "vm art|dalvik": the option line vm=... */
static void
d_vm(struct cursor *c)
{
	static const char *const w[] = {"art", "dalvik", NULL};
	struct buf b = {0};

	buf_printf(&b, "vm=%s", w[need_word(c, "vm", w)]);
	add_option(c->s, buf_str(&b));
	expect_end(c);
}

/* "property TEXT": an option line, written as is. */
static void
d_property(struct cursor *c)
{
	const char *text = rest_of_line(c);

	if (!*text)
		die_at(c->s, "property needs KEY=VALUE");
	add_option(c->s, xstrdup(text));
}

/* "no-end": leave out the *end line. */
static void
d_no_end(struct cursor *c)
{
	c->s->no_end = 1;
	expect_end(c);
}

static const char *const id_styles[] = {"0x", "bare", "alt", "pad8", NULL};
static const char *const placements[] = {"inline", "summary", "both", "none",
                                         NULL};

/* The WHERE_* bits of placement word I (an index in placements). */
static unsigned
placement_bits(int i)
{
	static const unsigned bits[] = {WHERE_INLINE, WHERE_SUMMARY,
	                                WHERE_INLINE | WHERE_SUMMARY, 4};

	return bits[i];
}

/* "id-style 0x|bare|alt|pad8": how method ids are written. */
static void
d_id_style(struct cursor *c)
{
	c->s->id_style = (enum id_style)need_word(c, "id style", id_styles);
	expect_end(c);
}

/* "stream-threads PLACE": where threads go by default. */
static void
d_stream_threads(struct cursor *c)
{
	c->s->thread_where =
	        placement_bits(need_word(c, "placement", placements));
	expect_end(c);
}

/* "stream-methods PLACE": where methods go by default. */
static void
d_stream_methods(struct cursor *c)
{
	c->s->method_where =
	        placement_bits(need_word(c, "placement", placements));
	expect_end(c);
}

/* The WHERE_* bits of placement option T (@inline ...), or 0. */
static unsigned
placement_option(const char *t)
{
	int i;

	if (!t || t[0] != '@')
		return 0;
	for (i = 0; placements[i]; i++)
		if (!strcmp(t + 1, placements[i]))
			return placement_bits(i);
	return 0;
}

/* "thread TID [@PLACE] NAME...": declare a thread. */
static void
d_thread(struct cursor *c)
{
	struct spec *s = c->s;
	uint64_t tid = need_number(c, "thread id", UINT64_MAX);
	unsigned where = 0, bits;
	size_t save;

	for (;;) {
		save = c->pos;
		bits = placement_option(next_token(c));
		if (!bits) {
			if (c->tok && c->tok[0] == '@')
				die_at(s,
				       "unknown thread option '%s' (quote "
				       "a name that starts with @)",
				       c->tok);
			c->pos = save;
			break;
		}
		where = bits;
	}
	add_thread(s, tid, rest_of_line(c), where);
}

/* "method ID [@OPTION...] FIELD...": declare a method. */
static void
d_method(struct cursor *c)
{
	struct spec *s = c->s;
	uint64_t id = need_number(c, "method id", UINT64_MAX);
	char *id_text = NULL;
	size_t nfields = 0;
	unsigned where = 0, bits;
	int style = -1, k;
	const char *t;

	while ((t = next_token(c))) {
		if (nfields == 0 && t[0] == '@') {
			if ((bits = placement_option(t))) {
				where = bits;
				continue;
			}
			if (!strncmp(t, "@id=", 4)) {
				free(id_text);
				id_text = xstrdup(t + 4);
				continue;
			}
			for (k = 0; id_styles[k]; k++)
				if (!strcmp(t + 1, id_styles[k]))
					break;
			if (!id_styles[k])
				die_at(s,
				       "unknown method option '%s' (quote a "
				       "field that starts with @)",
				       t);
			style = k;
			continue;
		}
		s->scratch = grow(s->scratch, &s->scratch_cap, nfields + 1,
		                  sizeof(*s->scratch));
		s->scratch[nfields++] = arena_strdup(&s->strings, t);
	}
	k = (int)add_method(s, id, id_text, style, s->scratch, nfields, where);
	s->methods[k].line = s->lineno;
}

/* The action named T, or -1. */
static int
action_word(const char *t)
{
	static const char *const w[] = {"enter", "exit", "unwind", "action3",
	                                NULL};
	int i;

	for (i = 0; t && w[i]; i++)
		if (!strcmp(t, w[i]))
			return i;
	return -1;
}

/* Append an event record item. */
static void
add_event(struct spec *s, uint64_t tid, uint64_t word, uint64_t cpu,
          uint64_t wall)
{
	struct item *it = add_item(s, ITEM_EVENT);

	it->tid = tid;
	it->u.ev.word = word;
	it->u.ev.cpu = cpu;
	it->u.ev.wall = wall;
}

/* Read a method id for a record: a multiple of 4 unless RAW. */
static uint64_t
record_method(struct cursor *c, int raw)
{
	uint64_t id =
	        need_number(c, raw ? "method word" : "method id", UINT64_MAX);

	if (!raw && (id & 3))
		die_at(c->s,
		       "method id 0x%" PRIx64 " has its low two bits set "
		       "(use \"raw\" to write any method word)",
		       id);
	return id;
}

/* "T ACTION M CPU WALL" or "T ACTION M TIME"; T (TID) was already
 * read. */
static void
d_event(struct cursor *c, uint64_t tid)
{
	struct spec *s = c->s;
	const char *t = next_token(c);
	int act = action_word(t), raw = t && !strcmp(t, "raw");
	uint64_t word;
	uint64_t cpu, wall;

	if (!t)
		die_at(s, "missing action after the thread id");
	if (act < 0 && !raw)
		die_at(s,
		       "unknown action '%s' (enter, exit, unwind, action3, "
		       "raw)",
		       t);
	word = record_method(c, raw);
	if (!raw)
		word |= (uint64_t)act;
	cpu = need_number(c, "time", UINT64_MAX);
	t = next_token(c);
	wall = t ? number(c, t, "wall time", UINT64_MAX) : cpu;
	expect_end(c);
	add_event(s, tid, word, cpu, wall);
}

/* "call T M CPU0 WALL0 CPU1 WALL1 [unwind|action3] [{]", or with one time
 * per end ("call T M T0 T1"); "-" for the end times leaves it open. */
static void
d_call(struct cursor *c)
{
	struct spec *s = c->s;
	uint64_t tid = need_number(c, "thread id", UINT64_MAX), v[4];
	uint64_t id = record_method(c, 0);
	int n = 0, dash = 0, act = ACT_EXIT, open = 0;
	const char *t;

	while ((t = next_token(c))) {
		if (!strcmp(t, "{")) {
			open = 1;
			break;
		}
		if (!strcmp(t, "unwind") || !strcmp(t, "action3") ||
		    !strcmp(t, "exit")) {
			act = action_word(t);
			continue;
		}
		if (n == 4)
			die_at(s, "too many times after 'call'");
		if (!strcmp(t, "-")) {
			if (n == 0)
				die_at(s, "the entry time cannot be '-'");
			dash++;
			v[n++] = 0;
			continue;
		}
		v[n++] = number(c, t, "time", UINT64_MAX);
	}
	expect_end(c);
	if (n != 2 && n != 4)
		die_at(s,
		       "call needs 2 times (entry exit) or 4 (entry cpu "
		       "wall, exit cpu wall), got %d",
		       n);
	if (n == 2) {
		v[3] = v[1];
		v[2] = v[1];
		v[1] = v[0];
	}
	if (dash && dash != n / 2)
		die_at(s, "use '-' for every exit time or for none");
	add_event(s, tid, id, v[0], v[1]);
	if (open) {
		struct block *b;

		s->blocks = grow(s->blocks, &s->blocks_cap, s->nblocks + 1,
		                 sizeof(*s->blocks));
		b = &s->blocks[s->nblocks++];
		memset(b, 0, sizeof(*b));
		b->line = s->lineno;
		b->has_exit = !dash;
		b->exit.kind = ITEM_EVENT;
		b->exit.tid = tid;
		b->exit.u.ev.word = id | (uint64_t)act;
		b->exit.u.ev.cpu = v[2];
		b->exit.u.ev.wall = v[3];
	} else if (!dash) {
		add_event(s, tid, id | (uint64_t)act, v[2], v[3]);
	}
}

/* "}": write the exit of the innermost open call block. */
static void
d_close(struct cursor *c)
{
	struct spec *s = c->s;
	struct block *b;

	expect_end(c);
	if (!s->nblocks)
		die_at(s, "'}' without an open 'call ... {'");
	b = &s->blocks[--s->nblocks];
	if (b->has_exit)
		add_event(s, b->exit.tid, b->exit.u.ev.word, b->exit.u.ev.cpu,
		          b->exit.u.ev.wall);
}

/* "packet thread TID" or "packet method ID": write a packet here. */
static void
d_packet(struct cursor *c)
{
	static const char *const w[] = {"thread", "method", NULL};
	struct spec *s = c->s;
	int kind = need_word(c, "packet kind", w);
	uint64_t id =
	        need_number(c, kind ? "method id" : "thread id", UINT64_MAX);
	struct item *it;
	size_t k;

	expect_end(c);
	if (!idmap_get(kind ? &s->method_map : &s->thread_map, id, &k))
		die_at(s, "packet: %s %" PRIu64 " is not declared above",
		       w[kind], id);
	it = add_item(s, kind ? ITEM_PACKET_METHOD : ITEM_PACKET_THREAD);
	it->u.index = k;
}

/* "raw-hex HEX...": append raw bytes to the binary part here. */
static void
d_raw_hex(struct cursor *c)
{
	struct item *it = add_item(c->s, ITEM_RAW);

	it->u.raw = xcalloc(1, sizeof(*it->u.raw));
	hex_bytes(c, it->u.raw);
}

/* "summary": write the streaming summary packet here. */
static void
d_summary(struct cursor *c)
{
	expect_end(c);
	if (c->s->has_summary_item)
		die_at(c->s, "only one 'summary' per spec");
	c->s->has_summary_item = c->s->lineno;
	add_item(c->s, ITEM_SUMMARY);
}

/* "generate KEY=VALUE...": declare a generator and run it here. */
static void
d_generate(struct cursor *c)
{
	static const char *const keys[] = {
	        "threads",   "methods",      "records", "seed",
	        "maxdepth",  "switch",       "unwind",  "use-declared",
	        "first-tid", "first-method", NULL};
	struct spec *s = c->s;
	struct gen *g = xcalloc(1, sizeof(*g));
	int seen[10] = {0};
	const char *t;

	g->line = s->lineno;
	g->seed = 1;
	g->maxdepth = 32;
	g->switch_every = 40;
	g->unwind_permille = 1;
	while ((t = next_token(c))) {
		const char *eq = strchr(t, '=');
		size_t klen = eq ? (size_t)(eq - t) : strlen(t);
		int k;

		for (k = 0; keys[k]; k++)
			if (strlen(keys[k]) == klen &&
			    !strncmp(t, keys[k], klen))
				break;
		if (!keys[k] || !eq)
			die_at(s,
			       "generate: '%s' is not KEY=VALUE with KEY "
			       "one of threads, methods, records, seed, "
			       "maxdepth, switch, unwind, use-declared, "
			       "first-tid, first-method",
			       t);
		seen[k] = 1;
		switch (k) {
		case 0:
			g->nthreads = number(c, eq + 1, "threads", 100000);
			break;
		case 1:
			g->nmethods = number(c, eq + 1, "methods", 10000000);
			break;
		case 2:
			g->records = number(c, eq + 1, "records", UINT64_MAX);
			break;
		case 3:
			g->seed = number(c, eq + 1, "seed", UINT64_MAX);
			break;
		case 4:
			g->maxdepth =
			        (unsigned)number(c, eq + 1, "maxdepth", 100000);
			break;
		case 5:
			g->switch_every =
			        (unsigned)number(c, eq + 1, "switch", 1000000);
			break;
		case 6:
			g->unwind_permille =
			        (unsigned)number(c, eq + 1, "unwind", 1000);
			break;
		case 7:
			if (strcmp(eq + 1, "yes") && strcmp(eq + 1, "no"))
				die_at(s, "use-declared is yes or no");
			g->use_declared = !strcmp(eq + 1, "yes");
			break;
		case 8:
			g->first_tid =
			        number(c, eq + 1, "first-tid", UINT64_MAX);
			g->first_tid_set = 1;
			break;
		case 9:
			g->first_method =
			        number(c, eq + 1, "first-method", UINT32_MAX);
			g->first_method_set = 1;
			break;
		}
	}
	if (!seen[0] || !seen[1] || !seen[2])
		die_at(s, "generate needs threads=N methods=M records=R");
	if (g->maxdepth < 4)
		die_at(s, "generate needs maxdepth=4 or more");
	if (g->switch_every < 1)
		g->switch_every = 1;
	gen_prepare(s, g);
	add_item(s, ITEM_GENERATE)->u.gen = g;
}

/* Read an optional file target (key, sec) for poke and truncate. */
static enum target
edit_target(struct cursor *c)
{
	size_t save = c->pos;
	const char *t = next_token(c);

	if (t && !strcmp(t, "key"))
		return TARGET_KEY;
	if (t && !strcmp(t, "sec"))
		return TARGET_SEC;
	c->pos = save;
	return TARGET_MAIN;
}

/* Read an offset: N, data+N, data-N or end-N, into E. */
static void
edit_offset(struct cursor *c, struct edit *e)
{
	const char *t = next_token(c);

	e->base = BASE_ABS;
	if (t && (!strncmp(t, "data+", 5) || !strncmp(t, "data-", 5))) {
		e->base = BASE_DATA;
		e->before = t[4] == '-';
		t += 5;
	} else if (t && !strncmp(t, "end-", 4)) {
		e->base = BASE_END;
		t += 4;
	}
	e->off = number(c, t, "offset", UINT64_MAX);
}

/* Append an edit for the current line and return it. */
static struct edit *
add_edit(struct spec *s)
{
	struct edit *e;

	s->edits =
	        grow(s->edits, &s->edits_cap, s->nedits + 1, sizeof(*s->edits));
	e = &s->edits[s->nedits++];
	memset(e, 0, sizeof(*e));
	e->line = s->lineno;
	return e;
}

/* "truncate [key|sec] OFF": cut a written file. */
static void
d_truncate(struct cursor *c)
{
	struct edit *e = add_edit(c->s);

	e->target = edit_target(c);
	e->truncate = 1;
	edit_offset(c, e);
	expect_end(c);
}

/* "poke [key|sec] OFF HEX...": overwrite bytes of a written file. */
static void
d_poke(struct cursor *c)
{
	struct edit *e = add_edit(c->s);

	e->target = edit_target(c);
	edit_offset(c, e);
	hex_bytes(c, &e->bytes);
}

static const struct directive {
	const char *name;
	void (*parse)(struct cursor *c);
} directives[] = {
        {"format", d_format},
        {"sec-file", d_sec_file},
        {"no-summary", d_no_summary},
        {"version", d_version},
        {"clock", d_clock},
        {"record-size", d_record_size},
        {"data-offset", d_data_offset},
        {"start-time", d_start_time},
        {"stream-stride", d_stream_stride},
        {"header", d_header},
        {"block-layout", d_block_layout},
        {"v2-units", d_v2_units},
        {"tsc-frequency", d_tsc_frequency},
        {"block-records", d_block_records},
        {"flush", d_flush},
        {"key-eol", d_key_eol},
        {"key-version", d_key_version},
        {"vm", d_vm},
        {"property", d_property},
        {"no-end", d_no_end},
        {"id-style", d_id_style},
        {"stream-threads", d_stream_threads},
        {"stream-methods", d_stream_methods},
        {"thread", d_thread},
        {"method", d_method},
        {"call", d_call},
        {"}", d_close},
        {"packet", d_packet},
        {"raw-hex", d_raw_hex},
        {"summary", d_summary},
        {"generate", d_generate},
        {"truncate", d_truncate},
        {"poke", d_poke},
};

/* Parse one spec line. */
static void
parse_line(struct spec *s, const char *line)
{
	struct cursor c;
	const char *kw;
	size_t i;

	c.s = s;
	c.line = line;
	c.pos = 0;
	c.tok = NULL;
	kw = next_token(&c);
	if (!kw)
		return;
	if (kw[0] >= '0' && kw[0] <= '9') {
		d_event(&c, number(&c, kw, "thread id", UINT64_MAX));
	} else {
		for (i = 0; i < COUNT(directives); i++)
			if (directives[i].name[0] == kw[0] &&
			    !strcmp(kw, directives[i].name))
				break;
		if (i == COUNT(directives))
			die_at(s, "unknown directive '%s'", kw);
		directives[i].parse(&c);
	}
}

/* The spec file, read a chunk at a time. */
struct lines {
	FILE *fp;
	size_t pos, end; /* the unread bytes of chunk */
	unsigned char chunk[65536];
};

/* Read one line (without its \n or \r\n) into B; returns 0 at the end. */
static int
read_line(struct lines *r, struct buf *b)
{
	int newline = 0;

	b->len = 0;
	while (!newline) {
		const unsigned char *p = r->chunk + r->pos, *nl;

		if (r->pos == r->end) {
			r->pos = 0;
			r->end = fread(r->chunk, 1, sizeof(r->chunk), r->fp);
			if (!r->end)
				break;
			continue;
		}
		nl = memchr(p, '\n', r->end - r->pos);
		newline = nl != NULL;
		if (!nl)
			nl = r->chunk + r->end;
		buf_add(b, p, (size_t)(nl - p));
		r->pos = (size_t)(nl - r->chunk) + newline;
	}
	if (!newline && !b->len)
		return 0;
	if (b->len && b->p[b->len - 1] == '\r')
		b->len--;
	buf_addc(b, 0);
	b->len--;
	return 1;
}

/* Check what can only be checked once the whole spec is read. */
static void
finish_spec(struct spec *s)
{
	size_t i;

	if (s->nblocks)
		die_line(s, s->blocks[s->nblocks - 1].line,
		         "this 'call ... {' is never closed with '}'");
	if (s->sec_file && is_v2(s))
		die_line(s, s->layout_line, "sec-file needs format stream");
	if ((s->sec_file || s->no_summary) && !is_v2(s)) {
		if (s->layout_line && s->layout != LAYOUT_STREAM)
			die_line(s, s->layout_line,
			         "sec-file and no-summary need format stream, "
			         "v2 or v2-stream");
		s->layout = LAYOUT_STREAM;
	}
	if (!s->version_set && is_v2(s))
		s->version = s->clock == CLOCK_DUAL ? 5 : 4;
	else if (!s->version_set)
		s->version = s->clock == CLOCK_DUAL ? 3 : 2;
	if (is_v2(s) && s->version < 4)
		die_line(s, s->version_set, "V2 formats need version 4 or 5");
	if (!is_v2(s) && s->version > 3)
		die_line(s, s->version_set,
		         "versions 4 and 5 need format v2 or v2-stream");
	if (!is_v2(s) && s->block_layout_line)
		die_line(s, s->block_layout_line,
		         "block-layout needs format v2 or v2-stream");
	if (is_v2(s) && (s->record_size_line || s->data_offset_line ||
	                 s->ov_offset.set || s->ov_recsize.set))
		die_line(s,
		         s->record_size_line   ? s->record_size_line
		         : s->data_offset_line ? s->data_offset_line
		                               : s->layout_line,
		         "V2 has no record size or data offset fields");
	for (i = 0; !is_v2(s) && i < s->nmethods; i++)
		if (s->methods[i].id > UINT32_MAX)
			die_line(s, s->methods[i].line,
			         "V1 method ids must fit in 32 bits");
	for (i = 0; i < s->nitems; i++) {
		if (!is_v2(s) && s->items[i].kind == ITEM_EVENT &&
		    s->items[i].u.ev.word > UINT32_MAX)
			die_line(s, s->items[i].line,
			         "V1 method words must fit in 32 bits");
		if (!is_v2(s) && s->items[i].kind == ITEM_FLUSH)
			die_line(s, s->items[i].line,
			         "flush needs format v2 or v2-stream");
	}
	if (s->stride_line && s->layout != LAYOUT_STREAM)
		die_line(s, s->stride_line,
		         "stream-stride needs format stream");
	if (s->has_summary_item && ((s->layout != LAYOUT_STREAM && !is_v2(s)) ||
	                            s->sec_file || s->no_summary))
		die_line(s, s->has_summary_item,
		         "'summary' needs format stream, v2 or v2-stream "
		         "without sec-file or no-summary");
	for (i = 0; i < s->nitems; i++)
		if ((s->items[i].kind == ITEM_PACKET_THREAD ||
		     s->items[i].kind == ITEM_PACKET_METHOD) &&
		    s->layout != LAYOUT_STREAM && !is_v2(s))
			die_line(s, s->items[i].line,
			         "'packet' needs format stream, v2 or "
			         "v2-stream");
	for (i = 0; i < s->nedits; i++) {
		if (s->edits[i].target == TARGET_KEY &&
		    s->layout != LAYOUT_SPLIT)
			die_line(s, s->edits[i].line,
			         "the key file exists only with format split");
		if (s->edits[i].target == TARGET_SEC && !s->sec_file)
			die_line(s, s->edits[i].line,
			         "the .sec file exists only with sec-file");
	}
}

/* Free generator G. */
static void
gen_free(struct gen *g)
{
	size_t i;

	for (i = 0; i < g->nt; i++) {
		free(g->t[i].stack);
		free(g->t[i].nkids);
	}
	free(g->t);
	free(g->m);
	free(g->callees);
	free(g);
}

/* Free everything spec S holds. */
static void
spec_free(struct spec *s)
{
	size_t i;

	for (i = 0; i < s->nmethods; i++)
		free(s->methods[i].id_text);
	arena_free(&s->strings);
	free(s->tok.p);
	free(s->scratch);
	for (i = 0; i < s->noptions; i++)
		free(s->options[i]);
	for (i = 0; i < s->nitems; i++) {
		if (s->items[i].kind == ITEM_RAW) {
			free(s->items[i].u.raw->p);
			free(s->items[i].u.raw);
		}
		if (s->items[i].kind == ITEM_GENERATE)
			gen_free(s->items[i].u.gen);
	}
	for (i = 0; i < s->nedits; i++)
		free(s->edits[i].bytes.p);
	free(s->threads);
	free(s->methods);
	free(s->options);
	free(s->items);
	free(s->blocks);
	free(s->edits);
	free(s->key_version);
	idmap_free(&s->thread_map);
	idmap_free(&s->method_map);
}

/* Print the usage text to FP. */
static void
usage(FILE *fp)
{
	fputs("usage: mktrace SPEC OUT\n"
	      "Write the Android method trace described by the text file "
	      "SPEC to OUT\n"
	      "(split traces: OUT.key and OUT.data; sec-file: also OUT.sec).\n"
	      "SPEC \"-\" reads standard input.  The spec language is in "
	      "doc/FIXTURES.md.\n",
	      fp);
}

/* The spec, static so that it stays reachable when we exit on an error. */
static struct spec spec;

/* Parse the spec named by argv[1] and write the trace to argv[2]. */
int
main(int argc, char **argv)
{
	static struct lines in;
	struct buf line = {0};
	FILE *fp;

	if (argc == 2 &&
	    (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc != 3) {
		usage(stderr);
		return 1;
	}
	spec.layout = LAYOUT_V1;
	spec.clock = CLOCK_DUAL;
	spec.data_offset = 32;
	spec.block_records = 4096;
	spec.id_style = ID_0X;
	spec.thread_where = WHERE_INLINE;
	spec.method_where = WHERE_INLINE;
	if (!strcmp(argv[1], "-")) {
		spec.path = "<stdin>";
		fp = stdin;
	} else {
		spec.path = argv[1];
		fp = fopen(argv[1], "r");
		if (!fp)
			die("%s: %s", argv[1], strerror(errno));
	}
	in.fp = fp;
	while (read_line(&in, &line)) {
		spec.lineno++;
		parse_line(&spec, buf_str(&line));
	}
	if (ferror(fp))
		die("%s: read error", spec.path);
	if (fp != stdin)
		fclose(fp);
	free(line.p);
	finish_spec(&spec);
	write_trace(&spec, argv[2]);
	spec_free(&spec);
	return 0;
}
