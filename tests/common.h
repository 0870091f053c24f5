/*
 * Helpers for tests that run the real binary ($BOIDS_BIN, set by make test)
 * in a fresh temporary directory.
 */
#ifndef BOIDS_TEST_COMMON_H
#define BOIDS_TEST_COMMON_H

#include <stddef.h>

/* Creates a temporary directory, chdirs into it and returns its path. */
const char *tc_tmpdir(void);

/* Removes the temporary directory and everything in it. */
void tc_cleanup(void);

/*
 * Runs `boids ARGS` through sh in the current directory with stdout and
 * stderr captured (args is shell syntax).  Returns the exit status, or
 * 128 + signal when it was killed.
 */
int tc_boids(const char *args_fmt, ...) __attribute__((format(printf, 1, 2)));

/* What the last tc_boids() printed (NUL-terminated, malloc'ed). */
const char *tc_stdout(void);
const char *tc_stderr(void);

/* Reads a whole file; NULL if missing.  *len gets its size. */
char *tc_slurp(const char *path, size_t *len);

/* 1 when both files exist and hold the same bytes, else 0. */
int tc_same_file(const char *a, const char *b);

/* Number of entries in a directory, "." and ".." excluded. */
int tc_count_files(const char *dir);

/* Runs a shell command in the current directory; returns its exit status. */
int tc_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
