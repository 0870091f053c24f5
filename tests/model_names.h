/*
 * The registry's models by name, for unit tests and benchmarks that loop
 * over models: an enum made from MODEL_LIST (include/model.h), so
 * model_at(CANVAS) is the registry's canvas entry, and HARDEN ..
 * MODEL_COUNT - 1 every model, a new one included.
 */
#ifndef BOIDS_TESTS_MODEL_NAMES_H
#define BOIDS_TESTS_MODEL_NAMES_H

#include <stdlib.h>
#include <string.h>

#include "model.h"

#define MODEL_ID(name, id) id,
enum { MODEL_LIST(MODEL_ID) MODEL_COUNT };
#undef MODEL_ID

static inline const struct boids_model *model_at(int m)
{
	if (m < 0 || m >= MODEL_COUNT)
		abort();
	return model_list()[m];
}

#endif
