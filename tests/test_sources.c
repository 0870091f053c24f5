/*
 * Sources a reader can find: each model's article cited by author, title,
 * year and public address in the registry, --list-models, --help-all, the
 * manual and docs/MODEL.md; no path into the documents the project was
 * made from (which a user does not have) anywhere in the product; the docs
 * name features, not the tracker's issue numbers.
 */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <ctype.h>
#include <ftw.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "model.h"

static void setup(void) { tc_tmpdir(); }

TestSuite(sources, .init = setup, .fini = tc_cleanup);

/* Whitespace runs as one space, the manual's break points (\:) and minus signs (\-) as plain text. */
static char *flatten(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;
	cr_assert_not_null(out);
	while (*s) {
		if (s[0] == '\\' && s[1] == ':') {
			s += 2;
		} else if (s[0] == '\\' && s[1] == '-') {
			*o++ = '-';
			s += 2;
		} else if (isspace((unsigned char)*s)) {
			if (o > out && o[-1] != ' ')
				*o++ = ' ';
			s++;
		} else {
			*o++ = *s++;
		}
	}
	*o = 0;
	return out;
}

static char *slurp_src(const char *rel)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", SRCDIR, rel);
	char *s = tc_slurp(path, NULL);
	cr_assert_not_null(s, "%s", path);
	return s;
}

Test(sources, every_model_cites_its_article_everywhere_a_reader_looks)
{
	regex_t cite;
	/* Author, "Title" ... (YEAR or undated ...), http(s)://address */
	cr_assert_eq(regcomp(&cite, "^[^,]+, .*\"[^\"]+\".* \\(([^)]*[0-9]{4}|undated)\\), https?://[^ ]+", REG_EXTENDED), 0);
	cr_assert_eq(tc_boids("--list-models"), 0);
	char *list = flatten(tc_stdout());
	cr_assert_eq(tc_boids("--help-all"), 0);
	char *help = flatten(tc_stdout());
	char *man_src = slurp_src("docs/boids.1"), *man = flatten(man_src);
	char *model_src = slurp_src("docs/MODEL.md"), *model = flatten(model_src);
	const char *sources = strstr(man, ".SH SOURCES");
	cr_assert_not_null(sources, "boids(1) has no SOURCES section");

	for (const struct boids_model *const *m = model_list(); *m; m++) {
		char *seed = flatten((*m)->seed);
		cr_assert_eq(regexec(&cite, seed, 0, NULL, 0), 0, "%s cites '%s': not author, \"title\" (year), address",
		             (*m)->name, seed);
		cr_assert_not_null(strstr(list, seed), "--list-models does not give %s's source: %s", (*m)->name, seed);
		cr_assert_not_null(strstr(help, seed), "--help-all does not give %s's source: %s", (*m)->name, seed);
		char url[512];
		cr_assert_eq(sscanf(strstr(seed, "http"), "%511[^ ,]", url), 1);
		const char *in_man = strstr(sources, url);
		cr_assert_not_null(in_man, "boids(1) SOURCES does not give %s's address %s", (*m)->name, url);
		cr_assert_not_null(strstr(model, url), "docs/MODEL.md does not give %s's address %s", (*m)->name, url);
		free(seed);
	}
	regfree(&cite);
	free(list), free(help), free(man_src), free(man), free(model_src), free(model);
}

/* ------------------------------------------------- no seeds path, no issue numbers */

static char found[8192];
static size_t nfound;
static const char *needle;
static regex_t *pattern;

static int scan(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)ftw;
	if (type != FTW_F)
		return 0;
	size_t n = 0;
	char *s = tc_slurp(path, &n);
	if (!s)
		return 0;
	if (memchr(s, 0, n) == NULL) { /* text files only */
		int hit = needle ? strstr(s, needle) != NULL : regexec(pattern, s, 0, NULL, 0) == 0;
		if (hit && nfound + strlen(path) + 2 < sizeof found) {
			strcat(found, path);
			strcat(found, "\n");
			nfound += strlen(path) + 1;
		}
	}
	free(s);
	return 0;
}

static void scan_tree(const char *rel)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", SRCDIR, rel);
	cr_assert_eq(nftw(path, scan, 16, FTW_PHYS), 0, "%s", path);
}

Test(sources, no_product_file_names_the_seed_documents)
{
	static const char *const trees[] = { "src", "include", "docs", "README.md", "scripts", "examples", "tests",
		                             "mk", "Makefile" };
	needle = "seeds" "/"; /* spelt apart, so that this file is not a hit */
	found[0] = 0, nfound = 0;
	for (size_t i = 0; i < sizeof trees / sizeof *trees; i++)
		scan_tree(trees[i]);
	cr_assert_eq(nfound, 0, "these files name the seed documents (a path a user does not have):\n%s", found);
}

Test(sources, the_docs_name_features_not_issue_numbers)
{
	static const char *const docs[] = { "docs", "README.md", "examples" };
	regex_t re;
	cr_assert_eq(regcomp(&re, "[Ii]ssues? [0-9]", REG_EXTENDED | REG_NOSUB), 0);
	needle = NULL, pattern = &re;
	found[0] = 0, nfound = 0;
	for (size_t i = 0; i < sizeof docs / sizeof *docs; i++)
		scan_tree(docs[i]);
	regfree(&re);
	cr_assert_eq(nfound, 0, "these docs speak of issue numbers, which mean nothing to a reader:\n%s", found);
}

/* The text of a C file without its comments and the contents of its string and character literals. */
static void strip_c(char *s)
{
	char *w = s;
	for (char *r = s; *r;) {
		if (r[0] == '/' && r[1] == '*') {
			char *end = strstr(r + 2, "*/");
			r = end ? end + 2 : r + strlen(r);
		} else if (r[0] == '/' && r[1] == '/') {
			r += strcspn(r, "\n");
		} else if (*r == '"' || *r == '\'') {
			char q = *r++;
			*w++ = q;
			while (*r && *r != q)
				r += r[0] == '\\' && r[1] ? 2 : 1;
			if (*r)
				*w++ = *r++;
		} else {
			*w++ = *r++;
		}
	}
	*w = 0;
}

static int exits_in_main, exits_elsewhere;
static char exit_files[4096];

static int count_exits(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)ftw;
	size_t len = strlen(path);
	if (type != FTW_F || len < 2 || strcmp(path + len - 2, ".c") != 0)
		return 0;
	char *s = tc_slurp(path, NULL);
	cr_assert_not_null(s, "%s", path);
	strip_c(s);
	regex_t re;
	regmatch_t m;
	cr_assert_eq(regcomp(&re, "(^|[^A-Za-z0-9_])(exit|_exit|_Exit|quick_exit|abort|report_exit|report_usage)[ \t]*\\(",
	                     REG_EXTENDED), 0);
	int n = 0;
	for (const char *p = s; regexec(&re, p, 1, &m, 0) == 0; p += m.rm_eo)
		n++;
	regfree(&re);
	free(s);
	if (strcmp(path + len - strlen("/src/main.c"), "/src/main.c") == 0) {
		exits_in_main += n;
	} else if (n > 0) {
		exits_elsewhere += n;
		if (strlen(exit_files) + len + 2 < sizeof exit_files)
			strcat(strcat(exit_files, path), "\n");
	}
	return 0;
}

/*
 * Only main exits: every check and open below it returns a status with its
 * message (include/failure.h) for main to print.  main.c itself has one exit,
 * where a closed standard error leaves nowhere to say why.
 */
Test(sources, only_main_exits)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/src", SRCDIR);
	exits_in_main = exits_elsewhere = 0;
	exit_files[0] = 0;
	cr_assert_eq(nftw(path, count_exits, 16, FTW_PHYS), 0, "%s", path);
	cr_expect_eq(exits_elsewhere, 0, "%d exit calls below main, in:\n%s", exits_elsewhere, exit_files);
	cr_expect_eq(exits_in_main, 1, "main.c has %d exit calls (standard_fds()'s alone expected)", exits_in_main);
}

/* ------------------------------------------------ the layers of the code */

/*
 * A module is a source file and its headers: src/X.c with include/X.h,
 * src/X.h and an internal src/X_int.h; a header with no source of its own
 * (config.h, model.h: types only) is a module by itself.
 */
enum { MAX_FILES = 400, MAX_LINES = 80 };

static struct { char path[512], module[128]; } srcs[MAX_FILES];
static size_t nsrcs;

static int list_source(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)ftw;
	size_t len = strlen(path);
	if (type == FTW_F && len > 2 && (!strcmp(path + len - 2, ".c") || !strcmp(path + len - 2, ".h"))) {
		cr_assert_lt(nsrcs, (size_t)MAX_FILES);
		snprintf(srcs[nsrcs++].path, sizeof srcs[0].path, "%s", path);
	}
	return 0;
}

static int has_source(const char *base)
{
	for (size_t i = 0; i < nsrcs; i++) {
		const char *b = strrchr(srcs[i].path, '/') + 1;
		size_t n = strlen(base);
		if (!strncmp(b, base, n) && !strcmp(b + n, ".c"))
			return 1;
	}
	return 0;
}

/* The module the file named `name` (a path or an #include's name) belongs to, into out. */
static void module_of(const char *name, char *out, size_t len)
{
	const char *b = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	char base[128];
	size_t n = strlen(b) - 2; /* without ".c" or ".h" */

	snprintf(base, sizeof base, "%.*s", (int)n, b);
	if (n > 4 && !strcmp(base + n - 4, "_int"))
		base[n - 4] = 0; /* X_int.h: X's own */
	if (has_source(base))
		snprintf(out, len, "%s", base);
	else
		snprintf(out, len, "%s", b);
}

/* The text of a C file without its comments (string literals kept whole). */
static void strip_comments(char *s)
{
	char *w = s;
	for (char *r = s; *r;) {
		if (r[0] == '/' && r[1] == '*') {
			char *end = strstr(r + 2, "*/");
			r = end ? end + 2 : r + strlen(r);
		} else if (r[0] == '/' && r[1] == '/') {
			r += strcspn(r, "\n");
		} else if (*r == '"' || *r == '\'') {
			char q = *r;
			*w++ = *r++;
			while (*r && *r != q) {
				if (r[0] == '\\' && r[1])
					*w++ = *r++;
				*w++ = *r++;
			}
			if (*r)
				*w++ = *r++;
		} else {
			*w++ = *r++;
		}
	}
	*w = 0;
}

static size_t module_index(char names[][128], size_t *n, const char *m)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(names[i], m))
			return i;
	snprintf(names[*n], 128, "%s", m);
	return (*n)++;
}

static void list_sources(void)
{
	char path[4096];
	nsrcs = 0;
	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof path, "%s/%s", SRCDIR, k ? "include" : "src");
		cr_assert_eq(nftw(path, list_source, 16, FTW_PHYS), 0, "%s", path);
	}
	for (size_t i = 0; i < nsrcs; i++)
		module_of(srcs[i].path, srcs[i].module, sizeof srcs[i].module);
}

/*
 * docs/ARCHITECTURE.md draws the modules in layers, each using only those
 * below it: no module includes one that includes it back, however far
 * round (src/, include/; a module's own internal header is the module).
 */
Test(sources, no_two_modules_include_each_other)
{
	static char names[MAX_FILES][128];
	static unsigned char reach[MAX_FILES][MAX_FILES];
	size_t n = 0;
	char bad[4096] = "";

	list_sources();
	memset(reach, 0, sizeof reach);
	for (size_t i = 0; i < nsrcs; i++) {
		size_t from = module_index(names, &n, srcs[i].module);
		char *s = tc_slurp(srcs[i].path, NULL), *p = s, to[128];
		cr_assert_not_null(s, "%s", srcs[i].path);
		strip_comments(s);
		while ((p = strstr(p, "#include \"")) != NULL) {
			p += strlen("#include \"");
			char *q = strchr(p, '"');
			cr_assert_not_null(q);
			*q = 0;
			if (strcmp(p + strlen(p) - 4, ".def") != 0) {
				module_of(p, to, sizeof to);
				size_t t = module_index(names, &n, to);
				reach[from][t] |= from != t;
			}
			p = q + 1;
		}
		free(s);
	}
	for (size_t k = 0; k < n; k++) /* every module each one reaches, however far */
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; reach[i][k] && j < n; j++)
				reach[i][j] |= reach[k][j];
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (reach[i][j] && reach[j][i] && strlen(bad) + 300 < sizeof bad)
				snprintf(bad + strlen(bad), sizeof bad - strlen(bad), "  %.100s <-> %.100s\n",
				         names[i], names[j]);
	cr_expect_str_empty(bad, "modules that include each other (directly or round a circle):\n%s", bad);
}

/* No function longer than MAX_LINES lines, its signature to its closing brace (STYLE.md). */
Test(sources, no_function_is_over_80_lines)
{
	char bad[4096] = "";

	list_sources();
	for (size_t i = 0; i < nsrcs; i++) {
		size_t len = strlen(srcs[i].path);
		if (strcmp(srcs[i].path + len - 2, ".c") != 0)
			continue;
		char *s = tc_slurp(srcs[i].path, NULL);
		cr_assert_not_null(s);
		long lineno = 0, start = 0, sig = 0;
		for (char *line = s, *next; line && *line; line = next) {
			next = strchr(line, '\n');
			if (next)
				*next++ = 0;
			lineno++;
			if (line[0] && line[0] != ' ' && line[0] != '\t' && line[0] != '{' && line[0] != '}')
				sig = lineno; /* a line at column 0: a signature starts here, or ends there */
			if (!strcmp(line, "{"))
				start = sig;
			if (!strcmp(line, "}") && start && lineno - start + 1 > MAX_LINES &&
			    strlen(bad) + 600 < sizeof bad)
				snprintf(bad + strlen(bad), sizeof bad - strlen(bad), "  %.200s:%ld: %ld lines\n",
				         srcs[i].path + strlen(SRCDIR) + 1, start, lineno - start + 1);
			if (!strcmp(line, "}"))
				start = 0;
		}
		free(s);
	}
	cr_expect_str_empty(bad, "functions over %d lines:\n%s", MAX_LINES, bad);
}
