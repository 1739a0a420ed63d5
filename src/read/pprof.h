/*
 * pprof: profiles in pprof's profile.proto format (Go's pprof, Android's
 * heapprofd through Perfetto's heap_profile or traceconv), read into a
 * trace sink as the weighted stacks of one sample type; read/pprof.c says
 * how.
 */
#ifndef TRACETUI_TRACE_PPROF_H
#define TRACETUI_TRACE_PPROF_H

#include "read/error.h"
#include "read/sink.h"

#include <stdbool.h>
#include <stddef.h>

/* Whether buf[0, len), a file's first bytes, could begin a Profile
 * message: the fields in its first 32 bytes Profile fields of their wire
 * types, as far as they go. */
bool trace_pprof_could_start(const unsigned char *buf, size_t len);
/* True when buf starts as a profile.proto message does. */
bool trace_pprof_detect(const unsigned char *buf, size_t len);

/*
 * Read the profile in buf into sink, the values of the sample type
 * sink->sample_type asks for.  False with err set (the byte offset and
 * the problem) when the bytes are not a profile or hold no such type.
 */
bool trace_pprof_read(const unsigned char *buf, size_t len,
                      const struct trace_sink *sink, struct trace_error *err);

#endif
