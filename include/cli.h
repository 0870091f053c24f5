/*
 * cli — the command line: one table of options (options.h), each row
 * pointing straight into struct config (include/config.h), from which
 * getopt_long parsing, the config file keys, --help, --print-config,
 * --list-options (and through it shell completions and scripts/sweep) all
 * come; tests hold the man page and docs/MODEL.md against it.
 *
 * Start at cli_parse(): the modules' defaults, then the table's `def`
 * strings (parsed by the same code as user input) -> every --config FILE in
 * order -> the command line -> the resolve step (in resolve.c: each model's
 * program's defaults and --look for what the user did not set, --duration
 * into frames, the picture size from --scale, the seeds and obstacle lists
 * the modules borrow) and the cross-option checks.  Values are validated
 * and converted as they are read, into the consuming module's own types;
 * the first problem is reported as one line in the caller's buffer and
 * cli_parse() returns CLI_ERROR.  Checks that need other modules (output
 * names, encoders, files) are main's.
 */
#ifndef BOIDS_CLI_H
#define BOIDS_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "options.h"
#include "resolve.h"
#include "values.h"

#define BOIDS_VERSION "1.0.0"

enum cli_result {
	CLI_NOMEM = -2,        /* out of memory (err says so); exit 1 */
	CLI_ERROR = -1,        /* err holds the message; exit 2 */
	CLI_RUN = 0,
	CLI_HELP,
	CLI_HELP_ALL,
	CLI_COMPLETION,        /* c->run.completion names the shell */
	CLI_VERSION,
	CLI_PRINT_CONFIG,
	CLI_LIST_OPTIONS,      /* --list-options */
	CLI_LIST_MODELS,       /* --list-models */
	CLI_LIST_CODECS,       /* --list-codecs */
	CLI_CHECK_CONFIGS,     /* --check-configs FILE: c->run.check_configs (src/batch.c) */
};

/*
 * Row o's default as a user would type it: its def, or for a CLI_MODULE row
 * the module's default formatted into buf (len bytes) as --print-config
 * would write it, but a tiny number plainly (0.00005).  NULL: none.
 */
const char *cli_default(const struct cli_option *o, char *buf, size_t len);

/* Row o's help line: its help, or for -m the registry's model names, into buf. */
const char *cli_help(const struct cli_option *o, char *buf, size_t len);

/*
 * Fills c from defaults, config files and argv, and resolves it (see the
 * top).  Returns an enum cli_result; on CLI_ERROR and CLI_NOMEM err holds
 * one line (no "boids:" prefix, no newline).  The strings in c are
 * malloc'ed: cli_release() frees them.  c must stay where it is: its sim
 * and render parts point into its run part.
 */
int cli_parse(struct config *c, int argc, char **argv, char *err, size_t errlen);

/*
 * A further source of settings for cli_parse_with(), read after every
 * --config file and before the rest of the command line (so the command
 * line still wins), like one more config file: it sets values with
 * cli_set_config().  Returns 0, or a negative code with one line in err
 * (-ENOMEM: out of memory).
 */
typedef int cli_source(struct config *c, void *arg, char *err, size_t errlen);

/* cli_parse() with `more` (NULL: none) called with arg where it says. */
int cli_parse_with(struct config *c, int argc, char **argv, cli_source *more, void *arg,
                   char *err, size_t errlen);

/*
 * Sets the option named key from value as a config file line does (the
 * same check and conversion; it counts as given by a file).  Returns 0, or
 * -1 (-ENOMEM) with one line in err: an unknown key, a bad value.
 */
int cli_set_config(struct config *c, const char *key, const char *value, char *err, size_t errlen);

/*
 * Writes --help: usage, the CLI_BRIEF options (all of them when `all`, for
 * --help-all) each with its default, exit status.  Every line fits in 80
 * columns; a brief option takes one line.
 */
void cli_print_help(FILE *f, int all);

/* Writes the settings as a config file that reproduces them. */
void cli_print_config(FILE *f, const struct config *c);

/*
 * cli_print_config()'s text in memory: *text (malloc'ed, NUL-terminated,
 * the caller frees it, also on failure) and its *size.  Returns 0 or
 * -ENOMEM.
 */
int cli_config_text(const struct config *c, char **text, size_t *size);

/*
 * Writes every option as one JSON object, for scripts (scripts/sweep):
 *   {"program": "boids", "version": "1.0.0", "options": [
 *     {"name": "frames", "short": "f", "takes_value": true, "type": "integer",
 *      "config_key": true, "default": "300", "choices": null,
 *      "group": "Run and output", "help": "...", "units": null,
 *      "min": 1, "max": 100000000, "min_exclusive": false, "max_exclusive": false},
 *     ...]}
 * type is integer, unsigned, number, size, string, choice (see choices),
 * color, flag, circles (repeatable X,Y,R), target or action; config_key
 * says whether a config file accepts it; units is a string or null; min and
 * max are the accepted range of a number (null for other types and for
 * no bound), each accepted itself unless min_exclusive / max_exclusive is
 * true (--flock-radius: above 0); "auto", where an option takes it, is
 * outside the range.
 */
void cli_print_options_json(FILE *f);

/*
 * The name of the k-th value of a choice (CLI_ENUM, or CLI_MODEL: the
 * registry's models), or NULL past the last (and for other types).
 */
const char *cli_choice_name(const struct cli_option *o, size_t k);

/* Writes --list-models: one line per model, its name and what it is. */
void cli_print_models(FILE *f);

/* Frees the strings in c. */
void cli_release(struct config *c);

/* Fills c with every setting's default (memset first): cli_parse()'s first
 * step, and what cli_print.c shows of a module's default.  0, CLI_ERROR or
 * CLI_NOMEM. */
int cli_defaults(struct config *c, char *err, size_t errlen);
/* A blank of the config format: space or tab. */
int cli_is_blank(char c);

#endif
