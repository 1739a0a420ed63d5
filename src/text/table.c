/*
 * table: cells are stored as strings in one growing array, row-major; a
 * NULL cell is an empty one.  Text output pads to the widest cell of each
 * column, measured in terminal columns.  A table that measures or streams
 * holds only the row being made, and passes each on when the next starts.
 */
#include "config.h"

#include "text/table.h"

#include "text/duration.h"
#include "text/width.h"
#include "util/alloc.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum table_mode {
	TABLE_HOLD,    /* rows kept for table_print */
	TABLE_MEASURE, /* rows measured (widths) and dropped */
	TABLE_STREAM,  /* rows printed as they are done */
};

struct table {
	size_t ncols;
	char **names;
	enum table_kind *kinds;
	char **cells;
	size_t ncells, cap;
	enum table_mode mode;
	size_t *width; /* measured columns (TABLE_MEASURE, TABLE_STREAM) */
	FILE *out;     /* TABLE_STREAM's */
	enum table_format format;
	size_t nprinted;
};

struct table *
table_new(size_t ncols, const char *const *names, const enum table_kind *kinds)
{
	struct table *t = xcalloc(1, sizeof(*t));
	size_t i;

	t->ncols = ncols;
	t->names = xcalloc(ncols, sizeof(*t->names));
	t->kinds = xcalloc(ncols, sizeof(*t->kinds));
	for (i = 0; i < ncols; i++) {
		t->names[i] = xstrdup(names[i]);
		t->kinds[i] = kinds[i];
	}
	return t;
}

void
table_free(struct table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->ncols; i++)
		free(t->names[i]);
	for (i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->names);
	free(t->kinds);
	free(t->cells);
	free(t->width);
	free(t);
}

static void
push(struct table *t, char *cell)
{
	UTIL_GROW(t->cells, t->cap, t->ncells + 1);
	t->cells[t->ncells++] = cell;
}

static void print_sep(const struct table *t, FILE *out,
                      enum table_format format, char *const *row);
static void print_json_row(const struct table *t, FILE *out, char *const *row);

/* A measuring or streaming table's row, finished: measured or printed,
 * then dropped. */
static void
pass_row(struct table *t)
{
	size_t i;

	if (t->mode == TABLE_HOLD || !t->ncells)
		return;
	while (t->ncells % t->ncols)
		push(t, NULL);
	if (t->mode == TABLE_MEASURE) {
		for (i = 0; i < t->ncols; i++) {
			size_t w = t->cells[i] ? text_width(t->cells[i]) : 0;

			if (w > t->width[i])
				t->width[i] = w;
		}
	} else if (t->format == TABLE_TEXT) {
		table_print_row(t->out, TABLE_TEXT, t->ncols,
		                (const char *const *)t->cells, t->kinds,
		                t->width);
	} else if (t->format == TABLE_JSON) {
		fputs(t->nprinted ? ",\n" : "", t->out);
		print_json_row(t, t->out, t->cells);
	} else {
		print_sep(t, t->out, t->format, t->cells);
	}
	t->nprinted++;
	for (i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	t->ncells = 0;
}

void
table_row(struct table *t)
{
	if (t->mode != TABLE_HOLD) {
		pass_row(t);
		return;
	}
	while (t->ncells % t->ncols)
		push(t, NULL);
}

void
table_str(struct table *t, const char *s)
{
	push(t, xstrdup(s));
}

void
table_u64(struct table *t, uint64_t v)
{
	push(t, xasprintf("%" PRIu64, v));
}

void
table_i64(struct table *t, int64_t v)
{
	push(t, xasprintf("%" PRId64, v));
}

void
table_fmt(struct table *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	push(t, xvasprintf(fmt, ap));
	va_end(ap);
}

void
table_ms(struct table *table, uint64_t us)
{
	char buf[DURATION_SIZE];

	table_str(table, duration_ms(buf, sizeof(buf), us));
}

void
table_ms_signed(struct table *table, int64_t us)
{
	char buf[DURATION_SIZE];

	table_str(table, duration_ms_signed(buf, sizeof(buf), us));
}

void
table_empty(struct table *t)
{
	push(t, NULL);
}

void
table_json_string(FILE *out, const char *s)
{
	text_write_json(out, s);
}

static void
print_sep(const struct table *t, FILE *out, enum table_format format,
          char *const *row)
{
	size_t i;

	for (i = 0; i < t->ncols; i++) {
		const char *cell = row[i] ? row[i] : "";
		char *s = format == TABLE_TSV ? text_escape(cell)
		          : row != t->names && t->kinds[i] == TABLE_NUMBER
		                  ? text_csv_number(cell)
		                  : text_csv(cell);

		if (i)
			fputc(format == TABLE_TSV ? '\t' : ',', out);
		fputs(s, out);
		free(s);
	}
	fputc('\n', out);
}

/* One row as a JSON object, "  {...}", without what follows it. */
static void
print_json_row(const struct table *t, FILE *out, char *const *row)
{
	size_t i;

	fputs("  {", out);
	for (i = 0; i < t->ncols; i++) {
		const char *cell = row[i];

		if (i)
			fputs(", ", out);
		table_json_string(out, t->names[i]);
		fputs(": ", out);
		if (!cell)
			fputs("null", out);
		else if (t->kinds[i] == TABLE_NUMBER)
			fputs(cell, out);
		else
			table_json_string(out, cell);
	}
	fputc('}', out);
}

static void
print_json(const struct table *t, FILE *out)
{
	size_t r, nrows = t->ncells / t->ncols;

	fputs("[\n", out);
	for (r = 0; r < nrows; r++) {
		print_json_row(t, out, t->cells + r * t->ncols);
		fputs(r + 1 < nrows ? ",\n" : "\n", out);
	}
	fputs("]\n", out);
}

static void
print_text(const struct table *t, FILE *out)
{
	size_t *width = xcalloc(t->ncols, sizeof(*width));
	size_t r, i, nrows = t->ncells / t->ncols;

	for (i = 0; i < t->ncols; i++)
		width[i] = text_width(t->names[i]);
	for (r = 0; r < nrows; r++) {
		for (i = 0; i < t->ncols; i++) {
			const char *cell = t->cells[r * t->ncols + i];
			size_t w = cell ? text_width(cell) : 0;

			if (w > width[i])
				width[i] = w;
		}
	}
	for (r = 0; r <= nrows; r++) {
		for (i = 0; i < t->ncols; i++) {
			const char *cell = r ? t->cells[(r - 1) * t->ncols + i]
			                     : t->names[i];
			size_t w, pad;
			bool last = i + 1 == t->ncols;

			char *shown;

			if (!cell)
				cell = "";
			w = text_width(cell);
			pad = width[i] > w ? width[i] - w : 0;
			if (i)
				fputs("  ", out);
			if (t->kinds[i] == TABLE_NUMBER)
				fprintf(out, "%*s", (int)pad, "");
			shown = text_escape(cell);
			fputs(shown, out);
			free(shown);
			if (t->kinds[i] == TABLE_STRING && !last)
				fprintf(out, "%*s", (int)pad, "");
		}
		fputc('\n', out);
	}
	free(width);
}

void
table_print_row(FILE *out, enum table_format format, size_t ncols,
                const char *const *cells, const enum table_kind *kinds,
                const size_t *widths)
{
	size_t i;

	for (i = 0; i < ncols; i++) {
		const char *cell = cells[i] ? cells[i] : "";
		size_t w = text_width(cell);
		size_t pad = widths[i] > w ? widths[i] - w : 0;
		char *shown = text_escape(cell);

		if (format == TABLE_TSV) {
			if (i)
				fputc('\t', out);
			fputs(shown, out);
			free(shown);
			continue;
		}
		if (i)
			fputs("  ", out);
		if (kinds[i] == TABLE_NUMBER)
			fprintf(out, "%*s", (int)pad, "");
		fputs(shown, out);
		if (kinds[i] == TABLE_STRING && i + 1 < ncols)
			fprintf(out, "%*s", (int)pad, "");
		free(shown);
	}
	fputc('\n', out);
}

/* From here on rows are measured, not kept; before the first row. */
static void
table_measure(struct table *t)
{
	t->mode = TABLE_MEASURE;
	t->width = xcalloc(t->ncols, sizeof(*t->width));
}

/* Print the header to out in format; from here on each row is printed
 * when the next starts, text padded to the widths measured. */
static void
table_stream(struct table *t, FILE *out, enum table_format format)
{
	size_t i;

	pass_row(t);
	if (!t->width)
		t->width = xcalloc(t->ncols, sizeof(*t->width));
	for (i = 0; i < t->ncols; i++) {
		size_t w = text_width(t->names[i]);

		if (w > t->width[i])
			t->width[i] = w;
	}
	t->mode = TABLE_STREAM;
	t->out = out;
	t->format = format;
	t->nprinted = 0;
	if (format == TABLE_TEXT)
		table_print_row(out, format, t->ncols,
		                (const char *const *)t->names, t->kinds,
		                t->width);
	else if (format == TABLE_JSON)
		fputs("[\n", out);
	else
		print_sep(t, out, format, t->names);
}

/* Print the last row and what closes the output (JSON's bracket). */
static void
table_end(struct table *t)
{
	pass_row(t);
	if (t->format == TABLE_JSON)
		fputs(t->nprinted ? "\n]\n" : "]\n", t->out);
}

void
table_print_rows(struct table *t, FILE *out, enum table_format format,
                 void (*rows)(void *arg, bool measuring), void *arg)
{
	if (format == TABLE_TEXT) {
		table_measure(t);
		rows(arg, true);
	}
	table_stream(t, out, format);
	rows(arg, false);
	table_end(t);
}

size_t
table_nrows(const struct table *t)
{
	return (t->ncells + t->ncols - 1) / t->ncols;
}

void
table_print(const struct table *t, FILE *out, enum table_format format)
{
	switch (format) {
	case TABLE_TEXT:
		print_text(t, out);
		break;
	case TABLE_TSV:
	case TABLE_CSV:
		print_sep(t, out, format, t->names);
		for (size_t r = 0; r < t->ncells / t->ncols; r++)
			print_sep(t, out, format, t->cells + r * t->ncols);
		break;
	case TABLE_JSON:
		print_json(t, out);
		break;
	}
}

int
table_format_parse(const char *name)
{
	static const char *const names[] = {"text", "tsv", "csv", "json"};
	int i;

	for (i = 0; i < 4; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}
