/*
 * Vicsek et al.'s published results (Phys. Rev. Lett. 75, 1226, 1995; its
 * Fig. 2), reproduced by scripts/sweep as docs/MODELS-FIELD.md shows, in a
 * reduced form that runs in a few minutes: fewer noises, densities, seeds
 * and steps.  What the paper reports and these check: the order parameter
 * v_a (the metrics' polarization) is near 1 at small noise and falls
 * toward 0 as the noise grows, monotonically, more steeply in the larger
 * flock (whose disordered v_a is nearer 0: about 1/sqrt(N)); and at a fixed
 * noise it grows with the density.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "sweep_util.h"

#define SWEEP "'" SRCDIR "/scripts/sweep' --bin \"$BOIDS_BIN\" --progress never"
#define STEPS "--warmup 1500 --substeps 10 --frames 50 --threads 1 --no-render"

static void setup(void) { tc_tmpdir(); }

static void teardown(void) { tc_cleanup(); }

TestSuite(vicsek, .init = setup, .fini = teardown, .timeout = 900);

/*
 * stats.csv's mean polarization for each point, by the two columns named,
 * into v[a][b] in the order of the grids (a's values slowest).
 */
static void means(const char *dir, const char *a, const char *b, int na, int nb, double v[][8])
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd,
	         "%s - >py.txt 2>&1 <<'EOF'\n"
	         "import csv\n"
	         "rows = list(csv.DictReader(open('%s/stats.csv')))\n"
	         "assert len(rows) == %d, len(rows)\n"
	         "for r in rows:\n"
	         "    assert int(r['n']) >= 2, r\n"
	         "    print(r['%s'], r['%s'], r['polarization_mean_mean'])\n"
	         "EOF",
	         tc_python(), dir, na * nb, a, b);
	int st = tc_sh("%s", cmd);
	char *out = text("py.txt");
	cr_assert_eq(st, 0, "%s/stats.csv: %s", dir, out);
	const char *p = out;
	for (int i = 0; i < na; i++)
		for (int j = 0; j < nb; j++) {
			int used = 0;
			cr_assert_eq(sscanf(p, "%*s %*s %lf\n%n", &v[i][j], &used), 1, "%s", out);
			p += used;
		}
	free(out);
}

/*
 * Fig. 2a, reduced: v_a against the noise at rho = 4 for N = 40 and 400.
 * Each curve falls monotonically (every step down at least by the noise
 * of three seeds' means), from above 0.9 at eta = 0.5; the larger flock
 * falls further (its v_a at eta = 5 below the smaller one's, and below
 * 0.2).
 */
Test(vicsek, fig2a_va_falls_with_the_noise_more_steeply_in_the_larger_flock)
{
	expect_status(sh(SWEEP " --out a --grid 'boids=40,400' --grid 'vicsek-noise=0.5,2,3.5,5' --replicates 3 "
	                 "--chart-x vicsek-noise -- -m vicsek --vicsek-density 4 " STEPS), 0, "fig. 2a's sweep");
	double v[2][8];
	means("a", "boids", "vicsek-noise", 2, 4, v);
	for (int i = 0; i < 2; i++) {
		cr_expect_gt(v[i][0], .9, "N %s, eta 0.5: v_a %g", i ? "400" : "40", v[i][0]);
		for (int j = 1; j < 4; j++)
			cr_expect_lt(v[i][j], v[i][j - 1] - .03, "N %s: v_a does not fall from eta %d to %d: %g, %g",
			             i ? "400" : "40", j - 1, j, v[i][j - 1], v[i][j]);
	}
	cr_expect_lt(v[1][3], v[0][3], "eta 5: N 400's v_a %g is not below N 40's %g", v[1][3], v[0][3]);
	cr_expect_lt(v[1][3], .2, "eta 5, N 400: v_a %g", v[1][3]);
	/* the chart: a line for each N, whatever the fields and depths the density made */
	expect_status(sh("'" SRCDIR "/scripts/chart' --x vicsek-noise --mean-over seed -o c.png --points-file p.tsv "
	                 "a/table.csv"), 0, "chart");
	expect_status(tc_sh("test \"$(cut -f1 p.tsv | sort -u | tr '\\n' ' ')\" = 'boids=40 boids=400 series '"), 0,
	              "the series are not the two flocks");
}

/* Fig. 2b, reduced: v_a against the density at eta = 2 in L = 10: it grows. */
Test(vicsek, fig2b_va_grows_with_the_density)
{
	expect_status(sh(SWEEP " --out b --grid 'vicsek-density=0.25,1,4' --replicates 3 --chart-x vicsek-density "
	                 "-- -m vicsek --field 10x10 --vicsek-noise 2 " STEPS), 0, "fig. 2b's sweep");
	double v[1][8];
	means("b", "vicsek-density", "vicsek-density", 1, 3, v);
	for (int j = 1; j < 3; j++)
		cr_expect_gt(v[0][j], v[0][j - 1] + .03, "v_a does not grow from density %d to %d: %g, %g", j - 1, j,
		             v[0][j - 1], v[0][j]);
	/* one line: the flock the density makes (boids) is no series of its own */
	expect_status(sh("'" SRCDIR "/scripts/chart' --x vicsek-density --mean-over seed -o c.png --points-file p.tsv "
	                 "b/table.csv"), 0, "chart");
	expect_status(tc_sh("test $(tail -n +2 p.tsv | cut -f1 | sort -u | wc -l) = 1 && "
	                    "test $(tail -n +2 p.tsv | wc -l) = 3"), 0, "fig. 2b is not one line of three points");
}
