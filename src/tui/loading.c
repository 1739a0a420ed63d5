/*
 * loading: the file is read by calltree_load_with on a second thread; the
 * caller's thread redraws a status line on stderr a few times a second
 * from the bytes read so far (two atomics the progress callback
 * stores), and reads keys meanwhile.  Nothing of the model is looked at
 * before the thread is joined.  Quitting leaves the thread to die with
 * the process: the load cannot be stopped halfway, and nothing waits
 * for it.
 */
#include "config.h"

#include "tui/loading.h"

#include "model/open.h"
#include "text/width.h"
#include "tui/keymap.h"
#include "tui/term.h"
#include "util/alloc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

enum {
	TICK_MS = 25,     /* how often keys and the load's end are looked at */
	REDRAW_TICKS = 4, /* ticks between redraws of the line */
	BAR_MIN = 10,     /* the narrowest bar worth drawing */
	BAR_MAX = 50,
};

/* One load: what the thread reads and what it hands back. */
struct load_job {
	const char *path;
	const char *sample_type;
	atomic_uint_fast64_t done, total;
	atomic_bool over;
	struct calltree *tree; /* read only after the join */
	struct trace_error err;
};

/* A load left to die with the process: kept here, so that what it
 * holds stays reachable until the process ends, as leak checkers want. */
static struct load_job *abandoned;

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "12.3 MB" (one decimal under 10 MB, none above). */
static void
megabytes(char *buf, size_t size, uint64_t bytes)
{
	double mb = (double)bytes / 1e6;

	snprintf(buf, size, mb < 10 ? "%.1f" : "%.0f", mb);
}

void
loading_line(char *buf, size_t size, const char *name, uint64_t done,
             uint64_t total, double elapsed, int width)
{
	static const char head_full[] = "tracetui: reading ";
	static const char head_short[] = "tracetui: ";
	char tail[96], a[32], b[32], left[48] = "";
	int pct, avail = width - 1, tw, hw, bar, fill, i;
	size_t n = 0;
	bool with_name = true;

	if (!total) {
		/* A pipe: nothing is known before its end. */
		snprintf(buf, size, "tracetui: reading %s ...", name);
		if (text_width(buf) > (size_t)(avail > 0 ? avail : 0))
			snprintf(buf, size, "tracetui: reading ...");
		return;
	}
	if (done > total)
		done = total;
	pct = total ? (int)(done * 100 / total) : 0;
	megabytes(a, sizeof(a), done);
	megabytes(b, sizeof(b), total);
	if (total && done >= total) {
		snprintf(left, sizeof(left), ", building the model");
	} else if (done > 0 && elapsed >= 0.2) {
		double rest = elapsed * (double)(total - done) / (double)done;

		if (rest < 60)
			snprintf(left, sizeof(left), ", %.1f s left", rest);
		else
			snprintf(left, sizeof(left), ", %d min %02d s left",
			         (int)(rest / 60), (int)rest % 60);
	}
	snprintf(tail, sizeof(tail), " %3d%%  %s/%s MB%s", pct, a, b, left);
	tw = (int)strlen(tail);
	hw = (int)(sizeof(head_full) - 1 + text_width(name) + 1);
	if (hw + 2 + BAR_MIN + tw > avail) {
		with_name = false;
		hw = (int)sizeof(head_short) - 1;
	}
	if (hw + 2 + BAR_MIN + tw > avail) {
		/* Too narrow for a bar: the percentage alone, cut to fit. */
		snprintf(buf, size, "%3d%%", pct);
		if (avail >= 0 && (size_t)avail < size)
			buf[avail] = '\0';
		return;
	}
	bar = avail - hw - 2 - tw;
	if (bar > BAR_MAX)
		bar = BAR_MAX;
	fill = total ? (int)((uint64_t)bar * done / total) : 0;
	n = (size_t)snprintf(buf, size, "%s%s%s[",
	                     with_name ? head_full : head_short,
	                     with_name ? name : "", with_name ? " " : "");
	for (i = 0; i < bar && n + 1 < size; i++)
		buf[n++] = i < fill ? '=' : i == fill ? '>' : ' ';
	if (n < size)
		buf[n] = '\0';
	if (n < size)
		snprintf(buf + n, size - n, "]%s", tail);
}

static void
on_progress(void *arg, uint64_t done, uint64_t total)
{
	struct load_job *job = arg;

	atomic_store_explicit(&job->total, total, memory_order_relaxed);
	atomic_store_explicit(&job->done, done, memory_order_relaxed);
}

static void *
load_main(void *arg)
{
	struct load_job *job = arg;
	struct calltree_load_options o = {job->sample_type, on_progress, job,
	                                  false};

	job->tree = calltree_load_with(job->path, &o, &job->err);
	atomic_store_explicit(&job->over, true, memory_order_release);
	return NULL;
}

/* Redraw the status line of job, begun at t0. */
static void
show(struct load_job *job, const char *name, double t0)
{
	char line[1024];

	loading_line(line, sizeof(line), name,
	             atomic_load_explicit(&job->done, memory_order_relaxed),
	             atomic_load_explicit(&job->total, memory_order_relaxed),
	             now_s() - t0, term_wait_width());
	term_wait_show(line);
}

struct calltree *
loading_run(const struct cmd_opts *opts, const char *path, int *status)
{
	struct load_job *job;
	struct calltree *tree;
	struct stat st;
	pthread_t thread;
	double t0 = now_s();
	char *name;
	unsigned ticks = 0;

	if (!term_wait_begin()) {
		tree = cmd_load(opts, path);
		*status = tree ? CMD_OK : CMD_INPUT;
		return tree;
	}
	job = xcalloc(1, sizeof(*job));
	job->path = path;
	job->sample_type = opts->sample_type;
	/* A file's size is its total before the reader says it. */
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		atomic_store(&job->total, (uint64_t)st.st_size);
	if (pthread_create(&thread, NULL, load_main, job) != 0) {
		free(job);
		term_wait_end();
		tree = cmd_load(opts, path);
		*status = tree ? CMD_OK : CMD_INPUT;
		return tree;
	}
	name = text_escape(path);
	while (!atomic_load_explicit(&job->over, memory_order_acquire)) {
		int key;

		/* A load that ends at once never shows a line. */
		if (++ticks % REDRAW_TICKS == 2)
			show(job, name, t0);
		key = term_wait_key(TICK_MS);
		if (key == TKEY_NONE || key == 'q' || key == 'Q') {
			/* The thread dies with the process. */
			abandoned = job;
			pthread_detach(thread);
			term_wait_end();
			free(name);
			*status = key == TKEY_NONE ? 128 + term_signal_number()
			                           : CMD_OK;
			return NULL;
		}
	}
	pthread_join(thread, NULL);
	term_wait_end();
	free(name);
	tree = cmd_loaded(opts, path, job->tree, &job->err);
	free(job);
	*status = tree ? CMD_OK : CMD_INPUT;
	return tree;
}
