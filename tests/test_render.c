/*
 * render: what the pictures look like — colours, where each boid's nose
 * points, how much area a boid covers, what --scale does.  Expected values
 * come from independent computations in this file (the spline's control
 * points and its area/centroid by Green's theorem), never from render.c.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "render.h"

#define BG 0x003366u
#define BOID 0x90EE90u
#define PRED 0xFFFFFFu

/* ---- helpers ----------------------------------------------------------- */

struct pic {
	struct renderer *r;
	const unsigned char *px;
	int stride, w, h;
};

static void draw(struct pic *pic, const struct render_params *p, size_t n,
                 size_t predators, const double *x, const double *y,
                 const double *vx, const double *vy)
{
	struct render_view v = { .n = n, .predators = predators, .x = x, .y = y, .vx = vx, .vy = vy };

	cr_assert_eq(render_new(&pic->r, p), 0);
	cr_assert_eq(render_frame(pic->r, &v), 0);
	pic->px = render_pixels(pic->r, &pic->stride);
	pic->w = p->width;
	pic->h = p->height;
	cr_assert_geq(pic->stride, 4 * pic->w);
}

static void draw_one(struct pic *pic, const struct render_params *p, double x,
                     double y, double vx, double vy)
{
	draw(pic, p, 1, 0, &x, &y, &vx, &vy);
}

/* The pixel as 0xAARRGGBB. */
static uint32_t pixel(const struct pic *pic, int x, int y)
{
	uint32_t v;
	memcpy(&v, pic->px + (size_t)y * (size_t)pic->stride + 4 * (size_t)x, 4);
	return v;
}

static double chan(uint32_t c, int k)
{
	return (double)(c >> (16 - 8 * k) & 0xFF);
}

/* How far a pixel is from bg towards fg, least squares over r, g, b. */
static double coverage(uint32_t c, uint32_t bg, uint32_t fg)
{
	double num = 0, den = 0;
	for (int k = 0; k < 3; k++) {
		double d = chan(fg, k) - chan(bg, k);
		num += (chan(c, k) - chan(bg, k)) * d;
		den += d * d;
	}
	return num / den;
}

/* Coverage-weighted mass and centroid (pixel centres) of everything not bg. */
struct moments {
	double mass, cx, cy;
	double far_x, far_y, far_d; /* the lit pixel farthest from (ox, oy) */
};

static struct moments measure(const struct pic *pic, uint32_t fg, double ox, double oy)
{
	struct moments m = { 0, 0, 0, 0, 0, -1 };
	for (int y = 0; y < pic->h; y++)
		for (int x = 0; x < pic->w; x++) {
			double a = coverage(pixel(pic, x, y), BG, fg);
			double px = x + .5, py = y + .5;
			m.mass += a;
			m.cx += a * px;
			m.cy += a * py;
			if (a > .5 && hypot(px - ox, py - oy) > m.far_d) {
				m.far_d = hypot(px - ox, py - oy);
				m.far_x = px;
				m.far_y = py;
			}
		}
	m.cx /= m.mass;
	m.cy /= m.mass;
	return m;
}

/* ---- the outline, computed here from the article's formula ------------ */

static const double article[5][2] = { { 0, 0 }, { -5, -1 }, { 0, 10 }, { 5, -1 }, { 0, 0 } };
static const double repo[5][2] = { { 0, 0 }, { -4, -1 }, { 0, 8 }, { 4, -1 }, { 0, 0 } };

/* Control points of segment i of the closed cardinal spline, tension .5. */
static void spline_segment(const double pts[5][2], int i, double c[4][2])
{
	int n = 5, j = (i + 1) % n;
	for (int k = 0; k < 2; k++) {
		double ti = (pts[j][k] - pts[(i + n - 1) % n][k]) / 6;
		double tj = (pts[(j + 1) % n][k] - pts[i][k]) / 6;
		c[0][k] = pts[i][k];
		c[1][k] = pts[i][k] + ti;
		c[2][k] = pts[j][k] - tj;
		c[3][k] = pts[j][k];
	}
}

/*
 * Green's theorem over segments first..last, sampled finely: signed area
 * A = 1/2 sum (x dy - y dx) and first moments (for the centroid).
 */
struct region {
	double area, mx, my;
};

static struct region green(const double pts[5][2], int first, int last)
{
	struct region g = { 0, 0, 0 };
	const int steps = 4000;
	for (int i = first; i <= last; i++) {
		double c[4][2], p0[2] = { 0, 0 };
		spline_segment(pts, i, c);
		for (int s = 0; s <= steps; s++) {
			double t = (double)s / steps, u = 1 - t, p[2];
			double w[4] = { u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t };
			for (int k = 0; k < 2; k++)
				p[k] = w[0] * c[0][k] + w[1] * c[1][k] + w[2] * c[2][k] + w[3] * c[3][k];
			if (s > 0) {
				double cross = p0[0] * p[1] - p[0] * p0[1];
				g.area += cross / 2;
				g.mx += (p0[0] + p[0]) * cross / 6;
				g.my += (p0[1] + p[1]) * cross / 6;
			}
			p0[0] = p[0];
			p0[1] = p[1];
		}
	}
	return g;
}

/*
 * The even-odd fill of the spline: the body (segments 0-3) minus the tiny
 * loop of the closing segment 4 at the origin, which lies inside the body
 * with the same orientation, so even-odd makes it a pinhole.
 */
static struct region spline_fill(const double pts[5][2])
{
	struct region body = green(pts, 0, 3), loop = green(pts, 4, 4), r;
	double sign = body.area < 0 ? -1 : 1;
	cr_assert_gt(loop.area * sign, 0, "loop and body oriented alike");
	r.area = sign * (body.area - loop.area);
	r.mx = sign * (body.mx - loop.mx);
	r.my = sign * (body.my - loop.my);
	return r;
}

static double shoelace(const double pts[5][2])
{
	double a = 0;
	for (int i = 0; i < 5; i++)
		a += pts[i][0] * pts[(i + 1) % 5][1] - pts[(i + 1) % 5][0] * pts[i][1];
	return fabs(a) / 2;
}

/* ---- tests ----------------------------------------------------------- */

Test(render, defaults_are_the_originals)
{
	struct render_params p;
	render_params_default(&p, 584, 361);
	cr_expect_eq(p.width, 584);
	cr_expect_eq(p.height, 361);
	cr_expect_eq(p.background, BG);
	cr_expect_eq(p.boid_color, BOID);
	cr_expect_eq(p.predator_color, PRED);
	cr_expect_eq(p.scale, 1);
	cr_expect_eq(p.boid_size, 1);
	cr_expect_eq(p.shape, RENDER_CURVE);
	cr_expect_eq(p.antialias, RENDER_AA_GOOD);
}

Test(render, nonsense_params_refused)
{
	struct render_params p;
	struct renderer *r = (struct renderer *)&p;
	render_params_default(&p, 64, 48);
	cr_assert_eq(render_new(&r, &p), 0);
	render_free(r);
	render_free(NULL);

	const struct { int w, h; double scale, size; } bad[] = {
		{ 0, 48, 1, 1 }, { 64, 0, 1, 1 }, { -1, 48, 1, 1 }, { 64, -5, 1, 1 },
		{ 64, 48, 0, 1 }, { 64, 48, -1, 1 }, { 64, 48, NAN, 1 }, { 64, 48, INFINITY, 1 },
		{ 64, 48, 1, 0 }, { 64, 48, 1, NAN }, { 64, 48, 1, -2 },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		render_params_default(&p, bad[i].w, bad[i].h);
		p.scale = bad[i].scale;
		p.boid_size = bad[i].size;
		r = (struct renderer *)&p;
		cr_expect_eq(render_new(&r, &p), -EINVAL, "case %zu accepted", i);
		cr_expect_null(r);
	}
}

Test(render, background_exact_in_corners)
{
	double x[] = { 20, 32, 44 }, y[] = { 24, 20, 28 };
	double vx[] = { 1, -1, .3 }, vy[] = { .2, .5, -1 };
	struct render_params p;
	struct pic pic;

	render_params_default(&p, 64, 48);
	draw(&pic, &p, 3, 1, x, y, vx, vy);
	cr_expect_eq(pixel(&pic, 0, 0), 0xFF000000 | BG);
	cr_expect_eq(pixel(&pic, 63, 0), 0xFF000000 | BG);
	cr_expect_eq(pixel(&pic, 0, 47), 0xFF000000 | BG);
	cr_expect_eq(pixel(&pic, 63, 47), 0xFF000000 | BG);
	for (int yy = 0; yy < 48; yy++)
		for (int xx = 0; xx < 64; xx++)
			cr_assert_eq(pixel(&pic, xx, yy) >> 24, 0xFF, "opaque everywhere");
	render_free(pic.r);
}

Test(render, heading_turns_nose_along_velocity)
{
	const double v[][2] = {
		{ 1, 0 }, { 0, 1 }, { -1, 0 }, { 0, -1 }, { 3, 4 }, { -3, 4 }, { -3, -4 },
		{ 3, -4 }, { 1e-9, -2 }, { -1e-9, 2 }, { -0.0, 1 }, { -0.0, -1 }, { 5, -0.0 },
		{ -5, 0.0 }, { -5, -0.0 }, { 0.1, 0.7 },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		double h = render_heading(v[i][0], v[i][1]);
		double len = hypot(v[i][0], v[i][1]);
		/* cairo_rotate(h) maps (0, 10) to (-10 sin h, 10 cos h) */
		cr_expect_float_eq(-10 * sin(h), 10 * v[i][0] / len, 1e-9, "case %zu x", i);
		cr_expect_float_eq(10 * cos(h), 10 * v[i][1] / len, 1e-9, "case %zu y", i);
	}
	cr_expect_eq(render_heading(0, 0), 0);
	cr_expect_eq(render_heading(NAN, 1), 0);
	cr_expect_eq(render_heading(1, NAN), 0);
	cr_expect(isfinite(render_heading(INFINITY, INFINITY)));
}

/* A lone boid in the middle, in eight directions: where is its pixel mass? */
Test(render, lone_boid_points_along_velocity)
{
	const double size = 4, cx = 60, cy = 60;
	const double dirs[][2] = {
		{ 1, 0 }, { 0, 1 }, { -1, 0 }, { 0, -1 }, { 1, 1 }, { -1, 1 }, { -1, -1 }, { 1, -1 },
	};
	struct region fill = spline_fill(article);
	double along = fill.my / fill.area * size; /* centroid on the nose axis */
	struct render_params p;

	cr_assert_float_eq(fill.mx, 0, 1e-9, "symmetric outline");
	cr_assert_gt(along, 1, "centroid towards the nose");
	render_params_default(&p, 120, 120);
	p.boid_size = size;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		double len = hypot(dirs[i][0], dirs[i][1]);
		double ux = dirs[i][0] / len, uy = dirs[i][1] / len;
		struct pic pic;
		struct moments m;

		draw_one(&pic, &p, cx, cy, dirs[i][0] * 2, dirs[i][1] * 2);
		m = measure(&pic, BOID, cx, cy);
		cr_expect_float_eq(m.mass, fill.area * size * size, .01 * fill.area * size * size,
		                   "dir %zu: mass %g", i, m.mass);
		/* centre of the boid on the velocity line, shifted towards the nose */
		cr_expect_float_eq(m.cx, cx + along * ux, .25, "dir %zu: cx %g", i, m.cx);
		cr_expect_float_eq(m.cy, cy + along * uy, .25, "dir %zu: cy %g", i, m.cy);
		/* the farthest lit pixel is the nose, 10 units ahead */
		cr_expect_gt(((m.far_x - cx) * ux + (m.far_y - cy) * uy) / m.far_d, cos(M_PI / 18),
		             "dir %zu: farthest pixel (%g,%g) not ahead", i, m.far_x, m.far_y);
		cr_expect_float_eq(m.far_d, 10 * size, 1.5, "dir %zu: nose at %g", i, m.far_d);
		render_free(pic.r);
	}
}

Test(render, predators_white_others_lightgreen)
{
	/* boid 0 (predator) faces east, boid 1 west; (0,4) is inside the outline */
	double x[] = { 25, 75 }, y[] = { 30, 30 }, vx[] = { 1, -1 }, vy[] = { 0, 0 };
	struct render_params p;
	struct pic pic;

	render_params_default(&p, 100, 60);
	p.boid_size = 3;
	draw(&pic, &p, 2, 1, x, y, vx, vy);
	cr_expect_eq(pixel(&pic, 25 + 12, 30), 0xFFFFFFFF);
	cr_expect_eq(pixel(&pic, 75 - 12 - 1, 30), 0xFF000000 | BOID);
	render_free(pic.r);

	/* the colours come from the parameters */
	p.predator_color = 0xFF0000;
	p.boid_color = 0x0000FF;
	p.background = 0x102030;
	draw(&pic, &p, 2, 1, x, y, vx, vy);
	cr_expect_eq(pixel(&pic, 37, 30), 0xFFFF0000);
	cr_expect_eq(pixel(&pic, 62, 30), 0xFF0000FF);
	cr_expect_eq(pixel(&pic, 0, 0), 0xFF102030);
	render_free(pic.r);
}

/* Area of a big boid: the spline's, not the polygon's. */
Test(render, filled_area_matches_spline)
{
	struct region fill = spline_fill(article);
	double poly = shoelace(article), size = 10, want = fill.area * size * size;
	struct render_params p;
	struct pic pic;
	struct moments m;
	long lit = 0;

	cr_assert_float_eq(poly, 50, 1e-12);
	cr_assert_gt(fill.area, 1.3 * poly, "the curve bulges well past the polygon");

	render_params_default(&p, 200, 200);
	p.boid_size = size;
	p.antialias = RENDER_AA_NONE;
	draw_one(&pic, &p, 100, 70, 0, 1);
	for (int y = 0; y < 200; y++)
		for (int x = 0; x < 200; x++) {
			uint32_t c = pixel(&pic, x, y) & 0xFFFFFF;
			cr_assert(c == BG || c == BOID, "AA none: only two colours");
			lit += c == BOID;
		}
	cr_expect_float_eq((double)lit, want, .01 * want, "lit %ld, spline %g", lit, want);
	render_free(pic.r);

	p.antialias = RENDER_AA_GOOD;
	draw_one(&pic, &p, 100, 70, 0, 1);
	m = measure(&pic, BOID, 100, 70);
	cr_expect_float_eq(m.mass, want, .01 * want, "coverage %g, spline %g", m.mass, want);
	render_free(pic.r);

	p.shape = RENDER_POLYGON;
	draw_one(&pic, &p, 100, 70, 0, 1);
	m = measure(&pic, BOID, 100, 70);
	want = poly * size * size;
	cr_expect_float_eq(m.mass, want, .01 * want, "polygon %g, want %g", m.mass, want);
	render_free(pic.r);

	p.shape = RENDER_REPO;
	fill = spline_fill(repo);
	want = fill.area * size * size;
	draw_one(&pic, &p, 100, 70, 0, 1);
	m = measure(&pic, BOID, 100, 70);
	cr_expect_float_eq(m.mass, want, .01 * want, "repo %g, want %g", m.mass, want);
	render_free(pic.r);
}

/*
 * GDI+'s alternate fill: the closing segment's little loop at the tail
 * notch lies inside the body, so even-odd leaves a pinhole there.
 */
Test(render, even_odd_pinhole_at_tail)
{
	struct render_params p;
	struct pic pic;

	render_params_default(&p, 200, 200);
	p.boid_size = 40;
	p.antialias = RENDER_AA_NONE;
	draw_one(&pic, &p, 100.5, 50, 0, 1); /* nose down */
	/* pixel centre (100.5, 52.5) is (0, .0625) in the outline: in the loop */
	cr_expect_eq(pixel(&pic, 100, 52) & 0xFFFFFF, BG);
	/* (0, .2) and (0, 2): body */
	cr_expect_eq(pixel(&pic, 100, 57) & 0xFFFFFF, BOID);
	cr_expect_eq(pixel(&pic, 100, 130) & 0xFFFFFF, BOID);
	/* behind the notch: outside */
	cr_expect_eq(pixel(&pic, 100, 47) & 0xFFFFFF, BG);
	render_free(pic.r);
}

Test(render, scale_three_is_three_times_bigger)
{
	struct render_params p;
	struct pic a, b;
	struct moments ma, mb;

	render_params_default(&p, 60, 40);
	draw_one(&a, &p, 20, 15, 1, .5);
	render_params_default(&p, 180, 120);
	p.scale = 3;
	draw_one(&b, &p, 20, 15, 1, .5);
	ma = measure(&a, BOID, 20, 15);
	mb = measure(&b, BOID, 60, 45);
	cr_expect_float_eq(mb.mass, 9 * ma.mass, .03 * 9 * ma.mass, "mass %g vs %g", mb.mass, ma.mass);
	cr_expect_float_eq(mb.cx, 3 * ma.cx, .3, "cx %g vs %g", mb.cx, ma.cx);
	cr_expect_float_eq(mb.cy, 3 * ma.cy, .3, "cy %g vs %g", mb.cy, ma.cy);
	cr_expect_float_eq(mb.far_d, 30, 1.5);
	cr_expect_eq(pixel(&b, 179, 119), 0xFF000000 | BG);
	render_free(a.r);
	render_free(b.r);
}

Test(render, non_finite_and_far_boids_skipped)
{
	double x[] = { NAN, 30, INFINITY, 1e300, -1e300, 1e9 };
	double y[] = { 20, NAN, 20, 1e300, 20, 20 };
	double vx[] = { 1, 1, 1, 1, 1, 1 }, vy[] = { 0, 0, 0, 0, 0, 0 };
	struct render_params p;
	struct pic pic;

	render_params_default(&p, 64, 48);
	draw(&pic, &p, 6, 2, x, y, vx, vy);
	for (int yy = 0; yy < 48; yy++)
		for (int xx = 0; xx < 64; xx++)
			cr_assert_eq(pixel(&pic, xx, yy), 0xFF000000 | BG, "(%d,%d)", xx, yy);
	render_free(pic.r);

	/* a NaN velocity draws at rest: heading 0, nose (0,10) down */
	render_params_default(&p, 64, 64);
	p.boid_size = 2;
	draw_one(&pic, &p, 32, 20, NAN, NAN);
	struct moments m = measure(&pic, BOID, 32, 20);
	cr_expect_gt(m.mass, 100);
	cr_expect_float_eq(m.cx, 32, .25);
	cr_expect_gt(m.cy, 22);
	render_free(pic.r);
}

Test(render, frames_redraw_from_scratch)
{
	double x = 30, y = 20, vx = 1, vy = 0;
	struct render_view v = { .n = 1, .predators = 0, .x = &x, .y = &y, .vx = &vx, .vy = &vy };
	struct render_view none = { .n = 0, .predators = 0, .x = NULL, .y = NULL, .vx = NULL, .vy = NULL };
	struct render_params p;
	struct renderer *r;
	const unsigned char *px;
	int stride;

	render_params_default(&p, 64, 48);
	cr_assert_eq(render_new(&r, &p), 0);
	cr_assert_eq(render_frame(r, &v), 0);
	cr_assert_eq(render_frame(r, &none), 0);
	px = render_pixels(r, &stride);
	for (int yy = 0; yy < 48; yy++)
		for (int xx = 0; xx < 64; xx++) {
			uint32_t c;
			memcpy(&c, px + yy * stride + 4 * xx, 4);
			cr_assert_eq(c, 0xFF000000 | BG);
		}
	/* drawing twice gives the same picture: no transform leaks between frames */
	cr_assert_eq(render_frame(r, &v), 0);
	unsigned char first[48 * 64 * 4];
	for (int yy = 0; yy < 48; yy++)
		memcpy(first + yy * 256, px + yy * stride, 256);
	cr_assert_eq(render_frame(r, &v), 0);
	for (int yy = 0; yy < 48; yy++)
		cr_assert_eq(memcmp(first + yy * 256, px + yy * stride, 256), 0);
	render_free(r);
}

/*
 * The steering target stays above the swarm gathered on it: a flock that
 * covers the target's place leaves its yellow dot on top and, around the
 * ring, a ring of the background (the halo that parts it from the boids).
 */
Test(render, target_drawn_above_the_swarm)
{
	double x[49], y[49], vx[49], vy[49];
	struct render_params p;
	struct pic pic[2];

	for (int i = 0; i < 49; i++) { /* a 7 x 7 block of boids, 4 apart, on (32.5, 24.5) */
		x[i] = 32.5 + 4 * (i % 7 - 3), y[i] = 24.5 + 4 * (i / 7 - 3);
		vx[i] = 1, vy[i] = .3;
	}
	render_params_default(&p, 64, 48);
	p.boid_size = 2;
	for (int with = 0; with < 2; with++) {
		struct render_view v = { .n = 49, .x = x, .y = y, .vx = vx, .vy = vy,
		                         .has_target = with, .target_x = 32, .target_y = 24 };
		cr_assert_eq(render_new(&pic[with].r, &p), 0);
		cr_assert_eq(render_frame(pic[with].r, &v), 0);
		pic[with].px = render_pixels(pic[with].r, &pic[with].stride);
	}
	/* without the target, boids cover its dot and the halo's place (pixels 7 to 8 units from it) */
	int halo[4][2] = { { 39, 24 }, { 24, 24 }, { 32, 31 }, { 32, 16 } };
	int covered = 0;
	for (int k = 0; k < 4; k++)
		covered += (pixel(&pic[0], halo[k][0], halo[k][1]) & 0xFFFFFF) != BG;
	cr_assert_geq(covered, 2, "the block does not cover the target's place");
	cr_assert_neq(pixel(&pic[0], 31, 23) & 0xFFFFFF, 0xFFCC00u);
	/* with it: the dot yellow, the halo the background, whatever lies under them */
	cr_expect_eq(pixel(&pic[1], 31, 23), 0xFFFFCC00u, "dot: %08x", pixel(&pic[1], 31, 23));
	for (int k = 0; k < 4; k++)
		cr_expect_eq(pixel(&pic[1], halo[k][0], halo[k][1]), 0xFF000000u | BG, "halo at (%d, %d): %08x",
		             halo[k][0], halo[k][1], pixel(&pic[1], halo[k][0], halo[k][1]));
	render_free(pic[0].r);
	render_free(pic[1].r);
}
