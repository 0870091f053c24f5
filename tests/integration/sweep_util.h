/*
 * Helpers the sweep tests share: run a command with its output in
 * out.txt / err.txt, read a file as text, and assert an exit status with
 * both outputs in the message.  Static: each test file gets its own copy.
 */
#ifndef BOIDS_SWEEP_UTIL_H
#define BOIDS_SWEEP_UTIL_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

/* Runs a shell command with stdout in out.txt and stderr in err.txt. */
static inline int sh(const char *cmd)
{
	return tc_sh("%s >out.txt 2>err.txt", cmd);
}

/* A file's text, or "" when it is missing (malloc'ed). */
static inline char *text(const char *path)
{
	char *t = tc_slurp(path, NULL);
	return t ? t : strdup("");
}

static inline void expect_status(int got, int want, const char *what)
{
	char *o = text("out.txt"), *e = text("err.txt");
	cr_assert_eq(got, want, "%s: exit %d, not %d\nstdout: %s\nstderr: %s", what, got, want, o, e);
	free(o);
	free(e);
}

#endif
