/*
 * render in 3D: the camera against a textbook look-at and perspective
 * transform written here (gluLookAt with up = -y, gluPerspective), and the
 * pictures a user would look at — where a boid lands, which of two boids
 * covers the other, how size and fog fall with depth, what is behind the
 * camera, obstacles hiding boids, trails, a 1080p picture drawn in bands
 * against the same drawn boid after boid — then the whole program: the same
 * bytes at 1 and 2 drawing threads in both draw modes, the orbit, a clip
 * that plays, options refused before any file exists.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "common.h"
#include "pngout.h"
#include "render.h"
#include "rng.h"
#include "straight.h"

#define W 320
#define H 180
#define D 180
#define BG 0x003366u
#define BOID 0x90EE90u
#define PRED 0xFFFFFFu

/* ---- the textbook camera -------------------------------------------- */

static double dot3(const double a[3], const double b[3])
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double a[3], const double b[3], double o[3])
{
	o[0] = a[1] * b[2] - a[2] * b[1];
	o[1] = a[2] * b[0] - a[0] * b[2];
	o[2] = a[0] * b[1] - a[1] * b[0];
}

static void unit3(double a[3])
{
	double l = sqrt(dot3(a, a));
	for (int k = 0; k < 3; k++)
		a[k] /= l;
}

/*
 * gluLookAt(eye, at, up = (0,-1,0)) then gluPerspective(fov, w/h): eye
 * space looks down -z; normalised device coordinates to a w x h picture
 * with v down.  Returns 0 for a point behind the eye.
 */
static int textbook(const double eye[3], const double at[3], double fov, double w, double h,
                    const double p[3], double *u, double *v, double *depth)
{
	double f[3] = { at[0] - eye[0], at[1] - eye[1], at[2] - eye[2] }, up[3] = { 0, -1, 0 }, s[3], t[3];
	double q[3] = { p[0] - eye[0], p[1] - eye[1], p[2] - eye[2] };

	unit3(f);
	cross3(f, up, s);
	unit3(s);
	cross3(s, f, t);
	double xe = dot3(s, q), ye = dot3(t, q), ze = -dot3(f, q);
	if (ze >= 0)
		return 0;
	double cot = 1 / tan(fov * M_PI / 360), aspect = w / h;
	double nx = cot / aspect * xe / -ze, ny = cot * ye / -ze;
	*u = (nx + 1) / 2 * w;
	*v = (1 - ny) / 2 * h;
	*depth = -ze;
	return 1;
}

static const double box[3] = { W, H, D };

/* The point camera c looks at: ref along its line of sight. */
static void looked_at(const struct camera *c, double at[3])
{
	for (int k = 0; k < 3; k++)
		at[k] = c->eye[k] + c->ref * c->fwd[k];
}

/* ---- camera ----------------------------------------------------------- */

/* Every kind of camera projects as the textbook does. */
Test(camera, projects_as_the_textbook)
{
	struct camera_setup s;
	struct camera c;
	struct rng r;
	rng_seed(&r, 7);
	for (int kind = 0; kind < 4; kind++) {
		camera_setup_default(&s);
		s.fov = 30 + 20 * kind;
		if (kind == 1)
			s.mode = CAMERA_ORBIT, s.orbit_frames = 12;
		if (kind >= 2) {
			s.mode = CAMERA_AT;
			double eye[3] = { -100, -50, -300 }, at[3] = { 200, 120, 40 };
			memcpy(s.eye, eye, sizeof(eye));
			memcpy(s.at, at, sizeof(at));
			s.at_given = kind == 3;
		}
		camera_place(&c, &s, box, W, H, 5);
		double at[3] = { W / 2., H / 2., D / 2. }; /* the front camera's */
		if (kind == 1)
			looked_at(&c, at); /* the orbit's: where it frames the box from */
		if (kind == 3)
			memcpy(at, s.at, sizeof(at));
		for (int i = 0; i < 200; i++) {
			double p[3] = { W * rng_uniform(&r), H * rng_uniform(&r), D * rng_uniform(&r) }, u, v, d, tu, tv, td;
			int seen = camera_project(&c, p, &u, &v, &d);
			cr_assert(textbook(c.eye, at, s.fov, W, H, p, &tu, &tv, &td) || !seen);
			if (!seen)
				continue;
			cr_expect(fabs(u - tu) < 1e-7 && fabs(v - tv) < 1e-7 && fabs(d - td) < 1e-7,
			          "camera %d: (%g, %g) at %g, the textbook (%g, %g) at %g", kind, u, v, d, tu, tv, td);
		}
	}
}

/* The point looked at lands at the picture's centre; a point on the camera's right, right of it. */
Test(camera, target_at_centre_and_right_is_right)
{
	struct camera_setup s;
	struct camera c;
	double u, v, d;
	camera_setup_default(&s);
	camera_place(&c, &s, box, W, H, 0);
	double centre[3] = { W / 2., H / 2., D / 2. }, right[3] = { W / 2. + 50, H / 2., D / 2. };
	double below[3] = { W / 2., H / 2. + 50, D / 2. };
	cr_assert(camera_project(&c, centre, &u, &v, &d));
	cr_expect(fabs(u - W / 2.) < 1e-9 && fabs(v - H / 2.) < 1e-9, "the centre at (%g, %g)", u, v);
	cr_expect(fabs(d - c.ref) < 1e-9, "its depth %g is the reference %g", d, c.ref);
	cr_assert(camera_project(&c, right, &u, &v, &d));
	cr_expect(u > W / 2. + 10 && fabs(v - H / 2.) < 1e-9, "+x lands at (%g, %g)", u, v);
	cr_assert(camera_project(&c, below, &u, &v, &d));
	cr_expect(v > H / 2. + 10 && fabs(u - W / 2.) < 1e-9, "+y (down) lands at (%g, %g)", u, v);
}

/* The front camera: in front of the box, 20 degrees above its centre, the whole box in the picture, snugly. */
Test(camera, front_sees_the_whole_box)
{
	struct camera_setup s;
	struct camera c;
	camera_setup_default(&s);
	cr_assert_eq(camera_check(&s, box), 0);
	camera_place(&c, &s, box, W, H, 0);
	cr_expect_lt(c.eye[2], 0, "in front: z %g", c.eye[2]);
	cr_expect(fabs(c.eye[0] - W / 2.) < 1e-9, "centred: x %g", c.eye[0]);
	double up = H / 2. - c.eye[1], back = D / 2. - c.eye[2];
	cr_expect(fabs(atan2(up, back) * 180 / M_PI - 20) < 1e-9, "elevation %g", atan2(up, back) * 180 / M_PI);
	double worst = 1; /* the least margin any corner keeps, as a fraction of the half picture */
	for (int i = 0; i < 8; i++) {
		double p[3] = { i & 1 ? W : 0, i & 2 ? H : 0, i & 4 ? D : 0 }, u, v, d;
		cr_assert(camera_project(&c, p, &u, &v, &d), "corner %d behind the camera", i);
		cr_expect(u >= 0 && u <= W && v >= 0 && v <= H, "corner %d at (%g, %g)", i, u, v);
		worst = fmin(worst, fmin(1 - fabs(u - W / 2.) / (W / 2.), 1 - fabs(v - H / 2.) / (H / 2.)));
	}
	cr_expect(fabs(worst - CAMERA_MARGIN) < 1e-9, "the nearest corner keeps %g of the picture, not %g", worst,
	          CAMERA_MARGIN);
}

/*
 * The orbit: one turn every orbit_frames frames, a function of the frame
 * alone, looking down CAMERA_ORBIT_ELEVATION degrees; at every angle the
 * box, projected by the textbook from the camera's eye and the point it
 * looks at, lies inside the picture, centred, and spans at least 80% of
 * its height (the shorter side), along the binding side within a pixel of
 * the margin.
 */
Test(camera, orbit_is_a_function_of_the_frame_and_fills_the_picture)
{
	struct camera_setup s;
	struct camera c[4];
	camera_setup_default(&s);
	s.mode = CAMERA_ORBIT;
	s.orbit_frames = 8;
	camera_place(&c[0], &s, box, W, H, 0);
	camera_place(&c[1], &s, box, W, H, 2);  /* a quarter turn */
	camera_place(&c[2], &s, box, W, H, 10); /* the same place a turn later */
	camera_place(&c[3], &s, box, W, H, 4);  /* half a turn: behind the box */
	cr_expect(memcmp(&c[1], &c[2], sizeof(c[1])) == 0, "frame 10 is not frame 2 of an 8-frame turn");
	cr_expect(c[0].eye[2] < 0 && fabs(c[0].eye[0] - W / 2.) < 1e-6, "frame 0 is in front");
	cr_expect(c[1].eye[0] > W && fabs(c[1].eye[2] - D / 2.) < 1e-6, "a quarter turn: on the +x side");
	cr_expect(c[3].eye[2] > D, "half a turn: behind");
	s.orbit_frames = 48;
	for (int k = 0; k < 48; k++) {
		struct camera o;
		double at[3], lo[2] = { HUGE_VAL, HUGE_VAL }, hi[2] = { -HUGE_VAL, -HUGE_VAL };
		camera_place(&o, &s, box, W, H, k);
		looked_at(&o, at);
		cr_expect(fabs(o.fwd[1] - sin(CAMERA_ORBIT_ELEVATION * M_PI / 180)) < 1e-12, "frame %d looks down %g", k,
		          asin(o.fwd[1]) * 180 / M_PI);
		cr_expect(fabs(atan2(-o.fwd[0], o.fwd[2]) - remainder(2 * M_PI * k / 48, 2 * M_PI)) < 1e-9,
		          "frame %d: turned %g", k, atan2(-o.fwd[0], o.fwd[2]));
		for (int i = 0; i < 8; i++) {
			double p[3] = { i & 1 ? W : 0, i & 2 ? H : 0, i & 4 ? D : 0 }, u, v, d;
			cr_assert(textbook(o.eye, at, s.fov, W, H, p, &u, &v, &d));
			lo[0] = fmin(lo[0], u), hi[0] = fmax(hi[0], u), lo[1] = fmin(lo[1], v), hi[1] = fmax(hi[1], v);
		}
		double mw = W * CAMERA_ORBIT_MARGIN, mh = H * CAMERA_ORBIT_MARGIN / 2;
		cr_expect(lo[0] >= mw / 2 - 1e-6 && hi[0] <= W - mw / 2 + 1e-6 && lo[1] >= mh - 1e-6 &&
		          hi[1] <= H - mh + 1e-6, "frame %d: the box from (%g, %g) to (%g, %g)", k, lo[0], lo[1], hi[0], hi[1]);
		cr_expect(fabs(lo[0] + hi[0] - W) < 1e-3 && fabs(lo[1] + hi[1] - H) < 1e-3, "frame %d: off-centre", k);
		cr_expect_geq(hi[1] - lo[1], .8 * H, "frame %d: the box spans %g of %d rows", k, hi[1] - lo[1], H);
		cr_expect(lo[0] < mw / 2 + 1 || lo[1] < mh + 1, "frame %d: the box could come nearer", k);
	}
}

/* The heading: the direction the projected point moves, as a finite difference of the projection. */
Test(camera, direction_follows_the_projection)
{
	struct camera_setup s;
	struct camera c;
	struct rng r;
	camera_setup_default(&s);
	s.mode = CAMERA_ORBIT;
	s.orbit_frames = 7;
	camera_place(&c, &s, box, W, H, 3);
	rng_seed(&r, 3);
	for (int i = 0; i < 100; i++) {
		double p[3] = { W * rng_uniform(&r), H * rng_uniform(&r), D * rng_uniform(&r) };
		double vel[3] = { rng_uniform(&r) - .5, rng_uniform(&r) - .5, rng_uniform(&r) - .5 };
		double q[3], u0, v0, u1, v1, d, du, dv, h = 1e-6;
		for (int k = 0; k < 3; k++)
			q[k] = p[k] + h * vel[k];
		cr_assert(camera_project(&c, p, &u0, &v0, &d) && camera_project(&c, q, &u1, &v1, &d));
		camera_direction(&c, p, vel, &du, &dv);
		double a = atan2(dv, du), b = atan2(v1 - v0, u1 - u0);
		cr_expect(fabs(remainder(a - b, 2 * M_PI)) < 1e-5, "direction %g, the projection moves %g", a, b);
	}
}

/* Behind the camera, or on its near plane, nothing projects; size is ref / depth. */
Test(camera, behind_and_near_are_not_projected)
{
	struct camera_setup s;
	struct camera c;
	double u, v, d;
	camera_setup_default(&s);
	s.mode = CAMERA_AT;
	s.eye[0] = W / 2., s.eye[1] = H / 2., s.eye[2] = -200; /* looks along +z at the centre */
	camera_place(&c, &s, box, W, H, 0);
	double ref = D / 2. + 200;
	cr_expect(fabs(c.ref - ref) < 1e-9);
	double behind[3] = { W / 2., H / 2., -250 }, near[3] = { W / 2., H / 2., -200 + ref / 16 - 1e-6 };
	double past[3] = { W / 2., H / 2., -200 + ref / 16 + 1e-6 }, nan3[3] = { NAN, 0, 0 };
	cr_expect(!camera_project(&c, behind, &u, &v, &d));
	cr_expect(!camera_project(&c, near, &u, &v, &d));
	cr_expect(!camera_project(&c, nan3, &u, &v, &d));
	cr_expect(camera_project(&c, past, &u, &v, &d));
	cr_expect(fabs(camera_size(&c, 2 * ref) - .5) < 1e-12 && fabs(camera_size(&c, ref) - 1) < 1e-12);
	double a[3] = { W / 2., H / 2., 0 }, b[3] = { W / 2., H / 2., -300 };
	cr_expect(camera_clip(&c, a, b), "half in front");
	cr_expect(camera_project(&c, b, &u, &v, &d) && d <= ref / 16 * 1.000001, "cut at the near plane: %g", d);
	double e[3] = { 0, 0, -300 }, f[3] = { 10, 0, -250 };
	cr_expect(!camera_clip(&c, e, f), "wholly behind");
	s.eye[0] = W / 2., s.eye[1] = H / 2., s.eye[2] = D / 2.;
	cr_expect_eq(camera_check(&s, box), -EINVAL, "an eye on the point it looks at");
	s.eye[2] = 0;
	s.fov = 180;
	cr_expect_eq(camera_check(&s, box), -EINVAL, "a field of view of 180");
}

/* ---- pictures ---------------------------------------------------------- */

struct pic {
	struct renderer *r;
	const unsigned char *px;
	int stride;
};

/* Parameters for a W x H picture of discs (the circle shape: centred on the point), no fog, no box edges or ground. */
static void params_3d(struct render_params *p)
{
	render_params_default(p, W, H);
	p->shape = RENDER_CIRCLE;
	p->fog = 0;
	p->box_edges = p->ground = 0;
	p->camera.mode = CAMERA_AT; /* along +z from 200 in front, at the centre */
	p->camera.eye[0] = W / 2., p->camera.eye[1] = H / 2., p->camera.eye[2] = -200;
}

static void draw3(struct pic *pic, const struct render_params *p, size_t n, size_t predators, const double *x,
                  const double *y, const double *z)
{
	static const double zero[8];
	struct render_view v = { .n = n, .predators = predators, .x = x, .y = y, .z = z,
	                         .vx = zero, .vy = zero, .vz = zero };
	cr_assert_leq(n, 8);
	cr_assert_eq(render_new(&pic->r, p), 0);
	cr_assert_eq(render_frame(pic->r, &v), 0);
	pic->px = render_pixels(pic->r, &pic->stride);
}

static uint32_t pixel(const struct pic *pic, int x, int y)
{
	uint32_t v;
	memcpy(&v, pic->px + (size_t)y * (size_t)pic->stride + 4 * (size_t)x, 4);
	return v & 0xFFFFFF;
}

/* Pixels that are not the background, and the centroid of the boid colour's coverage. */
static long lit(const struct pic *pic, double *cx, double *cy)
{
	long n = 0;
	double sx = 0, sy = 0, sw = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			uint32_t c = pixel(pic, x, y);
			double num = 0, den = 0;
			n += c != BG;
			for (int sh = 16; sh >= 0; sh -= 8) {
				double g = BG >> sh & 255, d = (double)(BOID >> sh & 255) - g;
				num += ((double)(c >> sh & 255) - g) * d;
				den += d * d;
			}
			double w = fmin(1, fmax(0, num / den));
			sx += w * (x + .5);
			sy += w * (y + .5);
			sw += w;
		}
	if (cx)
		*cx = sw > 0 ? sx / sw : NAN;
	if (cy)
		*cy = sw > 0 ? sy / sw : NAN;
	return n;
}

/* A boid where the camera looks is drawn at the picture's centre; one to its right, right of it. */
Test(render3d, boid_lands_where_the_textbook_projects)
{
	struct render_params p;
	struct pic a, b;
	double cx, cy, x = W / 2., y = H / 2., z = D / 2.;
	params_3d(&p);
	p.camera.mode = CAMERA_FRONT;
	p.boid_size = 3;
	draw3(&a, &p, 1, 0, &x, &y, &z);
	cr_assert_gt(lit(&a, &cx, &cy), 10);
	cr_expect(fabs(cx - W / 2.) < .05 && fabs(cy - H / 2.) < .05, "drawn at (%g, %g)", cx, cy);
	x += 60;
	z -= 40;
	draw3(&b, &p, 1, 0, &x, &y, &z);
	struct camera c;
	double u, v, d, at[3] = { W / 2., H / 2., D / 2. }, pt[3] = { x, y, z };
	camera_place(&c, &p.camera, box, W, H, 0);
	cr_assert(textbook(c.eye, at, p.camera.fov, W, H, pt, &u, &v, &d));
	cr_assert_gt(lit(&b, &cx, &cy), 10);
	cr_expect(cx > W / 2. + 20, "right of centre: %g", cx);
	cr_expect(fabs(cx - u) < .05 && fabs(cy - v) < .05, "drawn at (%g, %g), projected to (%g, %g)", cx, cy, u, v);
	render_free(a.r);
	render_free(b.r);
}

/* Two boids on one line of sight: the nearer covers the farther, whichever comes first in the flock. */
Test(render3d, nearer_boid_drawn_over_farther)
{
	struct render_params p;
	params_3d(&p);
	for (int order = 0; order < 2; order++) {
		struct pic a;
		double x[2] = { W / 2., W / 2. }, y[2] = { H / 2., H / 2. }, z[2];
		z[0] = order ? 40 : 140; /* boid 0 is the predator (white) */
		z[1] = order ? 140 : 40;
		draw3(&a, &p, 2, 1, x, y, z);
		uint32_t want = order ? PRED : BOID; /* the nearer one's colour */
		cr_expect_eq(pixel(&a, W / 2, H / 2), want, "order %d: %06x at the centre", order, pixel(&a, W / 2, H / 2));
		render_free(a.r);
	}
}

/* A boid twice as deep is drawn at half the size: a quarter of the area. */
Test(render3d, size_falls_with_depth)
{
	struct render_params p;
	struct pic a, b;
	double x = W / 2., y = H / 2., z1 = 40, z2 = 2 * (40 + 200) - 200; /* depths 240 and 480 */
	params_3d(&p);
	p.boid_size = 4; /* discs of radius 16 at 2D size */
	draw3(&a, &p, 1, 0, &x, &y, &z1);
	draw3(&b, &p, 1, 0, &x, &y, &z2);
	double na = (double)lit(&a, NULL, NULL), nb = (double)lit(&b, NULL, NULL);
	double ref = D / 2. + 200, ra = 16 * ref / 240, rb = 16 * ref / 480;
	cr_expect(fabs(na - M_PI * ra * ra) < 2 * M_PI * ra, "near: %g pixels for radius %g", na, ra);
	cr_expect(fabs(nb - M_PI * rb * rb) < 2 * M_PI * rb, "far: %g pixels for radius %g", nb, rb);
	render_free(a.r);
	render_free(b.r);
}

/* Behind the camera or on its near plane: not drawn at all. */
Test(render3d, boid_behind_the_camera_is_not_drawn)
{
	struct render_params p;
	struct pic a, b, c;
	double x = W / 2., y = H / 2., behind = -300, on = -200 + (D / 2. + 200) / 16 - .01, front = 0;
	params_3d(&p);
	draw3(&a, &p, 1, 0, &x, &y, &behind);
	draw3(&b, &p, 1, 0, &x, &y, &on);
	draw3(&c, &p, 1, 0, &x, &y, &front);
	cr_expect_eq(lit(&a, NULL, NULL), 0, "behind the camera");
	cr_expect_eq(lit(&b, NULL, NULL), 0, "just short of the near plane");
	cr_expect_gt(lit(&c, NULL, NULL), 0, "in front");
	render_free(a.r);
	render_free(b.r);
	render_free(c.r);
}

/* rgb moved the fraction t toward the background, each channel rounded. */
static uint32_t toward_bg(uint32_t rgb, double t)
{
	uint32_t out = 0;
	for (int sh = 16; sh >= 0; sh -= 8) {
		double c = rgb >> sh & 255, g = BG >> sh & 255;
		out |= (uint32_t)lround(c + t * (g - c)) << sh;
	}
	return out;
}

/*
 * Fog over the flock's own depths: mean -+ 2 standard deviations, so of
 * two boids the nearer sits a quarter of the way in (fog x 1/4 of the way
 * to the background) and the farther three quarters, whether they are the
 * box's depth apart or 20 pixels; fog 0 keeps the colours.
 */
Test(render3d, fog_shades_the_flock_front_to_back)
{
	struct render_params p;
	params_3d(&p);
	p.boid_size = 3;
	for (int k = 0; k < 3; k++) {
		struct pic a;
		double x[2] = { W / 2. - 40, W / 2. + 40 }, y[2] = { H / 2., H / 2. };
		double z[2] = { k == 1 ? 80 : 0, k == 1 ? 100 : D }; /* depths 200 and 380, or 280 and 300 */
		p.fog = k == 2 ? 0 : .6;
		draw3(&a, &p, 2, 0, x, y, z);
		struct camera c;
		double u[2], v[2], d;
		camera_place(&c, &p.camera, box, W, H, 0);
		for (int i = 0; i < 2; i++)
			cr_assert(camera_project(&c, (double[3]){ x[i], y[i], z[i] }, &u[i], &v[i], &d));
		uint32_t near = pixel(&a, (int)u[0], (int)v[0]), far = pixel(&a, (int)u[1], (int)v[1]);
		uint32_t want_near = toward_bg(BOID, p.fog / 4), want_far = toward_bg(BOID, p.fog * 3 / 4);
		cr_expect_eq(near, want_near, "case %d: near %06x, not %06x", k, near, want_near);
		cr_expect_eq(far, want_far, "case %d: far %06x, not %06x", k, far, want_far);
		render_free(a.r);
	}
}

/* An obstacle sphere hides a boid behind it and not one in front of it. */
Test(render3d, sphere_hides_what_is_behind)
{
	struct render_params p;
	struct render_circle ob = { .x = W / 2., .y = H / 2., .z = D / 2., .r = 20 };
	params_3d(&p);
	p.obstacles = &ob;
	p.obstacles_n = 1;
	for (int k = 0; k < 2; k++) {
		struct pic a;
		double x = W / 2., y = H / 2., z = k ? D / 2. + 40 : D / 2. - 40;
		draw3(&a, &p, 1, 0, &x, &y, &z);
		uint32_t c = pixel(&a, W / 2, H / 2);
		if (k)
			cr_expect(c != BOID && c != BG, "behind the sphere: %06x", c);
		else
			cr_expect_eq(c, BOID, "in front of the sphere: %06x", c);
		render_free(a.r);
	}
}

/* A 3D trail is drawn between the projected points; a jump across the depth (a wrap) is not. */
Test(render3d, trail_projected_and_wrap_left_out)
{
	struct render_params p;
	params_3d(&p);
	for (int wrap = 0; wrap < 2; wrap++) {
		double x = W / 2., y = H / 2., z = -500, zero = 0; /* the boid itself behind the camera */
		double tx[2] = { 100, 220 }, ty[2] = { H / 2., H / 2. }, tz[2] = { 90, 90 };
		if (wrap)
			tz[0] = 5, tz[1] = D - 5;
		struct render_view v = { .n = 1, .x = &x, .y = &y, .z = &z, .vx = &zero, .vy = &zero, .vz = &zero,
		                         .trail_len = 2, .trail_x = tx, .trail_y = ty, .trail_z = tz };
		struct pic a;
		cr_assert_eq(render_new(&a.r, &p), 0);
		cr_assert_eq(render_frame(a.r, &v), 0);
		a.px = render_pixels(a.r, &a.stride);
		long n = lit(&a, NULL, NULL);
		if (wrap)
			cr_expect_eq(n, 0, "a jump across the box drawn: %ld pixels", n);
		else
			cr_expect_gt(n, 50, "no trail: %ld pixels", n);
		render_free(a.r);
	}
}

/* n boids at seeded random places and headings in the box. */
static double *flock3(size_t n, uint64_t seed)
{
	double *f = malloc(6 * n * sizeof(double));
	struct rng r;
	cr_assert_not_null(f);
	rng_seed(&r, seed);
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 6; k++)
			f[(size_t)k * n + i] = k < 3 ? box[k] * rng_uniform(&r) : 4 * (rng_uniform(&r) - .5);
	return f;
}

/* --draw fast in 3D covers what exact does (IoU of the covered pixels), boids too big for its buffer too. */
Test(render3d, fast_covers_what_exact_covers)
{
	size_t n = 120;
	double *f = flock3(n, 11);
	f[2 * n] = -130; /* boid 0 near the camera: about 8 times its size */
	struct render_view v = { .n = n, .x = f, .y = f + n, .z = f + 2 * n, .vx = f + 3 * n, .vy = f + 4 * n,
	                         .vz = f + 5 * n };
	struct render_params p;
	struct pic e, a;
	params_3d(&p);
	p.shape = RENDER_CURVE;
	cr_assert_eq(render_new(&e.r, &p), 0);
	p.draw = RENDER_DRAW_FAST;
	cr_assert_eq(render_new(&a.r, &p), 0);
	cr_assert_eq(render_frame(e.r, &v), 0);
	cr_assert_eq(render_frame(a.r, &v), 0);
	e.px = render_pixels(e.r, &e.stride);
	a.px = render_pixels(a.r, &a.stride);
	long both = 0, either = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int ce = pixel(&e, x, y) != BG, ca = pixel(&a, x, y) != BG;
			both += ce && ca;
			either += ce || ca;
		}
	cr_expect_gt(either, 1000);
	cr_expect_geq((double)both / (double)either, .99, "IoU %g", (double)both / (double)either);
	render_free(e.r);
	render_free(a.r);
	free(f);
}

/* A 2D view (no z) is drawn exactly as before, whatever the 3D settings. */
Test(render3d, three_d_settings_change_no_2d_pixel)
{
	size_t n = 60;
	double *f = flock3(n, 5);
	struct render_view v = { .n = n, .predators = 2, .x = f, .y = f + n, .vx = f + 3 * n, .vy = f + 4 * n };
	struct render_params p;
	struct pic a, b;
	render_params_default(&p, W, H);
	cr_assert_eq(render_new(&a.r, &p), 0);
	p.camera.mode = CAMERA_ORBIT;
	p.camera.orbit_frames = 3;
	p.camera.fov = 80;
	p.fog = 1;
	p.box_edges = p.ground = 1;
	cr_assert_eq(render_new(&b.r, &p), 0);
	cr_assert_eq(render_frame(a.r, &v), 0);
	cr_assert_eq(render_frame(b.r, &v), 0);
	a.px = render_pixels(a.r, &a.stride);
	b.px = render_pixels(b.r, &b.stride);
	cr_expect_eq(memcmp(a.px, b.px, (size_t)a.stride * (size_t)H), 0);
	render_free(a.r);
	render_free(b.r);
	free(f);
}

/*
 * --ground-cells: the floor's grid of a box seen from the front, alone
 * (no boids, box edges or fog): 10 cells by default, and more cells are
 * more lines, so more pixels off the background; one cell is the floor's
 * outline alone.
 */
Test(render3d, ground_cells_set_the_floors_grid)
{
	static const double none[1];
	struct render_view v = { .n = 0, .x = none, .y = none, .z = none, .vx = none, .vy = none, .vz = none };
	long count[3];
	const unsigned char *px[3];
	struct pic pic[3];
	const int cells[3] = { 10, 1, 40 };

	for (int k = 0; k < 3; k++) {
		struct render_params p;
		render_params_default(&p, W, H);
		p.box_edges = 0, p.fog = 0;
		if (k)
			p.ground_cells = cells[k];
		cr_assert_eq(render_new(&pic[k].r, &p), 0);
		cr_assert_eq(render_frame(pic[k].r, &v), 0);
		px[k] = pic[k].px = render_pixels(pic[k].r, &pic[k].stride);
		count[k] = 0;
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++)
				count[k] += pixel(&pic[k], x, y) != p.background;
	}
	cr_expect(count[1] > 0 && count[1] < count[0] && count[0] < count[2],
	          "lit pixels: 1 cell %ld, 10 (default) %ld, 40 %ld", count[1], count[0], count[2]);
	struct render_params p;
	render_params_default(&p, W, H);
	p.box_edges = 0, p.fog = 0, p.ground_cells = 10;
	struct pic ten;
	cr_assert_eq(render_new(&ten.r, &p), 0);
	cr_assert_eq(render_frame(ten.r, &v), 0);
	ten.px = render_pixels(ten.r, &ten.stride);
	cr_expect_eq(memcmp(ten.px, px[0], (size_t)ten.stride * (size_t)H), 0, "the default is 10 cells");
	render_free(ten.r);
	for (int k = 0; k < 3; k++)
		render_free(pic[k].r);
}

/*
 * A 3D picture above 1 MB is drawn in bands (the boids back to front, in
 * runs between the obstacles) and keeps every byte of boid after boid, in
 * both modes: the box and ground under the flock, spheres among it, fog,
 * predators, the front and the orbit camera, boids across the picture's
 * edges, the nearest boids too big for a mask (drawn boid after boid after
 * the bands), a noise background painted band by band; and a flock of
 * more boids than the renderer hands on at a time (65,536: part after
 * part, back to front), spheres among them.
 */
enum { FRONT, ORBIT, NEAR };

Test(render3d, bands_keep_every_byte_at_1080p)
{
	static const struct {
		double scale;
		int cam; /* FRONT, ORBIT, or NEAR: the front camera with boid 0 close to it */
		enum render_shape shape;
		enum render_grid grid;
		enum render_background bg;
		int decor; /* box edges, ground, two spheres */
		size_t n;
	} c[] = {
		{ 1, FRONT, RENDER_CURVE, RENDER_GRID_CAIRO, RENDER_BG_FLAT, 1, 3000 },
		{ 2, ORBIT, RENDER_ARROW, RENDER_GRID_GDI, RENDER_BG_NOISE, 0, 3000 },
		{ 1, NEAR, RENDER_CURVE, RENDER_GRID_CAIRO, RENDER_BG_FLAT, 1, 3000 },
		{ 1.5, FRONT, RENDER_CIRCLE, RENDER_GRID_CAIRO, RENDER_BG_FLAT, 0, 3000 },
		{ 1, FRONT, RENDER_CURVE, RENDER_GRID_CAIRO, RENDER_BG_FLAT, 1, 70000 },
	};

	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		size_t n = c[k].n;
		struct render_params p;
		double side[3] = { 1920 / c[k].scale, 1080 / c[k].scale, 1080 / c[k].scale };
		struct render_circle ob[2] = { { side[0] * .3, side[1] * .5, side[1] * .1, side[2] * .3 },
		                               { side[0] * .6, side[1] * .4, side[1] * .15, side[2] * .7 } };
		double *f = malloc(6 * n * sizeof(double));
		struct rng g;
		cr_assert_not_null(f);
		rng_seed(&g, 90 + k);
		for (size_t i = 0; i < n; i++) /* a tenth of a side past the box on every side */
			for (int a = 0; a < 6; a++)
				f[(size_t)a * n + i] = a < 3 ? side[a] * (1.2 * rng_uniform(&g) - .1) : 4 * (rng_uniform(&g) - .5);
		render_params_default(&p, 1920, 1080);
		p.scale = c[k].scale, p.shape = c[k].shape, p.grid = c[k].grid, p.background_style = c[k].bg;
		p.predator_size = 1.5;
		memcpy(p.box, side, sizeof(side));
		if (c[k].decor)
			p.box_edges = p.ground = 1, p.obstacles = ob, p.obstacles_n = 2;
		struct render_view v = { .n = n, .predators = 6, .x = f, .y = f + n, .z = f + 2 * n,
		                         .vx = f + 3 * n, .vy = f + 4 * n, .vz = f + 5 * n, .frame = 7 };
		if (c[k].cam == ORBIT)
			p.camera.mode = CAMERA_ORBIT, p.camera.orbit_frames = 30;
		if (c[k].cam == NEAR) { /* boid 0 a sixth of the way from the camera to the box's centre */
			struct camera cam;
			camera_place(&cam, &p.camera, p.box, side[0], side[1], 0);
			for (int a = 0; a < 3; a++)
				f[(size_t)a * n] = cam.eye[a] + (side[a] / 2 - cam.eye[a]) / 6;
		}
		for (int m = 0; m < 2; m++) {
			p.draw = m ? RENDER_DRAW_FAST : RENDER_DRAW_EXACT;
			long differ = straight_differs(&p, &v);
			cr_expect_eq(differ, 0, "case %zu, %s: %ld pixels differ from boid after boid", k,
			             m ? "fast" : "exact", differ);
		}
		free(f);
	}
}

/* ---- the program ------------------------------------------------------- */

TestSuite(render3d_cli, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup, .timeout = 120);

/* The same bytes at 1 and 2 drawing threads and run to run, both draw modes, the orbit, every extra. */
Test(render3d_cli, same_bytes_at_any_thread_count)
{
	const char *modes[] = { "exact", "fast" };
	for (int m = 0; m < 2; m++) {
		const char *args = "-q -y --dims 3 -n 150 -f 4 --camera orbit --box --ground --trail 3 "
		                   "--obstacle 100,90,20";
		cr_assert_eq(tc_boids("%s --draw %s --threads 1 -o a.y4m", args, modes[m]), 0, "%s", tc_stderr());
		cr_assert_eq(tc_boids("%s --draw %s --threads 2 -o b.y4m", args, modes[m]), 0, "%s", tc_stderr());
		cr_assert_eq(tc_boids("%s --draw %s --threads 2 -o c.y4m", args, modes[m]), 0, "%s", tc_stderr());
		cr_expect(tc_same_file("a.y4m", "b.y4m"), "--draw %s: 1 and 2 threads differ", modes[m]);
		cr_expect(tc_same_file("b.y4m", "c.y4m"), "--draw %s: two runs differ", modes[m]);
	}
	cr_assert_eq(tc_boids("-q -y -n 150 -f 4 -o d.y4m"), 0);
	cr_expect(!tc_same_file("a.y4m", "d.y4m"), "3D looks like 2D");
}

/* The orbit turns with the frame number: frames of one clip differ, and the camera's place is each frame's own. */
Test(render3d_cli, orbit_turns_over_the_clip)
{
	cr_assert_eq(tc_boids("-q --dims 3 -n 50 -f 4 --camera orbit --box --threads 2 -o o_%%d.png"), 0, "%s",
	             tc_stderr());
	cr_assert_eq(tc_boids("-q --dims 3 -n 50 -f 4 --box --threads 2 -o f_%%d.png"), 0, "%s", tc_stderr());
	cr_expect(!tc_same_file("o_0.png", "o_2.png"), "the orbit does not move");
	cr_expect(!tc_same_file("f_0.png", "o_0.png"), "the orbit's distance is the front camera's");
	/* a still of frame 2 alone: the camera's place comes from the frame's number, not the drawing order */
	cr_assert_eq(tc_boids("-q --dims 3 -n 50 -f 4 --camera orbit --box --poster 2 -o still.png"), 0, "%s",
	             tc_stderr());
	cr_expect(tc_same_file("o_2.png", "still.png"), "frame 2 drawn alone differs from frame 2 of the clip");
}

/* A 3D clip plays: ffprobe reads every frame of it at its size. */
Test(render3d_cli, clip_plays)
{
	cr_assert_eq(tc_boids("-q -m steering --dims 3 -f 12 --box -o flock3d.mp4"), 0, "%s", tc_stderr());
	cr_assert_eq(tc_sh("ffprobe -v error -count_frames -select_streams v:0 "
	                   "-show_entries stream=codec_name,width,height,nb_read_frames -of csv=p=0 flock3d.mp4 > p.txt"),
	             0);
	char *p = tc_slurp("p.txt", NULL);
	cr_assert_not_null(p);
	cr_expect_str_eq(p, "h264,640,360,12\n");
	free(p);
}

/* Camera values that cannot be drawn are refused before any file exists. */
Test(render3d_cli, bad_cameras_refused)
{
	const char *bad[] = { "--camera 1,2", "--camera behind", "--camera 1,2,3,4", "--camera 320,180,180",
	                      "--camera 1,2,3,1,2,3", "--fov 0", "--fov 180", "--fog 1.5", "--fog -0.1" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_expect_eq(tc_boids("--dims 3 -f 1 %s -o x.png", bad[i]), 2, "%s", bad[i]);
		cr_expect(strncmp(tc_stderr(), "boids: --", 9) == 0 && strchr(tc_stderr(), '\n') ==
		          tc_stderr() + strlen(tc_stderr()) - 1, "%s: %s", bad[i], tc_stderr());
		cr_expect_eq(tc_count_files("."), 0, "%s left a file", bad[i]);
	}
	cr_assert_eq(tc_boids("--camera 10,-50,-400,320,180,90 --print-config"), 0);
	char *c = strdup(tc_stdout());
	FILE *f = fopen("c.conf", "w");
	cr_assert(c && f);
	fputs(c, f);
	fclose(f);
	cr_expect(strstr(c, "camera = 10,-50,-400,320,180,90\n"), "%s", c);
	cr_assert_eq(tc_boids("--config c.conf --print-config"), 0);
	cr_expect_str_eq(tc_stdout(), c, "--camera does not read back");
	free(c);
}

/*
 * The program draws the 3D state it is given: a flock read from a 3D
 * trajectory file (--init) is the picture render_frame() makes of those
 * arrays, byte for byte (the same PNG): z, vz and the predators carried
 * through the pipeline's slots, the orbit placed for a clip of 3 frames.
 */
Test(render3d_cli, pipeline_draws_the_state_of_the_file)
{
	enum { N = 40 };
	double f[6][N];
	struct rng r;
	rng_seed(&r, 9);
	FILE *csv = fopen("s.csv", "w");
	cr_assert_not_null(csv);
	fprintf(csv, "frame,id,x,y,vx,vy,z,vz\n");
	for (int i = 0; i < N; i++) {
		for (int k = 0; k < 6; k++)
			f[k][i] = k < 3 ? (k == 0 ? 640 : 360) * rng_uniform(&r) : 4 * (rng_uniform(&r) - .5);
		fprintf(csv, "0,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", i, f[0][i], f[1][i], f[3][i], f[4][i],
		        f[2][i], f[5][i]);
	}
	cr_assert_eq(fclose(csv), 0);
	cr_assert_eq(tc_boids("-q --init s.csv --predators 2 -f 3 --poster 0 --camera orbit --box --ground "
	                      "--fog 0.4 -o a.png"), 0, "%s", tc_stderr());
	struct render_params p;
	struct renderer *rd;
	int stride;
	render_params_default(&p, 640, 360);
	p.camera.mode = CAMERA_ORBIT;
	p.camera.orbit_frames = 3;
	p.box_edges = p.ground = 1;
	p.fog = .4;
	struct render_view v = { .n = N, .predators = 2, .x = f[0], .y = f[1], .z = f[2], .vx = f[3], .vy = f[4],
	                         .vz = f[5], .frame = 0 };
	cr_assert_eq(render_new(&rd, &p), 0);
	cr_assert_eq(render_frame(rd, &v), 0);
	const unsigned char *px = render_pixels(rd, &stride);
	unsigned char *png;
	size_t len, got_len;
	cr_assert_eq(pngout_write_mem(&png, &len, 640, 360, stride, px, PNGOUT_DEFAULT_LEVEL), 0);
	char *got = tc_slurp("a.png", &got_len);
	cr_assert_not_null(got);
	cr_expect(got_len == len && memcmp(got, png, len) == 0, "the program's frame is not the state's picture");
	free(got);
	free(png);
	render_free(rd);
}

/* The target marker is drawn above the swarm, even boids nearer the camera than it. */
Test(render3d, target_drawn_above_nearer_boids)
{
	struct render_params p;
	double x[8], y[8], z[8];
	static const double zero[8];

	params_3d(&p);
	p.boid_size = 8;
	for (int i = 0; i < 8; i++) /* discs in front of the box's centre, covering it */
		x[i] = W / 2. + 4 * (i % 4 - 1.5), y[i] = H / 2. + 4 * (i / 4 - .5), z[i] = D / 2. - 30;
	struct render_view v = { .n = 8, .x = x, .y = y, .z = z, .vx = zero, .vy = zero, .vz = zero,
	                         .has_target = 1, .target_x = W / 2., .target_y = H / 2., .target_z = D / 2. };
	struct pic a;
	cr_assert_eq(render_new(&a.r, &p), 0);
	v.has_target = 0;
	cr_assert_eq(render_frame(a.r, &v), 0);
	a.px = render_pixels(a.r, &a.stride);
	cr_assert_eq(pixel(&a, W / 2, H / 2), BOID, "the discs cover the centre: %06x", pixel(&a, W / 2, H / 2));
	cr_assert_eq(pixel(&a, W / 2 + 7, H / 2), BOID, "and the halo's place: %06x", pixel(&a, W / 2 + 7, H / 2));
	v.has_target = 1;
	cr_assert_eq(render_frame(a.r, &v), 0);
	cr_expect_eq(pixel(&a, W / 2, H / 2), 0xFFCC00u, "the target's dot on top: %06x", pixel(&a, W / 2, H / 2));
	cr_expect_eq(pixel(&a, W / 2 + 7, H / 2), BG, "its halo: %06x", pixel(&a, W / 2 + 7, H / 2));
	render_free(a.r);
}

/*
 * A window (--view, --follow) moves every camera along its own line of
 * sight: the point looked at lands at the picture's centre, projected as
 * the textbook projects from the new eye, at size factor 1, and w field
 * units across the line of sight at its depth span the picture's width.
 */
Test(camera, a_window_aims_the_camera)
{
	const double at[3] = { 70, 50, 120 }, w = 90;
	for (int mode = 0; mode < 3; mode++) {
		struct camera_setup s;
		struct camera c, placed;
		camera_setup_default(&s);
		s.mode = mode == 0 ? CAMERA_FRONT : mode == 1 ? CAMERA_ORBIT : CAMERA_AT;
		s.orbit_frames = 8;
		s.eye[0] = 10, s.eye[1] = -50, s.eye[2] = -300;
		camera_place(&placed, &s, box, W, H, 3);
		c = placed;
		camera_aim(&c, at, w);
		cr_expect(memcmp(c.fwd, placed.fwd, sizeof(c.fwd)) == 0, "mode %d: the line of sight turned", mode);
		double u, v, d, tu, tv, td, side[3], p[3];
		cr_assert(camera_project(&c, at, &u, &v, &d));
		cr_expect(fabs(u - W / 2.) < 1e-9 && fabs(v - H / 2.) < 1e-9, "mode %d: the point at (%g, %g)", mode, u, v);
		cr_expect(fabs(camera_size(&c, d) - 1) < 1e-12, "mode %d: size %g", mode, camera_size(&c, d));
		for (int k = 0; k < 3; k++) /* half the width to the right, at the point's depth */
			side[k] = c.right[k], p[k] = at[k] + w / 2 * side[k];
		cr_assert(camera_project(&c, p, &u, &v, &d));
		cr_assert(textbook(c.eye, at, s.fov, W, H, p, &tu, &tv, &td));
		cr_expect(fabs(u - W) < 1e-9 && fabs(tu - W) < 1e-9, "mode %d: w/2 to the right lands at %g (%g)", mode, u,
		          tu);
	}
}

/*
 * An orbit clip of the Unity swarm (a tight ball in a big box) with
 * --follow: in every frame the swarm covers a good share of the picture
 * and at least 80% of its height (the shorter side), read back from the
 * y4m's luma (what the box's view gives: 4 to 6 of the 8 x 8 cells, a
 * fifth of the height).  Steering's default of 300 has a halo of strays
 * linked to the swarm: the framed sphere holds 95% of it (its farthest
 * member set the sphere once, and the ball spanned 59% of the height).
 */
Test(render3d_cli, orbit_clip_follows_the_swarm)
{
	enum { CW = 320, CH = 180, FRAMES = 6 };
	cr_assert_eq(tc_boids("-q -m steering --dims 3 --camera orbit --follow -s %dx%d -f %d --warmup 150 "
	                      "--box=no --ground=no -o o.y4m", CW, CH, FRAMES), 0, "%s", tc_stderr());
	size_t len;
	unsigned char *y4m = (unsigned char *)tc_slurp("o.y4m", &len);
	cr_assert_not_null(y4m);
	unsigned char *p = memchr(y4m, '\n', len);
	cr_assert_not_null(p);
	p++;
	for (int f = 0; f < FRAMES; f++) {
		cr_assert(p + 6 + CW * CH * 3 / 2 <= y4m + len && memcmp(p, "FRAME\n", 6) == 0, "frame %d", f);
		const unsigned char *luma = p + 6;
		int cells[8][8] = { { 0 } }, lo = CH, hi = -1, lit = 0;
		for (int yy = 0; yy < CH; yy++)
			for (int xx = 0; xx < CW; xx++)
				if (luma[yy * CW + xx] > luma[0] + 25) { /* brighter than the dark background: a boid */
					cells[yy * 8 / CH][xx * 8 / CW] = 1;
					lo = yy < lo ? yy : lo, hi = yy > hi ? yy : hi;
				}
		for (int k = 0; k < 64; k++)
			lit += cells[k / 8][k % 8];
		cr_expect_geq(lit, 20, "frame %d: boids in %d of 64 cells", f, lit);
		cr_expect_geq(hi - lo, CH * 8 / 10, "frame %d: the swarm spans rows %d to %d", f, lo, hi);
		p += 6 + CW * CH * 3 / 2;
	}
	free(y4m);
}
