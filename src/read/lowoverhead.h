/*
 * lowoverhead: ART 16's low-overhead trace of long-running methods
 * (TraceProfiler, runtime/trace_profile.cc; FORMAT.md 7), which
 * VMDebug dumps to a file and ANR reports carry in base64.  No header
 * and no magic: entry blocks (u1 2, u4 tid, u3 records, u4 payload
 * bytes) of SLEB128 deltas of (nanoseconds << 1 | is_exit), each entry
 * followed by the SLEB128 delta of its method pointer, both from 0 in
 * each block; then the method-info packets of V2 (and thread-info
 * packets, which the long-running dump leaves out).  Only calls longer
 * than about 170 ms are kept; only a wall clock.
 */
#ifndef TRACETUI_TRACE_LOWOVERHEAD_H
#define TRACETUI_TRACE_LOWOVERHEAD_H

#include "read/error.h"
#include "read/sink.h"

#include <stdbool.h>
#include <stddef.h>

/* Whether buf[0..len) could begin such a dump (a pipe's first bytes):
 * a block of some records, of a thread. */
bool trace_lowoverhead_could_start(const unsigned char *buf, size_t len);

/* Whether buf[0..len) is one: a first entry block whose header and
 * records (those in the file) read as the writer lays them out. */
bool trace_lowoverhead_detect(const unsigned char *buf, size_t len);

/*
 * Read the dump buf[0..len): its method and thread packets first, then
 * each block's records as events, times in microseconds from the
 * earliest, threads without a packet named by their tids.  A dump cut
 * off is kept and flagged by warnings.  False with err set when nothing
 * is usable.
 */
bool trace_lowoverhead_read(const unsigned char *buf, size_t len,
                            const struct trace_sink *sink,
                            struct trace_error *err);

#endif
