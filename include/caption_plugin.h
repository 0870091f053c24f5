/*
 * caption_plugin — the caption's drawing, with Pango, built as a plugin of
 * its own (boids-caption.so, linked with pangocairo) and loaded with
 * dlopen() only by a run with --caption: every other run, drawing or not,
 * never maps Pango, HarfBuzz, fontconfig and GLib.
 *
 * The plugin exports CAPTION_PLUGIN_SYMBOL, a caption_plugin_draw function
 * (and CAPTION_PLUGIN_VERSION, for --version); src/caption.c finds it (linked in, as the
 * test binaries have it, else next to the executable, else in
 * ../lib/boids/ as make install puts it).
 */
#ifndef BOIDS_CAPTION_PLUGIN_H
#define BOIDS_CAPTION_PLUGIN_H

#include <cairo.h>
#include <stdint.h>

#include "config.h" /* enum caption_pos */

#define CAPTION_PLUGIN_FILE   "boids-caption.so"
#define CAPTION_PLUGIN_SYMBOL "boids_caption_draw"

/*
 * Draws text (UTF-8, one or more lines) into cr, a picture width x height
 * pixels under the identity matrix: in DejaVu Sans (fontconfig's nearest
 * if absent) size pixels high, white on a translucent dark box, a margin of
 * half the size from the edges at pos.  Returns 0, or -1 if Pango failed
 * (nothing drawn).  The same text, size and picture give the same pixels.
 */
typedef int caption_plugin_draw(cairo_t *cr, const char *text, double size, enum caption_pos pos,
                                int width, int height);

/* The plugin's second symbol: the version of the Pango it runs with. */
#define CAPTION_PLUGIN_VERSION "boids_caption_version"
typedef const char *caption_plugin_version(void);

#endif
