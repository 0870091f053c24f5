/*
 * view — the window each frame shows; see include/view.h.  Start at
 * view_at() (the eased zoom), then view_follow().
 */
#include "view.h"

#include <math.h>

int view_active(const struct view_setup *s)
{
	return s->start[2] > 0 || s->end[2] > 0 || s->follow;
}

/* A window from --view's numbers, else the whole field. */
static void window_of(const double given[3], const double whole[4], double out[4])
{
	if (given[2] > 0) {
		out[0] = given[0], out[1] = given[1], out[2] = whole[2], out[3] = given[2];
		return;
	}
	for (int k = 0; k < 4; k++)
		out[k] = whole[k];
}

void view_at(const struct view_setup *s, long k, const double whole[4], double out[4])
{
	double a[4], b[4];

	window_of(s->start, whole, a);
	if (!(s->end[2] > 0)) {
		for (int i = 0; i < 4; i++)
			out[i] = a[i];
		return;
	}
	window_of(s->end, whole, b);
	double t = s->frames > 1 ? (double)k / (double)(s->frames - 1) : 1;
	t = t < 0 ? 0 : t > 1 ? 1 : t;
	double e = t * t * (3 - 2 * t), ratio = b[3] / a[3];
	out[3] = a[3] * pow(ratio, e);
	if (fabs(log(ratio)) < 1e-9) { /* one width: a pan */
		for (int i = 0; i < 3; i++)
			out[i] = a[i] + (b[i] - a[i]) * e;
		return;
	}
	/* the point f at one place in both windows: a = f + (a - f) r^0, b = f + (a - f) r */
	for (int i = 0; i < 3; i++) {
		double f = (b[i] - a[i] * ratio) / (1 - ratio);
		out[i] = f + (a[i] - f) * out[3] / a[3];
	}
}

/* d the short way round a period p (when the field wraps). */
static double short_way(const struct view_setup *s, double d, int axis)
{
	double p = s->field[axis];

	if (!s->wrap || !(p > 0))
		return d;
	return d - p * floor(d / p + .5);
}

/* The width that frames a cluster of radius r: its diameter VIEW_FILL of the picture's shorter side. */
static double cluster_width(const struct view_setup *s, double r)
{
	return 2 * r / (VIEW_FILL * fmin(1, s->aspect));
}

void view_follow(struct view_follow *f, const struct view_setup *s, const double target[3], double radius,
                 double at[4])
{
	int axes = s->three ? 3 : 2, frame_it = s->three && !(s->start[2] > 0) && !(s->end[2] > 0);

	if (!f->started) { /* a zoom starts where its window is; a plain --follow on the cluster */
		int zoom = s->start[2] > 0 || s->end[2] > 0;
		for (int i = 0; i < 3; i++)
			f->c[i] = zoom && i < 2 ? at[i] : i < axes ? target[i] : at[i];
		f->w = cluster_width(s, radius);
		f->started = 1;
	} else {
		double w = frame_it ? f->w : at[3], step[3] = { 0, 0, 0 }, len = 0;
		for (int i = 0; i < axes; i++) {
			step[i] = VIEW_GAIN * short_way(s, target[i] - f->c[i], i);
			len += step[i] * step[i];
		}
		len = sqrt(len);
		double most = VIEW_STEP * w, k = len > most ? most / len : 1;
		for (int i = 0; i < axes; i++) {
			f->c[i] += step[i] * k;
			if (s->wrap && s->field[i] > 0 && (f->c[i] < 0 || f->c[i] >= s->field[i]))
				f->c[i] -= s->field[i] * floor(f->c[i] / s->field[i]); /* the other side of the torus */
		}
		double dw = VIEW_GAIN * (cluster_width(s, radius) - f->w), wmost = VIEW_STEP * f->w;
		f->w += dw > wmost ? wmost : dw < -wmost ? -wmost : dw;
	}
	for (int i = 0; i < axes; i++)
		at[i] = f->c[i];
	if (frame_it)
		at[3] = f->w;
}
