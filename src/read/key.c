/*
 * key: a line scanner over raw bytes.  Offsets are byte offsets, so
 * CRLF keys and multi-byte names never shift the start of the data part.
 * NUL bytes inside a line become the modified-UTF-8 NUL (C0 80) so names
 * stay C strings without losing the fact that something was there.
 */
#include "config.h"

#include "read/key.h"

#include "read/bytes.h"
#include "util/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum key_section {
	SECTION_VERSION_LINE,
	SECTION_OPTIONS,
	SECTION_THREADS,
	SECTION_METHODS,
	SECTION_OTHER,
};

struct line_buf {
	char *text;
	size_t cap;
};

/* Copy a line into lb as a C string, mapping NUL bytes to C0 80. */
static char *
line_copy(struct line_buf *lb, const unsigned char *line, size_t len)
{
	size_t i, n = 0;

	UTIL_GROW(lb->text, lb->cap, len * 2 + 1);
	for (i = 0; i < len; i++) {
		if (line[i] == '\0') {
			lb->text[n++] = (char)0xC0;
			lb->text[n++] = (char)0x80;
		} else {
			lb->text[n++] = (char)line[i];
		}
	}
	lb->text[n] = '\0';
	return lb->text;
}

bool
trace_key_parse_id(const char *text, uint64_t *id)
{
	const char *p = text;
	uint64_t v = 0;
	int digits = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (; *p; p++, digits++) {
		int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			break;
		if (digits >= 16)
			return false;
		v = v << 4 | (uint64_t)d;
	}
	while (*p == ' ')
		p++;
	if (!digits || *p)
		return false;
	*id = v;
	return true;
}

/* Split s at tabs in place; store up to max field pointers; return count. */
static size_t
split_tabs(char *s, char **fields, size_t max)
{
	size_t n = 0;

	fields[n++] = s;
	for (; *s; s++) {
		if (*s == '\t') {
			*s = '\0';
			if (n == max)
				break;
			fields[n++] = s + 1;
		}
	}
	return n;
}

static bool
all_digits(const char *s)
{
	if (*s == '-')
		s++;
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

void
trace_key_method_line(const unsigned char *line, size_t len, uint64_t offset,
                      const struct trace_sink *sink)
{
	struct line_buf lb = {0};
	struct trace_method_def def;
	char *f[6];
	size_t n;

	n = split_tabs(line_copy(&lb, line, len), f, 6);
	memset(&def, 0, sizeof(def));
	def.line = -1;
	def.klass = def.name = def.signature = "";
	if (n < 2 || !trace_key_parse_id(f[0], &def.id)) {
		trace_warn(sink, offset, "malformed method line ignored");
		free(lb.text);
		return;
	}
	def.id &= ~(uint64_t)3;
	if (n == 2) {
		def.name = f[1]; /* a bare function name */
	} else {
		def.klass = f[1];
		def.name = f[2];
		if (n == 4 && f[3][0] != '(' && all_digits(f[3])) {
			/* id, class, source file, line: no method name */
			def.name = "";
			def.file = f[2];
			def.line = strtol(f[3], NULL, 10);
		} else if (n >= 4) {
			def.signature = f[3];
		}
		if (n >= 5)
			def.file = f[4];
		if (n >= 6 && all_digits(f[5]))
			def.line = strtol(f[5], NULL, 10);
	}
	if (sink->method)
		sink->method(sink->ctx, &def);
	free(lb.text);
}

bool
trace_key_method_id(const unsigned char *line, size_t len, uint64_t *id)
{
	const unsigned char *tab = memchr(line, '\t', len);
	char small[48], *field;
	size_t n;
	bool ok;

	/* A NUL byte reads as C0 80 there: never an id. */
	if (!tab || memchr(line, '\0', (size_t)(tab - line)))
		return false;
	n = (size_t)(tab - line);
	field = n < sizeof(small) ? small : xmalloc(n + 1);
	memcpy(field, line, n);
	field[n] = '\0';
	ok = trace_key_parse_id(field, id);
	if (field != small)
		free(field);
	if (ok)
		*id &= ~(uint64_t)3;
	return ok;
}

static void
thread_line(struct line_buf *lb, const unsigned char *line, size_t len,
            uint64_t offset, const struct trace_sink *sink)
{
	char *s = line_copy(lb, line, len);
	char *tab = strchr(s, '\t');
	char *end;
	unsigned long tid;

	if (!tab)
		tab = strchr(s, ' ');
	if (!tab) {
		trace_warn(sink, offset, "malformed thread line ignored");
		return;
	}
	*tab = '\0';
	tid = strtoul(s, &end, 10);
	if (end == s || *end || tid > UINT32_MAX) {
		trace_warn(sink, offset, "malformed thread id '%s' ignored", s);
		return;
	}
	if (sink->thread)
		sink->thread(sink->ctx, (uint32_t)tid, tab + 1);
}

static void
option_line(struct line_buf *lb, const unsigned char *line, size_t len,
            uint64_t offset, const struct trace_sink *sink,
            struct trace_key_info *info)
{
	char *s = line_copy(lb, line, len);
	char *eq = strchr(s, '=');

	if (!eq) {
		if (*s)
			trace_warn(sink, offset,
			           "key line without '=' ignored");
		return;
	}
	*eq = '\0';
	if (strcmp(s, "clock") == 0) {
		if (strcmp(eq + 1, "thread-cpu") == 0) {
			info->clock = TRACE_CLOCK_CPU;
			info->has_clock = true;
		} else if (strcmp(eq + 1, "wall") == 0) {
			info->clock = TRACE_CLOCK_WALL;
			info->has_clock = true;
		} else if (strcmp(eq + 1, "dual") == 0) {
			info->clock = TRACE_CLOCK_DUAL;
			info->has_clock = true;
		} else {
			trace_warn(sink, offset, "unknown clock '%s' ignored",
			           eq + 1);
		}
	} else if (strcmp(s, "vm") == 0) {
		info->vm_art = strcmp(eq + 1, "art") == 0;
	}
	if (sink->property)
		sink->property(sink->ctx, s, eq + 1);
}

/* Strip trailing CR and spaces from a section marker for comparison. */
static bool
is_marker(const unsigned char *line, size_t len, const char *name)
{
	size_t n = strlen(name);

	while (len > n && (line[len - 1] == ' ' || line[len - 1] == '\t'))
		len--;
	return len == n && memcmp(line, name, n) == 0;
}

bool
trace_key_parse(const unsigned char *buf, size_t len, uint64_t base,
                const struct trace_sink *sink, struct trace_key_info *info,
                struct trace_error *err)
{
	enum key_section section = SECTION_VERSION_LINE;
	struct line_buf lb = {0};
	size_t pos, next;

	memset(info, 0, sizeof(*info));
	if (len < 8 || memcmp(buf, "*version", 8) != 0) {
		trace_error_set(err, base,
		                "expected '*version' at the start "
		                "of the key");
		return false;
	}
	pos = 8;
	while (pos < len && buf[pos] != '\n')
		pos++;
	for (pos++; pos < len; pos = next) {
		const unsigned char *nl = memchr(buf + pos, '\n', len - pos);
		const unsigned char *line = buf + pos;
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		uint64_t at = base + pos;

		next = pos + n + 1;
		if (n && line[n - 1] == '\r')
			n--;
		if (n && line[0] == '*') {
			if (is_marker(line, n, "*end")) {
				info->has_end = true;
				info->end = next > len ? len : next;
				break;
			} else if (is_marker(line, n, "*threads")) {
				section = SECTION_THREADS;
			} else if (is_marker(line, n, "*methods")) {
				section = SECTION_METHODS;
			} else {
				trace_warn(sink, at,
				           "unknown key section skipped");
				section = SECTION_OTHER;
			}
			continue;
		}
		switch (section) {
		case SECTION_VERSION_LINE: {
			char *s = line_copy(&lb, line, n);
			char *end;
			unsigned long v = strtoul(s, &end, 10);

			while (*end == ' ')
				end++;
			if (end == s || *end || v > 0xFF) {
				trace_error_set(err, at,
				                "expected a version number "
				                "after '*version'");
				free(lb.text);
				return false;
			}
			info->version = (unsigned)v;
			section = SECTION_OPTIONS;
			break;
		}
		case SECTION_OPTIONS:
			option_line(&lb, line, n, at, sink, info);
			break;
		case SECTION_THREADS:
			if (n)
				thread_line(&lb, line, n, at, sink);
			break;
		case SECTION_METHODS:
			if (n)
				trace_key_method_line(line, n, at, sink);
			break;
		case SECTION_OTHER:
			break;
		}
	}
	free(lb.text);
	if (section == SECTION_VERSION_LINE) {
		trace_error_set(err, base + len,
		                "expected a version number after '*version'");
		return false;
	}
	if (!info->has_end)
		info->end = len;
	return true;
}
