/*
 * The models besides the default (processing, steering, canvas), obstacles
 * and targets: hand-worked single steps with the equations of
 * docs/MODEL.md written out here, then whole-flock properties (grid against
 * brute force, thread counts, constant speed, long runs).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "pool.h"
#include "sim.h"
#include "model_names.h"

#define NEAR(a, b) cr_assert_float_eq((a), (b), 1e-12, "%s = %.17g, expected %.17g", #a, (double)(a), (double)(b))

/* One model in a 1000 x 1000 field, no edges, no target, no predators. */
static void make(struct sim *s, int m, enum sim_update u, size_t n);

/* The processing model with the sketch's limits 5 and 3 (the default) and 1/d separation. */
static void make_limited(struct sim *s, enum sim_update u, size_t n)
{
	make(s, PROCESSING, u, n);
	s->p.proc.max_force = 5;
	s->p.proc.max_speed = 3;
	s->p.proc.separation = SIM_SEP_INVERSE;
}

static void make(struct sim *s, int m, enum sim_update u, size_t n)
{
	struct sim_params p;
	sim_params_default(&p, 1000, 1000);
	p.model = model_at(m);
	p.update = u;
	p.predators = 0;
	p.edges = SIM_EDGES_NONE;
	p.target_mode = SIM_TARGET_NONE;
	cr_assert_eq(sim_init(s, &p, n, NULL), 0);
}

static void put(struct sim *s, size_t i, double x, double y, double vx, double vy)
{
	s->x[i] = x, s->y[i] = y, s->vx[i] = vx, s->vy[i] = vy;
}

/* (x, y) * f / |(x, y)|, by hand. */
static void scale_to(double *x, double *y, double f)
{
	double m = sqrt(*x * *x + *y * *y);
	*x = *x / m * f;
	*y = *y / m * f;
}

Test(models, defaults_keep_harden_and_fill_every_model)
{
	struct sim_params p;
	sim_params_default(&p, 640, 360);
	cr_assert_eq(p.model, model_at(HARDEN));
	cr_assert_eq(p.obstacles_n, 0);
	cr_assert_eq(p.harden.flock_radius, 50); /* the seed's own numbers are untouched */
	cr_assert_eq(p.proc.cohesion_radius, 40);
	cr_assert_eq(p.proc.max_speed, 3);  /* the listing is silent: its sketch's limits (issue 40) */
	cr_assert_eq(p.proc.max_force, 5);
	cr_assert_eq(p.proc.separation, SIM_SEP_UNIT);
	cr_assert_eq(p.steer.separation_steps, 1);
	cr_assert_eq(p.steer.socialize_weight, 0);
	cr_assert_eq(p.steer.steady_turn, 0);
	cr_assert_eq(p.steer.max_turn, 6.4);
	cr_assert_eq(p.steer.separation_weight, 0.01 * 25 * 25 * 25); /* Unity units scaled */
	cr_assert_eq(p.canvas.speed, 100);
	cr_assert_eq(p.canvas.dt, 1.0 / 60);
	cr_assert_eq(p.target_x, 320);
	cr_assert_eq(p.target_y, 180);
}

/* ---------------------------------------------------------- processing */

Test(models, processing_two_boids_synchronous)
{
	struct sim s;
	make_limited(&s, SIM_SYNCHRONOUS, 2);
	put(&s, 0, 100, 100, 1, 0);
	put(&s, 1, 130, 100, 0, 1); /* 30 apart: cohesion and alignment (40), not separation (10) */
	sim_step(&s);

	/* A: cohesion unit(+x) * .5, alignment unit(0, 1) * 4: a = (.5, 4), |a| < 5 */
	double ax = 1 + .5, ay = 0 + 4;
	scale_to(&ax, &ay, 3); /* |v| = 4.27 > 3 */
	/* B: cohesion unit(-x) * .5, alignment unit(1, 0) * 4: a = (3.5, 0) */
	double bx = 0 + 3.5, by = 1 + 0;
	scale_to(&bx, &by, 3); /* |v| = 3.64 > 3 */
	NEAR(s.vx[0], ax);
	NEAR(s.vy[0], ay);
	NEAR(s.x[0], 100 + ax);
	NEAR(s.y[0], 100 + ay);
	NEAR(s.vx[1], bx);
	NEAR(s.x[1], 130 + bx);
	NEAR(s.y[1], 100 + by);
	sim_release(&s);
}

Test(models, processing_sequential_sees_the_moved_boid)
{
	struct sim s;
	make_limited(&s, SIM_SEQUENTIAL, 2);
	put(&s, 0, 100, 100, 1, 0);
	put(&s, 1, 130, 100, 0, 1);
	sim_step(&s);

	double avx = 1.5, avy = 4;
	scale_to(&avx, &avy, 3);
	double ax = 100 + avx, ay = 100 + avy; /* A has moved before B looks */
	/* B: cohesion toward A's new position, alignment with A's new velocity */
	double cx = ax - 130, cy = ay - 100, lx = avx, ly = avy;
	scale_to(&cx, &cy, .5);
	scale_to(&lx, &ly, 4);
	double bx = cx + (0 + lx), by = cy + (0 + ly);
	cr_assert(sqrt(bx * bx + by * by) < 5);
	bx += 0, by += 1;
	scale_to(&bx, &by, 3);
	NEAR(s.x[1], 130 + bx);
	NEAR(s.y[1], 100 + by);
	sim_release(&s);
}

/* Three boids of the listing's scene below: A at the origin of the offsets, B 6 away, C 8 away. */
static void three(struct sim *s)
{
	put(s, 0, 100, 100, 0, 0);
	put(s, 1, 106, 100, 0, 2);  /* 6 away */
	put(s, 2, 100, 108, 2, 0);  /* 8 away */
}

Test(models, processing_listing_unit_separation_and_no_limits)
{
	struct sim s;
	make(&s, PROCESSING, SIM_SYNCHRONOUS, 3);
	s.p.proc.max_force = 0; /* the listing as written: --proc-max-force 0 --proc-max-speed 0 */
	s.p.proc.max_speed = 0;
	three(&s);
	sim_step(&s);
	/* A: separation: unit offsets (-1, 0) + (0, -1), not divided by the
	 * distance (Java's normalize() works in place, so mag() is then 1):
	 * unit (-1, -1)/sqrt 2, times 4; cohesion (.6, .8) * .5; alignment
	 * unit(2, 2) * 4 cancels the separation.  No force or speed limit. */
	double al = 4 / sqrt(2);
	double ax = .3 + (-al + al), ay = .4 + (-al + al);
	NEAR(s.vx[0], ax);
	NEAR(s.vy[0], ay);
	NEAR(s.x[0], 100 + ax);

	/* B: unit offsets from A (1, 0) and C (.6, -.8): sum (1.6, -.8); cohesion
	 * toward (100, 104): (-6, 4); alignment (1, 0): |a| about 7.9, unlimited */
	double sx = 1.6, sy = -.8, cx = -6, cy = 4;
	scale_to(&sx, &sy, 4);
	scale_to(&cx, &cy, .5);
	double bx = cx + (sx + 4), by = cy + (sy + 0);
	cr_assert_gt(sqrt(bx * bx + by * by), 5);
	NEAR(s.vx[1], bx);
	NEAR(s.vy[1], 2 + by);
	NEAR(s.x[1], 106 + bx);
	sim_release(&s);
}

/* The same scene with the defaults: the sketch's limits cap B's push at 5 and its speed at 3. */
Test(models, processing_default_limits_force_and_speed)
{
	struct sim s;
	make(&s, PROCESSING, SIM_SYNCHRONOUS, 3);
	three(&s);
	sim_step(&s);
	/* A: |a| = |(.3, .4)| = .5, under both limits: as without them */
	NEAR(s.vx[0], .3);
	NEAR(s.vy[0], .4);

	/* B: the listing's push (about 7.9) scaled to 5, added to (0, 2), scaled to 3 */
	double sx = 1.6, sy = -.8, cx = -6, cy = 4;
	scale_to(&sx, &sy, 4);
	scale_to(&cx, &cy, .5);
	double bx = cx + (sx + 4), by = cy + (sy + 0);
	scale_to(&bx, &by, 5);
	by += 2;
	cr_assert_gt(sqrt(bx * bx + by * by), 3);
	scale_to(&bx, &by, 3);
	NEAR(s.vx[1], bx);
	NEAR(s.vy[1], by);
	NEAR(s.x[1], 106 + bx);
	NEAR(s.y[1], 100 + by);
	sim_release(&s);
}

Test(models, processing_separation_is_unit_sum_of_unit_offsets_over_distance)
{
	struct sim s;
	make_limited(&s, SIM_SYNCHRONOUS, 3);
	put(&s, 0, 100, 100, 0, 0);
	put(&s, 1, 106, 100, 0, 2);  /* 6 away */
	put(&s, 2, 100, 108, 2, 0);  /* 8 away; B-C 10 apart: <= 10 counts */
	sim_step(&s);
	/* A: separation (-1/6, -1/8) -> unit (-.8, -.6), times 4;
	 * cohesion: centre (103, 104), offset (3, 4) -> (.6, .8) times .5;
	 * alignment: (2, 2) -> unit times 4 */
	double al = 4 / sqrt(2);
	double ax = .3 + (-3.2 + al), ay = .4 + (-2.4 + al);
	cr_assert(sqrt(ax * ax + ay * ay) < 3); /* no limit applies */
	NEAR(s.vx[0], ax);
	NEAR(s.vy[0], ay);
	NEAR(s.x[0], 100 + ax);
	NEAR(s.y[0], 100 + ay);

	/* B: A at 6 and C at exactly 10, both pushing: (1/6, 0) + (6, -8)/10/10;
	 * cohesion toward (100, 104); alignment (2, 0) */
	double sx = 1.0 / 6 + .06, sy = -.08, cx = -6, cy = 4, lx = 4, ly = 0;
	scale_to(&sx, &sy, 4);
	scale_to(&cx, &cy, .5);
	double bx = cx + (sx + lx), by = cy + (sy + ly);
	scale_to(&bx, &by, 5);   /* |a| = 7.4 > 5 */
	bx += 0, by += 2;
	scale_to(&bx, &by, 3);
	NEAR(s.x[1], 106 + bx);
	NEAR(s.y[1], 100 + by);
	sim_release(&s);
}

Test(models, processing_limits_by_length_or_by_component)
{
	struct sim s;
	for (int comp = 0; comp <= 1; comp++) {
		make_limited(&s, SIM_SYNCHRONOUS, 2);
		s.p.proc.alignment_weight = 10;
		s.p.proc.limit_components = comp;
		put(&s, 0, 100, 100, 0, 0);
		put(&s, 1, 130, 100, 1, 1);
		sim_step(&s);
		/* a = (.5, 0) + 10 (1, 1)/sqrt 2: length 10.4 > 5 */
		double ax = .5 + 10 / sqrt(2), ay = 10 / sqrt(2);
		if (comp) {
			NEAR(s.x[0], 103); /* (5, 5) -> v (5, 5) -> (3, 3) */
			NEAR(s.y[0], 103);
			NEAR(s.vx[0], 3);
		} else {
			scale_to(&ax, &ay, 5);
			scale_to(&ax, &ay, 3);
			NEAR(s.x[0], 100 + ax);
			NEAR(s.y[0], 100 + ay);
		}
		sim_release(&s);
	}
}

Test(models, processing_and_canvas_wrap_to_the_other_edge)
{
	struct sim s;
	int m[] = { PROCESSING, CANVAS };
	for (int i = 0; i < 2; i++) {
		make(&s, m[i], SIM_SEQUENTIAL, 2);
		double v = m[i] == CANVAS ? 100.0 / 60 : 2;
		put(&s, 0, 999.5, 500, v, 0);  /* alone: flies straight on */
		put(&s, 1, 500, 0.5, 0, -v);
		sim_step(&s);
		cr_assert_eq(s.x[0], 0);       /* past W: exactly 0, as both programs do */
		cr_assert_eq(s.y[0], 500);
		cr_assert_eq(s.y[1], 1000);    /* past 0: exactly H */
		sim_release(&s);
	}
}

Test(models, processing_jitter_is_seeded_bounded_and_per_boid)
{
	struct sim a, b, c;
	struct sim *all[] = { &a, &b, &c };
	for (int i = 0; i < 3; i++) {
		make(all[i], PROCESSING, SIM_SYNCHRONOUS, 50);
		all[i]->p.proc.jitter = 1;
		all[i]->p.noise_seed = i == 2 ? 8 : 7;
		for (size_t j = 0; j < 50; j++) /* 100 apart: alone */
			put(all[i], j, 50 + 100.0 * (double)(j % 10), 50 + 100.0 * (double)(j / 10), 0, 0);
		sim_step(all[i]);
	}
	int differ = 0;
	for (size_t j = 0; j < 50; j++) {
		cr_assert(fabs(a.vx[j]) <= 1 && fabs(a.vy[j]) <= 1);
		cr_assert_eq(a.vx[j], b.vx[j]);
		cr_assert_eq(a.vy[j], b.vy[j]);
		differ += a.vx[j] != c.vx[j];
		if (j)
			cr_assert_neq(a.vx[j], a.vx[j - 1]);
	}
	cr_assert_gt(differ, 45);
	sim_release(&a);
	sim_release(&b);
	sim_release(&c);
}

/* ------------------------------------------------------------ steering */

Test(models, steering_two_boids_rotation_limited)
{
	struct sim s;
	make(&s, STEERING, SIM_SYNCHRONOUS, 2);
	put(&s, 0, 100, 100, 1, 0);
	put(&s, 1, 110, 100, 0, 1); /* 10 apart, < 20 */
	sim_step(&s);

	/* A: cohesion (10, 0) / 100 * .05; separation (-1, 0) / 10^2 * 156.25;
	 * alignment unit((0, 1) - (1, 0)) * .25 */
	double al = .25 / sqrt(2);
	double nx = 1 + .005 + -1.5625 + -al, ny = 0 + 0 + 0 + al;
	double m = sqrt(nx * nx + ny * ny);
	cr_assert(m < 3.75);
	/* nearly reversed: the heading turns 6.4 degrees toward +y, the
	 * length goes from 1 to m (a change under the 3.75 allowed) */
	double t = 6.4 * M_PI / 180;
	NEAR(s.vx[0], cos(t) * m);
	NEAR(s.vy[0], sin(t) * m);
	NEAR(s.x[0], 100 + cos(t) * m);
	NEAR(s.y[0], 100 + sin(t) * m);

	/* B: the mirror terms, turning from (0, 1) clockwise, 1 -> bm long */
	double bx = 0 + -.005 + 1.5625 + al, by = 1 + 0 + 0 + -al;
	double a = atan2(0 * by - 1 * bx, 0 * bx + 1 * by); /* from (0, 1) to (bx, by) */
	cr_assert(fabs(a) > t);
	double bm = sqrt(bx * bx + by * by), r = a > 0 ? t : -t;
	NEAR(s.vx[1], (0 * cos(r) - 1 * sin(r)) * bm);
	NEAR(s.vy[1], (0 * sin(r) + 1 * cos(r)) * bm);
	sim_release(&s);
}

Test(models, steering_small_turns_pass_and_speed_is_limited)
{
	struct sim s;
	make(&s, STEERING, SIM_SYNCHRONOUS, 2);
	put(&s, 0, 100, 100, 3, 0);
	put(&s, 1, 115, 110, 3, .5); /* sqrt(325) = 18.03 away */
	sim_step(&s);
	double d = sqrt(325), d3 = d * d * d;
	/* A: cohesion (15, 10)/100*.05; separation -(15, 10)/d^3*156.25;
	 * alignment unit(0, .5) * .25 */
	double nx = 3 + .0075 + -15 / d3 * 156.25 + 0;
	double ny = 0 + .005 + -10 / d3 * 156.25 + .25;
	double a = atan2(ny, nx);
	cr_assert(fabs(a) < 6.4 * M_PI / 180 && sqrt(nx * nx + ny * ny) < 3.75);
	NEAR(s.vx[0], nx);
	NEAR(s.vy[0], ny);
	sim_release(&s);

	make(&s, STEERING, SIM_SYNCHRONOUS, 1);
	put(&s, 0, 100, 100, 10, 0); /* too fast (--init): LimitVelocity makes it */
	sim_step(&s);                /* 3.75, RotateTowards moves 10 by at most 3.75 */
	NEAR(s.vx[0], 6.25);
	NEAR(s.x[0], 106.25);
	sim_release(&s);
}

Test(models, steering_arrival_one_step_by_hand)
{
	struct sim s;
	make(&s, STEERING, SIM_SYNCHRONOUS, 1);
	s.p.target_mode = SIM_TARGET_FIXED;
	s.p.target_x = 300, s.p.target_y = 100;
	put(&s, 0, 100, 100, 0, 0);
	sim_step(&s);
	/* 200 > 50 away: desired (5, 0); arrival = desired - v; limit 3.75; at
	 * rest before, so no rotation limit (MoveTowards) */
	NEAR(s.vx[0], 3.75);
	NEAR(s.vy[0], 0);
	NEAR(s.x[0], 103.75);

	/* seek: unit(T - p) * w - v, added to the arrival */
	s.p.steer.seek_weight = 2;
	put(&s, 0, 100, 100, 0, 1);
	sim_step(&s);
	/* v + seek + arrival = (0, 1) + ((2, 0) - (0, 1)) + ((5, 0) - (0, 1)) =
	 * (7, -1), limited to 3.75; from (0, 1) that is 98 degrees clockwise, so
	 * the heading turns 6.4 degrees clockwise and the length grows 1 -> 3.75 */
	double t = 6.4 * M_PI / 180;
	NEAR(s.vx[0], sin(t) * 3.75);
	NEAR(s.vy[0], cos(t) * 3.75);
	sim_release(&s);
}

Test(models, steering_turns_one_fixed_way_when_the_target_is_behind)
{
	struct sim s;
	make(&s, STEERING, SIM_SYNCHRONOUS, 1);
	s.p.target_mode = SIM_TARGET_FIXED;
	s.p.target_x = 300, s.p.target_y = 498; /* behind, a little toward -y */
	s.p.steer.steady_turn = 1;
	put(&s, 0, 500, 500, 3, 0);
	sim_step(&s);
	/* the short way would be toward -y; past 150 degrees it is toward +y */
	double t = 6.4 * M_PI / 180;
	NEAR(s.vx[0], cos(t) * 3.75);
	NEAR(s.vy[0], sin(t) * 3.75);
	sim_release(&s);

	/* Unity's RotateTowards (the default): the short way, toward -y */
	make(&s, STEERING, SIM_SYNCHRONOUS, 1);
	s.p.target_mode = SIM_TARGET_FIXED;
	s.p.target_x = 300, s.p.target_y = 498;
	put(&s, 0, 500, 500, 3, 0);
	sim_step(&s);
	NEAR(s.vx[0], cos(t) * 3.75);
	NEAR(s.vy[0], -sin(t) * 3.75);
	sim_release(&s);
}

Test(models, steering_reaches_a_fixed_target_and_slows_inside_the_radius)
{
	struct sim s;
	make(&s, STEERING, SIM_SEQUENTIAL, 1);
	s.p.target_mode = SIM_TARGET_FIXED;
	s.p.target_x = 600, s.p.target_y = 400;
	put(&s, 0, 100, 100, 0, 0);
	double tx, ty;
	cr_assert_eq(sim_target(&s, &tx, &ty), 1);
	cr_assert_eq(tx, 600);
	cr_assert_eq(ty, 400);

	double prev = hypot(500, 300);
	int inside = 0;
	for (int t = 0; t < 400; t++) {
		sim_step(&s);
		double d = hypot(600 - s.x[0], 400 - s.y[0]), v = hypot(s.vx[0], s.vy[0]);
		cr_assert(d < prev + 1e-9, "step %d: moved away from the target", t);
		cr_assert(v <= 3.75 + 1e-12);
		if (prev < 50) { /* arrival: speed = 5 * distance / 50, capped */
			inside++;
			cr_assert(v <= 5 * prev / 50 + 1e-9, "step %d: %g too fast at %g", t, v, prev);
		}
		prev = d;
	}
	cr_assert_gt(inside, 10);
	cr_assert_lt(prev, 1e-3, "ended %g from the target", prev);
	sim_release(&s);
}

Test(models, lissajous_target_follows_the_documented_formula)
{
	struct sim s;
	make(&s, STEERING, SIM_SYNCHRONOUS, 1);
	s.p.target_mode = SIM_TARGET_LISSAJOUS;
	put(&s, 0, 500, 500, 0, 0);
	double x, y;
	cr_assert_eq(sim_target(&s, &x, &y), 1);
	NEAR(x, 500 + .3 * 1000); /* t = 0: cos 0 = 1, sin 0 = 0 */
	NEAR(y, 500);
	for (int i = 0; i < 100; i++)
		sim_step(&s);
	/* t = 100 of 1200: th = 30 degrees; x: cos 90 = 0, y: sin 60 */
	sim_target(&s, &x, &y);
	cr_assert_float_eq(x, 500, 1e-9);
	NEAR(y, 500 + .3 * 1000 * sqrt(3) / 2);

	/* the step steers toward the point of the step it starts from */
	put(&s, 0, 100, 900, 0, 0);
	sim_step(&s);
	double ux = x - 100, uy = y - 900;
	scale_to(&ux, &uy, 3.75);
	NEAR(s.vx[0], ux);
	NEAR(s.vy[0], uy);

	s.p.target_mode = SIM_TARGET_NONE;
	cr_assert_eq(sim_target(&s, &x, &y), 0);
	s.p.target_mode = SIM_TARGET_FIXED;
	s.p.model = model_at(HARDEN);
	cr_assert_eq(sim_target(&s, &x, &y), 0); /* only the steering model seeks */
	sim_release(&s);
}

/* -------------------------------------------------------------- canvas */

Test(models, canvas_two_boids_by_hand)
{
	struct sim s;
	make(&s, CANVAS, SIM_SYNCHRONOUS, 2);
	put(&s, 0, 100, 100, 1, 0);  /* 60 px/s */
	put(&s, 1, 110, 100, 0, 1);  /* 10 away: seen (< 50) and too close (< 15) */
	sim_step(&s);
	/* A: V = (60, 0); cohesion (10, 0)/10; separation (100 - 110, 0);
	 * alignment ((0, 100) - (60, 0)) * .05 = (-3, 5) */
	double wx = 60 + (1 + -10 + -3), wy = 0 + (0 + 0 + 5);
	scale_to(&wx, &wy, 100);
	NEAR(s.vx[0], wx / 60);
	NEAR(s.vy[0], wy / 60);
	NEAR(s.x[0], 100 + wx / 60);
	NEAR(s.y[0], 100 + wy / 60);
	/* B: V = (0, 60); cohesion (-1, 0); separation (10, 0); alignment
	 * ((100, 0) - (0, 60)) * .05 = (5, -3) */
	double bx = 0 + (-1 + 10 + 5), by = 60 + (0 + 0 + -3);
	scale_to(&bx, &by, 100);
	NEAR(s.x[1], 110 + bx / 60);
	NEAR(s.y[1], 100 + by / 60);
	sim_release(&s);
}

Test(models, canvas_alone_keeps_its_heading_at_the_constant_speed)
{
	struct sim s;
	make(&s, CANVAS, SIM_SEQUENTIAL, 2);
	put(&s, 0, 100, 100, 3, 4);   /* 5 px/step: renormalized to 100/60 */
	put(&s, 1, 800, 800, 0, 0);   /* at rest: heads along +x */
	sim_step(&s);
	NEAR(s.vx[0], .6 * 100 / 60);
	NEAR(s.vy[0], .8 * 100 / 60);
	NEAR(s.x[0], 100 + 1);
	NEAR(s.vx[1], 100.0 / 60);
	NEAR(s.vy[1], 0);
	sim_release(&s);
}

/* Local order: mean over boids of |mean heading of the boids within r, itself included|. */
static double local_order(const struct sim *s, double r)
{
	double sum = 0;
	for (size_t i = 0; i < s->n; i++) {
		double ux = 0, uy = 0;
		size_t c = 0;
		for (size_t j = 0; j < s->n; j++) {
			double d = hypot(s->x[j] - s->x[i], s->y[j] - s->y[i]);
			double m = hypot(s->vx[j], s->vy[j]);
			if (d < r && m > 0)
				ux += s->vx[j] / m, uy += s->vy[j] / m, c++;
		}
		if (c)
			sum += hypot(ux, uy) / (double)c;
	}
	return sum / (double)s->n;
}

Test(models, canvas_speed_is_constant_every_step)
{
	struct sim s;
	struct sim_params p;
	sim_params_default(&p, 640, 360);
	p.model = model_at(CANVAS);
	cr_assert_eq(sim_init(&s, &p, 200, NULL), 0);
	sim_randomize(&s, 5);
	for (int t = 0; t < 300; t++) {
		sim_step(&s);
		for (size_t i = 0; i < s.n; i++)
			cr_assert_float_eq(hypot(s.vx[i], s.vy[i]), 100.0 / 60, 1e-12, "step %d boid %zu", t, i);
	}
	sim_release(&s);
}

/* ----------------------------------------------------------- obstacles */

Test(models, harden_obstacle_push_by_hand)
{
	struct sim s;
	struct sim_obstacle o = { .x = 150, .y = 500, .r = 20 };
	make(&s, HARDEN, SIM_SEQUENTIAL, 1);
	s.p.obstacles = &o;
	s.p.obstacles_n = 1;
	put(&s, 0, 125, 500, 2, 0); /* 25 from the centre: 25 deep into 20 + 30 */
	sim_step(&s);
	/* alone, its own neighbour: every rule gives 0; push -25 * .2 = -5 */
	NEAR(s.vx[0], -3);
	NEAR(s.x[0], 122);
	sim_release(&s);
}

Test(models, a_boid_ending_inside_is_put_on_the_circle_and_bounces)
{
	struct sim s;
	struct sim_obstacle o = { .x = 150, .y = 500, .r = 20 };
	make(&s, HARDEN, SIM_SEQUENTIAL, 1);
	s.p.obstacles = &o;
	s.p.obstacles_n = 1;
	s.p.obstacle_weight = 0;      /* the wall alone */
	put(&s, 0, 127, 500, 5, 0);   /* moves to 132: 18 from the centre */
	sim_step(&s);
	NEAR(s.x[0], 130);
	NEAR(s.vx[0], -5);            /* heading in: reflected */
	sim_release(&s);

	make_limited(&s, SIM_SEQUENTIAL, 1);
	s.p.obstacles = &o;
	s.p.obstacles_n = 1;
	put(&s, 0, 160, 500, 0, 0);   /* inside: push 40 * .2 = 8, limited to 3 */
	sim_step(&s);
	NEAR(s.x[0], 170);            /* 163 is still inside: onto the circle */
	NEAR(s.vx[0], 3);             /* heading out already: kept */
	sim_release(&s);
}

Test(models, no_obstacle_no_change)
{
	struct sim a, b;
	struct sim_obstacle o = { .x = 320, .y = 180, .r = 40 };
	for (int m = HARDEN; m <= CANVAS; m++) {
		struct sim_params p;
		sim_params_default(&p, 640, 360);
		p.model = model_at(m);
		cr_assert_eq(sim_init(&a, &p, 100, NULL), 0);
		p.obstacles = &o; /* given, but none counted */
		cr_assert_eq(sim_init(&b, &p, 100, NULL), 0);
		sim_randomize(&a, 3);
		sim_randomize(&b, 3);
		for (int t = 0; t < 50; t++) {
			sim_step(&a);
			sim_step(&b);
		}
		cr_assert_arr_eq(a.x, b.x, 100 * sizeof(double));
		cr_assert_arr_eq(a.vy, b.vy, 100 * sizeof(double));
		sim_release(&a);
		sim_release(&b);
	}
}

Test(models, every_model_turns_away_from_an_obstacle_ahead)
{
	struct sim_obstacle o = { .x = 300, .y = 500, .r = 30 };
	for (int m = HARDEN; m <= CANVAS; m++) {
		struct sim s;
		make(&s, m, SIM_SEQUENTIAL, 1);
		s.p.obstacles = &o;
		s.p.obstacles_n = 1;
		double v = m == CANVAS ? 100.0 / 60 : 3;
		put(&s, 0, 100, 501, v, 0); /* heading at it, a pixel off centre */
		int away = -1;
		double closest = 1e9;
		for (int t = 0; t < 300; t++) {
			sim_step(&s);
			double dx = s.x[0] - o.x, dy = s.y[0] - o.y, d = hypot(dx, dy);
			closest = fmin(closest, d);
			if (away < 0 && d < 200 && s.vx[0] * dx + s.vy[0] * dy > 0)
				away = t;
		}
		cr_assert(closest >= o.r - 1e-9, "model %d: %g inside", m, o.r - closest);
		cr_assert(closest > o.r + 5 || m == STEERING,
		          "model %d: the push let it touch (%g)", m, closest - o.r);
		cr_assert_geq(away, 0, "model %d never turned away", m);
		sim_release(&s);

		/* without the obstacle it would have flown through the centre */
		make(&s, m, SIM_SEQUENTIAL, 1);
		put(&s, 0, 100, 501, v, 0);
		for (int t = 0; t < 300 && s.x[0] < 300; t++)
			sim_step(&s);
		cr_assert(s.x[0] >= 300 && fabs(s.y[0] - 501) < 1e-9, "model %d", m);
		sim_release(&s);
	}
}

/* ------------------------------------------------------- whole flocks */

static void flock(struct sim *s, int m, enum sim_update u, enum sim_search q,
                  unsigned edges, size_t n, double w, double h, struct pool *pool)
{
	struct sim_params p;
	sim_params_default(&p, w, h);
	p.model = model_at(m);
	p.update = u;
	p.search = q;
	p.edges = edges;
	p.proc.jitter = .5; /* exercise the noise too */
	p.noise_seed = 11;
	cr_assert_eq(sim_init(s, &p, n, pool), 0);
	sim_randomize(s, 9);
}

/* Grid and brute force from the same state, step after step (re-synced). */
static void grid_vs_brute(int m, enum sim_update u, unsigned edges)
{
	struct sim g, b;
	flock(&g, m, u, SIM_SEARCH_GRID, edges, 300, 400, 300, NULL);
	flock(&b, m, u, SIM_SEARCH_BRUTE, edges, 300, 400, 300, NULL);
	for (int t = 0; t < 150; t++) {
		tc_sim_copy(&b, &g);
		sim_step(&g);
		sim_step(&b);
		double d = tc_sim_diff(&g, &b);
		/* sums in another order: rounding, amplified by the unit vectors
		 * of nearly-cancelling sums at worst */
		cr_assert(d <= 1e-9, "model %d mode %d step %d: grid and brute force differ by %g",
		          m, u, t, d);
	}
	sim_release(&g);
	sim_release(&b);
}

Test(models, processing_grid_matches_brute_force)
{
	grid_vs_brute(PROCESSING, SIM_SEQUENTIAL, SIM_BOUNCE);
	grid_vs_brute(PROCESSING, SIM_SYNCHRONOUS, SIM_BOUNCE);
}

Test(models, steering_grid_matches_brute_force)
{
	grid_vs_brute(STEERING, SIM_SEQUENTIAL, SIM_WRAP);
	grid_vs_brute(STEERING, SIM_SYNCHRONOUS, SIM_BOUNCE | SIM_WRAP);
}

Test(models, canvas_grid_matches_brute_force)
{
	grid_vs_brute(CANVAS, SIM_SEQUENTIAL, SIM_BOUNCE);
	grid_vs_brute(CANVAS, SIM_SYNCHRONOUS, SIM_BOUNCE);
}

Test(models, synchronous_is_the_same_on_one_or_two_threads)
{
	struct pool *one = pool_new(1), *two = pool_new(2);
	cr_assert(one && two);
	for (int m = PROCESSING; m <= CANVAS; m++) {
		struct sim a, b;
		/* above the parallel threshold (2048: ten blocks of 256), at the
		 * default density */
		flock(&a, m, SIM_SYNCHRONOUS, SIM_SEARCH_GRID, SIM_BOUNCE, 2560,
		      1440, 810, one);
		flock(&b, m, SIM_SYNCHRONOUS, SIM_SEARCH_GRID, SIM_BOUNCE, 2560,
		      1440, 810, two);
		for (int t = 0; t < 20; t++) {
			sim_step(&a);
			sim_step(&b);
		}
		cr_assert_arr_eq(a.x, b.x, a.n * sizeof(double), "model %d", m);
		cr_assert_arr_eq(a.y, b.y, a.n * sizeof(double), "model %d", m);
		cr_assert_arr_eq(a.vx, b.vx, a.n * sizeof(double), "model %d", m);
		cr_assert_arr_eq(a.vy, b.vy, a.n * sizeof(double), "model %d", m);
		sim_release(&a);
		sim_release(&b);
	}
	pool_free(one);
	pool_free(two);
}

Test(models, same_seed_same_flock)
{
	for (int m = PROCESSING; m <= CANVAS; m++) {
		struct sim a, b;
		flock(&a, m, SIM_SEQUENTIAL, SIM_SEARCH_GRID, SIM_BOUNCE, 200, 640, 360, NULL);
		flock(&b, m, SIM_SEQUENTIAL, SIM_SEARCH_GRID, SIM_BOUNCE, 200, 640, 360, NULL);
		for (int t = 0; t < 100; t++) {
			sim_step(&a);
			sim_step(&b);
		}
		cr_assert_arr_eq(a.x, b.x, a.n * sizeof(double), "model %d", m);
		cr_assert_arr_eq(a.vy, b.vy, a.n * sizeof(double), "model %d", m);
		sim_release(&a);
		sim_release(&b);
	}
}

/* 300 steps of each model from the defaults: finite, in the field, flocking. */
Test(models, default_runs_stay_finite_in_the_field_and_flock)
{
	for (int m = PROCESSING; m <= CANVAS; m++) {
		struct sim s;
		struct sim_params p;
		sim_params_default(&p, 640, 360);
		p.model = model_at(m);
		cr_assert_eq(sim_init(&s, &p, 100, NULL), 0);
		sim_randomize(&s, 1);
		double before = local_order(&s, 40);
		double tx = 0, ty = 0, near = 0, out = 0;
		for (int t = 0; t < 300; t++) {
			sim_target(&s, &tx, &ty);
			sim_step(&s);
			for (size_t i = 0; i < s.n; i++) {
				cr_assert(isfinite(s.x[i]) && isfinite(s.y[i]));
				cr_assert(isfinite(s.vx[i]) && isfinite(s.vy[i]));
				if (m == STEERING) { /* bounce, weak against arrival: spills a little */
					cr_assert(s.x[i] > -150 && s.x[i] < 790 && s.y[i] > -150 && s.y[i] < 510);
					cr_assert(hypot(s.vx[i], s.vy[i]) <= 3.75 + 1e-12);
					out += s.x[i] < 0 || s.x[i] > 640 || s.y[i] < 0 || s.y[i] > 360;
				} else { /* wrap */
					cr_assert(s.x[i] >= 0 && s.x[i] <= 640 && s.y[i] >= 0 && s.y[i] <= 360);
				}
			}
		}
		double after = local_order(&s, 40);
		for (size_t i = 0; i < s.n; i++)
			near += hypot(s.x[i] - tx, s.y[i] - ty) < 100;
		if (m == STEERING) {
			cr_assert_gt(near, 66, "only %g boids near the moving target", near);
			cr_assert_lt(out / (300 * 100), .05, "%g of the time outside", out / 30000);
		}
		else
			cr_assert(after > before + .3 && after > .8,
			          "model %d: local order %g -> %g", m, before, after);
		sim_release(&s);
	}
}
