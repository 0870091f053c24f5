/*
 * Shell completion scripts: bash loads the generated script and completes
 * option names and an enumerated option's choices; zsh accepts the zsh one;
 * both name every option the man page documents.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "model.h"

TestSuite(completion, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup);

/* What bash's completion function offers for the words given. */
static char *complete(const char *words, int cword)
{
	cr_assert_eq(tc_sh("bash --norc --noprofile -c 'source ./boids.bash; COMP_WORDS=(%s); "
	                   "COMP_CWORD=%d; _boids; echo \"${COMPREPLY[*]}\"' > out.txt 2>&1",
	                   words, cword), 0);
	return tc_slurp("out.txt", NULL);
}

Test(completion, bash_completes_names_and_choices)
{
	cr_assert_eq(tc_boids("--completion bash"), 0);
	FILE *f = fopen("boids.bash", "w");
	fputs(tc_stdout(), f);
	fclose(f);

	char *r = complete("boids --mod", 1);
	cr_expect_str_eq(r, "--model\n");
	free(r);
	r = complete("boids --model \"\"", 2);
	char models[256] = "";
	for (size_t i = 0; model_names[i]; i++)
		snprintf(models + strlen(models), sizeof models - strlen(models), "%s%s", i ? " " : "",
		         model_names[i]);
	strcat(models, "\n");
	cr_expect_str_eq(r, models);
	free(r);
	r = complete("boids -m st", 2);
	cr_expect_str_eq(r, "steering\n");
	free(r);
	r = complete("boids --edges=w", 1);
	cr_expect_str_eq(r, "wrap\n");
	free(r);
	r = complete("boids --boids \"\"", 2); /* a number: nothing to offer */
	cr_expect_str_eq(r, "\n");
	free(r);
	cr_assert_eq(tc_sh("touch run.cfg"), 0);
	r = complete("boids --config ru", 2);
	cr_expect_str_eq(r, "run.cfg\n");
	free(r);
}

Test(completion, zsh_script_parses_and_unknown_shells_are_refused)
{
	cr_assert_eq(tc_boids("--completion zsh"), 0);
	FILE *f = fopen("_boids", "w");
	fputs(tc_stdout(), f);
	fclose(f);
	cr_assert_eq(tc_sh("zsh -n _boids"), 0, "zsh cannot parse the script");
	char models[256] = ":NAME:(";
	for (size_t i = 0; model_names[i]; i++) /* -m completes every model of the registry */
		snprintf(models + strlen(models), sizeof models - strlen(models), "%s%s", i ? " " : "",
		         model_names[i]);
	strcat(models, ")");
	const char *m = strstr(tc_stdout(), "{-m+,--model=}'[");
	cr_assert(m && strstr(m, models) && strstr(m, models) < strchr(m, '\n'), "no %s in %s", models, tc_stdout());
	cr_assert_eq(tc_boids("--completion fish"), 2);
	cr_assert(strstr(tc_stderr(), "'fish' is not bash or zsh"), "%s", tc_stderr());
}

Test(completion, every_documented_option_is_completed)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/docs/boids.1", SRCDIR);
	char *man = tc_slurp(path, NULL);
	cr_assert_not_null(man);
	cr_assert_eq(tc_boids("--completion bash"), 0);
	const char *bash = tc_stdout();
	int seen = 0;
	/* each entry of the man page: ".TP\n\fB...\-\-name\fR" */
	for (char *c = strstr(man, "\n.TP\n"); c; c = strstr(c + 1, "\n.TP\n")) {
		char *dd = strstr(c + 5, "\\fB\\-\\-"), *eol = strchr(c + 5, '\n');
		if (!dd || dd > eol)
			continue;
		char name[80] = "--", *w = name + 2;
		for (char *p = dd + 7; w < name + sizeof(name) - 1; p++) {
			if (p[0] == '\\' && p[1] == '-')
				*w++ = '-', p++;
			else if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9'))
				*w++ = *p;
			else
				break;
		}
		*w = 0;
		char word[96];
		snprintf(word, sizeof(word), " %s ", name);
		char last[96], first[96];
		snprintf(last, sizeof(last), " %s\"", name);
		snprintf(first, sizeof(first), "\"%s ", name);
		cr_expect(strstr(bash, word) || strstr(bash, last) || strstr(bash, first),
		          "bash completion lacks %s", name);
		seen++;
	}
	cr_assert_geq(seen, 90);
	free(man);
}
