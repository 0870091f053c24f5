/*
 * A study answers its question (docs/SWEEPS.md, "A study, from question to
 * answer"), run for real on tiny flocks: --goal's answer in answer.json,
 * the report's first section and the sweep's last line, checked against a
 * Welch test computed here from the summaries; --replicates auto adding
 * seeds to the points still in contention only; --sample lhs and sobol
 * points run, resumed and submitted like grid points; --sensitivity's
 * indices in a table, a chart and the report.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "sweep_util.h"

#define SWEEP "'" SRCDIR "/scripts/sweep' --bin \"$BOIDS_BIN\""
#define FAST "--frames 20 --boids 30 --threads 1"

static void setup(void) { tc_tmpdir(); }

static void teardown(void) { tc_cleanup(); }

TestSuite(study, .init = setup, .fini = teardown, .timeout = 600);

/* A Python check (a heredoc) in the test's directory: its output on failure. */
static void check(const char *what, const char *py)
{
	int st = tc_sh("'%s' - >py.txt 2>&1 <<'EOF'\n%s\nEOF", tc_python(), py);
	char *out = text("py.txt");
	cr_assert_eq(st, 0, "%s: %s", what, out);
	free(out);
}

/*
 * Fewer clusters with a larger flock radius: the answer names the best
 * point, its mean and interval as stats.csv has them, the runner-up, and
 * the Welch test (p computed here from the summaries, adjusted for the 3
 * pairs of the 3 points); the same sentence opens the report and ends the
 * output.
 */
Test(study, the_goal_is_answered_first)
{
	expect_status(sh(SWEEP " --out g --grid 'flock-radius=2,40,60' --replicates 3 --goal clusters_final:min "
	                 FAST " -- --no-render"), 0, "a sweep with a goal");
	check("answer.json",
	      "import csv, html, json, math, re\n"
	      "from scipy import stats\n"
	      "a = json.load(open('g/answer.json'))\n"
	      "rows = list(csv.DictReader(open('g/table.csv')))\n"
	      "val = lambda r: [float(x['clusters_final']) for x in rows if x['flock-radius'] == r]\n"
	      "means = {r: sum(val(r)) / 3 for r in ('2', '40', '60')}\n"
	      "best = min(means, key=means.get)\n"
	      "assert a['goal'] == {'column': 'clusters_final', 'direction': 'min'}, a['goal']\n"
	      "assert a['best']['point'] == 'flock-radius=' + best and a['best']['n'] == 3, a['best']\n"
	      "assert math.isclose(a['best']['mean'], means[best]), a['best']\n"
	      "st = [s for s in csv.DictReader(open('g/stats.csv')) if s['flock-radius'] == best][0]\n"
	      "assert math.isclose(a['best']['ci95'][0], float(st['clusters_final_ci95_lo']))\n"
	      "others = sorted((r for r in means if r != best), key=means.get)\n"
	      "assert a['runner_up']['point'] == 'flock-radius=' + others[0]\n"
	      "ps = [stats.ttest_ind(val(best), val(r), equal_var=False).pvalue for r in others]\n"
	      "ps = [1.0 if math.isnan(p) else p for p in ps]   # two samples without spread and one mean\n"
	      "# three points: the smaller p times their 3 pairs, the larger times the 1 pair of the other two\n"
	      "lo = min(range(2), key=lambda k: ps[k])\n"
	      "adj = [0, 0]\n"
	      "adj[lo] = min(1, 3 * ps[lo]); adj[1 - lo] = max(adj[lo], min(1, ps[1 - lo]))\n"
	      "got = {c['point']: c['p_adjusted'] for c in a['comparisons']}\n"
	      "for r, h in zip(others, adj):\n"
	      "    assert math.isclose(got['flock-radius=' + r], h, rel_tol=1e-9, abs_tol=1e-12), (r, got, h)\n"
	      "last = open('out.txt').read().strip().splitlines()[-1]\n"
	      "assert last == 'sweep: answer: ' + a['sentence'], last\n"
	      "assert a['sentence'].startswith('flock-radius=' + best + ' is the best')\n"
	      "page = open('g/report.html').read()\n"
	      "h2 = re.findall(r'<h2[^>]*>(.*?)</h2>', page)\n"
	      "assert h2[0] == 'The answer', h2\n"
	      "assert html.escape(a['sentence']) in page\n"
	      "assert page.index(html.escape(a['sentence'])) < page.index('<dl class=\"about\">')\n");
	/* without a goal, each metric's largest and smallest mean */
	expect_status(sh(SWEEP " --collect --out g"), 0, "collect");
	expect_status(sh(SWEEP " --collect --out g --goal clusters_final:max"), 0, "collect with another goal");
	check("answer.json, another goal",
	      "import json\n"
	      "a = json.load(open('g/answer.json'))\n"
	      "assert a['goal']['direction'] == 'max' and a['best']['point'] == 'flock-radius=2', a['best']\n");
}

/*
 * --replicates auto:8 (looks after 4 and 8 seeds): a point told apart at
 * the first look gets no more seeds, the two still in contention get seeds
 * 5 to 8; the stopping rule is in answer.json and the report.  Three equal
 * points are never told apart: all three go to 8 seeds, and the answer
 * says so.  Resumed, the rounds go on for the stored goal (another is
 * refused: its looks would count the first goal's).
 */
Test(study, replicates_auto_adds_seeds_to_the_contenders_only)
{
	expect_status(sh(SWEEP " --out a --grid 'flock-radius=2,59,60' --replicates auto:8 --goal clusters_final:min "
	                 FAST " -- --no-render"), 0, "auto");
	check("rounds",
	      "import collections, csv, json\n"
	      "rows = list(csv.DictReader(open('a/table.csv')))\n"
	      "seeds = collections.defaultdict(set)\n"
	      "for r in rows:\n"
	      "    assert r['status'] == 'complete', r\n"
	      "    seeds[r['flock-radius']].add(int(r['seed']))\n"
	      "assert seeds['2'] == {1, 2, 3, 4}, seeds\n"
	      "spec = json.load(open('a/sweep.json'))\n"
	      "a = json.load(open('a/answer.json'))\n"
	      "more = {p[0][1] for r in spec['rounds'] for p in r['points']}\n"
	      "assert spec['rounds'] and spec['rounds'][0]['seeds'] == ['5', '6', '7', '8'], spec['rounds']\n"
	      "assert '2' not in more and more, more\n"
	      "for r in more:\n"
	      "    assert seeds[r] == set(range(1, 9)), (r, seeds)\n"
	      "assert 'Bonferroni over the 2 looks' in a['stopping_rule'] and a['looks_done'] == 2, a\n"
	      "assert 'Stopping rule' in open('a/report.html').read()\n");
	cr_assert(strstr(text("err.txt"), "look 1 of at most 2:"), "%s", text("err.txt"));
	expect_status(sh(SWEEP " --out e --grid 'flock-radius=50,50.0,50.00' --replicates auto:8 --goal polarization:max "
	                 FAST " -- --no-render"), 0, "equal points");
	check("never told apart",
	      "import csv, json\n"
	      "rows = list(csv.DictReader(open('e/table.csv')))\n"
	      "assert len(rows) == 24, len(rows)\n"
	      "a = json.load(open('e/answer.json'))\n"
	      "assert not a['settled'] and 'not distinguishable' in a['sentence'], a['sentence']\n"
	      "assert 'no number of replicates would tell them apart' in a['sentence'], a['sentence']\n");
	/* resumed, an auto sweep runs what is missing and looks again */
	expect_status(tc_sh("rm 'a/runs/flock-radius=60,seed=7.json'"), 0, "rm");
	expect_status(sh(SWEEP " --resume --out a --goal clusters_final:max"), 2, "resume for another goal");
	cr_assert(strstr(text("err.txt"), "answer --goal clusters_final:min"), "%s", text("err.txt"));
	expect_status(sh(SWEEP " --resume --out a"), 0, "resume");
	cr_assert(strstr(text("out.txt"), "1 to run"), "%s", text("out.txt"));
	expect_status(sh(SWEEP " --out x --grid 'seed=1' --replicates auto"), 2, "auto without a goal");
	expect_status(sh(SWEEP " --out x --grid 'flock-radius=2,60' --replicates auto --goal clusters:min --slurm "
	                 "--no-submit"), 2, "auto on Slurm without --wait");
	cr_assert_eq(access("x", F_OK), -1);
}

/*
 * A Latin hypercube over a log and a linear range: one point in each of
 * the N strata of each range (computed here from the table), each sample a
 * point with its seeds; a lost summary is run again by --resume alone; a
 * Sobol sample's Slurm array has a task per point, and --task runs one.
 */
Test(study, samples_run_like_grid_points)
{
	expect_status(sh(SWEEP " --out s --range 'align-weight=0.001:0.1:log' --range 'flock-weight=0:0.01' "
	                 "--sample lhs:6:9 --replicates 2 " FAST " -- --no-render"), 0, "lhs");
	check("lhs",
	      "import csv, math\n"
	      "rows = list(csv.DictReader(open('s/table.csv')))\n"
	      "assert len(rows) == 12 and all(r['status'] == 'complete' for r in rows)\n"
	      "pts = {r['sample']: (float(r['align-weight']), float(r['flock-weight'])) for r in rows}\n"
	      "assert sorted(pts) == [str(k) for k in range(6)], pts\n"
	      "a = sorted(int((math.log10(p[0]) + 3) / 2 * 6) for p in pts.values())\n"
	      "b = sorted(int(p[1] / 0.01 * 6) for p in pts.values())\n"
	      "assert a == b == list(range(6)), (a, b)\n"
	      "assert rows[0]['run'].startswith('sample=0,align-weight='), rows[0]['run']\n"
	      "assert open('s/design.csv').readline().strip() == 'sample,align-weight,flock-weight'\n"
	      "stats = list(csv.DictReader(open('s/stats.csv')))\n"
	      "assert len(stats) == 6 and all(s['n'] == '2' for s in stats), stats\n");
	expect_status(tc_sh("rm s/runs/sample=3,*seed=2.json"), 0, "rm");
	expect_status(sh(SWEEP " --resume --out s"), 0, "resume");
	cr_assert(strstr(text("out.txt"), "12 points, 1 to run"), "%s", text("out.txt"));
	expect_status(sh(SWEEP " --out b --range 'align-weight=0:0.1' --sample sobol:8 --slurm --no-submit " FAST
	                 " -- --no-render"), 0, "sobol on Slurm");
	cr_assert(!strstr(text("err.txt"), "power of 2"), "%s", text("err.txt"));
	expect_status(tc_sh("grep -qx '#SBATCH --array=0-7%%16' b/sweep.sbatch"), 0, "the array");
	expect_status(sh(SWEEP " --out b --task 5"), 0, "task 5");
	expect_status(tc_sh("ls b/runs/sample=5,align-weight=*.json"), 0, "sample 5's summary");
}

/*
 * A Sobol sample of 6 points runs, and the sweep says once, before it
 * runs, that 6 is not a power of 2 (SciPy's warning, which was swallowed).
 */
Test(study, a_sobol_sample_not_a_power_of_2_is_said)
{
	expect_status(sh(SWEEP " --out n --range 'align-weight=0:0.1' --sample sobol:6 " FAST " -- --no-render"), 0,
	              "sobol:6");
	char *err = text("err.txt");
	const char *note = "sweep: --sample sobol:6: 6 is not a power of 2; a Sobol sequence is balanced over the "
	                   "ranges at powers of 2 (4 or 8 points), so these 6 points fill them less evenly\n";
	const char *at = strstr(err, note);
	cr_assert(at && !strstr(at + strlen(note), "power of 2"), "not said once: %s", err);
	cr_assert(!strstr(err, "Warning") && !strstr(err, "warn"), "%s", err);
	free(err);
	expect_status(tc_sh("test $(grep -c . n/design.csv) = 7"), 0, "6 points and a header");
}

/* Saltelli's design for two ranges (N = 8: 32 points), its indices. */
Test(study, sensitivity_gives_indices_a_table_and_a_chart)
{
	expect_status(sh(SWEEP " --out t --range 'align-weight=0:0.2' --range 'flock-radius=5:80' "
	                 "--sensitivity clusters_final --sample sobol:8 " FAST " -- --no-render"), 0, "sensitivity");
	check("indices",
	      "import csv, json, re\n"
	      "rows = list(csv.DictReader(open('t/table.csv')))\n"
	      "assert len(rows) == 32, len(rows)\n"
	      "s = list(csv.DictReader(open('t/sensitivity.csv')))\n"
	      "assert [r['parameter'] for r in s] == ['align-weight', 'flock-radius'], s\n"
	      "for r in s:\n"
	      "    assert float(r['S1_lo']) <= float(r['S1']) <= float(r['S1_hi']), r\n"
	      "    assert float(r['ST_lo']) <= float(r['ST']) <= float(r['ST_hi']), r\n"
	      "j = json.load(open('t/sensitivity.json'))\n"
	      "assert j['metric'] == 'clusters_final' and j['n'] == 8 and 'Saltelli' in j['method'], j\n"
	      "page = open('t/report.html').read()\n"
	      "assert 'Which parameters matter' in page and page.count('data:image/svg+xml') >= 7\n");
}
