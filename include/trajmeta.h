/*
 * trajmeta — the run's settings turned into what the --trajectory writer
 * needs (trajout.h): its format options, and for HDF5 what the file records
 * about the run (the --print-config text, every option typed, model, field,
 * fps, version).  Part of main (the application layer): trajmeta_check()
 * returns bad usage as status 2 with its message (failure.h).
 */
#ifndef BOIDS_TRAJMETA_H
#define BOIDS_TRAJMETA_H

#include "config.h"
#include "failure.h"
#include "trajout.h"

struct trajmeta {
	struct trajout_options opts;     /* for trajout_open() */
	/* private: what opts.h5 points into */
	char *config_text;
	struct traj_h5_setting *settings;
	char **strings;
	size_t nstrings;
};

/*
 * Refuses, before any file exists (status 2, one line in f naming the option),
 * the trajectory options that do not fit the file's format: single
 * precision outside HDF5, a compression level for a plain CSV or beyond
 * the format's, HDF5 into a FIFO, device or standard output (the
 * trajectory options without --trajectory are the resolve step's).
 * Returns the status: 0, 2, or 1 when the HDF5 plugin cannot be loaded.
 */
int trajmeta_check(const struct config *c, struct failure *f);

/*
 * Fills m from the settings c for a flock of n boids.  Returns 0 or
 * -ENOMEM.  trajmeta_release() frees it (also after a failure).
 */
int trajmeta_init(struct trajmeta *m, const struct config *c, size_t n);

void trajmeta_release(struct trajmeta *m);

#endif
