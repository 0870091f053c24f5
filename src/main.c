/*
 * boids — command-line entry point.  To understand everything else, start
 * reading main() below: it reads like the table of contents of a run —
 * parse the settings (cli), decide the threads, validate every output before
 * creating any file (outputs), build the flock (start), open the outputs, run
 * the frames — simulate, draw, encode (pipeline) — and finish the outputs;
 * the modules' failures become one message and an exit status (report):
 * 0 success, 1 runtime failure, 2 bad usage, 128+signal after SIGINT/SIGTERM.
 *
 * main is the only place that knows every module; the library modules never print.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "model.h"
#include "completion.h"
#include "start.h"
#include "outputs.h"
#include "pipeline.h"
#include "progress.h"
#include "render.h"
#include "report.h"
#include "signals.h"
#include "sim.h"
#include "video.h"

/* Everything one run holds; released by run_release(). */
struct run {
	struct settings set;
	struct pipeline_threads threads;
	struct outputs out;
	struct start start;
	struct pipeline pipe;
	struct progress bar;
	double wall;                 /* seconds the run took */
};

/*
 * Started with fd 0, 1 or 2 closed (cron, daemons), the first file opened
 * would take its number and receive whatever is meant for standard output
 * or error.  Each closed one gets /dev/null, opened the wrong way round (as
 * gnulib's stdopen does), so that using it fails with EBADF instead of
 * silently succeeding.
 */
static void standard_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		int nfd = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
		if (nfd < 0)
			exit(EXIT_FAILURE); /* nowhere to say so */
		if (nfd != fd) {
			dup2(nfd, fd);
			close(nfd);
		}
	}
}

/* ------------------------------------------------------------ settings */

static void settings_to_params(const struct settings *s, struct sim_params *p)
{
	static const unsigned edges[] = {
		[CLI_EDGES_BOUNCE] = SIM_BOUNCE,
		[CLI_EDGES_WRAP] = SIM_WRAP,
		[CLI_EDGES_BOTH] = SIM_BOUNCE | SIM_WRAP,
		[CLI_EDGES_NONE] = SIM_EDGES_NONE,
	};

	sim_params_default(p, (double)s->width, (double)s->height);
	p->predators = (size_t)s->predators;
	p->flock_radius = s->flock_radius;
	p->flock_weight = s->flock_weight;
	p->align_radius = s->align_radius;
	p->align_weight = s->align_weight;
	p->avoid_radius = s->avoid_radius;
	p->avoid_weight = s->avoid_weight;
	p->predator_radius = s->predator_radius;
	p->predator_weight = s->predator_weight;
	p->min_speed = s->min_speed;
	p->max_speed = s->max_speed;
	p->wall_pad = s->wall_pad;
	p->wall_turn = s->wall_turn;
	p->edges = edges[s->edges];
	p->update = s->update == CLI_SYNCHRONOUS ? SIM_SYNCHRONOUS : SIM_SEQUENTIAL;

	static const enum sim_target_mode targets[] = {
		[CLI_TARGET_NONE] = SIM_TARGET_NONE,
		[CLI_TARGET_FIXED] = SIM_TARGET_FIXED,
		[CLI_TARGET_LISSAJOUS] = SIM_TARGET_LISSAJOUS,
	};
	p->model = model_find(cli_find("model")->choices[s->model]); /* the parser checked the name */
	p->target_mode = targets[s->target];
	if (s->target == CLI_TARGET_FIXED) {
		p->target_x = s->target_x;
		p->target_y = s->target_y;
	}
	p->proc_limit_components = s->proc_limit == 1;
	p->proc_separation = s->proc_separation == CLI_SEP_INVERSE ? SIM_SEP_INVERSE : SIM_SEP_UNIT;
	p->steer_separation_steps = s->steer_separation_steps;
	p->steer_socialize_weight = s->steer_socialize_weight;
	p->steer_steady_turn = s->steer_turn == CLI_TURN_STEADY;
	p->noise_seed = s->seed;
	p->obstacle_margin = s->obstacle_margin;
	p->obstacle_weight = s->obstacle_weight;
	p->target_amp_x = s->target_amp_x;
	p->target_amp_y = s->target_amp_y;
	p->target_freq_x = s->target_freq_x;
	p->target_freq_y = s->target_freq_y;
	p->target_period = s->target_period;
	p->proc_cohesion_radius = s->proc_cohesion_radius;
	p->proc_separation_radius = s->proc_separation_radius;
	p->proc_alignment_radius = s->proc_alignment_radius;
	p->proc_cohesion_weight = s->proc_cohesion_weight;
	p->proc_separation_weight = s->proc_separation_weight;
	p->proc_alignment_weight = s->proc_alignment_weight;
	p->proc_max_force = s->proc_max_force;
	p->proc_max_speed = s->proc_max_speed;
	p->proc_jitter = s->proc_jitter;
	p->steer_radius = s->steer_radius;
	p->steer_cohesion_steps = s->steer_cohesion_steps;
	p->steer_cohesion_weight = s->steer_cohesion_weight;
	p->steer_separation_weight = s->steer_separation_weight;
	p->steer_alignment_weight = s->steer_alignment_weight;
	p->steer_seek_weight = s->steer_seek_weight;
	p->steer_arrival_radius = s->steer_arrival_radius;
	p->steer_arrival_speed = s->steer_arrival_speed;
	p->steer_max_speed = s->steer_max_speed;
	p->steer_max_turn = s->steer_max_turn;
	p->canvas_visual_range = s->canvas_visual_range;
	p->canvas_cohesion_resistance = s->canvas_cohesion_resistance;
	p->canvas_separation_distance = s->canvas_separation_distance;
	p->canvas_alignment_eagerness = s->canvas_alignment_eagerness;
	p->canvas_speed = s->canvas_speed;
	p->canvas_dt = s->canvas_dt;
	p->gl_flock_radius = s->gl_flock_radius;
	p->gl_flock_weight = s->gl_flock_weight;
	p->gl_predator_sight = s->gl_predator_sight;
	p->gl_avoid_radius = s->gl_avoid_radius;
	p->gl_avoid_weight = s->gl_avoid_weight;
	p->gl_avoid_all = s->gl_avoid == 1;
	p->gl_align_radius = s->gl_align_radius;
	p->gl_align_weight = s->gl_align_weight;
	p->gl_flee_radius = s->gl_flee_radius;
	p->gl_flee_weight = s->gl_flee_weight;
	p->gl_wall_pad = s->gl_wall_pad;
	p->gl_wall_turn = s->gl_wall_turn;
	p->gl_speed_min = s->gl_speed_min;
	p->gl_speed_max = s->gl_speed_max;
	p->gl_predator_boost = s->gl_predator_boost;
	p->gl_speed_ease = s->gl_speed_ease;
	p->gl_step = s->gl_step;
}

static void settings_to_render(struct run *r, struct render_params *p)
{
	const struct settings *s = &r->set;
	static const enum render_shape shapes[] = {
		[CLI_SHAPE_CURVE] = RENDER_CURVE,
		[CLI_SHAPE_REPO] = RENDER_REPO,
		[CLI_SHAPE_POLYGON] = RENDER_POLYGON,
		[CLI_SHAPE_TRIANGLE] = RENDER_TRIANGLE,
		[CLI_SHAPE_ARROW] = RENDER_ARROW,
		[CLI_SHAPE_CIRCLE] = RENDER_CIRCLE,
	};
	static const enum render_antialias aa[] = {
		[CLI_AA_NONE] = RENDER_AA_NONE,
		[CLI_AA_FAST] = RENDER_AA_FAST,
		[CLI_AA_GOOD] = RENDER_AA_GOOD,
		[CLI_AA_BEST] = RENDER_AA_BEST,
	};

	render_params_default(p, r->out.pic_w, r->out.pic_h);
	p->scale = s->scale;
	p->shape = shapes[s->shape];
	p->outline = s->outline == CLI_OUTLINE_FINAL ? RENDER_OUTLINE_FINAL : RENDER_OUTLINE_LISTING;
	p->paint = s->paint == CLI_PAINT_STROKE ? RENDER_STROKE : RENDER_FILL;
	p->grid = s->pixel_grid == CLI_GRID_GDI ? RENDER_GRID_GDI : RENDER_GRID_CAIRO;
	p->boid_size = s->boid_size;
	p->background = s->background;
	p->boid_color = s->boid_color;
	p->predator_color = s->predator_color;
	p->antialias = aa[s->antialias];
	p->draw = s->draw ? RENDER_DRAW_FAST : RENDER_DRAW_EXACT;
	p->predator_size = s->predator_size;
	p->background_style = s->background_style == CLI_BG_NOISE ? RENDER_BG_NOISE : RENDER_BG_FLAT;
	p->noise_seed = s->seed;
	p->obstacles = r->start.obstacles;
	p->obstacles_n = r->start.obstacles ? (size_t)s->obstacles_n : 0;
	p->obstacle_color = s->obstacle_color;
	p->target_color = s->target_color;
	p->trail_style = s->trail_style == CLI_TRAIL_OPENGL ? RENDER_TRAIL_OPENGL : RENDER_TRAIL_FADE;
	p->show_ranges = s->show_ranges;
	switch (s->model) { /* --show-ranges: the model's separation and cohesion radii */
	case CLI_MODEL_PROCESSING:
		p->range_near = s->proc_separation_radius, p->range_far = s->proc_cohesion_radius;
		break;
	case CLI_MODEL_STEERING:
		p->range_near = p->range_far = s->steer_radius;
		break;
	case CLI_MODEL_CANVAS:
		p->range_near = s->canvas_separation_distance, p->range_far = s->canvas_visual_range;
		break;
	case CLI_MODEL_OPENGL:
		p->range_near = s->gl_avoid_radius, p->range_far = s->gl_flock_radius;
		break;
	default:
		p->range_near = s->avoid_radius, p->range_far = s->flock_radius;
		break;
	}
}

/* ------------------------------------------------------------ start-up */

/*
 * Parses the command line.  Returns -1 to run, or the exit status of
 * everything that ends here: a usage error, --help, --version, the lists.
 */
static int parse_command_line(struct run *r, int argc, char **argv)
{
	char err[512];
	int parsed = cli_parse(&r->set, argc, argv, err, sizeof(err));

	switch (parsed) {
	case CLI_NOMEM:
		report("%s", err);
		return EXIT_FAILURE;
	case CLI_ERROR:
		report("%s", err);
		return EXIT_USAGE;
	case CLI_HELP:
	case CLI_HELP_ALL:
		cli_print_help(stdout, parsed == CLI_HELP_ALL);
		return report_stdout_status();
	case CLI_COMPLETION:
		completion_print(stdout, r->set.completion);
		return report_stdout_status();
	case CLI_VERSION:
		printf("boids %s\n", BOIDS_VERSION);
		return report_stdout_status();
	case CLI_PRINT_CONFIG:
		cli_print_config(stdout, &r->set);
		return report_stdout_status();
	case CLI_LIST_OPTIONS:
		cli_print_options_json(stdout);
		return report_stdout_status();
	case CLI_LIST_MODELS:
		cli_print_models(stdout);
		return report_stdout_status();
	case CLI_LIST_CODECS:
		video_list_codecs(stdout);
		return report_stdout_status();
	default:
		return -1;
	}
}

/* --verbose: the thread counts and why, and what the pictures become. */
static void say_plan(const struct run *r)
{
	char line[512];

	if (!r->set.verbose)
		return;
	pipeline_threads_describe(&r->threads, r->out.kind, line, sizeof(line));
	fprintf(stderr, "boids: threads: %s\n", line);
	outputs_describe(&r->out, line, sizeof(line));
	fprintf(stderr, "boids: output: %s\n", line);
}

/*
 * Everything a user can get wrong is refused (exit 2) before any file
 * exists: the inputs first (--config was read with the command line), then
 * the outputs.
 */
static void check_run(struct run *r)
{
	start_read(&r->start, &r->set);
	pipeline_threads(&r->set, &r->threads);
	outputs_init(&r->out, &r->set, r->threads.encoder);
	outputs_check(&r->out);
	say_plan(r);
}

/* The flock and the pipeline's slots; failures exit. */
static void set_up(struct run *r)
{
	struct sim_params p;
	struct render_params rp;
	int drawing = r->out.kind != OUTPUTS_NONE;
	struct start_budget b = { drawing ? r->threads.draw + 3 : 0, r->out.pic_w, r->out.pic_h };

	settings_to_params(&r->set, &p);
	start_build(&r->start, &r->set, &p, r->threads.sim, &b);
	settings_to_render(r, &rp);
	int e = pipeline_init(&r->pipe, &r->set, &r->start.sim, &r->out, &rp, r->threads.draw);
	if (e) {
		report("cannot set up drawing: %s", strerror(-e));
		exit(EXIT_FAILURE);
	}
}

/*
 * Opens the outputs; a signal may end the wait for a FIFO's reader (the
 * handlers do not restart it).  Returns an exit status.
 */
static int open_outputs(struct run *r)
{
	signals_watch();
	int status = signals_caught() ? 128 + signals_caught() : outputs_open(&r->out);
	if (!status && r->out.video) {
		int err = pipeline_use_video(&r->pipe, r->out.video);
		if (err)
			status = report_failure("cannot set up the encoder for", r->set.output, err);
	}
	if (status && signals_caught())
		status = 128 + signals_caught(); /* interrupted while waiting for a FIFO's reader */
	signals_restart(1);
	return status;
}

/* ----------------------------------------------------------------- the run */

/* --warmup, then every frame, with progress.  Returns an exit status. */
static int run_frames(struct run *r, int status)
{
	const struct settings *s = &r->set;

	progress_start(&r->bar, stderr, pipeline_progress_mode(s), s->frames, s->progress_interval);
	if (!status)
		status = pipeline_step(&r->pipe, s->warmup);
	if (!status && !signals_caught())
		status = pipeline_run(&r->pipe, &r->bar);
	progress_end(&r->bar);
	if (!status && signals_caught())
		status = 128 + signals_caught();
	return status;
}

/* Closes every output and writes the summary.  Returns the exit status. */
static int finish(struct run *r, int status)
{
	r->wall = progress_now() - r->bar.start;
	return outputs_finish(&r->out, status, r->pipe.frames_done, r->wall);
}

/* The closing line, unless -q or the run failed. */
static void say_done(const struct run *r, int status)
{
	int sig = signals_caught();
	double t = r->wall;
	long done = r->pipe.frames_done;

	if (r->set.quiet || (status != 0 && status != 128 + sig))
		return;
	report("%ld frames of %zu boids in %.2f s (%.1f fps) -> %s%s",
	       done, r->start.sim.n, t, t > 0 ? (double)done / t : 0.0, outputs_name(&r->out),
	       sig ? " (stopped by a signal)" : "");
}

static void run_release(struct run *r)
{
	outputs_release(&r->out);
	pipeline_release(&r->pipe);
	start_release(&r->start);
	cli_release(&r->set);
}

int main(int argc, char **argv)
{
	static struct run r;

	standard_fds();       /* first: before anything can open a file */
	signals_block(1);     /* threads made from here on leave them to main */
	video_quiet_logs();   /* failures come back as codes; we report them */
	int status = parse_command_line(&r, argc, argv);
	if (status >= 0) {
		cli_release(&r.set);
		return status;
	}
	check_run(&r);
	set_up(&r);
	status = open_outputs(&r);
	status = run_frames(&r, status);
	status = finish(&r, status);
	say_done(&r, status);
	run_release(&r);
	return status;
}
