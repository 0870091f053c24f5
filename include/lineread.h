/*
 * lineread — one line of a text file, with a bound on its length and a
 * read error told apart from the end of the file.
 *
 * getline() alone returns -1 both at the end of the file and when it
 * fails (ENOMEM on a huge line, EIO, EISDIR): the config and trajectory
 * readers used to take a failure for the end and go on with half a file.
 */
#ifndef BOIDS_LINEREAD_H
#define BOIDS_LINEREAD_H

#include <stdio.h>
#include <sys/types.h>

/* The longest line any boids reader accepts, bytes without the newline. */
#define LINEREAD_MAX (1L << 20)

/*
 * Reads the next line of f into *buf (grown with realloc; the caller frees
 * it, also after an error), without its '\n'.  The line may hold NUL bytes:
 * the length tells.  Returns the length (>= 0), LINEREAD_EOF at the end of
 * the file, -E2BIG for a line longer than max bytes, -ENOMEM, or the
 * stream's -errno (-EIO if it has none) on a read error.
 */
enum { LINEREAD_EOF = -1 };
ssize_t lineread_next(FILE *f, char **buf, size_t *cap, size_t max);

#endif
