/*
 * Every model's default shows a flock: `boids -m M --warmup 300 -o m.png`
 * (the poster: the last of 300 frames) has boids in at least 5 of the
 * picture's 16 equal regions (4 x 4), spanning at least a fifth of its width
 * and of its height.  In a plane drawn whole (no view) the boids are the
 * trajectory's last frame, the same state the poster draws, put where the
 * field is drawn: fitted into the picture and centred (--field), or at
 * --scale; a box seen through a camera, or a view that follows the flock,
 * is read from the picture itself: the pixels that are not the background.
 * The picture's size is read from the PNG.  Every model in the registry,
 * so that a new one joins by itself.
 */
#include <criterion/criterion.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "model.h"

TestSuite(spread, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup, .timeout = 300);

/* A setting of `boids --print-config`'s text ("key = value"), into v. */
static void setting(const char *config, const char *key, char *v, size_t len)
{
	char pat[64];
	snprintf(pat, sizeof pat, "\n%s = ", key);
	const char *at = strstr(config, pat);
	cr_assert_not_null(at, "no %s in --print-config", key);
	at += strlen(pat);
	snprintf(v, len, "%.*s", (int)strcspn(at, "\n"), at);
}

/* What the spread is measured on: points in picture pixels. */
struct spread {
	int w, h;
	int count[4][4];
	double x0, x1, y0, y1;
	long n;
};

static void add(struct spread *s, double x, double y)
{
	if (!(x >= 0 && x <= s->w && y >= 0 && y <= s->h))
		return;
	int cx = (int)(4 * x / s->w), cy = (int)(4 * y / s->h);
	s->count[cy > 3 ? 3 : cy][cx > 3 ? 3 : cx]++;
	s->x0 = s->n ? (x < s->x0 ? x : s->x0) : x, s->x1 = s->n ? (x > s->x1 ? x : s->x1) : x;
	s->y0 = s->n ? (y < s->y0 ? y : s->y0) : y, s->y1 = s->n ? (y > s->y1 ? y : s->y1) : y;
	s->n++;
}

/* The trajectory's last frame (299), each boid where the plane draws it: scale s, offset (ox, oy). */
static void from_positions(struct spread *sp, double s, double ox, double oy)
{
	FILE *f = fopen("t.csv", "r");
	cr_assert_not_null(f);
	char line[512];
	cr_assert_not_null(fgets(line, sizeof line, f)); /* frame,id,x,y,... */
	while (fgets(line, sizeof line, f)) {
		long frame, id;
		double x, y;
		if (sscanf(line, "%ld,%ld,%lf,%lf", &frame, &id, &x, &y) == 4 && frame == 299)
			add(sp, ox + x * s, oy + y * s);
	}
	fclose(f);
}

/* The picture's pixels that differ from the background (#RRGGBB) by more than a fifth of a channel. */
static void from_pixels(struct spread *sp, const unsigned char *px, const char *background)
{
	unsigned bg;
	cr_assert_eq(sscanf(background, "#%6x", &bg), 1, "background %s", background);
	int b[3] = { (int)(bg >> 16 & 255), (int)(bg >> 8 & 255), (int)(bg & 255) };
	for (int y = 0; y < sp->h; y++)
		for (int x = 0; x < sp->w; x++) {
			const unsigned char *p = px + 3 * ((size_t)y * (size_t)sp->w + (size_t)x);
			if (abs(p[0] - b[0]) > 51 || abs(p[1] - b[1]) > 51 || abs(p[2] - b[2]) > 51)
				add(sp, x + .5, y + .5);
		}
}

Test(spread, every_models_default_spreads_its_flock_over_the_picture)
{
	for (const struct boids_model *const *m = model_list(); *m; m++) {
		const char *name = (*m)->name;
		cr_assert_eq(tc_boids("-m %s --warmup 300 -o m.png --trajectory t.csv -y -q", name), 0, "%s: %s",
		             name, tc_stderr());
		cr_assert_eq(tc_boids("-m %s --warmup 300 --print-config", name), 0, "%s: %s", name, tc_stderr());
		char *config = strdup(tc_stdout()), field[64], size[64], dims[8], follow[8], view[64], bg[16];
		setting(config, "field", field, sizeof field);
		setting(config, "size", size, sizeof size);
		setting(config, "dims", dims, sizeof dims);
		setting(config, "follow", follow, sizeof follow);
		setting(config, "view", view, sizeof view);
		setting(config, "background", bg, sizeof bg);
		free(config);

		png_image img;
		memset(&img, 0, sizeof img);
		img.version = PNG_IMAGE_VERSION;
		cr_assert(png_image_begin_read_from_file(&img, "m.png"), "%s: %s", name, img.message);
		img.format = PNG_FORMAT_RGB;
		unsigned char *px = malloc(PNG_IMAGE_SIZE(img));
		cr_assert(px && png_image_finish_read(&img, NULL, px, 0, NULL), "%s", img.message);
		struct spread sp = { .w = (int)img.width, .h = (int)img.height };
		const char *how;
		int least = 1; /* points that make a region one that holds boids */
		if (strcmp(dims, "2") == 0 && strcmp(follow, "no") == 0 && !*view) {
			double fw, fh; /* the field: --field, else -s (at --scale) */
			cr_assert_eq(sscanf(*field ? field : size, "%lfx%lf", &fw, &fh), 2, "%s: field %s", name, field);
			double s = (double)sp.w / fw < (double)sp.h / fh ? (double)sp.w / fw : (double)sp.h / fh;
			from_positions(&sp, s, (sp.w - fw * s) / 2, (sp.h - fh * s) / 2);
			how = "boids";
		} else {
			from_pixels(&sp, px, bg);
			how = "pixels";
			least = 4; /* a boid, not an edge's stray pixel */
		}
		free(px);
		int regions = 0;
		for (int k = 0; k < 16; k++)
			regions += sp.count[k / 4][k % 4] >= least;
		double sx = sp.n ? (sp.x1 - sp.x0) / sp.w : 0, sy = sp.n ? (sp.y1 - sp.y0) / sp.h : 0;
		cr_expect(regions >= 5 && sx >= .2 && sy >= .2,
		          "-m %s: no flock spread over the picture: %ld %s, %d of 16 regions, %.2f of the width, "
		          "%.2f of the height", name, sp.n, how, regions, sx, sy);
	}
}
