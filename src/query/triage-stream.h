/*
 * triage-stream: triage (query/triage.h) from the sums pass, with no
 * model: the spec of what the rules ask of each method, handed to the
 * load (calltree_load_options.triage), and the findings made of the
 * threads' triage sums (model/triage-sums.h) as triage_compute makes
 * them of the model's calls.  Where the pass stopped (a startup phase,
 * a looper inside a match, an orphan of a frame method), or the main
 * thread is not the one the spec assumed, the model is needed:
 * triage_from_sums says so and the caller loads it.
 */
#ifndef TRACETUI_TRIAGE_STREAM_H
#define TRACETUI_TRIAGE_STREAM_H

#include "model/calltree.h"
#include "model/triage-sums.h"
#include "query/triage.h"

#include <stdbool.h>
#include <stdint.h>

struct triage_stream {
	const struct triage_rules *rules;
	const char *frame_method; /* --frame-method, or NULL */
	bool made;                /* spec was made */
	struct triage_sums_spec spec;
	/* The tables spec points to. */
	uint64_t *match, *masks;
	uint8_t *ask[2], *worst_clock;
};

/* The spec of rules ts->rules for tree's methods (a calltree_triage_fn:
 * arg is a struct triage_stream), or NULL (the model is loaded) when a
 * pattern does not compile (the model's triage says why) or the threads
 * times the methods are too many for the sums to cost less. */
struct triage_sums_spec *triage_stream_spec(const struct calltree *tree,
                                            void *arg);
/* Release what ts made. */
void triage_stream_done(struct triage_stream *ts);

/*
 * Triage tree from its triage sums, as triage_compute would (frames
 * against budget microseconds); false when only the model can say:
 * then out is empty.
 */
bool triage_from_sums(struct triage *out, const struct calltree *tree,
                      const struct triage_stream *ts, double budget);

#endif
