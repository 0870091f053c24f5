/*
 * The opengl model (-m opengl): the OpenGL version of the C# program.
 * Its trajectory is re-advanced step by step by tests/refgl.c, a plain
 * transcription of that program written from its source, not from
 * src/models/opengl.c; the arrowhead's area and notch are checked against the
 * outline's own polygon area; the tails against the program's alpha
 * formula; and the run as a whole for its defaults and thread counts.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "pool.h"
#include "refgl.h"
#include "render.h"
#include "sim.h"
#include "model_names.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(opengl, .init = setup, .fini = teardown, .timeout = 120);

/* ---- a whole trajectory CSV: frame,id,x,y,vx,vy ---- */

struct traj {
	size_t n, frames;
	double *v; /* [frame][boid][4] */
};

static struct traj load(const char *path)
{
	struct traj t = { 0, 0, NULL };
	size_t cap = 0, rows = 0;
	char line[512];
	FILE *f = fopen(path, "r");
	cr_assert(f, "%s", path);
	cr_assert(fgets(line, sizeof line, f));
	cr_assert_str_eq(line, "frame,id,x,y,vx,vy\n");
	while (fgets(line, sizeof line, f)) {
		long fr;
		size_t id;
		double q[4];
		cr_assert_eq(sscanf(line, "%ld,%zu,%lf,%lf,%lf,%lf", &fr, &id, &q[0], &q[1], &q[2], &q[3]), 6);
		if (rows == cap) {
			cap = cap ? 2 * cap : 4096;
			t.v = realloc(t.v, cap * 4 * sizeof(double));
			cr_assert(t.v);
		}
		if (fr == 0)
			t.n = id + 1;
		memcpy(t.v + 4 * rows++, q, sizeof q);
	}
	fclose(f);
	cr_assert(t.n > 0);
	cr_assert_eq(rows % t.n, 0);
	t.frames = rows / t.n;
	return t;
}

static const double *at(const struct traj *t, size_t frame, size_t boid)
{
	return t->v + 4 * (frame * t->n + boid);
}

/*
 * Runs boids with ARGS, then: frame 0 is the reference's RandomizeBoids()
 * for the seed, and every frame is the reference's Advance() of the frame
 * before, to 1e-9 (velocities in the CSV are px/step = the program's x 2).
 */
static void check_against_reference(const char *args, uint64_t seed, size_t predators,
                                    int synchronous, double w, double h)
{
	cr_assert_eq(tc_boids("-q -m opengl --no-render --trajectory t.csv -y --seed %llu %s",
	                      (unsigned long long)seed, args), 0, "%s", tc_stderr());
	struct traj t = load("t.csv");
	struct refgl_field f = { w, h, 2, synchronous, t.n, calloc(t.n, sizeof(struct refgl_boid)) };
	cr_assert(f.Boids);

	refgl_randomize(&f, seed, predators);
	for (size_t i = 0; i < t.n; i++) {
		const double *q = at(&t, 0, i);
		struct refgl_boid *b = &f.Boids[i];
		cr_assert(q[0] == b->X && q[1] == b->Y && q[2] == b->Xvel * 2 && q[3] == b->Yvel * 2,
		          "frame 0 boid %zu is not the seed's draw", i);
	}
	double worst = 0;
	for (size_t k = 0; k + 1 < t.frames; k++) {
		for (size_t i = 0; i < t.n; i++) { /* re-sync from the CSV */
			const double *q = at(&t, k, i);
			struct refgl_boid *b = &f.Boids[i];
			b->X = q[0], b->Y = q[1], b->Xvel = q[2] / 2, b->Yvel = q[3] / 2;
		}
		refgl_advance(&f);
		for (size_t i = 0; i < t.n; i++) {
			const double *q = at(&t, k + 1, i);
			const struct refgl_boid *b = &f.Boids[i];
			double d = fmax(fmax(fabs(q[0] - b->X), fabs(q[1] - b->Y)),
			                fmax(fabs(q[2] - b->Xvel * 2), fabs(q[3] - b->Yvel * 2)));
			worst = fmax(worst, d);
			cr_assert(d <= 1e-9, "%s: frame %zu boid %zu off the reference by %g", args, k + 1, i, d);
		}
	}
	cr_assert_gt(t.frames, 10);
	free(f.Boids);
	free(t.v);
}

Test(opengl, the_reference_re_advances_the_default_trajectory)
{
	check_against_reference("-f 40", 5, 0, 0, 1157, 578);
}

Test(opengl, the_reference_re_advances_predators_and_walls)
{
	/* a small field: every boid near a wall, predators among them */
	check_against_reference("-f 40 -n 120 --predators 4 --size 300x200", 6, 4, 0, 300, 200);
}

Test(opengl, the_reference_re_advances_the_synchronous_mode)
{
	check_against_reference("-f 30 -n 150 --predators 2 --update synchronous --size 400x300",
	                        7, 2, 1, 400, 300);
}

Test(opengl, speeds_approach_each_boids_target_without_a_clamp)
{
	/* alone and far from walls, a boid's speed moves 10% of the way to its
	 * target each step: |v| - ts shrinks by 0.9 exactly */
	struct sim_params p;
	struct sim s;
	sim_params_default(&p, 1000, 1000);
	p.model = model_at(OPENGL);
	p.predators = 0;
	cr_assert_eq(sim_init(&s, &p, 1, NULL), 0);
	double *ts = s.state; /* the model's own state: each boid's target speed */
	cr_assert_eq(ts[0], 1.0, "the program's TargetSpeed before any draw");
	s.x[0] = 500, s.y[0] = 500, s.vx[0] = 3 * 2, s.vy[0] = 4 * 2; /* speed 5, px/step 10 */
	ts[0] = 1.25;
	double gap = 5 - 1.25;
	for (int t = 0; t < 5; t++) {
		cr_assert_eq(sim_step(&s), 0);
		gap *= .9;
		cr_assert_float_eq(hypot(s.vx[0], s.vy[0]) / 2, 1.25 + gap, 1e-12);
		cr_assert_float_eq(s.vy[0] / s.vx[0], 4.0 / 3, 1e-12, "heading kept");
	}
	sim_release(&s);
}

static void opengl_flock(struct sim *s, enum sim_update u, enum sim_search q, size_t n,
                         size_t predators, struct pool *pool)
{
	struct sim_params p;
	sim_params_default(&p, 1157, 578);
	p.model = model_at(OPENGL);
	p.update = u;
	p.search = q;
	p.predators = predators;
	cr_assert_eq(sim_init(s, &p, n, pool), 0);
	sim_randomize(s, 3);
}

Test(opengl, grid_matches_brute_force)
{
	for (int u = 0; u < 2; u++) {
		struct sim g, b;
		opengl_flock(&g, u ? SIM_SYNCHRONOUS : SIM_SEQUENTIAL, SIM_SEARCH_GRID, 250, 3, NULL);
		opengl_flock(&b, u ? SIM_SYNCHRONOUS : SIM_SEQUENTIAL, SIM_SEARCH_BRUTE, 250, 3, NULL);
		for (int t = 0; t < 150; t++) {
			size_t bytes = g.n * sizeof(double);
			memcpy(b.x, g.x, bytes), memcpy(b.y, g.y, bytes);
			memcpy(b.vx, g.vx, bytes), memcpy(b.vy, g.vy, bytes);
			sim_step(&g);
			sim_step(&b);
			double d = 0;
			for (size_t i = 0; i < g.n; i++)
				d = fmax(d, fmax(fmax(fabs(g.x[i] - b.x[i]), fabs(g.y[i] - b.y[i])),
				                 fmax(fabs(g.vx[i] - b.vx[i]), fabs(g.vy[i] - b.vy[i]))));
			cr_assert(d <= 1e-9, "mode %d step %d: grid and brute force differ by %g", u, t, d);
		}
		sim_release(&g);
		sim_release(&b);
	}
}

Test(opengl, synchronous_is_the_same_on_one_or_two_threads)
{
	struct pool *one = pool_new(1), *two = pool_new(2);
	struct sim a, b;
	cr_assert(one && two);
	opengl_flock(&a, SIM_SYNCHRONOUS, SIM_SEARCH_GRID, 3000, 5, one); /* above the parallel threshold */
	opengl_flock(&b, SIM_SYNCHRONOUS, SIM_SEARCH_GRID, 3000, 5, two);
	for (int t = 0; t < 10; t++) {
		sim_step(&a);
		sim_step(&b);
	}
	cr_assert_arr_eq(a.x, b.x, a.n * sizeof(double));
	cr_assert_arr_eq(a.vy, b.vy, a.n * sizeof(double));
	sim_release(&a);
	sim_release(&b);
	pool_free(one);
	pool_free(two);
}

Test(opengl, output_is_byte_identical_on_1_2_and_8_threads)
{
	const char *mode[] = { "sequential", "synchronous" };
	for (int m = 0; m < 2; m++) {
		char *first = NULL;
		size_t len0 = 0;
		for (int k = 0; k < 3; k++) {
			int threads = k == 0 ? 1 : k == 1 ? 2 : 8;
			cr_assert_eq(tc_boids("-q -m opengl -n 2500 -f 4 --predators 3 --update %s --threads %d "
			                      "--no-render -y --trajectory t%d.csv", mode[m], threads, threads), 0);
			char name[32];
			snprintf(name, sizeof name, "t%d.csv", threads);
			size_t len;
			char *data = tc_slurp(name, &len);
			cr_assert(data);
			if (!first) {
				first = data, len0 = len;
				continue;
			}
			cr_assert(len == len0 && memcmp(first, data, len) == 0,
			          "%s: %d threads wrote other numbers", mode[m], threads);
			free(data);
		}
		free(first);
	}
}

/* ---- the run's defaults ---- */

Test(opengl, defaults_are_the_programs_window_and_look)
{
	cr_assert_eq(tc_boids("-m opengl --print-config"), 0);
	const char *out = tc_stdout();
	const char *want[] = { "boids = 250\n", "size = 1157x578\n", "predators = 0\n",
	                       "shape = arrow\n", "boid-color = #ffffff\n", "trail = 20\n",
	                       "trail-style = opengl\n", "predator-color = #ffff00\n",
	                       "predator-size = 1.5\n", "gl-step = 2\n", "gl-avoid = own\n" };
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		cr_assert(strstr(out, want[i]), "missing '%s' in:\n%s", want[i], out);
	/* what the user sets still wins */
	cr_assert_eq(tc_boids("-m opengl -n 40 --size 300x200 --shape circle --print-config"), 0);
	cr_assert(strstr(tc_stdout(), "boids = 40\n") && strstr(tc_stdout(), "size = 300x200\n") &&
	          strstr(tc_stdout(), "shape = circle\n"));
	/* the harden defaults are untouched */
	cr_assert_eq(tc_boids("--print-config"), 0);
	cr_assert(strstr(tc_stdout(), "shape = curve\n") && strstr(tc_stdout(), "trail = 0\n") &&
	          strstr(tc_stdout(), "boids = 100\n"));
}

Test(opengl, odd_field_is_padded_for_video_and_kept_for_png)
{
	cr_assert_eq(tc_boids("-q -m opengl -f 1 -o f_%%d.png"), 0, "%s", tc_stderr());
	size_t len;
	char *png = tc_slurp("f_0.png", &len);
	cr_assert(png && len > 24);
	unsigned w = (unsigned)(unsigned char)png[16] << 24 | (unsigned)(unsigned char)png[17] << 16 |
	             (unsigned)(unsigned char)png[18] << 8 | (unsigned char)png[19];
	unsigned h = (unsigned)(unsigned char)png[20] << 24 | (unsigned)(unsigned char)png[21] << 16 |
	             (unsigned)(unsigned char)png[22] << 8 | (unsigned char)png[23];
	cr_assert(w == 1157 && h == 578, "PNG is %ux%u", w, h);
	free(png);
	/* yuv420p needs even sizes: one more column of background */
	cr_assert_eq(tc_boids("-q -m opengl -f 1 -o -"), 0, "%s", tc_stderr());
	cr_assert(strncmp(tc_stdout(), "YUV4MPEG2 W1158 H578 ", 21) == 0, "%.30s", tc_stdout());
	/* a size the user gives is refused as before */
	cr_assert_eq(tc_boids("-q -m opengl --size 1157x578 -f 1 -o -"), 2);
	cr_assert(strstr(tc_stderr(), "odd"), "%s", tc_stderr());
}

/* ---- the look ---- */

#define BG 0x003366u
#define WHITE 0xFFFFFFu

static uint32_t pixel(const struct renderer *r, int x, int y)
{
	int stride;
	const unsigned char *px = render_pixels(r, &stride);
	uint32_t v;
	memcpy(&v, px + (size_t)y * (size_t)stride + 4 * (size_t)x, 4);
	return v;
}

/* How far a pixel is from bg toward white, 0..1. */
static double cover(uint32_t c)
{
	double num = 0, den = 0;
	for (int k = 0; k < 3; k++) {
		double b = (double)(BG >> (16 - 8 * k) & 255), f = 255;
		num += ((double)(c >> (16 - 8 * k) & 255) - b) * (f - b);
		den += (f - b) * (f - b);
	}
	return num / den;
}

/* Shoelace area of the arrowhead as the program lists it. */
static double arrow_area(void)
{
	static const double pts[4][2] = { { 0, 0 }, { -5, -2 }, { 0, 8 }, { 5, -2 } };
	double a = 0;
	for (int i = 0; i < 4; i++) {
		int j = (i + 1) % 4;
		a += pts[i][0] * pts[j][1] - pts[j][0] * pts[i][1];
	}
	return fabs(a) / 2;
}

Test(opengl, arrowhead_has_the_polygons_area_and_an_empty_notch)
{
	struct render_params p;
	struct renderer *r;
	render_params_default(&p, 120, 120);
	p.shape = RENDER_ARROW;
	p.boid_color = WHITE;
	p.boid_size = 4;
	cr_assert_eq(render_new(&r, &p), 0);
	/* heading +y (down the picture): nose at (60, 92), back corners at y = 52 */
	double x = 60, y = 60, vx = 0, vy = 1;
	struct render_view v = { .n = 1, .x = &x, .y = &y, .vx = &vx, .vy = &vy };
	cr_assert_eq(render_frame(r, &v), 0);
	double mass = 0, my = 0;
	for (int j = 0; j < 120; j++)
		for (int i = 0; i < 120; i++) {
			double c = cover(pixel(r, i, j));
			mass += c;
			my += c * (j + .5);
		}
	double want = arrow_area() * 16;
	cr_assert_float_eq(arrow_area(), 40, 1e-12);
	cr_assert(fabs(mass - want) < .01 * want, "area %g, polygon %g", mass, want);
	cr_assert_gt(my / mass, 60, "the nose points along the velocity");
	/* the notch: between the back corners (y = 52) and the apex (60), on the axis */
	cr_assert_eq(pixel(r, 59, 55) & 0xFFFFFF, BG, "notch pixel is %06x", pixel(r, 59, 55) & 0xFFFFFF);
	cr_assert_eq(pixel(r, 60, 55) & 0xFFFFFF, BG);
	cr_assert_gt(cover(pixel(r, 59, 70)), .99, "inside the body");
	cr_assert_gt(cover(pixel(r, 43, 54)), .99, "back corner drawn");
	render_free(r);

	/* --shape circle: a disc of radius 4 */
	p.shape = RENDER_CIRCLE;
	p.boid_size = 1;
	cr_assert_eq(render_new(&r, &p), 0);
	cr_assert_eq(render_frame(r, &v), 0);
	mass = 0;
	for (int j = 0; j < 120; j++)
		for (int i = 0; i < 120; i++)
			mass += cover(pixel(r, i, j));
	cr_assert(fabs(mass - M_PI * 16) < .02 * M_PI * 16, "disc area %g", mass);
	render_free(r);
}

Test(opengl, tails_are_2px_flat_ended_and_fade_from_005_to_05)
{
	enum { N = 20 };
	double tx[N], ty[N];
	for (int k = 0; k < N; k++) /* a straight tail along y = 50, oldest at x = 10 */
		tx[k] = 10 + 5 * k, ty[k] = 50;
	struct render_params p;
	struct renderer *r;
	render_params_default(&p, 140, 100);
	p.shape = RENDER_CIRCLE;
	p.boid_size = .01;
	p.boid_color = WHITE;
	p.trail_style = RENDER_TRAIL_OPENGL;
	cr_assert_eq(render_new(&r, &p), 0);
	double x = tx[N - 1], y = 50, vx = 1, vy = 0;
	struct render_view v = { .n = 1, .x = &x, .y = &y, .vx = &vx, .vy = &vy,
	                         .trail_len = N, .trail_x = tx, .trail_y = ty };
	cr_assert_eq(render_frame(r, &v), 0);
	/* segment k (from position k-1) has alpha (byte)(255 (k+1)/20 / 2) */
	double oldest = floor(255.0 * 2 / 20 * .5) / 255, newest = floor(255.0 * .5) / 255;
	cr_assert_float_eq(cover(pixel(r, 12, 49)), oldest, .01, "oldest: %g", cover(pixel(r, 12, 49)));
	cr_assert_float_eq(cover(pixel(r, 12, 50)), oldest, .01);
	cr_assert_float_eq(cover(pixel(r, 102, 49)), newest, .01, "newest: %g", cover(pixel(r, 102, 49)));
	cr_assert_lt(cover(pixel(r, 12, 48)), .002, "2 px wide, not more");
	cr_assert_lt(cover(pixel(r, 12, 51)), .002);
	cr_assert_lt(cover(pixel(r, 9, 49)), .002, "flat end at the oldest position");
	cr_assert_gt(oldest, .04);
	cr_assert_lt(oldest, .06);
	render_free(r);
}

Test(opengl, ranges_overlay_draws_both_radii)
{
	struct render_params p;
	struct renderer *r;
	render_params_default(&p, 300, 300);
	p.show_ranges = 1;
	p.range_near = 20;
	p.range_far = 100;
	cr_assert_eq(render_new(&r, &p), 0);
	double x[2] = { 10, 150 }, y[2] = { 10, 150 }, vx[2] = { 1, 1 }, vy[2] = { 0, 0 };
	struct render_view v = { .n = 2, .x = x, .y = y, .vx = vx, .vy = vy };
	cr_assert_eq(render_frame(r, &v), 0);
	/* around the last boid: magenta at radius 20, light green at 100 */
	cr_assert_eq(pixel(r, 150, 150 - 20) & 0xFFFFFF, 0xFF00FFu, "%06x", pixel(r, 150, 130) & 0xFFFFFF);
	cr_assert_eq(pixel(r, 150, 150 - 100) & 0xFFFFFF, 0x90EE90u, "%06x", pixel(r, 150, 50) & 0xFFFFFF);
	cr_assert_eq(pixel(r, 150, 150 - 60) & 0xFFFFFF, BG);
	render_free(r);
}
