/*
 * abm — the Flocking model of the ABM frameworks comparison (JuliaDynamics'
 * ABMFrameworksComparison, its declaration and Agents.jl's
 * flocking_agent_step!): birds on a torus, activated one by one in a new
 * random order every step; each finds the others within visual_distance
 * (inclusive, the minimum image), forms a cohesion, a separation and a
 * matching vector, takes the mean of its own velocity and the three,
 * normalised, and moves by speed along it.  --abm-size picks the
 * declaration's small or large version.  docs/MODEL.md, "abm";
 * tests/ref/abm.py is the declaration written again.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "flock.h"
#include "hugemem.h"
#include "model.h"
#include "rng.h"

/* The declaration's values; the small version's vision (the scene, below, makes it 15 for large). */
static void abm_params_default(struct sim_params *p)
{
	p->abm.large = 0;
	p->abm.vision = 5;
	p->abm.separation = 1;
	p->abm.cohere = .03;
	p->abm.separate = .015;
	p->abm.match = .05;
	p->abm.speed = 1;
}

/* Bird b's turn: the three vectors from its neighbours, the new unit velocity, the move. */
FLOCK_INLINE void abm_bird(const struct flock_pass *f, size_t b, int d3)
{
	struct sim *s = f->s;
	const struct sim_params *p = &s->p;
	const struct sim_abm *a = &p->abm;
	double x = s->x[b], y = s->y[b], z = d3 ? s->z[b] : 0;
	uint32_t self = s->gpos[b];
	double cx = 0, cy = 0, cz = 0, sx = 0, sy = 0, sz = 0, mx = 0, my = 0, mz = 0;
	size_t n = 0;
	struct flock_torus it;

	flock_torus_begin(&it, f, x, y, z, d3);
	for (struct flock_near nb; flock_torus_next(&it, &nb);) {
		if (nb.k == self)
			continue;
		n++;
		cx += nb.dx; /* heading: toward it, the short way round */
		cy += nb.dy;
		if (sqrt(nb.d2) < a->separation) {
			sx -= nb.dx;
			sy -= nb.dy;
			if (d3)
				sz -= nb.dz;
		}
		struct flock_vec w = flock_copy_vel(s, nb.k, d3);
		mx += w.x;
		my += w.y;
		if (d3) {
			cz += nb.dz;
			mz += w.z;
		}
	}
	double m = n ? (double)n : 1;
	double vx = s->vx[b] / a->speed, vy = s->vy[b] / a->speed, vz = d3 ? s->vz[b] / a->speed : 0;
	/* the mean of its velocity and the three vectors (Agents.jl's / 2) */
	vx = (vx + cx / m * a->cohere + sx / m * a->separate + mx / a->speed / m * a->match) / 2;
	vy = (vy + cy / m * a->cohere + sy / m * a->separate + my / a->speed / m * a->match) / 2;
	if (d3)
		vz = (vz + cz / m * a->cohere + sz / m * a->separate + mz / a->speed / m * a->match) / 2;
	if (p->obstacles_n) {
		struct flock_vec o = flock_obstacle_push(p, x, y, FLOCK_Z(d3, z));
		vx += o.x / a->speed;
		vy += o.y / a->speed;
		vz += o.z / a->speed;
	}
	flock_unit(&vx, &vy, FLOCK_Z(d3, vz)); /* zero stays zero: the bird stops (MASON's) */
	vx *= a->speed;
	vy *= a->speed;
	vz *= a->speed;
	x += vx;
	y += vy;
	z += vz;
	if (p->obstacles_n)
		flock_obstacle_wall(p, &x, &y, FLOCK_Z(d3, z), &vx, &vy, FLOCK_Z(d3, vz));
	flock_torus_wrap(p, &x, &y, FLOCK_Z(d3, z));
	s->x[b] = x, s->y[b] = y, s->vx[b] = vx, s->vy[b] = vy;
	if (d3)
		s->z[b] = z, s->vz[b] = vz;
}

static void abm_one(void *ctx, size_t b) { abm_bird(ctx, b, 0); }
static void abm_one3(void *ctx, size_t b) { abm_bird(ctx, b, 1); }

/* The order of the turns: a permutation of the flock, drawn anew each step. */
static int abm_state_init(struct sim *s)
{
	s->state = hugemem_alloc((s->n ? s->n : 1) * sizeof(uint32_t));
	return s->state ? 0 : -ENOMEM;
}

static void abm_state_release(struct sim *s)
{
	free(s->state);
	s->state = NULL;
}

/*
 * Step t's order: 0 .. n-1 shuffled by Fisher and Yates with xoshiro256**
 * seeded by rng_key(seed, t, 0): for i = n - 1 down to 1, j = floor(u (i +
 * 1)) (at most i), swap places i and j.
 */
static void abm_shuffle(uint32_t *order, size_t n, uint64_t seed, uint64_t t)
{
	struct rng r;

	rng_seed(&r, rng_key(seed, t, 0));
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	for (size_t i = n; i-- > 1;) {
		size_t j = (size_t)(rng_uniform(&r) * (double)(i + 1));
		if (j > i)
			j = i;
		uint32_t o = order[i];
		order[i] = order[j];
		order[j] = o;
	}
}

/*
 * The start, as the comparison's MASON program places its birds: for each
 * in order, x = u W, y = u H, then a velocity (2u - 1, 2u - 1) (not yet a
 * unit vector: the first step makes it one) times speed; in a box x, y,
 * z = u D, then three components.
 */
static void abm_randomize(struct sim *s, uint64_t seed)
{
	const struct sim_params *p = &s->p;
	double v = p->abm.speed;
	struct rng r;

	rng_seed(&r, seed);
	for (size_t i = 0; i < s->n; i++) {
		s->x[i] = rng_uniform(&r) * p->width;
		s->y[i] = rng_uniform(&r) * p->height;
		if (s->z)
			s->z[i] = rng_uniform(&r) * p->depth;
		s->vx[i] = (2 * rng_uniform(&r) - 1) * v;
		s->vy[i] = (2 * rng_uniform(&r) - 1) * v;
		if (s->z)
			s->vz[i] = (2 * rng_uniform(&r) - 1) * v;
	}
}

static int abm_step(struct sim *s)
{
	const struct sim_params *p = &s->p;
	double reach = p->abm.vision, slack = p->abm.speed;
	struct flock_pass f;

	for (size_t i = 0; i < s->n; i++) /* an --init from elsewhere: onto the torus first */
		flock_torus_wrap(p, &s->x[i], &s->y[i], s->z ? &s->z[i] : NULL);
	int err = flock_begin(&f, s, reach, slack, flock_cell(s, reach, slack));
	if (err)
		return err;
	if (p->update == SIM_SEQUENTIAL) {
		abm_shuffle(s->state, s->n, p->noise_seed, s->steps);
		f.order = s->state;
	}
	flock_run(&f, s->z ? abm_one3 : abm_one, &f);
	return 0;
}

static void abm_ranges(const struct sim_params *p, double *near, double *far)
{
	*near = p->abm.separation;
	*far = p->abm.vision;
}

/* The declaration's two versions: birds, the space's extent, visual_distance. */
static const char *const *abm_scene(const struct sim_params *p)
{
	static const char *const small[] = { "boids=200", "field=100x100", "abm-vision=5", NULL };
	static const char *const large[] = { "boids=400", "field=150x150", "abm-vision=15", NULL };

	return p->abm.large ? large : small;
}

/* No predators; birds drawn about two units long (the outline's 10 px x 0.2). */
static const char *const abm_defaults[] = { "predators=0", "boid-size=0.2", NULL };

const struct boids_model abm_model = {
	.name = "abm",
	.summary = "the ABM frameworks' Flocking benchmark (--abm-size small|large)",
	.seed = "JuliaDynamics, \"ABMFrameworksComparison: the Flocking model\" (2022), "
	        "https://github.com/JuliaDynamics/ABMFrameworksComparison",
	.notes = "docs/MODEL.md, \"abm\"; docs/PERFORMANCE.md, the benchmark against MASON",
	.flags = MODEL_WRAPS,
	.params_default = abm_params_default,
	.program_defaults = abm_defaults,
	.state_init = abm_state_init,
	.state_release = abm_state_release,
	.randomize = abm_randomize,
	.step = abm_step,
	.ranges = abm_ranges,
	.scene = abm_scene,
};
