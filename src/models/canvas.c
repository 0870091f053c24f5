/*
 * canvas — Zack Therrien's TypeScript canvas boids: constant speed, a fixed
 * time step, wrap at the edges; docs/MODEL.md, "canvas".
 * Speeds are px/s in the program; s->vx holds px/step = px/s x dt, as in
 * every model.  No predators: the program has none.
 */
#include <math.h>

#include "flock.h"
#include "model.h"
#include "rng.h"

static void canvas_params_default(struct sim_params *p)
{
	p->canvas.visual_range = 50;
	p->canvas.cohesion_resistance = 10;
	p->canvas.separation_distance = 15;
	p->canvas.alignment_eagerness = .05;
	p->canvas.speed = 100;
	p->canvas.dt = 1.0 / 60;
}

/*
 * One pass over the boids seen at distance < range (itself excluded),
 * accumulating positions, close offsets and velocities: the acceleration
 * C + S + A in px/s, for boid b with velocity V px/s (d3: in a box).
 */
FLOCK_INLINE struct flock_vec rules(const struct flock_pass *f, size_t b, struct flock_vec V, int d3)
{
	const struct sim *s = f->s;
	const struct sim_params *p = &s->p;
	double bx = s->x[b], by = s->y[b], bz = d3 ? s->z[b] : 0, speed = p->canvas.speed;
	uint32_t self = s->gpos[b];
	double cx = 0, cy = 0, cz = 0, sx = 0, sy = 0, sz = 0, ax = 0, ay = 0, az = 0;
	size_t seen = 0;
	struct flock_nbrs it;

	flock_near_begin(&it, f, bx, by, bz, d3);
	for (struct flock_near nb; flock_near_next(&it, &nb);) {
		if (nb.k == self)
			continue;
		double d = sqrt(nb.d2);
		if (d < p->canvas.visual_range) {
			seen++;
			cx += nb.q.x;
			cy += nb.q.y;
			if (d < p->canvas.separation_distance) {
				sx -= nb.dx;
				sy -= nb.dy;
				if (d3)
					sz -= nb.dz;
			}
			struct flock_vec w = flock_copy_vel(s, nb.k, d3);
			ax += w.x;
			ay += w.y;
			if (d3) {
				cz += nb.q.z;
				az += w.z;
			}
		}
	}
	if (!seen)
		return (struct flock_vec){ 0, 0, 0 };
	double m = (double)seen;
	double cohx = (cx / m - bx) / p->canvas.cohesion_resistance;
	double cohy = (cy / m - by) / p->canvas.cohesion_resistance;
	double ux = ax / m, uy = ay / m, uz = d3 ? az / m : 0; /* mean velocity: only its direction counts */
	flock_unit(&ux, &uy, FLOCK_Z(d3, uz));
	double alix = (ux * speed - V.x) * p->canvas.alignment_eagerness;
	double aliy = (uy * speed - V.y) * p->canvas.alignment_eagerness;
	struct flock_vec acc = { cohx + sx + alix, cohy + sy + aliy, 0 };
	if (d3)
		acc.z = (cz / m - bz) / p->canvas.cohesion_resistance + sz +
		        (uz * speed - V.z) * p->canvas.alignment_eagerness;
	return acc;
}

/* V' = unit(V + C + S + A) x speed with V in px/s; move by V' dt; wrap. */
FLOCK_INLINE void canvas_boid(const struct flock_pass *f, size_t b, int d3)
{
	struct sim *s = f->s;
	const struct sim_params *p = &s->p;
	double bx = s->x[b], by = s->y[b], bz = d3 ? s->z[b] : 0;
	double dt = p->canvas.dt, speed = p->canvas.speed;
	struct flock_vec V = { s->vx[b] / dt, s->vy[b] / dt, d3 ? s->vz[b] / dt : 0 };
	struct flock_vec acc = rules(f, b, V, d3);

	double wx = V.x + acc.x, wy = V.y + acc.y, wz = V.z + acc.z;
	if (p->obstacles_n) {
		struct flock_vec o = flock_obstacle_push(p, bx, by, FLOCK_Z(d3, bz));
		wx += o.x / dt;
		wy += o.y / dt;
		wz += o.z / dt;
	}
	double m = flock_length(wx, wy, FLOCK_Z(d3, wz));
	if (!(m > 0) || !isfinite(m)) { /* no direction: keep the old one */
		wx = V.x, wy = V.y, wz = V.z;
		m = flock_length(wx, wy, FLOCK_Z(d3, wz));
		if (!(m > 0) || !isfinite(m))
			wx = 1, wy = 0, wz = 0, m = 1; /* at rest: head along +x */
	}
	double vx = wx / m * speed * dt, vy = wy / m * speed * dt, vz = wz / m * speed * dt;

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

static void canvas_one(void *ctx, size_t b) { canvas_boid(ctx, b, 0); }
static void canvas_one3(void *ctx, size_t b) { canvas_boid(ctx, b, 1); }

/*
 * The start flock: for each boid three draws, Math.random() x width, x
 * height, and a heading of Math.random() x 360 degrees, at canvas.speed
 * (stored per step).  In a box five: x, y, z = u D, then a heading uniform
 * on the sphere, azimuth a = u 2 pi and c = 2u - 1 its z: (s cos a,
 * s sin a, c) with s = sqrt(1 - c^2), normalized, at canvas.speed.
 */
static void canvas_randomize(struct sim *s, uint64_t seed)
{
	const struct sim_params *p = &s->p;
	struct rng r;

	rng_seed(&r, seed);
	for (size_t i = 0; i < s->n; i++) {
		s->x[i] = rng_uniform(&r) * p->width;
		s->y[i] = rng_uniform(&r) * p->height;
		if (s->z) {
			s->z[i] = rng_uniform(&r) * p->depth;
			double u1 = rng_uniform(&r), u2 = rng_uniform(&r);
			struct flock_vec h = flock_sphere(u1, u2);
			double m = flock_length(h.x, h.y, &h.z);
			s->vx[i] = h.x / m * p->canvas.speed * p->canvas.dt;
			s->vy[i] = h.y / m * p->canvas.speed * p->canvas.dt;
			s->vz[i] = h.z / m * p->canvas.speed * p->canvas.dt;
			continue;
		}
		/* fromDegree(...), (cos, sin).normalize().multiply(BIRD_SPEED) */
		double a = rng_uniform(&r) * 360 * (M_PI / 180);
		double vx = cos(a), vy = sin(a), m = sqrt(vx * vx + vy * vy);
		s->vx[i] = vx / m * p->canvas.speed * p->canvas.dt;
		s->vy[i] = vy / m * p->canvas.speed * p->canvas.dt;
	}
}

static int canvas_step(struct sim *s)
{
	const struct sim_params *p = &s->p;
	double reach = p->canvas.visual_range; /* separation counts seen boids only */
	double slack = p->canvas.speed * p->canvas.dt;
	struct flock_pass f;

	int err = flock_begin(&f, s, reach, slack, flock_cell(s, reach, slack));
	if (err)
		return err;
	flock_run(&f, s->z ? canvas_one3 : canvas_one, &f);
	return 0;
}

static void canvas_ranges(const struct sim_params *p, double *near, double *far)
{
	*near = p->canvas.separation_distance;
	*far = p->canvas.visual_range;
}

/* "A few hundred birds".  The page steps 60 times a second: the command
 * line derives --substeps from canvas.dt and --fps, which is no constant. */
static const char *const canvas_defaults[] = {
	"predators=0",
	"boids=300",
	"edges=wrap", /* what it does whatever --edges says (MODEL_WRAPS): --print-config says so */
	NULL,
};

/* The page's dt: it steps 60 times a second, whatever the frame rate. */
static double canvas_step_seconds(const struct sim_params *p)
{
	return p->canvas.dt;
}

const struct boids_model canvas_model = {
	.name = "canvas",
	.summary = "the TypeScript canvas boids: constant speed, 60 steps a second",
	.seed = "Zack Therrien, \"TypeScript: simulating birds flocks\" (2020), "
	        "https://www.osedea.com/en/blog/typescript-simulating-birds-flocks",
	.notes = "docs/MODEL.md, \"canvas\"",
	.flags = MODEL_WRAPS,
	.params_default = canvas_params_default,
	.program_defaults = canvas_defaults,
	.look = "canvas-article",
	.original_look = "canvas-article",
	.randomize = canvas_randomize,
	.step = canvas_step,
	.step_seconds = canvas_step_seconds,
	.ranges = canvas_ranges,
};
