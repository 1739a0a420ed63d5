/*
 * term: the terminal, as the rest of the program sees it.  Only
 * tui/term-curses.c implements it and only it includes curses.h.
 *
 * term_close restores the terminal and may be called any number of
 * times; it is also called on exit, on allocation failure, and after a
 * fatal signal.  SIGINT, SIGTERM and SIGHUP, and a terminal that hangs
 * up or reaches its end, make term_read_key return TKEY_NONE with
 * term_interrupted() true, so the loop ends cleanly.  Ctrl-Z restores
 * the terminal, stops, and on fg term_read_key returns TKEY_RESIZE.
 */
#ifndef TRACETUI_TERM_H
#define TRACETUI_TERM_H

#include "tui/canvas.h"
#include "tui/mouse.h"

#include <stdbool.h>

enum term_color {
	TERM_COLOR_AUTO,
	TERM_COLOR_ALWAYS,
	TERM_COLOR_NEVER,
};

/* False with a message in *error when TERM says the terminal cannot
 * host the viewer (dumb, unset), before anything is loaded. */
bool term_usable(char **error);
/* Take over the terminal, with the mouse when asked and terminfo knows
 * one; false with a message in *error otherwise. */
bool term_open(enum term_color color, bool mouse, char **error);
/* Restore the terminal. */
void term_close(void);
/* The terminal's size in columns and rows. */
void term_size(int *width, int *height);
/* Give the terminal back as it was before term_open, the mouse modes
 * off (for a program run in it); term_resume takes it again, the mouse
 * on again if it was, and repaints all of it. */
void term_suspend(void);
/* Take the terminal back after term_suspend. */
void term_resume(void);
/* Show the canvas. */
void term_paint(const struct canvas *canvas);
/* Show text on the bottom line at once, over what was painted. */
void term_notice(const char *text);
/* Wait for a key (tui/keymap.h codes); TKEY_RESIZE after a resize,
 * TKEY_MOUSE for a mouse event. */
int term_read_key(void);
/* term_read_key, or TKEY_WAITING once ms milliseconds (rounded up to the
 * terminal's poll of a quarter second) passed without a key. */
int term_read_key_within(int ms);
/* Whether a key (or a signal) waits to be read, without taking it. */
bool term_key_waiting(void);
/* The mouse event TKEY_MOUSE stands for. */
void term_mouse(struct mouse_event *ev);
/*
 * The wait before the viewer takes the terminal (a load): keys arrive
 * one at a time without echo and a status line is redrawn on stderr;
 * the signals above end the wait as they end the viewer.  term_close
 * ends it too.
 */
/* Start the wait; false when standard input or error is no terminal. */
bool term_wait_begin(void);
/* A key byte typed within ms milliseconds, TKEY_WAITING if none,
 * TKEY_NONE once a signal arrived or the terminal vanished. */
int term_wait_key(int ms);
/* The terminal's width in columns, for the status line. */
int term_wait_width(void);
/* Replace the status line with text (already escaped, narrower than the
 * terminal). */
void term_wait_show(const char *text);
/* Erase the status line and give the terminal its modes back. */
void term_wait_end(void);
/* term_wait_end, or term_close while a file is read behind the viewer,
 * from a signal handler that ends the process (a mapped file that
 * shrank while it loads): nothing else. */
void term_wait_fault(void);
/* Whether a file is still read behind the viewer: a SIGBUS meanwhile is
 * main's (a file that shrank, through term_wait_fault), else fatal. */
void term_reading(bool on);
/* True once SIGINT, SIGTERM or SIGHUP arrived, or the terminal vanished. */
bool term_interrupted(void);
/* The signal that ended the viewer (SIGHUP for a vanished terminal), or
 * 0. */
int term_signal_number(void);

#endif
