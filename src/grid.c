/*
 * grid — counting-sort uniform grid; see include/grid.h.
 */
#include "grid.h"
#include "hugemem.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void grid_init(struct grid *g)
{
	memset(g, 0, sizeof(*g));
	g->nx = g->ny = g->nz = 1;
	g->cell = 1;
	g->inv_cell = 1;
}

void grid_release(struct grid *g)
{
	free(g->start);
	free(g->items);
	free(g->place);
	grid_init(g);
}

static int cells_along(double extent, double cell)
{
	double n = ceil(extent / cell);

	if (!(n >= 1))
		return 1;
	if (n > 1 << 20)
		return 1 << 20;
	return (int)n;
}

int grid_build(struct grid *g, const double *x, const double *y, size_t n,
               double width, double height, double radius)
{
	return grid_build_box(g, x, y, NULL, n, width, height, 0, radius);
}

int grid_build_box(struct grid *g, const double *x, const double *y, const double *z, size_t n,
                   double width, double height, double depth, double radius)
{
	int err = grid_count_box(g, x, y, z, n, width, height, depth, radius);
	if (err)
		return err;
	for (size_t i = 0; i < n; i++) {
		grid_place_ahead(g, i + GRID_AHEAD, n);
		if (i + GRID_AHEAD / 2 < n)
			__builtin_prefetch(&g->items[grid_place_guess(g, i + GRID_AHEAD / 2)], 1);
		grid_place(g, i);
	}
	grid_finish(g);
	return 0;
}

enum { COUNT_AHEAD = 16 }; /* the count's increments: asked for so far ahead */

int grid_count_box(struct grid *g, const double *x, const double *y, const double *z, size_t n,
                   double width, double height, double depth, double radius)
{
	static const double field[3] = { 0, 0, 0 };

	return grid_count_box_from(g, x, y, z, n, field, width, height, depth, radius);
}

int grid_count_box_from(struct grid *g, const double *x, const double *y, const double *z, size_t n,
                        const double o[3], double width, double height, double depth, double radius)
{
	double cell = radius > 0 ? radius : 1;
	/* Few cells per boid keeps memory and the clearing pass O(n). */
	double max_cells = 4.0 * (double)n + 64;

	if (!(width > 0))
		width = 1;
	if (!(height > 0))
		height = 1;
	if (!(depth > 0))
		depth = 1;
	while ((double)cells_along(width, cell) * cells_along(height, cell) *
	       (z ? cells_along(depth, cell) : 1) > max_cells)
		cell *= 1.5;

	g->cell = cell;
	g->inv_cell = 1 / cell;
	g->ox = o[0];
	g->oy = o[1];
	g->oz = z ? o[2] : 0;
	g->nx = cells_along(width, cell);
	g->ny = cells_along(height, cell);
	g->nz = z ? cells_along(depth, cell) : 1;
	size_t layer = (size_t)g->nx * (size_t)g->ny, ncells = layer * (size_t)g->nz;
	if (ncells > g->cap_cells) {
		free(g->start);
		g->start = hugemem_alloc((ncells + 1) * sizeof(*g->start));
		if (!g->start)
			goto fail;
		g->cap_cells = ncells;
	}
	if (n > g->cap_items || !g->items) {
		size_t cap = n ? n : 1;
		free(g->items);
		free(g->place);
		g->items = hugemem_alloc(cap * sizeof(*g->items));
		g->place = hugemem_alloc(cap * sizeof(*g->place));
		if (!g->items || !g->place)
			goto fail;
		g->cap_items = cap;
	}

	memset(g->start, 0, (ncells + 1) * sizeof(*g->start));
	for (size_t i = 0; i < n; i++) {
		int cx, cy;
		grid_cell_of(g, x[i], y[i], &cx, &cy);
		uint32_t c = (uint32_t)cy * (uint32_t)g->nx + (uint32_t)cx;
		if (z)
			c += (uint32_t)grid_layer_of(g, z[i]) * (uint32_t)layer;
		g->place[i] = c; /* its cell until grid_place() */
	}
	/* the counts, at random over the cells: asked for ahead */
	for (size_t i = 0; i < n; i++) {
		if (i + COUNT_AHEAD < n)
			__builtin_prefetch(&g->start[g->place[i + COUNT_AHEAD] + 1], 1);
		g->start[g->place[i] + 1]++;
	}
	for (size_t c = 0; c < ncells; c++)
		g->start[c + 1] += g->start[c];
	/* start[c] is now cell c's first place; grid_place() runs it ahead */
	return 0;
fail:
	grid_release(g);
	return -ENOMEM;
}

void grid_finish(struct grid *g)
{
	size_t ncells = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;

	for (size_t c = ncells; c > 0; c--) /* each start[c] ran to the next cell's first */
		g->start[c] = g->start[c - 1];
	g->start[0] = 0;
}
