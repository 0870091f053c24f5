/*
 * sim_types — the data of a flock: its parameters (struct sim_params), its
 * state (struct sim) and their enums.  Types only: include/sim.h has the
 * lifecycle that fills them, include/model.h the models that step them and
 * include/flock.h the machinery the models share.  A header of its own so
 * that the models can use these types without depending on sim.c, which
 * depends on them through the registry.
 */
#ifndef BOIDS_SIM_TYPES_H
#define BOIDS_SIM_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "grid.h"

struct boids_model;
struct pool;

enum sim_edges {
	SIM_EDGES_NONE = 0,
	SIM_BOUNCE = 1 << 0, /* steer back inside a padded margin */
	SIM_WRAP = 1 << 1,   /* leave one side, come back on the other */
};

enum sim_update {
	SIM_SEQUENTIAL,  /* the seed: velocities updated in place, in index order */
	SIM_SYNCHRONOUS, /* every boid steers from the same previous state */
};

enum sim_search {
	SIM_SEARCH_GRID,  /* uniform grid, O(N) per step */
	SIM_SEARCH_BRUTE, /* every pair, O(N^2): the reference */
};

enum sim_separation {
	SIM_SEP_UNIT,    /* processing's listing: sum of unit offsets (Java's in-place normalize) */
	SIM_SEP_INVERSE, /* unit offset / distance: nearer boids push harder */
};

enum sim_target_mode {
	SIM_TARGET_NONE,      /* no seek, no arrival */
	SIM_TARGET_FIXED,     /* (target_x, target_y) */
	SIM_TARGET_LISSAJOUS, /* moves along a Lissajous figure; see sim_target() */
};

/* A circle (a sphere in 3D) every model steers around. */
struct sim_obstacle {
	double x, y;            /* centre, pixels */
	double r;               /* radius, pixels, >= 0 */
	double z;               /* centre's depth, pixels (3D only: a sphere; 2D ignores it) */
};

/*
 * Each model's own parameters, a struct each inside struct sim_params
 * (p.steer.max_speed): a model's file reads its own and, where it says so,
 * the shared ones.  The defaults are the models' params_default() alone
 * (src/models/NAME.c); docs/MODEL.md documents them, checked against the
 * binary by a test.  Ranges: the option table's.
 */

/* The C# article's rules (harden).  Velocities in px/step. */
struct sim_harden {
	double flock_radius;    /* cohesion: steer to the neighbours' centre */
	double flock_weight;
	double align_radius;    /* alignment: match the neighbours' velocity */
	double align_weight;
	double avoid_radius;    /* separation: push away from close boids */
	double avoid_weight;
	double predator_radius; /* flee predators */
	double predator_weight;
	double min_speed;       /* speed clamp after moving, pixels per step */
	double max_speed;
	double wall_pad;        /* bounce: margin width, pixels */
	double wall_turn;       /* bounce: velocity change per step inside it */
};

/* Processing (Kakehi's article).  Velocities in px/step. */
struct sim_processing {
	double cohesion_radius;   /* neighbours at distance <= R, px */
	double separation_radius; /* px */
	double alignment_radius;  /* px */
	double cohesion_weight;   /* times the unit vector to their centre */
	double separation_weight; /* times the unit 1/d push */
	double alignment_weight;  /* times their unit summed velocity */
	double max_force;         /* limit of the acceleration, px/step^2; 0: none */
	double max_speed;         /* limit of the velocity, px/step; 0: none */
	enum sim_separation separation; /* the listing's unit push or 1/d */
	int limit_components;     /* 1: clamp x and y each (the sketch), 0: the length */
	double jitter;            /* uniform noise in [-J, J] per component, px/step^2 */
};

/* Steering (the Unity program), scaled at `unit` px per Unity unit.  px/step. */
struct sim_steering {
	double radius;            /* neighbours at distance < R, px */
	double unit;              /* pixels per Unity unit: the start box, Unity's epsilons */
	double cohesion_steps;    /* divide the offset to their centre by S */
	double separation_steps;  /* divide every separation term by S */
	double socialize_weight;  /* alone: unit offset to the others' centre x W, px/step */
	double cohesion_weight;   /* then multiply by W */
	double separation_weight; /* sum of unit/d^2 times W, px^3/step */
	double alignment_weight;  /* unit velocity difference times W, px/step */
	double seek_weight;       /* desired speed toward the target, px/step; < 1e-4 off */
	double arrival_radius;    /* slowing distance, px; < 1e-4 off */
	double arrival_speed;     /* top arrival speed, px/step */
	double max_speed;         /* velocity limit, px/step */
	double max_turn;          /* rotation limit, degrees per step */
	int steady_turn;          /* 1: turns over 150 degrees go toward +angle, not the short way */
	double v0x, v0y;          /* InitialVelocity of every boid, px/step */
	double v0z;               /* its z in a box, px/step */
};

/* Canvas (Therrien's TypeScript article).  Speeds in px/s; s->vx holds px/step = px/s x dt. */
struct sim_canvas {
	double visual_range;        /* sees others at distance < R, px */
	double cohesion_resistance; /* offset to their centre divided by K */
	double separation_distance; /* pushed by others closer than D, px */
	double alignment_eagerness; /* times (unit mean velocity x speed - v) */
	double speed;               /* constant speed, px/s */
	double dt;                  /* time step, s */
};

/* OpenGL version of the C# program (swharden/Csharp-Data-Visualization,
 * dev/old/drawing/boids2).  Its velocity v moves a boid by v x step per
 * step; s->vx holds px/step = v x step, as in every model. */
struct sim_opengl {
	double flock_radius;      /* cohesion: others at distance < R, px */
	double flock_weight;      /* times the offset to their centre */
	double predator_sight;    /* a predator's cohesion radius is this times R */
	double avoid_radius;      /* separation: closer than R, px */
	double avoid_weight;      /* times offset x closeness */
	int avoid_all;            /* 1: avoid every boid; 0: only its own kind */
	double align_radius;      /* alignment: others at distance < R, px */
	double align_weight;      /* times the velocity difference */
	double flee_radius;       /* flee predators closer than R, px */
	double flee_weight;       /* times the offset, not scaled by closeness */
	double wall_pad;          /* walls: margin, px */
	double wall_turn;         /* walls: velocity change per step inside it */
	double speed_min;         /* target speeds drawn in [min, max) at the start */
	double speed_max;
	double predator_boost;    /* added to a predator's target speed */
	double speed_ease;        /* fraction of the way to the target speed per step */
	double step;              /* the speed slider: a step moves v x step */
};

/* Vicsek et al. (1995): particles at one speed taking their neighbours' mean
 * heading plus noise, on a torus.  Lengths in field units (px), the time
 * step 1: a step moves a particle by v. */
struct sim_vicsek {
	double noise;           /* eta: the heading's noise is uniform in [-eta/2, eta/2] rad
	                         * (3D: within a cone of half-angle eta/2), [0, 2 pi] */
	double speed;           /* v: the constant speed, px a step (v dt, dt = 1) */
	double radius;          /* r: neighbours at distance <= r, itself included, px */
	double density;         /* rho: particles a px^2 (px^3 in a box) that --boids or
	                         * --field makes the other of; 0: none (the command line's) */
};

/* The ABM frameworks comparison's Flocking model (its declaration), on a torus. */
struct sim_abm {
	int large;              /* --abm-size: 0 small (200 birds, 100x100, vision 5),
	                         * 1 large (400, 150x150, 15); the command line's scene */
	double vision;          /* visual_distance: neighbours at distance <= it, px */
	double separation;      /* separation: neighbours closer than it push, px */
	double cohere;          /* cohere_factor */
	double separate;        /* separate_factor */
	double match;           /* match_factor */
	double speed;           /* speed: a step moves a bird by its unit velocity x it, px */
};

/* Couzin et al.'s zones (J. theor. Biol. 218, 2002).  Lengths in px (the
 * paper's units), times in seconds; s->vx holds px/step = heading x speed x dt. */
struct sim_couzin {
	double repulsion;       /* r_r: the zone of repulsion's radius, px */
	double orientation;     /* delta r_o: the zone of orientation's width beyond r_r, px */
	double attraction;      /* delta r_a: the zone of attraction's width beyond it, px */
	double perception;      /* alpha: the field of perception, degrees (360: no blind volume) */
	double turn;            /* theta: the fastest turn, degrees per second */
	double speed;           /* s: px per second */
	double noise;           /* sigma: the direction noise's standard deviation, radians */
	double dt;              /* tau: seconds a step */
};

/* NetLogo's Flocking model (Wilensky 1998).  A patch is a px, a tick a step;
 * turtles move 1 patch a tick, so s->vx... hold their unit headings. */
struct sim_netlogo {
	double vision;             /* flockmates: others at distance <= this, patches */
	double minimum_separation; /* the nearest closer than this: separate, patches */
	double max_align_turn;     /* degrees a tick */
	double max_cohere_turn;    /* degrees a tick */
	double max_separate_turn;  /* degrees a tick */
};

struct sim_params {
	double width, height;   /* field size in pixels, > 0 */
	int dims;               /* 2: a plane; 3: a box of width x height x depth */
	double depth;           /* the box's third side, pixels, > 0 (3D only; by default
	                         * the smaller of width and height) */
	size_t predators;       /* boids 0 .. predators-1 are predators */
	struct sim_harden harden; /* harden's rules (steering's walls and the metrics' radius too) */
	unsigned edges;         /* enum sim_edges bits (harden, steering; see MODEL.md) */
	enum sim_update update;
	enum sim_search search;
	const struct boids_model *model; /* rule set, from the registry (include/model.h;
	                        * sim_params_default(): harden) */

	/* Obstacles, every model: inside the margin around a circle a boid is
	 * pushed straight out by weight x depth; one that still ends a move
	 * inside the circle is put back on it and bounces off (docs/MODEL.md,
	 * "Obstacles").  No obstacles: every model is exactly as without. */
	const struct sim_obstacle *obstacles; /* borrowed, must outlive the sim; NULL if none */
	size_t obstacles_n;     /* number of obstacles */
	double obstacle_margin; /* push starts this far outside the circle, px */
	double obstacle_weight; /* push per px of depth, px/step per px */

	/* Target, steering model only.  Lissajous position at step t, with
	 * th = 2 pi t / target_period:
	 *   x = W/2 + target_amp_x W cos(target_freq_x th)
	 *   y = H/2 + target_amp_y H sin(target_freq_y th)
	 *   z = D/2 + target_amp_z D sin(target_freq_z th)   (3D)            */
	enum sim_target_mode target_mode;
	double target_x, target_y;   /* fixed target, px (default: the centre) */
	double target_z;        /* fixed target's depth, px (3D; default: halfway in) */
	double target_amp_x;    /* Lissajous amplitude, fraction of W */
	double target_amp_y;    /* Lissajous amplitude, fraction of H */
	double target_freq_x;   /* cycles of x per period */
	double target_freq_y;   /* cycles of y per period */
	double target_amp_z;    /* Lissajous amplitude, fraction of D (3D) */
	double target_freq_z;   /* cycles of z per period (3D) */
	double target_period;   /* steps per period */

	/* Each model's own parameters, filled by its params_default() (src/models/) */
	struct sim_processing proc;
	struct sim_steering steer;
	struct sim_canvas canvas;
	struct sim_opengl gl;
	struct sim_vicsek vicsek;
	struct sim_abm abm;
	struct sim_couzin couzin;
	struct sim_netlogo netlogo;
	uint64_t noise_seed;    /* seed of the models' noise (processing's jitter, vicsek's noise,
	                         * couzin's turns, abm's and netlogo's orders); set it to the flock's --seed */
};

/* A boid's state copied into grid order, in 3D: one record a boid, so that
 * a run of neighbours is one stream in memory, not six (include/flock.h). */
struct sim_copy {
	double x, y, z;         /* position, pixels */
	double vx, vy, vz;      /* velocity, pixels per step */
};

/* The same in a plane: 32 bytes, two records a cache line (the array is
 * 64-byte aligned), so a run of neighbours is one stream, not four. */
struct sim_copy2 {
	double x, y;            /* position, pixels */
	double vx, vy;          /* velocity, pixels per step */
};

struct sim {
	size_t n;               /* boids */
	double *x, *y;          /* positions, pixels */
	double *vx, *vy;        /* velocities, pixels per step */
	double *z, *vz;         /* 3D only (p.dims == 3): depth and its velocity;
	                         * NULL in 2D, which allocates and reads nothing more */
	void *state;            /* the model's own per-boid state, or NULL: allocated
	                         * and freed through its entry (opengl: double[n],
	                         * each boid's target speed, program units; netlogo:
	                         * uint32_t[n], the tick's order) */
	struct sim_params p;
	uint64_t steps;         /* sim_step() calls so far */
	size_t escaped;         /* read only: boids the last step listed as having left
	                         * their grid cell (a sequential step of a model whose
	                         * boids move in their turn; 0 otherwise).  A listed boid
	                         * is chained in its new cell, so a query looks at its
	                         * own 9 cells only (include/flock.h). */
	/* private */
	double *nvx, *nvy;      /* next velocities: the synchronous pass's, and a
	                         * still pass's in either order (swapped in after) */
	struct sim_copy2 *g2;   /* 2D only (NULL in 3D): the state in grid order as one
	                         * record a boid, for contiguous reads; its own
	                         * 64-byte aligned block (include/hugemem.h) */
	double *nvz;            /* next vz, as nvx (3D only, NULL in 2D) */
	struct sim_copy *g3;    /* 3D only (NULL in 2D): the state in grid order as one
	                         * record a boid (include/flock.h, "copies") */
	uint32_t *gpos;         /* index of boid i in grid order: the grid's own
	                         * s->grid.place, set by each flock_begin() */
	uint32_t *esc;          /* sequential: boids that left their cell this step */
	unsigned char *escf;    /* the same as flags, in grid order (n + 8 of them: the
	                         * last 8 always 0, for reads a few at a time) */
	uint32_t *escnext;      /* the next listed boid in the same new cell, or UINT32_MAX */
	uint32_t *eschead;      /* per grid cell: its first listed boid, or UINT32_MAX */
	size_t eschead_cap;     /* cells eschead has room for */
	struct grid grid;
	struct pool *pool;      /* borrowed, may be NULL */
	const struct boids_model *state_of; /* the model that allocated state */
	/* Asked every few thousand boids inside a step (NULL: never), with the
	 * boids done so far in it, from any thread of the step (several at once
	 * in a parallel pass): nonzero stops the step, which sim_step() then
	 * undoes.  Set with sim_watch(). */
	int (*watch)(void *arg, size_t done);
	void *watch_arg;
	int stopped;            /* the watch stopped this step's pass */
	size_t stopped_at;      /* sequential: the first stopped_at turns were taken */
	const uint32_t *order;  /* sequential: the last pass's order of turns (the model's,
	                         * struct flock_pass), NULL: index order */
	double *undo;           /* sequential with a watch: positions before the step,
	                         * n each of x, y (and z); the velocities go to nvx...
	                         * (a still pass saves none: s->vx... are as the
	                         * step began, its new ones being in nvx...) */
	int undo_at_copies;     /* the stopped pass moved nobody (slack 0): its
	                         * positions are the copies', s->undo unused */
};

#endif
