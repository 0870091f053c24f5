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

/*
 * Keyed draws, for noise that must not depend on the order in which boids
 * are visited or on the thread that asks: no state, a pure function.
 *
 *   rng_mix64(z)   SplitMix64's finaliser: z += 0x9e3779b97f4a7c15, then
 *                  z ^= z >> 30, z *= 0xbf58476d1ce4e5b9, z ^= z >> 27,
 *                  z *= 0x94d049bb133111eb, z ^= z >> 31 (mod 2^64)
 *   rng_key(seed, step, key) = mix(mix(mix(seed) ^ step) ^ key)
 *   rng_key01(seed, step, key) = (rng_key(...) >> 11) x 2^-53, in [0, 1)
 *
 * (Inline: a model asks once a boid a step.)
 */
static inline uint64_t rng_mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t rng_key(uint64_t seed, uint64_t step, uint64_t key)
{
	return rng_mix64(rng_mix64(rng_mix64(seed) ^ step) ^ key);
}

static inline double rng_key01(uint64_t seed, uint64_t step, uint64_t key)
{
	return (double)(rng_key(seed, step, key) >> 11) * 0x1.0p-53;
}

#endif
