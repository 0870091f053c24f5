/*
 * render, --draw fast: the covered area against the exact (Cairo) path and
 * against the outline's area by Green's theorem (computed here, never taken
 * from render.c); the same bytes run to run and across thread counts; what
 * is still drawn by Cairo in fast mode stays byte-identical.  Then the
 * bands both modes draw big pictures in: every byte as boid after boid,
 * and the exact path's as Cairo's own darts drawn here.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

#include "common.h"
#include "render.h"
#include "rng.h"
#include "straight.h"

#define BG 0x003366u
#define BOID 0x90EE90u

struct frame {
	struct renderer *r;
	const unsigned char *px;
	int stride, w, h;
};

static void frame_draw(struct frame *f, const struct render_params *p, const struct render_view *v)
{
	cr_assert_eq(render_new(&f->r, p), 0);
	cr_assert_eq(render_frame(f->r, v), 0);
	f->px = render_pixels(f->r, &f->stride);
	f->w = p->width;
	f->h = p->height;
}

static uint32_t px_at(const struct frame *f, int x, int y)
{
	uint32_t v;
	memcpy(&v, f->px + (size_t)y * (size_t)f->stride + 4 * (size_t)x, 4);
	return v & 0xFFFFFF;
}

/* How far a pixel is from BG towards BOID, least squares over r, g, b, in [0, 1]. */
static double cover(uint32_t c)
{
	double num = 0, den = 0;
	for (int k = 0; k < 3; k++) {
		double b = (double)(BG >> (16 - 8 * k) & 255), d = (double)(BOID >> (16 - 8 * k) & 255) - b;
		num += ((double)(c >> (16 - 8 * k) & 255) - b) * d;
		den += d * d;
	}
	return fmin(1, fmax(0, num / den));
}

/*
 * Intersection over union of the covered areas of two frames: weighted
 * (sum of min coverage / sum of max coverage) and of the pixels at least
 * half covered.
 */
static void iou(const struct frame *a, const struct frame *b, double *weighted, double *half)
{
	double mn = 0, mx = 0;
	long both = 0, either = 0;
	for (int y = 0; y < a->h; y++)
		for (int x = 0; x < a->w; x++) {
			double ca = cover(px_at(a, x, y)), cb = cover(px_at(b, x, y));
			mn += fmin(ca, cb);
			mx += fmax(ca, cb);
			both += ca >= .5 && cb >= .5;
			either += ca >= .5 || cb >= .5;
		}
	*weighted = mn / mx;
	*half = (double)both / (double)either;
}

/* n boids at seeded random places and headings on a w x h field. */
struct flock {
	double *x, *y, *vx, *vy;
	size_t n;
};

static struct flock flock_make(size_t n, double w, double h, uint64_t seed)
{
	struct flock f = { malloc(4 * n * sizeof(double)), NULL, NULL, NULL, n };
	struct rng r;
	cr_assert_not_null(f.x);
	f.y = f.x + n, f.vx = f.x + 2 * n, f.vy = f.x + 3 * n;
	rng_seed(&r, seed);
	for (size_t i = 0; i < n; i++) {
		double a = 2 * M_PI * rng_uniform(&r);
		f.x[i] = w * rng_uniform(&r);
		f.y[i] = h * rng_uniform(&r);
		f.vx[i] = 2 * cos(a);
		f.vy[i] = 2 * sin(a);
	}
	return f;
}

static struct render_view view_of(const struct flock *f, size_t predators)
{
	struct render_view v = { .n = f->n, .predators = predators,
	                         .x = f->x, .y = f->y, .vx = f->vx, .vy = f->vy };
	return v;
}

/* ---- the article's outline, as in test_render.c: Green's theorem ---- */

static const double article[5][2] = { { 0, 0 }, { -5, -1 }, { 0, 10 }, { 5, -1 }, { 0, 0 } };

static double spline_area(const double pts[5][2], int first, int last)
{
	double a = 0;
	const int steps = 4000;
	for (int i = first; i <= last; i++) {
		int n = 5, j = (i + 1) % n;
		double c[4][2], p0[2] = { 0, 0 };
		for (int k = 0; k < 2; k++) {
			c[0][k] = pts[i][k];
			c[1][k] = pts[i][k] + (pts[j][k] - pts[(i + n - 1) % n][k]) / 6;
			c[2][k] = pts[j][k] - (pts[(j + 1) % n][k] - pts[i][k]) / 6;
			c[3][k] = pts[j][k];
		}
		for (int s = 0; s <= steps; s++) {
			double t = (double)s / steps, u = 1 - t, p[2];
			double w[4] = { u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t };
			for (int k = 0; k < 2; k++)
				p[k] = w[0] * c[0][k] + w[1] * c[1][k] + w[2] * c[2][k] + w[3] * c[3][k];
			if (s > 0)
				a += (p0[0] * p[1] - p[0] * p0[1]) / 2;
			p0[0] = p[0];
			p0[1] = p[1];
		}
	}
	return a;
}

static void setup(void)
{
	tc_tmpdir();
}

TestSuite(render_fast, .init = setup, .fini = tc_cleanup);

Test(render_fast, refuses_an_unknown_mode)
{
	struct render_params p;
	struct renderer *r;

	render_params_default(&p, 64, 64);
	cr_expect_eq(p.draw, RENDER_DRAW_AUTO, "auto is the default");
	p.draw = (enum render_draw)7;
	cr_expect_eq(render_new(&r, &p), -EINVAL);
}

Test(render_fast, lone_boid_covers_the_splines_area)
{
	/* body minus the closing segment's loop (even-odd), at size 10: 100x the area */
	double want = 100 * fabs(spline_area(article, 0, 3) - spline_area(article, 4, 4));
	struct render_params p;

	render_params_default(&p, 200, 200);
	p.boid_size = 10;
	p.draw = RENDER_DRAW_FAST;
	for (int k = 0; k < 8; k++) {
		double a = k * .77, x = 100.3, y = 98.6, vx = cos(a), vy = sin(a), mass = 0;
		struct render_view v = { .n = 1, .x = &x, .y = &y, .vx = &vx, .vy = &vy };
		struct frame f;
		frame_draw(&f, &p, &v);
		for (int py = 0; py < f.h; py++)
			for (int px = 0; px < f.w; px++)
				mass += cover(px_at(&f, px, py));
		cr_expect_float_eq(mass, want, .005 * want, "heading %g: coverage %g, spline %g", a, mass, want);
		render_free(f.r);
	}
}

/* The published figure: a flock at the defaults' size and the same flock at 1080p (scale 3). */
Test(render_fast, covered_area_matches_exact_iou_99)
{
	static const struct {
		int w, h;
		double scale;
		size_t n;
	} c[] = { { 640, 360, 1, 300 }, { 1920, 1080, 3, 300 }, { 640, 360, 1, 2000 } };

	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		struct flock fl = flock_make(c[k].n, 640, 360, 17 + k);
		struct render_view v = view_of(&fl, 0);
		struct render_params p;
		struct frame ex, fa;
		double weighted, half;

		render_params_default(&p, c[k].w, c[k].h);
		p.scale = c[k].scale;
		frame_draw(&ex, &p, &v);
		p.draw = RENDER_DRAW_FAST;
		frame_draw(&fa, &p, &v);
		iou(&ex, &fa, &weighted, &half);
		cr_log_info("%dx%d, %zu boids: IoU %.4f weighted, %.4f half covered", c[k].w, c[k].h,
		            c[k].n, weighted, half);
		cr_expect_geq(weighted, .99, "%dx%d: weighted IoU %.4f", c[k].w, c[k].h, weighted);
		cr_expect_geq(half, .99, "%dx%d: IoU of half-covered pixels %.4f", c[k].w, c[k].h, half);
		cr_expect_lt(weighted, 1, "fast must be another fill, not Cairo's");
		render_free(ex.r);
		render_free(fa.r);
		free(fl.x);
	}
}

Test(render_fast, same_bytes_every_time)
{
	struct flock fl = flock_make(500, 640, 360, 5);
	struct render_view v = view_of(&fl, 3);
	struct render_params p;
	struct frame a, b;

	render_params_default(&p, 640, 360);
	p.draw = RENDER_DRAW_FAST;
	frame_draw(&a, &p, &v);
	frame_draw(&b, &p, &v);
	cr_expect_eq(memcmp(a.px, b.px, (size_t)a.stride * (size_t)a.h), 0);
	cr_assert_eq(render_frame(a.r, &v), 0); /* redrawn on the same surface */
	cr_expect_eq(memcmp(a.px, b.px, (size_t)a.stride * (size_t)a.h), 0);
	render_free(a.r);
	render_free(b.r);
	free(fl.x);
}

/* Stroked outlines and --antialias none are Cairo's in both modes: same bytes. */
Test(render_fast, cairo_draws_what_fast_does_not_cover)
{
	struct flock fl = flock_make(200, 640, 360, 9);
	struct render_view v = view_of(&fl, 2);
	struct render_params p;

	for (int k = 0; k < 2; k++) {
		struct frame ex, fa;
		render_params_default(&p, 640, 360);
		if (k == 0)
			p.paint = RENDER_STROKE, p.shape = RENDER_TRIANGLE;
		else
			p.antialias = RENDER_AA_NONE;
		frame_draw(&ex, &p, &v);
		p.draw = RENDER_DRAW_FAST;
		frame_draw(&fa, &p, &v);
		cr_expect_eq(memcmp(ex.px, fa.px, (size_t)ex.stride * (size_t)ex.h), 0, "case %d", k);
		render_free(ex.r);
		render_free(fa.r);
	}
	free(fl.x);
}

/*
 * Obstacles, tails drawn between boids, the target: Cairo still draws them,
 * interleaved with fast boids, so away from every boid the two modes agree
 * to the byte.
 */
Test(render_fast, decorations_unchanged_away_from_boids)
{
	struct flock fl = flock_make(60, 320, 200, 3);
	struct render_circle ob = { .x = 160, .y = 100, .r = 30 };
	size_t len = 6, n = fl.n;
	double *tx = malloc(2 * len * n * sizeof(double)), *ty = tx + len * n;
	struct render_params p;
	struct frame ex, fa;

	cr_assert_not_null(tx);
	for (size_t k = 0; k < len; k++)
		for (size_t i = 0; i < n; i++) {
			tx[k * n + i] = fl.x[i] - (double)(len - 1 - k) * 3 * fl.vx[i];
			ty[k * n + i] = fl.y[i] - (double)(len - 1 - k) * 3 * fl.vy[i];
		}
	struct render_view v = view_of(&fl, 2);
	v.trail_len = len, v.trail_x = tx, v.trail_y = ty;
	v.has_target = 1, v.target_x = 40, v.target_y = 40;
	render_params_default(&p, 320, 200);
	p.obstacles = &ob, p.obstacles_n = 1;
	p.trail_style = RENDER_TRAIL_OPENGL;
	frame_draw(&ex, &p, &v);
	p.draw = RENDER_DRAW_FAST;
	frame_draw(&fa, &p, &v);
	long far = 0, differ = 0, all = 0;
	for (int y = 0; y < ex.h; y++)
		for (int x = 0; x < ex.w; x++) {
			int near = 0;
			for (size_t i = 0; i < n && !near; i++)
				near = hypot(x + .5 - fl.x[i], y + .5 - fl.y[i]) < 13;
			if (!near) {
				far++;
				differ += px_at(&ex, x, y) != px_at(&fa, x, y);
			}
			all += px_at(&ex, x, y) != px_at(&fa, x, y);
		}
	cr_expect_gt(far, ex.w * ex.h / 2);
	cr_expect_eq(differ, 0, "%ld pixels away from the boids differ", differ);
	cr_expect_gt(all, 0, "the boids' edges do differ");
	render_free(ex.r);
	render_free(fa.r);
	free(tx);
	free(fl.x);
}

/* The whole program: the same clip at 1 and 2 threads, and run to run. */
Test(render_fast, same_clip_at_any_thread_count)
{
	cr_assert_eq(tc_boids("-q -n 200 -f 3 --draw fast --threads 1 -o a.y4m"), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("-q -n 200 -f 3 --draw fast --threads 2 -o b.y4m"), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("-q -n 200 -f 3 --draw fast --threads 2 -o c.y4m"), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("-q -n 200 -f 3 -o d.y4m"), 0, "%s", tc_stderr());
	cr_expect(tc_same_file("a.y4m", "b.y4m"), "--draw fast: 1 and 2 threads differ");
	cr_expect(tc_same_file("b.y4m", "c.y4m"), "--draw fast: two runs differ");
	cr_expect(!tc_same_file("a.y4m", "d.y4m"), "--draw fast changes no byte: not in effect");
}

/* ---- bands: pictures above 1 MB are drawn as masks band by band ---- */

/* n boids over the picture and a margin past every edge, so that some cross it. */
static struct flock flock_across(size_t n, double w, double h, uint64_t seed)
{
	struct flock f = flock_make(n, w + 40, h + 40, seed);
	for (size_t i = 0; i < n; i++)
		f.x[i] -= 20, f.y[i] -= 20;
	return f;
}

Test(render_fast, bands_keep_every_byte_in_both_modes)
{
	static const struct {
		int w, h;
		double scale, size, predator_size;
		enum render_grid grid;
		enum render_antialias aa;
		enum render_shape shape;
		enum render_background bg;
		int obstacle;
	} c[] = {
		{ 1920, 1080, 1, 1, 1, RENDER_GRID_CAIRO, RENDER_AA_GOOD, RENDER_CURVE, RENDER_BG_FLAT, 0 },
		{ 1280, 720, 2, 1.5, 1.5, RENDER_GRID_GDI, RENDER_AA_GOOD, RENDER_CURVE, RENDER_BG_NOISE, 0 },
		{ 1280, 720, 1, 1, 1, RENDER_GRID_CAIRO, RENDER_AA_FAST, RENDER_ARROW, RENDER_BG_FLAT, 1 },
		{ 1280, 720, 1, 2, 1, RENDER_GRID_CAIRO, RENDER_AA_BEST, RENDER_CIRCLE, RENDER_BG_FLAT, 0 },
		{ 800, 600, 1, 1, 1, RENDER_GRID_CAIRO, RENDER_AA_GOOD, RENDER_TRIANGLE, RENDER_BG_FLAT, 0 },
	};
	struct render_circle ob = { 300, 200, 60, 0 };

	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		struct flock fl = flock_across(3000, c[k].w / c[k].scale, c[k].h / c[k].scale, 40 + k);
		struct render_view v = view_of(&fl, 5);
		struct render_params p;
		render_params_default(&p, c[k].w, c[k].h);
		p.scale = c[k].scale, p.boid_size = c[k].size, p.predator_size = c[k].predator_size;
		p.grid = c[k].grid, p.antialias = c[k].aa, p.shape = c[k].shape, p.background_style = c[k].bg;
		if (c[k].obstacle)
			p.obstacles = &ob, p.obstacles_n = 1;
		for (int m = 0; m < 2; m++) {
			p.draw = m ? RENDER_DRAW_FAST : RENDER_DRAW_EXACT;
			long differ = straight_differs(&p, &v);
			cr_expect_eq(differ, 0, "case %zu, %s: %ld pixels differ from boid after boid", k,
			             m ? "fast" : "exact", differ);
		}
		free(fl.x);
	}
}

/* The outline's cubic segments as GDI+'s FillClosedCurve makes them (tension .5), drawn here. */
static void reference_dart(cairo_t *cr, const double pts[5][2])
{
	cairo_move_to(cr, pts[0][0], pts[0][1]);
	for (int i = 0; i < 5; i++) {
		int n = 5, j = (i + 1) % n;
		cairo_curve_to(cr, pts[i][0] + (pts[j][0] - pts[(i + n - 1) % n][0]) / 6,
		               pts[i][1] + (pts[j][1] - pts[(i + n - 1) % n][1]) / 6,
		               pts[j][0] - (pts[(j + 1) % n][0] - pts[i][0]) / 6,
		               pts[j][1] - (pts[(j + 1) % n][1] - pts[i][1]) / 6, pts[j][0], pts[j][1]);
	}
	cairo_close_path(cr);
}

/*
 * The design's promise, on a picture drawn in bands: the exact path's
 * pixels are Cairo filling every dart under its own translate and rotate,
 * boid after boid, drawn here with Cairo alone.
 */
static long differs_from_cairo_darts(const struct render_view *v, int w, int h);

Test(render_fast, exact_in_bands_is_cairo_dart_by_dart)
{
	struct flock fl = flock_across(4000, 1920, 1080, 77);
	struct render_view v = view_of(&fl, 4);
	long differ = differs_from_cairo_darts(&v, 1920, 1080);
	cr_expect_eq(differ, 0, "%ld pixels differ from Cairo's darts", differ);
	free(fl.x);
}

/*
 * A flock of more boids than the renderer plans at a time (65,536: it
 * places and bands them part after part), where boids of one part overlap
 * those of the next: exact is still Cairo's darts, every pixel, and fast
 * in bands still boid after boid.
 */
Test(render_fast, a_flock_drawn_in_parts_keeps_every_byte)
{
	struct flock fl = flock_across(70000, 1280, 720, 47);
	struct render_view v = view_of(&fl, 5);
	struct render_params p;

	long differ = differs_from_cairo_darts(&v, 1280, 720);
	cr_expect_eq(differ, 0, "exact: %ld pixels differ from Cairo's darts", differ);
	render_params_default(&p, 1280, 720);
	p.draw = RENDER_DRAW_FAST;
	differ = straight_differs(&p, &v);
	cr_expect_eq(differ, 0, "fast: %ld pixels differ from boid after boid", differ);
	free(fl.x);
}

/* The default picture of v (w x h) against Cairo filling every dart, drawn
 * here: how many pixels differ. */
static long differs_from_cairo_darts(const struct render_view *vp, int w, int h)
{
	struct render_view v = *vp;
	struct render_params p;
	struct frame ex;

	render_params_default(&p, w, h);
	frame_draw(&ex, &p, &v);
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
	cairo_t *cr = cairo_create(s);
	cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD);
	cairo_set_source_rgb(cr, 0, 0x33 / 255., 0x66 / 255.);
	cairo_paint(cr);
	for (size_t i = 0; i < v.n; i++) {
		if (i < v.predators)
			cairo_set_source_rgb(cr, 1, 1, 1);
		else
			cairo_set_source_rgb(cr, 0x90 / 255., 0xEE / 255., 0x90 / 255.);
		cairo_save(cr);
		cairo_translate(cr, v.x[i], v.y[i]);
		cairo_rotate(cr, render_heading(v.vx[i], v.vy[i]));
		reference_dart(cr, article);
		cairo_fill(cr);
		cairo_restore(cr);
	}
	cairo_surface_flush(s);
	struct frame ref = { NULL, cairo_image_surface_get_data(s), cairo_image_surface_get_stride(s), w, h };
	long differ = 0;
	for (int y = 0; y < ex.h; y++)
		for (int x = 0; x < ex.w; x++)
			differ += px_at(&ex, x, y) != px_at(&ref, x, y);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	render_free(ex.r);
	return differ;
}

/* Both modes on a picture drawn in bands: the same clip at 1 and 2 threads, run to run. */
Test(render_fast, banded_clip_at_any_thread_count)
{
	static const char *const mode[] = { "exact", "fast" };

	for (int m = 0; m < 2; m++) {
		const char *args = "-q -n 400 -s 1280x720 -f 3 -y";
		cr_assert_eq(tc_boids("%s --draw %s --threads 1 -o a.y4m", args, mode[m]), 0, "%s", tc_stderr());
		cr_assert_eq(tc_boids("%s --draw %s --threads 2 -o b.y4m", args, mode[m]), 0, "%s", tc_stderr());
		cr_assert_eq(tc_boids("%s --draw %s --threads 2 -o c.y4m", args, mode[m]), 0, "%s", tc_stderr());
		cr_expect(tc_same_file("a.y4m", "b.y4m"), "--draw %s: 1 and 2 threads differ", mode[m]);
		cr_expect(tc_same_file("b.y4m", "c.y4m"), "--draw %s: two runs differ", mode[m]);
	}
}

/*
 * render_needs_velocities() is what drawing reads: for every way of drawing
 * (exact, fast, points) and every colouring (role, heading, speed), the
 * flock drawn again with each velocity turned a quarter and slowed gives
 * another picture exactly when it says the velocities are needed, and the
 * same bytes when it says not (a frame's copy then leaves them out, and the
 * memory check counts no room for them).
 */
Test(render_fast, needs_velocities_says_what_drawing_reads)
{
	static const enum render_draw draws[] = { RENDER_DRAW_EXACT, RENDER_DRAW_FAST, RENDER_DRAW_POINTS };
	static const enum render_color_by colours[] = { RENDER_COLOR_ROLE, RENDER_COLOR_HEADING, RENDER_COLOR_SPEED };
	struct flock a = flock_make(200, 160, 90, 7), b = flock_make(200, 160, 90, 7);

	for (size_t i = 0; i < b.n; i++) { /* turned a quarter, at 0.6 of the speed */
		b.vx[i] = -0.6 * a.vy[i] * (1 + (double)(i % 3));
		b.vy[i] = 0.6 * a.vx[i];
	}
	for (size_t d = 0; d < 3; d++) {
		for (size_t k = 0; k < 3; k++) {
			struct render_params p;
			render_params_default(&p, 160, 90);
			p.draw = draws[d];
			p.color_by = colours[k];
			struct frame fa, fb;
			struct render_view va = view_of(&a, 0), vb = view_of(&b, 0);
			frame_draw(&fa, &p, &va);
			frame_draw(&fb, &p, &vb);
			int same = memcmp(fa.px, fb.px, (size_t)fa.stride * 90) == 0;
			cr_expect_eq(!same, render_needs_velocities(&p), "draw %d, colour %d: the picture %s with the "
			             "velocities, render_needs_velocities() says %d", (int)draws[d], (int)colours[k],
			             same ? "stays" : "changes", render_needs_velocities(&p));
			render_free(fa.r);
			render_free(fb.r);
		}
	}
	free(a.x);
	free(b.x);
}

/* render_watch(): counts its calls, and says stop from the call numbered *arg on (0: never). */
static int watch_calls;
static int stop_from(void *arg)
{
	int from = *(const int *)arg;
	return ++watch_calls >= from && from > 0;
}

/*
 * A frame of trails (both styles) asks its watch between strokes: a watch
 * that never stops leaves the frame's bytes as without one; one that stops
 * ends the frame with -EINTR, asked no more after its yes.
 */
Test(render_fast, a_watch_stops_a_frame_of_trails_between_strokes)
{
	struct flock fl = flock_make(60, 320, 200, 5);
	size_t len = 6, n = fl.n;
	double *tx = malloc(2 * len * n * sizeof(double)), *ty = tx + len * n;
	struct render_params p;

	cr_assert_not_null(tx);
	for (size_t k = 0; k < len; k++)
		for (size_t i = 0; i < n; i++) {
			tx[k * n + i] = fl.x[i] - (double)(len - 1 - k) * 3 * fl.vx[i];
			ty[k * n + i] = fl.y[i] - (double)(len - 1 - k) * 3 * fl.vy[i];
		}
	struct render_view v = view_of(&fl, 2);
	v.trail_len = len, v.trail_x = tx, v.trail_y = ty;
	render_params_default(&p, 320, 200);
	for (int style = 0; style < 2; style++) {
		p.trail_style = style ? RENDER_TRAIL_OPENGL : RENDER_TRAIL_FADE;
		struct frame plain, watched;
		int never = 0, second = 2;
		frame_draw(&plain, &p, &v);
		cr_assert_eq(render_new(&watched.r, &p), 0);
		render_watch(watched.r, stop_from, &never);
		watch_calls = 0;
		cr_assert_eq(render_frame(watched.r, &v), 0);
		cr_expect_geq(watch_calls, (int)len - 1, "style %d: the watch asked %d times", style, watch_calls);
		int stride;
		cr_expect_eq(memcmp(render_pixels(watched.r, &stride), plain.px, (size_t)plain.stride * 200), 0,
		             "style %d: a watch that never stops changed the frame", style);
		render_watch(watched.r, stop_from, &second);
		watch_calls = 0;
		cr_expect_eq(render_frame(watched.r, &v), -EINTR, "style %d: a stopped frame is not a frame", style);
		cr_expect_eq(watch_calls, 2, "style %d: asked %d times, not stopped at its yes", style, watch_calls);
		render_watch(watched.r, NULL, NULL);
		cr_expect_eq(render_frame(watched.r, &v), 0, "style %d: the next frame, unwatched, is whole", style);
		render_free(plain.r);
		render_free(watched.r);
	}
	free(tx);
	free(fl.x);
}
