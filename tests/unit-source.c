/*
 * unit-source: `o`'s search for a method's source file (package path,
 * .java then .kt, the key's source name in the package folder, the
 * bounded walk, names that would leave the folder refused, what the
 * message says was searched), the editor's argv ($VISUAL, $EDITOR, vi,
 * +LINE, a file starting with '-') and running it without a shell: a
 * stub editor records its arguments, and a file name holding shell
 * syntax stays one argument that runs nothing.
 */
#include "config.h"

#include "tui/source.h"

#include "tap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];

/* Create root/rel (and its folders) holding text. */
static void
put(const char *rel, const char *text)
{
	char path[1024], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static struct tt_method
method(const char *klass, const char *file, long line)
{
	struct tt_method m = {0};

	m.klass = klass;
	m.name = "run";
	m.signature = "()V";
	m.file = file;
	m.line = line;
	m.defined = true;
	return m;
}

/* source_find under dir alone: the path relative to root, or NULL. */
static const char *
find(const char *dir, struct tt_method m, char *why, size_t size)
{
	static char rel[1024];
	char full[512];
	const char *dirs[1] = {full};
	char *got;

	snprintf(full, sizeof(full), "%s/%s", root, dir);
	got = source_find(dirs, 1, &m, why, size);
	if (!got)
		return NULL;
	snprintf(rel, sizeof(rel), "%s", got + strlen(root) + 1);
	free(got);
	return rel;
}

static void
test_find(void)
{
	char why[512];
	const char *dirs[2];
	char a[512], b[512], *got;
	struct tt_method m;

	put("src/com/foo/Bar.java", "class Bar {}\n");
	put("src/com/foo/Both.java", "\n");
	put("src/com/foo/Both.kt", "\n");
	put("src/com/foo/Kot.kt", "\n");
	put("src/com/foo/Util.kt", "\n");
	put("src/deep/a/b/c/Elsewhere.kt", "\n");
	put("other/com/foo/Late.java", "\n");

	is_str(find("src", method("com.foo.Bar", "Bar.java", 12), why,
	            sizeof(why)),
	       "src/com/foo/Bar.java",
	       "class com.foo.Bar: DIR/com/foo/Bar.java");
	is_str(find("src", method("com/foo/Bar$Inner$1", NULL, -1), why,
	            sizeof(why)),
	       "src/com/foo/Bar.java",
	       "slashed class, nested: the outer class's file");
	is_str(find("src", method("com.foo.Both", NULL, -1), why, sizeof(why)),
	       "src/com/foo/Both.java", ".java before .kt");
	is_str(find("src", method("com.foo.Kot", NULL, -1), why, sizeof(why)),
	       "src/com/foo/Kot.kt", "a Kotlin class: DIR/com/foo/Kot.kt");
	is_str(find("src", method("com.foo.UtilKt", "Util.kt", 3), why,
	            sizeof(why)),
	       "src/com/foo/Util.kt",
	       "the key's source name in the package folder");
	is_str(find("src", method("org.moved.Elsewhere", "Elsewhere.kt", 1),
	            why, sizeof(why)),
	       "src/deep/a/b/c/Elsewhere.kt",
	       "not under its package: found by the walk below DIR");

	ok(!find("src", method("com.foo.Gone", "Gone.java", 5), why,
	         sizeof(why)),
	   "a missing file is not found");
	ok(strstr(why, "src/com/foo/Gone.java or .kt") &&
	           strstr(why, "no Gone.java below"),
	   "the message says what was searched: %s", why);

	/* Names that would leave DIR are refused, not searched. */
	put("secret.java", "\n");
	ok(!find("src", method("..secret", "../secret.java", 1), why,
	         sizeof(why)),
	   "a source name with ../ is never joined to DIR");
	ok(!find("src", method("...secret", NULL, -1), why, sizeof(why)),
	   "a class whose package is .. is refused");

	/* Every DIR in turn. */
	snprintf(a, sizeof(a), "%s/src", root);
	snprintf(b, sizeof(b), "%s/other", root);
	dirs[0] = a;
	dirs[1] = b;
	m = method("com.foo.Late", "Late.java", 7);
	got = source_find(dirs, 2, &m, why, sizeof(why));
	ok(got && strstr(got, "/other/com/foo/Late.java"),
	   "the second --source-dir is searched too");
	free(got);
	got = source_find(dirs, 0, &m, why, sizeof(why));
	ok(!got && strstr(why, "no --source-dir"),
	   "without --source-dir the message says so: %s", why);
}

/* The argv for path at line as one string, words joined by '|'. */
static const char *
argv_text(const char *path, long line)
{
	static char buf[512];
	char **argv = source_editor_argv(path, line);
	size_t i;

	buf[0] = '\0';
	for (i = 0; argv[i]; i++) {
		if (i)
			strcat(buf, "|");
		strcat(buf, argv[i]);
	}
	source_argv_free(argv);
	return buf;
}

static void
test_argv(void)
{
	unsetenv("VISUAL");
	unsetenv("EDITOR");
	is_str(argv_text("/s/Bar.java", 12), "vi|+12|/s/Bar.java",
	       "no VISUAL or EDITOR: vi +LINE FILE");
	setenv("EDITOR", "nano", 1);
	is_str(argv_text("/s/Bar.java", 12), "nano|+12|/s/Bar.java",
	       "EDITOR when VISUAL is unset");
	setenv("VISUAL", "emacs  -nw", 1);
	is_str(argv_text("/s/Bar.java", 12), "emacs|-nw|+12|/s/Bar.java",
	       "VISUAL first, split at blanks");
	is_str(argv_text("/s/Bar.java", -1), "emacs|-nw|/s/Bar.java",
	       "no line: no +LINE");
	is_str(argv_text("-rf/Bar.java", 3), "emacs|-nw|+3|./-rf/Bar.java",
	       "a file that looks like an option gets ./");
	is_str(argv_text("+q/Bar.java", 3), "emacs|-nw|+3|./+q/Bar.java",
	       "a file that looks like a +command gets ./");
	is_str(argv_text("src/Bar.java", 3), "emacs|-nw|+3|./src/Bar.java",
	       "every relative path gets ./");
	is_str(argv_text("/s/$(touch x);y`z`.java", 1),
	       "emacs|-nw|+1|/s/$(touch x);y`z`.java",
	       "shell syntax in a name stays one argument, as it is");
	setenv("VISUAL", "", 1);
	is_str(argv_text("/s/A.kt", 2), "nano|+2|/s/A.kt",
	       "an empty VISUAL counts as unset");
}

static void
test_run(void)
{
	char stub[512], log[512], hostile[2048], marker[512], line[4096];
	char *argv[4];
	FILE *f;
	int rc;

	snprintf(stub, sizeof(stub), "%s/editor", root);
	snprintf(log, sizeof(log), "%s/args", root);
	snprintf(marker, sizeof(marker), "%s/pwned", root);
	f = fopen(stub, "w");
	if (!f) {
		ok(false, "cannot write the stub editor");
		return;
	}
	fprintf(f,
	        "#!/bin/sh\nfor a in \"$@\"; do printf '%%s\\n' \"$a\"; "
	        "done >'%s'\nexit 3\n",
	        log);
	fclose(f);
	chmod(stub, 0755);
	/* A file name as a hostile key could make it. */
	snprintf(hostile, sizeof(hostile), "%s/x;touch %s;$(touch %s).java",
	         root, marker, marker);
	argv[0] = stub;
	argv[1] = "+42";
	argv[2] = hostile;
	argv[3] = NULL;
	rc = source_run(argv);
	is_u64((uint64_t)rc, 3, "source_run returns the editor's exit status");
	f = fopen(log, "r");
	ok(f && fgets(line, sizeof(line), f) && !strcmp(line, "+42\n"),
	   "the stub got +LINE first");
	ok(f && fgets(line, sizeof(line), f) &&
	           !strncmp(line, hostile, strlen(hostile)) &&
	           line[strlen(hostile)] == '\n',
	   "then the file name, one argument, unchanged");
	ok(f && !fgets(line, sizeof(line), f), "and nothing else");
	if (f)
		fclose(f);
	ok(access(marker, F_OK) != 0, "no shell ran: the name ran nothing");

	argv[0] = "/nonexistent/editor";
	errno = 0;
	rc = source_run(argv);
	ok(rc == -1 && errno == ENOENT,
	   "an editor that cannot start: -1 with its errno");
}

int
main(void)
{
	char cmd[600];

	snprintf(root, sizeof(root), "%s/unit-source.XXXXXX",
	         getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root))
		return skip_all("cannot make a temporary folder");
	test_find();
	test_argv();
	test_run();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", root);
	return done_testing();
}
