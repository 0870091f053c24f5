/*
 * The models on a torus (vicsek, abm; netlogo and couzin --edges wrap
 * share its walk): their neighbour grid against every
 * pair, on fields whose sides are no multiple of a cell and fields so small
 * that a query's cells meet round the back; the same bytes on any number
 * of threads; a box whose flock lies in a plane moves as the plane; and
 * the paper's order parameter v_a against the metrics' polarization, from
 * what boids writes.  (The rules themselves: tests/test_reference.c, whose
 * references re-advance boids' trajectories to 1e-12.)
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "model_names.h"
#include "pool.h"
#include "sim.h"

static const int torus_models[] = { VICSEK, ABM };

/* A field of w x h (x d: a box) where model m's particles see a few neighbours and cross the sides often. */
static void torus_params(struct sim_params *p, int m, double w, double h, double d)
{
	sim_params_default(p, w, h);
	p->model = model_at(m);
	p->predators = 0;
	p->vicsek.noise = 2;
	p->vicsek.speed = .3; /* wraps every few steps */
	p->abm.vision = 3;
	p->abm.speed = .7;
	p->abm.separation = 1.5;
	p->couzin.orientation = 1; /* (reach 3, as abm's and netlogo's) */
	p->couzin.attraction = 1;
	if (m == COUZIN)
		p->edges = SIM_WRAP;
	if (d > 0) {
		p->dims = 3;
		p->depth = d;
	}
}

/*
 * Grid and brute force from the same state, step after step, agree to
 * rounding: fields of 5.3 x 4.1 (no side a multiple of the cell, so the
 * last cell is short where the query wraps), 2.5 x 2.2 (a query's
 * interval covers a whole side: every cell once), a box, both orders.
 * A query that missed a cell across a side, or visited one twice, differs
 * by a neighbour's whole velocity.
 */
Test(torus, grid_matches_brute_force_across_every_side)
{
	static const double fields[][3] = { { 5.3, 4.1, 0 }, { 2.5, 2.2, 0 }, { 5.3, 4.1, 3.7 }, { 9.5, 3.1, 2.2 } };
	static const int walkers[] = { VICSEK, ABM, NETLOGO, COUZIN };
	for (size_t mi = 0; mi < sizeof walkers / sizeof *walkers; mi++)
		for (size_t fi = 0; fi < sizeof fields / sizeof *fields; fi++)
			for (int u = SIM_SEQUENTIAL; u <= SIM_SYNCHRONOUS; u++) {
				int m = walkers[mi];
				const double *f = fields[fi];
				double scale = m == VICSEK ? 1 : 4; /* the particles see 1, the others 3 */
				struct sim_params p;
				struct sim g, b;
				torus_params(&p, m, f[0] * scale, f[1] * scale, f[2] * scale);
				p.update = (enum sim_update)u;
				cr_assert_eq(sim_init(&g, &p, 150, NULL), 0);
				p.search = SIM_SEARCH_BRUTE;
				cr_assert_eq(sim_init(&b, &p, 150, NULL), 0);
				sim_randomize(&g, 3);
				size_t listed = 0;
				for (int t = 0; t < 40; t++) {
					tc_sim_copy(&b, &g);
					cr_assert_eq(sim_step(&g), 0);
					cr_assert_eq(sim_step(&b), 0);
					listed += g.escaped;
					double d = tc_sim_diff(&g, &b);
					cr_assert(d <= 1e-9, "%s %gx%gx%g order %d step %d: grid and brute force differ by %g",
					          p.model->name, f[0], f[1], f[2], u, t, d);
				}
				if (u == SIM_SEQUENTIAL && m != NETLOGO) /* (netlogo's turtles turn, then all move) */
					cr_assert_gt(listed, 0, "%s %gx%g: nobody crossed a side (the test tests nothing)",
					             p.model->name, f[0], f[1]);
				sim_release(&g);
				sim_release(&b);
			}
}

/* Two particles 0.4 apart across the left and right sides see each other; one 2 inside sees neither. */
Test(torus, a_particle_sees_across_the_side)
{
	struct sim_params p;
	struct sim s;
	torus_params(&p, VICSEK, 10, 10, 0);
	p.vicsek.noise = 0;
	p.vicsek.speed = .03;
	p.update = SIM_SYNCHRONOUS;
	cr_assert_eq(sim_init(&s, &p, 3, NULL), 0);
	double x[] = { 0.2, 9.8, 2.2 }, vx[] = { .03, 0, .03 }, vy[] = { 0, .03, 0 };
	for (int i = 0; i < 3; i++)
		s.x[i] = x[i], s.y[i] = 5, s.vx[i] = vx[i], s.vy[i] = vy[i];
	cr_assert_eq(sim_step(&s), 0);
	double h = .03 / sqrt(2);
	cr_assert(fabs(s.vx[0] - h) < 1e-15 && fabs(s.vy[0] - h) < 1e-15, "%g %g", s.vx[0], s.vy[0]);
	cr_assert(fabs(s.vx[1] - h) < 1e-15 && fabs(s.vy[1] - h) < 1e-15, "%g %g", s.vx[1], s.vy[1]);
	cr_assert(s.vx[2] == .03 && s.vy[2] == 0, "%g %g", s.vx[2], s.vy[2]);
	sim_release(&s);
}

/* The synchronous order in parallel blocks: the same bytes on 1, 2 and 5 threads. */
Test(torus, synchronous_is_the_same_on_any_number_of_threads)
{
	for (size_t mi = 0; mi < 2; mi++)
		for (int dims = 2; dims <= 3; dims++) {
			int m = torus_models[mi];
			struct sim s[3];
			struct pool *pools[3] = { NULL, pool_new(2), pool_new(5) };
			for (int k = 0; k < 3; k++) {
				struct sim_params p;
				torus_params(&p, m, m == ABM ? 120 : 30, m == ABM ? 100 : 25, dims == 3 ? 20 : 0);
				p.update = SIM_SYNCHRONOUS;
				cr_assert_eq(sim_init(&s[k], &p, 5000, pools[k]), 0); /* parallel from 2048 */
				sim_randomize(&s[k], 9);
				for (int t = 0; t < 5; t++)
					cr_assert_eq(sim_step(&s[k]), 0);
			}
			for (int k = 1; k < 3; k++) {
				cr_assert_eq(memcmp(s[0].x, s[k].x, 5000 * sizeof(double)), 0, "%s %dD", s[0].p.model->name, dims);
				cr_assert_eq(memcmp(s[0].vy, s[k].vy, 5000 * sizeof(double)), 0);
				if (dims == 3)
					cr_assert_eq(memcmp(s[0].vz, s[k].vz, 5000 * sizeof(double)), 0);
			}
			for (int k = 0; k < 3; k++) {
				sim_release(&s[k]);
				pool_free(pools[k]);
			}
		}
}

/*
 * The plane test: a box whose flock lies on z = D/2 with vz = 0 moves as
 * the plane does (x, y, vx, vy to 1e-9; z and vz unchanged), both orders;
 * vicsek without noise (its noise would turn the particles out of the
 * plane), abm as it is (its order is the plane's: the same draws).
 */
Test(torus, a_flat_box_moves_as_the_plane)
{
	for (size_t mi = 0; mi < 2; mi++)
		for (int u = SIM_SEQUENTIAL; u <= SIM_SYNCHRONOUS; u++) {
			int m = torus_models[mi];
			struct sim_params p2, p3;
			struct sim a, b;
			double w = m == ABM ? 40 : 6, h = m == ABM ? 30 : 5;
			torus_params(&p2, m, w, h, 0);
			torus_params(&p3, m, w, h, 8);
			p2.vicsek.noise = p3.vicsek.noise = 0;
			p2.update = p3.update = (enum sim_update)u;
			cr_assert_eq(sim_init(&a, &p2, 200, NULL), 0);
			cr_assert_eq(sim_init(&b, &p3, 200, NULL), 0);
			sim_randomize(&a, 4);
			for (size_t i = 0; i < a.n; i++) {
				b.x[i] = a.x[i], b.y[i] = a.y[i], b.vx[i] = a.vx[i], b.vy[i] = a.vy[i];
				b.z[i] = 4, b.vz[i] = 0;
			}
			for (int t = 0; t < 30; t++) {
				cr_assert_eq(sim_step(&a), 0);
				cr_assert_eq(sim_step(&b), 0);
				double d = 0;
				for (size_t i = 0; i < a.n; i++) {
					d = fmax(d, fmax(fabs(a.x[i] - b.x[i]), fabs(a.y[i] - b.y[i])));
					d = fmax(d, fmax(fabs(a.vx[i] - b.vx[i]), fabs(a.vy[i] - b.vy[i])));
					cr_assert(b.z[i] == 4 && b.vz[i] == 0, "%s: left the plane", p2.model->name);
				}
				cr_assert(d <= 1e-9, "%s order %d step %d: the box differs from the plane by %g",
				          p2.model->name, u, t, d);
			}
			sim_release(&a);
			sim_release(&b);
		}
}

/*
 * Vicsek's order parameter v_a = |sum of the velocities| / (N v), worked
 * out here from the trajectory boids writes, is the polarization of its
 * --metrics file, frame by frame, and its --summary's final one: the
 * metrics give the paper's number (every particle moves at v).
 */
Test(torus, vicsek_va_is_the_metrics_polarization)
{
	tc_tmpdir();
	cr_assert_eq(tc_boids("-q -m vicsek -n 400 --field 10x10 --vicsek-noise 2.5 -f 30 --no-render "
	                      "--trajectory t.csv --metrics m.csv --summary s.json"), 0, "%s", tc_stderr());
	FILE *t = fopen("t.csv", "r"), *m = fopen("m.csv", "r");
	cr_assert(t && m);
	char line[512];
	cr_assert(fgets(line, sizeof line, t) && fgets(line, sizeof line, m)); /* headers */
	double sx[30] = { 0 }, sy[30] = { 0 }, pol = 0, lo = 1, hi = 0;
	int n[30] = { 0 }, frame, id;
	double x, y, vx, vy;
	while (fscanf(t, "%d,%d,%lf,%lf,%lf,%lf\n", &frame, &id, &x, &y, &vx, &vy) == 6) {
		cr_assert(frame >= 0 && frame < 30);
		sx[frame] += vx, sy[frame] += vy, n[frame]++;
	}
	for (int k = 0; k < 30; k++) {
		cr_assert_eq(fscanf(m, "%d,%lf,%*[^\n]\n", &frame, &pol), 2);
		cr_assert_eq(frame, k);
		cr_assert_eq(n[k], 400);
		double va = hypot(sx[k], sy[k]) / (400 * .03);
		cr_assert(fabs(va - pol) < 1e-12, "frame %d: v_a %.17g, polarization %.17g", k, va, pol);
		lo = fmin(lo, va), hi = fmax(hi, va);
	}
	cr_assert(hi - lo > .05, "v_a stayed at %g..%g: the test compares nothing that moves", lo, hi);
	fclose(t), fclose(m);
	char *js = tc_slurp("s.json", NULL);
	const char *key = "\"polarization\": { \"final\": ", *at = js ? strstr(js, key) : NULL;
	cr_assert_not_null(at, "%s", js);
	double fin = strtod(at + strlen(key), NULL);
	cr_assert(fabs(fin - pol) < 1e-12, "the summary's final polarization %.17g, the last frame's %.17g", fin, pol);
	free(js);
	tc_cleanup();
}

/*
 * --vicsek-density makes the field from the flock, or the flock from the
 * field: rho = 4 and -n 400 is L = 10; --field 20x20 is 1600 particles;
 * both given must agree (--print-config writes all three and reads back).
 */
Test(torus, the_density_makes_the_field_or_the_flock)
{
	tc_tmpdir();
	cr_assert_eq(tc_boids("-m vicsek --vicsek-density 4 -n 400 --print-config"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "\nfield = 10x10\n") && strstr(tc_stdout(), "\nboids = 400\n"), "%s", tc_stdout());
	cr_assert_eq(tc_boids("-m vicsek --vicsek-density 4 -n 40 --print-config"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "\nfield = 3.1622776601683795x3.1622776601683795\n"), "%s", tc_stdout());
	cr_assert_eq(tc_boids("-m vicsek --vicsek-density 2.5 --field 20x20 --print-config"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "\nboids = 1000\n"), "%s", tc_stdout());
	FILE *f = fopen("c.cfg", "w");
	cr_assert_not_null(f);
	fputs(tc_stdout(), f);
	fclose(f);
	cr_assert_eq(tc_boids("--config c.cfg --print-config"), 0, "what --print-config wrote: %s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "\nboids = 1000\n") && strstr(tc_stdout(), "\nfield = 20x20\n"), "%s",
	          tc_stdout());
	cr_assert_eq(tc_boids("-m vicsek --dims 3 --vicsek-density 2 -n 250 --print-config"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "\nfield = 5x5x5\n"), "%s", tc_stdout());
	cr_assert_eq(tc_boids("-m vicsek --vicsek-density 4 -n 40 --field 20x20 -q --no-render"), 2);
	cr_assert(strstr(tc_stderr(), "--vicsek-density 4 and --field 20x20 make 1600 boids, not --boids 40"),
	          "%s", tc_stderr());
	tc_cleanup();
}

/*
 * The crowd note measures against the model's own scene, its program's
 * field included: the paper's 300 particles in L = 25 and the large
 * version's 400 birds in 150 x 150 with vision 15 are no crowd (against
 * the picture, 640 x 360, they were 369 and 371 times its density); the
 * paper's rho = 4 is 8.4 times Fig. 1b's, and says so.
 */
Test(torus, the_crowd_note_knows_the_scenes_field)
{
	tc_tmpdir();
	cr_assert_eq(tc_boids("-m vicsek --no-render -f 1"), 0);
	cr_assert(!strstr(tc_stderr(), "note"), "%s", tc_stderr());
	cr_assert_eq(tc_boids("-m abm --abm-size large --no-render -f 1"), 0);
	cr_assert(!strstr(tc_stderr(), "note"), "%s", tc_stderr());
	cr_assert_eq(tc_boids("-m vicsek --vicsek-density 4 -n 4000 --no-render -f 1"), 0);
	cr_assert(strstr(tc_stderr(), "8.4x the density of vicsek's default scene (1.5)"), "%s", tc_stderr());
	tc_cleanup();
}
