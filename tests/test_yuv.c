/*
 * yuv: the fixed-point converter against BT.709's definitions computed in
 * floating point (limited range, chroma from the mean of each 2x2 block).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "yuv.h"

#define W 64
#define H 38

/* Checks every sample of a converted picture against the formulas; *worst
 * gets the largest difference. */
static void check(const uint32_t *px, uint8_t *const planes[3], const int ls[3], int *worst)
{
	const double kr = .2126, kb = .0722, kg = 1 - kr - kb;

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			uint32_t p = px[y * W + x];
			double l = kr * (p >> 16 & 255) + kg * (p >> 8 & 255) + kb * (p & 255);
			int d = abs(planes[0][y * ls[0] + x] - (int)lround(16 + 219.0 / 255 * l));
			*worst = d > *worst ? d : *worst;
		}
	for (int y = 0; y < H / 2; y++)
		for (int x = 0; x < W / 2; x++) {
			double r = 0, g = 0, b = 0;
			for (int k = 0; k < 4; k++) {
				uint32_t p = px[(2 * y + k / 2) * W + 2 * x + k % 2];
				r += (p >> 16 & 255) / 4.0, g += (p >> 8 & 255) / 4.0, b += (p & 255) / 4.0;
			}
			double l = kr * r + kg * g + kb * b;
			int du = abs(planes[1][y * ls[1] + x] -
			             (int)lround(128 + 224.0 / 255 * (b - l) / (2 * (1 - kb))));
			int dv = abs(planes[2][y * ls[2] + x] -
			             (int)lround(128 + 224.0 / 255 * (r - l) / (2 * (1 - kr))));
			*worst = du > *worst ? du : *worst;
			*worst = dv > *worst ? dv : *worst;
		}
}

Test(yuv, random_pixels_within_one_level_of_bt709)
{
	static uint32_t px[W * H];
	static uint8_t y[W * H + 7], u[W * H / 4 + 5], v[W * H / 4 + 5];
	uint8_t *const planes[3] = { y, u, v };
	const int ls[3] = { W, W / 2, W / 2 };
	int worst = 0;

	srand(31);
	for (int i = 0; i < W * H; i++)
		px[i] = 0xff000000u | (uint32_t)rand() % 0x1000000u;
	yuv_from_argb(planes, ls, (const unsigned char *)px, W * 4, W, H);
	check(px, planes, ls, &worst);
	cr_expect_leq(worst, 1, "fixed point is off BT.709 by %d levels", worst);
}

Test(yuv, grey_is_exactly_neutral_and_extremes_are_limited_range)
{
	static uint32_t px[W * H];
	static uint8_t y[W * H], u[W * H / 4], v[W * H / 4];
	uint8_t *const planes[3] = { y, u, v };
	const int ls[3] = { W, W / 2, W / 2 };

	for (int i = 0; i < W * H; i++) {
		uint32_t g = (uint32_t)(i % 3 == 0 ? 0 : i % 3 == 1 ? 255 : (i * 7) % 256);
		px[i] = 0xff000000u | g << 16 | g << 8 | g;
	}
	yuv_from_argb(planes, ls, (const unsigned char *)px, W * 4, W, H);
	for (int i = 0; i < W * H / 4; i++) {
		cr_assert_eq(u[i], 128, "grey's U at %d", i);
		cr_assert_eq(v[i], 128, "grey's V at %d", i);
	}
	cr_expect_eq(y[0], 16, "black is 16");
	cr_expect_eq(y[1], 235, "white is 235");
}
