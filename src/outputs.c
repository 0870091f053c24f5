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

int outputs_open(struct outputs *out, struct failure *f)
{
	const struct run_options *s = &out->cfg->run;
	char why[256];
	int err;

	if (signals_caught())
		return failure_stop(f, signals_caught()); /* narrows the gap before a FIFO's open() */
	if (s->trajectory) {
		struct trajmeta tm;
		err = trajmeta_init(&tm, out->cfg, s->boids);
		if (!err)
			err = trajout_open(&out->traj, &tm.opts);
		trajmeta_release(&tm);
		if (err)
			return failure_cause(f, "cannot write", s->trajectory, err);
	}
	if (s->metrics) {
		err = outfile_begin(&out->metrics_file, s->metrics, s->overwrite);
		if (!err)
			err = metrics_write_header(out->metrics_file.fp);
		if (err)
			return failure_cause(f, "cannot write", s->metrics, err);
	}
	if (out->kind == OUTPUTS_PNG)
		return lock_pattern(out, f);
	if (out->kind == OUTPUTS_NONE || out->kind == OUTPUTS_STILL)
		return 0;
	int fd = STDOUT_FILENO;
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

/*
 * A side file (--trajectory, --metrics) failed: say so once and remove it,
 * but let the run go on, so that a finished video is never thrown away
 * because of a side file.  main() exits 1 at the end.
 */
static void side_file_failed(struct outputs *out, struct outfile *o, const char *what,
                             const char *path, int err)
{
	report_failure(what, path, err);
	outfile_abort(o);
	out->side_failed = 1;
}

/* Per-frame work that needs the live flock, in frame order. */
void outputs_record(struct outputs *out, const struct sim *m, long frame)
{
	const struct run_options *s = &out->cfg->run;

	if (s->trajectory && out->traj) {
		struct traj_cols c = { m->n, m->x, m->y, m->vx, m->vy, m->z, m->vz };
		int err = trajout_frame(out->traj, frame, &c); /* a copy: written by its own thread */
		if (err) {
			report_failure("cannot write", s->trajectory, err);
			trajout_abort(out->traj);
			out->traj = NULL;
			out->side_failed = 1;
		}
	}
	if (out->want_metrics && !out->metrics_failed) {
		struct metrics_input in = { m->n, m->x, m->y, m->vx, m->vy, m->p.width, m->p.height,
		                            sim_wraps(m), out->cfg->sim.harden.flock_radius, m->z, m->vz, m->p.depth };
		int err = metrics_compute(&out->mctx, &in, &out->mlast);
		if (err) {
			side_file_failed(out, &out->metrics_file, "cannot measure the flock for",
			                 s->metrics ? s->metrics : s->summary, err);
			out->metrics_failed = 1;
			return;
		}
		for (size_t i = 0; i < METRICS_COUNT; i++)
			out->msum[i] += metrics_value(&out->mlast, i);
		out->mcount++;
		if (s->metrics && out->metrics_file.path &&
		    (err = metrics_write_row(out->metrics_file.fp, frame, &out->mlast)) != 0)
			side_file_failed(out, &out->metrics_file, "cannot write", s->metrics, err);
	}
}

/*
 * Finishes every output (also after a signal); returns an exit status.
 * Stopped before the first frame, there is nothing worth keeping: the
 * temporary files are removed.  A video stopped before any frame came out
 * of its encoder is removed alone: the trajectory, metrics and summary keep
 * the frames that were stepped.
 */
static int close_outputs(struct outputs *out, int status)
{
	const struct run_options *s = &out->cfg->run;
	int err;

	outfile_unlock(out->png_key, out->png_lock);
	out->png_lock = -1;
	int video_closed = 0;
	if (signals_caught() && out->video && out->frames_done > 0) {
		/* a stop: the encoder's look-ahead is drained only while the stop's
		 * second lasts; the file holds the frames out by then (0..kept-1) */
		long kept = 0;
		err = video_close_stopped(out->video, STOP_DRAIN - signals_since(), &kept);
		video_closed = 1;
		if (kept == 0) { /* no video, but the frames stepped are the other files' */
			outfile_abort(&out->video_file);
			out->video_dropped = 1;
		} else if (kept < out->frames_done) {
			out->frames_done = kept;
		}
		if (kept > 0 && err)
			status = report_failure("cannot finish", s->output, err);
	}
	if (signals_caught() && out->frames_done == 0) {
		outfile_abort(&out->video_file);
		trajout_abort(out->traj);
		out->traj = NULL;
		outfile_abort(&out->metrics_file);
		return status;
	}

	if (out->video && !video_closed) {
		err = video_close(out->video);
		if (err && (!status || status == 128 + signals_caught())) /* a broken file is no result */
			status = report_failure("cannot finish", s->output, err);
	}
	if (out->video_file.path) {
		if (status && status != 128 + signals_caught())
			outfile_abort(&out->video_file);
		else if ((err = outfile_commit(&out->video_file)) != 0)
			status = report_failure("cannot write", s->output, err);
	}
	/* The trajectory's writer thread may report its failure only here: a
	 * side file that failed, as when its write failed during the run (exit 1
	 * at the end, outputs_finish()), and the other files are kept all the same. */
	if (out->traj && status && status != 128 + signals_caught())
		trajout_abort(out->traj);
	else if (out->traj && (err = trajout_finish(out->traj, signals_caught() != 0, STOP_DRAIN)) != 0) {
		report_failure("cannot write", s->trajectory, err);
		out->side_failed = 1;
	}
	out->traj = NULL;
	struct outfile *files[] = { &out->metrics_file };
	const char *names[] = { s->metrics };
	for (int i = 0; i < 1; i++) {
		if (!files[i]->path)
			continue;
		if (status && status != 128 + signals_caught())
			outfile_abort(files[i]);
		else if ((err = outfile_commit(files[i])) != 0)
			status = report_failure("cannot write", names[i], err);
	}
	return status;
}

/* Writes --summary once everything else is finished; status is the run's. */
static int write_summary(struct outputs *out, double wall, int status)
{
	const struct run_options *s = &out->cfg->run;
	struct summary sum = { out->cfg, SUMMARY_COMPLETE, 0, s->frames, out->started, out->frames_done, wall,
	                       out->kind == OUTPUTS_NONE ? NULL : out->kind == OUTPUTS_STDOUT ? "-" : s->output,
	                       out->mcount > 0, out->mlast, { 0 } };
	if (signals_caught()) {
		sum.status = SUMMARY_INTERRUPTED;
		sum.signal = signals_caught();
	} else if (status) {
		sum.status = SUMMARY_FAILED;
	}
	for (size_t i = 0; i < METRICS_COUNT && out->mcount; i++)
		sum.mean[i] = out->msum[i] / (double)out->mcount;

	if (strcmp(s->summary, "-") == 0) {
		int err = summary_write(stdout, &sum);
		if (!err && fflush(stdout) != 0)
			err = -errno;
		return err ? report_failure("cannot write", "standard output", err) : 0;
	}
	struct outfile o;
	signals_restart(0); /* a FIFO's reader may never come: a signal ends the wait */
	int err = outfile_begin(&o, s->summary, s->overwrite);
	signals_restart(1);
	if (err == -EINTR && signals_stop())
		return 128 + signals_stop(); /* a stop ended the wait for a reader, late or not */
	if (!err) {
		err = summary_write(o.fp, &sum);
		if (err)
			outfile_abort(&o);
		else
			err = outfile_commit(&o);
	}
	return err ? report_failure("cannot write", s->summary, err) : 0;
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
	status = close_outputs(out, status);
	/* A run that failed (after its options were accepted) or was stopped
	 * says so in its summary: "status" tells a result from the rest.  A
	 * summary that cannot measure (metrics failed) is not written. */
	if (s->summary && !out->metrics_failed &&
	    (status == 0 || status == 1 || (status == 128 + sig && out->frames_done > 0))) {
		int st = write_summary(out, wall, status);
		if (st)
			status = st;
	}
	if (!sig && signals_late() && status == 128 + signals_late())
		sig = signals_late(); /* it ended the wait for the summary's reader: a stop */
	if (out->side_failed && (status == 0 || status == 128 + sig))
		status = EXIT_FAILURE; /* the other outputs are kept */
	return status;
}

const char *outputs_name(const struct outputs *out)
{
	const struct run_options *s = &out->cfg->run;

	if (out->kind == OUTPUTS_NONE || out->video_dropped)
		return s->trajectory ? s->trajectory : out->video_dropped ? "no video (stopped before a frame was encoded)" :
		       "nothing written";
	return out->kind == OUTPUTS_STDOUT ? "standard output" : s->output;
}

void outputs_release(struct outputs *out)
{
	video_free(out->video);
	out->video = NULL;
	trajout_abort(out->traj);
	out->traj = NULL;
	metrics_ctx_release(&out->mctx);
}
