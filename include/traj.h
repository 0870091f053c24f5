/*
 * traj — trajectory CSV: one row per boid per frame.
 *
 *   frame,id,x,y,vx,vy              a 2D flock
 *   0,0,<x>,<y>,<vx>,<vy>
 *
 *   frame,id,x,y,vx,vy,z,vz         a 3D flock (--dims 3): the 2D columns
 *   0,0,<x>,<y>,<vx>,<vy>,<z>,<vz>  keep their places, depth comes last
 *
 * Numbers are written with %.17g so they read back to the same double.
 * traj_load() reads either form back (the header says which) and keeps the
 * last frame in it, which is how --init continues a run or sets up an exact
 * scene.  It also reads what a user or a script writes: a UTF-8 byte-order
 * mark, the columns in any order (x,y,z,vx,vy,vz), columns it does not know
 * (pandas' unnamed index) ignored, frame and id optional.
 */
#ifndef BOIDS_TRAJ_H
#define BOIDS_TRAJ_H

#include <stdio.h>
#include <stddef.h>

/*
 * The largest magnitude traj_load() accepts for a position or velocity
 * component; the same as SIM_STATE_MAX, the bound the simulation keeps.
 */
#define TRAJ_VALUE_MAX 1e9

/* One frame's columns, only read. */
struct traj_cols {
	size_t n;                      /* boids */
	const double *x, *y, *vx, *vy;
	const double *z, *vz;          /* 3D: depth and its velocity; both NULL in 2D */
};

/*
 * Writes the header line of a dims-dimensional file (2 or 3).  Returns 0 or
 * the stream's -errno (-EIO if none).
 */
int traj_write_header(FILE *f, int dims);

/*
 * Writes frame `frame`: the z and vz columns when c->z is set (the header
 * must then have been written with dims 3).  Returns 0 or the stream's -errno.
 */
int traj_write_frame(FILE *f, long frame, const struct traj_cols *c);

/* The last frame of a trajectory file. */
struct traj_state {
	size_t n;        /* boids in that frame */
	long frame;      /* its frame number */
	int dims;        /* 2, or 3 when the file has the z and vz columns */
	double *x, *y, *vx, *vy; /* one block, freed by traj_state_release */
	double *z, *vz;  /* in that block for a 3D file; NULL for a 2D one */
};

/* Where and why a load failed, for the caller's message. */
struct traj_error {
	long line;        /* 1-based line number, 0 when not about a line */
	char what[160];   /* lowercase, no trailing period */
};

/*
 * Reads the last frame of the CSV in f.  The header (after an optional
 * UTF-8 byte-order mark) names the columns in any order: x, y, vx, vy are
 * needed, z and vz together make the file 3D, frame and id are optional,
 * others are ignored; a missing column is named in the error.  Rows of a
 * frame must list ids 0..n-1 in order (without an id column: the rows'
 * order), frames must increase (without a frame column: one frame, 0),
 * every number must be finite and within +-TRAJ_VALUE_MAX.
 * Lines are at most LINEREAD_MAX bytes.  Returns 0, -EINVAL (malformed:
 * err says where and why, naming the column), or -ENOMEM / the stream's
 * -errno on a read error (err->line is then the line being read); never
 * takes a failed read for the end of the file.
 */
int traj_load(FILE *f, struct traj_state *out, struct traj_error *err);

/* Frees what traj_load() allocated. */
void traj_state_release(struct traj_state *st);

#endif
