/*
 * summary — the machine-readable account of a run, as JSON:
 *
 *   { "version": "1.0.0", "seed": 1,
 *     "status": "complete" | "interrupted" | "failed", "signal": 15 | null,
 *     "frames_asked": 300, "started": "2026-01-31T09:05:00.250Z" (ISO 8601, UTC;
 *     null if unknown), "host": "node7",
 *     "options_hash": "sha256:<64 hex digits>",
 *     "parameters": { "boids": 100, "size": "640x360", ... },
 *     "frames": 300, "wall_time_s": 1.25, "output": "flock.mp4" | null,
 *     "metrics": { "polarization": { "final": 0.9, "mean": 0.7 }, ... } }
 *
 * "parameters" holds every setting --print-config shows: numbers as JSON
 * numbers, everything else (sizes, names, colours, yes/no, auto) as strings.
 * A metric's "mean" is over every frame written (frame 0 is the state after
 * warm-up); a number that is not finite is written as null.
 *
 * "status" says how the run ended: complete (every frame asked was made and
 * written), interrupted (stopped by the signal "signal", SIGINT or SIGTERM,
 * after "frames" of "frames_asked"), failed (a runtime error; the outputs
 * were removed).  Only a complete run is a result.
 *
 * "options_hash" identifies the effective options: the SHA-256 of the
 * --print-config text, keeping only its "key = value" lines (no comments, no
 * blank lines) and leaving out the keys that name files or only change how
 * boids talks (output, trajectory, metrics, summary, overwrite, progress,
 * quiet), each kept line with its newline.  scripts/sweep computes the same
 * from `boids --print-config` to tell whether a run used the options a sweep
 * asks for.
 */
#ifndef BOIDS_SUMMARY_H
#define BOIDS_SUMMARY_H

#include <stdio.h>
#include <time.h>

#include "config.h"
#include "metrics.h"

enum summary_status { SUMMARY_COMPLETE, SUMMARY_INTERRUPTED, SUMMARY_FAILED };

struct summary {
	const struct config *set;        /* the run's settings */
	int status;                      /* enum summary_status */
	int signal;                      /* the signal that interrupted the run, or 0 */
	long frames_asked;               /* frames the run was asked for */
	struct timespec started;         /* when the run started (CLOCK_REALTIME); 0: unknown */
	long frames;                     /* frames written */
	double wall_time;                /* seconds */
	const char *output;              /* picture output, NULL for none */
	int have_metrics;                /* final and mean are filled */
	struct metrics final;            /* the last frame's metrics */
	double mean[METRICS_COUNT];      /* mean over the frames, metrics_value order */
};

/*
 * Writes "sha256:" and the 64 hex digits of the options hash (see above)
 * into out.  Returns 0 or -errno (-ENOMEM).
 */
int summary_options_hash(const struct config *set, char out[72]);

/*
 * The same hash from cli_print_config()'s text (size bytes at text, which
 * is rewritten), for a caller that has the text already.
 */
void summary_hash_config_text(char *text, size_t size, char out[72]);

/*
 * Writes the summary and flushes f.  Strings are escaped so that the JSON is
 * valid UTF-8 whatever bytes they hold: a byte outside a well-formed UTF-8
 * sequence becomes U+FFFD.  Returns 0, -ENOMEM when the options hash cannot
 * be made (nothing is written then), or the failing write's -errno (-EIO
 * if it left none).
 */
int summary_write(FILE *f, const struct summary *s);

#endif
