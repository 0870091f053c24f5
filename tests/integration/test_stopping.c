/*
 * Every way of stopping cleans up and takes less than a second: SIGHUP, a
 * second SIGINT while the first is handled, a signal inside a step of a
 * dense million-boid flock (minutes long), while boids waits in open() for
 * a FIFO's reader or writer, and after the last frame (the run is then
 * complete: exit, summary and closing line agree).  And a write past
 * `ulimit -f` is an error, not a death.  Each waits for an event (a
 * progress line, a temporary file, the FIFO among boids's descriptors),
 * never for a fixed time.
 */
#include <criterion/criterion.h>
#include <libavformat/avformat.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <limits.h>
#include <fcntl.h>

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
			if (buf[i] == '\r' || buf[i] == '\n' || used == sizeof(line) - 1) {
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

/*
 * A long render stopped by `sigs` (sent back to back) after 25 frames: past
 * x264's delay (some 20 frames), so at least 5 are out of the encoder and
 * kept, whatever the drain has time for.
 */
static void stopped_video(const int *sigs, int nsigs, int expect)
{
	int fd;
	pid_t pid = start("--progress lines --progress-interval 0.1 -s 640x360 -n 500 -f 100000 -o v.mp4 --trajectory t.csv", &fd);
	wait_progress(fd, 25);
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

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Reads stderr up to a line holding `needle`; the lines read so far go to seen. */
static void wait_line(int fd, const char *needle, char *seen, size_t cap)
{
	char line[1024];
	size_t used = 0, had = strlen(seen);
	char c;

	while (read(fd, &c, 1) == 1) {
		if (c != '\n' && c != '\r' && used < sizeof(line) - 1) {
			line[used++] = c;
			continue;
		}
		line[used] = 0;
		used = 0;
		int n = snprintf(seen + had, cap - had, "%s\n", line);
		if (n > 0 && (size_t)n < cap - had)
			had += (size_t)n;
		if (strstr(line, needle))
			return;
	}
	cr_assert_fail("boids ended before printing '%s':\n%s", needle, seen);
}

/* Everything left on stderr, then the exit status and the seconds since t0. */
static int finish_timed(pid_t pid, int fd, double t0, double *took, char *rest, size_t cap)
{
	size_t used = 0;
	ssize_t n;
	int st;

	cr_assert_eq(waitpid(pid, &st, 0), pid);
	*took = now() - t0;
	while (used < cap - 1 && (n = read(fd, rest + used, cap - 1 - used)) > 0)
		used += (size_t)n;
	rest[used] = 0;
	close(fd);
	cr_assert(WIFEXITED(st), "boids died of signal %d instead of finishing", WTERMSIG(st));
	return WEXITSTATUS(st);
}

/* A million boids in 640x360: some 34,000 neighbours each, minutes a step. */
static void dense_step_stops(int sig)
{
	char seen[8192] = "", rest[4096];
	double took;
	int fd;
	pid_t pid = start("-n 1000000 -s 640x360 --no-render -f 3 --summary s.json "
	                  "--progress lines --progress-interval 0.1", &fd);
	wait_line(fd, "neighbours per boid", seen, sizeof(seen)); /* the announcement */
	cr_assert(strstr(seen, "-s/--size"), "%s", seen);
	wait_line(fd, "stepped", seen, sizeof(seen)); /* inside the first step */
	double t0 = now();
	kill(pid, sig);
	int st = finish_timed(pid, fd, t0, &took, rest, sizeof(rest));
	cr_assert_eq(st, 128 + sig, "exit %d:\n%s", st, rest);
	cr_assert_lt(took, 1.0, "a stop inside a step took %.2f s", took);
	char *sum = tc_slurp("s.json", NULL);
	cr_assert(strstr(sum, "\"status\": \"interrupted\""), "%s", sum);
	/* frame 0 (the start) was made, frame 1 stopped half way and thrown away */
	cr_assert(strstr(sum, "\"frames\": 1,"), "%s", sum);
	cr_assert(strstr(rest, "1 frame of 1000000 boids") && strstr(rest, "stopped by a signal"), "%s", rest);
	free(sum);
	cr_assert_eq(tc_count_files("."), 1, "only the summary");
}

Test(stopping, sigterm_inside_a_dense_step_ends_within_a_second) { dense_step_stops(SIGTERM); }
Test(stopping, sigint_inside_a_dense_step_ends_within_a_second) { dense_step_stops(SIGINT); }
Test(stopping, sighup_inside_a_dense_step_ends_within_a_second) { dense_step_stops(SIGHUP); }

/*
 * A warm-up estimated to take minutes (20,000 boids in 640x360, some 680
 * neighbours each, 1,000 steps) is announced with its estimate before its
 * first step, then shown as the warm-up's steps, not as frame 1.
 */
Test(stopping, a_long_warm_up_is_announced_then_shown_as_steps)
{
	char seen[8192] = "";
	int fd;
	pid_t pid = start("-n 20000 -s 640x360 --no-render -f 2 --warmup 1000 "
	                  "--progress lines --progress-interval 0.1", &fd);
	wait_line(fd, "boids: note: the warm-up of 1000 steps may take about 0:", seen, sizeof(seen));
	cr_assert(!strstr(seen, "steps ("), "a step before the announcement:\n%s", seen);
	wait_line(fd, "boids: warm-up ", seen, sizeof(seen));
	cr_assert(!strstr(seen, "frame"), "the warm-up shown as frames:\n%s", seen);
	kill(pid, SIGTERM);
	cr_assert_eq(finish(pid, fd), 143);
}

/* The synchronous pass runs in parallel blocks on the pool: they stop too. */
Test(stopping, a_parallel_synchronous_step_stops_within_a_second)
{
	char seen[8192] = "", rest[4096];
	double took;
	int fd;
	pid_t pid = start("-n 1000000 -s 640x360 --no-render -f 3 --update synchronous --threads 2 "
	                  "--progress lines --progress-interval 0.1", &fd);
	wait_line(fd, "stepped", seen, sizeof(seen));
	double t0 = now();
	kill(pid, SIGTERM);
	int st = finish_timed(pid, fd, t0, &took, rest, sizeof(rest));
	cr_assert_eq(st, 143, "exit %d:\n%s", st, rest);
	cr_assert_lt(took, 1.0, "a stop inside a parallel step took %.2f s", took);
}

/*
 * A 1080p H.264 render stopped mid-way: x264's look-ahead (some 20 frames)
 * is drained only while the stop's second lasts, so the run ends within a
 * second of the signal (draining it whole took 1.5 s under load), with a
 * playable MP4 of frames 0..N-1 and a summary and closing line saying N;
 * at 4K, stopped after 6 frames, often no frame is out of the encoder by
 * then: no video is left, but the trajectory and the summary keep the
 * frames that were stepped (they are not the video's to throw away).
 */
/* The frames the summary says `option`'s file holds ("outputs"), or -1 when it says none. */
static long summary_frames(const char *sum, const char *option)
{
	char key[64];
	snprintf(key, sizeof key, "\"%s\": { \"file\": ", option);
	const char *at = sum ? strstr(sum, key) : NULL;
	at = at ? strstr(at, "\"frames\": ") : NULL;
	return at ? atol(at + strlen("\"frames\": ")) : -1;
}

/* Lines of a file, -1 when it is not there. */
static long lines_of(const char *path)
{
	size_t len = 0;
	char *t = tc_slurp(path, &len);
	long n = 0;
	if (!t)
		return -1;
	for (size_t i = 0; i < len; i++)
		n += t[i] == '\n';
	free(t);
	return n;
}

/*
 * A stopped run's outputs agree: each holds frames 0..k-1, its own k, and
 * the summary says each one's (docs/RELIABILITY.md): the video's as the
 * file plays, the trajectory's (200 boids a frame) and the metrics' rows.
 */
static void summary_counts_each_outputs_frames(const char *sum, long video)
{
	cr_expect_eq(summary_frames(sum, "output"), video, "the video holds %ld frames:\n%s", video, sum);
	cr_expect_eq(summary_frames(sum, "trajectory"), (lines_of("t.csv") - 1) / 200, "%s", sum);
	cr_expect_eq(summary_frames(sum, "metrics"), lines_of("m.csv") - 1, "%s", sum);
}

static void stopped_large_video(const char *size, long after, int sig, int keep)
{
	char rest[4096], args[512];
	double took;
	int fd;

	snprintf(args, sizeof(args), "-s %s -n 200 -f 100000 -o v.mp4 --summary s.json --trajectory t.csv "
	         "--metrics m.csv --progress lines --progress-interval 0.1", size);
	pid_t pid = start(args, &fd);
	wait_progress(fd, after);
	double t0 = now();
	kill(pid, sig);
	int st = finish_timed(pid, fd, t0, &took, rest, sizeof(rest));
	cr_assert_eq(st, 128 + sig, "exit %d:\n%s", st, rest);
	/* a sanitizer build (make check sets ASAN_OPTIONS) draws the frames in
	 * flight several times slower and checks for leaks at exit: 2 s there */
	double bound = getenv("ASAN_OPTIONS") ? 2.0 : 1.0;
	cr_assert_lt(took, bound, "a stopped %s video took %.2f s to end", size, took);
	if (access("v.mp4", F_OK) != 0 && !keep) {
		/* no frame out of the encoder within the stop's 0.35 s drain (x264
		 * gives its first after some 20 frames): no video, the rest kept */
		cr_assert(strstr(rest, "-> t.csv") && strstr(rest, "stopped by a signal"), "%s", rest);
		char *sum = tc_slurp("s.json", NULL);
		cr_assert(sum && strstr(sum, "\"status\": \"interrupted\""), "no interrupted summary:\n%s", sum);
		summary_counts_each_outputs_frames(sum, 0);
		free(sum);
		size_t len = 0;
		char *traj = tc_slurp("t.csv", &len);
		cr_assert(traj && len > 200 * 20, "the trajectory of the frames stepped was not kept");
		free(traj);
		cr_assert_eq(tc_count_files("."), 3, "a temporary file was left");
		return;
	}
	long n = count_frames("v.mp4");
	cr_assert(n >= 1, "the video does not play (%ld frames)", n);
	char *sum = tc_slurp("s.json", NULL), want[64];
	cr_assert(strstr(sum, "\"status\": \"interrupted\""), "%s", sum);
	snprintf(want, sizeof(want), "\"frames\": %ld,", n);
	cr_assert(strstr(sum, want), "the summary does not say the %ld frames of the file:\n%s", n, sum);
	summary_counts_each_outputs_frames(sum, n);
	free(sum);
	snprintf(want, sizeof(want), "%ld frame%s of 200 boids", n, n == 1 ? "" : "s");
	cr_assert(strstr(rest, want) && strstr(rest, "stopped by a signal"), "%s", rest);
	cr_assert_eq(tc_count_files("."), 4, "a temporary file was left");
	cr_assert_eq(tc_sh("! ls -a | grep -q '^[.][^.]'"), 0, "a hidden file was left");
}

Test(stopping, a_stopped_1080p_video_ends_within_a_second)
{
	stopped_large_video("1920x1080", 30, SIGTERM, 1); /* past x264's delay: frames are out */
}

Test(stopping, a_stopped_4k_video_ends_within_a_second)
{
	stopped_large_video("3840x2160", 6, SIGINT, 0); /* a file, or nothing when no frame came out */
}

/* Waits until boids holds `name` open (its descriptor links to it). */
static void wait_open(pid_t pid, const char *name)
{
	struct timespec tick = { 0, 5 * 1000000L };

	for (;;) {
		cr_assert_eq(waitpid(pid, NULL, WNOHANG), 0, "boids ended before opening %s", name);
		if (tc_sh("for f in /proc/%d/fd/*; do readlink \"$f\"; done 2>/dev/null | grep -q '/%s$'",
		          (int)pid, name) == 0)
			return;
		nanosleep(&tick, NULL); /* polling for the event, not a fixed wait */
	}
}

/*
 * boids reading a FIFO nobody writes: one SIGTERM ends it.  Stopped while
 * --init is read (before the first frame), the trajectory keeps its header
 * (kept names it); while a --config file is read the settings are not
 * known yet, and nothing is written (kept NULL).
 */
static void fifo_input_stops(const char *args, const char *fifo, const char *kept)
{
	char rest[4096];
	double took;
	int fd;

	cr_assert_eq(mkfifo(fifo, 0644), 0);
	pid_t pid = start(args, &fd);
	wait_open(pid, fifo);
	double t0 = now();
	kill(pid, SIGTERM);
	int st = finish_timed(pid, fd, t0, &took, rest, sizeof(rest));
	cr_assert_eq(st, 143, "exit %d: %s", st, rest);
	cr_assert_lt(took, 1.0, "took %.2f s", took);
	cr_assert_eq(tc_count_files("."), 1 + (kept != NULL), "something else was written beside the FIFO");
	if (kept) {
		char *t = tc_slurp(kept, NULL);
		cr_assert(t && !strcmp(t, "frame,id,x,y,vx,vy\n"), "%s is not its header alone: %s", kept, t);
		free(t);
	}
}

Test(stopping, init_from_a_fifo_without_a_writer_ends_on_sigterm)
{
	fifo_input_stops("--init in.csv --no-render --trajectory t.csv", "in.csv", "t.csv");
}

Test(stopping, config_from_a_fifo_without_a_writer_ends_on_sigterm)
{
	fifo_input_stops("--config c.conf --no-render --trajectory t.csv", "c.conf", NULL);
}

/*
 * --check-configs reading a FIFO nobody writes: one SIGTERM ends it, exit
 * 143 within a second, with the closing line saying what was checked
 * (nothing), never "Interrupted system call" and exit 2.
 */
Test(stopping, check_configs_from_a_fifo_without_a_writer_ends_on_sigterm)
{
	char rest[4096];
	double took;
	int fd;

	cr_assert_eq(mkfifo("in.jsonl", 0644), 0);
	pid_t pid = start("--check-configs in.jsonl --no-render", &fd);
	wait_open(pid, "in.jsonl");
	double t0 = now();
	kill(pid, SIGTERM);
	int st = finish_timed(pid, fd, t0, &took, rest, sizeof(rest));
	cr_assert_eq(st, 143, "exit %d: %s", st, rest);
	cr_assert_lt(took, 1.0, "took %.2f s", took);
	cr_assert_str_eq(rest, "boids: in.jsonl: stopped by a signal after 0 lines: 0 accepted, 0 refused\n");
}

/*
 * --check-configs reading a pipe (its standard input, here a FIFO) whose
 * writer sent two lines and half of a third, then nothing: SIGTERM once the
 * second line's refusal is out ends it, exit 143 within a second, with both
 * lines' verdicts on standard output and the closing line counting them.
 */
Test(stopping, check_configs_from_a_stalled_pipe_ends_on_sigterm_with_what_it_checked)
{
	char seen[4096] = "", rest[4096];
	double took;
	int fd;

	cr_assert_eq(mkfifo("p.fifo", 0644), 0);
	pid_t pid = start("--check-configs - --no-render < p.fifo > out.txt", &fd);
	int w = open("p.fifo", O_WRONLY); /* once the shell opened it for boids */
	cr_assert_geq(w, 0);
	const char *lines = "{\"seed\": 1}\n{\"frames\": 0}\n{\"seed\": ";
	cr_assert_eq(write(w, lines, strlen(lines)), (ssize_t)strlen(lines));
	wait_line(fd, "boids: -:2: --frames: 0 is out of range", seen, sizeof seen);
	double t0 = now();
	kill(pid, SIGTERM);
	int st = finish_timed(pid, fd, t0, &took, rest, sizeof(rest));
	close(w);
	cr_assert_eq(st, 143, "exit %d: %s%s", st, seen, rest);
	cr_assert_lt(took, 1.0, "took %.2f s", took);
	cr_assert_str_eq(rest, "boids: -: stopped by a signal after 2 lines: 1 accepted, 1 refused\n");
	char *out = tc_slurp("out.txt", NULL);
	cr_assert(out && strncmp(out, "sha256:", 7) == 0 && strlen(out) == 74 && strcmp(out + 72, "-\n") == 0,
	          "not line 1's hash and line 2's '-': %s", out);
	free(out);
}

Test(stopping, print_config_never_opens_an_init_fifo)
{
	cr_assert_eq(mkfifo("in.csv", 0644), 0);
	/* timeout only guards against the hang this test is about */
	int st = tc_sh("timeout -s KILL 20 '%s' --init in.csv --print-config > out.txt 2> err.txt",
	               getenv("BOIDS_BIN"));
	cr_assert_eq(st, 0, "exit %d (137: it waited for a writer)", st);
	char *err = tc_slurp("err.txt", NULL), *out = tc_slurp("out.txt", NULL);
	cr_assert(strstr(err, "boids: note: --init 'in.csv' is not a regular file: not read here"), "%s", err);
	cr_assert(strstr(out, "boids = 100"), "%s", out);
	free(err);
	free(out);
}

Test(stopping, a_fifo_output_opened_once_gives_its_reader_the_whole_stream)
{
	const char *bin = getenv("BOIDS_BIN");

	cr_assert_eq(mkfifo("p.y4m", 0644), 0);
	cr_assert_eq(tc_sh("'%s' -q -f 12 -s 96x54 -n 40 -o f.y4m", bin), 0);
	/* one reader, started first: it must see every byte, then EOF */
	cr_assert_eq(tc_sh("cat p.y4m > got.y4m & c=$!; '%s' -q -y -f 12 -s 96x54 -n 40 -o p.y4m; "
	                   "s=$?; wait $c; exit $s", bin), 0);
	cr_assert(tc_same_file("got.y4m", "f.y4m"), "the reader did not get the file's bytes");
}

Test(stopping, a_signal_ends_the_wait_for_a_fifo_reader)
{
	char rest[4096];
	double took;
	int fd;

	cr_assert_eq(mkfifo("p.y4m", 0644), 0);
	/* the trajectory's temporary file is made just before the FIFO is opened */
	pid_t pid = start("-q -y -f 3 -s 64x36 --trajectory t.csv -o p.y4m", &fd);
	struct timespec tick = { 0, 5 * 1000000L };
	while (tc_sh("ls -a | grep -q '^[.]t[.]csv[.]'") != 0) {
		cr_assert_eq(waitpid(pid, NULL, WNOHANG), 0, "boids ended before opening the FIFO");
		nanosleep(&tick, NULL); /* polling for the event, not a fixed wait */
	}
	/* once: a signal just before open() is seen too (the wait polls the flag) */
	double t0 = now();
	kill(pid, SIGTERM);
	int st = finish_timed(pid, fd, t0, &took, rest, sizeof(rest));
	cr_assert_eq(st, 143, "SIGTERM did not end the wait in open() (status %d)", st);
	cr_assert_lt(took, 1.0, "took %.2f s", took);
	/* stopped before the first frame: the trajectory's header, nothing else */
	cr_assert_eq(tc_count_files("."), 2, "files were left beside the FIFO and the trajectory");
	char *t = tc_slurp("t.csv", NULL);
	cr_assert(t && !strcmp(t, "frame,id,x,y,vx,vy\n"), "the trajectory is not its header alone: %s", t);
	free(t);
	cr_assert_eq(tc_sh("! ls -a | grep -q '^[.][^.]'"), 0, "a hidden file was left");
}

/*
 * --summary to a FIFO nobody reads: after the last frame boids waits for a
 * reader; a stop signal then ends the wait as a stop, never as a failure
 * ("Interrupted system call", exit 1): exit 128 + n, the closing line (or
 * the JSON "end" event) says stopped, the finished trajectory is kept.
 * Signalled once the trajectory has its final name (it is committed just
 * before the summary is opened).
 */
static void summary_fifo_stop(const char *more, int sig, const char *want, const char *want2)
{
	char rest[4096], args[256];
	double took;
	int fd;

	cr_assert_eq(mkfifo("s.json", 0644), 0);
	snprintf(args, sizeof(args), "-y -f 3 -n 50 --no-render --trajectory t.csv --summary s.json %s", more);
	pid_t pid = start(args, &fd);
	struct timespec tick = { 0, 5 * 1000000L };
	while (access("t.csv", F_OK) != 0) {
		cr_assert_eq(waitpid(pid, NULL, WNOHANG), 0, "boids ended before its summary");
		nanosleep(&tick, NULL); /* polling for the event, not a fixed wait */
	}
	double t0 = now();
	kill(pid, sig);
	int st = finish_timed(pid, fd, t0, &took, rest, sizeof(rest));
	cr_assert_eq(st, 128 + sig, "exit %d:\n%s", st, rest);
	cr_assert_lt(took, 1.0, "took %.2f s", took);
	cr_assert(!strstr(rest, "Interrupted") && !strstr(rest, "cannot"), "a stop reported as a failure:\n%s", rest);
	cr_assert(strstr(rest, want) && strstr(rest, want2), "'%s' or '%s' not in:\n%s", want, want2, rest);
	cr_assert_eq(tc_sh("test $(wc -l < t.csv) -eq 151"), 0, "the trajectory is not whole");
	cr_assert_eq(tc_count_files("."), 2, "something beside the FIFO and the trajectory");
	cr_assert_eq(tc_sh("! ls -a | grep -q '^[.][^.]'"), 0, "a hidden file was left");
}

Test(stopping, a_signal_while_the_summary_waits_for_its_reader_is_a_stop)
{
	summary_fifo_stop("", SIGTERM, "3 frames of 50 boids", "-> t.csv (stopped by a signal)");
	/* with a reader, the same run delivers its summary: complete */
	cr_assert_eq(tc_sh("'%s' -q -y -f 3 -n 50 --no-render --trajectory t.csv --summary s.json &"
	                   " cat s.json > got.json; wait $!", getenv("BOIDS_BIN")), 0);
	char *sum = tc_slurp("got.json", NULL);
	cr_assert(strstr(sum, "\"status\": \"complete\""), "%s", sum);
	free(sum);
}

Test(stopping, a_signal_while_the_summary_waits_for_its_reader_is_a_stop_in_json)
{
	summary_fifo_stop("--progress json", SIGINT, "{\"event\":\"end\",\"status\":130,\"frames\":3,",
	                  "\"signal\":2");
}

/*
 * SIGTERM once the last frame is through (the bar says 100%), while the
 * encoder drains its look-ahead (some 40 frames of 1280x720) and the
 * trailer and faststart are written: the run is complete, and exit status,
 * summary and closing line all say so.
 */
Test(stopping, sigterm_after_the_last_frame_gives_a_complete_run)
{
	char seen[8192] = "", rest[4096];
	double took;
	int fd;
	pid_t pid = start("-s 1280x720 -f 40 -o v.mp4 --summary s.json "
	                  "--progress lines --progress-interval 0.1", &fd);
	wait_line(fd, "40/40 frames (100%)", seen, sizeof(seen));
	cr_assert_eq(waitpid(pid, NULL, WNOHANG), 0, "boids was already done: the test proves nothing");
	double t0 = now();
	kill(pid, SIGTERM);
	int st = finish_timed(pid, fd, t0, &took, rest, sizeof(rest));
	cr_assert_eq(st, 0, "exit %d: %s", st, rest);
	cr_assert(strstr(rest, "40 frames of") && !strstr(rest, "signal"), "%s", rest);
	char *sum = tc_slurp("s.json", NULL);
	cr_assert(strstr(sum, "\"status\": \"complete\"") && strstr(sum, "\"signal\": null"), "%s", sum);
	free(sum);
	cr_assert_eq(count_frames("v.mp4"), 40);
	cr_assert_eq(tc_count_files("."), 2, "a temporary file was left");
}

/* Under `ulimit -f` (bytes), boids fails cleanly: exit 1, "File too large", nothing hidden left. */
static void file_too_large(const char *args, const char *path, long limit)
{
	int st = tc_sh("ulimit -f %ld; exec '%s' -q %s 2> err.txt", limit, getenv("BOIDS_BIN"), args);
	cr_assert_eq(st, 1, "%s: exit %d (153 is death by SIGXFSZ)", args, st);
	char *err = tc_slurp("err.txt", NULL), want[256];
	snprintf(want, sizeof(want), "'%s", path);
	cr_assert(strstr(err, want) && strstr(err, "': File too large\n"), "%s: %s", args, err);
	free(err);
	cr_assert_eq(tc_sh("! ls -a | grep -q '^[.][^.]'"), 0, "%s: a temporary or lock file was left", args);
	cr_assert_eq(tc_sh("rm -f err.txt; ! ls | grep -q ."), 0, "%s: a file was left", args);
}

Test(stopping, a_write_past_ulimit_f_is_file_too_large_and_leaves_nothing)
{
	file_too_large("-f 30 -s 320x180 -o v.y4m", "v.y4m", 20);
	file_too_large("-f 30 -s 320x180 -o v.mp4", "v.mp4", 20);
	file_too_large("-f 300 -n 500 --no-render --trajectory t.csv", "t.csv", 20);
	/* PNG: every frame is too large (drawing threads write them in any
	 * order, so the one named may be any): no frame, no lock */
	file_too_large("-f 5 -s 640x360 -n 2000 -o f_%02d.png", "f_0", 4);
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
	                   "assert all(r[\"event\"] in (\"progress\", \"warning\") for r in rows[:-1]), rows' || { cat err.jsonl; exit 1; }",
	                   tc_python()), 0);
}
