/*
 * kde — a flock's density and mean heading over a kernel (a kernel density
 * estimate), for --draw density: the boids added as points with their
 * directions, then smoothed by a bell-shaped filter and handed out a picture row
 * at a time, every number a whole one, so that the same boids give the
 * same rows in any order and on any number of threads.
 *
 * A point centred at (u, v) (picture pixels, pixel (i, j) covering [i, i +
 * 1] x [j, j + 1]) is split over the 2 x 2 pixels it overlaps as points.h
 * splits it (its shares w in 65536ths of a pixel, scaled by its weight q
 * in 256ths), and each pixel sums, over its points, the coverage w and the
 * direction (cx w', cy w'), where (cx, cy) is the point's unit direction
 * as two whole numbers round(127 cos), round(127 sin) (kde_direction())
 * and w' = (w + 128) >> 8 its share in 256ths.  Coverage stops at
 * UINT32_MAX; the direction sums are 32-bit words that wrap (exact below
 * 66,000 points in a pixel, the same words in any order beyond).
 *
 * The sums are then smoothed by a separable bell of half-width h pixels
 * (kde_begin()): along each axis the weights of the offsets k with |k| <
 * h are the cubic B-spline B(2k / h) (B(u) = (4 - 6u^2 + 3|u|^3) / 4
 * under 1, (2 - |u|)^3 / 4 from 1 to 2: a product of two of them is round,
 * where a product of two tents is a cross), normalised to 65536 in all
 * (the centre's taking what the others' rounding leaves), and each pass
 * is sum(weight x sum), + 32768, shifted right 16 (floor), rows then
 * columns.  h < 1 is no smoothing (the sums as added).  So a pixel's smoothed coverage is the
 * mean number of boids per pixel around it, the kernel's weighted mean,
 * and its direction sums the same average of the points' directions:
 * their ratio is the mean heading, its length how aligned they are.
 * Points off the picture add to it as far as the kernel reaches.
 *
 * The sums would be a picture's worth of words, far bigger than a cache,
 * and boids in index order land anywhere on it: each point is filed by its
 * band of rows (a record of 8 bytes in the band's chunks), and at the end
 * (kde_run()) the bands are added, smoothed and handed out top to bottom,
 * each in a buffer of a few rows that stays in the cache.
 *
 * Start at kde_begin(), then kde_plane() or kde_add() per point, then
 * kde_run().
 */
#ifndef BOIDS_KDE_H
#define BOIDS_KDE_H

#include <stddef.h>
#include <stdint.h>

#define KDE_MAX_HALF 32.0 /* the kernel's half-width at most, pixels */
#define KDE_TAPS_MAX 32   /* offsets each way at most: ceil(KDE_MAX_HALF) */
#define KDE_SHIFT_MAX 6   /* a band is at most 64 rows */

/*
 * A smoothed picture row j, handed out by kde_run(): s holds per pixel the
 * coverage (65536ths of a boid) and the two direction sums (two's
 * complement: int32_t); only the pixels from .. to - 1 can differ from 0,
 * and only they may be read.
 */
typedef void kde_row_fn(void *arg, int j, const uint32_t *s, int from, int to);

/* A point filed in its band: its first pixel (in the band's rows) and weight; fx, fy, cx, cy. */
struct kde_rec {
	uint32_t at, w;
};

struct kde {
	int width, height;      /* the picture, pixels */
	double half;            /* the kernel's half-width, pixels (kde_begin()) */
	int taps;               /* K: the kernel reaches K pixels each way (0: no smoothing) */
	uint32_t weight[KDE_TAPS_MAX + 1]; /* offsets 0 .. K, 65536ths, weight[0] + 2 sum(rest) = 65536 */
	int apron;              /* grid pixels around the picture: taps + 1 */
	int gw, gh;             /* the grid the points land on: the picture and its apron */
	int shift, bands;       /* a band is 1 << shift grid rows */
	struct kde_rec *pool;   /* the records, KDE_CHUNK a chunk */
	size_t chunks, cap;     /* chunks in use, room (chunks) */
	uint32_t *next;         /* per chunk: its band's next chunk (UINT32_MAX: none) */
	uint32_t *first, *last; /* per band: its first and last chunk (UINT32_MAX: none) */
	uint32_t *fill;         /* per band: records in its last chunk */
	size_t bands_cap;
	uint32_t *acc;          /* a band's sums: (1 << shift) + 1 grid rows, 3 words a pixel */
	int alo[(1 << KDE_SHIFT_MAX) + 1], ahi[(1 << KDE_SHIFT_MAX) + 1]; /* per acc row: the grid columns
	                         * [alo, ahi) that may be non-zero */
	uint32_t *hrow;         /* a ring of hrows rows after the horizontal pass, 3 words x width */
	int hrows;
	int hlo[4 * KDE_TAPS_MAX], hhi[4 * KDE_TAPS_MAX]; /* per hrow slot: the pixels [hlo, hhi) that
	                         * may be non-zero (the others are 0) */
	uint32_t *out;          /* one smoothed row, 3 words x width */
	size_t acc_cap, hrow_cap;
};

/* An empty accumulator for a width x height picture; nothing is allocated until kde_begin(). */
void kde_init(struct kde *k, int width, int height);

/* Frees what k holds; kde_init() makes it usable again. */
void kde_release(struct kde *k);

/*
 * Starts a picture: no point added, a kernel of half-width `half` pixels
 * (at most KDE_MAX_HALF; not finite or under 1: none), room for n points
 * (kde_add() and kde_plane() then never allocate).  Returns 0 or -ENOMEM.
 */
int kde_begin(struct kde *k, double half, size_t n);

/* A direction (dx, dy) as kde_add() takes it; no direction (0, or not finite): none (0, 0). */
uint32_t kde_direction(double dx, double dy);

/*
 * Adds a point centred at (u, v) (picture pixels) of direction dir
 * (kde_direction()) and weight q (0 .. 256: whole).  Points out of the
 * kernel's reach of the picture, not finite or of weight 0 add nothing.
 * At most the n points of kde_begin().
 */
void kde_add(struct kde *k, double u, double v, uint32_t dir, unsigned q);

/* Whole points at (x[i] scale + ox, y[i] scale + oy) of direction (dx[i], dy[i]), i in [from, to). */
void kde_plane(struct kde *k, const double *x, const double *y, const double *dx, const double *dy,
               size_t from, size_t to, double scale, double ox, double oy);

/*
 * Smooths the points added and calls row(arg, j, s, from, to) (kde_row_fn)
 * for each picture row j from 0 to height - 1, in order; s is valid during
 * the call.  k keeps its points: a second call hands out the same rows
 * (kde_begin() empties it).
 */
void kde_run(struct kde *k, kde_row_fn *row, void *arg);

#endif
