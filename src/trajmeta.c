/*
 * trajmeta — from the settings to the trajectory writer's options; see
 * include/trajmeta.h.  trajmeta_check() first (before any file exists),
 * then trajmeta_init() when the file is opened.
 */
#include "trajmeta.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "model.h"
#include "zfile.h"

int trajmeta_check(const struct config *c, struct failure *f)
{
	const struct run_options *s = &c->run;

	if (!s->trajectory)
		return 0; /* its options without it: refused by the resolve step */
	const char *path = CLI_CUT_PATH(s->trajectory);
	enum trajout_format fmt = trajout_format_of(s->trajectory);
	struct stat st;
	if (s->traj_single && fmt != TRAJOUT_HDF5)
		return failure_usage(f, "--trajectory-precision: single is for HDF5 (.h5); '%s' is %s, whose "
		                     "numbers read back exactly", path, trajout_format_name(fmt));
	if (fmt == TRAJOUT_HDF5 && (strcmp(s->trajectory, "-") == 0 ||
	                            (stat(s->trajectory, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))))
		return failure_usage(f, "--trajectory: '%s' is not a regular file, and HDF5 needs one (it seeks); "
		                     "stream .csv, .csv.gz or .csv.zst instead", path);
	int min, max, dflt;
	if (s->traj_compress >= 0 && trajout_levels(fmt, &min, &max, &dflt) != 0)
		return failure_usage(f, "--trajectory-compress: '%s' is not compressed (name it .csv.gz, .csv.zst "
		                     "or .h5)", path);
	if (s->traj_compress >= 0 && (s->traj_compress < min || s->traj_compress > max))
		return failure_usage(f, "--trajectory-compress: %ld is out of range for %s (expected a whole number "
		                     "from %d to %d)", s->traj_compress,
		                     fmt == TRAJOUT_HDF5 ? "HDF5's deflate" : trajout_format_name(fmt), min, max);
	char err[PATH_MAX + 256];
	if (fmt == TRAJOUT_HDF5 && traj_h5_ready(err, sizeof err) != 0) /* the plugin, before any file */
		return failure_runtime(f, "--trajectory: %s", err);
	return 0;
}

/* Keeps a copy of a string for the file's lifetime; NULL without memory. */
static const char *keep(struct trajmeta *m, const char *v)
{
	char *d = strdup(v);

	if (d)
		m->strings[m->nstrings++] = d;
	return d;
}

/* Every option that a config file takes, as a typed value. */
static int settings(struct trajmeta *m, const struct config *c)
{
	size_t count;
	const struct cli_option *opt = cli_options(&count);
	char buf[4096], *end;

	m->settings = calloc(count, sizeof(*m->settings));
	m->strings = calloc(count, sizeof(*m->strings));
	if (!m->settings || !m->strings)
		return -ENOMEM;
	size_t k = 0;
	for (size_t i = 0; i < count; i++) {
		const struct cli_option *o = &opt[i];
		struct traj_h5_setting *t = &m->settings[k];
		if (o->type == CLI_ACTION || (o->flags & CLI_NOCONFIG))
			continue;
		cli_format_value(c, o, buf, sizeof(buf));
		t->name = o->name;
		errno = 0;
		if (o->type == CLI_LONG || o->type == CLI_INT || o->type == CLI_COUNT || o->type == CLI_U64) {
			t->i = strtoll(buf, &end, 10);
			t->type = end != buf && !*end && !errno ? TRAJ_H5_INT : TRAJ_H5_STRING; /* "auto" */
		} else if (o->type == CLI_DOUBLE) {
			t->d = strtod(buf, &end);
			t->type = end != buf && !*end ? TRAJ_H5_DOUBLE : TRAJ_H5_STRING;
		} else if (o->type == CLI_FLAG) {
			t->type = TRAJ_H5_INT;
			t->i = strcmp(buf, "yes") == 0;
		} else {
			t->type = TRAJ_H5_STRING;
		}
		if (t->type == TRAJ_H5_STRING && !(t->s = keep(m, buf)))
			return -ENOMEM;
		k++;
	}
	m->opts.h5.settings = m->settings;
	m->opts.h5.nsettings = k;
	return 0;
}

int trajmeta_init(struct trajmeta *m, const struct config *c, size_t n)
{
	const struct run_options *s = &c->run;
	struct trajout_options *o = &m->opts;
	enum trajout_format f = trajout_format_of(s->trajectory);
	size_t len = 0;

	memset(m, 0, sizeof(*m));
	o->path = s->trajectory;
	o->overwrite = s->overwrite;
	o->n = n;
	o->dims = c->sim.dims;
	o->predators = c->sim.predators;
	o->predator_col = s->traj_predator;
	o->every = s->traj_every;
	o->level = (int)s->traj_compress;
	if (o->level < 0)
		o->level = f == TRAJOUT_CSV_GZ ? zfile_level_default(ZFILE_GZIP) :
		           f == TRAJOUT_CSV_ZST ? zfile_level_default(ZFILE_ZSTD) : 0;
	if (f != TRAJOUT_HDF5)
		return 0;
	o->h5.single = s->traj_single;
	o->h5.version = BOIDS_VERSION;
	o->h5.model = c->sim.model->name;
	o->h5.field[0] = c->sim.width;
	o->h5.field[1] = c->sim.height;
	o->h5.field[2] = c->sim.depth;
	o->h5.fps = s->fps;
	int err = cli_config_text(c, &m->config_text, &len);
	if (err)
		return err;
	o->h5.config = m->config_text;
	return settings(m, c);
}

void trajmeta_release(struct trajmeta *m)
{
	for (size_t i = 0; i < m->nstrings; i++)
		free(m->strings[i]);
	free(m->strings);
	free(m->settings);
	free(m->config_text);
	memset(m, 0, sizeof(*m));
}
