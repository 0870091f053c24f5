/*
 * raster — one boid's coverage and its blend into the picture: Cairo's
 * fill of a boid straight into the picture (render_cairo_boid()) or into
 * an A8 mask (render_cairo_mask_at()), the fast path's own coverage fill
 * (RENDER_DRAW_FAST: the outline flattened once by Cairo, each boid's
 * points through the same matrix and an accumulation-buffer fill), and
 * the blend of a mask as Cairo's span renderer blends an opaque colour
 * (lerp8x4(), four pixels at a time with SSE2).  Start at
 * render_masks_setup().
 */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "render_int.h"

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
	cairo_scale(cr, r->scale * size, r->scale * size);
	cairo_new_path(cr);
	if (r->p.shape == RENDER_CIRCLE)
		cairo_arc(cr, 0, 0, CIRCLE_RADIUS, 0, 2 * M_PI);
	else
		render_append_outline(r, cr);
	path = cairo_copy_path_flat(cr);
	cairo_new_path(cr);
	cairo_restore(cr);
	err = render_cairo_error_code(path->status);
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
double render_boid_reach(const struct renderer *r, double size)
{
	return (r->reach * size + 1) * r->scale + 1;
}

/* The side of a square buffer that holds a boid of outline scale `size` (its mask, its fill). */
double render_mask_side(const struct renderer *r, double size)
{
	return 2 * (r->reach * size * r->scale + 2) + 4;
}

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
 * each boid into, moved under it by the device offset (render_cairo_mask_at()),
 * with the picture's fill rule and antialiasing and an opaque white source.
 */
static int cairo_masks_setup(struct renderer *r, int side)
{
	r->msurf = cairo_image_surface_create(CAIRO_FORMAT_A8, side, side);
	int err = render_cairo_error_code(cairo_surface_status(r->msurf));
	if (err)
		return err;
	r->mcr = cairo_create(r->msurf);
	if ((err = render_cairo_error_code(cairo_status(r->mcr))) != 0)
		return err;
	cairo_set_fill_rule(r->mcr, CAIRO_FILL_RULE_EVEN_ODD);
	cairo_set_antialias(r->mcr, render_cairo_aa(r->p.antialias));
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
int render_masks_setup(struct renderer *r)
{
	const struct render_params *p = &r->p;
	double big = p->shape == RENDER_CIRCLE ? p->boid_size : p->boid_size * fmax(1, p->predator_size);
	double side = render_mask_side(r, big);
	int err;

	if (side > 4096)
		return 0; /* a boid bigger than a picture: Cairo draws it straight */
	r->mask_size = big;
	if (render_mask_side(r, big * MASK_GROW) <= 4096) {
		side = render_mask_side(r, big * MASK_GROW);
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
	if (p->draw != RENDER_DRAW_FAST && (err = cairo_masks_setup(r, r->acc_w)) != 0) /* exact, auto */
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

void render_masks_release(struct renderer *r)
{
	if (r->mcr)
		cairo_destroy(r->mcr);
	if (r->msurf)
		cairo_surface_destroy(r->msurf);
	r->mcr = NULL;
	r->msurf = NULL;
	for (int k = 0; k < 2; k++) {
		free(r->flat[k].pts);
		r->flat[k].pts = NULL;
	}
	free(r->acc);
	free(r->rowspan);
	free(r->dev);
	free(r->one);
	free(r->bg_row);
	r->acc = NULL;
	r->rowspan = NULL;
	r->dev = NULL;
	r->one = NULL;
	r->bg_row = NULL;
	r->fast = r->masks = 0;
	r->mask_size = 0;
	r->acc_w = r->acc_h = 0;
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
void render_mask_blend(struct renderer *r, const struct boid_mask *mk, const unsigned char *m, int y0, int y1)
{
	int r0 = y0 > mk->oy ? y0 - mk->oy : 0, r1 = y1 < mk->oy + mk->h ? y1 - mk->oy : mk->h;
	int c0 = mk->ox < 0 ? -mk->ox : 0, c1 = mk->ox + mk->w > r->p.width ? r->p.width - mk->ox : mk->w;

	for (int row = r0; row < r1; row++) {
		const unsigned char *a = m + (size_t)row * (size_t)mk->w;
		uint32_t *d = (uint32_t *)(void *)(r->data + (size_t)(mk->oy + row) * (size_t)r->stride) + mk->ox;
		blend_row(d + c0, a + c0, c1 - c0, mk->pixel);
	}
}

/* Boid b's outline as a path on cr under its own translate, rotate and size: the caller saved cr. */
static void boid_path(const struct renderer *r, cairo_t *cr, const struct placed *b)
{
	cairo_translate(cr, b->x, b->y);
	cairo_rotate(cr, b->angle);
	if (b->size != 1)
		cairo_scale(cr, b->size, b->size);
	render_append_outline(r, cr);
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
void render_cairo_boid(struct renderer *r, const struct placed *b, long *color)
{
	cairo_t *cr = r->cr;
	long key = b->alpha < 1 ? (long)b->rgb | (long)lround(b->alpha * 65535) << 24 : (long)b->rgb;

	if (key != *color) {
		/* set outside save/restore, so it survives them */
		if (b->alpha < 1)
			cairo_set_source_rgba(cr, (double)(b->rgb >> 16 & 0xFF) / 255, (double)(b->rgb >> 8 & 0xFF) / 255,
			                      (double)(b->rgb & 0xFF) / 255, b->alpha);
		else
			render_set_color(cr, b->rgb);
		*color = key;
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
 * render_cairo_boid()'s, the same path under the same matrix, into the A8 surface
 * moved under the boid by its device offset, a whole number of pixels, so
 * every coordinate Cairo sees is shifted exactly and the coverage is the
 * one it would blend into the picture.  A boid across the picture's edge
 * is clipped to the picture there too, as Cairo's converter then computes
 * the edge cells differently.  Returns 0, or -1 when nothing is on the
 * picture.  The surface's matrix is the field's (set per run).
 */
int render_cairo_mask_at(struct renderer *r, const struct placed *b, const cairo_matrix_t *base,
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
int render_on_picture(const struct renderer *r, const struct placed *b)
{
	double px = b->x * r->scale + r->offset[0], py = b->y * r->scale + r->offset[1];
	double reach = render_boid_reach(r, b->size);

	return isfinite(px) && isfinite(py) && px >= -reach && px <= r->p.width + reach &&
	       py >= -reach && py <= r->p.height + reach;
}

/*
 * Boid b's mask by the fast path: the field's matrix `base`, moved and
 * turned as Cairo would, then our fill into mk and `out`.  Returns 0, or -1
 * when it leaves nothing on the picture.
 */
int render_fast_boid_at(struct renderer *r, const struct placed *b, const cairo_matrix_t *base,
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
void render_fast_boid_now(struct renderer *r, const struct placed *b, const cairo_matrix_t *base)
{
	struct boid_mask mk;

	if (render_fast_boid_at(r, b, base, &mk, r->one) == 0)
		render_mask_blend(r, &mk, r->one, 0, r->p.height);
}
