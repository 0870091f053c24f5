/*
 * caption_pango — the caption plugin (boids-caption.so): one line or a few
 * of text drawn with Pango on the finished picture; see
 * include/caption_plugin.h.  The only file that includes Pango.
 */
#include <pango/pangocairo.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "caption_plugin.h"

static const char *version(void)
{
	return pango_version_string();
}

/* ------------------------------------------------------------------ the log */

static caption_plugin_log *sink; /* set_log()'s */

/* One message to the sink: errors and criticals as errors, warnings and messages as such; the rest dropped. */
static void say(GLogLevelFlags level, const char *domain, const char *message)
{
	if (!sink || (level & (G_LOG_LEVEL_DEBUG | G_LOG_LEVEL_INFO)))
		return;
	sink(level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL) ? CAPTION_LOG_ERROR : CAPTION_LOG_WARNING,
	     domain && *domain ? domain : "GLib", message ? message : "");
}

/* GLib's structured log (g_log_structured(), and g_log() through the default handler). */
static GLogWriterOutput writer(GLogLevelFlags level, const GLogField *fields, gsize n, gpointer data)
{
	const char *domain = NULL, *message = NULL;

	(void)data;
	for (gsize i = 0; i < n; i++)
		if (fields[i].length < 0 && strcmp(fields[i].key, "GLIB_DOMAIN") == 0)
			domain = fields[i].value;
		else if (fields[i].length < 0 && strcmp(fields[i].key, "MESSAGE") == 0)
			message = fields[i].value;
	say(level, domain, message);
	return G_LOG_WRITER_HANDLED;
}

/* The unstructured log, g_log() (Pango's g_warning()). */
static void handler(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data)
{
	(void)data;
	say(level, domain, message);
}

static void set_log(caption_plugin_log *log)
{
	static int set;

	sink = log;
	if (set++)
		return; /* GLib takes a writer once per process */
	g_log_set_writer_func(writer, NULL, NULL);
	g_log_set_default_handler(handler, NULL);
}

/*
 * Fontconfig prints its own warnings and errors on stderr ("Fontconfig
 * warning: ...: unknown element"), with no hook to take them: it reads its
 * configuration once for the process, when Pango first asks for a font.
 * So the first font is asked for here, on the one thread running, with
 * stderr sent to a temporary file meanwhile, and each line it holds goes
 * to the sink.
 */
static void prepare(void)
{
	FILE *held = tmpfile();
	int saved = held ? dup(2) : -1;
	char line[1024];

	fflush(stderr);
	if (saved >= 0 && dup2(fileno(held), 2) < 0) {
		close(saved);
		saved = -1;
	}
	PangoFontMap *map = pango_cairo_font_map_get_default(); /* this thread's; fontconfig's state is the process's */
	PangoContext *ctx = map ? pango_font_map_create_context(map) : NULL;
	PangoFontDescription *font = pango_font_description_from_string("DejaVu Sans");
	PangoFont *loaded = ctx && font ? pango_font_map_load_font(map, ctx, font) : NULL;
	if (loaded)
		g_object_unref(loaded);
	pango_font_description_free(font);
	if (ctx)
		g_object_unref(ctx);
	fflush(stderr);
	if (saved >= 0) {
		dup2(saved, 2);
		close(saved);
	}
	if (!held)
		return;
	rewind(held);
	while (fgets(line, sizeof line, held)) {
		line[strcspn(line, "\n")] = '\0';
		const char *text = line;
		int error = strncmp(text, "Fontconfig error: ", 18) == 0;
		if (error || strncmp(text, "Fontconfig warning: ", 20) == 0)
			text += error ? 18 : 20;
		if (*text && sink)
			sink(error ? CAPTION_LOG_ERROR : CAPTION_LOG_WARNING, "Fontconfig", text);
	}
	fclose(held);
}

/* -------------------------------------------------------------- the drawing */

static int draw(cairo_t *cr, const char *text, double size, enum caption_pos pos, int width, int height)
{
	PangoLayout *layout = pango_cairo_create_layout(cr);
	PangoFontDescription *font = pango_font_description_from_string("DejaVu Sans");
	PangoRectangle ink, logical;

	if (!layout || !font) {
		if (layout)
			g_object_unref(layout);
		pango_font_description_free(font);
		return -1;
	}
	pango_font_description_set_absolute_size(font, size * PANGO_SCALE);
	pango_layout_set_font_description(layout, font);
	pango_layout_set_text(layout, text, -1);
	pango_layout_get_pixel_extents(layout, &ink, &logical);
	double m = size / 2, pad = size / 4;
	double w = logical.width, h = logical.height;
	int right = pos == CAPTION_BOTTOM_RIGHT || pos == CAPTION_TOP_RIGHT;
	int centre = pos == CAPTION_BOTTOM || pos == CAPTION_TOP;
	int top = pos >= CAPTION_TOP_LEFT;
	double x = right ? width - m - w : centre ? (width - w) / 2 : m;
	double y = top ? m : height - m - h;

	cairo_save(cr);
	cairo_set_source_rgba(cr, 0, 0, 0, .45); /* the box: the text reads on any picture */
	cairo_rectangle(cr, x - pad, y - pad / 2, w + 2 * pad, h + pad);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_move_to(cr, x, y);
	pango_cairo_show_layout(cr, layout);
	cairo_restore(cr);
	pango_font_description_free(font);
	g_object_unref(layout);
	return cairo_status(cr) == CAIRO_STATUS_SUCCESS ? 0 : -1;
}

__attribute__((visibility("default")))
extern const struct caption_plugin boids_caption_plugin;

const struct caption_plugin boids_caption_plugin = {
	.head = { CAPTION_PLUGIN_ABI, sizeof(struct caption_plugin), 0 },
	.draw = draw,
	.version = version,
	.set_log = set_log,
	.prepare = prepare,
};
