/*
 * plugin — finding, trusting and opening boids's plugins: shared objects
 * built with the binary, each carrying one heavy library (boids-video.so
 * FFmpeg's, boids-caption.so Pango, boids-hdf5.so libhdf5), loaded with
 * dlopen() only by a run that needs that library, so that every other
 * process starts without mapping it.
 *
 * A plugin is looked for next to the executable (the build tree:
 * build/boids, build/boids-video.so), then in ../lib/boids/ from the
 * executable's directory (make install, the .deb: PREFIX/bin/boids,
 * PREFIX/lib/boids/boids-video.so).  Before dlopen() runs a line of it, it
 * must be trusted as the sweep trusts its binary (include/trusted.h: no
 * other user could have replaced it or a directory on its path) and be a
 * whole ELF shared object for this machine (include/elfso.h: a file cut
 * short used to crash the loader, SIGBUS).  It is bound at once
 * (RTLD_NOW): a missing symbol refuses it here, not mid-run.  Its one
 * exported symbol is a table that begins with a struct plugin_head, and a
 * table from another build (another ABI number or size) is refused.
 *
 * Each module with a plugin keeps a struct plugin (src/video_load.c,
 * src/traj_h5_loader.c, src/caption.c) and asks plugin_table() for its
 * table: the first call loads it, once for the process (and the reason it
 * could not be is kept for every later call).
 *
 * Library module: never prints or exits; failures come back with a message.
 */
#ifndef BOIDS_PLUGIN_H
#define BOIDS_PLUGIN_H

#include <limits.h>
#include <pthread.h>
#include <stddef.h>

/* The first member of every plugin's table: what a binary checks before using it. */
struct plugin_head {
	int abi;          /* the table's ABI number, bumped when it or its types change */
	size_t size;      /* sizeof the table in the build that made it */
	size_t types;     /* a number from the sizes of the types passed through it, or 0 */
};

/* One plugin, as its loader knows it: a static, set up with PLUGIN_INIT(). */
struct plugin {
	const char *file;                     /* "boids-video.so" */
	const char *symbol;                   /* its table's name: "boids_video_plugin" */
	const char *what;                     /* the module, for messages: "video" */
	struct plugin_head want;              /* what this build's table is */
	void (*loaded)(const void *table);    /* run once, when it is loaded; or NULL */
	pthread_mutex_t lock;                 /* the rest is plugin_table()'s */
	int tried;
	const void *table;
	char why[PATH_MAX + 256];
};

#define PLUGIN_INIT(file, symbol, what, abi, size, types, loaded) \
	{ file, symbol, what, { abi, size, types }, loaded, PTHREAD_MUTEX_INITIALIZER, 0, NULL, "" }

/*
 * The plugin's table, loaded on the first call (any thread; one loads,
 * the others wait).  NULL when it cannot be loaded, with one line in err
 * (lowercase, no period; err may be NULL) naming the module, the file
 * tried and why: "cannot load the video module
 * '/usr/lib/boids/boids-video.so': cannot open shared object file: No
 * such file or directory".  Every later call gives the same answer.
 */
const void *plugin_table(struct plugin *p, char *err, size_t errlen);

/* The table if the plugin is loaded already, else NULL: never loads it. */
const void *plugin_loaded(struct plugin *p);

/*
 * Loads the plugin file at path (absolute) as plugin_table() does, without
 * looking for it: trusted, a whole ELF shared object, bound at once, its
 * symbol's head equal to want.  Returns the table, or NULL with the
 * message in err.  The file stays loaded for the life of the process.
 */
const void *plugin_load(const char *path, const char *symbol, const char *what,
                        const struct plugin_head *want, char *err, size_t errlen);

#endif
