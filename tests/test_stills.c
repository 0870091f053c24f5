/*
 * Stills: -o NAME.png without a frame field writes one picture, the last
 * frame or the one --poster names, the same picture the PNG sequence has
 * for that frame; a directory as the output is refused with a pattern to
 * try, before any file exists.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

TestSuite(stills, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup);


Test(stills, a_still_is_the_chosen_frame_of_the_sequence)
{
	cr_assert_eq(tc_boids("-q -f 12 -n 60 -s 160x90 -o f_%%02d.png"), 0);
	cr_assert_eq(tc_boids("-q -f 12 -n 60 -s 160x90 -o last.png"), 0);
	cr_assert_eq(tc_boids("-q -f 12 -n 60 -s 160x90 -o first.png --poster 0"), 0);
	cr_assert_eq(tc_boids("-q -f 12 -n 60 -s 160x90 -o fifth.png --poster 5"), 0);
	cr_assert(tc_same_file("last.png", "f_11.png"), "the default still is the last frame");
	cr_assert(tc_same_file("first.png", "f_00.png"));
	cr_assert(tc_same_file("fifth.png", "f_05.png"));
	cr_assert(!tc_same_file("first.png", "f_11.png"), "frames differ, so the test can tell");
	cr_assert_eq(tc_count_files("."), 15); /* 12 frames and 3 stills, nothing else */
}

Test(stills, a_poster_past_the_end_and_a_directory_are_refused_before_any_file)
{
	cr_assert_eq(tc_boids("-q -f 10 -o p.png --poster 10"), 2);
	cr_assert(strstr(tc_stderr(), "--poster: frame 10 is past the last frame"), "%s", tc_stderr());
	cr_assert_eq(tc_sh("mkdir shots"), 0);
	cr_assert_eq(tc_boids("-q -f 3 -o shots"), 2);
	cr_assert(strstr(tc_stderr(), "-o 'shots/f_%05d.png'"), "%s", tc_stderr());
	cr_assert_eq(tc_boids("-q -f 3 -o shots/"), 2);
	cr_assert(strstr(tc_stderr(), "-o 'shots/f_%05d.png'"), "%s", tc_stderr());
	cr_assert_eq(tc_count_files("."), 1);
	cr_assert_eq(tc_count_files("shots"), 0);
}

Test(stills, input_errors_come_before_output_checks)
{
	/* an existing output is not the first thing a user with a bad input must fix */
	cr_assert_eq(tc_sh("echo old > out.mp4 && printf 'x,y\\n' > bad.csv"), 0);
	cr_assert_eq(tc_boids("--init missing.csv -o out.mp4"), 2);
	cr_expect(strstr(tc_stderr(), "--init: cannot open 'missing.csv'"), "%s", tc_stderr());
	cr_assert_eq(tc_boids("--init bad.csv -o out.mp4"), 2);
	cr_expect(strstr(tc_stderr(), "--init: 'bad.csv' line 1"), "%s", tc_stderr());
	cr_assert_eq(tc_boids("--config missing.conf -o out.mp4"), 2);
	cr_expect(strstr(tc_stderr(), "--config: cannot open 'missing.conf'"), "%s", tc_stderr());
	/* with good inputs, the output is what is wrong */
	cr_assert_eq(tc_boids("-f 2 -n 5 --trajectory t.csv --no-render"), 0);
	cr_assert_eq(tc_boids("--init t.csv -o out.mp4"), 2);
	cr_expect(strstr(tc_stderr(), "'out.mp4' exists"), "%s", tc_stderr());
	char *old = tc_slurp("out.mp4", NULL);
	cr_expect_str_eq(old, "old\n");
	free(old);
}
