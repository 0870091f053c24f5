/*
 * metrics — order parameters of a flock; see include/metrics.h for the
 * definitions.  metrics_compute() validates and places the positions in a
 * box (the torus, or the flock's bounding box), then runs three passes:
 * centroid-based numbers (centre_pass), nearest neighbours (nn_pass) and
 * clusters (cluster_pass), the last two over their own uniform grid.
 *
 * Wrap and the grid: grid.h cuts [0,W] into cells of edge `cell`, the last
 * one shorter when W is not a multiple of it.  On a torus that short cell
 * sits between the last and the first column, so two cells k columns apart
 * (the short way round) may be as close as (k-1)*cell - deficit, deficit =
 * nx*cell - W.  The cluster pass's reach subtracts it; the nearest-neighbour
 * search measures the distance to the actual columns not yet seen.
 * Neighbour windows are cut to nx distinct columns so that no cell is
 * visited twice when they wrap.  The same holds along z in 3D.
 */
#include "metrics.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

/* Largest magnitude accepted: squares and their sums stay finite. */
#define BIG 1e100

/*
 * A pass written once for 2D and 3D, with and without wrap: the flags are
 * constants at each call, and forced inlining makes a copy per combination,
 * so the 2D copies do no work for z.
 */
#define SPECIALIZED static inline __attribute__((always_inline))

static const char *const names[METRICS_COUNT] = {
	"polarization", "milling", "mean_speed", "nn_distance", "gyration_radius", "clusters",
};

void metrics_ctx_init(struct metrics_ctx *c)
{
	memset(c, 0, sizeof(*c));
	grid_init(&c->near);
	grid_init(&c->link);
}

void metrics_ctx_release(struct metrics_ctx *c)
{
	grid_release(&c->near);
	grid_release(&c->link);
	free(c->px);
	free(c->py);
	free(c->pz);
	free(c->nearx);
	free(c->neary);
	free(c->nearz);
	free(c->linkx);
	free(c->linky);
	free(c->linkz);
	free(c->parent);
	free(c->size);
	metrics_ctx_init(c);
}

/* Room for n boids; the z arrays only for a 3D flock (three), so 2D allocates nothing more. */
static int reserve(struct metrics_ctx *c, size_t n, int three)
{
	size_t cap = n ? n : 1;

	/* Each array keeps its old block on failure; a cap only moves when all of its arrays grew. */
	if (cap > c->cap) {
		if (grow_to(&c->px, cap, sizeof(*c->px)) || grow_to(&c->py, cap, sizeof(*c->py)) ||
		    grow_to(&c->nearx, cap, sizeof(*c->nearx)) || grow_to(&c->neary, cap, sizeof(*c->neary)) ||
		    grow_to(&c->linkx, cap, sizeof(*c->linkx)) || grow_to(&c->linky, cap, sizeof(*c->linky)) ||
		    grow_to(&c->parent, cap, sizeof(*c->parent)) ||
		    grow_to(&c->size, cap, sizeof(*c->size)))
			return -ENOMEM;
		c->cap = cap;
	}
	if (three && cap > c->zcap) {
		if (grow_to(&c->pz, cap, sizeof(*c->pz)) || grow_to(&c->nearz, cap, sizeof(*c->nearz)) ||
		    grow_to(&c->linkz, cap, sizeof(*c->linkz)))
			return -ENOMEM;
		c->zcap = cap;
	}
	return 0;
}

/* ------------------------------------------------------------------ space */

/* Where the positions live: a torus of w x h (x d), or open space. */
struct space {
	int wrap;
	int three;              /* a 3D flock: z counts */
	double w, h, d;         /* torus size; the box the grids cover (d: 3D only) */
};

/* A coordinate difference, the short way round on a torus. */
static inline double sep(double d, int wrap, double period)
{
	if (wrap) {
		if (d > 0.5 * period)
			d -= period;
		else if (d < -0.5 * period)
			d += period;
	}
	return d;
}

/* fmin/fmax without their NaN rules, which keep them out of line. */
static inline double lesser(double a, double b) { return b < a ? b : a; }
static inline double greater(double a, double b) { return b > a ? b : a; }

/* x reduced into [0, period). */
static double reduce(double x, double period)
{
	double r = x - period * floor(x / period);

	return r >= 0 && r < period ? r : 0; /* rounding can give period itself */
}

/* Offsets of the cells a search may visit around column `at` of `n`. */
struct window {
	int lo, hi;
};

static struct window window_of(int at, int n, int wrap)
{
	struct window w;

	if (wrap) {             /* n distinct columns, centred */
		w.lo = -((n - 1) / 2);
		w.hi = w.lo + n - 1;
	} else {                /* the columns that exist */
		w.lo = -at;
		w.hi = n - 1 - at;
	}
	return w;
}

static inline int column(int at, int d, int n, int wrap)
{
	int c = at + d;

	if (wrap) {
		if (c < 0)
			c += n;
		else if (c >= n)
			c -= n;
	}
	return c;
}

/* The grid over the flock: cubic cells in a box (grid_build_box()). */
static int build_grid(struct grid *g, const double *px, const double *py, const double *pz, size_t n,
                      const struct space *sp, double radius)
{
	return grid_build_box(g, px, py, sp->three ? pz : NULL, n, sp->w, sp->h, sp->d, radius);
}

/* Layers of cells along z: 1 in a plane. */
static inline int layers(const struct grid *g)
{
	return g->nz;
}

/* How deep a layer is: the box's depth when it is the only one. */
static inline double layer_depth(const struct grid *g, const struct space *sp)
{
	return layers(g) > 1 ? g->cell : sp->d;
}

/* The number of cell (cx, cy, cz): layers of rows. */
static inline uint32_t cell_at(const struct grid *g, int cx, int cy, int cz)
{
	return ((uint32_t)cz * (uint32_t)g->ny + (uint32_t)cy) * (uint32_t)g->nx + (uint32_t)cx;
}

/* How much shorter than a cell the last one of a torus grid is along an axis (0 x, 1 y, 2 z). */
static double deficit(const struct grid *g, const struct space *sp, int axis)
{
	if (!sp->wrap)
		return 0;
	double d = axis == 0 ? g->nx * g->cell - sp->w
	         : axis == 1 ? g->ny * g->cell - sp->h
	         : layers(g) * layer_depth(g, sp) - sp->d;
	return d > 0 ? d : 0;
}

/* Copies px, py (and pz unless NULL) into grid order. */
static void gather(const struct grid *g, const double *px, const double *py, const double *pz,
                   size_t n, double *ox, double *oy, double *oz)
{
	for (size_t k = 0; k < n; k++) {
		uint32_t i = g->items[k];
		ox[k] = px[i];
		oy[k] = py[i];
	}
	if (pz)
		for (size_t k = 0; k < n; k++)
			oz[k] = pz[g->items[k]];
}

/* --------------------------------------------------------------- centroid */

/*
 * Offset of the centre along one axis from p[0]: the plain mean of the
 * offsets p[i] - p[0], or on a torus their circular mean.  Measuring from
 * p[0] makes boids at one point give exactly 0.
 */
static double centre_offset(const double *p, size_t n, int wrap, double period)
{
	double p0 = p[0];

	if (!wrap) {
		double s = 0;
		for (size_t i = 0; i < n; i++)
			s += p[i] - p0;
		return s / (double)n;
	}
	double k = 2 * M_PI / period, c = 0, s = 0;
	for (size_t i = 0; i < n; i++) {
		double a = k * sep(p[i] - p0, 1, period);
		c += cos(a);
		s += sin(a);
	}
	return atan2(s, c) / k;
}

/* Polarization, milling, mean speed and radius of gyration of a 2D flock. */
static void centre_pass(const struct metrics_input *in, const double *px, const double *py,
                        const struct space *sp, struct metrics *out)
{
	size_t n = in->n;
	double mx = centre_offset(px, n, sp->wrap, sp->w);
	double my = centre_offset(py, n, sp->wrap, sp->h);
	double ux = 0, uy = 0, speed = 0, r2 = 0, mill = 0;
	size_t moving = 0, milling = 0;

	for (size_t i = 0; i < n; i++) {
		double rx = sep(sep(px[i] - px[0], sp->wrap, sp->w) - mx, sp->wrap, sp->w);
		double ry = sep(sep(py[i] - py[0], sp->wrap, sp->h) - my, sp->wrap, sp->h);
		double s = sqrt(in->vx[i] * in->vx[i] + in->vy[i] * in->vy[i]);
		double r = sqrt(rx * rx + ry * ry); /* no overflow: inputs are < 1e100 */

		speed += s;
		r2 += rx * rx + ry * ry;
		if (s > 0) { /* at rest: no heading */
			double hx = in->vx[i] / s, hy = in->vy[i] / s;
			ux += hx;
			uy += hy;
			moving++;
			if (r > 0) { /* at the centroid: no direction from it */
				mill += (rx * hy - ry * hx) / r;
				milling++;
			}
		}
	}
	out->polarization = moving ? hypot(ux, uy) / (double)moving : 0;
	out->milling = milling ? fabs(mill) / (double)milling : 0;
	out->mean_speed = speed / (double)n;
	out->gyration = sqrt(r2 / (double)n);
}

/* The length of (x, y, z) without overflow or underflow on the way. */
static double norm3(double x, double y, double z)
{
	return hypot(hypot(x, y), z);
}

/* The same four numbers of a 3D flock: milling is the length of the mean cross product. */
static void centre_pass3(const struct metrics_input *in, const double *px, const double *py,
                         const double *pz, const struct space *sp, struct metrics *out)
{
	size_t n = in->n;
	double mx = centre_offset(px, n, sp->wrap, sp->w);
	double my = centre_offset(py, n, sp->wrap, sp->h);
	double mz = centre_offset(pz, n, sp->wrap, sp->d);
	double u[3] = { 0, 0, 0 }, mill[3] = { 0, 0, 0 }, speed = 0, r2 = 0;
	size_t moving = 0, milling = 0;

	for (size_t i = 0; i < n; i++) {
		double rx = sep(sep(px[i] - px[0], sp->wrap, sp->w) - mx, sp->wrap, sp->w);
		double ry = sep(sep(py[i] - py[0], sp->wrap, sp->h) - my, sp->wrap, sp->h);
		double rz = sep(sep(pz[i] - pz[0], sp->wrap, sp->d) - mz, sp->wrap, sp->d);
		double vx = in->vx[i], vy = in->vy[i], vz = in->vz[i];
		double s = sqrt(vx * vx + vy * vy + vz * vz);
		double r = sqrt(rx * rx + ry * ry + rz * rz);

		speed += s;
		r2 += rx * rx + ry * ry + rz * rz;
		if (s > 0) {
			double hx = vx / s, hy = vy / s, hz = vz / s;
			u[0] += hx;
			u[1] += hy;
			u[2] += hz;
			moving++;
			if (r > 0) {
				mill[0] += (ry * hz - rz * hy) / r;
				mill[1] += (rz * hx - rx * hz) / r;
				mill[2] += (rx * hy - ry * hx) / r;
				milling++;
			}
		}
	}
	out->polarization = moving ? norm3(u[0], u[1], u[2]) / (double)moving : 0;
	out->milling = milling ? norm3(mill[0], mill[1], mill[2]) / (double)milling : 0;
	out->mean_speed = speed / (double)n;
	out->gyration = sqrt(r2 / (double)n);
}

/* ------------------------------------------------------ nearest neighbour */

/* Distance from p to the interval [lo, hi] of an axis (the short way on a torus). */
static inline double to_interval(double p, double lo, double hi, int wrap, double period)
{
	double d = fabs(sep(p - 0.5 * (lo + hi), wrap, period)) - 0.5 * (hi - lo);
	return d > 0 ? d : 0;
}

/* The extent [lo, hi] of cell k of an axis of cells of `size` in a box `span` long. */
static inline void extent(int k, double size, double span, int wrap, double *lo, double *hi)
{
	*lo = k * size;
	/* without wrap the last cells hold boids up to the box's edge, wherever it is */
	*hi = wrap ? lesser(*lo + size, span) : *lo + size;
}


/* Positions in grid order, and where they live. */
struct points {
	const double *x, *y, *z; /* z: 3D only */
	const struct space *sp;
	size_t *visits;          /* candidates looked at (struct metrics_ctx's count) */
};

/* Squared distance from boid j to (x, y, z); `three` and `wrap` are constants in each copy. */
SPECIALIZED double dist2(const struct points *p, uint32_t j, double x, double y, double z,
                           const int wrap, const int three)
{
	double dx = sep(p->x[j] - x, wrap, p->sp->w);
	double dy = sep(p->y[j] - y, wrap, p->sp->h);
	double d2 = dx * dx + dy * dy;
	if (three) {
		double dz = sep(p->z[j] - z, wrap, p->sp->d);
		d2 += dz * dz;
	}
	return d2;
}

/* Smallest squared distance from (x, y, z) to a boid of cell `c` other than `self`. */
SPECIALIZED double cell_nearest(const struct grid *g, const struct points *p, uint32_t c,
                                  uint32_t self, double x, double y, double z, double best,
                                  const int wrap, const int three)
{
	*p->visits += g->start[c + 1] - g->start[c];
	for (uint32_t j = g->start[c]; j < g->start[c + 1]; j++) {
		double d2 = dist2(p, j, x, y, z, wrap, three);
		if (d2 < best && j != self) {
			best = d2;
			if (best == 0)
				break; /* boids at one point: nothing is nearer */
		}
	}
	return best;
}

/* Where a boid's search stands: its cell and the windows of cells around it. */
struct around {
	int cx, cy, cz;
	struct window wx, wy, wz;
};

/*
 * Ring `ring` of cells around a boid (the cells at Chebyshev distance ring):
 * whole rows on the top and bottom of each layer and on the first and last
 * layer, the two side cells elsewhere.
 */
SPECIALIZED double ring_nearest(const struct grid *g, const struct points *p, const struct around *a,
                                  int ring, uint32_t self, double x, double y, double z, double best,
                                  const int wrap, const int three)
{
	int nz = three ? layers(g) : 1;
	int zlo = !three ? 0 : a->wz.lo > -ring ? a->wz.lo : -ring;
	int zhi = !three ? 0 : a->wz.hi < ring ? a->wz.hi : ring;
	int ylo = a->wy.lo > -ring ? a->wy.lo : -ring, yhi = a->wy.hi < ring ? a->wy.hi : ring;
	int xlo = a->wx.lo > -ring ? a->wx.lo : -ring, xhi = a->wx.hi < ring ? a->wx.hi : ring;

	for (int dz = zlo; dz <= zhi; dz++) {
		int layer = three ? column(a->cz, dz, nz, wrap) : 0, face = three && (dz == -ring || dz == ring);
		for (int dy = ylo; dy <= yhi; dy++) {
			uint32_t row = cell_at(g, 0, column(a->cy, dy, g->ny, wrap), layer);
			if (face || dy == -ring || dy == ring) { /* a whole row */
				for (int dx = xlo; dx <= xhi; dx++)
					best = cell_nearest(g, p, row + (uint32_t)column(a->cx, dx, g->nx, wrap),
					                    self, x, y, z, best, wrap, three);
				continue;
			}
			if (-ring >= a->wx.lo) /* the sides: two cells */
				best = cell_nearest(g, p, row + (uint32_t)column(a->cx, -ring, g->nx, wrap),
				                    self, x, y, z, best, wrap, three);
			if (ring <= a->wx.hi)
				best = cell_nearest(g, p, row + (uint32_t)column(a->cx, ring, g->nx, wrap),
				                    self, x, y, z, best, wrap, three);
		}
	}
	return best;
}

/*
 * Distance along one axis from p to the cells not yet seen, once columns
 * at .. at+lo-1 and at+hi+1 .. (beyond the window w) remain: on a torus the
 * unseen columns are one arc, whose nearest point is on one of its two end
 * columns (the short last column included, so no allowance is needed); in
 * open space the edges of the block seen.  INFINITY when none remain.
 */
SPECIALIZED double unseen_axis(double p, int at, int ring, struct window w, int n, double size,
                               double span, const int wrap)
{
	double bound = INFINITY, lo, hi;

	if (w.lo < -ring) {
		if (wrap) {
			extent(column(at, -ring - 1, n, 1), size, span, 1, &lo, &hi);
			bound = to_interval(p, lo, hi, 1, span);
		} else {
			bound = p - (at - ring) * size;
		}
	}
	if (w.hi > ring) {
		if (wrap) {
			extent(column(at, ring + 1, n, 1), size, span, 1, &lo, &hi);
			bound = lesser(bound, to_interval(p, lo, hi, 1, span));
		} else {
			bound = lesser(bound, (at + ring + 1) * size - p);
		}
	}
	return bound;
}

/*
 * How far the cells not yet seen are from (x, y, z) once rings 0..ring
 * are: the block seen spans columns cx-ring .. cx+ring, rows cy-ring ..
 * cy+ring (and layers cz-ring .. cz+ring).  INFINITY when every cell is seen.
 */
SPECIALIZED double unseen(const struct grid *g, const struct space *sp, const struct around *a, int ring,
                          double zcell, double x, double y, double z, const int wrap, const int three)
{
	double bound = lesser(unseen_axis(x, a->cx, ring, a->wx, g->nx, g->cell, sp->w, wrap),
	                      unseen_axis(y, a->cy, ring, a->wy, g->ny, g->cell, sp->h, wrap));
	if (three)
		bound = lesser(bound, unseen_axis(z, a->cz, ring, a->wz, layers(g), zcell, sp->d, wrap));
	return bound;
}

/*
 * Sum over boids of the distance to the nearest other boid: for each boid,
 * rings of cells around its own until the best distance found is no more
 * than the distance from the boid to the cells not yet seen.  `wrap` and
 * `three` are constants in each of the calls below, so the compiler makes a
 * copy of the loop for each.
 */
SPECIALIZED double nn_scan(const struct grid *g, const struct points *p, const int wrap, const int three)
{
	const struct space *sp = p->sp;
	int nz = three ? layers(g) : 1;
	double zcell = three ? layer_depth(g, sp) : 0;
	double sum = 0;
	struct around a;

	for (a.cz = 0; a.cz < nz; a.cz++) {
		a.wz = window_of(a.cz, nz, wrap);
		for (a.cy = 0; a.cy < g->ny; a.cy++) {
			a.wy = window_of(a.cy, g->ny, wrap);
			for (a.cx = 0; a.cx < g->nx; a.cx++) {
				uint32_t c = cell_at(g, a.cx, a.cy, a.cz);
				if (g->start[c] == g->start[c + 1])
					continue;
				a.wx = window_of(a.cx, g->nx, wrap);
				for (uint32_t k = g->start[c]; k < g->start[c + 1]; k++) {
					double x = p->x[k], y = p->y[k], z = three ? p->z[k] : 0, best = INFINITY;
					for (int ring = 0;; ring++) {
						best = ring_nearest(g, p, &a, ring, k, x, y, z, best, wrap, three);
						double bound = unseen(g, sp, &a, ring, zcell, x, y, z, wrap, three);
						if (bound == INFINITY || best == 0)
							break; /* every cell seen, or nothing can be nearer */
						if (best <= bound * bound)
							break;
					}
					sum += sqrt(best);
				}
			}
		}
	}
	return sum;
}

static double nn_pass(const struct grid *g, const struct points *p)
{
	if (p->sp->three)
		return p->sp->wrap ? nn_scan(g, p, 1, 1) : nn_scan(g, p, 0, 1);
	return p->sp->wrap ? nn_scan(g, p, 1, 0) : nn_scan(g, p, 0, 0);
}

/* --------------------------------------------------------------- clusters */

static uint32_t find(uint32_t *parent, uint32_t a)
{
	while (parent[a] != a) {
		parent[a] = parent[parent[a]]; /* path halving */
		a = parent[a];
	}
	return a;
}

static void unite(uint32_t *parent, uint32_t *size, uint32_t a, uint32_t b)
{
	a = find(parent, a);
	b = find(parent, b);
	if (a == b)
		return;
	if (size[a] < size[b]) {
		uint32_t t = a;
		a = b;
		b = t;
	}
	parent[b] = a;
	size[a] += size[b];
}

/* Union-find over the boids in grid order. */
struct sets {
	uint32_t *parent, *size;
};

/* Are boids a and b closer than r?  `three` is a constant in each copy. */
SPECIALIZED int linked(const struct points *p, uint32_t a, uint32_t b, double r2, const int three)
{
	return dist2(p, b, p->x[a], p->y[a], three ? p->z[a] : 0, p->sp->wrap, three) < r2;
}

/*
 * Links the boids of cells a and b (a != b) that are close enough.  Boids of
 * a farther than r from b's box are skipped.  With `whole`, each cell is one
 * group already and one link is enough.
 */
SPECIALIZED void join_cells(const struct grid *g, const struct points *p, struct sets *u, uint32_t a,
                              uint32_t b, int whole, double r2, const int three)
{
	const struct space *sp = p->sp;
	if (whole && find(u->parent, g->start[a]) == find(u->parent, g->start[b]))
		return;
	uint32_t layer = (uint32_t)g->nx * (uint32_t)g->ny, in = b % layer;
	int bx = (int)(in % (uint32_t)g->nx), by = (int)(in / (uint32_t)g->nx), bz = (int)(b / layer);
	double x0, x1, y0, y1, z0 = 0, z1 = 0;
	extent(bx, g->cell, sp->w, sp->wrap, &x0, &x1);
	extent(by, g->cell, sp->h, sp->wrap, &y0, &y1);
	if (three)
		extent(bz, layer_depth(g, sp), sp->d, sp->wrap, &z0, &z1);
	for (uint32_t i = g->start[a]; i < g->start[a + 1]; i++) {
		double ex = to_interval(p->x[i], x0, x1, sp->wrap, sp->w);
		double ey = to_interval(p->y[i], y0, y1, sp->wrap, sp->h);
		double e2 = ex * ex + ey * ey;
		if (three) {
			double ez = to_interval(p->z[i], z0, z1, sp->wrap, sp->d);
			e2 += ez * ez;
		}
		if (e2 >= r2)
			continue;
		*p->visits += g->start[b + 1] - g->start[b];
		for (uint32_t j = g->start[b]; j < g->start[b + 1]; j++)
			if (linked(p, i, j, r2, three)) {
				unite(u->parent, u->size, i, j);
				if (whole)
					return;
			}
	}
}

/* Reach, in cells, beyond which no link is possible along one axis. */
static int reach(double r, double cell, double def, int n)
{
	double k = ceil((r + def) / cell);

	return k < n ? (int)k : n;
}

/* The offsets from a cell to the cells whose boids may link with its own. */
struct offsets {
	int n;
	int d[7 * 7 * 7][3];    /* (dx, dy, dz); reach <= 3 each way */
	int half;               /* only the forward half: each pair of cells comes up once */
};

/*
 * Usually only the forward half (later layers, later rows, or later in the
 * row), so that each pair of cells comes up once.  On a torus only a few
 * cells across, offsets could reach the same cell both ways round: then
 * every distinct offset, and pairs are taken from their lower-numbered cell.
 */
static void link_offsets(const struct grid *g, const struct space *sp, double r, struct offsets *o)
{
	double cell = g->cell, zcell = sp->three ? layer_depth(g, sp) : 1, r2 = r * r;
	double def[3] = { deficit(g, sp, 0), deficit(g, sp, 1), sp->three ? deficit(g, sp, 2) : 0 };
	int nz = sp->three ? layers(g) : 1;
	int rx = reach(r, cell, def[0], g->nx), ry = reach(r, cell, def[1], g->ny);
	int rz = nz > 1 ? reach(r, zcell, def[2], nz) : 0; /* one layer: nothing beyond it */
	struct window w[3] = { window_of(0, g->nx, 1), window_of(0, g->ny, 1), window_of(0, nz, 1) };
	int rr[3] = { rx, ry, rz };

	assert(rx <= 3 && ry <= 3 && rz <= 3); /* cells are >= 0.577 r: reach <= ceil(2.74) */
	o->half = !sp->wrap || (2 * rx + 1 <= g->nx && 2 * ry + 1 <= g->ny && 2 * rz + 1 <= nz);
	for (int k = 0; k < 3; k++) {
		if (o->half || w[k].lo < -rr[k])
			w[k].lo = -rr[k];
		if (o->half || w[k].hi > rr[k])
			w[k].hi = rr[k];
	}
	o->n = 0;
	for (int dz = w[2].lo; dz <= w[2].hi; dz++)
		for (int dy = w[1].lo; dy <= w[1].hi; dy++)
			for (int dx = w[0].lo; dx <= w[0].hi; dx++) {
				/* the forward half: dz > 0, or dz = 0 and dy > 0, or both 0 and dx > 0 */
				int back = dz < 0 || (dz == 0 && (dy < 0 || (dy == 0 && dx < 0)));
				double gx = fmax(0, (abs(dx) - 1) * cell - def[0]);
				double gy = fmax(0, (abs(dy) - 1) * cell - def[1]);
				double gz = fmax(0, (abs(dz) - 1) * zcell - def[2]);
				if ((dx == 0 && dy == 0 && dz == 0) || (o->half && back))
					continue;
				if (gx * gx + gy * gy + gz * gz >= r2)
					continue; /* the cells' boxes are too far apart */
				o->d[o->n][0] = dx;
				o->d[o->n][1] = dy;
				o->d[o->n++][2] = dz;
			}
}

/* Links the boids within each cell: all of them when the cell is smaller than r (whole). */
SPECIALIZED void link_within(const struct grid *g, const struct points *p, struct sets *u, size_t ncells,
                               int whole, double r2, const int three)
{
	for (uint32_t c = 0; c < (uint32_t)ncells; c++) {
		uint32_t s = g->start[c], e = g->start[c + 1];
		if (whole) {
			for (uint32_t k = s + 1; k < e; k++)
				u->parent[k] = s;
			if (e > s)
				u->size[s] = e - s;
			continue;
		}
		for (uint32_t i = s; i < e; i++)
			for (uint32_t j = i + 1; j < e; j++)
				if (linked(p, i, j, r2, three))
					unite(u->parent, u->size, i, j);
	}
}

/* Clusters by union-find; `three` is a constant in each of the calls in cluster_pass(). */
SPECIALIZED long cluster_scan(const struct grid *g, const struct points *p, size_t n, struct sets *u,
                              double r, const int three)
{
	const struct space *sp = p->sp;
	double cell = g->cell, r2 = r * r;
	int nz = three ? layers(g) : 1;
	double zcell = three ? layer_depth(g, sp) : 0;
	/* A cell's diagonal shorter than r: all its boids are linked. */
	int whole = three ? sqrt(2 * cell * cell + zcell * zcell) < r : cell * M_SQRT2 < r;
	struct offsets o;

	link_offsets(g, sp, r, &o);
	for (uint32_t k = 0; k < (uint32_t)n; k++) {
		u->parent[k] = k;
		u->size[k] = 1;
	}
	link_within(g, p, u, (size_t)g->nx * (size_t)g->ny * (size_t)nz, whole, r2, three);

	for (int cz = 0; cz < nz; cz++)
		for (int cy = 0; cy < g->ny; cy++)
			for (int cx = 0; cx < g->nx; cx++) {
				uint32_t a = cell_at(g, cx, cy, three ? cz : 0);
				if (g->start[a] == g->start[a + 1])
					continue;
				for (int k = 0; k < o.n; k++) {
					int bx = cx + o.d[k][0], by = cy + o.d[k][1], bz = three ? cz + o.d[k][2] : 0;
					if (sp->wrap) {
						bx = column(cx, o.d[k][0], g->nx, 1);
						by = column(cy, o.d[k][1], g->ny, 1);
						bz = three ? column(cz, o.d[k][2], nz, 1) : 0;
					} else if (bx < 0 || bx >= g->nx || (three && by < 0) || by >= g->ny ||
					           bz < 0 || bz >= nz) { /* 2D: the forward half has dy >= 0 */
						continue;
					}
					uint32_t b = cell_at(g, bx, by, bz);
					if ((!o.half && b <= a) || g->start[b] == g->start[b + 1])
						continue;
					join_cells(g, p, u, a, b, whole, r2, three);
				}
			}

	long groups = 0;
	for (uint32_t k = 0; k < (uint32_t)n; k++)
		groups += u->parent[k] == k;
	return groups;
}

static long cluster_pass(const struct grid *g, const struct points *p, size_t n, struct sets *u, double r)
{
	return p->sp->three ? cluster_scan(g, p, n, u, r, 1) : cluster_scan(g, p, n, u, r, 0);
}

/* ------------------------------------------------------------------ entry */

/* Checks the input and finds the flock's bounding box lo[3], hi[3].  Returns 0 or -EINVAL. */
static int check_input(const struct metrics_input *in, const struct space *sp, double lo[3], double hi[3])
{
	if (!(in->cluster_radius > 0 && in->cluster_radius < BIG) || in->n >= UINT32_MAX)
		return -EINVAL;
	if (sp->wrap && !(sp->w > 0 && sp->h > 0 && sp->w < BIG && sp->h < BIG))
		return -EINVAL;
	if (sp->wrap && sp->three && !(sp->d > 0 && sp->d < BIG))
		return -EINVAL;
	if (sp->three && !in->vz)
		return -EINVAL;
	lo[0] = lo[1] = lo[2] = INFINITY;
	hi[0] = hi[1] = hi[2] = -INFINITY;
	for (size_t i = 0; i < in->n; i++) {
		if (!(fabs(in->x[i]) < BIG && fabs(in->y[i]) < BIG && fabs(in->vx[i]) < BIG &&
		      fabs(in->vy[i]) < BIG)) /* also NaN */
			return -EINVAL;
		lo[0] = lesser(lo[0], in->x[i]);
		hi[0] = greater(hi[0], in->x[i]);
		lo[1] = lesser(lo[1], in->y[i]);
		hi[1] = greater(hi[1], in->y[i]);
		if (!sp->three)
			continue;
		if (!(fabs(in->z[i]) < BIG && fabs(in->vz[i]) < BIG))
			return -EINVAL;
		lo[2] = lesser(lo[2], in->z[i]);
		hi[2] = greater(hi[2], in->z[i]);
	}
	return 0;
}

/* Moves the positions into the grids' box: reduced onto the torus, or from the bounding box's corner. */
static void place(struct metrics_ctx *c, const struct metrics_input *in, struct space *sp,
                  const double lo[3], const double hi[3])
{
	for (size_t i = 0; i < in->n; i++) {
		c->px[i] = sp->wrap ? reduce(in->x[i], sp->w) : in->x[i] - lo[0];
		c->py[i] = sp->wrap ? reduce(in->y[i], sp->h) : in->y[i] - lo[1];
	}
	if (sp->three)
		for (size_t i = 0; i < in->n; i++)
			c->pz[i] = sp->wrap ? reduce(in->z[i], sp->d) : in->z[i] - lo[2];
	if (!sp->wrap) {
		sp->w = hi[0] - lo[0];
		sp->h = hi[1] - lo[1];
		sp->d = sp->three ? hi[2] - lo[2] : 0;
	}
}

/* Builds grid g over the placed positions and gathers them into its order. */
static int index_points(struct metrics_ctx *c, struct grid *g, size_t n, const struct space *sp,
                        double radius, double *ox, double *oy, double *oz, struct points *p)
{
	int err = build_grid(g, c->px, c->py, sp->three ? c->pz : NULL, n, sp, radius);

	if (err)
		return err;
	gather(g, c->px, c->py, sp->three ? c->pz : NULL, n, ox, oy, oz);
	*p = (struct points){ ox, oy, sp->three ? oz : NULL, sp, &c->visits };
	return 0;
}

/* The space of an input: its torus, or open space (the box is the flock's, place()). */
static struct space space_of(const struct metrics_input *in)
{
	return (struct space){ .wrap = in->wrap != 0, .three = in->z != NULL, .w = in->width, .h = in->height,
	                       .d = in->depth };
}

/* The clusters of the n placed boids: the `link` grid (p its points, u's sets over its order); how many. */
static int link_clusters(struct metrics_ctx *c, size_t n, const struct space *sp, double r, struct points *p,
                         long *groups)
{
	/* A cell's diagonal under r, see cluster_pass: 0.7071 < 1/sqrt(2), 0.5773 < 1/sqrt(3). */
	int err = index_points(c, &c->link, n, sp, (sp->three ? 0.5773 : 0.7071) * r, c->linkx, c->linky, c->linkz, p);

	if (err)
		return err;
	struct sets u = { c->parent, c->size };
	*groups = cluster_pass(&c->link, p, n, &u, r);
	return 0;
}

int metrics_compute(struct metrics_ctx *c, const struct metrics_input *in, struct metrics *out)
{
	size_t n = in->n;
	struct space sp = space_of(in);
	double r = in->cluster_radius, lo[3], hi[3];
	struct points p;
	int err;

	c->visits = 0;
	if ((err = check_input(in, &sp, lo, hi)))
		return err;
	if (n == 0) {
		memset(out, 0, sizeof(*out));
		return 0;
	}
	if ((err = reserve(c, n, sp.three)))
		return err;
	/* The box the grids cover: the torus, or the flock's bounding box. */
	place(c, in, &sp, lo, hi);

	struct metrics m;
	if (sp.three)
		centre_pass3(in, c->px, c->py, c->pz, &sp, &m);
	else
		centre_pass(in, c->px, c->py, &sp, &m);

	/* Cells near the mean spacing; grid_build caps their number near 4n. */
	double spacing = sp.three ? cbrt(sp.w * sp.h * sp.d / (double)n) : sqrt(sp.w * sp.h / (double)n);
	if ((err = index_points(c, &c->near, n, &sp, 0.7 * spacing, c->nearx, c->neary, c->nearz, &p)))
		return err;
	m.nn_distance = n < 2 ? 0 : nn_pass(&c->near, &p) / (double)n;

	if ((err = link_clusters(c, n, &sp, r, &p, &m.clusters)))
		return err;
	*out = m;
	return 0;
}

/* -------------------------------------------------------- largest cluster */

/*
 * The centre and radius of the largest set of u (ties: the one whose root
 * comes first in grid order), in the placed coordinates: its members'
 * mean offset (the short way round on a torus) from the root, and the
 * distance from it within which METRICS_CORE of them lie, to the upper
 * edge of its bin of RADIUS_BINS over [0, the farthest's]: a straggler or
 * a halo does not widen it.  dist: room for n distances (scratch).
 */
#define RADIUS_BINS 1024

static void largest_of(const struct points *p, struct sets *u, size_t n, double *dist, double centre[3],
                       double *radius)
{
	const struct space *sp = p->sp;
	const double period[3] = { sp->w, sp->h, sp->d };
	uint32_t best = 0, count[RADIUS_BINS] = { 0 };
	double sum[3] = { 0, 0, 0 }, far = 0;
	size_t m = 0;

	for (uint32_t k = 0; k < (uint32_t)n; k++)
		if (u->parent[k] == k && (u->parent[best] != best || u->size[k] > u->size[best]))
			best = k;
	double ref[3] = { p->x[best], p->y[best], sp->three ? p->z[best] : 0 };
	for (uint32_t k = 0; k < (uint32_t)n; k++) {
		if (find(u->parent, k) != best)
			continue;
		double at[3] = { p->x[k], p->y[k], sp->three ? p->z[k] : 0 };
		for (int a = 0; a < 3; a++)
			sum[a] += sep(at[a] - ref[a], sp->wrap, period[a]);
	}
	for (int a = 0; a < 3; a++)
		centre[a] = ref[a] + sum[a] / u->size[best];
	for (uint32_t k = 0; k < (uint32_t)n; k++) {
		if (find(u->parent, k) != best)
			continue;
		double at[3] = { p->x[k], p->y[k], sp->three ? p->z[k] : 0 }, d2 = 0;
		for (int a = 0; a < 3; a++) {
			double d = sep(at[a] - centre[a], sp->wrap, period[a]);
			d2 += d * d;
		}
		dist[m++] = sqrt(d2);
		far = greater(far, dist[m - 1]);
	}
	for (size_t k = 0; far > 0 && k < m; k++) {
		size_t b = (size_t)(dist[k] / far * RADIUS_BINS);
		count[b < RADIUS_BINS ? b : RADIUS_BINS - 1]++;
	}
	size_t seen = 0, b = 0, want = (size_t)ceil(METRICS_CORE * (double)m);
	while (far > 0 && b < RADIUS_BINS - 1 && (seen += count[b]) < want)
		b++;
	*radius = far * (double)(b + 1) / RADIUS_BINS;
}

int metrics_largest(struct metrics_ctx *c, const struct metrics_input *in, double centre[3], double *radius)
{
	size_t n = in->n;
	struct space sp = space_of(in);
	double lo[3], hi[3];
	struct points p;
	long groups;
	int err;

	c->visits = 0;
	if ((err = check_input(in, &sp, lo, hi)) || (!n && (err = -EINVAL)) || (err = reserve(c, n, sp.three)))
		return err;
	place(c, in, &sp, lo, hi);
	if ((err = link_clusters(c, n, &sp, in->cluster_radius, &p, &groups)))
		return err;
	largest_of(&p, &(struct sets){ c->parent, c->size }, n, c->px, centre, radius); /* px: placed, free now */
	for (int a = 0; a < (sp.three ? 3 : 2); a++) /* back from the grids' box */
		centre[a] = sp.wrap ? reduce(centre[a], a == 0 ? sp.w : a == 1 ? sp.h : sp.d) : centre[a] + lo[a];
	if (!sp.three)
		centre[2] = 0;
	return 0;
}

/* -------------------------------------------------------------------- CSV */

const char *metrics_name(size_t i)
{
	return i < METRICS_COUNT ? names[i] : NULL;
}

double metrics_value(const struct metrics *m, size_t i)
{
	switch (i) {
	case 0: return m->polarization;
	case 1: return m->milling;
	case 2: return m->mean_speed;
	case 3: return m->nn_distance;
	case 4: return m->gyration;
	case 5: return (double)m->clusters;
	default: return NAN;
	}
}

/* The failing write's own errno (ENOSPC, EPIPE ...), -EIO only when it left none. */
static int write_error(void)
{
	return errno ? -errno : -EIO;
}

int metrics_write_header(FILE *f)
{
	errno = 0;
	if (fputs("frame", f) < 0)
		return write_error();
	for (size_t i = 0; i < METRICS_COUNT; i++)
		if (fprintf(f, ",%s", names[i]) < 0)
			return write_error();
	return fputc('\n', f) == EOF ? write_error() : 0;
}

int metrics_write_row(FILE *f, long frame, const struct metrics *m)
{
	errno = 0;
	int w = fprintf(f, "%ld,%.17g,%.17g,%.17g,%.17g,%.17g,%ld\n", frame, m->polarization,
	                m->milling, m->mean_speed, m->nn_distance, m->gyration, m->clusters);
	return w < 0 ? write_error() : 0;
}
