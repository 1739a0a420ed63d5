/*
 * diff: rows are made by sorting every used method of every run by
 * (dotted class, name, signature, side, run) and merging runs of equal
 * triples, so matching costs O(n log n) in the methods of all traces.
 * Each run's entries copy their names, so its trace can go at once.
 * Conditions are parsed by hand, one token after another, so an error
 * can name the column where the text stopped making sense.
 */
#include "config.h"

#include "query/diff.h"

#include "model/identity.h"
#include "query/method-name.h"
#include "util/alloc.h"
#include "util/chars.h"
#include "util/sort.h"

#include <fnmatch.h>
#include <math.h> /* INFINITY, no libm */
#include <stdlib.h>
#include <string.h>

/* One used method of one run, before matching; owns its strings. */
struct diff_entry {
	struct tt_method m; /* class, name and signature: copies */
	char *full_name, *short_name;
	struct diff_values v;
	enum diff_side side;
	size_t run;
};

static int
entry_cmp(const void *a, const void *b)
{
	const struct diff_entry *x = a, *y = b;
	int c = identity_cmp(&x->m, &y->m);

	if (!c)
		c = (int)x->side - (int)y->side;
	if (!c)
		c = x->run < y->run ? -1 : x->run > y->run;
	return c;
}

static void
add_values(struct diff_values *v, const struct diff_values *r)
{
	int k;

	v->calls += r->calls;
	for (k = 0; k < CLOCK_COUNT; k++) {
		v->incl[k] += r->incl[k];
		v->excl[k] += r->excl[k];
	}
}

void
diff_begin(struct diff *out)
{
	memset(out, 0, sizeof(*out));
}

void
diff_add_run(struct diff *d, enum diff_side side, const struct calltree *tree,
             const struct profile *p)
{
	size_t run = d->nruns[side]++, i;
	int k;

	d->run_total[side] = xreallocarray(d->run_total[side], d->nruns[side],
	                                   sizeof(*d->run_total[side]));
	for (k = 0; k < CLOCK_COUNT; k++) {
		d->run_total[side][run][k] = p->total[k];
		d->total[side][k] += p->total[k];
		d->has_clock[side][k] = (run == 0 || d->has_clock[side][k]) &&
		                        tree->has_clock[k];
	}
	for (i = 0; i < tree->nmethods && i < p->nrows; i++) {
		const struct profile_row *r = &p->rows[i];
		struct tt_method named = tree->methods[i];
		struct diff_entry *e;
		char *klass, *c;

		if (!profile_row_used(p, i))
			continue;
		UTIL_GROW(d->entries, d->entries_cap, d->nentries + 1);
		e = &d->entries[d->nentries++];
		memset(e, 0, sizeof(*e));
		e->m.klass = xstrdup(named.klass);
		e->m.name = xstrdup(named.name);
		e->m.signature = xstrdup(named.signature);
		named.klass = klass = xstrdup(named.klass);
		for (c = klass; *c; c++) /* the name as matched */
			if (*c == '/')
				*c = '.';
		e->full_name = method_full_name(&named);
		e->short_name = method_short_name(&named);
		free(klass);
		e->side = side;
		e->run = run;
		e->v.calls = r->calls + r->rcalls;
		for (k = 0; k < CLOCK_COUNT; k++) {
			e->v.incl[k] = r->incl[k];
			e->v.excl[k] = r->excl[k];
		}
	}
}

static void
entry_done(struct diff_entry *e)
{
	free((char *)e->m.klass);
	free((char *)e->m.name);
	free((char *)e->m.signature);
	free(e->full_name);
	free(e->short_name);
}

void
diff_finish(struct diff *out)
{
	struct diff_entry *e = out->entries;
	size_t n = out->nentries, per_row = out->nruns[0] + out->nruns[1];
	size_t i, j;

	sort_items(e, n, sizeof(*e), entry_cmp);
	out->rows = xcalloc(n + 1, sizeof(*out->rows));
	out->run_values = xcalloc(n * per_row + 1, sizeof(*out->run_values));
	for (i = 0; i < n; i = j) {
		struct diff_row *row = &out->rows[out->nrows];

		row->runs[DIFF_BASE] = out->run_values + out->nrows * per_row;
		row->runs[DIFF_NEW] = row->runs[DIFF_BASE] + out->nruns[0];
		out->nrows++;
		row->name = e[i].full_name;
		row->short_name = e[i].short_name;
		e[i].full_name = e[i].short_name = NULL;
		for (j = i; j < n && !identity_cmp(&e[i].m, &e[j].m); j++) {
			row->present[e[j].side] = true;
			add_values(&row->v[e[j].side], &e[j].v);
			add_values(&row->runs[e[j].side][e[j].run], &e[j].v);
		}
		if (row->present[DIFF_BASE] != row->present[DIFF_NEW])
			out->only[row->present[DIFF_NEW]]++;
	}
	for (i = 0; i < n; i++)
		entry_done(&e[i]);
	free(e);
	out->entries = NULL;
	out->nentries = out->entries_cap = 0;
}

void
diff_compute(struct diff *out, const struct calltree *base,
             const struct profile *bp, const struct calltree *new,
             const struct profile *np)
{
	diff_begin(out);
	diff_add_run(out, DIFF_BASE, base, bp);
	diff_add_run(out, DIFF_NEW, new, np);
	diff_finish(out);
}

void
diff_add_frames(struct diff *d, enum diff_side s,
                const struct frame_summary *fs)
{
	d->run_frames[s] =
	        xreallocarray(d->run_frames[s], d->nrun_frames[s] + 1,
	                      sizeof(*d->run_frames[s]));
	d->run_frames[s][d->nrun_frames[s]++] = *fs;
}

void
diff_add_finding(struct diff *d, enum diff_side s, const char *id, double total,
                 double count)
{
	d->findings[s] = xreallocarray(d->findings[s], d->nfindings[s] + 1,
	                               sizeof(*d->findings[s]));
	d->findings[s][d->nfindings[s]++] =
	        (struct diff_finding_values){xstrdup(id), total, count};
}

static const char *const frame_names[DIFF_FRAME_METRICS] = {
        "",          "frames",    "slow_frames", "frozen_frames", "frame_p50",
        "frame_p90", "frame_p95", "frame_p99",   "frame_max",
};

const char *
diff_frame_name(enum diff_frame_metric m)
{
	return frame_names[m];
}

bool
diff_frame_is_count(enum diff_frame_metric m)
{
	return m == DIFF_FRAME_COUNT || m == DIFF_FRAME_SLOW ||
	       m == DIFF_FRAME_FROZEN;
}

double
diff_frame_value(const struct frame_summary *fs, enum diff_frame_metric m)
{
	switch (m) {
	case DIFF_FRAME_COUNT:
		return (double)fs->frames;
	case DIFF_FRAME_SLOW:
		return (double)fs->slow;
	case DIFF_FRAME_FROZEN:
		return (double)fs->frozen;
	case DIFF_FRAME_P50:
	case DIFF_FRAME_P90:
	case DIFF_FRAME_P95:
	case DIFF_FRAME_P99:
		return (double)fs->pct[m - DIFF_FRAME_P50];
	case DIFF_FRAME_MAX:
		return (double)fs->max;
	case DIFF_FRAME_NONE:
	case DIFF_FRAME_METRICS:
		break;
	}
	return 0;
}

void
diff_done(struct diff *diff)
{
	size_t i;

	for (i = 0; i < diff->nrows; i++) {
		free(diff->rows[i].name);
		free(diff->rows[i].short_name);
	}
	for (i = 0; i < diff->nentries; i++)
		entry_done(&diff->entries[i]);
	free(diff->entries);
	free(diff->rows);
	free(diff->run_values);
	free(diff->run_total[0]);
	free(diff->run_total[1]);
	free(diff->run_frames[0]);
	free(diff->run_frames[1]);
	for (i = 0; i < 2; i++) {
		size_t j;

		for (j = 0; j < diff->nfindings[i]; j++)
			free(diff->findings[i][j].id);
		free(diff->findings[i]);
	}
	memset(diff, 0, sizeof(*diff));
}

/* Metric m of v on clock k, or its percentage of total with normalize. */
static double
metric_value(const struct diff_values *v, enum diff_metric m,
             enum clock_index k, uint64_t total, bool normalize)
{
	double x;

	switch (m) {
	case DIFF_CALLS:
		return (double)v->calls;
	case DIFF_INCL:
		x = (double)v->incl[k];
		break;
	case DIFF_EXCL:
		x = (double)v->excl[k];
		break;
	default:
		return 0;
	}
	if (!normalize)
		return x;
	return total ? 100.0 * x / (double)total : 0;
}

double
diff_value(const struct diff *diff, const struct diff_values *v,
           enum diff_side s, enum diff_metric m, enum clock_index k,
           bool normalize)
{
	return metric_value(v, m, k, diff->total[s][k], normalize);
}

double
diff_run_value(const struct diff *diff, const struct diff_row *row,
               enum diff_side s, size_t r, enum diff_metric m,
               enum clock_index k, bool normalize)
{
	return metric_value(&row->runs[s][r], m, k, diff->run_total[s][r][k],
	                    normalize);
}

bool
diff_percent(double base, double new, double *pct)
{
	if (base == 0) {
		*pct = new == 0 ? 0 : INFINITY;
		return new == 0;
	}
	*pct = 100.0 * (new - base) / base;
	return true;
}

struct sort_ctx {
	const struct diff *diff;
	enum diff_metric m;
	enum clock_index k;
	bool normalize;
};

static double
abs_change(const struct sort_ctx *s, const struct diff_row *r)
{
	double d = diff_value(s->diff, &r->v[DIFF_NEW], DIFF_NEW, s->m, s->k,
	                      s->normalize) -
	           diff_value(s->diff, &r->v[DIFF_BASE], DIFF_BASE, s->m, s->k,
	                      s->normalize);

	return d < 0 ? -d : d;
}

static int
row_cmp(const void *a, const void *b, void *arg)
{
	const struct diff_row *x = a, *y = b;
	const struct sort_ctx *s = arg;

	if (s->m != DIFF_NAME) {
		double vx = abs_change(s, x), vy = abs_change(s, y);

		if (vx != vy)
			return vx > vy ? -1 : 1;
	}
	return strcmp(x->name, y->name);
}

void
diff_sort(struct diff *diff, enum diff_metric m, enum clock_index k,
          bool normalize)
{
	struct sort_ctx s = {diff, m, k, normalize};

	qsort_r(diff->rows, diff->nrows, sizeof(*diff->rows), row_cmp, &s);
}

/* Conditions. */

static const struct {
	const char *name;
	bool total;
	enum diff_metric metric;
	enum clock_index clock;
	enum diff_frame_metric frame;
	enum diff_finding_metric finding;
} functions[] = {
        {"excl_cpu", false, DIFF_EXCL, CLOCK_CPU, DIFF_FRAME_NONE,
         DIFF_FINDING_NONE},
        {"incl_cpu", false, DIFF_INCL, CLOCK_CPU, DIFF_FRAME_NONE,
         DIFF_FINDING_NONE},
        {"excl_wall", false, DIFF_EXCL, CLOCK_WALL, DIFF_FRAME_NONE,
         DIFF_FINDING_NONE},
        {"incl_wall", false, DIFF_INCL, CLOCK_WALL, DIFF_FRAME_NONE,
         DIFF_FINDING_NONE},
        {"calls", false, DIFF_CALLS, CLOCK_CPU, DIFF_FRAME_NONE,
         DIFF_FINDING_NONE},
        {"total_cpu", true, DIFF_EXCL, CLOCK_CPU, DIFF_FRAME_NONE,
         DIFF_FINDING_NONE},
        {"total_wall", true, DIFF_EXCL, CLOCK_WALL, DIFF_FRAME_NONE,
         DIFF_FINDING_NONE},
        /* Frames: counts like calls, times on the frames' own clock. */
        {"frames", true, DIFF_CALLS, CLOCK_WALL, DIFF_FRAME_COUNT,
         DIFF_FINDING_NONE},
        {"slow_frames", true, DIFF_CALLS, CLOCK_WALL, DIFF_FRAME_SLOW,
         DIFF_FINDING_NONE},
        {"frozen_frames", true, DIFF_CALLS, CLOCK_WALL, DIFF_FRAME_FROZEN,
         DIFF_FINDING_NONE},
        {"frame_p50", true, DIFF_EXCL, CLOCK_WALL, DIFF_FRAME_P50,
         DIFF_FINDING_NONE},
        {"frame_p90", true, DIFF_EXCL, CLOCK_WALL, DIFF_FRAME_P90,
         DIFF_FINDING_NONE},
        {"frame_p95", true, DIFF_EXCL, CLOCK_WALL, DIFF_FRAME_P95,
         DIFF_FINDING_NONE},
        {"frame_p99", true, DIFF_EXCL, CLOCK_WALL, DIFF_FRAME_P99,
         DIFF_FINDING_NONE},
        {"frame_max", true, DIFF_EXCL, CLOCK_WALL, DIFF_FRAME_MAX,
         DIFF_FINDING_NONE},
        /* A triage rule's numbers: its total is a time, its count a
         * count like calls. */
        {"finding_total", true, DIFF_EXCL, CLOCK_WALL, DIFF_FRAME_NONE,
         DIFF_FINDING_TOTAL},
        {"finding_count", true, DIFF_CALLS, CLOCK_WALL, DIFF_FRAME_NONE,
         DIFF_FINDING_COUNT},
};

static bool
is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool
is_word(char c)
{
	return is_alpha(c) || c == '_' || is_digit(c);
}

static const char *
skip_blanks(const char *p)
{
	while (is_blank(*p))
		p++;
	return p;
}

static bool
fail(struct diff_cond *c, struct diff_cond_error *err, const char *text,
     const char *at, const char *message)
{
	err->column = (size_t)(at - text) + 1;
	err->message = message;
	diff_cond_done(c);
	return false;
}

/* [+-]DIGITS[.DIGITS] or [+-].DIGITS, read without the locale. */
static const char *
parse_number(const char *p, double *out)
{
	double sign = 1, v = 0, scale = 0.1;

	if (*p == '+' || *p == '-')
		sign = *p++ == '-' ? -1 : 1;
	if (!is_digit(*p) && !(*p == '.' && is_digit(p[1])))
		return NULL;
	for (; is_digit(*p); p++)
		v = v * 10 + (*p - '0');
	if (*p == '.')
		for (p++; is_digit(*p); p++, scale /= 10)
			v += (*p - '0') * scale;
	*out = sign * v;
	return p;
}

bool
diff_cond_parse(struct diff_cond *c, const char *text,
                struct diff_cond_error *err)
{
	static const struct {
		const char *name;
		enum diff_unit unit;
		double scale;
	} units[] = {
	        {"us", DIFF_UNIT_US, 1},
	        {"ms", DIFF_UNIT_MS, 1e3},
	        {"s", DIFF_UNIT_S, 1e6},
	};
	const char *p = skip_blanks(text), *start = p, *close;
	size_t i, len;

	memset(c, 0, sizeof(*c));
	for (len = strlen(p); len && is_blank(p[len - 1]); len--)
		;
	c->text = xstrndup(p, len);
	while (is_word(*p))
		p++;
	len = (size_t)(p - start);
	if (!len)
		return fail(c, err, text, start,
		            "expected a function: excl_cpu, incl_cpu, "
		            "excl_wall, incl_wall, calls, total_cpu, "
		            "total_wall or a frame number");
	for (i = 0; i < sizeof(functions) / sizeof(functions[0]); i++)
		if (strlen(functions[i].name) == len &&
		    !strncmp(functions[i].name, start, len))
			break;
	if (i == sizeof(functions) / sizeof(functions[0]))
		return fail(c, err, text, start,
		            "unknown function (excl_cpu, incl_cpu, excl_wall, "
		            "incl_wall, calls, total_cpu, total_wall, frames, "
		            "slow_frames, frozen_frames, frame_p50, frame_p90, "
		            "frame_p95, frame_p99, frame_max, finding_total or "
		            "finding_count)");
	c->total = functions[i].total;
	c->frame = functions[i].frame;
	c->metric = functions[i].metric;
	c->clock = functions[i].clock;
	c->finding = functions[i].finding;
	p = skip_blanks(p);
	if (c->finding) {
		if (*p != '(')
			return fail(c, err, text, p,
			            "expected '(' and a triage rule's id");
		start = skip_blanks(p + 1);
		for (p = start; is_word(*p) || *p == '-' || *p == '.'; p++)
			;
		if (p == start)
			return fail(c, err, text, start,
			            "expected a triage rule's id, such as R6");
		c->rule = xstrndup(start, (size_t)(p - start));
		p = skip_blanks(p);
		if (*p != ')')
			return fail(c, err, text, p,
			            "expected ')' after the rule's id");
		p = skip_blanks(p + 1);
	} else if (c->total) {
		if (*p == '(') {
			p = skip_blanks(p + 1);
			if (*p != ')')
				return fail(
				        c, err, text, p,
				        c->frame ? "frame numbers take no "
				                   "method pattern"
				                 : "total_cpu and total_wall "
				                   "take no method pattern");
			p = skip_blanks(p + 1);
		}
	} else {
		if (*p != '(')
			return fail(c, err, text, p,
			            "expected '(' and a method pattern");
		start = skip_blanks(p + 1);
		close = strchr(start, ')');
		if (!close)
			return fail(c, err, text, start + strlen(start),
			            "expected ')' after the method pattern");
		for (p = close; p > start && is_blank(p[-1]); p--)
			;
		if (p == start)
			return fail(c, err, text, start,
			            "expected a method pattern (a glob over "
			            "Class.method)");
		c->glob = xstrndup(start, (size_t)(p - start));
		for (i = 0; c->glob[i]; i++)
			if (c->glob[i] == '/')
				c->glob[i] = '.';
		p = skip_blanks(close + 1);
	}
	if (*p != '>' && *p != '<')
		return fail(c, err, text, p, "expected '>' or '<'");
	c->op = *p;
	p = skip_blanks(p + 1);
	start = p;
	p = parse_number(p, &c->threshold);
	if (!p)
		return fail(c, err, text, start,
		            "expected a number such as +10%, -5ms or +1000");
	p = skip_blanks(p);
	start = p;
	if (*p == '%') {
		c->unit = DIFF_UNIT_PERCENT;
		p++;
	} else if (is_alpha(*p)) {
		while (is_alpha(*p))
			p++;
		len = (size_t)(p - start);
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (strlen(units[i].name) == len &&
			    !strncmp(units[i].name, start, len))
				break;
		if (i == sizeof(units) / sizeof(units[0]))
			return fail(c, err, text, start,
			            "unknown unit (%, us, ms or s)");
		if (c->metric == DIFF_CALLS)
			return fail(c, err, text, start,
			            c->frame ? "frame counts take a count or a "
			                       "percentage, not a time unit"
			                     : "calls take a count or a "
			                       "percentage, not a time unit");
		c->unit = units[i].unit;
		c->threshold *= units[i].scale;
	}
	p = skip_blanks(p);
	if (*p)
		return fail(c, err, text, p,
		            "unexpected text after the threshold");
	return true;
}

void
diff_cond_done(struct diff_cond *c)
{
	free(c->text);
	free(c->glob);
	free(c->rule);
	c->text = c->glob = c->rule = NULL;
}

bool
diff_cond_has_frames(const struct diff_cond *c, const struct diff *diff, int s)
{
	size_t run;

	if (!c->frame || c->frame == DIFF_FRAME_COUNT)
		return true;
	if (!diff->nrun_frames[s])
		return false;
	for (run = 0; run < diff->nrun_frames[s]; run++)
		if (!diff->run_frames[s][run].frames)
			return false;
	return true;
}

const char *
diff_cond_missing(const struct diff_cond *c, const struct diff_cond_result *r)
{
	if (c->frame)
		return r->no_frames[DIFF_BASE] || r->no_frames[DIFF_NEW]
		               ? "no frames"
		               : NULL;
	if (!c->total && !r->matched)
		return "no method matches";
	return NULL;
}

void
diff_cond_eval(const struct diff_cond *c, const struct diff *diff,
               bool normalize, struct diff_cond_result *r)
{
	enum clock_index k = c->clock;
	size_t i;
	int s;

	memset(r, 0, sizeof(*r));
	if (c->finding) {
		normalize = false;
		for (s = 0; s < 2; s++)
			for (i = 0; i < diff->nfindings[s]; i++) {
				const struct diff_finding_values *f =
				        &diff->findings[s][i];

				if (strcmp(f->id, c->rule) != 0)
					continue;
				r->value[s] = c->finding == DIFF_FINDING_TOTAL
				                      ? f->total
				                      : f->count;
			}
	} else if (c->frame) {
		/* Frames are counts and times of their own: never shares. */
		normalize = false;
		for (s = 0; s < 2; s++)
			r->value[s] = diff->nrun_frames[s]
			                      ? diff_frame_value(
			                                &diff->run_frames[s][0],
			                                c->frame)
			                      : 0;
	} else if (c->total) {
		/* A total's share of itself is always 100%: never normalised.
		 */
		normalize = false;
		for (s = 0; s < 2; s++)
			r->value[s] = (double)diff->total[s][k];
	} else {
		for (i = 0; i < diff->nrows; i++) {
			const struct diff_row *row = &diff->rows[i];

			if (fnmatch(c->glob, row->short_name, 0) != 0)
				continue;
			r->matched++;
			for (s = 0; s < 2; s++)
				r->value[s] += diff_value(
				        diff, &row->v[s], (enum diff_side)s,
				        c->metric, k, normalize);
		}
	}
	if (c->unit == DIFF_UNIT_PERCENT)
		diff_percent(r->value[DIFF_BASE], r->value[DIFF_NEW],
		             &r->change);
	else if (normalize && c->metric != DIFF_CALLS)
		r->change = (r->value[DIFF_NEW] - r->value[DIFF_BASE]) / 100.0 *
		            (double)diff->total[DIFF_BASE][k];
	else
		r->change = r->value[DIFF_NEW] - r->value[DIFF_BASE];
	for (s = 0; s < 2; s++)
		r->no_frames[s] = !diff_cond_has_frames(c, diff, s);
	r->holds = !diff_cond_missing(c, r) &&
	           (c->op == '>' ? r->change > c->threshold
	                         : r->change < c->threshold);
}
