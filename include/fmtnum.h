/*
 * fmtnum — numbers as text, byte for byte what printf writes, faster.
 *
 * fmtnum_g17() writes printf's "%.17g" (17 significant digits, correctly
 * rounded from the double's exact value, ties to even; trailing zeros and a
 * bare point removed; an exponent of at least two digits) without going
 * through printf: for magnitudes in [1e-6, 1e16) and zero, which is where a
 * trajectory's positions and velocities live, by exact 128-bit integer
 * arithmetic (the double times a power of ten, shifted, with its remainder
 * for the rounding); anything else goes to snprintf.  So the text is
 * printf's by construction; tests/test_trajfmt.c holds it against
 * snprintf over 300,000 random doubles (100 million once, by hand).
 */
#ifndef BOIDS_FMTNUM_H
#define BOIDS_FMTNUM_H

#include <stddef.h>

/* Room enough for any fmtnum_g17() text and its NUL ("-1.2345678901234567e-308"). */
#define FMTNUM_G17_MAX 32

/* Writes v as "%.17g" into out (FMTNUM_G17_MAX bytes) and NUL-terminates
 * it; returns the length. */
size_t fmtnum_g17(char *out, double v);

/* Writes v in decimal ("%lu") into out (21 bytes); returns the length. */
size_t fmtnum_ulong(char *out, unsigned long v);

#endif
