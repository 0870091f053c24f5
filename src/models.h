/*
 * models — the rule sets besides the C# article's, and what every model
 * shares (obstacles, the target).  Private to sim.c: the public API is
 * sim_step() and sim_target() in include/sim.h.
 */
#ifndef BOIDS_MODELS_H
#define BOIDS_MODELS_H

#include <stdint.h>

#include "sim.h"

/* Fills the fields of every model but harden with their defaults. */
void models_params_default(struct sim_params *p);

/* sim_randomize() for SIM_STEERING and SIM_CANVAS (see include/sim.h). */
void models_randomize(struct sim *s, uint64_t seed);

/*
 * One step of p.model (not SIM_HARDEN); the caller counts it in s->steps.
 * Returns 0 or -ENOMEM (grid growth).
 */
int models_step(struct sim *s);

struct models_vec {
	double x, y;
};

/*
 * The obstacles' push on a boid at (x, y), in pixels per step: the sum over
 * obstacles, which the caller adds to the velocity in one addition.
 */
struct models_vec models_obstacle_push(const struct sim_params *p, double x, double y);

/*
 * After a move: a boid inside an obstacle is put back on its circle, along
 * the line from the centre, and if heading in, its velocity is reflected.
 * Obstacles are taken one after another, in order.
 */
void models_obstacle_wall(const struct sim_params *p, double *x, double *y,
                          double *vx, double *vy);

/* Where the target of p.target_mode is at step t (centre of field if none). */
void models_target(const struct sim_params *p, uint64_t t, double *x, double *y);

#endif
