/*
 * yuv — Cairo ARGB32 pixels to yuv420p planes: BT.709, limited range,
 * chroma from the mean of each 2x2 block (centre sited), 16.16 fixed point.
 *
 * Integer arithmetic only: the same bytes on every machine, several times
 * faster than libswscale's bit-exact mode.  The default conversion of every
 * YUV container.  No FFmpeg types: plain planes and strides.
 */
#ifndef BOIDS_YUV_H
#define BOIDS_YUV_H

#include <stdint.h>

/*
 * Converts w x h pixels (native-endian 0xAARRGGBB words, rows stride bytes
 * apart; alpha ignored) into the Y, U and V planes (rows linesize[i] bytes
 * apart; U and V are w/2 x h/2).  w and h must be even.
 */
void yuv_from_argb(uint8_t *const planes[3], const int linesize[3], const unsigned char *pixels,
                   int stride, int w, int h);

#endif
