/*
 * triage-equal: each trace named on the command line loaded as tracetui
 * loads it for `triage` (the model), and its triage made twice: the
 * plain way (one worker, the frames found by query/frames.c, every
 * call and frame tracked) and the way the command takes (the threads
 * shared out among workers even when few, an instrumented trace's
 * frames found in their passes, calls and frames no blocked or hot
 * rule can count passed over);
 * every finding (its numbers, worst call, path, calls and methods),
 * phase, frame, cause and per-rule sum compared, in TAP, one line per
 * file and rule table: the built-in rules, and the same with the
 * blocked and hot thresholds at 1 ms (more of them met).  A file that
 * does not load is skipped.
 *
 *   triage-equal FILE...
 */
#include "config.h"

#include "model/open.h"
#include "query/frames.h"
#include "query/triage.h"
#include "tap.h"

#include <stdlib.h>

static const char *problem;

#define SAME(what, a, b)                                                       \
	do {                                                                   \
		if ((a) != (b)) {                                              \
			problem = what;                                        \
			return false;                                          \
		}                                                              \
	} while (0)
#define SAME_MEM(what, a, b, n)                                                \
	do {                                                                   \
		if ((n) > 0 && memcmp((a), (b), (n)) != 0) {                   \
			problem = what;                                        \
			return false;                                          \
		}                                                              \
	} while (0)

static bool
same_finding(const struct triage_finding *a, const struct triage_finding *b)
{
	SAME("rule", a->rule, b->rule);
	SAME("thread", a->thread, b->thread);
	SAME("severity", a->severity, b->severity);
	SAME_MEM("total", a->total, b->total, sizeof(a->total));
	SAME_MEM("idle", a->idle, b->idle, sizeof(a->idle));
	SAME("count", a->count, b->count);
	SAME("samples", a->samples, b->samples);
	SAME("enclosing", a->enclosing, b->enclosing);
	SAME("lower bound", a->lower_bound, b->lower_bound);
	SAME("worst", a->worst, b->worst);
	SAME("worst start", a->worst_start, b->worst_start);
	SAME_MEM("worst durations", a->worst_dur, b->worst_dur,
	         sizeof(a->worst_dur));
	SAME("worst lower", a->worst_lower, b->worst_lower);
	SAME("path length", a->npath, b->npath);
	SAME_MEM("path", a->path, b->path, a->npath * sizeof(*a->path));
	SAME("calls", a->ncalls, b->ncalls);
	SAME_MEM("call", a->calls, b->calls, a->ncalls * sizeof(*a->calls));
	SAME("methods", a->nmethods, b->nmethods);
	SAME_MEM("method", a->methods, b->methods,
	         a->nmethods * sizeof(*a->methods));
	return true;
}

static bool
same_triage(const struct triage *a, const struct triage *b, size_t nrules)
{
	size_t i;

	SAME("clock", a->clock, b->clock);
	SAME("main thread", a->main, b->main);
	SAME("how", a->how, b->how);
	SAME("pid", a->pid, b->pid);
	for (i = 0; i < TRIAGE_PHASES; i++) {
		SAME("phase found", a->phases[i].found, b->phases[i].found);
		SAME("phase call", a->phases[i].call, b->phases[i].call);
		SAME("phase start", a->phases[i].start, b->phases[i].start);
		SAME_MEM("phase durations", a->phases[i].dur, b->phases[i].dur,
		         sizeof(a->phases[i].dur));
		SAME("phase lower", a->phases[i].lower_bound,
		     b->phases[i].lower_bound);
	}
	SAME("launch", a->launch, b->launch);
	SAME("window start", a->window_start, b->window_start);
	SAME("window end", a->window_end, b->window_end);
	SAME("window lower", a->window_lower, b->window_lower);
	SAME("frames", a->frames.count, b->frames.count);
	for (i = 0; i < a->frames.count; i++) {
		const struct drawn_frame *x = &a->frames.frames[i],
		                         *y = &b->frames.frames[i];

		SAME("frame call", x->call, y->call);
		SAME("frame thread", x->thread, y->thread);
		SAME("frame start", x->start, y->start);
		SAME_MEM("frame durations", x->dur, y->dur, sizeof(x->dur));
		SAME("cause", a->cause[i], b->cause[i]);
		SAME("cause share", a->cause_share[i], b->cause_share[i]);
	}
	SAME("findings", a->count, b->count);
	for (i = 0; i < a->count; i++)
		if (!same_finding(&a->findings[i], &b->findings[i]))
			return false;
	SAME("undersampled", a->undersampled, b->undersampled);
	SAME_MEM("rule totals", a->rule_total, b->rule_total,
	         nrules * sizeof(*a->rule_total));
	SAME_MEM("rule counts", a->rule_count, b->rule_count,
	         nrules * sizeof(*a->rule_count));
	return true;
}

/* The triage of tree by rules, the plain way or the command's. */
static bool
compute(struct triage *t, const struct calltree *tree,
        const struct triage_rules *rules, const bool *is_frame, bool plain)
{
	char why[200];
	bool made;

	triage_calls_per_job = plain ? SIZE_MAX : 1;
	triage_plain = plain;
	made = triage_compute(t, tree, rules, is_frame,
	                      frames_budget_of_rate(FRAMES_DEFAULT_HZ), why,
	                      sizeof(why));
	triage_calls_per_job = 0;
	triage_plain = false;
	return made;
}

/* One file's two triages by rules compared, as one TAP line. */
static void
compare(const char *path, const struct calltree *tree,
        const struct triage_rules *rules, const char *which)
{
	char why[200];
	bool *is_frame = frames_methods(tree, NULL, why, sizeof(why));
	struct triage plain, fast;
	bool same;

	problem = "no triage";
	same = is_frame && compute(&plain, tree, rules, is_frame, true);
	if (same) {
		same = compute(&fast, tree, rules, is_frame, false);
		if (same) {
			same = same_triage(&plain, &fast, rules->count);
			triage_done(&fast);
		}
		triage_done(&plain);
	}
	if (!ok(same, "%s, %s: the same triage both ways", path, which))
		printf("#   first difference: %s\n", problem);
	free(is_frame);
}

int
main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		struct trace_error err = {0};
		struct calltree *tree = calltree_load(argv[i], &err);
		struct triage_rules rules = {0};
		char why[200];

		trace_error_clear(&err);
		if (!tree || calltree_is_profile(tree)) {
			printf("# %s: not a recording of calls, skipped\n",
			       argv[i]);
			calltree_free(tree);
			continue;
		}
		triage_rules_builtin(&rules);
		compare(argv[i], tree, &rules, "built-in rules");
		if (triage_rules_set_threshold(&rules, "R20=1", why,
		                               sizeof(why)) &&
		    triage_rules_set_threshold(&rules, "R21=1", why,
		                               sizeof(why)) &&
		    triage_rules_set_threshold(&rules, "R21s=1", why,
		                               sizeof(why)))
			compare(argv[i], tree, &rules, "thresholds of 1 ms");
		triage_rules_done(&rules);
		calltree_free(tree);
	}
	return done_testing();
}
