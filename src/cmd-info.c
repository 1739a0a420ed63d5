/*
 * cmd-info: what the file is (format, version, clock, sampled or not),
 * its key properties, its threads, and every anomaly and warning.
 */
#include "config.h"

#include "cmd.h"
#include "text-width.h"

#include <stdlib.h>

static const struct cmd_spec info_spec = {
	.name = "info",
	.args = "FILE",
	.summary = "Print the format, properties, threads and anomalies of a "
		   "trace.",
	.options = 0,
	.min_args = 1,
	.max_args = 1,
};

static const char *
format_name(const struct calltree *tree)
{
	return tree->header.format == TRACE_FORMAT_V1_STREAM
		       ? "V1 streaming"
		       : "V1";
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

static void
print_escaped(const char *label, const char *s)
{
	char *e = text_escape(s);

	printf("%s%s\n", label, e);
	free(e);
}

static void
anomaly(const char *what, unsigned long long n)
{
	if (n)
		printf("  %-28s %llu\n", what, n);
}

static void
print_anomalies(const struct tt_anomalies *a)
{
	printf("anomalies:\n");
	anomaly("orphan exits", a->orphan_exits);
	anomaly("mismatched exits", a->mismatched_exits);
	anomaly("frames closed by a mismatch", a->lost_exits);
	anomaly("frames open at the end", a->open_at_end);
	anomaly("unknown method ids", a->unknown_methods);
	anomaly("unknown thread ids", a->unknown_threads);
	anomaly("negative cpu steps clamped", a->negative_steps[CLOCK_CPU]);
	anomaly("negative wall steps clamped", a->negative_steps[CLOCK_WALL]);
	anomaly("cpu clock 32-bit wraps", a->wraps[CLOCK_CPU]);
	anomaly("wall clock 32-bit wraps", a->wraps[CLOCK_WALL]);
	anomaly("action-3 records", a->action3);
	anomaly("exception unwinds", a->unwinds);
	if (a->data_file_overflow)
		printf("  %-28s %s\n", "data-file-overflow",
		       "true (the trace ends early)");
}

int
cmd_info(int argc, char **argv)
{
	struct cmd_opts opts;
	struct calltree *tree;
	size_t i;
	int status = cmd_parse(&info_spec, argc, argv, &opts);

	if (status >= 0)
		return status;
	tree = cmd_load(opts.args[0]);
	cmd_opts_done(&opts);
	if (!tree)
		return CMD_INPUT;
	print_escaped("file:        ", tree->path);
	printf("format:      %s, version %u, %u-byte records, data at "
	       "offset %u\n",
	       format_name(tree), tree->header.version,
	       tree->header.record_size, tree->header.data_offset);
	printf("clock:       %s\n", clock_name(tree->header.clock));
	printf("recording:   %s\n",
	       tree->sampled ? "sampled (call counts are stack changes)"
			     : "instrumented");
	printf("start time:  %llu us\n",
	       (unsigned long long)tree->header.start_time);
	printf("records:     %llu\n", (unsigned long long)tree->records);
	printf("calls:       %zu\n", tree->calls.count);
	printf("methods:     %zu\n", tree->nmethods);
	printf("complete:    %s\n",
	       tree->header.incomplete ? "no (cut off before the summary)"
				       : "yes");
	printf("properties:\n");
	for (i = 0; i < tree->nproperties; i++) {
		char *k = text_escape(tree->properties[i].key);
		char *v = text_escape(tree->properties[i].value);

		printf("  %s=%s\n", k, v);
		free(k);
		free(v);
	}
	printf("threads:\n");
	printf("  %10s %10s %8s %14s %14s  %s\n", "tid", "events", "calls",
	       "wall us", "cpu us", "name");
	for (i = 0; i < tree->nthreads; i++) {
		const struct tt_thread *t = &tree->threads[i];
		char *name = text_escape(t->name);

		printf("  %10u %10llu %8u ", t->tid,
		       (unsigned long long)t->nevents, t->ncalls);
		if (tree->has_clock[CLOCK_WALL])
			printf("%14llu ", (unsigned long long)
						  calltree_thread_span(
							  tree, i, CLOCK_WALL));
		else
			printf("%14s ", "-");
		if (tree->has_clock[CLOCK_CPU])
			printf("%14llu ", (unsigned long long)
						  calltree_thread_span(
							  tree, i, CLOCK_CPU));
		else
			printf("%14s ", "-");
		printf(" %s%s\n", name, t->defined ? "" : " (not in the key)");
		free(name);
	}
	print_anomalies(&tree->anomalies);
	if (tree->nwarnings) {
		printf("warnings:\n");
		for (i = 0; i < tree->nwarnings; i++) {
			char *m = text_escape(tree->warnings[i].message);

			printf("  offset %llu: %s\n",
			       (unsigned long long)tree->warnings[i].offset, m);
			free(m);
		}
	}
	calltree_free(tree);
	return CMD_OK;
}
