/*
 * video_load — video.h's functions in the boids binary: each loads the
 * video plugin (boids-video.so, FFmpeg's libraries with it) on first use
 * and calls through its table; see include/video_plugin.h.
 *
 * A run that writes no video never calls them, so it never maps
 * libavformat: a --no-render process starts in a fraction of the time.
 * video_strerror() and video_quiet_logs() do not load it (errno texts come
 * from the C library until FFmpeg is there; the quiet log is applied when it
 * loads).
 *
 * Nothing here prints or exits: the outputs' checks call video_ready()
 * before any other video call (main before --list-codecs), and report a
 * plugin that is missing or from another build before any file exists; a
 * call that finds no plugin (a path that did not ask first) fails with
 * -ELIBACC.
 */
#include "video_plugin.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"

static int quiet;                     /* video_quiet_logs() was asked for */

static void loaded(const void *table)
{
	if (quiet)
		((const struct video_plugin *)table)->quiet_logs();
}

static struct plugin slot = PLUGIN_INIT(VIDEO_PLUGIN_FILE, VIDEO_PLUGIN_SYMBOL, "video", VIDEO_PLUGIN_ABI,
                                        sizeof(struct video_plugin), 0, loaded);

int video_ready(char *err, size_t errlen)
{
	return plugin_table(&slot, err, errlen) ? 0 : -1;
}

/* The plugin's table, loaded on first use (include/plugin.h says where and
 * how; the first call is main's, before any thread), or NULL: then the
 * calls fail. */
static const struct video_plugin *video(void)
{
	return plugin_table(&slot, NULL, 0);
}

int video_path_supported(const char *path)
{
	return video() ? video()->path_supported(path) : 0;
}

int video_needs_file(const char *path)
{
	return video() ? video()->needs_file(path) : 0;
}

void video_list_codecs(FILE *f)
{
	if (video())
		video()->list_codecs(f);
}

const char *video_extensions(void)
{
	return video() ? video()->extensions() : "";
}

/* No plugin: what the calls that take a message buffer say. */
static int missing(char *err, size_t errlen)
{
	plugin_table(&slot, err, errlen); /* its reason */
	return -ELIBACC;
}

int video_check(const char *path, int w, int h, struct rate fps,
                const struct video_options *o, char *err, size_t errlen)
{
	return video() ? video()->check(path, w, h, fps, o, err, errlen) : missing(err, errlen);
}

int video_open_fd(struct video **out, int fd, const char *name,
                  int w, int h, struct rate fps, const struct video_options *o,
                  char *err, size_t errlen)
{
	*out = NULL;
	return video() ? video()->open_fd(out, fd, name, w, h, fps, o, err, errlen) : missing(err, errlen);
}

int video_open(struct video **out, const char *path, const char *name,
               int w, int h, struct rate fps, const struct video_options *o,
               char *err, size_t errlen)
{
	*out = NULL;
	return video() ? video()->open(out, path, name, w, h, fps, o, err, errlen) : missing(err, errlen);
}

int video_write_frame(struct video *v, const unsigned char *pixels, int stride)
{
	return video() ? video()->write_frame(v, pixels, stride) : -ELIBACC;
}

int video_picture_new(const struct video *v, struct video_picture **out)
{
	*out = NULL;
	return video() ? video()->picture_new(v, out) : -ELIBACC;
}

int video_picture_fill(struct video_picture *p, const unsigned char *pixels, int stride)
{
	return video() ? video()->picture_fill(p, pixels, stride) : -ELIBACC;
}

int video_write_picture(struct video *v, struct video_picture *p)
{
	return video() ? video()->write_picture(v, p) : -ELIBACC;
}

void video_picture_free(struct video_picture *p)
{
	if (p && video())
		video()->picture_free(p);
}

int video_close(struct video *v)
{
	return video() ? video()->close(v) : -ELIBACC;
}

int video_close_stopped(struct video *v, double seconds, long *kept)
{
	*kept = 0;
	return video() ? video()->close_stopped(v, seconds, kept) : -ELIBACC;
}

void video_free(struct video *v)
{
	if (v && video())
		video()->free(v);
}

void video_strerror(int err, char *buf, size_t len)
{
	const struct video_plugin *plugin = plugin_loaded(&slot);

	if (len == 0)
		return;
	if (plugin)
		plugin->strerror(err, buf, len);
	else if (err < 0 && err > -4096)
		snprintf(buf, len, "%s", strerror(-err)); /* what av_strerror() says of an errno */
	else
		snprintf(buf, len, "error %d", err);
}

void video_quiet_logs(void)
{
	const struct video_plugin *plugin = plugin_loaded(&slot);

	quiet = 1;
	if (plugin)
		plugin->quiet_logs();
}

int video_describe(const char *name, int w, int h, struct rate fps, const struct video_options *o,
                   char *buf, size_t len)
{
	return video() ? video()->describe(name, w, h, fps, o, buf, len) : missing(buf, len);
}

void video_print_versions(FILE *f)
{
	char err[sizeof slot.why];
	const struct video_plugin *plugin = plugin_table(&slot, err, sizeof err);

	if (!plugin) {
		fprintf(f, "  %-12s not loaded: %s (video output needs it)\n", "FFmpeg", err);
		return;
	}
	plugin->print_versions(f);
}
