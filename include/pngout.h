/*
 * pngout — writes one pixel buffer as a PNG through libpng.
 *
 * Input pixels: Cairo ARGB32 (native-endian 32-bit words 0xAARRGGBB,
 * premultiplied alpha), rows `stride` bytes apart, as render.h produces.
 * Output: 8-bit RGB without alpha.  Opaque pixels are copied exactly;
 * a translucent pixel is un-premultiplied and its alpha dropped.
 *
 * One call per destination, the same parameter order everywhere
 * (destination, w, h, stride, pixels, level); `level` is the zlib
 * compression level 0..9.  All return 0 or a negative errno code: the
 * stream's own errno for a write error (-ENOSPC on a full disk, -EPIPE),
 * -EIO when it gave none, -ENOMEM, -EINVAL.
 */
#ifndef BOIDS_PNGOUT_H
#define BOIDS_PNGOUT_H

#include <stddef.h>
#include <stdio.h>

/* The default compression level, chosen by measurement (see the issue note). */
#define PNGOUT_DEFAULT_LEVEL 1

/* Writes to an open stream; the caller closes it and checks fclose(). */
int pngout_write_stream(FILE *f, int w, int h, int stride,
                        const unsigned char *pixels, int level);

/* Writes into a malloc'ed buffer: *out (caller frees) of *len bytes. */
int pngout_write_mem(unsigned char **out, size_t *len, int w, int h, int stride,
                     const unsigned char *pixels, int level);

#endif
