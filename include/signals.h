/*
 * signals — SIGINT, SIGTERM and SIGHUP end a run cleanly, within a second
 * wherever it is: the first one is recorded (a second changes nothing),
 * every thread sees it through signals_caught() and stops (the flock's
 * passes too, inside a step), and the outputs are still finished.  The
 * handlers are taken at the start of main(), so no wait (a FIFO's open, a
 * read from a slow writer) outlives a stop request.  Only short critical
 * sections block them: starting threads, which inherit the mask, so that
 * signals stay with the main thread, the one that may wait in open().
 *
 * Once the last frame is committed (signals_settle()) a signal no longer
 * changes the outcome: the run finishes as complete.
 */
#ifndef BOIDS_SIGNALS_H
#define BOIDS_SIGNALS_H

#include <stdio.h>
#include <sys/types.h>

/* Blocks (1) or unblocks (0) the stop signals in the calling thread. */
void signals_block(int block);

/*
 * Takes the stop signals from here on (one ignored at start, as under nohup
 * or in a background job, stays ignored), without SA_RESTART, unblocks them
 * in this thread, and ignores SIGPIPE (a closed pipe is then a write error,
 * EPIPE) and SIGXFSZ (a write past `ulimit -f` is then EFBIG, "File too
 * large", not a death that leaves temporary files behind).
 */
void signals_watch(void);

/*
 * restart 0 while a wait must end on a signal (EINTR) rather than be taken
 * and resumed; restart 1 for the run itself, so stdio writes are never cut
 * short by EINTR.
 */
void signals_restart(int restart);

/*
 * The first stop signal received before signals_settle(), or 0.
 * Lock-free and async-signal-safe: any thread may ask.
 */
int signals_caught(void);

/*
 * The outcome is decided: every frame is committed, so the run is complete
 * even if a signal came meanwhile.  A signal caught so far, or from now on,
 * is reported by signals_late() only, never by signals_caught(), so the
 * status, the summary and the closing line all say "complete".
 */
void signals_settle(void);

/* A stop signal received after signals_settle(), or 0. */
int signals_late(void);

/*
 * Any stop signal received: signals_caught(), else signals_late(), else 0.
 * An EINTR with one of them means "stopped"; without, "try again".
 */
int signals_stop(void);

/*
 * Seconds since the first stop signal came (caught or late), 0 when none
 * came: what is left of a stop's second (a video's drain, outputs.c).
 */
double signals_since(void);

/*
 * open(2) of path with flags (and mode, with O_CREAT), where a FIFO's wait
 * for its other end ends as soon as a stop signal is caught (signals_late() too): a writer waits
 * for a reader to open it, a reader for a writer to write or close, both
 * checked every few hundredths of a second, so a signal that came just
 * before the call is seen too.  Anything else opens as open(2) does.  The
 * descriptor is blocking (unless flags hold O_NONBLOCK).
 * Returns the descriptor, or -errno: -EINTR when a stop signal ended the wait.
 */
int signals_open(const char *path, int flags, mode_t mode);

/*
 * fopen(path, "r") through signals_open(): NULL with errno (EINTR: a stop
 * signal).  Every read fails with EINTR (ferror(), errno EINTR) once a stop
 * signal came, and a stream that is not a regular file (a FIFO, a pipe, a
 * device) waits for data through poll(), so that a stop ends the wait
 * whenever it came, before the read began too.  The stream has no
 * descriptor (fileno() is -1), except a directory's (fopen()'s stream).
 */
FILE *signals_fopen(const char *path);

/* The same for an open descriptor (standard input), read through a copy of
 * it: fclose() leaves fd open.  NULL with errno. */
FILE *signals_fdopen(int fd);

#endif
