/*
 * pattern: the limits are checked on one pass over the pattern as an
 * extended regular expression: bracket expressions and escaped
 * characters are one atom each, a group's size is its atoms', and an
 * interval {m,n} ({,n} too) multiplies the piece before it by n (by
 * m + 1 for {m,}), as regcomp copies it.  Besides the atoms, regcomp's
 * memory grows with the square of each run of parts that may match
 * nothing (optional copies, ?, *, nested intervals: their epsilon
 * closures) and of the alternatives of a group: the runs are counted
 * as they join, through nesting, so that their cost multiplies as
 * regcomp's does.  A pattern regcomp would refuse anyway may be
 * misjudged here; regcomp then says why.
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

/* The interval at p (after its '{'): its counts in *least and *most
 * (-1 for none, {m,}) and the end past its '}', or NULL when p holds no
 * interval.  glibc reads {,n} as {0,n}. */
static const char *
interval(const char *p, double *least, double *most)
{
	double m = 0, n;

	if ((*p < '0' || *p > '9') && *p != ',')
		return NULL;
	for (; *p >= '0' && *p <= '9'; p++)
		m = m * 10 + (*p - '0');
	n = m;
	if (*p == ',') {
		p++;
		n = -1;
		if (*p >= '0' && *p <= '9')
			for (n = 0; *p >= '0' && *p <= '9'; p++)
				n = n * 10 + (*p - '0');
	}
	if (*p != '}')
		return NULL;
	*least = m;
	*most = n;
	return p + 1;
}

/*
 * What a piece of the pattern costs regcomp: its atoms once repetitions
 * expand, whether it can match the empty string, the atoms of the runs
 * of such parts at its start and end (a run of n of them makes n
 * states whose epsilon closures hold up to n states each: glibc's
 * memory grows with n squared), and the squares of the runs inside it.
 */
struct cost {
	double atoms, lead, trail, runs;
	bool empty;
};

static const struct cost nothing = {0, 0, 0, 0, true};
static const struct cost one_atom = {1, 0, 0, 0, false};

/* The cost of a followed by b. */
static struct cost
cost_then(struct cost a, struct cost b)
{
	struct cost c = {a.atoms + b.atoms, a.lead, b.trail, a.runs + b.runs,
	                 a.empty && b.empty};

	if (c.empty)
		c.lead = c.trail = c.atoms;
	else if (a.empty)
		c.lead = a.atoms + b.lead;
	else if (b.empty)
		c.trail = a.trail + b.atoms;
	else
		c.runs += (a.trail + b.lead) * (a.trail + b.lead);
	return c;
}

/* The cost of a or b: both their starts (and ends) reachable at once. */
static struct cost
cost_or(struct cost a, struct cost b)
{
	struct cost c = {a.atoms + b.atoms, a.lead + b.lead, a.trail + b.trail,
	                 a.runs + b.runs, a.empty || b.empty};

	if (c.empty)
		c.lead = c.trail = c.atoms;
	return c;
}

/* The cost of e{least,most} (most -1: no bound): regcomp copies e
 * least times, then most - least optional copies (one starred copy
 * without a bound). */
static struct cost
cost_repeat(struct cost e, double least, double most)
{
	double optional = most < 0 ? 1 : most > least ? most - least : 0;
	struct cost c = e;

	c.atoms = (least + optional) * e.atoms;
	c.runs = (least + optional) * e.runs;
	if (e.empty || least == 0) {
		c.empty = true;
		c.lead = c.trail = c.atoms;
		return c;
	}
	/* Each copy's end meets the next one's start. */
	c.runs += (least - 1) * (e.trail + e.lead) * (e.trail + e.lead);
	c.trail = e.trail + optional * e.atoms;
	return c;
}

/* The memory regcomp needs for c, bytes, about: measured with glibc
 * 2.36, 220 bytes per atom and 8 per square of a run; counted high. */
static double
cost_bytes(struct cost c)
{
	double ends = c.empty ? c.atoms * c.atoms
	                      : c.lead * c.lead + c.trail * c.trail;

	return 256 * c.atoms + 10 * (c.runs + ends);
}

/* One level of parentheses: the alternatives before the last '|', the
 * one being read, and its last piece (which a repetition applies to),
 * not yet in it. */
struct level {
	struct cost done, seq, last;
	double alternatives;
	bool has_last;
};

static void
level_start(struct level *l)
{
	l->seq = nothing;
	l->has_last = false;
	l->alternatives = 0;
}

/* Put the last piece into the alternative being read. */
static void
level_flush(struct level *l)
{
	if (l->has_last)
		l->seq = cost_then(l->seq, l->last);
	l->has_last = false;
}

/* The level's cost once its last alternative is read.  glibc chains k
 * alternatives so that the first one's start reaches every other's: k
 * squared, counted as runs. */
static struct cost
level_end(struct level *l)
{
	struct cost c;

	level_flush(l);
	c = l->alternatives ? cost_or(l->done, l->seq) : l->seq;
	c.runs += (l->alternatives + 1) * (l->alternatives + 1);
	return c;
}

/* A new piece c after what the level has read. */
static void
level_piece(struct level *l, struct cost c)
{
	level_flush(l);
	l->last = c;
	l->has_last = true;
}

static const char *const too_many_atoms =
        "too large once its repetitions expand (more than 100000 atoms)";
static const char *const too_much_memory =
        "too large once its repetitions expand (regcomp would need more "
        "than 64 MB)";

/* Why cost c is too much, or NULL. */
static const char *
cost_refusal(struct cost c)
{
	if (c.atoms > PATTERN_MAX_SIZE)
		return too_many_atoms;
	if (cost_bytes(c) > PATTERN_MAX_BYTES)
		return too_much_memory;
	return NULL;
}

const char *
pattern_refusal(const char *pattern)
{
	struct level level[PATTERN_MAX_DEPTH + 1];
	const char *p = pattern, *why;
	size_t depth = 0;
	struct cost whole;

	if (strlen(pattern) > PATTERN_MAX_LENGTH)
		return "longer than 4096 bytes";
	level_start(&level[0]);
	while (*p) {
		struct level *l = &level[depth];
		const char *after;
		double least, most;

		switch (*p) {
		case '(':
			if (depth == PATTERN_MAX_DEPTH)
				return "nested deeper than 100 parentheses";
			level_start(&level[++depth]);
			p++;
			continue;
		case ')':
			if (depth) {
				struct cost group = level_end(l);

				depth--;
				level_piece(&level[depth], group);
			} else {
				level_piece(l, one_atom);
			}
			p++;
			continue;
		case '[':
			after = bracket_end(p + 1);
			p = *after ? after + 1 : after;
			level_piece(l, one_atom);
			continue;
		case '\\':
			p += p[1] ? 2 : 1;
			level_piece(l, one_atom);
			continue;
		case '{':
			after = interval(p + 1, &least, &most);
			if (!after)
				break;
			p = after;
			if (!l->has_last)
				continue;
			l->last = cost_repeat(l->last, least, most);
			why = cost_refusal(l->last);
			if (why)
				return why;
			continue;
		case '*':
		case '+':
		case '?':
			if (l->has_last)
				l->last = cost_repeat(l->last, *p == '+',
				                      *p == '?' ? 1 : -1);
			p++;
			continue;
		case '|':
			level_flush(l);
			l->done = l->alternatives ? cost_or(l->done, l->seq)
			                          : l->seq;
			l->alternatives++;
			l->seq = nothing;
			p++;
			continue;
		default:
			break;
		}
		level_piece(l, one_atom);
		p++;
	}
	while (depth) {
		struct cost group = level_end(&level[depth]);

		depth--;
		level_piece(&level[depth], group);
	}
	whole = level_end(&level[0]);
	return cost_refusal(whole);
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
