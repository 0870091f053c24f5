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

/*
 * Where the integer field starts in pattern (the offset of its '%'), or -1
 * when the pattern is not valid.
 */
long framename_field(const char *pattern);

/*
 * Is name what pattern makes for some frame number?  Returns 1 and sets
 * *number (>= 0) when it is, else 0 (also for an invalid pattern).  Both
 * are taken as strings: normalise them first to compare files.
 */
int framename_match(const char *pattern, const char *name, long *number);

/*
 * Writes into buf the pattern with its field spelt `%d` and every literal
 * '%' as `%%`: one string for every spelling whose frames can share names
 * (f_%d.png, f_%01d.png and f_%05d.png all make f_12345.png).  Returns 0,
 * -EINVAL for a bad pattern or -ENAMETOOLONG.
 */
int framename_canonical(char *buf, size_t len, const char *pattern);

#endif
