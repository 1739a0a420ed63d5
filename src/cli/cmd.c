/*
 * cmd: getopt_long over one table of every option; a command's spec says
 * which of them it accepts, and its help lists exactly those.
 */
#include "config.h"

#include "cli/cmd.h"

#include "model/mapping.h"
#include "model/open.h"
#include "query/frames.h"
#include "query/quantity.h"
#include "query/triage-rules.h"
#include "read/load.h"
#include "read/v1.h"
#include "text/width.h"
#include "util/alloc.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A value parser: NULL when arg is taken into o, else a usage message
 * (static or in why's buffer). */
typedef const char *option_set_fn(struct cmd_opts *o, const char *arg,
                                  const struct cmd_spec *spec);

/* One option: how it is written, what --help and the man page say about
 * it, and how its value is read. */
struct option_def {
	unsigned bit;      /* enum cmd_option */
	int short_name;    /* 0 for a long option only */
	const char *name;  /* the long name */
	const char *value; /* the value's placeholder, NULL for a flag */
	const char *help;  /* one line for --help */
	option_set_fn *set;
	const char *more; /* what the man page adds, or NULL */
};

static char why[256];

static const char *
set_thread(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)spec;
	UTIL_GROW(o->threads, o->threads_cap, o->nthreads + 1);
	o->threads[o->nthreads++] = arg;
	return NULL;
}

static const char *
set_clock(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)spec;
	if (strcmp(arg, "cpu") == 0 || strcmp(arg, "thread-cpu") == 0)
		o->clock = CLOCK_CPU;
	else if (strcmp(arg, "wall") == 0)
		o->clock = CLOCK_WALL;
	else
		return "unknown clock '%s' (wall or cpu)";
	return NULL;
}

static const char *
set_sort(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)spec;
	o->sort = arg;
	return NULL;
}

/* A finite number: strtod also reads "nan" and "inf", which slip past
 * every range check written as v < low || v > high. */
static bool
parse_number(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return end != s && !*end && !errno && isfinite(*out);
}

static const char *
set_top(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	double v;

	(void)spec;
	if (!parse_number(arg, &v) || v < 0 || v != (long)v)
		return "--top needs a count, not '%s'";
	o->top = (long)v;
	return NULL;
}

static const char *
set_format(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	size_t i;

	o->format_name = arg;
	if (spec->formats) {
		for (i = 0; spec->formats[i]; i++)
			if (strcmp(arg, spec->formats[i]) == 0)
				return NULL;
		return "unknown format '%s'";
	}
	if (table_format_parse(arg) < 0)
		return "unknown format '%s' (text, tsv, csv or json)";
	o->format = (enum table_format)table_format_parse(arg);
	return NULL;
}

static const char *
set_min_pct(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	double v;

	(void)spec;
	if (!parse_number(arg, &v) || v < 0 || v > 100)
		return "--min-pct needs a percentage, not '%s'";
	o->min_pct = v;
	return NULL;
}

static const char *
set_no_thread(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)arg, (void)spec;
	o->no_thread = true;
	return NULL;
}

static const char *
set_ascii(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)arg, (void)spec;
	o->ascii = true;
	return NULL;
}

static const char *
set_no_mouse(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)arg, (void)spec;
	o->no_mouse = true;
	return NULL;
}

static const char *
set_full_names(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)arg, (void)spec;
	o->full_names = true;
	return NULL;
}

static const char *
set_color(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	static const char *const whens[] = {"auto", "always", "never"};
	int i;

	(void)spec;
	for (i = 0; i < 3; i++)
		if (strcmp(arg, whens[i]) == 0) {
			o->color = i;
			return NULL;
		}
	return "--color takes auto, always or never, not '%s'";
}

static const char *
set_range(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	struct time_range probe;

	(void)spec;
	if (!scope_parse_range(arg, CLOCK_WALL, &probe))
		return "--range needs START..END with START < END, e.g. "
		       "1.5s..2s, not '%s'";
	o->range = arg;
	return NULL;
}

static const char *
set_fail_if(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)spec;
	UTIL_GROW(o->fail_if, o->fail_if_cap, o->nfail_if + 1);
	o->fail_if[o->nfail_if++] = arg;
	return NULL;
}

static const char *
set_all(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)arg, (void)spec;
	o->all = true;
	return NULL;
}

static const char *
set_rules(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)spec;
	o->rules = arg;
	return NULL;
}

static const char *
set_threshold(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)spec;
	if (!strchr(arg, '=') || *arg == '=')
		return "--threshold needs ID=MS, such as R6=50, not '%s'";
	UTIL_GROW(o->thresholds, o->thresholds_cap, o->nthresholds + 1);
	o->thresholds[o->nthresholds++] = arg;
	return NULL;
}

static const char *
set_fail_on(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)spec;
	if (strcmp(arg, "error") == 0)
		o->fail_on = CMD_FAIL_ERROR;
	else if (strcmp(arg, "warn") == 0)
		o->fail_on = CMD_FAIL_WARN;
	else if (strcmp(arg, "never") == 0)
		o->fail_on = CMD_FAIL_NEVER;
	else
		return "--fail-on needs error, warn or never, not '%s'";
	return NULL;
}

static const char *
set_normalize(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)arg, (void)spec;
	o->normalize = true;
	return NULL;
}

static const char *
set_mapping(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)spec;
	o->mapping = arg;
	return NULL;
}

static const char *
set_base(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)spec;
	o->base = arg;
	return NULL;
}

/* Record a transform step of kind, on methods matching arg if given. */
static const char *
add_transform(struct cmd_opts *o, enum transform_kind kind, const char *arg)
{
	static char bad[128];
	const char *problem = arg ? transforms_check_regex(arg) : NULL;

	if (problem) {
		/* A refused pattern may be long: its start is enough. */
		snprintf(bad, sizeof(bad), "%s '%%.60s%s': %s",
		         kind == TRANSFORM_FOCUS_METHOD ? "--focus"
		         : kind == TRANSFORM_MERGE      ? "--merge"
		                                        : "--drop",
		         strlen(arg) > 60 ? "..." : "", problem);
		return bad;
	}
	UTIL_GROW(o->transforms, o->transforms_cap, o->ntransforms + 1);
	o->transforms[o->ntransforms++] = (struct transform_step){kind, arg};
	return NULL;
}

static const char *
set_focus(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)spec;
	return add_transform(o, TRANSFORM_FOCUS_METHOD, arg);
}

static const char *
set_merge(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)spec;
	return add_transform(o, TRANSFORM_MERGE, arg);
}

static const char *
set_drop(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)spec;
	return add_transform(o, TRANSFORM_DROP, arg);
}

static const char *
set_collapse_recursion(struct cmd_opts *o, const char *arg,
                       const struct cmd_spec *spec)
{
	(void)arg, (void)spec;
	return add_transform(o, TRANSFORM_COLLAPSE_RECURSION, NULL);
}

static const char *
set_collapse(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)spec;
	if (strcmp(arg, "class") == 0)
		return add_transform(o, TRANSFORM_COLLAPSE_CLASS, NULL);
	if (strcmp(arg, "package") == 0)
		return add_transform(o, TRANSFORM_COLLAPSE_PACKAGE, NULL);
	return "--collapse takes class or package, not '%s'";
}

static const char *
set_group(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)spec;
	if (strcmp(arg, "class") == 0)
		return add_transform(o, TRANSFORM_GROUP_CLASS, NULL);
	if (strcmp(arg, "package") == 0)
		return add_transform(o, TRANSFORM_GROUP_PACKAGE, NULL);
	return "--group takes class or package, not '%s'";
}

static const char *
set_alpha(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	double v;

	(void)spec;
	if (!parse_number(arg, &v) || !(v > 0 && v < 1))
		return "--alpha needs a level between 0 and 1, such as 0.05, "
		       "not '%s'";
	o->alpha = v;
	return NULL;
}

static const char *
set_width(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	double v;

	(void)spec;
	if (!parse_number(arg, &v) || v < 100 || v > 100000 || v != (int)v)
		return "--width needs pixels from 100 to 100000, not '%s'";
	o->width = (int)v;
	return NULL;
}

static const char *
set_min_width(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	double v;

	(void)spec;
	if (!parse_number(arg, &v) || v < 0 || v > 100000)
		return "--min-width needs pixels, not '%s'";
	o->min_width = v;
	return NULL;
}

static const char *
set_inverted(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)arg, (void)spec;
	o->inverted = true;
	return NULL;
}

static const char *
set_sample_type(struct cmd_opts *o, const char *arg,
                const struct cmd_spec *spec)
{
	(void)spec;
	o->sample_type = arg;
	return NULL;
}

static const char *
set_java_only(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)arg, (void)spec;
	o->java_only = true;
	return NULL;
}

static const char *
set_source_dir(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)spec;
	UTIL_GROW(o->source_dirs, o->source_dirs_cap, o->nsource_dirs + 1);
	o->source_dirs[o->nsource_dirs++] = arg;
	return NULL;
}

static const char *
set_frame_method(struct cmd_opts *o, const char *arg,
                 const struct cmd_spec *spec)
{
	static char bad[128];
	const char *problem = transforms_check_regex(arg);

	(void)spec;
	if (problem) {
		snprintf(bad, sizeof(bad), "--frame-method '%%.60s%s': %s",
		         strlen(arg) > 60 ? "..." : "", problem);
		return bad;
	}
	o->frame_method = arg;
	return NULL;
}

static const char *
set_budget(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	double v;

	(void)spec;
	if (!parse_number(arg, &v) || !(v > 0 && v <= 1e6))
		return "--budget needs milliseconds above 0, such as 16.67, "
		       "not '%s'";
	o->budget = v * 1000;
	return NULL;
}

static const char *
set_refresh_rate(struct cmd_opts *o, const char *arg,
                 const struct cmd_spec *spec)
{
	double v;

	(void)spec;
	if (!parse_number(arg, &v) || !(v >= 1 && v <= 10000))
		return "--refresh-rate needs hertz from 1 to 10000, such as "
		       "90, not '%s'";
	o->budget = frames_budget_of_rate(v);
	return NULL;
}

double
cmd_frame_budget(const struct cmd_opts *opts)
{
	return opts->budget > 0 ? opts->budget
	                        : frames_budget_of_rate(FRAMES_DEFAULT_HZ);
}

/* A byte count with an optional binary K, M, G or T suffix. */
static bool
parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return false;
	if (*end && strchr("KkMmGgTt", *end)) {
		shift = (int)(strchr("KMGT", *end & ~0x20) - "KMGT" + 1) * 10;
		end++;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end || v > (UINT64_MAX >> shift))
		return false;
	*out = (uint64_t)v << shift;
	return true;
}

static const char *
set_max_input(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	uint64_t size;

	(void)o, (void)spec;
	if (!parse_size(arg, &size) || !size)
		return "--max-input needs a size such as 4G, not '%s'";
	trace_load_max_input = size;
	return NULL;
}

/* The heap dump options, met only where no heap dump was named. */
static const char *
set_heap_only(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)o;
	(void)arg;
	(void)spec;
	return "is for Java heap dumps (binary HPROF) only";
}

/* The heap the heap dump viewer shows first (checked against the dump's
 * heaps once it is read). */
static const char *
set_heap_shown(struct cmd_opts *o, const char *arg, const struct cmd_spec *spec)
{
	(void)spec;
	o->heap = arg;
	return NULL;
}

/* Every option of every command, in the order --help lists them; bit 0
 * for the options every command takes. */
static const struct option_def options[] = {
        {OPT_THREAD, 't', "thread", "SEL",
         "only threads named SEL, with id SEL, or all (repeatable)", set_thread,
         NULL},
        {OPT_CLOCK, 'c', "clock", "CLOCK",
         "wall or cpu (default: cpu if present)", set_clock,
         "The clock to show and sort by."},
        {OPT_SORT, 's', "sort", "COLUMN", "the column to sort by", set_sort,
         "Each command's --help lists its columns."},
        {OPT_TOP, 'n', "top", "N", "print only the first N rows", set_top,
         NULL},
        {OPT_FORMAT, 'f', "format", "FMT", "text, tsv, csv or json", set_format,
         "Text is aligned for reading; tsv is stable for "
         "scripts."},
        {OPT_MIN_PCT, 0, "min-pct", "P",
         "hide paths under P% of the total (default 1)", set_min_pct,
         "For tree, and export --format dot (methods and edges)."},
        {OPT_NO_THREAD, 0, "no-thread", NULL,
         "do not start each stack with its thread's name", set_no_thread,
         "For tree, folded, flamegraph and export --format html: the "
         "threads' paths merge."},
        {OPT_ASCII, 0, "ascii", NULL, "draw with ASCII characters only",
         set_ascii, "Also when the locale is not UTF-8."},
        {OPT_FULL_NAMES, 0, "full-names", NULL,
         "show methods' full names, not packages as initials", set_full_names,
         "For the viewer, which otherwise shortens each package of a "
         "class to its first letter (a.v.Choreographer.doFrame) and adds "
         "the parameter types only to overloads; A switches in the "
         "viewer, and the status line always gives the selection's full "
         "name.  Searches match full names either way; the batch "
         "commands always print them."},
        {OPT_COLOR, 0, "color", "WHEN", "auto, always or never", set_color,
         "Colours in the viewer; NO_COLOR in the environment means never."},
        {OPT_MOUSE, 0, "no-mouse", NULL,
         "leave the mouse to the terminal (select and copy text)", set_no_mouse,
         "For the viewer, which otherwise takes the mouse when terminfo "
         "knows one (see Mouse under KEYS); most terminals also let Shift "
         "with a click or drag reach their own selection."},
        {OPT_RANGE, 0, "range", "A..B",
         "only the time from A to B after the trace start, on the wall "
         "clock (cpu without one); units us, ms (default) or s",
         set_range,
         "For every command that shows times, and the viewer; the numbers "
         "of the calls cut by an edge count only the part inside."},
        {OPT_NORMALIZE, 0, "normalize", NULL,
         "compare shares of each trace's total, not times", set_normalize,
         "For diff."},
        {OPT_FAIL_IF, 0, "fail-if", "EXPR",
         "exit 1 when EXPR holds (repeatable)", set_fail_if,
         "For diff; see DIFF for the grammar."},
        {OPT_ALPHA, 0, "alpha", "A",
         "over runs, p below A is significant (default 0.05)", set_alpha,
         "For diff over several runs per side: a change whose "
         "Mann-Whitney p-value is A or more is marked ~ and never trips "
         "--fail-if; the intervals are at level 1 - A."},
        {OPT_MAPPING, 0, "mapping", "FILE",
         "rename obfuscated classes and methods with an R8/ProGuard "
         "mapping.txt",
         set_mapping,
         "For report, tree, calls, folded, dump, flamegraph, export and "
         "the viewer.  An "
         "ambiguous name that the signature does not settle shows every "
         "candidate, joined with |."},
        {OPT_BASE, 0, "base", "BASE",
         "compare with the trace BASE: deltas and slower/faster frames",
         set_base,
         "For flamegraph, a differential graph (see there).  For the "
         "viewer: the profile adds delta Excl and delta Incl "
         "columns on the main clock (the change in milliseconds, or new "
         "for a method BASE never calls), sortable like the others; the "
         "icicle draws a frame as slower or faster when its inclusive "
         "time changed by more than 5% of that of BASE's frame on the same "
         "call path (a path BASE lacks is slower), and its status line "
         "gives both times.  Methods match by full name, a slash in the "
         "class read as a dot."},
        {OPT_WIDTH, 0, "width", "PX", "the picture's width (default 1200)",
         set_width, "For flamegraph."},
        {OPT_MIN_WIDTH, 0, "min-width", "PX",
         "leave out frames narrower than PX pixels (default 0.1)",
         set_min_width, "For flamegraph; their time stays in their parent."},
        {OPT_INVERTED, 0, "inverted", NULL,
         "an icicle graph: the root at the top", set_inverted,
         "For flamegraph."},
        {OPT_SAMPLE_TYPE, 0, "sample-type", "TYPE",
         "pprof, simpleperf: the sample type, by name or index from 0",
         set_sample_type,
         "For every command and the viewer, on pprof profiles: the sample "
         "type to load, by its name (alloc_space, Unreleased malloc size) "
         "or its index from 0; info lists them, and y in the viewer loads "
         "the next.  diff compares two profiles of one sample type, growth "
         "per function in its unit; a --fail-if threshold without a unit "
         "is in that unit.  On simpleperf recordings: the event type "
         "(cpu-clock, sched:sched_switch), or all for every type's "
         "samples together; the first by default."},
        {OPT_SAMPLE_TYPE, 0, "java-only", NULL,
         "simpleperf: only Java and Kotlin frames", set_java_only,
         "For every command and the viewer, on simpleperf recordings: "
         "native and kernel frames are left out, their samples going to "
         "their Java caller; a sample without a Java frame counts as "
         "(no Java frame).  Y in the viewer toggles it."},
        {OPT_TRANSFORM, 0, "focus", "RE",
         "only the calls of methods matching RE, as roots, and what they "
         "call",
         set_focus,
         "Each outermost call of a matching method becomes a root of its "
         "thread, and a call of the root's own method inside it is merged "
         "into it.  As the Firefox Profiler's focus on a function, the "
         "focused calls are the whole: every total, percentage and root "
         "is their time (a thread's traced time is its outermost calls' "
         "time, a thread without one has none, and no time is outside "
         "any method).  A focus that matches no call, or a transform that "
         "would remove every call, is refused (status 2).  The transform "
         "options (--focus, --merge, --drop, --collapse-recursion, "
         "--collapse, --group) are for report, tree, folded, flamegraph, "
         "export, frames, "
         "diff and the viewer (whose title then names them, its own "
         "transforms applying on top), may be repeated and apply in the "
         "order given; RE is a "
         "POSIX extended regular expression matched anywhere in a "
         "method's full name."},
        {OPT_TRANSFORM, 0, "merge", "RE",
         "remove methods matching RE from the stacks; their time goes to "
         "their callers",
         set_merge,
         "A merged call's callees become its caller's, and its exclusive "
         "time is added to the caller's."},
        {OPT_TRANSFORM, 0, "drop", "RE",
         "remove the calls of methods matching RE and all under them", set_drop,
         "Their time is removed too: the callers' inclusive times lose "
         "it, and later calls start that much earlier."},
        {OPT_TRANSFORM, 0, "collapse-recursion", NULL,
         "fold every method called inside itself into its outer call",
         set_collapse_recursion,
         "Direct and indirect recursion: a call with a caller of the same "
         "method anywhere up its stack is merged into its caller."},
        {OPT_TRANSFORM, 0, "collapse", "WHAT",
         "class or package: nested frames of one become one frame",
         set_collapse,
         "A call whose nearest kept caller has the same class (or "
         "package) is merged into it, and the frame is named after the "
         "class (or package)."},
        {OPT_TRANSFORM, 0, "group", "WHAT",
         "class or package: one row per class or package", set_group,
         "Every frame is named after its class (or package); inclusive "
         "time counts once per stack, as for recursion."},
        {OPT_SOURCE_DIR, 0, "source-dir", "DIR",
         "find source files under DIR for o in the viewer (repeatable)",
         set_source_dir,
         "For the viewer: o opens the selected method's source file in "
         "$VISUAL (else $EDITOR, else vi) at its line, as +LINE FILE.  "
         "The file is DIR/com/foo/Bar.java or .kt for a class "
         "com.foo.Bar, else the source file the key names in that "
         "folder, else a file of that name anywhere below DIR (at most "
         "12 levels deep); each DIR in turn.  The editor runs without a "
         "shell."},
        {OPT_FRAMES, 0, "frame-method", "RE",
         "frames are the outermost calls of methods matching RE",
         set_frame_method,
         "For frames, diff and the viewer's Frames view.  The default is "
         "every overload of android.view.Choreographer.doFrame; RE is a "
         "POSIX extended regular expression matched anywhere in a "
         "method's full name, and replaces it."},
        {OPT_FRAMES, 0, "budget", "MS",
         "a frame over MS milliseconds is slow (default 16.67)", set_budget,
         "For frames, diff and the viewer.  A frame over 700 ms is "
         "frozen, whatever the budget."},
        {OPT_FRAMES, 0, "refresh-rate", "HZ",
         "the budget is one refresh at HZ (90: 11.11 ms, 120: 8.33 ms)",
         set_refresh_rate,
         "For frames, diff and the viewer; the last of --budget and "
         "--refresh-rate counts."},
        {OPT_TRIAGE, 0, "all", NULL, "print every finding, not one screen",
         set_all,
         "For triage, whose text otherwise stops where an 80x24 screen "
         "would and says how many findings are left."},
        {OPT_RULES, 0, "rules", "FILE",
         "add the rules of FILE to the built-in ones (see TRIAGE)", set_rules,
         "For triage and the viewer's Findings view.  A rule with the id "
         "of a built-in one replaces it; a line clear drops the rules "
         "before it, so a file starting with it replaces the table."},
        {OPT_RULES, 0, "threshold", "ID=MS",
         "move the threshold of rule ID (repeatable)", set_threshold,
         "For triage and the viewer's Findings view: the rule's WHEN "
         "value, in milliseconds (a count for a count rule)."},
        {OPT_TRIAGE, 0, "fail-on", "WHEN",
         "error, warn or never: exit 1 on such a finding (default never)",
         set_fail_on,
         "For triage: exit 1 when a finding of that severity (warn: or "
         "error) is found, as a CI gate."},
        {OPT_HEAP_SHOWN, 0, "heap", "HEAP",
         "heap dumps: the heaps shown, app, image, zygote or all",
         set_heap_shown,
         "For report, diff and the viewer on a Java heap dump (see HEAP "
         "DUMPS): app by default for a dump that names its heaps, all "
         "for a JVM dump.  The viewer's y shows the next heap."},
        {OPT_HEAP, 0, "duplicates", NULL,
         "heap dumps: Strings and primitive arrays held more than once",
         set_heap_only, "For report on a Java heap dump."},
        {OPT_HEAP, 0, "fail-if-any", NULL,
         "heap dumps: exit 1 when there is a leak suspect", set_heap_only,
         "For leaks on a Java heap dump."},
        {0, 0, "max-input", "SIZE",
         "read at most SIZE bytes from a pipe (default 1G)", set_max_input,
         "From a pipe or - (the standard input); K M G T suffixes count in "
         "powers of 1024.  Past it the load fails with status 3.  A mapping "
         "file read from a pipe has the same limit."},
};
enum { NOPTIONS = sizeof(options) / sizeof(options[0]) };

/* What an option's value completes to in a shell: words, "@file" or
 * "@dir"; an option not listed offers nothing. */
static const struct {
	const char *name, *words;
} completions[] = {
        {"clock", "wall cpu"},
        /* The table formats, then export's (cli/export.c). */
        {"format", "text tsv csv json speedscope chrome dot html"},
        {"color", "auto always never"},
        {"mapping", "@file"},
        {"base", "@file"},
        {"collapse", "class package"},
        {"group", "class package"},
        {"source-dir", "@dir"},
        {"rules", "@file"},
        {"fail-on", "error warn never"},
        {"heap", "app image zygote all"},
};

void
cmd_value_cell(struct table *t, uint64_t v, enum trace_unit unit, bool text)
{
	char buf[64];

	if (!text)
		table_u64(t, v);
	else if (unit == TRACE_UNIT_US)
		table_ms(t, v);
	else {
		quantity_format(buf, sizeof(buf), v, unit, false);
		table_str(t, buf);
	}
}

const char *
cmd_value_name(char *buf, size_t size, const char *text_word,
               const char *machine_word, enum trace_unit unit, bool text)
{
	if (text)
		snprintf(buf, size, "%s %s", text_word, quantity_label(unit));
	else
		snprintf(buf, size, "%s%s", machine_word,
		         unit == TRACE_UNIT_US   ? "_us"
		         : unit == TRACE_UNIT_NS ? "_ns"
		                                 : "");
	return buf;
}

bool
cmd_sampled(const struct calltree *tree)
{
	return tree->header.format == TRACE_FORMAT_PPROF ||
	       tree->header.format == TRACE_FORMAT_HPROF ||
	       tree->header.format == TRACE_FORMAT_SIMPLEPERF;
}

enum clock_index
cmd_values_clock(const struct calltree *tree)
{
	return tree->header.sample_weight ? CLOCK_CPU : CLOCK_WALL;
}

enum clock_index
cmd_times_clock(const struct calltree *tree)
{
	if (tree->header.sample_weight)
		return CLOCK_WALL;
	return quantity_is_time(tree->header.unit) ? CLOCK_WALL : CLOCK_COUNT;
}

uint64_t
cmd_samples(const struct calltree *tree, enum clock_index k, uint64_t v)
{
	return k == CLOCK_CPU && tree->header.sample_weight
	               ? v / tree->header.sample_weight
	               : v;
}

uint64_t
cmd_us(const struct calltree *tree, uint64_t v)
{
	return tree->header.unit == TRACE_UNIT_NS ? (v + 500) / 1000 : v;
}

/* Why the first failed write of standard output failed (0: unknown). */
static int output_errno;

/* A closed pipe: die of SIGPIPE, as a default handler would have. */
static void
closed_pipe(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	signal(SIGPIPE, SIG_DFL);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(SIGPIPE);
	_exit(128 + SIGPIPE);
}

bool
cmd_flush(void)
{
	int flushed = fflush(stdout);

	if (flushed == 0 && !ferror(stdout))
		return true;
	/* errno is the write's only when this flush failed. */
	if (!output_errno && flushed != 0)
		output_errno = errno;
	if (output_errno == EPIPE)
		closed_pipe();
	return false;
}

int
cmd_output_status(int status)
{
	if (cmd_flush())
		return status;
	fprintf(stderr, "tracetui: cannot write the output: %s\n",
	        output_errno ? strerror(output_errno) : "a write failed");
	return CMD_WRITE;
}

void
cmd_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	char *raw, *shown;

	va_start(ap, fmt);
	raw = xvasprintf(fmt, ap);
	va_end(ap);
	/* Messages quote file names, options and the file's own bytes. */
	shown = text_escape(raw);
	fprintf(stderr, "tracetui: %s%s%s\n", cmd ? cmd : "", cmd ? ": " : "",
	        shown);
	free(shown);
	free(raw);
}

void
cmd_print(FILE *out, const char *fmt, ...)
{
	va_list ap;
	char *raw, *line, *end;

	va_start(ap, fmt);
	raw = xvasprintf(fmt, ap);
	va_end(ap);
	for (line = raw;; line = end + 1) {
		char *shown;

		end = strchr(line, '\n');
		if (end)
			*end = '\0';
		shown = text_escape(line);
		fputs(shown, out);
		free(shown);
		if (!end)
			break;
		fputc('\n', out);
	}
	free(raw);
}

/* "-t, --thread SEL" or "    --ascii": how --help writes o. */
static void
option_flags(const struct option_def *o, char *buf, size_t size)
{
	char shrt[8] = "   ";

	if (o->short_name)
		snprintf(shrt, sizeof(shrt), "-%c,", o->short_name);
	snprintf(buf, size, "%s --%s%s%s", shrt, o->name, o->value ? " " : "",
	         o->value ? o->value : "");
}

bool
cmd_option_doc(size_t i, char *flags, size_t size, const char **help,
               const char **more)
{
	if (i >= NOPTIONS)
		return false;
	option_flags(&options[i], flags, size);
	*help = options[i].help;
	*more = options[i].more;
	return true;
}

bool
cmd_option_complete(size_t i, const char **name, int *short_name,
                    const char **value, const char **help,
                    const char **complete)
{
	size_t k;

	if (i >= NOPTIONS)
		return false;
	*name = options[i].name;
	*short_name = options[i].short_name;
	*value = options[i].value;
	*help = options[i].help;
	*complete = NULL;
	for (k = 0; k < sizeof(completions) / sizeof(completions[0]); k++)
		if (strcmp(completions[k].name, options[i].name) == 0)
			*complete = completions[k].words;
	return true;
}

void
cmd_help_options(const struct cmd_spec *spec)
{
	size_t i;

	for (i = 0; i < NOPTIONS; i++) {
		const struct option_def *o = &options[i];
		char flags[64];

		if (o->bit && !(spec->options & o->bit))
			continue;
		option_flags(o, flags, sizeof(flags));
		if (o->bit == OPT_SORT)
			printf("  %-22s sort by one of: %s\n", flags,
			       spec->sort_keys);
		else if (o->bit == OPT_FORMAT && spec->formats) {
			size_t f;

			printf("  %-22s one of:", flags);
			for (f = 0; spec->formats[f]; f++)
				printf("%s %s", f ? "," : "", spec->formats[f]);
			putchar('\n');
		} else if (o->bit == OPT_CLOCK &&
		           strcmp(spec->name, "viewer") == 0) {
			/* The viewer shows both side by side (app.c). */
			printf("  %-22s wall or cpu (default: both where "
			       "present)\n",
			       flags);
		} else
			printf("  %-22s %s\n", flags, o->help);
	}
}

static void
print_help(const struct cmd_spec *spec)
{
	if (strcmp(spec->name, "viewer") == 0)
		printf("Usage: tracetui [OPTIONS] %s\n", spec->args);
	else
		printf("Usage: tracetui %s [OPTIONS] %s\n", spec->name,
		       spec->args);
	printf("%s\n\nOptions:\n", spec->summary);
	cmd_help_options(spec);
	printf("  %-22s %s\n  %-22s %s\n", "-h, --help", "show this help",
	       "-V, --version", "show the version");
	if (spec->epilog)
		printf("\n%s", spec->epilog);
	printf("\nExit status: 0 success, %s2 usage error, 3 the file "
	       "cannot be read,\n4 the output cannot be written, 5 out of "
	       "memory, 128+N ended by signal N.\n",
	       spec->options & OPT_FAIL_IF ? "1 a --fail-if condition holds,\n"
	                                   : "");
}

static int usage_error(const struct cmd_spec *spec, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

static int
usage_error(const struct cmd_spec *spec, const char *fmt, ...)
{
	va_list ap;
	char *raw, *shown;
	bool viewer = strcmp(spec->name, "viewer") == 0;

	va_start(ap, fmt);
	raw = xvasprintf(fmt, ap);
	va_end(ap);
	shown = text_escape(raw);
	fprintf(stderr, "tracetui: %s: %s (see 'tracetui %s%s--help')\n",
	        spec->name, shown, viewer ? "" : spec->name, viewer ? "" : " ");
	free(shown);
	free(raw);
	return CMD_USAGE;
}

/* The getopt tables for every option: long ones in longopts (ending
 * with help and version), short ones in shortopts. */
static void
getopt_tables(struct option *longopts, char *shortopts)
{
	size_t i;
	char *p = shortopts;

	p += sprintf(p, "+:");
	for (i = 0; i < NOPTIONS; i++) {
		const struct option_def *o = &options[i];

		longopts[i] = (struct option){
		        o->name, o->value ? required_argument : no_argument,
		        NULL, o->short_name ? o->short_name : 256 + (int)i};
		if (o->short_name)
			p += sprintf(p, "%c%s", o->short_name,
			             o->value ? ":" : "");
	}
	longopts[i++] = (struct option){"help", no_argument, NULL, 'h'};
	longopts[i++] = (struct option){"version", no_argument, NULL, 'V'};
	longopts[i] = (struct option){NULL, 0, NULL, 0};
	sprintf(p, "hV");
}

/* The option getopt_long answered c for, or NULL. */
static const struct option_def *
option_of(int c)
{
	size_t i;

	if (c >= 256 && c < 256 + NOPTIONS)
		return &options[c - 256];
	for (i = 0; i < NOPTIONS; i++)
		if (c && options[i].short_name == c)
			return &options[i];
	return NULL;
}

/* The options of argv into opts, marking its operands in operand;
 * -1 to go on, or an exit status after help, the version or a usage
 * error. */
static int
read_options(const struct cmd_spec *spec, int argc, char **argv,
             struct cmd_opts *opts, bool *operand)
{
	struct option longopts[NOPTIONS + 3];
	char shortopts[3 * NOPTIONS + 8];
	int c, operands = 0;

	getopt_tables(longopts, shortopts);
	opterr = 0;
	optind = 1;
	for (;;) {
		const struct option_def *o;
		const char *problem;
		int before = optind;

		c = getopt_long(argc, argv, shortopts, longopts, NULL);
		if (c == -1) {
			/* "+" in shortopts stops getopt at the first operand
			 * whatever POSIXLY_CORRECT says: take it and go on;
			 * "--" ends the options. */
			if (optind == before + 1 &&
			    strcmp(argv[before], "--") == 0) {
				if (spec->separator && operands) {
					operand[before] = true;
					continue;
				}
				while (optind < argc)
					operand[optind++] = true;
				break;
			}
			if (optind >= argc)
				break;
			operand[optind++] = true;
			operands++;
			continue;
		}
		o = option_of(c);

		if (o && o->bit && !(spec->options & o->bit))
			return usage_error(spec, "option '--%s' does not apply",
			                   o->name);
		if (o) {
			problem = o->set(opts, optarg, spec);
			if (problem) {
				snprintf(why, sizeof(why), problem, optarg);
				return usage_error(spec, "%s", why);
			}
			continue;
		}
		switch (c) {
		case 'h':
			print_help(spec);
			return CMD_OK;
		case 'V':
			printf("tracetui %s\n", PACKAGE_VERSION);
			return CMD_OK;
		case ':':
			return usage_error(spec, "option '%s' needs a value",
			                   argv[optind - 1]);
		default:
			return usage_error(spec, "unknown option '%s'",
			                   argv[optind - 1]);
		}
	}
	return -1;
}

int
cmd_permute_operands(int argc, char **argv, const bool *operand)
{
	char **tmp = xmalloc(((size_t)argc + 1) * sizeof(*tmp));
	int i, n = 1, nops = 0;

	for (i = 1; i < argc; i++)
		if (!operand[i])
			tmp[n++] = argv[i];
	for (i = 1; i < argc; i++)
		if (operand[i]) {
			tmp[n++] = argv[i];
			nops++;
		}
	memcpy(argv + 1, tmp + 1, ((size_t)argc - 1) * sizeof(*tmp));
	free(tmp);
	return nops;
}

int
cmd_parse(const struct cmd_spec *spec, int argc, char **argv,
          struct cmd_opts *opts)
{
	bool *operand; /* per argv entry: an operand, not an option */
	int status;

	memset(opts, 0, sizeof(*opts));
	opts->profile_only = spec->profile_only;
	opts->sum_frames = spec->profile_only && (spec->options & OPT_FRAMES);
	opts->frames = (spec->options & OPT_FRAMES) != 0;
	opts->key_only = spec->key_only;
	opts->clock = -1;
	opts->top = -1;
	opts->min_pct = 1.0;
	opts->alpha = 0.05;
	opts->width = 1200;
	opts->min_width = 0.1;
	operand = xcalloc((size_t)argc + 1, sizeof(*operand));
	status = read_options(spec, argc, argv, opts, operand);
	if (status >= 0) {
		free(operand);
		return status;
	}
	opts->nargs = cmd_permute_operands(argc, argv, operand);
	opts->args = argv + argc - opts->nargs;
	free(operand);
	if (opts->nargs < spec->min_args)
		return usage_error(spec, "expected %s", spec->args);
	if (opts->nargs > spec->max_args)
		return usage_error(spec, "unexpected argument '%s'",
		                   opts->args[spec->max_args]);
	if (opts->mapping) {
		char *error = NULL;

		opts->names = mapping_load(opts->mapping, &error);
		if (!opts->names) {
			cmd_error(NULL, "%s", error);
			free(error);
			return CMD_INPUT;
		}
	}
	return -1;
}

void
cmd_opts_done(struct cmd_opts *opts)
{
	free(opts->threads);
	opts->threads = NULL;
	mapping_free(opts->names);
	opts->names = NULL;
	free(opts->fail_if);
	free(opts->thresholds);
	opts->fail_if = NULL;
	free(opts->transforms);
	opts->transforms = NULL;
	free(opts->source_dirs);
	opts->source_dirs = NULL;
}

enum { MAX_WARNINGS_SHOWN = 10 };

/* A percentage on the terminal's stderr while a large file loads. */
static void
show_progress(void *arg, uint64_t done, uint64_t total)
{
	const char *path = arg;

	if (!total)
		return;
	/* The \r is layout, the path the user's: escaped. */
	fputc('\r', stderr);
	cmd_print(stderr, "tracetui: reading %s: %3d%%", path,
	          (int)(done * 100 / total));
}

/* Set by cmd_loaded when it fails; read after the load (or the join of
 * the thread that loaded). */
static int load_status = CMD_INPUT;

int
cmd_load_status(void)
{
	return load_status;
}

bool *
cmd_load_frame_methods(const struct calltree *tree, void *arg)
{
	char bad[256];

	return frames_methods(tree, arg, bad, sizeof(bad));
}

struct calltree *
cmd_load(const struct cmd_opts *opts, const char *path)
{
	struct trace_error err = {0};
	bool tty = isatty(STDERR_FILENO);
	struct calltree_load_options o = {
	        .sample_type = opts->sample_type,
	        .java_only = opts->java_only,
	        .progress = tty ? show_progress : NULL,
	        .progress_arg = (void *)path,
	        /* The frame methods' names are matched as the file
	         * gives them: with a mapping, the model is built. */
	        .sums_only = opts->profile_only && !opts->range &&
	                     !opts->ntransforms &&
	                     !(opts->sum_frames && opts->names),
	        .frame_methods = opts->frames ? cmd_load_frame_methods : NULL,
	        .frame_arg = (void *)opts->frame_method,
	        .triage = opts->triage,
	        .triage_arg = opts->triage_arg};
	struct calltree *tree = calltree_load_with(path, &o, &err);

	if (tty)
		fputs("\r\033[K", stderr);
	return cmd_loaded(opts, path, tree, &err);
}

/* A key without its data part has nothing to count: its warning said as
 * the error (status 3), and a pointer to info, which shows the key. */
static struct calltree *
refuse_key_only(const char *path, struct calltree *tree)
{
	char *where = text_escape(path);
	size_t i;

	for (i = 0; i < tree->nwarnings; i++) {
		const char *m = tree->warnings[i].message;
		char *what;

		if (strncmp(m, TRACE_V1_NO_DATA, strlen(TRACE_V1_NO_DATA)))
			continue;
		what = text_escape(m);
		fprintf(stderr,
		        "tracetui: %s: offset %llu: %s; 'tracetui info' shows "
		        "its key\n",
		        where, (unsigned long long)tree->warnings[i].offset,
		        what);
		free(what);
		break;
	}
	free(where);
	calltree_free(tree);
	return NULL;
}

struct calltree *
cmd_loaded(const struct cmd_opts *opts, const char *path, struct calltree *tree,
           struct trace_error *err)
{
	size_t i;

	load_status = CMD_INPUT;
	if (!tree) {
		char *where = text_escape(err->path ? err->path : path);
		char *what = text_escape(err->message);

		load_status = err->usage ? CMD_USAGE : CMD_INPUT;
		fprintf(stderr, "tracetui: %s: offset %llu: %s\n", where,
		        (unsigned long long)err->offset, what);
		free(where);
		free(what);
		trace_error_clear(err);
		return NULL;
	}
	if (tree->header.no_data && !opts->key_only)
		return refuse_key_only(path, tree);
	for (i = 0; i < tree->nwarnings && i < MAX_WARNINGS_SHOWN; i++) {
		/* Warnings quote the file's own bytes: escaped for stderr. */
		char *where = text_escape(path);
		char *what = text_escape(tree->warnings[i].message);

		fprintf(stderr, "tracetui: %s: offset %llu: warning: %s\n",
		        where, (unsigned long long)tree->warnings[i].offset,
		        what);
		free(where);
		free(what);
	}
	if (tree->nwarnings > MAX_WARNINGS_SHOWN)
		cmd_print(stderr,
		          "tracetui: %s: %zu more warnings ('tracetui info' "
		          "lists them all)\n",
		          path, tree->nwarnings - MAX_WARNINGS_SHOWN);
	if (opts->sample_type && tree->header.format != TRACE_FORMAT_PPROF &&
	    tree->header.format != TRACE_FORMAT_SIMPLEPERF)
		cmd_error(
		        NULL,
		        "%s: warning: --sample-type applies to pprof profiles "
		        "and simpleperf recordings only; ignored",
		        path);
	if (opts->names)
		mapping_apply(opts->names, tree);
	if (opts->ntransforms) {
		const char *unmatched;
		char *refused;

		tree = transforms_apply(tree, opts->transforms,
		                        opts->ntransforms, &unmatched,
		                        &refused);
		if (!tree) {
			cmd_error(NULL, "%s: %s", path, refused);
			free(refused);
			load_status = CMD_USAGE;
			return NULL;
		}
		if (unmatched) {
			char *shown = text_escape(unmatched);

			fprintf(stderr,
			        "tracetui: %s: warning: '%s' matches no "
			        "method\n",
			        path, shown);
			free(shown);
		}
	}
	return tree;
}

bool
cmd_openable(const char *path)
{
	struct trace_error err = {0};

	if (trace_openable(path, &err))
		return true;
	cmd_error(NULL, "%s: %s", err.path ? err.path : path, err.message);
	trace_error_clear(&err);
	return false;
}

int
cmd_open(struct cmd_trace *ct, const struct cmd_spec *spec, int argc,
         char **argv)
{
	int status = cmd_parse(spec, argc, argv, &ct->opts);

	ct->tree = NULL;
	if (status >= 0)
		return status;
	return cmd_open_parsed(ct, spec);
}

int
cmd_open_parsed(struct cmd_trace *ct, const struct cmd_spec *spec)
{
	ct->tree = NULL;
	if (spec->check && !spec->check(&ct->opts)) {
		cmd_opts_done(&ct->opts);
		return CMD_USAGE;
	}
	ct->tree = cmd_load(&ct->opts, ct->opts.args[0]);
	if (!ct->tree) {
		cmd_opts_done(&ct->opts);
		return cmd_load_status();
	}
	if (!cmd_scope(&ct->scope, ct->tree, &ct->opts))
		goto usage;
	if (!cmd_clock(ct->tree, &ct->opts, &ct->clock)) {
		scope_done(&ct->scope);
		goto usage;
	}
	return -1;
usage:
	calltree_free(ct->tree);
	cmd_opts_done(&ct->opts);
	return CMD_USAGE;
}

void
cmd_close(struct cmd_trace *ct)
{
	scope_done(&ct->scope);
	calltree_free(ct->tree);
	cmd_opts_done(&ct->opts);
}

bool
cmd_scope(struct scope *scope, const struct calltree *tree,
          const struct cmd_opts *opts)
{
	size_t i;

	if (!opts->nthreads)
		scope_init_all(scope, tree);
	else
		scope_init_none(scope, tree);
	if (opts->range)
		scope_parse_range(opts->range,
		                  calltree_default_range_clock(tree),
		                  &scope->range);
	if (!opts->nthreads)
		return true;
	for (i = 0; i < opts->nthreads; i++) {
		if (!scope_select(scope, tree, opts->threads[i])) {
			cmd_error(NULL,
			          "%s: no thread named or numbered '%s' "
			          "('tracetui info' lists them)",
			          tree->path, opts->threads[i]);
			scope_done(scope);
			return false;
		}
	}
	return true;
}

bool
cmd_clock(const struct calltree *tree, const struct cmd_opts *opts,
          enum clock_index *clock)
{
	if (opts->clock < 0) {
		*clock = calltree_default_clock(tree);
		return true;
	}
	if (!tree->has_clock[opts->clock]) {
		cmd_error(NULL, "%s: the trace has no %s clock", tree->path,
		          opts->clock == CLOCK_CPU ? "thread-cpu" : "wall");
		return false;
	}
	*clock = (enum clock_index)opts->clock;
	return true;
}

enum { RULES_MAX_BYTES = 1 << 20 };

bool
cmd_triage_rules_given(const struct cmd_opts *opts)
{
	return opts->rules || opts->nthresholds > 0;
}

bool
cmd_triage_rules(struct triage_rules *rules, const struct cmd_opts *opts,
                 const char *cmd)
{
	char problem[300];
	size_t i;

	triage_rules_builtin(rules);
	if (opts->rules) {
		FILE *f = fopen(opts->rules, "rb");
		char *text;
		size_t n;
		bool ok;

		if (!f) {
			cmd_error(cmd, "%s: cannot open: %s", opts->rules,
			          strerror(errno));
			return false;
		}
		text = xmalloc(RULES_MAX_BYTES + 1);
		n = fread(text, 1, RULES_MAX_BYTES + 1, f);
		fclose(f);
		if (n > RULES_MAX_BYTES) {
			cmd_error(cmd, "%s: larger than 1 MB", opts->rules);
			free(text);
			return false;
		}
		text[n] = '\0';
		if (strlen(text) != n) {
			cmd_error(cmd, "%s: offset %zu: a NUL byte",
			          opts->rules, strlen(text));
			free(text);
			return false;
		}
		ok = triage_rules_read(rules, text, problem, sizeof(problem));
		free(text);
		if (!ok) {
			cmd_error(cmd, "%s: %s", opts->rules, problem);
			return false;
		}
	}
	for (i = 0; i < opts->nthresholds; i++) {
		if (!triage_rules_set_threshold(rules, opts->thresholds[i],
		                                problem, sizeof(problem))) {
			cmd_error(cmd, "--threshold: %s", problem);
			return false;
		}
	}
	return true;
}
