/*
 * pathid — file identity of a name: device and inode, or the normalised
 * name of a file not yet made; see include/pathid.h.
 */
#include "pathid.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* '%' doubled in s, into a new string; NULL out of memory. */
static char *escape_percent(char *s)
{
	size_t n = strlen(s), extra = 0;

	for (const char *p = s; *p; p++)
		extra += *p == '%';
	char *e = malloc(n + extra + 1), *o = e;
	if (e) {
		for (const char *p = s; *p; p++)
			if ((*o++ = *p) == '%')
				*o++ = '%';
		*o = 0;
	}
	free(s);
	return e;
}

/*
 * realpath() of path's directory, "/", its last component (pattern: the
 * directory's '%' doubled); malloc'ed, NULL out of memory.
 */
static char *normalise(const char *path, int pattern)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	if (!dir)
		return NULL;
	if (pattern) /* the directory as the frames name it: "%%" is one '%' */
		for (char *r = dir, *w = dir; (*w = *r) != 0; r++, w++)
			if (r[0] == '%' && r[1] == '%')
				r++;
	char *real = realpath(dir, NULL);
	free(dir);
	if (!real)
		return errno == ENOMEM ? NULL : strdup(path); /* a missing directory: refused elsewhere */
	if (pattern && !(real = escape_percent(real)))
		return NULL;
	size_t len = strlen(real) + 1 + strlen(base) + 1;
	char *name = malloc(len);
	if (name)
		snprintf(name, len, "%s%s%s", real, strcmp(real, "/") == 0 ? "" : "/", base);
	free(real);
	return name;
}

/*
 * The descriptor a standard stream's name stands for (0, 1, 2), or -1: by
 * name, as the shell and awk read them, so that they are the streams also
 * where /dev has no such links (a bare chroot).
 */
static int std_fd(const char *path)
{
	static const char *const names[] = { "/dev/stdin", "/dev/stdout", "/dev/stderr" };

	for (int fd = 0; fd < 3; fd++)
		if (strcmp(path, names[fd]) == 0)
			return fd;
	return -1;
}

int pathid_get(struct pathid *id, const char *path, unsigned flags)
{
	struct stat st;
	int stdout_ = (flags & PATHID_DASH_STDOUT) && strcmp(path, "-") == 0;
	int pattern = (flags & PATHID_PATTERN) != 0;
	int fd = stdout_ ? STDOUT_FILENO : std_fd(path);

	memset(id, 0, sizeof(*id));
	if (!pattern && (fd >= 0 ? fstat(fd, &st) == 0 : stat(path, &st) == 0)) {
		id->exists = 1;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		id->mode = st.st_mode;
		id->rdev = st.st_rdev;
	}
	if (stdout_)
		return 0;
	id->name = normalise(path, pattern);
	return id->name ? 0 : -ENOMEM;
}

int pathid_same(const struct pathid *a, const struct pathid *b)
{
	if (a->exists || b->exists)
		return a->exists && b->exists && a->dev == b->dev && a->ino == b->ino;
	return a->name && b->name && strcmp(a->name, b->name) == 0;
}

int pathid_is_null(const struct pathid *id)
{
	struct stat st;

	return id->exists && S_ISCHR(id->mode) && stat("/dev/null", &st) == 0 &&
	       S_ISCHR(st.st_mode) && st.st_rdev == id->rdev;
}

void pathid_release(struct pathid *id)
{
	free(id->name);
	id->name = NULL;
}
