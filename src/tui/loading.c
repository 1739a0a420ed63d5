/*
 * loading: the file is read by calltree_load_with on a second thread; the
 * caller's thread redraws a status line on stderr a few times a second
 * from the bytes read so far (two atomics the progress callback
 * stores), and reads keys meanwhile.  Where the options allow it the
 * thread reads the sums first (what the profile needs), flags them
 * ready, and then reads the file again for the model, which the viewer
 * takes once the thread says it is over.  Nothing of a tree is looked
 * at before its flag is set (with release, read with acquire).
 * Quitting leaves the thread to die with the process: the load cannot
 * be stopped halfway, and nothing waits for it.
 */
#include "config.h"

#include "tui/loading.h"

#include "cli/cmd.h"
#include "model/open.h"
#include "text/width.h"
#include "tui/keymap.h"
#include "tui/term.h"
#include "util/alloc.h"
#include "util/thread.h"

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

/* One load: what the thread reads and what it hands back.  With
 * sums_first, the thread reads the file for its sums (the first tree,
 * `first`), then, when they came as sums, reads it again for the model
 * (`model`): the progress counts each read from 0. */
struct loading {
	const char *path;
	const char *sample_type;
	bool java_only;
	bool sums_first;
	const char *frame_method; /* --frame-method, NULL for the default */
	atomic_uint_fast64_t done, total;
	atomic_bool first_over, over;
	struct calltree *first; /* read only once first_over is set */
	struct trace_error first_err;
	struct calltree *model; /* read only after the join */
	struct trace_error err;
	pthread_t thread;
};

/* A load left to die with the process: kept here, so that what it
 * holds stays reachable until the process ends, as leak checkers want. */
static struct loading *abandoned;

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

/* How far the gate file lets the calls' read go: 0 while it is missing,
 * the bytes it names, or no limit when it names none. */
static uint64_t
test_gate_allows(const char *gate)
{
	unsigned long long bytes;
	FILE *f = fopen(gate, "r");
	int n;

	if (!f)
		return 0;
	n = fscanf(f, "%llu", &bytes);
	fclose(f);
	return n == 1 ? (uint64_t)bytes : UINT64_MAX;
}

/*
 * Tests hold the read of the calls where the file TRACETUI_TEST_CALLS_GATE
 * says (test_gate_allows): it waits, five minutes at most (a sanitizer
 * build's suite on a loaded machine can take more than one between a
 * gate's setting and its opening), before it starts and at each report
 * of its progress, done bytes in.  What a test does "while the calls
 * load" then happens while they load, however fast the machine.
 * TRACETUI_TEST_LOAD_GATE holds the first read (behind the
 * progress bar) the same way, at each report of its progress.
 */
static void
wait_for_gate(const char *variable, uint64_t done)
{
	const char *gate = getenv(variable);
	struct timespec tick = {0, 10000000};
	int i;

	if (!gate || !*gate)
		return;
	for (i = 0; i < 30000 && done >= test_gate_allows(gate); i++)
		nanosleep(&tick, NULL);
}

static void
wait_for_test_gate(uint64_t done)
{
	wait_for_gate("TRACETUI_TEST_CALLS_GATE", done);
}

static void
on_progress(void *arg, uint64_t done, uint64_t total)
{
	struct loading *l = arg;
	uint64_t seen = atomic_load_explicit(&l->done, memory_order_relaxed);

	atomic_store_explicit(&l->total, total, memory_order_relaxed);
	/* Workers report in turn, one behind the other at times: the
	 * count only goes forwards. */
	while (done > seen &&
	       !atomic_compare_exchange_weak_explicit(&l->done, &seen, done,
	                                              memory_order_relaxed,
	                                              memory_order_relaxed))
		;
	if (atomic_load_explicit(&l->first_over, memory_order_relaxed))
		wait_for_test_gate(done);
	else
		wait_for_gate("TRACETUI_TEST_LOAD_GATE", done);
}

static void *
load_main(void *arg)
{
	struct loading *l = arg;
	struct calltree_load_options o = {.sample_type = l->sample_type,
	                                  .java_only = l->java_only,
	                                  .progress = on_progress,
	                                  .progress_arg = l,
	                                  .sums_only = l->sums_first,
	                                  .paths = l->sums_first};

	/* The model finds a sampled recording's frames (frame-spans.h);
	 * the sums do not need them. */
	if (!l->sums_first) {
		o.frame_methods = cmd_load_frame_methods;
		o.frame_arg = (void *)l->frame_method;
	}
	l->first = calltree_load_with(l->path, &o, &l->first_err);
	if (l->first && l->first->sums) {
		/* The sums are on screen: now the model, the file's pages
		 * still in the cache. */
		atomic_store_explicit(&l->done, 0, memory_order_relaxed);
		atomic_store_explicit(&l->first_over, true,
		                      memory_order_release);
		wait_for_test_gate(0);
		o.sums_only = false;
		o.frame_methods = cmd_load_frame_methods;
		o.frame_arg = (void *)l->frame_method;
		l->model = calltree_load_with(l->path, &o, &l->err);
	} else {
		atomic_store_explicit(&l->first_over, true,
		                      memory_order_release);
	}
	atomic_store_explicit(&l->over, true, memory_order_release);
	return NULL;
}

bool
loading_sums_first(const struct cmd_opts *opts, const char *path)
{
	struct stat st;

	/* A range needs the calls at once; a pipe cannot be read twice. */
	return !opts->range && !opts->ntransforms && stat(path, &st) == 0 &&
	       S_ISREG(st.st_mode);
}

struct loading *
loading_start(const char *path, const char *sample_type, bool java_only,
              bool sums_first, const char *frame_method)
{
	struct loading *l = xcalloc(1, sizeof(*l));
	struct stat st;

	l->path = path;
	l->sample_type = sample_type;
	l->java_only = java_only;
	l->sums_first = sums_first;
	l->frame_method = frame_method;
	/* A file's size is its total before the reader says it. */
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		atomic_store(&l->total, (uint64_t)st.st_size);
	if (!util_thread_start(&l->thread, load_main, l)) {
		free(l);
		return NULL;
	}
	return l;
}

bool
loading_first_ready(const struct loading *l)
{
	return atomic_load_explicit(&l->first_over, memory_order_acquire);
}

struct calltree *
loading_take_first(struct loading *l, struct trace_error *err)
{
	struct calltree *tree;

	while (!loading_first_ready(l)) {
		struct timespec ms = {0, 1000000};

		nanosleep(&ms, NULL);
	}
	tree = l->first;
	l->first = NULL;
	*err = l->first_err;
	memset(&l->first_err, 0, sizeof(l->first_err));
	return tree;
}

int
loading_percent(const struct loading *l)
{
	uint64_t done = atomic_load_explicit(&l->done, memory_order_relaxed);
	uint64_t total = atomic_load_explicit(&l->total, memory_order_relaxed);

	return !total ? 0 : done >= total ? 100 : (int)(done * 100 / total);
}

bool
loading_over(const struct loading *l)
{
	return atomic_load_explicit(&l->over, memory_order_acquire);
}

struct calltree *
loading_finish(struct loading *l, struct trace_error *err)
{
	struct calltree *tree;

	pthread_join(l->thread, NULL);
	tree = l->model;
	*err = l->err;
	calltree_free(l->first);
	trace_error_clear(&l->first_err);
	free(l);
	return tree;
}

void
loading_abandon(struct loading *l)
{
	/* The thread dies with the process. */
	abandoned = l;
	pthread_detach(l->thread);
}

/* Redraw the status line of l, begun at t0. */
static void
show(struct loading *l, const char *name, double t0)
{
	char line[1024];

	loading_line(line, sizeof(line), name,
	             atomic_load_explicit(&l->done, memory_order_relaxed),
	             atomic_load_explicit(&l->total, memory_order_relaxed),
	             now_s() - t0, term_wait_width());
	term_wait_show(line);
}

struct calltree *
loading_run(const struct cmd_opts *opts, const char *path, int *status,
            struct loading **rest)
{
	struct loading *l;
	struct calltree *tree;
	struct trace_error err = {0};
	double t0 = now_s();
	char *name;
	unsigned ticks = 0;

	*rest = NULL;
	if (!term_wait_begin()) {
		tree = cmd_load(opts, path);
		*status = tree ? CMD_OK : cmd_load_status();
		return tree;
	}
	l = loading_start(path, opts->sample_type, opts->java_only,
	                  loading_sums_first(opts, path), opts->frame_method);
	if (!l) {
		term_wait_end();
		tree = cmd_load(opts, path);
		*status = tree ? CMD_OK : cmd_load_status();
		return tree;
	}
	name = text_escape(path);
	while (!loading_first_ready(l)) {
		int key;

		/* A load that ends at once never shows a line. */
		if (++ticks % REDRAW_TICKS == 2)
			show(l, name, t0);
		key = term_wait_key(TICK_MS);
		if (key == TKEY_NONE || key == 'q' || key == 'Q') {
			loading_abandon(l);
			term_wait_end();
			free(name);
			*status = key == TKEY_NONE ? 128 + term_signal_number()
			                           : CMD_OK;
			return NULL;
		}
	}
	term_wait_end();
	free(name);
	tree = loading_take_first(l, &err);
	if (tree && tree->sums)
		*rest = l; /* the model follows */
	else
		loading_finish(l, &(struct trace_error){0});
	tree = cmd_loaded(opts, path, tree, &err);
	if (!tree && *rest) {
		loading_abandon(*rest);
		*rest = NULL;
	}
	*status = tree ? CMD_OK : cmd_load_status();
	return tree;
}
