/*
 * sim — the flock: boid state, parameters and one step of the model.
 *
 * The default model is Scott Harden's "Boids in C#" (seeds/000) exactly:
 * a steering pass (flock, align, avoid, flee predators) in index order, then
 * a move pass (move, clamp speed, bounce off walls, wrap).  docs/MODEL.md
 * gives the equations.  State is a structure of arrays of doubles.
 *
 * Lifecycle: sim_params_default() -> sim_init() -> sim_randomize() or fill
 * x/y/vx/vy yourself -> sim_step() as often as needed -> sim_release().
 * This module knows nothing of drawing, files or encoders; it never prints.
 */
#ifndef BOIDS_SIM_H
#define BOIDS_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "grid.h"

struct pool;

enum sim_edges {
	SIM_EDGES_NONE = 0,
	SIM_BOUNCE = 1 << 0, /* steer back inside a padded margin */
	SIM_WRAP = 1 << 1,   /* leave one side, come back on the other */
};

enum sim_update {
	SIM_SEQUENTIAL,  /* the seed: velocities updated in place, in index order */
	SIM_SYNCHRONOUS, /* every boid steers from the same previous state */
};

enum sim_search {
	SIM_SEARCH_GRID,  /* uniform grid, O(N) per step */
	SIM_SEARCH_BRUTE, /* every pair, O(N^2): the reference */
};

struct sim_params {
	double width, height;   /* field size in pixels, > 0 */
	size_t predators;       /* boids 0 .. predators-1 are predators */
	double flock_radius;    /* cohesion: steer to the neighbours' centre */
	double flock_weight;
	double align_radius;    /* alignment: match the neighbours' velocity */
	double align_weight;
	double avoid_radius;    /* separation: push away from close boids */
	double avoid_weight;
	double predator_radius; /* flee predators */
	double predator_weight;
	double min_speed;       /* speed clamp after moving, pixels per step */
	double max_speed;
	double wall_pad;        /* bounce: margin width, pixels */
	double wall_turn;       /* bounce: velocity change per step inside it */
	unsigned edges;         /* enum sim_edges bits */
	enum sim_update update;
	enum sim_search search;
};

struct sim {
	size_t n;               /* boids */
	double *x, *y;          /* positions, pixels */
	double *vx, *vy;        /* velocities, pixels per step */
	struct sim_params p;
	uint64_t steps;         /* sim_step() calls so far */
	/* private */
	double *nvx, *nvy;      /* synchronous mode: next velocities */
	double *gx, *gy, *gvx, *gvy; /* state in grid order, for contiguous reads */
	uint32_t *gpos;         /* index of boid i in grid order */
	struct grid grid;
	struct pool *pool;      /* borrowed, may be NULL */
};

/* Fills p with the seed's defaults for a width x height field. */
void sim_params_default(struct sim_params *p, double width, double height);

/*
 * Allocates n boids, all at rest at the origin.  pool (may be NULL) is
 * borrowed for the synchronous mode and must outlive the sim.
 * Returns 0 or -ENOMEM.
 */
int sim_init(struct sim *s, const struct sim_params *p, size_t n, struct pool *pool);

/*
 * Places every boid at random as the seed does: for each boid in order, four
 * uniform draws u in [0,1): x = u*W, y = u*H, vx = u - .5, vy = u - .5.
 */
void sim_randomize(struct sim *s, uint64_t seed);

/* Advances one step.  Returns 0 or -ENOMEM (grid growth). */
int sim_step(struct sim *s);

/* Frees the arrays; the struct may be initialised again. */
void sim_release(struct sim *s);

/* Heading of boid i in degrees as the original's GetAngle(): 0 at rest. */
double sim_heading_deg(double vx, double vy);

#endif
