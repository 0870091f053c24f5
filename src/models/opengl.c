/*
 * opengl — the C# article's "OpenGL version" (swharden/Csharp-Data-
 * Visualization, dev/old/drawing/boids2): its own rules, predators that see
 * further, walls, and per-boid target speeds; docs/MODEL.md, "opengl".
 *
 * The program's velocity v moves a boid by v x gl.step per step; s->vx
 * holds px/step = v x gl.step, as in every model.  Each boid's target
 * speed (program units) is this model's own state: s->state, double[n].
 *
 * gl_one() does one boid as the program's Field.Advance() does it: flock,
 * avoid (own kind), align, flee predators, walls, then SetSpeed() and the
 * move, each changing the velocity in place.  Neighbours include the boid
 * itself (distance 0), as in the program's loops over every boid; its own
 * velocity in the alignment mean is the one already changed by flock and
 * avoid.  Predators are boids 0 .. P-1 and see gl.predator_sight times as
 * far for cohesion.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "flock.h"
#include "model.h"
#include "rng.h"

/* The program's numbers with its sliders where they start. */
static void opengl_params_default(struct sim_params *p)
{
	p->gl.flock_radius = 100;   /* Vision = 10 x VisionTrackbar (10) */
	p->gl.flock_weight = .0005; /* .0005 x (2 x 10/20)^3 */
	p->gl.predator_sight = 2;   /* "predators have double distance" */
	p->gl.avoid_radius = 20;    /* VisionRepel */
	p->gl.avoid_weight = .005;  /* .005 x (2 x 10/20)^4 */
	p->gl.avoid_all = 0;        /* "like avoids like" */
	p->gl.align_radius = 100;   /* Vision */
	p->gl.align_weight = .03;   /* .03 x (2 x 10/20)^3 */
	p->gl.flee_radius = 100;    /* Vision */
	p->gl.flee_weight = .002;
	p->gl.wall_pad = 100;       /* Vision */
	p->gl.wall_turn = .1;
	p->gl.speed_min = .5;       /* .5 + NextDouble() */
	p->gl.speed_max = 1.5;
	p->gl.predator_boost = .5;
	p->gl.speed_ease = .1;      /* SetSpeed(): 10% of the way per step */
	p->gl.step = 2;             /* SpeedTrackbar (10) x .2 */
}

/* Each boid's target speed: the program's Boid.TargetSpeed before any draw. */
static int opengl_state_init(struct sim *s)
{
	const struct sim_params *p = &s->p;
	size_t m = s->n ? s->n : 1;
	double *ts = malloc(m * sizeof(*ts));

	if (!ts)
		return -ENOMEM;
	for (size_t i = 0; i < m; i++)
		ts[i] = (p->gl.speed_min + p->gl.speed_max) / 2;
	s->state = ts;
	return 0;
}

static void opengl_state_release(struct sim *s)
{
	free(s->state);
	s->state = NULL;
}

/* The boid in one step: its velocity v in program units, whether a predator. */
struct boid {
	size_t b;
	double x, y, z, vx, vy, vz; /* z, vz: in a box */
	int pred;
};

/* Pass 1: cohesion toward the centre; returns how many count for alignment (a: the others' velocities). */
FLOCK_INLINE size_t flock_align(const struct flock_pass *f, struct boid *o, struct flock_vec *a, int d3)
{
	const struct sim *s = f->s;
	const struct sim_params *p = &s->p;
	double step = p->gl.step, fr = p->gl.flock_radius * (o->pred ? p->gl.predator_sight : 1);
	uint32_t self = s->gpos[o->b];
	double cx = 0, cy = 0, cz = 0;
	size_t cn = 0, an = 0;
	struct flock_nbrs it;

	*a = (struct flock_vec){ 0, 0, 0 };
	flock_near_begin(&it, f, o->x, o->y, o->z, d3);
	for (struct flock_near nb; flock_near_next(&it, &nb);) {
		double d = sqrt(nb.d2);
		if (d < fr) {
			cx += nb.q.x;
			cy += nb.q.y;
			if (d3)
				cz += nb.q.z;
			cn++;
		}
		if (d < p->gl.align_radius) {
			if (nb.k != self) {
				struct flock_vec w = flock_copy_vel(s, nb.k, d3);
				a->x += w.x / step;
				a->y += w.y / step;
				if (d3)
					a->z += w.z / step;
			}
			an++;
		}
	}
	if (cn) {
		o->vx += (cx / (double)cn - o->x) * p->gl.flock_weight;
		o->vy += (cy / (double)cn - o->y) * p->gl.flock_weight;
		if (d3)
			o->vz += (cz / (double)cn - o->z) * p->gl.flock_weight;
	}
	return an;
}

/* Pass 2: separation, one neighbour at a time, own kind only (unless gl.avoid_all): the one loop
 * on flock_cands itself, as it drops the other kind before it reads a position. */
FLOCK_INLINE void avoid(const struct flock_pass *f, struct boid *o, size_t np, int d3)
{
	const struct sim *s = f->s;
	const struct sim_params *p = &s->p;
	struct flock_cands it;

	flock_cands_begin(&it, f, o->x, o->y, o->z);
	for (uint32_t k; flock_cands_next(&it, &k);) {
		if (!p->gl.avoid_all && (s->grid.items[k] < np) != o->pred)
			continue;
		struct flock_vec q = flock_copy_at(s, k, d3);
		double dx = q.x - o->x, dy = q.y - o->y, dz = d3 ? q.z - o->z : 0;
		double d2 = dx * dx + dy * dy;
		if (d3)
			d2 += dz * dz;
		if (!(d2 <= f->reach2))
			continue;
		double closeness = p->gl.avoid_radius - sqrt(d2);
		if (closeness > 0) {
			o->vx -= dx * p->gl.avoid_weight * closeness;
			o->vy -= dy * p->gl.avoid_weight * closeness;
			if (d3)
				o->vz -= dz * p->gl.avoid_weight * closeness;
		}
	}
}

/* Flee every predator in range, in index order, by the bare offset. */
FLOCK_INLINE void flee(const struct sim *s, struct boid *o, size_t np, int d3)
{
	const struct sim_params *p = &s->p;

	for (size_t j = 0; j < np; j++) {
		uint32_t k = s->gpos[j];
		struct flock_vec q = flock_copy_at(s, k, d3);
		double dx = q.x - o->x, dy = q.y - o->y, dz = d3 ? q.z - o->z : 0;
		if (flock_length(dx, dy, FLOCK_Z(d3, dz)) < p->gl.flee_radius) {
			o->vx -= dx * p->gl.flee_weight;
			o->vy -= dy * p->gl.flee_weight;
			if (d3)
				o->vz -= dz * p->gl.flee_weight;
		}
	}
}

FLOCK_INLINE void gl_boid(const struct flock_pass *f, size_t b, int d3)
{
	struct sim *s = f->s;
	const struct sim_params *p = &s->p;
	const double *ts = s->state;
	double step = p->gl.step;
	size_t np = p->predators < s->n ? p->predators : s->n;
	struct boid o = { b, s->x[b], s->y[b], d3 ? s->z[b] : 0,
	                  s->vx[b] / step, s->vy[b] / step, d3 ? s->vz[b] / step : 0, b < np };
	struct flock_vec a;

	size_t an = flock_align(f, &o, &a, d3);
	avoid(f, &o, np, d3);
	if (an) { /* the boid itself counts with its velocity as it is now */
		a.x += o.vx;
		a.y += o.vy;
		o.vx -= (o.vx - a.x / (double)an) * p->gl.align_weight;
		o.vy -= (o.vy - a.y / (double)an) * p->gl.align_weight;
		if (d3) {
			a.z += o.vz;
			o.vz -= (o.vz - a.z / (double)an) * p->gl.align_weight;
		}
	}
	flee(s, &o, np, d3);
	/* walls, from the position before the move */
	flock_bounce(p, p->gl.wall_pad, p->gl.wall_turn, o.x, o.y, o.z, &o.vx, &o.vy, FLOCK_Z(d3, o.vz));
	if (p->obstacles_n) {
		struct flock_vec push = flock_obstacle_push(p, o.x, o.y, FLOCK_Z(d3, o.z));
		o.vx += push.x / step;
		o.vy += push.y / step;
		if (d3)
			o.vz += push.z / step;
	}

	double vx = o.vx, vy = o.vy, vz = o.vz, bx = o.x, by = o.y, bz = o.z;
	if (!(vx == 0 && vy == 0 && (!d3 || vz == 0))) { /* SetSpeed(): a tenth of the way, no clamp */
		double speed = ts[b] + (o.pred ? p->gl.predator_boost : 0);
		double cur = flock_length(vx, vy, FLOCK_Z(d3, vz));
		double tx = vx / cur * speed, ty = vy / cur * speed;
		vx += (tx - vx) * p->gl.speed_ease;
		vy += (ty - vy) * p->gl.speed_ease;
		if (d3)
			vz += (vz / cur * speed - vz) * p->gl.speed_ease;
	}
	flock_contain(&vx, &vy, FLOCK_Z(d3, vz));

	bx += vx * step;
	by += vy * step;
	bz += vz * step;
	vx *= step;
	vy *= step;
	vz *= step;
	if (p->obstacles_n)
		flock_obstacle_wall(p, &bx, &by, FLOCK_Z(d3, bz), &vx, &vy, FLOCK_Z(d3, vz));
	s->x[b] = bx, s->y[b] = by, s->vx[b] = vx, s->vy[b] = vy;
	if (d3)
		s->z[b] = bz, s->vz[b] = vz;
}

static void gl_one(void *ctx, size_t b) { gl_boid(ctx, b, 0); }
static void gl_one3(void *ctx, size_t b) { gl_boid(ctx, b, 1); }

/*
 * Field.RandomizeBoids(): for each boid the four draws of harden, with vx
 * and vy times gl.step (px/step), and a fifth giving the target speed
 * ts = gl.speed_min + u (max - min).  In a box (the program is 2D) the
 * same, then for each boid two more: z = u D and vz = (u - .5) gl.step,
 * drawn as its vx; so a box's x, y, vx, vy and target speeds are the
 * plane's (an --init from a 2D run keeps its target speeds).
 */
static void opengl_randomize(struct sim *s, uint64_t seed)
{
	const struct sim_params *p = &s->p;
	double *ts = s->state;
	struct rng r;

	rng_seed(&r, seed);
	for (size_t i = 0; i < s->n; i++) {
		s->x[i] = rng_uniform(&r) * p->width;
		s->y[i] = rng_uniform(&r) * p->height;
		s->vx[i] = (rng_uniform(&r) - .5) * p->gl.step;
		s->vy[i] = (rng_uniform(&r) - .5) * p->gl.step;
		ts[i] = p->gl.speed_min + rng_uniform(&r) * (p->gl.speed_max - p->gl.speed_min);
	}
	for (size_t i = 0; s->z && i < s->n; i++) {
		s->z[i] = rng_uniform(&r) * p->depth;
		s->vz[i] = (rng_uniform(&r) - .5) * p->gl.step;
	}
}

static int opengl_step(struct sim *s)
{
	const struct sim_params *p = &s->p;
	double sight = p->predators ? fmax(1, p->gl.predator_sight) : 1;
	double reach = fmax(p->gl.flock_radius * sight, fmax(p->gl.align_radius, p->gl.avoid_radius));
	/* no clamp: a faster boid escapes its cell and is visited from the list */
	double slack = p->gl.step * 2 * (fabs(p->gl.speed_max) + fabs(p->gl.predator_boost));
	struct flock_pass f;

	int err = flock_begin(&f, s, reach, slack, flock_cell(s, reach, slack));
	if (err)
		return err;
	flock_run(&f, s->z ? gl_one3 : gl_one, &f);
	return 0;
}

static void opengl_ranges(const struct sim_params *p, double *near, double *far)
{
	*near = p->gl.avoid_radius;
	*far = p->gl.flock_radius;
}

/* Its window and look: white arrows with OpenGL trails, yellow predators (--opengl). */
static const char *const opengl_defaults[] = {
	"predators=0",
	"boids=250",
	"size=1157x578",
	"shape=arrow",
	"boid-color=#ffffff",
	"trail-style=opengl",
	"opengl=yes",
	NULL,
};

const struct boids_model opengl_model = {
	.name = "opengl",
	.summary = "the C# article's OpenGL version: target speeds, arrowheads, soft tails",
	.seed = "Scott W. Harden, the \"OpenGL version\" of \"Boids in C#\" (2020), "
	        "https://github.com/swharden/Csharp-Data-Visualization (dev/old/drawing/boids2)",
	.notes = "docs/MODEL.md, \"opengl (the C# article's \\\"OpenGL version\\\")\"",
	.params_default = opengl_params_default,
	.program_defaults = opengl_defaults,
	.state_init = opengl_state_init,
	.state_release = opengl_state_release,
	.randomize = opengl_randomize,
	.step = opengl_step,
	.ranges = opengl_ranges,
};
