/*
 * simpleperf: Android Studio's Callstack Sample recordings, simpleperf's
 * `report-sample --protobuf` output, read into a trace sink as the
 * stacks of one event type (or all) in time order; read/simpleperf.c
 * says how.
 */
#ifndef TRACETUI_TRACE_SIMPLEPERF_H
#define TRACETUI_TRACE_SIMPLEPERF_H

#include "read/error.h"
#include "read/sink.h"

#include <stdbool.h>
#include <stddef.h>

/* True when buf starts with simpleperf's magic "SIMPLEPERF". */
bool trace_simpleperf_detect(const unsigned char *buf, size_t len);

/*
 * Read the recording in buf into sink, the samples of the event type
 * sink->sample_type asks for ("all" for every type's).  A file cut or
 * damaged after some samples keeps them, with a warning saying where
 * the reading stopped; false with err set (offset and problem) when
 * nothing usable was read or no such type exists.  When `mapped` (buf is
 * a read-only mapping of the file), the pages read are given back as the
 * reading goes (trace_release_mapped).
 */
bool trace_simpleperf_read(const unsigned char *buf, size_t len, bool mapped,
                           const struct trace_sink *sink,
                           struct trace_error *err);

#endif
