/*
 * "Did you mean": suggest_distance() against a brute-force recursion of the
 * same definition on random short words, suggest_nearest() on a table read
 * in place, and boids' own unknown-option message naming the nearest options.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "suggest.h"

TestSuite(suggest, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup, .timeout = 60);

/* The optimal string alignment distance, straight from its definition. */
static size_t brute(const char *a, size_t i, const char *b, size_t j)
{
	if (i == 0)
		return j;
	if (j == 0)
		return i;
	size_t d = brute(a, i - 1, b, j - 1) + (a[i - 1] != b[j - 1]);
	size_t del = brute(a, i - 1, b, j) + 1, ins = brute(a, i, b, j - 1) + 1;
	d = del < d ? del : d;
	d = ins < d ? ins : d;
	if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
		size_t sw = brute(a, i - 2, b, j - 2) + 1;
		d = sw < d ? sw : d;
	}
	return d;
}

Test(suggest, distance_is_the_definition)
{
	cr_assert_eq(suggest_distance("wieght", 6, "weight", 6), 1, "a swap costs 1");
	cr_assert_eq(suggest_distance("", 0, "abc", 3), 3);
	cr_assert_eq(suggest_distance("frames", 6, "frames", 6), 0);
	char big[SUGGEST_MAX_LEN + 2];
	memset(big, 'a', sizeof(big));
	cr_assert_eq(suggest_distance(big, sizeof(big), "a", 1), SIZE_MAX, "a word past the limit");
	unsigned seed = 12345;
	for (int k = 0; k < 3000; k++) {
		char a[8], b[8];
		size_t la = (seed = seed * 1103515245u + 12345u) >> 16 & 7, lb = (seed = seed * 1103515245u + 12345u) >> 16 & 7;
		for (size_t i = 0; i < la; i++)
			a[i] = (char)('a' + ((seed = seed * 1103515245u + 12345u) >> 16) % 3);
		for (size_t i = 0; i < lb; i++)
			b[i] = (char)('a' + ((seed = seed * 1103515245u + 12345u) >> 16) % 3);
		cr_assert_eq(suggest_distance(a, la, b, lb), brute(a, la, b, lb), "'%.*s' '%.*s'", (int)la, a, (int)lb, b);
	}
}

struct row { int other; const char *name; };

Test(suggest, nearest_rows_of_a_table)
{
	static const struct row t[] = { { 1, "frames" }, { 2, "align-weight" }, { 3, "gl-align-weight" },
		                        { 4, "cohesion-weight" }, { 5, "flames" }, { 6, "seed" } };
	size_t best[3];
	size_t n = suggest_nearest("align-wieght", 12, &t[0].name, 6, sizeof(t[0]), best, 3);
	cr_assert_eq(n, 1, "only the nearest (1) and one more (2) are near: %zu", n);
	cr_assert_eq(best[0], 1);
	n = suggest_nearest("frmes", 5, &t[0].name, 6, sizeof(t[0]), best, 3);
	cr_assert(n == 2 && best[0] == 0 && best[1] == 4, "frames (1), then flames (2): %zu", n);
	cr_assert_eq(suggest_nearest("zzzzzzzzzz", 10, &t[0].name, 6, sizeof(t[0]), best, 3), 0, "nothing near");
	cr_assert_eq(suggest_nearest("sd", 2, &t[0].name, 6, sizeof(t[0]), best, 3), 0,
	             "two letters are 2 from seed, as from anything of 2 letters");
	n = suggest_nearest("sed", 3, &t[0].name, 6, sizeof(t[0]), best, 3);
	cr_assert(n == 1 && best[0] == 5, "sed is 1 from seed: %zu", n);
}

Test(suggest, boids_names_the_nearest_options)
{
	cr_assert_eq(tc_boids("--align-wieght 3"), 2);
	cr_assert(strstr(tc_stderr(), "unknown option '--align-wieght' (did you mean --align-weight?)"), "%s",
	          tc_stderr());
	cr_assert_eq(tc_boids("--frmes=3"), 2);
	cr_assert(strstr(tc_stderr(), "did you mean --frames"), "%s", tc_stderr());
	cr_assert_eq(tc_boids("--qqqqqqqqqqqq"), 2);
	cr_assert(strstr(tc_stderr(), "(see --help)") && !strstr(tc_stderr(), "did you mean"), "%s", tc_stderr());
	cr_assert_eq(tc_count_files("."), 0, "a refused run wrote something");
}
