/*
 * density — --draw density: the flock as a density image, for flocks whose
 * boids are far smaller than a pixel.  Each boid (predators aside) is a
 * point one pixel in area carrying its unit heading (2D: the heading
 * atan2(vy, vx); 3D: the compass atan2(vz, vx), as --color-by heading),
 * and the points' coverage and headings are averaged over a kernel
 * (kde.h: whole-number sums smoothed by a bell, the same bytes for any
 * order of the boids and any number of threads).  The kernel reaches
 * KERNEL_REACH times the model's farthest interaction radius (the
 * cohesion radius --show-ranges draws) in picture pixels, so that the
 * brightness of a pixel is the density of boids around it as far as they
 * see one another: a flock comes out as a patch, a void dark, a lone boid
 * a faint dot, where a pixel of its own would hold under one boid and
 * show noise.  Zoomed in, the kernel gives way to the level of detail: it
 * is whole while a boid spans under RENDER_LOD_POINT / 2 pixels and
 * shrinks to nothing at RENDER_LOD_POINT, where the boids' points begin
 * to turn into darts (lod.c), so that they are the boids' own points
 * there.
 *
 * A pixel of smoothed coverage c (boids per pixel) and direction sums
 * (the mean unit heading (mc, ms) times c) moves from what is under it
 * toward the colour OKLab(0.75, 0.125 mc, 0.125 ms) — the heading wheel's
 * colour of the mean heading (colormap.h) where the boids around it
 * agree, its chroma their alignment, grey where they fly every way — by t
 * = log(c / lo) / log(hi / lo), clamped to [0, 1]: brightness is the log
 * of the density between the bounds lo and hi, boids per picture pixel.
 * The bounds are fixed for a clip (the params' --density-range, else the
 * view's, which the pipeline takes from the clip's first frame:
 * render_density_bounds()), so a pixel changes only where boids moved.
 * Drawn without fixed bounds, a frame takes its own (the_bounds()).
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
#define KERNEL_REACH 2.5                /* the kernel's half-width: this times the model's farthest radius */
/* The first frame's bounds (the_bounds()): lo the coverage this share of the pixels it covers
 * lies below, hi the one this share lies below, hi at least this times lo.  Smoothed: the
 * median (so that what is sparser than most of the flock is dark) to the densest 5%. */
static const double bounds_points[3] = { 0.01, 0.995, 10.0 };
static const double bounds_smooth[3] = { 0.5, 0.95, 4.0 };

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
	kde_init(&r->kde, r->p.width, r->p.height);
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

/* The kernel's half-width, pixels, for boids drawn at `scale` pixels a field unit and the radius at radius_scale. */
static double kernel_half(const struct renderer *r, double scale, double radius_scale)
{
	double span = r->span * r->p.boid_size * scale; /* a boid's pixels: its outline's longer side */
	double g = (RENDER_LOD_POINT - span) / (RENDER_LOD_POINT / 2); /* whole to none as it grows to a point */

	g = g >= 1 ? 1 : g > 0 ? g : 0; /* also NaN: none */
	return KERNEL_REACH * r->p.range_far * radius_scale * g;
}

int render_density_begin(struct renderer *r, double scale, double radius_scale, size_t n)
{
	r->dscale = radius_scale;
	return kde_begin(&r->kde, kernel_half(r, scale, radius_scale), n);
}

double render_density_reach_px(const struct renderer *r, double scale, double radius_scale)
{
	double h = kernel_half(r, scale, radius_scale);

	return (h > KDE_MAX_HALF ? KDE_MAX_HALF : h) + 2;
}

double render_density_reach(const struct renderer *r, double scale)
{
	return render_density_reach_px(r, scale, scale) / scale;
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

/* A frame's pixels counted by tone class, for its bounds (kde_run()'s rows). */
struct census {
	size_t count[TONE_N];
	size_t covered;         /* pixels of coverage above 0 */
};

static void count_row(void *arg, int j, const uint32_t *s, int from, int to)
{
	struct census *c = arg;

	(void)j;
	for (const uint32_t *e = s + 3 * (size_t)to, *p = s + 3 * (size_t)from; p < e; p += 3)
		if (p[0]) {
			c->count[tone_class(p[0])]++;
			c->covered++;
		}
}

/*
 * The bounds a frame fixes from its own pixels (k: its points): lo the coverage below which a share of its covered pixels
 * lie, hi the one below which a bigger share do (by tone class), hi at
 * least some times lo (bounds_smooth[] for a smoothed frame, else
 * bounds_points[]).  No covered pixel, or no memory to count them: one
 * boid in 100 pixels to one in each.
 */
static void the_bounds(struct kde *k, double out[2])
{
	struct census *c = calloc(1, sizeof(*c));
	const double *rule = k->taps ? bounds_smooth : bounds_points;

	out[0] = .01, out[1] = 1;
	if (!c)
		return;
	kde_run(k, count_row, c);
	if (c->covered) {
		size_t seen = 0, at_lo = (size_t)(rule[0] * (double)c->covered);
		size_t at_hi = (size_t)(rule[1] * (double)c->covered);
		unsigned i = 0, lo = TONE_N, hi = TONE_N;
		for (; i < TONE_N && hi == TONE_N; i++) {
			seen += c->count[i];
			if (lo == TONE_N && seen > at_lo)
				lo = i;
			if (seen > at_hi)
				hi = i;
		}
		out[0] = class_boids(lo);
		out[1] = fmax(class_boids(hi), rule[2] * out[0]);
	}
	free(c);
}

/* Channel a moved toward b by t / 255, rounded to nearest. */
static inline uint32_t channel(uint32_t a, uint32_t b, uint32_t t)
{
	return (a * (255 - t) + b * t + 127) / 255;
}

/* d moved toward c by t / 255, each channel rounded to nearest. */
static inline uint32_t toward(uint32_t d, uint32_t c, uint32_t t)
{
	return 0xff000000u | channel(d >> 16 & 0xff, c >> 16 & 0xff, t) << 16 |
	       channel(d >> 8 & 0xff, c >> 8 & 0xff, t) << 8 | channel(d & 0xff, c & 0xff, t);
}

/*
 * The colour of a pixel's mean direction: its sums (sx, sy) over its
 * coverage (65536ths; its tone class k: within 1.6%, a division less a
 * pixel), the mean unit direction (sx, sy) / (127 coverage / 256)
 * quantized to the table's HUE_N steps a component.
 */
static inline uint32_t hue_of(const uint32_t *hue, const double *inv, unsigned k, uint32_t sx, uint32_t sy)
{
	double f = inv[k];
	double fx = (int32_t)sx * f + HUE_N / 2.0, fy = (int32_t)sy * f + HUE_N / 2.0;
	int i = fx < 0 ? 0 : fx >= HUE_N ? HUE_N - 1 : (int)fx, j = fy < 0 ? 0 : fy >= HUE_N ? HUE_N - 1 : (int)fy;

	return hue[i * HUE_N + j];
}

/* A smoothed row (kde_run()) onto picture row j by the tone table of the bounds. */
static void compose_row(void *arg, int j, const uint32_t *s, int from, int to)
{
	const struct renderer *r = arg;
	uint32_t *d = (uint32_t *)(void *)(r->data + (size_t)j * (size_t)r->stride);
	const unsigned char *tone = r->dtone;
	const uint32_t *hue = r->dhue;
	const double *inv = r->dinv;

	s += 3 * (size_t)from;
	for (int i = from; i < to; i++, s += 3) {
		if (!s[0])
			continue;
		unsigned k = tone_class(s[0]);
		uint32_t t = tone[k];
		if (t)
			d[i] = toward(d[i], hue_of(hue, inv, k, s[1], s[2]), t);
	}
}

void render_density_finish(struct renderer *r, const struct render_view *v, double *measure)
{
	const double *given = r->p.density_range[1] > 0 ? r->p.density_range : v->density[1] > 0 ? v->density : NULL;
	double b[2];

	if (measure) {
		the_bounds(&r->kde, measure);
		return;
	}
	if (given) { /* the field's density at the bounds' scale: a pixel zoomed in s times holds 1 / s^2 */
		double s = v->density_scale > 0 && r->dscale > 0 ? v->density_scale / r->dscale : 1;
		b[0] = given[0] * s * s, b[1] = given[1] * s * s;
	} else {
		the_bounds(&r->kde, b);
	}
	tone_table(r, b[0], b[1]);
	kde_run(&r->kde, compose_row, r);
}
void render_density_add(struct renderer *r, double u, double v, uint32_t dir, unsigned q)
{
	kde_add(&r->kde, u, v, dir, q);
}

int render_density_2d(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base, double ab,
                      double ap, size_t np, double *measure)
{
	const struct render_params *p = &r->p;
	unsigned q = render_lod_weight(ab), qp = render_lod_weight(ap);
	int err = render_density_begin(r, base->xx, base->xx, q && v->n > np ? v->n - np : 0);

	if (err)
		return err;
	cairo_surface_flush(r->surface);
	if (q == POINTS_WHOLE) /* zoomed out: every boid a whole point, the quick way */
		kde_plane(&r->kde, v->x, v->y, v->vx, v->vy, np, v->n, base->xx, base->x0, base->y0);
	for (size_t i = np; q && q < POINTS_WHOLE && i < v->n; i++)
		kde_add(&r->kde, v->x[i] * base->xx + base->x0, v->y[i] * base->yy + base->y0,
		        kde_direction(v->vx[i], v->vy[i]), q);
	render_density_finish(r, v, measure);
	if (measure)
		return 0;
	for (size_t i = 0; qp && i < np; i++) /* the predators, in index order, over the image */
		points_blend_one(r->data, r->stride, p->width, p->height, v->x[i] * base->xx + base->x0,
		                 v->y[i] * base->yy + base->y0, qp, p->predator_color);
	cairo_surface_mark_dirty(r->surface);
	return 0;
}
