/*
 * method-name: how a method is written in every output.
 *
 * The full name is "CLASS.NAME SIGNATURE" with the class exactly as the
 * trace writes it; parts a method lacks are left out with their separator.
 * Names are returned as new strings the caller frees.
 */
#ifndef TRACETUI_METHOD_NAME_H
#define TRACETUI_METHOD_NAME_H

#include "model/calltree.h"

#include <stdbool.h>
#include <stdint.h>

/* "CLASS.NAME SIGNATURE". */
char *method_full_name(const struct tt_method *m);
/* The full name with the class's '/' written '.', as diff names
 * methods: "android.os.Debug.stopMethodTracing ()V". */
char *method_dotted_name(const struct tt_method *m);
/* "CLASS.NAME", without the signature. */
char *method_short_name(const struct tt_method *m);
/* Where the key says m is: "File.java:12", "File.java" without a line,
 * or NULL without a source file. */
char *method_source(const struct tt_method *m);
/* The full name with its source after it when known:
 * "CLASS.NAME SIGNATURE  (File.java:12)". */
char *method_name_with_source(const struct tt_method *m);
/*
 * A new copy of the full or short name shortened towards width columns:
 * package parts become their first letter, outermost first, until the
 * class and method fit; what is still too wide is left for the caller
 * to cut (canvas_text marks the cut).
 */
char *method_fit_name(const char *name, int width);

/*
 * A new copy of a name as shown (short or full) in at most width
 * columns, shortened by the one rule every view follows: whole when it
 * fits; else the signature or parameter list goes first
 * ("a.v.View.measure"), then C++'s template arguments and return type;
 * then the start goes, replaced by mark, a part at a time: packages and
 * namespaces, then outer classes ("…ViewRootImpl.performTraversals",
 * "…Monitor::Lock"); then as much of the class as fits before the
 * method's own name ("…ewRootImpl.performTraversals"); last that name
 * is cut from its left.
 * The end of a name is never cut.
 */
char *method_cut_left(const char *shown, int width, const char *mark);

/* A new copy of class with each package part cut to its first
 * character ("android.view.Choreographer" to "a.v.Choreographer", with
 * '/' kept as written); the class's own name, inner classes and lambdas
 * ("Outer$Inner", "-$$Lambda$Outer$1") stay whole. */
char *method_abbrev_class(const char *klass);
/* A new string: the parameter types of signature (a descriptor
 * "(ILjava/lang/String;)V" or a source form "(java.util.Map<K,V>, int)")
 * by their simple names, "(int,String)"; "" when it has no "(". */
char *method_params(const char *signature);

/*
 * The viewer's names of a model's methods: short by default, packages
 * as initials and the method's own name whole; a method whose short
 * name another method's would equal keeps its class whole when their
 * classes differ, and shows its parameter types when they are overloads
 * of one class.
 */
struct method_names;

/* The names of tree's methods (tree must outlive them). */
struct method_names *method_names_new(const struct calltree *tree);
/* Release names (NULL is fine). */
void method_names_free(struct method_names *names);
/* Method m as the viewer shows it, a new string: method_full_name when
 * full, else its short name ("a.v.Choreographer.doFrame",
 * "a.v.View.measure(int,int)"). */
char *method_names_get(const struct method_names *names, uint32_t m, bool full);

#endif
