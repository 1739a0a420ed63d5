/*
 * markup: text from a trace written into XML (SVG), HTML and the JSON
 * embedded in HTML, so that it always shows as text: a method named
 * "<script>" can neither open an element nor end a script.
 *
 * Invalid UTF-8 and control characters first become a visible \xNN
 * (text_escape), so the output is always well-formed XML 1.0.
 */
#ifndef TRACETUI_MARKUP_H
#define TRACETUI_MARKUP_H

#include <stdio.h>

/* Write s escaped for XML or HTML text and attribute values. */
void markup_escape(FILE *out, const char *s);
/* Write s, escaped as text_escape does, as a JSON string literal that
 * is also safe inside an HTML <script> element (no '<', '>' or '&';
 * U+2028 and U+2029 named by text_escape). */
void markup_json_string(FILE *out, const char *s);
/* Write s escaped for the inside of a Graphviz DOT quoted string. */
void markup_dot_escape(FILE *out, const char *s);

#endif
