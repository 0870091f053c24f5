/*
 * sim — the flock's lifecycle: parameters, boid state and one step of a model.
 *
 * The default model is Scott W. Harden's "Boids in C#" exactly;
 * four more reproduce the other seeds and the article's "OpenGL version".
 * Each is one entry of the registry (include/model.h, src/models/), and
 * every model steers around circular obstacles.  docs/MODEL.md gives the
 * equations.  State is a structure of arrays of doubles (include/sim_types.h).
 *
 * Lifecycle: sim_params_default() -> sim_init() -> sim_randomize() or fill
 * x/y/vx/vy yourself -> sim_step() as often as needed -> sim_release().
 * sim_watch() lets a caller stop a long step in its middle.
 * This module knows the models only through the registry; it knows nothing
 * of drawing, files or encoders, and it never prints.
 */
#ifndef BOIDS_SIM_H
#define BOIDS_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "sim_types.h"

/*
 * Fills p with the seed's defaults for a width x height field, every model's
 * included (each registry entry fills its own fields); the model is the
 * registry's default, harden, with no obstacles.
 */
void sim_params_default(struct sim_params *p, double width, double height);

/*
 * Allocates n boids, all at rest at the origin, and the state p->model
 * needs beyond positions and velocities (its entry's state_init).  pool
 * (may be NULL) is borrowed for the synchronous mode and must outlive the
 * sim.
 * Returns 0 or -ENOMEM.
 */
int sim_init(struct sim *s, const struct sim_params *p, size_t n, struct pool *pool);

/*
 * Places every boid at random as p.model's program does: its entry's
 * randomize (each model file documents its draws; docs/MODEL.md).
 */
void sim_randomize(struct sim *s, uint64_t seed);

/*
 * The bound of every position and velocity component, after each step:
 * a boid that would go further stays at the bound.  It keeps the state
 * finite and every sum of squares over it (metrics) far from overflow, and
 * it is what --init accepts (TRAJ_VALUE_MAX), so a trajectory boids writes
 * always reads back.
 */
#define SIM_STATE_MAX 1e9

/*
 * Advances one step of the model p.model, then keeps the state within
 * +-SIM_STATE_MAX (NaN becomes 0).  Returns 0, -ENOMEM (grid growth) or
 * -EINTR (stopped by the watch, below: nothing changed).
 * Any start state works for every model (the canvas model renormalizes
 * every velocity in its first step); sim_randomize() gives each model its
 * program's.
 */
int sim_step(struct sim *s);

/*
 * Has every later sim_step() call watch(arg, done) every few thousand
 * boids, done being the boids finished in the step so far, from whichever
 * thread works on them (several at once in a parallel pass, so it must be
 * thread-safe); watch NULL stops that.  When it returns nonzero the step
 * stops there and is undone: sim_step() returns -EINTR and the state is
 * the previous step's, bit for bit (never half a step).  A sequential
 * flock with a watch keeps its positions before the step (2 or 3 doubles a
 * boid more).
 */
void sim_watch(struct sim *s, int (*watch)(void *arg, size_t done), void *arg);

/*
 * The neighbours a boid has on average when n boids are spread evenly over
 * the field of p (w x h, or w x h x d in a box): the others inside the
 * larger of the model's two radii (its entry's ranges()), at most n - 1.
 * What a step costs grows with it: at thousands, a step of a large flock
 * takes seconds or minutes.
 */
double sim_neighbours(const struct sim_params *p, size_t n);

/*
 * A rough estimate of the CPU seconds one step of n boids spread evenly
 * over p's field takes on one core: n x (250 ns + 16 ns a neighbour), as
 * measured for harden's sequential step (10,000 to 100,000 boids at the
 * default density: 175 to 190 ns a boid; 3,000 to 20,000 boids in a
 * small field: 15 to 16 ns a neighbour; 10M: some 350 ns a boid).  A flock
 * that gathers (steering's swarm on its target) costs more than this.
 */
double sim_step_seconds(const struct sim_params *p, size_t n);

/*
 * The target the next sim_step() steers toward, in pixels, for drawing:
 * (target_x, target_y), or the Lissajous point at t = s->steps, or the
 * field's centre for SIM_TARGET_NONE.  Returns 1 when the model uses it
 * (its entry has MODEL_TARGET, and a target is set), else 0: then draw no
 * marker.
 */
int sim_target(const struct sim *s, double *x, double *y);

/*
 * sim_target() with the target's depth in *z (target_z, or the Lissajous
 * z at t = s->steps; D/2 when none is set), for drawing a box; z may be
 * NULL.
 */
int sim_target_box(const struct sim *s, double *x, double *y, double *z);

/*
 * sim_target_box() as it was `back` steps ago (back <= s->steps): where the
 * target stood for an earlier step, for a frame drawn between two steps.
 */
int sim_target_back(const struct sim *s, uint64_t back, double *x, double *y, double *z);

/*
 * Does the field wrap around for this flock?  True with --edges wrap or
 * both, and always for the models whose programs wrap (MODEL_WRAPS:
 * processing, canvas).
 * Metrics use it for minimum-image distances.
 */
int sim_wraps(const struct sim *s);

/* Frees the arrays; the struct may be initialised again. */
void sim_release(struct sim *s);

#endif
