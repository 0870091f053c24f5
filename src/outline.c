/*
 * outline — what every drawing file of the renderer stands on: the boid
 * outlines (the article's, the repository's, the canvas bird, the OpenGL
 * arrowhead) turned into Cairo path segments once (render_build_outline())
 * and replayed per boid (render_append_outline()), the heading of a
 * velocity (render_heading(), include/render.h), and the small Cairo
 * helpers (status codes, antialias modes, colours, coordinates safe to
 * hand to Cairo).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include <cairo.h>

#include "render_int.h"

#define SPLINE_TENSION 0.5           /* FillClosedCurve's default */

/* The article's outline; its nose (0,10) is the boid's front. */
static const double article_pts[NPTS][2] = {
	{ 0, 0 }, { -5, -1 }, { 0, 10 }, { 5, -1 }, { 0, 0 },
};

/* The OpenGL version's arrowhead: nose (0,8), back corners at y = -2, and
 * the notch: the back edge comes in to the origin. */
static const double arrow_pts[NPTS][2] = {
	{ 0, 0 }, { -5, -2 }, { 0, 8 }, { 5, -2 }, { 0, 0 },
};

/* The repository's later, smaller outline (the final program's). */
static const double repo_pts[NPTS][2] = {
	{ 0, 0 }, { -4, -1 }, { 0, 8 }, { 4, -1 }, { 0, 0 },
};

/*
 * The canvas article's bird, BIRD_WIDTH 10 by BIRD_HEIGHT 6 (the article
 * gives no numbers): moveTo(x + W/2, y), lineTo(x - W/2, y + H/2),
 * lineTo(x - W/2, y - H/2), closePath, with its nose turned from +x to +y
 * so that render_heading() points it along the velocity.  The last point
 * repeats the first: an empty closing edge.
 */
static const double triangle_pts[NPTS][2] = {
	{ 0, 5 }, { 3, -5 }, { -3, -5 }, { 0, 5 }, { 0, 5 },
};

#define SPAN_SAMPLES 64 /* points a segment is sampled at for its extent */

/*
 * r->span: the outline's longer side, outline units: the larger of its
 * extents along x and y, the segments sampled (a Bézier's extent, not its
 * control points'), for --draw auto's "a boid spanning 3 pixels".
 */
static void outline_span(struct renderer *r)
{
	double lo[2] = { r->start[0], r->start[1] }, hi[2] = { r->start[0], r->start[1] }, at[2];

	for (int i = 0; i < r->nseg; i++) {
		const double *s = r->seg[i], *from = i ? r->seg[i - 1] + 4 : r->start;
		for (int k = 1; k <= (r->curved ? SPAN_SAMPLES : 1); k++) {
			double t = (double)k / (r->curved ? SPAN_SAMPLES : 1), u = 1 - t;
			for (int c = 0; c < 2; c++)
				at[c] = r->curved ? u * u * u * from[c] + 3 * u * u * t * s[c] + 3 * u * t * t * s[2 + c] +
				                    t * t * t * s[4 + c]
				                  : s[4 + c];
			for (int c = 0; c < 2; c++)
				lo[c] = fmin(lo[c], at[c]), hi[c] = fmax(hi[c], at[c]);
		}
	}
	r->span = fmax(hi[0] - lo[0], hi[1] - lo[1]);
}

/*
 * NetLogo's "default" turtle shape: the polygon (150,5) (40,250) (150,205)
 * (260,250) of its 300 x 300 editor, y down, the nose up; here x = (sx -
 * 150) / 30, y = (150 - sy) / 30, so that the 300 box is 10 units, the
 * article's length (--boid-size 0.15: a turtle of size 1.5 patches).  It
 * turns about the box's centre, as NetLogo turns it.  The last point
 * repeats the first.
 */
static const double turtle_pts[NPTS][2] = {
	{ 0, 145.0 / 30 }, { -110.0 / 30, -100.0 / 30 }, { 0, -55.0 / 30 }, { 110.0 / 30, -100.0 / 30 },
	{ 0, 145.0 / 30 },
};

/*
 * Turns the shape's points into the start point and segments of r.
 * Curves: a closed cardinal spline, as GDI+ draws it — tangent
 * Ti = (tension / 3) (P(i+1) - P(i-1)) with wrapping indices, segment
 * Pi -> Pj with controls Pi + Ti and Pj - Tj, including the closing segment
 * from the last point back to the first (tiny here: both are the origin).
 */
void render_build_outline(struct renderer *r)
{
	const double (*pts)[2] = r->p.shape == RENDER_REPO ? repo_pts :
	                         r->p.shape == RENDER_TRIANGLE ? triangle_pts :
	                         r->p.shape == RENDER_ARROW ? arrow_pts :
	                         r->p.shape == RENDER_TURTLE ? turtle_pts :
	                         r->p.outline == RENDER_OUTLINE_FINAL ? repo_pts : article_pts;
	int n = NPTS;
	double t[NPTS][2];

	r->curved = r->p.shape == RENDER_CURVE || r->p.shape == RENDER_REPO;
	if (r->p.shape == RENDER_CIRCLE) { /* drawn with cairo_arc, no outline */
		r->curved = 0;
		r->nseg = 0;
		r->reach = CIRCLE_RADIUS;
		r->span = 2 * CIRCLE_RADIUS;
		return;
	}
	r->start[0] = pts[0][0];
	r->start[1] = pts[0][1];
	r->reach = 0;
	if (!r->curved) {
		r->nseg = n - 1; /* close_path draws the last edge */
		for (int i = 1; i < n; i++) {
			r->seg[i - 1][4] = pts[i][0];
			r->seg[i - 1][5] = pts[i][1];
			r->reach = fmax(r->reach, hypot(pts[i][0], pts[i][1]));
		}
		outline_span(r);
		return;
	}
	for (int i = 0; i < n; i++) {
		int prev = (i + n - 1) % n, next = (i + 1) % n;
		for (int k = 0; k < 2; k++)
			t[i][k] = SPLINE_TENSION / 3 * (pts[next][k] - pts[prev][k]);
	}
	r->nseg = n;
	for (int i = 0; i < n; i++) {
		int j = (i + 1) % n;
		double *s = r->seg[i];
		for (int k = 0; k < 2; k++) {
			s[k] = pts[i][k] + t[i][k];
			s[2 + k] = pts[j][k] - t[j][k];
			s[4 + k] = pts[j][k];
		}
		/* a Bézier stays inside the hull of its control points */
		for (int c = 0; c < 3; c++)
			r->reach = fmax(r->reach, hypot(s[2 * c], s[2 * c + 1]));
	}
	outline_span(r);
}

void render_append_outline(const struct renderer *r, cairo_t *cr)
{
	cairo_move_to(cr, r->start[0], r->start[1]);
	for (int i = 0; i < r->nseg; i++) {
		const double *s = r->seg[i];
		if (r->curved)
			cairo_curve_to(cr, s[0], s[1], s[2], s[3], s[4], s[5]);
		else
			cairo_line_to(cr, s[4], s[5]);
	}
	cairo_close_path(cr);
}

int render_cairo_error_code(cairo_status_t st)
{
	switch (st) {
	case CAIRO_STATUS_SUCCESS:
		return 0;
	case CAIRO_STATUS_INVALID_SIZE:
		return -EINVAL; /* beyond Cairo's 32767 pixels */
	default:
		return -ENOMEM;
	}
}

cairo_antialias_t render_cairo_aa(enum render_antialias aa)
{
	switch (aa) {
	case RENDER_AA_NONE:
		return CAIRO_ANTIALIAS_NONE;
	case RENDER_AA_FAST:
		return CAIRO_ANTIALIAS_FAST;
	case RENDER_AA_BEST:
		return CAIRO_ANTIALIAS_BEST;
	case RENDER_AA_GOOD:
	default:
		return CAIRO_ANTIALIAS_GOOD;
	}
}

void render_set_color(cairo_t *cr, uint32_t rgb)
{
	cairo_set_source_rgb(cr, (double)(rgb >> 16 & 0xFF) / 255,
	                     (double)(rgb >> 8 & 0xFF) / 255,
	                     (double)(rgb & 0xFF) / 255);
}

int render_finite2(double x, double y)
{
	return isfinite(x) && isfinite(y) && fabs(x) < 1e9 && fabs(y) < 1e9;
}

/*
 * GetAngle() of the original, in degrees, then converted:
 * atan(vy / vx) - 90, plus 180 for vx < 0; 0 at rest or for a NaN.
 * A zero vx of either sign counts as +0, so a boid moving straight down
 * with vx == -0.0 still faces down (the original would turn it around).
 */
double render_heading(double vx, double vy)
{
	double deg;

	if (isnan(vx) || isnan(vy) || (vx == 0 && vy == 0))
		return 0;
	if (vx == 0)
		vx = 0.0; /* drop the sign of -0.0 */
	deg = atan(vy / vx) * 180 / M_PI - 90;
	if (vx < 0)
		deg += 180;
	if (!isfinite(deg))
		return 0; /* both infinite: no direction */
	return deg * (M_PI / 180);
}
