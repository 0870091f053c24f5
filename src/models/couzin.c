/*
 * couzin — Couzin, Krause, James, Ruxton and Franks's zones, "Collective
 * memory and spatial sorting in animal groups" (J. theor. Biol. 218, 2002);
 * docs/MODEL.md, "couzin".
 *
 * Each individual sees the others within three zones around it: repulsion
 * (r < r_r), orientation (r_r <= r < r_o) and attraction (r_o <= r < r_a),
 * minus a blind volume behind it.  Anybody in the zone of repulsion: it
 * heads away from them, nothing else counts.  Otherwise it heads along the
 * headings of those in the zone of orientation, toward those in the zone
 * of attraction, or half of each.  The desired direction is turned by a
 * Gaussian angle (the noise), then the individual turns toward it by at
 * most theta x dt and moves at the constant speed.  The paper updates
 * everybody from the same state (synchronous, this model's default).
 * Velocities are stored per step: heading x speed x dt.
 */
#include <math.h>

#include "flock.h"
#include "model.h"
#include "rng.h"

static void couzin_params_default(struct sim_params *p)
{
	p->couzin.repulsion = 1;
	p->couzin.orientation = 1;  /* with 14: the torus */
	p->couzin.attraction = 14;
	p->couzin.perception = 270;
	p->couzin.turn = 40;
	p->couzin.speed = 3;
	p->couzin.noise = .05;
	p->couzin.dt = .1;
}

/* One step's pass: the zones and limits in the units the rules use. */
struct couzin_ctx {
	struct flock_pass f;
	double rr2, ro2, ra2;   /* the zones' outer radii, squared, px^2 */
	double seen_cos;        /* seen when u.r >= seen_cos |r|; below -1: all round */
	double max_turn;        /* theta dt, radians */
	double step_len;        /* s dt, px */
	int torus;              /* --edges wrap: neighbourhoods wrap too */
};

/* What one individual sees: the three zones' sums and counts. */
struct zones {
	struct flock_vec rep, ori, att;
	size_t nr, no, na;
};

/* Adds the neighbour nb (offset r, squared distance d2) to the zone it is in, if seen. */
FLOCK_INLINE void zone_add(const struct couzin_ctx *c, struct zones *z, struct flock_vec u, int moving,
                           const struct flock_near *nb, int d3)
{
	double d2 = nb->d2;

	if (!(d2 < c->ra2) || !(d2 > 0)) /* beyond the zones, or no direction to it */
		return;
	double d = sqrt(d2), rx = nb->dx / d, ry = nb->dy / d, rz = d3 ? nb->dz / d : 0;
	double ur = u.x * rx + u.y * ry;
	if (d3)
		ur += u.z * rz;
	if (moving && !(ur >= c->seen_cos)) /* in the blind volume (every zone's) */
		return;
	if (d2 < c->rr2) {
		z->rep.x -= rx, z->rep.y -= ry, z->rep.z -= rz;
		z->nr++;
	} else if (d2 < c->ro2) {
		struct flock_vec w = flock_copy_vel(c->f.s, nb->k, d3);
		double wm = flock_length(w.x, w.y, FLOCK_Z(d3, w.z));
		if (wm > 0) { /* a neighbour at rest has no heading */
			z->ori.x += w.x / wm, z->ori.y += w.y / wm, z->ori.z += w.z / wm;
			z->no++;
		}
	} else {
		z->att.x += rx, z->att.y += ry, z->att.z += rz;
		z->na++;
	}
}

/*
 * The desired direction of boid b (unit u its heading, moving: |v| > 0):
 * away from the zone of repulsion if anybody is in it, else the zone of
 * orientation's headings, the zone of attraction's directions or half of
 * each; u when nobody is seen or the sum is zero.  Not normalized.
 */
FLOCK_INLINE struct flock_vec desired(const struct couzin_ctx *c, size_t b, struct flock_vec u, int moving,
                                      int d3)
{
	const struct sim *s = c->f.s;
	double bx = s->x[b], by = s->y[b], bz = d3 ? s->z[b] : 0;
	uint32_t self = s->gpos[b];
	struct zones z = { { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 }, 0, 0, 0 };

	if (c->torus) {
		struct flock_torus it;
		flock_torus_begin(&it, &c->f, bx, by, bz, d3);
		for (struct flock_near nb; flock_torus_next(&it, &nb);)
			if (nb.k != self)
				zone_add(c, &z, u, moving, &nb, d3);
	} else {
		struct flock_nbrs it;
		flock_near_begin(&it, &c->f, bx, by, bz, d3);
		for (struct flock_near nb; flock_near_next(&it, &nb);)
			if (nb.k != self)
				zone_add(c, &z, u, moving, &nb, d3);
	}
	if (z.nr)
		return z.rep;
	flock_unit(&z.ori.x, &z.ori.y, FLOCK_Z(d3, z.ori.z)); /* each a direction before the mean */
	flock_unit(&z.att.x, &z.att.y, FLOCK_Z(d3, z.att.z));
	if (z.no && z.na)
		return (struct flock_vec){ (z.ori.x + z.att.x) / 2, (z.ori.y + z.att.y) / 2, (z.ori.z + z.att.z) / 2 };
	if (z.no)
		return z.ori;
	if (z.na)
		return z.att;
	return u;
}

/*
 * d (a unit vector) turned by a Gaussian angle a = sigma g, g = sqrt(-2
 * ln(1 - u1)) cos(2 pi u2) (Box and Muller), u1, u2 boid b's draws of this
 * step (keys 3b, 3b + 1).  In a plane a turns d counter-clockwise (from +x
 * toward +y); in a box about a random axis perpendicular to d: toward
 * cos(phi) e1 + sin(phi) e2, phi = 2 pi u3 (key 3b + 2), e1 the unit
 * vector of (-d_y, d_x, 0) (of (0, -d_z, d_y) when |d_z| >= 0.9),
 * e2 = d x e1.
 */
FLOCK_INLINE struct flock_vec noisy(const struct sim *s, size_t b, struct flock_vec d, int d3)
{
	const struct sim_params *p = &s->p;
	uint64_t key = (uint64_t)b * 3;
	double u1 = flock_noise01(p->noise_seed, s->steps, key);
	double u2 = flock_noise01(p->noise_seed, s->steps, key + 1);
	double a = p->couzin.noise * sqrt(-2 * log(1 - u1)) * cos(2 * M_PI * u2);
	double ca = cos(a), sa = sin(a);

	if (!d3)
		return (struct flock_vec){ ca * d.x - sa * d.y, sa * d.x + ca * d.y, 0 };
	double phi = 2 * M_PI * flock_noise01(p->noise_seed, s->steps, key + 2);
	struct flock_vec e1 = fabs(d.z) < .9 ? (struct flock_vec){ -d.y, d.x, 0 }
	                                      : (struct flock_vec){ 0, -d.z, d.y };
	flock_unit(&e1.x, &e1.y, &e1.z);
	struct flock_vec e2 = { d.y * e1.z - d.z * e1.y, d.z * e1.x - d.x * e1.z, d.x * e1.y - d.y * e1.x };
	double cp = cos(phi), sp = sin(phi);
	return (struct flock_vec){ ca * d.x + sa * (cp * e1.x + sp * e2.x), ca * d.y + sa * (cp * e1.y + sp * e2.y),
	                           ca * d.z + sa * (cp * e1.z + sp * e2.z) };
}

/* The unit heading u turned toward the unit direction t by at most max radians. */
FLOCK_INLINE struct flock_vec turn_toward(struct flock_vec u, struct flock_vec t, double max, int d3)
{
	double dot = u.x * t.x + u.y * t.y;

	if (!d3) {
		double a = atan2(u.x * t.y - u.y * t.x, dot); /* (-pi, pi]: a reversal turns +max */
		if (fabs(a) <= max)
			return t;
		double r = a > 0 ? max : -max, cr = cos(r), sr = sin(r);
		return (struct flock_vec){ u.x * cr - u.y * sr, u.x * sr + u.y * cr, 0 };
	}
	dot += u.z * t.z;
	if (acos(dot > 1 ? 1 : dot < -1 ? -1 : dot) <= max)
		return t;
	return flock_turn3(u, t, dot, max, 0);
}

/* Boid b's step: desired direction, walls and obstacles, noise, turn, move. */
FLOCK_INLINE void couzin_boid(const struct couzin_ctx *c, size_t b, int d3)
{
	struct sim *s = c->f.s;
	const struct sim_params *p = &s->p;
	struct flock_vec u = { s->vx[b], s->vy[b], d3 ? s->vz[b] : 0 };
	double um = flock_length(u.x, u.y, FLOCK_Z(d3, u.z));
	int moving = um > 0;

	if (moving)
		u.x /= um, u.y /= um, u.z /= um;
	struct flock_vec d = desired(c, b, u, moving, d3);
	double x = s->x[b], y = s->y[b], z = d3 ? s->z[b] : 0;
	if (p->edges & SIM_BOUNCE) { /* turn back inside the margin: harden's walls, on the unit direction */
		flock_unit(&d.x, &d.y, FLOCK_Z(d3, d.z));
		flock_bounce(p, p->harden.wall_pad, p->harden.wall_turn, x, y, z, &d.x, &d.y, FLOCK_Z(d3, d.z));
	}
	if (p->obstacles_n) {
		struct flock_vec o = flock_obstacle_push(p, x, y, FLOCK_Z(d3, z));
		flock_unit(&d.x, &d.y, FLOCK_Z(d3, d.z));
		d.x += o.x / c->step_len, d.y += o.y / c->step_len, d.z += o.z / c->step_len;
	}
	double dm = flock_length(d.x, d.y, FLOCK_Z(d3, d.z));
	if (!(dm > 0) || !isfinite(dm)) /* no direction wanted: keep its own (at rest: +x) */
		d = moving ? u : (struct flock_vec){ 1, 0, 0 }, dm = 1;
	d.x /= dm, d.y /= dm, d.z /= dm;
	if (p->couzin.noise > 0)
		d = noisy(s, b, d, d3);
	struct flock_vec h = moving ? turn_toward(u, d, c->max_turn, d3) : d;
	double hm = flock_length(h.x, h.y, FLOCK_Z(d3, h.z));
	double vx = h.x / hm * c->step_len, vy = h.y / hm * c->step_len, vz = d3 ? h.z / hm * c->step_len : 0;

	x += vx;
	y += vy;
	z += vz;
	if (p->obstacles_n)
		flock_obstacle_wall(p, &x, &y, FLOCK_Z(d3, z), &vx, &vy, FLOCK_Z(d3, vz));
	if (p->edges & SIM_WRAP)
		flock_wrap_add(p, &x, &y, FLOCK_Z(d3, z));
	s->x[b] = x, s->y[b] = y, s->vx[b] = vx, s->vy[b] = vy;
	if (d3)
		s->z[b] = z, s->vz[b] = vz;
}

static void couzin_one(void *ctx, size_t b) { couzin_boid(ctx, b, 0); }
static void couzin_one3(void *ctx, size_t b) { couzin_boid(ctx, b, 1); }

static int couzin_step(struct sim *s)
{
	const struct sim_couzin *k = &s->p.couzin;
	double ro = k->repulsion + k->orientation, ra = ro + k->attraction;
	double reach = ra, slack = k->speed * k->dt;
	struct couzin_ctx c = {
		.rr2 = k->repulsion * k->repulsion,
		.ro2 = ro * ro,
		.ra2 = ra * ra,
		.seen_cos = k->perception >= 360 ? -2 : cos(k->perception / 2 * (M_PI / 180)),
		.max_turn = k->turn * (M_PI / 180) * k->dt,
		.step_len = slack,
		.torus = (s->p.edges & SIM_WRAP) != 0,
	};
	/* open space: the grid over the flock, wherever it flew (a torus: the field's) */
	int err = (c.torus ? flock_begin : flock_begin_open)(&c.f, s, reach, slack, flock_cell(s, reach, slack));

	if (err)
		return err;
	flock_run(&c.f, s->z ? couzin_one3 : couzin_one, &c);
	return 0;
}

/*
 * The paper's start, as its groups start together: for each boid in order,
 * x = W/2 + (u - 1/2) L, y likewise (z in a box), then a heading uniform
 * on the circle (a = 2 pi u: (cos a, sin a)) or the sphere (a = 2 pi u,
 * c = 2u - 1: (s cos a, s sin a, c), s = sqrt(1 - c^2)), at the speed:
 * three draws a boid in a plane, five in a box.  L = 8 r_r for the paper's
 * 100 and grows with the flock, 8 r_r (N / 100)^(1/3) ((N / 100)^(1/2) in a
 * plane), so that a larger flock starts as dense as the paper's, not denser.
 */
static void couzin_randomize(struct sim *s, uint64_t seed)
{
	const struct sim_params *p = &s->p;
	double grow = (double)s->n / 100, len = p->couzin.speed * p->couzin.dt;
	double side = 8 * p->couzin.repulsion * (s->z ? cbrt(grow) : sqrt(grow));
	struct rng r;

	rng_seed(&r, seed);
	for (size_t i = 0; i < s->n; i++) {
		s->x[i] = p->width / 2 + (rng_uniform(&r) - .5) * side;
		s->y[i] = p->height / 2 + (rng_uniform(&r) - .5) * side;
		if (s->z)
			s->z[i] = p->depth / 2 + (rng_uniform(&r) - .5) * side;
		double u1 = rng_uniform(&r);
		if (!s->z) {
			s->vx[i] = cos(u1 * 2 * M_PI) * len;
			s->vy[i] = sin(u1 * 2 * M_PI) * len;
			continue;
		}
		double u2 = rng_uniform(&r);
		struct flock_vec h = flock_sphere(u1, u2);
		s->vx[i] = h.x * len;
		s->vy[i] = h.y * len;
		s->vz[i] = h.z * len;
	}
}

static void couzin_ranges(const struct sim_params *p, double *near, double *far)
{
	*near = p->couzin.repulsion;
	*far = p->couzin.repulsion + p->couzin.orientation + p->couzin.attraction;
}

/*
 * The paper's scene: 100 individuals in open 3D space, updated together.
 * A field of 64 x 36 (x 36) px holds the start and shows a group some 20
 * r_r across at 10 picture pixels a unit; boids one r_r long.  Nothing
 * bounds the group, so the picture follows it (MODEL_OPEN: --follow with
 * --edges none), the camera circling it once a clip, and no box is drawn.
 */
static const char *const couzin_defaults[] = {
	"predators=0", "boids=100", "dims=3", "edges=none", "update=synchronous", "field=64x36",
	"boid-size=0.1", "wall-pad=4", "camera=orbit", "box=no", "ground=no", NULL };

const struct boids_model couzin_model = {
	.name = "couzin",
	.summary = "Couzin's zones of repulsion, orientation and attraction: swarm, torus, parallel",
	.seed = "I. D. Couzin, J. Krause, R. James, G. D. Ruxton, N. R. Franks, \"Collective memory "
	        "and spatial sorting in animal groups\", J. theor. Biol. 218, 1-11 (2002), "
	        "https://doi.org/10.1006/jtbi.2002.3065",
	.notes = "docs/MODEL.md, \"couzin\"",
	.flags = MODEL_OPEN,
	.params_default = couzin_params_default,
	.program_defaults = couzin_defaults,
	.randomize = couzin_randomize,
	.step = couzin_step,
	.ranges = couzin_ranges,
};
