/*
 * viewer: option parsing like the batch commands, then the key loop:
 * draw, paint, read a key, hand it to the app.
 */
#include "config.h"

#include "tui/viewer.h"

#include "tui/app.h"
#include "cli/cmd.h"
#include "query/triage-rules.h"
#include "model/open.h"
#include "read/load.h"
#include "tui/heap-viewer.h"
#include "tui/keymap.h"
#include "tui/loading.h"
#include "tui/source.h"
#include "tui/term.h"
#include "util/alloc.h"

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct cmd_spec viewer_spec = {
        .name = "viewer",
        .args = "FILE",
        .summary = "Open FILE in the interactive viewer (keys: press ? "
                   "inside).",
        .options = OPT_THREAD | OPT_CLOCK | OPT_RANGE | OPT_ASCII | OPT_COLOR |
                   OPT_MOUSE | OPT_MAPPING | OPT_BASE | OPT_SAMPLE_TYPE |
                   OPT_FULL_NAMES | OPT_SOURCE_DIR | OPT_FRAMES |
                   OPT_TRANSFORM | OPT_RULES | OPT_HEAP_SHOWN,
        .min_args = 1,
        .max_args = 1,
};

void
viewer_help_options(void)
{
	cmd_help_options(&viewer_spec);
}

static bool
locale_is_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

/* Run the editor (o) with the terminal handed over to it, then take
 * the terminal back exactly as it was. */
static int
run_editor(char *const *argv)
{
	int rc, err;

	term_suspend();
	rc = source_run(argv);
	err = errno;
	term_resume();
	errno = err;
	return rc;
}

/* The request that shows view v. */
static enum request
view_request(enum app_view v)
{
	static const enum request shows[APP_VIEW_COUNT] = {
	        [APP_VIEW_PROFILE] = REQ_VIEW_PROFILE,
	        [APP_VIEW_TIMELINE] = REQ_VIEW_TIMELINE,
	        [APP_VIEW_ICICLE] = REQ_VIEW_ICICLE,
	        [APP_VIEW_THREADS] = REQ_VIEW_THREADS,
	        [APP_VIEW_INFO] = REQ_VIEW_INFO,
	        [APP_VIEW_HELP] = REQ_VIEW_HELP,
	};

	return shows[v];
}

/* The command line's transforms as it writes them, joined by " > "
 * ("--focus RE > --collapse-recursion"); NULL for none. */
static char *
loaded_with(const struct cmd_opts *opts)
{
	char *text = NULL, *more;
	size_t i;

	for (i = 0; i < opts->ntransforms; i++) {
		const struct transform_step *s = &opts->transforms[i];
		const char *what =
		        s->kind == TRANSFORM_COLLAPSE_CLASS ||
		                        s->kind == TRANSFORM_GROUP_CLASS
		                ? "class"
		        : s->kind == TRANSFORM_COLLAPSE_PACKAGE ||
		                        s->kind == TRANSFORM_GROUP_PACKAGE
		                ? "package"
		                : s->regex;

		more = xasprintf("%s%s%s%s%s", text ? text : "",
		                 text ? " > " : "", transforms_option(s->kind),
		                 what ? " " : "", what ? what : "");
		free(text);
		text = more;
	}
	return text;
}

/* The command line's transforms applied to tree (which goes), as the
 * batch commands apply them; NULL after saying why in app's status. */
static struct calltree *
transformed(struct app *app, const struct cmd_opts *opts, struct calltree *tree)
{
	const char *unmatched;
	char *refused = NULL;

	if (!opts->ntransforms || !tree)
		return tree;
	tree = transforms_apply(tree, opts->transforms, opts->ntransforms,
	                        &unmatched, &refused);
	if (!tree) {
		app_message(app, true, "cannot read the file again: %s",
		            refused);
		free(refused);
	}
	return tree;
}

/*
 * The file (and --base) read again on the sample type app asks for (y),
 * in a new app on the same view; the old app, told why, when a file can
 * no longer be read.
 */
static struct app *
reload_sample_type(struct app *app, const struct cmd_opts *opts)
{
	char type[32];
	struct calltree_load_options o = {
	        .sample_type = type,
	        .java_only = app->java_only,
	        .frame_methods = cmd_load_frame_methods,
	        .frame_arg = (void *)opts->frame_method};
	struct trace_error err = {0};
	struct calltree *tree, *base = NULL;
	struct scope scope;
	struct time_range range;
	struct app *fresh;

	snprintf(type, sizeof(type), "%ld", app->sample_type_wanted);
	app->sample_type_wanted = -1;
	app->quit = false;
	if (strcmp(opts->args[0], "-") == 0 ||
	    (opts->base && strcmp(opts->base, "-") == 0)) {
		app_message(app, true,
		            "standard input cannot be read again "
		            "for another sample type: name the file");
		return app;
	}
	tree = calltree_load_with(opts->args[0], &o, &err);
	if (tree && opts->base)
		base = calltree_load_with(opts->base, &o, &err);
	if (!tree || (opts->base && !base)) {
		app_message(app, true, "cannot read the file again: %s",
		            err.message);
		trace_error_clear(&err);
		calltree_free(tree);
		return app;
	}
	if (opts->names) {
		mapping_apply(opts->names, tree);
		if (base)
			mapping_apply(opts->names, base);
	}
	tree = transformed(app, opts, tree);
	if (base && !(base = transformed(app, opts, base))) {
		calltree_free(tree);
		return app;
	}
	if (!tree) {
		calltree_free(base);
		return app;
	}
	fresh = app_new(tree);
	fresh->loaded_with = loaded_with(opts);
	if (base) {
		app_set_base(fresh, base, opts->base);
		calltree_free(base);
	}
	if (!cmd_scope(&scope, tree, opts))
		scope_init_all(&scope, tree);
	range = scope.range;
	app_set_scope(fresh, &scope);
	if (range.on)
		app_set_range(fresh, &range);
	/* The clocks as the user left them, unless the app chose one
	 * for equal clocks: the new sample type chooses again. */
	if (!app->clocks_agree && !fresh->clocks_agree)
		fresh->clocks = app->clocks;
	fresh->java_only = app->java_only;
	fresh->full_names = app->full_names;
	app_take_history(fresh, app);
	fresh->notice = app->notice;
	fresh->key_waiting = app->key_waiting;
	fresh->screen_width = app->screen_width;
	fresh->run_editor = app->run_editor;
	fresh->source_dirs = app->source_dirs;
	fresh->nsource_dirs = app->nsource_dirs;
	fresh->frame_method = app->frame_method;
	fresh->frame_budget = app->frame_budget;
	fresh->rules = app->rules;
	if (app->view != APP_VIEW_PROFILE)
		app_request(fresh, view_request(app->view));
	if (tree->header.format == TRACE_FORMAT_SIMPLEPERF)
		app_message(fresh, false, "event type %s%s",
		            calltree_property(tree, "simpleperf-event-type"),
		            app->java_only ? ", Java frames only" : "");
	else
		app_message(fresh, false, "sample type %s",
		            calltree_property(tree, "pprof-sample-type"));
	app_free(app);
	return fresh;
}

/* The model read after the sums app shows, once rest is over: taken by
 * the app, or, when that read failed, the reason kept for the status
 * line. */
static void
take_calls(struct app *app, struct loading **rest, const struct cmd_opts *opts)
{
	struct trace_error err = {0};
	struct calltree *tree = loading_finish(*rest, &err);

	*rest = NULL;
	term_reading(false);
	if (!tree) {
		app->calls_error = xstrdup(err.message ? err.message : "?");
		trace_error_clear(&err);
		return;
	}
	if (opts->names)
		mapping_apply(opts->names, tree);
	app_take_calls(app, tree);
}

/*
 * "tracetui -": the trace comes on standard input, so the keys come from
 * the terminal (/dev/tty): the pipe moves to a descriptor of its own,
 * which "-" then reads (trace_set_stdin, once: y cannot read it again),
 * and the terminal takes standard input's place.  False after a message
 * when there is no pipe or no terminal.
 */
static bool
take_piped_trace(void)
{
	int in, tty;

	if (isatty(STDIN_FILENO)) {
		cmd_error(NULL, "'-' reads the trace from standard input, "
		                "which is the terminal here: pipe a trace in "
		                "(cat FILE | tracetui -) or name the file");
		return false;
	}
	tty = open("/dev/tty", O_RDWR | O_CLOEXEC);
	if (tty < 0) {
		cmd_error(NULL,
		          "the viewer reads its keys from the terminal "
		          "(/dev/tty: %s) while the trace comes on standard "
		          "input; for text, try 'tracetui report -'",
		          strerror(errno));
		return false;
	}
	in = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
	if (in < 0 || dup2(tty, STDIN_FILENO) < 0) {
		cmd_error(NULL, "cannot keep standard input: %s",
		          strerror(errno));
		close(tty);
		return false;
	}
	close(tty);
	trace_set_stdin(in);
	return true;
}

/* The viewer, its options parsed (released here) and its rules read. */
static int
viewer_run(struct cmd_opts opts, const struct triage_rules *rules)
{
	struct calltree *tree, *base = NULL;
	struct loading *rest = NULL;
	struct scope scope;
	struct app *app;
	struct canvas *canvas;
	char *error = NULL;
	int width, height;
	enum clock_index clock;
	struct time_range range;
	int status;

	if (strcmp(opts.args[0], "-") != 0 &&
	    trace_is_heap_dump(opts.args[0])) {
		status = heap_viewer_run(&opts);
		cmd_opts_done(&opts);
		return status;
	}
	if (opts.heap) {
		cmd_error(NULL,
		          "--heap is for Java heap dumps (binary HPROF) "
		          "only, and %s is not one",
		          opts.args[0]);
		cmd_opts_done(&opts);
		return CMD_USAGE;
	}
	if (strcmp(opts.args[0], "-") == 0 && !take_piped_trace()) {
		cmd_opts_done(&opts);
		return CMD_USAGE;
	}
	/* A file that cannot be read is reported before the terminal is
	 * needed, as a --mapping that cannot be is. */
	if (opts.base && !(base = cmd_load(&opts, opts.base))) {
		cmd_opts_done(&opts);
		return cmd_load_status();
	}
	if (!cmd_openable(opts.args[0])) {
		calltree_free(base);
		cmd_opts_done(&opts);
		return opts.base && !base ? cmd_load_status() : CMD_INPUT;
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		cmd_error(NULL,
		          "the viewer needs a terminal; for text, try "
		          "'tracetui report %s'",
		          opts.args[0]);
		calltree_free(base);
		cmd_opts_done(&opts);
		return CMD_USAGE;
	}
	if (!term_usable(&error)) {
		cmd_error(NULL, "%s", error);
		free(error);
		calltree_free(base);
		cmd_opts_done(&opts);
		return CMD_USAGE;
	}
	tree = loading_run(&opts, opts.args[0], &status, &rest);
	if (!tree) {
		calltree_free(base);
		cmd_opts_done(&opts);
		return status;
	}
	if (!cmd_scope(&scope, tree, &opts) ||
	    !cmd_clock(tree, &opts, &clock)) {
		if (rest)
			loading_abandon(rest);
		calltree_free(tree);
		calltree_free(base);
		cmd_opts_done(&opts);
		return CMD_USAGE;
	}
	app = app_new(tree);
	app->loaded_with = loaded_with(&opts);
	app->java_only = opts.java_only;
	if (base) {
		app_set_base(app, base, opts.base);
		calltree_free(base);
	}
	if (opts.clock >= 0)
		app->clocks =
		        clock == CLOCK_CPU ? APP_CLOCKS_CPU : APP_CLOCKS_WALL;
	app->full_names = opts.full_names;
	range = scope.range;
	app_set_scope(app, &scope);
	if (range.on)
		app_set_range(app, &range);
	term_reading(rest != NULL);
	if (!term_open(opts.color, !opts.no_mouse, &error)) {
		cmd_error(NULL, "%s", error);
		free(error);
		if (rest)
			loading_abandon(rest);
		app_free(app);
		cmd_opts_done(&opts);
		return CMD_USAGE;
	}
	app->notice = term_notice;
	app->key_waiting = term_key_waiting;
	app->run_editor = run_editor;
	app->source_dirs = opts.source_dirs;
	app->nsource_dirs = opts.nsource_dirs;
	app->frame_method = opts.frame_method;
	app->frame_budget = opts.budget;
	app->rules = rules;
	term_size(&width, &height);
	canvas = canvas_new(width, height, opts.ascii || !locale_is_utf8());
	app->screen_width = width;
	while (!term_interrupted()) {
		int key;

		if (app->quit && app->sample_type_wanted >= 0)
			app = reload_sample_type(app, &opts);
		if (app->quit)
			break;
		if (rest) {
			app->calls_percent = loading_percent(rest);
			if (loading_over(rest))
				take_calls(app, &rest, &opts);
		}
		/* A storm of keys is read through before anything is drawn
		 * or made for it: a transform a newer key supersedes is
		 * never made, and q quits at once. */
		if (!term_key_waiting()) {
			app_settle(app);
			if (!term_key_waiting()) {
				app_draw(app, canvas);
				term_paint(canvas);
			}
		}
		/* While the calls load, the status line's percentage is
		 * redrawn a few times a second. */
		key = rest ? term_read_key_within(250) : term_read_key();
		if (key == TKEY_WAITING)
			continue;
		if (key == TKEY_NONE)
			break;
		if (key == TKEY_MOUSE) {
			struct mouse_event ev;

			term_mouse(&ev);
			app_mouse(app, &ev);
			continue;
		}
		if (key == TKEY_RESIZE) {
			term_size(&width, &height);
			canvas_resize(canvas, width, height);
			app->screen_width = width;
		}
		app_key(app, key);
	}
	term_close();
	/* Quit while the calls load: the read dies with the process. */
	if (rest)
		loading_abandon(rest);
	canvas_free(canvas);
	app_free(app);
	cmd_opts_done(&opts);
	/* Ended by a signal: the shell's 128 + its number (130 for SIGINT,
	 * 143 for SIGTERM, 129 for SIGHUP or a vanished terminal). */
	return term_signal_number() ? 128 + term_signal_number() : CMD_OK;
}

int
viewer_main(int argc, char **argv)
{
	struct cmd_opts opts;
	struct triage_rules rules = {0};
	int status = cmd_parse(&viewer_spec, argc, argv, &opts);

	if (status >= 0)
		return status;
	/* The Findings view's rules where the options change them, refused
	 * before the terminal is; else the view compiles the built-in
	 * table's patterns when it first shows (a start of the viewer
	 * would spend a millisecond on them). */
	if (cmd_triage_rules_given(&opts) &&
	    !cmd_triage_rules(&rules, &opts, "viewer")) {
		triage_rules_done(&rules);
		cmd_opts_done(&opts);
		return CMD_USAGE;
	}
	status =
	        viewer_run(opts, cmd_triage_rules_given(&opts) ? &rules : NULL);
	triage_rules_done(&rules);
	return status;
}
