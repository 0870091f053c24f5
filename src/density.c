/*
 * density — --draw density: the flock as a density image, for flocks whose
 * boids are far smaller than a pixel.  Each boid (predators aside) is a
 * point one pixel in area (points.h: its shares of the 2 x 2 pixels it
 * overlaps, in 65536ths, added up in whole numbers), carrying its unit
 * heading as two whole numbers round(127 cos), round(127 sin) (2D: the
 * heading atan2(vy, vx); 3D: the compass atan2(vz, vx), as --color-by
 * heading), which the accumulator sums weighted by each share
 * (points_use_directions()).  So a pixel holds its coverage c (boids per
 * pixel) and its boids' mean unit heading (mc, ms), both whole-number
 * sums: the same bytes for any order of the boids and any number of
 * threads.
 *
 * A pixel with coverage c moves from what is under it toward the colour
 * OKLab(0.75, 0.125 mc, 0.125 ms) — the heading wheel's colour of the
 * mean heading (colormap.h) when the boids under it agree, grey where
 * they fly every way — by t = log(c / lo) / log(hi / lo), clamped to
 * [0, 1]: brightness is the log of the density between the bounds lo and
 * hi, boids per picture pixel.  The bounds are fixed for a clip (the
 * params' --density-range, else the view's, which the pipeline takes from
 * the clip's first frame: render_density_bounds()), so a pixel changes
 * only where boids moved.  Drawn without fixed bounds, a frame takes its
 * own (the_bounds()).
 *
 * Two tables keep the per-pixel work to a few operations: the tone t of a
 * coverage by its binary exponent and 6 bits of mantissa (1.1% steps),
 * made when the bounds change, and the colour of the mean heading
 * quantized to 128 x 128, made once.  The predators are drawn
 * over the image as whole points in their colour, as --draw points does.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "colormap.h"
#include "render_int.h"

#define TONE_BITS 6                     /* mantissa bits of a coverage's tone class */
#define TONE_N (32 << TONE_BITS)        /* tone classes: 32 exponents */
#define HUE_N 128                       /* mean heading steps per component */
#define BOUNDS_LOW 0.01                 /* the first frame's lo: this share of the pixels it covers is darker */
#define BOUNDS_HIGH 0.995               /* and hi: this share is dimmer */
#define BOUNDS_DECADE 10.0              /* hi at least this times lo */

/* A coverage's tone class: its binary exponent and the TONE_BITS bits after its leading one. */
static inline unsigned tone_class(uint32_t a)
{
	unsigned e = 31 - (unsigned)__builtin_clz(a);
	uint32_t m = e >= TONE_BITS ? a >> (e - TONE_BITS) : a << (TONE_BITS - e);

	return e << TONE_BITS | (m & ((1u << TONE_BITS) - 1));
}

/* The coverage in the middle of class k, boids per pixel. */
static double class_boids(unsigned k)
{
	double e = (double)(k >> TONE_BITS), m = (double)(k & ((1u << TONE_BITS) - 1));

	return ldexp(((1 << TONE_BITS) + m + .5) / (1 << TONE_BITS), (int)e) / POINTS_PIXEL;
}

int render_density_setup(struct renderer *r)
{
	int err = points_init(&r->pts, r->p.width, r->p.height);

	if (err || (err = points_use_directions(&r->pts)) != 0)
		return err;
	r->dhue = malloc(HUE_N * HUE_N * sizeof(*r->dhue));
	r->dtone = malloc(TONE_N);
	r->dinv = malloc(TONE_N * sizeof(*r->dinv));
	if (!r->dhue || !r->dtone || !r->dinv)
		return -ENOMEM;
	for (unsigned k = 0; k < TONE_N; k++) /* a direction sum to a table step, over a coverage of class k */
		r->dinv[k] = (HUE_N / 2.0) * 256 / (127 * class_boids(k) * POINTS_PIXEL);
	for (int i = 0; i < HUE_N; i++) /* a mean component in [2i / N - 1, 2(i + 1) / N - 1): its middle */
		for (int j = 0; j < HUE_N; j++) {
			double mc = 2 * (i + .5) / HUE_N - 1, ms = 2 * (j + .5) / HUE_N - 1, len = hypot(mc, ms);
			if (len > 1)
				mc /= len, ms /= len;
			r->dhue[i * HUE_N + j] = colormap_oklab(0.75, 0.125 * mc, 0.125 * ms);
		}
	return 0;
}

/* r->dtone for the bounds lo < hi (unless it is for them already). */
static void tone_table(struct renderer *r, double lo, double hi)
{
	if (r->dtone_lo == lo && r->dtone_hi == hi)
		return;
	double span = log(hi / lo);
	for (unsigned k = 0; k < TONE_N; k++) {
		double t = log(class_boids(k) / lo) / span;
		r->dtone[k] = (unsigned char)lround(255 * (t < 0 ? 0 : t > 1 ? 1 : t));
	}
	r->dtone_lo = lo;
	r->dtone_hi = hi;
}

/*
 * The bounds a frame fixes from its own sums (flushed): lo the coverage
 * below which BOUNDS_LOW of its covered pixels lie, hi the one below
 * which BOUNDS_HIGH do (by tone class), hi at least BOUNDS_DECADE lo.  No
 * covered pixel: one boid in 100 pixels to one in each.
 */
static void the_bounds(const struct points *pt, double out[2])
{
	size_t *count = calloc(TONE_N, sizeof(*count)), covered = 0;
	size_t pixels = (size_t)pt->width * (size_t)pt->height;

	out[0] = .01, out[1] = 1;
	if (!count)
		return; /* a frame drawn with the fallback's bounds rather than none */
	for (size_t i = 0; i < pixels; i++)
		if (pt->acc[i]) {
			count[tone_class(pt->acc[i])]++;
			covered++;
		}
	if (covered) {
		size_t seen = 0, at_lo = (size_t)(BOUNDS_LOW * (double)covered);
		size_t at_hi = (size_t)(BOUNDS_HIGH * (double)covered);
		unsigned k = 0, lo = TONE_N, hi = TONE_N;
		for (; k < TONE_N && hi == TONE_N; k++) {
			seen += count[k];
			if (lo == TONE_N && seen > at_lo)
				lo = k;
			if (seen > at_hi)
				hi = k;
		}
		out[0] = class_boids(lo);
		out[1] = fmax(class_boids(hi), BOUNDS_DECADE * out[0]);
	}
	free(count);
}

/* Every sum back to 0, without drawing. */
static void clear_sums(struct points *pt)
{
	size_t pixels = (size_t)pt->width * (size_t)pt->height;

	points_flush(pt);
	memset(pt->acc, 0, pixels * sizeof(*pt->acc));
	memset(pt->dir, 0, 2 * pixels * sizeof(*pt->dir));
}

/* d moved toward c by t / 255, each channel rounded to nearest. */
static inline uint32_t toward(uint32_t d, uint32_t c, uint32_t t)
{
	uint32_t out = 0xff000000u;

	for (int sh = 0; sh <= 16; sh += 8) {
		uint32_t a = d >> sh & 0xff, b = c >> sh & 0xff;
		out |= ((a * (255 - t) + b * t + 127) / 255) << sh;
	}
	return out;
}

/*
 * The colour of a pixel's mean direction: its sums (sx, sy) over its
 * coverage (65536ths; its tone class k: within 1.6%, a division less a
 * pixel), the mean unit direction (sx, sy) / (127 coverage / 256)
 * quantized to the table's HUE_N steps a component.
 */
static inline uint32_t hue_of(const struct renderer *r, unsigned k, uint32_t sx, uint32_t sy)
{
	double f = r->dinv[k];
	double fx = (int32_t)sx * f + HUE_N / 2.0, fy = (int32_t)sy * f + HUE_N / 2.0;
	int i = fx < 0 ? 0 : fx >= HUE_N ? HUE_N - 1 : (int)fx, j = fy < 0 ? 0 : fy >= HUE_N ? HUE_N - 1 : (int)fy;

	return r->dhue[i * HUE_N + j];
}

/* The sums, flushed, onto the picture by the tone of bounds b; then all 0 again. */
static void compose(struct renderer *r, const double b[2])
{
	struct points *pt = &r->pts;

	tone_table(r, b[0], b[1]);
	for (int j = 0; j < pt->height; j++) {
		uint32_t *s = pt->acc + (size_t)j * (size_t)pt->width;
		uint32_t *c = pt->dir + 2 * (size_t)j * (size_t)pt->width;
		uint32_t *d = (uint32_t *)(void *)(r->data + (size_t)j * (size_t)r->stride);
		for (int i = 0; i < pt->width; i++, c += 2) {
			if (!s[i])
				continue;
			unsigned k = tone_class(s[i]);
			uint32_t t = r->dtone[k];
			if (t)
				d[i] = toward(d[i], hue_of(r, k, c[0], c[1]), t);
			s[i] = 0;
			c[0] = c[1] = 0;
		}
	}
}

void render_density_finish(struct renderer *r, const struct render_view *v, double *measure)
{
	const double *given = r->p.density_range[1] > 0 ? r->p.density_range : v->density[1] > 0 ? v->density : NULL;
	double b[2];

	points_flush(&r->pts);
	if (measure) {
		the_bounds(&r->pts, measure);
		clear_sums(&r->pts);
		return;
	}
	if (given)
		b[0] = given[0], b[1] = given[1];
	else
		the_bounds(&r->pts, b);
	compose(r, b);
}

void render_density_add(struct renderer *r, double u, double v, uint32_t dir, unsigned q)
{
	if (q == POINTS_WHOLE)
		points_add_dir(&r->pts, u, v, dir);
	else if (q)
		points_add_dir_weighted(&r->pts, u, v, dir, q);
}

void render_density_2d(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base, double ab,
                       double ap, size_t np, double *measure)
{
	const struct render_params *p = &r->p;
	unsigned q = render_lod_weight(ab), qp = render_lod_weight(ap);

	cairo_surface_flush(r->surface);
	if (q == POINTS_WHOLE) /* zoomed out: every boid a whole point, the quick way */
		points_plane_dir(&r->pts, v->x, v->y, v->vx, v->vy, np, v->n, base->xx, base->x0, base->y0);
	for (size_t i = np; q && q < POINTS_WHOLE && i < v->n; i++)
		render_density_add(r, v->x[i] * base->xx + base->x0, v->y[i] * base->yy + base->y0,
		                   points_direction(v->vx[i], v->vy[i]), q);
	render_density_finish(r, v, measure);
	if (measure)
		return;
	for (size_t i = 0; qp && i < np; i++) /* the predators, in index order, over the image */
		points_blend_one(r->data, r->stride, p->width, p->height, v->x[i] * base->xx + base->x0,
		                 v->y[i] * base->yy + base->y0, qp, p->predator_color);
	cairo_surface_mark_dirty(r->surface);
}
