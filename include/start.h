/*
 * start — builds the flock a run starts from: the starting state from
 * --init or the seed, the worker pool, after refusing a run whose
 * memory would not fit.  Part of main (the application layer): bad input is
 * reported and exits 2, running out of memory exits 1.
 */
#ifndef BOIDS_START_H
#define BOIDS_START_H

#include "config.h"
#include "pool.h"
#include "sim.h"
#include "traj.h"

struct start {
	struct sim sim;
	struct pool *pool;
	struct traj_state init;             /* --init's state until start_build() places it */
};

/* What the rest of the run will hold, for the memory check. */
struct start_budget {
	int slots;               /* pipeline slots (0 without pictures) */
	int pic_w, pic_h;        /* picture size, pixels */
};

/*
 * The inputs, read first so that their errors come before any output's:
 * clears f, reads --init (its boid count replaces --boids in c->run) and
 * fits the default predators into a small flock (c->sim).  Exits on failure
 * (2 for bad input, 1 out of memory).
 */
void start_read(struct start *f, struct config *c);

/*
 * For --print-config: start_read() (the same refusals, and the same
 * settings: --init's boid count and dims), except that a --init that is
 * not a regular file (a FIFO) is neither opened nor read, its data being
 * the run's (a note says so on stderr unless -q); the file read is
 * released again.
 */
void start_preview(struct start *f, struct config *c);

/*
 * Refuses (exit 2) a run whose memory would not fit: what start_build()
 * checks first, for --print-config.
 */
void start_check(const struct config *c, const struct start_budget *b);

/*
 * Builds f, after start_read(), from the settings (the flock from c->sim,
 * which must outlive f): checks the memory, starts a pool of `threads`
 * workers and places the boids.  Exits on failure (2 for bad input, 1 out
 * of memory).
 */
void start_build(struct start *f, const struct config *c, int threads, const struct start_budget *b);

/* Frees everything start_build() made. */
void start_release(struct start *f);

#endif
