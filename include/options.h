/*
 * options — the option table: one row per option (src/options.def, made
 * into cli_table[] by src/options.c), each pointing straight into struct
 * config; the limits the rows and the messages quote.  The bottom of the
 * command line's files: values.c parses and formats a value by its row,
 * resolve.c and cli.c read the settings (cli.h), cli_print.c prints them.
 */
#ifndef BOIDS_OPTIONS_H
#define BOIDS_OPTIONS_H

#include <stddef.h>

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
	              * in [min, max]: run.fps, a struct rate, reduced */
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

/* A row's def for a setting a module defaults (see struct cli_option). */
extern const char cli_module_default[];
#define CLI_MODULE cli_module_default

/* The option table and its length. */
const struct cli_option *cli_options(size_t *count);

/* Looks an option up by long name; NULL when there is none. */
const struct cli_option *cli_find(const char *name);

#endif
