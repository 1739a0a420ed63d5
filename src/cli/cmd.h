/*
 * cmd: what the batch commands share: option parsing, help, loading a
 * trace with PRODUCT.md section 3's messages and exit statuses, thread
 * selection and the clock and sort choices.
 *
 * Each command is a function taking its own argv (argv[0] is the command
 * name) and returning the process exit status.
 */
#ifndef TRACETUI_CMD_H
#define TRACETUI_CMD_H

#include "model/calltree.h"
#include "model/mapping.h"
#include "model/scope.h"
#include "query/transforms.h"
#include "read/error.h"
#include "text/table.h"

#include <stdbool.h>
#include <stdio.h>

enum cmd_status {
	CMD_OK = 0,
	CMD_FAIL = 1,      /* a condition the user asked about holds */
	CMD_USAGE = 2,     /* bad command line */
	CMD_INPUT = 3,     /* the file cannot be read or holds nothing usable */
	CMD_WRITE = 4,     /* the output cannot be written (full disk, closed
	                      pipe) */
	CMD_NO_MEMORY = 5, /* out of memory (set by main.c's hook) */
};

/* Options a command accepts (bits of cmd_spec.options). */
enum cmd_option {
	OPT_THREAD = 1 << 0,
	OPT_CLOCK = 1 << 1,
	OPT_SORT = 1 << 2,
	OPT_TOP = 1 << 3,
	OPT_FORMAT = 1 << 4,
	OPT_MIN_PCT = 1 << 5,
	OPT_NO_THREAD = 1 << 6,
	OPT_ASCII = 1 << 7,
	OPT_COLOR = 1 << 8,
	OPT_RANGE = 1 << 9,
	OPT_FAIL_IF = 1 << 10,
	OPT_NORMALIZE = 1 << 11,
	OPT_MAPPING = 1 << 12,
	OPT_BASE = 1 << 13,
	OPT_WIDTH = 1 << 14,
	OPT_MIN_WIDTH = 1 << 15,
	OPT_INVERTED = 1 << 16,
	OPT_ALPHA = 1 << 17,
	OPT_SAMPLE_TYPE = 1 << 18,
	OPT_TRANSFORM = 1 << 19, /* --focus, --merge, --drop, ... */
	OPT_MOUSE = 1 << 20,
	OPT_FULL_NAMES = 1 << 21,
	OPT_SOURCE_DIR = 1 << 22,
	OPT_FRAMES = 1 << 23,     /* --frame-method, --budget, --refresh-rate */
	OPT_TRIAGE = 1 << 24,     /* --all, --fail-on */
	OPT_HEAP = 1 << 25,       /* listed only: cli/heap.c parses them */
	OPT_RULES = 1 << 26,      /* --rules, --threshold */
	OPT_HEAP_SHOWN = 1 << 27, /* --heap: the viewer's first heap */
};

/* What --fail-on asks: exit 1 when a finding of this severity or worse
 * is found (enum triage_severity's order), or never. */
enum cmd_fail_on {
	CMD_FAIL_NEVER = 0,
	CMD_FAIL_WARN,
	CMD_FAIL_ERROR,
};

struct cmd_opts;

struct cmd_spec {
	const char *name;
	const char *args;    /* "FILE", "FILE [REGEX]" */
	const char *summary; /* one line */
	unsigned options;    /* enum cmd_option bits */
	int min_args, max_args;
	const char *sort_keys; /* accepted --sort values, for the help */
	/* NULL-terminated --format values when not the table formats: the
	 * value is left in cmd_opts.format_name for the command. */
	const char *const *formats;
	const char *epilog; /* help text after the options, or NULL */
	/* What the options must hold before any trace is read: false after
	 * a message (a usage error); NULL when anything parsed goes. */
	bool (*check)(const struct cmd_opts *opts);
	/* The command reads the scope's profile and nothing else of the
	 * calls (and the frames, with OPT_FRAMES): without a range,
	 * transforms, or a mapping for the frames' names, the load sums
	 * them only. */
	bool profile_only;
	/* "--" after an operand separates groups of operands (diff's
	 * runs): it is kept among them and options go on after it; a "--"
	 * before any operand ends the options, as for every command. */
	bool separator;
	/* The command describes a key whose data part is missing (info);
	 * the others refuse it with status 3. */
	bool key_only;
};

struct cmd_opts {
	const char **threads; /* --thread values, in order */
	size_t nthreads, threads_cap;
	int clock;        /* CLOCK_CPU, CLOCK_WALL, or -1 for default */
	const char *sort; /* NULL for the command's default */
	long top;         /* -1 for all */
	enum table_format format;
	const char *format_name; /* --format as given, NULL when absent */
	double min_pct;
	bool no_thread;
	const char **fail_if; /* --fail-if expressions, in order */
	size_t nfail_if, fail_if_cap;
	bool normalize;    /* --normalize */
	const char *range; /* --range, checked */
	bool profile_only; /* the spec's, for cmd_load */
	bool sum_frames;   /* profile_only with OPT_FRAMES: the sums
	                      carry the frames too */
	bool frames;       /* OPT_FRAMES: the load finds a sampled
	                      recording's frames (frame-spans.h) */
	bool key_only;     /* the spec's, for cmd_load */
	/* With profile_only: triage's sums too (calltree_load_options,
	 * triage), or NULL. */
	calltree_triage_fn *triage;
	void *triage_arg;
	const char *mapping;   /* --mapping FILE */
	const char *heap;      /* --heap HEAP (the viewer), or NULL */
	struct mapping *names; /* its names, loaded by cmd_parse, or NULL */
	const char *base;      /* --base FILE, or NULL */
	double alpha;          /* --alpha, default 0.05 */
	int width;             /* --width pixels (default 1200) */
	double min_width;      /* --min-width pixels (default 0.1) */
	bool inverted;         /* --inverted */
	/* --focus, --merge, --drop, --collapse-recursion, --collapse and
	 * --group, in the order given: cmd_load applies them in turn. */
	struct transform_step *transforms;
	size_t ntransforms, transforms_cap;
	bool ascii;      /* --ascii */
	bool full_names; /* --full-names */
	int color;       /* enum term_color: auto, always, never */
	bool no_mouse;   /* --no-mouse */
	char **args;     /* positional arguments */
	int nargs;
	/* --sample-type NAME|INDEX, or NULL */
	const char *sample_type;
	bool java_only; /* --java-only */
	/* --source-dir values, in order */
	const char **source_dirs;
	size_t nsource_dirs, source_dirs_cap;
	const char *frame_method; /* --frame-method RE, or NULL */
	double budget; /* --budget or --refresh-rate, microseconds; 0: 60 Hz */
	bool all;      /* --all */
	const char *rules;       /* --rules FILE, or NULL */
	const char **thresholds; /* --threshold ID=MS values, in order */
	size_t nthresholds, thresholds_cap;
	enum cmd_fail_on fail_on; /* --fail-on */
};

/*
 * Parse argv for spec into opts.  Returns -1 to go on, or an exit status
 * (after printing help, the version, or a usage error).
 */
int cmd_parse(const struct cmd_spec *spec, int argc, char **argv,
              struct cmd_opts *opts);
/* GNU order, options may follow operands: argv[1..argc) rearranged, the
 * options and their values first, then the operands (operand[i] true)
 * in their order; how many operands. */
int cmd_permute_operands(int argc, char **argv, const bool *operand);
/* Option i of the table every command parses from, for the man page:
 * its flags as --help writes them, its help line and what the man page
 * adds (or NULL); false past the last. */
bool cmd_option_doc(size_t i, char *flags, size_t size, const char **help,
                    const char **more);
/* Print the options spec accepts, one --help line each, to stdout. */
void cmd_help_options(const struct cmd_spec *spec);
/* Release what cmd_parse allocated. */
void cmd_opts_done(struct cmd_opts *opts);

/*
 * Load path; on failure print "tracetui: FILE: offset N: problem" and
 * return NULL.  Warnings go to stderr.  The --mapping of opts renames
 * the methods; then the transforms of opts apply, in order.
 */
struct calltree *cmd_load(const struct cmd_opts *opts, const char *path);
/* The exit status of the last cmd_load or cmd_loaded that failed:
 * CMD_USAGE when the command line asked for what the file lacks (an
 * unknown --sample-type) or its transforms were refused (a focus that
 * matches no call, a step that removes every call), else CMD_INPUT. */
int cmd_load_status(void);

/* The frame methods of tree that --frame-method (arg, NULL for the
 * default) names, for a load (calltree_load_options.frame_methods);
 * cmd_parse checked the expression. */
bool *cmd_load_frame_methods(const struct calltree *tree, void *arg);
/* The rest of cmd_load once calltree_load_with returned tree: the error
 * in err printed (tree NULL, err cleared) or the warnings, then the
 * --mapping and the transforms applied; NULL on failure. */
struct calltree *cmd_loaded(const struct cmd_opts *opts, const char *path,
                            struct calltree *tree, struct trace_error *err);

/* Whether path can be opened at all; false after "tracetui: FILE:
 * cannot open: why". */
bool cmd_openable(const char *path);

/* A trace opened for a command: its options, model, scope and clock. */
struct cmd_trace {
	struct cmd_opts opts;
	struct calltree *tree;
	struct scope scope;
	enum clock_index clock;
};

/*
 * What most commands do first: parse argv for spec, load the trace
 * opts.args[0] names, and pick the scope and clock the options ask for.
 * Returns -1 to go on (then cmd_close releases ct), or the exit status
 * after a message.
 */
int cmd_open(struct cmd_trace *ct, const struct cmd_spec *spec, int argc,
             char **argv);
/* cmd_open's part after cmd_parse: the spec's check, the load, the
 * scope and the clock; -1 when the command goes on, else a status (the
 * options released). */
int cmd_open_parsed(struct cmd_trace *ct, const struct cmd_spec *spec);
/* Release what cmd_open made. */
void cmd_close(struct cmd_trace *ct);

/* Fill scope from --thread options; false after a usage message. */
bool cmd_scope(struct scope *scope, const struct calltree *tree,
               const struct cmd_opts *opts);

/* The clock asked for, or the trace's default; false after a message
 * when the trace lacks the asked clock. */
bool cmd_clock(const struct calltree *tree, const struct cmd_opts *opts,
               enum clock_index *clock);

/* printf to out with each line's text through text_escape (newlines
 * kept): the one way text mode prints what quotes a file, a name from it
 * or the command line, outside tables. */
void cmd_print(FILE *out, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));
/* The frame budget the options ask for, in microseconds: --budget,
 * --refresh-rate, else 60 Hz's. */
double cmd_frame_budget(const struct cmd_opts *opts);

/* Flush standard output before a message on stderr that must follow it;
 * false when a write failed (the reason is kept for cmd_output_status).
 * A reader that closed its end ends the process as SIGPIPE does. */
bool cmd_flush(void);

/* status, or CMD_WRITE after saying why when standard output could not
 * be written; a closed pipe ends the process silently as SIGPIPE does
 * (status 141 in a shell), as git and the coreutils do. */
int cmd_output_status(int status);

/* Print "tracetui: CMD: message" to stderr. */
/*
 * A value of the trace's unit in a table cell: for people (text) in
 * milliseconds as text/duration.c writes them (or the profile's size or
 * count, query/quantity.c), for scripts (TSV, CSV, JSON) the integer.
 */
void cmd_value_cell(struct table *t, uint64_t v, enum trace_unit unit,
                    bool text);
/* A value column's name: text "Incl ms" (the unit's word), machine
 * formats "incl_us" ("incl_ns"; sizes and counts bare, "incl"); into
 * buf. */
const char *cmd_value_name(char *buf, size_t size, const char *text_word,
                           const char *machine_word, enum trace_unit unit,
                           bool text);

/* A sampled profile (pprof, hprof, simpleperf): its values are samples
 * or a sample type's, never call counts. */
bool cmd_sampled(const struct calltree *tree);
/* The clock holding a sampled profile's values (simpleperf's cpu clock
 * counts its samples), and the one holding their times (CLOCK_COUNT:
 * none). */
enum clock_index cmd_values_clock(const struct calltree *tree);
enum clock_index cmd_times_clock(const struct calltree *tree);
/* A value of clock k as the sample type counts it: samples, where the
 * cpu clock counts each sample as the sampling period. */
uint64_t cmd_samples(const struct calltree *tree, enum clock_index k,
                     uint64_t v);
/* A time of the trace's unit in whole microseconds. */
uint64_t cmd_us(const struct calltree *tree, uint64_t v);

void cmd_error(const char *cmd, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

struct triage_rules;
/* The triage rules opts ask for into rules (empty before): the built-in
 * table, the --rules file's, the --threshold moves; false after "tracetui:
 * CMD: why" (rules then hold what was read: release them). */
bool cmd_triage_rules(struct triage_rules *rules, const struct cmd_opts *opts,
                      const char *cmd);
/* Whether opts change the built-in triage rules (--rules, --threshold). */
bool cmd_triage_rules_given(const struct cmd_opts *opts);

/* The commands. */
/* A batch command: its name, its function, and its line in the usage. */
struct cmd_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

/* Every batch command, in the order the usage lists them, then an entry
 * with a NULL name. */
extern const struct cmd_command cmd_commands[];

/* Option i of the table, for the shell completions: its long name, its
 * short one (0 for none), its value's placeholder (NULL for a flag), its
 * help line, and what its value completes to (words such as "wall cpu",
 * "@file", "@dir", or NULL for nothing); false past the last. */
bool cmd_option_complete(size_t i, const char **name, int *short_name,
                         const char **value, const char **help,
                         const char **complete);

int cmd_report(int argc, char **argv);
int cmd_tree(int argc, char **argv);
int cmd_calls(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_folded(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_frames(int argc, char **argv);
int cmd_triage(int argc, char **argv);
int cmd_paths(int argc, char **argv);
int cmd_leaks(int argc, char **argv);
/* A command (argv[0]) on a Java heap dump: run and its status, or -1
 * when argv names no heap dump and the trace commands go on. */
int cmd_heap_dispatch(int argc, char **argv);

#endif
