/*
 * unit-util: the small building blocks under the readers and the views.
 *
 *   util-map     insert, overwrite, slot, remove with backward shift
 *                (clusters of keys sharing a home slot, wrapping round
 *                the end of the table), 100k random operations checked
 *                against a brute-force model;
 *   util-arena   alignment, many strings (across chunks and around a big
 *                block) stay intact, the byte statistics;
 *   text-width   columns of ASCII, CJK, combining marks, emoji, invalid
 *                UTF-8 and control characters (escaped as \xNN), the
 *                exact text_escape output, text_is_clean;
 *   table        exact TEXT, TSV, CSV and JSON output (quoting, escaping
 *                of quotes, control characters and invalid UTF-8; CSV's
 *                text cells that begin a formula after a ', numbers
 *                bare);
 *   pattern      the regex limits at their edges: 100 nested groups
 *                pass and 101 do not, 4096 bytes pass and 4097 do not,
 *                repetitions expanding to 100000 atoms pass and one
 *                more do not, bracketed and escaped parentheses are no
 *                groups, and what passes compiles; {,n} is {0,n}, runs
 *                of optional copies cost their square, nested ones
 *                multiplying: the patterns that took regcomp gigabytes
 *                are refused, and every pattern passed (a fixed list,
 *                then random nests of intervals, optional parts and
 *                alternatives: 40, 400 with TRACETUI_LONG) compiles in
 *                at most 64 MB, in a child with 1 GB of address space.
 *
 * Every expected value is a literal worked out by hand.
 */
#include "config.h"

#include "text/duration.h"
#include "text/table.h"
#include "text/width.h"
#include "util/arena.h"
#include "util/map.h"
#include "util/pattern.h"

#include "rng.h"
#include "tap.h"

#include <stdalign.h>
#include <stddef.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * The map's hash (the MurmurHash3 64-bit finaliser), copied here only to
 * choose keys that really share a home slot.  The test then checks where
 * they landed, so a change of hash shows up as a failed premise rather
 * than as a test that silently stops testing collisions.
 */
static uint64_t
fmix64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	k ^= k >> 33;
	return k;
}

/* The n-th key (n from 0) above `after` whose hash has low bits `home`. */
static uint64_t
key_with_home(uint64_t *after, uint64_t mask, uint64_t home)
{
	uint64_t k = *after;

	do
		k++;
	while ((fmix64(k) & mask) != home);
	*after = k;
	return k;
}

static bool
map_has(const struct util_map *m, uint64_t key, uint32_t want)
{
	uint32_t v = 0xDEADBEEF;

	return util_map_get(m, key, &v) && v == want;
}

static bool
map_lacks(const struct util_map *m, uint64_t key)
{
	uint32_t v = 0xDEADBEEF;

	return !util_map_get(m, key, &v) && v == 0xDEADBEEF;
}

static void
test_map_basic(void)
{
	struct util_map m;
	uint32_t *slot;

	util_map_init(&m);
	ok(map_lacks(&m, 1), "map: get on an empty map finds nothing");
	util_map_remove(&m, 1); /* must not crash on an empty map */
	is_u64(m.count, 0, "map: remove on an empty map is a no-op");

	util_map_put(&m, 1, 10);
	ok(map_has(&m, 1, 10), "map: put then get");
	util_map_put(&m, 1, 11);
	ok(map_has(&m, 1, 11), "map: put overwrites");
	is_u64(m.count, 1, "map: overwrite keeps one entry");

	/* Key 0 and the all-ones key are ordinary keys (no sentinel). */
	util_map_put(&m, 0, 7);
	util_map_put(&m, UINT64_MAX, 8);
	ok(map_has(&m, 0, 7), "map: key 0 is an ordinary key");
	ok(map_has(&m, UINT64_MAX, 8), "map: key ~0 is an ordinary key");
	is_u64(m.count, 3, "map: three keys");

	/* slot inserts the default when absent, keeps the value when not. */
	slot = util_map_slot(&m, 42, 5);
	is_u64(*slot, 5, "map: slot of a new key holds the default");
	*slot = 6;
	ok(map_has(&m, 42, 6), "map: writing through a slot sticks");
	slot = util_map_slot(&m, 42, 99);
	is_u64(*slot, 6, "map: slot of a present key keeps its value");
	is_u64(m.count, 4, "map: four keys");

	util_map_remove(&m, 1);
	ok(map_lacks(&m, 1), "map: removed key is gone");
	util_map_remove(&m, 12345); /* absent: no-op */
	is_u64(m.count, 3, "map: removing an absent key changes nothing");
	ok(map_has(&m, 0, 7) && map_has(&m, UINT64_MAX, 8) &&
	           map_has(&m, 42, 6),
	   "map: the other keys survive");
	util_map_done(&m);
	is_u64(m.count, 0, "map: done empties the map");
}

/*
 * A 16-slot table (at most 8 keys keep it at 16): three keys a1..a3 whose
 * home is slot 14, two b1, b2 at home 15 and one c1 at home 0.  Inserted
 * in the order a1 b1 a2 c1 a3 b2 they land at
 *   a1:14  b1:15  a2:0  c1:1  a3:2  b2:3
 * (the cluster wraps round the end).  Removing a1 must shift a2 back to
 * 14, c1 to 0, a3 to 1, b2 to 2 and leave b1 at its home 15; then every
 * remaining key must still be found.
 */
static void
test_map_wrapping_cluster(void)
{
	struct util_map m;
	uint64_t next = 0, a1, a2, a3, b1, b2, c1;

	a1 = key_with_home(&next, 15, 14);
	a2 = key_with_home(&next, 15, 14);
	a3 = key_with_home(&next, 15, 14);
	next = 0;
	b1 = key_with_home(&next, 15, 15);
	b2 = key_with_home(&next, 15, 15);
	next = 0;
	c1 = key_with_home(&next, 15, 0);

	util_map_init(&m);
	util_map_put(&m, a1, 1);
	util_map_put(&m, b1, 2);
	util_map_put(&m, a2, 3);
	util_map_put(&m, c1, 4);
	util_map_put(&m, a3, 5);
	util_map_put(&m, b2, 6);
	is_u64(m.mask, 15, "cluster: six keys keep a 16-slot table");
	ok(m.keys[14] == a1 && m.keys[15] == b1 && m.keys[0] == a2 &&
	           m.keys[1] == c1 && m.keys[2] == a3 && m.keys[3] == b2 &&
	           !m.used[4],
	   "cluster: premise: the keys form one run 14..3 wrapping round");

	util_map_remove(&m, a1);
	ok(map_lacks(&m, a1), "cluster: a1 removed");
	ok(map_has(&m, b1, 2) && map_has(&m, a2, 3) && map_has(&m, c1, 4) &&
	           map_has(&m, a3, 5) && map_has(&m, b2, 6),
	   "cluster: after removing a1 the five others are found");
	ok(m.keys[14] == a2 && m.keys[15] == b1 && m.keys[0] == c1 &&
	           m.keys[1] == a3 && m.keys[2] == b2 && !m.used[3],
	   "cluster: backward shift moved a2->14 c1->0 a3->1 b2->2, b1 "
	   "stayed");

	util_map_remove(&m, b1);
	ok(map_has(&m, a2, 3) && map_has(&m, c1, 4) && map_has(&m, a3, 5) &&
	           map_has(&m, b2, 6) && map_lacks(&m, b1),
	   "cluster: after removing b1 the four others are found");
	util_map_remove(&m, c1);
	ok(map_has(&m, a2, 3) && map_has(&m, a3, 5) && map_has(&m, b2, 6) &&
	           map_lacks(&m, c1),
	   "cluster: after removing c1 the three others are found");
	is_u64(m.count, 3, "cluster: three keys left");
	util_map_put(&m, a1, 11);
	util_map_put(&m, c1, 14);
	ok(map_has(&m, a1, 11) && map_has(&m, a2, 3) && map_has(&m, a3, 5) &&
	           map_has(&m, b2, 6) && map_has(&m, c1, 14),
	   "cluster: reinserting removed keys works");
	util_map_done(&m);
}

/*
 * 300 keys whose hashes share their low 10 bits: at every table size up
 * to 1024 slots (300 keys need 1024: the table doubles once count + 1
 * exceeds half of it) they all have the same home, so they form a single
 * run of 300.  Remove every third, then check the 200 others one by one.
 */
static void
test_map_many_collisions(void)
{
	enum { N = 300 };
	static uint64_t keys[N];
	struct util_map m;
	uint64_t next = 0;
	size_t i, found = 0, gone = 0;

	for (i = 0; i < N; i++)
		keys[i] = key_with_home(&next, 1023, 5);
	util_map_init(&m);
	for (i = 0; i < N; i++)
		util_map_put(&m, keys[i], (uint32_t)i);
	is_u64(m.mask, 1023, "collide: 300 keys live in 1024 slots");
	is_u64(m.count, 300, "collide: 300 keys");
	ok(m.keys[5] == keys[0] && m.keys[304] == keys[299] && !m.used[305],
	   "collide: premise: one run from slot 5 to slot 304");
	for (i = 0; i < N; i += 3)
		util_map_remove(&m, keys[i]);
	is_u64(m.count, 200, "collide: 100 removed, 200 left");
	for (i = 0; i < N; i++) {
		if (i % 3 == 0)
			gone += map_lacks(&m, keys[i]);
		else
			found += map_has(&m, keys[i], (uint32_t)i);
	}
	is_u64(found, 200, "collide: the 200 kept keys are all found");
	is_u64(gone, 100, "collide: the 100 removed keys are all gone");
	/* Remove the rest from the middle of the run outwards. */
	for (i = N / 2; i < N; i++)
		if (i % 3)
			util_map_remove(&m, keys[i]);
	found = 0;
	for (i = 0; i < N / 2; i++)
		if (i % 3)
			found += map_has(&m, keys[i], (uint32_t)i);
	is_u64(found, 100, "collide: the 100 keys of the first half remain");
	is_u64(m.count, 100, "collide: count agrees");
	util_map_done(&m);
}

static uint64_t
xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

/*
 * 100 000 random operations (60% put, 25% remove, 15% get) on keys drawn
 * from 20 000 slots of a brute-force model, each slot standing for a
 * scattered 64-bit key.  Every get is compared as it happens; at the end
 * every one of the 20 000 keys is compared and the counts must agree.
 */
static void
test_map_random(void)
{
	enum { SLOTS = 20000, OPS = 100000 };
	static bool present[SLOTS];
	static uint32_t value[SLOTS];
	struct util_map m;
	uint64_t seed = 0x9E3779B97F4A7C15ULL;
	size_t i, live = 0, bad_get = 0, bad_end = 0, gets = 0;

	util_map_init(&m);
	for (i = 0; i < OPS; i++) {
		uint64_t r = xorshift(&seed);
		size_t s = (size_t)(r >> 16) % SLOTS;
		uint64_t key = (uint64_t)s * 0x9E3779B97F4A7C15ULL + 12345;
		unsigned op = (unsigned)(r % 100);

		if (op < 60) {
			uint32_t v = (uint32_t)(r >> 32);

			util_map_put(&m, key, v);
			live += !present[s];
			present[s] = true;
			value[s] = v;
		} else if (op < 85) {
			util_map_remove(&m, key);
			live -= present[s];
			present[s] = false;
		} else {
			gets++;
			if (present[s] ? !map_has(&m, key, value[s])
			               : !map_lacks(&m, key))
				bad_get++;
		}
	}
	for (i = 0; i < SLOTS; i++) {
		uint64_t key = (uint64_t)i * 0x9E3779B97F4A7C15ULL + 12345;

		if (present[i] ? !map_has(&m, key, value[i])
		               : !map_lacks(&m, key))
			bad_end++;
	}
	ok(gets > 10000, "random: %zu gets checked along the way", gets);
	is_u64(bad_get, 0, "random: every get agreed with the model");
	is_u64(bad_end, 0, "random: all 20000 keys agree at the end");
	is_u64(m.count, live, "random: count equals the model's");
	util_map_done(&m);
}

static void
test_arena(void)
{
	enum { NSTR = 20000 };
	static char *strs[NSTR];
	struct util_arena a;
	size_t i, aligned = 0, intact = 0, expect_total;
	unsigned char *big = NULL;
	char buf[32];
	bool big_ok = true;
	char *p;

	util_arena_init(&a);
	/* Odd sizes in a row: each block must still be max-aligned. */
	for (i = 1; i <= 64; i++) {
		unsigned char *q = util_arena_alloc(&a, i);

		memset(q, 0xAB, i);
		aligned += (uintptr_t)q % alignof(max_align_t) == 0;
	}
	is_u64(aligned, 64, "arena: 64 odd-sized blocks all max-aligned");
	/* 1 + 2 + ... + 64 = 64 * 65 / 2 = 2080 bytes handed out. */
	is_u64(a.total, 2080, "arena: total counts the bytes asked for");

	p = util_arena_strndup(&a, "hello, world", 5);
	is_str(p, "hello", "arena: strndup copies len bytes and ends them");
	expect_total = 2080 + 6;
	is_u64(a.total, expect_total, "arena: strndup counts len + 1");

	/* 20000 strings of 8 to 15 bytes cross several 64 KiB chunks; a
	 * 100000-byte block in the middle gets a chunk of its own. */
	for (i = 0; i < NSTR; i++) {
		int n = snprintf(buf, sizeof(buf), "s%07zu%.*s", i,
		                 (int)(i % 8), "-------");

		strs[i] = util_arena_strndup(&a, buf, (size_t)n);
		if (i == NSTR / 2) {
			big = util_arena_alloc(&a, 100000);
			aligned = (uintptr_t)big % alignof(max_align_t) == 0;
			memset(big, 0x5A, 100000);
		}
	}
	ok(aligned, "arena: the big block is max-aligned");
	for (i = 0; i < NSTR; i++) {
		snprintf(buf, sizeof(buf), "s%07zu%.*s", i, (int)(i % 8),
		         "-------");
		intact += strcmp(strs[i], buf) == 0;
	}
	is_u64(intact, NSTR, "arena: all 20000 strings intact");
	for (i = 0; i < 100000; i++)
		if (big[i] != 0x5A)
			big_ok = false;
	ok(big_ok, "arena: the big block is intact");
	is_str(p, "hello", "arena: the first string is intact");
	/* Strings: 8 + i%8 characters + NUL, i.e. 9..16 bytes; over 20000
	 * strings (2500 of each length) that is 2500 * (9+...+16) = 2500 *
	 * 100 = 250000; plus the big block. */
	is_u64(a.total, expect_total + 250000 + 100000,
	       "arena: total after the strings and the big block");
	util_arena_done(&a);
	ok(a.head == NULL && a.total == 0, "arena: done releases everything");
}

static void
test_text_width(void)
{
	char *s;

	is_u64(text_width(""), 0, "width: empty");
	is_u64(text_width("abc"), 3, "width: ASCII");
	is_u64(text_width("\xE6\x96\x87\xE5\xAD\x97"), 4,
	       "width: CJK \"文字\" is 4 columns");
	is_u64(text_width("e\xCC\x81"), 1, "width: e + U+0301 is 1 column");
	is_u64(text_width("\xC3\xA9"), 1, "width: precomposed é is 1");
	is_u64(text_width("\xF0\x9F\x98\x80"), 2, "width: emoji U+1F600 is 2");
	is_u64(text_width("\xFF"), 4, "width: byte 0xFF shows as \\xFF: 4");
	is_u64(text_width("a\xFF"
	                  "b"),
	       6, "width: a\\xFFb is 6");
	is_u64(text_width("\x1B"), 4, "width: ESC shows as \\x1B: 4");
	/* ESC [ 3 1 m: \x1B plus the 4 printable characters. */
	is_u64(text_width("\x1B[31m"), 8, "width: ESC[31m is 8");
	is_u64(text_width("\t"), 4, "width: TAB is escaped: 4");
	is_u64(text_width("\x7F"), 4, "width: DEL is escaped: 4");
	/* U+0085 (NEL, a C1 control) is C2 85: two escaped bytes. */
	is_u64(text_width("\xC2\x85"), 8, "width: C1 control U+0085 is 8");
	/* A CJK character cut after two of its three bytes. */
	is_u64(text_width("\xE6\x96"), 8, "width: truncated sequence is 8");
	/* Modified-UTF-8 NUL (overlong C0 80): a NUL inside a name, as
	 * the readers keep it (trace_name_dup), shown as \x00. */
	is_u64(text_width("\xC0\x80"), 4, "width: C0 80 (a NUL) is 4");
	/* A literal U+FFFD is a valid, printable character. */
	is_u64(text_width("\xEF\xBF\xBD"), 1, "width: a real U+FFFD is 1");
	/* UTF-8-encoded surrogate U+D800 (ED A0 80) is invalid UTF-8. */
	is_u64(text_width("\xED\xA0\x80"), 12, "width: surrogate is 12");

	s = text_escape("plain");
	is_str(s, "plain", "escape: ASCII unchanged");
	free(s);
	s = text_escape("\xE6\x96\x87\xE5\xAD\x97 e\xCC\x81 \xF0\x9F\x98\x80");
	is_str(s, "\xE6\x96\x87\xE5\xAD\x97 e\xCC\x81 \xF0\x9F\x98\x80",
	       "escape: CJK, combining mark and emoji unchanged");
	free(s);
	s = text_escape("a\xFF"
	                "b");
	is_str(s, "a\\xFFb", "escape: 0xFF becomes \\xFF");
	free(s);
	s = text_escape("\x1B[2J");
	is_str(s, "\\x1B[2J", "escape: ESC becomes \\x1B");
	free(s);
	s = text_escape("a\tb\nc\rd\x7F");
	is_str(s, "a\\x09b\\x0Ac\\x0Dd\\x7F", "escape: TAB, LF, CR and DEL");
	free(s);
	s = text_escape("\xC0\x80");
	is_str(s, "\\x00",
	       "escape: modified-UTF-8 NUL (a NUL in a name) as \\x00");
	free(s);
	s = text_escape("x\xE6\x96");
	is_str(s, "x\\xE6\\x96", "escape: truncated sequence, byte by byte");
	free(s);
	s = text_escape("\xC2\x85");
	is_str(s, "\\xC2\\x85", "escape: C1 control U+0085");
	free(s);
	s = text_escape("\xED\xA0\x80");
	is_str(s, "\\xED\\xA0\\x80", "escape: surrogate, byte by byte");
	free(s);
	s = text_escape("");
	is_str(s, "", "escape: empty");
	free(s);

	ok(text_is_clean(""), "clean: empty");
	ok(text_is_clean("java.lang.String"), "clean: ASCII");
	ok(text_is_clean("\xE6\x96\x87\xE5\xAD\x97 e\xCC\x81 \xF0\x9F\x98\x80"),
	   "clean: CJK, combining mark, emoji");
	ok(!text_is_clean("a\x1B"), "clean: ESC is not clean");
	ok(!text_is_clean("\xFF"), "clean: 0xFF is not clean");
	ok(!text_is_clean("a\tb"), "clean: TAB is not clean");
	ok(!text_is_clean("a\n"), "clean: LF is not clean");
	ok(!text_is_clean("\xC0\x80"), "clean: C0 80 is not clean");
}

/* Print t in format f into a string (caller frees). */
static char *
print_to_string(const struct table *t, enum table_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	table_print(t, out, f);
	fclose(out);
	return buf;
}

static char *
json_of(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	table_json_string(out, s);
	fclose(out);
	return buf;
}

/* Rows printed one at a time with the widths a table would find come
 * out as the table prints them, in text and in TSV. */
static void
test_table_rows(void)
{
	static const char *const names[] = {"thread", "n", "name"};
	static const enum table_kind kinds[] = {TABLE_STRING, TABLE_NUMBER,
	                                        TABLE_STRING};
	static const char *const rows[][3] = {
	        {"main", "7", "a.B c()V"},
	        {"w\x1Bide", "12345", "\xE2\x80\xAEx"},
	        {"", "0", "tab\there"},
	};
	static const size_t widths[] = {8, 5, 0};
	enum table_format f;
	size_t r;

	for (f = TABLE_TEXT; f <= TABLE_TSV; f++) {
		struct table *t = table_new(3, names, kinds);
		char *want, *got = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&got, &len);

		table_print_row(out, f, 3, names, kinds, widths);
		for (r = 0; r < 3; r++) {
			table_row(t);
			table_str(t, rows[r][0]);
			table_str(t, rows[r][1]);
			table_str(t, rows[r][2]);
			table_print_row(out, f, 3, rows[r], kinds, widths);
		}
		fclose(out);
		want = print_to_string(t, f);
		is_str(got, want, "table_print_row: as table_print, %s",
		       f == TABLE_TEXT ? "text" : "TSV");
		is_u64(table_nrows(t), 3, "table_nrows counts the rows");
		free(want);
		free(got);
		table_free(t);
	}
}

/* fill_rows: n rows of the test_table_streamed table into t. */
static void
fill_rows(struct table *t, size_t n)
{
	static const char *const names[] = {"main", "w\x1Bide", "",
	                                    "\xE2\x80\xAEx", "tab\there"};
	size_t r;

	for (r = 0; r < n; r++) {
		table_row(t);
		table_str(t, names[r % 5]);
		table_u64(t, (uint64_t)r * 977 % 100003);
		if (r % 3)
			table_str(t, names[(r + 2) % 5]);
		else
			table_empty(t);
	}
}

/* fill_rows for table_print_rows: the table and the count, in a pair. */
struct fill {
	struct table *t;
	size_t n;
};

static void
fill_streamed(void *arg, bool measuring)
{
	const struct fill *f = arg;

	(void)measuring;
	fill_rows(f->t, f->n);
}

/* Rows streamed by table_print_rows: the output table_print gives the
 * rows held, in every format, for no row, one and many. */
static void
test_table_streamed(void)
{
	static const char *const names[] = {"thread", "n", "name"};
	static const enum table_kind kinds[] = {TABLE_STRING, TABLE_NUMBER,
	                                        TABLE_STRING};
	static const char *const fmt_names[] = {"text", "TSV", "CSV", "JSON"};
	static const size_t counts[] = {0, 1, 40};
	enum table_format f;
	size_t c;

	for (f = TABLE_TEXT; f <= TABLE_JSON; f++) {
		for (c = 0; c < 3; c++) {
			struct table *held = table_new(3, names, kinds);
			struct table *t = table_new(3, names, kinds);
			char *want, *got = NULL;
			size_t len = 0;
			FILE *out = open_memstream(&got, &len);
			struct fill rows = {t, counts[c]};

			fill_rows(held, counts[c]);
			want = print_to_string(held, f);
			table_print_rows(t, out, f, fill_streamed, &rows);
			fclose(out);
			is_str(got, want, "streamed as held: %s, %zu rows",
			       fmt_names[f], counts[c]);
			free(want);
			free(got);
			table_free(held);
			table_free(t);
		}
	}
}

static void
test_table(void)
{
	static const char *const names[] = {"method", "calls", "note"};
	static const enum table_kind kinds[] = {TABLE_STRING, TABLE_NUMBER,
	                                        TABLE_STRING};
	struct table *t = table_new(3, names, kinds);
	char *s;

	table_row(t);
	table_str(t, "a.B c()V");
	table_u64(t, 12);
	table_str(t, "plain");
	table_row(t);
	table_str(t, "x,y");
	table_i64(t, -3);
	table_str(t, "say \"hi\"");
	table_row(t);
	table_str(t, "tab\there");
	table_fmt(t, "%.1f", 2.5);
	/* no third cell: the next table_row pads it with an empty one */
	table_row(t);
	table_str(t, "esc\x1B"
	             "bad\xFF");
	table_u64(t, 0);
	table_str(t, "line\nbreak");
	table_row(t);
	table_empty(t);
	table_empty(t);
	table_empty(t);

	/* TSV: cells as escaped text, nothing quoted; empty cells print
	 * nothing between the tabs. */
	s = print_to_string(t, TABLE_TSV);
	is_str(s,
	       "method\tcalls\tnote\n"
	       "a.B c()V\t12\tplain\n"
	       "x,y\t-3\tsay \"hi\"\n"
	       "tab\\x09here\t2.5\t\n"
	       "esc\\x1Bbad\\xFF\t0\tline\\x0Abreak\n"
	       "\t\t\n",
	       "table: TSV");
	free(s);

	/* CSV: a cell with a comma or a quote is quoted, quotes doubled. */
	s = print_to_string(t, TABLE_CSV);
	is_str(s,
	       "method,calls,note\n"
	       "a.B c()V,12,plain\n"
	       "\"x,y\",-3,\"say \"\"hi\"\"\"\n"
	       "tab\\x09here,2.5,\n"
	       "esc\\x1Bbad\\xFF,0,line\\x0Abreak\n"
	       ",,\n",
	       "table: CSV");
	free(s);

	/* JSON: strings escaped, numbers bare, empty cells null. */
	s = print_to_string(t, TABLE_JSON);
	is_str(s,
	       "[\n"
	       "  {\"method\": \"a.B c()V\", \"calls\": 12, "
	       "\"note\": \"plain\"},\n"
	       "  {\"method\": \"x,y\", \"calls\": -3, "
	       "\"note\": \"say \\\"hi\\\"\"},\n"
	       "  {\"method\": \"tab\\there\", \"calls\": 2.5, "
	       "\"note\": null},\n"
	       "  {\"method\": \"esc\\u001bbad\\ufffd\", \"calls\": 0, "
	       "\"note\": \"line\\nbreak\"},\n"
	       "  {\"method\": null, \"calls\": null, \"note\": null}\n"
	       "]\n",
	       "table: JSON");
	free(s);
	table_free(t);

	/* TEXT: columns padded to the widest cell in terminal columns
	 * (文字 is 4 wide, ESC shows as \x1B, 4 wide); strings left-,
	 * numbers right-aligned; two spaces apart; the last string column
	 * is not padded.
	 *   col 0 width max(4 "name", 4 "文字", 2 "ab", 4 "\x1B") = 4
	 *   col 1 width max(1 "n", 1, 3, 2) = 3 */
	{
		static const char *const n2[] = {"name", "n"};
		static const enum table_kind k2[] = {TABLE_STRING,
		                                     TABLE_NUMBER};
		struct table *t2 = table_new(2, n2, k2);

		table_row(t2);
		table_str(t2, "\xE6\x96\x87\xE5\xAD\x97");
		table_u64(t2, 5);
		table_row(t2);
		table_str(t2, "ab");
		table_u64(t2, 123);
		table_row(t2);
		table_str(t2, "\x1B");
		table_u64(t2, 42);
		s = print_to_string(t2, TABLE_TEXT);
		is_str(s,
		       "name    n\n"
		       "\xE6\x96\x87\xE5\xAD\x97    5\n"
		       "ab    123\n"
		       "\\x1B   42\n",
		       "table: TEXT aligned by display width");
		free(s);
		table_free(t2);
	}
	{
		static const char *const n3[] = {"a"};
		static const enum table_kind k3[] = {TABLE_STRING};
		struct table *t3 = table_new(1, n3, k3);

		s = print_to_string(t3, TABLE_JSON);
		is_str(s, "[\n]\n", "table: JSON of no rows");
		free(s);
		s = print_to_string(t3, TABLE_CSV);
		is_str(s, "a\n", "table: CSV of no rows is the header");
		free(s);
		table_free(t3);
	}

	{
		/* Text cells that a spreadsheet would run as formulas get a
		 * ' before them (inside the quotes where there are any);
		 * numbers the program wrote stay numbers, signs and all; a
		 * number column's cell that is no number is text. */
		static const char *const n4[] = {"name", "delta"};
		static const enum table_kind k4[] = {TABLE_STRING,
		                                     TABLE_NUMBER};
		static const char *const cells[][2] = {
		        {"=cmd|' /C calc'!A0", "-12.5"},
		        {"+SUM(1)", "+3.00%"},
		        {"-2+3", "1e-3"},
		        {"@SUM(A1,A2)", "=1+1"},
		        {"\tx", "-"},
		        {"\rx", "12"},
		        {"a=b", "-1.5E+2"},
		};
		struct table *t4 = table_new(2, n4, k4);
		size_t i;

		for (i = 0; i < sizeof(cells) / sizeof(*cells); i++) {
			table_row(t4);
			table_str(t4, cells[i][0]);
			table_str(t4, cells[i][1]);
		}
		s = print_to_string(t4, TABLE_CSV);
		is_str(s,
		       "name,delta\n"
		       "'=cmd|' /C calc'!A0,-12.5\n"
		       "'+SUM(1),+3.00%\n"
		       "'-2+3,1e-3\n"
		       "\"'@SUM(A1,A2)\",'=1+1\n"
		       "'\\x09x,'-\n"
		       "'\\x0Dx,12\n"
		       "a=b,-1.5E+2\n",
		       "table: CSV formula cells neutralized, numbers kept");
		free(s);
		s = print_to_string(t4, TABLE_TSV);
		ok(strstr(s, "\n=cmd") != NULL,
		   "table: TSV cells are as they were");
		free(s);
		table_free(t4);
	}

	s = json_of("q\"b\\s/");
	is_str(s, "\"q\\\"b\\\\s/\"", "json: quote and backslash escaped");
	free(s);
	s = json_of("\n\t\r\b\x01\x1F\x7F");
	is_str(s, "\"\\n\\t\\u000d\\u0008\\u0001\\u001f\\u007f\"",
	       "json: control characters");
	free(s);
	s = json_of("\xE6\x96\x87\xE5\xAD\x97\xF0\x9F\x98\x80\xC3\xA9");
	is_str(s, "\"\xE6\x96\x87\xE5\xAD\x97\xF0\x9F\x98\x80\xC3\xA9\"",
	       "json: valid UTF-8 copied as is");
	free(s);
	s = json_of("a\xFF"
	            "b");
	is_str(s, "\"a\\ufffdb\"", "json: 0xFF becomes \\ufffd");
	free(s);
	s = json_of("\xC0\x80");
	is_str(s, "\"\\u0000\"",
	       "json: modified-UTF-8 NUL C0 80 (a NUL in a name) is \\u0000");
	free(s);
	s = json_of("x\xE6\x96");
	is_str(s, "\"x\\ufffd\\ufffd\"",
	       "json: a sequence cut by the end of the string");
	free(s);
	s = json_of("\x80z");
	is_str(s, "\"\\ufffdz\"", "json: a lone continuation byte");
	free(s);
	/* Not well-formed UTF-8 either (RFC 3629): an encoded surrogate
	 * (ED A0 80, as modified UTF-8 writes supplementary characters),
	 * a lead byte above F4, and an overlong 3-byte form.  Each byte
	 * is a maximal ill-formed subpart of its own, so each becomes one
	 * U+FFFD. */
	s = json_of("\xED\xA0\x80");
	is_str(s, "\"\\ufffd\\ufffd\\ufffd\"",
	       "json: encoded surrogate ED A0 80 becomes three \\ufffd");
	free(s);
	s = json_of("\xF5\x80\x80\x80");
	is_str(s, "\"\\ufffd\\ufffd\\ufffd\\ufffd\"",
	       "json: lead byte F5 is never valid");
	free(s);
	s = json_of("\xE0\x80\xAF");
	is_str(s, "\"\\ufffd\\ufffd\\ufffd\"",
	       "json: overlong E0 80 AF is invalid");
	free(s);

	is_u64((uint64_t)table_format_parse("text"), TABLE_TEXT,
	       "format: text");
	is_u64((uint64_t)table_format_parse("tsv"), TABLE_TSV, "format: tsv");
	is_u64((uint64_t)table_format_parse("csv"), TABLE_CSV, "format: csv");
	is_u64((uint64_t)table_format_parse("json"), TABLE_JSON,
	       "format: json");
	ok(table_format_parse("xml") == -1, "format: xml is unknown");
}

/* Durations: exact milliseconds, and a column that never overflows. */
static void
test_duration(void)
{
	char b[DURATION_SIZE];

	is_str(duration_ms(b, sizeof(b), 0), "0.000", "ms: zero");
	is_str(duration_ms(b, sizeof(b), 1234567), "1234.567", "ms: exact");
	is_str(duration_ms_signed(b, sizeof(b), -250), "-0.250", "ms: minus");
	is_str(duration_ms_signed(b, sizeof(b), 1500), "+1.500", "ms: plus");
	is_str(duration_ms_signed(b, sizeof(b), 0), "0.000", "ms: no sign");
	is_str(duration_ms_signed(b, sizeof(b), INT64_MIN),
	       "-9223372036854775.808", "ms: the least change");
	is_str(duration_ms_fit(b, sizeof(b), 1234567, 10), "1234.567",
	       "fit: fits as is");
	is_str(duration_ms_fit(b, sizeof(b), 1234567, 7), "1234.57",
	       "fit: two decimals, rounded");
	is_str(duration_ms_fit(b, sizeof(b), 5846530210, 9), "5846530.2",
	       "fit: one decimal");
	is_str(duration_ms_fit(b, sizeof(b), 5846530210, 7), "5846530",
	       "fit: whole milliseconds");
	is_str(duration_ms_fit(b, sizeof(b), 58465302100, 7), "58465s",
	       "fit: seconds past the milliseconds' width");
	is_str(duration_ms_fit(b, sizeof(b), 5846530210, 6), "5847s",
	       "fit: whole seconds, rounded");
	is_str(duration_label(b, sizeof(b), 950, true), "950us", "label: us");
	is_str(duration_label(b, sizeof(b), 12345, false), "12.345ms",
	       "label: ms");
	is_str(duration_label(b, sizeof(b), 3200000, false), "3.200s",
	       "label: s");
	is_str(duration_tick(b, sizeof(b), 3000000, 1000000, false), "3 s",
	       "tick: s");
	is_str(duration_tick(b, sizeof(b), 400000, 200000, false), "400 ms",
	       "tick: ms");
	is_str(duration_tick(b, sizeof(b), 50, 10, true), "50 us", "tick: us");
	/* The unit the time reaches, with the decimals its step needs,
	 * never the step's unit alone (5001500µs). */
	is_str(duration_tick(b, sizeof(b), 5001500, 100, false), "5.0015 s",
	       "tick: seconds with the step's decimals");
	is_str(duration_tick(b, sizeof(b), 5001501, 1, false), "5.001501 s",
	       "tick: seconds to the microsecond");
	is_str(duration_tick(b, sizeof(b), 697700, 100, true), "697.7 ms",
	       "tick: milliseconds with a decimal");
	is_str(duration_tick(b, sizeof(b), 0, 5000, false), "0 ms",
	       "tick: zero in the step's unit");
	is_str(duration_s(b, sizeof(b), 4000000499), "4000.000",
	       "seconds: rounded to the millisecond, down");
	is_str(duration_s(b, sizeof(b), 4000000500), "4000.001",
	       "seconds: rounded to the millisecond, up");
}

/* A new string: n times text, then tail. */
static char *
repeated(const char *text, size_t n, const char *tail)
{
	size_t len = strlen(text), i;
	char *s = malloc(len * n + strlen(tail) + 1), *p = s;

	for (i = 0; i < n; i++, p += len)
		memcpy(p, text, len);
	strcpy(p, tail);
	return s;
}

static void
test_pattern(void)
{
	char *s, *t, why[128];
	regex_t re;

	s = repeated("(", 100, "a");
	t = repeated(")", 100, "");
	s = realloc(s, strlen(s) + strlen(t) + 1);
	strcat(s, t);
	ok(!pattern_refusal(s), "100 nested groups pass");
	ok(pattern_compile(&re, s, REG_EXTENDED | REG_NOSUB, why,
	                   sizeof(why)) == 0 &&
	           regexec(&re, "xay", 0, NULL, 0) == 0,
	   "and compile and match");
	regfree(&re);
	free(s);
	free(t);
	s = repeated("(", 101, "a");
	is_str(pattern_refusal(s), "nested deeper than 100 parentheses",
	       "101 open groups are refused, closed or not");
	ok(pattern_compile(&re, s, REG_EXTENDED, why, sizeof(why)) != 0 &&
	           strcmp(why, "nested deeper than 100 parentheses") == 0,
	   "pattern_compile gives the reason");
	free(s);
	s = repeated("[(]", 200, "");
	ok(!pattern_refusal(s), "200 bracketed ( are no groups");
	free(s);
	s = repeated("\\(", 200, "");
	ok(!pattern_refusal(s), "200 escaped ( are no groups");
	free(s);
	s = repeated("[[:alpha:](]", 200, "");
	ok(!pattern_refusal(s), "a class inside brackets ends no bracket");
	free(s);
	s = repeated("a", 4096, "");
	ok(!pattern_refusal(s), "4096 bytes pass");
	free(s);
	s = repeated("a", 4097, "");
	is_str(pattern_refusal(s), "longer than 4096 bytes",
	       "4097 bytes are refused");
	free(s);
	ok(!pattern_refusal("(a{100}){1000}"),
	   "100 x 1000 = 100000 atoms pass");
	ok(pattern_refusal("(a{100}){1000}b") != NULL,
	   "one atom more is refused");
	ok(pattern_refusal("((a{10}){10}){1001}") != NULL,
	   "nested repetitions multiply: 10 x 10 x 1001");
	ok(!pattern_refusal("a{2,}x{1,5}[{]{}"),
	   "open intervals and literal braces are fine");
	ok(pattern_refusal("(a|b{1000}){101}") != NULL,
	   "a group's size is every branch's");
}

/* Whether AddressSanitizer is built in (gcc says so one way, clang
 * another). */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

/* The peak memory of regcomp(pattern) in a child, kilobytes; -1 when it
 * failed or died.  The child has 1 GB of address space (none set under
 * AddressSanitizer, which reserves terabytes), so that a pattern let
 * through by mistake fails rather than takes the machine. */
static long
regcomp_peak_kb(const char *pattern)
{
	struct rusage ru;
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		regex_t re;
#if !UNDER_ASAN
		struct rlimit as = {1L << 30, 1L << 30};

		setrlimit(RLIMIT_AS, &as);
#endif
		_exit(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) ? 1 : 0);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return ru.ru_maxrss;
}

/* A random pattern of nested intervals, optional parts and
 * alternatives, appended to out (size bytes, kept short of its end). */
static void
random_pattern(char *out, size_t size, int depth)
{
	size_t alternatives = below(4) ? 1 : 1 + below(below(2) ? 3 : 300);
	size_t a, pieces, i;

	for (a = 0; a < alternatives; a++) {
		if (a)
			strncat(out, "|", size - strlen(out) - 1);
		pieces = 1 + below(3);
		for (i = 0; i < pieces && strlen(out) + 64 < size; i++) {
			uint64_t m = below((uint64_t)1 << below(13)),
			         n = below((uint64_t)1 << below(13));
			char q[64] = "";

			if (depth && below(2)) {
				strncat(out, "(", size - strlen(out) - 1);
				random_pattern(out, size - 64, depth - 1);
				strncat(out, ")", size - strlen(out) - 1);
			} else {
				strncat(out, below(2) ? "a" : "[bc]",
				        size - strlen(out) - 1);
			}
			if (m > n) {
				uint64_t t = m;

				m = n;
				n = t;
			}
			switch (below(9)) {
			case 0:
			case 1:
				break;
			case 2:
				strcpy(q, "?");
				break;
			case 3:
				strcpy(q, "*");
				break;
			case 4:
				strcpy(q, "+");
				break;
			case 5:
				sprintf(q, "{%u}", (unsigned)n);
				break;
			case 6:
				sprintf(q, "{%u,}", (unsigned)m);
				break;
			case 7:
				sprintf(q, "{,%u}", (unsigned)n);
				break;
			default:
				sprintf(q, "{%u,%u}", (unsigned)m, (unsigned)n);
				break;
			}
			strncat(out, q, size - strlen(out) - 1);
		}
	}
}

/* The most a pattern passed may take to compile, kilobytes: 64 MB, or
 * no bound under AddressSanitizer, whose redzones count against it. */
#if UNDER_ASAN
#define PEAK_LIMIT_KB LONG_MAX
#else
#define PEAK_LIMIT_KB (64L * 1024)
#endif

/* Every pattern passed compiles in at most 64 MB. */
static void
test_pattern_memory(void)
{
	static const char *const refused[] = {
	        "(((a{,40}){,40}){,40}){,40}",
	        "((a{,100}){,100}){,100}",
	        "a{0,9999}",
	        "((a{0,46}){0,46}){0,46}",
	        "a{,100001}",
	        "(a?){3000}",
	        "(a*){,3000}",
	};
	static const char *const passed[] = {
	        "a{,2000}",
	        "a{0,2000}b",
	        "(a|b){,500}",
	        "(a?){1,1000}",
	        "((a{0,10}){0,10}){0,10}",
	        "(a{100}){1000}",
	        "(a{1,2}){1000}",
	        "Looper\\.loop.*",
	};
	unsigned tries = tap_long() ? 400 : 12, i, passes = 0, heavy = 0;
	long worst = 0;
	char pattern[4096];
	size_t k;

	for (k = 0; k < sizeof(refused) / sizeof(*refused); k++)
		is_str(pattern_refusal(refused[k]),
		       k == 4 ? "too large once its repetitions expand (more "
		                "than 100000 atoms)"
		              : "too large once its repetitions expand "
		                "(regcomp would need more than 64 MB)",
		       "%s is refused", refused[k]);
	/* Each passes; make check measures the compiling of the heaviest
	 * (a{,2000}) and the light ones, check-long of every one (those
	 * of 20 MB and more cost a twentieth of a second each). */
	for (k = 0; k < sizeof(passed) / sizeof(*passed); k++) {
		bool measured = tap_long() || (k != 1 && k != 3 && k != 5);
		long kb = pattern_refusal(passed[k]) ? -2
		          : measured ? regcomp_peak_kb(passed[k])
		                     : 0;

		if (measured)
			ok(kb >= 0 && kb <= PEAK_LIMIT_KB,
			   "%s passes and compiles in %ld KB", passed[k], kb);
		else
			ok(kb == 0, "%s passes", passed[k]);
	}
	rng_state = 39;
	for (i = 0; i < tries; i++) {
		long kb;

		pattern[0] = '\0';
		random_pattern(pattern, sizeof(pattern), 1 + (int)below(4));
		if (pattern_refusal(pattern))
			continue;
		passes++;
		kb = regcomp_peak_kb(pattern);
		if (kb > worst)
			worst = kb;
		heavy += kb > 16 * 1024;
		if (kb < 0 || kb > PEAK_LIMIT_KB) {
			ok(false, "random pattern %u compiles in 64 MB", i);
			printf("#   %ld KB: %.200s\n", kb, pattern);
			return;
		}
	}
	ok(true,
	   "%u random patterns: %u passed, each compiled in 64 MB (the "
	   "most %ld KB, %u above 16 MB)",
	   tries, passes, worst, heavy);
}

int
main(void)
{
	test_map_basic();
	test_map_wrapping_cluster();
	test_map_many_collisions();
	test_map_random();
	test_arena();
	test_text_width();
	test_table();
	test_table_rows();
	test_table_streamed();
	test_duration();
	test_pattern();
	test_pattern_memory();
	return done_testing();
}
