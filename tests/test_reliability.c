/*
 * Reliability as a user meets it: signals finish the output, full disks and
 * bad paths are errors naming the path, and nothing half-written is left
 * under a final name.
 */
#include <criterion/criterion.h>
#include <libavformat/avformat.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "frameq.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(reliability, .init = setup, .fini = teardown, .timeout = 120);

/* Counts the video frames of a file by decoding packets' headers. */
static long count_frames(const char *path, int *playable)
{
	AVFormatContext *fc = NULL;
	AVPacket *pkt = av_packet_alloc();
	long n = 0;

	*playable = 0;
	if (avformat_open_input(&fc, path, NULL, NULL) < 0)
		return -1;
	if (avformat_find_stream_info(fc, NULL) >= 0) {
		*playable = 1;
		while (av_read_frame(fc, pkt) >= 0) {
			n++;
			av_packet_unref(pkt);
		}
	}
	av_packet_free(&pkt);
	avformat_close_input(&fc);
	return n;
}

/* Starts boids in the background, signals it after `ms`, returns its status. */
static int signal_run(const char *args, int sig, int ms)
{
	char cmd[4096];
	snprintf(cmd, sizeof(cmd), "exec '%s' %s 2>err.txt", getenv("BOIDS_BIN"), args);
	pid_t pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
	kill(pid, sig);
	int st;
	waitpid(pid, &st, 0);
	cr_assert(WIFEXITED(st), "boids died of signal %d instead of finishing", WTERMSIG(st));
	return WEXITSTATUS(st);
}

static void interrupted_video(int sig, int expect)
{
	/* a long 1080p render, stopped after about a second */
	int st = signal_run("-q -s 1920x1080 -n 2000 -f 3000 -o v.mp4", sig, 1200);
	char *err = tc_slurp("err.txt", NULL);
	cr_assert_eq(st, expect, "exit %d after signal %d: %s", st, sig, err);
	free(err);
	int playable;
	long n = count_frames("v.mp4", &playable);
	cr_assert(playable, "the interrupted video does not open");
	cr_assert(n > 0 && n < 3000, "%ld frames", n);
	cr_assert_eq(tc_count_files("."), 2, "a temporary file was left behind");
}

Test(reliability, sigint_finishes_a_playable_video) { interrupted_video(SIGINT, 130); }
Test(reliability, sigterm_finishes_a_playable_video) { interrupted_video(SIGTERM, 143); }

Test(reliability, sigint_during_png_output_leaves_only_whole_pngs)
{
	mkdir("f", 0755);
	int st = signal_run("-q -s 1920x1080 -n 3000 -f 5000 -o f/%05d.png", SIGINT, 1500);
	cr_assert_eq(st, 130);
	int n = tc_count_files("f");
	cr_assert_gt(n, 0);
	/* every file is a complete PNG under its final name */
	cr_assert_eq(tc_sh("ls -a f | grep -v '^[.][.]*$' | grep -qv '^[0-9]*[.]png$'"), 1, "temporary files remain");
	cr_assert_eq(tc_sh("for f in f/*.png; do tail -c 8 \"$f\" | od -An -c | grep -q 'I   E   N   D' || exit 1; done"), 0,
	             "a PNG is cut short");
}

Test(reliability, a_signal_during_warmup_stops_at_once_and_leaves_nothing)
{
	/* a warm-up of minutes: the signal must not wait for it */
	int st = signal_run("-q -n 20000 --warmup 1000000 -o v.mp4 --trajectory t.csv --summary s.json", SIGINT, 500);
	cr_assert_eq(st, 130);
	cr_assert_eq(tc_count_files("."), 1, "files were left (only err.txt expected)");
}

Test(reliability, full_disk_on_stdout_is_an_error)
{
	cr_assert_eq(tc_sh("'%s' -f 30 -o - > /dev/full 2>err.txt", getenv("BOIDS_BIN")), 1);
	char *err = tc_slurp("err.txt", NULL);
	cr_assert(strstr(err, "No space left on device"), "%s", err);
	cr_assert(strchr(err, '\n') == err + strlen(err) - 1, "more than one line: %s", err);
	free(err);
}

Test(reliability, full_filesystem_leaves_no_file)
{
	/* A tiny tmpfs needs root; without it this test is not meaningful. */
	if (geteuid() != 0 || tc_sh("mkdir -p small && mount -t tmpfs -o size=64k tmpfs small 2>/dev/null") != 0)
		cr_skip_test("cannot mount a small tmpfs here");
	int st = tc_boids("-f 60 -o small/v.mp4");
	const char *err = tc_stderr();
	int leftovers = tc_count_files("small");
	tc_sh("umount small");
	cr_assert_eq(st, 1, "exit %d: %s", st, err);
	cr_assert(strstr(err, "small/v.mp4") && strstr(err, "No space left on device"), "%s", err);
	cr_assert_eq(leftovers, 0, "files were left on the full filesystem");
}

Test(reliability, full_filesystem_png_and_trajectory)
{
	if (geteuid() != 0 || tc_sh("mkdir -p small && mount -t tmpfs -o size=64k tmpfs small 2>/dev/null") != 0)
		cr_skip_test("cannot mount a small tmpfs here");
	int st1 = tc_boids("-f 300 -s 640x360 -o small/f_%%03d.png");
	char *e1 = strdup(tc_stderr());
	tc_sh("rm -f small/*");
	int st2 = tc_boids("--no-render -f 300 --trajectory small/t.csv");
	char *e2 = strdup(tc_stderr());
	int left = tc_count_files("small");
	tc_sh("umount small");
	cr_assert_eq(st1, 1, "%s", e1);
	cr_assert(strstr(e1, "No space left on device"), "%s", e1);
	cr_assert_eq(st2, 1, "%s", e2);
	cr_assert(strstr(e2, "small/t.csv") && strstr(e2, "No space left on device"), "%s", e2);
	cr_assert_eq(left, 0);
	free(e1);
	free(e2);
}

Test(reliability, missing_directory_and_directory_paths_exit_2_before_work)
{
	cr_assert_eq(tc_boids("-o nodir/v.mp4"), 2);
	cr_assert(strstr(tc_stderr(), "'nodir/v.mp4'"), "%s", tc_stderr());
	mkdir("d.mp4", 0755);
	cr_assert_eq(tc_boids("-y -o d.mp4"), 2);
	cr_assert(strstr(tc_stderr(), "'d.mp4' is a directory"), "%s", tc_stderr());
	cr_assert_eq(tc_boids("-o nodir/f_%%03d.png"), 2);
	cr_assert_eq(tc_count_files("."), 1);
}

Test(reliability, unwritable_directory_is_a_runtime_error_naming_the_path)
{
	if (geteuid() == 0)
		cr_skip_test("root can write anywhere");
	mkdir("ro", 0555);
	cr_assert_eq(tc_boids("-f 2 -o ro/v.mp4"), 1);
	cr_assert(strstr(tc_stderr(), "ro/v.mp4") && strstr(tc_stderr(), "Permission denied"), "%s", tc_stderr());
}

Test(reliability, broken_pipe_is_an_error_not_a_crash)
{
	int st = tc_sh("bash -c 'set -o pipefail; \"%s\" -f 300 -o - 2>err.txt | head -c 100 >/dev/null'", getenv("BOIDS_BIN"));
	cr_assert_eq(st, 1, "exit %d", st);
	char *err = tc_slurp("err.txt", NULL);
	cr_assert(strstr(err, "Broken pipe"), "%s", err);
	free(err);
}

Test(reliability, huge_requests_are_refused_before_allocating)
{
	cr_assert_eq(tc_boids("-n 10000001"), 2);
	cr_assert_eq(tc_boids("-s 20000x20000"), 2);
	cr_assert_eq(tc_boids("-f 100000001"), 2);
	/* each within its limit, together beyond the machine's memory */
	cr_assert_eq(tc_boids("-n 10000000 --trail 1000 -f 1"), 2);
	cr_assert(strstr(tc_stderr(), "GiB of memory"), "%s", tc_stderr());
	cr_assert_eq(tc_count_files("."), 0);
}

Test(reliability, extreme_weights_never_give_non_finite_numbers)
{
	/* beyond the stated bounds: refused */
	cr_assert_eq(tc_boids("--flock-weight 1e300"), 2);
	cr_assert(strstr(tc_stderr(), "-1000000 to 1000000"), "%s", tc_stderr());
	/* at the bounds: every number stays finite, in the CSV and the picture */
	cr_assert_eq(tc_boids("-q --no-render -f 50 -n 500 --flock-weight 1e6 --avoid-weight -1e6 "
	                      "--align-weight 1e6 --predator-weight 1e6 --avoid-radius 1e6 "
	                      "--predator-radius 1e6 --max-speed 1e6 --trajectory t.csv"), 0);
	cr_assert_eq(tc_sh("grep -Eqi 'nan|inf' t.csv"), 1, "non-finite numbers in the trajectory");
	cr_assert_eq(tc_boids("-q -f 5 --flock-weight 1e6 --avoid-weight -1e6 -o v.y4m"), 0);
}

/* ------------------------------------------------------------- the queue */

struct qctx { struct frameq *q; long made; };

static void *qproducer(void *arg)
{
	struct qctx *c = arg;
	long k;
	for (k = 0; k < 1000; k++) {
		struct frameq_slot *s = frameq_get_empty(c->q);
		if (!s)
			break;
		s->frame = k;
		frameq_put_stepped(c->q, s);
	}
	c->made = k;
	frameq_close(c->q, k);
	return NULL;
}

static void *qdrawer(void *arg)
{
	struct qctx *c = arg;
	struct frameq_slot *s;
	while ((s = frameq_get_stepped(c->q))) {
		if (s->frame % 7 == 0)
			usleep(50); /* out of order on purpose */
		frameq_put_drawn(c->q, s);
	}
	return NULL;
}

Test(reliability, frame_queue_delivers_every_frame_in_order)
{
	struct qctx c = { frameq_new(5), 0 };
	pthread_t p, d[3];
	pthread_create(&p, NULL, qproducer, &c);
	for (int i = 0; i < 3; i++)
		pthread_create(&d[i], NULL, qdrawer, &c);
	long expect = 0;
	struct frameq_slot *s;
	while ((s = frameq_get_drawn(c.q))) {
		cr_assert_eq(s->frame, expect);
		expect++;
		frameq_put_empty(c.q, s);
	}
	pthread_join(p, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(d[i], NULL);
	cr_assert_eq(expect, 1000);
	frameq_free(c.q);
}

Test(reliability, a_png_that_cannot_be_created_stops_the_run)
{
	/* the final name fits NAME_MAX, its temporary name does not: used to hang,
	 * now refused before any work (issue 14: fail early) */
	char name[300];
	memset(name, 'p', 244);
	strcpy(name + 244, "%d.png");
	cr_assert_eq(tc_boids("-q -f 5 -o %s", name), 2, "%s", tc_stderr());
	cr_assert(strstr(tc_stderr(), "too long for the temporary file"), "%s", tc_stderr());
	cr_assert_eq(tc_count_files("."), 0);
}

Test(reliability, the_same_file_under_two_names_is_refused)
{
	cr_assert_eq(tc_boids("-y -f 2 -o a.y4m --summary ./a.y4m"), 2);
	cr_assert(strstr(tc_stderr(), "is also the --output"), "%s", tc_stderr());
	mkdir("d", 0755);
	cr_assert_eq(tc_boids("-y -f 2 --no-render --trajectory t.csv --metrics d/../t.csv"), 2);
	cr_assert_eq(tc_count_files("."), 1);
}
