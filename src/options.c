/*
 * options — the option table: every option in one row of cli_table[]: its
 * name, type and the field of struct config it fills (AT() checks the
 * field's C type), default, range, placeholder, units, group and help
 * line.  Parsing (getopt_long, cli.c), config keys, --help, --print-config
 * and --list-options (cli_print.c) are all driven by it; tests hold the
 * man page and docs/MODEL.md against the binary.  To add an option: a
 * field in the struct of the module that reads it, a row here, and an
 * entry in docs/boids.1 (docs/ARCHITECTURE.md, "Settings", has an
 * example).  The API: include/options.h.
 */
#include "options.h"

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model.h"
#include "options_int.h"
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
	{ "triangle", RENDER_TRIANGLE }, { "arrow", RENDER_ARROW }, { "circle", RENDER_CIRCLE },
	{ "turtle", RENDER_TURTLE }, END };
static const struct cli_choice outline_names[] = {
	{ "listing", RENDER_OUTLINE_LISTING }, { "final", RENDER_OUTLINE_FINAL }, END };
static const struct cli_choice paint_names[] = { { "fill", RENDER_FILL }, { "stroke", RENDER_STROKE }, END };
static const struct cli_choice grid_names[] = { { "cairo", RENDER_GRID_CAIRO }, { "gdi", RENDER_GRID_GDI }, END };
static const struct cli_choice look_names[] = {
	{ "model", RUN_LOOK_MODEL }, { "original", RUN_LOOK_ORIGINAL },
	{ "harden-windows", RUN_LOOK_HARDEN_WINDOWS }, { "canvas-article", RUN_LOOK_CANVAS_ARTICLE },
	{ "vicsek-paper", RUN_LOOK_VICSEK_PAPER }, { "netlogo", RUN_LOOK_NETLOGO }, END };
static const struct cli_choice separation_names[] = {
	{ "unit", SIM_SEP_UNIT }, { "inverse", SIM_SEP_INVERSE }, END };
static const struct cli_choice turn_names[] = { { "short", 0 }, { "steady", 1 }, END }; /* steer_steady_turn */
static const struct cli_choice trail_style_names[] = {
	{ "fade", RENDER_TRAIL_FADE }, { "opengl", RENDER_TRAIL_OPENGL }, END };
static const struct cli_choice gl_avoid_names[] = { { "own", 0 }, { "all", 1 }, END }; /* gl_avoid_all */
static const struct cli_choice abm_size_names[] = { { "small", 0 }, { "large", 1 }, END }; /* abm.large */
static const struct cli_choice aa_names[] = {
	{ "none", RENDER_AA_NONE }, { "fast", RENDER_AA_FAST }, { "good", RENDER_AA_GOOD },
	{ "best", RENDER_AA_BEST }, END };
static const struct cli_choice progress_names[] = {
	{ "auto", RUN_PROGRESS_AUTO }, { "always", RUN_PROGRESS_ALWAYS }, { "never", RUN_PROGRESS_NEVER },
	{ "lines", RUN_PROGRESS_LINES }, { "json", RUN_PROGRESS_JSON }, END };
static const struct cli_choice quality_names[] = {
	{ "draft", VIDEO_QUALITY_DRAFT }, { "web", VIDEO_QUALITY_WEB }, { "high", VIDEO_QUALITY_HIGH },
	{ "archive", VIDEO_QUALITY_ARCHIVE }, END };
static const struct cli_choice color_by_names[] = {
	{ "role", RENDER_COLOR_ROLE }, { "heading", RENDER_COLOR_HEADING }, { "speed", RENDER_COLOR_SPEED },
	{ "shade", RENDER_COLOR_SHADE }, END };
static const struct cli_choice caption_pos_names[] = {
	{ "bottom-left", CAPTION_BOTTOM_LEFT }, { "bottom", CAPTION_BOTTOM }, { "bottom-right", CAPTION_BOTTOM_RIGHT },
	{ "top-left", CAPTION_TOP_LEFT }, { "top", CAPTION_TOP }, { "top-right", CAPTION_TOP_RIGHT }, END };
static const struct cli_choice draw_names[] = {
	{ "auto", RENDER_DRAW_AUTO }, { "exact", RENDER_DRAW_EXACT }, { "fast", RENDER_DRAW_FAST },
	{ "points", RENDER_DRAW_POINTS }, { "density", RENDER_DRAW_DENSITY }, END };
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
               sizeof(enum render_draw) == sizeof(int) && sizeof(enum render_color_by) == sizeof(int) &&
               sizeof(enum caption_pos) == sizeof(int),
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
#define T_RATE        CLI_RATE, AT(run.fps, struct rate)
#define T_VIEW(f)     CLI_VIEW, AT(f[0], double)                /* and f[1], f[2] */
#define T_RANGE(f)    CLI_RANGE, AT(f[0], double)               /* and f[1] */
#define T_ACTION      CLI_ACTION, 0

static const char S_MODEL[] = "Model (defaults are the C# article's)";
static const char S_MODELS[] = "Other models (docs/MODEL.md)";
static const char S_GL[] = "OpenGL model, -m opengl (its sliders at their start)";
static const char S_COUZIN[] = "Couzin model, -m couzin (the paper's values; lengths in px)";
static const char S_NETLOGO[] = "NetLogo model, -m netlogo (its sliders as the library ships them)";
static const char S_RUN[] = "Run and output";
static const char S_DRAW[] = "Drawing";
static const char S_VIDEO[] = "Video encoding";
static const char S_INFO[] = "Information";


const char cli_module_default[] = "";

/*
 * MOD: the default is the module's own, written once where the module
 * lives (sim.c and each model's file, render.c, video.c); --help, --print-config
 * and --list-options show it from there.  A run option (struct
 * run_options, main's) has its default here, in its row, and nowhere else.
 * --depth's "0" is the command line's word for "the smaller side" (the
 * resolve step works it out), not a number the simulation reads.
 */
#define MOD CLI_MODULE

/* name, short, type and field, default, min, max, flags, arg, units, group, help, choices */
const struct cli_option cli_table[] = {
#define OPT(id, ...) [OPT_##id] = { __VA_ARGS__ },
#include "options.def"
#undef OPT
};

#define NOPTS ((size_t)OPT_COUNT)
_Static_assert(sizeof(cli_table) / sizeof(cli_table[0]) == NOPTS, "a row without its id");
_Static_assert(NOPTS <= CONFIG_MAX_OPTIONS, "struct run_options: given[] too small");

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

int cli_given(const struct config *c, enum cli_id id)
{
	return c->run.given[id];
}

const char *cli_string(const struct config *c, enum cli_id id)
{
	assert(cli_table[id].type == CLI_STRING);
	return *(char *const *)(const void *)((const char *)c + cli_table[id].offset);
}
