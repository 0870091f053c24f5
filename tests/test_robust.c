/*
 * Reliability, round 2 (issue 14): a read error is never the end of a
 * file, what boids writes it reads back, messages name the real cause,
 * quiet is quiet, the summary is well-formed, and the command line wins
 * over a config file.  The fault-injection sweep is `make test-faults`.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <libavcodec/avcodec.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "common.h"
#include "lineread.h"
#include "summary.h"
#include "traj.h"

extern char **environ;

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(robust, .init = setup, .fini = teardown, .timeout = 120);

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(text, 1, len, f), len);
	cr_assert_eq(fclose(f), 0);
}

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* ------------------------------------------------- 3: read errors, long lines */

Test(robust, lineread_tells_lines_eof_errors_and_long_lines_apart)
{
	char *buf = NULL;
	size_t cap = 0;

	write_file("a.txt", "ab\n\nc", 5);
	FILE *f = fopen("a.txt", "r");
	cr_assert_eq(lineread_next(f, &buf, &cap, 10), 2);
	cr_assert_str_eq(buf, "ab");
	cr_assert_eq(lineread_next(f, &buf, &cap, 10), 0);
	cr_assert_eq(lineread_next(f, &buf, &cap, 10), 1); /* last line without '\n' */
	cr_assert_str_eq(buf, "c");
	cr_assert_eq(lineread_next(f, &buf, &cap, 10), LINEREAD_EOF);
	fclose(f);

	write_file("b.txt", "0123456789\n01234567890\n", 23);
	f = fopen("b.txt", "r");
	cr_assert_eq(lineread_next(f, &buf, &cap, 10), 10); /* exactly the maximum */
	cr_assert_eq(lineread_next(f, &buf, &cap, 10), -E2BIG);
	fclose(f);

	/* A directory opens for reading on Linux; reading it fails: not EOF. */
	mkdir("d", 0755);
	f = fopen("d", "r");
	cr_assert_not_null(f);
	cr_assert_eq(lineread_next(f, &buf, &cap, 10), -EISDIR);
	fclose(f);
	free(buf);
}

Test(robust, a_read_error_in_init_or_config_is_not_end_of_file)
{
	mkdir("d", 0755);
	cr_assert_eq(tc_boids("--init d --no-render -f 1"), 2);
	cr_assert(strstr(tc_stderr(), "--init: 'd' is a directory"), "%s", tc_stderr());
	cr_assert_eq(tc_boids("--config d --no-render -f 1"), 2);
	cr_assert(strstr(tc_stderr(), "--config: 'd' is a directory"), "%s", tc_stderr());
	/* traj_load itself: a read error comes back as the error, never as a short file */
	FILE *f = fopen("d", "r");
	struct traj_state st;
	struct traj_error te;
	cr_assert_eq(traj_load(f, &st, &te), -EISDIR);
	cr_assert_eq(te.line, 1);
	fclose(f);
}

Test(robust, a_line_beyond_the_maximum_names_file_and_line)
{
	/* a trajectory whose second row is 2 MiB long */
	cr_assert_eq(tc_sh("{ printf 'frame,id,x,y,vx,vy\\n0,0,1,1,1,1\\n0,1,'; "
	                   "head -c 2097152 /dev/zero | tr '\\0' 1; printf ',1,1,1\\n'; } >long.csv"), 0);
	cr_assert_eq(tc_boids("--init long.csv --no-render -f 1"), 2);
	cr_assert(strstr(tc_stderr(), "'long.csv' line 3: line longer than 1048576 bytes"), "%s", tc_stderr());

	cr_assert_eq(tc_sh("{ printf 'boids = 5\\n# '; head -c 1048577 /dev/zero | tr '\\0' x; } >long.conf"), 0);
	cr_assert_eq(tc_boids("--config long.conf --no-render -f 1"), 2);
	cr_assert(strstr(tc_stderr(), "long.conf:2: line longer than 1048576 bytes"), "%s", tc_stderr());
	/* a line of exactly the maximum is fine */
	cr_assert_eq(tc_sh("{ printf 'boids = 5\\n# '; head -c 1048574 /dev/zero | tr '\\0' x; } >max.conf"), 0);
	cr_assert_eq(tc_boids("--config max.conf --no-render -f 1 --summary s.json"), 0, "%s", tc_stderr());
}

/*
 * A huge NUL-filled config under a memory limit used to make getline fail
 * with ENOMEM, taken for the end of the file: the run went on, exit 0.
 * Under ASan (make check) the limit is left out: ASan reserves terabytes of
 * address space; the reader's bound keeps the memory small either way.
 */
Test(robust, a_huge_nul_file_under_a_memory_limit_is_an_error)
{
	cr_assert_eq(tc_sh("truncate -s 256M nul.conf && truncate -s 256M nul.csv"), 0);
	const char *limit = getenv("ASAN_OPTIONS") ? "" : "ulimit -v 1500000;";
	int st = tc_sh("%s '%s' --config nul.conf --no-render -f 1 2>err1.txt; echo $? >rc1.txt;"
	               "%s '%s' --init nul.csv --no-render -f 1 2>err2.txt; echo $? >rc2.txt",
	               limit, getenv("BOIDS_BIN"), limit, getenv("BOIDS_BIN"));
	cr_assert_eq(st, 0);
	char *rc1 = tc_slurp("rc1.txt", NULL), *rc2 = tc_slurp("rc2.txt", NULL);
	char *e1 = tc_slurp("err1.txt", NULL), *e2 = tc_slurp("err2.txt", NULL);
	cr_assert_eq(atoi(rc1), 2, "%s", e1);
	cr_assert(strstr(e1, "nul.conf:1: line longer than"), "%s", e1);
	cr_assert_eq(atoi(rc2), 2, "%s", e2);
	cr_assert(strstr(e2, "'nul.csv' line 1: line longer than"), "%s", e2);
	free(rc1), free(rc2), free(e1), free(e2);
}

/* ------------------------------------------------ 4: what boids writes, it reads */

Test(robust, init_values_beyond_the_limit_are_refused_with_their_line)
{
	static const char *rows[] = { "0,0,1e300,5,1,1", "0,0,5,-1e308,1,1", "0,0,5,5,1e300,1",
	                              "0,0,5,5,1,-1.000001e9" };
	for (int i = 0; i < 4; i++) {
		char text[128]; /* the row as frame 1, after a good frame 0 */
		int n = snprintf(text, sizeof(text), "frame,id,x,y,vx,vy\n0,0,1,1,1,1\n1%s\n", rows[i] + 1);
		write_file("big.csv", text, (size_t)n);
		cr_assert_eq(tc_boids("--init big.csv --no-render -f 1"), 2, "%s", rows[i]);
		cr_assert(strstr(tc_stderr(), "'big.csv' line 3:") &&
		          strstr(tc_stderr(), "beyond the limit (-1e9 to 1e9)"), "%s", tc_stderr());
		cr_assert_not(exists("flock.mp4"));
	}
	/* the limit itself is accepted */
	const char ok[] = "frame,id,x,y,vx,vy\n0,0,1e9,-1e9,1e9,-1e9\n";
	write_file("ok.csv", ok, sizeof(ok) - 1);
	cr_assert_eq(tc_boids("--init ok.csv --no-render -f 2"), 0, "%s", tc_stderr());
}

/* The largest absolute number in columns 3.. of a CSV, and whether all are finite. */
static double csv_max_abs(const char *path, int first_col, int *all_finite)
{
	char *text = tc_slurp(path, NULL);
	double m = 0;
	*all_finite = 1;
	cr_assert_not_null(text);
	char *save = NULL;
	int lineno = 0;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (lineno++ == 0)
			continue;
		int col = 0;
		for (char *p = line; p; col++) {
			char *comma = strchr(p, ',');
			if (comma)
				*comma = 0;
			if (col >= first_col) {
				double v = strtod(p, NULL);
				if (!isfinite(v))
					*all_finite = 0;
				else if (fabs(v) > m)
					m = fabs(v);
			}
			p = comma ? comma + 1 : NULL;
		}
	}
	free(text);
	return m;
}

Test(robust, state_at_the_bound_stays_finite_and_reads_back)
{
	/* boids at the bound flying outwards, with no walls: they stay at it */
	const char edge[] = "frame,id,x,y,vx,vy\n"
	                    "0,0,9.99e8,5,1e9,-1e9\n0,1,-1e9,5,-1e9,1e9\n0,2,1e9,1e9,1e9,1e9\n";
	write_file("edge.csv", edge, sizeof(edge) - 1);
	for (int model = 0; model < 4; model++) {
		static const char *const models[] = { "harden", "processing", "steering", "canvas" };
		cr_assert_eq(tc_boids("--init edge.csv -m %s --edges none -f 20 -s 64x36 -q -o v.y4m "
		                      "--trajectory t.csv --metrics m.csv --summary s.json -y", models[model]),
		             0, "%s: %s", models[model], tc_stderr());
		int finite;
		double m = csv_max_abs("t.csv", 2, &finite);
		cr_assert(finite && m <= 1e9, "%s: trajectory reaches %g", models[model], m);
		csv_max_abs("m.csv", 1, &finite);
		cr_assert(finite, "%s: metrics not finite", models[model]);
		/* and what it wrote, --init reads back */
		cr_assert_eq(tc_boids("--init t.csv --no-render -f 1 -q"), 0, "%s: %s", models[model], tc_stderr());
	}
}

/* y4m file size for w x h 4:2:0 frames: header, then FRAME\n + planes per frame. */
static long y4m_frames(const char *path, int w, int h)
{
	size_t len;
	char *d = tc_slurp(path, &len);
	cr_assert_not_null(d, "no %s", path);
	char *nl = memchr(d, '\n', len);
	cr_assert_not_null(nl);
	size_t header = (size_t)(nl - d) + 1, frame = 6 + (size_t)(w * h * 3 / 2);
	free(d);
	cr_assert_eq((len - header) % frame, 0, "%s is cut in a frame", path);
	return (long)((len - header) / frame);
}

Test(robust, a_failed_side_file_never_discards_the_finished_video)
{
	static const char *const side[] = { "--trajectory /dev/full", "--metrics /dev/full",
	                                    "--summary /dev/full" };
	for (int i = 0; i < 3; i++) {
		unlink("v.y4m");
		int st = tc_boids("-f 7 -s 64x36 -n 10 -q -o v.y4m -y %s", side[i]);
		cr_assert_eq(st, 1, "%s: exit %d: %s", side[i], st, tc_stderr());
		cr_assert(strstr(tc_stderr(), "cannot write '/dev/full': No space left on device"),
		          "%s: %s", side[i], tc_stderr());
		cr_assert_eq(y4m_frames("v.y4m", 64, 36), 7, "%s", side[i]);
	}
	/* the trajectory fails, the metrics and the summary are still written */
	cr_assert_eq(tc_boids("-f 7 -s 64x36 -n 10 -q -o v.y4m -y --trajectory /dev/full "
	                      "--metrics m.csv --summary s.json"), 1);
	cr_assert(exists("m.csv") && exists("s.json") && exists("v.y4m"));
	cr_assert_eq(tc_count_files("."), 3, "no temporary file left");
}

/* --------------------------------------------------- 9: the real cause */

/* Runs boids with stdout a pipe whose reader is gone; returns its exit status. */
static int run_into_broken_pipe(const char *args, char *err, size_t errlen)
{
	int p[2];
	char cmd[512];
	cr_assert_eq(pipe(p), 0);
	close(p[0]);
	snprintf(cmd, sizeof(cmd), "exec '%s' %s 2>err.txt", getenv("BOIDS_BIN"), args);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_addclose(&fa, p[1]);
	char *argv[] = { "sh", "-c", cmd, NULL };
	pid_t pid;
	cr_assert_eq(posix_spawn(&pid, "/bin/sh", &fa, NULL, argv, environ), 0);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	char *e = tc_slurp("err.txt", NULL);
	snprintf(err, errlen, "%s", e ? e : "");
	free(e);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

Test(robust, writers_report_the_errno_they_got)
{
	static const char *const full[] = { "--metrics /dev/full", "--summary /dev/full",
	                                    "--trajectory /dev/full" };
	for (int i = 0; i < 3; i++) {
		int st = tc_boids("--no-render -f 300 -n 200 -y %s", full[i]);
		cr_assert_eq(st, 1, "%s: exit %d: %s", full[i], st, tc_stderr());
		cr_assert(strstr(tc_stderr(), "No space left on device"), "%s: %s", full[i], tc_stderr());
	}
	/* /dev/fd/1, not /dev/stdout: a bare chroot's /dev may lack the latter */
	static const char *const pipes[] = { "--metrics /dev/fd/1", "--summary -",
	                                     "--trajectory /dev/fd/1", "--summary /dev/fd/1" };
	char err[1024];
	for (int i = 0; i < 4; i++) {
		char args[128];
		snprintf(args, sizeof(args), "--no-render -f 300 -n 200 -y -q %s", pipes[i]);
		cr_assert_eq(run_into_broken_pipe(args, err, sizeof(err)), 1, "%s: %s", pipes[i], err);
		cr_assert(strstr(err, "Broken pipe"), "%s: %s", pipes[i], err);
	}
}

Test(robust, a_huge_value_in_a_message_keeps_the_reason)
{
	/* 5000 characters each: the value is cut, the reason stays */
	static const struct { const char *before; char fill; const char *after, *reason; } cases[] = {
		{ "-n ", '9', "", "is out of range (expected a whole number" },
		{ "--edges ", 'x', "", "(expected one of bounce, wrap, both, none)" },
		{ "--boid-color ", 'x', "", "is not a colour" },
		{ "--obstacle ", '1', "", "is not X,Y,R" },
		{ "--", 'x', "", "(see --help)" },
		{ "--init ", 'x', ".csv", "File name too long" },
		{ "--config ", 'x', "", "File name too long" },
		{ "", 'x', "", "(options start with -; see --help)" },
		{ "-o ", 'x', ".mp4", "the name is too long" },
		{ "-o ", 'x', ".png", "the name is too long" },
	};
	char value[5001];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(value, cases[i].fill, 5000);
		value[5000] = 0;
		cr_assert_eq(tc_boids("-f 1 %s %s%s%s", strncmp(cases[i].before, "-o", 2) ? "--no-render" : "",
		                      cases[i].before, value, cases[i].after), 2,
		             "%s%c...: %s", cases[i].before, cases[i].fill, tc_stderr());
		const char *e = tc_stderr();
		cr_assert(strstr(e, cases[i].reason), "%s%c...: %s", cases[i].before, cases[i].fill, e);
		cr_assert(strstr(e, "\xe2\x80\xa6"), "%s%c...: the value is not marked as cut: %s",
		          cases[i].before, cases[i].fill, e);
		cr_assert_lt(strlen(e), 500, "%s%c...: %s", cases[i].before, cases[i].fill, e);
	}
	/* an unknown key of 5000 characters in a config file */
	cr_assert_eq(tc_sh("{ head -c 5000 /dev/zero | tr '\\0' k; printf ' = 1\\n'; } >k.conf"), 0);
	cr_assert_eq(tc_boids("--config k.conf --no-render -f 1"), 2);
	cr_assert(strstr(tc_stderr(), "k.conf:1: unknown key 'kkk") && strstr(tc_stderr(), "\xe2\x80\xa6'"),
	          "%s", tc_stderr());
}

Test(robust, a_config_file_with_a_byte_order_mark_is_read)
{
	const char conf[] = "\xef\xbb\xbf" "boids = 7\r\nseed = 3\r\n";
	write_file("bom.conf", conf, sizeof(conf) - 1);
	cr_assert_eq(tc_boids("--config bom.conf --print-config"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "\nboids = 7\n") && strstr(tc_stdout(), "\nseed = 3\n"), "%s", tc_stdout());
	/* only at the very start: a BOM elsewhere is part of a key, refused by name */
	const char late[] = "seed = 3\n\xef\xbb\xbf" "boids = 7\n";
	write_file("late.conf", late, sizeof(late) - 1);
	cr_assert_eq(tc_boids("--config late.conf --no-render -f 1"), 2);
	cr_assert(strstr(tc_stderr(), "late.conf:2: unknown key"), "%s", tc_stderr());
}

/* ------------------------------------------- 10: quiet, well-formed, overrides */

Test(robust, quiet_means_quiet_with_every_encoder)
{
	static const char *const outs[] = { "v.mp4", "v.webm", "v.gif", "v.y4m", "v.mkv --codec libx265",
	                                    "v.mp4 --codec libx264rgb", "v.mkv --codec libvpx" };
	static const char *const enc[] = { "libx264", "libvpx-vp9", "gif", NULL, "libx265", "libx264rgb",
	                                   "libvpx" };
	for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
		if (enc[i] && !avcodec_find_encoder_by_name(enc[i]))
			continue; /* not in this FFmpeg build */
		cr_assert_eq(tc_boids("-q -f 3 -s 64x36 -n 5 -y -o %s", outs[i]), 0, "%s: %s", outs[i], tc_stderr());
		cr_assert_str_eq(tc_stderr(), "", "%s", outs[i]);
		/* without -q: only boids' own line */
		cr_assert_eq(tc_boids("-f 3 -s 64x36 -n 5 -y -o %s --progress never", outs[i]), 0);
		cr_assert(strncmp(tc_stderr(), "boids: 3 frames", 15) == 0 && !strchr(tc_stderr(), '\n')[1],
		          "%s: %s", outs[i], tc_stderr());
	}
}

Test(robust, the_summary_is_valid_utf8_whatever_bytes_the_path_holds)
{
	cr_assert_eq(tc_sh("mkdir \"$(printf 'a\\377b\\303\\251c\\355\\240\\200d')\""), 0);
	cr_assert_eq(tc_sh("'%s' -q -f 2 -s 64x36 -n 5 -o \"$(printf 'a\\377b\\303\\251c\\355\\240\\200d')/v.y4m\" "
	                   "--summary s.json", getenv("BOIDS_BIN")), 0);
	/* python's json module is the independent judge; it reads bytes as strict UTF-8 */
	cr_assert_eq(tc_sh("%s -c \"import json,sys; d=json.loads(open('s.json','rb').read().decode('utf-8'));"
	                   " sys.exit(d['output'] != 'a\\ufffdb\\u00e9c\\ufffd\\ufffd\\ufffdd/v.y4m')\"", tc_python()), 0);

	/* in memory: every byte value, alone and after a lead byte */
	struct config set;
	char err[256], *argv[] = { "boids", "--no-render", NULL };
	cr_assert_eq(cli_parse(&set, 2, argv, err, sizeof(err)), CLI_RUN, "%s", err);
	char path[3 * 256 + 1];
	size_t k = 0;
	for (int b = 1; b < 256; b++) {
		path[k++] = (char)b;
		path[k++] = (char)0xe2; /* a lead byte cut short by the next one */
		path[k++] = (char)b;
	}
	path[k] = 0;
	struct summary sum = { .set = &set, .frames = 1, .wall_time = 0.5, .output = path };
	FILE *f = fopen("mem.json", "wb");
	cr_assert_eq(summary_write(f, &sum), 0);
	fclose(f);
	cli_release(&set);
	cr_assert_eq(tc_sh("%s -c \"import json; json.loads(open('mem.json','rb').read().decode('utf-8'))\"", tc_python()), 0);
}

Test(robust, the_command_line_wins_over_a_config_file)
{
	/* a config written by --print-config carries output = flock.mp4 */
	cr_assert_eq(tc_sh("'%s' --print-config -s 64x36 -n 5 -f 2 >render.conf", getenv("BOIDS_BIN")), 0);
	cr_assert_eq(tc_boids("--config render.conf --no-render --summary s.json"), 0, "%s", tc_stderr());
	cr_assert_not(exists("flock.mp4"));
	char *s = tc_slurp("s.json", NULL);
	cr_assert(strstr(s, "\"output\": null"), "%s", s);
	free(s);

	/* a config of a --no-render run also carries output: it means no render */
	cr_assert_eq(tc_sh("'%s' --print-config --no-render -s 64x36 -n 5 -f 2 >sim.conf", getenv("BOIDS_BIN")), 0);
	cr_assert_eq(tc_boids("--config sim.conf --trajectory t.csv"), 0, "%s", tc_stderr());
	cr_assert_not(exists("flock.mp4"));
	/* ... and -o on the command line renders after all */
	cr_assert_eq(tc_boids("--config sim.conf -o v.y4m -q"), 0, "%s", tc_stderr());
	cr_assert_eq(y4m_frames("v.y4m", 64, 36), 2);

	/* both on the command line stay a contradiction */
	cr_assert_eq(tc_boids("--no-render -o w.y4m -f 2"), 2);
	cr_assert(strstr(tc_stderr(), "--no-render"), "%s", tc_stderr());
	cr_assert_not(exists("w.y4m"));
}
