/* refmodel — see refmodel.h.  Reads like the C#, on purpose. */
#include "refmodel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double dist(const struct ref_boid *a, const struct ref_boid *b)
{
	return sqrt(pow(a->X - b->X, 2) + pow(a->Y - b->Y, 2));
}

static void Flock(const struct ref_field *f, const struct ref_boid *all, const struct ref_boid *boid,
                  double distance, double power, double *xv, double *yv)
{
	double sx = 0, sy = 0;
	int count = 0;
	for (size_t i = 0; i < f->n; i++)
		if (dist(&all[i], boid) < distance) {
			sx += all[i].X;
			sy += all[i].Y;
			count++;
		}
	*xv = (sx / count - boid->X) * power;
	*yv = (sy / count - boid->Y) * power;
}

static void Align(const struct ref_field *f, const struct ref_boid *all, const struct ref_boid *boid,
                  double distance, double power, double *xv, double *yv)
{
	double sx = 0, sy = 0;
	int count = 0;
	for (size_t i = 0; i < f->n; i++)
		if (dist(&all[i], boid) < distance) {
			sx += all[i].Xvel;
			sy += all[i].Yvel;
			count++;
		}
	*xv = (sx / count - boid->Xvel) * power;
	*yv = (sy / count - boid->Yvel) * power;
}

static void Avoid(const struct ref_field *f, const struct ref_boid *all, const struct ref_boid *boid,
                  double distance, double power, double *xv, double *yv)
{
	double sx = 0, sy = 0;
	for (size_t i = 0; i < f->n; i++)
		if (dist(&all[i], boid) < distance) {
			double closeness = distance - dist(boid, &all[i]);
			sx += (boid->X - all[i].X) * closeness;
			sy += (boid->Y - all[i].Y) * closeness;
		}
	*xv = sx * power;
	*yv = sy * power;
}

static void Predator(const struct ref_field *f, const struct ref_boid *all, const struct ref_boid *boid,
                     double distance, double power, double *xv, double *yv)
{
	double sx = 0, sy = 0;
	for (int i = 0; i < f->PredatorCount && (size_t)i < f->n; i++) {
		double away = dist(boid, &all[i]);
		if (away < distance) {
			double closeness = distance - away;
			sx += (boid->X - all[i].X) * closeness;
			sy += (boid->Y - all[i].Y) * closeness;
		}
	}
	*xv = sx * power;
	*yv = sy * power;
}

void ref_advance(struct ref_field *f)
{
	struct ref_boid *snap = malloc(f->n * sizeof(*snap));
	memcpy(snap, f->Boids, f->n * sizeof(*snap));
	const struct ref_boid *src = f->synchronous ? snap : f->Boids;

	for (size_t b = 0; b < f->n; b++) {
		struct ref_boid *boid = &f->Boids[b];
		const struct ref_boid *me = &src[b];
		double fx, fy, ax, ay, vx, vy, px, py;
		Flock(f, src, me, 50, .0003, &fx, &fy);
		Align(f, src, me, 50, .01, &ax, &ay);
		Avoid(f, src, me, 20, .001, &vx, &vy);
		Predator(f, src, me, 150, .00005, &px, &py);
		boid->Xvel = me->Xvel + (fx + vx + ax + px);
		boid->Yvel = me->Yvel + (fy + vy + ay + py);
	}
	free(snap);

	for (size_t b = 0; b < f->n; b++) {
		struct ref_boid *boid = &f->Boids[b];
		boid->X += boid->Xvel;
		boid->Y += boid->Yvel;
		double speed = sqrt(pow(boid->Xvel, 2) + pow(boid->Yvel, 2));
		if (speed > 5) {
			boid->Xvel = (boid->Xvel / speed) * 5;
			boid->Yvel = (boid->Yvel / speed) * 5;
		} else if (speed < 1) {
			boid->Xvel = (boid->Xvel / speed) * 1;
			boid->Yvel = (boid->Yvel / speed) * 1;
		}
		if (isnan(boid->Xvel))
			boid->Xvel = 0;
		if (isnan(boid->Yvel))
			boid->Yvel = 0;
		if (f->bounce) {
			if (boid->X < 50) boid->Xvel += .5;
			if (boid->X > f->Width - 50) boid->Xvel -= .5;
			if (boid->Y < 50) boid->Yvel += .5;
			if (boid->Y > f->Height - 50) boid->Yvel -= .5;
		}
		if (f->wrap) {
			if (boid->X < 0) boid->X += f->Width;
			if (boid->X > f->Width) boid->X -= f->Width;
			if (boid->Y < 0) boid->Y += f->Height;
			if (boid->Y > f->Height) boid->Y -= f->Height;
		}
	}
}
