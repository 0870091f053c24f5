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
#include "trajout.h"
#include "zfile.h"

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

/* Loads text and expects its last frame to be `frame` holding want's columns, to the bit. */
static void expect_last_frame(const char *text, long frame, const struct traj_cols *want)
{
	struct traj_state st;
	struct traj_error te;
	cr_assert_eq(load_text(text, &st, &te), 0, "%s", te.what);
	cr_assert_eq(st.n, want->n);
	cr_assert_eq(st.frame, frame);
	cr_assert_eq(st.dims, want->z ? 3 : 2);
	const double *got[6] = { st.x, st.y, st.vx, st.vy, st.z, st.vz };
	const double *exp[6] = { want->x, want->y, want->vx, want->vy, want->z, want->vz };
	for (int k = 0; k < 6; k++)
		if (exp[k])
			cr_assert_arr_eq(got[k], exp[k], want->n * sizeof(double), "column %d", k);
		else
			cr_assert_null(got[k], "column %d", k);
	traj_state_release(&st);
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
	expect_last_frame(buf, 1, &(struct traj_cols){ 3, x, y, vx, vy, NULL, NULL });
	free(buf);
}

Test(files, malformed_trajectories_name_the_line_and_column)
{
	static const struct { const char *text; long line; const char *what; } cases[] = {
		{ "", 0, "empty" },
		{ "x,y\n", 1, "the header has no column vx, vy" },
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
		/* 3D: the same errors, naming z and vz */
		{ "frame,id,x,y,vx,vy,z\n0,0,1,2,3,4,5\n", 1, "the header has no column vz" },
		{ "frame,id,x,vz,vy\n0,0,1,2,3\n", 1, "the header has no column y, vx, z" },
		{ "\xef\xbb\xbf" "id,x,y,vx\n0,1,2,3\n", 1, "the header has no column vy" },
		{ "frame,id,x,y,vx,vy,x\n0,0,1,2,3,4,5\n", 1, "the header names column 'x' twice" },
		{ "x,y,vx,vy,frame\n1,2,3,4\n", 2, "expected 5 fields, found fewer" },
		{ "y,x,vy,vx,id\n1,2,3,4,1\n", 2, "id 1 where 0 was expected" },
		{ "vx,frame,x,vy,y\n0,1,2,3,4\n0,0,2,3,4\n", 3, "frame 0 after frame 1" },
		{ "frame,id,x,y,vx,vy,z,vz\n0,0,1,2,3,4\n", 2, "expected 8 fields, found fewer" },
		{ "frame,id,x,y,vx,vy,z,vz\n0,0,1,2,3,4,5\n", 2, "expected 8 fields, found fewer" },
		{ "frame,id,x,y,vx,vy,z,vz\n0,0,1,2,3,4,5,6,7\n", 2, "expected 8 fields, found more" },
		{ "frame,id,x,y,vx,vy\n0,0,1,2,3,4,5,6\n", 2, "expected 6 fields, found more" },
		{ "frame,id,x,y,vx,vy,z,vz\n0,0,1,2,3,4,nan,6\n", 2, "z 'nan' is not a finite number" },
		{ "frame,id,x,y,vx,vy,z,vz\n0,0,1,2,3,4,,6\n", 2, "z '' is not a finite number" },
		{ "frame,id,x,y,vx,vy,z,vz\n0,0,1,2,3,4,5,6x\n", 2, "vz '6x' is not a finite number" },
		{ "frame,id,x,y,vx,vy,z,vz\n0,0,1,2,3,4,5,-inf\n", 2, "vz '-inf'" },
		{ "frame,id,x,y,vx,vy,z,vz\n0,0,1,2,3,4,5,6\n0,1,1,2,3,4,1.5e9,6\n", 3,
		  "z '1.5e9' is beyond the limit (-1e9 to 1e9)" },
		{ "frame,id,x,y,vx,vy,z,vz\n0,0,1,2,3,4,5,-1e300\n", 2, "vz '-1e300' is beyond the limit" },
		{ "frame,id,x,y,vx,vy,z,vz\n0,0,1,2,3,4,5,6\n0,2,1,2,3,4,5,6\n", 3, "id 2" },
		{ "frame,id,x,y,vx,vy,z,vz\n1,0,1,2,3,4,5,6\n0,0,1,2,3,4,5,6\n", 3, "frame 0 after frame 1" },
		{ "frame,id,x,y,vx,vy,z,vz\n", 1, "no rows" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct traj_state st;
		struct traj_error te;
		cr_expect_eq(load_text(cases[i].text, &st, &te), -EINVAL, "case %zu loaded", i);
		cr_expect_eq(te.line, cases[i].line, "case %zu: line %ld", i, te.line);
		cr_expect(strstr(te.what, cases[i].what), "case %zu: '%s'", i, te.what);
		cr_expect_null(st.x, "case %zu handed out rows", i);
	}
}

/* The columns as a user or a script writes them read back to the bit. */
Test(files, init_reads_a_bom_columns_in_any_order_and_extra_columns)
{
	double x[2] = { 0.1, 640 }, y[2] = { 1.0 / 3, -0.0 }, vx[2] = { -0.5, 1e9 }, vy[2] = { 3, -1 };
	double z[2] = { 1e-300, 359.99999999999994 }, vz[2] = { -2.2250738585072014e-308, -1e9 };
	const struct traj_cols two = { 2, x, y, vx, vy, NULL, NULL }, three = { 2, x, y, vx, vy, z, vz };

	/* pandas: an unnamed index column, the values in its own order; Excel's BOM and CRLF */
	expect_last_frame(",vy,x,vx,y\n0,3,0.1,-0.5,0.33333333333333331\n1,-1,640,1e9,-0\n", 0, &two);
	expect_last_frame("\xef\xbb\xbf" "frame,id,x,y,vx,vy\r\n7,0,0.1,0.33333333333333331,-0.5,3\r\n"
	                  "7,1,640,-0,1e9,-1\r\n", 7, &two);
	/* 3D in the order a script names them, a label column ignored, blanks around names */
	expect_last_frame("x, y ,z,vx,vy,vz,label\n"
	                  "0.1,0.33333333333333331,1e-300,-0.5,3,-2.2250738585072014e-308,a\n"
	                  "640,-0,359.99999999999994,1e9,-1,-1e9,b\n", 0, &three);
	/* frame and id anywhere; the last frame is kept */
	expect_last_frame("vz,z,id,vy,vx,y,x,frame\n0,0,0,0,0,0,0,0\n"
	                  "-2.2250738585072014e-308,1e-300,0,3,-0.5,0.33333333333333331,0.1,2\n"
	                  "-1e9,359.99999999999994,1,-1,1e9,-0,640,2\n", 2, &three);
	/* without ids: the rows of a frame are its boids in order */
	expect_last_frame("frame,x,y,vx,vy\n0,5,5,5,5\n3,0.1,0.33333333333333331,-0.5,3\n"
	                  "3,640,-0,1e9,-1\n", 3, &two);
}

Test(files, trajectory_3d_round_trips_every_double_exactly)
{
	double x[2] = { 0.1, 640 }, y[2] = { 1.0 / 3, -0.0 }, vx[2] = { -0.5, 1e9 }, vy[2] = { 3, -1 };
	double z[2] = { 1e-300, 359.99999999999994 }, vz[2] = { -2.2250738585072014e-308, -1e9 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	traj_write_header(f, 3);
	traj_write_frame(f, 0, &(struct traj_cols){ 2, x, y, vx, vy, z, vz });
	fclose(f);
	/* the 2D columns keep their places; depth comes last */
	cr_assert_str_eq(buf, "frame,id,x,y,vx,vy,z,vz\n"
	                      "0,0,0.10000000000000001,0.33333333333333331,-0.5,3,1e-300,-2.2250738585072014e-308\n"
	                      "0,1,640,-0,1000000000,-1,359.99999999999994,-1000000000\n");
	expect_last_frame(buf, 0, &(struct traj_cols){ 2, x, y, vx, vy, z, vz });
	free(buf);

	/* a 2D file loads as 2D, with no depth */
	struct traj_state st;
	struct traj_error te;
	cr_assert_eq(load_text("frame,id,x,y,vx,vy\n0,0,1,2,3,4\n", &st, &te), 0, "%s", te.what);
	cr_assert_eq(st.dims, 2);
	cr_assert_null(st.z);
	cr_assert_null(st.vz);
	traj_state_release(&st);
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

/*
 * framename_match() against the formatter: a name matches exactly when some
 * frame number formats to it (only the number its digits read can).  Every
 * string of 1 to 4 digits with the pattern's text around it is tried; and
 * every spelling's canonical form is the one lock key.
 */
Test(files, frame_names_match_their_pattern_and_nothing_else)
{
	static const char *const pats[] = { "f_%d.png", "f_%01d.png", "f_%03d.png", "a%%b_%02d.png" };
	static const char *const pre[] = { "f_", "f_", "f_", "a%b_" };
	char name[64], made[64];
	long got;
	for (size_t p = 0; p < sizeof(pats) / sizeof(*pats); p++) {
		for (int len = 1; len <= 4; len++) {
			int count = len == 1 ? 10 : len == 2 ? 100 : len == 3 ? 1000 : 10000;
			for (int v = 0; v < count; v++) {
				snprintf(name, sizeof(name), "%s%0*d.png", pre[p], len, v);
				/* the digits of frame n always read n: only v can make this name */
				framename_format(made, sizeof(made), pats[p], v);
				long want = strcmp(made, name) == 0 ? v : -1;
				int m = framename_match(pats[p], name, &got);
				cr_assert_eq(m, want >= 0, "%s against %s: %d", name, pats[p], m);
				if (m)
					cr_assert_eq(got, want, "%s against %s: frame %ld", name, pats[p], got);
			}
		}
		cr_assert_eq(framename_match(pats[p], "f_.png", &got), 0);
		cr_assert_eq(framename_match(pats[p], "f_1.png.csv", &got), 0);
	}
	char key[64];
	static const char *const spellings[] = { "f_%d.png", "f_%01d.png", "f_%05d.png", "f_%010d.png" };
	for (size_t i = 0; i < sizeof(spellings) / sizeof(*spellings); i++) {
		cr_assert_eq(framename_canonical(key, sizeof(key), spellings[i]), 0);
		cr_assert_str_eq(key, "f_%d.png");
	}
	cr_assert_eq(framename_canonical(key, sizeof(key), "a%%b_%03d%%.png"), 0);
	cr_assert_str_eq(key, "a%%b_%d%%.png");
	cr_assert_eq(framename_canonical(key, sizeof(key), "f.png"), -EINVAL);
	cr_assert_eq(framename_field("d/a%%_%03d.png"), 6);
	cr_assert_eq(framename_field("d%d/f.png"), 1);
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

/* A hand-made 3D file: frame 0 is noise, frame 7 (the last) is the state. */
static void write_3d_file(const char *path)
{
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("frame,id,x,y,vx,vy,z,vz\n"
	      "0,0,1,1,1,1,1,1\n"
	      "7,0,100.5,50.25,1.5,-0.5,10.125,0.75\n"
	      "7,1,300,200,-1,0.5,250,-0.25\n"
	      "7,2,500.75,20,0,1,5e-324,0\n", f);
	cr_assert_eq(fclose(f), 0);
}

Test(files, init_3d_file_starts_a_3d_flock_and_its_dims_win)
{
	write_3d_file("h3.csv");
	cr_assert_eq(tc_boids("--init h3.csv --print-config"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "\nboids = 3\n") && strstr(tc_stdout(), "\ndims = 3\n") &&
	          strstr(tc_stdout(), "\ndepth = 360\n"), "%s", tc_stdout());
	/* a file the run cannot read, --print-config refuses as the run does */
	cr_assert_eq(tc_boids("--init missing.csv -n 7 --print-config"), 2, "%s", tc_stderr());
	cr_assert_str_eq(tc_stdout(), "");
	cr_assert(strstr(tc_stderr(), "--init: cannot open 'missing.csv'"), "%s", tc_stderr());

	/* frame 0 of the run is the file's last frame, depth included */
	cr_assert_eq(tc_boids("--init h3.csv --no-render -q -f 1 --trajectory t.csv --summary s.json"), 0,
	             "%s", tc_stderr());
	char *t = tc_slurp("t.csv", NULL);
	cr_assert_str_eq(t, "frame,id,x,y,vx,vy,z,vz\n"
	                    "0,0,100.5,50.25,1.5,-0.5,10.125,0.75\n"
	                    "0,1,300,200,-1,0.5,250,-0.25\n"
	                    "0,2,500.75,20,0,1,4.9406564584124654e-324,0\n");
	free(t);
	char *j = tc_slurp("s.json", NULL);
	cr_assert(strstr(j, "\"boids\": 3,") && strstr(j, "\"dims\": 3,") && strstr(j, "\"depth\": 360,"),
	          "%s", j);
	free(j);

	/* --dims 3 agrees; --dims 2 (command line or config file) is refused before any output */
	cr_assert_eq(tc_boids("--init h3.csv --dims 3 --no-render -q -f 1"), 0, "%s", tc_stderr());
	cr_assert_eq(tc_sh("printf 'dims = 2\\n' > d2.cfg"), 0);
	static const char *const twod[] = { "--dims 2", "--config d2.cfg" };
	for (int i = 0; i < 2; i++) {
		cr_assert_eq(tc_boids("--init h3.csv %s -f 1 -o v.mp4 --trajectory u.csv --summary u.json",
		                      twod[i]), 2, "%s", twod[i]);
		cr_assert_str_eq(tc_stderr(), "boids: --init: 'h3.csv' holds a 3D flock (z and vz columns) "
		                              "but --dims is 2 (leave --dims out, or give --dims 3)\n");
		cr_assert_eq(tc_count_files("."), 4, "an output exists after the refusal (%s)", twod[i]);
	}
}

/* --init as a spreadsheet or a script writes it: a BOM, CRLF, its own column order, extras. */
Test(files, init_takes_a_bom_and_columns_in_any_order)
{
	FILE *f = fopen("u.csv", "w");
	cr_assert_not_null(f);
	fputs("\xef\xbb\xbf" "name,x,y,z,vx,vy,vz,id,frame\r\n"
	      "a,1,1,1,1,1,1,0,0\r\n"
	      "b,100.5,50.25,10.125,1.5,-0.5,0.75,0,7\r\n"
	      "c,300,200,250,-1,0.5,-0.25,1,7\r\n"
	      "d,500.75,20,5e-324,0,1,0,2,7\r\n", f);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(tc_boids("--init u.csv --no-render -q -f 1 --trajectory t.csv"), 0, "%s", tc_stderr());
	char *t = tc_slurp("t.csv", NULL);
	cr_assert_str_eq(t, "frame,id,x,y,vx,vy,z,vz\n"
	                    "0,0,100.5,50.25,1.5,-0.5,10.125,0.75\n"
	                    "0,1,300,200,-1,0.5,250,-0.25\n"
	                    "0,2,500.75,20,0,1,4.9406564584124654e-324,0\n");
	free(t);
	/* a missing column is named, exit 2, nothing written */
	cr_assert_eq(tc_sh("printf 'x,vx,y,z\\n1,2,3,4\\n' > m.csv"), 0);
	cr_assert_eq(tc_boids("--init m.csv --no-render -f 1 --trajectory m2.csv"), 2);
	cr_assert(strstr(tc_stderr(), "--init: 'm.csv' line 1: the header has no column vy, vz"),
	          "%s", tc_stderr());
	cr_assert_eq(access("m2.csv", F_OK), -1);
}

Test(files, init_2d_file_in_3d_starts_in_the_middle_plane)
{
	cr_assert_eq(tc_boids("--no-render -q -f 3 -n 12 --trajectory a.csv"), 0);
	cr_assert_eq(tc_boids("--init a.csv --dims 3 --depth 100 --no-render -q -f 1 --trajectory b.csv"), 0,
	             "%s", tc_stderr());
	/* the 2D columns as they were, then z = D/2 and vz = 0 for every boid */
	cr_assert_eq(tc_sh("head -n 1 b.csv | grep -qx 'frame,id,x,y,vx,vy,z,vz'"), 0);
	cr_assert_eq(tc_sh("grep '^2,' a.csv | cut -d, -f2- | sed 's/$/,50,0/' > want && "
	                   "tail -n +2 b.csv | cut -d, -f2- > got && cmp -s want got && test $(wc -l < got) -eq 12"),
	             0, "b.csv is not a.csv's last frame at z = 50, vz = 0");
	/* without --dims a 2D file stays 2D */
	cr_assert_eq(tc_boids("--init a.csv --no-render -q -f 1 --trajectory c.csv --summary s.json"), 0);
	cr_assert_eq(tc_sh("head -n 1 c.csv | grep -qx 'frame,id,x,y,vx,vy' && grep -q '\"dims\": 2,' s.json"), 0);
}

Test(files, a_3d_trajectory_reads_back_and_continues_exactly)
{
	/* write -> read -> write: frame 0 of a run from a 3D file is that file's last frame, to the byte */
	write_3d_file("h3.csv");
	cr_assert_eq(tc_boids("--init h3.csv --no-render -q -f 30 --trajectory one.csv"), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("--init one.csv --no-render -q -f 1 --trajectory two.csv"), 0, "%s", tc_stderr());
	cr_assert_eq(tc_sh("grep '^29,' one.csv | cut -d, -f2- > a && tail -n +2 two.csv | cut -d, -f2- > b && "
	                   "cmp -s a b && test $(wc -l < b) -eq 3"), 0, "the state changed through the file");

	/* 60 frames in one go, or 30 and then 31 from the file, end in the same state */
	cr_assert_eq(tc_boids("--dims 3 -n 40 --no-render -q -f 60 --trajectory full.csv"), 0);
	cr_assert_eq(tc_boids("--dims 3 -n 40 --no-render -q -f 30 --trajectory half.csv"), 0);
	cr_assert_eq(tc_boids("--init half.csv --no-render -q -f 31 --trajectory rest.csv"), 0);
	cr_assert_eq(tc_sh("grep '^59,' full.csv | cut -d, -f2- > a && grep '^30,' rest.csv | cut -d, -f2- > b && "
	                   "cmp -s a b && test $(wc -l < b) -eq 40"), 0,
	             "the continued 3D run does not end where the full run ends");
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

/* Frames in a gzip trajectory CSV: whole ones only (rows a multiple of n), or -1. */
static long csv_gz_frames(const char *path, size_t n)
{
	FILE *under = fopen(path, "rb");
	cr_assert_not_null(under);
	FILE *f = zfile_reader(under, ZFILE_GZIP);
	cr_assert_not_null(f);
	long lines = 0;
	int ch, last = '\n';
	while ((ch = getc(f)) != EOF) {
		lines += ch == '\n';
		last = ch;
	}
	cr_assert(!ferror(f), "%s does not decompress", path);
	fclose(f);
	fclose(under);
	if (last != '\n' || lines < 1 || (size_t)(lines - 1) % n)
		return -1;
	return (long)((size_t)(lines - 1) / n);
}

/* A stop's trajectory: the writer begins no queued frame once the stop's
 * cut has passed (here at once: no signal came, so signals_since() is 0),
 * so a stop waits for the frame being written, not for the queue; the
 * file still holds whole frames.  The same queue finished without a stop
 * holds all four.  Queueing the frames takes about a millisecond, and the
 * writer needs some 0.05 s a frame at gzip's level 1: it cannot have begun
 * all four when the stop comes, however the machine is loaded. */
Test(files, a_stopped_trajectory_drops_the_queued_frames_past_its_cut)
{
	size_t n = 50000; /* 1.6 MB a frame to queue, 4 MB of text to compress */
	double *col = malloc(n * sizeof(double));
	cr_assert_not_null(col);
	for (size_t i = 0; i < n; i++)
		col[i] = (double)i + 1.0 / 3.0; /* 17 digits each */
	struct traj_cols c = { n, col, col, col, col, NULL, NULL };
	const char *paths[] = { "stopped.csv.gz", "whole.csv.gz" };
	long frames[2];
	for (int k = 0; k < 2; k++) {
		struct trajout_options o = { .path = paths[k], .n = n, .dims = 2, .every = 1, .level = 1 };
		struct trajout *t;
		cr_assert_eq(trajout_open(&t, &o), 0);
		for (long f = 0; f < 4; f++) /* four slots: queued without a wait */
			cr_assert_eq(trajout_frame(t, f, &c), 0);
		long written;
		cr_assert_eq(trajout_finish(t, k == 0, 0.0, &written), 0);
		cr_expect_eq(written, csv_gz_frames(paths[k], n), "the frames written are the file's");
		frames[k] = csv_gz_frames(paths[k], n);
	}
	free(col);
	cr_assert(frames[0] >= 0 && frames[0] < 4, "stopped: %ld frames, whole and fewer than 4", frames[0]);
	cr_assert_eq(frames[1], 4, "finished: %ld frames", frames[1]);
	cr_assert_eq(tc_count_files("."), 2, "a temporary file was left");
}
