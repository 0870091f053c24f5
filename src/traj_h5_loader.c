/*
 * traj_h5_loader — traj_h5.h's functions in the boids binary: each calls
 * through the table of the HDF5 plugin (boids-hdf5.so, libhdf5 with it),
 * loaded on first use; see include/traj_h5_plugin.h.
 *
 * A run that reads and writes no HDF5 never calls them, so it never maps
 * libhdf5 and the libraries Debian's build of it brings (libcurl, OpenSSL,
 * GnuTLS, Kerberos, LDAP).  The application calls traj_h5_ready() while it
 * checks its arguments, before any file exists, and reports a missing
 * plugin there; a later call that finds no plugin (a path that did not ask
 * first) fails with -ELIBACC, as src/video_load.c's do: nothing here prints
 * or exits.
 */
#include "traj_h5_plugin.h"

#include <errno.h>
#include <string.h>

#include "plugin.h"

static struct plugin slot = PLUGIN_INIT(TRAJ_H5_PLUGIN_FILE, TRAJ_H5_PLUGIN_SYMBOL, "HDF5", TRAJ_H5_PLUGIN_ABI,
                                        sizeof(struct traj_h5_plugin), TRAJ_H5_PLUGIN_TYPES, NULL);

int traj_h5_ready(char *err, size_t errlen)
{
	return plugin_table(&slot, err, errlen) ? 0 : -1;
}

/* The plugin's table, or NULL (then every call fails with -ELIBACC). */
static const struct traj_h5_plugin *h5(void)
{
	return plugin_table(&slot, NULL, 0);
}

int traj_h5_create(struct traj_h5 **out, const char *path, const struct traj_h5_info *info)
{
	*out = NULL;
	return h5() ? h5()->create(out, path, info) : -ELIBACC;
}

int traj_h5_write(struct traj_h5 *h, long frame, const struct traj_cols *c)
{
	return h5() ? h5()->write(h, frame, c) : -ELIBACC;
}

int traj_h5_finish(struct traj_h5 *h, const char *status)
{
	return h5() ? h5()->finish(h, status) : -ELIBACC;
}

void traj_h5_free(struct traj_h5 *h)
{
	if (h && h5())
		h5()->free(h);
}

int traj_h5_load(const char *path, long want, struct traj_state *out, struct traj_error *err)
{
	if (h5())
		return h5()->load(path, want, out, err);
	memset(out, 0, sizeof *out);
	memset(err, 0, sizeof *err);
	return -ELIBACC;
}

int traj_h5_field(const char *path, double field[3])
{
	return h5() ? h5()->field(path, field) : 0;
}

const char *traj_h5_version(void)
{
	return h5() ? h5()->version() : "not loaded";
}
