/*
 * signals — SIGINT, SIGTERM and SIGHUP end a run cleanly: the first one is
 * recorded (a second changes nothing), every pipeline thread sees it through
 * signals_caught() and stops, and the outputs are still finished.  Only the
 * main thread takes the signals: threads started while they are blocked
 * (signals_block(1)) inherit the mask.
 */
#ifndef BOIDS_SIGNALS_H
#define BOIDS_SIGNALS_H

/* Blocks (1) or unblocks (0) the stop signals in the calling thread. */
void signals_block(int block);

/*
 * Takes the stop signals from here on (one ignored at start, as under nohup
 * or in a background job, stays ignored), without SA_RESTART, unblocks them
 * in this thread, and ignores SIGPIPE (a closed pipe is then a write error,
 * EPIPE).
 */
void signals_watch(void);

/*
 * restart 0 while opening outputs: a FIFO's open() waits for a reader, and
 * a signal must end that wait (EINTR) rather than be taken and the open()
 * resumed.  restart 1 for the run itself, so stdio writes are never cut
 * short by EINTR.
 */
void signals_restart(int restart);

/* The first stop signal received, or 0.  Lock-free: any thread may ask. */
int signals_caught(void);

#endif
