/*
 * harden — Scott W. Harden's "Boids in C#", the default model, bit
 * for bit; docs/MODEL.md, "The model", gives the equations.
 *
 * Start at harden_step(): it snapshots the flock into the neighbour grid
 * (positions do not change during the steering pass, so no boid escapes
 * its cell), runs steer_one() for every boid (in index order, or in
 * parallel from the snapshot), then move_one().
 *
 * steer_one() reproduces Field.Advance() operation for operation: the boid
 * counts as its own neighbour (distance 0 < r), sums are formed first and
 * multiplied by the weight last, and the four rule results are added to the
 * velocity in the article's order (flock + avoid + align + predator), then
 * the obstacles' push, if there are obstacles.  In a box (--dims 3) every
 * sum, mean, distance and edge has its z too (docs/MODEL.md, "3D").
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "flock.h"
#include "model.h"

/* The article's numbers. */
static void harden_params_default(struct sim_params *p)
{
	p->harden.flock_radius = 50;
	p->harden.flock_weight = .0003;
	p->harden.align_radius = 50;
	p->harden.align_weight = .01;
	p->harden.avoid_radius = 20;
	p->harden.avoid_weight = .001;
	p->harden.predator_radius = 150;
	p->harden.predator_weight = .00005;
	p->harden.min_speed = 1;
	p->harden.max_speed = 5;
	p->harden.wall_pad = 50;
	p->harden.wall_turn = .5;
}

/* Running sums of the neighbour rules for one boid. */
struct sums {
	double fx, fy; size_t fn;  /* flock: positions, count */
	double ax, ay; size_t an;  /* align: velocities, count */
	double cx, cy;             /* avoid: closeness-weighted offsets */
	double fz, az, cz;         /* in a box, their z: last, so a plane clears none of them */
};

/*
 * Adds neighbour k's copies to boid b's sums (b at `at`).  The squared
 * distance only filters out pairs that are clearly too far (with a margin
 * for rounding); the rules themselves compare sqrt(d2) < r as the C# does.
 */
FLOCK_INLINE void visit(const struct sim *s, double reach2, struct flock_vec at, uint32_t k,
                        struct sums *u, int d3)
{
	const struct sim_params *p = &s->p;
	struct flock_vec q = flock_copy_at(s, k, d3);
	double x = q.x, y = q.y, z = q.z;
	double dx = x - at.x, dy = y - at.y, dz = z - at.z;
	double d2 = dx * dx + dy * dy;

	if (d3)
		d2 += dz * dz;
	if (!(d2 <= reach2))
		return;
	double d = sqrt(d2);
	if (d < p->harden.flock_radius) {
		u->fx += x;
		u->fy += y;
		if (d3)
			u->fz += z;
		u->fn++;
	}
	if (d < p->harden.align_radius) {
		struct flock_vec w = flock_copy_vel(s, k, d3);
		u->ax += w.x;
		u->ay += w.y;
		if (d3)
			u->az += w.z;
		u->an++;
	}
	if (d < p->harden.avoid_radius) {
		double closeness = p->harden.avoid_radius - d;
		u->cx += (at.x - x) * closeness;
		u->cy += (at.y - y) * closeness;
		if (d3)
			u->cz += (at.z - z) * closeness;
	}
}

/* The predators' push on a boid at `at`: the sum, before the weight. */
FLOCK_INLINE struct flock_vec predators(const struct sim *s, struct flock_vec at, int d3)
{
	const struct sim_params *p = &s->p;
	double px = 0, py = 0, pz = 0;
	size_t np = p->predators < s->n ? p->predators : s->n;

	for (size_t i = 0; i < np; i++) {
		double dx = at.x - s->x[i], dy = at.y - s->y[i], dz = d3 ? at.z - s->z[i] : 0;
		double d = flock_length(dx, dy, FLOCK_Z(d3, dz));
		if (d < p->harden.predator_radius) {
			double closeness = p->harden.predator_radius - d;
			px += dx * closeness;
			py += dy * closeness;
			if (d3)
				pz += dz * closeness;
		}
	}
	return (struct flock_vec){ px, py, pz };
}

/* The four rules' sum for boid b with velocity v. */
FLOCK_INLINE struct flock_vec rules(const struct flock_pass *f, size_t b, struct flock_vec v, int d3)
{
	const struct sim *s = f->s;
	const struct sim_params *p = &s->p;
	struct flock_vec at = { s->x[b], s->y[b], d3 ? s->z[b] : 0 };
	double reach2 = f->reach2;
	struct sums u;
	struct flock_rows rw;

	memset(&u, 0, d3 ? sizeof(u) : offsetof(struct sums, fz));
	flock_rows_begin(&rw, &s->grid, at.x, at.y, at.z); /* nobody moves while steering: no escapes */
	for (uint32_t k, k1; flock_rows_next(&rw, &k, &k1);)
		for (; k < k1; k++) {
			if (f->trickle)
				flock_trickle_one(f->trickle);
			visit(s, reach2, at, k, &u, d3);
		}

	struct flock_vec flock = { 0, 0, 0 }, align = { 0, 0, 0 };
	if (u.fn) {
		flock.x = (u.fx / (double)u.fn - at.x) * p->harden.flock_weight;
		flock.y = (u.fy / (double)u.fn - at.y) * p->harden.flock_weight;
		if (d3)
			flock.z = (u.fz / (double)u.fn - at.z) * p->harden.flock_weight;
	}
	if (u.an) {
		align.x = (u.ax / (double)u.an - v.x) * p->harden.align_weight;
		align.y = (u.ay / (double)u.an - v.y) * p->harden.align_weight;
		if (d3)
			align.z = (u.az / (double)u.an - v.z) * p->harden.align_weight;
	}
	struct flock_vec pred = predators(s, at, d3);
	struct flock_vec sum = {
		flock.x + u.cx * p->harden.avoid_weight + align.x + pred.x * p->harden.predator_weight,
		flock.y + u.cy * p->harden.avoid_weight + align.y + pred.y * p->harden.predator_weight, 0 };
	if (d3)
		sum.z = flock.z + u.cz * p->harden.avoid_weight + align.z + pred.z * p->harden.predator_weight;
	return sum;
}

/* Steers boid b from its velocity in s->vx and writes the new one to o[b] (ox, oy, oz). */
FLOCK_INLINE void steer_one(const struct flock_pass *f, double *ox, double *oy, double *oz,
                            size_t b, int d3)
{
	const struct sim *s = f->s;
	const struct sim_params *p = &s->p;
	struct flock_vec v = { s->vx[b], s->vy[b], d3 ? s->vz[b] : 0 };
	struct flock_vec r = rules(f, b, v, d3);
	double nx = v.x + r.x, ny = v.y + r.y, nz = v.z + r.z;

	if (p->obstacles_n) { /* not even + 0 otherwise: the seed's bits stay */
		struct flock_vec o = flock_obstacle_push(p, s->x[b], s->y[b], d3 ? &s->z[b] : NULL);
		nx += o.x;
		ny += o.y;
		nz += o.z;
	}
	/* Only absurd weights overflow; the seed would then move the boid to
	 * infinity.  Contain it: such a velocity counts as rest. */
	flock_contain(&nx, &ny, FLOCK_Z(d3, nz));
	ox[b] = nx;
	oy[b] = ny;
	if (d3)
		oz[b] = nz;
}

/*
 * Into the next velocities, in both orders: synchronous, every boid reads
 * the same state; sequential, each sees the new velocities of the earlier
 * ones through their copies, which flock_run() refreshes from s->nvx... after
 * each turn (a still pass, include/flock.h).  harden_step() swaps them in.
 */
static void steer_next(void *ctx, size_t b)
{
	const struct flock_pass *f = ctx;
	steer_one(f, f->s->nvx, f->s->nvy, NULL, b, 0);
}

static void steer_next3(void *ctx, size_t b)
{
	const struct flock_pass *f = ctx;
	steer_one(f, f->s->nvx, f->s->nvy, f->s->nvz, b, 1);
}

/* `obstacles` and `d3` are constants at each call: the loop without them stays the seed's. */
FLOCK_INLINE void move_one(struct sim *s, size_t i, int obstacles, int d3)
{
	const struct sim_params *p = &s->p;
	double vx = s->vx[i], vy = s->vy[i], vz = d3 ? s->vz[i] : 0;

	s->x[i] += vx;
	s->y[i] += vy;
	if (d3)
		s->z[i] += vz;
	if (obstacles) { /* only then: the seed's bits stay */
		s->vx[i] = vx, s->vy[i] = vy; /* through memory: keep vx, vy in registers */
		if (d3)
			s->vz[i] = vz;
		flock_obstacle_wall(p, &s->x[i], &s->y[i], d3 ? &s->z[i] : NULL,
		                    &s->vx[i], &s->vy[i], d3 ? &s->vz[i] : NULL);
		vx = s->vx[i], vy = s->vy[i];
		if (d3)
			vz = s->vz[i];
	}

	double speed = flock_length(vx, vy, FLOCK_Z(d3, vz));
	if (speed > p->harden.max_speed) {
		vx = (vx / speed) * p->harden.max_speed;
		vy = (vy / speed) * p->harden.max_speed;
		vz = (vz / speed) * p->harden.max_speed;
	} else if (speed < p->harden.min_speed) {
		vx = (vx / speed) * p->harden.min_speed;
		vy = (vy / speed) * p->harden.min_speed;
		vz = (vz / speed) * p->harden.min_speed;
	}
	if (isnan(vx)) /* speed 0: 0/0 */
		vx = 0;
	if (isnan(vy))
		vy = 0;
	if (isnan(vz))
		vz = 0;

	if (p->edges & SIM_BOUNCE)
		flock_bounce(p, p->harden.wall_pad, p->harden.wall_turn, s->x[i], s->y[i], d3 ? s->z[i] : 0,
		             &vx, &vy, FLOCK_Z(d3, vz));
	if (p->edges & SIM_WRAP)
		flock_wrap_add(p, &s->x[i], &s->y[i], d3 ? &s->z[i] : NULL);
	s->vx[i] = vx;
	s->vy[i] = vy;
	if (d3)
		s->vz[i] = vz;
}

/* The move pass: one loop for each combination of the constants. */
static void move_all(struct sim *s)
{
	if (s->z && s->p.obstacles_n)
		for (size_t i = 0; i < s->n; i++)
			move_one(s, i, 1, 1);
	else if (s->z)
		for (size_t i = 0; i < s->n; i++)
			move_one(s, i, 0, 1);
	else if (s->p.obstacles_n)
		for (size_t i = 0; i < s->n; i++)
			move_one(s, i, 1, 0);
	else
		for (size_t i = 0; i < s->n; i++)
			move_one(s, i, 0, 0);
}

static int harden_step(struct sim *s)
{
	const struct sim_params *p = &s->p;
	double r = fmax(p->harden.flock_radius, fmax(p->harden.align_radius, p->harden.avoid_radius));
	struct flock_pass f;

	/* cells of edge r: nobody moves while steering */
	int err = flock_begin(&f, s, r, FLOCK_STILL, r);
	if (err)
		return err;
	/* both orders: into the next velocities (a still pass's contract, flock.h) */
	flock_run(&f, s->z ? steer_next3 : steer_next, &f);
	flock_take_next(s);
	move_all(s);
	return 0;
}

static void harden_ranges(const struct sim_params *p, double *near, double *far)
{
	*near = p->harden.avoid_radius;
	*far = p->harden.flock_radius;
}

static const char *const harden_defaults[] = { NULL }; /* the option table's are the article's */

const struct boids_model harden_model = {
	.name = "harden",
	.summary = "Scott Harden's \"Boids in C#\": the default, bit for bit",
	.seed = "Scott W. Harden, \"Boids in C#\" (2020), https://swharden.com/csdv/simulations/boids/",
	.notes = "docs/MODEL.md, \"The model\"; the facts the article leaves out are read from its program, "
	         "https://github.com/swharden/Csharp-Data-Visualization",
	.flags = 0,
	.params_default = harden_params_default,
	.program_defaults = harden_defaults,
	.look = NULL,
	.original_look = "harden-windows",
	.randomize = flock_scatter,
	.step = harden_step,
	.ranges = harden_ranges,
};
