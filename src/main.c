/*
 * boids — command-line entry point.  To understand everything else, start
 * reading main() below: it parses the settings (cli), validates every output
 * before creating any file, builds the flock (sim), then runs the frame loop
 * — step, draw (render), write (pngout / video / traj) — and turns the
 * modules' negative error codes into one message and an exit status:
 * 0 success, 1 runtime failure, 2 bad usage, 128+signal after SIGINT/SIGTERM.
 *
 * main is the only place that knows every module; the modules never print.
 */
#include <errno.h>
#include <fcntl.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "frameq.h"
#include "framename.h"
#include "metrics.h"
#include "outfile.h"
#include "pngout.h"
#include "pool.h"
#include "progress.h"
#include "completion.h"
#include "render.h"
#include "sim.h"
#include "summary.h"
#include "traj.h"
#include "video.h"

enum { EXIT_USAGE = 2 };

enum output_kind { OUT_NONE, OUT_VIDEO, OUT_STDOUT, OUT_PNG, OUT_STILL };

enum { PNG_PRECHECK = 100000 }; /* PNG names checked before work (about 0.1 s) */

/* Everything one run holds; released by run_release(). */
struct run {
	struct settings set;
	enum output_kind kind;
	long poster;            /* OUT_STILL: the frame written */
	int pic_w, pic_h;            /* picture size, pixels */
	struct pool *pool;
	struct sim sim;
	struct video *video;
	struct video_options vopt;
	struct outfile video_file;   /* temporary file behind a video */
	struct outfile traj_file;
	struct outfile metrics_file;
	int png_lock;                /* outfile_lock() of the PNG pattern, or -1 */
	int want_metrics;            /* --metrics or --summary */
	struct metrics_ctx mctx;
	struct metrics mlast;        /* the last frame's metrics */
	double msum[METRICS_COUNT];  /* sums over the frames, for the means */
	long mcount;
	long frames_done;            /* frames through every stage */
	int side_failed;             /* a side file failed: reported and removed, the run goes on */
	int metrics_failed;          /* no metrics: neither --metrics nor --summary is written */
	/* trails: the last `trail` positions of every boid, a ring of frames */
	double *hist_x, *hist_y;     /* trail * n each */
	long hist_count;             /* frames in the ring, <= trail */
	long hist_next;              /* ring slot the next frame goes to */
	struct render_circle *obstacles; /* for the renderers */
	struct sim_obstacle *sim_obstacles; /* for the flock */
	/* pipeline */
	struct frameq *queue;
	int drawers;                 /* drawing threads */
	pthread_mutex_t fail_lock;
	int failed;                  /* an exit status once a stage failed */
};

/* What one pipeline slot carries: a copy of the flock and a renderer. */
struct slot_data {
	double *x, *y, *vx, *vy;     /* one block */
	double *trail_x, *trail_y;   /* oldest first, trail_len * n each (one block) */
	size_t trail_len;
	int has_target;              /* the steering model's target, where it is */
	double target_x, target_y;
	struct renderer *renderer;
	struct video_picture *pic;   /* the drawn frame, converted for the encoder */
};

/* Set by on_signal, read by every pipeline thread: lock-free atomic. */
static atomic_int stop_signal;

/* The first signal decides; a second one (Ctrl-C twice, SIGHUP after
 * SIGINT) changes nothing, so the outputs are still finished. */
static void on_signal(int sig)
{
	int none = 0;

	atomic_compare_exchange_strong(&stop_signal, &none, sig);
}

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
static int handled[3];           /* we handle it (it was not ignored at start) */

/*
 * Installs on_signal.  restart 0 while opening outputs: a FIFO's open()
 * waits for a reader, and the signal must end that wait (EINTR) rather
 * than be taken and the open() resumed.  restart 1 for the run itself, so
 * stdio writes are never cut short by EINTR.
 */
static void set_handlers(int restart)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = restart ? SA_RESTART : 0;
	for (int i = 0; i < 3; i++)
		if (handled[i])
			sigaction(stop_signals[i], &sa, NULL);
}

/* Blocks (1) or unblocks (0) the stop signals in the calling thread. */
static void mask_stop_signals(int block)
{
	sigset_t set;

	sigemptyset(&set);
	for (int i = 0; i < 3; i++)
		sigaddset(&set, stop_signals[i]);
	pthread_sigmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

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

/* ------------------------------------------------------------------ reports */

/*
 * Prints one line "boids: ..." on stderr.  Paths and values come from the
 * user, so control characters become '?': a message is always one line and
 * never an escape sequence.
 */
static void vreport(const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	for (char *c = msg; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	fprintf(stderr, "boids: %s\n", msg);
}

static void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void report(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
}

static void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
	exit(EXIT_USAGE);
}

/* Reports a runtime failure about `path`; err is a negative errno/AVERROR. */
static int runtime_error(const char *what, const char *path, int err)
{
	char buf[AV_ERROR_MAX_STRING_SIZE];

	if (err == AVERROR(EINTR) && stop_signal)
		return EXIT_FAILURE; /* a signal ended a wait (a FIFO's open): not a failure to report */
	if (err == -ESTALE) {
		report("%s '%s': its temporary file was replaced by someone else; nothing written",
		       what, path);
		return EXIT_FAILURE;
	}
	av_strerror(err, buf, sizeof(buf));
	report("%s '%s': %s", what, CLI_CUT_PATH(path), buf);
	return EXIT_FAILURE;
}

/*
 * Records that a pipeline stage failed: the first failure is reported and
 * stops every stage; later ones (often consequences) stay silent.
 */
static void stage_failed(struct run *r, const char *what, const char *path, int err)
{
	pthread_mutex_lock(&r->fail_lock);
	if (!r->failed)
		r->failed = path ? runtime_error(what, path, err) : EXIT_FAILURE;
	pthread_mutex_unlock(&r->fail_lock);
	if (r->queue)
		frameq_close(r->queue, -1);
}

static int has_failed(struct run *r)
{
	pthread_mutex_lock(&r->fail_lock);
	int f = r->failed;
	pthread_mutex_unlock(&r->fail_lock);
	return f;
}

/* Exit status after printing to stdout: 1, with a message, if it failed. */
static int stdout_status(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		report("cannot write to standard output: %s", strerror(errno ? errno : EIO));
		return EXIT_FAILURE;
	}
	return 0;
}

/* ---------------------------------------------------------------- checking */

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

/* Refuses an output path that exists (without -y) or cannot be created. */
static void check_writable(const char *option, const char *file, int overwrite)
{
	int err = outfile_check(file, overwrite);
	enum outfile_what what = err ? outfile_what(file) : OUTFILE_NOTHING;
	const char *path = CLI_CUT_PATH(file);

	if (err == -ENOMEM) {
		report("out of memory");
		exit(EXIT_FAILURE);
	}
	if (err == -ELOOP || (err == -EEXIST && what == OUTFILE_DANGLING))
		usage_error("%s: '%s' is a symbolic link to nothing (or a loop): not followed",
		            option, path);
	if (err == -EEXIST && what == OUTFILE_SYMLINK)
		usage_error("%s: '%s' is a symbolic link (use -y to replace the file it points to)",
		            option, path);
	if (err == -EEXIST && (what == OUTFILE_FIFO || what == OUTFILE_DEVICE))
		usage_error("%s: '%s' is %s (use -y to write into it)", option, path,
		            outfile_what_name(what));
	if (err == -EEXIST)
		usage_error("%s: '%s' exists (use -y to overwrite)", option, path);
	if (err == -ENXIO)
		usage_error("%s: '%s' is a socket", option, path);
	if (err == -ENAMETOOLONG)
		usage_error("%s: cannot create '%s': the name is too long for the temporary "
		            "file beside it (.NAME.XXXXXX.EXT must fit in %d bytes)", option, path,
		            NAME_MAX);
	if (err == -EISDIR)
		usage_error("%s: '%s' is a directory", option, path);
	if (err == -ENOENT || err == -ENOTDIR)
		usage_error("%s: cannot create '%s': its directory does not exist", option, path);
	if (err)
		usage_error("%s: cannot create '%s': %s", option, path, strerror(-err));
}

/* Works out the kind of output and validates it before any file exists. */
static void check_output(struct run *r)
{
	const struct settings *s = &r->set;
	char why[256];

	if (s->no_render) {
		if (cli_given(s, "output"))
			usage_error("--output: nothing is drawn with --no-render (drop one of them)");
		r->kind = OUT_NONE;
		return;
	}
	const char *out = s->output;
	struct stat sb;
	if (has_suffix(out, "/") || (stat(out, &sb) == 0 && S_ISDIR(sb.st_mode)))
		usage_error("--output: '%s' is a directory (for one PNG per frame: -o '%s%sf_%%05d.png')",
		            out, out, has_suffix(out, "/") ? "" : "/");
	if (has_suffix(out, ".png") && !strchr(out, '%')) {
		/* one picture: the frame --poster names, the last by default */
		r->kind = OUT_STILL;
		r->poster = s->poster >= 0 ? s->poster : s->frames - 1;
		if (r->poster >= s->frames)
			usage_error("--poster: frame %ld is past the last frame (%ld of %ld frames)",
			            r->poster, s->frames - 1, s->frames);
		check_writable("--output", out, s->overwrite);
		return;
	}
	if (has_suffix(out, ".png")) {
		r->kind = OUT_PNG;
		if (framename_check(out, why, sizeof(why)) != 0)
			usage_error("--output: bad PNG pattern '%s': %s", CLI_CUT_PATH(out), why);
		/*
		 * The frames' names must be free (or -y).  Checked up front for the
		 * first PNG_PRECHECK frames; beyond, writing refuses to replace a
		 * file anyway (outfile_commit links, it does not rename, without -y).
		 */
		char name[4096];
		for (long k = 0; k < s->frames && k < PNG_PRECHECK; k++) {
			if (framename_format(name, sizeof(name), out, s->start_number + k) != 0)
				usage_error("--output: PNG pattern '%s' makes names too long", CLI_CUT_PATH(out));
			check_writable("--output", name, s->overwrite);
		}
		return;
	}
	if (strcmp(out, "-") == 0) {
		r->kind = OUT_STDOUT;
		if (isatty(STDOUT_FILENO))
			usage_error("--output: refusing to write video to a terminal (redirect or pipe it)");
	} else if (!video_path_supported(out)) {
		usage_error("--output: unknown kind of file '%s' (expected %s, a PNG pattern such as f_%%05d.png, or -)",
		            CLI_CUT_PATH(out), video_extensions());
	} else {
		r->kind = OUT_VIDEO;
	}
	if (video_check(out, r->pic_w, r->pic_h, (int)s->fps, &r->vopt, why, sizeof(why)) != 0) {
		/* A picture whose odd size is the model's or the look's own (the
		 * C# window's 584x361, opengl's 1157x578) gets one more row or
		 * column of background at the bottom or right for encoders that
		 * need even sizes; a size the user chose is refused instead. */
		int windows = s->look == CLI_LOOK_HARDEN_WINDOWS ||
		              (s->look == CLI_LOOK_ORIGINAL && s->model == CLI_MODEL_HARDEN);
		int own = windows || !(cli_given(s, "size") || cli_given(s, "scale"));
		int w2 = r->pic_w + (r->pic_w & 1), h2 = r->pic_h + (r->pic_h & 1);
		char why2[256];
		if (!own || (w2 == r->pic_w && h2 == r->pic_h) ||
		    video_check(out, w2, h2, (int)s->fps, &r->vopt, why2, sizeof(why2)) != 0)
			usage_error("%s", why);
		if (!s->quiet)
			fprintf(stderr, "boids: note: %s needs even sizes: the %dx%d picture is padded to %dx%d\n",
			        out, r->pic_w, r->pic_h, w2, h2);
		r->pic_w = w2;
		r->pic_h = h2;
	}
	if (r->kind == OUT_VIDEO) {
		check_writable("--output", out, s->overwrite);
		struct stat st; /* -y into a FIFO or device: only a stream container */
		if (video_needs_file(out) && stat(out, &st) == 0 && !S_ISREG(st.st_mode))
			usage_error("--output: '%s' is not a regular file, and %s needs one (it seeks "
			            "and reads back); stream .mkv, .webm, .gif or .y4m instead", out,
			            strrchr(out, '.'));
	}
}

/*
 * Do two output names mean the same file?  Compared as the resolved
 * directory plus the last component, so t.csv, ./t.csv and d/../t.csv meet.
 */
static int same_path(const char *a, const char *b)
{
	if (strcmp(a, b) == 0)
		return 1;
	if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
		return 0;
	const char *ba = strrchr(a, '/'), *bb = strrchr(b, '/');
	if (strcmp(ba ? ba + 1 : a, bb ? bb + 1 : b) != 0)
		return 0;
	char da[4096], db[4096], ra[PATH_MAX], rb[PATH_MAX];
	snprintf(da, sizeof(da), "%.*s", ba ? (int)(ba - a) + 1 : 1, ba ? a : ".");
	snprintf(db, sizeof(db), "%.*s", bb ? (int)(bb - b) + 1 : 1, bb ? b : ".");
	return realpath(da, ra) && realpath(db, rb) && strcmp(ra, rb) == 0;
}

/* Does path name an existing device, FIFO or socket (not a file to replace)? */
static int is_special(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* --trajectory, --metrics, --summary: writable, and no two files the same. */
static void check_side_files(struct run *r)
{
	const struct settings *s = &r->set;
	const char *opt[] = { "--output", "--trajectory", "--metrics", "--summary" };
	const char *path[] = { r->kind == OUT_VIDEO ? s->output : r->kind == OUT_STDOUT ? "-" : NULL,
	                       s->trajectory, s->metrics, s->summary };

	for (int i = 1; i < 4; i++) {
		if (!path[i])
			continue;
		for (int j = 0; j < i; j++)
			if (path[j] && same_path(path[i], path[j]) && !is_special(path[i]))
				usage_error("%s: '%s' is also the %s", opt[i], CLI_CUT_PATH(path[i]), opt[j]);
		if (i == 3 && strcmp(path[i], "-") == 0)
			continue; /* the summary may go to standard output */
		check_writable(opt[i], path[i], s->overwrite);
	}
}

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

	static const enum sim_model models[] = {
		[CLI_MODEL_HARDEN] = SIM_HARDEN,
		[CLI_MODEL_PROCESSING] = SIM_PROCESSING,
		[CLI_MODEL_STEERING] = SIM_STEERING,
		[CLI_MODEL_CANVAS] = SIM_CANVAS,
		[CLI_MODEL_OPENGL] = SIM_OPENGL,
	};
	static const enum sim_target_mode targets[] = {
		[CLI_TARGET_NONE] = SIM_TARGET_NONE,
		[CLI_TARGET_FIXED] = SIM_TARGET_FIXED,
		[CLI_TARGET_LISSAJOUS] = SIM_TARGET_LISSAJOUS,
	};
	p->model = models[s->model];
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

	render_params_default(p, r->pic_w, r->pic_h);
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
	p->obstacles = r->obstacles;
	p->obstacles_n = r->obstacles ? (size_t)s->obstacles_n : 0;
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

/*
 * Refuses, before allocating, a run whose memory would not fit: the flock
 * and its grids, and per pipeline slot a copy of the state, the trail and
 * the picture (plus the trail ring).  The stated maximum is 80% of the
 * machine's physical memory.
 */
static void check_memory(const struct run *r)
{
	const struct settings *s = &r->set;
	double n = (double)s->boids, slots = r->kind == OUT_NONE ? 0 : r->drawers + 3;
	double trail = s->trail > 1 ? (double)s->trail : 0;
	double picture = (double)r->pic_w * r->pic_h * 4 * 2.5; /* ARGB + yuv + encoder */
	double flock = n * (10 * 8 + 4 * 4) * 2;                  /* sim arrays, grids, metrics */
	double bytes = flock + slots * (n * 32 + trail * n * 16 + picture) + trail * n * 16;
	double phys = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);

	if (phys > 0 && bytes > 0.8 * phys)
		usage_error("this run needs about %.1f GiB of memory, more than 80%% of the %.1f GiB here "
		            "(fewer --boids, a shorter --trail or a smaller picture)",
		            bytes / 1073741824.0, phys / 1073741824.0);
}

/*
 * The obstacles of the settings, once for the flock and once for the
 * renderers: the same circles in each module's own type (render knows
 * nothing of sim).  Runs before anything else is allocated.
 */
static void make_obstacles(struct run *r)
{
	const struct settings *s = &r->set;
	size_t n = (size_t)s->obstacles_n;

	r->sim_obstacles = calloc(n, sizeof(*r->sim_obstacles));
	r->obstacles = calloc(n, sizeof(*r->obstacles));
	if (!r->sim_obstacles || !r->obstacles) {
		report("out of memory");
		exit(EXIT_FAILURE);
	}
	for (size_t i = 0; i < n; i++) {
		const double *c = s->obstacles[i];
		r->sim_obstacles[i] = (struct sim_obstacle){ c[0], c[1], c[2] };
		r->obstacles[i] = (struct render_circle){ c[0], c[1], c[2] };
	}
}

_Static_assert(TRAJ_VALUE_MAX == SIM_STATE_MAX, "--init accepts what the flock can hold");

/* Builds the flock from --init or the seed; usage errors exit 2. */
static void build_flock(struct run *r)
{
	struct settings *s = &r->set;
	struct sim_params p;
	struct traj_state st = { 0 };

	settings_to_params(s, &p);
	if (s->obstacles_n) {
		make_obstacles(r);
		p.obstacles = r->sim_obstacles;
		p.obstacles_n = (size_t)s->obstacles_n;
	}
	if (s->init) {
		struct traj_error te;
		struct stat sb;
		const char *name = CLI_CUT_PATH(s->init);
		FILE *f = fopen(s->init, "r");
		if (!f && errno == ENOMEM) {
			report("--init: cannot open '%s': %s", name, strerror(ENOMEM));
			exit(EXIT_FAILURE);
		}
		if (!f)
			usage_error("--init: cannot open '%s': %s", name, strerror(errno));
		if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode))
			usage_error("--init: '%s' is a directory", name);
		int err = traj_load(f, &st, &te);
		fclose(f);
		if (err == -EINVAL && te.line)
			usage_error("--init: '%s' line %ld: %s", name, te.line, te.what);
		if (err == -EINVAL)
			usage_error("--init: '%s': %s", name, te.what);
		if (err == -ENOMEM) { /* the machine's fault, not the file's */
			report("--init: cannot read '%s' (line %ld): %s", name, te.line, strerror(-err));
			exit(EXIT_FAILURE);
		}
		if (err)
			usage_error("--init: cannot read '%s' (line %ld): %s", name, te.line, strerror(-err));
		if (st.n > (size_t)CLI_MAX_BOIDS)
			usage_error("--init: '%s' has %zu boids (at most %ld)", name, st.n, CLI_MAX_BOIDS);
		s->boids = (long)st.n;
	}
	if (s->predators > s->boids && !cli_given(s, "predators"))
		s->predators = s->boids; /* the default 3 in a flock of 2 */
	if (s->predators > s->boids)
		usage_error("--predators: %ld is more than the %ld boids", s->predators, s->boids);
	check_memory(r);

	long threads = s->threads > 0 ? s->threads : sysconf(_SC_NPROCESSORS_ONLN);
	r->pool = pool_new(threads > 0 ? (int)threads : 1);
	if (!r->pool || sim_init(&r->sim, &p, (size_t)s->boids, r->pool) != 0) {
		report("out of memory for %ld boids", s->boids);
		exit(EXIT_FAILURE);
	}
	if (s->init) {
		/* the seed still draws what a CSV does not hold (opengl's target speeds) */
		sim_randomize(&r->sim, s->seed);
		memcpy(r->sim.x, st.x, st.n * sizeof(double));
		memcpy(r->sim.y, st.y, st.n * sizeof(double));
		memcpy(r->sim.vx, st.vx, st.n * sizeof(double));
		memcpy(r->sim.vy, st.vy, st.n * sizeof(double));
		traj_state_release(&st);
	} else {
		sim_randomize(&r->sim, s->seed);
	}
}

/* ----------------------------------------------------------------- writing */

static int write_png(struct run *r, struct renderer *rd, long frame)
{
	const struct settings *s = &r->set;
	char name[4096];
	struct outfile o;
	int stride;
	const unsigned char *px = render_pixels(rd, &stride);

	if (r->kind == OUT_STILL)
		snprintf(name, sizeof(name), "%s", s->output);
	else
		framename_format(name, sizeof(name), s->output, s->start_number + frame);
	int err = outfile_begin(&o, name, s->overwrite);
	if (err) {
		stage_failed(r, "cannot create", name, err);
		return -1;
	}
	err = pngout_write_stream(o.fp, r->pic_w, r->pic_h, stride, px, (int)s->png_level);
	if (!err)
		err = outfile_commit(&o);
	else
		outfile_abort(&o);
	if (err) {
		stage_failed(r, "cannot write", name, err);
		return -1;
	}
	return 0;
}

static int open_outputs(struct run *r)
{
	const struct settings *s = &r->set;
	char why[256];
	int err;

	if (stop_signal)
		return 128 + stop_signal; /* narrows the gap before a FIFO's open() */
	if (s->trajectory) {
		err = outfile_begin(&r->traj_file, s->trajectory, s->overwrite);
		if (!err)
			err = traj_write_header(r->traj_file.fp);
		if (err)
			return runtime_error("cannot write", s->trajectory, err);
	}
	if (s->metrics) {
		err = outfile_begin(&r->metrics_file, s->metrics, s->overwrite);
		if (!err)
			err = metrics_write_header(r->metrics_file.fp);
		if (err)
			return runtime_error("cannot write", s->metrics, err);
	}
	if (r->kind == OUT_PNG) {
		/* two runs writing one pattern would interleave their frames */
		r->png_lock = outfile_lock(s->output);
		if (r->png_lock == -EBUSY) {
			report("cannot write '%s': another run is writing this pattern (it holds "
			       "the lock file beside it)", s->output);
			return EXIT_FAILURE;
		}
		if (r->png_lock < 0)
			return runtime_error("cannot lock", s->output, r->png_lock);
	}
	if (r->kind == OUT_NONE || r->kind == OUT_PNG || r->kind == OUT_STILL)
		return 0;
	int fd = STDOUT_FILENO;
	if (r->kind == OUT_VIDEO) {
		err = outfile_begin(&r->video_file, s->output, s->overwrite);
		if (err)
			return runtime_error("cannot create", s->output, err);
		fd = r->video_file.fd; /* libavformat writes through it, never by name */
	}
	err = video_open_fd(&r->video, fd, s->output, r->pic_w, r->pic_h, (int)s->fps,
	                    &r->vopt, why, sizeof(why));
	if (err) {
		report("cannot write '%s': %s", s->output, why);
		return EXIT_FAILURE;
	}
	for (int i = 0; i < frameq_size(r->queue); i++) {
		struct slot_data *d = frameq_slot(r->queue, i)->user;
		if ((err = video_picture_new(r->video, &d->pic)) != 0)
			return runtime_error("cannot set up the encoder for", s->output, err);
	}
	return 0;
}

/* ---------------------------------------------------------------- pipeline */

/* Steps n times, or fewer when a signal arrives (the caller checks stop_signal). */
static int step_n(struct run *r, long n)
{
	for (long i = 0; i < n && !stop_signal; i++) {
		int err = sim_step(&r->sim);
		if (err) {
			report("cannot step the flock: %s", strerror(-err));
			return EXIT_FAILURE;
		}
	}
	return 0;
}

/*
 * A side file (--trajectory, --metrics) failed: say so once and remove it,
 * but let the run go on, so that a finished video is never thrown away
 * because of a side file.  main() exits 1 at the end.
 */
static void side_file_failed(struct run *r, struct outfile *o, const char *what,
                             const char *path, int err)
{
	runtime_error(what, path, err);
	outfile_abort(o);
	r->side_failed = 1;
}

/* Per-frame work that needs the live flock, in frame order. */
static void record_frame(struct run *r, long frame)
{
	const struct settings *s = &r->set;
	const struct sim *m = &r->sim;

	if (s->trajectory && r->traj_file.path) {
		int err = traj_write_frame(r->traj_file.fp, frame, m->n, m->x, m->y, m->vx, m->vy);
		if (err)
			side_file_failed(r, &r->traj_file, "cannot write", s->trajectory, err);
	}
	if (r->want_metrics && !r->metrics_failed) {
		struct metrics_input in = { m->n, m->x, m->y, m->vx, m->vy, m->p.width, m->p.height,
		                            sim_wraps(m), s->flock_radius };
		int err = metrics_compute(&r->mctx, &in, &r->mlast);
		if (err) {
			side_file_failed(r, &r->metrics_file, "cannot measure the flock for",
			                 s->metrics ? s->metrics : s->summary, err);
			r->metrics_failed = 1;
			return;
		}
		for (size_t i = 0; i < METRICS_COUNT; i++)
			r->msum[i] += metrics_value(&r->mlast, i);
		r->mcount++;
		if (s->metrics && r->metrics_file.path &&
		    (err = metrics_write_row(r->metrics_file.fp, frame, &r->mlast)) != 0)
			side_file_failed(r, &r->metrics_file, "cannot write", s->metrics, err);
	}
}

/* Adds the current positions to the trail ring. */
static void push_trail(struct run *r)
{
	size_t n = r->sim.n, bytes = n * sizeof(double);
	long len = r->set.trail;

	if (len < 2)
		return;
	memcpy(r->hist_x + (size_t)r->hist_next * n, r->sim.x, bytes);
	memcpy(r->hist_y + (size_t)r->hist_next * n, r->sim.y, bytes);
	r->hist_next = (r->hist_next + 1) % len;
	if (r->hist_count < len)
		r->hist_count++;
}

/* Copies the ring into a slot, oldest frame first. */
static void copy_trail(const struct run *r, struct slot_data *d)
{
	size_t n = r->sim.n, bytes = n * sizeof(double);
	long len = r->set.trail, first = (r->hist_next - r->hist_count + len) % (len ? len : 1);

	d->trail_len = (size_t)r->hist_count;
	for (long k = 0; k < r->hist_count; k++) {
		long at = (first + k) % len;
		memcpy(d->trail_x + (size_t)k * n, r->hist_x + (size_t)at * n, bytes);
		memcpy(d->trail_y + (size_t)k * n, r->hist_y + (size_t)at * n, bytes);
	}
}

/*
 * Producer: steps the flock and hands a copy of each frame's state on.
 * Stops early on a signal or a failure elsewhere, then closes the queue at
 * the frames it made, so the later stages finish those and no more.
 */
static void *produce(void *arg)
{
	struct run *r = arg;
	const struct settings *s = &r->set;
	size_t bytes = r->sim.n * sizeof(double);
	long k;

	for (k = 0; k < s->frames; k++) {
		if (stop_signal || has_failed(r))
			break;
		if (k > 0 && step_n(r, s->substeps) != 0) {
			stage_failed(r, NULL, NULL, 0);
			break;
		}
		record_frame(r, k);
		push_trail(r);
		struct frameq_slot *slot = frameq_get_empty(r->queue);
		if (!slot)
			break;
		struct slot_data *d = slot->user;
		memcpy(d->x, r->sim.x, bytes);
		memcpy(d->y, r->sim.y, bytes);
		memcpy(d->vx, r->sim.vx, bytes);
		memcpy(d->vy, r->sim.vy, bytes);
		copy_trail(r, d);
		d->has_target = sim_target(&r->sim, &d->target_x, &d->target_y);
		slot->frame = k;
		frameq_put_stepped(r->queue, slot);
	}
	frameq_close(r->queue, k);
	return NULL;
}

/* Drawer: draws stepped frames, any order; PNG output is written here too. */
static void *draw(void *arg)
{
	struct run *r = arg;
	struct frameq_slot *slot;

	while ((slot = frameq_get_stepped(r->queue))) {
		struct slot_data *d = slot->user;
		struct render_view v = { .n = r->sim.n, .predators = (size_t)r->set.predators,
		                         .x = d->x, .y = d->y, .vx = d->vx, .vy = d->vy,
		                         .trail_len = d->trail_len, .trail_x = d->trail_x,
		                         .trail_y = d->trail_y, .has_target = d->has_target,
		                         .target_x = d->target_x, .target_y = d->target_y };
		if (r->kind == OUT_STILL && slot->frame != r->poster) {
			frameq_put_drawn(r->queue, slot); /* not the poster: nothing to draw */
			continue;
		}
		int err = render_frame(d->renderer, &v);
		if (err) {
			stage_failed(r, "cannot draw a frame of", r->set.output, err);
			break;
		}
		if ((r->kind == OUT_PNG || r->kind == OUT_STILL) &&
		    write_png(r, d->renderer, slot->frame) != 0)
			break;
		if (d->pic) { /* convert here, in parallel, so the encoder only encodes */
			int stride;
			const unsigned char *px = render_pixels(d->renderer, &stride);
			if ((err = video_picture_fill(d->pic, px, stride)) != 0) {
				stage_failed(r, "cannot convert a frame of", r->set.output, err);
				break;
			}
		}
		frameq_put_drawn(r->queue, slot);
	}
	return NULL;
}

static void free_slots(struct run *r)
{
	if (!r->queue)
		return;
	for (int i = 0; i < frameq_size(r->queue); i++) {
		struct slot_data *d = frameq_slot(r->queue, i)->user;
		if (!d)
			continue;
		render_free(d->renderer);
		video_picture_free(d->pic);
		free(d->trail_x);
		free(d->x);
		free(d);
	}
	frameq_free(r->queue);
	r->queue = NULL;
}

/* Makes the queue: a few slots per drawer, each with a renderer. */
static int make_slots(struct run *r)
{
	struct render_params rp;
	size_t n = r->sim.n;

	if (r->set.trail > 1) {
		size_t cells = (size_t)r->set.trail * (n ? n : 1);
		if (!(r->hist_x = malloc(2 * cells * sizeof(double))))
			return -ENOMEM;
		r->hist_y = r->hist_x + cells;
	}
	settings_to_render(r, &rp);
	r->queue = frameq_new(r->drawers + 3);
	if (!r->queue)
		return -ENOMEM;
	for (int i = 0; i < frameq_size(r->queue); i++) {
		struct slot_data *d = calloc(1, sizeof(*d));
		frameq_slot(r->queue, i)->user = d;
		if (!d || !(d->x = malloc(4 * (n ? n : 1) * sizeof(double))))
			return -ENOMEM;
		d->y = d->x + n;
		d->vx = d->x + 2 * n;
		d->vy = d->x + 3 * n;
		if (r->set.trail > 1) {
			size_t cells = (size_t)r->set.trail * (n ? n : 1);
			if (!(d->trail_x = malloc(2 * cells * sizeof(double))))
				return -ENOMEM;
			d->trail_y = d->trail_x + cells;
		}
		int err = render_new(&d->renderer, &rp);
		if (err)
			return err;
	}
	return 0;
}

/*
 * How progress is reported: a bar only on a terminal (never control
 * characters in a file), lines or JSON wherever asked.
 */
static enum progress_mode progress_mode(const struct settings *s)
{
	int tty = isatty(STDERR_FILENO);

	switch (s->progress) {
	case CLI_PROGRESS_AUTO:
		return tty && !s->quiet ? PROGRESS_BAR : PROGRESS_OFF;
	case CLI_PROGRESS_ALWAYS:
		return tty ? PROGRESS_BAR : PROGRESS_LINES;
	case CLI_PROGRESS_LINES:
		return PROGRESS_LINES;
	case CLI_PROGRESS_JSON:
		return PROGRESS_JSON;
	default:
		return PROGRESS_OFF;
	}
}

/*
 * Runs every frame.  Without pictures the flock is stepped inline; with
 * them, one producer thread, r->drawers drawing threads, and this thread
 * encoding in frame order.  Returns an exit status.
 */
static int run_frames(struct run *r, struct progress *bar)
{
	const struct settings *s = &r->set;

	if (r->kind == OUT_NONE) {
		for (long k = 0; k < s->frames && !stop_signal; k++) {
			if (k > 0 && step_n(r, s->substeps) != 0)
				return EXIT_FAILURE;
			record_frame(r, k);
			r->frames_done = k + 1;
			progress_update(bar, r->frames_done);
		}
		return 0;
	}

	pthread_t producer, drawer[64];
	int started = 0;
	mask_stop_signals(1); /* the threads inherit it: signals stay with main */
	if (pthread_create(&producer, NULL, produce, r) != 0) {
		mask_stop_signals(0);
		report("cannot start a thread");
		return EXIT_FAILURE;
	}
	for (; started < r->drawers; started++)
		if (pthread_create(&drawer[started], NULL, draw, r) != 0)
			break;
	mask_stop_signals(0);
	if (started == 0) {
		stage_failed(r, NULL, NULL, 0);
		report("cannot start a thread");
	}

	struct frameq_slot *slot;
	while ((slot = frameq_get_drawn(r->queue))) {
		if (r->kind == OUT_VIDEO || r->kind == OUT_STDOUT) {
			struct slot_data *d = slot->user;
			int err = video_write_picture(r->video, d->pic);
			if (err) {
				frameq_put_empty(r->queue, slot);
				stage_failed(r, "cannot write", s->output, err);
				break;
			}
		}
		frameq_put_empty(r->queue, slot);
		r->frames_done++;
		progress_update(bar, r->frames_done);
	}
	pthread_join(producer, NULL);
	for (int i = 0; i < started; i++)
		pthread_join(drawer[i], NULL);
	return r->failed;
}

/*
 * Finishes every output (also after a signal); returns an exit status.
 * Stopped before the first frame, there is nothing worth keeping: the
 * temporary files are removed.
 */
static int close_outputs(struct run *r, int status)
{
	const struct settings *s = &r->set;
	int err;

	outfile_unlock(s->output, r->png_lock);
	r->png_lock = -1;
	if (stop_signal && r->frames_done == 0) {
		outfile_abort(&r->video_file);
		outfile_abort(&r->traj_file);
		outfile_abort(&r->metrics_file);
		return status;
	}

	if (r->video) {
		err = video_close(r->video);
		if (err && (!status || status == 128 + stop_signal)) /* a broken file is no result */
			status = runtime_error("cannot finish", s->output, err);
	}
	if (r->video_file.path) {
		if (status && status != 128 + stop_signal)
			outfile_abort(&r->video_file);
		else if ((err = outfile_commit(&r->video_file)) != 0)
			status = runtime_error("cannot write", s->output, err);
	}
	struct outfile *files[] = { &r->traj_file, &r->metrics_file };
	const char *names[] = { s->trajectory, s->metrics };
	for (int i = 0; i < 2; i++) {
		if (!files[i]->path)
			continue;
		if (status && status != 128 + stop_signal)
			outfile_abort(files[i]);
		else if ((err = outfile_commit(files[i])) != 0)
			status = runtime_error("cannot write", names[i], err);
	}
	return status;
}

/* Writes --summary once everything else is finished; status is the run's. */
static int write_summary(struct run *r, double wall, int status)
{
	const struct settings *s = &r->set;
	struct summary sum = { s, SUMMARY_COMPLETE, 0, s->frames, r->frames_done, wall,
	                       r->kind == OUT_NONE ? NULL : r->kind == OUT_STDOUT ? "-" : s->output,
	                       r->mcount > 0, r->mlast, { 0 } };
	if (stop_signal) {
		sum.status = SUMMARY_INTERRUPTED;
		sum.signal = stop_signal;
	} else if (status) {
		sum.status = SUMMARY_FAILED;
	}
	for (size_t i = 0; i < METRICS_COUNT && r->mcount; i++)
		sum.mean[i] = r->msum[i] / (double)r->mcount;

	if (strcmp(s->summary, "-") == 0) {
		int err = summary_write(stdout, &sum);
		if (!err && fflush(stdout) != 0)
			err = -errno;
		return err ? runtime_error("cannot write", "standard output", err) : 0;
	}
	struct outfile o;
	set_handlers(0); /* a FIFO's reader may never come: a signal ends the wait */
	int err = outfile_begin(&o, s->summary, s->overwrite);
	set_handlers(1);
	if (err == -EINTR && stop_signal)
		return 128 + stop_signal;
	if (!err) {
		err = summary_write(o.fp, &sum);
		if (err)
			outfile_abort(&o);
		else
			err = outfile_commit(&o);
	}
	return err ? runtime_error("cannot write", s->summary, err) : 0;
}

static void run_release(struct run *r)
{
	video_free(r->video);
	free_slots(r);
	sim_release(&r->sim);
	free(r->hist_x);
	free(r->obstacles);
	free(r->sim_obstacles);
	metrics_ctx_release(&r->mctx);
	pool_free(r->pool);
	cli_release(&r->set);
}

int main(int argc, char **argv)
{
	struct run r;
	char err[512];

	standard_fds(); /* first: before anything can open a file */
	mask_stop_signals(1); /* threads made from here on leave them to main */
	memset(&r, 0, sizeof(r));
	r.png_lock = -1;
	av_log_set_level(AV_LOG_QUIET); /* failures come back as codes; we report them */
	int parsed = cli_parse(&r.set, argc, argv, err, sizeof(err));
	switch (parsed) {
	case CLI_NOMEM:
		report("%s", err);
		cli_release(&r.set);
		return EXIT_FAILURE;
	case CLI_ERROR:
		report("%s", err);
		cli_release(&r.set);
		return EXIT_USAGE;
	case CLI_HELP:
	case CLI_HELP_ALL:
		cli_print_help(stdout, parsed == CLI_HELP_ALL);
		cli_release(&r.set);
		return stdout_status();
	case CLI_COMPLETION:
		completion_print(stdout, r.set.completion);
		cli_release(&r.set);
		return stdout_status();
	case CLI_VERSION:
		printf("boids %s\n", BOIDS_VERSION);
		cli_release(&r.set);
		return stdout_status();
	case CLI_PRINT_CONFIG:
		cli_print_config(stdout, &r.set);
		cli_release(&r.set);
		return stdout_status();
	case CLI_LIST_OPTIONS:
		cli_print_options_json(stdout);
		cli_release(&r.set);
		return stdout_status();
	case CLI_LIST_MODELS:
		cli_print_models(stdout);
		cli_release(&r.set);
		return stdout_status();
	case CLI_LIST_CODECS:
		video_list_codecs(stdout);
		cli_release(&r.set);
		return stdout_status();
	default:
		break;
	}
	struct settings *s = &r.set;

	r.pic_w = (int)lround((double)s->width * s->scale);
	r.pic_h = (int)lround((double)s->height * s->scale);
	video_options_default(&r.vopt);
	r.vopt.codec = s->codec;
	r.vopt.crf = (int)s->crf;
	r.vopt.preset = s->preset;
	r.vopt.bitrate = s->bitrate;
	r.vopt.pix_fmt = s->pix_fmt;
	r.vopt.gop = s->gop > 0 ? (int)s->gop : 0;
	r.vopt.threads = s->encoder_threads > 0 ? (int)s->encoder_threads : 0;

	/* Validate everything a user can get wrong before creating any file. */
	check_output(&r);
	check_side_files(&r);
	r.drawers = (int)(s->threads > 0 ? s->threads : sysconf(_SC_NPROCESSORS_ONLN));
	if (r.drawers < 1)
		r.drawers = 1;
	if (r.drawers > 64)
		r.drawers = 64;
	build_flock(&r);
	metrics_ctx_init(&r.mctx);
	r.want_metrics = s->metrics || s->summary;
	pthread_mutex_init(&r.fail_lock, NULL);
	if (r.kind != OUT_NONE) {
		int e = make_slots(&r);
		if (e) {
			report("cannot set up drawing: %s", strerror(-e));
			run_release(&r);
			return EXIT_FAILURE;
		}
	}

	for (int i = 0; i < 3; i++) {
		struct sigaction old;
		/* an ignored signal (nohup, a background job) stays ignored */
		handled[i] = sigaction(stop_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN;
	}
	set_handlers(0);
	mask_stop_signals(0); /* only this thread takes them: it is the one in open() */
	signal(SIGPIPE, SIG_IGN); /* a closed pipe is a write error (EPIPE) */

	int status = stop_signal ? 128 + stop_signal : open_outputs(&r);
	if (status && stop_signal)
		status = 128 + stop_signal; /* interrupted while waiting for a FIFO's reader */
	set_handlers(1);
	struct progress bar;
	progress_start(&bar, stderr, progress_mode(s), s->frames, s->progress_interval);

	if (!status)
		status = step_n(&r, s->warmup);
	if (!status && !stop_signal)
		status = run_frames(&r, &bar);
	progress_end(&bar);
	if (!status && stop_signal)
		status = 128 + stop_signal;
	status = close_outputs(&r, status);
	double wall = progress_now() - bar.start;
	/* A run that failed (after its options were accepted) or was stopped
	 * says so in its summary: "status" tells a result from the rest.  A
	 * summary that cannot measure (metrics failed) is not written. */
	if (s->summary && !r.metrics_failed &&
	    (status == 0 || status == 1 || (status == 128 + stop_signal && r.frames_done > 0))) {
		int st = write_summary(&r, wall, status);
		if (st)
			status = st;
	}
	if (r.side_failed && (status == 0 || status == 128 + stop_signal))
		status = EXIT_FAILURE; /* the other outputs are kept */

	if (!s->quiet && (status == 0 || status == 128 + stop_signal)) {
		double t = wall;
		const char *what = r.kind == OUT_NONE ? (s->trajectory ? s->trajectory : "nothing written")
		                 : r.kind == OUT_STDOUT ? "standard output" : s->output;
		report("%ld frames of %zu boids in %.2f s (%.1f fps) -> %s%s",
		        r.frames_done, r.sim.n, t, t > 0 ? (double)r.frames_done / t : 0.0, what,
		        stop_signal ? " (stopped by a signal)" : "");
	}
	run_release(&r);
	return status;
}
