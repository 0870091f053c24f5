/*
 * -m netlogo's picture and runs, against numbers worked out here from
 * NetLogo's own definitions (not from boids' code): the "default" turtle
 * shape's area and notch from its editor polygon, the seven shades of
 * `yellow - 2 + random 7` from NetLogo's colour formula worked by hand,
 * NetLogo's 497 x 497 view, and the same bytes at any thread count in both
 * orders.  Its rules are tests/test_reference.c's (tests/ref/netlogo.py).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "model_names.h"
#include "render.h"
#include "sim.h"

TestSuite(netlogo, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup, .timeout = 120);

#define BG 0x000000
#define WHITE 0xFFFFFF

static uint32_t pixel(const struct renderer *r, int x, int y)
{
	int stride;
	const unsigned char *px = render_pixels(r, &stride);
	return *(const uint32_t *)(const void *)(px + (size_t)y * (size_t)stride + (size_t)x * 4);
}

/* How much of a pixel the white turtle covers (on black), 0 .. 1. */
static double cover(uint32_t argb)
{
	return (double)((argb >> 8) & 0xFF) / 255;
}

/* The shape editor's polygon, its 300-unit box, y down (NetLogo's shapes file). */
static const double editor[4][2] = { { 150, 5 }, { 40, 250 }, { 150, 205 }, { 260, 250 } };

Test(netlogo, the_turtle_is_the_editors_polygon_nose_first_with_its_notch)
{
	double a = 0;
	for (int i = 0; i < 4; i++) { /* shoelace, in editor units */
		int j = (i + 1) % 4;
		a += editor[i][0] * editor[j][1] - editor[j][0] * editor[i][1];
	}
	a = fabs(a) / 2;
	cr_assert_float_eq(a, 22000, 1e-9); /* 220 x 245 / 2 - 220 x 45 / 2 */
	struct render_params p;
	struct renderer *r;
	render_params_default(&p, 120, 120);
	p.shape = RENDER_TURTLE;
	p.boid_color = WHITE;
	p.background = BG;
	p.boid_size = 9; /* the 300-unit box is 10 units: 90 px, a unit 0.3 px */
	cr_assert_eq(render_new(&r, &p), 0);
	/* heading +x: the nose (editor y 5, 145 above the centre) at x = 60 + 43.5 */
	double x = 60, y = 60, vx = 1, vy = 0;
	struct render_view v = { .n = 1, .x = &x, .y = &y, .vx = &vx, .vy = &vy };
	cr_assert_eq(render_frame(r, &v), 0);
	double mass = 0, mx = 0;
	for (int j = 0; j < 120; j++)
		for (int i = 0; i < 120; i++) {
			double c = cover(pixel(r, i, j));
			mass += c;
			mx += c * (i + .5);
		}
	double want = a * .3 * .3;
	cr_assert(fabs(mass - want) < .01 * want, "area %g px, the polygon's %g", mass, want);
	/* the centroid, by hand: the whole triangle's (area 26950) at editor y 505/3,
	 * less the notch's (4950) at 705/3: y 153 1/3, 10/3 units (1 px) behind the centre */
	cr_assert(fabs(mx / mass - 59) < .2, "centroid at x %g, not 59", mx / mass);
	cr_assert_gt(cover(pixel(r, 83, 60)), .99, "20 px behind the nose, 43.5 px ahead");
	cr_assert_eq(pixel(r, 106, 60) & 0xFFFFFF, BG, "nothing past the nose");
	/* the notch: editor y 205 (16.5 px behind the centre) to 250 (30 px), on the axis */
	cr_assert_eq(pixel(r, 35, 60) & 0xFFFFFF, BG, "the notch");
	cr_assert_gt(cover(pixel(r, 48, 60)), .99, "the body in front of the notch");
	cr_assert_gt(cover(pixel(r, 33, 29)), .99, "a back corner: editor (40, 250)");
	render_free(r);
}

/* The pixels of a PNG as RGB; *w, *h its size. */
static unsigned char *read_png(const char *file, int *w, int *h)
{
	png_image img;
	memset(&img, 0, sizeof img);
	img.version = PNG_IMAGE_VERSION;
	cr_assert(png_image_begin_read_from_file(&img, file), "%s: %s", file, img.message);
	img.format = PNG_FORMAT_RGB;
	unsigned char *buf = malloc(PNG_IMAGE_SIZE(img));
	cr_assert(buf && png_image_finish_read(&img, NULL, buf, 0, NULL), "%s", img.message);
	*w = (int)img.width, *h = (int)img.height;
	return buf;
}

/*
 * NetLogo's colours 43 .. 49 (yellow 45 is #eded2f in its base table):
 * step = ((10 c) mod 100 - 50) / 50.48 + 0.012, each channel k becoming
 * k + trunc(k step) below 0, else k + trunc((255 - k) step).  By hand:
 * 43: step -0.38420, 237 - 91 = 146, 47 - 18 = 29; 44: -0.18610, 193, 39;
 * 45: 0.012, 237 + 0, 47 + 2 = 49; 46: 0.21010, 240, 90; 47: 0.40820, 244,
 * 131; 48: 0.60630, 247, 173; 49: 0.80439, 251, 214.
 */
static const int shades[7][3] = {
	{ 146, 146, 29 }, { 193, 193, 39 }, { 237, 237, 49 }, { 240, 240, 90 },
	{ 244, 244, 131 }, { 247, 247, 173 }, { 251, 251, 214 },
};

Test(netlogo, the_original_look_is_netlogos_view_in_its_seven_shades_of_yellow)
{
	cr_assert_eq(tc_boids("-m netlogo --look original -f 1 -q -o view.png"), 0, "%s", tc_stderr());
	int w, h, seen[7] = { 0 }, other = 0;
	unsigned char *px = read_png("view.png", &w, &h);
	cr_assert_eq(w, 497, "71 patches of 7 px");
	cr_assert_eq(h, 497);
	long black = 0;
	for (long i = 0; i < (long)w * h; i++) {
		const unsigned char *c = px + 3 * i;
		if (!c[0] && !c[1] && !c[2]) {
			black++;
			continue;
		}
		int s = -1;
		for (int k = 0; k < 7; k++)
			if (c[0] == shades[k][0] && c[1] == shades[k][1] && c[2] == shades[k][2])
				s = k;
		if (s >= 0)
			seen[s]++;
		else if (c[0] != c[1] || c[2] > c[0]) /* antialiased edges: a shade over black */
			other++;
	}
	free(px);
	cr_assert_gt(black, (long)w * h * 8 / 10, "black patches: %ld pixels of %d", black, w * h);
	cr_assert_eq(other, 0, "a pixel that is no yellow on black");
	for (int k = 0; k < 7; k++) /* 300 turtles, a seventh of them each shade */
		cr_assert_gt(seen[k], 30, "shade %d: %d whole pixels", 43 + k, seen[k]);
}

Test(netlogo, both_orders_give_the_same_bytes_at_any_thread_count)
{
	const char *orders[] = { "sequential", "synchronous" };
	for (int o = 0; o < 2; o++)
		for (int d = 2; d <= 3; d++) {
			cr_assert_eq(tc_boids("-m netlogo -n 3000 --field 180x180 --dims %d --update %s --threads 1 "
			                      "--no-render -f 6 -q -y --trajectory a.csv", d, orders[o]), 0, "%s", tc_stderr());
			cr_assert_eq(tc_boids("-m netlogo -n 3000 --field 180x180 --dims %d --update %s --threads 3 "
			                      "--no-render -f 6 -q -y --trajectory b.csv", d, orders[o]), 0, "%s", tc_stderr());
			cr_assert(tc_same_file("a.csv", "b.csv"), "%s %dD: the threads changed the flock", orders[o], d);
		}
}

/*
 * A box: two turtles on one heading (one that took the other's exactly, as
 * aligned turtles do), 1.15 patches apart (flockmates, not too close):
 * align has nothing to turn and cohere turns each at most 3 degrees toward
 * the other.  The heading stays within 3 degrees of where it was; turning
 * toward its own heading gave no plane to turn in (NaN), and the turtle
 * went along +x (found by reference/netlogo_500_frames at frame 223).
 */
Test(netlogo, a_flockmate_on_the_same_heading_turns_nobody_away)
{
	struct sim_params p;
	struct sim s;
	sim_params_default(&p, 30, 30);
	p.model = model_at(NETLOGO);
	p.predators = 0;
	p.dims = 3;
	p.depth = 30;
	p.update = SIM_SYNCHRONOUS;
	cr_assert_eq(sim_init(&s, &p, 2, NULL), 0);
	const double u[3] = { -0.40517318331793817, -0.5952201304562027, -0.693936371593037 };
	const double at[2][3] = { { 10, 10, 10 }, { 10.5, 10.9, 10.55 } }; /* 1.15 apart, off the heading */
	for (int i = 0; i < 2; i++) {
		s.x[i] = at[i][0], s.y[i] = at[i][1], s.z[i] = at[i][2];
		s.vx[i] = u[0], s.vy[i] = u[1], s.vz[i] = u[2];
	}
	cr_assert_eq(sim_step(&s), 0);
	for (int i = 0; i < 2; i++) {
		double dot = s.vx[i] * u[0] + s.vy[i] * u[1] + s.vz[i] * u[2];
		cr_assert(dot >= cos(3.000001 * M_PI / 180) && dot < 1, "turtle %d: heading (%g, %g, %g), %g degrees from where it was",
		          i, s.vx[i], s.vy[i], s.vz[i], acos(fmin(1, dot)) * 180 / M_PI);
	}
	sim_release(&s);
}
