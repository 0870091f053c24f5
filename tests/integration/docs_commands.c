/*
 * Every command the docs show runs as written: README.md, the Markdown of
 * docs/ and the man page's EXAMPLES, extracted and run by
 * tests/integration/docs-commands.py (its top comment, and
 * docs/ARCHITECTURE.md "Commands in the docs", give the convention, the
 * reviewed skip list and the shrunk heavy commands).  The script exits 1
 * when a command fails or a table entry matches no command any more.
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "common.h"

TestSuite(docs, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup, .timeout = 1200);

Test(docs, every_command_of_the_readme_the_docs_and_the_man_page_runs)
{
	/* TMPDIR: the script's directories (and the commands' temporaries) in this test's own */
	int rc = tc_sh("TMPDIR=\"$PWD\" %s '%s/tests/integration/docs-commands.py' '%s' > log.txt 2>&1",
	               tc_python(), SRCDIR, SRCDIR);
	char *log = tc_slurp("log.txt", NULL);
	cr_assert_eq(rc, 0, "%s", log ? log : "(no output)");
	free(log);
}
