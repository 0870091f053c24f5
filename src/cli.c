/*
 * cli — options, config files, validation and help; see include/cli.h.
 *
 * Everything about an option lives in one row of `options[]` below: its
 * name, type and the field of struct config it fills (AT() checks the
 * field's C type), default, range, placeholder, units, group and help
 * line.  Parsing (getopt_long), config keys, --help, --print-config and
 * --list-options are all driven by that table; tests hold the man page and
 * docs/MODEL.md against the binary.  What depends on several settings is
 * the resolve step's (below).  To add an option: a field in the struct of
 * the module that reads it, a row here, and an entry in docs/boids.1
 * (docs/ARCHITECTURE.md, "Settings", has an example).
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
#include "sim.h"
#include "traj.h"

#define STR_(x) #x
#define STR(x) STR_(x)


/* The names of the CLI_ENUM rows' values, each with the value stored. */
#define END { NULL, 0 }
static const struct cli_choice edges_names[] = {
	{ "bounce", SIM_BOUNCE }, { "wrap", SIM_WRAP }, { "both", SIM_BOUNCE | SIM_WRAP },
	{ "none", SIM_EDGES_NONE }, END };
static const struct cli_choice update_names[] = {
	{ "sequential", SIM_SEQUENTIAL }, { "synchronous", SIM_SYNCHRONOUS }, END };
static const struct cli_choice shape_names[] = {
	{ "curve", RENDER_CURVE }, { "repo", RENDER_REPO }, { "polygon", RENDER_POLYGON },
	{ "triangle", RENDER_TRIANGLE }, { "arrow", RENDER_ARROW }, { "circle", RENDER_CIRCLE }, END };
static const struct cli_choice outline_names[] = {
	{ "listing", RENDER_OUTLINE_LISTING }, { "final", RENDER_OUTLINE_FINAL }, END };
static const struct cli_choice paint_names[] = { { "fill", RENDER_FILL }, { "stroke", RENDER_STROKE }, END };
static const struct cli_choice grid_names[] = { { "cairo", RENDER_GRID_CAIRO }, { "gdi", RENDER_GRID_GDI }, END };
static const struct cli_choice look_names[] = {
	{ "model", RUN_LOOK_MODEL }, { "original", RUN_LOOK_ORIGINAL },
	{ "harden-windows", RUN_LOOK_HARDEN_WINDOWS }, { "canvas-article", RUN_LOOK_CANVAS_ARTICLE }, END };
static const struct cli_choice separation_names[] = {
	{ "unit", SIM_SEP_UNIT }, { "inverse", SIM_SEP_INVERSE }, END };
static const struct cli_choice turn_names[] = { { "short", 0 }, { "steady", 1 }, END }; /* steer_steady_turn */
static const struct cli_choice trail_style_names[] = {
	{ "fade", RENDER_TRAIL_FADE }, { "opengl", RENDER_TRAIL_OPENGL }, END };
static const struct cli_choice gl_avoid_names[] = { { "own", 0 }, { "all", 1 }, END }; /* gl_avoid_all */
static const struct cli_choice aa_names[] = {
	{ "none", RENDER_AA_NONE }, { "fast", RENDER_AA_FAST }, { "good", RENDER_AA_GOOD },
	{ "best", RENDER_AA_BEST }, END };
static const struct cli_choice progress_names[] = {
	{ "auto", RUN_PROGRESS_AUTO }, { "always", RUN_PROGRESS_ALWAYS }, { "never", RUN_PROGRESS_NEVER },
	{ "lines", RUN_PROGRESS_LINES }, { "json", RUN_PROGRESS_JSON }, END };
static const struct cli_choice quality_names[] = {
	{ "draft", VIDEO_QUALITY_DRAFT }, { "web", VIDEO_QUALITY_WEB }, { "high", VIDEO_QUALITY_HIGH },
	{ "archive", VIDEO_QUALITY_ARCHIVE }, END };
static const struct cli_choice draw_names[] = {
	{ "exact", RENDER_DRAW_EXACT }, { "fast", RENDER_DRAW_FAST }, END };
static const struct cli_choice bg_names[] = { { "flat", RENDER_BG_FLAT }, { "noise", RENDER_BG_NOISE }, END };
static const struct cli_choice proc_limit_names[] = { { "length", 0 }, { "components", 1 }, END }; /* proc_limit_components */
/* A CLI_ENUM row writes an int: every enum it points at must be one. */
_Static_assert(sizeof(enum sim_update) == sizeof(int) && sizeof(enum sim_separation) == sizeof(int) &&
               sizeof(enum render_shape) == sizeof(int) &&
               sizeof(enum render_outline) == sizeof(int) && sizeof(enum render_paint) == sizeof(int) &&
               sizeof(enum render_grid) == sizeof(int) && sizeof(enum render_antialias) == sizeof(int) &&
               sizeof(enum render_trail_style) == sizeof(int) &&
               sizeof(enum render_background) == sizeof(int) && sizeof(enum run_look) == sizeof(int) &&
               sizeof(enum run_progress) == sizeof(int) && sizeof(enum video_quality) == sizeof(int) && sizeof(enum sim_target_mode) == sizeof(int) &&
               sizeof(enum render_draw) == sizeof(int),
               "an enum is not int-sized");

/*
 * Where a row's value goes: its type and its field in struct config.  AT()
 * refuses to compile unless the field has the C type the row's type writes,
 * so a row can never point at the wrong kind of field.
 */
#define AT(f, T) (offsetof(struct config, f) + 0 * sizeof(_Generic(&((struct config *)0)->f, T *: 1)))
#define T_LONG(f)     CLI_LONG, AT(f, long)
#define T_INT(f)      CLI_INT, AT(f, int)
#define T_COUNT(f)    CLI_COUNT, AT(f, size_t)
#define T_U64(f)      CLI_U64, AT(f, uint64_t)
#define T_DOUBLE(f)   CLI_DOUBLE, AT(f, double)
#define T_STRING(f)   CLI_STRING, AT(f, char *)
#define T_CSTRING(f)  CLI_STRING, AT(f, const char *) /* video's: cli_release() frees them */
#define T_ENUM(f, E)  CLI_ENUM, AT(f, E)
#define T_FLAG(f)     CLI_FLAG, AT(f, int)
#define T_COLOR(f)    CLI_COLOR, AT(f, uint32_t)
#define T_FIELD       CLI_FIELD, AT(sim.width, double)          /* and sim.height */
#define T_MODEL       CLI_MODEL, AT(sim.model, const struct boids_model *)
#define T_TARGET      CLI_TARGET, AT(sim.target_mode, enum sim_target_mode) /* and target_x, _y, _z */
#define T_CIRCLES     CLI_CIRCLES, offsetof(struct config, run.obstacles) /* and run.circles */
#define T_CAMERA      CLI_CAMERA, AT(render.camera, struct camera_setup)
#define T_ACTION      CLI_ACTION, 0

static const char S_MODEL[] = "Model (defaults are the C# article's)";
static const char S_MODELS[] = "Other models (docs/MODEL.md)";
static const char S_GL[] = "OpenGL model, -m opengl (its sliders at their start)";
static const char S_RUN[] = "Run and output";
static const char S_DRAW[] = "Drawing";
static const char S_VIDEO[] = "Video encoding";
static const char S_INFO[] = "Information";

#define BIG 1e300  /* "no bound" */
#define LIM 1e6    /* bound of model numbers: keeps every sum finite */

/* name, short, type and field, default, min, max, flags, arg, units, group, help, choices */
static const struct cli_option options[] = {
	{ "boids", 'n', T_COUNT(run.boids), "100", 1, CLI_MAX_BOIDS, CLI_BRIEF, "N", NULL, S_MODEL,
	  "number of boids, predators included", NULL },
	{ "size", 's', T_FIELD, "640x360", 1, CLI_MAX_FIELD, CLI_BRIEF, "WxH", "px", S_MODEL,
	  "field size", NULL },
	{ "dims", 0, T_INT(sim.dims), "2", 2, 3, CLI_BRIEF, "N", NULL, S_MODEL,
	  "2: a plane; 3: a box as deep as --depth", NULL },
	{ "depth", 0, T_DOUBLE(sim.depth), "0", 0, CLI_MAX_FIELD, 0, "D", "px", S_MODEL,
	  "3D: the box's depth (0: the smaller of width and height)", NULL },
	{ "seed", 0, T_U64(run.seed), "1", 0, 0, CLI_BRIEF, "N", NULL, S_MODEL,
	  "seed of the initial flock", NULL },
	{ "predators", 0, T_COUNT(sim.predators), "3", 0, CLI_MAX_BOIDS, CLI_BRIEF, "N", NULL, S_MODEL,
	  "the first N boids are predators", NULL },
	{ "edges", 0, T_ENUM(sim.edges, unsigned), "bounce", 0, 0, CLI_BRIEF, "MODE", NULL, S_MODEL,
	  "bounce, wrap, both or none", edges_names },
	{ "update", 0, T_ENUM(sim.update, enum sim_update), "sequential", 0, 0, 0, "MODE", NULL, S_MODEL,
	  "sequential (in place, as the original) or synchronous", update_names },
	{ "flock-radius", 0, T_DOUBLE(sim.flock_radius), "50", 0, LIM, CLI_GT_MIN, "R", "px", S_MODEL,
	  "cohesion: neighbours closer than R", NULL },
	{ "flock-weight", 0, T_DOUBLE(sim.flock_weight), "0.0003", -LIM, LIM, 0, "W", NULL, S_MODEL,
	  "cohesion: steer toward their centre, times W", NULL },
	{ "align-radius", 0, T_DOUBLE(sim.align_radius), "50", 0, LIM, CLI_GT_MIN, "R", "px", S_MODEL,
	  "alignment: neighbours closer than R", NULL },
	{ "align-weight", 0, T_DOUBLE(sim.align_weight), "0.01", -LIM, LIM, 0, "W", NULL, S_MODEL,
	  "alignment: match their mean velocity, times W", NULL },
	{ "avoid-radius", 0, T_DOUBLE(sim.avoid_radius), "20", 0, LIM, CLI_GT_MIN, "R", "px", S_MODEL,
	  "separation: boids closer than R", NULL },
	{ "avoid-weight", 0, T_DOUBLE(sim.avoid_weight), "0.001", -LIM, LIM, 0, "W", NULL, S_MODEL,
	  "separation: push away by closeness, times W", NULL },
	{ "predator-radius", 0, T_DOUBLE(sim.predator_radius), "150", 0, LIM, CLI_GT_MIN, "R", "px", S_MODEL,
	  "flee predators closer than R", NULL },
	{ "predator-weight", 0, T_DOUBLE(sim.predator_weight), "0.00005", -LIM, LIM, 0, "W", NULL, S_MODEL,
	  "flee predators by closeness, times W", NULL },
	{ "min-speed", 0, T_DOUBLE(sim.min_speed), "1", 0, LIM, 0, "V", "px/step", S_MODEL,
	  "slowest speed after a move", NULL },
	{ "max-speed", 0, T_DOUBLE(sim.max_speed), "5", 0, LIM, CLI_GT_MIN, "V", "px/step", S_MODEL,
	  "fastest speed after a move", NULL },
	{ "wall-pad", 0, T_DOUBLE(sim.wall_pad), "50", 0, LIM, 0, "D", "px", S_MODEL,
	  "bounce: margin along each edge", NULL },
	{ "wall-turn", 0, T_DOUBLE(sim.wall_turn), "0.5", 0, LIM, 0, "V", "px/step", S_MODEL,
	  "bounce: velocity change per step inside the margin", NULL },
	{ "warmup", 0, T_LONG(run.warmup), "0", 0, CLI_MAX_FRAMES, 0, "N", NULL, S_MODEL,
	  "steps simulated before frame 0", NULL },
	{ "substeps", 0, T_LONG(run.substeps), "1", 1, 1000, 0, "N", NULL, S_MODEL,
	  "steps per frame", NULL },
	{ "threads", 0, T_LONG(run.threads), "auto", 1, 256, CLI_AUTO, "N", NULL, S_MODEL,
	  "worker threads (auto: one per core); never changes the output", NULL },

	{ "model", 'm', T_MODEL, "harden", 0, 0, CLI_BRIEF, "NAME", NULL, S_MODELS,
	  "harden, processing, steering, canvas, opengl", NULL },
	{ "target", 0, T_TARGET, "lissajous", 0, 0, CLI_BRIEF, "WHERE", NULL, S_MODELS,
	  "steering target: lissajous, none, X,Y[,Z]", NULL },
	{ "obstacle-margin", 0, T_DOUBLE(sim.obstacle_margin), "30", 0, LIM, 0, "D", "px", S_MODELS,
	  "obstacles: push starts D outside a circle", NULL },
	{ "obstacle-weight", 0, T_DOUBLE(sim.obstacle_weight), "0.2", 0, LIM, 0, "W", NULL, S_MODELS,
	  "obstacles: push per pixel of depth, times W", NULL },
	{ "target-amp-x", 0, T_DOUBLE(sim.target_amp_x), "0.3", 0, 0.5, 0, "F", NULL, S_MODELS,
	  "lissajous target: x amplitude, fraction of the width", NULL },
	{ "target-amp-y", 0, T_DOUBLE(sim.target_amp_y), "0.3", 0, 0.5, 0, "F", NULL, S_MODELS,
	  "lissajous target: y amplitude, fraction of the height", NULL },
	{ "target-freq-x", 0, T_DOUBLE(sim.target_freq_x), "3", 0, LIM, 0, "N", NULL, S_MODELS,
	  "lissajous target: x cycles per period", NULL },
	{ "target-freq-y", 0, T_DOUBLE(sim.target_freq_y), "2", 0, LIM, 0, "N", NULL, S_MODELS,
	  "lissajous target: y cycles per period", NULL },
	{ "target-amp-z", 0, T_DOUBLE(sim.target_amp_z), "0.3", 0, 0.5, 0, "F", NULL, S_MODELS,
	  "lissajous target, 3D: z amplitude, fraction of the depth", NULL },
	{ "target-freq-z", 0, T_DOUBLE(sim.target_freq_z), "1", 0, LIM, 0, "N", NULL, S_MODELS,
	  "lissajous target, 3D: z cycles per period", NULL },
	{ "target-period", 0, T_DOUBLE(sim.target_period), "1200", 0, LIM, CLI_GT_MIN, "STEPS", "steps", S_MODELS,
	  "lissajous target: steps per period", NULL },
	{ "proc-cohesion-radius", 0, T_DOUBLE(sim.proc_cohesion_radius), "40", 0, LIM, CLI_GT_MIN, "R", "px", S_MODELS,
	  "processing: cohesion range", NULL },
	{ "proc-separation-radius", 0, T_DOUBLE(sim.proc_separation_radius), "10", 0, LIM, CLI_GT_MIN, "R", "px", S_MODELS,
	  "processing: separation range", NULL },
	{ "proc-alignment-radius", 0, T_DOUBLE(sim.proc_alignment_radius), "40", 0, LIM, CLI_GT_MIN, "R", "px", S_MODELS,
	  "processing: alignment range", NULL },
	{ "proc-cohesion-weight", 0, T_DOUBLE(sim.proc_cohesion_weight), "0.5", -LIM, LIM, 0, "W", "px/step^2", S_MODELS,
	  "processing: cohesion weight", NULL },
	{ "proc-separation-weight", 0, T_DOUBLE(sim.proc_separation_weight), "4", -LIM, LIM, 0, "W", "px/step^2", S_MODELS,
	  "processing: separation weight", NULL },
	{ "proc-alignment-weight", 0, T_DOUBLE(sim.proc_alignment_weight), "4", -LIM, LIM, 0, "W", "px/step^2", S_MODELS,
	  "processing: alignment weight", NULL },
	{ "proc-max-force", 0, T_DOUBLE(sim.proc_max_force), "0", 0, LIM, 0, "A", "px/step^2", S_MODELS,
	  "processing: acceleration limit (0: none, the listing; sketch 5)", NULL },
	{ "proc-max-speed", 0, T_DOUBLE(sim.proc_max_speed), "0", 0, LIM, 0, "V", "px/step", S_MODELS,
	  "processing: speed limit (0: none, the listing; sketch 3)", NULL },
	{ "separation", 0, T_ENUM(sim.proc_separation, enum sim_separation), "unit", 0, 0, 0, "LAW", NULL, S_MODELS,
	  "processing: unit (the Java listing) or inverse (unit/distance) pushes", separation_names },
	{ "proc-limit", 0, T_ENUM(sim.proc_limit_components, int), "length", 0, 0, 0, "HOW", NULL, S_MODELS,
	  "processing: limit the vectors' length, or each component (the sketch)", proc_limit_names },
	{ "proc-jitter", 0, T_DOUBLE(sim.proc_jitter), "0", 0, LIM, 0, "J", "px/step^2", S_MODELS,
	  "processing: random push in [-J, J] per component (the sketch: 6)", NULL },
	{ "steer-radius", 0, T_DOUBLE(sim.steer_radius), "20", 0, LIM, CLI_GT_MIN, "R", "px", S_MODELS,
	  "steering: neighbour range", NULL },
	{ "steer-cohesion-steps", 0, T_DOUBLE(sim.steer_cohesion_steps), "100", 1, LIM, 0, "S", NULL, S_MODELS,
	  "steering: cohesion divides the offset by S", NULL },
	{ "steer-cohesion-weight", 0, T_DOUBLE(sim.steer_cohesion_weight), "0.05", -LIM, LIM, 0, "W", NULL, S_MODELS,
	  "steering: cohesion weight", NULL },
	{ "steer-separation-steps", 0, T_DOUBLE(sim.steer_separation_steps), "1", 1, LIM, 0, "S", NULL, S_MODELS,
	  "steering: separation divides every push by S", NULL },
	{ "steer-socialize-weight", 0, T_DOUBLE(sim.steer_socialize_weight), "0", -LIM, LIM, 0, "V", "px/step", S_MODELS,
	  "steering: a boid alone heads for the others' centre (0: off)", NULL },
	{ "steer-separation-weight", 0, T_DOUBLE(sim.steer_separation_weight), "156.25", -LIM, LIM, 0, "W", "px^3/step", S_MODELS,
	  "steering: separation (1/r^2) weight", NULL },
	{ "steer-alignment-weight", 0, T_DOUBLE(sim.steer_alignment_weight), "0.25", -LIM, LIM, 0, "W", "px/step", S_MODELS,
	  "steering: alignment weight", NULL },
	{ "steer-seek-weight", 0, T_DOUBLE(sim.steer_seek_weight), "0", 0, LIM, 0, "V", "px/step", S_MODELS,
	  "steering: speed of seeking the target (0: off)", NULL },
	{ "steer-arrival-radius", 0, T_DOUBLE(sim.steer_arrival_radius), "50", 0, LIM, 0, "R", "px", S_MODELS,
	  "steering: slow down within R of the target (0: off)", NULL },
	{ "steer-arrival-speed", 0, T_DOUBLE(sim.steer_arrival_speed), "5", 0, LIM, 0, "V", "px/step", S_MODELS,
	  "steering: top arrival speed", NULL },
	{ "steer-max-speed", 0, T_DOUBLE(sim.steer_max_speed), "3.75", 0, LIM, CLI_GT_MIN, "V", "px/step", S_MODELS,
	  "steering: velocity limit", NULL },
	{ "steer-max-turn", 0, T_DOUBLE(sim.steer_max_turn), "6.4", 0, 180, CLI_GT_MIN, "DEG", "deg/step", S_MODELS,
	  "steering: rotation limit", NULL },
	{ "steer-turn", 0, T_ENUM(sim.steer_steady_turn, int), "short", 0, 0, 0, "WAY", NULL, S_MODELS,
	  "steering: turn the short way (Unity), or steady: over 150 degrees always +", turn_names },
	{ "canvas-visual-range", 0, T_DOUBLE(sim.canvas_visual_range), "50", 0, LIM, CLI_GT_MIN, "R", "px", S_MODELS,
	  "canvas: visual range", NULL },
	{ "canvas-cohesion-resistance", 0, T_DOUBLE(sim.canvas_cohesion_resistance), "10", 0, LIM, CLI_GT_MIN, "K", NULL, S_MODELS,
	  "canvas: cohesion divided by K", NULL },
	{ "canvas-separation-distance", 0, T_DOUBLE(sim.canvas_separation_distance), "15", 0, LIM, 0, "D", "px", S_MODELS,
	  "canvas: separation distance", NULL },
	{ "canvas-alignment-eagerness", 0, T_DOUBLE(sim.canvas_alignment_eagerness), "0.05", -LIM, LIM, 0, "E", NULL, S_MODELS,
	  "canvas: alignment eagerness", NULL },
	{ "canvas-speed", 0, T_DOUBLE(sim.canvas_speed), "100", 0, LIM, CLI_GT_MIN, "V", "px/s", S_MODELS,
	  "canvas: constant speed", NULL },
	{ "canvas-dt", 0, T_DOUBLE(sim.canvas_dt), "0.016666666666666666", 0, LIM, CLI_GT_MIN, "S", "s", S_MODELS,
	  "canvas: time step (1/60)", NULL },

	{ "gl-flock-radius", 0, T_DOUBLE(sim.gl_flock_radius), "100", 0, LIM, CLI_GT_MIN, "R", "px", S_GL,
	  "cohesion: others closer than R", NULL },
	{ "gl-flock-weight", 0, T_DOUBLE(sim.gl_flock_weight), "0.0005", -LIM, LIM, 0, "W", NULL, S_GL,
	  "cohesion: steer toward their centre, times W", NULL },
	{ "gl-predator-sight", 0, T_DOUBLE(sim.gl_predator_sight), "2", 0, 100, 0, "K", NULL, S_GL,
	  "cohesion: predators see K times as far", NULL },
	{ "gl-avoid-radius", 0, T_DOUBLE(sim.gl_avoid_radius), "20", 0, LIM, CLI_GT_MIN, "R", "px", S_GL,
	  "separation: boids closer than R", NULL },
	{ "gl-avoid-weight", 0, T_DOUBLE(sim.gl_avoid_weight), "0.005", -LIM, LIM, 0, "W", NULL, S_GL,
	  "separation: push away by offset x closeness, times W", NULL },
	{ "gl-avoid", 0, T_ENUM(sim.gl_avoid_all, int), "own", 0, 0, 0, "KIND", NULL, S_GL,
	  "separation: from its own kind only (own) or from all", gl_avoid_names },
	{ "gl-align-radius", 0, T_DOUBLE(sim.gl_align_radius), "100", 0, LIM, CLI_GT_MIN, "R", "px", S_GL,
	  "alignment: others closer than R", NULL },
	{ "gl-align-weight", 0, T_DOUBLE(sim.gl_align_weight), "0.03", -LIM, LIM, 0, "W", NULL, S_GL,
	  "alignment: match their mean velocity, times W", NULL },
	{ "gl-flee-radius", 0, T_DOUBLE(sim.gl_flee_radius), "100", 0, LIM, CLI_GT_MIN, "R", "px", S_GL,
	  "flee predators closer than R", NULL },
	{ "gl-flee-weight", 0, T_DOUBLE(sim.gl_flee_weight), "0.002", -LIM, LIM, 0, "W", NULL, S_GL,
	  "flee: away by the offset times W (not by closeness)", NULL },
	{ "gl-wall-pad", 0, T_DOUBLE(sim.gl_wall_pad), "100", 0, LIM, 0, "D", "px", S_GL,
	  "walls: margin along each edge", NULL },
	{ "gl-wall-turn", 0, T_DOUBLE(sim.gl_wall_turn), "0.1", 0, LIM, 0, "V", "px/step", S_GL,
	  "walls: velocity change per step inside the margin", NULL },
	{ "gl-speed-min", 0, T_DOUBLE(sim.gl_speed_min), "0.5", 0, LIM, 0, "V", NULL, S_GL,
	  "target speeds are drawn from [min, max) at the start", NULL },
	{ "gl-speed-max", 0, T_DOUBLE(sim.gl_speed_max), "1.5", 0, LIM, 0, "V", NULL, S_GL,
	  "(see --gl-speed-min)", NULL },
	{ "gl-predator-boost", 0, T_DOUBLE(sim.gl_predator_boost), "0.5", 0, LIM, 0, "V", NULL, S_GL,
	  "added to a predator's target speed", NULL },
	{ "gl-speed-ease", 0, T_DOUBLE(sim.gl_speed_ease), "0.1", 0, 1, 0, "F", NULL, S_GL,
	  "each step the speed moves this fraction toward the target", NULL },
	{ "gl-step", 0, T_DOUBLE(sim.gl_step), "2", 0, 100, CLI_GT_MIN, "K", NULL, S_GL,
	  "the speed slider: a step moves a boid K times its velocity", NULL },

	{ "frames", 'f', T_LONG(run.frames), "300", 1, CLI_MAX_FRAMES, CLI_BRIEF, "N", NULL, S_RUN,
	  "frames to write", NULL },
	{ "duration", 0, T_DOUBLE(run.duration), "auto", 0, 1e7, CLI_GT_MIN | CLI_AUTO | CLI_BRIEF, "SECONDS", "s", S_RUN,
	  "frames = SECONDS x fps, instead of -f", NULL },
	{ "output", 'o', T_STRING(run.output), "flock.mp4", 0, 0, CLI_BRIEF, "FILE", NULL, S_RUN,
	  "a video (.mp4 .webm .gif), f_%05d.png or -", NULL },
	{ "trajectory", 0, T_STRING(run.trajectory), "", 0, 0, CLI_BRIEF, "FILE", NULL, S_RUN,
	  "write every frame's state as CSV", NULL },
	{ "init", 0, T_STRING(run.init), "", 0, 0, CLI_BRIEF, "FILE", NULL, S_RUN,
	  "start from a trajectory CSV's last frame", NULL },
	{ "metrics", 0, T_STRING(run.metrics), "", 0, 0, CLI_BRIEF, "FILE", NULL, S_RUN,
	  "write flock metrics per frame as CSV", NULL },
	{ "summary", 0, T_STRING(run.summary), "", 0, 0, CLI_BRIEF, "FILE", NULL, S_RUN,
	  "write a JSON summary of the run (- stdout)", NULL },
	{ "poster", 0, T_LONG(run.poster), "auto", 0, CLI_MAX_FRAMES - 1, CLI_AUTO, "N", NULL, S_RUN,
	  "frame a still (-o NAME.png, no %d) holds, from 0 (auto: the last)", NULL },
	{ "overwrite", 'y', T_FLAG(run.overwrite), "no", 0, 0, CLI_BRIEF, NULL, NULL, S_RUN,
	  "replace existing output files", NULL },
	{ "no-clobber", 0, T_FLAG(run.overwrite), NULL, 0, 0, CLI_NOCONFIG | CLI_NEGATE, NULL, NULL, S_RUN,
	  "never replace existing files (the default; cancels -y)", NULL },
	{ "no-render", 0, T_FLAG(run.no_render), "no", 0, 0, CLI_BRIEF, NULL, NULL, S_RUN,
	  "simulate only: no pictures", NULL },
	{ "progress", 0, T_ENUM(run.progress, enum run_progress), "auto", 0, 0, CLI_BRIEF, "HOW", NULL, S_RUN,
	  "auto, always, lines, json or never", progress_names },
	{ "progress-interval", 0, T_DOUBLE(run.progress_interval), "5", 0.1, 86400, 0, "SECONDS", "s", S_RUN,
	  "time between progress lines (lines, json, always off a terminal)", NULL },
	{ "quiet", 'q', T_FLAG(run.quiet), "no", 0, 0, CLI_BRIEF, NULL, NULL, S_RUN,
	  "no progress and no closing line", NULL },
	{ "verbose", 0, T_FLAG(run.verbose), "no", 0, 0, 0, NULL, NULL, S_RUN,
	  "say the thread counts and why, and the codec and container, before the run", NULL },

	{ "scale", 0, T_DOUBLE(render.scale), "1", 0, 64, CLI_GT_MIN | CLI_BRIEF, "S", NULL, S_DRAW,
	  "picture = field x S", NULL },
	{ "shape", 0, T_ENUM(render.shape, enum render_shape), "curve", 0, 0, 0, "SHAPE", NULL, S_DRAW,
	  "curve (C# spline), repo (= --outline final), polygon, triangle (canvas), arrow (OpenGL), circle", shape_names },
	{ "outline", 0, T_ENUM(render.outline, enum render_outline), "listing", 0, 0, 0, "WHICH", NULL, S_DRAW,
	  "C# outline points: listing (the article's) or final (the program's, smaller)", outline_names },
	{ "paint", 0, T_ENUM(render.paint, enum render_paint), "fill", 0, 0, 0, "HOW", NULL, S_DRAW,
	  "fill the outline, or stroke it with a 1-pixel line", paint_names },
	{ "pixel-grid", 0, T_ENUM(render.grid, enum render_grid), "cairo", 0, 0, 0, "GRID", NULL, S_DRAW,
	  "cairo (pixel centres at .5), or gdi: centres on whole coordinates (GDI+)", grid_names },
	{ "look", 0, T_ENUM(run.look, enum run_look), "model", 0, 0, 0, "LOOK", NULL, S_DRAW,
	  "model, original (as its author's program showed it), harden-windows or canvas-article", look_names },
	{ "boid-size", 0, T_DOUBLE(render.boid_size), "1", 0.01, 100, 0, "K", NULL, S_DRAW,
	  "scale the outline by K, 0.01..100", NULL },
	{ "background", 0, T_COLOR(render.background), "#003366", 0, 0, CLI_BRIEF, "COLOR", NULL, S_DRAW,
	  "background colour: #RRGGBB or a CSS name", NULL },
	{ "boid-color", 0, T_COLOR(render.boid_color), "#90ee90", 0, 0, CLI_BRIEF, "COLOR", NULL, S_DRAW,
	  "colour of the boids", NULL },
	{ "predator-color", 0, T_COLOR(render.predator_color), "#ffffff", 0, 0, 0, "COLOR", NULL, S_DRAW,
	  "colour of the predators (white)", NULL },
	{ "antialias", 0, T_ENUM(render.antialias, enum render_antialias), "good", 0, 0, 0, "MODE", NULL, S_DRAW,
	  "none, fast, good or best", aa_names },
	{ "draw", 0, T_ENUM(render.draw, enum render_draw), "exact", 0, 0, CLI_BRIEF, "MODE", NULL, S_DRAW,
	  "exact or fast (big flocks; edges IoU >= .99)", draw_names },
	{ "camera", 0, T_CAMERA, "front", 0, 0, CLI_BRIEF, "WHERE", NULL, S_DRAW,
	  "3D: front, orbit or X,Y,Z[,TX,TY,TZ]", NULL },
	{ "fov", 0, T_DOUBLE(render.camera.fov), "50", 1, 170, 0, "DEG", "deg", S_DRAW,
	  "3D: the camera's vertical field of view", NULL },
	{ "fog", 0, T_DOUBLE(render.fog), "0.6", 0, 1, 0, "F", NULL, S_DRAW,
	  "3D: the flock's far side F of the way to the background (0: none)", NULL },
	{ "box", 0, T_FLAG(render.box_edges), "yes", 0, 0, 0, NULL, NULL, S_DRAW,
	  "3D: draw the box's edges, far ones fainter (or --box=no)", NULL },
	{ "ground", 0, T_FLAG(render.ground), "yes", 0, 0, 0, NULL, NULL, S_DRAW,
	  "3D: draw a grid on the box's floor (or --ground=no)", NULL },
	{ "trail", 0, T_LONG(run.trail), "0", 0, CLI_MAX_TRAIL, 0, "N", NULL, S_DRAW,
	  "draw each boid's last N positions as a fading line", NULL },
	{ "trail-style", 0, T_ENUM(render.trail_style, enum render_trail_style), "fade", 0, 0, 0, "STYLE", NULL, S_DRAW,
	  "fade (1 px, all trails first) or opengl (2 px, each before its boid)", trail_style_names },
	{ "show-ranges", 0, T_FLAG(render.show_ranges), "no", 0, 0, 0, NULL, NULL, S_DRAW,
	  "draw the rule radii around the last boid (the OpenGL version's Ranges)", NULL },
	{ "predator-size", 0, T_DOUBLE(render.predator_size), "1", 0.01, 100, 0, "K", NULL, S_DRAW,
	  "predators' outline K times the boids', 0.01..100", NULL },
	{ "opengl", 0, T_FLAG(run.opengl), "no", 0, 0, 0, NULL, NULL, S_DRAW,
	  "the article's OpenGL look: --trail 20, yellow predators 1.5x (unless set)", NULL },
	{ "background-style", 0, T_ENUM(render.background_style, enum render_background), "flat", 0, 0, 0, "STYLE", NULL, S_DRAW,
	  "flat, or noise: seeded Perlin clouds around the background colour", bg_names },
	{ "obstacle", 0, T_CIRCLES, "", 0, LIM, CLI_BRIEF, "X,Y,R", NULL, S_DRAW,
	  "a circle every model avoids (repeatable; 3D: X,Y,Z,R)", NULL },
	{ "obstacle-color", 0, T_COLOR(render.obstacle_color), "#5a7896", 0, 0, 0, "COLOR", NULL, S_DRAW,
	  "colour of the obstacles", NULL },
	{ "target-color", 0, T_COLOR(render.target_color), "#ffcc00", 0, 0, 0, "COLOR", NULL, S_DRAW,
	  "colour of the steering target's marker", NULL },
	{ "start-number", 0, T_LONG(run.start_number), "0", 0, 1e9, 0, "N", NULL, S_DRAW,
	  "number of the first PNG of a sequence", NULL },
	{ "png-level", 0, T_LONG(run.png_level), "1", 0, 9, 0, "N", NULL, S_DRAW,
	  "PNG compression level, 0 (none) to 9 (smallest)", NULL },

	{ "fps", 'r', T_LONG(run.fps), "30", 1, 1000, CLI_BRIEF, "N", NULL, S_VIDEO,
	  "frames per second", NULL },
	{ "codec", 0, T_CSTRING(video.codec), "", 0, 0, CLI_BRIEF, "NAME", NULL, S_VIDEO,
	  "FFmpeg encoder (libx264; webm: libvpx-vp9)", NULL },
	{ "quality", 0, T_ENUM(video.quality, enum video_quality), "web", 0, 0, CLI_BRIEF, "Q", NULL,
	  S_VIDEO, "draft (half size), web, high, archive (lossless)", quality_names },
	{ "crf", 0, T_INT(video.crf), "auto", 0, 63, CLI_AUTO | CLI_BRIEF, "N", NULL, S_VIDEO,
	  "constant rate factor (23 H.264, 41 VP9)", NULL },
	{ "preset", 0, T_CSTRING(video.preset), "", 0, 0, CLI_BRIEF, "NAME", NULL, S_VIDEO,
	  "encoder speed preset (H.264: veryfast)", NULL },
	{ "bitrate", 0, T_CSTRING(video.bitrate), "", 0, 0, 0, "RATE", NULL, S_VIDEO,
	  "target bitrate such as 2M instead of constant quality", NULL },
	{ "pix-fmt", 0, T_CSTRING(video.pix_fmt), "", 0, 0, 0, "FMT", NULL, S_VIDEO,
	  "encoder pixel format (default yuv420p; rgb8 for GIF)", NULL },
	{ "gop", 0, T_INT(video.gop), "auto", 1, 100000, CLI_AUTO, "N", NULL, S_VIDEO,
	  "frames between keyframes", NULL },

	{ "encoder-threads", 0, T_INT(video.threads), "4", 1, 64, CLI_AUTO, "N", NULL, S_VIDEO,
	  "encoder threads; a fixed count gives the same bytes on every machine", NULL },

	{ "config", 'c', T_ACTION, NULL, 0, 0, CLI_NOCONFIG | CLI_BRIEF, "FILE", NULL, S_INFO,
	  "read key = value settings from FILE first", NULL },
	{ "completion", 0, T_ACTION, NULL, 0, 0, CLI_NOCONFIG, "SHELL", NULL, S_INFO,
	  "print the bash or zsh completion script and exit", NULL },
	{ "print-config", 0, T_ACTION, NULL, 0, 0, CLI_NOCONFIG | CLI_BRIEF, NULL, NULL, S_INFO,
	  "print the settings as a config file, exit", NULL },
	{ "check-configs", 0, T_ACTION, NULL, 0, 0, CLI_NOCONFIG, "FILE", NULL, S_INFO,
	  "check many runs' settings, one JSON object a line (- stdin); print each one's hash, exit", NULL },
	{ "config-dir", 0, T_ACTION, NULL, 0, 0, CLI_NOCONFIG, "DIR", NULL, S_INFO,
	  "with --check-configs: write line K+1's settings to DIR/K.cfg", NULL },
	{ "list-options", 0, T_ACTION, NULL, 0, 0, CLI_NOCONFIG, NULL, NULL, S_INFO,
	  "print every option as JSON (for scripts such as scripts/sweep) and exit", NULL },
	{ "list-models", 0, T_ACTION, NULL, 0, 0, CLI_NOCONFIG | CLI_BRIEF, NULL, NULL, S_INFO,
	  "list the models (-m), exit", NULL },
	{ "list-codecs", 0, T_ACTION, NULL, 0, 0, CLI_NOCONFIG | CLI_BRIEF, NULL, NULL, S_INFO,
	  "list the encoders for each container, exit", NULL },
	{ "help", 'h', T_ACTION, NULL, 0, 0, CLI_NOCONFIG | CLI_BRIEF, NULL, NULL, S_INFO,
	  "show this help and exit", NULL },
	{ "help-all", 0, T_ACTION, NULL, 0, 0, CLI_NOCONFIG | CLI_BRIEF, NULL, NULL, S_INFO,
	  "show every option and exit", NULL },
	{ "version", 'V', T_ACTION, NULL, 0, 0, CLI_NOCONFIG | CLI_BRIEF, NULL, NULL, S_INFO,
	  "show the version and exit", NULL },
};

#define NOPTS (sizeof(options) / sizeof(options[0]))
_Static_assert(NOPTS <= CONFIG_MAX_OPTIONS, "struct run_options: given[] too small");

const struct cli_option *cli_options(size_t *count)
{
	*count = NOPTS;
	return options;
}

const struct cli_option *cli_find(const char *name)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (strcmp(options[i].name, name) == 0)
			return &options[i];
	return NULL;
}

static size_t index_of(const struct cli_option *o)
{
	return (size_t)(o - options);
}

int cli_given(const struct config *c, const char *name)
{
	const struct cli_option *o = cli_find(name);

	return o ? c->run.given[index_of(o)] : 0;
}

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

#define CUT(s) CLI_CUT(s)

/* Formats a message; a user's control characters become '?' (one line, no escapes). */
static int errf(char *err, size_t errlen, const char *fmt, ...)
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
		return errf(err, errlen, "--%s: '%s' is not %s", o->name, CUT(v), range);
	if (errno == ERANGE || (double)x < o->min || (double)x > o->max)
		return errf(err, errlen, "--%s: %s is out of range (expected %s)", o->name, CUT(v), range);
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
		return errf(err, errlen, "--%s: '%s' is not %s", o->name, CUT(v), range);
	if (!isfinite(x)) /* ERANGE on underflow is fine: a tiny number is a number */
		return errf(err, errlen, "--%s: '%s' is not a finite number in range (expected %s)",
		            o->name, CUT(v), range);
	if (x < o->min || x > o->max || ((o->flags & CLI_GT_MIN) && x == o->min))
		return errf(err, errlen, "--%s: %s is out of range (expected %s)", o->name, CUT(v), range);
	*out = x;
	return 0;
}

static int parse_u64(const struct cli_option *o, const char *v, uint64_t *out,
                     char *err, size_t errlen)
{
	char *end;

	errno = 0;
	if (starts_badly(v) || *v == '-' || *v == '+')
		return errf(err, errlen, "--%s: '%s' is not a whole number from 0 to 18446744073709551615",
		            o->name, CUT(v));
	unsigned long long x = strtoull(v, &end, 10);
	if (*end)
		return errf(err, errlen, "--%s: '%s' is not a whole number from 0 to 18446744073709551615",
		            o->name, CUT(v));
	if (errno == ERANGE)
		return errf(err, errlen, "--%s: %s is out of range (expected 0 to 18446744073709551615)",
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
		return errf(err, errlen, "--%s: %s is out of range (width and height from 1 to %ld)",
		            o->name, CUT(v), max);
	*w = (double)a;
	*h = (double)b;
	return 0;
bad:
	return errf(err, errlen, "--%s: '%s' is not WIDTHxHEIGHT such as 640x360", o->name, CUT(v));
}

static int parse_enum(const struct cli_option *o, const char *v, int *out,
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
	return errf(err, errlen, "--%s: unknown value '%s' (expected one of %s)", o->name, CUT(v), list);
}

/* The name of a CLI_ENUM row's value. */
static const char *enum_name(const struct cli_option *o, int value)
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
	return errf(err, errlen, "--%s: unknown value '%s' (expected one of %s)", o->name, CUT(v), list);
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
	return errf(err, errlen, "--%s: '%s' is not yes or no", o->name, CUT(v));
}

/* Parses "a,b" or "a,b,c" (count numbers) as finite doubles within +-LIM. */
static int parse_tuple(const char *v, double *out, int count)
{
	const char *p = v;

	for (int i = 0; i < count; i++) {
		char *end;
		if (starts_badly(p))
			return -1;
		errno = 0;
		out[i] = strtod(p, &end);
		if (end == p || !isfinite(out[i]) || fabs(out[i]) > LIM)
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
		return errf(err, errlen, "--%s: '%s' is not X,Y,R or X,Y,Z,R (numbers within 1e6, R above 0)",
		            o->name, CUT(v));
	if (run->obstacles_n >= CONFIG_MAX_OBSTACLES)
		return errf(err, errlen, "--%s: more than %d obstacles", o->name, CONFIG_MAX_OBSTACLES);
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
		return errf(err, errlen, "--%s: '%s' is not X,Y, X,Y,Z, lissajous or none", o->name, CUT(v));
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
		return errf(err, errlen, "--%s: '%s' is not front, orbit, X,Y,Z or X,Y,Z,TX,TY,TZ (numbers within 1e6)",
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
static int set_value(struct config *c, const struct cli_option *o, const char *v,
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
	case CLI_ENUM:
		return parse_enum(o, v, field, err, errlen);
	case CLI_MODEL:
		return parse_model(o, v, &c->sim.model, err, errlen);
	case CLI_COLOR: {
		uint32_t rgb;
		if (color_parse(v, &rgb) != 0)
			return errf(err, errlen, "--%s: '%s' is not a colour (#RRGGBB, #RGB or a CSS name such as lightgreen)",
			            o->name, CUT(v));
		*(uint32_t *)field = rgb;
		return 0;
	}
	case CLI_STRING: {
		char **p = field;
		char *copy = NULL;
		if (*v && !(copy = strdup(v)))
			return errf(err, errlen, "out of memory"), -ENOMEM;
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
static int is_blank(char c)
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
	for (r++; is_blank(*r); r++)
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
		return errf(err, errlen, "unknown key '%s'", CUT(key));
	if ((ret = set_value(c, o, value, err, errlen)) != 0)
		return ret;
	c->run.given[index_of(o)] = 1; /* from a file */
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
		errf(err, errlen, "--config: cannot open '%s': %s", CLI_CUT_PATH(path), strerror(e));
		return e == ENOMEM ? -ENOMEM : -1;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return errf(err, errlen, "--config: '%s' is a directory", CLI_CUT_PATH(path));
	}
	while (ret == 0 && (len = lineread_next(f, &line, &cap, LINEREAD_MAX)) >= 0) {
		lineno++;
		while (len > 0 && line[len - 1] == '\r')
			line[--len] = 0;
		char *p = line, *end = line + len;
		if (lineno == 1 && len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
			p += 3; /* a UTF-8 byte-order mark, as some editors write */
		while (is_blank(*p))
			p++;
		if ((size_t)len != strlen(line)) {
			ret = errf(err, errlen, "%s:%ld: NUL byte in the line", CLI_CUT_PATH(path), lineno);
			break;
		}
		if (!*p || *p == '#' || *p == ';')
			continue;
		char *eq = strchr(p, '=');
		if (*p == '[' || !eq) {
			ret = errf(err, errlen, "%s:%ld: expected 'key = value'", CLI_CUT_PATH(path), lineno);
			break;
		}
		char *k = eq;
		while (k > p && is_blank(k[-1]))
			k--;
		*k = 0;
		char *v = eq + 1;
		while (is_blank(*v))
			v++;
		while (end > v && is_blank(end[-1]))
			*--end = 0;
		const char *why = NULL;
		if (*v == '"' && unquote(v, &why) != 0) {
			ret = errf(err, errlen, "%s:%ld: %s: %s", CLI_CUT_PATH(path), lineno, CUT(p), why);
			break;
		}
		if ((ret = cli_set_config(c, p, v, msg, sizeof(msg))) != 0) {
			errf(err, errlen, "%s:%ld: %s", CLI_CUT_PATH(path), lineno, msg);
			break;
		}
	}
	if (ret == 0 && len == -E2BIG)
		ret = errf(err, errlen, "%s:%ld: line longer than %ld bytes", CLI_CUT_PATH(path), lineno + 1,
		           LINEREAD_MAX);
	else if (ret == 0 && len != LINEREAD_EOF) { /* a read error is not the end of the file */
		errf(err, errlen, "--config: cannot read '%s' (line %ld): %s", CLI_CUT_PATH(path), lineno + 1,
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

	for (size_t i = 0; len && name != arg && i < NOPTS; i++)
		if (strncmp(options[i].name, name, len) == 0 && matches++ < 4)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s--%s",
			         matches > 1 ? ", " : "", options[i].name);
	if (matches > 1)
		errf(err, errlen, "ambiguous option '%.*s' (%s%s)", (int)len + 2, arg, list,
		     matches > 4 ? ", ..." : "");
	else
		errf(err, errlen, "unknown option '%s' (see --help)", CUT(arg));
}

/* ------------------------------------------------------------------ resolve */

/*
 * What depends on several settings is worked out in one step, resolve(),
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
 *   link_modules()     what the modules read but nobody types: the picture
 *                      size (field x --scale), the seeds of the noises, the
 *                      obstacle lists they borrow, the target's centre and
 *                      the radii --show-ranges draws (the entry's ranges())
 */

/* Sets option `name` to `value`, as typed, unless the user set it. */
static int fill_in(struct config *c, const char *name, const char *value, char *err, size_t errlen)
{
	const struct cli_option *o = cli_find(name);

	if (!o || cli_given(c, name))
		return 0;
	return set_value(c, o, value, err, errlen);
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

	return look == RUN_LOOK_HARDEN_WINDOWS ? harden_windows :
	       look == RUN_LOOK_CANVAS_ARTICLE ? canvas_article : none;
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
		(void)parse_enum(cli_find("look"), name, (int *)&look, err, errlen);
	c->run.look_used = look;
	if ((e = fill_in_list(c, look_settings(look), err, errlen)) != 0)
		return e;
	e = fill_in_list(c, m->program_defaults, err, errlen);
	if (!e && m == model_find("canvas") && !cli_given(c, "substeps")) {
		/* the page steps 60 times a second: 1/(dt fps) steps a frame */
		double k = round(1 / (c->sim.canvas_dt * (double)c->run.fps));
		c->run.substeps = k < 1 ? 1 : k > 1000 ? 1000 : (long)k;
	}
	return e;
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
			return errf(err, errlen, "--obstacle: %.17g,%.17g,%.17g,%.17g has a Z: give X,Y,R, or --dims 3",
			            c->run.obstacles[i].x, c->run.obstacles[i].y, c->run.obstacles[i].z,
			            c->run.obstacles[i].r);
	if (c->sim.target_mode == SIM_TARGET_FIXED && !isnan(c->sim.target_z))
		return errf(err, errlen, "--target: %.17g,%.17g,%.17g has a Z: give X,Y, or --dims 3",
		            c->sim.target_x, c->sim.target_y, c->sim.target_z);
	return 0;
}

/* The checks between options, and the settings one option gives another. */
static int check_across(struct config *c, char *err, size_t errlen)
{
	struct run_options *run = &c->run;

	if (c->sim.gl_speed_min > c->sim.gl_speed_max)
		return errf(err, errlen, "--gl-speed-min (%g) must not be above --gl-speed-max (%g)",
		            c->sim.gl_speed_min, c->sim.gl_speed_max);
	if (c->sim.min_speed > c->sim.max_speed)
		return errf(err, errlen, "--min-speed (%g) must not be above --max-speed (%g)",
		            c->sim.min_speed, c->sim.max_speed);
	if (check_depths(c, err, errlen) != 0)
		return -1;
	/* --frames and --duration: the command line wins over a file; both from
	 * the same place contradict each other. */
	int gd = cli_given(c, "duration"), gf = cli_given(c, "frames");
	if (gd && gf && run->duration > 0) {
		if (gd == gf)
			return errf(err, errlen, "--frames and --duration contradict each other: give one");
		if (gf > gd)
			run->duration = -1;
	}
	if (run->duration > 0) {
		double f = round(run->duration * (double)run->fps);
		if (f < 1 || f > CLI_MAX_FRAMES)
			return errf(err, errlen, "--duration: %g s at %ld fps is %.0f frames (expected 1 to %ld)",
			            run->duration, run->fps, f, CLI_MAX_FRAMES);
		run->frames = (long)f;
		run->duration = -1; /* resolved: --print-config shows frames */
	}
	/* --no-render and --output: the command line wins over a file, and a
	 * file that has both (--print-config writes every key) means no render.
	 * Both on the command line stay a contradiction (main refuses it). */
	int gn = cli_given(c, "no-render"), go = cli_given(c, "output");
	if (run->no_render && go && gn != go) {
		if (gn > go)
			run->given[index_of(cli_find("output"))] = 0;
		else
			run->no_render = 0;
	} else if (run->no_render && go == 1 && gn == 1) {
		run->given[index_of(cli_find("output"))] = 0;
	}
	if (!run->output && !run->no_render)
		return errf(err, errlen, "--output: needs a file name, a PNG pattern or -");
	double pw = round(c->sim.width * c->render.scale), ph = round(c->sim.height * c->render.scale);
	if (!run->no_render && (pw > CLI_MAX_PICTURE || ph > CLI_MAX_PICTURE || pw < 1 || ph < 1))
		return errf(err, errlen, "--scale: %.0fx%.0f at scale %g is a %.0fx%.0f picture (each side from 1 to %ld)",
		            c->sim.width, c->sim.height, c->render.scale, pw, ph, CLI_MAX_PICTURE);
	return 0;
}

/* What the modules read that nobody types: each from the settings it follows. */
static void link_modules(struct config *c)
{
	struct run_options *run = &c->run;

	if (!(c->sim.depth > 0)) /* --depth 0: as deep as the field's smaller side */
		c->sim.depth = fmin(c->sim.width, c->sim.height);
	c->render.width = (int)lround(c->sim.width * c->render.scale);
	c->render.height = (int)lround(c->sim.height * c->render.scale);
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
static int resolve(struct config *c, char *err, size_t errlen)
{
	if (model_defaults(c, err, errlen) != 0 || opengl_look(c, err, errlen) != 0 ||
	    quality_defaults(c, err, errlen) != 0 ||
	    check_across(c, err, errlen) != 0)
		return -1;
	link_modules(c);
	if (camera_check(&c->render.camera, c->render.box) != 0)
		return errf(err, errlen, "--camera: the camera stands where it looks (give another point, or TX,TY,TZ)");
	return 0;
}

/* ----------------------------------------------------------- parse */

/* The modules' own defaults for what has no option, then every row's. */
static int set_defaults(struct config *c, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	sim_params_default(&c->sim, 640, 360);
	render_params_default(&c->render, 640, 360);
	video_options_default(&c->video);
	for (size_t i = 0; i < NOPTS; i++) {
		int e = options[i].def ? set_value(c, &options[i], options[i].def, err, errlen) : 0;
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
	for (size_t i = 0; i < NOPTS; i++) {
		const struct cli_option *o = &options[i];
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
	longopts[NOPTS] = (struct option){ 0, 0, 0, 0 };
}

/* The row getopt_long's value `val` stands for, or NULL. */
static const struct cli_option *row_of(const struct option *longopts, int val)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (longopts[i].val == val)
			return &options[i];
	return NULL;
}

/* getopt_long refused argv[optind - 1] ('?' or ':'): says why in err. */
static void getopt_error(int ch, char **argv, const struct option *longopts, char *err, size_t errlen)
{
	const struct cli_option *o = optopt ? row_of(longopts, optopt) : NULL;

	if (ch == ':')
		errf(err, errlen, "--%s needs a value (%s)", o ? o->name : "?", o && o->arg ? o->arg : "");
	else if (o && longopts[index_of(o)].has_arg == no_argument && strncmp(argv[optind - 1], "--", 2) == 0)
		errf(err, errlen, "--%s does not take a value", o->name);
	else if (optopt && optopt < LONG_ONLY)
		errf(err, errlen, "unknown option '-%c' (see --help)", optopt);
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
			return errf(err, errlen, "--completion: '%s' is not bash or zsh", optarg), CLI_ERROR;
		c->run.completion = optarg;
		return CLI_COMPLETION;
	}
	for (size_t i = 0; i < sizeof(actions) / sizeof(*actions); i++)
		if (strcmp(o->name, actions[i].name) == 0)
			return actions[i].result;
	return CLI_RUN; /* --config: read in the first pass */
}

int cli_parse(struct config *c, int argc, char **argv, char *err, size_t errlen)
{
	return cli_parse_with(c, argc, argv, NULL, NULL, err, errlen);
}

int cli_parse_with(struct config *c, int argc, char **argv, cli_source *more, void *arg,
                   char *err, size_t errlen)
{
	struct option longopts[NOPTS + 1];
	char shortopts[3 * NOPTS + 2];
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
			if ((e = set_value(c, o, optarg, err, errlen)) != 0)
				return e == -ENOMEM ? CLI_NOMEM : CLI_ERROR;
			c->run.given[index_of(o)] = 2; /* from the command line: wins over a file */
		}
		if (pass == 0 && optind < argc)
			return errf(err, errlen, "unexpected argument '%s' (options start with -; see --help)",
			            CUT(argv[optind])), CLI_ERROR;
		if (pass == 0 && more && (e = more(c, arg, err, errlen)) != 0)
			return e == -ENOMEM ? CLI_NOMEM : CLI_ERROR; /* after the files, before argv */
	}
	if (c->run.config_dir && result != CLI_CHECK_CONFIGS)
		return errf(err, errlen, "--config-dir goes with --check-configs"), CLI_ERROR;
	return resolve(c, err, errlen) != 0 ? CLI_ERROR : result;
}

void cli_release(struct config *c)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (options[i].type == CLI_STRING) {
			char **p = (char **)(void *)((char *)c + options[i].offset);
			free(*p);
			*p = NULL;
		}
}

/* ------------------------------------------------------------------ output */

/* One obstacle as --obstacle reads it: X,Y,R in 2D, X,Y,Z,R in 3D. */
static void format_obstacle(const struct config *c, const struct sim_obstacle *o, char *buf, size_t len)
{
	if (c->sim.dims == 3)
		snprintf(buf, len, "%.17g,%.17g,%.17g,%.17g", o->x, o->y, o->z, o->r);
	else
		snprintf(buf, len, "%.17g,%.17g,%.17g", o->x, o->y, o->r);
}

/* The string field of a CLI_STRING row, NULL when unset. */
static const char *string_value(const struct config *c, const struct cli_option *o)
{
	return *(char *const *)(const void *)((const char *)c + o->offset);
}

void cli_format_value(const struct config *c, const struct cli_option *o, char *buf, size_t len)
{
	const void *field = (const char *)c + o->offset;
	long whole = 0;

	switch (o->type) {
	case CLI_LONG:
	case CLI_INT:
	case CLI_COUNT:
		whole = o->type == CLI_LONG ? *(const long *)field :
		        o->type == CLI_INT ? *(const int *)field : (long)*(const size_t *)field;
		if ((o->flags & CLI_AUTO) && whole < (long)o->min)
			snprintf(buf, len, "auto");
		else
			snprintf(buf, len, "%ld", whole);
		break;
	case CLI_U64:
		snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)field);
		break;
	case CLI_DOUBLE: {
		double v = *(const double *)field;
		if ((o->flags & CLI_AUTO) && v < o->min) {
			snprintf(buf, len, "auto");
			break;
		}
		/* The shortest form that reads back as the same double, without
		 * an exponent unless the number is very large or small (50, not 5e+01). */
		int plain_ok = v == 0 || (fabs(v) >= 1e-4 && fabs(v) < 1e15);
		for (int prec = 1; prec <= 17; prec++) {
			snprintf(buf, len, "%.*g", prec, v);
			if (strtod(buf, NULL) == v && (!plain_ok || !strchr(buf, 'e')))
				break;
		}
		break;
	}
	case CLI_FIELD:
		snprintf(buf, len, "%.0fx%.0f", c->sim.width, c->sim.height);
		break;
	case CLI_STRING: {
		const char *v = string_value(c, o);
		snprintf(buf, len, "%s", v ? v : "");
		break;
	}
	case CLI_ENUM:
		snprintf(buf, len, "%s", enum_name(o, *(const int *)field));
		break;
	case CLI_MODEL:
		snprintf(buf, len, "%s", c->sim.model->name);
		break;
	case CLI_COLOR: {
		char rgb[8];
		color_format(*(const uint32_t *)field, rgb);
		snprintf(buf, len, "%s", rgb);
		break;
	}
	case CLI_FLAG:
		snprintf(buf, len, "%s", *(const int *)field ? "yes" : "no");
		break;
	case CLI_CIRCLES: /* all of them, ';'-separated (--print-config writes one a line) */
		buf[0] = 0;
		for (size_t i = 0; i < c->run.obstacles_n; i++) {
			snprintf(buf + strlen(buf), len - strlen(buf), "%s", i ? ";" : "");
			format_obstacle(c, &c->run.obstacles[i], buf + strlen(buf), len - strlen(buf));
		}
		break;
	case CLI_TARGET:
		if (c->sim.target_mode == SIM_TARGET_FIXED && c->sim.dims == 3)
			snprintf(buf, len, "%.17g,%.17g,%.17g", c->sim.target_x, c->sim.target_y, c->sim.target_z);
		else if (c->sim.target_mode == SIM_TARGET_FIXED)
			snprintf(buf, len, "%.17g,%.17g", c->sim.target_x, c->sim.target_y);
		else
			snprintf(buf, len, "%s", c->sim.target_mode == SIM_TARGET_NONE ? "none" : "lissajous");
		break;
	case CLI_CAMERA: {
		const struct camera_setup *cam = &c->render.camera;
		if (cam->mode != CAMERA_AT)
			snprintf(buf, len, "%s", cam->mode == CAMERA_ORBIT ? "orbit" : "front");
		else if (cam->at_given)
			snprintf(buf, len, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", cam->eye[0], cam->eye[1], cam->eye[2],
			         cam->at[0], cam->at[1], cam->at[2]);
		else
			snprintf(buf, len, "%.17g,%.17g,%.17g", cam->eye[0], cam->eye[1], cam->eye[2]);
		break;
	}
	case CLI_ACTION:
		buf[0] = 0;
		break;
	}
}

/* Writes a value so that read_config() reads it back unchanged. */
static void put_config_value(FILE *f, const char *v)
{
	size_t n = strlen(v);
	int quote = n && (is_blank(v[0]) || is_blank(v[n - 1]) || v[0] == '"');

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

void cli_print_config(FILE *f, const struct config *c)
{
	const char *group = NULL;

	fprintf(f, "# boids %s settings; read back with: boids --config FILE\n", BOIDS_VERSION);
	for (size_t i = 0; i < NOPTS; i++) {
		const struct cli_option *o = &options[i];
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
				format_obstacle(c, &c->run.obstacles[k], one, sizeof(one));
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
	              o->type == CLI_DOUBLE || o->type == CLI_FIELD;

	if (numeric && fabs(v) < BIG)
		fprintf(f, ", \"%s\": %.17g", name, v);
	else
		fprintf(f, ", \"%s\": null", name);
}

void cli_print_options_json(FILE *f)
{
	static const char *const type_names[] = {
		[CLI_LONG] = "integer", [CLI_INT] = "integer", [CLI_COUNT] = "integer",
		[CLI_U64] = "unsigned", [CLI_DOUBLE] = "number", [CLI_FIELD] = "size",
		[CLI_STRING] = "string", [CLI_ENUM] = "choice", [CLI_MODEL] = "choice",
		[CLI_COLOR] = "color", [CLI_FLAG] = "flag", [CLI_CIRCLES] = "circles",
		[CLI_TARGET] = "target", [CLI_CAMERA] = "camera", [CLI_ACTION] = "action",
	};

	fprintf(f, "{\"program\": \"boids\", \"version\": \"%s\", \"options\": [", BOIDS_VERSION);
	for (size_t i = 0; i < NOPTS; i++) {
		const struct cli_option *o = &options[i];
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
		if (o->def)
			put_json_string(f, o->def);
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
		put_json_string(f, o->help);
		fputs(", \"units\": ", f);
		if (o->units)
			put_json_string(f, o->units);
		else
			fputs("null", f);
		put_json_bound(f, "min", o, o->min);
		put_json_bound(f, "max", o, o->max);
		fputc('}', f);
	}
	fputs("\n]}\n", f);
}

/* Writes text from column `col` on, wrapped at 80 columns under it. */
static void print_wrapped(FILE *f, int col, const char *text)
{
	enum { WIDTH = 80 };
	int at = col;

	while (*text) {
		size_t word = strcspn(text, " ");
		if (*text == '[' && strchr(text, ']')) /* "[50 px]" stays on one line */
			word = (size_t)(strchr(text, ']') - text) + 1;
		if (at > col && at + 1 + (int)word > WIDTH) {
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
	enum { COL = 26 };
	const char *group = NULL;

	fprintf(f,
	        "Usage: boids [OPTION]...\n"
	        "Simulate a flock (Harden's \"Boids in C#\" and four more models, in 2D or 3D)\n"
	        "and write it as video, PNG frames, y4m on standard output or a trajectory CSV.\n"
	        "With no options, writes a 10-second 640x360 H.264 clip to flock.mp4.\n");
	for (size_t i = 0; i < NOPTS; i++) {
		const struct cli_option *o = &options[i];
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
		bool units = o->units && o->def && strcmp(o->def, "auto") != 0;
		if (o->def && *o->def && o->type != CLI_FLAG)
			snprintf(text, sizeof(text), "%s [%s%s%s]", o->help, o->def, units ? " " : "",
			         units ? o->units : "");
		else
			snprintf(text, sizeof(text), "%s", o->help);
		print_wrapped(f, COL, text);
	}
	if (!all) /* the manual's line here: --help stays within 60 lines */
		fprintf(f, "\nAll options (models, drawing, encoding): boids --help-all; manual: man boids\n");
	fprintf(f,
	        "\nLimits: %ld boids, %ldx%ld fields and pictures, %ld frames;\n"
	        "positions and velocities within -%s..%s; config and --init lines\n"
	        "up to %ld bytes.  Exit status: 0 done, 1 runtime failure, 2 bad usage,\n"
	        "129/130/143 after SIGHUP/SIGINT/SIGTERM (the output is finished first).\n"
	        "%s",
	        CLI_MAX_BOIDS, CLI_MAX_FIELD, CLI_MAX_FIELD, CLI_MAX_FRAMES, STR(TRAJ_VALUE_MAX),
	        STR(TRAJ_VALUE_MAX), LINEREAD_MAX, all ? "Manual: man boids\n" : "");
}

void cli_print_models(FILE *f)
{
	const struct boids_model *const *m = model_list();

	for (size_t i = 0; m[i]; i++)
		fprintf(f, "%-11s %s%s\n", m[i]->name, m[i]->summary, i == 0 ? " [default]" : "");
}

const char *cli_choice_name(const struct cli_option *o, size_t k)
{
	if (o->type == CLI_MODEL)
		return model_names[k];
	return o->choices ? o->choices[k].name : NULL;
}
