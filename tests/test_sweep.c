/*
 * scripts/sweep, scripts/chart, scripts/contact-sheet and the Slurm example,
 * run for real on tiny flocks: summaries, the table, --resume, failures,
 * pictures, and GNU parallel through ssh to a private sshd on 127.0.0.1.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

#define SWEEP "'" SRCDIR "/scripts/sweep' --bin \"$BOIDS_BIN\""
#define FAST "--frames 20 --boids 30 --threads 1"

extern char **environ;

static pid_t sshd;         /* the sshd a test started (in the foreground), or 0 */
static const char *tmp;    /* the test's directory, also its working directory */

static void setup(void) { tmp = tc_tmpdir(); }

static void teardown(void)
{
	if (sshd > 0) { /* ours: stop it and reap it */
		kill(sshd, SIGTERM);
		waitpid(sshd, NULL, 0);
		sshd = 0;
	}
	tc_cleanup();
}

TestSuite(sweep, .init = setup, .fini = teardown, .timeout = 90);

/* Runs a shell command with stdout in out.txt and stderr in err.txt. */
static int sh(const char *cmd)
{
	return tc_sh("%s >out.txt 2>err.txt", cmd);
}

static char *text(const char *path)
{
	char *t = tc_slurp(path, NULL);
	return t ? t : strdup("");
}

static void expect_status(int got, int want, const char *what)
{
	char *o = text("out.txt"), *e = text("err.txt");
	cr_assert_eq(got, want, "%s: exit %d, not %d\nstdout: %s\nstderr: %s", what, got, want, o, e);
	free(o);
	free(e);
}

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
	cr_assert_eq(tc_count_files("s/runs"), 8, "4 summaries and 4 logs expected");
	cr_assert_eq(lines("s/table.csv"), 5, "header and 4 rows expected");
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
		"    assert j['frames'] == 20\n"
		"    for m in ('polarization', 'milling', 'mean_speed', 'nn_distance', 'gyration_radius', 'clusters'):\n"
		"        for s in ('final', 'mean'):\n"
		"            assert float(r[m + '_' + s]) == j['metrics'][m][s], (m, s)\n"
		"    assert 0 <= j['metrics']['polarization']['final'] <= 1\n"
		"EOF");
	char *py = text("py.txt");
	cr_assert_eq(st, 0, "table and summaries disagree: %s", py);
	free(py);
}

Test(sweep, two_by_two_then_resume_runs_nothing)
{
	sweep_2x2("", "--no-render");
	check_runs_and_table();
	cr_assert_gt(png_width("s/chart.png"), 0, "no chart");
	cr_assert_eq(lines("s/joblog"), 5);

	/* boids writes a file under a temporary name and renames it: a rerun
	 * would show as another inode and modification time */
	struct stat before, after;
	cr_assert_eq(stat("s/runs/align-weight=0.05,seed=2.json", &before), 0);
	expect_status(sh(SWEEP " --resume --out s"), 0, "--resume");
	char *o = text("out.txt");
	cr_assert(strstr(o, "4 runs, 0 to run"), "resume ran something: %s", o);
	free(o);
	cr_assert_eq(lines("s/joblog"), 5, "resume added jobs");
	cr_assert_eq(stat("s/runs/align-weight=0.05,seed=2.json", &after), 0);
	cr_assert(before.st_ino == after.st_ino && before.st_mtim.tv_sec == after.st_mtim.tv_sec &&
	          before.st_mtim.tv_nsec == after.st_mtim.tv_nsec, "a finished run was run again");
	check_runs_and_table();
}

Test(sweep, bad_usage_exits_2_and_finished_runs_stay)
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

	/* a finished sweep is not started again over its runs */
	sweep_2x2("", "--no-render");
	char *json = text("s/runs/align-weight=0,seed=1.json");
	expect_status(sh(SWEEP " --out s --grid 'align-weight=0,0.05' --grid 'seed=1,2' -- --no-render"),
	              2, "same directory again");
	char *again = text("s/runs/align-weight=0,seed=1.json");
	cr_assert_str_eq(json, again);
	cr_assert_eq(lines("s/joblog"), 5);
	/* nor resumed with another grid */
	expect_status(sh(SWEEP " --resume --out s --grid 'seed=3' -- --no-render"), 2, "other grid");
	free(json);
	free(again);
}

Test(sweep, failed_run_is_reported_and_resume_runs_it_again)
{
	char cmd[1024];
	/* the second value names a trajectory that does not exist yet */
	snprintf(cmd, sizeof(cmd), SWEEP " --out f --grid 'init=%s/a.csv,%s/b.csv' " FAST " -- --no-render",
	         tmp, tmp);
	expect_status(tc_sh("\"$BOIDS_BIN\" --no-render " FAST " --trajectory a.csv -q"), 0, "trajectory");
	int st = sh(cmd);
	char *e = text("err.txt");
	cr_assert_eq(st, 1, "a failed run must give exit 1, got %d: %s", st, e);
	cr_assert(strstr(e, "b.csv") && strstr(e, "failed"), "failure not reported: %s", e);
	free(e);
	cr_assert_eq(lines("f/table.csv"), 2, "the table holds the run that worked");

	expect_status(tc_sh("cp a.csv b.csv"), 0, "cp");
	snprintf(cmd, sizeof(cmd), SWEEP " --resume --out f");
	expect_status(sh(cmd), 0, "resume after the fix");
	char *o = text("out.txt");
	cr_assert(strstr(o, "2 runs, 1 to run"), "resume must rerun the failed run only: %s", o);
	free(o);
	cr_assert_eq(lines("f/table.csv"), 3);
}

Test(sweep, contact_sheet_and_chart_are_drawn)
{
	sweep_2x2("--with-trajectory --with-metrics", "--no-render");
	cr_assert_eq(lines("s/runs/align-weight=0,seed=2.metrics.csv"), 21, "20 frames and a header");
	expect_status(sh("'" SRCDIR "/scripts/contact-sheet' --bin \"$BOIDS_BIN\" --width 160 s"), 0,
	              "contact sheet");
	/* two columns (seed has two values) of 160 px tiles with 8 px borders */
	cr_assert_eq(png_width("s/contact-sheet.png"), 2 * (160 + 16));

	expect_status(sh("'" SRCDIR "/scripts/chart' --x seed --y clusters_final --mean-over align-weight "
	                 "--size 400x300 -o c.png s/table.csv"), 0, "chart");
	cr_assert_eq(png_width("c.png"), 400);
	expect_status(sh("'" SRCDIR "/scripts/chart' --y no_such_column s/table.csv"), 2, "bad column");
}

Test(sweep, slurm_array_tasks_then_collect)
{
	cr_assert_eq(tc_sh("cp -r '" SRCDIR "/scripts' ."), 0);
	for (int i = 0; i < 4; i++) {
		char cmd[1024];
		snprintf(cmd, sizeof(cmd),
		         "SLURM_ARRAY_TASK_ID=%d BOIDS=\"$BOIDS_BIN\" OUT=sl GRID='align-weight=0,0.05 seed=1,2' "
		         "FIXED='" FAST " --no-render' bash '" SRCDIR "/examples/slurm-sweep.sbatch'", i);
		expect_status(sh(cmd), 0, "array task");
	}
	cr_assert_eq(tc_count_files("sl/runs"), 8);
	expect_status(sh("scripts/sweep --collect --out sl"), 0, "collect");
	cr_assert_eq(lines("sl/table.csv"), 5);
	/* the names scripts/sweep gives its runs */
	static const char *const names[] = { "align-weight=0,seed=1", "align-weight=0,seed=2",
		                             "align-weight=0.05,seed=1", "align-weight=0.05,seed=2" };
	for (int i = 0; i < 4; i++) {
		char path[256];
		snprintf(path, sizeof(path), "sl/runs/%s.json", names[i]);
		cr_assert_eq(access(path, R_OK), 0, "no %s", path);
	}
	/* a task whose summary exists runs nothing */
	expect_status(sh("SLURM_ARRAY_TASK_ID=3 BOIDS=\"$BOIDS_BIN\" OUT=sl GRID='align-weight=0,0.05 seed=1,2' "
	                 "FIXED='" FAST " --no-render' bash '" SRCDIR "/examples/slurm-sweep.sbatch'"), 0, "again");
	char *o = text("out.txt");
	cr_assert(strstr(o, "finished already"), "%s", o);
	free(o);
}

/*
 * A private sshd on 127.0.0.1 with keys made here: the same 2x2 sweep
 * through an ssh login file, on the shared disk and with --transfer.
 */
Test(sweep, through_an_ssh_login_file)
{
	if (access("/usr/sbin/sshd", X_OK) != 0) {
		teardown(); /* Criterion runs no .fini after a skip */
		cr_skip_test("no /usr/sbin/sshd (apt-get install openssh-server)");
	}
	int st = tc_sh(
		"exec >ssh.txt 2>&1; set -e; d=$PWD; mkdir -p /run/sshd 2>/dev/null || true\n"
		"ssh-keygen -q -t ed25519 -N '' -f host_key\n"
		"ssh-keygen -q -t ed25519 -N '' -f user_key\n"
		"cp user_key.pub authorized_keys\n"
		"port=$(python3 -c 'import socket; s = socket.socket(); s.bind((\"127.0.0.1\", 0)); print(s.getsockname()[1])')\n"
		"printf '%%s\\n' \"Port $port\" 'ListenAddress 127.0.0.1' \"HostKey $d/host_key\" \\\n"
		"  \"AuthorizedKeysFile $d/authorized_keys\" 'StrictModes no' 'UsePAM no' \\\n"
		"  'PasswordAuthentication no' 'KbdInteractiveAuthentication no' \\\n"
		"  'PermitRootLogin prohibit-password' \"AllowUsers $(id -un)\" >sshd_config\n"
		"opts=\"-p $port -i $d/user_key -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null "
		"-o BatchMode=yes -o LogLevel=ERROR\"\n"
		"echo \"4/ssh $opts $(id -un)@127.0.0.1\" >logins\n"
		"echo \"$opts $(id -un)@127.0.0.1\" >login\n");
	if (st != 0) {
		char *why = text("ssh.txt");
		cr_assert_fail("cannot make the keys and config: %s", why);
	}
	/* In the foreground (-D), as a child of this test, which reaps it. */
	char cfg[400], logpath[400];
	snprintf(cfg, sizeof(cfg), "%s/sshd_config", tmp);
	snprintf(logpath, sizeof(logpath), "%s/sshd.log", tmp);
	char *argv[] = { "/usr/sbin/sshd", "-D", "-f", cfg, "-E", logpath, NULL };
	if (posix_spawn(&sshd, argv[0], NULL, NULL, argv, environ) != 0)
		sshd = 0;
	st = sshd ? tc_sh("exec >ssh.txt 2>&1; for i in 1 2 3 4 5 6 7 8 9 10; do\n"
	                  "  ssh $(cat login) true && exit 0; sleep 0.3\n"
	                  "done; cat sshd.log; exit 1")
	          : 1;
	if (st != 0) {
		char *why = text("ssh.txt");
		teardown();
		cr_skip_test("cannot start a private sshd on 127.0.0.1: %s", why);
	}

	sweep_2x2("--sshloginfile logins", "--no-render");
	check_runs_and_table();
	/* every job ran through ssh, none on ':' (this machine without ssh) */
	expect_status(tc_sh("awk -F'\\t' 'NR > 1 && $2 !~ /^ssh -p/ { exit 1 }' s/joblog"), 0, "a job ran without ssh");

	if (access("/usr/bin/rsync", X_OK) == 0) {
		expect_status(tc_sh("mv s s-shared"), 0, "mv");
		sweep_2x2("--sshloginfile logins --transfer", "--no-render");
		check_runs_and_table();
		cr_assert_eq(access("s/ret-1.tar", F_OK), -1, "transfer archive left behind");
	}
}
