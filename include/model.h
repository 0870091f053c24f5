/*
 * model — the registry of flocking models: one struct boids_model per rule
 * set, one file per model under src/models/, the list in
 * src/models/registry.c.
 *
 * An entry says what the model is (name, summary, the article it
 * reproduces, where its equations are), fills its own fields of struct
 * sim_params, allocates the state it needs beyond x/y/vx/vy, places the
 * start flock as its program does and advances one step.  sim.c calls
 * these through p->model and knows no model by name; the command line
 * reads program_defaults, look and original_look; the drawing reads
 * ranges().  The machinery the steps share (grid snapshot, sequential and
 * parallel passes, escaped boids, edges, obstacles, target) is
 * include/flock.h.  docs/ARCHITECTURE.md, "Adding a model", walks through
 * a new one.
 */
#ifndef BOIDS_MODEL_H
#define BOIDS_MODEL_H

#include <stdint.h>

#include "sim_types.h"

enum model_flags {
	MODEL_WRAPS = 1 << 0,  /* the program always wraps at the edges, whatever --edges */
	MODEL_TARGET = 1 << 1, /* steers toward the target (--target; sim_target()) */
	MODEL_OPEN = 1 << 2,   /* its space is open: with --edges none the picture follows
	                        * the flock (--follow, unless a view or --follow is given) */
};

struct boids_model {
	const char *name;       /* -m NAME: lowercase, unique */
	const char *summary;    /* one line for --list-models */
	const char *seed;       /* the article it reproduces: author, "title" (year), address */
	const char *notes;      /* reference notes: where its equations and facts are */
	unsigned flags;         /* enum model_flags */

	/* Fills this model's own fields of p (and nothing else) with its
	 * program's numbers.  sim_params_default() calls every entry's;
	 * NULL for a model that has no fields of its own. */
	void (*params_default)(struct sim_params *p);

	/* The settings of the program's scene, as "key=value" with key a
	 * long option name (--list-options), NULL-terminated: the command
	 * line applies each one the user did not give.  Never NULL. */
	const char *const *program_defaults;
	const char *look;          /* the --look that --look model means, or NULL: the plain one */
	const char *original_look; /* the --look that --look original means, or NULL: as model */

	/* The state beyond x/y/vx/vy, in s->state: sim_init() calls
	 * state_init once the arrays exist (0 or -ENOMEM), sim_release()
	 * calls state_release.  Both NULL for a model that needs none. */
	int (*state_init)(struct sim *s);
	void (*state_release)(struct sim *s);

	/* sim_randomize(): the start flock of the program, from seed. */
	void (*randomize)(struct sim *s, uint64_t seed);

	/* One step (sim_step() then bounds the state and counts the step).
	 * Returns 0 or -ENOMEM (grid growth). */
	int (*step)(struct sim *s);

	/* A program stepping in real time (canvas: 60 steps a second): the
	 * seconds one step stands for; the command line then makes a frame
	 * round(1 / (step_seconds x fps)) steps unless --substeps is given.
	 * NULL: one step a frame. */
	double (*step_seconds)(const struct sim_params *p);

	/* --show-ranges: the radii of its nearest rule (separation) and its
	 * farthest (cohesion), in pixels. */
	void (*ranges)(const struct sim_params *p, double *near, double *far);

	/* The settings of the program's scene that depend on the model's own
	 * (abm: --abm-size picks the flock, the field and the vision), as
	 * program_defaults and applied after them; NULL: none. */
	const char *const *(*scene)(const struct sim_params *p);

	/* A model studied at a density (vicsek): the long name of its option
	 * holding the particles a unit of area (of volume in a box), a double
	 * whose 0 means none.  When it is set the command line makes the field
	 * a square (a cube) of side sqrt(N / rho) (cbrt) for the flock's N, or
	 * the flock rho x the area of a --field given.  NULL: none. */
	const char *density_option;
};

/*
 * The models, in --list-models order, the first the default: X(name, ID)
 * each, name its -m NAME (its file src/models/name.c defines
 * `const struct boids_model name_model`), ID what code that loops over the
 * models calls it (tests/model_names.h: an enum of them).  Adding a model
 * is its file plus its line here.
 */
#define MODEL_LIST(X)              \
	X(harden, HARDEN)          \
	X(processing, PROCESSING)  \
	X(steering, STEERING)      \
	X(canvas, CANVAS)          \
	X(opengl, OPENGL)          \
	X(vicsek, VICSEK)          \
	X(abm, ABM)                \
	X(couzin, COUZIN)          \
	X(netlogo, NETLOGO)

/*
 * Every model, NULL-terminated, in --list-models order; the first is the
 * default (harden).  Static: never freed.
 */
const struct boids_model *const *model_list(void);

/*
 * The models' names in the same order, NULL-terminated: a constant the
 * command line's option table points at (the choices of -m).
 */
extern const char *const model_names[];

/* The model called name (exactly), or NULL if there is none. */
const struct boids_model *model_find(const char *name);

#endif
