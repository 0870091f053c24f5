/*
 * registry — the list of models; see include/model.h.
 *
 * Each model is one file of this folder that defines one
 * `const struct boids_model NAME_model` whose .name is "NAME"; the line
 * X(NAME) below declares it and lists it, and model_names has its name for
 * the command line's -m.  Adding a model is that file plus that line.
 */
#include <string.h>

#include "model.h"

/* The models, in --list-models order; the first is the default. */
#define MODELS(X) \
	X(harden)     \
	X(processing) \
	X(steering)   \
	X(canvas)     \
	X(opengl)

#define DECLARE(name) extern const struct boids_model name##_model;
MODELS(DECLARE)

#define ENTRY(name) &name##_model,
static const struct boids_model *const models[] = { MODELS(ENTRY) NULL };

#define NAME(name) #name,
const char *const model_names[] = { MODELS(NAME) NULL };

const struct boids_model *const *model_list(void)
{
	return models;
}

const struct boids_model *model_find(const char *name)
{
	for (size_t i = 0; models[i]; i++)
		if (strcmp(models[i]->name, name) == 0)
			return models[i];
	return NULL;
}
