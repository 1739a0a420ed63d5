/*
 * mouse: a mouse event as the app and the views see it, and the reading
 * of xterm's SGR (1006) and X10 (1000) reports into one, so that nothing
 * above the terminal layer knows how a terminal encodes the mouse.
 */
#ifndef TRACETUI_MOUSE_H
#define TRACETUI_MOUSE_H

#include <stdbool.h>
#include <stddef.h>

enum mouse_kind {
	MOUSE_PRESS,   /* a button went down */
	MOUSE_DRAG,    /* the pointer moved with a button down */
	MOUSE_RELEASE, /* the button came up */
	MOUSE_WHEEL,   /* a notch of a wheel: dx or dy says which way */
};

struct mouse_event {
	enum mouse_kind kind;
	int button; /* 0 left, 1 middle, 2 right; -1 unknown (release) */
	int x, y;   /* the cell, from 0 at the top left */
	int dx, dy; /* a wheel notch: -1 up or left, 1 down or right */
	bool shift, alt, ctrl;
	long long ms; /* when it came, on a monotonic clock */
};

/* The notches a wheel scrolls a list by, as less and htop do. */
enum { MOUSE_WHEEL_ROWS = 3 };

/* Two presses of one cell this close in milliseconds are a double
 * click. */
enum { MOUSE_DOUBLE_MS = 400 };

/*
 * The report that follows "ESC [ <" in s[0..len): "B;X;Y" and M (press)
 * or m (release), into *ev (ms left alone).  False when s is not such a
 * report or names a button the viewer has no use for.
 */
bool mouse_parse_sgr(const char *s, size_t len, struct mouse_event *ev);
/* The three values that follow "ESC [ M" in an X10 report (each plus 32),
 * into *ev; false when they make no event. */
bool mouse_parse_x10(int b, int x, int y, struct mouse_event *ev);

#endif
