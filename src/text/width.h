/*
 * width: the only place that measures or escapes text (over
 * libunistring).
 *
 * Strings come from the trace, so they may be invalid UTF-8 or carry
 * control characters (even terminal escape sequences).  This is the one
 * door by which they leave the program, one function per destination:
 *
 *   terminal, stderr, text reports   text_escape (the viewer's canvas
 *                                    through text_next_glyph, the same
 *                                    rules)
 *   JSON                             text_json, text_write_json
 *   CSV                              text_csv
 *   XML and SVG                      text_xml
 *
 * On terminals every invalid byte and C0 or C1 control character or DEL
 * becomes a visible \xNN, and every character that draws nothing but
 * changes how text reads (bidi overrides and isolates, zero-width
 * spaces and joiners, other format characters, line separators) its
 * name, \u202E; what remains is printable and is measured in terminal
 * columns by text_width.  A NUL inside a name travels as the two bytes
 * C0 80 (modified UTF-8: read/bytes.h, trace_name_dup) and shows as
 * \x00 (in JSON \u0000).
 */
#ifndef TRACETUI_TEXT_WIDTH_H
#define TRACETUI_TEXT_WIDTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

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
/* A new string: s whole when it takes at most width columns, else mark
 * and the end of s that fits after it in width columns (cut between
 * glyphs; mark alone when nothing fits). */
char *text_cut_left(const char *s, int width, const char *mark);
/* A new string: s whole when it takes at most width columns, else the
 * start of s that fits before mark in width columns, then mark (cut
 * between glyphs); for text already escaped. */
char *text_cut_right(const char *s, int width, const char *mark);
/* True when s needs no escaping. */
bool text_is_clean(const char *s);
/* A new string: s with invalid bytes and control characters as \xNN,
 * invisible characters as \uXXXX (for terminals, stderr, text). */
char *text_escape(const char *s);

/* A new string: s as a quoted JSON string literal (RFC 8259), with
 * control and invisible characters as \u escapes, invalid bytes as
 * U+FFFD. */
char *text_json(const char *s);
/* Write text_json(s) to out. */
void text_write_json(FILE *out, const char *s);
/* A new string: text_escape(s) as one CSV field (RFC 4180), quoted
 * when it holds a comma or a quote; text that begins with =, +, -, @, a
 * tab or a CR gets a ' before it, so that a spreadsheet shows it rather
 * than runs it as a formula (OWASP's advice on CSV injection). */
char *text_csv(const char *s);
/* A new string: s, a number the program wrote ("-12.500", "+3.1%"), as
 * one CSV field, bare; what does not read as a number as text_csv. */
char *text_csv_number(const char *s);
/* A new string: text_escape(s) with XML's five special characters as
 * entities, fit for SVG text and attribute values. */
char *text_xml(const char *s);

#endif
