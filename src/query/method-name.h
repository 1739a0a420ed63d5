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

/* "CLASS.NAME SIGNATURE". */
char *method_full_name(const struct tt_method *m);
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

#endif
