/*
 * viewer: option parsing like the batch commands, then the key loop:
 * draw, paint, read a key, hand it to the app.
 */
#include "config.h"

#include "tui/viewer.h"

#include "tui/app.h"
#include "cli/cmd.h"
#include "tui/keymap.h"
#include "tui/term.h"

#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct cmd_spec viewer_spec = {
        .name = "viewer",
        .args = "FILE",
        .summary = "Open FILE in the interactive viewer (keys: press ? "
                   "inside).",
        .options = OPT_THREAD | OPT_CLOCK | OPT_RANGE | OPT_ASCII |
                   OPT_COLOR | OPT_MAPPING | OPT_BASE,
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

int
viewer_main(int argc, char **argv)
{
	struct cmd_opts opts;
	struct calltree *tree, *base = NULL;
	struct scope scope;
	struct app *app;
	struct canvas *canvas;
	char *error = NULL;
	int width, height;
	enum clock_index clock;
	struct time_range range;
	int status = cmd_parse(&viewer_spec, argc, argv, &opts);

	if (status >= 0)
		return status;
	/* A file that cannot be read is reported before the terminal is
	 * needed, as a --mapping that cannot be is. */
	if ((opts.base && !(base = cmd_load(&opts, opts.base))) ||
	    !cmd_openable(opts.args[0])) {
		calltree_free(base);
		cmd_opts_done(&opts);
		return CMD_INPUT;
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
	tree = cmd_load(&opts, opts.args[0]);
	if (!tree) {
		calltree_free(base);
		cmd_opts_done(&opts);
		return CMD_INPUT;
	}
	if (!cmd_scope(&scope, tree, &opts) ||
	    !cmd_clock(tree, &opts, &clock)) {
		calltree_free(tree);
		calltree_free(base);
		cmd_opts_done(&opts);
		return CMD_USAGE;
	}
	app = app_new(tree);
	if (base) {
		app_set_base(app, base, opts.base);
		calltree_free(base);
	}
	if (opts.clock >= 0)
		app->clocks =
		        clock == CLOCK_CPU ? APP_CLOCKS_CPU : APP_CLOCKS_WALL;
	range = scope.range;
	app_set_scope(app, &scope);
	if (range.on)
		app_set_range(app, &range);
	if (!term_open(opts.color, &error)) {
		cmd_error(NULL, "%s", error);
		free(error);
		app_free(app);
		cmd_opts_done(&opts);
		return CMD_USAGE;
	}
	app->notice = term_notice;
	term_size(&width, &height);
	canvas = canvas_new(width, height, opts.ascii || !locale_is_utf8());
	while (!app->quit && !term_interrupted()) {
		int key;

		app_draw(app, canvas);
		term_paint(canvas);
		key = term_read_key();
		if (key == TKEY_NONE)
			break;
		if (key == TKEY_RESIZE) {
			term_size(&width, &height);
			canvas_resize(canvas, width, height);
		}
		app_key(app, key);
	}
	term_close();
	canvas_free(canvas);
	app_free(app);
	cmd_opts_done(&opts);
	/* Ended by a signal: the shell's 128 + its number (130 for SIGINT,
	 * 143 for SIGTERM, 129 for SIGHUP or a vanished terminal). */
	return term_signal_number() ? 128 + term_signal_number() : CMD_OK;
}
