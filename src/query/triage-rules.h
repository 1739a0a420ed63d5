/*
 * triage-rules: what `tracetui triage` calls a problem, as a table of
 * rules: an id, a category, the threads it looks at, when the calls its
 * pattern matches make a finding and of what severity, and where the
 * rule comes from.  The built-in table is written in the format a
 * --rules file uses (one rule a line, tab-separated fields; the man page
 * documents both), and read by the same parser:
 *
 *   ID  CATEGORY  THREADS  WHEN  SEVERITY  ERROR  FLAGS  PATTERN  SOURCE
 *
 * THREADS is main, other (all but main) or any; WHEN and ERROR are
 * MEASURE OP NUMBER[UNIT], MEASURE one of total (the union of the
 * outermost matching calls' time), call (the longest of them) or count
 * (their number), OP > or >=, UNIT us, ms (the default) or s for times;
 * ERROR is "-" for never; SEVERITY (info, warn or error) is what WHEN
 * gives, ERROR raises it to error.  FLAGS is "-" or a comma-separated
 * list of: no-idle (idle, android.os.MessageQueue.nativePollOnce, inside
 * the calls is left out); cause (the rule's calls are a visible cause of
 * time off the CPU); blocked (not the union of calls: each call of a
 * method its pattern matches, outside the calls of the cause rules and
 * not idle, whose exclusive wall time less its exclusive cpu time meets
 * WHEN (call>=...), dual-clock traces only); hot-frame and hot-startup
 * (each application method whose exclusive cpu time summed inside one
 * frame, or inside the startup window, meets WHEN (total>=...)).
 * PATTERN is a POSIX extended regular expression over a method's full
 * name.  Blank lines and lines starting with '#' are skipped; a line
 * "clear" drops every rule read so far (a file starting with it
 * replaces the built-in table); a rule with the id of one already read
 * replaces it.
 */
#ifndef TRACETUI_TRIAGE_RULES_H
#define TRACETUI_TRIAGE_RULES_H

#include <stdbool.h>
#include <stddef.h>

enum triage_severity {
	TRIAGE_INFO = 0,
	TRIAGE_WARN = 1,
	TRIAGE_ERROR = 2,
};

enum triage_threads {
	TRIAGE_MAIN,  /* the main thread only */
	TRIAGE_OTHER, /* every thread but the main one */
	TRIAGE_ANY,   /* every thread */
};

enum triage_measure {
	TRIAGE_TOTAL, /* the union of the outermost calls, microseconds */
	TRIAGE_CALL,  /* the longest outermost call, microseconds */
	TRIAGE_COUNT, /* outermost calls */
};

/* What a rule's finding sums. */
enum triage_kind {
	TRIAGE_UNION,       /* the outermost matching calls */
	TRIAGE_BLOCKED,     /* calls' exclusive wall less cpu (R20) */
	TRIAGE_HOT_FRAME,   /* app methods' exclusive cpu per frame (R21) */
	TRIAGE_HOT_STARTUP, /* ... in the startup window */
};

/* A condition on a finding's numbers: MEASURE OP VALUE. */
struct triage_when {
	bool on; /* false: never (ERROR "-") */
	enum triage_measure measure;
	bool strict;  /* > rather than >= */
	double value; /* microseconds for times, else a count */
};

struct triage_rule {
	char *id, *category;
	enum triage_threads threads;
	struct triage_when when;
	enum triage_severity severity; /* when `when` holds */
	struct triage_when error;      /* raises it to error */
	bool no_idle;                  /* idle left out of the totals */
	bool cause;                    /* a visible cause of off-CPU time */
	enum triage_kind kind;         /* what the rule measures */
	char *pattern, *source;
};

struct triage_rules {
	struct triage_rule *rules;
	size_t count, cap;
};

/* The built-in table, as a --rules file would write it. */
extern const char triage_builtin_rules[];

/* Read the rules of text (a --rules file's bytes, NUL-terminated) into
 * rules, after those already there; false with "line N: problem" in
 * why[0..size) (rules then holds the lines before it). */
bool triage_rules_read(struct triage_rules *rules, const char *text, char *why,
                       size_t size);
/* The built-in table into rules (empty before). */
void triage_rules_builtin(struct triage_rules *rules);
/* Move the WHEN threshold of a rule, "ID=MS" (a time in ms, or a count
 * for a count rule); false with the reason in why. */
bool triage_rules_set_threshold(struct triage_rules *rules, const char *arg,
                                char *why, size_t size);
/* The rule with id, or NULL. */
struct triage_rule *triage_rules_find(const struct triage_rules *rules,
                                      const char *id);
/* Release the rules. */
void triage_rules_done(struct triage_rules *rules);

/* "union", "blocked", "hot-frame", "hot-startup". */
const char *triage_kind_name(enum triage_kind k);
/* "info", "warn", "error". */
const char *triage_severity_name(enum triage_severity s);
/* Whether rule r applies to the main thread (is_main) or to another. */
bool triage_rule_applies(const struct triage_rule *r, bool is_main);
/* Whether w holds for a total, a longest call (microseconds) and a count. */
bool triage_when_holds(const struct triage_when *w, double total, double call,
                       double count);
/* w as a rules file writes it ("call>=20ms"), into buf. */
const char *triage_when_text(char *buf, size_t size,
                             const struct triage_when *w);

#endif
