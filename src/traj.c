/*
 * traj — trajectory CSV writer and last-frame loader; see include/traj.h.
 */
#include "traj.h"
#include "lineread.h"

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

/* The headers of a 2D and a 3D file. */
#define HEADER2 "frame,id,x,y,vx,vy"
#define HEADER3 HEADER2 ",z,vz"

int traj_write_header(FILE *f, int dims)
{
	errno = 0;
	return fputs(dims == 3 ? HEADER3 "\n" : HEADER2 "\n", f) < 0 ? write_error() : 0;
}

int traj_write_frame(FILE *f, long frame, const struct traj_cols *c)
{
	errno = 0;
	for (size_t i = 0; i < c->n; i++) {
		int w = c->z ? fprintf(f, "%ld,%zu,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", frame, i,
		                       c->x[i], c->y[i], c->vx[i], c->vy[i], c->z[i], c->vz[i])
		             : fprintf(f, "%ld,%zu,%.17g,%.17g,%.17g,%.17g\n", frame, i,
		                       c->x[i], c->y[i], c->vx[i], c->vy[i]);
		if (w < 0)
			return write_error();
	}
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

/* Values a row holds after frame and id: x, y, vx, vy, then z, vz in 3D. */
enum { VALUES_2D = 4, VALUES_3D = 6 };

static const char *const value_names[VALUES_3D] = { "x", "y", "vx", "vy", "z", "vz" };

/* Growable columns of the frame being read: nv of them, in one block. */
struct cols {
	size_t n, cap;
	int nv;                  /* VALUES_2D or VALUES_3D, from the header */
	double *col[VALUES_3D];  /* col[0] owns the block */
};

static int cols_push(struct cols *c, const double *v)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 256;
		double *a = malloc((size_t)c->nv * cap * sizeof(double));
		if (!a)
			return -ENOMEM;
		for (int k = 0; k < c->nv; k++)
			if (c->n)
				memcpy(a + (size_t)k * cap, c->col[k], c->n * sizeof(double));
		free(c->col[0]);
		for (int k = 0; k < c->nv; k++)
			c->col[k] = a + (size_t)k * cap;
		c->cap = cap;
	}
	for (int k = 0; k < c->nv; k++)
		c->col[k][c->n] = v[k];
	c->n++;
	return 0;
}

/* One data row, split and checked in place: frame, id and the nv values. */
static int parse_row(char *line, long lineno, int nv, long *fr, long *id, double *v,
                     struct traj_error *err)
{
	char *field[2 + VALUES_3D + 1];
	int nf = 0, want = 2 + nv;

	for (char *p = line; nf < want + 1;) {
		field[nf++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = 0;
	}
	if (nf != want)
		return fail(err, lineno, "expected %d fields, found %s", want, nf > want ? "more" : "fewer");
	if (field_long(field[0], fr) || *fr < 0)
		return fail(err, lineno, "frame '%.40s' is not a whole number >= 0", field[0]);
	if (field_long(field[1], id) || *id < 0)
		return fail(err, lineno, "id '%.40s' is not a whole number >= 0", field[1]);
	for (int k = 0; k < nv; k++) {
		if (field_double(field[2 + k], &v[k]))
			return fail(err, lineno, "%s '%.40s' is not a finite number", value_names[k], field[2 + k]);
		if (fabs(v[k]) > TRAJ_VALUE_MAX)
			return fail(err, lineno, "%s '%.40s' is beyond the limit (-%s to %s)",
			            value_names[k], field[2 + k], STR(TRAJ_VALUE_MAX), STR(TRAJ_VALUE_MAX));
	}
	return 0;
}

/* One line after the header: a row of the last frame, which starts a new one when its number grows. */
static int take_line(char *line, ssize_t len, long lineno, long *frame, struct cols *cur,
                     struct traj_error *err)
{
	long fr = 0, id = 0;
	double v[VALUES_3D];
	int ret;

	if (len == 0)
		return fail(err, lineno, "empty line");
	if ((ret = parse_row(line, lineno, cur->nv, &fr, &id, v, err)) != 0)
		return ret;
	if (fr != *frame) {
		if (fr < *frame)
			return fail(err, lineno, "frame %ld after frame %ld", fr, *frame);
		*frame = fr;
		cur->n = 0;
	}
	if ((size_t)id != cur->n)
		return fail(err, lineno, "id %ld where %zu was expected", id, cur->n);
	return cols_push(cur, v);
}

/* The header says 2D or 3D: sets cur->nv.  Returns 0 or -EINVAL. */
static int take_header(const char *line, struct cols *cur, struct traj_error *err)
{
	if (strcmp(line, HEADER2) == 0)
		cur->nv = VALUES_2D;
	else if (strcmp(line, HEADER3) == 0)
		cur->nv = VALUES_3D;
	else
		return fail(err, 1, "expected the header '" HEADER2 "' (or '" HEADER3 "' in 3D)");
	return 0;
}

/* Hands the last frame over in one tight block. */
static int hand_over(const struct cols *cur, long frame, struct traj_state *out)
{
	size_t n = cur->n;
	double *a = malloc((size_t)cur->nv * n * sizeof(double));
	double **to[VALUES_3D] = { &out->x, &out->y, &out->vx, &out->vy, &out->z, &out->vz };

	if (!a)
		return -ENOMEM;
	out->n = n;
	out->frame = frame;
	out->dims = cur->nv == VALUES_3D ? 3 : 2;
	for (int k = 0; k < cur->nv; k++) {
		*to[k] = a + (size_t)k * n;
		memcpy(*to[k], cur->col[k], n * sizeof(double));
	}
	return 0;
}

int traj_load(FILE *f, struct traj_state *out, struct traj_error *err)
{
	struct cols cur = { 0 };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long lineno = 0, frame = -1;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	err->line = 0;
	err->what[0] = 0;

	while (!ret && (len = lineread_next(f, &line, &cap, LINEREAD_MAX)) >= 0) {
		lineno++;
		while (len > 0 && line[len - 1] == '\r')
			line[--len] = 0;
		if ((size_t)len != strlen(line))
			ret = fail(err, lineno, "NUL byte in line");
		else if (lineno == 1)
			ret = take_header(line, &cur, err);
		else
			ret = take_line(line, len, lineno, &frame, &cur, err);
	}
	if (ret)
		;
	else if (len == -E2BIG)
		ret = fail(err, lineno + 1, "line longer than %ld bytes", LINEREAD_MAX);
	else if (len != LINEREAD_EOF) /* a read error is not the end of the file */
		err->line = lineno + 1, ret = (int)len;
	else if (lineno == 0)
		ret = fail(err, 0, "the file is empty");
	else if (frame < 0)
		ret = fail(err, lineno, "no rows after the header");
	else
		ret = hand_over(&cur, frame, out);
	free(cur.col[0]);
	free(line);
	return ret;
}
