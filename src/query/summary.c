/*
 * summary: one function per part, each appending lines.
 */
#include "config.h"

#include "query/summary.h"

#include "query/quantity.h"
#include "text/width.h"
#include "util/alloc.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *
format_name(const struct calltree *tree)
{
	if (tree->header.format == TRACE_FORMAT_HPROF)
		return "hprof text CPU profile";
	if (tree->header.format == TRACE_FORMAT_V2)
		return "V2";
	if (tree->header.format == TRACE_FORMAT_V2_STREAM)
		return "V2 streaming";
	if (tree->header.format == TRACE_FORMAT_ART_LOW_OVERHEAD)
		return "ART low-overhead dump (Android 16, long-running "
		       "methods)";
	return tree->header.format == TRACE_FORMAT_V1_STREAM ? "V1 streaming"
	                                                     : "V1";
}

const char *
summary_format_name(const struct calltree *tree)
{
	if (tree->header.format == TRACE_FORMAT_SIMPLEPERF)
		return "simpleperf";
	if (tree->header.format == TRACE_FORMAT_PPROF)
		return "pprof";
	return format_name(tree);
}

static const char *
clock_name(enum trace_clock clock)
{
	switch (clock) {
	case TRACE_CLOCK_CPU:
		return "thread-cpu";
	case TRACE_CLOCK_WALL:
		return "wall";
	case TRACE_CLOCK_DUAL:
		return "dual";
	}
	return "?";
}

static void line(struct summary *s, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

static void
line(struct summary *s, const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	UTIL_GROW(s->lines, s->cap, s->count + 1);
	/* Lines quote the file's name and bytes: the one door, whole. */
	s->lines[s->count++] = text_escape(text);
	free(text);
}

static void
anomaly(struct summary *s, const char *what, unsigned long long n)
{
	if (n)
		line(s, "  %-28s %llu", what, n);
}

static void
anomalies(struct summary *s, const struct tt_anomalies *a)
{
	bool any = a->orphan_exits || a->mismatched_exits || a->lost_exits ||
	           a->open_at_end || a->unknown_methods || a->unknown_threads ||
	           a->negative_steps[0] || a->negative_steps[1] ||
	           a->wraps[0] || a->wraps[1] || a->action3 || a->unwinds ||
	           a->data_file_overflow;

	line(s, "anomalies:%s", any ? "" : " none");
	anomaly(s, "orphan exits", a->orphan_exits);
	anomaly(s, "mismatched exits", a->mismatched_exits);
	anomaly(s, "frames closed by a mismatch", a->lost_exits);
	anomaly(s, "frames open at the end", a->open_at_end);
	anomaly(s, "unknown method ids", a->unknown_methods);
	anomaly(s, "unknown thread ids", a->unknown_threads);
	anomaly(s, "negative cpu steps clamped", a->negative_steps[CLOCK_CPU]);
	anomaly(s, "negative wall steps clamped",
	        a->negative_steps[CLOCK_WALL]);
	anomaly(s, "cpu clock 32-bit wraps", a->wraps[CLOCK_CPU]);
	anomaly(s, "wall clock 32-bit wraps", a->wraps[CLOCK_WALL]);
	anomaly(s, "action-3 records", a->action3);
	anomaly(s, "exception unwinds", a->unwinds);
	if (a->data_file_overflow)
		line(s, "  %-28s %s", "data-file-overflow",
		     "true (the trace ends early)");
}

static void trace_header(struct summary *s, const struct calltree *tree);
static void hprof_header(struct summary *s, const struct calltree *tree);
static void pprof_header(struct summary *s, const struct calltree *tree);
static void simpleperf_header(struct summary *s, const struct calltree *tree);
static void simpleperf_lists(struct summary *s, const struct calltree *tree);
static void properties_and_threads(struct summary *s,
                                   const struct calltree *tree);

void
summary_build(struct summary *s, const struct calltree *tree)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	line(s, "file:        %s", tree->path);
	if (tree->header.format == TRACE_FORMAT_HPROF)
		hprof_header(s, tree);
	else if (tree->header.format == TRACE_FORMAT_PPROF)
		pprof_header(s, tree);
	else if (tree->header.format == TRACE_FORMAT_SIMPLEPERF)
		simpleperf_header(s, tree);
	else
		trace_header(s, tree);
	line(s, "methods:     %zu", tree->nmethods);
	line(s, "complete:    %s",
	     tree->header.no_data      ? "no (the key only: no data part)"
	     : tree->header.incomplete ? "no (cut off before the summary)"
	                               : "yes");
	if (tree->header.format == TRACE_FORMAT_SIMPLEPERF)
		simpleperf_lists(s, tree);
	else
		properties_and_threads(s, tree);
	anomalies(s, &tree->anomalies);
	if (tree->nwarnings) {
		line(s, "warnings:");
		for (i = 0; i < tree->nwarnings; i++) {
			line(s, "  offset %llu: %s",
			     (unsigned long long)tree->warnings[i].offset,
			     tree->warnings[i].message);
		}
	}
}

/* What the file is, for a trace with records and timestamps. */
static void
trace_header(struct summary *s, const struct calltree *tree)
{
	if (tree->header.format == TRACE_FORMAT_V2 ||
	    tree->header.format == TRACE_FORMAT_V2_STREAM)
		line(s,
		     "format:      %s, version %u, LEB128 records, packets "
		     "from offset %u",
		     format_name(tree), tree->header.version,
		     tree->header.data_offset);
	else if (tree->header.format == TRACE_FORMAT_ART_LOW_OVERHEAD)
		line(s, "format:      %s, LEB128 entry blocks, no header",
		     format_name(tree));
	else if (tree->header.no_data)
		line(s,
		     "format:      %s, version %u (the key's); the data part "
		     "is missing",
		     format_name(tree), tree->header.version);
	else
		line(s,
		     "format:      %s, version %u, %u-byte records, data "
		     "at offset %u",
		     format_name(tree), tree->header.version,
		     tree->header.record_size, tree->header.data_offset);
	line(s, "clock:       %s", clock_name(tree->header.clock));
	if (tree->sampled) {
		char *every = summary_sample_interval(tree);

		line(s,
		     "recording:   sampled %s (call counts are stack "
		     "changes)",
		     every);
		free(every);
	} else {
		line(s, "recording:   instrumented");
	}
	if (!tree->header.no_data)
		line(s, "start time:  %llu us",
		     (unsigned long long)tree->header.start_time);
	line(s, "records:     %llu", (unsigned long long)tree->records);
	line(s, "calls:       %llu",
	     (unsigned long long)calltree_call_count(tree));
}

/* What the file is, for an hprof profile: stacks with sample counts (or
 * cpu times), no timestamps and no order. */
static void
hprof_header(struct summary *s, const struct calltree *tree)
{
	const char *version = calltree_property(tree, "hprof");
	const char *profile = calltree_property(tree, "hprof-profile");
	const char *unit = calltree_property(tree, "hprof-unit");
	const char *v = version ? version : "hprof";
	const char *p = profile ? profile : "cpu samples";
	const char *u = unit ? unit : "counts samples, no time";

	line(s, "format:      hprof text CPU profile (%s), %s", v, p);
	line(s,
	     "times:       from the profile's counts (%s); no timestamps, "
	     "so calls are laid end to end in an order of their own",
	     u);
	line(s, "calls:       %zu (the frames of the profile's stacks)",
	     tree->calls.count);
}

/* What the file is, for a pprof profile: one sample type of several. */
static void
pprof_header(struct summary *s, const struct calltree *tree)
{
	const char *type = calltree_property(tree, "pprof-sample-type");
	const char *all = calltree_property(tree, "pprof-sample-types");
	const char *t = type ? type : "";
	const char *a = all ? all : "";

	line(s, "format:      pprof profile.proto, sample type %s (of: %s)", t,
	     a);
	line(s, "values:      the sample type's, as the wall clock's times; no "
	        "timestamps, so samples are laid end to end in an order of "
	        "their own");
	line(s, "calls:       %zu (the frames of the profile's samples)",
	     tree->calls.count);
}

/* Property key of tree, or `none`: line() escapes it. */
static const char *
prop(const struct calltree *tree, const char *key, const char *none)
{
	const char *v = calltree_property(tree, key);

	return v ? v : none;
}

/* What the file is, for a simpleperf recording: its app, event types,
 * samples and what the numbers mean. */
static void
simpleperf_header(struct summary *s, const struct calltree *tree)
{
	const char *period = calltree_property(tree, "simpleperf-period");
	const char *switches =
	        calltree_property(tree, "simpleperf-context-switches");
	const char *stopped = calltree_property(tree, "simpleperf-stopped");
	const char *offcpu = prop(tree, "simpleperf-trace-offcpu", "?");

	line(s,
	     "format:      simpleperf report-sample protobuf, version %u "
	     "(Android Studio Callstack Sample)",
	     tree->header.version);
	line(s, "app:         %s (%s), Android SDK %s, build type %s",
	     prop(tree, "simpleperf-app", "(not named)"),
	     prop(tree, "simpleperf-app-type", "?"),
	     prop(tree, "simpleperf-android-sdk", "?"),
	     prop(tree, "simpleperf-build-type", "?"));
	line(s, "event types: %s; loaded: %s",
	     prop(tree, "simpleperf-event-types", ""),
	     prop(tree, "simpleperf-event-type", ""));
	if (period) {
		unsigned long long ns = strtoull(period, NULL, 10);

		line(s,
		     "sampling:    period about %llu.%03llu ms (the median "
		     "sample's); off-cpu traced: %s",
		     ns / 1000000, ns / 1000 % 1000, offcpu);
	} else {
		line(s, "sampling:    period unknown; off-cpu traced: %s",
		     offcpu);
	}
	line(s, "samples:     %s in the file, %s loaded; lost: %s%s",
	     prop(tree, "simpleperf-samples", "0"),
	     prop(tree, "simpleperf-chosen-samples", "0"),
	     prop(tree, "simpleperf-lost", "not recorded"),
	     calltree_property(tree, "simpleperf-lost") ? " samples" : "");
	line(s,
	     "values:      samples (the cpu clock, each the sampling period) "
	     "and their time (the wall clock: %s): estimates, never call "
	     "counts",
	     prop(tree, "simpleperf-time", ""));
	if (switches)
		line(s, "switches:    %s context switch records", switches);
	line(s, "calls:       %zu (runs of samples sharing a frame)",
	     tree->calls.count);
	if (stopped)
		line(s, "read:        up to offset %s, where the records stop",
		     stopped);
}

/* Event types beyond this many get no column each in info's thread
 * table (it would be threads times types long): only the loaded one. */
enum { TYPE_COLUMNS = 16 };

/* A line of text escaped already, its parts each through the door (so
 * that their widths are known): taken as it is. */
static void
put_escaped(struct summary *s, char *text)
{
	UTIL_GROW(s->lines, s->cap, s->count + 1);
	s->lines[s->count++] = text;
}

/* Escaped text right-aligned in `width` terminal columns, after a
 * space, appended at *at of *buf (room grown as needed). */
static void
cell(char **buf, size_t *cap, size_t *at, const char *escaped, size_t width)
{
	size_t w = text_width(escaped), len = strlen(escaped);
	size_t pad = w < width ? width - w : 0;

	UTIL_GROW(*buf, *cap, *at + 1 + pad + len + 1);
	(*buf)[(*at)++] = ' ';
	memset(*buf + *at, ' ', pad);
	*at += pad;
	memcpy(*buf + *at, escaped, len + 1);
	*at += len;
}

/* The event types as info's thread table has them: their count (from
 * "I of N", I from 1, or "all of N"), the loaded one's index from 0
 * (SIZE_MAX for all), and their names escaped (NULL where the list of
 * names cannot say: a name holding ", "). */
static char **
event_types(const struct calltree *tree, size_t *ntypes, size_t *loaded)
{
	const char *index =
	        calltree_property(tree, "simpleperf-event-type-index");
	const char *list = calltree_property(tree, "simpleperf-event-types");
	unsigned long long k = 0, n = 0;
	char **names;
	size_t i = 0;

	if (index && sscanf(index, "all of %llu", &n) == 1)
		k = 0;
	else if (!index || sscanf(index, "%llu of %llu", &k, &n) != 2)
		n = k = 0;
	if (n > SIZE_MAX / sizeof(*names) - 1)
		n = k = 0;
	*ntypes = (size_t)n;
	*loaded = k >= 1 && k <= n ? (size_t)k - 1 : SIZE_MAX;
	names = xcalloc(*ntypes + 1, sizeof(*names));
	while (list && *list && i < *ntypes) {
		const char *comma = strstr(list, ", ");
		size_t len = comma ? (size_t)(comma - list) : strlen(list);
		char *t = xstrndup(list, len);

		names[i++] = text_escape(t);
		free(t);
		list += len;
		if (comma)
			list += 2;
	}
	if (i < *ntypes || (list && *list))
		for (i = 0; i < *ntypes; i++) {
			free(names[i]);
			names[i] = NULL;
		}
	return names;
}

/* A simpleperf recording's threads with their samples per event type
 * (each thread's property "tid\tpid\tall\ttype:n ...\tname"): one column
 * per type, or, with more than TYPE_COLUMNS, the loaded type's only.
 * Each row is written in one pass, as long as it is. */
static void
simpleperf_threads(struct summary *s, const struct calltree *tree)
{
	size_t ntypes, loaded, i, j, cap = 0, at = 0;
	char **names = event_types(tree, &ntypes, &loaded);
	bool every = ntypes <= TYPE_COLUMNS;
	char *row = NULL, num[32];

	line(s, "threads:");
	if (!every)
		line(s,
		     "  (%zu event types: the samples of the loaded one, "
		     "--sample-type picks another)",
		     ntypes);
	cell(&row, &cap, &at, "", 0);
	cell(&row, &cap, &at, "tid", 8);
	cell(&row, &cap, &at, "pid", 8);
	cell(&row, &cap, &at, "samples", 8);
	for (j = 0; j < ntypes; j++) {
		if (!every && j != loaded)
			continue;
		snprintf(num, sizeof(num), "#%zu", j);
		cell(&row, &cap, &at, names[j] ? names[j] : num, 12);
	}
	cell(&row, &cap, &at, " name", 0);
	put_escaped(s, xstrdup(row));
	for (i = 0; i < tree->nproperties; i++) {
		const char *v = tree->properties[i].value, *f[4], *counts;
		char *part, *end;
		size_t k;

		if (strcmp(tree->properties[i].key, "simpleperf-thread") != 0)
			continue;
		/* tid, pid, all, the counts; the rest is the name */
		for (k = 0; k < 4; k++) {
			f[k] = v;
			v = strchr(v, '\t');
			if (!v)
				break;
			v++;
		}
		if (k < 4)
			continue; /* not of this reader's making */
		at = 0;
		cell(&row, &cap, &at, "", 0);
		for (k = 0; k < 3; k++) {
			part = xstrndup(f[k], strcspn(f[k], "\t"));
			cell(&row, &cap, &at, part, 8);
			free(part);
		}
		counts = f[3];
		for (j = 0; j < ntypes; j++) {
			unsigned long long type = ULLONG_MAX, n = 0;

			/* the counts of the types with samples, in order */
			while (*counts >= '0' && *counts <= '9') {
				type = strtoull(counts, &end, 10);
				if (*end == ':')
					n = strtoull(end + 1, &end, 10);
				if (type >= j)
					break;
				counts = end + (*end == ' ');
			}
			if (!every && j != loaded)
				continue;
			snprintf(num, sizeof(num), "%llu", type == j ? n : 0);
			cell(&row, &cap, &at, num, 12);
		}
		part = text_escape(v);
		cell(&row, &cap, &at, "", 0);
		cell(&row, &cap, &at, part, 0);
		free(part);
		put_escaped(s, xstrdup(row));
	}
	free(row);
	for (j = 0; j < ntypes; j++)
		free(names[j]);
	free(names);
}

/* A simpleperf recording's other properties, its threads with their
 * samples per event type, and its files. */
static void
simpleperf_lists(struct summary *s, const struct calltree *tree)
{
	size_t i;

	line(s, "properties:");
	for (i = 0; i < tree->nproperties; i++) {
		const char *key = tree->properties[i].key;

		if (strcmp(key, "simpleperf-thread") == 0 ||
		    strcmp(key, "simpleperf-file") == 0 ||
		    strcmp(key, "simpleperf-method-kind") == 0)
			continue;
		line(s, "  %s=%s", key, tree->properties[i].value);
	}
	simpleperf_threads(s, tree);
	line(s, "files:");
	for (i = 0; i < tree->nproperties; i++) {
		char *copy, *f[4] = {0}, *rest;
		size_t k;

		if (strcmp(tree->properties[i].key, "simpleperf-file") != 0)
			continue;
		/* id, kind, path, symbols */
		copy = xstrdup(tree->properties[i].value);
		rest = copy;
		for (k = 0; k < 4 && rest; k++) {
			f[k] = rest;
			rest = k < 3 ? strchr(rest, '\t') : NULL;
			if (rest)
				*rest++ = '\0';
		}
		/* A path may hold a tab: the count is after the last. */
		if (f[3] && strrchr(f[3], '\t')) {
			char *t = strrchr(f[3], '\t');

			*t = '\0';
			f[3] = t + 1;
		}
		line(s, "  %6s %-6s %s (%s symbols)", f[0] ? f[0] : "",
		     f[1] ? f[1] : "", f[2] ? f[2] : "", f[3] ? f[3] : "?");
		free(copy);
	}
}

/* The key's properties and the threads with their spans. */
static void
properties_and_threads(struct summary *s, const struct calltree *tree)
{
	size_t i;

	line(s, "properties:");
	for (i = 0; i < tree->nproperties; i++) {
		line(s, "  %s=%s", tree->properties[i].key,
		     tree->properties[i].value);
	}
	/* A profile's sample counts or sizes are no microseconds. */
	bool us = tree->header.unit == TRACE_UNIT_US;

	line(s, "threads:");
	line(s, "  %10s %10s %8s %14s %14s  %s", "tid", "events", "calls",
	     us ? "wall us" : quantity_label(tree->header.unit),
	     us ? "cpu us" : "cpu", "name");
	for (i = 0; i < tree->nthreads; i++) {
		const struct tt_thread *t = &tree->threads[i];
		char wall[32] = "-", cpu[32] = "-";

		if (tree->has_clock[CLOCK_WALL])
			snprintf(wall, sizeof(wall), "%llu",
			         (unsigned long long)calltree_thread_span(
			                 tree, i, CLOCK_WALL));
		if (tree->has_clock[CLOCK_CPU])
			snprintf(cpu, sizeof(cpu), "%llu",
			         (unsigned long long)calltree_thread_span(
			                 tree, i, CLOCK_CPU));
		line(s, "  %10u %10llu %8llu %14s %14s  %s%s", t->tid,
		     (unsigned long long)t->nevents,
		     (unsigned long long)calltree_thread_calls(tree, i), wall,
		     cpu, t->name, t->defined ? "" : " (not in the key)");
	}
}

void
summary_done(struct summary *s)
{
	size_t i;

	for (i = 0; i < s->count; i++)
		free(s->lines[i]);
	free(s->lines);
	memset(s, 0, sizeof(*s));
}

char *
summary_sample_interval(const struct calltree *tree)
{
	uint64_t us = tree->sample_interval;

	if (!us)
		return xstrdup("at an unknown interval");
	return xasprintf("about every %llu.%03llu ms",
	                 (unsigned long long)(us / 1000),
	                 (unsigned long long)(us % 1000));
}

char *
summary_sampled_note(const struct calltree *tree)
{
	char *every, *note;

	/* A profile's values are its samples' (no time between them). */
	if (tree->header.format == TRACE_FORMAT_PPROF)
		return xstrdup("sampled: values are the samples' sums, never "
		               "call counts");
	if (tree->header.unit == TRACE_UNIT_COUNT)
		return xstrdup("sampled: values are sample counts, never "
		               "call counts");
	if (!tree->sampled)
		return NULL;
	every = summary_sample_interval(tree);
	if (tree->header.format == TRACE_FORMAT_SIMPLEPERF)
		note = xasprintf("sampled %s: numbers are samples and times "
		                 "estimated from them, never call counts",
		                 every);
	else
		note = xasprintf("sampled %s: call counts are estimates from "
		                 "the samples (stack changes), times are "
		                 "estimates to within the interval",
		                 every);
	free(every);
	return note;
}
