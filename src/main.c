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
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void
usage(FILE *out)
{
	size_t i;

	fprintf(out,
	        "Usage: tracetui [OPTIONS] FILE\n"
	        "       tracetui COMMAND [OPTIONS] FILE\n\n"
	        "Read Android method traces (.trace), simpleperf recordings, "
	        "pprof profiles\n(heapprofd's native heap profiles), hprof "
	        "text CPU profiles, and Java heap\ndumps (binary HPROF: "
	        "info, report, tree, paths, leaks, diff, folded).\nWithout "
	        "a command, FILE opens in the interactive viewer.\n\n"
	        "Commands:\n");
	for (i = 0; cmd_commands[i].name; i++)
		fprintf(out, "  %-10s %s\n", cmd_commands[i].name,
		        cmd_commands[i].summary);
	if (out == stdout) {
		printf("\nViewer options:\n");
		viewer_help_options();
	}
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
 * read.  Said as an input error (status 3), the terminal given back its
 * modes first if the viewer's loading screen had them; any other SIGBUS
 * dies as such.
 */
static void
on_bus_error(int sig, siginfo_t *info, void *context)
{
	/* Workers reading the file in parallel fault together: one says
	 * it, the others wait for the process to end. */
	static atomic_flag saying = ATOMIC_FLAG_INIT;
	const char *path;
	uint64_t offset;

	(void)context;
	if (!trace_load_fault(info->si_addr, &path, &offset)) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	if (atomic_flag_test_and_set(&saying))
		for (;;)
			pause();
	term_wait_fault();
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
	sigset_t set;

	util_alloc_failure_hook = out_of_memory;
	/* A reader that closed its end of a pipe has read enough: a batch
	 * command dies of SIGPIPE at the write, silently, as git and the
	 * coreutils do (a parent may have left it ignored or blocked). */
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_bus_error;
	/* On the viewer's stack for fatal signals, once it has one. */
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

/* The edit distance between a and b (insertions, deletions, changes),
 * or 9 when either is longer than the commands are. */
static size_t
distance(const char *a, const char *b)
{
	size_t row[16], i, j, n = strlen(b);

	if (strlen(a) >= 15 || n >= 15)
		return 9;
	for (j = 0; j <= n; j++)
		row[j] = j;
	for (i = 1; a[i - 1]; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= n; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[n];
}

/*
 * argv[1] is neither a command nor an option: a file for the viewer,
 * unless it names no file and is a command mistyped, or is followed by
 * more words.  True after saying so.
 */
static bool
unknown_command(int argc, char **argv)
{
	const char *word = argv[1], *near = NULL;
	size_t i, best = 3;
	struct stat st;

	if (stat(word, &st) == 0)
		return false;
	for (i = 0; cmd_commands[i].name; i++) {
		size_t d = distance(word, cmd_commands[i].name);

		if (d < best) {
			best = d;
			near = cmd_commands[i].name;
		}
	}
	if (!near && argc < 3)
		return false;
	fprintf(stderr, "tracetui: unknown command '");
	for (i = 0; word[i] && i < 40; i++)
		fputc((unsigned char)word[i] >= 0x20 &&
		                      (unsigned char)word[i] < 0x7f
		              ? word[i]
		              : '?',
		      stderr);
	if (near)
		fprintf(stderr, "'; did you mean '%s'?\n", near);
	else
		fprintf(stderr, "' (see 'tracetui --help')\n");
	return true;
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
		return cmd_output_status(CMD_OK);
	}
	if (strcmp(argv[1], "help") == 0 && argc == 2) {
		usage(stdout);
		return cmd_output_status(CMD_OK);
	}
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		printf("tracetui %s\n", PACKAGE_VERSION);
		return cmd_output_status(CMD_OK);
	}
	if (argc > 2) {
		int status = cmd_heap_dispatch(argc - 1, argv + 1);

		if (status >= 0)
			return cmd_output_status(status);
	}
	for (i = 0; cmd_commands[i].name; i++)
		if (strcmp(argv[1], cmd_commands[i].name) == 0)
			return cmd_output_status(
			        cmd_commands[i].run(argc - 1, argv + 1));
	if (argv[1][0] != '-' && unknown_command(argc, argv))
		return CMD_USAGE;
	/* The viewer's writes (w, an editor's pipe) fail with a message. */
	signal(SIGPIPE, SIG_IGN);
	return cmd_output_status(viewer_main(argc, argv));
}
