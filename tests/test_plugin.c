/*
 * The video and HDF5 plugins: the boids binary maps FFmpeg's libraries only
 * for a run that writes video and libhdf5 only for one that reads or
 * writes an .h5 trajectory, links neither, finds boids-video.so and
 * boids-hdf5.so next to itself or in ../lib/boids/ (the installed layout),
 * and without one refuses a run that needs it with exit 1, naming the file,
 * before any output exists.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "trusted.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(plugin, .init = setup, .fini = teardown, .timeout = 60);

static const char *bin(void)
{
	const char *b = getenv("BOIDS_BIN");
	cr_assert_not_null(b, "BOIDS_BIN is not set (run the suite with make test)");
	return b;
}

/* The directory of the binary (build/): its plugins and the test plugins are there. */
static const char *dirname_of_bin(void)
{
	static char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s", bin());
	char *slash = strrchr(dir, '/');
	cr_assert_not_null(slash);
	*slash = 0;
	return dir;
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

/* ---------------------------------------------- what the loader refuses */

/* build/tests/plugins/NAME.so, the test plugins (tests/plugins/). */
static void test_plugin(char *path, size_t len, const char *name)
{
	snprintf(path, len, "%s/tests/plugins/%s.so", dirname_of_bin(), name);
	cr_assert_eq(access(path, R_OK), 0, "no %s (make builds it with the tests)", path);
}

/* A copy of boids in lone/bin with `plugin` as lone/lib/boids/boids-video.so. */
static void lone_with(const char *plugin)
{
	cr_assert_eq(tc_sh("rm -rf lone constructor-ran && mkdir -p lone/bin lone/lib/boids && cp '%s' lone/bin/boids && "
	                   "cp '%s' lone/lib/boids/boids-video.so", bin(), plugin), 0);
}

/* Runs lone/bin/boids writing a y4m (a video run: the plugin is loaded); exit status, stderr in *err. */
static int run_lone(char **err)
{
	int st = tc_sh("lone/bin/boids -q -f 1 -n 5 -s 32x32 -o v.y4m 2> err.txt");
	*err = tc_slurp("err.txt", NULL);
	cr_assert_not_null(*err);
	return st;
}

/* Exit 1, one line naming the plugin and holding why, no video, and the plugin's code never ran. */
static void refused_before_dlopen(const char *why)
{
	char *err;
	int st = run_lone(&err);
	cr_expect_eq(st, 1, "exit %d: %s", st, err);
	cr_expect(strstr(err, "boids: cannot load the video module '") &&
	          strstr(err, "/lone/bin/../lib/boids/boids-video.so': ") && strstr(err, why) &&
	          strchr(err, '\n') == err + strlen(err) - 1, "expected '%s' in: %s", why, err);
	cr_expect_neq(access("constructor-ran", F_OK), 0, "the plugin's constructor ran: it was dlopen()ed");
	cr_expect_neq(access("v.y4m", F_OK), 0, "a video was written");
	free(err);
}

/*
 * A binary copied under a directory others can write finds a plugin they
 * planted there: it is refused before dlopen() (its constructor used to
 * run before the ABI check refused it), exit 1 naming it and why.  A
 * sticky directory (/tmp's mode) is fine: others cannot replace our names
 * in it.  As root, a plugin owned by another user and one writable by a
 * group with other members are refused; root's private group is fine.
 */
Test(plugin, a_plugin_others_could_replace_is_refused_before_it_runs)
{
	char fixture[PATH_MAX];
	test_plugin(fixture, sizeof fixture, "constructor");
	lone_with(fixture);
	cr_assert_eq(tc_sh("chmod 0777 lone/lib"), 0);
	refused_before_dlopen("the directory '");
	refused_before_dlopen("/lone/lib' is writable by other users (mode 0777, no sticky bit)");
	cr_assert_eq(tc_sh("chmod 1777 lone/lib"), 0); /* sticky: loaded, so its constructor runs */
	char *err;
	cr_expect_eq(run_lone(&err), 1);
	cr_expect(strstr(err, "undefined symbol: boids_video_plugin"), "%s", err);
	cr_expect_eq(access("constructor-ran", F_OK), 0, "the fixture's constructor did not run when loaded");
	free(err);
	lone_with(fixture);
	cr_assert_eq(tc_sh("chmod 0646 lone/lib/boids/boids-video.so"), 0);
	refused_before_dlopen("boids-video.so' is writable by other users (mode 0646)");
	if (geteuid() != 0)
		return; /* the rest needs another user's files */
	lone_with(fixture);
	cr_assert_eq(tc_sh("chown 65534 lone/lib/boids/boids-video.so"), 0);
	refused_before_dlopen("boids-video.so' belongs to another user (uid 65534)");
	lone_with(fixture);
	cr_assert_eq(tc_sh("chgrp 65534 lone/lib/boids && chmod 0775 lone/lib/boids"), 0);
	refused_before_dlopen("/lone/lib/boids' is writable by its group (gid 65534, mode 0775), which has other members");
	cr_assert_eq(tc_sh("chgrp 0 lone/lib/boids && chmod 0775 lone/lib/boids"), 0); /* root's own group */
	cr_expect_eq(run_lone(&err), 1);
	cr_expect(strstr(err, "undefined symbol: boids_video_plugin"), "%s", err);
	free(err);
}

/*
 * A plugin file cut short (a copy interrupted, a full disk) used to crash
 * the loader (SIGBUS, exit 135); a file that is not an ELF shared object
 * for this machine is refused too, before dlopen(), exit 1 saying why.
 */
Test(plugin, a_file_that_is_not_a_whole_shared_object_is_refused_before_dlopen)
{
	char video[PATH_MAX];
	snprintf(video, sizeof video, "%s/boids-video.so", dirname_of_bin());
	lone_with(video);
	cr_assert_eq(tc_sh("f=lone/lib/boids/boids-video.so && head -c $(($(stat -c %%s $f) / 2)) $f > cut && "
	                   "mv cut $f"), 0);
	refused_before_dlopen("it is cut short: its headers place bytes up to ");
	lone_with(video);
	cr_assert_eq(tc_sh("head -c 40 '%s' > lone/lib/boids/boids-video.so", video), 0);
	refused_before_dlopen("it is cut short: 40 bytes, less than an ELF header");
	lone_with(video);
	cr_assert_eq(tc_sh("echo 'not a library' > lone/lib/boids/boids-video.so"), 0);
	refused_before_dlopen("it is not an ELF file");
	lone_with(video); /* e_machine (bytes 18-19) of another machine: 0xb7 0x00 is AArch64, 0x3e x86-64 */
	cr_assert_eq(tc_sh("f=lone/lib/boids/boids-video.so; m=$(od -An -tu1 -j18 -N1 $f | tr -d ' '); "
	                   "if [ $m = 183 ]; then b='\\076'; else b='\\267'; fi; "
	                   "printf \"$b\" | dd of=$f bs=1 seek=18 conv=notrunc 2>/dev/null"), 0);
	refused_before_dlopen("it is built for another machine (ELF class 2, byte order 1, machine ");
	lone_with(video); /* e_type (bytes 16-17) 2: an executable, not a shared object */
	cr_assert_eq(tc_sh("printf '\\002' | dd of=lone/lib/boids/boids-video.so bs=1 seek=16 conv=notrunc 2>/dev/null"),
	             0);
	refused_before_dlopen("it is not a shared object (ELF type 2)");
	lone_with(video); /* and the whole file loads */
	char *err;
	cr_expect_eq(run_lone(&err), 0, "%s", err);
	free(err);
}

/*
 * A plugin whose code calls a function no library defines is refused when
 * it is loaded (bound at once, RTLD_NOW), exit 1 naming the symbol, before
 * any output exists; bound lazily it loaded and the first video call ended
 * the run (exit 127, "symbol lookup error").
 */
Test(plugin, a_plugin_with_a_missing_symbol_is_refused_at_load)
{
	char fixture[PATH_MAX];
	test_plugin(fixture, sizeof fixture, "missing_symbol");
	lone_with(fixture);
	char *err;
	int st = run_lone(&err);
	cr_expect_eq(st, 1, "exit %d: %s", st, err);
	cr_expect(strstr(err, "boids: cannot load the video module '") &&
	          strstr(err, "undefined symbol: boids_test_no_such_function"), "%s", err);
	cr_expect_neq(access("v.y4m", F_OK), 0, "a video was written");
	free(err);
}

/*
 * trusted_path() walks a path as the kernel does, judging every directory
 * it enters, also those a symbolic link leads through, and the file: a
 * link in a directory others can write, or to one, is refused; "..",
 * "." and relative links are followed.
 */
Test(plugin, the_trust_walk_follows_links_through_every_directory)
{
	char cwd[PATH_MAX], p[PATH_MAX + 64], why[PATH_MAX + 256];
	cr_assert_not_null(getcwd(cwd, sizeof cwd));
	cr_assert_eq(tc_sh("mkdir -p good/lib open && chmod 0777 open && echo x > good/lib/p.so && "
	                   "ln -s ../good/lib open/lib && ln -s lib good/rel && ln -s ../open good/toopen && "
	                   "echo y > open/q.so && ln -s ../../open/q.so good/lib/q.so && ln -s loop good/loop"), 0);
	static const struct { const char *path, *why; } cases[] = {
		{ "good/lib/p.so", NULL },
		{ "good/./rel/../lib/p.so", NULL },                  /* ".", a relative link, ".." */
		{ "open/lib/p.so", "/open' is writable by other users" }, /* the link lives in an open directory */
		{ "good/toopen/q.so", "/open' is writable by other users" }, /* a link into one */
		{ "good/lib/q.so", "/open' is writable by other users" },  /* the file's link into one */
		{ "good/lib/none.so", "/good/lib/none.so': No such file or directory" },
		{ "good/loop/p.so", "Too many levels of symbolic links" },
		{ "good/lib/p.so/x", "Not a directory" },
		{ "good/lib", "Is a directory" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		snprintf(p, sizeof p, "%s/%s", cwd, cases[i].path);
		why[0] = 0;
		int ret = trusted_path(p, why, sizeof why);
		if (!cases[i].why)
			cr_expect_eq(ret, 0, "%s: %s", cases[i].path, why);
		else
			cr_expect(ret < 0 && strstr(why, cases[i].why), "%s: %d %s", cases[i].path, ret, why);
	}
	snprintf(p, sizeof p, "good/lib/p.so");
	cr_expect_eq(trusted_path(p, why, sizeof why), -EINVAL, "a relative path was taken");
}
