/*
 * cli — the command line: one table of options (src/options.c), each row
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

#define BOIDS_VERSION "1.0.0"

/* Limits, stated once; --help and the man page quote them. */
#define CLI_MAX_BOIDS   10000000L
#define CLI_MAX_FIELD   16384L      /* -s: picture width or height (without --field: the field's) */
#define CLI_MAX_PICTURE 16384L      /* picture width or height after --scale */
#define CLI_MAX_SPAN    1000000000L /* --field's sides, and coordinates: the coordinate limit, px */
#define CLI_MAX_FRAMES  100000000L
#define CLI_MAX_TRAIL   1000

/* The default picture, and field: -s's default (cli_defaults()). */
#define CLI_DEFAULT_WIDTH  640
#define CLI_DEFAULT_HEIGHT 360

/* A flock with more neighbours per boid than this many times its model's
 * default scene's is announced (cli_crowding()). */
#define CLI_CROWD_FACTOR 4.0

enum cli_type {               /* what a value looks like, and the field it goes to */
	CLI_LONG,    /* whole number in [min, max] (long) */
	CLI_INT,     /* the same, stored as int */
	CLI_COUNT,   /* the same, stored as size_t */
	CLI_U64,     /* unsigned 64-bit whole number (uint64_t) */
	CLI_DOUBLE,  /* finite number in [min, max] (min excluded with CLI_GT_MIN) */
	CLI_FIELD,   /* WxH, each in [min, max]: sim.width then sim.height (doubles) */
	CLI_BOX,     /* WxH or WxHxD, each in [min, max], into double[3] (D 0 if not given);
	              * empty: none (all 0) */
	CLI_STRING,  /* any text; empty means unset (NULL); malloc'ed (char *) */
	CLI_ENUM,    /* one of choices[], stored as its value (an int-sized enum) */
	CLI_MODEL,   /* -m: a model name, stored in sim.model */
	CLI_COLOR,   /* #RRGGBB, #RGB or a CSS name (uint32_t 0xRRGGBB) */
	CLI_FLAG,    /* no argument; yes/no in a config file (int 0 or 1) */
	CLI_CIRCLES, /* X,Y,R appended to run.obstacles and run.circles; repeatable;
	              * empty clears the list */
	CLI_TARGET,  /* none, lissajous or X,Y: sim.target_mode, target_x, target_y */
	CLI_CAMERA,  /* front, orbit, X,Y,Z or X,Y,Z,TX,TY,TZ: render.camera (struct camera_setup) */
	CLI_RATE,    /* N, N/D, a decimal (29.97) or ffmpeg's names (ntsc, pal, film, ntsc-film),
	              * in [min, max]: run.fps then run.fps_den, reduced (longs) */
	CLI_VIEW,    /* CX,CY,W: a window of the field, into double[3] (numbers within 1e9, W above 0);
	              * empty: none (all 0) */
	CLI_RANGE,   /* LO,HI with min <= LO < HI <= max, into double[2]; auto: none (both 0) */
	CLI_ACTION,  /* --help, --version, --print-config, --config: no field */
};

enum cli_flags {
	CLI_GT_MIN = 1 << 0,    /* the minimum itself is not allowed */
	CLI_AUTO = 1 << 1,      /* "auto" accepted, stored as min - 1 (below every number) */
	CLI_NOCONFIG = 1 << 2,  /* command line only (actions, --config) */
	CLI_BRIEF = 1 << 3,     /* shown by --help (the others by --help-all only) */
	CLI_NEGATE = 1 << 4,    /* CLI_FLAG: clears its field (--no-clobber clears overwrite) */
};

/* A CLI_ENUM value: its name and what is stored. */
struct cli_choice {
	const char *name;
	int value;
};

struct cli_option {
	const char *name;       /* long name, also the config key */
	int short_name;         /* letter, or 0 */
	enum cli_type type;
	size_t offset;          /* into struct config */
	const char *def;        /* a run option's default as typed by a user; CLI_MODULE: the
	                         * module's own (sim_params_default(), render_params_default(),
	                         * video_options_default()), written there once; NULL: none */
	double min, max;        /* numeric range */
	unsigned flags;         /* enum cli_flags */
	const char *arg;        /* placeholder in --help: N, X, FILE */
	const char *units;      /* of the value: "px", "px/step", "s"; NULL: none */
	const char *group;      /* --help heading */
	const char *help;       /* one line, no trailing period (cli_help()); NULL for -m: the
	                         * registry's names */
	const struct cli_choice *choices; /* CLI_ENUM values, {NULL}-terminated (cli_choice_name()) */
};

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

/* A row's def for a setting a module defaults (see struct cli_option). */
extern const char cli_module_default[];
#define CLI_MODULE cli_module_default

/*
 * Row o's default as a user would type it: its def, or for a CLI_MODULE row
 * the module's default formatted into buf (len bytes) as --print-config
 * would write it, but a tiny number plainly (0.00005).  NULL: none.
 */
const char *cli_default(const struct cli_option *o, char *buf, size_t len);

/* Row o's help line: its help, or for -m the registry's model names, into buf. */
const char *cli_help(const struct cli_option *o, char *buf, size_t len);

/* The option table and its length. */
const struct cli_option *cli_options(size_t *count);

/* Looks an option up by long name; NULL when there is none. */
const struct cli_option *cli_find(const char *name);

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

/* Writes option o's value in c as a user would type it into buf. */
void cli_format_value(const struct config *c, const struct cli_option *o, char *buf, size_t len);

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

/*
 * The resolve step's check of the flock's density, once its boid count is
 * known (after --init is read): when the neighbours a boid can expect
 * (sim_neighbours(): the flock spread evenly over the field) are more than
 * CLI_CROWD_FACTOR times those of the model's default scene (its program's
 * boid count and picture, the model's radii), writes one line into msg
 * saying so and naming the --field that gives the default density, and
 * returns 1; else 0 (msg untouched).
 */
int cli_crowding(const struct config *c, char *msg, size_t len);

/*
 * A user's value quoted in a message: at most len - 4 bytes of s (never
 * half a UTF-8 character), then "…", so that a huge value never pushes the
 * reason out of a bounded message.  Returns s itself when short enough,
 * else buf.  CLI_CUT(s) keeps CLI_CUT_CHARS (60) bytes of a value,
 * CLI_CUT_PATH(s) 200 of a file name; each gets a buffer of its own that
 * lives until the end of the enclosing block.
 */
#define CLI_CUT_CHARS 60
const char *cli_cut(char *buf, size_t len, const char *s);
#define CLI_CUT(s) cli_cut((char[CLI_CUT_CHARS + 4]){ 0 }, CLI_CUT_CHARS + 4, (s))
#define CLI_CUT_PATH(s) cli_cut((char[204]){ 0 }, 204, (s))

#endif
