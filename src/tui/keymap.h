/*
 * keymap: terminal keys and the requests they make.
 *
 * Keys are plain integers: a Unicode character, a control character
 * (1..31), or one of the KEY_* codes below; the terminal layer translates
 * its own codes into these so nothing else includes curses.h.
 */
#ifndef TRACETUI_KEYMAP_H
#define TRACETUI_KEYMAP_H

#include "tui/request.h"

enum {
	TKEY_NONE = -1,
	TKEY_WAITING = -2,    /* term_wait_key: nothing typed yet */
	TKEY_BASE = 0x110000, /* past the last Unicode character */
	TKEY_UP,
	TKEY_DOWN,
	TKEY_LEFT,
	TKEY_RIGHT,
	TKEY_PGUP,
	TKEY_PGDN,
	TKEY_HOME,
	TKEY_END,
	TKEY_BTAB,
	TKEY_BACKSPACE,
	TKEY_RESIZE,
	TKEY_F1,
	TKEY_F12 = TKEY_F1 + 11,
	TKEY_MOUSE, /* a mouse event: term_mouse says which */
	TKEY_ENTER = '\r',
	TKEY_ESC = 27,
	TKEY_TAB = '\t',
};

/* The request key makes, or REQ_NONE. */
enum request keymap_lookup(int key);
/* The key named name as in REQUEST_LIST ("C-o", "PgUp", "k"); TKEY_NONE
 * if it names none. */
int keymap_parse(const char *name);

#endif
