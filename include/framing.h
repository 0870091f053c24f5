/*
 * framing — what each frame shows, for the pipeline's producer: the
 * window (--view, eased to --view-end, moved by --follow onto the largest
 * cluster: view.h, metrics_largest()), the boids copied for the drawing
 * threads (only those the window shows, found through a grid: cull.h),
 * and --draw density's bounds, fixed for the clip from its first frame.
 * Part of main (the application layer): it reads struct config; it prints
 * nothing, returning negative errno codes.
 *
 * Without --view, --view-end or --follow every frame shows the whole field
 * as the picture's settings place it and every boid is copied, as before
 * there were windows: the same bytes.  With one, a 2D frame copies the
 * boids inside the window's rectangle (render_window_rect(): the picture,
 * widened by a boid's reach) when that is under a quarter of the field,
 * else all of them; a 3D frame the boids its camera shows on the picture
 * (render_frustum(): every boid projected, the ones whose reach touches
 * the picture kept), with the fog's statistics over every boid in front
 * of the camera, which the kept ones alone would not give.  The drawing is
 * the same either way, byte for byte (a boid left out leaves no pixel),
 * in index order.  Whole copies remain where a boid outside the window can
 * still draw into it: trails (a trail reaches back anywhere).  --color-by
 * speed, whose range is the whole flock's, then takes it from every boid;
 * --show-ranges draws around the last boid, so it is always copied.
 *
 * Start at framing_window(), then framing_copy(), per frame in order.
 */
#ifndef BOIDS_FRAMING_H
#define BOIDS_FRAMING_H

#include <stddef.h>

#include "config.h"
#include "cull.h"
#include "metrics.h"
#include "render.h"
#include "sim.h"
#include "view.h"

struct framing {
	const struct config *cfg;
	struct view_setup view;
	struct view_follow follow;
	struct metrics_ctx mctx;     /* --follow's clusters */
	struct cull cull;
	unsigned char *keep;         /* 3D: the boids a frame shows (render_frustum()), keep_cap */
	double *depth;               /* 3D: the depths in front, depth_cap */
	size_t keep_cap, depth_cap;
	int density_fixed;           /* density[] holds the clip's bounds (unless the params give them) */
	double density[2];
	double density_scale;        /* the scale they are for: the first frame's */
};

/* Where a frame's copy goes: arrays of room for every boid (z, vz NULL in 2D). */
struct framing_copy {
	double *x, *y, *vx, *vy, *z, *vz;
	int velocities;              /* the drawing needs them (not --draw points by role) */
	size_t n;                    /* out: boids copied */
	size_t predators;            /* out: of them predators (the first ones) */
	int has_speed_range;         /* out: the whole flock's speed range below (a part copied) */
	double speed_lo, speed_hi;
	int has_fog;                 /* out, 3D: the whole flock's fog statistics below (a part copied) */
	struct render_fog fog;
};

/* Sets f up for the run's settings and flock (kept, not copied). */
void framing_init(struct framing *f, const struct config *c, const struct sim *s);

/*
 * Frame k's window into *w (unset: the whole field, no window given).
 * With --follow it measures the flock's clusters: call once a frame, in
 * frame order.  Returns 0 or -ENOMEM.
 */
int framing_window(struct framing *f, const struct sim *s, long k, struct render_window *w);

/*
 * Copies into *out the boids of s that frame k's window w shows, in index
 * order (all of them without a window; see the top).  rd: a renderer of
 * the run's settings (the boids' reach, the camera).  Returns 0 or -ENOMEM.
 */
int framing_copy(struct framing *f, const struct sim *s, long k, const struct render_window *w,
                 const struct renderer *rd, struct framing_copy *out);

/*
 * --draw density: the first call measures frame view v with renderer rd
 * (render_density_bounds(), unless --density-range gives them) and keeps
 * the bounds and the frame's scale (render_frame_scale()); every call puts
 * them into v->density and v->density_scale, so that the clip keeps its
 * bounds and a zoom the field's density.  Other drawings: nothing.
 * Returns 0 or a negative errno.
 */
int framing_density(struct framing *f, struct renderer *rd, struct render_view *v);

void framing_release(struct framing *f);

#endif
