/*
 * v2: V2 method traces (FORMAT.md section 5): a 32-byte header
 * ("SLOW", version 4 or 5, 0xF4 or 0xF5 when streaming, a u8 start time),
 * then packets, each led by a type byte: thread info (0), method info (1),
 * entry blocks of LEB128-coded records (2) and the summary key text (3).
 *
 * Entry blocks come in three encodings: the final one of ART builds from
 * mid-2024 on (FORMAT.md 5.4), the Android 15 draft whose header carries
 * the first record (5.6) and the one Perfetto's importer decodes (5.6,
 * time-first records); the reader picks one per file by validation.
 * Times reach the sink in microseconds whatever the file's unit.
 */
#ifndef TRACETUI_TRACE_V2_H
#define TRACETUI_TRACE_V2_H

#include "read/error.h"
#include "read/sink.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Read the V2 trace buf[0..len), which starts with its header.  Reports
 * the summary's properties, then begin, then threads, methods and records
 * in file order.  A file cut off is kept and flagged by warnings.  False
 * with err set when nothing is usable.
 */
bool trace_v2_read(const unsigned char *buf, size_t len,
                   const struct trace_sink *sink, struct trace_error *err);

/*
 * Android 15's non-streaming V2 (FORMAT.md 5.3): info packets from offset
 * 0, then the summary text, then the 32-byte header and entry blocks.
 * Whether buf[0..len) could begin one (a pipe's first bytes).
 */
bool trace_v2_android15_could_start(const unsigned char *buf, size_t len);
/* Whether buf[0..len) is one: whole info packets up to "*version", or up
 * to the end of a file cut among them. */
bool trace_v2_android15_detect(const unsigned char *buf, size_t len);
/*
 * Read such a file as trace_v2_read does, its threads named by their
 * tids ("thread 1234") since the file lost their names.  False with err
 * set when it is cut before its header.
 */
bool trace_v2_android15_read(const unsigned char *buf, size_t len,
                             const struct trace_sink *sink,
                             struct trace_error *err);

/* Report the whole method-info packet at buf[pos] (type 1: u8 id, u2
 * length, "class<TAB>name<TAB>signature<TAB>file") to sink. */
void trace_v2_report_method(const unsigned char *buf, size_t pos,
                            const struct trace_sink *sink);

/*
 * Decode the unsigned LEB128 number at p[0..end) into *value; the bytes it
 * took, or 0 when it runs past end or does not fit in 64 bits.
 */
size_t trace_v2_uleb(const unsigned char *p, const unsigned char *end,
                     uint64_t *value);

/*
 * Decode the signed LEB128 number at p[0..end) into *value (two's
 * complement); the bytes it took, or 0 as for trace_v2_uleb.
 */
size_t trace_v2_sleb(const unsigned char *p, const unsigned char *end,
                     int64_t *value);

#endif
