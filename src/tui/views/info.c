/*
 * info: the same lines as `tracetui info`, scrollable.  They are made
 * the first time the view is drawn or asked anything, not when the
 * viewer opens its views: a recording of a million threads has a line
 * for each, which the first screen does not show.
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
	bool filled;        /* the lines are made */
	size_t ntransforms; /* the transforms the lines list */
};

static void
fill(struct info_view *iv, const struct app *app)
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
	iv->filled = true;
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

/* The view's lines, made when first wanted or when the transforms
 * they list changed (the views open before a transform counts as
 * applied). */
static struct info_view *
lines_of(void *state, const struct app *app)
{
	struct info_view *v = state;

	if (!v->filled || v->ntransforms != app->ntransforms)
		fill(v, app);
	return v;
}

static void *
info_open(struct app *app)
{
	(void)app;
	return xcalloc(1, sizeof(struct info_view));
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
	text_view_draw(&lines_of(state, app)->text, c, top, height);
}

static enum view_result
info_handle(void *state, const struct app *app, enum request req,
            struct view_ask *ask)
{
	return text_view_handle(lines_of(state, app), app, req, ask);
}

static enum view_result
info_mouse(void *state, struct app *app, const struct mouse_event *ev,
           struct view_ask *ask)
{
	return text_view_mouse(lines_of(state, app), app, ev, ask);
}

static bool
info_find(void *state, const struct app *app, const regex_t *re, int dir,
          struct view_ask *ask)
{
	return text_view_find(lines_of(state, app), app, re, dir, ask);
}

static size_t
info_filter(void *state, const struct app *app, const regex_t *re)
{
	return text_view_filter(lines_of(state, app), app, re);
}

/* The lines shown, for `w`. */
static struct table *
info_rows(void *state, struct app *app)
{
	return text_view_table(&lines_of(state, app)->text, "Info");
}

const struct view_ops view_info_ops = {
        .name = "Info",
        .hints = "j/k:scroll",
        .open = info_open,
        .close = info_close,
        .draw = info_draw,
        .handle = info_handle,
        .find = info_find,
        .mouse = info_mouse,
        .filter = info_filter,
        .rows = info_rows,
};
