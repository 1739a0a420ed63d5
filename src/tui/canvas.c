/*
 * canvas: cells in row-major order.  Writing a glyph over half of a wide
 * glyph blanks the other half, so the grid never holds a torn character.
 */
#include "config.h"

#include "tui/canvas.h"

#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

static const char *const glyphs_utf8[GLYPH_COUNT] = {
        [GLYPH_TRUNCATED] = "\u2026", [GLYPH_EXPANDED] = "\u25be",
        [GLYPH_COLLAPSED] = "\u25b8", [GLYPH_SORT_DOWN] = "\u25bc",
        [GLYPH_SORT_UP] = "\u25b2",   [GLYPH_HLINE] = "\u2500",
        [GLYPH_VLINE] = "\u2502",     [GLYPH_BLOCK] = "\u2588",
        [GLYPH_SHADE] = "\u2591",     [GLYPH_ARROW] = "\u2192",
        [GLYPH_BRANCH] = "\u251c",    [GLYPH_LAST] = "\u2514",
};

static const char *const glyphs_ascii[GLYPH_COUNT] = {
        [GLYPH_TRUNCATED] = "~", [GLYPH_EXPANDED] = "-",
        [GLYPH_COLLAPSED] = "+", [GLYPH_SORT_DOWN] = "v",
        [GLYPH_SORT_UP] = "^",   [GLYPH_HLINE] = "-",
        [GLYPH_VLINE] = "|",     [GLYPH_BLOCK] = "#",
        [GLYPH_SHADE] = ".",     [GLYPH_ARROW] = ">",
        [GLYPH_BRANCH] = "|",    [GLYPH_LAST] = "`",
};

static const char role_letters[ROLE_COUNT] = {
        [ROLE_NORMAL] = '.',    [ROLE_TITLE] = 'T',     [ROLE_STATUS] = 'S',
        [ROLE_HINT] = 'K',      [ROLE_HEADER] = 'H',    [ROLE_CURSOR] = 'C',
        [ROLE_DIM] = 'd',       [ROLE_HOT] = 'h',       [ROLE_MATCH] = 'M',
        [ROLE_TAGGED] = 't',    [ROLE_WARNING] = 'W',   [ROLE_SECTION] = 's',
        [ROLE_PALETTE_0] = '0', [ROLE_PALETTE_1] = '1', [ROLE_PALETTE_2] = '2',
        [ROLE_PALETTE_3] = '3', [ROLE_PALETTE_4] = '4', [ROLE_PALETTE_5] = '5',
        [ROLE_SLOWER] = '+',    [ROLE_FASTER] = '-',
};

struct canvas *
canvas_new(int width, int height, bool ascii)
{
	struct canvas *c = xcalloc(1, sizeof(*c));

	c->ascii = ascii;
	canvas_resize(c, width, height);
	return c;
}

void
canvas_free(struct canvas *c)
{
	if (!c)
		return;
	free(c->cells);
	free(c);
}

void
canvas_resize(struct canvas *c, int width, int height)
{
	c->width = width > 0 ? width : 0;
	c->height = height > 0 ? height : 0;
	free(c->cells);
	c->cells = xcalloc((size_t)c->width * (size_t)c->height + 1,
	                   sizeof(*c->cells));
	canvas_clear(c);
}

void
canvas_clear(struct canvas *c)
{
	size_t i, n = (size_t)c->width * (size_t)c->height;

	for (i = 0; i < n; i++) {
		strcpy(c->cells[i].glyph, " ");
		c->cells[i].width = 1;
		c->cells[i].role = ROLE_NORMAL;
	}
}

struct canvas_cell *
canvas_cell(struct canvas *c, int x, int y)
{
	return &c->cells[(size_t)y * (size_t)c->width + (size_t)x];
}

const char *
canvas_glyph(const struct canvas *c, enum glyph g)
{
	return c->ascii ? glyphs_ascii[g] : glyphs_utf8[g];
}

/* Blank the cell at x, y, and the other half if it was part of a wide
 * glyph. */
static void
blank(struct canvas *c, int x, int y)
{
	struct canvas_cell *cell = canvas_cell(c, x, y);

	if (cell->width == 0 && x > 0) {
		struct canvas_cell *left = canvas_cell(c, x - 1, y);

		strcpy(left->glyph, " ");
		left->width = 1;
	} else if (cell->width == 2 && x + 1 < c->width) {
		struct canvas_cell *right = canvas_cell(c, x + 1, y);

		strcpy(right->glyph, " ");
		right->width = 1;
	}
	strcpy(cell->glyph, " ");
	cell->width = 1;
}

/* Put one glyph of width w (1 or 2) at x, y; false if it does not fit. */
static bool
put_glyph(struct canvas *c, int x, int y, int limit, const char *g, int w,
          enum role role)
{
	struct canvas_cell *cell;

	if (x < 0 || y < 0 || y >= c->height || x + w > limit ||
	    x + w > c->width)
		return false;
	blank(c, x, y);
	if (w == 2)
		blank(c, x + 1, y);
	cell = canvas_cell(c, x, y);
	snprintf(cell->glyph, sizeof(cell->glyph), "%s", g);
	cell->width = (uint8_t)w;
	cell->role = (uint8_t)role;
	if (w == 2) {
		cell = canvas_cell(c, x + 1, y);
		cell->glyph[0] = '\0';
		cell->width = 0;
		cell->role = (uint8_t)role;
	}
	return true;
}

int
canvas_text(struct canvas *c, int x, int y, int max, const char *s,
            enum role role)
{
	size_t left = strlen(s);
	int limit = x + max, col = x;
	int need = (int)text_width(s);
	bool cut = need > max;
	int room = cut ? max - 1 : max; /* keep a column for the marker */

	if (max <= 0)
		return 0;
	if (cut && max == 1)
		room = 0;
	while (left) {
		char g[TEXT_GLYPH_MAX];
		int w;
		size_t used = text_next_glyph(s, left, c->ascii, g, &w);

		s += used;
		left -= used;
		if (w == 0)
			continue;
		if (g[0] == '\\' && (size_t)w == strlen(g)) {
			/* An escape (\x1B, \u202E) is one ASCII cell a
			 * byte. */
			int i;

			if (col + w > x + room)
				break;
			for (i = 0; i < w; i++) {
				char one[2] = {g[i], '\0'};

				put_glyph(c, col++, y, limit, one, 1, role);
			}
			continue;
		}
		if (col + w > x + room)
			break;
		put_glyph(c, col, y, limit, g, w, role);
		col += w;
	}
	if (cut) {
		put_glyph(c, col, y, limit, canvas_glyph(c, GLYPH_TRUNCATED), 1,
		          role);
		col++;
	}
	return col - x;
}

/* The bytes of s's longest run of whole words that fits in max columns
 * (its first word whatever its width). */
static size_t
words_fitting(const char *s, int max, char *line)
{
	size_t end = 0, best = 0, len = strlen(s);

	while (end < len) {
		size_t next = end;

		while (next < len && s[next] == ' ')
			next++;
		while (next < len && s[next] != ' ')
			next++;
		memcpy(line, s, next);
		line[next] = '\0';
		if ((int)text_width(line) > max && best)
			break;
		best = end = next;
		if ((int)text_width(line) > max)
			break;
	}
	if (best && (int)text_width(line) > max && best == end) {
		/* One word wider than the line: broken where it must. */
		size_t at = 0;
		int w = 0;

		while (at < best) {
			char glyph[TEXT_GLYPH_MAX];
			int gw;
			size_t n = text_next_glyph(s + at, best - at, false,
			                           glyph, &gw);

			if (w + gw > max && at)
				break;
			w += gw;
			at += n;
		}
		best = at;
	}
	return best;
}

int
canvas_wrap(struct canvas *c, int x, int y, int max, int last_max, int lines,
            const char *s, enum role role)
{
	char *line = xmalloc(strlen(s) + 1);
	int n = 0;

	while (*s) {
		int w = (int)text_width(s);
		size_t take;

		/* The last line: the rest fits in it.  The last allowed
		 * holds the rest, cut; the lines past it are only
		 * counted. */
		if (w <= last_max || n + 1 == lines) {
			if (n < lines)
				canvas_text(c, x, y + n, last_max, s, role);
			if (w <= last_max) {
				n++;
				break;
			}
		}
		take = words_fitting(s, max, line);
		/* All of it, but too wide for a last line: a word less. */
		if (!s[take] && w > 1)
			take = words_fitting(s, w - 1, line);
		memcpy(line, s, take);
		line[take] = '\0';
		if (n + 1 < lines)
			canvas_text(c, x, y + n, max, line, role);
		n++;
		s += take;
		while (*s == ' ')
			s++;
	}
	free(line);
	return n;
}

int
canvas_text_right(struct canvas *c, int x, int y, int max, const char *s,
                  enum role role)
{
	int w = (int)text_width(s);

	if (w >= max)
		return canvas_text(c, x, y, max, s, role);
	return canvas_text(c, x + max - w, y, w, s, role);
}

void
canvas_fill(struct canvas *c, int x, int y, int n, const char *g,
            enum role role)
{
	int i;

	for (i = 0; i < n; i++)
		put_glyph(c, x + i, y, c->width, g, 1, role);
}

void
canvas_set_role(struct canvas *c, int x, int y, int n, enum role role)
{
	int i;

	if (y < 0 || y >= c->height)
		return;
	for (i = x < 0 ? 0 : x; i < x + n && i < c->width; i++)
		canvas_cell(c, i, y)->role = (uint8_t)role;
}

void
canvas_dump(const struct canvas *c, FILE *out)
{
	int x, y;

	for (y = 0; y < c->height; y++) {
		int end = c->width;

		while (end > 0 &&
		       strcmp(c->cells[(size_t)y * c->width + end - 1].glyph,
		              " ") == 0)
			end--;
		for (x = 0; x < end; x++)
			fputs(c->cells[(size_t)y * c->width + x].glyph, out);
		fputc('\n', out);
	}
}

void
canvas_dump_roles(const struct canvas *c, FILE *out)
{
	int x, y;

	for (y = 0; y < c->height; y++) {
		for (x = 0; x < c->width; x++)
			fputc(role_letters[c->cells[(size_t)y * c->width + x]
			                           .role],
			      out);
		fputc('\n', out);
	}
}
