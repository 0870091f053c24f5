/*
 * ffmpeg's conventions, as a user of ffmpeg types them: --fps as a rational,
 * a decimal or a name, with the exact rate in the container (ffprobe reads
 * it) and the same bytes as before for every whole rate however it is
 * written; -s's size names; --codec's codec names (h264, hevc, vp9, av1)
 * giving files of that codec; plurals in the closing line; --warmup in the
 * short help.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

TestSuite(conventions, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup, .timeout = 120);

/* What ffprobe says of the first video stream's ENTRY (codec_name, r_frame_rate). */
static char *probe(const char *file, const char *entry)
{
	cr_assert_eq(tc_sh("ffprobe -v error -select_streams v:0 -show_entries stream=%s "
	                   "-of csv=p=0 '%s' > probe.txt", entry, file), 0);
	char *c = tc_slurp("probe.txt", NULL);
	cr_assert_not_null(c);
	c[strcspn(c, "\n")] = 0;
	return c;
}

/* The value --print-config gives KEY with ARGS. */
static char *printed(const char *key, const char *args)
{
	cr_assert_eq(tc_boids("%s --print-config", args), 0, "%s: %s", args, tc_stderr());
	char want[64];
	snprintf(want, sizeof want, "\n%s = ", key);
	const char *at = strstr(tc_stdout(), want);
	cr_assert(at, "%s: no %s in --print-config", args, key);
	at += strlen(want);
	return strndup(at, strcspn(at, "\n"));
}

Test(conventions, fps_takes_rationals_decimals_and_names_and_the_container_gets_the_exact_rate)
{
	static const struct { const char *typed, *stored; } rates[] = {
		{ "30000/1001", "30000/1001" }, { "ntsc", "30000/1001" }, { "29.97", "2997/100" },
		{ "24000/1001", "24000/1001" }, { "ntsc-film", "24000/1001" }, { "film", "24" },
		{ "pal", "25" }, { "60/2", "30" }, { "25.000", "25" }, { "12.5", "25/2" },
	};
	for (size_t i = 0; i < sizeof rates / sizeof *rates; i++) {
		char args[64];
		snprintf(args, sizeof args, "--fps %s", rates[i].typed);
		char *v = printed("fps", args);
		cr_expect_str_eq(v, rates[i].stored, "--fps %s", rates[i].typed);
		free(v);
	}
	/* the exact rate in the file, as ffprobe reads it: mkv, mp4 and webm */
	const char *files[] = { "n.mkv", "n.mp4", "n.webm" };
	for (size_t i = 0; i < 3; i++) {
		cr_assert_eq(tc_boids("-q -f 3 -n 10 -s 64x64 --fps 30000/1001 -o %s", files[i]), 0, "%s",
		             tc_stderr());
		char *r = probe(files[i], "r_frame_rate");
		cr_expect_str_eq(r, "30000/1001", "%s", files[i]);
		free(r);
	}
	/* --duration at a fractional rate: 10 s at 29.97 fps is 300 frames (299.7) */
	char *f = printed("frames", "--fps 29.97 --duration 10");
	cr_expect_str_eq(f, "300");
	free(f);
}

Test(conventions, a_whole_rate_gives_the_same_bytes_however_it_is_written)
{
	/* the video and the simulation (canvas steps by the frame rate) */
	const char *ways[] = { "25", "50/2", "25.0", "pal" };
	for (size_t i = 0; i < 4; i++) {
		cr_assert_eq(tc_boids("-q -f 4 -n 20 -s 96x64 --fps %s -o v%zu.mkv", ways[i], i), 0, "%s",
		             tc_stderr());
		cr_assert_eq(tc_boids("-q --no-render -f 4 -n 20 -m canvas --fps %s --trajectory t%zu.csv",
		                      ways[i], i), 0, "%s", tc_stderr());
	}
	for (size_t i = 1; i < 4; i++) {
		char a[16], b[16];
		snprintf(a, sizeof a, "v%zu.mkv", i);
		cr_expect(tc_same_file("v0.mkv", a), "--fps %s differs from --fps 25", ways[i]);
		snprintf(a, sizeof a, "t%zu.csv", i);
		snprintf(b, sizeof b, "t0.csv");
		cr_expect(tc_same_file(b, a), "--fps %s: another trajectory", ways[i]);
	}
}

Test(conventions, fps_refused_cleanly)
{
	const char *bad[] = { "30000/0", "0", "1001/1000000", "1001", "30.1234567", "ntsc2", "1/2/3", "-30",
	                      "29.97x" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		cr_expect_eq(tc_boids("-f 2 --fps %s -o r.mp4", bad[i]), 2, "--fps %s", bad[i]);
		cr_expect(strncmp(tc_stderr(), "boids: --fps: ", 14) == 0, "%s", tc_stderr());
		cr_expect_eq(tc_count_files("."), 0, "--fps %s wrote a file", bad[i]);
	}
	/* GIF's limit holds for fractions too: 50 fps and no more */
	cr_expect_eq(tc_boids("-f 2 --fps 101/2 -o r.gif"), 2);
	cr_expect(strstr(tc_stderr(), "GIF"), "%s", tc_stderr());
}

Test(conventions, size_names_are_ffmpegs)
{
	/* libavutil/parseutils.c's table, as FFmpeg's documentation lists it */
	static const struct { const char *name, *size; } names[] = {
		{ "ntsc", "720x480" }, { "pal", "720x576" }, { "vga", "640x480" }, { "qvga", "320x240" },
		{ "svga", "800x600" }, { "xga", "1024x768" }, { "hd480", "852x480" }, { "hd720", "1280x720" },
		{ "hd1080", "1920x1080" }, { "2k", "2048x1080" }, { "4k", "4096x2160" },
		{ "uhd2160", "3840x2160" }, { "nhd", "640x360" }, { "qhd", "960x540" }, { "cif", "352x288" },
		{ "wuxga", "1920x1200" }, { "cga", "320x200" }, { "ega", "640x350" },
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		char args[32];
		snprintf(args, sizeof args, "-s %s", names[i].name);
		char *v = printed("size", args);
		cr_expect_str_eq(v, names[i].size, "-s %s", names[i].name);
		free(v);
	}
	cr_expect_eq(tc_boids("-s hd7200 -f 2 -o s.mp4"), 2);
	cr_expect(strstr(tc_stderr(), "size name"), "%s", tc_stderr());
	cr_expect_eq(tc_count_files("."), 0);
}

Test(conventions, codec_names_choose_encoders_of_that_codec)
{
	static const struct { const char *name, *file, *probed; } codecs[] = {
		{ "h264", "c.mp4", "h264" }, { "hevc", "c.mkv", "hevc" }, { "h265", "c2.mkv", "hevc" },
		{ "vp9", "c.webm", "vp9" }, { "vp8", "c8.webm", "vp8" }, { "av1", "c1.mkv", "av1" },
	};
	for (size_t i = 0; i < sizeof codecs / sizeof *codecs; i++) {
		cr_assert_eq(tc_boids("-q -f 2 -n 10 -s 64x64 --codec %s -o %s", codecs[i].name, codecs[i].file), 0,
		             "--codec %s: %s", codecs[i].name, tc_stderr());
		cr_expect_eq(tc_stderr()[0], 0, "--codec %s said: %s", codecs[i].name, tc_stderr());
		char *c = probe(codecs[i].file, "codec_name");
		cr_expect_str_eq(c, codecs[i].probed, "--codec %s", codecs[i].name);
		free(c);
	}
	/* a codec its container cannot hold is refused before any file exists */
	cr_expect_eq(tc_boids("-f 2 --codec hevc -o x.webm"), 2);
	cr_expect_eq(tc_count_files("."), 6 + 1, "a refused run wrote a file"); /* + probe.txt */
	cr_assert_eq(tc_boids("--list-codecs"), 0);
	cr_expect(strstr(tc_stdout(), "h264 (libx264)"), "%s", tc_stdout());
}

Test(conventions, plurals_and_warmup_in_the_short_help)
{
	cr_assert_eq(tc_boids("--no-render -f 1 -n 1 --predators 0"), 0);
	cr_expect(strstr(tc_stderr(), "boids: 1 frame of 1 boid in "), "%s", tc_stderr());
	cr_assert_eq(tc_boids("--no-render -f 2 -n 2 --predators 0"), 0);
	cr_expect(strstr(tc_stderr(), "boids: 2 frames of 2 boids in "), "%s", tc_stderr());
	cr_assert_eq(tc_boids("--help"), 0);
	cr_expect(strstr(tc_stdout(), "--warmup=N"), "%s", tc_stdout());
}
