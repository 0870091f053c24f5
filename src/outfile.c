/*
 * outfile — temporary file beside the final name, renamed when complete;
 * see include/outfile.h.
 *
 * Everything is decided from lstat() of the path (a link is never followed
 * by accident) and every file is opened exactly once: mkstemps() for a
 * temporary file (O_EXCL), open(O_NOFOLLOW) for a device or FIFO.
 */
#define _GNU_SOURCE /* sync_file_range */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "signals.h"

/* Directory part of path ("." when none), malloc'ed. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/* The process's umask, read once: umask() can only be read by setting it. */
static mode_t the_umask;
static pthread_once_t umask_once = PTHREAD_ONCE_INIT;

static void read_umask(void)
{
	the_umask = umask(0);
	umask(the_umask);
}

static mode_t file_mode(void)
{
	pthread_once(&umask_once, read_umask);
	return 0666 & ~the_umask;
}

static int is_special(mode_t m)
{
	return S_ISFIFO(m) || S_ISCHR(m) || S_ISBLK(m);
}

enum outfile_what outfile_what(const char *path)
{
	struct stat st;

	if (strcmp(path, "-") == 0)
		return OUTFILE_NOTHING;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? OUTFILE_NOTHING : OUTFILE_UNKNOWN;
	if (S_ISLNK(st.st_mode))
		return stat(path, &st) == 0 ? OUTFILE_SYMLINK : OUTFILE_DANGLING;
	if (S_ISREG(st.st_mode))
		return OUTFILE_REGULAR;
	if (S_ISDIR(st.st_mode))
		return OUTFILE_DIRECTORY;
	if (S_ISFIFO(st.st_mode))
		return OUTFILE_FIFO;
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
		return OUTFILE_DEVICE;
	return OUTFILE_SOCKET;
}

const char *outfile_what_name(enum outfile_what w)
{
	static const char *const names[] = {
		[OUTFILE_NOTHING] = "nothing", [OUTFILE_REGULAR] = "a file",
		[OUTFILE_DIRECTORY] = "a directory", [OUTFILE_FIFO] = "a FIFO",
		[OUTFILE_DEVICE] = "a device", [OUTFILE_SOCKET] = "a socket",
		[OUTFILE_SYMLINK] = "a symbolic link", [OUTFILE_DANGLING] = "a dangling symbolic link",
		[OUTFILE_UNKNOWN] = "something unreadable",
	};
	return names[w];
}

/* Base name and extension (with its dot, "" when none) of path. */
static void split(const char *path, const char **base, const char **ext, size_t *dirlen)
{
	const char *slash = strrchr(path, '/');

	*dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	*base = slash ? slash + 1 : path;
	*ext = strrchr(*base, '.');
	if (!*ext || *ext == *base)
		*ext = "";
}

/* Can ".base.XXXXXX.ext" be made beside path?  0 or -ENAMETOOLONG. */
static int check_tmp_name(const char *path)
{
	const char *base, *ext;
	size_t dirlen;

	split(path, &base, &ext, &dirlen);
	char *dir = dir_of(path);
	if (!dir)
		return -ENOMEM;
	long name_max = pathconf(dir, _PC_NAME_MAX);
	free(dir);
	if (name_max <= 0)
		name_max = NAME_MAX;
	size_t len = 1 + strlen(base) + 7 + strlen(ext);
	if (len > (size_t)name_max || dirlen + len + 1 > PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

int outfile_check(const char *path, int overwrite)
{
	struct stat st;
	char *real = NULL;
	int err = 0;

	if (strcmp(path, "-") == 0)
		return 0; /* standard output */
	if (path[0] == 0 || path[strlen(path) - 1] == '/')
		return -EISDIR;
	char *dir = dir_of(path);
	if (!dir)
		return -ENOMEM;
	int r = stat(dir, &st);
	free(dir);
	if (r != 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (lstat(path, &st) != 0) {
		if (errno != ENOENT)
			return -errno;
		return check_tmp_name(path);
	}
	if (S_ISLNK(st.st_mode)) {
		if (!overwrite)
			return -EEXIST;
		/* follow it: a link to a pipe (/dev/stdout) has no name to resolve */
		if (stat(path, &st) != 0)
			return errno == ENOENT || errno == ELOOP ? -ELOOP : -errno;
		if (S_ISREG(st.st_mode)) { /* replaced through a temporary beside the target */
			real = realpath(path, NULL);
			if (!real)
				return -errno;
			path = real;
		}
	}
	if (S_ISDIR(st.st_mode))
		err = -EISDIR;
	else if (S_ISSOCK(st.st_mode))
		err = -ENXIO;
	else if (!overwrite)
		err = -EEXIST;
	else if (S_ISREG(st.st_mode))
		err = check_tmp_name(path);
	free(real);
	return err;
}

const char *outfile_name(const struct outfile *o)
{
	return o->direct ? o->path : o->tmp;
}

/*
 * Writes a device or FIFO in place: opened once, never a regular file.
 * follow: o->path is a symlink the user asked to write through (-y), such
 * as /dev/stdout, whose target may have no name (a pipe); the fstat below
 * still refuses anything but a device or FIFO.
 */
static int begin_direct(struct outfile *o, int follow)
{
	struct stat st;
	int fd;

	o->direct = 1;
	/* a FIFO waits here for a reader; a stop signal ends the wait (-EINTR) */
	fd = signals_open(o->path, O_WRONLY | O_NOCTTY | (follow ? 0 : O_NOFOLLOW) | O_CLOEXEC, 0);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) != 0 || !is_special(st.st_mode)) {
		close(fd); /* replaced by a file since lstat: not ours to write into */
		return -EEXIST;
	}
	o->fd = fd;
	o->fp = fdopen(fd, "wb");
	if (!o->fp) {
		int e = errno;
		close(fd);
		o->fd = -1;
		return -e;
	}
	return 0;
}

/* The temporary file beside o->path; keep: copy mode and owner from *old. */
static int begin_tmp(struct outfile *o, const struct stat *old)
{
	const char *base, *ext;
	size_t dirlen;

	split(o->path, &base, &ext, &dirlen);
	/* dir/.base.XXXXXX.ext */
	size_t len = dirlen + 1 + strlen(base) + 7 + strlen(ext) + 1;
	o->tmp = malloc(len);
	if (!o->tmp)
		return -ENOMEM;
	snprintf(o->tmp, len, "%.*s.%s.XXXXXX%s", (int)dirlen, o->path, base, ext);
	int fd = mkstemps(o->tmp, (int)strlen(ext));
	if (fd < 0) {
		int e = errno;
		free(o->tmp);
		o->tmp = NULL;
		return -e;
	}
	o->fd = fd;
	/* mkstemps makes 0600: give the old file's mode, or the umask's. */
	if (old) {
		/* the owner where allowed (root), else the group if we are in it */
		if ((old->st_uid != geteuid() || old->st_gid != getegid()) &&
		    fchown(fd, old->st_uid, old->st_gid) != 0)
			(void)!fchown(fd, (uid_t)-1, old->st_gid);
		fchmod(fd, old->st_mode & 0777); /* after fchown, which may clear bits */
	} else {
		fchmod(fd, file_mode());
	}
	o->fp = fdopen(fd, "wb");
	if (!o->fp)
		return -errno;
	return 0;
}

int outfile_begin(struct outfile *o, const char *path, int overwrite)
{
	struct stat st;
	int err, exists;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->overwrite = overwrite;
	if (strcmp(path, "-") == 0) {
		o->direct = 1;
		o->fp = stdout;
		o->fd = STDOUT_FILENO;
		o->path = strdup(path);
		return o->path ? 0 : -ENOMEM;
	}
	exists = lstat(path, &st) == 0;
	if (!exists && errno != ENOENT)
		return -errno;
	if (exists && S_ISLNK(st.st_mode)) {
		if (!overwrite)
			return -EEXIST;
		struct stat target;
		if (stat(path, &target) == 0 && is_special(target.st_mode)) {
			if (!(o->path = strdup(path)))
				return -ENOMEM;
			err = begin_direct(o, 1); /* /dev/stdout, a link to a FIFO */
			if (err)
				goto fail;
			return 0;
		}
		o->path = realpath(path, NULL); /* write the link's target */
		if (!o->path)
			return errno == ENOENT ? -ELOOP : -errno;
		exists = lstat(o->path, &st) == 0;
		if (!exists && errno != ENOENT) {
			err = -errno;
			goto fail;
		}
	} else if (!(o->path = strdup(path))) {
		return -ENOMEM;
	}
	if (exists && (S_ISDIR(st.st_mode) || S_ISSOCK(st.st_mode))) {
		err = S_ISDIR(st.st_mode) ? -EISDIR : -ENXIO;
		goto fail;
	}
	if (exists && is_special(st.st_mode))
		err = overwrite ? begin_direct(o, 0) : -EEXIST;
	else /* an existing file without overwrite: commit's link() refuses it */
		err = begin_tmp(o, exists && overwrite ? &st : NULL);
	if (err)
		goto fail;
	return 0;
fail:
	outfile_abort(o);
	return err;
}

/* Is the temporary name still the file open on fd?  0 or -ESTALE. */
static int still_ours(const struct outfile *o)
{
	struct stat a, b;

	if (fstat(o->fd, &a) != 0 || lstat(o->tmp, &b) != 0 ||
	    a.st_dev != b.st_dev || a.st_ino != b.st_ino)
		return -ESTALE;
	return 0;
}

int outfile_commit(struct outfile *o)
{
	int err = 0;

	if (o->fp) {
		if (fflush(o->fp) != 0 || ferror(o->fp))
			err = -(errno ? errno : EIO);
		int r = 0;
		while (!err && !o->direct && (r = fsync(o->fd)) != 0 && errno == EINTR)
			; /* a signal's handler ran (stop or not): the bytes are still to sync */
		if (!err && !o->direct && r != 0 && errno != EINVAL && errno != EROFS)
			err = -errno;
		if (!err && !o->direct)
			err = still_ours(o);
		/* the buffer is flushed above: an EINTR here is close(2)'s, which
		 * has released the descriptor all the same (never closed twice) */
		if (o->fp != stdout && fclose(o->fp) != 0 && !err && errno != EINTR)
			err = -(errno ? errno : EIO);
		o->fp = NULL;
		o->fd = -1;
	}
	if (o->direct) {
		free(o->path);
		o->path = NULL;
		o->direct = 0;
		return err;
	}
	if (err == -ESTALE) {
		free(o->tmp); /* not ours any more: leave it alone */
		o->tmp = NULL;
	}
	if (!err) {
		if (o->overwrite) {
			if (rename(o->tmp, o->path) != 0)
				err = -errno;
		} else if (link(o->tmp, o->path) != 0) {
			err = -errno; /* EEXIST: someone made the file meanwhile */
		} else {
			unlink(o->tmp);
		}
	}
	if (err) {
		outfile_abort(o);
		return err;
	}
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return 0;
}

void outfile_writeback(const struct outfile *o)
{
	if (o->fd >= 0 && !o->direct)
		(void)sync_file_range(o->fd, 0, 0, SYNC_FILE_RANGE_WRITE); /* a hint */
}

void outfile_abort(struct outfile *o)
{
	if (o->fp) {
		if (o->fp != stdout)
			fclose(o->fp);
		o->fp = NULL;
	} else if (o->fd > STDERR_FILENO) {
		close(o->fd);
	}
	o->fd = -1;
	if (o->tmp) {
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
	free(o->path);
	o->path = NULL;
	o->direct = 0;
}

/* ------------------------------------------------------------------ locks */

/* dir/.base.lock into buf (no allocation: unlocking must not fail). */
int outfile_lock_name(const char *path, char *buf, size_t len)
{
	const char *base, *ext;
	size_t dirlen;

	split(path, &base, &ext, &dirlen);
	int n = snprintf(buf, len, "%.*s.%s.lock", (int)dirlen, path, base);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int outfile_lock(const char *path)
{
	struct stat a, b;
	char name[PATH_MAX + 16];
	int fd, err;

	if ((err = outfile_lock_name(path, name, sizeof(name))) != 0)
		return err;
	for (;;) {
		fd = open(name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, file_mode());
		if (fd < 0) {
			err = -errno;
			break;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
			err = errno == EWOULDBLOCK ? -EBUSY : -errno;
			close(fd);
			break;
		}
		/* the holder before us may have removed the name: lock the one there now */
		if (fstat(fd, &a) == 0 && stat(name, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino) {
			err = fd;
			break;
		}
		close(fd);
	}
	return err;
}

void outfile_unlock(const char *path, int fd)
{
	char name[PATH_MAX + 16];

	if (fd < 0)
		return;
	if (outfile_lock_name(path, name, sizeof(name)) == 0)
		unlink(name); /* while still holding it: see outfile_lock */
	close(fd);
}
