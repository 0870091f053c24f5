/*
 * flock — the machinery every model's step shares; see include/flock.h.
 *
 * Start at flock_begin() (grid and snapshot), then flock_run(), which hands
 * over to sequential() or to the parallel blocks of block().  The proof
 * that the escaped list never misses a neighbour is above sequential().
 */
#include "flock.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "hugemem.h"
#include "pool.h"
#include "rng.h"

enum {
	AHEAD = 8,            /* prefetch for the boid AHEAD places later in a pass */
	/* ... in the sequential pass only from this many boids: a box's 27
	 * cells' records, trickled (include/flock.h), cost more than they
	 * save while the copies fit in the cache (measured with a 32 MB
	 * last-level cache: 10k and 100k boids 5-30% faster without, every
	 * model; 1M faster with), and so do a plane's 9 (harden at 10k: x0.9
	 * of the CPU without, at 100k x0.97; 10M needs them) */
	BOX_AHEAD_MIN = 1 << 18,
	/* ... and in a pass in a model's own order from this many: every turn is
	 * then at random in the index-ordered arrays too */
	ORDER_AHEAD_MIN = 1 << 15,
	BLOCK = 256,          /* boids per parallel task */
	PARALLEL_MIN = 2048,  /* below this, threads cost more than they save */
	WATCH_EVERY = 16,     /* boids between two calls of s->watch: 16 boids of a
	                       * million in 640x360 (34,000 neighbours each) take some
	                       * 10 ms, of ten million 0.1 s; a call costs a few ns */
};

double flock_cell(const struct sim *s, double reach, double slack)
{
	if (s->p.update == SIM_SEQUENTIAL)
		return (reach + slack) * (1 + 2e-9); /* see the proof above sequential() */
	return reach * (1 + 1e-9);
}

/* Room for one chain head per grid cell, all empty; 0 or -ENOMEM. */
static int eschead_fit(struct sim *s)
{
	size_t cells = (size_t)s->grid.nx * (size_t)s->grid.ny * (size_t)s->grid.nz;
	if (cells <= s->eschead_cap)
		return 0;
	free(s->eschead); /* all empty between passes: nothing to keep */
	s->eschead = NULL;
	s->eschead_cap = 0;
	uint32_t *h = hugemem_alloc(cells * sizeof(*h)); /* read at random by every query */
	if (!h)
		return -ENOMEM;
	for (size_t c = 0; c < cells; c++)
		h[c] = UINT32_MAX;
	s->eschead = h;
	s->eschead_cap = cells;
	return 0;
}

/*
 * Builds the grid and the state in grid order (s->g2, s->g3) together: each
 * boid's copy is written as the grid places it, from index order, which
 * reads the state in order and writes one record a boid at its place (a
 * gather afterwards read four or six scattered lines a boid).  The places'
 * lines are asked for ahead (helpers that only prefetch: see
 * own_prefetch()).
 */
static int build_copies(struct sim *s, double cell, int items, const double box[6])
{
	struct grid *g = &s->grid;
	size_t n = s->n;
	int err = grid_count_box_from(g, s->x, s->y, s->z, n, box, box[3], box[4], box[5], cell);

	if (err)
		return err;
	if (s->z) {
		for (size_t i = 0; i < n; i++) {
			grid_place_ahead(g, i + GRID_AHEAD, n);
			if (i + GRID_AHEAD / 2 < n) {
				uint32_t j = grid_place_guess(g, i + GRID_AHEAD / 2);
				if (items)
					__builtin_prefetch(&g->items[j], 1);
				__builtin_prefetch(&s->g3[j], 1);
				__builtin_prefetch((const char *)&s->g3[j] + sizeof(*s->g3) - 1, 1);
			}
			uint32_t k = items ? grid_place(g, i) : grid_place_no_items(g, i);
			s->g3[k] = (struct sim_copy){ s->x[i], s->y[i], s->z[i], s->vx[i], s->vy[i], s->vz[i] };
		}
	} else {
		for (size_t i = 0; i < n; i++) {
			grid_place_ahead(g, i + GRID_AHEAD, n);
			if (i + GRID_AHEAD / 2 < n) {
				uint32_t j = grid_place_guess(g, i + GRID_AHEAD / 2);
				if (items)
					__builtin_prefetch(&g->items[j], 1);
				__builtin_prefetch(&s->g2[j], 1);
			}
			uint32_t k = items ? grid_place(g, i) : grid_place_no_items(g, i);
			s->g2[k] = (struct sim_copy2){ s->x[i], s->y[i], s->vx[i], s->vy[i] };
		}
	}
	grid_finish(g);
	return 0;
}

/* flock_begin() over the box (corner box[0..2], sides box[3..5]). */
static int begin(struct flock_pass *f, struct sim *s, double reach, double slack, double cell, const double box[6])
{
	const struct sim_params *p = &s->p;
	int still = slack < 0; /* FLOCK_STILL, nobody moves: see flock_begin() in flock.h */

	if (still)
		slack = 0;
	f->s = s;
	f->reach2 = reach * reach * (1 + 1e-9);
	f->slack = slack;
	/* a torus query's interval: room for the filter's 1e-9 and for rounding
	 * in positions up to the field's size (flock_torus_begin()) */
	double side = fmax(p->width, p->height);
	f->span = (reach + (p->update == SIM_SEQUENTIAL ? slack : 0)) * (1 + 1e-6) +
	          1e-9 * (s->z ? fmax(side, p->depth) : side);
	f->still = still;
	f->nesc = 0;
	f->trickle = NULL;
	f->order = NULL;
	f->nlanes = 0;
	s->order = NULL;
	s->escaped = 0;
	s->stopped = 0;
	s->stopped_at = 0;
	s->undo_at_copies = still;
	if (s->watch && p->update == SIM_SEQUENTIAL && !s->undo_at_copies && !s->undo &&
	    !(s->undo = hugemem_alloc((s->z ? 3 : 2) * (s->n ? s->n : 1) * sizeof(double))))
		return -ENOMEM;
	if (p->search == SIM_SEARCH_BRUTE) { /* one cell: everybody, in index order */
		double span = fmax(box[3], box[4]);
		cell = 2 * (s->z ? fmax(span, box[5]) : span) + reach + slack;
	}
	s->gpos = NULL;
	/* the grid's items give the synchronous pass its order and opengl its
	 * predators; a still sequential pass reads neither (a line a boid) */
	int err = build_copies(s, cell, !(still && p->update == SIM_SEQUENTIAL), box);
	if (err)
		return err;
	s->gpos = s->grid.place;
	return p->update == SIM_SEQUENTIAL && !still ? eschead_fit(s) : 0;
}

int flock_begin(struct flock_pass *f, struct sim *s, double reach, double slack, double cell)
{
	const double field[6] = { 0, 0, 0, s->p.width, s->p.height, s->p.depth };

	return begin(f, s, reach, slack, cell, field);
}

int flock_begin_torus(struct flock_pass *f, struct sim *s, double reach, double slack)
{
	for (size_t i = 0; i < s->n; i++)
		flock_torus_wrap(&s->p, &s->x[i], &s->y[i], s->z ? &s->z[i] : NULL);
	return flock_begin(f, s, reach, slack, flock_cell(s, reach, slack));
}

int flock_begin_open(struct flock_pass *f, struct sim *s, double reach, double slack, double cell)
{
	double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
	const double *v[3] = { s->x, s->y, s->z };

	for (int a = 0; a < (s->z ? 3 : 2); a++)
		for (size_t i = 0; i < s->n; i++)
			if (isfinite(v[a][i])) { /* the others fall into a border cell, as in a field */
				lo[a] = fmin(lo[a], v[a][i]);
				hi[a] = fmax(hi[a], v[a][i]);
			}
	double box[6];
	for (int a = 0; a < 3; a++) {
		int some = lo[a] <= hi[a];
		box[a] = some ? lo[a] : 0;
		box[3 + a] = some && hi[a] > lo[a] ? hi[a] - lo[a] : 1;
	}
	return begin(f, s, reach, slack, cell, box);
}

/*
 * Which boids sequential() must list as escaped, and why rounding
 * never hides one.
 *
 * A boid's grid copy keeps the cell of the position o it had when the grid
 * was built; after its turn the copy holds its new position p.  A later
 * boid at q visits the cells within one of cell(q) on each axis (3 x 3, or
 * 3 x 3 x 3 in a box) and uses k when the squared distance passes reach2.
 * k is found in its old cell exactly when cell(o) is within one cell of
 * cell(q) on each axis, which holds when |o - q| is at most one cell on
 * each axis.  Since |o - q| <= |o - p| + |p - q|, and a difference on one
 * axis is at most the Euclidean distance whatever the number of axes, a
 * boid must be listed when |o - p| could exceed the cell minus the reach:
 * every boid that moved further than its top speed allows, every wrapped
 * boid (it moved about a field's width or depth), every boid an obstacle
 * put back on its surface.  In exact arithmetic cell = reach + slack, and
 * a boid moving at exactly its top speed is not listed; in doubles its
 * computed distance is slack times (1 + a few u), u = 2^-53, so the test
 * allows slack (1 + 1e-9) and the cell has twice that margin.  The bound,
 * with two or three squares in each sum:
 *
 *   k passed the filter: fl(d2) <= fl(reach^2 (1 + 1e-9)), and fl(d2) is
 *     at least d2 (1 - 4u) (three squares, two additions), so the true
 *     |p - q| <= reach sqrt(1 + 1e-9) (1 + 4u) <= reach (1 + 0.51e-9);
 *   k was not listed: fl(|p - o|^2) <= fl(fl(slack (1 + 1e-9))^2)
 *     (flock_escapes(): squares, no root); the differences, squares and
 *     sums add at most 6u to the one and 3u to the other, so the true
 *     |p - o| <= slack (1 + 1e-9) (1 + 5u) <= slack (1 + 1.01e-9);
 *   together |o - q| <= (reach + slack) (1 + 1.01e-9) on each axis;
 *   the cell c = fl((reach + slack) (1 + 2e-9)) >= (reach + slack)
 *     (1 + 1.99e-9) (grid_build_box() only ever makes it larger), so
 *     |o - q| <= c (1 - 0.97e-9);
 *   grid_cell_of() and grid_layer_of() take floor(fl(v / c)), clamped to
 *     the grid; the quotients that matter are below 2^20 + 2 (the grid has
 *     at most 2^20 cells a side; beyond it both points clamp to the border
 *     cell), so each is off by less than 2^21 u = 2.4e-10 of a cell, and
 *     two quotients at most one cell minus 0.97e-9 apart are computed less
 *     than one cell apart: their floors differ by at most one, on x, on y
 *     and on z alike.
 *
 * So any k within reach of q is either in the cells around it or listed.
 * A listed boid is chained in the cell of its new position p: the same
 * bound with |p - o| = 0 puts that cell among q's too, so a query walks
 * its own 9 (27) chains, never the whole list (which grows with the
 * field's edge, sqrt(N) wrapping boids a step: checking it all made every
 * model O(N^1.5)).  Nothing here depends on the ratio of slack to reach.
 * A boid at top speed is listed only if positions are so large that one
 * ulp of them is 1e-9 of its step (fields above about 10^6 px): slower
 * then, never wrong.  Brute force has a single cell, so it lists nobody.
 */

/* Lists boid b, whose copy is k, as escaped: chained in its new cell. */
static void escape(struct flock_pass *f, size_t b, uint32_t k)
{
	struct sim *s = f->s;

	/* a query within reach of it looks there (the cell is wider than the reach) */
	size_t at = grid_index_of(&s->grid, s->x[b], s->y[b], s->z ? s->z[b] : 0);
	s->escf[k] = 1;
	s->escnext[k] = s->eschead[at];
	s->eschead[at] = k;
	s->esc[f->nesc++] = k;
}

/* Hands t the runs of records a query at (x, y, z) reads, after asking
 * for what is left of the last ones and for the runs' flags at once. */
static inline __attribute__((always_inline))
void trickle_fill(struct flock_trickle *t, const struct sim *s, double x, double y, double z)
{
	while (t->left || t->run < t->runs)
		flock_trickle_one(t);
	struct grid_runs r;
	grid_runs_begin(&r, &s->grid, x, y, z);
	t->run = t->runs = 0;
	for (uint32_t c0, c1; grid_runs_next(&r, &c0, &c1);) {
		uint32_t k0 = s->grid.start[c0], k1 = s->grid.start[c1 + 1];
		if (k0 >= k1)
			continue;
		__builtin_prefetch(&s->escf[k0]);
		__builtin_prefetch(&s->escf[k1 - 1]);
		uintptr_t lo = (uintptr_t)&s->g3[k0] & ~(uintptr_t)63, last = (uintptr_t)&s->g3[k1] - 1;
		t->r[t->runs].at = (const char *)lo;
		t->r[t->runs].lines = (last - lo) / 64 + 1;
		t->runs++;
	}
}

/*
 * The index-ordered entries a synchronous pass (or a sequential one in a
 * model's own order) reads and writes for boid b
 * besides the copies: its state, which the models update in place (a
 * still pass's model, harden, netlogo, writes s->nvx instead: `next`),
 * and its place in grid order.  In grid order they
 * are scattered over the arrays; at 1M boids waiting for them was half of a
 * steering step.  Always inlined: a function of prefetches alone is "const"
 * to GCC, which deletes its calls unless it was inlined first.
 */
static inline __attribute__((always_inline)) void own_prefetch(const struct sim *s, uint32_t b, int next)
{
	__builtin_prefetch(&s->x[b], 1);
	__builtin_prefetch(&s->y[b], 1);
	__builtin_prefetch(next ? &s->nvx[b] : &s->vx[b], 1);
	__builtin_prefetch(next ? &s->nvy[b] : &s->vy[b], 1);
	__builtin_prefetch(&s->gpos[b]);
	if (s->z) {
		__builtin_prefetch(&s->z[b], 1);
		__builtin_prefetch(next ? &s->nvz[b] : &s->vz[b], 1);
	}
}

/* What flock_undo() puts back of boid b before its turn: its position, and its velocity in s->nvx... */
FLOCK_INLINE void keep_undo(struct sim *s, double *undo, size_t b, int d3)
{
	undo[b] = s->x[b];
	undo[s->n + b] = s->y[b];
	s->nvx[b] = s->vx[b];
	s->nvy[b] = s->vy[b];
	if (d3) {
		undo[2 * s->n + b] = s->z[b];
		s->nvz[b] = s->vz[b];
	}
}

/* After boid b's turn, its copy k says what later boids see: the new position and velocity (a
 * still pass's one() wrote it to s->nvx...). */
FLOCK_INLINE void refresh_copy(struct sim *s, size_t b, uint32_t k, int still, int d3)
{
	const double *vx = still ? s->nvx : s->vx, *vy = still ? s->nvy : s->vy;

	if (d3) {
		const double *vz = still ? s->nvz : s->vz;
		s->g3[k] = (struct sim_copy){ s->x[b], s->y[b], s->z[b], vx[b], vy[b], vz[b] };
	} else {
		s->g2[k] = (struct sim_copy2){ s->x[b], s->y[b], vx[b], vy[b] };
	}
}

/* The sequential pass; d3 is a constant (a box), so the plane's pass is the plane's alone, and
 * ordered too (the turns in f->order, not index order). */
FLOCK_INLINE void in_order(struct flock_pass *f, flock_one_fn *one, void *ctx, int d3, int ordered)
{
	struct sim *s = f->s;
	const uint32_t *order = f->order;
#define TURN(i) (ordered ? (size_t)order[i] : (size_t)(i)) /* whose turn the i-th is */
	int brute = s->p.search == SIM_SEARCH_BRUTE;
	int still = f->still; /* one() moves nobody (include/flock.h) */
	/* the cells are prefetched only where that pays (BOX_AHEAD_MIN) */
	int ahead = !brute && s->n >= (ordered ? ORDER_AHEAD_MIN : BOX_AHEAD_MIN);
	/* the flags only where a query reads them (nobody escapes a still pass) */
	struct grid_array copies[2 + FLOCK_LANES] = { { s->g2, sizeof(*s->g2) }, { s->escf, 1 } };
	int ncopies = still ? 1 : 2;
	if (f->nlanes) /* the model's queries read its own arrays instead */
		ncopies = 0;
	for (int l = 0; l < f->nlanes && l < FLOCK_LANES; l++)
		copies[ncopies++] = f->lanes[l];
	/* a plane's hints: a later boid's cells found (and their offsets asked
	 * for) 2 AHEAD boids ahead, its runs asked for AHEAD ahead (grid.h) */
	struct grid_hint hint[2 * AHEAD];
	int hinted = ahead && !d3;
	for (size_t i = 0; hinted && i < 2 * AHEAD && i < s->n; i++)
		grid_hint_cells(&s->grid, s->x[TURN(i)], s->y[TURN(i)], &hint[i]);
	struct flock_trickle trickle = { 0 }; /* a box: the queries read it (include/flock.h) */
	if (d3 && ahead)
		f->trickle = &trickle;
	int watched = s->watch != NULL;
	double *undo = s->undo; /* what flock_undo() puts back (a still pass: the copies) */

	s->order = ordered ? order : NULL;
	for (size_t i = 0; i < s->n; i++) {
		if (watched && i && !(i & (WATCH_EVERY - 1)) && s->watch(s->watch_arg, i)) {
			s->stopped = 1;
			s->stopped_at = i;
			break;
		}
		size_t b = TURN(i);
		if (ordered && ahead && i + 3 * AHEAD < s->n) /* a later turn's own entries, at random */
			own_prefetch(s, (uint32_t)TURN(i + 3 * AHEAD), still);
		double x0 = s->x[b], y0 = s->y[b], z0 = d3 ? s->z[b] : 0;
		if (watched && !still) /* a still pass keeps s->vx... as they were */
			keep_undo(s, undo, b, d3);
		/* index order jumps about the field: load a later boid's cells
		 * now (it has not moved yet; a hint only) */
		if (hinted) {
			if (i + 2 * AHEAD < s->n) /* i's slot: turn i is done with it */
				grid_hint_cells(&s->grid, s->x[TURN(i + 2 * AHEAD)], s->y[TURN(i + 2 * AHEAD)],
				                &hint[i % (2 * AHEAD)]);
			if (i + AHEAD < s->n)
				grid_hint_runs(&s->grid, &hint[(i + AHEAD) % (2 * AHEAD)], copies, ncopies);
		} else if (d3 && ahead && i + AHEAD < s->n) {
			size_t a = TURN(i + AHEAD);
			trickle_fill(&trickle, s, s->x[a], s->y[a], s->z[a]);
		}
		one(ctx, b);
		uint32_t k = s->gpos[b];
		refresh_copy(s, b, k, still, d3);
		if (still || brute)
			continue;
		double dx = s->x[b] - x0, dy = s->y[b] - y0, dz = d3 ? s->z[b] - z0 : 0;
		if (flock_escapes(f, dx, dy, dz, d3))
			escape(f, b, k);
	}
	for (size_t e = 0; e < f->nesc; e++) { /* empty the chains for the next step */
		uint32_t k = s->esc[e];
		struct flock_vec at = flock_copy_at(s, k, d3);
		s->eschead[grid_index_of(&s->grid, at.x, at.y, at.z)] = UINT32_MAX;
		s->escf[k] = 0;
	}
	s->escaped = f->nesc;
	f->trickle = NULL;
#undef TURN
}

static void sequential(struct flock_pass *f, flock_one_fn *one, void *ctx)
{
	if (f->order) /* (a model of its own order: only that model's passes pay for it) */
		f->s->z ? in_order(f, one, ctx, 1, 1) : in_order(f, one, ctx, 0, 1);
	else if (f->s->z)
		in_order(f, one, ctx, 1, 0);
	else
		in_order(f, one, ctx, 0, 0);
}

struct blocks {
	const struct sim *s;
	flock_one_fn *one;
	void *ctx;
	atomic_size_t done;     /* boids done, for s->watch */
	atomic_int stop;        /* s->watch said stop: the tasks left do nothing */
};

/*
 * Synchronous: boids in grid order, cell after cell, so that the next
 * boid's neighbours are mostly in cache already (1M boids in index order
 * would fetch every neighbourhood from memory); each boid's own entries
 * are asked for AHEAD boids early.  Each reads the copies only and writes
 * its own entries, so the order changes no bit.
 */
static void block(void *arg, size_t task)
{
	struct blocks *r = arg;
	const struct sim *s = r->s;
	const uint32_t *order = s->grid.items;
	size_t n = s->n, lo = task * BLOCK, hi = lo + BLOCK < n ? lo + BLOCK : n;

	if (s->watch && atomic_load_explicit(&r->stop, memory_order_relaxed))
		return;

	for (size_t k = lo; k < hi && k < lo + AHEAD; k++)
		own_prefetch(s, order[k], 0);
	for (size_t k = lo; k < hi; k++) {
		if (k + AHEAD < hi)
			own_prefetch(s, order[k + AHEAD], 0);
		r->one(r->ctx, order[k]);
		if (s->watch && !((k + 1 - lo) & (WATCH_EVERY - 1)) &&
		    (atomic_load_explicit(&r->stop, memory_order_relaxed) ||
		     s->watch(s->watch_arg, atomic_load_explicit(&r->done, memory_order_relaxed) + k + 1 - lo))) {
			atomic_store(&r->stop, 1);
			return;
		}
	}
	if (s->watch)
		atomic_fetch_add_explicit(&r->done, hi - lo, memory_order_relaxed);
}

void flock_run(struct flock_pass *f, flock_one_fn *one, void *ctx)
{
	struct sim *s = f->s;

	if (s->stopped)
		return; /* a pass after a stopped one */
	if (s->p.update == SIM_SEQUENTIAL) {
		sequential(f, one, ctx);
		return;
	}
	struct blocks r = { s, one, ctx, 0, 0 };
	size_t tasks = (s->n + BLOCK - 1) / BLOCK;
	if (s->pool && s->n >= PARALLEL_MIN)
		pool_run(s->pool, block, &r, tasks);
	else
		for (size_t t = 0; t < tasks; t++)
			block(&r, t);
	s->stopped = atomic_load(&r.stop);
}

void flock_take_next(struct sim *s)
{
	double *t;

	t = s->vx, s->vx = s->nvx, s->nvx = t;
	t = s->vy, s->vy = s->nvy, s->nvy = t;
	if (s->z)
		t = s->vz, s->vz = s->nvz, s->nvz = t;
}

void flock_shuffle(uint32_t *order, size_t n, uint64_t seed, uint64_t step)
{
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	for (size_t i = n; i-- > 1;) {
		size_t j = (size_t)(flock_noise01(seed, step, (uint64_t)1 << 62 | i) * (double)(i + 1));
		if (j > i)
			j = i;
		uint32_t t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
}

void flock_undo(struct sim *s)
{
	int d3 = s->z != NULL;
	size_t n = s->n, from = s->p.update == SIM_SEQUENTIAL ? s->stopped_at : 0;

	const uint32_t *order = s->order; /* whose turns they were */
	for (size_t i = 0; i < from; i++) { /* had their turn: saved just before it */
		size_t b = order ? order[i] : i;
		if (s->undo_at_copies) { /* a pass that moved nobody: the copies' */
			struct flock_vec at = flock_copy_at(s, s->gpos[b], d3);
			s->x[b] = at.x;
			s->y[b] = at.y;
			if (d3)
				s->z[b] = at.z;
		} else {
			s->x[b] = s->undo[b];
			s->y[b] = s->undo[n + b];
			if (d3)
				s->z[b] = s->undo[2 * n + b];
		}
		s->vx[b] = s->nvx[b];
		s->vy[b] = s->nvy[b];
		if (d3)
			s->vz[b] = s->nvz[b];
	}
	for (size_t i = from; i < n; i++) { /* the rest: their copies are still the step's start */
		size_t b = order ? order[i] : i;
		uint32_t k = s->gpos[b];
		struct flock_vec at = flock_copy_at(s, k, d3), v = flock_copy_vel(s, k, d3);
		s->x[b] = at.x;
		s->y[b] = at.y;
		s->vx[b] = v.x;
		s->vy[b] = v.y;
		if (d3) {
			s->z[b] = at.z;
			s->vz[b] = v.z;
		}
	}
	s->stopped = 0;
}

/* ---------------------------------------------------- obstacles, target */

/* The push, for a plane or (d3, a constant) a box. */
FLOCK_INLINE struct flock_vec push(const struct sim_params *p, double x, double y, double z, int d3)
{
	double px = 0, py = 0, pz = 0;

	for (size_t i = 0; i < p->obstacles_n; i++) {
		const struct sim_obstacle *o = &p->obstacles[i];
		double dx = x - o->x, dy = y - o->y, dz = d3 ? z - o->z : 0;
		double d = flock_length(dx, dy, FLOCK_Z(d3, dz));
		double depth = o->r + p->obstacle_margin - d;
		if (!(depth > 0))
			continue;
		if (d > 0) {
			px += dx / d * depth * p->obstacle_weight;
			py += dy / d * depth * p->obstacle_weight;
			if (d3)
				pz += dz / d * depth * p->obstacle_weight;
		} else {
			px += depth * p->obstacle_weight; /* at the centre: out along +x */
		}
	}
	return (struct flock_vec){ px, py, pz };
}

struct flock_vec flock_obstacle_push(const struct sim_params *p, double x, double y, const double *z)
{
	return z ? push(p, x, y, *z, 1) : push(p, x, y, 0, 0);
}

/* The wall, for a plane or (d3, a constant) a box. */
FLOCK_INLINE void wall(const struct sim_params *p, double *x, double *y, double *z,
                       double *vx, double *vy, double *vz, int d3)
{
	for (size_t i = 0; i < p->obstacles_n; i++) {
		const struct sim_obstacle *o = &p->obstacles[i];
		double dx = *x - o->x, dy = *y - o->y, dz = d3 ? *z - o->z : 0;
		double d = flock_length(dx, dy, FLOCK_Z(d3, dz));
		if (!(d < o->r))
			continue;
		double nx = 1, ny = 0, nz = 0; /* at the centre: out along +x */
		if (d > 0)
			nx = dx / d, ny = dy / d, nz = dz / d;
		*x = o->x + nx * o->r;
		*y = o->y + ny * o->r;
		double vn = *vx * nx + *vy * ny;
		if (d3) {
			*z = o->z + nz * o->r;
			vn += *vz * nz;
		}
		if (vn < 0) { /* heading in: reflect, which keeps the speed */
			*vx -= 2 * vn * nx;
			*vy -= 2 * vn * ny;
			if (d3)
				*vz -= 2 * vn * nz;
		}
	}
}

void flock_obstacle_wall(const struct sim_params *p, double *x, double *y, double *z,
                         double *vx, double *vy, double *vz)
{
	if (z)
		wall(p, x, y, z, vx, vy, vz, 1);
	else
		wall(p, x, y, NULL, vx, vy, NULL, 0);
}

void flock_target(const struct sim_params *p, uint64_t t, double *x, double *y, double *z)
{
	double depth = p->depth / 2;

	switch (p->target_mode) {
	case SIM_TARGET_FIXED:
		*x = p->target_x;
		*y = p->target_y;
		depth = p->target_z;
		break;
	case SIM_TARGET_LISSAJOUS: {
		double th = 2 * M_PI * (double)t / p->target_period;
		*x = p->width / 2 + p->target_amp_x * p->width * cos(p->target_freq_x * th);
		*y = p->height / 2 + p->target_amp_y * p->height * sin(p->target_freq_y * th);
		if (z)
			depth = p->depth / 2 + p->target_amp_z * p->depth * sin(p->target_freq_z * th);
		break;
	}
	case SIM_TARGET_NONE:
	default:
		*x = p->width / 2;
		*y = p->height / 2;
		break;
	}
	if (z)
		*z = depth;
}

void flock_place(struct sim *s, size_t i, struct rng *r)
{
	s->x[i] = rng_uniform(r) * s->p.width;
	s->y[i] = rng_uniform(r) * s->p.height;
	if (s->z)
		s->z[i] = rng_uniform(r) * s->p.depth;
}

void flock_scatter(struct sim *s, uint64_t seed)
{
	struct rng r;

	rng_seed(&r, seed);
	for (size_t i = 0; i < s->n; i++) {
		flock_place(s, i, &r);
		s->vx[i] = rng_uniform(&r) - .5;
		s->vy[i] = rng_uniform(&r) - .5;
		if (s->z)
			s->vz[i] = rng_uniform(&r) - .5;
	}
}

/* ------------------------------------------------------------- vectors */

/*
 * Near a reversal: for dot < -1 + NEAR_REVERSED (t within 0.26 degrees of
 * -u, Unity's epsilon), t - (u.t) u cancels to a vector whose rounding
 * leaves it far from perpendicular to u, so the turn is found from u x t;
 * when |u x t| (the sine of the angle left) is below REVERSED, t is -u to
 * rounding and the side would be chosen by noise.
 */
#define NEAR_REVERSED 1e-5
#define REVERSED 1e-12

struct flock_vec flock_turn3(struct flock_vec u, struct flock_vec t, double dot, double turn, int plus)
{
	struct flock_vec w = { t.x - dot * u.x, t.y - dot * u.y, t.z - dot * u.z };

	if (!plus && dot < -1 + NEAR_REVERSED) {
		struct flock_vec n = { u.y * t.z - u.z * t.y, u.z * t.x - u.x * t.z, u.x * t.y - u.y * t.x };
		plus = !(flock_length(n.x, n.y, &n.z) >= REVERSED);
		w = (struct flock_vec){ n.y * u.z - n.z * u.y, n.z * u.x - n.x * u.z, n.x * u.y - n.y * u.x };
	}
	double wn = flock_length(w.x, w.y, &w.z);

	if (plus) {
		w = (struct flock_vec){ -u.y, u.x, 0 };
		wn = flock_length(w.x, w.y, &w.z);
		if (!(wn > 1e-150)) /* below, its square is not a normal number */
			w = (struct flock_vec){ 1, 0, 0 }, wn = 1;
	}
	double c = cos(turn), sn = sin(turn);
	return (struct flock_vec){ c * u.x + sn * (w.x / wn), c * u.y + sn * (w.y / wn),
	                           c * u.z + sn * (w.z / wn) };
}
