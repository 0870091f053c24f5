/*
 * --quality: the encoder defaults it picks (as --verbose states them and
 * ffprobe reads them back), what the user sets winning over it, and
 * archive being lossless: its decoded frames equal the frames boids drew.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

TestSuite(quality, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup);

/* The --verbose output line of a run, e.g. "mp4 (libx264, yuv420p, crf 23, preset veryfast), 640x360". */
static char *output_line(const char *args)
{
	cr_assert_eq(tc_boids("%s --verbose -q -f 1 -n 20 -y", args), 0, "%s: %s", args, tc_stderr());
	const char *l = strstr(tc_stderr(), "boids: output: ");
	cr_assert_not_null(l, "%s", tc_stderr());
	l += strlen("boids: output: ");
	return strndup(l, strcspn(l, "\n"));
}

static void expect_output(const char *args, const char *want)
{
	char *got = output_line(args);
	cr_expect_str_eq(got, want, "boids %s", args);
	free(got);
}

Test(quality, each_preset_sets_what_the_user_did_not)
{
	expect_output("-o c.mp4", "mp4 (libx264, yuv420p, crf 23, preset veryfast), 640x360");
	expect_output("--quality web -o c.mp4", "mp4 (libx264, yuv420p, crf 23, preset veryfast), 640x360");
	expect_output("--quality draft -o c.mp4", "mp4 (libx264, yuv420p, crf 28, preset veryfast), 320x180");
	expect_output("--quality high -o c.mp4", "mp4 (libx264, yuv420p, crf 18, preset slow), 640x360");
	expect_output("--quality archive -o c.mkv", "matroska (libx264, yuv444p, crf 0, preset medium), 640x360");
	expect_output("--quality draft -o c.webm", "webm (libvpx-vp9, yuv420p, crf 47), 320x180");
	expect_output("--quality high -o c.webm", "webm (libvpx-vp9, yuv420p, crf 33), 640x360");
	/* what the user gives wins */
	expect_output("--quality draft --crf 20 --scale 1 -o c.mp4",
	              "mp4 (libx264, yuv420p, crf 20, preset veryfast), 640x360");
	expect_output("--quality high --preset fast --pix-fmt yuv444p -o c.mp4",
	              "mp4 (libx264, yuv444p, crf 18, preset fast), 640x360");
	/* draft halves a PNG or y4m picture too */
	expect_output("--quality draft -o c.y4m", "yuv4mpegpipe (wrapped_avframe, yuv420p), 320x180");
}

Test(quality, draft_is_smaller_and_high_larger_than_web)
{
	static const char *const ext[] = { "mp4", "webm" };

	for (size_t i = 0; i < 2; i++) {
		size_t draft = 0, web = 0, high = 0;
		cr_assert_eq(tc_boids("--quality draft -f 15 -o d.%s", ext[i]), 0);
		cr_assert_eq(tc_boids("-f 15 -o w.%s", ext[i]), 0);
		cr_assert_eq(tc_boids("--quality high -f 15 -o h.%s", ext[i]), 0);
		free(tc_slurp(ext[i][0] == 'm' ? "d.mp4" : "d.webm", &draft));
		free(tc_slurp(ext[i][0] == 'm' ? "w.mp4" : "w.webm", &web));
		free(tc_slurp(ext[i][0] == 'm' ? "h.mp4" : "h.webm", &high));
		cr_expect(draft < web && web < high, "%s: draft %zu, web %zu, high %zu bytes", ext[i], draft,
		          web, high);
	}
}

Test(quality, archive_decodes_to_the_frames_as_drawn)
{
	/* the same run as raw 4:4:4 frames (y4m), then through each archive encoder */
	static const char *const runs[] = { "-o a.mkv", "--codec libx265 -o a.mkv", "-o a.webm" };
	size_t a, b;

	cr_assert_eq(tc_boids("-f 3 -n 60 --scale 0.5 --pix-fmt yuv444p -o ref.y4m"), 0, "%s", tc_stderr());
	cr_assert_eq(tc_sh("ffmpeg -v error -i ref.y4m -f rawvideo ref.yuv"), 0);
	char *ref = tc_slurp("ref.yuv", &a);
	cr_assert_not_null(ref);
	cr_expect_eq(a, (size_t)320 * 180 * 3 * 3, "3 frames of 320x180 4:4:4");
	for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
		cr_assert_eq(tc_boids("-f 3 -n 60 --scale 0.5 --quality archive -y %s", runs[i]), 0, "%s", tc_stderr());
		cr_assert_eq(tc_sh("ffmpeg -v error -y -i a.%s -f rawvideo -pix_fmt yuv444p dec.yuv",
		                   strstr(runs[i], "webm") ? "webm" : "mkv"), 0);
		char *dec = tc_slurp("dec.yuv", &b);
		cr_assert_not_null(dec);
		cr_expect(a == b && memcmp(ref, dec, a) == 0, "%s is not lossless", runs[i]);
		free(dec);
	}
	free(ref);
}

Test(quality, an_unknown_preset_is_refused_before_any_file)
{
	cr_assert_eq(tc_boids("--quality best -o c.mp4"), 2);
	cr_expect(strstr(tc_stderr(), "draft, web, high"), "%s", tc_stderr());
	cr_expect_eq(tc_count_files("."), 0);
}
