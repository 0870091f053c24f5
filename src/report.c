/*
 * report — messages and exit statuses; see include/report.h.
 */
#include "report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

static int json; /* --progress json: every line one JSON object */

void report_json(int on)
{
	json = on;
}

int report_is_json(void)
{
	return json;
}

void report_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n = utf8_len(p);
		if (n == 0) { /* not UTF-8 (a Latin-1 name): the replacement character */
			fputs("\\ufffd", f);
			p++;
		} else if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p++);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p++);
		} else {
			fwrite(p, 1, n, f);
			p += n;
		}
	}
	fputc('"', f);
}

static const char *context; /* report_context() */

void report_context(const char *where)
{
	context = where;
}

static void vsay(const char *event, const char *fmt, va_list ap)
{
	char msg[1024];
	int note = strcmp(event, "warning") == 0 && !json;
	int n = snprintf(msg, sizeof(msg), "%s%s%s", note ? "note: " : "", context ? context : "", context ? ": " : "");

	if (n < 0 || (size_t)n >= sizeof(msg))
		n = 0;
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	if (json) {
		flockfile(stderr); /* one line, whole: a library's message may come from a drawing thread */
		fprintf(stderr, "{\"event\":\"%s\",\"message\":", event);
		report_json_string(stderr, msg);
		fputs("}\n", stderr);
		funlockfile(stderr);
		return;
	}
	for (char *c = msg; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	fprintf(stderr, "boids: %s\n", msg);
}

void report(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("error", fmt, ap);
	va_end(ap);
}

void report_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("warning", fmt, ap);
	va_end(ap);
}

void report_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("info", fmt, ap);
	va_end(ap);
}

void report_end(int status, const struct report_run *run)
{
	if (!json)
		return;
	fprintf(stderr, "{\"event\":\"end\",\"status\":%d", status);
	if (run) {
		double t = run->seconds - run->warmup_seconds; /* the frames' own */
		fprintf(stderr, ",\"frames\":%ld,\"boids\":%zu,\"seconds\":%.3f,\"fps\":%.3f,\"output\":",
		        run->frames, run->boids, run->seconds, t > 0 ? (double)run->frames / t : 0.0);
		if (run->output)
			report_json_string(stderr, run->output);
		else
			fputs("null", stderr);
		fprintf(stderr, ",\"signal\":");
		if (run->signal)
			fprintf(stderr, "%d", run->signal);
		else
			fputs("null", stderr);
		fprintf(stderr, ",\"warmup_steps\":%ld,\"warmup_seconds\":%.3f", run->warmup_steps,
		        run->warmup_seconds);
	}
	fputs("}\n", stderr);
	fflush(stderr);
}

int report_fail(const struct failure *f)
{
	if (f->msg[0])
		report("%s", f->msg);
	return f->status;
}

int report_failure(const char *what, const char *path, int err)
{
	struct failure f;

	failure_cause(&f, what, path, err);
	return report_fail(&f);
}

int report_stdout_status(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		report("cannot write to standard output: %s", strerror(errno ? errno : EIO));
		return EXIT_FAILURE;
	}
	return 0;
}
