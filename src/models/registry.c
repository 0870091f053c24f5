/*
 * registry — the list of models; see include/model.h.
 *
 * Each model is one file of this folder that defines one
 * `const struct boids_model NAME_model` whose .name is "NAME"; its line
 * X(NAME, ID) of MODEL_LIST (include/model.h) declares it and lists it
 * here, and model_names has its name for the command line's -m.  Adding a
 * model is that file plus that line.
 */
#include <string.h>

#include "model.h"

#define DECLARE(name, id) extern const struct boids_model name##_model;
MODEL_LIST(DECLARE)

#define ENTRY(name, id) &name##_model,
static const struct boids_model *const models[] = { MODEL_LIST(ENTRY) NULL };

#define NAME(name, id) #name,
const char *const model_names[] = { MODEL_LIST(NAME) NULL };

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
