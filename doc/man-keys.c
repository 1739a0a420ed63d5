/*
 * man-keys: copy the man page template from standard input to standard
 * output, replacing the line "@KEYS@" with the key list generated from
 * REQUEST_LIST, the same table the viewer's key handler and help use,
 * and the line "@OPTIONS@" with the option table the commands parse
 * from and print their --help from.
 */
#include "config.h"

#include "cli/cmd.h"
#include "tui/request.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Write s with roff's special characters escaped. */
static void
roff(const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", stdout);
		else if (*s == '-')
			fputs("\\-", stdout);
		else
			putchar(*s);
	}
}

static void
keys(void)
{
	const char *group = NULL;
	size_t i;

	for (i = 0; i < REQ_COUNT - 1; i++) {
		const struct request_info *r = &request_table[i];

		if (!group || strcmp(group, r->group) != 0) {
			group = r->group;
			printf(".SS %s\n", group);
		}
		printf(".TP\n.B ");
		roff(r->keys);
		putchar('\n');
		roff(r->help);
		putchar('\n');
	}
}

static void
options(void)
{
	char flags[64];
	const char *help, *more;
	size_t i;

	for (i = 0; cmd_option_doc(i, flags, sizeof(flags), &help, &more);
	     i++) {
		const char *f = flags;
		char first[2] = {0, 0};

		while (*f == ' ')
			f++;
		printf(".TP\n.B ");
		roff(f);
		printf("\n");
		first[0] = (char)toupper((unsigned char)help[0]);
		roff(first);
		roff(help + 1);
		printf(".");
		if (more) {
			putchar(' ');
			roff(more);
		}
		putchar('\n');
	}
	printf(".TP\n.B ");
	roff("-h, --help, -V, --version");
	printf("\nHelp for the command, or the version.\n");
}

int
main(void)
{
	char line[4096];

	while (fgets(line, sizeof(line), stdin)) {
		if (strcmp(line, "@KEYS@\n") == 0)
			keys();
		else if (strcmp(line, "@OPTIONS@\n") == 0)
			options();
		else
			fputs(line, stdout);
	}
	return 0;
}
