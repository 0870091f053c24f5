/*
 * harden — Scott Harden's "Boids in C#" (seeds/000), the default model, bit
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
 * the obstacles' push, if there are obstacles.
 */
#include <math.h>
#include <string.h>

#include "flock.h"
#include "model.h"

/* The article's numbers. */
static void harden_params_default(struct sim_params *p)
{
	p->flock_radius = 50;
	p->flock_weight = .0003;
	p->align_radius = 50;
	p->align_weight = .01;
	p->avoid_radius = 20;
	p->avoid_weight = .001;
	p->predator_radius = 150;
	p->predator_weight = .00005;
	p->min_speed = 1;
	p->max_speed = 5;
	p->wall_pad = 50;
	p->wall_turn = .5;
}

/* Running sums of the neighbour rules for one boid. */
struct sums {
	double fx, fy; size_t fn;  /* flock: positions, count */
	double ax, ay; size_t an;  /* align: velocities, count */
	double cx, cy;             /* avoid: closeness-weighted offsets */
};

/*
 * Adds neighbour (x, y, vx, vy) to boid (bx, by)'s sums.  The squared
 * distance only filters out pairs that are clearly too far (with a margin
 * for rounding); the rules themselves compare sqrt(d2) < r as the C# does.
 */
static inline void visit(const struct sim_params *p, double reach2, double bx, double by,
                         double x, double y, double vx, double vy, struct sums *u)
{
	double dx = x - bx, dy = y - by;
	double d2 = dx * dx + dy * dy;

	if (!(d2 <= reach2))
		return;
	double d = sqrt(d2);
	if (d < p->flock_radius) {
		u->fx += x;
		u->fy += y;
		u->fn++;
	}
	if (d < p->align_radius) {
		u->ax += vx;
		u->ay += vy;
		u->an++;
	}
	if (d < p->avoid_radius) {
		double closeness = p->avoid_radius - d;
		u->cx += (bx - x) * closeness;
		u->cy += (by - y) * closeness;
	}
}

/* The four rules' sum for boid b at (bx, by) with velocity (vx, vy). */
static struct flock_vec rules(const struct flock_pass *f, size_t b, double vx, double vy)
{
	const struct sim *s = f->s;
	const struct sim_params *p = &s->p;
	double bx = s->x[b], by = s->y[b];
	double reach2 = f->reach2;
	struct sums u;
	struct flock_rows rw;

	memset(&u, 0, sizeof(u));
	flock_rows_begin(&rw, &s->grid, bx, by); /* nobody moves while steering: no escapes */
	for (uint32_t k, k1; flock_rows_next(&rw, &k, &k1);)
		for (; k < k1; k++)
			visit(p, reach2, bx, by, s->gx[k], s->gy[k], s->gvx[k], s->gvy[k], &u);

	double flock_x = 0, flock_y = 0, align_x = 0, align_y = 0;
	if (u.fn) {
		flock_x = (u.fx / (double)u.fn - bx) * p->flock_weight;
		flock_y = (u.fy / (double)u.fn - by) * p->flock_weight;
	}
	if (u.an) {
		align_x = (u.ax / (double)u.an - vx) * p->align_weight;
		align_y = (u.ay / (double)u.an - vy) * p->align_weight;
	}
	double avoid_x = u.cx * p->avoid_weight;
	double avoid_y = u.cy * p->avoid_weight;

	double px = 0, py = 0;
	size_t np = p->predators < s->n ? p->predators : s->n;
	for (size_t i = 0; i < np; i++) {
		double dx = bx - s->x[i], dy = by - s->y[i];
		double d = sqrt(dx * dx + dy * dy);
		if (d < p->predator_radius) {
			double closeness = p->predator_radius - d;
			px += dx * closeness;
			py += dy * closeness;
		}
	}
	double pred_x = px * p->predator_weight;
	double pred_y = py * p->predator_weight;
	return (struct flock_vec){ flock_x + avoid_x + align_x + pred_x,
	                           flock_y + avoid_y + align_y + pred_y };
}

/* Steers boid b from its velocity in s->vx and writes the new one to (ox, oy)[b]. */
static inline void steer_one(const struct flock_pass *f, double *ox, double *oy, size_t b)
{
	const struct sim *s = f->s;
	const struct sim_params *p = &s->p;
	double vx = s->vx[b], vy = s->vy[b];
	struct flock_vec r = rules(f, b, vx, vy);
	double nx = vx + r.x, ny = vy + r.y;

	if (p->obstacles_n) { /* not even + 0 otherwise: the seed's bits stay */
		struct flock_vec o = flock_obstacle_push(p, s->x[b], s->y[b]);
		nx += o.x;
		ny += o.y;
	}
	/* Only absurd weights overflow; the seed would then move the boid to
	 * infinity.  Contain it: such a velocity counts as rest. */
	flock_contain(&nx, &ny);
	ox[b] = nx;
	oy[b] = ny;
}

/* Sequential: in place, each boid seeing the new velocities of earlier ones. */
static void steer_live(void *ctx, size_t b)
{
	const struct flock_pass *f = ctx;
	steer_one(f, f->s->vx, f->s->vy, b);
}

/* Synchronous: into the next velocities, every boid reading the same state. */
static void steer_next(void *ctx, size_t b)
{
	const struct flock_pass *f = ctx;
	steer_one(f, f->s->nvx, f->s->nvy, b);
}

/* `obstacles` is a constant at each call: the loop without them stays the seed's. */
static inline __attribute__((always_inline))
void move_one(struct sim *s, size_t i, int obstacles)
{
	const struct sim_params *p = &s->p;
	double vx = s->vx[i], vy = s->vy[i];

	s->x[i] += vx;
	s->y[i] += vy;
	if (obstacles) { /* only then: the seed's bits stay */
		s->vx[i] = vx, s->vy[i] = vy; /* through memory: keep vx, vy in registers */
		flock_obstacle_wall(p, &s->x[i], &s->y[i], &s->vx[i], &s->vy[i]);
		vx = s->vx[i], vy = s->vy[i];
	}

	double speed = sqrt(vx * vx + vy * vy);
	if (speed > p->max_speed) {
		vx = (vx / speed) * p->max_speed;
		vy = (vy / speed) * p->max_speed;
	} else if (speed < p->min_speed) {
		vx = (vx / speed) * p->min_speed;
		vy = (vy / speed) * p->min_speed;
	}
	if (isnan(vx)) /* speed 0: 0/0 */
		vx = 0;
	if (isnan(vy))
		vy = 0;

	if (p->edges & SIM_BOUNCE)
		flock_bounce(p, p->wall_pad, p->wall_turn, s->x[i], s->y[i], &vx, &vy);
	if (p->edges & SIM_WRAP)
		flock_wrap_add(p, &s->x[i], &s->y[i]);
	s->vx[i] = vx;
	s->vy[i] = vy;
}

static int harden_step(struct sim *s)
{
	const struct sim_params *p = &s->p;
	double r = fmax(p->flock_radius, fmax(p->align_radius, p->avoid_radius));
	struct flock_pass f;

	/* cells of edge r: nobody moves while steering (slack 0) */
	int err = flock_begin(&f, s, r, 0, r);
	if (err)
		return err;
	if (p->update == SIM_SEQUENTIAL) {
		flock_run(&f, steer_live, &f);
	} else {
		flock_run(&f, steer_next, &f);
		double *t;
		t = s->vx, s->vx = s->nvx, s->nvx = t;
		t = s->vy, s->vy = s->nvy, s->nvy = t;
	}

	if (p->obstacles_n)
		for (size_t i = 0; i < s->n; i++)
			move_one(s, i, 1);
	else
		for (size_t i = 0; i < s->n; i++)
			move_one(s, i, 0);
	return 0;
}

static void harden_ranges(const struct sim_params *p, double *near, double *far)
{
	*near = p->avoid_radius;
	*far = p->flock_radius;
}

static const char *const harden_defaults[] = { NULL }; /* the option table's are the article's */

const struct boids_model harden_model = {
	.name = "harden",
	.summary = "Scott Harden's \"Boids in C#\" (seeds/000): the default, bit for bit",
	.seed = "seeds/000",
	.notes = "docs/MODEL.md, \"The model\"; its program's facts: seeds/README.md",
	.flags = 0,
	.params_default = harden_params_default,
	.program_defaults = harden_defaults,
	.look = NULL,
	.original_look = "harden-windows",
	.randomize = flock_scatter,
	.step = harden_step,
	.ranges = harden_ranges,
};
