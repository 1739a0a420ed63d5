/*
 * chars: character classes for the line parsers (mapping files,
 * hprof profiles, --fail-if expressions), ASCII only, whatever the locale.
 */
#ifndef TRACETUI_UTIL_TEXT_H
#define TRACETUI_UTIL_TEXT_H

#include <stdbool.h>

/* A space or a tab. */
static inline bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* An ASCII decimal digit. */
static inline bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

#endif
