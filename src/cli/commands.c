/*
 * commands: the batch commands, for main.c's dispatch and usage and for
 * the shell completions doc/completions writes.
 */
#include "config.h"

#include "cli/cmd.h"

#include <stddef.h>

const struct cmd_command cmd_commands[] = {
        {"report", cmd_report, "per-method profile table"},
        {"tree", cmd_tree, "top-down merged call tree, pruned by --min-pct"},
        {"calls", cmd_calls,
         "every call of matching methods: thread, start, wall, cpu, depth"},
        {"frames", cmd_frames,
         "every frame against its budget: slow, frozen, percentiles"},
        {"triage", cmd_triage,
         "the one-screen answer: main thread, startup, frames, findings"},
        {"info", cmd_info, "format, properties, threads, anomalies"},
        {"dump", cmd_dump, "the records in file order, as dmtracedump -o"},
        {"folded", cmd_folded,
         "folded stacks for FlameGraph, flamelens, speedscope"},
        {"diff", cmd_diff, "per-method comparison of two traces"},
        {"export", cmd_export,
         "speedscope or Chrome JSON, a dot call graph, an HTML report"},
        {"flamegraph", cmd_flamegraph, "a flame graph as a self-contained SVG"},
        {"paths", cmd_paths,
         "heap dump: the shortest strong path from a GC root to an object"},
        {"leaks", cmd_leaks,
         "heap dump: leak suspects, each with its path and retained size"},
        {NULL, NULL, NULL},
};
