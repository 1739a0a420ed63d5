/*
 * cmd: getopt_long over one table of every option; a command's spec says
 * which of them it accepts, and its help lists exactly those.
 */
#include "config.h"

#include "cli/cmd.h"

#include "model/mapping.h"
#include "model/open.h"
#include "util/alloc.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	LONG_MIN_PCT = 256,
	LONG_NO_THREAD,
	LONG_ASCII,
	LONG_COLOR,
	LONG_RANGE,
	LONG_FAIL_IF,
	LONG_NORMALIZE,
	LONG_MAPPING,
	LONG_BASE,
	LONG_SAMPLE_TYPE
};

/* The --mapping of the last cmd_parse, applied by cmd_load. */
static struct mapping *loaded_mapping;
/* The --sample-type of the last cmd_parse, or as set since. */
static const char *sample_type;

struct option_help {
	unsigned bit;
	const char *flags;
	const char *text;
};

static const struct option_help option_help[] = {
        {OPT_THREAD, "-t, --thread SEL",
         "only threads named SEL, with id SEL, or all (repeatable)"},
        {OPT_CLOCK, "-c, --clock CLOCK",
         "wall or cpu (default: cpu if present)"},
        {OPT_SORT, "-s, --sort COLUMN", NULL},
        {OPT_TOP, "-n, --top N", "print only the first N rows"},
        {OPT_FORMAT, "-f, --format FMT", "text, tsv, csv or json"},
        {OPT_MIN_PCT, "    --min-pct P",
         "hide paths under P% of the total (default 1)"},
        {OPT_NO_THREAD, "    --no-thread",
         "do not start each stack with its thread's name"},
        {OPT_ASCII, "    --ascii", "draw with ASCII characters only"},
        {OPT_COLOR, "    --color WHEN", "auto, always or never"},
        {OPT_RANGE, "    --range A..B",
         "only the time from A to B after the trace start, on the wall "
         "clock (cpu without one); units us, ms (default) or s"},
        {OPT_NORMALIZE, "    --normalize",
         "compare shares of each trace's total, not times"},
        {OPT_FAIL_IF, "    --fail-if EXPR",
         "exit 1 when EXPR holds (repeatable; see below)"},
        {OPT_MAPPING, "    --mapping FILE",
         "rename obfuscated classes and methods with an R8/ProGuard "
         "mapping.txt"},
        {OPT_BASE, "    --base BASE",
         "compare with the trace BASE: deltas and slower/faster frames"},
        {OPT_SAMPLE_TYPE, "    --sample-type TYPE",
         "pprof: the sample type, by name or index from 0"},
};

void
cmd_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "tracetui: %s%s", cmd ? cmd : "", cmd ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void
print_help(const struct cmd_spec *spec)
{
	size_t i;

	if (strcmp(spec->name, "viewer") == 0)
		printf("Usage: tracetui [OPTIONS] %s\n", spec->args);
	else
		printf("Usage: tracetui %s [OPTIONS] %s\n", spec->name,
		       spec->args);
	printf("%s\n\nOptions:\n", spec->summary);
	for (i = 0; i < sizeof(option_help) / sizeof(option_help[0]); i++) {
		const struct option_help *h = &option_help[i];

		if (!(spec->options & h->bit))
			continue;
		if (h->bit == OPT_SORT)
			printf("  %-22s sort by one of: %s\n", h->flags,
			       spec->sort_keys);
		else if (h->bit == OPT_FORMAT && spec->formats) {
			size_t f;

			printf("  %-22s one of:", h->flags);
			for (f = 0; spec->formats[f]; f++)
				printf("%s %s", f ? "," : "", spec->formats[f]);
			putchar('\n');
		} else
			printf("  %-22s %s\n", h->flags, h->text);
	}
	printf("  %-22s %s\n  %-22s %s\n", "-h, --help", "show this help",
	       "-V, --version", "show the version");
	if (spec->epilog)
		printf("\n%s", spec->epilog);
	printf("\nExit status: 0 success, %s2 usage error, 3 the file "
	       "cannot be read.\n",
	       spec->options & OPT_FAIL_IF ? "1 a --fail-if condition holds,\n"
	                                   : "");
}

static int usage_error(const struct cmd_spec *spec, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

static int
usage_error(const struct cmd_spec *spec, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "tracetui: %s: ", spec->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'tracetui %s --help')\n", spec->name);
	return CMD_USAGE;
}

static bool
parse_number(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return end != s && !*end && !errno;
}

int
cmd_parse(const struct cmd_spec *spec, int argc, char **argv,
          struct cmd_opts *opts)
{
	static const struct option longopts[] = {
	        {"thread", required_argument, NULL, 't'},
	        {"clock", required_argument, NULL, 'c'},
	        {"sort", required_argument, NULL, 's'},
	        {"top", required_argument, NULL, 'n'},
	        {"format", required_argument, NULL, 'f'},
	        {"min-pct", required_argument, NULL, LONG_MIN_PCT},
	        {"no-thread", no_argument, NULL, LONG_NO_THREAD},
	        {"ascii", no_argument, NULL, LONG_ASCII},
	        {"color", required_argument, NULL, LONG_COLOR},
	        {"range", required_argument, NULL, LONG_RANGE},
	        {"fail-if", required_argument, NULL, LONG_FAIL_IF},
	        {"normalize", no_argument, NULL, LONG_NORMALIZE},
	        {"mapping", required_argument, NULL, LONG_MAPPING},
	        {"base", required_argument, NULL, LONG_BASE},
	        {"sample-type", required_argument, NULL, LONG_SAMPLE_TYPE},
	        {"help", no_argument, NULL, 'h'},
	        {"version", no_argument, NULL, 'V'},
	        {NULL, 0, NULL, 0},
	};
	static const struct {
		int opt;
		unsigned bit;
	} needs[] = {
	        {'t', OPT_THREAD},
	        {'c', OPT_CLOCK},
	        {'s', OPT_SORT},
	        {'n', OPT_TOP},
	        {'f', OPT_FORMAT},
	        {LONG_MIN_PCT, OPT_MIN_PCT},
	        {LONG_NO_THREAD, OPT_NO_THREAD},
	        {LONG_ASCII, OPT_ASCII},
	        {LONG_COLOR, OPT_COLOR},
	        {LONG_RANGE, OPT_RANGE},
	        {LONG_FAIL_IF, OPT_FAIL_IF},
	        {LONG_NORMALIZE, OPT_NORMALIZE},
	        {LONG_MAPPING, OPT_MAPPING},
	        {LONG_BASE, OPT_BASE},
	        {LONG_SAMPLE_TYPE, OPT_SAMPLE_TYPE},
	};
	size_t cap = 0, fail_cap = 0, i;
	int li; /* index of the long option just read, or -1 */
	int c;

	memset(opts, 0, sizeof(*opts));
	opts->clock = -1;
	opts->top = -1;
	opts->min_pct = 1.0;
	opterr = 0;
	optind = 1;
	li = -1;
	while ((c = getopt_long(argc, argv, "+:t:c:s:n:f:hV", longopts, &li)) !=
	       -1) {
		double v;

		for (i = 0; i < sizeof(needs) / sizeof(needs[0]); i++) {
			if (needs[i].opt != c || (spec->options & needs[i].bit))
				continue;
			if (li >= 0)
				return usage_error(spec,
				                   "option '--%s' does not "
				                   "apply",
				                   longopts[li].name);
			return usage_error(spec, "option '-%c' does not apply",
			                   c);
		}
		li = -1;
		switch (c) {
		case 't':
			UTIL_GROW(opts->threads, cap, opts->nthreads + 1);
			opts->threads[opts->nthreads++] = optarg;
			break;
		case 'c':
			if (strcmp(optarg, "cpu") == 0 ||
			    strcmp(optarg, "thread-cpu") == 0)
				opts->clock = CLOCK_CPU;
			else if (strcmp(optarg, "wall") == 0)
				opts->clock = CLOCK_WALL;
			else
				return usage_error(spec,
				                   "unknown clock '%s' (wall "
				                   "or cpu)",
				                   optarg);
			break;
		case 's':
			opts->sort = optarg;
			break;
		case 'n':
			if (!parse_number(optarg, &v) || v < 0 || v != (long)v)
				return usage_error(spec,
				                   "--top needs a count, not "
				                   "'%s'",
				                   optarg);
			opts->top = (long)v;
			break;
		case 'f':
			opts->format_name = optarg;
			if (spec->formats) {
				for (i = 0; spec->formats[i]; i++)
					if (strcmp(optarg, spec->formats[i]) ==
					    0)
						break;
				if (!spec->formats[i])
					return usage_error(spec,
					                   "unknown format "
					                   "'%s'",
					                   optarg);
				break;
			}
			if (table_format_parse(optarg) < 0)
				return usage_error(spec,
				                   "unknown format '%s' (text, "
				                   "tsv, csv or json)",
				                   optarg);
			opts->format =
			        (enum table_format)table_format_parse(optarg);
			break;
		case LONG_MIN_PCT:
			if (!parse_number(optarg, &v) || v < 0 || v > 100)
				return usage_error(spec,
				                   "--min-pct needs a "
				                   "percentage, not '%s'",
				                   optarg);
			opts->min_pct = v;
			break;
		case LONG_NO_THREAD:
			opts->no_thread = true;
			break;
		case LONG_ASCII:
			opts->ascii = true;
			break;
		case LONG_COLOR:
			if (strcmp(optarg, "auto") == 0)
				opts->color = 0;
			else if (strcmp(optarg, "always") == 0)
				opts->color = 1;
			else if (strcmp(optarg, "never") == 0)
				opts->color = 2;
			else
				return usage_error(spec,
				                   "--color takes auto, always "
				                   "or never");
			break;
		case LONG_RANGE: {
			struct time_range probe;

			if (!scope_parse_range(optarg, CLOCK_WALL, &probe))
				return usage_error(spec,
				                   "--range needs START..END "
				                   "with START < END, e.g. "
				                   "1.5s..2s, not '%s'",
				                   optarg);
			opts->range = optarg;
			break;
		}
		case LONG_FAIL_IF:
			UTIL_GROW(opts->fail_if, fail_cap, opts->nfail_if + 1);
			opts->fail_if[opts->nfail_if++] = optarg;
			break;
		case LONG_NORMALIZE:
			opts->normalize = true;
			break;
		case LONG_MAPPING:
			opts->mapping = optarg;
			break;
		case LONG_BASE:
			opts->base = optarg;
			break;
		case LONG_SAMPLE_TYPE:
			opts->sample_type = optarg;
			break;
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
	opts->args = argv + optind;
	opts->nargs = argc - optind;
	if (opts->nargs < spec->min_args)
		return usage_error(spec, "expected %s", spec->args);
	if (opts->nargs > spec->max_args)
		return usage_error(spec, "unexpected argument '%s'",
		                   opts->args[spec->max_args]);
	sample_type = opts->sample_type;
	mapping_free(loaded_mapping);
	loaded_mapping = NULL;
	if (opts->mapping) {
		char *error = NULL;

		loaded_mapping = mapping_load(opts->mapping, &error);
		if (!loaded_mapping) {
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
	mapping_free(loaded_mapping);
	loaded_mapping = NULL;
	free(opts->fail_if);
	opts->fail_if = NULL;
}

enum { MAX_WARNINGS_SHOWN = 10 };

/* A percentage on the terminal's stderr while a large file loads. */
static void
show_progress(void *arg, uint64_t done, uint64_t total)
{
	const char *path = arg;

	if (total)
		fprintf(stderr, "\rtracetui: reading %s: %3d%%", path,
		        (int)(done * 100 / total));
}

struct calltree *
cmd_load(const char *path)
{
	struct trace_error err = {0};
	bool tty = isatty(STDERR_FILENO);
	struct calltree_load_options o = {
	        sample_type, tty ? show_progress : NULL, (void *)path};
	struct calltree *tree = calltree_load_with(path, &o, &err);
	size_t i;

	if (tty)
		fputs("\r\033[K", stderr);
	if (!tree) {
		fprintf(stderr, "tracetui: %s: offset %llu: %s\n",
		        err.path ? err.path : path,
		        (unsigned long long)err.offset, err.message);
		trace_error_clear(&err);
		return NULL;
	}
	for (i = 0; i < tree->nwarnings && i < MAX_WARNINGS_SHOWN; i++)
		fprintf(stderr, "tracetui: %s: offset %llu: warning: %s\n",
		        path, (unsigned long long)tree->warnings[i].offset,
		        tree->warnings[i].message);
	if (tree->nwarnings > MAX_WARNINGS_SHOWN)
		fprintf(stderr,
		        "tracetui: %s: %zu more warnings ('tracetui info' "
		        "lists them all)\n",
		        path, tree->nwarnings - MAX_WARNINGS_SHOWN);
	if (sample_type && tree->header.format != TRACE_FORMAT_PPROF)
		fprintf(stderr,
		        "tracetui: %s: warning: --sample-type applies to "
		        "pprof profiles only; ignored\n",
		        path);
	if (loaded_mapping)
		mapping_apply(loaded_mapping, tree);
	return tree;
}

const struct mapping *
cmd_mapping(void)
{
	return loaded_mapping;
}

void
cmd_set_sample_type(const char *type)
{
	sample_type = type;
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
