/*
 * report — how the program speaks: one line "boids: ..." on stderr for each
 * message (or one JSON event), and the closing event.  The checks and opens
 * below main return their failures as a struct fail (fail.h), which main
 * prints with report_fail() and turns into the exit status; nothing below
 * main exits.
 *
 * Exit statuses (fail.h): 0 success, 1 runtime failure (EXIT_FAILURE), 2 bad
 * usage (EXIT_USAGE), 128 + signal after SIGINT/SIGTERM/SIGHUP.
 */
#ifndef BOIDS_REPORT_H
#define BOIDS_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "fail.h"

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
int report_fail(const struct fail *f);

/*
 * Reports a runtime failure: fail_cause()'s "<what> '<path>': <the text of
 * err>", err a negative errno or AVERROR.  Says nothing for -EINTR after a
 * stop signal (a signal ended a wait: not a failure).  Returns EXIT_FAILURE.
 */
int report_failure(const char *what, const char *path, int err);

/* After printing to stdout: 0, or 1 with a message if writing failed. */
int report_stdout_status(void);

#endif
