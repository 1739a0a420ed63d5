/*
 * pattern: the limits are checked on one pass over the pattern as an
 * extended regular expression: bracket expressions and escaped
 * characters are one atom each, a group's size is its atoms', and an
 * interval {m,n} multiplies the atom before it by n (by m + 1 for
 * {m,}), as regcomp copies it.  A pattern regcomp would refuse anyway
 * may be misjudged here; regcomp then says why.
 */
#include "config.h"

#include "util/pattern.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The end of the bracket expression that starts at p (after its '['):
 * the closing ']', or the string's end. */
static const char *
bracket_end(const char *p)
{
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	while (*p && *p != ']') {
		if (p[0] == '[' &&
		    (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
			char close = p[1];

			for (p += 2; *p && !(p[0] == close && p[1] == ']'); p++)
				;
			if (*p)
				p += 2;
			continue;
		}
		p++;
	}
	return p;
}

/* The interval at p (after its '{'): its largest count in *most and
 * the end past its '}', or NULL when p holds no interval. */
static const char *
interval(const char *p, double *most)
{
	double m = 0, n = -1;

	if (*p < '0' || *p > '9')
		return NULL;
	for (; *p >= '0' && *p <= '9'; p++)
		m = m * 10 + (*p - '0');
	if (*p == ',') {
		p++;
		if (*p >= '0' && *p <= '9')
			for (n = 0; *p >= '0' && *p <= '9'; p++)
				n = n * 10 + (*p - '0');
		else
			n = m + 1;
	}
	if (*p != '}')
		return NULL;
	*most = n >= 0 ? n : m;
	return p + 1;
}

const char *
pattern_refusal(const char *pattern)
{
	/* size[d]: the atoms of the group open at depth d so far. */
	double size[PATTERN_MAX_DEPTH + 1] = {0}, atom = 0;
	const char *p = pattern;
	size_t depth = 0;

	if (strlen(pattern) > PATTERN_MAX_LENGTH)
		return "longer than 4096 bytes";
	while (*p) {
		const char *after;
		double most;

		switch (*p) {
		case '(':
			if (depth == PATTERN_MAX_DEPTH)
				return "nested deeper than 100 parentheses";
			size[++depth] = 0;
			atom = 0;
			p++;
			continue;
		case ')':
			if (depth) {
				atom = size[depth--];
				size[depth] += atom;
			} else {
				atom = 1;
				size[depth] += 1;
			}
			p++;
			continue;
		case '[':
			after = bracket_end(p + 1);
			p = *after ? after + 1 : after;
			atom = 1;
			size[depth] += 1;
			continue;
		case '\\':
			p += p[1] ? 2 : 1;
			atom = 1;
			size[depth] += 1;
			continue;
		case '{':
			after = interval(p + 1, &most);
			if (after) {
				/* The atom is there once already. */
				size[depth] += atom * (most > 1 ? most - 1 : 0);
				atom *= most > 1 ? most : 1;
				if (size[depth] > PATTERN_MAX_SIZE)
					return "too large once its repetitions "
					       "expand (more than 100000 "
					       "atoms)";
				p = after;
				continue;
			}
			break;
		case '*':
		case '+':
		case '?':
		case '|':
			p++;
			continue;
		default:
			break;
		}
		atom = 1;
		size[depth] += 1;
		p++;
	}
	while (depth) {
		atom = size[depth--];
		size[depth] += atom;
	}
	if (size[0] > PATTERN_MAX_SIZE)
		return "too large once its repetitions expand (more than "
		       "100000 atoms)";
	return NULL;
}

int
pattern_compile(regex_t *re, const char *pattern, int flags, char *why,
                size_t size)
{
	const char *refused = pattern_refusal(pattern);
	int rc;

	if (refused) {
		snprintf(why, size, "%s", refused);
		return REG_ESPACE;
	}
	rc = regcomp(re, pattern, flags);
	if (rc)
		regerror(rc, re, why, size);
	return rc;
}
