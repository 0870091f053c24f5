/*
 * lineread — bounded line reader; see include/lineread.h.
 */
#include "lineread.h"

#include <errno.h>
#include <stdlib.h>

#include "grow.h"

/* Makes room for len + 2 bytes (one more character and the NUL): double, up to max + 2. */
static int room(char **buf, size_t *cap, size_t len, size_t max)
{
	size_t n = *cap ? 2 * *cap : 128;

	return grow(buf, cap, len + 2, n > max + 2 ? max + 2 : n, 1);
}

ssize_t lineread_next(FILE *f, char **buf, size_t *cap, size_t max)
{
	size_t len = 0;
	int c, err = 0;

	flockfile(f);
	errno = 0;
	while ((c = getc_unlocked(f)) != EOF) {
		if (c == '\n')
			break;
		if (len == max) {
			err = -E2BIG;
			break;
		}
		if ((err = room(buf, cap, len, max)) != 0)
			break;
		(*buf)[len++] = (char)c;
	}
	if (!err && c == EOF && ferror_unlocked(f))
		err = errno ? -errno : -EIO;
	funlockfile(f);
	if (err)
		return err;
	if (c == EOF && len == 0)
		return LINEREAD_EOF;
	if (!*buf && room(buf, cap, 0, max) != 0)
		return -ENOMEM;
	(*buf)[len] = 0;
	return (ssize_t)len;
}
