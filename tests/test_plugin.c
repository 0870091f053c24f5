/*
 * The video and HDF5 plugins: the boids binary maps FFmpeg's libraries only
 * for a run that writes video and libhdf5 only for one that reads or
 * writes an .h5 trajectory, links neither, finds boids-video.so and
 * boids-hdf5.so next to itself or in ../lib/boids/ (the installed layout),
 * and without one refuses a run that needs it with exit 1, naming the file,
 * before any output exists.
 */
#include <criterion/criterion.h>
#include <stdio.h>
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

/* How many times the dynamic linker opened library lib ("libavformat") for this run. */
static int opens(const char *lib, const char *args)
{
	cr_assert_eq(tc_sh("LD_DEBUG=files '%s' %s 2> ld.txt >/dev/null", bin(), args), 0);
	cr_assert_eq(tc_sh("grep -c 'file=%s.*generating link map' ld.txt > n.txt || true", lib), 0);
	char *n = tc_slurp("n.txt", NULL);
	int count = atoi(n);
	free(n);
	return count;
}

static int libavformat_opens(const char *args)
{
	return opens("libavformat", args);
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

/* PREFIX/bin/boids finds PREFIX/lib/boids/boids-video.so and boids-hdf5.so
 * and writes the same bytes as the build tree's binary. */
Test(plugin, the_installed_layout_finds_its_plugin)
{
	cr_assert_eq(tc_sh("mkdir -p p/bin p/lib/boids a b && cp '%s' p/bin/boids && "
	                   "cp \"$(dirname '%s')/boids-video.so\" \"$(dirname '%s')/boids-hdf5.so\" p/lib/boids/",
	                   bin(), bin(), bin()), 0);
	cr_assert_eq(tc_sh("cd a && ../p/bin/boids -q -f 2 -n 5 -s 32x32 -o v.y4m --trajectory t.h5"), 0);
	cr_assert_eq(tc_sh("cd b && '%s' -q -f 2 -n 5 -s 32x32 -o v.y4m --trajectory t.h5", bin()), 0);
	cr_expect(tc_same_file("a/v.y4m", "b/v.y4m"));
	cr_expect(tc_same_file("a/t.h5", "b/t.h5"));
	cr_assert_eq(tc_sh("p/bin/boids --version > v.txt"), 0);
	char *v = tc_slurp("v.txt", NULL);
	cr_expect(strstr(v, "\n  hdf5         1.") && strstr(v, "(the HDF5 plugin, boids-hdf5.so)"), "%s", v);
	free(v);
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

/*
 * The binary itself names none of HDF5's libraries (its ELF DT_NEEDED
 * entries, read with binutils' readelf, which the compiler comes with), and
 * nothing it loads at start does (the dynamic linker's own list, as ldd
 * prints it): no libhdf5, and none of what Debian's libhdf5 brings.
 */
Test(plugin, the_binary_links_no_hdf5)
{
	cr_assert_eq(tc_sh("readelf -d '%s' > needed.txt", bin()), 0);
	char *needed = tc_slurp("needed.txt", NULL);
	cr_assert(strstr(needed, "(NEEDED)") && strstr(needed, "[libcairo.so.2]"), "%s", needed);
	cr_expect(!strstr(needed, "hdf5"), "the binary links libhdf5:\n%s", needed);
	free(needed);
	cr_assert_eq(tc_sh("LD_TRACE_LOADED_OBJECTS=1 '%s' > ldd.txt", bin()), 0);
	char *ldd = tc_slurp("ldd.txt", NULL);
	const char *never[] = { "libhdf5", "libcurl", "libssl", "libcrypto", "libgnutls", "libkrb5", "libldap",
	                        "libavformat" };
	cr_assert(strstr(ldd, "libcairo.so.2"), "%s", ldd);
	for (size_t i = 0; i < sizeof never / sizeof *never; i++)
		cr_expect(!strstr(ldd, never[i]), "boids maps %s at start:\n%s", never[i], ldd);
	free(ldd);
}

Test(plugin, hdf5_is_loaded_only_by_runs_that_read_or_write_hdf5)
{
	cr_expect_eq(opens("libhdf5", "-q -f 1 --no-render"), 0, "a --no-render run mapped libhdf5");
	cr_expect_eq(opens("libhdf5", "-q -f 2 -n 5 --no-render --trajectory t.csv.gz"), 0,
	             "a CSV trajectory mapped libhdf5");
	cr_expect_eq(opens("libhdf5", "-q -f 2 -n 5 --no-render --init t.csv.gz"), 0,
	             "--init from a CSV mapped libhdf5");
	cr_expect_eq(opens("libhdf5", "-q -f 2 -n 5 --no-render --trajectory t.h5"), 1,
	             "an .h5 trajectory did not load the plugin");
	cr_expect_eq(opens("libhdf5", "-q -f 1 --no-render --init t.h5"), 1, "--init t.h5 did not load the plugin");
}

/* Without boids-hdf5.so: .h5 runs exit 1 naming it, nothing written; the rest runs. */
Test(plugin, without_its_plugin_an_hdf5_run_exits_1_naming_it)
{
	cr_assert_eq(tc_sh("'%s' -q -f 2 -n 5 --no-render --trajectory t.h5", bin()), 0);
	cr_assert_eq(tc_sh("mkdir -p lone/bin out && cp '%s' lone/bin/boids", bin()), 0);
	cr_expect_eq(tc_sh("lone/bin/boids -q -f 1 -n 5 --no-render --trajectory out/t.csv.zst"), 0,
	             "a CSV trajectory needs no plugin");
	cr_assert_eq(tc_sh("rm out/t.csv.zst"), 0);
	const char *runs[][2] = {
		{ "--no-render --trajectory out/t.h5 --metrics out/m.csv --summary out/s.json", "--trajectory" },
		{ "--no-render --init t.h5 --trajectory out/t.csv --metrics out/m.csv", "--init" },
		{ "-s 32x32 -o 'out/f%d.png' --trajectory out/t.hdf5", "--trajectory" },
	};
	for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
		int rc = tc_sh("lone/bin/boids -q -f 1 -n 5 %s 2> err.txt", runs[i][0]);
		char *err = tc_slurp("err.txt", NULL);
		char want[128];
		snprintf(want, sizeof want, "boids: %s: cannot load the HDF5 module '", runs[i][1]);
		cr_expect_eq(rc, 1, "%s: %s", runs[i][0], err);
		cr_expect(strncmp(err, want, strlen(want)) == 0 &&
		          strstr(err, "/lone/bin/../lib/boids/boids-hdf5.so': cannot open shared object file") &&
		          strchr(err, '\n') == err + strlen(err) - 1, "%s: %s", runs[i][0], err);
		cr_expect_eq(tc_count_files("out"), 0, "%s: left a file", runs[i][0]);
		free(err);
	}
	cr_assert_eq(tc_sh("lone/bin/boids --version > v.txt"), 0);
	char *v = tc_slurp("v.txt", NULL);
	cr_expect(strstr(v, "\n  hdf5         not loaded: cannot load the HDF5 module '") &&
	          strstr(v, "boids-hdf5.so': cannot open shared object file"), "%s", v);
	free(v);
}
