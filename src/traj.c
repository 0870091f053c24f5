/*
 * traj — trajectory CSV writer and last-frame loader; see include/traj.h.
 */
#include "traj.h"
#include "fmtnum.h"
#include "grow.h"
#include "lineread.h"
#include "zfile.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define STR_(x) #x
#define STR(x) STR_(x)

/* The stream's own error (ENOSPC says more than EIO), or -EIO. */
static int write_error(void)
{
	return errno ? -errno : -EIO;
}

/* The headers of a 2D and a 3D file, and the opt-in last column. */
#define HEADER2 "frame,id,x,y,vx,vy"
#define HEADER3 HEADER2 ",z,vz"
#define PREDATOR_COL ",predator"

int traj_write_header(FILE *f, int dims)
{
	return traj_write_header_cols(f, dims, 0);
}

int traj_write_header_cols(FILE *f, int dims, int predator_col)
{
	errno = 0;
	if (fputs(dims == 3 ? HEADER3 : HEADER2, f) < 0 ||
	    fputs(predator_col ? PREDATOR_COL "\n" : "\n", f) < 0)
		return write_error();
	return 0;
}

/* Appends ",<v>" as %.17g. */
static char *put_value(char *p, double v)
{
	*p++ = ',';
	return p + fmtnum_g17(p, v);
}

enum { ROW_MAX = 2 * 21 + 9 * FMTNUM_G17_MAX, OUT_BUF = 1 << 16 };

int traj_write_frame(FILE *f, long frame, const struct traj_cols *c)
{
	return traj_write_frame_cols(f, frame, c, -1);
}

int traj_write_frame_cols(FILE *f, long frame, const struct traj_cols *c, long predators)
{
	char buf[OUT_BUF], fr[24];
	size_t frlen = fmtnum_ulong(fr, (unsigned long)frame), used = 0;

	assert(frame >= 0);
	errno = 0;
	for (size_t i = 0; i < c->n; i++) {
		char *p = buf + used;
		memcpy(p, fr, frlen);
		p += frlen;
		*p++ = ',';
		p += fmtnum_ulong(p, i);
		p = put_value(p, c->x[i]);
		p = put_value(p, c->y[i]);
		p = put_value(p, c->vx[i]);
		p = put_value(p, c->vy[i]);
		if (c->z) {
			p = put_value(p, c->z[i]);
			p = put_value(p, c->vz[i]);
		}
		if (predators >= 0) {
			*p++ = ',';
			*p++ = i < (size_t)predators ? '1' : '0';
		}
		*p++ = '\n';
		used = (size_t)(p - buf);
		if (used > OUT_BUF - ROW_MAX) {
			if (fwrite(buf, 1, used, f) != used)
				return write_error();
			used = 0;
		}
	}
	if (used && fwrite(buf, 1, used, f) != used)
		return write_error();
	return 0;
}

void traj_state_release(struct traj_state *st)
{
	free(st->x);
	memset(st, 0, sizeof(*st));
}

static int fail(struct traj_error *err, long line, const char *fmt, ...)
{
	va_list ap;

	err->line = line;
	va_start(ap, fmt);
	vsnprintf(err->what, sizeof(err->what), fmt, ap);
	va_end(ap);
	for (char *c = err->what; *c; c++) /* quoted fields are the file's bytes */
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return -EINVAL;
}

/* Parses a whole field as a long; returns 0 on success. */
static int field_long(const char *s, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return (end == s || *end || errno) ? -1 : 0;
}

static int field_double(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	/* ERANGE on underflow still gives the nearest double: only non-finite fails */
	return (end == s || *end || !isfinite(*v)) ? -1 : 0;
}

/* Values a row holds: x, y, vx, vy, then z, vz in 3D. */
enum { VALUES_2D = 4, VALUES_3D = 6 };

/* The columns the reader knows, by header name: the values, then frame, id and predator. */
enum { COL_FRAME = VALUES_3D, COL_ID, COL_PREDATOR, COL_KNOWN };

static const char *const col_names[COL_KNOWN] = { "x", "y", "vx", "vy", "z", "vz", "frame", "id",
                                                  "predator" };

/* Where the known columns are, from the header. */
struct layout {
	int ncols;            /* fields in every row */
	int *slot;            /* per field: its COL_* (0..COL_KNOWN-1), or -1 (ignored) */
	int has[COL_KNOWN];   /* a column of that name is in the header */
};

/* Growable columns of the frame being read: nv of them, in one block. */
struct cols {
	size_t n, cap;
	int nv;                  /* VALUES_2D or VALUES_3D, from the header */
	size_t predators;        /* boids flagged as predators so far in this frame */
	double *col[VALUES_3D];  /* col[0] owns the block */
};

/*
 * Moves the block's columns from `from` to `to` doubles apart, in place
 * (the first stays): up from the last when the room grew, down from the
 * second when it shrinks.
 */
static void spread(double *a, int nv, size_t n, size_t from, size_t to)
{
	for (int i = 1; i < nv; i++) {
		size_t k = (size_t)(to > from ? nv - i : i);
		memmove(a + k * to, a + k * from, n * sizeof(double));
	}
}

static void point_cols(struct cols *c, double *a, size_t cap)
{
	for (int k = 0; k < c->nv; k++)
		c->col[k] = a + (size_t)k * cap;
	c->cap = cap;
}

/*
 * One row more.  The block grows by realloc(), which moves a large block
 * by remapping it: what is held is the block alone, never an old and a new
 * copy (at the limit, TRAJ_BOIDS_MAX rows of nv doubles).
 */
static int cols_push(struct cols *c, const double *v)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 256;
		double *a = c->col[0];
		if (cap > (size_t)TRAJ_BOIDS_MAX)
			cap = (size_t)TRAJ_BOIDS_MAX; /* take_line() refuses a row beyond it */
		if (grow_to(&a, (size_t)c->nv * cap, sizeof(double)) != 0)
			return -ENOMEM;
		spread(a, c->nv, c->n, c->cap, cap);
		point_cols(c, a, cap);
	}
	for (int k = 0; k < c->nv; k++)
		c->col[k][c->n] = v[k];
	c->n++;
	return 0;
}

/*
 * One data row, split and checked in place: frame and id (when the header
 * has them) and the nv values, each from its column; other columns are
 * skipped unread.
 */
static int parse_row(char *line, long lineno, const struct layout *lay, int nv, long *fr,
                     long *id, double *v, int *pred, struct traj_error *err)
{
	char *field[COL_KNOWN] = { 0 };
	int nf = 0;

	for (char *p = line;;) {
		char *comma = strchr(p, ',');
		if (comma)
			*comma = 0;
		if (nf < lay->ncols && lay->slot[nf] >= 0)
			field[lay->slot[nf]] = p;
		nf++;
		if (!comma)
			break;
		p = comma + 1;
	}
	if (nf != lay->ncols)
		return fail(err, lineno, "expected %d fields, found %s", lay->ncols,
		            nf > lay->ncols ? "more" : "fewer");
	if (field[COL_FRAME] && (field_long(field[COL_FRAME], fr) || *fr < 0))
		return fail(err, lineno, "frame '%.40s' is not a whole number >= 0", field[COL_FRAME]);
	if (field[COL_ID] && (field_long(field[COL_ID], id) || *id < 0))
		return fail(err, lineno, "id '%.40s' is not a whole number >= 0", field[COL_ID]);
	for (int k = 0; k < nv; k++) {
		if (field_double(field[k], &v[k]))
			return fail(err, lineno, "%s '%.40s' is not a finite number", col_names[k], field[k]);
		if (fabs(v[k]) > TRAJ_VALUE_MAX)
			return fail(err, lineno, "%s '%.40s' is beyond the limit (-%s to %s)",
			            col_names[k], field[k], STR(TRAJ_VALUE_MAX), STR(TRAJ_VALUE_MAX));
	}
	*pred = 0;
	if (field[COL_PREDATOR]) {
		const char *f = field[COL_PREDATOR];
		if (strcmp(f, "0") != 0 && strcmp(f, "1") != 0)
			return fail(err, lineno, "predator '%.40s' is not 0 or 1", f);
		*pred = f[0] == '1';
	}
	return 0;
}

/* Where the reading is: the frame being collected and the one wanted. */
struct pos {
	long frame;   /* frame of the rows in cur, -1 before the first row */
	long first;   /* the file's first frame, -1 before the first row */
	long want;    /* the frame to keep; -1 the last */
	int done;     /* the wanted frame is complete (or missing): stop reading */
};

/*
 * One line after the header: a row of the last frame, which starts a new
 * one when its number grows.  Without a frame column every row is frame
 * 0; without an id column the rows of a frame are its boids in order.
 */
static int take_line(char *line, ssize_t len, long lineno, const struct layout *lay,
                     struct pos *at, struct cols *cur, struct traj_error *err)
{
	long fr = 0, id = (long)cur->n;
	double v[VALUES_3D];
	int ret, pred;

	if (len == 0)
		return fail(err, lineno, "empty line");
	if ((ret = parse_row(line, lineno, lay, cur->nv, &fr, &id, v, &pred, err)) != 0)
		return ret;
	if (fr != at->frame) {
		if (fr < at->frame)
			return fail(err, lineno, "frame %ld after frame %ld", fr, at->frame);
		if (at->want >= 0 && fr > at->want) {
			at->done = 1; /* the wanted frame is whole (or missing): the rest is not read */
			return 0;
		}
		if (at->first < 0)
			at->first = fr;
		at->frame = fr;
		cur->n = 0;
		cur->predators = 0;
		if (!lay->has[COL_ID])
			id = 0;
	}
	if ((size_t)id != cur->n)
		return fail(err, lineno, "id %ld where %zu was expected", id, cur->n);
	if (cur->n == (size_t)TRAJ_BOIDS_MAX)
		return fail(err, lineno, "frame %ld has more than %ld boids (at most %ld)", at->frame,
		            TRAJ_BOIDS_MAX, TRAJ_BOIDS_MAX);
	if (pred && cur->predators != cur->n)
		return fail(err, lineno, "predator 1 after a boid that is not one (predators are the "
		            "first boids)");
	cur->predators += (size_t)pred;
	if ((ret = cols_push(cur, v)) != 0)
		err->line = lineno;
	return ret;
}

/* Is name (len bytes, blanks around it already cut) column k's? */
static int is_column(const char *name, size_t len, int k)
{
	return strlen(col_names[k]) == len && memcmp(name, col_names[k], len) == 0;
}

/*
 * The header names the columns, in any order: x, y, vx and vy are needed,
 * z and vz together make a 3D file, frame and id are optional, any other
 * column is ignored.  A UTF-8 byte-order mark before it is skipped.  Sets
 * lay and cur->nv.  Returns 0, -EINVAL or -ENOMEM.
 */
static int take_header(char *line, struct layout *lay, struct cols *cur, struct traj_error *err)
{
	char missing[64] = "";

	if (strncmp(line, "\xef\xbb\xbf", 3) == 0)
		line += 3;
	lay->ncols = 1;
	for (const char *p = line; *p; p++)
		lay->ncols += *p == ',';
	if (lay->ncols > TRAJ_COLUMNS_MAX)
		return fail(err, 1, "the header has %d columns (at most %d)", lay->ncols, TRAJ_COLUMNS_MAX);
	lay->slot = malloc((size_t)lay->ncols * sizeof(int));
	if (!lay->slot)
		return err->line = 1, -ENOMEM;
	const char *p = line;
	for (int j = 0; j < lay->ncols; j++) {
		size_t len = strcspn(p, ",");
		const char *name = p;
		p += len + (p[len] == ',');
		while (len && (*name == ' ' || *name == '\t'))
			name++, len--;
		while (len && (name[len - 1] == ' ' || name[len - 1] == '\t'))
			len--;
		lay->slot[j] = -1;
		for (int k = 0; k < COL_KNOWN; k++) {
			if (!is_column(name, len, k))
				continue;
			if (lay->has[k])
				return fail(err, 1, "the header names column '%s' twice", col_names[k]);
			lay->has[k] = 1;
			lay->slot[j] = k;
		}
	}
	int depth = lay->has[4] || lay->has[5]; /* z or vz: both are needed */
	for (int k = 0; k < (depth ? VALUES_3D : VALUES_2D); k++)
		if (!lay->has[k])
			snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing), "%s%s",
			         missing[0] ? ", " : "", col_names[k]);
	if (missing[0])
		return fail(err, 1, "the header has no column %s (it names x, y, vx, vy, and z, vz "
		            "in 3D, in any order; frame, id and predator are optional): '%.40s'", missing, line);
	cur->nv = depth ? VALUES_3D : VALUES_2D;
	return 0;
}

/*
 * Hands the frame read over in one tight block, the columns' own (packed in
 * place, then shrunk: no second copy); pred_col: the file flags predators.
 */
static void hand_over(struct cols *cur, long frame, int pred_col, struct traj_state *out)
{
	size_t n = cur->n;
	double *a = cur->col[0];
	double **to[VALUES_3D] = { &out->x, &out->y, &out->vx, &out->vy, &out->z, &out->vz };

	spread(a, cur->nv, n, cur->cap, n);
	if (grow_to(&a, (size_t)cur->nv * n, sizeof(double)) != 0)
		a = cur->col[0]; /* not shrunk: it still holds the columns */
	cur->col[0] = NULL;
	out->n = n;
	out->frame = frame;
	out->dims = cur->nv == VALUES_3D ? 3 : 2;
	out->predators = pred_col ? (long)cur->predators : -1;
	for (int k = 0; k < cur->nv; k++)
		*to[k] = a + (size_t)k * n;
}

int traj_load(FILE *f, struct traj_state *out, struct traj_error *err)
{
	return traj_load_frame(f, -1, out, err);
}

int traj_load_frame(FILE *f, long want, struct traj_state *out, struct traj_error *err)
{
	struct cols cur = { 0 };
	struct layout lay = { 0 };
	struct pos at = { -1, -1, want, 0 };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len = LINEREAD_EOF;
	long lineno = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	err->line = 0;
	err->what[0] = 0;

	while (!ret && !at.done && (len = lineread_next(f, &line, &cap, LINEREAD_MAX)) >= 0) {
		lineno++;
		while (len > 0 && line[len - 1] == '\r')
			line[--len] = 0;
		if ((size_t)len != strlen(line))
			ret = fail(err, lineno, "NUL byte in line");
		else if (lineno == 1)
			ret = take_header(line, &lay, &cur, err);
		else
			ret = take_line(line, len, lineno, &lay, &at, &cur, err);
	}
	if (ret || at.done)
		;
	else if (len == -E2BIG)
		ret = fail(err, lineno + 1, "line longer than %ld bytes", LINEREAD_MAX);
	else if (len == -EOVERFLOW) /* zfile.h: a zstd frame's window beyond the reader's */
		ret = fail(err, lineno + 1, "its zstd data needs a window larger than %d MiB to decode "
		           "(written with zstd --long=%d or more?)", 1 << (ZFILE_WINDOW_LOG_MAX - 20),
		           ZFILE_WINDOW_LOG_MAX + 1);
	else if (len != LINEREAD_EOF) /* a read error is not the end of the file */
		err->line = lineno + 1, ret = (int)len;
	else if (lineno == 0)
		ret = fail(err, 0, "the file is empty");
	else if (at.frame < 0)
		ret = fail(err, lineno, "no rows after the header");
	if (!ret && want >= 0 && at.frame != want)
		ret = fail(err, 0, "no frame %ld in it (its first frame is %ld)", want, at.first);
	if (!ret)
		hand_over(&cur, at.frame, lay.has[COL_PREDATOR], out);
	free(cur.col[0]);
	free(lay.slot);
	free(line);
	return ret;
}
