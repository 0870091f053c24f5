/*
 * What comes out of a whole run: the default clip, byte-identical output
 * whatever the thread count, and frames drawn where the trajectory says.
 */
#include <criterion/criterion.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "render.h"
#include "traj.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(output, .init = setup, .fini = teardown, .timeout = 180);


Test(output, boids_alone_writes_the_default_clip)
{
	cr_assert_eq(tc_boids("%s", ""), 0, "%s", tc_stderr());
	AVFormatContext *fc = NULL;
	cr_assert_geq(avformat_open_input(&fc, "flock.mp4", NULL, NULL), 0);
	cr_assert_geq(avformat_find_stream_info(fc, NULL), 0);
	cr_assert_eq(fc->nb_streams, 1);
	AVCodecParameters *par = fc->streams[0]->codecpar;
	cr_assert_eq(par->codec_id, AV_CODEC_ID_H264);
	cr_assert_eq(par->width, 640);
	cr_assert_eq(par->height, 360);
	cr_assert_eq(par->format, AV_PIX_FMT_YUV420P);
	cr_assert_eq(av_q2d(fc->streams[0]->avg_frame_rate), 30.0);
	AVPacket *pkt = av_packet_alloc();
	int frames = 0;
	while (av_read_frame(fc, pkt) >= 0) {
		frames++;
		av_packet_unref(pkt);
	}
	cr_assert_eq(frames, 300);
	av_packet_free(&pkt);
	avformat_close_input(&fc);
	/* never overwritten without -y; the same bytes again with it */
	cr_assert_eq(tc_boids("%s", ""), 2);
	cr_assert_eq(tc_sh("mv flock.mp4 first.mp4"), 0);
	cr_assert_eq(tc_boids("%s", ""), 0);
	cr_assert(tc_same_file("flock.mp4", "first.mp4"), "a second run wrote other bytes");
}

Test(output, thread_count_never_changes_the_bytes)
{
	static const char *const outs[] = { "v.mp4", "v.webm", "v.gif", "v.y4m", "t.csv" };
	for (int t = 0; t < 3; t++) {
		int threads = (int[]){ 1, 2, 8 }[t];
		cr_assert_eq(tc_sh("mkdir t%d", threads), 0);
		for (int i = 0; i < 4; i++)
			cr_assert_eq(tc_boids("-q -f 6 -n 1500 -s 320x180 --update synchronous --threads %d -o t%d/%s",
			                      threads, threads, outs[i]), 0, "%s", tc_stderr());
		cr_assert_eq(tc_boids("-q -f 6 -n 1500 -s 320x180 --update synchronous --threads %d -o t%d/f%%02d.png --trajectory t%d/t.csv",
		                      threads, threads, threads), 0);
	}
	char a[64], b[64];
	for (int i = 0; i < 5; i++)
		for (int t = 1; t < 3; t++) {
			snprintf(a, sizeof(a), "t1/%s", outs[i]);
			snprintf(b, sizeof(b), "t%d/%s", (int[]){ 1, 2, 8 }[t], outs[i]);
			cr_expect(tc_same_file(a, b), "%s and %s differ", a, b);
		}
	cr_assert_eq(tc_count_files("t1"), 4 + 6 + 1);
	cr_assert_eq(tc_sh("for f in t1/f*.png; do cmp -s $f t2/${f#t1/} && cmp -s $f t8/${f#t1/} || exit 1; done"), 0);
}

/* Decodes a PNG into 8-bit RGB. */
static unsigned char *read_png(const char *path, int *w, int *h)
{
	png_image img;
	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	cr_assert(png_image_begin_read_from_file(&img, path), "%s", path);
	img.format = PNG_FORMAT_RGB;
	unsigned char *buf = malloc(PNG_IMAGE_SIZE(img));
	cr_assert(png_image_finish_read(&img, NULL, buf, 0, NULL));
	*w = (int)img.width;
	*h = (int)img.height;
	return buf;
}

Test(output, each_png_shows_the_flock_where_the_trajectory_says)
{
	cr_assert_eq(tc_boids("-q -f 12 --warmup 30 -o f_%%02d.png --trajectory t.csv"), 0);
	/* frame 11 of the run: the last frame of the trajectory */
	FILE *f = fopen("t.csv", "r");
	struct traj_state st;
	struct traj_error te;
	cr_assert_eq(traj_load(f, &st, &te), 0);
	fclose(f);
	cr_assert_eq(st.frame, 11);

	struct render_params rp;
	struct renderer *r;
	render_params_default(&rp, 640, 360);
	cr_assert_eq(render_new(&r, &rp), 0);
	struct render_view v = { .n = st.n, .predators = 3, .x = st.x, .y = st.y, .vx = st.vx, .vy = st.vy };
	render_frame(r, &v);
	int stride, w, h;
	const unsigned char *px = render_pixels(r, &stride);
	unsigned char *png = read_png("f_11.png", &w, &h);
	cr_assert_eq(w, 640);
	cr_assert_eq(h, 360);
	long differ = 0;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint32_t p = *(const uint32_t *)(px + (size_t)y * (size_t)stride + 4 * (size_t)x);
			const unsigned char *q = png + 3 * ((size_t)y * 640 + (size_t)x);
			if (q[0] != ((p >> 16) & 255) || q[1] != ((p >> 8) & 255) || q[2] != (p & 255))
				differ++;
		}
	cr_assert_eq(differ, 0, "%ld pixels differ from the trajectory's frame", differ);
	free(png);
	render_free(r);
	traj_state_release(&st);
}

Test(output, stdout_carries_only_y4m)
{
	cr_assert_eq(tc_sh("'%s' -f 5 -s 320x180 -o - > out.y4m 2>err.txt", getenv("BOIDS_BIN")), 0);
	char *y = tc_slurp("out.y4m", NULL);
	cr_assert(strncmp(y, "YUV4MPEG2 W320 H180 F30:1", 25) == 0, "%.40s", y);
	free(y);
	cr_assert_eq(tc_sh("test $(grep -c FRAME out.y4m) -eq 5"), 0);
}

Test(output, option_effects_show_in_the_picture)
{
	/* background colour, scale, no predators drawn white */
	cr_assert_eq(tc_boids("-q -f 1 -n 5 --predators 0 --background '#ff0000' --scale 2 -o a_%%d.png"), 0);
	int w, h;
	unsigned char *p = read_png("a_0.png", &w, &h);
	cr_assert_eq(w, 1280);
	cr_assert_eq(h, 720);
	cr_assert(p[0] == 255 && p[1] == 0 && p[2] == 0);
	long white = 0;
	for (long i = 0; i < (long)w * h; i++)
		white += p[3 * i] == 255 && p[3 * i + 1] == 255 && p[3 * i + 2] == 255;
	cr_assert_eq(white, 0);
	free(p);
	/* --start-number and --png-level */
	cr_assert_eq(tc_boids("-q -f 2 --start-number 7 --png-level 9 -o b_%%03d.png"), 0);
	cr_assert_eq(tc_sh("test -f b_007.png && test -f b_008.png && ! test -f b_000.png"), 0);
	/* shapes give different pictures, antialias none gives only 3 colours */
	cr_assert_eq(tc_boids("-q -f 1 --shape polygon -o poly_%%d.png"), 0);
	cr_assert_eq(tc_boids("-q -f 1 --shape curve -o curve_%%d.png"), 0);
	cr_assert_eq(tc_boids("-q -f 1 --shape curve --boid-size 2 -o big_%%d.png"), 0);
	cr_assert(!tc_same_file("poly_0.png", "curve_0.png"));
	cr_assert(!tc_same_file("big_0.png", "curve_0.png"));
	cr_assert_eq(tc_boids("-q -f 1 --antialias none -o aa_%%d.png"), 0);
	p = read_png("aa_0.png", &w, &h);
	int colours = 0;
	uint32_t seen[8];
	for (long i = 0; i < (long)w * h && colours < 8; i++) {
		uint32_t c = (uint32_t)p[3 * i] << 16 | (uint32_t)p[3 * i + 1] << 8 | p[3 * i + 2];
		int known = 0;
		for (int k = 0; k < colours; k++)
			known |= seen[k] == c;
		if (!known)
			seen[colours++] = c;
	}
	cr_assert_eq(colours, 3, "antialias none: %d colours", colours);
	free(p);
}

Test(output, trails_obstacles_noise_and_opengl_look)
{
	/* obstacles are drawn in their colour, where they are */
	cr_assert_eq(tc_boids("-q -f 1 -n 1 --predators 0 --obstacle 100,80,20 --obstacle-color '#ff00ff' -o o_%%d.png"), 0);
	int w, h;
	unsigned char *p = read_png("o_0.png", &w, &h);
	const unsigned char *c = p + 3 * (80 * 640 + 100);
	cr_assert(c[0] == 255 && c[1] == 0 && c[2] == 255, "obstacle centre is %d,%d,%d", c[0], c[1], c[2]);
	c = p + 3 * (80 * 640 + 125);
	cr_assert(!(c[0] == 255 && c[1] == 0 && c[2] == 255), "obstacle drawn too large");
	free(p);
	/* trails: more boid-coloured pixels than without */
	cr_assert_eq(tc_boids("-q -f 30 -o a_%%02d.png"), 0);
	cr_assert_eq(tc_boids("-q -f 30 --trail 10 -o t_%%02d.png"), 0);
	cr_assert(!tc_same_file("a_29.png", "t_29.png"));
	cr_assert(tc_same_file("a_00.png", "t_00.png"), "frame 0 has no history, so no trail");
	/* the OpenGL look: yellow predators */
	cr_assert_eq(tc_boids("-q -f 1 --opengl --print-config"), 0);
	cr_assert(strstr(tc_stdout(), "trail = 20\n") && strstr(tc_stdout(), "predator-color = #ffff00\n") &&
	          strstr(tc_stdout(), "predator-size = 1.5\n"), "%s", tc_stdout());
	cr_assert_eq(tc_boids("-q -f 1 --opengl --trail 5 --print-config"), 0);
	cr_assert(strstr(tc_stdout(), "trail = 5\n"));
	/* noise: seeded clouds, not one flat colour */
	cr_assert_eq(tc_boids("-q -f 1 -n 1 --background-style noise --predators 0 -o n_%%d.png"), 0);
	cr_assert_eq(tc_boids("-q -f 1 -n 1 --background-style noise --predators 0 --seed 2 -o m_%%d.png"), 0);
	p = read_png("n_0.png", &w, &h);
	cr_assert(memcmp(p, p + 3 * (200 * 640 + 400), 3) != 0, "noise background is flat");
	free(p);
	cr_assert(!tc_same_file("n_0.png", "m_0.png"), "the seed does not change the noise");
}

Test(output, obstacles_round_trip_through_a_config_file)
{
	cr_assert_eq(tc_boids("--obstacle 1,2,3 --obstacle 40.5,50,6 --print-config"), 0);
	char *cfg = strdup(tc_stdout());
	cr_assert(strstr(cfg, "obstacle = \nobstacle = 1,2,3\nobstacle = 40.5,50,6\n"), "%s", cfg);
	FILE *f = fopen("o.cfg", "w");
	fputs(cfg, f);
	fclose(f);
	cr_assert_eq(tc_boids("--config o.cfg --print-config"), 0);
	cr_assert_str_eq(tc_stdout(), cfg);
	cr_assert_eq(tc_boids("--config o.cfg --obstacle 9,9,9 --print-config"), 0);
	cr_assert(strstr(tc_stdout(), "obstacle = \nobstacle = 9,9,9\n"), "the command line replaces the list");
	free(cfg);
}

Test(output, every_model_renders_from_its_defaults)
{
	static const char *const models[] = { "harden", "processing", "steering", "canvas" };
	/* the canvas article's "few hundred birds" are 300; steering's swarm fills its view at 300 (issue 40) */
	static const int boids[] = { 100, 100, 300, 300 };
	for (int i = 0; i < 4; i++) {
		cr_assert_eq(tc_boids("-q -m %s -f 30 -o %s.gif --trajectory %s.csv", models[i], models[i], models[i]), 0,
		             "%s: %s", models[i], tc_stderr());
		cr_assert_eq(tc_sh("test $(grep -c '^29,' %s.csv) -eq %d", models[i], boids[i]), 0, "-m %s: not %d boids",
		             models[i], boids[i]);
	}
	cr_assert(!tc_same_file("processing.csv", "canvas.csv"));
	/* the steering target is drawn: a fixed one shows up in the picture */
	cr_assert_eq(tc_boids("-q -m steering --target 100,100 --target-color '#ff0000' -f 1 -o s_%%d.png"), 0);
	int w, h;
	unsigned char *p = read_png("s_0.png", &w, &h);
	long red = 0;
	for (int y = 90; y < 110; y++)
		for (int x = 90; x < 110; x++) {
			const unsigned char *c = p + 3 * (y * 640 + x);
			red += c[0] > 200 && c[1] < 60 && c[2] < 60;
		}
	cr_assert_gt(red, 5, "no target marker at 100,100");
	free(p);
	/* other models have no predators unless asked */
	cr_assert_eq(tc_boids("-m canvas --print-config"), 0);
	cr_assert(strstr(tc_stdout(), "predators = 0\n"));
	cr_assert_eq(tc_boids("-m canvas --predators 2 --print-config"), 0);
	cr_assert(strstr(tc_stdout(), "predators = 2\n"));
}
