/*
 * batch — boids --check-configs: many runs' settings through the run's own
 * parse and resolve step, a line at a time; see include/batch.h.
 *
 * Start at batch_check_configs(): a line is parsed in place into key/value
 * pairs (parse_line(), a JSON object of strings, numbers and booleans),
 * cli_parse_with() reads the command line with those pairs as one more
 * config file (apply()), and the settings are hashed and written as
 * --print-config writes them.
 */
#include "batch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "lineread.h"
#include "report.h"
#include "signals.h"
#include "summary.h"

/* One line's settings: pointers into the line, which parse_line() rewrites. */
struct pairs {
	const char **kv;        /* key, value, key, value, ... */
	size_t n, cap;          /* pairs, and room for pairs */
	long lineno;            /* of the line, from 1 */
};

/* ---------------------------------------------------------------- JSON */

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	return p;
}

static int hex4(const char *p, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		char c = p[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
		        c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v << 4 | (unsigned)d;
	}
	*out = v;
	return 0;
}

/* Code point u as UTF-8 at w; returns the byte after. */
static char *put_utf8(char *w, unsigned u)
{
	if (u < 0x80) {
		*w++ = (char)u;
	} else if (u < 0x800) {
		*w++ = (char)(0xc0 | u >> 6);
		*w++ = (char)(0x80 | (u & 0x3f));
	} else if (u < 0x10000) {
		*w++ = (char)(0xe0 | u >> 12);
		*w++ = (char)(0x80 | (u >> 6 & 0x3f));
		*w++ = (char)(0x80 | (u & 0x3f));
	} else {
		*w++ = (char)(0xf0 | u >> 18);
		*w++ = (char)(0x80 | (u >> 12 & 0x3f));
		*w++ = (char)(0x80 | (u >> 6 & 0x3f));
		*w++ = (char)(0x80 | (u & 0x3f));
	}
	return w;
}

/*
 * The JSON string at *pp (its opening quote), decoded in place (never
 * longer than its source) and NUL-terminated.  Returns it and moves *pp
 * past the closing quote, or NULL with *why.
 */
static const char *string_at(char **pp, const char **why)
{
	char *r = *pp + 1, *w = *pp + 1, *start = w;

	for (;;) {
		unsigned char ch = (unsigned char)*r;
		if (ch == '"')
			break;
		if (ch == 0) {
			*why = "no closing quote";
			return NULL;
		}
		if (ch < 0x20) {
			*why = "a control character in a string (escape it)";
			return NULL;
		}
		if (ch != '\\') {
			*w++ = *r++;
			continue;
		}
		r++;
		unsigned u, lo;
		switch (*r++) {
		case '"': *w++ = '"'; break;
		case '\\': *w++ = '\\'; break;
		case '/': *w++ = '/'; break;
		case 'b': *w++ = '\b'; break;
		case 'f': *w++ = '\f'; break;
		case 'n': *w++ = '\n'; break;
		case 'r': *w++ = '\r'; break;
		case 't': *w++ = '\t'; break;
		case 'u':
			if (hex4(r, &u) != 0) {
				*why = "bad \\u escape";
				return NULL;
			}
			r += 4;
			if (u >= 0xd800 && u < 0xdc00 && r[0] == '\\' && r[1] == 'u' &&
			    hex4(r + 2, &lo) == 0 && lo >= 0xdc00 && lo < 0xe000) {
				u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
				r += 6;
			} else if (u >= 0xd800 && u < 0xe000) {
				*why = "a lone UTF-16 surrogate in a \\u escape";
				return NULL;
			}
			if (u == 0) {
				*why = "a NUL character in a string";
				return NULL;
			}
			w = put_utf8(w, u);
			break;
		default:
			*why = "unknown escape in a string";
			return NULL;
		}
	}
	*pp = r + 1;
	*w = 0;
	return start;
}

/* A JSON number's text at *pp, NUL-terminated in place by the caller's
 * next step: returns its length (0: not a number). */
static size_t number_len(const char *p)
{
	const char *q = p;

	if (*q == '-')
		q++;
	if (*q < '0' || *q > '9')
		return 0;
	while (*q >= '0' && *q <= '9')
		q++;
	if (*q == '.') {
		if (q[1] < '0' || q[1] > '9')
			return 0;
		for (q++; *q >= '0' && *q <= '9'; q++)
			;
	}
	if (*q == 'e' || *q == 'E') {
		q++;
		if (*q == '+' || *q == '-')
			q++;
		if (*q < '0' || *q > '9')
			return 0;
		while (*q >= '0' && *q <= '9')
			q++;
	}
	return (size_t)(q - p);
}

static int add_pair(struct pairs *s, const char *k, const char *v)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		const char **kv = realloc(s->kv, 2 * cap * sizeof *kv);
		if (!kv)
			return -ENOMEM;
		s->kv = kv;
		s->cap = cap;
	}
	s->kv[2 * s->n] = k;
	s->kv[2 * s->n + 1] = v;
	s->n++;
	return 0;
}

/*
 * The line as {"key": value, ...} into s (pointers into line, which is
 * rewritten).  Returns 0, -ENOMEM, or -1 with *why.
 */
static int parse_line(char *line, struct pairs *s, const char **why)
{
	char *p = (char *)skip_ws(line);

	s->n = 0;
	*why = "expected a JSON object of settings, {\"key\": \"value\", ...}";
	if (*p++ != '{')
		return -1;
	p = (char *)skip_ws(p);
	if (*p == '}')
		return *skip_ws(p + 1) ? -1 : 0;
	for (;;) {
		const char *k, *v;
		size_t len;
		char sep;

		if (*p != '"' || !(k = string_at(&p, why)))
			return -1;
		p = (char *)skip_ws(p);
		if (*p++ != ':')
			return *why = "expected ':' after a key", -1;
		p = (char *)skip_ws(p);
		if (*p == '"') {
			if (!(v = string_at(&p, why)))
				return -1;
			p = (char *)skip_ws(p);
			sep = *p++;
		} else {
			if (strncmp(p, "true", 4) == 0)
				v = "yes", len = 4;
			else if (strncmp(p, "false", 5) == 0)
				v = "no", len = 5;
			else if ((len = number_len(p)) > 0)
				v = p;
			else
				return *why = "a value is a string, a number, true or false", -1;
			/* a number ends in place: its next byte is the separator or a blank */
			sep = p[len];
			p[len] = 0;
			p += len + 1;
			if (sep == ' ' || sep == '\t' || sep == '\r' || sep == '\n') {
				p = (char *)skip_ws(p);
				sep = *p++;
			}
		}
		int e = add_pair(s, k, v);
		if (e)
			return e;
		if (sep == '}')
			return *skip_ws(p) ? (*why = "text after the object", -1) : 0;
		if (sep != ',')
			return *why = "expected ',' or '}' after a value", -1;
		p = (char *)skip_ws(p);
	}
}

/* ------------------------------------------------------------ one line */

/* cli_source: the line's pairs, as lines of one more config file. */
static int apply(struct config *c, void *arg, char *err, size_t errlen)
{
	const struct pairs *s = arg;

	for (size_t i = 0; i < s->n; i++) {
		int e = cli_set_config(c, s->kv[2 * i], s->kv[2 * i + 1], err, errlen);
		if (e)
			return e;
	}
	return 0;
}

/* Writes text (size bytes) to DIR/K.cfg, through DIR/.K.cfg.tmp.  Returns
 * 0 or a negative errno; path gets the name that failed. */
static int write_config(const char *dir, long k, const char *text, size_t size,
                        char *path, size_t len)
{
	char tmp[4096];
	int fd, e = 0;

	if (snprintf(path, len, "%s/%ld.cfg", dir, k) >= (int)len ||
	    snprintf(tmp, sizeof tmp, "%s/.%ld.cfg.tmp", dir, k) >= (int)sizeof tmp)
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(path, len, "%s", tmp);
		return -errno;
	}
	for (size_t done = 0; done < size && !e;) {
		ssize_t n = write(fd, text + done, size - done);
		if (n < 0 && errno != EINTR)
			e = -errno;
		else if (n > 0)
			done += (size_t)n;
	}
	if (close(fd) != 0 && !e)
		e = -errno;
	if (!e && rename(tmp, path) != 0)
		e = -errno;
	if (e) {
		unlink(tmp);
		snprintf(path, len, "%s", tmp);
	}
	return e;
}

/*
 * The settings' --print-config text: written to DIR/K.cfg when dir, and
 * hashed into hash.  Returns 0 or a negative errno (path names the file).
 */
static int finish_line(const struct config *c, const char *dir, long k, char hash[72],
                       char *path, size_t len)
{
	char *text;
	size_t size;
	int e = cli_config_text(c, &text, &size);

	if (!e && dir)
		e = write_config(dir, k, text, size, path, len);
	if (!e)
		summary_hash_config_text(text, size, hash); /* rewrites text: last */
	free(text);
	return e;
}

/* One --check-configs run. */
struct batch {
	int argc;
	char **argv;            /* the command line, read again for each line */
	struct config *c;       /* each line's settings */
	batch_check *check;
	void *arg;
	const char *file, *dir; /* --check-configs, --config-dir (argv's) */
	struct pairs s;         /* the line's pairs, and its number */
	long refused;           /* lines refused so far */
	long done;              /* lines given their verdict (hash or "-") */
};

/* A refused line: reported with its number, "-" on standard output.  Returns 0: go on. */
static int refuse(struct batch *b, const char *why)
{
	report("%s:%ld: %s", CLI_CUT_PATH(b->file), b->s.lineno, why);
	b->refused++;
	b->done++;
	puts("-");
	return 0;
}

static int out_of_memory(void)
{
	report("out of memory");
	return EXIT_FAILURE;
}

/*
 * The run's checks for the line's settings (in b->c): notes say the line's
 * FILE:LINE, as its refusal does.  Returns 0 accepted, EXIT_USAGE refused
 * (said, and "-" written), or the status that ends the run: 1 when they
 * failed (out of memory, a plugin missing; said), 128 + a signal.
 */
static int run_checks(struct batch *b)
{
	char where[300];
	struct failure f = { 0, "" };

	snprintf(where, sizeof where, "%s:%ld", CLI_CUT_PATH(b->file), b->s.lineno);
	report_context(where);
	int status = b->check(b->c, b->arg, &f);
	if (status && signals_caught())
		status = 128 + signals_caught();
	else if (status && status != EXIT_USAGE)
		report_fail(&f);
	report_context(NULL);
	if (status == EXIT_USAGE)
		refuse(b, f.msg);
	return status;
}

/*
 * Checks one line (len bytes, NUL-terminated) and writes its verdict: its
 * hash, or "-" after its refusal, which is reported with the line's number.
 * Returns 0 to go on, or the status that ends the run (a write failed, out
 * of memory, a stop).
 */
static int one_line(struct batch *b, char *line, size_t len)
{
	char err[1024], hash[72], path[4096];
	const char *why;

	b->s.lineno++;
	int e = len != strlen(line) ? (why = "NUL byte in the line", -1) : parse_line(line, &b->s, &why);
	if (e == -ENOMEM)
		return out_of_memory();
	if (e)
		return refuse(b, why);
	cli_release(b->c);
	int r = cli_parse_with(b->c, b->argc, b->argv, apply, &b->s, err, sizeof err);
	if (r == CLI_NOMEM)
		return out_of_memory();
	if (r != CLI_CHECK_CONFIGS && signals_caught())
		return 128 + signals_caught(); /* it ended the reading of a --config */
	if (r != CLI_CHECK_CONFIGS)
		return refuse(b, err);
	if ((r = run_checks(b)) != 0)
		return r == EXIT_USAGE ? 0 : r;
	e = finish_line(b->c, b->dir, b->s.lineno - 1, hash, path, sizeof path);
	if (e == -ENOMEM)
		return out_of_memory();
	if (e)
		return report_failure("cannot write", path, e);
	puts(hash);
	b->done++;
	return 0;
}

/* Skips the rest of a line too long to hold.  Returns 0, LINEREAD_EOF, or -errno. */
static int skip_line(FILE *in)
{
	int c;

	while ((c = getc(in)) != EOF && c != '\n')
		;
	return c != EOF ? 0 : ferror(in) ? (errno ? -errno : -EIO) : LINEREAD_EOF;
}

/* Reads the lines of in and checks each.  Returns the status. */
static int all_lines(struct batch *b, FILE *in)
{
	char *line = NULL, why[64];
	size_t cap = 0;
	ssize_t len = LINEREAD_EOF;
	int status = 0;

	while (!status && !signals_caught() && (len = lineread_next(in, &line, &cap, LINEREAD_MAX)) != LINEREAD_EOF) {
		if (len >= 0) {
			status = one_line(b, line, (size_t)len);
			continue;
		}
		if (len != -E2BIG)
			break;
		b->s.lineno++;
		snprintf(why, sizeof why, "line longer than %ld bytes", LINEREAD_MAX);
		refuse(b, why);
		if ((len = skip_line(in)) < 0 && len != LINEREAD_EOF)
			break;
	}
	free(line);
	if (!status && signals_caught())
		return 128 + signals_caught(); /* between lines, or it ended a read */
	if (status || len >= 0 || len == LINEREAD_EOF)
		return status;
	return report_failure("cannot read", b->file, (int)len);
}

/* The closing line of a run that refused lines or was stopped: what was checked. */
static void say_checked(const struct batch *b, int status)
{
	long n = b->done;

	if (status > 128)
		report("%s: stopped by a signal after %ld %s: %ld accepted, %ld refused", CLI_CUT_PATH(b->file),
		       n, n == 1 ? "line" : "lines", n - b->refused, b->refused);
	else if (!status && b->refused)
		report("%s: %ld of %ld %s refused", CLI_CUT_PATH(b->file), b->refused, n, n == 1 ? "line" : "lines");
}

/* ------------------------------------------------------------------ API */

int batch_check_configs(int argc, char **argv, struct config *c, batch_check *check, void *arg)
{
	struct batch b = { argc, argv, c, check, arg, c->run.check_configs, c->run.config_dir,
	                   { NULL, 0, 0, 0 }, 0, 0 };
	struct stat st;
	int status = EXIT_USAGE;
	FILE *in = strcmp(b.file, "-") == 0 ? signals_fdopen(STDIN_FILENO) : signals_fopen(b.file);

	if (!in && errno == EINTR && signals_caught())
		status = 128 + signals_caught(); /* it ended the wait for a FIFO's writer */
	else if (!in)
		report("--check-configs: cannot open '%s': %s", CLI_CUT_PATH(b.file), strerror(errno));
	else if (b.dir && (stat(b.dir, &st) != 0 || !S_ISDIR(st.st_mode)))
		report("--config-dir: '%s' is not a directory", CLI_CUT_PATH(b.dir));
	else
		status = all_lines(&b, in);
	cli_release(c);
	free(b.s.kv);
	if (in)
		fclose(in);
	if (!status && report_stdout_status() != 0)
		status = EXIT_FAILURE;
	fflush(stdout); /* stopped: what was checked so far */
	say_checked(&b, status);
	return status ? status : b.refused ? EXIT_USAGE : 0;
}
