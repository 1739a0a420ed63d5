/*
 * completions: write the bash (argument "bash") or zsh ("zsh") completion
 * script for tracetui to standard output, from the tables the program
 * itself parses: the batch commands (cli/commands.c) and the option
 * table with what each value completes to (cli/cmd.c).  Values offered:
 * the words an option lists (clocks, formats, ...), files or folders;
 * a first word completes to a command or a file, later ones to files.
 */
#include "config.h"

#include "cli/cmd.h"

#include <stdio.h>
#include <string.h>

/* Write s for a single-quoted shell word ('\'' for a quote). */
static void
quoted(const char *s)
{
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*s);
	}
}

/* Write s for a zsh _arguments or _describe field inside single quotes:
 * brackets and colons escaped too. */
static void
zsh_field(const char *s)
{
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", stdout);
		else if (*s == '[' || *s == ']' || *s == ':' || *s == '\\')
			printf("\\%c", *s);
		else
			putchar(*s);
	}
}

static void
bash(void)
{
	const char *name, *value, *help, *complete;
	int shrt;
	size_t i;

	puts("# bash completion for tracetui -*- shell-script -*-\n"
	     "# Written by doc/completions from the program's own option "
	     "table.\n"
	     "\n"
	     "_tracetui()\n"
	     "{\n"
	     "\tlocal cur prev\n"
	     "\tcur=${COMP_WORDS[COMP_CWORD]}\n"
	     "\tprev=\n"
	     "\t((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
	     "\t# --option=value: the value after the '='.\n"
	     "\tif [[ $cur == --*=* ]]; then\n"
	     "\t\tprev=${cur%%=*}\n"
	     "\t\tcur=${cur#*=}\n"
	     "\telif [[ $cur == = ]]; then\n"
	     "\t\tcur=\n"
	     "\telif [[ $prev == = ]] && ((COMP_CWORD > 1)); then\n"
	     "\t\tprev=${COMP_WORDS[COMP_CWORD - 2]}\n"
	     "\tfi\n"
	     "\tCOMPREPLY=()\n"
	     "\tcase $prev in");
	for (i = 0;
	     cmd_option_complete(i, &name, &shrt, &value, &help, &complete);
	     i++) {
		if (!value)
			continue;
		printf("\t--%s", name);
		if (shrt)
			printf(" | -%c", shrt);
		printf(")\n");
		if (!complete)
			printf("\t\treturn ;; # %s: nothing to offer\n", value);
		else if (!strcmp(complete, "@file"))
			printf("\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
			       "\t\treturn ;;\n");
		else if (!strcmp(complete, "@dir"))
			printf("\t\tCOMPREPLY=($(compgen -d -- \"$cur\"))\n"
			       "\t\treturn ;;\n");
		else {
			printf("\t\tCOMPREPLY=($(compgen -W '");
			quoted(complete);
			printf("' -- \"$cur\"))\n\t\treturn ;;\n");
		}
	}
	puts("\tesac\n"
	     "\tif [[ $cur == -* ]]; then\n"
	     "\t\tCOMPREPLY=($(compgen -W '--help -h --version -V");
	for (i = 0;
	     cmd_option_complete(i, &name, &shrt, &value, &help, &complete);
	     i++) {
		printf("\t\t\t--%s", name);
		if (shrt)
			printf(" -%c", shrt);
		putchar('\n');
	}
	puts("\t\t\t' -- \"$cur\"))\n"
	     "\t\treturn\n"
	     "\tfi\n"
	     "\t# The first word: a command, or a file for the viewer.\n"
	     "\tif ((COMP_CWORD == 1)); then\n"
	     "\t\tCOMPREPLY=($(compgen -W '");
	for (i = 0; cmd_commands[i].name; i++)
		printf("\t\t\t%s\n", cmd_commands[i].name);
	puts("\t\t\t' -- \"$cur\") $(compgen -f -- \"$cur\"))\n"
	     "\t\treturn\n"
	     "\tfi\n"
	     "\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	     "}\n"
	     "complete -o filenames -F _tracetui tracetui");
}

static void
zsh(void)
{
	const char *name, *value, *help, *complete;
	int shrt;
	size_t i;

	puts("#compdef tracetui\n"
	     "# zsh completion for tracetui, written by doc/completions from\n"
	     "# the program's own option table.\n"
	     "\n"
	     "local -a commands args\n"
	     "local state\n"
	     "commands=(");
	for (i = 0; cmd_commands[i].name; i++) {
		printf("\t'%s:", cmd_commands[i].name);
		zsh_field(cmd_commands[i].summary);
		puts("'");
	}
	puts(")\n"
	     "args=(\n"
	     "\t'(- *)'{-h,--help}'[show this help]'\n"
	     "\t'(- *)'{-V,--version}'[show the version]'");
	for (i = 0;
	     cmd_option_complete(i, &name, &shrt, &value, &help, &complete);
	     i++) {
		bool many = strstr(help, "(repeatable)") != NULL;

		printf("\t%s", many ? "'*'" : "");
		if (shrt)
			printf("{-%c%s,--%s%s}'", shrt, value ? "+" : "", name,
			       value ? "=" : "");
		else
			printf("'--%s%s", name, value ? "=" : "");
		putchar('[');
		zsh_field(help);
		putchar(']');
		if (value) {
			putchar(':');
			zsh_field(value);
			putchar(':');
			if (!complete)
				putchar(' ');
			else if (!strcmp(complete, "@file"))
				fputs("_files", stdout);
			else if (!strcmp(complete, "@dir"))
				fputs("_files -/", stdout);
			else {
				putchar('(');
				quoted(complete);
				putchar(')');
			}
		}
		puts("'");
	}
	puts("\t'1: :->first'\n"
	     "\t'*:file:_files'\n"
	     ")\n"
	     "_arguments -s -S $args && return 0\n"
	     "case $state in\n"
	     "first)\n"
	     "\t_alternative 'commands:command:_describe -t commands command "
	     "commands' 'files:file:_files'\n"
	     "\t;;\n"
	     "esac");
}

int
main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "bash"))
		bash();
	else if (argc == 2 && !strcmp(argv[1], "zsh"))
		zsh();
	else {
		fputs("usage: completions bash|zsh\n", stderr);
		return 2;
	}
	return ferror(stdout) ? 1 : 0;
}
