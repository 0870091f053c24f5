/*
 * plugin — finding and opening boids's plugins: shared objects built with
 * the binary, each carrying one heavy library (boids-video.so FFmpeg's,
 * boids-caption.so Pango, boids-hdf5.so libhdf5), loaded with dlopen() only
 * by a run that needs that library, so that every other process starts
 * without mapping it.
 *
 * A plugin is looked for next to the executable (the build tree:
 * build/boids, build/boids-video.so), then in ../lib/boids/ from the
 * executable's directory (make install, the .deb: PREFIX/bin/boids,
 * PREFIX/lib/boids/boids-video.so).  Each module that has a plugin keeps
 * its own table and checks (src/video_load.c, src/traj_h5_loader.c,
 * src/caption.c); this module only finds the file and its symbol.
 *
 * Library module: never prints; failures come back with a message.
 */
#ifndef BOIDS_PLUGIN_H
#define BOIDS_PLUGIN_H

#include <stddef.h>

/*
 * Opens the plugin `file` ("boids-video.so") where it is looked for and
 * returns the address of its exported symbol `symbol`.  NULL on failure,
 * with one line in err (lowercase, no period) naming the module `what`
 * ("video"), the file tried and the dynamic loader's reason:
 * "cannot load the video module '/usr/lib/boids/boids-video.so': cannot
 * open shared object file: No such file or directory".  The plugin stays
 * loaded for the life of the process; opening it again is cheap.
 */
void *plugin_symbol(const char *file, const char *symbol, const char *what, char *err, size_t errlen);

/* The path of the file a symbol plugin_symbol() returned comes from, for
 * messages about it ("?" when the loader cannot say). */
const char *plugin_file(const void *symbol);

#endif
