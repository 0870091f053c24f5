/*
 * The README's recipes and pictures (the PNGs in docs/): every picture the README
 * shows is what the command printed beside it makes (scripts/docs-images.sh
 * runs those commands; the decoded pixels equal the committed picture's),
 * each has boids spread over the picture (counted in a grid of regions of
 * the decoded PNG by the boids' colour, not by boids' renderer), and the
 * README's GIF line is examples/readme-gif.sh's command.
 */
#include <criterion/criterion.h>

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(gallery, .init = setup, .fini = teardown, .timeout = 120);

struct rgb {
	unsigned char *px; /* RGB, 3 bytes a pixel, rows packed */
	int w, h;
};

/* Decodes a PNG file with libpng to 8-bit RGB; 0, or -1 when it is missing or unreadable. */
static int decode(const char *path, struct rgb *out)
{
	png_image img;
	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(&img, path))
		return -1;
	img.format = PNG_FORMAT_RGB;
	out->w = (int)img.width, out->h = (int)img.height;
	out->px = malloc(PNG_IMAGE_SIZE(img));
	cr_assert_not_null(out->px);
	if (!png_image_finish_read(&img, NULL, out->px, 0, NULL)) {
		free(out->px);
		return -1;
	}
	return 0;
}

enum look { GREEN, RED, WHITE, HUED, BLACK, YELLOW };

/* Whether a pixel is a boid's, by its colour: light green (also fogged), red, white, black, yellow, or
 * any colour well away from the dark blue background (the heading wheel's, the density look's). */
static int boid_pixel(const unsigned char *p, enum look look)
{
	int r = p[0], g = p[1], b = p[2];
	switch (look) {
	case GREEN: return g >= r + 40 && g >= b + 40;
	case RED: return r >= g + 60 && r >= b + 60;
	case BLACK: return r <= 100 && g <= 100 && b <= 100;
	case YELLOW: return r >= 100 && abs(r - g) <= 8 && b + 30 <= r; /* NetLogo's shades of yellow */
	case HUED: return r + abs(g - 0x33) + abs(b - 0x66) >= 90;
	default: return r >= 200 && g >= 200 && b >= 200;
	}
}

#define GRID 4   /* regions a side */
#define HELD 4   /* boid pixels that make a region one that holds boids */

/* How many of the GRID x GRID regions of the picture hold boid pixels. */
static int regions_held(const struct rgb *pic, enum look look)
{
	int count[GRID][GRID] = { { 0 } }, held = 0;
	for (int y = 0; y < pic->h; y++)
		for (int x = 0; x < pic->w; x++)
			if (boid_pixel(pic->px + 3 * ((size_t)y * (size_t)pic->w + (size_t)x), look))
				count[y * GRID / pic->h][x * GRID / pic->w]++;
	for (int k = 0; k < GRID * GRID; k++)
		held += count[k / GRID][k % GRID] >= HELD;
	return held;
}

/* The pictures the README shows, and how their boids look. */
static const struct {
	const char *name;
	enum look look;
	int min_regions; /* of GRID x GRID */
} pictures[] = {
	{ "frame.png", GREEN, 10 },
	{ "model-harden.png", GREEN, 10 },
	{ "model-processing.png", GREEN, 10 },
	{ "model-steering.png", GREEN, 6 },  /* a swarm on its target, not a scatter */
	{ "model-canvas.png", RED, 12 },
	{ "model-opengl.png", WHITE, 10 },
	{ "model-vicsek.png", BLACK, 6 },    /* the paper's square box in the middle of the picture */
	{ "model-abm.png", GREEN, 6 },       /* the declaration's square space, likewise */
	{ "look-harden-windows.png", GREEN, 14 },
	{ "frame3d.png", GREEN, 8 },
	{ "zoom-far.png", HUED, 16 },  /* the whole field: flocks everywhere */
	{ "zoom-near.png", HUED, 10 }, /* one flock's darts */
	{ "model-couzin.png", GREEN, 4 },    /* one group, followed: the middle of the picture */
	{ "model-netlogo.png", YELLOW, 12 },
	/* docs/MODELS-FIELD.md's states, made by scripts/docs-images.sh too */
	{ "couzin-swarm.png", GREEN, 4 },
	{ "couzin-torus.png", GREEN, 4 },
	{ "couzin-dynamic.png", GREEN, 4 },
	{ "couzin-parallel.png", GREEN, 4 },
};

/* The pictures a doc shows (links "](PREFIXNAME.png)") in the table above: how many it shows. */
static int pictures_checked(const char *doc, const char *prefix)
{
	char path[512], pat[64], fmt[64];
	snprintf(path, sizeof(path), "%s/%s", SRCDIR, doc);
	snprintf(pat, sizeof(pat), "](%s", prefix);
	snprintf(fmt, sizeof(fmt), "](%s%%127[^)])", prefix);
	char *text = tc_slurp(path, NULL);
	cr_assert_not_null(text, "%s", path);
	int seen = 0;
	for (const char *p = text; (p = strstr(p, pat)) != NULL; p++) {
		char name[128];
		if (sscanf(p, fmt, name) != 1 || strchr(name, '/') || !strstr(name, ".png"))
			continue;
		if (strcmp(name, "sweep-chart.png") == 0 || strcmp(name, "sweep-report.png") == 0 ||
		    strncmp(name, "couzin-memory-", 14) == 0 || strncmp(name, "vicsek-fig2", 11) == 0)
			continue; /* charts (scripts/chart's, scripts/hysteresis's, the sweeps'), a sweep's report page: no flock */
		int known = 0;
		for (size_t i = 0; i < sizeof(pictures) / sizeof(pictures[0]); i++)
			known |= strcmp(pictures[i].name, name) == 0;
		cr_expect(known, "%s shows %s%s, which this test does not check", doc, prefix, name);
		seen++;
	}
	free(text);
	return seen;
}

/* Every picture the README and docs/MODELS-FIELD.md show is in the table above. */
Test(gallery, every_readme_picture_is_checked)
{
	int seen = pictures_checked("README.md", "docs/") + pictures_checked("docs/MODELS-FIELD.md", "");
	cr_expect_geq(seen, (int)(sizeof(pictures) / sizeof(pictures[0])));
}

/*
 * scripts/docs-images.sh, run into a directory of the test's, remakes every
 * picture from the README's commands: the same pixels as the committed one,
 * and boids in enough regions of it.
 */
Test(gallery, readme_commands_remake_every_picture_with_boids_spread)
{
	cr_assert_eq(tc_sh("sh '%s/scripts/docs-images.sh' '%s' out > log 2>&1", SRCDIR, getenv("BOIDS_BIN")), 0,
	             "%s", tc_slurp("log", NULL));
	for (size_t i = 0; i < sizeof(pictures) / sizeof(pictures[0]); i++) {
		char made[256], kept[512];
		struct rgb a, b;
		snprintf(made, sizeof(made), "out/%s", pictures[i].name);
		snprintf(kept, sizeof(kept), "%s/docs/%s", SRCDIR, pictures[i].name);
		cr_assert_eq(decode(made, &a), 0, "no README command makes docs/%s", pictures[i].name);
		cr_assert_eq(decode(kept, &b), 0, "docs/%s", pictures[i].name);
		cr_expect(a.w == b.w && a.h == b.h && memcmp(a.px, b.px, (size_t)a.w * (size_t)a.h * 3) == 0,
		          "docs/%s is not what its README command makes (scripts/docs-images.sh)", pictures[i].name);
		int held = regions_held(&b, pictures[i].look);
		cr_expect_geq(held, pictures[i].min_regions, "docs/%s: boids in %d of %d regions", pictures[i].name, held,
		              GRID * GRID);
		free(a.px);
		free(b.px);
	}
}

/* The words of a command line, as sh splits one without quotes; *n gets their number. */
static int split(char *line, char **words, int max)
{
	int n = 0;
	for (char *w = strtok(line, " \t"); w && n < max; w = strtok(NULL, " \t"))
		words[n++] = w;
	return n;
}

/* The text of line in text that contains needle (malloc'ed), before any '#' comment, trailing blanks cut. */
static char *line_with(const char *text, const char *needle)
{
	const char *hit = strstr(text, needle);
	if (!hit)
		return NULL;
	const char *start = hit, *end = strchr(hit, '\n');
	while (start > text && start[-1] != '\n')
		start--;
	if (!end)
		end = hit + strlen(hit);
	const char *hash = memchr(start, '#', (size_t)(end - start));
	if (hash)
		end = hash;
	while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	char *out = strndup(start, (size_t)(end - start));
	cr_assert_not_null(out);
	return out;
}

/*
 * The README's GIF line is examples/readme-gif.sh's command: the script's
 * words, "$BOIDS" read as boids and without its -y and ${QUICK:+...} (the
 * test's short run), are the README line's words.  And it is a good clip:
 * the field at its size drawn with --scale, after a warm-up.
 */
Test(gallery, readme_gif_line_is_the_example)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/README.md", SRCDIR);
	char *readme = tc_slurp(path, NULL);
	snprintf(path, sizeof(path), "%s/examples/readme-gif.sh", SRCDIR);
	char *script = tc_slurp(path, NULL);
	cr_assert(readme && script);
	char *a = line_with(readme, "boids -o flock.gif"), *b = line_with(script, "\"$BOIDS\" ");
	cr_assert(a && b, "the README's GIF line or the script's command is missing");
	char *wa[64], *wb[64], *kept[64];
	int na = split(a, wa, 64), nb = split(b, wb, 64), nk = 0;
	for (int i = 0; i < nb; i++) {
		if (strncmp(wb[i], "${QUICK:+", 9) == 0) { /* up to the word that closes it */
			while (i < nb - 1 && !strchr(wb[i], '}'))
				i++;
			continue;
		}
		if (strcmp(wb[i], "-y") != 0)
			kept[nk++] = strcmp(wb[i], "\"$BOIDS\"") == 0 ? "boids" : wb[i];
	}
	cr_assert_eq(na, nk, "README: %d words, the script: %d", na, nk);
	for (int i = 0; i < na; i++)
		cr_expect_str_eq(wa[i], kept[i], "word %d", i);
	int scale = 0, warmup = 0, size = 0;
	for (int i = 0; i < na; i++) {
		scale |= strcmp(wa[i], "--scale") == 0;
		warmup |= strcmp(wa[i], "--warmup") == 0;
		size |= strcmp(wa[i], "-s") == 0 || strcmp(wa[i], "--size") == 0;
	}
	cr_expect(scale && warmup && !size, "the GIF shrinks the field instead of drawing it smaller, or starts cold");
	free(a);
	free(b);
	free(readme);
	free(script);
}

/* The metrics of frame 0 of `boids ARGS` (polarization etc. in m.csv's order). */
static void first_frame(const char *args, double m[6])
{
	cr_assert_eq(tc_boids("%s -q -y -f 1 --no-render --metrics m.csv", args), 0, "%s", tc_stderr());
	char *csv = tc_slurp("m.csv", NULL);
	cr_assert_not_null(csv);
	const char *row = strchr(csv, '\n');
	cr_assert_not_null(row);
	cr_assert_eq(sscanf(row + 1, "0,%lf,%lf,%lf,%lf,%lf,%lf", &m[0], &m[1], &m[2], &m[3], &m[4], &m[5]), 6, "%s", csv);
	free(csv);
}

/*
 * The quick start's clip (make demo's command, as the Makefile runs it)
 * opens on a flock, not on the random start: boids at speed, fewer and
 * closer groups.  The README prints the same command beside "make demo".
 */
Test(gallery, quick_start_clip_opens_on_a_flock)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/Makefile", SRCDIR);
	char *mk = tc_slurp(path, NULL);
	cr_assert_not_null(mk);
	const char *demo = strstr(mk, "\ndemo:");
	cr_assert_not_null(demo, "no demo target");
	char *line = line_with(demo, "$(BUILD)/boids ");
	cr_assert_not_null(line);
	char *w[64], args[512] = "";
	int n = split(line, w, 64);
	for (int i = 0; i < n; i++) {
		if (strcmp(w[i], "$(BUILD)/boids") == 0 || strcmp(w[i], "-y") == 0)
			continue;
		if (strcmp(w[i], "-o") == 0) {
			i++;
			continue;
		}
		strcat(args, " ");
		strcat(args, w[i]);
	}
	cr_assert(strstr(args, "--warmup"), "make demo runs '%s': no warm-up", args);
	double cold[6], warm[6];
	first_frame("", cold);
	first_frame(args, warm);
	cr_expect_gt(warm[2], 4 * cold[2], "mean speed %g, at the start %g", warm[2], cold[2]);
	cr_expect_lt(warm[5], .6 * cold[5], "%g clusters, at the start %g", warm[5], cold[5]);
	cr_expect_lt(warm[3], .9 * cold[3], "nearest neighbour %g, at the start %g", warm[3], cold[3]);
	/* the README says so beside make demo */
	snprintf(path, sizeof(path), "%s/README.md", SRCDIR);
	char *readme = tc_slurp(path, NULL), want[600];
	snprintf(want, sizeof(want), "boids%s ", args);
	const char *at = readme ? strstr(readme, want) : NULL;
	cr_assert_not_null(at, "README has no '%s' line", want);
	const char *eol = strchr(at, '\n'), *says = strstr(at, "make demo");
	cr_expect(says && (!eol || says < eol), "README's '%s' line does not say it is make demo's", want);
	free(line);
	free(mk);
	free(readme);
}
