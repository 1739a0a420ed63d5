/*
 * foreign: Android files that are no method trace, recognised so that
 * tracetui can say what they are and what opens them.
 */
#ifndef TRACETUI_TRACE_FOREIGN_H
#define TRACETUI_TRACE_FOREIGN_H

#include <stddef.h>

/* What buf holds, when it is a format recognised and refused (a
 * Perfetto trace, a raw perf.data), as a message saying what opens it;
 * NULL otherwise. */
const char *trace_foreign_format(const unsigned char *buf, size_t len);

#endif
