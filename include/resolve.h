/*
 * resolve — the resolve step (src/resolve.c): what depends on several
 * settings, worked out once every setting is read (cli_parse() calls
 * cli_resolve()); and the flock's density, told once its boid count is
 * known.  docs/ARCHITECTURE.md, "The resolve step", walks through it.
 */
#ifndef BOIDS_RESOLVE_H
#define BOIDS_RESOLVE_H

#include <stddef.h>

#include "config.h"

/* A flock with more neighbours per boid than this many times its model's
 * default scene's is announced (cli_crowding()). */
#define CLI_CROWD_FACTOR 4.0

/* The resolve step, after every setting is read.  0 or -1 (err says why). */
int cli_resolve(struct config *c, char *err, size_t errlen);

/*
 * The resolve step's check of the flock's density, once its boid count is
 * known (after --init is read): when the neighbours a boid can expect
 * (sim_neighbours(): the flock spread evenly over the field) are more than
 * CLI_CROWD_FACTOR times those of the model's default scene (its program's
 * boid count and picture, the model's radii), writes one line into msg
 * saying so and naming the --field that gives the default density, and
 * returns 1; else 0 (msg untouched).
 */
int cli_crowding(const struct config *c, char *msg, size_t len);

#endif
