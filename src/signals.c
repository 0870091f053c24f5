/*
 * signals — stop signals; see include/signals.h.
 */
#define _GNU_SOURCE /* fopencookie */
#include "signals.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum {
	SETTLED = -1,       /* stop_signal after signals_settle() with none caught */
	WAIT_MS = 20,       /* a FIFO's other end is looked for this often */
};

/* Set by on_signal, read by every thread: lock-free atomics. */
static atomic_int stop_signal; /* 0, the first signal, or SETTLED */
static atomic_int late_signal; /* the first one after SETTLED */
static atomic_llong first_at;  /* CLOCK_MONOTONIC nanoseconds of the first stop signal, or 0 */

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
static int handled[3];           /* we handle it (it was not ignored at start) */

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t); /* async-signal-safe (POSIX) */
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The first signal decides; a second one (Ctrl-C twice, SIGHUP after
 * SIGINT) changes nothing, so the outputs are still finished. */
static void on_signal(int sig)
{
	int none = 0;
	long long zero = 0;

	atomic_compare_exchange_strong(&first_at, &zero, now_ns());
	if (!atomic_compare_exchange_strong(&stop_signal, &none, sig) && none == SETTLED) {
		none = 0;
		atomic_compare_exchange_strong(&late_signal, &none, sig);
	}
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
	signal(SIGXFSZ, SIG_IGN); /* a write past `ulimit -f` is EFBIG */
}

int signals_caught(void)
{
	int s = atomic_load(&stop_signal);

	return s > 0 ? s : 0;
}

void signals_settle(void)
{
	int was = atomic_exchange(&stop_signal, SETTLED), none = 0;

	if (was > 0) /* it came after the last frame: it ends waits, decides nothing */
		atomic_compare_exchange_strong(&late_signal, &none, was);
}

int signals_late(void)
{
	return atomic_load(&late_signal);
}

int signals_stop(void)
{
	int s = signals_caught();

	return s ? s : signals_late();
}

double signals_since(void)
{
	long long at = atomic_load(&first_at);

	return at ? (double)(now_ns() - at) * 1e-9 : 0.0;
}

/* Sleeps WAIT_MS, or less when a signal comes. */
static void pause_a_little(void)
{
	struct timespec t = { 0, WAIT_MS * 1000000L };

	nanosleep(&t, NULL);
}

static int is_fifo(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISFIFO(st.st_mode);
}

int signals_open(const char *path, int flags, mode_t mode)
{
	int writer = (flags & O_ACCMODE) != O_RDONLY;
	int fd;

	/* non-blocking, a FIFO's writer fails (ENXIO) until a reader comes */
	while ((fd = open(path, flags | O_NONBLOCK, mode)) < 0) {
		if (errno == EINTR || (errno == ENXIO && writer && is_fifo(path))) {
			if (signals_caught() || signals_late())
				return -EINTR;
			if (errno == ENXIO)
				pause_a_little();
			continue;
		}
		return -errno;
	}
	struct stat st;
	if (!writer && fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
		/* no data and no end of file until a writer comes */
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r;
		while ((r = poll(&p, 1, WAIT_MS)) <= 0) {
			int e = r < 0 && errno != EINTR ? errno
			        : signals_caught() || signals_late() ? EINTR : 0;
			if (e) {
				close(fd);
				return -e;
			}
		}
	}
	if (!(flags & O_NONBLOCK)) {
		int fl = fcntl(fd, F_GETFL);
		if (fl == -1 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1) {
			int e = errno;
			close(fd);
			return -e;
		}
	}
	return fd;
}

/* What a stream that honours a stop reads. */
struct stop_reader {
	int fd;
	int wait;       /* not a regular file (a pipe, a FIFO, a terminal): data may be slow to come */
};

/*
 * Fails with EINTR once a stop signal came, and waits for slow data with
 * poll(), WAIT_MS at a time, so that a signal that came at any moment
 * (between two reads too, where no read() is there to be interrupted)
 * ends the wait.
 */
static ssize_t stop_read(void *cookie, char *buf, size_t size)
{
	struct stop_reader *r = cookie;
	struct pollfd p = { .fd = r->fd, .events = POLLIN };

	for (;;) {
		if (signals_stop()) {
			errno = EINTR;
			return -1;
		}
		int n = r->wait ? poll(&p, 1, WAIT_MS) : 1;
		if (n < 0 && errno != EINTR)
			return -1;
		if (n <= 0)
			continue;
		ssize_t got = read(r->fd, buf, size);
		if (got >= 0 || (errno != EINTR && errno != EAGAIN))
			return got;
	}
}

static int stop_close(void *cookie)
{
	struct stop_reader *r = cookie;
	int e = close(r->fd);

	free(r);
	return e;
}

/* fd as a stream that honours a stop (a directory as it is: reading it fails); takes fd. */
static FILE *stop_stream(int fd)
{
	struct stat st;
	struct stop_reader *r;
	FILE *f = NULL;
	int e, known = fstat(fd, &st) == 0;

	if (known && S_ISDIR(st.st_mode)) {
		f = fdopen(fd, "r");
	} else if ((r = malloc(sizeof *r)) != NULL) {
		r->fd = fd;
		r->wait = !known || !S_ISREG(st.st_mode);
		f = fopencookie(r, "r", (cookie_io_functions_t){ .read = stop_read, .close = stop_close });
		if (!f) {
			e = errno;
			free(r);
			errno = e;
		}
	}
	if (!f) {
		e = errno;
		close(fd);
		errno = e;
	}
	return f;
}

FILE *signals_fopen(const char *path)
{
	int fd = signals_open(path, O_RDONLY | O_CLOEXEC, 0);

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	return stop_stream(fd);
}

FILE *signals_fdopen(int fd)
{
	int copy = fcntl(fd, F_DUPFD_CLOEXEC, 3);

	return copy < 0 ? NULL : stop_stream(copy);
}
