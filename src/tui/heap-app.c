/*
 * heap-app: the heap dump viewer's state and the requests no view
 * handles: views, history, search and filter, the heap switch.  The
 * second thread computes the dominators, then the shortest paths, then
 * the leaks, publishing each with a release store of its stage; the
 * key loop takes each with an acquire load (heap_app_poll) and only
 * then looks at it.
 */
#include "config.h"

#include "tui/heap-app.h"

#include "query/heap-instances.h"
#include "text/width.h"
#include "tui/keymap.h"
#include "util/alloc.h"
#include "util/thread.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MIN_WIDTH = 40, MIN_HEIGHT = 8 };

/* The stages of the second thread's work, in order. */
enum stage { STAGE_NONE, STAGE_DOMINATORS, STAGE_PATHS, STAGE_LEAKS };

struct heap_background {
	const struct heap_dump *d;
	struct heap_dominators dom;
	struct heap_paths paths;
	struct heap_leak *leaks;
	size_t nleaks;
	atomic_int stage; /* the last stage finished */
	/* For the tests (TRACETUI_TEST_HOLD_DOMINATORS): the work waits
	 * until C-l, so that the first screen is seen without them. */
	atomic_bool hold;
	int taken; /* the last stage the app took */
	pthread_t thread;
	bool started;
};

static const struct heap_view_ops *const views[HEAP_VIEW_COUNT] = {
        &heap_classes_ops,    &heap_instances_ops,  &heap_fields_ops,
        &heap_path_ops,       &heap_dominators_ops, &heap_leaks_ops,
        &heap_duplicates_ops, &heap_help_ops,
};

static void *
background(void *arg)
{
	struct heap_background *bg = arg;

	while (atomic_load(&bg->hold))
		nanosleep(&(struct timespec){0, 10000000}, NULL);
	heap_dominators_compute(&bg->dom, bg->d);
	atomic_store_explicit(&bg->stage, STAGE_DOMINATORS,
	                      memory_order_release);
	heap_paths_compute(&bg->paths, bg->d);
	atomic_store_explicit(&bg->stage, STAGE_PATHS, memory_order_release);
	heap_leaks_find(bg->d, &bg->dom, &bg->leaks, &bg->nleaks);
	atomic_store_explicit(&bg->stage, STAGE_LEAKS, memory_order_release);
	return NULL;
}

/* The histogram of the heaps shown, with retained sizes once known. */
static void
build_histogram(struct heap_app *app)
{
	heap_histogram_done(&app->hist);
	if (app->dom)
		heap_histogram_build(&app->hist, app->dump, app->dom,
		                     app->shown);
	else
		heap_histogram_counts(&app->hist, app->dump, app->shown);
	app->serial++;
}

struct heap_app *
heap_app_new(struct heap_dump *d, const char *path, const char *heap)
{
	struct heap_app *app = xcalloc(1, sizeof(*app));
	const char *base = strrchr(path, '/');
	bool found;

	app->dump = d;
	app->name = xstrdup(base && base[1] ? base + 1 : path);
	app->heap = heap;
	app->shown = heap_pick(d, app->heap, &found);
	app->row = app->object = HEAP_NONE;
	app->bg = xcalloc(1, sizeof(*app->bg));
	app->bg->d = d;
	build_histogram(app);
	atomic_store(&app->bg->hold,
	             getenv("TRACETUI_TEST_HOLD_DOMINATORS") != NULL);
	app->bg->started =
	        util_thread_start(&app->bg->thread, background, app->bg);
	if (!app->bg->started) {
		/* No second thread: everything now, held or not. */
		atomic_store(&app->bg->hold, false);
		background(app->bg);
	}
	heap_app_poll(app);
	heap_app_go(app, HEAP_VIEW_CLASSES, HEAP_NONE, HEAP_NONE);
	return app;
}

bool
heap_app_busy(const struct heap_app *app)
{
	/* What the app took, not what the thread did: a stage finished
	 * after the last poll is still to be taken (and drawn). */
	return app->bg->taken != STAGE_LEAKS;
}

bool
heap_app_poll(struct heap_app *app)
{
	struct heap_background *bg = app->bg;
	int stage = atomic_load_explicit(&bg->stage, memory_order_acquire);

	if (stage == bg->taken)
		return false;
	if (stage >= STAGE_DOMINATORS && !app->dom) {
		app->dom = &bg->dom;
		build_histogram(app);
	}
	if (stage >= STAGE_PATHS && !app->paths)
		app->paths = &bg->paths;
	if (stage >= STAGE_LEAKS && !app->leaks) {
		app->leaks = bg->leaks;
		app->nleaks = bg->nleaks;
	}
	bg->taken = stage;
	app->serial++;
	return true;
}

void
heap_app_free(struct heap_app *app)
{
	size_t i;

	if (!app)
		return;
	/* The second thread still reads the dump: the process ends with
	 * it rather than wait. */
	if (atomic_load_explicit(&app->bg->stage, memory_order_acquire) !=
	    STAGE_LEAKS)
		return;
	if (app->bg->started)
		pthread_join(app->bg->thread, NULL);
	for (i = 0; i < HEAP_VIEW_COUNT; i++) {
		if (app->state[i])
			views[i]->close(app->state[i]);
		if (app->has_kept[i])
			regfree(&app->kept[i]);
	}
	if (app->has_search)
		regfree(&app->search);
	heap_dominators_done(&app->bg->dom);
	heap_paths_done(&app->bg->paths);
	free(app->bg->leaks);
	free(app->bg);
	heap_histogram_done(&app->hist);
	free(app->shown);
	free(app->history);
	free(app->name);
	heap_dump_free(app->dump);
	free(app);
}

void
heap_app_message(struct heap_app *app, bool warn, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(app->message, sizeof(app->message), fmt, ap);
	va_end(ap);
	app->message_warn = warn;
}

char *
heap_app_retained(const struct heap_app *app, uint32_t i)
{
	if (!app->dom)
		return xstrdup("-");
	return xasprintf("%llu", (unsigned long long)app->dom->retained[i]);
}

/* The state of view v, opened when first shown. */
static void *
state_of(struct heap_app *app, enum heap_view v)
{
	if (!app->state[v])
		app->state[v] = views[v]->open(app);
	if (views[v]->sync)
		views[v]->sync(app->state[v], app);
	return app->state[v];
}

struct list *
heap_app_list(struct heap_app *app)
{
	void *state = state_of(app, app->view);

	return views[app->view]->list ? views[app->view]->list(state) : NULL;
}

void
heap_app_mouse(struct heap_app *app, const struct mouse_event *ev)
{
	void *state = state_of(app, app->view);
	struct list *l = heap_app_list(app);

	if (app->prompt)
		return;
	if (views[app->view]->mouse && views[app->view]->mouse(state, app, ev))
		return;
	if (l && list_mouse(l, ev) == LIST_AGAIN)
		heap_app_key(app, TKEY_ENTER);
}

static void
show(struct heap_app *app, const struct heap_place *p)
{
	if (p->row != HEAP_NONE)
		app->row = p->row;
	if (p->object != HEAP_NONE)
		app->object = p->object;
	app->view = p->view;
	state_of(app, p->view);
}

void
heap_app_go(struct heap_app *app, enum heap_view view, uint32_t row,
            uint32_t object)
{
	struct heap_place p = {view, row, object};

	if (app->nhistory)
		app->nhistory = app->at + 1;
	UTIL_GROW(app->history, app->history_cap, app->nhistory + 1);
	app->history[app->nhistory++] = p;
	app->at = app->nhistory - 1;
	show(app, &p);
}

/* Back (-1) or forward (1) in the history; false at its end. */
static bool
history_step(struct heap_app *app, int dir)
{
	if (dir < 0 ? app->at == 0 : app->at + 1 >= app->nhistory)
		return false;
	app->at = dir < 0 ? app->at - 1 : app->at + 1;
	show(app, &app->history[app->at]);
	return true;
}

/* The next heap of the dump (app, image, zygote ..., then all). */
static void
next_heap(struct heap_app *app)
{
	const struct heap_dump *d = app->dump;
	size_t i, at = d->nheaps;
	bool found;

	if (d->nheaps < 2) {
		heap_app_message(app, false, "the dump has one heap");
		return;
	}
	for (i = 0; i < d->nheaps; i++)
		if (strcmp(d->heaps[i], app->heap) == 0)
			at = i;
	app->heap = at + 1 < d->nheaps    ? d->heaps[at + 1]
	            : at + 1 == d->nheaps ? "all"
	                                  : d->heaps[0];
	free(app->shown);
	app->shown = heap_pick(d, app->heap, &found);
	build_histogram(app);
	heap_app_message(app, false, "heap %s", app->heap);
}

/* Search (dir 1 or -1) for app->search from the cursor. */
static void
search(struct heap_app *app, int dir)
{
	struct list *l =
	        views[app->view]->list
	                ? views[app->view]->list(state_of(app, app->view))
	                : NULL;
	size_t nth, total;

	if (!app->has_search) {
		heap_app_message(app, false, "no search yet: press /");
		return;
	}
	if (!l || !list_find(l, &app->search, dir, &nth, &total))
		heap_app_message(app, true, "no match for '%s'", app->input);
	else
		heap_app_message(app, false, "match %zu of %zu", nth, total);
}

/* Write the view's rows to path: TSV when it ends in .tsv, else text. */
static void
write_view(struct heap_app *app, const char *path)
{
	const struct heap_view_ops *v = views[app->view];
	size_t len = strlen(path);
	struct table *t = v->rows ? v->rows(state_of(app, app->view)) : NULL;
	FILE *f;
	int err = 0;

	if (!t) {
		heap_app_message(app, true, "this view has no rows to write");
		return;
	}
	errno = 0;
	if (!(f = fopen(path, "w"))) {
		err = errno;
	} else {
		table_print(t, f,
		            len > 4 && strcmp(path + len - 4, ".tsv") == 0
		                    ? TABLE_TSV
		                    : TABLE_TEXT);
		if (fflush(f) != 0 || ferror(f))
			err = errno ? errno : EIO;
		if (fclose(f) != 0 && !err)
			err = errno;
	}
	if (err)
		heap_app_message(app, true, "cannot write %s: %s", path,
		                 strerror(err));
	else
		heap_app_message(app, false, "wrote %zu rows to %s",
		                 table_nrows(t), path);
	table_free(t);
}

/* The pattern typed is done: search or filter with it. */
static void
prompt_done(struct heap_app *app)
{
	struct list *l =
	        views[app->view]->list
	                ? views[app->view]->list(state_of(app, app->view))
	                : NULL;
	char why[200];
	regex_t re;
	char kind = app->prompt;

	app->prompt = 0;
	if (kind == 'w') {
		if (app->input_len)
			write_view(app, app->input);
		return;
	}
	if (kind == '&' && !app->input_len) {
		if (l)
			list_keep(l, NULL);
		if (app->has_kept[app->view])
			regfree(&app->kept[app->view]);
		app->has_kept[app->view] = false;
		return;
	}
	if (!app->input_len)
		return;
	if (list_regcomp(&re, app->input, why, sizeof(why)) != 0) {
		heap_app_message(app, true, "%s", why);
		return;
	}
	if (kind == '/') {
		if (app->has_search)
			regfree(&app->search);
		app->search = re;
		app->has_search = true;
		search(app, 1);
		return;
	}
	if (!l) {
		regfree(&re);
		return;
	}
	if (app->has_kept[app->view]) {
		list_keep(l, NULL);
		regfree(&app->kept[app->view]);
	}
	app->kept[app->view] = re;
	app->has_kept[app->view] = true;
	heap_app_message(app, false, "%zu rows match",
	                 list_keep(l, &app->kept[app->view]));
}

/* A key while a pattern is typed. */
static void
prompt_key(struct heap_app *app, int key)
{
	if (key == TKEY_ENTER || key == '\n') {
		prompt_done(app);
	} else if (key == TKEY_ESC) {
		if (app->prompt == '&') {
			app->input_len = 0;
			app->input[0] = '\0';
			prompt_done(app);
		}
		app->prompt = 0;
	} else if (key == TKEY_BACKSPACE || key == 127 || key == 8) {
		while (app->input_len &&
		       ((unsigned char)app->input[app->input_len - 1] & 0xc0) ==
		               0x80)
			app->input_len--;
		if (app->input_len)
			app->input_len--;
		app->input[app->input_len] = '\0';
	} else if (key >= 0x20 && key < TKEY_BASE) {
		char utf8[4];
		size_t n = 0;

		if (key < 0x80) {
			utf8[n++] = (char)key;
		} else if (key < 0x800) {
			utf8[n++] = (char)(0xc0 | key >> 6);
			utf8[n++] = (char)(0x80 | (key & 0x3f));
		} else if (key < 0x10000) {
			utf8[n++] = (char)(0xe0 | key >> 12);
			utf8[n++] = (char)(0x80 | (key >> 6 & 0x3f));
			utf8[n++] = (char)(0x80 | (key & 0x3f));
		} else {
			utf8[n++] = (char)(0xf0 | key >> 18);
			utf8[n++] = (char)(0x80 | (key >> 12 & 0x3f));
			utf8[n++] = (char)(0x80 | (key >> 6 & 0x3f));
			utf8[n++] = (char)(0x80 | (key & 0x3f));
		}
		if (app->input_len + n < sizeof(app->input)) {
			memcpy(app->input + app->input_len, utf8, n);
			app->input_len += n;
			app->input[app->input_len] = '\0';
		}
	}
}

void
heap_app_key(struct heap_app *app, int key)
{
	enum request req;
	void *state;
	struct list *l;

	if (app->prompt) {
		prompt_key(app, key);
		return;
	}
	app->message[0] = '\0';
	if (key >= '1' && key <= '7') {
		app->view = (enum heap_view)(key - '1');
		state_of(app, app->view);
		return;
	}
	req = keymap_lookup(key);
	state = state_of(app, app->view);
	l = views[app->view]->list ? views[app->view]->list(state) : NULL;
	switch (req) {
	case REQ_QUIT:
		app->quit = true;
		return;
	case REQ_REDRAW:
		atomic_store(&app->bg->hold, false);
		return;
	case REQ_VIEW_NEXT:
	case REQ_VIEW_PREV: {
		int n = HEAP_VIEW_HELP,
		    v = app->view == HEAP_VIEW_HELP ? 0 : (int)app->view;

		v = (v + (req == REQ_VIEW_NEXT ? 1 : n - 1)) % n;
		app->view = (enum heap_view)v;
		state_of(app, app->view);
		return;
	}
	case REQ_VIEW_HELP:
		heap_app_go(app, HEAP_VIEW_HELP, HEAP_NONE, HEAP_NONE);
		return;
	case REQ_HISTORY_BACK:
		if (!history_step(app, -1))
			heap_app_message(app, false, "at the history's start");
		return;
	case REQ_HISTORY_FORWARD:
		if (!history_step(app, 1))
			heap_app_message(app, false, "at the history's end");
		return;
	case REQ_SAMPLE_TYPE:
		next_heap(app);
		return;
	case REQ_COLUMNS:
		app->all_columns = !app->all_columns;
		return;
	case REQ_SEARCH:
	case REQ_FILTER:
	case REQ_WRITE_VIEW:
		app->prompt = req == REQ_SEARCH   ? '/'
		              : req == REQ_FILTER ? '&'
		                                  : 'w';
		app->input_len = 0;
		app->input[0] = '\0';
		return;
	case REQ_SEARCH_NEXT:
		search(app, 1);
		return;
	case REQ_SEARCH_PREV:
		search(app, -1);
		return;
	default:
		break;
	}
	if (views[app->view]->handle &&
	    views[app->view]->handle(state, app, req))
		return;
	if (l && list_move(l, req))
		return;
	if (req == REQ_BACK_OUT && !history_step(app, -1))
		heap_app_message(app, false, "at the history's start");
}

/* The title line: the file, the view, its own words, the heaps. */
static void
draw_title(struct heap_app *app, struct canvas *c)
{
	const struct heap_view_ops *v = views[app->view];
	char *extra = v->title ? v->title(app->state[app->view], app) : NULL;
	char *t = xasprintf("%s  %s%s  heap %s", app->name, v->name,
	                    app->has_kept[app->view] ? " (filtered)" : "",
	                    app->heap);
	char *full = extra ? xasprintf("%s  %s", t, extra) : xstrdup(t);

	/* What does not fit gives way: the view's words, then the file's
	 * name. */
	if ((int)text_width(full) > c->width) {
		free(full);
		full = xstrdup(t);
	}
	if ((int)text_width(full) > c->width) {
		free(full);
		full = xasprintf("%s%s  heap %s", v->name,
		                 app->has_kept[app->view] ? " (filtered)" : "",
		                 app->heap);
	}

	canvas_fill(c, 0, 0, c->width, " ", ROLE_TITLE);
	canvas_text(c, 0, 0, c->width, full, ROLE_TITLE);
	free(full);
	free(t);
	free(extra);
}

/* The status line: a pattern typed, a message, or the selection, with
 * the row's place and the second thread's work on the right. */
static void
draw_status(struct heap_app *app, struct canvas *c)
{
	const struct heap_view_ops *v = views[app->view];
	void *state = app->state[app->view];
	struct list *l = v->list ? v->list(state) : NULL;
	int y = c->height - 2, rw = 0;
	char *text, *right = NULL;
	enum role role = ROLE_STATUS;

	canvas_fill(c, 0, y, c->width, " ", ROLE_STATUS);
	if (app->prompt) {
		text = app->prompt == 'w'
		               ? xasprintf("write to: %s", app->input)
		               : xasprintf("%c%s", app->prompt, app->input);
		canvas_text(c, 0, y, c->width, text, ROLE_STATUS);
		free(text);
		return;
	}
	if (heap_app_busy(app))
		right = xstrdup(!app->dom     ? "computing dominators..."
		                : !app->paths ? "computing paths..."
		                              : "finding leaks...");
	else if (l && list_visible(l))
		right = xasprintf("row %zu of %zu", list_position(l),
		                  list_visible(l));
	if (app->message[0]) {
		text = xstrdup(app->message);
		if (app->message_warn)
			role = ROLE_WARNING;
	} else {
		text = v->status ? v->status(state, app) : NULL;
	}
	if (right) {
		rw = (int)text_width(right);
		if (rw < c->width)
			canvas_text(c, c->width - rw, y, rw, right,
			            ROLE_STATUS);
		else
			rw = 0;
	}
	if (text)
		canvas_text(c, 0, y, c->width - rw - (rw ? 1 : 0), text, role);
	free(text);
	free(right);
}

static void
draw_hints(struct heap_app *app, struct canvas *c)
{
	char *hints = xasprintf("%s  /:search  Tab:views  ?:help  q:quit",
	                        views[app->view]->hints);

	/* Too wide: whole hints give way from the right. */
	while ((int)text_width(hints) > c->width) {
		char *last = NULL, *p;

		for (p = strstr(hints, "  "); p; p = strstr(p + 2, "  "))
			last = p;
		if (!last)
			break;
		*last = '\0';
	}
	canvas_fill(c, 0, c->height - 1, c->width, " ", ROLE_HINT);
	canvas_text(c, 0, c->height - 1, c->width, hints, ROLE_HINT);
	free(hints);
}

void
heap_app_draw(struct heap_app *app, struct canvas *c)
{
	canvas_clear(c);
	if (c->width < MIN_WIDTH || c->height < MIN_HEIGHT) {
		char *msg =
		        xasprintf("tracetui needs %dx%d (now %dx%d)", MIN_WIDTH,
		                  MIN_HEIGHT, c->width, c->height);

		canvas_text(c, 0, 0, c->width, msg, ROLE_WARNING);
		free(msg);
		return;
	}
	draw_title(app, c);
	views[app->view]->draw(state_of(app, app->view), app, c, 1,
	                       c->height - 3);
	draw_status(app, c);
	draw_hints(app, c);
}
