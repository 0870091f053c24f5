/*
 * Couzin et al.'s collective states and collective memory, reduced from
 * docs/MODELS-FIELD.md's command: scripts/hysteresis over the orientation
 * zone 0, 1, 2, 5, 13 at the attraction zone 14 (the paper's 100 fish in
 * 3D), up and back down, three chains of 1000 steps a value (the last 300
 * measured).  Every chain must show the states in the paper's order: a
 * swarm at 0, a torus at 1 on the way up, a dynamic parallel group at 5, a
 * highly parallel one at 13, and on the way down a parallel group at 1,
 * where the way up milled (the memory), and a swarm again at 0.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

TestSuite(couzin, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup, .timeout = 600);

enum state { SWARM, TORUS, PARALLEL, HIGHLY };

static const char *const names[] = { "a swarm", "a torus", "parallel", "highly parallel" };

/* Whether polarization p and milling m (means over the measured frames) are the state. */
static int is(enum state s, double p, double m)
{
	switch (s) {
	case SWARM: return p < .35 && m < .5;
	case TORUS: return p < .35 && m > .7;
	case PARALLEL: return p > .8 && m < .3;
	default: return p > .99;
	}
}

Test(couzin, the_states_come_in_the_papers_order_and_the_way_down_remembers)
{
	cr_assert_eq(tc_sh("'%s/scripts/hysteresis' --bin \"$BOIDS_BIN\" --no-chart --out m --param couzin-orientation "
	                   "--values 0,1,2,5,13 --replicates 3 --steps 1000 --measure 300 -- -m couzin "
	                   ">out.txt 2>err.txt", SRCDIR), 0, "%s", tc_slurp("err.txt", NULL));
	const struct {
		const char *value, *sweep;
		enum state want;
	} checks[] = {
		{ "0", "up", SWARM }, { "1", "up", TORUS }, { "5", "up", PARALLEL }, { "13", "up", HIGHLY },
		{ "5", "down", PARALLEL }, { "1", "down", PARALLEL }, { "0", "down", SWARM },
	};
	FILE *f = fopen("m/table.csv", "r");
	cr_assert_not_null(f);
	char line[2048];
	cr_assert_not_null(fgets(line, sizeof line, f)); /* the header: value,sweep,chain,run,status,p,p,m,... */
	const char *head = "couzin-orientation,sweep,chain,run,status,polarization_mean,polarization_final,milling_mean,";
	cr_assert(strncmp(line, head, strlen(head)) == 0, "%s", line);
	int seen = 0;
	while (fgets(line, sizeof line, f)) {
		char value[16], sweep[8], run[32], status[16];
		int chain;
		double p, pf, m;
		cr_assert_eq(sscanf(line, "%15[^,],%7[^,],%d,%31[^,],%15[^,],%lf,%lf,%lf", value, sweep, &chain, run,
		                    status, &p, &pf, &m), 8, "%s", line);
		cr_assert_str_eq(status, "complete", "%s", line);
		for (size_t i = 0; i < sizeof checks / sizeof *checks; i++)
			if (strcmp(value, checks[i].value) == 0 && strcmp(sweep, checks[i].sweep) == 0) {
				cr_expect(is(checks[i].want, p, m), "chain %d, dr_o %s on the way %s: polarization %.3f, "
				          "milling %.3f, not %s", chain, value, sweep, p, m, names[checks[i].want]);
				seen++;
			}
	}
	fclose(f);
	cr_expect_eq(seen, 3 * 7, "the table has %d of the 21 runs checked", seen);
}
