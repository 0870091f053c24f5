/*
 * refgl — an independent, deliberately plain transcription of the OpenGL
 * version of the C# program (swharden/Csharp-Data-Visualization,
 * dev/old/drawing/boids2: Field.Advance(), Boid's five rules and Advance(),
 * Velocity.SetSpeed()) with its sliders at their starting values, used by
 * the tests as the reference the opengl model is compared against.  Array
 * of structs, every boid visits every boid, index order.
 */
#ifndef BOIDS_TEST_REFGL_H
#define BOIDS_TEST_REFGL_H

#include <stddef.h>
#include <stdint.h>

struct refgl_boid {
	double X, Y, Xvel, Yvel; /* the program's units: a step moves Vel x stepSize */
	double TargetSpeed;
	int IsPredator;
};

struct refgl_field {
	double Width, Height;
	double StepSize;      /* SpeedTrackbar.Value x .2 (2) */
	int synchronous;      /* every boid reads the others from a snapshot */
	size_t n;
	struct refgl_boid *Boids;
};

/* RandomizeBoids() with xoshiro256** seeded by SplitMix64 (docs/MODEL.md). */
void refgl_randomize(struct refgl_field *f, uint64_t seed, size_t predators);

/* One Field.Advance(StepSize). */
void refgl_advance(struct refgl_field *f);

#endif
