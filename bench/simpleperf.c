/*
 * simpleperf: a simpleperf recording made big, and the floor of reading
 * one.  Only the C library is used; nothing is shared with the reader in
 * src/.
 *
 *   simpleperf repeat BYTES IN OUT   IN's sample records again and again
 *                                    until OUT reaches BYTES, each copy's
 *                                    times after the previous copy's; its
 *                                    other records (the MetaInfo first,
 *                                    the tables last) once
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

/* Record rec (its Sample's bytes) with its time shifted by shift, into
 * out (room for rec's size + 24); returns the bytes written. */
static size_t
shifted(const unsigned char *rec, size_t size, uint64_t shift,
        unsigned char *out, uint64_t *time)
{
	const unsigned char *p = rec, *end = rec + size, *s, *send;
	unsigned char body[64], *o;
	uint64_t key, len, v;
	size_t nbody = 0, total;

	/* Record: field 1 (sample), length-delimited. */
	if (!varint(&p, end, &key) || key != 0x0A || !varint(&p, end, &len) ||
	    len != (uint64_t)(end - p))
		return 0;
	s = p;
	send = end;
	*time = 0;
	o = out + 4 + 1 + 5;
	/* The time first, then every other field as it was. */
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
			s += v;
			break;
		case 5:
			s += 4;
			break;
		default:
			return 0;
		}
		memcpy(o + nbody + 16, f, (size_t)(s - f));
		nbody += (size_t)(s - f);
	}
	/* time field, then the rest */
	{
		size_t tn = put_varint(body, 0x08);

		tn += put_varint(body + tn, *time + shift);
		memmove(o + tn, o + 16, nbody);
		memcpy(o, body, tn);
		nbody += tn;
	}
	total = 1 + put_varint(body, nbody) + nbody;
	/* size, key, length, body */
	out[0] = (unsigned char)total;
	out[1] = (unsigned char)(total >> 8);
	out[2] = (unsigned char)(total >> 16);
	out[3] = (unsigned char)(total >> 24);
	out[4] = 0x0A;
	{
		size_t ln = put_varint(out + 5, nbody);

		memmove(out + 5 + ln, o, nbody);
	}
	return 4 + total;
}

static int
repeat(uint64_t bytes, const char *in, const char *outp)
{
	size_t n, at = 12, first = 0, last = 0, written = 12;
	unsigned char *buf = slurp(in, &n), *tmp;
	uint64_t lo = UINT64_MAX, hi = 0, shift = 0, t;
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
	tmp = malloc(1 << 20);
	while (written < bytes) {
		for (at = first; at < last;) {
			uint32_t size = u4(buf + at);
			size_t w;

			if (buf[at + 4] == 0x0A && size + 32 < (1 << 20) &&
			    (w = shifted(buf + at + 4, size, shift, tmp, &t))) {
				fwrite(tmp, 1, w, out);
				written += w;
				lo = t < lo ? t : lo;
				hi = t > hi ? t : hi;
			}
			at += 4 + size;
		}
		/* The next copy after this one, a millisecond apart. */
		shift += hi - lo + 1000000;
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
		return repeat(strtoull(argv[2], NULL, 10), argv[3], argv[4]);
	fprintf(stderr, "usage: simpleperf repeat BYTES IN OUT | walk FILE\n");
	return 2;
}
