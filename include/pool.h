/*
 * pool — a fixed set of worker threads that run one parallel loop at a time.
 *
 * pool_run(p, fn, ctx, ntasks) calls fn(ctx, task) once for every task in
 * [0, ntasks) and returns when all have finished.  Which thread runs which
 * task is unspecified, so fn must write only to memory owned by its task;
 * then the result does not depend on the thread count.  The calling thread
 * works too, so a pool of one thread runs everything inline.
 */
#ifndef BOIDS_POOL_H
#define BOIDS_POOL_H

#include <stddef.h>

struct pool;

typedef void pool_task_fn(void *ctx, size_t task);

/* Starts threads - 1 workers (threads >= 1).  Returns NULL on failure. */
struct pool *pool_new(int threads);

/* Runs fn over [0, ntasks) on every thread of the pool and waits. */
void pool_run(struct pool *p, pool_task_fn *fn, void *ctx, size_t ntasks);

/* The number of threads, the caller's included. */
int pool_threads(const struct pool *p);

/* Stops and joins the workers; pool_free(NULL) does nothing. */
void pool_free(struct pool *p);

#endif
