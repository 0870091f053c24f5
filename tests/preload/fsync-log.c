/*
 * An LD_PRELOAD library for the durability test (tests/test_durability.c,
 * in make test): logs every successful fsync/fdatasync
 * and every rename/link that gives a file its final name, each with the
 * file's device and inode, one line per call to $BOIDS_FSYNC_LOG:
 *
 *   fsync DEV:INO
 *   commit DEV:INO NEW-PATH        (rename, renameat, link, linkat)
 *
 * so the test can see that every output's bytes were on the disk before
 * the name pointed at them.  Built by make as $(BUILD)/tests/fsync-log.so;
 * not part of boids.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void note(const char *what, const struct stat *st, const char *path)
{
	const char *log = getenv("BOIDS_FSYNC_LOG");
	char line[4200];
	if (!log)
		return;
	int n = snprintf(line, sizeof line, "%s %ju:%ju%s%s\n", what, (uintmax_t)st->st_dev,
	                 (uintmax_t)st->st_ino, path ? " " : "", path ? path : "");
	int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (n > 0 && write(fd, line, (size_t)n) < 0)
		abort();
	close(fd);
}

typedef int (*fd_fn)(int);
typedef int (*path2_fn)(const char *, const char *);
typedef int (*at2_fn)(int, const char *, int, const char *);
typedef int (*linkat_fn)(int, const char *, int, const char *, int);

#define REAL(name, type) type real = (type)dlsym(RTLD_NEXT, name)

int fsync(int fd)
{
	REAL("fsync", fd_fn);
	struct stat st;
	int r = real(fd);
	if (r == 0 && fstat(fd, &st) == 0)
		note("fsync", &st, NULL);
	return r;
}

int fdatasync(int fd)
{
	REAL("fdatasync", fd_fn);
	struct stat st;
	int r = real(fd);
	if (r == 0 && fstat(fd, &st) == 0)
		note("fsync", &st, NULL);
	return r;
}

int rename(const char *from, const char *to)
{
	REAL("rename", path2_fn);
	struct stat st;
	int known = lstat(from, &st) == 0, r = real(from, to);
	if (r == 0 && known)
		note("commit", &st, to);
	return r;
}

int renameat(int fd1, const char *from, int fd2, const char *to)
{
	REAL("renameat", at2_fn);
	struct stat st;
	int known = fstatat(fd1, from, &st, AT_SYMLINK_NOFOLLOW) == 0, r = real(fd1, from, fd2, to);
	if (r == 0 && known)
		note("commit", &st, to);
	return r;
}

int link(const char *from, const char *to)
{
	REAL("link", path2_fn);
	struct stat st;
	int known = lstat(from, &st) == 0, r = real(from, to);
	if (r == 0 && known)
		note("commit", &st, to);
	return r;
}

int linkat(int fd1, const char *from, int fd2, const char *to, int flags)
{
	REAL("linkat", linkat_fn);
	struct stat st;
	int known = fstatat(fd1, from, &st, AT_SYMLINK_NOFOLLOW) == 0, r = real(fd1, from, fd2, to, flags);
	if (r == 0 && known)
		note("commit", &st, to);
	return r;
}
