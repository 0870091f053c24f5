/* Helpers for tests that run the binary; see common.h. */
#include "common.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[256];
static char *out_text, *err_text;

const char *tc_tmpdir(void)
{
	snprintf(dir, sizeof(dir), "/tmp/boids-test-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(chdir(dir), 0);
	return dir;
}

void tc_cleanup(void)
{
	char cmd[300];

	if (!dir[0])
		return;
	if (chdir("/") != 0)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	dir[0] = 0;
}

char *tc_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			buf = realloc(buf, (cap *= 2) + 1);
	}
	fclose(f);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

static int status_of(int st)
{
	if (st == -1)
		return -1;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

int tc_sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return status_of(system(cmd));
}

int tc_boids(const char *args_fmt, ...)
{
	char args[4096], cmd[8192];
	const char *bin = getenv("BOIDS_BIN");
	va_list ap;

	cr_assert_not_null(bin, "BOIDS_BIN is not set (run the suite with make test)");
	va_start(ap, args_fmt);
	vsnprintf(args, sizeof(args), args_fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "'%s' %s >.tc_stdout 2>.tc_stderr </dev/null", bin, args);
	int st = status_of(system(cmd));
	free(out_text);
	free(err_text);
	out_text = tc_slurp(".tc_stdout", NULL);
	err_text = tc_slurp(".tc_stderr", NULL);
	unlink(".tc_stdout");
	unlink(".tc_stderr");
	if (!out_text)
		out_text = strdup("");
	if (!err_text)
		err_text = strdup("");
	return st;
}

const char *tc_stdout(void)
{
	return out_text ? out_text : "";
}

const char *tc_stderr(void)
{
	return err_text ? err_text : "";
}

int tc_count_files(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

int tc_same_file(const char *a, const char *b)
{
	size_t la, lb;
	char *x = tc_slurp(a, &la), *y = tc_slurp(b, &lb);
	int same = x && y && la == lb && memcmp(x, y, la) == 0;
	free(x);
	free(y);
	return same;
}
