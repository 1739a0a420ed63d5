/*
 * method-name: placeholders for undefined ids are made by the calltree
 * ("(unknown 0x...)" as the name), so this file only joins the parts,
 * shortens them for narrow columns (the icicle), and makes the viewer's
 * short names: packages as initials, the class whole or the parameters
 * added only where two methods' short names would be the same.
 */
#include "config.h"

#include "query/method-name.h"

#include "text/width.h"
#include "util/alloc.h"
#include "util/hash.h"
#include "util/map.h"

#include <stdlib.h>
#include <string.h>

char *
method_short_name(const struct tt_method *m)
{
	return xasprintf("%s%s%s", m->klass, *m->klass && *m->name ? "." : "",
	                 m->name);
}

/* Append the n bytes of s at p; the end of what was written. */
static char *
put_bytes(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/* Joined with memcpy, not a format: triage and the drill build every
 * method's name, and a format costs ten times as much. */
char *
method_full_name(const struct tt_method *m)
{
	size_t nk = strlen(m->klass), nn = strlen(m->name);
	size_t ns = strlen(m->signature);
	bool dot = nk && nn;
	char *out = xmalloc(nk + dot + nn + (ns > 0) + ns + 1), *p = out;

	p = put_bytes(p, m->klass, nk);
	p = put_bytes(p, ".", dot);
	p = put_bytes(p, m->name, nn);
	p = put_bytes(p, " ", ns > 0);
	p = put_bytes(p, m->signature, ns);
	*p = '\0';
	return out;
}

char *
method_dotted_name(const struct tt_method *m)
{
	struct tt_method dotted = *m;
	char *klass = xstrdup(m->klass), *c, *name;

	for (c = klass; *c; c++)
		if (*c == '/')
			*c = '.';
	dotted.klass = klass;
	name = method_full_name(&dotted);
	free(klass);
	return name;
}

/* Bytes of the UTF-8 character at s (1 for a stray byte). */
static size_t
char_len(const char *s)
{
	size_t n = 1;

	while ((s[n] & 0xC0) == 0x80)
		n++;
	return n;
}

char *
method_fit_name(const char *name, int width)
{
	char *s = xstrdup(name);
	char *sig = strchr(s, ' ');
	size_t head = sig ? (size_t)(sig - s) : strlen(s);

	while ((int)text_width(s) > width) {
		char *part = s, *sep, *last;
		char keep;

		/* The class's own name starts after the last separator
		 * before the method name's dot. */
		keep = s[head];
		s[head] = '\0';
		last = strrchr(s, '.');
		s[head] = keep;
		if (!last)
			break;
		while ((sep = strpbrk(part, "./")) && sep < last &&
		       (size_t)(sep - part) <= char_len(part))
			part = sep + 1;
		if (!sep || sep >= last) {
			/* Every package is one letter: try the class. */
			break;
		}
		/* Keep the whole first character, not its first byte. */
		memmove(part + char_len(part), sep, strlen(sep) + 1);
		head -= (size_t)(sep - part) - char_len(part);
		{
			/* Stop once class and method fit with room for a
			 * few signature characters. */
			char *p = s + head;
			size_t w;

			keep = *p;
			*p = '\0';
			w = text_width(s);
			*p = keep;
			if ((int)w + 6 <= width)
				break;
		}
	}
	return s;
}

/* Whether the head of a name is C++'s ("ns::Class::method"). */
static bool
is_cxx(const char *s)
{
	return strstr(s, "::") != NULL;
}

/* The start of s's parameter list or signature: the '(' matching its
 * last ')' (a function pointer's parentheses inside it nested), with
 * the blanks before it; NULL when it has none or it is all of s. */
static char *
params_start(char *s)
{
	char *close = strrchr(s, ')'), *p;
	int depth = 0;

	if (!close)
		return NULL;
	for (p = close; p >= s; p--) {
		depth += *p == ')' ? 1 : *p == '(' ? -1 : 0;
		if (!depth)
			break;
	}
	if (p <= s)
		return NULL;
	while (p > s && p[-1] == ' ')
		p--;
	return p > s ? p : NULL;
}

/* s without its template arguments (every "<...>" outside parentheses)
 * and, C++ only, without a return type before the qualified name. */
static void
drop_templates(char *s)
{
	char *in = s, *out = s, *last_space = NULL;
	int angle = 0, paren = 0;

	for (; *in; in++) {
		if (!paren && *in == '<' &&
		    !(in > s && (in[-1] == '<' || in[1] == '<'))) {
			angle++;
			continue;
		}
		if (angle && *in == '>') {
			angle--;
			continue;
		}
		if (angle)
			continue;
		paren += *in == '(' ? 1 : *in == ')' ? -1 : 0;
		if (!paren && *in == ' ')
			last_space = out;
		*out++ = *in;
	}
	*out = '\0';
	/* "void ns::f" or "sk_sp SkSurface::Make": the type goes. */
	if (last_space && last_space[1])
		memmove(s, last_space + 1, strlen(last_space + 1) + 1);
}

/* The start of the method's own name in s: past the last separator
 * ("::" in C++, else '.' or '/') outside parentheses, or s. */
static const char *
own_name(const char *s, bool cxx)
{
	const char *own = s, *p;
	int paren = 0;

	for (p = s; *p; p++) {
		paren += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		if (paren)
			continue;
		if (cxx && p[0] == ':' && p[1] == ':' && p[2])
			own = p + 2;
		else if (!cxx && strchr("./", *p) && p[1] && p > s)
			own = p + 1;
	}
	return own;
}

/* Whether s fits in width columns. */
static bool
fits(const char *s, int width)
{
	return (int)text_width(s) <= width;
}

/* The first cut of s's start, a part at a time (packages, namespaces,
 * outer classes) before own, that fits width with mark before it; NULL
 * when none does. */
static char *
cut_parts(const char *s, const char *own, bool cxx, int width, const char *mark)
{
	const char *p;
	int paren = 0;

	for (p = s; p < own; p++) {
		bool after_sep;

		paren += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		if (paren || p == s)
			continue;
		after_sep = cxx ? p - 2 > s && p[-1] == ':' && p[-2] == ':'
		                : strchr("./$", p[-1]) && !strchr("./$", *p);
		if (after_sep) {
			char *cut = xasprintf("%s%s", mark, p);

			if (fits(cut, width))
				return cut;
			free(cut);
		}
	}
	return NULL;
}

char *
method_cut_left(const char *shown, int width, const char *mark)
{
	char *s, *params, *cut;
	const char *own;
	bool cxx = is_cxx(shown);

	if (fits(shown, width))
		return xstrdup(shown);
	s = xstrdup(shown);
	params = params_start(s);
	if (params && !cxx && *params != ' ') {
		/* A Java overload's parameter types tell it from the others:
		 * they go after the packages. */
		char keep = *params;

		*params = '\0';
		own = own_name(s, cxx);
		*params = keep;
		cut = cut_parts(s, own, cxx, width, mark);
		if (cut && strchr(cut, '.')) {
			free(s);
			return cut;
		}
		free(cut);
	}
	/* The signature, or the parameter list, goes first. */
	if (params)
		*params = '\0';
	if (fits(s, width))
		return s;
	/* Then C++'s template arguments and return type. */
	if (cxx || strchr(s, '<')) {
		drop_templates(s);
		if (fits(s, width))
			return s;
	}
	/* Then the packages and namespaces, and the outer classes, from
	 * the left a part at a time: the first cut that fits. */
	own = own_name(s, cxx);
	cut = cut_parts(s, own, cxx, width, mark);
	if (cut) {
		free(s);
		return cut;
	}
	/* As much of the class as fits before the method's own name, or
	 * that name alone, its start cut if it must be. */
	cut = xasprintf("%s%s", mark, own);
	if (fits(cut, width)) {
		char *more = text_cut_left(s, width, mark);

		/* Not from a separator: "….run" says no more than "…run". */
		if (!strchr("./$:", more[strlen(mark)])) {
			free(cut);
			cut = more;
		} else {
			free(more);
		}
	} else {
		/* Marked even where the own name alone would fit. */
		char *marked = cut;

		cut = text_cut_left(marked, width, mark);
		free(marked);
	}
	free(s);
	return cut;
}

char *
method_abbrev_class(const char *klass)
{
	size_t limit = strcspn(klass, "<( "), i, n = 0;
	const char *last = NULL, *p = klass;
	char *out;

	for (i = 0; i < limit; i++)
		if (klass[i] == '.' || klass[i] == '/')
			last = klass + i;
	if (!last)
		return xstrdup(klass);
	out = xmalloc(strlen(klass) + 1);
	while (p < last) {
		size_t len = strcspn(p, "./");

		/* The part's whole first character, then its separator. */
		if (len) {
			size_t c = char_len(p);

			memcpy(out + n, p, c < len ? c : len);
			n += c < len ? c : len;
		}
		p += len;
		out[n++] = *p++;
	}
	strcpy(out + n, p);
	return out;
}

/* The text growing in *out (of *len bytes, *cap allocated) with n bytes
 * of s appended. */
static void
append(char **out, size_t *len, size_t *cap, const char *s, size_t n)
{
	UTIL_GROW(*out, *cap, *len + n + 1);
	memcpy(*out + *len, s, n);
	*len += n;
	(*out)[*len] = '\0';
}

/* Append the descriptor types of [p, end) by simple names, joined by
 * commas; false when it is not a list of descriptors. */
static bool
append_descriptors(char **out, size_t *len, size_t *cap, const char *p,
                   const char *end)
{
	static const char prims[] = "BCDFIJSZV";
	static const char *const names[] = {"byte",  "char",    "double",
	                                    "float", "int",     "long",
	                                    "short", "boolean", "void"};
	bool first = true;

	while (p < end) {
		size_t dims = 0;

		while (p < end && *p == '[') {
			dims++;
			p++;
		}
		if (p >= end)
			return false;
		if (!first)
			append(out, len, cap, ",", 1);
		first = false;
		if (*p == 'L') {
			const char *semi = memchr(p, ';', (size_t)(end - p));
			const char *own = p + 1, *q;

			if (!semi || semi == p + 1)
				return false;
			for (q = p + 1; q < semi; q++)
				if (*q == '/' || *q == '.')
					own = q + 1;
			append(out, len, cap, own, (size_t)(semi - own));
			p = semi + 1;
		} else {
			const char *k = *p ? strchr(prims, *p) : NULL;
			const char *name;

			if (!k)
				return false;
			name = names[k - prims];
			append(out, len, cap, name, strlen(name));
			p++;
		}
		while (dims--)
			append(out, len, cap, "[]", 2);
	}
	return true;
}

/* Append the source-form type [p, end) without its qualifiers, also
 * inside type arguments: "java.util.List<java.lang.String>" as
 * "List<String>"; varargs' "..." stays. */
static void
append_simple(char **out, size_t *len, size_t *cap, const char *p,
              const char *end)
{
	size_t ident = *len;

	for (; p < end; p++) {
		if ((*p == '.' || *p == '/') && p + 1 < end && p[1] != '.' &&
		    (*p == '/' || p[-1] != '.')) {
			*len = ident; /* drop the qualifier and its dot */
			(*out)[*len] = '\0';
			continue;
		}
		append(out, len, cap, p, 1);
		if (strchr("<>,[]()?& ", *p))
			ident = *len;
	}
}

char *
method_params(const char *signature)
{
	const char *open = strchr(signature, '('), *close, *p;
	char *out = NULL;
	size_t len = 0, cap = 0;
	int depth = 0;

	if (!open)
		return xstrdup("");
	close = strchr(open, ')');
	if (!close)
		close = open + strlen(open);
	append(&out, &len, &cap, "(", 1);
	if (!append_descriptors(&out, &len, &cap, open + 1, close)) {
		/* A source form: parameters split at the commas outside
		 * type arguments, each without its spaces around it. */
		len = 1;
		out[len] = '\0';
		p = open + 1;
		while (p < close) {
			const char *q = p, *a, *b;

			for (; q < close && (*q != ',' || depth); q++)
				depth += *q == '<' ? 1 : *q == '>' ? -1 : 0;
			for (a = p; a < q && *a == ' '; a++)
				;
			for (b = q; b > a && b[-1] == ' '; b--)
				;
			if (p != open + 1)
				append(&out, &len, &cap, ",", 1);
			append_simple(&out, &len, &cap, a, b);
			p = q < close ? q + 1 : q;
		}
	}
	append(&out, &len, &cap, ")", 1);
	return out;
}

enum {
	NAME_WHOLE_CLASS = 1, /* initials would make it another's */
	NAME_PARAMS = 2,      /* an overload: the parameters tell it apart */
};

struct method_names {
	const struct calltree *tree;
	unsigned char *flags; /* NAME_* by method */
};

/* The short name of m: its class abbreviated unless whole_class, the
 * parameters when params. */
static char *
short_name(const struct tt_method *m, bool whole_class, bool params)
{
	char *klass =
	        whole_class ? xstrdup(m->klass) : method_abbrev_class(m->klass);
	char *args = params ? method_params(m->signature) : xstrdup("");
	char *s, *c;

	/* Packages dotted, as diff names methods (a.o.Debug, not a/o/Debug);
	 * a class kept whole to tell it apart stays as written. */
	if (!whole_class)
		for (c = klass; *c && !strchr("<( ", *c); c++)
			if (*c == '/')
				*c = '.';
	s = xasprintf("%s%s%s%s", klass, *klass && *m->name ? "." : "", m->name,
	              args);
	free(klass);
	free(args);
	return s;
}

/* FNV-1a of class, a zero byte and name: methods of one class and name
 * share it. */
static uint64_t
class_name_hash(const struct tt_method *m)
{
	uint64_t h = hash_bytes(HASH_SEED, m->klass, strlen(m->klass) + 1);

	return hash_bytes(h, m->name, strlen(m->name));
}

struct method_names *
method_names_new(const struct calltree *tree)
{
	struct method_names *names = xcalloc(1, sizeof(*names));
	size_t n = tree->nmethods, i;
	uint64_t *by_short = xcalloc(n + 1, sizeof(*by_short));
	uint64_t *by_class = xcalloc(n + 1, sizeof(*by_class));
	struct util_map shorts, classes;
	uint32_t a, b;

	names->tree = tree;
	names->flags = xcalloc(n + 1, 1);
	util_map_init(&shorts);
	util_map_init(&classes);
	for (i = 0; i < n; i++) {
		char *s = short_name(&tree->methods[i], false, false);

		by_short[i] = hash_bytes(HASH_SEED, s, strlen(s));
		by_class[i] = class_name_hash(&tree->methods[i]);
		(*util_map_slot(&shorts, by_short[i], 0))++;
		(*util_map_slot(&classes, by_class[i], 0))++;
		free(s);
	}
	for (i = 0; i < n; i++) {
		util_map_get(&shorts, by_short[i], &a);
		util_map_get(&classes, by_class[i], &b);
		/* More methods share the short name than the class and
		 * name: some have another class. */
		if (a > b)
			names->flags[i] |= NAME_WHOLE_CLASS;
		if (b > 1)
			names->flags[i] |= NAME_PARAMS;
	}
	util_map_done(&shorts);
	util_map_done(&classes);
	free(by_short);
	free(by_class);
	return names;
}

void
method_names_free(struct method_names *names)
{
	if (!names)
		return;
	free(names->flags);
	free(names);
}

char *
method_names_get(const struct method_names *names, uint32_t m, bool full)
{
	const struct tt_method *meth = &names->tree->methods[m];

	if (full)
		return method_full_name(meth);
	return short_name(meth, names->flags[m] & NAME_WHOLE_CLASS,
	                  names->flags[m] & NAME_PARAMS);
}

char *
method_source(const struct tt_method *m)
{
	if (!m->file || !m->file[0])
		return NULL;
	if (m->line >= 0)
		return xasprintf("%s:%ld", m->file, m->line);
	return xstrdup(m->file);
}

char *
method_name_with_source(const struct tt_method *m)
{
	char *name = method_full_name(m), *src = method_source(m), *both;

	if (!src)
		return name;
	both = xasprintf("%s  (%s)", name, src);
	free(name);
	free(src);
	return both;
}
