/*
 * triage: the one-screen answer for a method trace or a simpleperf
 * recording (query/triage.h): the recording, its main thread and how it
 * was found, the startup phases, the frames of the threads that draw,
 * and the findings of the rules by severity then cost, each with the
 * `tracetui calls` command that lists its calls.  Text stops where an
 * 80x24 screen would (--all prints everything) and never writes a line
 * wider than the terminal; -f json has the schema of the man page, -f
 * tsv (or csv) a row per finding.  --fail-on makes it a CI gate.  The
 * findings come from the sums pass (query/triage-stream.h) where it can
 * say them, else from the model, loaded then.
 */
#include "config.h"

#include "cli/cmd.h"
#include "query/frames.h"
#include "query/method-name.h"
#include "query/summary.h"
#include "query/triage.h"
#include "query/triage-stream.h"
#include "text/duration.h"
#include "text/width.h"
#include "util/alloc.h"
#include "util/sort.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static const struct cmd_spec triage_spec = {
        .name = "triage",
        .args = "FILE",
        .summary = "Say what is wrong in a recording, on one screen: the "
                   "main thread, startup, frames and the findings of the "
                   "rules.",
        .options = OPT_FORMAT | OPT_MAPPING | OPT_SAMPLE_TYPE | OPT_FRAMES |
                   OPT_TRIAGE | OPT_RULES,
        .min_args = 1,
        .max_args = 1,
        .epilog = "Rules (tracetui(1), TRIAGE): ID CATEGORY THREADS WHEN "
                  "SEVERITY ERROR FLAGS\nPATTERN SOURCE, tab-separated, "
                  "one a line.  Exit status 1: --fail-on met.",
};

enum { SCREEN_LINES = 23 };

/* s quoted for a POSIX shell: bare when it is safe and not forced,
 * else in single quotes. */
static char *
shell_quote(const char *s, bool force)
{
	static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
	                           "qrstuvwxyz0123456789_./-=:,+@%";
	size_t n = 0, i;
	char *out, *p;

	if (!force && *s && strspn(s, safe) == strlen(s))
		return xstrdup(s);
	for (i = 0; s[i]; i++)
		n += s[i] == '\'' ? 4 : 1;
	out = p = xmalloc(n + 3);
	*p++ = '\'';
	for (i = 0; s[i]; i++) {
		if (s[i] == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = s[i];
		}
	}
	*p++ = '\'';
	*p = '\0';
	return out;
}

enum { DRILL_WORDS = 6 };

/* The words of the command that lists finding f's calls, as the issue
 * names it: tracetui calls FILE 'PATTERN' -t TID (a FILE starting with
 * '-' as ./FILE, since options may follow operands); which of them are
 * quoted even when safe (the pattern). */
static void
drill_words(const struct calltree *tree, const struct triage_rules *rules,
            const struct triage_finding *f, char **word, bool *force)
{
	memset(force, 0, DRILL_WORDS * sizeof(*force));
	word[0] = xstrdup("tracetui");
	word[1] = xstrdup("calls");
	word[2] =
	        xasprintf("%s%s", tree->path[0] == '-' ? "./" : "", tree->path);
	word[3] = triage_finding_pattern(tree, rules, f);
	force[3] = true;
	word[4] = xstrdup("-t");
	word[5] = xasprintf("%u", tree->threads[f->thread].tid);
}

/* The command that lists finding f's calls, on one line. */
static char *
drill_command(const struct calltree *tree, const struct triage_rules *rules,
              const struct triage_finding *f)
{
	char *word[DRILL_WORDS], *cmd = xstrdup(""), *next;
	bool force[DRILL_WORDS];
	size_t i;

	drill_words(tree, rules, f, word, force);
	for (i = 0; i < DRILL_WORDS; i++) {
		char *q = shell_quote(word[i], force[i]);

		next = xasprintf("%s%s%s", cmd, i ? " " : "", q);
		free(cmd);
		free(q);
		free(word[i]);
		cmd = next;
	}
	return cmd;
}

/* The columns text may fill: the terminal's, else COLUMNS, else 80. */
static int
screen_width(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");

	if (isatty(STDOUT_FILENO) &&
	    ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	if (env && atoi(env) > 0)
		return atoi(env);
	return 80;
}

/* Text lines, escaped and wrapped to the width, counted. */
struct screen {
	int width;
	size_t lines;
	bool dry; /* count the lines only */
};

/* The length in bytes of the UTF-8 character at p (1 for a stray
 * byte). */
static size_t
char_bytes(const char *p)
{
	unsigned char c = (unsigned char)*p;
	size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1, i;

	for (i = 1; i < n; i++)
		if (((unsigned char)p[i] & 0xC0) != 0x80)
			return 1;
	return n;
}

/* One line out (or only counted). */
static void
put_line(struct screen *s, const char *line)
{
	if (!s->dry)
		puts(line);
	s->lines++;
}

static void put(struct screen *s, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

/* A line escaped and, where wider than the screen, wrapped at its
 * blanks onto lines indented by four: nothing is cut. */
static void
put(struct screen *s, const char *fmt, ...)
{
	va_list ap;
	char *text, *safe, *rest, *piece;
	int avail = s->width;

	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	safe = text_escape(text);
	rest = safe;
	while ((int)text_width(rest) > avail) {
		size_t at = 0, blank = 0, n;
		int w = 0;

		/* The longest run that fits, up to its last blank. */
		while (rest[at]) {
			n = char_bytes(rest + at);
			piece = xstrndup(rest + at, n);
			w += (int)text_width(piece);
			free(piece);
			if (w > avail)
				break;
			if (rest[at] == ' ' && at)
				blank = at;
			at += n;
		}
		if (blank)
			at = blank;
		if (!at)
			at = char_bytes(rest);
		piece = xasprintf("%s%.*s", rest == safe ? "" : "    ", (int)at,
		                  rest);
		put_line(s, piece);
		free(piece);
		rest += at;
		while (*rest == ' ')
			rest++;
		avail = s->width > 8 ? s->width - 4 : s->width;
	}
	if (*rest || rest == safe) {
		piece = xasprintf("%s%s", rest == safe ? "" : "    ", rest);
		put_line(s, piece);
		free(piece);
	}
	free(safe);
	free(text);
}

/* One line as it is, escaped: never cut (a command's). */
static void
put_whole(struct screen *s, const char *line)
{
	char *safe = text_escape(line);

	if (!s->dry)
		puts(safe);
	s->lines++;
	free(safe);
}

/* The columns s takes once quoted (its first n bytes). */
static int
quoted_width(const char *s, size_t n)
{
	char *q, *part = xstrndup(s, n);
	int w;

	q = shell_quote(part, true);
	w = (int)text_width(q);
	free(q);
	free(part);
	return w;
}

/* Line ended with a continuation backslash and put; a fresh indented
 * one (its width into *col) in its place. */
static char *
break_line(struct screen *s, char *line, int *col)
{
	char *ended = xasprintf("%s \\", line);

	put_whole(s, ended);
	free(ended);
	free(line);
	*col = 5;
	return xstrdup("     ");
}

/*
 * A shell command of words, never cut: "  $ " and the words while they
 * fit, each line but the last ending in a backslash (a continuation, so
 * that the lines pasted into a shell run as one).  A word that fits on
 * no line is quoted in pieces, each piece's line ending in a backslash
 * right after its closing quote and the next piece starting its line:
 * the shell joins them into the one word.
 */
static void
put_command(struct screen *s, char **word, const bool *force, size_t n)
{
	char *line = xstrdup("  $"), *next;
	int col = 3, width = s->width < 24 ? 24 : s->width;
	size_t i;

	for (i = 0; i < n; i++) {
		char *q = shell_quote(word[i], force[i]);
		int w = (int)text_width(q), tail = i + 1 < n ? 2 : 0;
		const char *rest = word[i];

		if (col + 1 + w + tail <= width) {
			next = xasprintf("%s %s", line, q);
			free(line);
			free(q);
			line = next;
			col += 1 + w;
			continue;
		}
		free(q);
		/* A fresh line, indented, when the word fits on one. */
		if (col > 3 && 6 + w + tail <= width) {
			line = break_line(s, line, &col);
			i--;
			continue;
		}
		if (col + 1 + 4 > width) { /* no room for a piece here */
			line = break_line(s, line, &col);
		}
		next = xasprintf("%s ", line);
		free(line);
		line = next;
		col++;
		/* Pieces, each as many characters as fit before a '\'. */
		while (*rest) {
			size_t len = 0, step;
			char *piece;

			if (col + quoted_width(rest, strlen(rest)) + tail <=
			    width) {
				len = strlen(rest);
			} else {
				while (rest[len]) {
					step = char_bytes(rest + len);
					/* A backslash after a piece,
					 * " \\" after the word's end. */
					if (col +
					            quoted_width(rest,
					                         len + step) +
					            (rest[len + step] ? 1
					                              : tail) >
					    width)
						break;
					len += step;
				}
				if (!len)
					len = char_bytes(rest);
			}
			piece = xstrndup(rest, len);
			q = shell_quote(piece, true);
			rest += len;
			next = xasprintf("%s%s%s", line, q, *rest ? "\\" : "");
			free(line);
			free(piece);
			free(q);
			line = next;
			if (!*rest) {
				col = (int)text_width(line);
				break;
			}
			put_whole(s, line);
			free(line);
			line = xstrdup("");
			col = 0;
		}
	}
	put_whole(s, line);
	free(line);
}

/* us in milliseconds with one decimal, for people. */
static const char *
ms(char *buf, size_t size, uint64_t us)
{
	snprintf(buf, size, "%.1f", (double)us / 1000);
	return buf;
}

/* The length of the recording on the judging clock: its threads' first
 * event to the last. */
static uint64_t
recording_length(const struct calltree *tree, enum clock_index k)
{
	uint64_t first = UINT64_MAX, last = 0;
	size_t t;

	for (t = 0; t < tree->nthreads; t++) {
		if (!tree->threads[t].nevents)
			continue;
		if (tree->threads[t].first[k] < first)
			first = tree->threads[t].first[k];
		if (tree->threads[t].last[k] > last)
			last = tree->threads[t].last[k];
	}
	return last > first ? last - first : 0;
}

static bool
is_sampled(const struct calltree *tree)
{
	return tree->sampled || tree->header.sample_weight;
}

/* The key's clock-call-overhead-nsec, or 0. */
static uint64_t
call_overhead_ns(const struct calltree *tree)
{
	const char *v = calltree_property(tree, "clock-call-overhead-nsec");

	return v ? strtoull(v, NULL, 10) : 0;
}

static void
print_recording(struct screen *s, const struct calltree *tree,
                const struct triage *tr)
{
	char len[DURATION_SIZE], over[DURATION_SIZE];
	uint64_t calls = calltree_call_count(tree);

	char *safe = text_escape(tree->path);
	char *file = text_cut_left(safe, s->width, "…");

	puts(file);
	s->lines++;
	free(file);
	free(safe);
	if (is_sampled(tree)) {
		char *every = summary_sample_interval(tree);

		put(s, "  %s, %s ms, %zu threads, sampled %s",
		    summary_format_name(tree),
		    ms(len, sizeof(len), recording_length(tree, tr->clock)),
		    tree->nthreads, every);
		put(s,
		    "  times (~) are estimates at that interval; a finding "
		    "needs %d samples",
		    TRIAGE_MIN_SAMPLES);
		free(every);
		return;
	}
	put(s, "  %s, %s ms, %zu threads, instrumented",
	    summary_format_name(tree),
	    ms(len, sizeof(len), recording_length(tree, tr->clock)),
	    tree->nthreads);
	if (call_overhead_ns(tree))
		put(s,
		    "  %.3f us overhead a call (key), %s ms in %llu calls: "
		    "deep trees inflate",
		    (double)call_overhead_ns(tree) / 1000,
		    ms(over, sizeof(over),
		       call_overhead_ns(tree) * calls / 1000),
		    (unsigned long long)calls);
}

static void
print_main(struct screen *s, const struct calltree *tree,
           const struct triage *tr)
{
	if (tr->main < 0) {
		put(s, "main thread: %s; its rules did not run",
		    triage_main_how_text(tr->how));
		return;
	}
	put(s, "main thread: %u %s (%s)", tree->threads[tr->main].tid,
	    tree->threads[tr->main].name, triage_main_how_text(tr->how));
}

static const char *
ge(bool lower)
{
	return lower ? "≥" : "";
}

static void
print_startup(struct screen *s, const struct triage *tr)
{
	static const enum triage_phase_id shown[] = {
	        TRIAGE_P1, TRIAGE_P2, TRIAGE_P3, TRIAGE_P4, TRIAGE_P5};
	char *line, *next;
	char a[DURATION_SIZE], b[DURATION_SIZE];
	size_t i, n = 0;

	if (!tr->launch) {
		put(s, "startup: no launch in the recording");
		return;
	}
	line = xasprintf("startup (%s, inferred):", tr->launch);
	for (i = 0; i < sizeof(shown) / sizeof(*shown); i++) {
		const struct triage_phase *p = &tr->phases[shown[i]];

		if (!p->found)
			continue;
		next = xasprintf("%s%s %s %s%s ms", line, n++ ? "," : "",
		                 triage_phase_name(shown[i]),
		                 ge(p->lower_bound),
		                 ms(a, sizeof(a), p->dur[tr->clock]));
		free(line);
		line = next;
	}
	put(s, "%s", line);
	free(line);
	put(s,
	    "  UI thread only: %s%s ms from %s ms to the first frame; "
	    "the time to display is longer",
	    ge(tr->window_lower),
	    ms(a, sizeof(a), tr->window_end - tr->window_start),
	    ms(b, sizeof(b), tr->window_start));
}

/* The frames of one thread in a few words: "3001 (main): 321, 168 slow,
 * 0 frozen; p50 4.1, p90 88.2, max 491.5 ms". */
static char *
frame_summary_short(const struct calltree *tree, const struct frames *fr,
                    size_t from, size_t n, long main)
{
	struct frame_summary fs;
	const struct tt_thread *th = &tree->threads[fr->frames[from].thread];
	char a[DURATION_SIZE], b[DURATION_SIZE], c[DURATION_SIZE];
	long main_t = main;

	frames_summarize(fr, from, n, &fs);
	return xasprintf("%s %u: %zu, %zu slow, %zu frozen; p50 %s, p90 %s, "
	                 "max %s ms",
	                 (long)fr->frames[from].thread == main_t ? "main"
	                                                         : th->name,
	                 th->tid, fs.frames, fs.slow, fs.frozen,
	                 ms(a, sizeof(a), fs.pct[0]),
	                 ms(b, sizeof(b), fs.pct[1]), ms(c, sizeof(c), fs.max));
}

/* Frame indexes a and b of frames fr: the longer first, equal lengths
 * in time order. */
static int
longer_first(const void *a, const void *b, void *fr)
{
	const struct frames *f = fr;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	uint64_t lx = f->frames[x].dur[f->clock],
	         ly = f->frames[y].dur[f->clock];

	if (lx != ly)
		return lx > ly ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* The slow frames, longest first: indexes into the frames. */
static size_t *
slow_frames(const struct triage *tr, size_t *n)
{
	const struct frames *fr = &tr->frames;
	size_t *idx = xmalloc((fr->count + 1) * sizeof(*idx)), i;

	*n = 0;
	for (i = 0; i < fr->count; i++)
		if (frames_slow(fr, &fr->frames[i]))
			idx[(*n)++] = i;
	sort_items_r(idx, *n, sizeof(*idx), longer_first, (void *)fr);
	return idx;
}

static char *
method_name(const struct calltree *tree, uint32_t m)
{
	return method_short_name(&tree->methods[m]);
}

static void
print_frames(struct screen *s, const struct calltree *tree,
             const struct triage *tr, size_t max_threads)
{
	const struct frames *fr = &tr->frames;
	size_t nthreads, i, *first = NULL, nslow, *slow;
	uint32_t *threads = NULL;

	if (!fr->count) {
		put(s, "frames: none (no Choreographer.doFrame call)");
		return;
	}
	nthreads = frames_threads(fr, &first, &threads);
	for (i = 0; i < nthreads; i++) {
		char *line;

		if (i == max_threads) {
			put(s,
			    "  and %zu more threads that draw: tracetui "
			    "frames",
			    nthreads - i);
			break;
		}
		line = frame_summary_short(tree, fr, first[i],
		                           first[i + 1] - first[i], tr->main);
		put(s, "frames %s", line);
		free(line);
	}
	free(first);
	free(threads);
	slow = slow_frames(tr, &nslow);
	for (i = 0; i < nslow && i < 1; i++) {
		const struct drawn_frame *f = &fr->frames[slow[i]];
		char a[DURATION_SIZE], b[DURATION_SIZE];
		uint32_t c = tr->cause_method[slow[i]];

		if (c == CALL_NONE) {
			put(s,
			    "  worst %s ms at %s ms: no app call covers half "
			    "of it from its start",
			    ms(a, sizeof(a), f->dur[fr->clock]),
			    ms(b, sizeof(b), f->start));
		} else {
			char *name = method_name(tree, c);

			put(s, "  worst %s ms at %s ms: %.0f%% in %s",
			    ms(a, sizeof(a), f->dur[fr->clock]),
			    ms(b, sizeof(b), f->start),
			    tr->cause_share[slow[i]] * 100, name);
			free(name);
		}
	}
	free(slow);
}

/* The path of f's worst call as "A > B > C". */
static char *
path_text(const struct calltree *tree, const struct triage_finding *f)
{
	char *out = xstrdup(""), *next;
	size_t i;

	for (i = 0; i < f->npath; i++) {
		char *name = method_name(tree, f->path[i]);

		next = xasprintf("%s%s%s", out, i ? " > " : "", name);
		free(out);
		free(name);
		out = next;
	}
	return out;
}

static const char *const sev_mark[] = {"I", "W", "E"};

/* Finding f in 4 lines, or more where its command wraps. */
static void
print_finding(struct screen *s, const struct calltree *tree,
              const struct triage_rules *rules, const struct triage *tr,
              const struct triage_finding *f)
{
	const struct triage_rule *r = &rules->rules[f->rule];
	const struct tt_thread *th = &tree->threads[f->thread];
	char a[DURATION_SIZE], b[DURATION_SIZE], c[DURATION_SIZE];
	char extra[96] = "";
	char *worst = method_name(tree, f->worst_method);
	char *path = path_text(tree, f), *shown, *safe;
	char *word[DRILL_WORDS], *who;
	bool force[DRILL_WORDS], sampled = is_sampled(tree);
	size_t i;

	if (tree->header.sample_weight)
		snprintf(extra, sizeof(extra), ", %llu samples",
		         (unsigned long long)f->samples);
	else if (tree->has_clock[CLOCK_CPU] && tr->clock != CLOCK_CPU)
		snprintf(extra, sizeof(extra), ", cpu %s",
		         ms(a, sizeof(a), f->total[CLOCK_CPU]));
	if (tr->main == (long)f->thread)
		who = xasprintf("main %u", th->tid);
	else
		who = xasprintf("%s %u", th->name, th->tid);
	if (r->kind == TRIAGE_BLOCKED) {
		put(s, "%s %s %s on %s: %s%s%s ms off the CPU, %llu call%s",
		    sev_mark[f->severity], r->id, r->category, who,
		    sampled ? "~" : "", ge(f->lower_bound),
		    ms(b, sizeof(b), f->total[CLOCK_WALL]),
		    (unsigned long long)f->count, f->count == 1 ? "" : "s");
		put(s, "  worst %s%s ms (excl wall - cpu) at %s ms: %s",
		    ge(f->worst_lower),
		    ms(a, sizeof(a), f->worst_dur[CLOCK_WALL]),
		    ms(c, sizeof(c), f->worst_start), worst);
	} else if (r->kind != TRIAGE_UNION) {
		put(s, "%s %s %s on %s: %s%s ms excl cpu in %llu hot spot%s",
		    sev_mark[f->severity], r->id, r->category, who,
		    sampled ? "~" : "", ms(b, sizeof(b), f->total[CLOCK_CPU]),
		    (unsigned long long)f->count, f->count == 1 ? "" : "s");
		put(s, "  worst %s ms excl cpu %s at %s ms: %s",
		    ms(a, sizeof(a), f->worst_dur[CLOCK_CPU]),
		    r->kind == TRIAGE_HOT_FRAME ? "in a frame"
		                                : "in the startup",
		    ms(c, sizeof(c), f->worst_start), worst);
	} else {
		put(s, "%s %s %s on %s: %s%s%s ms%s, %llu call%s%s",
		    sev_mark[f->severity], r->id, r->category, who,
		    sampled ? "~" : "", ge(f->lower_bound),
		    ms(b, sizeof(b), f->total[tr->clock]), extra,
		    (unsigned long long)f->count, f->count == 1 ? "" : "s",
		    f->enclosing ? "; enclosing calls left out" : "");
		put(s, "  worst %s%s ms at %s ms: %s", ge(f->worst_lower),
		    ms(a, sizeof(a), f->worst_dur[tr->clock]),
		    ms(c, sizeof(c), f->worst_start), worst);
	}
	free(who);
	/* The path keeps its deep end. */
	safe = text_escape(path);
	shown = text_cut_left(safe, s->width - 4, "…");
	put(s, "  < %s", shown);
	drill_words(tree, rules, f, word, force);
	put_command(s, word, force, DRILL_WORDS);
	for (i = 0; i < DRILL_WORDS; i++)
		free(word[i]);
	free(shown);
	free(safe);
	free(path);
	free(worst);
}

static void
print_text(const struct calltree *tree, const struct triage_rules *rules,
           const struct triage *tr, bool all)
{
	struct screen s = {screen_width(), 0, false};
	size_t i;

	print_recording(&s, tree, tr);
	print_main(&s, tree, tr);
	print_startup(&s, tr);
	print_frames(&s, tree, tr, all ? SIZE_MAX : 2);
	put(&s, "findings: %zu error, %zu warn, %zu info",
	    triage_count_severity(tr, TRIAGE_ERROR),
	    triage_count_severity(tr, TRIAGE_WARN),
	    triage_count_severity(tr, TRIAGE_INFO));
	if (tr->undersampled)
		put(&s, "  %zu more under %d samples left out",
		    tr->undersampled, TRIAGE_MIN_SAMPLES);
	for (i = 0; i < tr->count; i++) {
		/* A finding takes 4 lines or more; one is kept for the
		 * note. */
		struct screen dry = {s.width, 0, true};

		print_finding(&dry, tree, rules, tr, &tr->findings[i]);
		if (!all && s.lines + dry.lines + 1 > SCREEN_LINES) {
			put(&s, "%zu more: tracetui triage --all",
			    tr->count - i);
			break;
		}
		print_finding(&s, tree, rules, tr, &tr->findings[i]);
	}
}

static void
json_key(FILE *out, const char *key)
{
	text_write_json(out, key);
	fputc(':', out);
}

static void
json_str(FILE *out, const char *key, const char *v)
{
	json_key(out, key);
	text_write_json(out, v);
}

static void
json_u64(FILE *out, const char *key, uint64_t v)
{
	json_key(out, key);
	fprintf(out, "%llu", (unsigned long long)v);
}

/* A time of clock k, or null when the trace lacks it. */
static void
json_time(FILE *out, const struct calltree *tree, const char *key, uint64_t v,
          enum clock_index k)
{
	json_key(out, key);
	if (tree->has_clock[k])
		fprintf(out, "%llu", (unsigned long long)v);
	else
		fputs("null", out);
}

static void
json_method(FILE *out, const struct calltree *tree, const char *key, uint32_t m)
{
	char *name = method_full_name(&tree->methods[m]);

	json_str(out, key, name);
	free(name);
}

static void
json_recording(FILE *out, const struct calltree *tree, const struct triage *tr)
{
	fputs("\"recording\":{", out);
	json_str(out, "format", summary_format_name(tree));
	fputc(',', out);
	json_str(out, "clock", tr->clock == CLOCK_WALL ? "wall" : "cpu");
	fputc(',', out);
	json_u64(out, "length_us", recording_length(tree, tr->clock));
	fputc(',', out);
	json_u64(out, "threads", tree->nthreads);
	fputc(',', out);
	json_u64(out, "calls", calltree_call_count(tree));
	fputc(',', out);
	json_key(out, "sampled");
	fputs(is_sampled(tree) ? "true" : "false", out);
	fputc(',', out);
	json_key(out, "interval_us");
	if (is_sampled(tree) && tree->sample_interval)
		fprintf(out, "%llu", (unsigned long long)tree->sample_interval);
	else
		fputs("null", out);
	fputc(',', out);
	json_key(out, "call_overhead_ns");
	if (!is_sampled(tree) && call_overhead_ns(tree))
		fprintf(out, "%llu",
		        (unsigned long long)call_overhead_ns(tree));
	else
		fputs("null", out);
	fputs("},\n", out);
}

static void
json_main(FILE *out, const struct calltree *tree, const struct triage *tr)
{
	static const char *const how[] = {"none", "pid", "process", "named"};

	json_key(out, "main_thread");
	if (tr->main < 0) {
		fputs("null,\n", out);
		return;
	}
	fputc('{', out);
	json_u64(out, "tid", tree->threads[tr->main].tid);
	fputc(',', out);
	json_str(out, "name", tree->threads[tr->main].name);
	fputc(',', out);
	json_str(out, "how", how[tr->how]);
	fputs("},\n", out);
}

static void
json_startup(FILE *out, const struct calltree *tree, const struct triage *tr)
{
	size_t p, n = 0;

	fputs("\"startup\":{", out);
	json_key(out, "launch");
	if (tr->launch)
		text_write_json(out, tr->launch);
	else
		fputs("null", out);
	fputs(",\"inferred\":true,\"ui_thread_only\":true,", out);
	json_u64(out, "window_start_us", tr->launch ? tr->window_start : 0);
	fputc(',', out);
	json_u64(out, "window_us",
	         tr->launch ? tr->window_end - tr->window_start : 0);
	fputs(",\"window_lower_bound\":", out);
	fputs(tr->window_lower ? "true" : "false", out);
	fputs(",\"phases\":[", out);
	for (p = 0; p < TRIAGE_PHASES; p++) {
		const struct triage_phase *ph = &tr->phases[p];

		if (!ph->found)
			continue;
		fputs(n++ ? ",\n{" : "\n{", out);
		json_str(out, "id", triage_phase_id((enum triage_phase_id)p));
		fputc(',', out);
		json_str(out, "name",
		         triage_phase_name((enum triage_phase_id)p));
		fputc(',', out);
		json_u64(out, "start_us", ph->start);
		fputc(',', out);
		json_time(out, tree, "wall_us", ph->dur[CLOCK_WALL],
		          CLOCK_WALL);
		fputc(',', out);
		json_time(out, tree, "cpu_us", ph->dur[CLOCK_CPU], CLOCK_CPU);
		fputs(",\"lower_bound\":", out);
		fputs(ph->lower_bound ? "true" : "false", out);
		fputc('}', out);
	}
	fputs("]},\n", out);
}

static void
json_summary(FILE *out, const struct frame_summary *fs)
{
	int p;

	json_u64(out, "frames", fs->frames);
	fputc(',', out);
	json_u64(out, "slow", fs->slow);
	fputc(',', out);
	json_u64(out, "frozen", fs->frozen);
	for (p = 0; p < FRAMES_PERCENTILES; p++)
		fprintf(out, ",\"p%d_us\":%llu", frames_percentile_ranks[p],
		        (unsigned long long)fs->pct[p]);
	fprintf(out, ",\"max_us\":%llu", (unsigned long long)fs->max);
}

static void
json_frames(FILE *out, const struct calltree *tree, const struct triage *tr)
{
	const struct frames *fr = &tr->frames;
	struct frame_summary fs;
	size_t nthreads, i, *first = NULL, nslow, *slow;
	uint32_t *threads = NULL;

	fputs("\"frames\":{", out);
	frames_summarize(fr, 0, fr->count, &fs);
	json_summary(out, &fs);
	fprintf(out, ",\"budget_us\":%.0f,\"threads\":[", fr->budget);
	nthreads = frames_threads(fr, &first, &threads);
	for (i = 0; i < nthreads; i++) {
		const struct tt_thread *th = &tree->threads[threads[i]];

		frames_summarize(fr, first[i], first[i + 1] - first[i], &fs);
		fputs(i ? ",\n{" : "\n{", out);
		json_str(out, "thread", th->name);
		fputc(',', out);
		json_u64(out, "tid", th->tid);
		fputc(',', out);
		json_summary(out, &fs);
		fputc('}', out);
	}
	free(first);
	free(threads);
	fputs("],\"worst\":[", out);
	slow = slow_frames(tr, &nslow);
	for (i = 0; i < nslow && i < 10; i++) {
		const struct drawn_frame *f = &fr->frames[slow[i]];
		uint32_t c = tr->cause_method[slow[i]];

		fputs(i ? ",\n{" : "\n{", out);
		json_str(out, "thread", tree->threads[f->thread].name);
		fputc(',', out);
		json_u64(out, "tid", tree->threads[f->thread].tid);
		fputc(',', out);
		json_u64(out, "start_us", f->start);
		fputc(',', out);
		json_time(out, tree, "wall_us", f->dur[CLOCK_WALL], CLOCK_WALL);
		fputc(',', out);
		json_time(out, tree, "cpu_us", f->dur[CLOCK_CPU], CLOCK_CPU);
		fputs(",\"frozen\":", out);
		fputs(frames_frozen(fr, f) ? "true" : "false", out);
		fputs(",\"cause\":", out);
		if (c == CALL_NONE) {
			fputs("null}", out);
			continue;
		}
		fputc('{', out);
		json_method(out, tree, "method", c);
		fprintf(out, ",\"share\":%.3f}}", tr->cause_share[slow[i]]);
	}
	free(slow);
	fputs("]},\n", out);
}

static void
json_finding(FILE *out, const struct calltree *tree,
             const struct triage_rules *rules, const struct triage *tr,
             const struct triage_finding *f)
{
	const struct triage_rule *r = &rules->rules[f->rule];
	char *drill = drill_command(tree, rules, f);
	size_t i;

	fputc('{', out);
	json_str(out, "id", r->id);
	fputc(',', out);
	json_str(out, "category", r->category);
	fputc(',', out);
	json_str(out, "kind", triage_kind_name(r->kind));
	fputc(',', out);
	json_str(out, "severity", triage_severity_name(f->severity));
	fputc(',', out);
	json_str(out, "thread", tree->threads[f->thread].name);
	fputc(',', out);
	json_u64(out, "tid", tree->threads[f->thread].tid);
	fputc(',', out);
	json_str(out, "pattern", r->pattern);
	fputc(',', out);
	json_u64(out, "total_us", f->total[tr->clock]);
	fputc(',', out);
	json_time(out, tree, "cpu_us", f->total[CLOCK_CPU], CLOCK_CPU);
	fputc(',', out);
	json_u64(out, "idle_us", f->idle[tr->clock]);
	fputc(',', out);
	json_u64(out, "count", f->count);
	fputc(',', out);
	json_key(out, "samples");
	if (is_sampled(tree))
		fprintf(out, "%llu", (unsigned long long)f->samples);
	else
		fputs("null", out);
	fputs(",\"lower_bound\":", out);
	fputs(f->lower_bound ? "true" : "false", out);
	fputc(',', out);
	json_u64(out, "enclosing", f->enclosing);
	fputs(",\"worst\":{", out);
	json_u64(out, "start_us", f->worst_start);
	fputc(',', out);
	json_time(out, tree, "wall_us", f->worst_dur[CLOCK_WALL], CLOCK_WALL);
	fputc(',', out);
	json_time(out, tree, "cpu_us", f->worst_dur[CLOCK_CPU], CLOCK_CPU);
	fputc(',', out);
	json_method(out, tree, "method", f->worst_method);
	fputs(",\"path\":[", out);
	for (i = 0; i < f->npath; i++) {
		char *name = method_full_name(&tree->methods[f->path[i]]);

		if (i)
			fputc(',', out);
		text_write_json(out, name);
		free(name);
	}
	fputs("]},", out);
	json_str(out, "drill", drill);
	fputc('}', out);
	free(drill);
}

static void
print_json(const struct calltree *tree, const struct triage_rules *rules,
           const struct triage *tr)
{
	size_t i;

	fputs("{", stdout);
	json_str(stdout, "file", tree->path);
	fputs(",\n", stdout);
	json_recording(stdout, tree, tr);
	json_main(stdout, tree, tr);
	json_startup(stdout, tree, tr);
	json_frames(stdout, tree, tr);
	json_u64(stdout, "undersampled", tr->undersampled);
	fputs(",\n\"findings\":[", stdout);
	for (i = 0; i < tr->count; i++) {
		fputs(i ? ",\n" : "\n", stdout);
		json_finding(stdout, tree, rules, tr, &tr->findings[i]);
	}
	fputs("]}\n", stdout);
}

/* A row per finding: the stable columns of the man page. */
static void
print_table(const struct calltree *tree, const struct triage_rules *rules,
            const struct triage *tr, enum table_format format)
{
	static const char *const names[] = {
	        "id",          "category",       "severity", "thread",
	        "tid",         "total_us",       "cpu_us",   "count",
	        "lower_bound", "worst_start_us", "worst_us", "worst_method",
	        "path",        "pattern",        "drill"};
	static const enum table_kind kinds[] = {
	        TABLE_STRING, TABLE_STRING, TABLE_STRING, TABLE_STRING,
	        TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER, TABLE_NUMBER,
	        TABLE_STRING, TABLE_NUMBER, TABLE_NUMBER, TABLE_STRING,
	        TABLE_STRING, TABLE_STRING, TABLE_STRING};
	struct table *t = table_new(15, names, kinds);
	size_t i, j;

	for (i = 0; i < tr->count; i++) {
		const struct triage_finding *f = &tr->findings[i];
		const struct triage_rule *r = &rules->rules[f->rule];
		char *worst = method_full_name(&tree->methods[f->worst_method]);
		char *path = xstrdup(""), *next;
		char *drill = drill_command(tree, rules, f);

		for (j = 0; j < f->npath; j++) {
			char *name =
			        method_full_name(&tree->methods[f->path[j]]);

			next = xasprintf("%s%s%s", path, j ? ";" : "", name);
			free(path);
			free(name);
			path = next;
		}
		table_row(t);
		table_str(t, r->id);
		table_str(t, r->category);
		table_str(t, triage_severity_name(f->severity));
		table_str(t, tree->threads[f->thread].name);
		table_u64(t, tree->threads[f->thread].tid);
		table_u64(t, f->total[tr->clock]);
		if (tree->has_clock[CLOCK_CPU])
			table_u64(t, f->total[CLOCK_CPU]);
		else
			table_empty(t);
		table_u64(t, f->count);
		table_str(t, f->lower_bound ? "yes" : "no");
		table_u64(t, f->worst_start);
		table_u64(t, f->worst_dur[tr->clock]);
		table_str(t, worst);
		table_str(t, path);
		table_str(t, r->pattern);
		table_str(t, drill);
		free(worst);
		free(path);
		free(drill);
	}
	table_print(t, stdout, format);
	table_free(t);
}

/* The model of the file ct was opened on, loaded again with its calls,
 * as cmd_open loads it; -1 when loaded, else a status (ct released). */
static int
reload_model(struct cmd_trace *ct, bool frames)
{
	scope_done(&ct->scope);
	calltree_free(ct->tree);
	ct->tree = NULL;
	ct->opts.profile_only = false;
	ct->opts.frames = frames;
	ct->opts.triage = NULL;
	ct->opts.triage_arg = NULL;
	return cmd_open_parsed(ct, &triage_spec);
}

int
cmd_triage(int argc, char **argv)
{
	struct cmd_trace ct;
	struct triage_rules rules;
	struct triage_stream ts = {0};
	struct triage tr;
	bool *is_frame, frames, streamed = false;
	char why[300];
	int status = cmd_parse(&triage_spec, argc, argv, &ct.opts);
	/* For tests: "model" takes the model's way, "say" tells on
	 * stderr which way was taken. */
	const char *test = getenv("TRACETUI_TEST_TRIAGE");
	size_t i;

	ct.tree = NULL;
	if (status >= 0)
		return status;
	if (!cmd_triage_rules(&rules, &ct.opts, "triage")) {
		triage_rules_done(&rules);
		cmd_opts_done(&ct.opts);
		return CMD_USAGE;
	}
	/* The findings from the sums pass, where the names are the
	 * file's (no mapping): the model only where they need it. */
	frames = ct.opts.frames;
	ts.rules = &rules;
	ts.frame_method = ct.opts.frame_method;
	if (!ct.opts.names && !(test && strcmp(test, "model") == 0)) {
		ct.opts.profile_only = true;
		ct.opts.frames = false;
		ct.opts.triage = triage_stream_spec;
		ct.opts.triage_arg = &ts;
	}
	status = cmd_open_parsed(&ct, &triage_spec);
	if (status >= 0) {
		triage_stream_done(&ts);
		triage_rules_done(&rules);
		return status;
	}
	if (calltree_is_profile(ct.tree)) {
		cmd_error("triage",
		          "%s: a profile of values, not of calls in time: "
		          "triage reads method traces and simpleperf "
		          "recordings",
		          ct.tree->path);
		triage_stream_done(&ts);
		triage_rules_done(&rules);
		cmd_close(&ct);
		return CMD_USAGE;
	}
	if (ct.tree->sums && !ct.tree->calls.count)
		streamed = triage_from_sums(&tr, ct.tree, &ts,
		                            cmd_frame_budget(&ct.opts));
	/* A sampled recording's frames are found as the model loads
	 * (frame-spans.h): loaded without them, it is loaded again. */
	if (!streamed &&
	    (!ct.tree->calls.count ||
	     (frames && !ct.opts.frames && ct.tree->header.sample_weight))) {
		{
			status = reload_model(&ct, frames);
			if (status >= 0) {
				triage_stream_done(&ts);
				triage_rules_done(&rules);
				return status;
			}
		}
	}
	if (test && strcmp(test, "say") == 0)
		fprintf(stderr, "triage: %s\n", streamed ? "sums" : "model");
	if (!streamed) {
		/* The spec's patterns matched the same methods: taken. */
		const uint64_t *match =
		        ts.made && ts.spec.nmethods == ct.tree->nmethods
		                ? ts.match
		                : NULL;

		is_frame = frames_methods(ct.tree, ct.opts.frame_method, why,
		                          sizeof(why));
		if (!is_frame ||
		    !triage_compute_matched(&tr, ct.tree, &rules, is_frame,
		                            cmd_frame_budget(&ct.opts), match,
		                            why, sizeof(why))) {
			cmd_error("triage", "bad regular expression: %s", why);
			free(is_frame);
			triage_stream_done(&ts);
			triage_rules_done(&rules);
			cmd_close(&ct);
			return CMD_USAGE;
		}
		free(is_frame);
	}
	triage_stream_done(&ts);
	if (ct.opts.format == TABLE_JSON)
		print_json(ct.tree, &rules, &tr);
	else if (ct.opts.format == TABLE_TEXT)
		print_text(ct.tree, &rules, &tr, ct.opts.all);
	else
		print_table(ct.tree, &rules, &tr, ct.opts.format);
	status = CMD_OK;
	for (i = 0; i < tr.count && ct.opts.fail_on != CMD_FAIL_NEVER; i++)
		if ((int)tr.findings[i].severity >= (int)ct.opts.fail_on)
			status = CMD_FAIL;
	triage_done(&tr);
	triage_rules_done(&rules);
	cmd_close(&ct);
	return status;
}
