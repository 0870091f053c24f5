/*
 * codecs — what a name and struct video_options come to: the container,
 * encoder, pixel format, rate control and preset, every default of them in
 * the tables below; see src/codecs.h (the options: include/video_options.h).
 * Below video.c: it knows no struct video.
 *
 * Start at codecs_resolve(): video_check() validates with it (strict) and
 * video_open() builds from it, so they cannot disagree about defaults.
 * Also here: --list-codecs, --version's libraries and --verbose's
 * description (video.c's functions of those names call them).
 */
#define _GNU_SOURCE /* dl_iterate_phdr(), RTLD_DEFAULT: --version's encoder libraries */
#include "codecs.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <dlfcn.h>
#include <link.h>
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libswscale/swscale.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>

#include "avio_fd.h"
#include "suggest.h"

/* ---------------------------------------------------------------- tables */

static const struct container containers[] = {
	{ ".mp4",  "mp4",          "libx264",         "yuv420p", "movflags=+faststart", 1 },
	{ ".mov",  "mov",          "libx264",         "yuv420p", "movflags=+faststart", 1 },
	{ ".mkv",  "matroska",     "libx264",         "yuv420p", NULL, 0 },
	{ ".webm", "webm",         "libvpx-vp9",      "yuv420p", NULL, 0 },
	{ ".gif",  "gif",          "gif",             "pal8",    "loop=0", 0 }, /* 0: forever */
	/* FFmpeg 5.1's yuv4mpegpipe muxer takes wrapped_avframe only (not rawvideo) */
	{ ".y4m",  "yuv4mpegpipe", "wrapped_avframe", "yuv420p", NULL, 0 },
	{ "-",     "yuv4mpegpipe", "wrapped_avframe", "yuv420p", NULL, 0 },
};

/* Keep in step with containers[] (a test checks). */
static const char extensions[] = ".mp4, .mov, .mkv, .webm, .gif, .y4m";

static const char *const x26x_presets[] = {
	"ultrafast", "superfast", "veryfast", "faster", "fast",
	"medium", "slow", "slower", "veryslow", "placebo", NULL,
};

/*
 * Defaults chosen by measurement: 300 frames of 100 boids at 640x360, 2
 * cores, ratios against the slower choice (machines here are noisy).
 *   libx264 veryfast: 0.5x the time of medium for 1.05x its size at CRF
 *     23; faster and fast save 1-3% more size for 1.4x-1.9x the time,
 *     superfast and ultrafast double and triple the size.
 *   libvpx-vp9 realtime, cpu-used 6: 0.26x the time of "good" at
 *     cpu-used 4 (0.12x of libvpx's default) for 1.15x the size, the same
 *     PSNR.  CRF 41 makes WebM no larger than the H.264 default: 0.97x
 *     its size at SSIM 0.9912 against 0.9916 (CRF 32 was 1.69x the size
 *     for SSIM 0.9950; docs/PERFORMANCE.md has the table).
 *   gif: offsetting without transdiff: transparency for unchanged pixels
 *     made these pictures 17% larger (it breaks up runs of background).
 */
static const struct encoder encoders[] = {
	{ "libx264",    0, 51, 23, x26x_presets, "veryfast", NULL, 1 },
	{ "libx264rgb", 0, 51, 23, x26x_presets, "veryfast", NULL, 1 },
	/* x265 logs to stderr itself, past av_log: silence it (failures come back as codes) */
	{ "libx265",    0, 51, 28, x26x_presets, NULL, "x265-params=log-level=none", 1 },
	{ "libvpx-vp9", 0, 63, 41, NULL, NULL,
	  "b=0;deadline=realtime;cpu-used=6;row-mt=1", 0 },
	{ "libvpx",     4, 63, -1, NULL, NULL, "deadline=realtime;cpu-used=6", 0 },
	{ "gif",       -1, -1, -1, NULL, NULL, "gifflags=offsetting", 0 },
};

/*
 * ffmpeg's codec names, as -c:v takes a codec and picks its encoder: the
 * encoders boids uses for each, the first this libavcodec has.  AV1:
 * SVT-AV1 first (fast enough for clips), then libaom and rav1e.
 */
static const struct codec_name {
	const char *name;
	const char *encoders[4];
} codec_names[] = {
	{ "h264", { "libx264", NULL } },
	{ "hevc", { "libx265", NULL } },
	{ "h265", { "libx265", NULL } },
	{ "vp9",  { "libvpx-vp9", NULL } },
	{ "vp8",  { "libvpx", NULL } },
	{ "av1",  { "libsvtav1", "libaom-av1", "librav1e", NULL } },
};

/* --quality's rows (struct quality in codecs.h says what they change). */
static const struct quality qualities[] = {
	{ "libx264",    VIDEO_QUALITY_DRAFT,   28, NULL, NULL, NULL, 0 },
	{ "libx264",    VIDEO_QUALITY_HIGH,    18, "slow", NULL, NULL, 0 },
	{ "libx264",    VIDEO_QUALITY_ARCHIVE,  0, "medium", "yuv444p", NULL, 0 },
	{ "libx264rgb", VIDEO_QUALITY_DRAFT,   28, NULL, NULL, NULL, 0 },
	{ "libx264rgb", VIDEO_QUALITY_HIGH,    18, "slow", NULL, NULL, 0 },
	{ "libx264rgb", VIDEO_QUALITY_ARCHIVE,  0, "medium", NULL, NULL, 0 },
	{ "libx265",    VIDEO_QUALITY_DRAFT,   34, "superfast", NULL, NULL, 0 },
	{ "libx265",    VIDEO_QUALITY_HIGH,    23, "slow", NULL, NULL, 0 },
	{ "libx265",    VIDEO_QUALITY_ARCHIVE, -1, "medium", "yuv444p",
	  "x265-params=log-level=none:lossless=1", 1 },
	{ "libvpx-vp9", VIDEO_QUALITY_DRAFT,   47, NULL, NULL, "cpu-used=8", 0 },
	{ "libvpx-vp9", VIDEO_QUALITY_HIGH,    33, NULL, NULL, "deadline=good;cpu-used=2", 0 },
	{ "libvpx-vp9", VIDEO_QUALITY_ARCHIVE, -1, NULL, "yuv444p", "lossless=1", 1 },
};

/* Pixel formats the yuv4mpegpipe muxer writes without -strict. */
static const enum AVPixelFormat y4m_pix_fmts[] = {
	AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUV444P,
	AV_PIX_FMT_GRAY8, AV_PIX_FMT_NONE,
};

#define FPS_MAX 1000
#define GIF_FPS_MAX 50      /* delays are whole 1/100 s; browsers slow < 2 */
#define THREADS_MAX 64
#define VP8_SIZE_MAX 16383  /* 14-bit sizes in the VP8 frame header */

/* ---------------------------------------------------------------- helpers */

int codecs_fail(char *err, size_t len, int code, const char *fmt, ...)
{
	va_list ap;

	if (err && len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return code;
}

static const struct container *container_of(const char *name)
{
	const char *base, *dot;
	size_t i;

	if (!name)
		return NULL;
	if (strcmp(name, "-") == 0)
		return &containers[sizeof containers / sizeof *containers - 1];
	base = strrchr(name, '/');
	base = base ? base + 1 : name;
	dot = strrchr(base, '.');
	if (!dot)
		return NULL;
	for (i = 0; i < sizeof containers / sizeof *containers; i++)
		if (containers[i].ext[0] == '.' && strcasecmp(dot, containers[i].ext) == 0)
			return &containers[i];
	return NULL;
}

/*
 * The encoder a --codec name stands for: a codec name's (h264, av1) first
 * encoder this libavcodec has, else the name itself.  *alias: is it one.
 */
static const char *encoder_name(const char *name, int *alias)
{
	*alias = 0;
	for (size_t i = 0; i < sizeof codec_names / sizeof *codec_names; i++) {
		if (strcmp(codec_names[i].name, name) != 0)
			continue;
		*alias = 1;
		for (const char *const *e = codec_names[i].encoders; *e; e++)
			if (avcodec_find_encoder_by_name(*e))
				return *e;
		return codec_names[i].encoders[0]; /* none: its message names the usual one */
	}
	return name;
}

static const struct encoder *encoder_row(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof encoders / sizeof *encoders; i++)
		if (strcmp(encoders[i].name, name) == 0)
			return &encoders[i];
	return NULL;
}

/* --quality's row for an encoder, or NULL (the web defaults, or an encoder with one quality). */
static const struct quality *quality_row(const char *name, enum video_quality q)
{
	for (size_t i = 0; i < sizeof qualities / sizeof *qualities; i++)
		if (qualities[i].q == q && strcmp(qualities[i].encoder, name) == 0)
			return &qualities[i];
	return NULL;
}

/* A short name for messages: "H.264 in yuv420p needs ...". */
static const char *codec_title(const AVCodec *c)
{
	switch (c->id) {
	case AV_CODEC_ID_H264:            return "H.264";
	case AV_CODEC_ID_HEVC:            return "H.265";
	case AV_CODEC_ID_VP8:             return "VP8";
	case AV_CODEC_ID_VP9:             return "VP9";
	case AV_CODEC_ID_AV1:             return "AV1";
	case AV_CODEC_ID_GIF:             return "GIF";
	case AV_CODEC_ID_WRAPPED_AVFRAME: return "YUV4MPEG";
	default:                          return c->name;
	}
}

/* The pixel formats the encoder (and, for y4m, the muxer) takes; NULL: any. */
static const enum AVPixelFormat *pix_fmts_of(const AVCodec *c)
{
	if (c->id == AV_CODEC_ID_WRAPPED_AVFRAME)
		return y4m_pix_fmts;
	return c->pix_fmts;
}

static int pix_fmt_listed(const enum AVPixelFormat *list, enum AVPixelFormat f)
{
	if (!list)
		return 1;
	for (; *list != AV_PIX_FMT_NONE; list++)
		if (*list == f)
			return 1;
	return 0;
}

/* Appends "a, b, c" (names of list) to buf, truncating politely. */
static void list_pix_fmts(char *buf, size_t len, const enum AVPixelFormat *list)
{
	size_t used = 0;
	int n;

	buf[0] = '\0';
	for (; *list != AV_PIX_FMT_NONE && used < len; list++) {
		const char *name = av_get_pix_fmt_name(*list);
		if (!name)
			continue;
		n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

/* "2M", "1500k", "2.5M", "800000": bits per second; -1 on bad syntax. */
static int64_t parse_bitrate(const char *s)
{
	double v = 0, scale = 1;
	int digits = 0;

	for (; isdigit((unsigned char)*s); s++, digits++)
		v = v * 10 + (*s - '0');
	if (*s == '.') {
		for (s++; isdigit((unsigned char)*s); s++, digits++) {
			scale /= 10;
			v += (*s - '0') * scale;
		}
	}
	if (!digits)
		return -1;
	switch (*s) {
	case 'k': case 'K': v *= 1e3; s++; break;
	case 'M':           v *= 1e6; s++; break;
	case 'G':           v *= 1e9; s++; break;
	}
	if (*s || v > 1e12)
		return -1;
	return (int64_t)(v + .5);
}

/* The encoder's own AVOption `name` (private options only), or NULL. */
static const AVOption *private_option(const AVCodec *c, const char *name)
{
	if (!c->priv_class)
		return NULL;
	return av_opt_find((void *)&c->priv_class, name, NULL, 0,
	                   AV_OPT_SEARCH_FAKE_OBJ);
}

/* Is `preset` accepted by an encoder that is not in encoders[]? */
static int generic_preset_ok(const AVCodec *c, const char *preset)
{
	const AVOption *o = private_option(c, "preset"), *k = NULL;

	if (!o)
		return 0;
	if (o->type == AV_OPT_TYPE_STRING || !o->unit)
		return 1; /* cannot tell: avcodec_open2 decides */
	while ((k = av_opt_next((void *)&c->priv_class, k)))
		if (k->type == AV_OPT_TYPE_CONST && k->unit &&
		    strcmp(k->unit, o->unit) == 0 && strcmp(k->name, preset) == 0)
			return 1;
	return 0;
}

/* Puts "k=v;k=v" into *d without overwriting entries already there. */
static int dict_defaults(AVDictionary **d, const char *kv)
{
	if (!kv)
		return 0;
	return av_dict_parse_string(d, kv, "=", ";", AV_DICT_DONT_OVERWRITE);
}

/*
 * Does the muxer take this stream?  Some refuse only when they start (mov
 * holds no VP9, only mp4 does), so start one, on a sink: 0 or an AVERROR.
 */
static int try_muxer(const struct resolved *s, int w, int h, struct rate fps)
{
	AVFormatContext *oc = NULL;
	AVDictionary *muxopts = NULL;
	AVStream *st;
	int ret = avformat_alloc_output_context2(&oc, s->ofmt, NULL, NULL);

	if (ret < 0)
		return ret;
	oc->flags |= AVFMT_FLAG_BITEXACT | AVFMT_FLAG_CUSTOM_IO;
	st = avformat_new_stream(oc, NULL);
	if (!st) {
		ret = AVERROR(ENOMEM);
		goto out;
	}
	if ((ret = avio_fd_sink(&oc->pb)) < 0)
		goto out;
	st->codecpar->codec_type = AVMEDIA_TYPE_VIDEO;
	st->codecpar->codec_id = s->codec->id;
	st->codecpar->width = w;
	st->codecpar->height = h;
	st->codecpar->format = s->pix_fmt;
	st->time_base = (AVRational){ (int)fps.den, (int)fps.num };
	ret = av_dict_parse_string(&muxopts, s->ct->muxopts ? s->ct->muxopts : "", "=", ":", 0);
	if (ret >= 0)
		ret = avformat_init_output(oc, &muxopts);
out:
	av_dict_free(&muxopts);
	if (oc)
		avio_fd_free(&oc->pb);
	avformat_free_context(oc);
	return ret < 0 ? ret : 0;
}

/* ---------------------------------------------------------------- resolve */

/* The container from the name, and the numbers any encoder needs. */
static int resolve_container(struct resolved *s, const char *name, int w, int h, struct rate fps,
                             const struct video_options *o, int strict, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	s->crf = -1;
	s->ct = container_of(name);
	if (!s->ct)
		return codecs_fail(err, errlen, -EINVAL,
		                   "unsupported output '%s': use a name ending in %s, or - for y4m "
		                   "on standard output", name ? name : "", extensions);
	s->ofmt = av_guess_format(s->ct->format, NULL, NULL);
	if (!s->ofmt)
		return codecs_fail(err, errlen, -EINVAL,
		                   "this FFmpeg has no '%s' muxer (for '%s')", s->ct->format, name);
	if (w <= 0 || h <= 0)
		return codecs_fail(err, errlen, -EINVAL, "picture size %dx%d is not positive", w, h);
	long num = fps.num, den = fps.den;
	char rate[48];
	if (den == 1)
		snprintf(rate, sizeof rate, "%ld", num);
	else
		snprintf(rate, sizeof rate, "%ld/%ld", num, den);
	if (den < 1 || den > 1000000L || num < den || num > FPS_MAX * den)
		return codecs_fail(err, errlen, -EINVAL, "fps %s is out of range 1..%d", rate, FPS_MAX);
	if (strict && s->ofmt->video_codec == AV_CODEC_ID_GIF && num > GIF_FPS_MAX * den)
		return codecs_fail(err, errlen, -EINVAL,
		                   "fps %s is too high for GIF: frame delays are whole 1/100 s and "
		                   "browsers slow down short ones; use 1..%d", rate, GIF_FPS_MAX);
	if (o->gop < 0)
		return codecs_fail(err, errlen, -EINVAL, "keyframe interval %d is negative", o->gop);
	if (o->threads < 0 || o->threads > THREADS_MAX)
		return codecs_fail(err, errlen, -EINVAL,
		                   "encoder threads %d is out of range 0..%d", o->threads, THREADS_MAX);

	return 0;
}

/* " (did you mean h264?)": the codec names and video encoders nearest name, or "". */
static size_t near_encoders(const char *name, char *out, size_t outlen)
{
	const char *names[1024];
	size_t n = 0;
	void *it = NULL;
	const AVCodec *c;

	for (size_t i = 0; i < sizeof codec_names / sizeof *codec_names; i++)
		names[n++] = codec_names[i].name;
	while ((c = av_codec_iterate(&it)) != NULL && n < sizeof names / sizeof *names)
		if (av_codec_is_encoder(c) && c->type == AVMEDIA_TYPE_VIDEO)
			names[n++] = c->name;
	return suggest_phrase(out, outlen, "", "", name, strlen(name), names, n, sizeof *names);
}

/* The encoder: the container's default or o->codec, and the muxer must take it. */
static int resolve_encoder(struct resolved *s, const struct video_options *o,
                           char *err, size_t errlen)
{
	int alias, q;
	const char *cname = encoder_name(o->codec ? o->codec : s->ct->codec, &alias);

	/* encoder */
	s->codec = avcodec_find_encoder_by_name(cname);
	if (!s->codec && alias)
		return codecs_fail(err, errlen, -EINVAL, "this FFmpeg has no %s encoder for '%s' "
		                   "(boids --list-codecs lists those it has)", cname, o->codec);
	if (!s->codec) {
		const AVCodec *d = avcodec_find_decoder_by_name(cname);
		if (d)
			return codecs_fail(err, errlen, -EINVAL,
			                   "'%s' is a decoder, not an encoder (try h264, vp9, av1, "
			                   "libx264, gif)", cname);
		char near[160];
		if (near_encoders(cname, near, sizeof near) > 0)
			return codecs_fail(err, errlen, -EINVAL, "unknown encoder '%s'%s", cname, near);
		return codecs_fail(err, errlen, -EINVAL, "unknown encoder '%s' (boids --list-codecs lists them)", cname);
	}
	if (s->codec->type != AVMEDIA_TYPE_VIDEO)
		return codecs_fail(err, errlen, -EINVAL, "'%s' is not a video encoder", cname);
	q = avformat_query_codec(s->ofmt, s->codec->id, FF_COMPLIANCE_NORMAL);
	if (q == 0 || (q < 0 && s->codec->id != s->ofmt->video_codec))
		return codecs_fail(err, errlen, -EINVAL, "%s cannot hold %s (encoder %s)",
		                   s->ct->ext[0] == '.' ? s->ct->ext : "y4m output",
		                   codec_title(s->codec), cname);
	s->er = encoder_row(s->codec->name);
	s->q = quality_row(s->codec->name, o->quality);

	return 0;
}

/* The pixel format: the container's default unless the encoder lacks it. */
static int resolve_pix_fmt(struct resolved *s, const struct video_options *o,
                           char *err, size_t errlen)
{
	const char *cname = s->codec->name;
	const char *pname;
	const AVPixFmtDescriptor *desc;

	/* pixel format: the container's default unless the encoder lacks it */
	if (o->pix_fmt) {
		pname = o->pix_fmt;
		s->pix_fmt = av_get_pix_fmt(pname);
		if (s->pix_fmt == AV_PIX_FMT_NONE)
			return codecs_fail(err, errlen, -EINVAL, "unknown pixel format '%s'", pname);
	} else {
		s->pix_fmt = av_get_pix_fmt(s->q && s->q->pix_fmt ? s->q->pix_fmt : s->ct->pix_fmt);
		if (!pix_fmt_listed(pix_fmts_of(s->codec), s->pix_fmt))
			s->pix_fmt = pix_fmts_of(s->codec)[0];
	}
	if (!pix_fmt_listed(pix_fmts_of(s->codec), s->pix_fmt)) {
		char list[160];
		list_pix_fmts(list, sizeof list, pix_fmts_of(s->codec));
		return codecs_fail(err, errlen, -EINVAL,
		                   "%s does not take pixel format '%s'; use one of %s",
		                   cname, av_get_pix_fmt_name(s->pix_fmt), list);
	}
	desc = av_pix_fmt_desc_get(s->pix_fmt);
	if (!desc)
		return codecs_fail(err, errlen, -EINVAL, "unknown pixel format '%s'", o->pix_fmt);

	return 0;
}

/* strict: the picture fits the encoder, in whole chroma samples. */
static int check_size(const struct resolved *s, int w, int h, int strict,
                      char *err, size_t errlen)
{
	const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(s->pix_fmt);

	/* the largest picture: the encoder's own limit, then libavcodec's */
	if (strict) {
		int max = s->codec->id == AV_CODEC_ID_VP8 ? VP8_SIZE_MAX : 0;
		if (max && (w > max || h > max))
			return codecs_fail(err, errlen, -EINVAL, "%s pictures are at most %dx%d; %dx%d is too "
			                   "large", codec_title(s->codec), max, max, w, h);
		if (av_image_check_size2((unsigned)w, (unsigned)h, INT64_MAX, AV_PIX_FMT_NONE,
		                         0, NULL) < 0) {
			/* libavcodec wants (8 w + 1024)(h + 128) < 2^31 - 1 */
			long hmax = (INT_MAX - 1L) / (8L * w + 1024) - 128;
			return codecs_fail(err, errlen, -EINVAL, "picture %dx%d is too large for the video "
			                   "encoders: at width %d the height is at most %ld (PNG output has "
			                   "no such limit)", w, h, w, hmax > 0 ? hmax : 0);
		}
	}

	/* chroma subsampling needs whole chroma samples */
	if (strict) {
		int mw = 1 << desc->log2_chroma_w, mh = 1 << desc->log2_chroma_h;
		if (w % mw || h % mh) {
			int lw = w / mw * mw, lh = h / mh * mh;
			int uw = (w + mw - 1) / mw * mw, uh = (h + mh - 1) / mh * mh;
			char need[64], lower[40] = "";

			if (mw == 2 && mh == 2)
				snprintf(need, sizeof need, "even width and height");
			else if (mw == 2 && mh == 1)
				snprintf(need, sizeof need, "an even width");
			else if (mw == 1 && mh == 2)
				snprintf(need, sizeof need, "an even height");
			else
				snprintf(need, sizeof need, "a width divisible by %d and a height "
				         "divisible by %d", mw, mh);
			if (lw > 0 && lh > 0)
				snprintf(lower, sizeof lower, "%dx%d or ", lw, lh);
			return codecs_fail(err, errlen, -EINVAL,
			                   "%s in %s needs %s; %dx%d is %s: try %s%dx%d",
			                   codec_title(s->codec), desc->name, need, w, h,
			                   mw <= 2 && mh <= 2 ? "odd" : "not", lower, uw, uh);
		}
	}

	return 0;
}

/* Bitrate or constant quality (crf): what the encoder takes, in its range. */
static int resolve_rate(struct resolved *s, const struct video_options *o, int strict,
                        char *err, size_t errlen)
{
	const char *cname = s->codec->name;
	const AVCodecDescriptor *cdesc;

	/* bitrate */
	if (o->bitrate) {
		s->bitrate = parse_bitrate(o->bitrate);
		if (s->bitrate < 0)
			return codecs_fail(err, errlen, -EINVAL,
			                   "bad bitrate '%s': use a number of bits per second with an "
			                   "optional k, M or G suffix, such as 2M", o->bitrate);
		if (s->bitrate < 1000)
			return codecs_fail(err, errlen, -EINVAL,
			                   "bitrate '%s' is too low: at least 1k bits per second",
			                   o->bitrate);
		cdesc = avcodec_descriptor_get(s->codec->id);
		if (strict && !(cdesc && (cdesc->props & AV_CODEC_PROP_LOSSY)))
			return codecs_fail(err, errlen, -EINVAL, "%s does not take a bitrate", cname);
	}

	/* CRF */
	if (o->crf != -1) {
		s->crf = o->crf;
		if (strict && s->er && s->er->crf_max < 0)
			return codecs_fail(err, errlen, -EINVAL, "%s does not take a crf", cname);
		if (strict && s->er && (o->crf < s->er->crf_min || o->crf > s->er->crf_max))
			return codecs_fail(err, errlen, -EINVAL, "crf %d is out of range %d..%d for %s",
			                   o->crf, s->er->crf_min, s->er->crf_max, cname);
		if (strict && !s->er) {
			const AVOption *opt = private_option(s->codec, "crf");
			if (!opt)
				return codecs_fail(err, errlen, -EINVAL, "%s does not take a crf", cname);
			if (o->crf < opt->min || o->crf > opt->max)
				return codecs_fail(err, errlen, -EINVAL,
				                   "crf %d is out of range %.0f..%.0f for %s",
				                   o->crf, opt->min, opt->max, cname);
		}
		if (strict && s->bitrate && s->er && s->er->crf_xor_bitrate)
			return codecs_fail(err, errlen, -EINVAL,
			                   "%s takes a crf or a bitrate, not both", cname);
	} else if (s->bitrate || (s->q && s->q->lossless)) {
		; /* no crf */
	} else if (s->q && s->q->crf >= 0) {
		s->crf = s->q->crf;
	} else if (s->er && s->er->crf >= 0) {
		s->crf = s->er->crf;
	}

	return 0;
}

/* The preset: one the encoder knows. */
static int resolve_preset(struct resolved *s, const struct video_options *o, int strict,
                          char *err, size_t errlen)
{
	const char *cname = s->codec->name;

	/* preset */
	if (o->preset) {
		s->preset = o->preset;
		if (strict && s->er) {
			const char *const *p = s->er->presets;
			if (!p)
				return codecs_fail(err, errlen, -EINVAL, "%s has no presets (got '%s')",
				                   cname, o->preset);
			while (*p && strcmp(*p, o->preset) != 0)
				p++;
			char near[160];
			size_t count = (size_t)(p - s->er->presets); /* all of them when none matched */
			if (!*p && suggest_phrase(near, sizeof near, "", "", o->preset, strlen(o->preset), s->er->presets,
			                          count, sizeof *s->er->presets) > 0)
				return codecs_fail(err, errlen, -EINVAL, "unknown preset '%s' for %s%s", o->preset, cname, near);
			if (!*p)
				return codecs_fail(err, errlen, -EINVAL,
				                   "unknown preset '%s' for %s: use ultrafast, superfast, "
				                   "veryfast, faster, fast, medium, slow, slower, veryslow "
				                   "or placebo", o->preset, cname);
		} else if (strict && !generic_preset_ok(s->codec, o->preset)) {
			return codecs_fail(err, errlen, -EINVAL, "%s has no preset '%s'",
			                   cname, o->preset);
		}
	} else if (s->q && s->q->preset) {
		s->preset = s->q->preset;
	} else if (s->er) {
		s->preset = s->er->preset;
	}

	return 0;
}

int codecs_resolve(struct resolved *s, const char *name, int w, int h, struct rate fps,
                   const struct video_options *o, int strict,
                   char *err, size_t errlen)
{
	int ret;

	if ((ret = resolve_container(s, name, w, h, fps, o, strict, err, errlen)) < 0 ||
	    (ret = resolve_encoder(s, o, err, errlen)) < 0 ||
	    (ret = resolve_pix_fmt(s, o, err, errlen)) < 0 ||
	    (ret = check_size(s, w, h, strict, err, errlen)) < 0 ||
	    (ret = resolve_rate(s, o, strict, err, errlen)) < 0 ||
	    (ret = resolve_preset(s, o, strict, err, errlen)) < 0)
		return ret;
	if (strict) {
		/* what only the muxer knows, asked before any work rather than at the header */
		ret = try_muxer(s, w, h, fps);
		if (ret == AVERROR(ENOMEM))
			return codecs_fail(err, errlen, ret, "out of memory");
		if (ret < 0)
			return codecs_fail(err, errlen, -EINVAL, "%s cannot hold %s (encoder %s): the %s "
			                   "muxer refuses it", s->ct->ext[0] == '.' ? s->ct->ext : "y4m output",
			                   codec_title(s->codec), o->codec ? o->codec : s->ct->codec, s->ofmt->name);
	}
	return 0;
}

/* The encoder's options: threads, crf, preset, bitrate and the table's extras. */
int codecs_encoder_options(AVDictionary **opts, const struct resolved *s,
                           const struct video_options *o)
{
	int ret;

	if (o->threads)
		ret = av_dict_set_int(opts, "threads", o->threads, 0);
	else
		ret = av_dict_set(opts, "threads", "auto", 0);
	if (ret >= 0 && s->crf >= 0)
		ret = av_dict_set_int(opts, "crf", s->crf, 0);
	if (ret >= 0 && s->preset)
		ret = av_dict_set(opts, "preset", s->preset, 0);
	if (ret >= 0 && s->bitrate)
		ret = av_dict_set_int(opts, "b", s->bitrate, 0);
	if (ret >= 0 && s->q)
		ret = dict_defaults(opts, s->q->extra); /* first: it wins over the row's */
	if (ret >= 0 && s->er)
		ret = dict_defaults(opts, s->er->extra);
	return ret;
}

/* ---------------------------------------------------------------- API */
int codecs_path_supported(const char *path)
{
	return container_of(path) != NULL;
}

int codecs_needs_file(const char *path)
{
	const struct container *c = container_of(path);

	return c ? c->needs_file : 0;
}

const char *codecs_extensions(void)
{
	return extensions;
}

int codecs_check(const char *path, int w, int h, struct rate fps, const struct video_options *o,
                 char *err, size_t errlen)
{
	struct video_options def;
	struct resolved s;

	if (!o) {
		video_options_default(&def);
		o = &def;
	}
	return codecs_resolve(&s, path, w, h, fps, o, 1, err, errlen);
}

/* Encoders that drive a device (OMX, V4L2, VA-API, ...), named by suffix:
 * libavcodec does not flag them all as hardware. */
static int device_encoder(const char *name)
{
	static const char *const suffixes[] = { "_omx", "_v4l2m2m", "_vaapi", "_nvenc", "_qsv",
	                                        "_amf", "_vulkan", "_mf", "_videotoolbox", NULL };
	size_t n = strlen(name);
	for (int i = 0; suffixes[i]; i++) {
		size_t k = strlen(suffixes[i]);
		if (n > k && strcmp(name + n - k, suffixes[i]) == 0)
			return 1;
	}
	return 0;
}

void codecs_list(FILE *f)
{
	for (size_t i = 0; i < sizeof(containers) / sizeof(*containers); i++) {
		const struct container *ct = &containers[i];
		const AVOutputFormat *of = av_guess_format(ct->format, NULL, NULL);
		if (!of || strcmp(ct->ext, "-") == 0)
			continue;
		int col = fprintf(f, "%-6s", ct->ext);
		void *it = NULL;
		const AVCodec *c;
		while ((c = av_codec_iterate(&it))) {
			if (!av_codec_is_encoder(c) || c->type != AVMEDIA_TYPE_VIDEO ||
			    (c->capabilities & (AV_CODEC_CAP_HARDWARE | AV_CODEC_CAP_EXPERIMENTAL)) ||
			    device_encoder(c->name) || avformat_query_codec(of, c->id, FF_COMPLIANCE_NORMAL) != 1)
				continue;
			int dflt = strcmp(c->name, ct->codec) == 0;
			int len = (int)strlen(c->name) + dflt + 1;
			if (col + len > 79) {
				fprintf(f, "\n%6s", "");
				col = 6;
			}
			col += fprintf(f, " %s%s", c->name, dflt ? "*" : "");
		}
		fputc('\n', f);
	}
	fputs("--codec also takes codec names:", f);
	for (size_t i = 0; i < sizeof codec_names / sizeof *codec_names; i++) {
		int alias;
		fprintf(f, " %s (%s)%s", codec_names[i].name, encoder_name(codec_names[i].name, &alias),
		        i + 1 < sizeof codec_names / sizeof *codec_names ? "," : "\n");
	}
}

/* ------------------------------------------------------------- versions */

/* One FFmpeg library's line: its version found at run time, and built with. */
static void put_lib(FILE *f, const char *name, unsigned run, unsigned built)
{
	char v[32];

	snprintf(v, sizeof v, "%u.%u.%u", run >> 16, (run >> 8) & 0xff, run & 0xff);
	fprintf(f, "  %-12s %-10s (%u.%u.%u)\n", name, v, built >> 16, (built >> 8) & 0xff, built & 0xff);
}

/*
 * The encoders' libraries libavcodec loaded, found by file name; each says
 * its version through its own call (fn) or string (str), x264 only
 * through its file name (libx264.so.164: API build 164).
 */
static struct encoder_lib {
	const char *title, *prefix, *fn, *str;
	char found[64];     /* the file name's version ("164"), or "" */
} encoder_libs[] = {
	{ "x264",    "libx264.so.",      NULL,                  NULL,               "" },
	{ "x265",    "libx265.so.",      NULL,                  "x265_version_str", "" },
	{ "libvpx",  "libvpx.so.",       "vpx_codec_version_str", NULL,             "" },
	{ "SVT-AV1", "libSvtAv1Enc.so.", "svt_av1_get_version", NULL,               "" },
	{ "libaom",  "libaom.so.",       "aom_codec_version_str", NULL,             "" },
};

static int find_encoder_lib(struct dl_phdr_info *info, size_t size, void *data)
{
	const char *base = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;

	(void)size, (void)data;
	for (size_t i = 0; base && i < sizeof encoder_libs / sizeof *encoder_libs; i++) {
		struct encoder_lib *l = &encoder_libs[i];
		if (!l->found[0] && strncmp(base + 1, l->prefix, strlen(l->prefix)) == 0)
			snprintf(l->found, sizeof l->found, "%s", base + 1 + strlen(l->prefix));
	}
	return 0;
}

void codecs_print_versions(FILE *f)
{
	fprintf(f, "  %-12s %s\n", "FFmpeg", av_version_info());
	put_lib(f, "libavformat", avformat_version(), LIBAVFORMAT_VERSION_INT);
	put_lib(f, "libavcodec", avcodec_version(), LIBAVCODEC_VERSION_INT);
	put_lib(f, "libavutil", avutil_version(), LIBAVUTIL_VERSION_INT);
	put_lib(f, "libswscale", swscale_version(), LIBSWSCALE_VERSION_INT);
	put_lib(f, "libavfilter", avfilter_version(), LIBAVFILTER_VERSION_INT);
	dl_iterate_phdr(find_encoder_lib, NULL);
	for (size_t i = 0; i < sizeof encoder_libs / sizeof *encoder_libs; i++) {
		const struct encoder_lib *l = &encoder_libs[i];
		const char *v = NULL;
		void *sym = l->fn ? dlsym(RTLD_DEFAULT, l->fn) : l->str ? dlsym(RTLD_DEFAULT, l->str) : NULL;
		if (!l->found[0])
			continue;
		if (sym && l->fn) {
			const char *(*get)(void);
			memcpy(&get, &sym, sizeof get); /* POSIX: a data pointer to a function pointer */
			v = get();
		} else if (sym) {
			v = *(const char *const *)sym;
		}
		char build[80];
		if (!v)
			snprintf(build, sizeof build, "build %s", l->found);
		fprintf(f, "  %-12s %-10s (%s%s)\n", l->title, v ? v : build, l->prefix, l->found);
	}
}

int codecs_describe(const char *name, int w, int h, struct rate fps, const struct video_options *o,
                    char *buf, size_t len)
{
	struct video_options def;
	struct resolved s;
	char crf[24] = "", preset[64] = "", rate[40] = "";

	if (!o) {
		video_options_default(&def);
		o = &def;
	}
	int ret = codecs_resolve(&s, name, w, h, fps, o, 0, buf, len);
	if (ret < 0)
		return ret;
	if (s.crf >= 0)
		snprintf(crf, sizeof crf, ", crf %d", s.crf);
	if (s.preset)
		snprintf(preset, sizeof preset, ", preset %s", s.preset);
	if (s.bitrate)
		snprintf(rate, sizeof rate, ", %" PRId64 " bit/s", s.bitrate);
	snprintf(buf, len, "%s (%s, %s%s%s%s)", s.ofmt->name, s.codec->name,
	         av_get_pix_fmt_name(s.pix_fmt), crf, preset, rate);
	return 0;
}
