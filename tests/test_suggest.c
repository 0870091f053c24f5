/*
 * "Did you mean": suggest_distance() against a brute-force recursion of the
 * same definition on random short words, suggest_nearest() on a table read
 * in place, suggest_phrase()'s wording, and every name boids and the sweep
 * scripts look up (options, config keys, values, models, caption fields,
 * colours, encoders, presets) naming the nearest when a name is mistyped.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

Test(suggest, the_phrase_names_up_to_three_nearest_first)
{
	static const char *const names[] = { "frames", "flames", "fraces", "frame", "seed" };
	char out[160];
	cr_assert_eq(suggest_phrase(out, sizeof out, "{", "}", "frmes", 5, names, 5, sizeof names[0]), 3);
	cr_assert_str_eq(out, " (did you mean {frames}, {flames} or {fraces}?)");
	cr_assert_eq(suggest_phrase(out, sizeof out, "--", "", "sed", 3, names, 5, sizeof names[0]), 1);
	cr_assert_str_eq(out, " (did you mean --seed?)");
	cr_assert_eq(suggest_phrase(out, sizeof out, "", "", "zzzzzz", 6, names, 5, sizeof names[0]), 0);
	cr_assert_str_eq(out, "", "nothing near: nothing said");
	cr_assert_eq(suggest_phrase(out, 12, "", "", "frmes", 5, names, 5, sizeof names[0]), 3);
	cr_assert_eq(strlen(out), 11, "cut to the buffer: '%s'", out);
}

/* Every name boids looks up: a near miss names the nearest, a far one the choices. */
Test(suggest, every_name_boids_looks_up_suggests)
{
	static const struct { const char *args, *want; } cases[] = {
		{ "--config k.cfg", "k.cfg:2: unknown key 'aling-weight' (did you mean align-weight?)" },
		{ "-m stering", "--model: unknown value 'stering' (did you mean steering?)" },
		{ "--draw fats", "--draw: unknown value 'fats' (did you mean fast?)" },
		{ "--color-by heding", "--color-by: unknown value 'heding' (did you mean heading?)" },
		{ "--progress jsno", "--progress: unknown value 'jsno' (did you mean json?)" },
		{ "--edges wrapp", "--edges: unknown value 'wrapp' (did you mean wrap?)" },
		{ "--caption '{bodis}'", "--caption: no field '{bodis}' (did you mean {boids}?)" },
		{ "--background LightGren", "'LightGren' is not a colour (did you mean lightgreen" },
		{ "--codec libx246 -o a.mp4", "unknown encoder 'libx246' (did you mean libx264" },
		{ "--preset veryfats -o a.mp4", "unknown preset 'veryfats' for libx264 (did you mean veryfast?)" },
		{ "-o a.mp5", "--output: unknown kind of file 'a.mp5' (did you mean .mp4" },
		/* nothing near: the choices, as before */
		{ "--draw qqqqqqq", "--draw: unknown value 'qqqqqqq' (expected one of auto, exact, fast, points, density)" },
		{ "-m qqqqqqq", "--model: unknown value 'qqqqqqq' (expected one of harden," },
		{ "--background qqqqqqq", "is not a colour (#RRGGBB, #RGB or a CSS name such as lightgreen)" },
		{ "--codec qqqqqqq -o a.mp4", "unknown encoder 'qqqqqqq' (boids --list-codecs lists them)" },
	};
	cr_assert_eq(tc_sh("printf 'frames = 3\\naling-weight = 1\\n' > k.cfg"), 0);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cr_expect_eq(tc_boids("%s", cases[i].args), 2, "%s", cases[i].args);
		cr_expect(strstr(tc_stderr(), cases[i].want), "%s: %s", cases[i].args, tc_stderr());
		cr_expect(!strchr(tc_stderr(), '\n') || strchr(tc_stderr(), '\n')[1] == '\0', "one line: %s", tc_stderr());
	}
	cr_assert_eq(tc_count_files("."), 1, "a refused run wrote something");
}

/* The sweep tools share sweep's helper: its options, the table's, the report's. */
Test(suggest, the_sweep_scripts_suggest)
{
	static const struct { const char *cmd, *want; } cases[] = {
		{ "sweep-table' --hlp", "sweep-table: unknown option '--hlp' (did you mean --help?)" },
		{ "sweep-report' --ouptut r.html d", "sweep-report: unknown option '--ouptut' (did you mean --output?)" },
		{ "sweep' --bin \"$BOIDS_BIN\" --out s --grid seed=1 --chart-stat fianl",
		  "sweep: --chart-stat: 'fianl' is not mean or final (did you mean final?)" },
		{ "sweep' --bin \"$BOIDS_BIN\" --out s --grid 'draw=fats,exact' -- --no-render",
		  "sweep: --grid: point draw=fats: --draw: unknown value 'fats' (did you mean fast?)" },
		{ "sweep' --bin \"$BOIDS_BIN\" --out s --grid 'seed=1' --config k.cfg",
		  "unknown key 'aling-weight' (did you mean align-weight?)" },
	};
	cr_assert_eq(tc_sh("printf 'aling-weight = 1\\n' > k.cfg"), 0);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int st = tc_sh("'%s' '%s/scripts/%s > out.txt 2> err.txt", tc_python(), SRCDIR, cases[i].cmd);
		char *err = tc_slurp("err.txt", NULL);
		cr_expect_eq(st, 2, "%s: exit %d", cases[i].cmd, st);
		cr_expect(err && strstr(err, cases[i].want), "%s: %s", cases[i].cmd, err ? err : "(none)");
		free(err);
	}
	cr_assert_eq(access("s", F_OK), -1, "a refused sweep left its directory");
}
