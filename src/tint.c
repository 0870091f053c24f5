/*
 * tint — a boid's colour as --color-by says (its role, its heading on the
 * cyclic wheel, its speed on the sequential map, NetLogo's shades), for every drawing file
 * of the renderer: a leaf below render.c and render3d.c, which both ask
 * it and which it never calls.  Start at render_tint_setup(): the map
 * sampled once per renderer; render_boid_rgb() then reads it per boid.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "colormap.h"
#include "render_int.h"

int render_tint_setup(struct renderer *r)
{
	const struct render_params *p = &r->p;

	/* the density look's darts take its hue, the heading, unless --color-by says otherwise */
	r->tint = p->draw == RENDER_DRAW_DENSITY && p->color_by == RENDER_COLOR_ROLE ? RENDER_COLOR_HEADING : p->color_by;
	if (r->tint == RENDER_COLOR_ROLE)
		return 0;
	if (!(r->cmap = malloc(RENDER_CMAP * sizeof(*r->cmap))))
		return -ENOMEM;
	for (int k = 0; k < RENDER_CMAP; k++) /* heading: angle 2 pi k / N; speed: t = k / (N - 1);
	                                       * shade: -2 .. +4, again and again */
		r->cmap[k] = r->tint == RENDER_COLOR_HEADING ? colormap_heading(2 * M_PI * k / RENDER_CMAP) :
		             r->tint == RENDER_COLOR_SHADE ? colormap_netlogo_shade(p->boid_color, k % 7 - 2) :
		                                             colormap_speed((double)k / (RENDER_CMAP - 1));
	return 0;
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
	if (r->tint == RENDER_COLOR_SHADE) /* NetLogo's random shade, the same for a boid every frame */
		return r->cmap[i % 7];
	if (r->tint == RENDER_COLOR_HEADING) {
		double a = v->z ? atan2(v->vz[i], v->vx[i]) : atan2(v->vy[i], v->vx[i]); /* NaN: 0 */
		long k = isfinite(a) ? lround(a / (2 * M_PI) * RENDER_CMAP) : 0;
		return r->cmap[((k % RENDER_CMAP) + RENDER_CMAP) % RENDER_CMAP];
	}
	double span = r->speed_hi - r->speed_lo, s = speed_of(v, i);
	double t = span > 0 ? (s - r->speed_lo) / span : .5;
	return r->cmap[isfinite(t) ? lround((t < 0 ? 0 : t > 1 ? 1 : t) * (RENDER_CMAP - 1)) : 0];
}

void render_speed_range(const struct render_view *v, double *lo, double *hi)
{
	double l = INFINITY, h = -INFINITY;

	for (size_t i = v->predators; i < v->n; i++) {
		double s = speed_of(v, i);
		if (isfinite(s)) {
			l = s < l ? s : l;
			h = s > h ? s : h;
		}
	}
	*lo = l;
	*hi = h > l ? h : l;
}

/*
 * atan2(y, x) in [-pi, pi] within 1e-9 rad, without a libm call: --draw
 * points colours millions of boids a frame by heading, where libm's atan2
 * took most of the time.  NaN stays NaN; (0, 0) is 0.
 */
double render_quick_atan2(double y, double x)
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

uint32_t render_point_rgb(const void *arg, size_t i)
{
	const struct render_tinted *c = arg;
	const struct render_view *v = c->v;

	if (c->r->tint != RENDER_COLOR_HEADING)
		return render_boid_rgb(c->r, v, i, 0);
	/* render_boid_rgb()'s map index, from render_quick_atan2() (a tie may round the other way) */
	double a = render_quick_atan2(v->vy[i], v->vx[i]), k = floor(a / (2 * M_PI) * RENDER_CMAP + .5);
	long j = isfinite(k) ? (long)k % RENDER_CMAP : 0;
	return c->r->cmap[j < 0 ? j + RENDER_CMAP : j];
}
