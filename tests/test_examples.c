/*
 * Every example script runs (QUICK=1: a few frames) and makes its files.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(examples, .init = setup, .fini = teardown, .timeout = 120);

/* What an output holds, as ffprobe (not boids) reads it. */
struct probe {
	const char *file;
	const char *codec;      /* codec_name */
	int width, height;
	int frames;             /* decoded frames */
};

static void probe(const char *script, const struct probe *want)
{
	char *out;
	int st = tc_sh("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
	               "stream=codec_name,width,height,nb_read_frames -of csv=p=0 '%s' > probe.txt",
	               want->file);
	out = tc_slurp("probe.txt", NULL);
	cr_assert_eq(st, 0, "%s: ffprobe cannot read %s", script, want->file);
	char codec[64] = "";
	int w = 0, h = 0, n = 0;
	cr_assert_eq(sscanf(out, "%63[^,],%d,%d,%d", codec, &w, &h, &n), 4, "%s: %s", want->file, out);
	cr_expect_str_eq(codec, want->codec, "%s: codec %s", want->file, codec);
	cr_expect(w == want->width && h == want->height, "%s: %dx%d", want->file, w, h);
	cr_expect_eq(n, want->frames, "%s: %d frames", want->file, n);
	free(out);
}

/* Runs examples/SCRIPT with QUICK=1 and probes what it made. */
static void run(const char *script, const struct probe *outputs)
{
	int st = tc_sh("QUICK=1 BOIDS='%s' sh '%s/examples/%s' >log 2>&1", getenv("BOIDS_BIN"), SRCDIR, script);
	char *log = tc_slurp("log", NULL);
	cr_assert_eq(st, 0, "%s failed: %s", script, log);
	free(log);
	for (int i = 0; outputs[i].file; i++)
		probe(script, &outputs[i]);
}

#define PROBES(...) ((const struct probe[]){ __VA_ARGS__, { NULL, NULL, 0, 0, 0 } })

Test(examples, default_clip) { run("default-clip.sh", PROBES({ "flock.mp4", "h264", 640, 360, 3 })); }
Test(examples, readme_gif) { run("readme-gif.sh", PROBES({ "flock.gif", "gif", 320, 180, 3 })); }
Test(examples, wrap_universe) { run("wrap-universe.sh", PROBES({ "wrap.mp4", "h264", 640, 360, 3 })); }
Test(examples, big_flock)
{
	run("big-flock-1080p.sh", PROBES({ "big.mp4", "h264", 1920, 1080, 3 },
	                                 { "scaled.mp4", "h264", 1920, 1080, 3 }));
	/* QUICK means 500 boids (it once meant 5001): the closing line says */
	char *log = tc_slurp("log", NULL);
	cr_assert(log && strstr(log, "3 frames of 500 boids"), "%s", log);
	free(log);
}
Test(examples, y4m_pipe) { run("y4m-pipe.sh", PROBES({ "piped.mkv", "ffv1", 640, 360, 3 })); }
Test(examples, png_frames)
{
	run("png-frames.sh", PROBES({ "frames/f_00000.png", "png", 640, 360, 1 },
	                           { "frames/f_00002.png", "png", 640, 360, 1 },
	                           { "from-png.mp4", "h264", 640, 360, 3 }));
}

/* What the CI recipes publish (examples/ci/ run this script). */
Test(examples, publish_demo)
{
	run("publish-demo.sh", PROBES({ "public/flock.mp4", "h264", 640, 360, 3 },
	                             { "public/flock.webm", "vp9", 640, 360, 3 },
	                             { "public/poster.png", "png", 640, 360, 1 }));
	char *html = tc_slurp("public/index.html", NULL);
	cr_assert(html && strstr(html, "poster=\"poster.png\"") && strstr(html, "flock.mp4"), "%s", html);
	free(html);
	/* both recipes call it */
	const char *ci[] = { "github-actions.yml", "gitlab-ci.yml" };
	for (int i = 0; i < 2; i++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/examples/ci/%s", SRCDIR, ci[i]);
		char *y = tc_slurp(path, NULL);
		cr_assert(y && strstr(y, "examples/publish-demo.sh"), "%s does not publish", ci[i]);
		free(y);
	}
}
