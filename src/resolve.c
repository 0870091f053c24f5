/*
 * resolve — what depends on several settings, worked out once every
 * setting is read (cli_resolve(), called by cli_parse()): the model's
 * look and its program's defaults, --opengl's and --quality's, the checks
 * between options, and what the modules read but nobody types.
 * include/resolve.h.
 */
#include "resolve.h"

#include <math.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "caption.h"
#include "model.h"
#include "options_int.h"
#include "sim.h"
#include "traj_h5.h"
#include "trajout.h"
#include "values.h"

/*
 * What depends on several settings is worked out in one step, cli_resolve(),
 * once the defaults, the config files and the command line are read:
 *
 *   model_defaults()   --look for this model, the look's drawing settings and
 *                      the model's program's values (its registry entry's
 *                      look, original_look, program_defaults), for what was
 *                      not given
 *   opengl_look()      --opengl's extras, for what was not given
 *   quality_defaults() --quality draft's half-size picture
 *   check_across()     the checks between options; --duration into frames;
 *                      --no-render against --output
 *   check_names()      --trajectory and --init name a format (trajout.h)
 *   frame_steps()      the steps a frame makes: --substeps, or
 *                      --steps-per-second / --fps (a fraction)
 *   init_field()       --init from an HDF5 file: the field it was written in,
 *                      for a --field not given
 *   fit_field()        the picture size (-s x --scale); with --field the
 *                      field apart from it, fitted into it (scale, offset)
 *   link_modules()     what the modules read but nobody types: the seeds of the noises, the
 *                      obstacle lists they borrow, the target's centre and
 *                      the radii --show-ranges draws (the entry's ranges()),
 *                      the settings a --caption may name and their values
 *                      (caption_fields(): the caption knows no command line),
 *                      and run.user: which options main's later decisions
 *                      depend on were given (nothing else asks by name)
 */

/* ----------------------------------------------------------- caption fields */

/*
 * What a --caption may name: every setting (the table's rows but the
 * actions), by its option name, with its value as --print-config writes it
 * (values.c).  The caption reads them through this table, so that it knows
 * no command line.  Listed once, at the first resolve step.
 */
static const char *field_names[CLI_NOPTS];
static size_t field_rows[CLI_NOPTS];
static pthread_once_t fields_once = PTHREAD_ONCE_INIT;

static void field_value(const struct config *c, size_t i, char *buf, size_t len)
{
	cli_format_value(c, &cli_table[field_rows[i]], buf, len);
}

static struct caption_fields fields = { field_names, 0, field_value };

static void list_fields(void)
{
	for (size_t i = 0; i < CLI_NOPTS; i++) {
		if (cli_table[i].type == CLI_ACTION)
			continue;
		field_rows[fields.n] = i;
		field_names[fields.n++] = cli_table[i].name;
	}
}

static const struct caption_fields *caption_fields(void)
{
	pthread_once(&fields_once, list_fields);
	return &fields;
}

/* ------------------------------------------------------------------ resolve */

/* Sets option `name` to `value`, as typed, unless the user set it. */
static int fill_in(struct config *c, const char *name, const char *value, char *err, size_t errlen)
{
	const struct cli_option *o = cli_find(name); /* a look's or a model's list: data, by name */

	if (!o || cli_given(c, (enum cli_id)cli_index(o)))
		return 0;
	return cli_set_value(c, o, value, err, errlen);
}

/* fill_in() for each "key=value" of a NULL-terminated list. */
static int fill_in_list(struct config *c, const char *const *kv, char *err, size_t errlen)
{
	for (int e = 0; *kv; kv++) {
		char key[64];
		const char *eq = strchr(*kv, '=');
		snprintf(key, sizeof(key), "%.*s", (int)(eq - *kv), *kv);
		if ((e = fill_in(c, key, eq + 1, err, errlen)) != 0)
			return e;
	}
	return 0;
}

/* The drawing settings of a look ("key=value"), NULL-terminated. */
static const char *const *look_settings(enum run_look look)
{
	static const char *const none[] = { NULL };
	static const char *const harden_windows[] = {
		"size=584x361",      /* the window's field */
		"outline=final",     /* the final code's */
		"pixel-grid=gdi",
		"warmup=1",          /* advance, then paint */
		NULL };
	static const char *const canvas_article[] = {
		"shape=triangle", "paint=stroke", "boid-color=red", "background=white",
		"background-style=noise", NULL };
	static const char *const vicsek_paper[] = { /* "a small arrow ... the last 20 time steps" */
		"shape=arrow", "boid-size=0.04", "boid-color=black", "background=white", "trail=20", NULL };
	static const char *const netlogo[] = {
		"size=497x497",      /* the model's view: 71 patches of 7 px */
		"shape=turtle", "background=black",
		"boid-color=#eded2f", "color-by=shade", /* yellow - 2 + random 7 */
		NULL };

	return look == RUN_LOOK_HARDEN_WINDOWS ? harden_windows :
	       look == RUN_LOOK_CANVAS_ARTICLE ? canvas_article :
	       look == RUN_LOOK_VICSEK_PAPER ? vicsek_paper :
	       look == RUN_LOOK_NETLOGO ? netlogo : none;
}

/*
 * Everything that depends on the model, for the settings the user did not
 * give: which look "model" and "original" mean for it, then that look's
 * settings, then the values of the model's program (docs/MODEL.md,
 * "Defaults: the program's").  The table's defaults are the C# article's,
 * so harden changes nothing but the look.
 */
static int model_defaults(struct config *c, char *err, size_t errlen)
{
	const struct boids_model *m = c->sim.model;
	enum run_look look = c->run.look;
	const char *name = look == RUN_LOOK_ORIGINAL && m->original_look ? m->original_look :
	                   look == RUN_LOOK_ORIGINAL || look == RUN_LOOK_MODEL ? m->look : NULL;
	int e;

	if (name) /* the model's own look */
		(void)cli_parse_enum(&cli_table[OPT_LOOK], name, (int *)&look, err, errlen);
	c->run.look_used = look;
	if ((e = fill_in_list(c, look_settings(look), err, errlen)) != 0)
		return e;
	e = fill_in_list(c, m->program_defaults, err, errlen);
	if (!e && m->scene)
		e = fill_in_list(c, m->scene(&c->sim), err, errlen);
	/* an open space with nothing to bound it: the picture follows the flock */
	if (!e && (m->flags & MODEL_OPEN) && c->sim.edges == SIM_EDGES_NONE && !cli_given(c, OPT_VIEW) &&
	    !cli_given(c, OPT_VIEW_END))
		e = fill_in(c, "follow", "yes", err, errlen);
	if (!e && m->step_seconds && !cli_given(c, OPT_SUBSTEPS)) {
		/* a program stepping in real time (canvas: 60 times a second): 1/(dt fps) steps a frame */
		double k = round(1 / (m->step_seconds(&c->sim) * rate_hz(c->run.fps)));
		c->run.substeps = k < 1 ? 1 : k > 1000 ? 1000 : (long)k;
	}
	return e;
}

/*
 * A model studied at a density (its entry's density_option, rho > 0): the
 * field is a square of side sqrt(N / rho) for the flock's N (a cube,
 * cbrt, in 3D), or, for a --field given, the flock is rho times its area
 * (volume), rounded.  --boids and --field both given must agree with it
 * (as --print-config writes them).
 */
static int density_scene(struct config *c, char *err, size_t errlen)
{
	const char *name = c->sim.model->density_option;
	const struct cli_option *o = name ? cli_find(name) : NULL;
	double rho = o ? *(const double *)(const void *)((const char *)c + o->offset) : 0;
	double *f = c->run.field;
	int d3 = c->sim.dims == 3;

	if (!(rho > 0))
		return 0;
	if (cli_given(c, OPT_FIELD)) {
		double deep = f[2] > 0 ? f[2] : cli_given(c, OPT_DEPTH) && c->sim.depth > 0 ? c->sim.depth : fmin(f[0], f[1]);
		double n = round(rho * f[0] * f[1] * (d3 ? deep : 1));
		if (!(n >= 1 && n <= (double)CLI_MAX_BOIDS))
			return cli_errf(err, errlen, "--%s: %g a unit %s in --field %gx%g%s is %.0f boids (expected 1 to %ld)",
			                name, rho, d3 ? "volume" : "area", f[0], f[1], d3 ? " (and its depth)" : "", n,
			                CLI_MAX_BOIDS);
		if (cli_given(c, OPT_BOIDS) && (double)c->run.boids != n)
			return cli_errf(err, errlen, "--%s %g and --field %gx%g%s make %.0f boids, not --boids %zu: "
			                "give two of the three", name, rho, f[0], f[1], d3 ? " (and its depth)" : "", n,
			                c->run.boids);
		c->run.boids = (size_t)n;
		return 0;
	}
	double n = (double)c->run.boids, side = d3 ? cbrt(n / rho) : sqrt(n / rho);
	if (!(side >= 1 && side <= (double)CLI_MAX_SPAN))
		return cli_errf(err, errlen, "--%s: %.0f boids at %g a unit %s need a field of %g a side (expected 1 to %ld)",
		                name, n, rho, d3 ? "volume" : "area", side, CLI_MAX_SPAN);
	f[0] = f[1] = side;
	f[2] = d3 ? side : 0;
	return 0;
}

/* --opengl: the OpenGL version's look fills in what was not set. */
static int opengl_look(struct config *c, char *err, size_t errlen)
{
	static const char *const extras[] = { "trail=20", "predator-color=#ffff00", "predator-size=1.5", NULL };

	return c->run.opengl ? fill_in_list(c, extras, err, errlen) : 0;
}

/* A Z (an --obstacle X,Y,Z,R, a --target X,Y,Z) needs a box: --dims 3. */
static int check_depths(const struct config *c, char *err, size_t errlen)
{
	if (c->sim.dims == 3)
		return 0;
	for (size_t i = 0; i < c->run.obstacles_n; i++)
		if (!isnan(c->run.obstacles[i].z))
			return cli_errf(err, errlen, "--obstacle: %.17g,%.17g,%.17g,%.17g has a Z: give X,Y,R, or --dims 3",
			            c->run.obstacles[i].x, c->run.obstacles[i].y, c->run.obstacles[i].z,
			            c->run.obstacles[i].r);
	if (c->sim.target_mode == SIM_TARGET_FIXED && !isnan(c->sim.target_z))
		return cli_errf(err, errlen, "--target: %.17g,%.17g,%.17g has a Z: give X,Y, or --dims 3",
		            c->sim.target_x, c->sim.target_y, c->sim.target_z);
	return 0;
}

/*
 * Options that mean something only with another (the trajectory's with
 * --trajectory, --init-frame with --init) are refused without it, whatever
 * their value.  Without it means: not set (an empty name) where the option
 * was given or above: a config file that --print-config wrote names every
 * key, the empty `trajectory =` with `trajectory-every = 1`, and reads back;
 * `--trajectory-every 1` on the command line without a trajectory is refused.
 */
static int check_needs(const struct config *c, char *err, size_t errlen)
{
	static const struct { enum cli_id opt, needs; const char *what; } needs[] = {
		{ OPT_INIT_FRAME, OPT_INIT, "there is no --init to start from" },
		{ OPT_TRAJECTORY_EVERY, OPT_TRAJECTORY, "there is no --trajectory to write" },
		{ OPT_TRAJECTORY_PRECISION, OPT_TRAJECTORY, "there is no --trajectory to write" },
		{ OPT_TRAJECTORY_COMPRESS, OPT_TRAJECTORY, "there is no --trajectory to write" },
		{ OPT_TRAJECTORY_PREDATOR, OPT_TRAJECTORY, "there is no --trajectory to write" },
	};
	for (size_t i = 0; i < sizeof needs / sizeof *needs; i++) {
		const char *other = cli_string(c, needs[i].needs); /* its row says where it is stored */
		if ((!other || !*other) && cli_given(c, needs[i].opt) > cli_given(c, needs[i].needs))
			return cli_errf(err, errlen, "--%s: %s", cli_table[needs[i].opt].name, needs[i].what);
	}
	return 0;
}

/* The checks between options, and the settings one option gives another. */
static int check_across(struct config *c, char *err, size_t errlen)
{
	struct run_options *run = &c->run;

	if (check_needs(c, err, errlen) != 0)
		return -1;
	if (c->sim.gl.speed_min > c->sim.gl.speed_max)
		return cli_errf(err, errlen, "--gl-speed-min (%g) must not be above --gl-speed-max (%g)",
		            c->sim.gl.speed_min, c->sim.gl.speed_max);
	if (c->sim.harden.min_speed > c->sim.harden.max_speed)
		return cli_errf(err, errlen, "--min-speed (%g) must not be above --max-speed (%g)",
		            c->sim.harden.min_speed, c->sim.harden.max_speed);
	if (check_depths(c, err, errlen) != 0)
		return -1;
	/* --frames and --duration: the command line wins over a file; both from
	 * the same place contradict each other. */
	int gd = cli_given(c, OPT_DURATION), gf = cli_given(c, OPT_FRAMES);
	if (gd && gf && run->duration > 0) {
		if (gd == gf)
			return cli_errf(err, errlen, "--frames and --duration contradict each other: give one");
		if (gf > gd)
			run->duration = -1;
	}
	if (run->duration > 0) {
		double f = round(run->duration * rate_hz(run->fps));
		if (f < 1 || f > CLI_MAX_FRAMES)
			return cli_errf(err, errlen, "--duration: %g s at %.10g fps is %.0f frames (expected 1 to %ld)",
			            run->duration, rate_hz(run->fps), f, CLI_MAX_FRAMES);
		run->frames = (long)f;
		run->duration = -1; /* resolved: --print-config shows frames */
	}
	/* --no-render and --output: the command line wins over a file, and a
	 * file that has both (--print-config writes every key) means no render.
	 * Both on the command line stay a contradiction (main refuses it). */
	int gn = cli_given(c, OPT_NO_RENDER), go = cli_given(c, OPT_OUTPUT);
	if (run->no_render && go && gn != go) {
		if (gn > go)
			run->given[OPT_OUTPUT] = 0;
		else
			run->no_render = 0;
	} else if (run->no_render && go == 1 && gn == 1) {
		run->given[OPT_OUTPUT] = 0;
	}
	if (!run->output && !run->no_render)
		return cli_errf(err, errlen, "--output: needs a file name, a PNG pattern or -");
	double pw = round(c->sim.width * c->render.scale), ph = round(c->sim.height * c->render.scale);
	if (!run->no_render && (pw > CLI_MAX_PICTURE || ph > CLI_MAX_PICTURE || pw < 1 || ph < 1))
		return cli_errf(err, errlen, "--scale: %.0fx%.0f at scale %g is a %.0fx%.0f picture (each side from 1 to %ld)",
		            c->sim.width, c->sim.height, c->render.scale, pw, ph, CLI_MAX_PICTURE);
	return 0;
}

/*
 * --field: the flock flies in the field, -s (times --scale) is the picture,
 * and the field is drawn fitted into it: scaled by the smaller of the two
 * ratios and centred (in 3D the camera frames the box, so only the scale
 * changes).  Without --field, -s is the field and the picture is -s x
 * --scale, as always.  Sets the picture size, sim's field, render's scale
 * and offset (keeping -s and --scale as typed for --print-config); 0 or -1
 * (err says why).
 */
static int fit_field(struct config *c, char *err, size_t errlen)
{
	const double *f = c->run.field;
	double pw = round(c->sim.width * c->render.scale), ph = round(c->sim.height * c->render.scale);

	c->render.width = (int)pw;
	c->render.height = (int)ph;
	c->render.offset[0] = c->render.offset[1] = 0;
	if (!(f[0] > 0))
		return 0;
	if (f[2] > 0 && c->sim.dims != 3)
		return cli_errf(err, errlen, "--field: %gx%gx%g has a depth: give WxH, or --dims 3",
		                f[0], f[1], f[2]);
	if (f[2] > 0 && cli_given(c, OPT_DEPTH) && c->sim.depth != f[2])
		return cli_errf(err, errlen, "--field (depth %g) and --depth (%g) contradict each other: give one",
		                f[2], c->sim.depth);
	c->run.typed_size[0] = c->sim.width;
	c->run.typed_size[1] = c->sim.height;
	c->run.typed_scale = c->render.scale;
	c->sim.width = f[0];
	c->sim.height = f[1];
	if (f[2] > 0)
		c->sim.depth = f[2];
	double fit = fmin(pw / f[0], ph / f[1]);
	c->render.scale = fit;
	c->render.trail_width = 1 / fit; /* a picture pixel, whatever the field */
	if (c->sim.dims != 3) {
		c->render.offset[0] = (pw - f[0] * fit) / 2;
		c->render.offset[1] = (ph - f[1] * fit) / 2;
	}
	return 0;
}

/*
 * --init from an HDF5 file and no --field: the run goes on in the field the
 * file was written in (its `field` attribute), as if given as --field, so
 * -s is the picture it is drawn into; its depth too, unless --depth or
 * --dims 2 says otherwise.  A file that cannot say (a CSV, a FIFO, no such
 * file, no HDF5 plugin, no attribute) leaves the field to -s, as before;
 * reading --init later says what is wrong with the file, if anything.  0
 * or -1 (err says why: a field --field could not take).
 */
static int init_field(struct config *c, char *err, size_t errlen)
{
	const char *path = c->run.init;
	struct stat sb;
	double f[3];
	int k;

	if (!path || !*path || cli_given(c, OPT_FIELD) || trajout_format_of(path) != TRAJOUT_HDF5 ||
	    stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || traj_h5_ready(NULL, 0) != 0 ||
	    (k = traj_h5_field(path, f)) < 2)
		return 0;
	if (k == 3 && (cli_given(c, OPT_DEPTH) || (cli_given(c, OPT_DIMS) && c->sim.dims != 3)))
		k = 2;
	char v[96];
	int len = 0;
	for (int i = 0; i < k; i++) {
		if (!(f[i] >= 1 && f[i] <= (double)CLI_MAX_SPAN))
			return cli_errf(err, errlen, "--init: '%s' was written in a field of %g px a side, which "
			                "--field cannot take (1 to %ld): give --field",
			                CLI_CUT_PATH(path), f[i], CLI_MAX_SPAN);
		len += snprintf(v + len, sizeof v - (size_t)len, "%s%.17g", i ? "x" : "", f[i]); /* reads back exactly */
	}
	if (k == 3 && fill_in(c, "dims", "3", err, errlen) != 0)
		return -1;
	return fill_in(c, "field", v, err, errlen);
}

/* --trajectory and --init name one of the formats (or a stream): trajout_name_check(). */
static int check_names(const struct config *c, char *err, size_t errlen)
{
	const char *opt[] = { "--trajectory", "--init" }, *path[] = { c->run.trajectory, c->run.init };
	char why[256];

	for (int i = 0; i < 2; i++)
		if (path[i] && *path[i] && trajout_name_check(path[i], why, sizeof why) != 0)
			return cli_errf(err, errlen, "%s: '%s' %s", opt[i], CLI_CUT_PATH(path[i]), why);
	return 0;
}

static long gcd_of(long a, long b)
{
	while (b) {
		long t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/*
 * The steps a frame makes, as a fraction (run.step_num / run.step_den, the
 * producer's and tween.h's): --substeps, or --steps-per-second / --fps
 * when that is given (to a millionth of a step a second).  Both on the
 * command line contradict each other; from different places the command
 * line wins, and in one config file (--print-config writes both) the rate.
 * 0 or -1 (err says why).
 */
static int frame_steps(struct config *c, char *err, size_t errlen)
{
	struct run_options *run = &c->run;
	int gs = cli_given(c, OPT_SUBSTEPS), gr = cli_given(c, OPT_STEPS_PER_SECOND);

	if (gs == 2 && gr == 2 && run->steps_per_second > 0)
		return cli_errf(err, errlen, "--substeps and --steps-per-second contradict each other: give one");
	if (!(run->steps_per_second > 0) || gs > gr) {
		run->step_num = run->substeps;
		run->step_den = 1;
		return 0;
	}
	long num = (long)llround(run->steps_per_second * 1e6) * run->fps.den, den = 1000000L * run->fps.num;
	long g = gcd_of(num, den);
	run->step_num = num / g;
	run->step_den = den / g;
	if ((double)run->step_num > 1000.0 * (double)run->step_den)
		return cli_errf(err, errlen, "--steps-per-second: %g at %.10g fps is %.6g steps a frame (at most 1000)",
		                run->steps_per_second, rate_hz(run->fps),
		                (double)run->step_num / (double)run->step_den);
	return 0;
}

/* What the modules read that nobody types: each from the settings it follows. */
static void link_modules(struct config *c)
{
	struct run_options *run = &c->run;

	if (!(c->sim.depth > 0)) /* --depth 0: as deep as the field's smaller side */
		c->sim.depth = fmin(c->sim.width, c->sim.height);
	c->sim.noise_seed = run->seed;    /* processing's jitter */
	c->render.noise_seed = run->seed; /* the noise background's clouds */
	if (c->sim.target_mode != SIM_TARGET_FIXED) {
		c->sim.target_x = c->sim.width / 2; /* sim_target() draws it there */
		c->sim.target_y = c->sim.height / 2;
	}
	if (c->sim.target_mode != SIM_TARGET_FIXED || isnan(c->sim.target_z))
		c->sim.target_z = c->sim.depth / 2; /* X,Y: halfway in */
	for (size_t i = 0; i < run->obstacles_n; i++)
		if (isnan(run->obstacles[i].z))
			run->obstacles[i].z = c->sim.depth / 2; /* X,Y,R: halfway in */
	c->sim.obstacles = run->obstacles_n ? run->obstacles : NULL;
	c->sim.obstacles_n = run->obstacles_n;
	for (size_t i = 0; i < run->obstacles_n; i++)
		run->circles[i].z = run->obstacles[i].z; /* 3D: the spheres' centres */
	c->render.box[0] = c->sim.width; /* 3D: the camera looks at the flock's box */
	c->render.box[1] = c->sim.height;
	c->render.box[2] = c->sim.depth;
	c->render.camera.orbit_frames = run->frames; /* --camera orbit: one turn a clip */
	c->render.obstacles = run->obstacles_n ? run->circles : NULL;
	c->render.obstacles_n = run->obstacles_n;
	c->sim.model->ranges(&c->sim, &c->render.range_near, &c->render.range_far); /* --show-ranges */
	run->caption_fields = caption_fields(); /* what a --caption may name, and the values */
	/* what main decides later by whether the user set an option */
	run->user.picture_size = cli_given(c, OPT_SIZE) || cli_given(c, OPT_SCALE);
	run->user.output = cli_given(c, OPT_OUTPUT) != 0;
	run->user.dims = cli_given(c, OPT_DIMS) != 0;
	run->user.predators = cli_given(c, OPT_PREDATORS) != 0;
	run->user.encoder_threads = cli_given(c, OPT_ENCODER_THREADS) != 0;
}

/*
 * --quality draft also halves the picture (the encoder's part is video.c's:
 * crf, preset, pixel format where the user set none).
 */
static int quality_defaults(struct config *c, char *err, size_t errlen)
{
	return c->video.quality == VIDEO_QUALITY_DRAFT ? fill_in(c, "scale", "0.5", err, errlen) : 0;
}

/* The resolve step: see the top of this section.  0 or -1 (err says why). */
int cli_resolve(struct config *c, char *err, size_t errlen)
{
	if (model_defaults(c, err, errlen) != 0 || density_scene(c, err, errlen) != 0 ||
	    opengl_look(c, err, errlen) != 0 ||
	    quality_defaults(c, err, errlen) != 0 ||
	    check_across(c, err, errlen) != 0 || check_names(c, err, errlen) != 0 ||
	    frame_steps(c, err, errlen) != 0 ||
	    init_field(c, err, errlen) != 0 ||
	    fit_field(c, err, errlen) != 0)
		return -1;
	link_modules(c);
	if (camera_check(&c->render.camera, c->render.box) != 0)
		return cli_errf(err, errlen, "--camera: the camera stands where it looks (give another point, or TX,TY,TZ)");
	if (c->run.caption && caption_check(c->run.caption, c->run.caption_fields, err, errlen) != 0)
		return -1;
	return 0;
}

/* ---------------------------------------------------------------- crowding */

/* The value of `key` in a list of "key=value" (a model's program_defaults or scene), or NULL. */
static const char *list_value(const char *const *kv, const char *key)
{
	size_t n = strlen(key);

	for (; kv && *kv; kv++)
		if (strncmp(*kv, key, n) == 0 && (*kv)[n] == '=')
			return *kv + n + 1;
	return NULL;
}

/* The list's numbers for the model's own parameters ("abm-vision=15") into d, a
 * struct sim_params as the option table places it in struct config. */
static void list_params(const char *const *kv, struct sim_params *d)
{
	size_t at = offsetof(struct config, sim);

	for (; kv && *kv; kv++) {
		char key[64];
		const char *eq = strchr(*kv, '=');
		snprintf(key, sizeof key, "%.*s", (int)(eq - *kv), *kv);
		const struct cli_option *o = cli_find(key);
		if (o && o->type == CLI_DOUBLE && o->offset >= at && o->offset + sizeof(double) <= at + sizeof(*d))
			*(double *)(void *)((char *)d + (o->offset - at)) = strtod(eq + 1, NULL);
	}
}

/*
 * The neighbours per boid of the model's default scene, in the run's
 * dimensions: its program's boids (the table's default otherwise) in its
 * program's field or picture (the default picture otherwise), with its
 * radii; a scene that depends on the model's settings (abm's --abm-size)
 * is the one they pick.
 */
static double default_neighbours(const struct config *c)
{
	const struct boids_model *m = c->sim.model;
	const char *const *scene = m->scene ? m->scene(&c->sim) : NULL;
	const char *boids = list_value(scene, "boids"), *size = list_value(scene, "field");
	double w = CLI_DEFAULT_WIDTH, h = CLI_DEFAULT_HEIGHT;
	struct sim_params d;

	if (!boids)
		boids = list_value(m->program_defaults, "boids");
	if (!size)
		size = list_value(m->program_defaults, "field");
	if (!size)
		size = list_value(m->program_defaults, "size");
	if (size)
		(void)sscanf(size, "%lfx%lf", &w, &h);
	sim_params_default(&d, w, h);
	d.model = m;
	d.dims = c->sim.dims;
	list_params(m->program_defaults, &d);
	list_params(scene, &d);
	return sim_neighbours(&d, (size_t)strtoul(boids ? boids : cli_table[OPT_BOIDS].def, NULL, 10));
}

int cli_crowding(const struct config *c, char *msg, size_t len)
{
	const struct sim_params *p = &c->sim;
	double base = default_neighbours(c), nb = sim_neighbours(p, c->run.boids);
	int d3 = p->dims == 3;

	if (!(base > 0) || nb <= CLI_CROWD_FACTOR * base)
		return 0;
	/* the field, grown alike on every side, whose spread flock sees `base` neighbours */
	double near, far;
	p->model->ranges(p, &near, &far);
	double r = fmax(near, far), others = (double)(c->run.boids - 1);
	double room = d3 ? others * 4.0 / 3 * M_PI * r * r * r / base : others * M_PI * r * r / base;
	double k = d3 ? cbrt(room / (p->width * p->height * p->depth)) : sqrt(room / (p->width * p->height));
	double fw = fmin(ceil(p->width * k), CLI_MAX_SPAN), fh = fmin(ceil(p->height * k), CLI_MAX_SPAN);
	char now[96], want[96];
	if (d3) {
		snprintf(now, sizeof now, "%.0fx%.0fx%.0f", p->width, p->height, p->depth);
		snprintf(want, sizeof want, "%.0fx%.0fx%.0f", fw, fh, fmin(ceil(p->depth * k), CLI_MAX_SPAN));
	} else {
		snprintf(now, sizeof now, "%.0fx%.0f", p->width, p->height);
		snprintf(want, sizeof want, "%.0fx%.0f", fw, fh);
	}
	snprintf(msg, len, "%zu boids in a %s field see about %.0f neighbours each, %.*fx the density "
	         "of %s's default scene (%.2g): the field, not the picture, sets the density; "
	         "--field %s gives the default density", c->run.boids, now, nb, nb / base < 10 ? 1 : 0,
	         nb / base, p->model->name, base, want);
	return 1;
}
