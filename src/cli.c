/*
 * cli — options, config files, validation and help; see include/cli.h.
 *
 * Everything about an option lives in one row of `options[]` below: its
 * name, type, default, range, placeholder and help line.  Parsing
 * (getopt_long), config keys (inih), --help and --print-config are all
 * driven by that table, and a test checks the man page against it, so the
 * five cannot drift apart.  To add an option: add a field to struct
 * settings, a row here, and a line to docs/boids.1.
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
#include "model.h"
#include "lineread.h"
#include "traj.h"

#define STR_(x) #x
#define STR(x) STR_(x)

#define OFF(f) offsetof(struct settings, f)

static const char *const edges_names[] = { "bounce", "wrap", "both", "none", NULL };
static const char *const update_names[] = { "sequential", "synchronous", NULL };
static const char *const shape_names[] = { "curve", "repo", "polygon", "triangle", "arrow", "circle", NULL };
static const char *const outline_names[] = { "listing", "final", NULL };
static const char *const paint_names[] = { "fill", "stroke", NULL };
static const char *const grid_names[] = { "cairo", "gdi", NULL };
static const char *const look_names[] = { "model", "original", "harden-windows", "canvas-article", NULL };
static const char *const separation_names[] = { "unit", "inverse", NULL };
static const char *const turn_names[] = { "short", "steady", NULL };
static const char *const trail_style_names[] = { "fade", "opengl", NULL };
static const char *const gl_avoid_names[] = { "own", "all", NULL };
static const char *const aa_names[] = { "none", "fast", "good", "best", NULL };
static const char *const draw_names[] = { "exact", "fast", NULL };
static const char *const progress_names[] = { "auto", "always", "never", "lines", "json", NULL };
static const char *const bg_names[] = { "flat", "noise", NULL };
static const char *const proc_limit_names[] = { "length", "components", NULL };

static const char S_MODEL[] = "Model (defaults are the C# article's)";
static const char S_MODELS[] = "Other models (docs/MODEL.md)";
static const char S_GL[] = "OpenGL model, -m opengl (its sliders at their start)";
static const char S_RUN[] = "Run and output";
static const char S_DRAW[] = "Drawing";
static const char S_VIDEO[] = "Video encoding";
static const char S_INFO[] = "Information";

#define BIG 1e300  /* "no bound" */
#define LIM 1e6    /* bound of model numbers: keeps every sum finite */

/* name, short, type, offset, default, min, max, flags, arg, section, help, choices */
static const struct cli_option options[] = {
	{ "boids", 'n', CLI_LONG, OFF(boids), "100", 1, CLI_MAX_BOIDS, CLI_BRIEF, "N", S_MODEL,
	  "number of boids, predators included", NULL },
	{ "size", 's', CLI_SIZE, OFF(width), "640x360", 1, CLI_MAX_FIELD, CLI_BRIEF, "WxH", S_MODEL,
	  "field size in pixels", NULL },
	{ "seed", 0, CLI_U64, OFF(seed), "1", 0, 0, CLI_BRIEF, "N", S_MODEL,
	  "seed of the initial flock", NULL },
	{ "predators", 0, CLI_LONG, OFF(predators), "3", 0, CLI_MAX_BOIDS, CLI_BRIEF, "N", S_MODEL,
	  "the first N boids are predators", NULL },
	{ "edges", 0, CLI_ENUM, OFF(edges), "bounce", 0, 0, CLI_BRIEF, "MODE", S_MODEL,
	  "bounce, wrap, both or none", edges_names },
	{ "update", 0, CLI_ENUM, OFF(update), "sequential", 0, 0, 0, "MODE", S_MODEL,
	  "sequential (in place, as the original) or synchronous", update_names },
	{ "flock-radius", 0, CLI_DOUBLE, OFF(flock_radius), "50", 0, LIM, CLI_GT_MIN, "R", S_MODEL,
	  "cohesion: neighbours closer than R pixels", NULL },
	{ "flock-weight", 0, CLI_DOUBLE, OFF(flock_weight), "0.0003", -LIM, LIM, 0, "W", S_MODEL,
	  "cohesion: steer toward their centre, times W", NULL },
	{ "align-radius", 0, CLI_DOUBLE, OFF(align_radius), "50", 0, LIM, CLI_GT_MIN, "R", S_MODEL,
	  "alignment: neighbours closer than R pixels", NULL },
	{ "align-weight", 0, CLI_DOUBLE, OFF(align_weight), "0.01", -LIM, LIM, 0, "W", S_MODEL,
	  "alignment: match their mean velocity, times W", NULL },
	{ "avoid-radius", 0, CLI_DOUBLE, OFF(avoid_radius), "20", 0, LIM, CLI_GT_MIN, "R", S_MODEL,
	  "separation: boids closer than R pixels", NULL },
	{ "avoid-weight", 0, CLI_DOUBLE, OFF(avoid_weight), "0.001", -LIM, LIM, 0, "W", S_MODEL,
	  "separation: push away by closeness, times W", NULL },
	{ "predator-radius", 0, CLI_DOUBLE, OFF(predator_radius), "150", 0, LIM, CLI_GT_MIN, "R", S_MODEL,
	  "flee predators closer than R pixels", NULL },
	{ "predator-weight", 0, CLI_DOUBLE, OFF(predator_weight), "0.00005", -LIM, LIM, 0, "W", S_MODEL,
	  "flee predators by closeness, times W", NULL },
	{ "min-speed", 0, CLI_DOUBLE, OFF(min_speed), "1", 0, LIM, 0, "V", S_MODEL,
	  "slowest speed after a move, pixels per step", NULL },
	{ "max-speed", 0, CLI_DOUBLE, OFF(max_speed), "5", 0, LIM, CLI_GT_MIN, "V", S_MODEL,
	  "fastest speed after a move, pixels per step", NULL },
	{ "wall-pad", 0, CLI_DOUBLE, OFF(wall_pad), "50", 0, LIM, 0, "D", S_MODEL,
	  "bounce: margin along each edge, pixels", NULL },
	{ "wall-turn", 0, CLI_DOUBLE, OFF(wall_turn), "0.5", 0, LIM, 0, "V", S_MODEL,
	  "bounce: velocity change per step inside the margin", NULL },
	{ "warmup", 0, CLI_LONG, OFF(warmup), "0", 0, CLI_MAX_FRAMES, 0, "N", S_MODEL,
	  "steps simulated before frame 0", NULL },
	{ "substeps", 0, CLI_LONG, OFF(substeps), "1", 1, 1000, 0, "N", S_MODEL,
	  "steps per frame", NULL },
	{ "threads", 0, CLI_LONG, OFF(threads), "auto", 1, 256, CLI_AUTO, "N", S_MODEL,
	  "worker threads (auto: one per core); never changes the output", NULL },

	{ "model", 'm', CLI_ENUM, OFF(model), "harden", 0, 0, CLI_BRIEF, "NAME", S_MODELS,
	  "harden, processing, steering, canvas, opengl", model_names },
	{ "target", 0, CLI_TARGET, OFF(target), "lissajous", 0, 0, CLI_BRIEF, "WHERE", S_MODELS,
	  "steering target: lissajous, X,Y or none", NULL },
	{ "obstacle-margin", 0, CLI_DOUBLE, OFF(obstacle_margin), "30", 0, LIM, 0, "D", S_MODELS,
	  "obstacles: push starts D pixels outside a circle", NULL },
	{ "obstacle-weight", 0, CLI_DOUBLE, OFF(obstacle_weight), "0.2", 0, LIM, 0, "W", S_MODELS,
	  "obstacles: push per pixel of depth, times W", NULL },
	{ "target-amp-x", 0, CLI_DOUBLE, OFF(target_amp_x), "0.3", 0, 0.5, 0, "F", S_MODELS,
	  "lissajous target: x amplitude, fraction of the width", NULL },
	{ "target-amp-y", 0, CLI_DOUBLE, OFF(target_amp_y), "0.3", 0, 0.5, 0, "F", S_MODELS,
	  "lissajous target: y amplitude, fraction of the height", NULL },
	{ "target-freq-x", 0, CLI_DOUBLE, OFF(target_freq_x), "3", 0, LIM, 0, "N", S_MODELS,
	  "lissajous target: x cycles per period", NULL },
	{ "target-freq-y", 0, CLI_DOUBLE, OFF(target_freq_y), "2", 0, LIM, 0, "N", S_MODELS,
	  "lissajous target: y cycles per period", NULL },
	{ "target-period", 0, CLI_DOUBLE, OFF(target_period), "1200", 0, LIM, CLI_GT_MIN, "STEPS", S_MODELS,
	  "lissajous target: steps per period", NULL },
	{ "proc-cohesion-radius", 0, CLI_DOUBLE, OFF(proc_cohesion_radius), "40", 0, LIM, CLI_GT_MIN, "R", S_MODELS,
	  "processing: cohesion range, pixels", NULL },
	{ "proc-separation-radius", 0, CLI_DOUBLE, OFF(proc_separation_radius), "10", 0, LIM, CLI_GT_MIN, "R", S_MODELS,
	  "processing: separation range, pixels", NULL },
	{ "proc-alignment-radius", 0, CLI_DOUBLE, OFF(proc_alignment_radius), "40", 0, LIM, CLI_GT_MIN, "R", S_MODELS,
	  "processing: alignment range, pixels", NULL },
	{ "proc-cohesion-weight", 0, CLI_DOUBLE, OFF(proc_cohesion_weight), "0.5", -LIM, LIM, 0, "W", S_MODELS,
	  "processing: cohesion weight", NULL },
	{ "proc-separation-weight", 0, CLI_DOUBLE, OFF(proc_separation_weight), "4", -LIM, LIM, 0, "W", S_MODELS,
	  "processing: separation weight", NULL },
	{ "proc-alignment-weight", 0, CLI_DOUBLE, OFF(proc_alignment_weight), "4", -LIM, LIM, 0, "W", S_MODELS,
	  "processing: alignment weight", NULL },
	{ "proc-max-force", 0, CLI_DOUBLE, OFF(proc_max_force), "0", 0, LIM, 0, "A", S_MODELS,
	  "processing: acceleration limit, pixels/step^2 (0: none, the listing; sketch 5)", NULL },
	{ "proc-max-speed", 0, CLI_DOUBLE, OFF(proc_max_speed), "0", 0, LIM, 0, "V", S_MODELS,
	  "processing: speed limit, pixels/step (0: none, the listing; sketch 3)", NULL },
	{ "separation", 0, CLI_ENUM, OFF(proc_separation), "unit", 0, 0, 0, "LAW", S_MODELS,
	  "processing: unit (the Java listing) or inverse (unit/distance) pushes", separation_names },
	{ "proc-limit", 0, CLI_ENUM, OFF(proc_limit), "length", 0, 0, 0, "HOW", S_MODELS,
	  "processing: limit the vectors' length, or each component (the sketch)", proc_limit_names },
	{ "proc-jitter", 0, CLI_DOUBLE, OFF(proc_jitter), "0", 0, LIM, 0, "J", S_MODELS,
	  "processing: random push in [-J, J] per component (the sketch: 6)", NULL },
	{ "steer-radius", 0, CLI_DOUBLE, OFF(steer_radius), "20", 0, LIM, CLI_GT_MIN, "R", S_MODELS,
	  "steering: neighbour range, pixels", NULL },
	{ "steer-cohesion-steps", 0, CLI_DOUBLE, OFF(steer_cohesion_steps), "100", 1, LIM, 0, "S", S_MODELS,
	  "steering: cohesion divides the offset by S", NULL },
	{ "steer-cohesion-weight", 0, CLI_DOUBLE, OFF(steer_cohesion_weight), "0.05", -LIM, LIM, 0, "W", S_MODELS,
	  "steering: cohesion weight", NULL },
	{ "steer-separation-steps", 0, CLI_DOUBLE, OFF(steer_separation_steps), "1", 1, LIM, 0, "S", S_MODELS,
	  "steering: separation divides every push by S", NULL },
	{ "steer-socialize-weight", 0, CLI_DOUBLE, OFF(steer_socialize_weight), "0", -LIM, LIM, 0, "V", S_MODELS,
	  "steering: a boid alone heads for the others' centre, pixels/step (0: off)", NULL },
	{ "steer-separation-weight", 0, CLI_DOUBLE, OFF(steer_separation_weight), "156.25", -LIM, LIM, 0, "W", S_MODELS,
	  "steering: separation (1/r^2) weight", NULL },
	{ "steer-alignment-weight", 0, CLI_DOUBLE, OFF(steer_alignment_weight), "0.25", -LIM, LIM, 0, "W", S_MODELS,
	  "steering: alignment weight", NULL },
	{ "steer-seek-weight", 0, CLI_DOUBLE, OFF(steer_seek_weight), "0", 0, LIM, 0, "V", S_MODELS,
	  "steering: speed of seeking the target (0: off)", NULL },
	{ "steer-arrival-radius", 0, CLI_DOUBLE, OFF(steer_arrival_radius), "50", 0, LIM, 0, "R", S_MODELS,
	  "steering: slow down within R of the target (0: off)", NULL },
	{ "steer-arrival-speed", 0, CLI_DOUBLE, OFF(steer_arrival_speed), "5", 0, LIM, 0, "V", S_MODELS,
	  "steering: top arrival speed, pixels/step", NULL },
	{ "steer-max-speed", 0, CLI_DOUBLE, OFF(steer_max_speed), "3.75", 0, LIM, CLI_GT_MIN, "V", S_MODELS,
	  "steering: velocity limit, pixels/step", NULL },
	{ "steer-max-turn", 0, CLI_DOUBLE, OFF(steer_max_turn), "6.4", 0, 180, CLI_GT_MIN, "DEG", S_MODELS,
	  "steering: rotation limit, degrees per step", NULL },
	{ "steer-turn", 0, CLI_ENUM, OFF(steer_turn), "short", 0, 0, 0, "WAY", S_MODELS,
	  "steering: turn the short way (Unity), or steady: over 150 degrees always +", turn_names },
	{ "canvas-visual-range", 0, CLI_DOUBLE, OFF(canvas_visual_range), "50", 0, LIM, CLI_GT_MIN, "R", S_MODELS,
	  "canvas: visual range, pixels", NULL },
	{ "canvas-cohesion-resistance", 0, CLI_DOUBLE, OFF(canvas_cohesion_resistance), "10", 0, LIM, CLI_GT_MIN, "K", S_MODELS,
	  "canvas: cohesion divided by K", NULL },
	{ "canvas-separation-distance", 0, CLI_DOUBLE, OFF(canvas_separation_distance), "15", 0, LIM, 0, "D", S_MODELS,
	  "canvas: separation distance, pixels", NULL },
	{ "canvas-alignment-eagerness", 0, CLI_DOUBLE, OFF(canvas_alignment_eagerness), "0.05", -LIM, LIM, 0, "E", S_MODELS,
	  "canvas: alignment eagerness", NULL },
	{ "canvas-speed", 0, CLI_DOUBLE, OFF(canvas_speed), "100", 0, LIM, CLI_GT_MIN, "V", S_MODELS,
	  "canvas: constant speed, pixels per second", NULL },
	{ "canvas-dt", 0, CLI_DOUBLE, OFF(canvas_dt), "0.016666666666666666", 0, LIM, CLI_GT_MIN, "S", S_MODELS,
	  "canvas: time step, seconds (1/60)", NULL },

	{ "gl-flock-radius", 0, CLI_DOUBLE, OFF(gl_flock_radius), "100", 0, LIM, CLI_GT_MIN, "R", S_GL,
	  "cohesion: others closer than R pixels", NULL },
	{ "gl-flock-weight", 0, CLI_DOUBLE, OFF(gl_flock_weight), "0.0005", -LIM, LIM, 0, "W", S_GL,
	  "cohesion: steer toward their centre, times W", NULL },
	{ "gl-predator-sight", 0, CLI_DOUBLE, OFF(gl_predator_sight), "2", 0, 100, 0, "K", S_GL,
	  "cohesion: predators see K times as far", NULL },
	{ "gl-avoid-radius", 0, CLI_DOUBLE, OFF(gl_avoid_radius), "20", 0, LIM, CLI_GT_MIN, "R", S_GL,
	  "separation: boids closer than R pixels", NULL },
	{ "gl-avoid-weight", 0, CLI_DOUBLE, OFF(gl_avoid_weight), "0.005", -LIM, LIM, 0, "W", S_GL,
	  "separation: push away by offset x closeness, times W", NULL },
	{ "gl-avoid", 0, CLI_ENUM, OFF(gl_avoid), "own", 0, 0, 0, "KIND", S_GL,
	  "separation: from its own kind only (own) or from all", gl_avoid_names },
	{ "gl-align-radius", 0, CLI_DOUBLE, OFF(gl_align_radius), "100", 0, LIM, CLI_GT_MIN, "R", S_GL,
	  "alignment: others closer than R pixels", NULL },
	{ "gl-align-weight", 0, CLI_DOUBLE, OFF(gl_align_weight), "0.03", -LIM, LIM, 0, "W", S_GL,
	  "alignment: match their mean velocity, times W", NULL },
	{ "gl-flee-radius", 0, CLI_DOUBLE, OFF(gl_flee_radius), "100", 0, LIM, CLI_GT_MIN, "R", S_GL,
	  "flee predators closer than R pixels", NULL },
	{ "gl-flee-weight", 0, CLI_DOUBLE, OFF(gl_flee_weight), "0.002", -LIM, LIM, 0, "W", S_GL,
	  "flee: away by the offset times W (not by closeness)", NULL },
	{ "gl-wall-pad", 0, CLI_DOUBLE, OFF(gl_wall_pad), "100", 0, LIM, 0, "D", S_GL,
	  "walls: margin along each edge, pixels", NULL },
	{ "gl-wall-turn", 0, CLI_DOUBLE, OFF(gl_wall_turn), "0.1", 0, LIM, 0, "V", S_GL,
	  "walls: velocity change per step inside the margin", NULL },
	{ "gl-speed-min", 0, CLI_DOUBLE, OFF(gl_speed_min), "0.5", 0, LIM, 0, "V", S_GL,
	  "target speeds are drawn from [min, max) at the start", NULL },
	{ "gl-speed-max", 0, CLI_DOUBLE, OFF(gl_speed_max), "1.5", 0, LIM, 0, "V", S_GL,
	  "(see --gl-speed-min)", NULL },
	{ "gl-predator-boost", 0, CLI_DOUBLE, OFF(gl_predator_boost), "0.5", 0, LIM, 0, "V", S_GL,
	  "added to a predator's target speed", NULL },
	{ "gl-speed-ease", 0, CLI_DOUBLE, OFF(gl_speed_ease), "0.1", 0, 1, 0, "F", S_GL,
	  "each step the speed moves this fraction toward the target", NULL },
	{ "gl-step", 0, CLI_DOUBLE, OFF(gl_step), "2", 0, 100, CLI_GT_MIN, "K", S_GL,
	  "the speed slider: a step moves a boid K times its velocity", NULL },

	{ "frames", 'f', CLI_LONG, OFF(frames), "300", 1, CLI_MAX_FRAMES, CLI_BRIEF, "N", S_RUN,
	  "frames to write", NULL },
	{ "duration", 0, CLI_DOUBLE, OFF(duration), "auto", 0, 1e7, CLI_GT_MIN | CLI_AUTO | CLI_BRIEF, "SECONDS", S_RUN,
	  "frames = SECONDS x fps, instead of -f", NULL },
	{ "output", 'o', CLI_STRING, OFF(output), "flock.mp4", 0, 0, CLI_BRIEF, "FILE", S_RUN,
	  "a video (.mp4 .webm .gif), f_%05d.png or -", NULL },
	{ "trajectory", 0, CLI_STRING, OFF(trajectory), "", 0, 0, CLI_BRIEF, "FILE", S_RUN,
	  "write every frame's state as CSV", NULL },
	{ "init", 0, CLI_STRING, OFF(init), "", 0, 0, CLI_BRIEF, "FILE", S_RUN,
	  "start from a trajectory CSV's last frame", NULL },
	{ "metrics", 0, CLI_STRING, OFF(metrics), "", 0, 0, CLI_BRIEF, "FILE", S_RUN,
	  "write flock metrics per frame as CSV", NULL },
	{ "summary", 0, CLI_STRING, OFF(summary), "", 0, 0, CLI_BRIEF, "FILE", S_RUN,
	  "write a JSON summary of the run (- stdout)", NULL },
	{ "poster", 0, CLI_LONG, OFF(poster), "auto", 0, CLI_MAX_FRAMES - 1, CLI_AUTO, "N", S_RUN,
	  "frame a still (-o NAME.png, no %d) holds, from 0 (auto: the last)", NULL },
	{ "overwrite", 'y', CLI_FLAG, OFF(overwrite), "no", 0, 0, CLI_BRIEF, NULL, S_RUN,
	  "replace existing output files", NULL },
	{ "no-clobber", 0, CLI_FLAG, 0, NULL, 0, 0, CLI_NOCONFIG, NULL, S_RUN,
	  "never replace existing files (the default; cancels -y)", NULL },
	{ "no-render", 0, CLI_FLAG, OFF(no_render), "no", 0, 0, CLI_BRIEF, NULL, S_RUN,
	  "simulate only: no pictures", NULL },
	{ "progress", 0, CLI_ENUM, OFF(progress), "auto", 0, 0, CLI_BRIEF, "HOW", S_RUN,
	  "auto, always, lines, json or never", progress_names },
	{ "progress-interval", 0, CLI_DOUBLE, OFF(progress_interval), "5", 0.1, 86400, 0, "SECONDS", S_RUN,
	  "seconds between progress lines (lines, json, always off a terminal)", NULL },
	{ "quiet", 'q', CLI_FLAG, OFF(quiet), "no", 0, 0, CLI_BRIEF, NULL, S_RUN,
	  "no progress and no closing line", NULL },
	{ "verbose", 0, CLI_FLAG, OFF(verbose), "no", 0, 0, 0, NULL, S_RUN,
	  "say the thread counts and why, and the codec and container, before the run", NULL },

	{ "scale", 0, CLI_DOUBLE, OFF(scale), "1", 0, 64, CLI_GT_MIN | CLI_BRIEF, "S", S_DRAW,
	  "picture = field x S", NULL },
	{ "shape", 0, CLI_ENUM, OFF(shape), "curve", 0, 0, 0, "SHAPE", S_DRAW,
	  "curve (C# spline), repo (= --outline final), polygon, triangle (canvas), arrow (OpenGL), circle", shape_names },
	{ "outline", 0, CLI_ENUM, OFF(outline), "listing", 0, 0, 0, "WHICH", S_DRAW,
	  "C# outline points: listing (the article's) or final (the program's, smaller)", outline_names },
	{ "paint", 0, CLI_ENUM, OFF(paint), "fill", 0, 0, 0, "HOW", S_DRAW,
	  "fill the outline, or stroke it with a 1-pixel line", paint_names },
	{ "pixel-grid", 0, CLI_ENUM, OFF(pixel_grid), "cairo", 0, 0, 0, "GRID", S_DRAW,
	  "cairo (pixel centres at .5), or gdi: centres on whole coordinates (GDI+)", grid_names },
	{ "look", 0, CLI_ENUM, OFF(look), "model", 0, 0, 0, "LOOK", S_DRAW,
	  "model, original (as its author's program showed it), harden-windows or canvas-article", look_names },
	{ "boid-size", 0, CLI_DOUBLE, OFF(boid_size), "1", 0.01, 100, 0, "K", S_DRAW,
	  "scale the outline by K, 0.01..100", NULL },
	{ "background", 0, CLI_COLOR, OFF(background), "#003366", 0, 0, CLI_BRIEF, "COLOR", S_DRAW,
	  "background colour: #RRGGBB or a CSS name", NULL },
	{ "boid-color", 0, CLI_COLOR, OFF(boid_color), "#90ee90", 0, 0, CLI_BRIEF, "COLOR", S_DRAW,
	  "colour of the boids", NULL },
	{ "predator-color", 0, CLI_COLOR, OFF(predator_color), "#ffffff", 0, 0, 0, "COLOR", S_DRAW,
	  "colour of the predators (white)", NULL },
	{ "antialias", 0, CLI_ENUM, OFF(antialias), "good", 0, 0, 0, "MODE", S_DRAW,
	  "none, fast, good or best", aa_names },
	{ "draw", 0, CLI_ENUM, OFF(draw), "exact", 0, 0, CLI_BRIEF, "MODE", S_DRAW,
	  "exact or fast (big flocks; edges IoU >= .99)", draw_names },
	{ "trail", 0, CLI_LONG, OFF(trail), "0", 0, CLI_MAX_TRAIL, 0, "N", S_DRAW,
	  "draw each boid's last N positions as a fading line", NULL },
	{ "trail-style", 0, CLI_ENUM, OFF(trail_style), "fade", 0, 0, 0, "STYLE", S_DRAW,
	  "fade (1 px, all trails first) or opengl (2 px, each before its boid)", trail_style_names },
	{ "show-ranges", 0, CLI_FLAG, OFF(show_ranges), "no", 0, 0, 0, NULL, S_DRAW,
	  "draw the rule radii around the last boid (the OpenGL version's Ranges)", NULL },
	{ "predator-size", 0, CLI_DOUBLE, OFF(predator_size), "1", 0.01, 100, 0, "K", S_DRAW,
	  "predators' outline K times the boids', 0.01..100", NULL },
	{ "opengl", 0, CLI_FLAG, OFF(opengl), "no", 0, 0, 0, NULL, S_DRAW,
	  "the article's OpenGL look: --trail 20, yellow predators 1.5x (unless set)", NULL },
	{ "background-style", 0, CLI_ENUM, OFF(background_style), "flat", 0, 0, 0, "STYLE", S_DRAW,
	  "flat, or noise: seeded Perlin clouds around the background colour", bg_names },
	{ "obstacle", 0, CLI_CIRCLES, OFF(obstacles), "", 0, LIM, CLI_BRIEF, "X,Y,R", S_DRAW,
	  "a circle every model avoids (repeatable)", NULL },
	{ "obstacle-color", 0, CLI_COLOR, OFF(obstacle_color), "#5a7896", 0, 0, 0, "COLOR", S_DRAW,
	  "colour of the obstacles", NULL },
	{ "target-color", 0, CLI_COLOR, OFF(target_color), "#ffcc00", 0, 0, 0, "COLOR", S_DRAW,
	  "colour of the steering target's marker", NULL },
	{ "start-number", 0, CLI_LONG, OFF(start_number), "0", 0, 1e9, 0, "N", S_DRAW,
	  "number of the first PNG of a sequence", NULL },
	{ "png-level", 0, CLI_LONG, OFF(png_level), "1", 0, 9, 0, "N", S_DRAW,
	  "PNG compression level, 0 (none) to 9 (smallest)", NULL },

	{ "fps", 'r', CLI_LONG, OFF(fps), "30", 1, 1000, CLI_BRIEF, "N", S_VIDEO,
	  "frames per second", NULL },
	{ "codec", 0, CLI_STRING, OFF(codec), "", 0, 0, CLI_BRIEF, "NAME", S_VIDEO,
	  "FFmpeg encoder (libx264; webm: libvpx-vp9)", NULL },
	{ "crf", 0, CLI_LONG, OFF(crf), "auto", 0, 63, CLI_AUTO | CLI_BRIEF, "N", S_VIDEO,
	  "constant rate factor (23 H.264, 41 VP9)", NULL },
	{ "preset", 0, CLI_STRING, OFF(preset), "", 0, 0, CLI_BRIEF, "NAME", S_VIDEO,
	  "encoder speed preset (H.264: veryfast)", NULL },
	{ "bitrate", 0, CLI_STRING, OFF(bitrate), "", 0, 0, 0, "RATE", S_VIDEO,
	  "target bitrate such as 2M instead of constant quality", NULL },
	{ "pix-fmt", 0, CLI_STRING, OFF(pix_fmt), "", 0, 0, 0, "FMT", S_VIDEO,
	  "encoder pixel format (default yuv420p; rgb8 for GIF)", NULL },
	{ "gop", 0, CLI_LONG, OFF(gop), "auto", 1, 100000, CLI_AUTO, "N", S_VIDEO,
	  "frames between keyframes", NULL },

	{ "encoder-threads", 0, CLI_LONG, OFF(encoder_threads), "4", 1, 64, CLI_AUTO, "N", S_VIDEO,
	  "encoder threads; a fixed count gives the same bytes on every machine", NULL },

	{ "config", 'c', CLI_ACTION, 0, NULL, 0, 0, CLI_NOCONFIG | CLI_BRIEF, "FILE", S_INFO,
	  "read key = value settings from FILE first", NULL },
	{ "completion", 0, CLI_ACTION, 0, NULL, 0, 0, CLI_NOCONFIG, "SHELL", S_INFO,
	  "print the bash or zsh completion script and exit", NULL },
	{ "print-config", 0, CLI_ACTION, 0, NULL, 0, 0, CLI_NOCONFIG | CLI_BRIEF, NULL, S_INFO,
	  "print the settings as a config file, exit", NULL },
	{ "list-options", 0, CLI_ACTION, 0, NULL, 0, 0, CLI_NOCONFIG, NULL, S_INFO,
	  "print every option as JSON (for scripts such as scripts/sweep) and exit", NULL },
	{ "list-models", 0, CLI_ACTION, 0, NULL, 0, 0, CLI_NOCONFIG | CLI_BRIEF, NULL, S_INFO,
	  "list the models (-m), exit", NULL },
	{ "list-codecs", 0, CLI_ACTION, 0, NULL, 0, 0, CLI_NOCONFIG | CLI_BRIEF, NULL, S_INFO,
	  "list the encoders for each container, exit", NULL },
	{ "help", 'h', CLI_ACTION, 0, NULL, 0, 0, CLI_NOCONFIG | CLI_BRIEF, NULL, S_INFO,
	  "show this help and exit", NULL },
	{ "help-all", 0, CLI_ACTION, 0, NULL, 0, 0, CLI_NOCONFIG | CLI_BRIEF, NULL, S_INFO,
	  "show every option and exit", NULL },
	{ "version", 'V', CLI_ACTION, 0, NULL, 0, 0, CLI_NOCONFIG | CLI_BRIEF, NULL, S_INFO,
	  "show the version and exit", NULL },
};

#define NOPTS (sizeof(options) / sizeof(options[0]))
_Static_assert(NOPTS <= sizeof(((struct settings *)0)->given), "struct settings: given[] too small");

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

int cli_given(const struct settings *s, const char *name)
{
	const struct cli_option *o = cli_find(name);

	return o ? s->given[index_of(o)] : 0;
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

static int parse_long(const struct cli_option *o, const char *v, long *out,
                      char *err, size_t errlen)
{
	char range[160], *end;

	describe_range(o, range, sizeof(range));
	if ((o->flags & CLI_AUTO) && strcmp(v, "auto") == 0) {
		*out = -1;
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
		*out = -1;
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

static int parse_size(const struct cli_option *o, const char *v, long *w, long *h,
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
	*w = a;
	*h = b;
	return 0;
bad:
	return errf(err, errlen, "--%s: '%s' is not WIDTHxHEIGHT such as 640x360", o->name, CUT(v));
}

static int parse_enum(const struct cli_option *o, const char *v, int *out,
                      char *err, size_t errlen)
{
	char list[128] = "";

	for (int i = 0; o->choices[i]; i++) {
		if (strcmp(v, o->choices[i]) == 0) {
			*out = i;
			return 0;
		}
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
		         i ? ", " : "", o->choices[i]);
	}
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

static int parse_circle(struct settings *s, const struct cli_option *o, const char *v,
                        char *err, size_t errlen)
{
	double c[3];

	if (!*v) {
		s->obstacles_n = 0; /* an empty value clears the list */
		return 0;
	}
	if (parse_tuple(v, c, 3) || !(c[2] > 0))
		return errf(err, errlen, "--%s: '%s' is not X,Y,R (numbers within 1e6, R above 0)", o->name, CUT(v));
	if (s->obstacles_n >= CLI_MAX_OBSTACLES)
		return errf(err, errlen, "--%s: more than %d obstacles", o->name, CLI_MAX_OBSTACLES);
	memcpy(s->obstacles[s->obstacles_n++], c, sizeof(c));
	return 0;
}

static int parse_target(struct settings *s, const struct cli_option *o, const char *v,
                        char *err, size_t errlen)
{
	double xy[2];

	if (strcmp(v, "none") == 0) {
		s->target = CLI_TARGET_NONE;
	} else if (strcmp(v, "lissajous") == 0) {
		s->target = CLI_TARGET_LISSAJOUS;
	} else if (parse_tuple(v, xy, 2) == 0) {
		s->target = CLI_TARGET_FIXED;
		s->target_x = xy[0];
		s->target_y = xy[1];
	} else {
		return errf(err, errlen, "--%s: '%s' is not X,Y, lissajous or none", o->name, CUT(v));
	}
	return 0;
}

/* Parses v (NULL for a flag on the command line) into the option's field. */
static int set_value(struct settings *s, const struct cli_option *o, const char *v,
                     char *err, size_t errlen)
{
	char *base = (char *)s;
	void *field = base + o->offset;

	switch (o->type) {
	case CLI_LONG:
		return parse_long(o, v, field, err, errlen);
	case CLI_U64:
		return parse_u64(o, v, field, err, errlen);
	case CLI_DOUBLE:
		return parse_double(o, v, field, err, errlen);
	case CLI_SIZE:
		return parse_size(o, v, &s->width, &s->height, err, errlen);
	case CLI_ENUM:
		return parse_enum(o, v, field, err, errlen);
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
	case CLI_FLAG:
		if (strcmp(o->name, "no-clobber") == 0) {
			int no;
			if (v && parse_flag(o, v, &no, err, errlen))
				return -1;
			if (!v || no)
				s->overwrite = 0;
			return 0;
		}
		if (!v)
			return *(int *)field = 1, 0;
		return parse_flag(o, v, field, err, errlen);
	case CLI_CIRCLES:
		return parse_circle(s, o, v, err, errlen);
	case CLI_TARGET:
		return parse_target(s, o, v, err, errlen);
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

static int read_config(struct settings *s, const char *path, char *err, size_t errlen)
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
		const struct cli_option *o = cli_find(p);
		if (!o || (o->flags & CLI_NOCONFIG)) {
			ret = errf(err, errlen, "%s:%ld: unknown key '%s'", CLI_CUT_PATH(path), lineno, CUT(p));
			break;
		}
		if ((ret = set_value(s, o, v, msg, sizeof(msg))) != 0) {
			errf(err, errlen, "%s:%ld: %s", CLI_CUT_PATH(path), lineno, msg);
			break;
		}
		s->given[index_of(o)] = 1; /* from a file */
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

/* Sets option `name` to `value`, as typed, unless the user set it. */
static int fill_in(struct settings *s, const char *name, const char *value, char *err, size_t errlen)
{
	const struct cli_option *o = cli_find(name);

	if (!o || cli_given(s, name))
		return 0;
	return set_value(s, o, value, err, errlen);
}

/*
 * The defaults of the model's program (docs/MODEL.md) and of --look, for
 * every setting the user did not give.  The table's defaults are the C#
 * article's; harden changes nothing here.
 */
static int model_defaults(struct settings *s, char *err, size_t errlen)
{
	int look = s->look, e = 0;

	if (look == CLI_LOOK_ORIGINAL || look == CLI_LOOK_MODEL) {
		if (s->model == CLI_MODEL_CANVAS)
			look = CLI_LOOK_CANVAS_ARTICLE; /* the canvas model's own look */
		else if (s->model == CLI_MODEL_HARDEN && look == CLI_LOOK_ORIGINAL)
			look = CLI_LOOK_HARDEN_WINDOWS;
	}
	switch (s->model) {
	case CLI_MODEL_STEERING:
		e = fill_in(s, "edges", "none", err, errlen); /* the scene has no walls */
		break;
	case CLI_MODEL_CANVAS:
		/* "a few hundred birds"; the page steps 60 times a second */
		e = fill_in(s, "boids", "300", err, errlen);
		if (!e && !cli_given(s, "substeps")) {
			double k = round(1 / (s->canvas_dt * (double)s->fps));
			s->substeps = k < 1 ? 1 : k > 1000 ? 1000 : (long)k;
		}
		break;
	default:
		break;
	}
	if (!e && look == CLI_LOOK_HARDEN_WINDOWS) {
		e = fill_in(s, "size", "584x361", err, errlen);  /* the window's field */
		if (!e)
			e = fill_in(s, "outline", "final", err, errlen); /* the final code's */
		if (!e)
			e = fill_in(s, "pixel-grid", "gdi", err, errlen);
		if (!e)
			e = fill_in(s, "warmup", "1", err, errlen);  /* advance, then paint */
	}
	if (!e && look == CLI_LOOK_CANVAS_ARTICLE) {
		e = fill_in(s, "shape", "triangle", err, errlen);
		if (!e)
			e = fill_in(s, "paint", "stroke", err, errlen);
		if (!e)
			e = fill_in(s, "boid-color", "red", err, errlen);
		if (!e)
			e = fill_in(s, "background", "white", err, errlen);
		if (!e)
			e = fill_in(s, "background-style", "noise", err, errlen);
	}
	return e;
}

int cli_parse(struct settings *s, int argc, char **argv, char *err, size_t errlen)
{
	struct option longopts[NOPTS + 1];
	char shortopts[3 * NOPTS + 2], *sp = shortopts;
	int result = CLI_RUN, cmdline_list = 0;

	memset(s, 0, sizeof(*s));
	err[0] = 0;
	*sp++ = ':'; /* report a missing argument as ':' */
	for (size_t i = 0; i < NOPTS; i++) {
		const struct cli_option *o = &options[i];
		bool takes_arg = o->type != CLI_FLAG && o->arg;
		longopts[i] = (struct option){ o->name, takes_arg ? required_argument : no_argument,
		                               NULL, o->short_name ? o->short_name : LONG_ONLY + (int)i };
		if (o->short_name) {
			*sp++ = (char)o->short_name;
			if (takes_arg)
				*sp++ = ':';
		}
		int e = o->def ? set_value(s, o, o->def, err, errlen) : 0;
		if (e)
			return e == -ENOMEM ? CLI_NOMEM : CLI_ERROR; /* or a bad row in the table */
	}
	*sp = 0;
	longopts[NOPTS] = (struct option){ 0, 0, 0, 0 };

	/* Two passes: config files first, whatever their place, then the rest. */
	for (int pass = 0; pass < 2; pass++) {
		optind = 0; /* full reset, including glibc's internal state */
		opterr = 0;
		int c, li;
		while ((c = getopt_long(argc, argv, shortopts, longopts, &li)) != -1) {
			if (c == '?') {
				for (size_t i = 0; optopt && i < NOPTS; i++)
					if (longopts[i].val == optopt && longopts[i].has_arg == no_argument &&
					    strncmp(argv[optind - 1], "--", 2) == 0)
						return errf(err, errlen, "--%s does not take a value", options[i].name), CLI_ERROR;
				if (optopt && optopt < LONG_ONLY)
					return errf(err, errlen, "unknown option '-%c' (see --help)", optopt), CLI_ERROR;
				return unknown_option(argv[optind - 1], err, errlen), CLI_ERROR;
			}
			if (c == ':') {
				const struct cli_option *o = NULL;
				for (size_t i = 0; i < NOPTS; i++)
					if (longopts[i].val == optopt)
						o = &options[i];
				return errf(err, errlen, "--%s needs a value (%s)", o ? o->name : "?",
				            o && o->arg ? o->arg : ""), CLI_ERROR;
			}
			const struct cli_option *o = NULL;
			for (size_t i = 0; i < NOPTS; i++)
				if (longopts[i].val == c)
					o = &options[i];
			if (!o)
				continue;
			bool is_config = strcmp(o->name, "config") == 0;
			if (pass == 0) {
				int e = is_config ? read_config(s, optarg, err, errlen) : 0;
				if (e)
					return e == -ENOMEM ? CLI_NOMEM : CLI_ERROR;
				continue;
			}
			if (o->type == CLI_ACTION) {
				if (strcmp(o->name, "help") == 0)
					return CLI_HELP;
				if (strcmp(o->name, "help-all") == 0)
					return CLI_HELP_ALL;
				if (strcmp(o->name, "completion") == 0) {
					if (strcmp(optarg, "bash") != 0 && strcmp(optarg, "zsh") != 0)
						return errf(err, errlen, "--completion: '%s' is not bash or zsh",
						            optarg), CLI_ERROR;
					s->completion = optarg;
					return CLI_COMPLETION;
				}
				if (strcmp(o->name, "version") == 0)
					return CLI_VERSION;
				if (strcmp(o->name, "print-config") == 0)
					result = CLI_PRINT_CONFIG;
				if (strcmp(o->name, "list-options") == 0)
					return CLI_LIST_OPTIONS;
				if (strcmp(o->name, "list-models") == 0)
					return CLI_LIST_MODELS;
				if (strcmp(o->name, "list-codecs") == 0)
					return CLI_LIST_CODECS;
				continue;
			}
			if (o->type == CLI_CIRCLES && !cmdline_list) {
				s->obstacles_n = 0; /* the command line's list replaces the file's */
				cmdline_list = 1;
			}
			int e = set_value(s, o, optarg, err, errlen);
			if (e)
				return e == -ENOMEM ? CLI_NOMEM : CLI_ERROR;
			s->given[index_of(o)] = 2; /* from the command line: wins over a file */
		}
		if (pass == 0 && optind < argc)
			return errf(err, errlen, "unexpected argument '%s' (options start with -; see --help)",
			            CUT(argv[optind])), CLI_ERROR;
	}

	/* None of the other models' seeds has predators. */
	if (s->model != CLI_MODEL_HARDEN && !cli_given(s, "predators"))
		s->predators = 0;
	/* Each model's program's defaults, then the look, for what was not set. */
	if (model_defaults(s, err, errlen) != 0)
		return CLI_ERROR;

	/* -m opengl: the OpenGL program's window and look where not set. */
	if (s->model == CLI_MODEL_OPENGL) {
		if (!cli_given(s, "boids"))
			s->boids = 250;
		if (!cli_given(s, "size"))
			s->width = 1157, s->height = 578;
		if (!cli_given(s, "shape"))
			s->shape = CLI_SHAPE_ARROW;
		if (!cli_given(s, "boid-color"))
			s->boid_color = 0xffffff;
		if (!cli_given(s, "trail-style"))
			s->trail_style = CLI_TRAIL_OPENGL;
		s->opengl = 1; /* and the three extras below */
	}

	/* The OpenGL version's look fills in what was not set explicitly. */
	if (s->opengl) {
		if (!cli_given(s, "trail"))
			s->trail = 20;
		if (!cli_given(s, "predator-color"))
			s->predator_color = 0xffff00;
		if (!cli_given(s, "predator-size"))
			s->predator_size = 1.5;
	}

	/* Cross-option checks. */
	if (s->gl_speed_min > s->gl_speed_max)
		return errf(err, errlen, "--gl-speed-min (%g) must not be above --gl-speed-max (%g)",
		            s->gl_speed_min, s->gl_speed_max), CLI_ERROR;
	if (s->min_speed > s->max_speed)
		return errf(err, errlen, "--min-speed (%g) must not be above --max-speed (%g)",
		            s->min_speed, s->max_speed), CLI_ERROR;
	/* --frames and --duration: the command line wins over a file; both from
	 * the same place contradict each other. */
	int gd = cli_given(s, "duration"), gf = cli_given(s, "frames");
	if (gd && gf && s->duration > 0) {
		if (gd == gf)
			return errf(err, errlen, "--frames and --duration contradict each other: give one"), CLI_ERROR;
		if (gf > gd)
			s->duration = -1;
	}
	if (s->duration > 0) {
		double f = round(s->duration * (double)s->fps);
		if (f < 1 || f > CLI_MAX_FRAMES)
			return errf(err, errlen, "--duration: %g s at %ld fps is %.0f frames (expected 1 to %ld)",
			            s->duration, s->fps, f, CLI_MAX_FRAMES), CLI_ERROR;
		s->frames = (long)f;
		s->duration = -1; /* resolved: --print-config shows frames */
	}
	/* --no-render and --output: the command line wins over a file, and a
	 * file that has both (--print-config writes every key) means no render.
	 * Both on the command line stay a contradiction (main refuses it). */
	int gn = cli_given(s, "no-render"), go = cli_given(s, "output");
	if (s->no_render && go && gn != go) {
		if (gn > go)
			s->given[index_of(cli_find("output"))] = 0;
		else
			s->no_render = 0;
	} else if (s->no_render && go == 1 && gn == 1) {
		s->given[index_of(cli_find("output"))] = 0;
	}
	if (!s->output && !s->no_render)
		return errf(err, errlen, "--output: needs a file name, a PNG pattern or -"), CLI_ERROR;
	double pw = round((double)s->width * s->scale), ph = round((double)s->height * s->scale);
	if (!s->no_render && (pw > CLI_MAX_PICTURE || ph > CLI_MAX_PICTURE || pw < 1 || ph < 1))
		return errf(err, errlen, "--scale: %ldx%ld at scale %g is a %.0fx%.0f picture (each side from 1 to %ld)",
		            s->width, s->height, s->scale, pw, ph, CLI_MAX_PICTURE), CLI_ERROR;
	return result;
}

void cli_release(struct settings *s)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (options[i].type == CLI_STRING) {
			char **p = (char **)((char *)s + options[i].offset);
			free(*p);
			*p = NULL;
		}
}

/* ------------------------------------------------------------------ output */

void cli_format_value(const struct settings *s, const struct cli_option *o, char *buf, size_t len)
{
	const char *base = (const char *)s;
	const void *field = base + o->offset;

	switch (o->type) {
	case CLI_LONG: {
		long v = *(const long *)field;
		if ((o->flags & CLI_AUTO) && v < 0)
			snprintf(buf, len, "auto");
		else
			snprintf(buf, len, "%ld", v);
		break;
	}
	case CLI_U64:
		snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)field);
		break;
	case CLI_DOUBLE: {
		double v = *(const double *)field;
		if ((o->flags & CLI_AUTO) && v < 0) {
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
	case CLI_SIZE:
		snprintf(buf, len, "%ldx%ld", s->width, s->height);
		break;
	case CLI_STRING: {
		const char *v = *(char *const *)field;
		snprintf(buf, len, "%s", v ? v : "");
		break;
	}
	case CLI_ENUM:
		snprintf(buf, len, "%s", o->choices[*(const int *)field]);
		break;
	case CLI_COLOR: {
		char c[8];
		color_format(*(const uint32_t *)field, c);
		snprintf(buf, len, "%s", c);
		break;
	}
	case CLI_FLAG:
		snprintf(buf, len, "%s", *(const int *)field ? "yes" : "no");
		break;
	case CLI_CIRCLES: /* all of them, ';'-separated (--print-config writes one a line) */
		buf[0] = 0;
		for (long i = 0; i < s->obstacles_n; i++)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%.17g,%.17g,%.17g", i ? ";" : "",
			         s->obstacles[i][0], s->obstacles[i][1], s->obstacles[i][2]);
		break;
	case CLI_TARGET:
		if (s->target == CLI_TARGET_FIXED)
			snprintf(buf, len, "%.17g,%.17g", s->target_x, s->target_y);
		else
			snprintf(buf, len, "%s", s->target == CLI_TARGET_NONE ? "none" : "lissajous");
		break;
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

void cli_print_config(FILE *f, const struct settings *s)
{
	const char *section = NULL;

	fprintf(f, "# boids %s settings; read back with: boids --config FILE\n", BOIDS_VERSION);
	for (size_t i = 0; i < NOPTS; i++) {
		const struct cli_option *o = &options[i];
		char v[4096];
		if (o->flags & CLI_NOCONFIG)
			continue;
		if (o->section != section) {
			fprintf(f, "\n# %s\n", o->section);
			section = o->section;
		}
		if (o->type == CLI_CIRCLES) {
			/* one line an obstacle; an empty value first clears the list */
			fprintf(f, "%s = \n", o->name);
			for (long k = 0; k < s->obstacles_n; k++)
				fprintf(f, "%s = %.17g,%.17g,%.17g\n", o->name, s->obstacles[k][0],
				        s->obstacles[k][1], s->obstacles[k][2]);
			continue;
		}
		if (o->type == CLI_STRING) { /* straight from the settings: no length limit */
			const char *str = *(char *const *)(const void *)((const char *)s + o->offset);
			fprintf(f, "%s = ", o->name);
			put_config_value(f, str ? str : "");
			fputc('\n', f);
			continue;
		}
		cli_format_value(s, o, v, sizeof(v));
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

void cli_print_options_json(FILE *f)
{
	static const char *const type_names[] = {
		[CLI_LONG] = "integer", [CLI_U64] = "unsigned", [CLI_DOUBLE] = "number",
		[CLI_SIZE] = "size", [CLI_STRING] = "string", [CLI_ENUM] = "choice",
		[CLI_COLOR] = "color", [CLI_FLAG] = "flag", [CLI_CIRCLES] = "circles",
		[CLI_TARGET] = "target", [CLI_ACTION] = "action",
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
		if (o->choices) {
			fputc('[', f);
			for (size_t k = 0; o->choices[k]; k++) {
				fputs(k ? ", " : "", f);
				put_json_string(f, o->choices[k]);
			}
			fputc(']', f);
		} else {
			fputs("null", f);
		}
		fputs(", \"group\": ", f);
		put_json_string(f, o->section);
		fputs(", \"help\": ", f);
		put_json_string(f, o->help);
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
	const char *section = NULL;

	fprintf(f,
	        "Usage: boids [OPTION]...\n"
	        "Simulate a flock (Harden's \"Boids in C#\" and four more models) and write it\n"
	        "as a video, PNG frames, y4m on standard output, or a trajectory CSV.\n"
	        "With no options, writes a 10-second 640x360 H.264 clip to flock.mp4.\n");
	for (size_t i = 0; i < NOPTS; i++) {
		const struct cli_option *o = &options[i];
		char left[96], text[320];
		if (!all && !(o->flags & CLI_BRIEF))
			continue;
		if (o->section != section) {
			fprintf(f, "\n%s:\n", o->section);
			section = o->section;
		}
		int n = snprintf(left, sizeof(left), "  %c%c%s--%s%s%s",
		                 o->short_name ? '-' : ' ', o->short_name ? o->short_name : ' ',
		                 o->short_name ? ", " : "  ", o->name,
		                 o->arg ? "=" : "", o->arg ? o->arg : "");
		if (n >= COL - 1)
			fprintf(f, "%s\n%*s", left, COL, "");
		else
			fprintf(f, "%-*s", COL, left);
		if (o->def && *o->def && o->type != CLI_FLAG)
			snprintf(text, sizeof(text), "%s [%s]", o->help, o->def);
		else
			snprintf(text, sizeof(text), "%s", o->help);
		print_wrapped(f, COL, text);
	}
	if (!all)
		fprintf(f, "\nEvery model's parameters, drawing and encoding options: boids --help-all\n");
	fprintf(f,
	        "\nLimits: %ld boids, %ldx%ld fields and pictures, %ld frames;\n"
	        "positions and velocities within -%s..%s; config and --init lines\n"
	        "up to %ld bytes.  Exit status: 0 done, 1 runtime failure, 2 bad usage,\n"
	        "129/130/143 after SIGHUP/SIGINT/SIGTERM (the output is finished first).\n"
	        "Manual: man boids\n",
	        CLI_MAX_BOIDS, CLI_MAX_FIELD, CLI_MAX_FIELD, CLI_MAX_FRAMES, STR(TRAJ_VALUE_MAX),
	        STR(TRAJ_VALUE_MAX), LINEREAD_MAX);
}

void cli_print_models(FILE *f)
{
	const struct boids_model *const *m = model_list();

	for (size_t i = 0; m[i]; i++)
		fprintf(f, "%-11s %s%s\n", m[i]->name, m[i]->summary, i == 0 ? " [default]" : "");
}
