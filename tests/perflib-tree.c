/*
 * perflib-tree: print one thread's call tree the way Android Studio's
 * perflib tests write their expectations, so tests can compare tracetui's
 * reconstruction with theirs byte for byte.
 *
 *   perflib-tree FILE THREAD-NAME
 *
 * Each node is " -> class.name: signature"; the first child follows on
 * the same line, later children start a new line indented to the column
 * where their parent's text ended.  The root is the thread itself.
 */
#include "config.h"

#include "model/calltree.h"
#include "model/open.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
print_node(const struct calltree *tree, const char *text, size_t indent,
           uint32_t first, uint32_t end, uint32_t self)
{
	size_t width = indent + strlen(text);
	uint32_t c;
	bool first_child = true;

	fputs(text, stdout);
	for (c = first; c < end; c++) {
		const struct tt_method *m;
		char *child;
		size_t len;

		if (calltree_parent(tree, c) != self)
			continue;
		m = &tree->methods[calltree_method(tree, c)];
		len = strlen(m->klass) + strlen(m->name) +
		      strlen(m->signature) + 8;
		child = malloc(len);
		snprintf(child, len, " -> %s.%s: %s", m->klass, m->name,
		         m->signature);
		if (!first_child)
			printf("\n%*s", (int)width, "");
		first_child = false;
		print_node(tree, child, width, c + 1, end, c);
		free(child);
	}
}

int
main(int argc, char **argv)
{
	struct trace_error err = {0};
	struct calltree *tree;
	const struct tt_thread *t = NULL;
	char *root;
	size_t i;

	if (argc != 3) {
		fprintf(stderr, "usage: perflib-tree FILE THREAD-NAME\n");
		return 2;
	}
	tree = calltree_load(argv[1], &err);
	if (!tree) {
		fprintf(stderr, "perflib-tree: %s\n", err.message);
		return 3;
	}
	for (i = 0; i < tree->nthreads; i++)
		if (strcmp(tree->threads[i].name, argv[2]) == 0)
			t = &tree->threads[i];
	if (!t) {
		fprintf(stderr, "perflib-tree: no thread '%s'\n", argv[2]);
		return 2;
	}
	root = malloc(strlen(t->name) + 8);
	sprintf(root, " -> %s.: ", t->name);
	print_node(tree, root, 0, t->first_call, t->first_call + t->ncalls,
	           CALL_NONE);
	printf("\n");
	free(root);
	calltree_free(tree);
	return 0;
}
