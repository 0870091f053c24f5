/*
 * render3d — the 3D pass of render_frame() (render_draw_3d()): the camera
 * placed for the frame, the box's edges and ground, every boid projected
 * into a struct placed and fogged, sorted back to front and handed to
 * render_draw_run() as a 2D list is, with the obstacles as shaded spheres
 * between the runs.
 */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <cairo.h>

#include "camera.h"
#include "render_int.h"

/* ------------------------------------------------------------------- 3D */

/* The depths the fog runs between: the box's nearest and farthest corner (in front of the camera). */
struct fog_range {
	double near, far;
};

static struct fog_range box_depths(const struct camera *cam, const double box[3])
{
	struct fog_range f = { HUGE_VAL, -HUGE_VAL };

	for (int i = 0; i < 8; i++) {
		double q[3] = { i & 1 ? box[0] : 0, i & 2 ? box[1] : 0, i & 4 ? box[2] : 0 };
		double d = camera_depth(cam, q);
		f.near = fmin(f.near, d);
		f.far = fmax(f.far, d);
	}
	f.near = fmax(f.near, cam->near);
	if (!(f.far > f.near))
		f.far = f.near + 1; /* the whole box behind the camera: nothing in it is drawn */
	return f;
}

/* Where depth d lies between the fog range's ends, 0 .. 1. */
static double depth_place(const struct fog_range *f, double d)
{
	return fmin(1, fmax(0, (d - f->near) / (f->far - f->near)));
}

/* A point's weight at depth d: the fog lightens it as it would blend its colour. */
static unsigned point_weight(const struct renderer *r, const struct fog_range *f, double d)
{
	return (unsigned)lround(POINTS_WHOLE * (1 - r->p.fog * depth_place(f, d)));
}

/* rgb moved the fraction t toward `to`, each channel rounded to a whole 255th. */
static uint32_t mix_rgb(uint32_t rgb, uint32_t to, double t)
{
	uint32_t out = 0;

	for (int sh = 16; sh >= 0; sh -= 8) {
		double c = rgb >> sh & 255, b = to >> sh & 255;
		out |= (uint32_t)lround(c + (b - c) * t) << sh;
	}
	return out;
}

/* The colour of a thing of colour rgb at depth d: the fog blends it toward the background. */
static uint32_t fogged(const struct renderer *r, const struct fog_range *f, uint32_t rgb, double d)
{
	return r->p.fog > 0 ? mix_rgb(rgb, r->p.background, r->p.fog * depth_place(f, d)) : rgb;
}

/* The segment a-b, cut to the part in front of the camera, stroked at the alpha of its middle's depth. */
static void stroke_3d(struct renderer *r, const struct camera *cam, const struct fog_range *f,
                      const double a0[3], const double b0[3], double alpha_near, double alpha_far)
{
	double a[3] = { a0[0], a0[1], a0[2] }, b[3] = { b0[0], b0[1], b0[2] }, au, av, bu, bv, da, db;
	uint32_t rgb = render_line_rgb(r);

	if (!camera_clip(cam, a, b) || !camera_project(cam, a, &au, &av, &da) ||
	    !camera_project(cam, b, &bu, &bv, &db))
		return;
	double t = depth_place(f, (da + db) / 2);
	cairo_set_source_rgba(r->cr, (double)(rgb >> 16 & 255) / 255, (double)(rgb >> 8 & 255) / 255,
	                      (double)(rgb & 255) / 255, alpha_near + (alpha_far - alpha_near) * t);
	cairo_move_to(r->cr, au, av);
	cairo_line_to(r->cr, bu, bv);
	cairo_stroke(r->cr);
}

/* --box: the box's 12 edges, 1 unit wide, fainter with depth. */
static void draw_box_edges(struct renderer *r, const struct camera *cam, const struct fog_range *f)
{
	const double *box = r->p.box;

	cairo_set_line_width(r->cr, 1);
	for (int i = 0; i < 8; i++)
		for (int bit = 1; bit < 8; bit <<= 1) {
			if (i & bit)
				continue;
			int j = i | bit;
			double a[3] = { i & 1 ? box[0] : 0, i & 2 ? box[1] : 0, i & 4 ? box[2] : 0 };
			double b[3] = { j & 1 ? box[0] : 0, j & 2 ? box[1] : 0, j & 4 ? box[2] : 0 };
			stroke_3d(r, cam, f, a, b, .7, .2);
		}
}

/* --ground: a grid of ground_cells on the box's floor (y = H), one cell a segment so that each fades with its depth. */
static void draw_ground(struct renderer *r, const struct camera *cam, const struct fog_range *f)
{
	const double *box = r->p.box;
	double cell = fmax(box[0], box[2]) / r->p.ground_cells;
	long nx = lround(fmax(1, box[0] / cell)), nz = lround(fmax(1, box[2] / cell));

	cairo_set_line_width(r->cr, .75);
	for (long i = 0; i <= nx; i++) /* lines along z */
		for (long k = 0; k < nz; k++) {
			double x = box[0] * (double)i / (double)nx;
			double a[3] = { x, box[1], box[2] * (double)k / (double)nz };
			double b[3] = { x, box[1], box[2] * (double)(k + 1) / (double)nz };
			stroke_3d(r, cam, f, a, b, .35, .08);
		}
	for (long k = 0; k <= nz; k++) /* lines along x */
		for (long i = 0; i < nx; i++) {
			double z = box[2] * (double)k / (double)nz;
			double a[3] = { box[0] * (double)i / (double)nx, box[1], z };
			double b[3] = { box[0] * (double)(i + 1) / (double)nx, box[1], z };
			stroke_3d(r, cam, f, a, b, .35, .08);
		}
}

/* Grows the 3D buffers for n boids and `cells` trail points.  0 or -ENOMEM. */
static int room_3d(struct renderer *r, size_t n, size_t cells)
{
	size_t part = n < DRAW_PART ? n : DRAW_PART;

	if (n > r->cap) {
		int e = grow_to(&r->placed, n, sizeof(*r->placed));
		if (grow_to(&r->order, n, sizeof(*r->order)) != 0 || grow_to(&r->front, n, sizeof(*r->front)) != 0 || e != 0)
			return -ENOMEM;
		r->cap = n;
	}
	if (cells > r->trail_cap) {
		if (grow_to(&r->trail_uv, 2 * cells, sizeof(*r->trail_uv)) != 0)
			return -ENOMEM;
		r->trail_cap = cells;
	}
	if (r->p.obstacles_n && !r->spheres &&
	    !(r->spheres = malloc(r->p.obstacles_n * sizeof(*r->spheres))))
		return -ENOMEM;
	return grow(&r->list, &r->list_cap, part, part + part / 2, sizeof(*r->list));
}

/*
 * The boids r->order[k .. end) (placed in r->placed), back to front, by
 * render_draw_run() DRAW_PART at a time (tx, ty, *paint: as there).
 */
static void draw_sorted(struct renderer *r, const struct render_view *v, size_t k, size_t end,
                        const cairo_matrix_t *base, const double *tx, const double *ty, int *paint)
{
	do {
		size_t m = end - k < DRAW_PART ? end - k : DRAW_PART;
		for (size_t i = 0; i < m; i++)
			r->list[i] = r->placed[r->order[k + i].i];
		render_draw_run(r, v, r->list, m, base, tx, ty, paint);
		k += m;
	} while (k < end);
}

/* Farther first; at one depth, lower index first (drawn under the higher, as in 2D). */
static int back_to_front(const void *pa, const void *pb)
{
	const struct depth_key *a = pa, *b = pb;

	if (a->depth != b->depth)
		return a->depth < b->depth ? 1 : -1;
	return (a->i > b->i) - (a->i < b->i);
}

#define FOG_MIN_SPAN 0.125 /* the fog's range: at least this part of the box's depth range */

/* The statistics of the depths d[0 .. m) (the boids in front, in index order): mean, squared deviations. */
static struct render_fog depth_stats(const double *d, size_t m)
{
	struct render_fog s = { m, 0, 0 };
	double sum = 0;

	if (!m)
		return s;
	for (size_t i = 0; i < m; i++)
		sum += d[i];
	s.mean = sum / (double)m;
	for (size_t i = 0; i < m; i++)
		s.sq += (d[i] - s.mean) * (d[i] - s.mean);
	return s;
}

/*
 * The depths the boids' fog runs between: the flock's own, its mean depth
 * -+ 2 standard deviations (over the boids in front of the camera: s), so
 * the front and the back of a flock differ in shade however tight it is;
 * never narrower than FOG_MIN_SPAN of the box's range (a flock flat to the
 * camera is not shaded by tiny differences).
 */
static struct fog_range flock_depths(const struct render_fog *s, const struct fog_range *box)
{
	if (!s->m)
		return *box;
	double half = fmax(2 * sqrt(s->sq / (double)s->m), (box->far - box->near) * FOG_MIN_SPAN / 2);
	return (struct fog_range){ s->mean - half, s->mean + half };
}

/* The camera of frame v: its mode's, moved by the frame's window if it has one. */
static void frame_camera(const struct renderer *r, const struct render_view *v, struct camera *cam)
{
	const struct render_params *p = &r->p;

	camera_place(cam, &p->camera, p->box, p->width / p->scale, p->height / p->scale, v->frame);
	if (v->window.set)
		camera_aim(cam, (double[3]){ v->window.cx, v->window.cy, v->window.cz }, v->window.w);
}

size_t render_frustum(const struct renderer *r, const struct render_view *v, size_t also, unsigned char *keep,
                      double *depth, struct render_fog *fog)
{
	const struct render_params *p = &r->p;
	struct camera cam;
	size_t m = 0, kept = 0;

	frame_camera(r, v, &cam);
	/* besides a boid's own reach: a point's pixel, the grid's half pixel, and the density's kernel */
	double more = 2 + (p->draw == RENDER_DRAW_DENSITY ? render_density_reach_px(r, r->scale, render_3d_scale(r, v)) : 0);
	for (size_t i = 0; i < v->n; i++) {
		double pt[3] = { v->x[i], v->y[i], v->z[i] }, u, w, d;
		keep[i] = 0;
		if (!camera_project(&cam, pt, &u, &w, &d))
			continue;
		depth[m++] = d;
		double size = camera_size(&cam, d) *
		              (i < v->predators && p->shape != RENDER_CIRCLE ? p->boid_size * p->predator_size : p->boid_size);
		double reach = render_boid_reach(r, size) + more;
		double px = u * r->scale + r->offset[0], py = w * r->scale + r->offset[1];
		keep[i] = px >= -reach && px <= p->width + reach && py >= -reach && py <= p->height + reach;
		kept += keep[i];
	}
	if (also < v->n && !keep[also])
		keep[also] = 1, kept++;
	*fog = depth_stats(depth, m);
	return kept;
}

double render_3d_scale(const struct renderer *r, const struct render_view *v)
{
	struct camera cam;

	frame_camera(r, v, &cam);
	return cam.focal / cam.ref * r->p.scale;
}

/*
 * --draw auto: the boids of r->order[0 .. m) (in front, fog f) whose
 * outline is below full opacity, added as points of weight 1 - alpha of
 * their fogged weight (predators aside); --draw density: to its image,
 * with their compass headings and no fog.  Returns how many outlines are
 * left to draw, r->order kept to those (alpha above 0), in its order.
 */
static size_t lod_points_3d(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base,
                            const struct fog_range *f, size_t m)
{
	size_t kept = 0;

	for (size_t k = 0; k < m; k++) {
		const struct placed *b = &r->placed[r->order[k].i];
		unsigned q = render_lod_weight(b->alpha) * point_weight(r, f, r->order[k].depth) / POINTS_WHOLE;
		double u = b->x * base->xx + base->x0, w = b->y * base->yy + base->y0;
		if (b->alpha < 1 && !b->predator && r->p.draw == RENDER_DRAW_DENSITY) /* whole weights: no fog */
			render_density_add(r, u, w, kde_direction(v->vx[b->i], v->vz[b->i]), render_lod_weight(b->alpha));
		else if (b->alpha < 1 && q && !b->predator && r->cmap)
			points_add_rgb(&r->pts, u, w, q, render_boid_rgb(r, v, b->i, 0));
		else if (b->alpha < 1 && q && !b->predator)
			points_add(&r->pts, u, w, q);
		if (b->alpha > 0)
			r->order[kept++] = r->order[k];
	}
	return kept;
}

/* Auto's points onto the picture (its background painted first if *paint), the predators' over them. */
static void lod_compose_3d(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base,
                           const struct fog_range *f, const double *depth, int *paint)
{
	if (*paint)
		render_paint_background(r);
	*paint = 0;
	cairo_surface_flush(r->surface);
	if (r->p.draw == RENDER_DRAW_DENSITY)
		render_density_finish(r, v, NULL);
	else
		render_lod_compose(r);
	for (size_t i = 0; i < v->predators && i < v->n; i++) { /* in index order, over the flock */
		const struct placed *b = &r->placed[i];
		unsigned q = depth[i] > 0 ? render_lod_weight(b->alpha) * point_weight(r, f, depth[i]) / POINTS_WHOLE : 0;
		if (b->alpha < 1 && q)
			points_blend_one(r->data, r->stride, r->p.width, r->p.height, b->x * base->xx + base->x0,
			                 b->y * base->yy + base->y0, q, r->p.predator_color);
	}
	cairo_surface_mark_dirty(r->surface);
}

/*
 * Projects every boid: its place, heading, size, opacity (--draw auto)
 * and colour, fogged over the flock's depths (flock_depths(), left in *f)
 * into r->placed[i], and the ones in front of the camera into r->order,
 * back to front.  Returns how many are in front; *points: how many of them
 * auto draws as points, or partly.
 */
static size_t place_3d(struct renderer *r, const struct render_view *v, const struct camera *cam,
                       struct fog_range *f, size_t *points)
{
	const struct render_params *p = &r->p;
	size_t m = 0;

	for (size_t i = 0; i < v->n; i++) {
		double pt[3] = { v->x[i], v->y[i], v->z[i] }, vel[3] = { v->vx[i], v->vy[i], v->vz[i] };
		double u, w, d, du, dw;
		struct placed *b = &r->placed[i];
		if (!camera_project(cam, pt, &u, &w, &d))
			continue;
		int predator = i < v->predators;
		b->x = u;
		b->y = w;
		b->i = i;
		b->predator = predator;
		camera_direction(cam, pt, vel, &du, &dw);
		b->angle = p->shape == RENDER_CIRCLE ? 0 : render_heading(du, dw);
		b->size = camera_size(cam, d) *
		          (predator && p->shape != RENDER_CIRCLE ? p->boid_size * p->predator_size : p->boid_size);
		b->alpha = render_lod_alpha(r, b->size);
		r->front[m] = d;
		r->order[m++] = (struct depth_key){ d, i };
	}
	struct render_fog all = v->has_fog ? v->fog : depth_stats(r->front, m);
	*f = flock_depths(&all, f);
	*points = 0;
	for (size_t k = 0; k < m; k++) {
		struct placed *b = &r->placed[r->order[k].i];
		b->rgb = fogged(r, f, render_boid_rgb(r, v, b->i, b->predator), r->order[k].depth);
		*points += b->alpha < 1;
	}
	if (m > 1)
		qsort(r->order, m, sizeof(*r->order), back_to_front);
	return m;
}

/* The obstacles in front of the camera into r->spheres, back to front; returns how many. */
static size_t place_spheres(struct renderer *r, const struct camera *cam)
{
	size_t m = 0;

	for (size_t i = 0; i < r->p.obstacles_n; i++) {
		const struct render_circle *c = &r->p.obstacles[i];
		double pt[3] = { c->x, c->y, c->z }, d = camera_depth(cam, pt);
		if (c->r > 0 && isfinite(c->r) && d > cam->near && isfinite(d))
			r->spheres[m++] = (struct depth_key){ d, i };
	}
	if (m > 1)
		qsort(r->spheres, m, sizeof(*r->spheres), back_to_front);
	return m;
}

/* An obstacle: a disc of the sphere's projected radius, lit from the upper left, in the fog. */
static void draw_sphere(struct renderer *r, const struct camera *cam, const struct fog_range *f,
                        const struct render_circle *c)
{
	double pt[3] = { c->x, c->y, c->z }, u, v, d;

	if (!camera_project(cam, pt, &u, &v, &d))
		return;
	double rad = c->r * cam->focal / d;
	if (!render_finite2(u, v) || !(rad < 1e6))
		return;
	uint32_t lit = fogged(r, f, mix_rgb(r->p.obstacle_color, 0xFFFFFF, .45), d);
	uint32_t shade = fogged(r, f, mix_rgb(r->p.obstacle_color, 0x000000, .35), d);
	cairo_pattern_t *g = cairo_pattern_create_radial(u - .35 * rad, v - .35 * rad, 0, u, v, rad);
	cairo_pattern_add_color_stop_rgb(g, 0, (double)(lit >> 16 & 255) / 255, (double)(lit >> 8 & 255) / 255,
	                                 (double)(lit & 255) / 255);
	cairo_pattern_add_color_stop_rgb(g, 1, (double)(shade >> 16 & 255) / 255,
	                                 (double)(shade >> 8 & 255) / 255, (double)(shade & 255) / 255);
	cairo_set_source(r->cr, g);
	cairo_new_path(r->cr);
	cairo_arc(r->cr, u, v, rad, 0, 2 * M_PI);
	cairo_fill(r->cr);
	cairo_pattern_destroy(g);
}

/* The trail's points projected into r->trail_uv (u then v; NaN where not drawn). */
static void project_trail(struct renderer *r, const struct render_view *v, const struct camera *cam)
{
	size_t cells = v->trail_len * v->n;
	double *tu = r->trail_uv, *tv = r->trail_uv + cells;

	for (size_t k = 0; k < cells; k++) {
		double pt[3] = { v->trail_x[k], v->trail_y[k], v->trail_z[k] }, d;
		if (!camera_project(cam, pt, &tu[k], &tv[k], &d))
			tu[k] = tv[k] = NAN;
	}
}

/*
 * --draw auto's points of the m boids in r->order (back to front): added,
 * composed, the predators' over them; *m the outlines left to draw in
 * r->order (still back to front: the points' were taken out in place).
 * 0 or -ENOMEM.
 */
static int lod_points(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base,
                      const struct fog_range *f, size_t *m, int *paint)
{
	int err = r->p.draw == RENDER_DRAW_DENSITY ? 0 : render_lod_points(r);
	double *depth = NULL;

	if (err)
		return err;
	if (v->predators && !(depth = calloc(v->predators, sizeof(*depth))))
		return -ENOMEM;
	for (size_t k = 0; k < *m; k++) /* the predators' depths, for their points' fog */
		if (r->order[k].i < v->predators)
			depth[r->order[k].i] = r->order[k].depth;
	cairo_surface_flush(r->surface);
	*m = lod_points_3d(r, v, base, f, *m);
	lod_compose_3d(r, v, base, f, depth, paint);
	free(depth);
	return 0;
}

/*
 * The 3D pass of render_frame(), under the field's matrix `base`: the
 * camera for this frame, the ground and box lines, the trails, then the
 * boids back to front with the obstacles among them in depth order, the
 * target marker and the ranges on top.  The boids between two obstacles
 * are a run, drawn by render_draw_run() as a 2D list is (in bands, or boid after
 * boid); *paint: as there.
 */
int render_draw_3d(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base, int *paint)
{
	const struct render_params *p = &r->p;
	cairo_t *cr = r->cr;
	struct camera cam;
	size_t trail = v->trail_len > 1 && v->trail_z ? v->trail_len : 0;
	int err = room_3d(r, v->n, trail * v->n);

	assert(v->n == 0 || v->vz);
	if (err)
		return err;
	frame_camera(r, v, &cam);
	struct fog_range f = box_depths(&cam, p->box);
	cairo_save(cr);
	if (p->ground)
		draw_ground(r, &cam, &f);
	if (p->box_edges)
		draw_box_edges(r, &cam, &f);
	cairo_restore(cr);
	const double *tu = r->trail_uv, *tv = r->trail_uv + trail * v->n;
	int tails = trail && p->trail_style == RENDER_TRAIL_OPENGL;
	if (trail)
		project_trail(r, v, &cam);
	if (trail && !tails)
		render_draw_trails(r, v, tu, tv, 1);
	if (tails) {
		cairo_set_line_width(cr, 2);
		cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
	}
	size_t points, m = place_3d(r, v, &cam, &f, &points), ns = place_spheres(r, &cam); /* f: the flock's now */
	if (points && p->draw == RENDER_DRAW_DENSITY &&
	    (err = render_density_begin(r, base->xx, render_3d_scale(r, v), points)) != 0)
		return err;
	if (points && (err = lod_points(r, v, base, &f, &m, paint)) != 0)
		return err;
	for (size_t k = 0, next = 0;;) {
		size_t end = k; /* the run: boids in front of every obstacle not yet drawn */
		while (end < m && !(next < ns && r->spheres[next].depth > r->order[end].depth))
			end++;
		if (end > k || *paint)
			draw_sorted(r, v, k, end, base, tails ? tu : NULL, tv, paint);
		if (next == ns)
			break; /* then end == m */
		/* the obstacles behind the next run (after the last one: the rest) */
		double depth = end < m ? r->order[end].depth : -HUGE_VAL;
		for (; next < ns && r->spheres[next].depth > depth; next++)
			draw_sphere(r, &cam, &f, &p->obstacles[r->spheres[next].i]);
		k = end;
	}
	double tp[3] = { v->target_x, v->target_y, v->target_z }, tu0, tv0, td;
	if (v->has_target && camera_project(&cam, tp, &tu0, &tv0, &td))
		render_draw_target(r, tu0, tv0);
	if (p->show_ranges && v->n && camera_project(&cam, (double[3]){ v->x[v->n - 1], v->y[v->n - 1], v->z[v->n - 1] },
	                                             &tu0, &tv0, &td)) {
		const struct placed *b = &r->placed[v->n - 1];
		render_draw_ranges_at(r, b->x, b->y, b->angle, camera_size(&cam, td));
	}
	return 0;
}

/* --------------------------------------------------------------- points */

/* The points of every boid but the predators through the camera: --draw points' (its colour or
 * --color-by's, weighted by the fog) or density's (their headings, whole). */
static void add_points_3d(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base,
                          const struct camera *cam, const struct fog_range *f, size_t np)
{
	int density = r->p.draw == RENDER_DRAW_DENSITY;
	double at[3], u, w, d;

	for (size_t i = np; i < v->n; i++) {
		at[0] = v->x[i], at[1] = v->y[i], at[2] = v->z[i];
		if (!camera_project(cam, at, &u, &w, &d))
			continue;
		u = u * base->xx + base->x0;
		w = w * base->yy + base->y0;
		if (density) /* the compass heading, as --color-by heading */
			kde_add(&r->kde, u, w, kde_direction(v->vx[i], v->vz[i]), POINTS_WHOLE);
		else if (r->cmap) /* --color-by: each point its colour, counted by its fogged weight */
			points_add_rgb(&r->pts, u, w, point_weight(r, f, d), render_boid_rgb(r, v, i, 0));
		else
			points_add(&r->pts, u, w, point_weight(r, f, d));
	}
}

int render_points_3d(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base, double *measure)
{
	const struct render_params *p = &r->p;
	size_t np = v->predators < v->n ? v->predators : v->n;
	struct camera cam;
	double at[3], u, w, d;
	int err = room_3d(r, 0, 0); /* the spheres' list */

	if (err)
		return err;
	frame_camera(r, v, &cam);
	struct fog_range f = box_depths(&cam, p->box);
	if (p->draw == RENDER_DRAW_DENSITY &&
	    (err = render_density_begin(r, base->xx, render_3d_scale(r, v), v->n - np)) != 0)
		return err;
	if (!measure) {
		if (p->ground)
			draw_ground(r, &cam, &f);
		if (p->box_edges)
			draw_box_edges(r, &cam, &f);
		for (size_t k = 0, m = place_spheres(r, &cam); k < m; k++)
			draw_sphere(r, &cam, &f, &p->obstacles[r->spheres[k].i]);
		cairo_surface_flush(r->surface);
	}
	add_points_3d(r, v, base, &cam, &f, np);
	if (p->draw == RENDER_DRAW_DENSITY)
		render_density_finish(r, v, measure);
	else if (r->cmap)
		points_compose_rgb(&r->pts, r->data, r->stride);
	else
		points_compose(&r->pts, r->data, r->stride, p->boid_color);
	if (measure)
		return 0;
	for (size_t i = 0; i < np; i++) { /* the predators, in index order, over the flock */
		at[0] = v->x[i], at[1] = v->y[i], at[2] = v->z[i];
		if (camera_project(&cam, at, &u, &w, &d))
			points_blend_one(r->data, r->stride, p->width, p->height, u * base->xx + base->x0,
			                 w * base->yy + base->y0, point_weight(r, &f, d), p->predator_color);
	}
	cairo_surface_mark_dirty(r->surface);
	at[0] = v->target_x, at[1] = v->target_y, at[2] = v->target_z;
	if (v->has_target && camera_project(&cam, at, &u, &w, &d))
		render_draw_target(r, u, w);
	return 0;
}
