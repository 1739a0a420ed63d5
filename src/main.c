/*
 * main: dispatch to a batch command, or open the viewer on a file.
 */
#include "config.h"

#include "cli/cmd.h"
#include "read/load.h"
#include "tui/term.h"
#include "tui/viewer.h"
#include "util/alloc.h"

#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	             "--base BASE).\n\n"
	             "Read Android method traces (.trace).\n\nCommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name,
		        commands[i].summary);
	fprintf(out, "\n'tracetui COMMAND --help' describes a command.\n"
	             "Exit status: 0 success, 2 usage error, 3 the file "
	             "cannot be read,\n4 the output cannot be written, 5 out "
	             "of memory, 128+N ended by signal N.\n");
}

/* Out of memory anywhere: restore the terminal, say how much was needed,
 * exit 5. */
static void
out_of_memory(size_t size)
{
	term_close();
	if (size == SIZE_MAX)
		fprintf(stderr, "tracetui: out of memory (an allocation larger "
		                "than the address space was asked for)\n");
	else
		fprintf(stderr,
		        "tracetui: out of memory (%zu bytes were needed; "
		        "the input may be too large for this machine)\n",
		        size);
	exit(CMD_NO_MEMORY);
}

/* Write the decimal digits of v to fd (safe in a signal handler). */
static void
write_number(int fd, uint64_t v)
{
	char buf[24];
	size_t n = sizeof(buf);

	do
		buf[--n] = (char)('0' + v % 10);
	while ((v /= 10) && n);
	if (write(fd, buf + n, sizeof(buf) - n) < 0)
		return;
}

static void
write_text(int fd, const char *s)
{
	if (write(fd, s, strlen(s)) < 0)
		return;
}

/*
 * SIGBUS: a mapped trace file cut short by another process while it was
 * read.  Said as an input error (status 3); any other SIGBUS dies as
 * such.
 */
static void
on_bus_error(int sig, siginfo_t *info, void *context)
{
	const char *path;
	uint64_t offset;

	(void)context;
	if (!trace_load_fault(info->si_addr, &path, &offset)) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	write_text(STDERR_FILENO, "\ntracetui: ");
	write_text(STDERR_FILENO, path);
	write_text(STDERR_FILENO, ": offset ");
	write_number(STDERR_FILENO, offset);
	write_text(STDERR_FILENO, ": the file shrank while it was being read "
	                          "(was it truncated or rewritten?)\n");
	_exit(CMD_INPUT);
}

static void
install_handlers(void)
{
	struct sigaction sa;

	util_alloc_failure_hook = out_of_memory;
	/* A closed pipe is a write error, reported with status 4. */
	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_bus_error;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

/* Status 4 with a message when standard output could not be written. */
static int
check_output(int status)
{
	int failed = fflush(stdout) != 0;
	int saved = errno;

	if (!failed && !ferror(stdout))
		return status;
	fprintf(stderr, "tracetui: cannot write the output: %s\n",
	        failed ? strerror(saved) : "a write failed");
	return CMD_WRITE;
}

int
main(int argc, char **argv)
{
	size_t i;

	setlocale(LC_ALL, "");
	install_handlers();
	if (argc < 2) {
		usage(stderr);
		return CMD_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return check_output(CMD_OK);
	}
	if (strcmp(argv[1], "help") == 0 && argc == 2) {
		usage(stdout);
		return check_output(CMD_OK);
	}
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		printf("tracetui %s\n", PACKAGE_VERSION);
		return check_output(CMD_OK);
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return check_output(
			        commands[i].run(argc - 1, argv + 1));
	return check_output(viewer_main(argc, argv));
}
