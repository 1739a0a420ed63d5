/*
 * diff: the per-method comparison of two profiles, BASE and NEW, and the
 * --fail-if conditions evaluated on it.
 *
 * Methods match on class, name and signature, the class compared with
 * '/' read as '.'; methods of one trace with the same triple are summed
 * into one row.  A row records which sides called the method at all;
 * values of a side that did not are zero.  Rows are in name order until
 * diff_sort reorders them.  A diff owns its rows and names; it does not
 * point into the calltrees or profiles it was computed from.
 *
 * With normalize, times are read as percentages of their own trace's
 * total on that clock (the "share"), so a trace that is uniformly slower
 * shows no change; call counts are never normalised.
 */
#ifndef TRACETUI_DIFF_H
#define TRACETUI_DIFF_H

#include "model/calltree.h"
#include "query/frames.h"
#include "query/profile.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum diff_side {
	DIFF_BASE = 0,
	DIFF_NEW = 1,
};

enum diff_metric {
	DIFF_EXCL,
	DIFF_INCL,
	DIFF_CALLS, /* calls + recursive calls */
	DIFF_NAME,  /* only as a sort key */
};

struct diff_values {
	uint64_t calls; /* calls + recursive calls */
	uint64_t incl[CLOCK_COUNT];
	uint64_t excl[CLOCK_COUNT];
};

struct diff_row {
	char *name;       /* "CLASS.NAME SIGNATURE", the class dotted */
	char *short_name; /* "CLASS.NAME", the class dotted: globs match it */
	bool present[2];  /* indexed by enum diff_side; in any run */
	struct diff_values v[2];     /* summed over the side's runs */
	struct diff_values *runs[2]; /* per run of the side, in order */
};

/* A number of a side's frames (query/frames.h), for --fail-if. */
enum diff_frame_metric {
	DIFF_FRAME_NONE,
	DIFF_FRAME_COUNT,  /* frames */
	DIFF_FRAME_SLOW,   /* slow_frames */
	DIFF_FRAME_FROZEN, /* frozen_frames */
	DIFF_FRAME_P50,    /* frame_p50, ... nearest-rank, microseconds */
	DIFF_FRAME_P90,
	DIFF_FRAME_P95,
	DIFF_FRAME_P99,
	DIFF_FRAME_MAX, /* frame_max */
	DIFF_FRAME_METRICS,
};

/* A number of a side's triage findings (query/triage.h), for
 * --fail-if: a rule's total or count, whatever its thresholds. */
enum diff_finding_metric {
	DIFF_FINDING_NONE,
	DIFF_FINDING_TOTAL, /* finding_total(ID): microseconds */
	DIFF_FINDING_COUNT, /* finding_count(ID): outermost calls */
};

/* One rule's numbers on one side. */
struct diff_finding_values {
	char *id;
	double total, count;
};

struct diff_entry;

struct diff {
	struct diff_row *rows;
	size_t nrows;
	size_t only[2];                 /* rows present on that side only */
	uint64_t total[2][CLOCK_COUNT]; /* summed over the side's runs */
	bool has_clock[2][CLOCK_COUNT]; /* in every run of the side */
	size_t nruns[2];                /* traces per side */
	uint64_t (*run_total[2])[CLOCK_COUNT]; /* per run */
	struct diff_values *run_values;        /* what rows' runs point into */
	/* Each run's frames, in the order diff_add_frames added them. */
	struct frame_summary *run_frames[2];
	size_t nrun_frames[2];
	/* Each side's rules' numbers (diff_add_finding), of its first run. */
	struct diff_finding_values *findings[2];
	size_t nfindings[2];
	/* Runs added and not yet matched (diff_add_run). */
	struct diff_entry *entries;
	size_t nentries, entries_cap;
};

/*
 * Several runs per side: begin, add each run's profile (the trace and
 * profile may be freed right after), finish.  A row's v[s] sums the
 * side's runs and runs[s] keeps each.
 */
/* Start an empty diff. */
void diff_begin(struct diff *out);
/* Add profile p of tree as the next run of side s. */
void diff_add_run(struct diff *d, enum diff_side s, const struct calltree *tree,
                  const struct profile *p);
/* Add the summary of the frames of the next run of side s. */
void diff_add_frames(struct diff *d, enum diff_side s,
                     const struct frame_summary *fs);
/* Add rule id's total (microseconds) and count on side s. */
void diff_add_finding(struct diff *d, enum diff_side s, const char *id,
                      double total, double count);
/* Metric m of the frames fs: a count, or microseconds. */
double diff_frame_value(const struct frame_summary *fs,
                        enum diff_frame_metric m);
/* Whether metric m counts frames (else it is a time). */
bool diff_frame_is_count(enum diff_frame_metric m);
/* The --fail-if name of metric m ("frame_p90"). */
const char *diff_frame_name(enum diff_frame_metric m);
/* Match the used methods of every run added into rows. */
void diff_finish(struct diff *d);

/* Match the used methods of profiles bp (of base) and np (of new). */
void diff_compute(struct diff *out, const struct calltree *base,
                  const struct profile *bp, const struct calltree *new,
                  const struct profile *np);
/* Release the rows. */
void diff_done(struct diff *diff);

/* Metric m on clock k of values v from side s: microseconds, calls, or
 * with normalize a time as a percentage of that side's total. */
double diff_value(const struct diff *diff, const struct diff_values *v,
                  enum diff_side s, enum diff_metric m, enum clock_index k,
                  bool normalize);
/* Metric m on clock k of run r of side s in row: as diff_value, with
 * normalize a share of that run's own total. */
double diff_run_value(const struct diff *diff, const struct diff_row *row,
                      enum diff_side s, size_t r, enum diff_metric m,
                      enum clock_index k, bool normalize);
/* Relative change from base to new in percent into *pct; false when it
 * is infinite (base zero, new not).  Zero to zero is no change. */
bool diff_percent(double base, double new, double *pct);

/* Order rows by the absolute change of m on clock k, largest first, or
 * by name for DIFF_NAME; ties by name. */
void diff_sort(struct diff *diff, enum diff_metric m, enum clock_index k,
               bool normalize);

/*
 * A --fail-if condition: FUNCTION[(GLOB)] OP THRESHOLD (the grammar is in
 * cli/diff.c's help and the man page).
 */
enum diff_unit {
	DIFF_UNIT_NONE,    /* microseconds for times, a count for calls */
	DIFF_UNIT_PERCENT, /* relative change */
	DIFF_UNIT_US,
	DIFF_UNIT_MS,
	DIFF_UNIT_S,
};

struct diff_cond {
	char *text; /* as written, outer blanks trimmed */
	bool total; /* total_cpu, total_wall, frames: no glob */
	enum diff_frame_metric frame;     /* a frame metric, or NONE */
	enum diff_finding_metric finding; /* a finding metric, or NONE */
	char *rule;                       /* its rule's id */
	enum diff_metric metric; /* DIFF_EXCL, DIFF_INCL or DIFF_CALLS */
	enum clock_index clock;  /* times and totals */
	char *glob;              /* over "CLASS.NAME", dotted; NULL: total */
	char op;                 /* '>' or '<' */
	double threshold;        /* percent, calls or microseconds */
	enum diff_unit unit;
};

/* Where and why a condition is malformed. */
struct diff_cond_error {
	size_t column;       /* 1-based byte column in the text */
	const char *message; /* static */
};

/* Parse text into c; false with err filled when it is malformed. */
bool diff_cond_parse(struct diff_cond *c, const char *text,
                     struct diff_cond_error *err);
/* Release what diff_cond_parse allocated. */
void diff_cond_done(struct diff_cond *c);

struct diff_cond_result {
	double value[2]; /* summed over matching methods, per side */
	double change;   /* percent, or new - base (microseconds with
	                    normalize: the share change times BASE's
	                    total); infinite when undefined */
	size_t matched;  /* rows the glob matched */
	/* A side with no frames (in a run of it) to read a frame metric
	 * from but the count: the condition cannot be evaluated. */
	bool no_frames[2];
	bool holds;
};

/* Why c cannot be evaluated on r, a constant ("no method matches",
 * "no frames"), or NULL when it can; holds is then false. */
const char *diff_cond_missing(const struct diff_cond *c,
                              const struct diff_cond_result *r);
/* Whether side s has a frame metric for c: c reads no frame time or
 * slow count, or each of the side's runs in diff has a frame. */
bool diff_cond_has_frames(const struct diff_cond *c, const struct diff *diff,
                          int s);

/* Evaluate c on diff (whose traces must have c's clock); a frame
 * metric reads each side's first run of frames. */
void diff_cond_eval(const struct diff_cond *c, const struct diff *diff,
                    bool normalize, struct diff_cond_result *r);

#endif
