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

#include "colormap.h"
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
	p->draw = RENDER_DRAW_EXACT;
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
	        p->shape == RENDER_ARROW || p->shape == RENDER_CIRCLE) &&
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
	       (p->draw == RENDER_DRAW_EXACT || p->draw == RENDER_DRAW_FAST || p->draw == RENDER_DRAW_POINTS) &&
	       (p->color_by == RENDER_COLOR_ROLE || p->color_by == RENDER_COLOR_HEADING ||
	        p->color_by == RENDER_COLOR_SPEED) &&
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
	    p->paint == RENDER_FILL && p->antialias != RENDER_AA_NONE && (err = render_masks_setup(r)) != 0)
		goto fail;
	if (p->background_style == RENDER_BG_NOISE && (err = render_make_backdrop(r)) != 0)
		goto fail;
	if (p->color_by != RENDER_COLOR_ROLE) {
		if (!(r->cmap = malloc(RENDER_CMAP * sizeof(*r->cmap)))) {
			err = -ENOMEM;
			goto fail;
		}
		for (int k = 0; k < RENDER_CMAP; k++) /* heading: angle 2 pi k / N; speed: t = k / (N - 1) */
			r->cmap[k] = p->color_by == RENDER_COLOR_HEADING ? colormap_heading(2 * M_PI * k / RENDER_CMAP)
			                                                 : colormap_speed((double)k / (RENDER_CMAP - 1));
		if (p->draw == RENDER_DRAW_POINTS && (err = points_use_colours(&r->pts)) != 0)
			goto fail;
	}
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
		return;
	}
	b->angle = render_heading(v->vx[i], v->vy[i]);
	b->size = predator ? p->boid_size * p->predator_size : p->boid_size;
}

/* A boid's speed: in the plane, or in the box with vz. */
static double speed_of(const struct render_view *v, size_t i)
{
	double s2 = v->vx[i] * v->vx[i] + v->vy[i] * v->vy[i];

	return sqrt(v->z ? s2 + v->vz[i] * v->vz[i] : s2);
}

uint32_t render_boid_rgb(const struct renderer *r, const struct render_view *v, size_t i, int predator)
{
	const struct render_params *p = &r->p;

	if (predator || !r->cmap)
		return predator ? p->predator_color : p->boid_color;
	if (p->color_by == RENDER_COLOR_HEADING) {
		double a = v->z ? atan2(v->vz[i], v->vx[i]) : atan2(v->vy[i], v->vx[i]); /* NaN: 0 */
		long k = isfinite(a) ? lround(a / (2 * M_PI) * RENDER_CMAP) : 0;
		return r->cmap[((k % RENDER_CMAP) + RENDER_CMAP) % RENDER_CMAP];
	}
	double span = r->speed_hi - r->speed_lo, s = speed_of(v, i);
	double t = span > 0 ? (s - r->speed_lo) / span : .5;
	return r->cmap[isfinite(t) ? lround((t < 0 ? 0 : t > 1 ? 1 : t) * (RENDER_CMAP - 1)) : 0];
}

/* --color-by speed: the frame's slowest and fastest boid (predators aside; finite speeds). */
static void speed_range(struct renderer *r, const struct render_view *v)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = v->predators; i < v->n; i++) {
		double s = speed_of(v, i);
		if (isfinite(s)) {
			lo = s < lo ? s : lo;
			hi = s > hi ? s : hi;
		}
	}
	r->speed_lo = lo;
	r->speed_hi = hi > lo ? hi : lo;
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
	if (grow(&r->list, &r->list_cap, part, part + part / 2, sizeof(*r->list)) != 0)
		return -ENOMEM;
	render_draw_obstacles(r);
	if (v->trail_len > 1 && !tails)
		render_draw_trails(r, v, v->trail_x, v->trail_y, r->p.trail_width);
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
 */
struct boid_colours {
	const struct renderer *r;
	const struct render_view *v;
};

/*
 * atan2(y, x) in [-pi, pi] within 1e-9 rad, without a libm call: --draw
 * points colours millions of boids a frame by heading, where libm's atan2
 * took most of the time.  NaN stays NaN; (0, 0) is 0.
 */
static double quick_atan2(double y, double x)
{
	double ax = fabs(x), ay = fabs(y), hi = ax > ay ? ax : ay, lo = ax > ay ? ay : ax;

	if (!(hi > 0))
		return hi == 0 ? 0 : NAN;
	double t = lo / hi, base = 0; /* [0, 1] (NaN: infinities) */
	if (t > 0.41421356237309503) { /* tan(pi/8): atan t = pi/4 + atan((t - 1)/(t + 1)) */
		base = M_PI / 4;
		t = (t - 1) / (t + 1);
	}
	/* Taylor to t^23: |t| <= tan(pi/8), the rest below 1e-10 */
	double t2 = t * t;
	double s = -1.0 / 3 + t2 * (1.0 / 5 + t2 * (-1.0 / 7 + t2 * (1.0 / 9 + t2 * (-1.0 / 11 +
	           t2 * (1.0 / 13 + t2 * (-1.0 / 15 + t2 * (1.0 / 17 + t2 * (-1.0 / 19 +
	           t2 * (1.0 / 21 + t2 * (-1.0 / 23))))))))));
	double a = base + t + t * t2 * s;
	if (ay > ax)
		a = M_PI / 2 - a;
	if (x < 0)
		a = M_PI - a;
	return y < 0 ? -a : a;
}

static uint32_t boid_rgb(const void *arg, size_t i)
{
	const struct boid_colours *c = arg;
	const struct render_view *v = c->v;

	if (c->r->p.color_by != RENDER_COLOR_HEADING)
		return render_boid_rgb(c->r, v, i, 0);
	/* render_boid_rgb()'s map index, from quick_atan2() (a tie may round the other way) */
	double a = quick_atan2(v->vy[i], v->vx[i]), k = floor(a / (2 * M_PI) * RENDER_CMAP + .5);
	long j = isfinite(k) ? (long)k % RENDER_CMAP : 0;
	return c->r->cmap[j < 0 ? j + RENDER_CMAP : j];
}

static int draw_points(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base)
{
	const struct render_params *p = &r->p;
	size_t np = v->predators < v->n ? v->predators : v->n;

	render_paint_background(r); /* (the sums are all 0: points_compose() leaves them so) */
	if (v->z)
		return render_points_3d(r, v, base);
	render_draw_obstacles(r);
	cairo_surface_flush(r->surface);
	if (r->cmap) { /* --color-by: each point its own colour, in each pixel their weighted mean */
		struct boid_colours c = { r, v };
		points_plane_rgb(&r->pts, v->x, v->y, np, v->n, base->xx, base->x0, base->y0, boid_rgb, &c);
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
	if (p->color_by == RENDER_COLOR_SPEED)
		speed_range(r, v);
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
