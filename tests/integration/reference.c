/*
 * The "done when": for each model, 500 frames of its defaults
 * re-advanced by the independent reference of its article's listing
 * (tests/ref/MODEL.py) with no step differing by more than 1e-9.  The
 * hermetic tier runs 100 frames of small flocks (tests/test_reference.c);
 * the canvas model's 300 birds are 120 here to keep Python's O(N^2) short.
 * The same for every model's 3D flock (--dims 3), against the same
 * references stepping vectors of three.
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "common.h"

static void agree500(const char *args, const char *ref, const char *refargs)
{
	tc_tmpdir();
	cr_assert_eq(tc_boids("-q --no-render -f 500 --trajectory t.csv %s", args), 0, "%s", tc_stderr());
	int st = tc_sh("python3 -B '%s/tests/ref/%s.py' t.csv --frames 500 --check-start %s >ref.out 2>ref.err",
	               getenv("BOIDS_SRC") ? getenv("BOIDS_SRC") : SRCDIR, ref, refargs);
	char *e = tc_slurp("ref.err", NULL);
	cr_assert_eq(st, 0, "%s.py on boids %s: %s", ref, args, e ? e : "?");
	free(e);
	tc_cleanup();
}

Test(reference, harden_500_frames, .timeout = 600)
{
	agree500("", "harden", "");
}

Test(reference, processing_500_frames, .timeout = 600)
{
	agree500("-m processing", "processing", "--proc-max-force 5 --proc-max-speed 3");
	agree500("-m processing --separation inverse --proc-max-force 5 --proc-max-speed 3",
	         "processing", "--separation inverse --proc-max-force 5 --proc-max-speed 3");
}

Test(reference, steering_500_frames, .timeout = 600)
{
	agree500("-m steering -n 100", "steering", ""); /* its default is 300: the reference is O(n^2) in Python */
	agree500("-m steering --steer-socialize-weight 1 --steer-separation-steps 2 --steer-turn short",
	         "steering", "--steer-socialize-weight 1 --steer-separation-steps 2");
}

Test(reference, canvas_500_frames, .timeout = 600)
{
	agree500("-m canvas -n 120", "canvas", "--substeps 2");
}

Test(reference, every_model_in_3d_500_frames, .timeout = 1200)
{
	agree500("--dims 3", "harden", "--dims 3");
	agree500("-m processing --dims 3", "processing", "--dims 3 --proc-max-force 5 --proc-max-speed 3");
	agree500("-m steering --dims 3", "steering", "--dims 3");
	agree500("-m canvas --dims 3 -n 120", "canvas", "--dims 3 --substeps 2");
}

/* The field's models at their defaults, to 1e-12 (their draws are the references' too). */
Test(reference, couzin_500_frames, .timeout = 900)
{
	agree500("-m couzin", "couzin", "--tolerance 1e-12");
	agree500("-m couzin --dims 2 --couzin-orientation 5", "couzin", "--dims 2 --couzin-orientation 5 --tolerance 1e-12");
}

Test(reference, netlogo_500_frames, .timeout = 900)
{
	agree500("-m netlogo -n 150", "netlogo", "--tolerance 1e-12"); /* 300 by default: O(n^2) in Python */
	agree500("-m netlogo -n 150 --dims 3 --field 30x30", "netlogo", "--dims 3 --size 30x30 --tolerance 1e-12");
}
