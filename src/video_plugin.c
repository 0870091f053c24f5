/*
 * video_plugin — the video module's one exported symbol when it is built as
 * boids-video.so: the table of video.h's functions; see
 * include/video_plugin.h.
 */
#include "video_plugin.h"

__attribute__((visibility("default")))
extern const struct video_plugin boids_video_plugin;

const struct video_plugin boids_video_plugin = {
	.head = { VIDEO_PLUGIN_ABI, sizeof(struct video_plugin), 0 },
	.path_supported = video_path_supported,
	.needs_file = video_needs_file,
	.list_codecs = video_list_codecs,
	.extensions = video_extensions,
	.check = video_check,
	.open_fd = video_open_fd,
	.open = video_open,
	.write_frame = video_write_frame,
	.picture_new = video_picture_new,
	.picture_fill = video_picture_fill,
	.write_picture = video_write_picture,
	.picture_free = video_picture_free,
	.close = video_close,
	.free = video_free,
	.strerror = video_strerror,
	.quiet_logs = video_quiet_logs,
	.describe = video_describe,
	.print_versions = video_print_versions,
	.close_stopped = video_close_stopped,
};
