/*
 * points — a flock drawn as points, for flocks far too big for darts
 * (--draw points): each boid a point one pixel in area, antialiased over
 * the 2 x 2 pixels it overlaps, in its kind's colour.
 *
 * A point centred at (u, v), in picture pixels on Cairo's grid (pixel
 * (i, j) covers [i, i + 1] x [j, j + 1]), is the square [u - .5, u + .5] x
 * [v - .5, v + .5]; each pixel it overlaps gets the overlapped area, in
 * 65536ths of a pixel, with the square's corner fractions rounded down to
 * 256ths (the four shares then sum to exactly 65536).  Points add up in an
 * accumulator of whole numbers, so their order does not matter: any
 * number of threads, any order of boids, the same bytes.  Then each
 * pixel's colour moves toward the points' colour by its coverage,
 * min(1, sum / 65536): one point alone is its exact area, many points in a
 * pixel make it opaque (a density image that saturates where the flock is
 * dense).  A weight below a whole point (256ths) scales a point's shares:
 * 3D's fog, which then equals blending its colour toward a flat background.
 *
 * The sums are a picture's worth of whole numbers, far bigger than a
 * cache, and boids in index order land anywhere on it: a point is first
 * filed by its band of rows (a band is at most 256 KB of sums) and the
 * band's points are added together when its bucket fills, so that the
 * additions run within a cached band, not across the picture.
 *
 * Points of many colours (--color-by) add up the same way, order
 * independent: beside the coverage sum each pixel keeps, for its points,
 * the sums of c x w' for each channel c of their colours and of w', where
 * w' = (w + 128) >> 8 is a point's share in 256ths of a pixel (0 .. 256).
 * The pixel then moves toward their weighted mean colour, channel by
 * channel m = round(sum(c w') / sum(w')) (ties upward), by the same
 * coverage min(1, sum / 65536): points of one colour give exactly what
 * points_compose() gives in that colour.  A pixel whose shares all round
 * to w' = 0 (under 1/512 of a pixel in all) is left as it is, as a blend by
 * such a coverage would leave it.  The sums saturate, as coverage does:
 * exact up to 65,793 whole points in one pixel ((2^32 - 1) / (256 x 255)),
 * beyond it still the same for any order of the points.
 *
 * Pixel format: Cairo's ARGB32 (0xAARRGGBB, native endian, opaque).
 * Start at points_plane(); points_compose() paints what was added.
 */
#ifndef BOIDS_POINTS_H
#define BOIDS_POINTS_H

#include <stddef.h>
#include <stdint.h>

#define POINTS_WHOLE 256   /* a point's full weight */
#define POINTS_PIXEL 65536 /* a pixel's full coverage, in the accumulator's units */

/* A point filed in its band: the pixel of its first share, and fx | fy << 8 | q << 16. */
struct points_rec {
	uint32_t at, w;
};

struct points {
	uint32_t *acc;          /* width x height coverage sums, saturating at UINT32_MAX */
	int width, height;      /* picture size, pixels */
	int shift;              /* a band is 1 << shift rows */
	int bands;
	struct points_rec *rec; /* bands x POINTS_BUCKET points not added yet, by band */
	uint32_t *held;         /* per band: how many */
	uint32_t *col;          /* points_use_colours(): per pixel sum(R w'), sum(G w'), sum(B w'),
	                         * sum(w'); NULL otherwise */
	uint32_t *rec_rgb;      /* the colour (0xRRGGBB) of each point in rec; NULL without col */
};

#define POINTS_BUCKET 8192  /* points a band holds before they are added */

/*
 * The four shares of a point whose square starts fx / 256 and fy / 256 of
 * a pixel past the corner of pixel (i0, j0), in 65536ths of a pixel, of
 * weight q (POINTS_WHOLE: whole): [0] at (i0, j0), [1] (i0 + 1, j0), [2]
 * (i0, j0 + 1), [3] both + 1.  Whole, they sum to exactly 65536.
 */
static inline void points_shares(unsigned fx, unsigned fy, unsigned q, uint32_t w[4])
{
	unsigned x0 = 256 - fx, y0 = 256 - fy;

	w[0] = x0 * y0, w[1] = fx * y0, w[2] = x0 * fy, w[3] = fx * fy;
	if (q != POINTS_WHOLE)
		for (int k = 0; k < 4; k++)
			w[k] = (w[k] * q) >> 8;
}

/* Makes an accumulator for a width x height picture, all 0.  Returns 0 or -ENOMEM. */
int points_init(struct points *pt, int width, int height);

/* Frees what points_init() allocated; may be called again after it. */
void points_release(struct points *pt);

/*
 * Adds a point centred at (u, v) (picture pixels) with weight q (0 ..
 * POINTS_WHOLE) to the sums.  Points whose square leaves the picture keep
 * the shares that fall on it; non-finite or far-off points add nothing.
 */
void points_add(struct points *pt, double u, double v, unsigned q);

/*
 * Adds whole points at (x[i] * scale + ox, y[i] * scale + oy) for i in
 * [from, to): a plane's flock drawn at `scale` pixels per field unit.
 */
void points_plane(struct points *pt, const double *x, const double *y, size_t from, size_t to,
                  double scale, double ox, double oy);

/*
 * Points of their own colours from here on: every point is then added with
 * points_add_rgb() or points_plane_rgb() and composed by
 * points_compose_rgb().  Returns 0 or -ENOMEM (5 words a pixel more).
 */
int points_use_colours(struct points *pt);

/* points_add() of a point of colour rgb (0xRRGGBB); needs points_use_colours(). */
void points_add_rgb(struct points *pt, double u, double v, unsigned q, uint32_t rgb);

/*
 * points_plane() with each point's colour: rgb(arg, i) for boid i, called
 * once per boid.  Needs points_use_colours().
 */
void points_plane_rgb(struct points *pt, const double *x, const double *y, size_t from, size_t to,
                      double scale, double ox, double oy,
                      uint32_t (*rgb)(const void *arg, size_t i), const void *arg);

/*
 * Blends every pixel toward the weighted mean colour of its points by their
 * coverage (the rule above); then every sum is 0 again.
 */
void points_compose_rgb(struct points *pt, unsigned char *data, int stride);

/*
 * Blends every pixel of the ARGB32 picture (width x height, rows `stride`
 * bytes apart) toward rgb (0xRRGGBB) by its coverage: each channel
 * d + (c - d) a, a = min(sum, 65536) / 65536, rounded to nearest.  Then
 * every sum is 0 again, for the next picture.
 */
void points_compose(struct points *pt, unsigned char *data, int stride, uint32_t rgb);

/*
 * Blends one point (weight q) straight into the picture, over what is
 * there: each of its pixels toward rgb by its share.  For the few points
 * drawn over the others (predators), one after another.
 */
void points_blend_one(unsigned char *data, int stride, int width, int height,
                      double u, double v, unsigned q, uint32_t rgb);

#endif
