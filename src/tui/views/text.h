/*
 * text: a scrollable list of lines, shared by the info and help
 * views: a pager on the list widget.  It owns its lines.
 */
#ifndef TRACETUI_VIEW_TEXT_H
#define TRACETUI_VIEW_TEXT_H

#include "tui/app.h"
#include "tui/list.h"

struct text_line {
	char *text;
	enum role role;
};

struct text_view {
	struct text_line *lines;
	size_t count, cap;
	struct list list;      /* a pager; its cursor is the last match */
	const regex_t *filter; /* lines shown match it; NULL: all */
};

/* Append a line (copied). */
void text_view_add(struct text_view *v, enum role role, const char *text);
/* Drop every line (a filter stays for the next ones). */
void text_view_clear(struct text_view *v);
/* Draw lines from top into rows [top, top + height). */
void text_view_draw(struct text_view *v, struct canvas *c, int top, int height);
/* Every line shown (under a filter, those it keeps) as a table of one
 * column titled title, for `w`. */
struct table *text_view_table(const struct text_view *v, const char *title);
/* Scroll for the movement requests. */
enum view_result text_view_handle(void *state, const struct app *app,
                                  enum request req, struct view_ask *ask);
/* Scroll with the wheel. */
enum view_result text_view_mouse(void *state, struct app *app,
                                 const struct mouse_event *ev,
                                 struct view_ask *ask);
/* Scroll to the next line matching re; the match count goes to ask. */
bool text_view_find(void *state, const struct app *app, const regex_t *re,
                    int dir, struct view_ask *ask);
/* Show only the lines matching re (NULL: all); how many show. */
size_t text_view_filter(void *state, const struct app *app, const regex_t *re);

#endif
