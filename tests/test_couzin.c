/*
 * -m couzin beyond tests/test_reference.c (the paper's rules against
 * tests/ref/couzin.py): the zones' inner edges worked out by hand (a
 * neighbour exactly at r_r is in the zone of orientation, exactly at r_o
 * in the zone of attraction), and the open space's grid (the flock's own
 * box, flock_begin_open()) against brute force for a flock far outside
 * the field, where the field's grid would pile it into its border cells.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "model_names.h"
#include "sim.h"

#define DEG (M_PI / 180)

/*
 * Two boids, no noise, turning 40 deg/s x 0.1 s = 4 degrees a step: A at
 * (300, 180, 150) heading +x, B at k times the offset (21, 28, 0) (35 px:
 * exact) heading (0, by, 0).  Returns A's heading after one step.
 */
static void one_step(double repulsion, double orientation, double attraction, double k, double by, double out[3])
{
	struct sim_params p;
	struct sim s;
	sim_params_default(&p, 640, 360);
	p.model = model_at(COUZIN);
	p.dims = 3;
	p.depth = 300;
	p.edges = SIM_EDGES_NONE;
	p.update = SIM_SYNCHRONOUS;
	p.couzin.repulsion = repulsion;
	p.couzin.orientation = orientation;
	p.couzin.attraction = attraction;
	p.couzin.noise = 0;
	cr_assert_eq(sim_init(&s, &p, 2, NULL), 0);
	double v = p.couzin.speed * p.couzin.dt;
	s.x[0] = 300, s.y[0] = 180, s.z[0] = 150, s.vx[0] = v, s.vy[0] = 0, s.vz[0] = 0;
	s.x[1] = 300 + 21 * k, s.y[1] = 180 + 28 * k, s.z[1] = 150, s.vx[1] = 0, s.vy[1] = by * v, s.vz[1] = 0;
	cr_assert_eq(sim_step(&s), 0);
	out[0] = s.vx[0] / v, out[1] = s.vy[0] / v, out[2] = s.vz[0] / v;
	sim_release(&s);
}

static void expect_heading(const double got[3], double x, double y, const char *what)
{
	cr_assert(fabs(got[0] - x) < 1e-12 && fabs(got[1] - y) < 1e-12 && fabs(got[2]) < 1e-12,
	          "%s: heading (%.15g, %.15g, %.15g), by hand (%.15g, %.15g, 0)", what, got[0], got[1], got[2], x, y);
}

/*
 * By hand: in the zone of repulsion A heads away from B, -unit(21, 28) =
 * (-0.6, -0.8), 126.9 degrees clockwise of +x (y down): it turns 4 degrees
 * that way, (cos 4, -sin 4).  In the zone of orientation it takes B's
 * heading, +y, 90 degrees the other way: (cos 4, sin 4).  In the zone of
 * attraction it heads toward B, (0.6, 0.8), 53.1 degrees: (cos 4, sin 4)
 * again, so at r_o B heads -y, which orientation would follow (cos 4,
 * -sin 4) and attraction does not.
 */
Test(couzin, a_neighbour_on_a_zones_edge_is_in_the_next_zone_out)
{
	double h[3], c4 = cos(4 * DEG), s4 = sin(4 * DEG);
	one_step(35, 10, 10, 1 - 1e-9, 1, h);
	expect_heading(h, c4, -s4, "just inside r_r: repulsion");
	one_step(35, 10, 10, 1, 1, h);
	expect_heading(h, c4, s4, "exactly at r_r: orientation");
	one_step(20, 15, 10, 1 - 1e-9, -1, h);
	expect_heading(h, c4, -s4, "just inside r_o: orientation, its heading");
	one_step(20, 15, 10, 1, -1, h);
	expect_heading(h, c4, s4, "exactly at r_o: attraction, toward it");
}

/* A flock of n at the paper's start moved far outside the field, to be stepped by grid or brute force. */
static void far_flock(struct sim *s, enum sim_search search, enum sim_update u, int dims, size_t n)
{
	struct sim_params p;
	sim_params_default(&p, 64, 36);
	p.model = model_at(COUZIN);
	p.dims = dims;
	p.depth = 36;
	p.edges = SIM_EDGES_NONE;
	p.update = u;
	p.search = search;
	p.couzin.orientation = 2; /* r_a = 5 px: the start (16 px a side in 2D, 13 in 3D) spans cells */
	p.couzin.attraction = 2;
	cr_assert_eq(sim_init(s, &p, n, NULL), 0);
	sim_randomize(s, 3);
	for (size_t i = 0; i < n; i++) { /* far outside the field, on every side */
		s->x[i] += 5000;
		s->y[i] -= 3000;
		if (s->z)
			s->z[i] += 700;
	}
}

Test(couzin, a_flock_far_outside_the_field_steps_as_brute_force_does)
{
	for (int dims = 2; dims <= 3; dims++)
		for (int u = SIM_SEQUENTIAL; u <= SIM_SYNCHRONOUS; u++) {
			struct sim g, b;
			far_flock(&g, SIM_SEARCH_GRID, u, dims, 400);
			far_flock(&b, SIM_SEARCH_BRUTE, u, dims, 400);
			for (int t = 0; t < 40; t++) {
				cr_assert_eq(sim_step(&g), 0);
				cr_assert_eq(sim_step(&b), 0);
				/* the grid is the flock's: cells from its corner, not the field's border cell */
				cr_assert(g.grid.ox > 4900 && g.grid.oy < -2900 && g.grid.nx >= 3 && g.grid.ny >= 3,
				          "%dD: the grid from (%g, %g), %d x %d cells", dims, g.grid.ox, g.grid.oy,
				          g.grid.nx, g.grid.ny);
				double d = tc_sim_apart(&g, &b);
				cr_assert(d <= 1e-9, "%dD order %d step %d: grid and brute force %g apart", dims, u, t, d);
				memcpy(b.x, g.x, g.n * sizeof(double)); /* again from the same state */
				memcpy(b.y, g.y, g.n * sizeof(double));
				memcpy(b.vx, g.vx, g.n * sizeof(double));
				memcpy(b.vy, g.vy, g.n * sizeof(double));
				if (g.z) {
					memcpy(b.z, g.z, g.n * sizeof(double));
					memcpy(b.vz, g.vz, g.n * sizeof(double));
				}
			}
			sim_release(&g);
			sim_release(&b);
		}
}

/* Open space: with --edges none nothing bounds the group, and the picture follows it. */
Test(couzin, in_open_space_the_picture_follows_the_group)
{
	const struct {
		const char *args;
		const char *follow;
	} cases[] = {
		{ "", "yes" },                            /* the paper's open space */
		{ "--edges wrap", "no" },                 /* a torus: the field holds the flock */
		{ "--edges bounce", "no" },
		{ "--view 32,18,40", "no" },              /* a window given: it stays */
		{ "--follow=no", "no" },
		{ "-m harden --edges none", "no" },       /* another model's scene: its own picture */
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		cr_assert_eq(tc_boids("-m couzin %s --print-config", cases[i].args), 0, "%s: %s", cases[i].args,
		             tc_stderr());
		char want[32];
		snprintf(want, sizeof want, "\nfollow = %s\n", cases[i].follow);
		cr_expect(strstr(tc_stdout(), want), "-m couzin %s: not %s", cases[i].args, want + 1);
	}
}
