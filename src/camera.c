/*
 * camera — a pinhole camera for the 3D flock; see include/camera.h.
 *
 * Start at camera_place(): a preset works out where the eye stands
 * (preset_eye(): the distance that fits the box, fit_distance()), then
 * look_at() builds the camera's frame from the eye, the point looked at
 * and the world's down (+y).
 */
#include "camera.h"

#include <errno.h>
#include <math.h>


static double dot(const double a[3], const double b[3])
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross(const double a[3], const double b[3], double out[3])
{
	double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];

	out[0] = x, out[1] = y, out[2] = z;
}

/* Scales a to unit length; returns its length before (0: left as it was). */
static double normalize(double a[3])
{
	double len = sqrt(dot(a, a));

	if (len > 0)
		for (int k = 0; k < 3; k++)
			a[k] /= len;
	return len;
}

void camera_setup_default(struct camera_setup *s)
{
	*s = (struct camera_setup){ .mode = CAMERA_FRONT, .fov = CAMERA_FOV, .orbit_frames = 1 };
}

static void box_centre(const double box[3], double c[3])
{
	for (int k = 0; k < 3; k++)
		c[k] = box[k] / 2;
}

int camera_check(const struct camera_setup *s, const double box[3])
{
	if (!(s->fov > 0 && s->fov < 180) || !(box[0] > 0 && box[1] > 0 && box[2] > 0) ||
	    !isfinite(box[0] + box[1] + box[2]))
		return -EINVAL;
	if (s->mode == CAMERA_ORBIT && s->orbit_frames < 1)
		return -EINVAL;
	if (s->mode != CAMERA_AT)
		return s->mode == CAMERA_FRONT || s->mode == CAMERA_ORBIT ? 0 : -EINVAL;
	double at[3], d[3];
	if (s->at_given)
		for (int k = 0; k < 3; k++)
			at[k] = s->at[k];
	else
		box_centre(box, at);
	for (int k = 0; k < 3; k++)
		d[k] = at[k] - s->eye[k];
	double len = sqrt(dot(d, d));
	return isfinite(len) && len > 0 ? 0 : -EINVAL;
}

/*
 * The camera's frame looking along fwd (unit): right = down-of-the-world x
 * fwd, so that (right, down, fwd) is right-handed like (x, y, z); looking
 * straight up or down, right is +x.
 */
static void look_along(struct camera *c, const double fwd[3])
{
	static const double world_down[3] = { 0, 1, 0 };

	for (int k = 0; k < 3; k++)
		c->fwd[k] = fwd[k];
	cross(world_down, c->fwd, c->right);
	if (normalize(c->right) < 1e-12) {
		c->right[0] = 1, c->right[1] = 0, c->right[2] = 0;
	}
	cross(c->fwd, c->right, c->down);
	normalize(c->down);
}

/* The line of sight of a preset at orbit angle a (0: the front camera). */
static void preset_fwd(double a, double elevation, double fwd[3])
{
	double e = elevation * M_PI / 180;

	/* the eye stands at centre - dist * fwd: in front (z < 0) and above (y < centre) */
	fwd[0] = -sin(a) * cos(e);
	fwd[1] = sin(e);
	fwd[2] = cos(a) * cos(e);
}

/*
 * How far from the box's centre, along -fwd, the eye must stand for every
 * corner to land inside the picture less the margin: per corner q (from
 * the centre), its offsets x = q.right and y = q.down do not change with
 * the distance t, and its depth is q.fwd + t, so |x| f / (q.fwd + t) <= half
 * width gives t >= |x| f / half width - q.fwd (the same for y).
 */
static double fit_distance(struct camera *c, const double box[3], double half_w, double half_h)
{
	double t = 0;

	for (int i = 0; i < 8; i++) {
		double q[3] = { (i & 1 ? .5 : -.5) * box[0], (i & 2 ? .5 : -.5) * box[1], (i & 4 ? .5 : -.5) * box[2] };
		double x = fabs(dot(q, c->right)), y = fabs(dot(q, c->down)), z = dot(q, c->fwd);
		t = fmax(t, fmax(x * c->focal / half_w, y * c->focal / half_h) - z);
		t = fmax(t, z + 1e-9); /* the corner stays in front of the eye, also when flat */
	}
	return t;
}

#define FIT_HALVINGS 40 /* fit_box(): halvings of the distance's interval */
#define AIM_ROUNDS 24   /* centre(): rounds of moving the aim */
#define AIM_PULL 0.7    /* of the offset moved a round (all of it overshoots: the near side moves more) */
#define NEAR_ROOM (1.25 * CAMERA_MAX_SIZE / (CAMERA_MAX_SIZE - 1)) /* t / the nearest corner's offset, at least */

/* The box's corners projected from an eye at aim - t fwd, about the picture's centre: lo[2], hi[2]. */
static void box_bounds(const struct camera *c, const double box[3], const double aim[3], double t,
                       double lo[2], double hi[2])
{
	lo[0] = lo[1] = HUGE_VAL;
	hi[0] = hi[1] = -HUGE_VAL;
	for (int i = 0; i < 8; i++) {
		double q[3] = { i & 1 ? box[0] : 0, i & 2 ? box[1] : 0, i & 4 ? box[2] : 0 };
		for (int k = 0; k < 3; k++)
			q[k] -= aim[k] - t * c->fwd[k];
		double d = dot(q, c->fwd), u = c->focal * dot(q, c->right) / d, v = c->focal * dot(q, c->down) / d;
		lo[0] = fmin(lo[0], u), hi[0] = fmax(hi[0], u);
		lo[1] = fmin(lo[1], v), hi[1] = fmax(hi[1], v);
	}
}

/*
 * At distance t, the aim (from the box's centre, moved across the line of
 * sight) that centres the box's projection; returns how far the
 * projection then reaches from the centre, in half pictures less the
 * margin (at most 1: it fits).
 */
static double centre(const struct camera *c, const double box[3], double t, double half_w, double half_h,
                     double aim[3])
{
	double lo[2], hi[2];

	box_centre(box, aim);
	for (int round = 0; round < AIM_ROUNDS; round++) {
		box_bounds(c, box, aim, t, lo, hi);
		double mu = (lo[0] + hi[0]) / 2, mv = (lo[1] + hi[1]) / 2;
		for (int k = 0; k < 3; k++) /* the offset at the aim's depth t, in field units */
			aim[k] += AIM_PULL * (mu * c->right[k] + mv * c->down[k]) * t / c->focal;
	}
	box_bounds(c, box, aim, t, lo, hi);
	return fmax(fmax(-lo[0], hi[0]) / half_w, fmax(-lo[1], hi[1]) / half_h);
}

/*
 * A preset looking along c->fwd at the box: the point it looks at (*aim)
 * and its distance (returned), as near as keeps the box's projection,
 * centred (centre()), inside the picture less the margin: it then fills
 * the picture along the side that binds.  The distance is halved down
 * from fit_distance()'s (every corner within the margin about the box's
 * centre, which perspective and the camera's height leave off-centre:
 * half the picture's height at 20 degrees), never nearer than keeps the
 * box's nearest corner at a fifth of it.  A function of the box, the
 * picture and fwd alone.
 */
static double fit_box(struct camera *c, const double box[3], double half_w, double half_h, double aim[3])
{
	double far = fit_distance(c, box, half_w, half_h), near = 0, mid[3];

	for (int i = 0; i < 8; i++) { /* the nearest corner's offset toward the eye */
		double q[3] = { (i & 1 ? .5 : -.5) * box[0], (i & 2 ? .5 : -.5) * box[1], (i & 4 ? .5 : -.5) * box[2] };
		near = fmax(near, -dot(q, c->fwd));
	}
	near *= NEAR_ROOM;
	if (near >= far || centre(c, box, near, half_w, half_h, mid) <= 1) {
		centre(c, box, fmax(near, 1e-9), half_w, half_h, aim);
		return fmax(near, 1e-9);
	}
	for (int h = 0; h < FIT_HALVINGS; h++) { /* near does not fit, far does */
		double t = (near + far) / 2;
		if (centre(c, box, t, half_w, half_h, mid) <= 1)
			far = t;
		else
			near = t;
	}
	centre(c, box, far, half_w, half_h, aim);
	return far;
}

/*
 * A preset's eye: the front camera's, looking at the box's centre from as
 * near as keeps every corner within the margin (fit_distance()), or the
 * orbit's at this frame, at the aim and distance that centre the box and
 * fill the picture (fit_box()): it comes nearer where the box looks
 * smaller, so that it fills the picture at every angle.
 */
static void preset_eye(struct camera *c, const struct camera_setup *s, const double box[3],
                       double pic_w, double pic_h, long frame)
{
	double fwd[3], aim[3], t;

	if (s->mode == CAMERA_ORBIT) {
		long n = s->orbit_frames, k = frame % n;
		preset_fwd(2 * M_PI * (double)(k < 0 ? k + n : k) / (double)n, CAMERA_ORBIT_ELEVATION, fwd);
		look_along(c, fwd);
		t = fit_box(c, box, pic_w / 2 * (1 - CAMERA_ORBIT_MARGIN), pic_h / 2 * (1 - CAMERA_ORBIT_MARGIN), aim);
	} else {
		preset_fwd(0, CAMERA_ELEVATION, fwd);
		look_along(c, fwd);
		box_centre(box, aim);
		t = fit_distance(c, box, pic_w / 2 * (1 - CAMERA_MARGIN), pic_h / 2 * (1 - CAMERA_MARGIN));
	}
	for (int k = 0; k < 3; k++)
		c->eye[k] = aim[k] - t * c->fwd[k];
	c->ref = t;
}

void camera_place(struct camera *c, const struct camera_setup *s, const double box[3],
                  double pic_w, double pic_h, long frame)
{
	double centre[3];

	box_centre(box, centre);
	c->focal = pic_h / 2 / tan(s->fov * M_PI / 360);
	c->cu = pic_w / 2;
	c->cv = pic_h / 2;
	if (s->mode == CAMERA_AT) {
		double at[3], fwd[3];
		for (int k = 0; k < 3; k++) {
			at[k] = s->at_given ? s->at[k] : centre[k];
			c->eye[k] = s->eye[k];
			fwd[k] = at[k] - s->eye[k];
		}
		c->ref = normalize(fwd);
		look_along(c, fwd);
	} else {
		preset_eye(c, s, box, pic_w, pic_h, frame);
	}
	c->near = c->ref / CAMERA_MAX_SIZE;
}

void camera_aim(struct camera *c, const double at[3], double w)
{
	double t = w * c->focal / (2 * c->cu); /* across the picture at depth t: 2 cu t / focal */

	for (int k = 0; k < 3; k++)
		c->eye[k] = at[k] - t * c->fwd[k];
	c->ref = t;
	c->near = t / CAMERA_MAX_SIZE;
}

double camera_depth(const struct camera *c, const double p[3])
{
	double q[3] = { p[0] - c->eye[0], p[1] - c->eye[1], p[2] - c->eye[2] };

	return dot(q, c->fwd);
}

int camera_project(const struct camera *c, const double p[3], double *u, double *v, double *depth)
{
	double q[3] = { p[0] - c->eye[0], p[1] - c->eye[1], p[2] - c->eye[2] };
	double d = dot(q, c->fwd);

	if (!(d > c->near) || !isfinite(d))
		return 0; /* behind the near plane, or NaN */
	double pu = c->cu + c->focal * dot(q, c->right) / d, pv = c->cv + c->focal * dot(q, c->down) / d;
	if (!isfinite(pu) || !isfinite(pv))
		return 0;
	*u = pu;
	*v = pv;
	*depth = d;
	return 1;
}

/*
 * u = f x / d: du/dt = f (x' d - x d') / d^2; the positive f / d^2 is
 * left out, only the direction matters.
 */
void camera_direction(const struct camera *c, const double p[3], const double vel[3],
                      double *du, double *dv)
{
	double q[3] = { p[0] - c->eye[0], p[1] - c->eye[1], p[2] - c->eye[2] };
	double x = dot(q, c->right), y = dot(q, c->down), d = dot(q, c->fwd);
	double vx = dot(vel, c->right), vy = dot(vel, c->down), vd = dot(vel, c->fwd);

	*du = vx * d - x * vd;
	*dv = vy * d - y * vd;
}

double camera_size(const struct camera *c, double depth)
{
	return c->ref / depth;
}

int camera_clip(const struct camera *c, double a[3], double b[3])
{
	double da = camera_depth(c, a) - c->near, db = camera_depth(c, b) - c->near;

	if (!(da > 0) && !(db > 0))
		return 0;
	if (da > 0 && db > 0)
		return 1;
	/* one end behind: move it to just in front of the plane */
	double t = da / (da - db), *behind = da > 0 ? b : a;
	t = da > 0 ? t * (1 - 1e-9) : t + (1 - t) * 1e-9;
	double m[3];
	for (int k = 0; k < 3; k++)
		m[k] = a[k] + (b[k] - a[k]) * t;
	for (int k = 0; k < 3; k++)
		behind[k] = m[k];
	return 1;
}
