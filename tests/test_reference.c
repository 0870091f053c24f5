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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static const char *srcdir(void)
{
	return getenv("BOIDS_SRC") ? getenv("BOIDS_SRC") : SRCDIR;
}

/* Runs the reference tests/ref/`ref`.py on `traj` with `refargs`; returns
 * its exit status (its report in ref.out, ref.err). */
static int reference(const char *traj, const char *ref, const char *refargs, int frames)
{
	return tc_sh("%s -B '%s/tests/ref/%s.py' %s --frames %d %s >ref.out 2>ref.err",
	             tc_python(), srcdir(), ref, traj, frames, refargs);
}

/* Runs boids with `args` and the reference `ref` with `refargs` on its
 * trajectory; returns the reference's exit status. */
static int check(const char *args, const char *ref, const char *refargs, int frames)
{
	tc_tmpdir();
	cr_assert_eq(tc_boids("-q --no-render -f %d --trajectory t.csv %s", frames, args), 0,
	             "boids %s: %s", args, tc_stderr());
	char more[512];
	snprintf(more, sizeof more, "--check-start %s", refargs);
	return reference("t.csv", ref, more, frames);
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
	/* the listing as written (the reference's defaults: no limits), and boids' default (the sketch's limits) */
	AGREE("-m processing -n 40 -s 200x200 --proc-max-force 0 --proc-max-speed 0", "processing", "--size 200x200");
	AGREE("-m processing -n 40 -s 200x200", "processing", "--size 200x200 --proc-max-force 5 --proc-max-speed 3");
	AGREE("-m processing -n 40 -s 200x200 --separation inverse --proc-max-force 5 --proc-max-speed 3",
	      "processing", "--size 200x200 --separation inverse --proc-max-force 5 --proc-max-speed 3");
	AGREE("-m processing -n 40 -s 200x200 --proc-limit components --proc-max-force 0 --proc-max-speed 3 "
	      "--update synchronous",
	      "processing", "--size 200x200 --proc-limit components --proc-max-speed 3 --update synchronous");
	DISAGREE("-m processing -n 40 -s 200x200 --proc-max-force 0 --proc-max-speed 0 --separation inverse",
	         "processing", "--size 200x200");
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

/*
 * vicsek and abm draw random numbers every step (the noise, the order of
 * the turns); docs/MODEL.md defines those draws and the references make
 * them too, so every step agrees to 1e-12, not statistically: the paper's
 * and the declaration's models step for step, in the plane and in a box,
 * on fields of any size (a side need not be whole, nor a multiple of the
 * grid's cell).
 */
Test(reference, vicsek_step_for_step_with_the_same_draws)
{
	AGREE("-m vicsek -n 100 --field 5x5 --vicsek-noise 2", "vicsek",
	      "--size 5x5 --vicsek-noise 2 --update synchronous --tolerance 1e-12");
	AGREE("-m vicsek -n 80 --field 3.2x2.5 --vicsek-noise 1 --vicsek-speed 0.3 --update sequential --seed 7",
	      "vicsek", "--size 3.2x2.5 --vicsek-noise 1 --vicsek-speed 0.3 --update sequential --seed 7 "
	      "--tolerance 1e-12");
	AGREE("-m vicsek --dims 3 -n 100 --field 5x5 --vicsek-noise 2", "vicsek",
	      "--dims 3 --size 5x5 --vicsek-noise 2 --update synchronous --tolerance 1e-12");
	AGREE("-m vicsek --dims 3 -n 80 --field 3.2x2.5 --depth 1.7 --vicsek-radius 0.7 --update sequential --seed 7",
	      "vicsek", "--dims 3 --size 3.2x2.5 --depth 1.7 --vicsek-radius 0.7 --update sequential --seed 7 "
	      "--tolerance 1e-12");
	DISAGREE("-m vicsek -n 100 --field 5x5 --vicsek-noise 2", "vicsek",
	         "--size 5x5 --vicsek-noise 2 --update synchronous --seed 2"); /* other draws */
	DISAGREE("-m vicsek -n 100 --field 5x5 --vicsek-noise 0", "vicsek",
	         "--size 5x5 --vicsek-noise 0 --vicsek-radius 1.2 --update synchronous");
}

Test(reference, abm_step_for_step_in_the_same_order)
{
	AGREE("-m abm -n 80 --field 30x20", "abm", "--size 30x20 --tolerance 1e-12");
	AGREE("-m abm -n 80 --field 30x20 --update synchronous --abm-vision 3 --abm-separation 2 --abm-speed 0.5",
	      "abm", "--size 30x20 --update synchronous --abm-vision 3 --abm-separation 2 --abm-speed 0.5 "
	      "--tolerance 1e-12");
	AGREE("-m abm --dims 3 -n 80 --field 30x20 --depth 12.5 --seed 4", "abm",
	      "--dims 3 --size 30x20 --depth 12.5 --seed 4 --tolerance 1e-12");
	AGREE("-m abm --abm-size large -n 80 --abm-cohere 0.1 --abm-match 0.2 --abm-separate 0.5", "abm",
	      "--size 150x150 --abm-vision 15 --abm-cohere 0.1 --abm-match 0.2 --abm-separate 0.5 --tolerance 1e-12");
	DISAGREE("-m abm -n 80 --field 30x20 --seed 3", "abm", "--size 30x20"); /* another order */
	DISAGREE("-m abm -n 80 --field 30x20 --abm-match 0.1", "abm", "--size 30x20");
}

/* Couzin's zones against tests/ref/couzin.py, written from the paper: its
 * noise too (the same draws, docs/MODEL.md), to 1e-12 every step. */
Test(reference, couzin_paper_and_options)
{
	AGREE("-m couzin -n 40", "couzin", "--dims 3 --tolerance 1e-12");
	AGREE("-m couzin -n 40 --dims 2 --seed 9", "couzin", "--dims 2 --seed 9 --tolerance 1e-12");
	AGREE("-m couzin -n 40 --update sequential --couzin-orientation 0", "couzin",
	      "--update sequential --couzin-orientation 0 --tolerance 1e-12");
	AGREE("-m couzin -n 100 --edges wrap --field 18x15 --depth 13 --couzin-attraction 3 --couzin-noise 0.3",
	      "couzin", "--edges wrap --size 18x15 --depth 13 --couzin-attraction 3 --couzin-noise 0.3 "
	      "--tolerance 1e-12");
	AGREE("-m couzin -n 100 --dims 2 --edges wrap --field 16x13 --couzin-attraction 3 --update sequential",
	      "couzin", "--edges wrap --size 16x13 --couzin-attraction 3 --update sequential --tolerance 1e-12");
	AGREE("-m couzin -n 60 --edges bounce --field 20x16 --couzin-perception 360 --couzin-noise 0.2 "
	      "--couzin-turn 90 --couzin-speed 5 --couzin-dt 0.2 --couzin-repulsion 1.5",
	      "couzin", "--edges bounce --size 20x16 --couzin-perception 360 --couzin-noise 0.2 "
	      "--couzin-turn 90 --couzin-speed 5 --couzin-dt 0.2 --couzin-repulsion 1.5 --tolerance 1e-12");
	DISAGREE("-m couzin -n 40 --couzin-perception 360", "couzin", "");
	DISAGREE("-m couzin -n 40 --seed 2", "couzin", "--seed 3");
	DISAGREE("-m couzin -n 40 --edges wrap --field 12x10 --depth 8", "couzin", "--edges none --size 12x10 --depth 8");
}

/* NetLogo's Flocking against tests/ref/netlogo.py, its procedures with
 * NetLogo's primitives: the tick's order too (the same draws), to 1e-12. */
Test(reference, netlogo_procedures_and_options)
{
	AGREE("-m netlogo -n 100 --field 41x33", "netlogo", "--size 41x33 --tolerance 1e-12");
	AGREE("-m netlogo -n 100 --field 41x33 --update synchronous --seed 4", "netlogo",
	      "--size 41x33 --update synchronous --seed 4 --tolerance 1e-12");
	AGREE("-m netlogo -n 100 --field 27x27 --netlogo-vision 5 --netlogo-minimum-separation 2 "
	      "--netlogo-max-align-turn 10 --netlogo-max-cohere-turn 7 --netlogo-max-separate-turn 4", "netlogo",
	      "--size 27x27 --netlogo-vision 5 --netlogo-minimum-separation 2 --netlogo-max-align-turn 10 "
	      "--netlogo-max-cohere-turn 7 --netlogo-max-separate-turn 4 --tolerance 1e-12");
	AGREE("-m netlogo --dims 3 -n 100 --field 17x17 --depth 13", "netlogo",
	      "--dims 3 --size 17x17 --depth 13 --tolerance 1e-12");
	AGREE("-m netlogo --dims 3 -n 100 --field 17x17 --depth 13 --update synchronous", "netlogo",
	      "--dims 3 --size 17x17 --depth 13 --update synchronous --tolerance 1e-12");
	DISAGREE("-m netlogo -n 100 --field 41x33 --seed 2", "netlogo", "--size 41x33 --seed 3");
	DISAGREE("-m netlogo -n 100 --field 41x33", "netlogo", "--size 41x33 --update synchronous");
}

/* ------------------------------------------------- the 3D references
 * boids' 3D flocks (--dims 3) against the references re-advancing them,
 * start included; and, independently of boids' 3D code, the references'
 * 3D rules against hand computations (each script's --self-test) and
 * against boids' 2D runs lifted into the box by tests/ref/lift.py: on the plane
 * z = D/2 (the plane test, from the reference's side), and turned
 * out of the plane by a fixed rotation, where every rule that is the same
 * in every direction must give the turned run (no edges, a flock started
 * by --init in the middle of a big field, the target at its centre). */

Test(reference, every_3d_model_against_its_reference)
{
	AGREE("-m steering --dims 3 -n 40", "steering", "--dims 3");
	AGREE("-m steering --dims 3 --depth 150 -n 40 --steer-socialize-weight 1 --steer-separation-steps 3 "
	      "--target 100,100,40", "steering", "--dims 3 --depth 150 --steer-socialize-weight 1 "
	      "--steer-separation-steps 3 --target 100,100,40");
	AGREE("-m steering --dims 3 -n 40 --steer-seek-weight 2 --target none --update synchronous",
	      "steering", "--dims 3 --steer-seek-weight 2 --target none --update synchronous");
	AGREE("-m steering --dims 3 -n 60 --edges both --steer-turn steady --target 100,100 --steer-seek-weight 2",
	      "steering", "--dims 3 --edges both --steer-turn steady --target 100,100 --steer-seek-weight 2");
	AGREE("-m steering --dims 3 -n 60 --target-amp-z 0.45 --target-freq-z 3 --depth 300 --edges bounce",
	      "steering", "--dims 3 --target-amp-z 0.45 --target-freq-z 3 --depth 300 --edges bounce");
	DISAGREE("-m steering --dims 3 -n 40 --target 100,100,40", "steering", "--dims 3 --target 100,100");
	DISAGREE("-m steering --dims 3 -n 40", "steering", "--dims 3 --target-freq-z 2");
	AGREE("-n 30 --dims 3", "harden", "--dims 3");
	AGREE("-n 30 --dims 3 --depth 100 --edges wrap --update synchronous", "harden",
	      "--dims 3 --depth 100 --edges wrap --update synchronous");
	DISAGREE("-n 30 --dims 3 --edges wrap", "harden", "--dims 3 --edges bounce");
	AGREE("-m processing --dims 3 -n 40 -s 200x200 --depth 120", "processing",
	      "--dims 3 --size 200x200 --depth 120 --proc-max-force 5 --proc-max-speed 3");
	AGREE("-m processing --dims 3 -n 40 -s 200x200 --proc-limit components --proc-max-force 0 --proc-max-speed 3 "
	      "--update synchronous", "processing", "--dims 3 --size 200x200 --proc-limit components "
	      "--proc-max-speed 3 --update synchronous");
	AGREE("-m canvas --dims 3 -n 60 -s 320x180", "canvas", "--dims 3 --substeps 2 --size 320x180");
	AGREE("-m canvas --dims 3 -n 60 -s 320x180 --fps 60 --canvas-visual-range 30 --update synchronous",
	      "canvas", "--dims 3 --substeps 1 --size 320x180 --canvas-visual-range 30 --update synchronous");
}

Test(reference, each_3d_reference_passes_its_hand_computed_cases)
{
	const char *refs[] = {"harden", "processing", "steering", "canvas", "vicsek", "abm", "couzin", "netlogo"};
	for (size_t i = 0; i < sizeof refs / sizeof *refs; i++) {
		tc_tmpdir();
		int st = tc_sh("%s -B '%s/tests/ref/%s.py' --self-test >ref.out 2>ref.err",
		               tc_python(), srcdir(), refs[i]);
		char *e = tc_slurp("ref.err", NULL);
		cr_assert_eq(st, 0, "%s.py --self-test: %s", refs[i], e ? e : "?");
		free(e);
		tc_cleanup();
	}
}

/* Runs boids with `args` (2D), lifts the trajectory with lift.py
 * `liftargs` and returns the status of `ref` --dims 3 `refargs` on it. */
static int check_lifted(const char *args, const char *liftargs, const char *ref, const char *refargs,
                        int frames)
{
	cr_assert_eq(tc_boids("-q -y --no-render -f %d --trajectory t.csv %s", frames, args), 0,
	             "boids %s: %s", args, tc_stderr());
	cr_assert_eq(tc_sh("%s -B '%s/tests/ref/lift.py' t.csv %s >t3.csv", tc_python(), srcdir(), liftargs), 0);
	char more[512];
	snprintf(more, sizeof more, "--dims 3 %s", refargs);
	return reference("t3.csv", ref, more, frames);
}

#define AGREE_LIFTED(args, liftargs, ref, refargs) do { \
	int st_ = check_lifted(args, liftargs, ref, refargs, 50); \
	char *e_ = tc_slurp("ref.err", NULL); \
	cr_assert_eq(st_, 0, "%s.py %s on boids %s lifted %s: %s", ref, refargs, args, liftargs, e_ ? e_ : "?"); \
	free(e_); \
} while (0)

#define DISAGREE_LIFTED(args, liftargs, ref, refargs) \
	cr_assert_eq(check_lifted(args, liftargs, ref, refargs, 40), 1, \
	             "%s.py %s should reject boids %s lifted %s", ref, refargs, args, liftargs)

Test(reference, the_3d_references_keep_a_2d_run_on_its_plane)
{
	tc_tmpdir();
	AGREE_LIFTED("-n 30", "", "harden", "--check-start");
	AGREE_LIFTED("-n 30 --edges wrap --update synchronous", "", "harden",
	             "--check-start --edges wrap --update synchronous");
	AGREE_LIFTED("-m processing -n 40 -s 200x200 --separation inverse --proc-max-force 5 --proc-max-speed 3",
	             "--size 200x200", "processing",
	             "--check-start --size 200x200 --separation inverse --proc-max-force 5 --proc-max-speed 3");
	AGREE_LIFTED("-m processing -n 40 -s 200x200 --proc-limit components --proc-max-force 0 --proc-max-speed 3 "
	             "--update synchronous",
	             "--size 200x200", "processing",
	             "--check-start --size 200x200 --proc-limit components --proc-max-speed 3 --update synchronous");
	AGREE_LIFTED("-m steering -n 40", "", "steering", "--check-start --target-amp-z 0");
	AGREE_LIFTED("-m steering -n 60 --edges both --steer-turn steady --target 100,100 --steer-seek-weight 2",
	             "", "steering", "--check-start --edges both --steer-turn steady --target 100,100 "
	             "--steer-seek-weight 2");
	AGREE_LIFTED("-m canvas -n 60 -s 320x180", "--size 320x180", "canvas", "--check-start --substeps 2 --size 320x180");
	/* the target's z counts: it leaves the plane unless its amplitude is 0,
	 * and it is off the plane when the box is deeper than the plane's */
	DISAGREE_LIFTED("-m steering -n 40", "", "steering", "");
	DISAGREE_LIFTED("-m steering -n 40", "--depth 200", "steering", "--target-amp-z 0");
	tc_cleanup();
}

/* A dense 2D start in the middle of a 4000 x 4000 field, for --init. */
static void middle_start(void)
{
	cr_assert_eq(tc_boids("-q --no-render -s 400x400 -n 50 -f 1 --trajectory s.csv"), 0);
	cr_assert_eq(tc_sh("awk -F, -v OFS=, -v CONVFMT=%%.17g 'NR > 1 { $3 += 1800; $4 += 1800 } { print }' "
	                   "s.csv >init.csv"), 0);
}

#define TILTED "--size 4000x4000 --tilt"

Test(reference, the_3d_references_follow_a_2d_run_turned_out_of_its_plane)
{
	tc_tmpdir();
	middle_start();
	const char *big = "-s 4000x4000 --init init.csv";
	char args[512];
	snprintf(args, sizeof args, "%s --edges none", big);
	AGREE_LIFTED(args, TILTED, "harden", "--size 4000x4000 --edges none");
	DISAGREE_LIFTED(args, TILTED, "harden", "--size 4000x4000 --edges none --predators 0");
	snprintf(args, sizeof args, "%s -m processing --proc-max-force 5 --proc-max-speed 3 --update synchronous", big);
	AGREE_LIFTED(args, TILTED, "processing", "--size 4000x4000 --proc-max-force 5 --proc-max-speed 3 "
	             "--update synchronous");
	snprintf(args, sizeof args, "%s -m steering --target 2000,2000 --steer-seek-weight 2 --steer-socialize-weight 1",
	         big);
	AGREE_LIFTED(args, TILTED, "steering", "--size 4000x4000 --target 2000,2000 --steer-seek-weight 2 "
	             "--steer-socialize-weight 1");
	DISAGREE_LIFTED(args, TILTED, "steering", "--size 4000x4000 --target 2000,2000,1990 --steer-seek-weight 2 "
	                "--steer-socialize-weight 1");
	snprintf(args, sizeof args, "%s -m canvas --substeps 1", big);
	AGREE_LIFTED(args, TILTED, "canvas", "--size 4000x4000");
	tc_cleanup();
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
