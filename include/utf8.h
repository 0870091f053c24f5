/*
 * utf8 — well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates,
 * nothing past U+10FFFF), for what boids shows or hands on as text: JSON
 * strings (report.c), captions (caption.c).
 *
 * Library module: no allocation, no output.
 */
#ifndef BOIDS_UTF8_H
#define BOIDS_UTF8_H

#include <stddef.h>

/* The length of the well-formed sequence at p (1 to 4), or 0 when p starts none. */
size_t utf8_len(const unsigned char *p);

/* The offset of the first byte of s that starts no well-formed sequence, or -1 when s is UTF-8. */
long utf8_invalid(const char *s);

/*
 * Copies s into out (outlen bytes, NUL-terminated), each byte that starts no
 * well-formed sequence replaced by U+FFFD, the replacement character (as a
 * decoder that replaces errors shows it); cut at a whole character.
 * Returns the bytes written.
 */
size_t utf8_repair(const char *s, char *out, size_t outlen);

#endif
