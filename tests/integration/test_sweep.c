/*
 * scripts/sweep, scripts/chart, scripts/contact-sheet and the Slurm script,
 * run for real on tiny flocks: summaries, the table, --resume, failures,
 * pictures, replicate statistics, and data that tries to be code (hostile
 * names, crafted summaries and joblogs, formula cells, non-UTF-8 values).
 * The ssh, other-user and Slurm cases are in tests/integration/.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "sweep_util.h"

#define SWEEP "'" SRCDIR "/scripts/sweep' --bin \"$BOIDS_BIN\""
#define FAST "--frames 20 --boids 30 --threads 1"


static const char *tmp;    /* the test's directory, also its working directory */

static void setup(void) { tmp = tc_tmpdir(); }

static void teardown(void) { tc_cleanup(); }

TestSuite(sweep, .init = setup, .fini = teardown, .timeout = 300);

static long lines(const char *path)
{
	char *t = tc_slurp(path, NULL);
	long n = 0;
	for (char *p = t; p && *p; p++)
		n += *p == '\n';
	free(t);
	return t ? n : -1;
}

/* Width of a PNG from its IHDR, or -1. */
static long png_width(const char *path)
{
	size_t len;
	unsigned char *p = (unsigned char *)tc_slurp(path, &len);
	long w = -1;
	if (p && len > 24 && memcmp(p, "\x89PNG\r\n\x1a\n", 8) == 0 && memcmp(p + 12, "IHDR", 4) == 0)
		w = (long)p[16] << 24 | (long)p[17] << 16 | (long)p[18] << 8 | p[19];
	free(p);
	return w;
}

static void sweep_2x2(const char *extra, const char *fixed)
{
	char cmd[2048];
	snprintf(cmd, sizeof(cmd),
	         SWEEP " --out s --grid 'align-weight=0,0.05' --grid 'seed=1,2' %s " FAST " -- %s",
	         extra, fixed);
	expect_status(sh(cmd), 0, "2x2 sweep");
}

/*
 * Every summary is there and says the run had its grid values; the table has
 * one row per run in grid order, with the summaries' numbers.
 */
static void check_runs_and_table(void)
{
	cr_assert_eq(tc_count_files("s/runs"), 16, "4 summaries, logs, trajectories and metrics expected");
	cr_assert_eq(lines("s/table.csv"), 5, "header and 4 rows expected");
	cr_assert_eq(lines("s/table.jsonl"), 4, "4 JSON lines expected");
	int st = tc_sh(
		"python3 - >py.txt 2>&1 <<'EOF'\n"
		"import csv, json\n"
		"rows = list(csv.DictReader(open('s/table.csv')))\n"
		"want = [(a, s) for a in ('0', '0.05') for s in ('1', '2')]\n"
		"assert [(r['align-weight'], r['seed']) for r in rows] == want, rows\n"
		"for r in rows:\n"
		"    j = json.load(open('s/runs/' + r['run'] + '.json'))\n"
		"    assert r['run'] == 'align-weight=%%s,seed=%%s' %% (r['align-weight'], r['seed'])\n"
		"    assert j['parameters']['align-weight'] == float(r['align-weight']), j['parameters']\n"
		"    assert j['seed'] == int(r['seed'])\n"
		"    assert j['frames'] == 20 and j['frames_asked'] == 20\n"
		"    assert r['status'] == j['status'] == 'complete' and r['host'] == j['host']\n"
		"    assert float(r['seconds']) == j['wall_time_s']\n"
		"    for m in ('polarization', 'milling', 'mean_speed', 'nn_distance', 'gyration_radius', 'clusters'):\n"
		"        for s in ('final', 'mean'):\n"
		"            assert float(r[m + '_' + s]) == j['metrics'][m][s], (m, s)\n"
		"    assert 0 <= j['metrics']['polarization']['final'] <= 1\n"
		"EOF");
	char *py = text("py.txt");
	cr_assert_eq(st, 0, "table and summaries disagree: %s", py);
	free(py);
}

Test(sweep, two_by_two_resume_pictures_and_bad_usage)
{
	static const char *const bad[] = {
		SWEEP " --out b",                                  /* no grid */
		SWEEP " --out b --grid 'seed=1,,2'",               /* empty value */
		SWEEP " --out b --grid 'no-such-option=1'",
		SWEEP " --out b --grid 'align-weight=abc'",        /* boids rejects the value */
		SWEEP " --out b --grid 'seed=1' --no-such-flag",
		SWEEP " --out b --grid 'seed=1' -- -o x.mp4",       /* the sweep names outputs */
		SWEEP " --out b --grid 'seed=1' --transfer",        /* needs --sshloginfile */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		int st = sh(bad[i]);
		char *e = text("err.txt");
		cr_expect_eq(st, 2, "exit %d for: %s\n%s", st, bad[i], e);
		cr_expect(strncmp(e, "sweep: ", 7) == 0 && strchr(e, '\n') == e + strlen(e) - 1,
		          "not one 'sweep:' line for %s: %s", bad[i], e);
		free(e);
	}
	cr_assert_eq(access("b", F_OK), -1, "a failed start made the directory");

	sweep_2x2("--with-trajectory --with-metrics", "--no-render");
	check_runs_and_table();
	cr_assert_gt(png_width("s/chart.png"), 0, "no chart");
	cr_assert_eq(lines("s/joblog"), 4);
	cr_assert_eq(lines("s/runs/align-weight=0,seed=2.metrics.csv"), 21, "20 frames and a header");

	/* boids writes a file under a temporary name and renames it: a rerun
	 * would show as another inode and modification time */
	struct stat before, after;
	cr_assert_eq(stat("s/runs/align-weight=0.05,seed=2.json", &before), 0);
	/* without --bin: the binary stored in the sweep, named before it runs */
	expect_status(sh("'" SRCDIR "/scripts/sweep' --resume --out s"), 0, "--resume");
	char *o = text("out.txt"), *e = text("err.txt");
	cr_assert(strstr(o, "4 points, 0 to run"), "resume ran something: %s", o);
	cr_assert(strstr(e, "using the binary stored in"), "resume must say which binary it runs: %s", e);
	free(o);
	free(e);
	cr_assert_eq(lines("s/joblog"), 4, "resume added jobs");
	cr_assert_eq(stat("s/runs/align-weight=0.05,seed=2.json", &after), 0);
	cr_assert(before.st_ino == after.st_ino && before.st_mtim.tv_sec == after.st_mtim.tv_sec &&
	          before.st_mtim.tv_nsec == after.st_mtim.tv_nsec, "a finished run was run again");
	check_runs_and_table();

	/* a finished sweep is not started again over its runs, nor resumed with another grid */
	expect_status(sh(SWEEP " --out s --grid 'align-weight=0,0.05' --grid 'seed=1,2' -- --no-render"),
	              2, "same directory again");
	expect_status(sh(SWEEP " --resume --out s --grid 'seed=3' -- --no-render"), 2, "other grid");
	cr_assert_eq(lines("s/joblog"), 4);

	expect_status(sh("'" SRCDIR "/scripts/contact-sheet' --bin \"$BOIDS_BIN\" --width 160 s"), 0,
	              "contact sheet");
	/* two columns (seed has two values) of 160 px tiles with 8 px borders */
	cr_assert_eq(png_width("s/contact-sheet.png"), 2 * (160 + 16));
	expect_status(sh("'" SRCDIR "/scripts/chart' --x seed --y clusters_final --mean-over align-weight "
	                 "--size 400x300 -o c.png s/table.csv"), 0, "chart");
	cr_assert_eq(png_width("c.png"), 400);
	expect_status(sh("'" SRCDIR "/scripts/chart' --y no_such_column s/table.csv"), 2, "bad column");
}

Test(sweep, failed_run_is_reported_and_resume_runs_it_again)
{
	char cmd[1024];
	/*
	 * The second value is a FIFO: boids --print-config, which checks the
	 * grid values as the run would, does not open one (its data are the
	 * run's), and the run reads a header without the columns from it.
	 */
	snprintf(cmd, sizeof(cmd), SWEEP " --out f --grid 'init=%s/a.csv,%s/b.csv' " FAST " -- --no-render",
	         tmp, tmp);
	expect_status(tc_sh("\"$BOIDS_BIN\" --no-render " FAST " --trajectory a.csv -q"), 0, "trajectory");
	expect_status(tc_sh("mkfifo b.csv && { printf 'no,columns\\n' > b.csv & }"), 0, "fifo");
	int st = sh(cmd);
	char *e = text("err.txt");
	cr_assert_eq(st, 1, "a failed run must give exit 1, got %d: %s", st, e);
	/* the point, why, the run's own message and its log */
	cr_assert(strstr(e, "point 1 ") && strstr(e, "b.csv") && strstr(e, "exit 2") &&
	          strstr(e, "the header has no column") && strstr(e, ".log)"), "failure not reported: %s", e);
	free(e);
	cr_assert_eq(lines("f/table.csv"), 3, "the table lists both points");
	expect_status(tc_sh("grep -c ',complete,' f/table.csv | grep -qx 1 && grep -q ',failed,' f/table.csv"), 0,
	              "one complete row and one failed (it ended without a summary)");
	/* --collect says the same */
	expect_status(sh(SWEEP " --collect --out f"), 1, "collect with a point missing");

	expect_status(tc_sh("rm b.csv && cp a.csv b.csv"), 0, "cp");
	/* a crafted joblog line is data: its fields never reach a shell */
	expect_status(tc_sh("printf '$(touch pwned)0\\t:\\t0\\t0\\t0\\t0\\t$(touch pwned)\\t0\\tcfg/1.cfg\\n' >>f/joblog"),
	              0, "joblog");
	snprintf(cmd, sizeof(cmd), SWEEP " --resume --out f");
	expect_status(sh(cmd), 0, "resume after the fix");
	char *o = text("out.txt");
	cr_assert(strstr(o, "2 points, 1 to run"), "resume must rerun the failed run only: %s", o);
	free(o);
	expect_status(tc_sh("test $(grep -c ',complete,' f/table.csv) = 2"), 0, "both complete");
}

Test(sweep, replicates_give_mean_sd_and_a_t_interval)
{
	expect_status(sh(SWEEP " --out r --grid 'align-weight=0,0.05' --replicates 3 " FAST " -- --no-render"), 0,
	              "replicates");
	cr_assert_gt(png_width("r/chart.png"), 0, "no chart");
	/* mean, sd and the 95% interval, from the runs' own summaries; t for
	 * 2 degrees of freedom is 4.302652729911275 (tables).  clusters >= 1:
	 * the interval is the t-interval of log(x - 1) by the delta method
	 * (se / (mean - 1)), mapped back, so it stays above 1 */
	int st = tc_sh(
		"python3 - >py.txt 2>&1 <<'EOF'\n"
		"import csv, json, math, statistics as S\n"
		"rows = list(csv.DictReader(open('r/stats.csv')))\n"
		"assert [r['align-weight'] for r in rows] == ['0', '0.05'], rows\n"
		"for r in rows:\n"
		"    xs = [json.load(open('r/runs/align-weight=%%s,seed=%%d.json' %% (r['align-weight'], k)))"
		"['metrics']['clusters']['final'] for k in (1, 2, 3)]\n"
		"    m, sd = S.mean(xs), S.stdev(xs)\n"
		"    h = 4.302652729911275 * sd / math.sqrt(3) / (m - 1) if sd else 0\n"
		"    lo, hi = (1 + (m - 1) * math.exp(-h), 1 + (m - 1) * math.exp(h)) if m > 1 else (m, m)\n"
		"    assert r['n'] == '3' and r['clusters_final_ci95_method'] == 't-log(x-1)'\n"
		"    assert math.isclose(float(r['clusters_final_mean']), m, rel_tol=1e-12)\n"
		"    assert math.isclose(float(r['clusters_final_sd']), sd, rel_tol=1e-9, abs_tol=1e-12)\n"
		"    assert math.isclose(float(r['clusters_final_ci95_lo']), lo, rel_tol=1e-9, abs_tol=1e-9)\n"
		"    assert math.isclose(float(r['clusters_final_ci95_hi']), hi, rel_tol=1e-9, abs_tol=1e-9)\n"
		"    assert 1 <= lo <= m <= hi\n"
		"js = [json.loads(l) for l in open('r/stats.jsonl')]\n"
		"assert [j['align-weight'] for j in js] == ['0', '0.05'] and js[0]['n'] == 3\n"
		"EOF");
	char *py = text("py.txt");
	cr_assert_eq(st, 0, "statistics disagree: %s", py);
	free(py);
}

/*
 * 3D is a parameter like any other: --grid dims=2,3 runs both, the table and
 * the statistics carry dims, the chart takes it as x; each run's trajectory
 * has its own columns.  A 3D --init file makes its runs 3D without --dims,
 * and the sweep's expected options (from --print-config) are the runs' own.
 */
Test(sweep, dims_is_swept_like_any_parameter)
{
	expect_status(sh(SWEEP " --out d --grid 'dims=2,3' --grid 'depth=100,200' --replicates 2 "
	                 "--with-trajectory --with-metrics " FAST " -- --no-render"), 0, "dims sweep");
	int st = tc_sh(
		"python3 - >py.txt 2>&1 <<'EOF'\n"
		"import csv, json\n"
		"rows = list(csv.DictReader(open('d/table.csv')))\n"
		"want = [(d, z, s) for d in ('2', '3') for z in ('100', '200') for s in ('1', '2')]\n"
		"assert [(r['dims'], r['depth'], r['seed']) for r in rows] == want, rows\n"
		"for r in rows:\n"
		"    assert r['status'] == 'complete', r\n"
		"    j = json.load(open('d/runs/' + r['run'] + '.json'))\n"
		"    assert j['parameters']['dims'] == int(r['dims']) and j['parameters']['depth'] == float(r['depth'])\n"
		"    head = open('d/runs/' + r['run'] + '.csv').readline().strip()\n"
		"    assert head == {'2': 'frame,id,x,y,vx,vy', '3': 'frame,id,x,y,vx,vy,z,vz'}[r['dims']], head\n"
		"    for m in ('polarization', 'milling', 'mean_speed', 'nn_distance', 'gyration_radius', 'clusters'):\n"
		"        assert float(r[m + '_final']) == j['metrics'][m]['final'], m\n"
		"stats = list(csv.DictReader(open('d/stats.csv')))\n"
		"assert [(s['dims'], s['depth'], s['n']) for s in stats] == \\\n"
		"    [(d, z, '2') for d in ('2', '3') for z in ('100', '200')], stats\n"
		"EOF");
	char *py = text("py.txt");
	cr_assert_eq(st, 0, "table, stats and runs disagree: %s", py);
	free(py);
	expect_status(sh("'" SRCDIR "/scripts/chart' --x dims --y nn_distance_mean --mean-over seed "
	                 "--size 400x300 -o c.png d/table.csv"), 0, "chart over dims");
	cr_assert_eq(png_width("c.png"), 400);

	/* a 3D start: its runs are 3D without --dims, and complete (not stale) */
	expect_status(tc_sh("printf 'frame,id,x,y,vx,vy,z,vz\\n0,0,100,50,1,0,10,0.5\\n"
	                    "0,1,300,200,-1,0.5,250,-0.25\\n0,2,320,180,0,1,40,0\\n' >h3.csv"), 0, "3D file");
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), SWEEP " --out i --with-trajectory --grid 'seed=1,2' --frames 5 --threads 1 "
	         "-- --init '%s/h3.csv' --no-render", tmp);
	expect_status(sh(cmd), 0, "3D --init sweep");
	expect_status(tc_sh("test $(grep -c ',complete,' i/table.csv) = 2 && "
	                    "grep -q '\"dims\": 3,' i/runs/seed=1.json && grep -q '\"boids\": 3,' i/runs/seed=2.json && "
	                    "head -n 1 i/runs/seed=2.csv | grep -qx 'frame,id,x,y,vx,vy,z,vz'"), 0,
	              "the runs from a 3D file are 3D and complete");
}

/*
 * A killed run is never a complete-looking row: SIGTERM to a task (as Slurm
 * sends it) reaches boids, whose summary says interrupted by signal 15; the
 * task, --collect and the table say so, and --resume runs it again.
 */
Test(sweep, a_killed_run_is_an_interrupted_row_and_exit_1)
{
	expect_status(sh(SWEEP " --out k --slurm --no-submit --with-trajectory --grid 'seed=1,2' "
	                 "--boids 3000 --frames 1000000 --threads 1 -- --no-render"), 0, "slurm script");
	/* the task, in the background; SIGTERM once boids is writing frames */
	int st = tc_sh("set -e; " SWEEP " --out k --task 0 >task.txt 2>&1 & p=$!\n"
	               "while ! find k/runs -name '*.csv*' -size +1k | grep -q .; do\n"
	               "  kill -0 $p 2>/dev/null || exit 3; sleep 0.05; done\n"
	               "kill -TERM $p; st=0; wait $p || st=$?; exit $st");
	char *t = text("task.txt");
	cr_assert_eq(st, 1, "the task must fail: exit %d: %s", st, t);
	cr_assert(strstr(t, "interrupted by signal 15"), "%s", t);
	free(t);
	expect_status(sh(SWEEP " --out k --collect --no-chart"), 1, "collect");
	char *e = text("err.txt");
	cr_assert(strstr(e, "point 0 'seed=1': interrupted by signal 15") && strstr(e, "point 1 'seed=2': no summary"),
	          "%s", e);
	free(e);
	expect_status(tc_sh("grep -q '^seed=1,1,interrupted by signal 15,' k/table.csv && "
	                    "grep -q '^seed=2,2,missing,' k/table.csv"), 0, "table rows");
}

/*
 * Names and values are data.  A sweep directory named like a gnuplot pipe
 * with a newline, grid values holding quotes, backquotes, formulas and
 * undecodable bytes, a summary crafted to break out of a chart label, and
 * a file pre-placed as a symbolic link: nothing runs, nothing outside the
 * directory changes, the cells are escaped and the table is UTF-8.
 */
Test(sweep, hostile_names_and_values_stay_data)
{
	expect_status(tc_sh("mkdir victim && echo precious >victim/file && ln -s victim link"), 0, "setup");
	/* a symbolic link, another directory's files: refused before anything */
	expect_status(sh(SWEEP " --out link --grid 'seed=1' -- --no-render"), 2, "--out a symlink");
	expect_status(sh(SWEEP " --out victim --grid 'seed=1' -- --no-render"), 2, "--out not a sweep");
	expect_status(sh(SWEEP " --out -x --task 1"), 2, "--out -x --task 1 on nothing");

	expect_status(sh(SWEEP " --out \"$(printf '|touch pwned;\\n#')\" --with-trajectory "
	                 "--grid 'align-weight=-0.5' "
	                 "--grid \"preset=$(printf '=1+2,@x,a\\047b`touch pwned`$(touch pwned),\\377\\376,-3')\" "
	                 FAST " -- --no-render"), 0, "hostile sweep");
	cr_assert_eq(access("pwned", F_OK), -1, "a value ran a command");
	int st = tc_sh(
		"python3 - >py.txt 2>&1 <<'EOF'\n"
		"import csv, glob\n"
		"d = glob.glob('|touch pwned;*')[0]\n"
		"raw = open(d + '/table.csv', 'rb').read()\n"
		"raw.decode('utf-8')  # strict: the table is UTF-8\n"
		"rows = list(csv.DictReader(open(d + '/table.csv', encoding='utf-8')))\n"
		"got = [r['preset'] for r in rows]\n"
		"want = [\"'=1+2\", \"'@x\", \"a'b`touch pwned`$(touch pwned)\", '\\\\xff\\\\xfe', '-3']\n"
		"assert got == want, got\n"
		"assert {r['align-weight'] for r in rows} == {'-0.5'}  # a number, not a formula\n"
		"assert all(r['status'] == 'complete' for r in rows), rows\n"
		"EOF");
	char *py = text("py.txt");
	cr_assert_eq(st, 0, "table: %s", py);
	free(py);

	/* a summary crafted to leave a chart label, then --collect, chart and contact sheet */
	st = tc_sh("set -e; python3 - <<'EOF'\n"
	           "import glob, json, os\n"
	           "d = glob.glob('|touch pwned;*')[0]\n"
	           "f = sorted(glob.glob(d + '/runs/*.json'))[0]\n"
	           "s = json.load(open(f))\n"
	           "s['host'] = 'x\\nsystem(\"touch pwned\")\\n#'\n"
	           "s['parameters']['codec'] = '=HYPERLINK(\"http://x\")'\n"
	           "json.dump(s, open(f, 'w'))\n"
	           "open('dir.txt', 'w').write(d)\n"
	           "EOF\n"
	           "d=$(cat dir.txt; echo .); d=${d%%.}\n"
	           SWEEP " --collect --out \"$d\" >out.txt 2>err.txt\n"
	           "'" SRCDIR "/scripts/contact-sheet' --width 64 \"$d\" >>out.txt 2>>err.txt\n"
	           "grep -q \"'=HYPERLINK\" \"$d/table.csv\"\n"
	           "test -s \"$d/chart.png\" && test -s \"$d/contact-sheet.png\"");
	char *e = text("err.txt");
	cr_assert_eq(st, 0, "collect, chart, contact sheet: %s", e);
	free(e);
	cr_assert_eq(access("pwned", F_OK), -1, "a crafted summary ran a command");
	char *v = text("victim/file");
	cr_assert_str_eq(v, "precious\n");
	free(v);
	cr_assert_eq(tc_count_files("victim"), 1);
}

/* --task reads point I of the stored grid, decimal; --out '~' is a name. */
Test(sweep, task_is_decimal_and_tilde_is_a_name)
{
	expect_status(sh(SWEEP " --out '~' --slurm --no-submit --grid 'seed=1,2,3,4,5,6,7,8,9,10,11' " FAST
	                 " -- --no-render"), 0, "write the array");
	expect_status(sh(SWEEP " --out '~' --task 010"), 0, "task 010");
	char *j = text("~/runs/seed=11.json");
	cr_assert(strstr(j, "\"seed\": 11,"), "task 010 is not point 10: %s", j);
	free(j);
	expect_status(sh(SWEEP " --out '~' --task 11"), 2, "beyond the grid");
	expect_status(sh(SWEEP " --out '~' --task 0x1"), 2, "not decimal");
	/* the same grid again is accepted, another one is not */
	expect_status(sh(SWEEP " --out '~' --task 9 --grid 'seed=1,2,3,4,5,6,7,8,9,10,11' " FAST " -- --no-render"),
	              0, "same grid");
	expect_status(sh(SWEEP " --out '~' --task 9 --grid 'seed=1,2,3,4,5,6,7,8,9,10,12' " FAST " -- --no-render"),
	              2, "other grid");
}

/* examples/slurm-sweep.sbatch is what --slurm writes for its own sweep. */
Test(sweep, the_slurm_example_is_generated)
{
	expect_status(tc_sh("cp -r '" SRCDIR "/scripts' . && mkdir build && ln -s \"$BOIDS_BIN\" build/boids"), 0, "copy");
	expect_status(sh("scripts/sweep --out sweep-out --slurm --no-submit --jobs 4 "
	                 "--grid 'align-weight=0,0.01,0.05' --replicates 2 --frames 200 -- --no-render --threads 1"),
	              0, "generate");
	expect_status(tc_sh("cmp sweep-out/sweep.sbatch '" SRCDIR "/examples/slurm-sweep.sbatch'"), 0,
	              "examples/slurm-sweep.sbatch differs from the generated script");
	/* the generated task runs one point the way scripts/sweep names it */
	expect_status(sh("SLURM_ARRAY_TASK_ID=5 sh sweep-out/sweep.sbatch"), 0, "a task by hand");
	cr_assert_eq(access("sweep-out/runs/align-weight=0.05,seed=2.json", R_OK), 0);
}
