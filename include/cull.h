/*
 * cull — the boids of a plane's flock inside a rectangle, in index order,
 * found through a uniform grid (grid.h) rather than by looking at every
 * boid's position: a frame zoomed onto part of a big flock copies and
 * draws that part only.
 *
 * cull_rect() indexes the positions in a grid over the field whose cells
 * are about a quarter of the rectangle's longer side (fewer when the grid
 * would hold more than its cap of about 4n cells), reads the cells the
 * rectangle touches (each lists its boids in increasing order; a boid off
 * the field sits in the border cell nearest to it), keeps each boid whose
 * position lies in the rectangle (edges included), and marks it in a
 * bitmap of the flock, which read word by word gives the kept boids in
 * increasing index order, the order they are drawn in.  Boids whose
 * position is not finite are never kept (they are never drawn).
 *
 * The grid's cost is that of grid_build(), a counting sort of the
 * positions; the rest grows with the cells and the boids in the
 * rectangle, and with n / 64 words of the bitmap.
 */
#ifndef BOIDS_CULL_H
#define BOIDS_CULL_H

#include <stddef.h>
#include <stdint.h>

#include "grid.h"

struct cull {
	struct grid grid;       /* over the positions of the last cull_rect() */
	uint64_t *bits;         /* one bit a boid: kept */
	size_t bits_cap;        /* words */
	uint32_t *idx;          /* the kept boids, increasing (cull_rect()'s *m of them) */
	size_t idx_cap;
};

/* Makes an empty cull; nothing is allocated until cull_rect(). */
void cull_init(struct cull *c);

/*
 * The boids i < n with rect[0] <= x[i] <= rect[2] and rect[1] <= y[i] <=
 * rect[3] into c->idx[0 .. *m), increasing, and boid `also` too when it is
 * below n (a boid the caller needs whatever its place: SIZE_MAX for none).
 * The grid covers the field width x height.  Returns 0 or -ENOMEM (then
 * *m is 0).
 */
int cull_rect(struct cull *c, const double *x, const double *y, size_t n, double width, double height,
              const double rect[4], size_t also, size_t *m);

/* Frees what c holds; it may be used again after cull_init(). */
void cull_release(struct cull *c);

#endif
