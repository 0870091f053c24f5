/*
 * suggest — the names nearest a mistyped word, for "did you mean" messages.
 *
 * The distance is the optimal string alignment distance: one insertion,
 * deletion, substitution or swap of two neighbouring characters costs 1
 * ("wieght" is 1 from "weight").  No allocation, no output.
 */
#ifndef BOIDS_SUGGEST_H
#define BOIDS_SUGGEST_H

#include <stddef.h>

/* Longest word and name compared; longer ones are never near anything. */
#define SUGGEST_MAX_LEN 64

/*
 * The distance between a[0..alen) and b[0..blen), or SIZE_MAX when either is
 * longer than SUGGEST_MAX_LEN.
 */
size_t suggest_distance(const char *a, size_t alen, const char *b, size_t blen);

/*
 * The rows of a table whose name is nearest word[0..len): `names` points at
 * the name (a const char *) of row 0 and `stride` is the size of a row, so
 * that a table of structs is read in place.  A row is near when its distance
 * is at most a third of len (at least 2, and less than len) and at most
 * one more than the nearest row's.  Writes up to `most` row indices into best, nearest first
 * (equal distances in table order), and returns how many.
 */
size_t suggest_nearest(const char *word, size_t len, const char *const *names, size_t count,
                       size_t stride, size_t *best, size_t most);

/*
 * " (did you mean PREa, PREb or PREcSUF?)": the names suggest_nearest() finds
 * for word[0..len) (up to 3, nearest first), each between pre and suf ("--"
 * and "" for options, "{" and "}" for caption fields), into out[0..outlen);
 * "" when no name is near.  Returns how many names it wrote.  The one wording
 * of every "did you mean" boids prints.
 */
size_t suggest_phrase(char *out, size_t outlen, const char *pre, const char *suf, const char *word, size_t len,
                      const char *const *names, size_t count, size_t stride);

#endif
