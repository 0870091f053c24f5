/*
 * steering — the Unity steering behaviours (seeds/003) in 2D, scaled at
 * steer_unit pixels per Unity unit: flock rules, seek, arrival, socialize,
 * a speed limit and a turn limit; docs/MODEL.md, "steering (seeds/003)".
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

/* One step's steering pass: the shared pass, then the target and the turn. */
struct steer_ctx {
	struct flock_pass f;
	int target;             /* steering toward (tx, ty) */
	double tx, ty;
	double turn;            /* rotation limit, radians */
};

/* Unity's three flock rules for one boid, px/step, kept apart: the sum's order is the program's. */
struct rules {
	struct flock_vec coh, sep, ali;
	size_t seen;            /* neighbours */
};

static struct rules rules(const struct flock_pass *f, size_t b, double eps)
{
	const struct sim *s = f->s;
	const struct sim_params *p = &s->p;
	double bx = s->x[b], by = s->y[b], vx = s->vx[b], vy = s->vy[b];
	double cx = 0, cy = 0, sx = 0, sy = 0, ax = 0, ay = 0;
	size_t n = 0;
	struct flock_cands it;

	flock_cands_begin(&it, f, bx, by);
	for (uint32_t k; flock_cands_next(&it, &k);) {
		double dx = s->gx[k] - bx, dy = s->gy[k] - by;
		double d2 = dx * dx + dy * dy;
		if (!(d2 <= f->reach2) || d2 < eps * eps)
			continue;
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
	return (struct rules){ { cohx, cohy },
	                       { sx * p->steer_separation_weight, sy * p->steer_separation_weight },
	                       { alix, aliy }, n };
}

/* Seek: the unit offset to the target times the weight, minus v. */
static struct flock_vec seek(const struct steer_ctx *c, double bx, double by, double vx, double vy,
                             double eps)
{
	const struct sim_params *p = &c->f.s->p;
	double x = 0, y = 0;

	if (c->target && p->steer_seek_weight >= 1e-4 * p->steer_unit) {
		x = c->tx - bx;
		y = c->ty - by;
		unity_normalize(&x, &y, eps);
		x = x * p->steer_seek_weight - vx;
		y = y * p->steer_seek_weight - vy;
	}
	return (struct flock_vec){ x, y };
}

/* Arrival: toward the target at a speed ramped down within the radius, minus v. */
static struct flock_vec arrival(const struct steer_ctx *c, double bx, double by, double vx, double vy)
{
	const struct sim_params *p = &c->f.s->p;

	if (!c->target || !(p->steer_arrival_radius >= 1e-4 * p->steer_unit))
		return (struct flock_vec){ 0, 0 };
	double ox = c->tx - bx, oy = c->ty - by, d = sqrt(ox * ox + oy * oy);
	double ramped = p->steer_arrival_speed * (d / p->steer_arrival_radius);
	double clipped = fmin(ramped, p->steer_arrival_speed);
	double dx = 0, dy = 0;
	if (d > 0) {
		dx = clipped / d * ox;
		dy = clipped / d * oy;
	}
	return (struct flock_vec){ dx - vx, dy - vy };
}

/*
 * seeds/003 in 2D: neighbours at eps <= d < r (Unity's approximate
 * Position != other); v' = v + cohesion + separation + alignment + seek +
 * socialize + arrival (+ obstacles), limited in length, then in rotation
 * against v; move; --edges (none by default: the scene has no walls).
 * eps is Unity's 1e-5, in pixels.
 */
static void steer_one(void *ctx, size_t b)
{
	const struct steer_ctx *c = ctx;
	struct sim *s = c->f.s;
	const struct sim_params *p = &s->p;
	double bx = s->x[b], by = s->y[b], vx = s->vx[b], vy = s->vy[b];
	double eps = 1e-5 * p->steer_unit;
	struct rules r = rules(&c->f, b, eps);
	struct flock_vec sk = seek(c, bx, by, vx, vy, eps), so = { 0, 0 };
	if (!r.seen && p->steer_socialize_weight != 0)
		socialize(s, b, eps, &so.x, &so.y);
	struct flock_vec ar = arrival(c, bx, by, vx, vy);

	double nx = vx + r.coh.x + r.sep.x + r.ali.x + sk.x + so.x + ar.x;
	double ny = vy + r.coh.y + r.sep.y + r.ali.y + sk.y + so.y + ar.y;
	if (p->edges & SIM_BOUNCE) /* a term of the sum: arrival's -v would undo a later turn */
		flock_bounce(p, p->wall_pad, p->wall_turn, bx, by, &nx, &ny);
	if (p->obstacles_n) {
		struct flock_vec o = flock_obstacle_push(p, bx, by);
		nx += o.x;
		ny += o.y;
	}
	flock_limit_length(&nx, &ny, p->steer_max_speed);
	rotate_towards(vx, vy, &nx, &ny, c->turn, p->steer_max_speed, p->steer_steady_turn);
	flock_contain(&nx, &ny);

	bx += nx;
	by += ny;
	if (p->obstacles_n)
		flock_obstacle_wall(p, &bx, &by, &nx, &ny);
	if (p->edges & SIM_WRAP)
		flock_wrap_add(p, &bx, &by);
	s->x[b] = bx, s->y[b] = by, s->vx[b] = nx, s->vy[b] = ny;
}

/*
 * The start flock: for each boid two draws, Random.Range(-1, 1) and
 * Random.Range(0, 2) in Unity units, y up: x = W/2 + unit (2u - 1),
 * y = H/2 - unit 2u (Unity's box); velocity (steer_v0x, steer_v0y).
 */
static void steering_randomize(struct sim *s, uint64_t seed)
{
	const struct sim_params *p = &s->p;
	struct rng r;

	rng_seed(&r, seed);
	for (size_t i = 0; i < s->n; i++) {
		double ux = -1 + 2 * rng_uniform(&r), uy = 2 * rng_uniform(&r);
		s->x[i] = p->width / 2 + ux * p->steer_unit;
		s->y[i] = p->height / 2 - uy * p->steer_unit;
		s->vx[i] = p->steer_v0x;
		s->vy[i] = p->steer_v0y;
	}
}

static int steering_step(struct sim *s)
{
	const struct sim_params *p = &s->p;
	double reach = p->steer_radius, slack = p->steer_max_speed;
	struct steer_ctx c = {
		.target = p->target_mode != SIM_TARGET_NONE,
		.turn = p->steer_max_turn * (M_PI / 180),
	};

	flock_target(p, s->steps, &c.tx, &c.ty);
	int err = flock_begin(&c.f, s, reach, slack, flock_cell(s, reach, slack));
	if (err)
		return err;
	flock_run(&c.f, steer_one, &c);
	return 0;
}

static void steering_ranges(const struct sim_params *p, double *near, double *far)
{
	*near = *far = p->steer_radius;
}

static const char *const steering_defaults[] = {
	"predators=0",
	"edges=none", /* the scene has no walls */
	NULL,
};

const struct boids_model steering_model = {
	.name = "steering",
	.summary = "the Unity steering behaviours (seeds/003): seek, arrival, turn limits",
	.seed = "seeds/003",
	.notes = "docs/MODEL.md, \"steering (seeds/003)\" and \"Targets (steering)\"",
	.flags = MODEL_TARGET,
	.params_default = steering_params_default,
	.program_defaults = steering_defaults,
	.randomize = steering_randomize,
	.step = steering_step,
	.ranges = steering_ranges,
};
