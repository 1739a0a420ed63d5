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

static enum view_result
info_request(void *state, struct app *app, enum request req)
{
	return text_view_request(state, app, req);
}

static bool
info_search(void *state, struct app *app, const regex_t *re, int dir)
{
	return text_view_search(state, re, dir);
}

const struct view_ops view_info_ops = {
        .name = "Info",
        .hints = "j/k:scroll",
        .open = info_open,
        .close = info_close,
        .draw = info_draw,
        .request = info_request,
        .search = info_search,
};
