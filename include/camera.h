/*
 * camera — a pinhole camera looking at the flock's box, for drawing a 3D
 * flock in perspective.  Pure math: no Cairo, no state beyond a struct.
 *
 * Space is the flock's: the box is [0,W] x [0,H] x [0,D], x to the right,
 * y down (as in the 2D picture), z away from the default camera.  The
 * picture is pic_w x pic_h in field units (render scales it to pixels),
 * u to the right and v down, as the 2D picture's x and y.
 *
 * A camera looks from `eye` at `at`; "up" is -y, so the picture's v stays
 * the world's down whatever the camera turns to (looking straight up or
 * down, the picture's right is +x).  A point at depth d (its distance in
 * front of the eye, along the line of sight) at offset (x, y) from the
 * line of sight lands at u = pic_w / 2 + f x / d, v = pic_h / 2 + f y / d,
 * with the focal length f = (pic_h / 2) / tan(fov / 2).  The size factor
 * of a thing at depth d is ref / d, ref being the distance from the eye to
 * `at`: drawn at its 2D size there, bigger nearer, smaller further.
 * Nothing nearer than ref / CAMERA_MAX_SIZE is drawn (the near plane), so
 * no size factor exceeds CAMERA_MAX_SIZE.
 *
 * Presets (enum camera_mode): the front camera sees the whole box from the
 * front (z < 0), CAMERA_ELEVATION degrees above its centre, as near as
 * keeps every corner inside the picture with a margin; the orbit looks
 * down at the box CAMERA_ORBIT_ELEVATION degrees, one turn around its vertical
 * axis every `orbit_frames` frames, a function of the frame number alone,
 * at each angle from the point and the distance that centre the box's
 * projection and make it fill the picture less CAMERA_ORBIT_MARGIN along
 * the side that binds (the default box then spans at least 80% of the
 * picture's height all the way round).
 * A window (--view, --follow: camera_aim()) then moves the eye along its
 * line of sight to look at a point of the field from a given distance.
 *
 * Start at camera_place() (and camera_aim()), then camera_project() per point.
 */
#ifndef BOIDS_CAMERA_H
#define BOIDS_CAMERA_H

#include <stddef.h>

#define CAMERA_FOV 50.0        /* default vertical field of view, degrees */
#define CAMERA_ELEVATION 20.0  /* the front camera: degrees above the box's centre */
#define CAMERA_ORBIT_ELEVATION 30.0 /* the orbit's line of sight: degrees below the horizon */
#define CAMERA_MARGIN 0.05     /* the front camera: picture fraction kept clear on each side */
#define CAMERA_ORBIT_MARGIN 0.02 /* the orbit's, which fills the picture with the box */
#define CAMERA_MAX_SIZE 16.0   /* size factor at the near plane */

enum camera_mode {
	CAMERA_FRONT, /* the whole box from the front, slightly above */
	CAMERA_ORBIT, /* the same, circling the box once every orbit_frames frames */
	CAMERA_AT,    /* from `eye`, looking at `at` */
};

/* Where the camera is: what --camera and --fov set. */
struct camera_setup {
	enum camera_mode mode;
	double eye[3];              /* CAMERA_AT: its position, field units */
	double at[3];               /* CAMERA_AT with at_given: the point looked at */
	int at_given;               /* else it looks at the box's centre */
	double fov;                 /* vertical field of view, degrees, (0, 180) (50) */
	long orbit_frames;          /* CAMERA_ORBIT: frames per turn, >= 1 (the clip's) */
};

/* A camera placed for one frame (camera_place()). */
struct camera {
	double eye[3];              /* position */
	double right[3], down[3], fwd[3]; /* orthonormal: picture u, picture v, line of sight */
	double focal;               /* picture units per unit of offset at depth 1 */
	double cu, cv;              /* the picture's centre */
	double ref;                 /* depth drawn at size factor 1: the distance to `at` */
	double near;                /* ref / CAMERA_MAX_SIZE: nearer is not drawn */
};

/* Fills s with the front camera and the default field of view. */
void camera_setup_default(struct camera_setup *s);

/*
 * Whether s can be placed for a box of sides box[0..2] (> 0): a field of
 * view in (0, 180) degrees, finite coordinates, an eye apart from the
 * point it looks at, and an orbit of at least one frame.  Returns 0 or
 * -EINVAL.
 */
int camera_check(const struct camera_setup *s, const double box[3]);

/*
 * Places the camera of s for frame `frame` (the orbit's angle is
 * 2 pi (frame mod orbit_frames) / orbit_frames, starting where the front
 * camera stands and turning toward +x), looking at the box of sides box[]
 * in a picture pic_w x pic_h.  s must pass camera_check().
 */
void camera_place(struct camera *c, const struct camera_setup *s, const double box[3],
                  double pic_w, double pic_h, long frame);

/*
 * Projects the point p: returns 1 with its picture coordinates (*u, *v)
 * and its depth (> c->near), or 0 when it lies on the near plane or
 * behind it (not drawn; *u, *v, *depth untouched) or is not finite.
 */
int camera_project(const struct camera *c, const double p[3], double *u, double *v, double *depth);

/*
 * The picture direction (*du, *dv) in which a point at p (in front of the
 * camera) moving with velocity vel moves: the derivative of its projection,
 * up to a positive factor.  (0, 0) when it moves along the line of sight.
 */
void camera_direction(const struct camera *c, const double p[3], const double vel[3],
                      double *du, double *dv);

/*
 * A window (--view, --follow): after camera_place(), the eye keeps its
 * line of sight and moves to look at `at` from as far as shows w units
 * across the picture's width there; things at `at` are drawn at size
 * factor 1 (c->ref is the new distance).  w > 0.
 */
void camera_aim(struct camera *c, const double at[3], double w);

/* The size factor at depth d (> 0): c->ref / d. */
double camera_size(const struct camera *c, double depth);

/* The depth of p (its distance in front of the eye along the line of sight; negative behind). */
double camera_depth(const struct camera *c, const double p[3]);

/*
 * Cuts the segment a-b to the part in front of the near plane, in place.
 * Returns 1 when some of it is there, 0 when none is.
 */
int camera_clip(const struct camera *c, double a[3], double b[3]);

#endif
