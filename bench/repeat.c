/*
 * repeat: a real trace made big.  Reads a V1 one-file trace and writes
 * its records again and again until the output reaches BYTES, as a V1
 * one-file trace or as the streaming variant (0xF3) that Android Studio
 * saves, so that `make bench` times real-shaped traces of any size in
 * both forms with the same records.
 *
 *   repeat v1|stream BYTES IN OUT
 *
 * The records are balanced once before they are repeated: per thread,
 * an exit that meets an empty stack is dropped and the frames still open
 * at the end are closed at the thread's last times, so that one copy
 * neither closes the frames of the copy before it nor leaves its own
 * open.  Each copy's times follow the previous copy's (both clocks are
 * shifted by the span the copy covers), so every clock only moves on.
 *
 * The streaming output puts a thread packet for every thread of the key
 * first, a method packet just before the first record that names the
 * method (as ART does), and at the end a summary packet holding the key
 * with an empty *methods section (ART 8 to 13).  Only the C library is
 * used; nothing is shared with the readers in src/.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rec {
	uint16_t tid;
	uint32_t word;
	uint32_t a, b;
};

struct frames {
	uint32_t *ids;
	size_t depth, cap;
	uint32_t last_a, last_b;
	int seen;
};

static void
die(const char *msg)
{
	fprintf(stderr, "repeat: %s\n", msg);
	exit(1);
}

static void *
grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = need * 2 + 16;
	p = realloc(p, *cap * size);
	if (!p)
		die("out of memory");
	return p;
}

static uint32_t
u4(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void
put(FILE *f, const void *p, size_t n)
{
	if (fwrite(p, 1, n, f) != n)
		die("cannot write");
}

static void
put2(FILE *f, unsigned v)
{
	unsigned char b[2] = {(unsigned char)v, (unsigned char)(v >> 8)};

	put(f, b, 2);
}

static void
put4(FILE *f, uint32_t v)
{
	unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8),
	                      (unsigned char)(v >> 16),
	                      (unsigned char)(v >> 24)};

	put(f, b, 4);
}

/* The *methods line of each method id, for the streaming packets. */
struct method_line {
	uint32_t id;
	const char *text;
	size_t len;
	int written;
};

static int
by_id(const void *x, const void *y)
{
	const struct method_line *a = x, *b = y;

	return a->id < b->id ? -1 : a->id > b->id;
}

int
main(int argc, char **argv)
{
	static unsigned char buf[1 << 16];
	unsigned char *in = NULL, *hdr, *end_key;
	size_t len = 0, cap = 0, n, i, nrecs = 0, rcap = 0, nlines = 0;
	size_t lcap = 0, want, copies, done;
	struct method_line *lines = NULL;
	struct frames *fr;
	struct rec *recs = NULL;
	unsigned version, offset, size;
	uint32_t min_a = UINT32_MAX, max_a = 0, min_b = UINT32_MAX, max_b = 0;
	uint32_t span_a, span_b;
	const char *mp, *me;
	int stream;
	FILE *f;

	if (argc != 5 || (strcmp(argv[1], "v1") && strcmp(argv[1], "stream")))
		die("usage: repeat v1|stream BYTES IN OUT");
	stream = !strcmp(argv[1], "stream");
	want = strtoull(argv[2], NULL, 10);
	if (!(f = fopen(argv[3], "rb")))
		die("cannot open the input");
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		in = grow(in, &cap, len + n + 1, 1);
		memcpy(in + len, buf, n);
		len += n;
	}
	fclose(f);
	if (!in || !(end_key = memmem(in, len, "\n*end\n", 6)))
		die("not a V1 one-file trace");
	end_key += 6;
	hdr = end_key;
	if (len - (size_t)(hdr - in) < 18 || u4(hdr) != 0x574F4C53)
		die("no SLOW header after the key");
	version = hdr[4] | hdr[5] << 8;
	offset = hdr[6] | hdr[7] << 8;
	if (version != 3 || (size = hdr[16] | hdr[17] << 8) < 14)
		die("only dual-clock version 3 traces are repeated");

	/* Balance the records, per thread. */
	fr = calloc(65536, sizeof(*fr));
	if (!fr)
		die("out of memory");
	for (i = (size_t)(hdr - in) + offset; i + size <= len; i += size) {
		const unsigned char *p = in + i;
		struct rec r = {(uint16_t)(p[0] | p[1] << 8), u4(p + 2),
		                u4(p + 6), u4(p + 10)};
		struct frames *t = &fr[r.tid];

		if (r.tid == 0)
			continue; /* a streaming file cannot say thread 0 */
		if (r.word & 3) {
			if (!t->depth)
				continue;
			t->depth--;
		} else {
			t->ids = grow(t->ids, &t->cap, t->depth + 1,
			              sizeof(*t->ids));
			t->ids[t->depth++] = r.word;
		}
		t->last_a = r.a;
		t->last_b = r.b;
		t->seen = 1;
		recs = grow(recs, &rcap, nrecs + 1, sizeof(*recs));
		recs[nrecs++] = r;
	}
	for (n = 1; n < 65536; n++)
		while (fr[n].depth) {
			struct rec r = {(uint16_t)n,
			                fr[n].ids[--fr[n].depth] | 1,
			                fr[n].last_a, fr[n].last_b};

			recs = grow(recs, &rcap, nrecs + 1, sizeof(*recs));
			recs[nrecs++] = r;
		}
	if (!nrecs)
		die("no records");
	for (i = 0; i < nrecs; i++) {
		min_a = recs[i].a < min_a ? recs[i].a : min_a;
		max_a = recs[i].a > max_a ? recs[i].a : max_a;
		min_b = recs[i].b < min_b ? recs[i].b : min_b;
		max_b = recs[i].b > max_b ? recs[i].b : max_b;
	}
	span_a = max_a - min_a + 1;
	span_b = max_b - min_b + 1;

	/* The method lines of the key, for the packets. */
	mp = memmem(in, (size_t)(end_key - in), "\n*methods\n", 10);
	if (!mp)
		die("no *methods section");
	mp += 10;
	me = (const char *)end_key - 5; /* "*end\n" */
	while (mp < me) {
		const char *eol = memchr(mp, '\n', (size_t)(me - mp));
		size_t l = eol ? (size_t)(eol - mp) + 1 : (size_t)(me - mp);

		lines = grow(lines, &lcap, nlines + 1, sizeof(*lines));
		lines[nlines++] = (struct method_line){
		        (uint32_t)strtoul(mp, NULL, 16) & ~3u, mp, l, 0};
		mp += l;
	}
	qsort(lines, nlines, sizeof(*lines), by_id);

	copies = want / (nrecs * 14) + 1;
	if (!(f = fopen(argv[4], "wb")))
		die("cannot create the output");
	if (!stream)
		put(f, in, (size_t)(end_key - in));
	put4(f, 0x574F4C53);
	put2(f, stream ? 0xF3 : 3);
	put2(f, 32);
	put(f, hdr + 8, 8);
	put2(f, 14);
	put(f, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 14);
	if (stream) {
		const char *t, *te;

		t = memmem(in, (size_t)(end_key - in), "\n*threads\n", 10);
		te = memmem(in, (size_t)(end_key - in), "\n*methods\n", 10);
		for (t = t ? t + 10 : te; t && t < te;) {
			const char *eol = memchr(t, '\n', (size_t)(te - t) + 1);
			char *tab;
			unsigned long tid = strtoul(t, &tab, 10);
			size_t l = (size_t)(eol - tab) - 1;

			if (tid && tid < 65536 && *tab == '\t') {
				put2(f, 0);
				put(f, "\2", 1);
				put2(f, (unsigned)tid);
				put2(f, (unsigned)l);
				put(f, tab + 1, l);
			}
			t = eol + 1;
		}
	}
	for (done = 0; done < copies; done++) {
		uint32_t da = (uint32_t)(span_a * done);
		uint32_t db = (uint32_t)(span_b * done);

		for (i = 0; i < nrecs; i++) {
			const struct rec *r = &recs[i];

			if (stream && done == 0) {
				struct method_line key = {.id = r->word & ~3u};
				struct method_line *m =
				        bsearch(&key, lines, nlines,
				                sizeof(*lines), by_id);

				if (m && !m->written) {
					m->written = 1;
					put2(f, 0);
					put(f, "\1", 1);
					put2(f, (unsigned)m->len);
					put(f, m->text, m->len);
				}
			}
			put2(f, r->tid);
			put4(f, r->word);
			put4(f, r->a + da);
			put4(f, r->b + db);
		}
	}
	if (stream) {
		const char *m =
		        memmem(in, (size_t)(end_key - in), "\n*methods\n", 10) +
		        10;
		size_t head = (size_t)(m - (const char *)in);

		put2(f, 0);
		put(f, "\3", 1);
		put4(f, (uint32_t)(head + 5));
		put(f, in, head);
		put(f, "*end\n", 5);
	}
	if (fclose(f))
		die("cannot write");
	printf("%zu copies of %zu records\n", copies, nrecs);
	return 0;
}
