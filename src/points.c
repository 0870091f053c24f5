/*
 * points — boids as antialiased points in a coverage accumulator; see
 * include/points.h.  Start at points_add(): a point's band, then
 * add_band(): its four shares.
 */
#include "points.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { BAND_BYTES = 256 << 10 }; /* sums a band: about a core's L2 cache */

int points_init(struct points *pt, int width, int height)
{
	memset(pt, 0, sizeof(*pt));
	pt->width = width;
	pt->height = height;
	while (pt->shift < 14 && ((size_t)width << (pt->shift + 1)) * sizeof(uint32_t) <= BAND_BYTES)
		pt->shift++;
	pt->bands = ((height - 1) >> pt->shift) + 1;
	pt->acc = calloc((size_t)width * (size_t)height, sizeof(*pt->acc));
	pt->rec = malloc((size_t)pt->bands * POINTS_BUCKET * sizeof(*pt->rec));
	pt->held = calloc((size_t)pt->bands, sizeof(*pt->held));
	if (!pt->acc || !pt->rec || !pt->held) {
		points_release(pt);
		return -ENOMEM;
	}
	return 0;
}

void points_release(struct points *pt)
{
	free(pt->acc);
	free(pt->rec);
	free(pt->held);
	free(pt->col);
	free(pt->rec_rgb);
	pt->acc = NULL;
	pt->rec = NULL;
	pt->held = NULL;
	pt->col = NULL;
	pt->rec_rgb = NULL;
}

static void add_band(struct points *pt, int b);

/* Bands of `words` sums a pixel within BAND_BYTES: rec and held for them, as points_init() makes. */
static int rebands(struct points *pt, int words)
{
	int shift = 0;
	while (shift < 14 && ((size_t)pt->width << (shift + 1)) * (size_t)words * sizeof(uint32_t) <= BAND_BYTES)
		shift++;
	int bands = ((pt->height - 1) >> shift) + 1;
	struct points_rec *rec = malloc((size_t)bands * POINTS_BUCKET * sizeof(*rec));
	uint32_t *held = calloc((size_t)bands, sizeof(*held));
	if (!rec || !held) {
		free(rec);
		free(held);
		return -ENOMEM;
	}
	free(pt->rec);
	free(pt->held);
	pt->rec = rec;
	pt->held = held;
	pt->shift = shift;
	pt->bands = bands;
	return 0;
}

int points_use_colours(struct points *pt)
{
	if (pt->col)
		return 0;
	for (int b = 0; b < pt->bands; b++)
		add_band(pt, b); /* nothing is held after points_init(), but be sure */
	pt->col = calloc((size_t)pt->width * (size_t)pt->height * 4, sizeof(*pt->col));
	if (!pt->col || rebands(pt, 5) != 0 || /* 5 sums a pixel, not 1: bands of a fifth as many rows */
	    !(pt->rec_rgb = malloc((size_t)pt->bands * POINTS_BUCKET * sizeof(*pt->rec_rgb)))) {
		free(pt->col);
		pt->col = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* sum += w, stopping at UINT32_MAX: min(total, UINT32_MAX) whatever the order. */
static inline void add_sat(uint32_t *sum, uint32_t w)
{
	uint32_t s = *sum + w;
	*sum = s < w ? UINT32_MAX : s;
}

/*
 * The first pixel a point at u covers on one axis and its 256ths of the
 * second: the square starts at a = u - .5, in pixel floor(a), and covers
 * the fraction frac(a) of the next one.  0, or -1 when the point is off
 * [-1, n] (or not finite), where it can touch no pixel.
 */
static inline int axis(double u, int n, int *i0, unsigned *f)
{
	double a = u - .5;

	if (!(a > -1 && a < n)) /* also NaN */
		return -1;
	int i = (int)(a + 1) - 1; /* floor: a + 1 > 0 */
	*i0 = i;
	*f = (unsigned)((a - i) * 256); /* [0, 255] */
	return 0;
}

/* Four sums at once (GCC's and Clang's vector extension: one SSE2 register). */
typedef uint32_t sums4 __attribute__((vector_size(16)));

/* c += w x (R, G, B, 1), each lane stopping at UINT32_MAX (add_sat()). */
static inline void add_rgb4(uint32_t *c, uint32_t w, sums4 rgb1)
{
	sums4 q = rgb1 * ((w + 128) >> 8), s; /* w in 256ths of a pixel */

	memcpy(&s, c, sizeof(s));
	s += q;
	s |= (sums4)(s < q); /* an overflowed lane: all ones */
	memcpy(c, &s, sizeof(s));
}

static inline sums4 lanes(uint32_t rgb)
{
	return (sums4){ rgb >> 16 & 0xff, rgb >> 8 & 0xff, rgb & 0xff, 1 };
}

/* A share w of a point of colour rgb, into the colour sums c of its pixel. */
static inline void add_rgb(uint32_t *c, uint32_t w, uint32_t rgb)
{
	add_rgb4(c, w, lanes(rgb));
}

/* add_band() with colours. */
static void add_band_rgb(struct points *pt, int b)
{
	const struct points_rec *r = pt->rec + (size_t)b * POINTS_BUCKET;
	const uint32_t *rgb = pt->rec_rgb + (size_t)b * POINTS_BUCKET;
	size_t W = (size_t)pt->width;
	uint32_t w[4];

	for (uint32_t k = 0, n = pt->held[b]; k < n; k++) {
		uint32_t *p = pt->acc + r[k].at, *c = pt->col + 4 * (size_t)r[k].at;
		sums4 l = lanes(rgb[k]);
		points_shares(r[k].w & 255, r[k].w >> 8 & 255, r[k].w >> 16, w);
		add_sat(p, w[0]);
		add_sat(p + 1, w[1]);
		add_sat(p + W, w[2]);
		add_sat(p + W + 1, w[3]);
		add_rgb4(c, w[0], l);
		add_rgb4(c + 4, w[1], l);
		add_rgb4(c + 4 * W, w[2], l);
		add_rgb4(c + 4 * W + 4, w[3], l);
	}
	pt->held[b] = 0;
}

/* Adds band b's held points to the sums (within the band and the row after it). */
static void add_band(struct points *pt, int b)
{
	const struct points_rec *r = pt->rec + (size_t)b * POINTS_BUCKET;
	size_t W = (size_t)pt->width;
	uint32_t w[4];

	if (pt->col) {
		add_band_rgb(pt, b);
		return;
	}
	for (uint32_t k = 0, n = pt->held[b]; k < n; k++) {
		uint32_t *p = pt->acc + r[k].at;
		points_shares(r[k].w & 255, r[k].w >> 8 & 255, r[k].w >> 16, w);
		add_sat(p, w[0]);
		add_sat(p + 1, w[1]);
		add_sat(p + W, w[2]);
		add_sat(p + W + 1, w[3]);
	}
	pt->held[b] = 0;
}

/* A point partly off the picture: its shares on it, added at once (few are). */
static void add_edge(struct points *pt, int i0, int j0, unsigned fx, unsigned fy, unsigned q,
                     uint32_t rgb)
{
	uint32_t w[4];

	points_shares(fx, fy, q, w);
	for (int k = 0; k < 4; k++) {
		int i = i0 + (k & 1), j = j0 + (k >> 1);
		if (i >= 0 && j >= 0 && i < pt->width && j < pt->height) {
			size_t at = (size_t)j * (size_t)pt->width + (size_t)i;
			add_sat(pt->acc + at, w[k]);
			if (pt->col)
				add_rgb(pt->col + 4 * at, w[k], rgb);
		}
	}
}

static inline __attribute__((always_inline))
void add_point(struct points *pt, double u, double v, unsigned q, uint32_t rgb)
{
	int i0, j0;
	unsigned fx, fy;

	if (axis(u, pt->width, &i0, &fx) != 0 || axis(v, pt->height, &j0, &fy) != 0)
		return;
	if (!(i0 >= 0 && j0 >= 0 && i0 + 1 < pt->width && j0 + 1 < pt->height)) {
		add_edge(pt, i0, j0, fx, fy, q, rgb);
		return;
	}
	int b = j0 >> pt->shift;
	uint32_t k = pt->held[b]++;
	pt->rec[(size_t)b * POINTS_BUCKET + k] = (struct points_rec){
		(uint32_t)j0 * (uint32_t)pt->width + (uint32_t)i0, fx | fy << 8 | q << 16 };
	if (pt->rec_rgb)
		pt->rec_rgb[(size_t)b * POINTS_BUCKET + k] = rgb;
	if (k + 1 == POINTS_BUCKET)
		add_band(pt, b);
}

void points_add(struct points *pt, double u, double v, unsigned q)
{
	add_point(pt, u, v, q, 0);
}

void points_add_rgb(struct points *pt, double u, double v, unsigned q, uint32_t rgb)
{
	add_point(pt, u, v, q, rgb);
}

void points_plane(struct points *pt, const double *x, const double *y, size_t from, size_t to,
                  double scale, double ox, double oy)
{
	for (size_t i = from; i < to; i++)
		add_point(pt, x[i] * scale + ox, y[i] * scale + oy, POINTS_WHOLE, 0);
}

void points_plane_rgb(struct points *pt, const double *x, const double *y, size_t from, size_t to,
                      double scale, double ox, double oy,
                      uint32_t (*rgb)(const void *arg, size_t i), const void *arg)
{
	for (size_t i = from; i < to; i++)
		add_point(pt, x[i] * scale + ox, y[i] * scale + oy, POINTS_WHOLE, rgb(arg, i));
}

/* Every point held in a band's bucket added to the sums. */
static void flush(struct points *pt)
{
	for (int b = 0; b < pt->bands; b++)
		add_band(pt, b);
}

/* d moved toward c by a / 65536 (a in [0, 65536]), rounded to nearest. */
static inline uint32_t mix(uint32_t d, uint32_t c, uint32_t a)
{
	return (d * (POINTS_PIXEL - a) + c * a + POINTS_PIXEL / 2) >> 16;
}

/* Pixel px (opaque ARGB32) moved toward rgb by a / 65536. */
static inline uint32_t blend(uint32_t px, uint32_t rgb, uint32_t a)
{
	return 0xff000000u | mix(px >> 16 & 0xff, rgb >> 16 & 0xff, a) << 16 |
	       mix(px >> 8 & 0xff, rgb >> 8 & 0xff, a) << 8 | mix(px & 0xff, rgb & 0xff, a);
}

void points_compose(struct points *pt, unsigned char *data, int stride, uint32_t rgb)
{
	flush(pt);
	for (int j = 0; j < pt->height; j++) {
		uint32_t *s = pt->acc + (size_t)j * (size_t)pt->width;
		uint32_t *d = (uint32_t *)(void *)(data + (size_t)j * (size_t)stride);
		for (int i = 0; i < pt->width; i++)
			if (s[i]) {
				d[i] = blend(d[i], rgb, s[i] < POINTS_PIXEL ? s[i] : POINTS_PIXEL);
				s[i] = 0;
			}
	}
}

/* round(s / n) for n > 0, ties upward. */
static inline uint32_t mean(uint32_t s, uint32_t n)
{
	uint64_t m = ((uint64_t)s * 2 + n) / (2 * (uint64_t)n);

	return m > 255 ? 255 : (uint32_t)m; /* a saturated sum */
}

void points_compose_rgb(struct points *pt, unsigned char *data, int stride)
{
	flush(pt);
	for (int j = 0; j < pt->height; j++) {
		uint32_t *s = pt->acc + (size_t)j * (size_t)pt->width;
		uint32_t *c = pt->col + 4 * (size_t)j * (size_t)pt->width;
		uint32_t *d = (uint32_t *)(void *)(data + (size_t)j * (size_t)stride);
		for (int i = 0; i < pt->width; i++, c += 4) {
			if (!s[i])
				continue;
			if (c[3]) {
				uint32_t rgb = mean(c[0], c[3]) << 16 | mean(c[1], c[3]) << 8 | mean(c[2], c[3]);
				d[i] = blend(d[i], rgb, s[i] < POINTS_PIXEL ? s[i] : POINTS_PIXEL);
			}
			s[i] = 0;
			c[0] = c[1] = c[2] = c[3] = 0;
		}
	}
}

void points_blend_one(unsigned char *data, int stride, int width, int height,
                      double u, double v, unsigned q, uint32_t rgb)
{
	int i0, j0;
	unsigned fx, fy;
	uint32_t w[4];

	if (axis(u, width, &i0, &fx) != 0 || axis(v, height, &j0, &fy) != 0)
		return;
	points_shares(fx, fy, q, w);
	for (int k = 0; k < 4; k++) {
		int i = i0 + (k & 1), j = j0 + (k >> 1);
		if (i >= 0 && j >= 0 && i < width && j < height && w[k]) {
			uint32_t *d = (uint32_t *)(void *)(data + (size_t)j * (size_t)stride) + i;
			*d = blend(*d, rgb, w[k]);
		}
	}
}
