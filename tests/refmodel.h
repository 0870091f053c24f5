/*
 * refmodel — an independent, deliberately plain transcription of the C#
 * article's Field.Advance() (array of structs, O(N^2), index order), used by
 * the tests as the reference the sim module is compared against.
 */
#ifndef BOIDS_TEST_REFMODEL_H
#define BOIDS_TEST_REFMODEL_H

#include <stddef.h>

struct ref_boid { double X, Y, Xvel, Yvel; };

struct ref_field {
	double Width, Height;
	int PredatorCount;
	int bounce, wrap;  /* Advance(bounceOffWalls, wrapAroundEdges) */
	int synchronous;   /* steer every boid from a snapshot */
	size_t n;
	struct ref_boid *Boids;
};

/* One Advance() with the article's default numbers. */
void ref_advance(struct ref_field *f);

#endif
