/*
 * vicsek — T. Vicsek, A. Czirók, E. Ben-Jacob, I. Cohen and O. Shochet's
 * self-driven particles (Phys. Rev. Lett. 75, 1226, 1995): every step,
 * synchronously, each particle takes the direction of the mean velocity of
 * the particles within r of it (itself included) plus a noise uniform in
 * [-eta/2, eta/2], and moves by v in that direction; the field is a torus
 * (L x L in the paper) and every distance its minimum image.  In a box the
 * noise turns the mean direction by a rotation uniform within a cone of
 * half-angle eta/2.  docs/MODEL.md, "vicsek", has the equations and the
 * draws; tests/ref/vicsek.py is the paper's model written again.
 */
#include <math.h>

#include "flock.h"
#include "model.h"
#include "rng.h"

/* The paper's values: v = 0.03, r = 1 (its unit of length), eta chosen (docs/MODEL.md). */
static void vicsek_params_default(struct sim_params *p)
{
	p->vicsek.noise = .1;
	p->vicsek.speed = .03;
	p->vicsek.radius = 1;
	p->vicsek.density = 0;
}

/*
 * The direction (a, b, c) turned by the noise in a box: a rotation uniform
 * within the cone of half-angle eta/2 around it, i.e. a point uniform on
 * that cap of the unit sphere: cos(alpha) = 1 - u1 (1 - cos(eta/2)),
 * phi = 2 pi u2, about the axes e1 = unit(a' x d), e2 = d x e1, a' the
 * coordinate axis d is least along (x before y before z in a tie).
 */
static struct flock_vec cone(struct flock_vec d, double eta, double u1, double u2)
{
	double ca = 1 - u1 * (1 - cos(eta / 2)), sa = sqrt(fmax(0, 1 - ca * ca));
	double phi = 2 * M_PI * u2, ax = fabs(d.x), ay = fabs(d.y), az = fabs(d.z);
	struct flock_vec e1 = ax <= ay && ax <= az ? (struct flock_vec){ 0, -d.z, d.y } :
	                      ay <= az             ? (struct flock_vec){ d.z, 0, -d.x } :
	                                             (struct flock_vec){ -d.y, d.x, 0 };
	flock_unit(&e1.x, &e1.y, &e1.z);
	struct flock_vec e2 = { d.y * e1.z - d.z * e1.y, d.z * e1.x - d.x * e1.z, d.x * e1.y - d.y * e1.x };
	double c = cos(phi), s = sin(phi);
	return (struct flock_vec){ ca * d.x + sa * (c * e1.x + s * e2.x), ca * d.y + sa * (c * e1.y + s * e2.y),
		                   ca * d.z + sa * (c * e1.z + s * e2.z) };
}

/*
 * The sum of the velocities within reach of (x, y, z), the particle
 * itself included (at distance 0): the runs of the query's cells, then the
 * escaped particles chained there.  A candidate is added times 1 or 0, not
 * behind a branch (whether it is within r is a coin toss to the
 * processor); wide: an axis the query covers whole takes the minimum
 * image a candidate, the others their run's shift (include/flock.h); esc:
 * the pass has listed somebody, whose old copy the runs leave out (never
 * in the synchronous order).
 */
FLOCK_INLINE struct flock_vec vicsek_sum_runs(struct flock_torus_walk *it, const struct flock_pass *f,
                                              double x, double y, double z, int d3, int wide, int esc)
{
	const struct sim *s = f->s;
	const unsigned char *escf = s->escf;
	double reach2 = f->reach2, w = s->p.width, h = s->p.height, dd = s->p.depth;
	double sx = 0, sy = 0, sz = 0;
	struct flock_vec sh;

	for (uint32_t k, k1; flock_torus_walk_run(it, &k, &k1, &sh);)
		for (; k < k1; k++) {
			struct flock_vec q = flock_copy_at(s, k, d3), v = flock_copy_vel(s, k, d3);
			double dx = wide ? flock_torus_axis_offset(q.x - x, sh.x, it->wide[0], w) : q.x - x + sh.x;
			double dy = wide ? flock_torus_axis_offset(q.y - y, sh.y, it->wide[1], h) : q.y - y + sh.y;
			double dz = !d3 ? 0 : wide ? flock_torus_axis_offset(q.z - z, sh.z, it->wide[2], dd) : q.z - z + sh.z;
			double d2 = dx * dx + dy * dy + (d3 ? dz * dz : 0);
			double in = (double)((d2 <= reach2) & (!esc || !escf[k])); /* esc: anybody listed yet */
			sx += v.x * in;
			sy += v.y * in;
			if (d3)
				sz += v.z * in;
		}
	for (uint32_t k; flock_torus_walk_chain(it, &k, &sh);) {
		struct flock_vec q = flock_copy_at(s, k, d3), v = flock_copy_vel(s, k, d3);
		double dx = flock_torus_axis_offset(q.x - x, sh.x, it->wide[0], w);
		double dy = flock_torus_axis_offset(q.y - y, sh.y, it->wide[1], h);
		double dz = d3 ? flock_torus_axis_offset(q.z - z, sh.z, it->wide[2], dd) : 0;
		double in = dx * dx + dy * dy + (d3 ? dz * dz : 0) <= reach2 ? 1 : 0;
		sx += v.x * in;
		sy += v.y * in;
		if (d3)
			sz += v.z * in;
	}
	return (struct flock_vec){ sx, sy, sz };
}

/* Particle b: the mean heading of those within r, the noise, the move (d3: in a box). */
FLOCK_INLINE void vicsek_particle(const struct flock_pass *f, size_t b, int d3)
{
	struct sim *s = f->s;
	const struct sim_params *p = &s->p;
	double x = s->x[b], y = s->y[b], z = d3 ? s->z[b] : 0, v = p->vicsek.speed, eta = p->vicsek.noise;
	struct flock_torus_walk it;

	flock_torus_walk_begin(&it, f, x, y, z);
	int wide = it.wide[0] || it.wide[1] || (d3 && it.wide[2]);
	struct flock_vec sum = wide ? vicsek_sum_runs(&it, f, x, y, z, d3, 1, 1) :
	                       it.nesc ? vicsek_sum_runs(&it, f, x, y, z, d3, 0, 1) :
	                       vicsek_sum_runs(&it, f, x, y, z, d3, 0, 0);
	double sx = sum.x, sy = sum.y, sz = sum.z;
	struct flock_vec d;
	if (d3) {
		d = (struct flock_vec){ sx, sy, sz };
		flock_unit(&d.x, &d.y, &d.z);
		if (d.x == 0 && d.y == 0 && d.z == 0)
			d.x = 1; /* no mean direction: +x */
		d = cone(d, eta, flock_noise01(p->noise_seed, s->steps, 2 * (uint64_t)b),
		         flock_noise01(p->noise_seed, s->steps, 2 * (uint64_t)b + 1));
	} else {
		double th = atan2(sy, sx) + eta * (flock_noise01(p->noise_seed, s->steps, b) - .5);
		d = (struct flock_vec){ cos(th), sin(th), 0 };
	}
	double vx = v * d.x, vy = v * d.y, vz = v * d.z;
	if (p->obstacles_n) { /* turned by the push, at the same speed */
		struct flock_vec o = flock_obstacle_push(p, x, y, FLOCK_Z(d3, z));
		double wx = vx + o.x, wy = vy + o.y, wz = vz + o.z, m = flock_length(wx, wy, FLOCK_Z(d3, wz));
		if (m > 0 && isfinite(m))
			vx = wx / m * v, vy = wy / m * v, vz = wz / m * v;
	}
	flock_torus_move(s, b, d3, &x, &y, &z, &vx, &vy, &vz);
}

static void vicsek_one(void *ctx, size_t b) { vicsek_particle(ctx, b, 0); }
static void vicsek_one3(void *ctx, size_t b) { vicsek_particle(ctx, b, 1); }

/*
 * The start: for each particle in order, x = u W, y = u H, then a heading
 * uniform on the circle, theta = 2 pi u: v (cos, sin) (three draws); in a
 * box x, y, z = u D, then uniform on the sphere, a = 2 pi u, c = 2u - 1:
 * v (s cos a, s sin a, c), s = sqrt(1 - c^2) (five draws).
 */
static void vicsek_randomize(struct sim *s, uint64_t seed)
{
	const struct sim_params *p = &s->p;
	double v = p->vicsek.speed;
	struct rng r;

	rng_seed(&r, seed);
	for (size_t i = 0; i < s->n; i++) {
		flock_place(s, i, &r);
		if (s->z) {
			double u1 = rng_uniform(&r), u2 = rng_uniform(&r);
			struct flock_vec h = flock_sphere(u1, u2);
			s->vx[i] = v * h.x;
			s->vy[i] = v * h.y;
			s->vz[i] = v * h.z;
			continue;
		}
		double th = 2 * M_PI * rng_uniform(&r);
		s->vx[i] = v * cos(th);
		s->vy[i] = v * sin(th);
	}
}

static int vicsek_step(struct sim *s)
{
	const struct sim_params *p = &s->p;
	double reach = p->vicsek.radius, slack = p->vicsek.speed;
	struct flock_pass f;

	int err = flock_begin_torus(&f, s, reach, slack);
	if (err)
		return err;
	flock_run(&f, s->z ? vicsek_one3 : vicsek_one, &f);
	return 0;
}

static void vicsek_ranges(const struct sim_params *p, double *near, double *far)
{
	*near = *far = p->vicsek.radius;
}

/*
 * The paper's scene: N = 300 in L = 25 (its Fig. 1b: groups moving
 * coherently in random directions), updated synchronously, no predators;
 * drawn as its pictures are (--look vicsek-paper).
 */
static const char *const vicsek_defaults[] = {
	"predators=0", "boids=300", "field=25x25", "update=synchronous",
	"edges=wrap", /* what it does whatever --edges says (MODEL_WRAPS): --print-config says so */
	NULL };

const struct boids_model vicsek_model = {
	.name = "vicsek",
	.summary = "Vicsek's self-driven particles: mean heading plus noise, on a torus",
	.seed = "T. Vicsek, A. Czir\u00f3k, E. Ben-Jacob, I. Cohen, O. Shochet, \"Novel type of phase "
	        "transition in a system of self-driven particles\", Phys. Rev. Lett. 75, 1226 (1995), "
	        "https://doi.org/10.1103/PhysRevLett.75.1226",
	.notes = "docs/MODEL.md, \"vicsek\"; docs/MODELS-FIELD.md, its Fig. 2",
	.flags = MODEL_WRAPS,
	.params_default = vicsek_params_default,
	.program_defaults = vicsek_defaults,
	.look = "vicsek-paper",
	.original_look = "vicsek-paper",
	.randomize = vicsek_randomize,
	.step = vicsek_step,
	.ranges = vicsek_ranges,
	.density_option = "vicsek-density",
};
