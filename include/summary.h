/*
 * summary — the machine-readable account of a run, as JSON:
 *
 *   { "version": "1.0.0", "seed": 1,
 *     "parameters": { "boids": 100, "size": "640x360", ... },
 *     "frames": 300, "wall_time_s": 1.25, "output": "flock.mp4" | null,
 *     "metrics": { "polarization": { "final": 0.9, "mean": 0.7 }, ... } }
 *
 * "parameters" holds every setting --print-config shows: numbers as JSON
 * numbers, everything else (sizes, names, colours, yes/no, auto) as strings.
 * A metric's "mean" is over every frame written (frame 0 is the state after
 * warm-up); a number that is not finite is written as null.
 */
#ifndef BOIDS_SUMMARY_H
#define BOIDS_SUMMARY_H

#include <stdio.h>

#include "cli.h"
#include "metrics.h"

struct summary {
	const struct settings *set;
	long frames;                     /* frames written */
	double wall_time;                /* seconds */
	const char *output;              /* picture output, NULL for none */
	int have_metrics;                /* final and mean are filled */
	struct metrics final;            /* the last frame's metrics */
	double mean[METRICS_COUNT];      /* mean over the frames, metrics_value order */
};

/*
 * Writes the summary and flushes f.  Strings are escaped so that the JSON is
 * valid UTF-8 whatever bytes they hold: a byte outside a well-formed UTF-8
 * sequence becomes U+FFFD.  Returns 0 or the failing write's -errno (-EIO
 * if it left none).
 */
int summary_write(FILE *f, const struct summary *s);

#endif
