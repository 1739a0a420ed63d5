/*
 * load: open a trace by path, detect its variant and run the reader
 * for it (FORMAT.md section 0).
 *
 * Accepted paths: a one-file trace; either half of the two-file form
 * (name.key / name.data) or its base name; a streaming trace, with its
 * name.sec side file when there is one.
 */
#ifndef TRACETUI_TRACE_LOAD_H
#define TRACETUI_TRACE_LOAD_H

#include "read/error.h"
#include "read/sink.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most bytes read from a pipe or other unseekable input (1 GiB
 * unless --max-input raised it); past that the load fails. */
#define TRACE_LOAD_MAX_INPUT_DEFAULT ((uint64_t)1 << 30)
extern uint64_t trace_load_max_input;

/*
 * When addr lies in a file mapped by a load under way, name the file
 * and the offset of addr in it and return true.  Safe in a signal
 * handler: a SIGBUS there means the file shrank while it was read.
 */
bool trace_load_fault(const void *addr, const char **path, uint64_t *offset);

/*
 * Read the trace at path into sink.  False with err set (naming the file,
 * the byte offset and what was expected) when nothing usable was read.
 */
bool trace_load(const char *path, const struct trace_sink *sink,
                struct trace_error *err);

/*
 * Whether trace_load could open path (or its .key and .data pair) at
 * all, asked before work that a missing file makes pointless; false
 * with err set ("cannot open: No such file or directory").
 */
bool trace_openable(const char *path, struct trace_error *err);
/* A descriptor to read path from ("-": a copy of standard input, or of
 * the descriptor trace_set_stdin gave), or -1 with errno: a FIFO waits
 * for its writer, nothing else blocks. */
int trace_open_input(const char *path);
/* Read "-" from fd from now on: the viewer moves the piped trace there
 * and its standard input to the terminal, for the keys. */
void trace_set_stdin(int fd);

/*
 * Read a trace held in memory (no sibling .key, .data or .sec files are
 * looked for); same contract as trace_load.
 */
bool trace_load_bytes(const unsigned char *data, size_t size,
                      const struct trace_sink *sink, struct trace_error *err);

/* A file's bytes, mapped (or read, or inflated from gzip) and kept for a
 * reader whose results point into them. */
struct trace_bytes {
	const unsigned char *data;
	size_t size;
	bool gzip; /* inflated from a gzip file */
	struct file_bytes *file;
};

/* Open path's bytes into *out (gzip inflated, under the loader's
 * limits); false with err naming the file and the problem. */
bool trace_bytes_open(const char *path, struct trace_bytes *out,
                      struct trace_error *err);
/* Release what trace_bytes_open holds. */
void trace_bytes_close(struct trace_bytes *b);
/* Let the pages of the bytes [from, to) of a mapped file go from
 * memory (the next read of them reads them in again); the inflated
 * bytes of a gzip file stay. */
void trace_bytes_release(const struct trace_bytes *b, size_t from, size_t to);
/* Make the bytes [from, to) of b present at once where they are mapped
 * from the file, for a pass about to read them: one call for many
 * pages, where a page fault each is dear (in a virtual machine). */
void trace_bytes_ahead(const struct trace_bytes *b, size_t from, size_t to);
/* Whether path is a regular file (or a gzip file) that begins a binary
 * HPROF heap dump. */
bool trace_is_heap_dump(const char *path);

#endif
