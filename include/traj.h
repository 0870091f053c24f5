/*
 * traj — trajectory CSV: one row per boid per frame.
 *
 *   frame,id,x,y,vx,vy
 *   0,0,<x>,<y>,<vx>,<vy>
 *
 * Numbers are written with %.17g so they read back to the same double.
 * traj_load() reads such a file back and keeps the last frame in it, which
 * is how --init continues a run or sets up an exact scene.
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

/* Writes the header line.  Returns 0 or the stream's -errno (-EIO if none). */
int traj_write_header(FILE *f);

/* Writes frame `frame` of n boids.  Returns 0 or the stream's -errno. */
int traj_write_frame(FILE *f, long frame, size_t n, const double *x,
                     const double *y, const double *vx, const double *vy);

/* The last frame of a trajectory file. */
struct traj_state {
	size_t n;        /* boids in that frame */
	long frame;      /* its frame number */
	double *x, *y, *vx, *vy; /* one block, freed by traj_state_release */
};

/* Where and why a load failed, for the caller's message. */
struct traj_error {
	long line;        /* 1-based line number, 0 when not about a line */
	char what[160];   /* lowercase, no trailing period */
};

/*
 * Reads the last frame of the CSV in f.  Rows of a frame must list ids
 * 0..n-1 in order, frames must increase, every number must be finite and
 * within +-TRAJ_VALUE_MAX.
 * Lines are at most LINEREAD_MAX bytes.  Returns 0, -EINVAL (malformed:
 * err says where and why), or -ENOMEM / the stream's -errno on a read
 * error (err->line is then the line being read); never takes a failed read
 * for the end of the file.
 */
int traj_load(FILE *f, struct traj_state *out, struct traj_error *err);

/* Frees what traj_load() allocated. */
void traj_state_release(struct traj_state *st);

#endif
