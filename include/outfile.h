/*
 * outfile — files that appear complete or not at all.
 *
 * outfile_begin() creates a temporary file in the same directory as the
 * final path, with the same extension (".name.XXXXXX.ext", O_EXCL, never
 * following a link), so encoders that pick a format from the name still see
 * the right one.  Write through o->fp or o->fd — never reopen o->tmp by
 * name: in a directory others can write, the name may meanwhile be another
 * file.  outfile_commit() flushes, fsyncs, checks that the temporary name
 * still is the file we created, and renames it onto the final name;
 * outfile_abort() removes it.  Without overwrite, commit refuses to replace
 * a file that appeared meanwhile (link + unlink).
 *
 * What may already be at the path:
 *   nothing          the file is created
 *   a regular file   refused without overwrite; with it, replaced, and the
 *                    new file keeps the old one's permission bits (0777
 *                    part) and, where the system allows, its owner and group
 *   a FIFO, device   refused without overwrite; with it, written in place
 *                    (opened once, O_NOFOLLOW, never truncated or renamed)
 *   a symbolic link  refused without overwrite; with it, the link's target
 *                    is what gets written (replaced as above, or written in
 *                    place when a device), the link stays; a dangling link
 *                    is refused either way
 *   a socket, dir    refused
 * "-" is standard output.
 */
#ifndef BOIDS_OUTFILE_H
#define BOIDS_OUTFILE_H

#include <stdio.h>

struct outfile {
	char *path;     /* final name (a symlink's target when following one) */
	char *tmp;      /* temporary name, NULL when none is open */
	FILE *fp;       /* open on the temporary file (or the device), "wb" */
	int fd;         /* fileno(fp) */
	int overwrite;  /* may replace an existing final file */
	int direct;     /* writing the path itself (a device or FIFO) */
};

/* What is at a path now (a symlink is not followed). */
enum outfile_what {
	OUTFILE_NOTHING, OUTFILE_REGULAR, OUTFILE_DIRECTORY, OUTFILE_FIFO,
	OUTFILE_DEVICE, OUTFILE_SOCKET, OUTFILE_SYMLINK, OUTFILE_DANGLING,
	OUTFILE_UNKNOWN /* lstat failed for another reason */
};

/* Classifies path ("-": OUTFILE_NOTHING). */
enum outfile_what outfile_what(const char *path);

/* "a FIFO", "a symbolic link", ... for messages. */
const char *outfile_what_name(enum outfile_what w);

/* The name to write to: the temporary file, or the path when direct. */
const char *outfile_name(const struct outfile *o);

/*
 * Checks, before any work, that path can be written as described above:
 * its directory exists and is a directory; nothing is there, or overwrite
 * allows what is; the temporary name beside it fits NAME_MAX and PATH_MAX.
 * Returns 0 or -ENOENT, -ENOTDIR (directory missing), -EISDIR, -EEXIST
 * (something is there: see outfile_what()), -ELOOP (a dangling or looping
 * symlink), -ENXIO (a socket), -ENAMETOOLONG, or another negative errno.
 */
int outfile_check(const char *path, int overwrite);

/*
 * Creates the temporary file (or opens the device).  Opening a FIFO blocks
 * until a reader comes; a signal handler installed without SA_RESTART
 * makes it return -EINTR.  Returns 0 or a negative errno; -EEXIST for a
 * FIFO, device or symlink without overwrite (an existing regular file is
 * refused by outfile_commit() instead, so one that appears meanwhile is
 * caught too).
 */
int outfile_begin(struct outfile *o, const char *path, int overwrite);

/*
 * Closes o->fp (unless the caller already did and set it to NULL) checking
 * every error, then renames.  On failure the temporary file is removed.
 * Returns 0 or a negative errno: -EEXIST final name taken meanwhile,
 * -ESTALE the temporary name no longer is our file (someone replaced it).
 */
int outfile_commit(struct outfile *o);

/* Closes and removes the temporary file; safe to call twice. */
void outfile_abort(struct outfile *o);

/*
 * Asks the kernel to start writing the temporary file's dirty pages to
 * the disk now, without waiting (a hint: errors are ignored; a FIFO or
 * device has none), so that the commit's fsync, a stop's too, finds
 * little left to wait for: a writer of a large file calls it after each
 * part (trajout.c, a frame).
 */
void outfile_writeback(const struct outfile *o);

/*
 * Takes an exclusive lock for path held until outfile_unlock(): a hidden
 * file ".NAME.lock" beside it, flock()ed.  For outputs made of many files
 * (a PNG pattern), so that two runs cannot interleave them.  Returns a
 * descriptor >= 0, -EBUSY when another process holds the lock, or another
 * negative errno.
 */
int outfile_lock(const char *path);

/* The lock file outfile_lock(path) takes, "DIR/.NAME.lock", into buf
 * (no allocation); 0 or -ENAMETOOLONG. */
int outfile_lock_name(const char *path, char *buf, size_t len);

/* Removes the lock file and releases the lock; fd < 0 does nothing. */
void outfile_unlock(const char *path, int fd);

#endif
