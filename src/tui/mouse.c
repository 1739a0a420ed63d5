/*
 * mouse: the button byte of both reports holds the button in its low two
 * bits, shift (4), alt (8) and ctrl (16), motion (32) and the wheel (64,
 * its low bits then up, down, left, right); 128 and more are extra
 * buttons, which nothing here uses.  SGR reports end in M for a press or
 * a motion and m for a release; X10 reports say a release with button
 * 3 and not which button it was.
 */
#include "config.h"

#include "tui/mouse.h"

#include <string.h>

/* Decode button byte b at cell (x, y), 1-based; release from the
 * report's form.  False when it makes no event. */
static bool
decode(long b, long x, long y, bool release, struct mouse_event *ev)
{
	int low = (int)(b & 3);

	if (b < 0 || b >= 128 || x < 1 || y < 1 || x > 100000 || y > 100000)
		return false;
	memset(ev, 0, sizeof(*ev));
	ev->x = (int)x - 1;
	ev->y = (int)y - 1;
	ev->shift = b & 4;
	ev->alt = b & 8;
	ev->ctrl = b & 16;
	ev->button = low;
	if (b & 64) {
		if (release)
			return false;
		ev->kind = MOUSE_WHEEL;
		ev->button = -1;
		if (low < 2)
			ev->dy = low ? 1 : -1;
		else
			ev->dx = low == 3 ? 1 : -1;
		return true;
	}
	if (release) {
		ev->kind = MOUSE_RELEASE;
		return true;
	}
	if (low == 3) {
		/* Motion without a button (mode 1003, never asked for) or
		 * an X10 release. */
		if (b & 32)
			return false;
		ev->kind = MOUSE_RELEASE;
		ev->button = -1;
		return true;
	}
	ev->kind = b & 32 ? MOUSE_DRAG : MOUSE_PRESS;
	return true;
}

/* A decimal number of at most 6 digits at s[*i], then sep; -1 if not. */
static long
number(const char *s, size_t len, size_t *i, char sep)
{
	long n = 0;
	size_t start = *i;

	while (*i < len && s[*i] >= '0' && s[*i] <= '9' && *i - start < 6)
		n = n * 10 + (s[(*i)++] - '0');
	if (*i == start || (sep && (*i >= len || s[*i] != sep)))
		return -1;
	if (sep)
		(*i)++;
	return n;
}

bool
mouse_parse_sgr(const char *s, size_t len, struct mouse_event *ev)
{
	size_t i = 0;
	long b = number(s, len, &i, ';');
	long x = b < 0 ? -1 : number(s, len, &i, ';');
	long y = x < 0 ? -1 : number(s, len, &i, 0);

	if (y < 0 || i + 1 != len || (s[i] != 'M' && s[i] != 'm'))
		return false;
	return decode(b, x, y, s[i] == 'm', ev);
}

bool
mouse_parse_x10(int b, int x, int y, struct mouse_event *ev)
{
	return decode((long)b - 32, (long)x - 32, (long)y - 32, false, ev);
}
