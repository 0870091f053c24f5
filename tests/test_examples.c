/*
 * Every example script runs (QUICK=1: a few frames) and makes its files.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(examples, .init = setup, .fini = teardown, .timeout = 120);

static void run(const char *script, const char *const *outputs)
{
	int st = tc_sh("QUICK=1 BOIDS='%s' sh '%s/examples/%s' >log 2>&1", getenv("BOIDS_BIN"), SRCDIR, script);
	char *log = tc_slurp("log", NULL);
	cr_assert_eq(st, 0, "%s failed: %s", script, log);
	free(log);
	for (int i = 0; outputs[i]; i++) {
		struct stat sb;
		cr_expect(stat(outputs[i], &sb) == 0 && sb.st_size > 0, "%s did not make %s", script, outputs[i]);
	}
}

Test(examples, default_clip) { run("default-clip.sh", (const char *const[]){ "flock.mp4", NULL }); }
Test(examples, readme_gif) { run("readme-gif.sh", (const char *const[]){ "flock.gif", NULL }); }
Test(examples, wrap_universe) { run("wrap-universe.sh", (const char *const[]){ "wrap.mp4", NULL }); }
Test(examples, big_flock) { run("big-flock-1080p.sh", (const char *const[]){ "big.mp4", "scaled.mp4", NULL }); }
Test(examples, y4m_pipe) { run("y4m-pipe.sh", (const char *const[]){ "piped.mkv", NULL }); }
Test(examples, png_frames) { run("png-frames.sh", (const char *const[]){ "frames/f_00000.png", "frames/f_00002.png", "from-png.mp4", NULL }); }
