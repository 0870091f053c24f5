/*
 * The documented limits (boids(1) LIMITS, --help-all's "Limits:"), each
 * accepted at the bound and refused one step past it: 10000000 boids,
 * 16384x16384 pictures (after --scale) and -s, fields (--field) of
 * 1000000000 a side, the video encoders'
 * largest pictures, 100000000 frames (by -f and by --duration landing
 * exactly on it), 64 obstacles, trails of 1000 positions.  Cheap: the
 * accepted side through --print-config (the checks of a run, no work),
 * the refused side exits 2 with one "boids: " line and writes nothing.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(limits, .init = setup, .fini = teardown);

static void accepted(const char *args)
{
	int st = tc_boids("%s --print-config", args);
	cr_assert_eq(st, 0, "'boids %s' at the documented limit: exit %d, %s", args, st, tc_stderr());
	cr_assert_eq(tc_count_files("."), 0, "'boids %s --print-config' wrote a file", args);
}

/* One step past: exit 2, one line naming the option, nothing written -- as --print-config and as a run. */
static void refused(const char *args, const char *option)
{
	for (int run = 0; run < 2; run++) {
		int st = run ? tc_boids("%s -f 1 -n 10", args) : tc_boids("%s --print-config", args);
		const char *e = tc_stderr();
		if (!run && st == 0 && !option)
			continue; /* checked by the run only */
		cr_assert_eq(st, 2, "'boids %s%s' past the documented limit: exit %d", args,
		             run ? " (a run)" : " --print-config", st);
		cr_assert(strncmp(e, "boids: ", 7) == 0 && strchr(e, '\n') == e + strlen(e) - 1,
		          "'boids %s': not one 'boids: ' line: %s", args, e);
		if (option)
			cr_assert_not_null(strstr(e, option), "'boids %s': the message does not name %s: %s", args, option, e);
		cr_assert_eq(tc_count_files("."), 0, "'boids %s' refused but wrote a file", args);
	}
}

Test(limits, boids_up_to_ten_million)
{
	accepted("-n 10000000 --no-render -s 64x36");
	refused("-n 10000001 --no-render -s 64x36", "--boids");
}

Test(limits, fields_and_pictures_up_to_16384)
{
	accepted("-s 16384x16384 --no-render");
	refused("-s 16385x16384 --no-render", "--size");
	refused("-s 16384x16385 --no-render", "--size");
	/* pictures a few pixels thin: the bound without gigabytes of memory on any machine */
	accepted("-s 16384x2 -o x.png");
	accepted("-s 2x16384 -o x.png");
	accepted("-s 8192x2 --scale 2 -o x.png");
	refused("-s 8192x2 --scale 2.0002 -o x.png", "--scale");
	refused("-s 2x8192 --scale 2.0002 -o x.png", "--scale");
}

/*
 * (8 w + 1024)(h + 128) below 2^31: 16128 high at 16384 wide; VP8's 14-bit
 * sizes: 16383.  yuv420p takes even sizes only, so one step past is 2 px.
 */
Test(limits, fields_apart_from_the_picture_up_to_a_billion_pixels)
{
	accepted("--field 1000000000x1000000000 --no-render");
	accepted("--dims 3 --field 1000000000x1x1000000000 --no-render");
	refused("--field 1000000001x1000 --no-render", "--field");
	refused("--field 1000x1000000001 --no-render", "--field");
	refused("--dims 3 --field 1000x1000x1000000001 --no-render", "--field");
}

Test(limits, video_pictures_up_to_the_encoders_limits)
{
	/* --threads 1: the fewest pictures in flight, should the memory check apply */
	accepted("-s 16384x16128 -o v.mp4 --threads 1");
	refused("-s 16384x16130 -o v.mp4", NULL);
	/* VP8's own bound, at its largest even size (16383x16383 is past the rule above,
	 * which --print-config now checks as the run does) */
	accepted("-s 16382x2 --codec libvpx -o v.webm --threads 1");
	refused("-s 16384x2 --codec libvpx -o v.webm", "VP8 pictures are at most 16383x16383");
	refused("-s 16384x16382 -o v.webm", NULL);
	refused("-s 16382x16384 -o v.webm", NULL);
}

Test(limits, frames_up_to_a_hundred_million_by_count_or_duration)
{
	accepted("-f 100000000 --no-render");
	refused("-f 100000001 --no-render", "--frames");
	/* 4000000 s at 25 fps is exactly the limit; 0.04 s more is one frame more */
	accepted("--fps 25 --duration 4000000 --no-render");
	cr_assert_not_null(strstr(tc_stdout(), "frames = 100000000\n"), "%s", tc_stdout());
	refused("--fps 25 --duration 4000000.04 --no-render", "--duration");
	/* --duration's own bound, 10000000 s: at 10 fps also the frame limit */
	accepted("--fps 10 --duration 10000000 --no-render");
	cr_assert_not_null(strstr(tc_stdout(), "frames = 100000000\n"), "%s", tc_stdout());
	refused("--fps 10 --duration 10000000.1 --no-render", "--duration");
}

Test(limits, sixty_four_obstacles)
{
	char args[2048] = "";
	for (int i = 1; i <= 64; i++) {
		size_t n = strlen(args);
		snprintf(args + n, sizeof args - n, " --obstacle %d,100,3", 10 * i);
	}
	accepted(args);
	strcat(args, " --obstacle 5,5,1");
	refused(args, "--obstacle");
}

Test(limits, trails_of_a_thousand_positions)
{
	accepted("--trail 1000");
	refused("--trail 1001", "--trail");
}

/* The numbers tested above are the ones the manual and --help-all state. */
Test(limits, the_manual_and_the_help_state_these_limits)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/docs/boids.1", SRCDIR);
	char *man = tc_slurp(path, NULL);
	cr_assert_not_null(man);
	const char *lim = strstr(man, ".SH LIMITS");
	cr_assert_not_null(lim);
	static const char *const says[] = { "Up to 10000000 boids", "fields up to 1000000000x1000000000", "up to 16384x16384), pictures up to 16384x16384",
		                            "at most 16128 high", "16383x16383", "up to 100000000 frames", "64 obstacles",
		                            "trails of\n1000 positions" };
	for (size_t i = 0; i < sizeof says / sizeof *says; i++)
		cr_assert_not_null(strstr(lim, says[i]), "boids(1) LIMITS does not say '%s'", says[i]);
	free(man);
	cr_assert_eq(tc_boids("--help-all"), 0);
	cr_assert_not_null(strstr(tc_stdout(), "Limits: 10000000 boids, 16384x16384 pictures, 1e9 px fields, 100000000 frames"),
	                   "%s", tc_stdout());
}
