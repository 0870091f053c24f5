/*
 * traj — trajectory CSV: one row per boid per frame.
 *
 *   frame,id,x,y,vx,vy              a 2D flock
 *   0,0,<x>,<y>,<vx>,<vy>
 *
 *   frame,id,x,y,vx,vy,z,vz         a 3D flock (--dims 3): the 2D columns
 *   0,0,<x>,<y>,<vx>,<vy>,<z>,<vz>  keep their places, depth comes last
 *
 *   frame,id,x,y,vx,vy[,z,vz],predator   with the opt-in predator column
 *                                         (--trajectory-predator): 1 or 0
 *
 * Numbers are written as printf's %.17g (through fmtnum.h, the same text
 * faster) so they read back to the same double.  traj_load() reads every
 * form back (the header says which) and keeps the last frame in it (or, with
 * traj_load_frame(), a given one), which is how --init continues a run or
 * sets up an exact scene.  It also reads what a user or a script writes: a
 * UTF-8 byte-order mark, the columns in any order (x,y,z,vx,vy,vz), columns
 * it does not know (pandas' unnamed index) ignored, frame, id and predator
 * optional.  The stream may be a zfile.h stream (.csv.gz, .csv.zst); HDF5
 * files are traj_h5.h's.
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

/*
 * The most boids a frame may hold (the flock's limit, CLI_MAX_BOIDS), and
 * the most columns a CSV header may name.  The readers refuse more before
 * they hold it: a CSV at the first row past the limit (so reading any file
 * takes at most the memory of a flock at the limit), an HDF5 file by the
 * shape it declares, before anything is read.
 */
#define TRAJ_BOIDS_MAX 10000000L
#define TRAJ_COLUMNS_MAX 1024
/* The most frames an HDF5 file may declare: a run's most (CLI_MAX_FRAMES). */
#define TRAJ_FRAMES_MAX 100000000L

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

/* The same, ending with the predator column when predator_col is set. */
int traj_write_header_cols(FILE *f, int dims, int predator_col);

/*
 * Writes frame `frame` (>= 0): the z and vz columns when c->z is set (the
 * header must then have been written with dims 3).  Returns 0 or the
 * stream's -errno.
 */
int traj_write_frame(FILE *f, long frame, const struct traj_cols *c);

/*
 * The same with the predator column when predators >= 0 (boids
 * 0..predators-1 are flagged 1; the header must have the column).
 */
int traj_write_frame_cols(FILE *f, long frame, const struct traj_cols *c, long predators);

/* The last frame of a trajectory file. */
struct traj_state {
	size_t n;        /* boids in that frame */
	long frame;      /* its frame number */
	int dims;        /* 2, or 3 when the file has the z and vz columns */
	double *x, *y, *vx, *vy; /* one block, freed by traj_state_release */
	double *z, *vz;  /* in that block for a 3D file; NULL for a 2D one */
	long predators;  /* the file's predators (boids 0..predators-1), -1 when it does not say */
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
 * Lines are at most LINEREAD_MAX bytes, the header at most
 * TRAJ_COLUMNS_MAX columns, a frame at most TRAJ_BOIDS_MAX rows (-EINVAL
 * at the first row past it: what is held never grows beyond a flock at
 * the limit, whatever the file's size).  Returns 0, -EINVAL (malformed:
 * err says where and why, naming the column), or -ENOMEM / the stream's
 * -errno on a read error (err->line is then the line being read); never
 * takes a failed read for the end of the file.
 */
int traj_load(FILE *f, struct traj_state *out, struct traj_error *err);

/*
 * The same for frame `want` (its frame number; -1: the last): the rows
 * before it are checked as above, reading stops after it; -EINVAL when the
 * file has no such frame.  A predator column must flag the first boids.
 */
int traj_load_frame(FILE *f, long want, struct traj_state *out, struct traj_error *err);

/* Frees what traj_load() allocated. */
void traj_state_release(struct traj_state *st);

#endif
