/*
 * caption — --caption TEXT: a line of text drawn on every picture, its
 * fields filled for each frame:
 *
 *   {frame}   the frame's number, 0 for the first frame written
 *   {time}    its time in seconds, frame / fps, two decimals ("1.23")
 *   {NAME}    any setting by its option name, as --print-config writes it:
 *             {model}, {boids}, {seed}, {align-weight}, {fps} ...
 *   {{ }}     a literal { or }
 *
 * The settings' names and values come from the resolve step (struct
 * caption_fields, in run.caption_fields): the caption knows no command
 * line.  Drawn by the caption plugin (Pango; include/caption_plugin.h),
 * loaded only when a run has a caption.  Used by the resolve step (the
 * check), main (the load) and the pipeline (each frame, on a drawing
 * thread: caption_draw() only reads the struct).
 */
#ifndef BOIDS_CAPTION_H
#define BOIDS_CAPTION_H

#include <stddef.h>

#include "caption_plugin.h"
#include "config.h"

/* The settings a caption may name, and their values: the resolve step's (cli_resolve()). */
struct caption_fields {
	const char *const *names;    /* every setting's option name ("boids", "align-weight") */
	size_t n;
	/* Setting names[i]'s value in c as --print-config writes it ("42"), into buf. */
	void (*value)(const struct config *c, size_t i, char *buf, size_t len);
};

struct caption {
	const struct config *cfg;    /* the run's settings: the text, position, size, the fields' values */
	caption_plugin_draw *draw;   /* the plugin's function */
	double size;                 /* text height in pixels, --caption-size resolved */
};

/*
 * Checks a caption before any work: 0, or -1 with a one-line message in
 * err naming the first byte that is not UTF-8 (its offset), or the first
 * field that is neither {frame}, {time} nor one of the settings f names
 * (or a lone brace).
 */
int caption_check(const char *text, const struct caption_fields *f, char *err, size_t errlen);

/*
 * The caption of frame `frame` into out (cut to len - 1 bytes, whole UTF-8
 * characters), the settings' values from c->run.caption_fields.  A field's
 * value that is not UTF-8 (a file name in Latin-1) shows each such byte as
 * U+FFFD, the replacement character.
 */
void caption_format(const struct config *c, const char *text, long frame, char *out, size_t len);

/*
 * Loads the plugin for c's caption (linked in, next to the executable,
 * else ../lib/boids/; include/plugin.h): 0, or -1 with a message naming the
 * file and the loader's reason in err.  What its libraries (GLib, Pango)
 * would print goes to log instead, from any drawing thread (NULL: dropped).
 */
int caption_load(struct caption *cap, const struct config *c, caption_plugin_log *log, char *err, size_t errlen);

/* --version: the Pango the plugin runs with ("1.50.12"), loading the
 * plugin to ask; NULL with the reason in err when it cannot be loaded. */
const char *caption_pango_version(char *err, size_t errlen);

/*
 * Draws frame's caption on a finished picture: ARGB32 pixels, w x h, each
 * row stride bytes.  0, or -1 if Pango failed.
 */
int caption_draw(const struct caption *cap, unsigned char *pixels, int stride, int w, int h, long frame);

#endif
