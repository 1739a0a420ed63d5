/*
 * help: every request with its keys, from the request table, in the
 * table's groups; the same text the man page's key list is made from.
 */
#include "config.h"

#include "util/alloc.h"
#include "tui/views/text.h"

#include <stdlib.h>
#include <string.h>

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
