/*
 * Fuzz targets — the invariants of boids' input parsers; see targets.h.
 *
 * Each target turns the bytes into what the parser reads, calls it, and
 * holds the answer to the contract in the parser's header with FUZZ_CHECK(),
 * which prints what broke and aborts.  Where a header states a result
 * precisely (colours, frame names) the answer is compared with a small
 * independent implementation here (ref_*); everything that parses is also
 * sent back through its writer (--print-config, color_format, the trajectory
 * writer) and must read back identically.
 *
 * Start at fuzz_cli(); fuzz_check_settings() and fuzz_check_print_config()
 * are shared with fuzz_config().
 *
 * A known, unfixed bug (docs/FUZZING.md) would stop every fuzzing run at the
 * first input that shows it.  Unless FUZZ_STRICT is 1, the check it breaks is
 * relaxed for such inputs (FUZZ_ENFORCE(k) below); build with -DFUZZ_STRICT=1
 * (make fuzz FUZZ_STRICT=1) to check everything, e.g. to replay
 * tests/fuzz/crashes/ after a fix.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include "targets.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "color.h"
#include "framename.h"
#include "model.h"
#include "traj.h"

#ifndef FUZZ_STRICT
#define FUZZ_STRICT 0
#endif
#ifndef FUZZ_ENFORCE_BUGS
#define FUZZ_ENFORCE_BUGS 0 /* bit k: check known bug k even when not strict */
#endif
/* Are the checks that known bug k breaks on? */
#define FUZZ_ENFORCE(k) (FUZZ_STRICT || ((FUZZ_ENFORCE_BUGS >> (k)) & 1))

#define FUZZ_MAX_ARGS 64    /* argv entries after argv[0] */
#define FUZZ_ERRLEN   512   /* main's message buffer */
#define FUZZ_LIM      1e6   /* bound of model numbers */
#define FUZZ_POS      1e9   /* bound of positions and radii ("numbers within 1e9": --field's) */

/* ------------------------------------------------------------------ helpers */

static void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 4, 5)));

static void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: invariant violated: %s\n  ", file, line, cond);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

#define FUZZ_CHECK(cond, ...) \
	do { if (!(cond)) fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__); } while (0)

static void *fuzz_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	FUZZ_CHECK(p, "out of memory (%zu bytes)", n);
	return p;
}

/* data as a C string: it ends at the first NUL, if any. */
static char *fuzz_cstring(const uint8_t *data, size_t size)
{
	char *s = fuzz_xmalloc(size + 1);

	memcpy(s, data, size);
	s[size] = 0;
	return s;
}

/*
 * A file reachable by name (for --config), holding data: a memfd per slot,
 * rewritten for each input, so nothing is left behind in /tmp.  Returns its
 * path, valid until the next call with the same slot.
 */
static const char *fuzz_memfile(int slot, const void *data, size_t size)
{
	static int fd[2] = { -1, -1 };
	static char path[2][40];

	if (fd[slot] < 0) {
		fd[slot] = memfd_create("boids-fuzz", 0);
		FUZZ_CHECK(fd[slot] >= 0, "memfd_create: %s", strerror(errno));
		snprintf(path[slot], sizeof(path[slot]), "/proc/self/fd/%d", fd[slot]);
	}
	FUZZ_CHECK(ftruncate(fd[slot], 0) == 0, "ftruncate: %s", strerror(errno));
	for (size_t done = 0; done < size;) {
		ssize_t n = pwrite(fd[slot], (const char *)data + done, size - done, (off_t)done);
		FUZZ_CHECK(n > 0, "pwrite: %s", strerror(errno));
		done += (size_t)n;
	}
	return path[slot];
}

/* Lines in a file of `size` bytes, as a line-numbering reader counts them. */
static long fuzz_count_lines(const uint8_t *data, size_t size)
{
	long n = 0;

	for (size_t i = 0; i < size; i++)
		n += data[i] == '\n';
	return n + (size && data[size - 1] != '\n');
}

/* Line `no` (1-based) of data, and its length; NULL past the end. */
static const uint8_t *fuzz_line(const uint8_t *data, size_t size, long no, size_t *len)
{
	const uint8_t *p = data, *end = data + size;

	for (long i = 1; i < no; i++) {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return NULL;
		p = nl + 1;
	}
	if (p == end)
		return NULL; /* past the last line (an empty file has none) */
	const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
	*len = (size_t)((nl ? nl : end) - p);
	return p;
}

/*
 * A message for a user: non-empty, terminated within len, one line without
 * control characters (nothing a value brings along can move the cursor or
 * start an escape sequence).  controls_ok relaxes the last part only.
 */
static void fuzz_check_message(const char *what, const char *msg, size_t len, int controls_ok)
{
	size_t n = strnlen(msg, len);

	FUZZ_CHECK(n < len, "%s: message not terminated within %zu bytes", what, len);
	FUZZ_CHECK(n > 0, "%s: empty message", what);
	FUZZ_CHECK(!strchr(msg, '\n'), "%s: message of several lines: [%s]", what, msg);
	for (size_t i = 0; !controls_ok && i < n; i++)
		FUZZ_CHECK((unsigned char)msg[i] >= 0x20 && msg[i] != 0x7f,
		           "%s: control character 0x%02x in the message: [%s]", what, (unsigned char)msg[i], msg);
}

/* -------------------------------------------------------- settings (cli.h) */

static const void *fuzz_field(const struct config *s, const struct cli_option *o)
{
	return (const char *)s + o->offset;
}

static int fuzz_in(double v, double lo, double hi)
{
	return isfinite(v) && v >= lo && v <= hi;
}

/*
 * What cli_parse() accepted is a runnable configuration: every value within
 * the range the option table and --help state, and the checks across
 * options done.  Stated twice: by hand for what main and sim rely on, then
 * for every row of the table.
 */
static void fuzz_check_settings(const struct config *c)
{
	const struct sim_params *p = &c->sim;
	const struct render_params *rp = &c->render;
	const struct run_options *s = &c->run;

	FUZZ_CHECK(s->boids >= 1 && s->boids <= CLI_MAX_BOIDS, "boids %zu", s->boids);
	FUZZ_CHECK(p->width >= 1 && p->width <= CLI_MAX_FIELD && p->height >= 1 &&
	           p->height <= CLI_MAX_FIELD && p->width == floor(p->width) && p->height == floor(p->height),
	           "size %gx%g", p->width, p->height);
	FUZZ_CHECK(p->predators <= CLI_MAX_BOIDS, "predators %zu", p->predators);
	FUZZ_CHECK(p->edges <= (SIM_BOUNCE | SIM_WRAP), "edges %u", p->edges);
	FUZZ_CHECK(p->update == SIM_SEQUENTIAL || p->update == SIM_SYNCHRONOUS, "update %d", (int)p->update);
	FUZZ_CHECK(p->harden.flock_radius > 0 && p->harden.align_radius > 0 && p->harden.avoid_radius > 0 &&
	           p->harden.predator_radius > 0, "a radius is not above 0");
	FUZZ_CHECK(isfinite(p->harden.flock_radius) && isfinite(p->harden.flock_weight) &&
	           isfinite(p->harden.align_radius) && isfinite(p->harden.align_weight) &&
	           isfinite(p->harden.avoid_radius) && isfinite(p->harden.avoid_weight) &&
	           isfinite(p->harden.predator_radius) && isfinite(p->harden.predator_weight) &&
	           isfinite(p->harden.wall_pad) && isfinite(p->harden.wall_turn), "a model number is not finite");
	FUZZ_CHECK(fuzz_in(p->harden.min_speed, 0, HUGE_VAL) && fuzz_in(p->harden.max_speed, 0, HUGE_VAL) &&
	           p->harden.max_speed > 0 && p->harden.min_speed <= p->harden.max_speed,
	           "speeds %g..%g", p->harden.min_speed, p->harden.max_speed);
	FUZZ_CHECK(p->harden.wall_pad >= 0 && p->harden.wall_turn >= 0, "wall %g %g", p->harden.wall_pad, p->harden.wall_turn);
	FUZZ_CHECK(s->warmup >= 0 && s->warmup <= CLI_MAX_FRAMES, "warmup %ld", s->warmup);
	FUZZ_CHECK(s->substeps >= 1 && s->substeps <= 1000, "substeps %ld", s->substeps);
	FUZZ_CHECK(s->threads == 0 || (s->threads >= 1 && s->threads <= 256), "threads %ld", s->threads);
	FUZZ_CHECK(s->frames >= 1 && s->frames <= CLI_MAX_FRAMES, "frames %ld", s->frames);
	FUZZ_CHECK(s->duration < 0, "duration %g not resolved into frames", s->duration);
	FUZZ_CHECK(s->output || s->no_render, "no output and rendering on");
	FUZZ_CHECK(s->overwrite == 0 || s->overwrite == 1, "overwrite %d", s->overwrite);
	FUZZ_CHECK(s->no_render == 0 || s->no_render == 1, "no_render %d", s->no_render);
	FUZZ_CHECK(s->quiet == 0 || s->quiet == 1, "quiet %d", s->quiet);
	FUZZ_CHECK(s->progress <= RUN_PROGRESS_JSON, "progress %d", (int)s->progress);
	FUZZ_CHECK(fuzz_in(rp->scale, 0, 64) && rp->scale > 0, "scale %g", rp->scale);
	FUZZ_CHECK(rp->outline == RENDER_OUTLINE_LISTING || rp->outline == RENDER_OUTLINE_FINAL,
	           "outline %d", (int)rp->outline);
	FUZZ_CHECK(rp->paint == RENDER_FILL || rp->paint == RENDER_STROKE, "paint %d", (int)rp->paint);
	FUZZ_CHECK(rp->grid == RENDER_GRID_CAIRO || rp->grid == RENDER_GRID_GDI, "grid %d", (int)rp->grid);
	FUZZ_CHECK(s->look <= RUN_LOOK_CANVAS_ARTICLE && s->look_used <= RUN_LOOK_CANVAS_ARTICLE,
	           "look %d", (int)s->look);
	FUZZ_CHECK(p->proc.separation == SIM_SEP_UNIT || p->proc.separation == SIM_SEP_INVERSE,
	           "separation %d", (int)p->proc.separation);
	FUZZ_CHECK(p->steer.steady_turn == 0 || p->steer.steady_turn == 1, "turn %d", p->steer.steady_turn);
	FUZZ_CHECK(rp->shape <= RENDER_CIRCLE, "shape %d", (int)rp->shape);
	FUZZ_CHECK(rp->trail_style == RENDER_TRAIL_FADE || rp->trail_style == RENDER_TRAIL_OPENGL,
	           "trail style %d", (int)rp->trail_style);
	FUZZ_CHECK(p->gl.speed_min <= p->gl.speed_max, "gl speeds %g..%g", p->gl.speed_min, p->gl.speed_max);
	FUZZ_CHECK(fuzz_in(rp->boid_size, 0, 100) && rp->boid_size > 0, "boid size %g", rp->boid_size);
	FUZZ_CHECK(rp->background <= 0xFFFFFF && rp->boid_color <= 0xFFFFFF &&
	           rp->predator_color <= 0xFFFFFF, "a colour above 0xffffff");
	FUZZ_CHECK(rp->antialias <= RENDER_AA_BEST, "antialias %d", (int)rp->antialias);
	FUZZ_CHECK(s->start_number >= 0 && s->start_number <= 1000000000L, "start %ld", s->start_number);
	FUZZ_CHECK(s->png_level >= 0 && s->png_level <= 9, "png level %ld", s->png_level);
	FUZZ_CHECK(s->fps.num >= s->fps.den && s->fps.num <= 1000 * s->fps.den, "fps %ld/%ld", s->fps.num,
	           s->fps.den);
	FUZZ_CHECK(c->video.crf == -1 || (c->video.crf >= 0 && c->video.crf <= 63), "crf %d", c->video.crf);
	FUZZ_CHECK(c->video.gop == 0 || (c->video.gop >= 1 && c->video.gop <= 100000), "gop %d", c->video.gop);
	FUZZ_CHECK(c->video.threads >= 0 && c->video.threads <= 64, "encoder threads %d", c->video.threads);
	FUZZ_CHECK(p->noise_seed == s->seed && rp->noise_seed == s->seed, "the noise seeds are not --seed");
	FUZZ_CHECK(p->obstacles_n == s->obstacles_n && rp->obstacles_n == s->obstacles_n &&
	           (s->obstacles_n == 0 || (p->obstacles == s->obstacles && rp->obstacles == s->circles)),
	           "the obstacle lists are not linked");
	if (!s->no_render) {
		double pw = round(p->width * rp->scale), ph = round(p->height * rp->scale);
		FUZZ_CHECK(pw >= 1 && ph >= 1 && pw <= CLI_MAX_PICTURE && ph <= CLI_MAX_PICTURE &&
		           pw == rp->width && ph == rp->height, "picture %gx%g (%dx%d)", pw, ph,
		           rp->width, rp->height);
	}

	size_t n;
	const struct cli_option *opt = cli_options(&n);
	FUZZ_CHECK(n <= sizeof(s->given), "%zu options but given[] has room for %zu", n, sizeof(s->given));
	for (size_t i = 0; i < n; i++) {
		const struct cli_option *o = &opt[i];
		const void *f = fuzz_field(c, o);
		if (o->flags & CLI_NOCONFIG)
			continue;
		switch (o->type) {
		case CLI_LONG:
		case CLI_INT:
		case CLI_COUNT: {
			long v = o->type == CLI_LONG ? *(const long *)f : o->type == CLI_INT ? *(const int *)f :
			         (long)*(const size_t *)f;
			FUZZ_CHECK(((o->flags & CLI_AUTO) && v == (long)o->min - 1) ||
			           ((double)v >= o->min && (double)v <= o->max), "--%s %ld", o->name, v);
			break;
		}
		case CLI_DOUBLE: {
			double v = *(const double *)f;
			if (c->run.field[0] > 0 && o->offset == offsetof(struct config, render.scale))
				v = c->run.typed_scale; /* render's is the field's fit */
			FUZZ_CHECK(((o->flags & CLI_AUTO) && v == o->min - 1) ||
			           (fuzz_in(v, o->min, o->max) && !((o->flags & CLI_GT_MIN) && v == o->min)),
			           "--%s %g", o->name, v);
			break;
		}
		case CLI_BOX: {
			const double *b = f;
			FUZZ_CHECK((b[0] == 0 && b[1] == 0 && b[2] == 0) ||
			           (fuzz_in(b[0], o->min, o->max) && fuzz_in(b[1], o->min, o->max) &&
			            (b[2] == 0 || fuzz_in(b[2], o->min, o->max))),
			           "--%s %gx%gx%g", o->name, b[0], b[1], b[2]);
			break;
		}
		case CLI_STRING: {
			const char *v = *(char *const *)f;
			FUZZ_CHECK(!v || *v, "--%s is set to the empty string (should be unset)", o->name);
			break;
		}
		case CLI_MODEL:
			FUZZ_CHECK(c->sim.model && model_find(c->sim.model->name) == c->sim.model, "--%s", o->name);
			break;
		case CLI_ENUM: {
			int v = *(const int *)f, k = 0;
			while (o->choices[k].name && o->choices[k].value != v)
				k++;
			FUZZ_CHECK(o->choices[k].name, "--%s %d", o->name, v);
			break;
		}
		case CLI_FLAG: {
			int v = *(const int *)f;
			FUZZ_CHECK(v == 0 || v == 1, "--%s %d", o->name, v);
			break;
		}
		case CLI_COLOR:
			FUZZ_CHECK(*(const uint32_t *)f <= 0xFFFFFF, "--%s", o->name);
			break;
		case CLI_CIRCLES:
			FUZZ_CHECK(s->obstacles_n <= CONFIG_MAX_OBSTACLES,
			           "--%s: %zu circles", o->name, s->obstacles_n);
			for (size_t k = 0; k < s->obstacles_n; k++) {
				const struct sim_obstacle *ob = &s->obstacles[k];
				const struct render_circle *ci = &s->circles[k];
				FUZZ_CHECK(fuzz_in(ob->x, -FUZZ_POS, FUZZ_POS) && fuzz_in(ob->y, -FUZZ_POS, FUZZ_POS) &&
				           fuzz_in(ob->r, 0, FUZZ_POS) && ob->r > 0 &&
				           ci->x == ob->x && ci->y == ob->y && ci->r == ob->r,
				           "--%s %zu: %g,%g,%g", o->name, k, ob->x, ob->y, ob->r);
			}
			break;
		case CLI_TARGET:
			FUZZ_CHECK(p->target_mode == SIM_TARGET_NONE || p->target_mode == SIM_TARGET_LISSAJOUS ||
			           (p->target_mode == SIM_TARGET_FIXED && fuzz_in(p->target_x, -FUZZ_POS, FUZZ_POS) &&
			            fuzz_in(p->target_y, -FUZZ_POS, FUZZ_POS)),
			           "--%s %d %g,%g", o->name, (int)p->target_mode, p->target_x, p->target_y);
			break;
		case CLI_CAMERA: {
			const struct camera_setup *cam = &rp->camera;
			FUZZ_CHECK(cam->mode == CAMERA_FRONT || cam->mode == CAMERA_ORBIT ||
			           (cam->mode == CAMERA_AT && fuzz_in(cam->eye[0], -FUZZ_POS, FUZZ_POS) &&
			            fuzz_in(cam->eye[1], -FUZZ_POS, FUZZ_POS) && fuzz_in(cam->eye[2], -FUZZ_POS, FUZZ_POS)),
			           "--%s %d", o->name, (int)cam->mode);
			FUZZ_CHECK(camera_check(cam, rp->box) == 0, "--%s: a camera render_new() refuses", o->name);
			break;
		}
		case CLI_RATE:
			FUZZ_CHECK(c->run.fps.den >= 1 && c->run.fps.num >= c->run.fps.den * (long)o->min &&
			           c->run.fps.num <= c->run.fps.den * (long)o->max, "--%s %ld/%ld", o->name,
			           c->run.fps.num, c->run.fps.den);
			break;
		case CLI_VIEW: {
			const double *w = f;
			FUZZ_CHECK((w[0] == 0 && w[1] == 0 && w[2] == 0) ||
			           (fuzz_in(w[0], -FUZZ_POS, FUZZ_POS) && fuzz_in(w[1], -FUZZ_POS, FUZZ_POS) &&
			            w[2] > 0 && fuzz_in(w[2], 0, FUZZ_POS)), "--%s %g,%g,%g", o->name, w[0], w[1], w[2]);
			break;
		}
		case CLI_RANGE: {
			const double *b = f;
			FUZZ_CHECK((b[0] == 0 && b[1] == 0) || (b[0] >= o->min && b[0] < b[1] && b[1] <= o->max),
			           "--%s %g,%g", o->name, b[0], b[1]);
			break;
		}
		case CLI_U64:
		case CLI_FIELD:
		case CLI_ACTION:
			break;
		}
	}
}

/* Are two parsed settings the same, option by option (bookkeeping aside)? */
static void fuzz_check_same(const struct config *a, const struct config *b, const char *context)
{
	size_t n;
	const struct cli_option *opt = cli_options(&n);

	for (size_t i = 0; i < n; i++) {
		const struct cli_option *o = &opt[i];
		const void *fa = fuzz_field(a, o), *fb = fuzz_field(b, o);
		int same = 1;
		if (o->flags & CLI_NOCONFIG)
			continue;
		switch (o->type) {
		case CLI_LONG:
			same = *(const long *)fa == *(const long *)fb;
			break;
		case CLI_COUNT:
			same = *(const size_t *)fa == *(const size_t *)fb;
			break;
		case CLI_U64:
			same = *(const uint64_t *)fa == *(const uint64_t *)fb;
			break;
		case CLI_DOUBLE:
			same = memcmp(fa, fb, sizeof(double)) == 0;
			break;
		case CLI_FIELD:
			same = a->sim.width == b->sim.width && a->sim.height == b->sim.height;
			break;
		case CLI_RATE:
			same = a->run.fps.num == b->run.fps.num && a->run.fps.den == b->run.fps.den;
			break;
		case CLI_BOX:
		case CLI_VIEW:
			same = memcmp(fa, fb, 3 * sizeof(double)) == 0;
			break;
		case CLI_RANGE:
			same = memcmp(fa, fb, 2 * sizeof(double)) == 0;
			break;
		case CLI_STRING: {
			const char *sa = *(char *const *)fa, *sb = *(char *const *)fb;
			same = (!sa && !sb) || (sa && sb && strcmp(sa, sb) == 0);
			break;
		}
		case CLI_INT:
		case CLI_ENUM:
		case CLI_FLAG:
			same = *(const int *)fa == *(const int *)fb;
			break;
		case CLI_MODEL:
			same = a->sim.model == b->sim.model;
			break;
		case CLI_COLOR:
			same = *(const uint32_t *)fa == *(const uint32_t *)fb;
			break;
		case CLI_CIRCLES:
			same = a->run.obstacles_n == b->run.obstacles_n &&
			       a->run.obstacles_n <= CONFIG_MAX_OBSTACLES &&
			       memcmp(a->run.obstacles, b->run.obstacles,
			              a->run.obstacles_n * sizeof(a->run.obstacles[0])) == 0;
			break;
		case CLI_TARGET:
			same = a->sim.target_mode == b->sim.target_mode &&
			       (a->sim.target_mode != SIM_TARGET_FIXED ||
			        (memcmp(&a->sim.target_x, &b->sim.target_x, sizeof(double)) == 0 &&
			         memcmp(&a->sim.target_y, &b->sim.target_y, sizeof(double)) == 0));
			break;
		case CLI_CAMERA: {
			const struct camera_setup *ca = &a->render.camera, *cb = &b->render.camera;
			same = ca->mode == cb->mode &&
			       (ca->mode != CAMERA_AT || (memcmp(ca->eye, cb->eye, sizeof(ca->eye)) == 0 &&
			                                  ca->at_given == cb->at_given &&
			                                  (!ca->at_given || memcmp(ca->at, cb->at, sizeof(ca->at)) == 0)));
			break;
		}
		case CLI_ACTION:
			break;
		}
		FUZZ_CHECK(same, "%s: --%s differs", context, o->name);
	}
}

/* ------------------------------------------------- the config format, again */

/*
 * The config file as docs/boids.1 and the comment above read_config() in
 * cli.c describe it, read here independently of read_config().  Line by
 * line (split at '\n', trailing '\r's dropped): a NUL byte is an error;
 * blanks (space, tab) only, or '#' or ';' as the first non-blank, is
 * nothing; a '[' there or no '=' is an error; otherwise the key is the text
 * before the first '=', the value the text after it, both without blanks
 * around them, and a value starting with '"' is unquoted (\" \\ \n \t \r;
 * another escape, no closing quote or text after it is an error); an
 * unknown key or one marked CLI_NOCONFIG is an error.
 *
 * What the lines up to the first bad one mean is said as a command line:
 * --KEY=VALUE for each line in file order, then --FLAG for each flag whose
 * last value in the file is yes (all flags allowed in a file default to no).
 */
struct ref_config {
	char **argv;       /* "boids", then "--KEY=VALUE" for each non-flag line */
	long *line;        /* the line of argv[i] (0 for argv[0]) */
	int argc;
	char **flags;      /* "--FLAG" for each flag left at yes */
	int nflags;
	long bad;          /* the first line outside the format, an unknown key or a
	                      flag's bad value; 0 when none */
	const char *why;   /* words the message about that line must hold */
};

static int ref_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Unquotes the "..." value v in place; NULL, or why the value is refused. */
static const char *ref_unquote(char *v)
{
	static const char from[] = "\"\\ntr", to[] = "\"\\\n\t\r";
	char *w = v;
	size_t i = 1;

	for (; v[i] != '"'; i++) {
		if (!v[i])
			return "quote"; /* no closing quote */
		if (v[i] != '\\') {
			*w++ = v[i];
			continue;
		}
		const char *e = v[i + 1] ? strchr(from, v[i + 1]) : NULL;
		if (!e)
			return "quote"; /* "unknown escape in quotes" */
		*w++ = to[e - from];
		i++;
	}
	for (i++; ref_blank(v[i]); i++)
		;
	if (v[i])
		return "quote"; /* text after the closing quote */
	*w = 0;
	return NULL;
}

static int ref_word(const char *v, const char *const *words)
{
	for (int i = 0; words[i]; i++)
		if (strcmp(v, words[i]) == 0)
			return 1;
	return 0;
}

static void ref_config_read(const uint8_t *data, size_t size, struct ref_config *rc)
{
	static const char *const yes[] = { "yes", "true", "on", "1", NULL };
	static const char *const no[] = { "no", "false", "off", "0", NULL };
	size_t nopt, len;
	const struct cli_option *opt = cli_options(&nopt);
	long lines = fuzz_count_lines(data, size);
	signed char *flag = fuzz_xmalloc(nopt);
	const uint8_t *l;

	memset(rc, 0, sizeof(*rc));
	memset(flag, -1, nopt); /* -1: not in the file; else the last yes (1) or no (0) */
	rc->argv = fuzz_xmalloc((size_t)(lines + 2) * sizeof(*rc->argv));
	rc->line = fuzz_xmalloc((size_t)(lines + 2) * sizeof(*rc->line));
	rc->flags = fuzz_xmalloc((nopt + 1) * sizeof(*rc->flags));
	rc->argv[rc->argc++] = fuzz_cstring((const uint8_t *)"boids", 5);
	for (long ln = 1; !rc->bad && (l = fuzz_line(data, size, ln, &len)); ln++) {
		while (len > 0 && l[len - 1] == '\r')
			len--;
		if (ln == 1 && len >= 3 && memcmp(l, "\xef\xbb\xbf", 3) == 0)
			l += 3, len -= 3; /* a byte-order mark opening the file is skipped */
		if (memchr(l, 0, len)) {
			rc->bad = ln, rc->why = "NUL";
			break;
		}
		char *text = fuzz_cstring(l, len), *p = text, *eq = strchr(text, '=');
		while (ref_blank(*p))
			p++;
		if (!*p || *p == '#' || *p == ';') {
			/* blank or comment */
		} else if (*p == '[' || !eq) {
			rc->bad = ln, rc->why = "expected 'key = value'";
		} else {
			char *k = eq, *v = eq + 1, *end = text + len;
			while (k > p && ref_blank(k[-1]))
				k--;
			*k = 0;
			while (ref_blank(*v))
				v++;
			while (end > v && ref_blank(end[-1]))
				*--end = 0;
			const char *why = *v == '"' ? ref_unquote(v) : NULL;
			const struct cli_option *o = cli_find(p);
			if (why) {
				rc->bad = ln, rc->why = why;
			} else if (!o || (o->flags & CLI_NOCONFIG)) {
				rc->bad = ln, rc->why = "unknown key";
			} else if (o->type == CLI_FLAG) {
				if (ref_word(v, yes) || ref_word(v, no))
					flag[o - opt] = (signed char)ref_word(v, yes);
				else
					rc->bad = ln, rc->why = "is not yes or no";
			} else {
				rc->argv[rc->argc] = fuzz_xmalloc(strlen(p) + strlen(v) + 4);
				sprintf(rc->argv[rc->argc], "--%s=%s", p, v);
				rc->line[rc->argc++] = ln;
			}
		}
		free(text);
	}
	rc->line[0] = 0;
	rc->argv[rc->argc] = NULL;
	for (size_t k = 0; k < nopt; k++) {
		if (flag[k] >= 0) { /* the command line's --flag or --flag=no */
			rc->flags[rc->nflags] = fuzz_xmalloc(strlen(opt[k].name) + 6);
			sprintf(rc->flags[rc->nflags++], flag[k] ? "--%s" : "--%s=no", opt[k].name);
		}
	}
	free(flag);
}

static void ref_config_free(struct ref_config *rc)
{
	for (int i = 0; i < rc->argc; i++)
		free(rc->argv[i]);
	for (int i = 0; i < rc->nflags; i++)
		free(rc->flags[i]);
	free(rc->argv);
	free(rc->line);
	free(rc->flags);
}

/*
 * cli_parse() of the command line that means the same as the file's lines
 * up to `upto`, into t and err (FUZZ_ERRLEN bytes).  With `settle`, instead
 * of the flags, options that make every check across options pass: then
 * only a refused value can make it fail.
 */
static int ref_config_parse(const struct ref_config *rc, long upto, int settle, struct config *t, char *err)
{
	static char s0[] = "--min-speed=0", s1[] = "--max-speed=1", s2[] = "--duration=auto", s3[] = "--no-render",
	            s4[] = "--init=", s5[] = "--trajectory="; /* names: the resolve step's check_names() */
	char *settled[] = { s0, s1, s2, s3, s4, s5 };
	enum { NSETTLED = sizeof(settled) / sizeof(settled[0]) };
	char **argv = fuzz_xmalloc((size_t)(rc->argc + rc->nflags + NSETTLED + 1) * sizeof(*argv));
	int argc = 0;

	for (int i = 0; i < rc->argc && rc->line[i] <= upto; i++)
		argv[argc++] = rc->argv[i];
	for (int i = 0; i < (settle ? NSETTLED : rc->nflags); i++)
		argv[argc++] = settle ? settled[i] : rc->flags[i];
	argv[argc] = NULL;
	int r = cli_parse(t, argc, argv, err, FUZZ_ERRLEN);
	free(argv);
	return r;
}

/*
 * A file that cli_parse() accepted as --config (giving s) is within the
 * format, and means what its keys mean as options.
 */
static void fuzz_check_file_as_options(const uint8_t *data, size_t size, const struct config *s)
{
	struct ref_config rc;
	struct config t;
	char err[FUZZ_ERRLEN];

	ref_config_read(data, size, &rc);
	FUZZ_CHECK(!rc.bad, "a file outside the format was accepted (line %ld: %s)", rc.bad, rc.why);
	int r = ref_config_parse(&rc, LONG_MAX, 0, &t, err);
	FUZZ_CHECK(r == CLI_RUN, "the file was accepted, its keys as options give %d (%s)", r,
	           r == CLI_ERROR ? err : "");
	fuzz_check_same(s, &t, "the file against its keys as options");
	cli_release(&t);
	ref_config_free(&rc);
}

/*
 * --print-config writes "a config file that reproduces" the settings: read
 * back with --config alone, it must give the same settings, and it must be
 * within the documented format, meaning the same as options.  Its numbers
 * are written as by hand: no exponent from 1e-4 to 1e15 (50, not 5e+01).
 */
static void fuzz_check_print_config(const struct config *s)
{
	size_t n;
	const struct cli_option *opt = cli_options(&n);
	char *text = NULL, err[FUZZ_ERRLEN], num[64];

	for (size_t i = 0; i < n; i++) {
		if (opt[i].type != CLI_DOUBLE || (opt[i].flags & CLI_NOCONFIG))
			continue;
		double v = fabs(*(const double *)fuzz_field(s, &opt[i]));
		cli_format_value(s, &opt[i], num, sizeof(num));
		FUZZ_CHECK(!(v == 0 || (v >= 1e-4 && v < 1e15)) || !strpbrk(num, "eE"),
		           "--%s written as %s", opt[i].name, num);
	}

	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	FUZZ_CHECK(f, "open_memstream: %s", strerror(errno));
	cli_print_config(f, s);
	FUZZ_CHECK(fclose(f) == 0, "cannot write the config");

	char arg0[] = "boids", arg1[] = "--config", arg2[40];
	snprintf(arg2, sizeof(arg2), "%s", fuzz_memfile(1, text, len));
	char *argv[] = { arg0, arg1, arg2, NULL };
	struct config t;
	int r = cli_parse(&t, 3, argv, err, sizeof(err));
	FUZZ_CHECK(r == CLI_RUN, "--print-config output does not read back (%d: %s):\n%s", r, err, text);
	fuzz_check_same(s, &t, "--print-config read back");
	fuzz_check_file_as_options((const uint8_t *)text, len, &t);
	cli_release(&t);
	free(text);
}

/* ---------------------------------------------------------------- fuzz_cli */

/*
 * Arguments that would make --config read a device or a process's files
 * (/dev/stdin blocks, /dev/zero never ends): not boids' problem, so skipped.
 */
static int fuzz_unsafe_arg(const char *a)
{
	return strstr(a, "/dev") || strstr(a, "/proc") || strstr(a, "/sys") || strstr(a, "/run");
}

/* argv[1..] from data split at NUL bytes; returns argc.  Free with fuzz_free_argv. */
static int fuzz_make_argv(const uint8_t *data, size_t size, char **argv)
{
	int argc = 0;

	argv[argc++] = fuzz_cstring((const uint8_t *)"boids", 5);
	for (size_t i = 0; i < size && argc <= FUZZ_MAX_ARGS;) {
		const uint8_t *nul = memchr(data + i, 0, size - i);
		size_t n = nul ? (size_t)(nul - (data + i)) : size - i;
		argv[argc++] = fuzz_cstring(data + i, n);
		i += n + 1;
	}
	argv[argc] = NULL;
	return argc;
}

static void fuzz_free_argv(char **argv)
{
	for (int i = 0; argv[i]; i++)
		free(argv[i]);
}

/*
 * An unrecognised --NAME (up to a '=') is "ambiguous" when NAME begins
 * several option names, "unknown" when it begins none (getopt takes the
 * beginning of exactly one as that option).
 */
static void fuzz_check_unknown_option(const char *err)
{
	static const char amb[] = "ambiguous option '--", unk[] = "unknown option '--", tail[] = "' (see --help)";
	size_t n, len, k = strlen(err), matches = 0;
	const struct cli_option *opt = cli_options(&n);
	const char *name, *q = NULL;

	if (strncmp(err, amb, sizeof(amb) - 1) == 0) {
		name = err + sizeof(amb) - 1;
		for (const char *p = name; (p = strstr(p, "' (--")); p++)
			q = p; /* the last: the list of names follows */
		FUZZ_CHECK(q, "no candidates listed: %s", err);
		len = (size_t)(q - name);
	} else if (strncmp(err, unk, sizeof(unk) - 1) == 0 && k + 1 < FUZZ_ERRLEN &&
	           k >= sizeof(unk) - 1 + sizeof(tail) - 1 && strcmp(err + k - (sizeof(tail) - 1), tail) == 0) {
		name = err + sizeof(unk) - 1;
		len = strcspn(name, "=");
		if (len > k - (sizeof(unk) - 1) - (sizeof(tail) - 1))
			len = k - (sizeof(unk) - 1) - (sizeof(tail) - 1);
	} else {
		return;
	}
	for (size_t i = 0; i < n; i++)
		matches += strncmp(opt[i].name, name, len) == 0;
	if (q)
		FUZZ_CHECK(len > 0 && matches >= 2, "%zu options begin with '%.*s': %s", matches, (int)len, name, err);
	else
		FUZZ_CHECK(len == 0 || matches == 0, "%zu options begin with '%.*s': %s", matches, (int)len, name, err);
}

int fuzz_cli(const uint8_t *data, size_t size)
{
	char *argv[FUZZ_MAX_ARGS + 2], *again[FUZZ_MAX_ARGS + 2];
	int argc = fuzz_make_argv(data, size, argv);
	fuzz_make_argv(data, size, again);

	for (int i = 1; i < argc; i++)
		if (fuzz_unsafe_arg(argv[i]))
			goto out;

	struct config s, t;
	char *err = fuzz_xmalloc(FUZZ_ERRLEN), *err2 = fuzz_xmalloc(16);
	int r = cli_parse(&s, argc, argv, err, FUZZ_ERRLEN);
	FUZZ_CHECK(r == CLI_ERROR || r == CLI_RUN || r == CLI_HELP || r == CLI_VERSION ||
	           r == CLI_PRINT_CONFIG, "cli_parse returned %d", r);
	if (r == CLI_ERROR) {
		fuzz_check_message("cli_parse", err, FUZZ_ERRLEN, 0);
		FUZZ_CHECK(strncmp(err, "boids:", 6) != 0, "message carries the program name: %s", err);
		fuzz_check_unknown_option(err);
	}
	if (r == CLI_RUN || r == CLI_PRINT_CONFIG) {
		fuzz_check_settings(&s);
		fuzz_check_print_config(&s);
	}

	/* Same input, same answer (getopt's global state is reset), and a
	 * small buffer gets the same message cut short. */
	int r2 = cli_parse(&t, argc, again, err2, 16);
	FUZZ_CHECK(r2 == r, "second parse returned %d, first %d", r2, r);
	if (r == CLI_ERROR)
		FUZZ_CHECK(strncmp(err, err2, 15) == 0 && strlen(err2) == (strlen(err) < 15 ? strlen(err) : 15),
		           "message differs with a 16-byte buffer: [%s] vs [%s]", err, err2);
	if (r == CLI_RUN || r == CLI_PRINT_CONFIG)
		fuzz_check_same(&s, &t, "second parse");
	cli_release(&t);

	/* Any finite number within an option's range is accepted, to the bit,
	 * subnormals included: the input's last 8 bytes as --flock-weight and as
	 * the target's x and y (all within 1e6). */
	double v;
	if (size >= sizeof(v)) {
		memcpy(&v, data + size - sizeof(v), sizeof(v));
		if (fuzz_in(v, -FUZZ_LIM, FUZZ_LIM)) {
			char a0[] = "boids", a1[64], a2[96];
			snprintf(a1, sizeof(a1), "--flock-weight=%.17g", v);
			snprintf(a2, sizeof(a2), "--target=%.17g,%.17g", v, v);
			char *av[] = { a0, a1, a2, NULL };
			int r3 = cli_parse(&t, 3, av, err, FUZZ_ERRLEN);
			FUZZ_CHECK(r3 == CLI_RUN && memcmp(&t.sim.harden.flock_weight, &v, sizeof(v)) == 0 &&
			           t.sim.target_mode == SIM_TARGET_FIXED && memcmp(&t.sim.target_x, &v, sizeof(v)) == 0 &&
			           memcmp(&t.sim.target_y, &v, sizeof(v)) == 0,
			           "%s %s: %s", a1, a2, r3 == CLI_ERROR ? err : "read differently");
			cli_release(&t);
		}
	}
	cli_release(&s);
	free(err);
	free(err2);
out:
	fuzz_free_argv(argv);
	fuzz_free_argv(again);
	return 0;
}

/* ------------------------------------------------------------- fuzz_config */

/*
 * A config error reads "PATH:LINE: what" or, about the settings as a whole,
 * "--OPTION...".  LINE is the first bad line: the lines before it, as
 * options, are all accepted; it is the first line outside the format (the
 * message says why), or a line whose value the option refuses, with the
 * option's own message.  An error about the settings as a whole is the one
 * the keys as options give, and the file has no bad line.
 */
static void fuzz_check_config_error(const char *err, const char *path, const struct ref_config *rc)
{
	size_t plen = strlen(path);
	char msg[FUZZ_ERRLEN];
	struct config t;
	int r;

	if (strncmp(err, path, plen) != 0 || err[plen] != ':') {
		FUZZ_CHECK(strncmp(err, "--", 2) == 0, "config error names neither the file nor an option: %s", err);
		FUZZ_CHECK(!rc->bad, "line %ld is bad (%s), the error is about all settings: %s", rc->bad, rc->why, err);
		r = ref_config_parse(rc, LONG_MAX, 0, &t, msg);
		FUZZ_CHECK(r == CLI_ERROR && strcmp(err, msg) == 0, "the file gives [%s], its keys as options [%s]",
		           err, r == CLI_ERROR ? msg : "no error");
		cli_release(&t);
		return;
	}
	char *end;
	long line = strtol(err + plen + 1, &end, 10);
	FUZZ_CHECK(end > err + plen + 1 && strncmp(end, ": ", 2) == 0, "no line number: %s", err);
	const char *what = end + 2;
	FUZZ_CHECK(line >= 1 && (!rc->bad || line <= rc->bad), "error on line %ld, but line %ld is the first "
	           "outside the format (%s): %s", line, rc->bad, rc->why, err);
	r = ref_config_parse(rc, line - 1, 1, &t, msg);
	FUZZ_CHECK(r == CLI_RUN, "error on line %ld, but an earlier value is refused (%s): %s", line, msg, err);
	cli_release(&t);
	if (line == rc->bad) {
		/* unless a long key or value pushed the words out of 256 or 512 bytes */
		FUZZ_CHECK(strstr(what, rc->why) || strlen(what) >= 255 || strlen(err) + 1 >= FUZZ_ERRLEN,
		           "line %ld: the message should say '%s': %s", line, rc->why, err);
		return;
	}
	int setting = 0;
	for (int i = 1; i < rc->argc; i++)
		setting |= rc->line[i] == line;
	FUZZ_CHECK(setting, "error on line %ld, which is fine (a comment, blank or flag): %s", line, err);
	r = ref_config_parse(rc, line, 1, &t, msg);
	/* read_config() words the value's fault in 256 bytes */
	FUZZ_CHECK(r == CLI_ERROR && strncmp(what, msg, 255) == 0 && strlen(what) == strnlen(msg, 255),
	           "line %ld as an option gives [%s], the file [%s]", line, r == CLI_ERROR ? msg : "no error", err);
	cli_release(&t);
}

int fuzz_config(const uint8_t *data, size_t size)
{
	char arg0[] = "boids", arg1[] = "--config", arg2[40];
	snprintf(arg2, sizeof(arg2), "%s", fuzz_memfile(0, data, size));
	char *argv[] = { arg0, arg1, arg2, NULL };
	struct config s, t;
	char *err = fuzz_xmalloc(FUZZ_ERRLEN);

	int r = cli_parse(&s, 3, argv, err, FUZZ_ERRLEN);
	FUZZ_CHECK(r == CLI_ERROR || r == CLI_RUN, "cli_parse returned %d", r);
	if (r == CLI_ERROR) {
		struct ref_config rc;
		fuzz_check_message("config", err, FUZZ_ERRLEN, 0);
		ref_config_read(data, size, &rc);
		fuzz_check_config_error(err, arg2, &rc);
		ref_config_free(&rc);
	} else {
		fuzz_check_settings(&s);
		fuzz_check_file_as_options(data, size, &s);
		fuzz_check_print_config(&s);
	}
	/* Same file, same answer. */
	int r2 = cli_parse(&t, 3, argv, err, FUZZ_ERRLEN);
	FUZZ_CHECK(r2 == r, "second parse returned %d, first %d", r2, r);
	if (r == CLI_RUN)
		fuzz_check_same(&s, &t, "second parse");
	cli_release(&t);
	cli_release(&s);
	free(err);
	return 0;
}

/* -------------------------------------------------------------- fuzz_color */

/*
 * The '#' forms as include/color.h states them: 1 when s is #RRGGBB or #RGB
 * (value in *rgb), 0 when it starts with '#' otherwise, -1 for a name.
 */
static int ref_hex_color(const char *s, uint32_t *rgb)
{
	static const char hex[] = "0123456789abcdefABCDEF";
	char six[7];

	if (s[0] != '#')
		return -1;
	size_t n = strspn(s + 1, hex);
	if (s[1 + n] || (n != 3 && n != 6))
		return 0;
	if (n == 3)
		snprintf(six, sizeof(six), "%c%c%c%c%c%c", s[1], s[1], s[2], s[2], s[3], s[3]);
	else
		memcpy(six, s + 1, 7);
	*rgb = (uint32_t)strtoul(six, NULL, 16);
	return 1;
}

int fuzz_color(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstring(data, size), buf[8];
	uint32_t rgb = 0xDEADBEEF, want = 0, again = 0;

	int r = color_parse(s, &rgb);
	FUZZ_CHECK(r == 0 || r == -EINVAL, "color_parse returned %d", r);
	int ref = ref_hex_color(s, &want);
	if (ref == 1)
		FUZZ_CHECK(r == 0 && rgb == want, "'%s' gave %d, %06x; want %06x", s, r, (unsigned)rgb,
		           (unsigned)want);
	if (ref == 0)
		FUZZ_CHECK(r == -EINVAL, "'%s' accepted as %06x", s, (unsigned)rgb);
	if (r != 0) {
		FUZZ_CHECK(rgb == 0xDEADBEEF, "refused '%s' but changed the value", s);
		goto out;
	}
	FUZZ_CHECK(rgb <= 0xFFFFFF, "'%s' gave %08x", s, (unsigned)rgb);
	if (s[0] != '#') {
		/* A CSS name: letters only, any case, so all-upper reads the same. */
		size_t n = strlen(s);
		FUZZ_CHECK(n >= 3 && n <= 20 && strspn(s, "abcdefghijklmnopqrstuvwxyz"
		                                             "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == n,
		           "'%s' accepted as a name", s);
		for (size_t i = 0; i < n; i++)
			if (s[i] >= 'a' && s[i] <= 'z')
				s[i] = (char)(s[i] - 'a' + 'A');
		FUZZ_CHECK(color_parse(s, &again) == 0 && again == rgb, "'%s' differs from lower case", s);
	}
	memset(buf, 'x', sizeof(buf));
	color_format(rgb, buf);
	FUZZ_CHECK(strnlen(buf, sizeof(buf)) == 7 && buf[0] == '#', "color_format wrote [%.8s]", buf);
	FUZZ_CHECK(color_parse(buf, &again) == 0 && again == rgb, "'%s' does not read back as %06x",
	           buf, (unsigned)rgb);
out:
	free(s);
	return 0;
}

/* ---------------------------------------------------------- fuzz_framename */

/*
 * The expansion include/framename.h describes: one %d or %0Nd (N from 1 to
 * 10, no leading zero), any number of %%.  NULL when the pattern is invalid.
 */
static char *ref_frame_name(const char *p, long number)
{
	char *out = fuzz_xmalloc(strlen(p) + 32);
	size_t o = 0;
	int fields = 0;

	for (size_t i = 0; p[i]; i++) {
		if (p[i] != '%') {
			out[o++] = p[i];
			continue;
		}
		if (p[i + 1] == '%') {
			out[o++] = '%';
			i++;
			continue;
		}
		size_t j = i + 1, width = 0;
		if (p[j] == '0') {
			size_t k = ++j;
			while (p[k] >= '0' && p[k] <= '9')
				k++;
			if (k == j || p[j] == '0' || k - j > 2)
				goto bad;
			width = (size_t)atoi(p + j);
			if (width > 10)
				goto bad;
			j = k;
		}
		if (p[j] != 'd' || ++fields > 1)
			goto bad;
		char digits[32];
		size_t n = (size_t)snprintf(digits, sizeof(digits), "%ld", number);
		for (; width > n; width--)
			out[o++] = '0';
		memcpy(out + o, digits, n);
		o += n;
		i = j;
	}
	if (fields != 1)
		goto bad;
	out[o] = 0;
	return out;
bad:
	free(out);
	return NULL;
}

int fuzz_framename(const uint8_t *data, size_t size)
{
	static const long numbers[] = { 0, 7, 123456789, LONG_MAX };
	char *p = fuzz_cstring(data, size), why[128], *buf = fuzz_xmalloc(4096);

	int r = framename_check(p, why, sizeof(why));
	char *want = ref_frame_name(p, 0);
	FUZZ_CHECK(r == 0 || r == -EINVAL, "framename_check returned %d", r);
	FUZZ_CHECK((r == 0) == (want != NULL), "'%s': check says %d, the header's rules say %s",
	           p, r, want ? "valid" : "invalid");
	free(want);
	if (r != 0) {
		fuzz_check_message("framename_check", why, sizeof(why), 0);
		FUZZ_CHECK(framename_format(buf, 4096, p, 0) == -EINVAL, "'%s' refused but formatted", p);
		goto out;
	}
	FUZZ_CHECK(framename_format(buf, 4096, p, -1) == -EINVAL, "'%s' formatted frame -1", p);
	for (size_t k = 0; k < sizeof(numbers) / sizeof(numbers[0]); k++) {
		char digits[32];
		want = ref_frame_name(p, numbers[k]);
		size_t n = strlen(want);
		snprintf(digits, sizeof(digits), "%ld", numbers[k]);
		int f = framename_format(buf, 4096, p, numbers[k]);
		if (n < 4096) {
			FUZZ_CHECK(f == 0, "'%s' frame %ld: %d", p, numbers[k], f);
			FUZZ_CHECK(strcmp(buf, want) == 0 && strstr(buf, digits),
			           "'%s' frame %ld: [%s], want [%s]", p, numbers[k], buf, want);
		} else {
			FUZZ_CHECK(f == -ENAMETOOLONG, "'%s' frame %ld: %d for a %zu-byte name", p,
			           numbers[k], f, n);
		}
		/* Exactly enough room, and one byte short (heap, so ASan sees a spill). */
		char *exact = fuzz_xmalloc(n + 1);
		FUZZ_CHECK(framename_format(exact, n + 1, p, numbers[k]) == 0 && strcmp(exact, want) == 0,
		           "'%s' frame %ld in %zu bytes", p, numbers[k], n + 1);
		if (n > 0)
			FUZZ_CHECK(framename_format(exact, n, p, numbers[k]) == -ENAMETOOLONG,
			           "'%s' frame %ld fits %zu bytes", p, numbers[k], n);
		free(exact);
		free(want);
	}
out:
	free(buf);
	free(p);
	return 0;
}

/* --------------------------------------------------------------- fuzz_traj */

/* Loads a trajectory from memory; fills st and te, returns traj_load's code. */
static int fuzz_load(const void *data, size_t size, struct traj_state *st, struct traj_error *te)
{
	void *copy = fuzz_xmalloc(size);

	memcpy(copy, data, size);
	FILE *f = fmemopen(copy, size, "r");
	FUZZ_CHECK(f, "fmemopen: %s", strerror(errno));
	int r = traj_load(f, st, te);
	fclose(f);
	free(copy);
	return r;
}

/* Writes a frame of st's columns as the writer does; returns the text (malloc'ed), *len its size. */
static char *fuzz_write(const struct traj_state *st, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	struct traj_cols c = { st->n, st->x, st->y, st->vx, st->vy, st->z, st->vz };

	FUZZ_CHECK(f, "open_memstream: %s", strerror(errno));
	FUZZ_CHECK(traj_write_header(f, st->dims) == 0 && traj_write_frame(f, st->frame, &c) == 0,
	           "traj_write_* failed");
	FUZZ_CHECK(fclose(f) == 0, "cannot write the trajectory");
	return text;
}

static int fuzz_same_doubles(const double *a, const double *b, size_t n)
{
	return n == 0 || memcmp(a, b, n * sizeof(double)) == 0;
}

/* The loaded columns in file order: x, y, vx, vy, then z, vz in 3D; returns how many. */
static int fuzz_columns(const struct traj_state *st, double *col[6])
{
	double *all[6] = { st->x, st->y, st->vx, st->vy, st->z, st->vz };
	int nv = st->dims == 3 ? 6 : 4;

	memcpy(col, all, sizeof(all));
	return nv;
}

/*
 * The last frame, found without traj.c: the rows at the end of the file
 * whose first field is st->frame are st->n, and the last of them holds the
 * last boid's numbers.
 */
static void fuzz_check_last_frame(const uint8_t *data, size_t size, const struct traj_state *st)
{
	long lines = fuzz_count_lines(data, size), rows = 0;
	size_t len;
	double *w[6];
	int nv = fuzz_columns(st, w);

	for (long no = lines; no >= 2; no--) {
		const uint8_t *l = fuzz_line(data, size, no, &len);
		char *row = fuzz_cstring(l, len), *end;
		long frame = strtol(row, &end, 10);
		int ours = frame == st->frame && *end == ',';
		if (ours && rows == 0) {
			/* frame,id,x,y,vx,vy[,z,vz]: the last boid */
			char *p = strchr(end + 1, ',');
			for (int k = 0; k < nv; k++) {
				FUZZ_CHECK(p, "row %ld has fewer fields than a loaded row", no);
				double v = strtod(p + 1, &p);
				FUZZ_CHECK(memcmp(&v, &w[k][st->n - 1], sizeof(double)) == 0,
				           "last row, field %d: file says %.17g, loaded %.17g", k + 3, v,
				           w[k][st->n - 1]);
			}
			FUZZ_CHECK(p[strspn(p, "\r")] == 0, "the last row has more fields than a loaded row");
		}
		free(row);
		if (!ours)
			break;
		rows++;
	}
	FUZZ_CHECK(rows == (long)st->n, "the last frame has %ld rows, %zu loaded", rows, st->n);
}

/* Are the two states the same to the bit? */
static int fuzz_same_state(const struct traj_state *a, const struct traj_state *b)
{
	double *ca[6], *cb[6];
	int nv = fuzz_columns(a, ca);

	if (a->n != b->n || a->frame != b->frame || a->dims != b->dims || fuzz_columns(b, cb) != nv)
		return 0;
	for (int k = 0; k < nv; k++)
		if (!fuzz_same_doubles(ca[k], cb[k], a->n))
			return 0;
	return 1;
}

/*
 * The input's last bytes as one boid of `dims` dimensions: any state within
 * the bound the simulation keeps (TRAJ_VALUE_MAX), the writer writes and the
 * loader reads back to the bit.
 */
static void fuzz_one_boid(const uint8_t *data, size_t size, int dims)
{
	double v[6];
	int nv = dims == 3 ? 6 : 4;
	size_t bytes = (size_t)nv * sizeof(double);
	struct traj_state one = { 1, 0, dims, &v[0], &v[1], &v[2], &v[3], NULL, NULL, -1 }, back;
	struct traj_error te;
	size_t len;

	if (size < bytes)
		return;
	memcpy(v, data + size - bytes, bytes);
	for (int k = 0; k < nv; k++)
		if (!(fabs(v[k]) <= TRAJ_VALUE_MAX))
			return;
	if (dims == 3)
		one.z = &v[4], one.vz = &v[5];
	char *text = fuzz_write(&one, &len);
	int r = fuzz_load(text, len, &back, &te);
	FUZZ_CHECK(r == 0, "written state does not load (%d): line %ld: %s\n%s", r, te.line, te.what, text);
	FUZZ_CHECK(fuzz_same_state(&one, &back), "state changed through write and load");
	traj_state_release(&back);
	free(text);
}

int fuzz_traj(const uint8_t *data, size_t size)
{
	struct traj_state st, back;
	struct traj_error te, te2;
	size_t len;

	int r = fuzz_load(data, size, &st, &te);
	FUZZ_CHECK(r == 0 || r == -EINVAL || r == -ENOMEM, "traj_load returned %d", r);
	if (r == -EINVAL) {
		fuzz_check_message("traj_load", te.what, sizeof(te.what), 0);
		FUZZ_CHECK(te.line >= 0 && te.line <= fuzz_count_lines(data, size),
		           "line %ld of a %ld-line file: %s", te.line, fuzz_count_lines(data, size), te.what);
		FUZZ_CHECK(st.n == 0 && !st.x && !st.z, "a failed load handed out rows");
	}
	if (r == 0) {
		double *col[6];
		int nv = fuzz_columns(&st, col);
		FUZZ_CHECK(st.n >= 1 && st.frame >= 0, "n %zu frame %ld", st.n, st.frame);
		FUZZ_CHECK((st.dims == 2 && !st.z && !st.vz) || (st.dims == 3 && st.z && st.vz),
		           "dims %d with z %p", st.dims, (void *)st.z);
		/* the header says which: 3D exactly when it names z (and vz) */
		size_t hlen = 0;
		const uint8_t *h = fuzz_line(data, size, 1, &hlen);
		char *header = fuzz_cstring(h, hlen);
		for (size_t n = strlen(header); n && header[n - 1] == '\r'; n--)
			header[n - 1] = 0;
		int canonical = strcmp(header, "frame,id,x,y,vx,vy") == 0 ||
		                strcmp(header, "frame,id,x,y,vx,vy,z,vz") == 0;
		int names_z = 0;
		char *names = header + (strncmp(header, "\xef\xbb\xbf", 3) == 0 ? 3 : 0);
		for (char *t = strtok(names, ","); t; t = strtok(NULL, ",")) {
			t += strspn(t, " \t");
			size_t n = strlen(t);
			while (n && (t[n - 1] == ' ' || t[n - 1] == '\t'))
				n--;
			names_z |= n == 1 && t[0] == 'z';
		}
		free(header);
		FUZZ_CHECK((st.dims == 3) == names_z, "dims %d for this header", st.dims);
		for (size_t i = 0; i < st.n; i++)
			for (int k = 0; k < nv; k++)
				FUZZ_CHECK(fabs(col[k][i]) <= TRAJ_VALUE_MAX,
				           "row %zu, column %d is beyond the bound or not finite", i, k + 3);
		if (canonical) /* the columns in their places: found without traj.c */
			fuzz_check_last_frame(data, size, &st);
		/* What was loaded, written and loaded again, is the same to the bit. */
		char *text = fuzz_write(&st, &len);
		int r2 = fuzz_load(text, len, &back, &te2);
		FUZZ_CHECK(r2 == 0, "written state does not load (%d): line %ld: %s", r2, te2.line, te2.what);
		FUZZ_CHECK(fuzz_same_state(&st, &back), "state changed through write and load");
		traj_state_release(&back);
		free(text);
	}
	traj_state_release(&st);
	FUZZ_CHECK(st.n == 0 && !st.x && !st.z, "traj_state_release left data");

	fuzz_one_boid(data, size, 2);
	fuzz_one_boid(data, size, 3);
	return 0;
}
