/*
 * kde — points with directions, smoothed by a bell, a row at a time; see
 * include/kde.h.  Start at kde_begin() (the kernel's weights, the grid and
 * its bands), then file() (a point into its band's chunks), then
 * kde_run(): each band added into a few rows (add_band()), each row
 * filtered along the row (across()), each output row down the columns
 * (down()).
 */
#include "kde.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "points.h"

#define KDE_CHUNK 4096          /* records a chunk */
#define ACC_BYTES (512 << 10)   /* a band's sums at most: half a core's L2 cache */
#define NONE UINT32_MAX

void kde_init(struct kde *k, int width, int height)
{
	memset(k, 0, sizeof(*k));
	k->width = width;
	k->height = height;
}

void kde_release(struct kde *k)
{
	free(k->pool);
	free(k->next);
	free(k->first);
	free(k->last);
	free(k->fill);
	free(k->acc);
	free(k->hrow);
	free(k->out);
	kde_init(k, k->width, k->height);
}

/* The bell of half-width h (>= 1): offsets 0 .. K with K < h, 65536ths summing to 65536 both ways. */
static void bell(struct kde *k, double h)
{
	double raw[KDE_TAPS_MAX + 1], sum = 1;
	uint32_t side = 0;

	k->taps = (int)ceil(h) - 1;
	for (int i = 1; i <= k->taps; i++) {
		double u = 2.0 * i / h; /* the cubic B-spline, 1 at 0 */
		raw[i] = u < 1 ? (4 - 6 * u * u + 3 * u * u * u) / 4 : (2 - u) * (2 - u) * (2 - u) / 4;
		sum += 2 * raw[i];
	}
	for (int i = 1; i <= k->taps; i++)
		side += k->weight[i] = (uint32_t)lround(65536 * raw[i] / sum);
	k->weight[0] = 65536 - 2 * side;
}

/* The grid, its bands and the buffers for the kernel set.  0 or -ENOMEM. */
static int layout(struct kde *k)
{
	k->apron = k->taps + 1;
	k->gw = k->width + 2 * k->apron;
	k->gh = k->height + 2 * k->apron;
	k->shift = 0;
	while (k->shift < KDE_SHIFT_MAX && ((size_t)(2 << k->shift) + 1) * (size_t)k->gw * 3 * sizeof(uint32_t) <= ACC_BYTES)
		k->shift++;
	k->bands = ((k->gh - 1) >> k->shift) + 1;
	k->hrows = 1;
	while (k->hrows < 2 * k->taps + 1)
		k->hrows <<= 1;
	size_t acc = (((size_t)1 << k->shift) + 1) * (size_t)k->gw * 3, hrow = (size_t)k->hrows * (size_t)k->width * 3;
	size_t bands = (size_t)k->bands;
	if (acc > k->acc_cap) {
		free(k->acc);
		if (!(k->acc = calloc(acc, sizeof(*k->acc))))
			return k->acc_cap = 0, -ENOMEM;
		k->acc_cap = acc;
	}
	for (int t = 0; t <= 1 << KDE_SHIFT_MAX; t++) /* all 0 (kde_run() leaves them so): spans empty */
		k->alo[t] = INT32_MAX, k->ahi[t] = 0;
	if (grow(&k->hrow, &k->hrow_cap, hrow, hrow, sizeof(*k->hrow)) != 0 ||
	    grow_to(&k->out, (size_t)k->width * 3, sizeof(*k->out)) != 0)
		return -ENOMEM;
	memset(k->hrow, 0, hrow * sizeof(*k->hrow)); /* the slots: 0 outside their spans, none yet */
	memset(k->hlo, 0, sizeof(k->hlo));
	memset(k->hhi, 0, sizeof(k->hhi));
	if (bands > k->bands_cap) {
		if (grow_to(&k->first, bands, sizeof(*k->first)) != 0 || grow_to(&k->last, bands, sizeof(*k->last)) != 0 ||
		    grow_to(&k->fill, bands, sizeof(*k->fill)) != 0)
			return -ENOMEM;
		k->bands_cap = bands;
	}
	return 0;
}

int kde_begin(struct kde *k, double half, size_t n)
{
	double h = half > KDE_MAX_HALF ? KDE_MAX_HALF : half;

	memset(k->weight, 0, sizeof(k->weight));
	if (h >= 1)
		bell(k, h);
	else
		k->taps = 0, k->weight[0] = 65536, h = 0;
	k->half = h;
	int err = layout(k);
	if (err)
		return err;
	for (int b = 0; b < k->bands; b++)
		k->first[b] = k->last[b] = NONE, k->fill[b] = KDE_CHUNK;
	k->chunks = 0;
	size_t want = n / KDE_CHUNK + 1 + (size_t)k->bands; /* every band may leave a chunk part full */
	if (want > k->cap) {
		free(k->pool);
		if (!(k->pool = malloc(want * KDE_CHUNK * sizeof(*k->pool))) ||
		    grow_to(&k->next, want, sizeof(*k->next)) != 0)
			return k->cap = 0, -ENOMEM;
		k->cap = want;
	}
	return 0;
}

/*
 * Directions: a unit vector (dx, dy) / |(dx, dy)| as round(127 c) in whole
 * numbers, computed in single precision (the float of dx, dy; their
 * squares' sum; 32512 / its square root; each component times that,
 * truncated to 256ths, then rounded to a whole 256th, halves up): every
 * step a single IEEE operation, no sum of a product, so the same on any
 * machine.  Four at a time with SSE2 (a fifth of the doubles' square root
 * and division one after another, the slowest part of a point), else one
 * by one, the same words.
 */
#define DIR_BLOCK 256 /* directions computed ahead of their points */

/* The direction word of components cx, cy (whole 256ths of 127 rounded), or none. */
static inline uint32_t dir_word(int32_t qx, int32_t qy)
{
	return (uint32_t)((qx + 128) >> 8 & 255) << 16 | (uint32_t)((qy + 128) >> 8 & 255) << 24;
}

#ifdef __SSE2__
#include <emmintrin.h>

/* Directions of dx[0 .. 4), dy[0 .. 4) into out[0 .. 4). */
static inline void dir4(const double *dx, const double *dy, uint32_t *out)
{
	__m128 fx = _mm_movelh_ps(_mm_cvtpd_ps(_mm_loadu_pd(dx)), _mm_cvtpd_ps(_mm_loadu_pd(dx + 2)));
	__m128 fy = _mm_movelh_ps(_mm_cvtpd_ps(_mm_loadu_pd(dy)), _mm_cvtpd_ps(_mm_loadu_pd(dy + 2)));
	__m128 s2 = _mm_add_ps(_mm_mul_ps(fx, fx), _mm_mul_ps(fy, fy));
	__m128 ok = _mm_and_ps(_mm_cmpgt_ps(s2, _mm_setzero_ps()), _mm_cmplt_ps(s2, _mm_set1_ps(INFINITY)));
	__m128 f = _mm_div_ps(_mm_set1_ps(32512.0f), _mm_sqrt_ps(s2));
	__m128i half = _mm_set1_epi32(128), byte = _mm_set1_epi32(255);
	__m128i cx = _mm_and_si128(_mm_srai_epi32(_mm_add_epi32(_mm_cvttps_epi32(_mm_mul_ps(fx, f)), half), 8), byte);
	__m128i cy = _mm_and_si128(_mm_srai_epi32(_mm_add_epi32(_mm_cvttps_epi32(_mm_mul_ps(fy, f)), half), 8), byte);
	__m128i d = _mm_or_si128(_mm_slli_epi32(cx, 16), _mm_slli_epi32(cy, 24));
	_mm_storeu_si128((__m128i *)(void *)out, _mm_and_si128(d, _mm_castps_si128(ok)));
}
#else
static inline void dir4(const double *dx, const double *dy, uint32_t *out)
{
	for (int i = 0; i < 4; i++) {
		float fx = (float)dx[i], fy = (float)dy[i], s2 = fx * fx + fy * fy;
		float f = 32512.0f / sqrtf(s2);
		out[i] = s2 > 0 && s2 < INFINITY ? dir_word((int32_t)(fx * f), (int32_t)(fy * f)) : 0;
	}
}
#endif

/* The directions of the n <= DIR_BLOCK points dx[i], dy[i] into out (whole fours, the last padded). */
static void directions(const double *dx, const double *dy, size_t n, uint32_t *out)
{
	size_t i = 0;
	for (; i + 4 <= n; i += 4)
		dir4(dx + i, dy + i, out + i);
	if (i < n) {
		double px[4] = { 0, 0, 0, 0 }, py[4] = { 0, 0, 0, 0 };
		memcpy(px, dx + i, (n - i) * sizeof(*px));
		memcpy(py, dy + i, (n - i) * sizeof(*py));
		dir4(px, py, out + i);
	}
}

uint32_t kde_direction(double dx, double dy)
{
	uint32_t out[4];

	directions(&dx, &dy, 1, out);
	return out[0];
}

/*
 * The first grid pixel a point at u covers on one axis (its square starts
 * at a = u - .5) and its 256ths of the next one; -1 when the point is out
 * of [0, n - 2] there (its shares could reach no pixel the kernel reads)
 * or not finite.
 */
static inline int axis(double u, int apron, int n, int *i0, unsigned *f)
{
	double a = u - .5 + apron;

	if (!(a >= 0 && a < n - 1)) /* also NaN */
		return -1;
	int i = (int)a; /* floor: a >= 0 */
	*i0 = i;
	*f = (unsigned)((a - i) * 256); /* a - i is exact (Sterbenz) and under 1: [0, 255] */
	return 0;
}

/* Files a point in its band: the record, in the band's last chunk (a new one when it is full). */
static inline __attribute__((always_inline)) void file(struct kde *k, double u, double v, uint32_t dir, unsigned q)
{
	int i0, j0;
	unsigned fx, fy;

	if (axis(u, k->apron, k->gw, &i0, &fx) != 0 || axis(v, k->apron, k->gh, &j0, &fy) != 0)
		return;
	uint32_t b = (uint32_t)j0 >> k->shift, f = k->fill[b], c = k->last[b];
	if (f == KDE_CHUNK) {
		uint32_t fresh = (uint32_t)k->chunks++;
		if (c == NONE)
			k->first[b] = fresh;
		else
			k->next[c] = fresh;
		k->next[fresh] = NONE;
		k->last[b] = c = fresh;
		f = 0;
	}
	uint32_t at = (uint32_t)(j0 - (int)(b << k->shift)) * (uint32_t)k->gw + (uint32_t)i0;
	k->pool[(size_t)c * KDE_CHUNK + f] = (struct kde_rec){ at | (q - 1) << 21, fx | fy << 8 | (dir & 0xFFFF0000u) };
	k->fill[b] = f + 1;
}

void kde_add(struct kde *k, double u, double v, uint32_t dir, unsigned q)
{
	if (q)
		file(k, u, v, dir, q > POINTS_WHOLE ? POINTS_WHOLE : q);
}

void kde_plane(struct kde *k, const double *x, const double *y, const double *dx, const double *dy,
               size_t from, size_t to, double scale, double ox, double oy)
{
	uint32_t dir[DIR_BLOCK + 3];

	for (size_t i = from; i < to; i += DIR_BLOCK) {
		size_t m = to - i < DIR_BLOCK ? to - i : DIR_BLOCK;
		directions(dx + i, dy + i, m, dir);
		for (size_t j = 0; j < m; j++)
			file(k, x[i + j] * scale + ox, y[i + j] * scale + oy, dir[j], POINTS_WHOLE);
	}
}

/* sum += w, stopping at UINT32_MAX: min(total, UINT32_MAX) whatever the order. */
static inline void add_sat(uint32_t *sum, uint32_t w)
{
	uint32_t s = *sum + w;
	*sum = s < w ? UINT32_MAX : s;
}

/* One share w of a point of direction components cx, cy into the pixel's three sums. */
static inline void share(uint32_t *p, uint32_t w, uint32_t cx, uint32_t cy)
{
	uint32_t ws = (w + 128) >> 8;

	add_sat(p, w);
	p[1] += cx * ws; /* wrapping: the same words in any order */
	p[2] += cy * ws;
}

/* Adds band b's records into k->acc (its rows and the row after them), widening their spans. */
static void add_band(struct kde *k, int b)
{
	size_t row = 3 * (size_t)k->gw;
	uint32_t lo = UINT32_MAX, hi = 0, gw = (uint32_t)k->gw;
	uint64_t inv = ((uint64_t)1 << 40) / gw + 1; /* at / gw = at inv >> 40 exactly: at < 2^21, gw < 2^19 */

	for (uint32_t c = k->first[b]; c != NONE; c = k->next[c]) {
		const struct kde_rec *r = k->pool + (size_t)c * KDE_CHUNK;
		uint32_t n = c == k->last[b] ? k->fill[b] : KDE_CHUNK, w[4];
		for (uint32_t i = 0; i < n; i++) {
			uint32_t at = r[i].at & 0x1FFFFF, col = at - (uint32_t)((at * inv) >> 40) * gw;
			uint32_t *p = k->acc + 3 * (size_t)at;
			uint32_t cx = (uint32_t)(int32_t)(int8_t)(r[i].w >> 16), cy = (uint32_t)(int32_t)(int8_t)(r[i].w >> 24);
			lo = col < lo ? col : lo;
			hi = col > hi ? col : hi;
			points_shares(r[i].w & 255, r[i].w >> 8 & 255, (r[i].at >> 21) + 1, w);
			share(p, w[0], cx, cy);
			share(p + 3, w[1], cx, cy);
			share(p + row, w[2], cx, cy);
			share(p + row + 3, w[3], cx, cy);
		}
	}
	if (lo > hi)
		return; /* no point */
	for (int t = 0; t <= 1 << k->shift; t++) { /* the rows of the band and the one after: [lo, hi + 2) */
		k->alo[t] = k->alo[t] < (int)lo ? k->alo[t] : (int)lo;
		k->ahi[t] = k->ahi[t] > (int)hi + 2 ? k->ahi[t] : (int)hi + 2;
	}
}

/* m + (sum + 32768) >> 16 (floor), a smoothed word: the sum of weights x (l + r - 2m) over the offsets. */
static inline uint32_t smoothed(uint32_t m, int64_t sum)
{
	return m + (uint32_t)(int32_t)((sum + 32768) >> 16);
}

/*
 * n pixels smoothed along one axis into out: pixel i's middle at m + 3i,
 * its neighbours t away at m + 3i - back[t] and m + 3i + ahead[t] (words),
 * t = 1 .. K.  The weights sum to 65536, so that w0 m + sum(w (l + r)) =
 * 65536 m + sum(w (l + r - 2m)): the same words, a product less a pixel.
 * Inlined with K a constant for the small kernels (their loops unrolled).
 */
static inline __attribute__((always_inline)) void filter(const uint32_t *wt, int K, const uint32_t *m,
                                                         const ptrdiff_t *back, const ptrdiff_t *ahead,
                                                         uint32_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++, m += 3, out += 3) {
		int64_t c = 0, x = 0, y = 0;
		for (int t = 1; t <= K; t++) {
			const uint32_t *l = m - back[t], *r = m + ahead[t];
			c += wt[t] * ((int64_t)l[0] + r[0] - 2 * (int64_t)m[0]);
			x += wt[t] * ((int64_t)(int32_t)l[1] + (int32_t)r[1] - 2 * (int64_t)(int32_t)m[1]);
			y += wt[t] * ((int64_t)(int32_t)l[2] + (int32_t)r[2] - 2 * (int64_t)(int32_t)m[2]);
		}
		out[0] = smoothed(m[0], c);
		out[1] = smoothed(m[1], x);
		out[2] = smoothed(m[2], y);
	}
}

/* filter() for k's kernel. */
static void smooth(const struct kde *k, const uint32_t *m, const ptrdiff_t *back, const ptrdiff_t *ahead,
                   uint32_t *out, size_t n)
{
	switch (k->taps) {
	case 1:
		filter(k->weight, 1, m, back, ahead, out, n);
		break;
	case 2:
		filter(k->weight, 2, m, back, ahead, out, n);
		break;
	case 3:
		filter(k->weight, 3, m, back, ahead, out, n);
		break;
	default:
		filter(k->weight, k->taps, m, back, ahead, out, n);
	}
}

/*
 * Grid row g along the row into hrow slot `slot` (the picture's width, 3
 * words a pixel): the pixels its span [lo, hi) (grid columns) reaches,
 * which become the slot's span, the rest of the slot's old span set to 0.
 */
static void across(struct kde *k, const uint32_t *g, int lo, int hi, int slot)
{
	int K = k->taps, from = lo - k->apron - K, to = hi - k->apron + K;
	uint32_t *out = k->hrow + (size_t)slot * 3 * (size_t)k->width;
	ptrdiff_t step[KDE_TAPS_MAX + 1];

	from = from < 0 ? 0 : from;
	to = to > k->width ? k->width : to;
	if (from >= to)
		from = to = 0;
	for (int i = k->hlo[slot]; i < k->hhi[slot]; i++) /* what the slot held outside the new span */
		if (i < from || i >= to)
			out[3 * i] = out[3 * i + 1] = out[3 * i + 2] = 0;
	k->hlo[slot] = from, k->hhi[slot] = to;
	for (int t = 0; t <= K; t++)
		step[t] = 3 * t;
	smooth(k, g + 3 * (size_t)(k->apron + from), step, step, out + 3 * (size_t)from, (size_t)(to - from));
}

/* The hrow slots rows[0 .. 2K] down the columns into k->out over [from, to): the middle one smoothed. */
static void down(struct kde *k, const uint32_t *const *rows, int from, int to)
{
	int K = k->taps;
	ptrdiff_t back[KDE_TAPS_MAX + 1], ahead[KDE_TAPS_MAX + 1];

	for (int t = 1; t <= K; t++) {
		back[t] = rows[K] - rows[K - t];
		ahead[t] = rows[K + t] - rows[K];
	}
	smooth(k, rows[K] + 3 * (size_t)from, back, ahead, k->out + 3 * (size_t)from, (size_t)(to - from));
}

/* Grid row y, complete (acc row t): filtered along the row, and the picture row it completes handed out. */
static void grid_row(struct kde *k, int y, int t, kde_row_fn *row, void *arg)
{
	int K = k->taps, mask = k->hrows - 1, lo = k->alo[t], hi = k->ahi[t];
	const uint32_t *g = k->acc + (size_t)t * 3 * (size_t)k->gw;
	size_t w3 = 3 * (size_t)k->width;

	if (y < k->apron - K || y > k->apron + k->height - 1 + K)
		return; /* no picture row's kernel reads it */
	if (!K) { /* the sums as they are */
		int from = lo - k->apron < 0 ? 0 : lo - k->apron, to = hi - k->apron > k->width ? k->width : hi - k->apron;
		row(arg, y - k->apron, g + 3 * (size_t)k->apron, from, from < to ? to : from);
		return;
	}
	across(k, g, lo, hi, y & mask);
	int mid = y - K; /* the grid row whose kernel is now complete */
	if (mid < k->apron || mid > k->apron + k->height - 1)
		return;
	const uint32_t *rows[2 * KDE_TAPS_MAX + 1];
	int from = k->width, to = 0;
	for (int i = 0; i <= 2 * K; i++) {
		int slot = (mid - K + i) & mask;
		rows[i] = k->hrow + (size_t)slot * w3;
		if (k->hlo[slot] < k->hhi[slot]) {
			from = k->hlo[slot] < from ? k->hlo[slot] : from;
			to = k->hhi[slot] > to ? k->hhi[slot] : to;
		}
	}
	if (from < to)
		down(k, rows, from, to);
	row(arg, mid - k->apron, k->out, from < to ? from : 0, from < to ? to : 0);
}

/* Acc row t back to 0 over its span, and its span empty. */
static void clear_row(struct kde *k, int t)
{
	if (k->alo[t] < k->ahi[t])
		memset(k->acc + 3 * ((size_t)t * (size_t)k->gw + (size_t)k->alo[t]), 0,
		       3 * (size_t)(k->ahi[t] - k->alo[t]) * sizeof(*k->acc));
	k->alo[t] = INT32_MAX, k->ahi[t] = 0;
}

void kde_run(struct kde *k, kde_row_fn *row, void *arg)
{
	int rows = 1 << k->shift;
	size_t w3 = 3 * (size_t)k->gw;

	for (int b = 0; b < k->bands; b++) {
		add_band(k, b);
		for (int t = 0; t < rows && (b << k->shift) + t < k->gh; t++)
			grid_row(k, (b << k->shift) + t, t, row, arg);
		for (int t = 0; t < rows; t++)
			clear_row(k, t);
		/* the row after the band (its points' second row) is the next band's first */
		if (k->alo[rows] < k->ahi[rows])
			memcpy(k->acc + 3 * (size_t)k->alo[rows], k->acc + (size_t)rows * w3 + 3 * (size_t)k->alo[rows],
			       3 * (size_t)(k->ahi[rows] - k->alo[rows]) * sizeof(*k->acc));
		k->alo[0] = k->alo[rows], k->ahi[0] = k->ahi[rows];
		clear_row(k, rows);
	}
	clear_row(k, 0);
}
