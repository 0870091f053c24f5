/*
 * flock — the machinery every model's step shares, written once: the grid
 * snapshot, the two update passes (sequential with its list of escaped
 * boids, synchronous in parallel blocks), the neighbour walk, the edges,
 * the obstacles, the target, the uniform start flock, the noise hash and
 * a few vector helpers.  Used by the model files in src/models/ (and sim.c for the
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
 * state into grid order (records s->g2, in a box s->g3;
 * s->gpos[i] is boid i's place).  one() finds the neighbours of a point
 * with flock_cands_begin() and flock_cands_next(), reading the copies
 * through flock_copy_at() and flock_copy_vel().
 * flock_run() then calls one() for every boid in one of two orders
 * (p.update):
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
 * In a box (p.dims 3: s->z not NULL) the grid has layers and a query
 * visits 3 x 3 x 3 cells, everything else is the same.
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

/* A vector of the flock's space: z is 0, and never read, in a plane. */
struct flock_vec {
	double x, y, z;
};

/*
 * The models' per-boid code is written once for both spaces: it takes the
 * dimension as a constant flag (d3: 0 in a plane, 1 in a box; z arrays
 * NULL in a plane) and is forced inline into one small function per space,
 * so the plane's compiles to the plane's arithmetic alone, operation for
 * operation what it was before there was a box.  The helpers below take
 * the third component as a pointer, NULL in a plane, for the same reason.
 */
#define FLOCK_INLINE static inline __attribute__((always_inline))

/* The third component's pointer for the helpers: &v in a box, NULL in a plane. */
#define FLOCK_Z(d3, v) ((d3) ? &(v) : NULL)

/*
 * Copy k's position and velocity (z 0 in a plane).  One record a boid
 * (s->g2 of four doubles, in a box s->g3 of six), because a query reads 3
 * (9) runs of copies, and at millions of boids, in the sequential pass's
 * index order, each run is a cache miss per stream: six arrays made 54
 * streams a query in a box, the records 9; in a plane four arrays made 12
 * and some 16 lines a query, the records 3 and some 6, and each boid's
 * refreshed copy dirties one line, not four.
 */
FLOCK_INLINE struct flock_vec flock_copy_at(const struct sim *s, uint32_t k, int d3)
{
	if (d3)
		return (struct flock_vec){ s->g3[k].x, s->g3[k].y, s->g3[k].z };
	return (struct flock_vec){ s->g2[k].x, s->g2[k].y, 0 };
}

FLOCK_INLINE struct flock_vec flock_copy_vel(const struct sim *s, uint32_t k, int d3)
{
	if (d3)
		return (struct flock_vec){ s->g3[k].vx, s->g3[k].vy, s->g3[k].vz };
	return (struct flock_vec){ s->g2[k].vx, s->g2[k].vy, 0 };
}

/*
 * A later boid's cells asked for a line at a time (a box's sequential pass
 * at 1M boids): nine runs of records are some 160 lines, and asked for all
 * at once they fill the processor's queue of misses, which then stalls the
 * work in hand; trickled, one line a candidate read, they arrive while it
 * goes on.  Hints only.
 */
struct flock_trickle {
	const char *at;         /* the next line to ask for */
	size_t left;            /* lines left in the current run, from at */
	int run, runs;          /* the next run of r[]; how many (all zero: nothing) */
	struct {
		const char *at;     /* its first line */
		size_t lines;
	} r[9];
};

/* Asks for the next line, if any is left. */
FLOCK_INLINE void flock_trickle_one(struct flock_trickle *t)
{
	if (!t->left) {
		if (t->run == t->runs)
			return;
		t->at = t->r[t->run].at;
		t->left = t->r[t->run].lines;
		t->run++;
	}
	__builtin_prefetch(t->at);
	t->at += 64;
	t->left--;
}

enum { FLOCK_LANES = 4 }; /* a model's own arrays a pass hints (struct flock_pass) */

/* One pass of a step over the flock. */
struct flock_pass {
	struct sim *s;
	double reach2;          /* squared neighbour radius, rounded up a little */
	double slack;           /* sequential: a boid moving further escapes its cell */
	double span;            /* on a torus: the half-width a query's cells must cover
	                         * (reach, + slack in a sequential pass, + rounding room) */
	int still;              /* flock_begin()'s slack was FLOCK_STILL: one() moves nobody */
	size_t nesc;            /* escaped boids so far this step (s->esc) */
	struct flock_trickle *trickle; /* or NULL: lines to ask for while reading */
	const uint32_t *order;  /* sequential: the boids' turns, a permutation of 0..n-1
	                         * the model may set after flock_begin(); NULL: index order */
	struct grid_array lanes[FLOCK_LANES]; /* arrays of its own in grid order the model's */
	int nlanes;             /* queries read, asked for ahead with the copies (set after
	                         * flock_begin(): abm's lane-friendly copies); 0: none */
};

/*
 * Whether a boid that moved by (dx, dy, dz) in its turn of a sequential pass
 * escapes its cell (the pass lists it: see flock.c, above sequential()):
 * further than the slack allows.  dz 0 in a plane.
 */
static inline int flock_escapes(const struct flock_pass *f, double dx, double dy, double dz, int d3)
{
	double m2 = dx * dx + dy * dy + (d3 ? dz * dz : 0), allowed = f->slack * (1 + 1e-9);
	return !(m2 <= allowed * allowed); /* (squares: no root a boid) */
}

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
 *
 * slack FLOCK_STILL declares a pass whose one() moves nobody (harden's
 * steering changes velocities only): nobody can escape, so the sequential
 * pass checks and lists nobody, allocates no chain heads and reads no
 * flags, and a stopped step takes the positions back from the copies
 * instead of saving them first (16 bytes a boid less: at 10M boids, 160
 * MB).  One() of such a pass must not move its boid, and writes its new
 * velocity to s->nvx, s->nvy (s->nvz), leaving s->vx... as the step
 * began, in both orders: the sequential pass refreshes each boid's copy
 * from them after its turn, saves no velocities for an undo (s->vx...
 * are the undo), and the model swaps them in after flock_run() (which a
 * stopped step's flock_undo() expects).  A sequential still pass leaves
 * the grid's items unwritten (grid_place_no_items()): nothing reads them.
 * A slack of 0 is not that: a model whose bound comes out 0 (opengl with
 * zero speeds, whose walls and pushes still move boids) lists every boid
 * that moves at all.
 */
#define FLOCK_STILL (-1.0)

int flock_begin(struct flock_pass *f, struct sim *s, double reach, double slack, double cell);

/*
 * flock_begin() over the flock's own bounding box instead of the field
 * (grid_count_box_from()): for a model in open space (couzin with --edges
 * none), whose flock flies out of the field, where the field's grid would
 * pile it into the border cells and every query would read whole rows of
 * the flock.  O(n) more a step: one read of the positions.
 */
int flock_begin_open(struct flock_pass *f, struct sim *s, double reach, double slack, double cell);

/*
 * flock_begin() for a model whose space is a torus (vicsek, abm), with
 * cells of flock_cell(s, reach, slack): every position taken onto the
 * torus first (flock_torus_wrap(): an --init from anywhere starts there),
 * as the torus walk needs (flock_torus_begin()).
 */
int flock_begin_torus(struct flock_pass *f, struct sim *s, double reach, double slack);

/*
 * Calls one(ctx, b) for every boid, in the order of s->p.update (above):
 * sequential in index order, keeping the copies current and listing
 * escaped boids (s->escaped says how many); synchronous in grid order, in
 * parallel blocks on s->pool for large flocks.
 */
void flock_run(struct flock_pass *f, flock_one_fn *one, void *ctx);

/*
 * After a still pass (flock_begin()'s FLOCK_STILL), its new velocities in
 * s->nvx... become the boids' (the arrays swapped: nvx... then hold the
 * velocities the step began with, which flock_undo() expects).
 */
void flock_take_next(struct sim *s);

/*
 * With s->watch set, both orders ask it every few thousand boids; when it
 * says stop, the pass ends there and s->stopped is set.  flock_undo() then
 * puts back the state the step started from (sequential: the boids that
 * had their turn from s->undo (a still pass: their copies) and nvx...
 * (a still pass's model swapped them there), the others from their copies;
 * synchronous: everybody from the copies), whatever the model did after
 * the pass, and clears s->stopped.
 */
void flock_undo(struct sim *s);

/* ------------------------------------------------------ neighbour walk */

/*
 * The 3 x 3 cells around a point (3 x 3 x 3 in a box; z is ignored in a
 * plane) as runs [k, k1) of grid-ordered copies, one per row (and layer).
 * Enough for a pass in which nobody moves (harden's steering: nobody
 * escapes); flock_cands below adds the escaped boids.  Use:
 *
 *     struct flock_rows r;
 *     flock_rows_begin(&r, &s->grid, x, y, z);
 *     for (uint32_t k, k1; flock_rows_next(&r, &k, &k1);)
 *         for (; k < k1; k++) ...
 */
struct flock_rows {
	const uint32_t *start;  /* the grid's offsets into its items */
	struct grid_runs runs;  /* the cells, a run per row */
};

/* (The walk is forced inline too: called for every candidate, a call would
 * spill every running sum of the model's loop around it.) */

FLOCK_INLINE void flock_rows_begin(struct flock_rows *r, const struct grid *g,
                                   double x, double y, double z)
{
	r->start = g->start;
	grid_runs_begin(&r->runs, g, x, y, z);
}

FLOCK_INLINE int flock_rows_next(struct flock_rows *r, uint32_t *k, uint32_t *k1)
{
	uint32_t c0, c1;

	if (!grid_runs_next(&r->runs, &c0, &c1))
		return 0;
	*k = r->start[c0];
	*k1 = r->start[c1 + 1];
	return 1;
}

/*
 * The grid-ordered copies k that may lie within the reach of a point: the
 * cells around it (flock_rows), one contiguous run per row, minus escaped
 * boids, then the escaped boids whose new position lies in those cells
 * (chained per cell, so a query looks at its own 9 or 27 cells, never at
 * the whole list).  Filter each k by its squared distance against
 * f->reach2.  Use:
 *
 *     struct flock_cands it;
 *     flock_cands_begin(&it, f, x, y, z);
 *     for (uint32_t k; flock_cands_next(&it, &k);) ...
 */
struct flock_cands {
	struct flock_rows rows; /* the cells around the point */
	const unsigned char *escf;
	const uint32_t *eschead, *escnext;
	int nesc;               /* anything listed this step */
	uint32_t k, k1;         /* current run of copies */
	struct grid_runs cells; /* the chains' phase: the same cells again */
	uint32_t c, c1;         /* the chains' phase: next cell, last of its run */
	uint32_t e;             /* next listed boid in the current chain, or UINT32_MAX */
	struct flock_trickle *trickle; /* f->trickle */
};

FLOCK_INLINE void flock_cands_begin(struct flock_cands *it, const struct flock_pass *f,
                                    double x, double y, double z)
{
	flock_rows_begin(&it->rows, &f->s->grid, x, y, z);
	it->escf = f->s->escf;
	it->eschead = f->s->eschead;
	it->escnext = f->s->escnext;
	it->nesc = f->nesc > 0;
	it->cells = it->rows.runs;
	it->k = it->k1 = 0;
	it->c = 1, it->c1 = 0; /* no cell yet */
	it->e = UINT32_MAX;
	it->trickle = f->trickle;
}

FLOCK_INLINE int flock_cands_next(struct flock_cands *it, uint32_t *k)
{
	if (it->trickle)
		flock_trickle_one(it->trickle);
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
	for (;;) {
		if (it->e != UINT32_MAX) {
			*k = it->e;
			it->e = it->escnext[it->e];
			return 1;
		}
		if (it->c > it->c1 && !grid_runs_next(&it->cells, &it->c, &it->c1))
			return 0;
		it->e = it->eschead[it->c++];
	}
}

/*
 * The neighbours of a point within the pass's reach, one at a time: what
 * every model's rules loop over (flock_cands filtered by distance).  Each
 * comes as a struct flock_near: where it is and how far, so a rule reads
 * only its own sums.  The boid itself is among them (nb.k == s->gpos[b]),
 * at distance 0.  Use:
 *
 *     struct flock_nbrs it;
 *     flock_near_begin(&it, f, x, y, z, d3);
 *     for (struct flock_near nb; flock_near_next(&it, &nb);) ...
 */
struct flock_near {
	uint32_t k;             /* its grid-ordered copy: flock_copy_vel(s, k, d3), s->grid.items[k] */
	struct flock_vec q;     /* its position */
	double dx, dy, dz;      /* q minus the point (dz 0 in a plane) */
	double d2;              /* squared distance, at most f->reach2 */
};

struct flock_nbrs {
	struct flock_cands it;
	const struct sim *s;
	double x, y, z;         /* the point */
	double reach2;
	int d3;                 /* in a box: a constant where the caller's is */
};

FLOCK_INLINE void flock_near_begin(struct flock_nbrs *n, const struct flock_pass *f, double x, double y,
                                   double z, int d3)
{
	flock_cands_begin(&n->it, f, x, y, z);
	n->s = f->s;
	n->x = x, n->y = y, n->z = z;
	n->reach2 = f->reach2;
	n->d3 = d3;
}

/* The next neighbour within reach into *nb: 1, or 0 when there is none left. */
FLOCK_INLINE int flock_near_next(struct flock_nbrs *n, struct flock_near *nb)
{
	for (uint32_t k; flock_cands_next(&n->it, &k);) {
		struct flock_vec q = flock_copy_at(n->s, k, n->d3);
		double dx = q.x - n->x, dy = q.y - n->y, dz = n->d3 ? q.z - n->z : 0;
		double d2 = dx * dx + dy * dy;
		if (n->d3)
			d2 += dz * dz;
		if (!(d2 <= n->reach2))
			continue;
		*nb = (struct flock_near){ k, q, dx, dy, dz, d2 };
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------ on a torus */

/*
 * The neighbour walk of a model whose space is a torus (vicsek, abm: the
 * field wraps, and a boid sees across every edge): positions must lie in
 * [0, W) x [0, H) (x [0, D)), which flock_torus_wrap() keeps, and the
 * offsets are the minimum image, q - p less the field's side when that is
 * shorter the other way round.  A query visits the cells that overlap
 * [p - span, p + span] on each axis (f->span: the reach, plus the slack in
 * a sequential pass), wrapped: one run of cells a row, or two where the
 * interval crosses an edge, and the whole axis once when it covers it, so
 * no cell is visited twice; the grid's last cell may be shorter, which the
 * interval handles as it is.  Then, as flock_cands, the escaped boids
 * chained in those cells.  Each neighbour within reach comes as a struct
 * flock_near (dx, dy, dz the minimum image).  Use:
 *
 *     struct flock_torus it;
 *     flock_torus_begin(&it, f, x, y, z, d3);
 *     for (struct flock_near nb; flock_torus_next(&it, &nb);) ...
 *
 * The minimum image costs no test a candidate: a run of cells lies on one
 * side of the point, so its offsets are q - p plus the run's shift (0, or
 * -W for cells across the left side seen from near it, +W across the
 * right), which is the minimum image bit for bit ((q - p) - W either way)
 * for every candidate within reach; only an axis the interval covers whole
 * (a field under two spans across) takes the minimum image one by one.  A
 * model whose loop is hot walks the runs itself (flock_torus_walk_run(),
 * flock_torus_walk_chain(): abm, vicsek).
 */
struct flock_axis {
	uint32_t lo[2], hi[2];  /* ranges of cells, both ends included */
	double shift[2];        /* each range's offset shift: 0, -side or +side */
	int n;                  /* 1 or 2 ranges */
	int wide;               /* the whole axis: the minimum image a candidate */
};

/* The cells of [x - span, x + span] on a circle of `side` cut into n cells (inv: 1 / their edge). */
static inline void flock_axis_span(struct flock_axis *a, double x, double span, double side,
                                   double inv, int n)
{
	a->n = 1;
	a->lo[0] = 0;
	a->hi[0] = (uint32_t)n - 1;
	a->shift[0] = a->shift[1] = 0;
	a->wide = 1;
	if (n == 1 || 2 * span >= side)
		return; /* the whole axis */
	double lo = x - span, hi = x + span;
	int left = lo < 0, right = hi >= side; /* (not both: 2 span < side) */
	if (left)
		lo += side;
	if (right)
		hi -= side;
	/* (by the reciprocal: where rounding puts an end in the next cell, that cell's
	 * points are farther than the reach by the span's margin: flock_begin()) */
	uint32_t a0 = (uint32_t)grid_clamp_cell(lo * inv, 1, n), b0 = (uint32_t)grid_clamp_cell(hi * inv, 1, n);
	if (!left && !right) {
		a->lo[0] = a0;
		a->hi[0] = b0;
		a->wide = 0;
	} else if (b0 + 1 < a0) { /* [0, b0] and [a0, n - 1], apart */
		a->n = 2;
		a->hi[0] = b0;
		a->lo[1] = a0;
		a->hi[1] = (uint32_t)n - 1;
		a->shift[0] = right ? side : 0;  /* [0, b0]: past the right side */
		a->shift[1] = left ? -side : 0;  /* [a0, n - 1]: past the left side */
		a->wide = 0;
	} /* else they meet: the whole axis */
}

/* The minimum image of an offset d on a circle of `side`: d, or d -+ side when that is shorter. */
static inline double flock_torus_offset(double d, double side)
{
	if (d > side / 2)
		return d - side;
	if (d < -side / 2)
		return d + side;
	return d;
}

/* An offset on an axis: its run's shift, or the minimum image on a wide axis. */
static inline double flock_torus_axis_offset(double d, double shift, int wide, double side)
{
	return wide ? flock_torus_offset(d, side) : d + shift;
}

/* Runs of consecutive cells: each row's ranges of x, the rows' of y, the layers' of z. */
struct flock_torus_runs {
	struct flock_axis a[3]; /* x, y, z (z: one layer 0 in a plane) */
	uint32_t nx, ny;        /* cells in a row, rows in a layer */
	int xr, yr, zr;         /* the range each axis is in */
	uint32_t y, z;          /* the row and layer */
	int left;               /* 0: no run left */
};

FLOCK_INLINE void flock_torus_runs_begin(struct flock_torus_runs *r, const struct flock_pass *f,
                                         double x, double y, double z)
{
	const struct sim *s = f->s;
	const struct grid *g = &s->grid;

	flock_axis_span(&r->a[0], x, f->span, s->p.width, g->inv_cell, g->nx);
	flock_axis_span(&r->a[1], y, f->span, s->p.height, g->inv_cell, g->ny);
	if (g->nz > 1)
		flock_axis_span(&r->a[2], z, f->span, s->p.depth, g->inv_cell, g->nz);
	else
		r->a[2] = (struct flock_axis){ { 0, 0 }, { 0, 0 }, { 0, 0 }, 1, 1 };
	r->nx = (uint32_t)g->nx;
	r->ny = (uint32_t)g->ny;
	r->xr = r->yr = r->zr = 0;
	r->y = r->a[1].lo[0];
	r->z = r->a[2].lo[0];
	r->left = 1;
}

/* The next run: cells c0 .. c1 (both included) and its shifts; 0 when there is none. */
FLOCK_INLINE int flock_torus_runs_next(struct flock_torus_runs *r, uint32_t *c0, uint32_t *c1,
                                       struct flock_vec *shift)
{
	if (!r->left)
		return 0;
	uint32_t row = (r->z * r->ny + r->y) * r->nx;
	*c0 = row + r->a[0].lo[r->xr];
	*c1 = row + r->a[0].hi[r->xr];
	*shift = (struct flock_vec){ r->a[0].shift[r->xr], r->a[1].shift[r->yr], r->a[2].shift[r->zr] };
	if (++r->xr < r->a[0].n)
		return 1;
	r->xr = 0;
	if (++r->y <= r->a[1].hi[r->yr])
		return 1;
	if (++r->yr < r->a[1].n) {
		r->y = r->a[1].lo[r->yr];
		return 1;
	}
	r->yr = 0;
	r->y = r->a[1].lo[0];
	if (++r->z <= r->a[2].hi[r->zr])
		return 1;
	if (++r->zr < r->a[2].n) {
		r->z = r->a[2].lo[r->zr];
		return 1;
	}
	r->left = 0;
	return 1;
}

/*
 * A query's walk in two phases: the runs of copies in its cells, escaped
 * boids among them (s->escf[k] set: the caller leaves those out), then
 * the escaped boids chained in those cells, one at a time.  Each comes
 * with the shift of its run (struct flock_axis); on a wide axis the caller
 * takes the minimum image (w->wide[]).
 */
struct flock_torus_walk {
	struct flock_torus_runs runs;  /* the cells, a run at a time */
	struct flock_torus_runs cells; /* the chains' phase: the same cells again (set then) */
	const struct flock_pass *f;
	double x, y, z;         /* the point */
	const uint32_t *start;  /* the grid's offsets into its items */
	const uint32_t *eschead, *escnext;
	int nesc;               /* anything listed this step */
	int chains;             /* the chains' phase has begun */
	uint32_t c, c1;         /* the chains' phase: next cell, last of its run */
	uint32_t e;             /* next listed boid in the current chain, or UINT32_MAX */
	struct flock_vec shift; /* the chains' phase: the current run's */
	int wide[3];            /* x, y, z: the minimum image a candidate */
};

FLOCK_INLINE void flock_torus_walk_begin(struct flock_torus_walk *w, const struct flock_pass *f,
                                         double x, double y, double z)
{
	const struct sim *s = f->s;

	flock_torus_runs_begin(&w->runs, f, x, y, z);
	w->f = f;
	w->x = x, w->y = y, w->z = z;
	w->start = s->grid.start;
	w->eschead = s->eschead;
	w->escnext = s->escnext;
	w->nesc = f->nesc > 0;
	w->chains = 0;
	w->c = 1, w->c1 = 0; /* no cell yet */
	w->e = UINT32_MAX;
	w->shift = (struct flock_vec){ 0, 0, 0 };
	for (int a = 0; a < 3; a++)
		w->wide[a] = w->runs.a[a].wide;
}

/* The next run of copies [*k, *k1) and its shift; 0 when the runs are done. */
FLOCK_INLINE int flock_torus_walk_run(struct flock_torus_walk *w, uint32_t *k, uint32_t *k1,
                                      struct flock_vec *shift)
{
	uint32_t c0, c1;

	if (!flock_torus_runs_next(&w->runs, &c0, &c1, shift))
		return 0;
	*k = w->start[c0];
	*k1 = w->start[c1 + 1];
	return 1;
}

/* After the runs: the next escaped boid chained in the query's cells, and its shift; 0 when none is left. */
FLOCK_INLINE int flock_torus_walk_chain(struct flock_torus_walk *w, uint32_t *k, struct flock_vec *shift)
{
	if (!w->nesc)
		return 0;
	if (!w->chains) { /* the query's cells again, begun only when needed */
		flock_torus_runs_begin(&w->cells, w->f, w->x, w->y, w->z);
		w->chains = 1;
	}
	for (;;) {
		if (w->e != UINT32_MAX) {
			*k = w->e;
			*shift = w->shift;
			w->e = w->escnext[w->e];
			return 1;
		}
		if (w->c > w->c1 && !flock_torus_runs_next(&w->cells, &w->c, &w->c1, &w->shift))
			return 0;
		w->e = w->eschead[w->c++];
	}
}

struct flock_torus {
	struct flock_torus_walk w;
	const struct sim *s;
	const unsigned char *escf;
	uint32_t k, k1;         /* current run of copies */
	int chains;             /* in the chains' phase */
	struct flock_vec shift; /* the current run's */
	double x, y, z;         /* the point */
	double w_, h, d;        /* the torus' sides */
	double reach2;
	int d3;                 /* in a box: a constant where the caller's is */
	int wide;               /* an axis takes the minimum image a candidate */
};

FLOCK_INLINE void flock_torus_begin(struct flock_torus *t, const struct flock_pass *f, double x, double y,
                                    double z, int d3)
{
	const struct sim *s = f->s;

	flock_torus_walk_begin(&t->w, f, x, y, z);
	t->s = s;
	t->escf = s->escf;
	t->k = t->k1 = 0;
	t->chains = 0;
	t->shift = (struct flock_vec){ 0, 0, 0 };
	t->x = x, t->y = y, t->z = z;
	t->w_ = s->p.width, t->h = s->p.height, t->d = s->p.depth;
	t->reach2 = f->reach2;
	t->d3 = d3;
	t->wide = t->w.wide[0] || t->w.wide[1] || (d3 && t->w.wide[2]);
}

/* Copy k with its run's shift into *nb if it lies within reach (its offsets the minimum image): 1, else 0. */
FLOCK_INLINE int flock_torus_within(const struct flock_torus *t, uint32_t k, struct flock_vec sh,
                                    struct flock_near *nb)
{
	struct flock_vec q = flock_copy_at(t->s, k, t->d3);
	double dx, dy, dz = 0;

	if (!t->wide) { /* the run's shift: the minimum image bit for bit (above) */
		dx = q.x - t->x + sh.x, dy = q.y - t->y + sh.y;
		if (t->d3)
			dz = q.z - t->z + sh.z;
	} else {
		dx = flock_torus_axis_offset(q.x - t->x, sh.x, t->w.wide[0], t->w_);
		dy = flock_torus_axis_offset(q.y - t->y, sh.y, t->w.wide[1], t->h);
		if (t->d3)
			dz = flock_torus_axis_offset(q.z - t->z, sh.z, t->w.wide[2], t->d);
	}
	double d2 = dx * dx + dy * dy;
	if (t->d3)
		d2 += dz * dz;
	if (!(d2 <= t->reach2))
		return 0;
	*nb = (struct flock_near){ k, q, dx, dy, dz, d2 };
	return 1;
}

/* The next neighbour within reach into *nb (its offsets the minimum image): 1, or 0 when none is
 * left.  The runs' copies (the escaped boids among them left out), then the escaped boids chained
 * in their cells (flock_cands_next() on the torus' cells). */
FLOCK_INLINE int flock_torus_next(struct flock_torus *t, struct flock_near *nb)
{
	struct flock_vec sh;

	while (!t->chains) {
		if (t->k == t->k1) {
			if (!flock_torus_walk_run(&t->w, &t->k, &t->k1, &t->shift))
				t->chains = 1;
			continue;
		}
		uint32_t k = t->k++;
		if (!t->escf[k] && flock_torus_within(t, k, t->shift, nb))
			return 1;
	}
	for (uint32_t k; flock_torus_walk_chain(&t->w, &k, &sh);)
		if (flock_torus_within(t, k, sh, nb))
			return 1;
	return 0;
}

/* x into [0, side): x - side floor(x / side), then + side below 0 and - side at side or above
 * (rounding), in that order. */
static inline double flock_torus_wrap_axis(double x, double side)
{
	if (x >= 0 && x < side)
		return x;
	x -= side * floor(x / side);
	if (x < 0) /* floor() of a quotient rounded up */
		x += side;
	return x < side ? x : x - side;
}

/* A position onto the torus [0, W) x [0, H) (x [0, D): z not NULL). */
static inline void flock_torus_wrap(const struct sim_params *p, double *x, double *y, double *z)
{
	*x = flock_torus_wrap_axis(*x, p->width);
	*y = flock_torus_wrap_axis(*y, p->height);
	if (z)
		*z = flock_torus_wrap_axis(*z, p->depth);
}

/* --------------------------------------------------------------- edges */

/* One axis of a bounce: within pad of either end of [0, extent], turn back. */
static inline void flock_bounce_axis(double x, double extent, double pad, double turn, double *v)
{
	if (x < pad)
		*v += turn;
	if (x > extent - pad)
		*v -= turn;
}

/* Bounce: inside the margin `pad`, turn back by `turn` (x first, then y,
 * then z in a box; vz NULL in a plane, where z is not read). */
static inline void flock_bounce(const struct sim_params *p, double pad, double turn,
                                double x, double y, double z, double *vx, double *vy, double *vz)
{
	flock_bounce_axis(x, p->width, pad, turn, vx);
	flock_bounce_axis(y, p->height, pad, turn, vy);
	if (vz)
		flock_bounce_axis(z, p->depth, pad, turn, vz);
}

/* One axis of harden's wrap: x < 0 -> x + L, x > L -> x - L. */
static inline void flock_wrap_add_axis(double *x, double extent)
{
	if (*x < 0)
		*x += extent;
	if (*x > extent)
		*x -= extent;
}

/* Harden's wrap after a move, on x, y and (z not NULL) z. */
static inline void flock_wrap_add(const struct sim_params *p, double *x, double *y, double *z)
{
	flock_wrap_add_axis(x, p->width);
	flock_wrap_add_axis(y, p->height);
	if (z)
		flock_wrap_add_axis(z, p->depth);
}

/* One axis of the Processing and canvas programs' wrap: past one end, exactly on the other. */
static inline void flock_wrap_to_edge_axis(double *x, double extent)
{
	if (*x < 0)
		*x = extent;
	else if (*x > extent)
		*x = 0;
}

/* That wrap on x, y and (z not NULL) z. */
static inline void flock_wrap_to_edge(const struct sim_params *p, double *x, double *y, double *z)
{
	flock_wrap_to_edge_axis(x, p->width);
	flock_wrap_to_edge_axis(y, p->height);
	if (z)
		flock_wrap_to_edge_axis(z, p->depth);
}

/* ---------------------------------------------------- obstacles, target */

/*
 * The obstacles' push on a boid at (x, y) (and *z in a box; z NULL in a
 * plane, where the push's z is 0), in pixels per step: the sum over
 * obstacles (circles; spheres in a box), which the caller adds to the
 * velocity in one addition.
 */
struct flock_vec flock_obstacle_push(const struct sim_params *p, double x, double y, const double *z);

/*
 * After a move: a boid inside an obstacle is put back on its surface,
 * along the line from the centre, and if heading in, its velocity is
 * reflected.  Obstacles are taken one after another, in order.  z and vz
 * are NULL in a plane.
 */
void flock_obstacle_wall(const struct sim_params *p, double *x, double *y, double *z,
                         double *vx, double *vy, double *vz);

/*
 * The end of a boid's turn on the torus (vicsek, abm): it moves by its
 * velocity (a step's displacement), off the obstacles (which may turn the
 * velocity), is wrapped into the field, and both are stored as boid b's.
 * *x .. *vz hold what was stored (*z, *vz untouched in a plane).
 */
static inline void flock_torus_move(struct sim *s, size_t b, int d3, double *x, double *y, double *z,
                                    double *vx, double *vy, double *vz)
{
	const struct sim_params *p = &s->p;

	*x += *vx;
	*y += *vy;
	*z += *vz;
	if (p->obstacles_n)
		flock_obstacle_wall(p, x, y, d3 ? z : NULL, vx, vy, d3 ? vz : NULL);
	flock_torus_wrap(p, x, y, d3 ? z : NULL);
	s->x[b] = *x, s->y[b] = *y, s->vx[b] = *vx, s->vy[b] = *vy;
	if (d3)
		s->z[b] = *z, s->vz[b] = *vz;
}

/* Where the target of p.target_mode is at step t (centre of field if
 * none); z, if not NULL, gets its depth (docs/MODEL.md, "Targets"). */
void flock_target(const struct sim_params *p, uint64_t t, double *x, double *y, double *z);

/*
 * The C# article's start flock: for each boid in order, uniform draws
 * u in [0,1) from rng_seed(seed): x = u W, y = u H, vx = u - .5,
 * vy = u - .5 (four); in a box x = u W, y = u H, z = u D, vx = u - .5,
 * vy = u - .5, vz = u - .5 (six).
 */
void flock_scatter(struct sim *s, uint64_t seed);

/* Boid i placed uniformly in the field: x = u W, y = u H, in a box z = u D, draws of r in that order. */
struct rng;
void flock_place(struct sim *s, size_t i, struct rng *r);

/* --------------------------------------------------------------- noise */

/* SplitMix64's finaliser: a good 64-bit mix, integer only. */
static inline uint64_t flock_mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * A uniform double in [0, 1) for (seed, step, key): mix64(mix64(mix64(seed)
 * ^ step) ^ key), its top 53 bits times 2^-53.  The same whichever thread
 * asks and in whichever order: no shared generator state (a model's noise
 * is a value per (seed, step, boid), docs/ARCHITECTURE.md).  Each model
 * documents its keys.
 */
static inline double flock_noise01(uint64_t seed, uint64_t step, uint64_t key)
{
	uint64_t z = flock_mix64(flock_mix64(flock_mix64(seed) ^ step) ^ key);
	return (double)(z >> 11) * 0x1.0p-53;
}

/*
 * Step `step`'s order of turns for a sequential pass in a random order of
 * its own (f->order; abm's and netlogo's new order every step): 0 .. n-1
 * shuffled by Fisher and Yates, for i = n - 1 down to 1 swapping places i
 * and j = floor(u (i + 1)) (at most i), u = flock_noise01(seed, step,
 * 2^62 + i).  A pure function of the seed and the step.
 */
void flock_shuffle(uint32_t *order, size_t n, uint64_t seed, uint64_t step);

/* ------------------------------------------------------------- vectors */

/* The unit vector of the sphere at two uniform draws u1, u2 in [0, 1): the
 * azimuth a = 2 pi u1 and the height c = 2 u2 - 1, (s cos a, s sin a, c),
 * s = sqrt(1 - c^2) (uniform on the sphere when u1, u2 are). */
static inline struct flock_vec flock_sphere(double u1, double u2)
{
	double a = u1 * 2 * M_PI, c = 2 * u2 - 1, s = sqrt(1 - c * c);

	return (struct flock_vec){ s * cos(a), s * sin(a), c };
}

/* The length of (x, y[, z]); z NULL: a plane. */
static inline double flock_length(double x, double y, const double *z)
{
	double m2 = x * x + y * y;
	if (z)
		m2 += *z * *z;
	return sqrt(m2);
}

/* (x, y[, z]) scaled to length 1; the zero vector stays zero (PVector).  z NULL: a plane. */
static inline void flock_unit(double *x, double *y, double *z)
{
	double m = flock_length(*x, *y, z);
	if (m > 0) {
		*x /= m;
		*y /= m;
		if (z)
			*z /= m;
	}
}

/* Scales (x, y[, z]) down to length max if longer (PVector.limit, LimitVelocity). */
static inline void flock_limit_length(double *x, double *y, double *z, double max)
{
	double m = flock_length(*x, *y, z);
	if (m > max) {
		*x = *x / m * max;
		*y = *y / m * max;
		if (z)
			*z = *z / m * max;
	}
}

/* Clamps each component into [-max, max] (the Processing sketch's clampV). */
static inline void flock_limit_components(double *x, double *y, double *z, double max)
{
	*x = *x > max ? max : *x < -max ? -max : *x;
	*y = *y > max ? max : *y < -max ? -max : *y;
	if (z)
		*z = *z > max ? max : *z < -max ? -max : *z;
}

/* A velocity that overflowed counts as rest, in every model. */
static inline void flock_contain(double *x, double *y, double *z)
{
	if (!isfinite(*x) || !isfinite(*y) || (z && !isfinite(*z))) {
		*x = *y = 0;
		if (z)
			*z = 0;
	}
}


/*
 * The unit direction `turn` radians from the unit vector u toward the unit
 * vector t, in 3D (dot = u.t): cos(turn) u + sin(turn) p, p the unit vector
 * perpendicular to u in the plane of u and t, on t's side (the short way):
 * a rotation about the axis u x t, as Unity's RotateTowards turns.  Near a
 * reversal (dot < -1 + 1e-5) p is (u x t) x u, perpendicular to u however
 * small u x t is, so the turn and the length hold.  When there is no plane
 * (|u x t| < 1e-12: t is -u to rounding) or `plus` is set, p is the 2D
 * "+angle" direction (-u_y, u_x, 0), or +x if u is along z.  On a plane
 * z = const every p lies in the plane.
 */
struct flock_vec flock_turn3(struct flock_vec u, struct flock_vec t, double dot, double turn, int plus);

#endif
