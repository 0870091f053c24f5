/*
 * How the cost of a step grows with the flock, checked without timing
 * anything: the sequential models list boids that left their grid cell as
 * "escaped" (include/flock.h), and later boids look the listed ones up.  A
 * list that holds a fixed fraction of the flock makes the model quadratic;
 * boids moving at exactly their top speed must not be listed through
 * rounding, only boids that really jump (a wrap, an obstacle's wall).
 * These tests count the list (struct sim.escaped) and
 * check that the grid with its list still finds every neighbour brute force
 * finds, in every model, edge mode and update order, in a plane and in a
 * box (--dims 3: 3 x 3 x 3 cells, boids wrapping on z too).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "common.h"
#include "sim.h"
#include "model_names.h"

static const int models[] = { PROCESSING, STEERING, CANVAS };

/* A model's top speed in px/step at the defaults: the most a boid may move. */
static double top_speed(const struct sim_params *p)
{
	if (p->model == model_at(PROCESSING))
		return p->proc.max_speed;
	if (p->model == model_at(STEERING))
		return p->steer.max_speed;
	if (p->model == model_at(CANVAS))
		return p->canvas.speed * p->canvas.dt;
	return p->harden.max_speed;
}

/*
 * The processing listing has no speed limit (its flock races ever faster, and
 * a boid's step has no top); these tests need one, so processing runs with
 * its sketch's limits (--proc-max-speed 3 --proc-max-force 5, the default),
 * set here whatever the default.
 */
static void calm(struct sim_params *p)
{
	if (p->model == model_at(PROCESSING)) {
		p->proc.max_speed = 3;
		p->proc.max_force = 5;
	}
}

/*
 * A 20 x 20 lattice, 25 px apart, in the middle of a 4000 x 4000 field, every
 * boid heading the same way at the model's top speed: the boids see each
 * other (they flock), none comes near an edge in 20 steps.
 */
static void lattice(struct sim *s, int m)
{
	struct sim_params p;
	sim_params_default(&p, 4000, 4000);
	p.model = model_at(m);
	calm(&p);
	p.predators = 0;
	p.target_mode = SIM_TARGET_NONE;
	cr_assert_eq(sim_init(s, &p, 400, NULL), 0);
	double v = top_speed(&s->p), a = atan2(1, 3);
	for (size_t i = 0; i < 400; i++) {
		s->x[i] = 1750 + 25.0 * (double)(i % 20);
		s->y[i] = 1750 + 25.0 * (double)(i / 20);
		s->vx[i] = v * cos(a);
		s->vy[i] = v * sin(a);
	}
}

Test(scaling, a_flock_at_top_speed_far_from_the_edges_lists_nobody)
{
	for (size_t m = 0; m < 3; m++) {
		struct sim s;
		lattice(&s, models[m]);
		double v = top_speed(&s.p);
		size_t at_top = 0;
		for (int t = 0; t < 20; t++) {
			cr_assert_eq(sim_step(&s), 0);
			cr_assert_eq(s.escaped, 0, "model %d step %d: %zu of 400 boids listed as escaped",
			             models[m], t, s.escaped);
			for (size_t i = 0; i < s.n; i++) {
				cr_assert(s.x[i] > 1000 && s.x[i] < 3000 && s.y[i] > 1000 && s.y[i] < 3000);
				at_top += fabs(hypot(s.vx[i], s.vy[i]) - v) < 1e-9 * v;
			}
		}
		/* the case that matters: most boids really are at their top speed */
		cr_assert_gt(at_top, 20 * 400 / 2, "model %d: only %zu boid-steps at top speed",
		             models[m], at_top);
		sim_release(&s);
	}
}

Test(scaling, a_wrapped_boid_is_listed)
{
	for (size_t m = 0; m < 3; m++) {
		struct sim s;
		lattice(&s, models[m]);
		s.p.edges = SIM_WRAP; /* steering wraps only when asked; the others always */
		double v = top_speed(&s.p);
		/* boid 7 alone near the right edge, boid 300 near the top, both heading out */
		s.x[7] = 4000 - v / 2, s.y[7] = 100, s.vx[7] = v, s.vy[7] = 0;
		s.x[300] = 3000, s.y[300] = v / 2, s.vx[300] = 0, s.vy[300] = -v;
		cr_assert_eq(sim_step(&s), 0);
		cr_assert(s.x[7] < 10, "model %d: boid 7 at x = %g did not wrap", models[m], s.x[7]);
		cr_assert(s.y[300] > 3990, "model %d: boid 300 at y = %g did not wrap", models[m], s.y[300]);
		cr_assert_eq(s.escaped, 2, "model %d: %zu listed, 2 wrapped", models[m], s.escaped);
		sim_release(&s);
	}
}

/*
 * Every model at its defaults (the harden model too), 2000 boids at the
 * default density, 100 steps: the list holds at least every boid that moved
 * further than its top speed (those must be listed) and stays a small
 * fraction of the flock.
 */
Test(scaling, the_list_stays_a_small_fraction_of_the_flock_at_the_defaults)
{
	static double x0[2000], y0[2000];
	for (int m = HARDEN; m <= CANVAS; m++) {
		struct sim_params p;
		struct sim s;
		double scale = sqrt(20.0);
		sim_params_default(&p, 640 * scale, 360 * scale);
		p.model = model_at(m);
		calm(&p);
		cr_assert_eq(sim_init(&s, &p, 2000, NULL), 0);
		sim_randomize(&s, 3);
		size_t most = 0, moved_far = 0;
		double v = top_speed(&s.p);
		for (int t = 0; t < 100; t++) {
			memcpy(x0, s.x, sizeof(x0));
			memcpy(y0, s.y, sizeof(y0));
			cr_assert_eq(sim_step(&s), 0);
			size_t far = 0;
			for (size_t i = 0; i < s.n; i++)
				far += hypot(s.x[i] - x0[i], s.y[i] - y0[i]) > v * (1 + 1e-6);
			if (m == HARDEN)
				cr_assert_eq(s.escaped, 0, "harden lists nobody (positions move after the search)");
			else
				cr_assert_geq(s.escaped, far, "model %d step %d: %zu boids moved further than "
				              "%g px, %zu listed", m, t, far, v, s.escaped);
			moved_far += far;
			most = s.escaped > most ? s.escaped : most;
		}
		cr_assert_leq(most, s.n / 50, "model %d: up to %zu of %zu boids listed in a step",
		              m, most, s.n);
		if (m == PROCESSING || m == CANVAS) /* they wrap: the list is not dead code */
			cr_assert_gt(moved_far, 0, "model %d: no boid wrapped in 100 steps", m);
		sim_release(&s);
	}
}

/* ------------------------------------------------- grid against brute */

/*
 * Every model, edge mode and update order, with an obstacle (it puts boids
 * back on its surface: another way to leave a cell), in a small field
 * (depth > 0: a box that deep) where boids wrap often: grid and brute
 * force from the same state agree to the tolerance of test_models.c, step
 * after step.
 */
static void grid_against_brute(int models_to, double depth, int steps)
{
	static const unsigned edges[] = { SIM_EDGES_NONE, SIM_BOUNCE, SIM_WRAP, SIM_BOUNCE | SIM_WRAP };
	struct sim_obstacle ob = { .x = 150, .y = 120, .z = depth / 2, .r = 25 };
	for (int m = HARDEN; m <= models_to; m++)
		for (int e = 0; e < 4; e++)
			for (int u = SIM_SEQUENTIAL; u <= SIM_SYNCHRONOUS; u++) {
				struct sim g, b;
				struct sim_params p;
				sim_params_default(&p, 300, 240);
				p.model = model_at(m);
				p.edges = edges[e];
				p.update = (enum sim_update)u;
				p.obstacles = &ob;
				p.obstacles_n = 1;
				if (depth > 0) {
					p.dims = 3;
					p.depth = depth;
					calm(&p); /* in a box the listing's flock races off: keep it in cells */
				}
				cr_assert_eq(sim_init(&g, &p, 200, NULL), 0);
				p.search = SIM_SEARCH_BRUTE;
				cr_assert_eq(sim_init(&b, &p, 200, NULL), 0);
				sim_randomize(&g, 5);
				sim_randomize(&b, 5); /* opengl's target speeds: the same */
				size_t listed = 0;
				for (int t = 0; t < steps; t++) {
					tc_sim_copy(&b, &g);
					sim_step(&g);
					sim_step(&b);
					listed += g.escaped;
					cr_assert_eq(b.escaped, 0, "brute force has one cell: nothing to list");
					double d = tc_sim_diff(&g, &b);
					cr_assert(d <= 1e-9, "model %d edges %u order %d depth %g step %d: differ by %g",
					          m, edges[e], u, depth, t, d);
				}
				if (depth > 0 && m != OPENGL) /* (opengl's reach is most of the box) */
					cr_assert_geq(g.grid.nz, 3, "model %d: a box of %d layers", m, g.grid.nz);
				if (m != HARDEN && m != OPENGL && u == SIM_SEQUENTIAL &&
				    (m != STEERING || (edges[e] & SIM_WRAP)))
					cr_assert_gt(listed, 0, "model %d edges %u depth %g: nobody ever listed",
					             m, edges[e], depth);
				sim_release(&g);
				sim_release(&b);
			}
}

Test(scaling, grid_matches_brute_force_in_every_model_edge_mode_and_order)
{
	grid_against_brute(CANVAS, 0, 60);
}

/* The same in a box 180 deep, every model (opengl too), 3 x 3 x 3 cells a query. */
Test(scaling, grid_matches_brute_force_in_a_box)
{
	grid_against_brute(OPENGL, 180, 30);
}
