/*
 * traj_h5_loader — traj_h5.h's functions in the boids binary: each calls
 * through the table of the HDF5 plugin (boids-hdf5.so, libhdf5 with it),
 * loaded on first use; see include/traj_h5_plugin.h.
 *
 * A run that reads and writes no HDF5 never calls them, so it never maps
 * libhdf5 and the libraries Debian's build of it brings (libcurl, OpenSSL,
 * GnuTLS, Kerberos, LDAP).  The application calls traj_h5_ready() while it
 * checks its arguments, before any file exists, and reports a missing
 * plugin there; a later call that finds no plugin (a bug: a path that did
 * not ask first) reports and exits (report.h), as src/video_load.c does.
 */
#include "traj_h5_plugin.h"

#include <stdlib.h>

#include "plugin.h"
#include "report.h"

static struct plugin slot = PLUGIN_INIT(TRAJ_H5_PLUGIN_FILE, TRAJ_H5_PLUGIN_SYMBOL, "HDF5", TRAJ_H5_PLUGIN_ABI,
                                        sizeof(struct traj_h5_plugin), TRAJ_H5_PLUGIN_TYPES, NULL);

int traj_h5_ready(char *err, size_t errlen)
{
	return plugin_table(&slot, err, errlen) ? 0 : -1;
}

/* The plugin's table; without one the process cannot go on. */
static const struct traj_h5_plugin *h5(void)
{
	char err[sizeof slot.why];
	const struct traj_h5_plugin *p = plugin_table(&slot, err, sizeof err);

	if (!p) {
		report("%s", err);
		report_exit(EXIT_FAILURE);
	}
	return p;
}

int traj_h5_create(struct traj_h5 **out, const char *path, const struct traj_h5_info *info)
{
	return h5()->create(out, path, info);
}

int traj_h5_write(struct traj_h5 *h, long frame, const struct traj_cols *c)
{
	return h5()->write(h, frame, c);
}

int traj_h5_finish(struct traj_h5 *h, const char *status)
{
	return h5()->finish(h, status);
}

void traj_h5_free(struct traj_h5 *h)
{
	if (h)
		h5()->free(h);
}

int traj_h5_load(const char *path, long want, struct traj_state *out, struct traj_error *err)
{
	return h5()->load(path, want, out, err);
}

int traj_h5_field(const char *path, double field[3])
{
	return h5()->field(path, field);
}

const char *traj_h5_version(void)
{
	return h5()->version();
}
