/*
 * text: a scrollable list of lines, shared by the info and help
 * views.  It owns its lines.
 */
#ifndef TRACETUI_VIEW_TEXT_H
#define TRACETUI_VIEW_TEXT_H

#include "tui/app.h"

struct text_line {
	char *text;
	enum role role;
};

struct text_view {
	struct text_line *lines;
	size_t count, cap;
	size_t top;    /* first line shown */
	size_t cursor; /* the line searches land on */
};

/* Append a line (copied). */
void text_view_add(struct text_view *v, enum role role, const char *text);
/* Drop every line. */
void text_view_clear(struct text_view *v);
/* Draw lines from top into rows [top, top + height). */
void text_view_draw(struct text_view *v, struct canvas *c, int top, int height);
/* Scroll for the movement requests. */
enum view_result text_view_request(struct text_view *v, struct app *app,
                                   enum request req);
/* Scroll to the next line matching re. */
bool text_view_search(struct text_view *v, const regex_t *re, int dir);

#endif
