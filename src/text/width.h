/*
 * width: the only place that measures or escapes text (over
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

/* Bytes a glyph may take in text_next_glyph's buffer. */
#define TEXT_GLYPH_MAX 24

/*
 * Split off the next glyph of s[0..left): a printable character with the
 * combining marks that follow it, or one byte to escape.  Copies the text
 * to show (NUL-terminated; "\xNN" for an escaped byte, "?" for a
 * non-ASCII character when ascii is set) into glyph, its width into
 * *width, and returns the bytes consumed (at least 1).
 */
size_t text_next_glyph(const char *s, size_t left, bool ascii,
                       char glyph[TEXT_GLYPH_MAX], int *width);

/* Length of the valid UTF-8 character at s (left bytes), 0 if invalid. */
size_t text_utf8_char(const char *s, size_t left);

/* Columns the NUL-terminated UTF-8 string s takes once escaped. */
size_t text_width(const char *s);
/* True when s needs no escaping. */
bool text_is_clean(const char *s);
/* A new string: s with invalid bytes and control characters as \xNN. */
char *text_escape(const char *s);

#endif
