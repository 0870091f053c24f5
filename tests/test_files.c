/*
 * Trajectory CSV, frame-name patterns and complete-or-absent output files.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "framename.h"
#include "outfile.h"
#include "traj.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(files, .init = setup, .fini = teardown, .timeout = 120);

static int load_text(const char *text, struct traj_state *st, struct traj_error *te)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int r = traj_load(f, st, te);
	fclose(f);
	return r;
}

Test(files, trajectory_round_trips_every_double_exactly)
{
	double x[3] = { 0.1, 1e-300, 640 }, y[3] = { 1.0 / 3, -0.0, 359.99999999999994 };
	double vx[3] = { -0.5, 4.999999999999999, 1e9 }, vy[3] = { 2.2250738585072014e-308, 3, -1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	traj_write_header(f, 2);
	traj_write_frame(f, 0, &(struct traj_cols){ 3, y, x, vy, vx, NULL, NULL });
	traj_write_frame(f, 1, &(struct traj_cols){ 3, x, y, vx, vy, NULL, NULL });
	fclose(f);
	cr_assert(strncmp(buf, "frame,id,x,y,vx,vy\n0,0,", 23) == 0);

	struct traj_state st;
	struct traj_error te;
	cr_assert_eq(load_text(buf, &st, &te), 0, "%s", te.what);
	cr_assert_eq(st.n, 3);
	cr_assert_eq(st.frame, 1);
	cr_assert_arr_eq(st.x, x, sizeof(x));
	cr_assert_arr_eq(st.y, y, sizeof(y));
	cr_assert_arr_eq(st.vx, vx, sizeof(vx));
	cr_assert_arr_eq(st.vy, vy, sizeof(vy));
	traj_state_release(&st);
	free(buf);
}

Test(files, malformed_trajectories_name_the_line)
{
	static const struct { const char *text; long line; const char *what; } cases[] = {
		{ "", 0, "empty" },
		{ "x,y\n", 1, "header" },
		{ "frame,id,x,y,vx,vy\n", 1, "no rows" },
		{ "frame,id,x,y,vx,vy\n0,0,1,2,3\n", 2, "6 fields" },
		{ "frame,id,x,y,vx,vy\n0,0,1,2,3,4,5\n", 2, "6 fields" },
		{ "frame,id,x,y,vx,vy\n0,0,1,2,3,4\n0,2,1,2,3,4\n", 3, "id 2" },
		{ "frame,id,x,y,vx,vy\n0,0,1,nan,3,4\n", 2, "y 'nan'" },
		{ "frame,id,x,y,vx,vy\n0,0,1,2,inf,4\n", 2, "vx 'inf'" },
		{ "frame,id,x,y,vx,vy\n0,0,1,2,3,1e999\n", 2, "vy" },
		{ "frame,id,x,y,vx,vy\n0,0,1,2,3,4x\n", 2, "vy '4x'" },
		{ "frame,id,x,y,vx,vy\n1,0,1,2,3,4\n0,0,1,2,3,4\n", 3, "frame 0 after frame 1" },
		{ "frame,id,x,y,vx,vy\n-1,0,1,2,3,4\n", 2, "frame" },
		{ "frame,id,x,y,vx,vy\n0,0,1,2,3,4\n\n", 3, "empty line" },
		{ "frame,id,x,y,vx,vy\n0,0,1e300,2,3,4\n", 2, "x '1e300' is beyond the limit" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct traj_state st;
		struct traj_error te;
		cr_expect_eq(load_text(cases[i].text, &st, &te), -EINVAL, "case %zu loaded", i);
		cr_expect_eq(te.line, cases[i].line, "case %zu: line %ld", i, te.line);
		cr_expect(strstr(te.what, cases[i].what), "case %zu: '%s'", i, te.what);
	}
}

Test(files, frame_patterns)
{
	static const char *const good[] = { "f_%05d.png", "%d.png", "a%%b_%03d.png", "%010d.png", "d/%d%%.png" };
	static const char *const bad[] = { "f.png", "%s.png", "%d%d.png", "%5d.png", "%0d.png", "%011d.png",
	                                   "%x.png", "%-5d.png", "%", "%ld.png", "%n.png", "%.3d.png", "%%d.png" };
	char why[128], name[64];
	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++)
		cr_expect_eq(framename_check(good[i], why, sizeof(why)), 0, "%s: %s", good[i], why);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		cr_expect_eq(framename_check(bad[i], why, sizeof(why)), -EINVAL, "%s passed", bad[i]);
		cr_expect(why[0], "no reason for %s", bad[i]);
	}
	cr_assert_eq(framename_format(name, sizeof(name), "f_%05d.png", 42), 0);
	cr_assert_str_eq(name, "f_00042.png");
	cr_assert_eq(framename_format(name, sizeof(name), "a%%b_%03d.png", 1234), 0);
	cr_assert_str_eq(name, "a%b_1234.png");
	cr_assert_eq(framename_format(name, 8, "f_%05d.png", 1), -ENAMETOOLONG);
}

Test(files, outfile_appears_only_when_committed)
{
	struct outfile o;
	cr_assert_eq(outfile_check("out.csv", 0), 0);
	cr_assert_eq(outfile_begin(&o, "out.csv", 0), 0);
	cr_assert(strstr(o.tmp, ".out.csv.") && strcmp(o.tmp + strlen(o.tmp) - 4, ".csv") == 0,
	          "temporary name %s keeps the extension", o.tmp);
	fputs("hello\n", o.fp);
	cr_assert_eq(access("out.csv", F_OK), -1, "final name exists before commit");
	cr_assert_eq(outfile_commit(&o), 0);
	cr_assert_eq(tc_count_files("."), 1);
	cr_assert_eq(outfile_check("out.csv", 0), -EEXIST);
	cr_assert_eq(outfile_check("out.csv", 1), 0);

	/* Without overwrite, a file that appeared meanwhile is kept. */
	cr_assert_eq(outfile_begin(&o, "out.csv", 0), 0);
	fputs("new\n", o.fp);
	cr_assert_eq(outfile_commit(&o), -EEXIST);
	char *t = tc_slurp("out.csv", NULL);
	cr_assert_str_eq(t, "hello\n");
	free(t);
	cr_assert_eq(tc_count_files("."), 1, "the temporary file was left");

	/* Abort leaves nothing. */
	cr_assert_eq(outfile_begin(&o, "gone.csv", 1), 0);
	outfile_abort(&o);
	outfile_abort(&o);
	cr_assert_eq(tc_count_files("."), 1);
}

Test(files, outfile_check_explains_paths)
{
	mkdir("d", 0755);
	cr_assert_eq(outfile_check("nodir/x.mp4", 0), -ENOENT);
	cr_assert_eq(outfile_check("d", 1), -EISDIR);
	cr_assert_eq(outfile_check("d/", 1), -EISDIR);
	cr_assert_eq(outfile_check("d/x.mp4", 0), 0);
}

Test(files, init_round_trip_continues_a_run_exactly)
{
	/* 100 frames in one go vs 50 frames, then 50 more from the file. */
	cr_assert_eq(tc_boids("--no-render -q -f 100 --trajectory full.csv"), 0);
	cr_assert_eq(tc_boids("--no-render -q -f 50 --trajectory half.csv"), 0);
	/* frame 0 of the continuation is the file's last frame (49): 51 frames reach 99 */
	cr_assert_eq(tc_boids("--no-render -q -f 51 --init half.csv --trajectory rest.csv"), 0);
	cr_assert_eq(tc_sh("tail -n 100 full.csv | cut -d, -f2- > a && tail -n 100 rest.csv | cut -d, -f2- > b && cmp -s a b"), 0,
	             "the continued run does not end where the full run ends");
	cr_assert_eq(tc_sh("grep -c '^49,' full.csv | grep -qx 100"), 0);
}

Test(files, init_boid_count_wins_and_bad_files_exit_2)
{
	cr_assert_eq(tc_boids("--no-render -q -f 2 -n 17 --trajectory a.csv"), 0);
	cr_assert_eq(tc_boids("--no-render -q -f 1 -n 500 --init a.csv --trajectory b.csv"), 0);
	cr_assert_eq(tc_sh("test $(wc -l < b.csv) -eq 18"), 0);
	cr_assert_eq(tc_sh("printf 'frame,id,x,y,vx,vy\\n0,0,1,2,3\\n' > bad.csv"), 0);
	cr_assert_eq(tc_boids("--no-render -f 1 --init bad.csv --trajectory c.csv"), 2);
	cr_assert(strstr(tc_stderr(), "--init: 'bad.csv' line 2:"), "%s", tc_stderr());
	cr_assert_eq(access("c.csv", F_OK), -1);
}

Test(files, trajectory_frames_are_substeps_apart_after_warmup)
{
	/* warm-up 3 + substeps 2: frame 1 of run A is frame 2 of a substeps-1 run with warm-up 3 */
	cr_assert_eq(tc_boids("--no-render -q -f 2 --warmup 3 --substeps 2 --trajectory a.csv"), 0);
	cr_assert_eq(tc_boids("--no-render -q -f 3 --warmup 3 --trajectory b.csv"), 0);
	cr_assert_eq(tc_sh("grep '^1,' a.csv | cut -d, -f2- > x && grep '^2,' b.csv | cut -d, -f2- > y && cmp -s x y"), 0);
	cr_assert_eq(tc_sh("test $(grep -c '^1,' a.csv) -eq 100"), 0);
}

/*
 * A device or a FIFO at the output path is written in place with -y: no
 * temporary file beside it, so the directory it sits in need not be writable.
 * The device is reached through a link in our own directory (never a new
 * name in /dev): the same outcome whoever runs the test, root included.
 */
Test(files, devices_and_fifos_are_written_in_place)
{
	struct stat st;
	static const char *const links[] = { "ro/v.y4m", "ro/t.csv", "ro/s.json" };
	cr_assert_eq(mkdir("ro", 0755), 0);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(symlink("/dev/null", links[i]), 0);
	cr_assert_eq(chmod("ro", 0555), 0);
	int rc = tc_boids("-q -f 3 -s 64x36 -y -o ro/v.y4m --trajectory ro/t.csv --summary ro/s.json");
	chmod("ro", 0755);
	cr_assert_eq(rc, 0, "%s", tc_stderr());
	cr_assert_eq(tc_count_files("ro"), 3, "a file was made beside the device");
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(lstat(links[i], &st), 0);
		cr_assert(S_ISLNK(st.st_mode), "%s was replaced", links[i]);
	}
	cr_assert_eq(stat("/dev/null", &st), 0);
	cr_assert(S_ISCHR(st.st_mode), "/dev/null is no longer a device");

	/* A FIFO gets the same bytes as a regular file and stays a FIFO.  The
	   readers are released (a read-write open never blocks) in case boids did
	   not open a FIFO. */
	cr_assert_eq(tc_boids("-q --no-render -f 3 -n 5 --trajectory t.csv --metrics m.csv"), 0, "%s", tc_stderr());
	cr_assert_eq(mkfifo("p.csv", 0600), 0);
	cr_assert_eq(mkfifo("q.csv", 0600), 0);
	cr_assert_eq(tc_sh("cat p.csv > got.csv & a=$!; cat q.csv > gotm.csv & b=$!; "
	                   "'%s' -q --no-render -f 3 -n 5 -y --trajectory p.csv --metrics q.csv 2>err.txt; s=$?; "
	                   ": 3<>p.csv 4<>q.csv; wait $a $b; exit $s",
	                   getenv("BOIDS_BIN")),
	             0);
	cr_assert_eq(tc_sh("cmp -s got.csv t.csv && cmp -s gotm.csv m.csv"), 0, "the FIFOs did not carry the output");
	cr_assert_eq(tc_sh("test -p p.csv && test -p q.csv"), 0, "a FIFO was replaced");
}
