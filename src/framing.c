/*
 * framing — what each frame shows; see include/framing.h.  Start at
 * framing_window(): the frame's whole field (whole_field()), eased
 * (view_at()), followed (follow()); then framing_copy().
 */
#include "framing.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "grow.h"

#define CULL_SHARE 0.25 /* a window of less than this share of the field copies only its boids */

void framing_init(struct framing *f, const struct config *c, const struct sim *s)
{
	memset(f, 0, sizeof(*f));
	f->cfg = c;
	metrics_ctx_init(&f->mctx);
	cull_init(&f->cull);
	struct view_setup *v = &f->view;
	for (int k = 0; k < 3; k++) {
		v->start[k] = c->run.view[k];
		v->end[k] = c->run.view_end[k];
	}
	v->follow = c->run.follow;
	v->frames = c->run.frames > 0 ? c->run.frames : 1;
	v->aspect = (double)c->render.height / c->render.width;
	v->field[0] = s->p.width;
	v->field[1] = s->p.height;
	v->field[2] = s->p.depth;
	v->wrap = sim_wraps(s);
	v->three = s->z != NULL;
}

void framing_release(struct framing *f)
{
	metrics_ctx_release(&f->mctx);
	cull_release(&f->cull);
	free(f->keep);
	free(f->depth);
}

/*
 * The window frame k shows of the whole field: 2D the field fitted into
 * the picture (its centre; the wider of its width and its height at the
 * picture's aspect); 3D the camera's preset framing at frame k (the point
 * it looks at, the width it shows there).
 */
static void whole_field(const struct framing *f, long k, double whole[4])
{
	const struct render_params *rp = &f->cfg->render;
	const double *fd = f->view.field;

	if (!f->view.three) {
		whole[0] = fd[0] / 2, whole[1] = fd[1] / 2, whole[2] = 0;
		whole[3] = fmax(fd[0], fd[1] / f->view.aspect);
		return;
	}
	struct camera cam;
	camera_place(&cam, &rp->camera, rp->box, rp->width / rp->scale, rp->height / rp->scale, k);
	for (int i = 0; i < 3; i++)
		whole[i] = cam.eye[i] + cam.ref * cam.fwd[i];
	whole[3] = 2 * cam.cu * cam.ref / cam.focal;
}

/* --follow: the window *at moved toward the largest cluster (kept where it was if there is none). */
static int follow(struct framing *f, const struct sim *s, double at[4])
{
	struct metrics_input in = { s->n, s->x, s->y, s->vx, s->vy, s->p.width, s->p.height, sim_wraps(s),
	                            f->cfg->sim.harden.flock_radius, s->z, s->vz, s->p.depth };
	double target[3], radius;
	int err = metrics_largest(&f->mctx, &in, target, &radius);

	if (err == -ENOMEM)
		return err;
	if (err) { /* no boids: nothing to follow */
		if (!f->follow.started)
			return 0;
		memcpy(target, f->follow.c, sizeof(target));
		radius = f->follow.w * VIEW_FILL * fmin(1, f->view.aspect) / 2;
	}
	radius = fmax(radius, f->cfg->sim.harden.flock_radius / 4); /* a lone boid is not a point */
	view_follow(&f->follow, &f->view, target, radius, at);
	return 0;
}

int framing_window(struct framing *f, const struct sim *s, long k, struct render_window *w)
{
	double whole[4], at[4];

	memset(w, 0, sizeof(*w));
	if (!view_active(&f->view))
		return 0;
	whole_field(f, k, whole);
	view_at(&f->view, k, whole, at);
	if (f->view.follow) {
		int err = follow(f, s, at);
		if (err)
			return err;
	}
	*w = (struct render_window){ .set = 1, .cx = at[0], .cy = at[1], .cz = at[2], .w = at[3] };
	return 0;
}

/* Every boid, as the pipeline always copied them. */
static void copy_all(const struct sim *s, struct framing_copy *out)
{
	size_t bytes = s->n * sizeof(double);

	memcpy(out->x, s->x, bytes);
	memcpy(out->y, s->y, bytes);
	if (out->z)
		memcpy(out->z, s->z, bytes);
	if (out->velocities) { /* points by role have no heading: those pages stay untouched */
		memcpy(out->vx, s->vx, bytes);
		memcpy(out->vy, s->vy, bytes);
		if (out->z)
			memcpy(out->vz, s->vz, bytes);
	}
	out->n = s->n;
	out->predators = s->p.predators < s->n ? s->p.predators : s->n;
}

/*
 * 3D, window w of frame k: only the boids the camera shows on the picture
 * (render_frustum()), with the fog's statistics of every boid in front of
 * it.  Returns 0 or -ENOMEM.
 */
static int copy_frustum(struct framing *f, const struct sim *s, long k, const struct render_window *w,
                        const struct renderer *rd, struct framing_copy *out)
{
	size_t n = s->n, np = s->p.predators < n ? s->p.predators : n, m = 0;
	struct render_view all = { .n = n, .predators = np, .x = s->x, .y = s->y, .z = s->z, .vx = s->vx,
	                           .vy = s->vy, .vz = s->vz, .frame = k, .window = *w };

	if (grow(&f->keep, &f->keep_cap, n ? n : 1, n ? n : 1, sizeof(*f->keep)) != 0 ||
	    grow(&f->depth, &f->depth_cap, n ? n : 1, n ? n : 1, sizeof(*f->depth)) != 0)
		return -ENOMEM;
	render_frustum(rd, &all, f->cfg->render.show_ranges && n ? n - 1 : SIZE_MAX, f->keep, f->depth, &out->fog);
	out->predators = 0;
	for (size_t i = 0; i < n; i++) {
		if (!f->keep[i])
			continue;
		out->x[m] = s->x[i], out->y[m] = s->y[i], out->z[m] = s->z[i];
		if (out->velocities)
			out->vx[m] = s->vx[i], out->vy[m] = s->vy[i], out->vz[m] = s->vz[i];
		out->predators += i < np;
		m++;
	}
	out->n = m;
	out->has_fog = 1;
	return 0;
}

/* May frame window w copy only its own boids (see the top of framing.h)? rect: its rectangle. */
static int cullable(const struct framing *f, const struct sim *s, const struct render_window *w,
                    const double rect[4])
{
	double area = (rect[2] - rect[0]) * (rect[3] - rect[1]);

	return w->set && !s->z && f->cfg->run.trail < 2 && area < CULL_SHARE * s->p.width * s->p.height;
}

/* The whole flock's speed range, for --color-by speed when only part of it is copied. */
static void speed_range(const struct framing *f, const struct sim *s, struct framing_copy *out)
{
	if (f->cfg->render.color_by != RENDER_COLOR_SPEED)
		return;
	struct render_view all = { .n = s->n, .predators = s->p.predators, .vx = s->vx, .vy = s->vy, .z = s->z,
	                           .vz = s->vz };
	render_speed_range(&all, &out->speed_lo, &out->speed_hi);
	out->has_speed_range = 1;
}

int framing_copy(struct framing *f, const struct sim *s, long k, const struct render_window *w,
                 const struct renderer *rd, struct framing_copy *out)
{
	double rect[4];
	size_t m;

	out->has_speed_range = 0;
	out->has_fog = 0;
	if (w->set && s->z && f->cfg->run.trail < 2) {
		int err = copy_frustum(f, s, k, w, rd, out);
		if (!err)
			speed_range(f, s, out);
		return err;
	}
	if (w->set && !s->z)
		render_window_rect(rd, w, rect);
	if (!(w->set && !s->z) || !cullable(f, s, w, rect)) {
		copy_all(s, out);
		return 0;
	}
	size_t last = f->cfg->render.show_ranges && s->n ? s->n - 1 : SIZE_MAX; /* the ranges' boid */
	int err = cull_rect(&f->cull, s->x, s->y, s->n, s->p.width, s->p.height, rect, last, &m);
	if (err)
		return err;
	out->predators = 0;
	for (size_t j = 0; j < m; j++) {
		size_t i = f->cull.idx[j];
		out->x[j] = s->x[i];
		out->y[j] = s->y[i];
		out->vx[j] = s->vx[i];
		out->vy[j] = s->vy[i];
		out->predators += i < s->p.predators;
	}
	out->n = m;
	speed_range(f, s, out);
	return 0;
}

int framing_density(struct framing *f, struct renderer *rd, struct render_view *v)
{
	if (f->cfg->render.draw != RENDER_DRAW_DENSITY)
		return 0;
	if (!f->density_fixed) {
		int err = f->cfg->render.density_range[1] > 0 ? 0 : render_density_bounds(rd, v, f->density);
		if (err)
			return err;
		f->density_scale = render_frame_scale(rd, v);
		f->density_fixed = 1;
	}
	v->density[0] = f->density[0];
	v->density[1] = f->density[1];
	v->density_scale = f->density_scale;
	return 0;
}
