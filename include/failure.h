/*
 * failure — a refusal or a failure on its way up to main, which alone prints
 * it and chooses the exit status (as Lua's library functions return a
 * status and leave the message for lua.c's report(), and Redis's context
 * carries err and errstr).  The modules that check and open what a run
 * reads and writes (outputs, start, trajmeta, batch) fill one and return
 * its status; they never print their failures or exit.
 *
 * Statuses: 0 nothing failed, 1 runtime failure (EXIT_FAILURE), 2 bad
 * usage (EXIT_USAGE, refused before any file exists), 128 + the signal
 * when a stop request ended a wait or a read.
 */
#ifndef BOIDS_FAILURE_H
#define BOIDS_FAILURE_H

#include <stdlib.h>

enum { EXIT_USAGE = 2 };

struct failure {
	int status;          /* 0, EXIT_FAILURE, EXIT_USAGE or 128 + signal */
	char msg[1024];      /* one line, without "boids: "; "" when there is nothing to say */
};

/* Sets f to `status` with the message fmt...; returns status. */
int failure_set(struct failure *f, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* failure_set() with EXIT_USAGE: input refused before any output exists.  Returns EXIT_USAGE. */
int failure_usage(struct failure *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* failure_set() with EXIT_FAILURE: a runtime failure.  Returns EXIT_FAILURE. */
int failure_runtime(struct failure *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * A runtime failure of `path`: "<what> '<path>': <the text of err>", err a
 * negative errno or AVERROR (video_strerror()); the path cut to 200 bytes.
 * -EINTR after a stop signal is no failure to tell: no message.  -ESTALE
 * says the temporary file was replaced.  Returns EXIT_FAILURE.
 */
int failure_cause(struct failure *f, const char *what, const char *path, int err);

/* A stop request (signal sig) ended the work: 128 + sig, no message.  Returns it. */
int failure_stop(struct failure *f, int sig);

#endif
