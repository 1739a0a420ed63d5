/*
 * app: the viewer's state and loop logic, without a terminal.
 *
 * The app owns the model it is given, the thread scope, the profile of
 * that scope, the views, the navigation history and the search.  Keys go
 * in through app_key (or requests through app_request), a frame comes out
 * through app_draw into a canvas; tui/term-curses.c and the headless render
 * tests both drive it the same way.
 */
#ifndef TRACETUI_APP_H
#define TRACETUI_APP_H

#include "query/base.h"
#include "query/method-name.h"
#include "query/callpath.h"
#include "model/calltree.h"
#include "tui/canvas.h"
#include "query/profile-index.h"
#include "query/profile.h"
#include "tui/request.h"
#include "tui/selection.h"
#include "model/scope.h"
#include "model/transform.h"
#include "tui/views/view.h"
#include "tui/warmup.h"

#include <regex.h>
#include <stdbool.h>

/* Which clocks the profile shows. */
enum app_clocks {
	APP_CLOCKS_CPU,
	APP_CLOCKS_WALL,
	APP_CLOCKS_BOTH,
};

/* A place in the navigation history. */
struct app_place {
	enum app_view view;
	uint32_t method;
	uint32_t thread, call;   /* the call selected there, or CALL_NONE */
	size_t transforms;       /* how many transforms applied there */
	struct time_range range; /* the range there (the thread scope is
	                            not part of a place) */
};

/* A transform applied in the viewer, and what it selected. */
struct app_transform {
	enum transform_kind kind;
	bool *methods;  /* by method index, NULL for all */
	uint32_t *path; /* focus on a call path: its methods from a root */
	size_t npath;
	char *label; /* "merge T.a", for the title */
};

/* A model the app showed, kept with everything built on it (the views'
 * states with their indexes) for undo and redo to show it again as it
 * was; only tree for the model as loaded when the rest did not fit. */
struct app_kept {
	struct calltree *tree; /* NULL: not kept */
	struct method_names *names;
	struct profile_cache *cache; /* NULL: only the tree is kept */
	struct profile_index *index;
	struct warmup *warmup;
	struct callpath *thread_paths;
	bool *thread_built;
	void *state[APP_VIEW_COUNT];
	struct selection sel; /* the app's when the model was left */
};

struct app_pending;

struct app_history {
	struct app_place *places;
	size_t count, cap;
};

enum { APP_MIN_WIDTH = 40, APP_MIN_HEIGHT = 8 };

/*
 * The trace --base compares with, summarised once: its called methods
 * keyed by full name (the class dotted), with their times over every
 * thread, and its call paths (threads merged) whose nodes' methods are
 * those keys' indices.
 */
struct triage_rules;

struct app {
	struct calltree *tree;
	struct scope scope;
	struct profile profile;      /* of the scope, both clocks */
	struct profile_cache *cache; /* per-thread sums behind it */
	struct profile_index *index; /* behind it within a range; NULL
	                                until the first range */
	enum app_clocks clocks;
	/* The selection every view shows (tui/selection.h): a method, and
	 * where there is one a call and its call path. */
	struct selection sel;
	enum app_view view;
	void *state[APP_VIEW_COUNT];
	bool reselect[APP_VIEW_COUNT]; /* refresh on show: app_select */
	struct app_history back, forward;
	/* A view opened from a list's row (the Frames and Calls views'
	 * Enter) and the history's length then: Esc there goes back to
	 * the list as [ does while the history is that long. */
	enum app_view opened_from_list;
	size_t list_return;
	char *message; /* shown once in the status line */
	bool message_is_error;
	regex_t re;
	bool have_re;
	unsigned search_serial; /* changes with every new pattern */
	bool prompting;         /* reading a pattern or a file name */
	/* REQ_SEARCH (/), REQ_FILTER (&) or REQ_WRITE_VIEW (w's file name) */
	enum request prompt_for;
	char *prompt;
	size_t prompt_len, prompt_cap;
	/* Patterns given at the / and & prompts (not w's file names),
	 * oldest first, for Up and Down; history_at is the one the prompt
	 * shows (nhistory: what was being typed, kept in draft). */
	char **history;
	size_t nhistory, history_cap, history_at;
	char *draft;
	/* Per view: its filter's pattern (NULL: none) and compiled form. */
	char *filter_text[APP_VIEW_COUNT];
	regex_t filter_re[APP_VIEW_COUNT];
	struct method_names *names; /* the model's short method names */
	bool full_names;            /* methods by full name (A) */
	/* List views show every number that fits beside names at their
	 * fewest columns, not only those beside the names' share (m). */
	bool all_columns;
	int page; /* rows of the view area at the last draw (0: too small) */
	/* The last left press: where, when, and whether it acted as Enter
	 * (the second press of a double click then does nothing more). */
	bool clicked, click_acted;
	int click_x, click_y;
	long long click_ms;
	struct base_compare *base; /* NULL without --base */
	char *base_path;           /* its file, as given */
	/* The command line's transforms, which the model as loaded has
	 * (and --base's): "--focus RE > --merge RE"; NULL for none. */
	char *loaded_with;
	struct warmup *warmup; /* indexes built in the background */
	/* The model as loaded while transforms apply (else NULL); the
	 * transforms applied are [0, ntransforms), those up to nkept can
	 * come back by going forward in the history. */
	struct calltree *original;
	struct app_transform *transforms;
	size_t ntransforms, nkept, transforms_cap;
	/* kept[i]: the model with the first i transforms applied, for i
	 * up to nkept but the one shown, when it is kept (app.c says which
	 * are; kept[0].tree is original). */
	struct app_kept *kept;
	size_t kept_cap;
	/* A transform, undo or redo asked for while keys were waiting,
	 * done by app_settle once they stop; NULL: none. */
	struct app_pending *pending;
	/* True when a key waits to be read: what a key asks for that
	 * takes time then waits (app_settle), and stops when one comes.
	 * NULL (headless): never, and it is done at once. */
	bool (*key_waiting)(void);
	/* The screen's columns (0: none, headless): a view lays out with
	 * them what a key read before its first draw needs. */
	int screen_width;
	/* Each thread's own call paths (callpath_build of that thread),
	 * from the warmup or made on first need: app_scope_parts. */
	struct callpath *thread_paths;
	bool *thread_built;
	/* A tree of sums whose threads' call paths were read with them:
	 * the views of paths open before the calls come. */
	bool sums_paths;
	/* Shows text at once, before the app waits for the warmup; NULL
	 * (headless) says nothing. */
	void (*notice)(const char *text);
	bool quit;
	/* At or above 0: the loop quits so that the viewer reloads the
	 * profile on this sample type (y); -1 otherwise. */
	long sample_type_wanted;
	/* A simpleperf recording read with Java frames only (Y). */
	bool java_only;
	/* The recording's clocks agree method by method, so the app shows
	 * the cpu clock's alone (c still shows both). */
	bool clocks_agree;
	/* What the Frames view calls a frame (--frame-method; not owned,
	 * NULL: Choreographer.doFrame) and its budget in microseconds
	 * (--budget, --refresh-rate; 0: 60 Hz's). */
	const char *frame_method;
	double frame_budget;
	/* Where o looks for source files (--source-dir; not owned). */
	const char *const *source_dirs;
	size_t nsource_dirs;
	/* Runs argv with the terminal given to it and returns its status
	 * (source_run's); NULL (headless): o says which file it found. */
	int (*run_editor)(char *const *argv);
	/* While the model holds sums only (tree->sums: read for them
	 * first), what reads its calls says how far it is, in percent,
	 * or why they never came (NULL: still coming). */
	int calls_percent;
	char *calls_error;
	/* The view asked for while they are read, shown when they come
	 * (APP_VIEW_COUNT: none), with the method it was to select
	 * (CALL_NONE: what is selected then). */
	enum app_view pending_view;
	uint32_t pending_method;
	/* The calls the Calls view lists instead of the selected method's
	 * (a finding's: the Findings view's Enter), on the model `tree`
	 * only (NULL: none); the Calls view's key drops them.  serial
	 * changes with each set. */
	struct {
		const struct calltree *tree;
		uint32_t *calls;
		size_t count;
		uint32_t thread;
		char *title;
		unsigned serial;
	} call_set;
	/* The triage rules of --rules and --threshold (not owned); NULL:
	 * the built-in table. */
	const struct triage_rules *rules;
};

/* A viewer on tree (which it takes over).  A tree of sums only shows
 * the profile, threads, info and help, and refuses what needs calls
 * until app_take_calls. */
struct app *app_new(struct calltree *tree);
/* True when the model has its calls; else false after saying in the
 * status line that they are still loading (or why they never came). */
bool app_has_calls(struct app *app);
/* The model with calls of the trace whose sums the app shows (same
 * methods, threads and profile; taken over): every view works on it,
 * keeping what it shows, and the indexes start building. */
void app_take_calls(struct app *app, struct calltree *tree);
/* Before a view waits for the warmup's `what`: say so through notice. */
void app_wait_notice(struct app *app, const char *what);
/* Release the app and its model. */
void app_free(struct app *app);
/* Handle a key press from the terminal. */
void app_key(struct app *app, int key);
/* Handle a mouse event (tui/mouse.h) on the screen as last drawn. */
void app_mouse(struct app *app, const struct mouse_event *ev);
/* Handle a request. */
void app_request(struct app *app, enum request req);
/* Do the transform, undo or redo that keys left waiting, unless a key
 * comes meanwhile (key_waiting): then it waits on. */
void app_settle(struct app *app);
/* Whether a transform, undo or redo waits for app_settle. */
bool app_unsettled(const struct app *app);
/* Draw the whole screen into canvas (which has the terminal's size). */
void app_draw(struct app *app, struct canvas *canvas);

/* Show a message in the status line until the next key. */
void app_message(struct app *app, bool error, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
/* Make scope the scope of every view (taken over). */
void app_set_scope(struct app *app, struct scope *scope);
/*
 * Restrict every view to range (NULL or range->on false: the whole
 * trace); the profile is recomputed and the views refreshed.
 */
void app_set_range(struct app *app, const struct time_range *range);

/* Select method m in every view, remembering where we were. */
void app_jump(struct app *app, enum app_view view, uint32_t m);
/* Select method m from the current view without a history entry; the
 * other views follow it when they are shown next. */
void app_select(struct app *app, uint32_t m);
/* Select the call path path[0..n) of methods from a root (a call tree
 * node, an icicle frame) from the current view, as app_select does. */
void app_select_path(struct app *app, const uint32_t *path, size_t n);
/* Select call c of thread t (the chart's) from the current view, with
 * its method and stack, as app_select does. */
void app_select_call(struct app *app, uint32_t t, uint32_t c);
/* Write every row the current view shows (under a filter, the rows it
 * shows) to path: aligned text, or TSV when path ends in .tsv; the
 * status line says how many rows or why not.  False when nothing was
 * written. */
bool app_write_view(struct app *app, const char *path);
/* Open the selected method's source file in the editor (o). */
void app_open_source(struct app *app);
/* Search for pattern (a POSIX extended regex, smart case) from the
 * selection. */
void app_search(struct app *app, const char *pattern);
/* Show only the current view's rows matching pattern (smart case, as a
 * search); "" shows every row again. */
void app_filter(struct app *app, const char *pattern);
/* Method m as the views show it: its short name, or its full name with
 * full_names (method_names_get); a new string. */
char *app_method_name(const struct app *app, uint32_t m);
/* The transforms applied, in order and joined by " > ", a new string;
 * NULL when none applies. */
char *app_transforms_list(const struct app *app);
/* Take over other's prompt history (before other is freed). */
void app_take_history(struct app *app, struct app *other);
/* Compare with base (not taken over), read from path. */
void app_set_base(struct app *app, const struct calltree *base,
                  const char *path);
/* Method m's times in BASE into incl and excl; false when BASE never
 * calls it (or there is no BASE). */
bool app_base_method(const struct app *app, uint32_t m,
                     uint64_t incl[CLOCK_COUNT], uint64_t excl[CLOCK_COUNT]);
/* The inclusive times into incl of BASE's node on the path of node n of
 * p (bottom-up with inverted); false when BASE lacks the path. */
bool app_base_path(const struct app *app, const struct callpath *p, uint32_t n,
                   bool inverted, uint64_t incl[CLOCK_COUNT]);
/* Apply a transform of kind on the selected method (a history entry). */
void app_transform(struct app *app, enum transform_kind kind);
/* Focus on the calls along path[0..n) of methods from a root (taken
 * over; a history entry). */
void app_transform_path(struct app *app, uint32_t *path, size_t n);
/* The own call paths of the scope's threads (each built once, shared by
 * the views that merge them) in a new array of *n; the paths stay the
 * app's. */
struct callpath *app_scope_parts(struct app *app, size_t *n);
/* The clock the profile's single-clock columns use. */
enum clock_index app_main_clock(const struct app *app);

#endif
