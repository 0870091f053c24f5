/*
 * traj_h5 — HDF5 trajectories; see include/traj_h5.h for the layout.
 * Writing: traj_h5_create() (datasets, attributes), traj_h5_write() per
 * frame (the columns interleaved into [boids][dims], converted to float32
 * when asked), traj_h5_finish().  Reading: traj_h5_load().
 */
#include "traj_h5.h"

#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STR_(x) #x
#define STR(x) STR_(x)

enum { CHUNK_BOIDS = 1 << 18, FRAME_CHUNK = 1024 };
enum { CHUNK_READ_MAX = 64 << 20 }; /* bytes of a chunk the reader takes, when more than a frame */

struct traj_h5 {
	hid_t file, pos, vel, frames;  /* the file and its three growing datasets */
	size_t n;
	int dims, single;
	hsize_t rows;                  /* frames written */
	void *buf;                     /* one frame of one dataset, interleaved */
};

/*
 * HDF5 prints its error stack on stderr by default: every entry turns it
 * off.  And the library's exit handler is never installed: after a failed
 * close (a full disk) it closes the file again at exit and crashes (1.10);
 * the file is being removed anyway, and our objects are all closed.
 */
static void quiet(void)
{
	H5dont_atexit(); /* before the library starts; later calls do nothing */
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

/*
 * File access without HDF5's file locks: the file written is our own
 * temporary file, and on network filesystems (NFS, Lustre) the locks fail
 * (ENOLCK) where plain reads and writes work.  -1 on failure.
 */
static hid_t no_locks(void)
{
	hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);

	if (fapl >= 0 && H5Pset_file_locking(fapl, 0, 1) < 0) {
		H5Pclose(fapl);
		return -1;
	}
	return fapl;
}

/* The error of a failed HDF5 call: the system's when it set one (ENOSPC), else -EIO. */
static int h5_error(void)
{
	return errno ? -errno : -EIO;
}

int traj_h5_ready(char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	return 0; /* linked in */
}

const char *traj_h5_version(void)
{
	static char v[32];
	unsigned maj = 0, min = 0, rel = 0;

	quiet();
	if (H5get_libversion(&maj, &min, &rel) < 0)
		return "?";
	snprintf(v, sizeof v, "%u.%u.%u", maj, min, rel);
	return v;
}

/* ----------------------------------------------------------------- writing */

/* A variable-length UTF-8 string type; the caller closes it. */
static hid_t string_type(void)
{
	hid_t t = H5Tcopy(H5T_C_S1);

	if (t >= 0 && (H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, H5T_CSET_UTF8) < 0)) {
		H5Tclose(t);
		return -1;
	}
	return t;
}

/* Writes attribute `name` of obj: `count` values of mem type `type` (count 0: a scalar). */
static int put_attr(hid_t obj, const char *name, hid_t file_type, hid_t mem_type, hsize_t count,
                    const void *v)
{
	hid_t space = count ? H5Screate_simple(1, &count, NULL) : H5Screate(H5S_SCALAR);
	hid_t a = space < 0 ? -1 : H5Acreate2(obj, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT);
	int ok = a >= 0 && H5Awrite(a, mem_type, v) >= 0;

	if (a >= 0)
		H5Aclose(a);
	if (space >= 0)
		H5Sclose(space);
	return ok ? 0 : -1;
}

static int put_string(hid_t obj, const char *name, const char *s)
{
	hid_t t = string_type();
	int ret = t < 0 ? -1 : put_attr(obj, name, t, t, 0, &s);

	if (t >= 0)
		H5Tclose(t);
	return ret;
}

static int put_long(hid_t obj, const char *name, long long v)
{
	return put_attr(obj, name, H5T_STD_I64LE, H5T_NATIVE_LLONG, 0, &v);
}

static int put_double(hid_t obj, const char *name, double v)
{
	return put_attr(obj, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 0, &v);
}

/* Replaces string attribute name (status: written at the start, rewritten at the end). */
static int set_string(hid_t obj, const char *name, const char *s)
{
	if (H5Aexists(obj, name) > 0 && H5Adelete(obj, name) < 0)
		return -1;
	return put_string(obj, name, s);
}

static int set_long(hid_t obj, const char *name, long long v)
{
	if (H5Aexists(obj, name) > 0 && H5Adelete(obj, name) < 0)
		return -1;
	return put_long(obj, name, v);
}

/* The root's attributes and /settings. */
static int put_metadata(hid_t file, const struct traj_h5_info *in)
{
	int bad = 0;

	bad |= put_string(file, "boids_version", in->version ? in->version : "");
	bad |= put_string(file, "model", in->model ? in->model : "");
	bad |= put_long(file, "dims", in->dims);
	bad |= put_long(file, "boids", (long long)in->n);
	bad |= put_long(file, "predators", (long long)in->predators);
	bad |= put_attr(file, "field", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, (hsize_t)in->dims, in->field);
	bad |= put_string(file, "position_units", "px");
	bad |= put_string(file, "velocity_units", "px per step");
	bad |= put_double(file, "fps", rate_hz(in->fps));
	bad |= put_long(file, "every", in->every);
	bad |= put_string(file, "config", in->config ? in->config : "");
	bad |= put_string(file, "status", "writing");
	bad |= put_long(file, "frames", 0);
	if (bad)
		return -1;
	hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
	hid_t g = gcpl < 0 || H5Pset_obj_track_times(gcpl, 0) < 0 ? -1 :
	          H5Gcreate2(file, "settings", H5P_DEFAULT, gcpl, H5P_DEFAULT);
	if (gcpl >= 0)
		H5Pclose(gcpl);
	if (g < 0)
		return -1;
	for (size_t i = 0; i < in->nsettings && !bad; i++) {
		const struct traj_h5_setting *s = &in->settings[i];
		bad |= s->type == TRAJ_H5_INT ? put_long(g, s->name, s->i) :
		       s->type == TRAJ_H5_DOUBLE ? put_double(g, s->name, s->d) :
		       put_string(g, s->name, s->s ? s->s : "");
	}
	H5Gclose(g);
	return bad ? -1 : 0;
}

/* A dataset of rank `rank` growing along its first dimension, chunked as `chunk`. */
static hid_t growing(hid_t file, const char *name, hid_t type, int rank, const hsize_t *dims,
                     const hsize_t *chunk, int deflate)
{
	hsize_t zero[3] = { 0, dims[1], dims[2] }, max[3] = { H5S_UNLIMITED, dims[1], dims[2] };
	hid_t space = H5Screate_simple(rank, zero, max);
	hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
	hid_t d = -1;

	if (space >= 0 && plist >= 0 && H5Pset_chunk(plist, rank, chunk) >= 0 &&
	    H5Pset_obj_track_times(plist, 0) >= 0 && /* no clock in the file: the same run, the same bytes */
	    (!deflate || (H5Pset_shuffle(plist) >= 0 && H5Pset_deflate(plist, (unsigned)deflate) >= 0)))
		d = H5Dcreate2(file, name, type, space, H5P_DEFAULT, plist, H5P_DEFAULT);
	if (plist >= 0)
		H5Pclose(plist);
	if (space >= 0)
		H5Sclose(space);
	return d;
}

/* /predator: 1 for the first `predators` boids. */
static int put_predators(hid_t file, size_t n, size_t predators)
{
	unsigned char *flag = calloc(n, 1);
	hsize_t dim = n;
	int ret = -1;

	if (!flag)
		return -ENOMEM;
	memset(flag, 1, predators < n ? predators : n);
	hid_t space = H5Screate_simple(1, &dim, NULL);
	hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
	hid_t d = space < 0 || dcpl < 0 || H5Pset_obj_track_times(dcpl, 0) < 0 ? -1 :
	          H5Dcreate2(file, "predator", H5T_STD_U8LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
	if (dcpl >= 0)
		H5Pclose(dcpl);
	if (d >= 0 && H5Dwrite(d, H5T_NATIVE_UCHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT, flag) >= 0)
		ret = 0;
	if (d >= 0)
		H5Dclose(d);
	if (space >= 0)
		H5Sclose(space);
	free(flag);
	return ret;
}

static void close_all(struct traj_h5 *h)
{
	if (h->frames >= 0)
		H5Dclose(h->frames);
	if (h->vel >= 0)
		H5Dclose(h->vel);
	if (h->pos >= 0)
		H5Dclose(h->pos);
	h->pos = h->vel = h->frames = -1;
}

int traj_h5_create(struct traj_h5 **out, const char *path, const struct traj_h5_info *in)
{
	struct traj_h5 *h = calloc(1, sizeof(*h));
	int err = -EIO;

	quiet();
	*out = NULL;
	if (!h)
		return -ENOMEM;
	h->file = h->pos = h->vel = h->frames = -1;
	h->n = in->n;
	h->dims = in->dims;
	h->single = in->single;
	h->buf = malloc(in->n * (size_t)in->dims * (in->single ? sizeof(float) : sizeof(double)));
	if (!h->buf) {
		err = -ENOMEM;
		goto fail;
	}
	errno = 0;
	hid_t fcpl = H5Pcreate(H5P_FILE_CREATE); /* the root group's times too */
	hid_t fapl = no_locks();
	if (fcpl >= 0 && fapl >= 0 && H5Pset_obj_track_times(fcpl, 0) >= 0)
		h->file = H5Fcreate(path, H5F_ACC_TRUNC, fcpl, fapl);
	if (fapl >= 0)
		H5Pclose(fapl);
	if (fcpl >= 0)
		H5Pclose(fcpl);
	if (h->file < 0)
		goto h5fail;
	hid_t type = in->single ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
	hsize_t dims[3] = { 0, in->n, (hsize_t)in->dims };
	hsize_t chunk[3] = { 1, in->n < CHUNK_BOIDS ? in->n : CHUNK_BOIDS, (hsize_t)in->dims };
	hsize_t fdims[3] = { 0, 0, 0 }, fchunk[1] = { FRAME_CHUNK };
	h->pos = growing(h->file, "positions", type, 3, dims, chunk, in->deflate);
	h->vel = h->pos < 0 ? -1 : growing(h->file, "velocities", type, 3, dims, chunk, in->deflate);
	h->frames = h->vel < 0 ? -1 : growing(h->file, "frame", H5T_STD_I64LE, 1, fdims, fchunk, 0);
	if (h->frames < 0 || put_metadata(h->file, in) != 0)
		goto h5fail;
	if ((err = put_predators(h->file, in->n, in->predators)) != 0)
		goto h5fail;
	*out = h;
	return 0;
h5fail:
	if (err != -ENOMEM)
		err = h5_error();
fail:
	traj_h5_free(h);
	return err;
}

/* The columns of one quantity interleaved into h->buf ([boids][dims], double or float). */
static void interleave(struct traj_h5 *h, const double *a, const double *b, const double *c)
{
	size_t n = h->n;
	int d = h->dims;

	if (h->single) {
		float *f = h->buf;
		for (size_t i = 0; i < n; i++) {
			f[i * (size_t)d] = (float)a[i];
			f[i * (size_t)d + 1] = (float)b[i];
			if (d == 3)
				f[i * 3 + 2] = (float)c[i];
		}
		return;
	}
	double *v = h->buf;
	for (size_t i = 0; i < n; i++) {
		v[i * (size_t)d] = a[i];
		v[i * (size_t)d + 1] = b[i];
		if (d == 3)
			v[i * 3 + 2] = c[i];
	}
}

/* Grows dataset d to `rows` rows and writes the last from mem (of mem_type). */
static int append(hid_t d, int rank, hsize_t rows, const hsize_t *row_dims, hid_t mem_type,
                  const void *mem)
{
	hsize_t size[3] = { rows, row_dims[1], row_dims[2] };
	hsize_t start[3] = { rows - 1, 0, 0 }, count[3] = { 1, row_dims[1], row_dims[2] };
	int ok = 0;

	if (H5Dset_extent(d, size) < 0)
		return -1;
	hid_t fs = H5Dget_space(d);
	hid_t ms = H5Screate_simple(rank, count, NULL);
	if (fs >= 0 && ms >= 0 && H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0)
		ok = H5Dwrite(d, mem_type, ms, fs, H5P_DEFAULT, mem) >= 0;
	if (ms >= 0)
		H5Sclose(ms);
	if (fs >= 0)
		H5Sclose(fs);
	return ok ? 0 : -1;
}

int traj_h5_write(struct traj_h5 *h, long frame, const struct traj_cols *c)
{
	hsize_t rows = h->rows + 1, dims[3] = { 0, h->n, (hsize_t)h->dims }, none[3] = { 0, 0, 0 };
	hid_t mem = h->single ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
	long long fr = frame;

	quiet();
	errno = 0;
	interleave(h, c->x, c->y, c->z);
	if (append(h->pos, 3, rows, dims, mem, h->buf) != 0)
		return h5_error();
	interleave(h, c->vx, c->vy, c->vz);
	if (append(h->vel, 3, rows, dims, mem, h->buf) != 0 ||
	    append(h->frames, 1, rows, none, H5T_NATIVE_LLONG, &fr) != 0)
		return h5_error();
	h->rows = rows;
	return 0;
}

int traj_h5_finish(struct traj_h5 *h, const char *status)
{
	int err = 0;

	quiet();
	errno = 0;
	if (set_string(h->file, "status", status) != 0 || set_long(h->file, "frames", (long long)h->rows) != 0)
		err = h5_error();
	close_all(h);
	if (!err && H5Fflush(h->file, H5F_SCOPE_GLOBAL) < 0)
		err = h5_error();
	if (H5Fclose(h->file) < 0 && !err)
		err = h5_error();
	h->file = -1;
	traj_h5_free(h);
	return err;
}

void traj_h5_free(struct traj_h5 *h)
{
	if (!h)
		return;
	quiet();
	close_all(h);
	if (h->file >= 0)
		H5Fclose(h->file);
	free(h->buf);
	free(h);
}

/* ----------------------------------------------------------------- reading */

static int fail(struct traj_error *err, const char *fmt, ...)
{
	va_list ap;

	err->line = 0;
	va_start(ap, fmt);
	vsnprintf(err->what, sizeof(err->what), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Objects a load holds, closed in one place. */
struct reading {
	hid_t file, pos, vel, frames, pred;
	double *buf;
	unsigned char *flag;
	long long *numbers;
};

static void reading_close(struct reading *r)
{
	hid_t ids[] = { r->pred, r->frames, r->vel, r->pos };

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (ids[i] >= 0)
			H5Dclose(ids[i]);
	if (r->file >= 0)
		H5Fclose(r->file);
	free(r->buf);
	free(r->flag);
	free(r->numbers);
}

/* The shape of a float dataset of rank 3 as [frames][boids][dims]; -1 when it is not one. */
static int shape3(hid_t d, hsize_t *dims)
{
	hid_t s = H5Dget_space(d), t = H5Dget_type(d);
	int ok = s >= 0 && t >= 0 && H5Sget_simple_extent_ndims(s) == 3 &&
	         H5Sget_simple_extent_dims(s, dims, NULL) == 3 && H5Tget_class(t) == H5T_FLOAT;

	if (t >= 0)
		H5Tclose(t);
	if (s >= 0)
		H5Sclose(s);
	return ok ? 0 : -1;
}

/* Reads row `row` of d ([boids][dims]) as doubles into buf. */
static int read_row(hid_t d, hsize_t row, const hsize_t *dims, double *buf)
{
	hsize_t start[3] = { row, 0, 0 }, count[3] = { 1, dims[1], dims[2] };
	hid_t fs = H5Dget_space(d), ms = H5Screate_simple(3, count, NULL);
	int ok = fs >= 0 && ms >= 0 && H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
	         H5Dread(d, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, buf) >= 0;

	if (ms >= 0)
		H5Sclose(ms);
	if (fs >= 0)
		H5Sclose(fs);
	return ok ? 0 : -1;
}

/* Reads count numbers of the 1-D dataset d from row `from` into out; -1 on failure. */
static int read_numbers(hid_t d, hsize_t from, hsize_t count, long long *out)
{
	hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, &count, NULL);
	int ok = fs >= 0 && ms >= 0 && H5Sselect_hyperslab(fs, H5S_SELECT_SET, &from, NULL, &count, NULL) >= 0 &&
	         H5Dread(d, H5T_NATIVE_LLONG, ms, fs, H5P_DEFAULT, out) >= 0;

	if (ms >= 0)
		H5Sclose(ms);
	if (fs >= 0)
		H5Sclose(fs);
	return ok ? 0 : -1;
}

enum { NUMBERS_BLOCK = 4096 }; /* frame numbers read at a time: the list is never held whole */

/*
 * The row of frame number want (-1: the last) in /frame, and its number;
 * a message when absent.  The list is read NUMBERS_BLOCK numbers at a
 * time, so a file declaring 10^8 frames costs no more memory than one.
 */
static int find_row(struct reading *r, hsize_t rows, long want, hsize_t *row, long *number,
                    struct traj_error *err)
{
	hid_t s = H5Dget_space(r->frames);
	hsize_t len = 0;
	long long first, last;
	int ok = s >= 0 && H5Sget_simple_extent_ndims(s) == 1 && H5Sget_simple_extent_dims(s, &len, NULL) == 1;

	if (s >= 0)
		H5Sclose(s);
	if (!ok || len != rows)
		return fail(err, "'frame' is not a list of %llu frame numbers", (unsigned long long)rows);
	if (read_numbers(r->frames, 0, 1, &first) != 0 || read_numbers(r->frames, rows - 1, 1, &last) != 0)
		return fail(err, "cannot read its frame numbers ('frame')");
	if (want < 0) {
		*row = rows - 1;
		*number = (long)last;
		return 0;
	}
	if (!(r->numbers = malloc(NUMBERS_BLOCK * sizeof(long long))))
		return -ENOMEM;
	for (hsize_t at = 0; at < rows; at += NUMBERS_BLOCK) {
		hsize_t k = rows - at < NUMBERS_BLOCK ? rows - at : NUMBERS_BLOCK;
		if (read_numbers(r->frames, at, k, r->numbers) != 0)
			return fail(err, "cannot read its frame numbers ('frame')");
		for (hsize_t i = 0; i < k; i++)
			if (r->numbers[i] == want) {
				*row = at + i;
				*number = want;
				return 0;
			}
	}
	return fail(err, "no frame %ld in it (its frames go from %lld to %lld)", want, first, last);
}

/*
 * Whether dataset d is stored whole or in chunks of at most `most` bytes:
 * HDF5 holds a whole chunk in memory to read any of it, and a chunk may
 * be up to 4 GiB whatever the file's size (a compressed one).
 */
static int chunks_fit(hid_t d, double most, double *bytes)
{
	hid_t plist = H5Dget_create_plist(d), t = H5Dget_type(d);
	hsize_t dims[H5S_MAX_RANK];
	int ok = plist >= 0 && t >= 0;

	*bytes = 0;
	if (ok && H5Pget_layout(plist) == H5D_CHUNKED) {
		int rank = H5Pget_chunk(plist, H5S_MAX_RANK, dims);
		*bytes = (double)H5Tget_size(t);
		for (int i = 0; i < rank; i++)
			*bytes *= (double)dims[i];
		ok = rank > 0 && *bytes <= most;
	}
	if (t >= 0)
		H5Tclose(t);
	if (plist >= 0)
		H5Pclose(plist);
	return ok;
}

/* Refuses a dataset whose chunks are beyond one frame of the flock (or 64 MiB, if more). */
static int check_chunks(hid_t d, const char *name, double frame_bytes, struct traj_error *err)
{
	double most = frame_bytes > CHUNK_READ_MAX ? frame_bytes : CHUNK_READ_MAX, bytes;

	if (chunks_fit(d, most, &bytes))
		return 0;
	return fail(err, "'%s' is stored in chunks of %.0f MiB, more than boids reads (%.0f MiB: %s)", name,
	            bytes / 1048576, most / 1048576, most > CHUNK_READ_MAX ? "one frame" : "a frame, or 64 MiB");
}

/* /predator, when there: the count of predators, which must be the first boids. */
static int read_predators(struct reading *r, size_t n, long *predators, struct traj_error *err)
{
	*predators = -1;
	if (H5Lexists(r->file, "predator", H5P_DEFAULT) <= 0)
		return 0;
	r->pred = H5Dopen2(r->file, "predator", H5P_DEFAULT);
	hid_t s = r->pred < 0 ? -1 : H5Dget_space(r->pred);
	hsize_t len = 0;
	int ok = s >= 0 && H5Sget_simple_extent_ndims(s) == 1 && H5Sget_simple_extent_dims(s, &len, NULL) == 1;
	if (s >= 0)
		H5Sclose(s);
	if (!ok || len != n)
		return fail(err, "'predator' is not a list of %zu flags", n);
	int ret = check_chunks(r->pred, "predator", 0, err);
	if (ret)
		return ret;
	if (!(r->flag = malloc(n)))
		return -ENOMEM;
	if (H5Dread(r->pred, H5T_NATIVE_UCHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT, r->flag) < 0)
		return fail(err, "cannot read 'predator'");
	size_t p = 0;
	while (p < n && r->flag[p] == 1)
		p++;
	for (size_t i = p; i < n; i++)
		if (r->flag[i] != 0)
			return fail(err, "'predator' flags boid %zu, not one of the first boids", i);
	*predators = (long)p;
	return 0;
}

/* Checks and spreads the interleaved rows of positions (pos) and velocities into out's columns. */
static int take_values(const double *pos, const double *vel, size_t n, int d, struct traj_state *out,
                       hsize_t row, struct traj_error *err)
{
	static const char *const what[2] = { "positions", "velocities" };
	double **to[6] = { &out->x, &out->y, &out->z, &out->vx, &out->vy, &out->vz };

	for (int q = 0; q < 2; q++) { /* every value first: nothing of out is set on failure */
		const double *src = q ? vel : pos;
		for (size_t i = 0; i < n * (size_t)d; i++)
			if (!isfinite(src[i]) || fabs(src[i]) > TRAJ_VALUE_MAX)
				return fail(err, "%s[%llu][%zu][%zu] = %g is %s", what[q], (unsigned long long)row,
				            i / (size_t)d, i % (size_t)d, src[i],
				            isfinite(src[i]) ? "beyond the limit (-" STR(TRAJ_VALUE_MAX) " to "
				                               STR(TRAJ_VALUE_MAX) ")" : "not a finite number");
	}
	double *a = malloc(2 * (size_t)d * n * sizeof(double));
	if (!a)
		return -ENOMEM;
	for (int q = 0; q < 2; q++) {
		const double *src = q ? vel : pos;
		for (int k = 0; k < d; k++) {
			double *col = a + (size_t)(q * d + k) * n;
			for (size_t i = 0; i < n; i++)
				col[i] = src[i * (size_t)d + (size_t)k];
			*to[q * 3 + k] = col;
		}
	}
	out->n = n;
	out->dims = d;
	return 0;
}

/* Opens path read-only, without locks (no_locks()); -1 on failure. */
static hid_t open_reading(const char *path)
{
	hid_t fapl = no_locks();
	hid_t file = fapl < 0 ? -1 : H5Fopen(path, H5F_ACC_RDONLY, fapl);

	if (fapl >= 0)
		H5Pclose(fapl);
	return file;
}

int traj_h5_field(const char *path, double field[3])
{
	int got = 0;

	quiet();
	if (H5Fis_hdf5(path) <= 0)
		return 0;
	hid_t file = open_reading(path);
	if (file < 0)
		return 0;
	hid_t a = H5Aexists(file, "field") > 0 ? H5Aopen(file, "field", H5P_DEFAULT) : -1;
	hid_t space = a < 0 ? -1 : H5Aget_space(a);
	hsize_t count = 0;
	if (space >= 0 && H5Sget_simple_extent_ndims(space) == 1 &&
	    H5Sget_simple_extent_dims(space, &count, NULL) == 1 && (count == 2 || count == 3)) {
		double v[3] = { 0, 0, 0 };
		if (H5Aread(a, H5T_NATIVE_DOUBLE, v) >= 0) {
			memcpy(field, v, sizeof(v));
			got = (int)count;
		}
	}
	if (space >= 0)
		H5Sclose(space);
	if (a >= 0)
		H5Aclose(a);
	H5Fclose(file);
	return got;
}

/*
 * Opens /positions, /velocities and /frame and checks their shapes against
 * the limits before anything is read: dims 2 or 3, at least one frame and
 * one boid, at most TRAJ_BOIDS_MAX boids and TRAJ_FRAMES_MAX frames, chunks
 * check_chunks() takes.  pdims gets [frames][boids][dims].
 */
static int open_datasets(struct reading *r, hsize_t *pdims, struct traj_error *err)
{
	hsize_t vdims[3];

	if (H5Lexists(r->file, "positions", H5P_DEFAULT) <= 0 || H5Lexists(r->file, "velocities", H5P_DEFAULT) <= 0 ||
	    H5Lexists(r->file, "frame", H5P_DEFAULT) <= 0)
		return fail(err, "not a boids trajectory (no 'positions', 'velocities' and 'frame' datasets)");
	r->pos = H5Dopen2(r->file, "positions", H5P_DEFAULT);
	r->vel = H5Dopen2(r->file, "velocities", H5P_DEFAULT);
	r->frames = H5Dopen2(r->file, "frame", H5P_DEFAULT);
	if (r->pos < 0 || r->vel < 0 || r->frames < 0 || shape3(r->pos, pdims) || shape3(r->vel, vdims) ||
	    memcmp(pdims, vdims, 3 * sizeof(hsize_t)) != 0)
		return fail(err, "'positions' and 'velocities' are not numbers of one shape [frames][boids][dims]");
	if (pdims[2] != 2 && pdims[2] != 3)
		return fail(err, "dims is %llu (2 or 3 expected)", (unsigned long long)pdims[2]);
	if (pdims[0] == 0 || pdims[1] == 0)
		return fail(err, pdims[0] == 0 ? "no frames in it" : "no boids in it");
	if (pdims[1] > (hsize_t)TRAJ_BOIDS_MAX)
		return fail(err, "it has %llu boids (at most %ld)", (unsigned long long)pdims[1], TRAJ_BOIDS_MAX);
	if (pdims[0] > (hsize_t)TRAJ_FRAMES_MAX)
		return fail(err, "it has %llu frames (at most %ld)", (unsigned long long)pdims[0], TRAJ_FRAMES_MAX);
	double frame = (double)pdims[1] * (double)pdims[2] * sizeof(double);
	int ret = check_chunks(r->pos, "positions", frame, err);
	if (!ret)
		ret = check_chunks(r->vel, "velocities", frame, err);
	if (!ret)
		ret = check_chunks(r->frames, "frame", 0, err);
	return ret;
}

int traj_h5_load(const char *path, long want, struct traj_state *out, struct traj_error *err)
{
	struct reading r = { -1, -1, -1, -1, -1, NULL, NULL, NULL };
	hsize_t dims[3], row = 0;
	int ret;

	quiet();
	memset(out, 0, sizeof(*out));
	err->line = 0;
	err->what[0] = 0;
	errno = 0;
	if (H5Fis_hdf5(path) <= 0) {
		ret = errno && errno != ENOENT ? -errno : fail(err, "not an HDF5 file");
		goto done;
	}
	r.file = open_reading(path);
	if (r.file < 0) {
		ret = fail(err, "cannot open it as HDF5 (damaged?)");
		goto done;
	}
	if ((ret = open_datasets(&r, dims, err)) != 0 || (ret = find_row(&r, dims[0], want, &row, &out->frame, err)) != 0)
		goto done;
	size_t n = (size_t)dims[1], d = (size_t)dims[2];
	if ((ret = read_predators(&r, n, &out->predators, err)) != 0)
		goto done;
	if (!(r.buf = malloc(2 * n * d * sizeof(double)))) {
		ret = -ENOMEM;
		goto done;
	}
	if (read_row(r.pos, row, dims, r.buf) != 0 || read_row(r.vel, row, dims, r.buf + n * d)) {
		ret = fail(err, "cannot read frame row %llu (damaged?)", (unsigned long long)row);
		goto done;
	}
	ret = take_values(r.buf, r.buf + n * d, n, (int)d, out, row, err);
done:
	reading_close(&r);
	if (ret) { /* as traj_state_release(), which is not in the plugin: out holds nothing */
		long p = out->predators;
		memset(out, 0, sizeof(*out));
		out->predators = p;
	}
	return ret;
}
