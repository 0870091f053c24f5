/*
 * progress — how far a run has got, written where it fits: a one-line bar
 * that fits the terminal's width (re-read at every redraw, so a resized
 * window is followed), plain lines every few seconds for logs, or one JSON
 * object per line for programs.  The one module that prints: it writes only
 * to the stream main hands it (stderr), and only in the mode main picks.
 * Only the bar writes control characters, and only to a terminal.
 *
 * A run with --warmup has two phases: the warm-up's steps
 * (progress_warmup(), "warm-up 120/300 steps"), then the frames.  The time
 * left covers both, and the frames' rate is measured from the warm-up's
 * end, so the closing line can give the two apart (progress_warmup_seconds()).
 */
#ifndef BOIDS_PROGRESS_H
#define BOIDS_PROGRESS_H

#include <pthread.h>
#include <stdio.h>

enum progress_mode {
	PROGRESS_OFF,   /* nothing */
	PROGRESS_BAR,   /* "\r[####----] 12/300 frames ..." redrawn at most 10 times a second */
	PROGRESS_LINES, /* "boids: 12/300 frames (4%), 30.1 fps, 0:09 left" every interval */
	PROGRESS_JSON,  /* {"event":"progress","frame":12,"total":300,"fps":30.1,"elapsed":0.4,"eta":9.6,
	                 *  "phase":"frames"}; in the warm-up "phase":"warm-up", "warmup":k,
	                 *  "warmup_total":N and "sps" (steps a second) */
};

struct progress {
	FILE *f;                /* where it goes (stderr) */
	enum progress_mode mode;
	long total;             /* frames, >= 1 */
	double interval;        /* seconds between lines (LINES, JSON) */
	double start;           /* monotonic seconds at progress_start */
	double drawn;           /* when it was last written; < 0: never */
	long last;              /* frames reported by the last line */
	int last_step;          /* per mille of a step the last in-step line gave */
	double moved;           /* when a whole step or frame was last done (a report or not) */
	long warmup;            /* warm-up steps before the frames; 0: none */
	long warm_done;         /* warm-up steps made so far */
	double warm_end;        /* when the warm-up ended (the frames' clock starts); < 0: not yet */
	double frame_steps;     /* steps a frame costs (--substeps, or steps per frame), for the ETA */
	pthread_mutex_t lock;   /* one writer at a time: steps report from their threads */
};

/* Monotonic time in seconds. */
double progress_now(void);

/*
 * Starts reporting `total` frames in `mode` on f; interval (seconds, > 0)
 * spaces the LINES and JSON reports.
 */
void progress_start(struct progress *p, FILE *f, enum progress_mode mode, long total,
                    double interval);

/*
 * Announces a warm-up of `steps` steps before the frames, each frame
 * costing `frame_steps` steps (for the time left: until frames are
 * measured, a frame is estimated at that many warm-up steps).  Call after
 * progress_start(), before the first step.
 */
void progress_warmup_start(struct progress *p, long steps, double frame_steps);

/* Reports `done` warm-up steps made ("warm-up 120/300 steps"), when due,
 * and always at the last one. */
void progress_warmup(struct progress *p, long done);

/* The warm-up is over (made, or stopped): the frames' clock starts now. */
void progress_warmup_end(struct progress *p);

/* Seconds the warm-up took (so far, while it runs); 0 without one. */
double progress_warmup_seconds(const struct progress *p);

/* Reports `done` frames finished; writes when due, and always at the end. */
void progress_update(struct progress *p, long done);

/*
 * Reports a step in progress: `done` frames finished, `fraction` (0..1) of
 * the step that makes the next one.  Written when due, like the others
 * ("frame 4 37% stepped"; in the warm-up "warm-up 3/300 steps, step 4 37%
 * done"; JSON adds "step"), so a long step shows it moves.
 * Any thread may call it; it never waits for another's report.
 */
void progress_step(struct progress *p, long done, double fraction);

/* Clears the bar so the next line starts clean (other modes: nothing). */
void progress_end(struct progress *p);

/*
 * Columns of the terminal behind fd, or 0 when it is not a terminal or does
 * not say (then COLUMNS from the environment, if a number, or 80).
 */
int progress_columns(int fd);

#endif
