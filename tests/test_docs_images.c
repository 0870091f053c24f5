/*
 * The pictures in docs/ show what they claim: each has boids spread over
 * it (not an empty field, not a heap on one edge), judged on the committed
 * files; and README.md prints, under each model's picture, the command
 * scripts/docs-images.sh makes it with.
 */
#include <criterion/criterion.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

TestSuite(docs_images, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup);

static int by_value(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/*
 * Cells of a 4 x 4 grid holding something that stands out from the
 * picture's commonest colour (its background: more than 120 away, summed
 * over R, G and B, in at least 0.3% of the cell's pixels): a bit per cell.
 */
static unsigned occupied(const char *file)
{
	png_image img;
	memset(&img, 0, sizeof img);
	img.version = PNG_IMAGE_VERSION;
	cr_assert(png_image_begin_read_from_file(&img, file), "%s: %s", file, img.message);
	img.format = PNG_FORMAT_RGB;
	unsigned char *px = malloc(PNG_IMAGE_SIZE(img));
	cr_assert(px && png_image_finish_read(&img, NULL, px, 0, NULL), "%s", img.message);
	size_t w = img.width, h = img.height, n = w * h;
	uint32_t *all = malloc(n * sizeof *all);
	cr_assert_not_null(all);
	for (size_t i = 0; i < n; i++)
		all[i] = (uint32_t)px[3 * i] << 16 | (uint32_t)px[3 * i + 1] << 8 | px[3 * i + 2];
	qsort(all, n, sizeof *all, by_value);
	uint32_t bg = all[0];
	for (size_t i = 0, run = 0, best = 0; i < n; i++) {
		run = i && all[i] == all[i - 1] ? run + 1 : 1;
		if (run > best)
			best = run, bg = all[i];
	}
	unsigned cells = 0;
	for (int c = 0; c < 16; c++) {
		size_t x0 = (size_t)(c % 4) * w / 4, x1 = (size_t)(c % 4 + 1) * w / 4;
		size_t y0 = (size_t)(c / 4) * h / 4, y1 = (size_t)(c / 4 + 1) * h / 4, hit = 0;
		for (size_t y = y0; y < y1; y++)
			for (size_t x = x0; x < x1; x++) {
				const unsigned char *p = px + 3 * (y * w + x);
				int d = abs(p[0] - (int)(bg >> 16)) + abs(p[1] - (int)(bg >> 8 & 255)) + abs(p[2] - (int)(bg & 255));
				hit += d > 120;
			}
		if ((double)hit > 0.003 * (double)((x1 - x0) * (y1 - y0)))
			cells |= 1u << c;
	}
	free(all);
	free(px);
	return cells;
}

Test(docs_images, every_picture_has_boids_spread_over_it)
{
	static const char *const files[] = {
		"frame.png", "frame3d.png", "model-harden.png", "model-processing.png", "model-steering.png",
		"model-canvas.png", "model-opengl.png", "look-harden-windows.png",
	};
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/docs/%s", SRCDIR, files[i]);
		unsigned cells = occupied(path), rows = 0, cols = 0, count = 0;
		for (int c = 0; c < 16; c++)
			if (cells >> c & 1) {
				count++;
				rows |= 1u << (c / 4);
				cols |= 1u << (c % 4);
			}
		/* at least 4 of the 16 cells, over 2 rows and 2 columns at least */
		cr_expect(count >= 4 && __builtin_popcount(rows) >= 2 && __builtin_popcount(cols) >= 2,
		          "docs/%s: boids in %u of 16 cells (%d rows, %d columns)", files[i], count,
		          __builtin_popcount(rows), __builtin_popcount(cols));
	}
}

Test(docs_images, the_readme_prints_the_command_of_each_model_picture)
{
	cr_assert_eq(tc_sh("sh '%s/scripts/docs-images.sh' --commands > commands.txt", SRCDIR), 0);
	char *cmds = tc_slurp("commands.txt", NULL), path[4096];
	snprintf(path, sizeof path, "%s/README.md", SRCDIR);
	char *readme = tc_slurp(path, NULL);
	cr_assert(cmds && readme);
	int n = 0;
	for (char *l = strtok(cmds, "\n"); l; l = strtok(NULL, "\n"), n++) {
		char quoted[600];
		snprintf(quoted, sizeof quoted, "`%s`", l);
		cr_expect(strstr(readme, quoted), "README.md does not print `%s`", l);
	}
	cr_expect_eq(n, 5, "%d commands", n);
	cr_expect(strstr(readme, "calm flags"), "README.md does not label processing's picture");
	free(cmds);
	free(readme);
}
