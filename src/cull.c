/*
 * cull — the boids inside a rectangle through a grid; see include/cull.h.
 * Start at cull_rect().
 */
#include "cull.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

#define CELLS_ACROSS 4.0 /* cells along the rectangle's longer side, at most */

void cull_init(struct cull *c)
{
	memset(c, 0, sizeof(*c));
	grid_init(&c->grid);
}

void cull_release(struct cull *c)
{
	grid_release(&c->grid);
	free(c->bits);
	free(c->idx);
	cull_init(c);
}

/* Marks the boids of grid cells [c0, c1] inside rect; returns how many. */
static size_t mark_run(struct cull *c, const double *x, const double *y, uint32_t c0, uint32_t c1,
                       const double rect[4])
{
	const struct grid *g = &c->grid;
	size_t kept = 0;

	for (uint32_t k = g->start[c0]; k < g->start[c1 + 1]; k++) {
		uint32_t i = g->items[k];
		if (x[i] >= rect[0] && x[i] <= rect[2] && y[i] >= rect[1] && y[i] <= rect[3]) {
			c->bits[i >> 6] |= (uint64_t)1 << (i & 63);
			kept++;
		}
	}
	return kept;
}

int cull_rect(struct cull *c, const double *x, const double *y, size_t n, double width, double height,
              const double rect[4], size_t also, size_t *m)
{
	size_t words = (n + 63) / 64, kept = 0;
	double side = fmax(rect[2] - rect[0], rect[3] - rect[1]) / CELLS_ACROSS;

	*m = 0;
	if (grow(&c->bits, &c->bits_cap, words ? words : 1, words ? words : 1, sizeof(*c->bits)) != 0 ||
	    grid_build(&c->grid, x, y, n, width, height, side > 0 ? side : 1) != 0)
		return -ENOMEM;
	memset(c->bits, 0, (words ? words : 1) * sizeof(*c->bits));
	const struct grid *g = &c->grid;
	int cx0, cy0, cx1, cy1;
	grid_cell_of(g, rect[0], rect[1], &cx0, &cy0);
	grid_cell_of(g, rect[2], rect[3], &cx1, &cy1);
	for (int cy = cy0; cy <= cy1; cy++) /* a row of cells is one run of the grid's order */
		kept += mark_run(c, x, y, (uint32_t)cy * (uint32_t)g->nx + (uint32_t)cx0,
		                 (uint32_t)cy * (uint32_t)g->nx + (uint32_t)cx1, rect);
	if (also < n && !(c->bits[also >> 6] >> (also & 63) & 1)) {
		c->bits[also >> 6] |= (uint64_t)1 << (also & 63);
		kept++;
	}
	if (grow(&c->idx, &c->idx_cap, kept ? kept : 1, kept + kept / 2 + 1, sizeof(*c->idx)) != 0)
		return -ENOMEM;
	for (size_t w = 0, k = 0; w < words && k < kept; w++)
		for (uint64_t b = c->bits[w]; b; b &= b - 1)
			c->idx[k++] = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(b));
	*m = kept;
	return 0;
}
