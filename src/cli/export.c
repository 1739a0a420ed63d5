/*
 * export: the calls of a trace as JSON for other viewers, written as
 * they are read from the model, never built in memory.
 *
 * speedscope: the evented file format (speedscope.app/file-format-
 * schema.json).  shared.frames holds one frame per method of the trace,
 * indexed like tree->methods; each thread in scope with calls gets one
 * profile per clock ("THREAD (wall)", "THREAD (cpu)" when both are
 * written, else "THREAD"), in microseconds from the thread's first event
 * to its last.  Events come from the thread's calls in pre-order: before
 * a call opens, every frame on the stack that is not its parent closes,
 * so O and C events nest properly; frames left open at the end close
 * there.  Times never go backwards within a profile (a stray one is
 * raised to the previous event's time).
 *
 * chrome: {"traceEvents": [...]} with an "M" thread_name event per thread
 * and an "X" event per call: ts and dur in microseconds on the wall clock
 * (the thread-cpu clock when the trace has no wall clock, or as --clock
 * says), pid 1, tid the thread id, the thread-cpu duration in
 * args.cpu_dur (and tts/tdur) when the trace has that clock.
 *
 * Names go through table_json_string, so any bytes make valid JSON
 * (invalid UTF-8 becomes U+FFFD).
 */
#include "config.h"

#include "cli/cmd.h"
#include "cli/export.h"
#include "query/method-name.h"
#include "util/alloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const export_formats[] = {"speedscope", "chrome", "dot",
                                             "html", NULL};

/* --format is given, and --range or --no-thread only with a format
 * that takes them. */
static bool
export_check(const struct cmd_opts *opts)
{
	if (!opts->format_name) {
		cmd_error("export", "--format speedscope, chrome, dot or html "
		                    "is needed (see 'tracetui export --help')");
		return false;
	}
	if ((opts->range || opts->no_thread) &&
	    (strcmp(opts->format_name, "speedscope") == 0 ||
	     strcmp(opts->format_name, "chrome") == 0)) {
		cmd_error("export", "--range and --no-thread apply to dot and "
		                    "html only");
		return false;
	}
	return true;
}

static const struct cmd_spec export_spec = {
        .name = "export",
        .args = "FILE",
        .summary = "Write the calls of FILE as speedscope or Chrome "
                   "trace-event JSON,\na Graphviz call graph or an HTML "
                   "report.",
        .options = OPT_THREAD | OPT_CLOCK | OPT_FORMAT | OPT_MIN_PCT |
                   OPT_RANGE | OPT_NO_THREAD | OPT_MAPPING | OPT_SAMPLE_TYPE |
                   OPT_TRANSFORM,
        .min_args = 1,
        .max_args = 1,
        .formats = export_formats,
        .check = export_check,
        .epilog = "--format is required:\n"
                  "  speedscope  evented profiles, one per thread and clock "
                  "(both clocks\n"
                  "              unless --clock picks one), for "
                  "speedscope.app\n"
                  "  chrome      complete (\"X\") events on the wall clock "
                  "(or --clock),\n"
                  "              the cpu time in args.cpu_dur, for Perfetto "
                  "and\n"
                  "              chrome://tracing\n"
                  "  dot         the call graph for Graphviz (dot -Tsvg): "
                  "a node per method,\n"
                  "              edges weighted by inclusive time, both "
                  "left out under\n"
                  "              --min-pct of the total\n"
                  "  html        one self-contained page: the profile "
                  "table (click a\n"
                  "              column to sort, a method for its callers "
                  "and callees)\n"
                  "              and the flame graph\n"
                  "--range and --no-thread apply to dot and html only.  "
                  "The output goes\n"
                  "to standard output.\n",
};

/* Each method's name as a JSON string literal, escaped once. */
static char **
json_names(const struct calltree *tree)
{
	char **names = xcalloc(tree->nmethods + 1, sizeof(*names));
	size_t i, len;

	for (i = 0; i < tree->nmethods; i++) {
		char *raw = method_full_name(&tree->methods[i]);
		FILE *f = open_memstream(&names[i], &len);

		if (!f)
			abort();
		table_json_string(f, raw);
		fclose(f);
		free(raw);
	}
	return names;
}

static void
free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

/* Where events of one profile are: the time so far and the open calls. */
struct evented {
	FILE *out;
	const struct calltree *tree;
	enum clock_index clock;
	uint64_t at, end; /* last event time; the profile's endValue */
	bool first;       /* no event written yet */
	uint32_t *stack;
	size_t depth, cap;
};

static void
event(struct evented *e, char type, uint32_t call, uint64_t at)
{
	if (at < e->at)
		at = e->at;
	if (at > e->end)
		at = e->end;
	e->at = at;
	fprintf(e->out,
	        "%s{\"type\":\"%c\",\"frame\":%" PRIu32 ",\"at\":%" PRIu64 "}",
	        e->first ? "\n" : ",\n", type, calltree_method(e->tree, call),
	        at);
	e->first = false;
}

static void
close_top(struct evented *e)
{
	uint32_t call = e->stack[--e->depth];

	event(e, 'C', call, calltree_end(e->tree, call, e->clock));
}

/* Speedscope's word for what the values count. */
static const char *
speedscope_unit(enum trace_unit unit)
{
	switch (unit) {
	case TRACE_UNIT_NS:
		return "nanoseconds";
	case TRACE_UNIT_BYTES:
		return "bytes";
	case TRACE_UNIT_COUNT:
		return "none";
	case TRACE_UNIT_US:
		break;
	}
	return "microseconds";
}

static void
write_profile(struct evented *e, size_t t, const char *suffix)
{
	const struct calltree *tree = e->tree;
	const struct tt_thread *th = &tree->threads[t];
	char *name = suffix ? xasprintf("%s (%s)", th->name, suffix)
	                    : xstrdup(th->name);
	size_t i;

	e->at = th->first[e->clock];
	e->end = th->last[e->clock] > e->at ? th->last[e->clock] : e->at;
	e->first = true;
	e->depth = 0;
	fputs("{\"type\":\"evented\",\"name\":", e->out);
	table_json_string(e->out, name);
	free(name);
	fprintf(e->out,
	        ",\"unit\":\"%s\",\"startValue\":%" PRIu64
	        ",\"endValue\":%" PRIu64 ",\"events\":[",
	        speedscope_unit(tree->header.unit), e->at, e->end);
	for (i = th->first_call; i < (size_t)th->first_call + th->ncalls; i++) {
		while (e->depth > calltree_depth(tree, i))
			close_top(e);
		event(e, 'O', (uint32_t)i, calltree_start(tree, i, e->clock));
		UTIL_GROW(e->stack, e->cap, e->depth + 1);
		e->stack[e->depth++] = (uint32_t)i;
	}
	while (e->depth)
		close_top(e);
	fputs("\n]}", e->out);
}

static void
write_speedscope(FILE *out, const struct calltree *tree,
                 const struct scope *scope, int only_clock)
{
	static const enum clock_index order[] = {CLOCK_WALL, CLOCK_CPU};
	static const char *const suffix[] = {"wall", "cpu"};
	struct evented e = {out, tree, CLOCK_WALL, 0, 0, true, NULL, 0, 0};
	bool both = only_clock < 0 && tree->has_clock[CLOCK_WALL] &&
	            tree->has_clock[CLOCK_CPU];
	bool first = true;
	size_t i, t;

	fputs("{\"$schema\":\"https://www.speedscope.app/"
	      "file-format-schema.json\",\n\"name\":",
	      out);
	table_json_string(out, base_name(tree->path));
	fputs(",\n\"exporter\":\"tracetui\",\n\"shared\":{\"frames\":[", out);
	for (i = 0; i < tree->nmethods; i++) {
		const struct tt_method *m = &tree->methods[i];
		char *name = method_full_name(m);

		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", out);
		table_json_string(out, name);
		free(name);
		if (m->file && *m->file) {
			fputs(",\"file\":", out);
			table_json_string(out, m->file);
		}
		if (m->line >= 0)
			fprintf(out, ",\"line\":%ld", m->line);
		fputc('}', out);
	}
	fputs("\n]},\n\"profiles\":[", out);
	for (t = 0; t < tree->nthreads; t++) {
		if (!scope_has(scope, t) || !tree->threads[t].ncalls)
			continue;
		for (i = 0; i < 2; i++) {
			if (!tree->has_clock[order[i]] ||
			    (only_clock >= 0 && only_clock != (int)order[i]))
				continue;
			fputs(first ? "\n" : ",\n", out);
			first = false;
			e.clock = order[i];
			write_profile(&e, t, both ? suffix[i] : NULL);
		}
	}
	fputs("\n]}\n", out);
	free(e.stack);
}

static void
write_chrome(FILE *out, const struct calltree *tree, const struct scope *scope,
             enum clock_index k)
{
	bool cpu = tree->has_clock[CLOCK_CPU];
	bool thread_time = cpu && k != CLOCK_CPU;
	char **names = json_names(tree);
	size_t t, i;

	fputs("{\"traceEvents\":[\n{\"name\":\"process_name\",\"ph\":\"M\","
	      "\"pid\":1,\"tid\":0,\"args\":{\"name\":",
	      out);
	table_json_string(out, base_name(tree->path));
	fputs("}}", out);
	for (t = 0; t < tree->nthreads; t++) {
		const struct tt_thread *th = &tree->threads[t];

		if (!scope_has(scope, t) || !th->ncalls)
			continue;
		fprintf(out,
		        ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,"
		        "\"tid\":%" PRIu32 ",\"args\":{\"name\":",
		        th->tid);
		table_json_string(out, th->name);
		fputs("}}", out);
		for (i = th->first_call;
		     i < (size_t)th->first_call + th->ncalls; i++) {
			fprintf(out,
			        ",\n{\"name\":%s,\"ph\":\"X\",\"pid\":1,"
			        "\"tid\":%" PRIu32 ",\"ts\":%" PRIu64
			        ",\"dur\":%" PRIu64,
			        names[calltree_method(tree, i)], th->tid,
			        calltree_start(tree, i, k),
			        calltree_duration(tree, i, k));
			if (thread_time)
				fprintf(out,
				        ",\"tts\":%" PRIu64
				        ",\"tdur\":%" PRIu64,
				        calltree_start(tree, i, CLOCK_CPU),
				        calltree_duration(tree, i, CLOCK_CPU));
			if (cpu)
				fprintf(out,
				        ",\"args\":{\"cpu_dur\":%" PRIu64 "}",
				        calltree_duration(tree, i, CLOCK_CPU));
			fputc('}', out);
		}
	}
	fputs("\n],\n\"displayTimeUnit\":\"ms\"}\n", out);
	free_names(names, tree->nmethods);
}

int
cmd_export(int argc, char **argv)
{
	struct cmd_trace ct;
	const struct cmd_opts *o = &ct.opts;
	int status = cmd_open(&ct, &export_spec, argc, argv);

	if (status >= 0)
		return status;
	if (strcmp(o->format_name, "dot") == 0 ||
	    strcmp(o->format_name, "html") == 0) {
		struct export_view v = {ct.tree,    &ct.scope, ct.clock,
		                        o->min_pct, o->range,  !o->no_thread};

		if (o->format_name[0] == 'd')
			export_dot(stdout, &v);
		else
			export_html(stdout, &v);
	} else if (strcmp(o->format_name, "speedscope") == 0) {
		write_speedscope(stdout, ct.tree, &ct.scope, o->clock);
	} else {
		enum clock_index k = ct.clock;

		if (o->clock < 0)
			k = ct.tree->has_clock[CLOCK_WALL] ? CLOCK_WALL
			                                   : CLOCK_CPU;
		write_chrome(stdout, ct.tree, &ct.scope, k);
	}
	cmd_close(&ct);
	return CMD_OK;
}
