/*
 * traj_h5 — trajectories in HDF5 (libhdf5), the field's standard for
 * arrays: h5py, h5dump, MATLAB's h5read, R's rhdf5/hdf5r and Julia's HDF5.jl
 * read them.  One file holds:
 *
 *   /positions   float64 (or float32) [frames][boids][dims]  px
 *   /velocities  the same shape and type                     px per step
 *   /frame       int64 [frames]: the run's frame number of each row
 *   /predator    uint8 [boids]: 1 for a predator
 *   /settings    a group with one attribute per option of the run, typed
 *                (integers int64, numbers float64, the rest strings)
 *   attributes of /: boids_version, model, dims, boids, predators, field
 *                (float64 [dims]: width, height[, depth]), position_units
 *                ("px"), velocity_units ("px per step"), fps (frames a second,
 *                float64: NTSC's 30000/1001 is 29.97002997...), every (the
 *                frame stride), config (the --print-config text), status
 *                ("writing" until traj_h5_finish(), then "complete" or
 *                "interrupted"), frames (rows written)
 *
 * positions and velocities are chunked by frame (a chunk is one frame of
 * at most 262,144 boids) along an unlimited frames dimension, optionally
 * compressed (shuffle + deflate).  Strings are variable-length UTF-8.
 * HDF5's own error printing is turned off: failures come back as codes.
 *
 * Library module: returns 0 or a negative errno and never prints.  The
 * serial libhdf5 is not thread-safe: one thread at a time may call these.
 * Which files are HDF5 (by extension: .h5, .hdf5, .he5) is trajout.h's
 * trajout_format_of(), which needs no libhdf5.
 */
#ifndef BOIDS_TRAJ_H5_H
#define BOIDS_TRAJ_H5_H

#include <stddef.h>

#include "rate.h"
#include "traj.h"

/* One setting, stored as an attribute of /settings. */
struct traj_h5_setting {
	const char *name;
	enum { TRAJ_H5_INT, TRAJ_H5_DOUBLE, TRAJ_H5_STRING } type;
	long long i;       /* TRAJ_H5_INT */
	double d;          /* TRAJ_H5_DOUBLE */
	const char *s;     /* TRAJ_H5_STRING */
};

/* What a new file holds besides the frames. */
struct traj_h5_info {
	size_t n;                 /* boids, >= 1 */
	int dims;                 /* 2 or 3 */
	size_t predators;         /* boids 0..predators-1 are predators */
	int single;               /* store float32 instead of float64 */
	int deflate;              /* 0: no compression; 1..9: shuffle + deflate at that level */
	long every;               /* the frame stride written (1: every frame) */
	const char *version;      /* boids' version */
	const char *model;        /* the model's name */
	double field[3];          /* width, height, depth (px); depth only in 3D */
	struct rate fps;          /* the run's frame rate: the attribute fps is its value */
	const char *config;       /* the --print-config text */
	const struct traj_h5_setting *settings;
	size_t nsettings;
};

struct traj_h5;

/*
 * Creates the file at path (replacing what is there: the caller makes the
 * path, e.g. an outfile's temporary file through /proc/self/fd) with the
 * datasets and attributes above, frames 0.  Returns 0 and *out, or a
 * negative errno (the system's when HDF5 saw one, else -EIO).
 */
int traj_h5_create(struct traj_h5 **out, const char *path, const struct traj_h5_info *info);

/*
 * Appends one frame (c->n must be info->n; c->z and c->vz in 3D) with frame
 * number `frame`.  Returns 0 or a negative errno.
 */
int traj_h5_write(struct traj_h5 *h, long frame, const struct traj_cols *c);

/*
 * Writes status ("complete" or "interrupted") and the row count, closes
 * everything and frees h.  Returns 0 or a negative errno (a write HDF5 had
 * delayed may fail here).
 */
int traj_h5_finish(struct traj_h5 *h, const char *status);

/* Closes and frees without caring for errors (the file is to be removed); NULL does nothing. */
void traj_h5_free(struct traj_h5 *h);

/*
 * Reads frame `want` (its frame number; -1 the last) of the file at path
 * into out, as traj_load() does for a CSV: positions and velocities of rank
 * 3 and the same shape, dims 2 or 3, at least one boid and one frame, every
 * number finite and within +-TRAJ_VALUE_MAX; out->predators from
 * /predator (which must flag the first boids), -1 without it.  The shapes
 * are checked before anything is read: at most TRAJ_BOIDS_MAX boids and
 * TRAJ_FRAMES_MAX frames, chunks of at most a frame or 64 MiB (what
 * libhdf5 holds to read any of one); the frame numbers are searched a
 * block at a time.  So what it holds is one frame, twice.  Returns 0,
 * -EINVAL (not an HDF5 file, or not a trajectory: err->what says why;
 * err->line is 0), -ENOMEM, or another negative errno.
 */
int traj_h5_load(const char *path, long want, struct traj_state *out, struct traj_error *err);

/*
 * The field a trajectory at path was written in: its `field` attribute
 * (width, height[, depth], px) into field[], without reading the flock.
 * Returns how many numbers it has (2 or 3; as they are, the caller checks
 * them), or 0 when it has none to give (no such file, not HDF5, no
 * attribute, not 2 or 3 numbers):
 * traj_h5_load() then says what is wrong with the file, if anything.
 */
int traj_h5_field(const char *path, double field[3]);

/*
 * Can these functions be called?  0, or -1 with one line in err (lowercase,
 * no period) saying why not.  In the boids binary the module is a plugin
 * (include/traj_h5_plugin.h): this loads it, and err names the file tried
 * and the loader's reason; linked in (the test binaries), it is always 0.
 * Any other call of this module when it says -1 fails (-ELIBACC; the
 * field: 0; the version: "not loaded").
 */
int traj_h5_ready(char *err, size_t errlen);

/* The version of the libhdf5 the module runs with ("1.10.8"); call
 * traj_h5_ready() first. */
const char *traj_h5_version(void);

#endif
