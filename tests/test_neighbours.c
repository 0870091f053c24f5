/*
 * Every radius of every model, at its edge, through the command line: a
 * flock of two boids (--init) exactly r apart, r - e apart and r + e apart
 * (along a Pythagorean offset, so that the distance is exactly r: (21, 28)
 * in a plane, (10, 15, 30) in a box, r = 35), one step, the watched boid's
 * trajectory row compared with its row when it is alone (the radius under
 * test the largest, every other radius 5 px, so that nothing else sees the
 * other boid).  The originals count a neighbour strictly inside the radius
 * (C#'s `GetDistance(boid) < distance`, Unity's `Distance < NeighborDistance`,
 * the canvas' `distance < BIRD_VISUAL_RANGE`, the OpenGL version's
 * `< Vision`, its predators' `< Vision x sight` included, Couzin's zones
 * r < r_r, r < r_o = r_r + dr_o, r < r_a = r_o + dr_a), so at exactly r
 * the other is not seen; Processing's sketch counts `d <= range` and
 * NetLogo's in-radius `distance <= vision` (docs/MODEL.md), so there the
 * edge is seen and r + e is not.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define R 35.0

struct radius {
	const char *model, *option;
	const char *others;     /* every other radius of the model, set to 5 px */
	int predator;           /* 1: the other boid is a predator (--predators 1, it is boid 0);
	                         * 2: the watched boid is (the predators' own radius) */
	int inclusive;          /* d <= r counts (Processing) */
	double value;           /* the option's value making the radius R (0: R itself) */
};

static const struct radius radii[] = {
	{ "harden", "--flock-radius", "--align-radius 5 --avoid-radius 5 --predator-radius 5", 0, 0, 0 },
	{ "harden", "--align-radius", "--flock-radius 5 --avoid-radius 5 --predator-radius 5", 0, 0, 0 },
	{ "harden", "--avoid-radius", "--flock-radius 5 --align-radius 5 --predator-radius 5", 0, 0, 0 },
	{ "harden", "--predator-radius", "--flock-radius 5 --align-radius 5 --avoid-radius 5", 1, 0, 0 },
	{ "processing", "--proc-cohesion-radius", "--proc-separation-radius 5 --proc-alignment-radius 5", 0, 1, 0 },
	{ "processing", "--proc-separation-radius", "--proc-cohesion-radius 5 --proc-alignment-radius 5", 0, 1, 0 },
	{ "processing", "--proc-alignment-radius", "--proc-cohesion-radius 5 --proc-separation-radius 5", 0, 1, 0 },
	{ "steering", "--steer-radius", "", 0, 0, 0 },
	{ "canvas", "--canvas-visual-range", "--canvas-separation-distance 5 --fps 60", 0, 0, 0 }, /* a step a frame */
	{ "opengl", "--gl-flock-radius", "--gl-align-radius 5 --gl-avoid-radius 5 --gl-flee-radius 5", 0, 0, 0 },
	{ "opengl", "--gl-align-radius", "--gl-flock-radius 5 --gl-avoid-radius 5 --gl-flee-radius 5", 0, 0, 0 },
	{ "opengl", "--gl-avoid-radius", "--gl-flock-radius 5 --gl-align-radius 5 --gl-flee-radius 5", 0, 0, 0 },
	{ "opengl", "--gl-flee-radius", "--gl-flock-radius 5 --gl-align-radius 5 --gl-avoid-radius 5", 1, 0, 0 },
	/* a predator's cohesion reaches sight x the flock radius: 1.75 x 20 = 35 */
	{ "opengl", "--gl-predator-sight", "--gl-flock-radius 20 --gl-align-radius 5 --gl-avoid-radius 5 "
	  "--gl-flee-radius 5", 2, 0, 1.75 },
	/* Couzin's zones end where the paper's do, r < r_r, r < r_o, r < r_a: each the outermost in turn */
	{ "couzin", "--couzin-repulsion", "--couzin-orientation 0 --couzin-attraction 0", 0, 0, 0 },
	{ "couzin", "--couzin-orientation", "--couzin-repulsion 1 --couzin-attraction 0", 0, 0, R - 1 },
	{ "couzin", "--couzin-attraction", "--couzin-repulsion 1 --couzin-orientation 4", 0, 0, R - 5 },
	/* NetLogo's in-radius: distance <= vision (its world wraps: the field holds the two turtles) */
	{ "netlogo", "--netlogo-vision", "--netlogo-minimum-separation 5 --field 640x360", 0, 1, 0 },
};

/*
 * The watched boid's row of frame 1 after one step of `model` with the
 * radius under test r = R, the other boid at `k` x the offset (0: absent).
 */
static char *step_row(const struct radius *c, int dims, double k)
{
	static const double off2[] = { 21, 28, 0 }, off3[] = { 10, 15, 30 };
	const double *off = dims == 3 ? off3 : off2;
	double a[3] = { 300, 180, 150 }, b[3];
	for (int i = 0; i < 3; i++)
		b[i] = a[i] + off[i] * k;

	FILE *f = fopen("in.csv", "w");
	cr_assert_not_null(f);
	fputs(dims == 3 ? "frame,id,x,y,vx,vy,z,vz\n" : "frame,id,x,y,vx,vy\n", f);
	int id = 0;
	/* the other boid first when it is the predator, else after the watched one */
	if (k != 0 && c->predator == 1)
		fprintf(f, dims == 3 ? "0,%d,%.17g,%.17g,-0.5,1,%.17g,-0.75\n" : "0,%d,%.17g,%.17g,-0.5,1\n",
		        id++, b[0], b[1], b[2]);
	int watched = id;
	fprintf(f, dims == 3 ? "0,%d,300,180,1,0.5,150,0.25\n" : "0,%d,300,180,1,0.5\n", id++);
	if (k != 0 && c->predator != 1)
		fprintf(f, dims == 3 ? "0,%d,%.17g,%.17g,-0.5,1,%.17g,-0.75\n" : "0,%d,%.17g,%.17g,-0.5,1\n",
		        id++, b[0], b[1], b[2]);
	fclose(f);

	int st = tc_boids("-m %s --dims %d -s 640x360 --depth 300 --edges none --update synchronous --predators %d "
	                  "%s %g %s --init in.csv -f 2 --no-render --trajectory out.csv -y",
	                  c->model, dims, c->predator == 2 || (k != 0 && c->predator), c->option,
	                  c->value ? c->value : R, c->others);
	cr_assert_eq(st, 0, "%s %s: %s", c->model, c->option, tc_stderr());
	char *csv = tc_slurp("out.csv", NULL), key[32];
	cr_assert_not_null(csv);
	snprintf(key, sizeof key, "\n1,%d,", watched);
	char *row = strstr(csv, key);
	cr_assert_not_null(row, "%s", csv);
	row = strdup(row + strlen(key));
	*strchr(row, '\n') = 0;
	free(csv);
	return row;
}

/* The largest difference between two rows' numbers. */
static double row_diff(const char *a, const char *b)
{
	double d = 0;
	while (*a && *b) {
		char *ea, *eb;
		d = fmax(d, fabs(strtod(a, &ea) - strtod(b, &eb)));
		a = *ea ? ea + 1 : ea;
		b = *eb ? eb + 1 : eb;
	}
	return d;
}

/*
 * The canvas' separation distance counts only boids within its visual
 * range, so the other boid at the edge is seen by cohesion and alignment:
 * at r its row is the row at r + e to within what e moves (1e-9 r), and at
 * r - e the separation's jump (|offset| = r px/s) shows.
 */
Test(neighbours, the_canvas_separation_distance_ends_where_the_article_does)
{
	static const struct radius c = { "canvas", "--canvas-separation-distance", "--canvas-visual-range 70 --fps 60",
	                                 0, 0, 0 };
	tc_tmpdir();
	for (int dims = 2; dims <= 3; dims++) {
		char *below = step_row(&c, dims, 1 - 1e-9);
		char *edge = step_row(&c, dims, 1);
		char *above = step_row(&c, dims, 1 + 1e-9);
		cr_assert_lt(row_diff(edge, above), 1e-6, "%dD: a boid exactly %g px away is kept off: %s, beyond %s",
		             dims, R, edge, above);
		cr_assert_gt(row_diff(below, above), 1e-3, "%dD: a boid %g px away is not kept off", dims, R * (1 - 1e-9));
		free(below), free(edge), free(above);
	}
	tc_cleanup();
}

Test(neighbours, every_radius_of_every_model_ends_where_the_original_does)
{
	tc_tmpdir();
	for (size_t i = 0; i < sizeof radii / sizeof *radii; i++)
		for (int dims = 2; dims <= 3; dims++) {
			const struct radius *c = &radii[i];
			char *alone = step_row(c, dims, 3); /* 105 px away: out of every range */
			char *below = step_row(c, dims, 1 - 1e-9);
			char *edge = step_row(c, dims, 1);
			char *above = step_row(c, dims, 1 + 1e-9);
			cr_assert_str_neq(below, alone, "%s %s (%dD): a boid %g px away is not seen", c->model,
			                  c->option, dims, R * (1 - 1e-9));
			if (c->inclusive)
				cr_assert_str_neq(edge, alone, "%s %s (%dD): a boid exactly %g px away is not seen (the sketch's <=)",
				                  c->model, c->option, dims, R);
			else
				cr_assert_str_eq(edge, alone, "%s %s (%dD): a boid exactly %g px away is seen: %s, alone %s",
				                 c->model, c->option, dims, R, edge, alone);
			cr_assert_str_eq(above, alone, "%s %s (%dD): a boid %g px away is seen", c->model, c->option,
			                 dims, R * (1 + 1e-9));
			free(alone), free(below), free(edge), free(above);
		}
	tc_cleanup();
}
