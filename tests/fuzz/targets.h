/*
 * Fuzz targets: one function per parser that reads what a user or a file
 * hands to boids.  Each takes arbitrary bytes, runs the parser, and checks
 * what a user would notice if it broke (ranges of accepted settings, one-line
 * messages, round trips through the writer); a violated invariant calls
 * abort().  Each returns 0.
 *
 * The same functions serve libFuzzer (tests/fuzz/fuzz_main.c, `make fuzz`)
 * and the corpus replay in the test suite (tests/test_fuzz_corpus.c).  See
 * docs/FUZZING.md for the invariants in full.
 */
#ifndef BOIDS_FUZZ_TARGETS_H
#define BOIDS_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

/* Command line: data split on NUL bytes into argv[1..] (at most 64). */
int fuzz_cli(const uint8_t *data, size_t size);

/* Config file: data is the file given to --config. */
int fuzz_config(const uint8_t *data, size_t size);

/* Colour: data (up to its first NUL) is the string given to color_parse. */
int fuzz_color(const uint8_t *data, size_t size);

/* Output pattern: data (up to its first NUL) is the PNG pattern. */
int fuzz_framename(const uint8_t *data, size_t size);

/* Trajectory CSV: data is the file given to --init. */
int fuzz_traj(const uint8_t *data, size_t size);

#endif
