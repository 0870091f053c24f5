/*
 * outputs_check — what the outputs are checked for before any file exists
 * (outputs.h: outputs_check_roles(), outputs_check()): each name writable
 * and not in the way (-y), the kind of picture output and what its encoder
 * takes, the trajectory's options against its format, and one file in one
 * role.  Start at outputs_check() and outputs_check_roles().
 */
#include "outputs.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "framename.h"
#include "outputs_int.h"
#include "pathid.h"
#include "report.h"
#include "suggest.h"
#include "trajmeta.h"

enum { PNG_PRECHECK = 100000 }; /* PNG names checked before work (about 0.1 s) */

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

/* Refuses an output path that exists (without -y) or cannot be created.  Returns a status (failure.h). */
static int check_writable(struct failure *f, const char *option, const char *file, int overwrite)
{
	int err = outfile_check(file, overwrite);
	enum outfile_what what = err ? outfile_what(file) : OUTFILE_NOTHING;
	const char *path = CLI_CUT_PATH(file);

	if (!err)
		return 0;
	if (err == -ENOMEM)
		return failure_runtime(f, "out of memory");
	if (err == -ELOOP || (err == -EEXIST && what == OUTFILE_DANGLING))
		return failure_usage(f, "%s: '%s' is a symbolic link to nothing (or a loop): not followed",
		                     option, path);
	if (err == -EEXIST && what == OUTFILE_SYMLINK)
		return failure_usage(f, "%s: '%s' is a symbolic link (use -y to replace the file it points to)",
		                     option, path);
	if (err == -EEXIST && (what == OUTFILE_FIFO || what == OUTFILE_DEVICE))
		return failure_usage(f, "%s: '%s' is %s (use -y to write into it)", option, path,
		                     outfile_what_name(what));
	if (err == -EEXIST)
		return failure_usage(f, "%s: '%s' exists (use -y to overwrite)", option, path);
	if (err == -ENXIO)
		return failure_usage(f, "%s: '%s' is a socket", option, path);
	if (err == -ENAMETOOLONG)
		return failure_usage(f, "%s: cannot create '%s': the name is too long for the temporary "
		                     "file beside it (.NAME.XXXXXX.EXT must fit in %d bytes)", option, path,
		                     NAME_MAX);
	if (err == -EISDIR)
		return failure_usage(f, "%s: '%s' is a directory", option, path);
	if (err == -ENOENT || err == -ENOTDIR)
		return failure_usage(f, "%s: cannot create '%s': its directory does not exist", option, path);
	return failure_usage(f, "%s: cannot create '%s': %s", option, path, strerror(-err));
}

/* A PNG pattern or a still: the names must be free (or -y). */
static int check_png_output(struct outputs *out, const char *path, struct failure *f)
{
	const struct run_options *s = &out->cfg->run;
	char why[256];

	if (!strchr(path, '%')) {
		/* one picture: the frame --poster names, the last by default */
		out->kind = OUTPUTS_STILL;
		out->poster = s->poster >= 0 ? s->poster : s->frames - 1;
		if (out->poster >= s->frames)
			return failure_usage(f, "--poster: frame %ld is past the last frame (%ld of %ld frames)",
			                     out->poster, s->frames - 1, s->frames);
		return check_writable(f, "--output", path, s->overwrite);
	}
	out->kind = OUTPUTS_PNG;
	if (framename_check(path, why, sizeof(why)) != 0)
		return failure_usage(f, "--output: bad PNG pattern '%s': %s", CLI_CUT_PATH(path), why);
	/*
	 * The frames' names must be free (or -y).  Checked up front for the
	 * first PNG_PRECHECK frames; beyond, writing refuses to replace a
	 * file anyway (outfile_commit links, it does not rename, without -y).
	 */
	char name[4096];
	for (long k = 0; k < s->frames && k < PNG_PRECHECK; k++) {
		if (framename_format(name, sizeof(name), path, s->start_number + k) != 0)
			return failure_usage(f, "--output: PNG pattern '%s' makes names too long", CLI_CUT_PATH(path));
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
static int check_encoder(struct outputs *out, const char *path, struct failure *f)
{
	const struct run_options *s = &out->cfg->run;
	char why[256], why2[256];

	if (video_check(path, out->pic_w, out->pic_h, s->fps, &out->vopt, why, sizeof(why)) == 0)
		return 0;
	int windows = s->look_used == RUN_LOOK_HARDEN_WINDOWS;
	int own = windows || !out->cfg->run.user.picture_size;
	int w2 = out->pic_w + (out->pic_w & 1), h2 = out->pic_h + (out->pic_h & 1);
	if (!own || (w2 == out->pic_w && h2 == out->pic_h) ||
	    video_check(path, w2, h2, s->fps, &out->vopt, why2, sizeof(why2)) != 0)
		return failure_usage(f, "%s", why);
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
static int check_video_output(struct outputs *out, const char *path, struct failure *f)
{
	const struct run_options *s = &out->cfg->run;
	char why[PATH_MAX + 256], near[160];
	struct stat st;

	out->kind = strcmp(path, "-") == 0 ? OUTPUTS_STDOUT : OUTPUTS_VIDEO;
	if (out->kind == OUTPUTS_STDOUT && isatty(STDOUT_FILENO))
		return failure_usage(f, "--output: refusing to write video to a terminal (redirect or pipe it)");
	if (video_ready(why, sizeof why) != 0) /* the plugin, before any file */
		return failure_runtime(f, "%s", why);
	if (out->kind == OUTPUTS_VIDEO && !video_path_supported(path)) {
		if (near_extensions(path, near, sizeof near) > 0)
			return failure_usage(f, "--output: unknown kind of file '%s'%s", CLI_CUT_PATH(path), near);
		return failure_usage(f, "--output: unknown kind of file '%s' (expected %s, a PNG pattern such as "
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
		return failure_usage(f, "--output: '%s' is not a regular file, and %s needs one (it seeks "
		                     "and reads back); stream .mkv, .webm, .gif or .y4m instead", path,
		                     strrchr(path, '.'));
	return 0;
}

/* Works out the kind of output and validates it before any file exists. */
static int check_picture_output(struct outputs *out, struct failure *f)
{
	const struct run_options *s = &out->cfg->run;
	const char *path = s->output;
	struct stat sb;

	if (s->no_render) {
		out->kind = OUTPUTS_NONE;
		if (s->user.output)
			return failure_usage(f, "--output: nothing is drawn with --no-render (drop one of them)");
		return 0;
	}
	if (has_suffix(path, "/") || (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)))
		return failure_usage(f, "--output: '%s' is a directory (for one PNG per frame: -o '%s%sf_%%05d.png')",
		                     path, path, has_suffix(path, "/") ? "" : "/");
	if (has_suffix(path, ".png"))
		return check_png_output(out, path, f);
	return check_video_output(out, path, f);
}

/* --trajectory, --metrics, --summary: writable (outputs_check_roles() saw that they are distinct). */
static int check_side_files(struct outputs *out, struct failure *f)
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

/* Adds a role; returns a status (failure.h: out of memory). */
static int roles_add(struct roles *rs, const char *option, const char *path, int writes,
                     unsigned flags, struct failure *f)
{
	struct role *r = &rs->r[rs->n++];

	r->option = option;
	r->path = path;
	r->writes = writes;
	r->pattern = (flags & PATHID_PATTERN) != 0;
	if (pathid_get(&r->id, path, flags) != 0)
		return failure_runtime(f, "out of memory");
	return 0;
}

/* Refuses role b landing on role a: one line naming both.  Returns EXIT_USAGE. */
static int refuse_pair(struct failure *f, const struct role *a, const struct role *b, long frame)
{
	const char *bp = CLI_CUT_PATH(b->path), *ap = CLI_CUT_PATH(a->path);

	if (a->pattern)
		return failure_usage(f, "%s: '%s' is also the %s (frame %ld of '%s'): one file, one role",
		                     b->option, bp, a->option, frame, ap);
	if (strcmp(a->path, b->path) == 0)
		return failure_usage(f, "%s: '%s' is also the %s: one file, one role", b->option, bp, a->option);
	if (strcmp(a->path, "-") == 0 && a->writes)
		return failure_usage(f, "%s: '%s' is also the %s (standard output): one file, one role",
		                     b->option, bp, a->option);
	return failure_usage(f, "%s: '%s' is also the %s ('%s'): one file, one role", b->option, bp,
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
static int check_existing_frames(const struct roles *rs, const struct role *p, struct failure *f)
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
static int roles_collect(struct roles *rs, const struct run_options *s, struct failure *f)
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
			return failure_usage(f, "--output: the frame number of '%s' must be in the file name, not in "
			                     "a directory", CLI_CUT_PATH(o));
		st = roles_add(rs, "--output", o, 1, PATHID_PATTERN, f);
		/* the lock file: one for every spelling of the pattern (outputs_open()) */
		if (!st && outputs_lock_key(o, canon, sizeof(canon)) == 0 &&
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
static int roles_compare(const struct roles *rs, struct failure *f)
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
				return failure_runtime(f, "out of memory");
			if (t)
				return failure_usage(f, "%s: '%s' has the form of the %s's temporary file, or the other "
				                     "way round (.NAME.XXXXXX.EXT beside it): one file, one role",
				                     b->option, CLI_CUT_PATH(b->path), a->option);
		}
	}
	for (size_t i = 0; i < rs->n; i++)
		if (rs->r[i].pattern && check_existing_frames(rs, &rs->r[i], f) != 0)
			return f->status;
	return 0;
}

int outputs_check_roles(const struct config *c, struct failure *f)
{
	const struct run_options *s = &c->run;
	struct roles rs = { 0 };

	rs.r = calloc(s->configs_n + 8, sizeof(*rs.r));
	if (!rs.r)
		return failure_runtime(f, "out of memory");
	int status = roles_collect(&rs, s, f);
	if (!status)
		status = roles_compare(&rs, f);
	for (size_t i = 0; i < rs.n; i++)
		pathid_release(&rs.r[i].id);
	free(rs.r);
	return status;
}

int outputs_check(struct outputs *out, struct failure *f)
{
	if (check_picture_output(out, f) != 0)
		return f->status;
	return check_side_files(out, f);
}
