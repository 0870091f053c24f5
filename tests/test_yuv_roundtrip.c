/*
 * yuv: known colours through the yuv420p converter (include/yuv.h) and
 * back.  Black, white, the primaries and secondaries, every grey and a few
 * of boids' own colours, each filling 2x2 blocks (so chroma subsampling
 * averages nothing), decoded with BT.709's inverse in floating point
 * (limited range: Y 16..235, U/V 16..240 around 128) and rounded to
 * 8 bits as a player shows them: every channel within one level of what
 * went in (8-bit Y, U and V alone round-trip green's blue to 1.14), and
 * the limited range's ends exact.  A digit swapped in any weight fails.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "yuv.h"

#define W 32 /* blocks of 2x2 pixels: 16 colours a row */
#define H 34

/* BT.709 limited range back to R'G'B' 0..255, by the book. */
static void decode(int y, int u, int v, double rgb[3])
{
	const double kr = .2126, kb = .0722, kg = 1 - kr - kb;
	double l = (y - 16) * 255.0 / 219, pb = (u - 128) * 255.0 / 224, pr = (v - 128) * 255.0 / 224;
	rgb[0] = l + 2 * (1 - kr) * pr;
	rgb[2] = l + 2 * (1 - kb) * pb;
	rgb[1] = (l - kr * rgb[0] - kb * rgb[2]) / kg;
}

Test(yuv, known_colours_come_back_within_one_level)
{
	static uint32_t px[W * H];
	static uint8_t y[W * H], u[W * H / 4], v[W * H / 4];
	uint8_t *const planes[3] = { y, u, v };
	const int ls[3] = { W, W / 2, W / 2 };
	uint32_t colours[W / 2 * H / 2];
	static const uint32_t named[] = { 0x000000, 0xffffff, 0xff0000, 0x00ff00, 0x0000ff, 0x00ffff, 0xff00ff,
		                          0xffff00, 0x808080, 0x7f7f7f, 0x90ee90 /* LightGreen */,
		                          0x000080 /* navy */, 0xffd700, 0x010203, 0xfefdfc };
	size_t n = 0;

	for (; n < sizeof named / sizeof *named; n++)
		colours[n] = named[n];
	for (int g = 0; g < 256; g++, n++) /* every grey */
		colours[n] = (uint32_t)g * 0x010101u;
	while (n < sizeof colours / sizeof *colours) /* and the 27 corners and midpoints of the cube, again and again */
		colours[n] = (uint32_t)((n % 3) * 0x7f8 / 8) << 16 | (uint32_t)((n / 3 % 3) * 0x7f8 / 8) << 8 |
		             (uint32_t)(n / 9 % 3 * 0x7f8 / 8), n++;
	for (int by = 0; by < H / 2; by++)
		for (int bx = 0; bx < W / 2; bx++)
			for (int k = 0; k < 4; k++)
				px[(2 * by + k / 2) * W + 2 * bx + k % 2] = 0xff000000u | colours[by * (W / 2) + bx];
	yuv_from_argb(planes, ls, (const unsigned char *)px, W * 4, W, H);

	for (int by = 0; by < H / 2; by++)
		for (int bx = 0; bx < W / 2; bx++) {
			uint32_t c = colours[by * (W / 2) + bx];
			int want[3] = { (int)(c >> 16 & 255), (int)(c >> 8 & 255), (int)(c & 255) };
			int cu = u[by * ls[1] + bx], cv = v[by * ls[2] + bx];
			for (int k = 0; k < 4; k++) {
				int cy = y[(2 * by + k / 2) * ls[0] + 2 * bx + k % 2];
				double got[3];
				decode(cy, cu, cv, got);
				for (int i = 0; i < 3; i++)
					cr_assert(abs((int)lround(got[i]) - want[i]) <= 1,
					          "#%06x -> Y %d U %d V %d -> (%.2f, %.2f, %.2f): channel %d off by %.2f", c, cy,
					          cu, cv, got[0], got[1], got[2], i, got[i] - want[i]);
			}
		}
	/* the limited range's ends: black 16, white 235, grey's chroma 128 */
	cr_assert_eq(y[0], 16);
	cr_assert_eq(u[0], 128);
	cr_assert_eq(v[0], 128);
	cr_assert_eq(y[2], 235);
	/* pure blue has U at the top of its range, pure red V */
	cr_assert_eq(u[4], 240, "blue's U %d", u[4]);
	cr_assert_eq(v[2], 240, "red's V %d", v[2]);
}
