/*
 * measure: run a command REPEAT times and print the median wall time,
 * the median cpu time (user + system) and the largest peak resident set
 * of the runs, in one line:
 *
 *   measure REPEAT COMMAND [ARG...]
 *   -> wall_ms=123.4 cpu_ms=120.1 maxrss_mb=55.2
 *
 * The command's standard output goes to /dev/null.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	int repeat, i;
	double *wall, *cpu, maxrss = 0;

	if (argc < 3 || (repeat = atoi(argv[1])) < 1) {
		fprintf(stderr, "usage: measure REPEAT COMMAND [ARG...]\n");
		return 2;
	}
	wall = calloc((size_t)repeat, sizeof(*wall));
	cpu = calloc((size_t)repeat, sizeof(*cpu));
	for (i = 0; i < repeat; i++) {
		struct timespec t0, t1;
		struct rusage ru;
		int status;
		pid_t pid;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		pid = fork();
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);

			dup2(null, STDOUT_FILENO);
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
			return 2;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "measure: %s failed\n", argv[2]);
			return 1;
		}
		wall[i] = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
		          (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
		cpu[i] = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
		                 1e3 +
		         (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) /
		                 1e3;
		if ((double)ru.ru_maxrss / 1024 > maxrss)
			maxrss = (double)ru.ru_maxrss / 1024;
	}
	qsort(wall, (size_t)repeat, sizeof(*wall), cmp_double);
	qsort(cpu, (size_t)repeat, sizeof(*cpu), cmp_double);
	printf("wall_ms=%.1f cpu_ms=%.1f maxrss_mb=%.1f\n", wall[repeat / 2],
	       cpu[repeat / 2], maxrss);
	free(wall);
	free(cpu);
	return 0;
}
