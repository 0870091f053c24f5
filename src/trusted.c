/*
 * trusted — may a file be trusted as code; see include/trusted.h.  The walk
 * is trusted_path(): a realpath() that judges each directory it enters and
 * the file it ends on, by judge().
 */
#include "trusted.h"

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAX_LINKS = 40 }; /* as the kernel's path walk */

/*
 * Is gid the private group of uid: no other user has it as primary group,
 * and its member list names nobody else?  (A group nobody belongs to is
 * not: it is typically a setgid program's.)
 */
static int private_group(gid_t gid, uid_t uid)
{
	struct group *g = getgrgid(gid);
	struct passwd *owner = getpwuid(uid), *p;
	int members = 0, others = 0;

	if (!g || !owner)
		return 0;
	for (char **m = g->gr_mem; *m; m++) {
		if (strcmp(*m, owner->pw_name) != 0)
			return 0;
		members = 1;
	}
	setpwent();
	while ((p = getpwent()) != NULL)
		if (p->pw_gid == gid) {
			members |= p->pw_uid == uid;
			others |= p->pw_uid != uid;
		}
	endpwent();
	return members && !others;
}

/* Could a user other than root and us replace what st describes?  0, or -EPERM with why. */
static int judge(const char *path, const struct stat *st, char *why, size_t len)
{
	int dir = S_ISDIR(st->st_mode);
	const char *what = dir ? "the directory " : "";
	unsigned mode = (unsigned)st->st_mode & 07777;

	if (st->st_uid != 0 && st->st_uid != getuid() && st->st_uid != geteuid()) {
		snprintf(why, len, "%s'%s' belongs to another user (uid %u)", what, path, (unsigned)st->st_uid);
		return -EPERM;
	}
	if ((mode & S_IWOTH) && !(dir && (mode & S_ISVTX))) {
		snprintf(why, len, "%s'%s' is writable by other users (mode %04o%s)", what, path, mode,
		         dir ? ", no sticky bit" : "");
		return -EPERM;
	}
	if ((mode & S_IWGRP) && !(dir && (mode & S_ISVTX)) && !private_group(st->st_gid, st->st_uid)) {
		snprintf(why, len, "%s'%s' is writable by its group (gid %u, mode %04o), which has other members",
		         what, path, (unsigned)st->st_gid, mode);
		return -EPERM;
	}
	return 0;
}

/* The walk's state: the canonical directory reached, and what is left to walk. */
struct walk {
	char done[PATH_MAX];   /* "" for /, else "/a/b": no symbolic link in it */
	char todo[PATH_MAX];   /* the rest, relative to done */
	int links;
};

/* Takes the next component of w->todo into name; 0 at the end. */
static int next_name(struct walk *w, char *name, size_t len)
{
	char *p = w->todo;

	while (*p == '/')
		p++;
	size_t n = strcspn(p, "/");
	if (n == 0)
		return 0;
	snprintf(name, len, "%.*s", (int)n, p);
	memmove(w->todo, p + n, strlen(p + n) + 1);
	return n < len ? 1 : -1;
}

/* A symbolic link at path: its target, then the rest, becomes what is left to walk. */
static int follow(struct walk *w, const char *path, char *why, size_t len)
{
	char target[PATH_MAX], rest[PATH_MAX];
	ssize_t n = readlink(path, target, sizeof target - 1);

	if (++w->links > MAX_LINKS || n <= 0) {
		int e = w->links > MAX_LINKS ? ELOOP : n == 0 ? ENOENT : errno;
		snprintf(why, len, "'%s': %s", path, strerror(e));
		return -e;
	}
	target[n] = '\0';
	snprintf(rest, sizeof rest, "%s", w->todo);
	if (target[0] == '/')
		w->done[0] = '\0'; /* from the root again */
	if ((size_t)snprintf(w->todo, sizeof w->todo, "%s/%s", target, rest) >= sizeof w->todo) {
		snprintf(why, len, "'%s': %s", path, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	return 0;
}

/* One step of the walk: the component name in w->done; 1 when it ended on the file. */
static int step(struct walk *w, const char *name, char *why, size_t len)
{
	char path[PATH_MAX];
	struct stat st;

	if (strcmp(name, ".") == 0)
		return 0;
	if (strcmp(name, "..") == 0) { /* done holds no link: its parent is what it says */
		char *slash = strrchr(w->done, '/');
		if (slash)
			*slash = '\0';
		return 0;
	}
	if ((size_t)snprintf(path, sizeof path, "%s/%s", w->done, name) >= sizeof path) {
		snprintf(why, len, "'%s/%s…': %s", w->done, name, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	if (lstat(path, &st) != 0) {
		int e = errno;
		snprintf(why, len, "'%s': %s", path, strerror(e));
		return -e;
	}
	if (S_ISLNK(st.st_mode))
		return follow(w, path, why, len);
	int ret = judge(path, &st, why, len);
	if (ret)
		return ret;
	int last = w->todo[strspn(w->todo, "/")] == '\0';
	if (!S_ISDIR(st.st_mode) && !last) {
		snprintf(why, len, "'%s': %s", path, strerror(ENOTDIR));
		return -ENOTDIR;
	}
	snprintf(w->done, sizeof w->done, "%s", path);
	return last && !S_ISDIR(st.st_mode);
}

int trusted_path(const char *path, char *why, size_t whylen)
{
	struct walk w = { "", "", 0 };
	char name[NAME_MAX + 1];
	struct stat st;
	int ret, more, at_file = 0;

	if (path[0] != '/' || (size_t)snprintf(w.todo, sizeof w.todo, "%s", path) >= sizeof w.todo) {
		snprintf(why, whylen, "'%s': %s", path, strerror(path[0] != '/' ? EINVAL : ENAMETOOLONG));
		return path[0] != '/' ? -EINVAL : -ENAMETOOLONG;
	}
	if (stat("/", &st) != 0) {
		int e = errno;
		snprintf(why, whylen, "'/': %s", strerror(e));
		return -e;
	}
	if ((ret = judge("/", &st, why, whylen)) != 0)
		return ret;
	while (!at_file && (more = next_name(&w, name, sizeof name)) != 0) {
		if (more < 0) {
			snprintf(why, whylen, "'%s': %s", path, strerror(ENAMETOOLONG));
			return -ENAMETOOLONG;
		}
		if ((ret = step(&w, name, why, whylen)) < 0)
			return ret;
		at_file = ret;
	}
	if (!at_file) { /* it ended on a directory (or the root) */
		snprintf(why, whylen, "'%s': %s", path, strerror(EISDIR));
		return -EISDIR;
	}
	return 0;
}
