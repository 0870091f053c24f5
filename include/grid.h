/*
 * grid — a uniform-grid neighbour index over boid positions.
 *
 * The field [0,W] x [0,H] is cut into square cells of edge >= the search
 * radius; positions outside the field (or not finite) fall into the nearest
 * border cell, which keeps the rule "two points closer than the radius lie in
 * the same or adjacent cells" true everywhere.  grid_build() is a counting
 * sort, so within a cell boids are listed in increasing index order and the
 * visiting order is a pure function of the positions: it does not depend on
 * the number of threads that later read the grid.
 *
 * Start reading at grid_build(); the query pattern is
 *
 *     int cx, cy;
 *     grid_cell_of(g, x, y, &cx, &cy);
 *     for each (i, j) in [cx-1, cx+1] x [cy-1, cy+1] inside the grid:
 *         for (k = g->start[c]; k < g->start[c + 1]; k++) use g->items[k];
 */
#ifndef BOIDS_GRID_H
#define BOIDS_GRID_H

#include <stddef.h>
#include <stdint.h>

struct grid {
	double cell;      /* cell edge length, >= the radius asked for */
	int nx, ny;       /* cells across and down, >= 1 */
	uint32_t *start;  /* nx*ny + 1 offsets into items */
	uint32_t *items;  /* boid indices grouped by cell, ascending in a cell */
	uint32_t *place;  /* where each boid is in items: items[place[i]] == i */
	size_t cap_cells; /* allocated length of start, minus one */
	size_t cap_items; /* allocated length of items and place */
};

/* Makes an empty grid; nothing is allocated until grid_build(). */
void grid_init(struct grid *g);

/*
 * Indexes n positions in a width x height field with cells of edge at least
 * radius (radius <= 0 or huge is fine: the cell count is capped near n).
 * Returns 0, or -ENOMEM (the grid is then left empty but valid).
 */
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
	*cx = grid_clamp_cell(x, g->cell, g->nx);
	*cy = grid_clamp_cell(y, g->cell, g->ny);
}

/* An array indexed like items (state copied into grid order, flags...). */
struct grid_array {
	const void *base;
	size_t size;      /* bytes an element */
};

/*
 * Asks the processor to start loading what a query at (x, y) will read:
 * the 3 x 3 cells' runs of the n arrays a[].  Only a hint: nothing is read
 * or written, no result changes.  Call it for a point some queries ahead of
 * the one being answered when queries jump about the field (boids visited
 * in index order): the cells are then in cache by the time they are read.
 *
 * Always inlined, as every function that only prefetches must be: GCC
 * finds such a function "const" (it writes nothing) and deletes its calls
 * unless it was inlined first.  It did so to this one once grid_cell_of() became
 * inline, which made sequential steps at 1M boids 1.7x slower, silently.
 */
static inline __attribute__((always_inline))
void grid_prefetch(const struct grid *g, double x, double y,
                   const struct grid_array *a, int n)
{
	int cx, cy;
	grid_cell_of(g, x, y, &cx, &cy);
	int i0 = cx > 0 ? cx - 1 : 0, i1 = cx + 1 < g->nx ? cx + 1 : cx;
	int j0 = cy > 0 ? cy - 1 : 0, j1 = cy + 1 < g->ny ? cy + 1 : cy;
	for (int j = j0; j <= j1; j++) {
		size_t row = (size_t)j * (size_t)g->nx;
		uint32_t k0 = g->start[row + (size_t)i0], k1 = g->start[row + (size_t)i1 + 1];
		if (k0 >= k1)
			continue;
		for (int m = 0; m < n; m++) {
			const char *lo = (const char *)a[m].base + (size_t)k0 * a[m].size;
			const char *hi = (const char *)a[m].base + (size_t)(k1 - 1) * a[m].size;
			for (const char *q = lo; q <= hi; q += 64)
				__builtin_prefetch(q);
			__builtin_prefetch(hi); /* the last line, when the run is not aligned */
		}
	}
}

/* Frees what the grid holds; the grid may be built again after grid_init(). */
void grid_release(struct grid *g);

#endif
