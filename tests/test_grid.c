/*
 * The uniform grid against brute force (in a plane and in a box), and the
 * parallel synchronous mode against itself at other thread counts.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "grid.h"
#include "pool.h"
#include "rng.h"
#include "sim.h"

Test(grid, every_close_pair_is_in_neighbouring_cells)
{
	enum { N = 2000 };
	static double x[N], y[N];
	struct rng r;
	struct grid g;
	rng_seed(&r, 5);
	for (int i = 0; i < N; i++) {
		/* some outside the field and one not finite: all must be indexed */
		x[i] = rng_uniform(&r) * 700 - 30;
		y[i] = rng_uniform(&r) * 420 - 30;
	}
	x[7] = NAN;
	grid_init(&g);
	cr_assert_eq(grid_build(&g, x, y, N, 640, 360, 50), 0);
	cr_assert_eq(g.start[g.nx * g.ny], N);
	for (int c = 0; c < g.nx * g.ny; c++)
		for (uint32_t k = g.start[c] + 1; k < g.start[c + 1]; k++)
			cr_assert_lt(g.items[k - 1], g.items[k], "cell %d not in index order", c);
	long pairs = 0;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			double d = hypot(x[i] - x[j], y[i] - y[j]);
			if (!(d < 50))
				continue;
			int ax, ay, bx, by;
			grid_cell_of(&g, x[i], y[i], &ax, &ay);
			grid_cell_of(&g, x[j], y[j], &bx, &by);
			cr_assert(abs(ax - bx) <= 1 && abs(ay - by) <= 1, "pair %d,%d missed", i, j);
			pairs++;
		}
	cr_assert_gt(pairs, N);
	grid_release(&g);
}

Test(grid, in_a_box_every_close_pair_is_in_neighbouring_cells_and_the_runs_visit_them)
{
	enum { N = 1500 };
	static double x[N], y[N], z[N];
	struct rng r;
	struct grid g;
	rng_seed(&r, 6);
	for (int i = 0; i < N; i++) {
		x[i] = rng_uniform(&r) * 460 - 30; /* some outside the box */
		y[i] = rng_uniform(&r) * 300 - 30;
		z[i] = rng_uniform(&r) * 260 - 30;
	}
	z[9] = NAN;
	grid_init(&g);
	cr_assert_eq(grid_build_box(&g, x, y, z, N, 400, 240, 200, 40), 0);
	cr_assert(g.nx == 10 && g.ny == 6 && g.nz == 5, "%d x %d x %d cells", g.nx, g.ny, g.nz);
	cr_assert_eq(g.start[g.nx * g.ny * g.nz], N);
	long pairs = 0;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			double dx = x[i] - x[j], dy = y[i] - y[j], dz = z[i] - z[j];
			if (!(sqrt(dx * dx + dy * dy + dz * dz) < 40))
				continue;
			int ax, ay, bx, by;
			grid_cell_of(&g, x[i], y[i], &ax, &ay);
			grid_cell_of(&g, x[j], y[j], &bx, &by);
			int az = grid_layer_of(&g, z[i]), bz = grid_layer_of(&g, z[j]);
			cr_assert(abs(ax - bx) <= 1 && abs(ay - by) <= 1 && abs(az - bz) <= 1, "pair %d,%d missed", i, j);
			uint32_t ci = (uint32_t)grid_index_of(&g, x[i], y[i], z[i]);
			cr_assert(g.items[g.place[i]] == (uint32_t)i && g.start[ci] <= g.place[i] &&
			          g.place[i] < g.start[ci + 1], "boid %d is not listed in its cell %u", i, ci);
			pairs++;
		}
	cr_assert_gt(pairs, N);
	/* the runs around each boid: exactly the cells within one on each axis, each once */
	static unsigned char seen[10 * 6 * 5];
	for (int i = 0; i < N; i += 7) {
		struct grid_runs runs;
		memset(seen, 0, sizeof(seen));
		grid_runs_begin(&runs, &g, x[i], y[i], z[i]);
		for (uint32_t c0, c1; grid_runs_next(&runs, &c0, &c1);)
			for (uint32_t c = c0; c <= c1; c++)
				seen[c]++;
		uint32_t c = (uint32_t)grid_index_of(&g, x[i], y[i], z[i]);
		int cx = (int)(c % 10), cy = (int)(c / 10 % 6), cz = (int)(c / 60);
		for (int k = 0; k < 300; k++) {
			int near = abs(k % 10 - cx) <= 1 && abs(k / 10 % 6 - cy) <= 1 && abs(k / 60 - cz) <= 1;
			cr_assert_eq(seen[k], near, "boid %d, cell %d: visited %d times", i, k, seen[k]);
		}
	}
	/* the plane's grid: grid_build's, cell for cell */
	struct grid plane;
	grid_init(&plane);
	cr_assert_eq(grid_build(&plane, x, y, N, 400, 240, 40), 0);
	cr_assert_eq(grid_build_box(&g, x, y, NULL, N, 400, 240, 200, 40), 0);
	cr_assert(g.nz == 1 && g.nx == plane.nx && g.ny == plane.ny);
	cr_assert_arr_eq(g.start, plane.start, (size_t)(g.nx * g.ny + 1) * sizeof(uint32_t));
	cr_assert_arr_eq(g.items, plane.items, N * sizeof(uint32_t));
	grid_release(&plane);
	grid_release(&g);
}

static void random_flock(struct sim *s, size_t n, enum sim_update mode, enum sim_search search,
                         struct pool *pool)
{
	struct sim_params p;
	/* the default density: 100 boids on 640x360 */
	double scale = sqrt((double)n / 100.0);
	sim_params_default(&p, 640 * scale, 360 * scale);
	p.update = mode;
	p.search = search;
	p.predators = 3;
	cr_assert_eq(sim_init(s, &p, n, pool), 0);
	sim_randomize(s, 11);
}

static void grid_vs_brute(enum sim_update mode)
{
	struct sim g, b;
	random_flock(&g, 3000, mode, SIM_SEARCH_GRID, NULL);
	random_flock(&b, 3000, mode, SIM_SEARCH_BRUTE, NULL);
	sim_step(&g);
	sim_step(&b);
	cr_assert_leq(tc_sim_apart(&g, &b), 1e-12, "after one step: %g", tc_sim_apart(&g, &b));
	for (int i = 1; i < 100; i++) {
		sim_step(&g);
		sim_step(&b);
	}
	/* Summation order differs (~1e-16 relative) and a flock is chaotic:
	 * after 100 steps the two still agree to a small fraction of a pixel. */
	cr_assert_leq(tc_sim_apart(&g, &b), 1e-6, "after 100 steps: %g", tc_sim_apart(&g, &b));
	sim_release(&g);
	sim_release(&b);
}

Test(grid, sequential_grid_equals_brute_force) { grid_vs_brute(SIM_SEQUENTIAL); }
Test(grid, synchronous_grid_equals_brute_force) { grid_vs_brute(SIM_SYNCHRONOUS); }

Test(grid, thread_count_never_changes_a_bit)
{
	static const int threads[] = { 1, 2, 8 };
	struct sim s[3];
	struct pool *pools[3];
	for (int t = 0; t < 3; t++) {
		pools[t] = pool_new(threads[t]);
		cr_assert_not_null(pools[t]);
		random_flock(&s[t], 5000, SIM_SYNCHRONOUS, SIM_SEARCH_GRID, pools[t]);
		for (int i = 0; i < 30; i++)
			sim_step(&s[t]);
	}
	for (int t = 1; t < 3; t++) {
		cr_assert_arr_eq(s[0].x, s[t].x, 5000 * sizeof(double), "%d threads differ", threads[t]);
		cr_assert_arr_eq(s[0].y, s[t].y, 5000 * sizeof(double));
		cr_assert_arr_eq(s[0].vx, s[t].vx, 5000 * sizeof(double));
		cr_assert_arr_eq(s[0].vy, s[t].vy, 5000 * sizeof(double));
	}
	for (int t = 0; t < 3; t++) {
		sim_release(&s[t]);
		pool_free(pools[t]);
	}
}

struct count_ctx { int *hits; };

static void mark(void *ctx, size_t task)
{
	struct count_ctx *c = ctx;
	c->hits[task]++;
}

Test(grid, pool_runs_every_task_exactly_once)
{
	struct pool *p = pool_new(4);
	int hits[1000] = { 0 };
	struct count_ctx c = { hits };
	for (int round = 0; round < 50; round++)
		pool_run(p, mark, &c, 1000);
	for (int i = 0; i < 1000; i++)
		cr_assert_eq(hits[i], 50);
	pool_free(p);
	pool_free(NULL);
}
