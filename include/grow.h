/*
 * grow — room in a heap array, the one way every module grows one.
 *
 * An array is a pointer to elements of `size` bytes and, for grow(), the
 * number of elements it has room for.  The caller chooses how much room a
 * growth makes (want + want / 2 amortises appends; a line reader doubles
 * up to its limit; parallel arrays take exactly what they need), so the
 * sizes asked of realloc() are the caller's, as before there was a helper.
 * On failure the array and its room are left as they were.
 */
#ifndef BOIDS_GROW_H
#define BOIDS_GROW_H

#include <stddef.h>

/*
 * Reallocates *buf (buf: the address of a pointer to elements of `size`
 * bytes) to hold exactly n elements.  Returns 0, or -ENOMEM (also when
 * n x size overflows) leaving *buf as it was.
 */
int grow_to(void *buf, size_t n, size_t size);

/*
 * Makes room for `want` elements in *buf, which has room for *cap: nothing
 * when it has it, else grow_to() `room` elements (room >= want) and *cap
 * becomes room.  Returns 0 or -ENOMEM (*buf and *cap unchanged).
 */
int grow(void *buf, size_t *cap, size_t want, size_t room, size_t size);

#endif
