/*
 * outputs_int — what the outputs' two files share (outputs.c,
 * outputs_check.c).  Not part of the API: include/outputs.h is.
 */
#ifndef BOIDS_OUTPUTS_INT_H
#define BOIDS_OUTPUTS_INT_H

#include <stddef.h>

/*
 * What locks a PNG pattern: its directory as the frames name it ("%%" is
 * one '%'), then its file name spelt canonically (framename_canonical()),
 * so that every spelling of one pattern (f_%d, f_%01d, ./f_%05d) takes one
 * lock file.  Returns 0 or a negative errno.
 */
int outputs_lock_key(const char *pattern, char *buf, size_t len);

#endif
