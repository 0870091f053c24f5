/*
 * values — one value as a user types it, parsed and checked by its row of
 * the option table into its field of struct config (cli_set_value()):
 * numbers in their ranges, sizes, choices, models, colours, flags, the
 * obstacle list, the target, the camera; and the one-line messages when a
 * value is refused (cli_errf()); and each value formatted back as a user
 * would type it (cli_format_value(): --print-config, the summary, the HDF5
 * settings, the captions' fields).  The command line, the config file and
 * the resolve step all set values through here.  include/values.h.
 */
#include "values.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "color.h"
#include "model.h"
#include "options_int.h"
#include "sim.h"
#include "suggest.h"
#include "traj.h"

/* ------------------------------------------------------------ value parsing */

/* Formats a range bound without noise: 1e+300 reads as "any". */
static void fmt_num(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.15g", v);
}

const char *cli_cut(char *buf, size_t len, const char *s)
{
	size_t n = strlen(s);

	if (len < 5 || n <= len - 4)
		return s;
	n = len - 4;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--; /* not inside a UTF-8 sequence */
	memcpy(buf, s, n);
	memcpy(buf + n, "\xe2\x80\xa6", 4); /* U+2026 and the NUL */
	return buf;
}

/* Formats a message; a user's control characters become '?' (one line, no escapes). */
int cli_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	for (char *c = err; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return -1;
}

/* Describes the accepted range of a numeric option, for messages. */
static void describe_range(const struct cli_option *o, char *buf, size_t len)
{
	char lo[32], hi[32];

	fmt_num(lo, sizeof(lo), o->min);
	fmt_num(hi, sizeof(hi), o->max);
	bool lo_any = o->min <= -BIG, hi_any = o->max >= BIG;
	const char *word = o->type == CLI_DOUBLE ? "a number" : "a whole number";

	if (lo_any && hi_any)
		snprintf(buf, len, "%s", word);
	else if (hi_any)
		snprintf(buf, len, "%s %s %s", word, o->flags & CLI_GT_MIN ? "above" : "from", lo);
	else
		snprintf(buf, len, "%s from %s%s to %s", word, lo,
		         o->flags & CLI_GT_MIN ? " (excluded)" : "", hi);
	if (o->flags & CLI_AUTO)
		snprintf(buf + strlen(buf), len - strlen(buf), ", or auto");
}

static bool starts_badly(const char *v)
{
	return *v == 0 || isspace((unsigned char)*v);
}

/* A whole number of a CLI_LONG, CLI_INT or CLI_COUNT row ("auto": min - 1). */
static int parse_long(const struct cli_option *o, const char *v, long *out,
                      char *err, size_t errlen)
{
	char range[160], *end;

	describe_range(o, range, sizeof(range));
	if ((o->flags & CLI_AUTO) && strcmp(v, "auto") == 0) {
		*out = (long)o->min - 1;
		return 0;
	}
	errno = 0;
	long x = starts_badly(v) ? 0 : strtol(v, &end, 10);
	if (starts_badly(v) || *end)
		return cli_errf(err, errlen, "--%s: '%s' is not %s", o->name, CLI_CUT(v), range);
	if (errno == ERANGE || (double)x < o->min || (double)x > o->max)
		return cli_errf(err, errlen, "--%s: %s is out of range (expected %s)", o->name, CLI_CUT(v), range);
	*out = x;
	return 0;
}

static int parse_double(const struct cli_option *o, const char *v, double *out,
                        char *err, size_t errlen)
{
	char range[160], *end;

	describe_range(o, range, sizeof(range));
	if ((o->flags & CLI_AUTO) && strcmp(v, "auto") == 0) {
		*out = o->min - 1;
		return 0;
	}
	errno = 0;
	double x = starts_badly(v) ? 0 : strtod(v, &end);
	if (starts_badly(v) || *end)
		return cli_errf(err, errlen, "--%s: '%s' is not %s", o->name, CLI_CUT(v), range);
	if (!isfinite(x)) /* ERANGE on underflow is fine: a tiny number is a number */
		return cli_errf(err, errlen, "--%s: '%s' is not a finite number in range (expected %s)",
		            o->name, CLI_CUT(v), range);
	if (x < o->min || x > o->max || ((o->flags & CLI_GT_MIN) && x == o->min))
		return cli_errf(err, errlen, "--%s: %s is out of range (expected %s)", o->name, CLI_CUT(v), range);
	*out = x;
	return 0;
}

static int parse_u64(const struct cli_option *o, const char *v, uint64_t *out,
                     char *err, size_t errlen)
{
	char *end;

	errno = 0;
	if (starts_badly(v) || *v == '-' || *v == '+')
		return cli_errf(err, errlen, "--%s: '%s' is not a whole number from 0 to 18446744073709551615",
		            o->name, CLI_CUT(v));
	unsigned long long x = strtoull(v, &end, 10);
	if (*end)
		return cli_errf(err, errlen, "--%s: '%s' is not a whole number from 0 to 18446744073709551615",
		            o->name, CLI_CUT(v));
	if (errno == ERANGE)
		return cli_errf(err, errlen, "--%s: %s is out of range (expected 0 to 18446744073709551615)",
		            o->name, CLI_CUT(v));
	*out = (uint64_t)x;
	return 0;
}

/*
 * ffmpeg's size names (libavutil/parseutils.c's video_size_abbrs, with the
 * uhd names of newer versions), so that -s hd720 means what it means to
 * ffmpeg.
 */
static const struct size_name { const char *name; short w, h; } size_names[] = {
	{ "ntsc", 720, 480 }, { "pal", 720, 576 }, { "qntsc", 352, 240 }, { "qpal", 352, 288 },
	{ "sntsc", 640, 480 }, { "spal", 768, 576 }, { "film", 352, 240 }, { "ntsc-film", 352, 240 },
	{ "sqcif", 128, 96 }, { "qcif", 176, 144 }, { "cif", 352, 288 }, { "4cif", 704, 576 },
	{ "16cif", 1408, 1152 }, { "qqvga", 160, 120 }, { "qvga", 320, 240 }, { "vga", 640, 480 },
	{ "svga", 800, 600 }, { "xga", 1024, 768 }, { "uxga", 1600, 1200 }, { "qxga", 2048, 1536 },
	{ "sxga", 1280, 1024 }, { "qsxga", 2560, 2048 }, { "hsxga", 5120, 4096 }, { "wvga", 852, 480 },
	{ "wxga", 1366, 768 }, { "wsxga", 1600, 1024 }, { "wuxga", 1920, 1200 }, { "woxga", 2560, 1600 },
	{ "wqsxga", 3200, 2048 }, { "wquxga", 3840, 2400 }, { "whsxga", 6400, 4096 },
	{ "whuxga", 7680, 4800 }, { "cga", 320, 200 }, { "ega", 640, 350 }, { "hd480", 852, 480 },
	{ "hd720", 1280, 720 }, { "hd1080", 1920, 1080 }, { "2k", 2048, 1080 }, { "2kflat", 1998, 1080 },
	{ "2kscope", 2048, 858 }, { "4k", 4096, 2160 }, { "4kflat", 3996, 2160 },
	{ "4kscope", 4096, 1716 }, { "nhd", 640, 360 }, { "hqvga", 240, 160 }, { "wqvga", 400, 240 },
	{ "fwqvga", 432, 240 }, { "hvga", 480, 320 }, { "qhd", 960, 540 }, { "uhd2160", 3840, 2160 },
	{ "uhd4320", 7680, 4320 },
};

static int size_name(const char *name, long *w, long *h)
{
	for (size_t i = 0; i < sizeof size_names / sizeof size_names[0]; i++)
		if (strcmp(name, size_names[i].name) == 0) {
			*w = size_names[i].w;
			*h = size_names[i].h;
			return 0;
		}
	return -1;
}

static int parse_size(const struct cli_option *o, const char *v, double *w, double *h,
                      char *err, size_t errlen)
{
	char *end, *end2;
	long max = (long)o->max, nw, nh;

	if (size_name(v, &nw, &nh) == 0) {
		*w = (double)nw;
		*h = (double)nh;
		return 0;
	}
	errno = 0;
	if (starts_badly(v) || !isdigit((unsigned char)*v))
		goto bad;
	long a = strtol(v, &end, 10);
	if (*end != 'x' && *end != 'X')
		goto bad;
	if (!isdigit((unsigned char)end[1]))
		goto bad;
	long b = strtol(end + 1, &end2, 10);
	if (*end2)
		goto bad;
	if (errno == ERANGE || a < 1 || b < 1 || a > max || b > max)
		return cli_errf(err, errlen, "--%s: %s is out of range (width and height from 1 to %ld)",
		            o->name, CLI_CUT(v), max);
	*w = (double)a;
	*h = (double)b;
	return 0;
bad:
	return cli_errf(err, errlen, "--%s: '%s' is not WIDTHxHEIGHT such as 640x360 or a size name such as hd720",
	                o->name, CLI_CUT(v));
}

static long gcd(long a, long b)
{
	while (b) {
		long t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/*
 * A frame rate as ffmpeg takes it: a name (ntsc 30000/1001, pal 25, film
 * 24, ntsc-film 24000/1001), N/D, or a decimal stored as the fraction it
 * writes (29.97 is 2997/100; ntsc is the NTSC rate), reduced.  The value
 * within [min, max]; numerator and denominator at most 1e6 (the time base
 * of every container takes them).
 */
static const struct rate_name { const char *name; long num, den; } rate_names[] = {
	{ "ntsc", 30000, 1001 }, { "pal", 25, 1 }, { "qntsc", 30000, 1001 }, { "qpal", 25, 1 },
	{ "sntsc", 30000, 1001 }, { "spal", 25, 1 }, { "film", 24, 1 }, { "ntsc-film", 24000, 1001 },
};

static int parse_rate(const struct cli_option *o, const char *v, struct rate *r, char *err, size_t errlen)
{
	long n = 0, d = 1;
	const char *p = v;
	size_t i;

	for (i = 0; i < sizeof rate_names / sizeof rate_names[0]; i++)
		if (strcmp(v, rate_names[i].name) == 0) {
			n = rate_names[i].num;
			d = rate_names[i].den;
			goto check;
		}
	if (!isdigit((unsigned char)*p))
		goto bad;
	for (; isdigit((unsigned char)*p); p++)
		if ((n = n * 10 + (*p - '0')) > 1000000000L)
			goto range;
	if (*p == '.') {
		if (!isdigit((unsigned char)*++p))
			goto bad;
		for (; isdigit((unsigned char)*p); p++) {
			if (d >= 1000000L)
				goto bad; /* more than six decimals */
			n = n * 10 + (*p - '0');
			d *= 10;
			if (n > 1000000000L)
				goto range;
		}
	} else if (*p == '/') {
		if (!isdigit((unsigned char)*++p))
			goto bad;
		for (d = 0; isdigit((unsigned char)*p); p++)
			if ((d = d * 10 + (*p - '0')) > 1000000000L)
				goto range;
		if (d == 0)
			goto range;
	}
	if (*p)
		goto bad;
check:
	if (n == 0)
		goto range;
	long g = gcd(n, d);
	n /= g;
	d /= g;
	if ((double)n < o->min * (double)d || (double)n > o->max * (double)d || n > 1000000L || d > 1000000L)
		goto range;
	*r = (struct rate){ n, d };
	return 0;
range:
	return cli_errf(err, errlen, "--%s: %s is out of range (expected %g to %g frames per second, "
	                "numerator and denominator at most 1000000)", o->name, CLI_CUT(v), o->min, o->max);
bad:
	return cli_errf(err, errlen, "--%s: '%s' is not a frame rate such as 30, 30000/1001, 29.97 or ntsc",
	                o->name, CLI_CUT(v));
}

/*
 * One side of a --field: a plain decimal number, digits with at most one
 * point (31.6, 640, .5), no sign, exponent or hex; *end past it.  0, or -1
 * when v does not start with one.
 */
static int decimal_side(const char *v, double *out, const char **end)
{
	const char *p = v;
	size_t digits = 0;

	for (; isdigit((unsigned char)*p); p++)
		digits++;
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			digits++;
	if (!digits || p - v > 40)
		return -1;
	char buf[48];
	memcpy(buf, v, (size_t)(p - v));
	buf[p - v] = 0;
	*out = strtod(buf, NULL); /* digits and a point only: never hex, inf or nan */
	*end = p;
	return 0;
}

/* --field WxH or WxHxD (each side a decimal number in [min, max]: a field need
 * not be whole pixels) into b[3], D 0 when not given; empty: no field of its
 * own (all 0). */
static int parse_box(const struct cli_option *o, const char *v, double b[3],
                     char *err, size_t errlen)
{
	double side[3] = { 0, 0, 0 };
	const char *p = v;
	int n = 0;

	if (!*v) {
		b[0] = b[1] = b[2] = 0;
		return 0;
	}
	for (; n < 3; n++) {
		const char *end;
		if (starts_badly(p) || decimal_side(p, &side[n], &end) != 0)
			goto bad;
		if (!(side[n] >= o->min && side[n] <= o->max))
			return cli_errf(err, errlen, "--%s: %s is out of range (each side from %g to %.0f)",
			                o->name, CLI_CUT(v), o->min, o->max);
		if (!*end)
			break;
		if ((*end != 'x' && *end != 'X') || n == 2)
			goto bad;
		p = end + 1;
	}
	if (n < 1)
		goto bad;
	for (int k = 0; k < 3; k++)
		b[k] = side[k];
	return 0;
bad:
	return cli_errf(err, errlen, "--%s: '%s' is not WIDTHxHEIGHT or WIDTHxHEIGHTxDEPTH such as 151800x151800 "
	                "or 31.6x31.6", o->name, CLI_CUT(v));
}

/* "unknown value": the nearest names of a {NULL}-terminated table, or all of them (list). */
static int unknown_value(const struct cli_option *o, const char *v, const char *const *names, size_t stride,
                         const char *list, char *err, size_t errlen)
{
	char near[160];
	size_t count = 0;

	while (*(const char *const *)(const void *)((const char *)names + count * stride))
		count++;
	if (suggest_phrase(near, sizeof near, "", "", v, strlen(v), names, count, stride) > 0)
		return cli_errf(err, errlen, "--%s: unknown value '%s'%s", o->name, CLI_CUT(v), near);
	return cli_errf(err, errlen, "--%s: unknown value '%s' (expected one of %s)", o->name, CLI_CUT(v), list);
}

int cli_parse_enum(const struct cli_option *o, const char *v, int *out,
                      char *err, size_t errlen)
{
	char list[128] = "";

	for (int i = 0; o->choices[i].name; i++) {
		if (strcmp(v, o->choices[i].name) == 0) {
			*out = o->choices[i].value;
			return 0;
		}
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
		         i ? ", " : "", o->choices[i].name);
	}
	return unknown_value(o, v, &o->choices[0].name, sizeof o->choices[0], list, err, errlen);
}

/* The name of a CLI_ENUM row's value. */
const char *cli_enum_name(const struct cli_option *o, int value)
{
	for (int i = 0; o->choices[i].name; i++)
		if (o->choices[i].value == value)
			return o->choices[i].name;
	return "?"; /* only a value no row wrote */
}

/* -m NAME: the model, from the registry (include/model.h). */
static int parse_model(const struct cli_option *o, const char *v, const struct boids_model **out,
                       char *err, size_t errlen)
{
	char list[128] = "";

	if ((*out = model_find(v)) != NULL)
		return 0;
	for (size_t i = 0; model_names[i]; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "", model_names[i]);
	return unknown_value(o, v, model_names, sizeof model_names[0], list, err, errlen);
}

static int parse_flag(const struct cli_option *o, const char *v, int *out,
                      char *err, size_t errlen)
{
	static const char *const yes[] = { "yes", "true", "on", "1", NULL };
	static const char *const no[] = { "no", "false", "off", "0", NULL };

	for (int i = 0; yes[i]; i++)
		if (strcmp(v, yes[i]) == 0)
			return *out = 1, 0;
	for (int i = 0; no[i]; i++)
		if (strcmp(v, no[i]) == 0)
			return *out = 0, 0;
	return cli_errf(err, errlen, "--%s: '%s' is not yes or no", o->name, CLI_CUT(v));
}

/* Parses "a,b" or "a,b,c" (count numbers) as finite doubles within +-CLI_MAX_SPAN
 * (positions: a field may be that wide). */
static int parse_tuple(const char *v, double *out, int count)
{
	const char *p = v;

	for (int i = 0; i < count; i++) {
		char *end;
		if (starts_badly(p))
			return -1;
		errno = 0;
		out[i] = strtod(p, &end);
		if (end == p || !isfinite(out[i]) || fabs(out[i]) > (double)CLI_MAX_SPAN)
			return -1;
		if (i < count - 1 && *end != ',')
			return -1;
		p = end + (i < count - 1);
	}
	return *p ? -1 : 0; /* trailing junk */
}

/* How many commas v holds: a tuple of that many numbers plus one. */
static int commas(const char *v)
{
	int n = 0;

	for (; *v; v++)
		n += *v == ',';
	return n;
}

/*
 * --obstacle X,Y,R or X,Y,Z,R: one more circle (a sphere in 3D), in the
 * flock's and the renderer's types.  Z is NAN until the resolve step when
 * not given (then D/2): only then is --dims known, which refuses a Z in 2D.
 */
static int parse_circle(struct run_options *run, const struct cli_option *o, const char *v,
                        char *err, size_t errlen)
{
	double c[4];

	if (!*v) {
		run->obstacles_n = 0; /* an empty value clears the list */
		return 0;
	}
	int n = commas(v) + 1;
	if ((n != 3 && n != 4) || parse_tuple(v, c, n) != 0)
		c[3] = 0; /* refused below */
	else if (n == 3)
		c[3] = c[2], c[2] = NAN; /* X,Y,R: no Z */
	if (!(c[3] > 0))
		return cli_errf(err, errlen, "--%s: '%s' is not X,Y,R or X,Y,Z,R (numbers within 1e9, R above 0)",
		            o->name, CLI_CUT(v));
	if (run->obstacles_n >= CONFIG_MAX_OBSTACLES)
		return cli_errf(err, errlen, "--%s: more than %d obstacles", o->name, CONFIG_MAX_OBSTACLES);
	run->obstacles[run->obstacles_n] = (struct sim_obstacle){ .x = c[0], .y = c[1], .z = c[2], .r = c[3] };
	run->circles[run->obstacles_n++] = (struct render_circle){ .x = c[0], .y = c[1], .r = c[3] };
	return 0;
}

/* --target: the steering model's target, straight into sim_params (Z: as --obstacle's). */
static int parse_target(struct sim_params *p, const struct cli_option *o, const char *v,
                        char *err, size_t errlen)
{
	double xyz[3] = { 0, 0, NAN }; /* X,Y: no Z */
	int n = commas(v) + 1;

	if (strcmp(v, "none") == 0) {
		p->target_mode = SIM_TARGET_NONE;
	} else if (strcmp(v, "lissajous") == 0) {
		p->target_mode = SIM_TARGET_LISSAJOUS;
	} else if ((n == 2 || n == 3) && parse_tuple(v, xyz, n) == 0) {
		p->target_mode = SIM_TARGET_FIXED;
		p->target_x = xyz[0];
		p->target_y = xyz[1];
		p->target_z = xyz[2];
	} else {
		return cli_errf(err, errlen, "--%s: '%s' is not X,Y, X,Y,Z, lissajous or none", o->name, CLI_CUT(v));
	}
	return 0;
}

/*
 * --camera: front, orbit, X,Y,Z (looking at the box's centre) or
 * X,Y,Z,TX,TY,TZ (looking at that point), field units.  Keeps the field of
 * view (--fov's).
 */
static int parse_camera(struct camera_setup *cam, const struct cli_option *o, const char *v,
                        char *err, size_t errlen)
{
	double c[6];

	if (strcmp(v, "front") == 0 || strcmp(v, "orbit") == 0) {
		cam->mode = v[0] == 'f' ? CAMERA_FRONT : CAMERA_ORBIT;
		return 0;
	}
	int aim = parse_tuple(v, c, 6) == 0;
	if (!aim && parse_tuple(v, c, 3) != 0)
		return cli_errf(err, errlen, "--%s: '%s' is not front, orbit, X,Y,Z or X,Y,Z,TX,TY,TZ (numbers within 1e9)",
		            o->name, CLI_CUT(v));
	cam->mode = CAMERA_AT;
	cam->at_given = aim;
	for (int k = 0; k < 3; k++) {
		cam->eye[k] = c[k];
		cam->at[k] = aim ? c[3 + k] : 0;
	}
	return 0;
}

/* --view CX,CY,W: the window's centre and width in field units; empty: none. */
static int parse_view(const struct cli_option *o, const char *v, double w[3], char *err, size_t errlen)
{
	double c[3];

	if (!*v) {
		w[0] = w[1] = w[2] = 0;
		return 0;
	}
	if (commas(v) != 2 || parse_tuple(v, c, 3) != 0 || !(c[2] > 0))
		return cli_errf(err, errlen, "--%s: '%s' is not CX,CY,W (numbers within 1e9, W above 0)",
		                o->name, CLI_CUT(v));
	for (int k = 0; k < 3; k++)
		w[k] = c[k];
	return 0;
}

/* A range LO,HI within the row's [min, max], LO below HI; auto (or empty): none. */
static int parse_range(const struct cli_option *o, const char *v, double b[2], char *err, size_t errlen)
{
	double c[2];

	if (!*v || strcmp(v, "auto") == 0) {
		b[0] = b[1] = 0;
		return 0;
	}
	if (commas(v) != 1 || parse_tuple(v, c, 2) != 0 || !(c[0] >= o->min && c[0] < c[1] && c[1] <= o->max))
		return cli_errf(err, errlen, "--%s: '%s' is not LO,HI or auto (%g <= LO < HI <= %g)",
		                o->name, CLI_CUT(v), o->min, o->max);
	b[0] = c[0];
	b[1] = c[1];
	return 0;
}

/* Parses v (NULL for a flag on the command line) into the option's field. */
int cli_set_value(struct config *c, const struct cli_option *o, const char *v,
                     char *err, size_t errlen)
{
	void *field = (char *)c + o->offset;
	long whole;
	int e;

	switch (o->type) {
	case CLI_LONG:
		return parse_long(o, v, field, err, errlen);
	case CLI_INT:
		if ((e = parse_long(o, v, &whole, err, errlen)) == 0)
			*(int *)field = (int)whole; /* the range fits an int */
		return e;
	case CLI_COUNT:
		if ((e = parse_long(o, v, &whole, err, errlen)) == 0)
			*(size_t *)field = (size_t)whole; /* min >= 0 */
		return e;
	case CLI_U64:
		return parse_u64(o, v, field, err, errlen);
	case CLI_DOUBLE:
		return parse_double(o, v, field, err, errlen);
	case CLI_FIELD:
		return parse_size(o, v, &c->sim.width, &c->sim.height, err, errlen);
	case CLI_BOX:
		return parse_box(o, v, field, err, errlen);
	case CLI_ENUM:
		return cli_parse_enum(o, v, field, err, errlen);
	case CLI_MODEL:
		return parse_model(o, v, &c->sim.model, err, errlen);
	case CLI_COLOR: {
		uint32_t rgb;
		char near[160];
		if (color_parse(v, &rgb) != 0 && color_suggest(v, near, sizeof near) > 0)
			return cli_errf(err, errlen, "--%s: '%s' is not a colour%s", o->name, CLI_CUT(v), near);
		if (color_parse(v, &rgb) != 0)
			return cli_errf(err, errlen, "--%s: '%s' is not a colour (#RRGGBB, #RGB or a CSS name such as lightgreen)",
			            o->name, CLI_CUT(v));
		*(uint32_t *)field = rgb;
		return 0;
	}
	case CLI_STRING: {
		char **p = field;
		char *copy = NULL;
		if (*v && !(copy = strdup(v)))
			return cli_errf(err, errlen, "out of memory"), -ENOMEM;
		free(*p);
		*p = copy;
		return 0;
	}
	case CLI_FLAG: {
		int yes = 1;
		if (v && parse_flag(o, v, &yes, err, errlen))
			return -1;
		if (o->flags & CLI_NEGATE) /* --no-clobber: "yes" clears the field, "no" leaves it */
			*(int *)field = yes ? 0 : *(int *)field;
		else
			*(int *)field = yes;
		return 0;
	}
	case CLI_CIRCLES:
		return parse_circle(&c->run, o, v, err, errlen);
	case CLI_TARGET:
		return parse_target(&c->sim, o, v, err, errlen);
	case CLI_CAMERA:
		return parse_camera(&c->render.camera, o, v, err, errlen);
	case CLI_RATE:
		return parse_rate(o, v, &c->run.fps, err, errlen);
	case CLI_VIEW:
		return parse_view(o, v, field, err, errlen);
	case CLI_RANGE:
		return parse_range(o, v, field, err, errlen);
	case CLI_ACTION:
		break;
	}
	return 0;
}

/* ------------------------------------------------------------------ output */

void cli_format_obstacle(const struct config *c, const struct sim_obstacle *o, char *buf, size_t len)
{
	if (c->sim.dims == 3)
		snprintf(buf, len, "%.17g,%.17g,%.17g,%.17g", o->x, o->y, o->z, o->r);
	else
		snprintf(buf, len, "%.17g,%.17g,%.17g", o->x, o->y, o->r);
}

/* A whole number's row (long, int, size_t, uint64_t): "auto" below its range where it takes it. */
static void format_whole(const struct cli_option *o, const void *field, char *buf, size_t len)
{
	long whole;

	if (o->type == CLI_U64) {
		snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)field);
		return;
	}
	whole = o->type == CLI_LONG ? *(const long *)field :
	        o->type == CLI_INT ? *(const int *)field : (long)*(const size_t *)field;
	if ((o->flags & CLI_AUTO) && whole < (long)o->min)
		snprintf(buf, len, "auto");
	else
		snprintf(buf, len, "%ld", whole);
}

/*
 * A number: the shortest form that reads back as the same double, without
 * an exponent unless the number is very large or small (50, not 5e+01);
 * --scale as typed (render's is the field's fit: resolve.c).
 */
static void format_double(const struct config *c, const struct cli_option *o, double v, char *buf, size_t len)
{
	if (c->run.field[0] > 0 && o->offset == offsetof(struct config, render.scale))
		v = c->run.typed_scale;
	if ((o->flags & CLI_AUTO) && v < o->min) {
		snprintf(buf, len, "auto");
		return;
	}
	int plain_ok = v == 0 || (fabs(v) >= 1e-4 && fabs(v) < 1e15);
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v && (!plain_ok || !strchr(buf, 'e')))
			break;
	}
}

/* A side of --field as it reads back: the shortest plain decimal (31.6, 151800), no exponent. */
static void box_side(char *buf, size_t len, double v)
{
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v && !strchr(buf, 'e'))
			return;
	}
	snprintf(buf, len, "%.17f", v); /* (sides are 1 to 1e9: never reached) */
}

/* The sizes: -s (as typed, with --field: the field is --field's) and a box (WxH[xD], "" for none). */
static void format_size(const struct config *c, const struct cli_option *o, const void *field,
                        char *buf, size_t len)
{
	const double *b = field;
	char side[3][32];

	if (o->type == CLI_FIELD) {
		snprintf(buf, len, "%.0fx%.0f", c->run.field[0] > 0 ? c->run.typed_size[0] : c->sim.width,
		         c->run.field[0] > 0 ? c->run.typed_size[1] : c->sim.height);
		return;
	}
	for (int k = 0; k < 3; k++)
		box_side(side[k], sizeof side[k], b[k]);
	if (!(b[0] > 0))
		buf[0] = 0;
	else if (b[2] > 0)
		snprintf(buf, len, "%sx%sx%s", side[0], side[1], side[2]);
	else
		snprintf(buf, len, "%sx%s", side[0], side[1]);
}

/* A window CX,CY,W (empty: none) or a range LO,HI (auto: none), as they read back. */
static void format_tuple(enum cli_type type, const double *v, char *buf, size_t len)
{
	if (type == CLI_VIEW && v[2] > 0)
		snprintf(buf, len, "%.17g,%.17g,%.17g", v[0], v[1], v[2]);
	else if (type == CLI_RANGE && v[1] > 0)
		snprintf(buf, len, "%.17g,%.17g", v[0], v[1]);
	else
		snprintf(buf, len, "%s", type == CLI_RANGE ? "auto" : "");
}

/* Places: the obstacles (all, ';'-separated: --print-config writes one a line), the target, the camera. */
static void format_place(const struct config *c, const struct cli_option *o, char *buf, size_t len)
{
	const struct camera_setup *cam = &c->render.camera;

	buf[0] = 0;
	if (o->type == CLI_CIRCLES) {
		for (size_t i = 0; i < c->run.obstacles_n; i++) {
			snprintf(buf + strlen(buf), len - strlen(buf), "%s", i ? ";" : "");
			cli_format_obstacle(c, &c->run.obstacles[i], buf + strlen(buf), len - strlen(buf));
		}
	} else if (o->type == CLI_TARGET) {
		if (c->sim.target_mode == SIM_TARGET_FIXED && c->sim.dims == 3)
			snprintf(buf, len, "%.17g,%.17g,%.17g", c->sim.target_x, c->sim.target_y, c->sim.target_z);
		else if (c->sim.target_mode == SIM_TARGET_FIXED)
			snprintf(buf, len, "%.17g,%.17g", c->sim.target_x, c->sim.target_y);
		else
			snprintf(buf, len, "%s", c->sim.target_mode == SIM_TARGET_NONE ? "none" : "lissajous");
	} else if (cam->mode != CAMERA_AT) {
		snprintf(buf, len, "%s", cam->mode == CAMERA_ORBIT ? "orbit" : "front");
	} else if (cam->at_given) {
		snprintf(buf, len, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", cam->eye[0], cam->eye[1], cam->eye[2],
		         cam->at[0], cam->at[1], cam->at[2]);
	} else {
		snprintf(buf, len, "%.17g,%.17g,%.17g", cam->eye[0], cam->eye[1], cam->eye[2]);
	}
}

void cli_format_value(const struct config *c, const struct cli_option *o, char *buf, size_t len)
{
	const void *field = (const char *)c + o->offset;
	const struct rate *r = field;
	const char *text = "";
	char rgb[8];

	switch (o->type) {
	case CLI_LONG:
	case CLI_INT:
	case CLI_COUNT:
	case CLI_U64:
		format_whole(o, field, buf, len);
		return;
	case CLI_DOUBLE:
		format_double(c, o, *(const double *)field, buf, len);
		return;
	case CLI_FIELD:
	case CLI_BOX:
		format_size(c, o, field, buf, len);
		return;
	case CLI_CIRCLES:
	case CLI_TARGET:
	case CLI_CAMERA:
		format_place(c, o, buf, len);
		return;
	case CLI_VIEW:
	case CLI_RANGE:
		format_tuple(o->type, field, buf, len);
		return;
	case CLI_RATE:
		if (r->den == 1)
			snprintf(buf, len, "%ld", r->num);
		else
			snprintf(buf, len, "%ld/%ld", r->num, r->den);
		return;
	case CLI_STRING:
		text = *(char *const *)field;
		break;
	case CLI_ENUM:
		text = cli_enum_name(o, *(const int *)field);
		break;
	case CLI_MODEL:
		text = c->sim.model->name;
		break;
	case CLI_COLOR:
		color_format(*(const uint32_t *)field, rgb);
		text = rgb;
		break;
	case CLI_FLAG:
		text = *(const int *)field ? "yes" : "no";
		break;
	case CLI_ACTION:
		break;
	}
	snprintf(buf, len, "%s", text ? text : "");
}
