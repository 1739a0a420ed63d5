/*
 * render: a headless viewer for golden tests.  Loads a trace, applies
 * requests, key presses, searches and size changes to an app, then
 * draws it into a canvas and prints the canvas as text (and, with
 * --roles, the role of every cell).
 *
 * Usage: render [--ascii] [--roles] [--full-names] [--base FILE]
 *        [--sample-type TYPE] [--threshold ID=MS]... FILE WIDTHxHEIGHT
 *        [STEP...]
 * (--threshold moves a triage rule's threshold for the Findings view,
 * read as the viewer reads it: cmd_triage_rules.)
 * A STEP is a request name (MOVE_DOWN, ENTER, ...; NAME*N makes it N
 * times), key:C (the key press of character C, or of a key named as in
 * the help: key:Enter, key:C-o), type:TEXT (a key press per character
 * of TEXT, as typed into a prompt), search:REGEX, filter:REGEX (the rows
 * the & prompt keeps), size:WxH (draw at the size so far, then use the
 * new one), screen:LABEL (the screen as drawn so far, printed under
 * a line "=== LABEL", and the run goes on), or mouse:B;X;YM (an xterm
 * SGR mouse report, M for a press
 * or m for a release, 1-based cells; a second after the last one, or
 * @N: N milliseconds after).  --base compares FILE with another trace,
 * as the viewer's --base does; --full-names and --sample-type (a pprof
 * profile's sample type, for both) are the viewer's.
 *
 * Usage: render --batch LIST
 * Runs one render per line of LIST ("-": standard input), each as if
 * started on its own, in one process: a line is OUT, ERR and then the
 * arguments above, separated by tabs; the screen goes to the new file
 * OUT, the messages to the new file ERR, and the exit status is printed
 * as a line "STATUS<TAB>OUT" on standard output.  The exit status of the
 * batch is 0 once every line has run (2 for a malformed line).  A test
 * suite pays a process start per render otherwise.
 */
#include "config.h"

#include "tui/app.h"
#include "cli/cmd.h"
#include "query/triage-rules.h"
#include "model/calltree.h"
#include "model/open.h"
#include "tui/canvas.h"
#include "tui/keymap.h"
#include "tui/mouse.h"
#include "tui/request.h"
#include "read/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Print the usage text to ERR; returns the usage error status, 2. */
static int
usage(FILE *err)
{
	fputs("usage: render [--ascii] [--roles] [--full-names] [--base FILE] "
	      "[--sample-type TYPE] FILE WIDTHxHEIGHT [STEP...]\n"
	      "       render --batch LIST\n"
	      "STEP: a request name (MOVE_DOWN, ENTER, ...) or NAME*N, "
	      "key:C, search:REGEX, filter:REGEX, size:WxH, screen:LABEL or "
	      "mouse:B;X;YM[@MS]\n",
	      err);
	return 2;
}

/* Load path (a pprof profile on sample_type, NULL for its default), or
 * NULL after the one-line message on ERR. */
static struct calltree *
load(const char *path, const char *sample_type, FILE *err)
{
	struct trace_error e = {0};
	struct calltree_load_options o = {.sample_type = sample_type};
	struct calltree *tree = calltree_load_with(path, &o, &e);

	if (!tree) {
		fprintf(err, "render: %s: offset %llu: %s\n", path,
		        (unsigned long long)e.offset, e.message);
		trace_error_clear(&e);
	}
	return tree;
}

/* Parse "WxH" into *w, *h; false if it is not that. */
static bool
parse_size(const char *s, int *w, int *h)
{
	char *end;
	long a, b;

	a = strtol(s, &end, 10);
	if (end == s || *end != 'x')
		return false;
	s = end + 1;
	b = strtol(s, &end, 10);
	if (end == s || *end || a < 1 || b < 1 || a > 1000 || b > 1000)
		return false;
	*w = (int)a;
	*h = (int)b;
	return true;
}

/* The key a key: step names: a key name of the help, or one UTF-8
 * character; TKEY_NONE if it is neither. */
static int
parse_key(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int key = keymap_parse(s);
	int n, i;

	if (key != TKEY_NONE || !*p)
		return key;
	if (p[0] < 0xC0 || p[0] > 0xF4)
		return TKEY_NONE;
	n = p[0] >= 0xF0 ? 3 : p[0] >= 0xE0 ? 2 : 1;
	key = p[0] & (0x3F >> n);
	for (i = 1; i <= n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return TKEY_NONE;
		key = key << 6 | (p[i] & 0x3F);
	}
	return p[n + 1] ? TKEY_NONE : key;
}

/* The request a step names, as NAME or NAME*N (N times into *times), or
 * REQ_NONE. */
static enum request
parse_request(const char *step, long *times)
{
	const char *star = strchr(step, '*');
	size_t n = star ? (size_t)(star - step) : strlen(step);
	char name[64], *end;

	*times = 1;
	if (n >= sizeof(name))
		return REQ_NONE;
	if (star) {
		*times = strtol(star + 1, &end, 10);
		if (end == star + 1 || *end || *times < 1 || *times > 10000)
			return REQ_NONE;
	}
	memcpy(name, step, n);
	name[n] = '\0';
	return request_by_name(name);
}

/* One render of the arguments ARGV[1..ARGC): the screen to OUT, the
 * messages to ERR; returns the exit status. */
static int
render(int argc, char **argv, FILE *out, FILE *err)
{
	struct calltree *tree, *base = NULL;
	const char *base_path = NULL, *sample_type = NULL;
	struct canvas *canvas;
	struct app *app;
	bool ascii = false, roles = false, full_names = false;
	int width, height, i = 1, status = 0;
	long long now = 0;
	struct cmd_opts opts = {0}; /* --threshold's, as the viewer reads */
	const char *thresholds[8];
	struct triage_rules rules = {0};

	for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
		if (!strcmp(argv[i], "--ascii"))
			ascii = true;
		else if (!strcmp(argv[i], "--roles"))
			roles = true;
		else if (!strcmp(argv[i], "--full-names"))
			full_names = true;
		else if (!strcmp(argv[i], "--base") && i + 1 < argc)
			base_path = argv[++i];
		else if (!strcmp(argv[i], "--sample-type") && i + 1 < argc)
			sample_type = argv[++i];
		else if (!strcmp(argv[i], "--threshold") && i + 1 < argc &&
		         opts.nthresholds < 8)
			thresholds[opts.nthresholds++] = argv[++i];
		else
			return usage(err);
	}
	opts.thresholds = thresholds;
	if (cmd_triage_rules_given(&opts) &&
	    !cmd_triage_rules(&rules, &opts, "render")) {
		triage_rules_done(&rules);
		return 2;
	}
	if (argc - i < 2 || !parse_size(argv[i + 1], &width, &height))
		return usage(err);
	if (base_path && !(base = load(base_path, sample_type, err))) {
		triage_rules_done(&rules);
		return 3;
	}
	if (!(tree = load(argv[i], sample_type, err))) {
		calltree_free(base);
		triage_rules_done(&rules);
		return 3;
	}
	app = app_new(tree);
	app->full_names = full_names;
	app->rules = cmd_triage_rules_given(&opts) ? &rules : NULL;
	if (base) {
		app_set_base(app, base, base_path);
		calltree_free(base);
	}
	canvas = canvas_new(width, height, ascii);
	for (i += 2; i < argc && !status; i++) {
		const char *step = argv[i];
		enum request req;
		long times;
		int key;

		/* Draw before every step, as the viewer does before every
		 * key, so page sizes are those of this canvas. */
		app_draw(app, canvas);
		if (!strncmp(step, "key:", 4)) {
			key = parse_key(step + 4);
			if (key == TKEY_NONE) {
				fprintf(err, "render: unknown key '%s'\n",
				        step + 4);
				status = 2;
			} else {
				app_key(app, key);
			}
		} else if (!strncmp(step, "mouse:", 6)) {
			const char *at = strchr(step, '@');
			size_t len =
			        at ? (size_t)(at - step - 6) : strlen(step + 6);
			struct mouse_event ev;

			if (!mouse_parse_sgr(step + 6, len, &ev)) {
				fprintf(err, "render: bad mouse report '%s'\n",
				        step + 6);
				status = 2;
			} else {
				now += at ? atol(at + 1) : 1000;
				ev.ms = now;
				app_mouse(app, &ev);
			}
		} else if (!strncmp(step, "type:", 5)) {
			const char *p;

			for (p = step + 5; *p; p++)
				app_key(app, (unsigned char)*p);
		} else if (!strncmp(step, "search:", 7)) {
			app_search(app, step + 7);
		} else if (!strncmp(step, "filter:", 7)) {
			app_filter(app, step + 7);
		} else if (!strncmp(step, "screen:", 7)) {
			/* The screen as drawn before this step, under a
			 * line naming it. */
			fprintf(out, "=== %s\n", step + 7);
			canvas_dump(canvas, out);
		} else if (!strncmp(step, "size:", 5)) {
			if (!parse_size(step + 5, &width, &height)) {
				fprintf(err, "render: bad size '%s'\n",
				        step + 5);
				status = 2;
			} else {
				canvas_resize(canvas, width, height);
			}
		} else if ((req = parse_request(step, &times)) != REQ_NONE) {
			while (times-- > 0) {
				app_request(app, req);
				if (times)
					app_draw(app, canvas);
			}
		} else {
			fprintf(err, "render: unknown step '%s'\n", step);
			status = 2;
		}
	}
	if (!status) {
		app_draw(app, canvas);
		canvas_dump(canvas, out);
		if (roles) {
			fputs("--- roles\n", out);
			canvas_dump_roles(canvas, out);
		}
		status = ferror(out) ? 1 : 0;
	}
	canvas_free(canvas);
	app_free(app);
	triage_rules_done(&rules);
	return status;
}

/* Run every line of the batch list LIST: see the usage at the top. */
static int
batch(const char *list)
{
	FILE *in = strcmp(list, "-") ? fopen(list, "r") : stdin;
	static char line[65536];
	char *args[1024];

	if (!in) {
		fprintf(stderr, "render: %s: cannot open\n", list);
		return 2;
	}
	while (fgets(line, sizeof(line), in)) {
		size_t n = strlen(line);
		int argc = 0, status;
		char *p = line;
		FILE *out, *err;

		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		else if (!feof(in))
			return usage(stderr);
		args[argc++] = "render";
		while (p && argc < (int)(sizeof(args) / sizeof(*args))) {
			args[argc++] = p;
			if ((p = strchr(p, '\t')))
				*p++ = '\0';
		}
		if (p || argc < 3)
			return usage(stderr);
		out = fopen(args[1], "w");
		err = fopen(args[2], "w");
		if (!out || !err) {
			fprintf(stderr, "render: %s: cannot write\n",
			        out ? args[2] : args[1]);
			return 2;
		}
		/* args[2], the render's argv[0], is not read */
		status = render(argc - 2, args + 2, out, err);
		if (fclose(out) && !status)
			status = 1;
		fclose(err);
		printf("%d\t%s\n", status, args[1]);
		fflush(stdout);
	}
	if (in != stdin)
		fclose(in);
	return ferror(stdout) ? 1 : 0;
}

int
main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--batch"))
		return batch(argv[2]);
	return render(argc, argv, stdout, stderr);
}
