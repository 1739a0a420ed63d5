/*
 * term-curses: the only file that includes curses.h.  Roles map to colour
 * pairs on terminals with 256 or 8 colours and to attributes otherwise
 * (NO_COLOR, --color never, a terminal without colours); the selected row
 * is always reverse video, so it stays visible in monochrome.
 *
 * The mouse is ours, not ncurses's: ncurses reads SGR (1006) reports
 * only where terminfo's kmous says so (xterm-256color, not screen or
 * tmux-256color), yet tmux and xterm-like terminals over SSH all speak
 * it.  So the modes are set here (1000 clicks, 1002 drags, 1006 SGR
 * coordinates) when terminfo knows a mouse at all, "ESC [ <" and X10's
 * "ESC [ M" become keys of our own whose reports are read here, and
 * every way out turns the modes off first: term_close, a fatal signal,
 * and Ctrl-Z, which is handled here (not by ncurses) so that the shell
 * never gets reports and fg turns them on again.  Reports arrive and
 * are swallowed without --no-mouse's modes too, so no report ever
 * reaches the app as keys.
 */
#include "config.h"

#include "tui/term.h"

#include "tui/keymap.h"
#include "tui/mouse.h"
#include "util/alloc.h"

#include <curses.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <term.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static bool term_active;
static bool wait_active;         /* term_wait_begin's modes are on */
static bool wait_screen;         /* the wait's screen is up (term_wait_show) */
static struct winsize wait_size; /* the size it was last drawn at */
static bool reading; /* a file is read behind the viewer (term_reading) */
static struct termios wait_saved;
static volatile sig_atomic_t term_signal;
static volatile sig_atomic_t term_stop;    /* Ctrl-Z came */
static volatile sig_atomic_t mouse_active; /* the modes are on */
static struct mouse_event last_mouse;

/* Our key codes for the starts of mouse reports, past ncurses's. */
enum {
	TERM_KEY_SGR = KEY_MAX + 101,
	TERM_KEY_X10,
};

#define MOUSE_ON "\033[?1000h\033[?1002h\033[?1006h"
#define MOUSE_OFF "\033[?1006l\033[?1002l\033[?1000l"

/* Write s to the terminal at once; safe in a signal handler. */
static void
say(const char *s)
{
	size_t n = strlen(s);

	while (n) {
		ssize_t w = write(STDOUT_FILENO, s, n);

		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}
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
on_stop(int sig)
{
	(void)sig;
	term_stop = 1;
}

static void
on_fatal(int sig)
{
	/* Restore what we can, then die of the same signal. */
	if (mouse_active)
		say(MOUSE_OFF);
	if (wait_active)
		tcsetattr(STDIN_FILENO, TCSANOW, &wait_saved);
	if (term_active)
		endwin();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* For tests/tmux.sh (TRACETUI_TEST_STACK_OVERFLOW): recurse until the
 * stack is gone, with the screen and the mouse on, as a regcomp did. */
static volatile int overflow_forever = 1;

static int
overflow_stack(int depth)
{
	volatile char pad[4096];

	pad[0] = (char)depth;
	if (!overflow_forever)
		return pad[0];
	return overflow_stack(depth + 1) + pad[0];
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

/* True when terminfo says the terminal has a mouse. */
static bool
knows_mouse(void)
{
	const char *kmous = tigetstr("kmous");

	return kmous && kmous != (char *)-1 && *kmous;
}

/* The stack on_fatal runs on: a stack overflow leaves the thread's own
 * stack none (a regcomp of 20,000 nested groups did), and endwin needs
 * some.  The main thread's, where the viewer's keys are handled. */
static void
fatal_stack(void)
{
	static char stack[256 * 1024];
	static bool done;
	stack_t ss;

	if (done)
		return;
	done = true;
	memset(&ss, 0, sizeof(ss));
	ss.ss_sp = stack;
	ss.ss_size = sizeof(stack);
	sigaltstack(&ss, NULL);
}

/* Catch the signals that end the viewer in on_signal, the fatal ones in
 * on_fatal, on fatal_stack; SIGBUS only with bus, since while a file
 * loads it is main's (a mapped file that shrank). */
static void
catch_signals(bool bus)
{
	struct sigaction sa;

	fatal_stack();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_fatal;
	sa.sa_flags = SA_RESETHAND | SA_ONSTACK;
	sigaction(SIGSEGV, &sa, NULL);
	if (bus)
		sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
}

bool
term_wait_begin(void)
{
	static bool registered;
	struct termios raw;

	if (!isatty(STDIN_FILENO) || !isatty(STDERR_FILENO) ||
	    tcgetattr(STDIN_FILENO, &wait_saved) != 0)
		return false;
	raw = wait_saved;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSANOW, &raw) != 0)
		return false;
	wait_active = true;
	if (!registered) {
		registered = true;
		atexit(term_close);
	}
	catch_signals(false);
	return true;
}

int
term_wait_key(int ms)
{
	struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
	unsigned char c;
	int rc;

	if (term_signal)
		return TKEY_NONE;
	rc = poll(&p, 1, ms);
	if (term_signal)
		return TKEY_NONE;
	if (rc <= 0)
		return TKEY_WAITING;
	if (p.revents & (POLLHUP | POLLERR | POLLNVAL) ||
	    read(STDIN_FILENO, &c, 1) != 1) {
		term_signal = SIGHUP;
		return TKEY_NONE;
	}
	return c;
}

int
term_wait_width(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

/* What leaves the wait's screen (the terminal's own comes back) or, had
 * none been shown, erases the line the cursor is on. */
#define WAIT_SCREEN_ON "\033[?1049h"
#define WAIT_SCREEN_OFF "\033[H\033[2J\033[?1049l"

void
term_wait_show(const char *text)
{
	struct winsize ws = {0};

	ioctl(STDERR_FILENO, TIOCGWINSZ, &ws);
	/* A screen of its own, as the viewer's, redrawn whole when its
	 * size changed: a terminal that reflows its lines on a resize
	 * would otherwise keep the pieces of the line drawn at the old
	 * width above the new one ("tracetui: tracetui: ...").  Each
	 * redraw also erases every row below the line: a piece that a
	 * terminal reflowed there after the clear (tmux can, while its
	 * resize and our redraw cross) lasts one tick at most. */
	if (!wait_screen)
		fputs(WAIT_SCREEN_ON, stderr);
	if (!wait_screen || ws.ws_col != wait_size.ws_col ||
	    ws.ws_row != wait_size.ws_row)
		fputs("\033[H\033[2J", stderr);
	wait_screen = true;
	wait_size = ws;
	fprintf(stderr, "\033[H%s\033[J", text);
	fflush(stderr);
}

void
term_wait_end(void)
{
	if (!wait_active)
		return;
	wait_active = false;
	fputs(wait_screen ? WAIT_SCREEN_OFF : "\r\033[K", stderr);
	wait_screen = false;
	fflush(stderr);
	tcsetattr(STDIN_FILENO, TCSANOW, &wait_saved);
}

void
term_wait_fault(void)
{
	static const char erase[] = "\r\033[K", off[] = WAIT_SCREEN_OFF;

	/* The viewer's screen, when the file is read behind it. */
	if (term_active) {
		if (mouse_active)
			say(MOUSE_OFF);
		endwin();
		return;
	}
	if (!wait_active)
		return;
	wait_active = false;
	tcsetattr(STDIN_FILENO, TCSANOW, &wait_saved);
	if (wait_screen) {
		if (write(STDERR_FILENO, off, sizeof(off) - 1) < 0)
			return;
	} else if (write(STDERR_FILENO, erase, sizeof(erase) - 1) < 0) {
		return;
	}
}

void
term_reading(bool on)
{
	struct sigaction sa;

	reading = on;
	if (on || !term_active)
		return;
	/* Read: a SIGBUS is no longer a file that shrank. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal;
	sa.sa_flags = SA_RESETHAND | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

bool
term_open(enum term_color color, bool mouse, char **error)
{
	struct sigaction sa;
	SCREEN *screen;

	if (!term_usable(error))
		return false;
	/* Ctrl-Z is ours: ncurses leaves a SIGTSTP that is handled alone. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTSTP, &sa, NULL);
	screen = newterm(NULL, stdout, stdin);
	if (!screen) {
		signal(SIGTSTP, SIG_DFL);
		*error = xstrdup("cannot initialise the terminal (check "
		                 "TERM)" BATCH_ADVICE);
		return false;
	}
	{
		const char *cup = tigetstr("cup");

		if (!cup || cup == (char *)-1) {
			endwin();
			delscreen(screen);
			signal(SIGTSTP, SIG_DFL);
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
	/* Our keys for the reports, in place of any kmous binding. */
	define_key("\033[<", 0);
	define_key("\033[<", TERM_KEY_SGR);
	define_key("\033[M", 0);
	define_key("\033[M", TERM_KEY_X10);
	if (mouse && knows_mouse()) {
		mouse_active = 1;
		say(MOUSE_ON);
	}
	catch_signals(!reading);
	if (getenv("TRACETUI_TEST_STACK_OVERFLOW"))
		overflow_stack(0);
	return true;
}

void
term_close(void)
{
	term_wait_end();
	if (!term_active)
		return;
	term_active = false;
	if (mouse_active)
		say(MOUSE_OFF);
	mouse_active = 0;
	curs_set(1);
	endwin();
	signal(SIGTSTP, SIG_DFL);
}

/* Ctrl-Z: the terminal as it was, stopped, then the viewer back. */
static void
suspend(void)
{
	struct sigaction sa;
	bool mouse = mouse_active;

	term_stop = 0;
	if (mouse)
		say(MOUSE_OFF);
	mouse_active = 0;
	endwin();
	signal(SIGTSTP, SIG_DFL);
	raise(SIGTSTP);
	/* Continued. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTSTP, &sa, NULL);
	clearok(curscr, TRUE);
	if (mouse) {
		mouse_active = 1;
		say(MOUSE_ON);
	}
}

/* The mouse was on when term_suspend handed the terminal over. */
static bool mouse_suspended;

void
term_suspend(void)
{
	if (!term_active)
		return;
	/* The program run gets the terminal without our mouse modes. */
	mouse_suspended = mouse_active;
	if (mouse_suspended)
		say(MOUSE_OFF);
	mouse_active = 0;
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
	if (mouse_suspended) {
		mouse_active = 1;
		say(MOUSE_ON);
	}
	mouse_suspended = false;
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

/* The rest of an SGR report ("B;X;YM") into last_mouse; what it read is
 * dropped either way.  False when it was no report. */
static bool
read_sgr(void)
{
	char buf[32];
	size_t n = 0;
	wint_t wc;
	bool done = false;

	timeout(100);
	while (!done && n < sizeof(buf) && get_wch(&wc) == OK) {
		if (!(wc >= '0' && wc <= '9') && wc != ';' && wc != 'M' &&
		    wc != 'm')
			break;
		buf[n++] = (char)wc;
		done = wc == 'M' || wc == 'm';
	}
	timeout(250);
	return done && mouse_parse_sgr(buf, n, &last_mouse);
}

/* The three values of an X10 report into last_mouse. */
static bool
read_x10(void)
{
	int v[3], i;
	wint_t wc;

	timeout(100);
	for (i = 0; i < 3 && get_wch(&wc) == OK; i++)
		v[i] = (int)wc;
	timeout(250);
	return i == 3 && mouse_parse_x10(v[0], v[1], v[2], &last_mouse);
}

/*
 * After a lone ESC: an SGR report that came too late for the keypad to
 * see it whole (a slow link); false, with what was read given back,
 * when none follows.
 */
static bool
late_report(bool *report)
{
	wint_t a, b;
	int ra, rb;

	*report = false;
	timeout(30);
	ra = get_wch(&a);
	if (ra == OK && a == '[') {
		rb = get_wch(&b);
		if (rb == OK && b == '<') {
			*report = true;
			return read_sgr();
		}
		if (rb == OK)
			unget_wch(b);
		else if (rb == KEY_CODE_YES)
			ungetch((int)b);
	}
	if (ra == OK)
		unget_wch(a);
	else if (ra == KEY_CODE_YES)
		ungetch((int)a);
	timeout(250);
	return false;
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
	return term_read_key_within(-1);
}

int
term_read_key_within(int ms)
{
	wint_t wc;
	int quick = 0;
	long long start = now_ms();

	for (;;) {
		long long before = now_ms();
		int rc;

		if (term_signal)
			return TKEY_NONE;
		if (term_stop) {
			suspend();
			return TKEY_RESIZE;
		}
		rc = get_wch(&wc);
		if (rc == ERR) {
			if (terminal_vanished(now_ms() - before, &quick)) {
				term_signal = SIGHUP;
				return TKEY_NONE;
			}
			if (ms >= 0 && now_ms() - start >= ms)
				return TKEY_WAITING;
			continue;
		}
		if (rc == KEY_CODE_YES &&
		    (wc == TERM_KEY_SGR || wc == TERM_KEY_X10)) {
			bool ok = wc == TERM_KEY_SGR ? read_sgr() : read_x10();

			if (!ok || !mouse_active)
				continue;
			last_mouse.ms = now_ms();
			return TKEY_MOUSE;
		}
		if (rc == KEY_CODE_YES)
			return translate((int)wc);
		if (wc == TKEY_ESC) {
			bool report;

			if (late_report(&report) && mouse_active) {
				last_mouse.ms = now_ms();
				return TKEY_MOUSE;
			}
			if (report)
				continue;
		}
		/* C-l: the next refresh repaints every cell, not just
		 * what curses believes changed. */
		if (keymap_lookup((int)wc) == REQ_REDRAW)
			clearok(curscr, TRUE);
		return wc == '\n' ? TKEY_ENTER : (int)wc;
	}
}

bool
term_key_waiting(void)
{
	wint_t wc;
	int rc;

	if (term_signal || term_stop)
		return true;
	timeout(0);
	rc = get_wch(&wc);
	timeout(250);
	if (rc == ERR)
		return false;
	/* Back where the next read takes it. */
	if (rc == KEY_CODE_YES)
		ungetch((int)wc);
	else
		unget_wch((wchar_t)wc);
	return true;
}

void
term_mouse(struct mouse_event *ev)
{
	*ev = last_mouse;
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
