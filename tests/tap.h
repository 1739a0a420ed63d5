/*
 * tap.h: a tiny TAP producer for the unit tests (Automake's TAP driver
 * reads it).  Tests call ok()/is_u64()/is_str(), then done_testing().
 */
#ifndef TRACETUI_TAP_H
#define TRACETUI_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count, tap_failed;

static inline bool
ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		tap_failed++;
	return cond;
}

#define is_u64(got, want, ...)                                                 \
	do {                                                                   \
		uint64_t g_ = (got), w_ = (want);                              \
		if (!ok(g_ == w_, __VA_ARGS__))                                \
			printf("#   got %" PRIu64 ", want %" PRIu64 "\n", g_,  \
			       w_);                                            \
	} while (0)

#define is_str(got, want, ...)                                                 \
	do {                                                                   \
		const char *g_ = (got), *w_ = (want);                          \
		if (!ok(g_ && w_ && strcmp(g_, w_) == 0, __VA_ARGS__))         \
			printf("#   got '%s', want '%s'\n",                    \
			       g_ ? g_ : "(null)", w_ ? w_ : "(null)");        \
	} while (0)

/* Whether TRACETUI_LONG asks for the long tier (`make check-long`): more
 * seeds and bigger inputs for checks that find no new line. */
static inline bool
tap_long(void)
{
	const char *s = getenv("TRACETUI_LONG");

	return s && *s && strcmp(s, "0") != 0;
}

/* Whether a case named name is checked: every one under the long tier,
 * else those of the n names of kept (one of each kind). */
static inline bool
tap_kept(const char *name, const char *const *kept, size_t n)
{
	size_t i;

	if (tap_long())
		return true;
	for (i = 0; i < n; i++)
		if (strcmp(name, kept[i]) == 0)
			return true;
	return false;
}

/* Whether a real trace of $SHARED_TRACES, by its file name, is checked:
 * all of them under the long tier, else one of each family (as
 * is_fast_trace in tests/lib.sh). */
static inline bool
tap_fast_trace(const char *name)
{
	static const char *const fast[] = {
	        "perflib__basic-api10.trace",
	        "perflib__basic.trace",
	        "perflib__mismatched.trace",
	        "perflib__exception.trace",
	        "Launcher__app.trace",
	        "AppMethodOrder__studioVersion.trace",
	        "perflib__header.trace"};

	return tap_kept(name, fast, sizeof(fast) / sizeof(*fast));
}

static inline int
done_testing(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

static inline int
skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	return 0;
}

#endif
