/*
 * frames: every frame of the threads that draw in the scope
 * (query/frames.h), longest first (s: by start), each with a bar of its
 * length against the budget's line, slow and frozen marked, and its
 * hottest method; the summary goes in the title.  Enter opens the call
 * chart on the frame, its span the range; l (Right) moves onto the hot
 * methods, where Enter opens the call tree on the heaviest call of that
 * method inside the frame, its span the range.
 */
#include "config.h"

#include "query/frames.h"
#include "query/method-name.h"
#include "text/duration.h"
#include "tui/app.h"
#include "tui/list-table.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

/* The columns, left to right: the mark (slow, frozen), the thread, the
 * times, the bar against the budget, and the hot methods; w writes
 * the time over budget and each hot method and its time instead of the
 * bar and the hot methods joined. */
enum frame_column {
	FC_MARK,
	FC_THREAD,
	FC_START,
	FC_WALL,
	FC_CPU,
	FC_BAR,
	FC_OVER,
	FC_HOT,
	FC_HOT_NAME, /* the hot methods (FRAME_HOT) and their times */
	FC_HOT_MS,
	FC_SECOND_NAME,
	FC_SECOND_MS,
	FC_COUNT,
};

enum {
	MARK_W = 6,
	HOT_NAME_MIN = 12, /* a second hot method needs this much name */
	SUMMARY_LINES = 2, /* the summary's lines at the most */
};

static const struct list_column columns[FC_COUNT] = {
        {"", COLUMN_TEXT, 0, COLUMN_KEEP, .tsv = "Mark", .fixed = MARK_W},
        LIST_COLUMN("Thread", COLUMN_TEXT, 12, COLUMN_KEEP),
        {"Start ms", COLUMN_NUMBER, 0, 2, .pad = 1},
        {"Wall ms", COLUMN_NUMBER, 0, COLUMN_KEEP, .pad = 1},
        {"Cpu ms", COLUMN_NUMBER, 0, COLUMN_KEEP, .pad = 1},
        {"vs budget", COLUMN_NUMBER, 0, 1, .use = LIST_SCREEN, .drawn = true},
        {"Over ms", COLUMN_NUMBER, 0, 1, .use = LIST_WRITE},
        {"Hot methods (exclusive ms)", COLUMN_NAME, 24, COLUMN_KEEP,
         .use = LIST_SCREEN, .drawn = true},
        {"Hot method", COLUMN_TEXT, 0, 1, .use = LIST_WRITE},
        {"Hot ms", COLUMN_NUMBER, 0, 1, .use = LIST_WRITE},
        {"Second method", COLUMN_TEXT, 0, 1, .use = LIST_WRITE},
        {"Second ms", COLUMN_NUMBER, 0, 1, .use = LIST_WRITE},
};

struct frames_view {
	struct list_view lv; /* first: the list view's ops take the state */
	struct frames fr;
	struct frame_summary sum;
	uint32_t *order; /* frames in the view's order */
	bool by_start;
	int hot; /* 0: the frame; k: its k-th hot method */
	struct list_column cols[FC_COUNT]; /* the bar as wide as the screen
	                                      allows */
	struct list_table table;
};

static const struct drawn_frame *
frame_at(const struct frames_view *v, size_t row)
{
	return &v->fr.frames[v->order[row]];
}

struct sort_ctx {
	const struct frames *fr;
	bool by_start;
};

static int
frame_cmp(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *s = arg;
	const struct drawn_frame *x = &s->fr->frames[*(const uint32_t *)a];
	const struct drawn_frame *y = &s->fr->frames[*(const uint32_t *)b];
	enum clock_index k = s->fr->clock;

	if (!s->by_start && x->dur[k] != y->dur[k])
		return x->dur[k] > y->dur[k] ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->thread < y->thread ? -1 : x->thread > y->thread;
}

static void
sort_frames(struct frames_view *v)
{
	struct sort_ctx s = {&v->fr, v->by_start};

	if (v->fr.count > 1)
		qsort_r(v->order, v->fr.count, sizeof(*v->order), frame_cmp,
		        &s);
	v->table.sort = v->by_start ? FC_START : FC_WALL;
	v->table.sort_up = v->by_start;
	/* The filter's rows are places in the order: asked again. */
	list_set_count(&v->lv.list, v->fr.count);
}

/* The frames of the app's scope, found again; the cursor stays on its
 * frame's call when it is still there. */
static void
build(struct frames_view *v, struct app *app)
{
	uint32_t call = CALL_NONE;
	char why[256];
	bool *is_frame;
	size_t i;

	if (v->fr.count && v->lv.list.cursor < v->fr.count)
		call = v->fr.frames[v->order[v->lv.list.cursor]].call;
	frames_done(&v->fr);
	free(v->order);
	is_frame =
	        frames_methods(app->tree, app->frame_method, why, sizeof(why));
	if (!is_frame) /* checked with the options: not seen */
		is_frame = xcalloc(app->tree->nmethods + 1, sizeof(*is_frame));
	frames_find(&v->fr, app->tree, &app->scope, is_frame,
	            app->frame_budget > 0
	                    ? app->frame_budget
	                    : frames_budget_of_rate(FRAMES_DEFAULT_HZ));
	free(is_frame);
	frames_summarize(&v->fr, 0, v->fr.count, &v->sum);
	list_view_built(&v->lv, &app->scope);
	v->order = xcalloc(v->fr.count + 1, sizeof(*v->order));
	for (i = 0; i < v->fr.count; i++)
		v->order[i] = (uint32_t)i;
	sort_frames(v);
	list_reset(&v->lv.list);
	for (i = 0; call != CALL_NONE && i < v->fr.count; i++)
		if (v->fr.frames[v->order[i]].call == call)
			list_select(&v->lv.list, i);
	v->hot = 0;
}

static const struct drawn_frame *
current(const struct frames_view *v)
{
	return v->fr.count ? frame_at(v, v->lv.list.cursor) : NULL;
}

static char *
ms(uint64_t us)
{
	char buf[DURATION_SIZE];

	return xstrdup(duration_ms(buf, sizeof(buf), us));
}

/* us in milliseconds to one decimal, for the title. */
static char *
ms1(uint64_t us)
{
	return xasprintf("%.1f", (double)us / 1000);
}

/* The bar of frame f, w cells: the budget's line at the middle. */
static void
draw_bar(const struct frames_view *v, struct canvas *c,
         const struct drawn_frame *f, int x, int y, int w, enum role role)
{
	double per_cell = v->fr.budget / (w / 2);
	double len = (double)f->dur[v->fr.clock] / per_cell;
	int i;

	for (i = 0; i < w; i++) {
		bool over = i >= w / 2;

		if (i < len) {
			bool cut = i == w - 1 && len > w;

			canvas_fill(c, x + i, y, 1,
			            canvas_glyph(c, cut ? GLYPH_ARROW
			                                : GLYPH_BLOCK),
			            over && role == ROLE_NORMAL ? ROLE_HOT
			                                        : role);
		} else if (i == w / 2) {
			canvas_fill(c, x + i, y, 1,
			            canvas_glyph(c, GLYPH_VLINE),
			            role == ROLE_NORMAL ? ROLE_DIM : role);
		}
	}
}

static char *fv_summary(const struct frames_view *v);

/* Frame f's hot method k as shown whole, "Class.method 12.345", a new
 * string. */
static char *
hot_text(const struct app *app, const struct drawn_frame *f, int k)
{
	char *name = app_method_name(app, f->hot[k]), *ex = ms(f->hot_excl[k]);
	char *t = xasprintf("%s %s", name, ex);

	free(name);
	free(ex);
	return t;
}

/* The hot methods of frame f in w columns from x: each with its value
 * whole and its name shortened from the left, as many as fit. */
static void
draw_hot(const struct frames_view *v, const struct app *app, struct canvas *c,
         const struct drawn_frame *f, int x, int y, int w, enum role role)
{
	int end = x + w, k;

	for (k = 0; k < FRAME_HOT && f->hot[k] != CALL_NONE; k++) {
		char *ex = ms(f->hot_excl[k]), *name, *fit, *t;
		int room = end - x - (int)text_width(ex) - 1;
		bool on = role == ROLE_CURSOR && v->hot == k + 1;

		if (k && room < HOT_NAME_MIN) {
			free(ex);
			break;
		}
		name = app_method_name(app, f->hot[k]);
		fit = method_cut_left(name, room,
		                      canvas_glyph(c, GLYPH_TRUNCATED));
		t = xasprintf("%s %s", fit, ex);
		x += canvas_text(c, x, y, end - x, t, on ? ROLE_MATCH : role) +
		     2;
		free(t);
		free(fit);
		free(name);
		free(ex);
	}
}

/* Row row's cell of column col, a new string: the hot methods as shown
 * whole (for their width); full, as w writes them. */
static char *
cell(void *arg, size_t row, int col, bool full)
{
	const struct frames_view *v = arg;
	const struct app *app = v->lv.app;
	const struct drawn_frame *f = frame_at(v, row);
	enum clock_index clock = col == FC_WALL ? CLOCK_WALL : CLOCK_CPU;
	int k = (col - FC_HOT_NAME) / 2;
	char *t, *more;

	switch (col) {
	case FC_MARK:
		return xstrdup(frames_frozen(&v->fr, f) ? "frozen"
		               : frames_slow(&v->fr, f) ? "slow"
		                                        : "");
	case FC_THREAD:
		return xstrdup(app->tree->threads[f->thread].name);
	case FC_START:
		return ms(f->start);
	case FC_WALL:
	case FC_CPU:
		return full || app->tree->has_clock[clock] ? ms(f->dur[clock])
		                                           : xstrdup("-");
	case FC_BAR:
		return xstrdup("");
	case FC_OVER:
		return ms(frames_over(&v->fr, f));
	case FC_HOT:
		t = xstrdup("");
		for (k = 0; k < FRAME_HOT && f->hot[k] != CALL_NONE; k++) {
			char *one = hot_text(app, f, k);

			more = xasprintf("%s%s%s", t, k ? "  " : "", one);
			free(one);
			free(t);
			t = more;
		}
		return t;
	default:
		if (f->hot[k] == CALL_NONE)
			return xstrdup("");
		if ((col - FC_HOT_NAME) % 2)
			return ms(f->hot_excl[k]);
		return method_full_name(&app->tree->methods[f->hot[k]]);
	}
}

/* A slow frame's mark stands out. */
static enum role
cell_role(void *arg, size_t row, int col)
{
	const struct frames_view *v = arg;

	return col == FC_MARK && frames_slow(&v->fr, frame_at(v, row))
	               ? ROLE_WARNING
	               : ROLE_NORMAL;
}

/* The bar, or the hot methods (to the screen's edge), of row. */
static void
draw_cell(void *arg, size_t row, int col, struct canvas *c, int x, int y,
          int width, enum role role)
{
	const struct frames_view *v = arg;

	if (col == FC_BAR)
		draw_bar(v, c, frame_at(v, row), x, y, width, role);
	else
		draw_hot(v, v->lv.app, c, frame_at(v, row), x, y, c->width - x,
		         role);
}

static list_row_match_fn row_matches;

static void *
fv_open(struct app *app)
{
	struct frames_view *v = xcalloc(1, sizeof(*v));

	memcpy(v->cols, columns, sizeof(columns));
	v->table = (struct list_table){.cols = v->cols,
	                               .ncols = FC_COUNT,
	                               .mark_room = true,
	                               .share = COLUMNS_HOT_SHARE,
	                               .cell = cell,
	                               .role = cell_role,
	                               .draw = draw_cell,
	                               .arg = v};
	list_view_open(&v->lv, app, row_matches, v);
	build(v, app);
	return v;
}

static void
fv_close(void *state)
{
	struct frames_view *v = state;

	frames_done(&v->fr);
	free(v->order);
	list_view_done(&v->lv);
	free(v);
}

static void
fv_draw(void *state, struct app *app, struct canvas *c, int top, int height)
{
	struct frames_view *v = state;
	char *summary = fv_summary(v);
	int lines;

	v->lv.app = app;
	/* The summary first, on a second line when it must. */
	lines = canvas_wrap(c, 0, top, c->width, c->width, 0, summary,
	                    ROLE_NORMAL);
	if (lines > SUMMARY_LINES)
		lines = SUMMARY_LINES;
	canvas_wrap(c, 0, top, c->width, c->width, lines, summary,
	            ROLE_SECTION);
	free(summary);
	v->cols[FC_BAR].fixed = c->width >= 160 ? 24 : 12;
	list_table_draw(&v->table, &v->lv.list, c, top + lines, height - lines,
	                app->all_columns,
	                v->fr.count ? NULL
	                            : "No frames: no call of the frame method "
	                              "in the scope (--frame-method names "
	                              "another)");
}

/* Ask for call c of thread t shown in view, its span (within the
 * scope's range) the range. */
static void
ask_open(const struct app *app, uint32_t t, uint32_t c, uint64_t from,
         uint64_t to, enum app_view view, struct view_ask *ask)
{
	ask->set_range = true;
	ask->range.on = true;
	ask->range.clock = calltree_default_range_clock(app->tree);
	ask->range.start = from;
	ask->range.end = to > from ? to : from + 1;
	ask->open_call = true;
	ask->call_thread = t;
	ask->call = c;
	ask->jump = view;
}

/* The call of method m inside frame f that lasts longest, or CALL_NONE. */
static uint32_t
heaviest_call(const struct calltree *tree, const struct drawn_frame *f,
              uint32_t m, enum clock_index k)
{
	size_t end = tree->threads[f->thread].first_call +
	             tree->threads[f->thread].ncalls;
	uint32_t depth = calltree_depth(tree, f->call), best = CALL_NONE;
	uint64_t most = 0;
	size_t c;

	if (calltree_method(tree, f->call) == m)
		return f->call;
	for (c = f->call + 1; c < end && calltree_depth(tree, c) > depth; c++) {
		uint64_t d;

		if (calltree_method(tree, c) != m)
			continue;
		d = calltree_duration(tree, c, k);
		if (best == CALL_NONE || d > most) {
			best = (uint32_t)c;
			most = d;
		}
	}
	return best;
}

static void
enter(struct frames_view *v, const struct app *app, struct view_ask *ask)
{
	const struct drawn_frame *f = current(v);
	enum clock_index k = v->fr.clock;
	uint32_t c;

	if (!f)
		return;
	if (!v->hot) {
		ask_open(app, f->thread, f->call, f->start,
		         f->start + f->dur[k], APP_VIEW_TIMELINE, ask);
		return;
	}
	c = heaviest_call(app->tree, f, f->hot[v->hot - 1], k);
	if (c == CALL_NONE)
		return;
	ask_open(app, f->thread, c, f->start, f->start + f->dur[k],
	         APP_VIEW_CALLTREE, ask);
}

static enum view_result
fv_handle(void *state, const struct app *app, enum request req,
          struct view_ask *ask)
{
	struct frames_view *v = state;
	const struct drawn_frame *f;

	if (list_move(&v->lv.list, req)) {
		v->hot = 0;
		return VIEW_DONE;
	}
	switch (req) {
	case REQ_SORT_NEXT:
	case REQ_SORT_PREV:
	case REQ_SORT_REVERSE:
		v->by_start = !v->by_start;
		sort_frames(v);
		list_reset(&v->lv.list);
		v->hot = 0;
		snprintf(ask->message, sizeof(ask->message), "frames by %s",
		         v->by_start ? "start" : "length");
		return VIEW_DONE;
	case REQ_EXPAND:
		f = current(v);
		if (f && v->hot < FRAME_HOT && f->hot[v->hot] != CALL_NONE)
			v->hot++;
		return VIEW_DONE;
	case REQ_COLLAPSE:
		if (v->hot)
			v->hot--;
		return VIEW_DONE;
	case REQ_ENTER:
		enter(v, app, ask);
		return VIEW_DONE;
	default:
		return VIEW_UNHANDLED;
	}
}

static enum view_result
fv_mouse(void *state, struct app *app, const struct mouse_event *ev,
         struct view_ask *ask)
{
	struct frames_view *v = state;
	size_t was = v->lv.list.cursor;
	int was_hot = v->hot;
	enum list_click r = list_mouse(&v->lv.list, ev);
	const struct drawn_frame *f = current(v);

	(void)app, (void)ask;
	if (r == LIST_MISSED)
		return VIEW_UNHANDLED;
	if (ev->kind == MOUSE_PRESS && ev->button == 0 && f)
		v->hot = ev->x >= v->table.laid[FC_HOT].x &&
		                         f->hot[0] != CALL_NONE
		                 ? 1
		                 : 0;
	if (r == LIST_AGAIN && v->hot == was_hot && v->lv.list.cursor == was)
		return VIEW_AGAIN;
	return VIEW_DONE;
}

/* Whether the frame on row matches re: its thread's name or the full
 * name of a hot method. */
static bool
row_matches(size_t row, const regex_t *re, void *arg)
{
	const struct frames_view *v = arg;
	const struct app *app = v->lv.app;
	const struct drawn_frame *f = frame_at(v, row);
	bool hit = regexec(re, app->tree->threads[f->thread].name, 0, NULL,
	                   0) == 0;
	int k;

	for (k = 0; !hit && k < FRAME_HOT && f->hot[k] != CALL_NONE; k++)
		hit = list_method_matches(app->tree, f->hot[k], re);
	return hit;
}

static bool
fv_find(void *state, const struct app *app, const regex_t *re, int dir,
        struct view_ask *ask)
{
	struct frames_view *v = state;

	if (!list_view_find(v, app, re, dir, ask))
		return false;
	v->hot = 0;
	return true;
}

static void
fv_refresh(void *state, struct app *app)
{
	struct frames_view *v = state;

	v->lv.app = app;
	/* The model stays while the view lives: the same scope, the same
	 * frames (a pass over every call on a large trace). */
	if (!list_view_stale(&v->lv, &app->scope))
		return;
	build(v, app);
}

static uint32_t
fv_selection(void *state)
{
	struct frames_view *v = state;
	const struct drawn_frame *f = current(v);

	if (!f)
		return CALL_NONE;
	return v->hot ? f->hot[v->hot - 1]
	              : calltree_method(v->lv.app->tree, f->call);
}

static char *
fv_status(void *state, struct app *app)
{
	struct frames_view *v = state;
	const struct drawn_frame *f = current(v);
	char *name, *start, *len, *over, *s;

	if (!f)
		return NULL;
	name = app_method_name(app,
	                       v->hot ? f->hot[v->hot - 1]
	                              : calltree_method(app->tree, f->call));
	start = ms(f->start);
	len = ms(f->dur[v->fr.clock]);
	over = ms(frames_over(&v->fr, f));
	s = xasprintf("%s: frame at %s ms on %s, %s ms%s%s%s; Enter: %s", name,
	              start, app->tree->threads[f->thread].name, len,
	              frames_slow(&v->fr, f) ? ", " : "",
	              frames_slow(&v->fr, f) ? over : "",
	              frames_slow(&v->fr, f) ? " ms over budget" : "",
	              v->hot ? "its heaviest call in the call tree"
	                     : "the frame in the call chart");
	free(name);
	free(start);
	free(len);
	free(over);
	return s;
}

/* The frames' count, slow and frozen, percentiles, and the budget: the
 * view's first line (a new string). */
static char *
fv_summary(const struct frames_view *v)
{
	const struct frame_summary *s = &v->sum;
	char *p[FRAMES_PERCENTILES], *max, *budget, *t;
	int i;

	for (i = 0; i < FRAMES_PERCENTILES; i++)
		p[i] = ms1(s->pct[i]);
	max = ms1(s->max);
	budget = ms((uint64_t)(v->fr.budget + 0.5));
	t = xasprintf("%zu frames %zu slow %zu frozen, p50 %s p90 %s p95 %s "
	              "p99 %s max %s ms, budget %s%s",
	              s->frames, s->slow, s->frozen, p[0], p[1], p[2], p[3],
	              max, budget, v->fr.sampled ? " (estimates)" : "");
	for (i = 0; i < FRAMES_PERCENTILES; i++)
		free(p[i]);
	free(max);
	free(budget);
	return t;
}

static struct table *
fv_rows(void *state, struct app *app)
{
	struct frames_view *v = state;

	v->lv.app = app;
	return list_table_rows(&v->table, &v->lv.list);
}

const struct view_ops view_frames_ops = {
        .cursor = list_view_cursor,
        .name = "Frames",
        .hints = "Enter:chart  l:hot method  s:by length/start",
        .needs_calls = true,
        .open = fv_open,
        .close = fv_close,
        .draw = fv_draw,
        .handle = fv_handle,
        .find = fv_find,
        .mouse = fv_mouse,
        .filter = list_view_filter,
        .refresh = fv_refresh,
        .selection = fv_selection,
        .status = fv_status,
        .rows = fv_rows,
};
