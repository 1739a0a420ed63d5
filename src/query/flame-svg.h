/*
 * flame-svg: a laid-out flame (query/flame.h) written as one
 * self-contained SVG document: frames coloured by package (a stable
 * hash), or red and blue by the change against BASE; a tooltip per
 * frame; and a script, run as the document is read, that zooms on a
 * click, resets, and searches (highlighting matches and summing them
 * without counting a frame twice).  Without the script the picture is
 * complete, labels included.
 *
 * Each frame is a <g class="f"> with data-n (its label), data-x (left
 * edge) and data-i, data-e (inclusive and exclusive time, microseconds),
 * data-c (calls), data-d (depth), and with BASE data-b, data-be (BASE's
 * inclusive and exclusive time, when BASE has the path); its <title>
 * starts with the frame's full name.  Every name goes through
 * markup_escape.
 */
#ifndef TRACETUI_FLAME_SVG_H
#define TRACETUI_FLAME_SVG_H

#include "model/calltree.h"
#include "query/callpath.h"
#include "query/flame.h"

#include <stdbool.h>
#include <stdio.h>

/* Pixels left and right of the frames. */
enum { FLAME_SVG_PAD = 10 };

struct flame_svg {
	int width;         /* of the picture, pixels */
	bool inverted;     /* an icicle: the root at the top */
	bool embedded;     /* inside an HTML page: no XML declaration */
	const char *title; /* raw text, escaped when written */
	const char *subtitle;
	const char *root_name;         /* the root frame's label */
	const struct flame_base *base; /* a differential graph, or NULL */
};

/* Write flame (laid out from path, of tree) as an SVG document. */
void flame_svg_write(FILE *out, const struct flame *flame,
                     const struct callpath *path, const struct calltree *tree,
                     const struct flame_svg *opts);

/* The frames' width in pixels of a picture width pixels wide. */
static inline int
flame_svg_plot_width(int width)
{
	return width - 2 * FLAME_SVG_PAD;
}

#endif
