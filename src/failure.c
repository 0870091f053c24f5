/*
 * failure — a status and its message on their way to main; see include/failure.h.
 */
#include "failure.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "cli.h"
#include "signals.h"
#include "video.h"

static int vset(struct failure *f, int status, const char *fmt, va_list ap)
{
	f->status = status;
	vsnprintf(f->msg, sizeof f->msg, fmt, ap);
	return status;
}

int failure_set(struct failure *f, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(f, status, fmt, ap);
	va_end(ap);
	return status;
}

int failure_usage(struct failure *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(f, EXIT_USAGE, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int failure_runtime(struct failure *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(f, EXIT_FAILURE, fmt, ap);
	va_end(ap);
	return EXIT_FAILURE;
}

int failure_cause(struct failure *f, const char *what, const char *path, int err)
{
	char buf[128];

	if (err == -EINTR && signals_stop()) /* a signal ended a wait (a FIFO's open): not a failure to tell */
		return failure_set(f, EXIT_FAILURE, "%s", "");
	if (err == -ESTALE)
		return failure_runtime(f, "%s '%s': its temporary file was replaced by someone else; nothing written",
		                       what, path);
	video_strerror(err, buf, sizeof(buf));
	return failure_runtime(f, "%s '%s': %s", what, CLI_CUT_PATH(path), buf);
}

int failure_stop(struct failure *f, int sig)
{
	return failure_set(f, 128 + sig, "%s", "");
}
