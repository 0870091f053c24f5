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

#define ORBIT_SAMPLES 64 /* angles the orbit's distance is fitted at */

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
static void preset_fwd(double a, double fwd[3])
{
	double e = CAMERA_ELEVATION * M_PI / 180;

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

/* A preset's eye: the front camera, or the orbit's at this frame. */
static void preset_eye(struct camera *c, const struct camera_setup *s, const double box[3],
                       double half_w, double half_h, long frame, const double centre[3])
{
	double fwd[3], t = 0;

	if (s->mode == CAMERA_ORBIT) {
		/* one distance for the whole turn: the box neither breathes nor leaves the picture */
		for (int k = 0; k < ORBIT_SAMPLES; k++) {
			preset_fwd(2 * M_PI * k / ORBIT_SAMPLES, fwd);
			look_along(c, fwd);
			t = fmax(t, fit_distance(c, box, half_w, half_h));
		}
		long n = s->orbit_frames, k = frame % n;
		preset_fwd(2 * M_PI * (double)(k < 0 ? k + n : k) / (double)n, fwd);
		look_along(c, fwd);
	} else {
		preset_fwd(0, fwd);
		look_along(c, fwd);
		t = fit_distance(c, box, half_w, half_h);
	}
	for (int k = 0; k < 3; k++)
		c->eye[k] = centre[k] - t * c->fwd[k];
	c->ref = t;
}

void camera_place(struct camera *c, const struct camera_setup *s, const double box[3],
                  double pic_w, double pic_h, long frame)
{
	double centre[3];
	double half_w = pic_w / 2 * (1 - CAMERA_MARGIN), half_h = pic_h / 2 * (1 - CAMERA_MARGIN);

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
		preset_eye(c, s, box, half_w, half_h, frame, centre);
	}
	c->near = c->ref / CAMERA_MAX_SIZE;
}

void camera_follow(struct camera *c, const struct camera_setup *s, const double *x, const double *y,
                   const double *z, size_t n)
{
	double sum[3] = { 0, 0, 0 }, centre[3];
	size_t m = 0;

	if (s->mode != CAMERA_ORBIT)
		return;
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]) && isfinite(y[i]) && isfinite(z[i]))
			sum[0] += x[i], sum[1] += y[i], sum[2] += z[i], m++;
	if (!m)
		return; /* nothing to follow: the box's view */
	for (int k = 0; k < 3; k++)
		centre[k] = sum[k] / (double)m;
	double far2 = 0, sq = 0; /* the farthest boid's squared distance, and the mean one */
	for (size_t i = 0; i < n; i++) {
		if (!(isfinite(x[i]) && isfinite(y[i]) && isfinite(z[i])))
			continue;
		double d[3] = { x[i] - centre[0], y[i] - centre[1], z[i] - centre[2] }, d2 = dot(d, d);
		far2 = fmax(far2, d2);
		sq += d2;
	}
	double radius = fmin(sqrt(far2), CAMERA_FOLLOW_SPREAD * sqrt(sq / (double)m));
	radius = fmax(radius, CAMERA_FOLLOW_MIN * fmin(c->cu, c->cv));
	/* a sphere of radius R at distance t fills the half-angle asin(R / t) */
	double half_w = c->cu * (1 - CAMERA_MARGIN), half_h = c->cv * (1 - CAMERA_MARGIN);
	double half_angle = atan(fmin(half_w, half_h) / c->focal);
	double t = fmin(c->ref, radius / sin(half_angle));
	if (!isfinite(t))
		return;
	for (int k = 0; k < 3; k++)
		c->eye[k] = centre[k] - t * c->fwd[k];
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
