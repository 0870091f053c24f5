/*
 * --list-models and --list-codecs tell the truth: every model listed runs,
 * each container's starred encoder is the one its files are written with,
 * and an encoder listed for a container writes a file that ffprobe reads.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "model_names.h"

TestSuite(lists, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup, .timeout = 120);

Test(lists, every_listed_model_runs)
{
	cr_assert_eq(tc_boids("--list-models"), 0);
	char *list = strdup(tc_stdout());
	int n = 0;
	for (char *line = strtok(list, "\n"); line; line = strtok(NULL, "\n")) {
		char name[32];
		if (*line == ' ')
			continue; /* the model's source */
		cr_assert_eq(sscanf(line, "%31s", name), 1);
		cr_expect_eq(tc_boids("-q --no-render -f 2 -n 20 -m %s", name), 0, "-m %s: %s", name,
		             tc_stderr());
		n++;
	}
	cr_expect_eq(n, MODEL_COUNT, "%d models in the registry: %d listed", MODEL_COUNT, n);
	free(list);
}

/* The codec ffprobe finds in a file. */
static char *probe_codec(const char *file)
{
	cr_assert_eq(tc_sh("ffprobe -v error -select_streams v:0 -show_entries stream=codec_name "
	                   "-of csv=p=0 '%s' > codec.txt", file), 0);
	char *c = tc_slurp("codec.txt", NULL);
	c[strcspn(c, "\n")] = 0;
	return c;
}

Test(lists, starred_encoders_are_the_defaults_and_listed_ones_work)
{
	cr_assert_eq(tc_boids("--list-codecs"), 0);
	char *out = strdup(tc_stdout());
	struct { const char *ext, *star, *codec; } want[] = {
		{ ".mp4", "libx264*", "h264" }, { ".webm", "libvpx-vp9*", "vp9" }, { ".gif", "gif*", "gif" },
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		const char *at = strstr(out, want[i].ext), *next = at ? strchr(at + 1, '.') : NULL;
		cr_assert(at, "%s is not listed:\n%s", want[i].ext, out);
		const char *star = strstr(at, want[i].star);
		cr_expect(star && (!next || star < next), "%s: no %s:\n%s", want[i].ext, want[i].star, out);
		char file[32];
		snprintf(file, sizeof file, "d%s", want[i].ext);
		cr_assert_eq(tc_boids("-q -f 2 -s 160x90 -o %s", file), 0, "%s", tc_stderr());
		char *c = probe_codec(file);
		cr_expect_str_eq(c, want[i].codec, "%s", file);
		free(c);
	}
	/* a listed, non-default encoder does what the list says */
	const char *mkv = strstr(out, ".mkv");
	cr_assert(mkv && strstr(mkv, " ffv1"), "%s", out);
	cr_assert_eq(tc_boids("-q -f 2 -s 160x90 --codec ffv1 -o f.mkv"), 0, "%s", tc_stderr());
	char *c = probe_codec("f.mkv");
	cr_expect_str_eq(c, "ffv1");
	free(c);
	free(out);
}
