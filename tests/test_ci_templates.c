/*
 * The CI templates (examples/ci/) as the services read them: parsed as
 * YAML by tests/ci_templates.py (python3-yaml), which checks the order of
 * the steps (the checkout before the cache; GitHub's key hashing what the
 * archive would send, listed after apt-get update, GitLab's cache saved
 * after every pipeline and cleaned of what Debian replaced; apt's cache
 * restored before the build installs; build, render, publish), make demo's
 * clip published as it is and the poster rendered as one frame, the Pages
 * set-up stated, the release on tags attaching what
 * examples/publish-demo.sh makes, and every file a step names present.
 * Running the shell steps on a bare Debian 12 is the integration tier's
 * (tests/integration/ci-templates.sh).
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "common.h"

Test(ci, templates_parse_and_their_steps_come_in_an_order_that_works)
{
	tc_tmpdir();
	int st = tc_sh("'%s' '%s/tests/ci_templates.py' '%s' >out.txt 2>&1", tc_python(), SRCDIR, SRCDIR);
	char *out = tc_slurp("out.txt", NULL);
	cr_assert_eq(st, 0, "examples/ci/:\n%s", out ? out : "");
	free(out);
	tc_cleanup();
}

/*
 * publish-demo.sh's poster is one frame after the warm-up, not a clip's
 * worth: that one frame is the clip's first (frame 0 of a longer run of
 * the same settings), byte for byte.
 */
Test(ci, the_poster_is_the_clips_first_frame_without_rendering_the_clip)
{
	tc_tmpdir();
	cr_assert_eq(tc_sh("grep -q -- '-o \"$OUT/poster.png\" --warmup 300 --frames 1$' '%s/examples/publish-demo.sh'",
	                   SRCDIR), 0, "publish-demo.sh's poster is not one frame after --warmup 300");
	cr_assert_eq(tc_boids("-q -y -n 60 -o one.png --warmup 300 --frames 1"), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("-q -y -n 60 -o first.png --warmup 300 --frames 4 --poster 0"), 0, "%s", tc_stderr());
	cr_assert(tc_same_file("one.png", "first.png"), "the one-frame poster is not the clip's first frame");
	tc_cleanup();
}
