/*
 * video — the encoder's lifecycle: pixel buffers in, a video file out,
 * with libavformat/libavcodec; see video.h.
 *
 * Start at video_open(): it is FFmpeg's doc/examples/mux.c lifecycle for
 * one video stream (output context, stream, encoder, avio_open, header),
 * with every return code checked and turned into a message instead of
 * exit().  codecs_resolve() (codecs.c) turns a name and struct
 * video_options into concrete settings; the bytes go through a descriptor
 * (avio_fd.c).
 *
 * Frames are converted by a video_picture, in the caller's drawing threads:
 * yuv420p by yuv_from_argb() (yuv.c: fixed point, BT.709), other formats by
 * libswscale; GIF in pal8 goes through a libavfilter graph that makes one
 * palette from the first frame (palettegen) and maps every frame onto it
 * (paletteuse).
 */
#include "video.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
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
#include <libswscale/swscale.h>

#include "avio_fd.h"
#include "codecs.h"
#include "yuv.h"

/* GIF: one palette from the first frame, no dithering (flat colours). */
static const char gif_graph[] =
	"split[a][b];"
	"[a]trim=end_frame=1,palettegen=reserve_transparent=0[p];"
	"[b][p]paletteuse=dither=none";

#define SWS_FLAGS (SWS_BICUBIC | SWS_ACCURATE_RND | SWS_BITEXACT)

/* More packets held than any encoder reorders (x264's B-pyramid: a few): an
 * encoder whose timestamps never close up is then muxed as it comes. */
#define HELD_MAX 64

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
	/* Packets out of the encoder wait here until every frame before them
	 * (in presentation order) is out too, so that whatever the muxer has
	 * is frames 0..shown-1, none missing: a stop can end the file there.
	 * The muxer gets the same packets in the same order either way. */
	AVPacket *held[HELD_MAX];
	int nheld;
	int64_t shown;              /* frames 0..shown-1 are all out of the encoder */
	int64_t kept;               /* frames 0..kept-1 are all in the muxer */
	/* video_close_stopped(): the drain runs in its own thread, so that the
	 * file can be ended at the deadline while the encoder is still busy */
	pthread_mutex_t lock;       /* the muxer and the held packets, while it runs */
	pthread_cond_t drained;
	pthread_t drainer;
	int draining;               /* the drain thread was started (not yet joined) */
	int drain_done;             /* it has finished (under lock) */
	int drain_ret;
	int abandoned;              /* the file is ended: it muxes nothing more (under lock) */
	int busy;                   /* the encoder may still be working: free it aside */
	int closed;                 /* trailer written (or failed) */
	struct avio_fd out;         /* where the bytes go; fd -1 when none */
	int own_fd;                 /* opened by video_open(): closed by video_close() */
};

static double seconds_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Hands the held packets to the muxer, in the order the encoder gave them. */
static int mux_held(struct video *v)
{
	int ret = 0;

	for (int i = 0; i < v->nheld; i++) {
		AVPacket *pkt = v->held[i];
		if (ret >= 0) {
			av_packet_rescale_ts(pkt, v->enc->time_base, v->st->time_base);
			pkt->stream_index = v->st->index;
			ret = av_interleaved_write_frame(v->oc, pkt);
			if (ret >= 0 && v->oc->pb && v->oc->pb->error < 0)
				ret = v->oc->pb->error; /* a full disk shows here first */
		}
		av_packet_free(&v->held[i]);
	}
	v->nheld = 0;
	if (ret >= 0)
		v->kept = v->shown;
	return ret;
}

/* Drops the held packets: frames the file will not have (a stop). */
static void drop_held(struct video *v)
{
	for (int i = 0; i < v->nheld; i++)
		av_packet_free(&v->held[i]);
	v->nheld = 0;
}

/* Takes v->pkt out of the encoder: held, then muxed once every earlier
 * frame is out too (at once when nothing is reordered). */
static int take_packet(struct video *v)
{
	AVPacket *pkt = av_packet_alloc();

	if (!pkt) {
		av_packet_unref(v->pkt);
		return AVERROR(ENOMEM);
	}
	av_packet_move_ref(pkt, v->pkt);
	if (pkt->duration == 0)
		pkt->duration = 1; /* one frame, in 1/fps; the muxer needs the last one */
	v->held[v->nheld++] = pkt;
	int64_t before;
	do { /* pts below `shown` are out; look for the next one among the held */
		before = v->shown;
		for (int i = 0; i < v->nheld; i++)
			if (v->held[i]->pts == v->shown)
				v->shown++;
	} while (v->shown != before);
	int all_shown = 1;
	for (int i = 0; i < v->nheld && all_shown; i++)
		all_shown = v->held[i]->pts == AV_NOPTS_VALUE || v->held[i]->pts < v->shown;
	if (all_shown || v->nheld == HELD_MAX)
		return mux_held(v);
	return 0;
}

/*
 * Sends frame (NULL: drain) and writes whatever packets come out; with a
 * deadline (CLOCK_MONOTONIC seconds, > 0) no packet is asked for after it.
 */
static int encode_until(struct video *v, AVFrame *frame, double deadline)
{
	int ret = avcodec_send_frame(v->enc, frame);

	while (ret >= 0) {
		if (deadline > 0 && seconds_now() >= deadline)
			return 0;
		ret = avcodec_receive_packet(v->enc, v->pkt);
		if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
			return 0;
		if (ret < 0)
			break;
		ret = take_packet(v);
	}
	return ret;
}

/* Sends frame (NULL: drain) and writes whatever packets come out. */
static int encode(struct video *v, AVFrame *frame)
{
	return encode_until(v, frame, 0);
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
	return codecs_fail(err, errlen, ret, "cannot set up the GIF palette filters: %s",
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
		return codecs_fail(err, errlen, ret, "cannot set up %s output: %s", s->ofmt->name,
		                   av_err2str(ret));
	/* no muxer version, fixed UIDs; our descriptor, never a name */
	v->oc->flags |= AVFMT_FLAG_BITEXACT | AVFMT_FLAG_CUSTOM_IO;
	v->oc->opaque = &v->out;
	v->oc->io_open = avio_fd_io_open;
	v->oc->io_close2 = avio_fd_io_close2;
	v->st = avformat_new_stream(v->oc, NULL);
	v->enc = avcodec_alloc_context3(s->codec);
	v->pkt = av_packet_alloc();
	v->frame = av_frame_alloc();
	v->filtered = av_frame_alloc();
	if (!v->st || !v->enc || !v->pkt || !v->frame || !v->filtered)
		return codecs_fail(err, errlen, AVERROR(ENOMEM), "out of memory");
	return 0;
}

/* The encoder's size, rate and colour tags: BT.709 limited range for YUV. */
static void set_encoder(struct video *v, const struct resolved *s, int w, int h, struct rate fps,
                        const struct video_options *o)
{
	const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(s->pix_fmt);

	v->enc->width = w;
	v->enc->height = h;
	/* codecs_resolve() held num and den to 1..FPS_MAX x den, den to 1..1e6 */
	v->enc->time_base = (AVRational){ (int)fps.den, (int)fps.num };
	v->enc->framerate = (AVRational){ (int)fps.num, (int)fps.den };
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



/* mux.c's open_video: opens the encoder (every option must be taken) and
 * copies its parameters to the stream. */
static int open_codec(struct video *v, const struct resolved *s, const struct video_options *o,
                      char *err, size_t errlen)
{
	AVDictionary *opts = NULL;
	const AVDictionaryEntry *left;
	char line[256];
	int ret = codecs_encoder_options(&opts, s, o);

	if (ret < 0) {
		codecs_fail(err, errlen, ret, "out of memory");
		goto fail;
	}
	dict_line(line, sizeof line, opts);
	ret = avcodec_open2(v->enc, s->codec, &opts);
	if (ret < 0) {
		codecs_fail(err, errlen, ret, "cannot open encoder %s (%s): %s", s->codec->name,
		            line, av_err2str(ret));
		goto fail;
	}
	left = av_dict_get(opts, "", NULL, AV_DICT_IGNORE_SUFFIX);
	if (left) {
		ret = codecs_fail(err, errlen, AVERROR_OPTION_NOT_FOUND,
		                  "encoder %s does not take option '%s' (= '%s')",
		                  s->codec->name, left->key, left->value);
		goto fail;
	}
	ret = avcodec_parameters_from_context(v->st->codecpar, v->enc);
	if (ret < 0) {
		codecs_fail(err, errlen, ret, "cannot set up the stream: %s", av_err2str(ret));
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
		return codecs_fail(err, errlen, ret, "out of memory");
	if (s->pix_fmt == AV_PIX_FMT_PAL8)
		return open_graph(v, err, errlen);
	ret = make_sws(v, &v->sws);
	if (ret < 0)
		return codecs_fail(err, errlen, ret, "libswscale cannot convert to %s%s",
		                   av_pix_fmt_desc_get(s->pix_fmt)->name,
		                   v->enc->colorspace == AVCOL_SPC_BT709 ? " in BT.709" : "");
	return 0;
}

/* mux.c's avio_open + avformat_write_header, on our descriptor. */
static int open_output(struct video *v, const struct resolved *s, char *err, size_t errlen)
{
	AVDictionary *muxopts = NULL;
	const AVDictionaryEntry *left;
	int ret = avio_fd_writer(&v->oc->pb, &v->out);

	if (ret < 0)
		return codecs_fail(err, errlen, ret, "out of memory");
	ret = av_dict_parse_string(&muxopts, s->ct->muxopts ? s->ct->muxopts : "",
	                           "=", ":", 0);
	if (ret >= 0)
		ret = avformat_write_header(v->oc, &muxopts);
	if (ret < 0) {
		codecs_fail(err, errlen, ret, "cannot write the %s header: %s",
		            s->ofmt->name, av_err2str(ret));
	} else if ((left = av_dict_get(muxopts, "", NULL, AV_DICT_IGNORE_SUFFIX))) {
		ret = codecs_fail(err, errlen, AVERROR_OPTION_NOT_FOUND,
		                  "muxer %s does not take option '%s'", s->ofmt->name, left->key);
	}
	av_dict_free(&muxopts);
	return ret < 0 ? ret : 0;
}

static int open_fd(struct video **out, int fd, int own, const char *name,
                   int w, int h, struct rate fps, const struct video_options *o,
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
	ret = codecs_resolve(&s, name, w, h, fps, o, 0, err, errlen);
	v = ret < 0 ? NULL : calloc(1, sizeof *v);
	if (!v) {
		if (own)
			close(fd);
		return ret < 0 ? ret : codecs_fail(err, errlen, AVERROR(ENOMEM), "out of memory");
	}
	v->w = w;
	v->h = h;
	v->out.fd = fd;
	v->own_fd = own;
	v->out.seekable = strcmp(name, "-") != 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	if (s.ct->needs_file && !v->out.seekable) {
		ret = codecs_fail(err, errlen, AVERROR(EINVAL), "%s needs a regular file (it seeks and "
		                  "reads back); use .mkv, .webm, .gif or .y4m for a pipe or device",
		                  s.ct->ext);
		goto fail;
	}
	if ((ret = add_stream(v, &s, err, errlen)) < 0)
		goto fail;
	set_encoder(v, &s, w, h, fps, o);
	if (strcmp(s.codec->name, "libsvtav1") == 0)
		setenv("SVT_LOG", "1", 0); /* SVT-AV1 logs to stderr past av_log: its errors only */
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
                  int w, int h, struct rate fps, const struct video_options *o,
                  char *err, size_t errlen)
{
	return open_fd(out, fd, 0, name, w, h, fps, o, err, errlen);
}

int video_open(struct video **out, const char *path, const char *name,
               int w, int h, struct rate fps, const struct video_options *o,
               char *err, size_t errlen)
{
	int fd = STDOUT_FILENO;

	*out = NULL;
	if (strcmp(path, "-") != 0) {
		/* read too: mp4's second pass reads the file back */
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0666);
		if (fd < 0)
			return codecs_fail(err, errlen, AVERROR(errno), "cannot open '%s': %s", path,
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

/* Does yuv_from_argb() do v's conversion (yuv420p BT.709 limited range, even sizes)? */
static int fast_path(const struct video *v)
{
	return v->sws && v->enc->pix_fmt == AV_PIX_FMT_YUV420P &&
	       v->enc->colorspace == AVCOL_SPC_BT709 && v->enc->color_range == AVCOL_RANGE_MPEG &&
	       v->w % 2 == 0 && v->h % 2 == 0;
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
		yuv_from_argb(p->frame->data, p->frame->linesize, pixels, stride, p->w, p->h);
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

/* The trailer, then the descriptor flushed and closed; ret is the status so far. */
static int end_file(struct video *v, int ret)
{
	int ret2;

	if (ret >= 0 && v->enc->codec_id == AV_CODEC_ID_GIF) {
		/* the last frame's delay, so that the delays add up to frames/fps */
		AVRational cs = { 1, 100 };
		int64_t end = av_rescale_q(v->kept, v->enc->time_base, cs);
		int64_t last = av_rescale_q(v->kept - 1, v->enc->time_base, cs);
		ret = av_opt_set_int(v->oc->priv_data, "final_delay", end - last, 0);
	}
	if (ret >= 0)
		ret = av_write_trailer(v->oc);
	if (v->oc) {
		ret2 = avio_fd_free(&v->oc->pb); /* reports a failed flush: full disk */
		if (ret >= 0)
			ret = ret2;
	}
	if (v->own_fd && v->out.fd >= 0) {
		ret2 = close(v->out.fd) != 0 ? AVERROR(errno) : 0;
		v->out.fd = -1;
		if (ret >= 0)
			ret = ret2;
	}
	return ret < 0 ? ret : 0;
}

int video_close(struct video *v)
{
	int ret = 0;

	if (v->closed)
		return AVERROR(EINVAL);
	v->closed = 1;
	if (v->frames == 0)
		return end_file(v, AVERROR(EINVAL)); /* nothing to play: no file worth keeping */
	if (v->graph) {
		ret = av_buffersrc_add_frame_flags(v->src, NULL, 0);
		if (ret >= 0)
			ret = pull_filtered(v);
	}
	if (ret >= 0)
		ret = encode(v, NULL);
	if (ret >= 0)
		ret = mux_held(v); /* none left after a whole drain; an odd encoder's, in order */
	return end_file(v, ret);
}

/* The drain of a stopped video, in its own thread: packets are muxed
 * until the encoder is empty or the file was ended meanwhile. */
static void *drain(void *arg)
{
	struct video *v = arg;
	int ret = avcodec_send_frame(v->enc, NULL);

	while (ret >= 0) {
		ret = avcodec_receive_packet(v->enc, v->pkt); /* x264: a whole look-ahead at 4K can be seconds */
		if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) {
			ret = 0;
			break;
		}
		if (ret < 0)
			break;
		pthread_mutex_lock(&v->lock);
		if (v->abandoned) {
			pthread_mutex_unlock(&v->lock);
			av_packet_unref(v->pkt);
			break;
		}
		ret = take_packet(v);
		pthread_mutex_unlock(&v->lock);
	}
	pthread_mutex_lock(&v->lock);
	v->drain_done = 1;
	v->drain_ret = ret;
	pthread_cond_signal(&v->drained);
	pthread_mutex_unlock(&v->lock);
	return NULL;
}

/* Starts drain() with every signal blocked in it (they are the caller's). */
static int start_drain(struct video *v)
{
	pthread_condattr_t ca;
	sigset_t all, old;

	if (pthread_condattr_init(&ca) != 0)
		return AVERROR(ENOMEM);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	int e = pthread_cond_init(&v->drained, &ca);
	pthread_condattr_destroy(&ca);
	if (e)
		return AVERROR(e);
	if ((e = pthread_mutex_init(&v->lock, NULL)) != 0) {
		pthread_cond_destroy(&v->drained);
		return AVERROR(e);
	}
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	e = pthread_create(&v->drainer, NULL, drain, v);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		pthread_mutex_destroy(&v->lock);
		pthread_cond_destroy(&v->drained);
		return AVERROR(e);
	}
	v->draining = 1;
	return 0;
}

/* Waits for the drain until `deadline`; the file is then ended: nothing more is muxed. */
static int await_drain(struct video *v, double deadline)
{
	double whole = floor(deadline);
	struct timespec until = { (time_t)whole, (long)((deadline - whole) * 1e9) };
	int ret = 0;

	pthread_mutex_lock(&v->lock);
	while (!v->drain_done &&
	       pthread_cond_timedwait(&v->drained, &v->lock, &until) != ETIMEDOUT)
		;
	v->abandoned = 1;
	if (v->drain_done)
		ret = v->drain_ret;
	else
		v->busy = 1; /* still in the encoder: it is left to the process's exit */
	pthread_mutex_unlock(&v->lock);
	if (!v->busy) {
		pthread_join(v->drainer, NULL);
		v->draining = 0;
	}
	return ret;
}

int video_close_stopped(struct video *v, double seconds, long *kept)
{
	int ret = 0;

	*kept = 0;
	if (v->closed)
		return AVERROR(EINVAL);
	v->closed = 1;
	v->busy = 1; /* frames may be in the encoder's threads: not freed in line */
	double deadline = seconds_now() + (seconds > 0 ? seconds : 0);
	if (v->frames > 0 && v->graph) { /* GIF: the palette graph holds no frame for long */
		ret = av_buffersrc_add_frame_flags(v->src, NULL, 0);
		if (ret >= 0)
			ret = pull_filtered(v);
	}
	if (v->frames > 0 && ret >= 0 && seconds > 0 && (ret = start_drain(v)) == 0) {
		v->busy = 0;
		ret = await_drain(v, deadline);
	}
	drop_held(v); /* frames out of order past a gap: the file ends before it */
	*kept = (long)v->kept;
	if (ret >= 0 && v->kept == 0)
		ret = AVERROR(EINVAL); /* nothing to play: no file worth keeping */
	/* mp4, mov: the moov atom at the end, as written (faststart would move
	 * it first by rewriting the whole file); other muxers have no such flag */
	if (ret >= 0)
		(void)av_opt_set(v->oc->priv_data, "movflags", "-faststart", 0);
	return end_file(v, ret);
}

static void free_now(struct video *v)
{
	if (v->draining) {
		pthread_join(v->drainer, NULL);
		pthread_mutex_destroy(&v->lock);
		pthread_cond_destroy(&v->drained);
	}
	if (v->oc)
		avio_fd_free(&v->oc->pb);
	avformat_free_context(v->oc);
	if (v->own_fd && v->out.fd >= 0)
		close(v->out.fd);
	avcodec_free_context(&v->enc); /* x264: waits for the frames its threads encode */
	av_packet_free(&v->pkt);
	drop_held(v);
	av_frame_free(&v->frame);
	av_frame_free(&v->filtered);
	sws_freeContext(v->sws);
	avfilter_graph_free(&v->graph);
	free(v);
}

static void *free_aside(void *arg)
{
	free_now(arg);
	return NULL;
}

void video_free(struct video *v)
{
	if (!v)
		return;
	if (v->busy) {
		/* stopped while the encoder works (x264's frame threads: up to a
		 * second at 4K): freed in a thread of its own, or by the exit */
		pthread_t t;
		sigset_t all, old;
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		int e = pthread_create(&t, NULL, free_aside, v);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (e == 0) {
			pthread_detach(t);
			return;
		}
	}
	free_now(v);
}

/* ---------------------------------------------------------------- FFmpeg for the others */

/* ------------------------------------------------- checks and lists (codecs.c) */

int video_path_supported(const char *path)
{
	return codecs_path_supported(path);
}

int video_needs_file(const char *path)
{
	return codecs_needs_file(path);
}

const char *video_extensions(void)
{
	return codecs_extensions();
}

int video_check(const char *path, int w, int h, struct rate fps,
                const struct video_options *o, char *err, size_t errlen)
{
	return codecs_check(path, w, h, fps, o, err, errlen);
}

void video_list_codecs(FILE *f)
{
	codecs_list(f);
}

void video_print_versions(FILE *f)
{
	codecs_print_versions(f);
}

int video_describe(const char *name, int w, int h, struct rate fps, const struct video_options *o,
                   char *buf, size_t len)
{
	return codecs_describe(name, w, h, fps, o, buf, len);
}

int video_ready(char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	return 0; /* linked in */
}

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
