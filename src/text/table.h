/*
 * table: rows of typed cells printed as aligned text, TSV, CSV or JSON.
 *
 * The batch commands build a table and print it once, so every format
 * gets the same rows.  The table owns copies of all cell strings.
 */
#ifndef TRACETUI_TABLE_H
#define TRACETUI_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum table_format {
	TABLE_TEXT,
	TABLE_TSV,
	TABLE_CSV,
	TABLE_JSON,
};

enum table_kind {
	TABLE_STRING, /* left-aligned in text, quoted in JSON */
	TABLE_NUMBER, /* right-aligned in text, bare in JSON */
};

struct table;

/* A table with ncols columns named by names[] of the given kinds. */
struct table *table_new(size_t ncols, const char *const *names,
                        const enum table_kind *kinds);
/* Release the table. */
void table_free(struct table *table);
/* Start a new row; cells are then set left to right. */
void table_row(struct table *table);
/* Append a string cell to the current row (copied). */
void table_str(struct table *table, const char *s);
/* Append an unsigned number cell. */
void table_u64(struct table *table, uint64_t v);
/* Append a signed number cell. */
void table_i64(struct table *table, int64_t v);
/* Append a number cell printed with printf format fmt. */
void table_fmt(struct table *table, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));
/* Append an empty cell (null in JSON). */
/* A cell of microseconds written as milliseconds ("1234.567"). */
void table_ms(struct table *table, uint64_t us);
/* A cell of a signed change in microseconds, as milliseconds ("+1.500"). */
void table_ms_signed(struct table *table, int64_t us);
void table_empty(struct table *table);
/* The number of rows (a row being filled counts). */
size_t table_nrows(const struct table *table);
/*
 * Print, as table_print would, rows too many to hold: rows(arg, measuring)
 * makes them into the table, twice for text (first measuring: only the
 * widths are kept, and the last column, never padded, may be left out),
 * once for the other formats.  Only the row being made is held.  The
 * table has no row before.
 */
void table_print_rows(struct table *table, FILE *out, enum table_format format,
                      void (*rows)(void *arg, bool measuring), void *arg);
/* Print the table in format to out; header line unless headless. */
void table_print(const struct table *table, FILE *out,
                 enum table_format format);
/*
 * One row printed at once, for rows too many to hold in a table: TSV
 * (escaped, tab-separated), or text padded to widths[] (in columns; two
 * spaces apart, numbers right-aligned, the last cell unpadded).  Only
 * TABLE_TEXT and TABLE_TSV.
 */
void table_print_row(FILE *out, enum table_format format, size_t ncols,
                     const char *const *cells, const enum table_kind *kinds,
                     const size_t *widths);
/* Parse "text", "tsv", "csv" or "json"; -1 when it is none of them. */
int table_format_parse(const char *name);

/* Write s as a JSON string literal, escaping as needed. */
void table_json_string(FILE *out, const char *s);

#endif
