/*
 * start — builds the flock a run starts from: the starting state from
 * --init or the seed, the worker pool, after refusing a run whose
 * memory would not fit.  Part of main (the application layer): its
 * refusals come back as a status and a message (failure.h) for main to print:
 * 2 for bad input, 1 out of memory, 128 + the signal when a stop ended
 * the reading of --init.
 */
#ifndef BOIDS_START_H
#define BOIDS_START_H

#include "config.h"
#include "failure.h"
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
 * fits the default predators into a small flock (c->sim).  Returns a
 * status, with the message in e: 2 for bad input, 1 out of memory, 128 +
 * the signal when a stop ended the wait for a FIFO's writer or a read.
 */
int start_read(struct start *f, struct config *c, struct failure *e);

/*
 * For --print-config: start_read() (the same refusals, and the same
 * settings: --init's boid count and dims), except that a --init that is
 * not a regular file (a FIFO) is neither opened nor read, its data being
 * the run's (a note says so on stderr unless -q); the file read is
 * released again.  Returns start_read()'s status.
 */
int start_preview(struct start *f, struct config *c, struct failure *e);

/*
 * Refuses (status 2, the message in e) a run whose memory would not fit:
 * what start_build() checks first, for --print-config.
 */
int start_check(const struct config *c, const struct start_budget *b, struct failure *e);

/*
 * Builds f, after start_read(), from the settings (the flock from c->sim,
 * which must outlive f): checks the memory, starts a pool of `threads`
 * workers and places the boids.  Returns a status, with the message in e:
 * 2 when the memory would not fit, 1 out of memory.
 */
int start_build(struct start *f, const struct config *c, int threads, const struct start_budget *b,
                struct failure *e);

/* Frees everything start_build() made. */
void start_release(struct start *f);

#endif
