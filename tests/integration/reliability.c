/*
 * Reliability where it needs the machine: signals finish the output, full
 * disks and tmpfs are errors naming the path, and a directory the user may
 * not write is a runtime error.  Nothing here waits on the clock: a signal
 * is sent when boids has shown it is at the stage under test (its progress
 * line, or its first file appearing).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <libavformat/avformat.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(reliability, .init = setup, .fini = teardown, .timeout = 300);

/* A boids started in the background, its stderr on a pipe we read. */
struct bg {
	pid_t pid;
	int err_fd;
	char err[16384];
	size_t len;
};

static void bg_start(struct bg *b, const char *args)
{
	char cmd[4096];
	int fds[2];

	snprintf(cmd, sizeof(cmd), "exec '%s' %s </dev/null", getenv("BOIDS_BIN"), args);
	cr_assert_eq(pipe(fds), 0);
	b->len = 0;
	b->err[0] = 0;
	b->pid = fork();
	cr_assert_neq(b->pid, -1);
	if (b->pid == 0) {
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	b->err_fd = fds[0];
}

/* Reads what boids printed so far; 0 at end of file. */
static ssize_t bg_read(struct bg *b)
{
	ssize_t got = read(b->err_fd, b->err + b->len, sizeof(b->err) - 1 - b->len);
	if (got > 0) {
		b->len += (size_t)got;
		b->err[b->len] = 0;
		if (b->len > sizeof(b->err) / 2) { /* keep the tail */
			memmove(b->err, b->err + b->len - 1024, 1024);
			b->len = 1024;
			b->err[b->len] = 0;
		}
	}
	return got;
}

/* Waits until stderr shows `text`; fails the test if boids ends first. */
static void bg_wait_for(struct bg *b, const char *text)
{
	while (!strstr(b->err, text)) {
		ssize_t got = bg_read(b);
		cr_assert(got > 0, "boids ended before printing '%s': %s", text, b->err);
	}
}

/* Sends a signal, reads stderr to its end, returns the exit status. */
static int bg_signal(struct bg *b, int sig)
{
	int st;

	kill(b->pid, sig);
	while (bg_read(b) > 0)
		;
	close(b->err_fd);
	cr_assert_eq(waitpid(b->pid, &st, 0), b->pid);
	cr_assert(WIFEXITED(st), "boids died of signal %d instead of finishing", WTERMSIG(st));
	return WEXITSTATUS(st);
}

/* Counts the packets of a file's video stream; *playable when it opens. */
static long count_frames(const char *path, int *playable)
{
	AVFormatContext *fc = NULL;
	AVPacket *pkt = av_packet_alloc();
	long n = 0;

	*playable = 0;
	if (avformat_open_input(&fc, path, NULL, NULL) < 0) {
		av_packet_free(&pkt);
		return -1;
	}
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

/* A progress line says "boids: done/total frames" once frames are written. */
#define PROGRESS " frames"

static void interrupted_video(int sig, int expect)
{
	struct bg b;
	/* far more frames than it can make before the signal */
	bg_start(&b, "-q --progress lines --progress-interval 0.1 -s 640x360 -n 500 -f 1000000 -o v.mp4");
	bg_wait_for(&b, PROGRESS);
	int st = bg_signal(&b, sig);
	cr_assert_eq(st, expect, "exit %d after signal %d: %s", st, sig, b.err);
	int playable;
	long n = count_frames("v.mp4", &playable);
	cr_assert(playable, "the interrupted video does not open");
	cr_assert(n > 0 && n < 1000000, "%ld frames", n);
	cr_assert_eq(tc_count_files("."), 1, "a temporary file was left behind");
}

Test(reliability, sigint_finishes_a_playable_video) { interrupted_video(SIGINT, 130); }
Test(reliability, sigterm_finishes_a_playable_video) { interrupted_video(SIGTERM, 143); }

/* A whole PNG ends with the IEND chunk and its CRC. */
static int png_is_whole(const char *path)
{
	static const unsigned char iend[12] = { 0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82 };
	unsigned char tail[12];
	FILE *f = fopen(path, "rb");
	int ok = f && fseek(f, -12, SEEK_END) == 0 && fread(tail, 1, 12, f) == 12 && !memcmp(tail, iend, 12);
	if (f)
		fclose(f);
	return ok;
}

Test(reliability, sigint_during_png_output_leaves_only_whole_pngs)
{
	struct bg b;
	cr_assert_eq(mkdir("f", 0755), 0);
	bg_start(&b, "-q --progress lines --progress-interval 0.1 -s 640x360 -n 500 -f 1000000 -o f/%07d.png");
	bg_wait_for(&b, PROGRESS);
	cr_assert_eq(bg_signal(&b, SIGINT), 130, "%s", b.err);
	int n = tc_count_files("f");
	cr_assert_gt(n, 0);
	/* every file is a complete PNG under its final name, numbered from 0 */
	for (int i = 0; i < n; i++) {
		char name[64];
		snprintf(name, sizeof(name), "f/%07d.png", i);
		cr_assert(png_is_whole(name), "%s is missing or cut short (%d files)", name, n);
	}
}

/* Waits for a file to appear in the directory (inotify), reading boids's stderr meanwhile. */
static void bg_wait_for_a_file(struct bg *b)
{
	int in = inotify_init1(IN_CLOEXEC);
	cr_assert_geq(in, 0);
	cr_assert_geq(inotify_add_watch(in, ".", IN_CREATE), 0);
	struct pollfd p[2] = { { .fd = in, .events = POLLIN }, { .fd = b->err_fd, .events = POLLIN } };
	for (int made = tc_count_files(".") > 0; !made;) {
		cr_assert_gt(poll(p, 2, -1), 0);
		made = (p[0].revents & POLLIN) != 0;
		if (!made)
			cr_assert_gt(bg_read(b), 0, "boids ended before making a file: %s", b->err);
	}
	close(in);
}

/* Waits until boids holds `name` open (a FIFO it reads): its descriptors link to it. */
static void bg_wait_open(struct bg *b, const char *name)
{
	struct timespec tick = { 0, 5 * 1000000L };

	while (tc_sh("for f in /proc/%d/fd/*; do readlink \"$f\"; done 2>/dev/null | grep -q '/%s$'",
	             (int)b->pid, name) != 0) {
		cr_assert_eq(waitpid(b->pid, NULL, WNOHANG), 0, "boids ended before opening %s", name);
		nanosleep(&tick, NULL); /* polling for the event, not a fixed wait */
	}
}

/*
 * What a run stopped before its first frame leaves (the README's promise):
 * the trajectory and the metrics with their headers (nothing was
 * recorded), a summary "interrupted" with 0 frames, each output saying 0,
 * no video, nothing hidden, and a closing line naming the trajectory,
 * which is there, never the video, which is not.
 */
static void stopped_before_the_first_frame(struct bg *b, int sig, const char *video)
{
	cr_assert_eq(bg_signal(b, sig), 128 + sig, "%s", b->err);
	cr_assert_eq(access(video, F_OK), -1, "%s was left though no frame was made", video);
	char *t = tc_slurp("t.csv", NULL), *m = tc_slurp("m.csv", NULL), *sum = tc_slurp("s.json", NULL);
	cr_assert(t && !strcmp(t, "frame,id,x,y,vx,vy\n"), "the trajectory is not its header alone: %s", t);
	cr_assert(m && !strchr(m, '\n')[1] && !strncmp(m, "frame,", 6), "the metrics are not a header: %s", m);
	cr_assert(sum && strstr(sum, "\"status\": \"interrupted\"") && strstr(sum, "\"frames\": 0,\n"),
	          "no summary of 0 frames, interrupted: %s", sum);
	cr_assert(strstr(sum, "\"output\": { \"file\": ") && !strstr(sum, "\"frames\": 1"), "%s", sum);
	cr_assert(strstr(b->err, "0 frames of ") && strstr(b->err, " -> t.csv (stopped by a signal)") &&
	          !strstr(b->err, video), "the closing line names what is not there:\n%s", b->err);
	cr_assert_eq(tc_count_files("."), 3 + !access("in.csv", F_OK), "files beside t.csv, m.csv, s.json");
	cr_assert_eq(tc_sh("! ls -a | grep -q '^[.][^.]'"), 0, "a hidden file was left");
	free(t);
	free(m);
	free(sum);
}

/* In the warm-up: sent once the first (temporary) output file appears,
 * before a warm-up of minutes, which must not be waited for. */
Test(reliability, a_signal_in_the_warmup_leaves_headers_and_an_interrupted_summary)
{
	struct bg b;
	bg_start(&b, "-n 20000 --warmup 1000000 -o v.mp4 --trajectory t.csv --metrics m.csv --summary s.json");
	bg_wait_for_a_file(&b);
	stopped_before_the_first_frame(&b, SIGINT, "v.mp4");
}

/* While a 4K VP9 encoder starts (libvpx's set-up, after the side files are
 * made) or just after it, before a warm-up of minutes. */
Test(reliability, a_signal_while_the_encoder_starts_leaves_headers_and_an_interrupted_summary)
{
	struct bg b;
	bg_start(&b, "-n 20000 -s 3840x2160 --warmup 1000000 -o v.webm --trajectory t.csv --metrics m.csv "
	         "--summary s.json");
	bg_wait_for_a_file(&b);
	stopped_before_the_first_frame(&b, SIGTERM, "v.webm");
}

/* While --init is read: a FIFO whose writer never comes. */
Test(reliability, a_signal_while_init_is_read_leaves_headers_and_an_interrupted_summary)
{
	struct bg b;
	cr_assert_eq(mkfifo("in.csv", 0644), 0);
	bg_start(&b, "--init in.csv -o v.mp4 --trajectory t.csv --metrics m.csv --summary s.json");
	bg_wait_open(&b, "in.csv");
	stopped_before_the_first_frame(&b, SIGTERM, "v.mp4");
}

Test(reliability, full_disk_on_stdout_is_an_error)
{
	cr_assert_eq(tc_sh("'%s' -f 30 -o - > /dev/full 2>err.txt", getenv("BOIDS_BIN")), 1);
	char *err = tc_slurp("err.txt", NULL);
	cr_assert(strstr(err, "No space left on device"), "%s", err);
	cr_assert(strchr(err, '\n') == err + strlen(err) - 1, "more than one line: %s", err);
	free(err);
}

/* A 64 KiB tmpfs at small/: needs root (CAP_SYS_ADMIN). */
static void small_tmpfs(void)
{
	if (geteuid() != 0 || tc_sh("mkdir -p small && mount -t tmpfs -o size=64k tmpfs small 2>/dev/null") != 0)
		cr_skip_test("cannot mount a small tmpfs here (needs root)");
}

Test(reliability, full_filesystem_leaves_no_file)
{
	small_tmpfs();
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
	small_tmpfs();
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

/* HDF5 and compressed CSV trajectories on the full tmpfs: exit 1 naming the path, one clean line. */
Test(reliability, full_filesystem_hdf5_and_compressed_trajectories)
{
	static const char *const names[] = { "t.h5", "t.csv.gz", "t.csv.zst", "s.h5" };
	static const char *const extra[] = { "", "--trajectory-compress 0", "--trajectory-compress 1",
	                                     "--trajectory-precision single --trajectory-compress 1" };
	char *err[4];
	int st[4], left[4];

	small_tmpfs();
	for (int i = 0; i < 4; i++) {
		st[i] = tc_boids("--no-render -f 300 -n 300 --trajectory small/%s %s", names[i], extra[i]);
		err[i] = strdup(tc_stderr());
		left[i] = tc_count_files("small");
		tc_sh("rm -f small/* small/.[!.]*");
	}
	tc_sh("umount small");
	for (int i = 0; i < 4; i++) {
		char path[64];
		snprintf(path, sizeof(path), "'small/%s': No space left on device\n", names[i]);
		cr_expect_eq(st[i], 1, "%s: exit %d: %s", names[i], st[i], err[i]);
		cr_expect(strstr(err[i], path) && strchr(err[i], '\n') == err[i] + strlen(err[i]) - 1,
		          "%s: %s", names[i], err[i]);
		cr_expect_eq(left[i], 0, "%s: a file was left on the full filesystem", names[i]);
		free(err[i]);
	}
}

/* SIGTERM during an HDF5 trajectory: the frames made are kept, and the file says it was interrupted. */
Test(reliability, an_interrupted_hdf5_trajectory_is_kept_and_marked)
{
	struct bg b;
	bg_start(&b, "--no-render --progress lines --progress-interval 0.1 -n 500 -f 100000000 --trajectory t.h5");
	bg_wait_for(&b, PROGRESS);
	int st = bg_signal(&b, SIGTERM);
	cr_assert_eq(st, 143, "%s", b.err);
	cr_assert_eq(tc_count_files("."), 1, "a temporary file was left behind");
	cr_assert_eq(tc_sh("'%s' -c \"import h5py\n"
	                   "f = h5py.File('t.h5', 'r')\n"
	                   "n = f['positions'].shape[0]\n"
	                   "assert f.attrs['status'] == 'interrupted' and 0 < n == f.attrs['frames'], dict(f.attrs)\n"
	                   "assert list(f['frame'][:]) == list(range(n))\"", tc_python()), 0);
}

/*
 * A directory the user may not write.  Root may write anywhere, so as root
 * boids runs as the unprivileged user nobody (setpriv); the temporary
 * directory is opened to it first.
 */
Test(reliability, unwritable_directory_is_a_runtime_error_naming_the_path)
{
	const char *as = "";
	if (geteuid() == 0) {
		if (tc_sh("command -v setpriv >/dev/null && id nobody >/dev/null 2>&1") != 0)
			cr_skip_test("running as root without setpriv or a user 'nobody' to drop to");
		as = "setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups ";
		cr_assert_eq(chmod(".", 0755), 0);
	}
	/* a copy nobody can run wherever the checkout is (/root is closed),
	 * with the video module it loads from beside it */
	cr_assert_eq(tc_sh("cp '%s' boids && cp \"$(dirname '%s')/boids-video.so\" . && chmod 755 boids boids-video.so",
	                   getenv("BOIDS_BIN"), getenv("BOIDS_BIN")), 0);
	cr_assert_eq(mkdir("ro", 0555), 0);
	cr_assert_eq(tc_sh("%s./boids -f 2 -o ro/v.mp4 2>err.txt", as), 1);
	char *err = tc_slurp("err.txt", NULL);
	cr_assert(strstr(err, "ro/v.mp4") && strstr(err, "Permission denied"), "%s", err);
	free(err);
	cr_assert_eq(tc_count_files("ro"), 0);
}
