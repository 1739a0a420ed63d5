/*
 * mapping: R8 / ProGuard mapping files (mapping.txt), and renaming the
 * classes, methods and signatures of a loaded trace back to their
 * original names (--mapping FILE).  model/mapping.c describes the format and
 * how an ambiguous obfuscated name is settled.
 */
#ifndef TRACETUI_MAPPING_H
#define TRACETUI_MAPPING_H

#include "model/calltree.h"

#include <stddef.h>

struct mapping;

/* One method's original names, new strings the caller frees. */
struct mapping_name {
	char *klass;
	char *name;
	char *signature;
};

/*
 * Parse the len bytes at text, named `name` in messages.  NULL with
 * *error set ("NAME: line N: problem", to free) when a line is malformed.
 */
struct mapping *mapping_parse(const char *text, size_t len, const char *name,
                              char **error);
/* Read and parse the file at path; NULL with *error set, as above. */
struct mapping *mapping_load(const char *path, char **error);
/* Release the mapping. */
void mapping_free(struct mapping *map);

/* The original names of method klass.name signature, in *out. */
void mapping_rename(const struct mapping *map, const char *klass,
                    const char *name, const char *signature,
                    struct mapping_name *out);
/* Release the strings of *n. */
void mapping_name_done(struct mapping_name *n);

/*
 * Rename every defined method of tree, right after it is built and before
 * anything reads it; the new names live in the tree's arena.
 */
void mapping_apply(const struct mapping *map, struct calltree *tree);

/* The original name of the class named obf (dotted) in the dump or
 * trace, or NULL when the mapping does not rename it. */
const char *mapping_class(const struct mapping *map, const char *obf);
/* The original name of field obf_field of class obf_class (both as
 * obfuscated), or NULL when the mapping does not rename it. */
const char *mapping_field(const struct mapping *map, const char *obf_class,
                          const char *obf_field);

#endif
