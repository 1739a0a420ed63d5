/*
 * quantity: how a value of the model is written for people, by what the
 * trace's times count (read/sink.h's trace_unit): times in milliseconds,
 * sizes in B, KiB, MiB or GiB, counts as counts.  Machine formats (TSV,
 * CSV, JSON, folded) print the exact integers instead.
 */
#ifndef TRACETUI_QUANTITY_H
#define TRACETUI_QUANTITY_H

#include "read/sink.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Write v into buf: "12.345" (ms; " ms" appended with suffix), "1.5 MiB",
 * "512 B", "42". */
void quantity_format(char *buf, size_t size, uint64_t v, enum trace_unit unit,
                     bool suffix);
/* A column's word for the unit: "ms", "size" or "count". */
const char *quantity_label(enum trace_unit unit);
/* True when the unit is a time (microseconds or nanoseconds). */
bool quantity_is_time(enum trace_unit unit);
/* The unit's short name for scripts and JSON: us, ns, B or count. */
const char *quantity_unit_name(enum trace_unit unit);

#endif
