/*
 * width: decode with u8_mbtouc, measure with uc_width.  A byte that
 * does not start a valid sequence, and any C0 or C1 control character or
 * DEL, is shown as \xNN (4 columns per byte).  The two bytes C0 80 are
 * a NUL inside a name (read/bytes.h, trace_name_dup): shown as \x00.
 */
#include "config.h"

#include "text/width.h"

#include "util/alloc.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unictype.h>
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

/* Whether p starts with C0 80, a NUL inside a name. */
static bool
nul_at(const uint8_t *p, size_t left)
{
	return left >= 2 && p[0] == 0xC0 && p[1] == 0x80;
}

/* Characters that draw nothing yet change how text reads: format
 * characters (bidi overrides and isolates, zero-width spaces and joiners,
 * the byte order mark, tags) and the line and paragraph separators. */
static bool
is_invisible(ucs4_t uc)
{
	return uc_is_general_category(uc, UC_CATEGORY_Cf) ||
	       uc_is_general_category(uc, UC_CATEGORY_Zl) ||
	       uc_is_general_category(uc, UC_CATEGORY_Zp);
}

/* A C0 or C1 control character, or DEL. */
static bool
is_control(ucs4_t uc)
{
	return uc < 0x20 || (uc >= 0x7F && uc < 0xA0);
}

/* The visible name of an invisible character: \u202E, \U000E0001. */
static int
name_invisible(char *out, size_t size, ucs4_t uc)
{
	return uc <= 0xFFFF ? snprintf(out, size, "\\u%04X", (unsigned)uc)
	                    : snprintf(out, size, "\\U%08X", (unsigned)uc);
}

/*
 * Length of the valid printable character at p, or 0 to escape p[0]
 * as \xNN.  An invisible character is valid but not printable: its
 * length is returned with *uc set and *width -1.
 */
static int
printable_at(const uint8_t *p, size_t left, int *width, ucs4_t *uc)
{
	int n;

	if (p[0] >= 0x20 && p[0] < 0x7F) { /* printable ASCII: most names */
		*uc = p[0];
		*width = 1;
		return 1;
	}
	n = (int)text_utf8_char((const char *)p, left);
	if (!n)
		return 0;
	u8_mbtouc(uc, p, (size_t)n);
	if (is_control(*uc))
		return 0;
	if (is_invisible(*uc)) {
		*width = -1;
		return n;
	}
	*width = uc_width(*uc, "UTF-8");
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
		ucs4_t uc;
		int w, n = printable_at(p, left, &w, &uc);

		if (!n) {
			width += 4;
			n = nul_at(p, left) ? 2 : 1;
		} else if (w < 0) {
			width += uc <= 0xFFFF ? 6 : 10;
		} else {
			width += (size_t)w;
		}
		p += n;
		left -= (size_t)n;
	}
	return width;
}

char *
text_cut_left(const char *s, int width, const char *mark)
{
	size_t len = strlen(s), off = 0, total = text_width(s);
	size_t room, w = total;
	char *out;

	if ((int)total <= width || width <= 0)
		return xstrdup(width <= 0 ? "" : s);
	room = (size_t)width > text_width(mark)
	               ? (size_t)width - text_width(mark)
	               : 0;
	while (off < len && w > room) {
		char glyph[TEXT_GLYPH_MAX];
		int gw;

		off += text_next_glyph(s + off, len - off, false, glyph, &gw);
		w -= (size_t)gw;
	}
	out = xmalloc(strlen(mark) + len - off + 1);
	strcpy(out, mark);
	strcat(out, s + off);
	return out;
}

char *
text_cut_right(const char *s, int width, const char *mark)
{
	size_t len = strlen(s), off = 0, w = 0, room;
	char *out;

	if ((int)text_width(s) <= width)
		return xstrdup(s);
	if (width <= 0)
		return xstrdup("");
	room = (size_t)width > text_width(mark)
	               ? (size_t)width - text_width(mark)
	               : 0;
	while (off < len) {
		char glyph[TEXT_GLYPH_MAX];
		int gw;
		size_t n =
		        text_next_glyph(s + off, len - off, false, glyph, &gw);

		if (w + (size_t)gw > room)
			break;
		w += (size_t)gw;
		off += n;
	}
	out = xmalloc(off + strlen(mark) + 1);
	memcpy(out, s, off);
	strcpy(out + off, mark);
	return out;
}

bool
text_is_clean(const char *s)
{
	const uint8_t *p = (const uint8_t *)s;
	size_t left = strlen(s);

	while (left) {
		ucs4_t uc;
		int w, n = printable_at(p, left, &w, &uc);

		if (!n || w < 0)
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
	/* 4 bytes for 1 (\xNN), or 10 for 4 (\U000E0001) at worst. */
	char *out = xmalloc(left * 4 + 1);

	while (left) {
		ucs4_t uc;
		int w, n = printable_at(p, left, &w, &uc);

		if (!n) {
			n = nul_at(p, left) ? 2 : 1;
			snprintf(out + len, 5, "\\x%02X", n == 2 ? 0 : *p);
			len += 4;
		} else if (w < 0) {
			len += (size_t)name_invisible(out + len, 11, uc);
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
	ucs4_t uc;
	int w, n = printable_at(p, left, &w, &uc);
	size_t used;

	if (!n) {
		n = nul_at(p, left) ? 2 : 1;
		snprintf(glyph, TEXT_GLYPH_MAX, "\\x%02X", n == 2 ? 0 : *p);
		*width = 4;
		return (size_t)n;
	}
	if (w < 0) {
		*width = name_invisible(glyph, TEXT_GLYPH_MAX, uc);
		return (size_t)n;
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
		ucs4_t mc;
		int mw, m = printable_at(p + used, left - used, &mw, &mc);

		if (!m || mw != 0 ||
		    strlen(glyph) + (size_t)m >= TEXT_GLYPH_MAX)
			break;
		strncat(glyph, (const char *)p + used, (size_t)m);
		used += (size_t)m;
	}
	return used;
}

/* A string being built: bytes appended, grown as needed. */
struct out_buf {
	char *s;
	size_t len, cap;
};

static void
put(struct out_buf *b, const void *bytes, size_t n)
{
	UTIL_GROW(b->s, b->cap, b->len + n + 1);
	memcpy(b->s + b->len, bytes, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void
put_str(struct out_buf *b, const char *s)
{
	put(b, s, strlen(s));
}

/* \uXXXX for uc, as a surrogate pair beyond the BMP. */
static void
put_json_u(struct out_buf *b, ucs4_t uc)
{
	char e[16];

	if (uc > 0xFFFF) {
		uc -= 0x10000;
		snprintf(e, sizeof(e), "\\u%04x\\u%04x",
		         (unsigned)(0xD800 + (uc >> 10)),
		         (unsigned)(0xDC00 + (uc & 0x3FF)));
	} else {
		snprintf(e, sizeof(e), "\\u%04x", (unsigned)uc);
	}
	put_str(b, e);
}

char *
text_json(const char *s)
{
	const uint8_t *p = (const uint8_t *)s;
	size_t left = strlen(s);
	struct out_buf b = {0};

	put(&b, "\"", 1);
	while (left) {
		ucs4_t uc;
		int n = (int)text_utf8_char((const char *)p, left);

		if (nul_at(p, left)) {
			put_str(&b, "\\u0000");
			n = 2;
		} else if (!n) {
			/* Not UTF-8: the replacement character. */
			put_str(&b, "\\ufffd");
			n = 1;
		} else {
			u8_mbtouc(&uc, p, (size_t)n);
			if (uc == '"' || uc == '\\') {
				char e[2] = {'\\', (char)uc};

				put(&b, e, 2);
			} else if (uc == '\n') {
				put_str(&b, "\\n");
			} else if (uc == '\t') {
				put_str(&b, "\\t");
			} else if (is_control(uc) || is_invisible(uc)) {
				put_json_u(&b, uc);
			} else {
				put(&b, p, (size_t)n);
			}
		}
		p += n;
		left -= (size_t)n;
	}
	put(&b, "\"", 1);
	return b.s;
}

void
text_write_json(FILE *out, const char *s)
{
	char *j = text_json(s);

	fputs(j, out);
	free(j);
}

/* Whether a spreadsheet would read s, a CSV cell, as a formula: it
 * begins with one of the characters OWASP lists (tab and CR as well,
 * which text_escape has already written as \x09 and \x0D). */
static bool
csv_formula(const char *s, const char *raw)
{
	if (*s && strchr("=+-@", *s))
		return true;
	return *raw == '\t' || *raw == '\r';
}

char *
text_csv(const char *s)
{
	char *e = text_escape(s);
	struct out_buf b = {0};
	const char *q;
	bool formula = csv_formula(e, s);

	if (!formula && !strpbrk(e, ",\"")) /* text_escape leaves no CR or LF */
		return e;
	if (!strpbrk(e, ",\"")) {
		put(&b, "'", 1);
		put(&b, e, strlen(e));
		free(e);
		return b.s;
	}
	put(&b, "\"", 1);
	if (formula)
		put(&b, "'", 1);
	for (q = e; *q; q++) {
		if (*q == '"')
			put(&b, "\"", 1);
		put(&b, q, 1);
	}
	put(&b, "\"", 1);
	free(e);
	return b.s;
}

/* Whether s is a number as the program writes one: a sign, digits
 * with a point and an exponent, a percent sign. */
static bool
plain_number(const char *s)
{
	bool digits = false;

	if (*s == '+' || *s == '-')
		s++;
	for (; (*s >= '0' && *s <= '9') || *s == '.'; s++)
		digits |= *s != '.';
	if (digits && (*s == 'e' || *s == 'E')) {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (*s < '0' || *s > '9')
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == '%')
		s++;
	return digits && !*s;
}

char *
text_csv_number(const char *s)
{
	return plain_number(s) ? xstrdup(s) : text_csv(s);
}

char *
text_xml(const char *s)
{
	char *e = text_escape(s);
	struct out_buf b = {0};
	const char *q;

	put(&b, "", 0);
	for (q = e; *q; q++) {
		switch (*q) {
		case '&':
			put_str(&b, "&amp;");
			break;
		case '<':
			put_str(&b, "&lt;");
			break;
		case '>':
			put_str(&b, "&gt;");
			break;
		case '"':
			put_str(&b, "&quot;");
			break;
		case '\'':
			put_str(&b, "&apos;");
			break;
		default:
			put(&b, q, 1);
		}
	}
	free(e);
	return b.s;
}
