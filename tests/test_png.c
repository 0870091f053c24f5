/*
 * png: written files decode (with libpng's own reader) to exactly the
 * rendered pixels, at every level, from memory and from a stream; a full
 * disk is an error, not a crash.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "pngout.h"
#include "render.h"

/* A typical frame: w x h, 100 boids (3 predators) from a fixed LCG. */
static struct renderer *typical_frame(int w, int h)
{
	enum { N = 100 };
	double x[N], y[N], vx[N], vy[N];
	uint64_t s = 12345;
	struct render_params p;
	struct render_view v = { .n = N, .predators = 3, .x = x, .y = y, .vx = vx, .vy = vy };
	struct renderer *r;

	for (int i = 0; i < N; i++) {
		double u[4];
		for (int k = 0; k < 4; k++) {
			s = s * 6364136223846793005ULL + 1442695040888963407ULL;
			u[k] = (double)(s >> 11) * 0x1.0p-53;
		}
		x[i] = u[0] * w;
		y[i] = u[1] * h;
		vx[i] = u[2] - .5;
		vy[i] = u[3] - .5;
	}
	render_params_default(&p, w, h);
	cr_assert_eq(render_new(&r, &p), 0);
	cr_assert_eq(render_frame(r, &v), 0);
	return r;
}

/* Decodes a PNG held in memory to RGB; caller frees. */
static unsigned char *decode(const unsigned char *png, size_t len, int w, int h)
{
	png_image img;
	unsigned char *rgb;

	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	cr_assert(png_image_begin_read_from_memory(&img, png, len), "%s", img.message);
	cr_assert_eq(img.width, (png_uint_32)w);
	cr_assert_eq(img.height, (png_uint_32)h);
	cr_assert_eq(img.format & PNG_FORMAT_FLAG_ALPHA, 0, "no alpha channel written");
	img.format = PNG_FORMAT_RGB;
	rgb = malloc(PNG_IMAGE_SIZE(img));
	cr_assert_not_null(rgb);
	cr_assert(png_image_finish_read(&img, NULL, rgb, 0, NULL), "%s", img.message);
	return rgb;
}

/* Every decoded pixel equals the ARGB32 buffer's r, g, b (opaque input). */
static void expect_same(const unsigned char *rgb, const unsigned char *px, int stride,
                        int w, int h)
{
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint32_t c;
			const unsigned char *d = rgb + 3 * ((size_t)y * (size_t)w + (size_t)x);
			memcpy(&c, px + (size_t)y * (size_t)stride + 4 * (size_t)x, 4);
			cr_assert_eq(c >> 24, 0xFF);
			cr_assert(d[0] == (c >> 16 & 0xFF) && d[1] == (c >> 8 & 0xFF) &&
			          d[2] == (c & 0xFF),
			          "pixel (%d,%d): %02x%02x%02x, rendered %06x", x, y, d[0], d[1],
			          d[2], (unsigned)(c & 0xFFFFFF));
		}
}

Test(png, memory_decodes_to_rendered_pixels)
{
	struct renderer *r = typical_frame(640, 360);
	int stride;
	const unsigned char *px = render_pixels(r, &stride);
	unsigned char *png, *rgb;
	size_t len;

	cr_assert_eq(pngout_write_mem(&png, &len, 640, 360, stride, px,
	                              PNGOUT_DEFAULT_LEVEL), 0);
	cr_assert_gt(len, 8);
	cr_expect_eq(memcmp(png, "\x89PNG\r\n\x1a\n", 8), 0);
	rgb = decode(png, len, 640, 360);
	expect_same(rgb, px, stride, 640, 360);
	free(rgb);
	free(png);
	render_free(r);
}

Test(png, stream_decodes_to_rendered_pixels)
{
	struct renderer *r = typical_frame(320, 200);
	int stride;
	const unsigned char *px = render_pixels(r, &stride);
	FILE *f = tmpfile();
	unsigned char *buf, *rgb;
	long len;

	cr_assert_not_null(f);
	cr_assert_eq(pngout_write_stream(f, 320, 200, stride, px, 6), 0);
	len = ftell(f);
	cr_assert_gt(len, 8);
	rewind(f);
	buf = malloc((size_t)len);
	cr_assert_eq(fread(buf, 1, (size_t)len, f), (size_t)len);
	cr_assert_eq(fclose(f), 0);
	rgb = decode(buf, (size_t)len, 320, 200);
	expect_same(rgb, px, stride, 320, 200);
	free(rgb);
	free(buf);
	render_free(r);
}

Test(png, every_level_same_pixels)
{
	struct renderer *r = typical_frame(200, 120);
	int stride;
	const unsigned char *px = render_pixels(r, &stride);
	size_t size0 = 0, size9 = 0;

	for (int level = 0; level <= 9; level++) {
		unsigned char *png, *rgb;
		size_t len;
		cr_assert_eq(pngout_write_mem(&png, &len, 200, 120, stride, px, level), 0,
		             "level %d", level);
		rgb = decode(png, len, 200, 120);
		expect_same(rgb, px, stride, 200, 120);
		if (level == 0)
			size0 = len;
		if (level == 9)
			size9 = len;
		free(rgb);
		free(png);
	}
	cr_expect_gt(size0, 3 * 200 * 120, "level 0 stores");
	cr_expect_lt(size9 * 5, size0, "level 9 compresses: %zu vs %zu", size9, size0);
	render_free(r);
}

/* Hand-made premultiplied pixels, rows padded with junk past 4 * w. */
Test(png, translucent_pixels_unpremultiplied)
{
	const uint32_t in[] = {
		0xFF123456, 0x00000000, 0x80402010, 0x80808080,
		0x01010101, 0x40203f00, 0xC0A0B0C0, 0x7F7F0000,
	};
	enum { W = 4, H = 2, STRIDE = 4 * W + 12 };
	unsigned char buf[STRIDE * H], *png, *rgb;
	size_t len;

	memset(buf, 0xAB, sizeof(buf));
	for (int i = 0; i < W * H; i++)
		memcpy(buf + (i / W) * STRIDE + 4 * (i % W), &in[i], 4);
	cr_assert_eq(pngout_write_mem(&png, &len, W, H, STRIDE, buf, 1), 0);
	rgb = decode(png, len, W, H);
	for (int i = 0; i < W * H; i++) {
		uint32_t a = in[i] >> 24;
		for (int k = 0; k < 3; k++) {
			uint32_t c = in[i] >> (16 - 8 * k) & 0xFF;
			long want = a ? lround(c * 255.0 / a) : 0;
			cr_expect_eq(rgb[3 * i + k], want, "pixel %d channel %d: %d, want %ld",
			             i, k, rgb[3 * i + k], want);
		}
	}
	cr_expect_eq(rgb[0], 0x12);
	cr_expect_eq(rgb[3 * 2], 128); /* 0x40 at alpha 0x80: 127.5 rounds up */
	free(rgb);
	free(png);
}

Test(png, full_disk_is_an_error)
{
	struct renderer *r = typical_frame(320, 200);
	int stride;
	const unsigned char *px = render_pixels(r, &stride);
	FILE *f = fopen("/dev/full", "wb");

	if (!f) {
		render_free(r);
		cr_skip_test("no /dev/full");
	}
	cr_expect_eq(pngout_write_stream(f, 320, 200, stride, px, 1), -ENOSPC, "a full disk says so");
	fclose(f);

	/* small enough to sit in stdio's buffer until the final flush */
	f = fopen("/dev/full", "wb");
	cr_assert_not_null(f);
	cr_expect_eq(pngout_write_stream(f, 4, 4, stride, px, 9), -ENOSPC);
	fclose(f);
	render_free(r);
}

Test(png, bad_arguments_refused)
{
	unsigned char px[64] = { 0 }, *png = (unsigned char *)px;
	size_t len = 99;

	cr_expect_eq(pngout_write_mem(&png, &len, 4, 4, 16, px, 10), -EINVAL);
	cr_expect_null(png);
	cr_expect_eq(len, 0);
	cr_expect_eq(pngout_write_mem(&png, &len, 4, 4, 16, px, -1), -EINVAL);
	cr_expect_eq(pngout_write_mem(&png, &len, 4, 4, 12, px, 1), -EINVAL);
	cr_expect_eq(pngout_write_mem(&png, &len, 0, 4, 16, px, 1), -EINVAL);
	cr_expect_eq(pngout_write_mem(&png, &len, 4, 0, 16, px, 1), -EINVAL);
	cr_expect_eq(pngout_write_stream(stdout, 4, -1, 16, px, 1), -EINVAL);
}
