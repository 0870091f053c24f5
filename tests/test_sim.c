/*
 * The model: hand-worked single steps for each rule, and whole flocks
 * against refmodel.c, an independent O(N^2) transcription of the C#.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"
#include "refmodel.h"
#include "rng.h"
#include "sim.h"

/* A sim with the article's defaults in a big field with no edges. */
static void make(struct sim *s, size_t n, unsigned edges)
{
	struct sim_params p;
	sim_params_default(&p, 1000, 1000);
	p.predators = 0;
	p.edges = edges;
	cr_assert_eq(sim_init(s, &p, n, NULL), 0);
}

static void put(struct sim *s, size_t i, double x, double y, double vx, double vy)
{
	s->x[i] = x, s->y[i] = y, s->vx[i] = vx, s->vy[i] = vy;
}

#define NEAR(a, b) cr_assert_float_eq((a), (b), 1e-12, "%s = %.17g, expected %.17g", #a, (double)(a), (double)(b))

/* The speed clamp as the article's MoveForward does it, worked by hand. */
static void clamp(double *vx, double *vy)
{
	double sp = sqrt(*vx * *vx + *vy * *vy);
	if (sp > 5) { *vx = *vx / sp * 5; *vy = *vy / sp * 5; }
	else if (sp < 1) { *vx = *vx / sp; *vy = *vy / sp; }
}

Test(sim, a_boid_is_its_own_neighbour_and_sequential_align_sees_new_velocities)
{
	struct sim s;
	make(&s, 2, SIM_EDGES_NONE);
	put(&s, 0, 100, 100, 1, 0);
	put(&s, 1, 130, 100, 0, 1); /* 30 apart: flock and align, not avoid */
	sim_step(&s);

	/* A: centre (100+130)/2 = 115 -> .0045; align vx (0.5-1)*.01, vy .005 */
	double ax = 1 + (.0045 - .005), ay = 0 + (0 + .005);
	/* B sees A's new velocity (sequential): mean vx (ax+0)/2, vy (ay+1)/2 */
	double bx = 0 + (-.0045 + ((ax + 0) / 2 - 0) * .01);
	double by = 1 + (0 + ((ay + 1) / 2 - 1) * .01);
	NEAR(s.x[0], 100 + ax);
	NEAR(s.y[0], 100 + ay);
	NEAR(s.x[1], 130 + bx);
	NEAR(s.y[1], 100 + by);
	clamp(&ax, &ay); /* A is slower than 1: scaled up to the minimum */
	NEAR(s.vx[0], ax);
	NEAR(s.vy[0], ay);
	NEAR(s.vx[1], bx / sqrt(bx * bx + by * by));
	sim_release(&s);
}

Test(sim, synchronous_steers_from_the_previous_state)
{
	struct sim s;
	make(&s, 2, SIM_EDGES_NONE);
	s.p.update = SIM_SYNCHRONOUS;
	put(&s, 0, 100, 100, 1, 0);
	put(&s, 1, 130, 100, 0, 1);
	sim_step(&s);
	double bx = -.0045 + .005, by = 1 + (.5 - 1) * .01; /* B sees A's old (1, 0) */
	NEAR(s.x[1], 130 + bx);
	NEAR(s.y[1], 100 + by);
	sim_release(&s);
}

Test(sim, avoid_pushes_close_boids_apart_by_closeness)
{
	struct sim s;
	make(&s, 2, SIM_EDGES_NONE);
	put(&s, 0, 100, 100, 0, 2);
	put(&s, 1, 110, 100, 0, 2);
	sim_step(&s);
	/* closeness 20 - 10 = 10; (100 - 110) * 10 * .001 = -.1; flock +.0015 */
	double ax = 0 + (.0015 + -.1 + 0);
	/* B: the mirror image, plus align toward A's new velocity (sequential) */
	double bx = 0 + (-.0015 + .1 + ((ax + 0) / 2 - 0) * .01);
	NEAR(s.x[0], 100 + ax);
	NEAR(s.x[1], 110 + bx);
	sim_release(&s);
}

Test(sim, predators_flee_predators_too)
{
	struct sim s;
	make(&s, 3, SIM_EDGES_NONE);
	s.p.predators = 2;
	put(&s, 0, 100, 100, 0, 2); /* predator */
	put(&s, 1, 200, 100, 0, 2); /* predator, 100 away: flees predator 0 */
	put(&s, 2, 300, 400, 0, 2); /* far from both */
	sim_step(&s);
	/* closeness 150 - 100 = 50; (100 - 200) * 50 * .00005 = -.25 */
	NEAR(s.x[0], 100 - .25);
	NEAR(s.x[1], 200 + .25);
	NEAR(s.x[2], 300);
	sim_release(&s);
}

Test(sim, speed_is_clamped_after_the_move)
{
	struct sim s;
	make(&s, 3, SIM_EDGES_NONE);
	put(&s, 0, 100, 100, 6, 8);    /* speed 10: moves 10, then clamped to 5 */
	put(&s, 1, 500, 500, 0.3, 0.4);/* speed .5: moves .5, then scaled to 1 */
	put(&s, 2, 800, 800, 0, 0);    /* at rest: stays, velocity 0 not NaN */
	sim_step(&s);
	NEAR(s.x[0], 106);
	NEAR(s.y[0], 108);
	NEAR(s.vx[0], 3);
	NEAR(s.vy[0], 4);
	NEAR(s.x[1], 500.3);
	NEAR(s.vx[1], .6);
	NEAR(s.vy[1], .8);
	cr_assert_eq(s.vx[2], 0);
	cr_assert_eq(s.vy[2], 0);
	cr_assert_eq(s.x[2], 800);
	cr_assert(!isnan(s.vx[2]));
	sim_release(&s);
}

Test(sim, bounce_is_applied_after_the_move)
{
	struct sim s;
	make(&s, 2, SIM_BOUNCE);
	put(&s, 0, 52, 500, -3, 0);  /* 49 after moving: inside the pad -> turn */
	put(&s, 1, 948, 600, 3, 0);  /* 951 > 1000 - 50 -> turn back */
	sim_step(&s);
	NEAR(s.x[0], 49);
	NEAR(s.vx[0], -2.5);
	NEAR(s.x[1], 951);
	NEAR(s.vx[1], 2.5);
	sim_release(&s);
}

Test(sim, wrap_leaves_exactly_0_and_W_alone)
{
	struct sim s;
	make(&s, 4, SIM_WRAP);
	put(&s, 0, 3, 500, -3, 0);      /* lands on 0 exactly: stays */
	put(&s, 1, 998, 300, 2, 0);     /* lands on W exactly: stays */
	put(&s, 2, 1, 700, -2, 0);      /* -1 -> W - 1 */
	put(&s, 3, 400, 999, 0, 2);     /* 1001 -> 1 */
	sim_step(&s);
	cr_assert_eq(s.x[0], 0);
	cr_assert_eq(s.x[1], 1000);
	NEAR(s.x[2], 999);
	NEAR(s.y[3], 1);
	sim_release(&s);
}

/* ------------------------------------------------ whole flocks vs reference */

struct pair { struct sim s; struct ref_field f; };

static void flock(struct pair *p, size_t n, unsigned edges, enum sim_update mode,
                  enum sim_search search, uint64_t seed, struct pool *pool)
{
	struct sim_params sp;
	sim_params_default(&sp, 640, 360);
	sp.edges = edges;
	sp.update = mode;
	sp.search = search;
	cr_assert_eq(sim_init(&p->s, &sp, n, pool), 0);
	sim_randomize(&p->s, seed);
	p->f = (struct ref_field){ 640, 360, 3, !!(edges & SIM_BOUNCE), !!(edges & SIM_WRAP),
	                           mode == SIM_SYNCHRONOUS, n, calloc(n, sizeof(struct ref_boid)) };
}

static void sync_ref(struct pair *p)
{
	for (size_t i = 0; i < p->s.n; i++)
		p->f.Boids[i] = (struct ref_boid){ p->s.x[i], p->s.y[i], p->s.vx[i], p->s.vy[i] };
}

static double max_diff(const struct pair *p)
{
	double d = 0;
	for (size_t i = 0; i < p->s.n; i++) {
		d = fmax(d, fabs(p->s.x[i] - p->f.Boids[i].X));
		d = fmax(d, fabs(p->s.y[i] - p->f.Boids[i].Y));
		d = fmax(d, fabs(p->s.vx[i] - p->f.Boids[i].Xvel));
		d = fmax(d, fabs(p->s.vy[i] - p->f.Boids[i].Yvel));
	}
	return d;
}

/* Re-advances every step from the sim's own state, as the hidden reference does. */
static void follow(unsigned edges, enum sim_update mode, enum sim_search search, size_t n)
{
	struct pair p;
	flock(&p, n, edges, mode, search, 7, NULL);
	for (int step = 0; step < 200; step++) {
		sync_ref(&p);
		ref_advance(&p.f);
		sim_step(&p.s);
		double d = max_diff(&p);
		cr_assert(d <= 1e-12, "step %d differs from the reference by %g", step, d);
	}
	free(p.f.Boids);
	sim_release(&p.s);
}

Test(sim, sequential_bounce_matches_reference) { follow(SIM_BOUNCE, SIM_SEQUENTIAL, SIM_SEARCH_GRID, 150); }
Test(sim, sequential_wrap_matches_reference) { follow(SIM_WRAP, SIM_SEQUENTIAL, SIM_SEARCH_GRID, 150); }
Test(sim, synchronous_bounce_matches_reference) { follow(SIM_BOUNCE, SIM_SYNCHRONOUS, SIM_SEARCH_GRID, 150); }
Test(sim, synchronous_both_matches_reference) { follow(SIM_BOUNCE | SIM_WRAP, SIM_SYNCHRONOUS, SIM_SEARCH_GRID, 150); }
Test(sim, brute_force_matches_reference) { follow(SIM_EDGES_NONE, SIM_SEQUENTIAL, SIM_SEARCH_BRUTE, 100); }

Test(sim, sequential_and_synchronous_differ_when_align_matters)
{
	struct pair a, b;
	flock(&a, 100, SIM_BOUNCE, SIM_SEQUENTIAL, SIM_SEARCH_GRID, 3, NULL);
	flock(&b, 100, SIM_BOUNCE, SIM_SYNCHRONOUS, SIM_SEARCH_GRID, 3, NULL);
	for (int i = 0; i < 10; i++) {
		sim_step(&a.s);
		sim_step(&b.s);
	}
	double d = 0;
	for (size_t i = 0; i < 100; i++)
		d = fmax(d, fabs(a.s.vx[i] - b.s.vx[i]));
	cr_assert(d > 1e-6, "the two update modes gave the same flock");
	free(a.f.Boids);
	free(b.f.Boids);
	sim_release(&a.s);
	sim_release(&b.s);
}

Test(sim, same_seed_same_flock_other_seed_other_flock)
{
	struct pair a, b, c;
	flock(&a, 200, SIM_BOUNCE, SIM_SEQUENTIAL, SIM_SEARCH_GRID, 42, NULL);
	flock(&b, 200, SIM_BOUNCE, SIM_SEQUENTIAL, SIM_SEARCH_GRID, 42, NULL);
	flock(&c, 200, SIM_BOUNCE, SIM_SEQUENTIAL, SIM_SEARCH_GRID, 43, NULL);
	for (int i = 0; i < 50; i++) {
		sim_step(&a.s);
		sim_step(&b.s);
		sim_step(&c.s);
	}
	cr_assert_arr_eq(a.s.x, b.s.x, 200 * sizeof(double));
	cr_assert_arr_eq(a.s.vy, b.s.vy, 200 * sizeof(double));
	cr_assert(memcmp(a.s.x, c.s.x, 200 * sizeof(double)) != 0);
	free(a.f.Boids); free(b.f.Boids); free(c.f.Boids);
	sim_release(&a.s); sim_release(&b.s); sim_release(&c.s);
}

Test(sim, initial_flock_uses_four_draws_per_boid_in_order)
{
	struct sim s;
	struct rng r;
	make(&s, 5, SIM_BOUNCE);
	sim_randomize(&s, 99);
	rng_seed(&r, 99);
	for (size_t i = 0; i < 5; i++) {
		cr_assert_eq(s.x[i], rng_uniform(&r) * 1000);
		cr_assert_eq(s.y[i], rng_uniform(&r) * 1000);
		cr_assert_eq(s.vx[i], rng_uniform(&r) - .5);
		cr_assert_eq(s.vy[i], rng_uniform(&r) - .5);
	}
	sim_release(&s);
}

Test(sim, rng_is_xoshiro256starstar_seeded_by_splitmix64)
{
	/* Known answer: SplitMix64 from 0 gives e220a8397b1dcdaf first. */
	struct rng r;
	rng_seed(&r, 0);
	cr_assert_eq(r.s[0], 0xe220a8397b1dcdafULL);
	/* xoshiro256**: rotl(s1 * 5, 7) * 9, by hand. */
	uint64_t s1 = r.s[1], t = s1 * 5;
	uint64_t expect = ((t << 7) | (t >> 57)) * 9;
	cr_assert_eq(rng_next(&r), expect);
	double u = rng_uniform(&r);
	cr_assert(u >= 0 && u < 1);
}
