/*
 * outputs — everything a run writes: the video (a file or y4m on standard
 * output), one PNG per frame or one still, the --trajectory CSV, the
 * --metrics CSV and the --summary JSON.  Part of main (the application
 * layer): it reads the settings; its checks and opens return their
 * refusals and failures as a struct failure (failure.h) for main to print,
 * status 2 for bad usage before any file exists.
 *
 * Lifecycle, in the order main calls it:
 *   outputs_check_roles() no file in two roles (before --init is opened)
 *   outputs_init()     the picture size and encoder options from the settings
 *   outputs_check()    every output validated; status 2 before any file exists
 *   outputs_open()     the files created (under temporary names), headers written
 *   outputs_record()   per frame, in order, with the live flock: trajectory, metrics
 *   outputs_write_png() per drawn frame, from any drawing thread (PNG kinds);
 *                      the video's frames go to `video` through the pipeline
 *   outputs_finish()   every file closed and committed (or removed), then the summary
 *   outputs_release()
 * A file reaches its final name only at outputs_finish(), and only when the
 * run succeeded or was stopped by a signal after its first frame.
 */
#ifndef BOIDS_OUTPUTS_H
#define BOIDS_OUTPUTS_H

#include <pthread.h>
#include <stddef.h>
#include <time.h>

#include "config.h"
#include "failure.h"
#include "metrics.h"
#include "outfile.h"
#include "sim.h"
#include "trajout.h"
#include "video.h"

/* What a runtime failure was of, for the summary: an output, or the run itself. */
enum outputs_part {
	OUTPUTS_PICTURES,   /* --output: the video, y4m, PNG frames or still */
	OUTPUTS_TRAJECTORY, /* --trajectory */
	OUTPUTS_METRICS,    /* --metrics (and the measuring that --summary needs too) */
	OUTPUTS_RUN,        /* no output's: a step, a thread, the drawing */
	OUTPUTS_PARTS
};

enum outputs_kind {
	OUTPUTS_NONE,    /* --no-render: no pictures */
	OUTPUTS_VIDEO,   /* a video file */
	OUTPUTS_STDOUT,  /* y4m on standard output (-o -) */
	OUTPUTS_PNG,     /* one PNG per frame, from a pattern */
	OUTPUTS_STILL,   /* one PNG: the --poster frame */
};

struct outputs {
	const struct config *cfg;    /* the run's settings */
	enum outputs_kind kind;
	long poster;                 /* OUTPUTS_STILL: the frame written */
	int pic_w, pic_h;            /* picture size, pixels (padded to even for some encoders) */
	struct video_options vopt;   /* cfg->video with the encoder threads decided */
	struct video *video;         /* the encoder, once open (video kinds) */
	struct timespec started;     /* outputs_init()'s time, the summary's start (CLOCK_REALTIME) */
	/* private */
	struct outfile video_file;   /* temporary file behind a video */
	struct trajout *traj;        /* the --trajectory file and its writer thread */
	struct outfile metrics_file;
	int png_lock;                /* outfile_lock() of the PNG pattern, or -1 */
	char png_key[4096];          /* what is locked: the pattern spelt canonically
	                              * (framename_canonical()) */
	int want_metrics;            /* --metrics or --summary */
	struct metrics_ctx mctx;
	struct metrics mlast;        /* the last frame's metrics */
	double msum[METRICS_COUNT];  /* sums over the frames, for the means */
	long mcount;
	long frames_done;            /* frames through every stage */
	long traj_frames;            /* frames the trajectory file holds (after outputs_finish()) */
	int side_failed;             /* a side file failed: reported and removed, the run goes on */
	int video_dropped;           /* stopped before a frame left the encoder: no video kept */
	int metrics_failed;          /* no metrics: the measuring failed */
	int kept[OUTPUTS_PARTS];     /* the part's file is there under its name (after outputs_finish()) */
	int summary_kept;            /* so is the summary */
	pthread_mutex_t fail_lock;   /* guards failed[]: any thread may fail */
	char failed[OUTPUTS_PARTS][1024]; /* each part's first failure, as said; "" for none */
};

/* Sets up out for the settings c (kept, not copied); encoder_threads is
 * the encoder's thread count (0: auto). */
void outputs_init(struct outputs *out, const struct config *c, int encoder_threads);

/*
 * One file, one role: every file the run will write (the video or still,
 * every frame the PNG pattern makes in this run, the pattern's lock file,
 * the trajectory, metrics and summary, the temporary files' names) and
 * every file it reads (--init, each --config) compared by identity
 * (pathid.h: standard output, /dev/fd/N, symbolic and hard links; by
 * normalised name for a file not yet made).  Two that are one file are
 * refused, with or without -y (status 2, one line in f naming both
 * options); outputs may share the null device.  Called before --init is
 * opened.  Returns a status (failure.h): 0, 2, or 1 out of memory.
 */
int outputs_check_roles(const struct config *c, struct failure *f);

/*
 * Decides the kind of output and validates every output path before any
 * file exists: bad usage is status 2 with its message in f (1 when the
 * video plugin cannot be loaded, or out of memory).  May pad the picture
 * (pic_w, pic_h) by one row or column for encoders that need even sizes,
 * and says so on stderr unless -q.  Returns the status.
 */
int outputs_check(struct outputs *out, struct failure *f);

/* One line for --verbose: what the pictures become ("mp4 (libx264, ...)"). */
void outputs_describe(const struct outputs *out, char *buf, size_t len);

/* Does frame k get drawn (every frame, except that a still draws only its poster)? */
int outputs_draws(const struct outputs *out, long frame);

/*
 * Creates the files (temporary names), writes the CSV headers, locks a PNG
 * pattern and opens the encoder.  A signal may end the wait for a FIFO's
 * reader.  After a stop signal (before the run's first frame) only the
 * trajectory and the metrics are opened, for their headers: a side file
 * that a stop keeps from opening (a FIFO) is left out, and the status is
 * 128 + the signal.  Returns a status, with the failure's message in f.
 */
int outputs_open(struct outputs *out, struct failure *f);

/*
 * The per-frame side files, from the live flock, in frame order.  A side
 * file that fails is reported (outputs_failed()) and removed, and the run
 * goes on (to exit 1 at the end): a finished video is never lost to a side
 * file.
 */
void outputs_record(struct outputs *out, const struct sim *m, long frame);

/*
 * Writes frame `frame` (ARGB32 pixels, rows stride bytes apart) as a PNG,
 * from any thread.  Returns 0 or a negative errno; on failure *what ("cannot
 * create", "cannot write") and name (the file) say what to report.
 */
int outputs_write_png(struct outputs *out, const unsigned char *px, int stride, long frame,
                      const char **what, char *name, size_t len);

/*
 * A runtime failure of part of the run (f's message, one line): said at
 * once (report.h) and kept for the summary, which then says "failed" and
 * names the output and why.  A part keeps its first failure.  From any
 * thread.  Returns f->status.
 */
int outputs_failed(struct outputs *out, enum outputs_part part, const struct failure *f);

/*
 * Finishes every output after frames_done frames, wall seconds, with the
 * run's exit status so far: closes and commits the files (removes them
 * after a failure), writes the summary, and turns a failed side file into
 * exit 1.  Stopped (a signal) before the first frame, the trajectory and
 * the metrics are kept with their headers, the summary says "interrupted"
 * with 0 frames, and there is no picture output.  The summary is written
 * last, once every other file is committed, with the status the run exits
 * with: complete (0), interrupted (128 + n) or failed (1, each failed
 * output named with its error).  Returns the exit status.
 */
int outputs_finish(struct outputs *out, int status, long frames_done, double wall);

/*
 * What the closing line names, after outputs_finish(): the picture output
 * ("standard output" for -o -) if it is there, else the first of the
 * trajectory, the metrics and the summary that is, else "nothing written":
 * never a file that does not exist.  *frames gets the frames it holds (the
 * summary's: the run's).
 */
const char *outputs_name(const struct outputs *out, long *frames);

/* The picture output's name ("-": standard output) if it is there after
 * outputs_finish(), else NULL: the JSON "end" event's "output". */
const char *outputs_picture_name(const struct outputs *out);

/* Frees everything; the files must have been finished. */
void outputs_release(struct outputs *out);

#endif
