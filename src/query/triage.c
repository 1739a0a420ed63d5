/*
 * triage: one pass over each thread's calls in pre-order: the rules'
 * matches (a bit per rule per method, from one regexec per rule and
 * method), and in an instrumented model the frames (the outermost
 * calls of frame methods, as query/frames.c finds them; a sampled
 * model's, spans between samples, are found by query/frames.c before
 * the passes) and each slow frame's cause; the startup phases on the
 * main thread before them.  A call is inside an open outermost match
 * when the last call met at that match's depth is still the match:
 * pre-order reaches any shallower depth only through that one.  The
 * threads' passes are shared out among one worker per cpu, most calls
 * first; the workers' findings are put in order by the final sort (no
 * two are of one rule and thread), their frames joined in thread order.
 */
#include "config.h"

#include "query/triage.h"

#include "model/scope.h"
#include "query/method-name.h"
#include "util/alloc.h"
#include "util/jobs.h"
#include "util/pattern.h"
#include "util/sort.h"

#include <locale.h>
#include <regex.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t triage_calls_per_job;
bool triage_plain;

static const struct {
	const char *id, *name;
	const char *method[2]; /* the methods that make it, or NULL */
	int parent;            /* the phase it lies in, or -1 */
} phase_def[TRIAGE_PHASES] = {
        [TRIAGE_P1] = {"P1",
                       "bindApplication",
                       {"android.app.ActivityThread.handleBindApplication"},
                       -1},
        [TRIAGE_P1A] = {"P1a",
                        "Application object",
                        {"android.app.LoadedApk.makeApplication"},
                        TRIAGE_P1},
        [TRIAGE_P1B] = {"P1b",
                        "content providers",
                        {"android.app.ActivityThread.installContentProviders"},
                        TRIAGE_P1},
        [TRIAGE_P1C] = {"P1c",
                        "Application.onCreate",
                        {"android.app.Instrumentation.callApplicationOnCreate"},
                        TRIAGE_P1},
        [TRIAGE_P2] = {"P2", "queue before launch", {NULL}, -1},
        [TRIAGE_P3] = {"P3",
                       "activity launch",
                       {"android.app.ActivityThread.handleLaunchActivity",
                        "android.app.servertransaction.LaunchActivityItem."
                        "execute"},
                       -1},
        [TRIAGE_P3A] = {"P3a",
                        "Activity.onCreate",
                        {"android.app.Activity.performCreate"},
                        TRIAGE_P3},
        [TRIAGE_P3B] = {"P3b",
                        "Activity.onStart",
                        {"android.app.Activity.performStart",
                         "android.app.ActivityThread.handleStartActivity"},
                        -1},
        [TRIAGE_P3C] = {"P3c",
                        "resume",
                        {"android.app.ActivityThread.handleResumeActivity"},
                        -1},
        [TRIAGE_P4] = {"P4", "first frame", {NULL}, -1},
        [TRIAGE_P5] = {"P5", "fully drawn", {NULL}, -1},
};

const char *
triage_phase_id(enum triage_phase_id p)
{
	return phase_def[p].id;
}

const char *
triage_phase_name(enum triage_phase_id p)
{
	return phase_def[p].name;
}

const char *
triage_main_how_text(enum triage_main_how how)
{
	switch (how) {
	case TRIAGE_MAIN_PID:
		return "tid == pid from the key";
	case TRIAGE_MAIN_PROCESS:
		return "tid == its process id";
	case TRIAGE_MAIN_NAMED:
		return "the thread named main (no pid)";
	case TRIAGE_MAIN_NONE:
		break;
	}
	return "not found: no pid and no thread named main";
}

/* Whether full name `full` is method `name`: "CLASS.METHOD" then a
 * signature or nothing. */
static bool
method_is(const char *full, const char *name)
{
	size_t n = strlen(name);

	return strncmp(full, name, n) == 0 &&
	       (full[n] == ' ' || full[n] == '\0');
}

static bool
has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The application's methods among the nmethods full names. */
static bool *
app_methods(char *const *names, size_t nmethods)
{
	static const char *const platform[] = {"android.",
	                                       "androidx.",
	                                       "java.",
	                                       "javax.",
	                                       "dalvik.",
	                                       "libcore.",
	                                       "sun.",
	                                       "jdk.",
	                                       "com.android.",
	                                       "kotlin.",
	                                       "kotlinx.",
	                                       "com.google.android.",
	                                       "org.apache.harmony.",
	                                       "org.json.",
	                                       "org.xml.",
	                                       "org.w3c."};
	bool *app = xcalloc(nmethods + 1, sizeof(*app));
	size_t m, i;

	for (m = 0; m < nmethods; m++) {
		const char *name = names[m];
		size_t sig = strcspn(name, " (");

		/* A Java name has a dot before its signature; a native
		 * frame's ("art::Thread::Run", "libc.so") is not. */
		app[m] = memchr(name, '.', sig) && !strstr(name, "::");
		for (i = 0; app[m] && i < sizeof(platform) / sizeof(*platform);
		     i++)
			if (has_prefix(name, platform[i]))
				app[m] = false;
	}
	return app;
}

/* Every method's full name (method_full_name), built once for all the
 * tables triage makes of them; free with triage_free_names. */
char **
triage_full_names(const struct calltree *tree)
{
	char **names = xcalloc(tree->nmethods + 1, sizeof(*names));
	size_t m;

	for (m = 0; m < tree->nmethods; m++)
		names[m] = method_full_name(&tree->methods[m]);
	return names;
}

/* Release what triage_full_names made of nmethods names. */
void
triage_free_names(char **names, size_t nmethods)
{
	size_t m;

	for (m = 0; m < nmethods; m++)
		free(names[m]);
	free(names);
}

bool *
triage_app_methods(const struct calltree *tree)
{
	char **names = triage_full_names(tree);
	bool *app = app_methods(names, tree->nmethods);

	triage_free_names(names, tree->nmethods);
	return app;
}

/* The main thread: tid == pid (the key's, or a simpleperf thread's own
 * process), else the thread named main. */
void
triage_find_main(struct triage *out, const struct calltree *tree)
{
	const char *pid = calltree_property(tree, "pid");
	size_t i, best_calls = 0;
	long t;

	out->main = -1;
	out->how = TRIAGE_MAIN_NONE;
	if (pid && *pid) {
		char *end;
		unsigned long long v = strtoull(pid, &end, 10);

		t = !*end && v <= UINT32_MAX
		            ? calltree_find_thread(tree, (uint32_t)v)
		            : -1;
		if (t >= 0) {
			out->main = t;
			out->how = TRIAGE_MAIN_PID;
			out->pid = v;
			return;
		}
	}
	for (i = 0; i < tree->nproperties; i++) {
		const char *v = tree->properties[i].value;
		unsigned long long tid, p;
		char *end;

		if (strcmp(tree->properties[i].key, "simpleperf-thread") != 0)
			continue;
		tid = strtoull(v, &end, 10);
		if (*end != '\t')
			continue;
		p = strtoull(end + 1, &end, 10);
		if (*end != '\t' || tid != p || tid > UINT32_MAX)
			continue;
		t = calltree_find_thread(tree, (uint32_t)tid);
		if (t < 0 ||
		    (out->main >= 0 &&
		     calltree_thread_calls(tree, (size_t)t) <= best_calls))
			continue;
		out->main = t;
		out->how = TRIAGE_MAIN_PROCESS;
		out->pid = p;
		best_calls = calltree_thread_calls(tree, (size_t)t);
	}
	if (out->main >= 0)
		return;
	for (i = 0; i < tree->nthreads; i++) {
		if (strcmp(tree->threads[i].name, "main") == 0) {
			out->main = (long)i;
			out->how = TRIAGE_MAIN_NAMED;
			return;
		}
	}
}

/* A hot rule's exclusive sums per method over one span: a frame, or
 * the startup window. */
struct hot_acc {
	uint64_t *cpu, *wall; /* by method */
	uint32_t *best;       /* by method: its call of most cpu */
	uint64_t *best_cpu;   /* and that call's exclusive cpu */
	uint32_t *stamp;      /* by method: the span that last touched it */
	uint32_t *touched;    /* the methods touched in this span */
	size_t ntouched;
	uint32_t span; /* this span's stamp, from 1 */
	/* The span's calls: [first, last] of its thread, in pre-order
	 * (CALL_NONE: none added yet). */
	uint32_t first, last;
};

static void
hot_acc_init(struct hot_acc *h, size_t nmethods)
{
	memset(h, 0, sizeof(*h));
	h->cpu = xcalloc(nmethods + 1, sizeof(*h->cpu));
	h->wall = xcalloc(nmethods + 1, sizeof(*h->wall));
	h->best = xcalloc(nmethods + 1, sizeof(*h->best));
	h->best_cpu = xcalloc(nmethods + 1, sizeof(*h->best_cpu));
	h->stamp = xcalloc(nmethods + 1, sizeof(*h->stamp));
	h->touched = xcalloc(nmethods + 1, sizeof(*h->touched));
	h->span = 1;
	h->first = h->last = CALL_NONE;
}

static void
hot_acc_done(struct hot_acc *h)
{
	free(h->cpu);
	free(h->wall);
	free(h->best);
	free(h->best_cpu);
	free(h->stamp);
	free(h->touched);
	memset(h, 0, sizeof(*h));
}

/* Call c of method m, its exclusive times wall and cpu, into the span. */
static void
hot_acc_add(struct hot_acc *h, uint32_t c, uint32_t m, uint64_t wall,
            uint64_t cpu)
{
	if (h->stamp[m] != h->span) {
		h->stamp[m] = h->span;
		h->cpu[m] = h->wall[m] = 0;
		h->best[m] = c;
		h->best_cpu[m] = cpu;
		h->touched[h->ntouched++] = m;
	} else if (cpu > h->best_cpu[m]) {
		h->best[m] = c;
		h->best_cpu[m] = cpu;
	}
	h->wall[m] += wall;
	h->cpu[m] += cpu;
	if (h->first == CALL_NONE || c < h->first)
		h->first = c;
	if (h->last == CALL_NONE || c > h->last)
		h->last = c;
}

/* A call whose subtree the pass is still in, and what its children's
 * durations sum to: its exclusive times when it closes. */
struct open_call {
	uint32_t c; /* CALL_NONE: no call open at this depth */
	uint8_t what;
	uint64_t dur[CLOCK_COUNT], child[CLOCK_COUNT];
};

enum {
	OPEN_FRAME = 1,     /* a frame: its hot spots settle as it closes */
	OPEN_IN_FRAME = 2,  /* an application call inside a frame */
	OPEN_IN_WINDOW = 4, /* an application call in the startup window */
	OPEN_BLOCKED = 8,   /* a blocked rule's call, its cause not visible */
};

/* What a call of a method asks of a thread's pass, per method: the
 * rules that apply on the main thread, or on the others. */
enum {
	ASK_UNION = 1 << 0,   /* a union rule's */
	ASK_BLOCKED = 1 << 1, /* a blocked rule's */
	ASK_IDLE = 1 << 2,    /* idle */
	ASK_APP = 1 << 3,     /* an application's (hot rules) */
	ASK_FRAME = 1 << 4,   /* a frame method (frames found in the pass) */
};

/* What a pass over one thread keeps per rule. */
struct rule_state {
	uint32_t open; /* the open outermost match, or CALL_NONE */
	uint32_t open_depth;
	struct triage_finding f;
};

struct pass {
	const struct calltree *tree;
	const struct triage_rules *rules;
	const uint64_t *match; /* nwords per method */
	size_t nwords;
	const uint8_t *known;
	const bool *is_frame;   /* per method */
	const uint8_t *asks[2]; /* per method: on other threads, the main */
	const uint8_t *ask;     /* the thread's of them */
	/* On other threads and the main one: blocked_floor and
	 * hot_frame_floor below. */
	uint64_t floors[2][2];
	enum clock_index k;
	uint32_t *path;    /* path[d]: the last call met at depth d */
	uint8_t *encloses; /* per call of the thread: holds a looper */
	struct rule_state *st;
	const bool *app;         /* per method: an application's */
	struct open_call *stack; /* stack[d]: the open call at depth d */
	long top;                /* the deepest open depth, or -1 */
	struct hot_acc hot[2];   /* a frame's, the startup window's */
	uint32_t *seen;          /* per method, for finding_methods */
	uint32_t seen_stamp;
	/* The rules that apply on the thread of the pass: per word of
	 * match, the union, blocked and cause rules' bits, and the blocked
	 * rules listed; the cause rules that took a call there so far. */
	uint64_t *union_on, *blocked_on, *cause_on;
	size_t *blocked, nblocked;
	size_t *cause_open, ncause_open;
	/* The least wall time of a call (blocked) or cpu time of a frame
	 * (hot-frame) for which a rule of that kind on the thread can
	 * count anything: a call's exclusive wall less its cpu is at most
	 * its wall time, and the exclusive cpu times summed inside a
	 * frame at most the frame's, the clocks never stepping back on a
	 * thread (calls nest in time).  UINT64_MAX: none can. */
	uint64_t blocked_floor, hot_frame_floor;
	/* What the pass adds to struct triage's per rule sums and
	 * undersampled count, joined once every pass is done. */
	uint64_t *rule_total, *rule_count;
	size_t undersampled;
};

/* Findings made by one worker. */
struct finding_list {
	struct triage_finding *findings;
	size_t count, cap;
};

/* The frames of one thread, [from, from + count) of a worker's. */
struct frame_run {
	uint32_t thread;
	uint32_t job; /* the worker's index, once joined */
	size_t from, count;
};

/* Frames found by one worker's passes, thread by thread, and their
 * causes. */
struct frame_list {
	struct frames frames; /* out's clock and budget */
	size_t cap;
	uint32_t *cause;
	double *share;
	size_t causes_cap;
	struct frame_run *runs;
	size_t nruns, runs_cap;
};

/* Mark the calls of thread t that hold a Looper.loop or
 * ActivityThread.main call below them: the callers of each such call,
 * up to one already marked (its callers are).  Only the methods are
 * read for every call; the few loopers' callers are looked up. */
static void
mark_enclosing(struct pass *p, size_t t)
{
	const struct calltree *tree = p->tree;
	size_t first = tree->threads[t].first_call, n = tree->threads[t].ncalls;
	size_t i;

	memset(p->encloses, 0, n);
	for (i = 0; i < n; i++) {
		uint32_t c;

		if (!(p->known[calltree_method(tree, first + i)] &
		      KNOWN_LOOPER))
			continue;
		for (c = calltree_parent(tree, first + i);
		     c != CALL_NONE && !p->encloses[c - first];
		     c = calltree_parent(tree, c))
			p->encloses[c - first] = 1;
	}
}

static bool
inside(const struct pass *p, const struct rule_state *s, uint32_t d)
{
	return s->open != CALL_NONE && s->open_depth < d &&
	       p->path[s->open_depth] == s->open;
}

/* Call c, a new outermost match of rule r, into its finding. */
static void
take_call(struct pass *p, struct rule_state *s, uint32_t c, uint32_t d)
{
	const struct calltree *tree = p->tree;
	uint64_t dur[CLOCK_COUNT];
	bool lower = tree->calls.flags[c] & (CALL_OPEN_AT_END | CALL_ORPHAN);
	int k;

	calltree_durations(tree, c, dur);
	s->open = c;
	s->open_depth = d;
	for (k = 0; k < CLOCK_COUNT; k++)
		s->f.total[k] += dur[k];
	s->f.lower_bound |= lower;
	if (!s->f.count++ || dur[p->k] > s->f.worst_dur[p->k]) {
		s->f.worst = c;
		s->f.worst_start = calltree_start(tree, c, p->k);
		memcpy(s->f.worst_dur, dur, sizeof(dur));
		s->f.worst_lower = lower;
	}
}

/* The worst call's path: from its nearest dispatchMessage caller (or
 * its thread's root) down to its own method. */
static void
worst_path(const struct pass *p, struct triage_finding *f)
{
	const struct calltree *tree = p->tree;
	size_t n = 0, cap = 0, i;
	uint32_t c = f->worst, *m = NULL;

	while (c != CALL_NONE) {
		uint32_t method = calltree_method(tree, c);

		UTIL_GROW(m, cap, n + 1);
		m[n++] = method;
		if (p->known[method] & KNOWN_DISPATCH)
			break;
		c = calltree_parent(tree, c);
	}
	for (i = 0; i < n / 2; i++) {
		uint32_t x = m[i];

		m[i] = m[n - 1 - i];
		m[n - 1 - i] = x;
	}
	f->path = m;
	f->npath = n;
}

/* Estimated samples of a finding in a sampled recording; UINT64_MAX for
 * an instrumented one. */
uint64_t
triage_finding_samples(const struct calltree *tree,
                       const struct triage_finding *f, enum clock_index k)
{
	if (tree->header.sample_weight)
		return f->total[CLOCK_CPU] / tree->header.sample_weight;
	if (tree->sampled && tree->sample_interval)
		return (f->total[k] + tree->sample_interval / 2) /
		       tree->sample_interval;
	return UINT64_MAX;
}

/* Call c (index i of its thread) into the calls a finding counts. */
static void
count_call(struct triage_finding *f, uint32_t c)
{
	size_t cap = f->ncalls;

	/* f->calls grows by doubling: its capacity is a power of two. */
	if (!(cap & (cap - 1))) {
		f->calls = xreallocarray(f->calls, cap ? cap * 2 : 1,
		                         sizeof(*f->calls));
	}
	f->calls[f->ncalls++] = c;
}

/* The hot spots of one span of kind into the findings of its rules:
 * the methods whose exclusive cpu there meets a rule's WHEN. */
static void
settle_hot(struct pass *p, struct hot_acc *h, enum triage_kind kind,
           bool is_main)
{
	const struct triage_rules *rules = p->rules;
	size_t r, i, j;

	for (r = 0; r < rules->count; r++) {
		const struct triage_rule *rule = &rules->rules[r];
		struct triage_finding *f = &p->st[r].f;
		const uint64_t *bits;
		bool any = false;

		if (rule->kind != kind || !triage_rule_applies(rule, is_main))
			continue;
		for (i = 0; i < h->ntouched; i++) {
			uint32_t m = h->touched[i];

			bits = p->match + (size_t)m * p->nwords;
			if (!(bits[r / 64] >> (r % 64) & 1) ||
			    !triage_when_holds(&rule->when, (double)h->cpu[m],
			                       0, 0))
				continue;
			f->total[CLOCK_WALL] += h->wall[m];
			f->total[CLOCK_CPU] += h->cpu[m];
			if (!f->count++ ||
			    h->cpu[m] > f->worst_dur[CLOCK_CPU]) {
				f->worst = h->best[m];
				f->worst_start = calltree_start(
				        p->tree, h->best[m], p->k);
				f->worst_dur[CLOCK_WALL] = h->wall[m];
				f->worst_dur[CLOCK_CPU] = h->cpu[m];
				f->worst_lower = false;
			}
			/* Marked hot for the calls below: stamp 0. */
			h->stamp[m] = 0;
			any = true;
		}
		/* The hot methods' calls: those of the span (contiguous
		 * in pre-order) marked so. */
		for (j = h->first; any && j <= h->last; j++) {
			uint32_t m = calltree_method(p->tree, j);

			if (p->app[m] && !h->stamp[m])
				count_call(f, (uint32_t)j);
		}
		/* Unmarked for the next rule. */
		for (i = 0; any && i < h->ntouched; i++)
			h->stamp[h->touched[i]] = h->span;
	}
	h->span++;
	h->ntouched = 0;
	h->first = h->last = CALL_NONE;
}

/* Whether rule's WHEN holds for time v: v as the call's time of a
 * blocked rule, as the total of a hot one. */
static bool
when_holds_at(const struct triage_rule *rule, uint64_t v)
{
	if (rule->kind == TRIAGE_BLOCKED)
		return triage_when_holds(&rule->when, 0, (double)v, 0);
	return triage_when_holds(&rule->when, (double)v, 0, 0);
}

/* The least time for which rule's WHEN holds (when_holds_at), or
 * UINT64_MAX: found by halving, WHEN holding from some time on. */
static uint64_t
when_floor(const struct triage_rule *rule)
{
	uint64_t lo = 0, hi = UINT64_MAX;

	if (!when_holds_at(rule, hi))
		return UINT64_MAX;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (when_holds_at(rule, mid))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* The rules of each kind that apply on a thread (the main thread or
 * not) into p's masks, lists and floors. */
static void
thread_rules(struct pass *p, bool is_main)
{
	const struct triage_rules *rules = p->rules;
	size_t r;

	memset(p->union_on, 0, p->nwords * sizeof(*p->union_on));
	memset(p->blocked_on, 0, p->nwords * sizeof(*p->blocked_on));
	memset(p->cause_on, 0, p->nwords * sizeof(*p->cause_on));
	p->nblocked = p->ncause_open = 0;
	p->ask = p->asks[is_main];
	p->blocked_floor = p->floors[is_main][0];
	p->hot_frame_floor = p->floors[is_main][1];
	for (r = 0; r < rules->count; r++) {
		const struct triage_rule *rule = &rules->rules[r];
		uint64_t bit = 1ULL << (r % 64);

		if (!triage_rule_applies(rule, is_main))
			continue;
		if (rule->kind == TRIAGE_UNION)
			p->union_on[r / 64] |= bit;
		if (rule->kind == TRIAGE_BLOCKED) {
			p->blocked_on[r / 64] |= bit;
			p->blocked[p->nblocked++] = r;
		}
		if (rule->cause)
			p->cause_on[r / 64] |= bit;
	}
}

/* The floors (struct pass) of the rules that apply on the main thread
 * (is_main) or the others into floor[0] (blocked) and floor[1]
 * (hot-frame). */
void
triage_rule_floors(const struct triage_rules *rules, bool is_main,
                   uint64_t *floor)
{
	size_t r;

	floor[0] = floor[1] = triage_plain ? 0 : UINT64_MAX;
	for (r = 0; r < rules->count && !triage_plain; r++) {
		const struct triage_rule *rule = &rules->rules[r];
		int i = rule->kind == TRIAGE_HOT_FRAME;
		uint64_t v;

		if (!triage_rule_applies(rule, is_main) ||
		    (rule->kind != TRIAGE_BLOCKED && !i))
			continue;
		v = when_floor(rule);
		if (v < floor[i])
			floor[i] = v;
	}
}

/* Whether the method bits of match hold one of the rules of mask. */
static bool
any_rule(const struct pass *p, const uint64_t *bits, const uint64_t *mask)
{
	size_t w;

	for (w = 0; w < p->nwords; w++)
		if (bits[w] & mask[w])
			return true;
	return false;
}

/* Whether call c (method m at depth d) shows why it is off the CPU: it
 * is idle, or of a cause rule's pattern, or inside a cause rule's call. */
static bool
cause_visible(const struct pass *p, uint32_t m, uint32_t d)
{
	size_t i;

	if (p->known[m] & KNOWN_IDLE ||
	    any_rule(p, p->match + (size_t)m * p->nwords, p->cause_on))
		return true;
	for (i = 0; i < p->ncause_open; i++)
		if (inside(p, &p->st[p->cause_open[i]], d))
			return true;
	return false;
}

/* Call c, closed with exclusive times wall and cpu, into the blocked
 * rules' findings. */
static void
blocked_close(struct pass *p, uint32_t c, uint64_t wall, uint64_t cpu)
{
	const struct triage_rules *rules = p->rules;
	uint32_t m = calltree_method(p->tree, c);
	const uint64_t *bits = p->match + (size_t)m * p->nwords;
	uint64_t off = wall > cpu ? wall - cpu : 0;
	size_t r, j;

	for (j = 0; j < p->nblocked; j++) {
		const struct triage_rule *rule = &rules->rules[p->blocked[j]];
		struct triage_finding *f = &p->st[p->blocked[j]].f;

		r = p->blocked[j];
		if (!(bits[r / 64] >> (r % 64) & 1) ||
		    !triage_when_holds(&rule->when, 0, (double)off, 0))
			continue;
		f->total[CLOCK_WALL] += off;
		f->total[CLOCK_CPU] += cpu;
		f->lower_bound |= p->tree->calls.flags[c] &
		                  (CALL_OPEN_AT_END | CALL_ORPHAN);
		if (!f->count++ || off > f->worst_dur[CLOCK_WALL]) {
			f->worst = c;
			f->worst_start = calltree_start(p->tree, c, p->k);
			f->worst_dur[CLOCK_WALL] = off;
			f->worst_dur[CLOCK_CPU] = cpu;
			f->worst_lower = p->tree->calls.flags[c] &
			                 (CALL_OPEN_AT_END | CALL_ORPHAN);
		}
		count_call(f, c);
	}
}

/* The open call at the top of the stack closes: its exclusive times
 * into the blocked and hot rules it is a call of. */
static void
close_top(struct pass *p, bool is_main)
{
	struct open_call *e = &p->stack[p->top--];
	uint64_t x[CLOCK_COUNT];
	uint32_t m;
	int k;

	if (e->c == CALL_NONE || !e->what)
		return;
	for (k = 0; k < CLOCK_COUNT; k++)
		x[k] = e->dur[k] > e->child[k] ? e->dur[k] - e->child[k] : 0;
	m = calltree_method(p->tree, e->c);
	if (e->what & OPEN_BLOCKED)
		blocked_close(p, e->c, x[CLOCK_WALL], x[CLOCK_CPU]);
	if (e->what & OPEN_IN_FRAME)
		hot_acc_add(&p->hot[0], e->c, m, x[CLOCK_WALL], x[CLOCK_CPU]);
	if (e->what & OPEN_IN_WINDOW)
		hot_acc_add(&p->hot[1], e->c, m, x[CLOCK_WALL], x[CLOCK_CPU]);
	if (e->what & OPEN_FRAME)
		settle_hot(p, &p->hot[0], TRIAGE_HOT_FRAME, is_main);
}

/* Call c at depth d opens: the calls open at d or deeper close, and its
 * durations go to its caller's children when its caller is pushed.
 * Only a call with something to settle (what) needs its exclusive
 * times: it alone is pushed, and the durations are read for it and its
 * children alone.  So every call on the stack is a caller of the calls
 * met until it closes. */
static void
open_push(struct pass *p, uint32_t c, uint32_t d, uint8_t what, bool is_main)
{
	struct open_call *e;
	bool to_caller;
	long j;
	int k;

	while (p->top >= (long)d) {
		if (p->stack[p->top].what)
			close_top(p, is_main);
		else
			p->top--;
	}
	to_caller = d > 0 && p->top == (long)d - 1 &&
	            p->stack[d - 1].c != CALL_NONE && p->stack[d - 1].what;
	if (!what) {
		uint64_t dur[CLOCK_COUNT];

		/* Nothing to settle: only its caller's exclusive times
		 * want it. */
		if (to_caller) {
			calltree_durations(p->tree, c, dur);
			for (k = 0; k < CLOCK_COUNT; k++)
				p->stack[d - 1].child[k] += dur[k];
		}
		return;
	}
	for (j = p->top + 1; j < (long)d; j++) {
		p->stack[j].c = CALL_NONE;
		p->stack[j].what = 0;
	}
	e = &p->stack[d];
	e->c = c;
	e->what = what;
	calltree_durations(p->tree, c, e->dur);
	memset(e->child, 0, sizeof(e->child));
	if (to_caller)
		for (k = 0; k < CLOCK_COUNT; k++)
			p->stack[d - 1].child[k] += e->dur[k];
	p->top = (long)d;
}

static int
u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The distinct methods of f's calls, in order of first call. */
static void
finding_methods(const struct calltree *tree, struct triage_finding *f,
                uint32_t *seen_stamp, uint32_t stamp)
{
	size_t i, cap = 0;

	for (i = 0; i < f->ncalls; i++) {
		uint32_t m = calltree_method(tree, f->calls[i]);

		if (seen_stamp[m] == stamp)
			continue;
		seen_stamp[m] = stamp;
		UTIL_GROW(f->methods, cap, f->nmethods + 1);
		f->methods[f->nmethods++] = m;
	}
}

/* Idle call c at depth d: its time out of the no-idle rules' calls it
 * is inside. */
static void
idle_call(struct pass *p, uint32_t c, uint32_t d)
{
	const struct triage_rules *rules = p->rules;
	uint64_t dur[CLOCK_COUNT];
	size_t r;
	int k;

	calltree_durations(p->tree, c, dur);
	for (r = 0; r < rules->count; r++) {
		struct rule_state *s = &p->st[r];

		if (!rules->rules[r].no_idle || !inside(p, s, d))
			continue;
		for (k = 0; k < CLOCK_COUNT; k++)
			s->f.idle[k] += dur[k];
	}
}

/* Call c at depth d (index i of its thread) into the union rules of
 * the thread it matches: an outermost match of those it is not inside
 * a call of. */
static void
union_call(struct pass *p, uint32_t c, uint32_t d, size_t i)
{
	const uint64_t *bits =
	        p->match + (size_t)calltree_method(p->tree, c) * p->nwords;
	size_t w, r;

	for (w = 0; w < p->nwords; w++) {
		uint64_t b = bits[w] & p->union_on[w];

		while (b) {
			int bit = __builtin_ctzll(b);
			struct rule_state *s;

			b &= b - 1;
			r = w * 64 + (size_t)bit;
			s = &p->st[r];
			if (inside(p, s, d))
				continue;
			if (p->encloses[i]) {
				s->f.enclosing++;
				continue;
			}
			if (s->open == CALL_NONE && p->cause_on[w] >> bit & 1)
				p->cause_open[p->ncause_open++] = r;
			take_call(p, s, c, d);
		}
	}
}

/* Frame call c of thread t into found, after the thread's frames so
 * far. */
static void
add_frame(struct frame_list *found, const struct calltree *tree, size_t t,
          uint32_t c)
{
	struct frames *fr = &found->frames;
	struct drawn_frame *f;
	struct frame_run *run;
	int i;

	if (!found->nruns || found->runs[found->nruns - 1].thread != t) {
		UTIL_GROW(found->runs, found->runs_cap, found->nruns + 1);
		found->runs[found->nruns++] =
		        (struct frame_run){(uint32_t)t, 0, fr->count, 0};
	}
	run = &found->runs[found->nruns - 1];
	UTIL_GROW(fr->frames, found->cap, fr->count + 1);
	f = &fr->frames[fr->count++];
	memset(f, 0, sizeof(*f));
	f->call = c;
	f->thread = (uint32_t)t;
	f->start = calltree_start(tree, c, fr->clock);
	calltree_durations(tree, c, f->dur);
	for (i = 0; i < FRAME_HOT; i++)
		f->hot[i] = CALL_NONE;
	run->count++;
}

/* The findings of thread t into list; its frames out->frames [fi, fend),
 * or, with found, found in the pass (query/frames.c's: the outermost
 * calls of frame methods) and added to it.  out is only read. */
static void
thread_findings(const struct triage *out, struct pass *p, size_t t, size_t fi,
                size_t fend, struct frame_list *found,
                struct finding_list *list)
{
	const struct calltree *tree = p->tree;
	const struct triage_rules *rules = p->rules;
	size_t first = tree->threads[t].first_call, n = tree->threads[t].ncalls;
	bool is_main = out->main == (long)t;
	size_t i, r;
	bool any = false, blocked = false, hot[2] = {false, false}, track;
	bool dual = tree->has_clock[CLOCK_WALL] && tree->has_clock[CLOCK_CPU];
	uint32_t frame = CALL_NONE, frame_depth = 0;
	bool drawing = false; /* found: inside a frame, at depth drawn */
	uint32_t drawn = 0, *path;
	const uint8_t *asks;
	uint8_t what;

	for (r = 0; r < rules->count; r++) {
		const struct triage_rule *rule = &rules->rules[r];

		memset(&p->st[r], 0, sizeof(p->st[r]));
		p->st[r].open = CALL_NONE;
		if (!triage_rule_applies(rule, is_main))
			continue;
		any = true;
		blocked |= rule->kind == TRIAGE_BLOCKED && dual;
		if (rule->kind == TRIAGE_HOT_FRAME &&
		    tree->has_clock[CLOCK_CPU])
			hot[0] = true;
		if (rule->kind == TRIAGE_HOT_STARTUP &&
		    tree->has_clock[CLOCK_CPU] && is_main && out->launch)
			hot[1] = true;
	}
	if (!n || (!any && !found))
		return;
	if (any)
		mark_enclosing(p, t);
	thread_rules(p, is_main);
	track = blocked || hot[0] || hot[1];
	p->top = -1;
	if (!hot[0])
		fi = fend;
	path = p->path;
	asks = p->ask;
	for (i = 0; i < n; i++) {
		uint32_t c = (uint32_t)(first + i);
		uint32_t m = calltree_method(tree, c);
		uint32_t d = calltree_depth(tree, c);
		uint8_t ask = asks[m];
		bool frame_call = false;

		path[d] = c;
		what = 0;
		if (frame != CALL_NONE &&
		    !(frame_depth < d && path[frame_depth] == frame))
			frame = CALL_NONE;
		if (found) {
			if (drawing && d <= drawn)
				drawing = false;
			if (!drawing && ask & ASK_FRAME) {
				add_frame(found, tree, t, c);
				drawing = true;
				drawn = d;
				frame_call = hot[0];
			}
		} else {
			while (fi < fend &&
			       (out->frames.frames[fi].call == CALL_NONE ||
			        out->frames.frames[fi].call < c))
				fi++;
			if (fi < fend && out->frames.frames[fi].call == c) {
				fi++;
				frame_call = true;
			}
		}
		if (frame_call) {
			/* A frame none of whose methods can be hot is
			 * passed over. */
			if (calltree_duration(tree, c, CLOCK_CPU) >=
			    p->hot_frame_floor) {
				frame = c;
				frame_depth = d;
				what |= OPEN_FRAME;
			}
		} else if (frame != CALL_NONE && ask & ASK_APP) {
			what |= OPEN_IN_FRAME;
		}
		if (!(ask & ~ASK_FRAME)) {
			/* Nothing open to settle, nothing to push. */
			if (track && (what || p->top >= 0))
				open_push(p, c, d, what, is_main);
			continue;
		}
		if (hot[1] && ask & ASK_APP) {
			uint64_t start = calltree_start(tree, c, out->clock);

			if (start >= out->window_start &&
			    start < out->window_end)
				what |= OPEN_IN_WINDOW;
		}
		if (ask & ASK_IDLE)
			idle_call(p, c, d);
		if (ask & ASK_UNION)
			union_call(p, c, d, i);
		if (blocked && ask & ASK_BLOCKED &&
		    calltree_duration(tree, c, CLOCK_WALL) >=
		            p->blocked_floor &&
		    !cause_visible(p, m, d))
			what |= OPEN_BLOCKED;
		if (track && (what || p->top >= 0))
			open_push(p, c, d, what, is_main);
	}
	while (track && p->top >= 0)
		close_top(p, is_main);
	if (hot[1])
		settle_hot(p, &p->hot[1], TRIAGE_HOT_STARTUP, is_main);
	for (r = 0; r < rules->count; r++) {
		const struct triage_rule *rule = &rules->rules[r];
		struct triage_finding *f = &p->st[r].f;
		double total, call;
		int k;

		if (!f->count)
			continue;
		for (k = 0; k < CLOCK_COUNT; k++)
			f->total[k] -= f->idle[k] < f->total[k] ? f->idle[k]
			                                        : f->total[k];
		p->rule_total[r] += f->total[p->k];
		p->rule_count[r] += f->count;
		total = (double)f->total[p->k];
		call = (double)f->worst_dur[p->k];
		/* A blocked or hot rule's calls met WHEN one by one. */
		f->samples = triage_finding_samples(tree, f, p->k);
		if ((rule->kind == TRIAGE_UNION &&
		     !triage_when_holds(&rule->when, total, call,
		                        (double)f->count)) ||
		    f->samples < TRIAGE_MIN_SAMPLES) {
			p->undersampled +=
			        f->samples < TRIAGE_MIN_SAMPLES &&
			        (rule->kind != TRIAGE_UNION ||
			         triage_when_holds(&rule->when, total, call,
			                           (double)f->count));
			free(f->calls);
			f->calls = NULL;
			continue;
		}
		if (rule->kind != TRIAGE_UNION) {
			qsort(f->calls, f->ncalls, sizeof(*f->calls), u32_cmp);
			finding_methods(tree, f, p->seen, ++p->seen_stamp);
		}
		f->rule = r;
		f->thread = (uint32_t)t;
		f->worst_method = calltree_method(tree, f->worst);
		f->severity = triage_when_holds(&rule->error, total, call,
		                                (double)f->count)
		                      ? TRIAGE_ERROR
		                      : rule->severity;
		worst_path(p, f);
		UTIL_GROW(list->findings, list->cap, list->count + 1);
		list->findings[list->count++] = *f;
	}
}

static bool
is_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

/*
 * A bit per rule per method: whether the rule's pattern matches it.  An
 * ASCII pattern is matched against ASCII names under the C locale's
 * character type: the same matches as in any locale for ASCII text
 * (`calls`, the drill, matches in the user's), without the multibyte
 * decoding a UTF-8 locale gives every character of every name.
 */
uint64_t *
triage_match_rules(const struct calltree *tree, char *const *names,
                   const struct triage_rules *rules, size_t nwords, char *why,
                   size_t size)
{
	uint64_t *match =
	        xcalloc((tree->nmethods + 1) * nwords, sizeof(*match));
	bool *ascii = xcalloc(tree->nmethods + 1, sizeof(*ascii));
	locale_t c_ctype = newlocale(LC_CTYPE_MASK, "C", (locale_t)0);
	size_t m, r;
	bool ok = true;

	for (m = 0; m < tree->nmethods; m++)
		ascii[m] = is_ascii(names[m]);
	for (r = 0; r < rules->count && ok; r++) {
		const char *pattern = rules->rules[r].pattern;
		bool fast = c_ctype != (locale_t)0 && is_ascii(pattern);
		regex_t re, re_c;
		char msg[200];

		if (pattern_compile(&re, pattern, REG_EXTENDED | REG_NOSUB, msg,
		                    sizeof(msg))) {
			snprintf(why, size, "rule %s: %s", rules->rules[r].id,
			         msg);
			ok = false;
			break;
		}
		if (fast) {
			locale_t was = uselocale(c_ctype);

			fast = !pattern_compile(&re_c, pattern,
			                        REG_EXTENDED | REG_NOSUB, msg,
			                        sizeof(msg));
			for (m = 0; fast && m < tree->nmethods; m++)
				if (ascii[m] &&
				    regexec(&re_c, names[m], 0, NULL, 0) == 0)
					match[m * nwords + r / 64] |=
					        1ULL << (r % 64);
			if (fast)
				regfree(&re_c);
			uselocale(was);
		}
		for (m = 0; m < tree->nmethods; m++)
			if ((!fast || !ascii[m]) &&
			    regexec(&re, names[m], 0, NULL, 0) == 0)
				match[m * nwords + r / 64] |= 1ULL << (r % 64);
		regfree(&re);
	}
	if (c_ctype != (locale_t)0)
		freelocale(c_ctype);
	free(ascii);
	if (!ok) {
		free(match);
		return NULL;
	}
	return match;
}

/* The methods triage knows by name among the nmethods full names. */
uint8_t *
triage_known_methods(char *const *names, size_t nmethods)
{
	uint8_t *known = xcalloc(nmethods + 1, 1);
	size_t m;

	for (m = 0; m < nmethods; m++) {
		const char *n = names[m];

		if (method_is(n, "android.os.MessageQueue.nativePollOnce"))
			known[m] |= KNOWN_IDLE;
		if (method_is(n, "android.os.Looper.loop") ||
		    method_is(n, "android.app.ActivityThread.main"))
			known[m] |= KNOWN_LOOPER;
		if (method_is(n, "android.os.Handler.dispatchMessage"))
			known[m] |= KNOWN_DISPATCH;
		if (method_is(n, "android.view.ViewRootImpl.performTraversals"))
			known[m] |= KNOWN_TRAVERSAL;
		if (method_is(n, "android.app.Activity.reportFullyDrawn"))
			known[m] |= KNOWN_FULLY_DRAWN;
		if (method_is(n, "android.app.Activity.performRestart"))
			known[m] |= KNOWN_RESTART;
	}
	return known;
}

/* Phase p from call c. */
static void
set_phase(struct triage *out, enum triage_phase_id p, uint32_t c)
{
	const struct calltree *tree = out->tree;
	struct triage_phase *ph = &out->phases[p];

	ph->found = true;
	ph->call = c;
	ph->start = calltree_start(tree, c, out->clock);
	calltree_durations(tree, c, ph->dur);
	ph->lower_bound =
	        tree->calls.flags[c] & (CALL_OPEN_AT_END | CALL_ORPHAN);
}

static uint64_t
phase_end(const struct triage *t, enum triage_phase_id p)
{
	return t->phases[p].start + t->phases[p].dur[t->clock];
}

/* Whether frame call c (of thread calls [c, end)) draws: holds
 * ViewRootImpl.performTraversals. */
static bool
frame_traverses(const struct calltree *tree, const uint8_t *known, size_t c,
                size_t end)
{
	uint32_t d = calltree_depth(tree, c);
	size_t i;

	for (i = c + 1; i < end && calltree_depth(tree, i) > d; i++)
		if (known[calltree_method(tree, i)] & KNOWN_TRAVERSAL)
			return true;
	return false;
}

/* The clock k reading at call c's end minus at call b's start. */
static uint64_t
span_between(const struct calltree *tree, size_t b, size_t c,
             enum clock_index k)
{
	uint64_t from, to;

	if (!tree->has_clock[k])
		return 0;
	from = calltree_start(tree, b, k);
	to = calltree_end(tree, c, k);
	return to > from ? to - from : 0;
}

/* The startup phases on the main thread (TRIAGE.md 4.2). */
static void
find_phases(struct triage *out, char *const *names, const uint8_t *known,
            const bool *is_frame)
{
	const struct calltree *tree = out->tree;
	uint8_t *phase_of = xcalloc(tree->nmethods + 1, 1);
	size_t first, end, i, m;
	uint32_t rfd = CALL_NONE, restart = CALL_NONE;
	uint64_t after;
	int p, j;

	if (out->main < 0 || !tree->calls.count)
		goto done;
	/* phase_of[m]: 1 + the phase method m makes. */
	for (m = 0; m < tree->nmethods; m++)
		for (p = 0; p < TRIAGE_PHASES && !phase_of[m]; p++)
			for (j = 0; j < 2 && phase_def[p].method[j]; j++)
				if (method_is(names[m], phase_def[p].method[j]))
					phase_of[m] = (uint8_t)(p + 1);
	first = tree->threads[out->main].first_call;
	end = first + tree->threads[out->main].ncalls;
	for (i = first; i < end; i++) {
		m = calltree_method(tree, i);
		if (known[m] & KNOWN_FULLY_DRAWN && rfd == CALL_NONE)
			rfd = (uint32_t)i;
		if (known[m] & KNOWN_RESTART && restart == CALL_NONE)
			restart = (uint32_t)i;
		if (!phase_of[m])
			continue;
		p = phase_of[m] - 1;
		if (out->phases[p].found)
			continue;
		/* A part of a phase lies in it. */
		if (phase_def[p].parent >= 0 &&
		    out->phases[phase_def[p].parent].found &&
		    calltree_start(tree, i, out->clock) <
		            out->phases[phase_def[p].parent].start)
			continue;
		set_phase(out, (enum triage_phase_id)p, (uint32_t)i);
	}
	if (out->phases[TRIAGE_P1].found && out->phases[TRIAGE_P3].found &&
	    out->phases[TRIAGE_P3].start >= phase_end(out, TRIAGE_P1)) {
		struct triage_phase *gap = &out->phases[TRIAGE_P2];
		uint32_t a = out->phases[TRIAGE_P1].call;
		uint32_t b = out->phases[TRIAGE_P3].call;
		int k;

		gap->found = true;
		gap->call = CALL_NONE;
		gap->start = phase_end(out, TRIAGE_P1);
		for (k = 0; k < CLOCK_COUNT; k++)
			if (tree->has_clock[k])
				gap->dur[k] =
				        calltree_start(tree, b,
				                       (enum clock_index)k) -
				        calltree_end(tree, a,
				                     (enum clock_index)k);
	}
	/* The first frame: the first one to traverse after the launch. */
	after = 0;
	for (p = TRIAGE_P1; p <= TRIAGE_P3C; p++)
		if (out->phases[p].found && phase_end(out, p) > after)
			after = phase_end(out, p);
	if (out->phases[TRIAGE_P1].found || out->phases[TRIAGE_P3].found)
		for (i = first; i < end; i++) {
			if (!is_frame[calltree_method(tree, i)] ||
			    calltree_start(tree, i, out->clock) < after ||
			    !frame_traverses(tree, known, i, end))
				continue;
			set_phase(out, TRIAGE_P4, (uint32_t)i);
			break;
		}
	/* Fully drawn: reportFullyDrawn to the end of the next frame. */
	for (i = rfd; rfd != CALL_NONE && i < end; i++) {
		int k;

		if (!is_frame[calltree_method(tree, i)] ||
		    calltree_start(tree, i, out->clock) <
		            calltree_start(tree, rfd, out->clock))
			continue;
		set_phase(out, TRIAGE_P5, rfd);
		for (k = 0; k < CLOCK_COUNT; k++)
			out->phases[TRIAGE_P5].dur[k] =
			        span_between(tree, rfd, i, (enum clock_index)k);
		out->phases[TRIAGE_P5].lower_bound |=
		        tree->calls.flags[i] & (CALL_OPEN_AT_END | CALL_ORPHAN);
		break;
	}
	if (out->phases[TRIAGE_P1].found)
		out->launch = "cold";
	else if (out->phases[TRIAGE_P3].found)
		out->launch = "warm";
	else if (restart != CALL_NONE || out->phases[TRIAGE_P3B].found ||
	         out->phases[TRIAGE_P3C].found)
		out->launch = "hot";
	if (!out->launch)
		goto done;
	out->window_start = UINT64_MAX;
	for (p = 0; p < TRIAGE_PHASES; p++) {
		if (!out->phases[p].found || p == TRIAGE_P5)
			continue;
		if (out->phases[p].start < out->window_start)
			out->window_start = out->phases[p].start;
		if (phase_end(out, p) > out->window_end)
			out->window_end = phase_end(out, p);
		out->window_lower |= out->phases[p].lower_bound;
	}
	if (!out->phases[TRIAGE_P4].found)
		out->window_lower = true;
done:
	free(phase_of);
}

/* The cause of each slow frame of fr's [from, to), into cause and
 * share at the frame's index: the deepest application call (app: per
 * method) lasting at least half the frame and starting in its first
 * fifth. */
static void
find_causes(const struct calltree *tree, const struct frames *fr,
            const bool *app, size_t from, size_t to, uint32_t *cause,
            double *share)
{
	size_t i;

	for (i = from; i < to; i++) {
		const struct drawn_frame *f = &fr->frames[i];
		const struct tt_thread *th = &tree->threads[f->thread];
		size_t end = (size_t)th->first_call + th->ncalls, c;
		uint64_t len = f->dur[fr->clock];
		uint32_t d, best_depth = 0;

		cause[i] = CALL_NONE;
		share[i] = 0;
		if (f->call == CALL_NONE || !frames_slow(fr, f) || !len)
			continue;
		d = calltree_depth(tree, f->call);
		for (c = (size_t)f->call + 1;
		     c < end && calltree_depth(tree, c) > d; c++) {
			uint64_t cd, cs;
			uint32_t cdepth;

			if (!app[calltree_method(tree, c)])
				continue;
			cd = calltree_duration(tree, c, fr->clock);
			cs = calltree_start(tree, c, fr->clock);
			cdepth = calltree_depth(tree, c);
			if (cd * 2 < len || (cs - f->start) * 5 > len ||
			    cdepth <= best_depth)
				continue;
			cause[i] = (uint32_t)c;
			share[i] = (double)cd / (double)len;
			best_depth = cdepth;
		}
	}
}

static int
finding_cmp(const void *a, const void *b, void *arg)
{
	const struct triage_finding *x = a, *y = b;
	enum clock_index k = *(const enum clock_index *)arg;

	if (x->severity != y->severity)
		return x->severity > y->severity ? -1 : 1;
	if (x->total[k] != y->total[k])
		return x->total[k] > y->total[k] ? -1 : 1;
	if (x->rule != y->rule)
		return x->rule < y->rule ? -1 : 1;
	return x->thread < y->thread ? -1 : x->thread > y->thread;
}

/* What each method's calls ask of a pass over the main thread (is_main)
 * or another: ASK_ flags from the rules that apply there. */
static uint8_t *
ask_table(const struct pass *base, bool is_main)
{
	const struct calltree *tree = base->tree;
	const struct triage_rules *rules = base->rules;
	uint64_t *union_on = xcalloc(base->nwords, sizeof(*union_on));
	uint64_t *blocked_on = xcalloc(base->nwords, sizeof(*blocked_on));
	uint8_t *ask = xcalloc(tree->nmethods + 1, 1);
	bool dual = tree->has_clock[CLOCK_WALL] && tree->has_clock[CLOCK_CPU];
	bool hot = false;
	size_t r, m, w;

	for (r = 0; r < rules->count; r++) {
		const struct triage_rule *rule = &rules->rules[r];
		uint64_t bit = 1ULL << (r % 64);

		if (!triage_rule_applies(rule, is_main))
			continue;
		if (rule->kind == TRIAGE_UNION)
			union_on[r / 64] |= bit;
		if (rule->kind == TRIAGE_BLOCKED && dual)
			blocked_on[r / 64] |= bit;
		hot |= (rule->kind == TRIAGE_HOT_FRAME ||
		        rule->kind == TRIAGE_HOT_STARTUP) &&
		       tree->has_clock[CLOCK_CPU];
	}
	for (m = 0; m < tree->nmethods; m++) {
		const uint64_t *bits = base->match + m * base->nwords;

		for (w = 0; w < base->nwords; w++) {
			if (bits[w] & union_on[w])
				ask[m] |= ASK_UNION;
			if (bits[w] & blocked_on[w])
				ask[m] |= ASK_BLOCKED;
		}
		if (base->known[m] & KNOWN_IDLE)
			ask[m] |= ASK_IDLE;
		if (hot && base->app[m])
			ask[m] |= ASK_APP;
		if (base->is_frame[m])
			ask[m] |= ASK_FRAME;
	}
	free(union_on);
	free(blocked_on);
	return ask;
}

/* A pass's scratch for threads of up to most calls, its sums zeroed;
 * shared: what base holds (tree, rules, match, known, app, k). */
static void
pass_init(struct pass *p, const struct pass *base, size_t most)
{
	const struct calltree *tree = base->tree;
	size_t nrules = base->rules->count;

	*p = *base;
	p->path = xmalloc(((size_t)tree->max_depth + 2) * sizeof(*p->path));
	p->st = xcalloc(nrules + 1, sizeof(*p->st));
	p->encloses = xmalloc(most + 1);
	p->union_on = xcalloc(p->nwords, sizeof(*p->union_on));
	p->blocked_on = xcalloc(p->nwords, sizeof(*p->blocked_on));
	p->cause_on = xcalloc(p->nwords, sizeof(*p->cause_on));
	p->blocked = xcalloc(nrules + 1, sizeof(*p->blocked));
	p->cause_open = xcalloc(nrules + 1, sizeof(*p->cause_open));
	p->stack = xcalloc((size_t)tree->max_depth + 2, sizeof(*p->stack));
	p->seen = xcalloc(tree->nmethods + 1, sizeof(*p->seen));
	p->rule_total = xcalloc(nrules + 1, sizeof(*p->rule_total));
	p->rule_count = xcalloc(nrules + 1, sizeof(*p->rule_count));
	hot_acc_init(&p->hot[0], tree->nmethods);
	hot_acc_init(&p->hot[1], tree->nmethods);
}

/* Release what pass_init made. */
static void
pass_done(struct pass *p)
{
	free(p->encloses);
	free(p->union_on);
	free(p->blocked_on);
	free(p->cause_on);
	free(p->blocked);
	free(p->cause_open);
	free(p->stack);
	free(p->seen);
	free(p->rule_total);
	free(p->rule_count);
	hot_acc_done(&p->hot[0]);
	hot_acc_done(&p->hot[1]);
	free(p->st);
	free(p->path);
}

/* The first of frames fr whose thread is t or later: fr's frames are
 * in thread order. */
static size_t
first_frame(const struct frames *fr, size_t t)
{
	size_t lo = 0, hi = fr->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (fr->frames[mid].thread < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* One worker: it takes the next thread until none is left, and makes
 * its frames' causes and its findings. */
struct triage_job {
	struct triage *out; /* written only at the thread's own frames */
	struct pass p;
	/* The threads, most calls first: (UINT32_MAX - calls) << 32 |
	 * thread. */
	const uint64_t *by_size;
	size_t count;
	struct finding_list list; /* its threads' findings */
	/* Its threads' frames, found in the passes, or (not find_frames)
	 * out's, found before. */
	bool find_frames;
	struct frame_list found;
	atomic_size_t *next;
};

/* The causes of thread t's frames in found, if it has any. */
static void
found_causes(struct frame_list *found, const struct calltree *tree,
             const bool *app, size_t t)
{
	const struct frame_run *run;
	size_t n = found->frames.count;

	if (!found->nruns || found->runs[found->nruns - 1].thread != t)
		return;
	run = &found->runs[found->nruns - 1];
	if (n > found->causes_cap) {
		found->causes_cap = found->cap;
		found->cause = xreallocarray(found->cause, found->causes_cap,
		                             sizeof(*found->cause));
		found->share = xreallocarray(found->share, found->causes_cap,
		                             sizeof(*found->share));
	}
	find_causes(tree, &found->frames, app, run->from, n, found->cause,
	            found->share);
}

static void *
triage_job(void *arg)
{
	struct triage_job *job = arg;
	const struct frames *fr = &job->out->frames;
	size_t i;

	while ((i = atomic_fetch_add(job->next, 1)) < job->count) {
		size_t t = (uint32_t)job->by_size[i];

		if (job->find_frames) {
			thread_findings(job->out, &job->p, t, 0, 0, &job->found,
			                &job->list);
			found_causes(&job->found, job->out->tree, job->p.app,
			             t);
		} else {
			size_t from = first_frame(fr, t);
			size_t to = first_frame(fr, t + 1);

			find_causes(job->out->tree, fr, job->p.app, from, to,
			            job->out->cause, job->out->cause_share);
			thread_findings(job->out, &job->p, t, from, to, NULL,
			                &job->list);
		}
	}
	return NULL;
}

/* Calls below which a worker of its own is not worth starting. */
enum { TRIAGE_CALLS_PER_JOB = 1 << 16 };

static int
u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static int
run_cmp(const void *a, const void *b)
{
	const struct frame_run *x = a, *y = b;

	return x->thread < y->thread ? -1 : x->thread > y->thread;
}

/* Room for the causes of out's frames. */
static void
alloc_causes(struct triage *out)
{
	out->cause = xmalloc((out->frames.count + 1) * sizeof(*out->cause));
	out->cause_share =
	        xcalloc(out->frames.count + 1, sizeof(*out->cause_share));
}

/* Release what a worker found. */
static void
found_done(struct frame_list *found)
{
	free(found->frames.frames);
	free(found->runs);
	free(found->cause);
	free(found->share);
}

/* The frames the workers found, thread by thread, and their causes
 * into out's, in thread order. */
static void
join_frames(struct triage *out, struct triage_job *jobs, unsigned njobs)
{
	struct frames *fr = &out->frames;
	struct frame_run *runs;
	size_t nruns = 0, count = 0, i;
	unsigned j;

	for (j = 0; j < njobs; j++) {
		nruns += jobs[j].found.nruns;
		count += jobs[j].found.frames.count;
	}
	/* One worker found them all (one thread draws, most often): its
	 * frames and causes are taken as they are. */
	for (j = 0; j < njobs && nruns == 1; j++) {
		struct frame_list *found = &jobs[j].found;

		if (!found->nruns)
			continue;
		fr->frames = found->frames.frames;
		fr->count = count;
		out->cause = found->cause;
		out->cause_share = found->share;
		found->frames.frames = NULL;
		found->cause = NULL;
		found->share = NULL;
	}
	if (fr->count || !count) {
		for (j = 0; j < njobs; j++)
			found_done(&jobs[j].found);
		if (!fr->count)
			alloc_causes(out);
		return;
	}
	runs = xcalloc(nruns + 1, sizeof(*runs));
	fr->frames = xmalloc((count + 1) * sizeof(*fr->frames));
	out->cause = xmalloc((count + 1) * sizeof(*out->cause));
	out->cause_share = xmalloc((count + 1) * sizeof(*out->cause_share));
	nruns = 0;
	for (j = 0; j < njobs; j++)
		for (i = 0; i < jobs[j].found.nruns; i++) {
			runs[nruns] = jobs[j].found.runs[i];
			runs[nruns++].job = j;
		}
	sort_items(runs, nruns, sizeof(*runs), run_cmp);
	for (i = 0; i < nruns; i++) {
		const struct frame_list *from = &jobs[runs[i].job].found;
		size_t at = runs[i].from, n = runs[i].count;

		memcpy(fr->frames + fr->count, from->frames.frames + at,
		       n * sizeof(*fr->frames));
		memcpy(out->cause + fr->count, from->cause + at,
		       n * sizeof(*out->cause));
		memcpy(out->cause_share + fr->count, from->share + at,
		       n * sizeof(*out->cause_share));
		fr->count += n;
	}
	for (j = 0; j < njobs; j++)
		found_done(&jobs[j].found);
	free(runs);
}

/* The frames (found in the passes when find_frames says, else already
 * out's), their causes and the findings of every thread of out->tree,
 * by one worker per cpu (as triage_calls_per_job says) sharing base's
 * tables; the findings in no order. */
static void
run_jobs(struct triage *out, const struct pass *base, bool find_frames)
{
	const struct calltree *tree = out->tree;
	size_t nthreads = tree->nthreads, nrules = base->rules->count;
	uint64_t *by_size = xcalloc(nthreads + 1, sizeof(*by_size));
	struct triage_job jobs[UTIL_JOBS_MAX];
	size_t most = 0, calls = 0, per_job, more, t, r;
	atomic_size_t next;
	unsigned j, njobs;

	for (t = 0; t < nthreads; t++) {
		size_t c = tree->threads[t].ncalls;

		if (c > most)
			most = c;
		calls += c;
		by_size[t] = (uint64_t)(UINT32_MAX - c) << 32 | t;
	}
	sort_items(by_size, nthreads, sizeof(*by_size), u64_cmp);
	per_job = triage_calls_per_job ? triage_calls_per_job
	                               : TRIAGE_CALLS_PER_JOB;
	more = calls / per_job;
	njobs = util_jobs_count(more < UTIL_JOBS_MAX ? (unsigned)more + 1
	                                             : UTIL_JOBS_MAX);
	if (njobs > nthreads)
		njobs = nthreads ? (unsigned)nthreads : 1;
	atomic_init(&next, 0);
	for (j = 0; j < njobs; j++) {
		jobs[j] = (struct triage_job){.out = out,
		                              .by_size = by_size,
		                              .count = nthreads,
		                              .find_frames = find_frames,
		                              .next = &next};
		jobs[j].found.frames = out->frames; /* none yet */
		pass_init(&jobs[j].p, base, most);
	}
	if (!find_frames)
		alloc_causes(out);
	util_jobs_run(triage_job, jobs, sizeof(*jobs), njobs);
	if (find_frames)
		join_frames(out, jobs, njobs);
	for (j = 0; j < njobs; j++) {
		struct finding_list *l = &jobs[j].list;

		for (r = 0; r < nrules; r++) {
			out->rule_total[r] += jobs[j].p.rule_total[r];
			out->rule_count[r] += jobs[j].p.rule_count[r];
		}
		out->undersampled += jobs[j].p.undersampled;
		pass_done(&jobs[j].p);
		if (l->count) {
			out->findings = xreallocarray(out->findings,
			                              out->count + l->count,
			                              sizeof(*out->findings));
			memcpy(out->findings + out->count, l->findings,
			       l->count * sizeof(*l->findings));
			out->count += l->count;
		}
		free(l->findings);
	}
	free(by_size);
}

bool
triage_compute(struct triage *out, const struct calltree *tree,
               const struct triage_rules *rules, const bool *is_frame,
               double budget, char *why, size_t size)
{
	return triage_compute_matched(out, tree, rules, is_frame, budget, NULL,
	                              why, size);
}

bool
triage_compute_matched(struct triage *out, const struct calltree *tree,
                       const struct triage_rules *rules, const bool *is_frame,
                       double budget, const uint64_t *match, char *why,
                       size_t size)
{
	struct pass base = {0};
	struct scope all;
	uint8_t *known;
	char **names;
	bool find_frames;

	memset(out, 0, sizeof(*out));
	out->tree = tree;
	out->clock = calltree_default_range_clock(tree);
	base.nwords = (rules->count + 63) / 64 + 1;
	names = triage_full_names(tree);
	base.match = match ? match
	                   : triage_match_rules(tree, names, rules, base.nwords,
	                                        why, size);
	if (!base.match) {
		triage_free_names(names, tree->nmethods);
		return false;
	}
	triage_find_main(out, tree);
	known = triage_known_methods(names, tree->nmethods);
	find_phases(out, names, known, is_frame);
	/* An instrumented model's frames are found in the passes. */
	find_frames = tree->calls.count && !tree->header.sample_weight &&
	              !triage_plain;
	if (find_frames) {
		frames_init(&out->frames, tree, budget);
	} else {
		scope_init_all(&all, tree);
		frames_find_unsummed(&out->frames, tree, &all, is_frame,
		                     budget);
		scope_done(&all);
	}
	base.app = app_methods(names, tree->nmethods);
	triage_free_names(names, tree->nmethods);
	base.is_frame = is_frame;
	base.tree = tree;
	base.rules = rules;
	base.known = known;
	base.k = out->clock;
	base.asks[0] = ask_table(&base, false);
	base.asks[1] = ask_table(&base, true);
	triage_rule_floors(rules, false, base.floors[0]);
	triage_rule_floors(rules, true, base.floors[1]);
	out->rule_total = xcalloc(rules->count + 1, sizeof(*out->rule_total));
	out->rule_count = xcalloc(rules->count + 1, sizeof(*out->rule_count));
	if (tree->calls.count) {
		run_jobs(out, &base, find_frames);
	} else {
		alloc_causes(out);
		find_causes(tree, &out->frames, base.app, 0, out->frames.count,
		            out->cause, out->cause_share);
	}
	out->cause_method =
	        xmalloc((out->frames.count + 1) * sizeof(*out->cause_method));
	for (size_t i = 0; i < out->frames.count; i++)
		out->cause_method[i] =
		        out->cause[i] == CALL_NONE
		                ? CALL_NONE
		                : calltree_method(tree, out->cause[i]);
	/* The workers' findings come in no order: no two are of the same
	 * rule and thread, so the order is the sort's alone. */
	if (out->count > 1)
		qsort_r(out->findings, out->count, sizeof(*out->findings),
		        finding_cmp, &out->clock);
	free((void *)base.asks[0]);
	free((void *)base.asks[1]);
	free((void *)base.app);
	if (!match)
		free((void *)base.match);
	free(known);
	return true;
}

void
triage_done(struct triage *t)
{
	size_t i;

	for (i = 0; i < t->count; i++) {
		free(t->findings[i].path);
		free(t->findings[i].calls);
		free(t->findings[i].methods);
	}
	free(t->findings);
	free(t->cause);
	free(t->cause_method);
	free(t->cause_share);
	free(t->rule_total);
	free(t->rule_count);
	frames_done(&t->frames);
	memset(t, 0, sizeof(*t));
}

size_t
triage_finding_calls(const struct calltree *tree,
                     const struct triage_rules *rules,
                     const struct triage_finding *f, uint32_t **calls)
{
	const struct tt_thread *th = &tree->threads[f->thread];
	size_t first = th->first_call, n = th->ncalls, i, count = 0, cap = 0;
	char **names = triage_full_names(tree);
	uint8_t *known = triage_known_methods(names, tree->nmethods);
	uint8_t *encloses = xcalloc(n + 1, 1);
	uint32_t *path = xmalloc(((size_t)tree->max_depth + 2) * sizeof(*path));
	uint32_t open = CALL_NONE, open_depth = 0;
	bool *want = xcalloc(tree->nmethods + 1, sizeof(*want));
	char why[200];
	regex_t re;
	size_t m;

	*calls = NULL;
	if (rules->rules[f->rule].kind != TRIAGE_UNION) {
		triage_free_names(names, tree->nmethods);
		free(want);
		free(path);
		free(encloses);
		free(known);
		*calls = xmalloc((f->ncalls + 1) * sizeof(**calls));
		memcpy(*calls, f->calls, f->ncalls * sizeof(**calls));
		return f->ncalls;
	}
	if (!pattern_compile(&re, rules->rules[f->rule].pattern,
	                     REG_EXTENDED | REG_NOSUB, why, sizeof(why))) {
		for (m = 0; m < tree->nmethods; m++)
			want[m] = regexec(&re, names[m], 0, NULL, 0) == 0;
		regfree(&re);
	}
	triage_free_names(names, tree->nmethods);
	/* As thread_findings: the calls holding a looper, then the
	 * outermost matches. */
	for (i = 0; i < n; i++) {
		uint32_t d = calltree_depth(tree, first + i);

		path[d] = (uint32_t)i;
		if (!(known[calltree_method(tree, first + i)] & KNOWN_LOOPER))
			continue;
		while (d-- > 0 && !encloses[path[d]])
			encloses[path[d]] = 1;
	}
	for (i = 0; i < n; i++) {
		uint32_t c = (uint32_t)(first + i), d = calltree_depth(tree, c);

		path[d] = c;
		if (!want[calltree_method(tree, c)] || encloses[i] ||
		    (open != CALL_NONE && open_depth < d &&
		     path[open_depth] == open))
			continue;
		UTIL_GROW(*calls, cap, count + 1);
		(*calls)[count++] = c;
		open = c;
		open_depth = d;
	}
	free(want);
	free(path);
	free(encloses);
	free(known);
	return count;
}

size_t
triage_count_severity(const struct triage *t, enum triage_severity s)
{
	size_t n = 0, i;

	for (i = 0; i < t->count; i++)
		n += t->findings[i].severity == s;
	return n;
}

char *
triage_finding_pattern(const struct calltree *tree,
                       const struct triage_rules *rules,
                       const struct triage_finding *f)
{
	const struct triage_rule *r = &rules->rules[f->rule];
	size_t i, n = 0, cap = 64;
	char *out;

	if (r->kind == TRIAGE_UNION || !f->nmethods)
		return xstrdup(r->pattern);
	out = xmalloc(cap);
	out[n++] = '^';
	out[n++] = '(';
	for (i = 0; i < f->nmethods; i++) {
		char *name = method_full_name(&tree->methods[f->methods[i]]);
		size_t len = strcspn(name, " "), j;

		for (j = 0; j < len; j++) {
			UTIL_GROW(out, cap, n + 8);
			if (strchr("\\.[]()*+?{}|^$", name[j]))
				out[n++] = '\\';
			out[n++] = name[j];
		}
		UTIL_GROW(out, cap, n + 8);
		out[n++] = i + 1 < f->nmethods ? '|' : ')';
		free(name);
	}
	memcpy(out + n, "( |$)", 6);
	return out;
}

bool
triage_phase_method(const char *full)
{
	int p, j;

	for (p = 0; p < TRIAGE_PHASES; p++)
		for (j = 0; j < 2 && phase_def[p].method[j]; j++)
			if (method_is(full, phase_def[p].method[j]))
				return true;
	return false;
}

void
triage_sort_findings(struct triage *out)
{
	if (out->count > 1)
		qsort_r(out->findings, out->count, sizeof(*out->findings),
		        finding_cmp, &out->clock);
}
