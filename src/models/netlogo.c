/*
 * netlogo — Uri Wilensky's NetLogo Flocking model (1998), its procedures
 * flock, separate, align, cohere and turn-at-most; docs/MODEL.md, "netlogo".
 *
 * Turtles move one patch a tick (a patch is a field pixel) in a world that
 * wraps.  Each tick, in a new random order (NetLogo's `ask turtles`), each
 * turtle finds the others within `vision` (the short way round the world);
 * if the nearest is closer than `minimum-separation` it turns away from
 * that one's heading by at most max-separate-turn, else toward the
 * flockmates' mean heading (at most max-align-turn) and then toward their
 * mean bearing (at most max-cohere-turn).  Headings change in place, so a
 * later turtle sees the earlier ones' new headings; nobody moves until
 * every turtle has turned (`ask turtles [ fd 1 ]`).
 *
 * The pass is the machinery's still pass (include/flock.h) in a random
 * order of its own: the copies hold the positions and the headings as they
 * stand, the new ones go to s->nvx... and into each turtle's copy after
 * its turn, and the step swaps them in and moves everybody.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "flock.h"
#include "hugemem.h"
#include "model.h"
#include "rng.h"

static void netlogo_params_default(struct sim_params *p)
{
	p->netlogo.vision = 3;
	p->netlogo.minimum_separation = 1;
	p->netlogo.max_align_turn = 5;
	p->netlogo.max_cohere_turn = 3;
	p->netlogo.max_separate_turn = 1.5;
}

/* The tick's order: a permutation of the turtles (s->state). */
static int netlogo_state_init(struct sim *s)
{
	s->state = hugemem_alloc((s->n ? s->n : 1) * sizeof(uint32_t));
	return s->state ? 0 : -ENOMEM;
}

static void netlogo_state_release(struct sim *s)
{
	free(s->state);
	s->state = NULL;
}

/* The rotation of the unit vector u by a radians (in the plane: from +x toward +y). */
static inline struct flock_vec rotate(struct flock_vec u, double a)
{
	double c = cos(a), sn = sin(a);

	return (struct flock_vec){ u.x * c - u.y * sn, u.x * sn + u.y * c, 0 };
}

/*
 * NetLogo keeps headings in degrees, and from crt's whole degrees turns of
 * 1.5, 3 and 5 keep many on a lattice where two turtles fly exactly
 * opposite: subtract-headings then says 180, and turn-at-most turns right.
 * Kept as unit vectors, such headings are opposite only to rounding, so
 * every signed angle within REVERSED of a half turn is the half turn (a
 * right turn); and a sum of headings within ZERO of nothing is nothing
 * (two exactly opposite flockmates: NetLogo's sums then hold only
 * rounding, and its atan a direction of chance).
 */
#define REVERSED (1e-9 * M_PI / 180)
#define ZERO 1e-9

/* In a box two headings are exactly opposite (the lattice's 180: no plane
 * to turn in) when u.t < 0 and |u x t| < OPPOSITE; the turn then goes
 * toward flock_turn3()'s +angle direction, (-u_y, u_x, 0), as the plane's
 * half turn goes right. */
#define OPPOSITE 1e-9

/* |u x t| for unit vectors u, t: the sine of the angle between them. */
static inline double cross_length(struct flock_vec u, struct flock_vec t)
{
	double nx = u.y * t.z - u.z * t.y, ny = u.z * t.x - u.x * t.z, nz = u.x * t.y - u.y * t.x;

	return flock_length(nx, ny, &nz);
}

/*
 * The angle between the unit vectors u and t in a box, atan2(|u x t|, u.t):
 * acos(u.t) is 1.5e-8 for a dot product one ulp below 1, and a turn by that
 * much, toward a perpendicular that rounding chose, is no turn of NetLogo's.
 */
static inline double angle3(struct flock_vec u, struct flock_vec t, double dot)
{
	return atan2(cross_length(u, t), dot);
}

/* The signed angle in the plane from a to b: atan2 of a x b and a.b, in
 * (-pi, pi], positive clockwise on the screen (NetLogo's rt: y points down
 * here), a half turn when within REVERSED of one. */
static inline double signed_angle(struct flock_vec a, struct flock_vec b)
{
	double t = atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y);

	return fabs(t) > M_PI - REVERSED ? M_PI : t;
}

/* turn-at-most in the plane: u turned by t, at most `most` either way. */
static inline struct flock_vec turn_at_most(struct flock_vec u, double t, double most)
{
	return rotate(u, fabs(t) > most ? (t > 0 ? most : -most) : t);
}

/*
 * turn-towards: u turned toward the direction t (not a unit vector) by at
 * most `most` radians; nothing when t is (within ZERO of) zero: the
 * procedures then report the turtle's own heading.  In a box the turn is
 * in the plane of u and t (flock_turn3()).
 */
FLOCK_INLINE struct flock_vec turn_toward(struct flock_vec u, struct flock_vec t, double most, int d3)
{
	double tm = flock_length(t.x, t.y, FLOCK_Z(d3, t.z));

	if (!(tm > ZERO))
		return u;
	t.x /= tm, t.y /= tm, t.z /= tm;
	if (!d3)
		return turn_at_most(u, signed_angle(u, t), most); /* subtract-headings new heading */
	double dot = u.x * t.x + u.y * t.y + u.z * t.z;
	if (dot < 0 && cross_length(u, t) < OPPOSITE) /* exactly opposite */
		return flock_turn3(u, t, dot, most, 1);
	double a = angle3(u, t, dot);
	if (!(a > 0)) /* t is u (an aligned flockmate's copied heading): no plane, no turn */
		return u;
	return flock_turn3(u, t, dot, a < most ? a : most, 0);
}

/*
 * separate: turn-away from the heading n, turn-at-most (subtract-headings
 * heading n): u turned away from n by the angle between them, at most
 * `most`.  In a box, in their plane, away from n; exactly opposite
 * headings (no plane) turn by `most` toward flock_turn3()'s +angle.
 */
FLOCK_INLINE struct flock_vec turn_away(struct flock_vec u, struct flock_vec n, double most, int d3)
{
	double dot = u.x * n.x + u.y * n.y;

	if (!d3)
		return turn_at_most(u, signed_angle(n, u), most); /* subtract-headings heading n */
	dot += u.z * n.z;
	if (dot < 0 && cross_length(u, n) < OPPOSITE) /* exactly opposite */
		return flock_turn3(u, u, 1, most, 1);
	double a = angle3(u, n, dot);
	struct flock_vec w = { dot * u.x - n.x, dot * u.y - n.y, dot * u.z - n.z }; /* -n's part across u */
	double wm = flock_length(w.x, w.y, &w.z);
	if (!(a > 0))
		return u;
	if (!(wm > 1e-12))
		return flock_turn3(u, u, 1, a < most ? a : most, 1);
	w.x /= wm, w.y /= wm, w.z /= wm;
	return flock_turn3(u, w, 0, a < most ? a : most, 0);
}

/* One turtle's flock: its heading after separate, or align then cohere. */
FLOCK_INLINE struct flock_vec flock_turtle(const struct flock_pass *f, size_t b, int d3)
{
	const struct sim *s = f->s;
	const struct sim_netlogo *nl = &s->p.netlogo;
	uint32_t self = s->gpos[b];
	struct flock_vec at = flock_copy_at(s, self, d3), u = flock_copy_vel(s, self, d3);
	struct flock_vec head = { 0, 0, 0 }, toward = { 0, 0, 0 }, nearest = { 0, 0, 0 };
	double vision2 = nl->vision * nl->vision, near2 = INFINITY;
	struct flock_torus it;

	flock_torus_begin(&it, f, at.x, at.y, at.z, d3);
	for (struct flock_near nb; flock_torus_next(&it, &nb);) {
		if (nb.k == self || !(nb.d2 <= vision2)) /* in-radius: others at distance <= vision */
			continue;
		struct flock_vec w = flock_copy_vel(s, nb.k, d3);
		if (nb.d2 < near2) /* min-one-of [distance myself] */
			near2 = nb.d2, nearest = w;
		head.x += w.x, head.y += w.y, head.z += w.z; /* sum [dx], sum [dy] */
		if (nb.d2 > 0) { /* towards: the unit vector to it (none to the same point) */
			double d = sqrt(nb.d2);
			toward.x += nb.dx / d, toward.y += nb.dy / d, toward.z += nb.dz / d;
		}
	}
	if (near2 == INFINITY) /* no flockmates */
		return u;
	double deg = M_PI / 180;
	if (near2 < nl->minimum_separation * nl->minimum_separation)
		return turn_away(u, nearest, nl->max_separate_turn * deg, d3);
	u = turn_toward(u, head, nl->max_align_turn * deg, d3);
	return turn_toward(u, toward, nl->max_cohere_turn * deg, d3);
}

/* Turtle b's new heading into s->nvx... (headings are unit vectors: 1 patch a tick). */
FLOCK_INLINE void turn_one(const struct flock_pass *f, size_t b, int d3)
{
	struct sim *s = f->s;
	struct flock_vec h = flock_turtle(f, b, d3);
	double m = flock_length(h.x, h.y, FLOCK_Z(d3, h.z));

	if (!(m > 0)) /* at rest (an --init of another model): head along +x */
		h = (struct flock_vec){ 1, 0, 0 }, m = 1;
	s->nvx[b] = h.x / m;
	s->nvy[b] = h.y / m;
	if (d3)
		s->nvz[b] = h.z / m;
}

static void netlogo_one(void *ctx, size_t b) { turn_one(ctx, b, 0); }
static void netlogo_one3(void *ctx, size_t b) { turn_one(ctx, b, 1); }

/* Into [0, side): NetLogo's world wraps (one correction: a turtle moves 1 patch). */
static inline double wrap(double x, double side)
{
	if (x < 0)
		x += side;
	else if (x >= side)
		x -= side;
	return x < side ? x : 0; /* -tiny + side rounds to side */
}

/* `ask turtles [ fd 1 ]`: everybody moves one patch along its heading. */
static void move_all(struct sim *s)
{
	const struct sim_params *p = &s->p;

	for (size_t i = 0; i < s->n; i++) {
		s->x[i] = wrap(s->x[i] + s->vx[i], p->width);
		s->y[i] = wrap(s->y[i] + s->vy[i], p->height);
		if (s->z)
			s->z[i] = wrap(s->z[i] + s->vz[i], p->depth);
	}
}

static int netlogo_step(struct sim *s)
{
	double reach = s->p.netlogo.vision;
	struct flock_pass f;

	/* nobody moves while turning: cells of the vision */
	int err = flock_begin(&f, s, reach, FLOCK_STILL, flock_cell(s, reach, 0));
	if (err)
		return err;
	if (s->p.update == SIM_SEQUENTIAL) { /* `ask turtles`: a new random order every tick */
		flock_shuffle(s->state, s->n, s->p.noise_seed, s->steps);
		f.order = s->state;
	} /* (synchronous: everybody from the headings the tick found, in parallel) */
	flock_run(&f, s->z ? netlogo_one3 : netlogo_one, &f);
	flock_take_next(s); /* (a stopped tick too: flock_undo() expects it, include/flock.h) */
	move_all(s);
	return 0;
}

/*
 * setup: `crt population` gives each turtle a random whole heading, then
 * `setxy random-xcor random-ycor`.  For each turtle in order: x = u W,
 * y = u H, the heading floor(u 360) degrees clockwise from north (up):
 * (sin h, -cos h), y pointing down; three draws.  In a box: x, y, z = u D,
 * then a heading uniform on the sphere, a = 2 pi u, c = 2u - 1:
 * (s cos a, s sin a, c), s = sqrt(1 - c^2); five draws.
 */
static void netlogo_randomize(struct sim *s, uint64_t seed)
{
	const struct sim_params *p = &s->p;
	struct rng r;

	rng_seed(&r, seed);
	for (size_t i = 0; i < s->n; i++) {
		s->x[i] = rng_uniform(&r) * p->width;
		s->y[i] = rng_uniform(&r) * p->height;
		if (!s->z) {
			double h = floor(rng_uniform(&r) * 360) * (M_PI / 180);
			s->vx[i] = sin(h);
			s->vy[i] = -cos(h);
			continue;
		}
		s->z[i] = rng_uniform(&r) * p->depth;
		double u1 = rng_uniform(&r), u2 = rng_uniform(&r);
		struct flock_vec h = flock_sphere(u1, u2);
		s->vx[i] = h.x;
		s->vy[i] = h.y;
		s->vz[i] = h.z;
	}
}

static void netlogo_ranges(const struct sim_params *p, double *near, double *far)
{
	*near = p->netlogo.minimum_separation;
	*far = p->netlogo.vision;
}

/* The model library's setup: 300 turtles in a 71 x 71-patch world, size 1.5. */
static const char *const netlogo_defaults[] = {
	"predators=0", "boids=300", "field=71x71", "boid-size=0.15", "edges=wrap", NULL };

const struct boids_model netlogo_model = {
	.name = "netlogo",
	.summary = "NetLogo's Flocking: turns of at most a few degrees, one patch a tick, a wrapping world",
	.seed = "U. Wilensky, \"NetLogo Flocking model\", Center for Connected Learning and "
	        "Computer-Based Modeling, Northwestern University (1998), "
	        "http://ccl.northwestern.edu/netlogo/models/Flocking",
	.notes = "docs/MODEL.md, \"netlogo\"",
	.flags = MODEL_WRAPS,
	.params_default = netlogo_params_default,
	.program_defaults = netlogo_defaults,
	.original_look = "netlogo",
	.state_init = netlogo_state_init,
	.state_release = netlogo_state_release,
	.randomize = netlogo_randomize,
	.step = netlogo_step,
	.ranges = netlogo_ranges,
};
