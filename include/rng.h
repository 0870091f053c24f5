/*
 * rng — a small seeded pseudo-random number generator.
 *
 * The algorithm is fixed and documented so that the same seed gives the same
 * flock on every machine, compiler and thread count:
 *
 *   state    xoshiro256** (Blackman & Vigna, 2018), 256 bits of state;
 *   seeding  the 64-bit seed is expanded into the four state words with
 *            SplitMix64 (the seeding procedure the xoshiro authors recommend);
 *   doubles  rng_uniform() takes the top 53 bits of one output:
 *            (next >> 11) * 2^-53, a uniform double in [0, 1).
 *
 * Nothing here allocates; a struct rng is a plain value the caller owns.
 */
#ifndef BOIDS_RNG_H
#define BOIDS_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4]; /* xoshiro256** state, never all zero */
};

/* Seeds the generator; every seed, 0 included, is valid. */
void rng_seed(struct rng *r, uint64_t seed);

/* Returns the next raw 64-bit output. */
uint64_t rng_next(struct rng *r);

/* Returns a uniform double in [0, 1) with 53 random bits. */
double rng_uniform(struct rng *r);

#endif
