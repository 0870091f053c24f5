/*
 * video — encodes a sequence of pixel buffers with libavformat/libavcodec.
 *
 * Input pixels: Cairo ARGB32 (native-endian 0xAARRGGBB words, which is
 * FFmpeg's AV_PIX_FMT_RGB32 on either endianness), converted by libswscale
 * to the encoder's pixel format.
 *
 * Containers by extension of the name given to video_open():
 *   .mp4 .mov .mkv  H.264 (libx264), yuv420p, CRF 23; +faststart for mp4/mov
 *   .webm           VP9 (libvpx-vp9)
 *   .gif            GIF, looping forever, with a palette that fits the picture
 *   .y4m            raw YUV4MPEG;  "-" as the path: y4m on standard output
 *
 * Lifecycle (FFmpeg's doc/examples/mux.c): video_check() before any work,
 * video_open() -> video_write_frame() per frame -> video_close(), then
 * video_free().  Frame k gets pts k in time base 1/fps.
 * Errors are negative AVERROR codes (which include -errno); messages for
 * usage errors come back in the caller's buffer, never printed.
 */
#ifndef BOIDS_VIDEO_H
#define BOIDS_VIDEO_H

#include <stddef.h>

struct video_options {
	const char *codec;    /* encoder name; NULL: the container's default */
	int crf;              /* constant rate factor; -1: the default */
	const char *preset;   /* encoder preset; NULL: the default */
	const char *bitrate;  /* e.g. "2M"; NULL: quality mode (crf) */
	const char *pix_fmt;  /* e.g. "yuv444p"; NULL: the default */
	int gop;              /* keyframe interval in frames; 0: the default */
};

struct video;

/* Options all at their defaults. */
void video_options_default(struct video_options *o);

/* Is this a name video_open() takes ("-" included)?  1 or 0. */
int video_path_supported(const char *path);

/* The supported extensions, for messages: ".mp4, .mov, ...". */
const char *video_extensions(void);

/*
 * Validates everything a user can get wrong before any work: the extension,
 * the encoder name, the pixel format, even sizes where the pixel format
 * needs them (the message suggests the nearest even size), CRF range,
 * preset and bitrate syntax.  Returns 0, or -EINVAL with a one-line message
 * (no "boids:" prefix, no newline) in err.
 */
int video_check(const char *path, int w, int h, int fps,
                const struct video_options *o, char *err, size_t errlen);

/*
 * Opens an encoder writing to `path` ("-": standard output) in the container
 * chosen from the extension of `name` (usually the same as path; a
 * temporary file passes its final name here).  Returns 0 or a negative
 * AVERROR; err gets a one-line cause.
 */
int video_open(struct video **out, const char *path, const char *name,
               int w, int h, int fps, const struct video_options *o,
               char *err, size_t errlen);

/* Encodes one frame.  Returns 0 or a negative AVERROR. */
int video_write_frame(struct video *v, const unsigned char *pixels, int stride);

/* Drains the encoder, writes the trailer, closes the output. */
int video_close(struct video *v);

/* Frees everything; video_free(NULL) does nothing. */
void video_free(struct video *v);

#endif
