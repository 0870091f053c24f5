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
 * velocity in the article's order (flock + avoid + align + predator).
 */
#include "sim.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
}

int sim_init(struct sim *s, const struct sim_params *p, size_t n, struct pool *pool)
{
	memset(s, 0, sizeof(*s));
	s->p = *p;
	s->n = n;
	s->pool = pool;
	grid_init(&s->grid);
	size_t m = n ? n : 1;
	double *a = calloc(6 * m, sizeof(double));
	if (!a)
		return -ENOMEM;
	s->x = a;
	s->y = a + m;
	s->vx = a + 2 * m;
	s->vy = a + 3 * m;
	s->nvx = a + 4 * m;
	s->nvy = a + 5 * m;
	return 0;
}

void sim_release(struct sim *s)
{
	free(s->x); /* one block holds all six arrays */
	grid_release(&s->grid);
	memset(s, 0, sizeof(*s));
}

void sim_randomize(struct sim *s, uint64_t seed)
{
	struct rng r;

	rng_seed(&r, seed);
	for (size_t i = 0; i < s->n; i++) {
		s->x[i] = rng_uniform(&r) * s->p.width;
		s->y[i] = rng_uniform(&r) * s->p.height;
		s->vx[i] = rng_uniform(&r) - .5;
		s->vy[i] = rng_uniform(&r) - .5;
	}
}

double sim_heading_deg(double vx, double vy)
{
	if (isnan(vx) || isnan(vy) || (vx == 0 && vy == 0))
		return 0;
	double a = atan(vy / vx) * 180 / M_PI - 90;
	if (vx < 0)
		a += 180;
	return a;
}

/* ---------------------------------------------------------------- steering */

/* Running sums of the neighbour rules for one boid. */
struct sums {
	double fx, fy; size_t fn;  /* flock: positions, count */
	double ax, ay; size_t an;  /* align: velocities, count */
	double cx, cy;             /* avoid: closeness-weighted offsets */
};

static inline void visit(const struct sim *s, const double *vx, const double *vy,
                         size_t b, size_t j, struct sums *u)
{
	const struct sim_params *p = &s->p;
	double dx = s->x[j] - s->x[b], dy = s->y[j] - s->y[b];
	double d = sqrt(dx * dx + dy * dy);

	if (d < p->flock_radius) {
		u->fx += s->x[j];
		u->fy += s->y[j];
		u->fn++;
	}
	if (d < p->align_radius) {
		u->ax += vx[j];
		u->ay += vy[j];
		u->an++;
	}
	if (d < p->avoid_radius) {
		double closeness = p->avoid_radius - d;
		u->cx += (s->x[b] - s->x[j]) * closeness;
		u->cy += (s->y[b] - s->y[j]) * closeness;
	}
}

static void gather(const struct sim *s, const double *vx, const double *vy,
                   size_t b, struct sums *u)
{
	memset(u, 0, sizeof(*u));
	if (s->p.search == SIM_SEARCH_BRUTE) {
		for (size_t j = 0; j < s->n; j++)
			visit(s, vx, vy, b, j, u);
		return;
	}
	const struct grid *g = &s->grid;
	int cx, cy;
	grid_cell_of(g, s->x[b], s->y[b], &cx, &cy);
	for (int j = cy - 1; j <= cy + 1; j++) {
		if (j < 0 || j >= g->ny)
			continue;
		for (int i = cx - 1; i <= cx + 1; i++) {
			if (i < 0 || i >= g->nx)
				continue;
			size_t c = (size_t)j * (size_t)g->nx + (size_t)i;
			for (uint32_t k = g->start[c]; k < g->start[c + 1]; k++)
				visit(s, vx, vy, b, g->items[k], u);
		}
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

	ox[b] = vx[b] + (flock_x + avoid_x + align_x + pred_x);
	oy[b] = vy[b] + (flock_y + avoid_y + align_y + pred_y);
}

/* ------------------------------------------------------------------ moving */

static void move_one(struct sim *s, size_t i)
{
	const struct sim_params *p = &s->p;
	double vx = s->vx[i], vy = s->vy[i];

	s->x[i] += vx;
	s->y[i] += vy;

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

enum { BLOCK = 256 }; /* boids per parallel task */

static void steer_block(void *ctx, size_t task)
{
	struct sim *s = ctx;
	size_t lo = task * BLOCK, hi = lo + BLOCK < s->n ? lo + BLOCK : s->n;

	for (size_t b = lo; b < hi; b++)
		steer_one(s, s->vx, s->vy, s->nvx, s->nvy, b);
}

int sim_step(struct sim *s)
{
	const struct sim_params *p = &s->p;

	if (p->search == SIM_SEARCH_GRID) {
		double r = fmax(p->flock_radius, fmax(p->align_radius, p->avoid_radius));
		int err = grid_build(&s->grid, s->x, s->y, s->n, p->width, p->height, r);
		if (err)
			return err;
	}

	if (p->update == SIM_SEQUENTIAL) {
		for (size_t b = 0; b < s->n; b++)
			steer_one(s, s->vx, s->vy, s->vx, s->vy, b);
	} else {
		size_t tasks = (s->n + BLOCK - 1) / BLOCK;
		if (s->pool)
			pool_run(s->pool, steer_block, s, tasks);
		else
			for (size_t t = 0; t < tasks; t++)
				steer_block(s, t);
		double *t;
		t = s->vx, s->vx = s->nvx, s->nvx = t;
		t = s->vy, s->vy = s->nvy, s->nvy = t;
	}

	for (size_t i = 0; i < s->n; i++)
		move_one(s, i);
	s->steps++;
	return 0;
}
