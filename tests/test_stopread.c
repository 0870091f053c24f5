/*
 * Every reader honours a stop: a stream from signals_fopen() or
 * signals_fdopen() (the --init, --config and --check-configs readers) fails
 * with EINTR once a stop signal came, whenever it came: also before the
 * read began (between two lines, where no read() is there to be
 * interrupted), on a pipe whose writer sends nothing, and on a regular file
 * that never blocks.  Each case runs in a child of its own (the stop is
 * process-wide); alarm() only guards against the hang these tests are about.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "lineread.h"
#include "signals.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(stopread, .init = setup, .fini = teardown, .timeout = 60);

enum { READ_STOPPED = 0, READ_OTHER = 1, NO_STREAM = 2 };

/*
 * In a child: one line read from f, then the stop signal (between two
 * lines), then the lines on.  Exits READ_STOPPED if the reading ended with
 * EINTR (a buffer's lines may come first), not at the end of the data or
 * never.
 */
static void read_after_a_stop(FILE *f)
{
	char *line = NULL;
	size_t cap = 0;

	alarm(20); /* a read that waits for data that never come: SIGALRM, not a hang */
	if (!f || lineread_next(f, &line, &cap, LINEREAD_MAX) < 0)
		_exit(NO_STREAM);
	raise(SIGTERM);
	ssize_t n;
	while ((n = lineread_next(f, &line, &cap, LINEREAD_MAX)) >= 0)
		;
	_exit(n == -EINTR && signals_caught() == SIGTERM ? READ_STOPPED : READ_OTHER);
}

/* Runs read_after_a_stop() on what open_stream() gives, in a child; returns how it ended. */
static int in_child(FILE *(*open_stream)(void))
{
	pid_t pid = fork();
	int st;

	cr_assert_neq(pid, -1);
	if (pid == 0) {
		signals_watch();
		read_after_a_stop(open_stream());
	}
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_assert(WIFEXITED(st), "the read did not end on the stop (signal %d)", WTERMSIG(st));
	return WEXITSTATUS(st);
}

static int pipe_fds[2];

/* A pipe whose writer sent one line and nothing more, as standard input. */
static FILE *stalled_stdin(void)
{
	dup2(pipe_fds[0], STDIN_FILENO);
	return signals_fdopen(STDIN_FILENO);
}

Test(stopread, a_stop_before_the_read_ends_the_wait_on_a_stalled_pipe)
{
	cr_assert_eq(pipe(pipe_fds), 0);
	cr_assert_eq(write(pipe_fds[1], "{}\n", 3), 3);
	cr_expect_eq(in_child(stalled_stdin), READ_STOPPED, "the read waited for the writer, or read");
	close(pipe_fds[0]);
	close(pipe_fds[1]);
}

/* A FIFO whose writer (this process) sent one line and nothing more. */
static FILE *stalled_fifo(void)
{
	return signals_fopen("in.jsonl");
}

Test(stopread, a_stop_before_the_read_ends_the_wait_on_a_stalled_fifo)
{
	cr_assert_eq(mkfifo("in.jsonl", 0644), 0);
	int w = open("in.jsonl", O_RDWR); /* holds both ends: the child's open() does not wait */
	cr_assert_geq(w, 0);
	cr_assert_eq(write(w, "{}\n", 3), 3);
	cr_expect_eq(in_child(stalled_fifo), READ_STOPPED);
	close(w);
}

/* A regular file with lines to read: it never blocks, and a stop ends it all the same. */
static FILE *regular_file(void)
{
	return signals_fopen("lines.txt");
}

Test(stopread, a_stop_ends_the_reading_of_a_regular_file)
{
	cr_assert_eq(tc_sh("seq 1 100000 > lines.txt"), 0);
	cr_expect_eq(in_child(regular_file), READ_STOPPED, "the file was read on after the stop");
}
