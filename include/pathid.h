/*
 * pathid — which file a name means, to tell when two names are one file.
 *
 * Two names are the same file when both exist and stat() gives one device
 * and inode (through symbolic links, hard links, /dev/fd/N, "-" for
 * standard output, and /dev/stdin, /dev/stdout and /dev/stderr read by name
 * as descriptors 0, 1 and 2, also where /dev lacks those links, as in a
 * bare chroot), or when neither exists and their normalised
 * names are equal: the directory's realpath() plus the last component, so
 * t.csv, ./t.csv and d/../t.csv meet.
 */
#ifndef BOIDS_PATHID_H
#define BOIDS_PATHID_H

#include <sys/types.h>

struct pathid {
	int exists;      /* stat() succeeded: dev, ino, mode and rdev are the file's */
	dev_t dev;
	ino_t ino;
	mode_t mode;
	dev_t rdev;      /* a device's number (is it /dev/null?) */
	char *name;      /* normalised name of the path itself (not of a link's target);
	                  * NULL for standard output; malloc'ed */
};

enum pathid_flags {
	PATHID_DASH_STDOUT = 1 << 0, /* "-" is standard output (an output's name), not a file */
	PATHID_PATTERN = 1 << 1,     /* the last component is a frame pattern (framename.h):
	                              * not looked up, and every '%' of the resolved
	                              * directory is doubled so that name stays a pattern */
};

/*
 * Fills id for path.  A directory that cannot be resolved leaves the name
 * as given.  Returns 0 or -ENOMEM; id is then released by pathid_release().
 */
int pathid_get(struct pathid *id, const char *path, unsigned flags);

/* 1 when a and b are one file (see the top), else 0. */
int pathid_same(const struct pathid *a, const struct pathid *b);

/* Is id the null device (any number of outputs may write there)? */
int pathid_is_null(const struct pathid *id);

/* Frees id->name; safe to call twice. */
void pathid_release(struct pathid *id);

#endif
