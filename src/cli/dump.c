/*
 * dump: the records in file order in dmtracedump -o's layout.  It
 * reads through its own sink, not the call tree, so it shows the file as
 * it is: raw times (the first time field, as dmtracedump prints it), and
 * the nesting dots dmtracedump derives from enters and exits alone.
 */
#include "config.h"

#include "cli/cmd.h"
#include "text/width.h"
#include "read/load.h"
#include "util/alloc.h"
#include "util/map.h"
#include "util/sort.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const struct cmd_spec dump_spec = {
        .name = "dump",
        .args = "FILE",
        .summary = "Print the records in file order, as dmtracedump -o does.",
        .options = OPT_MAPPING | OPT_SAMPLE_TYPE,
        .min_args = 1,
        .max_args = 1,
};

/* dmtracedump marks nesting deeper than it draws with '+'; it draws up to
 * 10000 dots, which makes deep traces' dumps quadratic: stop at 200. */
enum { DUMP_MAX_DOTS = 200 };

struct dump_thread {
	uint32_t tid;
	char *name;
};

struct dump {
	struct util_map method_index; /* id -> names[] index */
	char **names;                 /* "class.name sig", escaped */
	size_t nnames, names_cap;
	struct dump_thread *threads;
	size_t nthreads, threads_cap;
	struct util_map depth; /* tid -> nesting depth, as int32 bits */
	enum trace_clock clock;
	const struct mapping *renames; /* --mapping, or NULL */
	char *dots;
	char **warnings; /* printed once the file turned out usable */
	size_t nwarnings, warnings_cap;
};

static void
dump_method(void *ctx, const struct trace_method_def *def)
{
	struct dump *d = ctx;
	struct mapping_name n = {NULL, NULL, NULL};
	char *raw;
	uint32_t *slot = util_map_slot(&d->method_index, def->id, CALL_NONE);

	if (d->renames) /* --mapping: the original names */
		mapping_rename(d->renames, def->klass, def->name,
		               def->signature, &n);
	raw = xasprintf("%s.%s %s", n.klass ? n.klass : def->klass,
	                n.name ? n.name : def->name,
	                n.signature ? n.signature : def->signature);
	mapping_name_done(&n);
	if (*slot == CALL_NONE) {
		UTIL_GROW(d->names, d->names_cap, d->nnames + 1);
		*slot = (uint32_t)d->nnames++;
	} else {
		free(d->names[*slot]);
	}
	d->names[*slot] = text_escape(raw);
	free(raw);
}

static void
dump_thread(void *ctx, uint32_t tid, const char *name)
{
	struct dump *d = ctx;

	UTIL_GROW(d->threads, d->threads_cap, d->nthreads + 1);
	d->threads[d->nthreads].tid = tid;
	d->threads[d->nthreads].name = text_escape(name);
	d->nthreads++;
}

static int
thread_cmp(const void *a, const void *b)
{
	const struct dump_thread *x = a, *y = b;

	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static void
dump_begin(void *ctx, const struct trace_header *h)
{
	struct dump *d = ctx;
	size_t i;

	d->clock = h->clock;
	if (d->nthreads > 1) /* threads is NULL when the key names none */
		sort_items(d->threads, d->nthreads, sizeof(*d->threads),
		           thread_cmp);
	printf("VERSION: %u\nThreads (%zu):\n", h->version, d->nthreads);
	for (i = 0; i < d->nthreads; i++)
		printf("%2u %s\n", d->threads[i].tid, d->threads[i].name);
	printf("Trace (threadID action usecs class.method signature):\n");
}

static void
dump_event(void *ctx, uint32_t tid, uint64_t method_id,
           enum trace_action action, uint64_t cpu, uint64_t wall)
{
	static const char *const actions[] = {"ent", "xit", "unr", "???"};
	struct dump *d = ctx;
	uint32_t *depth = util_map_slot(&d->depth, tid, 2);
	int64_t shown;
	char note = ' ';
	uint32_t idx;

	if (action == TRACE_ENTER)
		++*depth;
	shown = (int32_t)*depth;
	if (shown < 0) {
		shown = 0;
		note = '-';
	} else if (shown > DUMP_MAX_DOTS) {
		shown = DUMP_MAX_DOTS;
		note = '+';
	}
	printf("%2u %s  %8" PRIu64 "%c%s", tid, actions[action & 3],
	       d->clock & TRACE_CLOCK_CPU ? cpu : wall, note,
	       d->dots + (DUMP_MAX_DOTS - shown));
	if (util_map_get(&d->method_index, method_id, &idx))
		printf("%s\n", d->names[idx]);
	else
		printf("???.??? methodId: %#" PRIx64 "\n", method_id);
	if (action != TRACE_ENTER)
		--*depth;
}

static void
dump_warning(void *ctx, uint64_t offset, const char *message)
{
	struct dump *d = ctx;
	char *text = text_escape(message);

	UTIL_GROW(d->warnings, d->warnings_cap, d->nwarnings + 1);
	d->warnings[d->nwarnings++] =
	        xasprintf("offset %" PRIu64 ": warning: %s", offset, text);
	free(text);
}

int
cmd_dump(int argc, char **argv)
{
	struct cmd_opts opts;
	struct dump d;
	struct trace_error err = {0};
	struct trace_sink sink = {
	        .ctx = &d,
	        .begin = dump_begin,
	        .thread = dump_thread,
	        .method = dump_method,
	        .event = dump_event,
	        .warning = dump_warning,
	};
	size_t i;
	int status = cmd_parse(&dump_spec, argc, argv, &opts);

	if (status >= 0)
		return status;
	memset(&d, 0, sizeof(d));
	util_map_init(&d.method_index);
	util_map_init(&d.depth);
	d.renames = opts.names;
	d.dots = xmalloc(DUMP_MAX_DOTS + 1);
	memset(d.dots, '.', DUMP_MAX_DOTS);
	d.dots[DUMP_MAX_DOTS] = '\0';
	status = CMD_OK;
	sink.sample_type = opts.sample_type;
	if (!trace_load(opts.args[0], &sink, &err)) {
		char *where = text_escape(err.path ? err.path : opts.args[0]);
		char *what = text_escape(err.message);

		cmd_flush();
		fprintf(stderr, "tracetui: %s: offset %" PRIu64 ": %s\n", where,
		        err.offset, what);
		free(where);
		free(what);
		status = err.usage ? CMD_USAGE : CMD_INPUT;
		trace_error_clear(&err);
	}
	for (i = 0; i < d.nwarnings; i++) {
		if (status == CMD_OK)
			cmd_print(stderr, "tracetui: %s: %s\n", opts.args[0],
			          d.warnings[i]);
		free(d.warnings[i]);
	}
	free(d.warnings);
	for (i = 0; i < d.nnames; i++)
		free(d.names[i]);
	for (i = 0; i < d.nthreads; i++)
		free(d.threads[i].name);
	free(d.names);
	free(d.threads);
	free(d.dots);
	util_map_done(&d.method_index);
	util_map_done(&d.depth);
	cmd_opts_done(&opts);
	return status;
}
