/*
 * codecs — private to the video module (video.c, codecs.c): the tables
 * that hold every encoding default, what a name and struct video_options
 * (include/video_options.h) resolve to, and the checks and lists video.h's
 * functions give (video.c calls them: codecs.c is below it).  FFmpeg types
 * throughout; nothing outside the video plugin includes this.
 */
#ifndef BOIDS_CODECS_H
#define BOIDS_CODECS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>

#include "rate.h"
#include "video_options.h"

struct container {
	const char *ext;      /* matched case-insensitively; "-" is standard output */
	const char *format;   /* libavformat muxer */
	const char *codec;    /* default encoder */
	const char *pix_fmt;  /* default pixel format */
	const char *muxopts;  /* muxer options, "key=value:key=value" */
	int needs_file;       /* seeks and reads back (moov, faststart): a regular file only */
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

/* Writes the message to err (if any, at most len bytes) and returns code. */
int codecs_fail(char *err, size_t len, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Fills s from name and o.  strict: also check what only matters to the
 * user (ranges, presets, even sizes, whether the muxer takes the stream);
 * video_open() passes 0 so that the encoder itself rejects what it does not
 * take.  Returns 0, or a negative code with a one-line message in err.
 */
int codecs_resolve(struct resolved *s, const char *name, int w, int h, struct rate fps,
                   const struct video_options *o, int strict, char *err, size_t errlen);

/* video.h's functions of the same names (video_path_supported(), ...): see there. */
int codecs_path_supported(const char *path);
int codecs_needs_file(const char *path);
const char *codecs_extensions(void);
int codecs_check(const char *path, int w, int h, struct rate fps, const struct video_options *o,
                 char *err, size_t errlen);
void codecs_list(FILE *f);
void codecs_print_versions(FILE *f);
int codecs_describe(const char *name, int w, int h, struct rate fps, const struct video_options *o,
                    char *buf, size_t len);

/*
 * The encoder's options into *opts (the caller frees it with av_dict_free):
 * threads, crf, preset, bitrate and the tables' extras.  Returns 0 or an
 * AVERROR.
 */
int codecs_encoder_options(AVDictionary **opts, const struct resolved *s,
                           const struct video_options *o);

#endif
