/*
 * trajout — the trajectory file and its writer thread; see
 * include/trajout.h.  Start at trajout_open(); the thread is writer(), the
 * queue a ring of frame copies guarded by one mutex.
 */
#include "trajout.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "outfile.h"
#include "signals.h"
#include "suggest.h"
#include "zfile.h"

enum { MAX_SLOTS = 4, CSV_BUF = 1 << 20 };

/* One queued frame: the columns x, y, vx, vy (then z, vz) in one block. */
struct slot {
	long frame;
	double *v;
};

struct trajout {
	struct trajout_options o;
	enum trajout_format format;
	struct outfile file;
	FILE *zfp;                  /* the compressing stream over file.fp (gzip, zstd) */
	FILE *fp;                   /* where the CSV text goes: zfp or file.fp */
	struct traj_h5 *h5;
	pthread_t thread;
	int started;

	pthread_mutex_t lock;
	pthread_cond_t ready, room;
	struct slot slots[MAX_SLOTS];
	int nslots, head, count;    /* the ring: count frames from head */
	int closing;                /* no more frames: the writer ends when the ring is empty */
	double cut_after;           /* a stop: no frame begun once this many seconds have
	                             * passed since its signal (signals_since()); < 0: none */
	int err;                    /* the writer's first error (it then writes nothing more) */
	long written;               /* frames written whole */
};

/* The names a trajectory may have, by how they end (any case), and what each means. */
static const struct {
	const char *ext;
	enum trajout_format format;
} names[] = {
	{ ".csv", TRAJOUT_CSV }, { ".csv.gz", TRAJOUT_CSV_GZ }, { ".csv.zst", TRAJOUT_CSV_ZST },
	{ ".h5", TRAJOUT_HDF5 }, { ".hdf5", TRAJOUT_HDF5 }, { ".he5", TRAJOUT_HDF5 },
};
enum { NNAMES = sizeof(names) / sizeof(names[0]) };

/* Does path end with ext, in any case? */
static int ends_with(const char *path, const char *ext)
{
	size_t n = strlen(path), m = strlen(ext);

	return n > m && strcasecmp(path + n - m, ext) == 0;
}

enum trajout_format trajout_format_of(const char *path)
{
	for (size_t i = 3; i < NNAMES; i++) /* .h5, .hdf5, .he5 */
		if (ends_with(path, names[i].ext))
			return TRAJOUT_HDF5;
	switch (zfile_kind_of(path)) {
	case ZFILE_GZIP:
		return TRAJOUT_CSV_GZ;
	case ZFILE_ZSTD:
		return TRAJOUT_CSV_ZST;
	default:
		return TRAJOUT_CSV;
	}
}

const char *trajout_format_name(enum trajout_format f)
{
	static const char *const what[] = { "CSV", "gzip CSV", "zstd CSV", "HDF5" };

	return what[f];
}

const char *trajout_format_ext(enum trajout_format f)
{
	return names[f].ext; /* the first rows are the formats in order */
}

int trajout_levels(enum trajout_format f, int *min, int *max, int *dflt)
{
	enum zfile_kind k = f == TRAJOUT_CSV_GZ ? ZFILE_GZIP : f == TRAJOUT_CSV_ZST ? ZFILE_ZSTD : ZFILE_PLAIN;

	if (f == TRAJOUT_HDF5) { /* shuffle + deflate: zlib's levels, none by default */
		*min = 0, *max = 9, *dflt = 0;
		return 0;
	}
	if (k == ZFILE_PLAIN)
		return -1;
	*min = zfile_level_min(k), *max = zfile_level_max(k), *dflt = zfile_level_default(k);
	return 0;
}

/*
 * " (did you mean .csv.gz?)" for the ending of path nearest a format's:
 * its last part (".gzip") or last two (".csv.bz2"), lowercased.
 */
static void near_ending(const char *path, char *out, size_t outlen)
{
	const char *base = strrchr(path, '/'), *dot[2] = { NULL, NULL };
	const char *exts[NNAMES];

	base = base ? base + 1 : path;
	for (const char *p = base; *p; p++)
		if (*p == '.' && p > base)
			dot[1] = dot[0], dot[0] = p;
	for (size_t i = 0; i < NNAMES; i++)
		exts[i] = names[i].ext;
	out[0] = 0;
	for (int k = 1; k >= 0 && !out[0]; k--) {
		char word[SUGGEST_MAX_LEN + 1];
		size_t len = dot[k] ? strlen(dot[k]) : 0;
		if (!len || len > SUGGEST_MAX_LEN)
			continue;
		for (size_t i = 0; i < len; i++)
			word[i] = (char)tolower((unsigned char)dot[k][i]);
		suggest_phrase(out, outlen, "", "", word, len, exts, NNAMES, sizeof(exts[0]));
	}
}

int trajout_name_check(const char *path, char *err, size_t errlen)
{
	struct stat st;
	char near[96];

	for (size_t i = 0; i < NNAMES; i++)
		if (ends_with(path, names[i].ext))
			return 0;
	if (strcmp(path, "-") == 0 || strncmp(path, "/dev/", 5) == 0 || (stat(path, &st) == 0 && !S_ISREG(st.st_mode)))
		return 0; /* standard output (also /dev/stdout to a file), a device, a FIFO: a CSV stream
		           * (a directory is refused as one) */
	near_ending(path, near, sizeof near);
	snprintf(err, errlen, "names no trajectory format%s: end it with .csv, .csv.gz, .csv.zst or .h5 "
	         "(.hdf5, .he5), in any case", near);
	return -EINVAL;
}

/* The columns of a queued frame. */
static struct traj_cols slot_cols(const struct trajout *t, const struct slot *s)
{
	size_t n = t->o.n;
	struct traj_cols c = { n, s->v, s->v + n, s->v + 2 * n, s->v + 3 * n, NULL, NULL };

	if (t->o.dims == 3) {
		c.z = s->v + 4 * n;
		c.vz = s->v + 5 * n;
	}
	return c;
}

static int write_slot(struct trajout *t, const struct slot *s)
{
	struct traj_cols c = slot_cols(t, s);

	if (t->format == TRAJOUT_HDF5)
		return traj_h5_write(t->h5, s->frame, &c);
	return traj_write_frame_cols(t->fp, s->frame, &c, t->o.predator_col ? (long)t->o.predators : -1);
}

/* The writer thread: frames in queue order until closed and empty. */
static void *writer(void *arg)
{
	struct trajout *t = arg;

	pthread_mutex_lock(&t->lock);
	for (;;) {
		while (t->count == 0 && !t->closing)
			pthread_cond_wait(&t->ready, &t->lock);
		if (t->count == 0)
			break;
		struct slot *s = &t->slots[t->head];
		int skip = t->err != 0 || (t->cut_after >= 0 && signals_since() >= t->cut_after);
		pthread_mutex_unlock(&t->lock);
		int err = skip ? 0 : write_slot(t, s);
		if (!skip && !err)
			outfile_writeback(&t->file); /* the frame to the disk while the next is made */
		pthread_mutex_lock(&t->lock);
		if (err && !t->err)
			t->err = err;
		t->written += !skip && !err;
		t->head = (t->head + 1) % t->nslots;
		t->count--;
		pthread_cond_signal(&t->room);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

/* Queue depth: up to four frames, two for frames beyond 128 MiB. */
static int slots_for(size_t frame_bytes)
{
	return frame_bytes <= (32u << 20) ? 4 : frame_bytes <= (128u << 20) ? 3 : 2;
}

/* One frame's copy: n boids' positions and velocities. */
static size_t frame_bytes_of(size_t n, int dims)
{
	return n * 2 * (size_t)dims * sizeof(double);
}

double trajout_queue_bytes(size_t n, int dims)
{
	size_t b = frame_bytes_of(n, dims);

	return (double)b * slots_for(b);
}

/* The file's beginning: the CSV header, or the HDF5 datasets and metadata. */
static int start_file(struct trajout *t)
{
	const struct trajout_options *o = &t->o;

	if (t->format == TRAJOUT_HDF5) {
		char path[64];
		struct traj_h5_info info = o->h5;
		if (t->file.direct)
			return -ESPIPE; /* HDF5 seeks: refused before the run (outputs.c) */
		info.n = o->n;
		info.dims = o->dims;
		info.predators = o->predators;
		info.every = o->every;
		info.deflate = o->level;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", t->file.fd);
		return traj_h5_create(&t->h5, path, &info);
	}
	setvbuf(t->file.fp, NULL, _IOFBF, CSV_BUF);
	t->fp = t->file.fp;
	if (t->format != TRAJOUT_CSV) {
		enum zfile_kind kind = t->format == TRAJOUT_CSV_GZ ? ZFILE_GZIP : ZFILE_ZSTD;
		if (!(t->zfp = zfile_writer(t->file.fp, kind, o->level)))
			return -errno;
		t->fp = t->zfp;
	}
	return traj_write_header_cols(t->fp, o->dims, o->predator_col);
}

/* Starts the writer with the stop signals blocked (they stay with the main thread). */
static int start_thread(struct trajout *t)
{
	sigset_t stop, old;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	int err = pthread_create(&t->thread, NULL, writer, t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		return -err;
	t->started = 1;
	return 0;
}

static void free_queue(struct trajout *t)
{
	for (int i = 0; i < t->nslots; i++)
		free(t->slots[i].v);
	pthread_cond_destroy(&t->room);
	pthread_cond_destroy(&t->ready);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

int trajout_open(struct trajout **out, const struct trajout_options *o)
{
	struct trajout *t = calloc(1, sizeof(*t));
	size_t frame_bytes = frame_bytes_of(o->n, o->dims);
	int err;

	*out = NULL;
	if (!t)
		return -ENOMEM;
	t->o = *o;
	t->format = trajout_format_of(o->path);
	t->file.fd = -1;
	t->cut_after = -1;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->ready, NULL);
	pthread_cond_init(&t->room, NULL);
	t->nslots = slots_for(frame_bytes);
	for (int i = 0; i < t->nslots; i++)
		if (!(t->slots[i].v = malloc(frame_bytes))) {
			free_queue(t);
			return -ENOMEM;
		}
	if ((err = outfile_begin(&t->file, o->path, o->overwrite)) != 0) {
		free_queue(t);
		return err;
	}
	if ((err = start_file(t)) != 0 || (err = start_thread(t)) != 0) {
		trajout_abort(t);
		return err;
	}
	*out = t;
	return 0;
}

int trajout_frame(struct trajout *t, long frame, const struct traj_cols *c)
{
	size_t n = t->o.n, bytes = n * sizeof(double);
	int err;

	if (frame % t->o.every != 0)
		return 0;
	pthread_mutex_lock(&t->lock);
	while (t->count == t->nslots && !t->err)
		pthread_cond_wait(&t->room, &t->lock);
	err = t->err;
	/* the slot after the ring's last is ours until it is queued (the writer
	 * moves head and count together: their sum stays) */
	struct slot *s = &t->slots[(t->head + t->count) % t->nslots];
	pthread_mutex_unlock(&t->lock);
	if (err)
		return err;
	const double *cols[6] = { c->x, c->y, c->vx, c->vy, c->z, c->vz };
	for (int k = 0; k < 2 * t->o.dims; k++)
		memcpy(s->v + (size_t)k * n, cols[k], bytes);
	s->frame = frame;
	pthread_mutex_lock(&t->lock);
	t->count++;
	pthread_cond_signal(&t->ready);
	pthread_mutex_unlock(&t->lock);
	return 0;
}

/* Ends the writer thread after the queued frames; returns its error. */
static int stop_thread(struct trajout *t)
{
	pthread_mutex_lock(&t->lock);
	t->closing = 1;
	pthread_cond_signal(&t->ready);
	pthread_mutex_unlock(&t->lock);
	if (t->started)
		pthread_join(t->thread, NULL);
	t->started = 0;
	return t->err;
}

int trajout_finish(struct trajout *t, int interrupted, double cut_after, long *written)
{
	if (interrupted) {
		pthread_mutex_lock(&t->lock);
		t->cut_after = cut_after;
		pthread_mutex_unlock(&t->lock);
	}
	int err = stop_thread(t);

	if (t->zfp) {
		errno = 0;
		if (fclose(t->zfp) != 0 && !err)
			err = errno ? -errno : -EIO;
		t->zfp = NULL;
	}
	if (t->h5 && err)
		traj_h5_free(t->h5);
	else if (t->h5)
		err = traj_h5_finish(t->h5, interrupted ? "interrupted" : "complete");
	t->h5 = NULL;
	if (!err)
		err = outfile_commit(&t->file); /* flushes, syncs, renames; removes on failure */
	else
		outfile_abort(&t->file);
	*written = err ? 0 : t->written;
	free_queue(t);
	return err;
}

void trajout_abort(struct trajout *t)
{
	if (!t)
		return;
	pthread_mutex_lock(&t->lock);
	if (!t->err)
		t->err = -ECANCELED; /* the writer skips what is left */
	pthread_mutex_unlock(&t->lock);
	stop_thread(t);
	if (t->zfp)
		fclose(t->zfp);
	traj_h5_free(t->h5);
	outfile_abort(&t->file);
	free_queue(t);
}
