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
	g->nx = cells_along(width, cell);
	g->ny = cells_along(height, cell);
	g->nz = z ? cells_along(depth, cell) : 1;
	size_t layer = (size_t)g->nx * (size_t)g->ny, ncells = layer * (size_t)g->nz;
	if (ncells > g->cap_cells) {
		uint32_t *p = realloc(g->start, (ncells + 1) * sizeof(*p));
		if (!p)
			goto fail;
		g->start = p;
		g->cap_cells = ncells;
		hugemem_advise(p, (ncells + 1) * sizeof(*p));
	}
	if (n > g->cap_items || !g->items) {
		size_t cap = n ? n : 1;
		uint32_t *a = realloc(g->items, cap * sizeof(*a));
		if (!a)
			goto fail;
		g->items = a;
		uint32_t *b = realloc(g->place, cap * sizeof(*b));
		if (!b)
			goto fail;
		g->place = b;
		g->cap_items = cap;
		hugemem_advise(a, cap * sizeof(*a));
		hugemem_advise(b, cap * sizeof(*b));
	}

	memset(g->start, 0, (ncells + 1) * sizeof(*g->start));
	for (size_t i = 0; i < n; i++) {
		int cx, cy;
		grid_cell_of(g, x[i], y[i], &cx, &cy);
		uint32_t c = (uint32_t)cy * (uint32_t)g->nx + (uint32_t)cx;
		if (z)
			c += (uint32_t)grid_layer_of(g, z[i]) * (uint32_t)layer;
		g->place[i] = c; /* its cell for now; its place below */
		g->start[c + 1]++;
	}
	for (size_t c = 0; c < ncells; c++)
		g->start[c + 1] += g->start[c];
	/* Place boids in index order; start[c] runs ahead and is restored below. */
	for (size_t i = 0; i < n; i++) {
		uint32_t k = g->start[g->place[i]]++;
		g->items[k] = (uint32_t)i;
		g->place[i] = k;
	}
	for (size_t c = ncells; c > 0; c--)
		g->start[c] = g->start[c - 1];
	g->start[0] = 0;
	return 0;
fail:
	grid_release(g);
	return -ENOMEM;
}
