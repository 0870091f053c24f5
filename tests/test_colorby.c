/*
 * --color-by: a boid of known heading or speed (one boid, or a few, from
 * --init) is drawn in the colour the map's formula gives, computed here
 * from OKLab's published matrices (Ottosson 2020) independently of
 * src/colormap.c, within 2 levels; in 2D and 3D, exact, fast and points;
 * the same bytes at 1 and 2 threads; predators keep their colour; with
 * --draw points, several colours in a pixel make the weighted mean of the
 * documented rule (src/points.h), in any order of the boids.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colormap.h"
#include "common.h"

TestSuite(colorby, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup, .timeout = 120);

/* OKLab to 8-bit sRGB, from the formulas (not boids's code). */
static void oklab(double L, double a, double b, int rgb[3])
{
	double l = pow(L + 0.3963377774 * a + 0.2158037573 * b, 3);
	double m = pow(L - 0.1055613458 * a - 0.0638541728 * b, 3);
	double s = pow(L - 0.0894841775 * a - 1.2914855480 * b, 3);
	double lin[3] = { 4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
	                  -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
	                  -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s };
	for (int k = 0; k < 3; k++) {
		double c = fmin(fmax(lin[k], 0), 1);
		c = c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055;
		rgb[k] = (int)floor(255 * c + .5);
	}
}

/* The documented maps: cyclic L .75 C .125 at the heading; sequential at t. */
static void heading_map(double angle, int rgb[3])
{
	oklab(0.75, 0.125 * cos(angle), 0.125 * sin(angle), rgb);
}

static void speed_map(double t, int rgb[3])
{
	double h = (290 - 190 * t) * M_PI / 180, C = 0.13 - 0.05 * sin(M_PI * t);
	oklab(0.32 + 0.61 * t, C * cos(h), C * sin(h), rgb);
}

/* The pixel (x, y) of a PNG as RGB. */
static void pixel(const char *file, int x, int y, int rgb[3])
{
	png_image img;
	memset(&img, 0, sizeof img);
	img.version = PNG_IMAGE_VERSION;
	cr_assert(png_image_begin_read_from_file(&img, file), "%s: %s", file, img.message);
	img.format = PNG_FORMAT_RGB;
	unsigned char *buf = malloc(PNG_IMAGE_SIZE(img));
	cr_assert(buf && png_image_finish_read(&img, NULL, buf, 0, NULL), "%s", img.message);
	cr_assert((png_uint_32)x < img.width && (png_uint_32)y < img.height);
	for (int k = 0; k < 3; k++)
		rgb[k] = buf[((size_t)y * img.width + (size_t)x) * 3 + (size_t)k];
	free(buf);
}

static void expect_near(const int got[3], const int want[3], const char *what)
{
	for (int k = 0; k < 3; k++)
		cr_expect(abs(got[k] - want[k]) <= 2, "%s: drawn #%02x%02x%02x, the map gives #%02x%02x%02x", what,
		          got[0], got[1], got[2], want[0], want[1], want[2]);
}

/* Big round boids without antialiasing: the centre pixel is the boid's colour. */
#define LOOK "--predators 0 -s 160x90 --shape circle --boid-size 5 --antialias none -f 1 -q"

Test(colorby, a_boids_heading_gives_the_cyclic_maps_colour_2d_and_3d_exact_and_fast)
{
	const double degrees[] = { 0, 30, 90, 135, 180, 250, -45 };
	const char *draws[] = { "exact", "fast" };
	for (size_t i = 0; i < sizeof degrees / sizeof *degrees; i++) {
		double a = degrees[i] * M_PI / 180;
		int want[3], got[3];
		heading_map(a, want);
		FILE *f = fopen("one.csv", "w");
		cr_assert_not_null(f);
		fprintf(f, "frame,id,x,y,vx,vy\n0,0,80,45,%.17g,%.17g\n", 3 * cos(a), 3 * sin(a));
		fclose(f);
		f = fopen("one3.csv", "w"); /* 3D: the compass direction in the x-z plane */
		cr_assert_not_null(f);
		fprintf(f, "frame,id,x,y,vx,vy,z,vz\n0,0,80,45,%.17g,0.5,45,%.17g\n", 3 * cos(a), 3 * sin(a));
		fclose(f);
		/* --draw points: a point on a pixel's centre is that pixel, in the map's colour */
		f = fopen("pt.csv", "w");
		cr_assert_not_null(f);
		fprintf(f, "frame,id,x,y,vx,vy\n0,0,80.5,45.5,%.17g,%.17g\n", 3 * cos(a), 3 * sin(a));
		fclose(f);
		cr_assert_eq(tc_boids("--init pt.csv --predators 0 -s 160x90 -f 1 -q --draw points --color-by heading "
		                      "-o p.png -y"), 0, "%s", tc_stderr());
		pixel("p.png", 80, 45, got);
		char pwhat[64];
		snprintf(pwhat, sizeof pwhat, "2D heading %g, points", degrees[i]);
		expect_near(got, want, pwhat);
		for (int d = 0; d < 2; d++) {
			char what[96];
			cr_assert_eq(tc_boids("--init one.csv " LOOK " --color-by heading --draw %s -o h.png -y", draws[d]),
			             0, "%s", tc_stderr());
			pixel("h.png", 80, 45, got);
			snprintf(what, sizeof what, "2D heading %g, %s", degrees[i], draws[d]);
			expect_near(got, want, what);
			cr_assert_eq(tc_boids("--init one3.csv " LOOK " --color-by heading --draw %s --fog 0 --box=no "
			                      "--ground=no -o h3.png -y", draws[d]), 0, "%s", tc_stderr());
			pixel("h3.png", 80, 45, got);
			snprintf(what, sizeof what, "3D heading %g, %s", degrees[i], draws[d]);
			expect_near(got, want, what);
		}
	}
}

Test(colorby, speeds_span_the_sequential_map_from_the_slowest_to_the_fastest)
{
	/* four boids, speeds 1, 2, 3 and 5: t = 0, 0.25, 0.5 and 1 */
	FILE *f = fopen("four.csv", "w");
	cr_assert_not_null(f);
	fputs("frame,id,x,y,vx,vy\n0,0,30,45,1,0\n0,1,60,45,0,2\n0,2,90,45,-3,0\n0,3,120,45,3,4\n", f);
	fclose(f);
	const double t[] = { 0, .25, .5, 1 };
	const char *draws[] = { "exact", "fast" };
	for (int d = 0; d < 2; d++) {
		cr_assert_eq(tc_boids("--init four.csv " LOOK " --boid-size 3 --color-by speed --draw %s -o s.png -y",
		                      draws[d]), 0, "%s", tc_stderr());
		for (int k = 0; k < 4; k++) {
			int want[3], got[3];
			char what[64];
			speed_map(t[k], want);
			pixel("s.png", 30 + 30 * k, 45, got);
			snprintf(what, sizeof what, "speed t = %g, %s", t[k], draws[d]);
			expect_near(got, want, what);
		}
	}
	/* a predator keeps its colour (white) */
	cr_assert_eq(tc_boids("--init four.csv " LOOK " --predators 1 --boid-size 3 --color-by speed -o p.png -y"), 0);
	int got[3], white[3] = { 255, 255, 255 };
	pixel("p.png", 30, 45, got);
	expect_near(got, white, "the predator");
}

Test(colorby, the_same_bytes_at_one_and_two_threads)
{
	const char *by[] = { "heading", "speed" };
	for (int k = 0; k < 2; k++) {
		cr_assert_eq(tc_boids("-q -f 6 -n 300 -s 320x180 --warmup 50 --color-by %s --threads 1 -o a.y4m -y", by[k]),
		             0, "%s", tc_stderr());
		cr_assert_eq(tc_boids("-q -f 6 -n 300 -s 320x180 --warmup 50 --color-by %s --threads 2 -o b.y4m -y", by[k]),
		             0, "%s", tc_stderr());
		cr_expect(tc_same_file("a.y4m", "b.y4m"), "--color-by %s: 1 and 2 threads differ", by[k]);
		cr_assert_eq(tc_boids("-q -f 6 -n 300 -s 320x180 --warmup 50 --dims 3 --color-by %s --threads 1 -o a.y4m -y",
		                      by[k]), 0);
		cr_assert_eq(tc_boids("-q -f 6 -n 300 -s 320x180 --warmup 50 --dims 3 --color-by %s --threads 2 -o b.y4m -y",
		                      by[k]), 0);
		cr_expect(tc_same_file("a.y4m", "b.y4m"), "3D --color-by %s: 1 and 2 threads differ", by[k]);
	}
	for (int k = 0; k < 2; k++) { /* --draw points, 2D and 3D */
		for (int t = 1; t <= 2; t++)
			cr_assert_eq(tc_boids("-q -f 4 -n 2000 -s 320x180 --warmup 20 --draw points --color-by %s --threads %d "
			                      "-o p%d.y4m -y", by[k], t, t), 0, "%s", tc_stderr());
		cr_expect(tc_same_file("p1.y4m", "p2.y4m"), "points --color-by %s: 1 and 2 threads differ", by[k]);
		for (int t = 1; t <= 2; t++)
			cr_assert_eq(tc_boids("-q -f 4 -n 2000 -s 320x180 --warmup 20 --dims 3 --draw points --color-by %s "
			                      "--threads %d -o q%d.y4m -y", by[k], t, t), 0, "%s", tc_stderr());
		cr_expect(tc_same_file("q1.y4m", "q2.y4m"), "3D points --color-by %s: 1 and 2 threads differ", by[k]);
	}
	/* and it shows: the picture is not the role colours' */
	cr_assert_eq(tc_boids("-q -f 2 -n 300 -s 320x180 -o r.y4m -y"), 0);
	cr_assert_eq(tc_boids("-q -f 2 -n 300 -s 320x180 --color-by heading -o h.y4m -y"), 0);
	cr_expect(!tc_same_file("r.y4m", "h.y4m"));
}

/* The pixel (x, y) of an RGB buffer read by rgb_image(). */
static void rgb_image(const char *file, unsigned char **buf, unsigned *w)
{
	png_image img;
	memset(&img, 0, sizeof img);
	img.version = PNG_IMAGE_VERSION;
	cr_assert(png_image_begin_read_from_file(&img, file), "%s: %s", file, img.message);
	img.format = PNG_FORMAT_RGB;
	*buf = malloc(PNG_IMAGE_SIZE(img));
	cr_assert(*buf && png_image_finish_read(&img, NULL, *buf, 0, NULL), "%s", img.message);
	*w = img.width;
}

/*
 * --draw points --color-by: points of several colours in one pixel make
 * the coverage-weighted mean of their colours (shares in 256ths of a
 * pixel), as dense as their total coverage, whatever their order: the
 * expected pixels are computed here from the documented rule, with each
 * boid's colour read where it is drawn alone (on a pixel's centre it is
 * its colour exactly).
 */
Test(colorby, points_of_several_colours_make_the_weighted_mean_colour_in_any_order)
{
	/* x, y, heading in degrees; the last four are drawn alone (their colours) */
	static const double b[][3] = {
		{ 10.5, 10.5, 0 }, { 10.5, 10.5, 90 },           /* one pixel, two whole points */
		{ 20.75, 10.5, 180 }, { 20.5, 10.5, -90 },       /* (20,10): 3/4 and 1; (21,10): 1/4 alone */
		{ 30.5, 10.5, 45 }, { 30.5, 11, 135 },           /* (30,10): 1 and 1/2; (30,11): 1/2 alone */
		{ 4.5, 3.5, 0 }, { 8.5, 3.5, 90 }, { 12.5, 3.5, 180 }, { 16.5, 3.5, -90 },
		{ 20.5, 3.5, 45 }, { 24.5, 3.5, 135 },
	};
	const int n = (int)(sizeof b / sizeof *b);
	for (int order = 0; order < 2; order++) { /* as listed, then reversed */
		FILE *f = fopen(order ? "r.csv" : "b.csv", "w");
		cr_assert_not_null(f);
		fputs("frame,id,x,y,vx,vy\n", f);
		for (int k = 0; k < n; k++) {
			const double *p = b[order ? n - 1 - k : k];
			double a = p[2] * M_PI / 180;
			fprintf(f, "0,%d,%.17g,%.17g,%.17g,%.17g\n", k, p[0], p[1], 3 * cos(a), 3 * sin(a));
		}
		fclose(f);
	}
	const char *look = "--predators 0 -s 40x20 -f 1 -q --draw points --color-by heading "
	                   "--background '#203040' --background-style flat -y";
	cr_assert_eq(tc_boids("--init b.csv %s -o p.png", look), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("--init r.csv %s -o q.png", look), 0, "%s", tc_stderr());
	cr_assert(tc_same_file("p.png", "q.png"), "the order of the boids changed the picture");

	unsigned char *px;
	unsigned w;
	rgb_image("p.png", &px, &w);
#define AT(x, y, k) ((int)px[((size_t)(y) * w + (size_t)(x)) * 3 + (size_t)(k)])
	for (int k = 0; k < 3; k++) {
		int bg = AT(0, 0, k);
		int c0 = AT(4, 3, k), c90 = AT(8, 3, k), c180 = AT(12, 3, k), cm90 = AT(16, 3, k);
		int c45 = AT(20, 3, k), c135 = AT(24, 3, k);
		/* whole coverage or more: the weighted mean, rounded half up */
		int want1010 = (int)floor((256.0 * c0 + 256.0 * c90) / 512 + .5);
		int want2010 = (int)floor((192.0 * c180 + 256.0 * cm90) / 448 + .5);
		int want3010 = (int)floor((256.0 * c45 + 128.0 * c135) / 384 + .5);
		/* partial coverage a: the background moved toward the colour by a */
		int want2110 = (int)floor(bg + (c180 - bg) * 0.25 + .5);
		int want3011 = (int)floor(bg + (c135 - bg) * 0.5 + .5);
		cr_expect_eq(AT(10, 10, k), want1010, "channel %d of (10,10)", k);
		cr_expect_eq(AT(20, 10, k), want2010, "channel %d of (20,10)", k);
		cr_expect_eq(AT(30, 10, k), want3010, "channel %d of (30,10)", k);
		cr_expect_eq(AT(21, 10, k), want2110, "channel %d of (21,10)", k);
		cr_expect_eq(AT(30, 11, k), want3011, "channel %d of (30,11)", k);
	}
	/* the colours differ, so the means say something */
	cr_assert(AT(4, 3, 0) != AT(8, 3, 0) || AT(4, 3, 1) != AT(8, 3, 1));
#undef AT
	free(px);
}

/*
 * In 3D the points are not sorted by depth, as one-colour points are not:
 * a point counts by its share times its fog weight (nearer: heavier), so
 * with --fog 0 points of two headings at one place make the plain mean of
 * the two colours wherever they cover a whole pixel, in any order (it was
 * the last one's colour, in index order).
 * Four points at one place cover their fullest pixel at least wholly, so
 * that pixel is their colour exactly.
 */
Test(colorby, points_in_3d_mix_by_weight_in_any_order)
{
	for (int order = 0; order < 2; order++) {
		FILE *f = fopen(order ? "r3.csv" : "b3.csv", "w");
		cr_assert_not_null(f);
		fputs("frame,id,x,y,vx,vy,z,vz\n", f);
		/* x 40: heading 0; x 80: 90 degrees; x 120: four of each, at one place */
		static const double g[4][3] = { { 40, 0, 45 }, { 80, 90, 45 }, { 120, 0, 45 }, { 120, 90, 45 } };
		for (int k = 0; k < 16; k++) {
			const double *p = g[order ? 3 - k / 4 : k / 4];
			double a = p[1] * M_PI / 180;
			fprintf(f, "0,%d,%g,45,%.17g,0,%g,%.17g\n", k, p[0], 3 * cos(a), p[2], 3 * sin(a));
		}
		fclose(f);
	}
	const char *look = "--predators 0 -s 160x90 -f 1 -q --dims 3 --draw points --color-by heading --fog 0 "
	                   "--box=no --ground=no --background '#203040' --background-style flat -y";
	cr_assert_eq(tc_boids("--init b3.csv %s -o p3.png", look), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("--init r3.csv %s -o q3.png", look), 0, "%s", tc_stderr());
	cr_assert(tc_same_file("p3.png", "q3.png"), "the order of the boids changed the 3D picture");

	unsigned char *px;
	unsigned w;
	rgb_image("p3.png", &px, &w);
	const unsigned h = 90;
	int bg[3] = { px[0], px[1], px[2] };
	/* the three clusters, left to right: runs of columns holding a drawn pixel */
	int best[3][3], found = 0;
	long far[3] = { -1, -1, -1 };
	int in_run = 0;
	for (unsigned x = 0; x < w; x++) {
		int any = 0;
		for (unsigned y = 0; y < h; y++) {
			const unsigned char *c = px + ((size_t)y * w + x) * 3;
			long d = 0;
			for (int k = 0; k < 3; k++)
				d += (long)(c[k] - bg[k]) * (c[k] - bg[k]);
			if (!d)
				continue;
			any = 1;
			if (!in_run) {
				cr_assert_lt(found, 3, "more than three clusters");
				in_run = 1;
				found++;
			}
			if (d > far[found - 1]) {
				far[found - 1] = d;
				for (int k = 0; k < 3; k++)
					best[found - 1][k] = c[k];
			}
		}
		in_run = any;
	}
	cr_assert_eq(found, 3, "the clusters are not apart");
	for (int k = 0; k < 3; k++)
		cr_expect_eq(best[2][k], (int)floor((best[0][k] + best[1][k]) / 2.0 + .5),
		             "channel %d: the mixed cluster is not the mean of %d and %d", k, best[0][k], best[1][k]);
	free(px);
}

/* ------------------------------------------------- the maps, value by value */

/* OKLab to linear sRGB (Ottosson's inverse, as the article prints it), unclamped. */
static void oklab_linear(double L, double a, double b, double lin[3])
{
	double l = pow(L + 0.3963377774 * a + 0.2158037573 * b, 3);
	double m = pow(L - 0.1055613458 * a - 0.0638541728 * b, 3);
	double s = pow(L - 0.0894841775 * a - 1.2914855480 * b, 3);
	lin[0] = 4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s;
	lin[1] = -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s;
	lin[2] = -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s;
}

/* The sRGB encoding (IEC 61966-2-1) of linear light clamped to [0, 1], times 255, unrounded. */
static double encoded(double c)
{
	c = fmin(fmax(c, 0), 1);
	return 255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055);
}

/* Linear sRGB to OKLab, the article's forward transform: an independent way back. */
static void linear_oklab(const double lin[3], double lab[3])
{
	double l = cbrt(0.4122214708 * lin[0] + 0.5363325363 * lin[1] + 0.0514459929 * lin[2]);
	double m = cbrt(0.2119034982 * lin[0] + 0.6806995451 * lin[1] + 0.1073969566 * lin[2]);
	double s = cbrt(0.0883024619 * lin[0] + 0.2817188376 * lin[1] + 0.6299787005 * lin[2]);
	lab[0] = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s;
	lab[1] = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s;
	lab[2] = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s;
}

static double decoded(int v)
{
	double e = v / 255.0;
	return e <= 0.04045 ? e / 12.92 : pow((e + 0.055) / 1.055, 2.4);
}

/*
 * One colour of a map at OKLab (L, a, b): each 8-bit channel is the sRGB
 * encoding rounded to the nearest level (not truncated: half of all
 * values would be one level darker), exactly, unless the value lies within
 * 1e-9 of a half level (where two roundings of the same formula may
 * differ); and decoded and taken back to OKLab by the forward transform it
 * is within a level's step of (L, a, b) when no channel was clamped.
 * Returns how many channels were checked exactly.
 */
static int expect_colour(uint32_t got, double L, double a, double b, const char *what, double at)
{
	double lin[3], back[3], lab[3];
	int rgb[3] = { (int)(got >> 16 & 255), (int)(got >> 8 & 255), (int)(got & 255) }, exact = 0, clamped = 0;

	oklab_linear(L, a, b, lin);
	for (int k = 0; k < 3; k++) {
		double e = encoded(lin[k]);
		double frac = e - floor(e);
		clamped |= lin[k] < 0 || lin[k] > 1;
		if (fabs(frac - 0.5) < 1e-9)
			continue;
		cr_expect_eq(rgb[k], (int)floor(e + 0.5), "%s at %.17g: channel %d is %d, the formula %.6f", what, at, k,
		             rgb[k], e);
		exact++;
	}
	if (clamped)
		return exact;
	for (int k = 0; k < 3; k++)
		back[k] = decoded(rgb[k]);
	linear_oklab(back, lab);
	cr_expect(fabs(lab[0] - L) < 0.01 && fabs(lab[1] - a) < 0.01 && fabs(lab[2] - b) < 0.01,
	          "%s at %.17g: #%02x%02x%02x is OKLab (%.4f %.4f %.4f), not (%.4f %.4f %.4f)", what, at, rgb[0], rgb[1],
	          rgb[2], lab[0], lab[1], lab[2], L, a, b);
	return exact;
}

/*
 * Both maps against their documented formulas computed here (OKLab's
 * published matrices, the sRGB transfer function, rounding), 3600 headings
 * and 1001 speeds, every channel exact; and the colours read back through
 * the article's forward transform land where the formula aimed.  (The
 * drawn-pixel tests above allow 2 levels for antialiasing: truncating
 * instead of rounding went through them.)
 */
Test(colorby, the_maps_are_their_formulas_to_the_level)
{
	int exact = 0;
	for (int i = 0; i < 3600; i++) {
		double angle = (i - 1800) * M_PI / 1800;
		exact += expect_colour(colormap_heading(angle), 0.75, 0.125 * cos(angle), 0.125 * sin(angle), "heading", angle);
	}
	for (int i = 0; i <= 1000; i++) {
		double t = i / 1000.0, h = (290 - 190 * t) * M_PI / 180, C = 0.13 - 0.05 * sin(M_PI * t);
		exact += expect_colour(colormap_speed(t), 0.32 + 0.61 * t, C * cos(h), C * sin(h), "speed", t);
	}
	cr_expect_gt(exact, 3 * 4601 - 10, "only %d channels checked exactly", exact);
	/* the ends: below 0 and NaN are 0, above 1 is 1; an infinite heading is 0 */
	cr_expect_eq(colormap_speed(-1), colormap_speed(0));
	cr_expect_eq(colormap_speed(NAN), colormap_speed(0));
	cr_expect_eq(colormap_speed(7), colormap_speed(1));
	cr_expect_eq(colormap_heading(INFINITY), colormap_heading(0));
	/* OKLab's white and sRGB red (the article's table) */
	cr_expect_eq(colormap_oklab(1, 0, 0), 0xffffffu);
	cr_expect_eq(colormap_oklab(0.627955, 0.224863, 0.125846), 0xff0000u);
}
