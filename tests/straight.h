/*
 * straight — draws a view twice, as render_frame() draws it (in bands on a
 * picture above 1 MB) and boid after boid straight into the picture, for
 * the tests that hold the bands to every byte (tests/test_render_fast.c in
 * 2D, tests/test_render3d.c in 3D).
 */
#ifndef BOIDS_TEST_STRAIGHT_H
#define BOIDS_TEST_STRAIGHT_H

#include "render.h"

/*
 * Pixels that differ between v drawn with p and v drawn with an OpenGL
 * tail of non-finite points a boid (x, y and, for a 3D view, z): a tail
 * draws nothing, but tails come between boids, so the renderer draws boid
 * after boid, never in bands.  Fails the test when a renderer cannot be
 * made or a frame drawn.
 */
long straight_differs(const struct render_params *p, const struct render_view *v);

#endif
