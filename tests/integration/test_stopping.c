/*
 * Every way of stopping cleans up: SIGHUP, a second SIGINT while the first
 * is handled, and a signal while boids waits in open() for a FIFO's reader.
 * Each waits for an event (the first progress line, a temporary file), never
 * for a fixed time.
 */
#include <criterion/criterion.h>
#include <libavformat/avformat.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(stopping, .init = setup, .fini = teardown, .timeout = 180);

/* Starts boids with stderr on a pipe; *errfd reads it. */
static pid_t start(const char *args, int *errfd)
{
	char cmd[4096];
	int p[2];

	snprintf(cmd, sizeof(cmd), "exec '%s' %s", getenv("BOIDS_BIN"), args);
	cr_assert_eq(pipe(p), 0);
	pid_t pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		/* a child of a non-interactive shell may start with SIGINT ignored */
		signal(SIGINT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	*errfd = p[0];
	return pid;
}

/* Blocks until the progress bar has drawn `frames` frames. */
static void wait_progress(int fd, long frames)
{
	char buf[256], line[64];
	size_t used = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\r' || used == sizeof(line) - 1) {
				line[used] = 0;
				used = 0;
				long done;
				/* "boids: 12/100000 frames (0%), ..." (--progress lines) */
				if (sscanf(line, "boids: %ld/", &done) == 1 && done >= frames)
					return;
			} else {
				line[used++] = buf[i];
			}
		}
	}
	cr_assert_fail("boids ended before drawing %ld frames", frames);
}

static int finish(pid_t pid, int fd)
{
	char buf[256];
	int st;

	while (read(fd, buf, sizeof(buf)) > 0)
		; /* drain, so boids never blocks on stderr */
	close(fd);
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_assert(WIFEXITED(st), "boids died of signal %d instead of finishing", WTERMSIG(st));
	return WEXITSTATUS(st);
}

static long count_frames(const char *path)
{
	AVFormatContext *fc = NULL;
	AVPacket *pkt = av_packet_alloc();
	long n = -1;

	if (avformat_open_input(&fc, path, NULL, NULL) >= 0 &&
	    avformat_find_stream_info(fc, NULL) >= 0) {
		n = 0;
		while (av_read_frame(fc, pkt) >= 0) {
			n++;
			av_packet_unref(pkt);
		}
	}
	av_packet_free(&pkt);
	avformat_close_input(&fc);
	return n;
}

/* A long render stopped by `sigs` (sent back to back) after 5 frames. */
static void stopped_video(const int *sigs, int nsigs, int expect)
{
	int fd;
	pid_t pid = start("--progress lines --progress-interval 0.1 -s 640x360 -n 500 -f 100000 -o v.mp4 --trajectory t.csv", &fd);
	wait_progress(fd, 5);
	for (int i = 0; i < nsigs; i++)
		kill(pid, sigs[i]);
	int st = finish(pid, fd);
	cr_assert_eq(st, expect, "exit %d", st);
	long n = count_frames("v.mp4");
	cr_assert(n >= 5 && n < 100000, "the video does not play (%ld frames)", n);
	cr_assert_eq(tc_count_files("."), 2, "a temporary file was left");
	cr_assert_eq(tc_sh("! ls -a | grep -q '^[.][^.]'"), 0, "a hidden file was left");
}

Test(stopping, sighup_finishes_a_playable_video)
{
	int s[] = { SIGHUP };
	stopped_video(s, 1, 129);
}

Test(stopping, a_second_sigint_changes_nothing)
{
	int s[] = { SIGINT, SIGINT, SIGINT };
	stopped_video(s, 3, 130);
}

Test(stopping, sigterm_then_sighup_keeps_the_first)
{
	int s[] = { SIGTERM, SIGHUP };
	stopped_video(s, 2, 143);
}

Test(stopping, a_signal_ends_the_wait_for_a_fifo_reader)
{
	int fd;

	cr_assert_eq(mkfifo("p.y4m", 0644), 0);
	/* the trajectory's temporary file is made just before the FIFO is opened */
	pid_t pid = start("-q -y -f 3 -s 64x36 --trajectory t.csv -o p.y4m", &fd);
	struct timespec tick = { 0, 10 * 1000000L };
	while (tc_sh("ls -a | grep -q '^[.]t[.]csv[.]'") != 0) {
		cr_assert_eq(waitpid(pid, NULL, WNOHANG), 0, "boids ended before opening the FIFO");
		nanosleep(&tick, NULL); /* polling for the event, not a fixed wait */
	}
	/* repeated: one sent just before open() would be taken outside it */
	int st = -1, raw;
	for (int i = 0; i < 500 && st < 0; i++) {
		kill(pid, SIGTERM);
		if (waitpid(pid, &raw, WNOHANG) == pid)
			st = WIFEXITED(raw) ? WEXITSTATUS(raw) : 1000 + WTERMSIG(raw); /* killed: not handled */
		else
			nanosleep(&tick, NULL);
	}
	close(fd);
	cr_assert_eq(st, 143, "SIGTERM did not end the wait in open() (status %d)", st);
	cr_assert_eq(tc_count_files("."), 1, "files were left beside the FIFO");
}

/*
 * --progress json, interrupted: every line on stderr is still one JSON
 * object (Python's parser reads them), the last the "end" event with
 * status 130 and signal 2.  Waits for the first progress event, not a time.
 */
Test(stopping, an_interrupted_json_run_writes_only_json_lines)
{
	int fd;
	pid_t pid = start("--progress json --progress-interval 0.1 -s 320x180 -n 500 -f 100000 -o v.mkv", &fd);
	FILE *log = fopen("err.jsonl", "w");
	cr_assert_not_null(log);
	char buf[4096];
	ssize_t n;
	int sent = 0;
	while ((n = read(fd, buf, sizeof buf - 1)) > 0) {
		fwrite(buf, 1, (size_t)n, log);
		buf[n] = 0;
		if (!sent && strstr(buf, "\"event\":\"progress\"")) {
			kill(pid, SIGINT);
			sent = 1;
		}
	}
	fclose(log);
	close(fd);
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 130, "status %d", st);
	cr_assert_eq(tc_sh("%s -c 'import json\n"
	                   "lines=open(\"err.jsonl\",\"rb\").read().decode(\"utf-8\").split(\"\\n\")\n"
	                   "assert lines[-1]==\"\"\n"
	                   "rows=[json.loads(l) for l in lines[:-1]]\n"
	                   "assert rows[-1][\"event\"]==\"end\" and rows[-1][\"status\"]==130 and rows[-1][\"signal\"]==2, rows[-1]\n"
	                   "assert all(r[\"event\"]==\"progress\" for r in rows[:-1]), rows' || { cat err.jsonl; exit 1; }",
	                   tc_python()), 0);
}
