/*
 * heap-viewer: the load runs heap_dump_open on a second thread whose
 * progress callback stores two atomics; this thread redraws the status
 * line from them a few times a second and reads keys meanwhile.  q (or
 * a signal) leaves the thread to die with the process, as tui/loading.c
 * does for traces.
 */
#include "config.h"

#include "tui/heap-viewer.h"

#include "read/load.h"
#include "text/width.h"
#include "query/heap-instances.h"
#include "tui/heap-app.h"
#include "tui/keymap.h"
#include "tui/loading.h"
#include "tui/term.h"
#include "util/alloc.h"
#include "util/thread.h"

#include <langinfo.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { TICK_MS = 25, REDRAW_TICKS = 4 };

struct heap_load {
	const char *path;
	const struct mapping *map;
	atomic_uint_fast64_t done, total;
	atomic_bool over;
	bool hold;              /* TRACETUI_TEST_HOLD_LOAD */
	struct heap_dump *dump; /* read only once over is set */
	struct trace_error err;
	pthread_t thread;
};

static void
on_progress(void *arg, uint64_t done, uint64_t total)
{
	struct heap_load *l = arg;

	atomic_store_explicit(&l->done, done, memory_order_relaxed);
	atomic_store_explicit(&l->total, total, memory_order_relaxed);
}

static void *
load(void *arg)
{
	struct heap_load *l = arg;

	/* For the tests: a load that never ends, so that its line and q
	 * are seen however fast the machine. */
	while (l->hold)
		nanosleep(&(struct timespec){0, 10000000}, NULL);
	l->dump = heap_dump_open(l->path, l->map, on_progress, l, &l->err);
	atomic_store_explicit(&l->over, true, memory_order_release);
	return NULL;
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The dump read behind a progress line: the dump, or NULL with *status
 * (CMD_OK after q, 128 plus a signal, CMD_INPUT after the message).
 */
static struct heap_dump *
read_dump(const struct cmd_opts *opts, int *status)
{
	struct heap_load *l = xcalloc(1, sizeof(*l));
	const char *path = opts->args[0];
	struct heap_dump *d;
	double t0 = now_s();
	unsigned ticks = 0;
	char *name = text_escape(path);

	l->path = path;
	l->map = opts->names;
	l->hold = getenv("TRACETUI_TEST_HOLD_LOAD") != NULL;
	*status = CMD_OK;
	if (!term_wait_begin() || !util_thread_start(&l->thread, load, l)) {
		l->hold = false; /* no thread: nothing to wait beside */
		load(l);
	} else {
		while (!atomic_load_explicit(&l->over, memory_order_acquire)) {
			char line[1024];
			int key;

			if (++ticks % REDRAW_TICKS == 2) {
				loading_line(line, sizeof(line), name,
				             atomic_load(&l->done),
				             atomic_load(&l->total),
				             now_s() - t0, term_wait_width());
				term_wait_show(line);
			}
			key = term_wait_key(TICK_MS);
			if (key == TKEY_NONE || key == 'q' || key == 'Q') {
				/* The read dies with the process. */
				term_wait_end();
				free(name);
				*status = key == TKEY_NONE
				                  ? 128 + term_signal_number()
				                  : CMD_OK;
				return NULL;
			}
		}
		pthread_join(l->thread, NULL);
	}
	term_wait_end();
	d = l->dump;
	if (!d) {
		cmd_error(NULL, "%s: offset %llu: %s", name,
		          (unsigned long long)l->err.offset,
		          l->err.message ? l->err.message : "cannot be read");
		*status = CMD_INPUT;
	} else if (!d->nobjects) {
		cmd_error(NULL,
		          "%s: offset %zu: the dump ends before its first "
		          "object",
		          name, d->size);
		heap_dump_free(d);
		d = NULL;
		*status = CMD_INPUT;
	}
	trace_error_clear(&l->err);
	free(name);
	free(l);
	return d;
}

static bool
locale_is_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

int
heap_viewer_run(const struct cmd_opts *opts)
{
	struct heap_dump *d;
	struct heap_app *app;
	struct canvas *canvas;
	const char *heap;
	char *error = NULL;
	int status, width, height;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		cmd_error(NULL,
		          "the viewer needs a terminal; for text, try "
		          "'tracetui report %s'",
		          opts->args[0]);
		return CMD_USAGE;
	}
	if (!term_usable(&error)) {
		cmd_error(NULL, "%s", error);
		free(error);
		return CMD_USAGE;
	}
	if (!(d = read_dump(opts, &status)))
		return status;
	heap = opts->heap ? heap_named(d, opts->heap) : heap_default(d);
	if (!heap) {
		cmd_error(NULL, "--heap %s: the dump has no such heap",
		          opts->heap);
		heap_dump_free(d);
		return CMD_USAGE;
	}
	app = heap_app_new(d, opts->args[0], heap);
	if (!d->complete)
		heap_app_message(app, true,
		                 "offset %llu: %s (the dump is cut or damaged "
		                 "there: what was before it is shown)",
		                 (unsigned long long)d->cut.offset,
		                 d->cut.message ? d->cut.message : "?");
	if (!term_open(opts->color, !opts->no_mouse, &error)) {
		cmd_error(NULL, "%s", error);
		free(error);
		heap_app_free(app);
		return CMD_USAGE;
	}
	term_size(&width, &height);
	canvas = canvas_new(width, height, opts->ascii || !locale_is_utf8());
	while (!term_interrupted() && !app->quit) {
		int key;

		heap_app_poll(app);
		if (!term_key_waiting()) {
			heap_app_draw(app, canvas);
			term_paint(canvas);
		}
		/* While the second thread works, its arrival is looked for a
		 * few times a second. */
		key = heap_app_busy(app) ? term_read_key_within(250)
		                         : term_read_key();
		if (key == TKEY_WAITING)
			continue;
		if (key == TKEY_NONE)
			break;
		if (key == TKEY_MOUSE) {
			struct mouse_event ev;

			term_mouse(&ev);
			heap_app_mouse(app, &ev);
			continue;
		}
		if (key == TKEY_RESIZE) {
			term_size(&width, &height);
			canvas_resize(canvas, width, height);
			continue;
		}
		heap_app_key(app, key);
	}
	term_close();
	canvas_free(canvas);
	heap_app_free(app);
	return term_signal_number() ? 128 + term_signal_number() : CMD_OK;
}
