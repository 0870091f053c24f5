/*
 * outputs — everything a run writes; see include/outputs.h.  Start with
 * outputs_open(), then outputs_record() and outputs_finish(); what is
 * refused before any file exists is outputs_check.c's.
 */
#include "outputs.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "framename.h"
#include "outputs_int.h"
#include "pngout.h"
#include "report.h"
#include "signals.h"
#include "summary.h"
#include "traj.h"
#include "trajmeta.h"
#include "trajout.h"

/* A stopped video's encoder is drained until this long after the signal,
 * no longer, and the trajectory's writer begins no frame after it: the
 * frame in the encoder (or the writer) when it came, the trailer, the
 * commits, the summary and the exit fit in the rest of the stop's second
 * (docs/RELIABILITY.md). */
static const double STOP_DRAIN = 0.35;

void outputs_init(struct outputs *out, const struct config *c, int encoder_threads)
{
	memset(out, 0, sizeof(*out));
	out->cfg = c;
	out->png_lock = -1;
	clock_gettime(CLOCK_REALTIME, &out->started);
	out->pic_w = c->render.width;
	out->pic_h = c->render.height;
	out->vopt = c->video;
	out->vopt.threads = encoder_threads; /* as pipeline_threads() decided */
	metrics_ctx_init(&out->mctx);
	out->want_metrics = c->run.metrics || c->run.summary;
	pthread_mutex_init(&out->fail_lock, NULL);
}

/* ----------------------------------------------------------------- writing */

int outputs_write_png(struct outputs *out, const unsigned char *px, int stride, long frame,
                      const char **what, char *name, size_t len)
{
	const struct run_options *s = &out->cfg->run;
	struct outfile o;

	if (out->kind == OUTPUTS_STILL)
		snprintf(name, len, "%s", s->output);
	else
		framename_format(name, len, s->output, s->start_number + frame);
	*what = "cannot create";
	int err = outfile_begin(&o, name, s->overwrite);
	if (err)
		return err;
	*what = "cannot write";
	err = pngout_write_stream(o.fp, out->pic_w, out->pic_h, stride, px, (int)s->png_level);
	if (!err)
		err = outfile_commit(&o);
	else
		outfile_abort(&o);
	return err;
}

/* outputs_int.h: what locks a PNG pattern, however it is spelt. */
int outputs_lock_key(const char *pattern, char *buf, size_t len)
{
	const char *slash = strrchr(pattern, '/');
	size_t n = 0;

	for (const char *p = pattern; slash && p <= slash; p++) {
		if (n + 1 >= len)
			return -ENAMETOOLONG;
		buf[n++] = *p;
		if (p[0] == '%' && p[1] == '%')
			p++;
	}
	return framename_canonical(buf + n, len - n, slash ? slash + 1 : pattern);
}

/* The PNG pattern's lock: two runs writing one pattern would interleave
 * their frames; the lock is the pattern's, however it is spelt (f_%d,
 * f_%01d, f_%05d).  Returns a status. */
static int lock_pattern(struct outputs *out, struct failure *f)
{
	const char *path = out->cfg->run.output;
	int err = outputs_lock_key(path, out->png_key, sizeof(out->png_key));

	if (err)
		return failure_cause(f, "cannot lock", path, err);
	out->png_lock = outfile_lock(out->png_key);
	if (out->png_lock == -EBUSY) {
		char lock[PATH_MAX + 16] = "";
		outfile_lock_name(out->png_key, lock, sizeof(lock));
		return failure_runtime(f, "cannot write '%s': another run is writing this pattern (it holds "
		                       "the lock file '%s')", path, lock);
	}
	if (out->png_lock < 0)
		return failure_cause(f, "cannot lock", path, out->png_lock);
	return 0;
}

/* Keeps f (its message) as part's first failure, for the summary; returns f->status. */
static int keep_failure(struct outputs *out, enum outputs_part part, const struct failure *f)
{
	pthread_mutex_lock(&out->fail_lock);
	if (f->msg[0] && !out->failed[part][0])
		snprintf(out->failed[part], sizeof out->failed[part], "%s", f->msg);
	pthread_mutex_unlock(&out->fail_lock);
	return f->status;
}

int outputs_failed(struct outputs *out, enum outputs_part part, const struct failure *f)
{
	report_fail(f);
	return keep_failure(out, part, f);
}

/* outputs_failed() of "<what> '<path>': <err's text>" (failure_cause()). */
static int part_failed(struct outputs *out, enum outputs_part part, const char *what, const char *path,
                       int err)
{
	struct failure f;

	failure_cause(&f, what, path, err);
	return outputs_failed(out, part, &f);
}

/*
 * The side files, --trajectory and --metrics, with their headers.  One that
 * a stop keeps from opening (a FIFO with no reader) is left out, and the
 * next is still opened.  Returns a status (the failure kept for the summary).
 */
static int open_side_files(struct outputs *out, struct failure *f)
{
	const struct run_options *s = &out->cfg->run;
	int err;

	if (s->trajectory) {
		struct trajmeta tm;
		err = trajmeta_init(&tm, out->cfg, s->boids);
		if (!err)
			err = trajout_open(&out->traj, &tm.opts);
		trajmeta_release(&tm);
		if (err && !(err == -EINTR && signals_caught())) {
			failure_cause(f, "cannot write", s->trajectory, err);
			return keep_failure(out, OUTPUTS_TRAJECTORY, f);
		}
	}
	if (s->metrics) {
		err = outfile_begin(&out->metrics_file, s->metrics, s->overwrite);
		if (!err && (err = metrics_write_header(out->metrics_file.fp)) != 0)
			outfile_abort(&out->metrics_file);
		if (err && !(err == -EINTR && signals_caught())) {
			failure_cause(f, "cannot write", s->metrics, err);
			return keep_failure(out, OUTPUTS_METRICS, f);
		}
	}
	return 0;
}

/* The picture output: the PNG pattern's lock, or the video's file and encoder.  Returns a status. */
static int open_pictures(struct outputs *out, struct failure *f)
{
	const struct run_options *s = &out->cfg->run;
	char why[256];
	int err, fd = STDOUT_FILENO;

	if (out->kind == OUTPUTS_PNG)
		return lock_pattern(out, f);
	if (out->kind == OUTPUTS_NONE || out->kind == OUTPUTS_STILL)
		return 0;
	if (out->kind == OUTPUTS_VIDEO) {
		err = outfile_begin(&out->video_file, s->output, s->overwrite);
		if (err)
			return failure_cause(f, "cannot create", s->output, err);
		fd = out->video_file.fd; /* libavformat writes through it, never by name */
	}
	err = video_open_fd(&out->video, fd, s->output, out->pic_w, out->pic_h, s->fps,
	                    &out->vopt, why, sizeof(why));
	if (err)
		return failure_runtime(f, "cannot write '%s': %s", s->output, why);
	return 0;
}

int outputs_open(struct outputs *out, struct failure *f)
{
	if (open_side_files(out, f) != 0)
		return f->status;
	if (signals_caught()) /* before the first frame: no pictures */
		return failure_stop(f, signals_caught());
	if (open_pictures(out, f) != 0)
		return keep_failure(out, OUTPUTS_PICTURES, f);
	return 0;
}

/*
 * A side file (--trajectory, --metrics) failed: say so once, keep why for
 * the summary and remove it, but let the run go on, so that a finished
 * video is never thrown away because of a side file.  main() exits 1 at
 * the end.
 */
static void side_file_failed(struct outputs *out, enum outputs_part part, const char *what,
                             const char *path, int err)
{
	part_failed(out, part, what, path, err);
	if (part == OUTPUTS_TRAJECTORY) {
		trajout_abort(out->traj);
		out->traj = NULL;
	} else if (out->metrics_file.path) {
		outfile_abort(&out->metrics_file);
	}
	out->side_failed = 1;
}

/* Per-frame work that needs the live flock, in frame order. */
void outputs_record(struct outputs *out, const struct sim *m, long frame)
{
	const struct run_options *s = &out->cfg->run;

	if (s->trajectory && out->traj) {
		struct traj_cols c = { m->n, m->x, m->y, m->vx, m->vy, m->z, m->vz };
		int err = trajout_frame(out->traj, frame, &c); /* a copy: written by its own thread */
		if (err)
			side_file_failed(out, OUTPUTS_TRAJECTORY, "cannot write", s->trajectory, err);
	}
	if (out->want_metrics && !out->metrics_failed) {
		struct metrics_input in = { m->n, m->x, m->y, m->vx, m->vy, m->p.width, m->p.height,
		                            sim_wraps(m), out->cfg->sim.harden.flock_radius, m->z, m->vz, m->p.depth };
		int err = metrics_compute(&out->mctx, &in, &out->mlast);
		if (err) { /* with --summary alone, the run's failure */
			side_file_failed(out, s->metrics ? OUTPUTS_METRICS : OUTPUTS_RUN, "cannot measure the flock for",
			                 s->metrics ? s->metrics : s->summary, err);
			out->metrics_failed = 1;
			return;
		}
		for (size_t i = 0; i < METRICS_COUNT; i++)
			out->msum[i] += metrics_value(&out->mlast, i);
		out->mcount++;
		if (s->metrics && out->metrics_file.path &&
		    (err = metrics_write_row(out->metrics_file.fp, frame, &out->mlast)) != 0)
			side_file_failed(out, OUTPUTS_METRICS, "cannot write", s->metrics, err);
	}
}

/* ------------------------------------------------------------- finishing */

/* Are the files of a run that ended with this status kept?  Done or stopped: yes; failed: no. */
static int keeps(int status)
{
	return status == 0 || status == 128 + signals_caught();
}

/*
 * A stopped video: the encoder's look-ahead is drained only while the
 * stop's second lasts; the file holds the frames out by then (0..kept-1),
 * and is dropped when none came out (the frames stepped are the other
 * files').  Returns the status.
 */
static int close_stopped_video(struct outputs *out, int status)
{
	long kept = 0;
	int err = video_close_stopped(out->video, STOP_DRAIN - signals_since(), &kept);

	if (kept == 0) {
		outfile_abort(&out->video_file);
		out->video_dropped = 1;
		return status;
	}
	if (kept < out->frames_done)
		out->frames_done = kept;
	return err ? part_failed(out, OUTPUTS_PICTURES, "cannot finish", out->cfg->run.output, err) : status;
}

/* Is the picture output there once closed?  A PNG frame is committed as it is written, a failure or not. */
static int pictures_there(const struct outputs *out, int status)
{
	switch (out->kind) {
	case OUTPUTS_NONE:
		return 0;
	case OUTPUTS_PNG:
		return out->frames_done > 0;
	case OUTPUTS_STILL:
		return out->frames_done > out->poster;
	default: /* a video, y4m on standard output */
		return keeps(status) && out->video && !out->video_dropped;
	}
}

/*
 * The picture output: a video closed (drained) and committed, or removed
 * after a failure, or when a stop came before its first frame (no video);
 * the PNG pattern unlocked.  Returns the status.
 */
static int close_pictures(struct outputs *out, int status)
{
	const char *path = out->cfg->run.output;
	int err;

	outfile_unlock(out->png_key, out->png_lock);
	out->png_lock = -1;
	if (out->video && signals_caught() && out->frames_done > 0)
		status = close_stopped_video(out, status);
	else if (out->video && signals_caught())
		out->video_dropped = 1; /* before the first frame: nothing to keep */
	else if (out->video && (err = video_close(out->video)) != 0 && keeps(status))
		status = part_failed(out, OUTPUTS_PICTURES, "cannot finish", path, err); /* a broken file is no result */
	if (out->video_file.path && (!keeps(status) || out->video_dropped))
		outfile_abort(&out->video_file);
	else if (out->video_file.path && (err = outfile_commit(&out->video_file)) != 0)
		status = part_failed(out, OUTPUTS_PICTURES, "cannot write", path, err);
	out->kept[OUTPUTS_PICTURES] = pictures_there(out, status);
	return status;
}

/*
 * The side files: kept (a stop too, even before the first frame: the
 * trajectory's and metrics' headers) unless the run failed.  The
 * trajectory's writer thread may report its failure only here: a side
 * file that failed, as when it failed during the run (exit 1 at the end),
 * and the other files are kept all the same.  Returns the status.
 */
static int close_side_files(struct outputs *out, int status)
{
	const struct run_options *s = &out->cfg->run;
	int err;

	if (out->traj && !keeps(status)) {
		trajout_abort(out->traj);
	} else if (out->traj) {
		err = trajout_finish(out->traj, signals_caught() != 0, STOP_DRAIN, &out->traj_frames);
		if (err) {
			part_failed(out, OUTPUTS_TRAJECTORY, "cannot write", s->trajectory, err);
			out->side_failed = 1;
		}
		out->kept[OUTPUTS_TRAJECTORY] = !err;
	}
	out->traj = NULL;
	if (!out->metrics_file.path)
		return status;
	if (!keeps(status))
		outfile_abort(&out->metrics_file);
	else if ((err = outfile_commit(&out->metrics_file)) != 0)
		status = part_failed(out, OUTPUTS_METRICS, "cannot write", s->metrics, err);
	else
		out->kept[OUTPUTS_METRICS] = 1;
	return status;
}

/* One output's account in the summary: its frames if its file is there, its failure if it failed. */
static struct summary_output account(const struct outputs *out, enum outputs_part part, const char *option,
                                     const char *file, long frames)
{
	return (struct summary_output){ option, file, out->kept[part] ? frames : 0,
	                                out->failed[part][0] ? out->failed[part] : NULL };
}

/* The summary's account of each output the run was given, into o; returns how many. */
static size_t summary_outputs(const struct outputs *out, struct summary_output *o)
{
	const struct run_options *s = &out->cfg->run;
	long still = out->frames_done > out->poster;
	size_t n = 0;

	if (out->kind != OUTPUTS_NONE)
		o[n++] = account(out, OUTPUTS_PICTURES, "output", out->kind == OUTPUTS_STDOUT ? "-" : s->output,
		                 out->kind == OUTPUTS_STILL ? still : out->frames_done);
	if (s->trajectory)
		o[n++] = account(out, OUTPUTS_TRAJECTORY, "trajectory", s->trajectory, out->traj_frames);
	if (s->metrics)
		o[n++] = account(out, OUTPUTS_METRICS, "metrics", s->metrics, out->mcount);
	return n;
}

/* Writes the summary to standard output, or to its file; returns 0 or a negative errno. */
static int put_summary(struct outputs *out, const struct summary *sum)
{
	const struct run_options *s = &out->cfg->run;
	struct outfile o;
	int err;

	if (strcmp(s->summary, "-") == 0) {
		err = summary_write(stdout, sum);
		if (!err && fflush(stdout) != 0)
			err = -errno;
		return err;
	}
	signals_restart(0); /* a FIFO's reader may never come: a signal ends the wait */
	err = outfile_begin(&o, s->summary, s->overwrite);
	signals_restart(1);
	if (err)
		return err;
	err = summary_write(o.fp, sum);
	if (err)
		outfile_abort(&o);
	else
		err = outfile_commit(&o);
	return err;
}

/* Writes --summary once every other output is finished, for a run that exits with status. */
static int write_summary(struct outputs *out, double wall, int status)
{
	const struct run_options *s = &out->cfg->run;
	struct summary_output outs[3];
	struct summary sum = { out->cfg, SUMMARY_COMPLETE, 0, s->frames, out->started, out->frames_done, wall,
	                       out->kind == OUTPUTS_NONE ? NULL : out->kind == OUTPUTS_STDOUT ? "-" : s->output,
	                       out->mcount > 0 && !out->metrics_failed, out->mlast, { 0 }, outs, 0,
	                       out->failed[OUTPUTS_RUN][0] ? out->failed[OUTPUTS_RUN] : NULL };
	sum.signal = signals_caught();
	sum.status = status == EXIT_FAILURE ? SUMMARY_FAILED : sum.signal ? SUMMARY_INTERRUPTED : SUMMARY_COMPLETE;
	sum.noutputs = summary_outputs(out, outs);
	for (size_t i = 0; i < METRICS_COUNT && sum.have_metrics; i++)
		sum.mean[i] = out->msum[i] / (double)out->mcount;
	int err = put_summary(out, &sum);
	if (err == -EINTR && signals_stop())
		return 128 + signals_stop(); /* a stop ended the wait for a reader, late or not */
	if (!err)
		out->summary_kept = 1;
	return err ? report_failure("cannot write", strcmp(s->summary, "-") ? s->summary : "standard output", err) : 0;
}

void outputs_describe(const struct outputs *out, char *buf, size_t len)
{
	const struct run_options *s = &out->cfg->run;

	switch (out->kind) {
	case OUTPUTS_NONE:
		snprintf(buf, len, "no pictures (--no-render)");
		break;
	case OUTPUTS_PNG:
		snprintf(buf, len, "PNG, one per frame (%dx%d)", out->pic_w, out->pic_h);
		break;
	case OUTPUTS_STILL:
		snprintf(buf, len, "PNG, frame %ld only (%dx%d)", out->poster, out->pic_w, out->pic_h);
		break;
	default:
		if (video_describe(out->kind == OUTPUTS_STDOUT ? "-" : s->output, out->pic_w,
		                   out->pic_h, s->fps, &out->vopt, buf, len) == 0) {
			size_t n = strlen(buf);
			snprintf(buf + n, len - n, ", %dx%d", out->pic_w, out->pic_h);
		}
		break;
	}
}

int outputs_draws(const struct outputs *out, long frame)
{
	return out->kind != OUTPUTS_STILL || frame == out->poster;
}

int outputs_finish(struct outputs *out, int status, long frames_done, double wall)
{
	const struct run_options *s = &out->cfg->run;
	int sig = signals_caught();

	out->frames_done = frames_done;
	status = close_pictures(out, status);
	status = close_side_files(out, status);
	if (out->side_failed && (status == 0 || status == 128 + sig))
		status = EXIT_FAILURE; /* the other outputs are kept */
	/* The summary comes last, when every other file is committed, and says
	 * what the exit status will: complete, interrupted or failed (which
	 * output, and why). */
	if (s->summary && (status == 0 || status == 1 || status == 128 + sig)) {
		int st = write_summary(out, wall, status);
		if (st && !(out->side_failed && st == 128 + signals_stop()))
			status = st; /* a stop that ended the wait for the summary's reader: 128 + n */
	}
	return status;
}

const char *outputs_picture_name(const struct outputs *out)
{
	if (!out->kept[OUTPUTS_PICTURES])
		return NULL;
	return out->kind == OUTPUTS_STDOUT ? "-" : out->cfg->run.output;
}

const char *outputs_name(const struct outputs *out, long *frames)
{
	const struct run_options *s = &out->cfg->run;

	int dropped = out->kind != OUTPUTS_NONE; /* no picture output where one was asked for */

	*frames = out->frames_done;
	if (out->kept[OUTPUTS_PICTURES])
		return out->kind == OUTPUTS_STDOUT ? "standard output" : s->output;
	if (out->kept[OUTPUTS_TRAJECTORY]) {
		*frames = dropped ? out->traj_frames : *frames;
		return s->trajectory;
	}
	if (out->kept[OUTPUTS_METRICS]) {
		*frames = dropped ? out->mcount : *frames;
		return s->metrics;
	}
	if (out->summary_kept)
		return strcmp(s->summary, "-") == 0 ? "standard output" : s->summary;
	return out->video_dropped ? "no video (stopped before a frame was encoded)" : "nothing written";
}

void outputs_release(struct outputs *out)
{
	if (out->cfg) /* outputs_init() was called */
		pthread_mutex_destroy(&out->fail_lock);
	out->cfg = NULL;
	video_free(out->video);
	out->video = NULL;
	trajout_abort(out->traj);
	out->traj = NULL;
	metrics_ctx_release(&out->mctx);
}
