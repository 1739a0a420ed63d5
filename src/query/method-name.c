/*
 * method-name: placeholders for undefined ids are made by the calltree
 * ("(unknown 0x...)" as the name), so this file only joins the parts,
 * and shortens them for narrow columns (the profile and icicle views).
 */
#include "config.h"

#include "query/method-name.h"

#include "text/width.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

char *
method_short_name(const struct tt_method *m)
{
	return xasprintf("%s%s%s", m->klass, *m->klass && *m->name ? "." : "",
	                 m->name);
}

char *
method_full_name(const struct tt_method *m)
{
	return xasprintf("%s%s%s%s%s", m->klass,
	                 *m->klass && *m->name ? "." : "", m->name,
	                 *m->signature ? " " : "", m->signature);
}

/* Bytes of the UTF-8 character at s (1 for a stray byte). */
static size_t
char_len(const char *s)
{
	size_t n = 1;

	while ((s[n] & 0xC0) == 0x80)
		n++;
	return n;
}

char *
method_fit_name(const char *name, int width)
{
	char *s = xstrdup(name);
	char *sig = strchr(s, ' ');
	size_t head = sig ? (size_t)(sig - s) : strlen(s);

	while ((int)text_width(s) > width) {
		char *part = s, *sep, *last;
		char keep;

		/* The class's own name starts after the last separator
		 * before the method name's dot. */
		keep = s[head];
		s[head] = '\0';
		last = strrchr(s, '.');
		s[head] = keep;
		if (!last)
			break;
		while ((sep = strpbrk(part, "./")) && sep < last &&
		       (size_t)(sep - part) <= char_len(part))
			part = sep + 1;
		if (!sep || sep >= last) {
			/* Every package is one letter: try the class. */
			break;
		}
		/* Keep the whole first character, not its first byte. */
		memmove(part + char_len(part), sep, strlen(sep) + 1);
		head -= (size_t)(sep - part) - char_len(part);
		{
			/* Stop once class and method fit with room for a
			 * few signature characters. */
			char *p = s + head;
			size_t w;

			keep = *p;
			*p = '\0';
			w = text_width(s);
			*p = keep;
			if ((int)w + 6 <= width)
				break;
		}
	}
	return s;
}

char *
method_source(const struct tt_method *m)
{
	if (!m->file || !m->file[0])
		return NULL;
	if (m->line >= 0)
		return xasprintf("%s:%ld", m->file, m->line);
	return xstrdup(m->file);
}

char *
method_name_with_source(const struct tt_method *m)
{
	char *name = method_full_name(m), *src = method_source(m), *both;

	if (!src)
		return name;
	both = xasprintf("%s  (%s)", name, src);
	free(name);
	free(src);
	return both;
}
