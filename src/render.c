/*
 * render — draws one flock state with Cairo; see include/render.h.  This
 * file: the renderer's lifecycle, its defaults and the 2D pass.  The rest
 * lives below it: outline.c (the outline, the Cairo helpers), decor.c
 * (obstacles, trails, ranges, target, background), backdrop.c (the noise
 * background), raster.c (one boid's coverage and blend), bands.c (a list
 * of boids, in bands) and render3d.c (the 3D pass), sharing
 * src/render_int.h; none of them calls back into this file.
 *
 * Start at render_frame(): paint the background, scale the canvas once, then
 * for every boid save, translate, rotate by render_heading(), scale by the
 * boid size, fill the outline and restore — the canvas-transform technique
 * of the C# original rather than rotating points by hand (render_cairo_boid(), in
 * render_draw_run(); on big pictures in bands, below).
 *
 * The outline is computed once, in render_new(), as Bézier control points
 * in outline units (render_build_outline(): GDI+'s FillClosedCurve turned into
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

/* Every drawing setting's default, written here once: the option table
 * (src/options.c) holds each one's name, range and help, and shows these. */
void render_params_default(struct render_params *p, int width, int height)
{
	p->width = width;
	p->height = height;
	p->scale = 1;
	p->offset[0] = p->offset[1] = 0;
	p->trail_width = 1;
	p->shape = RENDER_CURVE;
	p->outline = RENDER_OUTLINE_LISTING;
	p->paint = RENDER_FILL;
	p->grid = RENDER_GRID_CAIRO;
	p->boid_size = 1;
	p->background = 0x003366;
	p->boid_color = 0x90EE90;     /* LightGreen */
	p->predator_color = 0xFFFFFF; /* White */
	p->color_by = RENDER_COLOR_ROLE;
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
	p->draw = RENDER_DRAW_AUTO;
	p->density_range[0] = p->density_range[1] = 0; /* the clip's first frame's */
	p->box[0] = width;
	p->box[1] = height;
	p->box[2] = width < height ? width : height;
	camera_setup_default(&p->camera);
	p->fog = 0.6;
	p->box_edges = 1;             /* on: what boids has always drawn in 3D */
	p->ground = 1;
	p->ground_cells = 10;
}

static int params_valid(const struct render_params *p)
{
	return p->width > 0 && p->height > 0 &&
	       isfinite(p->scale) && p->scale > 0 && isfinite(p->offset[0]) && isfinite(p->offset[1]) &&
	       isfinite(p->trail_width) && p->trail_width > 0 &&
	       isfinite(p->boid_size) && p->boid_size > 0 &&
	       (p->shape == RENDER_CURVE || p->shape == RENDER_REPO ||
	        p->shape == RENDER_POLYGON || p->shape == RENDER_TRIANGLE ||
	        p->shape == RENDER_ARROW || p->shape == RENDER_CIRCLE || p->shape == RENDER_TURTLE) &&
	       (p->outline == RENDER_OUTLINE_LISTING || p->outline == RENDER_OUTLINE_FINAL) &&
	       (p->paint == RENDER_FILL || p->paint == RENDER_STROKE) &&
	       (p->grid == RENDER_GRID_CAIRO || p->grid == RENDER_GRID_GDI) &&
	       (p->trail_style == RENDER_TRAIL_FADE || p->trail_style == RENDER_TRAIL_OPENGL) &&
	       p->fog >= 0 && p->fog <= 1 && camera_check(&p->camera, p->box) == 0 && p->ground_cells >= 1 &&
	       isfinite(p->range_near) && p->range_near >= 0 &&
	       isfinite(p->range_far) && p->range_far >= 0 &&
	       (p->antialias == RENDER_AA_NONE || p->antialias == RENDER_AA_FAST ||
	        p->antialias == RENDER_AA_GOOD || p->antialias == RENDER_AA_BEST) &&
	       p->background <= 0xFFFFFF && p->boid_color <= 0xFFFFFF &&
	       p->predator_color <= 0xFFFFFF &&
	       isfinite(p->predator_size) && p->predator_size > 0 &&
	       (p->background_style == RENDER_BG_FLAT || p->background_style == RENDER_BG_NOISE) &&
	       (p->obstacles_n == 0 || p->obstacles) &&
	       (p->draw == RENDER_DRAW_EXACT || p->draw == RENDER_DRAW_FAST || p->draw == RENDER_DRAW_POINTS ||
	        p->draw == RENDER_DRAW_AUTO || p->draw == RENDER_DRAW_DENSITY) &&
	       ((p->density_range[0] == 0 && p->density_range[1] == 0) ||
	        (p->density_range[0] > 0 && p->density_range[1] > p->density_range[0] && isfinite(p->density_range[1]))) &&
	       (p->color_by == RENDER_COLOR_ROLE || p->color_by == RENDER_COLOR_HEADING ||
	        p->color_by == RENDER_COLOR_SPEED || p->color_by == RENDER_COLOR_SHADE) &&
	       p->obstacle_color <= 0xFFFFFF && p->target_color <= 0xFFFFFF;
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

int render_needs_velocities(const struct render_params *p)
{
	return p->draw != RENDER_DRAW_POINTS || p->color_by != RENDER_COLOR_ROLE;
}

/* Are boids drawn through masks (render_masks_setup())?  Filled outlines, antialiased. */
static int masked(const struct renderer *r)
{
	const struct render_params *p = &r->p;

	return p->draw != RENDER_DRAW_POINTS && p->paint == RENDER_FILL && p->antialias != RENDER_AA_NONE;
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
	r->scale = p->scale;
	r->offset[0] = p->offset[0];
	r->offset[1] = p->offset[1];
	render_build_outline(r);
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
	    masked(r) && (err = render_masks_setup(r)) != 0)
		goto fail;
	if (p->draw == RENDER_DRAW_DENSITY && (err = render_density_setup(r)) != 0)
		goto fail;
	if (p->background_style == RENDER_BG_NOISE && (err = render_make_backdrop(r)) != 0)
		goto fail;
	if ((err = render_tint_setup(r)) != 0)
		goto fail;
	if (r->cmap && p->draw == RENDER_DRAW_POINTS && (err = points_use_colours(&r->pts)) != 0)
		goto fail;
	*out = r;
	return 0;
fail:
	render_free(r);
	return err;
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
	b->rgb = render_boid_rgb(r, v, i, predator);
	if (p->shape == RENDER_CIRCLE) { /* no heading; predators the same size */
		b->angle = 0;
		b->size = p->boid_size;
	} else {
		b->angle = render_heading(v->vx[i], v->vy[i]);
		b->size = predator ? p->boid_size * p->predator_size : p->boid_size;
	}
	b->alpha = render_lod_alpha(r, b->size);
}

/* The outline scale of a 2D view's boids (predator 0) or predators (1). */
static double flat_size(const struct renderer *r, int predator)
{
	const struct render_params *p = &r->p;

	return predator && p->shape != RENDER_CIRCLE ? p->boid_size * p->predator_size : p->boid_size;
}

/*
 * --draw auto's points in 2D, before any outline (the background painted
 * under them): the boids of opacity ab < 1 added as points of weight 1 -
 * ab (np .. n: the predators aside), composed, then the predators of
 * opacity ap < 1 as points over them, as --draw points draws them.
 */
static int lod_points_2d(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base,
                         double ab, double ap, size_t np)
{
	unsigned q = render_lod_weight(ab);
	int err = render_lod_points(r);

	if (err)
		return err;
	cairo_surface_flush(r->surface);
	struct render_tinted c = { r, v };
	if (q == POINTS_WHOLE && r->cmap)
		points_plane_rgb(&r->pts, v->x, v->y, np, v->n, base->xx, base->x0, base->y0, render_point_rgb, &c);
	else if (q == POINTS_WHOLE)
		points_plane(&r->pts, v->x, v->y, np, v->n, base->xx, base->x0, base->y0);
	for (size_t i = np; q > 0 && q < POINTS_WHOLE && i < v->n; i++) {
		double u = v->x[i] * base->xx + base->x0, w = v->y[i] * base->yy + base->y0;
		if (r->cmap)
			points_add_rgb(&r->pts, u, w, q, render_point_rgb(&c, i));
		else
			points_add(&r->pts, u, w, q);
	}
	render_lod_compose(r);
	for (size_t i = 0, qp = render_lod_weight(ap); qp > 0 && i < np; i++)
		points_blend_one(r->data, r->stride, r->p.width, r->p.height, v->x[i] * base->xx + base->x0,
		                 v->y[i] * base->yy + base->y0, (unsigned)qp, r->p.predator_color);
	cairo_surface_mark_dirty(r->surface);
	return 0;
}

/*
 * The 2D pass of render_frame(), under the field's matrix `base`: the
 * obstacles, a window's walls, the trails, --draw auto's points
 * (lod_points_2d()), the boids drawn as outlines placed in index order and
 * drawn by render_draw_run() (*paint: as there), the target marker and the
 * ranges.
 */
static int draw_2d(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base, int *paint)
{
	int tails = v->trail_len > 1 && r->p.trail_style == RENDER_TRAIL_OPENGL;
	double ab = render_lod_alpha(r, flat_size(r, 0)), ap = render_lod_alpha(r, flat_size(r, 1));
	size_t np = v->predators < v->n ? v->predators : v->n;

	size_t part = v->n < DRAW_PART ? v->n : DRAW_PART;
	if (grow(&r->list, &r->list_cap, part, part + part / 2, sizeof(*r->list)) != 0)
		return -ENOMEM;
	render_draw_obstacles(r);
	render_draw_walls(r, v);
	if (v->trail_len > 1 && !tails)
		render_draw_trails(r, v, v->trail_x, v->trail_y, r->p.trail_width);
	if (tails) {
		cairo_set_line_width(r->cr, 2);
		cairo_set_line_cap(r->cr, CAIRO_LINE_CAP_BUTT);
	}
	int lod = ab < 1 || ap < 1;
	for (size_t i = 0; lod && tails && i < v->n; i++) /* auto: every tail under every boid */
		render_draw_tail(r, v, v->trail_x, v->trail_y, i, i < np ? r->p.predator_color : r->p.boid_color);
	int err = !lod ? 0 : r->p.draw == RENDER_DRAW_DENSITY ? render_density_2d(r, v, base, ab, ap, np, NULL) :
	          lod_points_2d(r, v, base, ab, ap, np);
	if (err)
		return err;
	/* the outlines: every boid's, or only the predators' or only the others' (auto) */
	size_t k = ap > 0 ? 0 : np, end = ab > 0 ? v->n : np;
	do { /* DRAW_PART boids at a time, in index order (an empty flock: its background) */
		size_t m = end - k < part ? end - k : part;
		for (size_t i = 0; i < m; i++)
			place_flat(r, v, k + i, &r->list[i]);
		render_draw_run(r, v, r->list, m, base, tails && !lod ? v->trail_x : NULL, v->trail_y, paint);
		k += m;
	} while (k < end);
	if (v->has_target)
		render_draw_target(r, v->target_x, v->target_y);
	if (r->p.show_ranges)
		render_draw_ranges(r, v);
	return 0;
}

/*
 * --draw points (points.h): the background and the obstacles, then every
 * boid but the predators added up as points and composed in the boids'
 * colour (--color-by: each pixel in the weighted mean colour of its
 * points, points.h), then the predators one by one over them, then the target
 * marker; no trails, no --show-ranges.  The field's matrix `base` takes a
 * position to the picture (it only scales and moves).  3D: render3d.c.
 * Also --draw auto's bytes when every boid spans under RENDER_LOD_POINT.
 */
static int draw_points(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base)
{
	const struct render_params *p = &r->p;
	size_t np = v->predators < v->n ? v->predators : v->n;

	render_draw_obstacles(r); /* over the background (the sums are all 0: compose leaves them so) */
	render_draw_walls(r, v);
	cairo_surface_flush(r->surface);
	if (r->cmap) { /* --color-by: each point its own colour, in each pixel their weighted mean */
		struct render_tinted c = { r, v };
		points_plane_rgb(&r->pts, v->x, v->y, np, v->n, base->xx, base->x0, base->y0, render_point_rgb, &c);
		points_compose_rgb(&r->pts, r->data, r->stride);
	} else {
		points_plane(&r->pts, v->x, v->y, np, v->n, base->xx, base->x0, base->y0);
		points_compose(&r->pts, r->data, r->stride, p->boid_color);
	}
	for (size_t i = 0; i < np; i++) /* the predators, in index order, over the flock */
		points_blend_one(r->data, r->stride, p->width, p->height, v->x[i] * base->xx + base->x0,
		                 v->y[i] * base->yy + base->y0, POINTS_WHOLE, p->predator_color);
	cairo_surface_mark_dirty(r->surface);
	if (v->has_target)
		render_draw_target(r, v->target_x, v->target_y);
	return 0;
}

/* The scale and origin of window w (2D), else the params'. */
static void window_transform(const struct renderer *r, const struct render_window *w, double *scale, double o[2])
{
	const struct render_params *p = &r->p;

	*scale = p->scale;
	o[0] = p->offset[0];
	o[1] = p->offset[1];
	if (!w->set)
		return;
	*scale = p->width / w->w;
	o[0] = p->width / 2.0 - w->cx * *scale;
	o[1] = p->height / 2.0 - w->cy * *scale;
}

/* This frame's scale and origin (2D: its window's); masks follow a new scale.  0, -EINVAL, -ENOMEM. */
static int frame_transform(struct renderer *r, const struct render_view *v)
{
	const struct render_window *w = &v->window;
	double scale;

	if (w->set && !(isfinite(w->cx) && isfinite(w->cy) && isfinite(w->cz) && w->w > 0 && isfinite(w->w)))
		return -EINVAL;
	if (v->z) /* 3D: the window moves the camera, the picture keeps its scale */
		return 0;
	window_transform(r, w, &scale, r->offset);
	if (scale == r->scale)
		return 0;
	r->scale = scale;
	if (!masked(r))
		return 0;
	render_masks_release(r);
	return render_masks_setup(r);
}

/* The drawing of a frame, under the field's matrix `base`, in its mode. */
static int draw(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base)
{
	const struct render_params *p = &r->p;

	if (r->tint == RENDER_COLOR_SPEED && v->has_speed_range)
		r->speed_lo = v->speed_lo, r->speed_hi = v->speed_hi;
	else if (r->tint == RENDER_COLOR_SPEED)
		render_speed_range(v, &r->speed_lo, &r->speed_hi);
	if (p->draw == RENDER_DRAW_POINTS) {
		render_paint_background(r);
		return v->z ? render_points_3d(r, v, base, NULL) : draw_points(r, v, base);
	}
	/* nothing but the background under the boids (3D: obstacles come between runs): the
	 * bands paint it band by band */
	int lod = !v->z && (render_lod_alpha(r, flat_size(r, 0)) < 1 || render_lod_alpha(r, flat_size(r, 1)) < 1);
	int paint = r->masks && v->trail_len <= 1 && !lod &&
	            (v->z ? !p->ground && !p->box_edges : !p->obstacles_n && !v->window.set);
	if (!paint)
		render_paint_background(r);
	return v->z ? render_draw_3d(r, v, base, &paint) : draw_2d(r, v, base, &paint);
}

/* render_frame(), or with `measure` render_density_bounds(): the frame's bounds, nothing drawn. */
static int frame(struct renderer *r, const struct render_view *v, double *measure)
{
	cairo_t *cr = r->cr;
	const struct render_params *p = &r->p;
	cairo_matrix_t base; /* the field's matrix: masks start from it */

	assert(v->n == 0 || (v->x && v->y && v->vx && v->vy));
	int err = frame_transform(r, v);
	if (err)
		return err;
	cairo_save(cr);
	if (p->grid == RENDER_GRID_GDI)
		cairo_translate(cr, .5, .5); /* whole coordinates on pixel centres */
	if (r->offset[0] != 0 || r->offset[1] != 0)
		cairo_translate(cr, r->offset[0], r->offset[1]); /* --field: centred; a window */
	cairo_scale(cr, r->scale, r->scale);
	cairo_get_matrix(cr, &base);
	if (measure && v->z)
		err = render_points_3d(r, v, &base, measure);
	else if (measure)
		err = render_density_2d(r, v, &base, render_lod_alpha(r, flat_size(r, 0)),
		                        render_lod_alpha(r, flat_size(r, 1)), v->predators < v->n ? v->predators : v->n, measure);
	else
		err = draw(r, v, &base);
	cairo_restore(cr);
	cairo_surface_flush(r->surface);
	return err ? err : render_cairo_error_code(cairo_status(cr));
}

int render_frame(struct renderer *r, const struct render_view *v)
{
	r->stopped = 0;
	int err = frame(r, v, NULL);
	return err ? err : r->stopped ? -EINTR : 0;
}

void render_watch(struct renderer *r, int (*watch)(void *arg), void *arg)
{
	r->watch = watch;
	r->watch_arg = arg;
}

int render_density_bounds(struct renderer *r, const struct render_view *v, double out[2])
{
	return r->p.draw == RENDER_DRAW_DENSITY ? frame(r, v, out) : -EINVAL;
}

double render_frame_scale(const struct renderer *r, const struct render_view *v)
{
	double s, o[2];

	if (v->z)
		return render_3d_scale(r, v);
	window_transform(r, &v->window, &s, o);
	return s;
}

void render_window_rect(const struct renderer *r, const struct render_window *w, double rect[4])
{
	const struct render_params *p = &r->p;
	double s, o[2];

	window_transform(r, w, &s, o);
	double big = fmax(flat_size(r, 0), flat_size(r, 1));
	double m = r->reach * big + 1 + 2 / s; /* outline and stroke, fringe, half-pixel grid, a point */
	if (p->draw == RENDER_DRAW_DENSITY)
		m = fmax(m, render_density_reach(r, s)); /* and as far as the density's kernel reaches */
	rect[0] = -o[0] / s - m;
	rect[1] = -o[1] / s - m;
	rect[2] = (p->width - o[0]) / s + m;
	rect[3] = (p->height - o[1]) / s + m;
}

const unsigned char *render_pixels(const struct renderer *r, int *stride)
{
	if (stride)
		*stride = cairo_image_surface_get_stride(r->surface);
	return cairo_image_surface_get_data(r->surface);
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
	free(r->cmap);
	if (r->backdrop)
		cairo_surface_destroy(r->backdrop);
	free(r->flat[0].pts);
	free(r->flat[1].pts);
	free(r->acc);
	free(r->rowspan);
	free(r->dev);
	free(r->one);
	free(r->bg_row);
	free(r->dhue);
	free(r->dtone);
	free(r->dinv);
	free(r->bands.mask);
	free(r->bands.list);
	free(r->bands.start); /* held[] too */
	free(r->bands.arena[0]);
	free(r->bands.arena[1]);
	free(r->list);
	free(r->placed);
	free(r->order);
	free(r->front);
	free(r->trail_uv);
	free(r->spheres);
	points_release(&r->pts);
	kde_release(&r->kde);
	free(r);
}
