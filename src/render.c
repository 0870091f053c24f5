/*
 * render — draws one flock state with Cairo; see include/render.h.
 *
 * Start at render_frame(): paint the background, scale the canvas once, then
 * for every boid save, translate, rotate by render_heading(), scale by the
 * boid size, fill the outline and restore — the canvas-transform technique
 * of the C# original rather than rotating points by hand.
 *
 * The outline is computed once, in render_new(), as Bézier control points
 * in outline units (build_outline(): GDI+'s FillClosedCurve turned into
 * cubic segments), and replayed for each boid with cairo_move_to/curve_to,
 * so drawing a boid allocates nothing.  Boids whose position is not finite,
 * or whose outline lies entirely outside the picture, are skipped: Cairo
 * never sees a NaN or a coordinate beyond its fixed-point range.
 */
#include "render.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <cairo.h>

#define NPTS 5                       /* points of every outline, the origin twice */
#define SPLINE_TENSION 0.5           /* FillClosedCurve's default */

struct renderer {
	struct render_params p;      /* as given to render_new(), validated */
	cairo_surface_t *surface;    /* ARGB32, p.width x p.height */
	cairo_t *cr;                 /* fill rule and antialias set once */
	int curved;                  /* segments are cubic Béziers, else lines */
	int nseg;                    /* segments after the start point */
	double start[2];             /* first point of the outline */
	double seg[NPTS][6];         /* per segment c1, c2, end (lines: end only) */
	double reach;                /* outline's farthest point from the centre, pixels */
};

/* The article's outline; its nose (0,10) is the boid's front. */
static const double article_pts[NPTS][2] = {
	{ 0, 0 }, { -5, -1 }, { 0, 10 }, { 5, -1 }, { 0, 0 },
};

/* The repository's later, smaller outline. */
static const double repo_pts[NPTS][2] = {
	{ 0, 0 }, { -4, -1 }, { 0, 8 }, { 4, -1 }, { 0, 0 },
};

/*
 * Turns the shape's points into the start point and segments of r.
 * Curves: a closed cardinal spline, as GDI+ draws it — tangent
 * Ti = (tension / 3) (P(i+1) - P(i-1)) with wrapping indices, segment
 * Pi -> Pj with controls Pi + Ti and Pj - Tj, including the closing segment
 * from the last point back to the first (tiny here: both are the origin).
 */
static void build_outline(struct renderer *r)
{
	const double (*pts)[2] = r->p.shape == RENDER_REPO ? repo_pts : article_pts;
	int n = NPTS;
	double t[NPTS][2];

	r->curved = r->p.shape != RENDER_POLYGON;
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
}

static void append_outline(const struct renderer *r)
{
	cairo_t *cr = r->cr;

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

void render_params_default(struct render_params *p, int width, int height)
{
	p->width = width;
	p->height = height;
	p->scale = 1;
	p->shape = RENDER_CURVE;
	p->boid_size = 1;
	p->background = 0x003366;
	p->boid_color = 0x90EE90;     /* LightGreen */
	p->predator_color = 0xFFFFFF; /* White */
	p->antialias = RENDER_AA_GOOD;
}

static int params_valid(const struct render_params *p)
{
	return p->width > 0 && p->height > 0 &&
	       isfinite(p->scale) && p->scale > 0 &&
	       isfinite(p->boid_size) && p->boid_size > 0 &&
	       (p->shape == RENDER_CURVE || p->shape == RENDER_REPO ||
	        p->shape == RENDER_POLYGON) &&
	       (p->antialias == RENDER_AA_NONE || p->antialias == RENDER_AA_FAST ||
	        p->antialias == RENDER_AA_GOOD || p->antialias == RENDER_AA_BEST) &&
	       p->background <= 0xFFFFFF && p->boid_color <= 0xFFFFFF &&
	       p->predator_color <= 0xFFFFFF;
}

static int cairo_error_code(cairo_status_t st)
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

static cairo_antialias_t cairo_aa(enum render_antialias aa)
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

int render_new(struct renderer **out, const struct render_params *p)
{
	struct renderer *r;
	int err;

	*out = NULL;
	if (!params_valid(p))
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->p = *p;
	build_outline(r);
	r->surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, p->width, p->height);
	err = cairo_error_code(cairo_surface_status(r->surface));
	if (err)
		goto fail;
	r->cr = cairo_create(r->surface);
	err = cairo_error_code(cairo_status(r->cr));
	if (err)
		goto fail;
	cairo_set_fill_rule(r->cr, CAIRO_FILL_RULE_EVEN_ODD); /* GDI+ "alternate" */
	cairo_set_antialias(r->cr, cairo_aa(p->antialias));
	*out = r;
	return 0;
fail:
	render_free(r);
	return err;
}

static void set_color(cairo_t *cr, uint32_t rgb)
{
	cairo_set_source_rgb(cr, (double)(rgb >> 16 & 0xFF) / 255,
	                     (double)(rgb >> 8 & 0xFF) / 255,
	                     (double)(rgb & 0xFF) / 255);
}

int render_frame(struct renderer *r, const struct render_view *v)
{
	cairo_t *cr = r->cr;
	const struct render_params *p = &r->p;
	double reach = r->reach * p->boid_size * p->scale + 1; /* +1: AA fringe */
	int color = -1; /* 0 boid, 1 predator: the source currently set */

	assert(v->n == 0 || (v->x && v->y && v->vx && v->vy));
	cairo_save(cr);
	set_color(cr, p->background);
	cairo_paint(cr);
	cairo_scale(cr, p->scale, p->scale);
	for (size_t i = 0; i < v->n; i++) {
		double x = v->x[i], y = v->y[i];
		double px = x * p->scale, py = y * p->scale;
		int want = i < v->predators;

		if (!isfinite(px) || !isfinite(py))
			continue; /* never hand NaN or infinity to Cairo */
		if (px < -reach || px > p->width + reach ||
		    py < -reach || py > p->height + reach)
			continue; /* off the picture: nothing to draw */
		if (want != color) {
			/* set outside save/restore, so it survives them */
			set_color(cr, want ? p->predator_color : p->boid_color);
			color = want;
		}
		cairo_save(cr);
		cairo_translate(cr, x, y);
		cairo_rotate(cr, render_heading(v->vx[i], v->vy[i]));
		if (p->boid_size != 1)
			cairo_scale(cr, p->boid_size, p->boid_size);
		append_outline(r);
		cairo_fill(cr);
		cairo_restore(cr);
	}
	cairo_restore(cr);
	cairo_surface_flush(r->surface);
	return cairo_error_code(cairo_status(cr));
}

const unsigned char *render_pixels(const struct renderer *r, int *stride)
{
	if (stride)
		*stride = cairo_image_surface_get_stride(r->surface);
	return cairo_image_surface_get_data(r->surface);
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

void render_free(struct renderer *r)
{
	if (!r)
		return;
	if (r->cr)
		cairo_destroy(r->cr);
	if (r->surface)
		cairo_surface_destroy(r->surface);
	free(r);
}
