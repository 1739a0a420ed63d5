/*
 * stream-ahead: a streaming file's records shown to a sink ahead of the
 * report, by a second walk on a thread of its own.  The reader must walk
 * the whole file (read/stream.c) before it can report anything: the
 * summary that names the clock is its last item, and the packets are
 * reported before the records.  Meanwhile a sink that sums the records
 * can start on the core the walk leaves idle, from the summary found at
 * the end (its clock, read before the walk, and the methods it numbers
 * first, read by this walk's thread) and the method packets as this
 * walk passes them; it checks what it assumed when the records come.
 */
#include "config.h"

#include "read/stream-walk.h"

#include "read/bytes.h"
#include "read/error.h"
#include "read/key.h"
#include "util/alloc.h"
#include "util/thread.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
	SUMMARY_MOST = 1 << 26, /* bytes of summary looked for at the end */
};

/* A method the summary defines, told to the sink ahead. */
static void
tell_method(void *ctx, const struct trace_method_def *def)
{
	const struct trace_sink *sink = ctx;

	sink->ahead_method(sink->ctx, def->id);
}

/* The length of the key text[0, len) up to its first section: its
 * version and options. */
static size_t
options_len(const unsigned char *text, size_t len)
{
	const unsigned char *p = memchr(text, '\n', len);

	while (p && (size_t)(p - text) + 1 < len && p[1] != '*')
		p = memchr(p + 1, '\n', len - (size_t)(p + 1 - text));
	return p ? (size_t)(p - text) + 1 : len;
}

/* The text of the summary packet that ends buf[0, len): false when the
 * file does not end with one.  Its text ends with its *end line, and is
 * looked for no further back than SUMMARY_MOST. */
static bool
summary_at_end(const unsigned char *buf, size_t len, size_t *text,
               size_t *text_len)
{
	static const char start[] = "*version", end[] = "*end";
	const size_t n = sizeof(start) - 1;
	size_t p, least = STREAM_HEADER + 7;

	p = len;
	while (p > least && (buf[p - 1] == '\n' || buf[p - 1] == '\r'))
		p--;
	if (p < least + n || memcmp(buf + p - 4, end, 4) != 0)
		return false;
	if (len - least > SUMMARY_MOST)
		least = len - SUMMARY_MOST;
	for (p = len - n; p >= least; p--) {
		const unsigned char *q = buf + p;

		if (*q == '*' && memcmp(q, start, n) == 0 && q[-7] == 0 &&
		    q[-6] == 0 && q[-5] == 3 && trace_u4(q - 4) == len - p) {
			*text = p;
			*text_len = len - p;
			return true;
		}
	}
	return false;
}

/* The summary's methods, then the second walk: items from the header
 * on, in file order, until the summary, a bad item, the sink's no or a
 * stop. */
static void *
ahead_main(void *arg)
{
	struct stream_ahead *a = arg;
	const struct trace_sink *sink = a->sink;
	struct trace_sink tell = {.ctx = (void *)sink, .method = tell_method};
	struct trace_key_info key;
	struct trace_error err = {0};
	struct walk_bytes *k = &a->k;
	size_t len = k->len, pos = STREAM_HEADER, records = 0;
	unsigned stride = a->shape.size;

	trace_key_parse(a->key, a->key_len, 0, &tell, &key, &err);
	trace_error_clear(&err);

	while (pos < len && len - pos >= 3 &&
	       !atomic_load_explicit(&a->stop, memory_order_relaxed)) {
		const unsigned char *q =
		        walk_at(k, pos, 7 < len - pos ? 7 : len - pos);
		size_t need;

		if (trace_u2(q)) {
			/* The records the window holds, up to a packet. */
			struct trace_records r = a->shape;
			const unsigned char *at;
			size_t room, lim, i = 0;

			if (stride > len - pos)
				break;
			at = walk_at(k, pos, stride);
			room = (k->fd < 0 ? len : k->end) - pos;
			lim = room / stride;
			while (i < lim && trace_u2(at + i * stride))
				i++;
			r.data = at;
			r.count = i;
			if (!sink->ahead_records(sink->ctx, &r, records))
				break;
			pos += i * stride;
			records += i;
			continue;
		}
		if (q[2] == 1 && len - pos >= 5) {
			const unsigned char *text;
			size_t tl;
			uint64_t id;

			need = 5 + trace_u2(q + 3);
			if (need > len - pos)
				break;
			text = walk_at(k, pos, need) + 5;
			tl = need - 5;
			while (tl &&
			       (text[tl - 1] == '\n' || text[tl - 1] == '\r'))
				tl--;
			if (trace_key_method_id(text, tl, &id))
				sink->ahead_method(sink->ctx, id);
		} else if (q[2] == 2 && len - pos >= 7) {
			need = 7 + trace_u2(q + 5);
			if (need > len - pos)
				break;
		} else {
			break; /* the summary, or what the walk stops at */
		}
		pos += need;
	}
	sink->ahead_end(sink->ctx);
	return NULL;
}

void
stream_ahead_start(struct stream_ahead *a, const unsigned char *buf, size_t len,
                   int fd, unsigned stride, unsigned version,
                   const unsigned char *sec, size_t sec_len,
                   const struct trace_sink *sink)
{
	const struct trace_sink quiet = {0};
	struct trace_key_info key = {0};
	struct trace_error err = {0};
	struct trace_ahead_info info = {0};
	size_t text = 0, text_len = sec_len;
	bool dual;

	memset(a, 0, sizeof(*a));
	if (!sink->ahead_begin ||
	    (!sec && !summary_at_end(buf, len, &text, &text_len)))
		return;
	a->key = sec ? sec : buf + text;
	a->key_len = text_len;
	/* Its clock now; its methods on the thread. */
	if (!trace_key_parse(a->key, options_len(a->key, a->key_len), 0, &quiet,
	                     &key, &err))
		goto out;
	if (!key.has_clock && version < 3)
		goto out; /* the clock is only assumed: not ahead */
	info.clock = key.has_clock ? key.clock : TRACE_CLOCK_DUAL;
	dual = info.clock == TRACE_CLOCK_DUAL;
	if (stride < (dual ? 14u : 10u))
		goto out; /* read in file order */
	info.size = stride;
	info.version = dual ? 3 : 2;
	info.total = len;
	if (!sink->ahead_begin(sink->ctx, &info))
		goto out;
	a->started = true;
	a->sink = sink;
	a->shape = (struct trace_records){.size = stride,
	                                  .version = info.version,
	                                  .clock = info.clock,
	                                  .total = len};
	a->k = (struct walk_bytes){buf, len, fd, NULL, 0, 0};
	if (fd >= 0)
		a->k.window = xmalloc(STREAM_WINDOW);
	atomic_init(&a->stop, false);
	a->running = util_thread_start(&a->thread, ahead_main, a);
	if (!a->running)
		sink->ahead_end(sink->ctx);
out:
	trace_error_clear(&err);
}

void
stream_ahead_stop(struct stream_ahead *a)
{
	if (a->started)
		atomic_store(&a->stop, true);
}

void
stream_ahead_finish(struct stream_ahead *a)
{
	if (!a->started)
		return;
	atomic_store(&a->stop, true);
	if (a->running)
		pthread_join(a->thread, NULL);
	free(a->k.window);
	a->started = a->running = false;
}
