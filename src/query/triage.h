/*
 * triage: the findings of the rules (query/triage-rules.h) in a model,
 * with the main thread, the startup phases and the frames, for
 * `tracetui triage` and the viewer's Findings view.
 *
 * A finding is one rule on one thread: the outermost calls its pattern
 * matches there (a matching call inside another is part of it), their
 * union's time on both clocks (with the rule's no-idle flag, less the
 * idle android.os.MessageQueue.nativePollOnce calls inside them), their
 * count, and the longest of them (on the judging clock: wall when the
 * trace has it) with its path from android.os.Handler.dispatchMessage
 * (the unit of main-thread work) down, or from the thread's root.  A
 * matching call that holds android.os.Looper.loop or
 * android.app.ActivityThread.main (reflection's Method.invoke above a
 * whole thread) holds everything: it is left out, counted apart, and the
 * calls inside it count as outermost.  A call open at either end of the
 * trace makes the numbers lower bounds.  In a sampled recording a
 * finding under TRIAGE_MIN_SAMPLES samples is left out, and counted.
 *
 * A blocked rule (R20) counts instead each call of its pattern's methods
 * whose exclusive wall time less its exclusive cpu time meets its WHEN,
 * but idle and the calls inside (or of) a cause rule's calls: time off
 * the CPU with no callee to show why.  A hot rule (R21, R21s) counts
 * each application method (triage_app_methods) whose exclusive cpu time
 * summed inside one frame of the thread (hot-frame), or inside the
 * startup window (hot-startup), meets its WHEN: a hot spot, whose wall
 * and cpu are its exclusive sums.  Their totals sum what they count;
 * the worst is the call blocked longest or the longest call of the
 * hottest spot.
 *
 * The main thread is the thread whose id is the process id (the key's
 * pid, or a simpleperf recording's thread records), else the thread
 * named "main".
 */
#ifndef TRACETUI_TRIAGE_H
#define TRACETUI_TRIAGE_H

#include "model/calltree.h"
#include "query/frames.h"
#include "query/triage-rules.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
	TRIAGE_MIN_SAMPLES = 4, /* a sampled finding's least samples */
};

enum triage_main_how {
	TRIAGE_MAIN_NONE,    /* not found */
	TRIAGE_MAIN_PID,     /* tid == the key's pid */
	TRIAGE_MAIN_PROCESS, /* tid == its process id (simpleperf) */
	TRIAGE_MAIN_NAMED,   /* the thread named "main" */
};

struct triage_finding {
	size_t rule; /* index into the rules */
	uint32_t thread;
	enum triage_severity severity;
	uint64_t total[CLOCK_COUNT]; /* the union, less idle with no-idle */
	uint64_t idle[CLOCK_COUNT];  /* idle left out */
	uint64_t count;              /* outermost calls */
	uint64_t samples;            /* sampled: the samples, estimated */
	uint64_t enclosing;          /* calls left out: they hold a looper */
	bool lower_bound;            /* a call open at an end */
	uint32_t worst;              /* the longest call (CALL_NONE when
	                                triage_from_sums found it) */
	uint32_t worst_method;       /* and its method */
	uint64_t worst_start;        /* on the judging clock */
	uint64_t worst_dur[CLOCK_COUNT];
	bool worst_lower;
	uint32_t *path; /* methods, from dispatchMessage or the root down to
	                   the worst call's own */
	size_t npath;
	/* A blocked or hot rule's (not a union's): the calls it counts
	 * (blocked) or of its hot methods in their frames or the startup
	 * window (hot), in pre-order, and their distinct methods. */
	uint32_t *calls;
	size_t ncalls;
	uint32_t *methods;
	size_t nmethods;
};

/* The startup phases (TRIAGE.md 4.2), in order. */
enum triage_phase_id {
	TRIAGE_P1,  /* bindApplication */
	TRIAGE_P1A, /* LoadedApk.makeApplication */
	TRIAGE_P1B, /* content providers */
	TRIAGE_P1C, /* Application.onCreate */
	TRIAGE_P2,  /* the queue between bindApplication and the launch */
	TRIAGE_P3,  /* activity launch */
	TRIAGE_P3A, /* Activity.onCreate */
	TRIAGE_P3B, /* Activity.onStart */
	TRIAGE_P3C, /* resume */
	TRIAGE_P4,  /* the first frame */
	TRIAGE_P5,  /* fully drawn */
	TRIAGE_PHASES,
};

struct triage_phase {
	bool found;
	uint32_t call;  /* CALL_NONE for a gap */
	uint64_t start; /* on the judging clock */
	uint64_t dur[CLOCK_COUNT];
	bool lower_bound; /* began before the trace or ended after it */
};

struct triage {
	const struct calltree *tree;
	enum clock_index clock; /* the judging clock */
	long main;              /* thread index, or -1 */
	enum triage_main_how how;
	uint64_t pid; /* the process id that found it */
	struct triage_phase phases[TRIAGE_PHASES];
	const char *launch; /* "cold", "warm", "hot", or NULL: no launch */
	uint64_t window_start, window_end; /* first phase to first frame */
	bool window_lower;
	struct frames frames;   /* without their hot methods */
	uint32_t *cause;        /* per frame: the cause's call, or CALL_NONE
	                           (always, when triage_from_sums found it) */
	uint32_t *cause_method; /* and its method, or CALL_NONE */
	double *cause_share;    /* and its share of the frame */
	struct triage_finding *findings; /* by severity, then total */
	size_t count;
	size_t undersampled; /* findings left out, under the samples */
	/* Per rule, whatever its thresholds: over the threads it looks at,
	 * the union (judging clock, idle left out as it says) and count. */
	uint64_t *rule_total, *rule_count;
};

/* For tests: the calls beyond which triage_compute shares the threads
 * out among one worker per cpu (0, the default: when worth it; 1: any
 * trace of several threads; SIZE_MAX: one worker). */
extern size_t triage_calls_per_job;
/* For tests: true takes the plain way: the frames found by
 * query/frames.c before the passes, and every call and frame tracked,
 * not only those a blocked or hot rule's WHEN can hold for. */
extern bool triage_plain;

/* The id ("P3") and name ("activity launch") of phase p. */
const char *triage_phase_id(enum triage_phase_id p);
const char *triage_phase_name(enum triage_phase_id p);
/* How the main thread was found, in words. */
const char *triage_main_how_text(enum triage_main_how how);

/*
 * Triage tree: the main thread, the startup phases, the frames (of the
 * frame methods is_frame, against budget microseconds, as `frames`
 * finds them) and each slow frame's cause, and the findings of rules.
 * False with why[0..size) when a rule's pattern does not compile.
 */
bool triage_compute(struct triage *out, const struct calltree *tree,
                    const struct triage_rules *rules, const bool *is_frame,
                    double budget, char *why, size_t size);
/* triage_compute with the rules' match table already made (as
 * triage_match_rules makes it for tree's methods; the caller keeps it),
 * or NULL to make it. */
bool triage_compute_matched(struct triage *out, const struct calltree *tree,
                            const struct triage_rules *rules,
                            const bool *is_frame, double budget,
                            const uint64_t *match, char *why, size_t size);
/* Release what triage_compute made. */
void triage_done(struct triage *t);

/* The methods whose full name is an application's, not the platform's
 * (android., java., kotlin. ...), as a flag per method (caller frees). */
bool *triage_app_methods(const struct calltree *tree);

/* The calls finding f of rules counts: the outermost calls its rule's
 * pattern matches on its thread, but those holding a looper (a blocked
 * or hot rule's: f->calls), in pre-order, into *calls (the caller frees
 * it); how many. */
size_t triage_finding_calls(const struct calltree *tree,
                            const struct triage_rules *rules,
                            const struct triage_finding *f, uint32_t **calls);

/* The pattern whose calls finding f's drill lists: its rule's, or for a
 * blocked or hot rule the alternation of its methods' names (caller
 * frees). */
char *triage_finding_pattern(const struct calltree *tree,
                             const struct triage_rules *rules,
                             const struct triage_finding *f);

/* Count of findings of severity s. */
size_t triage_count_severity(const struct triage *t, enum triage_severity s);

/* For query/triage-sums.c, which finds the same in the sums pass. */

/* Methods triage knows by name, as flags per method. */
enum {
	KNOWN_IDLE = 1 << 0,        /* MessageQueue.nativePollOnce */
	KNOWN_LOOPER = 1 << 1,      /* Looper.loop, ActivityThread.main */
	KNOWN_DISPATCH = 1 << 2,    /* Handler.dispatchMessage */
	KNOWN_TRAVERSAL = 1 << 3,   /* ViewRootImpl.performTraversals */
	KNOWN_FULLY_DRAWN = 1 << 4, /* Activity.reportFullyDrawn */
	KNOWN_RESTART = 1 << 5,     /* Activity.performRestart */
};

/* Every method's full name; free with triage_free_names. */
char **triage_full_names(const struct calltree *tree);
/* Release what triage_full_names made of nmethods names. */
void triage_free_names(char **names, size_t nmethods);
/* A bit per rule per method (nwords a method): whether the rule's
 * pattern matches it; NULL with why when a pattern does not compile. */
uint64_t *triage_match_rules(const struct calltree *tree, char *const *names,
                             const struct triage_rules *rules, size_t nwords,
                             char *why, size_t size);
/* The KNOWN_ flags of the nmethods full names. */
uint8_t *triage_known_methods(char *const *names, size_t nmethods);
/* Whether full name full is a startup phase's method. */
bool triage_phase_method(const char *full);
/* out's main thread in tree (main, how, pid). */
void triage_find_main(struct triage *out, const struct calltree *tree);
/* The least wall time of a call a blocked rule (floor[0]) and the least
 * cpu time of a frame a hot-frame rule (floor[1]) that applies on the
 * main thread (is_main) or another can count anything at. */
void triage_rule_floors(const struct triage_rules *rules, bool is_main,
                        uint64_t *floor);
/* A sampled finding's estimated samples; UINT64_MAX when
 * instrumented. */
uint64_t triage_finding_samples(const struct calltree *tree,
                                const struct triage_finding *f,
                                enum clock_index k);
/* out's findings by severity, then total. */
void triage_sort_findings(struct triage *out);

#endif
