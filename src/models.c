/*
 * models — the Processing (seeds/002), Unity steering (seeds/003) and
 * TypeScript canvas (seeds/004) rule sets, the C# article's "OpenGL
 * version" (gl_one()), and the obstacle push and target every model
 * shares; see include/sim.h and docs/MODEL.md.
 *
 * Start at models_step().  It builds the grid with the model's neighbour
 * radius, copies the state into grid order, then runs the model's
 * proc_one(), steer_one(), canvas_one() or gl_one() for every boid, which steers *and
 * moves* that boid.  Two update modes:
 *
 *   sequential   (what the three programs do: each boid is updated in place,
 *                position included, in index order, so later boids see the
 *                new state of earlier ones).  After each boid its grid copy
 *                is refreshed.  A boid that moved further than the model's
 *                top speed (a wrap, usually) is listed as "escaped", skipped
 *                in its old cell and chained in its new one instead; cells
 *                are that slack wider than the radius, so nobody is missed
 *                (the proof is above models_step()).  Index order jumps
 *                about the field, so each boid prefetches the cells of the
 *                boid AHEAD places later.
 *   synchronous  every boid reads only the copies, which stay the previous
 *                state, and writes only its own entries: parallel blocks
 *                give the same bytes with any number of threads, and the
 *                boids go in grid order, whose neighbourhoods overlap.
 *
 * Neighbours are visited cell by cell in a fixed order (then the escaped
 * boids chained in those cells, latest first), so the sums depend only on
 * the positions and the order of the updates.
 * Predators get no special rule in the first three: none of those programs
 * has any.  gl_one() has the OpenGL program's (boids 0 .. P-1).
 */
#include "models.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "grid.h"
#include "pool.h"
#include "rng.h"

/* The OpenGL program's numbers with its sliders where they start. */
static void gl_params_default(struct sim_params *p)
{
	p->gl_flock_radius = 100;   /* Vision = 10 x VisionTrackbar (10) */
	p->gl_flock_weight = .0005; /* .0005 x (2 x 10/20)^3 */
	p->gl_predator_sight = 2;   /* "predators have double distance" */
	p->gl_avoid_radius = 20;    /* VisionRepel */
	p->gl_avoid_weight = .005;  /* .005 x (2 x 10/20)^4 */
	p->gl_avoid_all = 0;        /* "like avoids like" */
	p->gl_align_radius = 100;   /* Vision */
	p->gl_align_weight = .03;   /* .03 x (2 x 10/20)^3 */
	p->gl_flee_radius = 100;    /* Vision */
	p->gl_flee_weight = .002;
	p->gl_wall_pad = 100;       /* Vision */
	p->gl_wall_turn = .1;
	p->gl_speed_min = .5;       /* .5 + NextDouble() */
	p->gl_speed_max = 1.5;
	p->gl_predator_boost = .5;
	p->gl_speed_ease = .1;      /* SetSpeed(): 10% of the way per step */
	p->gl_step = 2;             /* SpeedTrackbar (10) x .2 */
}

void models_params_default(struct sim_params *p)
{
	p->model = SIM_HARDEN;
	p->obstacles = NULL;
	p->obstacles_n = 0;
	p->obstacle_margin = 30;
	p->obstacle_weight = .2;

	p->target_mode = SIM_TARGET_LISSAJOUS;
	p->target_x = p->width / 2;
	p->target_y = p->height / 2;
	p->target_amp_x = .3;
	p->target_amp_y = .3;
	p->target_freq_x = 3;
	p->target_freq_y = 2;
	p->target_period = 1200;

	p->proc_cohesion_radius = 40;
	p->proc_separation_radius = 10;
	p->proc_alignment_radius = 40;
	p->proc_cohesion_weight = .5;
	p->proc_separation_weight = 4;
	p->proc_alignment_weight = 4;
	p->proc_max_force = 0;
	p->proc_max_speed = 0;
	p->proc_separation = SIM_SEP_UNIT;
	p->proc_limit_components = 0;
	p->proc_jitter = 0;
	p->noise_seed = 0;

	p->steer_radius = 20;
	p->steer_unit = 25;
	p->steer_cohesion_steps = 100;
	p->steer_separation_steps = 1;
	p->steer_socialize_weight = 0;
	p->steer_cohesion_weight = .05;
	p->steer_separation_weight = 156.25;
	p->steer_alignment_weight = .25;
	p->steer_seek_weight = 0;
	p->steer_arrival_radius = 50;
	p->steer_arrival_speed = 5;
	p->steer_max_speed = 3.75;
	p->steer_max_turn = 6.4;
	p->steer_steady_turn = 0;
	p->steer_v0x = 0;
	p->steer_v0y = 0;

	p->canvas_visual_range = 50;
	p->canvas_cohesion_resistance = 10;
	p->canvas_separation_distance = 15;
	p->canvas_alignment_eagerness = .05;
	p->canvas_speed = 100;
	p->canvas_dt = 1.0 / 60;

	gl_params_default(p);
}

void models_randomize(struct sim *s, uint64_t seed)
{
	const struct sim_params *p = &s->p;
	struct rng r;

	rng_seed(&r, seed);
	for (size_t i = 0; i < s->n; i++) {
		if (p->model == SIM_STEERING) {
			/* Random.Range(-1, 1), Random.Range(0, 2) in Unity units, y up */
			double ux = -1 + 2 * rng_uniform(&r), uy = 2 * rng_uniform(&r);
			s->x[i] = p->width / 2 + ux * p->steer_unit;
			s->y[i] = p->height / 2 - uy * p->steer_unit;
			s->vx[i] = p->steer_v0x;
			s->vy[i] = p->steer_v0y;
		} else {
			/* Math.random() * width, * height, fromDegree(Math.random() * 360),
			 * (cos, sin).normalize().multiply(BIRD_SPEED), stored per step */
			s->x[i] = rng_uniform(&r) * p->width;
			s->y[i] = rng_uniform(&r) * p->height;
			double a = rng_uniform(&r) * 360 * (M_PI / 180);
			double vx = cos(a), vy = sin(a), m = sqrt(vx * vx + vy * vy);
			s->vx[i] = vx / m * p->canvas_speed * p->canvas_dt;
			s->vy[i] = vy / m * p->canvas_speed * p->canvas_dt;
		}
	}
}

/* ------------------------------------------------------- shared by all */

struct models_vec models_obstacle_push(const struct sim_params *p, double x, double y)
{
	double px = 0, py = 0;

	for (size_t i = 0; i < p->obstacles_n; i++) {
		const struct sim_obstacle *o = &p->obstacles[i];
		double dx = x - o->x, dy = y - o->y;
		double d = sqrt(dx * dx + dy * dy);
		double depth = o->r + p->obstacle_margin - d;
		if (!(depth > 0))
			continue;
		if (d > 0) {
			px += dx / d * depth * p->obstacle_weight;
			py += dy / d * depth * p->obstacle_weight;
		} else {
			px += depth * p->obstacle_weight; /* at the centre: out along +x */
		}
	}
	return (struct models_vec){ px, py };
}

void models_obstacle_wall(const struct sim_params *p, double *x, double *y,
                          double *vx, double *vy)
{
	for (size_t i = 0; i < p->obstacles_n; i++) {
		const struct sim_obstacle *o = &p->obstacles[i];
		double dx = *x - o->x, dy = *y - o->y;
		double d = sqrt(dx * dx + dy * dy);
		if (!(d < o->r))
			continue;
		double nx = 1, ny = 0; /* at the centre: out along +x */
		if (d > 0)
			nx = dx / d, ny = dy / d;
		*x = o->x + nx * o->r;
		*y = o->y + ny * o->r;
		double vn = *vx * nx + *vy * ny;
		if (vn < 0) { /* heading in: reflect, which keeps the speed */
			*vx -= 2 * vn * nx;
			*vy -= 2 * vn * ny;
		}
	}
}

void models_target(const struct sim_params *p, uint64_t t, double *x, double *y)
{
	switch (p->target_mode) {
	case SIM_TARGET_FIXED:
		*x = p->target_x;
		*y = p->target_y;
		return;
	case SIM_TARGET_LISSAJOUS: {
		double th = 2 * M_PI * (double)t / p->target_period;
		*x = p->width / 2 + p->target_amp_x * p->width * cos(p->target_freq_x * th);
		*y = p->height / 2 + p->target_amp_y * p->height * sin(p->target_freq_y * th);
		return;
	}
	case SIM_TARGET_NONE:
	default:
		*x = p->width / 2;
		*y = p->height / 2;
		return;
	}
}

/* --------------------------------------------------------- vector bits */

/* (x, y) scaled to length 1; the zero vector stays zero (PVector, Unity). */
static void unit(double *x, double *y)
{
	double m = sqrt(*x * *x + *y * *y);
	if (m > 0) {
		*x /= m;
		*y /= m;
	}
}

/* Unity's Vector3.Normalize: the zero vector when the length is not above eps. */
static void unity_normalize(double *x, double *y, double eps)
{
	double m = sqrt(*x * *x + *y * *y);
	if (m > eps) {
		*x /= m;
		*y /= m;
	} else {
		*x = *y = 0;
	}
}

/* Scales (x, y) down to length max if longer (PVector.limit, LimitVelocity). */
static void limit_length(double *x, double *y, double max)
{
	double m = sqrt(*x * *x + *y * *y);
	if (m > max) {
		*x = *x / m * max;
		*y = *y / m * max;
	}
}

/* Clamps each component into [-max, max] (the Processing sketch's clampV). */
static void limit_components(double *x, double *y, double max)
{
	*x = *x > max ? max : *x < -max ? -max : *x;
	*y = *y > max ? max : *y < -max ? -max : *y;
}

/* A velocity that overflowed counts as rest, as in the harden model. */
static void contain(double *x, double *y)
{
	if (!isfinite(*x) || !isfinite(*y))
		*x = *y = 0;
}

/* The two programs' wrap: past one edge, reappear exactly on the other. */
static void wrap_to_edge(double *x, double *y, double w, double h)
{
	if (*x < 0)
		*x = w;
	else if (*x > w)
		*x = 0;
	if (*y < 0)
		*y = h;
	else if (*y > h)
		*y = 0;
}

/* The harden model's bounce: inside the pad, turn back by wall_turn. */
static void wall_turn(const struct sim_params *p, double x, double y, double *vx, double *vy)
{
	if (x < p->wall_pad)
		*vx += p->wall_turn;
	if (x > p->width - p->wall_pad)
		*vx -= p->wall_turn;
	if (y < p->wall_pad)
		*vy += p->wall_turn;
	if (y > p->height - p->wall_pad)
		*vy -= p->wall_turn;
}

/* The harden model's wrap after a move: x < 0 -> x + W, x > W -> x - W. */
static void wrap_add(const struct sim_params *p, double *x, double *y)
{
	if (*x < 0)
		*x += p->width;
	if (*x > p->width)
		*x -= p->width;
	if (*y < 0)
		*y += p->height;
	if (*y > p->height)
		*y -= p->height;
}

/* SplitMix64's finaliser: a good 64-bit mix, integer only. */
static uint64_t mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * A uniform double in [0, 1) for (seed, step, boid, component), the same
 * whichever thread asks and in whichever order: no shared generator state.
 */
static double noise01(uint64_t seed, uint64_t step, size_t b, unsigned comp)
{
	uint64_t z = mix64(mix64(mix64(seed) ^ step) ^ ((uint64_t)b * 2 + comp));
	return (double)(z >> 11) * 0x1.0p-53;
}

/* ------------------------------------------------------ neighbour walk */

struct ctx {
	struct sim *s;
	double reach2;      /* squared neighbour radius, rounded up a little */
	double slack;       /* sequential: a boid moving further escapes its cell */
	size_t nesc;        /* escaped boids so far this step (s->esc) */
	int target;         /* steering toward (tx, ty) */
	double tx, ty;
	double turn;        /* steering: rotation limit, radians */
};

/*
 * The grid-ordered copies k that may lie within the radius of a point: the
 * 3 x 3 cells around it, one contiguous run per row, minus escaped boids,
 * then the escaped boids whose new position lies in those cells (chained
 * per cell, so a query looks at its own 9 cells, never at the whole list).
 * Use:
 *
 *     struct cands it;
 *     cands_begin(&it, c, x, y);
 *     for (uint32_t k; cands_next(&it, &k);) ...
 */
struct cands {
	const struct grid *g;
	const unsigned char *escf;
	const uint32_t *eschead, *escnext;
	int nesc;           /* anything listed this step */
	int j, j1, i0, i1;  /* next row, last row, first and last column */
	uint32_t k, k1;     /* current run of copies */
	int ej, ei;         /* escaped phase: next cell (row, column) */
	uint32_t e;         /* next listed boid in the current chain, or UINT32_MAX */
};

static inline void cands_begin(struct cands *it, const struct ctx *c, double x, double y)
{
	const struct grid *g = &c->s->grid;
	int cx, cy;

	grid_cell_of(g, x, y, &cx, &cy);
	it->g = g;
	it->escf = c->s->escf;
	it->eschead = c->s->eschead;
	it->escnext = c->s->escnext;
	it->nesc = c->nesc > 0;
	it->i0 = cx > 0 ? cx - 1 : 0;
	it->i1 = cx + 1 < g->nx ? cx + 1 : cx;
	it->j = cy > 0 ? cy - 1 : 0;
	it->j1 = cy + 1 < g->ny ? cy + 1 : cy;
	it->k = it->k1 = 0;
	it->ej = it->j;
	it->ei = it->i0;
	it->e = UINT32_MAX;
}

static inline int cands_next(struct cands *it, uint32_t *k)
{
	for (;;) {
		while (it->k < it->k1) {
			uint32_t kk = it->k++;
			if (!it->escf[kk]) {
				*k = kk;
				return 1;
			}
		}
		if (it->j > it->j1)
			break;
		size_t row = (size_t)it->j++ * (size_t)it->g->nx;
		it->k = it->g->start[row + (size_t)it->i0];
		it->k1 = it->g->start[row + (size_t)it->i1 + 1];
	}
	if (!it->nesc)
		return 0;
	for (;;) {
		if (it->e != UINT32_MAX) {
			*k = it->e;
			it->e = it->escnext[it->e];
			return 1;
		}
		if (it->ej > it->j1)
			return 0;
		it->e = it->eschead[(size_t)it->ej * (size_t)it->g->nx + (size_t)it->ei];
		if (++it->ei > it->i1) {
			it->ei = it->i0;
			it->ej++;
		}
	}
}

/* ---------------------------------------------------------- processing */

/*
 * seeds/002's listings: neighbours at distance <= r, the boid itself
 * excluded; cohesion = unit(centre - p), separation = unit(sum of
 * unit(p - q)) over d > 0 (the Java's in-place normalize; 1/d with
 * SIM_SEP_INVERSE), alignment = unit(sum of v); weighted, summed; optional
 * force limit; v = v + a, optional speed limit; move; wrap.
 */
static void proc_one(struct ctx *c, size_t b)
{
	struct sim *s = c->s;
	const struct sim_params *p = &s->p;
	double bx = s->x[b], by = s->y[b], vx = s->vx[b], vy = s->vy[b];
	uint32_t self = s->gpos[b];
	double cx = 0, cy = 0, sx = 0, sy = 0, ax = 0, ay = 0;
	size_t cn = 0;

	struct cands it;
	cands_begin(&it, c, bx, by);
	for (uint32_t k; cands_next(&it, &k);) {
		double dx = s->gx[k] - bx, dy = s->gy[k] - by;
		double d2 = dx * dx + dy * dy;
		if (k != self && d2 <= c->reach2) {
			double d = sqrt(d2);
			if (d <= p->proc_cohesion_radius) {
				cx += s->gx[k];
				cy += s->gy[k];
				cn++;
			}
			if (d <= p->proc_separation_radius && d > 0) {
				double ux = -dx / d, uy = -dy / d; /* unit(p - q) */
				if (p->proc_separation == SIM_SEP_INVERSE) {
					ux /= d;
					uy /= d;
				}
				sx += ux;
				sy += uy;
			}
			if (d <= p->proc_alignment_radius) {
				ax += s->gvx[k];
				ay += s->gvy[k];
			}
		}
	}

	if (cn) {
		cx = cx / (double)cn - bx;
		cy = cy / (double)cn - by;
		unit(&cx, &cy);
	}
	unit(&sx, &sy);
	unit(&ax, &ay);
	double accx = cx * p->proc_cohesion_weight +
	              (sx * p->proc_separation_weight + ax * p->proc_alignment_weight);
	double accy = cy * p->proc_cohesion_weight +
	              (sy * p->proc_separation_weight + ay * p->proc_alignment_weight);
	if (p->proc_jitter > 0) {
		double j = p->proc_jitter;
		accx += -j + noise01(p->noise_seed, s->steps, b, 0) * (2 * j);
		accy += -j + noise01(p->noise_seed, s->steps, b, 1) * (2 * j);
	}
	if (p->proc_max_force > 0) {
		if (p->proc_limit_components)
			limit_components(&accx, &accy, p->proc_max_force);
		else
			limit_length(&accx, &accy, p->proc_max_force);
	}

	vx = accx + vx;
	vy = accy + vy;
	if (p->obstacles_n) {
		struct models_vec o = models_obstacle_push(p, bx, by);
		vx += o.x;
		vy += o.y;
	}
	if (p->proc_max_speed > 0) {
		if (p->proc_limit_components)
			limit_components(&vx, &vy, p->proc_max_speed);
		else
			limit_length(&vx, &vy, p->proc_max_speed);
	}
	contain(&vx, &vy);

	bx += vx;
	by += vy;
	if (p->obstacles_n)
		models_obstacle_wall(p, &bx, &by, &vx, &vy);
	wrap_to_edge(&bx, &by, p->width, p->height);
	s->x[b] = bx, s->y[b] = by, s->vx[b] = vx, s->vy[b] = vy;
}

/* ------------------------------------------------------------ steering */

/* With steer_steady_turn, turns wider than this (150 degrees) go toward +angle. */
#define BEHIND (M_PI * 5 / 6)

/*
 * Unity's Vector3.RotateTowards(from, to, max angle, max magnitude change)
 * in 2D: the direction of `from` turned toward `to` the short way by at most
 * `turn` radians (exactly onto it when closer), the length of `from` moved
 * toward that of `to` by at most `dm`.  A zero vector on either side falls
 * back to MoveTowards, as Unity does.  An exact reversal turns toward
 * +angle.  `steady` (an option, not Unity's): when `to` is more than BEHIND
 * away, the short way flips side with every small change of `to` and the
 * boid dithers; such turns then always go toward +angle (from +x to +y:
 * clockwise on the screen, where y points down).
 */
static void rotate_towards(double fx, double fy, double *tx, double *ty,
                           double turn, double dm, int steady)
{
	double fm = sqrt(fx * fx + fy * fy), tm = sqrt(*tx * *tx + *ty * *ty);

	if (!(fm > 0) || !(tm > 0)) {
		double dx = *tx - fx, dy = *ty - fy, d = sqrt(dx * dx + dy * dy);
		if (d > dm && d > 0) { /* MoveTowards */
			*tx = fx + dx / d * dm;
			*ty = fy + dy / d * dm;
		}
		return;
	}
	double ux = fx / fm, uy = fy / fm;
	double cross = ux * (*ty / tm) - uy * (*tx / tm);
	double dot = ux * (*tx / tm) + uy * (*ty / tm);
	double a = atan2(cross, dot);
	double m = tm - fm > dm ? fm + dm : tm - fm < -dm ? fm - dm : tm;

	if (steady && fabs(a) > BEHIND)
		a = M_PI; /* nearly reversed: always the same way, or it dithers */
	if (fabs(a) <= turn) {
		*tx = *tx / tm * m;
		*ty = *ty / tm * m;
		return;
	}
	double r = a > 0 ? turn : -turn, cr = cos(r), sr = sin(r);
	*tx = (ux * cr - uy * sr) * m;
	*ty = (ux * sr + uy * cr) * m;
}

/*
 * Socialize: for a boid with no neighbours, the unit offset (Unity's
 * Normalize) from it to the mean position of every other boid, times the
 * weight.  Reads the grid copies, which are the state this boid sees.
 */
static void socialize(const struct sim *s, size_t b, double eps, double *ox, double *oy)
{
	uint32_t self = s->gpos[b];
	double sx = 0, sy = 0;

	*ox = *oy = 0;
	if (s->n < 2)
		return;
	for (size_t k = 0; k < s->n; k++)
		if (k != self) {
			sx += s->gx[k];
			sy += s->gy[k];
		}
	double m = (double)(s->n - 1);
	double dx = sx / m - s->x[b], dy = sy / m - s->y[b];
	unity_normalize(&dx, &dy, eps);
	*ox = dx * s->p.steer_socialize_weight;
	*oy = dy * s->p.steer_socialize_weight;
}

/*
 * seeds/003 in 2D: neighbours at eps <= d < r (Unity's approximate
 * Position != other); v' = v + cohesion + separation + alignment + seek +
 * socialize + arrival (+ obstacles), limited in length, then in rotation
 * against v; move; --edges (none by default: the scene has no walls).
 * eps is Unity's 1e-5, in pixels.
 */
static void steer_one(struct ctx *c, size_t b)
{
	struct sim *s = c->s;
	const struct sim_params *p = &s->p;
	double bx = s->x[b], by = s->y[b], vx = s->vx[b], vy = s->vy[b];
	double cx = 0, cy = 0, sx = 0, sy = 0, ax = 0, ay = 0;
	double eps = 1e-5 * p->steer_unit;
	size_t n = 0;

	struct cands it;
	cands_begin(&it, c, bx, by);
	for (uint32_t k; cands_next(&it, &k);) {
		double dx = s->gx[k] - bx, dy = s->gy[k] - by;
		double d2 = dx * dx + dy * dy;
		if (d2 <= c->reach2 && !(d2 < eps * eps)) {
			double d = sqrt(d2);
			if (d < p->steer_radius) {
				cx += s->gx[k];
				cy += s->gy[k];
				double ux = -dx, uy = -dy;
				unity_normalize(&ux, &uy, eps);
				sx += ux / (d * d) / p->steer_separation_steps;
				sy += uy / (d * d) / p->steer_separation_steps;
				ax += s->gvx[k];
				ay += s->gvy[k];
				n++;
			}
		}
	}

	double cohx = 0, cohy = 0, alix = 0, aliy = 0;
	if (n) {
		cohx = (cx / (double)n - bx) / p->steer_cohesion_steps * p->steer_cohesion_weight;
		cohy = (cy / (double)n - by) / p->steer_cohesion_steps * p->steer_cohesion_weight;
		alix = ax / (double)n - vx;
		aliy = ay / (double)n - vy;
		unity_normalize(&alix, &aliy, eps);
		alix *= p->steer_alignment_weight;
		aliy *= p->steer_alignment_weight;
	}
	double sepx = sx * p->steer_separation_weight, sepy = sy * p->steer_separation_weight;

	double seekx = 0, seeky = 0, socx = 0, socy = 0, arrx = 0, arry = 0;
	if (c->target && p->steer_seek_weight >= 1e-4 * p->steer_unit) {
		seekx = c->tx - bx;
		seeky = c->ty - by;
		unity_normalize(&seekx, &seeky, eps);
		seekx = seekx * p->steer_seek_weight - vx;
		seeky = seeky * p->steer_seek_weight - vy;
	}
	if (!n && p->steer_socialize_weight != 0)
		socialize(s, b, eps, &socx, &socy);
	if (c->target && p->steer_arrival_radius >= 1e-4 * p->steer_unit) {
		double ox = c->tx - bx, oy = c->ty - by, d = sqrt(ox * ox + oy * oy);
		double ramped = p->steer_arrival_speed * (d / p->steer_arrival_radius);
		double clipped = fmin(ramped, p->steer_arrival_speed);
		double dx = 0, dy = 0;
		if (d > 0) {
			dx = clipped / d * ox;
			dy = clipped / d * oy;
		}
		arrx = dx - vx;
		arry = dy - vy;
	}

	double nx = vx + cohx + sepx + alix + seekx + socx + arrx;
	double ny = vy + cohy + sepy + aliy + seeky + socy + arry;
	if (p->edges & SIM_BOUNCE) /* a term of the sum: arrival's -v would undo a later turn */
		wall_turn(p, bx, by, &nx, &ny);
	if (p->obstacles_n) {
		struct models_vec o = models_obstacle_push(p, bx, by);
		nx += o.x;
		ny += o.y;
	}
	limit_length(&nx, &ny, p->steer_max_speed);
	rotate_towards(vx, vy, &nx, &ny, c->turn, p->steer_max_speed, p->steer_steady_turn);
	contain(&nx, &ny);

	bx += nx;
	by += ny;
	if (p->obstacles_n)
		models_obstacle_wall(p, &bx, &by, &nx, &ny);
	if (p->edges & SIM_WRAP)
		wrap_add(p, &bx, &by);
	s->x[b] = bx, s->y[b] = by, s->vx[b] = nx, s->vy[b] = ny;
}

/* -------------------------------------------------------------- canvas */

/*
 * seeds/004: one pass over the boids seen at distance < range (itself
 * excluded), accumulating positions, close offsets and velocities; then
 * V' = unit(V + C + S + A) x speed with V in px/s; move by V' dt; wrap.
 */
static void canvas_one(struct ctx *c, size_t b)
{
	struct sim *s = c->s;
	const struct sim_params *p = &s->p;
	double bx = s->x[b], by = s->y[b], dt = p->canvas_dt, speed = p->canvas_speed;
	double Vx = s->vx[b] / dt, Vy = s->vy[b] / dt;
	uint32_t self = s->gpos[b];
	double cx = 0, cy = 0, sx = 0, sy = 0, ax = 0, ay = 0;
	size_t seen = 0;

	struct cands it;
	cands_begin(&it, c, bx, by);
	for (uint32_t k; cands_next(&it, &k);) {
		double dx = s->gx[k] - bx, dy = s->gy[k] - by;
		double d2 = dx * dx + dy * dy;
		if (k != self && d2 <= c->reach2) {
			double d = sqrt(d2);
			if (d < p->canvas_visual_range) {
				seen++;
				cx += s->gx[k];
				cy += s->gy[k];
				if (d < p->canvas_separation_distance) {
					sx -= dx;
					sy -= dy;
				}
				ax += s->gvx[k];
				ay += s->gvy[k];
			}
		}
	}

	double accx = 0, accy = 0;
	if (seen) {
		double m = (double)seen;
		double cohx = (cx / m - bx) / p->canvas_cohesion_resistance;
		double cohy = (cy / m - by) / p->canvas_cohesion_resistance;
		double ux = ax / m, uy = ay / m; /* mean velocity: only its direction counts */
		unit(&ux, &uy);
		double alix = (ux * speed - Vx) * p->canvas_alignment_eagerness;
		double aliy = (uy * speed - Vy) * p->canvas_alignment_eagerness;
		accx = cohx + sx + alix;
		accy = cohy + sy + aliy;
	}
	double wx = Vx + accx, wy = Vy + accy;
	if (p->obstacles_n) {
		struct models_vec o = models_obstacle_push(p, bx, by);
		wx += o.x / dt;
		wy += o.y / dt;
	}
	double m = sqrt(wx * wx + wy * wy);
	if (!(m > 0) || !isfinite(m)) { /* no direction: keep the old one */
		wx = Vx, wy = Vy;
		m = sqrt(wx * wx + wy * wy);
		if (!(m > 0) || !isfinite(m))
			wx = 1, wy = 0, m = 1; /* at rest: head along +x */
	}
	double vx = wx / m * speed * dt, vy = wy / m * speed * dt;

	bx += vx;
	by += vy;
	if (p->obstacles_n)
		models_obstacle_wall(p, &bx, &by, &vx, &vy);
	wrap_to_edge(&bx, &by, p->width, p->height);
	s->x[b] = bx, s->y[b] = by, s->vx[b] = vx, s->vy[b] = vy;
}

/* -------------------------------------------------------------- opengl */

/*
 * The OpenGL version of the C# program, one boid, as its Field.Advance()
 * does it: flock, avoid (own kind), align, flee predators, walls, then
 * SetSpeed() and the move, each changing the velocity in place.  v is the
 * program's velocity (px/step / gl_step).  Neighbours include the boid
 * itself (distance 0), as in the program's loops over every boid; its own
 * velocity in the alignment mean is the one already changed by flock and
 * avoid.  Predators are boids 0 .. P-1 and see gl_predator_sight times as
 * far for cohesion.
 */
static void gl_one(struct ctx *c, size_t b)
{
	struct sim *s = c->s;
	const struct sim_params *p = &s->p;
	double step = p->gl_step, bx = s->x[b], by = s->y[b];
	double vx = s->vx[b] / step, vy = s->vy[b] / step;
	size_t np = p->predators < s->n ? p->predators : s->n;
	int pred = b < np;
	double fr = p->gl_flock_radius * (pred ? p->gl_predator_sight : 1);
	uint32_t self = s->gpos[b];
	double cx = 0, cy = 0, ax = 0, ay = 0;
	size_t cn = 0, an = 0;
	struct cands it;

	/* pass 1: positions for cohesion, the others' velocities for alignment */
	cands_begin(&it, c, bx, by);
	for (uint32_t k; cands_next(&it, &k);) {
		double dx = s->gx[k] - bx, dy = s->gy[k] - by;
		double d2 = dx * dx + dy * dy;
		if (!(d2 <= c->reach2))
			continue;
		double d = sqrt(d2);
		if (d < fr) {
			cx += s->gx[k];
			cy += s->gy[k];
			cn++;
		}
		if (d < p->gl_align_radius) {
			if (k != self) {
				ax += s->gvx[k] / step;
				ay += s->gvy[k] / step;
			}
			an++;
		}
	}
	if (cn) {
		vx += (cx / (double)cn - bx) * p->gl_flock_weight;
		vy += (cy / (double)cn - by) * p->gl_flock_weight;
	}

	/* pass 2: separation, one neighbour at a time, own kind only */
	cands_begin(&it, c, bx, by);
	for (uint32_t k; cands_next(&it, &k);) {
		if (!p->gl_avoid_all && (s->grid.items[k] < np) != pred)
			continue;
		double dx = s->gx[k] - bx, dy = s->gy[k] - by;
		double d2 = dx * dx + dy * dy;
		if (!(d2 <= c->reach2))
			continue;
		double closeness = p->gl_avoid_radius - sqrt(d2);
		if (closeness > 0) {
			vx -= dx * p->gl_avoid_weight * closeness;
			vy -= dy * p->gl_avoid_weight * closeness;
		}
	}

	if (an) { /* the boid itself counts with its velocity as it is now */
		ax += vx;
		ay += vy;
		vx -= (vx - ax / (double)an) * p->gl_align_weight;
		vy -= (vy - ay / (double)an) * p->gl_align_weight;
	}

	/* flee every predator in range, in index order, by the bare offset */
	for (size_t j = 0; j < np; j++) {
		uint32_t k = s->gpos[j];
		double dx = s->gx[k] - bx, dy = s->gy[k] - by;
		if (sqrt(dx * dx + dy * dy) < p->gl_flee_radius) {
			vx -= dx * p->gl_flee_weight;
			vy -= dy * p->gl_flee_weight;
		}
	}

	/* walls, from the position before the move */
	if (bx < p->gl_wall_pad)
		vx += p->gl_wall_turn;
	if (by < p->gl_wall_pad)
		vy += p->gl_wall_turn;
	if (bx > p->width - p->gl_wall_pad)
		vx -= p->gl_wall_turn;
	if (by > p->height - p->gl_wall_pad)
		vy -= p->gl_wall_turn;
	if (p->obstacles_n) {
		struct models_vec o = models_obstacle_push(p, bx, by);
		vx += o.x / step;
		vy += o.y / step;
	}

	/* SetSpeed(): a tenth of the way toward the target speed, no clamp */
	if (!(vx == 0 && vy == 0)) {
		double speed = s->ts[b] + (pred ? p->gl_predator_boost : 0);
		double cur = sqrt(vx * vx + vy * vy);
		double tx = vx / cur * speed, ty = vy / cur * speed;
		vx += (tx - vx) * p->gl_speed_ease;
		vy += (ty - vy) * p->gl_speed_ease;
	}
	contain(&vx, &vy);

	bx += vx * step;
	by += vy * step;
	vx *= step;
	vy *= step;
	if (p->obstacles_n)
		models_obstacle_wall(p, &bx, &by, &vx, &vy);
	s->x[b] = bx, s->y[b] = by, s->vx[b] = vx, s->vy[b] = vy;
}

/* ---------------------------------------------------------------- step */

enum {
	AHEAD = 8,            /* sequential: prefetch the cells of boid b + AHEAD */
	BLOCK = 256,          /* boids per parallel task */
	PARALLEL_MIN = 2048,  /* below this, threads cost more than they save */
};

typedef void one_fn(struct ctx *c, size_t b);

struct run {
	struct ctx *c;
	one_fn *one;
};

/*
 * Synchronous: boids in grid order, cell after cell, so that the next
 * boid's neighbours are mostly in cache already.  Each reads the copies
 * only and writes its own entries, so the order changes no bit.
 */
static void run_block(void *arg, size_t task)
{
	struct run *r = arg;
	const uint32_t *order = r->c->s->grid.items;
	size_t n = r->c->s->n, lo = task * BLOCK, hi = lo + BLOCK < n ? lo + BLOCK : n;

	for (size_t k = lo; k < hi; k++)
		r->one(r->c, order[k]);
}

/*
 * How far a processing boid can move in this step (a bound, for the grid's
 * cells; any boid moving further is looked up from the escaped list).  With
 * the speed limit, the limit; without, the fastest boid now plus the largest
 * acceleration (force limit, or the sum of the weights and the jitter) and
 * the obstacles' strongest push.
 */
static double proc_slack(const struct sim *s)
{
	const struct sim_params *p = &s->p;
	double k = p->proc_limit_components ? M_SQRT2 : 1;

	if (p->proc_max_speed > 0)
		return p->proc_max_speed * k;
	double v2 = 0;
	for (size_t i = 0; i < s->n; i++)
		v2 = fmax(v2, s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i]);
	double a = p->proc_max_force > 0 ? p->proc_max_force * k :
	           fabs(p->proc_cohesion_weight) + fabs(p->proc_separation_weight) +
	           fabs(p->proc_alignment_weight) + M_SQRT2 * p->proc_jitter;
	for (size_t i = 0; i < p->obstacles_n; i++)
		a += (p->obstacles[i].r + p->obstacle_margin) * p->obstacle_weight;
	double v = sqrt(v2) + a;
	return isfinite(v) ? v : 0;
}

/* Room for one chain head per grid cell, all empty; 0 or -ENOMEM. */
static int eschead_fit(struct sim *s)
{
	size_t cells = (size_t)s->grid.nx * (size_t)s->grid.ny;
	if (cells <= s->eschead_cap)
		return 0;
	uint32_t *h = realloc(s->eschead, cells * sizeof(*h));
	if (!h)
		return -ENOMEM;
	for (size_t c = s->eschead_cap; c < cells; c++)
		h[c] = UINT32_MAX;
	s->eschead = h;
	s->eschead_cap = cells;
	return 0;
}

/*
 * Which boids the sequential pass must list as escaped, and why rounding
 * never hides one.
 *
 * A boid's grid copy keeps the cell of the position o it had when the grid
 * was built; after its turn the copy holds its new position p.  A later
 * boid at q visits the 3 x 3 cells around cell(q) and uses k when the
 * squared distance passes reach2.  k is found in its old cell exactly when
 * cell(o) is within one cell of cell(q) on each axis, which holds when
 * |o - q| is at most one cell on each axis.  Since |o - q| <= |o - p| +
 * |p - q|, a boid must be listed when |o - p| could exceed the cell minus
 * the reach: every boid that moved further than its top speed allows, every
 * wrapped boid (it moved about a field's width), every boid an obstacle put
 * back on its circle.  In exact arithmetic cell = reach + slack, and a boid
 * moving at exactly its top speed is not listed; in doubles its computed
 * distance is slack times (1 + a few u), u = 2^-53, so the test allows
 * slack (1 + 1e-9) and the cell has twice that margin.  The bound:
 *
 *   k passed the filter: fl(d2) <= fl(reach^2 (1 + 1e-9)), so the true
 *     |p - q| <= reach sqrt(1 + 1e-9) (1 + 3u) <= reach (1 + 0.51e-9);
 *   k was not listed: fl(|p - o|) <= fl(slack (1 + 1e-9)), so the true
 *     |p - o| <= slack (1 + 1e-9) (1 + 5u) <= slack (1 + 1.01e-9);
 *   together |o - q| <= (reach + slack) (1 + 1.01e-9) on each axis;
 *   the cell c = fl((reach + slack) (1 + 2e-9)) >= (reach + slack)
 *     (1 + 1.99e-9) (grid_build() only ever makes it larger), so
 *     |o - q| <= c (1 - 0.97e-9);
 *   grid_cell_of() takes floor(fl(v / c)), clamped to the grid; the
 *     quotients that matter are below 2^20 + 2 (the grid has at most 2^20
 *     cells a side; beyond it both points clamp to the border cell), so
 *     each is off by less than 2^21 u = 2.4e-10 of a cell, and two
 *     quotients at most one cell minus 0.97e-9 apart are computed less than
 *     one cell apart: their floors differ by at most one.
 *
 * So any k within reach of q is either in the 3 x 3 cells or listed.  A
 * listed boid is chained in the cell of its new position p: the same bound
 * with |p - o| = 0 puts that cell among the 3 x 3 too, so a query walks
 * its own 9 chains, never the whole list (which grows with the field's
 * edge, sqrt(N) wrapping boids a step: checking it all made every model
 * O(N^1.5)).  Nothing here depends on the ratio of slack to reach.  A boid at top speed
 * is listed only if positions are so large that one ulp of them is 1e-9 of
 * its step (fields above about 10^6 px): slower then, never wrong.
 * Brute force has a single cell, so it lists nobody.
 */
int models_step(struct sim *s)
{
	const struct sim_params *p = &s->p;
	struct ctx c = { .s = s };
	one_fn *one;
	double reach;

	s->escaped = 0;
	switch (p->model) {
	case SIM_PROCESSING:
		one = proc_one;
		reach = fmax(p->proc_cohesion_radius,
		             fmax(p->proc_separation_radius, p->proc_alignment_radius));
		c.slack = proc_slack(s);
		break;
	case SIM_STEERING:
		one = steer_one;
		reach = p->steer_radius;
		c.slack = p->steer_max_speed;
		c.turn = p->steer_max_turn * (M_PI / 180);
		c.target = p->target_mode != SIM_TARGET_NONE;
		models_target(p, s->steps, &c.tx, &c.ty);
		break;
	case SIM_CANVAS:
		one = canvas_one;
		reach = p->canvas_visual_range; /* separation counts seen boids only */
		c.slack = p->canvas_speed * p->canvas_dt;
		break;
	case SIM_OPENGL: {
		one = gl_one;
		double sight = p->predators ? fmax(1, p->gl_predator_sight) : 1;
		reach = fmax(p->gl_flock_radius * sight, fmax(p->gl_align_radius, p->gl_avoid_radius));
		/* no clamp: a faster boid escapes its cell and is visited from the list */
		c.slack = p->gl_step * 2 * (fabs(p->gl_speed_max) + fabs(p->gl_predator_boost));
		break;
	}
	case SIM_HARDEN:
	default:
		return -EINVAL;
	}
	c.reach2 = reach * reach * (1 + 1e-9);

	int seq = p->update == SIM_SEQUENTIAL;
	int brute = p->search == SIM_SEARCH_BRUTE;
	double cell = seq ? (reach + c.slack) * (1 + 2e-9) : reach * (1 + 1e-9);
	if (brute) /* one cell: everybody, in index order */
		cell = 2 * fmax(p->width, p->height) + reach + c.slack;
	int err = grid_build(&s->grid, s->x, s->y, s->n, p->width, p->height, cell);
	if (err)
		return err;
	for (size_t k = 0; k < s->n; k++) {
		uint32_t i = s->grid.items[k];
		s->gx[k] = s->x[i];
		s->gy[k] = s->y[i];
		s->gvx[k] = s->vx[i];
		s->gvy[k] = s->vy[i];
		s->gpos[i] = (uint32_t)k;
	}

	if (seq && (err = eschead_fit(s)) != 0)
		return err;
	if (seq) {
		double allowed = c.slack * (1 + 1e-9); /* see the proof above */
		const struct grid_array copies[] = {
			{ s->gx, sizeof(double) }, { s->gy, sizeof(double) },
			{ s->gvx, sizeof(double) }, { s->gvy, sizeof(double) }, { s->escf, 1 },
		};
		for (size_t b = 0; b < s->n; b++) {
			double x0 = s->x[b], y0 = s->y[b];
			/* index order jumps about the field: load a later boid's
			 * cells now (it has not moved yet; a hint only) */
			if (!brute && b + AHEAD < s->n)
				grid_prefetch(&s->grid, s->x[b + AHEAD], s->y[b + AHEAD], copies, 5);
			one(&c, b);
			uint32_t k = s->gpos[b];
			s->gx[k] = s->x[b];
			s->gy[k] = s->y[b];
			s->gvx[k] = s->vx[b];
			s->gvy[k] = s->vy[b];
			double dx = s->x[b] - x0, dy = s->y[b] - y0;
			if (!brute && !(sqrt(dx * dx + dy * dy) <= allowed)) {
				/* chained in its new cell: a query within reach of
				 * it looks there (the cell is wider than the reach) */
				int cx, cy;
				grid_cell_of(&s->grid, s->x[b], s->y[b], &cx, &cy);
				size_t at = (size_t)cy * (size_t)s->grid.nx + (size_t)cx;
				s->escf[k] = 1;
				s->escnext[k] = s->eschead[at];
				s->eschead[at] = k;
				s->esc[c.nesc++] = k;
			}
		}
		for (size_t e = 0; e < c.nesc; e++) {
			uint32_t k = s->esc[e];
			int cx, cy;
			grid_cell_of(&s->grid, s->gx[k], s->gy[k], &cx, &cy);
			s->eschead[(size_t)cy * (size_t)s->grid.nx + (size_t)cx] = UINT32_MAX;
			s->escf[k] = 0;
		}
		s->escaped = c.nesc;
	} else {
		struct run r = { &c, one };
		size_t tasks = (s->n + BLOCK - 1) / BLOCK;
		if (s->pool && s->n >= PARALLEL_MIN)
			pool_run(s->pool, run_block, &r, tasks);
		else
			for (size_t t = 0; t < tasks; t++)
				run_block(&r, t);
	}
	return 0;
}
