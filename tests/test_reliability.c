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
