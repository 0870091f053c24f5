/*
 * Settings against facts that do not come from the option table: the
 * defaults docs/MODEL.md documents (read from the prose and its tables),
 * the modules' own types and enums (a value must land in the field the
 * module reads, as the module spells it), and the resolve step's numbers
 * worked out here by hand.
 */
#include <criterion/criterion.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common.h"
#include "model.h"
#include "sim.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(settings, .init = setup, .fini = teardown, .timeout = 120);

/* ------------------------------------------------ docs/MODEL.md's defaults */

/* Where sim reads each parameter MODEL.md names: name as MODEL.md writes it (the
 * model's prefix, then the field), at its place in struct sim_params. */
#define D(name, at) { #name, offsetof(struct sim_params, at), 'd' }
#define I(name, at) { #name, offsetof(struct sim_params, at), 'i' }
static const struct { const char *name; size_t offset; char kind; } sim_fields[] = {
	D(flock_radius, harden.flock_radius), D(flock_weight, harden.flock_weight),
	D(align_radius, harden.align_radius), D(align_weight, harden.align_weight),
	D(avoid_radius, harden.avoid_radius), D(avoid_weight, harden.avoid_weight),
	D(predator_radius, harden.predator_radius), D(predator_weight, harden.predator_weight),
	D(obstacle_margin, obstacle_margin), D(obstacle_weight, obstacle_weight),
	D(proc_cohesion_radius, proc.cohesion_radius), D(proc_separation_radius, proc.separation_radius),
	D(proc_alignment_radius, proc.alignment_radius), D(proc_cohesion_weight, proc.cohesion_weight),
	D(proc_separation_weight, proc.separation_weight), D(proc_alignment_weight, proc.alignment_weight),
	D(proc_max_force, proc.max_force), D(proc_max_speed, proc.max_speed),
	I(proc_limit_components, proc.limit_components), D(proc_jitter, proc.jitter),
	D(steer_radius, steer.radius), D(steer_cohesion_steps, steer.cohesion_steps),
	D(steer_cohesion_weight, steer.cohesion_weight), D(steer_separation_weight, steer.separation_weight),
	D(steer_alignment_weight, steer.alignment_weight), D(steer_seek_weight, steer.seek_weight),
	D(steer_arrival_radius, steer.arrival_radius), D(steer_arrival_speed, steer.arrival_speed),
	D(steer_max_speed, steer.max_speed), D(steer_max_turn, steer.max_turn), D(canvas_speed, canvas.speed),
	D(canvas_dt, canvas.dt), D(canvas_visual_range, canvas.visual_range),
	D(canvas_cohesion_resistance, canvas.cohesion_resistance),
	D(canvas_separation_distance, canvas.separation_distance),
	D(canvas_alignment_eagerness, canvas.alignment_eagerness), D(gl_flock_radius, gl.flock_radius),
	D(gl_flock_weight, gl.flock_weight), D(gl_predator_sight, gl.predator_sight),
	D(gl_avoid_radius, gl.avoid_radius), D(gl_avoid_weight, gl.avoid_weight),
	D(gl_align_radius, gl.align_radius), D(gl_align_weight, gl.align_weight),
	D(gl_flee_radius, gl.flee_radius), D(gl_flee_weight, gl.flee_weight), D(gl_wall_pad, gl.wall_pad),
	D(gl_wall_turn, gl.wall_turn), D(gl_speed_ease, gl.speed_ease),
	D(gl_predator_boost, gl.predator_boost), D(gl_step, gl.step),
	D(vicsek_noise, vicsek.noise), D(vicsek_speed, vicsek.speed), D(vicsek_radius, vicsek.radius),
	D(vicsek_density, vicsek.density), I(abm_size, abm.large), D(abm_vision, abm.vision),
	D(abm_separation, abm.separation), D(abm_cohere, abm.cohere), D(abm_separate, abm.separate),
	D(abm_match, abm.match), D(abm_speed, abm.speed),
	D(couzin_repulsion, couzin.repulsion), D(couzin_orientation, couzin.orientation),
	D(couzin_attraction, couzin.attraction), D(couzin_perception, couzin.perception),
	D(couzin_turn, couzin.turn), D(couzin_speed, couzin.speed), D(couzin_noise, couzin.noise),
	D(couzin_dt, couzin.dt), D(netlogo_vision, netlogo.vision),
	D(netlogo_minimum_separation, netlogo.minimum_separation), D(netlogo_max_align_turn, netlogo.max_align_turn),
	D(netlogo_max_cohere_turn, netlogo.max_cohere_turn), D(netlogo_max_separate_turn, netlogo.max_separate_turn),
};

/* The options whose names are not the field's with '-' for '_'. */
static const char *option_of(const char *field, char *buf, size_t len)
{
	if (strcmp(field, "proc_separation") == 0)
		return "separation";
	if (strcmp(field, "proc_limit_components") == 0)
		return "proc-limit"; /* length or components: the struct is checked instead */
	snprintf(buf, len, "%s", field);
	for (char *c = buf; *c; c++)
		if (*c == '_')
			*c = '-';
	return buf;
}

/* A documented default: "40", "0 (none)", "1/60", "unit".  1 and *v for a number. */
static int doc_number(const char *text, double *v)
{
	char *end;
	*v = strtod(text, &end);
	if (end == text)
		return 0;
	if (*end == '/') /* a fraction */
		*v /= strtod(end + 1, NULL);
	return 1;
}

/* The value of `key = value` in --print-config's output, or NULL. */
static const char *config_value(const char *config, const char *key, char *buf, size_t len)
{
	size_t k = strlen(key);
	for (const char *l = config; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (strncmp(l, key, k) == 0 && strncmp(l + k, " = ", 3) == 0) {
			snprintf(buf, len, "%.*s", (int)strcspn(l + k + 3, "\n"), l + k + 3);
			return buf;
		}
	return NULL;
}

struct doc_check {
	const char *config;       /* boids --print-config */
	const struct config *c;   /* the same, parsed here */
	int checked;
};

/* Holds one documented default against the binary and the struct sim reads. */
static void check_documented(struct doc_check *dc, const char *field, const char *text)
{
	char key[64], got[128];
	double doc, v;
	int numeric = doc_number(text, &doc);
	const char *value = config_value(dc->config, option_of(field, key, sizeof(key)), got, sizeof(got));

	cr_expect(value, "MODEL.md documents %s, but --print-config has no %s", field, key);
	if (value && numeric && doc_number(value, &v))
		cr_expect_eq(v, doc, "MODEL.md: %s is %s; boids --print-config: %s = %s", field, text, key, value);
	else if (value && !numeric)
		cr_expect(strncmp(text, value, strlen(value)) == 0 && !isalnum((unsigned char)text[strlen(value)]),
		          "MODEL.md: %s is %s; boids --print-config: %s = %s", field, text, key, value);
	for (size_t i = 0; numeric && i < sizeof(sim_fields) / sizeof(*sim_fields); i++) {
		if (strcmp(sim_fields[i].name, field) != 0)
			continue;
		const char *at = (const char *)&dc->c->sim + sim_fields[i].offset;
		double is = sim_fields[i].kind == 'd' ? *(const double *)(const void *)at
		                                     : *(const int *)(const void *)at;
		cr_expect_eq(is, doc, "MODEL.md: %s is %s; struct sim_params has %.17g", field, text, is);
	}
	dc->checked++;
}

Test(settings, the_defaults_docs_model_md_states_are_the_programs)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/docs/MODEL.md", SRCDIR);
	char *md = tc_slurp(path, NULL);
	cr_assert_not_null(md, "no %s", path);
	cr_assert_eq(tc_boids("--print-config"), 0);
	char *config = strdup(tc_stdout());
	struct config c;
	char err[256], *argv[] = { "boids", NULL };
	cr_assert_eq(cli_parse(&c, 1, argv, err, sizeof(err)), CLI_RUN, "%s", err);
	struct doc_check dc = { config, &c, 0 };

	for (char *l = md; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char line[512];
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(l, "\n"), l);
		/* a parameter table's row: | `name` symbol | default | ... */
		char field[64], def[64];
		if (sscanf(line, "| `%63[a-z_]` %*[^|]| %63[^|]", field, def) == 2 ||
		    sscanf(line, "| `%63[a-z_]` | %63[^|]", field, def) == 2) {
			check_documented(&dc, field, def);
			continue;
		}
		/* the harden rules' table: | flock (cohesion) | r_f = 50 | w_f = 0.0003 | ... */
		char rule[32], radius[32], weight[32];
		if (sscanf(line, "| %31[a-z] %*[^|]| r_%*c = %31[^ |] | w_%*c = %31[^ |] |", rule, radius, weight) == 3 ||
		    sscanf(line, "| %31[a-z] | r_%*c = %31[^ |] | w_%*c = %31[^ |] |", rule, radius, weight) == 3) {
			snprintf(field, sizeof(field), "%s_radius", rule);
			check_documented(&dc, field, radius);
			snprintf(field, sizeof(field), "%s_weight", rule);
			check_documented(&dc, field, weight);
			continue;
		}
		/* the prose: "`gl_flock_radius` (100)", "`obstacle_weight` 0.2 per pixel" */
		for (char *b = strchr(line, '`'); b; b = strchr(b + 1, '`')) {
			char name[64];
			int used = 0;
			if (sscanf(b, "`%63[a-z_]`%n", name, &used) != 1 || used == 0 || !strchr(name, '_'))
				continue;
			const char *p = b + used;
			p += strspn(p, " (");
			char *end;
			strtod(p, &end);
			if (p == b + used || end == p || isalnum((unsigned char)*end) || *end == '/')
				continue;
			for (size_t i = 0; i < sizeof(sim_fields) / sizeof(*sim_fields); i++)
				if (strcmp(sim_fields[i].name, name) == 0) {
					snprintf(def, sizeof(def), "%.*s", (int)(end - p), p);
					check_documented(&dc, name, def);
				}
			b += used - 1;
		}
	}
	/* the harden rules (8), processing (11), steering (10), canvas (6),
	 * opengl (14), obstacles (2), couzin (8), netlogo (5): the parse must have found them */
	cr_expect_geq(dc.checked, 63, "only %d documented defaults found in MODEL.md", dc.checked);
	cli_release(&c);
	free(config);
	free(md);
}

/* ------------------------------------- a value lands where its module reads */

static int parse(struct config *c, const char *args)
{
	char buf[1024], *argv[64], err[256];
	int argc = 0;
	snprintf(buf, sizeof(buf), "%s", args);
	argv[argc++] = "boids";
	for (char *w = strtok(buf, " "); w && argc < 63; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	int r = cli_parse(c, argc, argv, err, sizeof(err));
	cr_assert_eq(r, CLI_RUN, "boids %s: %s", args, err);
	return r;
}

Test(settings, options_land_in_the_struct_of_the_module_that_reads_them)
{
	struct config c;

	parse(&c, "--flock-radius 12.5 --edges both --update synchronous --proc-limit components "
	          "--steer-turn steady --gl-avoid all --separation inverse --predators 2 -n 7 "
	          "--shape arrow --pixel-grid gdi --antialias none --boid-color #010203 --scale 2 "
	          "--crf 30 --gop 12 --codec libx264 --encoder-threads auto --target 10,20 --seed 9");
	cr_expect_eq(c.sim.harden.flock_radius, 12.5);
	cr_expect_eq(c.sim.edges, SIM_BOUNCE | SIM_WRAP);
	cr_expect_eq(c.sim.update, SIM_SYNCHRONOUS);
	cr_expect_eq(c.sim.proc.limit_components, 1);
	cr_expect_eq(c.sim.steer.steady_turn, 1);
	cr_expect_eq(c.sim.gl.avoid_all, 1);
	cr_expect_eq(c.sim.proc.separation, SIM_SEP_INVERSE);
	cr_expect_eq(c.sim.predators, 2);
	cr_expect_eq(c.run.boids, 7);
	cr_expect_eq(c.sim.target_mode, SIM_TARGET_FIXED);
	cr_expect(c.sim.target_x == 10 && c.sim.target_y == 20);
	cr_expect_eq(c.render.shape, RENDER_ARROW);
	cr_expect_eq(c.render.grid, RENDER_GRID_GDI);
	cr_expect_eq(c.render.antialias, RENDER_AA_NONE);
	cr_expect_eq(c.render.boid_color, 0x010203);
	cr_expect_eq(c.video.crf, 30);
	cr_expect_eq(c.video.gop, 12);
	cr_expect_str_eq(c.video.codec, "libx264");
	cr_expect_eq(c.video.threads, 0, "auto is video_options' 0");
	cr_expect(c.sim.noise_seed == 9 && c.render.noise_seed == 9, "the noise seeds follow --seed");
	cli_release(&c);

	/* the defaults that mean "the module decides" are the modules' own */
	parse(&c, "");
	cr_expect_eq(c.video.crf, -1, "video_options: -1 is the encoder's default crf");
	cr_expect_eq(c.video.gop, 0, "video_options: 0 is the encoder's default gop");
	cr_expect_null(c.video.codec);
	cr_expect_eq(c.run.threads, 0);
	cr_expect_eq(c.run.poster, -1);
	cr_expect_eq(c.sim.edges, SIM_BOUNCE);
	cr_expect_eq(c.sim.model, model_find("harden"));
	cr_expect(c.sim.target_x == 320 && c.sim.target_y == 180, "no fixed target: the field's centre");
	cr_expect(c.sim.obstacles == NULL && c.render.obstacles == NULL);
	cli_release(&c);

	parse(&c, "--obstacle 1,2,3 --obstacle 4,5,6");
	cr_assert(c.sim.obstacles_n == 2 && c.render.obstacles_n == 2);
	cr_expect(c.sim.obstacles[1].x == 4 && c.sim.obstacles[1].y == 5 && c.sim.obstacles[1].r == 6);
	cr_expect(c.render.obstacles[0].x == 1 && c.render.obstacles[0].y == 2 && c.render.obstacles[0].r == 3);
	cli_release(&c);
}

/* --------------------------------------------------------- the resolve step */

Test(settings, the_resolve_step_works_out_what_depends_on_several_settings)
{
	struct config c;

	/* the picture is the field times --scale, rounded */
	parse(&c, "--size 101x51 --scale 1.5");
	cr_expect(c.render.width == 152 && c.render.height == 77, "%dx%d", c.render.width, c.render.height);
	cli_release(&c);

	/* canvas steps 60 times a second: 1/(dt fps) steps a frame */
	parse(&c, "-m canvas");
	cr_expect_eq(c.run.substeps, 2, "60/30");
	cr_expect_eq(c.run.boids, 300);
	cr_expect_eq(c.sim.predators, 0);
	cr_expect_eq(c.render.shape, RENDER_TRIANGLE, "the canvas article's look");
	cr_expect_eq(c.render.background_style, RENDER_BG_NOISE);
	cli_release(&c);
	parse(&c, "-m canvas --fps 12");
	cr_expect_eq(c.run.substeps, 5, "60/12");
	cli_release(&c);
	parse(&c, "-m canvas --fps 12 --substeps 3 -n 9 --shape circle");
	cr_expect(c.run.substeps == 3 && c.run.boids == 9 && c.render.shape == RENDER_CIRCLE,
	          "what the user gives wins");
	cli_release(&c);

	/* the OpenGL program's window and look */
	parse(&c, "-m opengl");
	cr_expect(c.sim.width == 1157 && c.sim.height == 578 && c.run.boids == 250);
	cr_expect(c.run.opengl && c.run.trail == 20 && c.render.predator_size == 1.5);
	cr_expect_eq(c.render.trail_style, RENDER_TRAIL_OPENGL);
	cr_expect(c.render.range_near == c.sim.gl.avoid_radius && c.render.range_far == c.sim.gl.flock_radius,
	          "--show-ranges draws the model's own radii");
	cli_release(&c);

	/* the C# window */
	parse(&c, "--look original");
	cr_expect(c.sim.width == 584 && c.sim.height == 361 && c.run.warmup == 1);
	cr_expect_eq(c.run.look_used, RUN_LOOK_HARDEN_WINDOWS);
	cr_expect_eq(c.render.outline, RENDER_OUTLINE_FINAL);
	cli_release(&c);

	/* --duration becomes frames at the fps */
	parse(&c, "--duration 2.5 --fps 24");
	cr_expect(c.run.frames == 60 && c.run.duration < 0);
	cli_release(&c);
}

/* ------------------------------------------- each default written once */

/* The part of struct config a row's field lies in: 0 sim, 1 render, 2 video, 3 run. */
static int part_of(const struct cli_option *o)
{
	return o->offset < offsetof(struct config, render) ? 0 : o->offset < offsetof(struct config, video) ? 1 :
	       o->offset < offsetof(struct config, run) ? 2 : 3;
}

/*
 * Every setting a module reads has its default in the module alone: its
 * row holds none (CLI_MODULE), and what the binary starts from and shows
 * is the module's own value, however the modules' defaults change.  The
 * run options (main's) have theirs in their rows alone.
 */
Test(settings, each_default_is_the_modules_own_written_once)
{
	static struct config mod, parsed;
	size_t n;
	const struct cli_option *t = cli_options(&n);
	char err[256], *argv[] = { "boids", NULL };

	memset(&mod, 0, sizeof(mod));
	sim_params_default(&mod.sim, 640, 360);
	render_params_default(&mod.render, 640, 360);
	video_options_default(&mod.video);
	cr_assert_eq(cli_parse(&parsed, 1, argv, err, sizeof(err)), CLI_RUN, "%s", err);
	int checked = 0;
	for (size_t i = 0; i < n; i++) {
		const struct cli_option *o = &t[i];
		if (o->type == CLI_ACTION || o->type == CLI_CIRCLES)
			continue;
		if (part_of(o) == 3 || strcmp(o->name, "depth") == 0) { /* depth: "0", the smaller side */
			cr_expect(o->def != CLI_MODULE, "--%s: a run option has its default in its row", o->name);
			continue;
		}
		cr_expect(o->def == CLI_MODULE, "--%s: its row writes a default (%s) its module has already",
		          o->name, o->def ? o->def : "NULL");
		char want[512], got[512], shown[512];
		cli_format_value(&mod, o, want, sizeof(want));
		cli_format_value(&parsed, o, got, sizeof(got));
		cr_expect_str_eq(got, want, "--%s: boids starts from %s, the module's default is %s", o->name, got, want);
		/* what --help and --list-options show reads back as the module's value */
		static struct config back;
		back = mod;
		const char *def = cli_default(o, shown, sizeof(shown));
		cr_assert_not_null(def, "--%s shows no default", o->name);
		if (o->type == CLI_STRING) {
			cr_expect_str_eq(def, want, "--%s", o->name);
		} else {
			char *argv2[] = { "boids", NULL, NULL }, arg[600];
			snprintf(arg, sizeof(arg), "--%s=%s", o->name, def);
			argv2[1] = arg;
			if (o->type != CLI_FLAG) {
				cr_assert_eq(cli_parse(&back, 2, argv2, err, sizeof(err)), CLI_RUN, "%s: %s", arg, err);
				cli_format_value(&back, o, got, sizeof(got));
				cr_expect_str_eq(got, want, "--%s shows %s, which reads back as %s", o->name, def, got);
				cli_release(&back);
			}
		}
		checked++;
	}
	cr_expect_geq(checked, 100, "only %d settings of modules checked", checked);
	/* the defaults the modules once disagreed with the table on, as users see them */
	cr_expect(mod.render.box_edges && mod.render.ground, "3D: the box's edges and its ground are drawn");
	cr_expect_eq(mod.video.threads, 4, "4 encoder threads: the same bytes on every machine");
	cli_release(&parsed);
}

/*
 * No value an option takes is one its module refuses: the renderer (which
 * checks its parameters) takes each numeric drawing row's bounds, and
 * refuses the bound a row excludes, and takes each choice of a drawing
 * row (a new --shape in the table but not in params_valid() would be
 * refused only when a run starts drawing, exit 1).
 */
Test(settings, each_drawing_rows_range_is_what_the_renderer_takes)
{
	size_t n;
	const struct cli_option *t = cli_options(&n);
	int checked = 0;

	for (size_t i = 0; i < n; i++) {
		const struct cli_option *o = &t[i];
		if (part_of(o) != 1 || (o->type != CLI_DOUBLE && o->type != CLI_INT && o->type != CLI_LONG))
			continue;
		for (int end = 0; end < 2; end++) {
			double v = end ? o->max : o->min;
			int excluded = !end && (o->flags & CLI_GT_MIN);
			struct render_params p;
			struct renderer *r = NULL;
			render_params_default(&p, 64, 36);
			char *field = (char *)&p + (o->offset - offsetof(struct config, render));
			if (o->type == CLI_DOUBLE)
				memcpy(field, &v, sizeof(v));
			else if (o->type == CLI_INT)
				*(int *)(void *)field = (int)v;
			else
				*(long *)(void *)field = (long)v;
			int e = render_new(&r, &p);
			render_free(r);
			if (excluded)
				cr_expect_eq(e, -EINVAL, "--%s: %g is excluded, the renderer takes it", o->name, v);
			else
				cr_expect_eq(e, 0, "--%s takes %g, the renderer refuses it (%d)", o->name, v, e);
			checked++;
		}
	}
	cr_expect_geq(checked, 8, "only %d bounds checked", checked);
	checked = 0;
	for (size_t i = 0; i < n; i++) {
		const struct cli_option *o = &t[i];
		if (part_of(o) != 1 || o->type != CLI_ENUM)
			continue;
		for (const struct cli_choice *c = o->choices; c->name; c++) {
			struct render_params p;
			struct renderer *r = NULL;
			render_params_default(&p, 64, 36);
			char *field = (char *)&p + (o->offset - offsetof(struct config, render));
			*(int *)(void *)field = c->value; /* an enum's storage (T_ENUM: int-sized) */
			int e = render_new(&r, &p);
			render_free(r);
			cr_expect_eq(e, 0, "--%s %s: the renderer refuses it (%d)", o->name, c->name, e);
			checked++;
		}
	}
	cr_expect_geq(checked, 20, "only %d choices checked", checked);
}

/* ------------------------------------------------ options asked by their id */

#include "../src/options_int.h"

/*
 * The resolve step asks whether an option was given by its id (OPT_FOG),
 * not its name: each id is its row's name in capitals ('-' as '_') and
 * indexes that row, so OPT_X means --x.
 */
Test(settings, each_options_id_is_its_name_and_its_row)
{
	static const struct { const char *id, *name; int index; } ids[] = {
#define OPT(id, name, ...) { #id, name, OPT_##id },
#include "../src/options.def"
#undef OPT
	};
	size_t n;
	const struct cli_option *t = cli_options(&n);

	cr_assert_eq(sizeof(ids) / sizeof(*ids), n);
	for (size_t i = 0; i < n; i++) {
		char want[64];
		size_t k = 0;
		for (; ids[i].name[k] && k < sizeof(want) - 1; k++)
			want[k] = ids[i].name[k] == '-' ? '_' : (char)toupper((unsigned char)ids[i].name[k]);
		want[k] = 0;
		cr_expect_str_eq(ids[i].id, want, "OPT_%s names --%s", ids[i].id, ids[i].name);
		cr_expect_str_eq(t[ids[i].index].name, ids[i].name, "OPT_%s is row %d, --%s", ids[i].id,
		                 ids[i].index, t[ids[i].index].name);
	}
}
