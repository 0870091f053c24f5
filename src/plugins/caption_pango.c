/*
 * caption_pango — the caption plugin (boids-caption.so): one line or a few
 * of text drawn with Pango on the finished picture; see
 * include/caption_plugin.h.  The only file that includes Pango.
 */
#include <pango/pangocairo.h>

#include "caption_plugin.h"

caption_plugin_draw boids_caption_draw;
caption_plugin_version boids_caption_version;

const char *boids_caption_version(void)
{
	return pango_version_string();
}

int boids_caption_draw(cairo_t *cr, const char *text, double size, enum caption_pos pos, int width, int height)
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
