/*
 * metrics on hand-built flocks with known answers, and the grid passes
 * (nearest neighbour, clusters) against brute force on random and clumped
 * flocks, with and without wrap, in 2D and in 3D.
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
	double *z, *vz;          /* NULL for a 2D flock */
	double d;                /* 3D: the box's depth (the torus's, with wrap) */
};

static struct flock flock_new(size_t n)
{
	struct flock f = { n, calloc(n + 1, sizeof(double)), calloc(n + 1, sizeof(double)),
		           calloc(n + 1, sizeof(double)), calloc(n + 1, sizeof(double)), NULL, NULL, 0 };
	cr_assert(f.x && f.y && f.vx && f.vy);
	return f;
}

/* A 3D flock of n boids, all at the origin and at rest, in a box `d` deep. */
static struct flock flock_new3(size_t n, double d)
{
	struct flock f = flock_new(n);
	f.z = calloc(n + 1, sizeof(double));
	f.vz = calloc(n + 1, sizeof(double));
	f.d = d;
	cr_assert(f.z && f.vz);
	return f;
}

static void flock_free(struct flock *f)
{
	free(f->x);
	free(f->y);
	free(f->vx);
	free(f->vy);
	free(f->z);
	free(f->vz);
}

static struct metrics_input input_of(const struct flock *f, double w, double h, int wrap, double r)
{
	return (struct metrics_input){ f->n, f->x, f->y, f->vx, f->vy, w, h, wrap, r, f->z, f->vz, f->d };
}

static struct metrics measure(const struct flock *f, double w, double h, int wrap, double r)
{
	struct metrics_ctx c;
	struct metrics m;
	struct metrics_input in = input_of(f, w, h, wrap, r);
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

/*
 * Two boids `gap` apart the short way round a 640 x 360 (x depth) torus:
 * one cluster (radius 5) centred on the edge; in open space `far` apart.
 */
static void expect_pair_across_an_edge(const struct flock *f, double gap, double far)
{
	struct metrics m = measure(f, 640, 360, 1, 5);
	cr_assert_float_eq(m.nn_distance, gap, 1e-12);
	cr_assert_eq(m.clusters, 1);
	cr_assert_float_eq(m.gyration, gap / 2, 1e-12); /* centroid on the edge, not mid-field */
	m = measure(f, 640, 360, 0, 5);
	cr_assert_float_eq(m.nn_distance, far, 1e-12);
	cr_assert_eq(m.clusters, 2);
	cr_assert_float_eq(m.gyration, far / 2, 1e-12);
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
	expect_pair_across_an_edge(&f, 2, 638);
	struct metrics m;

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
	struct metrics_input in = input_of(&f, 640, 360, 0, 50);

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
	double dz = f->z ? brute_sep(f->z[i] - f->z[j], wrap, f->d) : 0;
	return dx * dx + dy * dy + dz * dz;
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

Test(metrics, fields_beyond_any_picture_equal_brute_force)
{
	/* --field: a few boids in clumps over fields far larger than 16384 px,
	 * on the plane and on the torus (clumps straddle the edges) */
	against_brute(400, 200000, 150000, 50, 9);
	against_brute(300, 3e7, 2e7, 25, 10);
	against_brute(300, 1e9, 1e9, 50, 11);
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

/* clumped3() is defined with the 3D tests below. */
static struct flock clumped3(size_t n, double w, double h, double d, double side, uint64_t seed);

Test(metrics, context_is_reused_across_sizes_and_between_2d_and_3d)
{
	struct metrics_ctx c;
	metrics_ctx_init(&c);
	static const size_t sizes[] = { 500, 20, 2000, 1 };
	for (size_t t = 0; t < 8; t++) {
		size_t n = sizes[t % 4];
		struct flock f = t % 2 ? clumped3(n, 640, 360, 300, 40, 50 + t) : clumped(n, 640, 360, 40, 10 + t);
		struct metrics_input in = input_of(&f, 640, 360, 1, 50);
		struct metrics m;
		cr_assert_eq(metrics_compute(&c, &in, &m), 0);
		struct metrics fresh = measure(&f, 640, 360, 1, 50);
		cr_assert(memcmp(&m, &fresh, sizeof(m)) == 0, "reused context differs at n=%zu (%s)", n,
		          f.z ? "3D" : "2D");
		flock_free(&f);
	}
	metrics_ctx_release(&c);
}

/* Boids compared per boid at n, on the clumped flock of the test below. */
static double visits_per_boid(size_t n, double w, double h)
{
	struct flock f = clumped(n, w, h, sqrt(40.0 * (double)n), 12); /* 400 px^2 a clumped boid */
	struct metrics_ctx c;
	struct metrics m;
	struct metrics_input in = input_of(&f, w, h, 1, 50);
	metrics_ctx_init(&c);
	cr_assert_eq(metrics_compute(&c, &in, &m), 0);
	cr_assert_gt(m.clusters, 0);
	double v = (double)c.visits / (double)n;
	metrics_ctx_release(&c);
	flock_free(&f);
	return v;
}

Test(metrics, work_per_boid_does_not_grow_with_the_flock)
{
	/* the default density (100 boids on 640x360), half of them in
	 * flock-dense clumps (1 boid per 400 px^2, as the avoid radius keeps
	 * them).  Counted, not timed: an O(n^2) pass compares every boid with
	 * a number of others that grows with n. */
	double v10k = visits_per_boid(10000, 6400, 3600);
	double v100k = visits_per_boid(100000, 20240, 11385);
	cr_expect_lt(v100k, 100, "%.0f boids compared per boid at 100k", v100k);
	cr_expect_lt(v100k, 1.5 * v10k, "boids compared per boid: %.1f at 10k, %.1f at 100k", v10k, v100k);
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

/* --------------------------------------------------------------------- 3D */

/* The 2D flock f lifted into the plane z = z0 of a box d deep, at rest in z. */
static struct flock lifted(const struct flock *f, double z0, double d)
{
	struct flock g = flock_new3(f->n, d);
	for (size_t i = 0; i < f->n; i++) {
		g.x[i] = f->x[i], g.y[i] = f->y[i], g.vx[i] = f->vx[i], g.vy[i] = f->vy[i];
		g.z[i] = z0;
	}
	return g;
}

static void same_metrics(struct metrics a, struct metrics b, double tol, const char *what)
{
	for (size_t k = 0; k < METRICS_COUNT; k++) {
		double u = metrics_value(&a, k), v = metrics_value(&b, k);
		cr_assert_float_eq(u, v, tol * fmax(1, fabs(v)), "%s: %s %.17g, expected %.17g", what,
		                   metrics_name(k), u, v);
	}
}

Test(metrics, a_3d_flock_in_a_plane_measures_as_in_2d)
{
	static const struct { size_t n; double w, h, r; } cases[] = {
		{ 1000, 640, 360, 50 }, { 700, 613, 397, 23 }, { 300, 640, 360, 400 }, { 36, 640, 360, 20 },
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(*cases); k++) {
		struct flock f = clumped(cases[k].n, cases[k].w, cases[k].h, 40, 20 + k);
		struct flock g = lifted(&f, 77.25, 300);
		for (int wrap = 0; wrap < 2; wrap++) {
			char what[64];
			snprintf(what, sizeof(what), "case %zu wrap %d", k, wrap);
			same_metrics(measure(&g, cases[k].w, cases[k].h, wrap, cases[k].r),
			             measure(&f, cases[k].w, cases[k].h, wrap, cases[k].r), 1e-12, what);
		}
		flock_free(&f);
		flock_free(&g);
	}
}

Test(metrics, a_line_along_z_by_hand)
{
	/* (0,0,0) (0,0,2) (0,0,7): nearest 2, 2, 5; centroid z = 3 */
	struct flock f = flock_new3(3, 360);
	f.z[1] = 2, f.z[2] = 7;
	/* headings x, y, z at speeds 1, 2, 3: |(1,1,1)| / 3 */
	f.vx[0] = 1, f.vy[1] = 2, f.vz[2] = 3;
	struct metrics m = measure(&f, 640, 360, 0, 5);
	cr_assert_float_eq(m.nn_distance, 3, 1e-12);
	cr_assert_float_eq(m.gyration, sqrt((9.0 + 1 + 16) / 3), 1e-12);
	cr_assert_eq(m.clusters, 2, "5 apart is not closer than 5");
	cr_assert_float_eq(m.polarization, 1 / sqrt(3), 1e-15);
	cr_assert_float_eq(m.mean_speed, 2, 1e-15);
	/* r^ is -z, -z, +z; u^ x, y, z: the cross products (0,-1,0), (1,0,0), 0 */
	cr_assert_float_eq(m.milling, sqrt(2) / 3, 1e-15);
	cr_assert_eq(measure(&f, 640, 360, 0, 5.000001).clusters, 1);
	flock_free(&f);
}

/* A ring of n boids of radius rad around (cx, cy, cz) in the plane spanned by unit vectors a and b, flying round. */
static struct flock ring3(size_t n, const double c[3], const double a[3], const double b[3], double rad, double v)
{
	struct flock f = flock_new3(n, 360);
	double *p[3] = { f.x, f.y, f.z }, *u[3] = { f.vx, f.vy, f.vz };
	for (size_t i = 0; i < n; i++) {
		double t = 2 * M_PI * (double)i / (double)n;
		for (int k = 0; k < 3; k++) {
			p[k][i] = c[k] + rad * (cos(t) * a[k] + sin(t) * b[k]);
			u[k][i] = v * (-sin(t) * a[k] + cos(t) * b[k]);
		}
	}
	return f;
}

Test(metrics, rings_in_any_plane_mill)
{
	static const double c[3] = { 300, 200, 150 }, s = 0.70710678118654752;
	static const double planes[][2][3] = {
		{ { 1, 0, 0 }, { 0, 1, 0 } },                   /* the picture's plane */
		{ { 1, 0, 0 }, { 0, 0, 1 } },                   /* upright, seen edge-on by the camera */
	};
	for (size_t k = 0; k < 2; k++) {
		struct flock f = ring3(36, c, planes[k][0], planes[k][1], 50, 2);
		struct metrics m = measure(&f, 640, 360, 0, 20);
		cr_assert_float_eq(m.milling, 1, 1e-12, "plane %zu", k);
		cr_assert_float_eq(m.polarization, 0, 1e-12, "plane %zu", k);
		cr_assert_float_eq(m.mean_speed, 2, 1e-12);
		cr_assert_float_eq(m.gyration, 50, 1e-9);
		cr_assert_float_eq(m.nn_distance, 2 * 50 * sin(M_PI / 36), 1e-9);
		cr_assert_eq(m.clusters, 1);
		flock_free(&f);
	}
	/* a tilted plane: a = (0, 1, 1)/sqrt2, b = (2, -1, 1)/sqrt6, orthonormal */
	double a[3] = { 0, s, s }, b[3] = { 2 / sqrt(6), -1 / sqrt(6), 1 / sqrt(6) };
	struct flock f = ring3(36, c, a, b, 50, 2);
	struct metrics m = measure(&f, 640, 360, 0, 20);
	cr_assert_float_eq(m.milling, 1, 1e-12);
	cr_assert_float_eq(m.polarization, 0, 1e-12);
	cr_assert_float_eq(m.gyration, 50, 1e-9);
	cr_assert_float_eq(m.nn_distance, 2 * 50 * sin(M_PI / 36), 1e-9);
	/* flying outwards is not milling */
	for (size_t i = 0; i < f.n; i++)
		f.vx[i] = f.x[i] - c[0], f.vy[i] = f.y[i] - c[1], f.vz[i] = f.z[i] - c[2];
	cr_assert_float_eq(measure(&f, 640, 360, 0, 20).milling, 0, 1e-12);
	flock_free(&f);
}

Test(metrics, minimum_image_in_z_with_wrap)
{
	/* two boids 2 px apart across the front/back of a 200 deep box */
	struct flock f = flock_new3(2, 200);
	f.x[0] = f.x[1] = 100, f.y[0] = f.y[1] = 100;
	f.z[0] = 1, f.z[1] = 199;
	expect_pair_across_an_edge(&f, 2, 198);
	/* depths outside the box are reduced onto the torus first */
	f.z[0] = 1 + 200, f.z[1] = -1;
	cr_assert_float_eq(measure(&f, 640, 360, 1, 5).nn_distance, 2, 1e-12);
	flock_free(&f);
}

/*
 * n boids (n even) on a sphere of radius rad around c, turning about the z
 * axis: a Fibonacci lattice on one half and the antipodes of its points,
 * so that c is the centroid.
 */
static struct flock sphere(size_t n, const double c[3], double rad, double d)
{
	struct flock f = flock_new3(n, d);
	for (size_t i = 0; i < n / 2; i++) {
		double zz = 1 - 2 * ((double)i + 0.5) / (double)n, s = sqrt(1 - zz * zz);
		double t = (double)i * M_PI * (3 - sqrt(5)), o[3] = { rad * s * cos(t), rad * s * sin(t), rad * zz };
		for (size_t j = i; j < n; j += n / 2, o[0] = -o[0], o[1] = -o[1], o[2] = -o[2]) {
			f.x[j] = c[0] + o[0], f.y[j] = c[1] + o[1], f.z[j] = c[2] + o[2];
			f.vx[j] = -o[1] * 0.1, f.vy[j] = o[0] * 0.1;
		}
	}
	return f;
}

Test(metrics, sphere_across_a_wrapped_corner_looks_like_one_in_the_middle)
{
	static const double mid[3] = { 320, 180, 100 }, corner[3] = { 0, 0, 0 };
	struct flock a = sphere(60, mid, 30, 200), b = sphere(60, corner, 30, 200);
	struct metrics ma = measure(&a, 640, 360, 1, 12), mb = measure(&b, 640, 360, 1, 12);
	cr_assert_float_eq(mb.gyration, 30, 1e-9);
	same_metrics(mb, ma, 1e-9, "an eighth of the sphere in each corner");
	flock_free(&a);
	flock_free(&b);
}

/*
 * The centre numbers computed independently: the centroid as the plain mean
 * (or per axis the angle of the mean unit vector on a torus), offsets the
 * short way round, the cross product written out.
 */
static struct metrics brute_centre(const struct flock *f, int wrap, double w, double h)
{
	double period[3] = { w, h, f->d }, c[3], u[3] = { 0 }, mill[3] = { 0 }, speed = 0, r2 = 0;
	double *p[3] = { f->x, f->y, f->z }, *v[3] = { f->vx, f->vy, f->vz };
	size_t moving = 0, milling = 0;
	for (int k = 0; k < 3; k++) {
		double sx = 0, sy = 0, s = 0;
		for (size_t i = 0; i < f->n; i++) {
			double t = 2 * M_PI * p[k][i] / period[k];
			sx += cos(t), sy += sin(t), s += p[k][i];
		}
		c[k] = wrap ? atan2(sy, sx) * period[k] / (2 * M_PI) : s / (double)f->n;
	}
	for (size_t i = 0; i < f->n; i++) {
		double r[3], sp = 0, rl = 0;
		for (int k = 0; k < 3; k++) {
			r[k] = brute_sep(p[k][i] - c[k], wrap, period[k]);
			rl += r[k] * r[k];
			sp += v[k][i] * v[k][i];
		}
		sp = sqrt(sp), r2 += rl, rl = sqrt(rl), speed += sp;
		if (sp == 0)
			continue;
		double e[3] = { v[0][i] / sp, v[1][i] / sp, v[2][i] / sp };
		for (int k = 0; k < 3; k++)
			u[k] += e[k];
		moving++;
		if (rl == 0)
			continue;
		mill[0] += (r[1] * e[2] - r[2] * e[1]) / rl;
		mill[1] += (r[2] * e[0] - r[0] * e[2]) / rl;
		mill[2] += (r[0] * e[1] - r[1] * e[0]) / rl;
		milling++;
	}
	struct metrics m = { 0 };
	m.polarization = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) / (double)moving;
	m.milling = sqrt(mill[0] * mill[0] + mill[1] * mill[1] + mill[2] * mill[2]) / (double)milling;
	m.mean_speed = speed / (double)f->n;
	m.gyration = sqrt(r2 / (double)f->n);
	return m;
}

/* As clumped(), in a box d deep: clumps straddle every face, some boids lie just outside. */
static struct flock clumped3(size_t n, double w, double h, double d, double side, uint64_t seed)
{
	struct flock f = clumped(n, w, h, side, seed);
	struct rng r;
	f.z = calloc(n + 1, sizeof(double));
	f.vz = calloc(n + 1, sizeof(double));
	f.d = d;
	cr_assert(f.z && f.vz);
	rng_seed(&r, seed + 1000);
	for (size_t i = 0; i < n; i++) {
		double k = (double)(i / 2 % 5);
		f.z[i] = i % 2 ? rng_uniform(&r) * (d + 20) - 10
		               : fmod(k * 0.23 * d + (rng_uniform(&r) - 0.5) * side + d, d);
		f.vz[i] = rng_uniform(&r) - 0.5;
	}
	return f;
}

static void against_brute3(size_t n, double w, double h, double d, double r, uint64_t seed)
{
	struct flock f = clumped3(n, w, h, d, 40, seed);
	for (int wrap = 0; wrap < 2; wrap++) {
		struct metrics m = measure(&f, w, h, wrap, r), b = brute_centre(&f, wrap, w, h);
		double nn = brute_nn(&f, wrap, w, h);
		long cl = brute_clusters(&f, wrap, w, h, r);
		cr_assert_float_eq(m.nn_distance, nn, 1e-9 * nn, "n=%zu %gx%gx%g wrap=%d: nn %.17g, brute %.17g",
		                   n, w, h, d, wrap, m.nn_distance, nn);
		cr_assert_eq(m.clusters, cl, "n=%zu %gx%gx%g r=%g wrap=%d: %ld clusters, brute %ld", n, w, h, d,
		             r, wrap, m.clusters, cl);
		b.nn_distance = m.nn_distance, b.clusters = m.clusters;
		same_metrics(m, b, 1e-9, "centre numbers against brute force");
	}
	flock_free(&f);
}

Test(metrics, grid_passes_equal_brute_force_in_3d)
{
	/* the default density and radius, the box as deep as the field is high */
	against_brute3(1000, 640, 360, 360, 50, 31);
	/* boxes that are no multiple of the cells: short last cells on the torus */
	against_brute3(700, 613, 397, 211, 23, 32);
	against_brute3(700, 613, 397, 211, 7.3, 33);
	/* few boids, small radius in a big box */
	against_brute3(60, 5000, 3000, 2000, 20, 34);
	/* a radius as large as the box */
	against_brute3(300, 640, 360, 200, 400, 35);
	/* a thin box: one layer */
	against_brute3(200, 640, 360, 3, 10, 36);
	/* a deep, narrow box */
	against_brute3(200, 20, 30, 3000, 15, 37);
	/* sparse, near percolation: every missed link changes the count */
	against_brute3(400, 640, 360, 360, 40, 38);
	against_brute3(500, 300, 300, 300, 28, 39);
}

Test(metrics, rejects_bad_3d_input)
{
	struct flock f = flock_new3(3, 200);
	struct metrics_ctx c;
	struct metrics m = { .clusters = 77 };
	struct metrics_input in = input_of(&f, 640, 360, 1, 50);

	metrics_ctx_init(&c);
	cr_assert_eq(metrics_compute(&c, &in, &m), 0);
	f.z[1] = NAN;
	cr_assert_eq(metrics_compute(&c, &in, &m), -EINVAL);
	f.z[1] = 1e200;
	cr_assert_eq(metrics_compute(&c, &in, &m), -EINVAL);
	f.z[1] = 0;
	f.vz[2] = -INFINITY;
	cr_assert_eq(metrics_compute(&c, &in, &m), -EINVAL);
	f.vz[2] = 0;
	in.depth = 0; /* a torus needs its depth */
	cr_assert_eq(metrics_compute(&c, &in, &m), -EINVAL);
	in.wrap = 0; /* open space does not */
	cr_assert_eq(metrics_compute(&c, &in, &m), 0);
	in.vz = NULL;
	cr_assert_eq(metrics_compute(&c, &in, &m), -EINVAL);
	metrics_ctx_release(&c);
	flock_free(&f);
}

Test(metrics, a_3d_run_measures_its_depth)
{
	/* three boids on a line along z, 10 and 20 px apart, flying along x, y and z */
	tc_tmpdir();
	cr_assert_eq(tc_sh("printf 'frame,id,x,y,vx,vy,z,vz\\n0,0,100,100,1,0,100,0\\n"
	                   "0,1,100,100,0,2,110,0\\n0,2,100,100,0,0,130,3\\n' >h.csv"), 0);
	cr_assert_eq(tc_boids("-q --init h.csv -f 1 --no-render --flock-radius 15 --metrics m.csv"), 0, "%s",
	             tc_stderr());
	char *t = tc_slurp("m.csv", NULL), *p = strchr(t, '\n');
	cr_assert(p && strncmp(p + 1, "0,", 2) == 0, "%s", t);
	double v[6];
	p += 3;
	for (int k = 0; k < 6; k++)
		v[k] = strtod(p, &p), p += *p == ',';
	/* centroid z = 340/3: offsets -40/3, -10/3, 50/3 */
	cr_assert_float_eq(v[0], 1 / sqrt(3), 1e-15, "polarization %.17g", v[0]);
	cr_assert_float_eq(v[2], 2, 1e-15, "mean speed %.17g", v[2]);
	cr_assert_float_eq(v[3], 40.0 / 3, 1e-12, "nn distance %.17g", v[3]);
	cr_assert_float_eq(v[4], sqrt((1600.0 + 100 + 2500) / 27), 1e-12, "gyration %.17g", v[4]);
	cr_assert_eq(v[5], 2, "clusters %g: 10 apart linked, 20 not", v[5]);
	cr_assert_float_eq(v[1], sqrt(2) / 3, 1e-15, "milling %.17g", v[1]);
	free(t);
	tc_cleanup();
}
