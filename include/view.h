/*
 * view — the window of the field each frame shows (--view, --view-end,
 * --follow): arithmetic alone, no flock, no drawing.  A window is
 * { cx, cy, cz, w }: the point looked at (cz: 3D only) and the width the
 * picture shows there, field units.
 *
 * Eased (view_at()): from the first frame's window to the last's, the
 * width w moves by smoothstep s = t^2 (3 - 2t), t = frame / (frames - 1),
 * on its logarithm (w0^(1-s) w1^s: a zoom at a steady pace, doubling as
 * often at the end as at the start), and the centre so that one point of
 * the field stays where it is on the picture all the way (the fixed point
 * of the two windows): a zoom onto a flock keeps the flock in its place
 * instead of sliding it across the picture.  Windows of one width: the
 * centre moves by s, a plain pan.  Without a window of its own a frame
 * shows the whole field (the caller's `whole`, which in 3D is the camera
 * preset's framing).
 *
 * Followed (view_follow()): the centre moves toward a point (the largest
 * cluster's centre, metrics_largest()) by a quarter of the way each frame,
 * never more than a tenth of the window's width, so the picture glides
 * after the flock and a jump of the cluster to another flock becomes a
 * pan.  In 3D without a window given, the width frames the cluster too
 * (its diameter VIEW_FILL of the picture's shorter side), moving at most
 * a tenth of itself a frame.
 */
#ifndef BOIDS_VIEW_H
#define BOIDS_VIEW_H

#define VIEW_GAIN 0.25  /* the part of the way to the followed point moved in a frame */
#define VIEW_STEP 0.1   /* the most the centre moves in a frame, in window widths */
#define VIEW_FILL 0.95  /* 3D: the followed cluster's diameter, of the picture's shorter side */

struct view_setup {
	double start[3];        /* --view CX,CY,W; W 0: none */
	double end[3];          /* --view-end; W 0: none */
	int follow;             /* --follow */
	long frames;            /* frames in the clip, >= 1 */
	double aspect;          /* the picture's height / width */
	double field[3];        /* the field's sides (the wrap's periods) */
	int wrap;               /* the field wraps: the way to a point is the short one */
	int three;              /* a 3D flock: z counts, w frames a followed cluster */
};

/* Is any frame shown through a window (rather than the params' whole field)? */
int view_active(const struct view_setup *s);

/*
 * The eased window of frame k into out[4] (cx, cy, cz, w), from --view
 * (else `whole`, the frame's whole field) to --view-end (else the same).
 */
void view_at(const struct view_setup *s, long k, const double whole[4], double out[4]);

/* --follow's state from frame to frame. */
struct view_follow {
	int started;
	double c[3];            /* the centre now */
	double w;               /* 3D, framing the cluster: the width now */
};

/*
 * Frame k's window under --follow: *at (view_at()'s) with its centre
 * moved from where the last frame left it toward `target` (radius: the
 * cluster's, for 3D's framing).  The first frame starts on the target,
 * unless --view or --view-end gave a window (a zoom starts where its first
 * window is: the whole field without --view).  Call once a frame, in frame
 * order.
 */
void view_follow(struct view_follow *f, const struct view_setup *s, const double target[3], double radius,
                 double at[4]);

#endif
