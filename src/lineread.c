/*
 * lineread — bounded line reader; see include/lineread.h.
 */
#include "lineread.h"

#include <errno.h>
#include <stdlib.h>

/* Makes room for len + 2 bytes (one more character and the NUL). */
static int grow(char **buf, size_t *cap, size_t len, size_t max)
{
	if (len + 2 <= *cap)
		return 0;
	size_t n = *cap ? 2 * *cap : 128;
	if (n > max + 2)
		n = max + 2;
	char *p = realloc(*buf, n);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = n;
	return 0;
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
		if ((err = grow(buf, cap, len, max)) != 0)
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
	if (!*buf && grow(buf, cap, 0, max) != 0)
		return -ENOMEM;
	(*buf)[len] = 0;
	return (ssize_t)len;
}
