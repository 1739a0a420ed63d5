/*
 * simpleperf: a simpleperf recording made big, and the floor of reading
 * one.  Only the C library is used; nothing is shared with the reader in
 * src/.
 *
 *   simpleperf repeat [--distinct] BYTES IN OUT
 *                                    IN's sample records again and again
 *                                    until OUT reaches BYTES, each copy's
 *                                    times after the previous copy's; its
 *                                    other records (the MetaInfo first,
 *                                    the tables last) once.  With
 *                                    --distinct, copy k's leaf entries
 *                                    have k << 32 added to their
 *                                    vaddr_in_file (symbol ids kept), so
 *                                    no callchain recurs across copies
 *                                    (within one, as often as in IN):
 *                                    rows stay those of IN but for
 *                                    leaves of unknown symbols, named
 *                                    by address, a row per copy
 *   simpleperf walk FILE             a bare walk of FILE's records: each
 *                                    size read and every byte summed;
 *                                    prints the records and the sum
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *
slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, got;

	*n = 0;
	if (!f) {
		perror(path);
		exit(1);
	}
	do {
		if (*n + 65536 > cap) {
			cap = cap ? cap * 2 : 1 << 20;
			buf = realloc(buf, cap);
			if (!buf)
				exit(5);
		}
		got = fread(buf + *n, 1, cap - *n, f);
		*n += got;
	} while (got);
	fclose(f);
	return buf;
}

static uint32_t
u4(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static int
varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	int shift = 0;

	*v = 0;
	while (*p < end && shift < 64) {
		unsigned char b = *(*p)++;

		*v |= (uint64_t)(b & 0x7F) << shift;
		if (!(b & 0x80))
			return 1;
		shift += 7;
	}
	return 0;
}

static size_t
put_varint(unsigned char *out, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		out[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (unsigned char)v;
	return n;
}

static int
walk(const char *path)
{
	size_t n, at = 12, records = 0;
	unsigned char *buf = slurp(path, &n);
	uint64_t sum = 0;

	while (at + 4 <= n) {
		uint32_t size = u4(buf + at);
		size_t i;

		if (!size || size > n - at - 4)
			break;
		for (i = 0; i < size; i++)
			sum += buf[at + 4 + i];
		records++;
		at += 4 + size;
	}
	printf("%zu records, sum %llu\n", records, (unsigned long long)sum);
	free(buf);
	return 0;
}

/* Entry bytes [e, eend) (a CallChainEntry) into out with its
 * vaddr_in_file (field 1, 0 when absent) plus bump, its other fields as
 * they were; returns the bytes written (at most the entry's + 11), or 0
 * for an entry it cannot read. */
static size_t
bumped_entry(const unsigned char *e, const unsigned char *eend, uint64_t bump,
             unsigned char *out)
{
	const unsigned char *p = e;
	uint64_t key, v, vaddr = 0;
	size_t n = 0;

	while (p < eend) {
		const unsigned char *f = p;

		if (!varint(&p, eend, &key) || (key & 7) != 0 ||
		    !varint(&p, eend, &v))
			return 0;
		if (key == 0x08) {
			vaddr = v;
			continue;
		}
		memcpy(out + 11 + n, f, (size_t)(p - f));
		n += (size_t)(p - f);
	}
	/* vaddr_in_file first, then the rest. */
	{
		unsigned char head[11];
		size_t hn = put_varint(head, 0x08);

		hn += put_varint(head + hn, vaddr + bump);
		memmove(out + hn, out + 11, n);
		memcpy(out, head, hn);
		return hn + n;
	}
}

/* Record rec (its Sample's bytes) with its time shifted by shift and,
 * when bump is not 0, its first callchain entry's (the leaf's)
 * vaddr_in_file plus bump, into out (room for rec's size + 64); returns
 * the bytes written, 0 for a record it leaves out. */
static size_t
shifted(const unsigned char *rec, size_t size, uint64_t shift, uint64_t bump,
        unsigned char *out, uint64_t *time)
{
	const unsigned char *p = rec, *end = rec + size, *s, *send;
	unsigned char head[32], *body = out + 32;
	uint64_t key, len, v;
	size_t nbody = 0, hn, ln;
	int leaf = bump != 0;

	/* Record: field 1 (sample), length-delimited. */
	if (!varint(&p, end, &key) || key != 0x0A || !varint(&p, end, &len) ||
	    len != (uint64_t)(end - p))
		return 0;
	s = p;
	send = end;
	*time = 0;
	/* The body from body + 16 on: room for the time field before it. */
	while (s < send) {
		const unsigned char *f = s;

		if (!varint(&s, send, &key))
			return 0;
		switch (key & 7) {
		case 0:
			if (!varint(&s, send, &v))
				return 0;
			if (key >> 3 == 1) {
				*time = v;
				continue;
			}
			break;
		case 1:
			s += 8;
			break;
		case 2:
			if (!varint(&s, send, &v) || v > (uint64_t)(send - s))
				return 0;
			if (key == 0x1A && leaf) {
				/* The leaf entry, its address moved. */
				unsigned char entry[64 + 11];
				size_t en;

				if (v > 64 ||
				    !(en = bumped_entry(s, s + v, bump, entry)))
					return 0;
				s += v;
				body[16 + nbody++] = 0x1A;
				nbody += put_varint(body + 16 + nbody, en);
				memcpy(body + 16 + nbody, entry, en);
				nbody += en;
				leaf = 0;
				continue;
			}
			s += v;
			break;
		case 5:
			s += 4;
			break;
		default:
			return 0;
		}
		if (s > send)
			return 0;
		memcpy(body + 16 + nbody, f, (size_t)(s - f));
		nbody += (size_t)(s - f);
	}
	/* The time field, then the rest. */
	hn = put_varint(head, 0x08);
	hn += put_varint(head + hn, *time + shift);
	memmove(body + hn, body + 16, nbody);
	memcpy(body, head, hn);
	nbody += hn;
	/* The size, the Record's key and length, the body. */
	ln = put_varint(head, nbody);
	len = 1 + ln + nbody;
	out[0] = (unsigned char)len;
	out[1] = (unsigned char)(len >> 8);
	out[2] = (unsigned char)(len >> 16);
	out[3] = (unsigned char)(len >> 24);
	out[4] = 0x0A;
	memcpy(out + 5, head, ln);
	memmove(out + 5 + ln, body, nbody);
	return (size_t)(4 + len);
}

static int
repeat(uint64_t bytes, const char *in, const char *outp, int distinct)
{
	size_t n, at = 12, first = 0, last = 0, written = 12;
	unsigned char *buf = slurp(in, &n), *tmp;
	uint64_t lo = UINT64_MAX, hi = 0, shift = 0, t, copy = 0;
	FILE *out = fopen(outp, "wb");

	if (!out || n < 12) {
		perror(outp);
		return 1;
	}
	fwrite(buf, 1, 12, out);
	/* Records before the first sample once, then the samples. */
	while (at + 4 <= n) {
		uint32_t size = u4(buf + at);

		if (!size || size > n - at - 4)
			break;
		if (buf[at + 4] == 0x0A) {
			if (!first)
				first = at;
			last = at + 4 + size;
		} else if (!first) {
			fwrite(buf + at, 1, 4 + size, out);
			written += 4 + size;
		}
		at += 4 + size;
	}
	if (!first) {
		fprintf(stderr, "%s: no samples\n", in);
		return 1;
	}
	tmp = malloc((1 << 20) + 64);
	while (written < bytes) {
		/* Copy k's leaf addresses k << 32 on (the file's are below
		 * 4 GB): no callchain of one copy is another's. */
		uint64_t bump = distinct ? copy << 32 : 0;

		for (at = first; at < last;) {
			uint32_t size = u4(buf + at);
			size_t w;

			if (buf[at + 4] == 0x0A && size < (1 << 20) &&
			    (w = shifted(buf + at + 4, size, shift, bump, tmp,
			                 &t))) {
				fwrite(tmp, 1, w, out);
				written += w;
				lo = t < lo ? t : lo;
				hi = t > hi ? t : hi;
			}
			at += 4 + size;
		}
		/* The next copy after this one, a millisecond apart. */
		shift += hi - lo + 1000000;
		copy++;
	}
	/* Records after the first sample that are no samples, once. */
	for (at = first; at + 4 <= n;) {
		uint32_t size = u4(buf + at);

		if (!size || size > n - at - 4)
			break;
		if (buf[at + 4] != 0x0A)
			fwrite(buf + at, 1, 4 + size, out);
		at += 4 + size;
	}
	fwrite("\0\0\0\0", 1, 4, out);
	free(tmp);
	free(buf);
	return fclose(out) != 0;
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "walk") == 0)
		return walk(argv[2]);
	if (argc == 5 && strcmp(argv[1], "repeat") == 0)
		return repeat(strtoull(argv[2], NULL, 10), argv[3], argv[4], 0);
	if (argc == 6 && strcmp(argv[1], "repeat") == 0 &&
	    strcmp(argv[2], "--distinct") == 0)
		return repeat(strtoull(argv[3], NULL, 10), argv[4], argv[5], 1);
	fprintf(stderr, "usage: simpleperf repeat [--distinct] BYTES IN OUT | "
	                "walk FILE\n");
	return 2;
}
