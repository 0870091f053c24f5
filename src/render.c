/*
 * render — draws one flock state with Cairo; see include/render.h.
 *
 * Start at render_frame(): paint the background, scale the canvas once, then
 * for every boid save, translate, rotate by render_heading(), scale by the
 * boid size, fill the outline and restore — the canvas-transform technique
 * of the C# original rather than rotating points by hand (cairo_boid(), in
 * draw_run(); on big pictures in bands, below).
 *
 * The outline is computed once, in render_new(), as Bézier control points
 * in outline units (build_outline(): GDI+'s FillClosedCurve turned into
 * cubic segments), and replayed for each boid with cairo_move_to/curve_to,
 * so drawing a boid allocates nothing.  Boids whose position is not finite,
 * or whose outline lies entirely outside the picture, are skipped: Cairo
 * never sees a NaN or a coordinate beyond its fixed-point range.
 *
 * Speed without changing a pixel: most of a boid's cost is Cairo's scan
 * converter and the blend into the picture, whose rows the boids hit in
 * random order (cache and TLB misses on a 1080p frame); a big picture lives
 * in huge pages (make_surface()).  Prefetching the next boid's rows, reusing
 * a pre-flattened path, or setting the matrix instead of
 * save/translate/rotate/restore measured nothing, or changed pixels for
 * little (docs/PERFORMANCE.md).
 *
 * Every boid is first placed (struct placed: where, turned how far, how
 * big, which colour): a 2D boid straight from the view (place_flat()), a
 * 3D one from its projection (place_3d()).  A list of placed boids in
 * drawing order (2D: index order; 3D: back to front) is drawn by
 * draw_run(): boid after boid (cairo_boid(), or fast_boid_now()), or on a
 * picture bigger than a core's cache in bands (bands_plan(),
 * bands_draw()): each boid's coverage is made once into a small mask, in
 * the first band it touches, and every band blends the masks of the boids
 * touching it in drawing order, so each pixel gets the same blends in the
 * same order as boid after boid, while the band's rows stay in the cache.
 * The exact path's masks are Cairo's own fill (cairo_mask_at(): the same
 * path under the same matrix, on an A8 surface moved by a whole number of
 * pixels), the fast path's its own fill; both are blended as Cairo's span
 * renderer blends an opaque colour (lerp8x4()).  Tails drawn between boids
 * (--trail-style opengl) keep boid after boid; in 3D the obstacles cut the
 * list into runs, each drawn on its own between the spheres behind and in
 * front of it.
 *
 * RENDER_DRAW_FAST (fast_boid_at(), fast_cover()): the outline is flattened
 * once by Cairo at each size drawn; per boid its points go through the same
 * matrix as the exact path's and an accumulation-buffer coverage fill
 * (signed area and cover per cell, summed along the row; even-odd folds the
 * sum) computes each pixel's exact covered area.
 *
 * A 3D view (section "3D", draw_3d()): the camera (camera.c) is placed for
 * the frame, every boid projected into a struct placed, sorted back to
 * front and handed to draw_run() as a 2D list is.
 */
#include "render.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cairo.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "points.h"
#include "rng.h"

#define NPTS 5                       /* points of every outline, the origin twice */
#define SPLINE_TENSION 0.5           /* FillClosedCurve's default */

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

struct renderer {
	struct render_params p;      /* as given to render_new(), validated */
	int fast;                    /* RENDER_DRAW_FAST applies: own coverage fill */
	int masks;                   /* boids may be drawn as masks in bands (masks_setup()) */
	cairo_surface_t *msurf;      /* exact: A8, acc_w x acc_h, Cairo's coverage of one boid */
	cairo_t *mcr;
	struct flat_outline flat[2]; /* fast: boids', predators' */
	float *acc;                  /* fast: accumulation buffer, acc_w x acc_h at most, all 0
	                              * between boids */
	int acc_w, acc_h;            /* the side of the biggest mask (mask_size) */
	double *dev;                 /* fast: one boid's outline in device pixels */
	int *rowspan;                /* fast: per row the first and last cell given area */
	unsigned char *one;          /* one boid's mask, blended at once (fast_boid_now(), bands_draw()) */
	unsigned char *bg_row;       /* bands: a row of the flat background */
	struct bands bands;          /* bands: the run drawn band by band (bands_draw()) */
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
	cairo_surface_t *backdrop;   /* RENDER_BG_NOISE: the background, made once */
	double mask_size;            /* the biggest outline scale a mask holds (0: no masks) */
	struct placed *list;         /* the boids as drawn, in drawing order (list_cap) */
	size_t list_cap;
	struct placed *placed;       /* 3D: every boid as drawn, by index (cap) */
	struct depth_key *order;     /* 3D: the boids in front of the camera, back to front (cap) */
	size_t cap;
	double *trail_uv;            /* 3D: the trail's projected points, u then v (trail_cap each) */
	size_t trail_cap;
	struct depth_key *spheres;   /* 3D: the obstacles in front of the camera, back to front */
	struct points pts;           /* --draw points: the coverage sums (points.h) */
};

/* The article's outline; its nose (0,10) is the boid's front. */
static const double article_pts[NPTS][2] = {
	{ 0, 0 }, { -5, -1 }, { 0, 10 }, { 5, -1 }, { 0, 0 },
};

/* The OpenGL version's arrowhead: nose (0,8), back corners at y = -2, and
 * the notch: the back edge comes in to the origin. */
static const double arrow_pts[NPTS][2] = {
	{ 0, 0 }, { -5, -2 }, { 0, 8 }, { 5, -2 }, { 0, 0 },
};

#define CIRCLE_RADIUS 4.0            /* DrawBoidSimple()'s radius */
#define MASK_GROW 2.0                /* masks hold boids this much bigger (3D's nearer ones) */

/* The repository's later, smaller outline (the final program's). */
static const double repo_pts[NPTS][2] = {
	{ 0, 0 }, { -4, -1 }, { 0, 8 }, { 4, -1 }, { 0, 0 },
};

/*
 * The canvas article's bird, BIRD_WIDTH 10 by BIRD_HEIGHT 6 (the article
 * gives no numbers): moveTo(x + W/2, y), lineTo(x - W/2, y + H/2),
 * lineTo(x - W/2, y - H/2), closePath, with its nose turned from +x to +y
 * so that render_heading() points it along the velocity.  The last point
 * repeats the first: an empty closing edge.
 */
static const double triangle_pts[NPTS][2] = {
	{ 0, 5 }, { 3, -5 }, { -3, -5 }, { 0, 5 }, { 0, 5 },
};

/*
 * Turns the shape's points into the start point and segments of r.
 * Curves: a closed cardinal spline, as GDI+ draws it — tangent
 * Ti = (tension / 3) (P(i+1) - P(i-1)) with wrapping indices, segment
 * Pi -> Pj with controls Pi + Ti and Pj - Tj, including the closing segment
 * from the last point back to the first (tiny here: both are the origin).
 */
static void build_outline(struct renderer *r)
{
	const double (*pts)[2] = r->p.shape == RENDER_REPO ? repo_pts :
	                         r->p.shape == RENDER_TRIANGLE ? triangle_pts :
	                         r->p.shape == RENDER_ARROW ? arrow_pts :
	                         r->p.outline == RENDER_OUTLINE_FINAL ? repo_pts : article_pts;
	int n = NPTS;
	double t[NPTS][2];

	r->curved = r->p.shape == RENDER_CURVE || r->p.shape == RENDER_REPO;
	if (r->p.shape == RENDER_CIRCLE) { /* drawn with cairo_arc, no outline */
		r->curved = 0;
		r->nseg = 0;
		r->reach = CIRCLE_RADIUS;
		return;
	}
	r->start[0] = pts[0][0];
	r->start[1] = pts[0][1];
	r->reach = 0;
	if (!r->curved) {
		r->nseg = n - 1; /* close_path draws the last edge */
		for (int i = 1; i < n; i++) {
			r->seg[i - 1][4] = pts[i][0];
			r->seg[i - 1][5] = pts[i][1];
			r->reach = fmax(r->reach, hypot(pts[i][0], pts[i][1]));
		}
		return;
	}
	for (int i = 0; i < n; i++) {
		int prev = (i + n - 1) % n, next = (i + 1) % n;
		for (int k = 0; k < 2; k++)
			t[i][k] = SPLINE_TENSION / 3 * (pts[next][k] - pts[prev][k]);
	}
	r->nseg = n;
	for (int i = 0; i < n; i++) {
		int j = (i + 1) % n;
		double *s = r->seg[i];
		for (int k = 0; k < 2; k++) {
			s[k] = pts[i][k] + t[i][k];
			s[2 + k] = pts[j][k] - t[j][k];
			s[4 + k] = pts[j][k];
		}
		/* a Bézier stays inside the hull of its control points */
		for (int c = 0; c < 3; c++)
			r->reach = fmax(r->reach, hypot(s[2 * c], s[2 * c + 1]));
	}
}

static void append_outline(const struct renderer *r, cairo_t *cr)
{
	cairo_move_to(cr, r->start[0], r->start[1]);
	for (int i = 0; i < r->nseg; i++) {
		const double *s = r->seg[i];
		if (r->curved)
			cairo_curve_to(cr, s[0], s[1], s[2], s[3], s[4], s[5]);
		else
			cairo_line_to(cr, s[4], s[5]);
	}
	cairo_close_path(cr);
}

void render_params_default(struct render_params *p, int width, int height)
{
	p->width = width;
	p->height = height;
	p->scale = 1;
	p->offset[0] = p->offset[1] = 0;
	p->shape = RENDER_CURVE;
	p->outline = RENDER_OUTLINE_LISTING;
	p->paint = RENDER_FILL;
	p->grid = RENDER_GRID_CAIRO;
	p->boid_size = 1;
	p->background = 0x003366;
	p->boid_color = 0x90EE90;     /* LightGreen */
	p->predator_color = 0xFFFFFF; /* White */
	p->antialias = RENDER_AA_GOOD;
	p->predator_size = 1;
	p->background_style = RENDER_BG_FLAT;
	p->noise_seed = 1;
	p->obstacles = NULL;
	p->obstacles_n = 0;
	p->obstacle_color = 0x5a7896;
	p->target_color = 0xffcc00;
	p->trail_style = RENDER_TRAIL_FADE;
	p->show_ranges = 0;
	p->range_near = 20;
	p->range_far = 50;
	p->draw = RENDER_DRAW_EXACT;
	p->box[0] = width;
	p->box[1] = height;
	p->box[2] = width < height ? width : height;
	camera_setup_default(&p->camera);
	p->fog = 0.6;
	p->box_edges = 0;
	p->ground = 0;
}

static int params_valid(const struct render_params *p)
{
	return p->width > 0 && p->height > 0 &&
	       isfinite(p->scale) && p->scale > 0 &&
	       isfinite(p->boid_size) && p->boid_size > 0 &&
	       (p->shape == RENDER_CURVE || p->shape == RENDER_REPO ||
	        p->shape == RENDER_POLYGON || p->shape == RENDER_TRIANGLE ||
	        p->shape == RENDER_ARROW || p->shape == RENDER_CIRCLE) &&
	       (p->outline == RENDER_OUTLINE_LISTING || p->outline == RENDER_OUTLINE_FINAL) &&
	       (p->paint == RENDER_FILL || p->paint == RENDER_STROKE) &&
	       (p->grid == RENDER_GRID_CAIRO || p->grid == RENDER_GRID_GDI) &&
	       (p->trail_style == RENDER_TRAIL_FADE || p->trail_style == RENDER_TRAIL_OPENGL) &&
	       p->fog >= 0 && p->fog <= 1 && camera_check(&p->camera, p->box) == 0 &&
	       isfinite(p->range_near) && p->range_near >= 0 &&
	       isfinite(p->range_far) && p->range_far >= 0 &&
	       (p->antialias == RENDER_AA_NONE || p->antialias == RENDER_AA_FAST ||
	        p->antialias == RENDER_AA_GOOD || p->antialias == RENDER_AA_BEST) &&
	       p->background <= 0xFFFFFF && p->boid_color <= 0xFFFFFF &&
	       p->predator_color <= 0xFFFFFF &&
	       isfinite(p->predator_size) && p->predator_size > 0 &&
	       (p->background_style == RENDER_BG_FLAT || p->background_style == RENDER_BG_NOISE) &&
	       (p->obstacles_n == 0 || p->obstacles) &&
	       (p->draw == RENDER_DRAW_EXACT || p->draw == RENDER_DRAW_FAST || p->draw == RENDER_DRAW_POINTS) &&
	       p->obstacle_color <= 0xFFFFFF && p->target_color <= 0xFFFFFF;
}

/* ------------------------------------------------------- noise background */

static int cairo_error_code(cairo_status_t st);

/*
 * Perlin's improved gradient noise (2002) over a permutation shuffled from
 * the seed, three octaves.  Integer hashing and double arithmetic only, so
 * the same seed gives the same picture everywhere.
 */
struct perlin {
	unsigned char perm[512];
};

static void perlin_init(struct perlin *pn, uint64_t seed)
{
	struct rng r;

	rng_seed(&r, seed ^ 0x6e6f697365ULL); /* "noise": not the flock's draws */
	for (int i = 0; i < 256; i++)
		pn->perm[i] = (unsigned char)i;
	for (int i = 255; i > 0; i--) {
		int j = (int)(rng_next(&r) % (uint64_t)(i + 1));
		unsigned char t = pn->perm[i];
		pn->perm[i] = pn->perm[j];
		pn->perm[j] = t;
	}
	for (int i = 0; i < 256; i++)
		pn->perm[256 + i] = pn->perm[i];
}

static double fade(double t)
{
	return t * t * t * (t * (t * 6 - 15) + 10);
}

static double grad(int h, double x, double y)
{
	switch (h & 7) {
	case 0: return x + y;
	case 1: return -x + y;
	case 2: return x - y;
	case 3: return -x - y;
	case 4: return x;
	case 5: return -x;
	case 6: return y;
	default: return -y;
	}
}

/* Noise in about [-1, 1]. */
static double perlin(const struct perlin *pn, double x, double y)
{
	double fx = floor(x), fy = floor(y);
	int xi = (int)fx & 255, yi = (int)fy & 255;
	double xf = x - fx, yf = y - fy, u = fade(xf), v = fade(yf);
	const unsigned char *P = pn->perm;
	int aa = P[P[xi] + yi], ab = P[P[xi] + yi + 1];
	int ba = P[P[xi + 1] + yi], bb = P[P[xi + 1] + yi + 1];
	double x1 = grad(aa, xf, yf) + u * (grad(ba, xf - 1, yf) - grad(aa, xf, yf));
	double x2 = grad(ab, xf, yf - 1) + u * (grad(bb, xf - 1, yf - 1) - grad(ab, xf, yf - 1));
	return x1 + v * (x2 - x1);
}

/*
 * The noise background, in field units so --scale shows the same clouds:
 * features about 160 units across, the background colour darkened to 60%
 * in the valleys and lifted a quarter of the way to white on the crests.
 */
static int make_backdrop(struct renderer *r)
{
	const struct render_params *p = &r->p;
	struct perlin pn;
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, p->width, p->height);
	int err = cairo_error_code(cairo_surface_status(s));

	if (err) {
		cairo_surface_destroy(s);
		return err;
	}
	perlin_init(&pn, p->noise_seed);
	unsigned char *data = cairo_image_surface_get_data(s);
	int stride = cairo_image_surface_get_stride(s);
	double base[3] = { (p->background >> 16) & 255, (p->background >> 8) & 255, p->background & 255 };
	for (int y = 0; y < p->height; y++) {
		uint32_t *row = (uint32_t *)(void *)(data + (size_t)y * (size_t)stride);
		for (int x = 0; x < p->width; x++) {
			double fx = (x + .5) / p->scale / 160, fy = (y + .5) / p->scale / 160, n = 0;
			for (int o = 0, f = 1; o < 3; o++, f *= 2)
				n += perlin(&pn, fx * f, fy * f) / f;
			double t = fmin(1, fmax(0, .5 + .5 * n / 1.75 * 1.6)); /* 0 valley .. 1 crest */
			uint32_t px = 0xff000000u;
			for (int c = 0; c < 3; c++) {
				double dark = base[c] * .6, light = base[c] + (255 - base[c]) * .25;
				px |= (uint32_t)lround(dark + (light - dark) * t) << (16 - 8 * c);
			}
			row[x] = px;
		}
	}
	cairo_surface_mark_dirty(s);
	r->backdrop = s;
	return 0;
}

static int cairo_error_code(cairo_status_t st)
{
	switch (st) {
	case CAIRO_STATUS_SUCCESS:
		return 0;
	case CAIRO_STATUS_INVALID_SIZE:
		return -EINVAL; /* beyond Cairo's 32767 pixels */
	default:
		return -ENOMEM;
	}
}

static cairo_antialias_t cairo_aa(enum render_antialias aa)
{
	switch (aa) {
	case RENDER_AA_NONE:
		return CAIRO_ANTIALIAS_NONE;
	case RENDER_AA_FAST:
		return CAIRO_ANTIALIAS_FAST;
	case RENDER_AA_BEST:
		return CAIRO_ANTIALIAS_BEST;
	case RENDER_AA_GOOD:
	default:
		return CAIRO_ANTIALIAS_GOOD;
	}
}

/* ------------------------------------------------------------ fast drawing */

/*
 * Cairo's own flattening of the outline drawn at `size` (a circle of
 * CIRCLE_RADIUS for RENDER_CIRCLE), in boid units: flattened under the
 * device scale it will be drawn at, with Cairo's default tolerance, so the
 * polygon is as fine as the one Cairo fills in the exact path.
 */
static int flatten_outline(struct renderer *r, struct flat_outline *fo, double size)
{
	cairo_t *cr = r->cr;
	cairo_path_t *path;
	int err = 0;

	cairo_save(cr);
	cairo_identity_matrix(cr);
	cairo_scale(cr, r->p.scale * size, r->p.scale * size);
	cairo_new_path(cr);
	if (r->p.shape == RENDER_CIRCLE)
		cairo_arc(cr, 0, 0, CIRCLE_RADIUS, 0, 2 * M_PI);
	else
		append_outline(r, cr);
	path = cairo_copy_path_flat(cr);
	cairo_new_path(cr);
	cairo_restore(cr);
	err = cairo_error_code(path->status);
	if (err)
		goto fail;
	fo->pts = malloc((size_t)path->num_data * 2 * sizeof(double));
	if (!fo->pts) {
		err = -ENOMEM;
		goto fail;
	}
	fo->npts = 0;
	fo->size = size;
	for (int i = 0; i < path->num_data; i += path->data[i].header.length) {
		const cairo_path_data_t *d = &path->data[i];
		if (d->header.type == CAIRO_PATH_CLOSE_PATH)
			break; /* one closed outline; the move_to Cairo adds after it is the same point */
		if (d->header.type != CAIRO_PATH_MOVE_TO && d->header.type != CAIRO_PATH_LINE_TO)
			continue; /* a flat path has no curves */
		if (d->header.type == CAIRO_PATH_MOVE_TO && fo->npts) {
			err = -EINVAL; /* not one outline: never happens for our shapes */
			goto fail;
		}
		fo->pts[2 * fo->npts] = d[1].point.x;
		fo->pts[2 * fo->npts + 1] = d[1].point.y;
		fo->npts++;
	}
fail:
	cairo_path_destroy(path);
	return err;
}

/* How far from its centre a boid of outline scale `size` may reach on the picture, in pixels: the
 * outline's reach, a stroke's half width and the antialiased fringe. */
static double boid_reach(const struct renderer *r, double size)
{
	return (r->reach * size + 1) * r->p.scale + 1;
}

/* The side of a square buffer that holds a boid of outline scale `size` (its mask, its fill). */
static double mask_side(const struct renderer *r, double size)
{
	return 2 * (r->reach * size * r->p.scale + 2) + 4;
}

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
/* boids placed and handed to draw_run() at a time (2D in index order, 3D
 * back to front): a list drawn part after part, in order, gives every
 * pixel the same blends in the same order, and a renderer holds a part's
 * records, not the flock's (a million boids held whole: 860 MB peak for a
 * run that needs 420) */
#define DRAW_PART ((size_t)1 << 16)

/* RENDER_DRAW_FAST's own fill: the outlines flattened, an accumulation buffer side x side. */
static int fast_setup(struct renderer *r, int side)
{
	const struct render_params *p = &r->p;
	int err;

	if ((err = flatten_outline(r, &r->flat[0], p->boid_size)) != 0)
		return err;
	double psize = p->shape == RENDER_CIRCLE ? p->boid_size : p->boid_size * p->predator_size;
	if ((err = flatten_outline(r, &r->flat[1], psize)) != 0)
		return err;
	r->acc = calloc((size_t)side * (size_t)side, sizeof(float)); /* kept clear */
	r->rowspan = malloc(2 * (size_t)side * sizeof(int));
	r->dev = malloc((size_t)(r->flat[0].npts > r->flat[1].npts ? r->flat[0].npts : r->flat[1].npts) *
	                2 * sizeof(double));
	if (!r->acc || !r->rowspan || !r->dev)
		return -ENOMEM;
	r->fast = 1;
	return 0;
}

/*
 * RENDER_DRAW_EXACT's masks: an A8 surface side x side that Cairo fills
 * each boid into, moved under it by the device offset (cairo_mask_at()),
 * with the picture's fill rule and antialiasing and an opaque white source.
 */
static int cairo_masks_setup(struct renderer *r, int side)
{
	r->msurf = cairo_image_surface_create(CAIRO_FORMAT_A8, side, side);
	int err = cairo_error_code(cairo_surface_status(r->msurf));
	if (err)
		return err;
	r->mcr = cairo_create(r->msurf);
	if ((err = cairo_error_code(cairo_status(r->mcr))) != 0)
		return err;
	cairo_set_fill_rule(r->mcr, CAIRO_FILL_RULE_EVEN_ODD);
	cairo_set_antialias(r->mcr, cairo_aa(r->p.antialias));
	cairo_set_source_rgb(r->mcr, 1, 1, 1);
	return 0;
}

/*
 * Sets up, for filled, antialiased boids no bigger than 4096 pixels, masks
 * up to MASK_GROW times the biggest 2D boid (3D's nearer ones; Cairo draws
 * bigger ones straight): RENDER_DRAW_FAST's own fill and, on a picture
 * bigger than CACHED_BYTES, drawing boids as masks blended in bands
 * (bands_draw()): Cairo's A8 surface for the exact path's masks, a row of
 * the background.
 */
static int masks_setup(struct renderer *r)
{
	const struct render_params *p = &r->p;
	double big = p->shape == RENDER_CIRCLE ? p->boid_size : p->boid_size * fmax(1, p->predator_size);
	double side = mask_side(r, big);
	int err;

	if (side > 4096)
		return 0; /* a boid bigger than a picture: Cairo draws it straight */
	r->mask_size = big;
	if (mask_side(r, big * MASK_GROW) <= 4096) {
		side = mask_side(r, big * MASK_GROW);
		r->mask_size = big * MASK_GROW;
	}
	r->acc_w = r->acc_h = (int)ceil(side);
	if (p->draw == RENDER_DRAW_FAST && (err = fast_setup(r, r->acc_w)) != 0)
		return err;
	r->one = malloc((size_t)r->acc_w * (size_t)r->acc_h);
	if (!r->one)
		return -ENOMEM;
	if ((size_t)r->stride * (size_t)p->height <= CACHED_BYTES)
		return 0; /* boid after boid */
	if (p->draw == RENDER_DRAW_EXACT && (err = cairo_masks_setup(r, r->acc_w)) != 0)
		return err;
	r->bg_row = malloc(4 * (size_t)p->width);
	if (!r->bg_row)
		return -ENOMEM;
	for (int x = 0; x < p->width; x++) {
		uint32_t px = 0xff000000u | p->background;
		memcpy(r->bg_row + 4 * (size_t)x, &px, 4);
	}
	r->masks = 1;
	return 0;
}

/*
 * Adds the line (x0,y0)-(x1,y1), in buffer pixels, to the accumulation
 * buffer (w floats a row): in each row it crosses, the signed area to the
 * right of the line within each pixel it passes, and the rest of its
 * height to the next pixel, so that summing a row left to right gives each
 * pixel's covered area (the accumulation rasteriser of font-rs).  Points
 * lie in [0, w - 1) x [0, rows), so a cast floors; lo[] and hi[] widen to
 * the cells each row was given.
 */
static void acc_line(float *acc, int w, int *lo, int *hi, double x0, double y0, double x1, double y1)
{
	double dir = 1;

	if (y0 == y1)
		return;
	if (y0 > y1) {
		double t;
		t = x0, x0 = x1, x1 = t;
		t = y0, y0 = y1, y1 = t;
		dir = -1;
	}
	double dxdy = (x1 - x0) / (y1 - y0), x = x0;
	int yend = (int)y1 + ((double)(int)y1 < y1); /* ceil */
	for (int y = (int)y0; y < yend; y++) {
		float *row = acc + (size_t)y * (size_t)w;
		double dy = (y + 1 < y1 ? y + 1 : y1) - (y > y0 ? y : y0);
		double xnext = x + dxdy * dy, d = dy * dir;
		double xa = x < xnext ? x : xnext, xb = x < xnext ? xnext : x;
		int xai = (int)xa, xbi = (int)xb + ((double)(int)xb < xb);
		double xaf = xai;
		if (xai < lo[y])
			lo[y] = xai;
		if (xbi > hi[y])
			hi[y] = xbi;
		if (xbi <= xai + 1) {
			double xmf = .5 * (x + xnext) - xaf;
			row[xai] += (float)(d - d * xmf);
			row[xai + 1] += (float)(d * xmf);
		} else {
			double sl = 1 / (xb - xa), xf = xa - xaf;
			double a0 = .5 * sl * (1 - xf) * (1 - xf);
			double xlf = xb - xbi + 1, am = .5 * sl * xlf * xlf;
			row[xai] += (float)(d * a0);
			if (xbi == xai + 2) {
				row[xai + 1] += (float)(d * (1 - a0 - am));
			} else {
				double a1 = sl * (1.5 - xf);
				row[xai + 1] += (float)(d * (a1 - a0));
				for (int xi = xai + 2; xi < xbi - 1; xi++)
					row[xi] += (float)(d * sl);
				double a2 = a1 + (xbi - xai - 3) * sl;
				row[xbi - 1] += (float)(d * (1 - a2 - am));
			}
			row[xbi] += (float)(d * am);
		}
		x = xnext;
	}
}

/* Cairo's blend of an opaque colour at coverage a (cairo-image-compositor.c's lerp8x4). */
static uint32_t mul8x2_8(uint32_t a, uint32_t b)
{
	uint32_t t = (a & 0xff00ff) * b + 0x7f007f;
	return ((t + ((t >> 8) & 0xff00ff)) >> 8) & 0xff00ff;
}

static uint32_t add8x2_8x2(uint32_t a, uint32_t b)
{
	uint32_t t = a + b;
	t |= 0x1000100 - ((t >> 8) & 0xff00ff);
	return t & 0xff00ff;
}

static uint32_t lerp8x4(uint32_t src, uint32_t a, uint32_t dst)
{
	return add8x2_8x2(mul8x2_8(src, a), mul8x2_8(dst, 255 - a)) |
	       add8x2_8x2(mul8x2_8(src >> 8, a), mul8x2_8(dst >> 8, 255 - a)) << 8;
}

/*
 * One boid's coverage in RENDER_DRAW_FAST: outline fo under matrix m into
 * the mask mk and its bytes `out` (room for acc_w x acc_h).  Returns 0, or
 * -1 when nothing of it is on the picture (or it is flat as a line).
 */
static int fast_cover(struct renderer *r, const struct flat_outline *fo, const cairo_matrix_t *m,
                      struct boid_mask *mk, unsigned char *out)
{
	double minx = HUGE_VAL, miny = HUGE_VAL, maxx = -HUGE_VAL, maxy = -HUGE_VAL;
	double *dv = r->dev;
	int n = fo->npts;

	for (int k = 0; k < n; k++) {
		double ux = fo->pts[2 * k], uy = fo->pts[2 * k + 1];
		double x = m->xx * ux + m->xy * uy + m->x0, y = m->yx * ux + m->yy * uy + m->y0;
		dv[2 * k] = x;
		dv[2 * k + 1] = y;
		minx = x < minx ? x : minx; /* not fmin(): a library call here */
		maxx = x > maxx ? x : maxx;
		miny = y < miny ? y : miny;
		maxy = y > maxy ? y : maxy;
	}
	int ox = (int)floor(minx), oy = (int)floor(miny);
	int w = (int)floor(maxx) - ox + 2, h = (int)ceil(maxy) - oy;
	if (h <= 0 || w > r->acc_w || h > r->acc_h)
		return -1; /* flat as a line; never bigger than fast_setup() allowed */
	if (ox >= r->p.width || oy >= r->p.height || ox + w <= 0 || oy + h <= 0)
		return -1;
	int *lo = r->rowspan, *hi = r->rowspan + r->acc_h;
	for (int row = 0; row < h; row++)
		lo[row] = w, hi[row] = -1;
	for (int k = 0; k < n; k++) {
		int j = k + 1 < n ? k + 1 : 0;
		acc_line(r->acc, w, lo, hi, dv[2 * k] - ox, dv[2 * k + 1] - oy, dv[2 * j] - ox, dv[2 * j + 1] - oy);
	}
	/* sum each row over the cells it was given, clearing them for the next boid */
	memset(out, 0, (size_t)w * (size_t)h);
	for (int row = 0; row < h; row++) {
		float *a = r->acc + (size_t)row * (size_t)w, sum = 0;
		unsigned char *o = out + (size_t)row * (size_t)w;
		for (int col = lo[row]; col <= hi[row]; col++) {
			sum += a[col];
			a[col] = 0;
			float c = fabsf(sum);
			if (c > 1) /* even-odd: winding 2 (the tail's little loop) is a hole */
				c = fabsf(2 - c);
			int cov = (int)(c * 255 + .5f); /* c >= 0: so is cov */
			o[col] = (unsigned char)(cov < 255 ? cov : 255);
		}
	}
	mk->ox = ox, mk->oy = oy, mk->w = w, mk->h = h;
	return 0;
}

#ifdef __SSE2__
/*
 * lerp8x4() on four pixels at once, channel by channel in 16-bit lanes:
 * per channel it is min(255, mul(s, a) + mul(d, 255 - a)) with
 * mul(x, a) = (t + (t >> 8)) >> 8, t = x a + 0x7f, none of which leaves 16
 * bits, so the lanes give lerp8x4()'s bytes exactly; packus saturates.
 */
static __m128i lerp4(__m128i src, __m128i a4, __m128i dst)
{
	const __m128i zero = _mm_setzero_si128(), k7f = _mm_set1_epi16(0x7f), k255 = _mm_set1_epi16(255);
	/* each pixel's coverage in its four channels' lanes */
	__m128i a8 = _mm_unpacklo_epi8(a4, a4), a16 = _mm_unpacklo_epi8(a8, a8);
	__m128i alo = _mm_unpacklo_epi8(a16, zero), ahi = _mm_unpackhi_epi8(a16, zero);
	__m128i slo = _mm_unpacklo_epi8(src, zero), shi = _mm_unpackhi_epi8(src, zero);
	__m128i dlo = _mm_unpacklo_epi8(dst, zero), dhi = _mm_unpackhi_epi8(dst, zero);
	__m128i t, u, lo, hi;

	t = _mm_add_epi16(_mm_mullo_epi16(slo, alo), k7f);
	u = _mm_add_epi16(_mm_mullo_epi16(dlo, _mm_sub_epi16(k255, alo)), k7f);
	lo = _mm_add_epi16(_mm_srli_epi16(_mm_add_epi16(t, _mm_srli_epi16(t, 8)), 8),
	                   _mm_srli_epi16(_mm_add_epi16(u, _mm_srli_epi16(u, 8)), 8));
	t = _mm_add_epi16(_mm_mullo_epi16(shi, ahi), k7f);
	u = _mm_add_epi16(_mm_mullo_epi16(dhi, _mm_sub_epi16(k255, ahi)), k7f);
	hi = _mm_add_epi16(_mm_srli_epi16(_mm_add_epi16(t, _mm_srli_epi16(t, 8)), 8),
	                   _mm_srli_epi16(_mm_add_epi16(u, _mm_srli_epi16(u, 8)), 8));
	return _mm_packus_epi16(lo, hi);
}
#endif

/*
 * One row of a mask over n pixels of the picture.  lerp8x4() gives the
 * pixel back at coverage 0 and the colour at 255, both exactly, so every
 * pixel can go through it.
 */
static void blend_row(uint32_t *d, const unsigned char *a, int n, uint32_t pixel)
{
	int x = 0;
#ifdef __SSE2__
	__m128i src = _mm_set1_epi32((int)pixel);
	for (; x + 4 <= n; x += 4) {
		int32_t a4;
		memcpy(&a4, a + x, 4);
		if (!a4)
			continue;
		__m128i dst = _mm_loadu_si128((const __m128i *)(const void *)(d + x));
		_mm_storeu_si128((__m128i *)(void *)(d + x), lerp4(src, _mm_cvtsi32_si128(a4), dst));
	}
#endif
	for (; x < n; x++)
		if (a[x])
			d[x] = a[x] == 255 ? pixel : lerp8x4(pixel, a[x], d[x]);
}

/* Blends the rows of mask mk (bytes m) that fall in picture rows [y0, y1), as Cairo blends an opaque colour. */
static void mask_blend(struct renderer *r, const struct boid_mask *mk, const unsigned char *m, int y0, int y1)
{
	int r0 = y0 > mk->oy ? y0 - mk->oy : 0, r1 = y1 < mk->oy + mk->h ? y1 - mk->oy : mk->h;
	int c0 = mk->ox < 0 ? -mk->ox : 0, c1 = mk->ox + mk->w > r->p.width ? r->p.width - mk->ox : mk->w;

	for (int row = r0; row < r1; row++) {
		const unsigned char *a = m + (size_t)row * (size_t)mk->w;
		uint32_t *d = (uint32_t *)(void *)(r->data + (size_t)(mk->oy + row) * (size_t)r->stride) + mk->ox;
		blend_row(d + c0, a + c0, c1 - c0, mk->pixel);
	}
}

/*
 * The picture's memory: above 2 MB, aligned to and advised into huge pages
 * (a 1080p frame is then 4 TLB entries, not 2025; the boids hit its rows in
 * random order), which changes no pixel.  Smaller pictures are Cairo's own.
 */
#define HUGE_PAGE ((size_t)2 << 20)

static int make_surface(struct renderer *r)
{
	const struct render_params *p = &r->p;
	int stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, p->width);
	size_t bytes = (size_t)stride * (size_t)p->height;

	if (stride <= 0 || bytes < HUGE_PAGE) {
		r->surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, p->width, p->height);
		return cairo_error_code(cairo_surface_status(r->surface));
	}
	bytes = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	if (posix_memalign(&r->mem, HUGE_PAGE, bytes) != 0) {
		r->mem = NULL;
		return -ENOMEM;
	}
	madvise(r->mem, bytes, MADV_HUGEPAGE); /* advice only: no huge pages is no error */
	r->surface = cairo_image_surface_create_for_data(r->mem, CAIRO_FORMAT_ARGB32, p->width, p->height,
	                                                 stride);
	return cairo_error_code(cairo_surface_status(r->surface));
}

int render_new(struct renderer **out, const struct render_params *p)
{
	struct renderer *r;
	int err;

	*out = NULL;
	if (!params_valid(p))
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->p = *p;
	build_outline(r);
	err = make_surface(r);
	if (err)
		goto fail;
	r->cr = cairo_create(r->surface);
	err = cairo_error_code(cairo_status(r->cr));
	if (err)
		goto fail;
	cairo_set_fill_rule(r->cr, CAIRO_FILL_RULE_EVEN_ODD); /* GDI+ "alternate" */
	cairo_set_antialias(r->cr, cairo_aa(p->antialias));
	cairo_set_line_width(r->cr, 1); /* the canvas's default lineWidth */
	r->data = cairo_image_surface_get_data(r->surface);
	r->stride = cairo_image_surface_get_stride(r->surface);
	if (p->draw == RENDER_DRAW_POINTS ? (err = points_init(&r->pts, p->width, p->height)) != 0 :
	    p->paint == RENDER_FILL && p->antialias != RENDER_AA_NONE && (err = masks_setup(r)) != 0)
		goto fail;
	if (p->background_style == RENDER_BG_NOISE && (err = make_backdrop(r)) != 0)
		goto fail;
	*out = r;
	return 0;
fail:
	render_free(r);
	return err;
}

static void set_color(cairo_t *cr, uint32_t rgb)
{
	cairo_set_source_rgb(cr, (double)(rgb >> 16 & 0xFF) / 255,
	                     (double)(rgb >> 8 & 0xFF) / 255,
	                     (double)(rgb & 0xFF) / 255);
}

/* ------------------------------------------------------------ decorations */

static int finite2(double x, double y)
{
	return isfinite(x) && isfinite(y) && fabs(x) < 1e9 && fabs(y) < 1e9;
}

/* Obstacles: filled circles, in field units (the canvas is scaled). */
static void draw_obstacles(struct renderer *r)
{
	const struct render_params *p = &r->p;

	if (!p->obstacles_n)
		return;
	set_color(r->cr, p->obstacle_color);
	for (size_t i = 0; i < p->obstacles_n; i++) {
		const struct render_circle *c = &p->obstacles[i];
		if (!finite2(c->x, c->y) || !(c->r > 0))
			continue;
		cairo_new_sub_path(r->cr);
		cairo_arc(r->cr, c->x, c->y, c->r, 0, 2 * M_PI);
	}
	cairo_fill(r->cr);
}

/*
 * Is the segment of boid i's trail from position k - 1 to k left out?  When
 * a drawn end (tx, ty: the view's own positions, or in 3D their
 * projections) is not finite or the boid jumped more than half the field
 * (a wrap-around; in 3D half the depth too).
 */
static int trail_gap(const struct renderer *r, const struct render_view *v, const double *tx,
                     const double *ty, size_t k, size_t i)
{
	size_t a = (k - 1) * v->n + i, b = k * v->n + i;
	double halfw = r->p.width / r->p.scale / 2, halfh = r->p.height / r->p.scale / 2;

	if (!finite2(tx[a], ty[a]) || !finite2(tx[b], ty[b]))
		return 1;
	if (fabs(v->trail_x[b] - v->trail_x[a]) > halfw || fabs(v->trail_y[b] - v->trail_y[a]) > halfh)
		return 1; /* wrapped around */
	return v->trail_z && fabs(v->trail_z[b] - v->trail_z[a]) > r->p.box[2] / 2;
}

/*
 * Trails as the OpenGL version drew them: every boid's recent positions as
 * a line in its own colour fading toward the oldest.  Segments of the same
 * age share one path and one stroke, so the cost grows with the trail
 * length, not with strokes per boid.  tx, ty: the positions drawn (see
 * trail_gap()).
 */
static void draw_trails(struct renderer *r, const struct render_view *v, const double *tx, const double *ty)
{
	const struct render_params *p = &r->p;
	cairo_t *cr = r->cr;
	size_t n = v->n, len = v->trail_len;

	cairo_save(cr);
	cairo_set_line_width(cr, 1);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
	for (int pred = 0; pred < 2; pred++) {
		size_t lo = pred ? 0 : v->predators, hi = pred ? v->predators : n;
		uint32_t rgb = pred ? p->predator_color : p->boid_color;
		if (lo >= hi)
			continue;
		for (size_t k = 1; k < len; k++) {
			const double *ax = tx + (k - 1) * n, *ay = ty + (k - 1) * n;
			const double *bx = tx + k * n, *by = ty + k * n;
			for (size_t i = lo; i < hi; i++) {
				if (trail_gap(r, v, tx, ty, k, i))
					continue;
				cairo_move_to(cr, ax[i], ay[i]);
				cairo_line_to(cr, bx[i], by[i]);
			}
			cairo_set_source_rgba(cr, (double)(rgb >> 16 & 255) / 255, (double)(rgb >> 8 & 255) / 255,
			                      (double)(rgb & 255) / 255, .6 * (double)k / (double)len);
			cairo_stroke(cr);
		}
	}
	cairo_restore(cr);
}

/*
 * One boid's tail as the OpenGL version draws it (DrawTailLines): segment k
 * from position k-1 to k, oldest first, 2 units wide with flat (butt) ends,
 * Skia's default; alpha (byte)(255 x (k+1)/len x .5), so from 0.05 for the
 * oldest to 0.5 for the newest of 20.  Each segment is its own stroke, so
 * where two overlap they blend twice, as there.  tx, ty: as draw_trails().
 */
static void draw_tail(struct renderer *r, const struct render_view *v, const double *tx, const double *ty,
                      size_t i, uint32_t rgb)
{
	cairo_t *cr = r->cr;
	size_t n = v->n, len = v->trail_len;

	for (size_t k = 1; k < len; k++) {
		double ax = tx[(k - 1) * n + i], ay = ty[(k - 1) * n + i];
		double bx = tx[k * n + i], by = ty[k * n + i];
		if (trail_gap(r, v, tx, ty, k, i))
			continue;
		double frac = (double)(k + 1) / (double)len;
		double alpha = floor(255 * frac * .5) / 255;
		cairo_set_source_rgba(cr, (double)(rgb >> 16 & 255) / 255, (double)(rgb >> 8 & 255) / 255,
		                      (double)(rgb & 255) / 255, alpha);
		cairo_move_to(cr, ax, ay);
		cairo_line_to(cr, bx, by);
		cairo_stroke(cr);
	}
}

/* A circle of radius r with a tick of half-length t across it ahead. */
static void range_ring(cairo_t *cr, uint32_t rgb, double r, double t)
{
	set_color(cr, rgb);
	cairo_new_sub_path(cr);
	cairo_arc(cr, 0, 0, r, 0, 2 * M_PI);
	cairo_stroke(cr);
	cairo_move_to(cr, 0, r - t);
	cairo_line_to(cr, 0, r + t);
	cairo_stroke(cr);
}

/*
 * The OpenGL version's "Ranges" overlay (DrawRanges), around the last boid
 * and turned with it: a yellow cross showing its axes, a magenta circle of
 * the separation radius and a light green one of the cohesion radius, each
 * with a tick across it ahead of the boid; lines 2 units wide.  At (x, y),
 * turned by angle, scaled by size (3D: the boid's size factor).
 */
static void draw_ranges_at(struct renderer *r, double x, double y, double angle, double size)
{
	cairo_t *cr = r->cr;
	const struct render_params *p = &r->p;
	double near = p->range_near, far = p->range_far;

	cairo_save(cr);
	cairo_translate(cr, x, y);
	cairo_rotate(cr, angle);
	if (size != 1)
		cairo_scale(cr, size, size);
	cairo_set_line_width(cr, 2);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
	set_color(cr, 0xFFFF00); /* Yellow */
	cairo_move_to(cr, -5, 0);
	cairo_line_to(cr, 5, 0);
	cairo_move_to(cr, 0, 0);
	cairo_line_to(cr, 0, 10);
	cairo_stroke(cr);
	range_ring(cr, 0xFF00FF, near, 5);  /* Magenta */
	range_ring(cr, 0x90EE90, far, 10);  /* LightGreen */
	cairo_restore(cr);
}

/* The ranges around the last boid of a 2D view. */
static void draw_ranges(struct renderer *r, const struct render_view *v)
{
	size_t i = v->n - 1;

	if (v->n && finite2(v->x[i], v->y[i]))
		draw_ranges_at(r, v->x[i], v->y[i], render_heading(v->vx[i], v->vy[i]), 1);
}

/* The steering target: a ring with a dot, 6 units across. */
static void draw_target(struct renderer *r, double x, double y)
{
	cairo_t *cr = r->cr;

	if (!finite2(x, y))
		return;
	cairo_save(cr);
	set_color(cr, r->p.target_color);
	cairo_set_line_width(cr, 1.5);
	cairo_new_sub_path(cr);
	cairo_arc(cr, x, y, 6, 0, 2 * M_PI);
	cairo_stroke(cr);
	cairo_arc(cr, x, y, 1.5, 0, 2 * M_PI);
	cairo_fill(cr);
	cairo_restore(cr);
}

/* The picture's background, the noise backdrop or a flat colour, whatever the canvas's matrix. */
static void paint_background(struct renderer *r)
{
	cairo_save(r->cr);
	cairo_identity_matrix(r->cr);
	if (r->backdrop)
		cairo_set_source_surface(r->cr, r->backdrop, 0, 0);
	else
		set_color(r->cr, r->p.background);
	cairo_paint(r->cr);
	cairo_restore(r->cr);
}

/* Boid i of a 2D view: at its position, turned along its velocity, at its kind's size and colour. */
static void place_flat(const struct renderer *r, const struct render_view *v, size_t i, struct placed *b)
{
	const struct render_params *p = &r->p;
	int predator = i < v->predators;

	b->x = v->x[i];
	b->y = v->y[i];
	b->i = i;
	b->predator = predator;
	b->rgb = predator ? p->predator_color : p->boid_color;
	if (p->shape == RENDER_CIRCLE) { /* no heading; predators the same size */
		b->angle = 0;
		b->size = p->boid_size;
		return;
	}
	b->angle = render_heading(v->vx[i], v->vy[i]);
	b->size = predator ? p->boid_size * p->predator_size : p->boid_size;
}

/* Boid b's outline as a path on cr under its own translate, rotate and size: the caller saved cr. */
static void boid_path(const struct renderer *r, cairo_t *cr, const struct placed *b)
{
	cairo_translate(cr, b->x, b->y);
	cairo_rotate(cr, b->angle);
	if (b->size != 1)
		cairo_scale(cr, b->size, b->size);
	append_outline(r, cr);
}

/* Boid b filled by Cairo on cr (the picture, or a mask) under the field's matrix. */
static void cairo_fill_boid(const struct renderer *r, cairo_t *cr, const struct placed *b)
{
	if (r->p.shape == RENDER_CIRCLE) {
		cairo_new_path(cr);
		cairo_arc(cr, b->x, b->y, CIRCLE_RADIUS * b->size, 0, 2 * M_PI);
		cairo_fill(cr);
		return;
	}
	cairo_save(cr);
	boid_path(r, cr, b);
	cairo_fill(cr);
	cairo_restore(cr);
}

/* Boid b by Cairo into the picture.  *color: the source set now (-1 none). */
static void cairo_boid(struct renderer *r, const struct placed *b, long *color)
{
	cairo_t *cr = r->cr;

	if (b->rgb != *color) {
		/* set outside save/restore, so it survives them */
		set_color(cr, b->rgb);
		*color = b->rgb;
	}
	if (r->p.paint == RENDER_STROKE && r->p.shape != RENDER_CIRCLE) {
		cairo_save(cr);
		boid_path(r, cr, b);
		cairo_restore(cr); /* the line is 1 field unit wide at any size */
		cairo_stroke(cr);
		return;
	}
	cairo_fill_boid(r, cr, b);
}

/*
 * The box in picture pixels that boid b's fill stays in: its outline's
 * control points (a Bezier stays in their hull) under the boid's matrix,
 * widened by a pixel each side for the antialiased fringe.
 */
static void cairo_box(const struct renderer *r, const struct placed *b, const cairo_matrix_t *base,
                      struct boid_mask *mk)
{
	double minx = HUGE_VAL, miny = HUGE_VAL, maxx = -HUGE_VAL, maxy = -HUGE_VAL;
	cairo_matrix_t m = *base;

	cairo_matrix_translate(&m, b->x, b->y);
	if (r->p.shape == RENDER_CIRCLE) {
		double cx = 0, cy = 0, rr = CIRCLE_RADIUS * b->size;
		cairo_matrix_transform_point(&m, &cx, &cy);
		cairo_matrix_transform_distance(&m, &rr, &(double){ 0 });
		minx = cx - fabs(rr), maxx = cx + fabs(rr), miny = cy - fabs(rr), maxy = cy + fabs(rr);
	} else {
		cairo_matrix_rotate(&m, b->angle);
		cairo_matrix_scale(&m, b->size, b->size);
		for (int k = -1; k < 3 * r->nseg; k++) {
			double x = k < 0 ? r->start[0] : r->seg[k / 3][2 * (k % 3)];
			double y = k < 0 ? r->start[1] : r->seg[k / 3][2 * (k % 3) + 1];
			if (!r->curved && k >= 0 && k % 3 != 2)
				continue; /* lines: the end points only */
			cairo_matrix_transform_point(&m, &x, &y);
			minx = fmin(minx, x), maxx = fmax(maxx, x), miny = fmin(miny, y), maxy = fmax(maxy, y);
		}
	}
	mk->ox = (int)floor(minx) - 1;
	mk->oy = (int)floor(miny) - 1;
	mk->w = (int)floor(maxx) + 2 - mk->ox;
	mk->h = (int)floor(maxy) + 2 - mk->oy;
}

/*
 * Boid b's mask by Cairo (RENDER_DRAW_EXACT in bands): the same fill as
 * cairo_boid()'s, the same path under the same matrix, into the A8 surface
 * moved under the boid by its device offset, a whole number of pixels, so
 * every coordinate Cairo sees is shifted exactly and the coverage is the
 * one it would blend into the picture.  A boid across the picture's edge
 * is clipped to the picture there too, as Cairo's converter then computes
 * the edge cells differently.  Returns 0, or -1 when nothing is on the
 * picture.  The surface's matrix is the field's (set per run).
 */
static int cairo_mask_at(struct renderer *r, const struct placed *b, const cairo_matrix_t *base,
                         struct boid_mask *mk, unsigned char *out)
{
	const struct render_params *p = &r->p;
	unsigned char *m = cairo_image_surface_get_data(r->msurf);
	int st = cairo_image_surface_get_stride(r->msurf);

	cairo_box(r, b, base, mk);
	mk->pixel = 0xff000000u | b->rgb;
	assert(mk->w <= r->acc_w && mk->h <= r->acc_h); /* the hull is within the outline's reach */
	if (mk->ox >= p->width || mk->oy >= p->height || mk->ox + mk->w <= 0 || mk->oy + mk->h <= 0)
		return -1;
	int edge = mk->ox < 0 || mk->oy < 0 || mk->ox + mk->w > p->width || mk->oy + mk->h > p->height;
	cairo_surface_set_device_offset(r->msurf, -mk->ox, -mk->oy);
	if (edge) {
		cairo_save(r->mcr);
		cairo_identity_matrix(r->mcr);
		cairo_rectangle(r->mcr, 0, 0, p->width, p->height);
		cairo_clip(r->mcr);
		cairo_set_matrix(r->mcr, base);
	}
	cairo_fill_boid(r, r->mcr, b);
	if (edge)
		cairo_restore(r->mcr);
	cairo_surface_flush(r->msurf);
	for (int row = 0; row < mk->h; row++) { /* take the coverage, leave the surface clear */
		memcpy(out + (size_t)row * (size_t)mk->w, m + (size_t)row * (size_t)st, (size_t)mk->w);
		memset(m + (size_t)row * (size_t)st, 0, (size_t)mk->w);
	}
	cairo_surface_mark_dirty(r->msurf);
	return 0;
}

/* Is boid b's outline (within its reach of its centre) on the picture?  Never NaN or infinity to Cairo. */
static int on_picture(const struct renderer *r, const struct placed *b)
{
	double px = b->x * r->p.scale + r->p.offset[0], py = b->y * r->p.scale + r->p.offset[1];
	double reach = boid_reach(r, b->size);

	return isfinite(px) && isfinite(py) && px >= -reach && px <= r->p.width + reach &&
	       py >= -reach && py <= r->p.height + reach;
}

/*
 * Boid b's mask by the fast path: the field's matrix `base`, moved and
 * turned as Cairo would, then our fill into mk and `out`.  Returns 0, or -1
 * when it leaves nothing on the picture.
 */
static int fast_boid_at(struct renderer *r, const struct placed *b, const cairo_matrix_t *base,
                        struct boid_mask *mk, unsigned char *out)
{
	cairo_matrix_t m = *base;

	cairo_matrix_translate(&m, b->x, b->y);
	if (r->p.shape != RENDER_CIRCLE)
		cairo_matrix_rotate(&m, b->angle);
	if (b->size != 1)
		cairo_matrix_scale(&m, b->size, b->size);
	mk->pixel = 0xff000000u | b->rgb;
	return fast_cover(r, &r->flat[b->predator], &m, mk, out);
}

/* Boid b by the fast path, straight into the picture. */
static void fast_boid_now(struct renderer *r, const struct placed *b, const cairo_matrix_t *base)
{
	struct boid_mask mk;

	if (fast_boid_at(r, b, base, &mk, r->one) == 0)
		mask_blend(r, &mk, r->one, 0, r->p.height);
}

/* Grows *buf (a pointer to elements of `size` bytes) to hold `want`.  Returns 0 or -ENOMEM. */
static int grow(void *buf, size_t *cap, size_t want, size_t size)
{
	void **p = buf;

	if (want <= *cap)
		return 0;
	want += want / 2;
	void *q = realloc(*p, want * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = want;
	return 0;
}

/*
 * Can boid b be drawn as a mask in bands?  When a mask holds it and it is
 * at most BAND_BOID_MAX pixels across (bigger masks cost more than bands
 * save), or when it is off the picture (nothing to draw either way).
 */
static int bandable(const struct renderer *r, const struct placed *b)
{
	return (b->size <= r->mask_size && mask_side(r, b->size) <= BAND_BOID_MAX) || !on_picture(r, b);
}

/*
 * The rows each boid of list[0 .. n) on the picture may touch (its
 * centre's row -+ its reach, in mk->band0 .. band1 for now); returns the
 * biggest boid's outline scale.
 */
static double bands_rows(struct renderer *r, const struct placed *list, size_t n, const cairo_matrix_t *base)
{
	double last = r->p.height - 1, biggest = 0;

	for (size_t k = 0; k < n; k++) {
		const struct placed *b = &list[k];
		struct boid_mask *mk = &r->bands.mask[k];
		mk->band0 = -1;
		mk->made = 0;
		if (!on_picture(r, b))
			continue;
		double cy = base->yx * b->x + base->yy * b->y + base->y0, reach = boid_reach(r, b->size);
		double lo = fmax(0, floor(cy - reach)), hi = fmin(last, floor(cy + reach));
		if (lo > hi)
			continue;
		mk->band0 = (int)lo;
		mk->band1 = (int)hi;
		biggest = fmax(biggest, b->size);
	}
	return biggest;
}

/*
 * Plans list[0 .. n), bandable() boids in drawing order, in bands: bands
 * about BAND_BYTES of picture and taller than the biggest boid, which
 * bands each boid on the picture touches (one or two), the boids of every
 * band in drawing order (a stable counting sort), room for the masks.
 * Returns 0, or -1 when they are to be drawn boid after boid (masks held
 * beyond ARENA_MAX), or -ENOMEM.
 */
static int bands_plan(struct renderer *r, const struct placed *list, size_t n, const cairo_matrix_t *base)
{
	struct bands *B = &r->bands;
	size_t most = 0, entries = 0;

	if (grow(&B->mask, &B->mask_cap, n, sizeof(*B->mask)) != 0)
		return -ENOMEM;
	double biggest = bands_rows(r, list, n, base);
	int side = (int)ceil(mask_side(r, biggest));
	assert(biggest <= r->mask_size && side <= BAND_BOID_MAX); /* bandable() */
	/* bands of about BAND_BYTES of picture, taller than a boid and its fringe: even */
	int rows = (int)(BAND_BYTES / (size_t)r->stride), tall = 2 * (int)ceil(boid_reach(r, biggest)) + 2;
	rows = rows > tall ? rows : tall;
	B->rows = rows + (rows & 1);
	int nb = B->nbands = (r->p.height + B->rows - 1) / B->rows;
	if (grow(&B->start, &B->band_cap, 2 * (size_t)nb + 1, sizeof(*B->start)) != 0)
		return -ENOMEM;
	size_t *count = B->start;
	B->held = B->start + nb + 1;
	memset(count, 0, (2 * (size_t)nb + 1) * sizeof(*count));
	for (size_t k = 0; k < n; k++) {
		struct boid_mask *mk = &B->mask[k];
		if (mk->band0 < 0)
			continue;
		mk->band0 /= B->rows;
		mk->band1 /= B->rows;
		assert(mk->band1 - mk->band0 <= 1);
		for (int b = mk->band0; b <= mk->band1; b++)
			count[b + 1]++;
		B->held[mk->band0] += mk->band1 > mk->band0;
		entries += (size_t)(mk->band1 - mk->band0 + 1);
	}
	if (grow(&B->list, &B->list_cap, entries, sizeof(*B->list)) != 0)
		return -ENOMEM;
	for (int b = 0; b < nb; b++) {
		most = B->held[b] > most ? B->held[b] : most;
		count[b + 1] += count[b];
	}
	size_t bytes = most * (size_t)side * (size_t)side;
	if (bytes > ARENA_MAX)
		return -1; /* draw boid after boid rather than hold that much */
	for (int k = 0; k < 2; k++)
		if (grow(&B->arena[k], &B->arena_cap[k], bytes, 1) != 0)
			return -ENOMEM;
	for (size_t k = 0; k < n; k++) /* count[b] runs from band b's start to its end */
		for (int b = B->mask[k].band0; b >= 0 && b <= B->mask[k].band1; b++)
			B->list[count[b]++] = k;
	memmove(count + 1, count, (size_t)nb * sizeof(*count));
	count[0] = 0;
	return 0;
}

/* Picture rows [y0, y1) of the background, as paint_background() paints them: copies of a row. */
static void bands_background(struct renderer *r, int y0, int y1)
{
	const unsigned char *from = r->bg_row;
	size_t st = 0;

	if (r->backdrop) {
		from = cairo_image_surface_get_data(r->backdrop);
		st = (size_t)cairo_image_surface_get_stride(r->backdrop);
	}
	for (int y = y0; y < y1; y++)
		memcpy(r->data + (size_t)y * (size_t)r->stride, from + (size_t)y * st, 4 * (size_t)r->p.width);
}

/*
 * The planned boids of list, band by band: in each band (its background
 * first when `background`) every boid touching it in drawing order, its
 * mask made in the first band it touches.  Each pixel gets the same blends
 * in the same order as boid after boid over the whole picture: the same
 * bytes.
 */
static void bands_draw(struct renderer *r, const struct placed *list, const cairo_matrix_t *base,
                       int background)
{
	struct bands *B = &r->bands;

	for (int b = 0; b < B->nbands; b++) {
		int y0 = b * B->rows, y1 = y0 + B->rows < r->p.height ? y0 + B->rows : r->p.height;
		size_t used = 0;
		if (background)
			bands_background(r, y0, y1);
		for (size_t e = B->start[b]; e < B->start[b + 1]; e++) {
			size_t k = B->list[e];
			struct boid_mask *mk = &B->mask[k];
			if (mk->made > 0) { /* made in the band before */
				mask_blend(r, mk, B->arena[mk->band0 & 1] + mk->at, y0, y1);
				continue;
			}
			if (mk->made < 0)
				continue;
			/* its first band: hold its mask only if it goes on into the next */
			int held = mk->band1 > b;
			unsigned char *out = held ? B->arena[b & 1] + used : r->one;
			int err = r->fast ? fast_boid_at(r, &list[k], base, mk, out) :
			                    cairo_mask_at(r, &list[k], base, mk, out);
			mk->made = err ? -1 : 1;
			mk->at = used;
			if (err)
				continue;
			used += held ? (size_t)mk->w * (size_t)mk->h : 0;
			mask_blend(r, mk, out, y0, y1);
		}
	}
}

/*
 * --trail-style opengl: boid i's tail (drawn at tx, ty: see trail_gap()), by
 * Cairo just before the boid; *direct: fast pixels pending.
 */
static void tail_of(struct renderer *r, const struct render_view *v, const double *tx, const double *ty,
                    size_t i, int predator, int *direct, long *color)
{
	if (*direct)
		cairo_surface_mark_dirty(r->surface);
	*direct = 0;
	draw_tail(r, v, tx, ty, i, predator ? r->p.predator_color : r->p.boid_color);
	*color = -1;
	if (r->fast)
		cairo_surface_flush(r->surface);
}

/*
 * list[0 .. n), placed boids in drawing order, one after the other, under
 * the field's matrix `base`: Cairo's, or the fast path's straight into the
 * picture (a boid too big for a mask by Cairo), each boid's tail just
 * before it when tx is set (--trail-style opengl: its points as drawn, see
 * trail_gap()).
 */
static void draw_straight(struct renderer *r, const struct render_view *v, const struct placed *list,
                          size_t n, const cairo_matrix_t *base, const double *tx, const double *ty)
{
	long color = -1; /* 0xRRGGBB: the source currently set */
	int direct = 0;  /* fast boids written since Cairo last drew */

	if (r->fast)
		cairo_surface_flush(r->surface); /* before writing pixels ourselves */
	for (size_t k = 0; k < n; k++) {
		const struct placed *b = &list[k];
		if (tx)
			tail_of(r, v, tx, ty, b->i, b->predator, &direct, &color);
		if (!on_picture(r, b))
			continue;
		if (r->fast && b->size <= r->mask_size) {
			fast_boid_now(r, b, base);
			direct = 1;
			continue;
		}
		if (direct) /* Cairo draws over the pixels written since it last did */
			cairo_surface_mark_dirty(r->surface);
		direct = 0;
		cairo_boid(r, b, &color); /* exact, or too big for a mask */
		if (r->fast)
			cairo_surface_flush(r->surface);
	}
	if (direct)
		cairo_surface_mark_dirty(r->surface);
}

/*
 * list[0 .. n), bandable() boids in drawing order, in bands (their
 * background first when *paint, then cleared).  Returns 0, or nonzero
 * when bands_plan() would not: nothing drawn.
 */
static int draw_banded(struct renderer *r, const struct placed *list, size_t n, const cairo_matrix_t *base,
                       int *paint)
{
	if (bands_plan(r, list, n, base) != 0)
		return -1;
	if (!r->fast)
		cairo_set_matrix(r->mcr, base);
	cairo_surface_flush(r->surface); /* before writing pixels ourselves */
	bands_draw(r, list, base, *paint);
	cairo_surface_mark_dirty(r->surface);
	*paint = 0;
	return 0;
}

/* The background, if it is still to be painted (*paint; then cleared). */
static void paint_now(struct renderer *r, int *paint)
{
	if (*paint)
		paint_background(r);
	*paint = 0;
}

/*
 * Draws list[0 .. n), placed boids in drawing order: in bands when it can
 * (a picture above CACHED_BYTES and no tails between the boids), the boids
 * too big for that boid after boid between the bands' runs (in 3D the
 * nearest, at the list's end); else boid after boid (draw_straight(): tx,
 * ty as there).  *paint: the background is still to be painted (nothing
 * else lies under these boids): the bands paint it band by band, else it
 * is painted first; cleared either way.
 */
static void draw_run(struct renderer *r, const struct render_view *v, const struct placed *list, size_t n,
                     const cairo_matrix_t *base, const double *tx, const double *ty, int *paint)
{
	if (!r->masks || tx) {
		paint_now(r, paint);
		draw_straight(r, v, list, n, base, tx, ty);
		return;
	}
	for (size_t k = 0, end; k < n || *paint; k = end) {
		for (end = k; end < n && bandable(r, &list[end]); end++)
			;
		if (draw_banded(r, list + k, end - k, base, paint) != 0) {
			paint_now(r, paint);
			draw_straight(r, v, list + k, end - k, base, NULL, NULL);
		}
		for (k = end; end < n && !bandable(r, &list[end]); end++)
			;
		draw_straight(r, v, list + k, end - k, base, NULL, NULL);
	}
}

/* ------------------------------------------------------------------- 3D */

/* The depths the fog runs between: the box's nearest and farthest corner (in front of the camera). */
struct fog_range {
	double near, far;
};

static struct fog_range box_depths(const struct camera *cam, const double box[3])
{
	struct fog_range f = { HUGE_VAL, -HUGE_VAL };

	for (int i = 0; i < 8; i++) {
		double q[3] = { i & 1 ? box[0] : 0, i & 2 ? box[1] : 0, i & 4 ? box[2] : 0 };
		double d = camera_depth(cam, q);
		f.near = fmin(f.near, d);
		f.far = fmax(f.far, d);
	}
	f.near = fmax(f.near, cam->near);
	if (!(f.far > f.near))
		f.far = f.near + 1; /* the whole box behind the camera: nothing in it is drawn */
	return f;
}

/* Where depth d lies between the fog range's ends, 0 .. 1. */
static double depth_place(const struct fog_range *f, double d)
{
	return fmin(1, fmax(0, (d - f->near) / (f->far - f->near)));
}

/* rgb moved the fraction t toward `to`, each channel rounded to a whole 255th. */
static uint32_t mix_rgb(uint32_t rgb, uint32_t to, double t)
{
	uint32_t out = 0;

	for (int sh = 16; sh >= 0; sh -= 8) {
		double c = rgb >> sh & 255, b = to >> sh & 255;
		out |= (uint32_t)lround(c + (b - c) * t) << sh;
	}
	return out;
}

/* The colour of a thing of colour rgb at depth d: the fog blends it toward the background. */
static uint32_t fogged(const struct renderer *r, const struct fog_range *f, uint32_t rgb, double d)
{
	return r->p.fog > 0 ? mix_rgb(rgb, r->p.background, r->p.fog * depth_place(f, d)) : rgb;
}

/* The lines of the box and the ground: the background half way to white. */
static uint32_t line_rgb(const struct renderer *r)
{
	return mix_rgb(r->p.background, 0xFFFFFF, .5);
}

/* The segment a-b, cut to the part in front of the camera, stroked at the alpha of its middle's depth. */
static void stroke_3d(struct renderer *r, const struct camera *cam, const struct fog_range *f,
                      const double a0[3], const double b0[3], double alpha_near, double alpha_far)
{
	double a[3] = { a0[0], a0[1], a0[2] }, b[3] = { b0[0], b0[1], b0[2] }, au, av, bu, bv, da, db;
	uint32_t rgb = line_rgb(r);

	if (!camera_clip(cam, a, b) || !camera_project(cam, a, &au, &av, &da) ||
	    !camera_project(cam, b, &bu, &bv, &db))
		return;
	double t = depth_place(f, (da + db) / 2);
	cairo_set_source_rgba(r->cr, (double)(rgb >> 16 & 255) / 255, (double)(rgb >> 8 & 255) / 255,
	                      (double)(rgb & 255) / 255, alpha_near + (alpha_far - alpha_near) * t);
	cairo_move_to(r->cr, au, av);
	cairo_line_to(r->cr, bu, bv);
	cairo_stroke(r->cr);
}

/* --box: the box's 12 edges, 1 unit wide, fainter with depth. */
static void draw_box_edges(struct renderer *r, const struct camera *cam, const struct fog_range *f)
{
	const double *box = r->p.box;

	cairo_set_line_width(r->cr, 1);
	for (int i = 0; i < 8; i++)
		for (int bit = 1; bit < 8; bit <<= 1) {
			if (i & bit)
				continue;
			int j = i | bit;
			double a[3] = { i & 1 ? box[0] : 0, i & 2 ? box[1] : 0, i & 4 ? box[2] : 0 };
			double b[3] = { j & 1 ? box[0] : 0, j & 2 ? box[1] : 0, j & 4 ? box[2] : 0 };
			stroke_3d(r, cam, f, a, b, .7, .2);
		}
}

#define GROUND_CELLS 10 /* --ground: cells along the floor's longer side */

/* --ground: a grid on the box's floor (y = H), one cell a segment so that each fades with its depth. */
static void draw_ground(struct renderer *r, const struct camera *cam, const struct fog_range *f)
{
	const double *box = r->p.box;
	double cell = fmax(box[0], box[2]) / GROUND_CELLS;
	long nx = lround(fmax(1, box[0] / cell)), nz = lround(fmax(1, box[2] / cell));

	cairo_set_line_width(r->cr, .75);
	for (long i = 0; i <= nx; i++) /* lines along z */
		for (long k = 0; k < nz; k++) {
			double x = box[0] * (double)i / (double)nx;
			double a[3] = { x, box[1], box[2] * (double)k / (double)nz };
			double b[3] = { x, box[1], box[2] * (double)(k + 1) / (double)nz };
			stroke_3d(r, cam, f, a, b, .35, .08);
		}
	for (long k = 0; k <= nz; k++) /* lines along x */
		for (long i = 0; i < nx; i++) {
			double z = box[2] * (double)k / (double)nz;
			double a[3] = { box[0] * (double)i / (double)nx, box[1], z };
			double b[3] = { box[0] * (double)(i + 1) / (double)nx, box[1], z };
			stroke_3d(r, cam, f, a, b, .35, .08);
		}
}

/* Grows the 3D buffers for n boids and `cells` trail points.  0 or -ENOMEM. */
static int room_3d(struct renderer *r, size_t n, size_t cells)
{
	if (n > r->cap) {
		struct placed *pl = realloc(r->placed, n * sizeof(*pl));
		if (pl)
			r->placed = pl;
		struct depth_key *o = realloc(r->order, n * sizeof(*o));
		if (o)
			r->order = o;
		if (!pl || !o)
			return -ENOMEM;
		r->cap = n;
	}
	if (cells > r->trail_cap) {
		double *t = realloc(r->trail_uv, 2 * cells * sizeof(*t));
		if (!t)
			return -ENOMEM;
		r->trail_uv = t;
		r->trail_cap = cells;
	}
	if (r->p.obstacles_n && !r->spheres &&
	    !(r->spheres = malloc(r->p.obstacles_n * sizeof(*r->spheres))))
		return -ENOMEM;
	return grow(&r->list, &r->list_cap, n < DRAW_PART ? n : DRAW_PART, sizeof(*r->list));
}

/*
 * The boids r->order[k .. end) (placed in r->placed), back to front, by
 * draw_run() DRAW_PART at a time (tx, ty, *paint: as there).
 */
static void draw_sorted(struct renderer *r, const struct render_view *v, size_t k, size_t end,
                        const cairo_matrix_t *base, const double *tx, const double *ty, int *paint)
{
	do {
		size_t m = end - k < DRAW_PART ? end - k : DRAW_PART;
		for (size_t i = 0; i < m; i++)
			r->list[i] = r->placed[r->order[k + i].i];
		draw_run(r, v, r->list, m, base, tx, ty, paint);
		k += m;
	} while (k < end);
}

/* Farther first; at one depth, lower index first (drawn under the higher, as in 2D). */
static int back_to_front(const void *pa, const void *pb)
{
	const struct depth_key *a = pa, *b = pb;

	if (a->depth != b->depth)
		return a->depth < b->depth ? 1 : -1;
	return (a->i > b->i) - (a->i < b->i);
}

#define FOG_MIN_SPAN 0.125 /* the fog's range: at least this part of the box's depth range */

/*
 * The depths the boids' fog runs between: the flock's own, its mean depth
 * -+ 2 standard deviations (over the m boids in front of the camera, in
 * index order), so the front and the back of a flock differ in shade
 * however tight it is; never narrower than FOG_MIN_SPAN of the box's range
 * (a flock flat to the camera is not shaded by tiny differences).
 */
static struct fog_range flock_depths(const struct depth_key *k, size_t m, const struct fog_range *box)
{
	double sum = 0, sq = 0;

	if (!m)
		return *box;
	for (size_t i = 0; i < m; i++)
		sum += k[i].depth;
	double mean = sum / (double)m;
	for (size_t i = 0; i < m; i++)
		sq += (k[i].depth - mean) * (k[i].depth - mean);
	double half = fmax(2 * sqrt(sq / (double)m), (box->far - box->near) * FOG_MIN_SPAN / 2);
	return (struct fog_range){ mean - half, mean + half };
}

/*
 * Projects every boid: its place, heading, size and colour, fogged over
 * the flock's depths (flock_depths(), left in *f) into r->placed[i], and
 * the ones in front of the camera into r->order, back to front.  Returns
 * how many are in front.
 */
static size_t place_3d(struct renderer *r, const struct render_view *v, const struct camera *cam,
                       struct fog_range *f)
{
	const struct render_params *p = &r->p;
	size_t m = 0;

	for (size_t i = 0; i < v->n; i++) {
		double pt[3] = { v->x[i], v->y[i], v->z[i] }, vel[3] = { v->vx[i], v->vy[i], v->vz[i] };
		double u, w, d, du, dw;
		struct placed *b = &r->placed[i];
		if (!camera_project(cam, pt, &u, &w, &d))
			continue;
		int predator = i < v->predators;
		b->x = u;
		b->y = w;
		b->i = i;
		b->predator = predator;
		camera_direction(cam, pt, vel, &du, &dw);
		b->angle = p->shape == RENDER_CIRCLE ? 0 : render_heading(du, dw);
		b->size = camera_size(cam, d) *
		          (predator && p->shape != RENDER_CIRCLE ? p->boid_size * p->predator_size : p->boid_size);
		r->order[m++] = (struct depth_key){ d, i };
	}
	*f = flock_depths(r->order, m, f);
	for (size_t k = 0; k < m; k++) {
		struct placed *b = &r->placed[r->order[k].i];
		b->rgb = fogged(r, f, b->predator ? p->predator_color : p->boid_color, r->order[k].depth);
	}
	if (m > 1)
		qsort(r->order, m, sizeof(*r->order), back_to_front);
	return m;
}

/* The obstacles in front of the camera into r->spheres, back to front; returns how many. */
static size_t place_spheres(struct renderer *r, const struct camera *cam)
{
	size_t m = 0;

	for (size_t i = 0; i < r->p.obstacles_n; i++) {
		const struct render_circle *c = &r->p.obstacles[i];
		double pt[3] = { c->x, c->y, c->z }, d = camera_depth(cam, pt);
		if (c->r > 0 && isfinite(c->r) && d > cam->near && isfinite(d))
			r->spheres[m++] = (struct depth_key){ d, i };
	}
	if (m > 1)
		qsort(r->spheres, m, sizeof(*r->spheres), back_to_front);
	return m;
}

/* An obstacle: a disc of the sphere's projected radius, lit from the upper left, in the fog. */
static void draw_sphere(struct renderer *r, const struct camera *cam, const struct fog_range *f,
                        const struct render_circle *c)
{
	double pt[3] = { c->x, c->y, c->z }, u, v, d;

	if (!camera_project(cam, pt, &u, &v, &d))
		return;
	double rad = c->r * cam->focal / d;
	if (!finite2(u, v) || !(rad < 1e6))
		return;
	uint32_t lit = fogged(r, f, mix_rgb(r->p.obstacle_color, 0xFFFFFF, .45), d);
	uint32_t shade = fogged(r, f, mix_rgb(r->p.obstacle_color, 0x000000, .35), d);
	cairo_pattern_t *g = cairo_pattern_create_radial(u - .35 * rad, v - .35 * rad, 0, u, v, rad);
	cairo_pattern_add_color_stop_rgb(g, 0, (double)(lit >> 16 & 255) / 255, (double)(lit >> 8 & 255) / 255,
	                                 (double)(lit & 255) / 255);
	cairo_pattern_add_color_stop_rgb(g, 1, (double)(shade >> 16 & 255) / 255,
	                                 (double)(shade >> 8 & 255) / 255, (double)(shade & 255) / 255);
	cairo_set_source(r->cr, g);
	cairo_new_path(r->cr);
	cairo_arc(r->cr, u, v, rad, 0, 2 * M_PI);
	cairo_fill(r->cr);
	cairo_pattern_destroy(g);
}

/* The trail's points projected into r->trail_uv (u then v; NaN where not drawn). */
static void project_trail(struct renderer *r, const struct render_view *v, const struct camera *cam)
{
	size_t cells = v->trail_len * v->n;
	double *tu = r->trail_uv, *tv = r->trail_uv + cells;

	for (size_t k = 0; k < cells; k++) {
		double pt[3] = { v->trail_x[k], v->trail_y[k], v->trail_z[k] }, d;
		if (!camera_project(cam, pt, &tu[k], &tv[k], &d))
			tu[k] = tv[k] = NAN;
	}
}

/*
 * The 3D pass of render_frame(), under the field's matrix `base`: the
 * camera for this frame, the ground and box lines, the trails, then the
 * boids back to front with the obstacles among them in depth order, the
 * target marker and the ranges on top.  The boids between two obstacles
 * are a run, drawn by draw_run() as a 2D list is (in bands, or boid after
 * boid); *paint: as there.
 */
static int draw_3d(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base, int *paint)
{
	const struct render_params *p = &r->p;
	cairo_t *cr = r->cr;
	struct camera cam;
	size_t trail = v->trail_len > 1 && v->trail_z ? v->trail_len : 0;
	int err = room_3d(r, v->n, trail * v->n);

	assert(v->n == 0 || v->vz);
	if (err)
		return err;
	camera_place(&cam, &p->camera, p->box, p->width / p->scale, p->height / p->scale, v->frame);
	struct fog_range f = box_depths(&cam, p->box);
	cairo_save(cr);
	if (p->ground)
		draw_ground(r, &cam, &f);
	if (p->box_edges)
		draw_box_edges(r, &cam, &f);
	cairo_restore(cr);
	const double *tu = r->trail_uv, *tv = r->trail_uv + trail * v->n;
	int tails = trail && p->trail_style == RENDER_TRAIL_OPENGL;
	if (trail)
		project_trail(r, v, &cam);
	if (trail && !tails)
		draw_trails(r, v, tu, tv);
	if (tails) {
		cairo_set_line_width(cr, 2);
		cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
	}
	size_t m = place_3d(r, v, &cam, &f), ns = place_spheres(r, &cam); /* f: the flock's now */
	for (size_t k = 0, next = 0;;) {
		size_t end = k; /* the run: boids in front of every obstacle not yet drawn */
		while (end < m && !(next < ns && r->spheres[next].depth > r->order[end].depth))
			end++;
		if (end > k || *paint)
			draw_sorted(r, v, k, end, base, tails ? tu : NULL, tv, paint);
		if (next == ns)
			break; /* then end == m */
		/* the obstacles behind the next run (after the last one: the rest) */
		double depth = end < m ? r->order[end].depth : -HUGE_VAL;
		for (; next < ns && r->spheres[next].depth > depth; next++)
			draw_sphere(r, &cam, &f, &p->obstacles[r->spheres[next].i]);
		k = end;
	}
	double tp[3] = { v->target_x, v->target_y, v->target_z }, tu0, tv0, td;
	if (v->has_target && camera_project(&cam, tp, &tu0, &tv0, &td))
		draw_target(r, tu0, tv0);
	if (p->show_ranges && v->n && camera_project(&cam, (double[3]){ v->x[v->n - 1], v->y[v->n - 1], v->z[v->n - 1] },
	                                             &tu0, &tv0, &td)) {
		const struct placed *b = &r->placed[v->n - 1];
		draw_ranges_at(r, b->x, b->y, b->angle, camera_size(&cam, td));
	}
	return 0;
}

/*
 * The 2D pass of render_frame(), under the field's matrix `base`: the
 * obstacles, the trails, the boids placed in index order and drawn by
 * draw_run() (*paint: as there), the target marker and the ranges.
 */
static int draw_2d(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base, int *paint)
{
	int tails = v->trail_len > 1 && r->p.trail_style == RENDER_TRAIL_OPENGL;

	size_t part = v->n < DRAW_PART ? v->n : DRAW_PART;
	if (grow(&r->list, &r->list_cap, part, sizeof(*r->list)) != 0)
		return -ENOMEM;
	draw_obstacles(r);
	if (v->trail_len > 1 && !tails)
		draw_trails(r, v, v->trail_x, v->trail_y);
	if (tails) {
		cairo_set_line_width(r->cr, 2);
		cairo_set_line_cap(r->cr, CAIRO_LINE_CAP_BUTT);
	}
	size_t k = 0;
	do { /* DRAW_PART boids at a time, in index order (an empty flock: its background) */
		size_t m = v->n - k < part ? v->n - k : part;
		for (size_t i = 0; i < m; i++)
			place_flat(r, v, k + i, &r->list[i]);
		draw_run(r, v, r->list, m, base, tails ? v->trail_x : NULL, v->trail_y, paint);
		k += m;
	} while (k < v->n);
	if (v->has_target)
		draw_target(r, v->target_x, v->target_y);
	if (r->p.show_ranges)
		draw_ranges(r, v);
	return 0;
}

/* ------------------------------------------------------------ points */

/*
 * --draw points (points.h): the background and the obstacles (3D: the
 * floor, the box's edges and the spheres, back to front), then every boid
 * but the predators added up as points and composed in the boids' colour,
 * then the predators one by one over them, then the target marker.  The
 * field's matrix `base` takes a point to the picture (it only scales and
 * moves); in 3D the camera's projection comes first and the fog is the
 * points' weight.  No trails, no --show-ranges.
 */
static int draw_points(struct renderer *r, const struct render_view *v, const cairo_matrix_t *base)
{
	const struct render_params *p = &r->p;
	size_t np = v->predators < v->n ? v->predators : v->n;
	struct camera cam;
	struct fog_range f = { 0, 1 };
	double at[3], u, w, d;

	paint_background(r);
	points_clear(&r->pts);
	if (!v->z) {
		draw_obstacles(r);
		cairo_surface_flush(r->surface);
		points_plane(&r->pts, v->x, v->y, np, v->n, base->xx, base->x0, base->y0);
	} else {
		int err = room_3d(r, 0, 0); /* the spheres' list */
		if (err)
			return err;
		camera_place(&cam, &p->camera, p->box, p->width / p->scale, p->height / p->scale, v->frame);
		f = box_depths(&cam, p->box);
		if (p->ground)
			draw_ground(r, &cam, &f);
		if (p->box_edges)
			draw_box_edges(r, &cam, &f);
		for (size_t k = 0, m = place_spheres(r, &cam); k < m; k++)
			draw_sphere(r, &cam, &f, &p->obstacles[r->spheres[k].i]);
		cairo_surface_flush(r->surface);
		for (size_t i = np; i < v->n; i++) {
			at[0] = v->x[i], at[1] = v->y[i], at[2] = v->z[i];
			if (camera_project(&cam, at, &u, &w, &d))
				points_add(&r->pts, u * base->xx + base->x0, w * base->yy + base->y0,
				           (unsigned)lround(POINTS_WHOLE * (1 - p->fog * depth_place(&f, d))));
		}
	}
	points_compose(&r->pts, r->data, r->stride, p->boid_color);
	for (size_t i = 0; i < np; i++) { /* the predators, in index order, over the flock */
		unsigned q = POINTS_WHOLE;
		u = v->x[i], w = v->y[i];
		if (v->z) {
			at[0] = v->x[i], at[1] = v->y[i], at[2] = v->z[i];
			if (!camera_project(&cam, at, &u, &w, &d))
				continue;
			q = (unsigned)lround(POINTS_WHOLE * (1 - p->fog * depth_place(&f, d)));
		}
		points_blend_one(r->data, r->stride, p->width, p->height, u * base->xx + base->x0,
		                 w * base->yy + base->y0, q, p->predator_color);
	}
	cairo_surface_mark_dirty(r->surface);
	if (v->has_target && !v->z)
		draw_target(r, v->target_x, v->target_y);
	at[0] = v->target_x, at[1] = v->target_y, at[2] = v->target_z;
	if (v->has_target && v->z && camera_project(&cam, at, &u, &w, &d))
		draw_target(r, u, w);
	return 0;
}

int render_frame(struct renderer *r, const struct render_view *v)
{
	cairo_t *cr = r->cr;
	const struct render_params *p = &r->p;
	cairo_matrix_t base; /* the field's matrix: masks start from it */

	assert(v->n == 0 || (v->x && v->y && v->vx && v->vy));
	cairo_save(cr);
	if (p->grid == RENDER_GRID_GDI)
		cairo_translate(cr, .5, .5); /* whole coordinates on pixel centres */
	if (p->offset[0] != 0 || p->offset[1] != 0)
		cairo_translate(cr, p->offset[0], p->offset[1]); /* --field: centred */
	cairo_scale(cr, p->scale, p->scale);
	cairo_get_matrix(cr, &base);
	/* nothing but the background under the boids (3D: obstacles come between runs): the
	 * bands paint it band by band */
	int paint = r->masks && v->trail_len <= 1 && (v->z ? !p->ground && !p->box_edges : !p->obstacles_n);
	if (!paint && p->draw != RENDER_DRAW_POINTS)
		paint_background(r);
	int err = p->draw == RENDER_DRAW_POINTS ? draw_points(r, v, &base) :
	          v->z ? draw_3d(r, v, &base, &paint) : draw_2d(r, v, &base, &paint);
	cairo_restore(cr);
	cairo_surface_flush(r->surface);
	return err ? err : cairo_error_code(cairo_status(cr));
}

const unsigned char *render_pixels(const struct renderer *r, int *stride)
{
	if (stride)
		*stride = cairo_image_surface_get_stride(r->surface);
	return cairo_image_surface_get_data(r->surface);
}

/*
 * GetAngle() of the original, in degrees, then converted:
 * atan(vy / vx) - 90, plus 180 for vx < 0; 0 at rest or for a NaN.
 * A zero vx of either sign counts as +0, so a boid moving straight down
 * with vx == -0.0 still faces down (the original would turn it around).
 */
double render_heading(double vx, double vy)
{
	double deg;

	if (isnan(vx) || isnan(vy) || (vx == 0 && vy == 0))
		return 0;
	if (vx == 0)
		vx = 0.0; /* drop the sign of -0.0 */
	deg = atan(vy / vx) * 180 / M_PI - 90;
	if (vx < 0)
		deg += 180;
	if (!isfinite(deg))
		return 0; /* both infinite: no direction */
	return deg * (M_PI / 180);
}

void render_free(struct renderer *r)
{
	if (!r)
		return;
	if (r->cr)
		cairo_destroy(r->cr);
	if (r->mcr)
		cairo_destroy(r->mcr);
	if (r->msurf)
		cairo_surface_destroy(r->msurf);
	if (r->surface)
		cairo_surface_destroy(r->surface);
	free(r->mem); /* after the surface that used it */
	if (r->backdrop)
		cairo_surface_destroy(r->backdrop);
	free(r->flat[0].pts);
	free(r->flat[1].pts);
	free(r->acc);
	free(r->rowspan);
	free(r->dev);
	free(r->one);
	free(r->bg_row);
	free(r->bands.mask);
	free(r->bands.list);
	free(r->bands.start); /* held[] too */
	free(r->bands.arena[0]);
	free(r->bands.arena[1]);
	free(r->list);
	free(r->placed);
	free(r->order);
	free(r->trail_uv);
	free(r->spheres);
	points_release(&r->pts);
	free(r);
}
