/*
 * scripts/hysteresis, the chained sweep of docs/MODELS-FIELD.md, on tiny
 * flocks: each run starts from the last frame of the one before (the
 * trajectories' rows, compared as text), up through the values and back
 * down, every chain with its own seeds; bad input is one line and exit 2
 * with nothing written; a failed run ends its chain, is named, and the
 * exit is 1.  The states it finds are tests/integration/test_couzin.c's.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(hysteresis, .init = setup, .fini = teardown, .timeout = 120);

#define HYST "'" SRCDIR "/scripts/hysteresis' --no-chart"

/* The rows of frame `frame` of a trajectory CSV, each without its frame number, joined. */
static char *frame_rows(const char *path, int frame)
{
	char *t = tc_slurp(path, NULL), *out = calloc(1, t ? strlen(t) + 1 : 1);
	cr_assert(t && out, "%s", path);
	char want[16];
	int n = snprintf(want, sizeof want, "%d,", frame);
	for (char *l = strchr(t, '\n'); l && l[1]; l = strchr(l + 1, '\n'))
		if (strncmp(l + 1, want, (size_t)n) == 0)
			strncat(out, l + 1 + n, strcspn(l + 1 + n, "\n") + 1);
	free(t);
	return out;
}

/* The number after "key": in a summary, or -1. */
static double summary_number(const char *path, const char *key)
{
	char *t = tc_slurp(path, NULL), pat[64];
	cr_assert_not_null(t, "%s", path);
	snprintf(pat, sizeof pat, "\"%s\": ", key);
	const char *at = strstr(t, pat);
	double v = at ? strtod(at + strlen(pat), NULL) : -1;
	free(t);
	return v;
}

Test(hysteresis, each_run_starts_where_the_one_before_ended_up_and_back_down)
{
	cr_assert_eq(tc_sh(HYST " --bin \"$BOIDS_BIN\" --out h --param couzin-orientation --values 0,1,2 "
	                   "--replicates 2 --steps 6 --measure 6 -j 2 -- -m couzin -n 20 >out.txt 2>err.txt"), 0,
	             "%s", tc_slurp("err.txt", NULL));
	/* a chain: up 0 1 2, then down from the top: 1 0 */
	const char *order[] = { "up-00", "up-01", "up-02", "down-01", "down-00" };
	for (int c = 1; c <= 2; c++)
		for (int k = 0; k < 5; k++) {
			char run[64], prev[64], json[80];
			snprintf(run, sizeof run, "h/runs/%s-c%d.csv", order[k], c);
			snprintf(json, sizeof json, "h/runs/%s-c%d.json", order[k], c);
			/* its seed: the chain's first run c, then 1000 c + k: no two runs share their noise */
			cr_expect_eq(summary_number(json, "seed"), k ? 1000 * c + k : c, "%s", json);
			cr_expect_eq(summary_number(json, "couzin-orientation"), atoi(strrchr(order[k], '-') + 1), "%s", json);
			if (!k)
				continue;
			snprintf(prev, sizeof prev, "h/runs/%s-c%d.csv", order[k - 1], c);
			char *a = frame_rows(prev, 5), *b = frame_rows(run, 0);
			cr_expect(*a && strcmp(a, b) == 0, "%s does not start where %s ended", run, prev);
			free(a), free(b);
		}
	/* the table: a row a run, the top in both series, chain after chain */
	char *t = tc_slurp("h/table.csv", NULL);
	cr_assert_not_null(t);
	const char *head = "couzin-orientation,sweep,chain,run,status,polarization_mean,";
	cr_expect(strncmp(t, head, strlen(head)) == 0, "%s", t);
	const char *want = "0,up,1,up-00-c1,complete,";
	cr_expect(strstr(t, want), "%s", t);
	cr_expect(strstr(t, "2,down,1,up-02-c1,complete,"), "the top ends the way up and starts the way down: %s", t);
	cr_expect(strstr(t, "0,down,2,down-00-c2,complete,"), "%s", t);
	int rows = 0;
	for (char *p = t; *p; p++)
		rows += *p == '\n';
	cr_expect_eq(rows, 1 + 2 * 6, "%s", t);
	free(t);
}

Test(hysteresis, bad_input_is_one_line_and_nothing_written)
{
	const char *bad[] = {
		"--values 0,1 -- -m couzin",                                    /* no --param */
		"--param couzin-orientation --values 1,0 -- -m couzin",         /* not increasing */
		"--param couzin-orientation --values 0 -- -m couzin",           /* one value */
		"--param couzin-orientation --values 0,x -- -m couzin",
		"--param couzin-orientation --values -1,1 -- -m couzin",        /* boids refuses -1 */
		"--param couzin-orientatoin --values 0,1 -- -m couzin",         /* no such option */
		"--param couzin-orientation --values 0,1 --steps 10 --measure 20 -- -m couzin",
		"--param couzin-orientation --values 0,1 --replicates 0 -- -m couzin",
		"--param couzin-orientation --values 0,1 -- -m couzin --init t.csv", /* the script's to set */
		"--param couzin-orientation --values 0,1 -- -m couzin -f 10",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		int st = tc_sh(HYST " --bin \"$BOIDS_BIN\" --out h %s >out.txt 2>err.txt", bad[i]);
		char *err = tc_slurp("err.txt", NULL);
		cr_expect_eq(st, 2, "%s: exit %d, %s", bad[i], st, err);
		cr_expect(err && strncmp(err, "hysteresis: ", 12) == 0 && strchr(err, '\n') == err + strlen(err) - 1,
		          "%s: not one line: %s", bad[i], err);
		cr_expect_neq(access("h", F_OK), 0, "%s: h was made", bad[i]);
		free(err);
	}
	cr_assert_eq(tc_sh("mkdir h"), 0);
	cr_expect_eq(tc_sh(HYST " --bin \"$BOIDS_BIN\" --out h --param couzin-orientation --values 0,1 -- -m couzin "
	                   ">out.txt 2>err.txt"), 2, "an existing --out is refused");
}

Test(hysteresis, a_failed_run_ends_its_chain_named_and_the_exit_is_1)
{
	/* boids, except that a run at the orientation 1 fails (its checks pass) */
	FILE *f = fopen("fails", "w");
	cr_assert_not_null(f);
	fprintf(f, "#!/bin/sh\ncase \" $* \" in *' --print-config '*) ;; *' --couzin-orientation 1 '*) "
	           "echo 'boids: cannot open here: No space left on device' >&2; exit 1 ;; esac\nexec \"$BOIDS_BIN\" \"$@\"\n");
	fclose(f);
	cr_assert_eq(tc_sh("chmod 755 fails"), 0);
	int st = tc_sh(HYST " --bin ./fails --out h --param couzin-orientation --values 0,1,2 --replicates 1 "
	               "--steps 5 --measure 5 -- -m couzin -n 20 >out.txt 2>err.txt");
	char *err = tc_slurp("err.txt", NULL), *t = tc_slurp("h/table.csv", NULL);
	cr_expect_eq(st, 1, "exit %d: %s", st, err);
	cr_expect(err && strstr(err, "chain 1: up-01-c1 failed: boids: cannot open here: No space left on device"),
	          "%s", err);
	cr_expect(t && strstr(t, "0,up,1,up-00-c1,complete,") && strstr(t, "1,up,1,up-01-c1,failed,") &&
	          !strstr(t, "up-02"), "the chain goes on after its failure: %s", t);
	free(err), free(t);
}
