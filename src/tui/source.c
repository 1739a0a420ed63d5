/*
 * source: candidates are tried with stat, most likely first; the walk
 * is depth-first over readdir without following symbolic links, and
 * stops after SOURCE_WALK_ENTRIES entries in all, so a folder such as /
 * costs a bounded time.  The editor runs in a child with the default
 * dispositions of the signals the viewer ignores or catches, while the
 * viewer ignores Ctrl-C and Ctrl-\ that are meant for the editor.
 */
#include "config.h"

#include "tui/source.h"

#include "util/alloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* True when path names a regular file. */
static bool
is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* True when name is one plain file name: no '/', not "." or "..". */
static bool
plain_name(const char *name)
{
	return name[0] && !strchr(name, '/') && strcmp(name, ".") != 0 &&
	       strcmp(name, "..") != 0;
}

/* The package of class k as a relative folder ("com/foo", "" for none)
 * and the class's own name without its nested classes ("Bar"), both
 * new strings; false when k has no usable name. */
static bool
split_class(const char *k, char **package, char **name)
{
	const char *dot = strrchr(k, '.'), *slash = strrchr(k, '/');
	const char *sep = dot > slash ? dot : slash;
	const char *own = sep ? sep + 1 : k;
	size_t len = strcspn(own, "$"), i;
	char *pkg;

	if (!len)
		return false;
	pkg = xstrdup(k);
	pkg[sep ? (size_t)(sep - k) : 0] = '\0';
	for (i = 0; pkg[i]; i++)
		if (pkg[i] == '.')
			pkg[i] = '/';
	/* Each part must be a plain name: no "..", no empty part. */
	for (i = 0; pkg[i];) {
		size_t n = strcspn(pkg + i, "/");

		if (!n || (n == 2 && !strncmp(pkg + i, "..", 2)) ||
		    (n == 1 && pkg[i] == '.')) {
			free(pkg);
			return false;
		}
		i += n + (pkg[i + n] == '/');
	}
	*package = pkg;
	*name = xasprintf("%.*s", (int)len, own);
	if (!plain_name(*name)) {
		free(*package);
		free(*name);
		return false;
	}
	return true;
}

/* "DIR/PKG/NAME" or "DIR/NAME" without a package. */
static char *
join(const char *dir, const char *pkg, const char *name)
{
	return xasprintf("%s/%s%s%s", dir, pkg, *pkg ? "/" : "", name);
}

struct walk {
	const char *want;
	size_t entries;
	char *found;
};

/* Depth-first search of dir for a regular file named w->want. */
static void
walk(struct walk *w, const char *dir, int depth)
{
	DIR *d;
	struct dirent *e;

	if (depth > SOURCE_WALK_DEPTH || w->found)
		return;
	d = opendir(dir);
	if (!d)
		return;
	while (!w->found && w->entries < SOURCE_WALK_ENTRIES &&
	       (e = readdir(d))) {
		char *path;
		struct stat st;

		w->entries++;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		if (lstat(path, &st) == 0) {
			if (S_ISREG(st.st_mode) && !strcmp(e->d_name, w->want))
				w->found = xstrdup(path);
			else if (S_ISDIR(st.st_mode))
				walk(w, path, depth + 1);
		}
		free(path);
	}
	closedir(d);
}

char *
source_find(const char *const *dirs, size_t ndirs, const struct tt_method *m,
            char *why, size_t size)
{
	char *pkg = NULL, *own = NULL, *found = NULL, *file = NULL;
	const char *want;
	bool have_class = m->klass && split_class(m->klass, &pkg, &own);
	size_t i;

	/* The key's source file name, only as a name inside DIR. */
	if (m->file && plain_name(m->file))
		file = xstrdup(m->file);
	if (!ndirs) {
		snprintf(why, size, "no --source-dir given to search for %s",
		         file  ? file
		         : own ? own
		               : "the source");
		goto out;
	}
	for (i = 0; i < ndirs && !found && have_class; i++) {
		static const char *const exts[] = {".java", ".kt"};
		size_t x;

		for (x = 0; x < 2 && !found; x++) {
			char *name = xasprintf("%s%s", own, exts[x]);
			char *path = join(dirs[i], pkg, name);

			if (is_file(path))
				found = path;
			else
				free(path);
			free(name);
		}
		if (!found && file) {
			char *path = join(dirs[i], pkg, file);

			if (is_file(path))
				found = path;
			else
				free(path);
		}
	}
	want = file ? file : own ? xasprintf("%s.java", own) : NULL;
	for (i = 0; i < ndirs && !found && want; i++) {
		struct walk w = {want, 0, NULL};

		walk(&w, dirs[i], 0);
		found = w.found;
	}
	if (!found && have_class)
		snprintf(why, size,
		         "source not found: no %s/%s%s%s.java or .kt%s%s, "
		         "and no %s below %s%s",
		         dirs[0], pkg, *pkg ? "/" : "", own, file ? " or " : "",
		         file ? file : "", want, dirs[0],
		         ndirs > 1 ? " or the other --source-dir" : "");
	else if (!found && want)
		snprintf(why, size, "source not found: no %s below %s%s", want,
		         dirs[0],
		         ndirs > 1 ? " or the other --source-dir" : "");
	else if (!found)
		snprintf(why, size,
		         "the key names no class or source file for "
		         "this method");
	if (want != file)
		free((char *)want);
out:
	free(pkg);
	free(own);
	free(file);
	return found;
}

char **
source_editor_argv(const char *path, long line)
{
	const char *editor = getenv("VISUAL");
	char **argv, *words, *p;
	size_t n = 0, cap;

	if (!editor || !*editor)
		editor = getenv("EDITOR");
	if (!editor || !*editor)
		editor = "vi";
	words = xstrdup(editor);
	cap = strlen(words) / 2 + 4;
	argv = xcalloc(cap, sizeof(*argv));
	for (p = strtok(words, " \t"); p; p = strtok(NULL, " \t"))
		argv[n++] = xstrdup(p);
	free(words);
	if (!n)
		argv[n++] = xstrdup("vi");
	if (line >= 1)
		argv[n++] = xasprintf("+%ld", line);
	/* A relative path gets ./ first: an editor takes a word that
	 * starts with - as an option and one that starts with + as a
	 * command (--source-dir +dir, or -rf). */
	argv[n++] = path[0] == '/' ? xstrdup(path) : xasprintf("./%s", path);
	argv[n] = NULL;
	return argv;
}

void
source_argv_free(char **argv)
{
	size_t i;

	if (!argv)
		return;
	for (i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
}

int
source_run(char *const *argv)
{
	struct sigaction ign, old_int, old_quit;
	int fds[2], status, err = 0;
	pid_t pid;
	ssize_t got;

	if (pipe(fds) != 0)
		return -1;
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	pid = fork();
	if (pid == 0) {
		/* Dispositions the viewer set would outlive exec. */
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		close(fds[0]);
		execvp(argv[0], argv);
		err = errno;
		if (write(fds[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(fds[1]);
	if (pid < 0) {
		err = errno;
		close(fds[0]);
		status = -1;
		goto out;
	}
	/* The exec's errno, or nothing when the exec closed the pipe. */
	do
		got = read(fds[0], &err, sizeof(err));
	while (got < 0 && errno == EINTR);
	close(fds[0]);
	if (got != (ssize_t)sizeof(err))
		err = 0;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			err = errno;
			break;
		}
	if (err)
		status = -1;
	else if (WIFEXITED(status))
		status = WEXITSTATUS(status);
	else
		status = 128 + WTERMSIG(status);
out:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (status < 0)
		errno = err;
	return status;
}
