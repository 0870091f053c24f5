/*
 * video_plugin — the one table through which the boids binary reaches the
 * video module, built as a plugin of its own (boids-video.so, linked with
 * FFmpeg's libraries) and loaded with dlopen() only by a run that needs it:
 * a video output, --list-codecs.  Everything else (a --no-render run, PNG
 * frames, --print-config) never maps libavformat and its ~130 libraries.
 *
 * The plugin exports one symbol, VIDEO_PLUGIN_SYMBOL, a struct video_plugin
 * whose entries are video.h's functions; src/video_load.c defines video.h's
 * functions in the binary by calling through it.  The test binaries link the
 * video module directly instead.
 *
 * Where the plugin is looked for, and what it must be to be loaded:
 * include/plugin.h.
 */
#ifndef BOIDS_VIDEO_PLUGIN_H
#define BOIDS_VIDEO_PLUGIN_H

#include <stddef.h>
#include <stdio.h>

#include "plugin.h"
#include "video.h"

#define VIDEO_PLUGIN_FILE   "boids-video.so"
#define VIDEO_PLUGIN_SYMBOL "boids_video_plugin"
/* Bumped when the table or video.h's types change: a binary and a plugin
 * from different builds refuse each other instead of crashing. */
#define VIDEO_PLUGIN_ABI    5 /* 2: video_options.fps_den, print_versions; 3: close_stopped;
                                * 4: struct plugin_head; 5: the rate a struct rate */

struct video_plugin {
	struct plugin_head head; /* VIDEO_PLUGIN_ABI and the size of the build that made it */
	int (*path_supported)(const char *path);
	int (*needs_file)(const char *path);
	void (*list_codecs)(FILE *f);
	const char *(*extensions)(void);
	int (*check)(const char *path, int w, int h, struct rate fps, const struct video_options *o,
	             char *err, size_t errlen);
	int (*open_fd)(struct video **out, int fd, const char *name, int w, int h, struct rate fps,
	               const struct video_options *o, char *err, size_t errlen);
	int (*open)(struct video **out, const char *path, const char *name, int w, int h,
	            struct rate fps, const struct video_options *o, char *err, size_t errlen);
	int (*write_frame)(struct video *v, const unsigned char *pixels, int stride);
	int (*picture_new)(const struct video *v, struct video_picture **out);
	int (*picture_fill)(struct video_picture *p, const unsigned char *pixels, int stride);
	int (*write_picture)(struct video *v, struct video_picture *p);
	void (*picture_free)(struct video_picture *p);
	int (*close)(struct video *v);
	void (*free)(struct video *v);
	void (*strerror)(int err, char *buf, size_t len);
	void (*quiet_logs)(void);
	int (*describe)(const char *name, int w, int h, struct rate fps, const struct video_options *o,
	                char *buf, size_t len);
	void (*print_versions)(FILE *f);
	int (*close_stopped)(struct video *v, double seconds, long *kept);
};

#endif
