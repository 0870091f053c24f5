/*
 * report — messages and exit statuses; see include/report.h.
 */
#include "report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "signals.h"
#include "video.h"

static const char *context; /* report_context() */

void report_context(const char *where)
{
	context = where;
}

static void vreport(const char *fmt, va_list ap)
{
	char msg[1024];
	int n = context ? snprintf(msg, sizeof(msg), "%s: ", context) : 0;

	if (n < 0 || (size_t)n >= sizeof(msg))
		n = 0;
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	for (char *c = msg; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	fprintf(stderr, "boids: %s\n", msg);
}

void report(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
}

void report_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
	exit(EXIT_USAGE);
}

int report_failure(const char *what, const char *path, int err)
{
	char buf[128];

	if (err == -EINTR && signals_caught())
		return EXIT_FAILURE; /* a signal ended a wait (a FIFO's open): not a failure to report */
	if (err == -ESTALE) {
		report("%s '%s': its temporary file was replaced by someone else; nothing written",
		       what, path);
		return EXIT_FAILURE;
	}
	video_strerror(err, buf, sizeof(buf));
	report("%s '%s': %s", what, CLI_CUT_PATH(path), buf);
	return EXIT_FAILURE;
}

int report_stdout_status(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		report("cannot write to standard output: %s", strerror(errno ? errno : EIO));
		return EXIT_FAILURE;
	}
	return 0;
}
