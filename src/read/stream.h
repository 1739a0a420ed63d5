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
 * packets and records in file order (or, to a sink that takes records,
 * every packet and then the records at once, when no record names a
 * thread or method before a packet defines it that a later packet
 * follows).  A stream cut off before its summary
 * is kept and flagged by a warning.  False with err set when nothing is
 * usable.
 */
bool trace_stream_read(const unsigned char *buf, size_t len,
                       const unsigned char *sec, size_t sec_len,
                       const struct trace_sink *sink, struct trace_error *err);

/* trace_stream_read on a read-only file mapping, whose pages are given
 * back as they are done with; a sink that takes records gets them all
 * at once, in the pieces between the packets, when that builds what
 * file order builds.  fd, the file mapped (or -1), is read to find the
 * pieces, so that only the records' pass touches the mapping. */
bool trace_stream_read_mapped(const unsigned char *buf, size_t len, int fd,
                              const unsigned char *sec, size_t sec_len,
                              const struct trace_sink *sink,
                              struct trace_error *err);

#endif
