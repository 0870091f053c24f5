/*
 * trajout — the --trajectory file, whatever its format, written by a thread
 * of its own so that the simulation never waits for the disk.
 *
 * The format comes from the name: NAME.h5 (.hdf5, .he5) is HDF5
 * (traj_h5.h), NAME.csv.gz and NAME.csv.zst are the CSV compressed
 * (zfile.h), NAME.csv, standard output, a device or a FIFO the CSV
 * (traj.h); trajout_name_check() refuses any other name.  trajout_frame() copies the
 * frame's columns into a bounded queue (two to four frames, fewer for huge
 * flocks) and returns; the writer thread formats and writes them in order.
 * A write that fails is remembered and returned by the next
 * trajout_frame() or by trajout_finish(); the frames after it are dropped.
 *
 * The file is an outfile (outfile.h): written under a temporary name,
 * renamed by trajout_finish(), removed by trajout_abort().  HDF5 writes it
 * through /proc/self/fd/N, the descriptor outfile created, never by name.
 *
 * Lifecycle: trajout_open() -> trajout_frame() per frame, in order ->
 * trajout_finish() or trajout_abort().  Only one thread calls these.
 */
#ifndef BOIDS_TRAJOUT_H
#define BOIDS_TRAJOUT_H

#include <stddef.h>

#include "traj.h"
#include "traj_h5.h"

enum trajout_format {
	TRAJOUT_CSV,      /* plain text */
	TRAJOUT_CSV_GZ,   /* .csv.gz */
	TRAJOUT_CSV_ZST,  /* .csv.zst */
	TRAJOUT_HDF5,     /* .h5 */
};

/* The format a name asks for. */
enum trajout_format trajout_format_of(const char *path);

/* "CSV", "gzip CSV", "zstd CSV", "HDF5", for messages. */
const char *trajout_format_name(enum trajout_format f);

/* The name's ending of each format: ".csv", ".csv.gz", ".csv.zst", ".h5". */
const char *trajout_format_ext(enum trajout_format f);

/*
 * Is path a name a trajectory may have?  0 when it ends (in any case) with
 * .csv, .csv.gz, .csv.zst, .h5, .hdf5 or .he5, or is "-", a name under
 * /dev/ (/dev/stdout, /dev/fd/3) or an existing file that is not a regular
 * one (a FIFO): a CSV stream; else
 * -EINVAL and the reason in err, to follow the quoted name: "names no
 * trajectory format (did you mean .csv.gz?): end it with .csv, ...".
 */
int trajout_name_check(const char *path, char *err, size_t errlen);

/*
 * The compression levels format f takes (--trajectory-compress): 0 and
 * *min..*max with the level *dflt used when none is given; -1 for a plain
 * CSV, which takes none.
 */
int trajout_levels(enum trajout_format f, int *min, int *max, int *dflt);

struct trajout_options {
	const char *path;         /* the final name */
	int overwrite;            /* -y */
	size_t n;                 /* boids */
	int dims;                 /* 2 or 3 */
	size_t predators;         /* boids 0..predators-1 */
	int predator_col;         /* CSV: write the predator column */
	long every;               /* write frames 0, every, 2*every... (>= 1) */
	int level;                /* compression level: gzip/zstd, HDF5 deflate (0 none) */
	struct traj_h5_info h5;   /* HDF5: precision and what the file records (n, dims,
	                           * predators, every, deflate are filled from the above) */
};

struct trajout;

/* The bytes the queue of frame copies holds for n boids in dims dimensions (for memory checks). */
double trajout_queue_bytes(size_t n, int dims);

/*
 * Creates the file (temporary name), writes the header or the HDF5
 * metadata and starts the writer thread (the stop signals blocked in it).
 * Returns 0 and *out, or a negative errno (nothing left behind).  -EINTR
 * when a signal ended the wait for a FIFO's reader.
 */
int trajout_open(struct trajout **out, const struct trajout_options *o);

/*
 * Hands frame `frame` on (copied; frames not on the stride are skipped).
 * Waits only when the queue is full.  Returns 0, or the writer's first
 * error (then call trajout_abort()).
 */
int trajout_frame(struct trajout *t, long frame, const struct traj_cols *c);

/*
 * Writes what is queued, ends the file (HDF5: status "complete", or
 * "interrupted" when `interrupted`), renames it into place and frees t.
 * Interrupted (a stop signal came), the writer begins no queued frame once
 * `cut_after` seconds have passed since the signal (signals_since()): the
 * frame it is writing is finished, the later ones are dropped whole, so
 * the file holds frames 0..k-1 in order and the stop keeps its second
 * (a 10M-boid frame takes some 0.3 s to write).  *written gets the frames
 * the file holds (0 after a failure).
 * Returns 0 or a negative errno (the file is then removed).
 */
int trajout_finish(struct trajout *t, int interrupted, double cut_after, long *written);

/* Stops the writer, removes the temporary file and frees t; NULL does nothing. */
void trajout_abort(struct trajout *t);

#endif
