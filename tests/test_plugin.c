/*
 * The video plugin: the boids binary maps FFmpeg's libraries only for a run
 * that writes video, finds boids-video.so next to itself or in
 * ../lib/boids/ (the installed layout), and without it refuses a video run
 * with exit 1, naming the file, before any output exists.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(plugin, .init = setup, .fini = teardown, .timeout = 60);

static const char *bin(void)
{
	const char *b = getenv("BOIDS_BIN");
	cr_assert_not_null(b, "BOIDS_BIN is not set (run the suite with make test)");
	return b;
}

/* How many times the dynamic linker opened libavformat for this run. */
static int libavformat_opens(const char *args)
{
	cr_assert_eq(tc_sh("LD_DEBUG=files '%s' %s 2> ld.txt >/dev/null", bin(), args), 0);
	cr_assert_eq(tc_sh("grep -c 'file=libavformat.*generating link map' ld.txt > n.txt || true"), 0);
	char *n = tc_slurp("n.txt", NULL);
	int count = atoi(n);
	free(n);
	return count;
}

Test(plugin, ffmpeg_is_loaded_only_by_runs_that_write_video)
{
	cr_expect_eq(libavformat_opens("-q -f 1 --no-render"), 0, "a --no-render run mapped libavformat");
	cr_expect_eq(libavformat_opens("-q -f 1 -n 5 -s 32x32 -o 'f%d.png'"), 0,
	             "a PNG run mapped libavformat");
	cr_expect_eq(libavformat_opens("-q -f 1 -n 5 -s 32x32 -o v.y4m"), 1,
	             "a y4m run did not load the plugin");
	cr_expect_eq(libavformat_opens("--list-codecs"), 1, "--list-codecs did not load the plugin");
}

/* PREFIX/bin/boids finds PREFIX/lib/boids/boids-video.so and writes the
 * same bytes as the build tree's binary. */
Test(plugin, the_installed_layout_finds_its_plugin)
{
	cr_assert_eq(tc_sh("mkdir -p p/bin p/lib/boids && cp '%s' p/bin/boids && "
	                   "cp \"$(dirname '%s')/boids-video.so\" p/lib/boids/", bin(), bin()), 0);
	cr_assert_eq(tc_sh("p/bin/boids -q -f 2 -n 5 -s 32x32 -o a.y4m"), 0);
	cr_assert_eq(tc_sh("'%s' -q -f 2 -n 5 -s 32x32 -o b.y4m", bin()), 0);
	cr_expect(tc_same_file("a.y4m", "b.y4m"));
}

Test(plugin, without_its_plugin_a_video_run_exits_1_naming_it)
{
	cr_assert_eq(tc_sh("mkdir -p lone/bin && cp '%s' lone/bin/boids", bin()), 0);
	cr_expect_eq(tc_sh("lone/bin/boids -q -f 1 --no-render"), 0, "--no-render needs no plugin");
	int rc = tc_sh("lone/bin/boids -q -f 1 -n 5 -s 32x32 -o v.mp4 2> err.txt");
	char *err = tc_slurp("err.txt", NULL);
	cr_expect_eq(rc, 1, "%s", err);
	cr_expect(strstr(err, "boids: cannot load the video module '") &&
	          strstr(err, "/lone/bin/../lib/boids/boids-video.so': cannot open shared object file"),
	          "%s", err);
	cr_expect_neq(tc_sh("ls | grep -q mp4"), 0, "an mp4 (or its temporary) exists");
	free(err);
}
