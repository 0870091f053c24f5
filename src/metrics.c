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
 * nx*cell - W.  Every bound below subtracts it, and neighbour windows are cut
 * to nx distinct columns so that no cell is visited twice when they wrap.
 */
#include "metrics.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Largest magnitude accepted: squares and their sums stay finite. */
#define BIG 1e100

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
	free(c->nearx);
	free(c->neary);
	free(c->linkx);
	free(c->linky);
	free(c->parent);
	free(c->size);
	metrics_ctx_init(c);
}

static int grow(void **p, size_t bytes)
{
	void *q = realloc(*p, bytes);
	if (!q)
		return -ENOMEM;
	*p = q;
	return 0;
}

static int reserve(struct metrics_ctx *c, size_t n)
{
	size_t cap = n ? n : 1;

	if (cap <= c->cap)
		return 0;
	/* Each array keeps its old block on failure; cap only moves when all grew. */
	if (grow((void **)&c->px, cap * sizeof(double)) || grow((void **)&c->py, cap * sizeof(double)) ||
	    grow((void **)&c->nearx, cap * sizeof(double)) || grow((void **)&c->neary, cap * sizeof(double)) ||
	    grow((void **)&c->linkx, cap * sizeof(double)) || grow((void **)&c->linky, cap * sizeof(double)) ||
	    grow((void **)&c->parent, cap * sizeof(uint32_t)) ||
	    grow((void **)&c->size, cap * sizeof(uint32_t)))
		return -ENOMEM;
	c->cap = cap;
	return 0;
}

/* ------------------------------------------------------------------ space */

/* Where the positions live: a torus of w x h, or the plane. */
struct space {
	int wrap;
	double w, h;            /* torus size; the box the grids cover */
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

/* How much shorter than `cell` the last column of a torus grid is. */
static double deficit(const struct grid *g, const struct space *sp, int vertical)
{
	if (!sp->wrap)
		return 0;
	double d = vertical ? g->ny * g->cell - sp->h : g->nx * g->cell - sp->w;
	return d > 0 ? d : 0;
}

/* Copies px, py into grid order. */
static void gather(const struct grid *g, const double *px, const double *py, size_t n,
                   double *ox, double *oy)
{
	for (size_t k = 0; k < n; k++) {
		uint32_t i = g->items[k];
		ox[k] = px[i];
		oy[k] = py[i];
	}
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

/* Polarization, milling, mean speed and radius of gyration. */
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

/* ------------------------------------------------------ nearest neighbour */

/* Smallest squared distance from (x, y) to a boid of cell `c` other than `self`. */
static inline double cell_nearest(const struct grid *g, const double *X, const double *Y,
                                  uint32_t c, uint32_t self, double x, double y,
                                  int wrap, double w, double h, double best)
{
	for (uint32_t j = g->start[c]; j < g->start[c + 1]; j++) {
		double dx = sep(X[j] - x, wrap, w);
		double dy = sep(Y[j] - y, wrap, h);
		double d2 = dx * dx + dy * dy;
		if (d2 < best && j != self) {
			best = d2;
			if (best == 0)
				break; /* boids at one point: nothing is nearer */
		}
	}
	return best;
}

/*
 * Sum over boids of the distance to the nearest other boid: for each boid,
 * rings of cells around its own (ring k: Chebyshev distance k) until the best
 * distance found is no more than the distance from the boid to the cells
 * not yet seen.  `wrap` is a constant in each of the two calls below, so the
 * compiler makes a copy of the loop for each.
 */
static inline double nn_scan(const struct grid *g, const double *X, const double *Y,
                             const struct space *sp, const int wrap)
{
	double cell = g->cell, w = sp->w, h = sp->h;
	double slack = fmax(deficit(g, sp, 0), deficit(g, sp, 1));
	double sum = 0;

	for (int cy = 0; cy < g->ny; cy++) {
		struct window wy = window_of(cy, g->ny, wrap);
		for (int cx = 0; cx < g->nx; cx++) {
			uint32_t c = (uint32_t)cy * (uint32_t)g->nx + (uint32_t)cx;
			if (g->start[c] == g->start[c + 1])
				continue;
			struct window wx = window_of(cx, g->nx, wrap);

			for (uint32_t k = g->start[c]; k < g->start[c + 1]; k++) {
				double x = X[k], y = Y[k], best = INFINITY;
				for (int ring = 0;; ring++) {
					int ylo = wy.lo > -ring ? wy.lo : -ring, yhi = wy.hi < ring ? wy.hi : ring;
					int xlo = wx.lo > -ring ? wx.lo : -ring, xhi = wx.hi < ring ? wx.hi : ring;
					for (int dy = ylo; dy <= yhi; dy++) {
						uint32_t row = (uint32_t)column(cy, dy, g->ny, wrap) * (uint32_t)g->nx;
						if (dy == -ring || dy == ring) { /* top or bottom: the whole row */
							for (int dx = xlo; dx <= xhi; dx++)
								best = cell_nearest(g, X, Y, row + (uint32_t)column(cx, dx, g->nx, wrap),
								                    k, x, y, wrap, w, h, best);
							continue;
						}
						if (-ring >= wx.lo) /* the sides: two cells */
							best = cell_nearest(g, X, Y, row + (uint32_t)column(cx, -ring, g->nx, wrap),
							                    k, x, y, wrap, w, h, best);
						if (ring <= wx.hi)
							best = cell_nearest(g, X, Y, row + (uint32_t)column(cx, ring, g->nx, wrap),
							                    k, x, y, wrap, w, h, best);
					}
					/* How far the unseen cells are: the block seen so far spans
					 * columns cx-ring .. cx+ring and rows cy-ring .. cy+ring. */
					double bound = INFINITY;
					if (wx.lo < -ring)
						bound = lesser(bound, x - (cx - ring) * cell);
					if (wx.hi > ring)
						bound = lesser(bound, (cx + ring + 1) * cell - x);
					if (wy.lo < -ring)
						bound = lesser(bound, y - (cy - ring) * cell);
					if (wy.hi > ring)
						bound = lesser(bound, (cy + ring + 1) * cell - y);
					if (bound == INFINITY || best == 0)
						break; /* every cell seen, or nothing can be nearer */
					bound -= slack;
					if (bound > 0 && best <= bound * bound)
						break;
				}
				sum += sqrt(best);
			}
		}
	}
	return sum;
}

static double nn_pass(const struct grid *g, const double *X, const double *Y, const struct space *sp)
{
	return sp->wrap ? nn_scan(g, X, Y, sp, 1) : nn_scan(g, X, Y, sp, 0);
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

static inline int linked(const double *X, const double *Y, uint32_t a, uint32_t b,
                         const struct space *sp, double r2)
{
	double dx = sep(X[a] - X[b], sp->wrap, sp->w);
	double dy = sep(Y[a] - Y[b], sp->wrap, sp->h);
	return dx * dx + dy * dy < r2;
}

/* Distance from p to the interval [lo, hi] of an axis (the short way on a torus). */
static inline double to_interval(double p, double lo, double hi, int wrap, double period)
{
	double d = fabs(sep(p - 0.5 * (lo + hi), wrap, period)) - 0.5 * (hi - lo);
	return d > 0 ? d : 0;
}

/*
 * Links the boids of cells a and b (a != b) that are close enough.  Boids of
 * a farther than r from b's box are skipped.  With `whole`, each cell is one
 * group already and one link is enough.
 */
static void join_cells(const struct grid *g, const double *X, const double *Y, uint32_t *parent,
                       uint32_t *size, uint32_t a, uint32_t b, int whole, const struct space *sp,
                       double r2)
{
	if (whole && find(parent, g->start[a]) == find(parent, g->start[b]))
		return;
	double cell = g->cell;
	int bx = (int)(b % (uint32_t)g->nx), by = (int)(b / (uint32_t)g->nx);
	double x0 = bx * cell, x1 = lesser(x0 + cell, sp->w), y0 = by * cell, y1 = lesser(y0 + cell, sp->h);
	if (!sp->wrap) { /* the last cells hold boids up to the box's edge, wherever it is */
		x1 = x0 + cell;
		y1 = y0 + cell;
	}
	for (uint32_t i = g->start[a]; i < g->start[a + 1]; i++) {
		double ex = to_interval(X[i], x0, x1, sp->wrap, sp->w);
		double ey = to_interval(Y[i], y0, y1, sp->wrap, sp->h);
		if (ex * ex + ey * ey >= r2)
			continue;
		for (uint32_t j = g->start[b]; j < g->start[b + 1]; j++)
			if (linked(X, Y, i, j, sp, r2)) {
				unite(parent, size, i, j);
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

static long cluster_pass(const struct grid *g, const double *X, const double *Y, size_t n,
                         uint32_t *parent, uint32_t *size, const struct space *sp, double r)
{
	double cell = g->cell, r2 = r * r;
	double defx = deficit(g, sp, 0), defy = deficit(g, sp, 1);
	int rx = reach(r, cell, defx, g->nx), ry = reach(r, cell, defy, g->ny);
	/* A cell's diagonal shorter than r: all its boids are linked. */
	int whole = cell * M_SQRT2 < r;
	/*
	 * The neighbour cells to try, as offsets.  Usually only the forward half
	 * (later rows, or later in the row), so that each pair of cells comes up
	 * once.  On a torus only a few cells across, offsets could reach the same
	 * cell both ways round: then every distinct offset, and pairs are taken
	 * from their lower-numbered cell.
	 */
	int half = !sp->wrap || (2 * rx + 1 <= g->nx && 2 * ry + 1 <= g->ny);
	struct window wx = window_of(0, g->nx, 1), wy = window_of(0, g->ny, 1);
	int off[49][2], noff = 0;

	assert(rx <= 3 && ry <= 3); /* cells are >= 0.7071 r: reach <= ceil(2.42) */
	if (half || wx.lo < -rx)
		wx.lo = -rx;
	if (half || wx.hi > rx)
		wx.hi = rx;
	if (half || wy.lo < -ry)
		wy.lo = -ry;
	if (half || wy.hi > ry)
		wy.hi = ry;
	for (int dy = half ? 0 : wy.lo; dy <= wy.hi; dy++)
		for (int dx = wx.lo; dx <= wx.hi; dx++) {
			double gx = fmax(0, (abs(dx) - 1) * cell - defx);
			double gy = fmax(0, (abs(dy) - 1) * cell - defy);
			if ((dx == 0 && dy == 0) || (half && dy == 0 && dx < 0))
				continue;
			if (gx * gx + gy * gy >= r2)
				continue; /* the cells' boxes are too far apart */
			off[noff][0] = dx;
			off[noff++][1] = dy;
		}

	for (uint32_t k = 0; k < (uint32_t)n; k++) {
		parent[k] = k;
		size[k] = 1;
	}
	for (uint32_t c = 0; c < (uint32_t)g->nx * (uint32_t)g->ny; c++) {
		uint32_t s = g->start[c], e = g->start[c + 1];
		if (whole) {
			for (uint32_t k = s + 1; k < e; k++)
				parent[k] = s;
			if (e > s)
				size[s] = e - s;
			continue;
		}
		for (uint32_t i = s; i < e; i++)
			for (uint32_t j = i + 1; j < e; j++)
				if (linked(X, Y, i, j, sp, r2))
					unite(parent, size, i, j);
	}

	for (int cy = 0; cy < g->ny; cy++)
		for (int cx = 0; cx < g->nx; cx++) {
			uint32_t a = (uint32_t)cy * (uint32_t)g->nx + (uint32_t)cx;
			if (g->start[a] == g->start[a + 1])
				continue;
			for (int o = 0; o < noff; o++) {
				int bx = cx + off[o][0], by = cy + off[o][1];
				if (sp->wrap) {
					bx = column(cx, off[o][0], g->nx, 1);
					by = column(cy, off[o][1], g->ny, 1);
				} else if (bx < 0 || bx >= g->nx || by >= g->ny) {
					continue;
				}
				uint32_t b = (uint32_t)by * (uint32_t)g->nx + (uint32_t)bx;
				if ((!half && b <= a) || g->start[b] == g->start[b + 1])
					continue;
				join_cells(g, X, Y, parent, size, a, b, whole, sp, r2);
			}
		}

	long groups = 0;
	for (uint32_t k = 0; k < (uint32_t)n; k++)
		groups += parent[k] == k;
	return groups;
}

/* ------------------------------------------------------------------ entry */

int metrics_compute(struct metrics_ctx *c, const struct metrics_input *in, struct metrics *out)
{
	size_t n = in->n;
	struct space sp = { .wrap = in->wrap != 0, .w = in->width, .h = in->height };
	double r = in->cluster_radius;
	int err;

	if (!(r > 0 && r < BIG) || n >= UINT32_MAX)
		return -EINVAL;
	if (sp.wrap && !(sp.w > 0 && sp.h > 0 && sp.w < BIG && sp.h < BIG))
		return -EINVAL;
	if (n == 0) {
		memset(out, 0, sizeof(*out));
		return 0;
	}
	double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		if (!(fabs(in->x[i]) < BIG && fabs(in->y[i]) < BIG && fabs(in->vx[i]) < BIG &&
		      fabs(in->vy[i]) < BIG)) /* also NaN */
			return -EINVAL;
		x0 = lesser(x0, in->x[i]);
		x1 = greater(x1, in->x[i]);
		y0 = lesser(y0, in->y[i]);
		y1 = greater(y1, in->y[i]);
	}
	if ((err = reserve(c, n)))
		return err;

	/* The box the grids cover: the torus, or the flock's bounding box. */
	for (size_t i = 0; i < n; i++) {
		c->px[i] = sp.wrap ? reduce(in->x[i], sp.w) : in->x[i] - x0;
		c->py[i] = sp.wrap ? reduce(in->y[i], sp.h) : in->y[i] - y0;
	}
	if (!sp.wrap) {
		sp.w = x1 - x0;
		sp.h = y1 - y0;
	}

	struct metrics m;
	centre_pass(in, c->px, c->py, &sp, &m);

	/* Cells near the mean spacing; grid_build caps their number near 4n. */
	double spacing = sqrt(sp.w * sp.h / (double)n);
	if ((err = grid_build(&c->near, c->px, c->py, n, sp.w, sp.h, 0.7 * spacing)))
		return err;
	gather(&c->near, c->px, c->py, n, c->nearx, c->neary);
	m.nn_distance = n < 2 ? 0 : nn_pass(&c->near, c->nearx, c->neary, &sp) / (double)n;

	/* 0.7071 < 1/sqrt(2): a cell's diagonal stays under r, see cluster_pass. */
	if ((err = grid_build(&c->link, c->px, c->py, n, sp.w, sp.h, 0.7071 * r)))
		return err;
	gather(&c->link, c->px, c->py, n, c->linkx, c->linky);
	m.clusters = cluster_pass(&c->link, c->linkx, c->linky, n, c->parent, c->size, &sp, r);

	*out = m;
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
