/*
 * cli — reading settings: the defaults, every --config FILE, then the
 * command line (cli_parse(), see include/cli.h), each value parsed and
 * checked by its row of the option table (options.c) into its field,
 * then the resolve step (resolve.c).  Start at cli_parse().
 */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "cli_int.h"
#include "color.h"
#include "lineread.h"
#include "model.h"
#include "sim.h"
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
		return cli_errf(err, errlen, "--%s: '%s' is not %s", o->name, CUT(v), range);
	if (errno == ERANGE || (double)x < o->min || (double)x > o->max)
		return cli_errf(err, errlen, "--%s: %s is out of range (expected %s)", o->name, CUT(v), range);
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
		return cli_errf(err, errlen, "--%s: '%s' is not %s", o->name, CUT(v), range);
	if (!isfinite(x)) /* ERANGE on underflow is fine: a tiny number is a number */
		return cli_errf(err, errlen, "--%s: '%s' is not a finite number in range (expected %s)",
		            o->name, CUT(v), range);
	if (x < o->min || x > o->max || ((o->flags & CLI_GT_MIN) && x == o->min))
		return cli_errf(err, errlen, "--%s: %s is out of range (expected %s)", o->name, CUT(v), range);
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
		            o->name, CUT(v));
	unsigned long long x = strtoull(v, &end, 10);
	if (*end)
		return cli_errf(err, errlen, "--%s: '%s' is not a whole number from 0 to 18446744073709551615",
		            o->name, CUT(v));
	if (errno == ERANGE)
		return cli_errf(err, errlen, "--%s: %s is out of range (expected 0 to 18446744073709551615)",
		            o->name, CUT(v));
	*out = (uint64_t)x;
	return 0;
}

static int parse_size(const struct cli_option *o, const char *v, double *w, double *h,
                      char *err, size_t errlen)
{
	char *end, *end2;
	long max = (long)o->max;

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
		            o->name, CUT(v), max);
	*w = (double)a;
	*h = (double)b;
	return 0;
bad:
	return cli_errf(err, errlen, "--%s: '%s' is not WIDTHxHEIGHT such as 640x360", o->name, CUT(v));
}

/* --field WxH or WxHxD (whole pixels in [min, max]) into b[3], D 0 when not given;
 * empty: no field of its own (all 0). */
static int parse_box(const struct cli_option *o, const char *v, double b[3],
                     char *err, size_t errlen)
{
	long max = (long)o->max, side[3] = { 0, 0, 0 };
	const char *p = v;
	int n = 0;

	if (!*v) {
		b[0] = b[1] = b[2] = 0;
		return 0;
	}
	for (; n < 3; n++) {
		char *end;
		if (starts_badly(p) || !isdigit((unsigned char)*p))
			goto bad;
		errno = 0;
		side[n] = strtol(p, &end, 10);
		if (errno == ERANGE || side[n] < 1 || side[n] > max)
			return cli_errf(err, errlen, "--%s: %s is out of range (each side from 1 to %ld)",
			                o->name, CUT(v), max);
		if (!*end)
			break;
		if ((*end != 'x' && *end != 'X') || n == 2)
			goto bad;
		p = end + 1;
	}
	if (n < 1)
		goto bad;
	for (int k = 0; k < 3; k++)
		b[k] = (double)side[k];
	return 0;
bad:
	return cli_errf(err, errlen, "--%s: '%s' is not WIDTHxHEIGHT or WIDTHxHEIGHTxDEPTH such as 151800x151800",
	                o->name, CUT(v));
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
	return cli_errf(err, errlen, "--%s: unknown value '%s' (expected one of %s)", o->name, CUT(v), list);
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
	return cli_errf(err, errlen, "--%s: unknown value '%s' (expected one of %s)", o->name, CUT(v), list);
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
	return cli_errf(err, errlen, "--%s: '%s' is not yes or no", o->name, CUT(v));
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
		            o->name, CUT(v));
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
		return cli_errf(err, errlen, "--%s: '%s' is not X,Y, X,Y,Z, lissajous or none", o->name, CUT(v));
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
		            o->name, CUT(v));
	cam->mode = CAMERA_AT;
	cam->at_given = aim;
	for (int k = 0; k < 3; k++) {
		cam->eye[k] = c[k];
		cam->at[k] = aim ? c[3 + k] : 0;
	}
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
		if (color_parse(v, &rgb) != 0)
			return cli_errf(err, errlen, "--%s: '%s' is not a colour (#RRGGBB, #RGB or a CSS name such as lightgreen)",
			            o->name, CUT(v));
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
	case CLI_ACTION:
		break;
	}
	return 0;
}

/* -------------------------------------------------------------- config file */

/*
 * The config format, one setting a line:
 *
 *   key = value       keys are the long option names; blanks around both
 *   # comment         '#' or ';' as a line's first non-blank: a comment
 *   key = "  x "      double quotes keep blanks; \" \\ \n \t inside them
 *
 * Blank lines are skipped; there are no sections and no continuation
 * lines; a line is at most LINEREAD_MAX (1 MiB) bytes; a UTF-8 byte-order
 * mark at the start is skipped.  --print-config quotes the values that need it, so
 * whatever it writes reads back to the same settings.
 */
int cli_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Unquotes a "..." value in place.  Returns 0, or -1 with why set (an
 * unknown escape, no closing quote, text after it).
 */
static int unquote(char *v, const char **why)
{
	char *w = v, *r = v + 1;

	for (; *r && *r != '"'; r++) {
		if (*r != '\\') {
			*w++ = *r;
			continue;
		}
		switch (*++r) {
		case '"': *w++ = '"'; break;
		case '\\': *w++ = '\\'; break;
		case 'n': *w++ = '\n'; break;
		case 't': *w++ = '\t'; break;
		case 'r': *w++ = '\r'; break;
		default:
			*why = "unknown escape in quotes (use \\\" \\\\ \\n \\t \\r)";
			return -1;
		}
	}
	if (*r != '"') {
		*why = "no closing quote";
		return -1;
	}
	for (r++; cli_is_blank(*r); r++)
		;
	if (*r) {
		*why = "text after the closing quote";
		return -1;
	}
	*w = 0;
	return 0;
}

int cli_set_config(struct config *c, const char *key, const char *value, char *err, size_t errlen)
{
	const struct cli_option *o = cli_find(key);
	int ret;

	if (!o || (o->flags & CLI_NOCONFIG))
		return cli_errf(err, errlen, "unknown key '%s'", CUT(key));
	if ((ret = cli_set_value(c, o, value, err, errlen)) != 0)
		return ret;
	c->run.given[cli_index(o)] = 1; /* from a file */
	return 0;
}

static int read_config(struct config *c, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, msg[256];
	size_t cap = 0;
	ssize_t len;
	long lineno = 0;
	int ret = 0;
	struct stat st;

	if (!f) {
		int e = errno;
		cli_errf(err, errlen, "--config: cannot open '%s': %s", CLI_CUT_PATH(path), strerror(e));
		return e == ENOMEM ? -ENOMEM : -1;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return cli_errf(err, errlen, "--config: '%s' is a directory", CLI_CUT_PATH(path));
	}
	while (ret == 0 && (len = lineread_next(f, &line, &cap, LINEREAD_MAX)) >= 0) {
		lineno++;
		while (len > 0 && line[len - 1] == '\r')
			line[--len] = 0;
		char *p = line, *end = line + len;
		if (lineno == 1 && len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
			p += 3; /* a UTF-8 byte-order mark, as some editors write */
		while (cli_is_blank(*p))
			p++;
		if ((size_t)len != strlen(line)) {
			ret = cli_errf(err, errlen, "%s:%ld: NUL byte in the line", CLI_CUT_PATH(path), lineno);
			break;
		}
		if (!*p || *p == '#' || *p == ';')
			continue;
		char *eq = strchr(p, '=');
		if (*p == '[' || !eq) {
			ret = cli_errf(err, errlen, "%s:%ld: expected 'key = value'", CLI_CUT_PATH(path), lineno);
			break;
		}
		char *k = eq;
		while (k > p && cli_is_blank(k[-1]))
			k--;
		*k = 0;
		char *v = eq + 1;
		while (cli_is_blank(*v))
			v++;
		while (end > v && cli_is_blank(end[-1]))
			*--end = 0;
		const char *why = NULL;
		if (*v == '"' && unquote(v, &why) != 0) {
			ret = cli_errf(err, errlen, "%s:%ld: %s: %s", CLI_CUT_PATH(path), lineno, CUT(p), why);
			break;
		}
		if ((ret = cli_set_config(c, p, v, msg, sizeof(msg))) != 0) {
			cli_errf(err, errlen, "%s:%ld: %s", CLI_CUT_PATH(path), lineno, msg);
			break;
		}
	}
	if (ret == 0 && len == -E2BIG)
		ret = cli_errf(err, errlen, "%s:%ld: line longer than %ld bytes", CLI_CUT_PATH(path), lineno + 1,
		           LINEREAD_MAX);
	else if (ret == 0 && len != LINEREAD_EOF) { /* a read error is not the end of the file */
		cli_errf(err, errlen, "--config: cannot read '%s' (line %ld): %s", CLI_CUT_PATH(path), lineno + 1,
		     strerror((int)-len));
		ret = (int)len;
	}
	free(line);
	fclose(f);
	return ret;
}

/* ----------------------------------------------------------- command line */

enum { LONG_ONLY = 256 }; /* getopt values of options without a letter */

/* An unrecognised --word: ambiguous (a prefix of several names) or unknown. */
static void unknown_option(const char *arg, char *err, size_t errlen)
{
	const char *name = strncmp(arg, "--", 2) == 0 ? arg + 2 : arg;
	size_t len = strcspn(name, "="), matches = 0;
	char list[160] = "";

	for (size_t i = 0; len && name != arg && i < CLI_NOPTS; i++)
		if (strncmp(cli_table[i].name, name, len) == 0 && matches++ < 4)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s--%s",
			         matches > 1 ? ", " : "", cli_table[i].name);
	if (matches > 1)
		cli_errf(err, errlen, "ambiguous option '%.*s' (%s%s)", (int)len + 2, arg, list,
		     matches > 4 ? ", ..." : "");
	else
		cli_errf(err, errlen, "unknown option '%s' (see --help)", CUT(arg));
}

/* ----------------------------------------------------------- parse */

/* The modules' own defaults for what has no option, then every row's. */
static int set_defaults(struct config *c, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	sim_params_default(&c->sim, 640, 360);
	render_params_default(&c->render, 640, 360);
	video_options_default(&c->video);
	for (size_t i = 0; i < CLI_NOPTS; i++) {
		int e = cli_table[i].def ? cli_set_value(c, &cli_table[i], cli_table[i].def, err, errlen) : 0;
		if (e)
			return e == -ENOMEM ? CLI_NOMEM : CLI_ERROR; /* or a bad row in the table */
	}
	return 0;
}

/* getopt_long's tables from the rows: long options, then the letters. */
static void getopt_tables(struct option *longopts, char *shortopts)
{
	char *sp = shortopts;

	*sp++ = ':'; /* report a missing argument as ':' */
	for (size_t i = 0; i < CLI_NOPTS; i++) {
		const struct cli_option *o = &cli_table[i];
		bool takes_arg = o->type != CLI_FLAG && o->arg;
		/* a flag's long form also takes =yes or =no (--box=no), as in a config file */
		int has_arg = takes_arg ? required_argument : o->type == CLI_FLAG ? optional_argument : no_argument;
		longopts[i] = (struct option){ o->name, has_arg,
		                               NULL, o->short_name ? o->short_name : LONG_ONLY + (int)i };
		if (o->short_name) {
			*sp++ = (char)o->short_name;
			if (takes_arg)
				*sp++ = ':';
		}
	}
	*sp = 0;
	longopts[CLI_NOPTS] = (struct option){ 0, 0, 0, 0 };
}

/* The row getopt_long's value `val` stands for, or NULL. */
static const struct cli_option *row_of(const struct option *longopts, int val)
{
	for (size_t i = 0; i < CLI_NOPTS; i++)
		if (longopts[i].val == val)
			return &cli_table[i];
	return NULL;
}

/* getopt_long refused argv[optind - 1] ('?' or ':'): says why in err. */
static void getopt_error(int ch, char **argv, const struct option *longopts, char *err, size_t errlen)
{
	const struct cli_option *o = optopt ? row_of(longopts, optopt) : NULL;

	if (ch == ':')
		cli_errf(err, errlen, "--%s needs a value (%s)", o ? o->name : "?", o && o->arg ? o->arg : "");
	else if (o && longopts[cli_index(o)].has_arg == no_argument && strncmp(argv[optind - 1], "--", 2) == 0)
		cli_errf(err, errlen, "--%s does not take a value", o->name);
	else if (optopt && optopt < LONG_ONLY)
		cli_errf(err, errlen, "unknown option '-%c' (see --help)", optopt);
	else
		unknown_option(argv[optind - 1], err, errlen);
}

/* An action (--help, --version, ...): what cli_parse() returns for it. */
static int action(const struct cli_option *o, struct config *c, char *err, size_t errlen)
{
	static const struct { const char *name; enum cli_result result; } actions[] = {
		{ "help", CLI_HELP }, { "help-all", CLI_HELP_ALL }, { "version", CLI_VERSION },
		{ "print-config", CLI_PRINT_CONFIG }, { "list-options", CLI_LIST_OPTIONS },
		{ "list-models", CLI_LIST_MODELS }, { "list-codecs", CLI_LIST_CODECS },
	};

	if (strcmp(o->name, "check-configs") == 0) {
		c->run.check_configs = optarg;
		return CLI_CHECK_CONFIGS;
	}
	if (strcmp(o->name, "config-dir") == 0) {
		c->run.config_dir = optarg;
		return CLI_RUN;
	}
	if (strcmp(o->name, "completion") == 0) {
		if (strcmp(optarg, "bash") != 0 && strcmp(optarg, "zsh") != 0)
			return cli_errf(err, errlen, "--completion: '%s' is not bash or zsh", optarg), CLI_ERROR;
		c->run.completion = optarg;
		return CLI_COMPLETION;
	}
	for (size_t i = 0; i < sizeof(actions) / sizeof(*actions); i++)
		if (strcmp(o->name, actions[i].name) == 0)
			return actions[i].result;
	return CLI_RUN; /* --config: read in the first pass */
}

/* Remembers a --config file read (main compares it with the outputs); 0 or -ENOMEM. */
static int note_config(struct config *c, const char *path)
{
	const char **a = realloc(c->run.configs, (c->run.configs_n + 1) * sizeof(*a));

	if (!a)
		return -ENOMEM;
	a[c->run.configs_n++] = path;
	c->run.configs = a;
	return 0;
}

int cli_parse(struct config *c, int argc, char **argv, char *err, size_t errlen)
{
	return cli_parse_with(c, argc, argv, NULL, NULL, err, errlen);
}

int cli_parse_with(struct config *c, int argc, char **argv, cli_source *more, void *arg,
                   char *err, size_t errlen)
{
	struct option longopts[CONFIG_MAX_OPTIONS + 1];
	char shortopts[3 * CONFIG_MAX_OPTIONS + 2];
	int result = CLI_RUN, cmdline_list = 0, e;

	err[0] = 0;
	if ((e = set_defaults(c, err, errlen)) != 0)
		return e;
	getopt_tables(longopts, shortopts);

	/* Two passes: config files first, whatever their place, then the rest. */
	for (int pass = 0; pass < 2; pass++) {
		optind = 0; /* full reset, including glibc's internal state */
		opterr = 0;
		int ch, li;
		while ((ch = getopt_long(argc, argv, shortopts, longopts, &li)) != -1) {
			if (ch == '?' || ch == ':')
				return getopt_error(ch, argv, longopts, err, errlen), CLI_ERROR;
			const struct cli_option *o = row_of(longopts, ch);
			if (!o)
				continue;
			if (pass == 0) {
				e = strcmp(o->name, "config") == 0 ? read_config(c, optarg, err, errlen) : 0;
				if (!e && strcmp(o->name, "config") == 0 && (e = note_config(c, optarg)) != 0)
					cli_errf(err, errlen, "out of memory");
				if (e)
					return e == -ENOMEM ? CLI_NOMEM : CLI_ERROR;
				continue;
			}
			if (o->type == CLI_ACTION) {
				int r = action(o, c, err, errlen);
				if (r == CLI_PRINT_CONFIG || r == CLI_CHECK_CONFIGS)
					result = r; /* after the rest of the options */
				else if (r != CLI_RUN)
					return r;
				continue;
			}
			if (o->type == CLI_CIRCLES && !cmdline_list) {
				c->run.obstacles_n = 0; /* the command line's list replaces the file's */
				cmdline_list = 1;
			}
			if ((e = cli_set_value(c, o, optarg, err, errlen)) != 0)
				return e == -ENOMEM ? CLI_NOMEM : CLI_ERROR;
			c->run.given[cli_index(o)] = 2; /* from the command line: wins over a file */
		}
		if (pass == 0 && optind < argc)
			return cli_errf(err, errlen, "unexpected argument '%s' (options start with -; see --help)",
			            CUT(argv[optind])), CLI_ERROR;
		if (pass == 0 && more && (e = more(c, arg, err, errlen)) != 0)
			return e == -ENOMEM ? CLI_NOMEM : CLI_ERROR; /* after the files, before argv */
	}
	if (c->run.config_dir && result != CLI_CHECK_CONFIGS)
		return cli_errf(err, errlen, "--config-dir goes with --check-configs"), CLI_ERROR;
	return cli_resolve(c, err, errlen) != 0 ? CLI_ERROR : result;
}

void cli_release(struct config *c)
{
	free(c->run.configs);
	c->run.configs = NULL;
	c->run.configs_n = 0;
	for (size_t i = 0; i < CLI_NOPTS; i++)
		if (cli_table[i].type == CLI_STRING) {
			char **p = (char **)(void *)((char *)c + cli_table[i].offset);
			free(*p);
			*p = NULL;
		}
}
