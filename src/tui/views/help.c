/*
 * help: every request with its keys, from the request table, in the
 * table's groups; the same text the man page's key list is made from.
 * Then what the mouse does (the man page's Mouse section says it at
 * length).
 */
#include "config.h"

#include "util/alloc.h"
#include "tui/views/text.h"

#include <stdlib.h>
#include <string.h>

static const char *const mouse_help[][2] = {
        {"click", "select the row, call or frame under it"},
        {"click again", "on the selection, or a double click: Enter"},
        {"click a header", "profile, threads: sort by its column (again:"},
        {"", "reverse); chart: fold or unfold the thread"},
        {"click a [x] box", "threads: take the thread in or out of the scope"},
        {"click the path", "icicle: zoom out a level"},
        {"wheel", "scroll a list 3 rows; pan the chart in time;"},
        {"", "icicle: a level down or up"},
        {"Ctrl/Shift wheel", "chart: the next or previous thread (as the"},
        {"", "wheel over the thread names does)"},
        {"drag on the scale", "chart: apply the range it covers (as v, V)"},
};

static void *
help_open(struct app *app)
{
	struct text_view *v = xcalloc(1, sizeof(*v));
	const char *group = NULL;
	size_t i;

	text_view_add(v, ROLE_HEADER, "Keys");
	for (i = 0; i < REQ_COUNT - 1; i++) {
		const struct request_info *r = &request_table[i];
		char *line;

		if (!group || strcmp(group, r->group) != 0) {
			group = r->group;
			text_view_add(v, ROLE_NORMAL, "");
			text_view_add(v, ROLE_SECTION, group);
		}
		line = xasprintf("  %-18s %s", r->keys, r->help);
		text_view_add(v, ROLE_NORMAL, line);
		free(line);
	}
	text_view_add(v, ROLE_NORMAL, "");
	text_view_add(v, ROLE_SECTION, "Mouse (off with --no-mouse)");
	for (i = 0; i < sizeof(mouse_help) / sizeof(mouse_help[0]); i++) {
		char *line = xasprintf("  %-18s %s", mouse_help[i][0],
		                       mouse_help[i][1]);

		text_view_add(v, ROLE_NORMAL, line);
		free(line);
	}
	return v;
}

static void
help_close(void *state)
{
	struct text_view *v = state;

	text_view_clear(v);
	free(v->lines);
	free(v);
}

static void
help_draw(void *state, struct app *app, struct canvas *c, int top, int height)
{
	text_view_draw(state, c, top, height);
}

/* The lines shown, for `w`. */
static struct table *
help_rows(void *state, struct app *app)
{
	(void)app;
	return text_view_table(state, "Help");
}

const struct view_ops view_help_ops = {
        .name = "Help",
        .hints = "j/k:scroll  Esc:back",
        .open = help_open,
        .close = help_close,
        .draw = help_draw,
        .handle = text_view_handle,
        .find = text_view_find,
        .mouse = text_view_mouse,
        .filter = text_view_filter,
        .rows = help_rows,
};
