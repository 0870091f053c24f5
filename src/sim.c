/*
 * sim — one step of the C# article's boids model; see include/sim.h.
 *
 * Start at sim_step(): it builds the neighbour grid from the positions, which
 * do not change during the steering pass, then runs steer_one() for every
 * boid (in order, or in parallel from a snapshot), then move_one().
 *
 * steer_one() reproduces Field.Advance() operation for operation: the boid
 * counts as its own neighbour (distance 0 < r), sums are formed first and
 * multiplied by the weight last, and the four rule results are added to the
 * velocity in the article's order (flock + avoid + align + predator), then
 * the obstacles' push, if there are obstacles.  The other models are in
 * models.c; sim_step() hands them over first thing.
 */
#include "sim.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models.h"
#include "pool.h"
#include "rng.h"

void sim_params_default(struct sim_params *p, double width, double height)
{
	memset(p, 0, sizeof(*p));
	p->width = width;
	p->height = height;
	p->predators = 3;
	p->flock_radius = 50;
	p->flock_weight = .0003;
	p->align_radius = 50;
	p->align_weight = .01;
	p->avoid_radius = 20;
	p->avoid_weight = .001;
	p->predator_radius = 150;
	p->predator_weight = .00005;
	p->min_speed = 1;
	p->max_speed = 5;
	p->wall_pad = 50;
	p->wall_turn = .5;
	p->edges = SIM_BOUNCE;
	p->update = SIM_SEQUENTIAL;
	p->search = SIM_SEARCH_GRID;
	models_params_default(p);
}

int sim_init(struct sim *s, const struct sim_params *p, size_t n, struct pool *pool)
{
	memset(s, 0, sizeof(*s));
	s->p = *p;
	s->n = n;
	s->pool = pool;
	grid_init(&s->grid);
	size_t m = n ? n : 1;
	double *a = calloc(11 * m, sizeof(double));
	s->gpos = calloc(m, sizeof(uint32_t));
	s->esc = calloc(m, sizeof(uint32_t));
	s->escf = calloc(m, 1);
	s->escnext = calloc(m, sizeof(uint32_t));
	if (!a || !s->gpos || !s->esc || !s->escf || !s->escnext) {
		free(a);
		free(s->gpos);
		free(s->esc);
		free(s->escf);
		free(s->escnext);
		return -ENOMEM;
	}
	s->x = a;
	s->y = a + m;
	s->vx = a + 2 * m;
	s->vy = a + 3 * m;
	s->nvx = a + 4 * m;
	s->nvy = a + 5 * m;
	s->gx = a + 6 * m;
	s->gy = a + 7 * m;
	s->gvx = a + 8 * m;
	s->gvy = a + 9 * m;
	s->ts = a + 10 * m;
	for (size_t i = 0; i < m; i++) /* the program's Boid.TargetSpeed before any draw */
		s->ts[i] = (p->gl_speed_min + p->gl_speed_max) / 2;
	return 0;
}

void sim_release(struct sim *s)
{
	free(s->x); /* one block holds all the double arrays */
	free(s->gpos);
	free(s->esc);
	free(s->escf);
	free(s->escnext);
	free(s->eschead);
	grid_release(&s->grid);
	memset(s, 0, sizeof(*s));
}

void sim_randomize(struct sim *s, uint64_t seed)
{
	struct rng r;

	if (s->p.model == SIM_STEERING || s->p.model == SIM_CANVAS) {
		models_randomize(s, seed);
		return;
	}
	rng_seed(&r, seed);
	if (s->p.model == SIM_OPENGL) { /* Field.RandomizeBoids() of its program */
		const struct sim_params *p = &s->p;
		for (size_t i = 0; i < s->n; i++) {
			s->x[i] = rng_uniform(&r) * p->width;
			s->y[i] = rng_uniform(&r) * p->height;
			s->vx[i] = (rng_uniform(&r) - .5) * p->gl_step;
			s->vy[i] = (rng_uniform(&r) - .5) * p->gl_step;
			s->ts[i] = p->gl_speed_min + rng_uniform(&r) * (p->gl_speed_max - p->gl_speed_min);
		}
		return;
	}
	for (size_t i = 0; i < s->n; i++) {
		s->x[i] = rng_uniform(&r) * s->p.width;
		s->y[i] = rng_uniform(&r) * s->p.height;
		s->vx[i] = rng_uniform(&r) - .5;
		s->vy[i] = rng_uniform(&r) - .5;
	}
}

/* ---------------------------------------------------------------- steering */

/* Running sums of the neighbour rules for one boid. */
struct sums {
	double fx, fy; size_t fn;  /* flock: positions, count */
	double ax, ay; size_t an;  /* align: velocities, count */
	double cx, cy;             /* avoid: closeness-weighted offsets */
};

/*
 * Adds neighbour (x, y, vx, vy) to boid (bx, by)'s sums.  The squared
 * distance only filters out pairs that are clearly too far (with a margin
 * for rounding); the rules themselves compare sqrt(d2) < r as the C# does.
 */
static inline void visit(const struct sim_params *p, double reach2, double bx, double by,
                         double x, double y, double vx, double vy, struct sums *u)
{
	double dx = x - bx, dy = y - by;
	double d2 = dx * dx + dy * dy;

	if (!(d2 <= reach2))
		return;
	double d = sqrt(d2);
	if (d < p->flock_radius) {
		u->fx += x;
		u->fy += y;
		u->fn++;
	}
	if (d < p->align_radius) {
		u->ax += vx;
		u->ay += vy;
		u->an++;
	}
	if (d < p->avoid_radius) {
		double closeness = p->avoid_radius - d;
		u->cx += (bx - x) * closeness;
		u->cy += (by - y) * closeness;
	}
}

/* Squared reach of the neighbour rules, rounded up a little. */
static double reach2_of(const struct sim_params *p)
{
	double r = fmax(p->flock_radius, fmax(p->align_radius, p->avoid_radius));
	return r * r * (1 + 1e-9);
}

/*
 * Sums over every neighbour of boid b.  Brute force reads the live arrays in
 * index order; the grid reads the grid-ordered copies, three cells of a row
 * being one contiguous run.  vx/vy are the arrays velocities come from
 * (brute force only: the grid copies follow the mode themselves).
 */
static void gather(const struct sim *s, const double *vx, const double *vy,
                   size_t b, struct sums *u)
{
	const struct sim_params *p = &s->p;
	double bx = s->x[b], by = s->y[b], reach2 = reach2_of(p);

	memset(u, 0, sizeof(*u));
	if (p->search == SIM_SEARCH_BRUTE) {
		for (size_t j = 0; j < s->n; j++)
			visit(p, reach2, bx, by, s->x[j], s->y[j], vx[j], vy[j], u);
		return;
	}
	const struct grid *g = &s->grid;
	int cx, cy;
	grid_cell_of(g, bx, by, &cx, &cy);
	int i0 = cx > 0 ? cx - 1 : 0, i1 = cx + 1 < g->nx ? cx + 1 : cx;
	for (int j = cy - 1; j <= cy + 1; j++) {
		if (j < 0 || j >= g->ny)
			continue;
		size_t row = (size_t)j * (size_t)g->nx;
		uint32_t k0 = g->start[row + (size_t)i0], k1 = g->start[row + (size_t)i1 + 1];
		for (uint32_t k = k0; k < k1; k++)
			visit(p, reach2, bx, by, s->gx[k], s->gy[k], s->gvx[k], s->gvy[k], u);
	}
}

/*
 * Steers boid b reading velocities from (vx, vy) and writes the new velocity
 * to (ox[b], oy[b]); in sequential mode both pairs are the live arrays.
 */
static void steer_one(const struct sim *s, const double *vx, const double *vy,
                      double *ox, double *oy, size_t b)
{
	const struct sim_params *p = &s->p;
	struct sums u;
	double bx = s->x[b], by = s->y[b];

	gather(s, vx, vy, b, &u);

	double flock_x = 0, flock_y = 0, align_x = 0, align_y = 0;
	if (u.fn) {
		flock_x = (u.fx / (double)u.fn - bx) * p->flock_weight;
		flock_y = (u.fy / (double)u.fn - by) * p->flock_weight;
	}
	if (u.an) {
		align_x = (u.ax / (double)u.an - vx[b]) * p->align_weight;
		align_y = (u.ay / (double)u.an - vy[b]) * p->align_weight;
	}
	double avoid_x = u.cx * p->avoid_weight;
	double avoid_y = u.cy * p->avoid_weight;

	double px = 0, py = 0;
	size_t np = p->predators < s->n ? p->predators : s->n;
	for (size_t i = 0; i < np; i++) {
		double dx = bx - s->x[i], dy = by - s->y[i];
		double d = sqrt(dx * dx + dy * dy);
		if (d < p->predator_radius) {
			double closeness = p->predator_radius - d;
			px += dx * closeness;
			py += dy * closeness;
		}
	}
	double pred_x = px * p->predator_weight;
	double pred_y = py * p->predator_weight;

	double nx = vx[b] + (flock_x + avoid_x + align_x + pred_x);
	double ny = vy[b] + (flock_y + avoid_y + align_y + pred_y);
	if (p->obstacles_n) { /* not even + 0 otherwise: the seed's bits stay */
		struct models_vec o = models_obstacle_push(p, bx, by);
		nx += o.x;
		ny += o.y;
	}
	/* Only absurd weights overflow; the seed would then move the boid to
	 * infinity.  Contain it: such a velocity counts as rest. */
	ox[b] = isfinite(nx) && isfinite(ny) ? nx : 0;
	oy[b] = isfinite(nx) && isfinite(ny) ? ny : 0;
}

/* How many boids ahead the index-order loops prefetch their neighbours. */
enum { AHEAD = 8 };

/* Sequential mode: steer in index order, keeping the grid copies current. */
static void steer_sequential(struct sim *s)
{
	int grid = s->p.search == SIM_SEARCH_GRID;
	const struct grid_array copies[] = {
		{ s->gx, sizeof(double) }, { s->gy, sizeof(double) },
		{ s->gvx, sizeof(double) }, { s->gvy, sizeof(double) },
	};

	for (size_t b = 0; b < s->n; b++) {
		if (grid && b + AHEAD < s->n) /* boids in index order lie anywhere */
			grid_prefetch(&s->grid, s->x[b + AHEAD], s->y[b + AHEAD], copies, 4);
		steer_one(s, s->vx, s->vy, s->vx, s->vy, b);
		if (grid) {
			s->gvx[s->gpos[b]] = s->vx[b];
			s->gvy[s->gpos[b]] = s->vy[b];
		}
	}
}

/* Copies the state into grid order (after grid_build). */
static void gather_grid_order(struct sim *s)
{
	const uint32_t *items = s->grid.items;

	for (size_t k = 0; k < s->n; k++) {
		uint32_t i = items[k];
		s->gx[k] = s->x[i];
		s->gy[k] = s->y[i];
		s->gvx[k] = s->vx[i];
		s->gvy[k] = s->vy[i];
		s->gpos[i] = (uint32_t)k;
	}
}

/* ------------------------------------------------------------------ moving */

/* `obstacles` is a constant at each call: the loop without them stays the seed's. */
static inline __attribute__((always_inline))
void move_one(struct sim *s, size_t i, int obstacles)
{
	const struct sim_params *p = &s->p;
	double vx = s->vx[i], vy = s->vy[i];

	s->x[i] += vx;
	s->y[i] += vy;
	if (obstacles) { /* only then: the seed's bits stay */
		s->vx[i] = vx, s->vy[i] = vy; /* through memory: keep vx, vy in registers */
		models_obstacle_wall(p, &s->x[i], &s->y[i], &s->vx[i], &s->vy[i]);
		vx = s->vx[i], vy = s->vy[i];
	}

	double speed = sqrt(vx * vx + vy * vy);
	if (speed > p->max_speed) {
		vx = (vx / speed) * p->max_speed;
		vy = (vy / speed) * p->max_speed;
	} else if (speed < p->min_speed) {
		vx = (vx / speed) * p->min_speed;
		vy = (vy / speed) * p->min_speed;
	}
	if (isnan(vx)) /* speed 0: 0/0 */
		vx = 0;
	if (isnan(vy))
		vy = 0;

	if (p->edges & SIM_BOUNCE) {
		if (s->x[i] < p->wall_pad)
			vx += p->wall_turn;
		if (s->x[i] > p->width - p->wall_pad)
			vx -= p->wall_turn;
		if (s->y[i] < p->wall_pad)
			vy += p->wall_turn;
		if (s->y[i] > p->height - p->wall_pad)
			vy -= p->wall_turn;
	}
	if (p->edges & SIM_WRAP) {
		if (s->x[i] < 0)
			s->x[i] += p->width;
		if (s->x[i] > p->width)
			s->x[i] -= p->width;
		if (s->y[i] < 0)
			s->y[i] += p->height;
		if (s->y[i] > p->height)
			s->y[i] -= p->height;
	}
	s->vx[i] = vx;
	s->vy[i] = vy;
}

/* ------------------------------------------------------------------ a step */

enum {
	BLOCK = 256,          /* boids per parallel task */
	PARALLEL_MIN = 2048,  /* below this, threads cost more than they save */
};

/*
 * Synchronous mode: every boid reads the previous state only and writes its
 * own new velocity, so the order of the boids changes no bit.  With the grid
 * they go in grid order, cell after cell: the next boid's neighbours are
 * mostly the last one's, already in cache (1M boids in index order would
 * fetch every neighbourhood from memory).
 */
static void steer_block(void *ctx, size_t task)
{
	struct sim *s = ctx;
	size_t lo = task * BLOCK, hi = lo + BLOCK < s->n ? lo + BLOCK : s->n;
	const uint32_t *order = s->p.search == SIM_SEARCH_GRID ? s->grid.items : NULL;

	for (size_t k = lo; k < hi; k++)
		steer_one(s, s->vx, s->vy, s->nvx, s->nvy, order ? order[k] : k);
}

/* x within +-SIM_STATE_MAX; NaN (never expected) becomes 0. */
static double bound(double x)
{
	return x > -SIM_STATE_MAX ? (x < SIM_STATE_MAX ? x : SIM_STATE_MAX)
	       : x == x ? -SIM_STATE_MAX : 0;
}

static void bound_state(struct sim *s)
{
	for (size_t i = 0; i < s->n; i++) {
		s->x[i] = bound(s->x[i]);
		s->y[i] = bound(s->y[i]);
		s->vx[i] = bound(s->vx[i]);
		s->vy[i] = bound(s->vy[i]);
	}
}

int sim_step(struct sim *s)
{
	const struct sim_params *p = &s->p;

	if (p->model != SIM_HARDEN) {
		int err = models_step(s);
		if (!err) {
			bound_state(s);
			s->steps++;
		}
		return err;
	}

	/* Positions stay put during the steering pass (move_one() comes after
	 * it), so no boid leaves its cell and none is listed as escaped. */
	s->escaped = 0;
	if (p->search == SIM_SEARCH_GRID) {
		double r = fmax(p->flock_radius, fmax(p->align_radius, p->avoid_radius));
		int err = grid_build(&s->grid, s->x, s->y, s->n, p->width, p->height, r);
		if (err)
			return err;
		gather_grid_order(s);
	}

	if (p->update == SIM_SEQUENTIAL) {
		steer_sequential(s);
	} else {
		size_t tasks = (s->n + BLOCK - 1) / BLOCK;
		if (s->pool && s->n >= PARALLEL_MIN)
			pool_run(s->pool, steer_block, s, tasks);
		else
			for (size_t t = 0; t < tasks; t++)
				steer_block(s, t);
		double *t;
		t = s->vx, s->vx = s->nvx, s->nvx = t;
		t = s->vy, s->vy = s->nvy, s->nvy = t;
	}

	if (p->obstacles_n)
		for (size_t i = 0; i < s->n; i++)
			move_one(s, i, 1);
	else
		for (size_t i = 0; i < s->n; i++)
			move_one(s, i, 0);
	bound_state(s);
	s->steps++;
	return 0;
}

int sim_target(const struct sim *s, double *x, double *y)
{
	models_target(&s->p, s->steps, x, y);
	return s->p.model == SIM_STEERING && s->p.target_mode != SIM_TARGET_NONE;
}

int sim_wraps(const struct sim *s)
{
	return (s->p.edges & SIM_WRAP) || s->p.model == SIM_PROCESSING || s->p.model == SIM_CANVAS;
}
