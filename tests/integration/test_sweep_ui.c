/*
 * The sweep tools as a user meets them: refusals before anything is written
 * (and the grid's messages as the docs show them), "did you mean", outputs
 * that are inputs, the progress of a running sweep (a line redrawn on a
 * terminal, a line or a JSON object per event otherwise), --collect telling
 * running from failed from missing, and a chart that stays readable with
 * many series (dodged bars, colours and shapes, log x, intervals in range).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "sweep_util.h"

#define SCRIPTS "'" SRCDIR "/scripts/"
#define SWEEP SCRIPTS "sweep' --bin \"$BOIDS_BIN\""
#define FAST "--frames 5 --boids 20 --threads 1"

static const char *tmp;

static void setup(void) { tmp = tc_tmpdir(); }

static void teardown(void) { tc_cleanup(); }

TestSuite(sweep_ui, .init = setup, .fini = teardown, .timeout = 300);

/* cmd exits 2 with one line on stderr that holds want; returns nothing. */
static void refused(const char *cmd, const char *want)
{
	int st = sh(cmd);
	char *e = text("err.txt");
	cr_expect_eq(st, 2, "exit %d for: %s\n%s", st, cmd, e);
	cr_expect(strstr(e, want) != NULL, "'%s' not in the message of %s: %s", want, cmd, e);
	cr_expect(strchr(e, '\n') == e + strlen(e) - 1, "not one line for %s: %s", cmd, e);
	cr_expect(!strstr(e, "/tmp/") && !strstr(e, ".cfg"), "a temporary file named: %s", e);
	free(e);
}

Test(sweep_ui, refusals_come_before_the_directory_and_read_as_the_docs)
{
	refused(SWEEP " --out b --grid 'init=a/b,a_b' " FAST " -- --no-render", "give the run name 'init=a_b'");
	refused(SWEEP " --out b --grid 'seed=1,2' --ext avi " FAST, "--ext: 'avi' is not a kind of video");
	refused(SWEEP " --out b --grid 'seed=1,2' --ext mp5 " FAST, "(did you mean mp4");
	refused(SWEEP " --out b --grid 'align-weight=0,x' " FAST " -- --no-render",
	        "sweep: --grid: point align-weight=x: --align-weight: 'x' is not a number");
	refused(SWEEP " --out b --grid 'seed=1' --grid 'max-speed=-1' " FAST " -- --no-render",
	        "sweep: --grid: point seed=1,max-speed=-1: --max-speed: -1 is out of range");
	cr_assert_eq(access("b", F_OK), -1, "a refused sweep made its directory");

	/* did you mean: the sweep's own options, boids', grid names, metrics */
	refused(SWEEP " --out b --grid 'align-wieght=0,1' " FAST, "(did you mean align-weight?)");
	refused(SWEEP " --out b --grid 'seed=1' --frmaes 3", "unknown option '--frmaes' (did you mean --frames?)");
	refused(SWEEP " --out b --grid 'seed=1' --replicate 3", "(did you mean --replicates?)");
	refused(SWEEP " --out b --grid 'seed=1' --chart-y clusterz", "(did you mean clusters?)");
	refused(SWEEP " --out b --grid 'seed=1' --progress jsno", "(did you mean json?)");
	refused(SCRIPTS "chart' --sise 3 t.csv", "unknown option '--sise' (did you mean --size?)");
	refused(SCRIPTS "contact-sheet' --metrc x d", "(did you mean --metric?)");
	refused(SCRIPTS "sweep-report' --hlep d", "(did you mean --help?)");
	cr_assert_eq(access("b", F_OK), -1, "a refused sweep made its directory");
}

/* No tool writes over a file it reads, whatever it is called. */
Test(sweep_ui, an_output_is_never_an_input)
{
	expect_status(sh(SWEEP " --out s --grid 'seed=1,2' --with-trajectory " FAST " -- --no-render"), 0, "sweep");
	expect_status(tc_sh("cp s/table.csv keep.csv && ln s/table.csv hard.csv && ln -s s/table.csv soft.csv && "
	                    "cp s/runs/seed=1.json keep.json"), 0, "links");
	refused(SCRIPTS "chart' --x seed -o s/table.csv s/table.csv", "is the table it reads");
	refused(SCRIPTS "chart' --x seed -o hard.csv s/table.csv", "is the table it reads");
	refused(SCRIPTS "chart' --x seed -y -o soft.csv s/table.csv", "is the table it reads");
	refused(SCRIPTS "contact-sheet' -o s/runs/seed=1.json s", "is one of the files it reads");
	refused(SCRIPTS "sweep-report' -o s/grid.jsonl s", "is one of the files it reads");
	expect_status(tc_sh("cmp keep.csv s/table.csv && cmp keep.json s/runs/seed=1.json"), 0, "an input changed");
	/* a FIFO (as a device would be, /dev/null run by root) is not replaced by the rename of a temporary */
	expect_status(tc_sh("mkfifo fifo"), 0, "mkfifo");
	refused(SCRIPTS "chart' --x seed -y -o fifo s/table.csv", "-o 'fifo' is not a regular file");
	refused(SCRIPTS "contact-sheet' -o fifo s", "-o 'fifo' is not a regular file");
	refused(SCRIPTS "sweep-report' -o fifo s", "-o 'fifo' is not a regular file");
	expect_status(tc_sh("test -p fifo"), 0, "the FIFO was replaced");
	/* an existing picture: refused without -y, as boids does */
	expect_status(tc_sh("echo precious >c.png"), 0, "c.png");
	refused(SCRIPTS "chart' --x seed -o c.png s/table.csv", "exists; -y overwrites it");
	expect_status(tc_sh("grep -qx precious c.png"), 0, "c.png was overwritten without -y");
	expect_status(sh(SCRIPTS "chart' --x seed -y -o c.png s/table.csv"), 0, "chart -y");
	/* the tables: one hard-linked to a summary is refused, the summary kept */
	expect_status(tc_sh("rm s/table.jsonl && ln s/runs/seed=1.json s/table.jsonl"), 0, "link");
	refused(SCRIPTS "sweep-table' s", "which it is made from");
	expect_status(tc_sh("cmp keep.json s/runs/seed=1.json"), 0, "sweep-table wrote over a summary");
}

/* JSON lines from a python check: events in order, one per point. */
Test(sweep_ui, progress_is_a_line_per_event_off_a_terminal)
{
	expect_status(sh(SWEEP " --out j --progress json --grid 'seed=1,2,3' --grid 'init=/nonexistent.csv,' "
	                 FAST " -- --no-render"), 2, "empty value refused");
	expect_status(tc_sh(SWEEP " --out j --progress json --grid 'seed=1,2,3,4' " FAST " -- --no-render "
	                    ">out.txt 2>err.txt; test $? = 0"), 0, "json sweep");
	int st = tc_sh(
		"python3 - >py.txt 2>&1 <<'EOF'\n"
		"import json\n"
		"ev = [json.loads(l) for l in open('err.txt')]\n"
		"kinds = [e['event'] for e in ev]\n"
		"assert kinds == ['start'] + ['point'] * 4 + ['end', 'collect', 'phases'], kinds\n"
		"pts = [e for e in ev if e['event'] == 'point']\n"
		"assert sorted(e['name'] for e in pts) == ['seed=%%d' %% k for k in (1, 2, 3, 4)], pts\n"
		"assert [e['done'] for e in pts] == [1, 2, 3, 4] and all(e['total'] == 4 for e in ev[:-2])\n"
		"assert all(e['status'] == 'complete' and e['failed'] == 0 for e in pts)\n"
		"assert all(a['elapsed'] <= b['elapsed'] for a, b in zip(ev, ev[1:-2]))\n"
		"assert ev[-3]['eta'] == 0 and ev[-2]['complete'] == 4\n"
		"ph = ev[-1]\n"
		"assert {'set-up', 'runs', 'tables', 'chart', 'report'} <= set(ph) and 0 < ph['runs'] <= ph['total'], ph\n"
		"assert abs(sum(v for k, v in ph.items() if k not in ('event', 'total')) - ph['total']) < 0.01, ph\n"
		"EOF");
	char *py = text("py.txt");
	cr_assert_eq(st, 0, "progress events: %s", py);
	free(py);
	/* a log: a line per point that ends, failures said as such */
	/* (the set-up checks every point as its run would, so a point fails
	 * only at run time: its --init is a FIFO that gives a bad header) */
	expect_status(tc_sh("mkfifo p.csv q.csv && { printf 'no,columns\\n' > p.csv & } && "
	                    "{ printf 'no,columns\\n' > q.csv & }"), 0, "fifos");
	expect_status(tc_sh(SWEEP " --out l --grid \"init=$PWD/p.csv,$PWD/q.csv\" " FAST
	                    " -- --no-render >out.txt 2>err.txt; test $? = 1"), 0, "failing sweep");
	expect_status(tc_sh("grep -c \"^sweep: point [01] 'init=.*[pq].csv': ended without a summary "
	                    "(0/2 points done, [12] failed\" err.txt | grep -qx 2"), 0, "a line per failed point");
	/* --resume says the same */
	expect_status(tc_sh("{ printf 'no,columns\\n' > p.csv & } && { printf 'no,columns\\n' > q.csv & } && "
	                    SWEEP " --resume --out l --progress lines >out.txt 2>err.txt; test $? = 1 && "
	                    "grep -q '^sweep: end: 0/2 points done, 2 failed, 0 running' err.txt"), 0, "--resume");
}

/* On a terminal: one line, redrawn with a carriage return, ending in a newline. */
Test(sweep_ui, progress_is_one_line_on_a_terminal)
{
	expect_status(tc_sh("script -qec \"" SWEEP " --out t --grid 'seed=1,2,3' " FAST " -- --no-render\" "
	                    "/dev/null >tty.txt 2>&1"), 0, "sweep on a terminal");
	char *t = text("tty.txt");
	cr_assert(strstr(t, "\rsweep: 3/3 points done, 0 failed, 0 running, 0:"), "no final redraw: %s", t);
	cr_assert(!strstr(t, "sweep: point "), "event lines on a terminal: %s", t);
	cr_assert(strstr(t, "3 of 3 points complete"), "%s", t);
	free(t);
}

/*
 * A point running leaves runs/NAME.running (host, pid): --collect says
 * running (exit 3) while it runs and the next point has not started
 * (missing); once the whole sweep is killed, the point died: failed, exit 1.
 */
Test(sweep_ui, collect_tells_running_from_failed_from_missing)
{
	expect_status(tc_sh("setsid " SWEEP " --out r -j 1 --grid 'seed=1,2' --frames 1000000 --boids 500 --threads 1 "
	                    "-- --no-render >bg.txt 2>&1 & echo $! >pid.txt"), 0, "background sweep");
	/* whatever happens, the sweep (its process group) and the job (GNU
	 * parallel gives each job a group of its own) are killed before checking */
	int marked = tc_sh("for i in $(seq 600); do test -s 'r/runs/seed=1.running' && exit 0; sleep 0.05; done; exit 1");
	int st = marked ? -1 : sh(SWEEP " --collect --no-chart --out r");
	expect_status(tc_sh("cp r/table.csv running.csv 2>/dev/null; cp out.txt running.out; cp err.txt running.err; "
	                    "j=$(cut -d' ' -f2 'r/runs/seed=1.running'); "
	                    "python3 -c 'import os, sys; [os.killpg(int(g), 9) for g in sys.argv[1:]]' $(cat pid.txt) $j; "
	                    "for i in $(seq 600); do kill -0 $j 2>/dev/null || exit 0; sleep 0.05; done; exit 1"),
	              0, "kill the sweep");
	cr_assert_eq(marked, 0, "the running point left no marker");
	char *o = text("running.out"), *e = text("running.err");
	cr_expect_eq(st, 3, "collect while running: exit %d\n%s%s", st, o, e);
	cr_expect(strstr(o, "0 of 2 points complete (1 running, 1 missing)"), "%s", o);
	cr_expect(strstr(e, "point 0 'seed=1': running on "), "%s", e);
	free(o);
	free(e);
	expect_status(tc_sh("grep -q \"^seed=1,1,running,$(uname -n),\" running.csv && grep -q '^seed=2,2,missing,' running.csv"),
	              0, "table while running");
	/* the marker stays, its process is gone: the point died */
	st = sh(SWEEP " --collect --no-chart --out r");
	e = text("err.txt");
	cr_expect_eq(st, 1, "collect after the kill: exit %d\n%s", st, e);
	cr_expect(strstr(e, "point 0 'seed=1': died while running on "), "%s", e);
	free(e);
	expect_status(tc_sh("grep -q '^seed=1,1,failed,' r/table.csv"), 0, "table after the kill");
}

/*
 * --transfer (no shared disk): no marker comes back while a run goes, so the
 * progress counts as running the jobs GNU parallel started (their results
 * file exists) and has not logged; each run's files are unpacked as soon as
 * it ends, and --collect meanwhile says running for a started point (the
 * sweep that runs it is alive) and complete for an ended one.  The points
 * wait for go.I here (a boids behind a script) so that the counts are known;
 * ':' in the login file is this machine, no ssh needed.
 */
Test(sweep_ui, a_transfer_sweep_shows_what_runs)
{
	FILE *w = fopen("wrap", "w");
	cr_assert(w);
	fprintf(w, "#!/bin/sh\ncase \" $* \" in *\" --config cfg/\"*)\n"
	           "  i=${2#cfg/}; i=${i%%.cfg}; : > \"%s/started.$i\"\n"
	           "  while [ ! -e \"%s/go.$i\" ]; do sleep 0.05; done;;\nesac\n"
	           "exec \"$BOIDS_BIN\" \"$@\"\n", tmp, tmp);
	fclose(w);
	expect_status(tc_sh("chmod 755 wrap && echo : > logins"), 0, "the waiting boids");
	expect_status(tc_sh("setsid '" SRCDIR "/scripts/sweep' --bin ./wrap --out t --sshloginfile logins --transfer "
	                    "-j 2 --progress json --grid 'seed=1,2,3' " FAST " -- --no-render >bg.out 2>bg.err & "
	                    "echo $! >pid.txt"), 0, "background sweep");
	int started = tc_sh("for i in $(seq 1200); do test -e started.0 && test -e started.1 && exit 0; sleep 0.05; done; "
	                    "exit 1");
	/* point 0 ends; point 1 still runs */
	int ended = started ? -1 : tc_sh("touch go.0; for i in $(seq 1200); do grep -q '\"i\": 0' bg.err && exit 0; "
	                                 "sleep 0.05; done; exit 1");
	int st = ended ? -1 : sh("'" SRCDIR "/scripts/sweep' --collect --no-chart --out t");
	expect_status(tc_sh("cp out.txt mid.out; cp err.txt mid.err; touch go.1 go.2; "
	                    "for i in $(seq 1200); do kill -0 $(cat pid.txt) 2>/dev/null || exit 0; sleep 0.05; done; "
	                    "python3 -c 'import os, sys; os.killpg(int(sys.argv[1]), 9)' $(cat pid.txt); exit 1"),
	              0, "the sweep ends");
	cr_assert_eq(started, 0, "the first two points never started");
	cr_assert_eq(ended, 0, "no event for point 0");
	char *o = text("mid.out"), *e = text("mid.err");
	cr_expect_eq(st, 3, "collect while point 1 runs: exit %d\n%s%s", st, o, e);
	cr_expect(strstr(o, "1 of 3 points complete (") && strstr(o, " running"), "%s", o);
	cr_expect(strstr(e, "point 1 'seed=2': running under --transfer"), "%s", e);
	free(o);
	free(e);
	int py = tc_sh("python3 - >py.txt 2>&1 <<'EOF'\n"
	               "import json\n"
	               "ev = [json.loads(l) for l in open('bg.err') if l.startswith('{')]\n"
	               "pts = [e for e in ev if e['event'] == 'point']\n"
	               "assert [e['status'] for e in pts] == ['complete'] * 3, pts\n"
	               "assert pts[0]['i'] == 0 and pts[0]['running'] >= 1, pts[0]\n"
	               "assert pts[-1]['running'] == 0 and ev[-3]['event'] == 'end', ev\n"
	               "EOF");
	char *p = text("py.txt");
	cr_expect_eq(py, 0, "progress under --transfer: %s", p);
	free(p);
	expect_status(tc_sh("grep -q '3 of 3 points complete' bg.out && test ! -e t/.transfer.running && "
	                    "test -z \"$(ls t/ret)\""), 0, "the sweep's end");
	/* a results file left by a sweep that is gone: failed, not running */
	expect_status(tc_sh("rm t/runs/seed=3.json t/runs/seed=3.log && : > t/ret/2.tar && echo \"$(uname -n) 999999999 0\" > t/.transfer.running"),
	              0, "a dead --transfer sweep");
	st = sh("'" SRCDIR "/scripts/sweep' --collect --no-chart --out t");
	e = text("err.txt");
	cr_expect_eq(st, 1, "collect after the sweep died: exit %d\n%s", st, e);
	cr_expect(strstr(e, "point 2 'seed=3': its files never came back"), "%s", e);
	free(e);
}

/*
 * A chart with 13 series over log-spaced x values, from a table written
 * here: every series at its own place around each x (no two bars at one
 * place, every group within its share of the gap), (colour, shape) distinct,
 * a log x axis chosen by itself, and each interval computed here: for
 * clusters >= 1, Student's t on the log scale of x - 1 (delta method),
 * which stays above 1 where the plain t-interval crosses it; the caption
 * names it.
 */
Test(sweep_ui, a_chart_with_many_series_stays_readable)
{
	int st = tc_sh(
		"python3 - >py.txt 2>&1 <<'EOF'\n"
		"import csv, random\n"
		"random.seed(4)\n"
		"w = csv.writer(open('t.csv', 'w', newline=''))\n"
		"w.writerow(['run', 'a', 'b', 'seed', 'status', 'clusters_final'])\n"
		"for a in ('0.001', '0.01', '0.1'):\n"
		"    for b in range(13):\n"
		"        for s in (1, 2, 3):\n"
		"            w.writerow(['r', a, '%%.1f' %% (0.1 * (b + 1)), s, 'complete', random.choice([1, 1, 2, 9])])\n"
		"EOF");
	cr_assert_eq(st, 0);
	expect_status(sh(SCRIPTS "chart' --x a --y clusters_final --mean-over seed -o c.svg --points-file p.tsv "
	                 "--caption-file cap.txt t.csv"), 0, "chart");
	expect_status(sh(SCRIPTS "chart' --x b --y clusters_final --mean-over seed -o lin.png "
	                 "--caption-file lin.txt t.csv"), 0, "chart over linear x");
	st = tc_sh(
		"python3 - >py.txt 2>&1 <<'EOF'\n"
		"import csv, math, re, statistics as S\n"
		"rows = list(csv.DictReader(open('t.csv')))\n"
		"drawn = list(csv.DictReader(open('p.tsv'), delimiter='\\t'))\n"
		"assert len(drawn) == 39, len(drawn)\n"
		"T2 = 4.302652729911275  # t(0.975, 2)\n"
		"crossed = 0\n"
		"for d in drawn:\n"
		"    b = d['series'].split('=')[1]\n"
		"    xs = [float(r['clusters_final']) for r in rows if r['a'] == d['x'] and r['b'] == b]\n"
		"    m, sd = S.mean(xs), S.stdev(xs)\n"
		"    assert int(d['n']) == 3 and math.isclose(float(d['mean']), m)\n"
		"    h = T2 * sd / math.sqrt(3) / (m - 1) if m > 1 and sd else 0\n"
		"    lo, hi = 1 + (m - 1) * math.exp(-h), 1 + (m - 1) * math.exp(h)\n"
		"    crossed += m - T2 * sd / math.sqrt(3) < 1\n"
		"    assert math.isclose(float(d['lo']), lo, abs_tol=1e-9), (d, lo)\n"
		"    assert math.isclose(float(d['hi']), hi, abs_tol=1e-9), (d, hi)\n"
		"    assert 1 <= float(d['lo']) <= m <= float(d['hi'])\n"
		"assert crossed > 0, 'no t-interval crossed 1: the data do not test the bound'\n"
		"xs = sorted({float(d['x']) for d in drawn})\n"
		"gap = min(math.log(b / a) for a, b in zip(xs, xs[1:]))\n"
		"for x in xs:\n"
		"    at = sorted(math.log(float(d['x_drawn'])) for d in drawn if float(d['x']) == x)\n"
		"    assert len(set(at)) == 13, 'two series drawn at one place'\n"
		"    assert at[-1] - at[0] < gap / 2 and abs((at[0] + at[-1]) / 2 - math.log(x)) < 1e-9, (x, at)\n"
		"styles = {(d['colour'], d['shape']) for d in drawn}\n"
		"assert len(styles) == 13 and len({d['colour'] for d in drawn}) >= 12, styles\n"
		"svg = open('c.svg').read()\n"
		"assert len(set(re.findall(r\"stroke='(rgb\\([^)]*\\))'\", svg))) >= 12, 'fewer than 12 colours in the SVG'\n"
		"cap = open('cap.txt').read()\n"
		"assert 'n = 3' in cap and '95%% interval, Student t on the log scale of x - 1, above 1' in cap, cap\n"
		"assert 'log x axis' in cap, cap\n"
		"assert 'log x axis' not in open('lin.txt').read()\n"
		"EOF");
	char *py = text("py.txt");
	cr_assert_eq(st, 0, "chart: %s", py);
	free(py);
	refused(SCRIPTS "chart' --x b --x-scale log --y clusters_final --mean-over seed -o l2.png t.csv.missing",
	        "cannot read");
}
