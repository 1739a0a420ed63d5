/*
 * foreign: files people take for traces that tracetui does not read,
 * told apart by their first bytes so that the refusal names them.
 */
#include "config.h"

#include "read/foreign.h"

#include "read/protobuf.h"

#include <string.h>

/* A Perfetto TracePacket's fields are never those of a pprof
 * ValueType (type = 1, unit = 2, both varints), the only other message
 * a file of field-1 messages would start with. */
static bool
packet_like(const struct pb_field *outer)
{
	struct pb_reader r;
	struct pb_field f;
	struct trace_error err = {0};
	bool other = false;

	pb_reader_sub(&r, outer);
	while (pb_next(&r, &f, &err))
		if (f.number > 2 || f.wire != PB_VARINT)
			other = true;
	if (trace_error_isset(&err)) {
		trace_error_clear(&err);
		return false;
	}
	return other;
}

/* A protobuf Trace: only field 1 (TracePacket), length-delimited, in
 * the first fields, at least one of them no ValueType. */
static bool
perfetto(const unsigned char *buf, size_t len)
{
	struct pb_reader r;
	struct pb_field f;
	struct trace_error err = {0};
	int fields = 0;
	bool packet = false;

	pb_reader_init(&r, buf, len, 0);
	while (fields < 16 && pb_next(&r, &f, &err)) {
		if (f.number != 1 || f.wire != PB_BYTES)
			return false;
		packet = packet || packet_like(&f);
		fields++;
	}
	/* A cut at the end of what was looked at is no reason to doubt. */
	trace_error_clear(&err);
	return fields > 0 && packet;
}

const char *
trace_foreign_format(const unsigned char *buf, size_t len)
{
	if (len >= 8 && memcmp(buf, "PERFILE2", 8) == 0)
		return "a raw simpleperf (or perf) perf.data recording, not "
		       "a method trace: convert it with 'simpleperf "
		       "report-sample --protobuf --show-callchain -i "
		       "perf.data -o perf.trace' and open perf.trace";
	if (perfetto(buf, len))
		return "a Perfetto trace (Android Studio's System Trace, "
		       "record_android_trace, heapprofd), not a method "
		       "trace: open it in ui.perfetto.dev or trace_processor";
	return NULL;
}
