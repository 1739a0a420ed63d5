/*
 * views/timeline.h: the timeline view's state, shared by its files (and
 * by nothing else): timeline-window.c keeps the window on the time axis
 * and the selection, timeline-draw.c draws the chart, timeline.c handles
 * requests.  Functions shared between them are named tlv_.
 */
#ifndef TRACETUI_VIEWS_TIMELINE_H
#define TRACETUI_VIEWS_TIMELINE_H

#include "tui/app.h"
#include "query/timeline.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sort_key {
	SORT_BUSY,
	SORT_NAME,
	SORT_COUNT,
};

enum fit_mode {
	FIT_NONE,   /* the user's zoom and pan */
	FIT_TARGET, /* the applied range, else the whole trace */
	FIT_ALL,    /* the whole trace */
};

/* The chart of one thread as last drawn. */
struct drawn {
	uint32_t *cells; /* rows x plot, from depth dtop */
	size_t need;     /* rows its chart needs */
	size_t rows;     /* rows shown */
	size_t dtop;     /* the first depth shown */
	bool done;
};

/* What the last draw put on a line of the threads' area, for the
 * mouse. */
struct drawn_line {
	size_t row;            /* the thread's row; SIZE_MAX: nothing */
	bool header;           /* its header, else a depth */
	const uint32_t *cells; /* a depth's call per plot column */
};

/* Everything the view keeps between key presses. */
struct timeline_view {
	struct timeline *index[CLOCK_COUNT]; /* NULL until first needed */
	enum clock_index clock;              /* the clock bars are laid on */
	uint64_t lo, hi; /* the trace's events on the clock */
	uint32_t *rows;  /* threads of the scope, sorted */
	size_t nrows;
	bool rows_stale; /* the scope changed */
	enum sort_key sort;
	bool reverse;
	bool *folded; /* per thread of the tree */
	bool *idle;   /* per thread: no call in the range */
	/* The threads of the scope without a call in the range are left
	 * out of the rows (nidle of them) unless show_idle (H). */
	bool show_idle;
	size_t nidle;
	/* The thread that draws frames (Choreographer.doFrame's, else
	 * main), first when sorted by busy time; UINT32_MAX: none. */
	uint32_t drawer;
	bool *frame_methods; /* per method, made on first need */
	bool frames_known;
	size_t cur, top; /* current row, first row shown */
	uint32_t call;   /* the selected call, or CALL_NONE: the header */
	/* The app's selection as last seen (its serial), and whether the
	 * call shown was chosen for a method selected elsewhere rather than
	 * by the user (`.` and `,` then start from the ends). */
	unsigned sel_serial;
	bool call_guessed;
	size_t dtop;               /* the current thread's first depth shown */
	uint64_t col;              /* microseconds per column */
	uint64_t first;            /* first column shown, at first * col */
	enum fit_mode fit;         /* recompute the window at every draw */
	uint64_t cursor;           /* the time cursor */
	bool marking;              /* a range is being selected */
	uint64_t mark_lo, mark_hi; /* what was selected at its start */
	struct time_range seen;    /* the app's range at the last refresh */
	int plot;                  /* plot columns at the last draw */
	int area;                  /* rows for threads at the last draw */
	bool ascii;                /* the last canvas's character set */
	int width;
	bool *match;           /* per method: matches the search */
	unsigned match_serial; /* the search it was made for, + 1 */
	struct drawn *drawn;   /* per row, during a draw */
	/* The last draw's layout: its rows' charts (kept for their
	 * cells), its lines from screen row line_y, the axis's row and the
	 * plot's first column. */
	struct drawn *kept;
	size_t nkept;
	struct drawn_line *lines;
	int nlines, line_y, axis_y, x0;
	bool dragging;     /* a drag on the axis marks a range */
	uint64_t drag_col; /* the column the drag started on */
	/* The selected call's exclusive time on the clock without an
	 * index, once walked. */
	uint32_t excl_call;
	enum clock_index excl_clock;
	uint64_t excl;
};

/* The smallest of 1, 2, 5, 10, 20, ... that is >= x. */
uint64_t tlv_nice_at_least(uint64_t x);
/* The largest nice value below col (1 when col is 1). */
uint64_t tlv_nice_below(uint64_t col);
/* "wall" or "cpu". */
const char *tlv_clock_name(enum clock_index k);
/* The index of the clock the bars are laid out on. */
const struct timeline *tlv_index_of(const struct timeline_view *v);
/* The rows of the scope in order, keeping the current thread. */
void tlv_build_rows(struct timeline_view *v, struct app *app);
/* Plot columns at the last draw (60 before the first). */
int tlv_plot_width(const struct timeline_view *v);
/* The column width that holds [from, to) in the plot. */
uint64_t tlv_col_for(const struct timeline_view *v, uint64_t from, uint64_t to);
/* The window of the whole trace. */
void tlv_fit_all(struct timeline_view *v);
/* Make the window hold [from, to), no wider than the whole trace. */
void tlv_fit_window(struct timeline_view *v, uint64_t from, uint64_t to);
/* The range applied on this clock, if any, into from and to. */
bool tlv_range_here(const struct timeline_view *v, const struct app *app,
                    uint64_t *from, uint64_t *to);
/* Recompute a fitted window for the current plot width. */
void tlv_refit(struct timeline_view *v, const struct app *app);
/* The name column and the plot (x0, plot) for a screen width columns
 * wide. */
void tlv_lay_out(struct timeline_view *v, const struct app *app, int width);
/* The cursor's column, counted from the first one shown. */
int64_t tlv_cursor_x(const struct timeline_view *v);
/* Keep the time cursor inside the trace's events. */
void tlv_keep_cursor_in(struct timeline_view *v);
/* Scroll so the cursor is on the screen; centre it when it was far. */
void tlv_show_cursor(struct timeline_view *v, bool centre);
/* Zoom to column width col, keeping the cursor's column. */
void tlv_zoom_to(struct timeline_view *v, uint64_t col);
/* The events' span on the view's clock. */
void tlv_measure_span(struct timeline_view *v, const struct calltree *tree);
/* Build the index and rows the first time; rebuild rows when stale;
 * show the app's selection when another view changed it. */
void tlv_ensure(struct timeline_view *v, struct app *app);
/* The selected call, if any, as the app's selection. */
void tlv_publish(struct timeline_view *v, struct app *app);
/* The current row's thread, or UINT32_MAX without rows. */
uint32_t tlv_current_thread(const struct timeline_view *v);
/* The row of thread t, or SIZE_MAX when it is not in the scope. */
size_t tlv_row_of(const struct timeline_view *v, uint32_t t);
/* What the selection covers: the call, else the cursor's column. */
void tlv_selected_span(const struct timeline_view *v,
                       const struct calltree *tree, uint64_t *from,
                       uint64_t *to);
/* The marked range so far: the anchor's span and the selection's. */
void tlv_marked(const struct timeline_view *v, const struct calltree *tree,
                uint64_t *from, uint64_t *to);
/* Select call c of the current thread (CALL_NONE: its header), with the
 * time cursor on its start, scrolled into sight. */
void tlv_select_call(struct timeline_view *v, const struct calltree *tree,
                     uint32_t c);
/* Select call c of thread t, unfolding it. */
void tlv_select_on_thread(struct timeline_view *v, const struct calltree *tree,
                          uint32_t t, uint32_t c);
/* The call of the current thread open at `at` at depth d or less, or
 * CALL_NONE. */
uint32_t tlv_call_near(const struct timeline_view *v,
                       const struct calltree *tree, uint64_t at, uint32_t d);
/* The methods matching the app's search, made once per pattern. */
const bool *tlv_matches(struct timeline_view *v, struct app *app);
/* Forget the last draw's layout. */
void tlv_forget_layout(struct timeline_view *v);
/* The view's draw: the axis, the threads' charts, the panel. */
void tlv_draw(void *state, struct app *app, struct canvas *c, int top,
              int height);

#endif
