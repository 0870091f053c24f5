/*
 * Every model against an independent reference of its article's listing
 * (tests/ref/MODEL.py, Python 3, standard library only, written from the
 * article's code): boids writes a trajectory, the reference re-advances
 * every frame from boids' own state and must land on the next frame to
 * 1e-9.  The start state (frame 0) is checked against each program's too.
 * Small flocks and 100 frames here; tests/integration/reference.c runs
 * 500 frames of every model's defaults.
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "common.h"

/* Runs boids with `args` and the reference `ref` with `refargs` on its
 * trajectory; returns the reference's exit status. */
static int check(const char *args, const char *ref, const char *refargs, int frames)
{
	tc_tmpdir();
	cr_assert_eq(tc_boids("-q --no-render -f %d --trajectory t.csv %s", frames, args), 0,
	             "boids %s: %s", args, tc_stderr());
	return tc_sh("python3 '%s/tests/ref/%s.py' t.csv --frames %d --check-start %s >ref.out 2>ref.err",
	             getenv("BOIDS_SRC") ? getenv("BOIDS_SRC") : SRCDIR, ref, frames, refargs);
}

#define AGREE(args, ref, refargs) do { \
	int st_ = check(args, ref, refargs, 100); \
	char *e_ = tc_slurp("ref.err", NULL); \
	cr_assert_eq(st_, 0, "%s.py %s on boids %s: %s", ref, refargs, args, e_ ? e_ : "?"); \
	free(e_); \
	tc_cleanup(); \
} while (0)

#define DISAGREE(args, ref, refargs) do { \
	cr_assert_eq(check(args, ref, refargs, 40), 1, "%s.py %s should reject boids %s", ref, refargs, args); \
	tc_cleanup(); \
} while (0)

Test(reference, harden_default_and_options)
{
	AGREE("-n 30", "harden", "");
	AGREE("-n 30 --edges wrap --update synchronous", "harden", "--edges wrap --update synchronous");
	DISAGREE("-n 30 --edges none", "harden", "--edges bounce");
}

Test(reference, processing_listing_and_options)
{
	AGREE("-m processing -n 40 -s 200x200", "processing", "--size 200x200");
	AGREE("-m processing -n 40 -s 200x200 --separation inverse --proc-max-force 5 --proc-max-speed 3",
	      "processing", "--size 200x200 --separation inverse --proc-max-force 5 --proc-max-speed 3");
	AGREE("-m processing -n 40 -s 200x200 --proc-limit components --proc-max-speed 3 --update synchronous",
	      "processing", "--size 200x200 --proc-limit components --proc-max-speed 3 --update synchronous");
	DISAGREE("-m processing -n 40 -s 200x200 --separation inverse", "processing", "--size 200x200");
}

Test(reference, steering_listing_and_options)
{
	AGREE("-m steering -n 40", "steering", "");
	AGREE("-m steering -n 40 --steer-socialize-weight 1 --steer-separation-steps 3 --target 100,100",
	      "steering", "--steer-socialize-weight 1 --steer-separation-steps 3 --target 100,100");
	AGREE("-m steering -n 40 --steer-seek-weight 2 --target none --update synchronous",
	      "steering", "--steer-seek-weight 2 --target none --update synchronous");
	DISAGREE("-m steering -n 40 --steer-socialize-weight 1 --target 100,100", "steering", "--target 100,100");
}

Test(reference, canvas_listing_and_options)
{
	AGREE("-m canvas -n 60 -s 320x180", "canvas", "--substeps 2 --size 320x180");
	AGREE("-m canvas -n 60 -s 320x180 --fps 60 --canvas-visual-range 30 --update synchronous",
	      "canvas", "--substeps 1 --size 320x180 --canvas-visual-range 30 --update synchronous");
	DISAGREE("-m canvas -n 60 -s 320x180", "canvas", "--substeps 1 --size 320x180");
}
