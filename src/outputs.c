/*
 * outputs — everything a run writes; see include/outputs.h.  Start with
 * outputs_check() (what is refused before any file exists), then
 * outputs_open(), outputs_record() and outputs_finish().
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
#include "pathid.h"
#include "pngout.h"
#include "report.h"
#include "suggest.h"
#include "signals.h"
#include "summary.h"
#include "traj.h"
#include "trajmeta.h"
#include "trajout.h"

enum { PNG_PRECHECK = 100000 }; /* PNG names checked before work (about 0.1 s) */

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
	out->vopt.fps_den = (int)c->run.fps_den; /* --fps 30000/1001: the exact rate */
	metrics_ctx_init(&out->mctx);
	out->want_metrics = c->run.metrics || c->run.summary;
}

/* ---------------------------------------------------------------- checking */


static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

/* Refuses an output path that exists (without -y) or cannot be created.  Returns a status (fail.h). */
static int check_writable(struct fail *f, const char *option, const char *file, int overwrite)
{
	int err = outfile_check(file, overwrite);
	enum outfile_what what = err ? outfile_what(file) : OUTFILE_NOTHING;
	const char *path = CLI_CUT_PATH(file);

	if (!err)
		return 0;
	if (err == -ENOMEM)
		return fail_runtime(f, "out of memory");
	if (err == -ELOOP || (err == -EEXIST && what == OUTFILE_DANGLING))
		return fail_usage(f, "%s: '%s' is a symbolic link to nothing (or a loop): not followed",
		                  option, path);
	if (err == -EEXIST && what == OUTFILE_SYMLINK)
		return fail_usage(f, "%s: '%s' is a symbolic link (use -y to replace the file it points to)",
		                  option, path);
	if (err == -EEXIST && (what == OUTFILE_FIFO || what == OUTFILE_DEVICE))
		return fail_usage(f, "%s: '%s' is %s (use -y to write into it)", option, path,
		                  outfile_what_name(what));
	if (err == -EEXIST)
		return fail_usage(f, "%s: '%s' exists (use -y to overwrite)", option, path);
	if (err == -ENXIO)
		return fail_usage(f, "%s: '%s' is a socket", option, path);
	if (err == -ENAMETOOLONG)
		return fail_usage(f, "%s: cannot create '%s': the name is too long for the temporary "
		                  "file beside it (.NAME.XXXXXX.EXT must fit in %d bytes)", option, path,
		                  NAME_MAX);
	if (err == -EISDIR)
		return fail_usage(f, "%s: '%s' is a directory", option, path);
	if (err == -ENOENT || err == -ENOTDIR)
		return fail_usage(f, "%s: cannot create '%s': its directory does not exist", option, path);
	return fail_usage(f, "%s: cannot create '%s': %s", option, path, strerror(-err));
}

/* A PNG pattern or a still: the names must be free (or -y). */
static int check_png_output(struct outputs *out, const char *path, struct fail *f)
{
	const struct run_options *s = &out->cfg->run;
	char why[256];

	if (!strchr(path, '%')) {
		/* one picture: the frame --poster names, the last by default */
		out->kind = OUTPUTS_STILL;
		out->poster = s->poster >= 0 ? s->poster : s->frames - 1;
		if (out->poster >= s->frames)
			return fail_usage(f, "--poster: frame %ld is past the last frame (%ld of %ld frames)",
			                  out->poster, s->frames - 1, s->frames);
		return check_writable(f, "--output", path, s->overwrite);
	}
	out->kind = OUTPUTS_PNG;
	if (framename_check(path, why, sizeof(why)) != 0)
		return fail_usage(f, "--output: bad PNG pattern '%s': %s", CLI_CUT_PATH(path), why);
	/*
	 * The frames' names must be free (or -y).  Checked up front for the
	 * first PNG_PRECHECK frames; beyond, writing refuses to replace a
	 * file anyway (outfile_commit links, it does not rename, without -y).
	 */
	char name[4096];
	for (long k = 0; k < s->frames && k < PNG_PRECHECK; k++) {
		if (framename_format(name, sizeof(name), path, s->start_number + k) != 0)
			return fail_usage(f, "--output: PNG pattern '%s' makes names too long", CLI_CUT_PATH(path));
		if (check_writable(f, "--output", name, s->overwrite) != 0)
			return f->status;
	}
	return 0;
}

/*
 * The encoder takes the picture: a picture whose odd size is the model's or
 * the look's own (the C# window's 584x361, opengl's 1157x578) gets one more
 * row or column of background at the bottom or right for encoders that need
 * even sizes; a size the user chose is refused instead.
 */
static int check_encoder(struct outputs *out, const char *path, struct fail *f)
{
	const struct run_options *s = &out->cfg->run;
	char why[256], why2[256];

	if (video_check(path, out->pic_w, out->pic_h, (int)s->fps, &out->vopt, why, sizeof(why)) == 0)
		return 0;
	int windows = s->look_used == RUN_LOOK_HARDEN_WINDOWS;
	int own = windows || !out->cfg->run.user.picture_size;
	int w2 = out->pic_w + (out->pic_w & 1), h2 = out->pic_h + (out->pic_h & 1);
	if (!own || (w2 == out->pic_w && h2 == out->pic_h) ||
	    video_check(path, w2, h2, (int)s->fps, &out->vopt, why2, sizeof(why2)) != 0)
		return fail_usage(f, "%s", why);
	if (!s->quiet)
		report_note("%s needs even sizes: the %dx%d picture is padded to %dx%d",
		            path, out->pic_w, out->pic_h, w2, h2);
	out->pic_w = w2;
	out->pic_h = h2;
	return 0;
}

/* " (did you mean .mp4?)": the video extensions nearest path's, or "". */
static size_t near_extensions(const char *path, char *out, size_t outlen)
{
	const char *dot = strrchr(path, '.'), *names[16];
	char list[128], *save = NULL;
	size_t n = 0;

	out[0] = '\0';
	if (!dot || strchr(dot, '/'))
		return 0;
	snprintf(list, sizeof list, "%s", video_extensions()); /* ".mp4, .mov, ..." */
	for (char *t = strtok_r(list, ", ", &save); t && n < 16; t = strtok_r(NULL, ", ", &save))
		names[n++] = t;
	return suggest_phrase(out, outlen, "", "", dot, strlen(dot), names, n, sizeof names[0]);
}

/* A video file or y4m on standard output. */
static int check_video_output(struct outputs *out, const char *path, struct fail *f)
{
	const struct run_options *s = &out->cfg->run;
	char why[PATH_MAX + 256], near[160];
	struct stat st;

	out->kind = strcmp(path, "-") == 0 ? OUTPUTS_STDOUT : OUTPUTS_VIDEO;
	if (out->kind == OUTPUTS_STDOUT && isatty(STDOUT_FILENO))
		return fail_usage(f, "--output: refusing to write video to a terminal (redirect or pipe it)");
	if (video_ready(why, sizeof why) != 0) /* the plugin, before any file */
		return fail_runtime(f, "%s", why);
	if (out->kind == OUTPUTS_VIDEO && !video_path_supported(path)) {
		if (near_extensions(path, near, sizeof near) > 0)
			return fail_usage(f, "--output: unknown kind of file '%s'%s", CLI_CUT_PATH(path), near);
		return fail_usage(f, "--output: unknown kind of file '%s' (expected %s, a PNG pattern such as "
		                  "f_%%05d.png, or -)", CLI_CUT_PATH(path), video_extensions());
	}
	if (check_encoder(out, path, f) != 0)
		return f->status;
	if (out->kind == OUTPUTS_STDOUT)
		return 0;
	if (check_writable(f, "--output", path, s->overwrite) != 0)
		return f->status;
	/* -y into a FIFO or device: only a stream container */
	if (video_needs_file(path) && stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return fail_usage(f, "--output: '%s' is not a regular file, and %s needs one (it seeks "
		                  "and reads back); stream .mkv, .webm, .gif or .y4m instead", path,
		                  strrchr(path, '.'));
	return 0;
}

/* Works out the kind of output and validates it before any file exists. */
static int check_picture_output(struct outputs *out, struct fail *f)
{
	const struct run_options *s = &out->cfg->run;
	const char *path = s->output;
	struct stat sb;

	if (s->no_render) {
		out->kind = OUTPUTS_NONE;
		if (s->user.output)
			return fail_usage(f, "--output: nothing is drawn with --no-render (drop one of them)");
		return 0;
	}
	if (has_suffix(path, "/") || (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)))
		return fail_usage(f, "--output: '%s' is a directory (for one PNG per frame: -o '%s%sf_%%05d.png')",
		                  path, path, has_suffix(path, "/") ? "" : "/");
	if (has_suffix(path, ".png"))
		return check_png_output(out, path, f);
	return check_video_output(out, path, f);
}

/* --trajectory, --metrics, --summary: writable (outputs_check_roles() saw that they are distinct). */
static int check_side_files(struct outputs *out, struct fail *f)
{
	const struct run_options *s = &out->cfg->run;
	const char *opt[] = { "--trajectory", "--metrics", "--summary" };
	const char *path[] = { s->trajectory, s->metrics, s->summary };

	if (trajmeta_check(out->cfg, f) != 0)
		return f->status;
	for (int i = 0; i < 3; i++) {
		if (!path[i])
			continue;
		if (i == 2 && strcmp(path[i], "-") == 0)
			continue; /* the summary may go to standard output */
		if (check_writable(f, opt[i], path[i], s->overwrite) != 0)
			return f->status;
	}
	return 0;
}

/*
 * What locks a PNG pattern: its directory as the frames name it ("%%" is
 * one '%'), then its file name spelt canonically (framename_canonical()),
 * so that every spelling of one pattern (f_%d, f_%01d, ./f_%05d) takes one
 * lock file.  Returns 0 or a negative errno.
 */
static int png_lock_key(const char *pattern, char *buf, size_t len)
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

/* ------------------------------------------------------ one file, one role */

/* A file the run reads or writes, named by the option that gives it. */
struct role {
	const char *option;   /* "--trajectory", "--output's lock file" */
	const char *path;     /* as given */
	int writes;           /* an output (two inputs may be one file) */
	int pattern;          /* the PNG pattern: id.name is its normalised pattern */
	struct pathid id;
};

struct roles {
	struct role *r;
	size_t n;
	long first, last;     /* the frame numbers the pattern makes in this run */
};

/* Adds a role; returns a status (fail.h: out of memory). */
static int roles_add(struct roles *rs, const char *option, const char *path, int writes,
                     unsigned flags, struct fail *f)
{
	struct role *r = &rs->r[rs->n++];

	r->option = option;
	r->path = path;
	r->writes = writes;
	r->pattern = (flags & PATHID_PATTERN) != 0;
	if (pathid_get(&r->id, path, flags) != 0)
		return fail_runtime(f, "out of memory");
	return 0;
}

/* Refuses role b landing on role a: one line naming both.  Returns EXIT_USAGE. */
static int refuse_pair(struct fail *f, const struct role *a, const struct role *b, long frame)
{
	const char *bp = CLI_CUT_PATH(b->path), *ap = CLI_CUT_PATH(a->path);

	if (a->pattern)
		return fail_usage(f, "%s: '%s' is also the %s (frame %ld of '%s'): one file, one role",
		                  b->option, bp, a->option, frame, ap);
	if (strcmp(a->path, b->path) == 0)
		return fail_usage(f, "%s: '%s' is also the %s: one file, one role", b->option, bp, a->option);
	if (strcmp(a->path, "-") == 0 && a->writes)
		return fail_usage(f, "%s: '%s' is also the %s (standard output): one file, one role",
		                  b->option, bp, a->option);
	return fail_usage(f, "%s: '%s' is also the %s ('%s'): one file, one role", b->option, bp,
	                  a->option, ap);
}

/* Is the normalised name the pattern role p makes for a frame of this run?  *frame says which. */
static int makes(const struct roles *rs, const struct role *p, const char *name, long *frame)
{
	return name && framename_match(p->id.name, name, frame) && *frame >= rs->first &&
	       *frame <= rs->last;
}

/* The extension outfile gives a name's temporary file: from its last dot, "" when none (or a leading one). */
static const char *ext_of(const char *base)
{
	const char *dot = strrchr(base, '.');

	return dot && dot != base ? dot : "";
}

/*
 * Is b's name the form of a's temporary file, ".NAME.XXXXXX.EXT" beside
 * it (outfile.h)?  A temporary is made with O_EXCL, so it never lands on
 * a file; but an output renamed into place later could land on it.
 * Returns 1, 0, or -ENOMEM.
 */
static int is_temporary_of(const struct roles *rs, const struct role *a, const struct role *b)
{
	const char *name = b->id.name, *slash = name ? strrchr(name, '/') : NULL;
	long frame;

	if (!slash || slash[1] != '.')
		return 0;
	const char *rest = slash + 2;  /* NAME.XXXXXX.EXT */
	size_t len = strlen(rest), dir = (size_t)(slash + 1 - name);
	const char *exts[2] = { "", ext_of(rest) };
	for (int i = 0; i < 2; i++) {
		size_t e = strlen(exts[i]);
		if (len < e + 8 || rest[len - e - 7] != '.')
			continue;
		int random = 1;
		for (size_t k = len - e - 6; k < len - e; k++)
			random &= isalnum((unsigned char)rest[k]) != 0;
		char owner[PATH_MAX];
		int n = snprintf(owner, sizeof(owner), "%.*s%.*s", (int)dir, name, (int)(len - e - 7), rest);
		if (!random || n < 0 || (size_t)n >= sizeof(owner) || strcmp(ext_of(owner + dir), exts[i]) != 0)
			continue;
		if (a->pattern) {
			if (makes(rs, a, owner, &frame))
				return 1;
			continue;
		}
		struct pathid o;
		if (pathid_get(&o, owner, 0) != 0)
			return -ENOMEM;
		int same = pathid_same(&o, &a->id);
		pathid_release(&o);
		if (same)
			return 1;
	}
	return 0;
}

/*
 * Frames that exist already (-y) and are one of the other files (a hard
 * link, a symbolic link to it): looked up by identity, for the first
 * PNG_PRECHECK frames.  Returns a status.
 */
static int check_existing_frames(const struct roles *rs, const struct role *p, struct fail *f)
{
	char name[4096];
	struct stat st;
	int any = 0;

	for (size_t j = 0; j < rs->n; j++)
		any |= &rs->r[j] != p && rs->r[j].id.exists && !pathid_is_null(&rs->r[j].id);
	for (long k = rs->first; any && k <= rs->last && k - rs->first < PNG_PRECHECK; k++) {
		if (framename_format(name, sizeof(name), p->path, k) != 0 || stat(name, &st) != 0)
			continue;
		for (size_t j = 0; j < rs->n; j++) {
			const struct role *b = &rs->r[j];
			if (b != p && b->id.exists && b->id.dev == st.st_dev && b->id.ino == st.st_ino)
				return refuse_pair(f, p, b, k);
		}
	}
	return 0;
}

/* Every file the settings name, as roles in rs (room for them all).  Returns a status. */
static int roles_collect(struct roles *rs, const struct run_options *s, struct fail *f)
{
	char lock[PATH_MAX + 16], canon[PATH_MAX];
	int st = 0;

	rs->first = s->start_number;
	rs->last = s->start_number + s->frames - 1;
	if (s->init)
		st = roles_add(rs, "--init", s->init, 0, 0, f);
	for (size_t i = 0; i < s->configs_n && !st; i++)
		st = roles_add(rs, "--config", s->configs[i], 0, 0, f);
	const char *o = s->no_render ? NULL : s->output;
	long field = o && has_suffix(o, ".png") ? framename_field(o) : -1;
	if (!st && field >= 0) {
		if (strchr(o + field, '/'))
			return fail_usage(f, "--output: the frame number of '%s' must be in the file name, not in "
			                  "a directory", CLI_CUT_PATH(o));
		st = roles_add(rs, "--output", o, 1, PATHID_PATTERN, f);
		/* the lock file: one for every spelling of the pattern (outputs_open()) */
		if (!st && png_lock_key(o, canon, sizeof(canon)) == 0 &&
		    outfile_lock_name(canon, lock, sizeof(lock)) == 0)
			st = roles_add(rs, "--output's lock file", lock, 1, 0, f);
	} else if (!st && o) {
		st = roles_add(rs, "--output", o, 1, PATHID_DASH_STDOUT, f);
	}
	const char *opt[] = { "--trajectory", "--metrics", "--summary" };
	const char *path[] = { s->trajectory, s->metrics, s->summary };
	for (int i = 0; i < 3 && !st; i++)
		if (path[i])
			st = roles_add(rs, opt[i], path[i], 1, PATHID_DASH_STDOUT, f);
	return st;
}

/* Refuses two roles that are one file (or one's temporary file).  Returns a status. */
static int roles_compare(const struct roles *rs, struct fail *f)
{
	long frame;

	for (size_t j = 1; j < rs->n; j++) {
		const struct role *b = &rs->r[j];
		for (size_t i = 0; i < j; i++) {
			const struct role *a = &rs->r[i];
			if (!a->writes && !b->writes)
				continue; /* two inputs may be one file */
			if (a->pattern && makes(rs, a, b->id.name, &frame))
				return refuse_pair(f, a, b, frame);
			if (!a->pattern && pathid_same(&a->id, &b->id) &&
			    !(pathid_is_null(&a->id) && pathid_is_null(&b->id)))
				return refuse_pair(f, a, b, 0);
			int t = a->writes && b->writes ? is_temporary_of(rs, a, b) : 0;
			if (t == 0 && a->writes && b->writes)
				t = is_temporary_of(rs, b, a);
			if (t < 0)
				return fail_runtime(f, "out of memory");
			if (t)
				return fail_usage(f, "%s: '%s' has the form of the %s's temporary file, or the other "
				                  "way round (.NAME.XXXXXX.EXT beside it): one file, one role",
				                  b->option, CLI_CUT_PATH(b->path), a->option);
		}
	}
	for (size_t i = 0; i < rs->n; i++)
		if (rs->r[i].pattern && check_existing_frames(rs, &rs->r[i], f) != 0)
			return f->status;
	return 0;
}

int outputs_check_roles(const struct config *c, struct fail *f)
{
	const struct run_options *s = &c->run;
	struct roles rs = { 0 };

	rs.r = calloc(s->configs_n + 8, sizeof(*rs.r));
	if (!rs.r)
		return fail_runtime(f, "out of memory");
	int status = roles_collect(&rs, s, f);
	if (!status)
		status = roles_compare(&rs, f);
	for (size_t i = 0; i < rs.n; i++)
		pathid_release(&rs.r[i].id);
	free(rs.r);
	return status;
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
static int lock_pattern(struct outputs *out, struct fail *f)
{
	const char *path = out->cfg->run.output;
	int err = png_lock_key(path, out->png_key, sizeof(out->png_key));

	if (err)
		return fail_cause(f, "cannot lock", path, err);
	out->png_lock = outfile_lock(out->png_key);
	if (out->png_lock == -EBUSY) {
		char lock[PATH_MAX + 16] = "";
		outfile_lock_name(out->png_key, lock, sizeof(lock));
		return fail_runtime(f, "cannot write '%s': another run is writing this pattern (it holds "
		                    "the lock file '%s')", path, lock);
	}
	if (out->png_lock < 0)
		return fail_cause(f, "cannot lock", path, out->png_lock);
	return 0;
}

int outputs_open(struct outputs *out, struct fail *f)
{
	const struct run_options *s = &out->cfg->run;
	char why[256];
	int err;

	if (signals_caught())
		return fail_stop(f, signals_caught()); /* narrows the gap before a FIFO's open() */
	if (s->trajectory) {
		struct trajmeta tm;
		err = trajmeta_init(&tm, out->cfg, s->boids);
		if (!err)
			err = trajout_open(&out->traj, &tm.opts);
		trajmeta_release(&tm);
		if (err)
			return fail_cause(f, "cannot write", s->trajectory, err);
	}
	if (s->metrics) {
		err = outfile_begin(&out->metrics_file, s->metrics, s->overwrite);
		if (!err)
			err = metrics_write_header(out->metrics_file.fp);
		if (err)
			return fail_cause(f, "cannot write", s->metrics, err);
	}
	if (out->kind == OUTPUTS_PNG)
		return lock_pattern(out, f);
	if (out->kind == OUTPUTS_NONE || out->kind == OUTPUTS_STILL)
		return 0;
	int fd = STDOUT_FILENO;
	if (out->kind == OUTPUTS_VIDEO) {
		err = outfile_begin(&out->video_file, s->output, s->overwrite);
		if (err)
			return fail_cause(f, "cannot create", s->output, err);
		fd = out->video_file.fd; /* libavformat writes through it, never by name */
	}
	err = video_open_fd(&out->video, fd, s->output, out->pic_w, out->pic_h, (int)s->fps,
	                    &out->vopt, why, sizeof(why));
	if (err)
		return fail_runtime(f, "cannot write '%s': %s", s->output, why);
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

int outputs_check(struct outputs *out, struct fail *f)
{
	if (check_picture_output(out, f) != 0)
		return f->status;
	return check_side_files(out, f);
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
		                   out->pic_h, (int)s->fps, &out->vopt, buf, len) == 0) {
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
