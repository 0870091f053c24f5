/*
 * bands — a list of placed boids drawn in order (render_draw_run()): boid
 * after boid, or on a picture bigger than a core's cache in bands, each
 * boid's mask made once in the first band it touches and every band
 * blending the masks touching it in drawing order, so each pixel gets the
 * same blends in the same order while the band's rows stay in the cache.
 */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

#include "render_int.h"

/*
 * Can boid b be drawn as a mask in bands?  When a mask holds it, it is
 * opaque (an outline blended by --draw auto is Cairo's) and at most
 * BAND_BOID_MAX pixels across (bigger masks cost more than bands save), or
 * when it is off the picture (nothing to draw either way).
 */
static int bandable(const struct renderer *r, const struct placed *b)
{
	return (b->alpha >= 1 && b->size <= r->mask_size && render_mask_side(r, b->size) <= BAND_BOID_MAX) ||
	       !render_on_picture(r, b);
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
		if (!render_on_picture(r, b))
			continue;
		double cy = base->yx * b->x + base->yy * b->y + base->y0, reach = render_boid_reach(r, b->size);
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

	if (grow(&B->mask, &B->mask_cap, n, n + n / 2, sizeof(*B->mask)) != 0)
		return -ENOMEM;
	double biggest = bands_rows(r, list, n, base);
	int side = (int)ceil(render_mask_side(r, biggest));
	assert(biggest <= r->mask_size && side <= BAND_BOID_MAX); /* bandable() */
	/* bands of about BAND_BYTES of picture, taller than a boid and its fringe: even */
	int rows = (int)(BAND_BYTES / (size_t)r->stride), tall = 2 * (int)ceil(render_boid_reach(r, biggest)) + 2;
	rows = rows > tall ? rows : tall;
	B->rows = rows + (rows & 1);
	int nb = B->nbands = (r->p.height + B->rows - 1) / B->rows;
	size_t starts = 2 * (size_t)nb + 1;
	if (grow(&B->start, &B->band_cap, starts, starts + starts / 2, sizeof(*B->start)) != 0)
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
	if (grow(&B->list, &B->list_cap, entries, entries + entries / 2, sizeof(*B->list)) != 0)
		return -ENOMEM;
	for (int b = 0; b < nb; b++) {
		most = B->held[b] > most ? B->held[b] : most;
		count[b + 1] += count[b];
	}
	size_t bytes = most * (size_t)side * (size_t)side;
	if (bytes > ARENA_MAX)
		return -1; /* draw boid after boid rather than hold that much */
	for (int k = 0; k < 2; k++)
		if (grow(&B->arena[k], &B->arena_cap[k], bytes, bytes + bytes / 2, 1) != 0)
			return -ENOMEM;
	for (size_t k = 0; k < n; k++) /* count[b] runs from band b's start to its end */
		for (int b = B->mask[k].band0; b >= 0 && b <= B->mask[k].band1; b++)
			B->list[count[b]++] = k;
	memmove(count + 1, count, (size_t)nb * sizeof(*count));
	count[0] = 0;
	return 0;
}

/* Picture rows [y0, y1) of the background, as render_paint_background() paints them: copies of a row. */
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
				render_mask_blend(r, mk, B->arena[mk->band0 & 1] + mk->at, y0, y1);
				continue;
			}
			if (mk->made < 0)
				continue;
			/* its first band: hold its mask only if it goes on into the next */
			int held = mk->band1 > b;
			unsigned char *out = held ? B->arena[b & 1] + used : r->one;
			int err = r->fast ? render_fast_boid_at(r, &list[k], base, mk, out) :
			                    render_cairo_mask_at(r, &list[k], base, mk, out);
			mk->made = err ? -1 : 1;
			mk->at = used;
			if (err)
				continue;
			used += held ? (size_t)mk->w * (size_t)mk->h : 0;
			render_mask_blend(r, mk, out, y0, y1);
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
	render_draw_tail(r, v, tx, ty, i, predator ? r->p.predator_color : r->p.boid_color);
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
		if (!render_on_picture(r, b))
			continue;
		if (r->fast && b->size <= r->mask_size) {
			render_fast_boid_now(r, b, base);
			direct = 1;
			continue;
		}
		if (direct) /* Cairo draws over the pixels written since it last did */
			cairo_surface_mark_dirty(r->surface);
		direct = 0;
		render_cairo_boid(r, b, &color); /* exact, or too big for a mask */
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
		render_paint_background(r);
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
void render_draw_run(struct renderer *r, const struct render_view *v, const struct placed *list, size_t n,
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
