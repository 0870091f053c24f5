/*
 * config — every setting of a run, in the structs of the modules that use
 * them.
 *
 * struct config is what cli_parse() fills: one part per consumer, each in
 * that module's own types (sim's enums and size_t counts, render's enums,
 * video's options), so that a module is handed its part as it is and no
 * setting is ever copied from one struct into another.  What belongs to
 * no library module (how many frames, which files, how loud) is the run's:
 * struct run_options, read by main.
 *
 * Every field below that has an option is written only through the option
 * table in src/options.c (one row: name, type, range, default, units, help,
 * group); the fields without one are the modules' own defaults
 * (sim_params_default(), render_params_default(), video_options_default())
 * or are set by cli_resolve() from several settings (see include/cli.h).
 * docs/ARCHITECTURE.md, "Settings", walks through adding one.
 */
#ifndef BOIDS_CONFIG_H
#define BOIDS_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "rate.h"
#include "render.h"
#include "sim_types.h"
#include "video_options.h"

#define CONFIG_MAX_OBSTACLES 64
#define CONFIG_MAX_OPTIONS 224 /* rows of the option table (options.c checks) */

/* --progress: how the run reports while it works. */
enum run_progress {
	RUN_PROGRESS_AUTO,    /* a bar on a terminal unless -q, else nothing */
	RUN_PROGRESS_ALWAYS,  /* a bar on a terminal, else lines */
	RUN_PROGRESS_NEVER,
	RUN_PROGRESS_LINES,   /* a line every progress_interval seconds */
	RUN_PROGRESS_JSON,    /* the same as JSON objects */
};

/* --look: a preset of drawing settings (and the harden window's field). */
enum run_look {
	RUN_LOOK_MODEL,          /* the model's own look (canvas: canvas-article) */
	RUN_LOOK_ORIGINAL,       /* as its author's program showed it */
	RUN_LOOK_HARDEN_WINDOWS, /* the C# window: 584x361, final outline, GDI+ grid */
	RUN_LOOK_CANVAS_ARTICLE, /* red stroked triangles on white noise */
	RUN_LOOK_VICSEK_PAPER,   /* the PRL's figures: black arrows, their last 20 steps, on white */
	RUN_LOOK_NETLOGO,        /* NetLogo's view: 7 px patches, yellow turtles on black */
};

/* --caption-pos: where the caption sits, a corner or the middle of the top or bottom edge. */
enum caption_pos {
	CAPTION_BOTTOM_LEFT, CAPTION_BOTTOM, CAPTION_BOTTOM_RIGHT,
	CAPTION_TOP_LEFT, CAPTION_TOP, CAPTION_TOP_RIGHT,
};

struct caption_fields;

/* What belongs to the run rather than to a module; main reads it. */
struct run_options {
	size_t boids;           /* flock size [1..CLI_MAX_BOIDS] */
	uint64_t seed;          /* initial flock, processing's noise, the noise background */
	long warmup;            /* steps before frame 0 */
	long substeps;          /* steps per frame [1..1000] */
	double steps_per_second; /* flock steps a second of video; below 0.001: auto (fps x substeps) */
	long step_num, step_den; /* set by cli_resolve(): steps a frame, num/den reduced (tween.h) */
	long threads;           /* worker threads [1..256]; 0: one per core */
	long frames;            /* frames to write; --duration resolved into it */
	double duration;        /* seconds; -1: not given (frames rules); -1 after cli_resolve() */
	long poster;            /* frame a still -o NAME.png holds; -1: the last */
	struct rate fps;        /* frames per second [1..1000], as the fraction it is (rate.h) */
	char *output;           /* video file, PNG pattern or "-"; NULL with no_render */
	char *trajectory;       /* CSV (.csv, .csv.gz, .csv.zst) or HDF5 (.h5), or NULL */
	long traj_every;        /* write every K-th frame of the trajectory [1..] (1) */
	int traj_single;        /* HDF5: float32 instead of float64 (no) */
	long traj_compress;     /* compression level; -1 auto: none for HDF5, gzip 6, zstd 3 */
	int traj_predator;      /* CSV: the predator column (no) */
	char *init;             /* trajectory to start from, or NULL */
	long init_frame;        /* the frame of --init to start from; -1: its last (-1) */
	char *metrics;          /* per-frame flock metrics CSV, or NULL */
	char *summary;          /* run summary JSON ("-": stdout), or NULL */
	int overwrite;          /* -y: replace existing files */
	int no_render;          /* simulate only */
	int quiet;              /* no progress, no closing line */
	int verbose;            /* say the thread counts and the output chosen, on stderr */
	enum run_progress progress;
	double progress_interval; /* seconds between progress lines */
	long trail;             /* positions drawn behind each boid; 0: none */
	char *caption;          /* --caption's text with its {fields}, or NULL */
	enum caption_pos caption_pos;
	double caption_size;    /* text height, picture pixels; below 4: auto (height / 24, >= 12) */
	const struct caption_fields *caption_fields; /* set by cli_resolve(): the settings a caption
	                         * may name and their values (caption.h) */
	long start_number;      /* number of the first PNG of a sequence */
	long png_level;         /* zlib level 0..9 */
	enum run_look look;     /* as given; look_used is what was applied */
	enum run_look look_used; /* set by cli_resolve(): model/original resolved */
	int opengl;             /* the OpenGL version's look extras */
	struct sim_obstacle obstacles[CONFIG_MAX_OBSTACLES]; /* --obstacle, for the flock */
	struct render_circle circles[CONFIG_MAX_OBSTACLES];  /* the same circles, for drawing */
	size_t obstacles_n;     /* circles in both lists */
	double field[3];        /* --field WxH[xD], px [1..CLI_MAX_SPAN]; field[0] 0: not given,
	                         * the field is -s (then drawn at --scale) */
	double typed_size[2];   /* with --field: -s as given (sim.width is the field's) */
	double typed_scale;     /* with --field: --scale as given (render.scale is the fit) */
	double view[3];         /* --view CX,CY,W: the window the first frame shows, field px;
	                         * W 0: the whole field (view.h) */
	double view_end[3];     /* --view-end: the last frame's; W 0: none (the view stays) */
	int follow;             /* --follow: the window's centre on the largest cluster (a model's
	                         * program_defaults may set it: "follow=yes") */

	/* set by cli_resolve(): which settings the user gave, for what main
	 * decides later (an --init file's flock, the encoder's sizes, -v) */
	struct run_user {
		int picture_size;    /* --size or --scale: the picture's size is the user's */
		int output;          /* --output, not overruled by --no-render */
		int dims;            /* --dims */
		int predators;       /* --predators */
		int encoder_threads; /* --encoder-threads */
	} user;

	const char **configs;   /* every --config FILE read, in order (into argv; the array
	                         * is malloc'ed): inputs no output may land on */
	size_t configs_n;

	/* cli's bookkeeping */
	const char *completion; /* --completion SHELL (points into argv) */
	const char *check_configs; /* --check-configs FILE (points into argv) */
	const char *config_dir; /* --config-dir DIR (points into argv) */
	unsigned char given[CONFIG_MAX_OPTIONS]; /* per table row: 0 default, 1 config file,
	                                          * 2 command line (the resolve step's) */
};

/*
 * The whole configuration.  After cli_resolve(), sim.obstacles and
 * render.obstacles point into run: a struct config is used where it was
 * filled, never copied.
 */
struct config {
	struct sim_params sim;
	struct render_params render;
	struct video_options video;
	struct run_options run;
};

#endif
