/*
 * identity: byte comparisons with the one substitution, no copies.
 */
#include "config.h"

#include "model/identity.h"

#include "util/hash.h"

#include <string.h>

static unsigned char
dotted(char c)
{
	return (unsigned char)(c == '/' ? '.' : c);
}

int
identity_class_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	size_t i, n = an < bn ? an : bn;

	for (i = 0; i < n; i++)
		if (dotted(a[i]) != dotted(b[i]))
			return dotted(a[i]) < dotted(b[i]) ? -1 : 1;
	return an < bn ? -1 : an > bn;
}

uint64_t
identity_class_hash(const char *s, size_t n)
{
	uint64_t h = HASH_SEED;
	size_t i;

	for (i = 0; i < n; i++)
		h = hash_byte(h, dotted(s[i]));
	return h;
}

int
identity_cmp(const struct tt_method *a, const struct tt_method *b)
{
	int c = identity_class_cmp(a->klass, strlen(a->klass), b->klass,
	                           strlen(b->klass));

	if (!c)
		c = strcmp(a->name, b->name);
	if (!c)
		c = strcmp(a->signature, b->signature);
	return c;
}
