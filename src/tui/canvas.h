/*
 * canvas: a grid of cells that views draw into; the terminal layer paints
 * it and tests dump it as text.
 *
 * A cell holds one glyph (a character with its combining marks, or part
 * of a visible escape), its width, and a semantic role; a wide glyph's
 * second column is a cell of width 0.  Text put on a canvas is escaped
 * and measured by text-width, so nothing from a trace reaches the
 * terminal raw.  The canvas owns its cells.
 */
#ifndef TRACETUI_CANVAS_H
#define TRACETUI_CANVAS_H

#include "text/width.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* What a cell means; the terminal layer picks colours or attributes. */
enum role {
	ROLE_NORMAL,
	ROLE_TITLE,   /* the title line */
	ROLE_STATUS,  /* the status line */
	ROLE_HINT,    /* the key hint line */
	ROLE_HEADER,  /* column headers */
	ROLE_CURSOR,  /* the selected row */
	ROLE_DIM,     /* secondary text */
	ROLE_HOT,     /* large shares */
	ROLE_MATCH,   /* search matches */
	ROLE_TAGGED,  /* tagged rows */
	ROLE_WARNING, /* anomalies, errors */
	ROLE_SECTION, /* section labels inside a view */
	/* Six hues for things coloured by method (icicle frames); a view
	 * picks ROLE_PALETTE_0 + hash % ROLE_PALETTE_COUNT. */
	ROLE_PALETTE_0,
	ROLE_PALETTE_1,
	ROLE_PALETTE_2,
	ROLE_PALETTE_3,
	ROLE_PALETTE_4,
	ROLE_PALETTE_5,
	ROLE_SLOWER, /* grew since --base's trace */
	ROLE_FASTER, /* shrank since --base's trace */
	ROLE_COUNT,
};

#define ROLE_PALETTE_COUNT (ROLE_PALETTE_5 - ROLE_PALETTE_0 + 1)

/* Drawing characters, UTF-8 or ASCII depending on the canvas. */
enum glyph {
	GLYPH_TRUNCATED, /* marks text cut to fit */
	GLYPH_EXPANDED,
	GLYPH_COLLAPSED,
	GLYPH_SORT_DOWN,
	GLYPH_SORT_UP,
	GLYPH_HLINE,
	GLYPH_VLINE,
	GLYPH_BLOCK,
	GLYPH_SHADE,
	GLYPH_ARROW,
	GLYPH_BRANCH, /* a tree row with siblings after it */
	GLYPH_LAST,   /* the last child of a tree row */
	GLYPH_COUNT,
};

struct canvas_cell {
	char glyph[TEXT_GLYPH_MAX];
	uint8_t width; /* 1 or 2; 0 for the right half of a wide glyph */
	uint8_t role;
};

struct canvas {
	int width, height;
	bool ascii; /* draw with ASCII only */
	struct canvas_cell *cells;
};

/* A blank canvas of width x height. */
struct canvas *canvas_new(int width, int height, bool ascii);
/* Release it. */
void canvas_free(struct canvas *canvas);
/* Change the size; the content is cleared. */
void canvas_resize(struct canvas *canvas, int width, int height);
/* Blank every cell. */
void canvas_clear(struct canvas *canvas);
/* The cell at x, y (inside the canvas). */
struct canvas_cell *canvas_cell(struct canvas *canvas, int x, int y);
/* The drawing character g in this canvas's character set. */
const char *canvas_glyph(const struct canvas *canvas, enum glyph g);

/*
 * Put text at x, y in at most max columns (clipped to the canvas); text
 * that does not fit ends with GLYPH_TRUNCATED.  Returns columns used.
 */
int canvas_text(struct canvas *canvas, int x, int y, int max, const char *s,
                enum role role);
/* Put text at x, y in at most max columns a line (last_max on its
 * last), broken at blanks, on at most lines lines (the last cut if it
 * must be); with lines 0, nothing is drawn.  Returns the lines the
 * whole text takes. */
int canvas_wrap(struct canvas *canvas, int x, int y, int max, int last_max,
                int lines, const char *s, enum role role);
/* Put text right-aligned in the max columns ending before x + max. */
int canvas_text_right(struct canvas *canvas, int x, int y, int max,
                      const char *s, enum role role);
/* Fill n columns from x, y with the one-column glyph g. */
void canvas_fill(struct canvas *canvas, int x, int y, int n, const char *g,
                 enum role role);
/* Set the role of n cells from x, y, keeping their glyphs. */
void canvas_set_role(struct canvas *canvas, int x, int y, int n,
                     enum role role);
/* Write the canvas as lines of text, trailing blanks trimmed. */
void canvas_dump(const struct canvas *canvas, FILE *out);
/* Write the roles as one letter per cell (for render tests). */
void canvas_dump_roles(const struct canvas *canvas, FILE *out);

#endif
