/*
 * yuv — Cairo ARGB32 pixels to yuv420p planes, BT.709 limited range, in
 * fixed point; see include/yuv.h.  No FFmpeg types: the video module hands
 * it an AVFrame's planes.
 */
#include "yuv.h"

#include <stddef.h>
#include <stdint.h>

/*
 * ARGB32 -> yuv420p, BT.709, limited range, in 16.16 fixed point: the
 * default for every YUV container and the hot path of a render.  Integer
 * arithmetic only, so it gives the same bytes on every machine (swscale's
 * bit-exact mode does too, but at several times the cost).
 *   Y  = 16  + 219/255 (Kr R + Kg G + Kb B),  Kr .2126, Kb .0722
 *   Cb = 128 + 224/255 (B - Y') / (2 (1 - Kb)),  Cr likewise with R and Kr,
 * each chroma sample from the mean of its 2x2 block (centre sited).
 * Coefficients are rounded to 1/65536, the chroma ones adjusted so each
 * row sums to zero (grey stays exactly 128).
 */
#define YR 11966u
#define YG 40254u
#define YB 4064u
enum { UR = -6596, UG = -22188, UB = 28784, VR = 28784, VG = -26145, VB = -2639 };

/* Plain loops the compiler vectorises (gcc needs asking at -O2). */
#pragma GCC push_options
#pragma GCC optimize("tree-vectorize")

/* One row of luma. */
__attribute__((target_clones("avx2", "default")))
static void luma_row(uint8_t *restrict dst, const uint32_t *restrict src, int w)
{
	for (int x = 0; x < w; x++) {
		uint32_t p = src[x];
		uint32_t r = p >> 16 & 255, g = p >> 8 & 255, b = p & 255;
		dst[x] = (uint8_t)((YR * r + YG * g + YB * b + (16u << 16) + (1u << 15)) >> 16);
	}
}

/* One row of chroma from two rows of pixels. */
__attribute__((target_clones("avx2", "default")))
static void chroma_row(uint8_t *restrict u, uint8_t *restrict v, const uint32_t *restrict r0,
                       const uint32_t *restrict r1, int w)
{
	for (int x = 0; x < w / 2; x++) {
		uint32_t a = r0[2 * x], b = r0[2 * x + 1], c = r1[2 * x], d = r1[2 * x + 1];
		int32_t sr = (int32_t)((a >> 16 & 255) + (b >> 16 & 255) + (c >> 16 & 255) + (d >> 16 & 255));
		int32_t sg = (int32_t)((a >> 8 & 255) + (b >> 8 & 255) + (c >> 8 & 255) + (d >> 8 & 255));
		int32_t sb = (int32_t)((a & 255) + (b & 255) + (c & 255) + (d & 255));
		/* sums of four: the shift divides by 4 too; the offset keeps it positive */
		u[x] = (uint8_t)((UR * sr + UG * sg + UB * sb + (128 << 18) + (1 << 17)) >> 18);
		v[x] = (uint8_t)((VR * sr + VG * sg + VB * sb + (128 << 18) + (1 << 17)) >> 18);
	}
}

#pragma GCC pop_options

void yuv_from_argb(uint8_t *const planes[3], const int linesize[3], const unsigned char *pixels,
                   int stride, int w, int h)
{
	for (int y = 0; y < h; y += 2) {
		const uint32_t *r0 = (const uint32_t *)(const void *)(pixels + (size_t)y * (size_t)stride);
		const uint32_t *r1 = (const uint32_t *)(const void *)(pixels + (size_t)(y + 1) * (size_t)stride);
		uint8_t *y0 = planes[0] + (size_t)y * (size_t)linesize[0];
		luma_row(y0, r0, w);
		luma_row(y0 + linesize[0], r1, w);
		chroma_row(planes[1] + (size_t)(y / 2) * (size_t)linesize[1],
		           planes[2] + (size_t)(y / 2) * (size_t)linesize[2], r0, r1, w);
	}
}
