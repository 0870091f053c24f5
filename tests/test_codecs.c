/*
 * Codec defaults that earn their place: the default WebM is no larger than
 * the default MP4 of the same clip (docs/PERFORMANCE.md measured their
 * quality side by side); HEVC in MP4 carries the tag Apple players want.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "common.h"

TestSuite(codecs, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup, .timeout = 120);

static long size_of(const char *path)
{
	struct stat sb;
	cr_assert_eq(stat(path, &sb), 0, "no %s", path);
	return (long)sb.st_size;
}

Test(codecs, default_webm_is_no_larger_than_default_mp4)
{
	cr_assert_eq(tc_boids("-q -f 90 -o c.mp4"), 0);
	cr_assert_eq(tc_boids("-q -f 90 -o c.webm"), 0);
	long mp4 = size_of("c.mp4"), webm = size_of("c.webm");
	cr_assert_leq(webm, mp4, "WebM %ld bytes, MP4 %ld", webm, mp4);
	/* and not by starving it: at least half the MP4's bits */
	cr_assert_geq(2 * webm, mp4, "WebM %ld bytes, MP4 %ld", webm, mp4);
}

Test(codecs, hevc_in_mp4_is_tagged_hvc1_for_apple_players)
{
	cr_assert_eq(tc_boids("-q -f 3 --codec libx265 -o h.mp4"), 0);
	cr_assert_eq(tc_sh("ffprobe -v error -show_entries stream=codec_name,codec_tag_string "
	                   "-of csv=p=0 h.mp4 > p.txt"), 0);
	char *p = tc_slurp("p.txt", NULL);
	cr_assert_str_eq(p, "hevc,hvc1\n");
	free(p);
}
