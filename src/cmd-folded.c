#include "config.h"

#include "cmd.h"

int
cmd_folded(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return CMD_USAGE;
}
