/*
 * --steps-per-second: the flock's speed apart from the frame rate.  Frames
 * that fall on a step are the bytes of a run at one step a frame; frames
 * between two steps are the drawing of positions (and velocities) computed
 * here, linearly between the two steps a run at one step a frame records,
 * drawn by a run started from them (--init); the trajectory records the
 * steps.  In a plane, in a box, and at 1.5 steps a frame.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "tween.h"

TestSuite(tween, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup, .timeout = 120);

/*
 * Writes out.csv: the state `t` of the way from frame A to frame B of the
 * trajectory in.csv (every column but frame and id: a + t (b - a), Python's
 * doubles), as frame 0.
 */
static void between(const char *in, int a, int b, double t, const char *out)
{
	cr_assert_eq(tc_sh("%s -c 'import csv\n"
	                   "r=list(csv.reader(open(\"%s\")))\n"
	                   "h=r[0]; f={}\n"
	                   "for row in r[1:]: f.setdefault(int(row[0]),[]).append(row)\n"
	                   "A=f[%d]; B=f[%d]; t=%.17g\n"
	                   "o=open(\"%s\",\"w\"); o.write(\",\".join(h)+\"\\n\")\n"
	                   "for x,y in zip(A,B):\n"
	                   "  assert x[1]==y[1]\n"
	                   "  v=[float(p)+t*(float(q)-float(p)) for p,q in zip(x[2:],y[2:])]\n"
	                   "  o.write(\",\".join([\"0\",x[1]]+[repr(u) for u in v])+\"\\n\")'",
	                   tc_python(), in, a, b, t, out), 0);
}

/* The frames of `run` at 60 fps against one step a frame at 30 (S = 30): even frames are steps. */
static void half_rate(const char *flock)
{
	cr_assert_eq(tc_boids("%s --fps 60 --steps-per-second 30 -f 7 -o f_%%d.png --trajectory t.csv -q", flock),
	             0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("%s --fps 30 -f 4 -o g_%%d.png --trajectory u.csv -q", flock), 0, "%s", tc_stderr());
	for (int k = 0; k < 4; k++) {
		char f[32], g[32];
		snprintf(f, sizeof f, "f_%d.png", 2 * k);
		snprintf(g, sizeof g, "g_%d.png", k);
		cr_assert(tc_same_file(f, g), "%s: frame %d is not step %d's picture", flock, 2 * k, k);
	}
	/* the trajectory holds the steps, as frames 0, 2, 4, 6 */
	cr_assert_eq(tc_sh("cut -d, -f1 t.csv | uniq | tr '\\n' ' ' | grep -qx 'frame 0 2 4 6 '"), 0);
	cr_assert_eq(tc_sh("cut -d, -f2- t.csv > a && cut -d, -f2- u.csv > b && cmp -s a b"), 0);
	for (int k = 0; k < 3; k++) {
		char out[32];
		between("u.csv", k, k + 1, 0.5, "mid.csv");
		cr_assert_eq(tc_boids("%s --init mid.csv -f 1 -o m_%%d.png -y -q", flock), 0, "%s", tc_stderr());
		snprintf(out, sizeof out, "f_%d.png", 2 * k + 1);
		cr_assert(tc_same_file("m_0.png", out), "%s: frame %d is not the flock halfway from step %d",
		          flock, 2 * k + 1, k);
	}
}

Test(tween, at_half_the_frame_rate_every_second_frame_is_between_two_steps)
{
	half_rate("-n 40 -s 160x90 --seed 7");
}

Test(tween, in_a_box_too)
{
	half_rate("--dims 3 -n 40 -s 160x90 --seed 7");
}

/* 45 steps a second at 30 fps: frame 2 is step 3, frame 1 halfway from step 1 to step 2. */
Test(tween, one_and_a_half_steps_a_frame)
{
	const char *flock = "-n 30 -s 128x72";
	cr_assert_eq(tc_boids("%s --steps-per-second 45 -f 3 -o f_%%d.png -q", flock), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("%s -f 4 -o g_%%d.png --trajectory u.csv -q", flock), 0, "%s", tc_stderr());
	cr_assert(tc_same_file("f_0.png", "g_0.png"));
	cr_assert(tc_same_file("f_2.png", "g_3.png"));
	between("u.csv", 1, 2, 0.5, "mid.csv");
	cr_assert_eq(tc_boids("%s --init mid.csv -f 1 -o m_%%d.png -q", flock), 0, "%s", tc_stderr());
	cr_assert(tc_same_file("m_0.png", "f_1.png"));
	/* the default: one step a frame, as before, at any frame rate */
	cr_assert_eq(tc_boids("%s --fps 60 -f 4 -o h_%%d.png -q", flock), 0, "%s", tc_stderr());
	cr_assert(tc_same_file("h_3.png", "g_3.png"));
}

/* Where a frame falls, and the interpolation on a wrapping side, against numbers worked by hand. */
Test(tween, the_arithmetic)
{
	long step, part;

	tween_at(3, 1, 2, &step, &part);
	cr_assert(step == 1 && part == 1);
	tween_at(4, 3, 2, &step, &part);
	cr_assert(step == 6 && part == 0);
	tween_at(99999999, 1000000, 1001, &step, &part); /* k num past 2^63 / 1e3: exact */
	cr_assert(step == 99900098901L && part == 99, "%ld %ld", step, part);
	double a[3] = { 630, 10, 100 }, b[3] = { 6, 630, 300 }, out[3];
	tween_lerp(out, a, b, 3, 0.5, 640);
	cr_assert(out[0] == 638 && out[1] == 0 && out[2] == 200, "%g %g %g", out[0], out[1], out[2]);
	tween_lerp(out, a, b, 3, 0.25, 0);
	cr_assert(out[0] == 474 && out[1] == 165 && out[2] == 150, "%g %g %g", out[0], out[1], out[2]);
}

/* Bad values are refused before anything is written; both ways of setting it at once contradict. */
Test(tween, refused)
{
	cr_assert_eq(tc_boids("--steps-per-second 30 --substeps 2 -f 1 -o a.png"), 2);
	cr_assert(strstr(tc_stderr(), "--substeps and --steps-per-second contradict each other"), "%s", tc_stderr());
	cr_assert_eq(tc_boids("--steps-per-second 20000 --fps 1 -f 1 -o a.png"), 2);
	cr_assert(strstr(tc_stderr(), "steps a frame (at most 1000)"), "%s", tc_stderr());
	cr_assert_eq(tc_count_files("."), 0);
}
