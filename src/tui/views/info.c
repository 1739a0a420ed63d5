/*
 * info: the same lines as `tracetui info`, scrollable.
 */
#include "config.h"

#include "query/summary.h"
#include "util/alloc.h"
#include "tui/views/text.h"

#include <stdlib.h>
#include <string.h>

/* The text view first, so that its operations take this state. */
struct info_view {
	struct text_view text;
	size_t ntransforms; /* the transforms the lines list */
};

static void
fill(struct info_view *iv, struct app *app)
{
	struct text_view *v = &iv->text;
	struct summary s;
	char *xf = app_transforms_list(app);
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
	if (app->loaded_with) {
		char *l = xasprintf("loaded with: %s", app->loaded_with);

		text_view_add(v, ROLE_SECTION, l);
		free(l);
	}
	/* The title may show only their count. */
	iv->ntransforms = app->ntransforms;
	if (xf) {
		char *l = xasprintf("transforms: %s", xf);

		text_view_add(v, ROLE_SECTION, l);
		free(l);
		free(xf);
	}
}

static void *
info_open(struct app *app)
{
	struct info_view *v = xcalloc(1, sizeof(*v));

	fill(v, app);
	return v;
}

static void
info_close(void *state)
{
	struct info_view *v = state;

	text_view_clear(&v->text);
	free(v->text.lines);
	free(v);
}

static void
info_draw(void *state, struct app *app, struct canvas *c, int top, int height)
{
	struct info_view *v = state;

	/* The views open before a transform counts as applied. */
	if (v->ntransforms != app->ntransforms)
		fill(v, app);
	text_view_draw(&v->text, c, top, height);
}

/* The lines shown, for `w`. */
static struct table *
info_rows(void *state, struct app *app)
{
	(void)app;
	return text_view_table(&((struct info_view *)state)->text, "Info");
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
