/*
 * The fuzzers' corpora replayed: every input kept in
 * tests/fuzz/corpus/<target>/ goes through the same checks as under
 * libFuzzer (tests/fuzz/targets.c, compiled in here), so whatever fuzzing
 * once reached keeps parsing, and keeps obeying the invariants, in every
 * `make test` and `make check`.  A violated invariant aborts, which
 * Criterion reports as a crash of that test; the input is named on stderr.
 */
#include "fuzz/targets.c" /* first: it sets _GNU_SOURCE */

#include <criterion/criterion.h>
#include <dirent.h>
#include <signal.h>

TestSuite(fuzz, .timeout = 300);

static char current[1024]; /* the input being replayed, for on_abort() */

static void on_abort(int sig)
{
	static const char what[] = "fuzz corpus: invariant broken by ";
	ssize_t ignored;

	ignored = write(2, what, sizeof(what) - 1);
	ignored = write(2, current, strlen(current));
	ignored = write(2, "\n", 1);
	(void)ignored;
	signal(sig, SIG_DFL);
	raise(sig);
}

static uint8_t *read_all(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t cap = 0, n = 0;

	cr_assert_not_null(f, "cannot open %s", path);
	for (;;) {
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			data = realloc(data, cap);
			cr_assert_not_null(data);
		}
		size_t got = fread(data + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	cr_assert(!ferror(f), "cannot read %s", path);
	fclose(f);
	*size = n;
	return data;
}

static int is_file(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* Runs every file of the target's corpus through fn; returns how many. */
static int replay(const char *target, int (*fn)(const uint8_t *, size_t))
{
	const char *src = getenv("BOIDS_SRC") ? getenv("BOIDS_SRC") : SRCDIR;
	char dir[512];
	struct dirent **names;

	snprintf(dir, sizeof(dir), "%s/tests/fuzz/corpus/%s", src, target);
	int n = scandir(dir, &names, is_file, alphasort);
	cr_assert_geq(n, 0, "cannot list %s", dir);
	signal(SIGABRT, on_abort);
	for (int i = 0; i < n; i++) {
		size_t size;
		snprintf(current, sizeof(current), "%s/%s", dir, names[i]->d_name);
		uint8_t *data = read_all(current, &size);
		cr_assert_eq(fn(data, size), 0, "%s", current);
		free(data);
		free(names[i]);
	}
	free(names);
	signal(SIGABRT, SIG_DFL);
	return n;
}

/* Seeds alone are more than this; fewer means the corpus went missing. */
#define MIN_INPUTS 10

Test(fuzz, replay_cli)
{
	int n = replay("cli", fuzz_cli);
	cr_assert_geq(n, MIN_INPUTS, "only %d inputs in the cli corpus", n);
}

Test(fuzz, replay_config)
{
	int n = replay("config", fuzz_config);
	cr_assert_geq(n, MIN_INPUTS, "only %d inputs in the config corpus", n);
}

Test(fuzz, replay_color)
{
	int n = replay("color", fuzz_color);
	cr_assert_geq(n, MIN_INPUTS, "only %d inputs in the color corpus", n);
}

Test(fuzz, replay_framename)
{
	int n = replay("framename", fuzz_framename);
	cr_assert_geq(n, MIN_INPUTS, "only %d inputs in the framename corpus", n);
}

Test(fuzz, replay_traj)
{
	int n = replay("traj", fuzz_traj);
	cr_assert_geq(n, MIN_INPUTS, "only %d inputs in the traj corpus", n);
}
