/*
 * unit-loading: the viewer's status line while a file loads, at every
 * stage and width, worked out by hand.
 */
#include "config.h"

#include "tui/loading.h"

#include "tap.h"

int
main(void)
{
	char line[256];

	/* 80 columns: 79 usable; head 18 + "big.trace " 10 = 28, tail
	 * "  25%  25/100 MB, 3.0 s left" 28, brackets 2: a bar of 21, of
	 * which 25% is 5 cells. */
	loading_line(line, sizeof(line), "big.trace", 25000000, 100000000, 1.0,
	             80);
	is_str(line,
	       "tracetui: reading big.trace [=====>               ]  25%  "
	       "25/100 MB, 3.0 s left",
	       "a quarter read in 1 s: three more seconds");
	ok(strlen(line) == 79, "the line fills all but the last column");

	/* Under 0.2 s, or nothing read yet: no estimate. */
	loading_line(line, sizeof(line), "a", 0, 5000000, 0.05, 60);
	/* 59 usable: head 20, tail "   0%  0.0/5.0 MB" 17: a bar of 20. */
	is_str(line,
	       "tracetui: reading a [>                   ]   0%  0.0/5.0 MB",
	       "nothing read: an empty bar, no estimate");
	loading_line(line, sizeof(line), "a", 1000000, 5000000, 0.1, 60);
	ok(strstr(line, "left") == NULL, "no estimate before 0.2 s");

	/* Everything read: the model is being built. */
	loading_line(line, sizeof(line), "a", 5000000, 5000000, 2, 70);
	/* 69 usable: head 20, tail 37: a bar of 10. */
	is_str(line,
	       "tracetui: reading a [==========] 100%  5.0/5.0 MB, building "
	       "the model",
	       "all read: a full bar while the model is built");

	/* Minutes. */
	loading_line(line, sizeof(line), "a", 1000000, 100000000, 2, 200);
	ok(strstr(line, ", 3 min 18 s left") != NULL,
	   "198 s left are written in minutes: %s", line);

	/* The bar stops at 50 cells however wide the terminal. */
	loading_line(line, sizeof(line), "a", 0, 100000000, 0, 300);
	ok(strlen(line) ==
	           strlen("tracetui: reading a []   0%  0.0/100 MB") + 50,
	   "a bar of 50 cells on 300 columns");

	/* Narrow: the name goes first, then the bar.  51 columns: head 10,
	 * tail 28, a bar of 10. */
	loading_line(line, sizeof(line), "a-rather-long-name.trace", 50000000,
	             100000000, 1, 51);
	is_str(line, "tracetui: [=====>    ]  50%  50/100 MB, 1.0 s left",
	       "51 columns: the name is dropped");
	loading_line(line, sizeof(line), "a", 50000000, 100000000, 1, 50);
	is_str(line, " 50%", "50 columns: no room for a bar of 10");
	loading_line(line, sizeof(line), "a", 50000000, 100000000, 1, 3);
	is_str(line, " 5", "3 columns: cut to 2");

	/* A pipe: no size to measure against. */
	loading_line(line, sizeof(line), "-", 0, 0, 3, 80);
	is_str(line, "tracetui: reading - ...", "a pipe: what is read");
	loading_line(line, sizeof(line), "a-rather-long-name.trace", 0, 0, 3,
	             30);
	is_str(line, "tracetui: reading ...", "a pipe on 30 columns");
	return done_testing();
}
