/*
 * v1: the binary data part of V1 non-streaming traces (FORMAT.md
 * section 2): the SLOW header and fixed-size records.
 */
#ifndef TRACETUI_TRACE_V1_H
#define TRACETUI_TRACE_V1_H

#include "read/error.h"
#include "read/key.h"
#include "read/sink.h"

#include <stdbool.h>
#include <stddef.h>

/*
 * Read the data part buf[0..len), which sits at file offset base, using
 * what the key said; report begin and every record to sink.  False with
 * err set when the header is unusable; a torn last record is a warning.
 */
bool trace_v1_read_data(const unsigned char *buf, size_t len, uint64_t base,
                        const struct trace_key_info *key,
                        const struct trace_sink *sink, struct trace_error *err);

/* trace_v1_read_data on a read-only file mapping, whose pages leave the
 * process's memory once their records are read; the file is open as fd
 * (-1: not), at offset base at buf. */
bool trace_v1_read_mapped(const unsigned char *buf, size_t len, uint64_t base,
                          int fd, const struct trace_key_info *key,
                          const struct trace_sink *sink,
                          struct trace_error *err);

/*
 * A key whose data part is missing (why says how it is; offset is where
 * the data part should begin): warn "the data part is missing: why" and
 * begin a V1 trace of the key's version with no records (no_data set),
 * so that what the key holds is kept.
 */
void trace_v1_no_data(const struct trace_key_info *key, uint64_t offset,
                      const char *why, const struct trace_sink *sink);

/* How the warning of trace_v1_no_data begins. */
#define TRACE_V1_NO_DATA "the data part is missing"

/* Smallest record size of a data version (9, 10 or 14); 0 if unknown. */
unsigned trace_v1_min_record_size(unsigned version);

/* Largest record size accepted from a header. */
#define TRACE_V1_MAX_RECORD_SIZE 1024

#endif
