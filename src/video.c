/*
 * video — encodes pixel buffers with libavformat/libavcodec; see video.h.
 *
 * Start at video_open(): it is FFmpeg's doc/examples/mux.c lifecycle for
 * one video stream (output context, stream, encoder, avio_open, header),
 * with every return code checked and turned into a message instead of
 * exit().  resolve() turns a name and struct video_options into concrete
 * settings (container, encoder, pixel format, CRF, preset); video_check()
 * validates with it and video_open() builds from it, so they cannot
 * disagree about defaults.  The two tables below hold every default.
 *
 * Frames are converted by a video_picture, in the caller's drawing threads:
 * yuv420p by argb_to_yuv420p() (fixed point, BT.709), other formats by
 * libswscale; GIF in pal8 goes through a libavfilter graph that makes one
 * palette from the first frame (palettegen) and maps every frame onto it
 * (paletteuse).
 */
#include "video.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/pixdesc.h>
#include <libavutil/sha.h>
#include <libswscale/swscale.h>

/* ---------------------------------------------------------------- tables */

struct container {
	const char *ext;      /* matched case-insensitively; "-" is standard output */
	const char *format;   /* libavformat muxer */
	const char *codec;    /* default encoder */
	const char *pix_fmt;  /* default pixel format */
	const char *muxopts;  /* muxer options, "key=value:key=value" */
	int needs_file;       /* seeks and reads back (moov, faststart): a regular file only */
};

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

struct encoder {
	const char *name;
	int crf_min, crf_max;     /* accepted CRF; crf_max < 0: no CRF */
	int crf;                  /* default CRF without a bitrate; -1: none */
	const char *const *presets; /* accepted presets; NULL: none */
	const char *preset;       /* default preset; NULL: the encoder's */
	const char *extra;        /* further defaults, "key=value;key=value" (a value may hold ':') */
	int crf_xor_bitrate;      /* the encoder takes one rate control, not both */
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
 * What --quality changes where the user set nothing, per encoder.  Draft
 * and high move one step along the encoder's own scale from the web
 * defaults above; archive is the encoder's lossless mode at 4:4:4 (x264:
 * crf 0 at 8 bits is lossless; x265 and VP9 take lossless=1).
 */
struct quality {
	const char *encoder;
	enum video_quality q;
	int crf;                  /* -1: the encoder row's */
	const char *preset;       /* NULL: the encoder row's */
	const char *pix_fmt;      /* NULL: the container's */
	const char *extra;        /* applied before the encoder row's extra */
	int lossless;             /* 1: no crf (the extra asks for lossless) */
};

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

/* GIF: one palette from the first frame, no dithering (flat colours). */
static const char gif_graph[] =
	"split[a][b];"
	"[a]trim=end_frame=1,palettegen=reserve_transparent=0[p];"
	"[b][p]paletteuse=dither=none";

#define SWS_FLAGS (SWS_BICUBIC | SWS_ACCURATE_RND | SWS_BITEXACT)
#define FPS_MAX 1000
#define GIF_FPS_MAX 50      /* delays are whole 1/100 s; browsers slow < 2 */
#define THREADS_MAX 64
#define IO_BUFFER 65536
#define VP8_SIZE_MAX 16383  /* 14-bit sizes in the VP8 frame header */

/* ---------------------------------------------------------------- state */

struct video {
	AVFormatContext *oc;
	AVStream *st;
	AVCodecContext *enc;
	AVPacket *pkt;
	AVFrame *frame;             /* input of the encoder, or of the graph (RGB32) */
	AVFrame *filtered;          /* graph output */
	struct SwsContext *sws;     /* NULL when the graph converts */
	AVFilterGraph *graph;       /* GIF palette; NULL otherwise */
	AVFilterContext *src, *sink;
	int w, h;
	int64_t frames;             /* frames written so far */
	int closed;                 /* trailer written (or failed) */
	int fd;                     /* where the bytes go; -1 when none */
	int own_fd;                 /* opened by video_open(): closed by video_close() */
	int seekable;               /* fd is a regular file */
};

/* What a name and options come to; shared by video_check and video_open. */
struct resolved {
	const struct container *ct;
	const AVOutputFormat *ofmt;
	const AVCodec *codec;
	const struct encoder *er;   /* table row, NULL when not listed */
	const struct quality *q;    /* --quality's row for this encoder, NULL if none */
	enum AVPixelFormat pix_fmt;
	int crf;                    /* -1: not set */
	const char *preset;         /* NULL: not set */
	int64_t bitrate;            /* 0: not set */
};

/* ---------------------------------------------------------------- helpers */

static int fail(char *err, size_t len, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Writes the message to err (if any) and returns code. */
static int fail(char *err, size_t len, int code, const char *fmt, ...)
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

/* ------------------------------------------------------------------- I/O */

/*
 * libavformat never sees a file name: it writes through an AVIOContext on
 * our descriptor (a name such as "pipe:x" or "file:y" is a plain file, not
 * a protocol), and the one muxer that reads its output back (mov/mp4
 * faststart moves the index to the front) gets a reader on the same
 * descriptor through oc->io_open, with its own offset (pread).
 */

static int fd_write(void *opaque, uint8_t *buf, int size)
{
	struct video *v = opaque;
	int done = 0;

	while (done < size) {
		ssize_t n = write(v->fd, buf + done, (size_t)(size - done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return AVERROR(errno);
		done += (int)n;
	}
	return size;
}

static int64_t fd_size(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? (int64_t)st.st_size : AVERROR(errno);
}

static int64_t fd_seek(void *opaque, int64_t offset, int whence)
{
	struct video *v = opaque;

	if (whence & AVSEEK_SIZE)
		return fd_size(v->fd);
	off_t at = lseek(v->fd, (off_t)offset, whence & ~AVSEEK_FORCE);
	return at < 0 ? AVERROR(errno) : (int64_t)at;
}

/* A reader on the output, for the muxer's second pass. */
struct reader {
	int fd;
	int64_t pos;
};

static int reader_read(void *opaque, uint8_t *buf, int size)
{
	struct reader *r = opaque;
	ssize_t n;

	do
		n = pread(r->fd, buf, (size_t)size, (off_t)r->pos);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return AVERROR(errno);
	if (n == 0)
		return AVERROR_EOF;
	r->pos += n;
	return (int)n;
}

static int64_t reader_seek(void *opaque, int64_t offset, int whence)
{
	struct reader *r = opaque;
	int64_t size = fd_size(r->fd);

	if (whence & AVSEEK_SIZE)
		return size;
	switch (whence & ~AVSEEK_FORCE) {
	case SEEK_SET: break;
	case SEEK_CUR: offset += r->pos; break;
	case SEEK_END: if (size < 0) return size; offset += size; break;
	default: return AVERROR(EINVAL);
	}
	if (offset < 0)
		return AVERROR(EINVAL);
	return r->pos = offset;
}

/* Frees an AVIOContext we made, with its buffer; 0 or the context's error. */
static int io_free(AVIOContext **pb)
{
	int ret = 0;

	if (!*pb)
		return 0;
	if ((*pb)->write_flag) {
		avio_flush(*pb);
		ret = (*pb)->error;
	}
	av_freep(&(*pb)->buffer);
	avio_context_free(pb);
	return ret < 0 ? ret : 0;
}

/* oc->io_open: only a reader of our own output, never a name. */
static int io_open(struct AVFormatContext *s, AVIOContext **pb, const char *url,
                   int flags, AVDictionary **options)
{
	struct video *v = s->opaque;
	struct reader *r;
	unsigned char *buf;

	(void)url;
	(void)options;
	*pb = NULL;
	if (flags != AVIO_FLAG_READ || !v->seekable)
		return AVERROR(EPERM);
	r = av_mallocz(sizeof *r);
	buf = av_malloc(IO_BUFFER);
	if (r && buf)
		*pb = avio_alloc_context(buf, IO_BUFFER, 0, r, reader_read, NULL, reader_seek);
	if (!*pb) {
		av_free(r);
		av_free(buf);
		return AVERROR(ENOMEM);
	}
	r->fd = v->fd;
	(*pb)->seekable = AVIO_SEEKABLE_NORMAL;
	return 0;
}

static int io_close2(struct AVFormatContext *s, AVIOContext *pb)
{
	(void)s;
	av_free(pb->opaque);
	av_freep(&pb->buffer);
	avio_context_free(&pb);
	return 0;
}

/* Writes are thrown away: for trying a muxer's settings in video_check(). */
static int null_write(void *opaque, uint8_t *buf, int size)
{
	(void)opaque;
	(void)buf;
	return size;
}

static int64_t null_seek(void *opaque, int64_t offset, int whence)
{
	(void)opaque;
	return whence & AVSEEK_SIZE ? 0 : offset;
}

/*
 * Does the muxer take this stream?  Some refuse only when they start (mov
 * holds no VP9, only mp4 does), so start one, on a sink: 0 or an AVERROR.
 */
static int try_muxer(const struct resolved *s, int w, int h, int fps)
{
	AVFormatContext *oc = NULL;
	AVDictionary *muxopts = NULL;
	unsigned char *buf = NULL;
	AVStream *st;
	int ret = avformat_alloc_output_context2(&oc, s->ofmt, NULL, NULL);

	if (ret < 0)
		return ret;
	oc->flags |= AVFMT_FLAG_BITEXACT | AVFMT_FLAG_CUSTOM_IO;
	st = avformat_new_stream(oc, NULL);
	buf = av_malloc(IO_BUFFER);
	if (!st || !buf) {
		av_free(buf);
		ret = AVERROR(ENOMEM);
		goto out;
	}
	oc->pb = avio_alloc_context(buf, IO_BUFFER, 1, NULL, NULL, null_write, null_seek);
	if (!oc->pb) {
		av_free(buf);
		ret = AVERROR(ENOMEM);
		goto out;
	}
	oc->pb->seekable = AVIO_SEEKABLE_NORMAL;
	st->codecpar->codec_type = AVMEDIA_TYPE_VIDEO;
	st->codecpar->codec_id = s->codec->id;
	st->codecpar->width = w;
	st->codecpar->height = h;
	st->codecpar->format = s->pix_fmt;
	st->time_base = (AVRational){ 1, fps };
	ret = av_dict_parse_string(&muxopts, s->ct->muxopts ? s->ct->muxopts : "", "=", ":", 0);
	if (ret >= 0)
		ret = avformat_init_output(oc, &muxopts);
out:
	av_dict_free(&muxopts);
	if (oc)
		io_free(&oc->pb);
	avformat_free_context(oc);
	return ret < 0 ? ret : 0;
}

/* ---------------------------------------------------------------- resolve */

/*
 * Fills s from name and o.  strict: also check what only matters to the
 * user (ranges, presets, even sizes); video_open() passes 0 so that the
 * encoder itself rejects what it does not take.
 */
/* The container from the name, and the numbers any encoder needs. */
static int resolve_container(struct resolved *s, const char *name, int w, int h, int fps,
                             const struct video_options *o, int strict, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	s->crf = -1;
	s->ct = container_of(name);
	if (!s->ct)
		return fail(err, errlen, -EINVAL,
		            "unsupported output '%s': use a name ending in %s, or - for y4m "
		            "on standard output", name ? name : "", extensions);
	s->ofmt = av_guess_format(s->ct->format, NULL, NULL);
	if (!s->ofmt)
		return fail(err, errlen, -EINVAL,
		            "this FFmpeg has no '%s' muxer (for '%s')", s->ct->format, name);
	if (w <= 0 || h <= 0)
		return fail(err, errlen, -EINVAL, "picture size %dx%d is not positive", w, h);
	if (fps < 1 || fps > FPS_MAX)
		return fail(err, errlen, -EINVAL, "fps %d is out of range 1..%d", fps, FPS_MAX);
	if (strict && s->ofmt->video_codec == AV_CODEC_ID_GIF && fps > GIF_FPS_MAX)
		return fail(err, errlen, -EINVAL,
		            "fps %d is too high for GIF: frame delays are whole 1/100 s and "
		            "browsers slow down short ones; use 1..%d", fps, GIF_FPS_MAX);
	if (o->gop < 0)
		return fail(err, errlen, -EINVAL, "keyframe interval %d is negative", o->gop);
	if (o->threads < 0 || o->threads > THREADS_MAX)
		return fail(err, errlen, -EINVAL,
		            "encoder threads %d is out of range 0..%d", o->threads, THREADS_MAX);

	return 0;
}

/* The encoder: the container's default or o->codec, and the muxer must take it. */
static int resolve_encoder(struct resolved *s, const struct video_options *o,
                           char *err, size_t errlen)
{
	const char *cname = o->codec ? o->codec : s->ct->codec;
	int q;

	/* encoder */
	s->codec = avcodec_find_encoder_by_name(cname);
	if (!s->codec) {
		const AVCodec *d = avcodec_find_decoder_by_name(cname);
		if (d)
			return fail(err, errlen, -EINVAL,
			            "'%s' is a decoder, not an encoder (try libx264, "
			            "libvpx-vp9, gif)", cname);
		return fail(err, errlen, -EINVAL, "unknown encoder '%s'", cname);
	}
	if (s->codec->type != AVMEDIA_TYPE_VIDEO)
		return fail(err, errlen, -EINVAL, "'%s' is not a video encoder", cname);
	q = avformat_query_codec(s->ofmt, s->codec->id, FF_COMPLIANCE_NORMAL);
	if (q == 0 || (q < 0 && s->codec->id != s->ofmt->video_codec))
		return fail(err, errlen, -EINVAL, "%s cannot hold %s (encoder %s)",
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
	const char *cname = o->codec ? o->codec : s->ct->codec;
	const char *pname;
	const AVPixFmtDescriptor *desc;

	/* pixel format: the container's default unless the encoder lacks it */
	if (o->pix_fmt) {
		pname = o->pix_fmt;
		s->pix_fmt = av_get_pix_fmt(pname);
		if (s->pix_fmt == AV_PIX_FMT_NONE)
			return fail(err, errlen, -EINVAL, "unknown pixel format '%s'", pname);
	} else {
		s->pix_fmt = av_get_pix_fmt(s->q && s->q->pix_fmt ? s->q->pix_fmt : s->ct->pix_fmt);
		if (!pix_fmt_listed(pix_fmts_of(s->codec), s->pix_fmt))
			s->pix_fmt = pix_fmts_of(s->codec)[0];
	}
	if (!pix_fmt_listed(pix_fmts_of(s->codec), s->pix_fmt)) {
		char list[160];
		list_pix_fmts(list, sizeof list, pix_fmts_of(s->codec));
		return fail(err, errlen, -EINVAL,
		            "%s does not take pixel format '%s'; use one of %s",
		            cname, av_get_pix_fmt_name(s->pix_fmt), list);
	}
	desc = av_pix_fmt_desc_get(s->pix_fmt);
	if (!desc)
		return fail(err, errlen, -EINVAL, "unknown pixel format '%s'", o->pix_fmt);

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
			return fail(err, errlen, -EINVAL, "%s pictures are at most %dx%d; %dx%d is too "
			            "large", codec_title(s->codec), max, max, w, h);
		if (av_image_check_size2((unsigned)w, (unsigned)h, INT64_MAX, AV_PIX_FMT_NONE,
		                         0, NULL) < 0) {
			/* libavcodec wants (8 w + 1024)(h + 128) < 2^31 - 1 */
			long hmax = (INT_MAX - 1L) / (8L * w + 1024) - 128;
			return fail(err, errlen, -EINVAL, "picture %dx%d is too large for the video "
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
			return fail(err, errlen, -EINVAL,
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
	const char *cname = o->codec ? o->codec : s->ct->codec;
	const AVCodecDescriptor *cdesc;

	/* bitrate */
	if (o->bitrate) {
		s->bitrate = parse_bitrate(o->bitrate);
		if (s->bitrate < 0)
			return fail(err, errlen, -EINVAL,
			            "bad bitrate '%s': use a number of bits per second with an "
			            "optional k, M or G suffix, such as 2M", o->bitrate);
		if (s->bitrate < 1000)
			return fail(err, errlen, -EINVAL,
			            "bitrate '%s' is too low: at least 1k bits per second",
			            o->bitrate);
		cdesc = avcodec_descriptor_get(s->codec->id);
		if (strict && !(cdesc && (cdesc->props & AV_CODEC_PROP_LOSSY)))
			return fail(err, errlen, -EINVAL, "%s does not take a bitrate", cname);
	}

	/* CRF */
	if (o->crf != -1) {
		s->crf = o->crf;
		if (strict && s->er && s->er->crf_max < 0)
			return fail(err, errlen, -EINVAL, "%s does not take a crf", cname);
		if (strict && s->er && (o->crf < s->er->crf_min || o->crf > s->er->crf_max))
			return fail(err, errlen, -EINVAL, "crf %d is out of range %d..%d for %s",
			            o->crf, s->er->crf_min, s->er->crf_max, cname);
		if (strict && !s->er) {
			const AVOption *opt = private_option(s->codec, "crf");
			if (!opt)
				return fail(err, errlen, -EINVAL, "%s does not take a crf", cname);
			if (o->crf < opt->min || o->crf > opt->max)
				return fail(err, errlen, -EINVAL,
				            "crf %d is out of range %.0f..%.0f for %s",
				            o->crf, opt->min, opt->max, cname);
		}
		if (strict && s->bitrate && s->er && s->er->crf_xor_bitrate)
			return fail(err, errlen, -EINVAL,
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
	const char *cname = o->codec ? o->codec : s->ct->codec;

	/* preset */
	if (o->preset) {
		s->preset = o->preset;
		if (strict && s->er) {
			const char *const *p = s->er->presets;
			if (!p)
				return fail(err, errlen, -EINVAL, "%s has no presets (got '%s')",
				            cname, o->preset);
			while (*p && strcmp(*p, o->preset) != 0)
				p++;
			if (!*p)
				return fail(err, errlen, -EINVAL,
				            "unknown preset '%s' for %s: use ultrafast, superfast, "
				            "veryfast, faster, fast, medium, slow, slower, veryslow "
				            "or placebo", o->preset, cname);
		} else if (strict && !generic_preset_ok(s->codec, o->preset)) {
			return fail(err, errlen, -EINVAL, "%s has no preset '%s'",
			            cname, o->preset);
		}
	} else if (s->q && s->q->preset) {
		s->preset = s->q->preset;
	} else if (s->er) {
		s->preset = s->er->preset;
	}

	return 0;
}

static int resolve(struct resolved *s, const char *name, int w, int h, int fps,
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
			return fail(err, errlen, ret, "out of memory");
		if (ret < 0)
			return fail(err, errlen, -EINVAL, "%s cannot hold %s (encoder %s): the %s "
			            "muxer refuses it", s->ct->ext[0] == '.' ? s->ct->ext : "y4m output",
			            codec_title(s->codec), o->codec ? o->codec : s->ct->codec, s->ofmt->name);
	}
	return 0;
}

/* ---------------------------------------------------------------- API */

void video_options_default(struct video_options *o)
{
	memset(o, 0, sizeof *o);
	o->crf = -1;
	o->threads = 4; /* the same bytes on every machine (0, auto, depends on its cores) */
}

int video_path_supported(const char *path)
{
	return container_of(path) != NULL;
}

int video_needs_file(const char *path)
{
	const struct container *c = container_of(path);

	return c ? c->needs_file : 0;
}

const char *video_extensions(void)
{
	return extensions;
}

int video_check(const char *path, int w, int h, int fps,
                const struct video_options *o, char *err, size_t errlen)
{
	struct video_options def;
	struct resolved s;

	if (!o) {
		video_options_default(&def);
		o = &def;
	}
	return resolve(&s, path, w, h, fps, o, 1, err, errlen);
}

/* Sends frame (NULL: drain) and writes whatever packets come out. */
static int encode(struct video *v, AVFrame *frame)
{
	int ret = avcodec_send_frame(v->enc, frame);

	while (ret >= 0) {
		ret = avcodec_receive_packet(v->enc, v->pkt);
		if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
			return 0;
		if (ret < 0)
			break;
		if (v->pkt->duration == 0)
			v->pkt->duration = 1; /* one frame, in 1/fps; the muxer needs the last one */
		av_packet_rescale_ts(v->pkt, v->enc->time_base, v->st->time_base);
		v->pkt->stream_index = v->st->index;
		ret = av_interleaved_write_frame(v->oc, v->pkt);
		av_packet_unref(v->pkt); /* already blank unless it failed early */
		if (ret >= 0 && v->oc->pb && v->oc->pb->error < 0)
			ret = v->oc->pb->error; /* a full disk shows here first */
	}
	return ret;
}

/*
 * A converter from Cairo's ARGB32 to the encoder's pixel format, with the
 * encoder's colour matrix.  Each picture has its own: a SwsContext may not be
 * shared between threads.
 */
static int make_sws(const struct video *v, struct SwsContext **out)
{
	struct SwsContext *c = sws_getContext(v->w, v->h, AV_PIX_FMT_RGB32, v->w, v->h,
	                                      v->enc->pix_fmt, SWS_FLAGS, NULL, NULL, NULL);
	if (!c)
		return AVERROR(EINVAL);
	if (v->enc->colorspace == AVCOL_SPC_BT709) {
		const int *coef = sws_getCoefficients(SWS_CS_ITU709);
		int ret = sws_setColorspaceDetails(c, coef, 1, coef, 0, 0, 1 << 16, 1 << 16);
		if (ret < 0) {
			sws_freeContext(c);
			return ret;
		}
	}
	*out = c;
	return 0;
}

/* Encodes every frame the palette graph has ready. */
static int pull_filtered(struct video *v)
{
	AVRational tb = av_buffersink_get_time_base(v->sink);
	int ret;

	for (;;) {
		ret = av_buffersink_get_frame(v->sink, v->filtered);
		if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
			return 0;
		if (ret < 0)
			return ret;
		v->filtered->pts = av_rescale_q(v->filtered->pts, tb, v->enc->time_base);
		v->filtered->pict_type = AV_PICTURE_TYPE_NONE;
		ret = encode(v, v->filtered);
		av_frame_unref(v->filtered);
		if (ret < 0)
			return ret;
	}
}

static int open_graph(struct video *v, char *err, size_t errlen)
{
	AVFilterInOut *in = NULL, *out = NULL;
	char args[128];
	int ret;

	v->graph = avfilter_graph_alloc();
	in = avfilter_inout_alloc();
	out = avfilter_inout_alloc();
	if (!v->graph || !in || !out) {
		ret = AVERROR(ENOMEM);
		goto fail;
	}
	snprintf(args, sizeof args,
	         "video_size=%dx%d:pix_fmt=%d:time_base=%d/%d:pixel_aspect=1/1",
	         v->w, v->h, (int)AV_PIX_FMT_RGB32,
	         v->enc->time_base.num, v->enc->time_base.den);
	ret = avfilter_graph_create_filter(&v->src, avfilter_get_by_name("buffer"),
	                                   "in", args, NULL, v->graph);
	if (ret < 0)
		goto fail;
	ret = avfilter_graph_create_filter(&v->sink, avfilter_get_by_name("buffersink"),
	                                   "out", NULL, NULL, v->graph);
	if (ret < 0)
		goto fail;
	out->name = av_strdup("in");
	out->filter_ctx = v->src;
	in->name = av_strdup("out");
	in->filter_ctx = v->sink;
	if (!out->name || !in->name) {
		ret = AVERROR(ENOMEM);
		goto fail;
	}
	ret = avfilter_graph_parse_ptr(v->graph, gif_graph, &in, &out, NULL);
	if (ret < 0)
		goto fail;
	ret = avfilter_graph_config(v->graph, NULL);
	if (ret < 0)
		goto fail;
	if (av_buffersink_get_format(v->sink) != AV_PIX_FMT_PAL8) {
		ret = AVERROR_BUG; /* paletteuse makes pal8 only */
		goto fail;
	}
	avfilter_inout_free(&in);
	avfilter_inout_free(&out);
	return 0;
fail:
	avfilter_inout_free(&in);
	avfilter_inout_free(&out);
	return fail(err, errlen, ret, "cannot set up the GIF palette filters: %s",
	            av_err2str(ret));
}

/* The options given to avcodec_open2, as one line for error messages. */
static void dict_line(char *buf, size_t len, const AVDictionary *d)
{
	const AVDictionaryEntry *e = NULL;
	size_t used = 0;
	int n;

	buf[0] = '\0';
	while ((e = av_dict_get(d, "", e, AV_DICT_IGNORE_SUFFIX)) && used < len) {
		n = snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "",
		             e->key, e->value);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

/* video_open_fd(); own: close fd when done (also when this fails). */
/* mux.c's add_stream: the output context (our descriptor, never a name),
 * its one video stream, the encoder context, a packet and the frames. */
static int add_stream(struct video *v, const struct resolved *s, char *err, size_t errlen)
{
	int ret = avformat_alloc_output_context2(&v->oc, s->ofmt, NULL, NULL);

	if (ret < 0)
		return fail(err, errlen, ret, "cannot set up %s output: %s", s->ofmt->name,
		            av_err2str(ret));
	/* no muxer version, fixed UIDs; our descriptor, never a name */
	v->oc->flags |= AVFMT_FLAG_BITEXACT | AVFMT_FLAG_CUSTOM_IO;
	v->oc->opaque = v;
	v->oc->io_open = io_open;
	v->oc->io_close2 = io_close2;
	v->st = avformat_new_stream(v->oc, NULL);
	v->enc = avcodec_alloc_context3(s->codec);
	v->pkt = av_packet_alloc();
	v->frame = av_frame_alloc();
	v->filtered = av_frame_alloc();
	if (!v->st || !v->enc || !v->pkt || !v->frame || !v->filtered)
		return fail(err, errlen, AVERROR(ENOMEM), "out of memory");
	return 0;
}

/* The encoder's size, rate and colour tags: BT.709 limited range for YUV. */
static void set_encoder(struct video *v, const struct resolved *s, int w, int h, int fps,
                        const struct video_options *o)
{
	const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(s->pix_fmt);

	v->enc->width = w;
	v->enc->height = h;
	v->enc->time_base = (AVRational){ 1, fps };
	v->enc->framerate = (AVRational){ fps, 1 };
	v->enc->sample_aspect_ratio = (AVRational){ 1, 1 };
	v->enc->pix_fmt = s->pix_fmt;
	if (o->gop > 0)
		v->enc->gop_size = o->gop;
	v->enc->flags |= AV_CODEC_FLAG_BITEXACT;
	if (v->oc->oformat->flags & AVFMT_GLOBALHEADER)
		v->enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
	if (!(desc->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL))) {
		v->enc->color_range = AVCOL_RANGE_MPEG;
		if (desc->nb_components >= 3) {
			v->enc->colorspace = AVCOL_SPC_BT709;
			v->enc->color_primaries = AVCOL_PRI_BT709;
			v->enc->color_trc = AVCOL_TRC_BT709;
		}
	}
}

/* The encoder's options: threads, crf, preset, bitrate and the table's extras. */
static int encoder_options(AVDictionary **opts, const struct resolved *s,
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

/* mux.c's open_video: opens the encoder (every option must be taken) and
 * copies its parameters to the stream. */
static int open_codec(struct video *v, const struct resolved *s, const struct video_options *o,
                      char *err, size_t errlen)
{
	AVDictionary *opts = NULL;
	const AVDictionaryEntry *left;
	char line[256];
	int ret = encoder_options(&opts, s, o);

	if (ret < 0) {
		fail(err, errlen, ret, "out of memory");
		goto fail;
	}
	dict_line(line, sizeof line, opts);
	ret = avcodec_open2(v->enc, s->codec, &opts);
	if (ret < 0) {
		fail(err, errlen, ret, "cannot open encoder %s (%s): %s", s->codec->name,
		     line, av_err2str(ret));
		goto fail;
	}
	left = av_dict_get(opts, "", NULL, AV_DICT_IGNORE_SUFFIX);
	if (left) {
		ret = fail(err, errlen, AVERROR_OPTION_NOT_FOUND,
		           "encoder %s does not take option '%s' (= '%s')",
		           s->codec->name, left->key, left->value);
		goto fail;
	}
	ret = avcodec_parameters_from_context(v->st->codecpar, v->enc);
	if (ret < 0) {
		fail(err, errlen, ret, "cannot set up the stream: %s", av_err2str(ret));
		goto fail;
	}
	/* HEVC in MP4/MOV as 'hvc1' (parameter sets kept in the sample entry):
	 * Apple's players want it, and libavformat writes 'hev1' otherwise. */
	if (v->enc->codec_id == AV_CODEC_ID_HEVC &&
	    (strcmp(s->ofmt->name, "mp4") == 0 || strcmp(s->ofmt->name, "mov") == 0))
		v->st->codecpar->codec_tag = MKTAG('h', 'v', 'c', '1');
	v->st->time_base = v->enc->time_base;
	v->st->avg_frame_rate = v->enc->framerate;
	v->st->sample_aspect_ratio = v->enc->sample_aspect_ratio;
fail:
	av_dict_free(&opts);
	return ret < 0 ? ret : 0;
}

/* The conversion: a palette graph for pal8 GIF, swscale otherwise. */
static int open_converter(struct video *v, const struct resolved *s, char *err, size_t errlen)
{
	int ret;

	v->frame->format = s->pix_fmt == AV_PIX_FMT_PAL8 ? AV_PIX_FMT_RGB32 : s->pix_fmt;
	v->frame->width = v->w;
	v->frame->height = v->h;
	ret = av_frame_get_buffer(v->frame, 0);
	if (ret < 0)
		return fail(err, errlen, ret, "out of memory");
	if (s->pix_fmt == AV_PIX_FMT_PAL8)
		return open_graph(v, err, errlen);
	ret = make_sws(v, &v->sws);
	if (ret < 0)
		return fail(err, errlen, ret, "libswscale cannot convert to %s%s",
		            av_pix_fmt_desc_get(s->pix_fmt)->name,
		            v->enc->colorspace == AVCOL_SPC_BT709 ? " in BT.709" : "");
	return 0;
}

/* mux.c's avio_open + avformat_write_header, on our descriptor. */
static int open_output(struct video *v, const struct resolved *s, char *err, size_t errlen)
{
	AVDictionary *muxopts = NULL;
	const AVDictionaryEntry *left;
	unsigned char *buf = av_malloc(IO_BUFFER);
	int ret;

	if (buf)
		v->oc->pb = avio_alloc_context(buf, IO_BUFFER, 1, v, NULL, fd_write,
		                               v->seekable ? fd_seek : NULL);
	if (!v->oc->pb) {
		av_free(buf);
		return fail(err, errlen, AVERROR(ENOMEM), "out of memory");
	}
	v->oc->pb->seekable = v->seekable ? AVIO_SEEKABLE_NORMAL : 0;
	ret = av_dict_parse_string(&muxopts, s->ct->muxopts ? s->ct->muxopts : "",
	                           "=", ":", 0);
	if (ret >= 0)
		ret = avformat_write_header(v->oc, &muxopts);
	if (ret < 0) {
		fail(err, errlen, ret, "cannot write the %s header: %s",
		     s->ofmt->name, av_err2str(ret));
	} else if ((left = av_dict_get(muxopts, "", NULL, AV_DICT_IGNORE_SUFFIX))) {
		ret = fail(err, errlen, AVERROR_OPTION_NOT_FOUND,
		           "muxer %s does not take option '%s'", s->ofmt->name, left->key);
	}
	av_dict_free(&muxopts);
	return ret < 0 ? ret : 0;
}

static int open_fd(struct video **out, int fd, int own, const char *name,
                   int w, int h, int fps, const struct video_options *o,
                   char *err, size_t errlen)
{
	struct video_options def;
	struct resolved s;
	struct video *v;
	struct stat st;
	int ret;

	*out = NULL;
	if (!o) {
		video_options_default(&def);
		o = &def;
	}
	ret = resolve(&s, name, w, h, fps, o, 0, err, errlen);
	v = ret < 0 ? NULL : calloc(1, sizeof *v);
	if (!v) {
		if (own)
			close(fd);
		return ret < 0 ? ret : fail(err, errlen, AVERROR(ENOMEM), "out of memory");
	}
	v->w = w;
	v->h = h;
	v->fd = fd;
	v->own_fd = own;
	v->seekable = strcmp(name, "-") != 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	if (s.ct->needs_file && !v->seekable) {
		ret = fail(err, errlen, AVERROR(EINVAL), "%s needs a regular file (it seeks and "
		           "reads back); use .mkv, .webm, .gif or .y4m for a pipe or device",
		           s.ct->ext);
		goto fail;
	}
	if ((ret = add_stream(v, &s, err, errlen)) < 0)
		goto fail;
	set_encoder(v, &s, w, h, fps, o);
	if ((ret = open_codec(v, &s, o, err, errlen)) < 0 ||
	    (ret = open_converter(v, &s, err, errlen)) < 0 ||
	    (ret = open_output(v, &s, err, errlen)) < 0)
		goto fail;
	*out = v;
	return 0;
fail:
	video_free(v);
	return ret;
}

int video_open_fd(struct video **out, int fd, const char *name,
                  int w, int h, int fps, const struct video_options *o,
                  char *err, size_t errlen)
{
	return open_fd(out, fd, 0, name, w, h, fps, o, err, errlen);
}

int video_open(struct video **out, const char *path, const char *name,
               int w, int h, int fps, const struct video_options *o,
               char *err, size_t errlen)
{
	int fd = STDOUT_FILENO;

	*out = NULL;
	if (strcmp(path, "-") != 0) {
		/* read too: mp4's second pass reads the file back */
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0666);
		if (fd < 0)
			return fail(err, errlen, AVERROR(errno), "cannot open '%s': %s", path,
			            strerror(errno));
	}
	return open_fd(out, fd, fd != STDOUT_FILENO, name ? name : path, w, h, fps, o,
	               err, errlen);
}

/* ------------------------------------------------------------ pictures */

struct video_picture {
	AVFrame *frame;          /* the encoder's format, or RGB32 for the GIF graph */
	struct SwsContext *sws;  /* NULL when the graph converts */
	int w, h;
	int fast;                /* yuv420p BT.709: our own converter, not sws */
};

/*
 * ARGB32 -> yuv420p, BT.709, limited range, in 16.16 fixed point: the
 * default for every YUV container and the hot path of a render.  Integer
 * arithmetic only, so it gives the same bytes on every machine (swscale's
 * bit-exact mode does too, but at several times the cost).
 *   Y  = 16  + 219/255 (Kr R + Kg G + Kb B),  Kr .2126, Kb .0722
 *   Cb = 128 + 224/255 (B - Y') / (2 (1 - Kb)),  Cr likewise with R and Kr,
 * each chroma sample from the mean of its 2x2 block (centre sited).
 * Coefficients are rounded to 1/65536, the chroma ones adjusted so each
 * row sums to zero (grey stays exactly 128).
 */
#define YR 11966u
#define YG 40254u
#define YB 4064u
enum { UR = -6596, UG = -22188, UB = 28784, VR = 28784, VG = -26145, VB = -2639 };

/* Does argb_to_yuv420p() do v's conversion? */
static int fast_path(const struct video *v)
{
	return v->sws && v->enc->pix_fmt == AV_PIX_FMT_YUV420P &&
	       v->enc->colorspace == AVCOL_SPC_BT709 && v->enc->color_range == AVCOL_RANGE_MPEG &&
	       v->w % 2 == 0 && v->h % 2 == 0;
}

/* Plain loops the compiler vectorises (gcc needs asking at -O2). */
#pragma GCC push_options
#pragma GCC optimize("tree-vectorize")

/* One row of luma. */
__attribute__((target_clones("avx2", "default")))
static void luma_row(uint8_t *restrict dst, const uint32_t *restrict src, int w)
{
	for (int x = 0; x < w; x++) {
		uint32_t p = src[x];
		uint32_t r = p >> 16 & 255, g = p >> 8 & 255, b = p & 255;
		dst[x] = (uint8_t)((YR * r + YG * g + YB * b + (16u << 16) + (1u << 15)) >> 16);
	}
}

/* One row of chroma from two rows of pixels. */
__attribute__((target_clones("avx2", "default")))
static void chroma_row(uint8_t *restrict u, uint8_t *restrict v, const uint32_t *restrict r0,
                       const uint32_t *restrict r1, int w)
{
	for (int x = 0; x < w / 2; x++) {
		uint32_t a = r0[2 * x], b = r0[2 * x + 1], c = r1[2 * x], d = r1[2 * x + 1];
		int32_t sr = (int32_t)((a >> 16 & 255) + (b >> 16 & 255) + (c >> 16 & 255) + (d >> 16 & 255));
		int32_t sg = (int32_t)((a >> 8 & 255) + (b >> 8 & 255) + (c >> 8 & 255) + (d >> 8 & 255));
		int32_t sb = (int32_t)((a & 255) + (b & 255) + (c & 255) + (d & 255));
		/* sums of four: the shift divides by 4 too; the offset keeps it positive */
		u[x] = (uint8_t)((UR * sr + UG * sg + UB * sb + (128 << 18) + (1 << 17)) >> 18);
		v[x] = (uint8_t)((VR * sr + VG * sg + VB * sb + (128 << 18) + (1 << 17)) >> 18);
	}
}

#pragma GCC pop_options

static void argb_to_yuv420p(AVFrame *f, const unsigned char *pixels, int stride, int w, int h)
{
	for (int y = 0; y < h; y += 2) {
		const uint32_t *r0 = (const uint32_t *)(const void *)(pixels + (size_t)y * (size_t)stride);
		const uint32_t *r1 = (const uint32_t *)(const void *)(pixels + (size_t)(y + 1) * (size_t)stride);
		uint8_t *y0 = f->data[0] + (size_t)y * (size_t)f->linesize[0];
		luma_row(y0, r0, w);
		luma_row(y0 + f->linesize[0], r1, w);
		chroma_row(f->data[1] + (size_t)(y / 2) * (size_t)f->linesize[1],
		           f->data[2] + (size_t)(y / 2) * (size_t)f->linesize[2], r0, r1, w);
	}
}

int video_picture_new(const struct video *v, struct video_picture **out)
{
	struct video_picture *p = calloc(1, sizeof(*p));
	int ret = AVERROR(ENOMEM);

	if (!p)
		return ret;
	p->w = v->w;
	p->h = v->h;
	p->frame = av_frame_alloc();
	if (!p->frame)
		goto fail;
	p->frame->format = v->frame->format;
	p->frame->width = v->w;
	p->frame->height = v->h;
	if ((ret = av_frame_get_buffer(p->frame, 0)) < 0)
		goto fail;
	if (v->sws && (ret = make_sws(v, &p->sws)) < 0)
		goto fail;
	p->fast = fast_path(v);
	*out = p;
	return 0;
fail:
	video_picture_free(p);
	return ret;
}

int video_picture_fill(struct video_picture *p, const unsigned char *pixels, int stride)
{
	const uint8_t *const src[1] = { pixels };
	const int srcstride[1] = { stride };
	int ret;

	assert(pixels && stride >= p->w * 4);
	ret = av_frame_make_writable(p->frame); /* the encoder may still hold it */
	if (ret < 0)
		return ret;
	if (!p->sws) {
		av_image_copy_plane(p->frame->data[0], p->frame->linesize[0], pixels,
		                    stride, p->w * 4, p->h);
		return 0;
	}
	if (p->fast) {
		argb_to_yuv420p(p->frame, pixels, stride, p->w, p->h);
		return 0;
	}
	ret = sws_scale(p->sws, src, srcstride, 0, p->h, p->frame->data, p->frame->linesize);
	return ret < 0 ? ret : 0;
}

int video_write_picture(struct video *v, struct video_picture *p)
{
	int ret;

	if (v->closed)
		return AVERROR(EINVAL);
	p->frame->pts = v->frames;
	if (v->sws) {
		ret = encode(v, p->frame);
	} else {
		ret = av_buffersrc_add_frame_flags(v->src, p->frame, AV_BUFFERSRC_FLAG_KEEP_REF);
		if (ret >= 0)
			ret = pull_filtered(v);
	}
	if (ret >= 0)
		v->frames++;
	return ret;
}

void video_picture_free(struct video_picture *p)
{
	if (!p)
		return;
	av_frame_free(&p->frame);
	sws_freeContext(p->sws);
	free(p);
}

int video_write_frame(struct video *v, const unsigned char *pixels, int stride)
{
	struct video_picture p = { v->frame, v->sws, v->w, v->h, fast_path(v) };

	if (v->closed)
		return AVERROR(EINVAL);
	int ret = video_picture_fill(&p, pixels, stride);
	return ret < 0 ? ret : video_write_picture(v, &p);
}

int video_close(struct video *v)
{
	int ret = 0, ret2;

	if (v->closed)
		return AVERROR(EINVAL);
	v->closed = 1;
	if (v->frames == 0) {
		ret = AVERROR(EINVAL); /* nothing to play: no file worth keeping */
		goto close;
	}
	if (v->graph) {
		ret = av_buffersrc_add_frame_flags(v->src, NULL, 0);
		if (ret >= 0)
			ret = pull_filtered(v);
	}
	if (ret >= 0)
		ret = encode(v, NULL);
	if (ret >= 0 && v->enc->codec_id == AV_CODEC_ID_GIF) {
		/* the last frame's delay, so that the delays add up to frames/fps */
		AVRational cs = { 1, 100 };
		int64_t end = av_rescale_q(v->frames, v->enc->time_base, cs);
		int64_t last = av_rescale_q(v->frames - 1, v->enc->time_base, cs);
		ret = av_opt_set_int(v->oc->priv_data, "final_delay", end - last, 0);
	}
	if (ret >= 0)
		ret = av_write_trailer(v->oc);
close:
	if (v->oc) {
		ret2 = io_free(&v->oc->pb); /* reports a failed flush: full disk */
		if (ret >= 0)
			ret = ret2;
	}
	if (v->own_fd && v->fd >= 0) {
		ret2 = close(v->fd) != 0 ? AVERROR(errno) : 0;
		v->fd = -1;
		if (ret >= 0)
			ret = ret2;
	}
	return ret < 0 ? ret : 0;
}

void video_free(struct video *v)
{
	if (!v)
		return;
	if (v->oc)
		io_free(&v->oc->pb);
	avformat_free_context(v->oc);
	if (v->own_fd && v->fd >= 0)
		close(v->fd);
	avcodec_free_context(&v->enc);
	av_packet_free(&v->pkt);
	av_frame_free(&v->frame);
	av_frame_free(&v->filtered);
	sws_freeContext(v->sws);
	avfilter_graph_free(&v->graph);
	free(v);
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

void video_list_codecs(FILE *f)
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
}

/* ---------------------------------------------------------------- FFmpeg for the others */

void video_strerror(int err, char *buf, size_t len)
{
	if (len == 0)
		return;
	if (av_strerror(err, buf, len) < 0)
		snprintf(buf, len, "error %d", err);
}

void video_quiet_logs(void)
{
	av_log_set_level(AV_LOG_QUIET);
}

int video_sha256(const void *data, size_t len, unsigned char digest[32])
{
	struct AVSHA *sha = av_sha_alloc();

	if (!sha || av_sha_init(sha, 256) < 0) {
		av_free(sha);
		return -ENOMEM;
	}
	av_sha_update(sha, data, len);
	av_sha_final(sha, digest);
	av_free(sha);
	return 0;
}

int video_describe(const char *name, int w, int h, int fps, const struct video_options *o,
                   char *buf, size_t len)
{
	struct video_options def;
	struct resolved s;
	char crf[24] = "", preset[64] = "", rate[40] = "";

	if (!o) {
		video_options_default(&def);
		o = &def;
	}
	int ret = resolve(&s, name, w, h, fps, o, 0, buf, len);
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
