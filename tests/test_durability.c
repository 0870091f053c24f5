/*
 * Durability: every output (video of each container, a still, a PNG
 * pattern's frames, trajectory, metrics, summary; new files, linked into
 * place, and with -y, renamed over old ones) is fsync'd before the name
 * points at it -- the same bytes either way, so only the calls show it.
 * tests/preload/fsync-log.c, built by make as $(BUILD)/tests/fsync-log.so
 * and preloaded into the real binary, logs each fsync and each rename/link
 * with the file's device and inode.  In the hermetic tier: it needs only
 * the binary and the library, no privilege and no particular filesystem.
 */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(durability, .init = setup, .fini = teardown, .timeout = 120);

/* Runs boids with the logging library (make builds it beside the tests) preloaded, the log emptied first. */
static void run_logged(const char *args)
{
	char lib[4096];
	snprintf(lib, sizeof lib, "%s", getenv("BOIDS_BIN"));
	cr_assert_not_null(strrchr(lib, '/'));
	strcpy(strrchr(lib, '/'), "/tests/fsync-log.so");
	cr_assert_eq(access(lib, R_OK), 0, "no %s (make test builds it)", lib);
	cr_assert_eq(tc_sh("cp '%s' fsync-log.so", lib), 0);
	remove("fsync.log");
	/* a binary built with ASan wants its runtime first: the library is
	 * put before it on purpose (make check runs this tier under ASan) */
	int st = tc_sh("ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0\" "
	               "LD_PRELOAD=\"$PWD/fsync-log.so\" BOIDS_FSYNC_LOG=\"$PWD/fsync.log\" '%s' -q %s 2>err.txt",
	               getenv("BOIDS_BIN"), args);
	char *err = tc_slurp("err.txt", NULL);
	cr_assert_eq(st, 0, "boids %s: %s", args, err ? err : "");
	free(err);
}

/* Each file names its inode; the log must fsync that inode before it commits it under this name. */
static void check_durable(const char *file)
{
	struct stat st;
	char key[64], line[4200];
	cr_assert_eq(stat(file, &st), 0, "%s missing", file);
	snprintf(key, sizeof key, "%ju:%ju", (uintmax_t)st.st_dev, (uintmax_t)st.st_ino);
	FILE *f = fopen("fsync.log", "r");
	cr_assert_not_null(f, "nothing logged: no fsync and no commit at all");
	int synced = 0, committed = 0;
	size_t klen = strlen(key);
	while (!committed && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		if (strncmp(line, "fsync ", 6) == 0 && strcmp(line + 6, key) == 0)
			synced = 1;
		if (strncmp(line, "commit ", 7) == 0 && strncmp(line + 7, key, klen) == 0 && line[7 + klen] == ' ') {
			const char *to = line + 8 + klen, *base = strrchr(to, '/');
			committed = strcmp(base ? base + 1 : to, file) == 0;
		}
	}
	fclose(f);
	cr_assert(committed, "%s (%s) was never renamed or linked into place", file, key);
	cr_assert(synced, "%s was given its name before its bytes were fsync'd", file);
}

static void check_all(const char *const *files)
{
	for (; *files; files++)
		check_durable(*files);
}

Test(durability, video_trajectory_metrics_and_summary_are_synced_before_their_names)
{
	static const char *const files[] = { "v.mp4", "t.csv", "m.csv", "s.json", NULL };
	const char *args = "-f 3 -s 64x36 -n 10 -o v.mp4 --trajectory t.csv --metrics m.csv --summary s.json";
	run_logged(args); /* new files: linked into place */
	check_all(files);
	char again[512];
	snprintf(again, sizeof again, "%s -y", args); /* over the old ones: renamed */
	run_logged(again);
	check_all(files);
}

Test(durability, every_container_a_still_and_every_png_frame_are_synced)
{
	static const char *const videos[] = { "v.gif", "v.y4m", "v.webm", "still.png", NULL };
	for (const char *const *v = videos; *v; v++) {
		char args[256];
		snprintf(args, sizeof args, "-f %d -s 64x36 -n 10 -o %s", strstr(*v, ".png") ? 1 : 3, *v);
		run_logged(args);
		const char *one[] = { *v, NULL };
		check_all(one);
	}
	run_logged("-f 4 -s 64x36 -n 10 -o f_%02d.png");
	glob_t g;
	cr_assert_eq(glob("f_*.png", 0, NULL, &g), 0);
	cr_assert_eq(g.gl_pathc, 4);
	for (size_t i = 0; i < g.gl_pathc; i++)
		check_durable(g.gl_pathv[i]);
	globfree(&g);
}
