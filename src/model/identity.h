/*
 * identity: when two methods, of one trace or of two, are the same
 * method: equal class (a '/' read as '.', since traces write classes
 * either way), name and signature.  --base, diff and mapping files all
 * match methods this way.
 */
#ifndef TRACETUI_IDENTITY_H
#define TRACETUI_IDENTITY_H

#include "model/calltree.h"

#include <stddef.h>
#include <stdint.h>

/* Order of the class names a[0..an) and b[0..bn), '/' read as '.'. */
int identity_class_cmp(const char *a, size_t an, const char *b, size_t bn);

/* The hash of the class name s[0..n), '/' read as '.'. */
uint64_t identity_class_hash(const char *s, size_t n);

/* Order of two methods by class (as above), name, then signature; 0
 * when they are the same method. */
int identity_cmp(const struct tt_method *a, const struct tt_method *b);

#endif
