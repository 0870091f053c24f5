/*
 * render_int — what the files of the renderer share and nothing else sees:
 * struct renderer, the records of a boid as drawn and as a mask, and the
 * functions one file of them calls in another, bottom up: outline.c (the
 * outline, the Cairo helpers), tint.c (a boid's colour), decor.c (what is
 * drawn besides the boids), backdrop.c (the noise background), raster.c (one boid's coverage and
 * blend), bands.c (a list of boids in bands), render3d.c (the 3D pass),
 * render.c (the lifecycle and the 2D pass: it alone calls up).  Not part
 * of the API: include/render.h is.
 */
#ifndef BOIDS_RENDER_INT_H
#define BOIDS_RENDER_INT_H

#include <stddef.h>
#include <stdint.h>

#include <cairo.h>

#include "grow.h"
#include "kde.h"
#include "points.h"
#include "render.h"

#define NPTS 5                       /* points of every outline, the origin twice */
#define CIRCLE_RADIUS 4.0            /* DrawBoidSimple()'s radius */
#define MASK_GROW 2.0                /* masks hold boids this much bigger (3D's nearer ones) */

/*
 * Picture bytes in a band: it stays in a core's cache (1 MB of L2 here)
 * with the masks it draws.  A picture of up to CACHED_BYTES (640x360 is
 * 0.9 MB) stays there whole, and is drawn boid after boid: bands would
 * only add work.
 */
#define BAND_BYTES ((size_t)256 << 10)
#define CACHED_BYTES ((size_t)1 << 20)
#define BAND_BOID_MAX 128            /* pixels: bigger boids are drawn boid after boid (bandable()) */
#define ARENA_MAX ((size_t)64 << 20) /* bytes of masks held from one band to the next */
/* boids placed and handed to render_draw_run() at a time (2D in index order, 3D
 * back to front): a list drawn part after part, in order, gives every
 * pixel the same blends in the same order, and a renderer holds a part's
 * records, not the flock's (a million boids held whole: 860 MB peak for a
 * run that needs 420) */
#define DRAW_PART ((size_t)1 << 16)

/* A thing to draw at a depth (3D): sorted back to front, then by index. */
struct depth_key {
	double depth;
	size_t i;
};

/*
 * One boid as it is drawn, by either path: where, turned how far, how big,
 * in which colour.  The 2D pass places boids straight from the view
 * (place_flat()); the 3D pass from their projection (place_3d()).
 */
struct placed {
	double x, y;                 /* centre, field units (the canvas is scaled) */
	double angle;                /* cairo_rotate() angle, radians (circles: none) */
	double size;                 /* outline scale (circles: radius / CIRCLE_RADIUS) */
	uint32_t rgb;                /* 0xRRGGBB */
	double alpha;                /* --draw auto's blend: the outline's opacity, (0, 1] (else 1) */
	int predator;                /* fast: which flattened outline */
	size_t i;                    /* the boid's index in the view (its tail) */
};

/* One boid's coverage: w x h bytes (0..255) whose top-left is pixel (ox, oy). */
struct boid_mask {
	int ox, oy, w, h;
	uint32_t pixel;              /* 0xffRRGGBB */
	int band0, band1;            /* the bands its rows may touch; band0 < 0: not drawn */
	int made;                    /* 0 not yet; 1 made (held in arena[band0 & 1] at `at` when it
	                              * goes on into band1); -1 nothing to draw */
	size_t at;
};

/*
 * A run of placed boids drawn in bands (bands_draw()): each boid's mask is
 * made once, in the first band it touches, and blended band by band, so
 * the picture's rows are touched a band at a time while they sit in the
 * cache.  A band is taller than the run's biggest boid, so a mask lives
 * two bands at most: arena[b & 1] holds the masks made in band b that go
 * on into band b + 1; the others are blended from the renderer's one-boid
 * buffer at once.  Everything is kept from run to run and frame to frame.
 */
struct bands {
	struct boid_mask *mask;      /* per boid of the run */
	size_t mask_cap;
	size_t *list;                /* the run's places, band by band, each band in drawing order */
	size_t list_cap;
	size_t *start;               /* band b's entries: list[start[b] .. start[b + 1]) */
	size_t *held;                /* per band: masks made there that go on into the next
	                              * (in start[]'s block, after it) */
	size_t band_cap;             /* room in start[]'s block: 2 nbands + 1 */
	unsigned char *arena[2];
	size_t arena_cap[2];
	int rows;                    /* picture rows a band (this run's) */
	int nbands;
};

/* A flattened outline in boid units: npts points, closed (last to first). */
struct flat_outline {
	double *pts;                 /* x0 y0 x1 y1 ... */
	int npts;
	double size;                 /* the boid size it was flattened for */
};

/*
 * A renderer, its fields grouped by the file that uses them (all zero from
 * calloc() until set up; render_free() frees every one).
 */
#define RENDER_CMAP 4096 /* --color-by's map, sampled: heading steps of 0.09 degrees */

struct renderer {
	/* the picture (render.c) and its outline (outline.c) */
	struct render_params p;      /* as given to render_new(), validated */
	double scale;                /* this frame's pixels per field unit: p.scale, or its window's */
	double offset[2];            /* where this frame puts the field's origin, pixels */
	double span;                 /* the outline's longer side, outline units (--draw auto) */
	int (*watch)(void *arg);     /* render_watch()'s, or NULL */
	void *watch_arg;
	int stopped;                 /* the watch stopped this frame */
	enum render_color_by tint;   /* what a boid's colour says: --color-by's, heading for the
	                              * density look's darts (render_tint_setup()) */
	uint32_t *cmap;              /* heading or speed: RENDER_CMAP colours, or NULL */
	double speed_lo, speed_hi;   /* --color-by speed: this frame's slowest and fastest boid */
	unsigned char *data;         /* the surface's pixels */
	int stride;
	cairo_surface_t *surface;    /* ARGB32, p.width x p.height */
	void *mem;                   /* its pixels when we allocated them (make_surface()) */
	cairo_t *cr;                 /* fill rule and antialias set once */
	int curved;                  /* segments are cubic Béziers, else lines */
	int nseg;                    /* segments after the start point */
	double start[2];             /* first point of the outline */
	double seg[NPTS][6];         /* per segment c1, c2, end (lines: end only) */
	double reach;                /* outline's farthest point from the centre, outline units */
	struct placed *list;         /* the boids as drawn, in drawing order (list_cap) */
	size_t list_cap;

	/* the noise background (backdrop.c) */
	cairo_surface_t *backdrop;   /* RENDER_BG_NOISE: the background, made once */

	/* one boid's coverage, by Cairo or the fast fill (raster.c) */
	int fast;                    /* RENDER_DRAW_FAST applies: own coverage fill */
	double mask_size;            /* the biggest outline scale a mask holds (0: no masks) */
	cairo_surface_t *msurf;      /* exact: A8, acc_w x acc_h, Cairo's coverage of one boid */
	cairo_t *mcr;
	struct flat_outline flat[2]; /* fast: boids', predators' */
	float *acc;                  /* fast: accumulation buffer, acc_w x acc_h at most, all 0
	                              * between boids */
	int acc_w, acc_h;            /* the side of the biggest mask (mask_size) */
	double *dev;                 /* fast: one boid's outline in device pixels */
	int *rowspan;                /* fast: per row the first and last cell given area */
	unsigned char *one;          /* one boid's mask, blended at once (render_fast_boid_now(), bands_draw()) */

	/* drawing in bands (bands.c) */
	int masks;                   /* boids may be drawn as masks in bands (render_masks_setup()) */
	unsigned char *bg_row;       /* bands: a row of the flat background */
	struct bands bands;          /* bands: the run drawn band by band (bands_draw()) */

	/* 3D (render3d.c) */
	struct placed *placed;       /* 3D: every boid as drawn, by index (cap) */
	struct depth_key *order;     /* 3D: the boids in front of the camera, back to front (cap) */
	double *front;               /* 3D: their depths, in index order (cap): the fog's statistics */
	size_t cap;
	double *trail_uv;            /* 3D: the trail's projected points, u then v (trail_cap each) */
	size_t trail_cap;
	struct depth_key *spheres;   /* 3D: the obstacles in front of the camera, back to front */

	/* --draw points, auto's points, density (render.c, render3d.c, density.c) */
	struct points pts;           /* the coverage sums (points.h); auto: made when first needed */
	struct kde kde;              /* density: the points with their directions, smoothed (kde.h) */
	uint32_t *dhue;              /* density: the colour of a mean heading, HUE_N x HUE_N */
	unsigned char *dtone;        /* density: the tone of a coverage class, for the bounds below */
	double *dinv;                /* density: per coverage class, its direction sums to table steps */
	double dtone_lo, dtone_hi;
	double dscale;               /* density: this frame's render_frame_scale() (render_density_begin()) */
};

/* Whether the frame is to stop here (render_watch()): asks the watch once, remembers a yes. */
static inline int render_stopping(struct renderer *r)
{
	if (!r->stopped && r->watch && r->watch(r->watch_arg))
		r->stopped = 1;
	return r->stopped;
}

/* ---- outline.c: the outline, the Cairo helpers */

/* Sets r's outline (start, seg, nseg, curved, reach) from r->p's shape. */
void render_build_outline(struct renderer *r);
/* Appends the boid outline (outline units) to cr's path, closed. */
void render_append_outline(const struct renderer *r, cairo_t *cr);
/* A Cairo status as 0, -EINVAL (a size beyond Cairo's) or -ENOMEM. */
int render_cairo_error_code(cairo_status_t st);
cairo_antialias_t render_cairo_aa(enum render_antialias aa);
/* Sets cr's source to the opaque colour 0xRRGGBB. */
void render_set_color(cairo_t *cr, uint32_t rgb);
/* Both finite and within 1e9: safe to hand to Cairo. */
int render_finite2(double x, double y);

/* ---- decor.c: what is drawn besides the boids */

void render_draw_obstacles(struct renderer *r);
void render_draw_trails(struct renderer *r, const struct render_view *v, const double *tx, const double *ty,
                        double width);
void render_draw_tail(struct renderer *r, const struct render_view *v, const double *tx, const double *ty,
                      size_t i, uint32_t rgb);
void render_draw_ranges_at(struct renderer *r, double x, double y, double angle, double size);
/* The ranges around the last boid of a 2D view. */
void render_draw_ranges(struct renderer *r, const struct render_view *v);
void render_draw_target(struct renderer *r, double x, double y);
void render_paint_background(struct renderer *r);
/* With a window (v->window.set), the field's edges: a 1-pixel line round [0, box[0]] x [0, box[1]]. */
void render_draw_walls(struct renderer *r, const struct render_view *v);
/* The lines of a 3D box and a window's walls: the background half way to white. */
uint32_t render_line_rgb(const struct renderer *r);

/* ---- backdrop.c: the noise background */

/* Makes r->backdrop from r->p (RENDER_BG_NOISE).  0, or a render_cairo_error_code(). */
int render_make_backdrop(struct renderer *r);

/* ---- raster.c: one boid's coverage (Cairo's masks, the fast fill) and its blend */

/* The boid's reach on the picture, pixels; the side of a square that holds its mask. */
double render_boid_reach(const struct renderer *r, double size);
double render_mask_side(const struct renderer *r, double size);
/* Sets up the masks and the fast fill for filled, antialiased boids at r->scale.  0, -ENOMEM, ... */
int render_masks_setup(struct renderer *r);
/* Frees what render_masks_setup() made (before a new scale): r is as before it. */
void render_masks_release(struct renderer *r);
/* Blends mask mk (bytes m) into picture rows [y0, y1). */
void render_mask_blend(struct renderer *r, const struct boid_mask *mk, const unsigned char *m, int y0, int y1);

/* Boid b by Cairo into the picture; *color: the source set now (-1 none). */
void render_cairo_boid(struct renderer *r, const struct placed *b, long *color);
/* Boid b's mask into mk and out, by Cairo or the fast fill.  0, or -1 when off the picture. */
int render_cairo_mask_at(struct renderer *r, const struct placed *b, const cairo_matrix_t *base,
                         struct boid_mask *mk, unsigned char *out);
int render_fast_boid_at(struct renderer *r, const struct placed *b, const cairo_matrix_t *base,
                        struct boid_mask *mk, unsigned char *out);
/* Boid b by the fast fill, straight into the picture. */
void render_fast_boid_now(struct renderer *r, const struct placed *b, const cairo_matrix_t *base);
/* Is boid b's outline on the picture? */
int render_on_picture(const struct renderer *r, const struct placed *b);

/* ---- lod.c: --draw auto's level of detail */

/* The outline's opacity for a boid of outline scale `size` at this frame's scale: 1 at
 * RENDER_LOD_DART pixels and more (and in every mode but auto and density), 0 under
 * RENDER_LOD_POINT. */
double render_lod_alpha(const struct renderer *r, double size);
/* The weight of the point drawn under an outline of opacity a: (1 - a) of a whole one. */
unsigned render_lod_weight(double alpha);
/* Auto's points: r->pts made (with colours under --color-by) if it is not yet.  0 or -ENOMEM. */
int render_lod_points(struct renderer *r);
/* The points added so far onto the picture, each pixel toward its colour (boid_color, or its
 * points' mean under --color-by); the sums left 0. */
void render_lod_compose(struct renderer *r);

/* ---- tint.c: a boid's colour (a leaf: it calls no other file of the renderer) */

/* r->tint, and for heading or speed r->cmap, RENDER_CMAP colours sampled from the map.  0 or -ENOMEM. */
int render_tint_setup(struct renderer *r);
/* Boid i's colour as --color-by says (before 3D's fog). */
uint32_t render_boid_rgb(const struct renderer *r, const struct render_view *v, size_t i, int predator);
/* atan2(y, x) within 1e-9 rad, without libm (millions of points a frame). */
double render_quick_atan2(double y, double x);
/* The colour of point i for points_plane_rgb(): arg a struct render_tinted. */
struct render_tinted {
	const struct renderer *r;
	const struct render_view *v;
};
uint32_t render_point_rgb(const void *arg, size_t i);

/* ---- bands.c: a list of placed boids drawn boid after boid or in bands */

/* Draws list[0 .. n), placed boids in drawing order (tx, ty: tails; *paint: background pending). */
void render_draw_run(struct renderer *r, const struct render_view *v, const struct placed *list, size_t n,
                     const cairo_matrix_t *base, const double *tx, const double *ty, int *paint);

/* ---- density.c: --draw density */

/* The accumulator with its heading sums and the colour table.  0 or -ENOMEM. */
int render_density_setup(struct renderer *r);
/* A density image begins: room for n points, the kernel for boids drawn at `scale` pixels a
 * field unit and the model's radius at `radius_scale` (2D: both the frame's scale; 3D: at the
 * camera's reference depth).  0 or -ENOMEM. */
int render_density_begin(struct renderer *r, double scale, double radius_scale, size_t n);
/* The 2D image under the field's matrix, before any outline: the boids (np .. n) of opacity
 * ab < 1 added with weight 1 - ab, composed, the predators of opacity ap < 1 over them as
 * points of weight 1 - ap (measure: only the frame's bounds into it, nothing drawn).
 * 0 or -ENOMEM. */
int render_density_2d(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base, double ab,
                      double ap, size_t np, double *measure);
/* How far from the picture, field units, a boid still adds to the image at `scale` pixels a
 * field unit (2D): the kernel's half-width and the pixel its point and the kernel's grid add. */
double render_density_reach(const struct renderer *r, double scale);
/* The same in pixels, for boids drawn at `scale` pixels a field unit and the radius at radius_scale. */
double render_density_reach_px(const struct renderer *r, double scale, double radius_scale);
/* Adds a point of direction dir (kde_direction()) and weight q at (u, v), after render_density_begin(). */
void render_density_add(struct renderer *r, double u, double v, uint32_t dir, unsigned q);
/* The points added, smoothed and composed by the clip's bounds (or measured into `measure`). */
void render_density_finish(struct renderer *r, const struct render_view *v, double *measure);

/* ---- render3d.c */

/* render_frame_scale() of a 3D frame: pixels a field unit at the camera's reference depth. */
double render_3d_scale(const struct renderer *r, const struct render_view *v);

/* The 3D pass of render_frame().  0 or -ENOMEM. */
int render_draw_3d(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base, int *paint);
/* --draw points or density in 3D, over the painted background (r->pts all 0): the floor,
 * the box's edges and the spheres back to front, then the points through the camera (points:
 * the fog their weight), the predators over them, the target.  measure: density's bounds
 * of the frame into it, nothing drawn.  0 or -ENOMEM. */
int render_points_3d(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base, double *measure);

#endif
