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
 *     "outputs": { "output": { "file": "flock.mp4", "frames": 300, "error": null },
 *                  "trajectory": { "file": "t.csv.zst", "frames": 0,
 *                                  "error": "cannot write 't.csv.zst': No space left on device" },
 *                  "metrics": { "file": "m.csv", "frames": 300, "error": null } },
 *     "error": null | "cannot step the flock: ...",
 *     "metrics": { "polarization": { "final": 0.9, "mean": 0.7 }, ... } }
 *
 * "parameters" holds every setting --print-config shows: numbers as JSON
 * numbers, everything else (sizes, names, colours, yes/no, auto) as strings.
 * A metric's "mean" is over every frame written (frame 0 is the state after
 * warm-up); a number that is not finite is written as null.
 *
 * "status" says how the run ended, as its exit status does: complete
 * (every frame asked was made and written, exit 0), interrupted (stopped by
 * the signal "signal", SIGINT, SIGTERM or SIGHUP, after "frames" of
 * "frames_asked", exit 128 + it; 0 frames when it came before the first),
 * failed (a runtime error, exit 1: an output that failed says why in its
 * "error", and was removed; a failure of no output's is "error").  Only a
 * complete run is a result.  The summary is written last, once every other
 * output is committed.
 *
 * "outputs" has an entry for each output the run was given (--output, with
 * its picture output; --trajectory; --metrics), each with the frames its
 * file holds: frames 0..frames-1 of the run (the trajectory with
 * --trajectory-every K: its multiples of K below that); an output that
 * failed or was not kept (a video stopped before its first frame) has 0.
 * After a stop the picture output holds what its encoder gave out (the
 * summary's "frames"), the trajectory and the metrics every frame stepped
 * (the trajectory as many as its writer began within the stop's second):
 * each output says its own count.
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

/* One output's account: its option's name ("output", "trajectory", "metrics"), file, frames, error. */
struct summary_output {
	const char *option;
	const char *file;                /* as given ("-": standard output) */
	long frames;                     /* frames 0..frames-1 are in it; 0 when failed or not kept */
	const char *error;               /* why it failed (it was removed), or NULL */
};

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
	const struct summary_output *outputs; /* the outputs given, noutputs of them */
	size_t noutputs;
	const char *error;               /* a failure of no output's (a step, a thread), or NULL */
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
