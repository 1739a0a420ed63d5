/*
 * markup: XML text is text_xml's (XML's five special characters as
 * entities); the two noncharacters XML forbids (U+FFFE, U+FFFF) then
 * become \uFFFE and \uFFFF.
 * The script-safe JSON is table_json_string's literal of the escaped
 * text (so a name reads as it does in every other output) with '<', '>'
 * and '&' (never structural inside a literal) turned into \u escapes.  In
 * DOT's quoted strings only '"' and '\' need a backslash; escaping the
 * backslash also keeps Graphviz from reading \N or \l in a name.
 */
#include "config.h"

#include "text/markup.h"

#include "text/table.h"
#include "text/width.h"

#include <stdlib.h>
#include <string.h>

void
markup_escape(FILE *out, const char *s)
{
	char *clean = text_xml(s);
	const char *p;

	for (p = clean; *p; p++) {
		if (p[0] == '\xEF' && p[1] == '\xBF' &&
		    (p[2] == '\xBE' || p[2] == '\xBF')) {
			fprintf(out, "\\uFFF%c", p[2] == '\xBE' ? 'E' : 'F');
			p += 2;
		} else
			fputc(*p, out);
	}
	free(clean);
}

void
markup_json_string(FILE *out, const char *s)
{
	char *lit = NULL, *clean = text_escape(s);
	size_t len = 0, i;
	FILE *mem = open_memstream(&lit, &len);

	if (!mem)
		abort();
	table_json_string(mem, clean);
	fclose(mem);
	free(clean);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)lit[i];

		/* text_escape already named U+2028 and U+2029, which a
		 * script would read as line ends. */
		if (c == '<' || c == '>' || c == '&')
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	free(lit);
}

void
markup_dot_escape(FILE *out, const char *s)
{
	char *clean = text_escape(s);
	const char *p;

	for (p = clean; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', out);
		fputc(*p, out);
	}
	free(clean);
}
