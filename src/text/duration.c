/*
 * duration: integer arithmetic only, so a microsecond is never lost to
 * rounding in a column that claims three decimals.
 */
#include "config.h"

#include "text/duration.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

char *
duration_ms(char *buf, size_t size, uint64_t us)
{
	snprintf(buf, size, "%" PRIu64 ".%03" PRIu64, us / 1000, us % 1000);
	return buf;
}

char *
duration_s(char *buf, size_t size, uint64_t us)
{
	uint64_t ms = us / 1000 + (us % 1000 >= 500);

	snprintf(buf, size, "%" PRIu64 ".%03" PRIu64, ms / 1000, ms % 1000);
	return buf;
}

char *
duration_ms_signed(char *buf, size_t size, int64_t us)
{
	uint64_t a = us < 0 ? (uint64_t)0 - (uint64_t)us : (uint64_t)us;

	snprintf(buf, size, "%s%" PRIu64 ".%03" PRIu64,
	         us > 0   ? "+"
	         : us < 0 ? "-"
	                  : "",
	         a / 1000, a % 1000);
	return buf;
}

/* v / unit with `decimals` places (at most 3), rounded to nearest,
 * then the suffix; the length written. */
static int
fixed(char *buf, size_t size, uint64_t v, uint64_t unit, int decimals,
      const char *suffix)
{
	uint64_t scale = decimals == 0   ? 1
	                 : decimals == 1 ? 10
	                 : decimals == 2 ? 100
	                                 : 1000;
	uint64_t step = unit / scale;
	uint64_t q = (v + step / 2) / step;

	if (decimals == 0)
		return snprintf(buf, size, "%" PRIu64 "%s", q, suffix);
	return snprintf(buf, size, "%" PRIu64 ".%0*" PRIu64 "%s", q / scale,
	                decimals, q % scale, suffix);
}

char *
duration_ms_fit(char *buf, size_t size, uint64_t us, int width)
{
	int d;

	duration_ms(buf, size, us);
	if (width <= 0 || (int)strlen(buf) <= width)
		return buf;
	for (d = 2; d >= 0; d--)
		if (fixed(buf, size, us, 1000, d, "") <= width)
			return buf;
	/* Seconds with decimals are never shorter than whole milliseconds:
	 * whole seconds are the last resort. */
	fixed(buf, size, us, 1000000, 0, "s");
	return buf;
}

char *
duration_label(char *buf, size_t size, uint64_t us, bool ascii)
{
	if (us < 1000)
		snprintf(buf, size, "%" PRIu64 "%s", us,
		         ascii ? "us" : "\u00b5s");
	else if (us < 1000000)
		snprintf(buf, size, "%" PRIu64 ".%03" PRIu64 "ms", us / 1000,
		         us % 1000);
	else
		snprintf(buf, size, "%" PRIu64 ".%03" PRIu64 "s", us / 1000000,
		         us / 1000 % 1000);
	return buf;
}

char *
duration_tick(char *buf, size_t size, uint64_t t, uint64_t step, bool ascii)
{
	uint64_t unit = 1, part = 1;
	const char *name = ascii ? "us" : "\u00b5s";
	int d = 0;

	/* The unit t reaches (the step's, at the axis' start), as the
	 * columns switch: ms, then s. */
	if (t >= 1000000 || step >= 1000000)
		unit = 1000000, name = "s";
	else if (t >= 1000 || step >= 1000)
		unit = 1000, name = "ms";
	/* As many decimals as the step needs. */
	part = unit;
	while (part > 1 && step % part != 0) {
		part /= 10;
		d++;
	}
	{
		/* The decimals, digit by digit (at most six). */
		char frac[8] = ".";
		uint64_t f = t % unit / part;
		int i;

		for (i = d; i > 0; i--, f /= 10)
			frac[i] = (char)('0' + f % 10);
		frac[d ? d + 1 : 0] = '\0';
		snprintf(buf, size, "%" PRIu64 "%s %s", t / unit, frac, name);
	}
	return buf;
}
