/*
 * flock — the machinery every model's step shares, written once: the grid
 * snapshot, the two update passes (sequential with its list of escaped
 * boids, synchronous in parallel blocks), the neighbour walk, the edges,
 * the obstacles, the target, the uniform start flock and a few vector
 * helpers.  Used by the model files in src/models/ (and sim.c for the
 * target); see include/model.h.
 *
 * A step of a model, in outline (src/models/canvas.c is a short example):
 *
 *     struct flock_pass f;
 *     int err = flock_begin(&f, s, reach, slack, flock_cell(s, reach, slack));
 *     if (err)
 *         return err;
 *     flock_run(&f, one, &f);   // one(ctx, b) steers and moves boid b
 *
 * flock_begin() builds the neighbour grid over the positions and copies the
 * state into grid order (s->gx, gy, gvx, gvy; s->gpos[i] is boid i's
 * place).  one() finds the neighbours of a point with flock_cands_begin()
 * and flock_cands_next(), reading the copies.  flock_run() then calls one()
 * for every boid in one of two orders (p.update):
 *
 *   sequential   what the programs do: each boid is updated in place,
 *                position included, in index order, so later boids see the
 *                new state of earlier ones.  After each boid its copies are
 *                refreshed.  A boid that moved further than `slack` (a
 *                wrap, usually) is listed as "escaped", skipped in its old
 *                cell and chained in its new one instead; cells are that
 *                slack wider than the reach, so nobody is missed (the proof
 *                is in src/models/flock.c).
 *   synchronous  every boid reads only the copies, which stay the previous
 *                state, and writes only its own entries: parallel blocks
 *                give the same bytes with any number of threads, and the
 *                boids go in grid order, whose neighbourhoods overlap.
 *
 * Neighbours are visited cell by cell in a fixed order (then the escaped
 * boids chained in those cells, latest first), so the sums depend only on
 * the positions and the order of the updates.  Brute force
 * (SIM_SEARCH_BRUTE) is a grid of one cell: everybody, in index order.
 */
#ifndef BOIDS_FLOCK_H
#define BOIDS_FLOCK_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "grid.h"
#include "sim_types.h"

struct flock_vec {
	double x, y;
};

/* One pass of a step over the flock. */
struct flock_pass {
	struct sim *s;
	double reach2;          /* squared neighbour radius, rounded up a little */
	double slack;           /* sequential: a boid moving further escapes its cell */
	size_t nesc;            /* escaped boids so far this step (s->esc) */
};

/* Updates boid b; ctx is what the model handed to flock_run(). */
typedef void flock_one_fn(void *ctx, size_t b);

/*
 * The grid's cell edge for a pass whose boids reach `reach` pixels and move
 * at most `slack` in their turn: reach (synchronous) or reach + slack
 * (sequential), rounded up a little.
 */
double flock_cell(const struct sim *s, double reach, double slack);

/*
 * Starts a pass: builds the grid with cells of edge `cell` (brute force: one
 * cell over everything), copies the state into grid order, empties the
 * escaped list.  Returns 0 or -ENOMEM.
 */
int flock_begin(struct flock_pass *f, struct sim *s, double reach, double slack, double cell);

/*
 * Calls one(ctx, b) for every boid, in the order of s->p.update (above):
 * sequential in index order, keeping the copies current and listing
 * escaped boids (s->escaped says how many); synchronous in grid order, in
 * parallel blocks on s->pool for large flocks.
 */
void flock_run(struct flock_pass *f, flock_one_fn *one, void *ctx);

/* ------------------------------------------------------ neighbour walk */

/*
 * The 3 x 3 cells around a point as at most three runs [k, k1) of
 * grid-ordered copies, one per row.  Enough for a pass in which nobody
 * moves (harden's steering: nobody escapes); flock_cands below adds the
 * escaped boids.  Use:
 *
 *     struct flock_rows r;
 *     flock_rows_begin(&r, &s->grid, x, y);
 *     for (uint32_t k, k1; flock_rows_next(&r, &k, &k1);)
 *         for (; k < k1; k++) ...
 */
struct flock_rows {
	const struct grid *g;
	int j, j1, i0, i1;      /* next row, last row, first and last column */
};

static inline void flock_rows_begin(struct flock_rows *r, const struct grid *g, double x, double y)
{
	int cx, cy;

	grid_cell_of(g, x, y, &cx, &cy);
	r->g = g;
	r->i0 = cx > 0 ? cx - 1 : 0;
	r->i1 = cx + 1 < g->nx ? cx + 1 : cx;
	r->j = cy > 0 ? cy - 1 : 0;
	r->j1 = cy + 1 < g->ny ? cy + 1 : cy;
}

static inline int flock_rows_next(struct flock_rows *r, uint32_t *k, uint32_t *k1)
{
	if (r->j > r->j1)
		return 0;
	size_t row = (size_t)r->j++ * (size_t)r->g->nx;
	*k = r->g->start[row + (size_t)r->i0];
	*k1 = r->g->start[row + (size_t)r->i1 + 1];
	return 1;
}

/*
 * The grid-ordered copies k that may lie within the reach of a point: the
 * 3 x 3 cells around it, one contiguous run per row, minus escaped boids,
 * then the escaped boids whose new position lies in those cells (chained
 * per cell, so a query looks at its own 9 cells, never at the whole list).
 * Filter each k by its squared distance against f->reach2.  Use:
 *
 *     struct flock_cands it;
 *     flock_cands_begin(&it, f, x, y);
 *     for (uint32_t k; flock_cands_next(&it, &k);) ...
 */
struct flock_cands {
	struct flock_rows rows; /* the 3 x 3 cells */
	const unsigned char *escf;
	const uint32_t *eschead, *escnext;
	int nesc;               /* anything listed this step */
	uint32_t k, k1;         /* current run of copies */
	int ej, ei;             /* escaped phase: next cell (row, column) */
	uint32_t e;             /* next listed boid in the current chain, or UINT32_MAX */
};

static inline void flock_cands_begin(struct flock_cands *it, const struct flock_pass *f,
                                     double x, double y)
{
	flock_rows_begin(&it->rows, &f->s->grid, x, y);
	it->escf = f->s->escf;
	it->eschead = f->s->eschead;
	it->escnext = f->s->escnext;
	it->nesc = f->nesc > 0;
	it->k = it->k1 = 0;
	it->ej = it->rows.j;
	it->ei = it->rows.i0;
	it->e = UINT32_MAX;
}

static inline int flock_cands_next(struct flock_cands *it, uint32_t *k)
{
	do {
		while (it->k < it->k1) {
			uint32_t kk = it->k++;
			if (!it->escf[kk]) {
				*k = kk;
				return 1;
			}
		}
	} while (flock_rows_next(&it->rows, &it->k, &it->k1));
	if (!it->nesc)
		return 0;
	const struct flock_rows *r = &it->rows;
	for (;;) {
		if (it->e != UINT32_MAX) {
			*k = it->e;
			it->e = it->escnext[it->e];
			return 1;
		}
		if (it->ej > r->j1)
			return 0;
		it->e = it->eschead[(size_t)it->ej * (size_t)r->g->nx + (size_t)it->ei];
		if (++it->ei > r->i1) {
			it->ei = r->i0;
			it->ej++;
		}
	}
}

/* --------------------------------------------------------------- edges */

/* Bounce: inside the margin `pad`, turn back by `turn` (x first, then y). */
static inline void flock_bounce(const struct sim_params *p, double pad, double turn,
                                double x, double y, double *vx, double *vy)
{
	if (x < pad)
		*vx += turn;
	if (x > p->width - pad)
		*vx -= turn;
	if (y < pad)
		*vy += turn;
	if (y > p->height - pad)
		*vy -= turn;
}

/* Harden's wrap after a move: x < 0 -> x + W, x > W -> x - W. */
static inline void flock_wrap_add(const struct sim_params *p, double *x, double *y)
{
	if (*x < 0)
		*x += p->width;
	if (*x > p->width)
		*x -= p->width;
	if (*y < 0)
		*y += p->height;
	if (*y > p->height)
		*y -= p->height;
}

/* The Processing and canvas programs' wrap: past one edge, reappear exactly on the other. */
static inline void flock_wrap_to_edge(const struct sim_params *p, double *x, double *y)
{
	if (*x < 0)
		*x = p->width;
	else if (*x > p->width)
		*x = 0;
	if (*y < 0)
		*y = p->height;
	else if (*y > p->height)
		*y = 0;
}

/* ---------------------------------------------------- obstacles, target */

/*
 * The obstacles' push on a boid at (x, y), in pixels per step: the sum over
 * obstacles, which the caller adds to the velocity in one addition.
 */
struct flock_vec flock_obstacle_push(const struct sim_params *p, double x, double y);

/*
 * After a move: a boid inside an obstacle is put back on its circle, along
 * the line from the centre, and if heading in, its velocity is reflected.
 * Obstacles are taken one after another, in order.
 */
void flock_obstacle_wall(const struct sim_params *p, double *x, double *y, double *vx, double *vy);

/* Where the target of p.target_mode is at step t (centre of field if none). */
void flock_target(const struct sim_params *p, uint64_t t, double *x, double *y);

/*
 * The C# article's start flock: for each boid in order, four uniform
 * draws u in [0,1) from rng_seed(seed): x = u W, y = u H, vx = u - .5,
 * vy = u - .5.
 */
void flock_scatter(struct sim *s, uint64_t seed);

/* ------------------------------------------------------------- vectors */

/* (x, y) scaled to length 1; the zero vector stays zero (PVector). */
static inline void flock_unit(double *x, double *y)
{
	double m = sqrt(*x * *x + *y * *y);
	if (m > 0) {
		*x /= m;
		*y /= m;
	}
}

/* Scales (x, y) down to length max if longer (PVector.limit, LimitVelocity). */
static inline void flock_limit_length(double *x, double *y, double max)
{
	double m = sqrt(*x * *x + *y * *y);
	if (m > max) {
		*x = *x / m * max;
		*y = *y / m * max;
	}
}

/* Clamps each component into [-max, max] (the Processing sketch's clampV). */
static inline void flock_limit_components(double *x, double *y, double max)
{
	*x = *x > max ? max : *x < -max ? -max : *x;
	*y = *y > max ? max : *y < -max ? -max : *y;
}

/* A velocity that overflowed counts as rest, in every model. */
static inline void flock_contain(double *x, double *y)
{
	if (!isfinite(*x) || !isfinite(*y))
		*x = *y = 0;
}

#endif
