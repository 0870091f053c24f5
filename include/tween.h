/*
 * tween — frames between steps: where frame k falls among the flock's
 * steps when the steps per second (--steps-per-second) are not the frames
 * per second, and the positions linearly interpolated between two steps.
 * Pure arithmetic on numbers and arrays: no flock, no drawing.
 *
 * Frame k stands at step k x num / den (num/den: steps per frame, reduced);
 * when that is a whole number the frame shows that step's state, as it is;
 * otherwise the state a fraction part/den of the way from step `step` to
 * step + 1.
 */
#ifndef BOIDS_TWEEN_H
#define BOIDS_TWEEN_H

#include <stddef.h>

/*
 * Frame k's place among the steps, for num/den steps a frame (num >= 1,
 * den >= 1): *step = floor(k num / den), *part = (k num) mod den (0: on a
 * step), exactly for any k up to 2^63 and num, den up to 2^62.
 */
void tween_at(long k, long num, long den, long *step, long *part);

/*
 * out[i] = a[i] + t (b[i] - a[i]) for i < n: the linear interpolation from
 * a (t = 0) to b (t = 1).  With span > 0 the values are coordinates on a
 * wrapping side of that length ([0, span], as the models wrap): a move of
 * more than span / 2 between a and b is taken the short way round, across
 * the edge, and the result brought back into [0, span].  out may be a.
 */
void tween_lerp(double *out, const double *a, const double *b, size_t n, double t, double span);

#endif
