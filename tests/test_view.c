/*
 * Pictures at every scale: windows onto the field (--view,
 * --view-end, --follow), the boids a window copies (culling), --draw
 * auto's level of detail and --draw density, each against what a user
 * would measure in the picture:
 *
 * - where a boid lands: the centroid of its pixels against a projection
 *   written here (2D: the window's affine map; 3D: gluLookAt and
 *   gluPerspective from the eye the camera's line of sight and the
 *   window's width give), at zooms from a point to a disc;
 * - a culled frame against the same frame drawn from every boid, byte
 *   for byte, in every drawing mode;
 * - the area the boids cover, frame after frame through a zoom that
 *   crosses the level of detail's band: no jump;
 * - the density image: its tone against log(coverage) between the
 *   bounds, its bytes for any order of the boids and thread count, and
 *   pixels nobody moved under left alone (bounds fixed for the clip);
 * - the zoom's easing and the follow's pace against their definitions,
 *   the largest cluster against brute-force components.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wordexp.h>

#include "cli.h"
#include "colormap.h"
#include "common.h"
#include "framing.h"
#include "metrics.h"
#include "render.h"
#include "rng.h"
#include "sim.h"
#include "view.h"

static void setup(void) { tc_tmpdir(); }

TestSuite(view, .init = setup, .fini = tc_cleanup, .timeout = 120);

/* ---- helpers ---------------------------------------------------------- */

/* A config as `boids ARGS` would make it. */
static void parse(struct config *c, const char *args)
{
	wordexp_t we;
	char err[256], line[1024];
	snprintf(line, sizeof line, "boids %s", args);
	cr_assert_eq(wordexp(line, &we, 0), 0);
	cr_assert_eq(cli_parse(c, (int)we.we_wordc, we.we_wordv, err, sizeof err), CLI_RUN, "%s: %s", args, err);
	wordfree(&we);
}

/* A picture drawn by render_frame(): its renderer and pixels. */
struct pic {
	struct renderer *r;
	const uint32_t *px;
	int w, h, stride; /* stride in pixels */
};

static void draw(struct pic *p, const struct render_params *rp, const struct render_view *v)
{
	if (!p->r)
		cr_assert_eq(render_new(&p->r, rp), 0);
	cr_assert_eq(render_frame(p->r, v), 0);
	int stride;
	p->px = (const uint32_t *)(const void *)render_pixels(p->r, &stride);
	p->w = rp->width, p->h = rp->height, p->stride = stride / 4;
}

/* How many pixels of a and b (the same size) differ; *lit gets how many of b's are not the background bg. */
static long pixels_differ(const struct pic *a, const struct pic *b, uint32_t bg, long *lit)
{
	long differ = 0;

	*lit = 0;
	for (int j = 0; j < b->h; j++)
		for (int i = 0; i < b->w; i++) {
			uint32_t pa = a->px[j * a->stride + i], pb = b->px[j * b->stride + i];
			differ += pa != pb;
			*lit += (pb & 0xFFFFFF) != bg;
		}
	return differ;
}

/* How far pixel c moved from the background bg toward colour to (0 .. 1, by the channel that moved most). */
static double moved(uint32_t c, uint32_t bg, uint32_t to)
{
	double best = 0, span = 0;
	for (int sh = 0; sh <= 16; sh += 8) {
		double d = (double)(to >> sh & 255) - (double)(bg >> sh & 255);
		if (fabs(d) > span)
			span = fabs(d), best = ((double)(c >> sh & 255) - (double)(bg >> sh & 255)) / d;
	}
	return best < 0 ? 0 : best > 1 ? 1 : best;
}

/* The centroid of what moved from bg toward `to` (pixel centres at i + .5); returns the total moved. */
static double centroid(const struct pic *p, uint32_t bg, uint32_t to, double *cx, double *cy)
{
	double sum = 0, sx = 0, sy = 0;
	for (int j = 0; j < p->h; j++)
		for (int i = 0; i < p->w; i++) {
			double m = moved(p->px[(size_t)j * (size_t)p->stride + (size_t)i] & 0xFFFFFF, bg, to);
			sum += m, sx += m * (i + .5), sy += m * (j + .5);
		}
	*cx = sum > 0 ? sx / sum : NAN;
	*cy = sum > 0 ? sy / sum : NAN;
	return sum;
}

/* Decodes a PNG into 0xRRGGBB pixels (malloc'ed). */
static uint32_t *decode(const char *path, int *w, int *h)
{
	png_image img;
	memset(&img, 0, sizeof img);
	img.version = PNG_IMAGE_VERSION;
	cr_assert(png_image_begin_read_from_file(&img, path), "%s", path);
	img.format = PNG_FORMAT_RGB;
	unsigned char *rgb = malloc(PNG_IMAGE_SIZE(img));
	cr_assert(rgb && png_image_finish_read(&img, NULL, rgb, 0, NULL));
	*w = (int)img.width, *h = (int)img.height;
	uint32_t *out = malloc((size_t)*w * (size_t)*h * sizeof *out);
	cr_assert_not_null(out);
	for (size_t k = 0; k < (size_t)*w * (size_t)*h; k++)
		out[k] = (uint32_t)rgb[3 * k] << 16 | (uint32_t)rgb[3 * k + 1] << 8 | rgb[3 * k + 2];
	free(rgb);
	return out;
}

/* A --init CSV: n boids at (x, y) with velocity (vx, vy) from the arrays. */
static void write_init(const char *path, size_t n, const double *x, const double *y, const double *vx,
                       const double *vy)
{
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fprintf(f, "frame,id,x,y,vx,vy\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "0,%zu,%.17g,%.17g,%.17g,%.17g\n", i, x[i], y[i], vx[i], vy[i]);
	fclose(f);
}

/* ---- where a boid lands ----------------------------------------------- */

/*
 * A boid at a known field point lands where the window's affine map puts
 * it, W/2 + (x - cx) W/w, at zooms from a point (a disc 0.85 pixels wide)
 * through the blend (2 pixels) to a disc 64 pixels across, the window off
 * the field's centre.
 */
Test(view, a_boid_lands_where_the_2d_window_puts_it)
{
	struct config c;
	parse(&c, "--field 4000x3000 -s 320x180 --shape circle --predators 0 -n 1");
	const double x = 1234.25, y = 2345.75, zooms[] = { 3000, 1300, 700, 200, 40 };
	double vx = 1, vy = 0;
	for (size_t k = 0; k < sizeof zooms / sizeof zooms[0]; k++) {
		double w = zooms[k], cx = x + .21 * w, cy = y - .13 * w;
		struct render_view v = { .n = 1, .x = &x, .y = &y, .vx = &vx, .vy = &vy,
		                         .window = { .set = 1, .cx = cx, .cy = cy, .w = w } };
		struct pic p = { 0 };
		draw(&p, &c.render, &v);
		double gx, gy, s = 320 / w;
		double mass = centroid(&p, c.render.background, c.render.boid_color, &gx, &gy);
		cr_assert_gt(mass, .5, "zoom %g: nothing drawn", w);
		cr_expect(fabs(gx - (160 + (x - cx) * s)) < .05 && fabs(gy - (90 + (y - cy) * s)) < .05,
		          "zoom %g: drawn at (%g, %g), the window puts it at (%g, %g)", w, gx, gy, 160 + (x - cx) * s,
		          90 + (y - cy) * s);
		render_free(p.r);
	}
	cli_release(&c);
}

/* The textbook camera: gluLookAt(eye, at, up -y), gluPerspective(fov, w/h), v down. */
static void textbook(const double eye[3], const double at[3], double fov, double w, double h, const double p[3],
                     double *u, double *v)
{
	double f[3], s[3], t[3], q[3], l;
	for (int k = 0; k < 3; k++)
		f[k] = at[k] - eye[k], q[k] = p[k] - eye[k];
	l = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
	for (int k = 0; k < 3; k++)
		f[k] /= l;
	s[0] = f[2], s[1] = 0, s[2] = -f[0]; /* f x (0, -1, 0) */
	l = sqrt(s[0] * s[0] + s[2] * s[2]);
	s[0] /= l, s[2] /= l;
	t[0] = s[1] * f[2] - s[2] * f[1], t[1] = s[2] * f[0] - s[0] * f[2], t[2] = s[0] * f[1] - s[1] * f[0];
	double xe = s[0] * q[0] + s[1] * q[1] + s[2] * q[2], ye = t[0] * q[0] + t[1] * q[1] + t[2] * q[2];
	double ze = -(f[0] * q[0] + f[1] * q[1] + f[2] * q[2]), cot = 1 / tan(fov * M_PI / 360);
	*u = (cot / (w / h) * xe / -ze + 1) / 2 * w;
	*v = (1 - cot * ye / -ze) / 2 * h;
}

/*
 * In 3D a window aims the front camera: from the point (cx, cy, cz), back
 * along the front camera's line of sight (20 degrees down, toward +z) by
 * the distance at which w spans the picture's width, a boid lands where
 * the textbook projects it, at several zooms.
 */
Test(view, a_boid_lands_where_the_3d_window_puts_it)
{
	struct config c;
	parse(&c, "--dims 3 --field 4000x3000x2000 -s 320x180 --shape circle --predators 0 -n 1 --box=no --ground=no");
	const double p[3] = { 1050, 780, 850 }, at[3] = { 1100, 750, 900 }, zooms[] = { 3000, 1000, 400 };
	double vx = 1, vy = 0, vz = 0;
	for (size_t k = 0; k < sizeof zooms / sizeof zooms[0]; k++) {
		double w = zooms[k], e = 20 * M_PI / 180, fwd[3] = { 0, sin(e), cos(e) }, eye[3], u, v;
		double t = w / (2 * (320.0 / 180) * tan(c.render.camera.fov * M_PI / 360));
		for (int a = 0; a < 3; a++)
			eye[a] = at[a] - t * fwd[a];
		textbook(eye, at, c.render.camera.fov, 320, 180, p, &u, &v);
		struct render_view rv = { .n = 1, .x = &p[0], .y = &p[1], .z = &p[2], .vx = &vx, .vy = &vy, .vz = &vz,
		                          .window = { .set = 1, .cx = at[0], .cy = at[1], .cz = at[2], .w = w } };
		struct pic pc = { 0 };
		draw(&pc, &c.render, &rv);
		double gx, gy;
		cr_assert_gt(centroid(&pc, c.render.background, c.render.boid_color, &gx, &gy), .3, "zoom %g", w);
		cr_expect(fabs(gx - u) < .05 && fabs(gy - v) < .05, "zoom %g: drawn at (%g, %g), the textbook (%g, %g)", w,
		          gx, gy, u, v);
		render_free(pc.r);
	}
	cli_release(&c);
}

/* ---- a frame costs what it shows -------------------------------------- */

/* A flock of n boids spread over the field of c (the seed's start, then two steps). */
static void flock(struct sim *s, const struct config *c, size_t n)
{
	cr_assert_eq(sim_init(s, &c->sim, n, NULL), 0);
	sim_randomize(s, 5);
	cr_assert_eq(sim_step(s), 0);
	cr_assert_eq(sim_step(s), 0);
}

/*
 * A frame zoomed onto part of a 20,000-boid field copies a few of its
 * boids (framing_copy(): through the grid) and draws the same bytes as the
 * same frame drawn from every boid, in every drawing mode: darts, the
 * level of detail's blend, exact with predators, --show-ranges and
 * --color-by speed (whose range is the whole flock's), points, density
 * (its points among darts, and a window on a field so big that its boids
 * are smoothed over a kernel that reaches 125 field units past the
 * window's edges).
 */
Test(view, a_culled_frame_is_every_boids_frame)
{
	static const struct {
		const char *args;
		double w;
	} cases[] = {
		{ "", 600 },
		{ "", 3000 },
		{ "--draw exact --predators 5 --predator-size 2 --show-ranges --color-by speed", 900 },
		{ "--draw points --color-by heading", 2000 },
		{ "--draw density", 2500 },
		{ "--draw density --density-range 0.05,3", 1500 },
		{ "--draw density --field 40000x22500", 12000 },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct config c;
		struct sim s;
		char args[512];
		snprintf(args, sizeof args, "--field 8000x4500 -s 640x360 --view 3100,2100,%g %s", cases[k].w, cases[k].args);
		parse(&c, args);
		size_t n = 20000;
		flock(&s, &c, n);
		struct framing f;
		framing_init(&f, &c, &s);
		struct render_window w;
		cr_assert_eq(framing_window(&f, &s, 0, &w), 0);
		cr_assert(w.set && w.cx == 3100 && w.cy == 2100 && w.w == cases[k].w, "case %zu: the window", k);
		double *a = malloc(4 * n * sizeof *a);
		cr_assert_not_null(a);
		struct framing_copy cp = { .x = a, .y = a + n, .vx = a + 2 * n, .vy = a + 3 * n, .velocities = 1 };
		struct pic culled = { 0 }, whole = { 0 };
		cr_assert_eq(render_new(&culled.r, &c.render), 0);
		cr_assert_eq(framing_copy(&f, &s, 0, &w, culled.r, &cp), 0);
		cr_expect(cp.n > 10 && cp.n < n / 5, "case %zu: %zu of %zu boids copied", k, cp.n, n);
		struct render_view v = { .n = cp.n, .predators = cp.predators, .x = cp.x, .y = cp.y, .vx = cp.vx,
		                         .vy = cp.vy, .window = w, .has_speed_range = cp.has_speed_range,
		                         .speed_lo = cp.speed_lo, .speed_hi = cp.speed_hi };
		struct render_view all = { .n = n, .predators = s.p.predators, .x = s.x, .y = s.y, .vx = s.vx, .vy = s.vy,
		                           .window = w };
		draw(&culled, &c.render, &v);
		draw(&whole, &c.render, &all);
		long lit, differ = pixels_differ(&culled, &whole, c.render.background, &lit);
		cr_expect_eq(differ, 0, "case %zu (%s): %ld pixels differ from every boid's frame", k, cases[k].args, differ);
		cr_expect_gt(lit, 500, "case %zu: only %ld pixels drawn", k, lit);
		render_free(culled.r);
		render_free(whole.r);
		framing_release(&f);
		free(a);
		sim_release(&s);
		cli_release(&c);
	}
}

/*
 * In 3D a window copies only the boids its camera shows on the picture
 * (a frustum cull: 20,000 boids in a box the window looks into from
 * inside, many of them behind the camera) and draws the same bytes as the
 * frame drawn from every boid, whose fog spans the depths of every boid in
 * front of the camera, in every drawing mode: darts with points (auto),
 * exact with predators, --show-ranges and --color-by speed, fast, points
 * (fogged), density (its kernel), and the orbit camera at frame 7.
 */
Test(view, a_culled_3d_frame_is_every_boids_frame)
{
	static const struct {
		const char *args;
		double w;
	} cases[] = {
		{ "", 500 },
		{ "", 1500 },
		{ "--draw exact --predators 5 --predator-size 2 --show-ranges --color-by speed", 700 },
		{ "--draw fast --fog 0.9", 900 },
		{ "--draw points --color-by heading", 1200 },
		{ "--draw density", 1500 },
		{ "--camera orbit -f 20", 800 },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct config c;
		struct sim s;
		char args[512];
		snprintf(args, sizeof args, "--dims 3 --field 6000x4000x4000 -s 640x360 --view 2500,2100,%g %s", cases[k].w,
		         cases[k].args);
		parse(&c, args);
		size_t n = 20000;
		flock(&s, &c, n);
		struct framing f;
		framing_init(&f, &c, &s);
		struct render_window w;
		cr_assert_eq(framing_window(&f, &s, 7, &w), 0);
		cr_assert(w.set && w.w == cases[k].w, "case %zu: the window", k);
		double *a = malloc(6 * n * sizeof *a);
		cr_assert_not_null(a);
		struct framing_copy cp = { .x = a, .y = a + n, .z = a + 2 * n, .vx = a + 3 * n, .vy = a + 4 * n,
		                           .vz = a + 5 * n, .velocities = 1 };
		struct pic culled = { 0 }, whole = { 0 };
		cr_assert_eq(render_new(&culled.r, &c.render), 0);
		cr_assert_eq(framing_copy(&f, &s, 7, &w, culled.r, &cp), 0);
		cr_expect(cp.n > 10 && cp.n < n / 4, "case %zu: %zu of %zu boids copied", k, cp.n, n);
		struct render_view v = { .n = cp.n, .predators = cp.predators, .x = cp.x, .y = cp.y, .z = cp.z, .vx = cp.vx,
		                         .vy = cp.vy, .vz = cp.vz, .frame = 7, .window = w,
		                         .has_speed_range = cp.has_speed_range, .speed_lo = cp.speed_lo,
		                         .speed_hi = cp.speed_hi, .has_fog = cp.has_fog, .fog = cp.fog };
		struct render_view all = { .n = n, .predators = s.p.predators, .x = s.x, .y = s.y, .z = s.z, .vx = s.vx,
		                           .vy = s.vy, .vz = s.vz, .frame = 7, .window = w };
		draw(&culled, &c.render, &v);
		draw(&whole, &c.render, &all);
		long lit, differ = pixels_differ(&culled, &whole, c.render.background, &lit);
		cr_expect_eq(differ, 0, "case %zu (%s): %ld pixels differ from every boid's frame", k, cases[k].args, differ);
		cr_expect_gt(lit, 500, "case %zu: only %ld pixels drawn", k, lit);
		if (k == 0) { /* the command line's frame of the same flock: the pipeline hands the fog on */
			FILE *csv = fopen("in3.csv", "w");
			cr_assert_not_null(csv);
			fprintf(csv, "frame,id,x,y,vx,vy,z,vz\n");
			for (size_t i = 0; i < n; i++)
				fprintf(csv, "0,%zu,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", i, s.x[i], s.y[i], s.vx[i], s.vy[i],
				        s.z[i], s.vz[i]);
			fclose(csv);
			cr_assert_eq(tc_boids("-q --init in3.csv %s -f 1 -o cli.png", args), 0, "%s", tc_stderr());
			int pw, ph;
			uint32_t *got = decode("cli.png", &pw, &ph);
			struct render_window w0;
			struct framing f0;
			framing_init(&f0, &c, &s);
			cr_assert_eq(framing_window(&f0, &s, 0, &w0), 0);
			all.frame = 0, all.window = w0;
			draw(&whole, &c.render, &all);
			long off = 0;
			for (int j = 0; j < 360; j++)
				for (int i = 0; i < 640; i++)
					off += got[j * 640 + i] != (whole.px[j * whole.stride + i] & 0xFFFFFF);
			cr_expect_eq(off, 0, "boids --view in 3D: %ld pixels differ from every boid's frame", off);
			framing_release(&f0);
			free(got);
		}
		render_free(culled.r);
		render_free(whole.r);
		framing_release(&f);
		free(a);
		sim_release(&s);
		cli_release(&c);
	}
}

/* ---- level of detail ------------------------------------------------- */

/*
 * Through a zoom (2% a frame) in which the boids go from spanning 0.8
 * pixels to 5 (points, the blend from 1.5 to 3, darts), the area they
 * cover, summed over the picture, never jumps: frame to frame it changes
 * by at most 2.5 times the darts' own growth (1.02^2: 4% a frame; the
 * blend goes from a point's one pixel to a dart's 4.5 in a doubling of
 * the span, where darts alone grow 4 times: 8% at its steepest; a boid
 * switched from point to dart at 3 pixels, x4.5 at once).  Each boid is
 * apart from the others at every zoom, so nothing saturates.
 */
Test(view, level_of_detail_is_continuous_across_a_zoom)
{
	enum { NX = 16, NY = 9, N = NX * NY };
	struct config c;
	parse(&c, "--field 16000x9000 -s 640x360 --predators 0"); /* its walls out of every frame */
	double x[N], y[N], vx[N], vy[N];
	struct rng g;
	rng_seed(&g, 11);
	for (int i = 0; i < N; i++) { /* a grid 20 units apart around the centre, headings at random */
		double a = 2 * M_PI * rng_uniform(&g);
		x[i] = 8000 + 20 * (i % NX - (NX - 1) / 2.) + .3 * rng_uniform(&g);
		y[i] = 4500 + 20 * (i / NX - (NY - 1) / 2.) + .3 * rng_uniform(&g);
		vx[i] = cos(a), vy[i] = sin(a);
	}
	struct pic p = { 0 };
	double last = 0, span = 0.8; /* span: the outline's longer side, pixels */
	int frames = 0;
	for (; span < 5; span *= 1.02, frames++) {
		/* the curve outline's longer side is about 11 units: a scale of span / 11 */
		double w = 640 / (span / 11.1);
		struct render_view v = { .n = N, .x = x, .y = y, .vx = vx, .vy = vy,
		                         .window = { .set = 1, .cx = 8000, .cy = 4500, .w = w } };
		draw(&p, &c.render, &v);
		double area = 0;
		for (int j = 0; j < 360; j++)
			for (int i = 0; i < 640; i++)
				area += moved(p.px[j * p.stride + i] & 0xFFFFFF, c.render.background, c.render.boid_color);
		if (last > 0) {
			double jump = fabs(area / last - 1);
			cr_expect_leq(jump, 2.5 * (1.02 * 1.02 - 1), "at %.2f px a boid: the covered area went from %g to %g",
			              span, last, area);
		}
		last = area;
	}
	cr_expect_gt(frames, 80);
	cr_expect_gt(last / N, 3, "darts at 5 px cover only %g px each", last / N);
	render_free(p.r);
	cli_release(&c);
}

/* ---- the density look ------------------------------------------------- */

/* The bell of half-width h at offset d (pixels): the cubic B-spline of 2d / h, normalised over the whole offsets. */
static double bell(double h, int d)
{
	double sum = 0, at = 0;
	for (int t = 1 - (int)ceil(h); t < h; t++) {
		double u = 2.0 * abs(t) / h, b = u < 1 ? (4 - 6 * u * u + 3 * u * u * u) / 4 : pow(2 - u, 3) / 4;
		sum += b;
		at += t == d ? b : 0;
	}
	return at / sum;
}

/*
 * The tone is the log of the density over the kernel between the bounds:
 * boids small enough to be points (0.55 pixels) at pixel centres, 1, 4
 * and 20 of them, all heading +x; the density a pixel shows is the
 * number of boids around it weighted by a bell (a cubic B-spline)
 * reaching 2.5 flock radii on each axis, computed here from its
 * definition (kde.h), and the
 * pixel moves from the background toward the heading wheel's colour of
 * +x by log(density / lo) / log(hi / lo), here 0.01 and 4 boids a pixel.
 * Two flock radii: the kernel follows the model's.  Pixels the kernel
 * does not reach stay the background; the predator is a whole point of
 * its own colour over the image.
 */
Test(view, density_brightness_is_the_log_of_the_density_over_the_kernel)
{
	const double radii[] = { 1.75, 1.25 };
	for (size_t rk = 0; rk < sizeof radii / sizeof radii[0]; rk++) {
		struct config c;
		char args[256];
		snprintf(args, sizeof args, "-s 64x32 --draw density --density-range 0.01,4 --predators 0 --boid-size 0.05 "
		         "--flock-radius %g", radii[rk]);
		parse(&c, args);
		enum { N = 1 + 4 + 20 };
		double x[N], y[N], vx[N], vy[N], h = 2.5 * radii[rk];
		const int gx[3] = { 10, 30, 50 }, gn[3] = { 1, 4, 20 };
		for (int i = 0; i < N; i++) { /* 1 boid in pixel (10, 12), 4 in (30, 12), 20 in (50, 12): heading +x */
			x[i] = (i < 1 ? gx[0] : i < 5 ? gx[1] : gx[2]) + .5, y[i] = 12.5;
			vx[i] = 3, vy[i] = 0;
		}
		struct render_view v = { .n = N, .x = x, .y = y, .vx = vx, .vy = vy };
		struct pic p = { 0 };
		draw(&p, &c.render, &v);
		uint32_t bg = c.render.background, hue = colormap_heading(0);
		long checked = 0, lit = 0, toned = 0;
		for (int j = 0; j < 32; j++)
			for (int i = 0; i < 64; i++) {
				double dens = 0;
				for (int g = 0; g < 3; g++)
					dens += gn[g] * bell(h, i - gx[g]) * bell(h, j - 12);
				double t = dens > 0 ? log(dens / .01) / log(400) : 0;
				t = t < 0 ? 0 : t > 1 ? 1 : t;
				uint32_t got = p.px[j * p.stride + i] & 0xFFFFFF;
				for (int sh = 0; sh <= 16; sh += 8) {
					double e = (bg >> sh & 255) + ((double)(hue >> sh & 255) - (bg >> sh & 255)) * t;
					cr_expect(fabs((got >> sh & 255) - e) <= 3,
					          "flock radius %g, pixel (%d, %d): %06x, the log tone %.3f of %g boids a pixel, %06x over %06x",
					          radii[rk], i, j, got, t, dens, hue, bg);
				}
				checked++;
				lit += got != bg;
				toned += t > .02;
			}
		cr_expect_eq(checked, 64 * 32);
		cr_expect(lit >= toned && toned > 3 * h * h, "flock radius %g: %ld pixels lit, %ld toned", radii[rk], lit, toned);
		render_free(p.r);
		cli_release(&c);
	}
}

/*
 * The kernel gives way to the level of detail: a lone boid's patch
 * reaches 2.5 flock radii (125 field units) while a boid spans under
 * 0.75 pixels, half that at 1.125 pixels, and nothing beyond its
 * own point (two pixels a side) from 1.5 pixels, where its dart begins to
 * fade in.  Every pixel the image touches is lit (bounds far below one
 * boid).
 */
Test(view, the_density_kernel_shrinks_to_the_point_as_boids_grow)
{
	struct config c;
	parse(&c, "--field 40000x22500 -s 640x360 --draw density --density-range 1e-6,2e-6 --predators 0");
	const double spans[] = { 0.3, 0.7, 1.125, 1.5 }, reach[] = { 125, 125, 62.5, 0 };
	double x = 20000.3, y = 11000.6, vx = 1, vy = 2;
	for (size_t k = 0; k < sizeof spans / sizeof spans[0]; k++) {
		double s = spans[k] / 11.1, w = 640 / s; /* the curve outline's longer side is about 11.1 units */
		struct render_view v = { .n = 1, .x = &x, .y = &y, .vx = &vx, .vy = &vy,
		                         .window = { .set = 1, .cx = 20000, .cy = 11000, .w = w } };
		struct pic p = { 0 };
		draw(&p, &c.render, &v);
		double u0 = 320 + (x - 20000) * s, v0 = 180 + (y - 11000) * s, far = 0;
		for (int j = 0; j < 360; j++)
			for (int i = 0; i < 640; i++)
				if ((p.px[j * p.stride + i] & 0xFFFFFF) != c.render.background)
					far = fmax(far, fmax(fabs(i + .5 - u0), fabs(j + .5 - v0)));
		/* the patch's last pixel: within a pixel and a half of the kernel's reach */
		cr_expect(fabs(far - reach[k] * s) <= 1.5, "a boid of %g px: lit %.1f px from it, the kernel reaches %.1f",
		          spans[k], far, reach[k] * s);
		render_free(p.r);
	}
	cli_release(&c);
}

/* Same bytes whatever the order of the boids (the predators first, as always) and the thread count. */
Test(view, density_bytes_are_the_same_in_any_order_and_thread_count)
{
	struct config c;
	parse(&c, "--field 3000x2000 -s 320x180 --draw density");
	struct sim s;
	flock(&s, &c, 6000);
	size_t n = s.n, np = s.p.predators;
	double *q = malloc(4 * n * sizeof *q);
	cr_assert_not_null(q);
	size_t *perm = malloc(n * sizeof *perm);
	cr_assert_not_null(perm);
	struct rng g;
	rng_seed(&g, 3);
	for (size_t i = 0; i < n; i++)
		perm[i] = i;
	for (size_t i = n - 1; i > np; i--) { /* Fisher-Yates over the boids after the predators */
		size_t j = np + (size_t)(rng_uniform(&g) * (double)(i - np + 1));
		size_t t = perm[i];
		perm[i] = perm[j], perm[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		q[i] = s.x[perm[i]], q[n + i] = s.y[perm[i]], q[2 * n + i] = s.vx[perm[i]], q[3 * n + i] = s.vy[perm[i]];
	struct render_view a = { .n = n, .predators = np, .x = s.x, .y = s.y, .vx = s.vx, .vy = s.vy };
	struct render_view b = { .n = n, .predators = np, .x = q, .y = q + n, .vx = q + 2 * n, .vy = q + 3 * n };
	struct pic pa = { 0 }, pb = { 0 };
	draw(&pa, &c.render, &a);
	draw(&pb, &c.render, &b);
	long differ = 0;
	for (int j = 0; j < 180; j++)
		for (int i = 0; i < 320; i++)
			differ += pa.px[j * pa.stride + i] != pb.px[j * pb.stride + i];
	cr_expect_eq(differ, 0, "%ld pixels differ with the boids in another order", differ);
	render_free(pa.r);
	render_free(pb.r);
	free(q);
	free(perm);
	sim_release(&s);
	cli_release(&c);
	const char *clip = "-q -n 20000 --field 6000x3400 -s 320x180 --draw density -f 4 --warmup 5";
	cr_assert_eq(tc_boids("%s --threads 1 -o a_%%d.png", clip), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("%s --threads 2 -o b_%%d.png", clip), 0, "%s", tc_stderr());
	for (int k = 0; k < 4; k++) {
		char fa[32], fb[32];
		snprintf(fa, sizeof fa, "a_%d.png", k), snprintf(fb, sizeof fb, "b_%d.png", k);
		cr_expect(tc_same_file(fa, fb), "frame %d differs between 1 and 2 threads", k);
	}
}

/*
 * No flicker: the bounds are the clip's, fixed from its first frame.  Half
 * the field holds boids at rest (every steering weight 0: nobody turns),
 * the other half a crowd spreading out, so that each frame's own bounds
 * would change; the still half's pixels stay the same in every frame.
 * And a flock with zero speeds draws the same frame twice.
 */
Test(view, density_pixels_nobody_moved_under_stay_the_same)
{
	enum { STILL = 3000, CROWD = 3000, N = STILL + CROWD };
	static double x[N], y[N], vx[N], vy[N];
	struct rng g;
	rng_seed(&g, 8);
	for (int i = 0; i < N; i++) {
		double a = M_PI * (rng_uniform(&g) - .5); /* the crowd: away to the right (+x) */
		if (i < STILL)
			x[i] = 100 + 1700 * rng_uniform(&g), y[i] = 100 + 1600 * rng_uniform(&g), vx[i] = vy[i] = 0;
		else
			x[i] = 2800 + 60 * rng_uniform(&g), y[i] = 900 + 60 * rng_uniform(&g), vx[i] = 4 * cos(a),
			vy[i] = 4 * sin(a);
	}
	write_init("in.csv", N, x, y, vx, vy);
	cr_assert_eq(tc_boids("-q --init in.csv --field 4000x1800 -s 400x180 --predators 0 --edges none "
	                      "--flock-weight 0 --align-weight 0 --avoid-weight 0 --min-speed 0 --draw density "
	                      "-f 12 -o d_%%d.png"), 0, "%s", tc_stderr());
	int w, h, w2, h2;
	uint32_t *first = decode("d_1.png", &w, &h), *last = decode("d_11.png", &w2, &h2);
	cr_assert(w == 400 && h == 180 && w2 == w && h2 == h);
	long differ = 0, crowd = 0;
	for (int j = 0; j < h; j++)
		for (int i = 0; i < w; i++) {
			size_t k = (size_t)j * (size_t)w + (size_t)i;
			if (i < 190) /* the still half, where no boid of the crowd goes */
				differ += first[k] != last[k];
			else
				crowd += first[k] != last[k];
		}
	cr_expect_eq(differ, 0, "%ld pixels of the still half changed", differ);
	cr_expect_gt(crowd, 100, "the crowd did not move (%ld pixels)", crowd);
	free(first);
	free(last);
	write_init("still.csv", STILL, x, y, vx, vy); /* zero speeds */
	cr_assert_eq(tc_boids("-q --init still.csv --field 4000x1800 -s 400x180 --predators 0 --flock-weight 0 "
	                      "--align-weight 0 --avoid-weight 0 --min-speed 0 --draw density -f 3 -o z_%%d.png"), 0, "%s",
	             tc_stderr());
	cr_expect(tc_same_file("z_0.png", "z_2.png"), "a flock at rest flickers");
}

/* The mean of how far the pixels of block [x0, x0 + 40) x [y0, y0 + 40) moved from bg toward `to`. */
static double block_tone(const uint32_t *px, int w, int x0, int y0, uint32_t bg, uint32_t to)
{
	double sum = 0;
	for (int j = y0; j < y0 + 40; j++)
		for (int i = x0; i < x0 + 40; i++)
			sum += moved(px[(size_t)j * (size_t)w + (size_t)i], bg, to);
	return sum / 1600;
}

/*
 * A zoom keeps the field's density: a lattice of boids, one every 25
 * field units, at rest and all heading +x, drawn by a clip that zooms from
 * a window 12,000 units wide to one 10,000 wide (the boids smoothed in
 * both), with the bounds fixed: the middle of the lattice has the same
 * tone in both frames (the same boids a field area), where a pixel of the
 * second holds 1/1.44 of the boids of one of the first.
 */
Test(view, a_zoom_keeps_the_fields_density)
{
	enum { NX = 240, NY = 140, N = NX * NY };
	static double x[N], y[N], vx[N], vy[N];
	for (int i = 0; i < N; i++)
		x[i] = 20000 + 25 * (i % NX - NX / 2) + 3.1, y[i] = 11250 + 25 * (i / NX - NY / 2) + 7.3, vx[i] = 1, vy[i] = 0;
	write_init("lattice.csv", N, x, y, vx, vy);
	cr_assert_eq(tc_boids("-q --init lattice.csv --field 40000x22500 -s 640x360 --predators 0 --flock-weight 0 "
	                      "--align-weight 0 --avoid-weight 0 --draw density --density-range 0.02,2 "
	                      "--view 20000,11250,12000 --view-end 20000,11250,10000 -f 2 -o z_%%d.png"), 0, "%s",
	             tc_stderr());
	int w, h, w2, h2;
	uint32_t *a = decode("z_0.png", &w, &h), *b = decode("z_1.png", &w2, &h2);
	cr_assert(w == 640 && h == 360 && w2 == w && h2 == h);
	struct config c;
	parse(&c, "");
	uint32_t hue = colormap_heading(0);
	double ta = block_tone(a, w, 300, 160, c.render.background, hue), tb = block_tone(b, w, 300, 160, c.render.background, hue);
	cr_expect(ta > .3 && ta < .95, "the lattice's tone %.3f: not within the bounds", ta);
	cr_expect(fabs(ta - tb) < .01, "the lattice's tone went from %.3f to %.3f through the zoom", ta, tb);
	free(a);
	free(b);
	cli_release(&c);
}

/*
 * The density look zoomed in is darts: where every boid spans 3 pixels or
 * more it draws what --draw auto --color-by heading draws, byte for byte
 * (its hue, the heading, on darts); zoomed out, an image of no outline.
 */
Test(view, the_density_look_zoomed_in_is_darts_by_heading)
{
	const char *clip = "-q -n 3000 --field 6000x3400 -s 320x180 -f 2 --warmup 3";
	cr_assert_eq(tc_boids("%s --view 3000,1700,300 --draw density -o d_%%d.png", clip), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("%s --view 3000,1700,300 --color-by heading -o a_%%d.png", clip), 0, "%s", tc_stderr());
	cr_expect(tc_same_file("d_1.png", "a_1.png"), "zoomed in, density is not auto's darts by heading");
	cr_assert_eq(tc_boids("%s --draw density -o far_%%d.png", clip), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("%s --draw points --color-by heading -o pts_%%d.png", clip), 0, "%s", tc_stderr());
	cr_expect(!tc_same_file("far_1.png", "pts_1.png"), "zoomed out, density is points");
}

/* ---- zoom and follow -------------------------------------------------- */

/*
 * --view to --view-end: the first frame is --view's window, the last
 * --view-end's; the width at time t is w0^(1-s) w1^s with s the
 * smoothstep 3t^2 - 2t^3 (the geometric mean half way); and the field
 * point the two windows show at one place on the picture stays there in
 * every frame.  One width: a pan by s.
 */
Test(view, the_zoom_eases_on_the_log_of_the_width_about_its_fixed_point)
{
	struct view_setup s = { .start = { 7000, 4000, 60000 }, .end = { 3100, 2200, 300 }, .frames = 61,
	                        .aspect = 9 / 16.0 };
	const double whole[4] = { 0, 0, 0, 1 };
	double first[4], last[4], mid[4];
	view_at(&s, 0, whole, first);
	view_at(&s, 60, whole, last);
	view_at(&s, 30, whole, mid);
	cr_expect(fabs(first[0] - 7000) < 1e-6 && fabs(first[1] - 4000) < 1e-6 && fabs(first[3] - 60000) < 1e-6);
	cr_expect(fabs(last[0] - 3100) < 1e-6 && fabs(last[1] - 2200) < 1e-6 && fabs(last[3] - 300) < 1e-9);
	cr_expect(fabs(mid[3] - sqrt(60000.0 * 300)) < 1e-6, "half way: %g", mid[3]);
	/* the fixed point F: where it lands, (F - c) / w, is the same in both windows */
	double f[2];
	for (int a = 0; a < 2; a++)
		f[a] = (s.end[a] * s.start[2] - s.start[a] * s.end[2]) / (s.start[2] - s.end[2]);
	for (long k = 0; k < 61; k++) {
		double at[4], t = (double)k / 60, e = t * t * (3 - 2 * t);
		view_at(&s, k, whole, at);
		cr_expect(fabs(at[3] - 60000 * pow(300 / 60000.0, e)) < 1e-9 * at[3], "frame %ld: width %g", k, at[3]);
		for (int a = 0; a < 2; a++)
			cr_expect(fabs((f[a] - at[a]) / at[3] - (f[a] - s.start[a]) / s.start[2]) < 1e-9,
			          "frame %ld: the fixed point moved on the picture", k);
	}
	struct view_setup pan = { .start = { 100, 100, 500 }, .end = { 900, 300, 500 }, .frames = 11 };
	view_at(&pan, 5, whole, mid);
	cr_expect(fabs(mid[0] - 500) < 1e-9 && fabs(mid[1] - 200) < 1e-9 && mid[3] == 500, "a pan half way: %g,%g",
	          mid[0], mid[1]);
	/* no --view: the whole field is the first window */
	struct view_setup in = { .end = { 50, 60, 10 }, .frames = 2 };
	const double all[4] = { 320, 180, 0, 640 };
	view_at(&in, 0, all, first);
	cr_expect(first[0] == 320 && first[1] == 180 && first[3] == 640);
}

/*
 * --follow's pace: a quarter of the way to the cluster each frame, never
 * more than a tenth of the window's width; on a torus the short way round;
 * in 3D without a window the width comes to frame the cluster (its
 * diameter 95% of the picture's shorter side), a tenth at most a frame.
 */
Test(view, the_follow_glides_at_most_a_tenth_of_the_width_a_frame)
{
	struct view_setup s = { .start = { 100, 100, 400 }, .follow = 1, .frames = 100, .aspect = .5625,
	                        .field = { 5000, 5000, 0 } };
	struct view_follow f = { 0 };
	const double whole[4] = { 2500, 2500, 0, 5000 }, far[3] = { 3000, 100, 0 };
	double at[4], before = 100;
	for (int k = 0; k < 40; k++) {
		view_at(&s, k, whole, at);
		view_follow(&f, &s, far, 10, at);
		double step = at[0] - before, want = k == 0 ? 0 : fmin(.1 * 400, .25 * (3000 - before));
		cr_expect(fabs(step - want) < 1e-9 && fabs(at[1] - 100) < 1e-9, "frame %d: moved %g, not %g", k, step, want);
		before = at[0];
	}
	s.wrap = 1; /* 4900 is 200 away round the torus, to the left: a tenth of the width, 40 */
	struct view_follow g = { 0 };
	const double round[3] = { 4900, 100, 0 };
	view_at(&s, 0, whole, at);
	view_follow(&g, &s, round, 10, at);
	view_at(&s, 1, whole, at);
	view_follow(&g, &s, round, 10, at);
	cr_expect(fabs(at[0] - 60) < 1e-9, "round the torus: at %g", at[0]);
	struct view_setup s3 = { .follow = 1, .frames = 100, .aspect = .5625, .three = 1 };
	struct view_follow h = { 0 };
	const double ball[3] = { 10, 20, 30 };
	const double whole3[4] = { 0, 0, 0, 9000 };
	view_at(&s3, 0, whole3, at);
	view_follow(&h, &s3, ball, 100, at);
	cr_expect(fabs(at[3] - 200 / (.95 * .5625)) < 1e-9 && at[2] == 30, "framed: %g", at[3]);
	view_at(&s3, 1, whole3, at);
	view_follow(&h, &s3, ball, 1000, at); /* the cluster grew ten times: a tenth wider at most */
	cr_expect(fabs(at[3] - 1.1 * 200 / (.95 * .5625)) < 1e-9, "then: %g", at[3]);
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Connected components by brute force: boids closer than r (the short way on a torus) linked. */
static void components(size_t n, const double *x, const double *y, const double *z, double r, const double *period,
                       size_t *root)
{
	for (size_t i = 0; i < n; i++)
		root[i] = i;
	for (int changed = 1; changed;) {
		changed = 0;
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++) {
				double d2 = 0, p[3] = { x[i] - x[j], y[i] - y[j], z ? z[i] - z[j] : 0 };
				for (int a = 0; a < 3; a++) {
					if (period)
						p[a] -= period[a] * round(p[a] / period[a]);
					d2 += p[a] * p[a];
				}
				if (d2 < r * r && root[j] < root[i])
					root[i] = root[j], changed = 1;
			}
	}
}

/*
 * The cluster --follow follows is the largest of the metrics' clusters:
 * against brute-force components, its centre (its members' mean; on a
 * torus their mean offset, the short way round, from one of them) and its
 * radius (95% of its members within it, to 1/1024 of the farthest's distance), in 2D and
 * 3D, open and wrapped (a cluster across the edge).
 */
Test(view, the_largest_cluster_is_the_brute_forces)
{
	enum { N = 400 };
	static double x[N], y[N], z[N], vx[N], vy[N], vz[N];
	struct rng g;
	rng_seed(&g, 21);
	for (int wrap = 0; wrap < 2; wrap++)
		for (int three = 0; three < 2; three++) {
			const double period[3] = { 1000, 800, 600 };
			for (int i = 0; i < N; i++) { /* a big clump across the x edge, a smaller one, strays */
				int which = i < 180 ? 0 : i < 300 ? 1 : 2;
				double c[3] = { which == 0 ? (wrap ? 990 : 500) : 200, which == 0 ? 400 : 600, 300 };
				double spread = which == 2 ? 1000 : 40;
				x[i] = c[0] + spread * (rng_uniform(&g) - .5), y[i] = c[1] + spread * (rng_uniform(&g) - .5);
				z[i] = c[2] + (which == 2 ? 600 : 40) * (rng_uniform(&g) - .5);
				if (wrap)
					x[i] -= period[0] * floor(x[i] / period[0]), y[i] -= period[1] * floor(y[i] / period[1]);
				vx[i] = vy[i] = vz[i] = 1;
			}
			size_t root[N], count[N] = { 0 }, best = 0;
			components(N, x, y, three ? z : NULL, 12, wrap ? period : NULL, root);
			for (int i = 0; i < N; i++)
				count[root[i]]++;
			for (int i = 0; i < N; i++)
				best = count[i] > count[best] ? (size_t)i : best;
			double mean[3] = { 0, 0, 0 }, far = 0;
			for (int i = 0; i < N; i++) /* the mean offset from the root, the short way */
				if (root[i] == best)
					for (int a = 0; a < 3; a++) {
						double p[3] = { x[i], y[i], z[i] }, q[3] = { x[best], y[best], z[best] }, d = p[a] - q[a];
						if (wrap)
							d -= period[a] * round(d / period[a]);
						mean[a] += d / (double)count[best];
					}
			double centre[3] = { x[best] + mean[0], y[best] + mean[1], three ? z[best] + mean[2] : 0 }, dist[N];
			size_t m = 0;
			for (int i = 0; i < N; i++) {
				if (root[i] != best)
					continue;
				double d2 = 0, p[3] = { x[i] - centre[0], y[i] - centre[1], three ? z[i] - centre[2] : 0 };
				for (int a = 0; a < 3; a++) {
					if (wrap)
						p[a] -= period[a] * round(p[a] / period[a]);
					d2 += p[a] * p[a];
				}
				dist[m++] = sqrt(d2);
				far = fmax(far, sqrt(d2));
			}
			qsort(dist, m, sizeof *dist, by_value);
			if (wrap)
				for (int a = 0; a < 3; a++)
					centre[a] -= period[a] * floor(centre[a] / period[a]);
			struct metrics_ctx ctx;
			metrics_ctx_init(&ctx);
			struct metrics_input in = { N, x, y, vx, vy, period[0], period[1], wrap, 12, three ? z : NULL,
			                            three ? vz : NULL, period[2] };
			double got[3], radius;
			cr_assert_eq(metrics_largest(&ctx, &in, got, &radius), 0);
			cr_expect(count[best] > 100, "wrap %d, 3D %d: the largest has %zu", wrap, three, count[best]);
			for (int a = 0; a < (three ? 3 : 2); a++)
				cr_expect(fabs(got[a] - centre[a]) < 1e-6, "wrap %d, 3D %d: axis %d at %.9g, brute force %.9g", wrap,
				          three, a, got[a], centre[a]);
			double want = dist[(size_t)ceil(.95 * (double)m) - 1]; /* the 95th percentile's member */
			cr_expect(radius >= want - 1e-9 && radius <= want + far / 1024 + 1e-9,
			          "wrap %d, 3D %d: radius %g, brute force %g (the farthest %g)", wrap, three, radius, want, far);
			metrics_ctx_release(&ctx);
		}
}

/* ---- through the command line ----------------------------------------- */

/*
 * One command zooms: a boid at rest at a known point is, in the first
 * frame, where --view's window puts it and, in the last, where
 * --view-end's does (the centroid of its pixels), and the frames between
 * zoom in steadily (it covers more every frame, from a point to a disc).
 */
Test(view, one_command_zooms_from_view_to_view_end)
{
	double x = 2400, y = 1300, vx = 0, vy = 0;
	write_init("one.csv", 1, &x, &y, &vx, &vy);
	cr_assert_eq(tc_boids("-q --init one.csv --field 4000x3000 -s 320x180 --predators 0 --shape circle --min-speed 0 "
	                      "--view 2000,1500,3600 --view-end 2390,1290,60 -f 6 -o z_%%d.png"), 0, "%s", tc_stderr());
	double last_mass = 0;
	for (int k = 0; k < 6; k++) {
		char name[32];
		snprintf(name, sizeof name, "z_%d.png", k);
		int w, h;
		uint32_t *px = decode(name, &w, &h);
		struct pic p = { NULL, px, w, h, w };
		double gx, gy, mass = centroid(&p, 0x003366, 0x90EE90, &gx, &gy);
		if (k == 0)
			cr_expect(fabs(gx - (160 + 400 * 320 / 3600.)) < .1 && fabs(gy - (90 - 200 * 320 / 3600.)) < .1,
			          "frame 0: at (%g, %g)", gx, gy);
		if (k == 5)
			cr_expect(fabs(gx - (160 + 10 * 320 / 60.)) < .1 && fabs(gy - (90 + 10 * 320 / 60.)) < .1,
			          "frame 5: at (%g, %g)", gx, gy);
		cr_expect_geq(mass, last_mass - .01, "frame %d: the boid covers %g pixels, %g before", k, mass, last_mass);
		last_mass = mass;
		free(px);
	}
}

/*
 * --follow: two clumps at rest and a window off the bigger one's centre;
 * the window glides toward it (not the smaller one), at most a tenth of
 * its width a frame, and ends with it at the picture's centre.
 */
Test(view, follow_brings_the_largest_flock_to_the_centre)
{
	enum { BIG = 60, SMALL = 25, N = BIG + SMALL };
	double x[N], y[N], vx[N] = { 0 }, vy[N] = { 0 };
	struct rng g;
	rng_seed(&g, 4);
	for (int i = 0; i < N; i++) {
		double a = 2 * M_PI * rng_uniform(&g), r = 25 * sqrt(rng_uniform(&g));
		x[i] = (i < BIG ? 3000 : 900) + r * cos(a), y[i] = (i < BIG ? 1800 : 500) + r * sin(a);
	}
	write_init("two.csv", N, x, y, vx, vy);
	double mx = 0, my = 0; /* the bigger clump's centre: its boids' mean */
	for (int i = 0; i < BIG; i++)
		mx += x[i] / BIG, my += y[i] / BIG;
	/* points: their pixels' centroid is their positions' mean (no disc saturates where they overlap) */
	cr_assert_eq(tc_boids("-q --init two.csv --field 4000x3000 -s 320x180 --predators 0 --min-speed 0 --draw points "
	                      "--flock-weight 0 --align-weight 0 --avoid-weight 0 --view 2700,1700,800 --follow "
	                      "-f 30 -o f_%%d.png"), 0, "%s", tc_stderr());
	double cx = 2700, cy = 1700; /* where the window's centre is, from where the clump is drawn */
	for (int k = 0; k < 30; k++) {
		char name[32];
		snprintf(name, sizeof name, "f_%d.png", k);
		int w, h;
		uint32_t *px = decode(name, &w, &h);
		struct pic p = { NULL, px, w, h, w };
		double gx, gy;
		cr_assert_gt(centroid(&p, 0x003366, 0x90EE90, &gx, &gy), 10, "frame %d: the clump is not in view", k);
		/* the clump's centre is drawn at 160 + (mx - cx) 320 / 800: solve for the window's */
		double nx = mx - (gx - 160) * 800 / 320, ny = my - (gy - 90) * 800 / 320;
		cr_expect(hypot(nx - cx, ny - cy) <= 80 + 2, "frame %d: the window moved %g", k, hypot(nx - cx, ny - cy));
		cx = nx, cy = ny;
		if (k == 29)
			cr_expect(fabs(gx - 160) < .2 && fabs(gy - 90) < .2, "the clump at (%g, %g), not the centre", gx, gy);
		free(px);
	}
}
