/*
 * render — draws one flock state into a pixel buffer with Cairo.
 *
 * Pixel format (the buffer render_pixels() returns): Cairo's
 * CAIRO_FORMAT_ARGB32, i.e. one native-endian 32-bit word per pixel,
 * 0xAARRGGBB, alpha premultiplied; rows `stride` bytes apart.  The
 * background is opaque, so every pixel has alpha 0xFF.
 *
 * Every boid is drawn the way the C# original draws it: save, translate to
 * (x, y), rotate by the heading (GetAngle: the outline's nose (0,10) points
 * along the velocity; at rest the angle is 0), fill the outline, restore.
 * The canvas article's look strokes a triangle instead (same rotation: its
 * nose is also on +y), and --pixel-grid gdi shifts everything by half a
 * pixel so that pixel centres fall on whole coordinates, as in GDI+.
 * The field is drawn through cairo_scale(scale), so a 640x360 field at
 * scale 3 is a 1920x1080 picture of the same flock.
 *
 * A 3D flock (a view with z and vz) is drawn in perspective through a
 * camera (camera.h) looking at the box [0,W] x [0,H] x [0,D] (box[]):
 * each boid is the same 2D outline, translated to its projected point,
 * rotated to its projected heading and scaled by its size factor (the
 * same per-boid drawing, exact or fast), back to front: farther boids
 * first, boids at the same depth in index order, so nearer ones cover
 * farther ones and the bytes do not depend on threads.  Depth cues: the
 * size factor, and fog: the colour blended toward the background by
 * `fog` x the depth's place in the flock's depths (their mean -+ 2
 * standard deviations, at least 1/8 of the box's depth range), so the
 * front and back of a flock differ however tight it is.  Obstacles are
 * spheres drawn as shaded discs among the boids
 * in depth order; the target marker, trails and --show-ranges are
 * projected; optionally the box's edges and a grid on its floor (y = H).
 * Boids on or behind the camera's near plane are not drawn.
 *
 * This module knows Cairo and nothing of files, encoders or the simulation's
 * internals: it draws the plain arrays of a struct render_view.
 */
#ifndef BOIDS_RENDER_H
#define BOIDS_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "camera.h"

enum render_shape {
	RENDER_CURVE,   /* the article's points as a closed cardinal spline, tension .5, even-odd */
	RENDER_REPO,    /* the repository's smaller outline, same spline */
	RENDER_POLYGON, /* the outline's points joined by straight lines */
	RENDER_TRIANGLE, /* the canvas article's bird: nose (0,5), tail (+-3,-5) */
	RENDER_ARROW,   /* the OpenGL version's notched arrowhead, straight edges, 10 x 10 */
	RENDER_CIRCLE,  /* a disc of radius 4 (its "Direction" switch off); predators too */
	RENDER_TURTLE,  /* NetLogo's "default" turtle: a notched arrowhead, straight edges, 8.7 x 7.3 */
};

enum render_outline {
	RENDER_OUTLINE_LISTING, /* (0,0) (-5,-1) (0,10) (5,-1): the article's listing */
	RENDER_OUTLINE_FINAL,   /* (0,0) (-4,-1) (0,8) (4,-1): the final program's */
};

enum render_paint {
	RENDER_FILL,    /* fill the outline (the C# program) */
	RENDER_STROKE,  /* stroke it with a 1-unit line (the canvas article) */
};

enum render_grid {
	RENDER_GRID_CAIRO, /* pixel (i, j) centred on (i + .5, j + .5) */
	RENDER_GRID_GDI,   /* centred on (i, j), as GDI+ draws: a half-pixel shift */
};

enum render_trail_style {
	RENDER_TRAIL_FADE,   /* 1 px, round ends, alpha .6 k/len; every trail before every boid */
	RENDER_TRAIL_OPENGL, /* the OpenGL version: 2 px, flat ends, alpha (k+1)/len x .5 in
	                      * whole 255ths; each boid's trail just before the boid */
};

enum render_antialias {
	RENDER_AA_NONE,
	RENDER_AA_FAST,
	RENDER_AA_GOOD,
	RENDER_AA_BEST,
};

/*
 * How boids are drawn.  RENDER_DRAW_EXACT: Cairo fills every boid's outline
 * under its own translate/rotate, as the original (the default; the pixels
 * of boids 1.0).  RENDER_DRAW_FAST: the same outline, flattened once by
 * Cairo (its default tolerance, 0.1 pixel), is turned per boid by the same
 * matrix and filled by render.c's own coverage fill (exact area, where Cairo
 * samples 15 rows a pixel), then blended with Cairo's formula, boid after
 * boid in the same order.  Only the antialiased edge changes: the covered
 * area matches the exact path at IoU >= 0.99 (tests/test_render_fast.c).
 * It applies to filled shapes with antialiasing on; stroked outlines
 * (--paint stroke) and --antialias none are drawn by Cairo in both modes.
 * Everything else (trails, obstacles, markers) is Cairo's.  On a picture
 * bigger than a core's cache (above 1 MB: 800x600 and up) both modes draw
 * in bands of rows, a 2D flock and a 3D one alike, which changes no byte
 * in either: the same blends reach every pixel in the same order
 * (tests/test_render_fast.c, tests/test_render3d.c).
 */
enum render_draw {
	RENDER_DRAW_EXACT,
	RENDER_DRAW_FAST,
	RENDER_DRAW_POINTS, /* each boid a point one pixel in area, added up (points.h): for
	                     * millions of boids; no outlines, trails or ranges */
	RENDER_DRAW_AUTO,   /* level of detail, the default: a boid spanning RENDER_LOD_DART
	                     * pixels or more drawn exactly (RENDER_DRAW_EXACT's bytes), one
	                     * under RENDER_LOD_POINT as a point (RENDER_DRAW_POINTS's), in
	                     * between both, the outline at alpha a = (span - POINT) / (DART -
	                     * POINT) over a point of weight 1 - a: no popping in a zoom */
	RENDER_DRAW_DENSITY, /* the flock as a density image (density.c): each pixel's
	                      * brightness the log of the density of boids around it (over a
	                      * kernel 2.5 range_far wide each way) between fixed bounds,
	                      * its hue their mean heading (the heading wheel) */
};

#define RENDER_LOD_DART 3.0  /* pixels a boid spans (its outline's longer side) to be drawn as a dart */
#define RENDER_LOD_POINT 1.5 /* pixels below which it is a point alone */

/*
 * One frame's window onto the field, in field units (--view, --view-end,
 * --follow, worked out per frame by the caller).  2D: the picture shows
 * the rectangle centred on (cx, cy), w wide and as tall as the picture's
 * aspect makes it.  3D: the camera looks at (cx, cy, cz) from its mode's
 * direction, from as far as shows w field units across the picture at
 * that point.  Unset (set 0): the whole field, as the params place it.
 */
struct render_window {
	int set;
	double cx, cy, cz;          /* centre (cz: 3D only) */
	double w;                   /* width at the centre, field units, > 0 */
};

/* --color-by: what a boid's colour says (predators keep predator_color). */
enum render_color_by {
	RENDER_COLOR_ROLE,    /* boid_color and predator_color: its role (the default) */
	RENDER_COLOR_HEADING, /* colormap_heading() of its direction (2D: atan2(vy, vx);
	                       * 3D: the compass direction atan2(vz, vx), y being up-down) */
	RENDER_COLOR_SPEED,   /* colormap_speed() of its speed, from the frame's slowest
	                       * boid (0) to its fastest (1); all alike: 0.5 */
	RENDER_COLOR_SHADE,   /* boid_color in seven shades, boid i the (i mod 7)th
	                       * (colormap_netlogo_shade(): NetLogo's `yellow - 2 + random 7`) */
};

enum render_background {
	RENDER_BG_FLAT,  /* the background colour */
	RENDER_BG_NOISE, /* seeded Perlin noise around the background colour (seed 004) */
};

/* A circle in field units: an obstacle (a sphere around (x, y, z) in 3D). */
struct render_circle {
	double x, y, r;
	double z;                   /* 3D only: the centre's depth */
};

struct render_params {
	int width, height;          /* picture size in pixels (field * scale, rounded) */
	double scale;               /* pixels per field unit, > 0 */
	double offset[2];           /* 2D: where the field's origin lands, pixels (0, 0);
	                             * --field centres the field in the picture */
	double trail_width;         /* 2D: the fade trail's width, field units (1); a field
	                             * fitted into the picture (--field) makes it one picture
	                             * pixel, 1 / scale */
	enum render_shape shape;
	enum render_outline outline; /* points of RENDER_CURVE and RENDER_POLYGON */
	enum render_paint paint;
	enum render_grid grid;
	double boid_size;           /* outline scale factor, > 0 (1 = the article's size) */
	uint32_t background;        /* 0xRRGGBB */
	uint32_t boid_color;        /* 0xRRGGBB */
	uint32_t predator_color;    /* 0xRRGGBB */
	enum render_antialias antialias;
	double predator_size;       /* predators' outline relative to boid_size, > 0 */
	enum render_background background_style;
	uint64_t noise_seed;        /* RENDER_BG_NOISE: the same seed, the same clouds */
	const struct render_circle *obstacles; /* borrowed; drawn as filled circles */
	size_t obstacles_n;
	uint32_t obstacle_color;    /* 0xRRGGBB */
	uint32_t target_color;      /* 0xRRGGBB, the target marker */
	enum render_trail_style trail_style;
	int show_ranges;            /* the OpenGL version's "Ranges": around the last boid */
	double range_near, range_far; /* radii drawn, field units (separation, cohesion); range_far
	                               * also sets RENDER_DRAW_DENSITY's kernel */
	enum render_draw draw;      /* auto (the default), exact, fast, points or density */
	double density_range[2];    /* RENDER_DRAW_DENSITY's bounds, boids per picture pixel (at the
	                             * view's density_scale), 0 < lo < hi; {0, 0}: the view's own,
	                             * else the frame's */
	enum render_color_by color_by; /* boids coloured by role (default), heading or speed */

	/* 3D only (a render_view with z): the box, the camera, the depth cues */
	double box[3];              /* the flock's box: width, height, depth, field units, > 0
	                             * (default: the picture's size, depth the smaller side) */
	struct camera_setup camera; /* where the camera stands and looks (front, fov 50) */
	double fog;                 /* the flock's far side's colour this far toward the
	                             * background [0..1]; 0: no fog */
	int box_edges;              /* draw the box's 12 edges, the far ones fainter */
	int ground;                 /* draw a grid on the box's floor, y = H */
	int ground_cells;           /* that grid's cells along the floor's longer side, >= 1 */
};

/*
 * What to draw: n boids, the first `predators` of them predators; optionally
 * each boid's trail (its last trail_len positions, oldest first: position k
 * of boid i at [k * n + i]), drawn as a line fading toward the oldest, and a
 * target marker.  A trail segment longer than half the field (a wrap-around
 * jump) or with a non-finite end is left out.
 */
/* 3D: the depths of a flock's boids in front of the camera, which its fog spans (render_frustum()). */
struct render_fog {
	size_t m;               /* how many are in front */
	double mean;            /* their mean depth (their sum in index order, over m) */
	double sq;              /* the sum of their squared deviations from it, in index order */
};

struct render_view {
	size_t n;
	size_t predators;
	const double *x, *y;    /* positions, field units */
	const double *vx, *vy;  /* velocities: give the heading */
	const double *z, *vz;   /* 3D: depth and its velocity; NULL for a 2D flock */
	size_t trail_len;       /* positions per boid in trail_x/y, 0 for none */
	const double *trail_x, *trail_y;
	const double *trail_z;  /* 3D: the trail positions' depth, as trail_x */
	int has_target;         /* draw a marker at (target_x, target_y) */
	double target_x, target_y;
	double target_z;        /* 3D: the target's depth */
	long frame;             /* the frame's number: the orbit camera's angle (3D) */
	struct render_window window; /* the part of the field shown; unset: all of it */
	int has_speed_range;    /* --color-by speed: the range below is the whole flock's (a view
	                         * holding part of it); else the range of these n boids */
	double speed_lo, speed_hi;
	double density[2];      /* RENDER_DRAW_DENSITY: the clip's bounds (render_density_bounds()),
	                         * used when the params give none; {0, 0}: this frame's own */
	int has_fog;            /* 3D: fog below is the whole flock's (a view holding part of it); else
	                         * these n boids' own */
	struct render_fog fog;
	double density_scale;   /* the scale those bounds (or the params') are for: the clip's first
	                         * frame's render_frame_scale(); at another scale they move by the
	                         * square of the ratio, so that a zoom keeps the field's density
	                         * looking the same; 0: as they are */
};

struct renderer;

/* Fills p with the defaults for a width x height picture: each written once,
 * in render_params_default() (src/render.c), which the command line's
 * --help, --print-config and the man page show (in 3D: a box the picture's
 * size and as deep as its smaller side, the front camera, no obstacles). */
void render_params_default(struct render_params *p, int width, int height);

/*
 * Does drawing with p read the boids' velocities?  A shape turns along its
 * heading, and --color-by heading or speed colours by them; points
 * coloured by role (--draw points) read positions only, so a frame's copy
 * can leave the velocities out.  1 or 0.
 */
int render_needs_velocities(const struct render_params *p);

/* Creates a renderer with its own surface.  Returns 0, -EINVAL or -ENOMEM. */
int render_new(struct renderer **out, const struct render_params *p);

/* Draws the view into the renderer's surface (in perspective when v->z is
 * set; then v->vz must be too).  Returns 0, -ENOMEM, or -EINTR when the
 * watch (below) stopped it: then the pixels are no frame. */
int render_frame(struct renderer *r, const struct render_view *v);

/*
 * Lets a caller stop a long frame in its middle (the stroke after stroke
 * of a big flock's trails): watch(arg) is asked between strokes, and when
 * it returns nonzero the frame ends there and render_frame() returns
 * -EINTR.  watch NULL: never stopped (the default).
 */
void render_watch(struct renderer *r, int (*watch)(void *arg), void *arg);

/* The surface's pixels (see the pixel format above) and its stride in bytes. */
const unsigned char *render_pixels(const struct renderer *r, int *stride);

/* --color-by speed: the slowest and the fastest boid of v (predators aside, finite speeds). */
void render_speed_range(const struct render_view *v, double *lo, double *hi);

/* Heading of a velocity in radians for cairo_rotate(), from GetAngle(). */
double render_heading(double vx, double vy);

/*
 * The rectangle of the field a frame of window w shows (unset: the whole
 * picture as the params place the field), widened on every side by the
 * reach of the biggest boid (its outline, stroke and antialiased fringe)
 * and, under RENDER_DRAW_DENSITY, of the density's kernel:
 * rect = { x0, y0, x1, y1 }, field units.  A boid outside it leaves no
 * pixel on the picture, in any drawing mode.  2D.
 */
void render_window_rect(const struct renderer *r, const struct render_window *w, double rect[4]);

/*
 * 3D: which boids of v (a whole flock: v->has_fog unset) can leave a
 * pixel on its frame, the others being left out of it (a frustum cull):
 * keep[i] = 1 for a boid in front of the camera whose projection lies
 * within its reach of the picture (its outline's, at its size there; a
 * point's; and under RENDER_DRAW_DENSITY the kernel's), and for boid
 * `also` when it is below v->n (SIZE_MAX: none), else 0; and *fog, the
 * fog's statistics over every boid in front, as the frame of all of them
 * computes them, for a view of the kept ones to carry (has_fog).  depth:
 * room for v->n doubles.  Returns how many are kept.
 */
size_t render_frustum(const struct renderer *r, const struct render_view *v, size_t also, unsigned char *keep,
                      double *depth, struct render_fog *fog);

/*
 * Pixels a field unit at the frame's focus: 2D the frame's scale (its
 * window's, else the params'), 3D at the depth the camera looks at (the
 * box's centre, or the window's point).
 */
double render_frame_scale(const struct renderer *r, const struct render_view *v);

/*
 * RENDER_DRAW_DENSITY's bounds as this view would fix them for a clip
 * (the first frame's: see src/density.c), in boids per picture pixel, into
 * out[0] < out[1].  Uses r's accumulator, which it leaves clear; r must be
 * a density renderer.  Returns 0, or -EINVAL when r is not one.
 */
int render_density_bounds(struct renderer *r, const struct render_view *v, double out[2]);

/* Frees the renderer; render_free(NULL) does nothing. */
void render_free(struct renderer *r);

#endif
