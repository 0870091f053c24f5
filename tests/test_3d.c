/*
 * Flocks in a box (--dims 3, docs/MODEL.md "3D"), through the library:
 * the plane test (a box whose flock lies on z = D/2 at rest in z moves as
 * the plane does, every model, order, search and edge mode), the third
 * axis worked by hand where a rule needed a choice (RotateTowards, the
 * spheres, the target, the start flocks), whole flocks that stay in their
 * box, wrap on z and spread in z, the thread count, and the command line's
 * 3D settings.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "pool.h"
#include "rng.h"
#include "sim.h"
#include "model_names.h"

#define NEAR(a, b) cr_assert_float_eq((a), (b), 1e-12, "%s = %.17g, expected %.17g", #a, (double)(a), (double)(b))

/* The processing listing has no limits (its flock races ever faster): the sketch's (the default), set here. */
static void calm(struct sim_params *p)
{
	if (p->model == model_at(PROCESSING)) {
		p->proc.max_speed = 3;
		p->proc.max_force = 5;
	}
}

/* Model m in a W x H x D box (dims 3), no predators, no target. */
static void box(struct sim *s, int m, enum sim_update u, size_t n, double w, double h, double d)
{
	struct sim_params p;
	sim_params_default(&p, w, h);
	p.model = model_at(m);
	p.update = u;
	p.predators = 0;
	p.edges = SIM_EDGES_NONE;
	p.target_mode = SIM_TARGET_NONE;
	p.dims = 3;
	p.depth = d;
	calm(&p);
	cr_assert_eq(sim_init(s, &p, n, NULL), 0);
	cr_assert_not_null(s->z);
	cr_assert_not_null(s->vz);
}

static void put(struct sim *s, size_t i, double x, double y, double z, double vx, double vy, double vz)
{
	s->x[i] = x, s->y[i] = y, s->z[i] = z, s->vx[i] = vx, s->vy[i] = vy, s->vz[i] = vz;
}

/* ------------------------------------------------------- the plane test */

/* The largest difference of x, y, vx, vy relative to the state's size (1 at least). */
static double plane_diff(const struct sim *a, const struct sim *b)
{
	double d = 0;
	for (size_t i = 0; i < a->n; i++) {
		double s = fmax(1, fmax(fabs(a->x[i]) + fabs(a->y[i]), fabs(a->vx[i]) + fabs(a->vy[i])));
		d = fmax(d, fabs(a->x[i] - b->x[i]) / s);
		d = fmax(d, fabs(a->y[i] - b->y[i]) / s);
		d = fmax(d, fabs(a->vx[i] - b->vx[i]) / s);
		d = fmax(d, fabs(a->vy[i] - b->vy[i]) / s);
	}
	return d;
}

/*
 * One case of the plane test: a 2D flock, and the same flock in a box
 * 200 deep at z = 100 with vz = 0 (what --init of a 2D file gives), with a
 * sphere around the circle's centre at z = 100 and the Lissajous target
 * kept on z = 100 (--target-amp-z 0): 30 steps each, the same x, y, vx, vy
 * to 1e-9 every step, z and vz untouched.
 */
static void plane_case(int m, enum sim_update u, enum sim_search search, unsigned edges)
{
	static const double depth = 200;
	struct sim_obstacle circle = { .x = 150, .y = 120, .r = 25 }, sphere = circle;
	struct sim a, b;
	struct sim_params p;

	sim_params_default(&p, 300, 240);
	p.model = model_at(m);
	p.update = u;
	p.search = search;
	p.edges = edges;
	p.target_amp_z = 0;
	p.obstacles = &circle;
	p.obstacles_n = 1;
	calm(&p);
	cr_assert_eq(sim_init(&a, &p, 150, NULL), 0);
	sim_randomize(&a, 7);
	p.dims = 3;
	p.depth = depth;
	p.target_z = depth / 2;
	sphere.z = depth / 2;
	p.obstacles = &sphere;
	cr_assert_eq(sim_init(&b, &p, 150, NULL), 0);
	sim_randomize(&b, 7); /* opengl's target speeds: the plane's, as --init keeps them */
	memcpy(b.x, a.x, a.n * sizeof(double));
	memcpy(b.y, a.y, a.n * sizeof(double));
	memcpy(b.vx, a.vx, a.n * sizeof(double));
	memcpy(b.vy, a.vy, a.n * sizeof(double));
	for (size_t i = 0; i < b.n; i++)
		b.z[i] = depth / 2, b.vz[i] = 0;
	for (int t = 0; t < 30; t++) {
		cr_assert_eq(sim_step(&a), 0);
		cr_assert_eq(sim_step(&b), 0);
		double d = plane_diff(&a, &b);
		cr_assert(d <= 1e-9, "model %d order %d search %d edges %u step %d: the box differs by %g",
		          m, u, search, edges, t, d);
		for (size_t i = 0; i < b.n; i++)
			cr_assert(b.z[i] == depth / 2 && b.vz[i] == 0,
			          "model %d order %d search %d edges %u step %d: boid %zu left the plane (z %g, vz %g)",
			          m, u, search, edges, t, i, b.z[i], b.vz[i]);
	}
	sim_release(&a);
	sim_release(&b);
}

Test(box, a_flock_on_a_plane_moves_as_the_plane_does)
{
	static const unsigned edges[] = { SIM_BOUNCE, SIM_WRAP, SIM_EDGES_NONE };
	for (int m = HARDEN; m <= OPENGL; m++)
		for (int u = SIM_SEQUENTIAL; u <= SIM_SYNCHRONOUS; u++)
			for (int s = SIM_SEARCH_GRID; s <= SIM_SEARCH_BRUTE; s++)
				for (int e = 0; e < 3; e++)
					plane_case(m, (enum sim_update)u, (enum sim_search)s, edges[e]);
}

/* ------------------------------------------------- steering, by hand */

/*
 * One boid alone seeking a far target in direction (tx, ty, tz) from
 * velocity (max, 0, 0): seek makes v' the target's direction at full
 * speed, and RotateTowards turns v toward it by 6.4 degrees at most.
 */
static void seek_from_x(double tx, double ty, double tz, int steady, double *v)
{
	struct sim s;
	box(&s, STEERING, SIM_SEQUENTIAL, 1, 1000, 1000, 1000);
	s.p.target_mode = SIM_TARGET_FIXED;
	s.p.steer.seek_weight = s.p.steer.max_speed;
	s.p.steer.arrival_radius = 0; /* arrival off: seek alone */
	s.p.steer.steady_turn = steady;
	s.p.target_x = 500 + 1e5 * tx;
	s.p.target_y = 500 + 1e5 * ty;
	s.p.target_z = 500 + 1e5 * tz;
	put(&s, 0, 500, 500, 500, s.p.steer.max_speed, 0, 0);
	cr_assert_eq(sim_step(&s), 0);
	v[0] = s.vx[0], v[1] = s.vy[0], v[2] = s.vz[0];
	NEAR(s.x[0], 500 + v[0]);
	NEAR(s.z[0], 500 + v[2]);
	sim_release(&s);
}

Test(box, steering_turns_toward_v_prime_in_their_plane_by_the_limit)
{
	double v[3], max = 3.75, t = 6.4 * M_PI / 180;

	seek_from_x(0, 0, 1, 0, v); /* up out of the picture: the turn is in the x-z plane */
	NEAR(v[0], max * cos(t));
	NEAR(v[1], 0);
	NEAR(v[2], max * sin(t));
	seek_from_x(0, 0.6, 0.8, 0, v); /* in the plane of x and (0, .6, .8) */
	NEAR(v[0], max * cos(t));
	NEAR(v[1], max * sin(t) * 0.6);
	NEAR(v[2], max * sin(t) * 0.8);
	seek_from_x(cos(0.05), 0, sin(0.05), 0, v); /* closer than the limit: all the way */
	NEAR(v[0], max * cos(0.05));
	NEAR(v[2], max * sin(0.05));
}

Test(box, steering_reversal_turns_toward_plus_angle_and_steady_keeps_that_side)
{
	double v[3], max = 3.75, t = 6.4 * M_PI / 180;

	seek_from_x(-1, 0, 0, 0, v); /* straight behind: no plane; +angle, (-a_y, a_x, 0) = +y */
	NEAR(v[0], max * cos(t));
	NEAR(v[1], max * sin(t));
	NEAR(v[2], 0);
	/* 160 degrees away toward -z: the short way turns toward -z ... */
	double a = 160 * M_PI / 180;
	seek_from_x(cos(a), 0, -sin(a), 0, v);
	NEAR(v[1], 0);
	NEAR(v[2], -max * sin(t));
	/* ... and --steer-turn steady turns toward +angle, +y, as in the plane */
	seek_from_x(cos(a), 0, -sin(a), 1, v);
	NEAR(v[0], max * cos(t));
	NEAR(v[1], max * sin(t));
	NEAR(v[2], 0);
}

/* -------------------------------------------------- spheres and target */

Test(box, a_sphere_pushes_along_the_line_from_its_centre)
{
	struct sim s;
	struct sim_obstacle o = { .x = 300, .y = 300, .z = 300, .r = 20 };
	box(&s, HARDEN, SIM_SEQUENTIAL, 1, 1000, 1000, 1000);
	s.p.obstacles = &o;
	s.p.obstacles_n = 1;
	/* 30 px from the centre along (0, .6, .8): depth 20 + 30 - 30 = 20, push 20 x .2 = 4 */
	put(&s, 0, 300, 318, 324, 2, 0, 0);
	cr_assert_eq(sim_step(&s), 0);
	NEAR(s.vx[0], 2); /* a speed of sqrt(20): within harden's clamp */
	NEAR(s.vy[0], 4 * .6);
	NEAR(s.vz[0], 4 * .8);
	NEAR(s.z[0], 324 + 3.2);
	sim_release(&s);
}

Test(box, a_boid_ending_inside_a_sphere_is_put_on_it_and_reflected)
{
	struct sim s;
	struct sim_obstacle o = { .x = 300, .y = 300, .z = 300, .r = 20 };
	box(&s, CANVAS, SIM_SEQUENTIAL, 1, 1000, 1000, 1000);
	s.p.obstacles = &o;
	s.p.obstacles_n = 1;
	s.p.obstacle_weight = 0; /* no push: the wall alone */
	double v = s.p.canvas.speed * s.p.canvas.dt;
	put(&s, 0, 300, 300, 300 - 20 - v / 2, 0, 0, v); /* heading straight in along +z */
	cr_assert_eq(sim_step(&s), 0);
	NEAR(s.x[0], 300);
	NEAR(s.y[0], 300);
	NEAR(s.z[0], 280); /* on the sphere, on the line from its centre */
	NEAR(s.vz[0], -v); /* reflected: the same speed, out */
	sim_release(&s);
}

Test(box, the_target_moves_in_z_as_documented)
{
	struct sim s;
	double x, y, z;
	box(&s, STEERING, SIM_SEQUENTIAL, 1, 640, 360, 300);
	s.p.target_mode = SIM_TARGET_LISSAJOUS;
	for (uint64_t t = 0; t < 1200; t += 97) {
		s.steps = t;
		cr_assert_eq(sim_target_box(&s, &x, &y, &z), 1);
		double th = 2 * M_PI * (double)t / 1200;
		NEAR(z, 150 + 0.3 * 300 * sin(th));
		NEAR(x, 320 + 0.3 * 640 * cos(3 * th));
	}
	s.p.target_mode = SIM_TARGET_FIXED;
	s.p.target_z = 42;
	sim_target_box(&s, &x, &y, &z);
	NEAR(z, 42);
	s.p.target_mode = SIM_TARGET_NONE;
	cr_assert_eq(sim_target_box(&s, &x, &y, &z), 0);
	NEAR(z, 150);
	sim_release(&s);
}

/* -------------------------------------------------------- start flocks */

Test(box, the_start_flocks_draw_as_documented)
{
	struct sim s;
	struct rng r;

	/* harden and processing: x, y, z, vx, vy, vz */
	box(&s, HARDEN, SIM_SEQUENTIAL, 50, 640, 360, 200);
	sim_randomize(&s, 9);
	rng_seed(&r, 9);
	for (size_t i = 0; i < s.n; i++) {
		double x = rng_uniform(&r) * 640, y = rng_uniform(&r) * 360, z = rng_uniform(&r) * 200;
		double vx = rng_uniform(&r) - .5, vy = rng_uniform(&r) - .5, vz = rng_uniform(&r) - .5;
		cr_assert(s.x[i] == x && s.y[i] == y && s.z[i] == z && s.vx[i] == vx && s.vy[i] == vy &&
		          s.vz[i] == vz, "harden boid %zu", i);
	}
	sim_release(&s);

	/* steering: Unity's box of 2 x 2 x 2 units about the centre, y up, at rest */
	box(&s, STEERING, SIM_SEQUENTIAL, 50, 640, 360, 200);
	sim_randomize(&s, 9);
	rng_seed(&r, 9);
	for (size_t i = 0; i < s.n; i++) {
		double ux = -1 + 2 * rng_uniform(&r), uy = 2 * rng_uniform(&r), uz = -1 + 2 * rng_uniform(&r);
		NEAR(s.x[i], 320 + 25 * ux);
		NEAR(s.y[i], 180 - 25 * uy);
		NEAR(s.z[i], 100 + 25 * uz);
		cr_assert(s.vx[i] == 0 && s.vy[i] == 0 && s.vz[i] == 0);
	}
	sim_release(&s);

	/* canvas: x, y, z, then a heading uniform on the sphere at the speed */
	box(&s, CANVAS, SIM_SEQUENTIAL, 50, 640, 360, 200);
	sim_randomize(&s, 9);
	rng_seed(&r, 9);
	double v = 100.0 / 60;
	for (size_t i = 0; i < s.n; i++) {
		double x = rng_uniform(&r) * 640, y = rng_uniform(&r) * 360, z = rng_uniform(&r) * 200;
		NEAR(s.x[i], x);
		NEAR(s.y[i], y);
		NEAR(s.z[i], z);
		double a = rng_uniform(&r) * 2 * M_PI, c = 2 * rng_uniform(&r) - 1, sn = sqrt(1 - c * c);
		NEAR(s.vx[i], v * sn * cos(a));
		NEAR(s.vy[i], v * sn * sin(a));
		NEAR(s.vz[i], v * c);
	}
	sim_release(&s);

	/* opengl: the plane's five draws a boid, then z and vz for each */
	struct sim plane;
	struct sim_params p;
	sim_params_default(&p, 640, 360);
	p.model = model_at(OPENGL);
	cr_assert_eq(sim_init(&plane, &p, 50, NULL), 0);
	sim_randomize(&plane, 9);
	box(&s, OPENGL, SIM_SEQUENTIAL, 50, 640, 360, 200);
	sim_randomize(&s, 9);
	rng_seed(&r, 9);
	for (size_t i = 0; i < 5 * s.n; i++)
		rng_uniform(&r);
	for (size_t i = 0; i < s.n; i++) {
		cr_assert(s.x[i] == plane.x[i] && s.vy[i] == plane.vy[i]);
		cr_assert(((double *)s.state)[i] == ((double *)plane.state)[i], "target speed %zu", i);
		double z = rng_uniform(&r) * 200, vz = (rng_uniform(&r) - .5) * 2;
		NEAR(s.z[i], z);
		NEAR(s.vz[i], vz);
	}
	sim_release(&s);
	sim_release(&plane);
}

/* --------------------------------------------------------- whole flocks */

/* Standard deviation of v[0 .. n). */
static double spread(const double *v, size_t n)
{
	double m = 0, q = 0;
	for (size_t i = 0; i < n; i++)
		m += v[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		q += (v[i] - m) * (v[i] - m);
	return sqrt(q / (double)n);
}

/*
 * Every model from its 3D start, 200 steps: the flock spreads and moves in
 * z as in x, and harden's bounce keeps it in its box (to the few pixels a
 * boid moves before it turns, as in the plane).
 */
Test(box, every_model_flocks_in_depth_and_bounce_keeps_harden_in_its_box)
{
	for (int m = HARDEN; m <= OPENGL; m++) {
		struct sim s;
		box(&s, m, SIM_SEQUENTIAL, 300, 400, 300, 250);
		s.p.edges = m == HARDEN ? SIM_BOUNCE : SIM_EDGES_NONE;
		if (m == STEERING) { /* its scene: a target (moving in z too) */
			s.p.target_mode = SIM_TARGET_LISSAJOUS;
			s.p.target_z = 125;
		}
		sim_randomize(&s, 4);
		for (int t = 0; t < 200; t++) {
			cr_assert_eq(sim_step(&s), 0);
			for (size_t i = 0; m == HARDEN && i < s.n; i++)
				cr_assert(s.z[i] >= -6 && s.z[i] <= 256, "harden boid %zu at z = %g, step %d", i, s.z[i], t);
		}
		/* spread in z as in x (not stuck on a plane), and moving in z */
		double sx = spread(s.x, s.n), sz = spread(s.z, s.n), vz = spread(s.vz, s.n), vx = spread(s.vx, s.n);
		cr_assert(sz > 0.15 * sx, "model %d: z spread %g, x spread %g", m, sz, sx);
		cr_assert(vz > 0.15 * vx, "model %d: vz spread %g, vx spread %g", m, vz, vx);
		for (size_t i = 0; i < s.n; i++)
			cr_assert(isfinite(s.z[i]) && isfinite(s.vz[i]));
		sim_release(&s);
	}
}

Test(box, wrap_brings_a_boid_back_on_the_other_side_of_the_depth)
{
	for (int m = HARDEN; m <= CANVAS; m++) {
		struct sim s;
		box(&s, m, SIM_SEQUENTIAL, 2, 400, 300, 250);
		s.p.edges = SIM_WRAP; /* harden and steering wrap when asked, the others always */
		s.p.harden.min_speed = 0;
		double v = m == CANVAS ? 100.0 / 60 : 1.5;
		put(&s, 0, 200, 150, 250 - v / 2, 0, 0, v); /* out through the far side */
		put(&s, 1, 100, 100, v / 2, 0, 0, -v);      /* out through the near side */
		cr_assert_eq(sim_step(&s), 0);
		/* harden and steering add the depth, processing and canvas land on the edge;
		 * harden moves after its search, so it lists nobody */
		double far = m == HARDEN || m == STEERING ? v / 2 : 0;
		double near = m == HARDEN || m == STEERING ? 250 - v / 2 : 250;
		cr_assert_float_eq(s.z[0], far, 1e-9, "model %d: z = %g", m, s.z[0]);
		cr_assert_float_eq(s.z[1], near, 1e-9, "model %d: z = %g", m, s.z[1]);
		cr_assert_eq(s.escaped, m == HARDEN ? 0 : 2, "model %d: %zu listed", m, s.escaped);
		sim_release(&s);
	}
}

Test(box, synchronous_boxes_give_the_same_bytes_on_one_or_two_threads)
{
	for (int m = HARDEN; m <= OPENGL; m++) {
		struct sim s[2];
		struct pool *pool[2];
		for (int k = 0; k < 2; k++) {
			struct sim_params p;
			sim_params_default(&p, 1100, 900);
			p.model = model_at(m);
			p.update = SIM_SYNCHRONOUS;
			p.dims = 3;
			p.depth = 500;
			calm(&p);
			pool[k] = pool_new(k + 1);
			cr_assert_not_null(pool[k]);
			cr_assert_eq(sim_init(&s[k], &p, 2048, pool[k]), 0);
			sim_randomize(&s[k], 3);
			for (int t = 0; t < 5; t++)
				cr_assert_eq(sim_step(&s[k]), 0);
		}
		size_t bytes = 2048 * sizeof(double);
		cr_assert_arr_eq(s[0].x, s[1].x, bytes, "model %d: x differs on 2 threads", m);
		cr_assert_arr_eq(s[0].z, s[1].z, bytes, "model %d: z differs on 2 threads", m);
		cr_assert_arr_eq(s[0].vy, s[1].vy, bytes, "model %d: vy differs on 2 threads", m);
		cr_assert_arr_eq(s[0].vz, s[1].vz, bytes, "model %d: vz differs on 2 threads", m);
		for (int k = 0; k < 2; k++) {
			sim_release(&s[k]);
			pool_free(pool[k]);
		}
	}
}

/* ---------------------------------------------------- the command line */

Test(box, print_config_of_a_box_reads_back_to_the_same_run)
{
	tc_tmpdir();
	const char *args = "-m steering --dims 3 --depth 220 --target 100,90 --target-amp-z 0.2 "
	                   "--target-freq-z 2 --obstacle 300,200,40 --obstacle 100,100,50,20 -n 40";
	cr_assert_eq(tc_boids("%s --print-config", args), 0, "%s", tc_stderr());
	char *first = strdup(tc_stdout());
	cr_assert(strstr(first, "\ndims = 3\n") && strstr(first, "\ndepth = 220\n"), "%s", first);
	cr_assert(strstr(first, "\ntarget = 100,90,110\n"), "Z is the depth's half: %s", first);
	cr_assert(strstr(first, "\nobstacle = 300,200,110,40\nobstacle = 100,100,50,20\n"), "%s", first);
	FILE *f = fopen("box.cfg", "w");
	cr_assert_not_null(f);
	fputs(first, f);
	fclose(f);
	cr_assert_eq(tc_boids("--config box.cfg --print-config"), 0, "%s", tc_stderr());
	cr_assert_str_eq(tc_stdout(), first);
	free(first);
	/* and the run itself: the same metrics from the file as from the options */
	cr_assert_eq(tc_boids("%s -q --no-render -f 20 --metrics a.csv", args), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("--config box.cfg -q --no-render -f 20 --metrics b.csv"), 0, "%s", tc_stderr());
	cr_assert(tc_same_file("a.csv", "b.csv"));
	/* a Z needs the box, wherever it was given */
	cr_assert_eq(tc_boids("--config box.cfg --dims 2 --print-config"), 2);
	cr_assert(strstr(tc_stderr(), "--obstacle") && strstr(tc_stderr(), "--dims 3"), "%s", tc_stderr());
	tc_cleanup();
}

/*
 * The plane test as a user runs it: a 2D run's frame 0 given to --init
 * with --dims 3 --depth 300 (a 2D file starts the box's flock on z = D/2,
 * at rest in z) must write the 2D run's x, y, vx, vy to 1e-9, and z = 150,
 * vz = 0, every frame; for every model, in both orders.
 */
Test(box, a_3d_run_from_a_2d_runs_start_is_the_2d_run)
{
	static const char *const models[] = { "harden", "processing", "steering", "canvas", "opengl" };
	static const char compare[] =
		"import csv, sys\n"
		"a = list(csv.DictReader(open('a.csv')))\n"
		"b = list(csv.DictReader(open('b.csv')))\n"
		"assert len(a) == len(b) > 100, (len(a), len(b))\n"
		"for r, s in zip(a, b):\n"
		"    for k in 'x', 'y', 'vx', 'vy':\n"
		"        assert abs(float(r[k]) - float(s[k])) <= 1e-9, (r, s, k)\n"
		"    assert float(s['z']) == 150 and float(s['vz']) == 0, s\n";
	tc_tmpdir();
	FILE *f = fopen("compare.py", "w");
	cr_assert_not_null(f);
	fputs(compare, f);
	fclose(f);
	for (size_t m = 0; m < 5; m++)
		for (int sync = 0; sync < 2; sync++) {
			const char *order = sync ? "--update synchronous" : "";
			cr_assert_eq(tc_boids("-q -y --no-render -f 12 -n 40 -m %s %s --trajectory a.csv", models[m], order),
			             0, "%s", tc_stderr());
			cr_assert_eq(tc_sh("awk -F, 'NR == 1 || $1 == 0' a.csv > init.csv"), 0);
			cr_assert_eq(tc_boids("-q -y --no-render -f 12 -m %s %s --dims 3 --depth 300 --target-amp-z 0 "
			                      "--init init.csv --trajectory b.csv", models[m], order), 0, "%s", tc_stderr());
			cr_assert_eq(tc_sh("%s -B compare.py 2> err.txt", tc_python()), 0, "%s %s: %s", models[m], order,
			             tc_slurp("err.txt", NULL));
		}
	tc_cleanup();
}
