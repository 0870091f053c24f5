/*
 * The README is a front door to docs/: every link of README.md and the
 * pages of docs/ that is not a web address leads to a file that is there, and a
 * link to a section (`USAGE.md#big-flocks`, `#recipes`) to a heading of
 * that page, named as GitHub names its anchors.  Both in the checkout and
 * where `make install` puts the README (PREFIX/share/doc/boids, with docs/
 * and examples/ beside it), so an installed README loses nothing it links to.
 */
#include <criterion/criterion.h>
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(doclinks, .init = setup, .fini = teardown);

/* GitHub's anchor of a heading's text: lower case, blanks to '-', other punctuation dropped. */
static void slug(const char *text, size_t n, char *out, size_t size)
{
	size_t k = 0;
	for (size_t i = 0; i < n && k + 1 < size; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c == ' ')
			out[k++] = '-';
		else if (isalnum(c) || c == '-' || c == '_' || c >= 0x80)
			out[k++] = (char)tolower(c);
	}
	out[k] = 0;
}

/* Whether the Markdown text has a heading whose anchor is want. */
static int has_anchor(const char *md, const char *want)
{
	for (const char *line = md; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (*line != '#')
			continue;
		const char *t = line;
		while (*t == '#')
			t++;
		if (*t != ' ')
			continue;
		t++;
		const char *end = strchr(t, '\n');
		char s[256];
		slug(t, end ? (size_t)(end - t) : strlen(t), s, sizeof s);
		if (strcmp(s, want) == 0)
			return 1;
	}
	return 0;
}

/*
 * Checks the links of dir/name (a Markdown file) outside its fenced blocks;
 * appends each broken one to bad.  Returns how many links it followed.
 */
static int check_page(const char *dir, const char *name, char *bad, size_t size)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	char *md = tc_slurp(path, NULL);
	cr_assert_not_null(md, "%s", path);
	char here[4096]; /* the page's own directory: its links are relative to it */
	snprintf(here, sizeof here, "%s", path);
	*strrchr(here, '/') = 0;
	int followed = 0, fenced = 0;
	for (char *line = md; line && *line;) {
		char *next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (strncmp(line, "```", 3) == 0)
			fenced = !fenced;
		for (char *p = line; !fenced && (p = strstr(p, "](")) != NULL; p += 2) {
			char target[1024];
			if (sscanf(p + 2, "%1023[^) ]", target) != 1 || strstr(target, "://") || strncmp(target, "mailto:", 7) == 0)
				continue;
			followed++;
			char *hash = strchr(target, '#'), file[8192];
			if (hash)
				*hash++ = 0;
			if (*target)
				snprintf(file, sizeof file, "%s/%s", here, target);
			else
				snprintf(file, sizeof file, "%s", path);
			if (access(file, F_OK) != 0) {
				snprintf(bad + strlen(bad), size - strlen(bad), "  %s: %s: no such file\n", name, target);
				continue;
			}
			if (hash && strstr(file, ".md")) {
				char *page = tc_slurp(file, NULL);
				if (!page || !has_anchor(page, hash))
					snprintf(bad + strlen(bad), size - strlen(bad), "  %s: %s#%s: no such heading\n", name,
					         *target ? target : name, hash);
				free(page);
			}
		}
		line = next;
	}
	free(md);
	return followed;
}

/* Checks README.md and the Markdown pages of docs/ under root; cr_asserts none is broken. */
static void check_tree(const char *root)
{
	static char bad[16384];
	bad[0] = 0;
	int followed = check_page(root, "README.md", bad, sizeof bad), pages = 1;
	char docs[4096];
	snprintf(docs, sizeof docs, "%s/docs", root);
	DIR *d = opendir(docs);
	cr_assert_not_null(d, "%s", docs);
	for (struct dirent *e; (e = readdir(d)) != NULL;) {
		size_t n = strlen(e->d_name);
		if (n > 3 && strcmp(e->d_name + n - 3, ".md") == 0) {
			char name[512];
			snprintf(name, sizeof name, "docs/%s", e->d_name);
			followed += check_page(root, name, bad, sizeof bad);
			pages++;
		}
	}
	closedir(d);
	cr_expect_geq(pages, 5, "%s: only %d pages", root, pages);
	cr_expect_geq(followed, 30, "%s: only %d links followed: the parser lost them", root, followed);
	cr_assert_eq(bad[0], 0, "broken links under %s:\n%s", root, bad);
}

Test(doclinks, every_link_of_the_readme_and_the_docs_leads_somewhere)
{
	check_tree(SRCDIR);
}

Test(doclinks, the_installed_readme_keeps_every_page_it_links_to)
{
	cr_assert_eq(tc_sh("make -s -C '%s' install-docs DESTDIR=\"$PWD/root\" PREFIX=/usr > log 2>&1", SRCDIR), 0, "%s",
	             tc_slurp("log", NULL));
	check_tree("root/usr/share/doc/boids");
}
