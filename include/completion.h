/*
 * completion — shell completion scripts for bash and zsh, written from the
 * option table (include/cli.h), so they list exactly the options the binary
 * takes: names, the choices of each enumerated option, file names where an
 * option takes a file.  `make` writes them into build/, `make install`
 * installs them.
 */
#ifndef BOIDS_COMPLETION_H
#define BOIDS_COMPLETION_H

#include <stdio.h>

/*
 * Writes the completion script for `shell` ("bash" or "zsh") to f.
 * Returns 0, or -EINVAL for another shell.
 */
int completion_print(FILE *f, const char *shell);

#endif
