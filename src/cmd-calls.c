#include "config.h"

#include "cmd.h"

int
cmd_calls(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return CMD_USAGE;
}
