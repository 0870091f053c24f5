/*
 * start — the flock a run starts from; see include/start.h.  Start at
 * start_build().
 */
#include "start.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "report.h"
#include "signals.h"
#include "traj.h"
#include "traj_h5.h"
#include "trajout.h"
#include "zfile.h"

_Static_assert(TRAJ_VALUE_MAX == SIM_STATE_MAX, "--init accepts what the flock can hold");
_Static_assert(TRAJ_BOIDS_MAX == CLI_MAX_BOIDS && TRAJ_FRAMES_MAX == CLI_MAX_FRAMES, "--init's limits are the run's");

/*
 * Refuses, before allocating, a run whose memory would not fit.  It counts
 * what grows with the flock and the picture, never the field's area (the
 * grids have at most 4n + 64 cells, whatever the field: grid.h):
 *
 *   the flock      struct sim's arrays (x, y, vx, vy, the next velocities,
 *                  the grid-ordered copies and the positions kept to undo
 *                  a stopped step: 12 doubles a boid, 18 in 3D), the
 *                  escaped lists (9 bytes), the grid's lists (8)
 *                  and its cells (an offset and a chain head each);
 *   --metrics      its own copies (6 doubles, 9 in 3D), union-find (8) and
 *                  two grids;
 *   per slot       a copy of the state (4 doubles, 6 in 3D; --draw points
 *                  copies the positions alone), the trail, and
 *                  the picture (ARGB, yuv, the encoder's: 10 bytes a pixel;
 *                  --draw points adds its sums, 4 bytes a pixel, and the
 *                  bands' buckets, 64 KB a band of rows; with --color-by
 *                  16 bytes a pixel more and 96 KB buckets for bands of a
 *                  fifth as many rows);
 *   the trail ring;
 *   with --steps-per-second apart from the frame rate, the state of the
 *   step a frame between two steps starts from (4 doubles, 6 in 3D);
 *   with --trajectory, the frames queued for its thread (trajout.h).
 *
 * The stated maximum is 80% of the machine's physical memory.  Returns a
 * status (failure.h).
 */
static int check_memory(const struct config *c, const struct start_budget *b, struct failure *e)
{
	const struct run_options *s = &c->run;
	int d3 = c->sim.dims == 3;
	double n = (double)s->boids, slots = b->slots, cells = 4 * n + 64;
	double trail = s->trail > 1 ? (double)s->trail : 0;
	double pixels = (double)b->pic_w * b->pic_h;
	double picture = pixels * 10;
	if (c->render.draw == RENDER_DRAW_POINTS)
		picture += pixels * 4 + ceil(b->pic_h / 16.0) * 65536;
	if (c->render.draw == RENDER_DRAW_POINTS && c->render.color_by != RENDER_COLOR_ROLE)
		picture += pixels * 16 + ceil(b->pic_h / 2.0) * 98304; /* colour sums, bands of 1/5 */
	double flock = n * ((d3 ? 18 : 12) * 8 + 9 + 8) + cells * 8;
	if (s->metrics)
		flock += n * ((d3 ? 9 : 6) * 8 + 8 + 8) + 2 * cells * 4;
	double state = (d3 ? 3 : 2) * 8 * (render_needs_velocities(&c->render) ? 2 : 1);
	double bytes = flock + slots * (n * state + trail * n * 16 + picture) + trail * n * 16;
	if (slots && s->step_den > 1) /* a frame may fall between two steps: one kept (pipeline.h) */
		bytes += n * (d3 ? 6 : 4) * 8;
	if (s->trajectory) /* the frames queued for the trajectory's thread */
		bytes += trajout_queue_bytes(s->boids, c->sim.dims);
	double phys = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);

	if (phys > 0 && bytes > 0.8 * phys)
		return failure_usage(e, "this run needs about %.1f GiB of memory, more than 80%% of the %.1f GiB "
		                     "here (fewer --boids, a shorter --trail or a smaller picture)",
		                     bytes / 1073741824.0, phys / 1073741824.0);
	return 0;
}

/*
 * Reads frame `want` (-1: the last) of the trajectory open as f, by its
 * name's kind: HDF5 (read by name), gzip or zstd CSV (decompressed as it is
 * read), or CSV.  Returns what traj_load() returns.
 */
static int load_any(const char *path, FILE *f, long want, struct traj_state *st, struct traj_error *te)
{
	enum zfile_kind kind = zfile_kind_of(path);

	if (trajout_format_of(path) == TRAJOUT_HDF5)
		return traj_h5_load(path, want, st, te);
	if (kind == ZFILE_PLAIN)
		return traj_load_frame(f, want, st, te);
	FILE *z = zfile_reader(f, kind);
	if (!z) {
		memset(st, 0, sizeof(*st));
		te->line = 0;
		return -errno;
	}
	int err = traj_load_frame(z, want, st, te);
	fclose(z);
	return err;
}

/* Why reading --init failed (err, te from load_any()): a status (failure.h) with its message. */
static int init_refused(const char *path, int err, const struct traj_error *te, struct failure *e)
{
	const char *name = CLI_CUT_PATH(path);

	if (signals_caught())
		return failure_stop(e, signals_caught()); /* it ended a read from a slow writer */
	if (err == -EBADMSG) /* zfile: not gzip or zstd data, or cut short */
		return failure_usage(e, "--init: '%s' line %ld: the %s data is damaged or cut short", name, te->line,
		                     zfile_kind_name(zfile_kind_of(path)));
	if (err == -EINVAL && te->line)
		return failure_usage(e, "--init: '%s' line %ld: %s", name, te->line, te->what);
	if (err == -EINVAL)
		return failure_usage(e, "--init: '%s': %s", name, te->what);
	if (err == -ENOMEM) /* the machine's fault, not the file's */
		return failure_runtime(e, "--init: cannot read '%s' (line %ld): %s", name, te->line, strerror(-err));
	if (!te->line)
		return failure_usage(e, "--init: cannot read '%s': %s", name, strerror(-err));
	return failure_usage(e, "--init: cannot read '%s' (line %ld): %s", name, te->line, strerror(-err));
}

/*
 * Reads --init into st: bad input is status 2, no memory 1, a stop signal
 * (ending a FIFO's wait for a writer, or a read from a slow one) 128 + it.
 */
static int load_init(const struct run_options *s, struct traj_state *st, struct failure *e)
{
	struct traj_error te;
	struct stat sb;
	const char *name = CLI_CUT_PATH(s->init);
	FILE *f = signals_fopen(s->init);

	if (!f && errno == EINTR && signals_caught())
		return failure_stop(e, signals_caught());
	if (!f && errno == ENOMEM)
		return failure_runtime(e, "--init: cannot open '%s': %s", name, strerror(ENOMEM));
	if (!f)
		return failure_usage(e, "--init: cannot open '%s': %s", name, strerror(errno));
	char why[PATH_MAX + 256];
	int status;
	if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode))
		status = failure_usage(e, "--init: '%s' is a directory", name);
	else if (trajout_format_of(s->init) == TRAJOUT_HDF5 && traj_h5_ready(why, sizeof why) != 0)
		status = failure_runtime(e, "--init: %s", why); /* the plugin, before any file */
	else if ((status = load_any(s->init, f, s->init_frame, st, &te)) != 0)
		status = init_refused(s->init, status, &te, e);
	fclose(f);
	if (status)
		return status;
	if (st->n > (size_t)CLI_MAX_BOIDS)
		return failure_usage(e, "--init: '%s' has %zu boids (at most %ld)", name, st->n, CLI_MAX_BOIDS);
	return 0;
}

/*
 * What the file sets: its boid count, and a 3D file starts a 3D flock (its
 * dims win, as its count does).  A 2D file may start a 3D flock
 * (start_build() puts it in the middle plane).  Returns -EINVAL, changing
 * nothing, for a 3D file when --dims 2 was asked for (on the command line
 * or in a config file).
 */
static int take_file(struct config *c, const struct traj_state *st)
{
	if (st->dims == 3 && c->sim.dims != 3 && c->run.user.dims)
		return -EINVAL;
	c->run.boids = st->n;
	if (st->dims == 3)
		c->sim.dims = 3;
	if (st->predators >= 0 && !c->run.user.predators) /* the file's flags, unless --predators */
		c->sim.predators = (size_t)st->predators;
	return 0;
}

/* The default 3 predators in a flock of 2 become 2; returns whether more remain than boids. */
static int fit_predators(struct config *c)
{
	size_t *predators = &c->sim.predators;

	if (*predators > c->run.boids && !c->run.user.predators)
		*predators = c->run.boids;
	return *predators > c->run.boids;
}

int start_read(struct start *f, struct config *c, struct failure *e)
{
	struct run_options *s = &c->run;

	memset(f, 0, sizeof(*f));
	if (s->init && load_init(s, &f->init, e) != 0)
		return e->status;
	if (s->init && take_file(c, &f->init) != 0)
		return failure_usage(e, "--init: '%s' holds a 3D flock (z and vz columns) but --dims is %d "
		                     "(leave --dims out, or give --dims 3)", CLI_CUT_PATH(s->init), c->sim.dims);
	if (fit_predators(c))
		return failure_usage(e, "--predators: %zu is more than the %zu boids", c->sim.predators, s->boids);
	return 0;
}

int start_preview(struct start *f, struct config *c, struct failure *e)
{
	struct stat sb;
	char *init = c->run.init;

	/* a FIFO is not opened: open() would wait for a writer whose data are the run's */
	if (init && stat(init, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode)) {
		if (!c->run.quiet)
			report_note("--init '%s' is not a regular file: not read here, "
			            "so the boid count shown is --boids', not the file's", CLI_CUT_PATH(init));
		c->run.init = NULL;
	}
	int status = start_read(f, c, e);
	c->run.init = init;
	traj_state_release(&f->init);
	return status;
}

int start_check(const struct config *c, const struct start_budget *b, struct failure *e)
{
	return check_memory(c, b, e);
}

/* A 3D flock from --init: the file's z and vz, or a 2D file's boids in the middle plane at rest in z. */
static void place_depth(struct sim *m, const struct traj_state *st)
{
	if (st->z) {
		memcpy(m->z, st->z, st->n * sizeof(double));
		memcpy(m->vz, st->vz, st->n * sizeof(double));
		return;
	}
	for (size_t i = 0; i < st->n; i++) {
		m->z[i] = m->p.depth / 2;
		m->vz[i] = 0;
	}
}

int start_build(struct start *f, const struct config *c, int threads, const struct start_budget *b,
                struct failure *e)
{
	const struct run_options *s = &c->run;
	struct traj_state *st = &f->init;

	if (start_check(c, b, e) != 0)
		return e->status;
	signals_block(1); /* the pool's threads leave the stop signals to this one */
	f->pool = pool_new(threads);
	signals_block(0);
	if (!f->pool || sim_init(&f->sim, &c->sim, s->boids, f->pool) != 0)
		return failure_runtime(e, "out of memory for %zu boids", s->boids);
	/* with --init the seed still draws what a CSV does not hold (opengl's target speeds) */
	sim_randomize(&f->sim, s->seed);
	if (s->init) {
		memcpy(f->sim.x, st->x, st->n * sizeof(double));
		memcpy(f->sim.y, st->y, st->n * sizeof(double));
		memcpy(f->sim.vx, st->vx, st->n * sizeof(double));
		memcpy(f->sim.vy, st->vy, st->n * sizeof(double));
		if (f->sim.z)
			place_depth(&f->sim, st);
		traj_state_release(st);
	}
	return 0;
}

void start_release(struct start *f)
{
	sim_release(&f->sim);
	traj_state_release(&f->init);
	pool_free(f->pool);
	memset(f, 0, sizeof(*f));
}
