/*
 * video: the files play back as what was written.  Every output is opened
 * again with libavformat/libavcodec and decoded: codec, size, pixel format,
 * frame count, frame rate, duration, and each frame against the input frame
 * converted independently here (exact for y4m, PSNR thresholds for lossy
 * codecs, near-exact for GIF's palette).  Input frames are drawn by hand (a
 * moving rectangle on #003366), so these tests do not depend on render.
 */
#define _GNU_SOURCE /* memmem */
#include <criterion/criterion.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#include "video.h"

#define W 160
#define H 90
#define FPS 25
#define RATE(n) ((struct rate){ (n), 1 }) /* a whole frame rate */
#define MAXF 12

#define BG     0xFF003366u
#define GREEN  0xFF90EE90u
#define WHITE  0xFFFFFFFFu

static char dir[64];

static void setup(void)
{
	av_log_set_level(AV_LOG_QUIET); /* failures come back as messages */
	strcpy(dir, "/tmp/boids-video-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[512];

	if (!d)
		return;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
			unlink(p);
		}
	closedir(d);
	rmdir(dir);
}

TestSuite(video, .init = setup, .fini = teardown);

/* ------------------------------------------------------------ input frames */

static uint32_t blend(uint32_t a, uint32_t b, int t) /* t/255 of b over a */
{
	uint32_t r = 0xFF000000u;
	for (int sh = 0; sh < 24; sh += 8) {
		int ca = (int)(a >> sh & 255), cb = (int)(b >> sh & 255);
		r |= (uint32_t)((ca * (255 - t) + cb * t + 127) / 255) << sh;
	}
	return r;
}

/*
 * Frame k: #003366 background, a green rectangle moving right and down, a
 * white square moving left, and a green-to-background ramp (the kind of
 * blends antialiasing makes) whose start moves with k.
 */
static void draw(uint32_t *px, int w, int h, int k)
{
	int rx = 4 + 7 * k, ry = 6 + 3 * k, sx = w - 20 - 5 * k;

	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint32_t c = BG;
			if (x >= rx && x < rx + 40 && y >= ry && y < ry + 24)
				c = GREEN;
			else if (x >= sx && x < sx + 10 && y >= h - 20 && y < h - 10)
				c = WHITE;
			else if (y >= h - 6 && x >= k && x < k + 64)
				c = blend(GREEN, BG, (x - k) * 4);
			px[(size_t)y * (size_t)w + (size_t)x] = c;
		}
}

static uint32_t *frames_new(int n, int w, int h)
{
	uint32_t *px = malloc((size_t)n * (size_t)w * (size_t)h * 4);
	cr_assert_not_null(px);
	for (int k = 0; k < n; k++)
		draw(px + (size_t)k * (size_t)w * (size_t)h, w, h, k);
	return px;
}

/* Writes n frames to dir/name; returns the path (static buffer). */
static const char *encode(const char *name, int n, int fps,
                          const struct video_options *o)
{
	static char path[256];
	char err[256] = "";
	struct video *v;
	uint32_t *px = frames_new(n, W, H);
	int ret;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	cr_assert_eq(video_check(path, W, H, RATE(fps), o, err, sizeof err), 0, "%s", err);
	ret = video_open(&v, path, path, W, H, RATE(fps), o, err, sizeof err);
	cr_assert_eq(ret, 0, "open %s: %s", name, err);
	for (int k = 0; k < n; k++) {
		ret = video_write_frame(v, (const unsigned char *)(px + (size_t)k * W * H), W * 4);
		cr_assert_eq(ret, 0, "frame %d: %s", k, av_err2str(ret));
	}
	ret = video_close(v);
	cr_assert_eq(ret, 0, "close: %s", av_err2str(ret));
	video_free(v);
	free(px);
	return path;
}

/* ------------------------------------------------------------ decoding */

struct decoded {
	enum AVCodecID codec;
	int w, h;
	enum AVPixelFormat pix_fmt;     /* as decoded */
	AVRational rate;                /* av_guess_frame_rate */
	double duration;                /* seconds, the container's */
	int n;                          /* frames decoded */
	AVFrame *f[MAXF + 4];
	int64_t pkt_dur[MAXF + 4];      /* packet durations, time base tb */
	AVRational tb;
};

static void take(struct decoded *d, AVCodecContext *dec, AVFrame *fr)
{
	while (avcodec_receive_frame(dec, fr) == 0) {
		cr_assert_lt(d->n, MAXF + 4, "too many frames");
		d->f[d->n++] = av_frame_clone(fr);
		av_frame_unref(fr);
	}
}

static void decode_file(const char *path, struct decoded *d)
{
	AVFormatContext *fc = NULL;
	AVCodecContext *dec;
	const AVCodec *codec;
	AVPacket *pkt = av_packet_alloc();
	AVFrame *fr = av_frame_alloc();
	AVStream *st;
	int npkt = 0;

	memset(d, 0, sizeof *d);
	cr_assert_eq(avformat_open_input(&fc, path, NULL, NULL), 0, "cannot open %s", path);
	cr_assert_geq(avformat_find_stream_info(fc, NULL), 0);
	cr_assert_eq(fc->nb_streams, 1u);
	st = fc->streams[0];
	d->codec = st->codecpar->codec_id;
	d->w = st->codecpar->width;
	d->h = st->codecpar->height;
	d->rate = av_guess_frame_rate(fc, st, NULL);
	d->duration = fc->duration == AV_NOPTS_VALUE ? -1 : (double)fc->duration / AV_TIME_BASE;
	d->tb = st->time_base;
	codec = avcodec_find_decoder(d->codec);
	cr_assert_not_null(codec);
	dec = avcodec_alloc_context3(codec);
	cr_assert_eq(avcodec_parameters_to_context(dec, st->codecpar), 0);
	cr_assert_eq(avcodec_open2(dec, codec, NULL), 0);
	while (av_read_frame(fc, pkt) == 0) {
		if (npkt < MAXF + 4)
			d->pkt_dur[npkt++] = pkt->duration;
		cr_assert_eq(avcodec_send_packet(dec, pkt), 0);
		av_packet_unref(pkt);
		take(d, dec, fr);
	}
	avcodec_send_packet(dec, NULL);
	take(d, dec, fr);
	d->pix_fmt = d->n ? (enum AVPixelFormat)d->f[0]->format : AV_PIX_FMT_NONE;
	av_frame_free(&fr);
	av_packet_free(&pkt);
	avcodec_free_context(&dec);
	avformat_close_input(&fc);
}

static void decoded_free(struct decoded *d)
{
	for (int i = 0; i < d->n; i++)
		av_frame_free(&d->f[i]);
}

/*
 * yuv420p the way video.h documents it, computed here in floating point
 * from the BT.709 definitions (limited range, chroma from 2x2 means):
 * an independent check of the module's fixed-point converter.
 */
static void bt709_420(const uint32_t *px, int w, int h, AVFrame *f)
{
	const double kr = .2126, kb = .0722, kg = 1 - kr - kb;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint32_t p = px[y * w + x];
			double l = kr * (p >> 16 & 255) + kg * (p >> 8 & 255) + kb * (p & 255);
			f->data[0][y * f->linesize[0] + x] = (uint8_t)lround(16 + 219.0 / 255 * l);
		}
	for (int y = 0; y < h / 2; y++)
		for (int x = 0; x < w / 2; x++) {
			double r = 0, g = 0, b = 0;
			for (int k = 0; k < 4; k++) {
				uint32_t p = px[(2 * y + k / 2) * w + 2 * x + k % 2];
				r += (p >> 16 & 255) / 4.0, g += (p >> 8 & 255) / 4.0, b += (p & 255) / 4.0;
			}
			double l = kr * r + kg * g + kb * b;
			f->data[1][y * f->linesize[1] + x] = (uint8_t)lround(128 + 224.0 / 255 * (b - l) / (2 * (1 - kb)));
			f->data[2][y * f->linesize[2] + x] = (uint8_t)lround(128 + 224.0 / 255 * (r - l) / (2 * (1 - kr)));
		}
}

/*
 * The input frame converted the way video.h documents it: yuv420p by the
 * BT.709 formulas above; other formats by libswscale, bicubic + accurate
 * rounding + bit-exact, BT.709 limited range for YUV.
 */
static AVFrame *convert(const uint32_t *px, int w, int h, enum AVPixelFormat to)
{
	const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(to);
	AVFrame *f = av_frame_alloc();
	struct SwsContext *s;
	const uint8_t *src[1] = { (const uint8_t *)px };
	int stride[1] = { w * 4 };

	f->format = to;
	f->width = w;
	f->height = h;
	cr_assert_eq(av_frame_get_buffer(f, 0), 0);
	if (to == AV_PIX_FMT_YUV420P && w % 2 == 0 && h % 2 == 0) {
		bt709_420(px, w, h, f);
		return f;
	}
	s = sws_getContext(w, h, AV_PIX_FMT_RGB32, w, h, to,
	                   SWS_BICUBIC | SWS_ACCURATE_RND | SWS_BITEXACT, NULL, NULL, NULL);
	cr_assert_not_null(s);
	if (!(desc->flags & AV_PIX_FMT_FLAG_RGB) && desc->nb_components >= 3) {
		const int *c = sws_getCoefficients(SWS_CS_ITU709);
		sws_setColorspaceDetails(s, c, 1, c, 0, 0, 1 << 16, 1 << 16);
	}
	cr_assert_eq(sws_scale(s, src, stride, 0, h, f->data, f->linesize), h);
	sws_freeContext(s);
	return f;
}

/* PSNR of one 8-bit plane; 99 when identical. */
static double psnr(const AVFrame *a, const AVFrame *b, int plane, int w, int h)
{
	double se = 0;

	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			int d = a->data[plane][y * a->linesize[plane] + x] -
			        b->data[plane][y * b->linesize[plane] + x];
			se += d * d;
		}
	if (se == 0)
		return 99;
	return 10 * log10(255.0 * 255.0 * w * h / se);
}

/* Checks what a player shows: codec, size, format, count, rate, duration. */
static void check_stream(const struct decoded *d, enum AVCodecID codec,
                         enum AVPixelFormat pix_fmt, int n, int fps)
{
	cr_expect_eq(d->codec, codec, "codec %s", avcodec_get_name(d->codec));
	cr_expect_eq(d->w, W);
	cr_expect_eq(d->h, H);
	cr_expect_eq(d->pix_fmt, pix_fmt, "pixel format %s",
	             av_get_pix_fmt_name(d->pix_fmt));
	cr_expect_eq(d->n, n, "decoded %d frames, wrote %d", d->n, n);
	cr_expect(d->rate.num == fps && d->rate.den == 1, "frame rate %d/%d",
	          d->rate.num, d->rate.den);
	cr_expect(fabs(d->duration - (double)n / fps) < 0.011,
	          "duration %.4f s for %d frames at %d fps", d->duration, n, fps);
}

/* Lossy: every decoded frame is close to its input frame (PSNR, dB). */
static void check_lossy(const char *name, enum AVCodecID codec, int n,
                        double min_y, double min_uv)
{
	struct video_options o;
	struct decoded d;
	uint32_t *px = frames_new(n, W, H);

	video_options_default(&o);
	decode_file(encode(name, n, FPS, &o), &d);
	check_stream(&d, codec, AV_PIX_FMT_YUV420P, n, FPS);
	for (int k = 0; k < d.n && k < n; k++) {
		AVFrame *ref = convert(px + (size_t)k * W * H, W, H, AV_PIX_FMT_YUV420P);
		double y = psnr(ref, d.f[k], 0, W, H);
		double u = psnr(ref, d.f[k], 1, W / 2, H / 2);
		double v = psnr(ref, d.f[k], 2, W / 2, H / 2);
		cr_expect_gt(y, min_y, "%s frame %d: Y PSNR %.2f dB", name, k, y);
		cr_expect_gt(u, min_uv, "%s frame %d: U PSNR %.2f dB", name, k, u);
		cr_expect_gt(v, min_uv, "%s frame %d: V PSNR %.2f dB", name, k, v);
		av_frame_free(&ref);
	}
	decoded_free(&d);
	free(px);
}

static int same_files(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	int ca, cb, same = 1;
	long n = 0;

	cr_assert(fa && fb);
	do {
		ca = getc(fa);
		cb = getc(fb);
		if (ca != cb)
			same = 0;
		n++;
	} while (same && ca != EOF);
	fclose(fa);
	fclose(fb);
	return same && n > 1;
}

/* ------------------------------------------------------------ pixel layout */

Test(video, rgb32_is_native_argb_word)
{
	uint32_t word = 0xFF112233u; /* what Cairo stores for opaque #112233 */
	const unsigned char *bytes = (const unsigned char *)&word;
	const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(AV_PIX_FMT_RGB32);
	const unsigned char want[4] = { 0x11, 0x22, 0x33, 0xFF }; /* R G B A */
	uint8_t rgb[4] = { 0 };
	uint8_t *dst[1] = { rgb };
	int dstride[1] = { 4 };
	const uint8_t *src[1] = { bytes };
	int sstride[1] = { 4 };
	struct SwsContext *s;

	/* the descriptor's byte offsets point at R, G, B, A of the word */
	cr_assert_eq(desc->nb_components, 4);
	for (int c = 0; c < 4; c++) {
		cr_assert_eq(desc->comp[c].step, 4);
		cr_assert_eq(bytes[desc->comp[c].offset], want[c], "component %d", c);
	}
	/* and libswscale reads it so */
	s = sws_getContext(1, 1, AV_PIX_FMT_RGB32, 1, 1, AV_PIX_FMT_RGB24,
	                   SWS_POINT | SWS_BITEXACT, NULL, NULL, NULL);
	cr_assert_not_null(s);
	cr_assert_eq(sws_scale(s, src, sstride, 0, 1, dst, dstride), 1);
	sws_freeContext(s);
	cr_assert(rgb[0] == 0x11 && rgb[1] == 0x22 && rgb[2] == 0x33,
	          "got %02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

/* ------------------------------------------------------------ containers */

/*
 * PSNR thresholds, dB, Y and U/V: the defaults (x264 CRF 23, VP9 CRF 32) on
 * these flat shapes measure Y >= 47, U/V >= 41; a wrong colour matrix or a
 * shifted frame falls far below.
 */
Test(video, mp4_is_h264_yuv420p) { check_lossy("a.mp4", AV_CODEC_ID_H264, 10, 40, 35); }
Test(video, mkv_is_h264_yuv420p) { check_lossy("a.mkv", AV_CODEC_ID_H264, 10, 40, 35); }
Test(video, mov_is_h264_yuv420p) { check_lossy("a.MOV", AV_CODEC_ID_H264, 10, 40, 35); }
Test(video, webm_is_vp9_yuv420p) { check_lossy("a.webm", AV_CODEC_ID_VP9, 10, 40, 35); }

Test(video, mp4_has_faststart_and_bt709)
{
	struct video_options o;
	size_t len;
	char *buf, *moov, *mdat;
	const char *path;
	FILE *f;
	AVFormatContext *fc = NULL;

	video_options_default(&o);
	path = encode("b.mp4", 3, FPS, &o);
	f = fopen(path, "rb");
	cr_assert_not_null(f);
	buf = malloc(1 << 20);
	len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	moov = memmem(buf, len, "moov", 4);
	mdat = memmem(buf, len, "mdat", 4);
	cr_expect(moov && mdat && moov < mdat, "moov before mdat (faststart)");
	free(buf);

	cr_assert_eq(avformat_open_input(&fc, path, NULL, NULL), 0);
	cr_assert_geq(avformat_find_stream_info(fc, NULL), 0);
	cr_expect_eq(fc->streams[0]->codecpar->color_space, AVCOL_SPC_BT709);
	cr_expect_eq(fc->streams[0]->codecpar->color_range, AVCOL_RANGE_MPEG);
	avformat_close_input(&fc);
}

Test(video, y4m_is_exact)
{
	struct video_options o;
	struct decoded d;
	uint32_t *px = frames_new(6, W, H);
	int cw = W / 2, ch = H / 2;

	video_options_default(&o);
	decode_file(encode("a.y4m", 6, FPS, &o), &d);
	check_stream(&d, AV_CODEC_ID_RAWVIDEO, AV_PIX_FMT_YUV420P, 6, FPS);
	for (int k = 0; k < d.n; k++) {
		/* exact up to the last bit of fixed-point rounding */
		AVFrame *ref = convert(px + (size_t)k * W * H, W, H, AV_PIX_FMT_YUV420P);
		for (int p = 0; p < 3; p++) {
			int pw = p ? cw : W, ph = p ? ch : H;
			for (int y = 0; y < ph; y++)
				for (int x = 0; x < pw; x++) {
					int a = ref->data[p][y * ref->linesize[p] + x];
					int b = d.f[k]->data[p][y * d.f[k]->linesize[p] + x];
					cr_assert(abs(a - b) <= 1, "frame %d plane %d (%d,%d): %d, expected %d",
					          k, p, x, y, b, a);
				}
		}
		av_frame_free(&ref);
	}
	decoded_free(&d);
	free(px);
}

Test(video, y4m_other_pixel_format)
{
	struct video_options o;
	struct decoded d;

	video_options_default(&o);
	o.pix_fmt = "yuv444p";
	decode_file(encode("c.y4m", 2, FPS, &o), &d);
	check_stream(&d, AV_CODEC_ID_RAWVIDEO, AV_PIX_FMT_YUV444P, 2, FPS);
	decoded_free(&d);
}

Test(video, gif_frames_delays_loop_palette)
{
	enum { N = 8, GFPS = 30 }; /* 8: the last delay is 4, not the 3 before it */
	struct video_options o;
	struct decoded d;
	uint32_t *px = frames_new(N, W, H);
	const char *path;
	char *buf;
	size_t len;
	FILE *f;
	int64_t total = 0;
	static const char loop_forever[] = "NETSCAPE2.0\x03\x01\x00\x00";

	video_options_default(&o);
	path = encode("a.gif", N, GFPS, &o);

	/* loops forever: the NETSCAPE2.0 application extension, count 0 */
	f = fopen(path, "rb");
	cr_assert_not_null(f);
	buf = malloc(1 << 20);
	len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	cr_expect_not_null(memmem(buf, len, loop_forever, sizeof loop_forever - 1),
	                   "no NETSCAPE2.0 loop-forever extension");
	free(buf);

	decode_file(path, &d);
	cr_expect_eq(d.codec, AV_CODEC_ID_GIF);
	cr_expect_eq(d.w, W);
	cr_expect_eq(d.h, H);
	cr_assert_eq(d.n, N, "decoded %d frames, wrote %d", d.n, N);
	/* delays in 1/100 s: frame k starts at round(100 k / fps) */
	cr_assert(d.tb.num == 1 && d.tb.den == 100, "tb %d/%d", d.tb.num, d.tb.den);
	for (int k = 0; k < N; k++) {
		int64_t want = (int64_t)lround(100.0 * (k + 1) / GFPS) -
		               (int64_t)lround(100.0 * k / GFPS);
		cr_expect_eq(d.pkt_dur[k], want, "frame %d delay %" PRId64 " cs, want %"
		             PRId64, k, d.pkt_dur[k], want);
		total += d.pkt_dur[k];
	}
	cr_expect_eq(total, lround(100.0 * N / GFPS), "delays add up to %" PRId64, total);

	/*
	 * A palette that fits: these frames have fewer than 256 colours, all in
	 * the first frame (as a flock's are), so every pixel comes back exact.
	 */
	for (int k = 0; k < N; k++) {
		AVFrame *ref = convert(px + (size_t)k * W * H, W, H, AV_PIX_FMT_RGB24);
		AVFrame *got = av_frame_alloc();
		struct SwsContext *s = sws_getContext(W, H, (enum AVPixelFormat)d.f[k]->format,
		                                      W, H, AV_PIX_FMT_RGB24,
		                                      SWS_POINT | SWS_BITEXACT, NULL, NULL, NULL);
		got->format = AV_PIX_FMT_RGB24;
		got->width = W;
		got->height = H;
		cr_assert_eq(av_frame_get_buffer(got, 0), 0);
		cr_assert_not_null(s);
		sws_scale(s, (const uint8_t *const *)d.f[k]->data, d.f[k]->linesize, 0, H,
		          got->data, got->linesize);
		sws_freeContext(s);
		double p = psnr(ref, got, 0, W * 3, H);
		cr_expect_geq(p, 99, "frame %d not exact: RGB PSNR %.2f dB", k, p);
		av_frame_free(&ref);
		av_frame_free(&got);
	}
	decoded_free(&d);
	free(px);
}

Test(video, one_and_two_frames)
{
	static const char *const names[] = { "o.mp4", "o.webm", "o.gif", "o.y4m", "o.mkv" };
	struct video_options o;
	struct decoded d;
	char name[32];

	video_options_default(&o);
	for (int n = 1; n <= 2; n++)
		for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
			snprintf(name, sizeof name, "%d%s", n, names[i]);
			decode_file(encode(name, n, FPS, &o), &d);
			cr_expect_eq(d.n, n, "%s: decoded %d frames", name, d.n);
			cr_expect(fabs(d.duration - (double)n / FPS) < 0.011,
			          "%s: duration %.4f", name, d.duration);
			decoded_free(&d);
		}
}

Test(video, same_frames_same_bytes)
{
	static const char *const exts[] = { "mp4", "mkv", "webm", "gif" };
	struct video_options o;
	char a[256], b[256], name[32];

	video_options_default(&o);
	for (size_t i = 0; i < sizeof exts / sizeof *exts; i++) {
		snprintf(name, sizeof name, "r1.%s", exts[i]);
		snprintf(a, sizeof a, "%s", encode(name, 8, FPS, &o));
		snprintf(name, sizeof name, "r2.%s", exts[i]);
		snprintf(b, sizeof b, "%s", encode(name, 8, FPS, &o));
		cr_expect(same_files(a, b), "two .%s runs differ", exts[i]);
	}
}

Test(video, standard_output_is_y4m)
{
	cr_expect(video_path_supported("-"));
	cr_expect_eq(video_check("-", W, H, RATE(FPS), NULL, NULL, 0), 0);
}

/* ------------------------------------------------------------ validation */

static const char *check_msg(const char *path, int w, int h, int fps,
                             const struct video_options *o)
{
	static char err[256];
	int ret;

	err[0] = '\0';
	ret = video_check(path, w, h, RATE(fps), o, err, sizeof err);
	cr_assert_eq(ret, -EINVAL, "'%s' %dx%d accepted", path, w, h);
	cr_assert_neq(err[0], '\0', "no message");
	cr_expect_null(strstr(err, "boids:"), "message has a prefix: %s", err);
	cr_expect_null(strchr(err, '\n'), "message has a newline: %s", err);
	return err;
}

Test(video, odd_size_refused_with_suggestion)
{
	struct video_options o;
	const char *m;

	video_options_default(&o);
	m = check_msg("a.mp4", 641, 360, FPS, &o);
	cr_expect(strstr(m, "H.264") && strstr(m, "yuv420p") &&
	          strstr(m, "even width and height"), "%s", m);
	cr_expect(strstr(m, "try 640x360 or 642x360"), "%s", m);
	m = check_msg("a.webm", 640, 361, FPS, &o);
	cr_expect(strstr(m, "VP9") && strstr(m, "try 640x360 or 640x362"), "%s", m);
	/* yuv444p has no subsampling: odd is fine */
	o.pix_fmt = "yuv444p";
	cr_expect_eq(video_check("a.mp4", 641, 361, RATE(FPS), &o, NULL, 0), 0);
	/* pal8 GIF neither */
	cr_expect_eq(video_check("a.gif", 641, 361, RATE(FPS), NULL, NULL, 0), 0);
}

Test(video, extensions)
{
	const char *m = check_msg("clip.avi", W, H, FPS, NULL);
	char list[128], *tok, *save;

	cr_expect(strstr(m, video_extensions()), "%s", m);
	cr_expect(strstr(m, "clip.avi"), "%s", m);
	cr_expect_not(video_path_supported("clip"));
	cr_expect_not(video_path_supported("dir.mp4/clip"));
	cr_expect(video_path_supported("dir/Clip.MP4"));
	/* every extension the message lists is taken */
	snprintf(list, sizeof list, "%s", video_extensions());
	for (tok = strtok_r(list, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		char name[32];
		snprintf(name, sizeof name, "x%s", tok);
		cr_expect(video_path_supported(name), "%s", name);
		cr_expect_eq(video_check(name, W, H, RATE(FPS), NULL, NULL, 0), 0, "%s", name);
	}
}

Test(video, bad_codec)
{
	struct video_options o;
	const char *m;

	video_options_default(&o);
	o.codec = "libx246";
	m = check_msg("a.mp4", W, H, FPS, &o);
	cr_expect(strstr(m, "'libx246'"), "%s", m);
	o.codec = "aac";
	m = check_msg("a.mp4", W, H, FPS, &o);
	cr_expect(strstr(m, "not a video encoder"), "%s", m);
	o.codec = "libx264";
	m = check_msg("a.webm", W, H, FPS, &o);
	cr_expect(strstr(m, ".webm") && strstr(m, "H.264"), "%s", m);
	o.codec = "libvpx-vp9";
	cr_expect_eq(video_check("a.mkv", W, H, RATE(FPS), &o, NULL, 0), 0, "VP9 in Matroska");
}

Test(video, bad_crf)
{
	struct video_options o;
	const char *m;

	video_options_default(&o);
	o.crf = 52;
	m = check_msg("a.mp4", W, H, FPS, &o);
	cr_expect(strstr(m, "52") && strstr(m, "0..51"), "%s", m);
	o.crf = 51;
	cr_expect_eq(video_check("a.mp4", W, H, RATE(FPS), &o, NULL, 0), 0);
	o.crf = 63;
	cr_expect_eq(video_check("a.webm", W, H, RATE(FPS), &o, NULL, 0), 0);
	o.crf = 64;
	m = check_msg("a.webm", W, H, FPS, &o);
	cr_expect(strstr(m, "0..63"), "%s", m);
	o.crf = 10;
	m = check_msg("a.gif", W, H, FPS, &o);
	cr_expect(strstr(m, "crf"), "%s", m);
	o.crf = -5;
	check_msg("a.mp4", W, H, FPS, &o);
}

Test(video, bad_preset)
{
	struct video_options o;
	const char *m;

	video_options_default(&o);
	o.preset = "veryfsat";
	m = check_msg("a.mp4", W, H, FPS, &o);
	cr_expect(strstr(m, "'veryfsat'") && strstr(m, "veryfast"), "%s", m);
	o.preset = "slow";
	cr_expect_eq(video_check("a.mkv", W, H, RATE(FPS), &o, NULL, 0), 0);
	m = check_msg("a.webm", W, H, FPS, &o);
	cr_expect(strstr(m, "no presets"), "%s", m);
	m = check_msg("a.y4m", W, H, FPS, &o);
}

Test(video, bitrate_syntax)
{
	static const char *const good[] = { "2M", "1500k", "2.5M", "800000", "1G", "64K" };
	static const char *const bad[] = { "", "2MB", "fast", "-1M", "1e6", "0", "M", "2 M" };
	struct video_options o;
	const char *m;

	video_options_default(&o);
	for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
		o.bitrate = good[i];
		cr_expect_eq(video_check("a.mp4", W, H, RATE(FPS), &o, NULL, 0), 0, "%s", good[i]);
	}
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		o.bitrate = bad[i];
		check_msg("a.mp4", W, H, FPS, &o);
	}
	o.bitrate = "2M";
	m = check_msg("a.gif", W, H, FPS, &o);
	cr_expect(strstr(m, "bitrate"), "%s", m);
	o.crf = 20; /* x264 takes one or the other; VP9 both (constrained quality) */
	m = check_msg("a.mp4", W, H, FPS, &o);
	cr_expect(strstr(m, "not both"), "%s", m);
	cr_expect_eq(video_check("a.webm", W, H, RATE(FPS), &o, NULL, 0), 0);
}

Test(video, fps_and_pixel_format)
{
	struct video_options o;
	const char *m;

	video_options_default(&o);
	check_msg("a.mp4", W, H, 0, &o);
	check_msg("a.mp4", W, H, 1001, &o);
	cr_expect_eq(video_check("a.mp4", W, H, RATE(1000), &o, NULL, 0), 0);
	cr_expect_eq(video_check("a.mp4", W, H, RATE(1), &o, NULL, 0), 0);
	m = check_msg("a.gif", W, H, 60, &o);
	cr_expect(strstr(m, "GIF"), "%s", m);
	o.pix_fmt = "yuv42Op";
	m = check_msg("a.mp4", W, H, FPS, &o);
	cr_expect(strstr(m, "'yuv42Op'"), "%s", m);
	o.pix_fmt = "pal8";
	m = check_msg("a.mp4", W, H, FPS, &o);
	cr_expect(strstr(m, "yuv420p"), "lists what libx264 takes: %s", m);
	o.pix_fmt = "yuv420p10le";
	check_msg("a.y4m", W, H, FPS, &o);
	cr_expect_eq(video_check("a.mp4", W, H, RATE(FPS), &o, NULL, 0), 0);
}

/* ------------------------------------------------------------ open errors */

Test(video, encoder_rejects_what_check_would)
{
	struct video_options o;
	static char dummy;
	struct video *v = (struct video *)&dummy; /* must come back NULL */
	char err[256] = "", path[256];
	int ret;

	/* video_open does not lean on video_check: the encoder's refusal shows.
	 * libx264 also says so on stderr itself (boids's runs never get here:
	 * video_check refuses first); caught in a file, so that `make test`
	 * does not print an error that reads as a failure. */
	video_options_default(&o);
	o.preset = "veryfsat";
	snprintf(path, sizeof path, "%s/p.mp4", dir);
	char said[300];
	snprintf(said, sizeof said, "%s/stderr.txt", dir);
	fflush(stderr);
	int saved = dup(2), caught = open(said, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	cr_assert(saved >= 0 && caught >= 0 && dup2(caught, 2) == 2);
	ret = video_open(&v, path, NULL, W, H, RATE(FPS), &o, err, sizeof err);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(caught);
	cr_expect_lt(ret, 0);
	cr_expect_null(v);
	cr_expect(strstr(err, "libx264") && strstr(err, "veryfsat"), "%s", err);
	FILE *f = fopen(said, "r");
	char line[256] = "";
	cr_assert_not_null(f);
	cr_expect(fgets(line, sizeof line, f) && strstr(line, "veryfsat"), "libx264 said: %s", line);
	fclose(f);

	/* an option the encoder does not consume is an error, not ignored */
	video_options_default(&o);
	o.crf = 10;
	snprintf(path, sizeof path, "%s/p.gif", dir);
	ret = video_open(&v, path, NULL, W, H, RATE(FPS), &o, err, sizeof err);
	cr_expect_eq(ret, AVERROR_OPTION_NOT_FOUND, "%s", av_err2str(ret));
	cr_expect(strstr(err, "'crf'"), "%s", err);
}

Test(video, unwritable_path_named)
{
	struct video *v;
	char err[256] = "", path[256];
	int ret;

	snprintf(path, sizeof path, "%s/missing/a.mp4", dir);
	ret = video_open(&v, path, NULL, W, H, RATE(FPS), NULL, err, sizeof err);
	cr_expect_eq(ret, AVERROR(ENOENT), "%s", av_err2str(ret));
	cr_expect(strstr(err, path), "%s", err);
}

Test(video, temporary_name_keeps_container_of_final_name)
{
	struct video_options o;
	struct decoded d;
	struct video *v;
	char err[256] = "", path[256], final[256];
	uint32_t *px = frames_new(2, W, H);

	video_options_default(&o);
	snprintf(path, sizeof path, "%s/.tmp.XXXX", dir); /* no extension at all */
	snprintf(final, sizeof final, "%s/out.webm", dir);
	cr_assert_eq(video_open(&v, path, final, W, H, RATE(FPS), &o, err, sizeof err), 0, "%s", err);
	for (int k = 0; k < 2; k++)
		cr_assert_eq(video_write_frame(v, (const unsigned char *)(px + (size_t)k * W * H), W * 4), 0);
	cr_assert_eq(video_close(v), 0);
	video_free(v);
	decode_file(path, &d);
	cr_expect_eq(d.codec, AV_CODEC_ID_VP9);
	cr_expect_eq(d.n, 2);
	decoded_free(&d);
	free(px);
}

Test(video, close_without_frames_is_an_error)
{
	struct video *v;
	char err[256] = "", path[256];

	snprintf(path, sizeof path, "%s/e.mp4", dir);
	cr_assert_eq(video_open(&v, path, NULL, W, H, RATE(FPS), NULL, err, sizeof err), 0, "%s", err);
	cr_expect_eq(video_close(v), AVERROR(EINVAL));
	video_free(v);
	video_free(NULL);
}

/* ------------------------------------------------------------ a stopped close */

/*
 * Writes n frames to dir/name and ends the file as a stopped run does,
 * draining for at most `seconds`; returns the frames it says it kept.
 */
static long encode_stopped(const char *name, int n, double seconds, const char **path_out)
{
	static char path[256];
	char err[256] = "";
	struct video_options o;
	struct video *v;
	uint32_t *px = frames_new(n, W, H);
	long kept = -1;

	video_options_default(&o);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	cr_assert_eq(video_open(&v, path, path, W, H, RATE(FPS), &o, err, sizeof err), 0, "%s", err);
	for (int k = 0; k < n; k++)
		cr_assert_eq(video_write_frame(v, (const unsigned char *)(px + (size_t)k * W * H), W * 4), 0);
	int ret = video_close_stopped(v, seconds, &kept);
	cr_assert(ret == 0 || (ret == AVERROR(EINVAL) && kept == 0), "close: %s", av_err2str(ret));
	video_free(v);
	free(px);
	*path_out = path;
	return kept;
}

/* Decodes path: every frame must be close to input frame k (in order); returns the count. */
static long decode_in_order(const char *path, int n)
{
	AVFormatContext *fc = NULL;
	AVPacket *pkt = av_packet_alloc();
	AVFrame *fr = av_frame_alloc();
	uint32_t *px = frames_new(n, W, H);
	long got = 0;

	cr_assert_eq(avformat_open_input(&fc, path, NULL, NULL), 0, "%s does not open", path);
	cr_assert_geq(avformat_find_stream_info(fc, NULL), 0);
	const AVCodec *codec = avcodec_find_decoder(fc->streams[0]->codecpar->codec_id);
	AVCodecContext *dec = avcodec_alloc_context3(codec);
	cr_assert_eq(avcodec_parameters_to_context(dec, fc->streams[0]->codecpar), 0);
	cr_assert_eq(avcodec_open2(dec, codec, NULL), 0);
	for (int more = 1; more;) {
		more = av_read_frame(fc, pkt) == 0;
		cr_assert_eq(avcodec_send_packet(dec, more ? pkt : NULL), 0);
		av_packet_unref(pkt);
		while (avcodec_receive_frame(dec, fr) == 0) {
			cr_assert_lt(got, n, "more frames than were written");
			AVFrame *ref = convert(px + (size_t)got * W * H, W, H, AV_PIX_FMT_YUV420P);
			double y = psnr(ref, fr, 0, W, H);
			cr_expect_gt(y, 35, "%s: frame %ld is not input frame %ld (Y PSNR %.2f dB)",
			             path, got, got, y);
			av_frame_free(&ref);
			av_frame_unref(fr);
			got++;
		}
	}
	av_frame_free(&fr);
	av_packet_free(&pkt);
	avcodec_free_context(&dec);
	avformat_close_input(&fc);
	free(px);
	return got;
}

/*
 * A stop does not drain x264's look-ahead: the file ends with the frames
 * out of the encoder by then, 0..kept-1 in order, none missing (packets
 * past a gap in presentation order are dropped), moov after mdat (no
 * faststart pass).  Given the time, the drain gives every frame.
 */
Test(video, a_stopped_close_keeps_the_frames_out_of_the_encoder)
{
	const int n = 40;
	const char *path;
	long kept = encode_stopped("s.mp4", n, 0, &path);

	cr_assert(kept > 0 && kept < n, "kept %ld of %d frames: x264 holds some (its look-ahead)", kept, n);
	cr_assert_eq(decode_in_order(path, n), kept);
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 20);
	size_t len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	char *moov = memmem(buf, len, "moov", 4), *mdat = memmem(buf, len, "mdat", 4);
	cr_expect(moov && mdat && mdat < moov, "moov at the end (no faststart pass)");
	free(buf);

	kept = encode_stopped("d.mkv", n, 60, &path); /* time enough: the whole drain */
	cr_assert_eq(kept, n);
	cr_assert_eq(decode_in_order(path, n), n);

	kept = encode_stopped("y.y4m", 5, 0, &path); /* no delay: every frame */
	cr_assert_eq(kept, 5);
	cr_assert_eq(decode_in_order(path, 5), 5);
}
