/*
 * version — what `boids --version` says, as `ffmpeg -version` does: the
 * version, the git commit it was built from (or that it was built from a
 * source tarball), the compiler, and the version of each library as found
 * at run time (the one a user's program actually uses, which may differ
 * from the headers it was built with: both are shown where they can be).
 */
#ifndef BOIDS_VERSION_H
#define BOIDS_VERSION_H

#include <stdio.h>

/* The commit the Makefile passed ("0ba6b50d1e2f", "...-dirty"), or "" for
 * a build outside a git checkout. */
const char *version_commit(void);

/*
 * Writes the whole --version text to f: the first line is always
 * "boids VERSION"; the video libraries' lines come from the video module
 * (video_print_versions()).
 */
void version_print(FILE *f);

#endif
