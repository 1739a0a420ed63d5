/*
 * request: everything a user can ask of the viewer, declared once.
 *
 * REQUEST_LIST is the single table of requests with their default keys
 * and help text; the key handler, the help view and the man page's key
 * list are all generated from it.  Keys are written as in the help:
 * a character, or Up Down Left Right PgUp PgDn Home End Enter Esc Tab
 * S-Tab Space Backspace F1..F12, or C-x for Ctrl-x.
 */
#ifndef TRACETUI_REQUEST_H
#define TRACETUI_REQUEST_H

#include <stddef.h>

/* R(ID, group, keys, help) */
#define REQUEST_LIST(R)                                                        \
	R(MOVE_UP, "Move", "k Up", "move up; the caller of a call")            \
	R(MOVE_DOWN, "Move", "j Down", "move down; the first callee")          \
	R(PAGE_UP, "Move", "PgUp C-b", "move up a page")                       \
	R(PAGE_DOWN, "Move", "PgDn C-f", "move down a page")                   \
	R(MOVE_FIRST, "Move", "g Home", "go to the first row")                 \
	R(MOVE_LAST, "Move", "G End", "go to the last row")                    \
	R(EXPAND, "Move", "l Right",                                           \
	  "expand the row; next call at its depth; next sibling frame")        \
	R(COLLAPSE, "Move", "h Left",                                          \
	  "collapse the row; previous call at its depth; previous frame")      \
	R(ENTER, "Move", "Enter",                                              \
	  "open: expand a method, jump to a caller or "                        \
	  "callee, choose a thread")                                           \
	R(BACK_OUT, "Move", "Esc u", "go back out: collapse, leave the view")  \
	R(HISTORY_BACK, "History", "[ C-o", "back in the navigation history")  \
	R(HISTORY_FORWARD, "History", "]",                                     \
	  "forward in the navigation history")                                 \
	R(VIEW_NEXT, "Views", "Tab", "next view")                              \
	R(VIEW_PREV, "Views", "S-Tab", "previous view")                        \
	R(VIEW_PROFILE, "Views", "1 p", "profile view")                        \
	R(VIEW_TIMELINE, "Views", "2 T", "timeline view")                      \
	R(VIEW_ICICLE, "Views", "3 f", "icicle (flame graph) view")            \
	R(VIEW_THREADS, "Views", "4 t", "threads view")                        \
	R(VIEW_INFO, "Views", "5 i", "info view")                              \
	R(VIEW_HELP, "Views", "6 ? F1", "this help")                           \
	R(VIEW_CALLTREE, "Views", "7 C",                                       \
	  "call tree view; on a method: its call paths")                       \
	R(VIEW_FRAMES, "Views", "8 J",                                         \
	  "frames view: every frame against the budget")                       \
	R(VIEW_CALLS, "Views", "9 I",                                          \
	  "calls view: each call of the selected method")                      \
	R(VIEW_FINDINGS, "Views", "!",                                         \
	  "findings view: what triage finds, by severity")                     \
	R(CLOCK, "Profile", "c", "cycle the clock: cpu, wall, both")           \
	R(SAMPLE_TYPE, "Profile", "y",                                         \
	  "pprof, simpleperf: cycle the sample type (sizes, counts, events)")  \
	R(JAVA_ONLY, "Profile", "Y",                                           \
	  "simpleperf: only Java frames, or every frame again")                \
	R(SORT_NEXT, "Profile", "s >", "sort by the next column")              \
	R(SORT_PREV, "Profile", "<", "sort by the previous column")            \
	R(SORT_REVERSE, "Profile", "S r", "reverse the sort order")            \
	R(COLUMNS, "Profile", "m",                                             \
	  "lists: every column that fits beside short names, or not")          \
	R(ZOOM_IN, "Timeline", "+ =", "zoom in around the cursor")             \
	R(ZOOM_OUT, "Timeline", "- _", "zoom out")                             \
	R(CALL_NEXT, "Timeline", ".",                                          \
	  "next call of the selected method, on any thread (any view)")        \
	R(CALL_PREV, "Timeline", ",",                                          \
	  "previous call of the selected method, on any thread (any view)")    \
	R(CALL_LONGEST, "Timeline", "L",                                       \
	  "longest call of the selected method (from any view)")               \
	R(FIT, "Timeline", "0", "fit the whole trace (or the range)")          \
	R(ZOOM_CALL, "Timeline", "z", "zoom to the selected call")             \
	R(FOLD_ALL, "Timeline", "O", "fold every thread, or unfold them all")  \
	R(SHOW_IDLE, "Timeline", "H",                                          \
	  "show or hide the threads idle in the range")                        \
	R(CHART_CLOCK, "Timeline", "W",                                        \
	  "lay the calls out on the wall or the cpu clock")                    \
	R(RANGE_START, "Timeline", "v",                                        \
	  "start a time range at the cursor; moving extends it")               \
	R(RANGE_APPLY, "Timeline", "V", "apply the range to every view")       \
	R(RANGE_CLEAR, "Timeline", "X", "clear the range")                     \
	R(INVERT, "Icicle", "b", "bottom-up (inverted) icicle or call tree")   \
	R(EXPAND_HOT, "Call tree", "e *",                                      \
	  "expand the hottest path while a child has 80% of its time")         \
	R(EXPAND_ALL, "Call tree", "E",                                        \
	  "expand everything under the row (up to 10000 rows)")                \
	R(TAG, "Threads", "Space",                                             \
	  "tag or untag the selected thread; fold a thread's calls")           \
	R(SCOPE_ALL, "Threads", "a", "scope: all threads")                     \
	R(SEARCH, "Search", "/",                                               \
	  "search with a regular expression (lower case: any case; "           \
	  "Up/Down: earlier patterns)")                                        \
	R(SEARCH_NEXT, "Search", "n", "next match")                            \
	R(SEARCH_PREV, "Search", "N", "previous match")                        \
	R(FILTER, "Search", "&",                                               \
	  "show only the rows matching a pattern (empty or Esc: all rows)")    \
	R(TRANSFORM_FOCUS, "Transforms", "F",                                  \
	  "focus on the selected method (icicle: on the call path)")           \
	R(TRANSFORM_MERGE, "Transforms", "M",                                  \
	  "merge the selected method into its callers")                        \
	R(TRANSFORM_DROP, "Transforms", "D",                                   \
	  "drop the selected method's calls and their time")                   \
	R(TRANSFORM_RECURSION, "Transforms", "R",                              \
	  "collapse the selected method's recursion")                          \
	R(TRANSFORM_CLASS, "Transforms", "K",                                  \
	  "collapse the selected method's class into one frame")               \
	R(TRANSFORM_PACKAGE, "Transforms", "P",                                \
	  "collapse the selected method's package into one frame")             \
	R(TRANSFORM_GROUP, "Transforms", "Z",                                  \
	  "group by class; again: by package")                                 \
	R(TRANSFORM_UNDO, "Transforms", "U",                                   \
	  "undo the last transform (the view stays)")                          \
	R(TRANSFORM_REDO, "Transforms", "C-r",                                 \
	  "redo the transform undone last")                                    \
	R(FULL_NAMES, "Other", "A",                                            \
	  "abbreviated or full method names (packages as initials)")           \
	R(OPEN_SOURCE, "Other", "o",                                           \
	  "open the method's source in $VISUAL or $EDITOR (--source-dir)")     \
	R(WRITE_VIEW, "Other", "w",                                            \
	  "write the view's rows to a file (TSV if it ends in .tsv)")          \
	R(REDRAW, "Other", "C-l", "redraw the screen")                         \
	R(QUIT, "Other", "q", "quit (Ctrl-Z suspends)")

enum request {
	REQ_NONE,
#define REQUEST_ENUM(id, group, keys, help) REQ_##id,
	REQUEST_LIST(REQUEST_ENUM)
#undef REQUEST_ENUM
	        REQ_COUNT,
};

struct request_info {
	enum request request;
	const char *name; /* "MOVE_UP" */
	const char *group;
	const char *keys; /* "k Up" */
	const char *help;
};

/* The table entry of every request, in declaration order. */
extern const struct request_info request_table[REQ_COUNT - 1];

/* The request named name ("MOVE_DOWN"), or REQ_NONE. */
enum request request_by_name(const char *name);

#endif
