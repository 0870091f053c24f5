/*
 * The sweep's Python, without running a sweep: the package scripts/boidsweep/
 * behind five thin entry points (no module loading another script by path,
 * no module over ~500 lines, nothing written beside them), installed by
 * `make install` where its entry points find it.
 */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "metrics.h"
#include "video.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(sweep_tools, .init = setup, .fini = teardown, .timeout = 120);

/* the caller's environment may keep Python from writing bytecode anywhere */
#define NOENV "env -u PYTHONDONTWRITEBYTECODE "

static const char *const tools[] = { "sweep", "sweep-table", "sweep-report", "chart", "contact-sheet",
                                     "hysteresis" };

/* A command's status, its output in out.txt and err.txt. */
static int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int run(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	return tc_sh("%s >out.txt 2>err.txt", cmd);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether out.txt or err.txt holds want. */
static int said(const char *file, const char *want)
{
	char *t = tc_slurp(file, NULL);
	int yes = t && strstr(t, want);
	free(t);
	return yes;
}

/*
 * Each tool is a few lines that import the package; no file of scripts/
 * loads another through importlib (or by its path); every module is named
 * .py and under 500 lines.
 */
Test(sweep_tools, the_tools_are_thin_entry_points_into_one_package)
{
	for (size_t i = 0; i < sizeof tools / sizeof *tools; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/scripts/%s", SRCDIR, tools[i]);
		cr_assert_eq(run("test $(wc -l < '%s') -le 30", path), 0, "scripts/%s is not a thin entry point", tools[i]);
		cr_assert_eq(run("grep -q '^from boidsweep import' '%s'", path), 0, "scripts/%s does not use the package",
		             tools[i]);
	}
	cr_assert_neq(run("grep -rlE 'importlib|SourceFileLoader|exec\\(' '%s/scripts'", SRCDIR), 0,
	              "a script loads another by its path: %s", tc_slurp("out.txt", NULL));
	cr_assert_eq(run("ls '%s/scripts/boidsweep' | grep -v '\\.py$' | grep -v __pycache__ | wc -l | grep -qx 0",
	                 SRCDIR), 0, "a module of boidsweep/ is not named .py");
	cr_assert_eq(run("wc -l '%s'/scripts/boidsweep/*.py | awk '$2 != \"total\" && $1 > 500' | tee big.txt | wc -l | "
	                 "grep -qx 0", SRCDIR), 0, "modules over 500 lines: %s", tc_slurp("big.txt", NULL));
}

/*
 * `make install` puts the package beside the installed tools and links them
 * into PREFIX/bin as boids-sweep...; each runs from there (by its link) and
 * writes no bytecode, there or in the checkout.
 */
Test(sweep_tools, make_install_installs_the_package_and_its_tools_run_from_there)
{
	cr_assert_eq(run("make -s -C '%s' install-sweep DESTDIR=\"$PWD/root\" PREFIX=/usr", SRCDIR), 0,
	             "make install-sweep: %s", tc_slurp("err.txt", NULL));
	cr_assert_eq(run("(cd '%s/scripts/boidsweep' && for f in *.py; do cmp \"$f\" \"$OLDPWD/root/usr/share/boids/"
	                 "scripts/boidsweep/$f\" || exit 1; done)", SRCDIR), 0, "a module is not installed: %s",
	             tc_slurp("err.txt", NULL));
	for (size_t i = 0; i < sizeof tools / sizeof *tools; i++) {
		char cmd[4096];
		snprintf(cmd, sizeof cmd, NOENV "'%s' root/usr/bin/boids-%s --help", tc_python(), tools[i]);
		cr_assert_eq(run("%s", cmd), 0, "boids-%s --help: %s", tools[i], tc_slurp("err.txt", NULL));
		cr_assert(said("out.txt", "sage") || said("out.txt", "DIR"), "boids-%s --help says nothing", tools[i]);
	}
	/* the installed sweep asks the binary about its options and counts the grid */
	cr_assert_eq(run(NOENV "'%s' root/usr/bin/boids-sweep --bin \"$BOIDS_BIN\" --grid 'seed=1,2,3' "
	                 "--grid 'align-weight=0,1' --count", tc_python()), 0, "%s", tc_slurp("err.txt", NULL));
	char *out = tc_slurp("out.txt", NULL);
	cr_assert_str_eq(out, "6\n");
	free(out);
	cr_assert_eq(run(NOENV "'%s' root/usr/bin/boids-chart --sise 3 t.csv", tc_python()), 2);
	cr_assert(said("err.txt", "chart: unknown option '--sise' (did you mean --size?)\n"), "%s",
	          tc_slurp("err.txt", NULL));
	cr_assert_eq(run("find root '%s/scripts' -name __pycache__ -o -name '*.pyc'", SRCDIR), 0);
	cr_assert(!said("out.txt", "/"), "bytecode written beside the package: %s", tc_slurp("out.txt", NULL));
}

/*
 * Every reader of what a sweep reads back (summaries, sweep.json, the grid,
 * the job log, markers, a table given to chart) on random, deep (100,000
 * nested brackets), huge, mistyped and undecodable inputs: a bad row or a
 * one-line error, never a traceback (tests/sweep/fuzz_readers.py, seeded).
 */
Test(sweep_tools, the_readers_take_any_input_without_a_traceback)
{
	int st = run("'%s' '%s/tests/sweep/fuzz_readers.py' '%s'", tc_python(), SRCDIR, SRCDIR);
	cr_assert_eq(st, 0, "%s%s", tc_slurp("out.txt", NULL), tc_slurp("err.txt", NULL));
}

/*
 * The study's statistics against computations written in the test
 * (tests/sweep/study_checks.py): the Sobol indices of the Ishigami function
 * through the sweep's own Saltelli design and analysis at N = 4096 within
 * 0.05 of the analytic ones; the bounded intervals (logit, log) by their
 * formulas; Welch's p by the Welch-Satterthwaite formula and the adjustment
 * for the data's best by hand; ten equal points told apart from the best in
 * at most 7% of 400 draws; the replicates a test needs against a simulation of
 * its power; the answer's words; a round of --replicates auto; the Latin
 * hypercube's strata and Saltelli's blocks; a python3 without SciPy handing
 * a tool over to Debian's.
 */
Test(sweep_tools, the_statistics_hold_against_independent_computations)
{
	int st = run("'%s' '%s/tests/sweep/study_checks.py' '%s'", tc_python(), SRCDIR, SRCDIR);
	cr_assert_eq(st, 0, "%s%s", tc_slurp("out.txt", NULL), tc_slurp("err.txt", NULL));
}

/*
 * The sweep's --ext takes the kinds of video boids -o writes, no more and
 * no fewer: its own list (boidsweep/grid.py, VIDEO_EXTS) against the video
 * module's containers (video_extensions()).
 */
Test(sweep_tools, the_sweeps_video_kinds_are_the_ones_boids_writes)
{
	int st = run("PYTHONPATH='%s/scripts' '%s' -B -c 'from boidsweep.grid import VIDEO_EXTS; "
	             "print(\" \".join(sorted(\".\" + e for e in VIDEO_EXTS)))'", SRCDIR, tc_python());
	cr_assert_eq(st, 0, "%s", tc_slurp("err.txt", NULL));
	char *sweep = tc_slurp("out.txt", NULL), list[256], *save;
	cr_assert_not_null(sweep);
	const char *ext[32];
	size_t n = 0;

	snprintf(list, sizeof list, "%s", video_extensions()); /* ".mp4, .mov, ..." */
	for (char *t = strtok_r(list, ", ", &save); t && n < 32; t = strtok_r(NULL, ", ", &save))
		ext[n++] = t;
	qsort(ext, n, sizeof *ext, by_name);
	char want[256] = "";
	for (size_t i = 0; i < n; i++)
		snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", i ? " " : "", ext[i]);
	sweep[strcspn(sweep, "\n")] = 0;
	cr_expect_str_eq(sweep, want, "the sweep's --ext takes %s, boids -o writes %s", sweep, want);
	free(sweep);
}

/*
 * The sweep knows the metrics boids measures, in their order: its list
 * (boidsweep/common.py, METRICS: what --chart-y, the tables and the report
 * take from each summary) against metrics_name(), which the CSV header and
 * the summary's keys come from; and each has its range in stats.py's
 * BOUNDS, which choose its confidence interval.
 */
Test(sweep_tools, the_sweeps_metrics_are_the_ones_boids_measures)
{
	int st = run("PYTHONPATH='%s/scripts' '%s' -B -c 'from boidsweep.common import METRICS; "
	             "from boidsweep.stats import BOUNDS; print(\",\".join(METRICS)); "
	             "print(\"bounds:\", \",\".join(sorted(set(METRICS) ^ set(BOUNDS))))'",
	             SRCDIR, tc_python());
	cr_assert_eq(st, 0, "%s", tc_slurp("err.txt", NULL));
	char *sweep = tc_slurp("out.txt", NULL), want[512] = "";
	cr_assert_not_null(sweep);
	for (size_t i = 0; i < METRICS_COUNT; i++)
		snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", i ? "," : "", metrics_name(i));
	char *bounds = strstr(sweep, "\nbounds:");
	cr_assert_not_null(bounds, "%s", sweep);
	*bounds++ = 0;
	cr_expect_str_eq(sweep, want, "the sweep knows the metrics %s, boids measures %s", sweep, want);
	cr_expect_str_eq(bounds, "bounds: \n", "stats.py's BOUNDS and the metrics differ by: %s", bounds + 8);
	free(sweep);
}

/* The study's options refused before anything is made: exit 2, one line. */
Test(sweep_tools, the_study_options_are_refused_in_one_line)
{
	static const struct { const char *args, *says; } cases[] = {
		{ "--range 'align-weight=0:1'", "--range needs --sample lhs:N or sobol:N" },
		{ "--grid 'seed=1,2' --sample lhs:8", "--sample needs the parameters as --range NAME=LO:HI" },
		{ "--range 'align-weight=0:1:log' --sample lhs:4", "need LO < HI, both above 0 on a log scale" },
		{ "--range 'align-weight=1:0' --sample lhs:4", "need LO < HI" },
		{ "--range 'aling-weight=0:1' --sample lhs:4", "(did you mean align-weight?)" },
		{ "--range 'model=0:1' --sample lhs:4", "'model' is not a numeric option of boids" },
		{ "--range 'boids=1.2:1.8' --sample lhs:4", "--boids takes whole numbers, and there is none from 1.2 to 1.8" },
		{ "--range 'align-weight=0:1' --sample lhs:0", "is not lhs:N or sobol:N" },
		{ "--range 'align-weight=0:1' --sample halton:8", "is not lhs:N or sobol:N" },
		{ "--grid 'align-weight=0,1' --replicates auto", "give --goal METRIC:max|min" },
		{ "--grid 'align-weight=0,1' --replicates auto:1 --goal polarization:max", "MAX is a number from 2" },
		{ "--range 'align-weight=0:1' --sample lhs:4 --replicates auto --goal polarization:max",
		  "not of a --sample (give --replicates K)" },
		{ "--grid 'align-weight=0,1' --goal polarisation:max", "(did you mean polarization?)" },
		{ "--grid 'align-weight=0,1' --goal polarization:most", "is not METRIC:max or METRIC:min" },
		{ "--grid 'edges=wrap,bounce' --range 'align-weight=0:1' --sensitivity polarization",
		  "--sensitivity samples its --range parameters: give no --grid" },
		{ "--range 'align-weight=0:1' --sensitivity polarization --sample lhs:8", "from a Sobol sequence" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		int st = run("'%s' '%s/scripts/sweep' --bin \"$BOIDS_BIN\" --out s %s -- --no-render", tc_python(), SRCDIR,
		             cases[i].args);
		char *e = tc_slurp("err.txt", NULL);
		cr_expect_eq(st, 2, "exit %d for %s: %s", st, cases[i].args, e);
		cr_expect(e && strstr(e, cases[i].says) && strncmp(e, "sweep: ", 7) == 0 &&
		          strchr(e, '\n') == e + strlen(e) - 1, "%s: not one line saying '%s': %s", cases[i].args,
		          cases[i].says, e ? e : "");
		free(e);
	}
	cr_assert_eq(access("s", F_OK), -1, "a refused sweep made its directory");
}

/*
 * boids --check-configs goes on past a refused line: the set-up lists every
 * refused point at once, a line each (the first 50), then their count;
 * one refused point is one line; nothing is made.
 */
Test(sweep_tools, the_set_up_reports_every_refused_point_at_once)
{
	int st = run("'%s' '%s/scripts/sweep' --bin \"$BOIDS_BIN\" --out s --grid 'align-weight=x,0,y' --grid 'seed=1,2' "
	             "-- --no-render", tc_python(), SRCDIR);
	char *e = tc_slurp("err.txt", NULL);
	cr_assert_eq(st, 2, "%s", e);
	const char *want[] = { "sweep: --grid: point align-weight=x,seed=1: --align-weight: 'x' is not a number",
		               "sweep: --grid: point align-weight=x,seed=2: --align-weight: 'x' is not a number",
		               "sweep: --grid: point align-weight=y,seed=1: --align-weight: 'y' is not a number",
		               "sweep: --grid: point align-weight=y,seed=2: --align-weight: 'y' is not a number",
		               "sweep: --grid: 4 of 6 points refused; nothing was run\n" };
	const char *at = e;
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		cr_assert(at && strncmp(at, want[i], strlen(want[i])) == 0, "line %zu is not '%s':\n%s", i + 1, want[i], e);
		at = strchr(at, '\n') + 1;
	}
	cr_assert_eq(*at, 0, "more lines than the refused points and their count:\n%s", e);
	free(e);
	st = run("'%s' '%s/scripts/sweep' --bin \"$BOIDS_BIN\" --out s --grid \"align-weight=0,$(seq -s, -f 'x%%g' 1 60)\" "
	         "-- --no-render", tc_python(), SRCDIR);
	e = tc_slurp("err.txt", NULL);
	cr_assert_eq(st, 2, "%s", e);
	cr_assert(strstr(e, "point align-weight=x50:") && !strstr(e, "point align-weight=x51:") &&
	          strstr(e, "sweep: --grid: 60 of 61 points refused (10 not listed); nothing was run\n"), "%s", e);
	free(e);
	cr_assert_eq(access("s", F_OK), -1, "a refused sweep made its directory");
}
