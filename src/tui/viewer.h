/*
 * viewer: `tracetui FILE`, the interactive viewer: loads the trace, takes
 * over the terminal, and runs the app until the user quits or a signal
 * arrives; the terminal is restored on every way out.
 */
#ifndef TRACETUI_VIEWER_H
#define TRACETUI_VIEWER_H

/* Run the viewer with argv as on the command line; the exit status. */
int viewer_main(int argc, char **argv);
/* Print the viewer's options, one --help line each, to stdout. */
void viewer_help_options(void);

#endif
