/*
 * Progress reports where they go when stderr is not a terminal: plain lines
 * with no control characters in a file, one JSON object per line for
 * programs.  The bar on a terminal needs a pseudo-terminal from the machine:
 * tests/integration/progress_tty.c.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

TestSuite(progress, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup);

Test(progress, always_off_a_terminal_writes_plain_lines)
{
	cr_assert_eq(tc_boids("--no-render -f 40 -n 500 --progress always --progress-interval 0.1"), 0);
	const char *e = tc_stderr();
	cr_assert(strstr(e, "boids: 40/40 frames (100%)"), "%s", e);
	for (const char *c = e; *c; c++)
		cr_assert(*c == '\n' || (*c >= ' ' && *c < 127), "control character %d in '%s'", *c, e);
}

Test(progress, json_is_one_object_per_line_ending_at_the_total)
{
	cr_assert_eq(tc_boids("--no-render -q -f 25 -n 500 --progress json --progress-interval 0.1"), 0);
	FILE *f = fopen("p.jsonl", "w");
	cr_assert_not_null(f);
	fputs(tc_stderr(), f);
	fclose(f);
	/* an independent parser: every line is an object with the four numbers */
	cr_assert_eq(tc_sh("%s -c 'import json,sys\n"
	                   "rows=[json.loads(l) for l in open(\"p.jsonl\")]\n"
	                   "assert rows and all(set(r)>={\"frame\",\"total\",\"fps\",\"eta\"} for r in rows)\n"
	                   "assert rows[-1][\"frame\"]==rows[-1][\"total\"]==25\n"
	                   "assert [r[\"frame\"] for r in rows]==sorted(set(r[\"frame\"] for r in rows))'", tc_python()),
	             0);
}

Test(progress, never_and_quiet_write_nothing)
{
	cr_assert_eq(tc_boids("--no-render -f 3 --progress never -q"), 0);
	cr_assert_str_empty(tc_stderr());
	cr_assert_eq(tc_boids("--no-render -f 3 -q"), 0);
	cr_assert_str_empty(tc_stderr());
}
