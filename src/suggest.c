/*
 * suggest — edit distance and the nearest names of a table; see
 * include/suggest.h.
 */
#include "suggest.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

size_t suggest_distance(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t rows[3][SUGGEST_MAX_LEN + 1];

	if (alen > SUGGEST_MAX_LEN || blen > SUGGEST_MAX_LEN)
		return SIZE_MAX;
	size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
	for (size_t j = 0; j <= blen; j++)
		prev[j] = j;
	for (size_t i = 1; i <= alen; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= blen; j++) {
			size_t d = prev[j - 1] + (a[i - 1] != b[j - 1]);
			if (prev[j] + 1 < d)
				d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
		}
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[blen];
}

/* The name of row i of a table read in place. */
static const char *name_at(const char *const *names, size_t stride, size_t i)
{
	return *(const char *const *)(const void *)((const char *)names + i * stride);
}

size_t suggest_nearest(const char *word, size_t len, const char *const *names, size_t count,
                       size_t stride, size_t *best, size_t most)
{
	size_t limit = len / 3 > 2 ? len / 3 : 2, nearest = SIZE_MAX, found = 0;

	if (limit >= len)   /* a word as short as the distance is near anything */
		limit = len ? len - 1 : 0;

	for (size_t i = 0; i < count; i++) {
		const char *n = name_at(names, stride, i);
		size_t d = suggest_distance(word, len, n, strlen(n));
		if (d < nearest)
			nearest = d;
	}
	if (nearest > limit)
		return 0;
	/* nearest first: the rows at the nearest distance, then one more */
	for (size_t pass = 0; pass < 2 && nearest + pass <= limit; pass++)
		for (size_t i = 0; i < count && found < most; i++) {
			const char *n = name_at(names, stride, i);
			if (suggest_distance(word, len, n, strlen(n)) == nearest + pass)
				best[found++] = i;
		}
	return found;
}

size_t suggest_phrase(char *out, size_t outlen, const char *pre, const char *suf, const char *word, size_t len,
                      const char *const *names, size_t count, size_t stride)
{
	size_t best[3], n = suggest_nearest(word, len, names, count, stride, best, 3), at = 0;

	if (outlen)
		out[0] = '\0';
	for (size_t i = 0; i < n && at < outlen; i++) {
		int k = snprintf(out + at, outlen - at, "%s%s%s%s%s", i == 0 ? " (did you mean " : i + 1 == n ? " or " : ", ",
		                 pre, name_at(names, stride, best[i]), suf, i + 1 == n ? "?)" : "");
		at += k > 0 ? (size_t)k : 0;
	}
	return n;
}
