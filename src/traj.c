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

int traj_write_header(FILE *f)
{
	errno = 0;
	return fputs("frame,id,x,y,vx,vy\n", f) < 0 ? write_error() : 0;
}

int traj_write_frame(FILE *f, long frame, size_t n, const double *x,
                     const double *y, const double *vx, const double *vy)
{
	errno = 0;
	for (size_t i = 0; i < n; i++)
		if (fprintf(f, "%ld,%zu,%.17g,%.17g,%.17g,%.17g\n", frame, i,
		            x[i], y[i], vx[i], vy[i]) < 0)
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

/* Growable columns of the frame being read. */
struct cols {
	size_t n, cap;
	double *x, *y, *vx, *vy;
};

static int cols_push(struct cols *c, const double v[4])
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 256;
		double *a = malloc(4 * cap * sizeof(double));
		if (!a)
			return -ENOMEM;
		if (c->n) {
			memcpy(a, c->x, c->n * sizeof(double));
			memcpy(a + cap, c->y, c->n * sizeof(double));
			memcpy(a + 2 * cap, c->vx, c->n * sizeof(double));
			memcpy(a + 3 * cap, c->vy, c->n * sizeof(double));
		}
		free(c->x);
		c->x = a, c->y = a + cap, c->vx = a + 2 * cap, c->vy = a + 3 * cap;
		c->cap = cap;
	}
	c->x[c->n] = v[0];
	c->y[c->n] = v[1];
	c->vx[c->n] = v[2];
	c->vy[c->n] = v[3];
	c->n++;
	return 0;
}

/* One data row, split and checked in place: frame, id and the four values. */
static int parse_row(char *line, long lineno, long *fr, long *id, double v[4], struct traj_error *err)
{
	static const char *const names[] = { "x", "y", "vx", "vy" };
	char *field[7];
	int nf = 0;

	for (char *p = line; nf < 7;) {
		field[nf++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = 0;
	}
	if (nf != 6)
		return fail(err, lineno, "expected 6 fields, found %s", nf > 6 ? "more" : "fewer");
	if (field_long(field[0], fr) || *fr < 0)
		return fail(err, lineno, "frame '%.40s' is not a whole number >= 0", field[0]);
	if (field_long(field[1], id) || *id < 0)
		return fail(err, lineno, "id '%.40s' is not a whole number >= 0", field[1]);
	for (int k = 0; k < 4; k++) {
		if (field_double(field[2 + k], &v[k]))
			return fail(err, lineno, "%s '%.40s' is not a finite number", names[k], field[2 + k]);
		if (fabs(v[k]) > TRAJ_VALUE_MAX)
			return fail(err, lineno, "%s '%.40s' is beyond the limit (-%s to %s)",
			            names[k], field[2 + k], STR(TRAJ_VALUE_MAX), STR(TRAJ_VALUE_MAX));
	}
	return 0;
}

/* One line after the header: a row of the last frame, which starts a new one when its number grows. */
static int take_line(char *line, ssize_t len, long lineno, long *frame, struct cols *cur,
                     struct traj_error *err)
{
	long fr = 0, id = 0;
	double v[4];
	int ret;

	if (len == 0)
		return fail(err, lineno, "empty line");
	if ((ret = parse_row(line, lineno, &fr, &id, v, err)) != 0)
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

/* Hands the last frame over in one tight block. */
static int hand_over(const struct cols *cur, long frame, struct traj_state *out)
{
	double *a = malloc(4 * cur->n * sizeof(double));

	if (!a)
		return -ENOMEM;
	out->n = cur->n;
	out->frame = frame;
	out->x = a;
	out->y = a + cur->n;
	out->vx = a + 2 * cur->n;
	out->vy = a + 3 * cur->n;
	memcpy(out->x, cur->x, cur->n * sizeof(double));
	memcpy(out->y, cur->y, cur->n * sizeof(double));
	memcpy(out->vx, cur->vx, cur->n * sizeof(double));
	memcpy(out->vy, cur->vy, cur->n * sizeof(double));
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
		else if (lineno == 1 && strcmp(line, "frame,id,x,y,vx,vy") != 0)
			ret = fail(err, 1, "expected the header 'frame,id,x,y,vx,vy'");
		else if (lineno > 1)
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
	free(cur.x);
	free(line);
	return ret;
}
