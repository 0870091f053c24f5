/*
 * The README's promise, checked: a clean clone of the committed HEAD passes
 * `make test` as an ordinary user, touching nothing but its own build
 * directory and temporary files.  As root, the run drops to a user made for
 * it with useradd (removed afterwards); as an ordinary user, it runs as that
 * user.  The packages must be there already (make test-integration installs
 * them): an ordinary user cannot install them.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(fresh, .init = setup, .fini = teardown, .timeout = 1200);

#define USER "boids-test"

/* The lines of the clone's log that explain a failure, at most ~4 KB. */
static char *failures(void)
{
	tc_sh("grep -E '\\[FAIL\\]|Assertion|rror|Test timed out|crash' log | grep -v Synthesis | head -c 4000 > why");
	char *why = tc_slurp("why", NULL);
	return why ? why : strdup("(no log)");
}

Test(fresh, a_clean_clone_passes_make_test_as_an_ordinary_user)
{
	if (tc_sh("git -C '%s' rev-parse --verify -q HEAD >/dev/null 2>&1", SRCDIR) != 0)
		cr_skip_test("%s is not a git checkout: nothing committed to clone", SRCDIR);
	cr_assert_eq(chmod(".", 0755), 0);
	/* its own copy of every object: chown must not reach the source */
	cr_assert_eq(tc_sh("git clone -q --no-hardlinks '%s' clone 2>log", SRCDIR), 0, "git clone failed");
	cr_assert_eq(mkdir("home", 0755), 0);

	const char *as = "";
	int made = 0;
	if (geteuid() == 0) {
		if (tc_sh("id -u " USER " >/dev/null 2>&1") != 0) {
			if (tc_sh("useradd --system --no-create-home --home-dir /nonexistent --shell /bin/sh " USER
			          " >why 2>&1") != 0) {
				char *why = tc_slurp("why", NULL);
				cr_skip_test("root, but cannot make an unprivileged user: %s", why ? why : "");
			}
			made = 1;
		}
		cr_assert_eq(tc_sh("chown -R " USER ": clone home"), 0);
		as = "setpriv --reuid=$(id -u " USER ") --regid=$(id -g " USER ") --init-groups ";
	}
	/* a bare environment, as a newcomer's login shell has */
	int st = tc_sh("%senv -i HOME=\"$PWD/home\" PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 "
	               "make -C clone test >log 2>&1",
	               as);
	/* what the user left in the shared temporary directories */
	if (*as)
		tc_sh("find /tmp /var/tmp -xdev -path \"$PWD\" -prune -o -user " USER " -print 2>/dev/null | head -5 > left");
	if (made)
		tc_sh("userdel " USER " 2>/dev/null");
	char *why = failures();
	cr_assert_eq(st, 0, "make test in a clean clone exited %d:\n%s", st, why);
	cr_assert_eq(tc_sh("grep -Eq 'Synthesis: Tested: [1-9][0-9]* \\| Passing: [1-9][0-9]* \\| Failing: 0 \\| Crashing: 0' log"),
	             0, "the clone's suite did not run clean:\n%s", why);
	free(why);
	/* nothing written into the checkout but build/, nothing into $HOME */
	cr_assert_eq(tc_sh("git -c safe.directory='*' -C clone status --porcelain --ignored > status && test \"$(cat status)\" = '!! build/'"), 0,
	             "the suite wrote into the checkout: %s", tc_slurp("status", NULL));
	cr_assert_eq(tc_count_files("home"), 0, "the suite wrote into $HOME");
	if (*as)
		cr_assert_eq(tc_sh("test ! -s left"), 0, "the suite left files in /tmp or /var/tmp: %s", tc_slurp("left", NULL));
}
