/*
 * framename — validate and expand "%05d"-style frame patterns by hand;
 * see include/framename.h.
 */
#include "framename.h"

#include <errno.h>
#include <limits.h>
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

/*
 * The pattern's parts: the literal text before and after the field (each
 * `%%` made one '%') into pre and post, and the field's width (0 for %d).
 * Returns 0, -EINVAL or -ENAMETOOLONG.
 */
static int parts(const char *pattern, char *pre, char *post, size_t len, int *width, long *at)
{
	char *out = pre;
	size_t n = 0;

	if (framename_check(pattern, NULL, 0) != 0)
		return -EINVAL;
	*width = 0;
	for (const char *p = pattern; *p; p++) {
		if (*p == '%' && p[1] == '%') {
			p++;
		} else if (*p == '%') {
			*at = p - pattern;
			for (p++; *p != 'd'; p++)
				*width = *width * 10 + (*p - '0'); /* "0N": the leading 0 adds nothing */
			out[n] = 0;
			out = post;
			n = 0;
			continue;
		}
		if (n + 1 >= len)
			return -ENAMETOOLONG;
		out[n++] = *p;
	}
	out[n] = 0;
	return 0;
}

long framename_field(const char *pattern)
{
	char pre[4096], post[4096];
	int width;
	long at = -1;

	return parts(pattern, pre, post, sizeof(pre), &width, &at) == 0 ? at : -1;
}

int framename_match(const char *pattern, const char *name, long *number)
{
	char pre[4096], post[4096];
	int width;
	long at;

	if (parts(pattern, pre, post, sizeof(pre), &width, &at) != 0)
		return 0;
	size_t a = strlen(pre), b = strlen(post), n = strlen(name);
	if (n < a + b + 1 || memcmp(name, pre, a) != 0 || memcmp(name + n - b, post, b) != 0)
		return 0;
	const char *d = name + a;
	size_t digits = n - a - b;
	long v = 0;
	for (size_t i = 0; i < digits; i++) {
		if (d[i] < '0' || d[i] > '9' || v > (LONG_MAX - 9) / 10)
			return 0;
		v = v * 10 + (d[i] - '0');
	}
	/* printf writes no leading zero beyond the width: "%d" of 7 is never "07" */
	if (digits > (size_t)(width > 1 ? width : 1) && d[0] == '0')
		return 0;
	if (digits < (size_t)width)
		return 0;
	*number = v;
	return 1;
}

int framename_canonical(char *buf, size_t len, const char *pattern)
{
	char pre[4096], post[4096];
	int width;
	long at;
	size_t n = 0;
	int err = parts(pattern, pre, post, sizeof(pre), &width, &at);

	if (err)
		return err;
	for (int half = 0; half < 2; half++) {
		for (const char *p = half ? post : pre; *p; p++) {
			if (n + 3 >= len)
				return -ENAMETOOLONG;
			buf[n++] = *p;
			if (*p == '%')
				buf[n++] = '%';
		}
		if (!half) {
			if (n + 3 >= len)
				return -ENAMETOOLONG;
			memcpy(buf + n, "%d", 2);
			n += 2;
		}
	}
	buf[n] = 0;
	return 0;
}
