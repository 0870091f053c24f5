/*
 * video — encodes a sequence of pixel buffers with libavformat/libavcodec.
 *
 * Input pixels: Cairo ARGB32 (native-endian 0xAARRGGBB words, which is
 * FFmpeg's AV_PIX_FMT_RGB32 on either endianness).  yuv420p, the default of
 * every YUV container, comes from our own fixed-point converter: BT.709,
 * limited range, chroma from the mean of each 2x2 block, integer arithmetic
 * only (the same bytes on every machine, several times faster than
 * libswscale's bit-exact mode).  Other pixel formats go through libswscale
 * with SWS_BICUBIC | SWS_ACCURATE_RND | SWS_BITEXACT, BT.709 limited range
 * for YUV.  Everything is tagged BT.709 (primaries, transfer, matrix), y4m
 * included though its header cannot say it.  Alpha is ignored: pixels must
 * be opaque.
 *
 * Containers by extension of the name given to video_open():
 *   .mp4 .mov .mkv  H.264 (libx264), yuv420p, CRF 23, preset veryfast;
 *                   +faststart for mp4/mov
 *   .webm           VP9 (libvpx-vp9), yuv420p, CRF 32 constant quality,
 *                   deadline realtime, cpu-used 6, row-mt
 *   .gif            GIF looping forever (NETSCAPE2.0, loop count 0), pal8:
 *                   one 256-colour palette made from the first frame
 *                   (libavfilter palettegen), every frame mapped onto it
 *                   without dithering (paletteuse).  Exact when the colours
 *                   are at most 256 and all in the first frame; a colour
 *                   that shows up later gets the nearest one.  Frame k starts
 *                   at round(100k/fps) in 1/100 s, so 30 fps gives delays
 *                   3,4,3,3,4,3,... adding up to frames/fps; fps 1..50 only.
 *   .y4m            raw YUV4MPEG (yuv420p; FFmpeg's wrapped_avframe encoder);
 *                   "-" as the path: y4m on standard output
 * The extension is matched without regard to case.
 *
 * Reproducible: the same frames and options give the same bytes, run after
 * run (bit-exact muxer and encoder flags, no dates, no random UIDs).  With
 * threads = 0 the x264 and libvpx output depends on the machine's core count
 * (as with ffmpeg); the default is a fixed count: the same bytes on every machine.
 *
 * Lifecycle (FFmpeg's doc/examples/mux.c): video_check() before any work,
 * video_open() -> video_write_frame() per frame -> video_close(), then
 * video_free().  Frame k gets pts k in time base fps.den/fps.num (1/fps for
 * a whole rate): the `fps` arguments below are the rate as a fraction
 * (rate.h), 30000/1001 for NTSC.
 * Errors are negative AVERROR codes (which include -errno); messages for
 * usage errors come back in the caller's buffer, never printed.  FFmpeg's
 * own log is the caller's to quieten (video_quiet_logs()); libx264 prints a
 * few errors (an unknown preset) to stderr by itself.
 *
 * This is the only module that includes FFmpeg's headers (video.c, codecs.c,
 * avio_fd.c): what the others need of FFmpeg (an error code's text, a quiet
 * log) is here.
 */
#ifndef BOIDS_VIDEO_H
#define BOIDS_VIDEO_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "rate.h"
#include "video_options.h"

struct video;


/*
 * Can these functions be called?  0, or -1 with one line in err (lowercase,
 * no period) saying why not.  In the boids binary the module is a plugin
 * (include/video_plugin.h): this loads it, and err names the file tried
 * and the loader's reason; linked in (the test binaries), it is always 0.
 * Ask it before any other call but video_strerror() and
 * video_quiet_logs(): without the plugin the others fail (-ELIBACC, or 0,
 * "" and nothing for those that return no code).
 */
int video_ready(char *err, size_t errlen);

/* Is this a name video_open() takes ("-" included)?  1 or 0. */
int video_path_supported(const char *path);

/* Does the container of this name need a regular file (mp4, mov)?  1 or 0. */
int video_needs_file(const char *path);

/*
 * Writes --list-codecs: for each container boids writes, the encoders this
 * libavcodec has that its muxer takes (software ones; hardware encoders need
 * devices boids does not set up), the default marked with '*'.
 */
void video_list_codecs(FILE *f);

/*
 * Writes --version's lines of the video libraries: FFmpeg's release, then
 * libavformat, libavcodec, libavutil, libswscale and libavfilter as found
 * at run time (and the version built with), then the encoders' libraries
 * libavcodec loaded (x264, x265, libvpx, SVT-AV1, libaom) with their
 * versions.
 */
void video_print_versions(FILE *f);

/* The supported extensions, for messages: ".mp4, .mov, ...". */
const char *video_extensions(void);

/*
 * Validates everything a user can get wrong before any work: the extension,
 * the encoder name, the pixel format, even sizes where the pixel format
 * needs them (the message suggests the nearest even size), the largest
 * picture the encoder takes (libavcodec: (8 w + 1024)(h + 128) < 2^31, so
 * 16384 wide is at most 16129 high; VP8: 16383x16383), CRF range, preset and
 * bitrate syntax, and whether the muxer takes the stream (it is started on
 * a sink: mov refuses VP9, for one).  Returns 0, or -EINVAL with a one-line message
 * (no "boids:" prefix, no newline) in err.  o may be NULL (defaults).
 */
int video_check(const char *path, int w, int h, struct rate fps,
                const struct video_options *o, char *err, size_t errlen);

/*
 * Opens an encoder writing to the open descriptor fd in the container chosen
 * from the extension of `name` ("-": y4m).  libavformat never sees a file
 * name: the bytes go through an AVIOContext on fd (seekable when fd is a
 * regular file; mp4 and mov need one, and fd open for reading too, for the
 * faststart pass).  fd stays the caller's: video_close() flushes but does
 * not close it.  Does not repeat video_check()'s range checks: what the
 * encoder or muxer does not take (an unknown preset, an option the encoder
 * ignores) fails here instead, never silently.  Returns 0 or a negative
 * AVERROR; err gets a one-line cause.  On failure nothing needs freeing.
 */
int video_open_fd(struct video **out, int fd, const char *name,
                  int w, int h, struct rate fps, const struct video_options *o,
                  char *err, size_t errlen);

/*
 * video_open_fd() on `path` opened (created, truncated) as a plain file —
 * any legal name, "pipe:x" and "a:b.mp4" included, is a file; only "-" is
 * standard output.  The container comes from `name` (NULL: path); the
 * descriptor is closed by video_close().
 */
int video_open(struct video **out, const char *path, const char *name,
               int w, int h, struct rate fps, const struct video_options *o,
               char *err, size_t errlen);

/*
 * Encodes one frame of w x h ARGB32 pixels, rows stride bytes apart; the
 * buffer may be reused as soon as this returns.  Returns 0 or a negative
 * AVERROR (a write error such as a full disk shows here or at close).
 */
int video_write_frame(struct video *v, const unsigned char *pixels, int stride);

/*
 * Pictures split a frame's conversion from its encoding, so that pipeline
 * threads can convert frames in parallel while one thread encodes in order:
 * video_picture_fill() may run in any thread (one picture per thread at a
 * time), video_write_picture() in the encoding thread, in frame order.
 * video_write_frame() is fill + write in one call.
 */
struct video_picture;

/* A picture for v's encoder.  Returns 0 or a negative AVERROR. */
int video_picture_new(const struct video *v, struct video_picture **out);

/* Converts Cairo ARGB32 pixels into the picture.  Returns 0 or an AVERROR. */
int video_picture_fill(struct video_picture *p, const unsigned char *pixels, int stride);

/* Encodes a filled picture as the next frame.  Returns 0 or an AVERROR. */
int video_write_picture(struct video *v, struct video_picture *p);

/* Frees a picture; video_picture_free(NULL) does nothing. */
void video_picture_free(struct video_picture *p);

/*
 * Drains the encoder, writes the trailer, closes the output (checking the
 * final flush).  Returns 0 or a negative AVERROR; AVERROR(EINVAL) when no
 * frame was written (the output is then not a playable file).  Call once;
 * video_free() is still needed afterwards.
 */
int video_close(struct video *v);

/*
 * video_close() after a stop request, bounded in time: no frame is drawn
 * into the encoder any more; the frames it still holds (x264's look-ahead:
 * dozens) are drained for at most `seconds` (0: not at all), and the file
 * ends with frames 0..*kept-1, every one of them (packets out of the
 * encoder after a gap in presentation order are dropped); mp4 and mov keep
 * their moov atom at the end (no faststart pass, which rewrites the whole
 * file).  The file plays.  Returns 0 or a negative AVERROR;
 * AVERROR(EINVAL) when no frame got into the file (*kept 0: not a playable
 * file).  Call once, instead of video_close(); video_free() is still needed.
 */
int video_close_stopped(struct video *v, double seconds, long *kept);

/* Frees everything; video_free(NULL) does nothing. */
void video_free(struct video *v);

/*
 * The text of a negative errno or AVERROR code ("No space left on device",
 * "Invalid data found when processing input") in buf, always terminated.
 */
void video_strerror(int err, char *buf, size_t len);

/* Silences FFmpeg's own log: failures come back as codes, the caller reports them. */
void video_quiet_logs(void);

/* What video_open() would choose for this name and options, for --verbose:
 * "mp4 (libx264, yuv420p, crf 23, preset veryfast)".  Returns 0, or -EINVAL
 * (the message in buf) when video_check() would refuse them. */
int video_describe(const char *name, int w, int h, struct rate fps, const struct video_options *o,
                   char *buf, size_t len);

#endif
