/*
 * mapping: an R8 / ProGuard mapping.txt, parsed into hash tables of
 * obfuscated names, and applied to a loaded trace.
 *
 * The format, one line at a time (LF or CRLF):
 *   # comment, or # {"id":...} JSON metadata    skipped
 *   original.Class -> obf.a:                    a class (column 0)
 *       int origField -> a                      a field (indented): kept
 *                                               for heap dumps' fields
 *       void m(int,java.lang.String) -> b       a method, no line numbers
 *       1:5:void m(int):10:14 -> b              with its obfuscated line
 *                                               range and original lines
 *       3:3:void inner():20:20 -> c             inline frames: methods that
 *       3:3:void outer():30 -> c                share a name and range are
 *                                               one frame each, innermost
 *                                               first, the real method last
 *       7:7:void other.Cls.m():5:5 -> c         a frame from another class
 * Anything else (a member before any class, a line without " -> ", a
 * method line that does not parse, a NUL byte) is an error naming the
 * line.
 *
 * Renaming a trace's method CLASS.NAME SIGNATURE:
 *   - CLASS is looked up dotted (a trace may write it slashed; the result
 *     keeps the trace's separator); unknown classes stay as they are;
 *   - every "Lobf/Cls;" in SIGNATURE (and in an array CLASS) is renamed;
 *   - NAME's candidates are the class's method lines with that obfuscated
 *     name.  When the trace has a signature, the candidates whose original
 *     descriptor equals the renamed signature are kept, the real methods
 *     among them preferred to inline frames (a trace enters the real one).
 *     Without a signature, or when none matches, the real methods are the
 *     candidates (inline frames only if there are none).  One distinct
 *     original name is used as is (a frame from another class also sets
 *     the class); several are joined with '|', in file order, the
 *     first MAX_NAMES of them and then "...".
 *
 * Invariants: every loop is bounded by the file's bytes or by the trace's
 * strings; strings are kept in the mapping's arena; lookups cost a hash
 * probe plus the candidates of one class and name.
 */
#include "config.h"

#include "model/mapping.h"

#include "model/identity.h"
#include "read/load.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "util/chars.h"
#include "util/hash.h"
#include "util/map.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { NONE = UINT32_MAX };

struct mp_class {
	const char *orig; /* dotted */
	const char *obf;  /* dotted */
	uint32_t next;    /* next class with the same hash */
};

struct mp_method {
	uint32_t klass; /* its class */
	const char *obf;
	const char *name;   /* original; qualified for another class's frame */
	const char *desc;   /* original descriptor "(I)V", slashed */
	long lo, hi;        /* obfuscated line range, -1 when none */
	bool inline_frame;  /* inlined into the method on a later line */
	uint32_t next;      /* next method with the same hash */
	uint32_t next_desc; /* next with the same hash of desc as well */
	/* Set by settle() on the first method of its class and obfuscated
	 * name (any_names: the names a lookup without a matching
	 * signature gives) and on the first of its class, obfuscated name
	 * and descriptor (desc_names: those a matching signature gives);
	 * NULL elsewhere or when none.  *_single: one name, no '|'. */
	const char *any_names, *desc_names;
	bool any_single, desc_single;
};

/* A field line: its class, obfuscated and original names. */
struct mp_field {
	uint32_t klass;
	const char *obf, *orig;
};

struct mapping {
	struct util_arena arena;
	struct mp_field *fields;
	size_t nfields, fields_cap;
	struct util_map field_hash; /* hash of class and obf -> first field */
	struct mp_class *classes;
	size_t nclasses, classes_cap;
	struct mp_method *methods;
	size_t nmethods, methods_cap;
	struct util_map class_hash;  /* hash of obf -> first class */
	struct util_map method_hash; /* hash of class and obf -> first */
	struct util_map desc_hash;   /* hash of class, obf and desc -> first */
	struct util_map class_tail;  /* the same hashes -> last, to append */
	struct util_map method_tail;
	struct util_map desc_tail;
};

/* A growing string. */
struct buf {
	char *s;
	size_t len, cap;
};

static void
buf_add(struct buf *b, const char *s, size_t n)
{
	UTIL_GROW(b->s, b->cap, b->len + n + 1);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void
buf_addc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

/* The string built so far, owned by the caller ("" when empty). */
static char *
buf_take(struct buf *b)
{
	char *s = b->s ? b->s : xstrdup("");

	memset(b, 0, sizeof(*b));
	return s;
}

static uint64_t
method_key(uint32_t klass, const char *obf, size_t n)
{
	return hash_bytes(
	        hash_bytes(HASH_SEED, (const char *)&klass, sizeof(klass)), obf,
	        n);
}

static uint64_t
desc_key(uint64_t method, const char *desc)
{
	return hash_bytes(
	        hash_bytes(HASH_SEED, (const char *)&method, sizeof(method)),
	        desc, strlen(desc));
}

static uint32_t
find_class(const struct mapping *map, const char *s, size_t n)
{
	uint32_t i;

	if (!util_map_get(&map->class_hash, identity_class_hash(s, n), &i))
		return NONE;
	for (; i != NONE; i = map->classes[i].next)
		if (!identity_class_cmp(map->classes[i].obf,
		                        strlen(map->classes[i].obf), s, n))
			return i;
	return NONE;
}

/* ---- parsing ---- */

struct parser {
	struct mapping *map;
	const char *name;
	unsigned long line;
	char *error;
	uint32_t klass; /* the current class, NONE before one */
	uint32_t last;  /* its last method line, NONE before one */
};

static bool fail(struct parser *p, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

static bool
fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	char *what;

	va_start(ap, fmt);
	what = xvasprintf(fmt, ap);
	va_end(ap);
	p->error = xasprintf("%s: line %lu: %s", p->name, p->line, what);
	free(what);
	return false;
}

/* Trim blanks from both ends of [*s, *e). */
static void
trim(const char **s, const char **e)
{
	while (*s < *e && is_blank(**s))
		(*s)++;
	while (*e > *s && is_blank((*e)[-1]))
		(*e)--;
}

/* The first " -> " in [s, e), or NULL. */
static const char *
find_arrow(const char *s, const char *e)
{
	const char *p;

	for (p = s; e - p >= 4; p++)
		if (memcmp(p, " -> ", 4) == 0)
			return p;
	return NULL;
}

/* A line number: digits, at most 9 of them. */
static bool
line_number(const char **s, const char *e, long *out)
{
	long v = 0;
	int n = 0;

	while (*s < e && is_digit(**s) && n < 10) {
		v = v * 10 + (**s - '0');
		(*s)++;
		n++;
	}
	*out = v;
	return n > 0 && n < 10;
}

/* Append the descriptor of the Java type [s, e) ("int[]", "a.B"). */
static bool
type_descriptor(struct buf *b, const char *s, const char *e)
{
	static const struct {
		const char *java;
		char desc;
	} prims[] = {
	        {"boolean", 'Z'}, {"byte", 'B'},   {"char", 'C'},
	        {"short", 'S'},   {"int", 'I'},    {"long", 'J'},
	        {"float", 'F'},   {"double", 'D'}, {"void", 'V'},
	};
	size_t i, n;

	trim(&s, &e);
	while (e - s >= 2 && e[-2] == '[' && e[-1] == ']') {
		buf_addc(b, '[');
		e -= 2;
	}
	if (s == e)
		return false;
	n = (size_t)(e - s);
	for (i = 0; i < sizeof(prims) / sizeof(prims[0]); i++) {
		if (strlen(prims[i].java) == n &&
		    memcmp(prims[i].java, s, n) == 0) {
			buf_addc(b, prims[i].desc);
			return true;
		}
	}
	buf_addc(b, 'L');
	for (; s < e; s++) {
		if (is_blank(*s) || *s == '(' || *s == ')' || *s == ',')
			return false;
		buf_addc(b, *s == '.' ? '/' : *s);
	}
	buf_addc(b, ';');
	return true;
}

static const char *
keep(struct mapping *map, const char *s, size_t n)
{
	return util_arena_strndup(&map->arena, s, n);
}

static bool
class_line(struct parser *p, const char *s, const char *e)
{
	struct mapping *map = p->map;
	const char *arrow = find_arrow(s, e), *orig_e, *obf;
	struct mp_class *c;
	uint32_t *head, *tail;
	uint64_t key;

	trim(&s, &e);
	if (!arrow || e == s || e[-1] != ':')
		return fail(p, "expected 'original.Class -> obfuscated:'");
	orig_e = arrow;
	obf = arrow + 4;
	e--;
	trim(&s, &orig_e);
	trim(&obf, &e);
	if (s == orig_e || obf == e)
		return fail(p, "expected 'original.Class -> obfuscated:', "
		               "found an empty class name");
	UTIL_GROW(map->classes, map->classes_cap, map->nclasses + 1);
	c = &map->classes[map->nclasses];
	c->orig = keep(map, s, (size_t)(orig_e - s));
	c->obf = keep(map, obf, (size_t)(e - obf));
	/* A repeated obfuscated name: the first class keeps it. */
	key = identity_class_hash(obf, (size_t)(e - obf));
	head = util_map_slot(&map->class_hash, key, NONE);
	tail = util_map_slot(&map->class_tail, key, NONE);
	c->next = NONE;
	if (*head == NONE)
		*head = (uint32_t)map->nclasses;
	else
		map->classes[*tail].next = (uint32_t)map->nclasses;
	*tail = (uint32_t)map->nclasses;
	p->klass = (uint32_t)map->nclasses++;
	p->last = NONE;
	return true;
}

/* [lo:hi:]type name(args)[:x[:y]] in [s, e), obfuscated to obf. */
static bool
method_line(struct parser *p, const char *s, const char *e, const char *obf,
            size_t obf_len)
{
	static const char *expected =
	        "expected '[A:B:]TYPE NAME(ARGS)[:C[:D]] -> OBFUSCATED'";
	struct mapping *map = p->map;
	struct buf desc = {0};
	struct mp_method *m;
	const char *open, *close, *space, *q;
	long lo = -1, hi = -1, unused;
	uint32_t *head, *tail;
	uint64_t key;

	if (is_digit(*s)) {
		if (!line_number(&s, e, &lo) || s >= e || *s != ':')
			return fail(p, "%s", expected);
		s++;
		if (!line_number(&s, e, &hi) || s >= e || *s != ':')
			return fail(p, "%s", expected);
		s++;
	}
	open = memchr(s, '(', (size_t)(e - s));
	close = open ? memchr(open, ')', (size_t)(e - open)) : NULL;
	if (!close)
		return fail(p, "%s", expected);
	for (space = open; space > s && !is_blank(space[-1]); space--)
		;
	if (space == s || space == open)
		return fail(p, "%s: no return type or no name", expected);
	/* The original lines after ')': ":C" or ":C:D". */
	q = close + 1;
	if (q < e && *q == ':') {
		q++;
		if (!line_number(&q, e, &unused))
			return fail(p, "%s", expected);
		if (q < e && *q == ':') {
			q++;
			if (!line_number(&q, e, &unused))
				return fail(p, "%s", expected);
		}
	}
	if (q != e)
		return fail(p, "%s", expected);
	buf_addc(&desc, '(');
	for (q = open + 1; q < close;) {
		const char *comma = memchr(q, ',', (size_t)(close - q));
		const char *end = comma ? comma : close;

		if (!type_descriptor(&desc, q, end)) {
			free(desc.s);
			return fail(p, "%s: bad argument type", expected);
		}
		q = comma ? comma + 1 : close;
	}
	buf_addc(&desc, ')');
	if (!type_descriptor(&desc, s, space)) {
		free(desc.s);
		return fail(p, "%s: bad return type", expected);
	}
	UTIL_GROW(map->methods, map->methods_cap, map->nmethods + 1);
	m = &map->methods[map->nmethods];
	m->klass = p->klass;
	m->obf = keep(map, obf, obf_len);
	m->name = keep(map, space, (size_t)(open - space));
	m->desc = keep(map, desc.s, desc.len);
	free(desc.s);
	m->lo = lo;
	m->hi = hi;
	m->inline_frame = false;
	m->next = NONE;
	m->next_desc = NONE;
	m->any_names = m->desc_names = NULL;
	/* The line before, same name and range: an inline frame of this. */
	if (p->last != NONE && lo >= 0) {
		struct mp_method *prev = &map->methods[p->last];

		if (prev->lo == lo && prev->hi == hi &&
		    strcmp(prev->obf, m->obf) == 0)
			prev->inline_frame = true;
	}
	key = method_key(p->klass, obf, obf_len);
	head = util_map_slot(&map->method_hash, key, NONE);
	tail = util_map_slot(&map->method_tail, key, NONE);
	if (*head == NONE)
		*head = (uint32_t)map->nmethods;
	else
		map->methods[*tail].next = (uint32_t)map->nmethods;
	*tail = (uint32_t)map->nmethods;
	key = desc_key(key, m->desc);
	head = util_map_slot(&map->desc_hash, key, NONE);
	tail = util_map_slot(&map->desc_tail, key, NONE);
	if (*head == NONE)
		*head = (uint32_t)map->nmethods;
	else
		map->methods[*tail].next_desc = (uint32_t)map->nmethods;
	*tail = (uint32_t)map->nmethods;
	p->last = (uint32_t)map->nmethods++;
	return true;
}

static bool
member_line(struct parser *p, const char *s, const char *e)
{
	const char *arrow, *obf, *left_e;

	if (p->klass == NONE)
		return fail(p, "a member line before any class line "
		               "('original.Class -> obfuscated:')");
	arrow = find_arrow(s, e);
	if (!arrow)
		return fail(p, "expected ' -> ' in a member line");
	obf = arrow + 4;
	left_e = arrow;
	trim(&s, &left_e);
	trim(&obf, &e);
	if (s == left_e || obf == e)
		return fail(p, "expected 'MEMBER -> OBFUSCATED', found an "
		               "empty name");
	if (!memchr(s, '(', (size_t)(left_e - s))) {
		/* A field: "TYPE NAME -> OBF"; the first of a class and
		 * obfuscated name wins. */
		const char *name = left_e;
		struct mp_field *f;
		uint32_t *slot;

		while (name > s && name[-1] != ' ' && name[-1] != '\t')
			name--;
		UTIL_GROW(p->map->fields, p->map->fields_cap,
		          p->map->nfields + 1);
		f = &p->map->fields[p->map->nfields];
		f->klass = p->klass;
		f->obf = keep(p->map, obf, (size_t)(e - obf));
		f->orig = keep(p->map, name, (size_t)(left_e - name));
		slot = util_map_slot(
		        &p->map->field_hash,
		        method_key(p->klass, obf, (size_t)(e - obf)), NONE);
		if (*slot == NONE)
			*slot = (uint32_t)p->map->nfields;
		p->map->nfields++;
		return true;
	}
	return method_line(p, s, left_e, obf, (size_t)(e - obf));
}

static void settle(struct mapping *map);

struct mapping *
mapping_parse(const char *text, size_t len, const char *name, char **error)
{
	struct mapping *map = xcalloc(1, sizeof(*map));
	struct parser p = {map, name, 0, NULL, NONE, NONE};
	const char *s = text, *end = text + len;

	util_arena_init(&map->arena);
	util_map_init(&map->class_hash);
	util_map_init(&map->field_hash);
	util_map_init(&map->method_hash);
	util_map_init(&map->desc_hash);
	util_map_init(&map->class_tail);
	util_map_init(&map->method_tail);
	util_map_init(&map->desc_tail);
	if (len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
		s += 3;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end, *t = s;
		bool ok = true;

		p.line++;
		if (e > s && e[-1] == '\r')
			e--;
		while (t < e && is_blank(*t))
			t++;
		if (memchr(s, '\0', (size_t)(e - s)))
			ok = fail(&p, "a NUL byte: not a mapping file");
		else if (t == e || *t == '#')
			;
		else if (t == s)
			ok = class_line(&p, s, e);
		else
			ok = member_line(&p, t, e);
		if (!ok) {
			*error = p.error;
			mapping_free(map);
			return NULL;
		}
		s = nl ? nl + 1 : end;
	}
	settle(map);
	return map;
}

struct mapping *
mapping_load(const char *path, char **error)
{
	struct stat st;
	struct buf text = {0};
	struct mapping *map;
	int fd = trace_open_input(path);

	if (fd < 0) {
		*error = xasprintf("%s: cannot open the mapping: %s", path,
		                   strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 ||
	    !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode))) {
		*error = xasprintf("%s: not a mapping file (a directory or a "
		                   "device)",
		                   path);
		close(fd);
		return NULL;
	}
	if (S_ISFIFO(st.st_mode))
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	for (;;) {
		ssize_t got;

		UTIL_GROW(text.s, text.cap, text.len + 65536);
		got = read(fd, text.s + text.len, text.cap - text.len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			*error = xasprintf("%s: cannot read the mapping: %s",
			                   path, strerror(errno));
			free(text.s);
			close(fd);
			return NULL;
		}
		if (got == 0)
			break;
		text.len += (size_t)got;
		if (text.len > trace_load_max_input) {
			*error = xasprintf(
			        "%s: the mapping goes on past %llu "
			        "bytes (raise the limit with "
			        "--max-input SIZE)",
			        path, (unsigned long long)trace_load_max_input);
			free(text.s);
			close(fd);
			return NULL;
		}
	}
	close(fd);
	map = mapping_parse(text.s ? text.s : "", text.len, path, error);
	free(text.s);
	return map;
}

void
mapping_free(struct mapping *map)
{
	if (!map)
		return;
	free(map->classes);
	free(map->methods);
	free(map->fields);
	util_map_done(&map->field_hash);
	util_map_done(&map->class_hash);
	util_map_done(&map->method_hash);
	util_map_done(&map->desc_hash);
	util_map_done(&map->class_tail);
	util_map_done(&map->method_tail);
	util_map_done(&map->desc_tail);
	util_arena_done(&map->arena);
	free(map);
}

/* ---- renaming ---- */

/* Append dotted name in the style of the trace: '/' for '.' if slashed. */
static void
add_styled(struct buf *b, const char *dotted, size_t n, bool slashed)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf_addc(b, slashed && dotted[i] == '.' ? '/' : dotted[i]);
}

/* Append descriptor text [s, e) with every "L...;" class renamed. */
static void
add_descriptor(const struct mapping *map, struct buf *b, const char *s,
               const char *e)
{
	while (s < e) {
		const char *semi, *q;
		bool dotted = false;
		uint32_t c;

		if (*s != 'L') {
			buf_addc(b, *s++);
			continue;
		}
		semi = memchr(s, ';', (size_t)(e - s));
		if (!semi) {
			buf_add(b, s, (size_t)(e - s));
			return;
		}
		for (q = s + 1; q < semi; q++)
			if (*q == '.')
				dotted = true;
		c = find_class(map, s + 1, (size_t)(semi - s - 1));
		buf_addc(b, 'L');
		if (c == NONE)
			buf_add(b, s + 1, (size_t)(semi - s - 1));
		else
			add_styled(b, map->classes[c].orig,
			           strlen(map->classes[c].orig), !dotted);
		buf_addc(b, ';');
		s = semi + 1;
	}
}

/* Whether candidate m is kept: see the top of the file. */
static bool
wanted(const struct mp_method *m, int pass)
{
	switch (pass) {
	case 0: /* the signature matches a real method */
	case 2: /* the real methods */
		return !m->inline_frame;
	default: /* the signature matches an inline frame; anything */
		return true;
	}
}

/* At most this many original names are joined for one method. */
enum { MAX_NAMES = 8 };

/*
 * The names of the candidates from `first` on (along next_desc when
 * by_desc, else along next) that share its class, obfuscated name (and
 * descriptor when by_desc), real methods first (passes 0 and 1, or 2 and
 * 3): distinct, in file order, at most MAX_NAMES and then "...", kept in
 * the arena; NULL when none.  Walks the chain once per pass.
 */
static const char *
candidate_names(struct mapping *map, uint32_t first, bool by_desc, bool *single)
{
	const struct mp_method *f = &map->methods[first];
	struct buf out = {0};
	struct util_map seen;
	const char *kept = NULL;
	size_t count = 0;
	uint32_t i;
	int pass;

	util_map_init(&seen);
	for (pass = by_desc ? 0 : 2; pass < (by_desc ? 2 : 4) && !count;
	     pass++) {
		for (i = first; i != NONE;
		     i = by_desc ? map->methods[i].next_desc
		                 : map->methods[i].next) {
			const struct mp_method *m = &map->methods[i];
			uint64_t h =
			        hash_bytes(HASH_SEED, m->name, strlen(m->name));
			uint32_t *slot;

			if (m->klass != f->klass ||
			    strcmp(m->obf, f->obf) != 0 ||
			    (by_desc && strcmp(m->desc, f->desc) != 0) ||
			    !wanted(m, pass))
				continue;
			/* One hash per distinct name; a collision just
			 * shows a name twice. */
			slot = util_map_slot(&seen, h, NONE);
			if (*slot != NONE &&
			    strcmp(map->methods[*slot].name, m->name) == 0)
				continue;
			*slot = i;
			if (count++ == MAX_NAMES) {
				/* Bounded output for a crafted file. */
				buf_add(&out, "|...", 4);
				break;
			}
			if (count > 1)
				buf_addc(&out, '|');
			buf_add(&out, m->name, strlen(m->name));
		}
	}
	util_map_done(&seen);
	*single = count == 1;
	if (count)
		kept = keep(map, out.s, out.len);
	free(out.s);
	return kept;
}

/* The first method of class c named obf (with descriptor desc, unless
 * NULL), or NONE. */
static uint32_t
group_first(const struct mapping *map, uint32_t c, const char *obf,
            const char *desc)
{
	uint64_t key = method_key(c, obf, strlen(obf));
	uint32_t i;

	if (desc) {
		if (!util_map_get(&map->desc_hash, desc_key(key, desc), &i))
			return NONE;
		for (; i != NONE; i = map->methods[i].next_desc)
			if (map->methods[i].klass == c &&
			    strcmp(map->methods[i].obf, obf) == 0 &&
			    strcmp(map->methods[i].desc, desc) == 0)
				return i;
		return NONE;
	}
	if (!util_map_get(&map->method_hash, key, &i))
		return NONE;
	for (; i != NONE; i = map->methods[i].next)
		if (map->methods[i].klass == c &&
		    strcmp(map->methods[i].obf, obf) == 0)
			return i;
	return NONE;
}

/*
 * Work out every lookup's answer once the file is read (inline frames
 * are known only then): each group of methods with one class and
 * obfuscated name, and each with one descriptor as well, gets its names
 * on its first method.  A group is walked once, so 200,000 overloads
 * under one name cost 200,000 steps here, not that many per method of
 * the trace.
 */
static void
settle(struct mapping *map)
{
	size_t i;

	for (i = 0; i < map->nmethods; i++) {
		struct mp_method *m = &map->methods[i];

		/* The first of its group is what group_first finds: an
		 * earlier method of the chain stops it at once. */
		if (group_first(map, m->klass, m->obf, NULL) == i)
			m->any_names = candidate_names(map, (uint32_t)i, false,
			                               &m->any_single);
		if (group_first(map, m->klass, m->obf, m->desc) == i)
			m->desc_names = candidate_names(map, (uint32_t)i, true,
			                                &m->desc_single);
	}
}

/* The original name(s) of method obf of class c, or NULL when none: a
 * hash probe or two (settle() did the work). */
static char *
method_names(const struct mapping *map, uint32_t c, const char *obf,
             const char *desc, const char **qualifier, size_t *qualifier_len)
{
	const char *names = NULL;
	bool single = false;
	uint32_t i;
	char *out, *dot;

	*qualifier = NULL;
	if (desc && (i = group_first(map, c, obf, desc)) != NONE &&
	    map->methods[i].desc_names) {
		names = map->methods[i].desc_names;
		single = map->methods[i].desc_single;
	} else if ((i = group_first(map, c, obf, NULL)) != NONE) {
		names = map->methods[i].any_names;
		single = map->methods[i].any_single;
	}
	if (!names)
		return NULL;
	out = xstrdup(names);
	/* Another class's frame: "other.Cls.m". */
	if (single && (dot = strrchr(out, '.'))) {
		*qualifier = out;
		*qualifier_len = (size_t)(dot - out);
	}
	return out;
}

void
mapping_rename(const struct mapping *map, const char *klass, const char *name,
               const char *signature, struct mapping_name *out)
{
	struct buf b = {0}, want = {0};
	bool slashed = strchr(klass, '/') != NULL;
	uint32_t c = NONE;
	char *names = NULL;
	const char *qualifier = NULL;
	size_t qualifier_len = 0, i;

	add_descriptor(map, &b, signature, signature + strlen(signature));
	out->signature = buf_take(&b);
	if (klass[0] == '[') {
		add_descriptor(map, &b, klass, klass + strlen(klass));
		out->klass = buf_take(&b);
		out->name = xstrdup(name);
		return;
	}
	c = find_class(map, klass, strlen(klass));
	if (c != NONE && *signature) {
		/* Compare with the mapping's slashed descriptors. */
		for (i = 0; out->signature[i]; i++)
			if (!is_blank(out->signature[i]))
				buf_addc(&want, out->signature[i] == '.'
				                        ? '/'
				                        : out->signature[i]);
	}
	if (c != NONE)
		names = method_names(map, c, name, *signature ? want.s : NULL,
		                     &qualifier, &qualifier_len);
	free(want.s);
	if (qualifier) {
		add_styled(&b, qualifier, qualifier_len, slashed);
		out->klass = buf_take(&b);
		out->name = xstrdup(names + qualifier_len + 1);
		free(names);
		return;
	}
	if (c != NONE)
		add_styled(&b, map->classes[c].orig,
		           strlen(map->classes[c].orig), slashed);
	else
		buf_add(&b, klass, strlen(klass));
	out->klass = buf_take(&b);
	out->name = names ? names : xstrdup(name);
}

void
mapping_name_done(struct mapping_name *n)
{
	free(n->klass);
	free(n->name);
	free(n->signature);
	memset(n, 0, sizeof(*n));
}

static const char *
tree_str(struct calltree *tree, const char *old, const char *s)
{
	if (strcmp(old, s) == 0)
		return old;
	return util_arena_strndup(&tree->arena, s, strlen(s));
}

void
mapping_apply(const struct mapping *map, struct calltree *tree)
{
	size_t i;

	for (i = 0; i < tree->nmethods; i++) {
		struct tt_method *m = &tree->methods[i];
		struct mapping_name n;

		if (!m->defined)
			continue;
		mapping_rename(map, m->klass, m->name, m->signature, &n);
		m->klass = tree_str(tree, m->klass, n.klass);
		m->name = tree_str(tree, m->name, n.name);
		m->signature = tree_str(tree, m->signature, n.signature);
		mapping_name_done(&n);
	}
}

const char *
mapping_class(const struct mapping *map, const char *obf)
{
	uint32_t c = find_class(map, obf, strlen(obf));

	return c == NONE ? NULL : map->classes[c].orig;
}

const char *
mapping_field(const struct mapping *map, const char *obf_class,
              const char *obf_field)
{
	uint32_t c = find_class(map, obf_class, strlen(obf_class)), i;
	size_t n = strlen(obf_field);

	if (c == NONE ||
	    !util_map_get(&map->field_hash, method_key(c, obf_field, n), &i))
		return NULL;
	/* A hash shared by another name: look on among the class's. */
	for (; i < map->nfields && map->fields[i].klass == c; i++)
		if (strcmp(map->fields[i].obf, obf_field) == 0)
			return map->fields[i].orig;
	return NULL;
}
