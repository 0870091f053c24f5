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
#include <string.h>

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

/*
 * The model's own state (s->state): the order of this step's turns, and
 * for the plane's sequential pass the copies again as four arrays in grid
 * order (x, y, vx, vy of copy k at [k]), each with ABM_PAD more entries,
 * so that the neighbour loop loads four candidates with four loads and
 * reads past a run's end without a tail loop.  Each bird writes its new
 * state there after its turn, as the pass refreshes the copies; an x that
 * is NaN is nobody's neighbour: the bird's own during its turn, and one
 * the pass lists as escaped (its old cell's copy: the pass finds it in its
 * new cell's chain), so the loop tests neither.
 */
enum { ABM_PAD = 4 };

struct abm_state {
	uint32_t *order;        /* the turns of this step: a permutation of 0 .. n-1 */
	double *x, *y, *vx, *vy; /* the copies in grid order, n + ABM_PAD each (plane only) */
};

/* What a bird's rules sum over its neighbours. */
struct abm_sums {
	double n;               /* neighbours */
	double cx, cy, cz;      /* their offsets (headings) */
	double sx, sy, sz;      /* minus the offsets of those closer than the separation */
	double mx, my, mz;      /* their velocities */
};

/*
 * One candidate at offset (dx, dy, dz), its copy k: counted when within
 * reach (in: 1, else 0), by multiplying rather than branching, since
 * whether a candidate is in is a coin toss the processor cannot guess
 * (the sums take +0 for the others, which changes no sum).  Separation:
 * d^2 < separation^2.
 */
FLOCK_INLINE void abm_take(struct abm_sums *a, const struct sim *s, uint32_t k, double dx, double dy, double dz,
                           double in, double sep2, int d3)
{
	double d2 = dx * dx + dy * dy + (d3 ? dz * dz : 0);
	double near = in * (double)(d2 < sep2);
	struct flock_vec w = flock_copy_vel(s, k, d3);

	a->n += in;
	a->cx += dx * in; /* heading: toward it, the short way round */
	a->cy += dy * in;
	a->sx -= dx * near;
	a->sy -= dy * near;
	a->mx += w.x * in;
	a->my += w.y * in;
	if (d3) {
		a->cz += dz * in;
		a->sz -= dz * near;
		a->mz += w.z * in;
	}
}

/* The runs of a query's cells: every copy but its own and the escaped ones, within reach; wide: as below. */
FLOCK_INLINE void abm_runs(struct flock_torus_walk *it, const struct flock_pass *f, uint32_t self, double x,
                           double y, double z, struct abm_sums *a, int d3, int wide)
{
	const struct sim *s = f->s;
	const unsigned char *escf = s->escf;
	double reach2 = f->reach2, sep2 = s->p.abm.separation * s->p.abm.separation;
	double w = s->p.width, h = s->p.height, dd = s->p.depth;
	struct flock_vec sh;

	for (uint32_t k, k1; flock_torus_walk_run(it, &k, &k1, &sh);)
		for (; k < k1; k++) {
			struct flock_vec q = flock_copy_at(s, k, d3);
			double dx = wide ? flock_torus_axis_offset(q.x - x, sh.x, it->wide[0], w) : q.x - x + sh.x;
			double dy = wide ? flock_torus_axis_offset(q.y - y, sh.y, it->wide[1], h) : q.y - y + sh.y;
			double dz = !d3 ? 0 : wide ? flock_torus_axis_offset(q.z - z, sh.z, it->wide[2], dd) : q.z - z + sh.z;
			double d2 = dx * dx + dy * dy + (d3 ? dz * dz : 0);
			double in = (double)((d2 <= reach2) & (k != self) & !escf[k]); /* (no branch) */
			abm_take(a, s, k, dx, dy, dz, in, sep2, d3);
		}
}

/*
 * The plane's runs four candidates at a time, from the lane-friendly
 * copies, which is where a step's time goes: in the large version a bird
 * has some 200 neighbours.  GCC's vector types are four doubles whatever
 * the processor: two SSE2 registers each on any x86-64, one AVX2 register
 * where abm_one()'s AVX2 copy runs (target_clones); each lane adds the
 * same numbers in the same order either way, and nothing is fused (no
 * FMA), so the bytes are the same on every machine.  Lane j sums
 * candidates j, j + 4, ... of each run (a run's last group masked to its
 * length); the lanes are then added as (0 + 1) + (2 + 3).
 */
typedef double abm_v4 __attribute__((vector_size(32)));
typedef long long abm_m4 __attribute__((vector_size(32)));
/* (GCC warns that passing these by value would differ between AVX and not;
 * every function that takes one is forced inline: none is ever called) */
#pragma GCC diagnostic ignored "-Wpsabi"

FLOCK_INLINE abm_v4 abm_mask(abm_v4 v, abm_m4 m)
{
	return (abm_v4)((abm_m4)v & m);
}

FLOCK_INLINE double abm_lanes(abm_v4 v)
{
	return (v[0] + v[1]) + (v[2] + v[3]);
}

FLOCK_INLINE abm_v4 abm_load(const double *p)
{
	abm_v4 v;
	memcpy(&v, p, sizeof v);
	return v;
}

FLOCK_INLINE void abm_runs4(struct flock_torus_walk *it, const struct flock_pass *f, double x, double y,
                            struct abm_sums *a)
{
	const struct sim *s = f->s;
	const struct abm_state *st = s->state;
	double reach2 = f->reach2, sep2 = s->p.abm.separation * s->p.abm.separation;
	const abm_v4 zero = { 0, 0, 0, 0 }, one = { 1, 1, 1, 1 };
	const abm_m4 lane = { 0, 1, 2, 3 };
	abm_v4 n = zero, cx = zero, cy = zero, sx = zero, sy = zero, mx = zero, my = zero;
	abm_v4 px = zero + x, py = zero + y;
	struct flock_vec sh;

	for (uint32_t k, k1; flock_torus_walk_run(it, &k, &k1, &sh);) {
		abm_v4 hx = zero + sh.x, hy = zero + sh.y;
		int shifted = sh.x != 0 || sh.y != 0; /* most runs: none */
		for (; k < k1; k += 4) {
			abm_v4 dx = abm_load(st->x + k) - px, dy = abm_load(st->y + k) - py;
			if (shifted)
				dx += hx, dy += hy;
			abm_v4 d2 = dx * dx + dy * dy;
			abm_m4 in = d2 <= reach2; /* NaN, the bird itself or one listed: not in */
			if (k + 4 > k1) /* the run's last, past its end */
				in &= lane < (long long)(k1 - k);
			abm_m4 near = in & (d2 < sep2);
			n += abm_mask(one, in);
			cx += abm_mask(dx, in);
			cy += abm_mask(dy, in);
			sx -= abm_mask(dx, near);
			sy -= abm_mask(dy, near);
			mx += abm_mask(abm_load(st->vx + k), in);
			my += abm_mask(abm_load(st->vy + k), in);
		}
	}
	a->n = abm_lanes(n);
	a->cx = abm_lanes(cx);
	a->cy = abm_lanes(cy);
	a->sx = abm_lanes(sx);
	a->sy = abm_lanes(sy);
	a->mx = abm_lanes(mx);
	a->my = abm_lanes(my);
}

/*
 * The sums over bird b's neighbours at (x, y, z): the runs of its cells,
 * then the escaped birds chained there.  An axis the query covers whole
 * (a field under about two visions across) takes the minimum image a
 * candidate; the others add their run's shift (include/flock.h).
 */
FLOCK_INLINE void abm_gather(const struct flock_pass *f, size_t b, double x, double y, double z,
                             struct abm_sums *a, int d3)
{
	const struct sim *s = f->s;
	double reach2 = f->reach2, sep2 = s->p.abm.separation * s->p.abm.separation;
	struct flock_torus_walk it;
	struct flock_vec sh;

	flock_torus_walk_begin(&it, f, x, y, z);
	if (it.wide[0] || it.wide[1] || (d3 && it.wide[2]))
		abm_runs(&it, f, s->gpos[b], x, y, z, a, d3, 1);
	else if (!d3 && s->p.update == SIM_SEQUENTIAL)
		abm_runs4(&it, f, x, y, a);
	else
		abm_runs(&it, f, s->gpos[b], x, y, z, a, d3, 0);
	for (uint32_t k; flock_torus_walk_chain(&it, &k, &sh);) {
		struct flock_vec q = flock_copy_at(s, k, d3);
		double dx = flock_torus_axis_offset(q.x - x, sh.x, it.wide[0], s->p.width);
		double dy = flock_torus_axis_offset(q.y - y, sh.y, it.wide[1], s->p.height);
		double dz = d3 ? flock_torus_axis_offset(q.z - z, sh.z, it.wide[2], s->p.depth) : 0;
		double d2 = dx * dx + dy * dy + (d3 ? dz * dz : 0);
		abm_take(a, s, k, dx, dy, dz, d2 <= reach2 ? 1 : 0, sep2, d3);
	}
}

/* Bird b's turn: the three vectors from its neighbours, the new unit velocity, the move. */
FLOCK_INLINE void abm_bird(const struct flock_pass *f, size_t b, int d3)
{
	struct sim *s = f->s;
	const struct sim_params *p = &s->p;
	const struct sim_abm *a = &p->abm;
	double x = s->x[b], y = s->y[b], z = d3 ? s->z[b] : 0, x0 = x, y0 = y;
	struct abm_sums u = { 0 };

	if (!d3 && p->update == SIM_SEQUENTIAL)
		((struct abm_state *)s->state)->x[s->gpos[b]] = NAN; /* not its own neighbour */

	abm_gather(f, b, x, y, z, &u, d3);
	/* the mean of its velocity and the three vectors, (vel + cohere + separate
	 * + match) / 2 as Agents.jl's, each sum divided by max(n, 1) (as a
	 * product by its reciprocal: a step's rounding, not the rule, differs) */
	double sp = a->speed, isp = 1 / sp, inv = 1 / (u.n > 0 ? u.n : 1);
	double kc = a->cohere * inv, ks = a->separate * inv, km = a->match * inv * isp;
	double vx = (s->vx[b] * isp + u.cx * kc + u.sx * ks + u.mx * km) * .5;
	double vy = (s->vy[b] * isp + u.cy * kc + u.sy * ks + u.my * km) * .5;
	double vz = d3 ? (s->vz[b] * isp + u.cz * kc + u.sz * ks + u.mz * km) * .5 : 0;
	if (p->obstacles_n) {
		struct flock_vec o = flock_obstacle_push(p, x, y, FLOCK_Z(d3, z));
		vx += o.x * isp;
		vy += o.y * isp;
		vz += o.z * isp;
	}
	double m2 = vx * vx + vy * vy + (d3 ? vz * vz : 0);
	double r = m2 > 0 ? sp / sqrt(m2) : 0; /* normalised, times speed; zero stays zero: it stops (MASON's) */
	vx *= r;
	vy *= r;
	vz *= r;
	flock_torus_move(s, b, d3, &x, &y, &z, &vx, &vy, &vz);
	if (!d3 && p->update == SIM_SEQUENTIAL) { /* what later birds see, as the pass's copy */
		struct abm_state *st = s->state;
		uint32_t k = s->gpos[b];
		int listed = flock_escapes(f, x - x0, y - y0, 0, 0); /* the pass lists it */
		st->x[k] = listed ? NAN : x, st->y[k] = y, st->vx[k] = vx, st->vy[k] = vy;
	}
}

__attribute__((target_clones("avx2", "default")))
static void abm_one(void *ctx, size_t b) { abm_bird(ctx, b, 0); }
static void abm_one3(void *ctx, size_t b) { abm_bird(ctx, b, 1); }

/* The order of the turns, and in a plane the lane-friendly copies. */
static int abm_state_init(struct sim *s)
{
	size_t n = s->n ? s->n : 1, lanes = s->z ? 0 : n + ABM_PAD;
	struct abm_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	s->state = st;
	st->order = hugemem_alloc(n * sizeof(uint32_t));
	if (!st->order)
		return -ENOMEM;
	if (lanes) {
		double *a = hugemem_alloc(4 * lanes * sizeof(double));
		if (!a)
			return -ENOMEM;
		for (size_t i = 0; i < 4 * lanes; i++)
			a[i] = 0;
		st->x = a, st->y = a + lanes, st->vx = a + 2 * lanes, st->vy = a + 3 * lanes;
	}
	return 0;
}

static void abm_state_release(struct sim *s)
{
	struct abm_state *st = s->state;

	if (st) {
		free(st->order);
		free(st->x); /* one block holds the four */
		free(st);
	}
	s->state = NULL;
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
		flock_place(s, i, &r);
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

	int err = flock_begin_torus(&f, s, reach, slack);
	if (err)
		return err;
	if (p->update == SIM_SEQUENTIAL) {
		struct abm_state *st = s->state;
		flock_shuffle(st->order, s->n, p->noise_seed, s->steps);
		f.order = st->order;
		for (size_t k = 0; st->x && k < s->n; k++) /* the copies, lane-friendly */
			st->x[k] = s->g2[k].x, st->y[k] = s->g2[k].y, st->vx[k] = s->g2[k].vx, st->vy[k] = s->g2[k].vy;
		if (st->x) { /* asked for ahead as the copies are, in large flocks */
			f.lanes[0] = (struct grid_array){ st->x, sizeof(double) };
			f.lanes[1] = (struct grid_array){ st->y, sizeof(double) };
			f.lanes[2] = (struct grid_array){ st->vx, sizeof(double) };
			f.lanes[3] = (struct grid_array){ st->vy, sizeof(double) };
			f.nlanes = 4;
		}
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
static const char *const abm_defaults[] = {
	"predators=0", "boid-size=0.2",
	"edges=wrap", /* what it does whatever --edges says (MODEL_WRAPS): --print-config says so */
	NULL };

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
