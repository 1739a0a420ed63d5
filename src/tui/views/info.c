/*
 * info: the same lines as `tracetui info`, scrollable.
 */
#include "config.h"

#include "query/summary.h"
#include "util/alloc.h"
#include "tui/views/text.h"

#include <stdlib.h>
#include <string.h>

static void
fill(struct text_view *v, struct app *app)
{
	struct summary s;
	size_t i;

	text_view_clear(v);
	summary_build(&s, app->tree);
	for (i = 0; i < s.count; i++) {
		const char *l = s.lines[i];
		enum role role = ROLE_NORMAL;

		if (l[0] != ' ')
			role = ROLE_SECTION;
		if (strncmp(l, "anomalies:", 10) == 0 && !strstr(l, "none"))
			role = ROLE_WARNING;
		text_view_add(v, role, l);
	}
	summary_done(&s);
}

static void *
info_open(struct app *app)
{
	struct text_view *v = xcalloc(1, sizeof(*v));

	fill(v, app);
	return v;
}

static void
info_close(void *state)
{
	struct text_view *v = state;

	text_view_clear(v);
	free(v->lines);
	free(v);
}

static void
info_draw(void *state, struct app *app, struct canvas *c, int top, int height)
{
	text_view_draw(state, c, top, height);
}

/* The lines shown, for `w`. */
static struct table *
info_rows(void *state, struct app *app)
{
	(void)app;
	return text_view_table(state, "Info");
}

const struct view_ops view_info_ops = {
        .name = "Info",
        .hints = "j/k:scroll",
        .open = info_open,
        .close = info_close,
        .draw = info_draw,
        .handle = text_view_handle,
        .find = text_view_find,
        .mouse = text_view_mouse,
        .filter = text_view_filter,
        .rows = info_rows,
};
