/*
 * video_options — what a video is encoded with: the options a run gives
 * the video module (encoder, quality, crf, preset, bitrate, pixel format,
 * keyframes, threads) and their defaults.  The video module (video.h, a
 * plugin) takes them, and src/codecs.c resolves them against its tables of
 * containers and encoders.  Types only, and an inline default: a run that
 * writes no video never loads the module.
 */
#ifndef BOIDS_VIDEO_OPTIONS_H
#define BOIDS_VIDEO_OPTIONS_H

#include <string.h>

/*
 * Quality presets: the defaults of crf, preset, pixel format and encoder
 * options that the user did not set, per encoder (libx264, libx265,
 * libvpx-vp9; the others have one quality).  WEB is the plain default.
 */
enum video_quality {
	VIDEO_QUALITY_WEB,     /* the defaults: small files that play in browsers */
	VIDEO_QUALITY_DRAFT,   /* crf +5 (VP9 +6, its fastest speed); the command line also halves the picture */
	VIDEO_QUALITY_HIGH,    /* slower preset, crf -5 (VP9 -8): fewer artefacts */
	VIDEO_QUALITY_ARCHIVE, /* lossless, 4:4:4: the frames as drawn, large files */
};

struct video_options {
	const char *codec;    /* encoder name; NULL: the container's default */
	enum video_quality quality; /* defaults for what is not set below (WEB) */
	int crf;              /* constant rate factor; -1: the default */
	const char *preset;   /* encoder preset; NULL: the default */
	const char *bitrate;  /* e.g. "2M"; NULL: quality mode (crf) */
	const char *pix_fmt;  /* e.g. "yuv444p"; NULL: the default */
	int gop;              /* keyframe interval in frames; 0: the encoder's default */
	int threads;          /* encoder threads 0..64; 0: auto (as ffmpeg does) */
};

/* Options all at their defaults.  (Inline: a run that writes no video
 * never loads the video module.) */
static inline void video_options_default(struct video_options *o)
{
	memset(o, 0, sizeof *o);
	o->crf = -1;
	o->threads = 4; /* the same bytes on every machine (0, auto, depends on its cores) */
}

#endif
