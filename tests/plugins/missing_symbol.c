/*
 * A test plugin (tests/test_plugin.c): a video plugin of this build (its
 * table's head is right) whose code calls a function no library defines.
 * Bound at once (RTLD_NOW) it is refused at load, naming the symbol;
 * bound lazily it would load, and the first video call would end the
 * process (exit 127, "symbol lookup error") in the middle of a run.
 */
#include "video_plugin.h"

void boids_test_no_such_function(void);

static int path_supported(const char *path)
{
	(void)path;
	boids_test_no_such_function();
	return 1;
}

__attribute__((visibility("default")))
extern const struct video_plugin boids_video_plugin;

const struct video_plugin boids_video_plugin = {
	.head = { VIDEO_PLUGIN_ABI, sizeof(struct video_plugin), 0 },
	.path_supported = path_supported,
};
