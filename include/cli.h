/*
 * cli — the command line: one table of options, from which getopt_long
 * parsing, the config file keys, --help and --print-config all come.
 *
 * Start at cli_parse(): defaults (the table's `def` strings, parsed by the
 * same code as user input) -> every --config FILE in order -> the command
 * line -> cross-option checks.  Values are validated as they are read; the
 * first problem is reported as one line in the caller's buffer and
 * cli_parse() returns CLI_ERROR.  Checks that need other modules (output
 * names, encoders, files) are main's.
 */
#ifndef BOIDS_CLI_H
#define BOIDS_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define BOIDS_VERSION "1.0.0"

/* Limits, stated once; --help and the man page quote them. */
#define CLI_MAX_BOIDS   10000000L
#define CLI_MAX_FIELD   16384L      /* field width or height, pixels */
#define CLI_MAX_PICTURE 16384L      /* picture width or height after --scale */
#define CLI_MAX_FRAMES  100000000L
#define CLI_MAX_OBSTACLES 64
#define CLI_MAX_TRAIL   1000

enum cli_edges { CLI_EDGES_BOUNCE, CLI_EDGES_WRAP, CLI_EDGES_BOTH, CLI_EDGES_NONE };
enum cli_update { CLI_SEQUENTIAL, CLI_SYNCHRONOUS };
enum cli_shape { CLI_SHAPE_CURVE, CLI_SHAPE_REPO, CLI_SHAPE_POLYGON, CLI_SHAPE_TRIANGLE, CLI_SHAPE_ARROW,
                 CLI_SHAPE_CIRCLE };
enum cli_outline { CLI_OUTLINE_LISTING, CLI_OUTLINE_FINAL };
enum cli_paint { CLI_PAINT_FILL, CLI_PAINT_STROKE };
enum cli_grid { CLI_GRID_CAIRO, CLI_GRID_GDI };
enum cli_look { CLI_LOOK_MODEL, CLI_LOOK_ORIGINAL, CLI_LOOK_HARDEN_WINDOWS, CLI_LOOK_CANVAS_ARTICLE };
enum cli_separation { CLI_SEP_UNIT, CLI_SEP_INVERSE };
enum cli_turn { CLI_TURN_SHORT, CLI_TURN_STEADY };
enum cli_trail_style { CLI_TRAIL_FADE, CLI_TRAIL_OPENGL };
enum cli_antialias { CLI_AA_NONE, CLI_AA_FAST, CLI_AA_GOOD, CLI_AA_BEST };
enum cli_progress { CLI_PROGRESS_AUTO, CLI_PROGRESS_ALWAYS, CLI_PROGRESS_NEVER, CLI_PROGRESS_LINES,
                    CLI_PROGRESS_JSON };
enum cli_background { CLI_BG_FLAT, CLI_BG_NOISE };
enum cli_model { CLI_MODEL_HARDEN, CLI_MODEL_PROCESSING, CLI_MODEL_STEERING, CLI_MODEL_CANVAS,
                 CLI_MODEL_OPENGL };
enum cli_target { CLI_TARGET_NONE, CLI_TARGET_FIXED, CLI_TARGET_LISSAJOUS };

/* Every setting of a run.  "auto" integers are -1, unset strings NULL. */
struct settings {
	/* model */
	long boids;             /* number of boids */
	long width, height;     /* field size, pixels */
	uint64_t seed;          /* initial flock */
	long predators;         /* the first boids are predators */
	int edges;              /* enum cli_edges */
	int update;             /* enum cli_update */
	double flock_radius, flock_weight;
	double align_radius, align_weight;
	double avoid_radius, avoid_weight;
	double predator_radius, predator_weight;
	double min_speed, max_speed;
	double wall_pad, wall_turn;
	long warmup;            /* steps before frame 0 */
	long substeps;          /* steps per frame */
	long threads;           /* -1: one per core */
	/* run */
	long frames;
	long poster;            /* frame of a still -o NAME.png; -1: the last */
	double duration;        /* seconds; < 0: unset (frames rules) */
	char *output;           /* picture output: video file, PNG pattern or "-" */
	char *trajectory;       /* CSV, or NULL */
	char *init;             /* CSV to start from, or NULL */
	char *metrics;          /* per-frame flock metrics CSV, or NULL */
	char *summary;          /* run summary JSON ("-": stdout), or NULL */
	int overwrite;          /* -y */
	int no_render;          /* simulate only */
	int quiet;
	int verbose;            /* say the thread counts and the output chosen, on stderr */
	int progress;           /* enum cli_progress */
	double progress_interval; /* seconds between progress lines */
	/* drawing */
	double scale;
	int shape;              /* enum cli_shape */
	int outline;            /* enum cli_outline */
	int paint;              /* enum cli_paint */
	int pixel_grid;         /* enum cli_grid */
	int look;               /* enum cli_look; resolved into the settings above */
	double boid_size;
	uint32_t background, boid_color, predator_color; /* 0xRRGGBB */
	int antialias;          /* enum cli_antialias */
	int draw;               /* 0 exact, 1 fast: enum render_draw */
	long start_number;      /* first PNG number */
	long png_level;         /* zlib level 0..9 */
	long trail;             /* positions drawn behind each boid, 0: none */
	double predator_size;   /* predators' outline relative to the boids' */
	int opengl;             /* the OpenGL version's look (see cli.c) */
	int background_style;   /* enum cli_background */
	uint32_t obstacle_color, target_color;
	/* scene */
	double obstacles[CLI_MAX_OBSTACLES][3]; /* x, y, r in field units */
	long obstacles_n;
	int target;             /* enum cli_target */
	double target_x, target_y;
	/* other models (docs/MODEL.md), as in struct sim_params */
	int model;              /* enum cli_model */
	double obstacle_margin;
	double obstacle_weight;
	double target_amp_x;
	double target_amp_y;
	double target_freq_x;
	double target_freq_y;
	double target_period;
	double proc_cohesion_radius;
	double proc_separation_radius;
	double proc_alignment_radius;
	double proc_cohesion_weight;
	double proc_separation_weight;
	double proc_alignment_weight;
	double proc_max_force;
	double proc_max_speed;
	int proc_limit;
	int proc_separation;    /* enum cli_separation */
	double proc_jitter;
	double steer_radius;
	double steer_cohesion_steps;
	double steer_cohesion_weight;
	double steer_separation_steps;
	double steer_socialize_weight;
	int steer_turn;         /* enum cli_turn */
	double steer_separation_weight;
	double steer_alignment_weight;
	double steer_seek_weight;
	double steer_arrival_radius;
	double steer_arrival_speed;
	double steer_max_speed;
	double steer_max_turn;
	double canvas_visual_range;
	double canvas_cohesion_resistance;
	double canvas_separation_distance;
	double canvas_alignment_eagerness;
	double canvas_speed;
	double canvas_dt;
	/* the OpenGL model (-m opengl), as gl_* in struct sim_params */
	double gl_flock_radius, gl_flock_weight, gl_predator_sight;
	double gl_avoid_radius, gl_avoid_weight;
	int gl_avoid;           /* 0 own kind, 1 all */
	double gl_align_radius, gl_align_weight;
	double gl_flee_radius, gl_flee_weight;
	double gl_wall_pad, gl_wall_turn;
	double gl_speed_min, gl_speed_max, gl_predator_boost, gl_speed_ease, gl_step;
	int trail_style;        /* enum cli_trail_style */
	int show_ranges;        /* draw the rule radii around the last boid */
	/* video */
	long fps;
	char *codec;            /* NULL: the container's default */
	long crf;               /* -1: the encoder's default */
	char *preset;
	char *bitrate;
	char *pix_fmt;
	long gop;               /* -1: the encoder's default */
	long encoder_threads;   /* -1: the encoder's choice (depends on the machine) */
	/* bookkeeping */
	const char *completion; /* --completion SHELL (in argv, not freed) */
	unsigned char given[192];/* per option index: 0 default, 1 config file, 2 command line */
};

enum cli_type {
	CLI_LONG,    /* whole number in [min, max]; "auto" when CLI_AUTO (stored -1) */
	CLI_U64,     /* unsigned 64-bit whole number */
	CLI_DOUBLE,  /* finite number in [min, max] (min excluded with CLI_GT_MIN) */
	CLI_SIZE,    /* WxH, each in [min, max] (two longs: width then height) */
	CLI_STRING,  /* any text; empty means unset */
	CLI_ENUM,    /* one of choices[], stored as its index (int) */
	CLI_COLOR,   /* #RRGGBB, #RGB or a CSS name (uint32_t) */
	CLI_FLAG,    /* no argument; yes/no in a config file (int) */
	CLI_CIRCLES, /* X,Y,R appended to a list; repeatable; empty clears it */
	CLI_TARGET,  /* none, lissajous or X,Y */
	CLI_ACTION,  /* --help, --version, --print-config, --config */
};

enum cli_flags {
	CLI_GT_MIN = 1 << 0,    /* the minimum itself is not allowed */
	CLI_AUTO = 1 << 1,      /* "auto" accepted, stored as -1 */
	CLI_NOCONFIG = 1 << 2,  /* command line only (actions, --config) */
	CLI_BRIEF = 1 << 3,     /* shown by --help (the others by --help-all only) */
};

struct cli_option {
	const char *name;       /* long name, also the config key */
	int short_name;         /* letter, or 0 */
	enum cli_type type;
	size_t offset;          /* into struct settings */
	const char *def;        /* default as typed by a user */
	double min, max;        /* numeric range */
	unsigned flags;         /* enum cli_flags */
	const char *arg;        /* placeholder in --help: N, X, FILE */
	const char *section;    /* --help heading */
	const char *help;       /* one line, no trailing period */
	const char *const *choices; /* CLI_ENUM names, NULL-terminated */
};

enum cli_result {
	CLI_NOMEM = -2,        /* out of memory (err says so); exit 1 */
	CLI_ERROR = -1,        /* err holds the message; exit 2 */
	CLI_RUN = 0,
	CLI_HELP,
	CLI_HELP_ALL,
	CLI_COMPLETION,        /* s->completion names the shell */
	CLI_VERSION,
	CLI_PRINT_CONFIG,
	CLI_LIST_OPTIONS,      /* --list-options */
	CLI_LIST_MODELS,       /* --list-models */
	CLI_LIST_CODECS,       /* --list-codecs */
};

/* The option table and its length. */
const struct cli_option *cli_options(size_t *count);

/* Looks an option up by long name; NULL when there is none. */
const struct cli_option *cli_find(const char *name);

/*
 * Fills s from defaults, config files and argv.  Returns an enum cli_result;
 * on CLI_ERROR and CLI_NOMEM err holds one line (no "boids:" prefix, no
 * newline).
 * The strings in s are malloc'ed: cli_release() frees them.
 */
int cli_parse(struct settings *s, int argc, char **argv, char *err, size_t errlen);

/* Was option `name` set?  0 no, 1 by a config file, 2 on the command line. */
int cli_given(const struct settings *s, const char *name);

/* Writes option o's value in s as a user would type it into buf. */
void cli_format_value(const struct settings *s, const struct cli_option *o, char *buf, size_t len);

/*
 * Writes --help: usage, the CLI_BRIEF options (all of them when `all`, for
 * --help-all) each with its default, exit status.  Every line fits in 80
 * columns; a brief option takes one line.
 */
void cli_print_help(FILE *f, int all);

/* Writes the settings as a config file that reproduces them. */
void cli_print_config(FILE *f, const struct settings *s);

/*
 * Writes every option as one JSON object, for scripts (scripts/sweep):
 *   {"program": "boids", "version": "1.0.0", "options": [
 *     {"name": "frames", "short": "f", "takes_value": true, "type": "integer",
 *      "config_key": true, "default": "300", "choices": null,
 *      "group": "Run and output", "help": "..."}, ...]}
 * type is integer, unsigned, number, size, string, choice (see choices),
 * color, flag, circles (repeatable X,Y,R), target or action; config_key
 * says whether a config file accepts it.
 */
void cli_print_options_json(FILE *f);

/* Writes --list-models: one line per model, its name and what it is. */
void cli_print_models(FILE *f);

/* Frees the strings in s. */
void cli_release(struct settings *s);

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
