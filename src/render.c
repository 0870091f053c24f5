/*
 * render — draws one flock state with Cairo; see include/render.h.  This
 * file: the renderer's lifecycle, the boid outline, the decorations
 * (obstacles, trails, ranges, target) and the 2D pass.  The rest lives in
 * backdrop.c (the noise background), raster.c (one boid's coverage and
 * blend), bands.c (a list of boids, in bands) and render3d.c (the 3D
 * pass), sharing src/render_int.h.
 *
 * Start at render_frame(): paint the background, scale the canvas once, then
 * for every boid save, translate, rotate by render_heading(), scale by the
 * boid size, fill the outline and restore — the canvas-transform technique
 * of the C# original rather than rotating points by hand (render_cairo_boid(), in
 * render_draw_run(); on big pictures in bands, below).
 *
 * The outline is computed once, in render_new(), as Bézier control points
 * in outline units (build_outline(): GDI+'s FillClosedCurve turned into
 * cubic segments), and replayed for each boid with cairo_move_to/curve_to,
 * so drawing a boid allocates nothing.  Boids whose position is not finite,
 * or whose outline lies entirely outside the picture, are skipped: Cairo
 * never sees a NaN or a coordinate beyond its fixed-point range.
 *
 * Speed without changing a pixel: most of a boid's cost is Cairo's scan
 * converter and the blend into the picture, whose rows the boids hit in
 * random order (cache and TLB misses on a 1080p frame); a big picture lives
 * in huge pages (make_surface()).  Prefetching the next boid's rows, reusing
 * a pre-flattened path, or setting the matrix instead of
 * save/translate/rotate/restore measured nothing, or changed pixels for
 * little (docs/PERFORMANCE.md).
 *
 * Every boid is first placed (struct placed: where, turned how far, how
 * big, which colour): a 2D boid straight from the view (place_flat()), a
 * 3D one from its projection (place_3d()).  A list of placed boids in
 * drawing order (2D: index order; 3D: back to front) is drawn by
 * render_draw_run(): boid after boid (render_cairo_boid(), or render_fast_boid_now()), or on a
 * picture bigger than a core's cache in bands (bands_plan(),
 * bands_draw()): each boid's coverage is made once into a small mask, in
 * the first band it touches, and every band blends the masks of the boids
 * touching it in drawing order, so each pixel gets the same blends in the
 * same order as boid after boid, while the band's rows stay in the cache.
 * The exact path's masks are Cairo's own fill (render_cairo_mask_at(): the same
 * path under the same matrix, on an A8 surface moved by a whole number of
 * pixels), the fast path's its own fill; both are blended as Cairo's span
 * renderer blends an opaque colour (lerp8x4()).  Tails drawn between boids
 * (--trail-style opengl) keep boid after boid; in 3D the obstacles cut the
 * list into runs, each drawn on its own between the spheres behind and in
 * front of it.
 *
 * RENDER_DRAW_FAST (render_fast_boid_at(), fast_cover()): the outline is flattened
 * once by Cairo at each size drawn; per boid its points go through the same
 * matrix as the exact path's and an accumulation-buffer coverage fill
 * (signed area and cover per cell, summed along the row; even-odd folds the
 * sum) computes each pixel's exact covered area.
 *
 * A 3D view (section "3D", render_draw_3d()): the camera (camera.c) is placed for
 * the frame, every boid projected into a struct placed, sorted back to
 * front and handed to render_draw_run() as a 2D list is.
 */
#include "render.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

/*
 * Turns the shape's points into the start point and segments of r.
 * Curves: a closed cardinal spline, as GDI+ draws it — tangent
 * Ti = (tension / 3) (P(i+1) - P(i-1)) with wrapping indices, segment
 * Pi -> Pj with controls Pi + Ti and Pj - Tj, including the closing segment
 * from the last point back to the first (tiny here: both are the origin).
 */
static void build_outline(struct renderer *r)
{
	const double (*pts)[2] = r->p.shape == RENDER_REPO ? repo_pts :
	                         r->p.shape == RENDER_TRIANGLE ? triangle_pts :
	                         r->p.shape == RENDER_ARROW ? arrow_pts :
	                         r->p.outline == RENDER_OUTLINE_FINAL ? repo_pts : article_pts;
	int n = NPTS;
	double t[NPTS][2];

	r->curved = r->p.shape == RENDER_CURVE || r->p.shape == RENDER_REPO;
	if (r->p.shape == RENDER_CIRCLE) { /* drawn with cairo_arc, no outline */
		r->curved = 0;
		r->nseg = 0;
		r->reach = CIRCLE_RADIUS;
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

void render_params_default(struct render_params *p, int width, int height)
{
	p->width = width;
	p->height = height;
	p->scale = 1;
	p->offset[0] = p->offset[1] = 0;
	p->shape = RENDER_CURVE;
	p->outline = RENDER_OUTLINE_LISTING;
	p->paint = RENDER_FILL;
	p->grid = RENDER_GRID_CAIRO;
	p->boid_size = 1;
	p->background = 0x003366;
	p->boid_color = 0x90EE90;     /* LightGreen */
	p->predator_color = 0xFFFFFF; /* White */
	p->antialias = RENDER_AA_GOOD;
	p->predator_size = 1;
	p->background_style = RENDER_BG_FLAT;
	p->noise_seed = 1;
	p->obstacles = NULL;
	p->obstacles_n = 0;
	p->obstacle_color = 0x5a7896;
	p->target_color = 0xffcc00;
	p->trail_style = RENDER_TRAIL_FADE;
	p->show_ranges = 0;
	p->range_near = 20;
	p->range_far = 50;
	p->draw = RENDER_DRAW_EXACT;
	p->box[0] = width;
	p->box[1] = height;
	p->box[2] = width < height ? width : height;
	camera_setup_default(&p->camera);
	p->fog = 0.6;
	p->box_edges = 0;
	p->ground = 0;
}

static int params_valid(const struct render_params *p)
{
	return p->width > 0 && p->height > 0 &&
	       isfinite(p->scale) && p->scale > 0 && isfinite(p->offset[0]) && isfinite(p->offset[1]) &&
	       isfinite(p->boid_size) && p->boid_size > 0 &&
	       (p->shape == RENDER_CURVE || p->shape == RENDER_REPO ||
	        p->shape == RENDER_POLYGON || p->shape == RENDER_TRIANGLE ||
	        p->shape == RENDER_ARROW || p->shape == RENDER_CIRCLE) &&
	       (p->outline == RENDER_OUTLINE_LISTING || p->outline == RENDER_OUTLINE_FINAL) &&
	       (p->paint == RENDER_FILL || p->paint == RENDER_STROKE) &&
	       (p->grid == RENDER_GRID_CAIRO || p->grid == RENDER_GRID_GDI) &&
	       (p->trail_style == RENDER_TRAIL_FADE || p->trail_style == RENDER_TRAIL_OPENGL) &&
	       p->fog >= 0 && p->fog <= 1 && camera_check(&p->camera, p->box) == 0 &&
	       isfinite(p->range_near) && p->range_near >= 0 &&
	       isfinite(p->range_far) && p->range_far >= 0 &&
	       (p->antialias == RENDER_AA_NONE || p->antialias == RENDER_AA_FAST ||
	        p->antialias == RENDER_AA_GOOD || p->antialias == RENDER_AA_BEST) &&
	       p->background <= 0xFFFFFF && p->boid_color <= 0xFFFFFF &&
	       p->predator_color <= 0xFFFFFF &&
	       isfinite(p->predator_size) && p->predator_size > 0 &&
	       (p->background_style == RENDER_BG_FLAT || p->background_style == RENDER_BG_NOISE) &&
	       (p->obstacles_n == 0 || p->obstacles) &&
	       (p->draw == RENDER_DRAW_EXACT || p->draw == RENDER_DRAW_FAST || p->draw == RENDER_DRAW_POINTS) &&
	       p->obstacle_color <= 0xFFFFFF && p->target_color <= 0xFFFFFF;
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

/*
 * The picture's memory: above 2 MB, aligned to and advised into huge pages
 * (a 1080p frame is then 4 TLB entries, not 2025; the boids hit its rows in
 * random order), which changes no pixel.  Smaller pictures are Cairo's own.
 */
#define HUGE_PAGE ((size_t)2 << 20)

static int make_surface(struct renderer *r)
{
	const struct render_params *p = &r->p;
	int stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, p->width);
	size_t bytes = (size_t)stride * (size_t)p->height;

	if (stride <= 0 || bytes < HUGE_PAGE) {
		r->surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, p->width, p->height);
		return render_cairo_error_code(cairo_surface_status(r->surface));
	}
	bytes = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	if (posix_memalign(&r->mem, HUGE_PAGE, bytes) != 0) {
		r->mem = NULL;
		return -ENOMEM;
	}
	madvise(r->mem, bytes, MADV_HUGEPAGE); /* advice only: no huge pages is no error */
	r->surface = cairo_image_surface_create_for_data(r->mem, CAIRO_FORMAT_ARGB32, p->width, p->height,
	                                                 stride);
	return render_cairo_error_code(cairo_surface_status(r->surface));
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
	err = make_surface(r);
	if (err)
		goto fail;
	r->cr = cairo_create(r->surface);
	err = render_cairo_error_code(cairo_status(r->cr));
	if (err)
		goto fail;
	cairo_set_fill_rule(r->cr, CAIRO_FILL_RULE_EVEN_ODD); /* GDI+ "alternate" */
	cairo_set_antialias(r->cr, render_cairo_aa(p->antialias));
	cairo_set_line_width(r->cr, 1); /* the canvas's default lineWidth */
	r->data = cairo_image_surface_get_data(r->surface);
	r->stride = cairo_image_surface_get_stride(r->surface);
	if (p->draw == RENDER_DRAW_POINTS ? (err = points_init(&r->pts, p->width, p->height)) != 0 :
	    p->paint == RENDER_FILL && p->antialias != RENDER_AA_NONE && (err = render_masks_setup(r)) != 0)
		goto fail;
	if (p->background_style == RENDER_BG_NOISE && (err = render_make_backdrop(r)) != 0)
		goto fail;
	*out = r;
	return 0;
fail:
	render_free(r);
	return err;
}

void render_set_color(cairo_t *cr, uint32_t rgb)
{
	cairo_set_source_rgb(cr, (double)(rgb >> 16 & 0xFF) / 255,
	                     (double)(rgb >> 8 & 0xFF) / 255,
	                     (double)(rgb & 0xFF) / 255);
}

/* ------------------------------------------------------------ decorations */

int render_finite2(double x, double y)
{
	return isfinite(x) && isfinite(y) && fabs(x) < 1e9 && fabs(y) < 1e9;
}

/* Obstacles: filled circles, in field units (the canvas is scaled). */
static void draw_obstacles(struct renderer *r)
{
	const struct render_params *p = &r->p;

	if (!p->obstacles_n)
		return;
	render_set_color(r->cr, p->obstacle_color);
	for (size_t i = 0; i < p->obstacles_n; i++) {
		const struct render_circle *c = &p->obstacles[i];
		if (!render_finite2(c->x, c->y) || !(c->r > 0))
			continue;
		cairo_new_sub_path(r->cr);
		cairo_arc(r->cr, c->x, c->y, c->r, 0, 2 * M_PI);
	}
	cairo_fill(r->cr);
}

/*
 * Is the segment of boid i's trail from position k - 1 to k left out?  When
 * a drawn end (tx, ty: the view's own positions, or in 3D their
 * projections) is not finite or the boid jumped more than half the field
 * (a wrap-around; in 3D half the depth too).
 */
static int trail_gap(const struct renderer *r, const struct render_view *v, const double *tx,
                     const double *ty, size_t k, size_t i)
{
	size_t a = (k - 1) * v->n + i, b = k * v->n + i;
	double halfw = r->p.width / r->p.scale / 2, halfh = r->p.height / r->p.scale / 2;

	if (!render_finite2(tx[a], ty[a]) || !render_finite2(tx[b], ty[b]))
		return 1;
	if (fabs(v->trail_x[b] - v->trail_x[a]) > halfw || fabs(v->trail_y[b] - v->trail_y[a]) > halfh)
		return 1; /* wrapped around */
	return v->trail_z && fabs(v->trail_z[b] - v->trail_z[a]) > r->p.box[2] / 2;
}

/*
 * Trails as the OpenGL version drew them: every boid's recent positions as
 * a line in its own colour fading toward the oldest.  Segments of the same
 * age share one path and one stroke, so the cost grows with the trail
 * length, not with strokes per boid.  tx, ty: the positions drawn (see
 * trail_gap()).
 */
void render_draw_trails(struct renderer *r, const struct render_view *v, const double *tx, const double *ty)
{
	const struct render_params *p = &r->p;
	cairo_t *cr = r->cr;
	size_t n = v->n, len = v->trail_len;

	cairo_save(cr);
	cairo_set_line_width(cr, 1);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
	for (int pred = 0; pred < 2; pred++) {
		size_t lo = pred ? 0 : v->predators, hi = pred ? v->predators : n;
		uint32_t rgb = pred ? p->predator_color : p->boid_color;
		if (lo >= hi)
			continue;
		for (size_t k = 1; k < len; k++) {
			const double *ax = tx + (k - 1) * n, *ay = ty + (k - 1) * n;
			const double *bx = tx + k * n, *by = ty + k * n;
			for (size_t i = lo; i < hi; i++) {
				if (trail_gap(r, v, tx, ty, k, i))
					continue;
				cairo_move_to(cr, ax[i], ay[i]);
				cairo_line_to(cr, bx[i], by[i]);
			}
			cairo_set_source_rgba(cr, (double)(rgb >> 16 & 255) / 255, (double)(rgb >> 8 & 255) / 255,
			                      (double)(rgb & 255) / 255, .6 * (double)k / (double)len);
			cairo_stroke(cr);
		}
	}
	cairo_restore(cr);
}

/*
 * One boid's tail as the OpenGL version draws it (DrawTailLines): segment k
 * from position k-1 to k, oldest first, 2 units wide with flat (butt) ends,
 * Skia's default; alpha (byte)(255 x (k+1)/len x .5), so from 0.05 for the
 * oldest to 0.5 for the newest of 20.  Each segment is its own stroke, so
 * where two overlap they blend twice, as there.  tx, ty: as render_draw_trails().
 */
void render_draw_tail(struct renderer *r, const struct render_view *v, const double *tx, const double *ty,
                      size_t i, uint32_t rgb)
{
	cairo_t *cr = r->cr;
	size_t n = v->n, len = v->trail_len;

	for (size_t k = 1; k < len; k++) {
		double ax = tx[(k - 1) * n + i], ay = ty[(k - 1) * n + i];
		double bx = tx[k * n + i], by = ty[k * n + i];
		if (trail_gap(r, v, tx, ty, k, i))
			continue;
		double frac = (double)(k + 1) / (double)len;
		double alpha = floor(255 * frac * .5) / 255;
		cairo_set_source_rgba(cr, (double)(rgb >> 16 & 255) / 255, (double)(rgb >> 8 & 255) / 255,
		                      (double)(rgb & 255) / 255, alpha);
		cairo_move_to(cr, ax, ay);
		cairo_line_to(cr, bx, by);
		cairo_stroke(cr);
	}
}

/* A circle of radius r with a tick of half-length t across it ahead. */
static void range_ring(cairo_t *cr, uint32_t rgb, double r, double t)
{
	render_set_color(cr, rgb);
	cairo_new_sub_path(cr);
	cairo_arc(cr, 0, 0, r, 0, 2 * M_PI);
	cairo_stroke(cr);
	cairo_move_to(cr, 0, r - t);
	cairo_line_to(cr, 0, r + t);
	cairo_stroke(cr);
}

/*
 * The OpenGL version's "Ranges" overlay (DrawRanges), around the last boid
 * and turned with it: a yellow cross showing its axes, a magenta circle of
 * the separation radius and a light green one of the cohesion radius, each
 * with a tick across it ahead of the boid; lines 2 units wide.  At (x, y),
 * turned by angle, scaled by size (3D: the boid's size factor).
 */
void render_draw_ranges_at(struct renderer *r, double x, double y, double angle, double size)
{
	cairo_t *cr = r->cr;
	const struct render_params *p = &r->p;
	double near = p->range_near, far = p->range_far;

	cairo_save(cr);
	cairo_translate(cr, x, y);
	cairo_rotate(cr, angle);
	if (size != 1)
		cairo_scale(cr, size, size);
	cairo_set_line_width(cr, 2);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
	render_set_color(cr, 0xFFFF00); /* Yellow */
	cairo_move_to(cr, -5, 0);
	cairo_line_to(cr, 5, 0);
	cairo_move_to(cr, 0, 0);
	cairo_line_to(cr, 0, 10);
	cairo_stroke(cr);
	range_ring(cr, 0xFF00FF, near, 5);  /* Magenta */
	range_ring(cr, 0x90EE90, far, 10);  /* LightGreen */
	cairo_restore(cr);
}

/* The ranges around the last boid of a 2D view. */
static void draw_ranges(struct renderer *r, const struct render_view *v)
{
	size_t i = v->n - 1;

	if (v->n && render_finite2(v->x[i], v->y[i]))
		render_draw_ranges_at(r, v->x[i], v->y[i], render_heading(v->vx[i], v->vy[i]), 1);
}

/* The steering target: a ring with a dot, 6 units across. */
void render_draw_target(struct renderer *r, double x, double y)
{
	cairo_t *cr = r->cr;

	if (!render_finite2(x, y))
		return;
	cairo_save(cr);
	render_set_color(cr, r->p.target_color);
	cairo_set_line_width(cr, 1.5);
	cairo_new_sub_path(cr);
	cairo_arc(cr, x, y, 6, 0, 2 * M_PI);
	cairo_stroke(cr);
	cairo_arc(cr, x, y, 1.5, 0, 2 * M_PI);
	cairo_fill(cr);
	cairo_restore(cr);
}

/* The picture's background, the noise backdrop or a flat colour, whatever the canvas's matrix. */
void render_paint_background(struct renderer *r)
{
	cairo_save(r->cr);
	cairo_identity_matrix(r->cr);
	if (r->backdrop)
		cairo_set_source_surface(r->cr, r->backdrop, 0, 0);
	else
		render_set_color(r->cr, r->p.background);
	cairo_paint(r->cr);
	cairo_restore(r->cr);
}

/* Boid i of a 2D view: at its position, turned along its velocity, at its kind's size and colour. */
static void place_flat(const struct renderer *r, const struct render_view *v, size_t i, struct placed *b)
{
	const struct render_params *p = &r->p;
	int predator = i < v->predators;

	b->x = v->x[i];
	b->y = v->y[i];
	b->i = i;
	b->predator = predator;
	b->rgb = predator ? p->predator_color : p->boid_color;
	if (p->shape == RENDER_CIRCLE) { /* no heading; predators the same size */
		b->angle = 0;
		b->size = p->boid_size;
		return;
	}
	b->angle = render_heading(v->vx[i], v->vy[i]);
	b->size = predator ? p->boid_size * p->predator_size : p->boid_size;
}

/*
 * The 2D pass of render_frame(), under the field's matrix `base`: the
 * obstacles, the trails, the boids placed in index order and drawn by
 * render_draw_run() (*paint: as there), the target marker and the ranges.
 */
static int draw_2d(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base, int *paint)
{
	int tails = v->trail_len > 1 && r->p.trail_style == RENDER_TRAIL_OPENGL;

	size_t part = v->n < DRAW_PART ? v->n : DRAW_PART;
	if (render_grow(&r->list, &r->list_cap, part, sizeof(*r->list)) != 0)
		return -ENOMEM;
	draw_obstacles(r);
	if (v->trail_len > 1 && !tails)
		render_draw_trails(r, v, v->trail_x, v->trail_y);
	if (tails) {
		cairo_set_line_width(r->cr, 2);
		cairo_set_line_cap(r->cr, CAIRO_LINE_CAP_BUTT);
	}
	size_t k = 0;
	do { /* DRAW_PART boids at a time, in index order (an empty flock: its background) */
		size_t m = v->n - k < part ? v->n - k : part;
		for (size_t i = 0; i < m; i++)
			place_flat(r, v, k + i, &r->list[i]);
		render_draw_run(r, v, r->list, m, base, tails ? v->trail_x : NULL, v->trail_y, paint);
		k += m;
	} while (k < v->n);
	if (v->has_target)
		render_draw_target(r, v->target_x, v->target_y);
	if (r->p.show_ranges)
		draw_ranges(r, v);
	return 0;
}

/*
 * --draw points (points.h): the background and the obstacles, then every
 * boid but the predators added up as points and composed in the boids'
 * colour, then the predators one by one over them, then the target
 * marker; no trails, no --show-ranges.  The field's matrix `base` takes a
 * position to the picture (it only scales and moves).  3D: render3d.c.
 */
static int draw_points(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base)
{
	const struct render_params *p = &r->p;
	size_t np = v->predators < v->n ? v->predators : v->n;

	render_paint_background(r); /* (the sums are all 0: points_compose() leaves them so) */
	if (v->z)
		return render_points_3d(r, v, base);
	draw_obstacles(r);
	cairo_surface_flush(r->surface);
	points_plane(&r->pts, v->x, v->y, np, v->n, base->xx, base->x0, base->y0);
	points_compose(&r->pts, r->data, r->stride, p->boid_color);
	for (size_t i = 0; i < np; i++) /* the predators, in index order, over the flock */
		points_blend_one(r->data, r->stride, p->width, p->height, v->x[i] * base->xx + base->x0,
		                 v->y[i] * base->yy + base->y0, POINTS_WHOLE, p->predator_color);
	cairo_surface_mark_dirty(r->surface);
	if (v->has_target)
		render_draw_target(r, v->target_x, v->target_y);
	return 0;
}

int render_frame(struct renderer *r, const struct render_view *v)
{
	cairo_t *cr = r->cr;
	const struct render_params *p = &r->p;
	cairo_matrix_t base; /* the field's matrix: masks start from it */

	assert(v->n == 0 || (v->x && v->y && v->vx && v->vy));
	cairo_save(cr);
	if (p->grid == RENDER_GRID_GDI)
		cairo_translate(cr, .5, .5); /* whole coordinates on pixel centres */
	if (p->offset[0] != 0 || p->offset[1] != 0)
		cairo_translate(cr, p->offset[0], p->offset[1]); /* --field: centred */
	cairo_scale(cr, p->scale, p->scale);
	cairo_get_matrix(cr, &base);
	/* nothing but the background under the boids (3D: obstacles come between runs): the
	 * bands paint it band by band */
	int paint = r->masks && v->trail_len <= 1 && (v->z ? !p->ground && !p->box_edges : !p->obstacles_n);
	if (!paint && p->draw != RENDER_DRAW_POINTS)
		render_paint_background(r);
	int err = p->draw == RENDER_DRAW_POINTS ? draw_points(r, v, &base) :
	          v->z ? render_draw_3d(r, v, &base, &paint) : draw_2d(r, v, &base, &paint);
	cairo_restore(cr);
	cairo_surface_flush(r->surface);
	return err ? err : render_cairo_error_code(cairo_status(cr));
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
	if (r->mcr)
		cairo_destroy(r->mcr);
	if (r->msurf)
		cairo_surface_destroy(r->msurf);
	if (r->surface)
		cairo_surface_destroy(r->surface);
	free(r->mem); /* after the surface that used it */
	if (r->backdrop)
		cairo_surface_destroy(r->backdrop);
	free(r->flat[0].pts);
	free(r->flat[1].pts);
	free(r->acc);
	free(r->rowspan);
	free(r->dev);
	free(r->one);
	free(r->bg_row);
	free(r->bands.mask);
	free(r->bands.list);
	free(r->bands.start); /* held[] too */
	free(r->bands.arena[0]);
	free(r->bands.arena[1]);
	free(r->list);
	free(r->placed);
	free(r->order);
	free(r->trail_uv);
	free(r->spheres);
	points_release(&r->pts);
	free(r);
}
