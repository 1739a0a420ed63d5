/*
 * hprof: hprof text CPU profiles (the JVM's "JAVA PROFILE 1.0.1"
 * output of -agentlib:hprof=cpu=samples or cpu=times, and the Dalvik
 * SamplingProfiler's AsciiHprofWriter output) read into a trace sink as
 * synthetic enter and exit events; read/hprof.c says how.
 */
#ifndef TRACETUI_TRACE_HPROF_H
#define TRACETUI_TRACE_HPROF_H

#include "read/error.h"
#include "read/sink.h"

#include <stdbool.h>
#include <stddef.h>

/* True when buf starts as an hprof text profile does. */
bool trace_hprof_detect(const unsigned char *buf, size_t len);

/*
 * Read the hprof text profile in buf into sink.  False with err set (the
 * byte offset and what was expected there) when it holds no CPU profile.
 */
bool trace_hprof_read(const unsigned char *buf, size_t len,
                      const struct trace_sink *sink, struct trace_error *err);

#endif
