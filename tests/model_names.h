/*
 * The registry's models by name, for unit tests and benchmarks that loop
 * over models: model_at(CANVAS) is model_find("canvas"), aborting if the
 * registry has no such model.
 */
#ifndef BOIDS_TESTS_MODEL_NAMES_H
#define BOIDS_TESTS_MODEL_NAMES_H

#include <stdlib.h>

#include "model.h"

enum { HARDEN, PROCESSING, STEERING, CANVAS, OPENGL };

static inline const struct boids_model *model_at(int m)
{
	static const char *const names[] = { "harden", "processing", "steering", "canvas", "opengl" };
	const struct boids_model *p = model_find(names[m]);

	if (!p)
		abort();
	return p;
}

#endif
