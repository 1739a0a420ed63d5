/*
 * stream: V1 streaming traces (FORMAT.md section 4): a SLOW header
 * with version 0xF1..0xF3, then records interleaved with escape packets
 * that define methods and threads, closed by a summary packet holding the
 * key text (or, for ART 6 and 7, a .sec side file).
 */
#ifndef TRACETUI_TRACE_STREAM_H
#define TRACETUI_TRACE_STREAM_H

#include "read/error.h"
#include "read/sink.h"

#include <stdbool.h>
#include <stddef.h>

/*
 * Read the streaming trace buf[0..len); sec[0..sec_len) is the text of the
 * .sec side file or NULL.  Reports the summary first, then begin, then
 * packets and records in file order.  A stream cut off before its summary
 * is kept and flagged by a warning.  False with err set when nothing is
 * usable.
 */
bool trace_stream_read(const unsigned char *buf, size_t len,
                       const unsigned char *sec, size_t sec_len,
                       const struct trace_sink *sink, struct trace_error *err);

#endif
