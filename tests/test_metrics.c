/*
 * metrics on hand-built flocks with known answers, and the grid passes
 * (nearest neighbour, clusters) against brute force on random and clumped
 * flocks, with and without wrap.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"
#include "metrics.h"
#include "rng.h"

struct flock {
	size_t n;
	double *x, *y, *vx, *vy;
};

static struct flock flock_new(size_t n)
{
	struct flock f = { n, calloc(n + 1, sizeof(double)), calloc(n + 1, sizeof(double)),
		           calloc(n + 1, sizeof(double)), calloc(n + 1, sizeof(double)) };
	cr_assert(f.x && f.y && f.vx && f.vy);
	return f;
}

static void flock_free(struct flock *f)
{
	free(f->x);
	free(f->y);
	free(f->vx);
	free(f->vy);
}

static struct metrics measure(const struct flock *f, double w, double h, int wrap, double r)
{
	struct metrics_ctx c;
	struct metrics m;
	struct metrics_input in = { f->n, f->x, f->y, f->vx, f->vy, w, h, wrap, r };
	metrics_ctx_init(&c);
	int err = metrics_compute(&c, &in, &m);
	cr_assert_eq(err, 0, "metrics_compute: %s", strerror(-err));
	metrics_ctx_release(&c);
	return m;
}

/* A ring of n boids of radius rad around (cx, cy), flying tangentially at speed v. */
static struct flock ring(size_t n, double cx, double cy, double rad, double v)
{
	struct flock f = flock_new(n);
	for (size_t i = 0; i < n; i++) {
		double a = 2 * M_PI * (double)i / (double)n;
		f.x[i] = cx + rad * cos(a);
		f.y[i] = cy + rad * sin(a);
		f.vx[i] = -v * sin(a);
		f.vy[i] = v * cos(a);
	}
	return f;
}

/* ------------------------------------------------------------ hand-built */

Test(metrics, aligned_flock_has_polarization_one)
{
	struct flock f = flock_new(50);
	struct rng r;
	rng_seed(&r, 3);
	for (size_t i = 0; i < f.n; i++) {
		f.x[i] = rng_uniform(&r) * 600;
		f.y[i] = rng_uniform(&r) * 300;
		double s = 0.5 + 4 * rng_uniform(&r); /* speeds differ, headings do not */
		f.vx[i] = 0.6 * s;
		f.vy[i] = -0.8 * s;
	}
	struct metrics m = measure(&f, 640, 360, 0, 50);
	cr_assert_float_eq(m.polarization, 1, 1e-12);
	/* opposite halves: no net heading */
	for (size_t i = 0; i < f.n; i += 2) {
		f.vx[i] = -f.vx[i];
		f.vy[i] = -f.vy[i];
	}
	m = measure(&f, 640, 360, 0, 50);
	cr_assert_float_eq(m.polarization, 0, 1e-12);
	flock_free(&f);
}

Test(metrics, rotating_ring_mills)
{
	struct flock f = ring(36, 300, 200, 50, 2);
	struct metrics m = measure(&f, 640, 360, 0, 20);
	cr_assert_float_eq(m.milling, 1, 1e-12);
	cr_assert_float_eq(m.polarization, 0, 1e-12);
	cr_assert_float_eq(m.mean_speed, 2, 1e-12);
	cr_assert_float_eq(m.gyration, 50, 1e-9);
	/* neighbours on the ring are a chord apart */
	cr_assert_float_eq(m.nn_distance, 2 * 50 * sin(M_PI / 36), 1e-9);
	cr_assert_eq(m.clusters, 1);
	/* the other way round mills just as much */
	for (size_t i = 0; i < f.n; i++) {
		f.vx[i] = -f.vx[i];
		f.vy[i] = -f.vy[i];
	}
	cr_assert_float_eq(measure(&f, 640, 360, 0, 20).milling, 1, 1e-12);
	/* flying outwards is not milling */
	for (size_t i = 0; i < f.n; i++) {
		f.vx[i] = f.x[i] - 300;
		f.vy[i] = f.y[i] - 200;
	}
	cr_assert_float_eq(measure(&f, 640, 360, 0, 20).milling, 0, 1e-12);
	flock_free(&f);
}

Test(metrics, two_distant_groups_are_two_clusters)
{
	struct flock f = flock_new(40);
	struct rng r;
	rng_seed(&r, 9);
	for (size_t i = 0; i < f.n; i++) { /* two 20x20 squares 300 px apart */
		f.x[i] = (i < 20 ? 100 : 400) + rng_uniform(&r) * 20;
		f.y[i] = 150 + rng_uniform(&r) * 20;
		f.vx[i] = 1;
	}
	cr_assert_eq(measure(&f, 640, 360, 0, 50).clusters, 2);
	cr_assert_eq(measure(&f, 640, 360, 0, 400).clusters, 1);
	flock_free(&f);
}

Test(metrics, links_are_strictly_closer_than_the_radius)
{
	struct flock f = flock_new(10); /* a line, 10 px apart */
	for (size_t i = 0; i < f.n; i++)
		f.x[i] = 10.0 * (double)i + 5;
	cr_assert_eq(measure(&f, 640, 360, 0, 10).clusters, 10);
	cr_assert_eq(measure(&f, 640, 360, 0, 10.000001).clusters, 1);
	cr_assert_float_eq(measure(&f, 640, 360, 0, 10).nn_distance, 10, 1e-12);
	flock_free(&f);
}

Test(metrics, nearest_neighbour_and_gyration_by_hand)
{
	/* (0,0) (3,0) (0,4): nearest 3, 3, 4; centroid (1, 4/3) */
	struct flock f = flock_new(3);
	f.x[1] = 3;
	f.y[2] = 4;
	struct metrics m = measure(&f, 640, 360, 0, 3.5);
	cr_assert_float_eq(m.nn_distance, 10.0 / 3, 1e-12);
	/* |r|^2: 1 + 16/9, 4 + 16/9, 1 + 64/9; mean 50/9 */
	cr_assert_float_eq(m.gyration, sqrt(50.0 / 9), 1e-12);
	cr_assert_eq(m.clusters, 2); /* (0,0)-(3,0) linked, (0,4) alone */
	cr_assert_float_eq(m.mean_speed, 0, 0);
	cr_assert_float_eq(m.polarization, 0, 0); /* nobody moves */
	flock_free(&f);
}

Test(metrics, minimum_image_with_wrap)
{
	/* two boids 2 px apart across the left/right edge, one across top/bottom */
	struct flock f = flock_new(4);
	f.x[0] = 1, f.y[0] = 100;
	f.x[1] = 639, f.y[1] = 100;
	f.x[2] = 300, f.y[2] = 359.5;
	f.x[3] = 300, f.y[3] = 0.5;
	f.n = 2;
	struct metrics m = measure(&f, 640, 360, 1, 5);
	cr_assert_float_eq(m.nn_distance, 2, 1e-12);
	cr_assert_eq(m.clusters, 1);
	cr_assert_float_eq(m.gyration, 1, 1e-12); /* centroid on the edge, not mid-field */
	m = measure(&f, 640, 360, 0, 5);
	cr_assert_float_eq(m.nn_distance, 638, 1e-12);
	cr_assert_eq(m.clusters, 2);
	cr_assert_float_eq(m.gyration, 319, 1e-12);

	f.n = 4; /* plus a pair 1 px apart across the top/bottom edge */
	f.x[2] = 300, f.y[2] = 359.5;
	m = measure(&f, 640, 360, 1, 5);
	cr_assert_float_eq(m.nn_distance, 1.5, 1e-12);
	cr_assert_eq(m.clusters, 2);
	/* positions outside the field are reduced onto the torus first */
	f.x[0] = 1 + 640, f.y[3] = 0.5 - 360;
	cr_assert_float_eq(measure(&f, 640, 360, 1, 5).nn_distance, 1.5, 1e-12);
	flock_free(&f);
}

Test(metrics, ring_across_a_wrapped_corner_looks_like_one_in_the_middle)
{
	struct flock mid = ring(24, 320, 180, 30, 1);
	struct flock corner = ring(24, 0, 0, 30, 1); /* a quarter in each corner */
	struct metrics a = measure(&mid, 640, 360, 1, 10);
	struct metrics b = measure(&corner, 640, 360, 1, 10);
	cr_assert_float_eq(b.gyration, 30, 1e-9);
	cr_assert_float_eq(b.milling, 1, 1e-9);
	cr_assert_float_eq(a.gyration, b.gyration, 1e-9);
	cr_assert_float_eq(a.nn_distance, b.nn_distance, 1e-9);
	cr_assert_eq(a.clusters, b.clusters);
	flock_free(&mid);
	flock_free(&corner);
}

Test(metrics, edge_cases_stay_finite)
{
	struct flock f = flock_new(5);
	struct metrics m;

	/* no boids */
	f.n = 0;
	m = measure(&f, 640, 360, 0, 50);
	cr_assert(m.polarization == 0 && m.milling == 0 && m.nn_distance == 0 && m.gyration == 0 &&
	          m.clusters == 0 && m.mean_speed == 0);
	/* one boid: nn distance 0 by definition */
	f.n = 1;
	f.x[0] = 10, f.y[0] = 20, f.vx[0] = 3, f.vy[0] = 4;
	m = measure(&f, 640, 360, 1, 50);
	cr_assert_float_eq(m.nn_distance, 0, 0);
	cr_assert_float_eq(m.gyration, 0, 0);
	cr_assert_float_eq(m.polarization, 1, 1e-15);
	cr_assert_float_eq(m.milling, 0, 0); /* at its own centroid */
	cr_assert_float_eq(m.mean_speed, 5, 1e-15);
	cr_assert_eq(m.clusters, 1);
	/* five at one point (0.1 does not add up exactly) */
	f.n = 5;
	for (size_t i = 0; i < 5; i++)
		f.x[i] = 0.1, f.y[i] = 0.7, f.vx[i] = (double)i - 2, f.vy[i] = 1;
	for (int wrap = 0; wrap < 2; wrap++) {
		m = measure(&f, 640, 360, wrap, 50);
		cr_assert_float_eq(m.nn_distance, 0, 0);
		cr_assert_float_eq(m.gyration, 0, 0);
		cr_assert_float_eq(m.milling, 0, 0);
		cr_assert_eq(m.clusters, 1);
	}
	/* boids at rest have no heading: polarization is over the others */
	for (size_t i = 0; i < 5; i++)
		f.x[i] = 10.0 * (double)i, f.vx[i] = 0, f.vy[i] = 0;
	f.vy[4] = -2;
	m = measure(&f, 640, 360, 0, 50);
	cr_assert_float_eq(m.polarization, 1, 0);
	cr_assert_float_eq(m.milling, 1, 1e-15); /* 20 px right of the centroid, flying down */
	cr_assert_float_eq(m.mean_speed, 0.4, 1e-15);
	flock_free(&f);
}

Test(metrics, rejects_bad_input)
{
	struct flock f = flock_new(3);
	struct metrics_ctx c;
	struct metrics m = { .clusters = 77 };
	struct metrics_input in = { f.n, f.x, f.y, f.vx, f.vy, 640, 360, 0, 50 };

	metrics_ctx_init(&c);
	f.vy[1] = NAN;
	cr_assert_eq(metrics_compute(&c, &in, &m), -EINVAL);
	f.vy[1] = 0;
	f.x[2] = INFINITY;
	cr_assert_eq(metrics_compute(&c, &in, &m), -EINVAL);
	f.x[2] = 0;
	in.cluster_radius = 0;
	cr_assert_eq(metrics_compute(&c, &in, &m), -EINVAL);
	in.cluster_radius = 50;
	in.wrap = 1;
	in.width = 0;
	cr_assert_eq(metrics_compute(&c, &in, &m), -EINVAL);
	cr_assert_eq(m.clusters, 77, "output written on failure");
	in.width = 640;
	cr_assert_eq(metrics_compute(&c, &in, &m), 0);
	metrics_ctx_release(&c);
	metrics_ctx_release(&c); /* twice is fine */
	flock_free(&f);
}

/* ------------------------------------------------------- vs brute force */

static double brute_sep(double d, int wrap, double period)
{
	return wrap ? d - period * round(d / period) : d;
}

static double brute_d2(const struct flock *f, size_t i, size_t j, int wrap, double w, double h)
{
	double dx = brute_sep(f->x[i] - f->x[j], wrap, w);
	double dy = brute_sep(f->y[i] - f->y[j], wrap, h);
	return dx * dx + dy * dy;
}

static double brute_nn(const struct flock *f, int wrap, double w, double h)
{
	double sum = 0;
	for (size_t i = 0; i < f->n; i++) {
		double best = INFINITY;
		for (size_t j = 0; j < f->n; j++)
			if (j != i)
				best = fmin(best, brute_d2(f, i, j, wrap, w, h));
		sum += sqrt(best);
	}
	return sum / (double)f->n;
}

/* Connected components by depth-first search over every pair. */
static long brute_clusters(const struct flock *f, int wrap, double w, double h, double r)
{
	int *seen = calloc(f->n, sizeof(int));
	size_t *stack = malloc(f->n * sizeof(size_t));
	long groups = 0;
	for (size_t s = 0; s < f->n; s++) {
		if (seen[s])
			continue;
		groups++;
		size_t top = 0;
		stack[top++] = s;
		seen[s] = 1;
		while (top) {
			size_t i = stack[--top];
			for (size_t j = 0; j < f->n; j++)
				if (!seen[j] && brute_d2(f, i, j, wrap, w, h) < r * r) {
					seen[j] = 1;
					stack[top++] = j;
				}
		}
	}
	free(seen);
	free(stack);
	return groups;
}

/*
 * Random boids, half of them in five clumps of side `side` (some straddling
 * the edges), the others anywhere including just outside the field.
 */
static struct flock clumped(size_t n, double w, double h, double side, uint64_t seed)
{
	struct flock f = flock_new(n);
	struct rng r;
	rng_seed(&r, seed);
	for (size_t i = 0; i < n; i++) {
		if (i % 2) {
			f.x[i] = rng_uniform(&r) * (w + 20) - 10;
			f.y[i] = rng_uniform(&r) * (h + 20) - 10;
		} else { /* clump k of 5 around a corner-straddling or inner centre */
			double k = (double)(i / 2 % 5);
			f.x[i] = fmod(k * 0.27 * w + (rng_uniform(&r) - 0.5) * side + w, w);
			f.y[i] = fmod(k * 0.31 * h + (rng_uniform(&r) - 0.5) * side + h, h);
		}
		f.vx[i] = rng_uniform(&r) - 0.5;
		f.vy[i] = rng_uniform(&r) - 0.5;
	}
	return f;
}

static void against_brute(size_t n, double w, double h, double r, uint64_t seed)
{
	struct flock f = clumped(n, w, h, 40, seed);
	for (int wrap = 0; wrap < 2; wrap++) {
		struct metrics m = measure(&f, w, h, wrap, r);
		double nn = brute_nn(&f, wrap, w, h);
		long cl = brute_clusters(&f, wrap, w, h, r);
		cr_assert_float_eq(m.nn_distance, nn, 1e-9 * nn, "n=%zu %gx%g wrap=%d: nn %.17g, brute %.17g",
		                   n, w, h, wrap, m.nn_distance, nn);
		cr_assert_eq(m.clusters, cl, "n=%zu %gx%g r=%g wrap=%d: %ld clusters, brute %ld", n, w, h,
		             r, wrap, m.clusters, cl);
	}
	flock_free(&f);
}

Test(metrics, grid_passes_equal_brute_force)
{
	/* the default density and radius */
	against_brute(1000, 640, 360, 50, 1);
	/* fields that are no multiple of the cells: short last cell on the torus */
	against_brute(700, 613, 397, 23, 2);
	against_brute(700, 613, 397, 7.3, 3);
	/* few boids, small radius: the grid caps its cells, which outgrow r */
	against_brute(60, 5000, 3000, 20, 4);
	/* a radius as large as the field */
	against_brute(300, 640, 360, 400, 5);
	/* very thin fields: one row of cells */
	against_brute(200, 2000, 3, 10, 6);
	/* sparse, near percolation: every missed link changes the count */
	against_brute(300, 640, 360, 25, 7);
	against_brute(400, 640, 360, 18, 8);
}

Test(metrics, links_reach_past_the_next_cell)
{
	/* A pair 0.9 r apart along x, placed so that with cells of about
	 * 0.7 r they are two cells apart; a third boid far away. */
	struct flock f = flock_new(3);
	f.x[1] = 7.0, f.y[1] = 100;
	f.x[2] = 16.0, f.y[2] = 100;
	for (int wrap = 0; wrap < 2; wrap++)
		cr_assert_eq(measure(&f, 640, 360, wrap, 10).clusters, 2);
	flock_free(&f);
}

Test(metrics, context_is_reused_across_sizes)
{
	struct metrics_ctx c;
	metrics_ctx_init(&c);
	static const size_t sizes[] = { 500, 20, 2000, 1 };
	for (size_t t = 0; t < 4; t++) {
		struct flock f = clumped(sizes[t], 640, 360, 40, 10 + t);
		struct metrics_input in = { f.n, f.x, f.y, f.vx, f.vy, 640, 360, 1, 50 };
		struct metrics m;
		cr_assert_eq(metrics_compute(&c, &in, &m), 0);
		struct metrics fresh = measure(&f, 640, 360, 1, 50);
		cr_assert(memcmp(&m, &fresh, sizeof(m)) == 0, "reused context differs at n=%zu", f.n);
		flock_free(&f);
	}
	metrics_ctx_release(&c);
}

static double seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

Test(metrics, hundred_thousand_boids_in_linear_time)
{
	/* the default density (100 boids on 640x360), half of them in five
	 * flock-dense clumps (1 boid per 400 px^2, as the avoid radius keeps
	 * them); O(n^2) would take minutes, the budget is ~50 ms */
	struct flock f = clumped(100000, 20240, 11385, 2000, 12);
	struct metrics_ctx c;
	struct metrics m;
	struct metrics_input in = { f.n, f.x, f.y, f.vx, f.vy, 20240, 11385, 1, 50 };
	metrics_ctx_init(&c);
	cr_assert_eq(metrics_compute(&c, &in, &m), 0); /* warm: allocations */
	double t = seconds();
	cr_assert_eq(metrics_compute(&c, &in, &m), 0);
	t = seconds() - t;
	/* generous for sanitizer builds and busy machines */
	cr_expect_lt(t, 1.0, "100k boids took %.3f s", t);
	cr_assert_gt(m.clusters, 0);
	metrics_ctx_release(&c);
	flock_free(&f);
}

/* -------------------------------------------------------------------- CSV */

Test(metrics, csv_header_and_rows_read_back_exactly)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct metrics m = { 0.1, 1.0 / 3, 2.5e-7, 12345.678901234567, M_PI, 17 };
	cr_assert_eq(metrics_write_header(f), 0);
	cr_assert_eq(metrics_write_row(f, 42, &m), 0);
	fclose(f);
	const char *want = "frame,polarization,milling,mean_speed,nn_distance,gyration_radius,clusters\n";
	cr_assert_eq(strncmp(buf, want, strlen(want)), 0, "header: %s", buf);
	char *p = buf + strlen(want);
	cr_assert_eq(strtol(p, &p, 10), 42);
	for (size_t i = 0; i < METRICS_COUNT; i++) {
		cr_assert_eq(*p++, ',');
		double v = strtod(p, &p);
		cr_assert_eq(v, metrics_value(&m, i), "%s: %.17g", metrics_name(i), v);
	}
	cr_assert_str_eq(p, "\n");
	cr_assert_null(metrics_name(METRICS_COUNT));
	free(buf);
}

Test(metrics, models_that_always_wrap_are_measured_on_a_torus)
{
	/* canvas ignores --edges (it always wraps): the metrics must too */
	tc_tmpdir();
	cr_assert_eq(tc_boids("-q -m canvas -f 200 --no-render --edges bounce --metrics a.csv"), 0);
	cr_assert_eq(tc_boids("-q -m canvas -f 200 --no-render --edges wrap --metrics b.csv"), 0);
	cr_assert_eq(tc_sh("cmp -s a.csv b.csv"), 0, "the same flock measured two ways");
	tc_cleanup();
}
