/*
 * info: what the file is (format, version, clock, sampled or not),
 * its key properties, its threads, and every anomaly and warning.
 */
#include "config.h"

#include "cli/cmd.h"
#include "query/summary.h"

#include <stdio.h>

static const struct cmd_spec info_spec = {
        .name = "info",
        .args = "FILE",
        .summary = "Print the format, properties, threads and anomalies of a "
                   "trace.",
        .options = OPT_SAMPLE_TYPE,
        .min_args = 1,
        .max_args = 1,
        .key_only = true,
};

int
cmd_info(int argc, char **argv)
{
	struct cmd_opts opts;
	struct calltree *tree;
	struct summary s;
	size_t i;
	int status = cmd_parse(&info_spec, argc, argv, &opts);

	if (status >= 0)
		return status;
	tree = cmd_load(&opts, opts.args[0]);
	cmd_opts_done(&opts);
	if (!tree)
		return cmd_load_status();
	summary_build(&s, tree);
	for (i = 0; i < s.count; i++)
		puts(s.lines[i]);
	summary_done(&s);
	calltree_free(tree);
	return CMD_OK;
}
