/*
 * bench_sim — simulation and drawing figures for scripts/bench.sh.
 *
 * Prints milliseconds per step for 1k, 10k and 100k boids at the default
 * density (100 boids on 640x360; the field grows with N), both update
 * modes, 1 and 2 threads, the grid's speed-up over brute force, and
 * microseconds per boid drawn at 1920x1080.  Each figure is the median of
 * several timed runs, so a noisy neighbour moves it less.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"
#include "progress.h"
#include "render.h"
#include "sim.h"
#include "video.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Median over `reps` runs of the mean ms per step over `steps` steps. */
static double ms_per_step(size_t n, enum sim_update mode, enum sim_search search,
                          int threads, int steps, int reps)
{
	struct sim_params p;
	struct sim s;
	struct pool *pool = pool_new(threads);
	double scale = sqrt((double)n / 100.0), t[16];

	sim_params_default(&p, 640 * scale, 360 * scale);
	p.update = mode;
	p.search = search;
	if (sim_init(&s, &p, n, pool) != 0)
		exit(1);
	sim_randomize(&s, 1);
	for (int i = 0; i < 20; i++) /* let the flock form a little */
		sim_step(&s);
	for (int r = 0; r < reps; r++) {
		double t0 = progress_now();
		for (int i = 0; i < steps; i++)
			sim_step(&s);
		t[r] = (progress_now() - t0) * 1e3 / steps;
	}
	qsort(t, (size_t)reps, sizeof(double), cmp_double);
	sim_release(&s);
	pool_free(pool);
	return t[reps / 2];
}

static double us_per_boid_drawn(size_t n)
{
	struct sim_params p;
	struct sim s;
	struct render_params rp;
	struct renderer *r;
	double t[5];

	sim_params_default(&p, 1920, 1080);
	sim_init(&s, &p, n, NULL);
	sim_randomize(&s, 1);
	render_params_default(&rp, 1920, 1080);
	if (render_new(&r, &rp) != 0)
		exit(1);
	struct render_view v = { .n = n, .predators = 3, .x = s.x, .y = s.y, .vx = s.vx, .vy = s.vy };
	for (int k = 0; k < 5; k++) {
		double t0 = progress_now();
		for (int i = 0; i < 5; i++)
			render_frame(r, &v);
		t[k] = (progress_now() - t0) * 1e6 / 5 / (double)n;
	}
	qsort(t, 5, sizeof(double), cmp_double);
	render_free(r);
	sim_release(&s);
	return t[2];
}

/* Per-frame cost of drawing and of converting for the encoder, 640x360 defaults. */
static void frame_costs(void)
{
	struct sim_params p;
	struct sim s;
	struct render_params rp;
	struct renderer *r;
	struct video *v;
	struct video_picture *pic;
	struct video_options o;
	char err[256];
	double td[5], tc[5];

	sim_params_default(&p, 640, 360);
	sim_init(&s, &p, 100, NULL);
	sim_randomize(&s, 1);
	render_params_default(&rp, 640, 360);
	render_new(&r, &rp);
	video_options_default(&o);
	if (video_open(&v, "/dev/null", "x.y4m", 640, 360, 30, &o, err, sizeof(err)) != 0 ||
	    video_picture_new(v, &pic) != 0) {
		fprintf(stderr, "bench: %s\n", err);
		exit(1);
	}
	struct render_view view = { .n = 100, .predators = 3, .x = s.x, .y = s.y, .vx = s.vx, .vy = s.vy };
	int stride;
	const unsigned char *px = render_pixels(r, &stride);
	for (int k = 0; k < 5; k++) {
		double t0 = progress_now();
		for (int i = 0; i < 100; i++) {
			sim_step(&s);
			render_frame(r, &view);
		}
		double t1 = progress_now();
		for (int i = 0; i < 100; i++)
			video_picture_fill(pic, px, stride);
		double t2 = progress_now();
		td[k] = (t1 - t0) * 10;
		tc[k] = (t2 - t1) * 10;
	}
	qsort(td, 5, sizeof(double), cmp_double);
	qsort(tc, 5, sizeof(double), cmp_double);
	printf("per frame at the defaults (640x360, 100 boids):\n");
	printf("  step + draw %.3f ms, convert to yuv420p %.3f ms\n", td[2], tc[2]);
	video_picture_free(pic);
	video_free(v);
	render_free(r);
	sim_release(&s);
}

int main(int argc, char **argv)
{
	int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
	static const size_t sizes[] = { 1000, 10000, 100000 };
	int reps = quick ? 3 : 5;

	printf("simulation, ms per step (median of %d), default density:\n", reps);
	printf("  %-8s %-12s %9s %9s\n", "boids", "mode", "1 thread", "2 threads");
	for (int k = 0; k < 3; k++) {
		size_t n = sizes[k];
		int steps = n >= 100000 ? 3 : n >= 10000 ? 20 : 100;
		double seq = ms_per_step(n, SIM_SEQUENTIAL, SIM_SEARCH_GRID, 1, steps, reps);
		double s1 = ms_per_step(n, SIM_SYNCHRONOUS, SIM_SEARCH_GRID, 1, steps, reps);
		double s2 = ms_per_step(n, SIM_SYNCHRONOUS, SIM_SEARCH_GRID, 2, steps, reps);
		printf("  %-8zu %-12s %9.3f %9s\n", n, "sequential", seq, "-");
		printf("  %-8zu %-12s %9.3f %9.3f   (x%.2f with 2 threads)\n", n, "synchronous", s1, s2, s1 / s2);
	}
	printf("grid speed-up over brute force (sequential, 1 thread):\n");
	for (int k = 0; k < 2; k++) {
		size_t n = sizes[k];
		int steps = n >= 10000 ? 1 : 10;
		double g = ms_per_step(n, SIM_SEQUENTIAL, SIM_SEARCH_GRID, 1, steps * 10, 3);
		double b = ms_per_step(n, SIM_SEQUENTIAL, SIM_SEARCH_BRUTE, 1, steps, 3);
		printf("  %-8zu brute %.3f ms / grid %.3f ms = x%.1f\n", n, b, g, b / g);
	}
	frame_costs();
	printf("drawing at 1920x1080, microseconds per boid:\n");
	printf("  10000 boids: %.3f us\n", us_per_boid_drawn(10000));
	return 0;
}
