/*
 * --field and --draw points: a field far larger than any picture (walls,
 * wrap, obstacles and the neighbour grid against brute force, with a few
 * boids in clumps spread over it); the field fitted into the picture;
 * --field absent or equal to -s changes no byte; and the points against a
 * rasteriser written here (each point's exact overlap with each pixel),
 * the same bytes on 1 and 2 threads.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "grid.h"
#include "model.h"
#include "render.h"
#include "rng.h"
#include "sim.h"

/* ---------------------------------------------------------------- the grid */

/*
 * n points in clumps of side 60 around k centres spread over a w x h field
 * (some centres on the edges), so that many pairs are close although the
 * field is nearly empty.
 */
static void clumps(double *x, double *y, size_t n, double w, double h, uint64_t seed)
{
	struct rng r;
	rng_seed(&r, seed);
	for (size_t i = 0; i < n; i++) {
		double k = (double)(i % 7);
		double cx = k == 0 ? 0 : k == 1 ? w : fmod(k * 0.377 * w, w);
		double cy = k == 2 ? 0 : k == 3 ? h : fmod(k * 0.291 * h, h);
		x[i] = cx + (rng_uniform(&r) - 0.5) * 60;
		y[i] = cy + (rng_uniform(&r) - 0.5) * 60;
	}
}

Test(field, the_grid_finds_every_neighbour_of_brute_force_on_a_huge_field_in_boids_memory)
{
	enum { N = 1400 };
	static double x[N], y[N];
	static const double sides[][2] = { { 200000, 150000 }, { 1e9, 1e9 }, { 1e9, 50 } };
	struct grid g;

	grid_init(&g);
	for (size_t s = 0; s < sizeof(sides) / sizeof(sides[0]); s++) {
		double w = sides[s][0], h = sides[s][1], radius = 25;
		clumps(x, y, N, w, h, 3 + s);
		cr_assert_eq(grid_build(&g, x, y, N, w, h, radius), 0);
		size_t cells = (size_t)g.nx * (size_t)g.ny;
		cr_assert_leq(cells, 4 * N + 64, "%gx%g: %zu cells for %d boids", w, h, cells, N);
		long pairs = 0;
		for (int i = 0; i < N; i++) {
			/* the grid's candidates around i, then brute force: every close pair among them */
			static unsigned char cand[N];
			memset(cand, 0, sizeof(cand));
			struct grid_runs runs;
			grid_runs_begin(&runs, &g, x[i], y[i], 0);
			for (uint32_t c0, c1; grid_runs_next(&runs, &c0, &c1);)
				for (uint32_t k = g.start[c0]; k < g.start[c1 + 1]; k++)
					cand[g.items[k]] = 1;
			for (int j = 0; j < N; j++)
				if (hypot(x[i] - x[j], y[i] - y[j]) < radius) {
					cr_assert(cand[j], "%gx%g: %d and %d are %g apart, not among the candidates",
					          w, h, i, j, hypot(x[i] - x[j], y[i] - y[j]));
					pairs++;
				}
		}
		cr_assert_gt(pairs, 4 * N, "%gx%g: the clumps make few pairs", w, h);
	}
	grid_release(&g);
}

/* ------------------------------------------------------------- the flock */

/* A flock of n on a w x h field, in clumps (some across the edges), moving. */
static void clumped_flock(struct sim *s, size_t n, double w, double h, unsigned edges,
                          enum sim_update u, enum sim_search search)
{
	struct sim_params p;
	static const struct sim_obstacle rock[1] = { { 0, 0, 40, 0 } };
	struct rng r;

	sim_params_default(&p, w, h);
	p.edges = edges;
	p.update = u;
	p.search = search;
	p.predators = 2;
	p.obstacles = rock; /* in the middle of a clump: the push and the wall */
	p.obstacles_n = 1;
	cr_assert_eq(sim_init(s, &p, n, NULL), 0);
	clumps(s->x, s->y, n, w, h, 7);
	rng_seed(&r, 8);
	for (size_t i = 0; i < n; i++) {
		s->vx[i] = (rng_uniform(&r) - 0.5) * 4;
		s->vy[i] = (rng_uniform(&r) - 0.5) * 4;
	}
}

Test(field, walls_wrap_and_obstacles_on_a_huge_field_equal_brute_force)
{
	static const unsigned edges[] = { SIM_BOUNCE, SIM_WRAP, SIM_BOUNCE | SIM_WRAP };
	static const double sides[][2] = { { 200000, 150000 }, { 3e7, 2e7 } };

	for (size_t e = 0; e < 3; e++)
		for (size_t f = 0; f < 2; f++)
			for (int u = 0; u < 2; u++) {
				struct sim g, b;
				enum sim_update mode = u ? SIM_SYNCHRONOUS : SIM_SEQUENTIAL;
				double w = sides[f][0], h = sides[f][1];
				clumped_flock(&g, 700, w, h, edges[e], mode, SIM_SEARCH_GRID);
				clumped_flock(&b, 700, w, h, edges[e], mode, SIM_SEARCH_BRUTE);
				int crossed = 0, walled = 0;
				for (int k = 0; k < 40; k++) {
					cr_assert_eq(sim_step(&g), 0);
					cr_assert_eq(sim_step(&b), 0);
					for (size_t i = 0; i < g.n; i++) {
						crossed += i % 7 == 0 && g.x[i] > w / 2;
						walled += g.x[i] < 0 || g.x[i] > w || g.y[i] < 0 || g.y[i] > h;
					}
				}
				/* summation orders differ (grid cells against index order): a small
				 * fraction of a pixel after 40 steps of a chaotic flock */
				cr_assert_leq(tc_sim_apart(&g, &b), 1e-6, "edges %u, %gx%g, %s: %g apart", edges[e], w, h,
				              u ? "synchronous" : "sequential", tc_sim_apart(&g, &b));
				if (edges[e] & SIM_WRAP) /* the clump on the left edge: some wrapped to the right */
					cr_assert_gt(crossed, 0, "edges %u: nobody wrapped", edges[e]);
				if (edges[e] == SIM_WRAP)
					cr_assert_eq(walled, 0, "wrap left boids outside the field");
				for (size_t i = 0; i < g.n; i++) /* nobody inside the rock */
					cr_assert_geq(hypot(g.x[i], g.y[i]), 40 - 1e-9, "boid %zu in the obstacle", i);
				sim_release(&g);
				sim_release(&b);
			}
}

/* ------------------------------------------------------------- the command */

/* The frame `frame` of a w x h y4m file's luma, malloc'ed; NULL if absent. */
static unsigned char *y4m_luma(const char *path, int w, int h, int frame)
{
	size_t len;
	char *s = tc_slurp(path, &len);
	if (!s)
		return NULL;
	char head[64];
	snprintf(head, sizeof(head), "YUV4MPEG2 W%d H%d ", w, h);
	cr_assert(strncmp(s, head, strlen(head)) == 0, "header %.40s, expected %s", s, head);
	char *p = strchr(s, '\n') + 1;
	size_t fsz = (size_t)w * (size_t)h * 3 / 2;
	for (int k = 0; k < frame; k++)
		p = strchr(p, '\n') + 1 + fsz;
	p = strchr(p, '\n') + 1; /* FRAME */
	unsigned char *y = malloc((size_t)w * (size_t)h);
	memcpy(y, p, (size_t)w * (size_t)h);
	free(s);
	return y;
}

Test(field, without_field_or_with_the_same_field_nothing_changes)
{
	tc_tmpdir();
	const char *run = "-q -n 60 -f 4 -s 320x180 --trajectory %s -o %s";
	char cmd[256];
	snprintf(cmd, sizeof(cmd), run, "a.csv", "a.y4m");
	cr_assert_eq(tc_boids("%s", cmd), 0, "%s", tc_stderr());
	snprintf(cmd, sizeof(cmd), run, "b.csv", "b.y4m");
	cr_assert_eq(tc_boids("%s --field 320x180", cmd), 0, "%s", tc_stderr());
	cr_assert(tc_same_file("a.csv", "b.csv"));
	cr_assert(tc_same_file("a.y4m", "b.y4m"));
	/* --field 160x90 drawn into 320x180 is the 160x90 field at --scale 2 */
	cr_assert_eq(tc_boids("-q -n 60 -f 3 -s 160x90 --scale 2 -o c.y4m"), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("-q -n 60 -f 3 -s 320x180 --field 160x90 -o d.y4m"), 0, "%s", tc_stderr());
	cr_assert(tc_same_file("c.y4m", "d.y4m"));
	tc_cleanup();
}

Test(field, a_huge_field_is_fitted_and_centred_in_the_picture)
{
	tc_tmpdir();
	/* one boid (no predators) at (30000, 10000) of a 40000 x 20000 field in a
	 * 320x180 picture: scale min(320/40000, 180/20000) = 0.008, the field
	 * 160 rows high, centred 10 rows down: the boid at pixel (240, 90) */
	FILE *f = fopen("start.csv", "w");
	fputs("frame,id,x,y,vx,vy\n0,0,30000,10000,0,0\n", f);
	fclose(f);
	cr_assert_eq(tc_boids("-q -f 1 --predators 0 --init start.csv --field 40000x20000 -s 320x180 "
	                      "--draw points --boid-color white -o p.y4m --trajectory t.csv"), 0, "%s", tc_stderr());
	unsigned char *y = y4m_luma("p.y4m", 320, 180, 0);
	cr_assert(y);
	int bg = y[0], bright = 0;
	for (int j = 0; j < 180; j++)
		for (int i = 0; i < 320; i++)
			if (y[j * 320 + i] > bg + 20) {
				cr_assert(abs(i - 240) <= 1 && abs(j - 90) <= 1, "lit pixel at (%d, %d)", i, j);
				bright++;
			}
	cr_assert_gt(bright, 0, "the boid is not drawn");
	free(y);
	/* the trajectory is the field's: beyond any picture's 16384 px */
	size_t len;
	char *t = tc_slurp("t.csv", &len);
	cr_assert(t && strstr(t, "0,0,30000,10000,"), "%s", t ? t : "(none)");
	free(t);
	tc_cleanup();
}

Test(field, print_config_keeps_field_size_and_scale_as_given)
{
	tc_tmpdir();
	const char *args = "--field 200000x100000 -s 640x480 --scale 0.5";
	cr_assert_eq(tc_boids("%s --print-config", args), 0, "%s", tc_stderr());
	char *first = strdup(tc_stdout());
	cr_assert(strstr(first, "\nfield = 200000x100000\n") && strstr(first, "\nsize = 640x480\n") &&
	          strstr(first, "\nscale = 0.5\n"), "%s", first);
	FILE *f = fopen("run.cfg", "w");
	fputs(first, f);
	fclose(f);
	cr_assert_eq(tc_boids("--config run.cfg --print-config"), 0, "%s", tc_stderr());
	cr_assert_str_eq(tc_stdout(), first);
	free(first);
	/* the picture is -s x --scale: 320x240 */
	cr_assert_eq(tc_boids("-q -n 50 -f 1 %s -o p.y4m", args), 0, "%s", tc_stderr());
	unsigned char *y = y4m_luma("p.y4m", 320, 240, 0);
	cr_assert(y);
	free(y);
	tc_cleanup();
}

Test(field, a_3d_field_is_framed_by_the_camera)
{
	tc_tmpdir();
	/* the box of --field WxHxD is the flock's: a trajectory's z runs that deep */
	cr_assert_eq(tc_boids("-q --dims 3 -n 200 -f 2 --field 50000x40000x30000 -s 320x180 --draw points "
	                      "--trajectory t.csv -o p.y4m"), 0, "%s", tc_stderr());
	size_t len;
	char *t = tc_slurp("t.csv", &len);
	cr_assert(t);
	double zmax = 0;
	for (char *line = strchr(t, '\n') + 1; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		double fr, id, x, yy, vx, vy, z; /* frame,id,x,y,vx,vy,z,vz */
		if (sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf,%lf", &fr, &id, &x, &yy, &vx, &vy, &z) == 7)
			zmax = fmax(zmax, z);
	}
	cr_assert(zmax > 20000 && zmax <= 30000, "deepest z %g", zmax);
	free(t);
	/* the camera frames the whole box: points lit across the picture's middle */
	unsigned char *y = y4m_luma("p.y4m", 320, 180, 1);
	cr_assert(y);
	int lit = 0, bg = y[0];
	for (int k = 0; k < 320 * 180; k++)
		lit += y[k] > bg + 10;
	cr_assert_gt(lit, 100, "%d pixels lit", lit);
	free(y);
	tc_cleanup();
}

/* ------------------------------------------------------------- the points */

#define BG 0x003366u
#define BOID 0x90EE90u
#define PRED 0xFF4000u

/* How much of pixel [i, i + 1] the segment [a, a + 1] covers. */
static double overlap(double a, int i)
{
	return fmax(0, fmin(a + 1, i + 1.0) - fmax(a, (double)i));
}

Test(field, points_are_each_a_pixel_of_area_as_an_independent_rasteriser_finds)
{
	enum { W = 40, H = 30, N = 9 };
	/* apart, on pixel corners and centres, overlapping, on and off the edges */
	static const double x[N] = { 5.5, 12.25, 16.1, 16.3, 16.2, -0.3, 31.8, 60, 25.3 };
	static const double y[N] = { 4.5, 7.75, 10.1, 10.6, 10.3, 15.2, 23.9, 5, 0.1 };
	static const double v0[N] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	struct render_params p;
	struct renderer *r;
	struct render_view v = { .n = N, .predators = 1, .x = x, .y = y, .vx = v0, .vy = v0 };
	/* the field at scale 1.25, moved by (0.25, -0.5): every position a fraction of a pixel */
	render_params_default(&p, W, H);
	p.draw = RENDER_DRAW_POINTS;
	p.scale = 1.25;
	p.offset[0] = 0.25, p.offset[1] = -0.5;
	p.predator_color = PRED;
	cr_assert_eq(render_new(&r, &p), 0);
	cr_assert_eq(render_frame(r, &v), 0);
	int stride;
	const unsigned char *px = render_pixels(r, &stride);

	/* the boids' coverage of every pixel, then the predator over it */
	static double cov[H][W], pred[H][W];
	memset(cov, 0, sizeof(cov));
	memset(pred, 0, sizeof(pred));
	for (int b = 0; b < N; b++) {
		double u = x[b] * p.scale + p.offset[0] - .5, w = y[b] * p.scale + p.offset[1] - .5;
		for (int j = 0; j < H; j++)
			for (int i = 0; i < W; i++)
				(b < 1 ? pred : cov)[j][i] += overlap(u, i) * overlap(w, j);
	}
	int lit = 0;
	for (int j = 0; j < H; j++)
		for (int i = 0; i < W; i++) {
			uint32_t got;
			memcpy(&got, px + (size_t)j * (size_t)stride + 4 * (size_t)i, 4);
			double a = fmin(1, cov[j][i]), t = pred[j][i];
			lit += a > 0;
			for (int sh = 16; sh >= 0; sh -= 8) {
				double bg = BG >> sh & 255, c = BOID >> sh & 255, pc = PRED >> sh & 255;
				double want = bg + (c - bg) * a;
				want += (pc - want) * t;
				double diff = fabs((double)(got >> sh & 255) - want);
				/* the shares are in 256ths of a pixel each way: within 2 levels */
				cr_assert_leq(diff, 2.0, "pixel (%d, %d), shift %d: %u, expected %.2f", i, j, sh,
				              got >> sh & 255, want);
			}
			cr_assert_eq(got >> 24, 0xffu);
		}
	cr_assert_gt(lit, 12);
	render_free(r);
}

Test(field, points_give_the_same_bytes_on_one_or_two_threads)
{
	tc_tmpdir();
	const char *scenes[] = {
		"-n 20000 --field 30000x20000 -s 320x180 --obstacle 15000,10000,2000",
		"-n 20000 --dims 3 --field 30000x20000x20000 -s 320x180 --update synchronous",
	};
	for (int s = 0; s < 2; s++) {
		cr_assert_eq(tc_boids("-q -y -f 4 --draw points %s --threads 1 -o a.y4m", scenes[s]), 0, "%s", tc_stderr());
		cr_assert_eq(tc_boids("-q -y -f 4 --draw points %s --threads 2 -o b.y4m", scenes[s]), 0, "%s", tc_stderr());
		cr_assert(tc_same_file("a.y4m", "b.y4m"), "%s", scenes[s]);
	}
	tc_cleanup();
}

/* The value of `key = ` in --print-config's output for ARGS, as a number. */
static double config_number(const char *args, const char *key)
{
	char want[64];
	cr_assert_eq(tc_boids("%s --print-config", args), 0, "%s", tc_stderr());
	snprintf(want, sizeof want, "\n%s = ", key);
	const char *at = strstr(tc_stdout(), want);
	cr_assert_not_null(at, "%s: no %s", args, key);
	return strtod(at + strlen(want), NULL);
}

/*
 * A crowd is announced: 10,000 boids in the default 640x360 field see some
 * 340 neighbours each (100x the default scene's 3.4), which one note says,
 * naming a --field of the picture's shape at which the expected neighbours
 * (computed here: (n - 1) pi r^2 / area, r = 50) are the default scene's;
 * with it, no note.  The bound is 4x: 400 boids are announced, 396 not;
 * -q says nothing, --progress json says it as a warning.  For every model,
 * its own default scene is not announced, ten times its boids are.
 */
Test(field, a_crowd_is_announced_with_the_field_that_spreads_it)
{
	tc_tmpdir();
	cr_assert_eq(tc_boids("-n 10000 --no-render -f 1"), 0);
	const char *e = tc_stderr(), *at = strstr(e, "boids: note: 10000 boids in a 640x360 field see about 341 ");
	cr_assert_not_null(at, "%s", e);
	const char *f = strstr(at, "--field ");
	double fw = 0, fh = 0;
	cr_assert(f && sscanf(f, "--field %lfx%lf gives the default density\n", &fw, &fh) == 2, "%s", e);
	cr_assert_lt(f, strchr(at, '\n'), "one line: %s", e);
	double base = 99 * M_PI * 50 * 50 / (640.0 * 360), there = 9999 * M_PI * 50 * 50 / (fw * fh);
	cr_assert(there <= base && there > 0.995 * base, "%gx%g: %g neighbours, not %g", fw, fh, there, base);
	cr_assert_lt(fabs(fw / fh - 640.0 / 360), 0.002, "%gx%g", fw, fh);
	cr_assert_eq(tc_boids("-n 10000 --field %.0fx%.0f --no-render -f 1", fw, fh), 0);
	cr_assert(!strstr(tc_stderr(), "note"), "%s", tc_stderr());

	cr_assert_eq(tc_boids("-n 400 --no-render -f 1"), 0);
	cr_assert(strstr(tc_stderr(), "boids: note: 400 boids in a 640x360 field"), "%s", tc_stderr());
	cr_assert_eq(tc_boids("-n 396 --no-render -f 1"), 0);
	cr_assert(!strstr(tc_stderr(), "note"), "%s", tc_stderr());
	cr_assert_eq(tc_boids("-n 10000 --no-render -f 1 -q"), 0);
	cr_assert_str_empty(tc_stderr());
	cr_assert_eq(tc_boids("-n 10000 --no-render -f 1 --progress json"), 0);
	cr_assert(strstr(tc_stderr(), "{\"event\":\"warning\",\"message\":\"10000 boids in a 640x360 field "),
	          "%s", tc_stderr());
	cr_assert(strstr(tc_stderr(), "--field 6432x3618 gives the default density\"}\n"), "%s", tc_stderr());
	/* in a box: spheres in a volume, the box grown on its three sides */
	cr_assert_eq(tc_boids("--dims 3 -n 1000 --no-render -f 1"), 0);
	double fd = 0;
	f = strstr(tc_stderr(), "boids: note: 1000 boids in a 640x360x360 field see about 6 neighbours each");
	cr_assert(f && (f = strstr(f, "--field ")) &&
	          sscanf(f, "--field %lfx%lfx%lf gives", &fw, &fh, &fd) == 3, "%s", tc_stderr());
	base = 99 * 4.0 / 3 * M_PI * pow(50, 3) / (640.0 * 360 * 360);
	there = 999 * 4.0 / 3 * M_PI * pow(50, 3) / (fw * fh * fd);
	cr_assert(there <= base && there > 0.99 * base, "%gx%gx%g: %g neighbours, not %g", fw, fh, fd, there, base);

	const struct boids_model *const *m = model_list();
	for (size_t i = 0; m[i]; i++) {
		char args[64];
		snprintf(args, sizeof args, "-m %s", m[i]->name);
		double n = config_number(args, "boids");
		cr_assert_eq(tc_boids("%s --no-render -f 1", args), 0, "%s", tc_stderr());
		cr_assert(!strstr(tc_stderr(), "note"), "%s: %s", args, tc_stderr());
		cr_assert_eq(tc_boids("%s -n %.0f --no-render -f 1", args, 10 * n), 0, "%s", tc_stderr());
		char want[128];
		snprintf(want, sizeof want, "x the density of %s's default scene (", m[i]->name);
		cr_assert(strstr(tc_stderr(), want), "%s: %s", args, tc_stderr());
	}
	tc_cleanup();
}
