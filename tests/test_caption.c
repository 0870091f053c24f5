/*
 * --caption: the text is on the picture (pixels change, inside the caption's
 * corner only, and more of them at a bigger --caption-size), its fields are
 * filled per frame ({frame}, {time}, {model}, any setting), a field that
 * does not exist is refused (exit 2, nothing written), the pictures are the
 * same bytes at 1 and 2 threads, and a binary without its plugin says which
 * file it could not load (exit 1).  Font-independent: whatever font
 * fontconfig gives draws some pixels in the box.
 */
#include <criterion/criterion.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "caption.h"
#include "cli.h"
#include "common.h"

TestSuite(caption, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup, .timeout = 120);

/* A PNG as RGB bytes; *w, *h its size. */
static unsigned char *read_rgb(const char *file, int *w, int *h)
{
	png_image img;
	memset(&img, 0, sizeof img);
	img.version = PNG_IMAGE_VERSION;
	cr_assert(png_image_begin_read_from_file(&img, file), "%s: %s", file, img.message);
	img.format = PNG_FORMAT_RGB;
	unsigned char *buf = malloc(PNG_IMAGE_SIZE(img));
	cr_assert(buf && png_image_finish_read(&img, NULL, buf, 0, NULL), "%s", img.message);
	*w = (int)img.width;
	*h = (int)img.height;
	return buf;
}

/* Pixels that differ between a and b; *out: how many of them lie outside the box [x0,x1) x [y0,y1). */
static long differ(const char *a, const char *b, int x0, int y0, int x1, int y1, long *out)
{
	int w, h, w2, h2;
	unsigned char *p = read_rgb(a, &w, &h), *q = read_rgb(b, &w2, &h2);
	long n = 0;

	cr_assert(w == w2 && h == h2);
	*out = 0;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			if (memcmp(p + ((size_t)y * (size_t)w + (size_t)x) * 3, q + ((size_t)y * (size_t)w + (size_t)x) * 3, 3)) {
				n++;
				*out += !(x >= x0 && x < x1 && y >= y0 && y < y1);
			}
	free(p);
	free(q);
	return n;
}

#define RUN "-q -f 1 -n 40 -s 320x180 --seed 3"

Test(caption, the_text_is_drawn_in_its_corner_and_nowhere_else)
{
	cr_assert_eq(tc_boids(RUN " -o plain.png"), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids(RUN " --caption 'boids {model}' -o bl.png"), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids(RUN " --caption 'boids {model}' --caption-pos top-right -o tr.png"), 0);
	cr_assert_eq(tc_boids(RUN " --caption 'boids {model}' --caption-size 40 -o big.png"), 0);
	long outside, small = differ("plain.png", "bl.png", 0, 90, 160, 180, &outside);
	cr_expect_gt(small, 100, "the caption changed %ld pixels", small);
	cr_expect_eq(outside, 0, "%ld pixels changed outside the bottom-left quarter", outside);
	long n = differ("plain.png", "tr.png", 160, 0, 320, 90, &outside);
	cr_expect_gt(n, 100);
	cr_expect_eq(outside, 0, "top-right: %ld pixels changed outside the top-right quarter", outside);
	long big = differ("plain.png", "big.png", 0, 0, 320, 180, &outside);
	cr_expect_gt(big, 2 * small, "--caption-size 40 changed %ld pixels, the auto size %ld", big, small);
}

Test(caption, fields_are_filled_per_frame)
{
	struct config c;
	char err[256], out[256];
	char *argv[] = { "boids", "-m", "steering", "-n", "42", "--fps", "30000/1001", "--align-weight", "0.25", NULL };

	cr_assert_eq(cli_parse(&c, 9, argv, err, sizeof err), CLI_RUN, "%s", err);
	caption_format(&c, "{model}: {boids} boids, frame {frame} at {time} s, {fps} fps {{x}} {align-weight}", 300,
	               out, sizeof out);
	/* 300 frames at 30000/1001 fps: 10.01 s */
	cr_expect_str_eq(out, "steering: 42 boids, frame 300 at 10.01 s, 30000/1001 fps {x} 0.25");
	cli_release(&c);
	/* and each frame gets its own: '{frame}' draws frame 0 as '0' does, frame 1 not */
	cr_assert_eq(tc_boids("-q -f 2 -n 5 -s 320x180 --caption '{frame}' -o f_%%d.png"), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("-q -f 2 -n 5 -s 320x180 --caption 0 -o z_%%d.png"), 0);
	cr_expect(tc_same_file("f_0.png", "z_0.png"), "{frame} on frame 0 is not '0'");
	cr_expect(!tc_same_file("f_1.png", "z_1.png"), "{frame} drew '0' on frame 1 too");
}

Test(caption, a_field_that_does_not_exist_is_refused)
{
	const char *bad[] = { "{nope}", "{frame", "a } b", "{help}", "{}" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		cr_expect_eq(tc_boids("-f 2 --caption '%s' -o x.mp4", bad[i]), 2, "--caption '%s'", bad[i]);
		cr_expect(strncmp(tc_stderr(), "boids: --caption: ", 18) == 0, "%s", tc_stderr());
		cr_expect_eq(tc_count_files("."), 0, "--caption '%s' left a file", bad[i]);
	}
	cr_expect_eq(tc_boids("-f 2 --caption-pos middle -o x.mp4"), 2);
	cr_expect_eq(tc_boids("-f 2 --caption-size 2 -o x.mp4"), 2);
	cr_expect_eq(tc_count_files("."), 0);
}

Test(caption, the_same_bytes_at_one_and_two_threads)
{
	cr_assert_eq(tc_boids("-q -f 6 -n 200 -s 320x180 --caption 'frame {frame}, {time} s' --threads 1 -o a.y4m"), 0,
	             "%s", tc_stderr());
	cr_assert_eq(tc_boids("-q -f 6 -n 200 -s 320x180 --caption 'frame {frame}, {time} s' --threads 2 -o b.y4m"), 0);
	cr_expect(tc_same_file("a.y4m", "b.y4m"));
}

Test(caption, a_binary_without_its_plugin_names_the_file_and_exits_1)
{
	cr_assert_eq(tc_sh("mkdir bin && cp '%s' bin/boids", getenv("BOIDS_BIN")), 0);
	int st = tc_sh("bin/boids -f 1 -n 5 --caption hi -o c.png 2>err.txt");
	cr_expect_eq(st, 1, "exit %d", st);
	char *err = tc_slurp("err.txt", NULL);
	cr_expect(err && strstr(err, "boids-caption.so") && strstr(err, "cannot load"), "%s", err ? err : "");
	free(err);
	cr_expect_eq(tc_sh("test ! -e c.png"), 0, "a picture was written without its caption");
	/* a run without a caption needs no plugin */
	cr_expect_eq(tc_sh("bin/boids -f 1 -n 5 -o d.png 2>/dev/null"), 0);
}

/*
 * A caption that is not UTF-8 is refused before any work, naming the byte
 * and its offset (Pango used to print "Invalid UTF-8 string passed to
 * pango_layout_set_text()" on every frame and draw it mangled).
 */
Test(caption, a_caption_that_is_not_utf8_is_refused_naming_the_byte)
{
	static const char *const bad[][2] = {
		{ "caf\\351 {frame}", "byte 0xe9 at offset 3 is not UTF-8" },            /* Latin-1 */
		{ "\\300\\257", "byte 0xc0 at offset 0 is not UTF-8" },                  /* overlong */
		{ "ok \\355\\240\\200", "byte 0xed at offset 3 is not UTF-8" },          /* a surrogate */
		{ "\\342\\202", "byte 0xe2 at offset 0 is not UTF-8" },                  /* cut short */
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		cr_expect_eq(tc_boids("-f 2 -n 5 -s 64x36 --caption \"$(printf '%s')\" -o x.png", bad[i][0]), 2,
		             "%s: %s", bad[i][0], tc_stderr());
		cr_expect(strncmp(tc_stderr(), "boids: --caption: ", 18) == 0 && strstr(tc_stderr(), bad[i][1]),
		          "%s: %s", bad[i][0], tc_stderr());
		cr_expect_eq(tc_count_files("."), 0, "%s left a file", bad[i][0]);
	}
	/* UTF-8 itself is drawn: 2, 3 and 4 bytes */
	cr_expect_eq(tc_boids("-q -f 1 -n 5 -s 64x36 --caption \"$(printf 'caf\\303\\251 \\342\\202\\254 "
	                      "\\360\\237\\220\\246')\" -o u.png"), 0, "%s", tc_stderr());
}

/*
 * A file name that is not UTF-8, shown by {output}, is drawn with U+FFFD
 * for each such byte (as the summary shows it): the same pixels as the
 * caption typed that way; and nothing from Pango on stderr, every line
 * JSON under --progress json.
 */
Test(caption, a_latin1_file_name_in_a_caption_is_shown_repaired_and_pango_says_nothing)
{
	cr_assert_eq(tc_sh("'%s' -f 1 -n 5 -s 160x90 --caption 'to {output}' --progress json "
	                   "-o \"$(printf 'caf\\351_%%%%d.png')\" 2>err.txt", getenv("BOIDS_BIN")), 0);
	cr_assert_eq(tc_sh("'%s' -q -f 1 -n 5 -s 160x90 --caption \"$(printf 'to caf\\357\\277\\275_%%%%d.png')\" "
	                   "-o 'typed_%%d.png'", getenv("BOIDS_BIN")), 0);
	cr_assert_eq(tc_sh("'%s' -q -f 1 -n 5 -s 160x90 -o 'none_%%d.png'", getenv("BOIDS_BIN")), 0);
	cr_assert_eq(tc_sh("mv \"$(printf 'caf\\351_0.png')\" latin_0.png"), 0);
	cr_expect(tc_same_file("latin_0.png", "typed_0.png"), "{output} is not drawn as the name with U+FFFD");
	long out;
	cr_expect_gt(differ("latin_0.png", "none_0.png", 0, 0, 160, 90, &out), 0, "no caption drawn");
	char *err = tc_slurp("err.txt", NULL);
	cr_assert_not_null(err);
	cr_expect(!strstr(err, "Pango") && !strstr(err, "WARNING"), "a library printed: %s", err);
	cr_assert_eq(tc_sh("'%s' -c 'import json, sys\nfor l in open(\"err.txt\", \"rb\"): json.loads(l)'", tc_python()),
	             0, "a line on stderr is not JSON: %s", err);
	free(err);
}

/* What the plugin's libraries say goes to the function set_log() gives, never to stderr. */
static char heard[512];
static void hear(enum caption_log_level level, const char *domain, const char *message)
{
	snprintf(heard + strlen(heard), sizeof heard - strlen(heard), "[%d %s: %s]", (int)level, domain, message);
}

/*
 * Pango's warning about text that is not UTF-8 (what {output} used to make
 * it print) reaches boids's function, in a child whose stderr is a file:
 * the file stays empty.
 */
Test(caption, glib_and_pango_messages_go_to_boids_not_stderr)
{
	extern const struct caption_plugin boids_caption_plugin;
	fflush(stderr);
	FILE *log = fopen("stderr.txt", "w");
	cr_assert_not_null(log);
	int saved = dup(2);
	cr_assert_geq(saved, 0);
	cr_assert_geq(dup2(fileno(log), 2), 0);
	boids_caption_plugin.set_log(hear);
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 64, 36);
	cairo_t *cr = cairo_create(s);
	int ret = boids_caption_plugin.draw(cr, "caf\xe9", 12, CAPTION_BOTTOM_LEFT, 64, 36);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	fclose(log);
	cr_expect_eq(ret, 0);
	cr_expect(strstr(heard, "[1 Pango: ") && strstr(heard, "UTF-8"), "heard: %s", heard);
	char *printed = tc_slurp("stderr.txt", NULL);
	cr_expect(printed && !*printed, "printed on stderr: %s", printed ? printed : "?");
	free(printed);
}

/*
 * Fontconfig prints its own warnings when it reads its configuration (a
 * broken fonts.conf): taken while the fonts are loaded, they are boids's
 * notes, warning events under --progress json (every line JSON), nothing
 * with -q; the caption is still drawn.
 */
Test(caption, what_fontconfig_prints_is_a_note_or_a_json_event)
{
	cr_assert_eq(tc_sh("printf '<fontconfig><bogus/></fontconfig>' > bad.conf"), 0);
	const char *run = "-f 1 -n 5 -s 64x36 --caption hi -y";
	cr_assert_eq(tc_sh("FONTCONFIG_FILE=\"$PWD/bad.conf\" '%s' %s -o a.png 2>plain.txt", getenv("BOIDS_BIN"), run), 0);
	cr_assert_eq(tc_sh("FONTCONFIG_FILE=\"$PWD/bad.conf\" '%s' %s -o b.png --progress json 2>json.txt",
	                   getenv("BOIDS_BIN"), run), 0);
	cr_assert_eq(tc_sh("FONTCONFIG_FILE=\"$PWD/bad.conf\" '%s' %s -o c.png -q 2>quiet.txt", getenv("BOIDS_BIN"), run),
	             0);
	char *plain = tc_slurp("plain.txt", NULL), *json = tc_slurp("json.txt", NULL), *quiet = tc_slurp("quiet.txt", NULL);
	cr_assert(plain && json && quiet);
	cr_expect(strstr(plain, "boids: note: Fontconfig: ") && strstr(plain, "bogus"), "%s", plain);
	cr_expect(!strstr(plain, "\nFontconfig") && strncmp(plain, "Fontconfig", 10) != 0, "fontconfig printed: %s",
	          plain);
	cr_expect(strstr(json, "{\"event\":\"warning\",\"message\":\"Fontconfig: ") && strstr(json, "bogus"), "%s", json);
	cr_expect_eq(tc_sh("'%s' -c 'import json\nfor l in open(\"json.txt\", \"rb\"): json.loads(l)'", tc_python()), 0,
	             "a line on stderr is not JSON: %s", json);
	cr_expect_str_eq(quiet, "", "-q: %s", quiet);
	free(plain);
	free(json);
	free(quiet);
}
