/*
 * caption — --caption's fields and the plugin that draws it; see
 * include/caption.h.
 */
#include "caption.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <cairo.h>

#include "plugin.h"
#include "suggest.h"
#include "utf8.h"

/* The field at *p (after its '{'): its name into name; returns the '}' or NULL. */
static const char *field_name(const char *p, char *name, size_t len)
{
	const char *end = strchr(p, '}');

	if (!end || (size_t)(end - p) >= len)
		return NULL;
	memcpy(name, p, (size_t)(end - p));
	name[end - p] = 0;
	return end;
}

/* The setting f names `name`, or -1 (none: {frame}, {time}, or no field). */
static long setting(const struct caption_fields *f, const char *name)
{
	for (size_t i = 0; f && i < f->n; i++)
		if (strcmp(f->names[i], name) == 0)
			return (long)i;
	return -1;
}

static int known(const struct caption_fields *f, const char *name)
{
	return strcmp(name, "frame") == 0 || strcmp(name, "time") == 0 || setting(f, name) >= 0;
}

/* " (did you mean {boids}?)": the fields nearest name, or "" (include/suggest.h). */
static size_t near_fields(const struct caption_fields *f, const char *name, char *out, size_t outlen)
{
	const char *fields[256] = { "frame", "time" };
	size_t n = 2;

	for (size_t i = 0; f && i < f->n && n < sizeof(fields) / sizeof(fields[0]); i++)
		fields[n++] = f->names[i];
	return suggest_phrase(out, outlen, "{", "}", name, strlen(name), fields, n, sizeof(fields[0]));
}

int caption_check(const char *text, const struct caption_fields *f, char *err, size_t errlen)
{
	char name[64];
	long bad = utf8_invalid(text);

	if (bad >= 0) { /* Pango would warn on every frame and draw it mangled */
		snprintf(err, errlen, "--caption: byte 0x%02x at offset %ld is not UTF-8 (a caption is UTF-8 text)",
		         (unsigned char)text[bad], bad);
		return -1;
	}

	for (const char *p = text; *p; p++) {
		if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
			p++;
			continue;
		}
		if (*p == '}') {
			snprintf(err, errlen, "--caption: a lone '}' (write }} for one)");
			return -1;
		}
		if (*p != '{')
			continue;
		const char *end = field_name(p + 1, name, sizeof name);
		if (!end) {
			snprintf(err, errlen, "--caption: a '{' without its '}' (write {{ for one)");
			return -1;
		}
		if (!known(f, name)) {
			char near[160];
			if (near_fields(f, name, near, sizeof near) > 0)
				snprintf(err, errlen, "--caption: no field '{%s}'%s", name, near);
			else
				snprintf(err, errlen, "--caption: no field '{%s}' (fields: {frame}, {time}, and any "
				         "setting such as {model} or {boids}; boids --list-options names them)", name);
			for (char *c = err; *c; c++)
				if ((unsigned char)*c < 0x20 || *c == 0x7f)
					*c = '?';
			return -1;
		}
		p = end;
	}
	return 0;
}

/* Appends s to out[*n .. len - 1). */
static void put(char *out, size_t len, size_t *n, const char *s)
{
	size_t k = strlen(s);

	if (*n + k >= len)
		k = len - 1 - *n;
	memcpy(out + *n, s, k);
	*n += k;
	out[*n] = 0;
}

void caption_format(const struct config *c, const char *text, long frame, char *out, size_t len)
{
	char name[64], value[512], shown[3 * sizeof value];
	size_t n = 0;

	out[0] = 0;
	for (const char *p = text; *p && n + 1 < len; p++) {
		if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
			out[n++] = *p++;
			out[n] = 0;
			continue;
		}
		const char *end = *p == '{' ? field_name(p + 1, name, sizeof name) : NULL;
		if (!end) {
			out[n++] = *p;
			out[n] = 0;
			continue;
		}
		const struct caption_fields *f = c->run.caption_fields;
		long i = setting(f, name);
		if (strcmp(name, "frame") == 0)
			snprintf(value, sizeof value, "%ld", frame);
		else if (strcmp(name, "time") == 0)
			snprintf(value, sizeof value, "%.2f", rate_seconds(c->run.fps, frame));
		else if (i >= 0)
			f->value(c, (size_t)i, value, sizeof value);
		else
			value[0] = 0; /* caption_check() refused it */
		utf8_repair(value, shown, sizeof shown); /* a Latin-1 file name in {output}: U+FFFD, as the summary */
		put(out, len, &n, shown);
		p = end;
	}
	while (n > 0 && ((unsigned char)out[n - 1] & 0xc0) == 0x80 && n + 1 >= len)
		out[--n] = 0; /* cut: no half character */
}

/* ------------------------------------------------------------- the plugin */

/* The plugin when its object is linked in (the test binaries); NULL in boids, which loads it. */
extern const struct caption_plugin boids_caption_plugin __attribute__((weak));

static caption_plugin_log *sink; /* caption_load()'s: where the libraries' messages go */

/* What the plugin's libraries say, to the sink (none yet: dropped, never printed). */
static void library_said(enum caption_log_level level, const char *domain, const char *message)
{
	caption_plugin_log *to = sink;

	if (to)
		to(level, domain, message);
}

static void loaded(const void *table)
{
	((const struct caption_plugin *)table)->set_log(library_said);
}

static struct plugin slot = PLUGIN_INIT(CAPTION_PLUGIN_FILE, CAPTION_PLUGIN_SYMBOL, "caption", CAPTION_PLUGIN_ABI,
                                        sizeof(struct caption_plugin), 0, loaded);
static pthread_once_t linked_once = PTHREAD_ONCE_INIT;

static void linked_loaded(void)
{
	loaded(&boids_caption_plugin);
}

/* The plugin's table, linked in or loaded once; NULL with the reason in err. */
static const struct caption_plugin *caption_plugin(char *err, size_t errlen)
{
	if (&boids_caption_plugin) {
		pthread_once(&linked_once, linked_loaded);
		return &boids_caption_plugin;
	}
	return plugin_table(&slot, err, errlen);
}

int caption_load(struct caption *cap, const struct config *c, caption_plugin_log *log, char *err, size_t errlen)
{
	const struct caption_plugin *p;

	sink = log; /* before the plugin starts GLib */
	p = caption_plugin(err, errlen);

	cap->cfg = c;
	cap->size = c->run.caption_size >= 4 ? c->run.caption_size
	                                     : (c->render.height / 24 > 12 ? c->render.height / 24 : 12);
	if (!p)
		return -1;
	p->prepare(); /* main's thread, before the drawing threads: fontconfig's words to log too */
	cap->draw = p->draw;
	return 0;
}

const char *caption_pango_version(char *err, size_t errlen)
{
	const struct caption_plugin *p = caption_plugin(err, errlen);

	return p ? p->version() : NULL;
}

int caption_draw(const struct caption *cap, unsigned char *pixels, int stride, int w, int h, long frame)
{
	char text[4096];
	cairo_surface_t *s = cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_ARGB32, w, h, stride);
	cairo_t *cr = cairo_create(s);

	caption_format(cap->cfg, cap->cfg->run.caption, frame, text, sizeof text);
	int ret = cap->draw(cr, text, cap->size, (enum caption_pos)cap->cfg->run.caption_pos, w, h);
	cairo_destroy(cr);
	cairo_surface_flush(s);
	cairo_surface_destroy(s);
	return ret;
}
