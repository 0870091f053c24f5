/*
 * version — `boids --version`; see include/version.h.
 *
 * Libraries that boids links (Cairo, libpng) are asked through their own
 * version calls; pixman, which only Cairo links, is looked up in the
 * process (dlsym); Pango's and HDF5's versions from their plugins, FFmpeg's
 * and the encoders' lines from the video module, which knows them.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "version.h"

#include <cairo.h>
#include <dlfcn.h>
#include <limits.h>
#include <png.h>
#include <stdio.h>
#include <string.h>

#include "caption.h"
#include "cli.h"
#include "commit.h" /* BOIDS_COMMIT, written by the Makefile */
#include "traj_h5_plugin.h"
#include "video.h"

const char *version_commit(void)
{
	return BOIDS_COMMIT;
}

/* The compiler, as it names itself. */
static void compiler(char *buf, size_t len)
{
#if defined(__clang__)
	snprintf(buf, len, "clang %s", __clang_version__);
#elif defined(__GNUC__)
	snprintf(buf, len, "gcc %s", __VERSION__);
#else
	snprintf(buf, len, "an unknown C compiler");
#endif
}

/* A library's version string found in the process by its symbol, or NULL. */
static const char *symbol_version(const char *symbol)
{
	const char *(*get)(void);
	void *sym = dlsym(RTLD_DEFAULT, symbol);

	if (!sym)
		return NULL;
	memcpy(&get, &sym, sizeof get); /* POSIX: a data pointer to a function pointer */
	return get();
}

void version_print(FILE *f)
{
	char cc[160];
	const char *commit = version_commit();
	const char *pixman = symbol_version("pixman_version_string");

	compiler(cc, sizeof cc);
	fprintf(f, "boids %s\n", BOIDS_VERSION);
	if (*commit)
		fprintf(f, "commit: %s (git)\n", commit);
	else
		fputs("commit: unknown (built from a source tarball, not a git checkout)\n", f);
	fprintf(f, "built with %s\n", cc);
	fputs("libraries as found at run time (in parentheses: the headers built with, or the file):\n", f);
	fprintf(f, "  %-12s %-10s (%s)\n", "cairo", cairo_version_string(), CAIRO_VERSION_STRING);
	fprintf(f, "  %-12s %s\n", "pixman", pixman ? pixman : "? (not found in the process)");
	fprintf(f, "  %-12s %-10s (%s)\n", "libpng", png_get_libpng_ver(NULL), PNG_LIBPNG_VER_STRING);
	char why[PATH_MAX + 128];
	const char *pango = caption_pango_version(why, sizeof why);
	if (pango)
		fprintf(f, "  %-12s %-10s (the caption plugin, %s)\n", "pango", pango, CAPTION_PLUGIN_FILE);
	else
		fprintf(f, "  %-12s not loaded: %s (--caption needs it)\n", "pango", why);
	if (traj_h5_ready(why, sizeof why) == 0)
		fprintf(f, "  %-12s %-10s (the HDF5 plugin, %s)\n", "hdf5", traj_h5_version(), TRAJ_H5_PLUGIN_FILE);
	else
		fprintf(f, "  %-12s not loaded: %s (.h5 trajectories need it)\n", "hdf5", why);
	video_print_versions(f);
}
