/*
 * tween — frames between steps; see include/tween.h.
 */
#include "tween.h"

#include <math.h>

void tween_at(long k, long num, long den, long *step, long *part)
{
	__extension__ unsigned __int128 s = (unsigned __int128)k * (unsigned long)num; /* no overflow */

	*step = (long)(s / (unsigned long)den);
	*part = (long)(s % (unsigned long)den);
}

void tween_lerp(double *out, const double *a, const double *b, size_t n, double t, double span)
{
	if (!(span > 0)) {
		for (size_t i = 0; i < n; i++)
			out[i] = a[i] + t * (b[i] - a[i]);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		double d = b[i] - a[i];
		if (fabs(d) > span / 2) /* it wrapped: the short way, across the edge */
			d -= copysign(span, d);
		double x = a[i] + t * d;
		out[i] = x < 0 ? x + span : x > span ? x - span : x;
	}
}
