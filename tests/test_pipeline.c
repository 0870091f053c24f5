/*
 * The frame pipeline's thread counts, decided in one place and said by
 * --verbose: what it prints for --threads 1, --threads 3, auto (one per
 * core, counted here with sysconf), the drawing cap, a --no-render run, a
 * PNG run and -q; and that saying so changes no byte of the output.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "common.h"
#include "pipeline.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(pipeline, .init = setup, .fini = teardown, .timeout = 60);

#define SMALL "-f 3 -n 5 -s 64x36"

/* The stderr line that starts with prefix, without its newline ("" if none). */
static const char *line_of(const char *prefix)
{
	static char line[512];
	const char *p = strstr(tc_stderr(), prefix);

	line[0] = '\0';
	if (p)
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(p, "\n"), p);
	return line;
}

Test(pipeline, verbose_one_thread)
{
	cr_assert_eq(tc_boids(SMALL " --verbose --threads 1 -o v.y4m"), 0, "%s", tc_stderr());
	cr_assert_str_eq(line_of("boids: threads:"),
	                 "boids: threads: 1 simulation (--threads), 1 drawing (--threads), "
	                 "encoder 4 (the default, the same bytes on every machine)");
	/* y4m is libavformat's yuv4mpegpipe muxer with the wrapped_avframe encoder */
	cr_assert(strstr(line_of("boids: output:"), "yuv4mpegpipe (wrapped_avframe, yuv420p"),
	          "%s", tc_stderr());
	cr_assert(strstr(line_of("boids: output:"), "64x36"), "%s", tc_stderr());
}

Test(pipeline, verbose_three_threads_and_encoder_threads)
{
	cr_assert_eq(tc_boids(SMALL " --verbose --threads 3 --encoder-threads 2 -o v.mkv"), 0,
	             "%s", tc_stderr());
	cr_assert_str_eq(line_of("boids: threads:"),
	                 "boids: threads: 3 simulation (--threads), 3 drawing (--threads), "
	                 "encoder 2 (--encoder-threads)");
	cr_assert(strstr(line_of("boids: output:"), "matroska (libx264, yuv420p, crf 23, preset veryfast"),
	          "%s", tc_stderr());
}

Test(pipeline, verbose_auto_is_one_per_core)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	char want[256];

	cr_assert_eq(tc_boids(SMALL " --verbose --encoder-threads auto -o v.mkv"), 0, "%s", tc_stderr());
	snprintf(want, sizeof(want), "boids: threads: %ld simulation (one per core), %ld drawing "
	         "(one per core), encoder auto", cores < 1 ? 1 : cores, cores < 1 ? 1 : cores);
	cr_assert(strncmp(line_of("boids: threads:"), want, strlen(want)) == 0,
	          "%s\nwant %s", tc_stderr(), want);
}

Test(pipeline, verbose_no_render_has_no_drawing_and_no_encoder)
{
	cr_assert_eq(tc_boids(SMALL " --verbose --no-render --threads 2"), 0, "%s", tc_stderr());
	cr_assert_str_eq(line_of("boids: threads:"),
	                 "boids: threads: 2 simulation (--threads), no drawing (--no-render), no encoder");
	cr_assert_str_eq(line_of("boids: output:"), "boids: output: no pictures (--no-render)");
	cr_assert_eq(tc_count_files("."), 0);
}

Test(pipeline, verbose_png_has_no_encoder)
{
	cr_assert_eq(tc_boids(SMALL " --verbose --threads 2 -o f_%%02d.png"), 0, "%s", tc_stderr());
	cr_assert_str_eq(line_of("boids: threads:"),
	                 "boids: threads: 2 simulation (--threads), 2 drawing (--threads), no encoder");
	cr_assert_str_eq(line_of("boids: output:"), "boids: output: PNG, one per frame (64x36)");
}

Test(pipeline, verbose_comes_before_the_run_and_q_keeps_it)
{
	cr_assert_eq(tc_boids(SMALL " --verbose --threads 1 -o v.y4m"), 0, "%s", tc_stderr());
	const char *said = strstr(tc_stderr(), "boids: threads:");
	const char *done = strstr(tc_stderr(), "frames of 5 boids");
	cr_assert(said && done && said < done, "%s", tc_stderr());

	/* -q drops the progress and the closing line, not what --verbose was asked to say */
	cr_assert_eq(tc_boids(SMALL " -q --verbose --threads 1 -o w.y4m --progress auto"), 0);
	cr_assert_str_eq(line_of("boids: threads:"),
	                 "boids: threads: 1 simulation (--threads), 1 drawing (--threads), "
	                 "encoder 4 (the default, the same bytes on every machine)");
	cr_assert_null(strstr(tc_stderr(), "frames of"), "%s", tc_stderr());
}

Test(pipeline, verbose_changes_no_byte)
{
	cr_assert_eq(tc_boids(SMALL " -q --threads 3 -o a.y4m --trajectory a.csv"), 0);
	cr_assert_eq(tc_boids(SMALL " -q --verbose --threads 3 -o b.y4m --trajectory b.csv"), 0);
	cr_assert(tc_same_file("a.y4m", "b.y4m"));
	cr_assert(tc_same_file("a.csv", "b.csv"));
}

Test(pipeline, drawing_threads_are_capped_and_the_cap_is_said)
{
	struct config s;
	struct pipeline_threads t;
	char err[256], line[256];
	char *argv[] = { "boids", "--threads", "200", NULL };

	cr_assert_eq(cli_parse(&s, 3, argv, err, sizeof(err)), CLI_RUN, "%s", err);
	pipeline_threads(&s, &t);
	cr_assert_eq(t.sim, 200, "the simulation takes every thread asked for");
	cr_assert_eq(t.draw, 64, "at most 64 drawing threads");
	pipeline_threads_describe(&t, OUTPUTS_VIDEO, line, sizeof(line));
	cr_assert(strstr(line, "64 drawing (--threads, at most 64)"), "%s", line);
	cli_release(&s);
}
