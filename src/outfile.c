/*
 * outfile — temporary file beside the final name, renamed when complete;
 * see include/outfile.h.
 */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int outfile_check(const char *path, int overwrite)
{
	struct stat st;

	if (strcmp(path, "-") == 0)
		return 0; /* standard output */
	char *dir = dir_of(path);

	if (!dir)
		return -ENOMEM;
	int r = stat(dir, &st);
	free(dir);
	if (r != 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (path[0] == 0 || path[strlen(path) - 1] == '/')
		return -EISDIR;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return -EISDIR;
		if (S_ISREG(st.st_mode) && !overwrite)
			return -EEXIST;
	} else if (errno != ENOENT) {
		return -errno;
	}
	return 0;
}

const char *outfile_name(const struct outfile *o)
{
	return o->direct ? o->path : o->tmp;
}

/* Writes a device or FIFO in place. */
static int begin_direct(struct outfile *o, const char *path)
{
	o->path = strdup(path);
	if (!o->path)
		return -ENOMEM;
	o->direct = 1;
	o->fp = fopen(path, "wb");
	if (!o->fp) {
		int e = errno;
		free(o->path);
		o->path = NULL;
		return -e;
	}
	return 0;
}

int outfile_begin(struct outfile *o, const char *path, int overwrite)
{
	struct stat st;

	memset(o, 0, sizeof(*o));
	o->overwrite = overwrite;
	if (strcmp(path, "-") == 0) {
		o->direct = 1;
		o->fp = stdout;
		o->path = strdup(path);
		return o->path ? 0 : -ENOMEM;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return begin_direct(o, path);

	const char *base = strrchr(path, '/');
	const char *ext;
	size_t dirlen = base ? (size_t)(base - path) + 1 : 0;

	base = base ? base + 1 : path;
	ext = strrchr(base, '.');
	if (!ext || ext == base)
		ext = "";

	o->path = strdup(path);
	/* dir/.base.XXXXXX.ext */
	size_t len = dirlen + 1 + strlen(base) + 7 + strlen(ext) + 1;
	o->tmp = malloc(len);
	if (!o->path || !o->tmp) {
		outfile_abort(o);
		return -ENOMEM;
	}
	snprintf(o->tmp, len, "%.*s.%s.XXXXXX%s", (int)dirlen, path, base, ext);
	int fd = mkstemps(o->tmp, (int)strlen(ext));
	if (fd < 0) {
		int e = errno;
		free(o->tmp);
		o->tmp = NULL;
		outfile_abort(o);
		return -e;
	}
	/* mkstemps makes 0600; give the usual umask-governed mode instead. */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	o->fp = fdopen(fd, "wb");
	if (!o->fp) {
		int e = errno;
		close(fd);
		outfile_abort(o);
		return -e;
	}
	return 0;
}

int outfile_commit(struct outfile *o)
{
	int err = 0;

	if (o->fp) {
		if (fflush(o->fp) != 0 || ferror(o->fp))
			err = -(errno ? errno : EIO);
		if (!err && !o->direct && fsync(fileno(o->fp)) != 0 && errno != EINVAL && errno != EROFS)
			err = -errno;
		if (o->fp != stdout && fclose(o->fp) != 0 && !err)
			err = -(errno ? errno : EIO);
		o->fp = NULL;
	}
	if (o->direct) {
		free(o->path);
		o->path = NULL;
		o->direct = 0;
		return err;
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

void outfile_abort(struct outfile *o)
{
	if (o->fp) {
		if (o->fp != stdout)
			fclose(o->fp);
		o->fp = NULL;
	}
	if (o->tmp) {
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
	free(o->path);
	o->path = NULL;
	o->direct = 0;
}
