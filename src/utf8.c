/*
 * utf8 — well-formed UTF-8; see include/utf8.h.
 */
#include "utf8.h"

#include <string.h>

size_t utf8_len(const unsigned char *p)
{
	unsigned c = p[0], lo = 0x80, hi = 0xbf;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

long utf8_invalid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; p[i];) {
		size_t n = utf8_len(p + i);
		if (n == 0)
			return (long)i;
		i += n;
	}
	return -1;
}

size_t utf8_repair(const char *s, char *out, size_t outlen)
{
	static const char fffd[] = "\xef\xbf\xbd";
	const unsigned char *p = (const unsigned char *)s;
	size_t at = 0;

	if (outlen == 0)
		return 0;
	while (*p) {
		size_t n = utf8_len(p);
		const void *from = n ? (const void *)p : fffd;
		size_t k = n ? n : 3;
		if (at + k >= outlen)
			break;
		memcpy(out + at, from, k);
		at += k;
		p += n ? n : 1;
	}
	out[at] = '\0';
	return at;
}
