/*
 * Defaults live in the option table (what users see in --help, the man page
 * and --print-config); the modules have their own for library use.  This
 * checks that the two agree, so they cannot drift apart.
 */
#include <criterion/criterion.h>

#include "cli.h"
#include "render.h"
#include "sim.h"
#include "model_names.h"

Test(defaults, option_table_matches_the_model)
{
	struct settings s;
	struct sim_params p;
	char err[256];
	char *argv[] = { "boids", NULL };

	cr_assert_eq(cli_parse(&s, 1, argv, err, sizeof(err)), CLI_RUN, "%s", err);
	sim_params_default(&p, (double)s.width, (double)s.height);
	cr_expect_eq((size_t)s.predators, p.predators);
	cr_expect_eq(s.edges, CLI_EDGES_BOUNCE);
	cr_expect_eq(p.edges, SIM_BOUNCE);
	cr_expect_eq(p.update, SIM_SEQUENTIAL);
	cr_expect_eq(s.update, CLI_SEQUENTIAL);
	cr_expect_eq(p.model, model_at(HARDEN));
	cr_expect_eq(s.model, CLI_MODEL_HARDEN);
	cr_expect_eq(p.target_mode, SIM_TARGET_LISSAJOUS);
	cr_expect_eq(s.target, CLI_TARGET_LISSAJOUS);
	cr_expect_eq(p.proc_limit_components, s.proc_limit == 1);
	cr_expect_eq(s.obstacle_margin, p.obstacle_margin, "obstacle_margin: option default %g, sim default %g", s.obstacle_margin, p.obstacle_margin);
	cr_expect_eq(s.obstacle_weight, p.obstacle_weight, "obstacle_weight: option default %g, sim default %g", s.obstacle_weight, p.obstacle_weight);
	cr_expect_eq(s.target_amp_x, p.target_amp_x, "target_amp_x: option default %g, sim default %g", s.target_amp_x, p.target_amp_x);
	cr_expect_eq(s.target_amp_y, p.target_amp_y, "target_amp_y: option default %g, sim default %g", s.target_amp_y, p.target_amp_y);
	cr_expect_eq(s.target_freq_x, p.target_freq_x, "target_freq_x: option default %g, sim default %g", s.target_freq_x, p.target_freq_x);
	cr_expect_eq(s.target_freq_y, p.target_freq_y, "target_freq_y: option default %g, sim default %g", s.target_freq_y, p.target_freq_y);
	cr_expect_eq(s.target_period, p.target_period, "target_period: option default %g, sim default %g", s.target_period, p.target_period);
	cr_expect_eq(s.proc_cohesion_radius, p.proc_cohesion_radius, "proc_cohesion_radius: option default %g, sim default %g", s.proc_cohesion_radius, p.proc_cohesion_radius);
	cr_expect_eq(s.proc_separation_radius, p.proc_separation_radius, "proc_separation_radius: option default %g, sim default %g", s.proc_separation_radius, p.proc_separation_radius);
	cr_expect_eq(s.proc_alignment_radius, p.proc_alignment_radius, "proc_alignment_radius: option default %g, sim default %g", s.proc_alignment_radius, p.proc_alignment_radius);
	cr_expect_eq(s.proc_cohesion_weight, p.proc_cohesion_weight, "proc_cohesion_weight: option default %g, sim default %g", s.proc_cohesion_weight, p.proc_cohesion_weight);
	cr_expect_eq(s.proc_separation_weight, p.proc_separation_weight, "proc_separation_weight: option default %g, sim default %g", s.proc_separation_weight, p.proc_separation_weight);
	cr_expect_eq(s.proc_alignment_weight, p.proc_alignment_weight, "proc_alignment_weight: option default %g, sim default %g", s.proc_alignment_weight, p.proc_alignment_weight);
	cr_expect_eq(s.proc_max_force, p.proc_max_force, "proc_max_force: option default %g, sim default %g", s.proc_max_force, p.proc_max_force);
	cr_expect_eq(s.proc_max_speed, p.proc_max_speed, "proc_max_speed: option default %g, sim default %g", s.proc_max_speed, p.proc_max_speed);
	cr_expect_eq(s.proc_jitter, p.proc_jitter, "proc_jitter: option default %g, sim default %g", s.proc_jitter, p.proc_jitter);
	cr_expect_eq(s.steer_separation_steps, p.steer_separation_steps, "steer_separation_steps: option default %g, sim default %g", s.steer_separation_steps, p.steer_separation_steps);
	cr_expect_eq(s.steer_socialize_weight, p.steer_socialize_weight, "steer_socialize_weight: option default %g, sim default %g", s.steer_socialize_weight, p.steer_socialize_weight);
	cr_expect_eq(s.proc_separation == CLI_SEP_INVERSE, p.proc_separation == SIM_SEP_INVERSE, "separation");
	cr_expect_eq(s.steer_turn == CLI_TURN_STEADY, p.steer_steady_turn, "steer turn");
	cr_expect_eq(s.steer_radius, p.steer_radius, "steer_radius: option default %g, sim default %g", s.steer_radius, p.steer_radius);
	cr_expect_eq(s.steer_cohesion_steps, p.steer_cohesion_steps, "steer_cohesion_steps: option default %g, sim default %g", s.steer_cohesion_steps, p.steer_cohesion_steps);
	cr_expect_eq(s.steer_cohesion_weight, p.steer_cohesion_weight, "steer_cohesion_weight: option default %g, sim default %g", s.steer_cohesion_weight, p.steer_cohesion_weight);
	cr_expect_eq(s.steer_separation_weight, p.steer_separation_weight, "steer_separation_weight: option default %g, sim default %g", s.steer_separation_weight, p.steer_separation_weight);
	cr_expect_eq(s.steer_alignment_weight, p.steer_alignment_weight, "steer_alignment_weight: option default %g, sim default %g", s.steer_alignment_weight, p.steer_alignment_weight);
	cr_expect_eq(s.steer_seek_weight, p.steer_seek_weight, "steer_seek_weight: option default %g, sim default %g", s.steer_seek_weight, p.steer_seek_weight);
	cr_expect_eq(s.steer_arrival_radius, p.steer_arrival_radius, "steer_arrival_radius: option default %g, sim default %g", s.steer_arrival_radius, p.steer_arrival_radius);
	cr_expect_eq(s.steer_arrival_speed, p.steer_arrival_speed, "steer_arrival_speed: option default %g, sim default %g", s.steer_arrival_speed, p.steer_arrival_speed);
	cr_expect_eq(s.steer_max_speed, p.steer_max_speed, "steer_max_speed: option default %g, sim default %g", s.steer_max_speed, p.steer_max_speed);
	cr_expect_eq(s.steer_max_turn, p.steer_max_turn, "steer_max_turn: option default %g, sim default %g", s.steer_max_turn, p.steer_max_turn);
	cr_expect_eq(s.canvas_visual_range, p.canvas_visual_range, "canvas_visual_range: option default %g, sim default %g", s.canvas_visual_range, p.canvas_visual_range);
	cr_expect_eq(s.canvas_cohesion_resistance, p.canvas_cohesion_resistance, "canvas_cohesion_resistance: option default %g, sim default %g", s.canvas_cohesion_resistance, p.canvas_cohesion_resistance);
	cr_expect_eq(s.canvas_separation_distance, p.canvas_separation_distance, "canvas_separation_distance: option default %g, sim default %g", s.canvas_separation_distance, p.canvas_separation_distance);
	cr_expect_eq(s.canvas_alignment_eagerness, p.canvas_alignment_eagerness, "canvas_alignment_eagerness: option default %g, sim default %g", s.canvas_alignment_eagerness, p.canvas_alignment_eagerness);
	cr_expect_eq(s.canvas_speed, p.canvas_speed, "canvas_speed: option default %g, sim default %g", s.canvas_speed, p.canvas_speed);
	cr_expect_eq(s.canvas_dt, p.canvas_dt, "canvas_dt: option default %g, sim default %g", s.canvas_dt, p.canvas_dt);
	cli_release(&s);
}

Test(defaults, option_table_matches_the_renderer)
{
	struct settings s;
	struct render_params p;
	char err[256];
	char *argv[] = { "boids", NULL };

	cr_assert_eq(cli_parse(&s, 1, argv, err, sizeof(err)), CLI_RUN, "%s", err);
	render_params_default(&p, 640, 360);
	cr_expect_eq(s.background, p.background);
	cr_expect_eq(s.boid_color, p.boid_color);
	cr_expect_eq(s.predator_color, p.predator_color);
	cr_expect_eq(s.obstacle_color, p.obstacle_color);
	cr_expect_eq(s.target_color, p.target_color);
	cr_expect_eq(s.boid_size, p.boid_size);
	cr_expect_eq(s.predator_size, p.predator_size);
	cr_expect_eq(s.scale, p.scale);
	cr_expect_eq(s.antialias, CLI_AA_GOOD);
	cr_expect_eq(p.antialias, RENDER_AA_GOOD);
	cr_expect_eq(s.shape, CLI_SHAPE_CURVE);
	cr_expect_eq(p.shape, RENDER_CURVE);
	cli_release(&s);
}
