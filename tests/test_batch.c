/*
 * boids --check-configs: many runs' settings in one process, each checked by
 * the run's own parse and resolve step.  Against independent answers: the
 * config a per-point --print-config writes, the options_hash a real run's
 * summary holds, and the messages the same values give on a command line.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(batch, .init = setup, .fini = teardown, .timeout = 60);

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert(f);
	cr_assert_eq(fputs(text, f) >= 0, 1);
	cr_assert_eq(fclose(f), 0);
}

/* Line k of text (from 0), malloc'ed, without its newline. */
static char *line_of(const char *text, int k)
{
	for (; k > 0 && text; k--)
		text = strchr(text, '\n') ? strchr(text, '\n') + 1 : NULL;
	cr_assert(text && *text, "no line %d", k);
	return strndup(text, strcspn(text, "\n"));
}

#define BASE "--no-render -f 2 -n 30 -s 160x90"

Test(batch, each_line_is_what_print_config_and_the_run_give)
{
	static const char *const lines[] = {
		"{\"align-weight\": \"0.25\", \"seed\": 7, \"box\": true}",
		"{}",
		"{\"obstacle\": \"\", \"obstacle\": \"40,40,8\", \"obstacle\": \"100,50,5\", \"model\": \"steering\"}",
		"{\"preset\": \"  two blanks \\u00e9\\\"q\\\" \", \"edges\": \"wrap\", \"avoid-weight\": 2.5e1}",
	};
	static const char *const args[] = {
		"--align-weight 0.25 --seed 7 --box",
		"",
		"--obstacle 40,40,8 --obstacle 100,50,5 -m steering",
		"--preset '  two blanks \xc3\xa9\"q\" ' --edges wrap --avoid-weight 25",
	};
	char all[2048] = "";
	for (size_t i = 0; i < 4; i++)
		strcat(strcat(all, lines[i]), "\n");
	write_text("p.jsonl", all);
	cr_assert_eq(tc_sh("mkdir d"), 0);
	cr_assert_eq(tc_boids(BASE " --check-configs p.jsonl --config-dir d"), 0, "%s", tc_stderr());
	char *hashes = strdup(tc_stdout());
	for (int i = 0; i < 4; i++) {
		char name[32];
		snprintf(name, sizeof name, "d/%d.cfg", i);
		char *got = tc_slurp(name, NULL);
		cr_assert_not_null(got, "no %s", name);
		cr_assert_eq(tc_boids(BASE " %s --print-config", args[i]), 0, "%s", tc_stderr());
		cr_expect_str_eq(got, tc_stdout(), "line %d's config is not --print-config's", i + 1);
		free(got);
		/* the hash is the one a run of those settings puts in its summary */
		cr_assert_eq(tc_boids("--config %s --summary s.json -q -y", name), 0, "%s", tc_stderr());
		char *sum = tc_slurp("s.json", NULL), *h = line_of(hashes, i);
		cr_expect(strstr(sum, h), "line %d: hash %s is not the run's", i + 1, h);
		free(sum);
		free(h);
	}
	free(hashes);
	cr_expect_eq(tc_count_files("d"), 4, "temporary files left behind");
}

Test(batch, a_refused_line_is_named_as_the_run_names_it)
{
	write_text("p.jsonl", "{\"seed\": 1}\n"
	                      "{\"align-weight\": \"abc\"}\n"
	                      "{\"no-such-key\": \"1\"}\n"
	                      "not json\n"
	                      "{\"frames\": 0}\n"
	                      "{\"seed\": 2}\n");
	cr_assert_eq(tc_sh("mkdir d"), 0);
	cr_expect_eq(tc_boids(BASE " --check-configs p.jsonl --config-dir d"), 2);
	char *err = strdup(tc_stderr()), *out = strdup(tc_stdout());
	/* the same value on a command line: the run's own message */
	cr_assert_eq(tc_boids(BASE " --align-weight abc"), 2);
	char want[600];
	snprintf(want, sizeof want, "boids: p.jsonl:2: %s", tc_stderr() + strlen("boids: "));
	cr_expect(strstr(err, want), "want %s in:\n%s", want, err);
	cr_expect(strstr(err, "boids: p.jsonl:3: unknown key 'no-such-key'\n"), "%s", err);
	cr_expect(strstr(err, "boids: p.jsonl:4: expected a JSON object"), "%s", err);
	cr_expect(strstr(err, "boids: p.jsonl:5: --frames: 0 is out of range"), "%s", err);
	for (int i = 0; i < 6; i++) {
		char *l = line_of(out, i);
		int refused = i >= 1 && i <= 4;
		cr_expect(refused ? strcmp(l, "-") == 0 : strncmp(l, "sha256:", 7) == 0,
		          "stdout line %d: %s", i + 1, l);
		free(l);
	}
	cr_expect_eq(tc_count_files("d"), 2, "only the accepted lines are written");
	cr_expect_eq(tc_sh("test -s d/0.cfg && test -s d/5.cfg"), 0);
	free(err);
	free(out);
}

Test(batch, the_command_line_wins_and_bad_use_is_refused)
{
	write_text("p.jsonl", "{\"seed\": 7}\n");
	cr_assert_eq(tc_boids(BASE " --seed 5 --check-configs p.jsonl"), 0, "%s", tc_stderr());
	char *h = line_of(tc_stdout(), 0);
	cr_assert_eq(tc_boids(BASE " --seed 5 --check-configs p.jsonl --config-dir ."), 0);
	char *c = tc_slurp("0.cfg", NULL);
	cr_expect(c && strstr(c, "\nseed = 5\n"), "the command line's seed did not win: %s", c);
	free(c);
	free(h);
	cr_expect_eq(tc_boids(BASE " --config-dir ."), 2, "--config-dir alone");
	cr_expect(strstr(tc_stderr(), "--config-dir goes with --check-configs"), "%s", tc_stderr());
	cr_expect_eq(tc_boids(BASE " --check-configs missing.jsonl"), 2);
	cr_expect(strstr(tc_stderr(), "cannot open 'missing.jsonl'"), "%s", tc_stderr());
	cr_expect_eq(tc_boids(BASE " --check-configs p.jsonl --config-dir nodir"), 2);
	cr_expect(strstr(tc_stderr(), "'nodir' is not a directory"), "%s", tc_stderr());
}

/*
 * Past parsing, the run's own checks (outputs, --init, memory), as
 * --print-config makes them: a line they refuse is named by its number,
 * "-" on standard output, and the checking goes on to the end; a closing
 * line counts the refused, and the exit status is 2.
 */
Test(batch, the_runs_checks_refuse_a_line_as_print_config_does_and_checking_goes_on)
{
	write_text("exists.csv", "x\n");
	write_text("p.jsonl", "{\"seed\": 1}\n"
	                      "{\"trajectory\": \"t.csv\", \"metrics\": \"t.csv\"}\n"
	                      "{\"seed\": 3}\n"
	                      "{\"trajectory-every\": 2}\n"
	                      "{\"metrics\": \"exists.csv\"}\n"
	                      "{\"seed\": 4}\n");
	cr_expect_eq(tc_boids(BASE " --check-configs p.jsonl"), 2);
	char *err = strdup(tc_stderr()), *out = strdup(tc_stdout());
	static const char *const alone[] = { "--trajectory t.csv --metrics t.csv", "--trajectory-every 2",
	                                     "--metrics exists.csv" };
	static const int lineno[] = { 2, 4, 5 };
	for (int i = 0; i < 3; i++) { /* each refusal as --print-config gives it, with its line */
		cr_assert_eq(tc_boids(BASE " %s --print-config", alone[i]), 2, "%s", alone[i]);
		char want[600];
		snprintf(want, sizeof want, "boids: p.jsonl:%d: %s", lineno[i], tc_stderr() + strlen("boids: "));
		cr_expect(strstr(err, want), "want %s in:\n%s", want, err);
	}
	cr_expect(strstr(err, "boids: p.jsonl: 3 of 6 lines refused\n"), "%s", err);
	for (int i = 0; i < 6; i++) {
		char *l = line_of(out, i);
		int refused = i == 1 || i == 3 || i == 4;
		cr_expect(refused ? strcmp(l, "-") == 0 : strncmp(l, "sha256:", 7) == 0,
		          "stdout line %d: %s", i + 1, l);
		free(l);
	}
	free(err);
	free(out);
}

/* A line too long to hold is refused alone: the next lines are still read and checked. */
Test(batch, a_line_too_long_is_refused_and_the_next_ones_are_checked)
{
	FILE *f = fopen("p.jsonl", "w");
	cr_assert(f);
	fputs("{\"seed\": 1}\n{\"caption\": \"", f);
	for (int i = 0; i < (1 << 20); i++)
		fputc('a', f);
	fputs("\"}\n{\"seed\": 2}\n", f);
	cr_assert_eq(fclose(f), 0);
	cr_expect_eq(tc_boids(BASE " --check-configs p.jsonl"), 2);
	cr_expect(strstr(tc_stderr(), "boids: p.jsonl:2: line longer than 1048576 bytes\n"), "%s", tc_stderr());
	const char *out = tc_stdout();
	cr_expect(strncmp(out, "sha256:", 7) == 0, "%s", out);
	char *l = line_of(out, 1), *l3 = line_of(out, 2);
	cr_expect_str_eq(l, "-");
	cr_expect(strncmp(l3, "sha256:", 7) == 0, "line 3: %s", l3);
	free(l);
	free(l3);
}

/*
 * JSON's \u escapes decode to the UTF-8 of their code points (RFC 8259 and
 * RFC 3629, bytes written here by hand): each boundary of the 1-, 2-, 3-
 * and 4-byte forms, U+0800 (was written as an invalid 2-byte form),
 * U+FFFF, and surrogate pairs, first and last; a lone surrogate is refused.
 * The value reaches the config written for the line byte for byte.
 */
Test(batch, unicode_escapes_decode_to_their_utf8_bytes)
{
	static const struct { const char *escape, *utf8; } cases[] = {
		{ "\\u0041", "A" },                       /* the 1-byte form */
		{ "\\u0080", "\xc2\x80" },
		{ "\\u07FF", "\xdf\xbf" },
		{ "\\u0800", "\xe0\xa0\x80" },
		{ "\\ud7ff", "\xed\x9f\xbf" },            /* just below the surrogates */
		{ "\\ue000", "\xee\x80\x80" },            /* just above them */
		{ "\\uFFFF", "\xef\xbf\xbf" },
		{ "\\ud800\\udc00", "\xf0\x90\x80\x80" }, /* U+10000 */
		{ "\\uD83D\\uDC26", "\xf0\x9f\x90\xa6" }, /* U+1F426, a bird */
		{ "\\udbff\\udfff", "\xf4\x8f\xbf\xbf" }, /* U+10FFFF */
	};
	char all[4096] = "";
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		snprintf(all + strlen(all), sizeof all - strlen(all), "{\"preset\": \"a%sb\"}\n", cases[i].escape);
	strcat(all, "{\"preset\": \"\\ud800\"}\n{\"preset\": \"\\udc00\\ud800\"}\n");
	write_text("p.jsonl", all);
	cr_assert_eq(tc_sh("mkdir d"), 0);
	cr_expect_eq(tc_boids(BASE " --check-configs p.jsonl --config-dir d"), 2);
	char *err = strdup(tc_stderr());
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char name[32], want[64];
		snprintf(name, sizeof name, "d/%zu.cfg", i);
		char *got = tc_slurp(name, NULL);
		cr_assert_not_null(got, "line %zu (%s) was refused: %s", i + 1, cases[i].escape, err);
		snprintf(want, sizeof want, "\npreset = a%sb\n", cases[i].utf8);
		cr_expect(strstr(got, want), "%s: the config holds %s", cases[i].escape, strstr(got, "\npreset"));
		free(got);
	}
	cr_expect(strstr(err, ":11: ") && strstr(err, "a lone UTF-16 surrogate"), "%s", err);
	cr_expect(strstr(err, ":12: ") && strstr(err, "a lone UTF-16 surrogate"), "%s", err);
	free(err);
}
