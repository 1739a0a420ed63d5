/*
 * term: the terminal, as the rest of the program sees it.  Only
 * tui/term-curses.c implements it and only it includes curses.h.
 *
 * term_close restores the terminal and may be called any number of
 * times; it is also called on exit, on allocation failure, and after a
 * fatal signal.  SIGINT, SIGTERM and SIGHUP, and a terminal that hangs
 * up or reaches its end, make term_read_key return TKEY_NONE with
 * term_interrupted() true, so the loop ends cleanly.
 */
#ifndef TRACETUI_TERM_H
#define TRACETUI_TERM_H

#include "tui/canvas.h"

#include <stdbool.h>

enum term_color {
	TERM_COLOR_AUTO,
	TERM_COLOR_ALWAYS,
	TERM_COLOR_NEVER,
};

/* False with a message in *error when TERM says the terminal cannot
 * host the viewer (dumb, unset), before anything is loaded. */
bool term_usable(char **error);
/* Take over the terminal; false with a message in *error otherwise. */
bool term_open(enum term_color color, char **error);
/* Restore the terminal. */
void term_close(void);
/* The terminal's size in columns and rows. */
void term_size(int *width, int *height);
/* Give the terminal back as it was before term_open (for a program run
 * in it); term_resume takes it again and repaints all of it. */
void term_suspend(void);
/* Take the terminal back after term_suspend. */
void term_resume(void);
/* Show the canvas. */
void term_paint(const struct canvas *canvas);
/* Show text on the bottom line at once, over what was painted. */
void term_notice(const char *text);
/* Wait for a key (tui/keymap.h codes); TKEY_RESIZE after a resize. */
int term_read_key(void);
/* True once SIGINT, SIGTERM or SIGHUP arrived, or the terminal vanished. */
bool term_interrupted(void);
/* The signal that ended the viewer (SIGHUP for a vanished terminal), or
 * 0. */
int term_signal_number(void);

#endif
