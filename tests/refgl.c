/* refgl — see refgl.h.  Reads like the C#, on purpose. */
#include "refgl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the generator, from its published description ---- */

static uint64_t sm_state;

static uint64_t SplitMix(void)
{
	uint64_t z = (sm_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t xs[4];

static uint64_t Rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static double NextDouble(void)
{
	uint64_t result = Rotl(xs[1] * 5, 7) * 9;
	uint64_t t = xs[1] << 17;
	xs[2] ^= xs[0];
	xs[3] ^= xs[1];
	xs[1] ^= xs[2];
	xs[0] ^= xs[3];
	xs[2] ^= t;
	xs[3] = Rotl(xs[3], 45);
	return (double)(result >> 11) / 9007199254740992.0; /* 2^53 */
}

void refgl_randomize(struct refgl_field *f, uint64_t seed, size_t predatorCount)
{
	sm_state = seed;
	for (int i = 0; i < 4; i++)
		xs[i] = SplitMix();
	for (size_t i = 0; i < f->n; i++) {
		struct refgl_boid *b = &f->Boids[i];
		b->X = NextDouble() * f->Width;
		b->Y = NextDouble() * f->Height;
		b->Xvel = NextDouble() - .5;
		b->Yvel = NextDouble() - .5;
		b->TargetSpeed = .5 + NextDouble();
		b->IsPredator = 0;
		if (i < predatorCount) {
			b->IsPredator = 1;
			b->TargetSpeed += .5;
		}
	}
}

/* ---- Position, Velocity, Boid ---- */

static double Distance(const struct refgl_boid *from, const struct refgl_boid *to)
{
	double dX = to->X - from->X, dY = to->Y - from->Y;
	return sqrt(dX * dX + dY * dY);
}

/* Boids[i] as this boid sees it: itself live, the others from `others`. */
static const struct refgl_boid *Other(const struct refgl_boid *others, size_t i,
                                      const struct refgl_boid *self, size_t selfIndex)
{
	return i == selfIndex ? self : &others[i];
}

static void FlockWithNeighbors(struct refgl_boid *me, size_t mi, const struct refgl_boid *boids,
                               size_t n, double vision, double weight)
{
	if (me->IsPredator)
		vision *= 2;
	int neighborCount = 0;
	double centerX = 0, centerY = 0;
	for (size_t i = 0; i < n; i++) {
		const struct refgl_boid *boid = Other(boids, i, me, mi);
		if (Distance(boid, me) < vision) {
			centerX += boid->X;
			centerY += boid->Y;
			neighborCount += 1;
		}
	}
	centerX /= neighborCount;
	centerY /= neighborCount;
	me->Xvel += (centerX - me->X) * weight;
	me->Yvel += (centerY - me->Y) * weight;
}

static void AvoidCloseBoids(struct refgl_boid *me, size_t mi, const struct refgl_boid *boids,
                            size_t n, double vision, double weight)
{
	for (size_t i = 0; i < n; i++) {
		const struct refgl_boid *boid = Other(boids, i, me, mi);
		if (boid->IsPredator == me->IsPredator) {
			double closeness = vision - Distance(boid, me);
			if (closeness > 0) {
				me->Xvel -= (boid->X - me->X) * weight * closeness;
				me->Yvel -= (boid->Y - me->Y) * weight * closeness;
			}
		}
	}
}

static void AlignWithNeighbors(struct refgl_boid *me, size_t mi, const struct refgl_boid *boids,
                               size_t n, double vision, double weight)
{
	int neighborCount = 0;
	double meanVelX = 0, meanVelY = 0;
	for (size_t i = 0; i < n; i++) {
		const struct refgl_boid *boid = Other(boids, i, me, mi);
		if (Distance(boid, me) < vision) {
			meanVelX += boid->Xvel;
			meanVelY += boid->Yvel;
			neighborCount += 1;
		}
	}
	meanVelX /= neighborCount;
	meanVelY /= neighborCount;
	me->Xvel -= (me->Xvel - meanVelX) * weight;
	me->Yvel -= (me->Yvel - meanVelY) * weight;
}

static void AvoidPredators(struct refgl_boid *me, size_t mi, const struct refgl_boid *boids,
                           size_t n, double vision, double weight)
{
	for (size_t i = 0; i < n; i++) {
		const struct refgl_boid *boid = Other(boids, i, me, mi);
		if (boid->IsPredator && Distance(boid, me) < vision) {
			me->Xvel -= (boid->X - me->X) * weight;
			me->Yvel -= (boid->Y - me->Y) * weight;
		}
	}
}

static void AvoidWalls(struct refgl_boid *me, double width, double height, double pad, double turn)
{
	if (me->X < pad) me->Xvel += turn;
	if (me->Y < pad) me->Yvel += turn;
	if (me->X > width - pad) me->Xvel -= turn;
	if (me->Y > height - pad) me->Yvel -= turn;
}

static void SetSpeed(struct refgl_boid *me, double speed)
{
	if (me->Xvel == 0 && me->Yvel == 0)
		return;
	double currentSpeed = sqrt(me->Xvel * me->Xvel + me->Yvel * me->Yvel);
	double targetX = (me->Xvel / currentSpeed) * speed;
	double targetY = (me->Yvel / currentSpeed) * speed;
	me->Xvel += (targetX - me->Xvel) * .1;
	me->Yvel += (targetY - me->Yvel) * .1;
}

static void Advance(struct refgl_boid *me, double stepSize)
{
	SetSpeed(me, me->TargetSpeed);
	me->X += me->Xvel * stepSize;
	me->Y += me->Yvel * stepSize;
}

void refgl_advance(struct refgl_field *f)
{
	double Vision = 100, VisionRepel = 20;
	struct refgl_boid *snapshot = NULL;
	const struct refgl_boid *others = f->Boids;

	if (f->synchronous) {
		snapshot = malloc(f->n * sizeof(*snapshot));
		memcpy(snapshot, f->Boids, f->n * sizeof(*snapshot));
		others = snapshot;
	}
	for (size_t i = 0; i < f->n; i++) {
		struct refgl_boid *boid = &f->Boids[i];
		FlockWithNeighbors(boid, i, others, f->n, Vision, .0005);
		AvoidCloseBoids(boid, i, others, f->n, VisionRepel, .005);
		AlignWithNeighbors(boid, i, others, f->n, Vision, .03);
		AvoidPredators(boid, i, others, f->n, Vision, .002);
		AvoidWalls(boid, f->Width, f->Height, Vision, .1);
		Advance(boid, f->StepSize);
	}
	free(snapshot);
}
