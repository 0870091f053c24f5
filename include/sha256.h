/*
 * sha256 — SHA-256 (FIPS 180-4) of a buffer, for the summary's run hash
 * and for tests.  Plain C, no library.
 */
#ifndef BOIDS_SHA256_H
#define BOIDS_SHA256_H

#include <stddef.h>

/* The SHA-256 of len bytes at data, into digest. */
void sha256(const void *data, size_t len, unsigned char digest[32]);

#endif
