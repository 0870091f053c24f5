/*
 * signals — stop signals; see include/signals.h.
 */
#include "signals.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

/* Set by on_signal, read by every pipeline thread: lock-free atomic. */
static atomic_int stop_signal;

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
static int handled[3];           /* we handle it (it was not ignored at start) */

/* The first signal decides; a second one (Ctrl-C twice, SIGHUP after
 * SIGINT) changes nothing, so the outputs are still finished. */
static void on_signal(int sig)
{
	int none = 0;

	atomic_compare_exchange_strong(&stop_signal, &none, sig);
}

void signals_restart(int restart)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = restart ? SA_RESTART : 0;
	for (int i = 0; i < 3; i++)
		if (handled[i])
			sigaction(stop_signals[i], &sa, NULL);
}

void signals_block(int block)
{
	sigset_t set;

	sigemptyset(&set);
	for (int i = 0; i < 3; i++)
		sigaddset(&set, stop_signals[i]);
	pthread_sigmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

void signals_watch(void)
{
	for (int i = 0; i < 3; i++) {
		struct sigaction old;
		/* an ignored signal (nohup, a background job) stays ignored */
		handled[i] = sigaction(stop_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN;
	}
	signals_restart(0);
	signals_block(0); /* only this thread takes them: it is the one in open() */
	signal(SIGPIPE, SIG_IGN); /* a closed pipe is a write error (EPIPE) */
}

int signals_caught(void)
{
	return atomic_load(&stop_signal);
}
