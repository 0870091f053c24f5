/*
 * Helpers for tests that run boids in a fresh temporary directory.
 *
 * Two ways to run `boids ARGS`:
 *
 * - In process (the default in the hermetic test binary): the binary's
 *   main(), compiled a second time as boids_main() (src/main.c with
 *   -Dmain=boids_main, see the Makefile), runs in a forked child of the
 *   test.  Starting the real binary costs ~0.15 s of CPU (it maps ~170
 *   shared libraries); a fork costs a few milliseconds, and the suite
 *   starts boids hundreds of times.  The child is made to look like a
 *   fresh exec: argv[0] "boids", stdin /dev/null, stdout and stderr to
 *   files, no descriptor above 2, every signal at its default and none
 *   blocked, the C locale; exit() flushes boids's streams and runs what
 *   boids registered, not the test process's exit handlers.
 * - The real binary ($BOIDS_BIN, set by make test) through sh: when ARGS
 *   need a shell (redirections, pipes, command substitution: whatever
 *   wordexp(3) refuses), for tc_boids_exec(), in a binary linked without
 *   boids_main (the integration tier), and for every call when the
 *   environment has BOIDS_TEST_EXEC=1.  `make check` runs the hermetic
 *   suite once more that way, so every test also holds for the binary.
 */
#ifndef BOIDS_TEST_COMMON_H
#define BOIDS_TEST_COMMON_H

#include <stddef.h>

/* Creates a temporary directory, chdirs into it and returns its path. */
const char *tc_tmpdir(void);

/* Removes the temporary directory and everything in it. */
void tc_cleanup(void);

/*
 * Runs `boids ARGS` in the current directory with stdin from /dev/null and
 * stdout and stderr captured (args is shell syntax), in process or through
 * the binary (see above).  Returns the exit status, or 128 + signal when it
 * was killed.
 */
int tc_boids(const char *args_fmt, ...) __attribute__((format(printf, 1, 2)));

/* The same, always through the real binary: for what only an exec shows
 * (the installed program's start-up, --version, --help). */
int tc_boids_exec(const char *args_fmt, ...) __attribute__((format(printf, 1, 2)));

/* What the last tc_boids() printed (NUL-terminated, malloc'ed). */
const char *tc_stdout(void);
const char *tc_stderr(void);

/* Reads a whole file; NULL if missing.  *len gets its size. */
char *tc_slurp(const char *path, size_t *len);

/* 1 when both files exist and hold the same bytes, else 0. */
int tc_same_file(const char *a, const char *b);

/* Number of entries in a directory, "." and ".." excluded. */
int tc_count_files(const char *dir);

/*
 * The Python 3 that tests run (their checks use the standard library only):
 * $BOIDS_PYTHON, else /usr/bin/python3 (what scripts/install-deps.sh test
 * installs) when it exists, else python3 from PATH.  Not PATH first: a
 * version manager's shim there (pyenv) costs ~0.7 s of CPU per start.
 */
const char *tc_python(void);

/* Runs a shell command in the current directory; returns its exit status. */
int tc_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct sim;
/*
 * How far apart two flocks of the same size are: the largest |dx| + |dy|
 * of a position or a velocity over the boids (the plane's coordinates).
 */
double tc_sim_apart(const struct sim *a, const struct sim *b);

/* The largest difference of one coordinate of a position or a velocity (z too in a box) over the boids. */
double tc_sim_diff(const struct sim *a, const struct sim *b);

/* Copies from's state (positions, velocities, the step count) into to, a flock of the same size. */
void tc_sim_copy(struct sim *to, const struct sim *from);

#endif
