/*
 * traj_h5_plugin — the one table through which the boids binary reaches
 * the HDF5 module (src/traj_h5.c), built as a plugin of its own
 * (boids-hdf5.so, linked with libhdf5) and loaded with dlopen() only by a
 * run that reads or writes an HDF5 trajectory (a --trajectory or --init
 * named .h5, .hdf5 or .he5) and by --version.  Debian's libhdf5 brings
 * libcurl, OpenSSL, GnuTLS, Kerberos and LDAP with it: every other process
 * starts without mapping them.
 *
 * The plugin exports one symbol, TRAJ_H5_PLUGIN_SYMBOL, a struct
 * traj_h5_plugin whose entries are traj_h5.h's functions;
 * src/traj_h5_loader.c defines traj_h5.h's functions in the binary by
 * calling through it.  The test binaries and the fault-injection build link
 * the module directly instead.  Where the plugin is looked for:
 * include/plugin.h.
 */
#ifndef BOIDS_TRAJ_H5_PLUGIN_H
#define BOIDS_TRAJ_H5_PLUGIN_H

#include <stddef.h>

#include "plugin.h"
#include "traj_h5.h"

#define TRAJ_H5_PLUGIN_FILE   "boids-hdf5.so"
#define TRAJ_H5_PLUGIN_SYMBOL "boids_hdf5_plugin"
/* Bumped when the table or the meaning of traj_h5.h's types changes (a
 * change of their size is caught by the sizes below): a binary and a
 * plugin from different builds refuse each other instead of crashing. */
#define TRAJ_H5_PLUGIN_ABI    4 /* 3: struct plugin_head; 4: the info's fps a struct rate */

struct traj_h5_plugin {
	struct plugin_head head; /* TRAJ_H5_PLUGIN_ABI, the size and TRAJ_H5_PLUGIN_TYPES there */
	int (*create)(struct traj_h5 **out, const char *path, const struct traj_h5_info *info);
	int (*write)(struct traj_h5 *h, long frame, const struct traj_cols *c);
	int (*finish)(struct traj_h5 *h, const char *status);
	void (*free)(struct traj_h5 *h);
	int (*load)(const char *path, long want, struct traj_state *out, struct traj_error *err);
	int (*field)(const char *path, double field[3]);
	const char *(*version)(void);
};

/* One number from the sizes of the structs passed through the table. */
#define TRAJ_H5_PLUGIN_TYPES                                                              \
	(sizeof(struct traj_h5_info) * 1000003u + sizeof(struct traj_h5_setting) * 10007u + \
	 sizeof(struct traj_cols) * 101u + sizeof(struct traj_state) * 3u + sizeof(struct traj_error))

#endif
