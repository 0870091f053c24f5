/*
 * Output names and what is at them: a name is a file name (never a URL),
 * closed standard descriptors never receive data, what can be known before
 * the first frame is refused before it, -y keeps a file's mode, symlinks,
 * FIFOs and devices need -y, a FIFO is opened once, a swapped temporary
 * name is never followed, and a PNG pattern has one writer at a time.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "outfile.h"
#include "video.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(outputs, .init = setup, .fini = teardown, .timeout = 60);

#define SMALL "-q -f 3 -n 5 -s 64x36"

static int starts_with(const char *path, const void *magic, size_t n, size_t at)
{
	size_t len;
	char *d = tc_slurp(path, &len);
	int ok = d && len >= at + n && memcmp(d + at, magic, n) == 0;
	free(d);
	return ok;
}

Test(outputs, names_with_colons_are_plain_files_and_only_dash_is_stdout)
{
	cr_assert_eq(mkdir("pipe:", 0755), 0);
	cr_assert_eq(tc_boids(SMALL " -o 'pipe:/v.mkv'"), 0, "%s", tc_stderr());
	cr_assert_str_eq(tc_stdout(), "", "the video went to standard output");
	cr_assert(starts_with("pipe:/v.mkv", "\x1a\x45\xdf\xa3", 4, 0), "pipe:/v.mkv is not Matroska");
	cr_assert_eq(tc_boids(SMALL " -o x:y.mp4"), 0, "%s", tc_stderr());
	cr_assert(starts_with("x:y.mp4", "ftyp", 4, 4), "x:y.mp4 is not an MP4");
	cr_assert_eq(tc_boids(SMALL " -o file:z.y4m"), 0, "%s", tc_stderr());
	cr_assert(starts_with("file:z.y4m", "YUV4MPEG2", 9, 0));
	cr_assert_eq(tc_boids(SMALL " -o 'tcp:%%2F%%2Fh:1.webm'"), 0, "%s", tc_stderr());
	cr_assert(starts_with("tcp:%2F%2Fh:1.webm", "\x1a\x45\xdf\xa3", 4, 0));
	cr_assert_eq(tc_count_files("."), 4, "a stray or temporary file was left");
}

Test(outputs, video_open_takes_a_name_as_a_file)
{
	struct video *v;
	char err[256];
	unsigned char px[16 * 16 * 4];

	memset(px, 0x80, sizeof(px));
	cr_assert_eq(video_open(&v, "pipe:1", "x.y4m", 16, 16, (struct rate){ 25, 1 }, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(video_write_frame(v, px, 16 * 4), 0);
	cr_assert_eq(video_close(v), 0);
	video_free(v);
	cr_assert(starts_with("pipe:1", "YUV4MPEG2", 9, 0), "the file 'pipe:1' was not written");
}

Test(outputs, closed_standard_descriptors_never_receive_data)
{
	const char *bin = getenv("BOIDS_BIN");

	/* stdout closed: y4m on "-" fails (EBADF); the trajectory holds no video */
	int st = tc_sh("exec 1>&-; exec '%s' -f 3 -n 4 -s 64x36 -o - --trajectory t.csv 2>err.txt", bin);
	char *err = tc_slurp("err.txt", NULL);
	cr_assert_eq(st, 1, "exit %d: %s", st, err);
	cr_assert(strstr(err, "Bad file descriptor"), "%s", err);
	free(err);
	cr_assert_eq(access("t.csv", F_OK), -1, "a failed run left its trajectory");
	cr_assert_eq(tc_count_files("."), 1, "temporary files were left");

	/* stderr closed: the progress bar and messages go nowhere, not into the CSV */
	cr_assert_eq(tc_sh("exec 2>&-; exec '%s' -f 3 -n 4 --no-render --progress always "
	                   "--trajectory t2.csv", bin), 0);
	/* stdin closed too, and a video beside it */
	cr_assert_eq(tc_sh("exec 0<&- 2>&-; exec '%s' -f 3 -n 4 -s 64x36 --progress always "
	                   "-o v.y4m --trajectory t3.csv", bin), 0);
	for (int i = 0; i < 2; i++) {
		const char *name = i ? "t3.csv" : "t2.csv";
		cr_assert_eq(tc_sh("head -n1 %s | grep -qx 'frame,id,x,y,vx,vy' && "
		                   "test $(tail -n +2 %s | grep -cvE '^[0-9]+,[0-9]+(,[-0-9.e+]+){4}$') -eq 0 && "
		                   "test $(wc -l < %s) -eq 13", name, name, name), 0,
		             "%s holds something other than its CSV", name);
	}
	cr_assert(starts_with("v.y4m", "YUV4MPEG2", 9, 0));
}

static int one_line(const char *s)
{
	const char *nl = strchr(s, '\n');
	return nl && nl[1] == 0;
}

/* Exit 2, one line naming `what`, and no file made (err.txt aside). */
static void refused(const char *args, const char *what)
{
	int st = tc_boids("%s", args);
	cr_assert_eq(st, 2, "'%s': exit %d: %s", args, st, tc_stderr());
	cr_assert(strstr(tc_stderr(), what), "'%s': %s", args, tc_stderr());
	cr_assert(strchr(tc_stderr(), '\n') == tc_stderr() + strlen(tc_stderr()) - 1,
	          "more than one line: %s", tc_stderr());
}

Test(outputs, what_is_knowable_is_refused_before_any_work)
{
	refused("-q -f 2 --codec libvpx-vp9 -o v.mov", ".mov cannot hold VP9");
	refused("-q -f 2 --codec libx265 -o v.webm", ".webm cannot hold");
	refused("-q -f 1 -s 16384x16384 -o v.mp4", "at width 16384 the height is at most 16128");
	refused("-q -f 1 -s 16384x16384 -o v.gif", "too large");
	refused("-q -f 1 -s 16384x16000 --codec libvpx -o v.webm", "VP8 pictures are at most 16383x16383");
	refused("-q -f 1 --boid-size 1e-200 -o v.mp4", "--boid-size");
	refused("-q -f 1 --predator-size 0.001 -o v.mp4", "--predator-size");
	cr_assert_eq(symlink("nowhere.mp4", "dangling.mp4"), 0);
	refused("-q -f 1 -o dangling.mp4", "symbolic link to nothing");
	refused("-q -f 1 -y -o dangling.mp4", "symbolic link to nothing");
	refused("-q -f 1 --no-render --metrics dangling.mp4", "symbolic link to nothing");
	char args[320];
	memset(args, 'a', sizeof(args));
	memcpy(args, "-q -f 1 -o ", 11);
	strcpy(args + 11 + 240, ".mp4"); /* fits NAME_MAX; ".NAME.XXXXXX.mp4" does not */
	refused(args, "too long for the temporary file");
	cr_assert_eq(tc_count_files("."), 1, "a file was made (only the link expected)");

	/* the smallest accepted sizes still draw */
	cr_assert_eq(tc_boids("-q -f 2 -n 20 -s 64x36 --boid-size 0.01 --predator-size 0.01 "
	                      "--scale 0.5 -o v.y4m"), 0, "%s", tc_stderr());
}

Test(outputs, replacing_keeps_the_mode_and_owner)
{
	struct stat st;

	cr_assert_eq(tc_sh("echo old > keep.csv && chmod 600 keep.csv && echo old > g.mp4 && chmod 640 g.mp4"), 0);
	cr_assert_eq(tc_boids(SMALL " --trajectory keep.csv -o g.mp4 -y"), 0, "%s", tc_stderr());
	cr_assert_eq(stat("keep.csv", &st), 0);
	cr_assert_eq(st.st_mode & 07777, 0600, "mode %o", st.st_mode & 07777);
	cr_assert_eq(stat("g.mp4", &st), 0);
	cr_assert_eq(st.st_mode & 07777, 0640, "mode %o", st.st_mode & 07777);
	cr_assert(starts_with("g.mp4", "ftyp", 4, 4));
	/* a new file follows the umask */
	cr_assert_eq(tc_sh("umask 027 && '%s' " SMALL " --no-render --trajectory new.csv", getenv("BOIDS_BIN")), 0);
	cr_assert_eq(stat("new.csv", &st), 0);
	cr_assert_eq(st.st_mode & 07777, 0640, "mode %o", st.st_mode & 07777);
	/* the owner: kept where the system allows it (root); otherwise it is ours */
	uid_t other = geteuid() == 0 ? 65534 : geteuid();
	cr_assert_eq(tc_sh("echo x > o.csv"), 0);
	if (geteuid() == 0)
		cr_assert_eq(chown("o.csv", other, (gid_t)-1), 0);
	cr_assert_eq(tc_boids(SMALL " --no-render --trajectory o.csv -y"), 0, "%s", tc_stderr());
	cr_assert_eq(stat("o.csv", &st), 0);
	cr_assert_eq(st.st_uid, other, "owner %d, expected %d", (int)st.st_uid, (int)other);
}

Test(outputs, symlinks_need_y_and_then_replace_their_target)
{
	struct stat st;

	cr_assert_eq(tc_sh("echo precious > target.csv && ln -s target.csv link.csv"), 0);
	refused(SMALL " --no-render --trajectory link.csv", "is a symbolic link (use -y");
	char *t = tc_slurp("target.csv", NULL);
	cr_assert_str_eq(t, "precious\n");
	free(t);
	cr_assert_eq(tc_boids(SMALL " --no-render --trajectory link.csv -y"), 0, "%s", tc_stderr());
	cr_assert_eq(lstat("link.csv", &st), 0);
	cr_assert(S_ISLNK(st.st_mode), "the link was replaced by a file");
	cr_assert_eq(tc_sh("head -n1 target.csv | grep -qx 'frame,id,x,y,vx,vy'"), 0, "the target was not written");
	cr_assert_eq(tc_count_files("."), 2, "a temporary file was left");
}

Test(outputs, fifos_and_devices_need_y_and_a_fifo_is_opened_once)
{
	const char *bin = getenv("BOIDS_BIN");

	cr_assert_eq(mkfifo("p.y4m", 0644), 0);
	/* without -y: refused at once (no reader: it would block if it opened) */
	refused(SMALL " -o p.y4m", "'p.y4m' is a FIFO (use -y");
	refused(SMALL " --no-render --trajectory /dev/null", "'/dev/null' is a device (use -y");
	cr_assert_eq(mkfifo("p.mp4", 0644), 0);
	refused(SMALL " -y -o p.mp4", "needs one");
	/* opened once: the reader sees the whole stream and boids does not wait for a second */
	cr_assert_eq(tc_sh("cat p.y4m > got.y4m & c=$!; '%s' " SMALL " -y -o p.y4m 2>err.txt; s=$?; wait $c; exit $s",
	                   bin), 0);
	cr_assert_eq(tc_sh("test $(grep -c FRAME got.y4m) -eq 3"), 0, "the reader did not get 3 frames");
	cr_assert_eq(mkfifo("t.csv", 0644), 0);
	cr_assert_eq(tc_sh("cat t.csv > got.csv & c=$!; '%s' " SMALL " --no-render -y --trajectory t.csv; s=$?; wait $c; exit $s",
	                   bin), 0);
	cr_assert_eq(tc_sh("test $(wc -l < got.csv) -eq 16 && test -p t.csv && test -p p.y4m"), 0);
}

Test(outputs, a_swapped_temporary_name_is_never_followed)
{
	struct outfile o;
	struct video *v;
	char err[256];
	unsigned char px[16 * 16 * 4];

	memset(px, 0x40, sizeof(px));
	cr_assert_eq(tc_sh("echo precious > victim"), 0);
	/* the video: written through the descriptor, whatever the name becomes */
	cr_assert_eq(outfile_begin(&o, "v.y4m", 0), 0);
	cr_assert_eq(unlink(o.tmp), 0);
	cr_assert_eq(symlink("victim", o.tmp), 0);
	cr_assert_eq(video_open_fd(&v, o.fd, "v.y4m", 16, 16, (struct rate){ 25, 1 }, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(video_write_frame(v, px, 16 * 4), 0);
	cr_assert_eq(video_close(v), 0);
	video_free(v);
	char *tmp = strdup(o.tmp);
	cr_assert_eq(outfile_commit(&o), -ESTALE, "renamed a name that is no longer ours");
	char *t = tc_slurp("victim", NULL);
	cr_assert_str_eq(t, "precious\n");
	free(t);
	cr_assert_eq(access("v.y4m", F_OK), -1);
	unlink(tmp);
	free(tmp);
	/* a CSV the same way */
	cr_assert_eq(outfile_begin(&o, "t.csv", 1), 0);
	fputs("data\n", o.fp);
	cr_assert_eq(unlink(o.tmp), 0);
	cr_assert_eq(symlink("victim", o.tmp), 0);
	cr_assert_eq(outfile_commit(&o), -ESTALE);
	cr_assert_eq(access("t.csv", F_OK), -1);
}

Test(outputs, outfile_refuses_what_is_at_the_path)
{
	struct outfile o;

	cr_assert_eq(mkfifo("f", 0644), 0);
	cr_assert_eq(symlink("f", "l"), 0);
	cr_assert_eq(symlink("gone", "d"), 0);
	cr_assert_eq(outfile_check("f", 0), -EEXIST);
	cr_assert_eq(outfile_what("f"), OUTFILE_FIFO);
	cr_assert_eq(outfile_check("l", 0), -EEXIST);
	cr_assert_eq(outfile_what("l"), OUTFILE_SYMLINK);
	cr_assert_eq(outfile_check("d", 1), -ELOOP);
	cr_assert_eq(outfile_what("d"), OUTFILE_DANGLING);
	cr_assert_eq(outfile_what("/dev/null"), OUTFILE_DEVICE);
	cr_assert_eq(outfile_check("/dev/null", 0), -EEXIST);
	cr_assert_eq(outfile_check("/dev/null", 1), 0);
	cr_assert_eq(outfile_begin(&o, "f", 0), -EEXIST, "opened a FIFO without overwrite");
	cr_assert_eq(outfile_begin(&o, "d", 1), -ELOOP);
	cr_assert_eq(outfile_begin(&o, "/dev/null", 0), -EEXIST);
	cr_assert_eq(outfile_begin(&o, "/dev/null", 1), 0);
	cr_assert(o.direct && o.tmp == NULL);
	cr_assert_eq(outfile_commit(&o), 0);
	cr_assert_eq(tc_count_files("."), 3);
}

Test(outputs, one_writer_per_png_pattern)
{
	/* the lock boids takes for every spelling of f_%d.png */
	int a = outfile_lock("f_%d.png");
	cr_assert_geq(a, 0, "%s", strerror(-a));
	cr_assert_eq(outfile_lock("f_%d.png"), -EBUSY);
	/* the same pattern through the binary: refused, naming the pattern */
	int st = tc_boids(SMALL " -y -o f_%%05d.png");
	cr_assert_eq(st, 1, "exit %d: %s", st, tc_stderr());
	cr_assert(strstr(tc_stderr(), "'f_%05d.png': another run is writing this pattern (it holds "
	                 "the lock file '.f_%d.png.lock')"), "%s", tc_stderr());
	cr_assert_eq(access("f_00000.png", F_OK), -1, "a frame was written beside a running writer");
	outfile_unlock("f_%d.png", a);
	cr_assert_eq(tc_boids(SMALL " -y -o f_%%05d.png"), 0, "%s", tc_stderr());
	cr_assert_eq(tc_count_files("."), 3, "the lock file was left (or frames are missing)");
}

/* Reads a FIFO until its writer closes it: opening waits for the writer. */
static void drain(const char *fifo)
{
	char buf[4096];
	int fd = open(fifo, O_RDONLY);
	cr_assert_geq(fd, 0, "%s: %s", fifo, strerror(errno));
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

/*
 * Two runs, one pattern spelt two ways: the second is refused while the
 * first writes.  The first run's frames are FIFOs (-y writes them in
 * place), so it waits, holding its lock, until the test reads them: no
 * sleep, each step waits for the other side.
 */
Test(outputs, two_spellings_of_one_pattern_exclude_each_other)
{
	const char *bin = getenv("BOIDS_BIN");
	cr_assert_eq(mkfifo("f_0.png", 0644), 0);
	cr_assert_eq(mkfifo("f_1.png", 0644), 0);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0), dup2(null, 1), dup2(null, 2);
		alarm(50); /* never left waiting on a FIFO if the test fails first */
		execl(bin, "boids", "-q", "-f", "2", "-n", "5", "-s", "64x36", "--threads", "1", "-y",
		      "-o", "f_%d.png", (char *)NULL);
		_exit(127);
	}
	drain("f_0.png"); /* the first frame came: the first run holds the lock, and waits on f_1.png */
	static const char *const others[] = { "f_%01d.png", "./f_%05d.png", "f_%d.png" };
	for (size_t i = 0; i < sizeof(others) / sizeof(*others); i++) {
		/* other frame numbers, so that a run let through writes files, not the FIFOs */
		int st = tc_boids(SMALL " -y --start-number 2 -o %s", others[i]);
		cr_expect_eq(st, 1, "%s: exit %d: %s", others[i], st, tc_stderr());
		cr_expect(strstr(tc_stderr(), "another run is writing this pattern"), "%s: %s", others[i],
		          tc_stderr());
	}
	cr_assert_eq(access("f_2.png", F_OK), -1, "a frame was written beside a running writer");
	cr_assert_eq(access("f_00002.png", F_OK), -1, "a frame was written beside a running writer");
	drain("f_1.png");
	int status;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the first run: status %d", status);
	cr_assert_eq(tc_count_files("."), 2, "the lock file was left");
}

/* Exit 2 with one line holding `what`, with and without -y, and no file made or changed. */
static void one_role(const char *args, const char *what)
{
	for (int y = 0; y < 2; y++) {
		int before = tc_count_files(".");
		int st = tc_boids("-q -f 2 -n 5 -s 64x36 %s %s", y ? "-y" : "", args);
		cr_expect_eq(st, 2, "'%s'%s: exit %d: %s", args, y ? " -y" : "", st, tc_stderr());
		cr_expect(strstr(tc_stderr(), what), "'%s'%s: %s", args, y ? " -y" : "", tc_stderr());
		cr_expect(one_line(tc_stderr()), "'%s': %s", args, tc_stderr());
		cr_expect_eq(tc_count_files("."), before, "'%s'%s: a file was made", args, y ? " -y" : "");
	}
}

/*
 * No output lands on another output or an input: every spelling of one
 * file (the name twice, a frame of the pattern, standard output as -,
 * /dev/stdout and /dev/fd/1, ./ and d/.., a hard link, a symbolic link,
 * the pattern's lock file, a temporary file's name) is refused before any
 * work, with or without -y, naming both options.
 */
Test(outputs, one_file_one_role)
{
	cr_assert_eq(tc_sh("mkdir d && printf 'frame,id,x,y,vx,vy\\n0,0,1,2,3,4\\n' > i.csv && "
	                   "ln i.csv hard.csv && echo 'boids = 4' > c.conf && echo old > t.csv && "
	                   "ln -s t.csv link.csv"), 0);
	one_role("-o s.png --metrics s.png", "--metrics: 's.png' is also the --output: one file, one role");
	one_role("-o f_%d.png --summary f_1.png", "--summary: 'f_1.png' is also the --output (frame 1 of 'f_%d.png')");
	one_role("-o f_%d.png --metrics d/../f_1.png", "--metrics: 'd/../f_1.png' is also the --output (frame 1 of");
	one_role("-o d/f_%03d.png --start-number 5 --summary ./d/f_006.png", "(frame 6 of 'd/f_%03d.png')");
	one_role("-o - --trajectory /dev/stdout", "--trajectory: '/dev/stdout' is also the --output (standard output)");
	one_role("--no-render --trajectory - --metrics /dev/fd/1", "--metrics: '/dev/fd/1' is also the --trajectory (standard output)");
	one_role("--no-render --summary - --trajectory /dev/stdout", "--summary: '-' is also the --trajectory ('/dev/stdout')");
	one_role("--no-render --init i.csv --trajectory ./i.csv", "--trajectory: './i.csv' is also the --init ('i.csv')");
	one_role("--no-render --init i.csv --metrics hard.csv", "--metrics: 'hard.csv' is also the --init ('i.csv')");
	one_role("-o i.csv.mkv --init i.csv --summary d/../hard.csv", "--summary: 'd/../hard.csv' is also the --init");
	one_role("--no-render --config c.conf --summary c.conf", "--summary: 'c.conf' is also the --config");
	one_role("--no-render --trajectory link.csv --metrics t.csv", "--metrics: 't.csv' is also the --trajectory ('link.csv')");
	one_role("-o f_%d.png --metrics .f_%d.png.lock", "--metrics: '.f_%d.png.lock' is also the --output's lock file");
	one_role("-o v.mkv --summary .v.mkv.a1B2c3.mkv", "the --output's temporary file");
	one_role("-o f_%02d.png --metrics .f_01.png.zZ9y8X.png", "the --output's temporary file");
	/* a frame that is already there (-y would replace it) as a hard or symbolic link to an output */
	cr_assert_eq(tc_sh("echo x > h.csv && ln h.csv g_1.png && ln -s h.csv k_1.png"), 0);
	one_role("-o g_%d.png --metrics h.csv", "--metrics: 'h.csv' is also the --output (frame 1 of 'g_%d.png')");
	one_role("-o k_%d.png --trajectory h.csv", "--trajectory: 'h.csv' is also the --output (frame 1 of 'k_%d.png')");
	one_role("-o 'd%d/f.png'", "the frame number of 'd%d/f.png' must be in the file name");
	cr_assert_eq(mkdir("50%", 0755), 0); /* a directory the pattern names as 50%% */
	one_role("-o '50%%/f_%d.png' --metrics '50%/../50%/f_1.png'", "(frame 1 of '50%%/f_%d.png')");
	char *t = tc_slurp("t.csv", NULL);
	cr_assert_str_eq(t, "old\n", "an input or output was written");
	free(t);

	/* what is not one file is accepted: a frame the run does not make, the null device twice */
	cr_assert_eq(tc_boids("-q -f 2 -n 5 -s 64x36 -o f_%%d.png --metrics f_2.png"), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("-q -f 2 -n 5 -s 64x36 -o '50%%%%/f_%%d.png' --metrics '50%%/f_2.png'"), 0,
	             "%s", tc_stderr());
	cr_assert_eq(tc_count_files("50%"), 3, "the frames, the metrics, and no lock file");
	cr_assert_eq(tc_boids("-q -f 2 -n 5 -y --no-render --trajectory /dev/null --metrics /dev/null "
	                      "--summary /dev/null"), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("-q -f 2 -n 5 --no-render --init i.csv --config c.conf --trajectory u.csv"), 0,
	             "%s", tc_stderr());
}

/* Starts with the bytes magic? */
static int is_a(const char *path, const char *magic)
{
	return starts_with(path, magic, strlen(magic), 0);
}

/*
 * With -y a symbolic link to a file updates that file, as ffmpeg -y
 * writes through: the temporary file is made beside the target and renamed
 * onto it; the link stays; nothing is left beside either.
 */
Test(outputs, y_writes_through_a_symlink_to_its_target)
{
	struct stat st;

	cr_assert_eq(tc_sh("mkdir far && echo old > far/v.y4m && echo old > far/s.png && echo old > far/t.csv && "
	                   "chmod 640 far/t.csv && ln -s far/v.y4m v.y4m && ln -s far/s.png s.png && "
	                   "ln -s far/t.csv t1.csv && ln -s t1.csv t.csv"), 0);
	cr_assert_eq(tc_boids(SMALL " -y -o v.y4m --trajectory t.csv"), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids(SMALL " -y -o s.png"), 0, "%s", tc_stderr());
	cr_assert(is_a("far/v.y4m", "YUV4MPEG2"), "the video's target was not written");
	cr_assert(is_a("far/s.png", "\x89PNG"), "the still's target was not written");
	cr_assert(is_a("far/t.csv", "frame,id,x,y,vx,vy\n"), "the trajectory's target (two links away) was not written");
	cr_assert_eq(stat("far/t.csv", &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0640, "the target's mode was not kept: %o", st.st_mode & 0777);
	static const char *const links[] = { "v.y4m", "s.png", "t.csv", "t1.csv" };
	for (size_t i = 0; i < sizeof(links) / sizeof(*links); i++) {
		cr_assert_eq(lstat(links[i], &st), 0);
		cr_assert(S_ISLNK(st.st_mode), "%s is no longer a link", links[i]);
	}
	cr_assert_eq(tc_count_files("."), 5, "something was left beside the links");
	cr_assert_eq(tc_count_files("far"), 3, "something was left beside the targets");
}
