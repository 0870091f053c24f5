/*
 * report — how the program speaks: one line "boids: ..." on stderr for each
 * message (or one JSON event), and the closing event.  Who speaks:
 *   - main: the refusals and failures of the checks and opens below it,
 *     which return them as a struct failure (failure.h) for main to print
 *     (report_fail()) and turn into the exit status (nothing below main
 *     exits); its notes and the closing line;
 *   - a running run's failures, said when they happen and kept for the
 *     summary: outputs_failed() (an output's write, the pipeline's stages,
 *     a step), from any thread;
 *   - --check-configs's verdicts on each line and its closing line
 *     (batch.c), and the notes of the checks (a padded picture, a FIFO
 *     --init not read ahead: report_note());
 *   - the progress (progress.c), on its own lines.
 * The library modules below them never print: they return codes that
 * these functions turn into words.
 *
 * Exit statuses (failure.h): 0 success, 1 runtime failure (EXIT_FAILURE), 2 bad
 * usage (EXIT_USAGE), 128 + signal after SIGINT/SIGTERM/SIGHUP.
 */
#ifndef BOIDS_REPORT_H
#define BOIDS_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "failure.h"

/*
 * --progress json: from here on every line on stderr is one JSON object
 * (docs/boids.1, PROGRESS AND MESSAGES, has the schema):
 *   {"event":"error"|"warning"|"info","message":"..."}
 *   {"event":"end","status":0, and for a run that started "frames",
 *    "boids", "seconds", "fps", "output" (or null), "signal" (or null)}
 * progress.c writes the "progress" events.  Off: "boids: <message>" lines.
 */
void report_json(int on);
int report_is_json(void);

/* A JSON string: quotes, backslashes and control bytes escaped; bytes that
 * are not well-formed UTF-8 become \ufffd. */
void report_json_string(FILE *f, const char *s);

/*
 * Prints "boids: <message>" and a newline on stderr.  Control characters
 * (from paths and values the user gave) become '?': a message is always
 * one line and never an escape sequence.
 */
/* Prefixes every message from here on with "WHERE: " (NULL: none again):
 * --check-configs names the line the run's checks are about. */
void report_context(const char *where);

void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The same for what is not a failure: a warning ("note: ..."), and what
 * --verbose says ("info" events). */
void report_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void report_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* What the closing event says of a run that started. */
struct report_run {
	long frames;            /* frames written */
	size_t boids;
	double seconds;         /* wall time */
	const char *output;     /* the picture output, or NULL */
	int signal;             /* the stop signal, or 0 */
	long warmup_steps;      /* --warmup steps made before the frames */
	double warmup_seconds;  /* their wall time, part of seconds */
};

/*
 * JSON mode only: the closing {"event":"end","status":S, ...} line (run:
 * NULL before a run started).  The last line boids writes on stderr.
 */
void report_end(int status, const struct report_run *run);

/* Prints f's message (if it has one, as report() does); returns f->status. */
int report_fail(const struct failure *f);

/*
 * Reports a runtime failure: failure_cause()'s "<what> '<path>': <the text of
    * err>", err a negative errno or AVERROR.  Says nothing for -EINTR after a
    * stop signal (a signal ended a wait: not a failure).  Returns EXIT_FAILURE.
    */
int report_failure(const char *what, const char *path, int err);

/* After printing to stdout: 0, or 1 with a message if writing failed. */
int report_stdout_status(void);

#endif
