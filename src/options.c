/*
 * options — the option table: every option in one row of cli_table[]: its
 * name, type and the field of struct config it fills (AT() checks the
 * field's C type), default, range, placeholder, units, group and help
 * line.  Parsing (getopt_long, cli.c), config keys, --help, --print-config
 * and --list-options (cli_print.c) are all driven by it; tests hold the
 * man page and docs/MODEL.md against the binary.  To add an option: a
 * field in the struct of the module that reads it, a row here, and an
 * entry in docs/boids.1 (docs/ARCHITECTURE.md, "Settings", has an
 * example).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cli_int.h"
#include "model.h"
#include "sim.h"

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
	{ "exact", RENDER_DRAW_EXACT }, { "fast", RENDER_DRAW_FAST }, { "points", RENDER_DRAW_POINTS }, END };
static const struct cli_choice bg_names[] = { { "flat", RENDER_BG_FLAT }, { "noise", RENDER_BG_NOISE }, END };
static const struct cli_choice precision_names[] = { { "double", 0 }, { "single", 1 }, END }; /* run.traj_single */
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
#define T_BOX(f)      CLI_BOX, AT(f[0], double)                 /* and f[1], f[2] */
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


/* name, short, type and field, default, min, max, flags, arg, units, group, help, choices */
const struct cli_option cli_table[] = {
	{ "boids", 'n', T_COUNT(run.boids), "100", 1, CLI_MAX_BOIDS, CLI_BRIEF, "N", NULL, S_MODEL,
	  "number of boids, predators included", NULL },
	{ "size", 's', T_FIELD, "640x360", 1, CLI_MAX_FIELD, CLI_BRIEF, "WxH", "px", S_MODEL,
	  "output size, as ffmpeg's -s; see --field", NULL },
	{ "field", 0, T_BOX(run.field), "", 1, CLI_MAX_SPAN, 0, "WxH[xD]", "px", S_MODEL,
	  "the flock's field (up to 1e9 px a side), drawn fitted into -s; none: -s is the field", NULL },
	{ "dims", 0, T_INT(sim.dims), "2", 2, 3, CLI_BRIEF, "N", NULL, S_MODEL,
	  "2: a plane; 3: a box as deep as --depth", NULL },
	{ "depth", 0, T_DOUBLE(sim.depth), "0", 0, CLI_MAX_SPAN, 0, "D", "px", S_MODEL,
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
	  "write each frame's state: .csv[.gz|.zst] or .h5", NULL },
	{ "trajectory-every", 0, T_LONG(run.traj_every), "1", 1, CLI_MAX_FRAMES, 0, "K", NULL, S_RUN,
	  "write frames 0, K, 2K... of the trajectory", NULL },
	{ "trajectory-precision", 0, T_ENUM(run.traj_single, int), "double", 0, 0, 0, "P", NULL, S_RUN,
	  "HDF5: double (float64) or single (float32) numbers", precision_names },
	{ "trajectory-compress", 0, T_LONG(run.traj_compress), "auto", 0, 19, CLI_AUTO, "N", NULL, S_RUN,
	  "level: .h5 0..9 (auto 0), .csv.gz 0..9 (6), .csv.zst 1..19 (3)", NULL },
	{ "trajectory-predator", 0, T_FLAG(run.traj_predator), "no", 0, 0, 0, NULL, NULL, S_RUN,
	  "CSV: a last column, predator, 1 or 0 (HDF5 always has one)", NULL },
	{ "init", 0, T_STRING(run.init), "", 0, 0, CLI_BRIEF, "FILE", NULL, S_RUN,
	  "start from a --trajectory file's last frame", NULL },
	{ "init-frame", 0, T_LONG(run.init_frame), "auto", 0, CLI_MAX_FRAMES, CLI_AUTO, "K", NULL, S_RUN,
	  "start from frame K of --init (auto: its last)", NULL },
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
	  "exact, fast (IoU >= .99) or points (millions)", draw_names },
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

#define NOPTS (sizeof(cli_table) / sizeof(cli_table[0]))
_Static_assert(NOPTS <= CONFIG_MAX_OPTIONS, "struct run_options: given[] too small");

const size_t cli_nopts = NOPTS;

const struct cli_option *cli_options(size_t *count)
{
	*count = NOPTS;
	return cli_table;
}

const struct cli_option *cli_find(const char *name)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (strcmp(cli_table[i].name, name) == 0)
			return &cli_table[i];
	return NULL;
}

size_t cli_index(const struct cli_option *o)
{
	return (size_t)(o - cli_table);
}

int cli_given(const struct config *c, const char *name)
{
	const struct cli_option *o = cli_find(name);

	return o ? c->run.given[cli_index(o)] : 0;
}
