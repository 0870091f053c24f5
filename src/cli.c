/*
 * cli — reading settings: the defaults, every --config FILE, then the
 * command line (cli_parse(), see include/cli.h), each value set through
 * its row of the option table (options.c) by values.c, then the resolve
 * step (resolve.c).  Start at cli_parse().
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

#include "color.h"
#include "lineread.h"
#include "model.h"
#include "options_int.h"
#include "signals.h"
#include "sim.h"
#include "suggest.h"
#include "traj.h"

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

	if (!o || (o->flags & CLI_NOCONFIG)) {
		const char *keys[CLI_NOPTS]; /* the names a file may set */
		size_t n = 0;
		char near[160];
		for (size_t i = 0; i < CLI_NOPTS; i++)
			if (!(cli_table[i].flags & CLI_NOCONFIG))
				keys[n++] = cli_table[i].name;
		suggest_phrase(near, sizeof near, "", "", key, strlen(key), keys, n, sizeof keys[0]);
		return cli_errf(err, errlen, "unknown key '%s'%s", CLI_CUT(key), near);
	}
	if ((ret = cli_set_value(c, o, value, err, errlen)) != 0)
		return ret;
	c->run.given[cli_index(o)] = 1; /* from a file */
	return 0;
}

static int read_config(struct config *c, const char *path, char *err, size_t errlen)
{
	FILE *f = signals_fopen(path); /* a FIFO's wait for a writer ends on a stop signal */
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
			ret = cli_errf(err, errlen, "%s:%ld: %s: %s", CLI_CUT_PATH(path), lineno, CLI_CUT(p), why);
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
	else if (name != arg && suggest_phrase(list, sizeof list, "--", "", name, len, &cli_table[0].name, CLI_NOPTS,
	                                       sizeof(cli_table[0])) > 0)
		cli_errf(err, errlen, "unknown option '%s'%s", CLI_CUT(arg), list);
	else
		cli_errf(err, errlen, "unknown option '%s' (see --help)", CLI_CUT(arg));
}

/* ----------------------------------------------------------- parse */

/* The modules' own defaults, then the run options' (their rows'): each setting's from one place. */
int cli_defaults(struct config *c, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	sim_params_default(&c->sim, CLI_DEFAULT_WIDTH, CLI_DEFAULT_HEIGHT);
	render_params_default(&c->render, CLI_DEFAULT_WIDTH, CLI_DEFAULT_HEIGHT);
	video_options_default(&c->video);
	for (size_t i = 0; i < CLI_NOPTS; i++) {
		const char *def = cli_table[i].def;
		int e = def && def != CLI_MODULE ? cli_set_value(c, &cli_table[i], def, err, errlen) : 0;
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
	struct option longopts[CLI_NOPTS + 1];
	char shortopts[3 * CLI_NOPTS + 2];
	int result = CLI_RUN, cmdline_list = 0, e;

	err[0] = 0;
	if ((e = cli_defaults(c, err, errlen)) != 0)
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
			            CLI_CUT(argv[optind])), CLI_ERROR;
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
