/*
 * metrics — six numbers that describe the state of a flock, for one frame.
 *
 *   polarization     length of the mean unit heading, 0 (disordered) .. 1
 *                    (everyone flies the same way)
 *   milling          |mean of r^ x u^|: r^ the unit vector from the centroid
 *                    to a boid, u^ its unit heading (in 2D the cross
 *                    product is a number, in 3D a vector); 0 .. 1 (a
 *                    rotating mill)
 *   mean_speed       mean of |v| over every boid, pixels per step
 *   nn_distance      mean distance from each boid to its nearest other boid
 *   gyration_radius  sqrt(mean |r|^2), r the offset from the centroid
 *   clusters         connected groups when boids closer than the cluster
 *                    radius (strictly) are linked; union-find
 *
 * Conventions, so that every number is finite and defined:
 * - A boid at rest (|v| = 0) has no heading: it is left out of polarization
 *   and milling (it still counts in mean_speed, nn_distance, gyration and
 *   clusters).  A boid exactly at the centroid has no r^: it is left out of
 *   milling.  When nobody is left, polarization or milling is 0.
 * - With fewer than 2 boids nn_distance is 0; with 0 boids everything is 0.
 *   Boids at the same point are at distance 0 from each other.
 * - With wrap, the field is a torus [0,W) x [0,H): positions are first
 *   reduced into it, and every distance (nearest neighbour, cluster links,
 *   offsets from the centroid) is the minimum image.  The centroid is then
 *   the circular mean of each coordinate (Bai & Breen 2008): each x maps to
 *   the angle 2 pi x / W, the mean of the unit vectors gives an angle, and
 *   that angle maps back to x; the same for y.  r is the minimum-image offset
 *   from that centroid, so a flock straddling an edge has the centroid and
 *   radius of gyration it would have away from the edge.  (A flock spread
 *   evenly over the whole torus has no meaningful centre; the numbers are
 *   then those about the point the circular mean happens to give.)
 * - Without wrap, distances are Euclidean and the field size is not used.
 * - A 3D flock (z set) is measured in 3D: every vector, distance and offset
 *   has its z component, and with wrap the box is a 3-torus [0,W) x [0,H) x
 *   [0,D), z reduced, circular-meaned and minimum-imaged like x and y.  A
 *   3D flock in one plane (z constant, vz 0) gives its 2D numbers (to
 *   rounding).
 *
 * Cost is O(n) per frame for flocks of bounded density: two uniform grids
 * (grid.h), one with cells near the mean spacing for the nearest-neighbour
 * ring search, one with cells whose diagonal is under the cluster radius
 * (0.7 r in 2D) so every cell is one linked group before cells are joined.  All scratch memory lives in a
 * struct metrics_ctx reused from frame to frame.  Results depend only on the
 * input (single-threaded, fixed visiting order).
 *
 * This module knows no files beyond writing CSV rows to a FILE*; it never
 * prints anything else.  Start reading at metrics_compute().
 */
#ifndef BOIDS_METRICS_H
#define BOIDS_METRICS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "grid.h"

/* The numbers of one frame. */
struct metrics {
	double polarization;    /* 0..1 */
	double milling;         /* 0..1 */
	double mean_speed;      /* pixels per step */
	double nn_distance;     /* pixels */
	double gyration;        /* radius of gyration, pixels */
	long clusters;          /* >= 1 when there are boids */
};

/* One frame of a flock; the arrays are only read. */
struct metrics_input {
	size_t n;                /* boids (at most UINT32_MAX - 1) */
	const double *x, *y;     /* positions, pixels, |.| < 1e100 */
	const double *vx, *vy;   /* velocities, pixels per step, |.| < 1e100 */
	double width, height;    /* field size in (0, 1e100); used only with wrap */
	int wrap;                /* nonzero: toroidal field, minimum-image distances */
	double cluster_radius;   /* boids closer than this are linked, in (0, 1e100) */
	const double *z, *vz;    /* 3D: depth and its velocity, |.| < 1e100; NULL for a 2D flock */
	double depth;            /* 3D: the box's third side in (0, 1e100); used only with wrap */
};

/* Reusable scratch memory; treat as opaque. */
struct metrics_ctx {
	struct grid near;       /* cells near the mean spacing: nearest neighbour */
	struct grid link;       /* cells of 0.7 cluster radius: clusters */
	double *px, *py, *pz;   /* positions moved into the grids' box (pz: 3D only) */
	double *nearx, *neary, *nearz;  /* px, py, pz in `near` grid order */
	double *linkx, *linky, *linkz;  /* px, py, pz in `link` grid order */
	uint32_t *parent;       /* union-find over `link` grid order */
	uint32_t *size;         /* union-find: size of each root's set */
	size_t cap;             /* boids the arrays hold */
	size_t zcap;            /* boids the z arrays hold (0 until a 3D flock) */
	size_t visits;          /* read only: boids the last metrics_compute() compared
	                         * with another (nearest neighbour and cluster links):
	                         * a bounded number per boid when the cost is O(n) */
};

/* Number of metrics, and the order used by the names, CSV and JSON. */
#define METRICS_COUNT 6

/* Makes an empty context; nothing is allocated until metrics_compute(). */
void metrics_ctx_init(struct metrics_ctx *c);

/* Frees what the context holds; it may be used again after metrics_ctx_init(). */
void metrics_ctx_release(struct metrics_ctx *c);

/*
 * Computes the six metrics of one frame into *out.  Returns 0, -EINVAL (a
 * number out of the ranges above, NaN or infinite, or too many boids) or
 * -ENOMEM; *out is only written on success.  Memory grows to fit n and is
 * kept for the next call.
 */
int metrics_compute(struct metrics_ctx *c, const struct metrics_input *in, struct metrics *out);

#define METRICS_CORE 0.95 /* metrics_largest(): its radius holds this share of the cluster */

/*
 * The largest of the frame's clusters (the `clusters` above: the same
 * links), for a view that follows the flock: its centre into centre[]
 * (the mean of its members' positions; on a torus of their minimum-image
 * offsets from one of them, reduced into the field; z 0 in 2D) and into
 * *radius the distance from it within which METRICS_CORE of its members
 * lie (to within 1/1024 of the farthest's distance, above: a halo of
 * stragglers does not widen it).  Of clusters of one size, the one holding the boid that comes
 * first in the cluster grid's order (a function of the positions).
 * Returns 0, -EINVAL (as metrics_compute(), or no boids) or -ENOMEM.
 */
int metrics_largest(struct metrics_ctx *c, const struct metrics_input *in, double centre[3], double *radius);

/*
 * Name of metric i < METRICS_COUNT as in the CSV header and the summary:
 * polarization, milling, mean_speed, nn_distance, gyration_radius, clusters.
 * NULL for other i.
 */
const char *metrics_name(size_t i);

/* Value of metric i < METRICS_COUNT (clusters as a double); NAN for other i. */
double metrics_value(const struct metrics *m, size_t i);

/*
 * Writes the CSV header line
 * "frame,polarization,milling,mean_speed,nn_distance,gyration_radius,clusters".
 * Returns 0 or the failing write's -errno (-EIO when it left none).
 */
int metrics_write_header(FILE *f);

/* Writes one CSV row, numbers with %.17g (they read back exactly).  Returns 0 or -errno, as above. */
int metrics_write_row(FILE *f, long frame, const struct metrics *m);

#endif
