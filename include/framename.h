/*
 * framename — numbered file names from a user's pattern, without printf.
 *
 * A pattern holds exactly one integer field, `%d` or `%0Nd` (N from 1 to
 * 10, zero-padded), and any number of `%%` for a literal percent sign:
 * "frames/f_%05d.png".  Anything else after a `%` is refused, so a user's
 * string is never handed to printf.
 */
#ifndef BOIDS_FRAMENAME_H
#define BOIDS_FRAMENAME_H

#include <stddef.h>

/*
 * Checks a pattern.  Returns 0, or -EINVAL with a reason (lowercase, no
 * period) in why.
 */
int framename_check(const char *pattern, char *why, size_t whylen);

/*
 * Writes the name of frame `number` (>= 0) into buf.  Returns 0, -EINVAL for
 * a bad pattern or -ENAMETOOLONG when buf is too small.
 */
int framename_format(char *buf, size_t len, const char *pattern, long number);

#endif
