/*
 * framename — validate and expand "%05d"-style frame patterns by hand;
 * see include/framename.h.
 */
#include "framename.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/*
 * Walks the pattern once.  With buf == NULL only validates; otherwise also
 * writes the expansion.  Returns 0, -EINVAL or -ENAMETOOLONG.
 */
static int walk(const char *p, char *buf, size_t len, long number, char *why, size_t whylen)
{
	size_t out = 0;
	int fields = 0;

#define EMIT(ch) do { if (buf) { if (out + 1 >= len) return -ENAMETOOLONG; buf[out] = (ch); } out++; } while (0)
	for (; *p; p++) {
		if (*p != '%') {
			EMIT(*p);
			continue;
		}
		p++;
		if (*p == '%') {
			EMIT('%');
			continue;
		}
		int width = 0;
		if (*p == '0') {
			p++;
			if (*p < '1' || *p > '9')
				goto bad;
			while (*p >= '0' && *p <= '9') {
				width = width * 10 + (*p - '0');
				if (width > 10)
					goto bad;
				p++;
			}
		}
		if (*p != 'd')
			goto bad;
		if (++fields > 1) {
			if (why)
				snprintf(why, whylen, "more than one %%d field");
			return -EINVAL;
		}
		if (buf) {
			char digits[32];
			int n = snprintf(digits, sizeof(digits), "%0*ld", width, number);
			for (int i = 0; i < n; i++)
				EMIT(digits[i]);
		}
	}
#undef EMIT
	if (fields == 0) {
		if (why)
			snprintf(why, whylen, "no frame number field such as %%05d");
		return -EINVAL;
	}
	if (buf)
		buf[out] = 0;
	return 0;
bad:
	if (why)
		snprintf(why, whylen, "only %%d, %%0Nd (N up to 10) and %%%% may follow a %%");
	return -EINVAL;
}

int framename_check(const char *pattern, char *why, size_t whylen)
{
	if (why && whylen)
		why[0] = 0;
	return walk(pattern, NULL, 0, 0, why, whylen);
}

int framename_format(char *buf, size_t len, const char *pattern, long number)
{
	if (number < 0 || len == 0)
		return -EINVAL;
	return walk(pattern, buf, len, number, NULL, 0);
}
