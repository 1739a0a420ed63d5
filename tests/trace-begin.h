/*
 * trace-begin: the start of a trace fed straight to a model builder, for
 * the unit tests.
 */
#ifndef TRACETUI_TESTS_TRACE_BEGIN_H
#define TRACETUI_TESTS_TRACE_BEGIN_H

#include "model/calltree.h"

/* The header of a V1 trace on `clock` (version 3 when dual, else 2)
 * whose times have time_bits bits. */
static inline struct trace_header
trace_header_v1(enum trace_clock clock, unsigned time_bits)
{
	struct trace_header h = {
	        .format = TRACE_FORMAT_V1,
	        .version = clock == TRACE_CLOCK_DUAL ? 3 : 2,
	        .clock = clock,
	        .record_size = clock == TRACE_CLOCK_DUAL ? 14 : 10,
	        .data_offset = 32,
	        .time_bits = time_bits,
	};

	return h;
}

/*
 * A new builder in *b for a V1 trace on `clock` (version 3 when dual,
 * else 2) whose key defines methods 0x10, 0x20, ... of class T, named by
 * names[0..n), and threads 1 main, 2 worker and 3 render; its sink.
 */
static inline const struct trace_sink *
trace_begin(struct calltree_builder **b, const char *path,
            enum trace_clock clock, const char *const *names, unsigned n)
{
	struct trace_header h = trace_header_v1(clock, 64);
	const struct trace_sink *s;
	unsigned i;

	*b = calltree_builder_new(path);
	s = calltree_builder_sink(*b);
	s->begin(s->ctx, &h);
	for (i = 0; i < n; i++) {
		struct trace_method_def d = {
		        .id = 0x10 * (i + 1),
		        .klass = "T",
		        .name = names[i],
		        .signature = "()V",
		        .file = "T.java",
		        .line = -1,
		};

		s->method(s->ctx, &d);
	}
	s->thread(s->ctx, 1, "main");
	s->thread(s->ctx, 2, "worker");
	s->thread(s->ctx, 3, "render");
	return s;
}

#endif
