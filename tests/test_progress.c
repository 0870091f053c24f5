/*
 * Progress reports where they go when stderr is not a terminal: plain lines
 * with no control characters in a file, one JSON object per line for
 * programs.  The bar on a terminal needs a pseudo-terminal from the machine:
 * tests/integration/progress_tty.c.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "progress.h"

TestSuite(progress, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup);

Test(progress, always_off_a_terminal_writes_plain_lines)
{
	cr_assert_eq(tc_boids("--no-render -f 40 -n 500 --progress always --progress-interval 0.1"), 0);
	const char *e = tc_stderr();
	cr_assert(strstr(e, "boids: 40/40 frames (100%)"), "%s", e);
	for (const char *c = e; *c; c++)
		cr_assert(*c == '\n' || (*c >= ' ' && *c < 127), "control character %d in '%s'", *c, e);
}

Test(progress, json_is_one_object_per_line_ending_at_the_total)
{
	cr_assert_eq(tc_boids("--no-render -q -f 25 -n 500 --progress json --progress-interval 0.1"), 0);
	FILE *f = fopen("p.jsonl", "w");
	cr_assert_not_null(f);
	fputs(tc_stderr(), f);
	fclose(f);
	/* an independent parser: every line is an object; the progress events
	 * have the four numbers and climb to the total; the end closes */
	cr_assert_eq(tc_sh("%s -c 'import json,sys\n"
	                   "rows=[json.loads(l) for l in open(\"p.jsonl\")]\n"
	                   "p=[r for r in rows if r[\"event\"]==\"progress\"]\n"
	                   "assert p and all(set(r)>={\"frame\",\"total\",\"fps\",\"eta\"} for r in p)\n"
	                   "assert p[-1][\"frame\"]==p[-1][\"total\"]==25\n"
	                   "assert [r[\"frame\"] for r in p]==sorted(set(r[\"frame\"] for r in p))\n"
	                   "assert rows[-1]==dict(rows[-1],event=\"end\",status=0,frames=25,boids=500,output=None)'",
	                   tc_python()), 0);
}

/* 0 when every line of FILE is one JSON object of the schema, the last the
 * "end" event with STATUS, and one of them an EVENT event (Python's parser
 * judges; the file is printed when it fails). */
static int every_line_is_json(const char *file, int status, const char *event)
{
	return tc_sh("%s -c 'import json,sys\n"
	             "lines=open(\"%s\",\"rb\").read().decode(\"utf-8\").split(\"\\n\")\n"
	             "assert lines[-1]==\"\", \"no newline at the end\"\n"
	             "rows=[json.loads(l) for l in lines[:-1]]\n"
	             "assert all(type(r) is dict and r[\"event\"] in (\"progress\",\"error\",\"warning\",\"info\",\"end\") for r in rows)\n"
	             "assert all(type(r[\"message\"]) is str for r in rows if r[\"event\"] in (\"error\",\"warning\",\"info\"))\n"
	             "assert [r[\"event\"] for r in rows].count(\"end\")==1 and rows[-1][\"event\"]==\"end\"\n"
	             "assert rows[-1][\"status\"]==%d, rows[-1]\n"
	             "assert \"%s\" in [r[\"event\"] for r in rows], rows' || { cat '%s'; exit 1; }",
	             tc_python(), file, status, event, file);
}

/*
 * --progress json: every line on stderr is one JSON object whatever
 * happens (the schema in docs/boids.1), checked by Python's parser on runs
 * that succeed, are refused (exit 2: a bad value, a bad file, a config
 * file's bad line), fail (exit 1: a full disk) and warn (an
 * odd picture padded).  The last line is the "end" event with the exit
 * status.  An interrupted run: tests/integration/test_stopping.c.
 */
Test(progress, json_every_line_of_every_run_is_an_object)
{
	static const struct { const char *args; int status; const char *event; } runs[] = {
		{ "--no-render -f 5 -n 20", 0, "progress" },
		{ "-f 2 -n 20 --look harden-windows -o odd.y4m", 0, "warning" },
		{ "--fps abc", 2, "error" },
		{ "-f 2 -o nothere/a.mp4", 2, "error" },
		{ "--config bad.cfg", 2, "error" },
		{ "--init missing.csv -f 2", 2, "error" },
		{ "--no-render -f 3 -n 20 -y --trajectory /dev/full", 1, "error" },
		{ "--verbose -f 2 -n 20 -s 160x90 -o v.y4m", 0, "info" },
	};
	FILE *cfg = fopen("bad.cfg", "w");
	cr_assert_not_null(cfg);
	fputs("progress = json\nboids = many\n", cfg);
	fclose(cfg);
	for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
		const char *json = i == 4 ? "" : "--progress json --progress-interval 0.1 ";
		int st = tc_boids("%s%s", json, runs[i].args);
		cr_expect_eq(st, runs[i].status, "%s: exit %d", runs[i].args, st);
		FILE *f = fopen("err.jsonl", "w");
		cr_assert_not_null(f);
		fputs(tc_stderr(), f);
		fclose(f);
		cr_assert_eq(every_line_is_json("err.jsonl", runs[i].status, runs[i].event), 0, "%s", runs[i].args);
	}
}

Test(progress, never_and_quiet_write_nothing)
{
	cr_assert_eq(tc_boids("--no-render -f 3 --progress never -q"), 0);
	cr_assert_str_empty(tc_stderr());
	cr_assert_eq(tc_boids("--no-render -f 3 -q"), 0);
	cr_assert_str_empty(tc_stderr());
}

/*
 * The same where the binary cannot load its video plugin (a copy of it in a
 * directory without boids-video.so, as an install missing a file): the
 * refusal is an "error" event and the "end" event closes the stream with
 * exit 1.  It starts the binary: the test binary links the video module
 * itself, without the loader.
 */
Test(progress, json_every_line_when_the_video_plugin_is_missing)
{
	const char *bin = getenv("BOIDS_BIN");
	cr_assert_not_null(bin, "BOIDS_BIN is not set (run the suite with make test)");
	cr_assert_eq(tc_sh("mkdir -p lone/bin && cp '%s' lone/bin/boids", bin), 0);
	int st = tc_sh("lone/bin/boids --progress json -f 1 -n 5 -s 32x32 -o v.mp4 2> err.jsonl");
	cr_expect_eq(st, 1, "exit %d", st);
	cr_assert_eq(every_line_is_json("err.jsonl", 1, "error"), 0);
	char *err = tc_slurp("err.jsonl", NULL);
	cr_expect(err && strstr(err, "cannot load the video module"), "%s", err ? err : "");
	free(err);
	cr_expect_neq(tc_sh("ls | grep -q mp4"), 0, "an mp4 (or its temporary) exists");
}

/*
 * --warmup is shown as the warm-up, not as frame 1: the JSON events of the
 * warm-up say "phase":"warm-up" with the steps made of the total (the last
 * one always comes), all before the frames' events; the time left in the
 * warm-up covers the frames too (at the warm-up's rate, a frame costs a
 * step: eta = frames / steps a second at its end); the "end" event says
 * the warm-up's steps and seconds apart from the frames' rate.
 */
Test(progress, json_shows_the_warm_up_as_steps_then_the_frames)
{
	cr_assert_eq(tc_boids("--no-render -q -f 400 -n 500 --warmup 40 --progress json --progress-interval 0.1"), 0);
	FILE *f = fopen("p.jsonl", "w");
	cr_assert_not_null(f);
	fputs(tc_stderr(), f);
	fclose(f);
	cr_assert_eq(tc_sh("%s -c 'import json\n"
	                   "rows=[json.loads(l) for l in open(\"p.jsonl\")]\n"
	                   "p=[r for r in rows if r[\"event\"]==\"progress\"]\n"
	                   "w=[r for r in p if r.get(\"phase\")==\"warm-up\"]\n"
	                   "assert w, rows\n"
	                   "assert p[:len(w)]==w, \"a frame before the warm-up ended\"\n"
	                   "assert all(r[\"phase\"]==\"frames\" for r in p[len(w):]), rows\n"
	                   "assert all(r[\"warmup_total\"]==40 and r[\"frame\"]==0 for r in w), w\n"
	                   "k=[r[\"warmup\"] for r in w]\n"
	                   "assert k==sorted(set(k)) and k[-1]==40, k\n"
	                   "e=w[-1]\n"
	                   "assert e[\"eta\"]>0 and abs(e[\"eta\"]-e[\"elapsed\"]*400/40)<=0.006, e\n"
	                   "assert p[-1][\"frame\"]==400, p[-1]\n"
	                   "end=rows[-1]\n"
	                   "assert end[\"event\"]==\"end\" and end[\"warmup_steps\"]==40, end\n"
	                   "assert 0<=end[\"warmup_seconds\"]<=end[\"seconds\"], end' || { cat p.jsonl; exit 1; }",
	                   tc_python()), 0);
}

/* The plain lines and the closing line: the warm-up's steps, then the frames' rate apart. */
Test(progress, lines_and_the_closing_line_give_the_warm_up_apart)
{
	cr_assert_eq(tc_boids("--no-render -f 20 -n 300 --warmup 30 --progress lines --progress-interval 0.1"), 0);
	const char *e = tc_stderr();
	cr_assert(strstr(e, "boids: warm-up 30/30 steps (100%), "), "%s", e);
	cr_assert(strstr(e, " steps/s, "), "%s", e);
	cr_assert(strstr(e, "boids: 20 frames of 300 boids in "), "%s", e);
	cr_assert(strstr(e, " fps, after a warm-up of 30 steps in "), "%s", e);
	cr_assert(!strstr(e, "(0.0 fps"), "%s", e);
	cr_assert_lt(strstr(e, "warm-up 30/30"), strstr(e, "frames ("), "%s", e);
	/* without a warm-up, as before */
	cr_assert_eq(tc_boids("--no-render -f 3 -n 30"), 0);
	cr_assert(strstr(tc_stderr(), " fps) -> nothing written\n") && !strstr(tc_stderr(), "warm-up"),
	          "%s", tc_stderr());
}

/*
 * A long warm-up step shows it moves as a warm-up step, not as "frame 1 NN%
 * stepped".
 */
Test(progress, a_long_warm_up_step_is_reported_as_a_step)
{
	struct progress bar;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(f);
	progress_start(&bar, f, PROGRESS_LINES, 5, 1e-9);
	progress_warmup_start(&bar, 10, 1);
	while (progress_now() == bar.start)
		; /* one interval, a nanosecond, has passed */
	progress_warmup(&bar, 3);
	double was = progress_now();
	while (progress_now() == was)
		;
	progress_step(&bar, 0, 0.25);
	progress_warmup_end(&bar);
	progress_update(&bar, 5);
	fclose(f);
	cr_assert(strstr(text, "boids: warm-up 3/10 steps (30%), "), "%s", text);
	cr_assert(strstr(text, "boids: warm-up 3/10 steps (30%), step 4 25.0% done, 0 s so far\n"), "%s", text);
	cr_assert(strstr(text, "boids: 5/5 frames (100%), "), "%s", text);
	cr_assert(!strstr(text, "frame 1"), "%s", text);
	free(text);
}
