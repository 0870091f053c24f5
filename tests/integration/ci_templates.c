/*
 * The CI templates' shell steps, run: tests/integration/ci-templates.sh
 * extracts them from the templates of examples/ci/ in the order the
 * runner runs them, and they run here, as root, in a copy of the working tree (its build/
 * included, so make demo builds nothing it need not), inside a mount
 * namespace whose /etc/apt/apt.conf.d is a scratch tmpfs (the GitLab
 * template writes apt's cache setting there; this machine's stays as it
 * is) and with apt-get replaced by a recorder: the packages are installed
 * already (make test-integration installs them), and the archive is not
 * this test's to fetch.  On a bare Debian 12 the same printed script
 * (ci-templates.sh --print) runs with the real apt-get.  Each template
 * must build, render and leave public/ as publish-demo.sh makes it.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(ci_templates, .init = setup, .fini = teardown, .timeout = 600);

static void run_template(const char *name)
{
	if (tc_sh("unshare %s true 2>/dev/null", getuid() == 0 ? "-m" : "-rm") != 0)
		cr_skip_test("no mount namespace here (unshare): the steps would write this machine's /etc/apt");
	/* the working tree with its build, times kept, without .git */
	cr_assert_eq(tc_sh("mkdir src && tar -C '%s' --exclude=./.git --exclude='./build-*' -cf - . | tar -C src -xf -",
	                   SRCDIR), 0);
	cr_assert_eq(tc_sh("rm -rf src/public src/flock.mp4"), 0);
	cr_assert_eq(tc_sh("'%s/tests/integration/ci-templates.sh' --print '%s/examples/ci/%s' > steps.sh 2>err.txt",
	                   SRCDIR, SRCDIR, name), 0, "extracting the steps of %s failed", name);
	cr_assert_eq(tc_sh("sh -n steps.sh"), 0, "the steps of %s are not sh", name);
	cr_assert_eq(tc_sh("mkdir stubs && printf '#!/bin/sh\\necho \"$*\" >> \"%%s/apt-get.log\"\\n' \"$PWD\" "
	                   "> stubs/apt-get && chmod +x stubs/apt-get"), 0);
	int st = tc_sh("cd src && unshare %s sh -c 'mount -t tmpfs ci /etc/apt/apt.conf.d && "
	               "PATH=\"$0/stubs:$PATH\" QUICK=1 sh ../steps.sh && "
	               "cat /etc/apt/apt.conf.d/* > ../apt-conf.txt 2>/dev/null; true' \"$(dirname \"$PWD\")\" "
	               "> ../log.txt 2>&1",
	               getuid() == 0 ? "-m" : "-rm");
	char *log = tc_slurp("log.txt", NULL);
	cr_assert_eq(st, 0, "the steps of %s failed:\n%.4000s", name, log ? log : "");
	free(log);
	static const char *const made[] = { "src/public/flock.mp4", "src/public/flock.webm", "src/public/poster.png",
		                            "src/public/index.html", "src/flock.mp4" };
	for (size_t i = 0; i < sizeof made / sizeof *made; i++)
		cr_assert_eq(access(made[i], F_OK), 0, "%s: the steps did not make %s", name, made[i] + 4);
	cr_assert(tc_same_file("src/flock.mp4", "src/public/flock.mp4"),
	          "%s: the published clip is not the one make demo rendered", name);
	char *apt = tc_slurp("apt-get.log", NULL);
	cr_assert(apt && strstr(apt, "update") && strstr(apt, "install") && strstr(apt, " make"),
	          "%s: apt-get was not asked for make: %s", name, apt ? apt : "(never run)");
	free(apt);
}

Test(ci_templates, github_actions_steps_build_render_and_publish)
{
	run_template("github-actions.yml");
}

Test(ci_templates, gitlab_ci_steps_build_render_and_publish_with_apt_cached_in_the_project)
{
	run_template("gitlab-ci.yml");
	char *conf = tc_slurp("apt-conf.txt", NULL);
	cr_assert(conf && strstr(conf, "Dir::Cache::Archives") && strstr(conf, "/src/.apt\""),
	          "apt's cache is not the project's .apt/: %s", conf ? conf : "(nothing)");
	free(conf);
	cr_assert_eq(access("src/.apt/partial", F_OK), 0, "no .apt/ for the cache to keep");
}
