/*
 * caption_plugin — the caption's drawing, with Pango, built as a plugin of
 * its own (boids-caption.so, linked with pangocairo) and loaded with
 * dlopen() only by a run with --caption: every other run, drawing or not,
 * never maps Pango, HarfBuzz, fontconfig and GLib.
 *
 * The plugin exports one symbol, CAPTION_PLUGIN_SYMBOL, a struct
 * caption_plugin; src/caption.c loads it (include/plugin.h: where it is
 * looked for, and what it must be) or, in the test binaries, finds it
 * linked in.  Libraries never print: the plugin routes GLib's log (Pango's
 * warnings, GObject's criticals) to the function set_log() gives it, which
 * boids turns into its own messages, and prepare() takes what fontconfig
 * prints when it reads its configuration there too.
 */
#ifndef BOIDS_CAPTION_PLUGIN_H
#define BOIDS_CAPTION_PLUGIN_H

#include <cairo.h>
#include <stdint.h>

#include "config.h" /* enum caption_pos */
#include "plugin.h"

#define CAPTION_PLUGIN_FILE   "boids-caption.so"
#define CAPTION_PLUGIN_SYMBOL "boids_caption_plugin"
#define CAPTION_PLUGIN_ABI    1 /* the first table */

/*
 * Draws text (UTF-8, one or more lines) into cr, a picture width x height
 * pixels under the identity matrix: in DejaVu Sans (fontconfig's nearest
 * if absent) size pixels high, white on a translucent dark box, a margin of
 * half the size from the edges at pos.  Returns 0, or -1 if Pango failed
 * (nothing drawn).  The same text, size and picture give the same pixels.
 */
typedef int caption_plugin_draw(cairo_t *cr, const char *text, double size, enum caption_pos pos,
                                int width, int height);

/* How bad a library's message is: GLib's error and critical, warning and message. */
enum caption_log_level { CAPTION_LOG_ERROR, CAPTION_LOG_WARNING };

/* Where a library's message goes: its domain ("Pango", "GLib-GObject") and text. */
typedef void caption_plugin_log(enum caption_log_level level, const char *domain, const char *message);

struct caption_plugin {
	struct plugin_head head;        /* CAPTION_PLUGIN_ABI and the size of the build that made it */
	caption_plugin_draw *draw;
	const char *(*version)(void);   /* the version of the Pango it runs with: "1.50.12" */
	/* From now on GLib's messages go to log (debug and info ones are
	 * dropped, as GLib does by default), never to stderr.  Call once, before
	 * drawing; log may be called from any thread that draws. */
	void (*set_log)(caption_plugin_log *log);
	/* Loads the fonts (fontconfig reads its configuration then) with what
	 * fontconfig prints on stderr taken to log too: call after set_log(),
	 * while no other thread writes on stderr. */
	void (*prepare)(void);
};

#endif
