/*
 * key: the text key of V1 traces (FORMAT.md section 1).
 *
 * The key appears at the start of one-file traces, as the .key half of the
 * two-file form, in the summary packet of streaming traces and in their
 * .sec side file.  Lines end in LF with an optional CR; unknown option keys
 * become properties; unknown sections are skipped with a warning.
 */
#ifndef TRACETUI_TRACE_KEY_H
#define TRACETUI_TRACE_KEY_H

#include "read/error.h"
#include "read/sink.h"

#include <stdbool.h>
#include <stddef.h>

struct trace_key_info {
	unsigned version;       /* the number after *version */
	bool has_clock;         /* a clock= line was present */
	enum trace_clock clock; /* its value, when has_clock */
	bool vm_art;            /* vm=art */
	bool has_end;           /* the *end line was found */
	size_t end;             /* offset just past the *end line */
};

/*
 * Parse the key in buf[0..len), which starts with "*version", reporting
 * properties, threads and methods to sink; base is buf's offset in the file
 * for messages.  False with err set when the text is not a usable key.
 */
bool trace_key_parse(const unsigned char *buf, size_t len, uint64_t base,
                     const struct trace_sink *sink, struct trace_key_info *info,
                     struct trace_error *err);

/*
 * Parse one *methods line (no line terminator) at file offset `offset` and
 * report it to sink; a malformed line is reported as a warning.
 */
void trace_key_method_line(const unsigned char *line, size_t len,
                           uint64_t offset, const struct trace_sink *sink);
/* The id trace_key_method_line reports for the line, low bits clear;
 * false when it would ignore the line. */
bool trace_key_method_id(const unsigned char *line, size_t len, uint64_t *id);

/* Parse a method id written as 0, 0x... or bare hex; false if it is not. */
bool trace_key_parse_id(const char *text, uint64_t *id);

#endif
