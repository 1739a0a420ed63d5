/*
 * transforms: a regex is matched once per method against the full name
 * method-name writes, which gives the transform its selected methods.
 */
#include "config.h"

#include "query/transforms.h"

#include "query/method-name.h"
#include "query/quantity.h"
#include "util/alloc.h"
#include "util/pattern.h"

#include <regex.h>
#include <stdlib.h>

const char *
transforms_check_regex(const char *regex)
{
	static char why[160];
	regex_t re;
	const char *refused = pattern_refusal(regex);

	if (refused)
		return refused;
	if (pattern_compile(&re, regex, REG_EXTENDED | REG_NOSUB, why,
	                    sizeof(why)) != 0)
		return "not a valid extended regular expression";
	regfree(&re);
	return NULL;
}

/* The methods of tree whose full names match regex, or NULL when the
 * regex does not compile; *any tells whether one does. */
static bool *
select_methods(const struct calltree *tree, const char *regex, bool *any)
{
	regex_t re;
	bool *sel;
	size_t i;

	char why[160];

	*any = false;
	if (pattern_compile(&re, regex, REG_EXTENDED | REG_NOSUB, why,
	                    sizeof(why)) != 0)
		return NULL;
	sel = xcalloc(tree->nmethods + 1, sizeof(*sel));
	for (i = 0; i < tree->nmethods; i++) {
		char *name = method_full_name(&tree->methods[i]);

		sel[i] = regexec(&re, name, 0, NULL, 0) == 0;
		*any |= sel[i];
		free(name);
	}
	regfree(&re);
	return sel;
}

static bool
is_focus(enum transform_kind kind)
{
	return kind == TRANSFORM_FOCUS_SUBTREE ||
	       kind == TRANSFORM_FOCUS_METHOD;
}

/* Why step s cannot be applied to a model that had calls and would
 * have none after it (a new string). */
static char *
why_nothing(const struct transform_step *s, bool matched)
{
	const char *option = transforms_option(s->kind);
	const char *re = s->regex ? s->regex : "";

	if (is_focus(s->kind))
		return xasprintf("%s '%s' matches no %s: nothing to focus on",
		                 option, re, matched ? "call" : "method");
	if (s->regex)
		return xasprintf("%s '%s' removes every call: nothing would "
		                 "be left",
		                 option, re);
	return xasprintf("%s removes every call: nothing would be left",
	                 option);
}

struct calltree *
transforms_apply(struct calltree *tree, const struct transform_step *steps,
                 size_t n, const char **unmatched, char **refused)
{
	size_t i;

	*unmatched = NULL;
	*refused = NULL;
	for (i = 0; i < n; i++) {
		struct transform t = {.kind = steps[i].kind};
		bool *sel = NULL, any = true;
		struct calltree *next;

		if (steps[i].regex) {
			sel = select_methods(tree, steps[i].regex, &any);
			if (!sel)
				continue; /* refused when the option was read */
			if (!any && !*unmatched)
				*unmatched = steps[i].regex;
		}
		t.methods = sel;
		next = transform_apply(tree, &t);
		free(sel);
		if (calltree_call_count(tree) && !calltree_call_count(next)) {
			*refused = why_nothing(&steps[i], any);
			calltree_free(next);
			calltree_free(tree);
			return NULL;
		}
		calltree_free(tree);
		tree = next;
	}
	return tree;
}

char *
transforms_focus_text(const char *label, const struct calltree *focused,
                      const struct calltree *whole, const struct scope *scope,
                      enum clock_index k, uint64_t *part, uint64_t *whole_total)
{
	uint64_t a = scope_total(scope, focused, k);
	uint64_t b = whole->nthreads == focused->nthreads
	                     ? scope_total(scope, whole, k)
	                     : 0;
	char x[64], y[64];

	if (part)
		*part = a;
	if (whole_total)
		*whole_total = b;
	quantity_format(x, sizeof(x), a, whole->header.unit, false);
	quantity_format(y, sizeof(y), b, whole->header.unit, true);
	return xasprintf("%s: %s of %s", label, x, y);
}

const char *
transforms_option(enum transform_kind kind)
{
	switch (kind) {
	case TRANSFORM_FOCUS_SUBTREE:
	case TRANSFORM_FOCUS_METHOD:
		return "--focus";
	case TRANSFORM_MERGE:
		return "--merge";
	case TRANSFORM_DROP:
		return "--drop";
	case TRANSFORM_COLLAPSE_RECURSION:
		return "--collapse-recursion";
	case TRANSFORM_COLLAPSE_CLASS:
	case TRANSFORM_COLLAPSE_PACKAGE:
		return "--collapse";
	case TRANSFORM_GROUP_CLASS:
	case TRANSFORM_GROUP_PACKAGE:
		break;
	}
	return "--group";
}
