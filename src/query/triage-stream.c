/*
 * triage-stream: the spec the sums pass follows for triage, and the
 * findings of its sums (query/triage-stream.h).  The spec stops the
 * pass at whatever the sums do not carry: the frames (a call of a frame
 * method, on any thread) and the startup phases (a phase's method,
 * reportFullyDrawn or performRestart on the main thread), so that the
 * hot rules, which count inside frames and the startup window, find
 * nothing in a pass that completes.
 */
#include "config.h"

#include "query/triage-stream.h"

#include "query/frames.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

/* Threads times methods past which the model is loaded instead. */
#define TRIAGE_SUMS_MOST (UINT64_C(1) << 22)

static bool
hot_holds(const void *arg, size_t r, uint64_t cpu)
{
	const struct triage_rules *rules = arg;

	return triage_when_holds(&rules->rules[r].when, (double)cpu, 0, 0);
}

static bool
blocked_holds(const void *arg, size_t r, uint64_t off)
{
	const struct triage_rules *rules = arg;

	return triage_when_holds(&rules->rules[r].when, 0, (double)off, 0);
}

/* What each method asks on the main thread (is_main) or another. */
static uint8_t *
ask_table(const struct triage_stream *ts, const struct calltree *tree,
          char *const *names, const uint8_t *known, const bool *is_frame,
          const bool *app, bool is_main)
{
	const struct triage_sums_spec *spec = &ts->spec;
	uint8_t *ask = xcalloc(tree->nmethods + 1, 1);
	size_t m, w;

	for (m = 0; m < tree->nmethods; m++) {
		const uint64_t *bits = spec->match + m * spec->nwords;

		bool cause = false;

		for (w = 0; w < spec->nwords; w++) {
			if (bits[w] & spec->union_on[is_main][w])
				ask[m] |= TRIAGE_ASK_UNION;
			if (bits[w] & spec->blocked_on[is_main][w])
				ask[m] |= TRIAGE_ASK_BLOCKED;
			cause |= (bits[w] & spec->cause_on[is_main][w]) != 0;
		}
		/* Idle, or a cause rule's: never blocked. */
		if (cause || known[m] & KNOWN_IDLE)
			ask[m] &= (uint8_t)~TRIAGE_ASK_BLOCKED;
		if (known[m] & KNOWN_IDLE)
			ask[m] |= TRIAGE_ASK_IDLE;
		if (known[m] & KNOWN_LOOPER)
			ask[m] |= TRIAGE_ASK_LOOPER;
		if (known[m] & KNOWN_DISPATCH)
			ask[m] |= TRIAGE_ASK_DISPATCH;
		if (is_frame && is_frame[m])
			ask[m] |= TRIAGE_ASK_FRAME;
		if (app[m])
			ask[m] |= TRIAGE_ASK_APP;
		if (is_main &&
		    (known[m] & (KNOWN_FULLY_DRAWN | KNOWN_RESTART) ||
		     triage_phase_method(names[m])))
			ask[m] |= TRIAGE_ASK_STOP;
	}
	return ask;
}

struct triage_sums_spec *
triage_stream_spec(const struct calltree *tree, void *arg)
{
	struct triage_stream *ts = arg;
	struct triage_sums_spec *spec = &ts->spec;
	const struct triage_rules *rules = ts->rules;
	bool dual = tree->has_clock[CLOCK_WALL] && tree->has_clock[CLOCK_CPU];
	struct triage main_of;
	char why[300], **names;
	uint64_t *masks, floor[2];
	uint8_t *known;
	bool *is_frame, *app;
	size_t r, m, nw;
	int i;

	if (ts->made)
		return spec;
	memset(spec, 0, sizeof(*spec));
	/* Each thread's sums hold a slot per method: with many of both,
	 * the model costs less. */
	if ((uint64_t)tree->nthreads * (tree->nmethods + 1) > TRIAGE_SUMS_MOST)
		return NULL;
	nw = (rules->count + 63) / 64 + 1;
	names = triage_full_names(tree);
	known = triage_known_methods(names, tree->nmethods);
	/* A startup phase's method in the key: the launch would stop the
	 * pass (the phases need the model), likely late; the model at
	 * once, before the patterns are matched (its triage matches
	 * them). */
	for (m = 0; m < tree->nmethods; m++)
		if (known[m] & (KNOWN_FULLY_DRAWN | KNOWN_RESTART) ||
		    triage_phase_method(names[m]))
			break;
	is_frame = m < tree->nmethods ? NULL
	                              : frames_methods(tree, ts->frame_method,
	                                               why, sizeof(why));
	ts->match = is_frame ? triage_match_rules(tree, names, rules, nw, why,
	                                          sizeof(why))
	                     : NULL;
	if (!ts->match) {
		triage_free_names(names, tree->nmethods);
		free(known);
		free(is_frame);
		return NULL;
	}
	ts->made = true;
	spec->nmethods = tree->nmethods;
	spec->nrules = rules->count;
	spec->nwords = nw;
	spec->match = ts->match;
	/* union, blocked, cause and hot-frame masks per thread kind, then
	 * no-idle */
	ts->masks = masks = xcalloc(9 * nw, sizeof(*masks));
	ts->worst_clock = xcalloc(rules->count + 1, 1);
	for (i = 0; i < 2; i++) {
		uint64_t *u = masks + (size_t)(4 * i) * nw;

		spec->union_on[i] = u;
		spec->blocked_on[i] = u + nw;
		spec->cause_on[i] = u + 2 * nw;
		spec->hot_on[i] = u + 3 * nw;
		for (r = 0; r < rules->count; r++) {
			const struct triage_rule *rule = &rules->rules[r];
			uint64_t bit = 1ULL << (r % 64);

			if (!triage_rule_applies(rule, i))
				continue;
			if (rule->kind == TRIAGE_UNION)
				u[r / 64] |= bit;
			if (rule->kind == TRIAGE_BLOCKED && dual)
				u[nw + r / 64] |= bit;
			if (rule->cause)
				u[2 * nw + r / 64] |= bit;
			if (rule->kind == TRIAGE_HOT_FRAME &&
			    tree->has_clock[CLOCK_CPU])
				u[3 * nw + r / 64] |= bit;
		}
		triage_rule_floors(rules, i, floor);
		spec->blocked_floor[i] = floor[0];
		spec->hot_floor[i] = floor[1];
	}
	spec->no_idle = masks + 8 * nw;
	for (r = 0; r < rules->count; r++) {
		enum triage_kind kind = rules->rules[r].kind;

		if (rules->rules[r].no_idle)
			masks[8 * nw + r / 64] |= 1ULL << (r % 64);
		ts->worst_clock[r] =
		        kind == TRIAGE_UNION
		                ? calltree_default_range_clock(tree)
		        : kind == TRIAGE_BLOCKED ? CLOCK_WALL
		                                 : CLOCK_CPU;
	}
	spec->worst_clock = ts->worst_clock;
	spec->hot_holds = hot_holds;
	app = triage_app_methods(tree);
	for (i = 0; i < 2; i++)
		spec->ask[i] = ts->ask[i] =
		        ask_table(ts, tree, names, known, is_frame, app, i);
	free(app);
	spec->blocked_holds = blocked_holds;
	spec->arg = rules;
	spec->clock = calltree_default_range_clock(tree);
	memset(&main_of, 0, sizeof(main_of));
	triage_find_main(&main_of, tree);
	spec->has_main = main_of.main >= 0;
	spec->main_tid = spec->has_main ? tree->threads[main_of.main].tid : 0;
	free(known);
	free(is_frame);
	triage_free_names(names, tree->nmethods);
	return spec;
}

void
triage_stream_done(struct triage_stream *ts)
{
	free(ts->match);
	free(ts->masks);
	free(ts->ask[0]);
	free(ts->ask[1]);
	free(ts->worst_clock);
	ts->worst_clock = NULL;
	ts->match = ts->masks = NULL;
	ts->ask[0] = ts->ask[1] = NULL;
	ts->made = false;
}

/* The methods of blocked sum s into f's, by their first call. */
static void
take_methods(struct triage_finding *f, const struct triage_sum *s)
{
	uint64_t *first = xmalloc((s->nmethods + 1) * sizeof(*first));
	uint32_t *m = xmalloc((s->nmethods + 1) * sizeof(*m));
	size_t i, j;

	memcpy(first, s->first, s->nmethods * sizeof(*first));
	memcpy(m, s->methods, s->nmethods * sizeof(*m));
	/* Few methods: an insertion sort by first call. */
	for (i = 1; i < s->nmethods; i++)
		for (j = i; j > 0 && first[j - 1] > first[j]; j--) {
			uint64_t x = first[j];
			uint32_t y = m[j];

			first[j] = first[j - 1];
			m[j] = m[j - 1];
			first[j - 1] = x;
			m[j - 1] = y;
		}
	free(first);
	f->methods = m;
	f->nmethods = s->nmethods;
}

/* Rule r's sums s on thread t into out's findings, as thread_findings
 * settles them. */
static void
settle(struct triage *out, const struct triage_rules *rules, size_t r, size_t t,
       const struct triage_sum *s)
{
	const struct calltree *tree = out->tree;
	const struct triage_rule *rule = &rules->rules[r];
	enum clock_index k = out->clock;
	struct triage_finding f;
	double total, call;
	int c;

	memset(&f, 0, sizeof(f));
	memcpy(f.total, s->total, sizeof(f.total));
	memcpy(f.idle, s->idle, sizeof(f.idle));
	f.count = s->count;
	f.enclosing = s->enclosing;
	f.lower_bound = s->lower_bound;
	f.worst = CALL_NONE;
	f.worst_method = s->worst_method;
	f.worst_start = s->worst_start;
	memcpy(f.worst_dur, s->worst_dur, sizeof(f.worst_dur));
	f.worst_lower = s->worst_lower;
	for (c = 0; c < CLOCK_COUNT; c++)
		f.total[c] -= f.idle[c] < f.total[c] ? f.idle[c] : f.total[c];
	out->rule_total[r] += f.total[k];
	out->rule_count[r] += f.count;
	total = (double)f.total[k];
	call = (double)f.worst_dur[k];
	f.samples = triage_finding_samples(tree, &f, k);
	if ((rule->kind == TRIAGE_UNION &&
	     !triage_when_holds(&rule->when, total, call, (double)f.count)) ||
	    f.samples < TRIAGE_MIN_SAMPLES) {
		out->undersampled += f.samples < TRIAGE_MIN_SAMPLES &&
		                     (rule->kind != TRIAGE_UNION ||
		                      triage_when_holds(&rule->when, total,
		                                        call, (double)f.count));
		return;
	}
	if (rule->kind != TRIAGE_UNION)
		take_methods(&f, s);
	f.rule = r;
	f.thread = (uint32_t)t;
	f.severity =
	        triage_when_holds(&rule->error, total, call, (double)f.count)
	                ? TRIAGE_ERROR
	                : rule->severity;
	f.path = xmalloc((s->npath + 1) * sizeof(*f.path));
	memcpy(f.path, s->path, s->npath * sizeof(*f.path));
	f.npath = s->npath;
	out->findings = xreallocarray(out->findings, out->count + 1,
	                              sizeof(*out->findings));
	out->findings[out->count++] = f;
}

/* The frames of every thread's triage sums, in thread order, with their
 * causes where slow. */
static void
take_frames(struct triage *out, const struct calltree *tree, double budget)
{
	struct frames *fr = &out->frames;
	size_t t, i, n = 0;

	frames_init(fr, tree, budget);
	for (t = 0; t < tree->nthreads; t++)
		n += tree->sums[t].ntriage_frames;
	fr->frames = xcalloc(n + 1, sizeof(*fr->frames));
	out->cause = xmalloc((n + 1) * sizeof(*out->cause));
	out->cause_method = xmalloc((n + 1) * sizeof(*out->cause_method));
	out->cause_share = xcalloc(n + 1, sizeof(*out->cause_share));
	for (t = 0; t < tree->nthreads; t++)
		for (i = 0; i < tree->sums[t].ntriage_frames; i++) {
			const struct triage_frame *tf =
			        &tree->sums[t].triage_frames[i];
			struct drawn_frame *f = &fr->frames[fr->count];
			int h;

			f->call = CALL_NONE;
			f->thread = (uint32_t)t;
			f->start = tf->start;
			memcpy(f->dur, tf->dur, sizeof(f->dur));
			for (h = 0; h < FRAME_HOT; h++)
				f->hot[h] = CALL_NONE;
			out->cause[fr->count] = CALL_NONE;
			out->cause_method[fr->count] = CALL_NONE;
			if (frames_slow(fr, f) && f->dur[fr->clock]) {
				out->cause_method[fr->count] = tf->cause;
				if (tf->cause != CALL_NONE)
					out->cause_share[fr->count] = tf->share;
			}
			fr->count++;
		}
}

bool
triage_from_sums(struct triage *out, const struct calltree *tree,
                 const struct triage_stream *ts, double budget)
{
	const struct triage_rules *rules = ts->rules;
	size_t t, r;

	memset(out, 0, sizeof(*out));
	if (!tree->triage_summed || !ts->made || !tree->sums)
		return false;
	out->tree = tree;
	out->clock = calltree_default_range_clock(tree);
	triage_find_main(out, tree);
	if ((out->main >= 0) != ts->spec.has_main ||
	    (out->main >= 0 &&
	     tree->threads[out->main].tid != ts->spec.main_tid) ||
	    out->clock != ts->spec.clock) {
		memset(out, 0, sizeof(*out));
		return false;
	}
	take_frames(out, tree, budget);
	out->rule_total = xcalloc(rules->count + 1, sizeof(*out->rule_total));
	out->rule_count = xcalloc(rules->count + 1, sizeof(*out->rule_count));
	for (t = 0; t < tree->nthreads; t++) {
		const struct triage_sum *sums = tree->sums[t].triage;

		for (r = 0; sums && r < tree->sums[t].ntriage; r++)
			if (sums[r].count)
				settle(out, rules, r, t, &sums[r]);
	}
	triage_sort_findings(out);
	return true;
}
