/*
 * decor — what is drawn besides the boids: the obstacles (2D), the trails
 * (--trail, faded or the OpenGL version's tails), the --show-ranges
 * overlay, the steering target's marker and the background under it all.
 * Both passes (render.c's 2D, render3d.c's) call these with points already
 * placed.
 */
#include <math.h>
#include <stdint.h>

#include <cairo.h>

#include "render_int.h"

/* Obstacles: filled circles, in field units (the canvas is scaled). */
void render_draw_obstacles(struct renderer *r)
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
void render_draw_trails(struct renderer *r, const struct render_view *v, const double *tx, const double *ty,
                        double width)
{
	const struct render_params *p = &r->p;
	cairo_t *cr = r->cr;
	size_t n = v->n, len = v->trail_len;

	cairo_save(cr);
	cairo_set_line_width(cr, width);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
	for (int pred = 0; pred < 2; pred++) {
		size_t lo = pred ? 0 : v->predators, hi = pred ? v->predators : n;
		uint32_t rgb = pred ? p->predator_color : p->boid_color;
		if (lo >= hi)
			continue;
		for (size_t k = 1; k < len && !render_stopping(r); k++) {
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

	if (render_stopping(r)) /* a boid's tail is strokes of its own: the watch is asked before each */
		return;
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
void render_draw_ranges(struct renderer *r, const struct render_view *v)
{
	size_t i = v->n - 1;

	if (v->n && render_finite2(v->x[i], v->y[i]))
		render_draw_ranges_at(r, v->x[i], v->y[i], render_heading(v->vx[i], v->vy[i]), 1);
}

/*
 * The steering target: a ring with a dot, 6 units across, drawn last so it
 * stays above the swarm that gathers on it, on a disc of the background
 * colour 1.5 units wider than the ring that parts it from the boids (over
 * the bare background the disc is the background: nothing changes there).
 */
void render_draw_target(struct renderer *r, double x, double y)
{
	cairo_t *cr = r->cr;

	if (!render_finite2(x, y))
		return;
	cairo_save(cr);
	render_set_color(cr, r->p.background);
	cairo_arc(cr, x, y, 6 + 0.75 + 1.5, 0, 2 * M_PI);
	cairo_fill(cr);
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

uint32_t render_line_rgb(const struct renderer *r)
{
	uint32_t out = 0, bg = r->p.background;

	for (int sh = 16; sh >= 0; sh -= 8) { /* each channel half way to 255, rounded */
		double c = bg >> sh & 255;
		out |= (uint32_t)lround(c + (255 - c) * .5) << sh;
	}
	return out;
}

void render_draw_walls(struct renderer *r, const struct render_view *v)
{
	cairo_t *cr = r->cr;
	double w = r->p.box[0], h = r->p.box[1];

	if (!v->window.set || !render_finite2(w, h))
		return;
	cairo_save(cr);
	render_set_color(cr, render_line_rgb(r));
	cairo_set_line_width(cr, 1 / r->scale); /* a pixel at any zoom */
	cairo_new_path(cr);
	cairo_rectangle(cr, 0, 0, w, h);
	cairo_stroke(cr);
	cairo_restore(cr);
}
