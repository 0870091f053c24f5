/*
 * Every model against an independent reference of its article's listing
 * (tests/ref/MODEL.py, Python 3, standard library only, written from the
 * article's code): boids writes a trajectory, the reference re-advances
 * every frame from boids' own state and must land on the next frame to
 * 1e-9.  The start state (frame 0) is checked against each program's too.
 * Small flocks and 50 frames here; tests/integration/reference.c runs
 * 500 frames of every model's defaults.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

/* Runs boids with `args` and the reference `ref` with `refargs` on its
 * trajectory; returns the reference's exit status. */
static int check(const char *args, const char *ref, const char *refargs, int frames)
{
	tc_tmpdir();
	cr_assert_eq(tc_boids("-q --no-render -f %d --trajectory t.csv %s", frames, args), 0,
	             "boids %s: %s", args, tc_stderr());
	return tc_sh("%s -B '%s/tests/ref/%s.py' t.csv --frames %d --check-start %s >ref.out 2>ref.err",
	             tc_python(), getenv("BOIDS_SRC") ? getenv("BOIDS_SRC") : SRCDIR, ref, frames, refargs);
}

#define AGREE(args, ref, refargs) do { \
	int st_ = check(args, ref, refargs, 50); \
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

/* ------------------------------------------- the programs' defaults, looks */

static int has(const char *text, const char *line)
{
	return strstr(text, line) != NULL;
}

Test(reference, each_model_takes_its_programs_defaults_unless_given)
{
	tc_tmpdir();
	cr_assert_eq(tc_boids("--print-config"), 0); /* harden: the table's own */
	cr_assert(has(tc_stdout(), "\nboids = 100\n") && has(tc_stdout(), "\nsubsteps = 1\n") &&
	          has(tc_stdout(), "\nedges = bounce\n") && has(tc_stdout(), "\nshape = curve\n") &&
	          has(tc_stdout(), "\npixel-grid = cairo\n"), "%s", tc_stdout());
	cr_assert_eq(tc_boids("-m canvas --print-config"), 0);
	cr_assert(has(tc_stdout(), "\nboids = 300\n") && has(tc_stdout(), "\nsubsteps = 2\n") &&
	          has(tc_stdout(), "\nshape = triangle\n") && has(tc_stdout(), "\npaint = stroke\n") &&
	          has(tc_stdout(), "\nboid-color = #ff0000\n") &&
	          has(tc_stdout(), "\nbackground-style = noise\n"), "%s", tc_stdout());
	cr_assert_eq(tc_boids("-m canvas -n 50 --fps 60 --paint fill --print-config"), 0); /* flags win */
	cr_assert(has(tc_stdout(), "\nboids = 50\n") && has(tc_stdout(), "\nsubsteps = 1\n") &&
	          has(tc_stdout(), "\npaint = fill\n"), "%s", tc_stdout());
	cr_assert_eq(tc_boids("-m steering --print-config"), 0);
	cr_assert(has(tc_stdout(), "\nedges = none\n"), "%s", tc_stdout());
	cr_assert_eq(tc_boids("-m steering --edges wrap --print-config"), 0);
	cr_assert(has(tc_stdout(), "\nedges = wrap\n"), "%s", tc_stdout());
	tc_cleanup();
}

Test(reference, the_windows_look_is_the_c_sharp_window)
{
	tc_tmpdir();
	cr_assert_eq(tc_boids("-q --look original -f 1 -o w_%%d.png"), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("-q -s 584x361 --outline final --pixel-grid gdi --warmup 1 -f 1 -o m_%%d.png"), 0);
	cr_assert_eq(tc_boids("-q -s 584x361 --outline final --warmup 1 -f 1 -o c_%%d.png"), 0);
	size_t a, b, c;
	char *w = tc_slurp("w_0.png", &a), *m = tc_slurp("m_0.png", &b), *cg = tc_slurp("c_0.png", &c);
	cr_assert(w && m && cg);
	/* PNG IHDR: width and height, big-endian, at bytes 16..23 */
	const unsigned char *u = (const unsigned char *)w;
	cr_assert_eq((u[16] << 24 | u[17] << 16 | u[18] << 8 | u[19]), 584);
	cr_assert_eq((u[20] << 24 | u[21] << 16 | u[22] << 8 | u[23]), 361);
	cr_assert(a == b && memcmp(w, m, a) == 0, "the look is its four settings");
	cr_assert(a != c || memcmp(w, cg, a) != 0, "the GDI+ grid changes the pixels");
	free(w), free(m), free(cg);
	/* video needs even sizes: one more row, and a note says so */
	cr_assert_eq(tc_boids("--look original -f 2 -o w.mp4"), 0, "%s", tc_stderr());
	cr_assert(has(tc_stderr(), "584x362"), "%s", tc_stderr());
	tc_cleanup();
}

Test(reference, gdi_grid_is_cairo_shifted_half_a_pixel)
{
	tc_tmpdir();
	/* one boid at (100, 60) on GDI+'s grid draws as one at (100.5, 60.5) on Cairo's */
	cr_assert_eq(tc_sh("printf 'frame,id,x,y,vx,vy\\n0,0,100,60,1,2\\n' > a.csv && "
	                   "printf 'frame,id,x,y,vx,vy\\n0,0,100.5,60.5,1,2\\n' > b.csv"), 0);
	cr_assert_eq(tc_boids("-q --init a.csv --predators 0 -s 200x120 --pixel-grid gdi -f 1 -o a_%%d.png"), 0,
	             "%s", tc_stderr());
	cr_assert_eq(tc_boids("-q --init b.csv --predators 0 -s 200x120 -f 1 -o b_%%d.png"), 0);
	cr_assert_eq(tc_boids("-q --init a.csv --predators 0 -s 200x120 -f 1 -o c_%%d.png"), 0);
	cr_assert_eq(tc_sh("cmp -s a_0.png b_0.png"), 0, "shifted half a pixel");
	cr_assert_neq(tc_sh("cmp -s a_0.png c_0.png"), 0);
	tc_cleanup();
}
