/*
 * 3D turns (-m steering --dims 3): Unity's Vector3.RotateTowards for every
 * pair of vectors, near-reversed included.  Thousands of boids, each alone
 * (25 px apart, the radius is 20) and seeking one fixed target, start at
 * velocities chosen against their direction to it: random, near-parallel,
 * near-reversed (10^-16 to 10^-1 rad from a reversal), exact reversals and
 * wide turns, some on the target's plane z = const.  One step later each
 * velocity must turn by min(angle, limit), have the length moved toward
 * the wanted one by at most the speed limit, point the short way, and
 * equal an independent computation: Rodrigues' rotation of the old
 * direction about the unit axis old x new (Unity's "rotate round toward
 * the target"), or, when the two are opposite to rounding, the documented
 * +angle turn (-u_y, u_x, 0).  And the one-boid command.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "sim.h"
#include "model_names.h"

#define SIDE 16                 /* boids per lattice edge */
#define N (SIDE * SIDE * SIDE)
#define GAP 25.0                /* px between boids: more than steering's radius */
#define SEEK 2.5                /* px/step: the wanted speed */
#define FLAT 8                  /* the lattice layer on the target's plane */

typedef double vec[3];

static const vec target = { 290.5, 311.25, 100 + GAP * FLAT };

static double dot3(const vec a, const vec b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static double len3(const vec a) { return sqrt(dot3(a, a)); }

static void cross3(const vec a, const vec b, vec out)
{
	vec r = { a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0] };
	memcpy(out, r, sizeof r);
}

/* The angle between a and b, accurate near 0 and near pi (acos is not). */
static double angle3(const vec a, const vec b)
{
	vec c;
	cross3(a, b, c);
	return atan2(len3(c), dot3(a, b));
}

/* Rodrigues: v rotated by th about the unit axis k. */
static void rodrigues(const vec v, const vec k, double th, vec out)
{
	vec kv;
	double c = cos(th), s = sin(th), kd = dot3(k, v) * (1 - c);
	cross3(k, v, kv);
	for (int i = 0; i < 3; i++)
		out[i] = v[i] * c + kv[i] * s + k[i] * kd;
}

/* A unit vector perpendicular to the unit vector a, at angle phi around it. */
static void perpendicular(const vec a, double phi, vec out)
{
	vec e = { 1, 0, 0 }, p, q;
	if (fabs(a[0]) > .5)
		e[0] = 0, e[1] = 1;
	cross3(a, e, p);
	double pl = len3(p);
	for (int i = 0; i < 3; i++)
		p[i] /= pl;
	cross3(a, p, q);
	for (int i = 0; i < 3; i++)
		out[i] = cos(phi) * p[i] + sin(phi) * q[i];
}

/* The boid's unit direction to the target, and the velocity the listing's sum wants (v + seek). */
static void wanted(const struct sim *s, size_t i, vec dir, vec want)
{
	vec o = { target[0] - s->x[i], target[1] - s->y[i], target[2] - s->z[i] };
	double m = len3(o);
	for (int c = 0; c < 3; c++)
		dir[c] = o[c] / m;
	double v[3] = { s->vx[i], s->vy[i], s->vz[i] };
	for (int c = 0; c < 3; c++)
		want[c] = v[c] + (dir[c] * SEEK - v[c]); /* Velocity + Seek, as summed */
}

enum kind { RANDOM, PARALLEL, REVERSED_NEAR, REVERSED_EXACT, WIDE, KINDS };

/* Boid i's start velocity, by kind, against its direction b to the target. */
static void start_velocity(unsigned short rs[3], int kind, int flat, const vec b, vec v)
{
	double sp = .3 + 3.45 * erand48(rs), phi = 2 * M_PI * erand48(rs);
	double delta = pow(10, -16 + 15 * erand48(rs)); /* 1e-16 .. 1e-1 rad */
	vec k, a;

	if (flat) { /* on the plane: the same, turned in it */
		double th = atan2(b[1], b[0]), off;
		switch (kind) {
		case RANDOM: off = 2 * M_PI * erand48(rs); break;
		case PARALLEL: off = phi < M_PI ? delta : -delta; break;
		case REVERSED_NEAR: off = M_PI + (phi < M_PI ? delta : -delta); break;
		case WIDE: off = M_PI * (5 / 6. + erand48(rs) / 6); break;
		default: off = M_PI;
		}
		if (kind != REVERSED_EXACT) {
			v[0] = sp * cos(th + off), v[1] = sp * sin(th + off), v[2] = 0;
			return;
		}
	}
	switch (kind) {
	case RANDOM:
		do
			for (int c = 0; c < 3; c++)
				a[c] = 2 * erand48(rs) - 1;
		while (len3(a) > 1 || len3(a) < .1);
		for (int c = 0; c < 3; c++)
			v[c] = a[c] / len3(a) * sp;
		return;
	case REVERSED_EXACT: /* -2^k times the seek vector: exactly opposite */
		for (int c = 0; c < 3; c++)
			v[c] = -ldexp(b[c] * SEEK, (int)(erand48(rs) * 3) - 2);
		return;
	default:
		break;
	}
	double from = kind == PARALLEL ? delta : kind == REVERSED_NEAR ? M_PI - delta
	                                                               : M_PI * (5 / 6. + erand48(rs) / 6);
	perpendicular(b, phi, k);
	rodrigues(b, k, from, a);
	for (int c = 0; c < 3; c++)
		v[c] = a[c] * sp;
}

struct tally {
	int cases[KINDS], flat, exact;
};

/*
 * One step of N lone boids with the turn limit `deg`; checks every boid
 * against the independent turn.
 */
static void check_turns(double deg, unsigned seed, struct tally *t)
{
	struct sim s;
	struct sim_params p;
	unsigned short rs[3] = { (unsigned short)seed, (unsigned short)(seed >> 16), 0x5eed };
	static vec old[N], want[N], dirs[N];

	sim_params_default(&p, 640, 640);
	p.model = model_at(STEERING);
	p.dims = 3;
	p.depth = 640;
	p.predators = 0;
	p.edges = SIM_EDGES_NONE;
	p.update = SIM_SYNCHRONOUS;
	p.target_mode = SIM_TARGET_FIXED;
	p.target_x = target[0], p.target_y = target[1], p.target_z = target[2];
	p.steer.seek_weight = SEEK;
	p.steer.arrival_radius = 0; /* seek alone */
	p.steer.max_turn = deg;
	cr_assert_eq(sim_init(&s, &p, N, NULL), 0);
	for (size_t i = 0; i < N; i++) {
		int ix = (int)(i % SIDE), iy = (int)(i / SIDE % SIDE), iz = (int)(i / SIDE / SIDE);
		s.x[i] = 100 + GAP * ix, s.y[i] = 100 + GAP * iy, s.z[i] = 100 + GAP * iz;
		s.vx[i] = s.vy[i] = s.vz[i] = 0;
		vec b, w;
		wanted(&s, i, b, w);
		int kind = (int)(i % KINDS), flat = iz == FLAT;
		start_velocity(rs, kind, flat, b, old[i]);
		s.vx[i] = old[i][0], s.vy[i] = old[i][1], s.vz[i] = old[i][2];
		wanted(&s, i, dirs[i], want[i]);
		t->cases[kind]++;
		t->flat += flat;
	}
	cr_assert_eq(sim_step(&s), 0);

	double max = p.steer.max_speed, limit = deg * M_PI / 180;
	for (size_t i = 0; i < N; i++) {
		vec r = { s.vx[i], s.vy[i], s.vz[i] }, a, b, k, ref;
		double fm = len3(old[i]), tm = len3(want[i]);
		for (int c = 0; c < 3; c++)
			a[c] = old[i][c] / fm, b[c] = want[i][c] / tm;
		double m = tm - fm > max ? fm + max : tm - fm < -max ? fm - max : tm;
		double ang = angle3(a, b), turned = angle3(a, r), kn;
		cross3(a, b, k);
		kn = len3(k);
		const char *what = i % KINDS == RANDOM ? "random" : i % KINDS == PARALLEL ? "near-parallel"
		                   : i % KINDS == REVERSED_NEAR ? "near-reversed" : i % KINDS == WIDE ? "wide"
		                   : "exact reversal";

		/* the limits: speed, length step, turn */
		cr_assert(len3(r) <= max * (1 + 1e-12), "%s boid %zu: speed %.17g over %g", what, i, len3(r), max);
		cr_assert(fabs(len3(r) - m) <= 1e-12 * m, "%s boid %zu: speed %.17g, want %.17g", what, i, len3(r), m);
		cr_assert(fabs(turned - fmin(ang, limit)) <= 1e-9, "%s boid %zu (%.3g rad from v'): turned %.17g rad, want %.17g",
		          what, i, M_PI - ang, turned, fmin(ang, limit));
		if (ang <= limit - 1e-9) { /* all the way */
			for (int c = 0; c < 3; c++)
				cr_assert(fabs(r[c] - b[c] * m) <= 1e-12 * m, "%s boid %zu: not onto v'", what, i);
			continue;
		}
		if (kn < 1e-12) { /* opposite to rounding: the documented +angle side */
			vec q = { -a[1], a[0], 0 };
			double ql = len3(q);
			if (ql > 0)
				for (int c = 0; c < 3; c++)
					q[c] /= ql;
			else
				q[0] = 1, q[1] = 0;
			for (int c = 0; c < 3; c++)
				ref[c] = (cos(limit) * a[c] + sin(limit) * q[c]) * m;
			t->exact++;
		} else { /* the short way: about old x new, the side found from it */
			for (int c = 0; c < 3; c++)
				k[c] /= kn;
			rodrigues(a, k, limit, ref);
			for (int c = 0; c < 3; c++)
				ref[c] *= m;
			cr_assert(fabs(angle3(r, b) - (ang - limit)) <= 1e-9 + 1e-15 / kn,
			          "%s boid %zu: %.17g rad left to v', want %.17g (the long way round?)", what, i,
			          angle3(r, b), ang - limit);
		}
		double tol = (1e-11 + 1e-15 / fmax(kn, 1e-12)) * m;
		for (int c = 0; c < 3; c++)
			cr_assert(fabs(r[c] - ref[c]) <= tol, "%s boid %zu (%.3g from a reversal, |a x b| %.3g): "
			          "(%.17g, %.17g, %.17g), independently (%.17g, %.17g, %.17g)", what, i, M_PI - ang, kn,
			          r[0], r[1], r[2], ref[0], ref[1], ref[2]);
		if (s.z[i] == target[2] && old[i][2] == 0) /* on the plane: stays there, turns as in 2D */
			cr_assert(r[2] == 0, "flat boid %zu left the plane: vz %.17g", i, r[2]);
	}
	sim_release(&s);
}

Test(turns, every_pair_turns_as_rotate_towards_within_the_limits)
{
	struct tally t = { 0 };
	check_turns(6.4, 1, &t);        /* the program's limit */
	check_turns(60, 2, &t);
	check_turns(179.5, 3, &t);      /* near-reversals within half a degree land on v' */
	for (int k = 0; k < KINDS; k++)
		cr_assert_gt(t.cases[k], 2000);
	cr_assert_gt(t.flat, 500);
	cr_assert_gt(t.exact, 300, "only %d pairs opposite to rounding", t.exact);
}

/*
 * The command: one boid at velocity (1, 0, 2), the target straight
 * behind it, (-40, 0, -80) away.  Its speed becomes the limit 3.75 (from
 * sqrt 5, by at most 3.75), turned by 6.4 degrees, not 0, toward +angle
 * (-u_y, u_x, 0) = +y.
 */
Test(turns, a_boid_reversing_in_3d_turns_by_the_limit_at_the_limit)
{
	tc_tmpdir();
	FILE *f = fopen("one.csv", "w");
	cr_assert_not_null(f);
	fputs("frame,id,x,y,vx,vy,z,vz\n0,0,300,180,1,0,180,2\n", f);
	fclose(f);
	cr_assert_eq(tc_boids("-m steering --dims 3 --init one.csv --target 260,180,100 -f 2 --no-render "
	                      "--trajectory o.csv"), 0, "%s", tc_stderr());
	char *csv = tc_slurp("o.csv", NULL);
	cr_assert_not_null(csv);
	const char *row = strstr(csv, "\n1,0,");
	cr_assert_not_null(row, "%s", csv);
	double x, y, vx, vy, z, vz;
	cr_assert_eq(sscanf(row, "\n1,0,%lf,%lf,%lf,%lf,%lf,%lf", &x, &y, &vx, &vy, &z, &vz), 6);
	vec v = { vx, vy, vz }, u = { 1, 0, 2 }, back = { -40, 0, -80 };
	cr_assert_float_eq(len3(v), 3.75, 1e-12, "speed %.17g", len3(v));
	cr_assert_float_eq(angle3(u, v), 6.4 * M_PI / 180, 1e-12, "turned %.17g deg", angle3(u, v) * 180 / M_PI);
	cr_assert_float_eq(angle3(back, v), (180 - 6.4) * M_PI / 180, 1e-12);
	cr_assert_float_eq(vy, 3.75 * sin(6.4 * M_PI / 180), 1e-12, "vy %.17g: not toward +angle", vy);
	free(csv);
	tc_cleanup();
}
