/*
 * quantity: times keep three decimals of milliseconds, as Traceview
 * writes them; sizes keep one decimal in binary units, as heapprofd's
 * viewers do; counts are exact.
 */
#include "config.h"

#include "query/quantity.h"

#include "text/duration.h"

#include <stdio.h>

void
quantity_format(char *buf, size_t size, uint64_t v, enum trace_unit unit,
                bool suffix)
{
	static const char *const units[] = {"KiB", "MiB", "GiB",
	                                    "TiB", "PiB", "EiB"};
	double x = (double)v;
	int u = -1;

	switch (unit) {
	case TRACE_UNIT_NS:
		v /= 1000;
		/* fall through */
	case TRACE_UNIT_US: {
		char ms[DURATION_SIZE];

		snprintf(buf, size, "%s%s", duration_ms(ms, sizeof(ms), v),
		         suffix ? " ms" : "");
		return;
	}
	case TRACE_UNIT_BYTES:
		if (v < 1024) {
			snprintf(buf, size, "%llu B", (unsigned long long)v);
			return;
		}
		while (x >= 1024 && u < 5) {
			x /= 1024;
			u++;
		}
		snprintf(buf, size, "%.1f %s", x, units[u]);
		return;
	case TRACE_UNIT_COUNT:
		break;
	}
	snprintf(buf, size, "%llu", (unsigned long long)v);
}

const char *
quantity_label(enum trace_unit unit)
{
	switch (unit) {
	case TRACE_UNIT_BYTES:
		return "size";
	case TRACE_UNIT_COUNT:
		return "count";
	case TRACE_UNIT_NS:
	case TRACE_UNIT_US:
		break;
	}
	return "ms";
}

bool
quantity_is_time(enum trace_unit unit)
{
	return unit == TRACE_UNIT_US || unit == TRACE_UNIT_NS;
}

const char *
quantity_unit_name(enum trace_unit unit)
{
	switch (unit) {
	case TRACE_UNIT_NS:
		return "ns";
	case TRACE_UNIT_BYTES:
		return "B";
	case TRACE_UNIT_COUNT:
		return "count";
	case TRACE_UNIT_US:
		break;
	}
	return "us";
}
