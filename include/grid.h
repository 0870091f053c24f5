/*
 * grid — a uniform-grid neighbour index over boid positions.
 *
 * The field [0,W] x [0,H] (a box [0,W] x [0,H] x [0,D] in 3D; or from the
 * corner grid_count_box_from() names) is cut into
 * square (cubic) cells of edge >= the search radius; positions outside the
 * field (or not finite) fall into the nearest border cell, which keeps the
 * rule "two points closer than the radius lie in the same or adjacent
 * cells" true everywhere.  Cells are numbered (cz * ny + cy) * nx + cx: a
 * plane has one layer (nz = 1, cz = 0), so its numbers are row-major.
 * grid_build() is a counting sort, so within a cell boids are listed in
 * increasing index order and the visiting order is a pure function of the
 * positions: it does not depend on the number of threads that later read
 * the grid.
 *
 * Memory is O(n) whatever the field: at most 4n + 64 cells (and 2^20 a
 * side), so a field of 1e9 px a side (--field) with a few boids gets
 * bigger cells, never more of them; at the default density (100 boids in
 * 640x360) harden's cells stay at its radius (50 px) up to 10M boids in
 * 151,800 px (9.2M cells).  Cell numbers are 32-bit: n below 2^30.
 *
 * Start reading at grid_build_box(); the query pattern is
 *
 *     struct grid_runs r;
 *     grid_runs_begin(&r, g, x, y, z);
 *     for (uint32_t c0, c1; grid_runs_next(&r, &c0, &c1);)
 *         for (k = g->start[c0]; k < g->start[c1 + 1]; k++) use g->items[k];
 *
 * which visits the 3 x 3 cells around (x, y) as three contiguous runs, one
 * per row (3 x 3 x 3 as nine, one per layer and row, in a box).
 */
#ifndef BOIDS_GRID_H
#define BOIDS_GRID_H

#include <stddef.h>
#include <stdint.h>

struct grid {
	double cell;      /* cell edge length, >= the radius asked for */
	double inv_cell;  /* 1 / cell, for grid_hint_cells() */
	int nx, ny, nz;   /* cells across, down and deep, >= 1 (nz = 1: a plane) */
	double ox, oy, oz; /* the corner the cells count from: (0, 0, 0) but for
	                   * grid_count_box_from() */
	uint32_t *start;  /* nx*ny*nz + 1 offsets into items */
	uint32_t *items;  /* boid indices grouped by cell, ascending in a cell
	                   * (stale after a build by grid_place_no_items()) */
	uint32_t *place;  /* where each boid is in items: items[place[i]] == i
	                   * after a grid_place() build */
	size_t cap_cells; /* allocated length of start, minus one */
	size_t cap_items; /* allocated length of items and place */
};

/* Makes an empty grid; nothing is allocated until grid_build(). */
void grid_init(struct grid *g);

/*
 * Indexes n positions in a width x height x depth box with cells of edge
 * at least radius (radius <= 0 or huge is fine: the cell count is capped
 * near n).  z NULL indexes the plane (depth is then ignored, nz = 1), cell
 * for cell what grid_build() makes.  Returns 0, or -ENOMEM (the grid is
 * then left empty but valid).
 */
int grid_build_box(struct grid *g, const double *x, const double *y, const double *z, size_t n,
                   double width, double height, double depth, double radius);

/*
 * grid_build_box() in three parts, for a caller that writes arrays of its
 * own in grid order as the boids are placed (flock_begin()'s copies: each
 * written from index order as its boid is placed, instead of gathered
 * from index order afterwards, which read a few scattered lines a boid):
 *
 *     grid_count_box(g, ...);                // same arguments, same errors
 *     for (size_t i = 0; i < n; i++) {       // every boid, in index order
 *         grid_place_ahead(g, i + GRID_AHEAD, n); // optional: a hint
 *         uint32_t k = grid_place(g, i);     // i's place in grid order
 *         copy[k] = ...;
 *     }
 *     grid_finish(g);
 *
 * Between grid_count_box() and grid_finish() the grid is not usable.
 */
int grid_count_box(struct grid *g, const double *x, const double *y, const double *z, size_t n,
                   double width, double height, double depth, double radius);

/*
 * grid_count_box() over the box [o[0], o[0] + width] x ... from the corner
 * o (three numbers; a plane reads two): for a flock in open space, whose
 * box is its own (the field's would pile the boids that left it into its
 * border cells).  Every cell a point falls into is then counted from o:
 * floor((v - o) / cell), the difference rounded once like the quotient, so
 * the bounds that hold for positions hold for their differences from o.
 */
int grid_count_box_from(struct grid *g, const double *x, const double *y, const double *z, size_t n,
                        const double o[3], double width, double height, double depth, double radius);

/* How far ahead of the boid being placed grid_place_ahead() is told. */
enum { GRID_AHEAD = 16 };

/* Boid i's place in grid order: the next free slot of its cell.  Call for
 * every boid in increasing index order (so that a cell lists its boids in
 * increasing order). */
static inline uint32_t grid_place(struct grid *g, size_t i)
{
	uint32_t k = g->start[g->place[i]]++;
	g->items[k] = (uint32_t)i;
	g->place[i] = k;
	return k;
}

/* grid_place() for a caller that never reads items[] (flock_begin()'s still
 * sequential pass): they are not written, and stay stale until a build by
 * grid_place(); at millions of boids that is a line written at random a boid
 * less. */
static inline uint32_t grid_place_no_items(struct grid *g, size_t i)
{
	uint32_t k = g->start[g->place[i]]++;
	g->place[i] = k;
	return k;
}

/* Asks for the cell offset boid i will need (a hint; nothing if i >= n).  At
 * millions of cells the offsets are tens of megabytes read at random. */
static inline __attribute__((always_inline)) void grid_place_ahead(const struct grid *g, size_t i, size_t n)
{
	if (i < n)
		__builtin_prefetch(&g->start[g->place[i]], 1);
}

/* Where boid i will probably be placed (exact unless boids between the one
 * being placed and i share its cell): for prefetching the caller's own
 * arrays.  i must be below n. */
static inline uint32_t grid_place_guess(const struct grid *g, size_t i)
{
	return g->start[g->place[i]];
}

/* Ends what grid_count_box() began, once every boid is placed. */
void grid_finish(struct grid *g);

/* grid_build_box() of a plane: n positions in a width x height field. */
int grid_build(struct grid *g, const double *x, const double *y, size_t n,
               double width, double height, double radius);

/*
 * floor(v / cell) clamped to [0, n - 1]; NaN goes to 0.  Between the two
 * clamps the quotient is in [0, n), where truncation is floor: no call to
 * floor() (a library call without SSE4.1) in every query.
 */
static inline int grid_clamp_cell(double v, double cell, int n)
{
	double q = v / cell;

	if (!(q >= 0)) /* also catches NaN */
		return 0;
	if (q >= n)
		return n - 1;
	return (int)q;
}

/* The cell (column, row) a position falls into, clamped to the grid.  Inline:
 * every query and every boid of grid_build() asks. */
static inline void grid_cell_of(const struct grid *g, double x, double y, int *cx, int *cy)
{
	*cx = grid_clamp_cell(x - g->ox, g->cell, g->nx);
	*cy = grid_clamp_cell(y - g->oy, g->cell, g->ny);
}

/* The layer a depth z falls into, clamped to the grid: 0 in a plane. */
static inline int grid_layer_of(const struct grid *g, double z)
{
	return grid_clamp_cell(z - g->oz, g->cell, g->nz);
}

/* The number of the cell (x, y, z) falls into; z is ignored in a plane. */
static inline size_t grid_index_of(const struct grid *g, double x, double y, double z)
{
	int cx, cy;
	grid_cell_of(g, x, y, &cx, &cy);
	size_t layer = g->nz > 1 ? (size_t)grid_layer_of(g, z) : 0;
	return (layer * (size_t)g->ny + (size_t)cy) * (size_t)g->nx + (size_t)cx;
}

/*
 * The cells within one of a point's cell on each axis, as runs of
 * consecutive cell numbers: one run per row of 1 to 3 columns, the rows of
 * a layer in order, then the next layer (3 runs, or 9 in a box).  Use as
 * in the pattern at the top.  Small, so that it lives in registers.
 */
struct grid_runs {
	uint32_t c;             /* first cell of the next run */
	uint32_t width;         /* cells in a run, minus one */
	uint32_t nx;            /* from one row to the next */
	uint32_t skip;          /* from past a layer's last row to the next layer's first */
	int rows, left;         /* rows in a layer; rows left in this one */
	int layers;             /* layers left after this one (0 in a plane) */
};

/* (always inline: the hottest loops of every model run on these) */
static inline __attribute__((always_inline))
void grid_runs_begin(struct grid_runs *r, const struct grid *g, double x, double y, double z)
{
	int cx, cy;

	grid_cell_of(g, x, y, &cx, &cy);
	int i0 = cx > 0 ? cx - 1 : 0, i1 = cx + 1 < g->nx ? cx + 1 : cx;
	int j0 = cy > 0 ? cy - 1 : 0, j1 = cy + 1 < g->ny ? cy + 1 : cy;
	r->nx = (uint32_t)g->nx;
	r->c = (uint32_t)j0 * r->nx + (uint32_t)i0;
	r->width = (uint32_t)(i1 - i0);
	r->rows = r->left = j1 - j0 + 1;
	r->skip = 0;
	r->layers = 0;
	if (g->nz > 1) {
		int cz = grid_layer_of(g, z);
		int l0 = cz > 0 ? cz - 1 : 0, l1 = cz + 1 < g->nz ? cz + 1 : cz;
		r->c += (uint32_t)l0 * (uint32_t)g->ny * r->nx;
		r->skip = ((uint32_t)g->ny - (uint32_t)r->rows) * r->nx;
		r->layers = l1 - l0;
	}
}

/* The next run: cells c0 .. c1 (both included); 0 when there is none. */
static inline __attribute__((always_inline))
int grid_runs_next(struct grid_runs *r, uint32_t *c0, uint32_t *c1)
{
	if (!r->left) {
		if (!r->layers)
			return 0;
		r->layers--;
		r->left = r->rows;
		r->c += r->skip;
	}
	r->left--;
	*c0 = r->c;
	*c1 = r->c + r->width;
	r->c += r->nx;
	return 1;
}

/*
 * Prefetching for queries that jump about a plane's field (boids visited in
 * index order), in two stages some queries apart: grid_hint_cells() finds
 * the cells a later query will read and asks for their offsets (4 bytes a
 * cell: tens of megabytes at millions of boids, not in the cache), and
 * grid_hint_runs(), a few queries later, reads those offsets and asks for
 * the runs of the arrays a[] the query will read.  Only hints: nothing is
 * written, no result changes.  So they are cheap rather than exact: the
 * cell comes from a multiplication by 1 / cell (a point within an ulp of a
 * cell's edge may be put in its neighbour, which only asks for the wrong
 * lines), and a run is asked for as its first, second and last lines,
 * without a branch (a loop over each run's lines, whose length changes
 * with every run, mispredicted about once a run: at 10,000 boids, where
 * every line is in cache, the hints then cost x1.25 of a pass; now x1.08).
 *
 * Always inlined, as every function that only prefetches must be: GCC
 * finds such a function "const" (it writes nothing) and deletes its calls
 * unless it was inlined first.  It did so to grid_prefetch() once
 * grid_cell_of() became inline, which made sequential steps at 1M boids
 * 1.7x slower, silently.
 */
struct grid_hint {
	uint32_t c;    /* the first row's first cell */
	uint32_t w;    /* cells in a row (1 to 3) */
	uint32_t rows; /* rows (1 to 3) */
};

/* An array indexed like items (state copied into grid order, flags...). */
struct grid_array {
	const void *base;
	size_t size;      /* bytes an element */
};

/* Stage one: the cells around (x, y) into *h, their offsets asked for.  A plane's grid. */
static inline __attribute__((always_inline))
void grid_hint_cells(const struct grid *g, double x, double y, struct grid_hint *h)
{
	double qx = (x - g->ox) * g->inv_cell, qy = (y - g->oy) * g->inv_cell;
	int cx = !(qx >= 0) ? 0 : qx >= g->nx ? g->nx - 1 : (int)qx; /* NaN: 0 */
	int cy = !(qy >= 0) ? 0 : qy >= g->ny ? g->ny - 1 : (int)qy;
	int i0 = cx > 0 ? cx - 1 : 0, i1 = cx + 1 < g->nx ? cx + 1 : cx;
	int j0 = cy > 0 ? cy - 1 : 0, j1 = cy + 1 < g->ny ? cy + 1 : cy;

	h->c = (uint32_t)j0 * (uint32_t)g->nx + (uint32_t)i0;
	h->w = (uint32_t)(i1 - i0 + 1);
	h->rows = (uint32_t)(j1 - j0 + 1);
	for (uint32_t r = 0, c = h->c; r < h->rows; r++, c += (uint32_t)g->nx) {
		__builtin_prefetch(&g->start[c]);
		__builtin_prefetch(&g->start[c + h->w]);
	}
}

/* Stage two: asks for the runs of the n arrays a[] that the cells in *h hold. */
static inline __attribute__((always_inline))
void grid_hint_runs(const struct grid *g, const struct grid_hint *h, const struct grid_array *a, int n)
{
	for (uint32_t r = 0, c = h->c; r < h->rows; r++, c += (uint32_t)g->nx) {
		uint32_t k0 = g->start[c], k1 = g->start[c + h->w];
		uint32_t last = k1 > k0 ? k1 - 1 : k0; /* an empty run asks for one line */
		for (int m = 0; m < n; m++) {
			uintptr_t lo = (uintptr_t)a[m].base + (size_t)k0 * a[m].size;
			uintptr_t hi = (uintptr_t)a[m].base + (size_t)last * a[m].size;
			__builtin_prefetch((const void *)lo);
			__builtin_prefetch((const void *)(lo + 64 < hi ? lo + 64 : hi));
			__builtin_prefetch((const void *)hi);
			for (uintptr_t q = lo + 128; q < (hi & ~(uintptr_t)63); q += 64) /* 4 lines or more: rare */
				__builtin_prefetch((const void *)q);
		}
	}
}

/* Frees what the grid holds; the grid may be built again after grid_init(). */
void grid_release(struct grid *g);

#endif
