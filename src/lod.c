/*
 * lod — --draw auto's level of detail: how a boid is drawn from how many
 * pixels it spans on this frame (its outline's longer side, r->span, at
 * its size and the frame's scale).  RENDER_LOD_DART pixels or more: its
 * outline, exactly as --draw exact draws it (same calls, same bytes).
 * Under RENDER_LOD_POINT: a point one pixel in area (points.h), as --draw
 * points draws it.  In between, both: the outline at opacity a, rising
 * linearly from 0 to 1 across the band, over a point of weight 1 - a, so
 * that the area a boid covers changes continuously through a zoom (a
 * point's one pixel at the band's foot, the outline's area at its top)
 * and nothing pops from one frame to the next.
 *
 * The passes (render.c's 2D, render3d.c's) add the points first and
 * compose them (render_lod_compose()), then draw the outlines over them
 * in their order.  --draw density does the same with its density image
 * (density.c) in the points' place: a zoom from the whole field to one
 * flock goes from the image to darts.
 */
#include <math.h>

#include "render_int.h"

double render_lod_alpha(const struct renderer *r, double size)
{
	if (r->p.draw != RENDER_DRAW_AUTO && r->p.draw != RENDER_DRAW_DENSITY)
		return 1;
	double px = r->span * size * r->scale;
	if (!(px < RENDER_LOD_DART))
		return 1; /* also NaN: drawn (or skipped) as an outline is */
	if (px < RENDER_LOD_POINT)
		return 0;
	return (px - RENDER_LOD_POINT) / (RENDER_LOD_DART - RENDER_LOD_POINT);
}

unsigned render_lod_weight(double alpha)
{
	return (unsigned)lround(POINTS_WHOLE * (1 - alpha));
}

int render_lod_points(struct renderer *r)
{
	int err;

	if (r->pts.acc)
		return 0;
	if ((err = points_init(&r->pts, r->p.width, r->p.height)) != 0)
		return err;
	return r->cmap ? points_use_colours(&r->pts) : 0;
}

void render_lod_compose(struct renderer *r)
{
	cairo_surface_flush(r->surface);
	if (r->cmap)
		points_compose_rgb(&r->pts, r->data, r->stride);
	else
		points_compose(&r->pts, r->data, r->stride, r->p.boid_color);
	cairo_surface_mark_dirty(r->surface);
}
