/*
 * report — how the program speaks: one line "boids: ..." on stderr for each
 * message, and the exit statuses.  Used by main and its two parts, outputs
 * and pipeline (the application layer); the library modules below them
 * never print, they return codes that these functions turn into words.
 *
 * Exit statuses: 0 success, 1 runtime failure (EXIT_FAILURE), 2 bad usage
 * (EXIT_USAGE), 128 + signal after SIGINT/SIGTERM/SIGHUP.
 */
#ifndef BOIDS_REPORT_H
#define BOIDS_REPORT_H

enum { EXIT_USAGE = 2 };

/*
 * Prints "boids: <message>" and a newline on stderr.  Control characters
 * (from paths and values the user gave) become '?': a message is always
 * one line and never an escape sequence.
 */
/* Prefixes every message from here on with "WHERE: " (NULL: none again):
 * --check-configs names the line the run's checks are about. */
void report_context(const char *where);

void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* report(), then exit(EXIT_USAGE): for input refused before any file exists. */
void report_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/*
 * Reports a runtime failure: "<what> '<path>': <the text of err>", err a
 * negative errno or AVERROR.  Says nothing for -EINTR after a stop signal
 * (a signal ended a wait: not a failure).  Returns EXIT_FAILURE.
 */
int report_failure(const char *what, const char *path, int err);

/* After printing to stdout: 0, or 1 with a message if writing failed. */
int report_stdout_status(void);

#endif
