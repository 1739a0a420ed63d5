/*
 * method-name: placeholders for undefined ids are made by the calltree
 * ("(unknown 0x...)" as the name), so this file only joins the parts.
 */
#include "config.h"

#include "method-name.h"

#include "util-alloc.h"

char *
method_short_name(const struct tt_method *m)
{
	return xasprintf("%s%s%s", m->klass, *m->klass && *m->name ? "." : "",
			 m->name);
}

char *
method_full_name(const struct tt_method *m)
{
	return xasprintf("%s%s%s%s%s", m->klass,
			 *m->klass && *m->name ? "." : "", m->name,
			 *m->signature ? " " : "", m->signature);
}
