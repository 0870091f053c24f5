/*
 * traj_h5_plugin — the HDF5 module's one exported symbol when it is built
 * as boids-hdf5.so: the table of traj_h5.h's functions; see
 * include/traj_h5_plugin.h.
 */
#include "traj_h5_plugin.h"

__attribute__((visibility("default")))
extern const struct traj_h5_plugin boids_hdf5_plugin;

const struct traj_h5_plugin boids_hdf5_plugin = {
	.head = { TRAJ_H5_PLUGIN_ABI, sizeof(struct traj_h5_plugin), TRAJ_H5_PLUGIN_TYPES },
	.create = traj_h5_create,
	.write = traj_h5_write,
	.finish = traj_h5_finish,
	.free = traj_h5_free,
	.load = traj_h5_load,
	.field = traj_h5_field,
	.version = traj_h5_version,
};
