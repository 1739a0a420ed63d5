/*
 * unit-preview: the viewer's first screen drawn from a trace read for
 * its sums only (the calls still loading) is the screen of the model,
 * cell for cell: the profile of all threads and of one thread, on every
 * clock, with a drill-down open, sorted, searched and filtered, the
 * threads and info views, the icicle and the call tree on the call paths
 * read with the sums; requests that need calls are refused with
 * the load's percentage; and when the model arrives (app_take_calls)
 * the view, sort, selection, scope, clocks and filter stay as they
 * were, and the views of calls work.  `make check` takes one fixture
 * trace of each kind and one real trace of each family; check-long adds
 * every fixture trace and every real trace in $SHARED_TRACES.
 */
#include "config.h"

#include "model/open.h"
#include "tui/app.h"
#include "tui/keymap.h"

#include "tap.h"

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

enum { W = 140, H = 40 };

static struct calltree *
load(const char *path, bool sums)
{
	struct calltree_load_options o = {.sums_only = sums, .paths = sums};
	struct trace_error err = {0};
	struct calltree *tree = calltree_load_with(path, &o, &err);

	trace_error_clear(&err);
	return tree;
}

/* The screen app draws, as text, then its roles; the status line
 * (which says the calls are loading) left out unless whole. */
static char *
screen(struct app *app, struct canvas *c, bool whole)
{
	char *text = NULL;
	size_t size = 0, i, line = 0, out;
	FILE *f = open_memstream(&text, &size);

	app_draw(app, c);
	canvas_dump(c, f);
	canvas_dump_roles(c, f);
	fclose(f);
	if (whole)
		return text;
	/* The status line (row H - 2) and the hint line (H - 1, whose
	 * end holds the calls' loading note where the status needs its
	 * line) of the screen and of its roles dropped, in place. */
	for (i = 0, out = 0; i < size; i++) {
		if (line % H < H - 2 || text[i] == '\n')
			text[out++] = text[i];
		line += text[i] == '\n';
	}
	text[out] = '\0';
	return text;
}

/* The row of the screen drawn last holding text, or NULL. */
static bool
status_has(struct app *app, struct canvas *c, const char *text)
{
	char *s = screen(app, c, true);
	char *at = strstr(s, text);
	bool found = false;

	if (at) {
		size_t row = 0;
		char *p;

		for (p = s; p < at; p++)
			row += *p == '\n';
		found = row == H - 2;
	}
	free(s);
	return found;
}

static int failed_screens;

/* The screens of a (the model) and b (its sums) are the same. */
static void
same(struct app *a, struct app *b, struct canvas *c, const char *name,
     const char *what, bool whole)
{
	char *x = screen(a, c, whole), *y = screen(b, c, whole);
	bool eq = strcmp(x, y) == 0;

	if (!eq && failed_screens++ < 3)
		printf("# model:\n%s# sums:\n%s", x, y);
	ok(eq, "%s: %s: the same screen", name, what);
	free(x);
	free(y);
}

/* The same request to both apps. */
static void
both(struct app *a, struct app *b, enum request req)
{
	app_request(a, req);
	app_request(b, req);
}

/* The refusals and messages of a preview, on one trace's sums. */
static void
refusals(const char *path, const char *name, struct canvas *c)
{
	struct app *p = app_new(load(path, true));
	uint32_t m;

	p->calls_percent = 43;
	ok(status_has(p, c, "calls loading 43%"),
	   "%s: the status line says the calls are loading, 43%%", name);
	app_key(p, 'T');
	is_str(p->message, "calls still loading: 43%; Timeline opens when read",
	       "%s: the timeline waits for the calls", name);
	ok(p->view == APP_VIEW_PROFILE, "%s: the profile stays", name);
	app_request(p, REQ_VIEW_ICICLE);
	ok(p->view == APP_VIEW_ICICLE,
	   "%s: the icicle opens on the paths read with the sums", name);
	app_request(p, REQ_VIEW_CALLTREE);
	ok(p->view == APP_VIEW_CALLTREE, "%s: the call tree too", name);
	app_request(p, REQ_VIEW_PROFILE);
	m = p->sel.method;
	app_request(p, REQ_TRANSFORM_MERGE);
	is_str(p->message, "calls still loading: 43%", "%s: a transform too",
	       name);
	ok(p->ntransforms == 0 && p->sel.method == m, "%s: nothing transformed",
	   name);
	app_request(p, REQ_VIEW_NEXT);
	ok(p->view == APP_VIEW_ICICLE,
	   "%s: Tab skips the timeline to the icicle", name);
	is_str(p->message, "calls still loading: 43%", "%s: and says why",
	       name);
	app_request(p, REQ_VIEW_PREV);
	ok(p->view == APP_VIEW_PROFILE, "%s: S-Tab back to the profile", name);
	app_request(p, REQ_VIEW_PREV);
	ok(p->view == APP_VIEW_CALLTREE, "%s: S-Tab to the call tree", name);
	app_request(p, REQ_VIEW_PROFILE);
	p->calls_error = strdup("offset 12: the file shrank");
	app_request(p, REQ_VIEW_TIMELINE);
	is_str(p->message, "no calls: offset 12: the file shrank",
	       "%s: a read that failed says why", name);
	ok(p->message_is_error, "%s: as an error", name);
	app_request(p, REQ_QUIT);
	ok(p->quit, "%s: q quits", name);
	app_free(p);
}

/* T while the calls load, then `then` (APP_VIEW_COUNT: nothing): when
 * the calls come, the view is `want`. */
static void
pending_case(const char *path, const char *name, enum app_view then,
             enum app_view want, const char *what)
{
	struct app *p = app_new(load(path, true));

	app_request(p, REQ_VIEW_TIMELINE);
	if (then == APP_VIEW_ICICLE)
		app_request(p, REQ_VIEW_ICICLE);
	else if (then == APP_VIEW_THREADS)
		app_request(p, REQ_VIEW_THREADS);
	app_take_calls(p, load(path, false));
	ok(p->view == want, "%s: %s", name, what);
	app_free(p);
}

/* A view asked for while the calls load opens when they come, unless
 * another view was chosen since. */
static void
pending(const char *path, const char *name)
{
	pending_case(path, name, APP_VIEW_COUNT, APP_VIEW_TIMELINE,
	             "T while the calls load: the timeline once they come");
	pending_case(path, name, APP_VIEW_ICICLE, APP_VIEW_ICICLE,
	             "a view opened since: it stays when they come");
	pending_case(path, name, APP_VIEW_THREADS, APP_VIEW_THREADS,
	             "another view chosen since: it stays");
}

/* The icicle and the call tree, on the calls (a) and on the paths read
 * with the sums (b): top-down, bottom-up, moved, zoomed and expanded;
 * then back to the profile. */
static void
paths_views(struct app *a, struct app *b, struct canvas *c, const char *name)
{
	both(a, b, REQ_VIEW_ICICLE);
	same(a, b, c, name, "the icicle", false);
	both(a, b, REQ_MOVE_DOWN);
	both(a, b, REQ_MOVE_DOWN);
	both(a, b, REQ_ENTER); /* zoom */
	same(a, b, c, name, "the icicle zoomed", false);
	both(a, b, REQ_INVERT);
	same(a, b, c, name, "the icicle bottom-up", false);
	both(a, b, REQ_INVERT);
	both(a, b, REQ_VIEW_CALLTREE);
	same(a, b, c, name, "the call tree", false);
	both(a, b, REQ_MOVE_DOWN);
	both(a, b, REQ_EXPAND);
	both(a, b, REQ_MOVE_DOWN);
	both(a, b, REQ_EXPAND);
	same(a, b, c, name, "the call tree expanded", false);
	both(a, b, REQ_INVERT);
	same(a, b, c, name, "the call tree bottom-up", false);
	both(a, b, REQ_INVERT);
	both(a, b, REQ_VIEW_PROFILE);
}

/* The icicle first shown after the calls came to a preview that never
 * showed it, on the paths the sums had read: the model's. */
static void
paths_after_calls(const char *path, const char *name, struct canvas *c)
{
	struct app *a = app_new(load(path, false)),
	           *b = app_new(load(path, true));

	if (b->tree->sums)
		app_take_calls(b, load(path, false));
	both(a, b, REQ_VIEW_ICICLE);
	same(a, b, c, name, "the icicle first shown on the calls", true);
	both(a, b, REQ_INVERT);
	same(a, b, c, name, "and inverted", true);
	app_free(a);
	app_free(b);
}

/* Steps that need only the profile, on the model and on the sums; then
 * the sums' app takes the model and must show what the model's does. */
static void
check(const char *path, const char *name, struct canvas *c, size_t *summed)
{
	struct calltree *full = load(path, false), *sums;
	struct app *a, *b;
	int k;

	if (!full)
		return; /* unreadable either way */
	sums = load(path, true);
	if (!ok(sums != NULL, "%s: read for its sums", name)) {
		calltree_free(full);
		return;
	}
	if (sums->sums)
		(*summed)++;
	a = app_new(full);
	b = app_new(sums);
	same(a, b, c, name, "the first screen", false);
	paths_views(a, b, c, name);
	/* Every clock, and the column sorted on each. */
	for (k = 0; k < 3; k++) {
		both(a, b, REQ_CLOCK);
		both(a, b, REQ_SORT_NEXT);
		same(a, b, c, name, "another clock and sort", false);
	}
	both(a, b, REQ_MOVE_DOWN);
	both(a, b, REQ_ENTER);
	both(a, b, REQ_MOVE_DOWN);
	both(a, b, REQ_MOVE_DOWN);
	same(a, b, c, name, "a drill-down open", false);
	both(a, b, REQ_ENTER); /* a jump to a parent or child */
	same(a, b, c, name, "a jump along a link", false);
	app_search(a, "[a-m]");
	app_search(b, "[a-m]");
	same(a, b, c, name, "a search", false);
	both(a, b, REQ_VIEW_THREADS);
	same(a, b, c, name, "the threads", false);
	both(a, b, REQ_SORT_NEXT); /* by calls: counted from the sums */
	same(a, b, c, name, "the threads by calls", false);
	both(a, b, REQ_SORT_PREV);
	both(a, b, REQ_MOVE_FIRST);
	both(a, b, REQ_ENTER); /* the longest thread's scope */
	same(a, b, c, name, "one thread's profile", false);
	both(a, b, REQ_MOVE_DOWN);
	both(a, b, REQ_EXPAND);
	same(a, b, c, name, "one thread's drill-down", false);
	app_filter(a, "[n-z]");
	app_filter(b, "[n-z]");
	same(a, b, c, name, "a filter", false);
	both(a, b, REQ_VIEW_INFO);
	same(a, b, c, name, "the info", false);
	both(a, b, REQ_VIEW_HELP);
	same(a, b, c, name, "the help", false);
	both(a, b, REQ_VIEW_PROFILE);
	both(a, b, REQ_SORT_REVERSE);
	both(a, b, REQ_MOVE_DOWN);
	/* The model arrives: nothing the user set moves.  (A trace the
	 * sums could not take came as its model at once.) */
	if (b->tree->sums)
		app_take_calls(b, load(path, false));
	ok(b->sel.method == a->sel.method,
	   "%s: the selection survives the model", name);
	ok(b->view == a->view && b->clocks == a->clocks &&
	           b->scope.count == a->scope.count,
	   "%s: the view, clocks and scope survive", name);
	same(a, b, c, name, "the model taken over", false);
	both(a, b, REQ_MOVE_DOWN);
	same(a, b, c, name, "a move after it, status line and all", true);
	both(a, b, REQ_VIEW_ICICLE);
	same(a, b, c, name, "the icicle on the calls", true);
	both(a, b, REQ_VIEW_CALLTREE);
	same(a, b, c, name, "the call tree on the calls", true);
	both(a, b, REQ_VIEW_TIMELINE);
	same(a, b, c, name, "the timeline on the calls", true);
	app_free(a);
	app_free(b);
	paths_after_calls(path, name, c);
}

/* Whether the fixture trace NAME is checked: all of them under the long
 * tier; in `make check` one of each kind: each version on both clocks,
 * a generated and a streaming trace, unbalanced exits, unwinding,
 * recursion, a broken file, a drawn one. */
static bool
fast_fixture(const char *name)
{
	static const char *const fast[] = {"v1-dual.trace",
	                                   "v2-dual.trace",
	                                   "v3-dual.trace",
	                                   "generated-stream.trace",
	                                   "stream-f2.trace",
	                                   "orphan-exits.trace",
	                                   "mismatched-exit.trace",
	                                   "unwind.trace",
	                                   "recursion-indirect.trace",
	                                   "broken-truncated-record.trace",
	                                   "render-calls.trace"};

	return tap_kept(name, fast, sizeof(fast) / sizeof(*fast));
}

/* Every NAME.trace in dir that `keep` keeps, checked; the first one
 * summed also for the refusals. */
static void
check_dir(const char *dir, struct canvas *c, size_t *summed, bool *refused,
          bool (*keep)(const char *name))
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, i;

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len > 6 && !strcmp(e->d_name + len - 6, ".trace") &&
		    keep(e->d_name)) {
			names = realloc(names, (n + 1) * sizeof(*names));
			names[n++] = strdup(e->d_name);
		}
	}
	closedir(d);
	for (i = 0; i < n; i++) {
		char *path = malloc(strlen(dir) + strlen(names[i]) + 2);
		size_t before = *summed;

		sprintf(path, "%s/%s", dir, names[i]);
		check(path, names[i], c, summed);
		if (*summed > before && !*refused) {
			refusals(path, names[i], c);
			pending(path, names[i]);
			*refused = true;
		}
		free(path);
		free(names[i]);
	}
	free(names);
}

static uint64_t last_done, last_total;

static void
on_progress(void *arg, uint64_t done, uint64_t total)
{
	(void)arg;
	last_done = done;
	last_total = total;
}

/* The percentage the viewer shows while the calls load is the model's
 * progress: on a trace of several threads read by several workers its
 * last report must be the whole file, not where the first worker's own
 * threads ended. */
static void
progress_to_the_end(void)
{
	const char *mktrace = getenv("MKTRACE");
	char path[] = "/tmp/unit-preview-XXXXXX", *cmd;
	unsigned records = tap_long() ? 400000 : 100000;
	struct calltree_load_options o = {.progress = on_progress};
	struct trace_error err = {0};
	struct calltree *tree;
	FILE *f;
	int fd = mkstemp(path);

	if (!mktrace || !*mktrace || fd < 0) {
		ok(true, "# SKIP no MKTRACE to write a trace with");
		return;
	}
	close(fd);
	cmd = malloc(strlen(mktrace) + strlen(path) + 8);
	sprintf(cmd, "%s - %s", mktrace, path);
	signal(SIGPIPE, SIG_IGN); /* a mktrace that fails says so below */
	f = popen(cmd, "w");
	/* Past the 65536 records a worker takes (make check: 100000;
	 * check-long: 400000). */
	fprintf(f,
	        "format v1\nversion 3\nclock dual\nvm art\ngenerate "
	        "threads=6 methods=300 records=%u seed=3 maxdepth=30\n",
	        records);
	ok(pclose(f) == 0, "mktrace wrote a trace of %u records", records);
	tree = calltree_load_with(path, &o, &err);
	ok(tree && last_total && last_done == last_total,
	   "the model's last progress report is the whole file (%llu of "
	   "%llu)",
	   (unsigned long long)last_done, (unsigned long long)last_total);
	calltree_free(tree);
	trace_error_clear(&err);
	unlink(path);
	free(cmd);
}

/* The profile of a streaming trace big enough to split is summed with
 * its first worker ahead of the report; the second, which alone runs
 * on the loading thread then, reports what both have summed: its last
 * report is past its own share (the file's last half at most). */
static void
progress_ahead(void)
{
	const char *mktrace = getenv("MKTRACE");
	char path[] = "/tmp/unit-preview-XXXXXX", *cmd;
	struct calltree_load_options o = {
	        .progress = on_progress, .sums_only = true, .paths = true};
	struct trace_error err = {0};
	struct calltree *tree;
	FILE *f;
	int fd = mkstemp(path);

	if (!mktrace || !*mktrace || fd < 0) {
		ok(true, "# SKIP no MKTRACE to write a trace with");
		return;
	}
	close(fd);
	cmd = malloc(strlen(mktrace) + strlen(path) + 8);
	sprintf(cmd, "%s - %s", mktrace, path);
	f = popen(cmd, "w");
	fputs("format stream\nversion 3\nclock dual\nvm art\n"
	      "stream-methods both\ngenerate threads=3 methods=300 "
	      "records=1200000 seed=4 maxdepth=30\n",
	      f);
	ok(pclose(f) == 0,
	   "mktrace wrote a streaming trace of 1200000 records");
	last_done = last_total = 0;
	tree = calltree_load_with(path, &o, &err);
	ok(tree && tree->sums && last_total && last_done > last_total / 2 &&
	           last_done <= last_total,
	   "the sums' last progress report counts the records summed ahead "
	   "(%llu of %llu)",
	   (unsigned long long)last_done, (unsigned long long)last_total);
	calltree_free(tree);
	trace_error_clear(&err);
	unlink(path);
	free(cmd);
}

int
main(void)
{
	const char *top = getenv("top_builddir");
	const char *shared = getenv("SHARED_TRACES");
	struct canvas *c = canvas_new(W, H, true);
	char dir[4096];
	size_t summed = 0, real = 0;
	bool refused = false;

	snprintf(dir, sizeof(dir), "%s/tests/fixture-traces", top ? top : ".");
	check_dir(dir, c, &summed, &refused, fast_fixture);
	ok(summed > 0, "fixture traces read for their sums: %zu", summed);
	if (shared && *shared) {
		check_dir(shared, c, &real, &refused, tap_fast_trace);
		printf("# real traces read for their sums: %zu\n", real);
	}
	ok(refused, "the refusals checked");
	progress_to_the_end();
	progress_ahead();
	canvas_free(c);
	return done_testing();
}
