/*
 * progress — a one-line progress bar on a terminal: frames done/total,
 * frames per second and the time left.  Redraws at most ten times a second;
 * does nothing when disabled.  The one module that prints: it writes only to
 * the stream main hands it (stderr), and only when main enables it.
 */
#ifndef BOIDS_PROGRESS_H
#define BOIDS_PROGRESS_H

#include <stdio.h>

struct progress {
	FILE *f;        /* where the bar goes (stderr) */
	int enabled;
	long total;     /* frames */
	double start;   /* monotonic seconds at progress_start */
	double drawn;   /* when the bar was last drawn */
};

/* Monotonic time in seconds. */
double progress_now(void);

void progress_start(struct progress *p, FILE *f, int enabled, long total);

/* Reports `done` frames finished; redraws when due (and at the end). */
void progress_update(struct progress *p, long done);

/* Clears the bar so the next line starts clean. */
void progress_end(struct progress *p);

#endif
