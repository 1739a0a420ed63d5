/*
 * profile: the sortable per-method table with Traceview's columns,
 * for the cpu clock, the wall clock, or both side by side.  A method
 * expands in place into its parents and children (PRODUCT.md section 2);
 * Enter on one of them jumps to it through the app's history.
 *
 * The table is a flat list of rows rebuilt whenever the order, the
 * expansions or the scope change; drawing touches only visible rows.
 * Cursor, paging and search are the list widget's (tui/list.h); a new
 * sort puts the cursor back on the first row.
 */
#include "config.h"

#include "tui/app.h"
#include "tui/columns.h"
#include "tui/list.h"
#include "query/base.h"
#include "query/drilldown.h"
#include "query/method-name.h"
#include "query/quantity.h"
#include "text/duration.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

enum profile_column_kind {
	COL_INCL_PCT,
	COL_INCL,
	COL_EXCL_PCT,
	COL_EXCL,
	COL_CALLS,
	COL_PER_CALL,
	COL_SAMPLES,    /* a simpleperf recording's samples, inclusive */
	COL_DELTA_EXCL, /* the change from --base's trace */
	COL_DELTA_INCL,
	COL_NAME,
};

struct profile_column {
	enum profile_column_kind kind;
	enum clock_index clock;
	const char *title; /* without its unit */
	int prio;          /* columns of lower prio give way first */
	uint64_t per;      /* COL_SAMPLES: the clock's value of a sample */
	/* Set by each draw from the rows in view: */
	int width;    /* the widest cell or title */
	bool seconds; /* a time column whose times need seconds */
	bool shown;
};

enum row_kind {
	ROW_METHOD,
	ROW_SECTION,
	ROW_PARENT,
	ROW_CHILD,
	ROW_SELF,
	ROW_GONE, /* a method only --base's trace calls; method: its key */
};

struct row {
	enum row_kind kind;
	uint32_t method; /* the method row, or the edge's other method */
	uint32_t owner;  /* the expanded method an edge row belongs to */
	const struct drill_row *drill; /* an edge or self row's numbers */
	const char *section;
};

struct expansion {
	uint32_t method;
	struct drilldown drill;
};

struct profile_view {
	struct profile_column columns[16];
	size_t ncolumns;
	size_t sort; /* index into columns */
	bool ascending;
	/* Methods shown, sorted; from gone on, --base's keys the trace
	 * shown never calls, as gone + key. */
	uint32_t *order;
	size_t norder;
	uint32_t gone;
	struct expansion *open;
	size_t nopen, open_cap;
	struct row *rows;
	size_t nrows, rows_cap;
	struct list list;  /* over rows */
	uint32_t selected; /* the method this view last selected */
	/* The methods the filter keeps, and the app its rows of a method
	 * gone from the base name. */
	struct list_methods kept;
	const struct app *filter_app;
};

static void
add_column(struct profile_view *v, enum profile_column_kind kind,
           enum clock_index k, const char *title, int prio)
{
	struct profile_column *c = &v->columns[v->ncolumns++];

	*c = (struct profile_column){kind, k, title, prio, 0, 0, false, true};
}

/* A sampled trace's call counts are estimates from its samples. */
static const char *
calls_title(const struct app *app)
{
	return app->tree->sampled ? "~Calls+Rec" : "Calls+Rec";
}

/* The column set of the app's clocks; the sort column is kept by kind
 * and clock when it still exists.  A pprof profile's values are a total
 * and a self in the sample type's unit: its calls are only runs of
 * samples laid end to end (read/stacks.h), so it has no Calls or
 * per-call columns.  Nor has a simpleperf recording's, whose cpu clock
 * counts its samples (header.sample_weight each): a Samples column
 * takes their place, as in report. */
static void
set_columns(struct profile_view *v, struct app *app)
{
	struct profile_column old =
	        v->ncolumns
	                ? v->columns[v->sort]
	                : (struct profile_column){COL_INCL, app_main_clock(app),
	                                          NULL,     0,
	                                          0,        0,
	                                          false,    true};
	/* A profile's values (hprof's sample counts too) are a total and a
	 * self, not times, and it has no calls. */
	uint64_t weight = app->tree->header.sample_weight;
	bool profile = calltree_is_profile(app->tree) || weight;
	size_t i;

	v->ncolumns = 0;
	if (app->clocks == APP_CLOCKS_BOTH) {
		/* Traceview's columns; at 80 columns both inclusive times
		 * stay side by side. */
		add_column(v, COL_INCL_PCT, CLOCK_CPU, "Cpu%", 4);
		add_column(v, COL_INCL, CLOCK_CPU, "Incl Cpu", 9);
		add_column(v, COL_EXCL_PCT, CLOCK_CPU, "XCpu%", 2);
		add_column(v, COL_EXCL, CLOCK_CPU, "Excl Cpu", 6);
		add_column(v, COL_INCL_PCT, CLOCK_WALL, "Wall%", 4);
		add_column(v, COL_INCL, CLOCK_WALL, "Incl Wall", 9);
		add_column(v, COL_EXCL_PCT, CLOCK_WALL, "XWall%", 2);
		add_column(v, COL_EXCL, CLOCK_WALL, "Excl Wall", 7);
		if (!profile) {
			add_column(v, COL_CALLS, CLOCK_CPU, calls_title(app),
			           5);
			add_column(v, COL_PER_CALL, CLOCK_CPU, "Cpu/Call", 1);
			add_column(v, COL_PER_CALL, CLOCK_WALL, "Wall/Call", 1);
		}
	} else {
		enum clock_index k = app_main_clock(app);

		if (profile) {
			add_column(v, COL_INCL_PCT, k, "Total%", 6);
			add_column(v, COL_INCL, k, "Total", 9);
			add_column(v, COL_EXCL_PCT, k, "Self%", 5);
			add_column(v, COL_EXCL, k, "Self", 8);
		} else {
			add_column(v, COL_INCL_PCT, k, "Incl%", 6);
			add_column(v, COL_INCL, k, "Incl", 9);
			add_column(v, COL_EXCL_PCT, k, "Excl%", 5);
			add_column(v, COL_EXCL, k, "Excl", 8);
			add_column(v, COL_CALLS, k, calls_title(app), 7);
			add_column(v, COL_PER_CALL, k, "/Call", 4);
		}
	}
	if (weight) {
		add_column(v, COL_SAMPLES, CLOCK_CPU, "Samples", 5);
		v->columns[v->ncolumns - 1].per = weight;
	}
	if (app->base) {
		/* The changes outlast every other column.  With both
		 * clocks they are on diff's default clock (the cpu clock
		 * where there is one), and name it. */
		bool both = app->clocks == APP_CLOCKS_BOTH;
		enum clock_index dk = both ? calltree_default_clock(app->tree)
		                           : app_main_clock(app);
		bool cpu = dk == CLOCK_CPU;

		add_column(v, COL_DELTA_EXCL, dk,
		           profile ? "\u0394Self"
		           : !both ? "\u0394Excl"
		           : cpu   ? "\u0394Excl Cpu"
		                   : "\u0394Excl Wall",
		           20);
		add_column(v, COL_DELTA_INCL, dk,
		           profile ? "\u0394Total"
		           : !both ? "\u0394Incl"
		           : cpu   ? "\u0394Incl Cpu"
		                   : "\u0394Incl Wall",
		           20);
	}
	add_column(v, COL_NAME, CLOCK_CPU, "Name", 0);
	v->sort = 1;
	for (i = 0; i < v->ncolumns; i++) {
		if (v->columns[i].kind == old.kind &&
		    (old.kind == COL_NAME || old.kind == COL_CALLS ||
		     v->columns[i].clock == old.clock)) {
			v->sort = i;
			break;
		}
	}
}

/* Inclusive time per call, rounded to the nearest microsecond. */
static uint64_t
per_call(const struct profile_row *r, enum clock_index k)
{
	uint64_t n = r->calls + r->rcalls;

	return n ? (r->incl[k] + n / 2) / n : 0;
}

static uint64_t
column_value(const struct profile_column *c, const struct profile_row *r)
{
	switch (c->kind) {
	case COL_INCL_PCT:
	case COL_INCL:
		return r->incl[c->clock];
	case COL_EXCL_PCT:
	case COL_EXCL:
		return r->excl[c->clock];
	case COL_CALLS:
		return r->calls + r->rcalls;
	case COL_PER_CALL:
		return per_call(r, c->clock);
	case COL_SAMPLES:
		return r->incl[c->clock] / c->per;
	case COL_DELTA_EXCL:
	case COL_DELTA_INCL:
	case COL_NAME:
		break;
	}
	return 0;
}

/* The change of delta column c's time for method m from BASE into *d
 * (from zero when BASE never calls m; to zero for an entry past the
 * methods, BASE's key m - nmethods); false when BASE never calls m. */
static bool
delta(const struct profile_column *c, const struct app *app, uint32_t m,
      int64_t *d)
{
	static const struct profile_row none;
	const struct profile_row *r =
	        m < app->tree->nmethods ? &app->profile.rows[m] : &none;
	uint64_t incl[CLOCK_COUNT] = {0}, excl[CLOCK_COUNT] = {0};
	bool in_base =
	        m < app->tree->nmethods
	                ? app_base_method(app, m, incl, excl)
	                : (base_compare_key(app->base,
	                                    m - (uint32_t)app->tree->nmethods,
	                                    incl, excl),
	                   true);
	enum clock_index k = c->clock;

	if (c->kind == COL_DELTA_EXCL)
		*d = (int64_t)r->excl[k] - (int64_t)excl[k];
	else
		*d = (int64_t)r->incl[k] - (int64_t)incl[k];
	return in_base;
}

struct sort_ctx {
	const struct profile_view *v;
	const struct app *app;
};

/* The full name of order entry e: a method, or past the methods a key of
 * --base's trace (its class dotted, as diff names it), a new string. */
static char *
entry_name(const struct app *app, uint32_t e)
{
	uint64_t incl[CLOCK_COUNT], excl[CLOCK_COUNT];
	struct tt_method m;
	char *klass, *name, *c;

	if (e < app->tree->nmethods)
		return method_full_name(&app->tree->methods[e]);
	m = *base_compare_key(app->base, e - (uint32_t)app->tree->nmethods,
	                      incl, excl);
	m.klass = klass = xstrdup(m.klass);
	for (c = klass; *c; c++)
		if (*c == '/')
			*c = '.';
	name = method_full_name(&m);
	free(klass);
	return name;
}

static int
method_cmp(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *s = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const struct profile_column *c = &s->v->columns[s->v->sort];
	int r = 0;

	if (c->kind == COL_NAME) {
		char *nx = entry_name(s->app, x);
		char *ny = entry_name(s->app, y);

		r = strcmp(nx, ny);
		free(nx);
		free(ny);
		return s->v->ascending ? r : -r;
	}
	if (c->kind == COL_DELTA_EXCL || c->kind == COL_DELTA_INCL) {
		int64_t dx, dy;

		delta(c, s->app, x, &dx);
		delta(c, s->app, y, &dy);
		if (dx != dy)
			r = dx > dy ? -1 : 1;
	} else {
		static const struct profile_row none;
		size_t n = s->app->tree->nmethods;
		uint64_t vx = column_value(c, x < n ? &s->app->profile.rows[x]
		                                    : &none);
		uint64_t vy = column_value(c, y < n ? &s->app->profile.rows[y]
		                                    : &none);

		if (vx != vy)
			r = vx > vy ? -1 : 1;
	}
	if (s->v->ascending)
		r = -r;
	return r ? r : (x < y ? -1 : x > y);
}

static void
push_row(struct profile_view *v, struct row row)
{
	UTIL_GROW(v->rows, v->rows_cap, v->nrows + 1);
	v->rows[v->nrows++] = row;
}

static struct expansion *
find_open(const struct profile_view *v, uint32_t m)
{
	size_t i;

	for (i = 0; i < v->nopen; i++)
		if (v->open[i].method == m)
			return &v->open[i];
	return NULL;
}

/* The rows of method owner's drill-down, as the query lays them out. */
static void
push_drill(struct profile_view *v, uint32_t owner, const struct drilldown *d)
{
	static const enum row_kind kinds[] = {ROW_SECTION, ROW_PARENT,
	                                      ROW_CHILD, ROW_SELF};
	size_t i;

	for (i = 0; i < d->nrows; i++) {
		const struct drill_row *dr = &d->rows[i];
		struct row r = {kinds[dr->kind], dr->method, owner, dr, NULL};

		if (dr->kind == DRILL_HEADING)
			r.section = drill_section_name(dr->section);
		push_row(v, r);
	}
}

static void
rebuild_rows(struct profile_view *v)
{
	size_t i;

	v->nrows = 0;
	for (i = 0; i < v->norder; i++) {
		uint32_t m = v->order[i];
		struct row r = {ROW_METHOD, m, m, NULL, NULL};
		struct expansion *e;

		if (m >= v->gone) {
			/* No drill-down: the trace shown has no such calls. */
			r = (struct row){ROW_GONE, m - v->gone, CALL_NONE, NULL,
			                 NULL};
			push_row(v, r);
			continue;
		}
		e = find_open(v, m);
		push_row(v, r);
		if (!e)
			continue;
		push_drill(v, m, &e->drill);
	}
	list_set_count(&v->list, v->nrows);
}

static void
sort_methods(struct profile_view *v, const struct app *app)
{
	struct sort_ctx ctx = {v, app};
	size_t nkeys = base_compare_keys(app->base), m;
	bool *called = xcalloc(nkeys + 1, sizeof(*called));

	v->norder = 0;
	v->gone = (uint32_t)app->tree->nmethods;
	v->order = xreallocarray(v->order, app->tree->nmethods + nkeys + 1,
	                         sizeof(*v->order));
	for (m = 0; m < app->tree->nmethods; m++) {
		uint32_t key;

		if (!profile_row_used(&app->profile, m))
			continue;
		v->order[v->norder++] = (uint32_t)m;
		key = base_compare_key_of(app->base, (uint32_t)m);
		if (key != CALL_NONE)
			called[key] = true;
	}
	/* What only BASE calls is listed too, as diff lists it: gone. */
	for (m = 0; m < nkeys; m++)
		if (!called[m])
			v->order[v->norder++] = v->gone + (uint32_t)m;
	free(called);
	qsort_r(v->order, v->norder, sizeof(*v->order), method_cmp, &ctx);
}

static void
close_all(struct profile_view *v)
{
	size_t i;

	for (i = 0; i < v->nopen; i++)
		drilldown_done(&v->open[i].drill);
	v->nopen = 0;
}

static void
expand(struct profile_view *v, const struct app *app, uint32_t m)
{
	struct expansion *e;

	if (find_open(v, m))
		return;
	UTIL_GROW(v->open, v->open_cap, v->nopen + 1);
	e = &v->open[v->nopen++];
	e->method = m;
	drilldown_compute(&e->drill, &app->profile, m, app_main_clock(app));
}

static void
collapse(struct profile_view *v, uint32_t m)
{
	struct expansion *e = find_open(v, m);

	if (!e)
		return;
	drilldown_done(&e->drill);
	*e = v->open[--v->nopen];
}

/* Put the cursor on method m's row, if it is shown. */
static void
cursor_to_method(struct profile_view *v, uint32_t m)
{
	size_t i;

	for (i = 0; i < v->nrows; i++) {
		if (v->rows[i].kind == ROW_METHOD && v->rows[i].method == m) {
			list_select(&v->list, i);
			return;
		}
	}
}

/* The cursor's method (a drill-down row's owner) becomes the selection. */
static void
select_cursor(struct profile_view *v)
{
	const struct row *row;

	if (!v->nrows)
		return;
	row = &v->rows[v->list.cursor];
	v->selected = row->kind == ROW_METHOD ? row->method : row->owner;
}

static void *
profile_open(struct app *app)
{
	struct profile_view *v = xcalloc(1, sizeof(*v));

	v->selected = CALL_NONE;
	set_columns(v, app);
	sort_methods(v, app);
	rebuild_rows(v);
	select_cursor(v);
	return v;
}

static void
profile_close(void *state)
{
	struct profile_view *v = state;

	close_all(v);
	free(v->open);
	free(v->order);
	free(v->rows);
	list_methods_done(&v->kept);
	list_done(&v->list);
	free(v);
}

static void
profile_refresh(void *state, struct app *app)
{
	struct profile_view *v = state;
	uint32_t *keep = NULL;
	size_t n = v->nopen, i;

	/* Scope or clock changed: recompute what is open. */
	keep = xcalloc(n + 1, sizeof(*keep));
	for (i = 0; i < n; i++)
		keep[i] = v->open[i].method;
	close_all(v);
	set_columns(v, app);
	sort_methods(v, app);
	for (i = 0; i < n; i++)
		if (profile_row_used(&app->profile, keep[i]))
			expand(v, app, keep[i]);
	free(keep);
	/* A jump from elsewhere opens the method it lands on. */
	if (app->sel.method != v->selected && app->sel.method != CALL_NONE &&
	    profile_row_used(&app->profile, app->sel.method))
		expand(v, app, app->sel.method);
	rebuild_rows(v);
	if (app->sel.method != CALL_NONE)
		cursor_to_method(v, app->sel.method);
	select_cursor(v);
}

/* A time in milliseconds (in seconds with seconds), or a profile's
 * size or count. */
static void
format_value(char *buf, size_t size, uint64_t v, enum trace_unit unit,
             bool seconds)
{
	if (!seconds || !quantity_is_time(unit)) {
		quantity_format(buf, size, v, unit, false);
		return;
	}
	duration_s(buf, size, unit == TRACE_UNIT_NS ? v / 1000 : v);
}

/* A change, signed, and its role. */
static enum role
format_delta(char *buf, size_t size, int64_t us, enum trace_unit unit,
             bool seconds)
{
	uint64_t a = us < 0 ? (uint64_t)-us : (uint64_t)us;

	buf[0] = us > 0 ? '+' : us < 0 ? '-' : '\0';
	format_value(buf + (us != 0), size - 1, a, unit, seconds);
	return us > 0 ? ROLE_SLOWER : us < 0 ? ROLE_FASTER : ROLE_NORMAL;
}

/* A share in a column of 6: from 1000% on without the decimal. */
static void
format_share(char *buf, size_t size, double pct)
{
	snprintf(buf, size, pct >= 999.95 ? "%.0f%%" : "%.1f%%", pct);
}

static void
format_pct(char *buf, size_t size, uint64_t v, uint64_t total)
{
	format_share(buf, size,
	             total ? 100.0 * (double)v / (double)total : 0.0);
}

/* True for a column of times, whose unit its title says. */
static bool
is_time(const struct profile_column *col, enum trace_unit unit)
{
	return quantity_is_time(unit) &&
	       (col->kind == COL_INCL || col->kind == COL_EXCL ||
	        col->kind == COL_PER_CALL || col->kind == COL_DELTA_EXCL ||
	        col->kind == COL_DELTA_INCL);
}

/* Column col's title with its unit ("Incl ms", "Incl Cpu s",
 * "Cpu ms/Call") and the sort mark (none without c), a new string. */
static char *
column_title(const struct profile_view *v, const struct profile_column *col,
             enum trace_unit unit, const struct canvas *c)
{
	const char *mark =
	        c && col == &v->columns[v->sort]
	                ? canvas_glyph(c, v->ascending ? GLYPH_SORT_UP
	                                               : GLYPH_SORT_DOWN)
	                : "";
	const char *u = col->seconds ? "s" : "ms";

	if (!is_time(col, unit))
		return xasprintf("%s%s", col->title, mark);
	if (col->kind == COL_PER_CALL) {
		size_t n = strcspn(col->title, "/");

		return xasprintf("%.*s%s%s%s%s", (int)n, col->title,
		                 n ? " " : "", u, col->title + n, mark);
	}
	return xasprintf("%s %s%s", col->title, u, mark);
}

static enum role cell_text(const struct app *app, const struct row *row,
                           const struct profile_column *col, char *buf,
                           size_t size);

/* A gone row's order entry, as delta and entry_name take it. */
static uint32_t
v_gone(const struct row *row, const struct app *app)
{
	return (uint32_t)app->tree->nmethods + row->method;
}

/* A gone row's name as the viewer shows names (its class dotted, as
 * diff writes it), a new string; GONE follows it on the screen. */
static const char GONE[] = "  (gone)";

static char *
gone_name(const struct app *app, const struct row *row)
{
	uint64_t incl[CLOCK_COUNT], excl[CLOCK_COUNT];
	const struct tt_method *m =
	        base_compare_key(app->base, row->method, incl, excl);
	char *klass, *abbrev, *c, *s;

	if (app->full_names)
		return entry_name(app, v_gone(row, app));
	klass = xstrdup(m->klass);
	for (c = klass; *c; c++)
		if (*c == '/')
			*c = '.';
	abbrev = method_abbrev_class(klass);
	s = xasprintf("%s%s%s", abbrev, *abbrev && *m->name ? "." : "",
	              m->name);
	free(abbrev);
	free(klass);
	return s;
}

/* A column of times switches to seconds where milliseconds would take
 * more than this. */
enum { MS_WIDTH = 9 };
/* The fewest columns a method's name is shown in. */
enum { NAME_MIN = 20 };

/* The mark before row's name (open, closed, or nothing) and its
 * indent. */
static const char *
row_mark(const struct profile_view *v, const struct canvas *c,
         const struct row *row, int *indent)
{
	*indent = row->kind == ROW_METHOD || row->kind == ROW_GONE ? 0 : 4;
	if (row->kind == ROW_GONE)
		return " ";
	if (row->kind == ROW_METHOD)
		return find_open(v, row->method)
		               ? canvas_glyph(c, GLYPH_EXPANDED)
		               : " ";
	return "  ";
}

/* Row's name as shown, whole (a new string; a gone row's without
 * GONE). */
static char *
row_name(const struct app *app, const struct row *row)
{
	if (row->kind == ROW_SELF)
		return xstrdup("self");
	if (row->kind == ROW_GONE)
		return gone_name(app, row);
	if (row->method == CALL_NONE)
		return xstrdup("(top level)");
	return app_method_name(app, row->method);
}

/* The columns row's name cell takes whole: mark, indent and name. */
static int
name_cell_width(const struct profile_view *v, const struct app *app,
                const struct canvas *c, const struct row *row)
{
	int indent;
	const char *mark = row_mark(v, c, row, &indent);
	char *name;
	int w;

	if (row->kind == ROW_SECTION)
		return 0;
	name = row_name(app, row);
	w = (int)text_width(mark) + 1 + indent + (int)text_width(name) +
	    (row->kind == ROW_GONE ? (int)strlen(GONE) : 0);
	free(name);
	return w;
}

/* The clock of the sort column (the main one for the calls or names). */
static enum clock_index
sorted_clock(const struct profile_view *v, const struct app *app)
{
	const struct profile_column *s = &v->columns[v->sort];

	return s->kind == COL_CALLS || s->kind == COL_NAME ? app_main_clock(app)
	                                                   : s->clock;
}

/* The priority of column i: the sort column and --base's changes never
 * give way, and the inclusive share on the sorted clock (a parent's or
 * child's share of the method) only after every other. */
static int
priority(const struct profile_view *v, const struct app *app, size_t i)
{
	const struct profile_column *col = &v->columns[i];

	if (i == v->sort || col->prio >= 20)
		return COLUMN_KEEP;
	if (col->kind == COL_INCL_PCT && col->clock == sorted_clock(v, app))
		return 19;
	return col->prio;
}

/* Size the columns to the rows in view, times in seconds where
 * milliseconds would be too wide, and lay them out (tui/columns.h):
 * the name gets its share first, the lowest prio gives way first, and
 * the sort column and --base's changes never do. */
static void
lay_out(struct profile_view *v, const struct app *app, const struct canvas *c,
        int body)
{
	enum trace_unit unit = app->tree->header.unit;
	size_t n = v->ncolumns - 1, i, r;
	struct column lay[16];
	char buf[64];
	int y, name_w = (int)strlen("Name") + 2;

	for (i = 0; i < n; i++) {
		struct profile_column *col = &v->columns[i];
		int limit = MS_WIDTH + (col->kind == COL_DELTA_EXCL ||
		                        col->kind == COL_DELTA_INCL);
		char *title;
		int pass;

		col->seconds = false;
		for (pass = 0; pass < 2; pass++) {
			col->width = 0;
			for (y = 0, r = v->list.top; y < body && r < v->nrows;
			     y++, r = list_next(&v->list, r)) {
				int w;

				cell_text(app, &v->rows[r], col, buf,
				          sizeof(buf));
				w = (int)text_width(buf);
				if (w > col->width)
					col->width = w;
			}
			if (pass || !is_time(col, unit) || col->width <= limit)
				break;
			col->seconds = true;
		}
		title = column_title(v, col, unit, c);
		if ((int)text_width(title) > col->width)
			col->width = (int)text_width(title);
		free(title);
		/* A blank between columns, two before a number. */
		col->width++;
		lay[i] = (struct column){.kind = COLUMN_NUMBER,
		                         .want = col->width,
		                         .prio = priority(v, app, i)};
	}
	for (y = 0, r = v->list.top; y < body && r < v->nrows;
	     y++, r = list_next(&v->list, r)) {
		int w = name_cell_width(v, app, c, &v->rows[r]);

		if (w > name_w)
			name_w = w;
	}
	lay[n] = (struct column){
	        .kind = COLUMN_NAME, .want = name_w + 1, .min = NAME_MIN};
	columns_lay_out(lay, n + 1, c->width,
	                columns_share(COLUMNS_NAME_SHARE, app->all_columns));
	for (i = 0; i < n; i++)
		v->columns[i].shown = lay[i].shown;
}

static void
draw_header(struct profile_view *v, const struct app *app, struct canvas *c,
            int y)
{
	enum trace_unit unit = app->tree->header.unit;
	int x = 0;
	size_t i;

	canvas_fill(c, 0, y, c->width, " ", ROLE_HEADER);
	for (i = 0; i < v->ncolumns; i++) {
		const struct profile_column *col = &v->columns[i];
		char *title;

		if (!col->shown)
			continue;
		title = column_title(v, col, unit, c);
		if (col->kind == COL_NAME)
			canvas_text(c, x + 2, y, c->width - x - 2, title,
			            ROLE_HEADER);
		else
			canvas_text_right(c, x, y, col->width, title,
			                  ROLE_HEADER);
		x += col->width + 1;
		free(title);
	}
}

/* The text of row's cell in column col into buf, and its role. */
static enum role
cell_text(const struct app *app, const struct row *row,
          const struct profile_column *col, char *buf, size_t size)
{
	const struct profile *p = &app->profile;
	enum trace_unit unit = app->tree->header.unit;
	const struct profile_row *r = &p->rows[row->method];
	enum clock_index k = col->clock;
	enum role cell = row->kind == ROW_METHOD ? ROLE_NORMAL : ROLE_DIM;
	int64_t d;

	buf[0] = '\0';
	if (row->kind == ROW_SECTION)
		return cell;
	if (row->kind == ROW_GONE) {
		/* Nothing here, as diff writes it; the change is all of
		 * BASE's time. */
		if (col->kind != COL_DELTA_EXCL &&
		    col->kind != COL_DELTA_INCL) {
			snprintf(buf, size, "-");
			return ROLE_DIM;
		}
		delta(col, app, v_gone(row, app), &d);
		return format_delta(buf, size, d, unit, col->seconds);
	}
	if (row->kind == ROW_METHOD) {
		switch (col->kind) {
		case COL_DELTA_EXCL:
		case COL_DELTA_INCL:
			if (delta(col, app, row->method, &d)) {
				cell = format_delta(buf, size, d, unit,
				                    col->seconds);
			} else {
				snprintf(buf, size, "new");
				cell = ROLE_SLOWER;
			}
			break;
		case COL_INCL_PCT:
			format_pct(buf, size, r->incl[k], p->total[k]);
			break;
		case COL_EXCL_PCT:
			format_pct(buf, size, r->excl[k], p->total[k]);
			break;
		case COL_CALLS:
			snprintf(buf, size, "%llu+%llu",
			         (unsigned long long)r->calls,
			         (unsigned long long)r->rcalls);
			break;
		case COL_SAMPLES:
			snprintf(buf, size, "%llu",
			         (unsigned long long)column_value(col, r));
			break;
		default:
			format_value(buf, size, column_value(col, r), unit,
			             col->seconds);
			break;
		}
	} else {
		const struct drill_row *dr = row->drill;

		switch (col->kind) {
		case COL_INCL_PCT:
			format_share(buf, size, drill_share(dr, k));
			break;
		case COL_INCL:
			format_value(buf, size, dr->incl[k], unit,
			             col->seconds);
			break;
		case COL_CALLS:
			if (row->kind == ROW_SELF)
				break;
			snprintf(buf, size, "%llu/%llu",
			         (unsigned long long)dr->calls,
			         (unsigned long long)dr->of_calls);
			break;
		case COL_SAMPLES:
			snprintf(buf, size, "%llu",
			         (unsigned long long)(dr->incl[col->clock] /
			                              col->per));
			break;
		default:
			break;
		}
	}
	return cell;
}

static void
draw_row(struct profile_view *v, struct app *app, struct canvas *c, int y,
         const struct row *row, bool selected)
{
	enum role role = ROLE_NORMAL;
	char buf[64];
	int x = 0;
	size_t i;

	if (row->kind == ROW_SECTION) {
		canvas_text(c, 4, y, c->width - 4, row->section, ROLE_SECTION);
		return;
	}
	for (i = 0; i + 1 < v->ncolumns; i++) {
		const struct profile_column *col = &v->columns[i];
		enum role cell;

		if (!col->shown)
			continue;
		cell = cell_text(app, row, col, buf, sizeof(buf));
		canvas_text_right(c, x, y, col->width, buf, cell);
		x += col->width + 1;
	}
	{
		int indent;
		const char *mark = row_mark(v, c, row, &indent);
		char *shown = row_name(app, row), *label;
		/* Too long: the start goes, never the method. */
		int room = c->width - x - (int)text_width(mark) - 1 - indent -
		           (row->kind == ROW_GONE ? (int)strlen(GONE) : 0);
		char *fit = method_cut_left(shown, room,
		                            canvas_glyph(c, GLYPH_TRUNCATED));

		free(shown);
		shown = fit;
		label = xasprintf("%s %*s%s%s", mark, indent, "", shown,
		                  row->kind == ROW_GONE ? GONE : "");
		if (row->kind == ROW_GONE)
			role = ROLE_FASTER;
		else if (row->kind != ROW_METHOD)
			role = ROLE_DIM;
		if (app->have_re && row->kind == ROW_METHOD) {
			/* Searches match the full name, whatever is shown. */
			char *full = method_full_name(
			        &app->tree->methods[row->method]);

			if (regexec(&app->re, full, 0, NULL, 0) == 0)
				role = ROLE_MATCH;
			free(full);
		}
		canvas_text(c, x, y, c->width - x, label, role);
		free(shown);
		free(label);
	}
	if (selected)
		canvas_set_role(c, 0, y, c->width, ROLE_CURSOR);
}

static void
profile_draw(void *state, struct app *app, struct canvas *c, int top,
             int height)
{
	struct profile_view *v = state;
	int body = height - 1, y;
	size_t i;

	v->list.y = top + 1;
	if (body >= 1)
		list_layout(&v->list, (size_t)body);
	lay_out(v, app, c, body);
	draw_header(v, app, c, top);
	if (body < 1)
		return;
	if (!v->nrows) {
		canvas_text(c, 2, top + 1, c->width - 2,
		            "no calls in this scope", ROLE_DIM);
		return;
	}
	if (!list_visible(&v->list)) {
		canvas_text(c, 2, top + 1, c->width - 2,
		            "no row matches the filter (Esc: every row)",
		            ROLE_DIM);
		return;
	}
	for (y = 0, i = v->list.top; y < body && i < v->nrows;
	     y++, i = list_next(&v->list, i)) {
		/* Row rows[i] is drawn under the header. */
		draw_row(v, app, c, top + 1 + y, &v->rows[i],
		         i == v->list.cursor);
	}
}

/* Sort again: the cursor goes back to the first row. */
static void
resort(struct profile_view *v, const struct app *app)
{
	sort_methods(v, app);
	rebuild_rows(v);
	list_reset(&v->list);
	select_cursor(v);
}

/* The column whose header holds cell x, as draw_header lays them out;
 * SIZE_MAX for none. */
static size_t
column_at(const struct profile_view *v, int x)
{
	int left = 0;
	size_t i;

	for (i = 0; i + 1 < v->ncolumns; i++) {
		if (!v->columns[i].shown)
			continue;
		if (x < left + v->columns[i].width)
			return i;
		left += v->columns[i].width + 1;
	}
	return x >= left ? v->ncolumns - 1 : SIZE_MAX;
}

/* Sort by column col, as s would reach it; a second click reverses. */
static void
sort_by(struct profile_view *v, const struct app *app, size_t col)
{
	if (col == v->sort)
		v->ascending = !v->ascending;
	else {
		v->sort = col;
		v->ascending = v->columns[col].kind == COL_NAME;
	}
	resort(v, app);
}

static enum view_result
profile_handle(void *state, const struct app *app, enum request req,
               struct view_ask *ask)
{
	struct profile_view *v = state;
	const struct row *row = v->nrows ? &v->rows[v->list.cursor] : NULL;

	if (list_move(&v->list, req)) {
		select_cursor(v);
		return VIEW_DONE;
	}
	switch (req) {
	case REQ_SORT_NEXT:
	case REQ_SORT_PREV:
		sort_by(v, app,
		        (v->sort +
		         (req == REQ_SORT_NEXT ? 1 : v->ncolumns - 1)) %
		                v->ncolumns);
		return VIEW_DONE;
	case REQ_SORT_REVERSE:
		v->ascending = !v->ascending;
		resort(v, app);
		return VIEW_DONE;
	default:
		break;
	}
	if (!row)
		return VIEW_UNHANDLED;
	switch (req) {
	case REQ_ENTER:
		if (row->kind == ROW_METHOD) {
			if (find_open(v, row->method))
				collapse(v, row->method);
			else
				expand(v, app, row->method);
			rebuild_rows(v);
		} else if ((row->kind == ROW_PARENT ||
		            row->kind == ROW_CHILD) &&
		           row->method != CALL_NONE) {
			ask->jump = APP_VIEW_PROFILE;
			ask->method = row->method;
		}
		return VIEW_DONE;
	case REQ_EXPAND:
		if (row->kind == ROW_METHOD) {
			expand(v, app, row->method);
			rebuild_rows(v);
		}
		return VIEW_DONE;
	case REQ_COLLAPSE:
	case REQ_BACK_OUT:
		if (!find_open(v, row->owner)) {
			if (req == REQ_COLLAPSE || !v->nopen)
				return req == REQ_COLLAPSE ? VIEW_DONE
				                           : VIEW_UNHANDLED;
			close_all(v);
			rebuild_rows(v);
			cursor_to_method(v, v->selected);
			return VIEW_DONE;
		}
		collapse(v, row->owner);
		rebuild_rows(v);
		cursor_to_method(v, row->owner);
		select_cursor(v);
		return VIEW_DONE;
	case REQ_VIEW_CALLTREE:
		/* The method's call paths: the tree follows the selection. */
		if (row->kind != ROW_METHOD && row->method != CALL_NONE &&
		    row->kind != ROW_SELF && row->kind != ROW_GONE) {
			ask->jump = APP_VIEW_CALLTREE;
			ask->method = row->method;
			return VIEW_DONE;
		}
		return VIEW_UNHANDLED;
	default:
		return VIEW_UNHANDLED;
	}
}

static enum view_result
profile_mouse(void *state, struct app *app, const struct mouse_event *ev,
              struct view_ask *ask)
{
	struct profile_view *v = state;
	enum list_click r;

	(void)ask;
	if (ev->kind == MOUSE_PRESS && ev->button == 0 &&
	    ev->y == v->list.y - 1) {
		size_t col = column_at(v, ev->x);

		if (col == SIZE_MAX)
			return VIEW_UNHANDLED;
		sort_by(v, app, col);
		return VIEW_DONE;
	}
	r = list_mouse(&v->list, ev);
	if (r == LIST_MOVED)
		select_cursor(v);
	return r == LIST_AGAIN   ? VIEW_AGAIN
	       : r == LIST_MOVED ? VIEW_DONE
	                         : VIEW_UNHANDLED;
}

/* True when rows[row] is a method whose full name matches the search. */
static bool
row_matches(size_t row, void *arg)
{
	void **a = arg;
	const struct profile_view *v = a[0];
	const struct app *app = a[1];
	const regex_t *re = a[2];

	return v->rows[row].kind == ROW_METHOD &&
	       list_method_matches(app->tree, v->rows[row].method, re);
}

static bool
profile_find(void *state, const struct app *app, const regex_t *re, int dir,
             struct view_ask *ask)
{
	struct profile_view *v = state;
	void *arg[3] = {v, (void *)app, (void *)re};
	struct list_hit hit;

	if (!list_search(&v->list, dir, row_matches, arg, &hit))
		return false;
	select_cursor(v);
	ask->match = hit.nth;
	ask->matches = hit.total;
	return true;
}

/* True when rows[row] belongs to a method whose full name matches the
 * filter (a drill-down row goes with its method). */
static bool
row_kept(size_t row, void *arg)
{
	struct profile_view *v = arg;
	uint32_t m = v->rows[row].owner;

	if (v->rows[row].kind == ROW_GONE) {
		char *name = entry_name(v->filter_app,
		                        v_gone(&v->rows[row], v->filter_app));
		bool hit = regexec(v->kept.re, name, 0, NULL, 0) == 0;

		free(name);
		return hit;
	}
	return list_methods_keep(&v->kept, m);
}

static size_t
profile_filter(void *state, const struct app *app, const regex_t *re)
{
	struct profile_view *v = state;

	list_methods_set(&v->kept, app->tree, re);
	v->filter_app = app;
	list_filter(&v->list, re ? row_kept : NULL, v);
	select_cursor(v);
	return list_visible(&v->list);
}

static uint32_t
profile_selection(void *state)
{
	const struct profile_view *v = state;

	return v->nrows ? v->selected : CALL_NONE;
}

static char *
profile_status(void *state, struct app *app)
{
	struct profile_view *v = state;
	const struct row *row;
	const struct tt_method *m;
	uint32_t subject;

	if (!v->nrows)
		return NULL;
	row = &v->rows[v->list.cursor];
	if (row->kind == ROW_GONE) {
		char *name = entry_name(app, v_gone(row, app)), *s;

		s = xasprintf("%s  only in --base's trace: gone", name);
		free(name);
		return s;
	}
	subject = row->method;
	if (row->kind == ROW_SECTION || row->kind == ROW_SELF ||
	    row->method == CALL_NONE)
		subject = row->owner;
	m = &app->tree->methods[subject];
	return method_name_with_source(m);
}

/* Every row shown (under a filter, those it keeps), with every column
 * and full names: the methods in the view's order, and the parents,
 * children and self of the expanded ones. */
static struct table *
profile_rows(void *state, struct app *app)
{
	struct profile_view *v = state;
	const char *names[16];
	enum table_kind kinds[16];
	struct table *t;
	struct profile_column cols[16];
	char *titles[16];
	size_t r, i;
	char buf[64];

	for (i = 0; i < v->ncolumns; i++) {
		/* Every column, in milliseconds. */
		cols[i] = v->columns[i];
		cols[i].seconds = false;
		titles[i] =
		        column_title(v, &cols[i], app->tree->header.unit, NULL);
		names[i] = titles[i];
		kinds[i] = v->columns[i].kind == COL_NAME ? TABLE_STRING
		                                          : TABLE_NUMBER;
	}
	t = table_new(v->ncolumns, names, kinds);
	for (i = 0; i < v->ncolumns; i++)
		free(titles[i]);
	for (r = list_first(&v->list); r < v->nrows;
	     r = list_next(&v->list, r)) {
		const struct row *row = &v->rows[r];

		table_row(t);
		for (i = 0; i < v->ncolumns; i++) {
			const struct profile_column *col = &cols[i];
			char *name;

			if (col->kind != COL_NAME) {
				cell_text(app, row, col, buf, sizeof(buf));
				table_str(t, buf);
				continue;
			}
			name = row->kind == ROW_SECTION ? xstrdup(row->section)
			       : row->kind == ROW_SELF  ? xstrdup("self")
			       : row->kind == ROW_GONE
			               ? entry_name(app, v_gone(row, app))
			       : row->method == CALL_NONE
			               ? xstrdup("(top level)")
			               : method_full_name(
			                         &app->tree->methods
			                                  [row->method]);
			table_fmt(
			        t, "%s%s%s",
			        row->kind == ROW_METHOD || row->kind == ROW_GONE
			                ? ""
			                : "    ",
			        name, row->kind == ROW_GONE ? "  (gone)" : "");
			free(name);
		}
	}
	return t;
}

/* The list whose cursor the status line places. */
static const struct list *
profile_cursor(void *state)
{
	const struct profile_view *v = state;

	return &v->list;
}

const struct view_ops view_profile_ops = {
        .cursor = profile_cursor,
        .name = "Profile",
        .hints = "Enter:open  s/S:sort  c:clock  [/]:history  t:threads",
        .open = profile_open,
        .close = profile_close,
        .draw = profile_draw,
        .status = profile_status,
        .refresh = profile_refresh,
        .handle = profile_handle,
        .find = profile_find,
        .selection = profile_selection,
        .mouse = profile_mouse,
        .filter = profile_filter,
        .rows = profile_rows,
};
