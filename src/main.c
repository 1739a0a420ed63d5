/*
 * main: dispatch to a batch command, or open the viewer on a file.
 */
#include "config.h"

#include "cli/cmd.h"
#include "tui/viewer.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = {
        {"report", cmd_report, "per-method profile table"},
        {"tree", cmd_tree, "top-down merged call tree, pruned by --min-pct"},
        {"calls", cmd_calls,
         "every call of matching methods: thread, start, wall, cpu, depth"},
        {"info", cmd_info, "format, properties, threads, anomalies"},
        {"dump", cmd_dump, "the records in file order, as dmtracedump -o"},
        {"folded", cmd_folded,
         "folded stacks for FlameGraph, flamelens, speedscope"},
        {"diff", cmd_diff, "per-method comparison of two traces"},
        {"export", cmd_export, "speedscope or Chrome trace-event JSON"},
};

static void
usage(FILE *out)
{
	size_t i;

	fprintf(out, "Usage: tracetui [OPTIONS] FILE\n"
	             "       tracetui COMMAND [OPTIONS] FILE\n\n"
	             "Without a command, FILE opens in the interactive "
	             "viewer\n(options: -t THREAD, -c CLOCK, --ascii, "
	             "--color WHEN, --mapping FILE,\n"
	             "--base BASE, --sample-type TYPE).\n\n"
	             "Read Android method traces (.trace), and hprof and pprof "
	             "profiles\n(heapprofd's heap dumps).\n\nCommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name,
		        commands[i].summary);
	fprintf(out, "\n'tracetui COMMAND --help' describes a command.\n"
	             "Exit status: 0 success, 2 usage error, 3 the file "
	             "cannot be read.\n");
}

int
main(int argc, char **argv)
{
	size_t i;

	setlocale(LC_ALL, "");
	if (argc < 2) {
		usage(stderr);
		return CMD_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return CMD_OK;
	}
	if (strcmp(argv[1], "help") == 0 && argc == 2) {
		usage(stdout);
		return CMD_OK;
	}
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		printf("tracetui %s\n", PACKAGE_VERSION);
		return CMD_OK;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	return viewer_main(argc, argv);
}
