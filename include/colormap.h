/*
 * colormap — the perceptual colour maps of --color-by, computed from
 * their formulas in OKLab (Björn Ottosson, "A perceptual color space for
 * image processing", 2020, https://bottosson.github.io/posts/oklab/):
 * equal steps along a map are near-equal steps in perceived colour.
 *
 *   heading (cyclic):  L = 0.75, C = 0.125, hue h = the heading's angle.
 *                      Constant lightness and chroma: every direction is
 *                      equally visible, and the map wraps without a seam
 *                      (the largest C at this L that every hue keeps
 *                      inside sRGB).
 *   speed (sequential): t in [0, 1]: L = 0.32 + 0.61 t,
 *                      h = 290 - 190 t degrees, C = 0.13 - 0.05 sin(pi t):
 *                      dark violet through teal to light yellow (a
 *                      viridis-like map: lightness rises linearly, so the
 *                      order reads in grey and to colour-blind eyes too;
 *                      the chroma dips where sRGB is narrow).
 *   shade (NetLogo's): seven shades of one colour for boids apart, by
 *                      NetLogo's own formula (colormap_netlogo_shade()).
 *
 * OKLab (L, a = C cos h, b = C sin h) -> linear sRGB by Ottosson's
 * matrices, then the sRGB transfer function (IEC 61966-2-1), clamped to
 * [0, 1], rounded to 8 bits.  Pure functions of their argument: the same
 * colour on every thread and every run.
 */
#ifndef BOIDS_COLORMAP_H
#define BOIDS_COLORMAP_H

#include <stdint.h>

/* The cyclic map at angle radians (any real; 2 pi wraps): 0xRRGGBB. */
uint32_t colormap_heading(double angle);

/* The sequential map at t (clamped to [0, 1]; NaN: 0): 0xRRGGBB. */
uint32_t colormap_speed(double t);

/*
 * NetLogo's shade `shade` (-5 .. +4) of the base colour rgb (0xRRGGBB: the
 * colour NetLogo numbers 5, 15, ... 135), as NetLogo's colour model makes
 * it: step = 10 shade / 50.48 + 0.012; each channel c becomes c +
 * trunc(c step) when step < 0, else c + trunc((255 - c) step).  NetLogo's
 * `yellow - 2 + random 7` is shades -2 .. +4 of its yellow, #eded2f.
 */
uint32_t colormap_netlogo_shade(uint32_t rgb, int shade);

/* OKLab (L, a, b) as 8-bit sRGB 0xRRGGBB, clamped to the gamut. */
uint32_t colormap_oklab(double L, double a, double b);

#endif
