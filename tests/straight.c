/* straight — see straight.h. */
#include "straight.h"

#include <criterion/criterion.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Draws v with p into a new renderer *r; returns its pixels and stride. */
static const unsigned char *drawn(struct renderer **r, const struct render_params *p,
                                  const struct render_view *v, int *stride)
{
	cr_assert_eq(render_new(r, p), 0);
	cr_assert_eq(render_frame(*r, v), 0);
	return render_pixels(*r, stride);
}

long straight_differs(const struct render_params *p, const struct render_view *v)
{
	size_t n = v->n;
	double *nan_xyz = malloc(3 * 2 * n * sizeof(double));
	struct render_params q = *p;
	struct render_view w = *v;
	struct renderer *ra, *rb;
	int sa, sb;
	long differ = 0;

	cr_assert_not_null(nan_xyz);
	for (size_t k = 0; k < 6 * n; k++)
		nan_xyz[k] = NAN;
	q.trail_style = RENDER_TRAIL_OPENGL;
	w.trail_len = 2, w.trail_x = nan_xyz, w.trail_y = nan_xyz + 2 * n;
	if (v->z)
		w.trail_z = nan_xyz + 4 * n;
	const unsigned char *a = drawn(&ra, p, v, &sa), *b = drawn(&rb, &q, &w, &sb);
	for (int y = 0; y < p->height; y++)
		for (int x = 0; x < p->width; x++)
			differ += memcmp(a + (size_t)y * (size_t)sa + 4 * (size_t)x, b + (size_t)y * (size_t)sb + 4 * (size_t)x,
			                 4) != 0;
	render_free(ra);
	render_free(rb);
	free(nan_xyz);
	return differ;
}
