/*
 * width: decode with u8_mbtouc, measure with uc_width.  A byte that
 * does not start a valid sequence, and any C0 or C1 control character or
 * DEL, is shown as \xNN (4 columns per byte).
 */
#include "config.h"

#include "text/width.h"

#include "util/alloc.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistr.h>
#include <uniwidth.h>

size_t
text_utf8_char(const char *s, size_t left)
{
	const uint8_t *p = (const uint8_t *)s;
	ucs4_t uc;
	int n = u8_mbtouc(&uc, p, left);

	if (uc == 0xFFFD && !(n == 3 && memcmp(p, "\xEF\xBF\xBD", 3) == 0))
		return 0;
	return (size_t)n;
}

/* Length of the valid printable character at p, or 0 to escape p[0]. */
static int
printable_at(const uint8_t *p, size_t left, int *width)
{
	ucs4_t uc;
	int n = (int)text_utf8_char((const char *)p, left);

	if (!n)
		return 0;
	u8_mbtouc(&uc, p, (size_t)n);
	if (uc < 0x20 || (uc >= 0x7F && uc < 0xA0))
		return 0;
	*width = uc_width(uc, "UTF-8");
	if (*width < 0)
		return 0;
	return n;
}

size_t
text_width(const char *s)
{
	const uint8_t *p = (const uint8_t *)s;
	size_t left = strlen(s), width = 0;

	while (left) {
		int w, n = printable_at(p, left, &w);

		if (!n) {
			width += 4;
			n = 1;
		} else {
			width += (size_t)w;
		}
		p += n;
		left -= (size_t)n;
	}
	return width;
}

bool
text_is_clean(const char *s)
{
	const uint8_t *p = (const uint8_t *)s;
	size_t left = strlen(s);

	while (left) {
		int w, n = printable_at(p, left, &w);

		if (!n)
			return false;
		p += n;
		left -= (size_t)n;
	}
	return true;
}

char *
text_escape(const char *s)
{
	const uint8_t *p = (const uint8_t *)s;
	size_t left = strlen(s), len = 0;
	char *out = xmalloc(left * 4 + 1);

	while (left) {
		int w, n = printable_at(p, left, &w);

		if (!n) {
			snprintf(out + len, 5, "\\x%02X", *p);
			len += 4;
			n = 1;
		} else {
			memcpy(out + len, p, (size_t)n);
			len += (size_t)n;
		}
		p += n;
		left -= (size_t)n;
	}
	out[len] = '\0';
	return out;
}

size_t
text_next_glyph(const char *s, size_t left, bool ascii,
                char glyph[TEXT_GLYPH_MAX], int *width)
{
	const uint8_t *p = (const uint8_t *)s;
	int w, n = printable_at(p, left, &w);
	size_t used;

	if (!n) {
		snprintf(glyph, TEXT_GLYPH_MAX, "\\x%02X", *p);
		*width = 4;
		return 1;
	}
	if (ascii && *p >= 0x80) {
		strcpy(glyph, "?");
		*width = w ? 1 : 0;
		used = (size_t)n;
	} else {
		memcpy(glyph, p, (size_t)n);
		glyph[n] = '\0';
		*width = w;
		used = (size_t)n;
	}
	/* Attach combining marks (width 0) that fit. */
	while (used < left && !ascii) {
		int mw, m = printable_at(p + used, left - used, &mw);

		if (!m || mw != 0 ||
		    strlen(glyph) + (size_t)m >= TEXT_GLYPH_MAX)
			break;
		strncat(glyph, (const char *)p + used, (size_t)m);
		used += (size_t)m;
	}
	return used;
}
