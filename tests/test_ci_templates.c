/*
 * The CI templates (examples/ci/) as the services read them: parsed as
 * YAML by tests/ci_templates.py (python3-yaml), which checks the order of
 * the steps (the checkout before the cache whose key hashes one of its
 * files; apt's cache restored before apt-get; build, render, publish),
 * the Pages set-up stated, the release on tags attaching what
 * examples/publish-demo.sh makes, and every file a step names present.
 * Running the shell steps on a bare Debian 12 is the integration tier's
 * (tests/integration/ci-templates.sh).
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "common.h"

Test(ci, templates_parse_and_their_steps_come_in_an_order_that_works)
{
	tc_tmpdir();
	int st = tc_sh("'%s' '%s/tests/ci_templates.py' '%s' >out.txt 2>&1", tc_python(), SRCDIR, SRCDIR);
	char *out = tc_slurp("out.txt", NULL);
	cr_assert_eq(st, 0, "examples/ci/:\n%s", out ? out : "");
	free(out);
	tc_cleanup();
}
