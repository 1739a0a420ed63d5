/*
 * unit-names: the viewer's short method names, row by row against names
 * written out by hand: packages as initials, inner classes and lambdas
 * whole, parameters of overloads by simple names (descriptors and
 * source forms with generics), classes kept whole where initials would
 * merge two, names without a package, and names full of controls that
 * stay escaped; and the full names their parts join into.
 */
#include "config.h"

#include "query/method-name.h"
#include "text/width.h"

#include "tap.h"

#include <stdlib.h>

/* A method's full name: class, a dot only when both class and name are
 * there, the name, a blank only before a signature. */
static void
test_full_name(void)
{
	static const struct {
		const char *klass, *name, *sig, *want;
	} rows[] = {
	        {"a.B", "c", "()V", "a.B.c ()V"},
	        {"a.B", "c", "", "a.B.c"},
	        {"", "c", "()V", "c ()V"},
	        {"a.B", "", "()V", "a.B ()V"},
	        {"", "", "", ""},
	        {"", "", "(I)V", " (I)V"},
	        {"\xc3\xa9.B", "<init>", "(Ljava/lang/String;)V",
	         "\xc3\xa9.B.<init> (Ljava/lang/String;)V"},
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct tt_method m = {0};
		char *got;

		m.klass = rows[i].klass;
		m.name = rows[i].name;
		m.signature = rows[i].sig;
		got = method_full_name(&m);
		is_str(got, rows[i].want, "full name of row %zu", i);
		free(got);
	}
}

static void
test_abbrev_class(void)
{
	static const struct {
		const char *klass, *want;
	} rows[] = {
	        {"android.view.Choreographer", "a.v.Choreographer"},
	        {"android/view/Choreographer", "a/v/Choreographer"},
	        {"com.example.Outer$Inner", "c.e.Outer$Inner"},
	        {"com.example.-$$Lambda$Main$1xYz", "c.e.-$$Lambda$Main$1xYz"},
	        {"Choreographer", "Choreographer"},
	        {"", ""},
	        /* One UTF-8 character, not its first byte. */
	        {"\xc3\xa9t\xc3\xa9.Ca", "\xc3\xa9.Ca"},
	        /* Dots inside type arguments are not packages. */
	        {"Map<java.lang.String>", "Map<java.lang.String>"},
	        {"a..b.C", "a..b.C"},
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char *got = method_abbrev_class(rows[i].klass);

		is_str(got, rows[i].want, "class '%s'", rows[i].want);
		free(got);
	}
}

static void
test_params(void)
{
	static const struct {
		const char *sig, *want;
	} rows[] = {
	        {"(I)V", "(int)"},
	        {"()V", "()"},
	        {"(Ljava/lang/String;I)V", "(String,int)"},
	        {"([[JLandroid/view/View$OnClickListener;Z)Ljava/lang/Object;",
	         "(long[][],View$OnClickListener,boolean)"},
	        {"(java.util.Map<java.lang.String, java.util.List<java.lang."
	         "Integer>>, int)",
	         "(Map<String, List<Integer>>,int)"},
	        {"(java.lang.String...)", "(String...)"},
	        {"(Lbroken", "(Lbroken)"},
	        {"", ""},
	        {"no parameters", ""},
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char *got = method_params(rows[i].sig);

		is_str(got, rows[i].want, "signature '%s'", rows[i].sig);
		free(got);
	}
}

/* Golden rows: a model's methods and the short names the viewer shows. */
static void
test_names(void)
{
	static const struct {
		const char *klass, *name, *sig, *want;
	} rows[] = {
	        {"android.view.Choreographer", "doFrame", "(J)V",
	         "a.v.Choreographer.doFrame"},
	        /* Overloads: their parameters. */
	        {"android.view.View", "measure", "(II)V",
	         "a.v.View.measure(int,int)"},
	        {"android.view.View", "measure", "(Ljava/lang/String;I)V",
	         "a.v.View.measure(String,int)"},
	        /* a.w.Widget.draw twice, from two packages: whole classes. */
	        {"android.widget.Widget", "draw", "()V",
	         "android.widget.Widget.draw"},
	        {"androidx.wear.Widget", "draw", "()V",
	         "androidx.wear.Widget.draw"},
	        {"com.example.Outer$Inner", "run", "()V",
	         "c.e.Outer$Inner.run"},
	        {"com.example.-$$Lambda$Main$1xYz", "run", "()V",
	         "c.e.-$$Lambda$Main$1xYz.run"},
	        {"java.util.HashMap", "put",
	         "(java.util.Map<java.lang.String, java.util.List<java.lang."
	         "Integer>>, java.lang.Object)",
	         "j.u.HashMap.put(Map<String, List<Integer>>,Object)"},
	        {"java.util.HashMap", "put", "(Ljava/lang/Object;)V",
	         "j.u.HashMap.put(Object)"},
	        {"Main", "main", "([Ljava/lang/String;)V", "Main.main"},
	        {"", "malloc", "", "malloc"},
	        {"evil\x1b[2J.pkg\x07.Cl\x1b"
	         "ass",
	         "na\x1b]0;me", "(I)V",
	         "e.p.Cl\x1b"
	         "ass.na\x1b]0;me"},
	};
	enum { N = sizeof(rows) / sizeof(rows[0]) };
	struct tt_method methods[N];
	struct calltree tree;
	struct method_names *names;
	size_t i;

	memset(&tree, 0, sizeof(tree));
	memset(methods, 0, sizeof(methods));
	for (i = 0; i < N; i++) {
		methods[i].klass = rows[i].klass;
		methods[i].name = rows[i].name;
		methods[i].signature = rows[i].sig;
		methods[i].line = -1;
		methods[i].defined = true;
	}
	tree.methods = methods;
	tree.nmethods = N;
	names = method_names_new(&tree);
	for (i = 0; i < N; i++) {
		char *got = method_names_get(names, (uint32_t)i, false);
		char *full = method_names_get(names, (uint32_t)i, true);
		char *want = method_full_name(&methods[i]);

		is_str(got, rows[i].want, "short name of row %zu", i);
		is_str(full, want, "full name of row %zu", i);
		free(got);
		free(full);
		free(want);
	}
	{
		/* The hostile name is still escaped on its way out. */
		char *got = method_names_get(names, N - 1, false);
		char *shown = text_escape(got);

		is_str(shown, "e.p.Cl\\x1Bass.na\\x1B]0;me",
		       "a short name's controls are escaped");
		ok(!strchr(shown, '\x1b') && !strchr(shown, '\x07'),
		   "no control survives the escape");
		free(shown);
		free(got);
	}
	method_names_free(names);
}

/* The one rule of shortening a name: signature first, then templates,
 * then packages and outer classes from the left, the method kept. */
static void
test_cut_left(void)
{
	static const struct {
		const char *name;
		int width;
		const char *want;
	} rows[] = {
	        {"a.v.ViewRootImpl.performTraversals", 40,
	         "a.v.ViewRootImpl.performTraversals"},
	        {"android.view.ViewRootImpl.performTraversals ()V", 44,
	         "android.view.ViewRootImpl.performTraversals"},
	        {"android.view.ViewRootImpl.performTraversals ()V", 40,
	         "~view.ViewRootImpl.performTraversals"},
	        {"android.view.ViewRootImpl.performTraversals ()V", 31,
	         "~ViewRootImpl.performTraversals"},
	        /* Then as much of the class as fits. */
	        {"android.view.ViewRootImpl.performTraversals ()V", 30,
	         "~iewRootImpl.performTraversals"},
	        {"android.view.ViewRootImpl.performTraversals ()V", 19,
	         "~performTraversals"},
	        /* An overload's parameters go after the packages. */
	        {"a.v.View.measure(int,int)", 22, "~View.measure(int,int)"},
	        {"a.v.View.measure(int,int)", 20, "a.v.View.measure"},
	        {"a.v.View.measure(int,int)", 14, "~View.measure"},
	        {"c.e.Activity$$Lambda2.run", 14, "~Lambda2.run"},
	        {"c.e.Handler$Worker.run", 12, "~Worker.run"},
	        {"c.e.Handler$Worker.run", 19, "~Handler$Worker.run"},
	        {"c.e.Handler$Worker.run", 4, "~run"},
	        {"c.e.Handler$Worker.run", 3, "~un"},
	        /* C++: the parameters, then templates and the return
	         * type, then namespaces from the left. */
	        {"art::Monitor::Lock(art::Thread*)", 20, "art::Monitor::Lock"},
	        {"art::Monitor::Lock(art::Thread*)", 15, "~Monitor::Lock"},
	        {"void art::Foo<int, std::pair<a, b> >::bar<true>(int) const",
	         20, "art::Foo::bar"},
	        {"GrOp::execute(GrOpFlushState*, void (*)(void*), void*)", 20,
	         "GrOp::execute"},
	        {"(anonymous namespace)::Walk::run(int)", 32,
	         "(anonymous namespace)::Walk::run"},
	        {"(anonymous namespace)::Walk::run(int)", 12, "~Walk::run"},
	        {"__pthread_start(void*)", 16, "__pthread_start"},
	        {"__pthread_start(void*)", 10, "~ead_start"},
	        {"(top level)", 8, "~ level)"},
	        {"std::__1::vector<int>::operator<<(int)", 19,
	         "~vector::operator<<"},
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char *got = method_cut_left(rows[i].name, rows[i].width, "~");

		is_str(got, rows[i].want, "'%s' in %d", rows[i].name,
		       rows[i].width);
		ok((int)text_width(got) <= rows[i].width, "'%s' fits in %d",
		   got, rows[i].width);
		free(got);
	}
}

int
main(void)
{
	test_cut_left();
	test_full_name();
	test_abbrev_class();
	test_params();
	test_names();
	return done_testing();
}
