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
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "caption.h"
#include "cli.h"
#include "completion.h"
#include "start.h"
#include "outputs.h"
#include "pipeline.h"
#include "progress.h"
#include "render.h"
#include "report.h"
#include "signals.h"
#include "sim.h"
#include "version.h"
#include "video.h"

/*
 * Neighbours visited in one step (boids x neighbours each) beyond which a
 * step takes some seconds: a visit costs some 20 ns with the candidates
 * around it (measured: 200,000 boids in 640x360, 6.8e8 visits, 28 s of CPU
 * a step; a million there, 3.4e10, take about 10 minutes).
 */
#define LONG_STEP_VISITS 2e8

/* A warm-up estimated longer than this is announced (say_long_warmup()). */
#define LONG_WARMUP_SECONDS 5.0

/* Everything one run holds; released by run_release(). */
struct run {
	struct config cfg;           /* every setting, each module's part in its own types */
	struct pipeline_threads threads;
	struct outputs out;
	struct start start;
	struct pipeline pipe;
	struct progress bar;
	struct caption caption;      /* --caption: its plugin, loaded by check_run() */
	double wall;                 /* seconds the run took */
	double begun;                /* progress_now() when the run began (after its command line) */
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

/* ------------------------------------------------------------ start-up */

enum {
	CHECK_ONLY = -2,      /* --print-config: the run's checks, then the settings */
	CHECK_CONFIGS = -3,   /* --check-configs: the same for each line (src/batch.c) */
};

/* --list-codecs: from the video plugin, which must load.  Returns the exit status. */
static int list_codecs(void)
{
	char err[PATH_MAX + 256];

	if (video_ready(err, sizeof err) != 0) {
		report("%s", err);
		return EXIT_FAILURE;
	}
	video_list_codecs(stdout);
	return report_stdout_status();
}

/*
 * Parses the command line.  Returns -1 to run, CHECK_ONLY, or the exit
 * status of everything that ends here: a usage error, --help, --version,
 * the lists.
 */
static int parse_command_line(struct run *r, int argc, char **argv)
{
	char err[512];
	for (int i = 1; i < argc && !report_is_json(); i++) /* so that a refusal is JSON too */
		report_json(strcmp(argv[i], "--progress=json") == 0 ||
		            (strcmp(argv[i], "--progress") == 0 && i + 1 < argc && strcmp(argv[i + 1], "json") == 0));
	int parsed = cli_parse(&r->cfg, argc, argv, err, sizeof(err));
	if (parsed != CLI_ERROR || r->cfg.run.progress == RUN_PROGRESS_JSON) /* a config file's, read before the error */
		report_json(r->cfg.run.progress == RUN_PROGRESS_JSON);

	if (parsed == CLI_NOMEM || parsed == CLI_ERROR) {
		if (signals_caught())
			return 128 + signals_caught(); /* it ended a wait: --config FIFO */
	}
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
		completion_print(stdout, r->cfg.run.completion);
		return report_stdout_status();
	case CLI_VERSION:
		version_print(stdout);
		return report_stdout_status();
	case CLI_PRINT_CONFIG:
		return CHECK_ONLY; /* the run's checks first: print_config() */
	case CLI_LIST_OPTIONS:
		cli_print_options_json(stdout);
		return report_stdout_status();
	case CLI_LIST_MODELS:
		cli_print_models(stdout);
		return report_stdout_status();
	case CLI_LIST_CODECS:
		return list_codecs();
	case CLI_CHECK_CONFIGS:
		return CHECK_CONFIGS;
	default:
		return -1;
	}
}

/* --verbose: the thread counts and why, and what the pictures become. */
static void say_plan(const struct run *r)
{
	char line[512];

	if (!r->cfg.run.verbose)
		return;
	pipeline_threads_describe(&r->threads, r->out.kind, line, sizeof(line));
	report_info("threads: %s", line);
	outputs_describe(&r->out, line, sizeof(line));
	report_info("output: %s", line);
}

enum { SAID_MAX = 5 };     /* a library's messages shown; one on every frame says so once */

/*
 * What the caption's libraries (GLib, Pango, fontconfig) would have printed,
 * as boids's own notes (warning events under --progress json: the run goes
 * on), a critical one or an error marked so; from any drawing thread.
 */
static void library_said(enum caption_log_level level, const char *domain, const char *message)
{
	static atomic_int said;
	int n = atomic_fetch_add(&said, 1);

	if (n < SAID_MAX)
		report_note("%s%s: %s", domain, level == CAPTION_LOG_ERROR ? " (error)" : "", message);
	else if (n == SAID_MAX)
		report_note("%s: more messages from the caption's libraries are not shown", domain);
}

/*
 * Everything a user can get wrong is refused (status 2) before any file
 * exists: the inputs first (--config was read with the command line), then
 * the outputs.  A stop while the inputs are read (a FIFO's writer, a slow
 * pipe) still has the outputs checked, for the side files a stopped run
 * keeps (outputs_open()).  Returns a status, the failure in f.
 */
static int check_run(struct run *r, int preview, struct failure *f)
{
	if (outputs_check_roles(&r->cfg, f) != 0) /* before --init is opened */
		return f->status;
	int read = preview ? start_preview(&r->start, &r->cfg, f) : start_read(&r->start, &r->cfg, f);
	if (read != 0 && !signals_caught())
		return read;
	pipeline_threads(&r->cfg, &r->threads);
	outputs_init(&r->out, &r->cfg, r->threads.encoder);
	if (outputs_check(&r->out, f) != 0)
		return f->status;
	if (read != 0)
		return failure_stop(f, signals_caught());
	r->cfg.render.width = r->out.pic_w; /* padded to even sizes where the encoder needs them */
	r->cfg.render.height = r->out.pic_h;
	if (r->cfg.run.caption && r->out.kind != OUTPUTS_NONE) { /* Pango only for a run with a caption */
		char err[PATH_MAX + 256];
		if (caption_load(&r->caption, &r->cfg, r->cfg.run.quiet ? NULL : library_said, err, sizeof err) != 0)
			return failure_runtime(f, "%s", err);
	}
	say_plan(r);
	return 0;
}

/*
 * A flock so dense that a step takes seconds or minutes (a million boids
 * in 640x360 have some 34,000 neighbours each) says so before its first
 * step, and how to spread it, unless -q.
 */
static void say_long_steps(const struct run *r)
{
	const struct sim *s = &r->start.sim;
	double nb = sim_neighbours(&s->p, s->n);

	if (r->cfg.run.quiet || (double)s->n * nb < LONG_STEP_VISITS)
		return;
	report("about %.0f neighbours per boid: each step of these %zu boids may take %s "
	       "(a larger field, -s/--size%s, or fewer boids, -n/--boids, spreads the flock)",
	       nb, s->n, (double)s->n * nb < 15 * LONG_STEP_VISITS ? "seconds" : "minutes",
	       s->p.dims == 3 ? " or --depth" : "");
}

/* A flock far denser than its model's default scene says so, and which --field spreads it, unless -q. */
static void say_crowded(const struct run *r)
{
	char msg[512];

	if (!r->cfg.run.quiet && cli_crowding(&r->cfg, msg, sizeof msg))
		report_note("%s", msg);
}

/*
 * A warm-up estimated to take longer than a few seconds says so, with its
 * estimate (sim_step_seconds(): a flock spread evenly), before its first
 * step, unless -q; the progress then measures it.
 */
static void say_long_warmup(const struct run *r)
{
	const struct sim *s = &r->start.sim;
	double step = sim_step_seconds(&s->p, s->n), t = step * (double)r->cfg.run.warmup;

	if (r->cfg.run.quiet || t < LONG_WARMUP_SECONDS)
		return;
	int secs = (int)(t + 0.5);
	report_note("the warm-up of %ld steps may take about %d:%02d:%02d (%.2g s a step of %zu boids)",
	            r->cfg.run.warmup, secs / 3600, secs / 60 % 60, secs % 60, step, s->n);
}

/* What the pipeline will hold, for the memory check. */
static struct start_budget budget(const struct run *r)
{
	int drawing = r->out.kind != OUTPUTS_NONE;

	return (struct start_budget){ drawing ? r->threads.draw + 3 : 0, r->out.pic_w, r->out.pic_h };
}

/*
 * --print-config: every check the run makes before its work (so it refuses
 * exactly what the run would), then the settings the run would use
 * (--init's boid count and dims).  Returns the exit status.
 */
static int print_config(struct run *r)
{
	struct failure f = { 0, "" };
	struct start_budget b;
	int status = check_run(r, 1, &f);

	if (!status) {
		b = budget(r);
		status = start_check(&r->cfg, &b, &f);
	}
	outputs_release(&r->out);
	if (status)
		return report_fail(&f);
	cli_print_config(stdout, &r->cfg);
	return report_stdout_status();
}

/* --check-configs: print_config()'s checks for one line's settings (in r->cfg). */
static int check_line(struct config *c, void *arg, struct failure *f)
{
	struct run *r = arg;
	struct start_budget b;

	assert(c == &r->cfg);
	int status = check_run(r, 1, f);
	if (!status) {
		b = budget(r);
		status = start_check(&r->cfg, &b, f);
	}
	outputs_release(&r->out);
	return status;
}

/* The flock and the pipeline's slots.  Returns a status, the failure in f. */
static int set_up(struct run *r, struct failure *f)
{
	struct start_budget b = budget(r);

	if (start_build(&r->start, &r->cfg, r->threads.sim, &b, f) != 0)
		return f->status;
	int e = pipeline_init(&r->pipe, &r->cfg, &r->start.sim, &r->out, &r->cfg.render, r->threads.draw);
	r->pipe.caption = r->caption.draw ? &r->caption : NULL;
	if (e)
		return failure_runtime(f, "cannot set up drawing: %s", strerror(-e));
	return 0;
}

/*
 * Opens the outputs; a signal ends the wait for a FIFO's reader.  After a
 * stop (before the first frame) only the side files are opened, for their
 * headers.  Returns an exit status.
 */
static int open_outputs(struct run *r)
{
	struct failure f = { 0, "" };
	int status = outputs_open(&r->out, &f);
	if (!status && r->out.video) {
		int err = pipeline_use_video(&r->pipe, r->out.video);
		if (err) {
			failure_cause(&f, "cannot set up the encoder for", r->cfg.run.output, err);
			status = outputs_failed(&r->out, OUTPUTS_PICTURES, &f);
			f.msg[0] = 0; /* said */
		}
	}
	report_fail(&f);
	if (status && signals_caught())
		status = 128 + signals_caught(); /* interrupted while waiting for a FIFO's reader */
	signals_restart(1);
	return status;
}

/* ----------------------------------------------------------------- the run */

/*
 * --warmup, then every frame, with progress; nothing when status says the
 * run stopped or failed before (the flock may not be built).  Returns an
 * exit status.
 */
static int run_frames(struct run *r, int status)
{
	const struct run_options *s = &r->cfg.run;

	progress_start(&r->bar, stderr, pipeline_progress_mode(s), s->frames, s->progress_interval);
	if (status) { /* stopped or failed before the first frame: its time is the run's */
		r->bar.start = r->begun;
		progress_end(&r->bar);
		return status;
	}
	pipeline_show_steps(&r->pipe, &r->bar);
	status = pipeline_warmup(&r->pipe, &r->bar);
	if (!status && !signals_caught())
		status = pipeline_run(&r->pipe, &r->bar);
	progress_end(&r->bar);
	pipeline_show_steps(&r->pipe, NULL);
	if (!status && r->pipe.frames_done == s->frames)
		signals_settle(); /* every frame is committed: the run is complete, whatever came */
	if (!status && signals_caught())
		status = 128 + signals_caught();
	return status;
}

/* Closes every output and writes the summary.  Returns the exit status. */
static int finish(struct run *r, int status)
{
	r->wall = progress_now() - r->bar.start;
	status = outputs_finish(&r->out, status, r->pipe.frames_done, r->wall);
	r->pipe.frames_done = r->out.frames_done; /* a stopped video may keep fewer */
	return status;
}

/*
 * The rate of the closing line: the frames' (the warm-up's time apart),
 * and the warm-up's steps and seconds, e.g. "30.1 fps, after a warm-up of
 * 300 steps in 3.80 s".
 */
static void frames_rate(const struct run *r, char *buf, size_t len)
{
	long done = r->pipe.frames_done, warmup = r->bar.warmup, made = r->bar.warm_done;
	double warm = progress_warmup_seconds(&r->bar), t = r->wall - warm;
	int n = snprintf(buf, len, "%.1f fps", t > 0 ? (double)done / t : 0.0);

	if (n < 0 || (size_t)n >= len || warmup <= 0)
		return;
	if (made < warmup) /* stopped in it */
		snprintf(buf, len, "in the warm-up, %ld of %ld steps in %.2f s", made, warmup, warm);
	else
		snprintf(buf + n, len - (size_t)n, ", after a warm-up of %ld steps in %.2f s", warmup, warm);
}

/*
 * The closing line, unless -q or the run failed; with --progress json the
 * "end" event, always.
 */
static void say_done(const struct run *r, int status)
{
	int sig = signals_caught();
	double t = r->wall;

	if (!sig && signals_late() && status == 128 + signals_late())
		sig = signals_late(); /* after the last frame, it ended a wait (the summary's FIFO) */
	long done = r->pipe.frames_done;
	size_t n = r->start.sim.n ? r->start.sim.n : r->cfg.run.boids; /* stopped before the flock was made */

	if (report_is_json()) {
		struct report_run run = { done, n, t, outputs_picture_name(&r->out), sig,
		                          r->bar.warm_done, progress_warmup_seconds(&r->bar) };
		report_end(status, &run);
		return;
	}
	if (r->cfg.run.quiet || (status != 0 && status != 128 + sig))
		return;
	char rate[128];
	frames_rate(r, rate, sizeof rate);
	const char *name = outputs_name(&r->out, &done);
	report_info("%ld %s of %zu %s in %.2f s (%s) -> %s%s", done, done == 1 ? "frame" : "frames",
	            n, n == 1 ? "boid" : "boids", t, rate, name, sig ? " (stopped by a signal)" : "");
}

static void run_release(struct run *r)
{
	outputs_release(&r->out);
	if (r->pipe.cfg) /* pipeline_init() was called */
		pipeline_release(&r->pipe);
	start_release(&r->start);
	cli_release(&r->cfg);
}

/* A run refused or failed before its outputs were opened: f said, the end. */
static int refused(struct run *r, const struct failure *f)
{
	int status = report_fail(f);

	report_end(status, NULL);
	run_release(r);
	return status;
}

int main(int argc, char **argv)
{
	static struct run r;

	standard_fds();       /* first: before anything can open a file */
	signals_watch();      /* a stop request is honoured from here on, in any wait */
	video_quiet_logs();   /* failures come back as codes; we report them */
	int status = parse_command_line(&r, argc, argv);
	if (status == CHECK_ONLY)
		status = print_config(&r);
	if (status == CHECK_CONFIGS)
		return batch_check_configs(argc, argv, &r.cfg, check_line, &r);
	if (status >= 0) {
		report_end(status, NULL);
		cli_release(&r.cfg);
		return status;
	}
	struct failure f = { 0, "" };
	r.begun = progress_now();
	status = check_run(&r, 0, &f);
	if (!status)
		status = set_up(&r, &f);
	if (status && status != 128 + signals_caught())
		return refused(&r, &f); /* a stop goes on: a stopped run's outputs and summary */
	if (!status) {
		say_crowded(&r);
		say_long_steps(&r);
		say_long_warmup(&r);
	}
	status = open_outputs(&r); /* a stop before the first frame: the side files' headers */
	status = run_frames(&r, status);
	status = finish(&r, status);
	say_done(&r, status);
	run_release(&r);
	return status;
}
