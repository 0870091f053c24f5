/*
 * pipeline — the frame loop: simulate -> draw -> encode.  Part of main (the
 * application layer): it reports its own failures through report.h.
 *
 * Without pictures (--no-render) the flock is stepped in the calling thread.
 * With them, one producer thread steps the flock, records the frame's side
 * files (outputs_record) and copies the state and the trail into a free
 * slot of a frameq; `threads.draw` drawing threads draw slots in any order,
 * write PNGs (outputs_write_png) or convert the picture for the encoder;
 * the calling thread encodes the drawn slots in frame order and reports
 * progress.  A signal (signals_caught) or the first failure stops every
 * stage; the frames already made are finished, no more.
 *
 * Thread counts are decided in one place, pipeline_threads(); --verbose
 * prints its reasons (pipeline_threads_describe).
 */
#ifndef BOIDS_PIPELINE_H
#define BOIDS_PIPELINE_H

#include <pthread.h>
#include <stddef.h>

#include "config.h"
#include "framing.h"
#include "outputs.h"
#include "progress.h"
#include "render.h"
#include "sim.h"

enum { PIPELINE_DRAW_MAX = 64 };   /* drawing threads at most */

/* How many threads each stage gets, and why. */
struct pipeline_threads {
	int sim;             /* the flock's worker pool */
	int draw;            /* drawing threads (when there are pictures) */
	int encoder;         /* the encoder's own threads; 0: its choice (auto) */
	int encoder_given;   /* encoder comes from --encoder-threads, not the default */
	int from_option;     /* sim and draw come from --threads, not the core count */
	int capped;          /* draw was cut to PIPELINE_DRAW_MAX */
};

/*
 * The one place that decides thread counts:
 *   simulation  --threads N, or one per online core (auto); at least 1;
 *   drawing     the same count, at most PIPELINE_DRAW_MAX (64: beyond it the
 *               single encoding thread is the bottleneck anyway);
 *   encoder     --encoder-threads N (1..64; by default video_options_default()'s
 *               count), or 0 for auto: the encoder's choice (FFmpeg's "auto",
 *               one per core, so the bytes depend on the machine).
 * None of them changes what is written, except encoder auto.
 */
void pipeline_threads(const struct config *c, struct pipeline_threads *t);

/*
 * One line for --verbose, such as "2 simulation (one per core), 2 drawing,
 * encoder auto"; `kind` says which stages run.
 */
void pipeline_threads_describe(const struct pipeline_threads *t, enum outputs_kind kind,
                               char *buf, size_t len);

/*
 * How progress is shown: a bar only on a terminal (never control characters
 * in a file), lines or JSON wherever asked, nothing with -q unless asked.
 */
enum progress_mode pipeline_progress_mode(const struct run_options *s);

struct pipeline {
	const struct config *cfg;    /* the run's settings */
	struct sim *sim;
	struct outputs *out;
	long frames_done;            /* frames through every stage */
	const struct caption *caption; /* drawn on every picture, or NULL (main sets it) */
	/* private */
	int drawers;                 /* drawing threads */
	struct frameq *queue;        /* NULL without pictures */
	struct video *video;         /* the encoder, for video kinds */
	double *hist_x, *hist_y;     /* the trail ring: trail * n positions each */
	double *hist_z;              /* 3D: the same for z (one block with x, y); NULL in 2D */
	long hist_count;             /* frames in the ring, <= trail */
	long hist_next;              /* ring slot the next frame goes to */
	pthread_mutex_t fail_lock;
	int failed;                  /* an exit status once a stage failed */
	struct progress *bar;        /* shows a step in progress; NULL: nothing shown */
	struct framing framing;      /* what each frame shows (the producer's) */
	long at;                     /* steps made since frame 0 */
	double *tw;                  /* a frame between steps starts from this step's state (x, y,
	                              * vx, vy[, z, vz], n each); NULL when none falls between */
	long tw_at;                  /* the step tw holds; -1: none */
	long stepping;               /* frames before the one being stepped */
};

/*
 * Sets up the pipeline for the flock sim and the outputs out (both kept,
 * not copied): with pictures, the queue of drawers + 3 slots, each with a
 * copy of the state, a trail and a renderer made from rp.  Returns 0 or a
 * negative errno; pipeline_release() is needed either way.
 */
int pipeline_init(struct pipeline *p, const struct config *c, struct sim *sim,
                  struct outputs *out, const struct render_params *rp, int drawers);

/*
 * Gives every slot a picture for the encoder v (opened by outputs_open),
 * so drawing threads convert frames in parallel.  Returns 0 or an AVERROR.
 */
int pipeline_use_video(struct pipeline *p, struct video *v);

/*
 * Steps the flock n times (--warmup, --substeps).  A stop signal ends it
 * between steps or inside one (which is then undone: the flock is left as
 * its last whole step made it).  Returns 0 when all n were made, 128 +
 * the signal when a signal stopped it, or 1 after a failure (reported).
 */
int pipeline_step(struct pipeline *p, long n);

/*
 * Makes the --warmup steps before frame 0, bar showing them as the warm-up
 * ("warm-up k/N steps"), not as frames; the frames' clock starts when it
 * ends.  Returns what pipeline_step() returns.
 */
int pipeline_warmup(struct pipeline *p, struct progress *bar);

/*
 * Has bar show each step of the flock moving (the fraction of its boids
 * done), from the start of the next pipeline_step().  bar may be NULL.
 */
void pipeline_show_steps(struct pipeline *p, struct progress *bar);

/*
 * Runs every frame, updating bar as frames come through in order.  Returns
 * an exit status (0 also when a signal stopped it: the caller asks
 * signals_caught()); failures are already reported.
 */
int pipeline_run(struct pipeline *p, struct progress *bar);

/* Frees the slots and the trail ring. */
void pipeline_release(struct pipeline *p);

#endif
