/*
 * color — parsing colours as users type them.
 *
 * Accepted: #RRGGBB, #RGB (each digit doubled), and CSS colour names,
 * case-insensitive (at least those the original program uses: white,
 * lightgreen; see color.c for the list).  Colours are 0xRRGGBB.
 */
#ifndef BOIDS_COLOR_H
#define BOIDS_COLOR_H

#include <stddef.h>
#include <stdint.h>

/* Parses s into *rgb.  Returns 0, or -EINVAL with *rgb untouched. */
int color_parse(const char *s, uint32_t *rgb);

/*
 * " (did you mean lightgreen?)": the CSS names nearest s (case-insensitive)
 * into out[0..outlen), or "" when none is near (include/suggest.h); returns
 * how many it named.
 */
size_t color_suggest(const char *s, char *out, size_t outlen);

/* Writes "#rrggbb" (8 bytes with the NUL) into buf. */
void color_format(uint32_t rgb, char buf[8]);

#endif
