/*
 * unit-flame: text/markup's escapes, and query/flame's layout and
 * matching on a hand-worked trace.
 *
 * NEW, thread main (times on both clocks):
 *   a 0..50 { b 10..30, c 30..35 }, then d 60..70
 * so the thread spans 70, its top-level calls 60, and 10 is outside any
 * method.  Merged (no thread nodes) the root is 70 wide: a (50, at 0;
 * own time 25) with b (20, at 0) and c (5, at 20), d (10, at 50), and
 * the outside frame (10, at 60).  BASE, thread main: a 0..40 { b 10..20 }
 * spans 40 with nothing outside; a, b and the root match, c and d do
 * not.
 *
 * Identity across traces: NEW defines Top, Kid, then Fake (class
 * com.example, name A.run); BASE defines the same Kid first (its class
 * written with '/'), Top second, then com.example.A's run.  NEW:
 *   Top 0..30 { Kid 0..10, Fake 10..25 }
 * BASE:
 *   Top 0..40 { Kid 0..12, run 12..32 }
 * Kid matches (12 wide in BASE) though its id and place differ; Fake's
 * full name "com.example.A.run ()V" is run's too, but its class and
 * name are not, so it is not the same method and does not match.
 */
#include "config.h"

#include "model/calltree.h"
#include "model/scope.h"
#include "query/callpath.h"
#include "query/flame.h"
#include "text/markup.h"

#include "tap.h"
#include "trace-begin.h"

#include <stdlib.h>

/* What f wrote for s. */
static char *
written(void (*f)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	f(mem, s);
	fclose(mem);
	return buf;
}

static void
test_markup(void)
{
	char *s;

	s = written(markup_escape, "<a href=\"x\">&'\x01\xff");
	is_str(s, "&lt;a href=&quot;x&quot;&gt;&amp;&apos;\\x01\\xFF",
	       "markup_escape: the five characters, control and bad bytes");
	free(s);
	s = written(markup_escape, "\xef\xbf\xbe ok \xc3\xa9");
	is_str(s, "\\uFFFE ok \xc3\xa9", "markup_escape: U+FFFE, UTF-8 kept");
	free(s);
	s = written(markup_json_string, "</script>&\"\\\xe2\x80\xa8\x1f");
	is_str(s, "\"\\u003c/script\\u003e\\u0026\\\"\\\\\\\\u2028\\\\x1F\"",
	       "markup_json_string: no <, >, & or raw U+2028 left");
	free(s);
	s = written(markup_dot_escape, "a\"b\\N\x02");
	is_str(s, "a\\\"b\\\\N\\\\x02", "markup_dot_escape: quote, backslash");
	free(s);
}

/* Calls of one thread: method index (0 a, 1 b, 2 c, 3 d), enter, exit,
 * depth-first; depth by nesting. */
struct spec_call {
	int method;
	uint64_t in, out;
	int kids;
};

static void
feed(const struct trace_sink *s, const struct spec_call *c, size_t *i)
{
	const struct spec_call *me = &c[(*i)++];
	uint64_t id = 0x10 * (uint64_t)(me->method + 1);
	int k;

	s->event(s->ctx, 1, id, TRACE_ENTER, me->in, me->in);
	for (k = 0; k < me->kids; k++)
		feed(s, c, i);
	s->event(s->ctx, 1, id, TRACE_EXIT, me->out, me->out);
}

static struct calltree *
tree_of(const struct spec_call *c, size_t n)
{
	static const char *const names[] = {"a", "b", "c", "d"};
	struct calltree_builder *b;
	const struct trace_sink *s =
	        trace_begin(&b, "unit-flame", TRACE_CLOCK_DUAL, names, 4);
	size_t i = 0;

	while (i < n)
		feed(s, c, &i);
	return calltree_builder_finish(b);
}

static const struct flame_frame *
frame_named(const struct flame *f, const struct callpath *p,
            const struct calltree *t, const char *name)
{
	size_t i;

	for (i = 0; i < f->count; i++)
		if (f->frames[i].kind == FLAME_METHOD &&
		    strcmp(t->methods[p->nodes[f->frames[i].node].method].name,
		           name) == 0)
			return &f->frames[i];
	return NULL;
}

static void
test_layout(void)
{
	static const struct spec_call now[] = {
	        {0, 0, 50, 2}, {1, 10, 30, 0}, {2, 30, 35, 0}, {3, 60, 70, 0}};
	static const struct spec_call was[] = {{0, 0, 40, 1}, {1, 10, 20, 0}};
	struct calltree *t = tree_of(now, 4), *bt = tree_of(was, 2);
	struct scope sc, bsc;
	struct callpath p, bp;
	struct flame f;
	struct flame_base fb;
	const struct flame_frame *a, *b, *c, *d, *out;
	size_t i;

	scope_init_all(&sc, t);
	scope_init_all(&bsc, bt);
	is_u64(scope_total(&sc, t, CLOCK_CPU), 70, "NEW spans 70");
	callpath_build(&p, t, &sc, false);
	callpath_sort(&p, CLOCK_CPU);
	flame_layout(&f, &p, CLOCK_CPU, 70, 0);
	is_u64(f.count, 6, "merged: root, a, b, c, d and outside");
	is_u64(f.frames[0].incl, 70, "the root is the scope's total");
	is_u64(f.frames[0].excl, 0, "the root has no time of its own");
	a = frame_named(&f, &p, t, "a");
	b = frame_named(&f, &p, t, "b");
	c = frame_named(&f, &p, t, "c");
	d = frame_named(&f, &p, t, "d");
	out = &f.frames[f.count - 1];
	ok(a && b && c && d, "every method has a frame");
	if (!(a && b && c && d))
		return;
	ok(a->x == 0 && a->incl == 50 && a->excl == 25 && a->depth == 1,
	   "a: at 0, 50 wide, 25 its own");
	ok(b->x == 0 && b->incl == 20 && b->depth == 2, "b: at 0, 20 wide");
	ok(c->x == 20 && c->incl == 5 && c->depth == 2, "c: at 20, 5 wide");
	ok(d->x == 50 && d->incl == 10 && d->depth == 1, "d: at 50, 10 wide");
	ok(out->kind == FLAME_OUTSIDE && out->x == 60 && out->incl == 10 &&
	           out->excl == 10 && out->parent == 0,
	   "outside any method: at 60, 10 wide, under the root");
	for (i = 1; i < f.count; i++)
		if (f.frames[i].parent >= i)
			break;
	is_u64(i, f.count, "parents come before their children");

	callpath_build(&bp, bt, &bsc, false);
	callpath_sort(&bp, CLOCK_CPU);
	flame_match(&fb, &f, &p, t, &bp, bt, CLOCK_CPU, 40);
	is_u64(fb.total, 40, "BASE's root: its total");
	ok(fb.found[a - f.frames] && fb.incl[a - f.frames] == 40 &&
	           fb.excl[a - f.frames] == 30,
	   "a matches BASE's a: 40 wide, 30 its own");
	ok(fb.found[b - f.frames] && fb.incl[b - f.frames] == 10,
	   "b matches BASE's a > b: 10 wide");
	ok(!fb.found[c - f.frames] && !fb.found[d - f.frames],
	   "c and d are not in BASE");
	ok(!fb.found[out - f.frames], "BASE has no time outside methods");
	flame_base_done(&fb);
	callpath_done(&bp);
	flame_done(&f);

	flame_layout(&f, &p, CLOCK_CPU, 70, 6);
	ok(f.count == 5 && !frame_named(&f, &p, t, "c") && f.pruned == 1,
	   "at least 6 wide: c (5) is left out");
	flame_done(&f);
	flame_layout(&f, &p, CLOCK_CPU, 70, 11);
	ok(f.count == 3 && f.pruned == 3 && frame_named(&f, &p, t, "b") &&
	           f.frames[f.count - 1].kind != FLAME_OUTSIDE,
	   "at least 11 wide: c, d and the outside frame are left out");
	flame_done(&f);
	callpath_done(&p);

	callpath_build(&p, t, &sc, true);
	callpath_sort(&p, CLOCK_CPU);
	flame_layout(&f, &p, CLOCK_CPU, 70, 0);
	ok(f.count == 6 && f.frames[1].kind == FLAME_THREAD &&
	           f.frames[1].incl == 70 && f.frames[1].excl == 10,
	   "by thread: main is 70 wide, 10 of it outside any method");
	is_u64(f.frames[f.count - 1].kind == FLAME_OUTSIDE, 0,
	       "by thread: no outside frame");
	flame_done(&f);
	callpath_done(&p);
	scope_done(&sc);
	scope_done(&bsc);
	calltree_free(t);
	calltree_free(bt);
}

/* A tree of thread 1 "main" whose methods 0x10, 0x20, ... are defs,
 * calls fed as by feed. */
static struct calltree *
tree_of_defs(const struct trace_method_def *defs, unsigned ndefs,
             const struct spec_call *c, size_t n)
{
	struct trace_header h = trace_header_v1(TRACE_CLOCK_DUAL, 64);
	struct calltree_builder *b = calltree_builder_new("unit-flame");
	const struct trace_sink *s = calltree_builder_sink(b);
	size_t i = 0;
	unsigned d;

	s->begin(s->ctx, &h);
	for (d = 0; d < ndefs; d++) {
		struct trace_method_def def = defs[d];

		def.id = 0x10 * (d + 1);
		s->method(s->ctx, &def);
	}
	s->thread(s->ctx, 1, "main");
	while (i < n)
		feed(s, c, &i);
	return calltree_builder_finish(b);
}

static void
test_identity(void)
{
	static const struct trace_method_def now_defs[] = {
	        {.klass = "com.example.Top",
	         .name = "main",
	         .signature = "()V",
	         .line = -1},
	        {.klass = "com.example.Kid",
	         .name = "work",
	         .signature = "(I)V",
	         .line = -1},
	        {.klass = "com.example",
	         .name = "A.run",
	         .signature = "()V",
	         .line = -1},
	};
	static const struct trace_method_def was_defs[] = {
	        {.klass = "com/example/Kid",
	         .name = "work",
	         .signature = "(I)V",
	         .line = -1},
	        {.klass = "com.example.Top",
	         .name = "main",
	         .signature = "()V",
	         .line = -1},
	        {.klass = "com.example.A",
	         .name = "run",
	         .signature = "()V",
	         .line = -1},
	};
	static const struct spec_call now[] = {
	        {0, 0, 30, 2}, {1, 0, 10, 0}, {2, 10, 25, 0}};
	static const struct spec_call was[] = {
	        {1, 0, 40, 2}, {0, 0, 12, 0}, {2, 12, 32, 0}};
	struct calltree *t = tree_of_defs(now_defs, 3, now, 3);
	struct calltree *bt = tree_of_defs(was_defs, 3, was, 3);
	struct scope sc, bsc;
	struct callpath p, bp;
	struct flame f;
	struct flame_base fb;
	const struct flame_frame *top, *kid, *fake;

	scope_init_all(&sc, t);
	scope_init_all(&bsc, bt);
	callpath_build(&p, t, &sc, false);
	callpath_sort(&p, CLOCK_CPU);
	callpath_build(&bp, bt, &bsc, false);
	callpath_sort(&bp, CLOCK_CPU);
	flame_layout(&f, &p, CLOCK_CPU, 30, 0);
	top = frame_named(&f, &p, t, "main");
	kid = frame_named(&f, &p, t, "work");
	fake = frame_named(&f, &p, t, "A.run");
	ok(top && kid && fake, "identity: Top, Kid and Fake have frames");
	if (top && kid && fake) {
		flame_match(&fb, &f, &p, t, &bp, bt, CLOCK_CPU, 40);
		ok(fb.found[top - f.frames] && fb.incl[top - f.frames] == 40 &&
		           fb.excl[top - f.frames] == 8,
		   "identity: Top matches BASE's (40 wide, 8 its own)");
		ok(fb.found[kid - f.frames] && fb.incl[kid - f.frames] == 12,
		   "identity: Kid matches BASE's though its id, its place "
		   "and its class's separators differ");
		ok(!fb.found[fake - f.frames],
		   "identity: com.example's A.run is not com.example.A's run, "
		   "though their full names are equal");
		flame_base_done(&fb);
	}
	flame_done(&f);
	callpath_done(&p);
	callpath_done(&bp);
	scope_done(&sc);
	scope_done(&bsc);
	calltree_free(t);
	calltree_free(bt);
}

int
main(void)
{
	test_markup();
	test_layout();
	test_identity();
	return done_testing();
}
