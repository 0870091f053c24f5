/*
 * The manual: docs/boids.1 formats without a warning (groff -ww, the
 * PostScript and UTF-8 devices: no unknown escape or glyph, nothing that
 * would show as "(marked with 026)"), `make install` puts it where
 * `man boids` looks, and the help's pointers to it hold both after
 * installing and from a source checkout.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(manual, .init = setup, .fini = teardown);

Test(manual, formats_without_a_warning)
{
	static const char *const devices[] = { "", "-Tutf8" };
	for (size_t i = 0; i < sizeof devices / sizeof *devices; i++) {
		int st = tc_sh("groff -ww -z -man %s '%s/docs/boids.1' >out.txt 2>err.txt", devices[i], SRCDIR);
		size_t n = 0;
		char *err = tc_slurp("err.txt", &n);
		cr_assert_eq(st, 0, "groff -ww -z -man %s: exit %d: %s", devices[i], st, err ? err : "");
		cr_assert_eq(n, 0, "groff -ww -z -man %s warns:\n%s", devices[i], err);
		free(err);
	}
}

Test(manual, make_install_puts_it_where_man_boids_looks)
{
	cr_assert_eq(tc_sh("make -n -s -C '%s' install DESTDIR=/D PREFIX=/P >plan.txt 2>&1", SRCDIR), 0);
	char *plan = tc_slurp("plan.txt", NULL);
	cr_assert_not_null(plan);
	cr_assert_not_null(strstr(plan, "docs/boids.1 /D/P/share/man/man1/boids.1\n"),
	                   "make install does not install the manual as PREFIX/share/man/man1/boids.1:\n%s", plan);
	free(plan);
}

/* Each help names `man boids` and, for a checkout, a file that is there. */
Test(manual, the_help_says_how_to_read_it_installed_and_from_a_checkout)
{
	static const char *const helps[] = { "--help", "--help-all" };
	for (size_t i = 0; i < 2; i++) {
		cr_assert_eq(tc_boids("%s", helps[i]), 0);
		const char *out = tc_stdout(), *line = strstr(out, "man boids");
		cr_assert_not_null(line, "%s does not say 'man boids'", helps[i]);
		const char *path = strstr(line, "man ./");
		cr_assert_not_null(path, "%s gives no way to read the manual from a checkout", helps[i]);
		char rel[256], file[4096];
		cr_assert_eq(sscanf(path + 4, "%255[^ )\n]", rel), 1);
		snprintf(file, sizeof file, "%s/%s", SRCDIR, rel);
		char *man = tc_slurp(file, NULL);
		cr_assert_not_null(man, "%s names %s, which a checkout does not have", helps[i], rel);
		cr_assert_not_null(strstr(man, ".TH BOIDS 1"), "%s is not boids(1)", rel);
		free(man);
	}
	/* --help-all ends with it */
	const char *out = tc_stdout();
	size_t n = strlen(out);
	cr_assert(n > 1 && out[n - 1] == '\n');
	const char *last = out + n - 1;
	while (last > out && last[-1] != '\n')
		last--;
	cr_assert(strncmp(last, "Manual: man boids", 17) == 0, "--help-all's last line: %s", last);
}
