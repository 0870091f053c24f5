/*
 * Reliability as a user meets it: bad paths and broken pipes are errors
 * naming the path, and nothing half-written is left under a final name.
 * Signals, full disks and unwritable directories need the machine: they are
 * in tests/integration/reliability.c (make test-integration).
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "frameq.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(reliability, .init = setup, .fini = teardown, .timeout = 120);

Test(reliability, missing_directory_and_directory_paths_exit_2_before_work)
{
	cr_assert_eq(tc_boids("-o nodir/v.mp4"), 2);
	cr_assert(strstr(tc_stderr(), "'nodir/v.mp4'"), "%s", tc_stderr());
	mkdir("d.mp4", 0755);
	cr_assert_eq(tc_boids("-y -o d.mp4"), 2);
	cr_assert(strstr(tc_stderr(), "'d.mp4' is a directory"), "%s", tc_stderr());
	cr_assert_eq(tc_boids("-o nodir/f_%%03d.png"), 2);
	cr_assert_eq(tc_count_files("."), 1);
}

Test(reliability, broken_pipe_is_an_error_not_a_crash)
{
	int st = tc_sh("bash -c 'set -o pipefail; \"%s\" -f 300 -o - 2>err.txt | head -c 100 >/dev/null'", getenv("BOIDS_BIN"));
	cr_assert_eq(st, 1, "exit %d", st);
	char *err = tc_slurp("err.txt", NULL);
	cr_assert(strstr(err, "Broken pipe"), "%s", err);
	free(err);
}

Test(reliability, huge_requests_are_refused_before_allocating)
{
	cr_assert_eq(tc_boids("-n 10000001"), 2);
	cr_assert_eq(tc_boids("-s 20000x20000"), 2);
	cr_assert_eq(tc_boids("-f 100000001"), 2);
	/* each within its limit, together beyond the machine's memory */
	cr_assert_eq(tc_boids("-n 10000000 --trail 1000 -f 1"), 2);
	cr_assert(strstr(tc_stderr(), "GiB of memory"), "%s", tc_stderr());
	cr_assert_eq(tc_count_files("."), 0);
}

Test(reliability, extreme_weights_never_give_non_finite_numbers)
{
	/* beyond the stated bounds: refused */
	cr_assert_eq(tc_boids("--flock-weight 1e300"), 2);
	cr_assert(strstr(tc_stderr(), "-1000000 to 1000000"), "%s", tc_stderr());
	/* at the bounds: every number stays finite, in the CSV and the picture */
	cr_assert_eq(tc_boids("-q --no-render -f 50 -n 500 --flock-weight 1e6 --avoid-weight -1e6 "
	                      "--align-weight 1e6 --predator-weight 1e6 --avoid-radius 1e6 "
	                      "--predator-radius 1e6 --max-speed 1e6 --trajectory t.csv"), 0);
	cr_assert_eq(tc_sh("grep -Eqi 'nan|inf' t.csv"), 1, "non-finite numbers in the trajectory");
	cr_assert_eq(tc_boids("-q -f 5 --flock-weight 1e6 --avoid-weight -1e6 -o v.y4m"), 0);
}

/* ------------------------------------------------------------- the queue */

struct qctx { struct frameq *q; long made; };

static void *qproducer(void *arg)
{
	struct qctx *c = arg;
	long k;
	for (k = 0; k < 1000; k++) {
		struct frameq_slot *s = frameq_get_empty(c->q);
		if (!s)
			break;
		s->frame = k;
		frameq_put_stepped(c->q, s);
	}
	c->made = k;
	frameq_close(c->q, k);
	return NULL;
}

static void *qdrawer(void *arg)
{
	struct qctx *c = arg;
	struct frameq_slot *s;
	while ((s = frameq_get_stepped(c->q))) {
		if (s->frame % 7 == 0) /* out of order on purpose: some frames take longer */
			for (volatile int spin = 0; spin < 20000; spin++)
				;
		frameq_put_drawn(c->q, s);
	}
	return NULL;
}

Test(reliability, frame_queue_delivers_every_frame_in_order)
{
	struct qctx c = { frameq_new(5), 0 };
	pthread_t p, d[3];
	pthread_create(&p, NULL, qproducer, &c);
	for (int i = 0; i < 3; i++)
		pthread_create(&d[i], NULL, qdrawer, &c);
	long expect = 0;
	struct frameq_slot *s;
	while ((s = frameq_get_drawn(c.q))) {
		cr_assert_eq(s->frame, expect);
		expect++;
		frameq_put_empty(c.q, s);
	}
	pthread_join(p, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(d[i], NULL);
	cr_assert_eq(expect, 1000);
	frameq_free(c.q);
}

Test(reliability, a_png_that_cannot_be_created_stops_the_run)
{
	/* the final name fits NAME_MAX, its temporary name does not: used to hang,
	 * now refused before any work (issue 14: fail early) */
	char name[300];
	memset(name, 'p', 244);
	strcpy(name + 244, "%d.png");
	cr_assert_eq(tc_boids("-q -f 5 -o %s", name), 2, "%s", tc_stderr());
	cr_assert(strstr(tc_stderr(), "too long for the temporary file"), "%s", tc_stderr());
	cr_assert_eq(tc_count_files("."), 0);
}

Test(reliability, the_same_file_under_two_names_is_refused)
{
	cr_assert_eq(tc_boids("-y -f 2 -o a.y4m --summary ./a.y4m"), 2);
	cr_assert(strstr(tc_stderr(), "is also the --output"), "%s", tc_stderr());
	mkdir("d", 0755);
	cr_assert_eq(tc_boids("-y -f 2 --no-render --trajectory t.csv --metrics d/../t.csv"), 2);
	cr_assert_eq(tc_count_files("."), 1);
}

/*
 * Reads a summary with Python's json (an independent parser) and prints
 * "STATUS OPTION:FRAMES:ERROR ..." for its outputs, into out.txt; returns
 * that text (malloc'ed), or NULL when the file is not valid JSON.
 */
static char *summary_digest(const char *path)
{
	if (tc_sh("%s -c 'import json\n"
	          "d = json.load(open(\"%s\"))\n"
	          "print(d[\"status\"], \" \".join(\"%%s:%%d:%%s\" %% (k, o[\"frames\"], o[\"error\"])"
	          " for k, o in d[\"outputs\"].items()), d[\"error\"])' > out.txt", tc_python(), path) != 0)
		return NULL;
	return tc_slurp("out.txt", NULL);
}

/*
 * The summary is the truth: an output that fails (a .csv.zst or .csv.gz
 * trajectory, the metrics, a video, each on a full disk: a link to
 * /dev/full, written through with -y) makes the run exit 1 and its summary
 * say "failed", naming that output with the error it got and 0 frames; the
 * outputs that did not fail say theirs.  It used to say "complete", 20/20.
 */
Test(reliability, a_failed_output_makes_the_summary_say_failed_and_why)
{
	static const struct { const char *link, *args, *want; } runs[] = {
		{ "t.csv.zst", "--no-render --trajectory t.csv.zst --metrics m.csv",
		  "failed trajectory:0:cannot write 't.csv.zst': No space left on device metrics:20:None None\n" },
		{ "t.csv.gz", "--no-render --trajectory t.csv.gz",
		  "failed trajectory:0:cannot write 't.csv.gz': No space left on device None\n" },
		{ "m.csv", "--no-render --metrics m.csv --trajectory t.csv",
		  "failed trajectory:20:None metrics:0:cannot write 'm.csv': No space left on device None\n" },
		{ "v.y4m", "-s 64x36 -o v.y4m --trajectory t.csv",
		  "failed output:0:cannot write 'v.y4m': No space left on device trajectory:0:None None\n" },
	};
	for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
		cr_assert_eq(tc_sh("rm -f ./* && ln -s /dev/full %s", runs[i].link), 0);
		int st = tc_boids("-q -f 20 -n 50 -y --summary s.json %s", runs[i].args);
		cr_expect_eq(st, 1, "%s: exit %d: %s", runs[i].link, st, tc_stderr());
		char *d = summary_digest("s.json");
		cr_expect(d && !strcmp(d, runs[i].want), "%s: the summary says\n%s\nnot\n%s", runs[i].link, d,
		          runs[i].want);
		free(d);
	}
}

/*
 * Each output says the frames its file holds, and they are there: 7 frames
 * asked, the video's 7 (y4m: counted from its size), the trajectory's 3
 * with --trajectory-every 3 (frames 0, 3, 6), the metrics' 7 rows.
 */
Test(reliability, the_summary_says_each_outputs_frames)
{
	cr_assert_eq(tc_boids("-q -f 7 -n 10 -s 64x36 -o v.y4m --trajectory t.csv --trajectory-every 3 "
	                      "--metrics m.csv --summary s.json"), 0, "%s", tc_stderr());
	char *d = summary_digest("s.json");
	cr_expect(d && !strcmp(d, "complete output:7:None trajectory:3:None metrics:7:None None\n"), "%s", d);
	free(d);
	struct stat st;
	cr_assert_eq(stat("v.y4m", &st), 0);
	char *y = tc_slurp("v.y4m", NULL);
	size_t header = (size_t)(strchr(y, '\n') - y) + 1, frame = 6 + 64 * 36 * 3 / 2;
	cr_expect_eq(((size_t)st.st_size - header) / frame, 7u);
	free(y);
	cr_expect_eq(tc_sh("test $(wc -l < t.csv) -eq $((1 + 3 * 10)) && test $(wc -l < m.csv) -eq 8"), 0);
}
