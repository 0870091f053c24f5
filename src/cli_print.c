/*
 * cli_print — the settings and the option table written out (each value
 * as values.c formats it): --print-config (read back by --config),
 * --list-options (JSON, for completions and scripts), --help and
 * --help-all, --list-models.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "color.h"
#include "lineread.h"
#include "model.h"
#include "options_int.h"
#include "traj.h"
#include "trajout.h"

#define STR_(x) #x
#define STR(x) STR_(x)

/* ------------------------------------------------------------------ output */

/* The string field of a CLI_STRING row, NULL when unset. */
static const char *string_value(const struct config *c, const struct cli_option *o)
{
	return *(char *const *)(const void *)((const char *)c + o->offset);
}

enum { HELP_COL = 26, HELP_WIDTH = 80 }; /* --help: where an option's text starts, the width */

const char *cli_help(const struct cli_option *o, char *buf, size_t len)
{
	if (o->help)
		return o->help;
	buf[0] = 0;
	for (size_t i = 0; o->type == CLI_MODEL && model_names[i]; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? ", " : "", model_names[i]);
	/* one line of --help: the names after the option, the default after them */
	if (o->type == CLI_MODEL && HELP_COL + strlen(buf) + strlen(" []") + strlen(model_names[0]) > HELP_WIDTH)
		snprintf(buf, len, "the rules: one of boids --list-models");
	return buf;
}

const char *cli_default(const struct cli_option *o, char *buf, size_t len)
{
	static struct config d; /* every default, made once */
	static int made;
	char err[256];

	if (o->def != CLI_MODULE)
		return o->def;
	if (!made && cli_defaults(&d, err, sizeof(err)) != 0)
		return NULL; /* out of memory */
	made = 1;
	cli_format_value(&d, o, buf, len);
	double v = o->type == CLI_DOUBLE ? *(const double *)(const void *)((const char *)&d + o->offset) : 0;
	for (int prec = 1; strchr(buf, 'e') && fabs(v) >= 1e-6 && fabs(v) < 1 && prec <= 20; prec++) {
		char plain[32]; /* plainly, as a user types it */
		snprintf(plain, sizeof(plain), "%.*f", prec, v);
		if (strtod(plain, NULL) == v)
			snprintf(buf, len, "%s", plain);
	}
	return buf;
}

/* Writes a value so that read_config() reads it back unchanged. */
static void put_config_value(FILE *f, const char *v)
{
	size_t n = strlen(v);
	int quote = n && (cli_is_blank(v[0]) || cli_is_blank(v[n - 1]) || v[0] == '"');

	for (const char *c = v; *c && !quote; c++)
		quote = (unsigned char)*c < 0x20 || *c == 0x7f;
	if (!quote) {
		fputs(v, f);
		return;
	}
	fputc('"', f);
	for (const char *c = v; *c; c++) {
		switch (*c) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default: fputc(*c, f);
		}
	}
	fputc('"', f);
}

int cli_config_text(const struct config *c, char **text, size_t *size)
{
	*text = NULL;
	*size = 0;
	FILE *m = open_memstream(text, size);
	if (!m)
		return -ENOMEM;
	cli_print_config(m, c);
	return fclose(m) == 0 ? 0 : -ENOMEM;
}

void cli_print_config(FILE *f, const struct config *c)
{
	const char *group = NULL;

	fprintf(f, "# boids %s settings; read back with: boids --config FILE\n", BOIDS_VERSION);
	for (size_t i = 0; i < CLI_NOPTS; i++) {
		const struct cli_option *o = &cli_table[i];
		char v[4096];
		if (o->flags & CLI_NOCONFIG)
			continue;
		if (o->group != group) {
			fprintf(f, "\n# %s\n", o->group);
			group = o->group;
		}
		if (o->type == CLI_CIRCLES) {
			/* one line an obstacle; an empty value first clears the list */
			fprintf(f, "%s = \n", o->name);
			for (size_t k = 0; k < c->run.obstacles_n; k++) {
				char one[128];
				cli_format_obstacle(c, &c->run.obstacles[k], one, sizeof(one));
				fprintf(f, "%s = %s\n", o->name, one);
			}
			continue;
		}
		if (o->type == CLI_STRING) { /* straight from the settings: no length limit */
			const char *str = string_value(c, o);
			fprintf(f, "%s = ", o->name);
			put_config_value(f, str ? str : "");
			fputc('\n', f);
			continue;
		}
		cli_format_value(c, o, v, sizeof(v));
		fprintf(f, "%s = ", o->name);
		put_config_value(f, v);
		fputc('\n', f);
	}
}

/* A JSON string: quotes, backslashes and control bytes escaped. */
static void put_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* ", "name": V": a numeric row's bound, null for other rows and for none. */
static void put_json_bound(FILE *f, const char *name, const struct cli_option *o, double v)
{
	int numeric = o->type == CLI_LONG || o->type == CLI_INT || o->type == CLI_COUNT ||
	              o->type == CLI_DOUBLE || o->type == CLI_FIELD || o->type == CLI_BOX;

	if (numeric && fabs(v) < BIG)
		fprintf(f, ", \"%s\": %.17g", name, v);
	else
		fprintf(f, ", \"%s\": null", name);
}

/*
 * ", "ranges": [...]": for an option whose range depends on another setting
 * (--trajectory-compress on the format), each case's bounds and default;
 * null for the others, whose min and max say it all.
 */
static void put_json_ranges(FILE *f, const struct cli_option *o)
{
	static const enum trajout_format compressed[] = { TRAJOUT_CSV_GZ, TRAJOUT_CSV_ZST, TRAJOUT_HDF5 };
	int min, max, dflt;

	if (o != &cli_table[OPT_TRAJECTORY_COMPRESS]) {
		fputs(", \"ranges\": null", f);
		return;
	}
	fputs(", \"ranges\": [", f);
	for (size_t i = 0; i < sizeof compressed / sizeof *compressed; i++) {
		trajout_levels(compressed[i], &min, &max, &dflt);
		fprintf(f, "%s{\"depends_on\": \"trajectory\", \"ends_with\": \"%s\", \"min\": %d, \"max\": %d, "
		        "\"default\": %d}", i ? ", " : "", trajout_format_ext(compressed[i]), min, max, dflt);
	}
	fputc(']', f);
}

void cli_print_options_json(FILE *f)
{
	static const char *const type_names[] = {
		[CLI_LONG] = "integer", [CLI_INT] = "integer", [CLI_COUNT] = "integer",
		[CLI_U64] = "unsigned", [CLI_DOUBLE] = "number", [CLI_FIELD] = "size", [CLI_BOX] = "box",
		[CLI_STRING] = "string", [CLI_ENUM] = "choice", [CLI_MODEL] = "choice",
		[CLI_COLOR] = "color", [CLI_FLAG] = "flag", [CLI_CIRCLES] = "circles",
		[CLI_TARGET] = "target", [CLI_CAMERA] = "camera", [CLI_ACTION] = "action",
		[CLI_RATE] = "rate", [CLI_VIEW] = "view", [CLI_RANGE] = "range",
	};

	fprintf(f, "{\"program\": \"boids\", \"version\": \"%s\", \"options\": [", BOIDS_VERSION);
	for (size_t i = 0; i < CLI_NOPTS; i++) {
		const struct cli_option *o = &cli_table[i];
		char sh[2] = { (char)o->short_name, 0 };
		fprintf(f, "%s\n  {\"name\": ", i ? "," : "");
		put_json_string(f, o->name);
		fputs(", \"short\": ", f);
		if (o->short_name)
			put_json_string(f, sh);
		else
			fputs("null", f);
		fprintf(f, ", \"takes_value\": %s, \"type\": \"%s\", \"config_key\": %s, \"default\": ",
		        o->type != CLI_FLAG && o->arg ? "true" : "false", type_names[o->type],
		        o->flags & CLI_NOCONFIG ? "false" : "true");
		char dbuf[256];
		const char *def = cli_default(o, dbuf, sizeof(dbuf));
		if (def)
			put_json_string(f, def);
		else
			fputs("null", f);
		fputs(", \"choices\": ", f);
		if (cli_choice_name(o, 0)) {
			fputc('[', f);
			for (size_t k = 0; cli_choice_name(o, k); k++) {
				fputs(k ? ", " : "", f);
				put_json_string(f, cli_choice_name(o, k));
			}
			fputc(']', f);
		} else {
			fputs("null", f);
		}
		fputs(", \"group\": ", f);
		put_json_string(f, o->group);
		fputs(", \"help\": ", f);
		char hbuf[256];
		put_json_string(f, cli_help(o, hbuf, sizeof(hbuf)));
		fputs(", \"units\": ", f);
		if (o->units)
			put_json_string(f, o->units);
		else
			fputs("null", f);
		put_json_bound(f, "min", o, o->min);
		put_json_bound(f, "max", o, o->max);
		/* the parser's own test: CLI_GT_MIN refuses the minimum itself */
		fprintf(f, ", \"min_exclusive\": %s, \"max_exclusive\": false",
		        o->flags & CLI_GT_MIN ? "true" : "false");
		put_json_ranges(f, o);
		fputc('}', f);
	}
	fputs("\n]}\n", f);
}

/* Writes text from column `col` on, wrapped at HELP_WIDTH columns under it. */
static void print_wrapped(FILE *f, int col, const char *text)
{
	int at = col;

	while (*text) {
		size_t word = strcspn(text, " ");
		if (*text == '[' && strchr(text, ']')) /* "[50 px]" stays on one line */
			word = (size_t)(strchr(text, ']') - text) + 1;
		if (at > col && at + 1 + (int)word > HELP_WIDTH) {
			fprintf(f, "\n%*s", col, "");
			at = col;
		}
		if (at > col) {
			fputc(' ', f);
			at++;
		}
		fwrite(text, 1, word, f);
		at += (int)word;
		text += word;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

void cli_print_help(FILE *f, int all)
{
	enum { COL = HELP_COL };
	const char *group = NULL;

	fprintf(f,
	        "Usage: boids [OPTION]...\n"
	        "Simulate a flock (Harden's \"Boids in C#\" or another of --list-models, 2D or 3D)\n"
	        "and write it as video, PNG frames, y4m on standard output or a trajectory CSV.\n"
	        "With no options, writes a 10-second %dx%d H.264 clip to flock.mp4.\n"
	        "--view shows a window of the field; --draw density, flocks under a pixel.\n",
	        CLI_DEFAULT_WIDTH, CLI_DEFAULT_HEIGHT);
	for (size_t i = 0; i < CLI_NOPTS; i++) {
		const struct cli_option *o = &cli_table[i];
		char left[96], text[320];
		if (!all && !(o->flags & CLI_BRIEF))
			continue;
		if (o->group != group) {
			fprintf(f, "\n%s:\n", o->group);
			group = o->group;
		}
		int n = snprintf(left, sizeof(left), "  %c%c%s--%s%s%s",
		                 o->short_name ? '-' : ' ', o->short_name ? o->short_name : ' ',
		                 o->short_name ? ", " : "  ", o->name,
		                 o->arg ? "=" : "", o->arg ? o->arg : "");
		if (n >= COL - 1)
			fprintf(f, "%s\n%*s", left, COL, "");
		else
			fprintf(f, "%-*s", COL, left);
		char dbuf[256], hbuf[256];
		const char *def = cli_default(o, dbuf, sizeof(dbuf)), *help = cli_help(o, hbuf, sizeof(hbuf));
		bool units = o->units && def && strcmp(def, "auto") != 0;
		if (def && *def && o->type != CLI_FLAG)
			snprintf(text, sizeof(text), "%s [%s%s%s]", help, def, units ? " " : "",
			         units ? o->units : "");
		else
			snprintf(text, sizeof(text), "%s", help);
		print_wrapped(f, COL, text);
	}
	if (all) { /* each model's article, as --list-models names it */
		const struct boids_model *const *m = model_list();
		fprintf(f, "\nModels (-m) and the articles they reproduce:\n");
		for (size_t i = 0; m[i]; i++) {
			fprintf(f, "  %-11s ", m[i]->name);
			print_wrapped(f, 14, m[i]->seed); /* an address longer than a line keeps its line */
		}
	}
	if (!all) /* the manual's line here: --help stays within 60 lines */
		fprintf(f, "\nAll options: boids --help-all; manual: man boids (checkout: man ./docs/boids.1)\n");
	fprintf(f,
	        "\nLimits: %ld boids, %ldx%ld pictures, 1e9 px fields, %ld frames;\n"
	        "positions and velocities within -%s..%s; config and --init lines\n"
	        "up to %ld bytes.  Exit status: 0 done, 1 runtime failure, 2 bad usage,\n"
	        "129/130/143 after SIGHUP/SIGINT/SIGTERM (the output is finished first).\n"
	        "%s",
	        CLI_MAX_BOIDS, CLI_MAX_PICTURE, CLI_MAX_PICTURE, CLI_MAX_FRAMES, STR(TRAJ_VALUE_MAX),
	        STR(TRAJ_VALUE_MAX), LINEREAD_MAX, all ? "Manual: man boids (installed), man ./docs/boids.1 (in a source checkout)\n" : "");
}

void cli_print_models(FILE *f)
{
	const struct boids_model *const *m = model_list();

	for (size_t i = 0; m[i]; i++) { /* the source indented under the name */
		fprintf(f, "%-11s %s%s\n%12s", m[i]->name, m[i]->summary, i == 0 ? " [default]" : "", "");
		print_wrapped(f, 12, m[i]->seed);
	}
}

const char *cli_choice_name(const struct cli_option *o, size_t k)
{
	if (o->type == CLI_MODEL)
		return model_names[k];
	return o->choices ? o->choices[k].name : NULL;
}
