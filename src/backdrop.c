/*
 * backdrop — the noise background (--background-style noise): Perlin's
 * gradient noise over the background colour, made once per renderer by
 * render_make_backdrop() and painted under every frame.
 */
#include <math.h>
#include <stdint.h>

#include <cairo.h>

#include "render_int.h"
#include "rng.h"

/*
 * Perlin's improved gradient noise (2002) over a permutation shuffled from
 * the seed, three octaves.  Integer hashing and double arithmetic only, so
 * the same seed gives the same picture everywhere.
 */
struct perlin {
	unsigned char perm[512];
};

static void perlin_init(struct perlin *pn, uint64_t seed)
{
	struct rng r;

	rng_seed(&r, seed ^ 0x6e6f697365ULL); /* "noise": not the flock's draws */
	for (int i = 0; i < 256; i++)
		pn->perm[i] = (unsigned char)i;
	for (int i = 255; i > 0; i--) {
		int j = (int)(rng_next(&r) % (uint64_t)(i + 1));
		unsigned char t = pn->perm[i];
		pn->perm[i] = pn->perm[j];
		pn->perm[j] = t;
	}
	for (int i = 0; i < 256; i++)
		pn->perm[256 + i] = pn->perm[i];
}

static double fade(double t)
{
	return t * t * t * (t * (t * 6 - 15) + 10);
}

static double grad(int h, double x, double y)
{
	switch (h & 7) {
	case 0: return x + y;
	case 1: return -x + y;
	case 2: return x - y;
	case 3: return -x - y;
	case 4: return x;
	case 5: return -x;
	case 6: return y;
	default: return -y;
	}
}

/* Noise in about [-1, 1]. */
static double perlin(const struct perlin *pn, double x, double y)
{
	double fx = floor(x), fy = floor(y);
	int xi = (int)fx & 255, yi = (int)fy & 255;
	double xf = x - fx, yf = y - fy, u = fade(xf), v = fade(yf);
	const unsigned char *P = pn->perm;
	int aa = P[P[xi] + yi], ab = P[P[xi] + yi + 1];
	int ba = P[P[xi + 1] + yi], bb = P[P[xi + 1] + yi + 1];
	double x1 = grad(aa, xf, yf) + u * (grad(ba, xf - 1, yf) - grad(aa, xf, yf));
	double x2 = grad(ab, xf, yf - 1) + u * (grad(bb, xf - 1, yf - 1) - grad(ab, xf, yf - 1));
	return x1 + v * (x2 - x1);
}

/*
 * The noise background, in field units so --scale shows the same clouds:
 * features about 160 units across, the background colour darkened to 60%
 * in the valleys and lifted a quarter of the way to white on the crests.
 */
int render_make_backdrop(struct renderer *r)
{
	const struct render_params *p = &r->p;
	struct perlin pn;
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, p->width, p->height);
	int err = render_cairo_error_code(cairo_surface_status(s));

	if (err) {
		cairo_surface_destroy(s);
		return err;
	}
	perlin_init(&pn, p->noise_seed);
	unsigned char *data = cairo_image_surface_get_data(s);
	int stride = cairo_image_surface_get_stride(s);
	double base[3] = { (p->background >> 16) & 255, (p->background >> 8) & 255, p->background & 255 };
	for (int y = 0; y < p->height; y++) {
		uint32_t *row = (uint32_t *)(void *)(data + (size_t)y * (size_t)stride);
		for (int x = 0; x < p->width; x++) {
			double fx = (x + .5) / p->scale / 160, fy = (y + .5) / p->scale / 160, n = 0;
			for (int o = 0, f = 1; o < 3; o++, f *= 2)
				n += perlin(&pn, fx * f, fy * f) / f;
			double t = fmin(1, fmax(0, .5 + .5 * n / 1.75 * 1.6)); /* 0 valley .. 1 crest */
			uint32_t px = 0xff000000u;
			for (int c = 0; c < 3; c++) {
				double dark = base[c] * .6, light = base[c] + (255 - base[c]) * .25;
				px |= (uint32_t)lround(dark + (light - dark) * t) << (16 - 8 * c);
			}
			row[x] = px;
		}
	}
	cairo_surface_mark_dirty(s);
	r->backdrop = s;
	return 0;
}
