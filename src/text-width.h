/*
 * text-width: the only place that measures or escapes text (over
 * libunistring).
 *
 * Strings come from the trace, so they may be invalid UTF-8 or carry
 * control characters (even terminal escape sequences).  text_escape turns
 * every such byte into a visible \xNN; what remains is printable and is
 * measured in terminal columns by text_width.
 */
#ifndef TRACETUI_TEXT_WIDTH_H
#define TRACETUI_TEXT_WIDTH_H

#include <stdbool.h>
#include <stddef.h>

/* Columns the NUL-terminated UTF-8 string s takes once escaped. */
size_t text_width(const char *s);
/* True when s needs no escaping. */
bool text_is_clean(const char *s);
/* A new string: s with invalid bytes and control characters as \xNN. */
char *text_escape(const char *s);

#endif
