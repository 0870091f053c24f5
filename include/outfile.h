/*
 * outfile — files that appear complete or not at all.
 *
 * outfile_begin() creates a temporary file in the same directory as the
 * final path, with the same extension (".name.XXXXXX.ext"), so encoders that
 * pick a format from the name still see the right one.  Write to o->tmp
 * (by name) or o->fp; outfile_commit() flushes, fsyncs and renames it onto
 * the final name; outfile_abort() removes it.  Without overwrite, commit
 * refuses to replace a file that appeared meanwhile (link + unlink).
 *
 * A path that names something other than a regular file — /dev/null, a
 * FIFO, a terminal — is written directly: there is nothing to replace and a
 * rename would put a regular file in its place.  o->tmp is then NULL and
 * outfile_name() gives the path itself.  "-" is standard output.
 */
#ifndef BOIDS_OUTFILE_H
#define BOIDS_OUTFILE_H

#include <stdio.h>

struct outfile {
	char *path;     /* final name */
	char *tmp;      /* temporary name, NULL when none is open */
	FILE *fp;       /* open on tmp, "wb" */
	int overwrite;  /* may replace an existing final file */
	int direct;     /* writing the path itself (a device or FIFO) */
};

/* The name to write to: the temporary file, or the path when direct. */
const char *outfile_name(const struct outfile *o);

/*
 * Checks, before any work, that path can be written: its directory exists
 * and is a directory, path is not a directory, and it is not an existing
 * regular file unless overwrite (devices and FIFOs are fine).
 * Returns 0 or -ENOENT, -ENOTDIR, -EISDIR, -EEXIST.
 */
int outfile_check(const char *path, int overwrite);

/* Creates the temporary file.  Returns 0 or a negative errno. */
int outfile_begin(struct outfile *o, const char *path, int overwrite);

/*
 * Closes o->fp (unless the caller already did and set it to NULL) checking
 * every error, then renames.  On failure the temporary file is removed.
 * Returns 0 or a negative errno (-EEXIST: final name taken meanwhile).
 */
int outfile_commit(struct outfile *o);

/* Closes and removes the temporary file; safe to call twice. */
void outfile_abort(struct outfile *o);

#endif
