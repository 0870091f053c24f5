/*
 * scripts/sweep on real machines: GNU parallel through ssh to a private
 * sshd on 127.0.0.1 (keys made here, jobs run by /bin/sh, a dead machine in
 * the login file, --transfer with ':' in it, a grid value that would run a
 * command in a shell), a sweep directory owned by another user (root
 * only), and a single-node Slurm (munged, slurmctld and slurmd started here
 * on a generated slurm.conf) that --slurm submits to and collects from.
 * Each test skips with the reason when its machinery cannot start.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "sweep_util.h"

#define SWEEP "'" SRCDIR "/scripts/sweep' --bin \"$BOIDS_BIN\""
#define FAST "--frames 5 --boids 20 --threads 1"

static const char *tmp;

static void setup(void) { tmp = tc_tmpdir(); }

/* Stops the daemons this test started (their pid files are in its
 * directory) and waits until they are gone: slurmctld writes its state
 * files while it stops, and the directory cannot go before that. */
static void teardown(void)
{
	tc_sh("p=; for f in sshd.pid slurmd.pid slurmctld.pid munged.pid; do "
	      "[ -s \"$f\" ] && q=$(cat \"$f\") && kill \"$q\" 2>/dev/null && p=\"$p $q\"; done; "
	      "for i in $(seq 300); do a=; for q in $p; do kill -0 \"$q\" 2>/dev/null && a=1; done; "
	      "[ -z \"$a\" ] && break; sleep 0.1; done; "
	      "for u in bsweepdash bsweepother; do id \"$u\" >/dev/null 2>&1 && userdel -r \"$u\" 2>/dev/null; done; true");
	tc_cleanup();
}

TestSuite(sweep_hosts, .init = setup, .fini = teardown, .timeout = 600);


/*
 * A private sshd on 127.0.0.1 in the foreground of nothing: -f our config,
 * a PidFile here.  Writes "login" (the ssh command for `user`).  0 or skip.
 */
static void start_sshd(const char *user)
{
	if (access("/usr/sbin/sshd", X_OK) != 0) {
		teardown();
		cr_skip_test("no /usr/sbin/sshd (apt-get install openssh-server)");
	}
	int st = tc_sh(
		"exec >ssh.txt 2>&1; set -e; d=$PWD; mkdir -p /run/sshd 2>/dev/null || true\n"
		"chmod 755 \"$d\"\n"
		"ssh-keygen -q -t ed25519 -N '' -f host_key\n"
		"ssh-keygen -q -t ed25519 -N '' -f user_key\n"
		"cp user_key.pub authorized_keys; chmod 644 authorized_keys\n"		"if [ %s != root ]; then h=$(getent passwd %s | cut -d: -f6); mkdir -p \"$h/.ssh\" && "
		"cp user_key.pub \"$h/.ssh/authorized_keys\" && chown -R %s \"$h/.ssh\"; fi\n"
		"port=$(python3 -c 'import socket; s = socket.socket(); s.bind((\"127.0.0.1\", 0)); print(s.getsockname()[1])')\n"
		"printf '%%s\\n' \"Port $port\" 'ListenAddress 127.0.0.1' \"HostKey $d/host_key\" \\\n"
		"  \"AuthorizedKeysFile $d/authorized_keys .ssh/authorized_keys\" 'StrictModes no' 'UsePAM no' \\\n"
		"  'PasswordAuthentication no' 'KbdInteractiveAuthentication no' \\\n"
		"  'PermitRootLogin prohibit-password' \"PidFile $d/sshd.pid\" >sshd_config\n"
		"/usr/sbin/sshd -f \"$d/sshd_config\" -E \"$d/sshd.log\"\n"
		"echo \"ssh -p $port -i $d/user_key -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null "
		"-o BatchMode=yes -o LogLevel=ERROR %s@127.0.0.1\" >login\n"
		"for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do\n"
		"  $(cat login) true && exit 0; sleep 0.5\n"
		"done; cat sshd.log; exit 1", user, user, user, user);
	if (st != 0) {
		char *why = text("ssh.txt");
		teardown();
		cr_skip_test("cannot start a private sshd on 127.0.0.1: %s", why);
	}
}

/*
 * Shared disk: every job through ssh, run by /bin/sh (PARALLEL_SHELL), with
 * a grid value built to escape a $'...' quote; a dead machine makes the
 * sweep refuse to start, naming it, until --filter-hosts leaves it out.
 */
Test(sweep_hosts, ssh_shared_disk_dead_host_and_sh)
{
	start_sshd("root");
	if (geteuid() != 0) { /* the login above is for root */
		teardown();
		cr_skip_test("needs root for the loopback login");
	}
	expect_status(tc_sh("echo \"2/$(cat login)\" >logins && "
	                    "echo 'ssh -p 1 -o ConnectTimeout=3 -o BatchMode=yes root@127.0.0.1' >>logins"), 0, "logins");
	const char *grid = "--grid \"preset=$(printf '\\001\\047; touch pwned; #'),b\" --grid seed=1,2 ";
	char cmd[2048];
	snprintf(cmd, sizeof(cmd), "PARALLEL_SHELL=/bin/sh " SWEEP " --out dead --sshloginfile logins %s" FAST
	         " -- --no-render", grid);
	expect_status(sh(cmd), 1, "a dead machine");
	char *e = text("err.txt");
	cr_assert(strstr(e, "machine 'ssh -p 1 ") && strstr(e, "--filter-hosts"), "%s", e);
	free(e);

	snprintf(cmd, sizeof(cmd), "PARALLEL_SHELL=/bin/sh " SWEEP " --out s --sshloginfile logins --filter-hosts "
	         "--retries 2 %s" FAST " -- --no-render", grid);
	expect_status(sh(cmd), 0, "with --filter-hosts");
	/* every run through the live machine, the value as data */
	expect_status(tc_sh("test $(grep -c ',complete,' s/table.csv) = 4 && "
	                    "awk -F'\\t' '$2 !~ /^ssh -p [0-9]+ -i/ { exit 1 }' s/joblog && "
	                    "grep -q '\"preset\": \"\\\\u0001'\"'\"'; touch pwned; #\"' s/runs/*seed=1.json"),
	              0, "runs");
	cr_assert_eq(access("pwned", F_OK), -1, "a grid value ran a command");
	cr_assert_eq(access("s/pwned", F_OK), -1, "a grid value ran a command");
}

/*
 * No shared disk (--transfer): a login file with ':' (this machine) and a
 * user whose login shell is dash; every point comes back.
 */
Test(sweep_hosts, transfer_with_this_machine_and_a_dash_user)
{
	if (geteuid() != 0 || access("/bin/dash", X_OK) != 0 || access("/usr/sbin/useradd", X_OK) != 0) {
		teardown();
		cr_skip_test("needs root, dash and useradd to make a user with dash as login shell");
	}
	if (tc_sh("useradd -m -s /bin/dash bsweepdash >/dev/null 2>&1") != 0) {
		teardown();
		cr_skip_test("cannot add the user bsweepdash");
	}
	start_sshd("bsweepdash");
	expect_status(tc_sh("{ echo ':'; echo \"2/$(cat login)\"; } >logins"), 0, "logins");
	expect_status(sh(SWEEP " --out t --sshloginfile logins --transfer --grid 'seed=1,2,3,4' "
	                 "--grid \"preset=$(printf 'a\\047b;$(touch pwned)')\" " FAST " -- --no-render"), 0, "--transfer");
	expect_status(tc_sh("test $(grep -c ',complete,' t/table.csv) = 4"), 0, "four complete points");
	expect_status(tc_sh("awk -F'\\t' '$2 ~ /bsweepdash@/ { n++ } END { exit !n }' t/joblog"), 0,
	              "no job went through ssh to the dash user");
	cr_assert_eq(tc_sh("ls -a ~bsweepdash | grep -q pwned"), 1, "a value ran a command");
	cr_assert_eq(access("t/ret", F_OK), 0);
	cr_assert_eq(tc_count_files("t/ret"), 0, "results left behind");
}

/* A directory another user made is never used, nor resumed. */
Test(sweep_hosts, another_users_directory_is_refused)
{
	if (geteuid() != 0 || access("/usr/sbin/useradd", X_OK) != 0 ||
	    tc_sh("useradd -M bsweepother >/dev/null 2>&1") != 0) {
		teardown();
		cr_skip_test("needs root and useradd for a second user");
	}
	expect_status(tc_sh("chmod 755 . && mkdir shared && chmod 1777 shared && runuser -u bsweepother -- mkdir shared/theirs && "
	                    "runuser -u bsweepother -- ln -s /etc/passwd shared/theirs/sweep.json"), 0, "setup");
	expect_status(sh(SWEEP " --out shared/theirs --grid seed=1 -- --no-render"), 2, "another user's directory");
	char *e = text("err.txt");
	cr_assert(strstr(e, "belongs to another user"), "%s", e);
	free(e);
	expect_status(sh(SWEEP " --out shared/theirs --resume"), 2, "--resume");
	expect_status(sh(SWEEP " --out shared/theirs --collect"), 2, "--collect");
	expect_status(sh(SWEEP " --out shared/theirs --task 0"), 2, "--task");
}

/*
 * Slurm on this machine: munged, slurmctld and slurmd on a slurm.conf made
 * here (its own ports, spool and state); --slurm --wait submits the array,
 * waits and collects.
 */
Test(sweep_hosts, slurm_array_on_one_node)
{
	if (geteuid() != 0 || access("/usr/sbin/slurmctld", X_OK) != 0 || access("/usr/sbin/munged", X_OK) != 0 ||
	    access("/etc/munge/munge.key", R_OK) != 0) {
		teardown();
		cr_skip_test("needs root, slurm-wlm and munge (with /etc/munge/munge.key)");
	}
	int st = tc_sh(
		"exec >slurm.txt 2>&1; set -e; d=$PWD\n"
		"cp /etc/munge/munge.key key; chmod 600 key; mkdir state spool\n"
		"/usr/sbin/munged --force --socket=$d/munge.sock --key-file=$d/key --pid-file=$d/munged.pid "
		"--log-file=$d/munged.log --seed-file=$d/seed\n"
		"p=$(python3 -c 'import socket; s = socket.socket(); s.bind((\"127.0.0.1\", 0)); print(s.getsockname()[1])')\n"
		"h=$(hostname)\n"
		"cat >slurm.conf <<EOF\n"
		"ClusterName=boidstest\nSlurmctldHost=$h(127.0.0.1)\nSlurmUser=root\nSlurmdUser=root\n"
		"AuthType=auth/munge\nAuthInfo=socket=$d/munge.sock\nCredType=cred/munge\n"
		"StateSaveLocation=$d/state\nSlurmdSpoolDir=$d/spool\n"
		"SlurmctldPidFile=$d/slurmctld.pid\nSlurmdPidFile=$d/slurmd.pid\n"
		"SlurmctldLogFile=$d/slurmctld.log\nSlurmdLogFile=$d/slurmd.log\n"
		"SlurmctldPort=$p\nSlurmdPort=$((p + 1))\nProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
		"SchedulerType=sched/builtin\nSelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n"
		"ReturnToService=2\nMpiDefault=none\nDebugFlags=NO_CONF_HASH\n"
		"NodeName=$h NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN\n"
		"PartitionName=debug Nodes=$h Default=YES MaxTime=INFINITE State=UP\n"
		"EOF\n"
		"export SLURM_CONF=$d/slurm.conf\n"
		"/usr/sbin/slurmctld -i; /usr/sbin/slurmd\n"
		"for i in $(seq 60); do sinfo -h -o %%t 2>/dev/null | grep -q idle && exit 0; sleep 0.5; done\n"
		"tail -n 5 slurmctld.log slurmd.log; exit 1");
	if (st != 0) {
		char *why = text("slurm.txt");
		teardown();
		cr_skip_test("cannot start a single-node Slurm here: %s", why);
	}
	expect_status(sh("SLURM_CONF=$PWD/slurm.conf " SWEEP " --out sl --slurm --wait --jobs 2 "
	                 "--grid 'align-weight=0,0.05' --replicates 2 " FAST " -- --no-render"), 0, "--slurm --wait");
	char *o = text("out.txt");
	cr_assert(strstr(o, "4 of 4 points complete"), "%s", o);
	free(o);
	/* watched while the array ran: a line for every point that ended */
	expect_status(tc_sh("test $(grep -c \"^sweep: point [0-3] 'align-weight=0[.0-9]*,seed=[12]': complete (\" err.txt) = 4"),
	              0, "--slurm --wait shows each point's end");
	expect_status(tc_sh("test $(grep -c ',complete,' sl/table.csv) = 4 && test -s sl/stats.csv && "
	                    "ls sl/slurm/*_3.out >/dev/null"), 0, "tables and task logs");
}
