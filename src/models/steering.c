/*
 * steering — the Unity steering behaviours (zklinger2000/unity-boids) in 2D, or in 3D as
 * the article's program itself is (--dims 3), scaled at steer.unit pixels
 * per Unity unit: flock rules, seek, arrival, socialize, a speed limit and
 * a turn limit; docs/MODEL.md, "steering" and "3D".
 * The target (--target) is the shared one (include/flock.h); the scene has
 * no walls, so the program's defaults turn --edges off.  No predators: the
 * program has none.
 */
#include <math.h>

#include "flock.h"
#include "model.h"
#include "rng.h"

static void steering_params_default(struct sim_params *p)
{
	p->steer.radius = 20;
	p->steer.unit = 25;
	p->steer.cohesion_steps = 100;
	p->steer.separation_steps = 1;
	p->steer.socialize_weight = 0;
	p->steer.cohesion_weight = .05;
	p->steer.separation_weight = 156.25;
	p->steer.alignment_weight = .25;
	p->steer.seek_weight = 0;
	p->steer.arrival_radius = 50;
	p->steer.arrival_speed = 5;
	p->steer.max_speed = 3.75;
	p->steer.max_turn = 6.4;
	p->steer.steady_turn = 0;
	p->steer.v0x = 0;
	p->steer.v0y = 0;
	p->steer.v0z = 0;
}

/* Unity's Vector3.Normalize: the zero vector when the length is not above eps (z NULL: a plane). */
static inline void unity_normalize(double *x, double *y, double *z, double eps)
{
	double m = flock_length(*x, *y, z);
	if (m > eps) {
		*x /= m;
		*y /= m;
		if (z)
			*z /= m;
	} else {
		*x = *y = 0;
		if (z)
			*z = 0;
	}
}

/* With steer.steady_turn, turns wider than this (150 degrees) go toward +angle. */
#define BEHIND (M_PI * 5 / 6)

/*
 * Unity's Vector3.RotateTowards(from, to, max angle, max magnitude change):
 * the direction of `from` turned toward `to` the short way by at most
 * `turn` radians (exactly onto it when closer), the length of `from` moved
 * toward that of `to` by at most `dm`.  A zero vector on either side falls
 * back to MoveTowards, as Unity does.  A reversal (to rounding) turns
 * toward +angle.  `steady` (an option, not Unity's): when `to` is more than BEHIND
 * away, the short way flips side with every small change of `to` and the
 * boid dithers; such turns then always go toward +angle (from +x to +y:
 * clockwise on the screen, where y points down).  In a plane the angle is
 * atan2's; in a box (d3) acos of the unit vectors' dot product and the
 * turn is in their plane (flock_turn3(), near reversals included): on a plane
 * z = const the same turns, to rounding.
 */
FLOCK_INLINE void rotate_towards(struct flock_vec from, struct flock_vec *to,
                                 double turn, double dm, int steady, int d3)
{
	double fm = flock_length(from.x, from.y, FLOCK_Z(d3, from.z));
	double tm = flock_length(to->x, to->y, FLOCK_Z(d3, to->z));

	if (!(fm > 0) || !(tm > 0)) {
		double dx = to->x - from.x, dy = to->y - from.y, dz = to->z - from.z;
		double d = flock_length(dx, dy, FLOCK_Z(d3, dz));
		if (d > dm && d > 0) { /* MoveTowards */
			to->x = from.x + dx / d * dm;
			to->y = from.y + dy / d * dm;
			if (d3)
				to->z = from.z + dz / d * dm;
		}
		return;
	}
	struct flock_vec u = { from.x / fm, from.y / fm, d3 ? from.z / fm : 0 };
	struct flock_vec t = { to->x / tm, to->y / tm, d3 ? to->z / tm : 0 };
	double dot = u.x * t.x + u.y * t.y, a;
	if (d3) {
		dot += u.z * t.z;
		a = acos(dot > 1 ? 1 : dot < -1 ? -1 : dot); /* in [0, pi] */
	} else {
		a = atan2(u.x * t.y - u.y * t.x, dot);
	}
	double m = tm - fm > dm ? fm + dm : tm - fm < -dm ? fm - dm : tm;

	int behind = steady && fabs(a) > BEHIND;
	if (behind)
		a = M_PI; /* nearly reversed: always the same way, or it dithers */
	if (fabs(a) <= turn) {
		to->x = to->x / tm * m;
		to->y = to->y / tm * m;
		if (d3)
			to->z = to->z / tm * m;
		return;
	}
	if (d3) {
		struct flock_vec r = flock_turn3(u, t, dot, turn, behind);
		*to = (struct flock_vec){ r.x * m, r.y * m, r.z * m };
		return;
	}
	double r = a > 0 ? turn : -turn, cr = cos(r), sr = sin(r);
	to->x = (u.x * cr - u.y * sr) * m;
	to->y = (u.x * sr + u.y * cr) * m;
}

/*
 * Socialize: for a boid with no neighbours, the unit offset (Unity's
 * Normalize) from it to the mean position of every other boid, times the
 * weight.  Reads the grid copies, which are the state this boid sees.
 */
FLOCK_INLINE struct flock_vec socialize(const struct sim *s, size_t b, double eps, int d3)
{
	uint32_t self = s->gpos[b];
	double sx = 0, sy = 0, sz = 0;

	if (s->n < 2)
		return (struct flock_vec){ 0, 0, 0 };
	for (size_t k = 0; k < s->n; k++)
		if (k != self) {
			struct flock_vec q = flock_copy_at(s, (uint32_t)k, d3);
			sx += q.x;
			sy += q.y;
			if (d3)
				sz += q.z;
		}
	double m = (double)(s->n - 1);
	double dx = sx / m - s->x[b], dy = sy / m - s->y[b], dz = d3 ? sz / m - s->z[b] : 0;
	unity_normalize(&dx, &dy, FLOCK_Z(d3, dz), eps);
	double w = s->p.steer.socialize_weight;
	return (struct flock_vec){ dx * w, dy * w, dz * w };
}

/* One step's steering pass: the shared pass, then the target and the turn. */
struct steer_ctx {
	struct flock_pass f;
	int target;             /* steering toward (tx, ty, tz) */
	double tx, ty, tz;
	double turn;            /* rotation limit, radians */
};

/* Unity's three flock rules for one boid, px/step, kept apart: the sum's order is the program's. */
struct rules {
	struct flock_vec coh, sep, ali;
	size_t seen;            /* neighbours */
};

FLOCK_INLINE struct rules rules(const struct flock_pass *f, size_t b, double eps, int d3)
{
	const struct sim *s = f->s;
	const struct sim_params *p = &s->p;
	double bx = s->x[b], by = s->y[b], bz = d3 ? s->z[b] : 0;
	double cx = 0, cy = 0, cz = 0, sx = 0, sy = 0, sz = 0, ax = 0, ay = 0, az = 0;
	size_t n = 0;
	struct flock_nbrs it;

	flock_near_begin(&it, f, bx, by, bz, d3);
	for (struct flock_near nb; flock_near_next(&it, &nb);) {
		if (nb.d2 < eps * eps)
			continue;
		double d = sqrt(nb.d2);
		if (d < p->steer.radius) {
			cx += nb.q.x;
			cy += nb.q.y;
			double ux = -nb.dx, uy = -nb.dy, uz = -nb.dz;
			unity_normalize(&ux, &uy, FLOCK_Z(d3, uz), eps);
			sx += ux / (d * d) / p->steer.separation_steps;
			sy += uy / (d * d) / p->steer.separation_steps;
			struct flock_vec w = flock_copy_vel(s, nb.k, d3);
			ax += w.x;
			ay += w.y;
			if (d3) {
				cz += nb.q.z;
				sz += uz / (d * d) / p->steer.separation_steps;
				az += w.z;
			}
			n++;
		}
	}

	struct rules r = { { 0, 0, 0 }, { sx * p->steer.separation_weight, sy * p->steer.separation_weight,
	                                   sz * p->steer.separation_weight }, { 0, 0, 0 }, n };
	if (n) {
		double w = p->steer.cohesion_weight, steps = p->steer.cohesion_steps;
		r.coh = (struct flock_vec){ (cx / (double)n - bx) / steps * w, (cy / (double)n - by) / steps * w,
		                            (cz / (double)n - bz) / steps * w };
		struct flock_vec ali = { ax / (double)n - s->vx[b], ay / (double)n - s->vy[b],
		                         d3 ? az / (double)n - s->vz[b] : 0 };
		unity_normalize(&ali.x, &ali.y, FLOCK_Z(d3, ali.z), eps);
		r.ali = (struct flock_vec){ ali.x * p->steer.alignment_weight, ali.y * p->steer.alignment_weight,
		                            ali.z * p->steer.alignment_weight };
	}
	return r;
}

/* Seek: the unit offset to the target times the weight, minus v. */
FLOCK_INLINE struct flock_vec seek(const struct steer_ctx *c, struct flock_vec at, struct flock_vec v,
                                   double eps, int d3)
{
	const struct sim_params *p = &c->f.s->p;
	struct flock_vec o = { 0, 0, 0 };

	if (c->target && p->steer.seek_weight >= 1e-4 * p->steer.unit) {
		o = (struct flock_vec){ c->tx - at.x, c->ty - at.y, c->tz - at.z };
		unity_normalize(&o.x, &o.y, FLOCK_Z(d3, o.z), eps);
		o = (struct flock_vec){ o.x * p->steer.seek_weight - v.x, o.y * p->steer.seek_weight - v.y,
		                        o.z * p->steer.seek_weight - v.z };
	}
	return o;
}

/* Arrival: toward the target at a speed ramped down within the radius, minus v. */
FLOCK_INLINE struct flock_vec arrival(const struct steer_ctx *c, struct flock_vec at, struct flock_vec v,
                                      int d3)
{
	const struct sim_params *p = &c->f.s->p;

	if (!c->target || !(p->steer.arrival_radius >= 1e-4 * p->steer.unit))
		return (struct flock_vec){ 0, 0, 0 };
	double ox = c->tx - at.x, oy = c->ty - at.y, oz = c->tz - at.z;
	double d = flock_length(ox, oy, FLOCK_Z(d3, oz));
	double ramped = p->steer.arrival_speed * (d / p->steer.arrival_radius);
	double clipped = fmin(ramped, p->steer.arrival_speed);
	double dx = 0, dy = 0, dz = 0;
	if (d > 0) {
		dx = clipped / d * ox;
		dy = clipped / d * oy;
		dz = clipped / d * oz;
	}
	return (struct flock_vec){ dx - v.x, dy - v.y, dz - v.z };
}

/*
 * The program: neighbours at eps <= d < r (Unity's approximate Position !=
 * other); v' = v + cohesion + separation + alignment + seek + socialize +
 * arrival (+ obstacles), limited in length, then in rotation against v;
 * move; --edges (none by default: the scene has no walls).  eps is
 * Unity's 1e-5, in pixels.  d3: in a box, every vector with its z.
 */
FLOCK_INLINE void steer_boid(const struct steer_ctx *c, size_t b, int d3)
{
	struct sim *s = c->f.s;
	const struct sim_params *p = &s->p;
	struct flock_vec at = { s->x[b], s->y[b], d3 ? s->z[b] : 0 };
	struct flock_vec v = { s->vx[b], s->vy[b], d3 ? s->vz[b] : 0 };
	double eps = 1e-5 * p->steer.unit;
	struct rules r = rules(&c->f, b, eps, d3);
	struct flock_vec sk = seek(c, at, v, eps, d3), so = { 0, 0, 0 };
	if (!r.seen && p->steer.socialize_weight != 0)
		so = socialize(s, b, eps, d3);
	struct flock_vec ar = arrival(c, at, v, d3);

	struct flock_vec n = { v.x + r.coh.x + r.sep.x + r.ali.x + sk.x + so.x + ar.x,
	                       v.y + r.coh.y + r.sep.y + r.ali.y + sk.y + so.y + ar.y,
	                       v.z + r.coh.z + r.sep.z + r.ali.z + sk.z + so.z + ar.z };
	if (p->edges & SIM_BOUNCE) /* a term of the sum: arrival's -v would undo a later turn */
		flock_bounce(p, p->harden.wall_pad, p->harden.wall_turn, at.x, at.y, at.z, &n.x, &n.y, FLOCK_Z(d3, n.z));
	if (p->obstacles_n) {
		struct flock_vec o = flock_obstacle_push(p, at.x, at.y, FLOCK_Z(d3, at.z));
		n.x += o.x;
		n.y += o.y;
		n.z += o.z;
	}
	flock_limit_length(&n.x, &n.y, FLOCK_Z(d3, n.z), p->steer.max_speed);
	rotate_towards(v, &n, c->turn, p->steer.max_speed, p->steer.steady_turn, d3);
	flock_contain(&n.x, &n.y, FLOCK_Z(d3, n.z));

	at.x += n.x;
	at.y += n.y;
	at.z += n.z;
	if (p->obstacles_n)
		flock_obstacle_wall(p, &at.x, &at.y, FLOCK_Z(d3, at.z), &n.x, &n.y, FLOCK_Z(d3, n.z));
	if (p->edges & SIM_WRAP)
		flock_wrap_add(p, &at.x, &at.y, FLOCK_Z(d3, at.z));
	s->x[b] = at.x, s->y[b] = at.y, s->vx[b] = n.x, s->vy[b] = n.y;
	if (d3)
		s->z[b] = at.z, s->vz[b] = n.z;
}

static void steer_one(void *ctx, size_t b) { steer_boid(ctx, b, 0); }
static void steer_one3(void *ctx, size_t b) { steer_boid(ctx, b, 1); }

/*
 * The start flock: for each boid two draws, Random.Range(-1, 1) and
 * Random.Range(0, 2) in Unity units, y up: x = W/2 + unit (2u - 1),
 * y = H/2 - unit 2u (Unity's box); velocity (steer.v0x, steer.v0y).  In
 * a box the program's third, Random.Range(-1, 1): z = D/2 + unit (2u - 1),
 * and vz = steer.v0z.
 */
static void steering_randomize(struct sim *s, uint64_t seed)
{
	const struct sim_params *p = &s->p;
	struct rng r;

	rng_seed(&r, seed);
	for (size_t i = 0; i < s->n; i++) {
		double ux = -1 + 2 * rng_uniform(&r), uy = 2 * rng_uniform(&r);
		s->x[i] = p->width / 2 + ux * p->steer.unit;
		s->y[i] = p->height / 2 - uy * p->steer.unit;
		s->vx[i] = p->steer.v0x;
		s->vy[i] = p->steer.v0y;
		if (s->z) {
			double uz = -1 + 2 * rng_uniform(&r);
			s->z[i] = p->depth / 2 + uz * p->steer.unit;
			s->vz[i] = p->steer.v0z;
		}
	}
}

static int steering_step(struct sim *s)
{
	const struct sim_params *p = &s->p;
	double reach = p->steer.radius, slack = p->steer.max_speed;
	struct steer_ctx c = {
		.target = p->target_mode != SIM_TARGET_NONE,
		.turn = p->steer.max_turn * (M_PI / 180),
	};

	flock_target(p, s->steps, &c.tx, &c.ty, s->z ? &c.tz : NULL);
	int err = flock_begin(&c.f, s, reach, slack, flock_cell(s, reach, slack));
	if (err)
		return err;
	flock_run(&c.f, s->z ? steer_one3 : steer_one, &c);
	return 0;
}

static void steering_ranges(const struct sim_params *p, double *near, double *far)
{
	*near = *far = p->steer.radius;
}

static const char *const steering_defaults[] = {
	"predators=0",
	"boids=300", /* a swarm that fills the view; 100 are a clump around the target */
	"edges=none", /* the scene has no walls */
	NULL,
};

const struct boids_model steering_model = {
	.name = "steering",
	.summary = "the Unity steering behaviours: seek, arrival, turn limits",
	.seed = "zklinger2000, \"Boids\" (Unity3D, C#; 2018), https://github.com/zklinger2000/unity-boids",
	.notes = "docs/MODEL.md, \"steering\" and \"Targets (steering)\"",
	.flags = MODEL_TARGET,
	.params_default = steering_params_default,
	.program_defaults = steering_defaults,
	.randomize = steering_randomize,
	.step = steering_step,
	.ranges = steering_ranges,
};
