/*
 * term-curses: the only file that includes curses.h.  Roles map to colour
 * pairs on terminals with 256 or 8 colours and to attributes otherwise
 * (NO_COLOR, --color never, a terminal without colours); the selected row
 * is always reverse video, so it stays visible in monochrome.
 */
#include "config.h"

#include "tui/term.h"

#include "tui/keymap.h"
#include "util/alloc.h"

#include <curses.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <time.h>
#include <unistd.h>

static bool term_active;
static volatile sig_atomic_t term_signal;
static attr_t role_attr[ROLE_COUNT];

struct role_style {
	short fg256, bg256; /* -1: terminal default */
	short fg8, bg8;
	attr_t attr; /* added in colour */
	attr_t mono; /* used without colour */
};

static const struct role_style styles[ROLE_COUNT] = {
        [ROLE_NORMAL] = {-1, -1, -1, -1, A_NORMAL, A_NORMAL},
        [ROLE_TITLE] = {231, 24, COLOR_WHITE, COLOR_BLUE, A_BOLD, A_REVERSE},
        [ROLE_STATUS] = {16, 250, COLOR_BLACK, COLOR_WHITE, A_NORMAL,
                         A_REVERSE},
        [ROLE_HINT] = {252, 236, COLOR_WHITE, COLOR_BLACK, A_NORMAL, A_NORMAL},
        [ROLE_HEADER] = {220, -1, COLOR_YELLOW, -1, A_BOLD,
                         A_BOLD | A_UNDERLINE},
        [ROLE_CURSOR] = {16, 117, COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE},
        [ROLE_DIM] = {244, -1, COLOR_BLUE, -1, A_NORMAL, A_DIM},
        [ROLE_HOT] = {203, -1, COLOR_RED, -1, A_BOLD, A_BOLD},
        [ROLE_MATCH] = {16, 226, COLOR_BLACK, COLOR_YELLOW, A_NORMAL,
                        A_UNDERLINE | A_BOLD},
        [ROLE_TAGGED] = {46, -1, COLOR_GREEN, -1, A_BOLD, A_BOLD},
        [ROLE_WARNING] = {203, -1, COLOR_RED, -1, A_BOLD, A_BOLD},
        [ROLE_SECTION] = {176, -1, COLOR_MAGENTA, -1, A_BOLD, A_BOLD},
        /* Hues in colour; without colour, every other hue is bold. */
        [ROLE_PALETTE_0] = {209, -1, COLOR_RED, -1, A_NORMAL, A_NORMAL},
        [ROLE_PALETTE_1] = {221, -1, COLOR_YELLOW, -1, A_NORMAL, A_BOLD},
        [ROLE_PALETTE_2] = {150, -1, COLOR_GREEN, -1, A_NORMAL, A_NORMAL},
        [ROLE_PALETTE_3] = {80, -1, COLOR_CYAN, -1, A_NORMAL, A_BOLD},
        [ROLE_PALETTE_4] = {111, -1, COLOR_BLUE, -1, A_NORMAL, A_NORMAL},
        [ROLE_PALETTE_5] = {183, -1, COLOR_MAGENTA, -1, A_NORMAL, A_BOLD},
        /* Changes from --base: without colour, slower is bold. */
        [ROLE_SLOWER] = {196, -1, COLOR_RED, -1, A_BOLD, A_BOLD},
        [ROLE_FASTER] = {33, -1, COLOR_BLUE, -1, A_NORMAL, A_DIM},
};

static void
on_signal(int sig)
{
	term_signal = sig;
}

static void
on_fatal(int sig)
{
	/* Restore what we can, then die of the same signal. */
	if (term_active)
		endwin();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
set_colors(enum term_color mode)
{
	bool want = mode == TERM_COLOR_ALWAYS ||
	            (mode == TERM_COLOR_AUTO && !getenv("NO_COLOR"));
	int r;

	if (want && has_colors() && start_color() == OK) {
		bool deep = COLORS >= 256;

		use_default_colors();
		for (r = 1; r < ROLE_COUNT; r++) {
			const struct role_style *s = &styles[r];

			init_pair((short)r, deep ? s->fg256 : s->fg8,
			          deep ? s->bg256 : s->bg8);
			role_attr[r] = COLOR_PAIR(r) | s->attr;
		}
		if (!deep)
			role_attr[ROLE_CURSOR] = A_REVERSE;
		return;
	}
	for (r = 0; r < ROLE_COUNT; r++)
		role_attr[r] = styles[r].mono;
}

/* The advice given when the terminal cannot host the viewer. */
#define BATCH_ADVICE                                                           \
	"; the batch commands print text instead (tracetui report FILE, "      \
	"tree, calls, info)"

bool
term_usable(char **error)
{
	const char *name = getenv("TERM");

	if (!name || !*name || strcmp(name, "dumb") == 0) {
		*error = xasprintf("the viewer needs a terminal that can move "
		                   "its cursor, and TERM is %s" BATCH_ADVICE,
		                   name && *name ? "dumb" : "not set");
		return false;
	}
	return true;
}

bool
term_open(enum term_color color, char **error)
{
	struct sigaction sa;
	SCREEN *screen;

	if (!term_usable(error))
		return false;
	screen = newterm(NULL, stdout, stdin);
	if (!screen) {
		*error = xstrdup("cannot initialise the terminal (check "
		                 "TERM)" BATCH_ADVICE);
		return false;
	}
	{
		const char *cup = tigetstr("cup");

		if (!cup || cup == (char *)-1) {
			endwin();
			delscreen(screen);
			*error = xstrdup("the terminal cannot move its cursor "
			                 "(check TERM)" BATCH_ADVICE);
			return false;
		}
	}
	term_active = true;
	atexit(term_close);
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	timeout(250);
	set_colors(color);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_fatal;
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	return true;
}

void
term_close(void)
{
	if (!term_active)
		return;
	term_active = false;
	curs_set(1);
	endwin();
}

void
term_suspend(void)
{
	if (!term_active)
		return;
	def_prog_mode();
	curs_set(1);
	endwin();
}

void
term_resume(void)
{
	if (!term_active)
		return;
	reset_prog_mode();
	curs_set(0);
	/* The next paint redraws every cell: the program left its own. */
	clearok(curscr, TRUE);
	refresh();
}

void
term_size(int *width, int *height)
{
	getmaxyx(stdscr, *height, *width);
}

void
term_paint(const struct canvas *c)
{
	int x, y;

	for (y = 0; y < c->height; y++) {
		move(y, 0);
		for (x = 0; x < c->width; x++) {
			const struct canvas_cell *cell =
			        &c->cells[(size_t)y * c->width + x];

			if (!cell->width)
				continue;
			attrset(role_attr[cell->role]);
			addstr(cell->glyph);
		}
	}
	attrset(A_NORMAL);
	refresh();
}

void
term_notice(const char *text)
{
	move(LINES - 1, 0);
	attrset(A_REVERSE);
	addstr(text);
	attrset(A_NORMAL);
	clrtoeol();
	refresh();
}

static int
translate(int ch)
{
	switch (ch) {
	case KEY_UP:
		return TKEY_UP;
	case KEY_DOWN:
		return TKEY_DOWN;
	case KEY_LEFT:
		return TKEY_LEFT;
	case KEY_RIGHT:
		return TKEY_RIGHT;
	case KEY_PPAGE:
		return TKEY_PGUP;
	case KEY_NPAGE:
		return TKEY_PGDN;
	case KEY_HOME:
		return TKEY_HOME;
	case KEY_END:
		return TKEY_END;
	case KEY_BTAB:
		return TKEY_BTAB;
	case KEY_BACKSPACE:
		return TKEY_BACKSPACE;
	case KEY_ENTER:
		return TKEY_ENTER;
	case KEY_RESIZE:
		return TKEY_RESIZE;
	default:
		if (ch >= KEY_F(1) && ch <= KEY_F(12))
			return TKEY_F1 + ch - KEY_F(1);
		return ch;
	}
}

/* Milliseconds on a monotonic clock. */
static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * After get_wch gave nothing: true when the terminal is gone (hung up,
 * closed, or read at its end), which a SIGHUP that is ignored or never
 * sent would otherwise leave the loop spinning on.  `quick` counts the
 * empty reads in a row that came back well before their timeout.
 */
static bool
terminal_vanished(long long waited_ms, int *quick)
{
	struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};

	if (poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL)))
		return true;
	if (waited_ms >= 100) {
		*quick = 0;
		return false;
	}
	return ++*quick >= 50;
}

int
term_read_key(void)
{
	wint_t wc;
	int quick = 0;

	for (;;) {
		long long before = now_ms();
		int rc;

		if (term_signal)
			return TKEY_NONE;
		rc = get_wch(&wc);
		if (rc == ERR) {
			if (terminal_vanished(now_ms() - before, &quick)) {
				term_signal = SIGHUP;
				return TKEY_NONE;
			}
			continue;
		}
		if (rc == KEY_CODE_YES)
			return translate((int)wc);
		/* C-l: the next refresh repaints every cell, not just
		 * what curses believes changed. */
		if (keymap_lookup((int)wc) == REQ_REDRAW)
			clearok(curscr, TRUE);
		return wc == '\n' ? TKEY_ENTER : (int)wc;
	}
}

bool
term_interrupted(void)
{
	return term_signal != 0;
}

int
term_signal_number(void)
{
	return (int)term_signal;
}
