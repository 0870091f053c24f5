/*
 * processing — Takuma Kakehi's Processing flocking: the Java listing's three
 * rules as written, with its sketch's force and speed limits where the
 * listing is silent (0: none); docs/MODEL.md, "processing".
 *
 * Each boid, in its turn, gathers its neighbours (at distance <= r, itself
 * excluded), forms cohesion = unit(centre - p), separation = unit(sum of
 * unit(p - q)) over d > 0 (the Java's in-place normalize; 1/d with
 * SIM_SEP_INVERSE), alignment = unit(sum of v); weighted, summed; optional
 * jitter and force limit; v = v + a, optional speed limit; moves; wraps
 * (the sketch always does).  No predators: the program has none.
 */
#include <math.h>

#include "flock.h"
#include "model.h"
#include "rng.h"

static void processing_params_default(struct sim_params *p)
{
	p->proc.cohesion_radius = 40;
	p->proc.separation_radius = 10;
	p->proc.alignment_radius = 40;
	p->proc.cohesion_weight = .5;
	p->proc.separation_weight = 4;
	p->proc.alignment_weight = 4;
	p->proc.max_force = 5;  /* the sketch's Max_Acceleration; the listing is silent (0: none) */
	p->proc.max_speed = 3;  /* its Max_Velocity: unlimited, the flock races onto the wrap edges */
	p->proc.separation = SIM_SEP_UNIT;
	p->proc.limit_components = 0;
	p->proc.jitter = 0;
	p->noise_seed = 0;
}

/* Limits (x, y[, z]) to max by length or, as the sketch does, by component. */
static inline void limit(const struct sim_params *p, double *x, double *y, double *z, double max)
{
	if (p->proc.limit_components)
		flock_limit_components(x, y, z, max);
	else
		flock_limit_length(x, y, z, max);
}

/* The three rules' weighted sum for boid b: the acceleration before jitter. */
FLOCK_INLINE struct flock_vec rules(const struct flock_pass *f, size_t b, int d3)
{
	const struct sim *s = f->s;
	const struct sim_params *p = &s->p;
	double bx = s->x[b], by = s->y[b], bz = d3 ? s->z[b] : 0;
	uint32_t self = s->gpos[b];
	double cx = 0, cy = 0, cz = 0, sx = 0, sy = 0, sz = 0, ax = 0, ay = 0, az = 0;
	size_t cn = 0;
	struct flock_nbrs it;

	flock_near_begin(&it, f, bx, by, bz, d3);
	for (struct flock_near nb; flock_near_next(&it, &nb);) {
		if (nb.k == self)
			continue;
		double d = sqrt(nb.d2);
		if (d <= p->proc.cohesion_radius) {
			cx += nb.q.x;
			cy += nb.q.y;
			if (d3)
				cz += nb.q.z;
			cn++;
		}
		if (d <= p->proc.separation_radius && d > 0) {
			double ux = -nb.dx / d, uy = -nb.dy / d, uz = -nb.dz / d; /* unit(p - q) */
			if (p->proc.separation == SIM_SEP_INVERSE) {
				ux /= d;
				uy /= d;
				uz /= d;
			}
			sx += ux;
			sy += uy;
			if (d3)
				sz += uz;
		}
		if (d <= p->proc.alignment_radius) {
			struct flock_vec w = flock_copy_vel(s, nb.k, d3);
			ax += w.x;
			ay += w.y;
			if (d3)
				az += w.z;
		}
	}
	if (cn) {
		cx = cx / (double)cn - bx;
		cy = cy / (double)cn - by;
		cz = cz / (double)cn - bz;
		flock_unit(&cx, &cy, FLOCK_Z(d3, cz));
	}
	flock_unit(&sx, &sy, FLOCK_Z(d3, sz));
	flock_unit(&ax, &ay, FLOCK_Z(d3, az));
	return (struct flock_vec){
		cx * p->proc.cohesion_weight + (sx * p->proc.separation_weight + ax * p->proc.alignment_weight),
		cy * p->proc.cohesion_weight + (sy * p->proc.separation_weight + ay * p->proc.alignment_weight),
		cz * p->proc.cohesion_weight + (sz * p->proc.separation_weight + az * p->proc.alignment_weight),
	};
}

FLOCK_INLINE void proc_boid(const struct flock_pass *f, size_t b, int d3)
{
	struct sim *s = f->s;
	const struct sim_params *p = &s->p;
	double bx = s->x[b], by = s->y[b], bz = d3 ? s->z[b] : 0;
	double vx = s->vx[b], vy = s->vy[b], vz = d3 ? s->vz[b] : 0;
	struct flock_vec acc = rules(f, b, d3);

	if (p->proc.jitter > 0) { /* keys: 2b and 2b + 1 for x and y; 2^63 + b for z, which no x or y reaches */
		double j = p->proc.jitter;
		acc.x += -j + flock_noise01(p->noise_seed, s->steps, (uint64_t)b * 2) * (2 * j);
		acc.y += -j + flock_noise01(p->noise_seed, s->steps, (uint64_t)b * 2 + 1) * (2 * j);
		if (d3)
			acc.z += -j + flock_noise01(p->noise_seed, s->steps, (uint64_t)1 << 63 | b) * (2 * j);
	}
	if (p->proc.max_force > 0)
		limit(p, &acc.x, &acc.y, FLOCK_Z(d3, acc.z), p->proc.max_force);

	vx = acc.x + vx;
	vy = acc.y + vy;
	vz = acc.z + vz;
	if (p->obstacles_n) {
		struct flock_vec o = flock_obstacle_push(p, bx, by, FLOCK_Z(d3, bz));
		vx += o.x;
		vy += o.y;
		vz += o.z;
	}
	if (p->proc.max_speed > 0)
		limit(p, &vx, &vy, FLOCK_Z(d3, vz), p->proc.max_speed);
	flock_contain(&vx, &vy, FLOCK_Z(d3, vz));

	bx += vx;
	by += vy;
	bz += vz;
	if (p->obstacles_n)
		flock_obstacle_wall(p, &bx, &by, FLOCK_Z(d3, bz), &vx, &vy, FLOCK_Z(d3, vz));
	flock_wrap_to_edge(p, &bx, &by, FLOCK_Z(d3, bz));
	s->x[b] = bx, s->y[b] = by, s->vx[b] = vx, s->vy[b] = vy;
	if (d3)
		s->z[b] = bz, s->vz[b] = vz;
}

static void proc_one(void *ctx, size_t b) { proc_boid(ctx, b, 0); }
static void proc_one3(void *ctx, size_t b) { proc_boid(ctx, b, 1); }

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
	double root = s->z ? sqrt(3) : M_SQRT2; /* of the dimension: a cube's diagonal */
	double k = p->proc.limit_components ? root : 1;

	if (p->proc.max_speed > 0)
		return p->proc.max_speed * k;
	double v2 = 0;
	for (size_t i = 0; i < s->n; i++)
		v2 = fmax(v2, s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i] + (s->z ? s->vz[i] * s->vz[i] : 0));
	double a = p->proc.max_force > 0 ? p->proc.max_force * k :
	           fabs(p->proc.cohesion_weight) + fabs(p->proc.separation_weight) +
	           fabs(p->proc.alignment_weight) + root * p->proc.jitter;
	for (size_t i = 0; i < p->obstacles_n; i++)
		a += (p->obstacles[i].r + p->obstacle_margin) * p->obstacle_weight;
	double v = sqrt(v2) + a;
	return isfinite(v) ? v : 0;
}

static int processing_step(struct sim *s)
{
	const struct sim_params *p = &s->p;
	double reach = fmax(p->proc.cohesion_radius,
	                    fmax(p->proc.separation_radius, p->proc.alignment_radius));
	double slack = proc_slack(s);
	struct flock_pass f;

	int err = flock_begin(&f, s, reach, slack, flock_cell(s, reach, slack));
	if (err)
		return err;
	flock_run(&f, s->z ? proc_one3 : proc_one, &f);
	return 0;
}

static void processing_ranges(const struct sim_params *p, double *near, double *far)
{
	*near = p->proc.separation_radius;
	*far = p->proc.cohesion_radius;
}

static const char *const processing_defaults[] = {
	"predators=0",
	"edges=wrap", /* what it does whatever --edges says (MODEL_WRAPS): --print-config says so */
	NULL,
};

const struct boids_model processing_model = {
	.name = "processing",
	.summary = "Kakehi's Processing flocking: the Java listing, the sketch's limits",
	.seed = "Takuma Kakehi, \"Boids - A Simple Way to Simulate How Birds Flock in Processing\" "
	        "(undated), http://www.ta-kuma.com/programming/boids-a-simple-way-to-simulate-how-birds-flock-in-processing/",
	.notes = "docs/MODEL.md, \"processing\"",
	.flags = MODEL_WRAPS,
	.params_default = processing_params_default,
	.program_defaults = processing_defaults,
	.randomize = flock_scatter, /* as harden's */
	.step = processing_step,
	.ranges = processing_ranges,
};
